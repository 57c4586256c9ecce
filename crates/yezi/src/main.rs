//! `yezi`: the command line of the project.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ai::record::AnyRecord;
use anyhow::Context as _;
use cards::record;
use clap::{Args, Parser, Subcommand, ValueEnum};

mod admin_cli;
mod analyse_cli;
mod arena_cli;
mod bots_cli;
mod calibrate_cli;
mod dabaifen_cli;
mod madiao_cli;
mod play_cli;
mod puzzles_cli;
mod serve_cli;

/// Madiao (馬弔) and Da Bai Fen (打百分): historic Chinese trick-taking card games.
#[derive(Parser, Debug)]
#[command(name = "yezi", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Verify every deal of a `yezi/1` record: each hand's deck rebuilt from its seed with the
    /// documented shuffle, and its commitment checked (docs/record.md, "Deal verification").
    Verify(VerifyArgs),
    /// Run the game server: tables for people and bots, over the web (see docs/protocol.md).
    Serve(serve_cli::ServeArgs),
    /// Play in the terminal: a match against bots at once, or at a server with --connect.
    Play(play_cli::PlayArgs),
    /// Drive a running server on this machine with tables of bot clients; report speed and latency.
    Loadtest(serve_cli::LoadtestArgs),
    /// Replay a `yezi/1` record, or every record of an archive, checking every action and any
    /// stored result.
    Replay(ReplayArgs),
    /// Analyse a finished hand of a record: the strongest bot's choice at each of a seat's
    /// decisions, the cost of each move made, and the verdict with every card face up.
    Analyse(analyse_cli::AnalyseArgs),
    /// Play many hands (random legal play, or bots with `--bots`) and summarize them.
    Sim(SimArgs),
    /// Measure the rules engine's speed on one core, or the bots' decision times with `--bots`.
    Bench(BenchArgs),
    /// Duplicate matches between a candidate bot and a baseline bot.
    Arena(arena_cli::ArenaArgs),
    /// The bots' ratings on the players' scale, from whole matches between them (docs/ratings.md).
    Calibrate(calibrate_cli::CalibrateArgs),
    /// The operator's moderation tools on the database: reports, chat mutes, bans, removed chat
    /// lines, a player's games, and the moderation log.
    Admin(admin_cli::AdminArgs),
    /// Copy a server's SQLite database to a new file while the server runs (SQLite's online
    /// backup); for PostgreSQL use pg_dump (docs/deploy.md).
    Backup(BackupArgs),
    /// Puzzles: make them from self-play deals (`make`), or check a puzzle file (`check`).
    Puzzles(puzzles_cli::PuzzlesArgs),
    /// Solve a puzzle in the terminal: the position, your choice, right or wrong and why.
    Puzzle(puzzles_cli::PuzzleArgs),
}

// Its help text is its variant's in `Command`.
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The new file to write (it must not exist).
    pub out: std::path::PathBuf,
    /// The database to copy: the server's SQLite file (`sqlite:PATH` also works).
    #[arg(long, default_value = "yezi.db")]
    pub db: String,
}

/// `yezi backup`: the online copy of a SQLite database.
fn backup(args: &BackupArgs) -> anyhow::Result<()> {
    let db = &args.db;
    anyhow::ensure!(
        !(db.starts_with("postgres://") || db.starts_with("postgresql://")),
        "yezi backup copies a SQLite file; for PostgreSQL use pg_dump (see docs/deploy.md)"
    );
    let path = db.strip_prefix("sqlite://").or_else(|| db.strip_prefix("sqlite:")).unwrap_or(db);
    let pages =
        server::store::sqlite::backup(path, &args.out).map_err(|e| anyhow::anyhow!("yezi backup: {e}"))?;
    println!("yezi backup: {path} copied to {} ({pages} pages, integrity ok)", args.out.display());
    Ok(())
}

/// The two games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameArg {
    /// Madiao (馬弔).
    Madiao,
    /// Da Bai Fen (打百分).
    Dabaifen,
}

// Its help text is its variant's in `Command` (a doc comment here would replace it).
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Print `{"hands": [result, …]}` instead of the trick-by-trick replay.
    #[arg(long)]
    pub json: bool,
    /// The record file (`-` for standard input), or an archive of records (gzip-compressed JSON
    /// Lines, as the server's archive downloads are): every record in it is replayed.
    pub file: PathBuf,
}

// Its help text is its variant's in `Command` (a doc comment here would replace it).
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The record file (`-` for standard input).
    pub file: PathBuf,
}

/// `yezi verify`: every deal of a record rebuilt from its seed and checked against its
/// commitment; true when all verify. Each failing hand is named on standard error.
fn verify(args: &VerifyArgs) -> anyhow::Result<bool> {
    let text = if args.file.as_os_str() == "-" {
        let mut t = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut t).context("reading standard input")?;
        t
    } else {
        std::fs::read_to_string(&args.file).with_context(|| format!("reading {}", args.file.display()))?
    };
    let name = args.file.display();
    let rec = ai::record::parse(&text).with_context(|| format!("{name}"))?;
    let check = ai::record::verify_deals(&rec);
    for p in &check.problems {
        eprintln!("{name}: {p}");
    }
    let failed: std::collections::BTreeSet<usize> = check.problems.iter().map(|p| p.hand).collect();
    if check.is_verified() {
        println!("{name}: all {} deal(s) verified", check.hands);
    } else {
        println!(
            "{name}: {} of {} deal(s) fail: hand(s) {}",
            failed.len(),
            check.hands,
            failed.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    Ok(check.is_verified())
}

// Its help text is its variant's in `Command` (a doc comment here would replace it).
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct SimArgs {
    /// The game.
    pub game: GameArg,
    /// How many hands to play.
    #[arg(long, default_value_t = 1000)]
    pub hands: u64,
    /// The seed every deck and every random choice comes from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules preset (`standard`, `feng`).
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// A variant override, `name=value`; repeatable.
    #[arg(long = "variant", value_name = "NAME=VALUE")]
    pub variants: Vec<String>,
    /// Write the played hands as a `yezi/1` record to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play with bots instead of the random policy: one name for all seats, or four
    /// comma-separated names in seat order.
    #[arg(long, value_name = "NAME[,NAME,NAME,NAME]")]
    pub bots: Option<String>,
    /// Thinking per decision for the bots, in nominal milliseconds.
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
    /// Madiao: name stakes up to this many chips; each hand's stake is an even number from 2 to
    /// it, drawn from the seed (2: every hand at the lowest stake, 2).
    #[arg(long, default_value_t = 2)]
    pub stake_max: u32,
}

// Its help text is its variant's in `Command` (a doc comment here would replace it).
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game.
    pub game: GameArg,
    /// How many hands (deals) to play [default: 2000000 random playouts, or 100 hands with
    /// `--bots`].
    #[arg(long)]
    pub hands: Option<u64>,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rules preset.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Time the bots' decisions instead of random playouts: one name for all seats, or four
    /// comma-separated names in seat order.
    #[arg(long, value_name = "NAME[,NAME,NAME,NAME]")]
    pub bots: Option<String>,
    /// Thinking per decision for the bots, in nominal milliseconds.
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
}

impl BenchArgs {
    /// The number of hands: as given, or the default for the kind of benchmark.
    pub fn hands(&self) -> u64 {
        self.hands.unwrap_or(if self.bots.is_some() { 100 } else { 2_000_000 })
    }
}

/// Parses `name=value` variant overrides from the command line.
pub fn parse_variant_args(list: &[String]) -> anyhow::Result<record::Variants> {
    let mut v = record::Variants::default();
    for item in list {
        let (k, val) =
            item.split_once('=').with_context(|| format!("--variant {item:?}: expected NAME=VALUE"))?;
        v.0.insert(k.trim().to_string(), val.trim().to_string());
    }
    Ok(v)
}

fn replay(args: &ReplayArgs) -> anyhow::Result<bool> {
    let bytes = if args.file.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).context("reading standard input")?;
        b
    } else {
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?
    };
    let mut out = std::io::stdout().lock();
    if bytes.starts_with(&GZIP_MAGIC) {
        return replay_archive(args, &bytes, &mut out);
    }
    let text =
        String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8 text", args.file.display()))?;
    let rec = ai::record::parse(&text).with_context(|| format!("{}", args.file.display()))?;
    replay_one(rec, args.json, &mut out)
}

/// The first bytes of a gzip file.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

fn replay_one(rec: AnyRecord, json: bool, out: &mut impl std::io::Write) -> anyhow::Result<bool> {
    match rec {
        AnyRecord::Madiao(r) => madiao_cli::replay(&r, json, out),
        AnyRecord::Dabaifen(r) => dabaifen_cli::replay(&r, json, out),
    }
}

/// Replays every record of an archive (docs/record.md, "Archives": gzip-compressed JSON Lines, one
/// record a line), each under a heading that names its line; true when every one is clean.
fn replay_archive(args: &ReplayArgs, bytes: &[u8], out: &mut impl std::io::Write) -> anyhow::Result<bool> {
    use std::io::BufRead as _;
    let name = args.file.display();
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(bytes));
    let (mut records, mut clean) = (0usize, 0usize);
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("{name}: reading the archive (line {})", i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        records += 1;
        if !args.json {
            writeln!(out, "== {name}, line {} ==", i + 1)?;
        }
        let ok = match ai::record::parse(&line) {
            Ok(rec) => replay_one(rec, args.json, out)?,
            Err(e) => {
                eprintln!("{name}, line {}: {e}", i + 1);
                false
            }
        };
        if ok {
            clean += 1;
        } else {
            eprintln!("{name}, line {}: the record does not replay cleanly", i + 1);
        }
        if args.json {
            writeln!(out)?;
        }
    }
    if !args.json {
        writeln!(out, "{name}: {records} record(s), {clean} replayed cleanly")?;
    }
    out.flush()?;
    Ok(clean == records)
}

fn run(cli: Cli) -> anyhow::Result<bool> {
    match cli.command {
        Command::Serve(a) => serve_cli::serve(&a).map(|()| true),
        Command::Play(a) => play_cli::play(&a).map(|()| true),
        Command::Loadtest(a) => serve_cli::loadtest(&a),
        Command::Replay(a) => replay(&a),
        Command::Verify(a) => verify(&a),
        Command::Analyse(a) => analyse_cli::analyse(&a).map(|()| true),
        Command::Sim(a) => match a.game {
            GameArg::Madiao => madiao_cli::sim(&a).map(|()| true),
            GameArg::Dabaifen => dabaifen_cli::sim(&a).map(|()| true),
        },
        Command::Bench(a) => match a.game {
            GameArg::Madiao => madiao_cli::bench(&a).map(|()| true),
            GameArg::Dabaifen => dabaifen_cli::bench(&a).map(|()| true),
        },
        Command::Arena(a) => arena_cli::arena(&a).map(|()| true),
        Command::Calibrate(a) => calibrate_cli::calibrate(&a).map(|()| true),
        Command::Admin(a) => admin_cli::admin(&a).map(|()| true),
        Command::Backup(a) => backup(&a).map(|()| true),
        Command::Puzzles(a) => puzzles_cli::puzzles(&a).map(|()| true),
        Command::Puzzle(a) => puzzles_cli::puzzle_cmd(&a).map(|()| true),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // A closed pipe (`yezi replay x | head`) is the reader's choice, not an error.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Never a panic when the terminal is gone (a hang-up): the message is then lost.
            let _ = writeln!(std::io::stderr(), "yezi: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The file of match `i` (from 1) of a simulation written to `path`: its name with `-m001`,
/// `-m002`, … inserted before the extension.
pub(crate) fn numbered(path: &std::path::Path, i: usize) -> std::path::PathBuf {
    let stem = path.file_stem().map_or("sim".into(), |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-m{i:03}.{}", ext.to_string_lossy()),
        None => format!("{stem}-m{i:03}"),
    };
    path.with_file_name(name)
}
