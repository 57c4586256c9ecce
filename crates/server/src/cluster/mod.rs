//! Running tables on several nodes: which node runs which table, and telling connections that
//! their table moved.
//!
//! Each table is run by the node holding its lease ([`crate::store::Leases::claim_orphans`]).
//! Every node renews its leases every third of their length, in one statement; a table whose
//! lease the node failed to renew stops at once ([`crate::tables::task`]). A table whose lease the node
//! has not renewed for a while stops too, by the node's own clock ([`Term`]): once its lease may
//! have run out by the database's clock, another node may run the table, and the two must not
//! both send to the people at it. Every tick the node also claims a small batch of orphaned
//! tables (leases run out: their node died or stalled), and a connection that asks for an
//! orphaned table claims it at once.
//!
//! A connection at a table that stops on this node is told the table moved and enters it again,
//! wherever it runs now: the client gets a fresh `sync`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use axum::extract::ws::Utf8Bytes;
use table::machine::{ConnId, Request};

use crate::store::{Epoch, Store, StoreError};

pub mod bus;
pub mod drain;

/// Where a connection's outgoing messages go.
pub type Out = mpsc::Sender<Utf8Bytes>;

/// How many orphaned tables a node claims at once.
pub const CLAIM_BATCH: u32 = 16;

/// Until when a table's task may count on its lease, by the node's own clock: a lease taken or
/// renewed by a statement sent at `t` lasts until at least `t` plus the lease's length by the
/// database's clock, and the node counts on it until `t` plus the lease less a tenth
/// ([`Cluster::term_end`]; the tenth allows for the two clocks running at slightly different
/// rates). A task whose term has ended sends nothing more and stops ([`crate::tables::task`]).
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
    local: Mutex<HashMap<ConnId, (Out, mpsc::UnboundedSender<Control>)>>,
    /// The bus, for a cluster member.
    bus: Mutex<Option<Arc<dyn bus::Bus>>>,
    /// Joins and watches sent to other nodes, waiting for their answer.
    pending: Mutex<HashMap<ConnId, tokio::sync::oneshot::Sender<RemoteAnswer>>>,
    /// This node's connections at tables on other nodes.
    remote_at: Mutex<HashMap<ConnId, Remote>>,
    /// The current entry of each connection entering or at a table on another node.
    attached: Mutex<HashMap<ConnId, u64>>,
    /// For the tables this node runs: the entry of each connection of another node that is at
    /// one of them (commands of an earlier entry are dropped), with the number of the queue
    /// that carries its messages.
    pub(crate) entries: Mutex<HashMap<(String, ConnId), (u64, u64)>>,
    /// The number of the next entry or queue.
    pub(crate) next_attach: std::sync::atomic::AtomicU64,
    /// Steps of its tables' writes this node tried after it had lost their lease, refused by the
    /// store ([`crate::store::StoreError::Fenced`]): a stale owner's attempts, none of which
    /// was written.
    pub fenced_writes: std::sync::atomic::AtomicU64,
    /// For each table this node's connections reached on another node: the newest epoch of its
    /// lease the node has seen (in an answer, a message, or the database's leases). Messages of
    /// an older epoch come from a node that no longer holds the table (it was paused, and has
    /// not yet found out): they are dropped.
    newest: Mutex<HashMap<String, Epoch>>,
    /// Messages from other nodes dropped because they came from an older epoch of their table's
    /// lease than one this node had seen.
    pub stale_dropped: std::sync::atomic::AtomicU64,
    /// When the node's upkeep last ticked, by its own clock ([`Cluster::now`]) and by the wall
    /// clock (a tick much later than due shows that the node was paused: see [`Cluster::gap`]).
    ticked: Mutex<Option<(Instant, std::time::SystemTime)>>,
    /// For tests: how far the node's monotonic clock is behind the real one (milliseconds), as
    /// for a machine whose clock stopped while it was suspended.
    clock_lag_ms: std::sync::atomic::AtomicU64,
    /// Tables this node stopped because it found, at a renewal of its leases (or when it claimed
    /// the table again in a newer epoch), that it no longer held their lease, or because it had
    /// not renewed their lease for so long that it may have run out ([`Term`]).
    pub leases_lost: std::sync::atomic::AtomicU64,
    /// The node drains ([`drain`]): it claims no table, and hands off those it runs.
    pub(crate) draining: std::sync::atomic::AtomicBool,
    /// The cluster members this node heard from at its last heartbeat ([`drain::rendezvous`]).
    pub(crate) members: Mutex<Vec<String>>,
    /// The database's clock at the last heartbeat, and the node's monotonic clock then.
    pub(crate) db_clock: Mutex<Option<(i64, std::time::Instant)>>,
    /// Set to true when the node's connections must close (the end of a drain).
    pub(crate) closing: tokio::sync::watch::Sender<bool>,
    /// Counts for `/metrics`.
    pub counters: drain::Counters,
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
            newest: Mutex::new(HashMap::new()),
            stale_dropped: std::sync::atomic::AtomicU64::new(0),
            ticked: Mutex::new(None),
            clock_lag_ms: std::sync::atomic::AtomicU64::new(0),
            draining: std::sync::atomic::AtomicBool::new(false),
            members: Mutex::new(Vec::new()),
            db_clock: Mutex::new(None),
            closing: tokio::sync::watch::channel(false).0,
            counters: drain::Counters::default(),
        }
    }

    /// Makes the node a cluster member on `bus` (see [`crate::tables::remote::join_bus`]): a table
    /// started from now on subscribes itself.
    pub fn set_bus(&self, bus: Arc<dyn bus::Bus>) {
        if let Ok(mut b) = self.bus.lock() {
            *b = Some(bus);
        }
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

    /// The node's own monotonic clock, which counts the terms of its leases: the real one,
    /// unless a test set it behind ([`Cluster::set_clock_lag`]).
    pub fn now(&self) -> Instant {
        let lag = Duration::from_millis(self.clock_lag_ms.load(std::sync::atomic::Ordering::Relaxed));
        let now = Instant::now();
        now.checked_sub(lag).unwrap_or(now)
    }

    /// The real time at which the node's clock ([`Cluster::now`]) shows `t`.
    pub fn real(&self, t: Instant) -> Instant {
        t + Duration::from_millis(self.clock_lag_ms.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// For tests: sets the node's monotonic clock `lag` behind the real one, as a machine's
    /// whose clock stopped for `lag` while it was suspended (its wall clock does not lag).
    pub fn set_clock_lag(&self, lag: Duration) {
        self.clock_lag_ms.store(lag.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The node's upkeep ticks (every third of a lease): noted, for [`Cluster::gap`].
    pub fn tick(&self) {
        if let Ok(mut t) = self.ticked.lock() {
            *t = Some((self.now(), std::time::SystemTime::now()));
        }
    }

    /// When the node's upkeep last ticked, if that is more than two of its periods ago by its
    /// own clock or by the wall clock: the node was paused (a suspended machine, a stopped
    /// process), and its leases may have run out by the database's clock though its own clock
    /// says not (a clock that stopped during the pause). Its tables then check their lease
    /// against the database before they answer anything ([`crate::tables::task`]).
    pub fn gap(&self) -> Option<Instant> {
        let (mono, wall) = self.ticked.lock().ok().and_then(|t| *t)?;
        let late = (self.lease() / 3) * 2;
        let by_clock = self.now().saturating_duration_since(mono) > late;
        let by_wall = std::time::SystemTime::now().duration_since(wall).is_ok_and(|d| d > late);
        (by_clock || by_wall).then_some(mono)
    }

    /// Whether a message from another node about `table`, sent under its lease's `epoch` (0: not
    /// said), is current: not older than the newest epoch this node has seen for the table
    /// (which it becomes, if newer). A stale one is counted in [`Cluster::stale_dropped`].
    pub fn fresh(&self, table: &str, epoch: Epoch) -> bool {
        if epoch == 0 || table.is_empty() {
            return true;
        }
        let Ok(mut newest) = self.newest.lock() else { return true };
        let seen = newest.entry(table.to_string()).or_insert(0);
        if epoch < *seen {
            self.stale_dropped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return false;
        }
        *seen = epoch;
        true
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
    pub fn attach(&self, conn: ConnId, out: Out, control: mpsc::UnboundedSender<Control>) {
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

// ---------------------------------------------------------------------------------------------
// Routing over the bus: a connection at a table that runs on another node.

/// A command of a connection for a table that runs on another node.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum Wire {
    /// Join (see [`table::machine::Request::Join`]); `attach` names this entry: the messages it gives carry it.
    Join {
        /// The guest.
        guest: String,
        /// The guest's name.
        name: String,
        /// The seat asked for (none: any).
        seat: Option<u8>,
        /// The entry.
        attach: u64,
    },
    /// Watch.
    Watch {
        /// The guest.
        guest: String,
        /// The guest's name.
        name: String,
        /// The entry.
        attach: u64,
    },
    /// An action.
    Act {
        /// The action.
        action: table::protocol::ActAction,
        /// The move it answers, if the client said.
        move_no: Option<u64>,
        /// The seat it is for, if the client said.
        seat: Option<u8>,
    },
    /// A chat line.
    Chat {
        /// The line.
        text: String,
    },
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
    /// The host closes the table.
    Close {
        /// Ending the match with its finished hands kept as a record.
        #[serde(default)]
        keep: bool,
    },
    /// The player alone with bots takes back his last play.
    TakeBack,
    /// He pauses or resumes the match.
    Pause {
        /// True to pause, false to resume.
        pause: bool,
    },
    /// The host removes an away person.
    Remove {
        /// The person's seat.
        seat: u8,
    },
    /// The host offers a rematch.
    Rematch,
    /// Asks for a hint.
    Hint,
    /// Asks for the card tracker.
    Tracker,
    /// The connection has closed.
    Gone,
}

impl Wire {
    /// A connection's request as it travels to the table's node (`None` for what a connection
    /// does not send this way: an entry goes by [`Cluster::enter_remote`], the rest is the
    /// table's own).
    pub fn of(request: Request) -> Option<Wire> {
        Some(match request {
            Request::Act { action, move_no, seat, .. } => Wire::Act { action, move_no, seat },
            Request::Chat { text, .. } => Wire::Chat { text },
            Request::Resync { .. } => Wire::Resync,
            Request::Leave { .. } => Wire::Leave,
            Request::Back { .. } => Wire::Back,
            Request::Start { .. } => Wire::Start,
            Request::Next { .. } => Wire::Next,
            Request::Close { keep, .. } => Wire::Close { keep },
            Request::TakeBack { .. } => Wire::TakeBack,
            Request::Pause { pause, .. } => Wire::Pause { pause },
            Request::Remove { seat, .. } => Wire::Remove { seat },
            Request::Rematch { .. } => Wire::Rematch,
            Request::Hint { .. } => Wire::Hint,
            Request::Tracker { .. } => Wire::Tracker,
            Request::Gone { .. } => Wire::Gone,
            Request::Join { .. }
            | Request::Watch { .. }
            | Request::AutoStart
            | Request::Rematched { .. }
            | Request::Invite { .. }
            | Request::Forget { .. }
            | Request::RemoveChat { .. } => return None,
        })
    }

    /// The request of connection `conn` this command carries to the table (a chat line is
    /// stamped here, on the table's node; an entry that arrives here out of turn counts as gone).
    pub fn into_request(self, conn: ConnId) -> Request {
        match self {
            Wire::Act { action, move_no, seat } => Request::Act { conn, action, move_no, seat },
            Wire::Chat { text } => Request::Chat { conn, text, at_ms: crate::ids::now_ms() },
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
        }
    }
}

/// What travels on the bus.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "m", rename_all = "snake_case")]
pub enum BusMsg {
    /// To a table's channel (its owner hears it): a command of connection `conn` of node `from`,
    /// sent in its entry `attach` (0: not known).
    Cmd {
        /// The connection's node.
        from: String,
        /// The connection.
        conn: ConnId,
        /// The command.
        cmd: Wire,
        /// The connection's entry.
        #[serde(default)]
        attach: u64,
    },
    /// To a node's channel: the answer to a join or watch of the connection's entry `attach`
    /// (0: not known), from the table's owner.
    Reply {
        /// The connection.
        conn: ConnId,
        /// Why the table refused the entry (none: it let the connection in).
        error: Option<(table::protocol::ErrorCode, String)>,
        /// The node that runs the table.
        node: String,
        /// The epoch of its lease.
        epoch: Epoch,
        /// The connection's entry.
        #[serde(default)]
        attach: u64,
        /// The table (empty: not said).
        #[serde(default)]
        table: String,
    },
    /// To a node's channel: a message for its connection, of its entry `attach` (messages of an
    /// older entry, or of a table's task that has lost the table, are dropped).
    Out {
        /// The connection.
        conn: ConnId,
        /// The connection's entry.
        attach: u64,
        /// The message.
        text: String,
        /// The table (empty: not said).
        #[serde(default)]
        table: String,
        /// The epoch of the sender's lease of the table (0: not said): a message of an epoch
        /// older than the newest the receiving node has seen for the table is dropped.
        #[serde(default)]
        epoch: Epoch,
    },
    /// To a node's channel: the table stopped where the connection's entry `attach` reached it
    /// (a later entry of the connection is not concerned; 0: any entry).
    Moved {
        /// The connection.
        conn: ConnId,
        /// The table.
        table: String,
        /// The connection's entry.
        #[serde(default)]
        attach: u64,
        /// The epoch of the sender's lease of the table (0: not said, or the sender no longer
        /// runs the table).
        #[serde(default)]
        epoch: Epoch,
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

/// A join or watch that no node has heard for this long gets its answer (`unavailable`) at once
/// rather than at the end of [`REMOTE_REPLY`]: the table's node does not hear its channel (it
/// died), and the connection's node tries again to claim the table, whose lease will soon run
/// out (a node that has just made or claimed a table hears it within milliseconds).
pub const UNHEARD_GIVE_UP: Duration = Duration::from_secs(1);

/// A connection's place at a table that runs on another node.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The table.
    pub table: String,
    /// Who ran it when the connection entered.
    pub holder: crate::store::Holder,
}

impl Cluster {
    pub(crate) fn bus(&self) -> Option<Arc<dyn bus::Bus>> {
        self.bus.lock().ok().and_then(|b| b.clone())
    }

    /// Whether the node is a cluster member (it has a bus).
    pub fn has_bus(&self) -> bool {
        self.bus().is_some()
    }

    /// Publishes a message (a lost one is repaired by versions and resyncs); how many nodes
    /// heard it, when the bus can tell.
    pub(crate) async fn publish(&self, channel: &str, msg: &BusMsg) -> Option<u64> {
        self.try_publish(channel, msg).await.unwrap_or(None)
    }

    /// Publishes a message; how many nodes heard it, when the bus can tell, or why the bus did
    /// not take it (logged too). Without a bus, nobody hears anything: `Ok(None)`.
    pub(crate) async fn try_publish(
        &self,
        channel: &str,
        msg: &BusMsg,
    ) -> Result<Option<u64>, bus::BusError> {
        let Some(bus) = self.bus() else { return Ok(None) };
        let text = serde_json::to_string(msg).map_err(|e| bus::BusError::Backend(e.to_string()))?;
        bus.publish(channel, &text).await.inspect_err(|e| {
            self.counters.bus_errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::warn!(error = %e, "the bus failed")
        })
    }

    /// Hears a table's channel (this node runs the table now); with `confirmed`, returns once the
    /// bus hears it for this node (see [`bus::Bus::subscribe`]): a table made here is
    /// heard before its creation is answered, so that the first join through another node is
    /// not lost.
    pub async fn running(&self, id: &str, confirmed: bool) {
        if let Some(bus) = self.bus()
            && let Err(e) = bus.subscribe(&table_channel(id), confirmed).await
        {
            tracing::warn!(error = %e, "the bus failed");
        }
    }

    /// Stops hearing a table's channel.
    pub async fn stopped(&self, id: &str) {
        if let Some(bus) = self.bus() {
            let _ = bus.unsubscribe(&table_channel(id)).await;
        }
    }

    /// Sends a connection's command to the node running `table`; how many nodes heard it, when
    /// the bus can tell, or why the bus did not take it (the connection is told at once: its
    /// command is lost).
    pub async fn send_remote(
        &self,
        node: &str,
        table: &str,
        conn: ConnId,
        cmd: Wire,
    ) -> Result<Option<u64>, bus::BusError> {
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
    async fn send_in(
        &self,
        node: &str,
        table: &str,
        conn: ConnId,
        cmd: Wire,
        attach: u64,
    ) -> Result<Option<u64>, bus::BusError> {
        self.try_publish(&table_channel(table), &BusMsg::Cmd { from: node.to_string(), conn, cmd, attach })
            .await
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
        let forget = || {
            if let Ok(mut a) = self.attached.lock()
                && a.get(&conn) == Some(&attach)
            {
                a.remove(&conn);
            }
        };
        let unsent = |e: bus::BusError| {
            if let Ok(mut p) = self.pending.lock() {
                p.remove(&conn);
            }
            forget();
            (table::protocol::ErrorCode::Unavailable, format!("table {table}: the bus failed ({e})"))
        };
        // A bus that does not take the entry answers it at once (the client enters again).
        let mut heard = self.send_remote(node, table, conn, cmd.clone()).await.map_err(unsent)?;
        let mut pause = UNHEARD_FIRST_PAUSE;
        let first_sent = tokio::time::Instant::now();
        let answer = loop {
            let wake =
                if heard == Some(0) { deadline.min(tokio::time::Instant::now() + pause) } else { deadline };
            match tokio::time::timeout_at(wake, &mut rx).await {
                Ok(answer) => break answer.ok(),
                Err(_) if tokio::time::Instant::now() >= deadline => break None,
                Err(_) if heard == Some(0) && first_sent.elapsed() >= UNHEARD_GIVE_UP => break None,
                Err(_) => {
                    heard = self.send_remote(node, table, conn, cmd.clone()).await.map_err(unsent)?;
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
        let Some((error, holder)) = answer else {
            forget();
            // Should the table's node take the entry after all, it lets it go.
            let _ = self.send_in(node, table, conn, Wire::Gone, attach).await;
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

impl Cluster {
    /// What the bus brought for this node's connections: an answer to an entry, a message, or a
    /// table that moved (a command for a table is the tables' own: [`crate::tables::remote`]).
    pub fn hear(&self, msg: BusMsg) {
        match msg {
            BusMsg::Cmd { .. } => {}
            BusMsg::Reply { conn, error, node, epoch, attach, table } => {
                // Not from a node that has lost the table.
                if !self.fresh(&table, epoch) {
                    return;
                }
                // Only the answer to the entry under way (a late answer to an earlier one
                // is not this one's).
                let current = self.entry(conn);
                if attach != 0 && current != Some(attach) {
                    return;
                }
                let tx = self.pending.lock().ok().and_then(|mut p| p.remove(&conn));
                if let Some(tx) = tx {
                    let _ = tx.send((error, crate::store::Holder { node, epoch }));
                }
            }
            BusMsg::Out { conn, attach, text, table, epoch } => {
                if !self.fresh(&table, epoch) {
                    return;
                }
                let current = self.entry(conn);
                if current != Some(attach) {
                    return;
                }
                let out = self.local.lock().ok().and_then(|m| m.get(&conn).map(|l| l.0.clone()));
                if let Some(out) = out {
                    // A full queue drops the message: the client sees a gap in `v` and resyncs.
                    let _ = out.try_send(text.into());
                }
            }
            BusMsg::Moved { conn, table, attach, epoch } => {
                if !self.fresh(&table, epoch) {
                    return;
                }
                let at = self.remote_at.lock().ok().and_then(|r| r.get(&conn).map(|r| r.table.clone()));
                let current = self.entry(conn);
                // An earlier entry's end (its queue let go when the connection entered again)
                // does not concern the current one.
                if at.as_deref() == Some(table.as_str()) && (attach == 0 || current == Some(attach)) {
                    self.left_remote(conn);
                    self.moved(&table, &[conn]);
                }
            }
        }
    }

    /// Tells connections at tables on other nodes that their table moved when it no longer runs
    /// where they entered it (its node died or lost it).
    pub async fn check_remote(&self, store: &dyn Store) -> Result<(), StoreError> {
        let at: Vec<(ConnId, Remote)> = self
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
        let now: HashMap<String, crate::store::Holder> = store.holders(&tables).await?.into_iter().collect();
        // The database's leases are the newest word on who runs each table.
        for (table, holder) in &now {
            self.fresh(table, holder.epoch);
        }
        for (conn, r) in at {
            if now.get(&r.table) != Some(&r.holder) {
                self.left_remote(conn);
                self.moved(&r.table, &[conn]);
            }
        }
        Ok(())
    }
}
