//! `yezi serve` and `yezi loadtest`.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use cards::record::GameKind;
use clap::Args;
use server::loadtest::{EventLoad, LoadOptions, ReplayLoadOptions, run, run_replay};
use server::starve::{SigninOptions, StarveOptions, run_signins, run_starve};
use server::{App, Config, Limits};
use table::settings::Timing;

use crate::GameArg;

/// The formats of the server's log (`--log-format`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text an event.
    Text,
    /// One JSON object an event.
    Json,
}

/// Sends the server's log events (`tracing`) to standard error in `format`, from level INFO up;
/// a logger set before (a second server in the same process) is kept.
fn start_log(format: LogFormat) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::INFO)
        .with_target(false);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// The database: a SQLite file (created when missing; `sqlite:PATH` also works) or a
    /// PostgreSQL URL (`postgres://USER:PASSWORD@HOST:PORT/DB`).
    #[arg(long, default_value = "yezi.db")]
    pub db: String,
    /// Makes this server a member of a cluster of nodes sharing one PostgreSQL database: the bus
    /// that carries commands and messages between them, `redis://HOST:PORT` (Redis pub/sub) or
    /// `postgres` (`LISTEN`/`NOTIFY` on the database). Without it the node is alone. See
    /// docs/deploy.md.
    #[arg(long, value_name = "URL")]
    pub bus: Option<String>,
    /// With a PostgreSQL database: milliseconds a node's hold on a table (its lease) lasts unless
    /// renewed; a table whose node died is taken over by another within about this long.
    #[arg(long, default_value_t = server::store::DEFAULT_LEASE_MS)]
    pub lease_ms: u64,
    /// With a PostgreSQL database: how many connections to it the server opens at most.
    #[arg(long, default_value_t = server::store::postgres::DEFAULT_POOL)]
    pub db_connections: usize,
    /// Da Bai Fen: milliseconds per card of the draw (at a table's normal pace).
    #[arg(long, default_value_t = Timing::default().draw_ms)]
    pub draw_ms: u64,
    /// Milliseconds of a decision window (Madiao redeal, Da Bai Fen annulment) at normal pace.
    #[arg(long, default_value_t = Timing::default().window_ms)]
    pub window_ms: u64,
    /// Milliseconds a bot waits before it moves.
    #[arg(long, default_value_t = Timing::default().bot_delay_ms)]
    pub bot_delay_ms: u64,
    /// The longest pause between hands, in milliseconds (the next hand begins sooner when every
    /// connected player is ready; the table's turn clock caps it too).
    #[arg(long, default_value_t = Timing::default().pause_ms)]
    pub pause_ms: u64,
    /// Milliseconds a finished trick stays on show before the next lead (at normal pace).
    #[arg(long, default_value_t = Timing::default().trick_ms)]
    pub trick_ms: u64,
    /// How many trick boundaries the TV (a table's delayed stream, `docs/protocol.md`, "Live
    /// tables (TV)") is behind the table: 1 shows each trick once it is complete; 0 shows the
    /// table as it is.
    #[arg(long, default_value_t = 1)]
    pub tv_delay_tricks: u32,
    /// Connections (HTTP and WebSocket) one IP address may hold at once; more are refused with
    /// HTTP 429.
    #[arg(long, default_value_t = Limits::default().connections_per_ip)]
    pub connections_per_ip: usize,
    /// WebSocket connections one guest may hold at once; more are refused with
    /// `too_many_connections`.
    #[arg(long, default_value_t = Limits::default().sockets_per_guest)]
    pub sockets_per_guest: usize,
    /// WebSocket connections the server accepts at once (lowered at start if the open-files
    /// limit needs it, so that HTTP keeps answering when they are all open).
    #[arg(long, default_value_t = Limits::default().max_connections)]
    pub max_websockets: usize,
    /// Guests one IP address may create at once; then one a minute.
    #[arg(long, default_value_t = Limits::default().guests_burst as u32)]
    pub guests_per_ip: u32,
    /// Seconds a match goes on with no person connected before it is parked (its bots and clocks
    /// stop until a person connects again).
    #[arg(long, default_value_t = Timing::default().park_ms / 1000)]
    pub park_after: u64,
    /// Serve the browser client's files from this folder instead of the copy built into the
    /// binary (for working on the client: edits show on reload).
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<std::path::PathBuf>,
    /// Turn on the operator's admin API (`/api/admin/…`, docs/protocol.md "Moderation"): its
    /// bearer token is this file's content (at least 16 characters; white space around it is
    /// ignored). Without it the admin API answers `admin_off`; `yezi admin` works either way.
    #[arg(long, value_name = "FILE")]
    pub admin_token_file: Option<std::path::PathBuf>,
    /// The address people reach the server at (`https://cards.example.org`), for invite links and
    /// the pages allowed to open WebSockets (default: `http://` and the listening address).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Another origin (`https://HOST[:PORT]`) whose pages may open WebSockets, besides the public
    /// URL's (and, listening on loopback, `localhost`/`127.0.0.1`/`[::1]` on the same port);
    /// repeatable; `*` lets any page in.
    #[arg(long, value_name = "ORIGIN")]
    pub allowed_origin: Vec<String>,
    /// A proxy in front of the server (`ADDRESS` or `ADDRESS/BITS`; repeatable, or a comma list)
    /// whose word on the client's address is taken: a PROXY protocol header (v1 or v2) at the start
    /// of its connections, and the `--forwarded-header` of its requests (the right-most hop not
    /// itself trusted). From any other peer both are ignored. Every per-address limit counts by
    /// the client's address (see docs/deploy.md).
    #[arg(long, value_name = "CIDR", value_delimiter = ',')]
    pub trusted_proxy: Vec<server::proxy::Cidr>,
    /// The header trusted proxies name the client in: `x-forwarded-for` or `forwarded`
    /// (RFC 7239's `for=`). Only that one is read: make the proxy write it.
    #[arg(long, value_name = "HEADER", default_value = "x-forwarded-for")]
    pub forwarded_header: server::proxy::ForwardedHeader,
    /// External bots clients may seat by name: a JSON file `{"bots": [{"name": "…", "command":
    /// "…"}, …]}` of programs that speak the bot protocol (docs/bot-protocol.md).
    #[arg(long, value_name = "FILE")]
    pub bots: Option<std::path::PathBuf>,
    /// Draw every new table's seed from this seed, in the order tables are created, so that a
    /// run can be repeated. Anyone who knows it can tell the deals in advance: for tests and
    /// demonstrations, never for play.
    #[arg(long, value_name = "N")]
    pub table_seed: Option<u64>,
    /// How the server's log (on standard error) is written: `text`, one line an event for a
    /// person, or `json`, one JSON object a line for log collectors. Either way each line has
    /// its time, its level (ERROR, WARN, INFO) and the event's fields.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Threads given to analyses of finished hands (docs/analysis.md), each running one job at a
    /// time at a lowered priority; 0 turns analyses off.
    #[arg(long, default_value_t = server::analysis::AnalysisLimits::default().workers)]
    pub analysis_workers: usize,
    /// Analyses that may wait for a thread; beyond, requests are refused `busy`.
    #[arg(long, default_value_t = server::analysis::AnalysisLimits::default().queue)]
    pub analysis_queue: usize,
    /// The bot's thinking per decision of an analysis, in nominal milliseconds.
    #[arg(long, default_value_t = server::analysis::AnalysisLimits::default().think_ms)]
    pub analysis_think_ms: u32,
    /// Threads the built-in bots think on (0: one per core); their decisions take turns by the
    /// address each table was made from, then by its host.
    #[arg(long, default_value_t = server::tables::bots::BotLimits::default().threads)]
    pub bot_threads: usize,
    /// Threads external bots' decisions wait on (each at most its time limit).
    #[arg(long, default_value_t = server::tables::bots::BotLimits::default().external_threads)]
    pub external_bot_threads: usize,
    /// Unfinished tables of bots only (no person seated) one guest may host at once.
    #[arg(long, default_value_t = server::tables::bots::BotLimits::default().tables_per_guest)]
    pub bot_tables_per_guest: usize,
    /// Unfinished tables of bots only the guests of one address may host at once.
    #[arg(long, default_value_t = server::tables::bots::BotLimits::default().tables_per_ip)]
    pub bot_tables_per_ip: usize,
    /// On SIGTERM or SIGINT the node drains: it stops accepting connections, hands each of its
    /// tables to another node and closes its connections, waiting at most this many seconds,
    /// then exits. See docs/deploy.md.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub drain_timeout: u64,
    /// Serve `/metrics`, `/healthz` and `/readyz` on this address too (they are always on
    /// `--addr`), e.g. to keep them off the public balancer.
    #[arg(long, value_name = "ADDR")]
    pub metrics_addr: Option<String>,
}

/// Waits for SIGTERM or SIGINT; the signal's name.
async fn stop_signal() -> &'static str {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!(error = %e, "SIGTERM cannot be caught");
            let _ = tokio::signal::ctrl_c().await;
            return "SIGINT";
        }
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = tokio::signal::ctrl_c() => "SIGINT",
    }
}

/// Reads `--bots FILE` and registers its bots at the tables; returns their names.
fn load_bots(path: &std::path::Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("--bots {}", path.display()))?;
    let mut reserved: Vec<&str> = table::bots::builtin_names(GameKind::Madiao).to_vec();
    reserved.extend(table::bots::builtin_names(GameKind::Dabaifen));
    let bots =
        ai::ext::parse_bots_file(&text, &reserved).with_context(|| format!("--bots {}", path.display()))?;
    let names = bots.iter().map(|b| b.name.clone()).collect();
    server::tables::bots::set_external_bots(bots);
    Ok(names)
}

/// The async runtime: a worker thread per core, and a few blocking threads (replays, a player's
/// games; the bots, the password hashes and the analyses have threads of their own).
fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(8)
        .build()
        .context("starting the async runtime")
}

/// Runs the server until it is stopped (Ctrl-C).
pub fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    start_log(args.log_format);
    let timing = Timing {
        draw_ms: args.draw_ms.max(1),
        window_ms: args.window_ms,
        bot_delay_ms: args.bot_delay_ms,
        pause_ms: args.pause_ms,
        trick_ms: args.trick_ms,
        poll_hold_ms: Timing::default().poll_hold_ms.min(args.draw_ms / 2),
        park_ms: args.park_after.saturating_mul(1000),
        ..Timing::default()
    };
    // A wrong --bots file, --public-url or --allowed-origin is said before the database is opened.
    let external = args.bots.as_deref().map(load_bots).transpose()?;
    if let Some(url) = &args.public_url {
        server::Site::new(url, &args.allowed_origin, std::net::SocketAddr::from(([127, 0, 0, 1], 0)))?;
    }
    anyhow::ensure!(args.lease_ms >= 300, "--lease-ms must be at least 300");
    anyhow::ensure!(args.db_connections >= 1, "--db-connections must be at least 1");
    anyhow::ensure!(args.connections_per_ip >= 1, "--connections-per-ip must be at least 1");
    anyhow::ensure!(args.sockets_per_guest >= 1, "--sockets-per-guest must be at least 1");
    anyhow::ensure!(args.max_websockets >= 1, "--max-websockets must be at least 1");
    anyhow::ensure!(args.guests_per_ip >= 1, "--guests-per-ip must be at least 1");
    let limits = Limits {
        connections_per_ip: args.connections_per_ip,
        sockets_per_guest: args.sockets_per_guest,
        max_connections: args.max_websockets,
        guests_burst: f64::from(args.guests_per_ip),
        analysis: server::analysis::AnalysisLimits {
            workers: args.analysis_workers,
            queue: args.analysis_queue,
            think_ms: args.analysis_think_ms.max(1),
            ..Default::default()
        },
        bots: server::tables::bots::BotLimits {
            threads: args.bot_threads,
            external_threads: args.external_bot_threads.max(1),
            tables_per_guest: args.bot_tables_per_guest,
            tables_per_ip: args.bot_tables_per_ip,
        },
        ..Limits::default()
    };
    // As many open files as the system allows this process: each connection is one.
    let fd_limit = match server::listen::raise_fd_limit() {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "the open-files limit cannot be raised");
            server::listen::fd_limit()
        }
    };
    let caps = server::listen::Caps::new(fd_limit, limits.max_connections);
    if let Some(dir) = &args.web_dir {
        anyhow::ensure!(dir.join("index.html").is_file(), "--web-dir {}: no index.html there", dir.display());
        server::web::set_web_dir(dir.clone()).with_context(|| format!("--web-dir {}", dir.display()))?;
    }
    let admin_token = match &args.admin_token_file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("--admin-token-file {}", path.display()))?;
            let token = text.trim().to_string();
            anyhow::ensure!(
                token.chars().count() >= 16 && !token.chars().any(char::is_whitespace),
                "--admin-token-file {}: the token must be at least 16 characters without white space",
                path.display()
            );
            Some(token)
        }
        None => None,
    };
    if let Some(seed) = args.table_seed {
        tracing::warn!(seed, "--table-seed: every deal can be foretold by anyone who knows it; not for play");
    }
    runtime()?.block_on(async {
        // The URL may hold a password: every message shows it redacted.
        let db = server::store::redact(&args.db);
        let store = server::store::open_with(
            &args.db,
            server::store::OpenOptions { pool: args.db_connections, lease_ms: args.lease_ms },
        )
        .await
        .map_err(|e| anyhow::anyhow!(server::store::redact(&e.to_string())))
        .with_context(|| format!("opening the database {db}"))?;
        let backend = store.backend();
        // A shared database is a cluster's: a node without the bus would claim the members'
        // orphaned tables and keep them out of their reach; SQLite is one node's.
        match (&args.bus, backend) {
            (Some(_), "postgres") => {}
            (Some(_), _) => anyhow::bail!(
                "--bus needs a PostgreSQL database (--db postgres://…): a SQLite file is one node's"
            ),
            (None, "postgres") => {
                let beat = store
                    .beat(false)
                    .await
                    .map_err(|e| anyhow::anyhow!(server::store::redact(&e.to_string())))
                    .context("asking the database for the cluster's members")?;
                anyhow::ensure!(
                    beat.members.is_empty(),
                    "the database {db} is a cluster's (its members: {}): start this node with the same \
                     --bus as theirs (--bus redis://… or --bus postgres)",
                    beat.members.join(", ")
                );
            }
            (None, _) => {}
        }
        // Before the tables are resumed, which take it as they load.
        server::tables::set_default_tv_delay(args.tv_delay_tricks);
        let app: Arc<App> = App::start(
            store,
            Config { timing, limits, lease_ms: args.lease_ms, table_seed: args.table_seed },
        )
        .await
        .context("resuming the tables")?;
        if let Some(token) = &admin_token {
            app.set_admin_token(token);
        }
        if let Some(url) = &args.bus {
            let (bus, heard) = server::cluster::bus::open(url, &args.db)
                .await
                .map_err(|e| anyhow::anyhow!(server::store::redact(&e.to_string())))
                .context("opening the bus")?;
            println!("yezi serve: a cluster member (node {}) on the {} bus", app.store.node(), bus.kind());
            app.join_bus(bus, heard).await.context("joining the bus")?;
        }
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .with_context(|| format!("listening on {}", args.addr))?;
        let addr = listener.local_addr()?;
        let public_url = args.public_url.clone().unwrap_or_else(|| format!("http://{addr}"));
        let proxies =
            server::proxy::Proxies { ranges: args.trusted_proxy.clone(), header: args.forwarded_header };
        app.set_site(server::Site::new(&public_url, &args.allowed_origin, addr)?.with_proxies(proxies));
        if args.public_url.is_none() && addr.ip().is_unspecified() {
            tracing::warn!(
                "listening on every address without --public-url: invite links read {public_url} and \
                 pages reached by another address cannot open WebSockets; give --public-url \
                 http://THIS-MACHINE:{}",
                addr.port()
            );
        }
        println!(
            "yezi serve: open http://{addr}/ in a browser ({} tables resumed; database: {backend} {}; \
             at most {} connections, {} WebSockets)",
            app.table_count(),
            db,
            caps.connections,
            caps.websockets
        );
        if let Some(names) = &external {
            println!(
                "yezi serve: external bots: {}",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            );
        }
        if let Some(maddr) = &args.metrics_addr {
            let l = tokio::net::TcpListener::bind(maddr)
                .await
                .with_context(|| format!("--metrics-addr {maddr}"))?;
            println!("yezi serve: metrics on http://{}/metrics", l.local_addr()?);
            tokio::spawn(server::metrics::serve(l, app.clone()));
        }
        let signal = tokio::select! {
            r = server::serve(listener, app.clone()) => {
                r.context("serving")?;
                return Ok(());
            }
            s = stop_signal() => s,
        };
        // No new connection from here (the listener is closed).
        let tables = app.table_count();
        println!("yezi serve: {signal}: draining {tables} tables (at most {} s)", args.drain_timeout);
        let left = server::health::drain(&app, Duration::from_secs(args.drain_timeout)).await;
        println!(
            "yezi serve: stopped ({} tables handed off, {left} still running)",
            tables.saturating_sub(left)
        );
        Ok(())
    })
}

/// What `yezi loadtest` runs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Tables of four clients (or `--replay`).
    Tables,
    /// Victim tables of a person and three bots, quiet and then while another address runs
    /// tables of bots only; the victims' bot moves and sign-ins are timed.
    Starve,
    /// Many wrong sign-ins; the server's resident memory before and after.
    Signins,
}

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// What to run.
    #[arg(long, value_enum, default_value_t = Scenario::Tables)]
    pub scenario: Scenario,
    /// With `--scenario starve`: victim tables.
    #[arg(long, default_value_t = 4)]
    pub victims: usize,
    /// With `--scenario starve`: the victims' bot.
    #[arg(long, default_value = "expert")]
    pub victim_bot: String,
    /// With `--scenario starve`: guests of the attack, and tables each asks for.
    #[arg(long, default_value = "10x20", value_name = "GUESTSxTABLES")]
    pub attack: String,
    /// With `--scenario starve`: the attack's bot.
    #[arg(long, default_value = "expert")]
    pub attack_bot: String,
    /// With `--scenario starve`: sign-ins timed in each phase; with `--scenario signins`: the
    /// sign-ins made.
    #[arg(long)]
    pub signins: Option<usize>,
    /// With `--scenario signins`: sign-ins at once.
    #[arg(long, default_value_t = 8)]
    pub at_once: usize,
    /// How many tables of four bot clients.
    #[arg(long, default_value_t = 100)]
    pub tables: usize,
    /// The server (on this machine).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// One game only (default: both, alternately).
    #[arg(long)]
    pub game: Option<GameArg>,
    /// A client's think time per decision, `MIN-MAX` milliseconds (uniform).
    #[arg(long, default_value = "500-1500")]
    pub think_ms: String,
    /// Seconds to measure once every table is seated.
    #[arg(long, default_value_t = 60)]
    pub duration: u64,
    /// Seconds of play before measuring.
    #[arg(long, default_value_t = 10)]
    pub warmup: u64,
    /// The seed of the clients' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Further nodes of the same cluster (`host:port,…`, on this machine): tables are created
    /// through `--addr` and each of these in turn, so every node owns its share.
    #[arg(long, value_delimiter = ',', value_name = "ADDR,…")]
    pub nodes: Vec<String>,
    /// With `--nodes`: each table's people connect through the next node after its owner, so
    /// every move crosses the bus.
    #[arg(long, requires = "nodes")]
    pub cross: bool,
    /// Keep this many analyses of finished hands queued or running on the server during the
    /// warm-up and the measurement (docs/analysis.md): first two games of four bots are played
    /// out, so run the server with `--bot-delay-ms 0 --trick-ms 0 --pause-ms 0`.
    #[arg(long, default_value_t = 0)]
    pub analyses: usize,
    /// Of the `--tables`, this many are the tables of duplicate events (docs/events.md): the
    /// events (of `--event-size` tables, `--event-people` clients of this tool at each, the
    /// event's bot in the other seats) are hosted by accounts the tool claims and play their
    /// boards one after another; the report adds how long a board's standings take to show it
    /// after its last table ends. Madiao only (as events are).
    #[arg(long, default_value_t = 0)]
    pub event_tables: usize,
    /// With `--event-tables`: tables per event.
    #[arg(long, default_value_t = 4)]
    pub event_size: usize,
    /// With `--event-tables`: people (clients of this tool) at each event table, 1 to 4.
    #[arg(long, default_value_t = 3)]
    pub event_people: u8,
    /// With `--event-tables`: boards per event.
    #[arg(long, default_value_t = 32)]
    pub event_boards: u32,
    /// Instead of tables: post this `yezi/1` record to `POST /api/replay` (`--posts` times at
    /// once) while asking for `GET /api/stats` every `--poll-ms`, then fetch `--hands` of its
    /// hands; reports how long the statistics took and the server's peak resident memory.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<std::path::PathBuf>,
    /// With `--replay`: how many posts at once.
    #[arg(long, default_value_t = 2)]
    pub posts: usize,
    /// With `--replay`: milliseconds between two requests for the statistics.
    #[arg(long, default_value_t = 10)]
    pub poll_ms: u64,
    /// With `--replay`: how many hands to fetch afterwards.
    #[arg(long, default_value_t = 20)]
    pub hands: usize,
}

/// Drives a running server with bot tables and prints what it measured.
pub fn loadtest(args: &LoadtestArgs) -> anyhow::Result<bool> {
    match args.scenario {
        Scenario::Tables => {}
        Scenario::Starve => {
            let (g, t) = args.attack.split_once('x').unwrap_or(("", ""));
            let (Ok(guests), Ok(tables)) = (g.trim().parse(), t.trim().parse()) else {
                anyhow::bail!("--attack {:?}: expected GUESTSxTABLES, as 10x20", args.attack);
            };
            let opts = StarveOptions {
                addr: args.addr.clone(),
                victims: args.victims.max(1),
                victim_bot: args.victim_bot.clone(),
                attack_guests: guests,
                attack_tables: tables,
                attack_bot: args.attack_bot.clone(),
                attack_from: std::net::Ipv4Addr::new(127, 0, 0, 2).into(),
                signin_from: std::net::Ipv4Addr::new(127, 0, 0, 3).into(),
                signins: args.signins.unwrap_or(5),
                phase: Duration::from_secs(args.duration),
                warmup: Duration::from_secs(args.warmup),
                seed: args.seed,
            };
            let report = runtime()?.block_on(run_starve(&opts, |m| eprintln!("yezi loadtest: {m}")))?;
            print!("{report}");
            return Ok(report.all_ok());
        }
        Scenario::Signins => {
            let opts = SigninOptions {
                addr: args.addr.clone(),
                signins: args.signins.unwrap_or(1000),
                at_once: args.at_once,
            };
            let report = runtime()?.block_on(run_signins(&opts))?;
            print!("{report}");
            return Ok(report.statuses.iter().all(|s| s.0 == 401));
        }
    }
    if let Some(path) = &args.replay {
        let record = std::fs::read_to_string(path).with_context(|| format!("--replay {}", path.display()))?;
        let opts = ReplayLoadOptions {
            addr: args.addr.clone(),
            record,
            posts: args.posts,
            poll_ms: args.poll_ms,
            hands: args.hands,
        };
        let report = runtime()?.block_on(run_replay(&opts))?;
        print!("{report}");
        return Ok(report.all_ok());
    }
    let (a, b) = args.think_ms.split_once('-').unwrap_or((&args.think_ms, &args.think_ms));
    let lo: u64 =
        a.trim().parse().with_context(|| format!("--think-ms {:?}: expected MIN-MAX", args.think_ms))?;
    let hi: u64 =
        b.trim().parse().with_context(|| format!("--think-ms {:?}: expected MIN-MAX", args.think_ms))?;
    anyhow::ensure!(lo <= hi, "--think-ms {}: MIN is above MAX", args.think_ms);
    let opts = LoadOptions {
        addr: args.addr.clone(),
        tables: args.tables,
        game: args.game.map(|g| match g {
            GameArg::Madiao => GameKind::Madiao,
            GameArg::Dabaifen => GameKind::Dabaifen,
        }),
        think_ms: (lo, hi),
        duration: Duration::from_secs(args.duration),
        warmup: Duration::from_secs(args.warmup),
        seed: args.seed,
        nodes: args.nodes.clone(),
        cross: args.cross,
        analyses: args.analyses,
        events: (args.event_tables > 0).then_some(EventLoad {
            tables: args.event_tables,
            per_event: args.event_size,
            people: args.event_people,
            boards: args.event_boards,
        }),
    };
    let report = runtime()?.block_on(run(&opts, |m| eprintln!("yezi loadtest: {m}")))?;
    print!("{report}");
    Ok(report.errors == 0)
}
