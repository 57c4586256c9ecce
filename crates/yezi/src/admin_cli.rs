//! `yezi admin`: the operator's moderation tools, run on the database directly (`--db`, as
//! `yezi serve` takes it; a running server sees the changes at once). Every action is written to
//! the moderation log with who (`--by`) and why (`--reason`). See docs/deploy.md, "Moderation".

use anyhow::Context as _;
use clap::{Args, Subcommand};
use server::api::moderation as m;
use server::store::moderation::SanctionKind;
use wire::{
    LiftedReply, LogReply, LogView, PlayerGames, RemovedLine, RemovedReply, ReportsReply, SanctionView,
    SanctionsReply,
};

// Its help text is its variant's in `Command` (a doc comment here would replace it).
#[allow(missing_docs)]
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The database: a SQLite file or a PostgreSQL URL, as `yezi serve --db` takes it.
    #[arg(long, default_value = "yezi.db")]
    pub db: String,
    /// Print JSON instead of lines of text.
    #[arg(long)]
    pub json: bool,
    #[command(subcommand)]
    pub action: AdminAction,
}

/// Who acts and why.
#[derive(Args, Debug)]
pub struct Because {
    /// Why (1 to 500 characters), kept in the moderation log.
    #[arg(long)]
    pub reason: String,
    /// The operator's name, kept in the log (default: $USER).
    #[arg(long)]
    pub by: Option<String>,
}

/// What `yezi admin` does.
#[derive(Subcommand, Debug)]
pub enum AdminAction {
    /// The players' reports, newest first.
    Reports {
        /// How many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// The sanctions given, newest first, in force or not.
    Sanctions {
        /// How many.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// The moderation log, newest first.
    Log {
        /// How many lines.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Mute an account's chat everywhere, for a time.
    MuteChat {
        /// The account's username, or a guest id.
        player: String,
        /// For how many minutes.
        #[arg(long)]
        minutes: u64,
        #[command(flatten)]
        because: Because,
    },
    /// Ban an account for a time: no sign-in, no table, no chat.
    Ban {
        /// The account's username, or a guest id.
        player: String,
        /// For how many minutes.
        #[arg(long)]
        minutes: u64,
        #[command(flatten)]
        because: Because,
    },
    /// Ban an address for a time: no new guest, no sign-in, no table, no chat from it.
    BanAddress {
        /// The IP address (v4 or v6).
        address: String,
        /// For how many minutes.
        #[arg(long)]
        minutes: u64,
        #[command(flatten)]
        because: Because,
    },
    /// Lift a sanction before its end.
    Lift {
        /// The sanction's id (see `yezi admin sanctions`).
        id: String,
        #[command(flatten)]
        because: Because,
    },
    /// Remove a chat line from a table's history, for everyone.
    RemoveChat {
        /// The table.
        table: String,
        /// The line's number (`seq`, as a report names it).
        seq: u64,
        #[command(flatten)]
        because: Because,
    },
    /// A player's latest games (tables), newest first.
    Games {
        /// The account's username, or a guest id.
        player: String,
        /// How many.
        #[arg(long, default_value_t = 20)]
        limit: u32,
    },
}

fn by(b: &Because) -> String {
    b.by.clone()
        .or_else(|| std::env::var("USER").ok())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "operator".into())
}

/// A time in milliseconds since the Unix epoch, as `YYYY-MM-DD HH:MM UTC`.
fn when(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, mo, d) = table::archive::civil_from_days(days);
    format!("{y:04}-{mo:02}-{d:02} {:02}:{:02} UTC", rest / 3600, rest % 3600 / 60)
}

fn sanction_line(s: &SanctionView) -> String {
    let state = match (s.lifted_ms, s.in_force) {
        (Some(l), _) => format!("lifted {}", when(l)),
        (None, true) => "in force".into(),
        (None, false) => "ended".into(),
    };
    format!(
        "{}  {}  {}  until {}  {}  by {}: {}",
        s.id,
        s.kind,
        s.subject,
        when(s.until_ms),
        state,
        s.by,
        s.reason
    )
}

/// Runs `yezi admin`.
pub fn admin(args: &AdminArgs) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    rt.block_on(run(args))
}

async fn run(args: &AdminArgs) -> anyhow::Result<()> {
    let db = server::store::redact(&args.db);
    let store = server::store::open(&args.db)
        .await
        .map_err(|e| anyhow::anyhow!(server::store::redact(&e.to_string())))
        .with_context(|| format!("opening the database {db}"))?;
    let store = &*store;
    let json = args.json;
    let print = |value: serde_json::Value, lines: Vec<String>| {
        if json {
            println!("{value:#}");
        } else {
            for l in lines {
                println!("{l}");
            }
        }
    };
    let give = |kind: SanctionKind, target: &str, minutes: u64, because: &Because| {
        let (target, reason, by) = (target.to_string(), because.reason.clone(), by(because));
        async move {
            let row = m::sanction(store, kind, &target, minutes, &reason, &by).await?;
            let view = SanctionView::from(row);
            Ok::<_, anyhow::Error>((serde_json::to_value(&view)?, vec![sanction_line(&view)]))
        }
    };
    match &args.action {
        AdminAction::Reports { limit } => {
            let reports = m::report_views(store, *limit).await?;
            let lines = reports
                .iter()
                .map(|r| {
                    let line = match (&r.table, r.chat, &r.chat_text) {
                        (Some(t), Some(seq), text) => {
                            format!("  line {t} {seq}: {:?}", text.as_deref().unwrap_or(""))
                        }
                        _ => String::new(),
                    };
                    format!(
                        "{}  {}  {} reports {} ({}){line}: {}",
                        r.id,
                        when(r.created_ms),
                        r.reporter,
                        r.player,
                        r.player_name.as_deref().unwrap_or("?"),
                        r.reason
                    )
                })
                .collect();
            print(serde_json::to_value(ReportsReply { reports })?, lines);
        }
        AdminAction::Sanctions { limit } => {
            let rows = store.sanctions(*limit).await?;
            let views: Vec<SanctionView> = rows.into_iter().map(SanctionView::from).collect();
            let lines = views.iter().map(sanction_line).collect();
            print(serde_json::to_value(SanctionsReply { sanctions: views })?, lines);
        }
        AdminAction::Log { limit } => {
            let rows = store.moderation_log(*limit).await?;
            let lines = rows
                .iter()
                .map(|l| format!("{}  {}  {} {}: {}", when(l.at_ms), l.by, l.action, l.subject, l.reason))
                .collect();
            let log: Vec<LogView> = rows.into_iter().map(LogView::from).collect();
            print(serde_json::to_value(LogReply { log })?, lines);
        }
        AdminAction::MuteChat { player, minutes, because } => {
            let (v, l) = give(SanctionKind::MuteChat, player, *minutes, because).await?;
            print(v, l);
        }
        AdminAction::Ban { player, minutes, because } => {
            let (v, l) = give(SanctionKind::BanAccount, player, *minutes, because).await?;
            print(v, l);
        }
        AdminAction::BanAddress { address, minutes, because } => {
            let (v, l) = give(SanctionKind::BanAddress, address, *minutes, because).await?;
            print(v, l);
        }
        AdminAction::Lift { id, because } => {
            m::lift(store, id, &because.reason, &by(because)).await?;
            print(serde_json::to_value(LiftedReply { lifted: id.clone() })?, vec![format!("lifted {id}")]);
        }
        AdminAction::RemoveChat { table, seq, because } => {
            m::remove_chat(store, table, *seq, &because.reason, &by(because)).await?;
            print(
                serde_json::to_value(RemovedReply {
                    removed: RemovedLine { table: table.clone(), chat: *seq },
                })?,
                vec![format!("removed line {seq} of table {table}")],
            );
        }
        AdminAction::Games { player, limit } => {
            let (name, games) = m::recent_games(store, player, *limit).await?;
            let mut lines = vec![format!("{name}: {} game(s)", games.len())];
            lines.extend(games.iter().map(|g| {
                format!("{}  {}  {}  {}  {}", g.id, when(g.created_ms), g.game, g.status, g.seats.join(" | "))
            }));
            print(serde_json::to_value(PlayerGames { name, games })?, lines);
        }
    }
    Ok(())
}
