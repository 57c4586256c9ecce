//! The clock: turn clocks, time banks, grace periods, pauses, the next wake-up.

use super::*;

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    pub(super) fn watch_presence(&mut self, now: Millis) {
        if !self.members.is_empty() || self.status != TableStatus::Playing {
            self.park_at = None;
        } else if self.park_at.is_none() {
            self.park_at = Some(now + self.timing.park_ms);
        }
    }

    pub(super) fn unpark(&mut self, now: Millis) {
        self.status = TableStatus::Playing;
        let Stage::Parked { was } = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false })
        else {
            return;
        };
        self.restore(*was, now);
    }

    /// The stage `was` goes on after a stop (parked, paused): its clocks start afresh.
    pub(super) fn restore(&mut self, was: Stage, now: Millis) {
        self.stage = match was {
            Stage::Draw { shown, .. } => Stage::Draw { shown, due: now + self.draw_every() },
            Stage::Window { .. } => Stage::Window { until: now + self.window_len() },
            Stage::Trick { .. } => Stage::Trick { until: now + self.trick_len() },
            Stage::HandOver { .. } => Stage::HandOver { until: self.pause_until(now), ready: [false; 4] },
            Stage::Turn { seat, .. } => {
                self.start_turn(seat, now, self.timing.bot_delay_ms);
                return;
            }
            Stage::Stake { ask, .. } => {
                self.start_stake(ask, now);
                return;
            }
            other => other,
        };
    }

    /// What the clock does: one write at a time (parking, starting, the record, a poll's
    /// outcome), else the stages move on as time allows.
    pub(super) fn tick(&mut self, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if let Some(r) = self.retry_at {
            if r > now {
                return none;
            }
            self.retry_at = None;
        }
        if self.status == TableStatus::Playing
            && self.members.is_empty()
            && self.park_at.is_some_and(|p| p <= now)
        {
            self.park_at = None;
            self.status = TableStatus::Parked;
            self.job = None;
            self.held = None;
            let was = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false });
            self.stage = Stage::Parked { was: Box::new(was) };
            return (vec![Write::Status(TableStatus::Parked)], OnFail::Retry("cannot park"));
        }
        match self.stage {
            Stage::Waiting { start_due: true } => {
                self.stage = Stage::Waiting { start_due: false };
                if self.status == TableStatus::Waiting && self.seats.iter().all(|s| s.owner != SeatRow::Open)
                {
                    let (writes, _) = self.begin_match(now);
                    return (writes, OnFail::Retry("cannot start"));
                }
                return none;
            }
            Stage::MatchOver { record_due: true, .. } => {
                let record = match self.record.take() {
                    Some(Ok(r)) => r,
                    worked => {
                        let e = match worked {
                            Some(Err(e)) => e.to_string(),
                            _ => "the record was not worked out".to_string(),
                        };
                        // The log replays by construction; a failure here is a bug, reported.
                        self.fx.notes.push(format!("table {}: the record cannot be written: {e}", self.id));
                        self.stage = Stage::MatchOver { record_due: false, retire_at: None };
                        return none;
                    }
                };
                self.status = TableStatus::Finished;
                self.stage =
                    Stage::MatchOver { record_due: false, retire_at: Some(now + self.timing.retire_ms) };
                self.broadcast_seats(None, now);
                let mut writes = vec![Write::Finish { record }];
                writes.extend(self.rated_end(now).map(Write::Rated));
                return (writes, OnFail::Retry("cannot store the record"));
            }
            _ => {}
        }
        if let Stage::Stake { ask, deadline, bot_at } = self.stage {
            let named = match self.controller(ask.seat, now) {
                // The banker's clock ran out: the lowest stake, and a bot plays for him until
                // he is back.
                Controller::Person if self.cutoff(ask.seat, deadline).is_some_and(|d| d <= now) => {
                    self.bank[ask.seat.index()] = 0;
                    self.seats[ask.seat.index()].away = true;
                    self.clock_ran_out(ask.seat);
                    self.broadcast_seats(None, now);
                    Some(ask.low)
                }
                Controller::Bot(_) if bot_at.is_some_and(|b| b <= now) => {
                    self.m.as_ref().map(|m| G::Stake::bot(&self.settings, m, ask.seat, ask))
                }
                _ => None,
            };
            if let Some(stake) = named {
                let stake = G::Stake::check(&self.settings, stake).unwrap_or(ask.low);
                let writes = self.name_stake(ask, stake, true, now);
                return (writes, OnFail::Retry("cannot write the stake"));
            }
        }
        if let Some((_, _, at)) = &self.held
            && *at <= now
        {
            let Some((answered, state, _)) = self.held.take() else { return none };
            return self.publish(answered, state, now);
        }
        none
    }

    /// A computation is done.
    pub(super) fn done(&mut self, done: Done<G>, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if self.hint_job == Some(done.id) {
            self.hint_job = None;
            return self.hint_done(done.result);
        }
        if self.job != Some(done.id) {
            return none;
        }
        self.job = None;
        match done.result {
            Err(e) => {
                self.fx.notes.push(format!("table {}: {e}; retrying", self.id));
                self.retry_at = Some(now + RETRY_MS);
                none
            }
            Ok(Outcome::Bot { seat, action }) => {
                let Stage::Turn { seat: s, .. } = self.stage else { return none };
                let Some(st) = &self.state else { return none };
                if s != seat || G::to_move(st) != Some(seat) {
                    return none;
                }
                let mut next = st.clone();
                if let Err(e) = G::apply(&mut next, action) {
                    self.fx.notes.push(format!("table {}: a bot chose an illegal action: {e}", self.id));
                    self.retry_at = Some(now + RETRY_MS);
                    return none;
                }
                let writes = self.log_actions(&[(seat, action)]).into_iter().collect();
                self.moved(next, seat, action, true, now);
                (writes, OnFail::Retry("cannot write a bot's move"))
            }
            Ok(Outcome::Hint(_)) => none,
            Ok(Outcome::Polls { state, answered }) => {
                // Published at a fixed time after it was due, whatever the computing took.
                let due = match self.stage {
                    Stage::Draw { due, .. } => due,
                    Stage::Window { until } => until,
                    _ => return none,
                };
                let at = now.max(due + self.timing.poll_hold_ms);
                self.held = Some((answered, *state, at));
                none
            }
        }
    }

    pub(super) fn publish(
        &mut self,
        answered: Vec<(Seat, G::Action)>,
        state: G::State,
        now: Millis,
    ) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        match self.stage {
            Stage::Draw { shown, due } => {
                let drawn = shown + 1;
                // A declaration (a move everyone sees, not a pass) ends the draw at once; it is
                // the last answer, since the engine asks nobody after it.
                let declaration = answered.last().filter(|(_, a)| G::is_move(&state, a)).copied();
                if declaration.is_some() || drawn >= 48 {
                    // The draw is over: its answers are written before anyone sees the outcome.
                    let writes: Vec<Write> = self.log_actions(&answered).into_iter().collect();
                    self.state = Some(state);
                    let window = self.state.as_ref().is_some_and(|st| G::next(st).at_window());
                    if window {
                        self.stage = Stage::Window { until: now + self.window_len() };
                    } else {
                        self.after_change(now, false);
                    }
                    match declaration {
                        Some((seat, action)) => {
                            let by_bot = matches!(self.controller(seat, now), Controller::Bot(_));
                            self.broadcast(Event::Action { seat, action, by_bot }, now);
                        }
                        None => self.broadcast(Event::DrawEnd, now),
                    }
                    if window {
                        self.broadcast(Event::WindowOpen, now);
                    }
                    (writes, OnFail::Retry("cannot write the draw"))
                } else {
                    self.draw_answers.extend(answered);
                    self.state = Some(state);
                    // A steady pace: the next card is due one interval after this one was.
                    self.stage = Stage::Draw { shown: drawn, due: (due + self.draw_every()).max(now) };
                    self.broadcast(Event::Draw(drawn), now);
                    none
                }
            }
            Stage::Window { .. } => {
                let writes: Vec<Write> = self.log_actions(&answered).into_iter().collect();
                let outcome = G::window_outcome(&state);
                self.state = Some(state);
                self.requests = [G::Request::default(); 4];
                self.after_change(now, false);
                self.broadcast(Event::WindowClosed(outcome), now);
                (writes, OnFail::Retry("cannot write the window's answers"))
            }
            _ => none,
        }
    }

    /// Moves the stages on as far as `now` allows, without writing anything: starts the
    /// computations that are due, ends the trick on show and the pause, lets a bot stand in
    /// when a grace period or a turn clock runs out.
    pub(super) fn drive(&mut self, now: Millis) {
        if self.retry_at.is_some_and(|r| r > now) {
            return;
        }
        // Grace periods that ran out: a bot stands in now.
        let mut seats_changed = false;
        for i in 0..4 {
            let s = &mut self.seats[i];
            if s.conns == 0 && s.grace_until.is_some_and(|g| g <= now) {
                s.grace_until = None;
                seats_changed = true;
            }
        }
        for _ in 0..8 {
            match self.stage.clone() {
                Stage::Draw { shown, due } => {
                    if self.job.is_none() && self.held.is_none() && due <= now {
                        let position = (self.log_len as usize + self.draw_answers.len()) as u64;
                        self.poll_job(Polls::Draw { drawn: shown + 1, position }, now);
                    }
                }
                Stage::Window { until } => {
                    if self.job.is_none() && self.held.is_none() && until <= now {
                        self.poll_job(Polls::Window { position: self.log_len }, now);
                    }
                }
                Stage::Trick { until } => {
                    if until <= now
                        && let Some(s) = self.state.as_ref().and_then(|st| G::to_move(st))
                    {
                        // The trick on show was the bot's delay; everyone learns the turn began.
                        self.start_turn(s, now, 0);
                        seats_changed = true;
                        continue;
                    }
                }
                Stage::HandOver { until: None, ready }
                    if !self.seats.iter().any(|s| {
                        matches!(s.owner, SeatRow::Person { .. })
                            && (s.conns > 0 || s.grace_until.is_some_and(|g| g > now))
                    }) =>
                {
                    // An untimed pause waits for its people; once none is here (nor within his
                    // grace period) it ends as a pause without people does.
                    self.stage = Stage::HandOver { until: Some(now + self.trick_len()), ready };
                    seats_changed = true;
                    continue;
                }
                Stage::HandOver { until, ready } => {
                    let all_ready = self.seats.iter().enumerate().all(|(i, s)| {
                        !(matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0) || ready[i]
                    });
                    let any_person =
                        self.seats.iter().any(|s| matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0);
                    if (until.is_some_and(|u| u <= now) || (any_person && all_ready))
                        && self.m.as_ref().is_some_and(|m| !G::match_over(m))
                    {
                        self.hand += 1;
                        self.deal(now);
                        self.broadcast(Event::HandStart, now);
                        continue;
                    }
                }
                Stage::Turn { seat, deadline, bot_at } => {
                    if self.job.is_some() {
                        break;
                    }
                    match self.controller(seat, now) {
                        Controller::Person => {
                            if self.cutoff(seat, deadline).is_some_and(|d| d <= now) {
                                // The clock and the bank ran out: a bot plays for him until he
                                // is back.
                                self.bank[seat.index()] = 0;
                                self.seats[seat.index()].away = true;
                                self.clock_ran_out(seat);
                                seats_changed = true;
                                self.stage = Stage::Turn { seat, deadline, bot_at: Some(now) };
                                continue;
                            }
                            if bot_at.is_some() {
                                self.stage = Stage::Turn { seat, deadline, bot_at: None };
                            }
                        }
                        Controller::Bot(name) => match bot_at {
                            None => {
                                self.stage = Stage::Turn {
                                    seat,
                                    deadline,
                                    bot_at: Some(now + self.timing.bot_delay_ms),
                                };
                                continue;
                            }
                            Some(at) if at <= now => {
                                let Some(st) = self.state.clone() else { break };
                                let seed = decision_seed(self.seed, seat, self.log_len);
                                self.new_job(Work::Bot {
                                    state: st,
                                    seat,
                                    bot: name,
                                    seed,
                                    budget: Budget::default(),
                                });
                            }
                            Some(_) => {}
                        },
                    }
                }
                Stage::Stake { ask, deadline, bot_at } => match self.controller(ask.seat, now) {
                    Controller::Person if bot_at.is_some() => {
                        self.stage = Stage::Stake { ask, deadline, bot_at: None };
                    }
                    Controller::Bot(_) if bot_at.is_none() => {
                        let bot_at = Some(now + self.timing.bot_delay_ms);
                        self.stage = Stage::Stake { ask, deadline, bot_at };
                    }
                    _ => {}
                },
                Stage::Waiting { .. }
                | Stage::MatchOver { .. }
                | Stage::Parked { .. }
                | Stage::Paused { .. } => {}
            }
            break;
        }
        if seats_changed {
            self.broadcast_seats(None, now);
        }
    }
}
