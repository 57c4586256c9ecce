//! The delayed watchers' stream (the TV, `docs/protocol.md`, "Live tables (TV)").
//!
//! A delayed watcher is a spectator whose messages are held back by the table itself: he gets
//! exactly what a spectator gets (the spectator's view, nothing of any hand), but each message
//! only once the table has passed `delay` trick boundaries since it was sent to the spectators.
//! A trick boundary is the move that completes a trick (the engine's [`Next::TrickShown`]), or
//! the end of a hand (whatever ended it). So with a delay of one trick, the cards of a trick
//! reach a delayed watcher together, at the moment the trick is complete (when every seat has
//! seen all of them); with a delay of `n`, when trick `k + n - 1` is complete. Before the match
//! begins and once it is over, nothing is held (nothing is hidden then).
//!
//! A delayed watcher who comes (or asks for a `resync`) gets the spectator's `sync` as it was at
//! the boundary `delay - 1` boundaries ago: the table keeps that many snapshots.

use std::collections::VecDeque;
use std::sync::Arc;

use super::*;

/// The delayed stream of one table.
#[derive(Clone, Debug)]
pub(super) struct Tv {
    /// Trick boundaries of delay (0: the stream is not delayed, and nothing is kept).
    pub(super) delay: u32,
    /// The trick boundaries passed since the table was loaded.
    boundaries: u64,
    /// The step under way passes a boundary (counted at its end, after its messages).
    pub(super) pending: bool,
    /// The spectators' messages not yet released, each with the boundaries passed when it was
    /// sent.
    held: VecDeque<(u64, Arc<ServerMsg>)>,
    /// The spectator's `sync` at each of the last `delay` boundaries (with the count), oldest
    /// first: a newcomer gets the oldest.
    snaps: VecDeque<(u64, Arc<SyncMsg>)>,
    /// The version of the last `sync` each delayed watcher got: a held message no newer than
    /// it is not his.
    synced: Vec<(ConnId, u64)>,
}

impl Default for Tv {
    fn default() -> Self {
        Tv {
            delay: 1,
            boundaries: 0,
            pending: false,
            held: VecDeque::new(),
            snaps: VecDeque::new(),
            synced: Vec::new(),
        }
    }
}

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    /// Sets how many trick boundaries the delayed watchers' stream is behind the table (0: not
    /// behind; a delayed watcher is then a spectator).
    pub fn set_tv_delay(&mut self, tricks: u32) {
        self.tv = Tv { delay: tricks, ..Tv::default() };
    }

    /// The delay of the delayed watchers' stream, in trick boundaries.
    pub fn tv_delay(&self) -> u32 {
        self.tv.delay
    }

    /// True while the stream keeps messages back (the delay is on).
    pub(super) fn tv_on(&self) -> bool {
        self.tv.delay > 0
    }

    /// True when connection `conn` is a delayed watcher.
    pub(super) fn is_delayed(&self, conn: ConnId) -> bool {
        self.members.iter().any(|m| m.conn == conn && m.delayed)
    }

    /// A message every spectator gets (an update as a spectator sees it, seats, chat, host
    /// events) joins the delayed stream.
    pub(super) fn tv_note(&mut self, msg: &ServerMsg) {
        if self.tv_on() {
            self.tv.held.push_back((self.tv.boundaries, Arc::new(msg.clone())));
        }
    }

    /// A hand is under way: the stream holds messages back (from the match's first deal to its
    /// end; not while the table waits for its match, nor once it is over).
    fn tv_holds(&self) -> bool {
        let stage = match &self.stage {
            Stage::Parked { was } | Stage::Paused { was } => was.as_ref(),
            s => s,
        };
        !self.status.is_over()
            && self.status != TableStatus::Waiting
            && !matches!(stage, Stage::Waiting { .. } | Stage::MatchOver { .. })
    }

    /// The spectator's `sync` now, for nobody in particular (`you` is filled in per watcher).
    fn spectator_sync(&self, now: Millis) -> SyncMsg {
        let m = Member {
            conn: 0,
            guest: Guest { id: String::new(), name: String::new() },
            seat: None,
            delayed: true,
        };
        match self.sync_msg(&m, now) {
            ServerMsg::Sync(s) => *s,
            _ => unreachable!("sync_msg makes a sync"),
        }
    }

    /// At the end of a step: the boundary it passed is counted, the messages now old enough go
    /// to the delayed watchers, and a snapshot is kept at each boundary.
    pub(super) fn tv_release(&mut self, now: Millis) {
        if !self.tv_on() {
            return;
        }
        let holds = self.tv_holds();
        let passed = std::mem::take(&mut self.tv.pending);
        if passed {
            self.tv.boundaries += 1;
        }
        let b = self.tv.boundaries;
        let delay = u64::from(self.tv.delay);
        let watchers: Vec<ConnId> = self.members.iter().filter(|m| m.delayed).map(|m| m.conn).collect();
        self.tv.synced.retain(|(c, _)| watchers.contains(c));
        while let Some((tag, _)) = self.tv.held.front() {
            if holds && tag + delay > b {
                break;
            }
            let (_, msg) = self.tv.held.pop_front().expect("a front");
            let v = msg_v(&msg).unwrap_or(u64::MAX);
            let to: Vec<ConnId> = watchers
                .iter()
                .copied()
                .filter(|c| self.tv.synced.iter().all(|(s, at)| s != c || *at < v))
                .collect();
            if !to.is_empty() {
                self.fx.sends.push(Send { to, msg: (*msg).clone() });
            }
        }
        if !holds {
            // Nothing is held: a newcomer gets the table as it is.
            self.tv.snaps.clear();
        } else if passed {
            self.tv.snaps.push_back((b, Arc::new(self.spectator_sync(now))));
            while self.tv.snaps.len() > self.tv.delay as usize {
                self.tv.snaps.pop_front();
            }
        }
    }

    /// Sends a delayed watcher the `sync` he may see: the oldest snapshot kept (the table at the
    /// boundary `delay - 1` boundaries ago), or, when none is kept (the match began fewer than
    /// `delay` boundaries ago, or the table was loaded in the middle of a hand), the table
    /// without its hand, at the version before the oldest message held.
    pub(super) fn tv_sync_to(&mut self, conn: ConnId, now: Millis) {
        let Some(m) = self.members.iter().find(|m| m.conn == conn) else { return };
        let you = You { seat: None, guest: m.guest.id.clone(), name: m.guest.name.clone(), host: false };
        // The snapshot of boundary `b - delay + 1`, if it is kept (not before `delay`
        // boundaries of the match have passed).
        let due = (self.tv.boundaries + 1).checked_sub(u64::from(self.tv.delay));
        let mut sync = match self.tv.snaps.front().filter(|(i, _)| Some(*i) == due) {
            Some((_, s)) => (**s).clone(),
            None => {
                let mut s = self.spectator_sync(now);
                if self.tv_holds() {
                    s.view = None;
                    s.legal = None;
                    s.timer = None;
                    // The next message he gets is the oldest held one.
                    if let Some((_, first)) = self.tv.held.front() {
                        s.v = msg_v(first).map_or(s.v, |v| v.saturating_sub(1));
                    }
                }
                s
            }
        };
        sync.you = you;
        self.tv.synced.retain(|(c, _)| *c != conn);
        self.tv.synced.push((conn, sync.v));
        self.fx.sends.push(Send { to: vec![conn], msg: ServerMsg::Sync(Box::new(sync)) });
    }
}

/// The version a table-wide message carries.
fn msg_v(m: &ServerMsg) -> Option<u64> {
    match m {
        ServerMsg::Update(u) => Some(u.v),
        ServerMsg::Seats(s) => Some(s.v),
        ServerMsg::Chat(c) => Some(c.v),
        ServerMsg::ChatRemoved(c) => Some(c.v),
        ServerMsg::Host(h) => Some(h.v),
        _ => None,
    }
}
