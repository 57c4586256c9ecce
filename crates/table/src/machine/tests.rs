//! The stage machine with simulated time.

use super::*;
use ai::{Dabaifen, Madiao};
use cards::record::{GameKind, Variants};
use serde_json::Value;

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
    /// The rematches asked of the driver.
    orders: Vec<RematchOrder>,
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
        stake_max: None,
        turn_seconds: 30,
        private: false,
        pace: Pace::Normal,
        grace_seconds: 15,
        untimed: false,
        bank_seconds: 0,
        zero_cash: Default::default(),
        rated: false,
        board: None,
        no_aids: false,
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

/// Seat 0 open (for a person), the others random bots.
fn open_and_bots() -> [SeatRow; 4] {
    let mut seats = bots();
    seats[0] = SeatRow::Open;
    seats
}

/// A Madiao table of `doc` resumed from `log` (as after a restart): the person P0 in seat 0 and
/// random bots in the others, playing.
fn resumed(doc: TableSettings, log: &[LoggedAction]) -> Table<Madiao> {
    let mut seats = bots();
    seats[0] = SeatRow::Person { guest: "g0".into(), name: "P0".into() };
    let mut c = config(doc, seats);
    c.status = TableStatus::Playing;
    Table::<Madiao>::new(c, log, Vec::new(), 0).unwrap()
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
            orders: Vec::new(),
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
        self.orders.extend(fx.rematch);
    }

    fn feed(&mut self, input: impl Into<Input<G>>) {
        let step = self.t.step(input.into(), self.now);
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
        self.feed(Request::Join { conn, guest: g, seat });
    }

    fn act(&mut self, conn: ConnId, action: Value) {
        self.feed(Request::Table {
            conn,
            msg: TableMsg::Act { action: wire(action), move_no: None, seat: None },
            at_ms: 0,
        });
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
    fn check_log(&self)
    where
        G::State: std::fmt::Debug,
    {
        for (i, a) in self.t.log().iter().enumerate() {
            assert_eq!(a.seq, i as u64);
        }
        random_events::check_replay(self);
    }

    /// The legal action of `seat` now (the first engine action).
    fn first_legal(&self) -> (Seat, G::Action) {
        let (_, st) = self.t.hand().unwrap();
        let seat = G::to_move(st).unwrap();
        (seat, G::legal_actions(st)[0])
    }
}

#[test]
fn a_table_of_bots_plays_its_match_to_the_end_and_stores_its_record() {
    let mut sim =
        Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:2")]), bots()));
    sim.feed(Request::AutoStart);
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

#[test]
fn every_viewer_learns_the_madiao_decks_zero_cash_from_the_summary() {
    let mut doc = settings(GameKind::Madiao, &[]);
    doc.zero_cash = madiao::ZeroCash::WangYing;
    let sim = Sim::<Madiao>::new(config(doc, bots()));
    assert_eq!(sim.t.summary(sim.now).zero_cash, Some(madiao::ZeroCash::WangYing));
    let sim = Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[]), bots()));
    assert_eq!(sim.t.summary(sim.now).zero_cash, Some(madiao::ZeroCash::Unnamed));
    // Da Bai Fen has no zero cash.
    let sim = Sim::<Dabaifen>::new(config(settings(GameKind::Dabaifen, &[]), bots()));
    assert_eq!(sim.t.summary(sim.now).zero_cash, None);
}

fn person_and_bots(game: GameKind, variants: &[(&str, &str)]) -> Sim<Madiao> {
    let _ = game;
    let mut sim = Sim::<Madiao>::new(config(settings(GameKind::Madiao, variants), open_and_bots()));
    sim.join(1, guest(0), Some(0));
    assert_eq!(sim.replies.last(), Some(&(1, Ok(()))));
    assert_eq!(
        sim.stored[0],
        Write::Seat { seat: 0, owner: SeatRow::Person { guest: "g0".into(), name: "P0".into() } }
    );
    sim
}

/// Runs until seat 0 (the person) is to move; `None` if the match ended first.
fn to_persons_turn<G: TableRules>(sim: &mut Sim<G>) -> Option<Millis>
where
    G::Action: DeserializeOwned,
{
    let ok = sim.run_to(10_000_000, |s| {
        matches!(s, Stage::Turn { seat, .. } if seat.number() == 0) || matches!(s, Stage::MatchOver { .. })
    });
    assert!(ok);
    match sim.t.stage() {
        Stage::Turn { deadline, .. } => *deadline,
        _ => None,
    }
}

fn timer_of(msg: &ServerMsg) -> Option<Timer> {
    match msg {
        ServerMsg::Sync(m) => m.timer.clone(),
        ServerMsg::Update(m) => m.timer.clone(),
        ServerMsg::Seats(m) => m.timer.clone(),
        _ => None,
    }
}

fn last_to<G: TableRules>(sim: &Sim<G>, conn: ConnId) -> ServerMsg
where
    G::Action: DeserializeOwned,
{
    sim.got.iter().rev().find(|(c, _)| *c == conn).unwrap().1.clone()
}

fn action_value<G: TableRules>(a: G::Action) -> Value
where
    G::Action: DeserializeOwned,
{
    serde_json::to_value(a).unwrap()
}

#[test]
fn a_persons_turn_clock_runs_out_and_a_bot_plays_until_he_is_back() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    let deadline = to_persons_turn(&mut sim).expect("a turn of the person");
    let began = sim.now;
    assert_eq!(deadline, began + 30_000, "the table's turn clock");
    // Nothing happens for him before his clock runs out.
    let moves = sim.t.moves();
    sim.run_until(deadline - 1);
    assert_eq!(sim.t.moves(), moves);
    assert!(matches!(timer_of(&last_to(&sim, 1)), Some(Timer::Turn { .. })));
    sim.run_until(deadline + 5_000);
    assert!(sim.t.moves() > moves, "a bot played for him");
    let bot_move = sim.got.iter().find_map(|(c, m)| match m {
        ServerMsg::Update(u) if *c == 1 => match &u.event {
            TableEvent::Action { seat, by_bot, .. } if seat.number() == 0 => Some(*by_bot),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(bot_move, Some(true));
    assert!(sim.t.summary(sim.now).seats[0].away);
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
    assert!(!sim.t.summary(sim.now).seats[0].away);
    assert!(matches!(last_to(&sim, 1), ServerMsg::Ack(AckMsg { what: AckWhat::Back, .. })));
    sim.check_log();
}

#[test]
fn the_remaining_time_survives_a_reconnect_and_a_resync() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    let deadline = to_persons_turn(&mut sim).expect("a turn of the person");
    sim.run_until(sim.now + 10_000);
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Resync, at_ms: 0 });
    assert_eq!(
        timer_of(&last_to(&sim, 1)),
        Some(Timer::Turn { seat: Seat::ALL[0], remaining_ms: Some(deadline - sim.now), bank_ms: None })
    );
    // A reload: the connection drops and another joins, 2 s later.
    sim.feed(Request::Gone { conn: 1 });
    assert!(matches!(timer_of(&sim.got.last().unwrap().1), None | Some(_)));
    sim.run_until(sim.now + 2_000);
    sim.join(2, guest(0), None);
    let sync = last_to(&sim, 2);
    let ServerMsg::Sync(s) = sync else { panic!("a sync") };
    assert_eq!(s.you.seat, Some(Seat::ALL[0]));
    assert_eq!(
        s.timer,
        Some(Timer::Turn { seat: Seat::ALL[0], remaining_ms: Some(deadline - sim.now), bank_ms: None })
    );
    assert_eq!(deadline - sim.now, 18_000, "30 s less 12 s: not restarted");
    // He plays within it.
    let (_, a) = sim.first_legal();
    let before = sim.t.moves();
    sim.act(2, action_value::<Madiao>(a));
    assert_eq!(sim.t.moves(), before + 1);
    sim.check_log();
}

#[test]
fn a_disconnected_person_has_a_grace_period_before_a_bot_stands_in() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    to_persons_turn(&mut sim).expect("a turn of the person");
    // A spectator to see what the table shows.
    sim.feed(Request::Watch { conn: 9, guest: guest(9) });
    let gone_at = sim.now;
    sim.feed(Request::Gone { conn: 1 });
    let ServerMsg::Seats(seats) = last_to(&sim, 9) else { panic!("seats") };
    assert_eq!(seats.seats[0].grace_ms, Some(15_000));
    assert!(!seats.seats[0].bot_plays && !seats.seats[0].present);
    assert_eq!(seats.timer, Some(Timer::Grace { seat: Seat::ALL[0], remaining_ms: 15_000 }));
    let moves = sim.t.moves();
    sim.run_until(gone_at + 14_999);
    assert_eq!(sim.t.moves(), moves, "nothing is played for him during the grace");
    sim.run_until(gone_at + 15_000 + 2_000);
    assert!(sim.t.moves() > moves, "a bot stood in");
    let seats = sim.t.summary(sim.now).seats;
    assert!(seats[0].bot_plays && seats[0].grace_ms.is_none());
    // Back within his next turn: he plays again.
    sim.join(3, guest(0), None);
    assert!(!sim.t.summary(sim.now).seats[0].bot_plays);
    sim.check_log();
}

#[test]
fn back_within_the_grace_he_just_continues() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    let deadline = to_persons_turn(&mut sim).expect("a turn of the person");
    sim.feed(Request::Gone { conn: 1 });
    sim.run_until(sim.now + 5_000);
    sim.join(2, guest(0), None);
    let ServerMsg::Sync(s) = last_to(&sim, 2) else { panic!("a sync") };
    assert_eq!(
        s.timer,
        Some(Timer::Turn { seat: Seat::ALL[0], remaining_ms: Some(deadline - sim.now), bank_ms: None })
    );
    let moves = sim.t.moves();
    sim.run_until(deadline - 1);
    assert_eq!(sim.t.moves(), moves);
}

#[test]
fn a_grace_of_zero_lets_a_bot_stand_in_at_once() {
    let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:1")]);
    doc.grace_seconds = 0;
    let mut sim = Sim::<Madiao>::new(config(doc, open_and_bots()));
    sim.join(1, guest(0), Some(0));
    to_persons_turn(&mut sim).expect("a turn");
    let moves = sim.t.moves();
    sim.feed(Request::Gone { conn: 1 });
    assert!(sim.t.summary(sim.now).seats[0].bot_plays);
    sim.run_until(sim.now + 100);
    assert!(sim.t.moves() > moves);
}

#[test]
fn a_finished_trick_stays_on_show_then_the_next_lead() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::Trick { .. } | Stage::MatchOver { .. }));
    assert!(ok);
    let Stage::Trick { until } = *sim.t.stage() else { panic!("no trick finished: {:?}", sim.t.stage()) };
    assert_eq!(until, sim.now + 500, "trick_ms at normal pace");
    let moves = sim.t.moves();
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Resync, at_ms: 0 });
    assert_eq!(timer_of(&last_to(&sim, 1)), Some(Timer::Trick { remaining_ms: 500 }));
    sim.run_until(until - 1);
    assert_eq!(sim.t.moves(), moves, "nobody leads while the trick is on show");
    sim.run_until(until);
    assert!(matches!(sim.t.stage(), Stage::Turn { .. }), "{:?}", sim.t.stage());
    // A person's clock starts only after the trick.
    if let Stage::Turn { deadline: Some(d), .. } = sim.t.stage() {
        assert_eq!(*d, until + 30_000);
    }
}

#[test]
fn the_pace_scales_the_trick_the_window_and_the_draw_and_bot_tables_play_fast() {
    let mut relaxed = settings(GameKind::Dabaifen, &[]);
    relaxed.pace = Pace::Relaxed;
    let mut sim = Sim::<Dabaifen>::new(config(relaxed.clone(), open_and_bots()));
    assert_eq!(sim.t.pace(), Pace::Fast, "no person is seated yet");
    sim.join(1, guest(0), Some(0));
    assert_eq!(sim.t.pace(), Pace::Relaxed);
    sim.run_until(0);
    let Stage::Draw { shown: 0, due } = *sim.t.stage() else { panic!("the draw: {:?}", sim.t.stage()) };
    assert_eq!(due, 200, "relaxed: twice the base 100 ms");
    assert_eq!(timer_of(&last_to(&sim, 1)), Some(Timer::Draw { every_ms: 200 }));
    // The draw goes one card per interval, at a steady pace.
    sim.run_until(200 + 10);
    assert!(matches!(sim.t.stage(), Stage::Draw { shown: 1, due: 400 }), "{:?}", sim.t.stage());
    let ok = sim.run_to(1_000_000, |s| !matches!(s, Stage::Draw { .. }));
    assert!(ok);
    if let Stage::Window { until } = *sim.t.stage() {
        assert_eq!(until, sim.now + 2000, "relaxed window");
    }
    // All bots: fast whatever was asked.
    let bot_table = Sim::<Dabaifen>::new(config(relaxed, bots()));
    assert_eq!(bot_table.t.pace(), Pace::Fast);
    let mut bt = bot_table;
    bt.feed(Request::AutoStart);
    let Stage::Draw { due, .. } = *bt.t.stage() else { panic!("the draw") };
    assert_eq!(due, bt.now + 25);
}

#[test]
fn the_pause_after_a_hand_waits_for_ready_or_its_clock() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:3")]);
    let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. }));
    assert!(ok, "{:?}", sim.t.stage());
    let Stage::HandOver { until, .. } = *sim.t.stage() else { unreachable!() };
    assert_eq!(until, Some(sim.now + 8000), "min(turn clock 30 s, pause 8 s)");
    let (hand, _) = sim.t.hand().unwrap();
    sim.feed(Request::Watch { conn: 9, guest: guest(9) });
    sim.feed(Request::Table { conn: 9, msg: TableMsg::Next, at_ms: 0 });
    assert_eq!(sim.errors(9).last(), Some(&ErrorCode::NotSeated));
    sim.run_until(sim.now + 1000);
    assert!(matches!(sim.t.stage(), Stage::HandOver { .. }), "the pause waits");
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Next, at_ms: 0 });
    assert!(
        sim.got
            .iter()
            .any(|(c, m)| *c == 1 && matches!(m, ServerMsg::Ack(AckMsg { what: AckWhat::Next, .. })))
    );
    let seats_timer = sim.got.iter().rev().find_map(|(c, m)| match m {
        ServerMsg::Seats(s) if *c == 9 => s.timer.clone(),
        _ => None,
    });
    assert!(
        matches!(seats_timer, Some(Timer::NextHand { ref ready, .. }) if ready == &vec![Seat::ALL[0]]),
        "{seats_timer:?}"
    );
    assert_eq!(sim.t.hand().unwrap().0, hand + 1, "every connected person is ready: the next hand at once");
    // The next pause: nobody presses ready, it runs its length.
    let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. } | Stage::MatchOver { .. }));
    assert!(ok);
    if let Stage::HandOver { until: Some(until), .. } = *sim.t.stage() {
        let hand = sim.t.hand().unwrap().0;
        sim.run_until(until - 1);
        assert_eq!(sim.t.hand().unwrap().0, hand);
        sim.run_until(until);
        assert_eq!(sim.t.hand().unwrap().0, hand + 1);
    }
    // Next out of the pause: nothing to decide.
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Next, at_ms: 0 });
}

#[test]
fn an_untimed_table_waits_for_its_person_at_his_turn_and_after_a_hand() {
    let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:2")]);
    doc.untimed = true;
    doc.grace_seconds = 0;
    let mut sim = Sim::<Madiao>::new(config(doc, open_and_bots()));
    sim.join(1, guest(0), Some(0));
    let mut turns = 0;
    let mut pauses = 0;
    for _ in 0..200 {
        let ok = sim.run_to(10_000_000, |s| {
            matches!(s, Stage::Turn { seat, .. } if seat.number() == 0)
                || matches!(s, Stage::HandOver { .. } | Stage::MatchOver { .. })
        });
        assert!(ok, "{:?}", sim.t.stage());
        match *sim.t.stage() {
            Stage::Turn { deadline, bot_at, .. } => {
                turns += 1;
                assert_eq!((deadline, bot_at), (None, None), "no clock at his turn");
                let timer = timer_of(&last_to(&sim, 1));
                assert!(
                    matches!(timer, Some(Timer::Turn { remaining_ms: None, .. })),
                    "the turn's timer has no time left to show: {timer:?}"
                );
                // A day later it is still his turn; nothing was played for him.
                let log_len = sim.t.log().len();
                sim.run_until(sim.now + 86_400_000);
                assert!(matches!(sim.t.stage(), Stage::Turn { seat, .. } if seat.number() == 0));
                assert_eq!(sim.t.log().len(), log_len);
                let (seat, action) = sim.first_legal();
                assert_eq!(seat.number(), 0);
                sim.act(1, action_value::<Madiao>(action));
            }
            Stage::HandOver { until, .. } => {
                pauses += 1;
                assert_eq!(until, None, "the pause waits for ready");
                let hand = sim.t.hand().unwrap().0;
                sim.run_until(sim.now + 86_400_000);
                assert_eq!(sim.t.hand().unwrap().0, hand, "a day later the next hand still waits");
                sim.feed(Request::Table { conn: 1, msg: TableMsg::Next, at_ms: 0 });
                assert_eq!(sim.t.hand().unwrap().0, hand + 1, "ready: the next hand");
            }
            _ => break,
        }
    }
    assert!(turns > 0 && pauses > 0, "turns {turns}, pauses {pauses}");
    sim.check_log();
}

/// An untimed table's pause after a hand waits for its person while he is there; once he has
/// gone (and his grace period, if any, has run out) it ends as a pause without people does.
#[test]
fn an_untimed_pause_ends_once_its_person_has_gone() {
    for grace_seconds in [0, 5] {
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:3")]);
        doc.untimed = true;
        doc.grace_seconds = grace_seconds;
        let mut sim = Sim::<Madiao>::new(config(doc, open_and_bots()));
        sim.join(1, guest(0), Some(0));
        for _ in 0..200 {
            let ok = sim.run_to(10_000_000, |s| {
                matches!(s, Stage::Turn { seat, .. } if seat.number() == 0)
                    || matches!(s, Stage::HandOver { .. })
            });
            assert!(ok, "{:?}", sim.t.stage());
            if matches!(sim.t.stage(), Stage::HandOver { .. }) {
                break;
            }
            let (_, action) = sim.first_legal();
            sim.act(1, action_value::<Madiao>(action));
        }
        assert!(matches!(sim.t.stage(), Stage::HandOver { until: None, .. }), "{:?}", sim.t.stage());
        let hand = sim.t.hand().unwrap().0;
        sim.feed(Request::Gone { conn: 1 });
        let grace = u64::from(grace_seconds) * 1000;
        if grace > 0 {
            sim.run_until(sim.now + grace - 1);
            assert_eq!(sim.t.hand().unwrap().0, hand, "the pause waits through his grace period");
        }
        sim.run_until(sim.now + grace + timing().trick_ms + 1);
        assert!(
            sim.t.hand().unwrap().0 > hand,
            "grace {grace_seconds} s: the next hand is dealt without him"
        );
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { .. })), "{:?}", sim.t.stage());
        sim.check_log();
    }
}

#[test]
fn with_no_person_connected_the_pause_is_short() {
    let mut sim =
        Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:2")]), bots()));
    sim.feed(Request::AutoStart);
    let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. }));
    assert!(ok);
    let Stage::HandOver { until, .. } = *sim.t.stage() else { unreachable!() };
    assert_eq!(until, Some(sim.now + 125), "trick_ms at the fast pace");
}

#[test]
fn a_storage_failure_refuses_a_persons_move_and_retries_a_bots() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    to_persons_turn(&mut sim).expect("a turn");
    let (_, a) = sim.first_legal();
    let (moves, v, log) = (sim.t.moves(), sim.t.version(), sim.t.log().len());
    sim.fail = true;
    let sent = sim.got.len();
    sim.act(1, action_value::<Madiao>(a));
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Storage));
    assert_eq!((sim.t.moves(), sim.t.version(), sim.t.log().len()), (moves, v, log), "nothing changed");
    assert_eq!(sim.got.len(), sent + 1, "only the error");
    sim.act(1, action_value::<Madiao>(a));
    assert_eq!(sim.t.moves(), moves + 1);
    // A bot's move that cannot be stored is tried again a second later.
    let ok = sim.run_to(100_000, |s| matches!(s, Stage::Turn { seat, .. } if seat.number() != 0));
    assert!(ok);
    let Stage::Turn { bot_at: Some(at), .. } = *sim.t.stage() else { panic!() };
    sim.run_until(at - 1);
    sim.now = at;
    sim.feed(Input::Tick);
    assert_eq!(sim.jobs.len(), 1);
    let moves = sim.t.moves();
    sim.fail = true;
    let done = sim.jobs.remove(0).run();
    sim.feed(Input::Done(done));
    assert_eq!(sim.t.moves(), moves);
    assert_eq!(sim.wake, Some(sim.now + RETRY_MS));
    sim.run_until(sim.now + RETRY_MS);
    assert!(sim.t.moves() > moves);
    sim.check_log();
}

#[test]
fn refusals_name_their_reason() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
    sim.feed(Request::Table {
        conn: 1,
        msg: TableMsg::Act { action: wire(serde_json::json!({"play": "x"})), move_no: None, seat: None },
        at_ms: 0,
    });
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotStarted));
    sim.feed(Request::Watch { conn: 9, guest: guest(9) });
    sim.feed(Request::Table {
        conn: 9,
        msg: TableMsg::Act { action: wire(serde_json::json!({"play": "x"})), move_no: None, seat: None },
        at_ms: 0,
    });
    assert_eq!(sim.errors(9).last(), Some(&ErrorCode::NotSeated));
    sim.feed(Request::Table { conn: 9, msg: TableMsg::Start, at_ms: 0 });
    assert_eq!(sim.errors(9).last(), Some(&ErrorCode::NotHost));
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
    assert_eq!(sim.t.status(), TableStatus::Playing);
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::AlreadyStarted));
    to_persons_turn(&mut sim).expect("a turn");
    let (_, a) = sim.first_legal();
    let m = sim.t.moves();
    sim.feed(Request::Table {
        conn: 1,
        msg: TableMsg::Act { action: wire(action_value::<Madiao>(a)), move_no: Some(m + 7), seat: None },
        at_ms: 0,
    });
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Stale));
    sim.feed(Request::Table {
        conn: 1,
        msg: TableMsg::Act { action: wire(action_value::<Madiao>(a)), move_no: Some(m), seat: Some(2) },
        at_ms: 0,
    });
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotYourSeat));
    sim.feed(Request::Table {
        conn: 1,
        msg: TableMsg::Act { action: wire(serde_json::json!({"fly": 1})), move_no: None, seat: None },
        at_ms: 0,
    });
    assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Illegal));
    sim.join(5, guest(5), Some(0));
    assert!(matches!(sim.replies.last(), Some((5, Err(Refusal { code: ErrorCode::SeatTaken, .. })))));
    sim.feed(Request::Table { conn: 9, msg: TableMsg::Chat { text: "hello".into() }, at_ms: 7 });
    assert!(matches!(sim.stored.last(), Some(Write::Chat(ChatRow { at_ms: 7, .. }))));
    sim.feed(Request::Table { conn: 9, msg: TableMsg::Chat { text: "".into() }, at_ms: 7 });
    assert_eq!(sim.errors(9).last(), Some(&ErrorCode::BadChat));
    sim.feed(Request::Table {
        conn: 1,
        msg: TableMsg::Act { action: wire(action_value::<Madiao>(a)), move_no: Some(m), seat: Some(0) },
        at_ms: 0,
    });
    assert_eq!(sim.t.moves(), m + 1);
    sim.feed(Request::Table { conn: 1, msg: TableMsg::Leave, at_ms: 0 });
    assert_eq!(sim.stored.last(), Some(&Write::Seat { seat: 0, owner: SeatRow::Open }));
    assert!(
        matches!(last_to(&sim, 1), ServerMsg::Sync(s) if matches!(*s, SyncMsg { you: You { seat: None, .. }, .. }))
    );
    sim.check_log();
}

#[test]
fn a_table_with_nobody_connected_parks_and_goes_on_when_a_person_comes() {
    let mut c = config(settings(GameKind::Madiao, &[("game_length", "hands:1")]), bots());
    c.timing.park_ms = 1000;
    c.timing.bot_delay_ms = 600;
    let mut sim = Sim::<Madiao>::new(c);
    sim.feed(Request::AutoStart);
    sim.run_until(1000);
    assert_eq!(sim.t.status(), TableStatus::Parked);
    assert!(matches!(sim.t.stage(), Stage::Parked { .. }));
    assert_eq!(sim.stored.last(), Some(&Write::Status(TableStatus::Parked)));
    let moves = sim.t.moves();
    sim.run_until(100_000);
    assert_eq!(sim.t.moves(), moves, "nothing moves while parked");
    sim.feed(Request::Watch { conn: 1, guest: guest(1) });
    assert_eq!(sim.t.status(), TableStatus::Playing);
    sim.run_until(200_000);
    assert!(sim.t.moves() > moves);
    sim.check_log();
}

#[test]
fn a_table_resumed_from_its_log_is_where_it_was() {
    let mut sim = person_and_bots(GameKind::Madiao, &[("game_length", "hands:2")]);
    let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::Turn { seat, .. } if seat.number() == 0));
    assert!(ok);
    let log = sim.t.log().to_vec();
    let t = resumed(settings(GameKind::Madiao, &[("game_length", "hands:2")]), &log);
    assert_eq!(t.moves(), sim.t.moves());
    assert_eq!(t.hand().map(|h| h.0), sim.t.hand().map(|h| h.0));
    assert_eq!(format!("{:?}", t.hand().unwrap().1), format!("{:?}", sim.t.hand().unwrap().1));
    assert!(matches!(t.stage(), Stage::Turn { seat, .. } if seat.number() == 0));
}

mod random_events {
    use super::*;
    use proptest::prelude::*;

    /// Plays a random sequence of events at a table of two person seats and two bots; after
    /// every step: the table's log is what was persisted and replays to the table's hand, and a
    /// person's move came from his own seat.
    fn play<G: TableRules>(game: GameKind, events: &[(u8, u16, u16)])
    where
        G::Action: DeserializeOwned,
        G::State: std::fmt::Debug,
    {
        let variants: &[(&str, &str)] =
            if game == GameKind::Madiao { &[("game_length", "hands:2")] } else { &[] };
        let mut doc = settings(game, variants);
        doc.grace_seconds = 3;
        doc.turn_seconds = 5;
        let mut sim = Sim::<G>::new(config(
            doc,
            [SeatRow::Open, SeatRow::Open, SeatRow::Bot("random".into()), SeatRow::Bot("random".into())],
        ));
        // The host sits down, and most often starts with a bot in the open seat.
        sim.join(0, guest(0), Some(0));
        if !events.len().is_multiple_of(4) {
            sim.feed(Request::Table { conn: 0, msg: TableMsg::Start, at_ms: 0 });
        }
        for &(op, a, b) in events {
            let conn = u64::from(a % 6);
            let seat_of = |sim: &Sim<G>, c: ConnId| match sim.t.sync_for(c, sim.now) {
                Some(ServerMsg::Sync(s)) => s.you.seat,
                _ => None,
            };
            let input = match op % 17 {
                0 => Request::Join {
                    conn,
                    guest: guest(u64::from(b % 3)),
                    seat: (b % 5 < 4).then_some((b % 5) as u8),
                },
                1 => Request::Watch { conn, guest: guest(u64::from(b % 4)) },
                2 => Request::Gone { conn },
                3..=5 => {
                    // The engine's legal action of the seat to move, sent by some connection.
                    let action = match sim.t.hand() {
                        Some((_, st)) if G::to_move(st).is_some() => {
                            let legal = G::legal_actions(st);
                            serde_json::to_value(legal[usize::from(b) % legal.len()]).unwrap()
                        }
                        _ => serde_json::json!({"play": "nothing"}),
                    };
                    Request::Table {
                        conn,
                        msg: TableMsg::Act {
                            action: wire(action),
                            move_no: (b % 3 == 0).then_some(sim.t.moves()),
                            seat: None,
                        },
                        at_ms: 0,
                    }
                }
                6 => Request::Table { conn, msg: TableMsg::Next, at_ms: 0 },
                7 => Request::Table { conn, msg: TableMsg::Back, at_ms: 0 },
                8 => Request::Table { conn, msg: TableMsg::Leave, at_ms: 0 },
                9 => Request::Table { conn, msg: TableMsg::Resync, at_ms: 0 },
                10 => Request::Table { conn, msg: TableMsg::Chat { text: format!("hi {b}") }, at_ms: 1 },
                11 => Request::Table { conn, msg: TableMsg::Start, at_ms: 0 },
                12 => {
                    sim.fail = b % 2 == 0;
                    Request::AutoStart
                }
                13 => Request::Table { conn, msg: TableMsg::TakeBack, at_ms: 0 },
                14 => {
                    sim.fail = b % 3 == 0;
                    Request::Table { conn, msg: TableMsg::TakeBack, at_ms: 0 }
                }
                15 => Request::Table {
                    conn,
                    msg: if b % 2 == 0 { TableMsg::Pause } else { TableMsg::Resume },
                    at_ms: 0,
                },
                _ => {
                    // Time passes, and computations finish.
                    sim.run_until(sim.now + u64::from(b) * 20);
                    continue;
                }
            };
            let actor = match &input {
                Request::Table { conn, msg: TableMsg::Act { .. }, .. } => Some(seat_of(&sim, *conn)),
                _ => None,
            };
            let stored = sim.stored_log().len();
            let got = sim.got.len();
            sim.feed(input);
            if let Some(actor) = actor {
                // Only the actor's own seat acted, or nothing did.
                for row in &sim.stored_log()[stored..] {
                    assert_eq!(Some(row.seat), actor.map(|s| s.number()), "a seat acted for another");
                }
                for (_, m) in &sim.got[got..] {
                    if let ServerMsg::Update(u) = m
                        && let TableEvent::Action { seat, by_bot: false, .. } = &u.event
                    {
                        assert_eq!(Some(*seat), actor);
                    }
                }
            }
            check_replay(&sim);
        }
        sim.fail = false;
        sim.run_until(sim.now + 2_000_000);
        check_replay(&sim);
    }

    pub(super) fn check_replay<G: TableRules>(sim: &Sim<G>)
    where
        G::Action: DeserializeOwned,
        G::State: std::fmt::Debug,
    {
        let log = sim.stored_log();
        assert_eq!(log, sim.t.log());
        let Some((hand, st)) = sim.t.hand() else { return };
        fn in_draw(stage: &Stage) -> bool {
            match stage {
                Stage::Draw { .. } => true,
                Stage::Parked { was } | Stage::Paused { was } => in_draw(was),
                _ => false,
            }
        }
        if in_draw(sim.t.stage()) {
            // The draw's answers are persisted when the draw ends.
            return;
        }
        let r = replay::<G>(&sim.t.settings, sim.t.seed, &log).unwrap();
        let replayed = r.states.get(hand as usize).expect("the replay reaches the table's hand");
        assert_eq!(format!("{replayed:?}"), format!("{st:?}"), "the log replays to the table's hand");
        assert_eq!(r.moves, sim.t.moves());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

        #[test]
        fn madiao_random_events(events in proptest::collection::vec((0u8..17, 0u16..1000, 0u16..1000), 0..120)) {
            play::<Madiao>(GameKind::Madiao, &events);
        }

        #[test]
        fn dabaifen_random_events(events in proptest::collection::vec((0u8..17, 0u16..1000, 0u16..1000), 0..120)) {
            play::<Dabaifen>(GameKind::Dabaifen, &events);
        }
    }
}

/// An action as a client sends it.
fn wire(v: serde_json::Value) -> wire::ActAction {
    serde_json::from_value(v).expect("any JSON is an action on the wire")
}

/// A job's result waits in the table's queue, whose slots are allocated in blocks as large as
/// the largest result: a result must stay small (the state after the polls is boxed), or every
/// table pays tens of KiB for its queue.
#[test]
fn a_job_result_is_small() {
    assert!(std::mem::size_of::<Done<ai::Dabaifen>>() <= 64, "{}", std::mem::size_of::<Done<ai::Dabaifen>>());
    assert!(std::mem::size_of::<Done<ai::Madiao>>() <= 64, "{}", std::mem::size_of::<Done<ai::Madiao>>());
}

#[test]
fn a_bot_move_thinks_with_the_budget_the_driver_gives() {
    let config =
        Config { host: None, timing: Timing::default(), ..config(settings(GameKind::Madiao, &[]), bots()) };
    let mut t = Table::<Madiao>::new(config, &[], Vec::new(), 0).unwrap();
    let (_, mut fx) = t.apply(Input::Request(Request::AutoStart), 0);
    let mut now = 0;
    // Run the redeal window's polls until the first bot move is asked for.
    let job = loop {
        if let Some(i) = fx.jobs.iter().position(|j| j.bot().is_some()) {
            break fx.jobs.swap_remove(i);
        }
        fx = match fx.jobs.pop() {
            Some(j) => t.apply(Input::Done(j.run()), now).1,
            None => {
                now = fx.wake.expect("the table waits for its clock");
                t.apply(Input::Tick, now).1
            }
        };
        assert!(now < 60_000, "no bot move was asked for");
    };
    let job = job.with_budget(Budget { think_ms: 7 });
    assert!(matches!(job.work, Work::Bot { budget: Budget { think_ms: 7 }, .. }));
    // The move it thinks of is the table's next move.
    let moves = t.moves();
    t.apply(Input::Done(job.run()), now);
    assert_eq!(t.moves(), moves + 1);
}

mod stakes {
    use super::*;
    use crate::game::StakeAsk;
    use crate::log::LogError;
    use serde_json::json;
    use wire::{Legal, MatchSummary};

    /// A person at seat 0 and three bots, the banker naming stakes from 2 to 8.
    fn staked(hands: &str) -> Sim<Madiao> {
        let mut doc = settings(GameKind::Madiao, &[("game_length", hands)]);
        doc.stake_max = Some(8);
        let mut sim = Sim::<Madiao>::new(config(doc, open_and_bots()));
        sim.join(1, guest(0), Some(0));
        sim
    }

    fn stake_ask(sim: &Sim<Madiao>) -> Option<StakeAsk> {
        match sim.t.stage() {
            Stage::Stake { ask, .. } => Some(*ask),
            _ => None,
        }
    }

    /// Runs until the person (seat 0) is asked for the stake.
    fn to_persons_stake(sim: &mut Sim<Madiao>) {
        let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::Stake { ask, .. } if ask.seat.number() == 0));
        assert!(ok, "seat 0 banks in a match where every seat banks");
    }

    fn stake_entries(sim: &Sim<Madiao>) -> Vec<(u32, u8, u32)> {
        sim.stored_log()
            .iter()
            .filter_map(|a| match Logged::<::madiao::Action>::parse(&a.action) {
                Ok(Logged::Stake(s)) => Some((a.hand, a.seat, s)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_banker_names_the_stake_before_the_deal_and_only_he_only_then_only_within_the_limits() {
        let mut sim = staked("each_banker_once");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
        // Each hand begins with its banker naming the stake; the bots name theirs.
        let banker_is_bot = stake_ask(&sim).is_some_and(|a| a.seat.number() != 0);
        if banker_is_bot {
            assert!(sim.t.hand().is_none(), "nothing is dealt before the stake");
            sim.act(1, json!({"stake": 4}));
            assert_eq!(
                sim.errors(1).last(),
                Some(&ErrorCode::NotYourTurn),
                "the banker names it, not seat 0"
            );
        }
        to_persons_stake(&mut sim);
        let hand = sim.t.hand;
        assert!(sim.t.hand().is_none(), "the cards are not dealt while the banker chooses");
        let ServerMsg::Sync(sync) = sim.t.sync_for(1, sim.now).unwrap() else { panic!() };
        assert_eq!(sync.legal, Some(Legal::Stake { low: 2, high: 8 }));
        assert!(sync.view.is_none());
        assert!(
            matches!(sync.timer, Some(Timer::Turn { seat, remaining_ms: Some(_), .. }) if seat.number() == 0)
        );
        let errors = sim.errors(1).len();
        sim.act(1, json!({"stake": 5}));
        sim.act(1, json!({"stake": 10}));
        sim.act(1, json!({"stake": 0}));
        sim.act(1, json!({"play": "M9"}));
        assert_eq!(
            sim.errors(1)[errors..],
            [ErrorCode::Illegal, ErrorCode::Illegal, ErrorCode::Illegal, ErrorCode::NotYourTurn]
        );
        let ServerMsg::Error(e) = last_to(&sim, 1) else { panic!() };
        assert!(e.message.contains("names the stake first"), "{}", e.message);
        assert!(stake_ask(&sim).is_some(), "refused stakes change nothing");
        sim.act(1, json!({"stake": 6}));
        assert!(stake_ask(&sim).is_none());
        let (h, st) = sim.t.hand().unwrap();
        assert_eq!((h, st.stake(), st.banker().number()), (hand, 6, 0));
        assert_eq!(stake_entries(&sim).last(), Some(&(hand, 0, 6)));
        assert!(sim.got.iter().any(|(c, m)| *c == 1
            && matches!(m, ServerMsg::Update(u) if u.event == TableEvent::Stake { seat: Seat::ALL[0], stake: 6, by_bot: false })));
        // After the deal the stake is fixed for the hand.
        let errors = sim.errors(1).len();
        sim.act(1, json!({"stake": 4}));
        assert_eq!(sim.errors(1)[errors..], [ErrorCode::TooLate]);
        assert_eq!(sim.t.hand().unwrap().1.stake(), 6);
        sim.check_log();
        // A table resumed from its log deals the hand at the stake named.
        let t = resumed(sim.t.doc.clone(), &sim.stored_log());
        assert_eq!(t.hand().map(|(h, st)| (h, st.stake())), Some((hand, 6)));
    }

    #[test]
    fn a_table_resumed_while_its_banker_chooses_asks_him_again() {
        let mut sim = staked("each_banker_once");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
        to_persons_stake(&mut sim);
        let t = resumed(sim.t.doc.clone(), &sim.stored_log());
        assert_eq!(
            stake_ask(&sim),
            match t.stage() {
                Stage::Stake { ask, .. } => Some(*ask),
                _ => None,
            }
        );
        assert_eq!(t.results().len(), sim.t.results().len());
        assert!(t.hand().is_none());
    }

    #[test]
    fn when_the_bankers_clock_runs_out_the_stake_is_the_lowest() {
        let mut sim = staked("each_banker_once");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
        to_persons_stake(&mut sim);
        let Stage::Stake { deadline: Some(deadline), .. } = *sim.t.stage() else { panic!() };
        sim.run_until(deadline - 1);
        assert!(stake_ask(&sim).is_some(), "he has his whole clock");
        sim.run_until(deadline);
        let hand = sim.t.hand;
        assert_eq!(stake_entries(&sim).last(), Some(&(hand, 0, 2)));
        assert_eq!(sim.t.hand().unwrap().1.stake(), 2);
        assert!(sim.t.summary(sim.now).seats[0].away);
    }

    #[test]
    fn a_log_whose_stake_breaks_the_limits_or_comes_from_another_seat_is_refused() {
        let mut sim = staked("each_banker_once");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
        to_persons_stake(&mut sim);
        sim.act(1, json!({"stake": 6}));
        let log = sim.stored_log();
        let k = log.iter().rposition(|a| a.action == r#"{"stake":6}"#).unwrap();
        let s = &sim.t.settings;
        let mut bad = log.clone();
        bad[k].action = r#"{"stake":7}"#.into();
        let e = replay::<Madiao>(s, 42, &bad).err().unwrap();
        assert!(e.to_string().contains("even number"), "{e}");
        bad[k].action = r#"{"stake":12}"#.into();
        assert!(replay::<Madiao>(s, 42, &bad).is_err());
        let mut bad = log.clone();
        bad[k].seat = 1;
        assert!(matches!(replay::<Madiao>(s, 42, &bad), Err(LogError::NotToMove { .. })));
        let mut bad = log.clone();
        bad[k].action = r#"{"play":"M9"}"#.into();
        assert!(matches!(replay::<Madiao>(s, 42, &bad), Err(LogError::Stake { .. })));
    }

    #[test]
    fn a_match_of_bots_with_stakes_keeps_a_ledger_in_chips_that_follows_each_hands_stake() {
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:8")]);
        doc.stake_max = Some(10);
        let mut sim = Sim::<Madiao>::new(config(doc, bots()));
        sim.feed(Request::AutoStart);
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        let Some(Write::Finish { record }) = sim.stored.last() else { panic!() };
        let ::ai::record::AnyRecord::Madiao(rec) = ::ai::record::parse(record).unwrap() else { panic!() };
        let stakes: Vec<u32> = rec.hands.iter().map(|h| h.stake).collect();
        assert!(stakes.len() >= 8, "8 hands, and any redeals");
        assert!(stakes.iter().any(|&s| s != stakes[0]), "the bots' stakes differ by standing: {stakes:?}");
        assert!(::madiao::record::replay(&rec).is_clean());
        let mut chips = [0.0; 4];
        for h in &rec.hands {
            for (c, x) in chips.iter_mut().zip(h.result.as_ref().unwrap().payoffs.0) {
                *c += x.to_f64() * f64::from(h.stake);
            }
        }
        let Some(MatchSummary::Madiao(m)) = sim.t.match_json() else { panic!() };
        assert_eq!(m.stakes, stakes);
        assert_eq!(m.chips, chips);
    }
}

/// The seats' last `seats` message's spectators' names, as connection `conn` got it.
fn watchers_seen<G: TableRules>(sim: &Sim<G>, conn: ConnId) -> Vec<String>
where
    G::Action: DeserializeOwned,
{
    let seats = sim.got.iter().rev().find_map(|(c, m)| match m {
        ServerMsg::Seats(s) if *c == conn => Some(s.watchers.clone()),
        _ => None,
    });
    seats.expect("a seats message")
}

#[test]
fn the_spectators_names_are_told_to_everyone_at_the_table_as_they_come_and_go() {
    let mut sim = person_and_bots(GameKind::Madiao, &[]);
    // Two spectators, one of them with two connections, and the seated person on a second one.
    sim.feed(Request::Watch { conn: 7, guest: guest(7) });
    assert_eq!(watchers_seen(&sim, 1), ["P7"]);
    sim.feed(Request::Watch { conn: 8, guest: guest(8) });
    sim.feed(Request::Watch { conn: 9, guest: guest(8) });
    sim.feed(Request::Watch { conn: 10, guest: guest(0) });
    assert_eq!(watchers_seen(&sim, 1), ["P7", "P8"], "one name a person; the player is no spectator");
    // The spectator who joined gets them in his sync.
    let ServerMsg::Sync(s) = last_to(&sim, 10) else { panic!("a sync") };
    assert_eq!(s.watchers, ["P7", "P8"]);
    // One leaves: everyone is told.
    sim.feed(Request::Gone { conn: 7 });
    assert_eq!(watchers_seen(&sim, 1), ["P8"]);
    assert_eq!(watchers_seen(&sim, 8), ["P8"]);
    sim.feed(Request::Gone { conn: 8 });
    assert_eq!(watchers_seen(&sim, 1), ["P8"], "still watching on his other connection");
    sim.feed(Request::Gone { conn: 9 });
    assert_eq!(watchers_seen(&sim, 1), Vec::<String>::new());
}

/// The host's table management: closing, removing an away person, a rematch.
mod management {
    use super::*;
    use serde_json::json;

    /// The `host` events connection `conn` got, in order.
    fn host_events<G: TableRules>(sim: &Sim<G>, conn: ConnId) -> Vec<HostEvent>
    where
        G::Action: DeserializeOwned,
    {
        sim.got
            .iter()
            .filter(|(c, _)| *c == conn)
            .filter_map(|(_, m)| match m {
                ServerMsg::Host(h) => Some(h.event.clone()),
                _ => None,
            })
            .collect()
    }

    /// The host (g0) in seat 0, P1 in seat 1, bots in the others; the match under way.
    fn two_people(hands: &str) -> Sim<Madiao> {
        let mut seats = bots();
        seats[0] = SeatRow::Open;
        seats[1] = SeatRow::Open;
        let mut sim =
            Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", hands)]), seats));
        sim.join(1, guest(0), Some(0));
        sim.join(2, guest(1), Some(1));
        sim.run_until(sim.now + 1);
        assert_eq!(sim.t.status(), TableStatus::Playing);
        sim
    }

    #[test]
    fn the_host_closes_a_running_table_everyone_is_told_and_nothing_more_is_played() {
        let mut sim = two_people("hands:4");
        sim.feed(Request::Watch { conn: 3, guest: guest(5) });
        sim.run_until(sim.now + 3_000);
        // Not the host: refused, nothing changes.
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::NotHost));
        sim.feed(Request::Table { conn: 3, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.errors(3).last(), Some(&ErrorCode::NotHost));
        assert_eq!(sim.t.status(), TableStatus::Playing);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.t.status(), TableStatus::Closed);
        assert_eq!(sim.stored.last(), Some(&Write::Status(TableStatus::Closed)));
        for c in [1, 2, 3] {
            assert!(
                matches!(host_events(&sim, c).as_slice(), [HostEvent::Closed { by, .. }] if by == "P0"),
                "connection {c} is told"
            );
        }
        assert_eq!(sim.t.summary(sim.now).status, TableStatus::Closed);
        assert!(sim.t.timer_now(sim.now).is_none());
        // Nothing is played any more, and no record is written.
        let log = sim.stored_log().len();
        let moves = sim.t.moves();
        sim.run_until(sim.now + 120_000);
        assert_eq!(sim.t.moves(), moves);
        assert_eq!(sim.stored_log().len(), log);
        assert!(!sim.stored.iter().any(|w| matches!(w, Write::Finish { .. })));
        // Acting, closing again, a newcomer's join: refused with a clear code.
        sim.act(2, json!({"pass": true}));
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::Closed));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Closed));
        sim.join(9, guest(9), None);
        assert!(matches!(sim.replies.last(), Some((9, Err(r))) if r.code == ErrorCode::Closed));
        // Once everyone has gone it retires.
        for c in [1, 2, 3] {
            sim.feed(Request::Gone { conn: c });
        }
        sim.run_until(sim.now + timing().retire_ms + 1);
        assert!(sim.retired);
    }

    #[test]
    fn a_closed_table_loaded_again_stays_closed_with_its_hands() {
        let mut sim = two_people("hands:8");
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. })));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        let hands = sim.t.results().len();
        assert!(hands >= 1);
        let mut c = config(
            settings(GameKind::Madiao, &[("game_length", "hands:8")]),
            sim.t.seats.clone().map(|s| s.owner),
        );
        c.status = TableStatus::Closed;
        let mut t = Table::<Madiao>::new(c, &sim.stored_log(), Vec::new(), 0).unwrap();
        assert_eq!(t.status(), TableStatus::Closed);
        assert_eq!(t.results().len(), hands);
        assert!(matches!(t.stage(), Stage::MatchOver { record_due: false, .. }));
        let fx = t.start(0);
        assert!(fx.jobs.is_empty(), "nothing is played");
    }

    #[test]
    fn a_finished_match_cannot_be_closed() {
        let mut sim = two_people("hands:1");
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Finished));
        assert_eq!(sim.t.status(), TableStatus::Finished);
    }

    #[test]
    fn the_host_removes_an_away_person_only_and_the_seat_opens() {
        let mut sim = two_people("hands:4");
        sim.feed(Request::Watch { conn: 3, guest: guest(5) });
        // P1 is at the table: refused.
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 1 }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotAway));
        // Not the host; a bot's seat; no such seat.
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Remove { seat: 0 }, at_ms: 0 });
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::NotHost));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 2 }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::BadMessage));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 7 }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::BadMessage));
        assert!(matches!(sim.t.summary(sim.now).seats[1].kind, SeatKind::Person));
        // His connection drops: during the grace period he is away, and may be removed.
        sim.feed(Request::Gone { conn: 2 });
        assert!(sim.t.summary(sim.now).seats[1].grace_ms.is_some());
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 1 }, at_ms: 0 });
        assert_eq!(sim.stored.last(), Some(&Write::Seat { seat: 1, owner: SeatRow::Open }));
        let seat = &sim.t.summary(sim.now).seats[1];
        assert_eq!(seat.kind, SeatKind::Open);
        assert!(seat.bot_plays, "a bot plays the open seat");
        for c in [1, 3] {
            assert!(
                matches!(host_events(&sim, c).as_slice(), [HostEvent::Removed { seat, name }] if seat.number() == 1 && name == "P1")
            );
        }
        // Coming back he is told, and may watch; someone else may take the seat.
        sim.join(4, guest(1), None);
        assert!(matches!(sim.replies.last(), Some((4, Err(r))) if r.code == ErrorCode::Removed));
        sim.feed(Request::Watch { conn: 4, guest: guest(1) });
        assert_eq!(sim.replies.last(), Some(&(4, Ok(()))));
        sim.join(5, guest(6), Some(1));
        assert_eq!(sim.replies.last(), Some(&(5, Ok(()))));
        assert_eq!(sim.t.summary(sim.now).seats[1].name.as_deref(), Some("P6"));
        sim.check_log();
    }

    #[test]
    fn a_connected_person_whose_clock_ran_out_can_be_removed_and_watches() {
        let mut seats = bots();
        seats[0] = SeatRow::Open;
        seats[1] = SeatRow::Open;
        let doc = settings(GameKind::Madiao, &[("game_length", "hands:4")]);
        let mut sim = Sim::<Madiao>::new(config(doc, seats));
        sim.join(1, guest(0), Some(0));
        sim.join(2, guest(1), Some(1));
        // Until P1's clock runs out at his turn.
        let ok = sim.run_to(10_000_000, |s| matches!(s, Stage::Turn { seat, .. } if seat.number() == 1));
        assert!(ok);
        let Stage::Turn { deadline: Some(d), .. } = *sim.t.stage() else { panic!() };
        sim.run_until(d + 1);
        assert!(sim.t.summary(sim.now).seats[1].away);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 1 }, at_ms: 0 });
        assert_eq!(sim.t.summary(sim.now).seats[1].kind, SeatKind::Open);
        // His connection watches now: its sync says so.
        let ServerMsg::Sync(s) = last_to(&sim, 2) else { panic!("a sync") };
        assert_eq!(s.you.seat, None);
        sim.act(2, json!({"pass": true}));
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::NotSeated));
    }

    #[test]
    fn nobody_is_removed_once_the_match_is_over() {
        let mut sim = two_people("hands:1");
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        sim.feed(Request::Gone { conn: 2 });
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 1 }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Finished));
    }

    #[test]
    fn a_rematch_is_offered_once_at_the_end_of_the_match_by_the_host() {
        let mut sim = two_people("hands:1");
        sim.feed(Request::Watch { conn: 3, guest: guest(5) });
        // Before the end: refused.
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotOver));
        assert!(sim.orders.is_empty());
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::NotHost));
        assert!(sim.orders.is_empty());
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        let [order] = sim.orders.as_slice() else { panic!("one order: {:?}", sim.orders) };
        assert_eq!(order.host, "g0");
        assert_eq!(order.settings, settings(GameKind::Madiao, &[("game_length", "hands:1")]));
        assert_eq!(order.seats[1], SeatRow::Person { guest: "g1".into(), name: "P1".into() });
        assert_eq!(order.seats[2], SeatRow::Bot("random".into()));
        // Asked again while it is being made, then once made: refused, no second table.
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::RematchOffered));
        sim.feed(Request::Rematched { table: Ok("t2".into()) });
        for c in [1, 2, 3] {
            assert_eq!(host_events(&sim, c), [HostEvent::Rematch { table: "t2".into() }]);
        }
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::RematchOffered));
        assert_eq!(sim.orders.len(), 1);
        // Someone coming later learns it from his sync.
        sim.feed(Request::Watch { conn: 4, guest: guest(7) });
        let ServerMsg::Sync(s) = last_to(&sim, 4) else { panic!("a sync") };
        assert_eq!(s.rematch.as_deref(), Some("t2"));
    }

    #[test]
    fn a_rematch_that_could_not_be_made_may_be_asked_again() {
        let mut sim = two_people("hands:1");
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        sim.feed(Request::Rematched { table: Err(RematchError::Failed("disk full".into())) });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Unavailable));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.orders.len(), 2);
    }

    #[test]
    fn a_closed_table_offers_no_rematch() {
        let mut sim = two_people("hands:4");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Rematch, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Closed));
        assert!(sim.orders.is_empty());
    }

    #[test]
    fn an_invited_seat_is_kept_for_its_person_until_the_match_begins() {
        // The rematch's table: the host's seat his, P1's open and kept for him, bots.
        let mut seats = bots();
        seats[0] = SeatRow::Person { guest: "g0".into(), name: "P0".into() };
        seats[1] = SeatRow::Open;
        let doc = settings(GameKind::Madiao, &[("game_length", "hands:2")]);
        let mut sim = Sim::<Madiao>::new(config(doc, seats));
        sim.feed(Request::Invite { guests: [None, Some(guest(1)), None, None] });
        assert_eq!(sim.t.summary(sim.now).seats[1].invited.as_deref(), Some("P1"));
        sim.join(1, guest(0), None);
        sim.run_until(sim.now + 1);
        assert_eq!(sim.t.status(), TableStatus::Waiting, "the match waits for the invited person");
        // Someone else: refused the kept seat, and not given it as the first open one.
        sim.join(3, guest(5), Some(1));
        assert!(matches!(sim.replies.last(), Some((3, Err(r))) if r.code == ErrorCode::SeatTaken));
        sim.join(3, guest(5), None);
        assert!(matches!(sim.replies.last(), Some((3, Err(r))) if r.code == ErrorCode::NoSeat));
        // He takes it by joining: the match begins.
        sim.join(2, guest(1), None);
        assert_eq!(sim.replies.last(), Some(&(2, Ok(()))));
        assert_eq!(sim.t.summary(sim.now).seats[1].guest.as_deref(), Some("g1"));
        assert_eq!(sim.t.summary(sim.now).seats[1].invited, None);
        sim.run_until(sim.now + 1);
        assert_eq!(sim.t.status(), TableStatus::Playing);
    }

    #[test]
    fn an_invited_seat_whose_person_does_not_come_is_open_once_the_host_starts() {
        let mut seats = bots();
        seats[0] = SeatRow::Person { guest: "g0".into(), name: "P0".into() };
        seats[1] = SeatRow::Open;
        let mut sim = Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[]), seats));
        sim.feed(Request::Invite { guests: [None, Some(guest(1)), None, None] });
        sim.join(1, guest(0), None);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Start, at_ms: 0 });
        assert_eq!(sim.t.status(), TableStatus::Playing);
        assert_eq!(sim.t.summary(sim.now).seats[1].invited, None);
        sim.join(3, guest(5), None);
        assert_eq!(sim.replies.last(), Some(&(3, Ok(()))));
        assert_eq!(sim.t.summary(sim.now).seats[1].guest.as_deref(), Some("g5"));
    }
}

mod rated {
    use super::*;
    use crate::rated::{CLOCK_FORFEIT, RatedPlayer};

    fn rated_sim(hands: u32) -> Sim<Madiao> {
        let mut doc = settings(GameKind::Madiao, &[("game_length", &format!("hands:{hands}"))]);
        doc.rated = true;
        let mut sim = Sim::<Madiao>::new(config(doc, open_and_bots()));
        assert!(sim.t.summary(0).rated);
        sim.join(1, guest(0), Some(0));
        assert_eq!(sim.replies.last(), Some(&(1, Ok(()))));
        sim.run_to(1000, |s| !matches!(s, Stage::Waiting { .. }));
        assert_eq!(sim.t.status(), TableStatus::Playing);
        sim
    }

    fn rated_write(sim: &Sim<Madiao>) -> crate::rated::RatedMatch {
        let n = sim.stored.len();
        assert!(matches!(sim.stored[n - 2], Write::Finish { .. }), "{:?}", &sim.stored[n - 2..]);
        match &sim.stored[n - 1] {
            Write::Rated(m) => m.clone(),
            w => panic!("not the rated match: {w:?}"),
        }
    }

    #[test]
    fn a_rated_match_ends_with_its_standings_written_with_the_record() {
        let mut sim = rated_sim(2);
        // The person plays every turn of his at once.
        for _ in 0..10_000 {
            if matches!(sim.t.stage(), Stage::MatchOver { record_due: false, .. }) {
                break;
            }
            if let Stage::Turn { seat, .. } = sim.t.stage()
                && seat.number() == 0
            {
                let (_, a) = sim.first_legal();
                sim.act(1, action_value::<Madiao>(a));
                continue;
            }
            let next = sim.wake.unwrap_or(sim.now + 1);
            sim.run_until(next);
        }
        assert_eq!(sim.t.status(), TableStatus::Finished);
        let m = rated_write(&sim);
        assert_eq!(m.game, GameKind::Madiao);
        assert_eq!(m.seats.len(), 4);
        assert_eq!(m.seats[0].player, RatedPlayer::Person { guest: "g0".into(), name: "P0".into() });
        assert_eq!(m.seats[1].player, RatedPlayer::Bot("random".into()));
        assert!(m.seats.iter().all(|s| !s.forfeited), "{m:?}");
        let Some(MatchSummary::Madiao(summary)) = sim.t.match_json() else { panic!() };
        assert_eq!(m.seats.iter().map(|s| s.result).collect::<Vec<_>>(), summary.chips.to_vec());
        // A casual table writes no rated match.
        let mut casual = person_and_bots(GameKind::Madiao, &[("game_length", "hands:1")]);
        assert!(casual.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        assert!(matches!(casual.stored.last(), Some(Write::Finish { .. })));
        assert!(!casual.stored.iter().any(|w| matches!(w, Write::Rated(_))));
    }

    #[test]
    fn nobody_new_sits_at_a_rated_match_once_it_began_and_a_leaver_keeps_his_seat_and_forfeits() {
        let mut sim = rated_sim(2);
        sim.feed(Request::Watch { conn: 2, guest: guest(5) });
        sim.join(3, guest(5), Some(0));
        assert!(matches!(sim.replies.last(), Some((3, Err(r))) if r.code == ErrorCode::AlreadyStarted));
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Leave, at_ms: 0 });
        let last = sim.stored.last().unwrap().clone();
        let Write::Actions(rows) = last else { panic!("{last:?}") };
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].action, r#"{"forfeit":"left"}"#);
        assert_eq!(rows[0].seat, 0);
        assert!(sim.t.conduct().forfeited(0));
        assert!(sim.t.seated("g0"), "the seat stays his");
        let info = &sim.t.summary(sim.now).seats[0];
        assert!(info.away && info.bot_plays);
        // Resumed from its log, the table still knows he left.
        let log = sim.t.log();
        let mut c = config(sim.t.doc.clone(), sim.t.seats.clone().map(|s| s.owner));
        c.status = TableStatus::Playing;
        let again = Table::<Madiao>::new(c, &log, Vec::new(), 0).unwrap();
        assert!(again.conduct().forfeited(0));
        assert_eq!(again.hand_number(), sim.t.hand_number());
        // He may sit down again and play on; the match ends with his forfeit.
        sim.join(4, guest(0), None);
        assert_eq!(sim.replies.last(), Some(&(4, Ok(()))));
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        let m = rated_write(&sim);
        assert_eq!(m.seats.iter().map(|s| s.forfeited).collect::<Vec<_>>(), [true, false, false, false]);
        sim.check_log();
    }

    /// A rated Madiao match of `hands` hands under way: the host (g0) in seat 0, P1 in seat 1,
    /// bots in the others.
    fn rated_two(hands: u32) -> Sim<Madiao> {
        let mut doc = settings(GameKind::Madiao, &[("game_length", &format!("hands:{hands}"))]);
        doc.rated = true;
        let mut seats = bots();
        seats[0] = SeatRow::Open;
        seats[1] = SeatRow::Open;
        let mut sim = Sim::<Madiao>::new(config(doc, seats));
        sim.join(1, guest(0), Some(0));
        sim.join(2, guest(1), Some(1));
        sim.run_to(1000, |s| !matches!(s, Stage::Waiting { .. }));
        assert_eq!(sim.t.status(), TableStatus::Playing);
        sim
    }

    #[test]
    fn the_host_cannot_remove_a_player_from_a_rated_match_to_save_him_the_loss() {
        let mut sim = rated_two(4);
        // P1's connection drops: at a casual table the host could remove him now.
        sim.feed(Request::Gone { conn: 2 });
        let before = sim.stored.len();
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Remove { seat: 1 }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::AlreadyStarted));
        assert!(sim.t.seated("g1"), "the seat stays his");
        assert!(!sim.stored[before..].iter().any(|w| matches!(w, Write::Seat { .. })));
        // He is still one of the match's entrants at its end (an open seat would be none).
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        let m = rated_write(&sim);
        assert_eq!(m.seats[1].player, RatedPlayer::Person { guest: "g1".into(), name: "P1".into() });
    }

    #[test]
    fn closing_a_rated_match_in_progress_rates_it_as_it_stands_with_the_closer_forfeiting() {
        let mut sim = rated_two(8);
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. })));
        // Both persons are back at the table (their clocks ran out while nobody played).
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Back, at_ms: 0 });
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(sim.t.status(), TableStatus::Closed);
        let n = sim.stored.len();
        assert_eq!(sim.stored[n - 2], Write::Status(TableStatus::Closed));
        let Write::Rated(m) = &sim.stored[n - 1] else { panic!("not rated: {:?}", &sim.stored[n - 2..]) };
        assert_eq!(m.seats.len(), 4);
        assert_eq!(m.seats[0].player, RatedPlayer::Person { guest: "g0".into(), name: "P0".into() });
        assert_eq!(m.seats.iter().map(|s| s.forfeited).collect::<Vec<_>>(), [true, false, false, false]);
        let Some(MatchSummary::Madiao(summary)) = sim.t.match_json() else { panic!() };
        assert_eq!(m.seats.iter().map(|s| s.result).collect::<Vec<_>>(), summary.chips.to_vec());
        // Closing with the finished hands kept rates it the same way, after the record.
        let mut kept = rated_two(8);
        assert!(kept.run_to(10_000_000, |s| matches!(s, Stage::HandOver { .. })));
        kept.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
        kept.feed(Request::Table { conn: 2, msg: TableMsg::Back, at_ms: 0 });
        kept.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: true }, at_ms: 0 });
        let m = rated_write(&kept);
        assert_eq!(m.seats.iter().map(|s| s.forfeited).collect::<Vec<_>>(), [true, false, false, false]);
        // A casual table's close rates nothing.
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:8")]);
        doc.rated = false;
        let mut seats = bots();
        seats[0] = SeatRow::Open;
        let mut casual = Sim::<Madiao>::new(config(doc, seats));
        casual.join(1, guest(0), Some(0));
        casual.run_until(casual.now + 1);
        casual.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: false }, at_ms: 0 });
        assert_eq!(casual.t.status(), TableStatus::Closed);
        assert!(!casual.stored.iter().any(|w| matches!(w, Write::Rated(_))));
    }

    #[test]
    fn the_clock_running_out_is_logged_and_forfeits_a_rated_match_the_third_time() {
        let mut sim = rated_sim(40);
        let mut clocks = 0;
        while clocks < CLOCK_FORFEIT {
            let Some(deadline) = to_persons_turn(&mut sim) else { panic!("the match ended first") };
            sim.run_until(deadline + 1);
            clocks += 1;
            // He is back (so the next turn is his own again).
            sim.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
            sim.run_until(sim.now + 1);
            assert_eq!(sim.t.conduct().clock[0], clocks);
            assert_eq!(sim.t.conduct().forfeited(0), clocks >= CLOCK_FORFEIT);
        }
        let logged =
            sim.stored_log().iter().filter(|a| a.action == r#"{"forfeit":"clock"}"# && a.seat == 0).count();
        assert_eq!(logged as u32, CLOCK_FORFEIT, "each time is in the log");
        let log = sim.t.log();
        let mut c = config(sim.t.doc.clone(), sim.t.seats.clone().map(|s| s.owner));
        c.status = TableStatus::Playing;
        assert!(Table::<Madiao>::new(c, &log, Vec::new(), 0).unwrap().conduct().forfeited(0));
        sim.check_log();
    }
}

/// Clocks a person can live with: untimed tables alone with bots, time banks, taking the seat
/// back; and, alone with bots, take-backs and pauses.
mod clocks_and_takebacks {
    use super::*;
    use wire::NewTable;

    /// The table settings `POST /api/tables` makes of `req` (as the server does).
    fn settings_of(req: &NewTable, hands: &str) -> TableSettings {
        let mut doc = settings(req.game, &[("game_length", hands)]);
        doc.turn_seconds = req.turn_seconds;
        doc.untimed = req.untimed();
        doc.bank_seconds = req.bank();
        doc
    }

    fn timed(bank: u32, hands: &str) -> TableSettings {
        let mut req = NewTable::new(GameKind::Madiao);
        req.untimed = Some(false);
        req.bank_seconds = Some(bank);
        settings_of(&req, hands)
    }

    fn solo<G: TableRules>(doc: TableSettings) -> Sim<G>
    where
        G::Action: DeserializeOwned,
    {
        let mut sim = Sim::<G>::new(config(doc, open_and_bots()));
        sim.join(1, guest(0), Some(0));
        assert_eq!(sim.replies.last(), Some(&(1, Ok(()))));
        sim
    }

    /// Runs until seat 0 is to move (at an untimed table too, where the turn has no deadline).
    fn to_turn<G: TableRules>(sim: &mut Sim<G>)
    where
        G::Action: DeserializeOwned,
    {
        to_persons_turn(sim);
        assert!(
            matches!(sim.t.stage(), Stage::Turn { seat, .. } if seat.number() == 0),
            "his turn: {:?}",
            sim.t.stage()
        );
    }

    /// The game's variants for a short match (Da Bai Fen has no length but its end).
    fn short(game: GameKind) -> &'static [(&'static str, &'static str)] {
        if game == GameKind::Madiao { &[("game_length", "hands:1")] } else { &[] }
    }

    /// The last timer connection `conn` was sent.
    fn last_timer<G: TableRules>(sim: &Sim<G>, conn: ConnId) -> Option<Timer>
    where
        G::Action: DeserializeOwned,
    {
        sim.got
            .iter()
            .rev()
            .filter(|(c, m)| {
                *c == conn && matches!(m, ServerMsg::Sync(_) | ServerMsg::Update(_) | ServerMsg::Seats(_))
            })
            .map(|(_, m)| timer_of(m))
            .next()
            .flatten()
    }

    fn turn_timer<G: TableRules>(sim: &mut Sim<G>) -> Option<Timer>
    where
        G::Action: DeserializeOwned,
    {
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Resync, at_ms: 0 });
        timer_of(&last_to(sim, 1))
    }

    #[test]
    fn a_person_alone_with_bots_plays_untimed_by_default_and_waits_five_minutes_with_no_stand_in() {
        // The table a newcomer makes with every default: himself and three bots.
        let req = NewTable::new(GameKind::Madiao);
        assert!(req.untimed(), "alone with bots, the default is untimed");
        assert_eq!(req.bank(), 0);
        // Others are asked for: today's clock, and a bank.
        let mut two = NewTable::new(GameKind::Madiao);
        two.seats = Some(vec![
            wire::SeatChoice::Me,
            wire::SeatChoice::Open,
            wire::SeatChoice::Bot { bot: None },
            wire::SeatChoice::Bot { bot: None },
        ]);
        assert!(!two.untimed());
        assert_eq!((two.turn_seconds, two.bank()), (30, crate::settings::BANK_DEFAULT));
        let mut sim = solo::<Madiao>(settings_of(&req, "hands:1"));
        to_turn(&mut sim);
        let moves = sim.t.moves();
        sim.run_until(sim.now + 5 * 60_000);
        assert_eq!(sim.t.moves(), moves, "nothing was played for him in 5 minutes");
        let seat = &sim.t.summary(sim.now).seats[0];
        assert!(!seat.away && !seat.bot_plays, "no bot stood in: {seat:?}");
        assert!(matches!(turn_timer(&mut sim), Some(Timer::Turn { remaining_ms: None, bank_ms: None, .. })));
        // A rated table is always timed.
        let mut rated = NewTable::new(GameKind::Madiao);
        rated.rated = true;
        rated.untimed = Some(true);
        assert!(!rated.untimed());
        // The host may still choose a clock.
        let mut clocked = NewTable::new(GameKind::Madiao);
        clocked.untimed = Some(false);
        assert!(!clocked.untimed());
        assert_eq!(clocked.bank(), crate::settings::BANK_DEFAULT);
    }

    #[test]
    fn the_time_bank_is_drawn_down_when_the_turn_clock_runs_out_and_shown() {
        let mut sim = solo::<Madiao>(timed(20, "hands:2"));
        let deadline = to_persons_turn(&mut sim).expect("his turn");
        assert_eq!(
            turn_timer(&mut sim),
            Some(Timer::Turn {
                seat: Seat::ALL[0],
                remaining_ms: Some(deadline - sim.now),
                bank_ms: Some(20_000)
            })
        );
        // The turn clock runs out: no bot yet, the bank counts down.
        sim.run_until(deadline + 5_000);
        assert!(!sim.t.summary(sim.now).seats[0].bot_plays, "the bank holds off the bot");
        assert_eq!(
            turn_timer(&mut sim),
            Some(Timer::Turn { seat: Seat::ALL[0], remaining_ms: Some(0), bank_ms: Some(15_000) })
        );
        let (_, a) = sim.first_legal();
        sim.act(1, action_value::<Madiao>(a));
        assert!(sim.errors(1).is_empty(), "{:?}", sim.errors(1));
        // His next turn: a whole turn clock, and what is left of the bank.
        let deadline = to_persons_turn(&mut sim).expect("another turn");
        assert_eq!(deadline - sim.now, 30_000);
        assert!(matches!(turn_timer(&mut sim), Some(Timer::Turn { bank_ms: Some(15_000), .. })));
        // Both run out: then a bot stands in, and the bank is spent.
        let moves = sim.t.moves();
        sim.run_until(deadline + 14_999);
        assert_eq!(sim.t.moves(), moves, "the rest of the bank");
        sim.run_until(deadline + 15_000 + 1_000);
        assert!(sim.t.moves() > moves, "a bot stood in once the bank ran out");
        assert!(sim.t.summary(sim.now).seats[0].away);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
        let deadline = to_persons_turn(&mut sim).expect("a turn after he is back");
        assert!(matches!(turn_timer(&mut sim), Some(Timer::Turn { bank_ms: Some(0), .. })));
        sim.run_until(deadline + 1);
        assert!(sim.t.summary(sim.now).seats[0].away, "no bank left: the bot at the turn clock's end");
        sim.check_log();
    }

    /// Taking the seat back gives a whole turn, whenever it is pressed: during the turn his clock
    /// ran out on while the bot that stands in thinks, or during a later turn of his that the
    /// bot has not played yet (a bot's move waits for its turn in the server's queue: seconds
    /// on a busy server; the turn clock ran meanwhile and was never restarted).
    #[test]
    fn taking_the_seat_back_always_gives_a_whole_turn() {
        for i in 0..20u64 {
            let mut sim = solo::<Madiao>(timed(0, "hands:2"));
            let deadline = to_persons_turn(&mut sim).expect("his turn");
            // His clock runs out; the bot that stands in is asked for a move.
            sim.now = deadline;
            sim.feed(Input::Tick);
            assert!(sim.t.summary(sim.now).seats[0].away, "try {i}: away");
            assert!(!sim.jobs.is_empty(), "try {i}: a bot thinks for him");
            if i % 2 == 1 {
                // The bot plays that turn; at his next turn the bot is slow to move.
                sim.run_until(sim.now);
                to_persons_turn(&mut sim).expect("a later turn");
                assert!(sim.t.summary(sim.now).seats[0].bot_plays);
            }
            // The moment he presses "take my seat back": up to 28.5 s into the bot's thinking.
            sim.now += (i / 2) * 3_000 + (i % 3) * 500;
            let moves = sim.t.moves();
            sim.feed(Request::Table { conn: 1, msg: TableMsg::Back, at_ms: 0 });
            let Stage::Turn { seat, deadline, .. } = *sim.t.stage() else { panic!("try {i}: a turn") };
            assert_eq!(seat.number(), 0, "try {i}: his turn, not the bot's");
            assert_eq!(deadline.map(|d| d - sim.now), Some(30_000), "try {i}: a whole turn");
            assert_eq!(
                last_timer(&sim, 1),
                Some(Timer::Turn { seat: Seat::ALL[0], remaining_ms: Some(30_000), bank_ms: None }),
                "try {i}: the clock he is shown"
            );
            // The bot's move, when it comes, is dropped; nothing is played for him in 29.9 s.
            sim.run_until(sim.now + 29_900);
            assert_eq!(sim.t.moves(), moves, "try {i}: his turn is his");
            assert!(!sim.t.summary(sim.now).seats[0].away, "try {i}");
            let (_, a) = sim.first_legal();
            sim.act(1, action_value::<Madiao>(a));
            assert_eq!(sim.t.moves(), moves + 1, "try {i}: he plays");
            sim.check_log();
        }
    }

    /// The view of connection 1 (seat 0), as a `sync` gives it.
    fn view_of<G: TableRules>(sim: &mut Sim<G>) -> (Value, Value)
    where
        G::Action: DeserializeOwned,
    {
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Resync, at_ms: 0 });
        let ServerMsg::Sync(s) = last_to(sim, 1) else { panic!("a sync") };
        (serde_json::to_value(&s.view).unwrap(), serde_json::to_value(&s.legal).unwrap())
    }

    fn the_player_takes_back_his_last_play<G: TableRules>(game: GameKind)
    where
        G::Action: DeserializeOwned,
        G::State: std::fmt::Debug,
    {
        // A long clock: the pause after a hand does not wait for him as an untimed table's would.
        let mut doc = settings(game, short(game));
        doc.turn_seconds = 3600;
        let mut sim = solo::<G>(doc);
        sim.feed(Request::Watch { conn: 9, guest: guest(9) });
        // Nothing of his to take back before his first play.
        to_turn(&mut sim);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::TakeBack, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NothingToTakeBack));
        // He plays, and the bots answer, up to his next turn (a Da Bai Fen declarer buries and
        // leads before anyone answers: then he plays on).
        let (mut before, mut answered) = (view_of(&mut sim), 0);
        for _ in 0..10 {
            to_turn(&mut sim);
            before = view_of(&mut sim);
            let log_before = sim.t.log().len();
            let hand = sim.t.hand_number();
            let legal = G::legal_actions(sim.t.hand().unwrap().1);
            sim.act(1, action_value::<G>(*legal.last().unwrap()));
            assert!(sim.errors(1).len() == 1, "{:?}", sim.errors(1));
            to_persons_turn(&mut sim);
            answered = sim.t.log().len() - log_before - 1;
            if answered > 0 && sim.t.hand_number() == hand {
                break;
            }
        }
        assert!(answered > 0, "the bots answered his play");
        let hand = sim.t.hand_number();
        let moves = sim.t.moves();
        sim.feed(Request::Table { conn: 1, msg: TableMsg::TakeBack, at_ms: 0 });
        assert_eq!(sim.errors(1).len(), 1, "{:?}", sim.errors(1));
        // The hand is as it was before his play, and it is his turn.
        assert_eq!(view_of(&mut sim), before, "the hand restored");
        assert!(matches!(sim.t.stage(), Stage::Turn { seat, .. } if seat.number() == 0));
        assert!(sim.t.moves() > moves, "the move number goes on");
        let last = sim.t.log().last().unwrap().clone();
        assert_eq!(last.action, format!(r#"{{"undo":{}}}"#, answered + 1));
        // The spectator saw it.
        assert!(sim.got.iter().any(|(c, m)| *c == 9
            && matches!(m, ServerMsg::Update(u) if matches!(u.event, TableEvent::TakeBack { seat, actions }
                if seat.number() == 0 && actions as usize == answered + 1))));
        sim.check_log();
        // He plays otherwise (if he can), and the hand goes on.
        let other = G::legal_actions(sim.t.hand().unwrap().1)[0];
        sim.act(1, action_value::<G>(other));
        to_persons_turn(&mut sim);
        sim.check_log();
        // The record notes the take-back and keeps the line finally played: it replays, and its
        // hand has the actions standing, not those taken back.
        let players = ["A", "B", "C", "D"].map(String::from);
        let log = sim.t.log();
        let record = record_of::<G>(&sim.t.settings, sim.t.seed, players, &log).unwrap();
        let doc: Value = serde_json::from_str(&record).unwrap();
        assert_eq!(
            doc["takebacks"],
            serde_json::json!([{ "hand": hand, "seat": 0, "count": 1, "actions": answered + 1 }])
        );
        let parsed = ::ai::record::parse(&record).expect("the record reads");
        let actions = match &parsed {
            ::ai::record::AnyRecord::Madiao(m) => {
                assert!(::madiao::record::replay(m).is_clean());
                m.hands[hand as usize].actions.len()
            }
            ::ai::record::AnyRecord::Dabaifen(d) => {
                assert!(::dabaifen::record::replay(d).is_clean());
                d.hands[hand as usize].actions.len()
            }
        };
        let r = replay::<G>(&sim.t.settings, sim.t.seed, &log).unwrap();
        assert_eq!(r.takebacks, vec![(hand, Seat::ALL[0], (answered + 1) as u32)]);
        let all_plays = log
            .iter()
            .filter(|a| a.hand == hand)
            .filter(|a| matches!(Logged::<G::Action>::parse(&a.action), Ok(Logged::Act(_))))
            .count();
        let standing = all_plays - (answered + 1);
        // The record leaves out the draw's passes, which the log keeps (Da Bai Fen).
        assert!(actions <= standing && actions + 48 >= standing, "{actions} of {standing}");
        assert_eq!(r.line.len(), standing, "the line standing has every action but those taken back");
    }

    #[test]
    fn madiao_a_player_alone_with_bots_takes_back_his_last_play_and_the_bots_answers() {
        the_player_takes_back_his_last_play::<Madiao>(GameKind::Madiao);
    }

    #[test]
    fn dabaifen_a_player_alone_with_bots_takes_back_his_last_play_and_the_bots_answers() {
        the_player_takes_back_his_last_play::<Dabaifen>(GameKind::Dabaifen);
    }

    #[test]
    fn take_backs_and_pauses_are_only_for_a_player_alone_with_bots_at_an_unrated_table() {
        let mut seats = bots();
        seats[0] = SeatRow::Open;
        seats[1] = SeatRow::Open;
        let mut sim =
            Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:1")]), seats));
        sim.join(1, guest(0), Some(0));
        sim.join(2, guest(1), Some(1));
        to_persons_turn(&mut sim).expect("a turn");
        for r in [
            Request::Table { conn: 1, msg: TableMsg::TakeBack, at_ms: 0 },
            Request::Table { conn: 1, msg: TableMsg::Pause, at_ms: 0 },
        ] {
            sim.feed(r);
            assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotAlone));
        }
        sim.feed(Request::Watch { conn: 3, guest: guest(7) });
        sim.feed(Request::Table { conn: 3, msg: TableMsg::Pause, at_ms: 0 });
        assert_eq!(sim.errors(3).last(), Some(&ErrorCode::NotSeated));
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:1")]);
        doc.rated = true;
        let mut sim = solo::<Madiao>(doc);
        to_persons_turn(&mut sim).expect("a turn");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Pause, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NotAlone));
    }

    #[test]
    fn a_board_of_a_rated_event_offers_no_aids_though_its_match_is_not_rated() {
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:1")]);
        doc.no_aids = true;
        let mut sim = solo::<Madiao>(doc);
        let summary = sim.t.summary(0);
        assert!(summary.no_aids && !summary.rated, "{summary:?}");
        to_persons_turn(&mut sim).expect("a turn");
        for (msg, code) in [
            (TableMsg::Hint, ErrorCode::HintsOff),
            (TableMsg::Tracker, ErrorCode::HintsOff),
            (TableMsg::TakeBack, ErrorCode::NotAlone),
            (TableMsg::Pause, ErrorCode::NotAlone),
        ] {
            sim.feed(Request::Table { conn: 1, msg: msg.clone(), at_ms: 0 });
            assert_eq!(sim.errors(1).last(), Some(&code), "{msg:?}");
        }
        // The same table without the mark gives the hint.
        let mut sim = solo::<Madiao>(settings(GameKind::Madiao, &[("game_length", "hands:1")]));
        to_persons_turn(&mut sim).expect("a turn");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Hint, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), None);
    }

    fn pause_and_resume<G: TableRules>(game: GameKind)
    where
        G::Action: DeserializeOwned,
        G::State: std::fmt::Debug,
    {
        let mut doc = settings(game, short(game));
        doc.bank_seconds = 10;
        let mut sim = solo::<G>(doc);
        sim.feed(Request::Watch { conn: 9, guest: guest(9) });
        let deadline = to_persons_turn(&mut sim).expect("his turn");
        sim.run_until(deadline - 1_000);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Pause, at_ms: 0 });
        assert_eq!(timer_of(&last_to(&sim, 1)), Some(Timer::Paused));
        assert_eq!(timer_of(&last_to(&sim, 9)), Some(Timer::Paused), "the spectator sees the pause");
        let (moves, log) = (sim.t.moves(), sim.t.log().len());
        sim.run_until(sim.now + 3_600_000);
        assert_eq!((sim.t.moves(), sim.t.log().len()), (moves, log), "an hour paused: nothing moves");
        assert!(!sim.t.summary(sim.now).seats[0].away);
        let (_, a) = sim.first_legal();
        sim.act(1, action_value::<G>(a));
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::Paused));
        // A reconnect keeps the pause.
        sim.feed(Request::Gone { conn: 1 });
        sim.join(2, guest(0), None);
        let ServerMsg::Sync(s) = last_to(&sim, 2) else { panic!("a sync") };
        assert_eq!(s.timer, Some(Timer::Paused));
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Resume, at_ms: 0 });
        assert!(matches!(*sim.t.stage(), Stage::Turn { deadline: Some(d), .. } if d - sim.now == 30_000));
        assert!(matches!(
            last_timer(&sim, 2),
            Some(Timer::Turn { remaining_ms: Some(30_000), bank_ms: Some(10_000), .. })
        ));
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Resume, at_ms: 0 });
        assert_eq!(sim.errors(2).last(), Some(&ErrorCode::NothingToDecide), "not paused");
        // Paused during the bots' play: they wait too.
        sim.act(2, action_value::<G>(a));
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Pause, at_ms: 0 });
        let moves = sim.t.moves();
        sim.run_until(sim.now + 600_000);
        assert_eq!(sim.t.moves(), moves, "the bots wait");
        sim.feed(Request::Table { conn: 2, msg: TableMsg::Resume, at_ms: 0 });
        sim.run_until(sim.now + 60_000);
        assert!(sim.t.moves() > moves, "resumed, the bots play");
        sim.check_log();
    }

    #[test]
    fn madiao_a_pause_stops_every_clock_and_the_bots_until_resumed() {
        pause_and_resume::<Madiao>(GameKind::Madiao);
    }

    #[test]
    fn dabaifen_a_pause_stops_every_clock_and_the_bots_until_resumed() {
        pause_and_resume::<Dabaifen>(GameKind::Dabaifen);
    }

    #[test]
    fn the_host_ends_the_match_and_keeps_its_finished_hands() {
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:4")]);
        doc.untimed = true;
        let mut sim = solo::<Madiao>(doc);
        to_turn(&mut sim);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: true }, at_ms: 0 });
        assert_eq!(sim.errors(1).last(), Some(&ErrorCode::NothingToKeep), "no hand finished yet");
        assert_eq!(sim.t.status(), TableStatus::Playing);
        // Play into the second hand.
        for _ in 0..300 {
            if !sim.t.results().is_empty() && matches!(sim.t.stage(), Stage::Turn { .. }) {
                break;
            }
            let ok = sim.run_to(10_000_000, |s| {
                matches!(s, Stage::Turn { seat, .. } if seat.number() == 0)
                    || matches!(s, Stage::HandOver { .. })
            });
            assert!(ok);
            match sim.t.stage() {
                Stage::HandOver { .. } => sim.feed(Request::Table { conn: 1, msg: TableMsg::Next, at_ms: 0 }),
                _ => {
                    let (_, a) = sim.first_legal();
                    sim.act(1, action_value::<Madiao>(a));
                }
            }
        }
        let hands = sim.t.results().len();
        assert!(hands >= 1);
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: true }, at_ms: 0 });
        assert_eq!(sim.t.status(), TableStatus::Finished);
        let Some(Write::Finish { record }) = sim.stored.last() else { panic!("the record is stored") };
        let doc: Value = serde_json::from_str(record).unwrap();
        assert_eq!(doc["ended"], serde_json::json!({ "hands": hands }));
        let ::ai::record::AnyRecord::Madiao(rec) = ::ai::record::parse(record).unwrap() else { panic!() };
        assert_eq!(rec.hands.len(), hands, "the finished hands, not the one being played");
        assert!(rec.hands.iter().all(|h| h.result.is_some()));
        assert!(::madiao::record::replay(&rec).is_clean());
        let ServerMsg::Host(HostMsg { event: HostEvent::Closed { kept, .. }, .. }) =
            sim.got.iter().rev().find(|(c, m)| *c == 1 && matches!(m, ServerMsg::Host(_))).unwrap().1.clone()
        else {
            panic!("told")
        };
        assert!(kept);
        let moves = sim.t.moves();
        sim.run_until(sim.now + 600_000);
        assert_eq!(sim.t.moves(), moves);
    }
}

/// Verifiable deals (docs/record.md, "Deal verification"): the commitment sent before each deal,
/// the seed revealed in the record, and a record's tampering named by hand.
mod deal_commitments {
    use super::*;
    use ::ai::record::{DealFault, parse, verify_deals};

    /// The faults `verify_deals` finds in `doc`, as (hand, fault) pairs.
    fn faults(doc: &Value) -> Vec<(usize, DealFault)> {
        let rec = parse(&doc.to_string()).expect("the tampered record still reads");
        verify_deals(&rec).problems.iter().map(|p| (p.hand, p.fault)).collect()
    }

    /// Every `deal` message a connection got comes before anything of its hand was dealt to it,
    /// and carries the commitment the record stores for that hand.
    fn check_sent_before_the_deal<G: TableRules>(sim: &Sim<G>, conn: ConnId, doc: &Value)
    where
        G::Action: DeserializeOwned,
    {
        let mine: Vec<&ServerMsg> = sim.got.iter().filter(|(c, _)| *c == conn).map(|(_, m)| m).collect();
        let hands = doc["hands"].as_array().unwrap();
        for (k, hand) in hands.iter().enumerate() {
            let sent = mine
                .iter()
                .position(|m| matches!(m, ServerMsg::Deal(d) if d.hand as usize == k))
                .unwrap_or_else(|| panic!("hand {k}'s commitment was sent"));
            let ServerMsg::Deal(d) = mine[sent] else { unreachable!() };
            assert_eq!(Some(d.commitment.as_str()), hand["commitment"].as_str(), "hand {k}");
            let dealt = mine
                .iter()
                .position(|m| matches!(m, ServerMsg::Update(u) if u.hand as usize == k && u.view.is_some()))
                .unwrap_or_else(|| panic!("hand {k} was dealt"));
            assert!(sent < dealt, "hand {k}: the commitment ({sent}) comes before the deal ({dealt})");
            // No message before the record carries the seed.
            let text = serde_json::to_string(mine[sent]).unwrap();
            assert!(!text.contains("seed"), "{text}");
        }
    }

    /// Each kind of tampering of a verified record is found, at the hands it touches.
    fn check_tampering(doc: &Value) {
        assert!(doc["hands"].as_array().unwrap().len() >= 2, "two hands at least");
        assert_eq!(faults(doc), vec![], "the record as stored verifies");
        // A changed seed: the deck and the commitment no longer follow from it.
        let mut d = doc.clone();
        d["hands"][1]["seed"] = serde_json::json!(43);
        assert_eq!(faults(&d), vec![(1, DealFault::Deck), (1, DealFault::Commitment)]);
        // A changed deck (two cards of hand 0 exchanged: another deal to the seats).
        let mut d = doc.clone();
        let deck = d["hands"][0]["deck"].as_array_mut().unwrap();
        deck.swap(0, 5);
        let rec = parse(&d.to_string()).unwrap();
        let check = verify_deals(&rec);
        assert_eq!(check.problems.len(), 1, "{:?}", check.problems);
        assert_eq!((check.problems[0].hand, check.problems[0].fault), (0, DealFault::Deck));
        assert!(check.problems[0].detail.contains("deck[0]"), "{}", check.problems[0].detail);
        assert!(check.problems[0].to_string().starts_with("hand 0: "), "{}", check.problems[0]);
        // A changed commitment.
        let mut d = doc.clone();
        let c = d["hands"][1]["commitment"].as_str().unwrap().to_string();
        let first = if c.as_bytes()[0] == b'0' { '1' } else { '0' };
        let flipped = format!("{first}{}", &c[1..]);
        d["hands"][1]["commitment"] = Value::String(flipped);
        assert_eq!(faults(&d), vec![(1, DealFault::Commitment)]);
        // Two hands exchanged: each is checked as the other's number.
        let mut d = doc.clone();
        d["hands"].as_array_mut().unwrap().swap(0, 1);
        assert_eq!(
            faults(&d),
            vec![
                (0, DealFault::Deck),
                (0, DealFault::Commitment),
                (1, DealFault::Deck),
                (1, DealFault::Commitment)
            ]
        );
        // Another table's name.
        let mut d = doc.clone();
        d["table"] = Value::String("t2".into());
        let n = d["hands"].as_array().unwrap().len();
        assert_eq!(faults(&d), (0..n).map(|k| (k, DealFault::Commitment)).collect::<Vec<_>>());
        // A seed left out.
        let mut d = doc.clone();
        d["hands"][0].as_object_mut().unwrap().remove("seed");
        assert_eq!(faults(&d), vec![(0, DealFault::Missing)]);
    }

    #[test]
    fn every_deal_of_a_finished_madiao_match_verifies_and_tampering_is_named_by_hand() {
        let mut doc = settings(GameKind::Madiao, &[("game_length", "hands:4")]);
        // Named stakes: the banker is asked first, and the commitment still precedes the cards.
        doc.stake_max = Some(10);
        let mut sim = Sim::<Madiao>::new(config(doc, bots()));
        sim.feed(Request::Watch { conn: 9, guest: guest(9) });
        sim.feed(Request::AutoStart);
        assert!(sim.run_to(10_000_000, |s| matches!(s, Stage::MatchOver { record_due: false, .. })));
        let Some(Write::Finish { record }) = sim.stored.last() else { panic!("the record is stored") };
        let doc: Value = serde_json::from_str(record).unwrap();
        assert_eq!(doc["table"], "t1");
        for h in doc["hands"].as_array().unwrap() {
            assert_eq!(h["seed"], 42, "the match's seed, revealed in the record");
        }
        let rec = parse(record).unwrap();
        let check = verify_deals(&rec);
        assert!(check.is_verified(), "{:?}", check.problems);
        assert_eq!(check.hands, sim.t.results().len());
        check_sent_before_the_deal(&sim, 9, &doc);
        check_tampering(&doc);
    }

    #[test]
    fn the_hands_kept_of_an_ended_dabaifen_match_verify() {
        let mut sim = Sim::<Dabaifen>::new(config(settings(GameKind::Dabaifen, &[]), bots()));
        // The host (g0) watches; the watcher 9 too.
        sim.feed(Request::Watch { conn: 1, guest: guest(0) });
        sim.feed(Request::Watch { conn: 9, guest: guest(9) });
        sim.feed(Request::AutoStart);
        for _ in 0..2000 {
            if sim.t.results().len() >= 3 || matches!(sim.t.stage(), Stage::MatchOver { .. }) {
                break;
            }
            let next = sim.now + 5_000;
            sim.run_until(next);
        }
        assert!(!matches!(sim.t.stage(), Stage::MatchOver { .. }), "three deals do not end a match");
        let finished = sim.t.results().len();
        assert!(finished >= 2, "{finished} deals finished");
        sim.feed(Request::Table { conn: 1, msg: TableMsg::Close { keep: true }, at_ms: 0 });
        let Some(Write::Finish { record }) = sim.stored.last() else { panic!("the record is stored") };
        let doc: Value = serde_json::from_str(record).unwrap();
        assert_eq!(doc["hands"].as_array().unwrap().len(), finished);
        let check = verify_deals(&parse(record).unwrap());
        assert!(check.is_verified(), "{:?}", check.problems);
        check_sent_before_the_deal(&sim, 9, &doc);
        check_tampering(&doc);
    }
}

/// The delayed watchers' stream (the TV): what they get, and when.
mod tv {
    use super::*;

    /// The plays (actions of a seat) a connection has been shown, per hand, from its updates.
    fn plays_seen(msgs: &[&ServerMsg], plays: &mut Vec<u64>) {
        for m in msgs {
            // A card put to a trick: a play, or a Madiao slough (face down).
            let trick_card = |a: &PublicAction| {
                matches!(
                    a,
                    PublicAction::Madiao(madiao::Action::Play(_) | madiao::Action::Slough(_))
                        | PublicAction::Hidden(wire::HiddenAction::Slough(()))
                        | PublicAction::Dabaifen(dabaifen::Action::Play(_))
                )
            };
            if let ServerMsg::Update(u) = m
                && let TableEvent::Action { action, .. } = &u.event
                && trick_card(action)
            {
                let h = u.hand as usize;
                if plays.len() <= h {
                    plays.resize(h + 1, 0);
                }
                plays[h] += 1;
            }
        }
    }

    /// One step of the simulation (a computation's result, else the clock); false when the
    /// table has nothing more to do.
    fn one_step<G: TableRules>(sim: &mut Sim<G>) -> bool
    where
        G::Action: DeserializeOwned,
    {
        if !sim.jobs.is_empty() {
            let job = sim.jobs.remove(0);
            let done = job.run();
            sim.feed(Input::Done(done));
            return true;
        }
        match sim.wake {
            Some(w) => {
                sim.now = sim.now.max(w);
                sim.feed(Input::Tick);
                true
            }
            None => false,
        }
    }

    /// A match of bots with a spectator (conn 5) and a delayed watcher (conn 6), step by step:
    /// after every step, the delayed watcher has been shown exactly the plays of the tricks
    /// complete for the spectator (a trick of four plays; a hand over shows all of it), and in
    /// the end every message the spectator got, in the same order.
    fn delayed_by_one_trick<G: TableRules>(game: GameKind, variants: &[(&str, &str)], delay: u32)
    where
        G::Action: DeserializeOwned,
    {
        let mut sim = Sim::<G>::new(config(settings(game, variants), bots()));
        sim.t.set_tv_delay(delay);
        sim.feed(Request::Watch { conn: 5, guest: guest(5) });
        sim.feed(Request::Tv { conn: 6, guest: guest(6) });
        assert_eq!(sim.replies, [(5, Ok(())), (6, Ok(()))]);
        sim.feed(Request::AutoStart);
        let (mut live, mut late) = (Vec::new(), Vec::new());
        let mut seen = 0;
        let mut steps = 0;
        // The hands the spectator saw end (a `next hand` pause or the match over after them).
        let mut ended: Vec<bool> = Vec::new();
        let mut held_back = 0;
        while one_step(&mut sim) {
            steps += 1;
            assert!(steps < 200_000, "the match ends");
            let new: Vec<(ConnId, ServerMsg)> = sim.got[seen..].to_vec();
            seen = sim.got.len();
            let to = |c: ConnId| new.iter().filter(|(x, _)| *x == c).map(|(_, m)| m).collect::<Vec<_>>();
            plays_seen(&to(5), &mut live);
            plays_seen(&to(6), &mut late);
            for m in to(5) {
                if let ServerMsg::Update(u) = m {
                    let h = u.hand as usize;
                    if ended.len() <= h {
                        ended.resize(h + 1, false);
                    }
                    if u.view.as_ref().is_some_and(|v| v.is_over()) {
                        ended[h] = true;
                    }
                }
            }
            for (h, &n) in live.iter().enumerate() {
                let shown = late.get(h).copied().unwrap_or(0);
                let over = ended.get(h).copied().unwrap_or(false) || sim.t.status().is_over();
                // The tricks complete `delay - 1` tricks ago (or the whole hand, once over).
                let complete = if over { n } else { (n / 4).saturating_sub(u64::from(delay) - 1) * 4 };
                if over && delay == 1 {
                    assert_eq!(shown, n, "hand {h} is over: all of it is shown");
                } else {
                    assert!(
                        shown <= complete,
                        "hand {h}: {shown} plays shown of {n}, {complete} in complete tricks"
                    );
                }
                if !over && delay == 1 {
                    assert_eq!(shown, complete, "hand {h}: each trick is shown once complete");
                }
                held_back += usize::from(shown < n);
            }
        }
        assert!(sim.t.status().is_over(), "{:?}", sim.t.stage());
        assert!(held_back > 0, "something was held back");
        assert!(live.iter().sum::<u64>() > 20, "{live:?}");
        // In the end he got what the spectator got after his sync, in the same order.
        let ServerMsg::Sync(first) = &sim.got.iter().find(|(x, _)| *x == 6).unwrap().1 else {
            panic!("a sync first")
        };
        let v_of = |m: &ServerMsg| match m {
            ServerMsg::Update(u) => u.v,
            ServerMsg::Seats(s) => s.v,
            ServerMsg::Chat(c) => c.v,
            ServerMsg::Host(h) => h.v,
            _ => 0,
        };
        let of = |c: ConnId| {
            sim.got
                .iter()
                .filter(|(x, m)| *x == c && !matches!(m, ServerMsg::Sync(_)) && v_of(m) > first.v)
                .map(|(_, m)| m.clone())
                .collect::<Vec<_>>()
        };
        let (a, b) = (of(5), of(6));
        assert_eq!(a.len(), b.len());
        assert!(a == b, "the delayed stream is the spectator's, later");
    }

    #[test]
    fn a_delayed_watcher_sees_each_madiao_trick_once_it_is_complete_and_the_rest_later() {
        delayed_by_one_trick::<Madiao>(GameKind::Madiao, &[("game_length", "hands:2")], 1);
    }

    #[test]
    fn a_delayed_watcher_sees_each_dabaifen_trick_once_it_is_complete() {
        delayed_by_one_trick::<Dabaifen>(GameKind::Dabaifen, &[("revoke", "refuse")], 1);
    }

    #[test]
    fn a_delay_of_two_tricks_keeps_a_whole_trick_more_back() {
        delayed_by_one_trick::<Madiao>(GameKind::Madiao, &[("game_length", "hands:1")], 2);
    }

    /// A delayed watcher who comes in the middle of a hand at a table nobody watched through the
    /// delay gets exactly what one who had watched all along gets from then on: the same `sync`
    /// (the table at the last complete trick) and the same messages after it, to the end of the
    /// match — neither more nor less. Two runs of the same match: in one, conn 7 follows the TV
    /// from the start; in the other he is a plain spectator (so both tables have the same people
    /// watching), and nobody is delayed before conn 6 comes.
    fn late_watcher_sees_the_delayed_view<G: TableRules>(
        game: GameKind,
        variants: &[(&str, &str)],
        delay: u32,
    ) where
        G::Action: DeserializeOwned,
    {
        let run = |watched: bool| {
            let mut sim = Sim::<G>::new(config(settings(game, variants), bots()));
            sim.t.set_tv_delay(delay);
            sim.feed(Request::Watch { conn: 5, guest: guest(5) });
            match watched {
                true => sim.feed(Request::Tv { conn: 7, guest: guest(7) }),
                false => sim.feed(Request::Watch { conn: 7, guest: guest(7) }),
            }
            sim.feed(Request::AutoStart);
            // To the middle of the second trick (six cards played, as the spectator saw).
            let mut plays = Vec::new();
            let mut seen = 0;
            while plays.iter().sum::<u64>() < 6 {
                assert!(one_step(&mut sim), "the hand goes on");
                let new: Vec<&ServerMsg> =
                    sim.got[seen..].iter().filter(|(c, _)| *c == 5).map(|(_, m)| m).collect();
                plays_seen(&new, &mut plays);
                seen = sim.got.len();
            }
            let at = sim.got.len();
            sim.feed(Request::Tv { conn: 6, guest: guest(6) });
            let mut steps = 0;
            while one_step(&mut sim) {
                steps += 1;
                assert!(steps < 200_000, "the match ends");
            }
            let later: Vec<ServerMsg> =
                sim.got[at..].iter().filter(|(c, _)| *c == 6).map(|(_, m)| m.clone()).collect();
            (later, sim.t.status().is_over())
        };
        let (all_along, over) = run(true);
        let (late, _) = run(false);
        assert!(over, "the match ended");
        let ServerMsg::Sync(s) = &late[0] else { panic!("a sync first: {:?}", late[0]) };
        assert!(s.legal.is_none(), "a spectator's sync");
        // After one trick, with a delay of one, the table at its end; with a delay of two, not
        // yet a boundary old enough: the table without its hand (docs/protocol.md).
        assert_eq!(s.view.is_some(), delay == 1, "{s:?}");
        assert!(late.len() > 10, "he follows the rest of the match: {} messages", late.len());
        assert_eq!(late.len(), all_along.len(), "as many messages as one who watched all along");
        for (i, (a, b)) in all_along.iter().zip(&late).enumerate() {
            assert!(a == b, "message {i} differs:\n{a:?}\n{b:?}");
        }
    }

    /// The TV with nobody watching changes no step of a match, and what it costs
    /// (`docs/performance.md`, "The TV when nobody watches"): the time the table's steps take
    /// (the bots' thinking left out) over whole matches of bots with one spectator and nobody on
    /// the TV, with the TV's delay at one trick and at 0 (off), printed. One round each in the
    /// suite; the measurement is `YEZI_TV_COST_ROUNDS=20 cargo test -p table --lib tv_cost --
    /// --nocapture`.
    #[test]
    fn tv_cost_when_nobody_watches() {
        fn run(delay: u32) -> (std::time::Duration, u64) {
            let mut sim =
                Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:8")]), bots()));
            sim.t.set_tv_delay(delay);
            sim.feed(Request::Watch { conn: 5, guest: guest(5) });
            sim.feed(Request::AutoStart);
            let (mut spent, mut steps) = (std::time::Duration::ZERO, 0u64);
            loop {
                let input = if !sim.jobs.is_empty() {
                    Input::Done(sim.jobs.remove(0).run())
                } else if let Some(w) = sim.wake {
                    sim.now = sim.now.max(w);
                    Input::Tick
                } else {
                    break;
                };
                let t0 = std::time::Instant::now();
                sim.feed(input);
                spent += t0.elapsed();
                steps += 1;
            }
            assert!(sim.t.status().is_over(), "the match ended");
            (spent, steps)
        }
        // Alternately, twenty rounds each, so that the machine's load falls on both alike; the
        // mean and the fastest round (the least disturbed) per step.
        let n_rounds: usize =
            std::env::var("YEZI_TV_COST_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
        let mut rounds: [Vec<(f64, u64)>; 2] = [Vec::new(), Vec::new()];
        for _ in 0..n_rounds {
            for (i, delay) in [1, 0].into_iter().enumerate() {
                let (t, n) = run(delay);
                rounds[i].push((t.as_secs_f64() * 1e6, n));
            }
        }
        assert!(rounds.iter().flatten().all(|r| r.1 == rounds[0][0].1), "the same match, step for step");
        for (i, delay) in [1, 0].into_iter().enumerate() {
            let n: u64 = rounds[i].iter().map(|r| r.1).sum();
            let us: f64 = rounds[i].iter().map(|r| r.0).sum();
            let best = rounds[i].iter().map(|r| r.0 / r.1 as f64).fold(f64::INFINITY, f64::min);
            println!(
                "tv delay {delay}: {n} steps, {:.2} µs per step on average, {best:.2} µs in the fastest round",
                us / n as f64
            );
        }
    }

    #[test]
    fn a_late_delayed_watcher_gets_what_one_watching_all_along_gets_madiao() {
        late_watcher_sees_the_delayed_view::<Madiao>(GameKind::Madiao, &[("game_length", "hands:2")], 1);
        late_watcher_sees_the_delayed_view::<Madiao>(GameKind::Madiao, &[("game_length", "hands:1")], 2);
    }

    #[test]
    fn a_late_delayed_watcher_gets_what_one_watching_all_along_gets_dabaifen() {
        late_watcher_sees_the_delayed_view::<Dabaifen>(GameKind::Dabaifen, &[("revoke", "refuse")], 1);
    }

    #[test]
    fn a_delayed_watcher_coming_in_the_middle_of_a_trick_gets_the_table_as_it_was_when_the_last_trick_ended()
    {
        let mut sim =
            Sim::<Madiao>::new(config(settings(GameKind::Madiao, &[("game_length", "hands:1")]), bots()));
        sim.feed(Request::Watch { conn: 5, guest: guest(5) });
        sim.feed(Request::AutoStart);
        let mut plays = Vec::new();
        let mut seen = 0;
        // The move number after the last complete trick, as the spectator saw it.
        let mut at_boundary = None;
        while plays.iter().sum::<u64>() < 6 {
            assert!(one_step(&mut sim), "the hand goes on");
            let new: Vec<ServerMsg> =
                sim.got[seen..].iter().filter(|(c, _)| *c == 5).map(|(_, m)| m.clone()).collect();
            seen = sim.got.len();
            for m in &new {
                plays_seen(&[m], &mut plays);
                if let ServerMsg::Update(u) = m
                    && plays.iter().sum::<u64>() % 4 == 0
                {
                    at_boundary = Some((u.v, u.move_no));
                }
            }
        }
        let (v, move_no) = at_boundary.expect("a trick was complete");
        sim.feed(Request::Tv { conn: 6, guest: guest(6) });
        let ServerMsg::Sync(s) = last_to(&sim, 6) else { panic!("a sync") };
        assert_eq!((s.move_no, s.you.name.as_str(), s.legal.is_none()), (move_no, "P6", true));
        assert!(s.v >= v && s.v < sim.t.v, "the sync is the table at the trick's end, not now");
        // A resync gives him the same again.
        sim.feed(Request::Table { conn: 6, msg: TableMsg::Resync, at_ms: 0 });
        let ServerMsg::Sync(again) = last_to(&sim, 6) else { panic!("a sync") };
        assert_eq!(again.move_no, move_no);
    }
}
