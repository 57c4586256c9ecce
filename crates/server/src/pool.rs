//! Fair shares of the server's threads: a queue served round-robin between addresses, and
//! within an address between owners ([`FairQueue`]), and a bounded set of threads of their own
//! that run closures taken from it ([`FairPool`]).
//!
//! The server keeps apart the work that may take a thread for long: the bots' decisions (one
//! pool for the built-in bots, which compute, and one for the operator's external bots, which
//! mostly wait on another process within their time limit), the password hashes (a pool of
//! their own, whose threads keep their hashing memory: `crate::api::accounts`), and the
//! analyses (`crate::analysis`, whose queue is a [`FairQueue`] too). One address that asks for
//! much of a pool's work gets its turn like any other address, so it waits behind its own work,
//! not others behind it: an address with 200 tables of bots and an address with one table each
//! get every other turn of the bots' threads.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// A group's members with something queued, each with its items, the next to be served first.
type Members<M, T> = VecDeque<(M, VecDeque<T>)>;

/// Items queued by (group, member): [`FairQueue::pop`] takes the groups in turn, within a group
/// its members in turn, and a member's items first in, first out. A group is an address (or
/// whatever stands for one), a member an owner at that address (a table's host, a guest).
pub struct FairQueue<G, M, T> {
    /// The groups with something queued, the next to be served first.
    groups: VecDeque<(G, Members<M, T>)>,
    len: usize,
}

impl<G: PartialEq, M: PartialEq, T> Default for FairQueue<G, M, T> {
    fn default() -> Self {
        FairQueue { groups: VecDeque::new(), len: 0 }
    }
}

impl<G: PartialEq, M: PartialEq, T> FairQueue<G, M, T> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Items queued.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Items queued by `group`.
    pub fn group_len(&self, group: &G) -> usize {
        self.groups
            .iter()
            .find(|(g, _)| g == group)
            .map_or(0, |(_, members)| members.iter().map(|(_, items)| items.len()).sum())
    }

    /// Queues `item` for `member` of `group`, after that member's earlier items. A group or
    /// member that had nothing queued joins the end of its round.
    pub fn push(&mut self, group: G, member: M, item: T) {
        self.len += 1;
        let members = match self.groups.iter().position(|(g, _)| *g == group) {
            Some(i) => &mut self.groups[i].1,
            None => {
                self.groups.push_back((group, VecDeque::new()));
                let last = self.groups.len() - 1;
                &mut self.groups[last].1
            }
        };
        match members.iter().position(|(m, _)| *m == member) {
            Some(i) => members[i].1.push_back(item),
            None => members.push_back((member, VecDeque::from([item]))),
        }
    }

    /// The next item: the first of the next member of the next group; that member and that
    /// group then go to the end of their rounds (or leave them, with nothing more queued).
    pub fn pop(&mut self) -> Option<T> {
        let (group, mut members) = self.groups.pop_front()?;
        let (member, mut items) = members.pop_front()?;
        let item = items.pop_front();
        if !items.is_empty() {
            members.push_back((member, items));
        }
        if !members.is_empty() {
            self.groups.push_back((group, members));
        }
        if item.is_some() {
            self.len -= 1;
        }
        item
    }

    /// How many items [`FairQueue::pop`] gives before the first one `wanted` picks, if one
    /// does (the queue left as it is).
    pub fn position(&self, wanted: impl Fn(&T) -> bool) -> Option<usize> {
        // The pops simulated on indices: (group, member, next item) in the queue's order.
        let mut groups: VecDeque<VecDeque<(usize, usize, usize)>> = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, (_, members))| (0..members.len()).map(|m| (g, m, 0)).collect())
            .collect();
        let mut n = 0;
        while let Some(mut members) = groups.pop_front() {
            let Some((g, m, i)) = members.pop_front() else { continue };
            let items = &self.groups[g].1[m].1;
            if wanted(&items[i]) {
                return Some(n);
            }
            n += 1;
            if i + 1 < items.len() {
                members.push_back((g, m, i + 1));
            }
            if !members.is_empty() {
                groups.push_back(members);
            }
        }
        None
    }
}

/// A closure run by a pool's thread.
pub type Task = Box<dyn FnOnce() + Send>;

struct Shared<G, M> {
    queue: Mutex<Queue<G, M>>,
    wake: Condvar,
}

struct Queue<G, M> {
    tasks: FairQueue<G, M, Task>,
    running: usize,
    closed: bool,
}

/// A bounded set of threads of their own running closures from a [`FairQueue`]: at most
/// `threads` run at once, the others wait their turn. When the pool is dropped, its threads
/// finish what is queued and end.
pub struct FairPool<G, M> {
    shared: Arc<Shared<G, M>>,
    threads: usize,
}

impl<G, M> FairPool<G, M>
where
    G: PartialEq + Send + 'static,
    M: PartialEq + Send + 'static,
{
    /// A pool of `threads` threads (at least one) named `name-K`; each runs `setup` once when
    /// it starts (its priority, say). Fails when the system cannot start a thread.
    pub fn new(
        name: &str,
        threads: usize,
        setup: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<FairPool<G, M>> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { tasks: FairQueue::new(), running: 0, closed: false }),
            wake: Condvar::new(),
        });
        let setup = Arc::new(setup);
        for k in 0..threads {
            let (shared, setup) = (shared.clone(), setup.clone());
            std::thread::Builder::new().name(format!("{name}-{k}")).spawn(move || {
                setup();
                work(&shared);
            })?;
        }
        Ok(FairPool { shared, threads })
    }

    /// Queues `task` for `member` of `group`; it runs when its turn comes.
    pub fn spawn(&self, group: G, member: M, task: impl FnOnce() + Send + 'static) {
        let mut q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        q.tasks.push(group, member, Box::new(task));
        drop(q);
        self.shared.wake.notify_one();
    }

    /// Runs `f` in its turn on one of the pool's threads, and gives its result (`None` if the
    /// closure panicked or the pool ended first).
    pub async fn run<T: Send + 'static>(
        &self,
        group: G,
        member: M,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.spawn(group, member, move || {
            let _ = tx.send(f());
        });
        rx.await.ok()
    }

    /// The pool's threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Closures queued (not yet begun) and running now.
    pub fn load(&self) -> (usize, usize) {
        let q = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        (q.tasks.len(), q.running)
    }
}

impl<G, M> Drop for FairPool<G, M> {
    fn drop(&mut self) {
        self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner).closed = true;
        self.shared.wake.notify_all();
    }
}

/// A pool thread: takes the next closure in turn and runs it, until the pool is dropped and
/// nothing is queued.
fn work<G: PartialEq, M: PartialEq>(shared: &Shared<G, M>) {
    loop {
        let task = {
            let mut q = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                if let Some(t) = q.tasks.pop() {
                    q.running += 1;
                    break t;
                }
                if q.closed {
                    return;
                }
                q = shared.wake.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        // A closure that panics ends itself, not the thread (what it would have sent is
        // dropped, and its waiter hears so).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
        shared.queue.lock().unwrap_or_else(PoisonError::into_inner).running -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// The order a plain first-in-first-out queue would give is not this one: an owner with
    /// many items queued first does not keep another owner's one item waiting behind them all.
    #[test]
    fn members_of_a_group_take_turns() {
        let mut q = FairQueue::new();
        for i in 0..20 {
            q.push("1.2.3.4", "busy", format!("busy {i}"));
        }
        q.push("1.2.3.4", "quiet", "quiet".to_string());
        assert_eq!(q.len(), 21);
        assert_eq!(q.position(|t| t == "quiet"), Some(1));
        let order: Vec<String> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order[0], "busy 0");
        assert_eq!(order[1], "quiet", "the quiet owner's item comes second, not 21st: {order:?}");
        let busy: Vec<usize> =
            order.iter().filter_map(|t| t.strip_prefix("busy ")).map(|n| n.parse().unwrap()).collect();
        assert_eq!(busy, (0..20).collect::<Vec<_>>(), "each owner's own items in their order");
        assert!(q.is_empty());
    }

    /// Ten owners at one address, twenty items each, do not outweigh one owner at another
    /// address: the addresses take turns first.
    #[test]
    fn groups_take_turns_before_their_members() {
        let mut q = FairQueue::new();
        for owner in 0..10 {
            for i in 0..20 {
                q.push("attacker", owner, (owner, i));
            }
        }
        q.push("victim", 99, (99, 0));
        q.push("victim", 99, (99, 1));
        assert_eq!(q.group_len(&"attacker"), 200);
        assert_eq!(q.group_len(&"victim"), 2);
        assert_eq!(q.position(|t| *t == (99, 1)), Some(3));
        let order: Vec<(i32, i32)> = std::iter::from_fn(|| q.pop()).collect();
        let victim: Vec<usize> =
            order.iter().enumerate().filter(|(_, t)| t.0 == 99).map(|(k, _)| k).collect();
        assert_eq!(victim, vec![1, 3], "every other turn is the victim's while it has work");
        // The attacker's owners took turns among themselves.
        let firsts: Vec<i32> = order.iter().filter(|t| t.0 != 99).take(10).map(|t| t.0).collect();
        assert_eq!(firsts, (0..10).collect::<Vec<_>>());
        assert_eq!(order.len(), 202);
    }

    /// The pool's threads run the queued closures in the queue's turns: with its one thread
    /// held up, 20 closures of one owner then one of another owner at another address, the
    /// other owner's runs second.
    #[test]
    fn a_pool_runs_in_turns_on_its_own_threads() {
        let pool: FairPool<&'static str, u32> = FairPool::new("test-pool", 1, || {}).unwrap();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (order_tx, order_rx) = mpsc::channel::<(u32, String)>();
        pool.spawn("a", 0, move || {
            let _ = gate_rx.recv();
        });
        // Wait until the gate runs (the queue is then empty).
        while pool.load() != (0, 1) {
            std::thread::sleep(Duration::from_millis(1));
        }
        for i in 0..20 {
            let tx = order_tx.clone();
            pool.spawn("a", 1, move || {
                let name = std::thread::current().name().unwrap_or("").to_string();
                let _ = tx.send((i, name));
            });
        }
        let tx = order_tx.clone();
        pool.spawn("b", 2, move || {
            let _ = tx.send((100, std::thread::current().name().unwrap_or("").to_string()));
        });
        assert_eq!(pool.load(), (21, 1));
        gate_tx.send(()).unwrap();
        let got: Vec<(u32, String)> =
            (0..21).map(|_| order_rx.recv_timeout(Duration::from_secs(10)).unwrap()).collect();
        assert_eq!(got[0].0, 0);
        assert_eq!(got[1].0, 100, "{got:?}");
        assert!(got.iter().all(|(_, name)| name == "test-pool-0"), "on the pool's own thread");
    }

    /// A closure that panics does not end its thread; `run` answers `None` for it.
    #[tokio::test]
    async fn a_panic_ends_only_its_closure() {
        let pool: FairPool<u8, u8> = FairPool::new("test-panic", 1, || {}).unwrap();
        let r: Option<u32> = pool.run(0, 0, || panic!("a bad closure")).await;
        assert_eq!(r, None);
        assert_eq!(pool.run(0, 0, || 7).await, Some(7));
    }
}
