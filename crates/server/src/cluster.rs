//! Running tables on several nodes: which node runs which table, and telling connections that
//! their table moved.
//!
//! Each table is run by the node holding its lease ([`crate::store::Store::claim_orphans`]).
//! Every node renews its leases every third of their length, in one statement; a table whose
//! lease the node failed to renew stops at once ([`crate::actor`]). A table whose lease the node
//! has not renewed for a while stops too, by the node's own clock ([`Term`]): once its lease may
//! have run out by the database's clock, another node may run the table, and the two must not
//! both send to the people at it. Every tick the node also claims a small batch of orphaned
//! tables (leases run out: their node died or stalled), and a connection that asks for an
//! orphaned table claims it at once.
//!
//! A connection at a table that stops on this node is told the table moved and enters it again,
//! wherever it runs now: the client gets a fresh `sync`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use table::machine::Request;

use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::App;
use crate::actor::{self, ConnId, TableHandle};
use crate::store::{Epoch, Held, StoreError, TableRow};
use table::settings::Guest;

/// How many orphaned tables a node claims at once.
pub const CLAIM_BATCH: u32 = 16;

/// Until when a table's task may count on its lease, by the node's own clock: a lease taken or
/// renewed by a statement sent at `t` lasts until at least `t` plus the lease's length by the
/// database's clock, and the node counts on it until `t` plus the lease less a tenth
/// ([`Cluster::term_end`]; the tenth allows for the two clocks running at slightly different
/// rates). A task whose term has ended sends nothing more and stops ([`crate::actor`]).
#[derive(Debug)]
pub struct Term(Mutex<Option<Instant>>);

impl Term {
    /// A term ending at `end` (`None`: never, for a store without leases).
    pub fn new(end: Option<Instant>) -> Term {
        Term(Mutex::new(end))
    }

    /// When the term ends (`None`: never).
    pub fn end(&self) -> Option<Instant> {
        self.0.lock().ok().and_then(|e| *e)
    }

    /// Whether the term still holds at `now` (a poisoned lock counts as ended).
    pub fn holds(&self, now: Instant) -> bool {
        self.0.lock().is_ok_and(|e| e.is_none_or(|end| now < end))
    }

    /// The lease was renewed: the term ends at `end` unless it already ends later.
    pub fn extend(&self, end: Instant) {
        if let Ok(mut e) = self.0.lock()
            && let Some(old) = e.as_mut()
        {
            *old = (*old).max(end);
        }
    }
}

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
    /// Whether the node's leases run out unless renewed (a store shared by nodes; not SQLite,
    /// whose one node holds every table for good).
    expiring: std::sync::atomic::AtomicBool,
    /// This node's connections, by id: their outgoing queue and their control channel.
    local: Mutex<HashMap<ConnId, (actor::Out, mpsc::UnboundedSender<Control>)>>,
    /// The bus, for a cluster member.
    bus: Mutex<Option<Arc<dyn crate::bus::Bus>>>,
    /// Joins and watches sent to other nodes, waiting for their answer.
    pending: Mutex<HashMap<ConnId, tokio::sync::oneshot::Sender<RemoteAnswer>>>,
    /// This node's connections at tables on other nodes.
    remote_at: Mutex<HashMap<ConnId, Remote>>,
    /// The current entry of each connection entering or at a table on another node.
    attached: Mutex<HashMap<ConnId, u64>>,
    /// For the tables this node runs: the entry of each connection of another node that is at
    /// one of them (commands of an earlier entry are dropped), with the number of the queue
    /// that carries its messages.
    entries: Mutex<HashMap<(String, ConnId), (u64, u64)>>,
    next_attach: std::sync::atomic::AtomicU64,
    /// Steps of its tables' writes this node tried after it had lost their lease, refused by the
    /// store ([`crate::store::StoreError::Fenced`]): a stale owner's attempts, none of which
    /// was written.
    pub fenced_writes: std::sync::atomic::AtomicU64,
    /// Tables this node stopped because it found, at a renewal of its leases (or when it claimed
    /// the table again in a newer epoch), that it no longer held their lease, or because it had
    /// not renewed their lease for so long that it may have run out ([`Term`]).
    pub leases_lost: std::sync::atomic::AtomicU64,
}

/// The answer to a join or watch on another node, and who runs the table.
type RemoteAnswer = (Option<(table::protocol::ErrorCode, String)>, crate::store::Holder);

impl Cluster {
    /// A node whose leases last `lease_ms`.
    pub fn new(lease_ms: u64) -> Cluster {
        Cluster {
            lease_ms: lease_ms.max(3),
            expiring: std::sync::atomic::AtomicBool::new(false),
            local: Mutex::new(HashMap::new()),
            bus: Mutex::new(None),
            pending: Mutex::new(HashMap::new()),
            remote_at: Mutex::new(HashMap::new()),
            attached: Mutex::new(HashMap::new()),
            entries: Mutex::new(HashMap::new()),
            next_attach: std::sync::atomic::AtomicU64::new(1),
            fenced_writes: std::sync::atomic::AtomicU64::new(0),
            leases_lost: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Makes the node a cluster member on `bus`, hearing its own channel (what it hears arrives
    /// on `heard`).
    pub async fn join_bus(
        app: &Arc<App>,
        bus: Arc<dyn crate::bus::Bus>,
        heard: mpsc::UnboundedReceiver<crate::bus::Heard>,
    ) -> Result<(), crate::bus::BusError> {
        // The bus first: a table started from now on subscribes itself.
        if let Ok(mut b) = app.cluster.bus.lock() {
            *b = Some(bus.clone());
        }
        spawn_listener(app, heard);
        bus.subscribe(&node_channel(app.store.node()), true).await?;
        let running: Vec<String> = app.tables.lock().map(|t| t.keys().cloned().collect()).unwrap_or_default();
        for id in running {
            bus.subscribe(&table_channel(&id), true).await?;
        }
        Ok(())
    }

    /// How long a lease lasts.
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms)
    }

    /// From now on, the node's leases run out unless renewed (its store is shared by nodes): the
    /// tables it starts have a [`Term`].
    pub fn leases_expire(&self) {
        self.expiring.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The end of the term of a lease taken or renewed by a statement sent at `sent` (`None`
    /// when the node's leases never run out).
    pub fn term_end(&self, sent: Instant) -> Option<Instant> {
        self.expiring
            .load(std::sync::atomic::Ordering::Relaxed)
            .then(|| sent + self.lease() - self.lease() / 10)
    }

    /// Registers a connection of this node: its outgoing queue (for messages from tables on
    /// other nodes), and where it hears of its table's moves.
    pub fn attach(&self, conn: ConnId, out: actor::Out, control: mpsc::UnboundedSender<Control>) {
        if let Ok(mut m) = self.local.lock() {
            m.insert(conn, (out, control));
        }
    }

    /// Forgets a connection that closed.
    pub fn detach(&self, conn: ConnId) {
        if let Ok(mut m) = self.local.lock() {
            m.remove(&conn);
        }
        self.left_remote(conn);
    }

    /// Tells these connections of this node that `table` stopped running where they reached it
    /// (connections of other nodes hear it when their queue closes).
    pub fn moved(&self, table: &str, conns: &[ConnId]) {
        if let Ok(m) = self.local.lock() {
            for c in conns {
                if let Some((_, tx)) = m.get(c) {
                    let _ = tx.send(Control::Moved(table.to_string()));
                }
            }
        }
    }
}

/// Loads a table this node has claimed (by a statement sent at `claimed`) and starts its task
/// (unless it runs here already).
pub async fn load(
    app: &Arc<App>,
    row: TableRow,
    epoch: Epoch,
    claimed: Instant,
) -> Result<TableHandle, StoreError> {
    if let Some(h) = app.table(&row.id)
        && h.epoch == epoch
    {
        return Ok(h);
    }
    let id = row.id.clone();
    let log = app.store.actions(&id).await?;
    let chat = app.store.recent_chat(&id, 30).await?;
    let handle = actor::spawn(app.clone(), row, epoch, claimed, log, chat).map_err(StoreError::Corrupt)?;
    // Not waiting for the bus to confirm: a node claiming a batch of tables must not be held up
    // (its lease renewals wait behind it); a connection elsewhere whose command nobody heard yet
    // sends it again ([`Cluster::enter_remote`]).
    app.cluster.running(&id, false).await;
    if !install(app, &id, &handle) {
        app.cluster.stopped(&id).await;
    }
    Ok(handle)
}

/// Puts a table's new task among the node's tables, in place of an older epoch's task (which has
/// lost the table: it is told so); false, with nothing put there, when the task has stopped
/// already (its lease's term was over before it began, the store being slow): a stopped task
/// left there would pass for the table's, answering no one.
pub(crate) fn install(app: &App, id: &str, handle: &TableHandle) -> bool {
    let Ok(mut t) = app.tables.lock() else { return false };
    if handle.ended.load(std::sync::atomic::Ordering::Relaxed) {
        if let Some(old) = t.get(id).filter(|old| old.epoch < handle.epoch) {
            old.lost.notify_one();
        }
        return false;
    }
    if let Some(old) = t.insert(id.to_string(), handle.clone()) {
        old.lost.notify_one();
    }
    true
}

/// Claims up to `limit` orphaned tables and starts them; how many were claimed.
pub async fn claim_batch(app: &Arc<App>, limit: u32) -> Result<usize, StoreError> {
    let asked = Instant::now();
    let claimed = app.store.claim_orphans(limit).await?;
    let n = claimed.len();
    for (row, epoch) in claimed {
        let id = row.id.clone();
        if let Err(e) = load(app, row, epoch, asked).await {
            eprintln!("yezi serve: table {id} is not resumed: {e}");
            let _ = app.store.release(&id, epoch).await;
        }
    }
    Ok(n)
}

/// Renews the node's leases, extends the terms of the tables it still holds and stops those it
/// lost.
pub async fn renew(app: &Arc<App>) -> Result<(), StoreError> {
    // The tables running before the renewal began: one started later may hold a lease the
    // renewal did not see.
    let running: Vec<(String, TableHandle)> = app
        .tables
        .lock()
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let asked = Instant::now();
    match app.store.renew_leases().await? {
        Held::Every => {}
        Held::Only(held) => {
            let end = app.cluster.term_end(asked);
            for (id, h) in running {
                if !held.contains(&id) {
                    h.lost.notify_one();
                } else if let Some(end) = end {
                    h.term.extend(end);
                }
            }
        }
    }
    Ok(())
}

/// Stores the summaries of this node's tables that changed since `published` (what was stored).
async fn publish_summaries(
    app: &Arc<App>,
    published: &mut HashMap<String, String>,
) -> Result<(), StoreError> {
    let handles: Vec<(String, TableHandle)> = app
        .tables
        .lock()
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let mut rows = Vec::new();
    for (id, h) in &handles {
        let Some(text) = h.summary.read().ok().and_then(|s| serde_json::to_string(&*s).ok()) else {
            continue;
        };
        if published.get(id) != Some(&text) {
            rows.push((id.clone(), text));
        }
    }
    app.store.put_summaries(&rows).await?;
    published.retain(|id, _| handles.iter().any(|(h, _)| h == id));
    published.extend(rows);
    Ok(())
}

/// The lobby's summaries of every table: this node's own, and the others' as stored.
pub async fn all_summaries(app: &Arc<App>) -> Vec<table::protocol::TableSummary> {
    let handles: Vec<TableHandle> =
        app.tables.lock().map(|t| t.values().cloned().collect()).unwrap_or_default();
    let mut list: Vec<table::protocol::TableSummary> =
        handles.iter().filter_map(|h| h.summary.read().ok().map(|s| s.clone())).collect();
    let stored = app.store.summaries().await.unwrap_or_else(|e| {
        eprintln!("yezi serve: the other nodes' tables cannot be listed: {e}");
        Vec::new()
    });
    for text in stored {
        if let Ok(s) = serde_json::from_str::<table::protocol::TableSummary>(&text)
            && !list.iter().any(|l| l.id == s.id)
        {
            list.push(s);
        }
    }
    list
}

/// The node's background work, until the server is dropped: renew the leases every third of
/// their length, and claim orphaned tables (again at once while batches come back full).
pub fn spawn_upkeep(app: &Arc<App>) {
    // A SQLite store is one node's: it holds every table, so there is nothing to renew, publish
    // or claim (storing 1,000 tables' summaries every few seconds cost the single node its p99).
    if app.store.backend() == "sqlite" {
        return;
    }
    let weak: Weak<App> = Arc::downgrade(app);
    let period = app.cluster.lease() / 3;
    tokio::spawn(async move {
        let mut renewed = tokio::time::Instant::now();
        let mut published: HashMap<String, String> = HashMap::new();
        loop {
            let Some(app) = weak.upgrade() else { break };
            let mut pause = period;
            if renewed.elapsed() >= period {
                renewed = tokio::time::Instant::now();
                if let Err(e) = renew(&app).await {
                    eprintln!("yezi serve: the leases cannot be renewed: {e}");
                }
                if let Err(e) = publish_summaries(&app, &mut published).await {
                    eprintln!("yezi serve: the lobby's summaries cannot be stored: {e}");
                }
            }
            if let Err(e) = check_remote(&app).await {
                eprintln!("yezi serve: the tables of connections on other nodes cannot be checked: {e}");
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

// ---------------------------------------------------------------------------------------------
// Routing over the bus: a connection at a table that runs on another node.

/// A command of a connection for a table that runs on another node.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum Wire {
    /// Join (see [`actor::Cmd::Join`]); `attach` names this entry: the messages it gives carry it.
    Join { guest: String, name: String, seat: Option<u8>, attach: u64 },
    /// Watch.
    Watch { guest: String, name: String, attach: u64 },
    /// An action.
    Act { action: table::protocol::ActAction, move_no: Option<u64>, seat: Option<u8> },
    /// A chat line.
    Chat { text: String },
    /// Asks for a `sync`.
    Resync,
    /// Gives up the seat.
    Leave,
    /// Back from a timeout.
    Back,
    /// Starts the match.
    Start,
    /// Ready for the next hand.
    Next,
    /// The host closes the table (`keep`: ending the match with its finished hands).
    Close {
        #[serde(default)]
        keep: bool,
    },
    /// The player alone with bots takes back his last play.
    TakeBack,
    /// He pauses (`true`) or resumes the match.
    Pause { pause: bool },
    /// The host removes an away person.
    Remove { seat: u8 },
    /// The host offers a rematch.
    Rematch,
    /// Asks for a hint.
    Hint,
    /// Asks for the card tracker.
    Tracker,
    /// The connection has closed.
    Gone,
}

/// What travels on the bus.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "m", rename_all = "snake_case")]
pub enum BusMsg {
    /// To a table's channel (its owner hears it): a command of connection `conn` of node `from`,
    /// sent in its entry `attach` (0: not known).
    Cmd {
        from: String,
        conn: ConnId,
        cmd: Wire,
        #[serde(default)]
        attach: u64,
    },
    /// To a node's channel: the answer to a join or watch of the connection's entry `attach`
    /// (0: not known), from the table's owner.
    Reply {
        conn: ConnId,
        error: Option<(table::protocol::ErrorCode, String)>,
        node: String,
        epoch: Epoch,
        #[serde(default)]
        attach: u64,
    },
    /// To a node's channel: a message for its connection, of its entry `attach` (messages of an
    /// older entry, or of a table's task that has lost the table, are dropped).
    Out { conn: ConnId, attach: u64, text: String },
    /// To a node's channel: the table stopped where the connection's entry `attach` reached it
    /// (a later entry of the connection is not concerned; 0: any entry).
    Moved {
        conn: ConnId,
        table: String,
        #[serde(default)]
        attach: u64,
    },
}

/// The channel a table's owner hears.
pub fn table_channel(id: &str) -> String {
    format!("yezi.t.{id}")
}

/// The channel a node hears.
pub fn node_channel(node: &str) -> String {
    format!("yezi.n.{node}")
}

/// How long a join or watch sent to another node waits for its answer.
pub const REMOTE_REPLY: Duration = Duration::from_secs(3);

/// A join or watch that no node heard is sent again after this pause, then after twice as long
/// each time, up to [`UNHEARD_MAX_PAUSE`], until [`REMOTE_REPLY`] has passed.
const UNHEARD_FIRST_PAUSE: Duration = Duration::from_millis(10);

/// The longest pause between two sendings of a join or watch nobody heard.
const UNHEARD_MAX_PAUSE: Duration = Duration::from_millis(200);

/// A connection's place at a table that runs on another node.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The table.
    pub table: String,
    /// Who ran it when the connection entered.
    pub holder: crate::store::Holder,
}

impl Cluster {
    fn bus(&self) -> Option<Arc<dyn crate::bus::Bus>> {
        self.bus.lock().ok().and_then(|b| b.clone())
    }

    /// Whether the node is a cluster member (it has a bus).
    pub fn has_bus(&self) -> bool {
        self.bus().is_some()
    }

    /// Publishes a message (a lost one is repaired by versions and resyncs); how many nodes
    /// heard it, when the bus can tell.
    async fn publish(&self, channel: &str, msg: &BusMsg) -> Option<u64> {
        let bus = self.bus()?;
        let text = serde_json::to_string(msg).ok()?;
        match bus.publish(channel, &text).await {
            Ok(heard) => heard,
            Err(e) => {
                eprintln!("yezi serve: {e}");
                None
            }
        }
    }

    /// Hears a table's channel (this node runs the table now); with `confirmed`, returns once the
    /// bus hears it for this node (see [`crate::bus::Bus::subscribe`]): a table made here is
    /// heard before its creation is answered, so that the first join through another node is
    /// not lost.
    pub async fn running(&self, id: &str, confirmed: bool) {
        if let Some(bus) = self.bus()
            && let Err(e) = bus.subscribe(&table_channel(id), confirmed).await
        {
            eprintln!("yezi serve: {e}");
        }
    }

    /// Stops hearing a table's channel.
    pub async fn stopped(&self, id: &str) {
        if let Some(bus) = self.bus() {
            let _ = bus.unsubscribe(&table_channel(id)).await;
        }
    }

    /// Sends a connection's command to the node running `table`; how many nodes heard it, when
    /// the bus can tell.
    pub async fn send_remote(&self, node: &str, table: &str, conn: ConnId, cmd: Wire) -> Option<u64> {
        let attach = match &cmd {
            Wire::Join { attach, .. } | Wire::Watch { attach, .. } => *attach,
            _ => self.entry(conn).unwrap_or(0),
        };
        self.send_in(node, table, conn, cmd, attach).await
    }

    /// The current entry of this node's connection `conn` into a table on another node.
    fn entry(&self, conn: ConnId) -> Option<u64> {
        self.attached.lock().ok().and_then(|a| a.get(&conn).copied())
    }

    /// Sends a connection's command of its entry `attach`.
    async fn send_in(&self, node: &str, table: &str, conn: ConnId, cmd: Wire, attach: u64) -> Option<u64> {
        self.publish(&table_channel(table), &BusMsg::Cmd { from: node.to_string(), conn, cmd, attach }).await
    }

    /// Joins or watches a table on another node; the answer, and who runs the table.
    pub async fn enter_remote(
        &self,
        node: &str,
        table: &str,
        conn: ConnId,
        cmd: Wire,
    ) -> Result<crate::store::Holder, (table::protocol::ErrorCode, String)> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if let Ok(mut p) = self.pending.lock() {
            p.insert(conn, tx);
        }
        // A new entry: messages of any earlier one are dropped from now on.
        let attach = self.next_attach.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cmd = match cmd {
            Wire::Join { guest, name, seat, .. } => Wire::Join { guest, name, seat, attach },
            Wire::Watch { guest, name, .. } => Wire::Watch { guest, name, attach },
            other => other,
        };
        if let Ok(mut a) = self.attached.lock() {
            a.insert(conn, attach);
        }
        // A command nobody heard (the table's node has not subscribed to its channel yet: it has
        // just made or claimed the table) is lost: it is sent again, soon, rather than waiting out
        // the whole reply time for an answer that cannot come.
        let deadline = tokio::time::Instant::now() + REMOTE_REPLY;
        let mut rx = rx;
        let mut heard = self.send_remote(node, table, conn, cmd.clone()).await;
        let mut pause = UNHEARD_FIRST_PAUSE;
        let answer = loop {
            let wake =
                if heard == Some(0) { deadline.min(tokio::time::Instant::now() + pause) } else { deadline };
            match tokio::time::timeout_at(wake, &mut rx).await {
                Ok(answer) => break answer.ok(),
                Err(_) if tokio::time::Instant::now() >= deadline => break None,
                Err(_) => {
                    heard = self.send_remote(node, table, conn, cmd.clone()).await;
                    pause = (pause * 2).min(UNHEARD_MAX_PAUSE);
                }
            }
        };
        if let Ok(mut p) = self.pending.lock() {
            p.remove(&conn);
        }
        let unavailable =
            || (table::protocol::ErrorCode::Unavailable, format!("table {table}: its node did not answer"));
        // An entry that failed is forgotten: whatever its node sends for it later (an answer
        // that came too late) is dropped, and the connection may enter elsewhere.
        let forget = || {
            if let Ok(mut a) = self.attached.lock()
                && a.get(&conn) == Some(&attach)
            {
                a.remove(&conn);
            }
        };
        let Some((error, holder)) = answer else {
            forget();
            // Should the table's node take the entry after all, it lets it go.
            self.send_in(node, table, conn, Wire::Gone, attach).await;
            return Err(unavailable());
        };
        match error {
            Some(e) => {
                forget();
                Err(e)
            }
            None => {
                if let Ok(mut r) = self.remote_at.lock() {
                    r.insert(conn, Remote { table: table.to_string(), holder: holder.clone() });
                }
                Ok(holder)
            }
        }
    }

    /// The connection left its table on another node.
    pub fn left_remote(&self, conn: ConnId) {
        if let Ok(mut r) = self.remote_at.lock() {
            r.remove(&conn);
        }
        if let Ok(mut a) = self.attached.lock() {
            a.remove(&conn);
        }
    }
}

/// Hears the bus until the server is dropped: commands for the tables this node runs, and
/// answers, messages and moves for its connections.
pub fn spawn_listener(app: &Arc<App>, mut heard: mpsc::UnboundedReceiver<crate::bus::Heard>) {
    let weak = Arc::downgrade(app);
    tokio::spawn(async move {
        while let Some((channel, text)) = heard.recv().await {
            let Some(app) = weak.upgrade() else { break };
            let Ok(msg) = serde_json::from_str::<BusMsg>(&text) else {
                eprintln!("yezi serve: an unreadable message on the bus channel {channel}");
                continue;
            };
            match msg {
                BusMsg::Cmd { from, conn, cmd, attach } => {
                    let Some(id) = channel.strip_prefix("yezi.t.") else { continue };
                    command(&app, id.to_string(), from, conn, cmd, attach).await;
                }
                BusMsg::Reply { conn, error, node, epoch, attach } => {
                    // Only the answer to the entry under way (a late answer to an earlier one
                    // is not this one's).
                    let current = app.cluster.entry(conn);
                    if attach != 0 && current != Some(attach) {
                        continue;
                    }
                    let tx = app.cluster.pending.lock().ok().and_then(|mut p| p.remove(&conn));
                    if let Some(tx) = tx {
                        let _ = tx.send((error, crate::store::Holder { node, epoch }));
                    }
                }
                BusMsg::Out { conn, attach, text } => {
                    let current = app.cluster.entry(conn);
                    if current != Some(attach) {
                        continue;
                    }
                    let out = app.cluster.local.lock().ok().and_then(|m| m.get(&conn).map(|l| l.0.clone()));
                    if let Some(out) = out {
                        // A full queue drops the message: the client sees a gap in `v` and resyncs.
                        let _ = out.try_send(text.into());
                    }
                }
                BusMsg::Moved { conn, table, attach } => {
                    let at =
                        app.cluster.remote_at.lock().ok().and_then(|r| r.get(&conn).map(|r| r.table.clone()));
                    let current = app.cluster.entry(conn);
                    // An earlier entry's end (its queue let go when the connection entered again)
                    // does not concern the current one.
                    if at.as_deref() == Some(table.as_str()) && (attach == 0 || current == Some(attach)) {
                        app.cluster.left_remote(conn);
                        app.cluster.moved(&table, &[conn]);
                    }
                }
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
async fn command(app: &Arc<App>, id: String, from: String, conn: ConnId, cmd: Wire, sent_in: u64) {
    let to = node_channel(&from);
    let Some(handle) = app.table(&id) else {
        // Not here (any more): the connection enters again where the table runs now.
        let msg = match cmd {
            Wire::Join { attach, .. } | Wire::Watch { attach, .. } => BusMsg::Reply {
                conn,
                error: Some((table::protocol::ErrorCode::Unavailable, format!("table {id} moved"))),
                node: String::new(),
                epoch: 0,
                attach,
            },
            Wire::Gone => return,
            _ => BusMsg::Moved { conn, table: id, attach: sent_in },
        };
        app.cluster.publish(&to, &msg).await;
        return;
    };
    let key = (id.clone(), conn);
    let current = app.cluster.entries.lock().ok().and_then(|e| e.get(&key).map(|(attach, _)| *attach));
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
            app.cluster.publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in }).await;
            return;
        }
        other => {
            let request = match other {
                Wire::Act { action, move_no, seat } => Request::Act { conn, action, move_no, seat },
                Wire::Chat { text } => Request::Chat { conn, text, at_ms: crate::http::now_ms() },
                Wire::Resync => Request::Resync { conn },
                Wire::Leave => Request::Leave { conn },
                Wire::Back => Request::Back { conn },
                Wire::Start => Request::Start { conn },
                Wire::Next => Request::Next { conn },
                Wire::Close { keep } => Request::Close { conn, keep },
                Wire::TakeBack => Request::TakeBack { conn },
                Wire::Pause { pause } => Request::Pause { conn, pause },
                Wire::Remove { seat } => Request::Remove { conn, seat },
                Wire::Rematch => Request::Rematch { conn },
                Wire::Hint => Request::Hint { conn },
                Wire::Tracker => Request::Tracker { conn },
                Wire::Gone | Wire::Join { .. } | Wire::Watch { .. } => Request::Gone { conn },
            };
            if handle.send(actor::Cmd::Request(request)).await.is_err() {
                app.cluster.publish(&to, &BusMsg::Moved { conn, table: id, attach: sent_in }).await;
            }
            return;
        }
    };
    // The connection's messages go back over the bus; when the table lets go of its queue (the
    // connection left, or the table stopped here), the connection's node hears it moved.
    let (out, mut rx) = mpsc::channel::<axum::extract::ws::Utf8Bytes>(REMOTE_QUEUE);
    let queue = app.cluster.next_attach.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if let Ok(mut e) = app.cluster.entries.lock() {
        e.insert(key.clone(), (attach, queue));
    }
    let forward = (app.clone(), to.clone(), id.clone(), handle.clone());
    tokio::spawn(async move {
        let (app, to, id, handle) = forward;
        // Since when no node has heard the connection's messages (its node died, or is cut off).
        let mut unheard: Option<tokio::time::Instant> = None;
        let mut let_go = false;
        while let Some(text) = rx.recv().await {
            if let_go {
                continue;
            }
            let heard = app.cluster.publish(&to, &BusMsg::Out { conn, attach, text: text.to_string() }).await;
            if heard != Some(0) {
                unheard = None;
                continue;
            }
            let since = *unheard.get_or_insert_with(tokio::time::Instant::now);
            if since.elapsed() >= unheard_gone(app.cluster.lease()) {
                // The connection is taken to be gone (as its node would have said): the table
                // stops counting it, and lets go of its queue.
                let_go = true;
                let _ = handle.send(actor::Cmd::Request(Request::Gone { conn })).await;
            }
        }
        if let Ok(mut e) = app.cluster.entries.lock()
            && e.get(&key) == Some(&(attach, queue))
        {
            e.remove(&key);
        }
        app.cluster.publish(&to, &BusMsg::Moved { conn, table: id, attach }).await;
    });
    let (reply, answer) = tokio::sync::oneshot::channel();
    let request = match entry {
        Some(seat) => Request::Join { conn, guest, seat },
        None => Request::Watch { conn, guest },
    };
    let cmd = actor::Cmd::Enter { request, out, reply };
    let node = app.store.node().to_string();
    let epoch = handle.epoch;
    if handle.send(cmd).await.is_err() {
        return;
    }
    let app = app.clone();
    tokio::spawn(async move {
        let error = match answer.await {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some((e.code, e.message)),
            Err(_) => Some((table::protocol::ErrorCode::Unavailable, format!("table {id} moved"))),
        };
        app.cluster.publish(&to, &BusMsg::Reply { conn, error, node, epoch, attach }).await;
    });
}

/// Tells connections at tables on other nodes that their table moved when it no longer runs
/// where they entered it (its node died or lost it).
pub async fn check_remote(app: &Arc<App>) -> Result<(), StoreError> {
    let at: Vec<(ConnId, Remote)> = app
        .cluster
        .remote_at
        .lock()
        .map(|r| r.iter().map(|(c, r)| (*c, r.clone())).collect())
        .unwrap_or_default();
    if at.is_empty() {
        return Ok(());
    }
    let mut tables: Vec<String> = at.iter().map(|(_, r)| r.table.clone()).collect();
    tables.sort();
    tables.dedup();
    let now: HashMap<String, crate::store::Holder> = app.store.holders(&tables).await?.into_iter().collect();
    for (conn, r) in at {
        if now.get(&r.table) != Some(&r.holder) {
            app.cluster.left_remote(conn);
            app.cluster.moved(&r.table, &[conn]);
        }
    }
    Ok(())
}
