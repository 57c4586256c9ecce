//! A real run of `yezi play` in a real terminal: the binary under tmux (a detached session of a
//! fixed size on a tmux server of its own), keys sent as a person types them, the screen read
//! back with `capture-pane`. A hand of Madiao is played to its result, which must be on screen;
//! then the player quits, and the terminal must be back as it was (not in raw mode, not on the
//! alternate screen), and the record the program names must replay with `yezi replay`.
//!
//! The terminal must also be restored when the program is ended by SIGTERM (the record is saved
//! then too) and when it panics. When its terminal goes away (the tmux session is killed, as
//! closing a window does), with or without a SIGTERM after, the program must be gone within 2 s,
//! its record written and replayable.
//!
//! tmux is required: `./test.sh` installs it when it is missing; without it this test fails and
//! says so (it never skips).

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        // UTF-8 whatever the machine's locale (the screen has Chinese card names); a terminal
        // type for the panes even where the test runs without one.
        Command::new("tmux")
            .env("LC_ALL", "C.UTF-8")
            .env("TERM", "xterm-256color")
            .arg("-u")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("tmux {args:?}: {e}"))
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        let o = self.run(&args);
        assert!(o.status.success(), "send-keys: {}", String::from_utf8_lossy(&o.stderr));
    }

    /// Waits until the screen satisfies `pred`; returns the screen.
    fn wait_for(&self, secs: u64, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            assert!(Instant::now() < end, "waited {secs}s for {what}; the screen:\n{s}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-L").arg(&self.socket).arg("kill-server").output();
    }
}

/// The prompt line: the line above the last one of the screen that has text.
fn prompt(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    // The interface's last two rows are the prompt and the status line.
    lines
        .iter()
        .rev()
        .skip_while(|l| l.trim().is_empty())
        .take(2)
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" | ")
}

fn file(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn require_tmux() {
    let v = Command::new("tmux").arg("-V").output();
    assert!(
        v.as_ref().is_ok_and(|o| o.status.success()),
        "tmux is not installed: ./test.sh installs it (apt-get install tmux); this test needs it"
    );
}

/// A detached 100×30 session running `yezi play ARGS`; when it exits, its status goes to `status`,
/// the terminal's modes (`stty -a`) to `stty`, and the pane stays open. `pid` receives the
/// program's process id.
struct Run {
    t: Tmux,
    status: std::path::PathBuf,
    stty: std::path::PathBuf,
    pid: std::path::PathBuf,
}

fn start(name: &str, dir: &Path, env: &str, args: &str) -> Run {
    let status = dir.join(format!("{name}.status"));
    let stty = dir.join(format!("{name}.stty"));
    let pid = dir.join(format!("{name}.pid"));
    let script = format!(
        "sh -c 'echo $$ > {pid}; exec env XDG_DATA_HOME={d} {env} {bin} play {args}'; \
         echo $? > {status}; stty -a > {stty} 2>&1; exec sleep 600",
        pid = pid.display(),
        d = dir.display(),
        bin = env!("CARGO_BIN_EXE_yezi"),
        status = status.display(),
        stty = stty.display(),
    );
    let t = Tmux { socket: format!("yezi-test-{}-{name}", std::process::id()) };
    let o = t.run(&["-f", "/dev/null", "new-session", "-d", "-s", "play", "-x", "100", "-y", "30", &script]);
    assert!(o.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&o.stderr));
    // Escape reaches the program at once.
    t.run(&["set-option", "-g", "escape-time", "0"]);
    Run { t, status, stty, pid }
}

impl Run {
    /// Waits for the program to exit; returns its exit status.
    fn exited(&self) -> String {
        let end = Instant::now() + Duration::from_secs(20);
        while file(&self.status).trim().is_empty() || file(&self.stty).is_empty() {
            assert!(Instant::now() < end, "yezi play did not exit; the screen:\n{}", self.t.screen());
            std::thread::sleep(Duration::from_millis(100));
        }
        file(&self.status).trim().to_string()
    }

    /// Asserts the terminal is as it was: cooked mode with echo, the main screen.
    fn assert_restored(&self) {
        let modes = file(&self.stty);
        let words: Vec<&str> = modes.split_whitespace().collect();
        assert!(words.contains(&"icanon") && words.contains(&"echo"), "still in raw mode: {modes}");
        let alt = self.t.run(&["display-message", "-p", "-t", "play", "#{alternate_on}"]);
        assert_eq!(String::from_utf8_lossy(&alt.stdout).trim(), "0", "still on the alternate screen");
    }
}

#[test]
fn a_hand_of_madiao_played_in_a_real_terminal() {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("match.json");
    let run = start(
        "hand",
        dir.path(),
        "",
        &format!("madiao --seed 5 --bots random --delay-ms 60 --out {}", out.display()),
    );
    let t = &run.t;
    let first = t.wait_for(30, "the table", |s| s.contains("Your hand (8 cards)"));
    assert!(first.contains("馬弔 Madiao") && first.contains("seed 5"), "{first}");
    // Card codes and their Chinese names are on screen.
    assert!(first.contains("upcard "), "{first}");

    // Play the hand: capture when the prompt offers it, else slough; decline a redeal.
    let end = Instant::now() + Duration::from_secs(90);
    let mut keys = 0;
    let result = loop {
        let s = t.screen();
        if s.contains("The hand is over") {
            break s;
        }
        assert!(Instant::now() < end, "the hand did not end; the screen:\n{s}");
        let p = prompt(&s);
        let key = if p.contains("Your lead") || p.contains("Enter captures with") || p.contains("long suit") {
            Some("Enter")
        } else if p.contains("d sloughs") {
            Some("d")
        } else {
            None
        };
        if let Some(k) = key {
            t.keys(&[k]);
            keys += 1;
            // Wait for the screen to move on from this decision.
            let before = p.clone();
            let _ = t.wait_for(20, "the move to be taken", |s| prompt(s) != before);
        } else {
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    assert!(keys >= 8, "the person made {keys} moves");
    assert!(result.contains(" Result ") && result.contains("Settlement, line by line"), "{result}");
    assert!(result.contains("this hand (stakes):"), "{result}");

    // The next hand starts on Enter.
    t.keys(&["Enter"]);
    t.wait_for(20, "hand 2", |s| s.contains("hand 2 ·"));

    // Quit: Esc asks, y confirms.
    t.keys(&["Escape"]);
    t.wait_for(10, "the question", |s| s.contains("Leave the match?"));
    t.keys(&["y"]);
    assert_eq!(run.exited(), "0", "exit status");
    // The terminal is as it was, with what the program printed.
    run.assert_restored();
    let after = t.screen();
    assert!(after.contains("The record of the match so far is in"), "{after}");

    // The record replays.
    let rep = Command::new(env!("CARGO_BIN_EXE_yezi")).arg("replay").arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&rep.stdout);
    assert!(rep.status.success(), "{text}\n{}", String::from_utf8_lossy(&rep.stderr));
    assert!(text.contains("2 hand(s) replayed, 1 finished"), "{text}");
}

#[test]
fn sigterm_and_a_panic_leave_the_terminal_as_it_was() {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    // SIGTERM in the middle of a hand: the record is saved and the terminal restored.
    let out = dir.path().join("term.json");
    let run = start(
        "term",
        dir.path(),
        "",
        &format!("dabaifen --seed 3 --bots random --draw-ms 20 --out {}", out.display()),
    );
    run.t.wait_for(30, "the table", |s| s.contains("打百分 Da Bai Fen"));
    let pid = file(&run.pid).trim().to_string();
    assert!(!pid.is_empty());
    let k = Command::new("kill").args(["-TERM", &pid]).output().unwrap();
    assert!(k.status.success(), "kill: {}", String::from_utf8_lossy(&k.stderr));
    assert_eq!(run.exited(), "0");
    run.assert_restored();
    assert!(run.t.screen().contains("The record of the match so far is in"), "{}", run.t.screen());
    let rep = Command::new(env!("CARGO_BIN_EXE_yezi")).arg("replay").arg(&out).output().unwrap();
    assert!(rep.status.success(), "{}", String::from_utf8_lossy(&rep.stderr));

    // A panic: the hook restores the terminal before the report, which is readable.
    let out = dir.path().join("panic.json");
    let run = start(
        "panic",
        dir.path(),
        "RUST_BACKTRACE=0 YEZI_PLAY_TEST_PANIC=1",
        &format!("madiao --seed 1 --bots random --out {}", out.display()),
    );
    assert_eq!(run.exited(), "101", "a panic exits with 101");
    run.assert_restored();
    let s = run.t.screen();
    assert!(s.contains("panicked") && s.contains("YEZI_PLAY_TEST_PANIC"), "{s}");
    // The record is saved even then.
    assert!(s.contains("The record of the match so far is in"), "{s}");
    let rep = Command::new(env!("CARGO_BIN_EXE_yezi")).arg("replay").arg(&out).output().unwrap();
    assert!(rep.status.success(), "{}", String::from_utf8_lossy(&rep.stderr));
}

/// True once the process is gone (or a zombie nobody has reaped yet: it runs no more).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the command name in parentheses.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
    }
}

/// Kills the terminal under a running `yezi play` (its tmux session, as closing the window does),
/// then, if `sigterm`, sends SIGTERM too; the program must be gone within 2 s, and its record must
/// be written and replay.
fn hang_up(name: &str, args: &str, sigterm: bool) {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(format!("{name}.json"));
    let run = start(name, dir.path(), "", &format!("{args} --out {}", out.display()));
    run.t.wait_for(30, "the table", |s| s.contains("seed "));
    // Let a bot or two move, so that the record holds actions.
    std::thread::sleep(Duration::from_millis(800));
    let pid = file(&run.pid).trim().to_string();
    assert!(!pid.is_empty() && !gone(&pid));
    let k = run.t.run(&["kill-session", "-t", "play"]);
    assert!(k.status.success(), "kill-session: {}", String::from_utf8_lossy(&k.stderr));
    let killed = Instant::now();
    if sigterm {
        let _ = Command::new("kill").args(["-TERM", &pid]).output();
    }
    while !gone(&pid) {
        if killed.elapsed() > Duration::from_secs(2) {
            let cpu = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let _ = Command::new("kill").args(["-KILL", &pid]).output();
            panic!("yezi play still runs 2 s after its terminal was killed: {cpu}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(out.exists(), "no record was written at {}", out.display());
    let rep = Command::new(env!("CARGO_BIN_EXE_yezi")).arg("replay").arg(&out).output().unwrap();
    assert!(
        rep.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&rep.stdout),
        String::from_utf8_lossy(&rep.stderr)
    );
}

#[test]
fn a_killed_terminal_ends_madiao_with_its_record_saved() {
    hang_up("hup-madiao", "madiao --seed 3 --bots random --delay-ms 60", false);
}

#[test]
fn a_killed_terminal_ends_dabaifen_with_its_record_saved() {
    hang_up("hup-dabaifen", "dabaifen --seed 7 --bots random --draw-ms 20", false);
}

#[test]
fn sigterm_after_the_terminal_is_gone_ends_the_program_with_its_record_saved() {
    hang_up("hup-term", "dabaifen --seed 7 --bots random --draw-ms 20", true);
}

#[test]
fn sighup_with_the_terminal_still_there_saves_the_record_and_restores_it() {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hup.json");
    let run =
        start("sighup", dir.path(), "", &format!("madiao --seed 3 --bots random --out {}", out.display()));
    run.t.wait_for(30, "the table", |s| s.contains("馬弔 Madiao"));
    let pid = file(&run.pid).trim().to_string();
    let k = Command::new("kill").args(["-HUP", &pid]).output().unwrap();
    assert!(k.status.success(), "kill: {}", String::from_utf8_lossy(&k.stderr));
    let sent = Instant::now();
    assert_eq!(run.exited(), "0");
    assert!(sent.elapsed() < Duration::from_secs(2), "exited {:?} after SIGHUP", sent.elapsed());
    run.assert_restored();
    let rep = Command::new(env!("CARGO_BIN_EXE_yezi")).arg("replay").arg(&out).output().unwrap();
    assert!(rep.status.success(), "{}", String::from_utf8_lossy(&rep.stderr));
}
