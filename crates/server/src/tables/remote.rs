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
use crate::cluster::{BusMsg, Wire, node_channel, table_channel};

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
    bus.subscribe(&node_channel(tables.deps.store.node()), true).await?;
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
            let Ok(msg) = serde_json::from_str::<BusMsg>(&text) else {
                tracing::warn!(%channel, "an unreadable message on the bus");
                continue;
            };
            match msg {
                BusMsg::Cmd { from, conn, cmd, attach } => {
                    let Some(id) = channel.strip_prefix("yezi.t.") else { continue };
                    command(&tables, id.to_string(), from, conn, cmd, attach).await;
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

/// How many messages may wait for the bus on their way to a connection on another node.
const REMOTE_QUEUE: usize = 128;

/// A command from a connection on node `from` for table `id`, which this node may run.
async fn command(tables: &Arc<Tables>, id: String, from: String, conn: ConnId, cmd: Wire, sent_in: u64) {
    let to = node_channel(&from);
    let Some(handle) = tables.get(&id) else {
        // Not here (any more): the connection enters again where the table runs now.
        let msg = match cmd {
            Wire::Join { attach, .. } | Wire::Watch { attach, .. } => BusMsg::Reply {
                conn,
                error: Some((table::protocol::ErrorCode::Unavailable, format!("table {id} moved"))),
                node: String::new(),
                epoch: 0,
                attach,
                table: id.clone(),
            },
            Wire::Gone => return,
            _ => BusMsg::Moved { conn, table: id, attach: sent_in, epoch: 0 },
        };
        tables.deps.cluster.publish(&to, &msg).await;
        return;
    };
    let key = (id.clone(), conn);
    let current =
        tables.deps.cluster.entries.lock().ok().and_then(|e| e.get(&key).map(|(attach, _)| *attach));
    let (guest, entry, attach) = match cmd {
        // An entry older than the connection's entry here is late: dropped.
        Wire::Join { attach, .. } | Wire::Watch { attach, .. } if current.is_some_and(|c| attach < c) => {
            return;
        }
        Wire::Join { guest, name, seat, attach } => (Guest { id: guest, name }, Some(seat), attach),
        Wire::Watch { guest, name, attach } => (Guest { id: guest, name }, None, attach),
        // A command of an earlier entry than the one here (its `gone`, say) is not this one's.
        _ if sent_in != 0 && current.is_some_and(|c| c != sent_in) => return,
        Wire::Gone if current.is_none() => return,
        // A command of an entry this node does not hold (it was let go, or made with the
        // table's earlier node): the connection enters again.
        _ if sent_in != 0 && current.is_none() => {
            let epoch = handle.epoch;
            tables
                .deps
                .cluster
                .publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in, epoch })
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
                    .publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in, epoch })
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
    let forward = (tables.clone(), to.clone(), id.clone(), handle.clone());
    tokio::spawn(async move {
        let (tables, to, id, handle) = forward;
        // Since when no node has heard the connection's messages (its node died, or is cut off).
        let mut unheard: Option<tokio::time::Instant> = None;
        let mut let_go = false;
        while let Some(text) = rx.recv().await {
            if let_go {
                continue;
            }
            let out =
                BusMsg::Out { conn, attach, text: text.to_string(), table: id.clone(), epoch: handle.epoch };
            let heard = tables.deps.cluster.publish(&to, &out).await;
            if heard != Some(0) {
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
        tables.deps.cluster.publish(&to, &BusMsg::Moved { conn, table: id, attach, epoch }).await;
    });
    let (reply, answer) = tokio::sync::oneshot::channel();
    let request = match entry {
        Some(seat) => Request::Join { conn, guest, seat },
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
            Err(_) => Some((table::protocol::ErrorCode::Unavailable, format!("table {id} moved"))),
        };
        tables
            .deps
            .cluster
            .publish(&to, &BusMsg::Reply { conn, error, node, epoch, attach, table: id })
            .await;
    });
}
