//! The owner's side of connections on other nodes: the bus's commands for the tables this node
//! runs reach their task here, and the task's messages go back over the bus (see
//! [`crate::cluster`] for the connection's side).

use std::sync::Arc;
use std::time::Duration;

use table::machine::{ConnId, Request};
use table::settings::Guest;
use tokio::sync::mpsc;

use super::Tables;
use super::task::Cmd;
use crate::cluster::bus::{Bus, BusError, Heard};
use crate::cluster::{BusMsg, Command, node_channel, table_channel};

/// Makes the node a cluster member on `bus`, hearing its own channel (what it hears arrives on
/// `heard`) and the channels of the tables it runs.
pub async fn join_bus(
    tables: &Arc<Tables>,
    bus: Arc<dyn Bus>,
    heard: mpsc::UnboundedReceiver<Heard>,
) -> Result<(), BusError> {
    // The bus first: a table started from now on subscribes itself.
    tables.deps.cluster.set_bus(bus.clone());
    spawn_listener(tables, heard);
    bus.name(tables.deps.store.node()).await?;
    bus.subscribe(&node_channel(tables.deps.store.node()), true).await?;
    bus.subscribe(crate::notices::CHANNEL, true).await?;
    let running: Vec<String> =
        tables.deps.running.lock().map(|t| t.keys().cloned().collect()).unwrap_or_default();
    for id in running {
        bus.subscribe(&table_channel(&id), true).await?;
    }
    Ok(())
}

/// Hears the bus until the server is dropped: commands for the tables this node runs, and
/// answers, messages and moves for its connections.
pub fn spawn_listener(tables: &Arc<Tables>, mut heard: mpsc::UnboundedReceiver<Heard>) {
    let weak = Arc::downgrade(tables);
    tokio::spawn(async move {
        while let Some((channel, text)) = heard.recv().await {
            let Some(tables) = weak.upgrade() else { break };
            if channel == crate::cluster::bus::RECONNECTED {
                // What the tables on other nodes sent this node's connections meanwhile is lost:
                // each asks its table for its state again.
                let tables = tables.clone();
                tokio::spawn(async move {
                    let node = tables.deps.store.node().to_string();
                    tables.deps.cluster.resync_remote(&node).await;
                });
                continue;
            }
            let Ok(msg) = serde_json::from_str::<BusMsg>(&text) else {
                tracing::warn!(%channel, "an unreadable message on the bus");
                continue;
            };
            match msg {
                BusMsg::Cmd { from, conn, cmd, attach, at } => {
                    let Some(id) = channel.strip_prefix("yezi.t.") else { continue };
                    // A command from later than this node's clocks allow: it was paused with
                    // its clocks stopped, and must not answer as if no time had passed.
                    if at > 0 {
                        tables.deps.cluster.db_clock_says(at, tables.deps.cluster.now());
                    }
                    command(&tables, id.to_string(), from, conn, cmd, attach).await;
                }
                // A notice from another node for this node's connections.
                BusMsg::Notice { from, to, text } => {
                    if from != tables.deps.store.node() {
                        tables.deps.cluster.notices.deliver(&to, &text);
                    }
                }
                BusMsg::Take { table } => {
                    let tables = tables.clone();
                    tokio::spawn(async move { super::take(&tables, &table).await });
                }
                other => tables.deps.cluster.hear(other),
            }
        }
    });
}

/// How long the messages to a connection on another node may go unheard (its node no longer
/// hears its channel: it died, or is cut off from the bus) before the connection is taken to be
/// gone: twice a lease (a node that lost the bus for longer has lost its tables' leases too).
/// Should it come back, its next command finds the entry let go and it enters again.
fn unheard_gone(lease: Duration) -> Duration {
    lease * 2
}

/// How long the messages for a connection on another node may pause, after one was lost, before
/// the table is asked to send the connection its full state; twice as long after each asking,
/// up to [`LOST_RETRY_MAX`].
const LOST_RETRY: Duration = Duration::from_millis(200);

/// The longest pause between two askings for a connection's state after a lost message.
const LOST_RETRY_MAX: Duration = Duration::from_secs(1);

/// Whether a message for a connection is a full state of its table (`sync`), which makes up for
/// any message lost before it.
fn is_sync(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["type"] == "sync")
}

/// How many messages may wait for the bus on their way to a connection on another node.
const REMOTE_QUEUE: usize = 128;

/// A command from a connection on node `from` for table `id`, which this node may run.
async fn command(tables: &Arc<Tables>, id: String, from: String, conn: ConnId, cmd: Command, sent_in: u64) {
    let to = node_channel(&from);
    // Who answers: the connection's node checks it when the answer carries no epoch.
    let me = tables.deps.store.node().to_string();
    let Some(handle) = tables.get(&id) else {
        // Not here (any more): the connection enters again where the table runs now.
        let msg = match cmd {
            Command::Join { attach, .. } | Command::Watch { attach, .. } => BusMsg::Reply {
                conn,
                error: Some((wire::ErrorCode::Unavailable, format!("table {id} moved"))),
                node: String::new(),
                epoch: 0,
                attach,
                table: id.clone(),
                from: me,
            },
            Command::Gone => return,
            _ => BusMsg::Moved { conn, table: id, attach: sent_in, epoch: 0, from: me },
        };
        tables.deps.cluster.publish(&to, &msg).await;
        return;
    };
    let key = (id.clone(), conn);
    let current =
        tables.deps.cluster.entries.lock().ok().and_then(|e| e.get(&key).map(|(attach, _)| *attach));
    let mut delayed = false;
    let (guest, entry, attach) = match cmd {
        // An entry older than the connection's entry here is late: dropped.
        Command::Join { attach, .. } | Command::Watch { attach, .. }
            if current.is_some_and(|c| attach < c) =>
        {
            return;
        }
        Command::Join { guest, name, seat, attach } => (Guest { id: guest, name }, Some(seat), attach),
        Command::Watch { guest, name, attach, delayed: d } => {
            delayed = d;
            (Guest { id: guest, name }, None, attach)
        }
        // A command of an earlier entry than the one here (its `gone`, say) is not this one's.
        _ if sent_in != 0 && current.is_some_and(|c| c != sent_in) => return,
        Command::Gone if current.is_none() => return,
        // A command of an entry this node does not hold (it was let go, or made with the
        // table's earlier node): the connection enters again.
        _ if sent_in != 0 && current.is_none() => {
            let epoch = handle.epoch;
            tables
                .deps
                .cluster
                .publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in, epoch, from: me })
                .await;
            return;
        }
        other => {
            let request = other.into_request(conn);
            if handle.send(Cmd::Request(request)).await.is_err() {
                let epoch = handle.epoch;
                tables
                    .deps
                    .cluster
                    .publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in, epoch, from: me })
                    .await;
            }
            return;
        }
    };
    // The connection's messages go back over the bus; when the table lets go of its queue (the
    // connection left, or the table stopped here), the connection's node hears it moved.
    let (out, mut rx) = mpsc::channel::<axum::extract::ws::Utf8Bytes>(REMOTE_QUEUE);
    let queue = tables.deps.cluster.next_attach.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if let Ok(mut e) = tables.deps.cluster.entries.lock() {
        e.insert(key.clone(), (attach, queue));
    }
    let forward = (tables.clone(), to.clone(), id.clone(), handle.clone(), me.clone());
    tokio::spawn(async move {
        let (tables, to, id, handle, me) = forward;
        // Since when no node has heard the connection's messages (its node died, or is cut off).
        let mut unheard: Option<tokio::time::Instant> = None;
        let mut let_go = false;
        // A message for the connection was lost (the bus did not take it, or no node heard
        // it): until a full state reaches the connection, the table is asked for one whenever
        // nothing else is on its way for a while ([`LOST_RETRY`]). A message lost at the end of
        // a turn is the last one the connection would get until its own move: without this,
        // its person would wait for a turn he never hears of, and his table with him.
        let mut lost = false;
        let mut retry = LOST_RETRY;
        loop {
            let next = if lost && !let_go {
                tokio::time::timeout(retry, rx.recv()).await
            } else {
                Ok(rx.recv().await)
            };
            let text = match next {
                Ok(Some(text)) => text,
                Ok(None) => break,
                // Nothing went to the connection for `retry` since a message was lost.
                Err(_) => {
                    let msg = wire::TableMsg::Resync;
                    let resync = Request::Table { conn, msg, at_ms: crate::ids::now_ms() };
                    let _ = handle.send(Cmd::Request(resync)).await;
                    retry = (retry * 2).min(LOST_RETRY_MAX);
                    continue;
                }
            };
            if let_go {
                continue;
            }
            let out =
                BusMsg::Out { conn, attach, text: text.to_string(), table: id.clone(), epoch: handle.epoch };
            let heard = tables.deps.cluster.try_publish(&to, &out).await;
            if !matches!(heard, Ok(Some(0)) | Err(_)) {
                unheard = None;
                if lost && is_sync(&text) {
                    (lost, retry) = (false, LOST_RETRY);
                }
                continue;
            }
            lost = true;
            if heard.is_err() {
                // The bus itself failed: nothing says the connection's node is gone.
                unheard = None;
                continue;
            }
            let since = *unheard.get_or_insert_with(tokio::time::Instant::now);
            if since.elapsed() >= unheard_gone(tables.deps.cluster.lease()) {
                // The connection is taken to be gone (as its node would have said): the table
                // stops counting it, and lets go of its queue.
                let_go = true;
                let _ = handle.send(Cmd::Request(Request::Gone { conn })).await;
            }
        }
        if let Ok(mut e) = tables.deps.cluster.entries.lock()
            && e.get(&key) == Some(&(attach, queue))
        {
            e.remove(&key);
        }
        let epoch = handle.epoch;
        tables.deps.cluster.publish(&to, &BusMsg::Moved { conn, table: id, attach, epoch, from: me }).await;
    });
    let (reply, answer) = tokio::sync::oneshot::channel();
    let request = match entry {
        Some(seat) => Request::Join { conn, guest, seat },
        None if delayed => Request::Tv { conn, guest },
        None => Request::Watch { conn, guest },
    };
    let cmd = Cmd::Enter { request, out, reply };
    let node = tables.deps.store.node().to_string();
    let epoch = handle.epoch;
    if handle.send(cmd).await.is_err() {
        return;
    }
    let tables = tables.clone();
    tokio::spawn(async move {
        let error = match answer.await {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some((e.code, e.message)),
            Err(_) => Some((wire::ErrorCode::Unavailable, format!("table {id} moved"))),
        };
        tables
            .deps
            .cluster
            .publish(&to, &BusMsg::Reply { conn, error, node, epoch, attach, table: id, from: me })
            .await;
    });
}
