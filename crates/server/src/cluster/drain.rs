//! A node leaving in good order, sharing the tables out, and what it counts.
//!
//! - *Draining* (`SIGTERM`, `SIGINT`): the node claims no table from then on and hands off those
//!   it runs: each table's task stops between two steps (its writes done), the node gives up its
//!   lease at once and asks the member rendezvous hashing gives the table to among the others to
//!   claim it now (else a node claims it on its next tick rather than after the lease ran out),
//!   and its connections are told the table moved (they enter it again wherever it runs); at the
//!   end the node tells those still at a table `moved` and closes its connections, which
//!   reconnect through the balancer.
//! - *Sharing out* orphaned tables: each node hears, at its heartbeat, which nodes are members
//!   (`crate::store::Leases::beat`), and claims of the orphans those that rendezvous hashing
//!   gives to it (the member with the highest hash of its name and the table's id), so that
//!   the orphans of a dead or drained node spread over the survivors in proportion instead of
//!   going to whichever ticks first. An orphan nobody claimed for a lease (the nodes' views of the
//!   members differ) is claimed by any node.
//! - *Rebalancing*: the heartbeat also tells each node how many tables every member holds
//!   (live leases, [`crate::store::Beat::loads`]). Every [`REBALANCE_EVERY`], should a member
//!   hold more than a fifth (at least one table) above the mean or below it, each node works out
//!   the same plan ([`plan`]: one table at a time from the most loaded member to the least,
//!   until they differ by at most one) and carries out its own part: it asks up to
//!   [`REBALANCE_BATCH`] of its tables to go, each to the member the plan names. A table goes
//!   only when it is *idle*: its task is between two steps (every write of the last one done),
//!   the commands already queued for it have been carried out (a move on its way is played
//!   here, not lost), and no bot's decision or rematch is under way; a table that is not idle
//!   stays, and the next round may pick it. It goes as a drain hands a table off: its lease is
//!   given up, the taker is asked on the bus to claim it at once (`BusMsg::Take`), the task
//!   stops and its connections enter the table again where it now runs (a fresh `sync`, on
//!   the same connection: the client sees nothing else). The node does not claim a table it
//!   handed off for [`super::HANDED_FOR`] leases.

use std::sync::atomic::{AtomicU64, Ordering};

use super::Cluster;

/// Monotonic counts of what the node did, exported at `/metrics`.
#[derive(Debug, Default)]
pub struct Counters {
    /// Moves (`act`) stored and carried out.
    pub moves: AtomicU64,
    /// Steps whose writes the store refused with an error other than fencing.
    pub storage_errors: AtomicU64,
    /// Messages the bus failed to send.
    pub bus_errors: AtomicU64,
    /// Leases this node claimed (orphans, or tables asked for).
    pub leases_claimed: AtomicU64,
    /// Tables this node handed off while draining.
    pub handed_off: AtomicU64,
    /// Tables this node handed to another member to even out the load.
    pub rebalanced: AtomicU64,
    /// Messages and chat lines refused for the rate limit.
    pub rate_limited: AtomicU64,
    /// Bots' decisions waiting for a thread now.
    pub bot_jobs_waiting: AtomicU64,
    /// Bots' decisions that got a thread.
    pub bot_jobs: AtomicU64,
    /// How long they waited for it in all, microseconds.
    pub bot_wait_us: AtomicU64,
    /// The move→broadcast latency: counts per bucket of [`LATENCY_BUCKETS_MS`] (the last:
    /// beyond every bucket), and the sum in microseconds.
    pub latency: [AtomicU64; LATENCY_BUCKETS_MS.len() + 1],
    /// The sum of the latencies, microseconds.
    pub latency_sum_us: AtomicU64,
}

/// The database's clock as the last heartbeat read it (`db_ms`), and when that heartbeat was
/// sent and its answer came, by the node's clock ([`Cluster::now`]).
#[derive(Clone, Copy, Debug)]
pub struct DbClock {
    /// The database's clock, milliseconds since the Unix epoch.
    pub db_ms: i64,
    /// When the heartbeat was sent.
    pub sent: tokio::time::Instant,
    /// When its answer came.
    pub came: tokio::time::Instant,
}

impl DbClock {
    /// The database's clock at `at`, had it read `db_ms` at `read`.
    fn at(&self, at: tokio::time::Instant, read: tokio::time::Instant) -> i64 {
        if at >= read {
            self.db_ms.saturating_add(at.duration_since(read).as_millis() as i64)
        } else {
            self.db_ms.saturating_sub(read.duration_since(at).as_millis() as i64)
        }
    }
}

/// The upper bounds (milliseconds) of the move→broadcast latency histogram's buckets.
pub const LATENCY_BUCKETS_MS: [f64; 10] = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0];

impl Counters {
    /// One move took `took` from its arrival at the table to its messages being sent.
    pub fn observe_move(&self, took: std::time::Duration) {
        let ms = took.as_secs_f64() * 1000.0;
        let i = LATENCY_BUCKETS_MS.iter().position(|b| ms <= *b).unwrap_or(LATENCY_BUCKETS_MS.len());
        self.latency[i].fetch_add(1, Ordering::Relaxed);
        self.latency_sum_us.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
        self.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// The member that should run `table` among `members`: the one with the highest hash of its
/// name and the table's id (rendezvous hashing), so that when a member leaves only its tables
/// move, spread evenly over the rest. `None` when there are no members.
pub fn rendezvous<'a>(table: &str, members: &'a [String]) -> Option<&'a str> {
    members.iter().max_by_key(|m| (weight(m, table), m.as_str())).map(|m| m.as_str())
}

/// How often a node looks at the members' loads and evens them out.
pub const REBALANCE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// The most tables a node hands off in one round of rebalancing.
pub const REBALANCE_BATCH: usize = 16;

/// Whether the members' table counts (`loads`: each member's count) call for a rebalance: one
/// of them lies more than a fifth of the mean (and at least one table) above or below it.
pub fn unbalanced(loads: &[(String, u64)]) -> bool {
    if loads.len() < 2 {
        return false;
    }
    let total: u64 = loads.iter().map(|l| l.1).sum();
    let mean = total as f64 / loads.len() as f64;
    let slack = (mean / 5.0).max(1.0);
    loads.iter().any(|l| (l.1 as f64 - mean).abs() > slack)
}

/// The moves `(from, to)` that even out the members' table counts, when they call for it
/// ([`unbalanced`]): one table at a time from the most loaded member to the least loaded (ties
/// by name, so that every node works out the same plan), until no two differ by more than one.
pub fn plan(loads: &[(String, u64)]) -> Vec<(String, String)> {
    if !unbalanced(loads) {
        return Vec::new();
    }
    let mut l: Vec<(String, u64)> = loads.to_vec();
    l.sort();
    let mut moves = Vec::new();
    loop {
        // The first most loaded and the first least loaded, by name.
        let hi = (0..l.len()).fold(0, |b, i| if l[i].1 > l[b].1 { i } else { b });
        let lo = (0..l.len()).fold(0, |b, i| if l[i].1 < l[b].1 { i } else { b });
        if l[hi].1 <= l[lo].1 + 1 {
            break;
        }
        l[hi].1 -= 1;
        l[lo].1 += 1;
        moves.push((l[hi].0.clone(), l[lo].0.clone()));
    }
    moves
}

/// A stable 64-bit hash of a member and a table (FNV-1a, then a final mix so that nearby
/// inputs spread): the same in every build, so nodes of two versions agree.
fn weight(member: &str, table: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in member.bytes().chain([0u8]).chain(table.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl Cluster {
    /// The node begins to drain: it claims nothing more (see the module's text).
    pub fn drain_begin(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// Whether the node drains.
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Tells the node's connections to close (the last step of a drain).
    pub fn close_connections(&self) {
        let _ = self.closing.send(true);
    }

    /// Hears when the node's connections must close.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Keeps what a heartbeat answered: the database's clock (read now by
    /// [`Cluster::db_now_ms`]) and the members.
    /// `sent` is when the heartbeat was sent, by the node's clock ([`Cluster::now`]).
    pub fn heard_beat(&self, beat: &crate::store::Beat, sent: tokio::time::Instant) {
        // The database read its clock between the sending and the answer's coming: no later
        // than the latest the node reckons possible now, unless the node's clocks stood still.
        let came = self.now();
        let before = self.skipped();
        self.db_clock_says(beat.now_ms, came);
        // Moved on by what the node just found it had missed, if anything.
        let jump = self.skipped().saturating_sub(before);
        let (sent, came) = (sent + jump, came + jump);
        if let Ok(mut c) = self.db_clock.lock() {
            *c = Some(DbClock { db_ms: beat.now_ms, sent, came });
        }
        if let Ok(mut m) = self.members.lock() {
            m.clone_from(&beat.members);
        }
        if let Ok(mut l) = self.loads.lock() {
            l.clone_from(&beat.loads);
        }
    }

    /// How many tables each member held at the last heartbeat (a member holding none is left
    /// out).
    pub fn loads(&self) -> Vec<(String, u64)> {
        self.loads.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// Notes that this node handed `table` to another to even out the load.
    pub fn handed(&self, table: &str) {
        if let Ok(mut h) = self.handed_at.lock() {
            let keep = self.lease() * super::HANDED_FOR;
            h.retain(|_, at| at.elapsed() < keep);
            h.insert(table.to_string(), std::time::Instant::now());
        }
    }

    /// Whether this node handed `table` to another lately (it does not claim it back).
    pub fn handed_lately(&self, table: &str) -> bool {
        let keep = self.lease() * super::HANDED_FOR;
        self.handed_at.lock().is_ok_and(|h| h.get(table).is_some_and(|at| at.elapsed() < keep))
    }

    /// Asks node `to` on the bus to claim `table` at once (its lease has just been given up).
    pub async fn ask_to_take(&self, to: &str, table: &str) {
        self.publish(&super::node_channel(to), &super::BusMsg::Take { table: table.to_string() }).await;
    }

    /// Now by the database's clock (milliseconds since the Unix epoch), counted from the last
    /// heartbeat on the node's monotonic clock, so that a node whose wall clock is set wrong
    /// still agrees with the others; before the first heartbeat, the node's own clock.
    pub fn db_now_ms(&self) -> i64 {
        self.db_ms_at(self.now()).unwrap_or_else(crate::ids::now_ms)
    }

    /// What the node reckons the database's clock showed when its own clock showed `at`
    /// (`None` before the first heartbeat).
    pub fn db_ms_at(&self, at: tokio::time::Instant) -> Option<i64> {
        let c = self.db_clock.lock().ok().and_then(|c| *c)?;
        // The answer was made between the sending and its coming: the middle is the best guess.
        Some(c.at(at, c.sent + c.came.saturating_duration_since(c.sent) / 2))
    }

    /// The earliest and the latest the database's clock can have shown when the node's clock
    /// showed `at` (`None` before the first heartbeat): it read its clock for the last
    /// heartbeat at some moment between the sending and the answer's coming.
    pub fn db_ms_bounds(&self, at: tokio::time::Instant) -> Option<(i64, i64)> {
        let c = self.db_clock.lock().ok().and_then(|c| *c)?;
        Some((c.at(at, c.came), c.at(at, c.sent)))
    }

    /// Whether the node has heard the database's clock (a heartbeat answered).
    pub fn db_clock_known(&self) -> bool {
        self.db_clock.lock().is_ok_and(|c| c.is_some())
    }

    /// The members heard at the last heartbeat.
    pub fn members(&self) -> Vec<String> {
        self.members.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Whether this node's bus carries messages to it: with Redis, a message on the node's own
    /// channel is heard by at least one subscriber (the node itself); with PostgreSQL, whose
    /// `NOTIFY` cannot tell, the message is sent. `Ok` for a node without a bus.
    pub async fn bus_ready(&self, node: &str) -> Result<(), BusNotReady> {
        let Some(bus) = self.bus() else { return Ok(()) };
        // A "moved" for no connection: heard and dropped.
        let probe =
            super::BusMsg::Moved { conn: 0, table: String::new(), attach: 0, epoch: 0, from: String::new() };
        let text = serde_json::to_string(&probe)?;
        match bus.publish(&super::node_channel(node), &text).await? {
            Some(0) => Err(BusNotReady::Unheard),
            _ => Ok(()),
        }
    }
}

/// Why a node's bus does not carry messages to it ([`Cluster::bus_ready`]).
#[derive(Debug, thiserror::Error)]
pub enum BusNotReady {
    /// The probe could not be written as JSON.
    #[error("the bus's probe: {0}")]
    Probe(#[from] serde_json::Error),
    /// The bus refused the probe, or cannot be reached.
    #[error(transparent)]
    Bus(#[from] super::bus::BusError),
    /// The probe was sent, and no subscriber heard it: not even the node itself.
    #[error("the bus does not carry the node's own channel to it")]
    Unheard,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendezvous_spreads_tables_and_moves_only_the_leavers() {
        let three: Vec<String> = ["n-a", "n-b", "n-c"].iter().map(|s| s.to_string()).collect();
        let ids: Vec<String> = (0..3000).map(|i| format!("t{i:05}")).collect();
        let mut counts = [0usize; 3];
        for id in &ids {
            let owner = rendezvous(id, &three).unwrap();
            counts[three.iter().position(|m| m == owner).unwrap()] += 1;
        }
        for c in counts {
            assert!((900..=1100).contains(&c), "an even share of 3000 over 3: {counts:?}");
        }
        // n-b leaves: only its tables move, and they spread over both others.
        let two: Vec<String> = vec!["n-a".into(), "n-c".into()];
        let mut moved_to = [0usize; 2];
        for id in &ids {
            let before = rendezvous(id, &three).unwrap();
            let after = rendezvous(id, &two).unwrap();
            if before != "n-b" {
                assert_eq!(before, after, "{id} stays where it was");
            } else {
                moved_to[two.iter().position(|m| m == after).unwrap()] += 1;
            }
        }
        assert!(moved_to.iter().all(|n| *n > 400), "the leaver's tables spread: {moved_to:?}");
        assert_eq!(rendezvous("t1", &[]), None);
    }

    fn loads(counts: &[u64]) -> Vec<(String, u64)> {
        counts.iter().enumerate().map(|(i, c)| (format!("n-{i}"), *c)).collect()
    }

    /// Carries a plan out on the counts.
    fn after(counts: &[u64]) -> Vec<u64> {
        let mut l = loads(counts);
        for (from, to) in plan(&l) {
            l.iter_mut().find(|x| x.0 == from).unwrap().1 -= 1;
            l.iter_mut().find(|x| x.0 == to).unwrap().1 += 1;
        }
        l.into_iter().map(|x| x.1).collect()
    }

    #[test]
    fn a_plan_evens_out_the_loads_only_when_one_is_a_fifth_off_the_mean() {
        assert_eq!(after(&[30, 0, 0]), vec![10, 10, 10]);
        assert_eq!(after(&[0, 0, 31]), vec![10, 10, 11]);
        assert_eq!(plan(&loads(&[30, 0, 0])).len(), 20);
        // Within a fifth of the mean (8..=12 for 10): nothing moves.
        assert!(plan(&loads(&[12, 10, 8])).is_empty());
        assert!(plan(&loads(&[11, 10, 9])).is_empty());
        // 13 is more than a fifth above 10: the plan evens everything out.
        assert_eq!(after(&[13, 10, 7]), vec![10, 10, 10]);
        // Small counts: a table's difference is always allowed.
        assert!(plan(&loads(&[2, 1, 1])).is_empty());
        assert!(plan(&loads(&[1, 0])).is_empty());
        assert_eq!(after(&[3, 0]), vec![2, 1]);
        // One member, or none: nothing to do.
        assert!(plan(&loads(&[40])).is_empty());
        assert!(plan(&[]).is_empty());
        // Every node works out the same plan, whatever order it lists the members in.
        let mut shuffled = loads(&[5, 25, 0]);
        shuffled.reverse();
        assert_eq!(plan(&shuffled), plan(&loads(&[5, 25, 0])));
    }
}
