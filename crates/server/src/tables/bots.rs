//! The bots' threads: every bot decision of the tables this node runs (a bot's move, the hidden
//! polls a bot answers, a hint) runs here, never on the async workers nor on the runtime's
//! blocking threads (where replays and other slow requests run), and password hashes and
//! analyses never run here.
//!
//! Two pools ([`crate::pool::FairPool`]): the built-in bots compute on a few threads (one per
//! core by default), and the operator's external bots, whose decisions mostly wait for another
//! process (within the bot's time limit, `docs/bot-protocol.md`), wait on threads of their own,
//! so a slow external bot never holds a thread the built-in bots need. Each pool serves its
//! queue in turns: first between the addresses the tables were made from, then between the
//! tables' hosts at one address ([`Owner`]). One address with 200 tables of `expert` bots waits
//! behind its own decisions; another table's bot gets every other turn.
//!
//! Tables of bots only (every seat a bot) are bounded per host and per address
//! ([`BotLimits`]), counted among the tables this node runs.

use std::net::IpAddr;

use crate::pool::FairPool;

/// Logs an external bot's failed decision (played as the first legal action): the table core
/// reports it here ([`table::bots::on_fallback`]), for the operator's log.
pub fn log_fallback(name: &str, f: &ai::ext::Fallbacks) {
    tracing::warn!(
        bot = name,
        illegal = f.illegal,
        malformed = f.malformed,
        timeouts = f.timeouts,
        crashes = f.crashes,
        "an external bot failed a decision; the first legal action was played"
    );
}

/// Makes `bots` the operator's external bots at this node's tables
/// ([`table::bots::set_external_bots`]), their failed decisions logged ([`log_fallback`]).
pub fn set_external_bots(bots: Vec<ai::ext::OperatorBot>) {
    table::bots::on_fallback(log_fallback);
    table::bots::set_external_bots(bots);
}

/// The bots' threads and the bounds on tables of bots only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BotLimits {
    /// Threads the built-in bots compute on (0: one per core, as the system reports them).
    pub threads: usize,
    /// Threads external bots' decisions wait on (each waits at most the bot's time limit).
    pub external_threads: usize,
    /// Unfinished tables of bots only one guest may host at once.
    pub tables_per_guest: usize,
    /// Unfinished tables of bots only the guests of one address may host at once.
    pub tables_per_ip: usize,
}

impl Default for BotLimits {
    fn default() -> Self {
        BotLimits { threads: 0, external_threads: 16, tables_per_guest: 4, tables_per_ip: 16 }
    }
}

/// Whose turn a table's bot decisions take: the address the table was made from (or, for a
/// table resumed from the database, whose address is not kept, its host) and its host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    /// The address, or `host GUEST` when it is not known.
    pub group: String,
    /// The host (or the table, when it has none).
    pub member: String,
}

impl Owner {
    /// The owner of table `table` hosted by `host`, made from `origin`.
    pub fn new(origin: Option<IpAddr>, host: Option<&str>, table: &str) -> Owner {
        let member = host.unwrap_or(table).to_string();
        let group = match origin {
            Some(ip) => ip.to_string(),
            None => format!("host {member}"),
        };
        Owner { group, member }
    }
}

/// The two pools of the bots' threads.
pub struct Bots {
    /// The built-in bots' computations.
    pub compute: FairPool<String, String>,
    /// The external bots' decisions.
    pub external: FairPool<String, String>,
    limits: BotLimits,
}

impl Bots {
    /// Starts the threads.
    pub fn new(limits: BotLimits) -> std::io::Result<Bots> {
        let threads = match limits.threads {
            0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
            n => n,
        };
        Ok(Bots {
            compute: FairPool::new("yezi-bots", threads, || {})?,
            external: FairPool::new("yezi-ext-bots", limits.external_threads.max(1), || {})?,
            limits,
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> &BotLimits {
        &self.limits
    }

    /// Runs `job` in its owner's turn, on the pool its kind of bot uses.
    pub fn spawn(&self, owner: &Owner, external: bool, job: impl FnOnce() + Send + 'static) {
        let pool = if external { &self.external } else { &self.compute };
        pool.spawn(owner.group.clone(), owner.member.clone(), job);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_owned_by_its_address_and_host() {
        let ip: IpAddr = "10.0.0.7".parse().unwrap();
        assert_eq!(
            Owner::new(Some(ip), Some("g1"), "t1"),
            Owner { group: "10.0.0.7".into(), member: "g1".into() }
        );
        // Not known (a table resumed from the database): its host stands for its address.
        assert_eq!(
            Owner::new(None, Some("g1"), "t1"),
            Owner { group: "host g1".into(), member: "g1".into() }
        );
        assert_eq!(Owner::new(None, None, "t1"), Owner { group: "host t1".into(), member: "t1".into() });
    }
}
