//! `yezi play`: a match in the terminal, against bots offline or at a server.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context as _, bail};
use cards::Seat;
use cards::record::GameKind;
use clap::Args;
use table::settings::Pace;

use crate::{GameArg, parse_variant_args};

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game (optional with --connect: then a new table of it is opened at the server).
    pub game: Option<GameArg>,
    /// The bots: one name for the three other seats, or four comma-separated names in seat order
    /// (the entry of your seat is not used). Bots: random, heuristic, pimc, expert.
    #[arg(long, value_name = "NAME[,NAME,NAME,NAME]", default_value = "expert")]
    pub bots: String,
    /// Thinking per bot decision, in nominal milliseconds (more is stronger and slower).
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
    /// The seed of the decks and the bots [default: from the clock; shown and saved in the record].
    #[arg(long)]
    pub seed: Option<u64>,
    /// The rules preset (Madiao: standard, feng; Da Bai Fen: standard).
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// A variant override, `name=value`; repeatable.
    #[arg(long = "variant", value_name = "NAME=VALUE")]
    pub variants: Vec<String>,
    /// Madiao: chips per stake; with --stake-max, the lowest stake a banker may name.
    #[arg(long, default_value_t = 2)]
    pub stake: u32,
    /// Madiao: the highest stake a banker may name for a hand (rules §2) [default: --stake, a
    /// fixed stake]. When it is above --stake, each hand's banker names the stake before the deal.
    #[arg(long)]
    pub stake_max: Option<u32>,
    /// Your seat, 0–3 (seats play in order 0, 1, 2, 3; in Da Bai Fen 0 and 2 are partners).
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// Your name (in the record; at a server, the name of a new guest).
    #[arg(long)]
    pub name: Option<String>,
    /// Where the record goes [default: a new file in ~/.local/share/yezi/records].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// How long a bot waits before it moves, in milliseconds.
    #[arg(long, default_value_t = 700)]
    pub delay_ms: u64,
    /// The pace of the table's fixed clocks: the decision windows, the Da Bai Fen draw and a
    /// finished trick on show (relaxed: twice as long, fast: a quarter).
    #[arg(long, default_value = "normal", value_parser = ["relaxed", "normal", "fast"])]
    pub pace: String,
    /// Madiao: how the deck draws the zero cash, a picture only (docs/rules/madiao.md §1): an
    /// unnamed figure, blank, or the figure 王英.
    #[arg(long, default_value = "unnamed", value_parser = ["unnamed", "blank", "wang_ying"])]
    pub zero_cash: String,
    /// Da Bai Fen: milliseconds per card of the draw.
    #[arg(long, default_value_t = 250)]
    pub draw_ms: u64,
    /// Play at a yezi server: an invite link (http://HOST:PORT/t/ID) or a server (http://HOST:PORT).
    #[arg(long, value_name = "URL")]
    pub connect: Option<String>,
    /// With --connect: sign in with this account instead of playing as a guest. The password is
    /// read from --password-file, else from the environment variable YEZI_PASSWORD, else asked
    /// for on the terminal (never given on the command line).
    #[arg(long, value_name = "USERNAME", requires = "connect")]
    pub user: Option<String>,
    /// With --user: a file whose first line is the password.
    #[arg(long, value_name = "PATH", requires = "user")]
    pub password_file: Option<PathBuf>,
}

/// The password for `--user`: from `--password-file`, `YEZI_PASSWORD`, or the terminal.
fn password(args: &PlayArgs, user: &str) -> anyhow::Result<String> {
    if let Some(path) = &args.password_file {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("--password-file {}", path.display()))?;
        let line = text.lines().next().unwrap_or("").to_string();
        if line.is_empty() {
            bail!("--password-file {}: the first line is empty", path.display());
        }
        return Ok(line);
    }
    if let Ok(pw) = std::env::var("YEZI_PASSWORD")
        && !pw.is_empty()
    {
        return Ok(pw);
    }
    tui::term::read_password(&format!("password for {user}: ")).context("reading the password")
}

fn game_kind(g: GameArg) -> GameKind {
    match g {
        GameArg::Madiao => GameKind::Madiao,
        GameArg::Dabaifen => GameKind::Dabaifen,
    }
}

fn default_name() -> String {
    std::env::var("USER").ok().filter(|u| !u.trim().is_empty()).unwrap_or_else(|| "player".into())
}

pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let variants = parse_variant_args(&args.variants)?;
    let name = args.name.clone().unwrap_or_else(default_name);
    let lines = if let Some(url) = &args.connect {
        let bot = ai::players::parse_bots(&args.bots)?;
        let opts = tui::remote::RemoteOptions {
            url: url.clone(),
            name,
            game: args.game.map(game_kind),
            bot: Some(bot[if args.seat == 0 { 1 } else { 0 }].clone()),
            rules: args.rules.clone(),
            variants: variants.0.clone(),
            stakes: (args.stake, args.stake_max.unwrap_or(args.stake)),
            config: tui::remote::config_path(),
            records: tui::records_dir(),
            out: args.out.clone(),
            account: match &args.user {
                Some(u) => Some(tui::remote::Account { username: u.clone(), password: password(args, u)? }),
                None => None,
            },
            zero_cash: args.zero_cash.parse().with_context(|| format!("--zero-cash {}", args.zero_cash))?,
        };
        tui::remote::play_remote(opts).context("yezi play --connect")?
    } else {
        let Some(game) = args.game.map(game_kind) else {
            bail!("which game? `yezi play madiao` or `yezi play dabaifen` (or --connect URL)");
        };
        let seat = Seat::new(args.seat).with_context(|| format!("--seat {}: seats are 0–3", args.seat))?;
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| {
                let n = d.as_nanos() as u64;
                n ^ (n >> 29)
            }) % 1_000_000_000
        });
        let secs =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let out = args
            .out
            .clone()
            .unwrap_or_else(|| tui::records_dir().join(tui::record_file_name(game, secs, seed)));
        let mut cfg = tui::LocalConfig::new(seed);
        cfg.rules = args.rules.clone();
        cfg.variants = variants;
        cfg.stake = args.stake;
        cfg.stake_max = args.stake_max;
        cfg.seat = seat;
        cfg.name = name;
        cfg.bots = ai::players::parse_bots(&args.bots)?;
        cfg.think_ms = args.think_ms;
        cfg.bot_delay = Duration::from_millis(args.delay_ms);
        cfg.pace = Pace::parse(&args.pace).with_context(|| format!("--pace {}", args.pace))?;
        cfg.draw_every = Duration::from_millis(args.draw_ms.max(1));
        cfg.zero_cash = args.zero_cash.parse().with_context(|| format!("--zero-cash {}", args.zero_cash))?;
        cfg.out = Some(out);
        cfg.threaded = true;
        tui::play_local(game, cfg).context("yezi play")?
    };
    // The terminal may be gone (a hang-up): what cannot be printed is lost, never a panic.
    let mut stdout = std::io::stdout().lock();
    for l in lines {
        let _ = writeln!(stdout, "{l}");
    }
    Ok(())
}
