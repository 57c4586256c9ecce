//! Running tables on several nodes: which node runs which table, and telling connections that
//! their table moved.
//!
//! Each table is run by the node holding its lease ([`crate::store::Store::claim_orphans`]).
//! Every node renews its leases every third of their length, in one statement; a table whose
//! lease the node failed to renew stops at once ([`crate::actor`]). Every tick the node also
//! claims a small batch of orphaned tables (leases run out: their node died or stalled), and a
//! connection that asks for an orphaned table claims it at once.
//!
//! A connection at a table that stops on this node is told the table moved and enters it again,
//! wherever it runs now: the client gets a fresh `sync`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::mpsc;

use crate::App;
use crate::actor::{self, ConnId, TableHandle};
use crate::store::{Epoch, Held, StoreError, TableRow};

/// How many orphaned tables a node claims at once.
pub const CLAIM_BATCH: u32 = 16;

/// What the server tells one of its connections from outside the connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control {
    /// The table (by id) stopped running where the connection reached it: enter it again.
    Moved(String),
}

/// The node's part in a cluster (or alone).
pub struct Cluster {
    /// How long a lease lasts (milliseconds).
    lease_ms: u64,
    /// This node's connections, by id.
    local: Mutex<HashMap<ConnId, mpsc::UnboundedSender<Control>>>,
}

impl Cluster {
    /// A node whose leases last `lease_ms`.
    pub fn new(lease_ms: u64) -> Cluster {
        Cluster { lease_ms: lease_ms.max(3), local: Mutex::new(HashMap::new()) }
    }

    /// How long a lease lasts.
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms)
    }

    /// Registers a connection of this node, which hears of its table's moves on `control`.
    pub fn attach(&self, conn: ConnId, control: mpsc::UnboundedSender<Control>) {
        if let Ok(mut m) = self.local.lock() {
            m.insert(conn, control);
        }
    }

    /// Forgets a connection that closed.
    pub fn detach(&self, conn: ConnId) {
        if let Ok(mut m) = self.local.lock() {
            m.remove(&conn);
        }
    }

    /// Tells these connections that `table` stopped running where they reached it.
    pub fn moved(&self, table: &str, conns: &[ConnId]) {
        if let Ok(m) = self.local.lock() {
            for c in conns {
                if let Some(tx) = m.get(c) {
                    let _ = tx.send(Control::Moved(table.to_string()));
                }
            }
        }
    }
}

/// Loads a table this node has claimed and starts its task (unless it runs here already).
pub async fn load(app: &Arc<App>, row: TableRow, epoch: Epoch) -> Result<TableHandle, StoreError> {
    if let Some(h) = app.table(&row.id)
        && h.epoch == epoch
    {
        return Ok(h);
    }
    let id = row.id.clone();
    let log = app.store.actions(&id).await?;
    let chat = app.store.recent_chat(&id, 30).await?;
    let handle = actor::spawn(app.clone(), row, epoch, log, chat).map_err(StoreError::Corrupt)?;
    // An older epoch's task still here has lost the table.
    if let Ok(mut t) = app.tables.lock()
        && let Some(old) = t.insert(id, handle.clone())
    {
        old.lost.notify_one();
    }
    Ok(handle)
}

/// Claims up to `limit` orphaned tables and starts them; how many were claimed.
pub async fn claim_batch(app: &Arc<App>, limit: u32) -> Result<usize, StoreError> {
    let claimed = app.store.claim_orphans(limit).await?;
    let n = claimed.len();
    for (row, epoch) in claimed {
        let id = row.id.clone();
        if let Err(e) = load(app, row, epoch).await {
            eprintln!("yezi serve: table {id} is not resumed: {e}");
            let _ = app.store.release(&id, epoch).await;
        }
    }
    Ok(n)
}

/// Renews the node's leases and stops the tables it lost.
pub async fn renew(app: &Arc<App>) -> Result<(), StoreError> {
    // The tables running before the renewal began: one started later may hold a lease the
    // renewal did not see.
    let running: Vec<(String, TableHandle)> = app
        .tables
        .lock()
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    match app.store.renew_leases().await? {
        Held::Every => {}
        Held::Only(held) => {
            for (id, h) in running {
                if !held.contains(&id) {
                    h.lost.notify_one();
                }
            }
        }
    }
    Ok(())
}

/// The node's background work, until the server is dropped: renew the leases every third of
/// their length, and claim orphaned tables (again at once while batches come back full).
pub fn spawn_upkeep(app: &Arc<App>) {
    let weak: Weak<App> = Arc::downgrade(app);
    let period = app.cluster.lease() / 3;
    tokio::spawn(async move {
        let mut renewed = tokio::time::Instant::now();
        loop {
            let Some(app) = weak.upgrade() else { break };
            let mut pause = period;
            if renewed.elapsed() >= period {
                renewed = tokio::time::Instant::now();
                if let Err(e) = renew(&app).await {
                    eprintln!("yezi serve: the leases cannot be renewed: {e}");
                }
            }
            match claim_batch(&app, CLAIM_BATCH).await {
                Ok(n) if n as u32 == CLAIM_BATCH => pause = Duration::from_millis(200),
                Ok(_) => {}
                Err(e) => eprintln!("yezi serve: orphaned tables cannot be claimed: {e}"),
            }
            drop(app);
            tokio::time::sleep(pause.min(period.saturating_sub(renewed.elapsed()))).await;
        }
    });
}
