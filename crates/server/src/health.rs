//! Is the node alive, and ready for players: `GET /healthz` and `GET /readyz`, the node's
//! heartbeat that answers them, and the node's drain.
//!
//! - `/healthz` answers `200 ok` while the process serves HTTP at all.
//! - `/readyz` answers `200` when the node can serve players: its last heartbeat wrote to the
//!   database (within [`STALE_AFTER`]), its bus carries its own channel back to it (a cluster
//!   member), and it is not draining; else `503` with `{"ready": false, "reason": "…"}`.
//!
//! The heartbeat ([`spawn_probe`]) runs every [`PROBE_EVERY`]: it writes the node's beat
//! ([`crate::store::Leases::beat`], each try bounded by [`PROBE_TIMEOUT`]), keeping the
//! database's clock and the cluster's members, and checks the bus.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::App;

/// How often the node beats.
pub const PROBE_EVERY: Duration = Duration::from_millis(500);

/// How long one beat may take before it counts as failed.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1000);

/// A beat older than this (none succeeded since) makes the node not ready.
pub const STALE_AFTER: Duration = Duration::from_millis(1500);

/// What the heartbeat found last.
#[derive(Debug, Default)]
pub struct Health {
    state: Mutex<Probe>,
    /// Whether the heartbeat has run at least once.
    started: AtomicBool,
}

#[derive(Debug, Default)]
struct Probe {
    /// When the database last took a beat.
    db_ok_at: Option<Instant>,
    /// Why the last beat failed (none: it did not).
    db_error: Option<String>,
    /// Why the bus is not ready (none: it is, or there is none).
    bus_error: Option<String>,
}

impl Health {
    /// Why the node is not ready (`None`: it is).
    pub fn not_ready(&self, app: &App) -> Option<String> {
        if app.cluster.draining() {
            return Some("the node is draining".into());
        }
        let p = self.state.lock().ok()?;
        if let Some(e) = &p.db_error {
            return Some(format!("the database cannot be written: {e}"));
        }
        match p.db_ok_at {
            None => return Some("the database has not been reached yet".into()),
            Some(t) if t.elapsed() > STALE_AFTER => {
                return Some(format!("the database has not answered for {} ms", t.elapsed().as_millis()));
            }
            Some(_) => {}
        }
        p.bus_error.as_ref().map(|e| format!("the bus: {e}"))
    }
}

/// One heartbeat: the database's beat, then the bus.
pub async fn probe(app: &App) {
    // A draining node has left the members: a beat would put it back.
    if app.cluster.draining() {
        return;
    }
    let sent = app.cluster.now();
    let bus = app.cluster.has_bus();
    let beat = tokio::time::timeout(PROBE_TIMEOUT, app.store.beat(bus)).await;
    let db = match beat {
        Ok(Ok(b)) => {
            app.cluster.heard_beat(&b, sent);
            Ok(())
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} ms", PROBE_TIMEOUT.as_millis())),
    };
    let bus = match tokio::time::timeout(PROBE_TIMEOUT, app.cluster.bus_ready(app.store.node())).await {
        Ok(r) => r.err().map(|e| e.to_string()),
        Err(_) => Some(format!("no answer within {} ms", PROBE_TIMEOUT.as_millis())),
    };
    if let Ok(mut p) = app.health.state.lock() {
        match db {
            Ok(()) => {
                p.db_ok_at = Some(Instant::now());
                p.db_error = None;
            }
            Err(e) => p.db_error = Some(crate::store::redact(&e)),
        }
        p.bus_error = bus.map(|e| crate::store::redact(&e));
    }
    app.health.started.store(true, Ordering::Relaxed);
}

/// Runs the heartbeat every [`PROBE_EVERY`] until the app is dropped.
pub fn spawn_probe(app: &Arc<App>) {
    let weak: Weak<App> = Arc::downgrade(app);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(PROBE_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { break };
            probe(&app).await;
        }
    });
}

/// The routes `/healthz` and `/readyz`.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz))
}

async fn healthz() -> Response {
    (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")], "ok\n").into_response()
}

async fn readyz(State(app): State<Arc<App>>) -> Response {
    let (status, body) = match app.health.not_ready(&app) {
        None => (StatusCode::OK, wire::ReadyReply { ready: true, reason: None }),
        Some(reason) => {
            (StatusCode::SERVICE_UNAVAILABLE, wire::ReadyReply { ready: false, reason: Some(reason) })
        }
    };
    (status, [(header::CACHE_CONTROL, "no-store")], axum::Json(body)).into_response()
}

/// Drains the node (see [`crate::cluster::drain`]): it stops claiming and counts as not
/// ready at once, leaves the members, hands off every table it runs (each stops between two
/// steps, so every write under way ends first, and gives up its lease), waits until they have
/// all stopped or `timeout` has passed, then closes its connections. How many tables were
/// still running at the end (0: all handed off).
pub async fn drain(app: &Arc<App>, timeout: Duration) -> usize {
    let until = tokio::time::Instant::now() + timeout;
    app.cluster.drain_begin();
    if let Err(e) = app.store.leave().await {
        tracing::warn!(error = %e, "the node cannot leave the members");
    }
    // A store of one node (SQLite) has no one to hand to: its tables stop between two steps and
    // resume from the log at the next start.
    for h in app.tables.handles() {
        h.lost.notify_one();
    }
    while app.table_count() > 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The connections at the moved tables have a moment to enter them where they run now
    // (those at tables on other nodes carry on there until they close).
    let left = app.table_count();
    app.cluster.close_connections();
    while app.connections.load(Ordering::Relaxed) > 0 && tokio::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    left
}
