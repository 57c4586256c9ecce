//! `yezi loadtest --scenario starve` and `--scenario signins`: the figures of issue 28's fair
//! shares, against a running server on this machine (`docs/performance.md`).
//!
//! **starve**: a few "victim" tables, each of one person (a client of this tool, from
//! 127.0.0.1) and three bots, are played while nothing else runs (quiet), then while an attack
//! runs: guests of another address (by default 127.0.0.2, which on Linux reaches the loopback
//! server like another machine) create as many tables of four bots as the server lets them
//! (10 guests × 20 tables of `expert` bots by default). Measured in both phases: the time from the
//! update before a victim table's bot move (the move that made it the bot's turn) to the update
//! of the bot's move, as the person's connection reads them (the server's bot delay included),
//! and how long a sign-in takes (from a third address, 127.0.0.3, each phase with an account of
//! its own so that the sign-in allowances are not the limit). Run the server with
//! `--trick-ms 0` so that no finished trick on show counts in a bot's time.
//!
//! **signins**: the server's resident memory idle, then after N sign-ins (wrong passwords for
//! usernames nobody has: each costs a full argon2 check, as a right one does), made `at_once` at
//! a time from addresses 127.0.1.1, 127.0.1.2, … (a new one every 15, under the sign-in allowance
//! of an address).

use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cards::Rng;
use cards::record::GameKind;
use client::{Client, ClientError, Socket, random_act};
use futures_util::StreamExt;
use tokio::sync::watch;
use tokio::time::Instant;
use wire::{ClientMsg, NewTable, SeatChoice, ServerMsg, TableEvent, TableMsg};

use crate::loadtest::{LoadError, check_loopback};

/// What `--scenario starve` runs.
#[derive(Clone, Debug)]
pub struct StarveOptions {
    /// The server, `host:port` on this machine.
    pub addr: String,
    /// Victim tables (one person, three bots each).
    pub victims: usize,
    /// The victims' bot.
    pub victim_bot: String,
    /// Guests of the attack.
    pub attack_guests: usize,
    /// Tables of bots only each attacking guest asks for.
    pub attack_tables: usize,
    /// The attack's bot.
    pub attack_bot: String,
    /// The address the attack comes from (a loopback address).
    pub attack_from: IpAddr,
    /// The address the sign-ins come from.
    pub signin_from: IpAddr,
    /// Sign-ins per phase.
    pub signins: usize,
    /// How long each phase is measured.
    pub phase: Duration,
    /// Play before the quiet phase, and attack before its phase, not measured.
    pub warmup: Duration,
    /// The seed of the person's choices.
    pub seed: u64,
}

/// One phase's figures.
#[derive(Clone, Debug, Default)]
pub struct Phase {
    /// The victims' bot moves' times (milliseconds, sorted).
    pub bot_ms: Vec<f64>,
    /// The sign-ins' times (milliseconds, in order) and their statuses.
    pub signins: Vec<(u16, f64)>,
}

impl Phase {
    /// The bot moves' time at quantile `q`.
    pub fn bot(&self, q: f64) -> f64 {
        quantile(&self.bot_ms, q)
    }
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// What a starve run measured.
#[derive(Clone, Debug)]
pub struct StarveReport {
    /// The options.
    pub opts: StarveOptions,
    /// Without the attack.
    pub quiet: Phase,
    /// With it.
    pub attack: Phase,
    /// Attack tables made, and refused (with the first refusal's message).
    pub attack_made: usize,
    /// Attack tables refused.
    pub attack_refused: usize,
    /// The first refusal.
    pub refusal: Option<String>,
    /// Errors of the victims' connections.
    pub errors: Vec<String>,
}

impl StarveReport {
    /// True when both phases measured bot moves and every sign-in was answered 201.
    pub fn all_ok(&self) -> bool {
        !self.quiet.bot_ms.is_empty()
            && !self.attack.bot_ms.is_empty()
            && self.quiet.signins.iter().chain(&self.attack.signins).all(|s| s.0 == 201)
            && self.errors.is_empty()
    }
}

impl std::fmt::Display for StarveReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.opts;
        writeln!(
            f,
            "victims: {} tables (a person and three `{}` bots); attack from {}: {} guests x {} tables of `{}` bots: {} made, {} refused",
            o.victims,
            o.victim_bot,
            o.attack_from,
            o.attack_guests,
            o.attack_tables,
            o.attack_bot,
            self.attack_made,
            self.attack_refused
        )?;
        if let Some(r) = &self.refusal {
            writeln!(f, "  first refusal: {r}")?;
        }
        for (name, p) in [("quiet", &self.quiet), ("attack", &self.attack)] {
            writeln!(
                f,
                "{name}: {} victim bot moves: p50 {:.0} ms, p90 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
                p.bot_ms.len(),
                p.bot(0.5),
                p.bot(0.9),
                p.bot(0.99),
                p.bot(1.0)
            )?;
            let times: Vec<String> = p.signins.iter().map(|(s, ms)| format!("{ms:.0} ms ({s})")).collect();
            writeln!(f, "{name}: sign-ins: {}", times.join(", "))?;
        }
        let ratio = self.attack.bot(0.99) / self.quiet.bot(0.99).max(1e-9);
        writeln!(f, "bot move p99 with the attack / quiet: {ratio:.2}")?;
        for e in &self.errors {
            writeln!(f, "  error: {e}")?;
        }
        Ok(())
    }
}

/// Where the victims' connections put what they measure.
struct Shared {
    /// 0: not measuring; 1: quiet; 2: attack.
    phase: watch::Receiver<u8>,
    quiet: Mutex<Vec<f64>>,
    attack: Mutex<Vec<f64>>,
    errors: Mutex<Vec<String>>,
}

/// Plays a victim table's person: random legal moves after 300–600 ms; measures the bots' moves.
async fn victim(mut sock: Socket, shared: Arc<Shared>, mut rng: Rng, mut stop: watch::Receiver<bool>) {
    let mut last: Option<(Instant, bool)> = None;
    let mut pending: Option<(Instant, wire::ActAction, u64)> = None;
    loop {
        let at = pending.as_ref().map(|p| p.0);
        tokio::select! {
            m = sock.recv_msg() => {
                let m = match m {
                    Ok(m) => m,
                    Err(e) => {
                        if !*stop.borrow() {
                            shared.errors.lock().unwrap_or_else(|e| e.into_inner()).push(format!("connection: {e}"));
                        }
                        return;
                    }
                };
                let now = Instant::now();
                let (event, mv, legal) = match m {
                    ServerMsg::Update(u) => (Some(u.event), u.move_no, u.legal),
                    ServerMsg::Sync(s) => (None, s.move_no, s.legal),
                    ServerMsg::Error(e) if e.message.contains("already begun") => continue,
                    ServerMsg::Error(e) => {
                        shared.errors.lock().unwrap_or_else(|e| e.into_inner()).push(e.message);
                        continue;
                    }
                    _ => continue,
                };
                let bot_move = matches!(
                    event,
                    Some(TableEvent::Action { by_bot: true, .. } | TableEvent::Stake { by_bot: true, .. })
                );
                // Counted when the update before it began the bot's wait (not a window).
                if bot_move && let Some((t, counts)) = last && counts {
                    let ms = now.duration_since(t).as_secs_f64() * 1000.0;
                    let phase = *shared.phase.borrow();
                    let into = match phase {
                        1 => Some(&shared.quiet),
                        2 => Some(&shared.attack),
                        _ => None,
                    };
                    if let Some(v) = into {
                        v.lock().unwrap_or_else(|e| e.into_inner()).push(ms);
                    }
                }
                let counts = !matches!(event, Some(TableEvent::Window { .. }) | None);
                last = Some((now, counts));
                // A later message without a move for the person leaves a pending one as it is.
                if let Some(a) = legal.as_ref().and_then(|l| random_act(l, &mut rng)) {
                    pending = Some((now + Duration::from_millis(300 + u64::from(rng.below(301))), a, mv));
                }
            }
            _ = async { if let Some(t) = at { tokio::time::sleep_until(t).await } }, if at.is_some() => {
                if let Some((_, action, mv)) = pending.take() {
                    let msg = ClientMsg::Table(TableMsg::Act { action, move_no: Some(mv), seat: None });
                    if sock.send_msg(&msg).await.is_err() {
                        return;
                    }
                }
            }
            _ = stop.changed() => {
                sock.close().await;
                return;
            }
        }
    }
}

/// Makes an account (from `client`'s address) for the sign-ins of one phase: its username.
async fn account(client: &Client, name: &str) -> Result<String, ClientError> {
    let g = client.guest(name).await?;
    let suffix: String = g.id.chars().rev().take(6).collect();
    let username = format!("starve{suffix}");
    client.claim_account(&g.token, &username, "a long enough password").await?;
    Ok(username)
}

/// Signs in `n` times, evenly over `over`: each one's status and time (milliseconds).
async fn sign_ins(client: &Client, username: &str, n: usize, over: Duration) -> Vec<(u16, f64)> {
    let mut out = Vec::new();
    let gap = over / (n.max(1) as u32 + 1);
    for _ in 0..n {
        tokio::time::sleep(gap).await;
        let body = serde_json::json!({ "username": username, "password": "a long enough password" });
        let t = Instant::now();
        let status = client.post("/api/sessions", &body, None).await.map_or(0, |r| r.0);
        out.push((status, t.elapsed().as_secs_f64() * 1000.0));
    }
    out
}

/// Runs `--scenario starve`; `progress` is told what is happening.
pub async fn run_starve(opts: &StarveOptions, progress: impl Fn(&str)) -> Result<StarveReport, LoadError> {
    check_loopback(&opts.addr).await?;
    let client = Client::new(&opts.addr);
    let signer = Client::with_local_address(&opts.addr, opts.signin_from);
    let attacker = Client::with_local_address(&opts.addr, opts.attack_from);
    let quiet_user = account(&signer, "starve quiet").await?;
    let attack_user = account(&signer, "starve attack").await?;
    progress(&format!("seating {} victim tables…", opts.victims));
    let (phase_tx, phase_rx) = watch::channel(0u8);
    let (stop_tx, stop_rx) = watch::channel(false);
    let shared = Arc::new(Shared {
        phase: phase_rx,
        quiet: Mutex::new(Vec::new()),
        attack: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
    });
    let mut seeds = Rng::from_seed(opts.seed);
    let mut tasks = Vec::new();
    for i in 0..opts.victims {
        let g = client.guest(&format!("victim {i}")).await?;
        let bot = SeatChoice::Bot { bot: Some(opts.victim_bot.clone()) };
        let body = NewTable {
            name: Some(format!("victim {i}")),
            turn_seconds: 60,
            private: true,
            // Timed, so that the pause after a hand ends by itself (the person never says ready).
            untimed: Some(false),
            seats: Some(vec![SeatChoice::Me, bot.clone(), bot.clone(), bot]),
            ..NewTable::new(GameKind::Madiao)
        };
        let id = client.create_table(&g.token, &body).await?.table.id;
        let mut sock = client.connect_as(&g.token).await?;
        sock.send_msg(&ClientMsg::Join { table: id, seat: Some(0) }).await?;
        // The match begins when its host starts it (it may have begun already: then it says so).
        sock.send_msg(&ClientMsg::Table(TableMsg::Start)).await?;
        tasks.push(tokio::spawn(victim(sock, shared.clone(), seeds.fork(), stop_rx.clone())));
    }
    progress(&format!("warming up for {:.0} s…", opts.warmup.as_secs_f64()));
    tokio::time::sleep(opts.warmup).await;
    progress(&format!("quiet: measuring for {:.0} s…", opts.phase.as_secs_f64()));
    let _ = phase_tx.send(1);
    let quiet_signins = sign_ins(&signer, &quiet_user, opts.signins, opts.phase).await;
    tokio::time::sleep(opts.phase / (opts.signins.max(1) as u32 + 1)).await;
    let _ = phase_tx.send(0);
    progress(&format!(
        "attack: {} guests of {} ask for {} tables of `{}` bots each…",
        opts.attack_guests, opts.attack_from, opts.attack_tables, opts.attack_bot
    ));
    let (mut made, mut refused, mut refusal) = (0, 0, None);
    for k in 0..opts.attack_guests {
        let g = attacker.guest(&format!("attacker {k}")).await?;
        let bot = SeatChoice::Bot { bot: Some(opts.attack_bot.clone()) };
        let body = NewTable {
            name: Some(format!("attack {k}")),
            private: true,
            seats: Some(vec![bot; 4]),
            ..NewTable::new(GameKind::Madiao)
        };
        let body = serde_json::to_value(&body).map_err(|e| ClientError::Unexpected(e.to_string()))?;
        let answers: Vec<Result<(u16, serde_json::Value), ClientError>> =
            futures_util::stream::iter(0..opts.attack_tables)
                .map(|_| {
                    let (attacker, body, token) = (attacker.clone(), body.clone(), g.token.clone());
                    async move { attacker.post("/api/tables", &body, Some(&token)).await }
                })
                .buffer_unordered(8)
                .collect()
                .await;
        for a in answers {
            match a? {
                (201, _) => made += 1,
                (_, b) => {
                    refused += 1;
                    refusal.get_or_insert_with(|| b["error"]["message"].as_str().unwrap_or("?").to_string());
                }
            }
        }
    }
    progress(&format!(
        "{made} attack tables made, {refused} refused; warming up for {:.0} s…",
        opts.warmup.as_secs_f64()
    ));
    tokio::time::sleep(opts.warmup).await;
    progress(&format!("attack: measuring for {:.0} s…", opts.phase.as_secs_f64()));
    let _ = phase_tx.send(2);
    let attack_signins = sign_ins(&signer, &attack_user, opts.signins, opts.phase).await;
    tokio::time::sleep(opts.phase / (opts.signins.max(1) as u32 + 1)).await;
    let _ = phase_tx.send(0);
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    let sorted = |m: &Mutex<Vec<f64>>| {
        let mut v = std::mem::take(&mut *m.lock().unwrap_or_else(|e| e.into_inner()));
        v.sort_by(f64::total_cmp);
        v
    };
    let errors = std::mem::take(&mut *shared.errors.lock().unwrap_or_else(|e| e.into_inner()));
    Ok(StarveReport {
        opts: opts.clone(),
        quiet: Phase { bot_ms: sorted(&shared.quiet), signins: quiet_signins },
        attack: Phase { bot_ms: sorted(&shared.attack), signins: attack_signins },
        attack_made: made,
        attack_refused: refused,
        refusal,
        errors,
    })
}

/// What `--scenario signins` runs.
#[derive(Clone, Debug)]
pub struct SigninOptions {
    /// The server, `host:port` on this machine.
    pub addr: String,
    /// Sign-ins in all.
    pub signins: usize,
    /// Sign-ins at once.
    pub at_once: usize,
}

/// What a sign-in run measured.
#[derive(Clone, Debug)]
pub struct SigninReport {
    /// Sign-ins asked for.
    pub signins: usize,
    /// Answers by status (401 is the expected one).
    pub statuses: Vec<(u16, usize)>,
    /// Seconds for them all.
    pub seconds: f64,
    /// The server's resident memory before (bytes).
    pub rss_before: Option<u64>,
    /// …and after.
    pub rss_after: Option<u64>,
    /// The server's peak resident memory after (bytes).
    pub peak_after: Option<u64>,
}

impl std::fmt::Display for SigninReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib =
            |b: Option<u64>| b.map_or("not reported".into(), |b| format!("{:.1} MiB", b as f64 / 1048576.0));
        let statuses: Vec<String> = self.statuses.iter().map(|(s, n)| format!("{n} x {s}")).collect();
        writeln!(f, "sign-ins: {} in {:.1} s: {}", self.signins, self.seconds, statuses.join(", "))?;
        writeln!(
            f,
            "server resident memory: {} before, {} after ({} more); peak {}",
            mib(self.rss_before),
            mib(self.rss_after),
            match (self.rss_before, self.rss_after) {
                (Some(a), Some(b)) => format!("{:.1} MiB", (b as f64 - a as f64) / 1048576.0),
                _ => "?".into(),
            },
            mib(self.peak_after)
        )
    }
}

/// Runs `--scenario signins`.
pub async fn run_signins(opts: &SigninOptions) -> Result<SigninReport, LoadError> {
    check_loopback(&opts.addr).await?;
    let client = Client::new(&opts.addr);
    let before = client.stats().await?;
    let t = Instant::now();
    let statuses: Vec<u16> = futures_util::stream::iter(0..opts.signins)
        .map(|k| {
            let ip = IpAddr::V4(Ipv4Addr::new(127, 0, 1 + (k / 15 / 250) as u8, 1 + (k / 15 % 250) as u8));
            let c = Client::with_local_address(&opts.addr, ip);
            async move {
                let body =
                    serde_json::json!({ "username": format!("nobody{k}"), "password": "not the password" });
                c.post("/api/sessions", &body, None).await.map_or(0, |r| r.0)
            }
        })
        .buffer_unordered(opts.at_once.max(1))
        .collect()
        .await;
    let seconds = t.elapsed().as_secs_f64();
    // Let the server settle, as it would between floods.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let after = client.stats().await?;
    let mut counts: Vec<(u16, usize)> = Vec::new();
    for s in statuses {
        match counts.iter_mut().find(|c| c.0 == s) {
            Some(c) => c.1 += 1,
            None => counts.push((s, 1)),
        }
    }
    Ok(SigninReport {
        signins: opts.signins,
        statuses: counts,
        seconds,
        rss_before: before.rss_bytes,
        rss_after: after.rss_bytes,
        peak_after: after.peak_rss_bytes,
    })
}
