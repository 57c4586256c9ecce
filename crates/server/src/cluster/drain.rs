//! A node leaving in good order, sharing the tables out, and what it counts.
//!
//! - *Draining* (`SIGTERM`, `SIGINT`): the node claims no table from then on and hands off those
//!   it runs: each table's task stops between two steps (its writes done), the node gives up its
//!   lease at once so that another node claims it on its next tick rather than after the lease
//!   ran out, and its connections are told the table moved (they enter it again wherever it
//!   runs); at the end the node closes its connections, which reconnect through the balancer.
//! - *Sharing out* orphaned tables: each node hears, at its heartbeat, which nodes are members
//!   (`crate::store::Leases::beat`), and claims of the orphans those that rendezvous hashing
//!   gives to it (the member with the highest hash of its name and the table's id), so that
//!   the orphans of a dead or drained node spread over the survivors in proportion instead of
//!   going to whichever ticks first. An orphan nobody claimed for a lease (the nodes' views of the
//!   members differ) is claimed by any node.

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
    pub fn heard_beat(&self, beat: &crate::store::Beat, sent: std::time::Instant) {
        // The answer was made between the sending and now: the middle is the best guess.
        let mid = sent + sent.elapsed() / 2;
        if let Ok(mut c) = self.db_clock.lock() {
            *c = Some((beat.now_ms, mid));
        }
        if let Ok(mut m) = self.members.lock() {
            m.clone_from(&beat.members);
        }
    }

    /// Now by the database's clock (milliseconds since the Unix epoch), counted from the last
    /// heartbeat on the node's monotonic clock, so that a node whose wall clock is set wrong
    /// still agrees with the others; before the first heartbeat, the node's own clock.
    pub fn db_now_ms(&self) -> i64 {
        match self.db_clock.lock().ok().and_then(|c| *c) {
            Some((at, when)) => at.saturating_add(when.elapsed().as_millis() as i64),
            None => crate::ids::now_ms(),
        }
    }

    /// The members heard at the last heartbeat.
    pub fn members(&self) -> Vec<String> {
        self.members.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Whether this node's bus carries messages to it: with Redis, a message on the node's own
    /// channel is heard by at least one subscriber (the node itself); with PostgreSQL, whose
    /// `NOTIFY` cannot tell, the message is sent. `Ok` for a node without a bus.
    pub async fn bus_ready(&self, node: &str) -> Result<(), String> {
        let Some(bus) = self.bus() else { return Ok(()) };
        // A "moved" for no connection: heard and dropped.
        let probe = super::BusMsg::Moved { conn: 0, table: String::new(), attach: 0, epoch: 0 };
        let text = serde_json::to_string(&probe).map_err(|e| e.to_string())?;
        match bus.publish(&super::node_channel(node), &text).await {
            Ok(Some(0)) => Err("the bus does not carry the node's own channel to it".into()),
            Ok(_) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }
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
}
