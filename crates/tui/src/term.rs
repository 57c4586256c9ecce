//! The real terminal: raw mode and the alternate screen for the time of the match, restored on
//! every way out — a normal quit, Ctrl-C (a key in raw mode), SIGTERM or SIGHUP, an error, and a
//! panic (a hook restores the terminal before the panic message is printed).

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
                eprintln!("{l}");
            }
            std::panic::resume_unwind(panic)
        }
    }
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    app: &mut App,
    stop: &AtomicBool,
) -> io::Result<()> {
    const TICK: Duration = Duration::from_millis(100);
    loop {
        let now = Instant::now();
        app.tick(now);
        terminal.draw(|f| render::draw(f, app, now))?;
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
        if event::poll(wait)? {
            // Take every pending event before drawing again.
            loop {
                match event::read()? {
                    Event::Key(k) => app.handle_key(k, Instant::now()),
                    Event::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
                if app.quit || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
    }
}
