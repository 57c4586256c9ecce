//! A table's task: a thin shell over the table's stage machine ([`table::machine`]).
//!
//! One task per table owns the machine, the connections' outgoing queues and the table's summary,
//! and is the only writer of the table's log. It feeds the machine what happens (commands from
//! the connections, the clock, the bots' computations, run off the task) and carries out what
//! the machine answers, in this order: **the writes are stored first**, and only once they are
//! durable is the step committed and its messages sent. A write that fails leaves the table as it
//! was: a person's move is refused with `storage`, a bot's move or a draw is tried again.
//!
//! The task runs the table for as long as its node holds the table's lease (see
//! [`crate::store::TableLog::write_step`]): every step's writes name the lease's epoch, and a step
//! whose writes are fenced, or a lease the node failed to renew, stops the task at once, without
//! sending anything; its connections are told the table moved ([`crate::cluster`]). So does the
//! end of the lease's term by the node's own clock ([`crate::cluster::Term`]): a task whose
//! lease has not been renewed for nearly a lease's length (the node cannot reach the database, or
//! was stalled) sends nothing more, not even the messages of steps without writes (people coming
//! and going), since another node may be running the table by then.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, RwLock};

use axum::extract::ws::Utf8Bytes;
use cards::record::GameKind;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use table::game::TableGame;
use table::log::{ChatRow, LoggedAction};
use table::machine::{self, Config, Effects, Input, Millis, RematchError, Reply, Request, TableRules, Write};
use table::settings::TableSettings;
use wire::{ErrorCode, Refusal, TableMsg, TableSummary};

use table::machine::{ConnId, RematchOrder};
use table::settings::Timing;

use crate::cluster::{Cluster, Out, Term};
use crate::store::{Epoch, Store, StoreError, TableRow};

/// The tables this node runs, by id.
pub type Running = std::sync::Mutex<HashMap<String, TableHandle>>;

/// What a table's task needs from its node, passed in when it starts: it reaches nothing else.
pub struct Deps {
    /// The database, where the task writes the table's log.
    pub store: Arc<dyn Store>,
    /// The node's leases and connections.
    pub cluster: Arc<Cluster>,
    /// The tables' timing.
    pub timing: Timing,
    /// The node's running tables, which the task leaves when it stops.
    pub running: Arc<Running>,
    /// Makes a rematch's table (the node's [`crate::tables::Tables`]).
    pub rematch: std::sync::Weak<dyn Rematch>,
    /// The bots' threads, where the tables' bot decisions run ([`super::bots`]).
    pub bots: Arc<super::bots::Bots>,
    /// The delay of the tables' delayed stream (the TV), in trick boundaries, for the tables
    /// loaded from now on (`yezi serve --tv-delay-tricks`; 1 unless set).
    pub tv_delay: std::sync::atomic::AtomicU32,
}

/// Makes the table of a rematch: a table's task asks its node for it.
#[async_trait::async_trait]
pub trait Rematch: Send + Sync {
    /// The new table's id, or why it could not be made; `origin`: the address the first table
    /// was made from, if known (the rematch counts as made from there).
    async fn rematch(&self, order: RematchOrder, origin: Option<IpAddr>) -> Result<String, CreateError>;
}

/// Why a table could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The host hosts as many unfinished tables as one guest may.
    #[error("you host {hosted} unfinished tables; the limit is {limit}")]
    TooMany {
        /// The host's unfinished tables.
        hosted: usize,
        /// The limit ([`crate::Limits::tables_per_guest`]).
        limit: usize,
    },
    /// The host, or the guests of the address the table is made from, host as many unfinished
    /// tables of bots only as they may ([`super::bots::BotLimits`]).
    #[error("{0}")]
    TooManyBotTables(String),
    /// The store, the random source or the table's settings failed.
    #[error("{0}")]
    Internal(String),
}

/// Why a table's task could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The stored settings are not a table's settings.
    #[error("table {table}: settings: {source}")]
    Settings {
        /// The table.
        table: String,
        /// What is wrong with them.
        source: serde_json::Error,
    },
    /// The table's log cannot be replayed.
    #[error(transparent)]
    Load(#[from] table::machine::LoadError),
}

/// Whether `guest` has an account.
pub async fn has_account(store: &dyn Store, guest: &str) -> Result<bool, StoreError> {
    Ok(store.account_by_guest(guest).await?.is_some())
}

/// A request to a table's task.
pub enum Cmd {
    /// A request that is not answered on its own (its effects are messages).
    Request(Request),
    /// A join or a watch: the connection's queue, and where the table's answer goes.
    Enter {
        /// The join or watch.
        request: Request,
        /// The connection's outgoing queue.
        out: Out,
        /// Where the table's answer goes.
        reply: oneshot::Sender<Reply>,
    },
    /// The node evens out the load (`crate::cluster::drain`, "Rebalancing"): if the table is
    /// idle once the commands queued before this one are carried out, it is handed to node
    /// `to` as a drain hands it off.
    HandOff {
        /// The node that takes the table.
        to: String,
    },
    /// Answers once the commands queued before it are carried out (the table's summary shows
    /// them then).
    Done(oneshot::Sender<()>),
}

/// A running table as the server holds it.
#[derive(Clone)]
pub struct TableHandle {
    /// The table's queue (commands boxed: its slots are allocated in blocks).
    tx: mpsc::Sender<Box<Cmd>>,
    /// The table's summary, kept up to date by its task.
    pub summary: Arc<RwLock<TableSummary>>,
    /// Told when the node has lost the table's lease: the task stops at once.
    pub lost: Arc<tokio::sync::Notify>,
    /// The epoch of the lease the task holds.
    pub epoch: Epoch,
    /// Until when the task may count on its lease (the node's renewals extend it).
    pub term: Arc<Term>,
    /// Set, under the lock of the node's tables, when the task has stopped: a handle whose task
    /// stopped before it was put among them is not put there ([`crate::tables::Tables::install`]).
    pub ended: Arc<std::sync::atomic::AtomicBool>,
    /// The address the table was made from, when this node knows it (not for a table resumed
    /// from the database).
    pub origin: Option<IpAddr>,
    /// The table's host.
    pub host: Option<String>,
    /// Every seat was a bot's when the table was made or resumed.
    pub bot_only: bool,
}

/// Starts the task of a stored table (a new one, or one resumed after a restart from its log).
/// The task holds the table's lease in `epoch`, taken by a statement sent at `taken`; `origin`
/// is the address the table was made from, if known.
pub(crate) fn spawn(
    deps: Arc<Deps>,
    row: TableRow,
    (epoch, taken): (Epoch, Instant),
    origin: Option<IpAddr>,
    log: Vec<LoggedAction>,
    chat: Vec<ChatRow>,
) -> Result<TableHandle, StartError> {
    let doc: TableSettings = serde_json::from_str(&row.settings)
        .map_err(|source| StartError::Settings { table: row.id.clone(), source })?;
    let lease = (epoch, taken, origin);
    match doc.game {
        GameKind::Madiao => Shell::<ai::Madiao>::start(deps, row, lease, doc, log, chat),
        GameKind::Dabaifen => Shell::<ai::Dabaifen>::start(deps, row, lease, doc, log, chat),
    }
}

/// The versions of a table's messages (`v`, `docs/protocol.md`, "Versions") under its lease
/// of `epoch` begin here: each epoch 2^32 above the one before (the first at 0, where a table's
/// versions begin at 1). A node that takes a table over so counts on above every version the
/// table's earlier nodes can have sent, whether or not they stored what they sent: the versions
/// of what the people at the table hear never go back, and a message of a node that has lost
/// the table (paused, and not yet aware) is older than anything of the new owner's, which the
/// clients drop (a version not above the last one's is stale). The count holds for a million
/// epochs, past which they share the last base.
pub fn version_base(epoch: Epoch) -> u64 {
    let later = (epoch - crate::store::FIRST_EPOCH).clamp(0, 1 << 20) as u64;
    later << 32
}

/// Checks settings as a table would (for creating one).
pub fn check_settings(
    doc: &TableSettings,
) -> Result<serde_json::Map<String, Value>, table::game::SettingsError> {
    match doc.game {
        GameKind::Madiao => {
            <ai::Madiao as TableGame>::table_settings(doc).map(|s| <ai::Madiao as TableGame>::variant_map(&s))
        }
        GameKind::Dabaifen => <ai::Dabaifen as TableGame>::table_settings(doc)
            .map(|s| <ai::Dabaifen as TableGame>::variant_map(&s)),
    }
}

/// The task of one table.
struct Shell<G: TableRules>
where
    G::Action: serde::de::DeserializeOwned,
{
    deps: Arc<Deps>,
    id: String,
    table: machine::Table<G>,
    rx: mpsc::Receiver<Box<Cmd>>,
    summary: Arc<RwLock<TableSummary>>,
    /// The outgoing queue of each connection at the table.
    outs: HashMap<ConnId, Out>,
    /// Joins and watches waiting for the table's answer.
    waiting: HashMap<ConnId, oneshot::Sender<machine::Reply>>,
    /// The bots' computations report here.
    done_tx: mpsc::UnboundedSender<machine::Done<G>>,
    done_rx: mpsc::UnboundedReceiver<machine::Done<G>>,
    /// The machine's clock starts here.
    epoch: Instant,
    wake: Option<Millis>,
    retire: bool,
    /// The lease's epoch every write names.
    lease: Epoch,
    lost: Arc<tokio::sync::Notify>,
    /// Until when the lease surely holds, by the node's clock.
    term: Arc<Term>,
    /// The node's last upkeep tick before a gap ([`crate::cluster::Cluster::gap`]) for which
    /// this table has checked its lease against the database.
    checked_gap: Option<Instant>,
    ended: Arc<std::sync::atomic::AtomicBool>,
    /// The task's own queue (to know its entry in the server's tables from a newer one's).
    tx: mpsc::Sender<Box<Cmd>>,
    /// Whose turn the table's bot decisions take.
    owner: super::bots::Owner,
    /// The address the table was made from, if known (a rematch is made from there too).
    origin: Option<IpAddr>,
    /// Bots' decisions and rematches asked for and not yet back: while any is, the table is
    /// not idle and is not handed to another node by a rebalance.
    busy: usize,
}

impl TableHandle {
    /// Queues a command for the table; `Err` if its task has ended.
    pub async fn send(&self, cmd: Cmd) -> Result<(), Cmd> {
        self.tx.send(Box::new(cmd)).await.map_err(|e| *e.0)
    }
}

impl<G: TableRules> Shell<G>
where
    G::Action: serde::de::DeserializeOwned,
{
    /// Starts the task holding the lease of epoch `lease.0`, taken by a statement sent at
    /// `lease.1`, of a table made from address `lease.2` (if known).
    fn start(
        deps: Arc<Deps>,
        row: TableRow,
        (lease, taken, origin): (Epoch, Instant, Option<IpAddr>),
        doc: TableSettings,
        log: Vec<LoggedAction>,
        chat: Vec<ChatRow>,
    ) -> Result<TableHandle, StartError> {
        let owner = super::bots::Owner::new(origin, row.host.as_deref(), &row.id);
        let host = row.host.clone();
        let bot_only = row.seats.iter().all(|s| matches!(s, crate::store::SeatRow::Bot(_)));
        let config = Config {
            id: row.id.clone(),
            settings: doc,
            seed: row.seed,
            host: row.host,
            seats: row.seats,
            status: row.status,
            created_ms: row.created_ms,
            timing: deps.timing,
        };
        let mut table = machine::Table::<G>::new(config, &log, chat, 0)?;
        table.set_tv_delay(deps.tv_delay.load(std::sync::atomic::Ordering::Relaxed));
        table.continue_versions_from(version_base(lease));
        let summary = Arc::new(RwLock::new(table.summary(0)));
        let (tx, rx) = mpsc::channel(256);
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        let lost = Arc::new(tokio::sync::Notify::new());
        let term = Arc::new(Term::new(deps.cluster.term_end(taken)));
        let ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let fx = table.start(0);
        let mut shell = Shell {
            deps,
            id: row.id,
            table,
            rx,
            summary: summary.clone(),
            outs: HashMap::new(),
            waiting: HashMap::new(),
            done_tx,
            done_rx,
            epoch: Instant::now(),
            wake: None,
            retire: false,
            lease,
            lost: lost.clone(),
            term: term.clone(),
            checked_gap: None,
            ended: ended.clone(),
            tx: tx.clone(),
            busy: 0,
            owner,
            origin,
        };
        shell.carry_out(fx);
        // Boxed: an `async fn`'s future holds its by-value arguments twice.
        tokio::spawn(Box::new(shell).run());
        Ok(TableHandle { tx, summary, lost, epoch: lease, term, ended, origin, host, bot_only })
    }

    /// The machine's time now.
    fn now(&self) -> Millis {
        self.epoch.elapsed().as_millis() as Millis
    }

    async fn run(mut self: Box<Self>) {
        loop {
            let wake = self.wake.map(|w| self.epoch + std::time::Duration::from_millis(w));
            // The term is counted by the node's clock; the timer runs in real time.
            let term_end = self.term.end().map(|t| self.deps.cluster.real(t));
            let input = tokio::select! {
                cmd = self.rx.recv() => match cmd {
                    Some(c) => match *c {
                        Cmd::HandOff { to } => {
                            self.rebalance_to(to).await;
                            None
                        }
                        c => self.input_of(c),
                    },
                    None => break,
                },
                Some(done) = self.done_rx.recv() => {
                    self.busy = self.busy.saturating_sub(1);
                    Some(Input::Done(done))
                }
                _ = sleep_until_opt(wake) => Some(Input::Tick),
                _ = self.lost.notified() => {
                    if self.deps.cluster.draining() {
                        self.hand_off().await;
                    } else {
                        self.deps.cluster.leases_lost.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        self.fenced("the node could not renew its lease");
                    }
                    None
                }
                // The term may have been extended meanwhile: `held` says.
                _ = sleep_until_opt(term_end) => {
                    self.held();
                    None
                }
            };
            if let Some(input) = input
                && let Some(input) = self.rated_join(input).await
            {
                self.feed(input).await;
            }
            if self.retire {
                break;
            }
        }
        let removed = self.deps.running.lock().is_ok_and(|mut tables| {
            self.ended.store(true, std::sync::atomic::Ordering::Relaxed);
            tables.get(&self.id).is_some_and(|h| h.tx.same_channel(&self.tx))
                && tables.remove(&self.id).is_some()
        });
        if removed {
            self.deps.cluster.stopped(&self.id).await;
        }
    }

    /// Whether the lease's term still holds; when it has ended, the task stops as when fenced
    /// (sending nothing), and gives up the lease in case it still holds it.
    fn held(&mut self) -> bool {
        if self.retire {
            return false;
        }
        if self.term.holds(self.deps.cluster.now()) {
            return true;
        }
        self.deps.cluster.leases_lost.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let lease = self.deps.cluster.lease().as_millis();
        self.fenced(&format!("its lease may have run out (not renewed for {lease} ms less a tenth)"));
        // Off the task: the database may be out of reach (the likely reason for the end).
        let (store, id, epoch) = (self.deps.store.clone(), self.id.clone(), self.lease);
        tokio::spawn(async move {
            let _ = store.release(&id, epoch).await;
        });
        false
    }

    /// After a gap in the node's ticks (it was paused: [`crate::cluster::Cluster::gap`]), checks
    /// once, against the database's clock, that the table's lease is still this node's before
    /// the table answers anything: a node whose own clock stopped during the pause would
    /// otherwise go on by its term while another node runs the table. A lease found gone stops
    /// the table as when fenced; a database that does not answer within a tenth of a lease
    /// leaves the decision to the term.
    async fn still_held_after_gap(&mut self) -> bool {
        let Some(tick) = self.deps.cluster.gap() else { return true };
        if self.checked_gap == Some(tick) {
            return true;
        }
        let ids = [self.id.clone()];
        let asked = tokio::time::timeout(self.deps.cluster.lease() / 10, self.deps.store.holders(&ids)).await;
        let Ok(Ok(holders)) = asked else { return true };
        let mine = crate::store::Holder { node: self.deps.store.node().to_string(), epoch: self.lease };
        if holders.iter().any(|(id, h)| *id == self.id && *h == mine) {
            self.checked_gap = Some(tick);
            return true;
        }
        self.deps.cluster.leases_lost.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.fenced("after a pause, its lease is no longer this node's by the database");
        false
    }

    /// The node drains (`crate::cluster::drain`): between two steps, the task gives up the
    /// lease so that another node may claim the table at once, then stops and tells its
    /// connections the table moved (they find it claimable when they enter it again).
    async fn hand_off(&mut self) {
        self.deps.cluster.counters.handed_off.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.release_now().await;
        // The member rendezvous hashing gives it to among the others is asked to claim it at
        // once: before its people come back (else the node they come back through claims it),
        // and without waiting for its next tick.
        let me = self.deps.store.node();
        let others: Vec<String> = self.deps.cluster.members().into_iter().filter(|m| m != me).collect();
        if let Some(to) = crate::cluster::drain::rendezvous(&self.id, &others) {
            self.deps.cluster.ask_to_take(to, &self.id).await;
        }
        self.fenced("the node drains: the table is handed to another node");
    }

    /// Gives up the lease, waiting for the database for at most half a lease (a lease not
    /// given up runs out by itself).
    async fn release_now(&self) {
        let wait = self.deps.cluster.lease() / 2;
        let _ = tokio::time::timeout(wait, self.deps.store.release(&self.id, self.lease)).await;
    }

    /// A rebalance asks the table to go to node `to` (`crate::cluster::drain`, "Rebalancing"):
    /// the commands already queued are carried out first; then, if the table is idle (no bot's
    /// decision and no rematch under way), it gives up its lease, asks `to` to claim it, stops,
    /// and its connections enter it again where it runs next (this node does not claim it back
    /// for a while: [`crate::cluster::Cluster::handed`]).
    async fn rebalance_to(&mut self, to: String) {
        while let Ok(c) = self.rx.try_recv() {
            if matches!(*c, Cmd::HandOff { .. }) {
                continue;
            }
            if let Some(input) = self.input_of(*c)
                && let Some(input) = self.rated_join(input).await
            {
                self.feed(input).await;
            }
            if self.retire {
                return;
            }
        }
        if self.busy > 0 || self.retire || !self.held() {
            return;
        }
        let cluster = self.deps.cluster.clone();
        cluster.handed(&self.id);
        cluster.counters.rebalanced.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.release_now().await;
        cluster.ask_to_take(&to, &self.id).await;
        self.fenced(&format!("handed to node {to} to even out the load"));
    }

    /// The node no longer holds the table: stop at once, sending nothing, and tell the
    /// connections at the table that it moved.
    fn fenced(&mut self, why: &str) {
        tracing::warn!(table = %self.id, epoch = self.lease, why, "the table stops here");
        self.retire = true;
        self.wake = None;
        self.waiting.clear();
        let conns: Vec<ConnId> = self.outs.drain().map(|(c, _)| c).collect();
        self.deps.cluster.moved(&self.id, &conns);
    }

    /// A command as the machine's input (a join or watch leaves its queue and answer here).
    fn input_of(&mut self, cmd: Cmd) -> Option<Input<G>> {
        Some(Input::Request(match cmd {
            Cmd::Request(r) => {
                if matches!(r, Request::Rematched { .. }) {
                    self.busy = self.busy.saturating_sub(1);
                }
                r
            }
            // Only the task's loop carries it out.
            Cmd::HandOff { .. } => return None,
            Cmd::Done(done) => {
                let _ = done.send(());
                return None;
            }
            Cmd::Enter { request, out, reply } => {
                let conn = match &request {
                    Request::Join { conn, .. } | Request::Watch { conn, .. } | Request::Tv { conn, .. } => {
                        *conn
                    }
                    _ => {
                        let _ = reply
                            .send(Err(Refusal::new(ErrorCode::BadMessage, "only a join or a watch enters")));
                        return None;
                    }
                };
                self.outs.insert(conn, out);
                self.waiting.insert(conn, reply);
                request
            }
        }))
    }

    /// A join at a rated table by a guest without an account (who holds no seat there) is refused
    /// here (`account_required`), before the table sees it; any other input passes.
    async fn rated_join(&mut self, input: Input<G>) -> Option<Input<G>> {
        let Input::Request(Request::Join { conn, guest, .. }) = &input else { return Some(input) };
        if !self.table.rated() || self.table.seated(&guest.id) {
            return Some(input);
        }
        let refusal = match has_account(self.deps.store.as_ref(), &guest.id).await {
            Ok(true) => return Some(input),
            Ok(false) => crate::ratings::account_required(),
            Err(e) => Refusal::new(ErrorCode::Storage, format!("the account cannot be looked up: {e}")),
        };
        let conn = *conn;
        self.outs.remove(&conn);
        if let Some(tx) = self.waiting.remove(&conn) {
            let _ = tx.send(Err(refusal));
        }
        None
    }

    /// One step: its writes stored, then committed and carried out (or refused); nothing at
    /// all once the lease's term has ended, before the step or while its writes were stored.
    async fn feed(&mut self, input: Input<G>) {
        if !self.held() || !self.still_held_after_gap().await {
            return;
        }
        let gone = match &input {
            Input::Request(Request::Gone { conn }) => Some(*conn),
            _ => None,
        };
        let is_move = matches!(&input, Input::Request(Request::Table { msg: TableMsg::Act { .. }, .. }));
        let arrived = Instant::now();
        let now = self.now();
        let step = self.table.step(input, now);
        // A move that stores actions (a refused one stores none).
        let mut counted = is_move && step.writes.iter().any(|w| matches!(w, Write::Actions(_)));
        let fx = match self.persist(&step.writes).await {
            // Stored, but the messages might reach people who follow another node by now: the
            // next owner loads the step from the log, and they enter the table again there.
            Ok(()) if !self.held() => return,
            Ok(()) => self.table.commit(step),
            Err(StoreError::Fenced(why)) => {
                self.fenced(&why);
                // Another node may claim it now (a release names this node's epoch: it does
                // nothing when the lease has already passed on).
                let _ = self.deps.store.release(&self.id, self.lease).await;
                return;
            }
            Err(e) => {
                counted = false;
                self.deps.cluster.counters.storage_errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.table.refuse(step, &e.to_string(), self.now())
            }
        };
        self.carry_out(fx);
        if counted {
            self.deps.cluster.counters.observe_move(arrived.elapsed());
        }
        if let Some(conn) = gone {
            self.outs.remove(&conn);
        }
    }

    /// Stores a step's writes, in order and all or none, if the node still holds the lease.
    async fn persist(&self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        match self.deps.store.write_step(&self.id, self.lease, writes).await {
            Err(StoreError::Fenced(why)) => {
                self.deps.cluster.fenced_writes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Err(StoreError::Fenced(why))
            }
            // The same step written before with its answer lost (a connection dropped after the
            // commit): it is in the log, and done. Other actions at its places: the log moved on
            // without this node's knowledge, and the table must be loaded again from it.
            Err(StoreError::Conflict(why)) => match self.landed(writes).await {
                Ok(true) => Ok(()),
                Ok(false) => {
                    Err(StoreError::Fenced(format!("the log holds other actions than this node's ({why})")))
                }
                // The log cannot be read now: the step is tried again.
                Err(e) => Err(e),
            },
            other => other,
        }
    }

    /// Whether the actions of `writes` are already in the table's log, each at its place.
    async fn landed(&self, writes: &[Write]) -> Result<bool, StoreError> {
        if !writes.iter().any(|w| matches!(w, Write::Actions(a) if !a.is_empty())) {
            return Ok(false);
        }
        Ok(in_log(writes, &self.deps.store.actions(&self.id).await?))
    }

    fn carry_out(&mut self, fx: Effects<G>) {
        for (conn, reply) in fx.replies {
            if reply.is_err() {
                self.outs.remove(&conn);
            }
            if let Some(tx) = self.waiting.remove(&conn) {
                let _ = tx.send(reply);
            }
        }
        // A join or watch the table did not answer (it cannot happen): it is not left hanging.
        for (conn, tx) in self.waiting.drain() {
            self.outs.remove(&conn);
            let _ = tx.send(Err(Refusal::new(ErrorCode::Unavailable, "the table did not answer")));
        }
        for send in fx.sends {
            // One text per message, shared by every connection it goes to.
            let text = Utf8Bytes::from(send.msg.text());
            for conn in send.to {
                if let Some(out) = self.outs.get(&conn) {
                    // A full queue drops the message: the client sees a gap in `v` and resyncs.
                    let _ = out.try_send(text.clone());
                }
            }
        }
        for note in fx.notes {
            tracing::info!(table = %self.id, "{note}");
        }
        for job in fx.jobs {
            self.busy += 1;
            let tx = self.done_tx.clone();
            if job.is_quick() {
                let _ = tx.send(job.run());
            } else {
                // On the bots' threads, in the table's owner's turn ([`super::bots`]); counted
                // while it waits for its turn, and how long (`/metrics`).
                let external = job.asks_external();
                let counters = self.deps.cluster.clone();
                counters.counters.bot_jobs_waiting.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let queued = std::time::Instant::now();
                self.deps.bots.spawn(&self.owner, external, move || {
                    let c = &counters.counters;
                    c.bot_jobs_waiting.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                    c.bot_wait_us
                        .fetch_add(queued.elapsed().as_micros() as u64, std::sync::atomic::Ordering::Relaxed);
                    c.bot_jobs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let _ = tx.send(job.run());
                });
            }
        }
        if let Some(order) = fx.rematch {
            self.busy += 1;
            // The new table is made off the table's task; its id (or the failure) comes back.
            let (maker, tx, origin) = (self.deps.rematch.clone(), self.tx.clone(), self.origin);
            tokio::spawn(async move {
                let table = match maker.upgrade() {
                    Some(maker) => {
                        maker.rematch(order, origin).await.map_err(|e| RematchError::Failed(e.to_string()))
                    }
                    None => Err(RematchError::Stopping),
                };
                let _ = tx.send(Box::new(Cmd::Request(Request::Rematched { table }))).await;
            });
        }
        self.wake = fx.wake;
        self.retire |= fx.retire;
        let new = self.table.summary(self.now());
        let mut moved = Vec::new();
        if let Ok(mut sum) = self.summary.write() {
            if !same_people(&sum, &new) {
                moved = people(&sum).chain(people(&new)).map(str::to_string).collect();
            }
            *sum = new;
        }
        // The people who sat down, left, or whose match ended: their followers hear of it.
        moved.sort();
        moved.dedup();
        for guest in moved {
            self.deps.cluster.notices.changed(crate::notices::Change::Seat(guest));
        }
    }
}

/// The guests of the people seated at a table whose match is not over.
pub(crate) fn people(s: &TableSummary) -> impl Iterator<Item = &str> {
    let over = s.status.is_over();
    s.seats
        .iter()
        .filter(move |x| !over && x.kind == wire::SeatKind::Person)
        .filter_map(|x| x.guest.as_deref())
}

/// Whether the same people sit at the two summaries' tables, in the same seats.
fn same_people(a: &TableSummary, b: &TableSummary) -> bool {
    a.status.is_over() == b.status.is_over()
        && a.seats.len() == b.seats.len()
        && a.seats.iter().zip(&b.seats).all(|(x, y)| person(x) == person(y))
}

/// The guest of a seat a person holds (`Some(None)`: a person without a guest id).
fn person(s: &wire::SeatInfo) -> Option<Option<&str>> {
    (s.kind == wire::SeatKind::Person).then_some(s.guest.as_deref())
}

/// Whether a step's actions (it has some) are in `log`, each at its place and the same.
fn in_log(writes: &[Write], log: &[LoggedAction]) -> bool {
    let mut ours = writes
        .iter()
        .flat_map(|w| match w {
            Write::Actions(a) => a.as_slice(),
            _ => &[],
        })
        .peekable();
    ours.peek().is_some() && ours.all(|a| usize::try_from(a.seq).ok().and_then(|i| log.get(i)) == Some(a))
}

async fn sleep_until_opt(t: Option<Instant>) {
    match t {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::log::TableStatus;

    /// Each epoch's versions begin above every version of the epoch before (a table's first
    /// epoch counts from 1 as ever), and stay within what a browser's numbers hold exactly.
    #[test]
    fn each_epochs_versions_begin_above_the_last_ones() {
        let first = crate::store::FIRST_EPOCH;
        assert_eq!(version_base(first), 0);
        assert_eq!(version_base(first + 1), 1 << 32);
        for e in [first, first + 1, first + 7, first + 1000] {
            assert!(version_base(e + 1) >= version_base(e) + (1 << 32), "epoch {e}");
        }
        assert!(version_base(Epoch::MAX) < 1 << 53, "beyond a JavaScript number's exact integers");
        assert_eq!(version_base(first - 5), 0);
    }

    fn act(seq: u64, action: &str) -> LoggedAction {
        LoggedAction { seq, hand: 0, seat: (seq % 4) as u8, action: action.to_string() }
    }

    /// A step written before (its answer lost) is found in the log; a step whose places hold
    /// other actions, or are not there, or that has no action, is not.
    #[test]
    fn a_step_is_in_the_log_only_when_its_actions_are_there_unchanged() {
        let log = vec![act(0, r#"{"play":"M9"}"#), act(1, r#"{"play":"M8"}"#), act(2, r#"{"slough":"S1"}"#)];
        let step = |acts: Vec<LoggedAction>| vec![Write::Actions(acts), Write::Status(TableStatus::Playing)];
        assert!(in_log(&step(vec![act(1, r#"{"play":"M8"}"#), act(2, r#"{"slough":"S1"}"#)]), &log));
        assert!(!in_log(&step(vec![act(2, r#"{"play":"S1"}"#)]), &log), "another action at its place");
        assert!(
            !in_log(&step(vec![act(2, r#"{"slough":"S1"}"#), act(3, r#"{"play":"W9"}"#)]), &log),
            "a place not in the log"
        );
        assert!(!in_log(&[Write::Status(TableStatus::Playing)], &log), "no action: nothing to tell by");
        assert!(!in_log(&step(Vec::new()), &log));
    }
}
