//! `ext`: a bot in another process, in any language, spoken to over the open bot protocol
//! `yezi-bot/1` (`docs/bot-protocol.md`): one JSON object per line on the child's standard input
//! and output.
//!
//! The host side is here. [`ExtBot`] begins a match at its first decision (the seat and the
//! variants of the handshake come from the first view), in a new process or in one kept in a
//! [`Pool`]; asks it for every decision with the seat's view and the legal actions; tells it when
//! a hand is over; and when the bot is dropped, leaves the process in its pool or asks it to quit.
//! The bot never sees more than the seat's view.
//!
//! Nothing the child does can stop or hang the host: every read has a deadline, reading and
//! writing happen on threads of their own, a line has a maximum length, and a child that is too
//! slow is killed. A decision the child fails — an illegal or malformed answer, no answer in time,
//! a crash — gets the *fallback action*, the first of the legal actions as sent, and is counted
//! ([`Fallbacks`]). After a timeout or a crash the next decision starts the command again, at most
//! [`MAX_STARTS`] times in all; after that every decision falls back.

use std::io::{BufRead, BufReader, Read, Write};
use std::marker::PhantomData;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{Bot, Budget, Game};

/// The protocol's name and version, sent in `hello` and expected back in `ready`.
pub const PROTOCOL: &str = "yezi-bot/1";

/// The prefix of an external bot's name in the arena and `yezi sim`/`bench`: `ext:COMMAND`.
pub const PREFIX: &str = "ext:";

/// The longest line a bot may write, in bytes (without the newline).
pub const MAX_LINE: usize = 1 << 20;

/// How many times one bot's command is started at most (the first start included).
pub const MAX_STARTS: u32 = 3;

/// How long a bot has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

/// The time limits of an external bot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtLimits {
    /// Milliseconds the bot has to answer a decision, from the moment the request is sent.
    pub time_limit_ms: u32,
    /// Milliseconds the bot has to answer `hello` with `ready` after its start.
    pub start_limit_ms: u32,
}

impl Default for ExtLimits {
    fn default() -> Self {
        ExtLimits { time_limit_ms: 1000, start_limit_ms: 10_000 }
    }
}

/// How many of a bot's decisions were made for it by the fallback, by cause. Every decision
/// counts at most once, under the cause that made it fail.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Fallbacks {
    /// Decisions asked of the bot.
    pub decisions: u64,
    /// Well-formed answers naming an action that is not among the legal ones.
    pub illegal: u64,
    /// Answers that were not a `yezi-bot/1` message of the expected shape (a handshake with the
    /// wrong protocol included).
    pub malformed: u64,
    /// No answer within the time limit (the process is killed).
    pub timeouts: u64,
    /// The process could not be started, exited, or closed its output; and every decision after
    /// the last allowed start failed.
    pub crashes: u64,
}

impl Fallbacks {
    /// Decisions that got the fallback action.
    pub fn total(&self) -> u64 {
        self.illegal + self.malformed + self.timeouts + self.crashes
    }

    /// The failures by cause, as text: `2 illegal, 0 malformed, 1 timeouts, 0 crashes`.
    pub fn causes(&self) -> String {
        format!(
            "{} illegal, {} malformed, {} timeouts, {} crashes",
            self.illegal, self.malformed, self.timeouts, self.crashes
        )
    }

    /// Adds another bot's counts.
    pub fn add(&mut self, other: &Fallbacks) {
        self.decisions += other.decisions;
        self.illegal += other.illegal;
        self.malformed += other.malformed;
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
    }
}

/// A command line that cannot be split into a program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing to run.
    #[error("the command is empty")]
    Empty,
    /// A quote that is never closed.
    #[error("the command {0:?} has an unclosed quote")]
    UnclosedQuote(String),
}

/// Splits a command line into words as a POSIX shell would without expanding anything: words are
/// separated by white space; `'…'` keeps everything literally, `"…"` keeps everything but `\"`
/// and `\\`, and a backslash outside quotes keeps the next character. The command is then run
/// directly, never through a shell.
pub fn split_command(line: &str) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(CommandError::UnclosedQuote(line.to_string())),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(CommandError::UnclosedQuote(line.to_string())),
                        },
                        Some(c) => word.push(c),
                        None => return Err(CommandError::UnclosedQuote(line.to_string())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(CommandError::Empty);
    }
    Ok(words)
}

/// A line read from the bot, or why there is none.
enum Line {
    Text(String),
    /// Longer than [`MAX_LINE`] or not UTF-8: the reading stops there.
    Bad(String),
    /// The output was closed (the process ended, most likely).
    Closed,
}

/// Why a decision got the fallback.
#[derive(Debug)]
enum Failure {
    Illegal(String),
    Malformed(String),
    /// A malformed answer after which the reading cannot go on: the process is ended.
    Unreadable(String),
    Timeout(String),
    Crash(String),
}

/// Why a bot's process could not be started.
#[derive(Debug, thiserror::Error)]
enum StartError {
    /// The command line has no program.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// The program could not be run.
    #[error("cannot start {program:?}: {error}")]
    Spawn {
        /// The program as given.
        program: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The process was started without the pipes it needs.
    #[error("the bot's standard input or output is missing")]
    NoPipes,
    /// The threads that talk to the process could not be started.
    #[error("cannot start the threads that talk to the bot")]
    NoThreads,
}

/// A running bot process with its reader and writer threads.
struct Process {
    child: Child,
    to_child: Option<mpsc::Sender<String>>,
    from_child: mpsc::Receiver<Line>,
}

impl Process {
    fn start(argv: &[String]) -> Result<Process, StartError> {
        let Some((program, args)) = argv.split_first() else {
            return Err(CommandError::Empty.into());
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| StartError::Spawn { program: program.clone(), error })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::NoPipes);
        };
        let (to_child, rx) = mpsc::channel::<String>();
        let writer =
            std::thread::Builder::new().name("ext-bot-writer".into()).spawn(move || write_lines(stdin, rx));
        let (tx, from_child) = mpsc::channel::<Line>();
        let reader =
            std::thread::Builder::new().name("ext-bot-reader".into()).spawn(move || read_lines(stdout, tx));
        if writer.is_err() || reader.is_err() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::NoThreads);
        }
        Ok(Process { child, to_child: Some(to_child), from_child })
    }

    /// Queues one message; false when the writer has stopped (the pipe is broken).
    fn send(&self, msg: &Value) -> bool {
        let mut line = msg.to_string();
        line.push('\n');
        self.to_child.as_ref().is_some_and(|t| t.send(line).is_ok())
    }

    /// The next non-blank line before `deadline`.
    fn next_line(&self, deadline: Instant) -> Result<Line, mpsc::RecvTimeoutError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_child.recv_timeout(left)? {
                Line::Text(t) if t.trim().is_empty() => continue,
                other => return Ok(other),
            }
        }
    }

    /// How the process ended, for messages (it is killed if it is still running).
    fn exit_text(&mut self) -> String {
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(s) => format!("the bot exited ({s})"),
            Err(e) => format!("the bot ended ({e})"),
        }
    }

    /// Asks the bot to quit, waits a little, then kills it.
    fn quit(self) {
        self.send(&json!({ "type": "quit" }));
        self.finish();
    }

    /// Closes the bot's input (after what is queued, `quit` included), waits a little for it to
    /// exit, then kills it.
    fn finish(mut self) {
        // Closing the writer's channel closes the bot's standard input once the queue is written.
        self.to_child = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// True while the process runs.
    fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// Bot processes that finished a match and wait for the next one: a bot of the same command
/// takes one instead of starting the program again, and begins a new match with `hello`
/// (`docs/bot-protocol.md`, "Several matches in one process"). Dropping the pool asks every idle
/// process to quit.
pub struct Pool {
    idle: Vec<(Vec<String>, Process)>,
    max_idle: usize,
}

/// A pool shared by the bots of one owner (an arena worker, a server).
pub type SharedPool = Arc<Mutex<Pool>>;

impl Pool {
    /// An empty pool that keeps at most `max_idle` processes (more are asked to quit).
    pub fn new(max_idle: usize) -> Pool {
        Pool { idle: Vec::new(), max_idle }
    }

    /// An empty pool to share.
    pub fn shared(max_idle: usize) -> SharedPool {
        Arc::new(Mutex::new(Pool::new(max_idle)))
    }

    /// How many processes wait.
    pub fn idle(&self) -> usize {
        self.idle.len()
    }

    fn take(&mut self, argv: &[String]) -> Option<Process> {
        while let Some(i) = self.idle.iter().position(|(a, _)| a == argv) {
            let (_, mut p) = self.idle.swap_remove(i);
            if p.running() {
                // Whatever the bot wrote after its last answer belongs to the last match.
                while p.from_child.try_recv().is_ok() {}
                return Some(p);
            }
            p.kill();
        }
        None
    }

    fn put(&mut self, argv: Vec<String>, p: Process) {
        if self.idle.len() < self.max_idle {
            self.idle.push((argv, p));
        } else {
            p.quit();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for (_, p) in &self.idle {
            p.send(&json!({ "type": "quit" }));
        }
        for (_, p) in self.idle.drain(..) {
            p.finish();
        }
    }
}

fn write_lines(mut stdin: ChildStdin, rx: mpsc::Receiver<String>) {
    for line in rx {
        if stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}

fn read_lines(stdout: impl Read, tx: mpsc::Sender<Line>) {
    let mut r = BufReader::new(stdout);
    loop {
        let mut buf: Vec<u8> = Vec::new();
        let line = loop {
            let avail = match r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break None,
            };
            if avail.is_empty() {
                break if buf.is_empty() { None } else { Some(std::mem::take(&mut buf)) };
            }
            if let Some(i) = avail.iter().position(|&b| b == b'\n') {
                buf.extend_from_slice(&avail[..i]);
                r.consume(i + 1);
                break Some(std::mem::take(&mut buf));
            }
            let n = avail.len();
            buf.extend_from_slice(avail);
            r.consume(n);
            if buf.len() > MAX_LINE {
                let _ = tx.send(Line::Bad(format!("a line longer than {MAX_LINE} bytes")));
                return;
            }
        };
        let Some(mut bytes) = line else {
            let _ = tx.send(Line::Closed);
            return;
        };
        if bytes.len() > MAX_LINE {
            let _ = tx.send(Line::Bad(format!("a line longer than {MAX_LINE} bytes")));
            return;
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        let msg = match String::from_utf8(bytes) {
            Ok(s) => Line::Text(s),
            Err(_) => {
                let _ = tx.send(Line::Bad("a line that is not UTF-8".to_string()));
                return;
            }
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// Cuts a bot's line short for a message.
fn excerpt(s: &str) -> String {
    const MAX: usize = 120;
    if s.len() <= MAX {
        return format!("{s:?}");
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}…", &s[..end])
}

/// A bot that is another program, spoken to over `yezi-bot/1` (see the module documentation).
pub struct ExtBot<G: Game> {
    name: String,
    argv: Vec<String>,
    seed: u64,
    budget: Budget,
    limits: ExtLimits,
    process: Option<Process>,
    pool: Option<SharedPool>,
    seat: Option<u64>,
    starts: u32,
    next_id: u64,
    hand: u64,
    remote_name: Option<String>,
    counts: Fallbacks,
    last_failure: Option<String>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> ExtBot<G> {
    /// A bot named `name` (for reports) that runs `argv` (program first), seeded, with a nominal
    /// budget and hard time limits. Nothing is started before the first decision.
    pub fn new(
        name: impl Into<String>,
        argv: Vec<String>,
        seed: u64,
        budget: Budget,
        limits: ExtLimits,
    ) -> Self {
        ExtBot {
            name: name.into(),
            argv,
            seed,
            budget,
            limits,
            process: None,
            pool: None,
            seat: None,
            starts: 0,
            next_id: 1,
            hand: 0,
            remote_name: None,
            counts: Fallbacks::default(),
            last_failure: None,
            _game: PhantomData,
        }
    }

    /// The bot `ext:COMMAND`: `spec` is the whole name, `ext:` included.
    pub fn from_spec(spec: &str, seed: u64, budget: Budget, limits: ExtLimits) -> Result<Self, CommandError> {
        let command = spec.strip_prefix(PREFIX).unwrap_or(spec);
        Ok(ExtBot::new(spec, split_command(command)?, seed, budget, limits))
    }

    /// The same bot, taking its process from `pool` when one of its command waits there and
    /// leaving it there when the bot is dropped, instead of starting and ending the program.
    pub fn with_pool(mut self, pool: SharedPool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// The name the bot gave in its `ready` message, once it has started.
    pub fn remote_name(&self) -> Option<&str> {
        self.remote_name.as_deref()
    }

    /// What went wrong last, in words (for logs).
    pub fn last_failure(&self) -> Option<&str> {
        self.last_failure.as_deref()
    }

    fn start(&mut self, view: &Value) -> Result<(), Failure> {
        if self.starts >= MAX_STARTS {
            return Err(Failure::Crash(format!("given up after {MAX_STARTS} starts")));
        }
        self.starts += 1;
        let pooled = self
            .pool
            .as_ref()
            .and_then(|p| p.lock().unwrap_or_else(PoisonError::into_inner).take(&self.argv));
        let process = match pooled {
            Some(p) => p,
            None => Process::start(&self.argv).map_err(|e| Failure::Crash(e.to_string()))?,
        };
        let seat = view.get("seat").cloned().unwrap_or(Value::Null);
        self.seat = seat.as_u64();
        // A new match: decisions and hands count afresh.
        self.next_id = 1;
        self.hand = 0;
        let hello = json!({
            "type": "hello",
            "protocol": PROTOCOL,
            "game": G::KIND.name(),
            "seat": seat,
            "variants": view.get("variants").cloned().unwrap_or(Value::Null),
            "seed": self.seed,
            "think_ms": self.budget.think_ms,
            "time_limit_ms": self.limits.time_limit_ms,
        });
        let deadline = Instant::now() + Duration::from_millis(u64::from(self.limits.start_limit_ms));
        if !process.send(&hello) {
            return Err(self.fail_start(process, None));
        }
        let ready = match process.next_line(deadline) {
            Ok(Line::Text(t)) => t,
            Ok(Line::Bad(why)) => {
                return Err(self.fail_start(process, Some(Failure::Unreadable(format!("handshake: {why}")))));
            }
            Ok(Line::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(self.fail_start(process, None));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let f = Failure::Timeout(format!(
                    "no `ready` within {} ms of the start",
                    self.limits.start_limit_ms
                ));
                return Err(self.fail_start(process, Some(f)));
            }
        };
        let malformed = |why: String| Failure::Unreadable(format!("handshake: {why}: {}", excerpt(&ready)));
        let v: Value = match serde_json::from_str(&ready) {
            Ok(v) => v,
            Err(e) => return Err(self.fail_start(process, Some(malformed(format!("not JSON ({e})"))))),
        };
        if v.get("type").and_then(Value::as_str) != Some("ready") {
            return Err(self.fail_start(process, Some(malformed("expected a `ready` message".into()))));
        }
        if v.get("protocol").and_then(Value::as_str) != Some(PROTOCOL) {
            let f = malformed(format!("the bot does not speak {PROTOCOL}"));
            return Err(self.fail_start(process, Some(f)));
        }
        self.remote_name = v.get("name").and_then(Value::as_str).map(str::to_string);
        self.process = Some(process);
        Ok(())
    }

    /// Ends a process that failed its start; `None`: it crashed (its exit says how).
    fn fail_start(&mut self, mut process: Process, failure: Option<Failure>) -> Failure {
        let f = failure.unwrap_or_else(|| Failure::Crash(format!("handshake: {}", process.exit_text())));
        process.kill();
        f
    }

    fn try_choose(&mut self, view: &G::View, legal: &[G::Action]) -> Result<G::Action, Failure> {
        let view = serde_json::to_value(view).map_err(|e| Failure::Crash(format!("the view: {e}")))?;
        if self.process.is_none() {
            self.start(&view)?;
        }
        let Some(process) = self.process.as_mut() else {
            return Err(Failure::Crash("the bot is not running".to_string()));
        };
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({
            "type": "decide",
            "id": id,
            "hand": self.hand,
            "time_limit_ms": self.limits.time_limit_ms,
            "view": view,
            "legal": legal,
        });
        if !process.send(&msg) {
            return Err(Failure::Crash(process.exit_text()));
        }
        let deadline = Instant::now() + Duration::from_millis(u64::from(self.limits.time_limit_ms));
        loop {
            let line = match process.next_line(deadline) {
                Ok(Line::Text(t)) => t,
                Ok(Line::Bad(why)) => return Err(Failure::Unreadable(why)),
                Ok(Line::Closed) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(Failure::Crash(process.exit_text()));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(Failure::Timeout(format!(
                        "no answer to decision {id} within {} ms",
                        self.limits.time_limit_ms
                    )));
                }
            };
            let malformed =
                |why: &str| Failure::Malformed(format!("decision {id}: {why}: {}", excerpt(&line)));
            let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(&line) else {
                return Err(malformed("not a JSON object"));
            };
            if m.get("type").and_then(Value::as_str) != Some("action") {
                return Err(malformed("expected an `action` message"));
            }
            match m.get("id").and_then(Value::as_u64) {
                Some(i) if i == id => {}
                // A late answer to a decision that already fell back: skip it.
                Some(i) if i < id => continue,
                _ => return Err(malformed(&format!("expected `id` {id}"))),
            }
            let Some(Value::Object(mut action)) = m.remove("action") else {
                return Err(malformed("`action` must be an object"));
            };
            if let Some(seat) = action.remove("seat")
                && seat.as_u64() != self.seat
            {
                return Err(malformed("`action.seat` is not the bot's seat"));
            }
            let action: G::Action = match serde_json::from_value(Value::Object(action)) {
                Ok(a) => a,
                Err(e) => return Err(malformed(&format!("not an action ({e})"))),
            };
            if !legal.contains(&action) {
                return Err(Failure::Illegal(format!(
                    "decision {id}: {action} is not among the legal actions"
                )));
            }
            return Ok(action);
        }
    }
}

impl<G: Game> Bot<G> for ExtBot<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action {
        self.counts.decisions += 1;
        match self.try_choose(view, legal) {
            Ok(a) => a,
            Err(f) => {
                let (kill, text) = match f {
                    Failure::Illegal(t) => {
                        self.counts.illegal += 1;
                        (false, t)
                    }
                    Failure::Malformed(t) => {
                        self.counts.malformed += 1;
                        (false, t)
                    }
                    Failure::Unreadable(t) => {
                        self.counts.malformed += 1;
                        (true, t)
                    }
                    Failure::Timeout(t) => {
                        self.counts.timeouts += 1;
                        (true, t)
                    }
                    Failure::Crash(t) => {
                        self.counts.crashes += 1;
                        (true, t)
                    }
                };
                if kill && let Some(p) = self.process.take() {
                    p.kill();
                }
                self.last_failure = Some(text);
                legal[0]
            }
        }
    }

    fn hand_over(&mut self, view: &G::View) {
        if let Some(p) = &self.process
            && let Ok(view) = serde_json::to_value(view)
        {
            p.send(&json!({ "type": "hand_over", "hand": self.hand, "view": view }));
        }
        self.hand += 1;
    }

    fn fallbacks(&self) -> Option<Fallbacks> {
        Some(self.counts)
    }
}

impl<G: Game> Drop for ExtBot<G> {
    fn drop(&mut self) {
        let Some(p) = self.process.take() else { return };
        match &self.pool {
            Some(pool) => pool.lock().unwrap_or_else(PoisonError::into_inner).put(self.argv.clone(), p),
            None => p.quit(),
        }
    }
}

/// One external bot an operator offers at a server's tables (`yezi serve --bots FILE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OperatorBot {
    /// The name clients choose it by.
    pub name: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The games it plays.
    pub games: Vec<cards::record::GameKind>,
    /// Its time limits.
    pub limits: ExtLimits,
}

/// What is wrong with a bots file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotsFileError {
    /// Not JSON of the documented shape.
    #[error("{0}")]
    Shape(String),
    /// A bot's entry is wrong.
    #[error("bots[{index}] ({name:?}): {reason}")]
    Bot {
        /// The entry's position in the file's `bots` list, from 0.
        index: usize,
        /// The entry's name, as written.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBotsFile {
    bots: Vec<RawBot>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawCommand {
    Line(String),
    Argv(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    name: String,
    command: RawCommand,
    #[serde(default)]
    games: Option<Vec<cards::record::GameKind>>,
    #[serde(default)]
    time_limit_ms: Option<u32>,
    #[serde(default)]
    start_limit_ms: Option<u32>,
}

/// Reads a bots file (`docs/bot-protocol.md`, "At a server"): `{"bots": [{"name", "command",
/// "games"?, "time_limit_ms"?, "start_limit_ms"?}, …]}`. `reserved` are names already taken (the
/// built-in bots); names are 1–32 characters of `a-z 0-9 - _`, distinct.
pub fn parse_bots_file(text: &str, reserved: &[&str]) -> Result<Vec<OperatorBot>, BotsFileError> {
    let raw: RawBotsFile = serde_json::from_str(text).map_err(|e| BotsFileError::Shape(e.to_string()))?;
    let mut out: Vec<OperatorBot> = Vec::new();
    for (index, b) in raw.bots.into_iter().enumerate() {
        let err = |reason: String| BotsFileError::Bot { index, name: b.name.clone(), reason };
        let ok_name = !b.name.is_empty()
            && b.name.len() <= 32
            && b.name.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_');
        if !ok_name {
            return Err(err("a name is 1-32 characters of a-z, 0-9, '-' and '_'".into()));
        }
        if reserved.contains(&b.name.as_str()) || b.name == "cheater" {
            return Err(err("the name is a built-in bot's".into()));
        }
        if out.iter().any(|o| o.name == b.name) {
            return Err(err("the name is given twice".into()));
        }
        let argv = match &b.command {
            RawCommand::Line(l) => split_command(l).map_err(|e| err(e.to_string()))?,
            RawCommand::Argv(v) if v.is_empty() || v[0].is_empty() => {
                return Err(err(CommandError::Empty.to_string()));
            }
            RawCommand::Argv(v) => v.clone(),
        };
        let games = b
            .games
            .clone()
            .unwrap_or_else(|| vec![cards::record::GameKind::Madiao, cards::record::GameKind::Dabaifen]);
        if games.is_empty() {
            return Err(err("`games` is empty".into()));
        }
        let d = ExtLimits::default();
        let limits = ExtLimits {
            time_limit_ms: b.time_limit_ms.unwrap_or(d.time_limit_ms),
            start_limit_ms: b.start_limit_ms.unwrap_or(d.start_limit_ms),
        };
        if limits.time_limit_ms == 0 || limits.start_limit_ms == 0 {
            return Err(err("time limits are at least 1 ms".into()));
        }
        out.push(OperatorBot { name: b.name.clone(), argv, games, limits });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell_without_expansion() {
        assert_eq!(split_command("python3 bot.py").unwrap(), ["python3", "bot.py"]);
        assert_eq!(split_command("  a   'b c'  \"d \\\" e\" f\\ g ").unwrap(), ["a", "b c", "d \" e", "f g"]);
        assert_eq!(split_command("x '' y").unwrap(), ["x", "", "y"]);
        assert_eq!(split_command("$HOME *").unwrap(), ["$HOME", "*"]);
        assert_eq!(split_command("   "), Err(CommandError::Empty));
        assert!(matches!(split_command("a 'b"), Err(CommandError::UnclosedQuote(_))));
        assert!(matches!(split_command("a \"b"), Err(CommandError::UnclosedQuote(_))));
    }

    #[test]
    fn bots_files_are_checked() {
        let ok = parse_bots_file(
            r#"{"bots": [{"name": "py", "command": "python3 b.py"},
                         {"name": "solo", "command": ["./x", "a b"], "games": ["dabaifen"], "time_limit_ms": 50}]}"#,
            &["random"],
        )
        .unwrap();
        assert_eq!(ok[0].argv, ["python3", "b.py"]);
        assert_eq!(ok[0].games.len(), 2);
        assert_eq!(ok[0].limits, ExtLimits::default());
        assert_eq!(ok[1].argv, ["./x", "a b"]);
        assert_eq!(ok[1].games, [cards::record::GameKind::Dabaifen]);
        assert_eq!(ok[1].limits.time_limit_ms, 50);
        let err = |t: &str| parse_bots_file(t, &["random"]).unwrap_err().to_string();
        assert!(err(r#"{"bots": [{"name": "random", "command": "x"}]}"#).contains("built-in"));
        assert!(
            err(r#"{"bots": [{"name": "a", "command": "x"}, {"name": "a", "command": "y"}]}"#)
                .contains("twice")
        );
        assert!(err(r#"{"bots": [{"name": "A B", "command": "x"}]}"#).contains("a-z"));
        assert!(err(r#"{"bots": [{"name": "a", "command": ""}]}"#).contains("empty"));
        assert!(err(r#"{"bots": [{"name": "a", "command": []}]}"#).contains("empty"));
        assert!(err(r#"{"bots": [{"name": "a", "command": "x", "games": []}]}"#).contains("games"));
        assert!(err(r#"{"bots": [{"name": "a", "command": "x", "shell": true}]}"#).contains("shell"));
        assert!(err(r#"{"bots": [{"name": "a", "command": "x", "games": ["chess"]}]}"#).contains("chess"));
        assert!(err("[]").contains("expected"));
    }

    #[test]
    fn fallbacks_add_up() {
        let mut a = Fallbacks { decisions: 5, illegal: 1, malformed: 0, timeouts: 2, crashes: 0 };
        a.add(&Fallbacks { decisions: 3, illegal: 0, malformed: 1, timeouts: 0, crashes: 1 });
        assert_eq!(a, Fallbacks { decisions: 8, illegal: 1, malformed: 1, timeouts: 2, crashes: 1 });
        assert_eq!(a.total(), 5);
    }
}
