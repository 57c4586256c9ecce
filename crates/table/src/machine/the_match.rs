//! The match: hands begun and ended, the record, ratings and the rematch.

use super::*;
use crate::standings::{MatchStandings, Standing};

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    pub(super) fn begin_match(&mut self, now: Millis) -> (Vec<Write>, OnFail) {
        self.status = TableStatus::Playing;
        // The seats kept for a rematch's people who did not come are open to anyone now.
        self.invited = Default::default();
        self.m = Some(G::new_match(&self.settings, self.seed));
        self.hand = 0;
        self.deal(now);
        self.broadcast(Event::Started, now);
        (vec![Write::Status(TableStatus::Playing)], OnFail::Drop("cannot start"))
    }

    /// Deals hand `self.hand` and enters its first stage, or first asks its banker for the
    /// stake (Madiao §2).
    pub(super) fn deal(&mut self, now: Millis) {
        if self.m.is_none() {
            return;
        }
        // Before anything of the hand is dealt, everyone at the table is sent the commitment to
        // its deal (docs/record.md, "Deal verification"); the seed stays here until the record.
        let to: Vec<ConnId> = self.members.iter().map(|m| m.conn).collect();
        let deal = ServerMsg::Deal(DealMsg { hand: self.hand, commitment: self.commitment() });
        self.send_to(to, deal);
        let Some(m) = &self.m else { return };
        let ask = G::Stake::ask(&self.settings, m, self.seed, self.hand);
        self.state = match ask {
            Some(_) => None,
            None => G::start_hand(&self.settings, m, self.seed, self.hand, None),
        };
        self.requests = [G::Request::default(); 4];
        self.draw_answers.clear();
        self.held = None;
        self.job = None;
        match ask {
            Some(ask) => self.start_stake(ask, now),
            None => self.enter_hand(now, false),
        }
    }

    /// The commitment to the current hand's deal (docs/record.md, "Deal verification").
    pub(super) fn commitment(&self) -> String {
        cards::deal::commitment(self.seed, self.hand, &self.id)
    }

    /// The banker's turn to name the stake begins.
    pub(super) fn start_stake(&mut self, ask: StakeAsk, now: Millis) {
        let person = matches!(self.seats[ask.seat.index()].owner, SeatRow::Person { .. });
        let deadline = (person && !self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let bot_at = match self.controller(ask.seat, now) {
            Controller::Bot(_) => Some(now + self.timing.bot_delay_ms),
            Controller::Person => None,
        };
        self.stage = Stage::Stake { ask, deadline, bot_at };
    }

    /// The banker named the stake (checked): it is logged, the hand is dealt at that stake and
    /// its first stage begins.
    pub(super) fn name_stake(&mut self, ask: StakeAsk, stake: u32, by_bot: bool, now: Millis) -> Vec<Write> {
        let writes = self.log_entries(vec![(ask.seat, Logged::Stake(stake))]).into_iter().collect();
        self.state =
            self.m.as_ref().and_then(|m| G::start_hand(&self.settings, m, self.seed, self.hand, Some(stake)));
        self.enter_hand(now, false);
        self.broadcast(Event::Stake { seat: ask.seat, stake, by_bot }, now);
        writes
    }

    /// Enters the stage a hand begins (or resumes) with.
    pub(super) fn enter_hand(&mut self, now: Millis, resumed: bool) {
        let Some(st) = &self.state else { return };
        if !resumed && G::OPENS_WITH_DRAW {
            self.stage = Stage::Draw { shown: 0, due: now + self.draw_every() };
        } else if G::to_move(st).is_none() {
            self.after_change(now, false);
        } else {
            match G::next(st) {
                Next::Draw { .. } => self.stage = Stage::Draw { shown: 0, due: now + self.draw_every() },
                n if n.at_window() => self.stage = Stage::Window { until: now + self.window_len() },
                _ => self.after_change(now, false),
            }
        }
    }

    pub(super) fn start_turn(&mut self, seat: Seat, now: Millis, bot_delay: Millis) {
        let person = matches!(self.seats[seat.index()].owner, SeatRow::Person { .. });
        let deadline = (person && !self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let bot_at = match self.controller(seat, now) {
            Controller::Bot(_) => Some(now + bot_delay),
            Controller::Person => None,
        };
        self.job = None;
        self.stage = Stage::Turn { seat, deadline, bot_at };
    }

    /// After a move (or a hand dealt, a window closed): the next stage. `moved`: after a move,
    /// which may have finished a trick to keep on show.
    pub(super) fn after_change(&mut self, now: Millis, moved: bool) {
        let Some(st) = &self.state else { return };
        let next = G::next(st);
        match next.seat() {
            Some(s) => {
                if moved && matches!(next, Next::TrickShown { .. }) && self.trick_len() > 0 {
                    self.stage = Stage::Trick { until: now + self.trick_len() };
                } else {
                    self.start_turn(s, now, self.timing.bot_delay_ms);
                }
            }
            None => {
                // The hand is over (by a move, a window, or anything else): a boundary of the
                // delayed stream.
                self.tv.pending = true;
                if let Some(m) = &mut self.m {
                    std::sync::Arc::make_mut(&mut self.results).extend(G::finish_hand(m, st));
                }
                if self.m.as_ref().is_some_and(|m| G::match_over(m)) {
                    let record_due = self.status != TableStatus::Finished;
                    self.stage = Stage::MatchOver { record_due, retire_at: None };
                } else {
                    self.stage = Stage::HandOver { until: self.pause_until(now), ready: [false; 4] };
                }
            }
        }
    }

    /// A move is applied (already logged): it is shown and the next stage begins.
    pub(super) fn moved(&mut self, next: G::State, seat: Seat, action: G::Action, by_bot: bool, now: Millis) {
        // A move that completes a trick (or ends the hand) is a boundary of the delayed stream.
        if matches!(G::next(&next), Next::TrickShown { .. } | Next::Over) {
            self.tv.pending = true;
        }
        self.state = Some(next);
        self.after_change(now, true);
        self.broadcast(Event::Action { seat, action, by_bot }, now);
    }

    /// A person's clock ran out: at a rated table, the log keeps it (with the next write).
    pub(super) fn clock_ran_out(&mut self, seat: Seat) {
        if self.doc.rated && matches!(self.seats[seat.index()].owner, SeatRow::Person { .. }) {
            self.conduct.note(seat.index(), ForfeitKind::Clock);
            self.forfeits.push((seat, ForfeitKind::Clock));
        }
    }

    /// A rated table whose match is over: the match as ratings read it.
    pub(super) fn rated_end(&self, now: Millis) -> Option<RatedMatch> {
        let standings = self.match_json().and_then(|m| m.standings());
        self.rated_with(standings, &self.conduct, now)
    }

    /// A rated table's match as it stands now (closed in progress), with `conduct` as the
    /// seats' conduct.
    pub(super) fn rated_now(&self, conduct: &Conduct, now: Millis) -> Option<RatedMatch> {
        let standings = self.match_json().map(|m| m.standings_now());
        self.rated_with(standings, conduct, now)
    }

    /// A rated table's match as ratings read it, from `standings`, with `conduct` as the seats'
    /// conduct (the match's end, or a close that rates it as it stands).
    fn rated_with(
        &self,
        standings: Option<[Standing; 4]>,
        conduct: &Conduct,
        now: Millis,
    ) -> Option<RatedMatch> {
        if !self.doc.rated {
            return None;
        }
        let away = std::array::from_fn(|i| {
            let s = &self.seats[i];
            matches!(s.owner, SeatRow::Person { .. })
                && (s.away || (s.conns == 0 && s.grace_until.is_some_and(|g| g <= now)))
        });
        let owners = std::array::from_fn(|i| self.seats[i].owner.clone());
        rated_match(self.doc.game, &owners, standings, conduct, away)
    }

    /// Whether the table is rated.
    pub fn rated(&self) -> bool {
        self.doc.rated
    }

    /// Whether `guest` holds a seat at the table.
    pub fn seated(&self, guest: &str) -> bool {
        self.seats.iter().any(|s| matches!(&s.owner, SeatRow::Person { guest: g, .. } if g == guest))
    }

    /// A rated match: what the log says of the seats' conduct so far.
    pub fn conduct(&self) -> Conduct {
        self.conduct
    }

    pub(super) fn players(&self) -> [String; 4] {
        std::array::from_fn(|i| match &self.seats[i].owner {
            SeatRow::Open => format!("bot:{}", default_bot::<G>()),
            SeatRow::Bot(b) => format!("bot:{b}"),
            SeatRow::Person { name, .. } => name.clone(),
        })
    }

    /// A hint asked by `conn`: for its own seat, on its turn, at a table that offers hints.
    pub(super) fn ask_hint(&mut self, conn: ConnId) {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player can ask for a hint");
            return;
        };
        if !hints_allowed(&self.doc) {
            self.err(conn, ErrorCode::HintsOff, "hints are not offered at a rated table or a rated event");
            return;
        }
        let Some(st) = self.state.as_ref().filter(|_| self.playing_turn(seat)) else {
            self.err(conn, ErrorCode::NotYourTurn, "a hint is given only on your own turn");
            return;
        };
        if self.hint_job.is_some() {
            self.err(conn, ErrorCode::RateLimited, "a hint is being worked out already: wait for it");
            return;
        }
        let work = Work::Hint {
            view: G::view(st, seat),
            legal: G::legal_actions(st),
            seat,
            conn,
            move_no: self.moves,
            seed: decision_seed(self.seed ^ 0x4849_4e54, seat, self.log_len),
        };
        self.next_job += 1;
        self.hint_job = Some(self.next_job);
        self.fx.jobs.push(Job { id: self.next_job, work });
    }

    /// True when `seat` is to play now (its turn, or the next lead while a finished trick is on
    /// show): not a poll of the draw or a window, not the stake.
    pub(super) fn playing_turn(&self, seat: Seat) -> bool {
        let stage = match &self.stage {
            Stage::Turn { seat: s, .. } => *s == seat,
            Stage::Trick { .. } => true,
            _ => false,
        };
        let ov = self.overlay();
        stage
            && ov.drawn.is_none()
            && !ov.window
            && self.state.as_ref().is_some_and(|st| G::to_move(st) == Some(seat))
    }

    /// A hint worked out: sent to the connection that asked, if the seat is still to move at the
    /// same move, and logged.
    pub(super) fn hint_done(&mut self, result: Result<Outcome<G>, JobError>) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let HintOutcome { seat, conn, move_no, action, reason } = match result {
            Ok(Outcome::Hint(h)) => *h,
            Ok(_) => return none,
            Err(e) => {
                self.fx.notes.push(format!("table {}: {e}", self.id));
                return none;
            }
        };
        let current = self.playing_turn(seat)
            && self.moves == move_no
            && self.member(conn).and_then(|m| m.seat) == Some(seat);
        if !current {
            self.err(conn, ErrorCode::Stale, "the position changed before the hint was ready: ask again");
            return none;
        }
        // The action as its own seat sees it: the engine's action, never hidden from its owner.
        let action = match G::public_action(&action, seat, Viewer::Seat(seat)) {
            PublicAction::Madiao(a) => ActAction::Madiao(a),
            PublicAction::Dabaifen(a) => ActAction::Dabaifen(a),
            PublicAction::Hidden(_) => {
                self.fx.notes.push(format!("table {}: a hint hidden from its own seat {seat}", self.id));
                return none;
            }
        };
        let msg = ServerMsg::Hint(HintMsg {
            v: self.v,
            move_no,
            seat,
            action,
            reason: HintReason { kind: reason.kind.name().to_string(), en: reason.en, zh: reason.zh },
        });
        self.reply(conn, msg);
        let writes = self.log_entries(vec![(seat, Logged::Hint)]).into_iter().collect();
        (writes, OnFail::Anyway("cannot log a hint"))
    }

    /// The card tracker of the connection's seat, sent to it alone.
    pub(super) fn send_tracker(&mut self, conn: ConnId) {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player has a card tracker");
            return;
        };
        if !hints_allowed(&self.doc) {
            self.err(conn, ErrorCode::HintsOff, "the card tracker is off at a rated table or a rated event");
            return;
        }
        let tracker = self
            .state
            .as_ref()
            .and_then(|st| tracker_of(&G::table_view(st, Viewer::Seat(seat), self.overlay())));
        let msg = ServerMsg::Tracker(TrackerMsg { v: self.v, move_no: self.moves, tracker });
        self.reply(conn, msg);
    }

    pub(super) fn new_job(&mut self, work: Work<G>) {
        self.next_job += 1;
        self.job = Some(self.next_job);
        self.fx.jobs.push(Job { id: self.next_job, work });
    }

    pub(super) fn poll_job(&mut self, polls: Polls, now: Millis) {
        let Some(st) = self.state.clone() else { return };
        let controllers: [Controller; 4] = std::array::from_fn(|i| self.controller(Seat::ALL[i], now));
        let persons = std::array::from_fn(|i| controllers[i] == Controller::Person);
        let bots = controllers.map(|c| match c {
            Controller::Bot(b) => b,
            Controller::Person => default_bot::<G>().to_string(),
        });
        self.new_job(Work::Polls {
            state: st,
            polls,
            persons,
            bots,
            requests: self.requests,
            seed: self.seed,
        });
    }
}
