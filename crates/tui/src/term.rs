//! The real terminal: raw mode and the alternate screen for the time of the match, restored on
//! every way out — a normal quit, Ctrl-C (a key in raw mode), SIGTERM or SIGHUP, an error, and a
//! panic (a hook restores the terminal before the panic message is printed).
//!
//! The terminal can also go away under the program (its window closed, its tmux session killed):
//! then reading it gives end-of-file at once, for ever. The event loop therefore never blocks in
//! the terminal library's reading: it waits on the terminal's input itself (`InputWatch`), at
//! most `TICK` at a time, so that a termination signal is seen within a tick, and it takes a
//! hang-up or the end of input as the person leaving: the record is saved and `run` returns.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::crossterm::{cursor, execute};

use crate::app::App;
use crate::render;

/// True while the terminal is in raw mode on the alternate screen (set by [`run`]).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as it was: raw mode off, the main screen, the cursor shown. Only the
/// first call after [`run`] took the terminal does anything (leaving the alternate screen twice
/// would move the cursor back over what was printed in between, such as a panic's report).
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

/// Restores the terminal when dropped (also while unwinding from a panic).
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Installs, once, a panic hook that restores the terminal before the usual report.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Runs the interface until the person quits (or a termination signal comes); returns the lines to
/// print afterwards (where the record is). The terminal is restored whatever happens.
pub fn run(app: &mut App) -> io::Result<Vec<String>> {
    install_panic_hook();
    let stop = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        signal_hook::flag::register(sig, stop.clone())?;
    }
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, cursor::Hide)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| event_loop(&mut terminal, app, &stop)));
    // Whatever happened, the record is saved (the hook has restored the terminal after a panic).
    let lines = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.finish())).unwrap_or_default();
    drop(guard);
    match result {
        Ok(r) => r.map(|()| lines),
        Err(panic) => {
            for l in lines {
                let _ = writeln!(io::stderr(), "{l}");
            }
            std::panic::resume_unwind(panic)
        }
    }
}

/// The longest the event loop waits before it looks at the clock and the signal flag again.
const TICK: Duration = Duration::from_millis(100);

/// What the terminal's input holds after a wait.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Input {
    /// Bytes to read (keys, or a reply of the terminal).
    Ready,
    /// Nothing within the wait (or a signal interrupted it).
    Idle,
    /// The terminal hung up, or its input ended: nothing will ever come again.
    Closed,
}

/// Waits on the terminal's input without reading it (the terminal library reads it afterwards).
struct InputWatch {
    /// The descriptor watched: standard input when it is the terminal, else `/dev/tty`.
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
    /// `/dev/tty`, kept open while it is watched.
    #[cfg(unix)]
    _tty: Option<std::fs::File>,
}

impl InputWatch {
    // The workspace denies `unsafe_code`; this function calls `isatty` through libc, a system call
    // that is unsafe to call, so it allows it here.
    #[allow(unsafe_code)]
    fn new() -> InputWatch {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd as _;
            // SAFETY: isatty only inspects the descriptor.
            if unsafe { libc::isatty(libc::STDIN_FILENO) } == 1 {
                return InputWatch { fd: libc::STDIN_FILENO, _tty: None };
            }
            match std::fs::File::open("/dev/tty") {
                Ok(f) => InputWatch { fd: f.as_raw_fd(), _tty: Some(f) },
                Err(_) => InputWatch { fd: -1, _tty: None },
            }
        }
        #[cfg(not(unix))]
        InputWatch {}
    }

    /// Waits up to `timeout` for input, a hang-up or the end of input.
    // The workspace denies `unsafe_code`; waiting on a descriptor with a timeout (`poll`) and asking
    // how many bytes wait in it (`ioctl(FIONREAD)`) have no safe call in the standard library, so
    // this function makes both system calls through libc and allows them here.
    #[allow(unsafe_code)]
    #[cfg(unix)]
    fn wait(&self, timeout: Duration) -> io::Result<Input> {
        if self.fd < 0 {
            std::thread::sleep(timeout);
            return Ok(Input::Ready);
        }
        let mut p = libc::pollfd { fd: self.fd, events: libc::POLLIN, revents: 0 };
        let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut p, 1, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            // A signal (SIGTERM, SIGHUP, SIGWINCH): the loop looks at its flag.
            return if e.kind() == io::ErrorKind::Interrupted { Ok(Input::Idle) } else { Err(e) };
        }
        if n == 0 {
            return Ok(Input::Idle);
        }
        if p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            return Ok(Input::Closed);
        }
        // Readable with nothing to read is the end of input.
        let mut queued: libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int.
        if unsafe { libc::ioctl(self.fd, libc::FIONREAD, &mut queued) } == 0 && queued == 0 {
            return Ok(Input::Closed);
        }
        Ok(Input::Ready)
    }

    #[cfg(not(unix))]
    fn wait(&self, timeout: Duration) -> io::Result<Input> {
        Ok(if event::poll(timeout)? { Input::Ready } else { Input::Idle })
    }
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    app: &mut App,
    stop: &AtomicBool,
) -> io::Result<()> {
    let input = InputWatch::new();
    loop {
        let now = Instant::now();
        app.tick(now);
        if let Err(e) = terminal.draw(|f| render::draw(f, app, now)) {
            // A terminal that is gone cannot be drawn on: that is the person leaving.
            if stop.load(Ordering::Relaxed) || input.wait(Duration::ZERO)? == Input::Closed {
                return Ok(());
            }
            return Err(e);
        }
        // A test of the panic path (crates/yezi/tests/play_tmux.rs) asks for a panic here.
        if std::env::var_os("YEZI_PLAY_TEST_PANIC").is_some() {
            panic!("YEZI_PLAY_TEST_PANIC is set: a panic for the test of the terminal's restoration");
        }
        if app.quit || stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let wait = app
            .next_deadline()
            .map(|d| d.saturating_duration_since(Instant::now()))
            .unwrap_or(TICK)
            .clamp(Duration::from_millis(5), TICK);
        if input.wait(wait)? == Input::Closed {
            return Ok(());
        }
        // Take every event the terminal library has (keys, a resize) without ever blocking in it:
        // it reads only what `wait` saw to be there.
        while !app.quit && event::poll(Duration::ZERO)? {
            match event::read()? {
                Event::Key(k) => app.handle_key(k, Instant::now()),
                Event::Resize(..) => terminal.autoresize()?,
                _ => {}
            }
        }
    }
}

/// Asks for a password on the terminal: `prompt` on standard error, then the characters typed
/// up to Enter, not shown. Ctrl-C or Esc gives up (an error of kind `Interrupted`).
pub fn read_password(prompt: &str) -> std::io::Result<String> {
    use ratatui::crossterm::event::{KeyCode, KeyEventKind, KeyModifiers};
    use std::io::Write as _;
    let mut err = std::io::stderr();
    write!(err, "{prompt}")?;
    err.flush()?;
    ratatui::crossterm::terminal::enable_raw_mode()?;
    let read = (|| {
        let mut pw = String::new();
        loop {
            if let Event::Key(k) = event::read()? {
                if k.kind == KeyEventKind::Release {
                    continue;
                }
                match k.code {
                    KeyCode::Enter => return Ok(pw),
                    KeyCode::Esc => break,
                    KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => break,
                    KeyCode::Backspace => {
                        pw.pop();
                    }
                    KeyCode::Char(c) => pw.push(c),
                    _ => {}
                }
            }
        }
        Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "no password given"))
    })();
    let _ = ratatui::crossterm::terminal::disable_raw_mode();
    let _ = writeln!(err);
    read
}
