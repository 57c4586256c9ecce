//! The tables this node runs: the registry of their tasks ([`task`]), the one way a table is made
//! ([`Tables::create`], for a new table and for a rematch), loading a table this node claimed,
//! and the node's upkeep of its leases (renewing them, claiming orphaned tables, publishing the
//! lobby's summaries). The owner's side of connections on other nodes is [`remote`].
//!
//! Closing a table and removing an away person are the table's own (`table::machine`); see
//! `docs/protocol.md`, "Table management".

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use table::machine::{RematchOrder, Request};
use table::settings::{Guest, TableSettings, Timing};
use tokio::time::Instant;

use crate::cluster::{CLAIM_BATCH, Cluster};
use crate::ids;
use crate::store::{Epoch, FIRST_EPOCH, Held, SeatRow, Store, StoreError, TableRow, TableStatus};

pub mod bots;
pub mod remote;
pub mod task;

pub use task::{Cmd, CreateError, Deps, StartError, TableHandle, check_settings, has_account};

/// The TV delay (trick boundaries) a node's tables start with: `yezi serve --tv-delay-tricks`
/// sets it before the node starts; a running node's is [`task::Deps::tv_delay`].
static DEFAULT_TV_DELAY: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// Sets the TV delay of the nodes started from now on in this process (trick boundaries).
pub fn set_default_tv_delay(tricks: u32) {
    DEFAULT_TV_DELAY.store(tricks, std::sync::atomic::Ordering::Relaxed);
}

/// The tables this node runs, and what their tasks are given ([`Deps`]).
pub struct Tables {
    /// What every table's task is given.
    pub deps: Arc<Deps>,
    /// Unfinished tables one guest may host at once.
    tables_per_guest: usize,
    /// The source of new tables' seeds when the server was given one ([`crate::Config::table_seed`]).
    seeds: Option<Mutex<cards::Rng>>,
    /// Held while a table of bots only is counted and made, so that requests at once cannot all
    /// pass the count before any of their tables is among the running ones.
    making_bot_table: tokio::sync::Mutex<()>,
}

impl Tables {
    /// The tables of a node on `store`, none running yet; with `table_seed`, every new table's
    /// seed is drawn from it in the order the tables are made. Starts the bots' threads
    /// ([`bots::Bots`]); fails when the system cannot start them.
    pub fn new(
        store: Arc<dyn Store>,
        cluster: Arc<Cluster>,
        timing: Timing,
        tables_per_guest: usize,
        table_seed: Option<u64>,
        bot_limits: bots::BotLimits,
    ) -> std::io::Result<Arc<Tables>> {
        let bots = Arc::new(bots::Bots::new(bot_limits)?);
        Ok(Arc::new_cyclic(|me: &Weak<Tables>| {
            let rematch: Weak<dyn task::Rematch> = me.clone();
            Tables {
                deps: Arc::new(Deps {
                    store,
                    cluster,
                    timing,
                    running: Arc::new(Mutex::new(HashMap::new())),
                    rematch,
                    bots,
                    tv_delay: std::sync::atomic::AtomicU32::new(
                        DEFAULT_TV_DELAY.load(std::sync::atomic::Ordering::Relaxed),
                    ),
                }),
                tables_per_guest,
                seeds: table_seed.map(|seed| Mutex::new(cards::Rng::from_seed(seed))),
                making_bot_table: tokio::sync::Mutex::new(()),
            }
        }))
    }

    /// The unfinished tables of bots only this node runs that `host` hosts, and that were
    /// made from `origin`.
    fn bot_tables(&self, host: &str, origin: Option<IpAddr>) -> (usize, usize) {
        let Ok(running) = self.deps.running.lock() else { return (0, 0) };
        let unfinished =
            |h: &TableHandle| h.bot_only && h.summary.read().map(|s| !s.status.is_over()).unwrap_or(true);
        let mut by_host = 0;
        let mut by_origin = 0;
        for h in running.values().filter(|h| unfinished(h)) {
            by_host += usize::from(h.host.as_deref() == Some(host));
            by_origin += usize::from(origin.is_some() && h.origin == origin);
        }
        (by_host, by_origin)
    }

    /// Refuses a new table of bots only past the bounds of [`bots::BotLimits`].
    fn check_bot_tables(&self, host: &str, origin: Option<IpAddr>) -> Result<(), CreateError> {
        let l = self.deps.bots.limits();
        let (by_host, by_origin) = self.bot_tables(host, origin);
        if by_host >= l.tables_per_guest {
            return Err(CreateError::TooManyBotTables(format!(
                "you host {by_host} unfinished tables of bots only; a guest may host {} at once \
                 (take a seat at one, or wait for one to end)",
                l.tables_per_guest
            )));
        }
        if by_origin >= l.tables_per_ip {
            return Err(CreateError::TooManyBotTables(format!(
                "the guests of your address host {by_origin} unfinished tables of bots only; an \
                 address may host {} at once",
                l.tables_per_ip
            )));
        }
        Ok(())
    }

    /// A new table's seed: the next of the server's seeds when it was given one, else one from
    /// the operating system.
    pub fn new_seed(&self) -> Result<u64, ids::RandomError> {
        match &self.seeds {
            Some(rng) => Ok(rng.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next_u64()),
            None => ids::new_seed(),
        }
    }

    /// A running table.
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.deps.running.lock().ok().and_then(|t| t.get(id).cloned())
    }

    /// Every table running here forgets `guest`'s name: it becomes `name` (an account deleted).
    pub async fn forget(&self, guest: &str, name: &str) {
        let handles: Vec<TableHandle> =
            self.deps.running.lock().map(|t| t.values().cloned().collect()).unwrap_or_default();
        for h in handles {
            let forget = table::machine::Request::Forget { guest: guest.to_string(), name: name.to_string() };
            // A table that has just stopped has nothing left to forget.
            let _ = h.send(task::Cmd::Request(forget)).await;
        }
    }

    /// Table `id`, if it runs here, drops chat line `seq` and tells its connections (the
    /// operator removed it; the database's copy is removed by the caller).
    pub async fn remove_chat(&self, id: &str, seq: u64) {
        if let Some(h) = self.get(id) {
            // A table that has just stopped sends nothing more; a join reads the database.
            let _ = h.send(task::Cmd::Request(table::machine::Request::RemoveChat { seq })).await;
        }
    }

    /// The tables running here.
    pub fn handles(&self) -> Vec<TableHandle> {
        self.deps.running.lock().map(|t| t.values().cloned().collect()).unwrap_or_default()
    }

    /// How many tables run here.
    pub fn count(&self) -> usize {
        self.deps.running.lock().map(|t| t.len()).unwrap_or(0)
    }

    /// Makes a table hosted by `host` with these settings and seats, and starts it here (its
    /// lease is taken with it); its id and handle: the one way a table is made, whether asked for by its host or
    /// as a rematch. Its seed is [`Tables::new_seed`]. The host's limit of unfinished tables,
    /// counted in the database (they may run on other nodes), is checked first; for a table of
    /// bots only, the bounds of [`bots::BotLimits`] too, counted on this node. `origin`: the
    /// address the table is made from, if known (its bots take that address's turns).
    pub async fn create(
        &self,
        settings: &TableSettings,
        host: &str,
        seats: [SeatRow; 4],
        origin: Option<IpAddr>,
    ) -> Result<(String, TableHandle), CreateError> {
        self.create_fixed(settings, host, seats, origin, None).await
    }

    /// [`Tables::create`], with the table's id and seed given (a duplicate event's board, whose
    /// seed every table of the event shares: `docs/events.md`); an id already stored fails.
    pub async fn create_fixed(
        &self,
        settings: &TableSettings,
        host: &str,
        seats: [SeatRow; 4],
        origin: Option<IpAddr>,
        fixed: Option<(String, u64)>,
    ) -> Result<(String, TableHandle), CreateError> {
        let internal = |e: String| CreateError::Internal(e);
        let _making = if seats.iter().all(|s| matches!(s, SeatRow::Bot(_))) {
            let making = self.making_bot_table.lock().await;
            self.check_bot_tables(host, origin)?;
            Some(making)
        } else {
            None
        };
        let hosted = self.deps.store.hosted_tables(host).await.map_err(|e| internal(e.to_string()))?;
        if hosted >= self.tables_per_guest {
            return Err(CreateError::TooMany { hosted, limit: self.tables_per_guest });
        }
        let (id, seed) = match fixed {
            Some(fixed) => fixed,
            None => (
                ids::new_id("t").map_err(|e| internal(e.to_string()))?,
                self.new_seed().map_err(|e| internal(e.to_string()))?,
            ),
        };
        let row = TableRow {
            id,
            game: settings.game.name().to_string(),
            settings: serde_json::to_string(settings).map_err(|e| internal(e.to_string()))?,
            seed,
            host: Some(host.to_string()),
            status: TableStatus::Waiting,
            // The lobby lists tables by age, on every node: by the database's clock.
            created_ms: self.deps.cluster.db_now_ms(),
            seats,
        };
        let taken = self.deps.cluster.now();
        self.deps.store.create_table(&row).await.map_err(|e| internal(e.to_string()))?;
        let id = row.id.clone();
        let handle =
            task::spawn(self.deps.clone(), row, (FIRST_EPOCH, taken), origin, Vec::new(), Vec::new())
                .map_err(|e| internal(e.to_string()))?;
        if self.install(&id, &handle) {
            self.deps.cluster.running(&id, true).await;
        }
        Ok((id, handle))
    }

    /// Puts a table's new task among the node's tables, in place of an older epoch's task (which has
    /// lost the table: it is told so); false, with nothing put there, when the task has stopped
    /// already (its lease's term was over before it began, the store being slow): a stopped task
    /// left there would pass for the table's, answering no one.
    pub fn install(&self, id: &str, handle: &TableHandle) -> bool {
        let Ok(mut t) = self.deps.running.lock() else { return false };
        if handle.ended.load(std::sync::atomic::Ordering::Relaxed) {
            if let Some(old) = t.get(id).filter(|old| old.epoch < handle.epoch) {
                old.lost.notify_one();
            }
            return false;
        }
        if let Some(old) = t.insert(id.to_string(), handle.clone()) {
            old.lost.notify_one();
        }
        drop(t);
        // The people seated from the start (a host who seats himself): their followers hear it,
        // now that the table is among the node's.
        let seated: Vec<String> =
            handle.summary.read().map(|s| task::people(&s).map(str::to_string).collect()).unwrap_or_default();
        for guest in seated {
            self.deps.cluster.notices.changed(crate::notices::Change::Seat(guest));
        }
        true
    }
}

#[async_trait::async_trait]
impl task::Rematch for Tables {
    /// Makes the table of a rematch: the same game and settings and a new seed; the host's seat
    /// his, the bots as bots, every other person's seat open and kept for him until the match
    /// begins, an open seat open. Gives the new table's id, or why it could not be made (the
    /// host's limit of unfinished tables counts it like any other).
    async fn rematch(&self, order: RematchOrder, origin: Option<IpAddr>) -> Result<String, CreateError> {
        let mut invited: [Option<Guest>; 4] = Default::default();
        let seats: [SeatRow; 4] = std::array::from_fn(|i| match &order.seats[i] {
            SeatRow::Person { guest, .. } if *guest == order.host => order.seats[i].clone(),
            SeatRow::Person { guest, name } => {
                invited[i] = Some(Guest { id: guest.clone(), name: name.clone() });
                SeatRow::Open
            }
            other => other.clone(),
        });
        let all_bots = seats.iter().all(|s| matches!(s, SeatRow::Bot(_)));
        let (id, handle) = self.create(&order.settings, &order.host, seats, origin).await?;
        let first = if all_bots { Request::AutoStart } else { Request::Invite { guests: invited } };
        let _ = handle.send(Cmd::Request(first)).await;
        // The table is answered once it keeps the seats for the people invited: whoever reads it
        // next (the challenge's answer, the rematch's players) finds them kept. A table that does
        // not answer within a second is answered anyway (the invitation follows).
        let (done, kept) = tokio::sync::oneshot::channel();
        if handle.send(Cmd::Done(done)).await.is_ok() {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(1), kept).await;
        }
        Ok(id)
    }
}

/// Loads a table this node has claimed (by a statement sent at `claimed`) and starts its task
/// (unless it runs here already).
pub async fn load(
    tables: &Arc<Tables>,
    row: TableRow,
    epoch: Epoch,
    claimed: Instant,
) -> Result<TableHandle, StoreError> {
    if let Some(h) = tables.get(&row.id)
        && h.epoch == epoch
    {
        return Ok(h);
    }
    let id = row.id.clone();
    let log = tables.deps.store.actions(&id).await?;
    let chat = tables.deps.store.recent_chat(&id, 30).await?;
    let handle = task::spawn(tables.deps.clone(), row, (epoch, claimed), None, log, chat)
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
    // Not waiting for the bus to confirm: a node claiming a batch of tables must not be held up
    // (its lease renewals wait behind it); a connection elsewhere whose command nobody heard yet
    // sends it again ([`Cluster::enter_remote`]).
    tables.deps.cluster.running(&id, false).await;
    if !tables.install(&id, &handle) {
        tables.deps.cluster.stopped(&id).await;
    }
    Ok(handle)
}

/// Claims up to `limit` orphaned tables and starts them; how many were claimed.
pub async fn claim_batch(tables: &Arc<Tables>, limit: u32) -> Result<usize, StoreError> {
    if tables.deps.cluster.draining() {
        return Ok(0);
    }
    let asked = tables.deps.cluster.now();
    let claimed = tables.deps.store.claim_orphans(limit).await?;
    let n = claimed.len();
    tables.deps.cluster.counters.leases_claimed.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    for (row, epoch) in claimed {
        let id = row.id.clone();
        if let Err(e) = load(tables, row, epoch, asked).await {
            tracing::error!(table = %id, error = %e, "the table is not resumed");
            let _ = tables.deps.store.release(&id, epoch).await;
        }
    }
    Ok(n)
}

/// Claims this node's share of the orphaned tables (see [`crate::cluster::drain`]): those that
/// rendezvous hashing over the members gives to it, and any that has waited unclaimed for a
/// lease and [`crate::store::MEMBER_MS`] (`waiting`: when each orphan was first seen); how many were claimed. A node that hears
/// of no other member claims a batch of any.
pub async fn claim_share(
    tables: &Arc<Tables>,
    waiting: &mut HashMap<String, Instant>,
) -> Result<usize, StoreError> {
    let cluster = &tables.deps.cluster;
    let members = cluster.members();
    let me = tables.deps.store.node().to_string();
    if cluster.draining() || members.len() < 2 || !members.contains(&me) {
        waiting.clear();
        return claim_batch(tables, CLAIM_BATCH).await;
    }
    let orphans = tables.deps.store.orphans(CLAIM_BATCH * 8).await?;
    let now = Instant::now();
    waiting.retain(|id, _| orphans.contains(id));
    let mut n = 0;
    for id in orphans {
        // Handed to another node by a rebalance a moment ago: its taker claims it.
        if cluster.handed_lately(&id) {
            continue;
        }
        let first = *waiting.entry(id.clone()).or_insert(now);
        let mine = crate::cluster::drain::rendezvous(&id, &members) == Some(me.as_str());
        // Not this node's: its member claims it, or, should the members' views differ, any
        // node once the heard members have been renewed (a member gone for MEMBER_MS drops out).
        let patience = cluster.lease() + Duration::from_millis(crate::store::MEMBER_MS as u64);
        if !mine && now.duration_since(first) < patience {
            continue;
        }
        if n as u32 >= CLAIM_BATCH {
            break;
        }
        let asked = Instant::now();
        if let Some((row, epoch)) = tables.deps.store.claim_table(&id).await? {
            n += 1;
            cluster.counters.leases_claimed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            waiting.remove(&id);
            if let Err(e) = load(tables, row, epoch, asked).await {
                tracing::error!(table = %id, error = %e, "the table is not resumed");
                let _ = tables.deps.store.release(&id, epoch).await;
            }
        }
    }
    Ok(n)
}

/// Claims table `id`, which another node has just handed to this one to even out the load
/// (`BusMsg::Take`); nothing when the node drains or another node was quicker.
pub async fn take(tables: &Arc<Tables>, id: &str) {
    let cluster = &tables.deps.cluster;
    if cluster.draining() || tables.get(id).is_some() {
        return;
    }
    let asked = cluster.now();
    match tables.deps.store.claim_table(id).await {
        Ok(Some((row, epoch))) => {
            cluster.counters.leases_claimed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Err(e) = load(tables, row, epoch, asked).await {
                tracing::error!(table = %id, error = %e, "the table is not resumed");
                let _ = tables.deps.store.release(id, epoch).await;
            }
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(table = %id, error = %e, "a table handed to this node cannot be claimed"),
    }
}

/// One round of rebalancing (see [`crate::cluster::drain`]): this node's part of the plan that
/// evens out the members' loads, each table asked to go to its taker (it goes if idle); how
/// many were asked.
pub async fn rebalance(tables: &Arc<Tables>) -> usize {
    let cluster = &tables.deps.cluster;
    let members = cluster.members();
    let me = tables.deps.store.node().to_string();
    if cluster.draining() || members.len() < 2 || !members.contains(&me) || !cluster.has_bus() {
        return 0;
    }
    let running: Vec<(String, TableHandle)> = tables
        .deps
        .running
        .lock()
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    // The members' loads as the heartbeat saw them, this node's own as it is now.
    let heard: HashMap<String, u64> = cluster.loads().into_iter().collect();
    let loads: Vec<(String, u64)> = members
        .iter()
        .map(|m| {
            let n = if *m == me { running.len() as u64 } else { heard.get(m).copied().unwrap_or(0) };
            (m.clone(), n)
        })
        .collect();
    let mine: Vec<String> = crate::cluster::drain::plan(&loads)
        .into_iter()
        .filter(|(from, _)| *from == me)
        .map(|(_, to)| to)
        .take(crate::cluster::drain::REBALANCE_BATCH)
        .collect();
    if mine.is_empty() {
        return 0;
    }
    // The tables that have waited longest for a move first would be better; any order is
    // correct: a table that is not idle refuses, and the next round tries again.
    let mut asked = 0;
    for ((_, handle), to) in running.iter().zip(mine) {
        if handle.send(Cmd::HandOff { to }).await.is_ok() {
            asked += 1;
        }
    }
    asked
}

/// Renews the node's leases, extends the terms of the tables it still holds and stops those it
/// lost.
pub async fn renew(tables: &Arc<Tables>) -> Result<(), StoreError> {
    // The tables running before the renewal began: one started later may hold a lease the
    // renewal did not see.
    let running: Vec<(String, TableHandle)> = tables
        .deps
        .running
        .lock()
        .map(|t| t.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    let asked = tables.deps.cluster.now();
    match tables.deps.store.renew_leases().await? {
        Held::Every => {}
        Held::Only(held) => {
            let end = tables.deps.cluster.term_end(asked);
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
    tables: &Arc<Tables>,
    published: &mut HashMap<String, String>,
) -> Result<(), StoreError> {
    let handles: Vec<(String, TableHandle)> = tables
        .deps
        .running
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
    tables.deps.store.put_summaries(&rows).await?;
    published.retain(|id, _| handles.iter().any(|(h, _)| h == id));
    published.extend(rows);
    Ok(())
}

/// The lobby's summaries of every table: this node's own, and the others' as stored.
pub async fn all_summaries(tables: &Arc<Tables>) -> Vec<wire::TableSummary> {
    let handles: Vec<TableHandle> =
        tables.deps.running.lock().map(|t| t.values().cloned().collect()).unwrap_or_default();
    let mut list: Vec<wire::TableSummary> =
        handles.iter().filter_map(|h| h.summary.read().ok().map(|s| s.clone())).collect();
    let stored = tables.deps.store.summaries().await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "the other nodes' tables cannot be listed");
        Vec::new()
    });
    for text in stored {
        if let Ok(s) = serde_json::from_str::<wire::TableSummary>(&text)
            && !list.iter().any(|l| l.id == s.id)
        {
            list.push(s);
        }
    }
    list
}

/// The node's background work, until the server is dropped: renew the leases every third of
/// their length, and claim orphaned tables (again at once while batches come back full).
pub fn spawn_upkeep(tables: &Arc<Tables>) {
    // A SQLite store is one node's: it holds every table, so there is nothing to renew, publish
    // or claim (storing 1,000 tables' summaries every few seconds cost the single node its p99).
    if tables.deps.store.backend() == "sqlite" {
        return;
    }
    let weak: Weak<Tables> = Arc::downgrade(tables);
    let period = tables.deps.cluster.lease() / 3;
    tokio::spawn(async move {
        let mut renewed = tokio::time::Instant::now();
        let mut published: HashMap<String, String> = HashMap::new();
        let mut waiting: HashMap<String, Instant> = HashMap::new();
        let mut rebalanced = tokio::time::Instant::now();
        loop {
            let Some(tables) = weak.upgrade() else { break };
            tables.deps.cluster.tick();
            let mut pause = period;
            if renewed.elapsed() >= period {
                renewed = tokio::time::Instant::now();
                if let Err(e) = renew(&tables).await {
                    tracing::error!(error = %e, "the leases cannot be renewed");
                }
                if let Err(e) = publish_summaries(&tables, &mut published).await {
                    tracing::warn!(error = %e, "the lobby's summaries cannot be stored");
                }
            }
            if let Err(e) = tables.deps.cluster.check_remote(tables.deps.store.as_ref()).await {
                tracing::warn!(error = %e, "the tables of connections on other nodes cannot be checked");
            }
            match claim_share(&tables, &mut waiting).await {
                Ok(n) if n as u32 == CLAIM_BATCH => pause = Duration::from_millis(200),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "orphaned tables cannot be claimed"),
            }
            if rebalanced.elapsed() >= crate::cluster::drain::REBALANCE_EVERY {
                rebalanced = tokio::time::Instant::now();
                let n = rebalance(&tables).await;
                if n > 0 {
                    tracing::info!(tables = n, "tables asked to go to less loaded nodes");
                }
            }
            drop(tables);
            tokio::time::sleep(pause.min(period.saturating_sub(renewed.elapsed()))).await;
        }
    });
}
