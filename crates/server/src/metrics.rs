//! `GET /metrics`: the node's figures in Prometheus' text format (version 0.0.4), written by
//! hand: `# HELP` and `# TYPE` lines, then one sample a line.
//!
//! Every figure is this node's; a dashboard sums or compares them by the `instance` label
//! Prometheus adds. `docs/deploy.md` lists them; `docs/grafana-dashboard.json` charts them.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::App;
use crate::cluster::drain::LATENCY_BUCKETS_MS;

/// The route `/metrics`.
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/metrics", get(metrics))
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        render(&app),
    )
        .into_response()
}

/// One figure: its help line, its type, and its samples.
fn family(out: &mut String, name: &str, kind: &str, help: &str, value: f64) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    let _ = writeln!(out, "{name} {value}");
}

/// The node's figures as Prometheus text.
pub fn render(app: &App) -> String {
    let c = &app.cluster.counters;
    let load = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed) as f64;
    let mut out = String::new();
    family(&mut out, "yezi_tables", "gauge", "Tables this node runs.", app.table_count() as f64);
    family(
        &mut out,
        "yezi_websockets",
        "gauge",
        "Open WebSocket connections.",
        app.connections.load(Ordering::Relaxed) as f64,
    );
    family(
        &mut out,
        "yezi_tcp_connections",
        "gauge",
        "Open TCP connections (HTTP and WebSocket).",
        app.tcp_connections.load(Ordering::Relaxed) as f64,
    );
    family(&mut out, "yezi_moves_total", "counter", "Moves of connections stored and sent.", load(&c.moves));
    let _ = writeln!(
        out,
        "# HELP yezi_move_broadcast_seconds From a move reaching its table to its messages sent."
    );
    let _ = writeln!(out, "# TYPE yezi_move_broadcast_seconds histogram");
    let mut cumulative = 0u64;
    for (i, le) in LATENCY_BUCKETS_MS.iter().enumerate() {
        cumulative += c.latency[i].load(Ordering::Relaxed);
        let _ = writeln!(out, "yezi_move_broadcast_seconds_bucket{{le=\"{}\"}} {cumulative}", le / 1000.0);
    }
    cumulative += c.latency[LATENCY_BUCKETS_MS.len()].load(Ordering::Relaxed);
    let _ = writeln!(out, "yezi_move_broadcast_seconds_bucket{{le=\"+Inf\"}} {cumulative}");
    let _ = writeln!(out, "yezi_move_broadcast_seconds_sum {}", load(&c.latency_sum_us) / 1e6);
    let _ = writeln!(out, "yezi_move_broadcast_seconds_count {cumulative}");
    let (queued, running) = app.analyses.pending();
    family(&mut out, "yezi_analyses_queued", "gauge", "Analyses waiting for a thread.", queued as f64);
    family(&mut out, "yezi_analyses_running", "gauge", "Analyses running.", running as f64);
    family(
        &mut out,
        "yezi_bot_jobs_waiting",
        "gauge",
        "Bots' decisions waiting for a thread.",
        load(&c.bot_jobs_waiting),
    );
    family(
        &mut out,
        "yezi_bot_jobs_total",
        "counter",
        "Bots' decisions that got a thread.",
        load(&c.bot_jobs),
    );
    family(
        &mut out,
        "yezi_bot_wait_seconds_total",
        "counter",
        "Time bots' decisions waited for a thread.",
        load(&c.bot_wait_us) / 1e6,
    );
    family(
        &mut out,
        "yezi_storage_errors_total",
        "counter",
        "Steps the database refused with an error.",
        load(&c.storage_errors),
    );
    family(
        &mut out,
        "yezi_bus_errors_total",
        "counter",
        "Messages the bus failed to send.",
        load(&c.bus_errors),
    );
    family(
        &mut out,
        "yezi_leases_claimed_total",
        "counter",
        "Table leases this node claimed.",
        load(&c.leases_claimed),
    );
    family(
        &mut out,
        "yezi_leases_lost_total",
        "counter",
        "Tables stopped because the node lost or may have lost their lease (GET /api/stats leases_lost).",
        load(&app.cluster.leases_lost),
    );
    family(
        &mut out,
        "yezi_clock_jumps_total",
        "counter",
        "Times the node found its clocks behind the database's: it was paused with its clocks stopped.",
        load(&app.cluster.clock_jumps),
    );
    family(
        &mut out,
        "yezi_fenced_writes_total",
        "counter",
        "Writes refused because the node no longer held the lease (GET /api/stats fenced_writes).",
        load(&app.cluster.fenced_writes),
    );
    family(
        &mut out,
        "yezi_tables_handed_off_total",
        "counter",
        "Tables handed off by a drain.",
        load(&c.handed_off),
    );
    family(
        &mut out,
        "yezi_tables_rebalanced_total",
        "counter",
        "Tables handed to a less loaded node to even out the load.",
        load(&c.rebalanced),
    );
    family(
        &mut out,
        "yezi_rate_limited_total",
        "counter",
        "Messages and chat lines refused for the rate limit.",
        load(&c.rate_limited),
    );
    family(
        &mut out,
        "yezi_cluster_members",
        "gauge",
        "Cluster members this node heard at its last heartbeat.",
        app.cluster.members().len() as f64,
    );
    family(
        &mut out,
        "yezi_ready",
        "gauge",
        "1 when GET /readyz answers 200.",
        if app.health.not_ready(app).is_none() { 1.0 } else { 0.0 },
    );
    out
}

/// Serves `/metrics`, `/healthz` and `/readyz` alone on `listener` (`yezi serve --metrics-addr`).
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    let router = routes().merge(crate::health::routes()).with_state(app);
    axum::serve(listener, router).await
}
