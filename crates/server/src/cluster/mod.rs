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

use table::machine::{ConnId, Request};
use wire::TableMsg;

use crate::store::{Epoch, Store, StoreError};

pub mod bus;
pub mod drain;

pub use crate::notices::Out;

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
    pending: Mutex<HashMap<ConnId, Pending>>,
    /// The tables a node has just begun to hear ([`BusMsg::Hearing`]), for the entries waiting
    /// for them ([`Cluster::hearings`]).
    hearing: tokio::sync::broadcast::Sender<String>,
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
    /// For tests: how far the node's wall clock is behind the real one (milliseconds), as for a
    /// machine whose clocks all stopped while it was suspended.
    wall_lag_ms: std::sync::atomic::AtomicU64,
    /// How much time the node found its own monotonic clock had missed, by the database's clock
    /// (milliseconds; [`Cluster::db_clock_says`]): a pause during which its clocks stood still.
    /// [`Cluster::now`] counts it, so that the terms of its leases end as by the database's
    /// clock.
    skipped_ms: std::sync::atomic::AtomicU64,
    /// How many times the node found its clocks behind the database's.
    pub clock_jumps: std::sync::atomic::AtomicU64,
    /// Tables this node stopped because it found, at a renewal of its leases (or when it claimed
    /// the table again in a newer epoch), that it no longer held their lease, or because it had
    /// not renewed their lease for so long that it may have run out ([`Term`]).
    pub leases_lost: std::sync::atomic::AtomicU64,
    /// The node drains ([`drain`]): it claims no table, and hands off those it runs.
    pub(crate) draining: std::sync::atomic::AtomicBool,
    /// The cluster members this node heard from at its last heartbeat ([`drain::rendezvous`]).
    pub(crate) members: Mutex<Vec<String>>,
    /// How many tables each member held at the last heartbeat ([`drain::plan`]).
    pub(crate) loads: Mutex<Vec<(String, u64)>>,
    /// The tables this node handed to another by a rebalance, and when: it does not claim them
    /// back for [`HANDED_FOR`] leases (their taker claims them).
    handed_at: Mutex<HashMap<String, std::time::Instant>>,
    /// The database's clock at the last heartbeat, and the node's clock ([`Cluster::now`]) then.
    pub(crate) db_clock: Mutex<Option<drain::DbClock>>,
    /// Set to true when the node's connections must close (the end of a drain).
    pub(crate) closing: tokio::sync::watch::Sender<bool>,
    /// Counts for `/metrics`.
    pub counters: drain::Counters,
    /// The notices to people (friends, challenges, invitations): this node's connections by
    /// guest, and the changes that make them ([`crate::notices`]).
    pub notices: crate::notices::Hub,
}

/// The answer to a join or watch on another node, and who runs the table.
type RemoteAnswer = (Option<(wire::ErrorCode, String)>, crate::store::Holder);

/// A join or watch sent to another node: where its answer goes, and the node it was sent to
/// (when known).
type Pending = (tokio::sync::oneshot::Sender<RemoteAnswer>, Option<String>);

impl Cluster {
    /// A node whose leases last `lease_ms`.
    pub fn new(lease_ms: u64) -> Cluster {
        Cluster {
            lease_ms: lease_ms.max(3),
            expiring: std::sync::atomic::AtomicBool::new(false),
            local: Mutex::new(HashMap::new()),
            bus: Mutex::new(None),
            pending: Mutex::new(HashMap::new()),
            hearing: tokio::sync::broadcast::channel(HEARINGS_KEPT).0,
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
            wall_lag_ms: std::sync::atomic::AtomicU64::new(0),
            skipped_ms: std::sync::atomic::AtomicU64::new(0),
            clock_jumps: std::sync::atomic::AtomicU64::new(0),
            draining: std::sync::atomic::AtomicBool::new(false),
            members: Mutex::new(Vec::new()),
            loads: Mutex::new(Vec::new()),
            handed_at: Mutex::new(HashMap::new()),
            db_clock: Mutex::new(None),
            closing: tokio::sync::watch::channel(false).0,
            counters: drain::Counters::default(),
            notices: crate::notices::Hub::default(),
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

    /// How far the node's clock ([`Cluster::now`]) is ahead of the process's monotonic clock:
    /// the time it found it had missed ([`Cluster::db_clock_says`]), less a test's lag.
    fn offset_ms(&self) -> i64 {
        let lag = self.clock_lag_ms.load(std::sync::atomic::Ordering::Relaxed) as i64;
        self.skipped_ms.load(std::sync::atomic::Ordering::Relaxed) as i64 - lag
    }

    /// The node's own monotonic clock, which counts the terms of its leases: the process's,
    /// plus the time the node found it had missed during a pause ([`Cluster::db_clock_says`]),
    /// less a test's lag ([`Cluster::set_clock_lag`]).
    pub fn now(&self) -> Instant {
        let now = Instant::now();
        let off = self.offset_ms();
        let shifted = if off >= 0 {
            now.checked_add(Duration::from_millis(off as u64))
        } else {
            now.checked_sub(Duration::from_millis(off.unsigned_abs()))
        };
        shifted.unwrap_or(now)
    }

    /// The process's monotonic time at which the node's clock ([`Cluster::now`]) shows `t`.
    pub fn real(&self, t: Instant) -> Instant {
        let off = self.offset_ms();
        let shifted = if off >= 0 {
            t.checked_sub(Duration::from_millis(off as u64))
        } else {
            t.checked_add(Duration::from_millis(off.unsigned_abs()))
        };
        shifted.unwrap_or(t)
    }

    /// The node's wall clock: the system's, less a test's lag ([`Cluster::set_clocks_lag`]).
    fn wall(&self) -> std::time::SystemTime {
        let lag = Duration::from_millis(self.wall_lag_ms.load(std::sync::atomic::Ordering::Relaxed));
        let now = std::time::SystemTime::now();
        now.checked_sub(lag).unwrap_or(now)
    }

    /// For tests: sets the node's monotonic clock `lag` behind the real one, as a machine's
    /// whose clock stopped for `lag` while it was suspended (its wall clock does not lag).
    pub fn set_clock_lag(&self, lag: Duration) {
        self.clock_lag_ms.store(lag.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// For tests: sets both of the node's clocks, monotonic and wall, `lag` behind the real
    /// ones, as a machine's whose clocks all stood still for `lag` while it was suspended
    /// (libfaketime can do that to a process): only the database's clock shows the pause.
    pub fn set_clocks_lag(&self, lag: Duration) {
        self.wall_lag_ms.store(lag.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
        self.set_clock_lag(lag);
    }

    /// The time the node found its clocks had missed (a pause with its clocks stopped), by the
    /// database's clock.
    pub fn skipped(&self) -> Duration {
        Duration::from_millis(self.skipped_ms.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The database's clock (read from the heartbeat, or the time a node stamped on a command
    /// by its own reckoning of the database's clock) said `db_ms` at or before the node's clock
    /// showed `at`: when that is more than a third of a lease past what the node reckons the
    /// database's clock was then, the node's clocks stood still while it was paused (a
    /// suspended machine whose monotonic and wall clocks both stopped, which neither its terms
    /// nor [`Cluster::gap`] can see). The node's clock then moves on by the time it missed, so
    /// that the terms of its leases end as they would by the database's clock (and the next
    /// step of each table checks its lease against the database, [`Cluster::gap`]) before the
    /// node answers anything more. Before the first heartbeat there is nothing to compare.
    pub fn db_clock_says(&self, db_ms: i64, at: Instant) {
        // The latest the database's clock can show by the node's reckoning: a node loaded so
        // that its heartbeats' answers come late is not taken for a paused one.
        let Some((_, latest)) = self.db_ms_bounds(at) else { return };
        let ahead = db_ms - latest;
        if ahead <= (self.lease_ms / 3) as i64 {
            return;
        }
        self.skipped_ms.fetch_add(ahead as u64, std::sync::atomic::Ordering::Relaxed);
        self.clock_jumps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        tracing::warn!(
            missed_ms = ahead,
            "the node's clocks are behind the database's: it was paused with its clocks stopped; \
             its tables check their leases before they answer"
        );
    }

    /// The node's upkeep ticks (every third of a lease): noted, for [`Cluster::gap`].
    pub fn tick(&self) {
        if let Ok(mut t) = self.ticked.lock() {
            *t = Some((self.now(), self.wall()));
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
        let by_wall = self.wall().duration_since(wall).is_ok_and(|d| d > late);
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

/// A command of a connection for a table that runs on another node: its entry, its messages
/// for the table (carried as the client sent them), and its end.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum Command {
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
        /// Through the delayed stream (the TV).
        #[serde(default)]
        delayed: bool,
    },
    /// A message for the table, as the client sent it.
    Table(TableMsg),
    /// The connection has closed.
    Gone,
}

impl Command {
    /// The request of connection `conn` this command carries to the table (a message is stamped
    /// here, on the table's node; an entry that arrives here out of turn counts as gone).
    pub fn into_request(self, conn: ConnId) -> Request {
        match self {
            Command::Table(msg) => Request::Table { conn, msg, at_ms: crate::ids::now_ms() },
            Command::Gone | Command::Join { .. } | Command::Watch { .. } => Request::Gone { conn },
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
        cmd: Command,
        /// The connection's entry.
        #[serde(default)]
        attach: u64,
        /// When it was sent, by the sender's reckoning of the database's clock (milliseconds
        /// since the Unix epoch; 0: not said): a node that hears a command from later than its
        /// own reckoning allows was paused with its clocks stopped ([`Cluster::db_clock_says`]).
        #[serde(default)]
        at: i64,
    },
    /// To a node's channel: the answer to a join or watch of the connection's entry `attach`
    /// (0: not known), from the table's owner.
    Reply {
        /// The connection.
        conn: ConnId,
        /// Why the table refused the entry (none: it let the connection in).
        error: Option<(wire::ErrorCode, String)>,
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
        /// The node that sent it (empty: not said). An answer without an epoch comes from a
        /// node that does not run the table: it counts only when it comes from the node the
        /// entry was sent to (a node that was paused answers, when it wakes, entries it heard
        /// meanwhile that were meant for the table's new owner).
        #[serde(default)]
        from: String,
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
    /// To every node ([`crate::notices::CHANNEL`]): a notice for the connections of these
    /// guests, from node `from` (which has handed it to its own already).
    Notice {
        /// The sending node.
        from: String,
        /// The guests it is for.
        to: Vec<String>,
        /// The message, as the connections get it.
        text: String,
    },
    /// To a node's channel: claim `table` now, whose lease its node has just given up to even
    /// out the load ([`drain`], "Rebalancing").
    Take {
        /// The table.
        table: String,
    },
    /// To every node ([`crate::notices::CHANNEL`]), on a bus that cannot count who hears a
    /// message (PostgreSQL): `table`'s channel is heard from now on (its node has just claimed
    /// or made it). An entry sent to the table before then may have been heard by nobody: it is
    /// sent again at once rather than waiting out [`REMOTE_REPLY`] ([`Cluster::enter_remote`]).
    Hearing {
        /// The table.
        table: String,
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
        /// The node that sent it (empty: not said). Without an epoch it counts only when it
        /// comes from the node where the connection's entry reached the table: a node that
        /// no longer runs the table (it was paused) has no word on an entry made elsewhere.
        #[serde(default)]
        from: String,
    },
}

/// For how many leases a node that handed a table to another by a rebalance does not claim it
/// back (the taker claims it within milliseconds; should it not, the table's rendezvous member,
/// or any node after a while, claims it as an orphan).
pub const HANDED_FOR: u32 = 2;

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

/// How many [`BusMsg::Hearing`] a waiting entry may fall behind before it takes one it missed
/// to be its table's (and sends its entry again).
const HEARINGS_KEPT: usize = 256;

/// How often an entry waiting for its answer on a bus that cannot count who heard it asks
/// whether the table's node is still connected ([`Cluster::enter_remote`]).
pub const HOLDER_CHECK: Duration = Duration::from_millis(250);

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
    ///
    /// On a bus that cannot count who hears a message (PostgreSQL), every node is then told
    /// ([`BusMsg::Hearing`]): an entry another node sent to the table's channel just before (the
    /// table's lease already this node's, its channel not yet heard: it was lost) is sent again
    /// at once, rather than after [`REMOTE_REPLY`].
    pub async fn running(&self, id: &str, confirmed: bool) {
        let Some(bus) = self.bus() else { return };
        if let Err(e) = bus.subscribe(&table_channel(id), confirmed).await {
            tracing::warn!(error = %e, "the bus failed");
            return;
        }
        if bus.kind() == "postgres" {
            let hearing = BusMsg::Hearing { table: id.to_string() };
            self.publish(crate::notices::CHANNEL, &hearing).await;
        }
    }

    /// The tables that nodes begin to hear from now on ([`BusMsg::Hearing`]).
    pub fn hearings(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.hearing.subscribe()
    }

    /// Returns when `hearings` brings `table` (or may have missed it); never if nothing can
    /// come any more.
    pub async fn heard_of(hearings: &mut tokio::sync::broadcast::Receiver<String>, table: &str) {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match hearings.recv().await {
                Ok(t) if t == table => return,
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => return,
                Err(RecvError::Closed) => std::future::pending::<()>().await,
            }
        }
    }

    /// Sends a notice to every connection of `guests`, on this node (`node`) and, over the
    /// bus, on the others.
    pub async fn notify(&self, node: &str, guests: &[String], msg: &wire::ServerMsg) {
        if guests.is_empty() {
            return;
        }
        let text = msg.text();
        self.notices.deliver(guests, &text);
        if self.has_bus() {
            let notice = BusMsg::Notice { from: node.to_string(), to: guests.to_vec(), text };
            self.publish(crate::notices::CHANNEL, &notice).await;
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
        cmd: Command,
    ) -> Result<Option<u64>, bus::BusError> {
        let attach = match &cmd {
            Command::Join { attach, .. } | Command::Watch { attach, .. } => *attach,
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
        cmd: Command,
        attach: u64,
    ) -> Result<Option<u64>, bus::BusError> {
        // The earliest the database's clock can show now: so that a node receiving it never
        // takes a sender's uncertain reckoning for a pause of its own.
        let at = self.db_ms_bounds(self.now()).map_or(0, |(earliest, _)| earliest);
        self.try_publish(
            &table_channel(table),
            &BusMsg::Cmd { from: node.to_string(), conn, cmd, attach, at },
        )
        .await
    }

    /// Joins or watches a table on another node (run by `holder`, if known); the answer, and who
    /// runs the table.
    ///
    /// On a bus that cannot count who heard a message (PostgreSQL), a holder whose bus
    /// connection is gone ([`bus::Bus::hears`]: killed, its machine lost) cannot answer: the
    /// entry is answered `unavailable` at once rather than after [`REMOTE_REPLY`], and while
    /// it waits the holder is asked after every [`HOLDER_CHECK`], so that a connection whose node
    /// died enters the table again as soon as its lease runs out and this node claims it.
    pub async fn enter_remote(
        &self,
        node: &str,
        table: &str,
        conn: ConnId,
        cmd: Command,
        holder: Option<&str>,
    ) -> Result<crate::store::Holder, (wire::ErrorCode, String)> {
        let gone = async || match (holder, self.bus()) {
            (Some(h), Some(bus)) => bus.hears(h).await == Some(false),
            _ => false,
        };
        if gone().await {
            return Err((
                wire::ErrorCode::Unavailable,
                format!("table {table}: its node is gone; the table is claimed when its lease runs out"),
            ));
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        if let Ok(mut p) = self.pending.lock() {
            p.insert(conn, (tx, holder.map(str::to_string)));
        }
        // Heard before the entry is sent: a node that begins to hear the table after it was
        // sent may not have heard it.
        let mut hearings = self.hearings();
        let mut hearings_open = true;
        // A new entry: messages of any earlier one are dropped from now on.
        let attach = self.next_attach.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cmd = match cmd {
            Command::Join { guest, name, seat, .. } => Command::Join { guest, name, seat, attach },
            Command::Watch { guest, name, delayed, .. } => Command::Watch { guest, name, attach, delayed },
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
            (wire::ErrorCode::Unavailable, format!("table {table}: the bus failed ({e})"))
        };
        // A bus that does not take the entry answers it at once (the client enters again).
        let mut heard = self.send_remote(node, table, conn, cmd.clone()).await.map_err(unsent)?;
        let mut pause = UNHEARD_FIRST_PAUSE;
        let first_sent = tokio::time::Instant::now();
        let answer = loop {
            let wake = match heard {
                Some(0) => deadline.min(tokio::time::Instant::now() + pause),
                None if holder.is_some() => deadline.min(tokio::time::Instant::now() + HOLDER_CHECK),
                _ => deadline,
            };
            // The table's channel heard from now on by a node (which may have claimed the table
            // just after this entry was sent, and not heard it): on a bus that cannot tell who
            // heard the entry, it is given up and the caller enters again at once.
            let waited = tokio::select! {
                waited = tokio::time::timeout_at(wake, &mut rx) => waited,
                news = hearings.recv(), if hearings_open && heard.is_none() => {
                    use tokio::sync::broadcast::error::RecvError;
                    // An answer that came meanwhile counts.
                    match news {
                        Ok(t) if t == table => break rx.try_recv().ok(),
                        Err(RecvError::Lagged(_)) => break rx.try_recv().ok(),
                        Err(RecvError::Closed) => hearings_open = false,
                        Ok(_) => {}
                    }
                    continue;
                }
            };
            match waited {
                Ok(answer) => break answer.ok(),
                Err(_) if tokio::time::Instant::now() >= deadline => break None,
                Err(_) if heard == Some(0) && first_sent.elapsed() >= UNHEARD_GIVE_UP => break None,
                Err(_) if heard.is_none() => {
                    if gone().await {
                        break None;
                    }
                }
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
            || (wire::ErrorCode::Unavailable, format!("table {table}: its node did not answer"));
        // An entry that failed is forgotten: whatever its node sends for it later (an answer
        // that came too late) is dropped, and the connection may enter elsewhere.
        let Some((error, holder)) = answer else {
            forget();
            // Should the table's node take the entry after all, it lets it go.
            let _ = self.send_in(node, table, conn, Command::Gone, attach).await;
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

    /// Asks the table of each of this node's connections at a table on another node (`node`
    /// is this node) for the connection's full state, after this node's bus connection broke
    /// and came back ([`bus::RECONNECTED`]): messages for them may have been lost meanwhile,
    /// and the last one a person gets before his turn may be among them.
    pub async fn resync_remote(&self, node: &str) {
        let at: Vec<(ConnId, String)> = self
            .remote_at
            .lock()
            .map(|r| r.iter().map(|(c, r)| (*c, r.table.clone())).collect())
            .unwrap_or_default();
        for (conn, table) in at {
            let _ = self.send_remote(node, &table, conn, Command::Table(TableMsg::Resync)).await;
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
            // The tables' own ([`crate::tables::remote`]).
            BusMsg::Cmd { .. } | BusMsg::Take { .. } | BusMsg::Notice { .. } => {}
            // Nobody waiting: nothing to wake.
            BusMsg::Hearing { table, .. } => {
                let _ = self.hearing.send(table);
            }
            BusMsg::Reply { conn, error, node, epoch, attach, table, from } => {
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
                let Ok(mut pending) = self.pending.lock() else { return };
                // "Not here" from a node the entry was not sent to: a node that lost the table
                // answers what it heard while it was paused; the table's owner answers.
                let stranger = |expected: &Option<String>| {
                    epoch == 0 && !from.is_empty() && expected.as_ref().is_some_and(|h| *h != from)
                };
                if pending.get(&conn).is_some_and(|(_, expected)| stranger(expected)) {
                    self.stale_dropped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
                let tx = pending.remove(&conn).map(|(tx, _)| tx);
                drop(pending);
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
            BusMsg::Moved { conn, table, attach, epoch, from } => {
                if !self.fresh(&table, epoch) {
                    return;
                }
                let at = self.remote_at.lock().ok().and_then(|r| r.get(&conn).cloned());
                // Without an epoch, only the node where the entry reached the table may say it
                // moved: a node that woke from a pause answers the commands it heard meanwhile,
                // which were meant for the table's new owner.
                if epoch == 0 && !from.is_empty() && at.as_ref().is_some_and(|r| r.holder.node != from) {
                    self.stale_dropped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    return;
                }
                let at = at.map(|r| r.table);
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
