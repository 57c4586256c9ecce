//! The stage machine with simulated time.

use super::*;
use ai::{Dabaifen, Madiao};
use cards::record::{GameKind, Variants};

/// A driver with simulated time and an in-memory store that can be told to fail.
struct Sim<G: TableRules>
where
    G::Action: DeserializeOwned,
{
    t: Table<G>,
    now: Millis,
    /// Every message delivered, by connection, in order.
    got: Vec<(ConnId, ServerMsg)>,
    replies: Vec<(ConnId, Reply)>,
    jobs: Vec<Job<G>>,
    wake: Option<Millis>,
    /// Everything persisted.
    stored: Vec<Write>,
    /// The next write fails.
    fail: bool,
    retired: bool,
}

fn settings(game: GameKind, variants: &[(&str, &str)]) -> TableSettings {
    let mut v = Variants::default();
    for (k, val) in variants {
        v.0.insert((*k).into(), (*val).into());
    }
    TableSettings {
        name: "t".into(),
        game,
        rules: "standard".into(),
        variants: v,
        stake: 2,
        turn_seconds: 30,
        private: false,
        pace: Pace::Normal,
        grace_seconds: 15,
    }
}

fn timing() -> Timing {
    Timing {
        draw_ms: 100,
        window_ms: 1000,
        bot_delay_ms: 50,
        trick_ms: 500,
        pause_ms: 8000,
        retire_ms: 60_000,
        park_ms: 600_000,
        poll_hold_ms: 10,
    }
}

fn config(doc: TableSettings, seats: [SeatRow; 4]) -> Config {
    Config {
        id: "t1".into(),
        settings: doc,
        seed: 42,
        host: Some("g0".into()),
        seats,
        status: TableStatus::Waiting,
        created_ms: 0,
        timing: timing(),
    }
}

fn bots() -> [SeatRow; 4] {
    std::array::from_fn(|_| SeatRow::Bot("random".into()))
}

fn guest(i: u64) -> Guest {
    Guest { id: format!("g{i}"), name: format!("P{i}") }
}

impl<G: TableRules> Sim<G>
where
    G::Action: DeserializeOwned,
{
    fn new(config: Config) -> Self {
        let mut t = Table::<G>::new(config, &[], Vec::new(), 0).unwrap();
        let fx = t.start(0);
        let mut s = Sim {
            t,
            now: 0,
            got: Vec::new(),
            replies: Vec::new(),
            jobs: Vec::new(),
            wake: None,
            stored: Vec::new(),
            fail: false,
            retired: false,
        };
        s.absorb(fx);
        s
    }

    fn absorb(&mut self, fx: Effects<G>) {
        self.replies.extend(fx.replies);
        for send in fx.sends {
            for c in send.to {
                self.got.push((c, send.msg.clone()));
            }
        }
        self.jobs.extend(fx.jobs);
        self.wake = fx.wake;
        self.retired |= fx.retire;
    }

    fn feed(&mut self, input: Input<G>) {
        let step = self.t.step(input, self.now);
        let fx = if !step.writes.is_empty() && self.fail {
            self.fail = false;
            self.t.refuse(step, "disk full", self.now)
        } else {
            self.stored.extend(step.writes.iter().cloned());
            self.t.commit(step)
        };
        self.absorb(fx);
    }

    /// Runs the computations asked for, then the clock, up to `until`.
    fn run_until(&mut self, until: Millis) {
        for _ in 0..100_000 {
            if !self.jobs.is_empty() {
                let job = self.jobs.remove(0);
                let done = job.run();
                self.feed(Input::Done(done));
                continue;
            }
            match self.wake {
                Some(w) if w <= until => {
                    self.now = self.now.max(w);
                    self.feed(Input::Tick);
                }
                _ => break,
            }
        }
        self.now = self.now.max(until);
    }

    /// Runs until the stage matches, or `limit` ms pass.
    fn run_to(&mut self, limit: Millis, mut f: impl FnMut(&Stage) -> bool) -> bool {
        let end = self.now + limit;
        while self.now < end {
            if f(self.t.stage()) {
                return true;
            }
            let next = self.wake.unwrap_or(end).min(end).max(self.now);
            if self.jobs.is_empty() && next == self.now && self.wake.is_none() {
                break;
            }
            self.run_until(next);
            if self.jobs.is_empty() && self.wake.is_none() {
                break;
            }
        }
        f(self.t.stage())
    }

    fn join(&mut self, conn: ConnId, g: Guest, seat: Option<u8>) {
        self.feed(Input::Join { conn, guest: g, seat });
    }

    fn act(&mut self, conn: ConnId, action: Value) {
        self.feed(Input::Act { conn, action, move_no: None, seat: None });
    }

    fn errors(&self, conn: ConnId) -> Vec<ErrorCode> {
        self.got
            .iter()
            .filter(|(c, _)| *c == conn)
            .filter_map(|(_, m)| match m {
                ServerMsg::Error(e) => Some(e.code),
                _ => None,
            })
            .collect()
    }

    fn stored_log(&self) -> Vec<LoggedAction> {
        self.stored
            .iter()
            .filter_map(|w| match w {
                Write::Actions(a) => Some(a.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// The persisted log is the table's, and replays to the table's hand.
    fn check_log(&self) {
        let log = self.stored_log();
        assert_eq!(log, self.t.log(), "what was persisted is the table's log");
        for (i, a) in log.iter().enumerate() {
            assert_eq!(a.seq, i as u64);
        }
        if self.t.status() == TableStatus::Waiting {
            return;
        }
        let r = replay::<G>(&self.t.settings, self.t.seed, &log).unwrap();
        let (hand, _) = self.t.hand().unwrap();
        // The replay deals on past a finished hand; the table may still be in its pause.
        assert!(r.states.len() as u32 >= hand + 1 || r.states.len() as u32 == hand + 1);
        assert_eq!(r.moves, self.t.moves(), "moves");
    }

    /// The legal action of `seat` now (the first engine action).
    fn first_legal(&self) -> (Seat, G::Action) {
        let (_, st) = self.t.hand().unwrap();
        let seat = G::to_move(st).unwrap();
        (seat, G::legal_actions(st)[0])
    }
}

fn turn_seat(stage: &Stage) -> Option<Seat> {
    match stage {
        Stage::Turn { seat, .. } => Some(*seat),
        _ => None,
    }
}

#[test]
fn a_table_of_bots_plays_its_match_to_the_end_and_stores_its_record() {
    let mut sim =
        Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:2")]), bots()));
    sim.feed(Input::AutoStart);
    assert_eq!(sim.t.status(), TableStatus::Playing);
    assert_eq!(sim.stored.first(), Some(&Write::Status(TableStatus::Playing)));
    assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
    assert_eq!(sim.t.status(), TableStatus::Finished);
    assert!(matches!(sim.stored.last(), Some(Write::Finish { .. })));
    assert!(sim.t.results().len() >= 2);
    sim.check_log();
    // Nobody connected: it retires once the retire time has passed.
    sim.run_until(sim.now + timing().retire_ms + 1);
    assert!(sim.retired);
}
