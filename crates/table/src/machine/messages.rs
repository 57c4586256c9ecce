//! The messages a table sends: updates, seats, events, errors, each to the connections it concerns.

use super::*;

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    pub(super) fn overlay(&self) -> Overlay {
        let stage = match &self.stage {
            Stage::Parked { was } | Stage::Paused { was } => was.as_ref(),
            s => s,
        };
        match stage {
            Stage::Draw { shown, .. } => Overlay { drawn: Some(*shown), window: false },
            Stage::Window { .. } => Overlay { drawn: None, window: true },
            _ => Overlay::default(),
        }
    }

    pub(super) fn timer_now(&self, now: Millis) -> Option<Timer> {
        if self.status.is_over() {
            return None;
        }
        let left = |t: Millis| t.saturating_sub(now);
        let mut stage = &self.stage;
        if let Stage::Parked { was } = stage {
            stage = was.as_ref();
        }
        if matches!(stage, Stage::Paused { .. }) {
            return Some(Timer::Paused);
        }
        if self.state.is_none() && !matches!(stage, Stage::Stake { .. }) {
            return None;
        }
        Some(match stage {
            Stage::Waiting { .. } | Stage::Parked { .. } | Stage::Paused { .. } => return None,
            Stage::Draw { .. } => Timer::Draw { every_ms: self.draw_every() },
            Stage::Window { until } => Timer::Window { remaining_ms: left(*until) },
            Stage::Trick { until } => Timer::Trick { remaining_ms: left(*until) },
            Stage::Stake { ask, deadline, .. } => self.turn_timer(ask.seat, *deadline, now),
            Stage::Turn { seat, deadline, .. } => self.turn_timer(*seat, *deadline, now),
            Stage::HandOver { until, ready } => Timer::NextHand {
                remaining_ms: until.map(left),
                ready: Seat::ALL.into_iter().filter(|s| ready[s.index()]).collect(),
            },
            Stage::MatchOver { retire_at, .. } => {
                Timer::NextHand { remaining_ms: Some(retire_at.map_or(0, left)), ready: Vec::new() }
            }
        })
    }

    /// The clock of a seat's turn (a move, or a banker naming the stake).
    pub(super) fn turn_timer(&self, seat: Seat, deadline: Option<Millis>, now: Millis) -> Timer {
        match self.controller(seat, now) {
            Controller::Person => {
                let turn = deadline.map(|t| t.saturating_sub(now));
                let cutoff = self.cutoff(seat, deadline);
                let bank_ms = match (deadline, cutoff) {
                    (Some(d), Some(c)) if self.doc.bank_seconds > 0 => Some(c.saturating_sub(now.max(d))),
                    _ => None,
                };
                match self.grace_left(seat, now) {
                    Some(g) => Timer::Grace {
                        seat,
                        remaining_ms: cutoff.map(|c| c.saturating_sub(now)).map_or(g, |t| g.min(t)),
                    },
                    None => Timer::Turn { seat, remaining_ms: turn, bank_ms },
                }
            }
            Controller::Bot(_) => Timer::Bot { seat },
        }
    }

    pub(super) fn match_json(&self) -> Option<MatchSummary> {
        self.m.as_ref().map(|m| G::match_summary(m, &self.results))
    }

    pub(super) fn table_event(&self, e: &Event<G::Action>, viewer: Viewer) -> TableEvent {
        match e {
            Event::Started => TableEvent::Start,
            Event::HandStart => TableEvent::HandStart { hand: self.hand },
            Event::Draw(d) => TableEvent::Draw { drawn: *d },
            Event::DrawEnd => TableEvent::DrawEnd,
            Event::Action { seat, action, by_bot } => TableEvent::Action {
                seat: *seat,
                action: G::public_action(action, *seat, viewer),
                by_bot: *by_bot,
            },
            Event::Stake { seat, stake, by_bot } => {
                TableEvent::Stake { seat: *seat, stake: *stake, by_bot: *by_bot }
            }
            Event::WindowOpen => TableEvent::Window { closes_in_ms: self.window_len() },
            Event::WindowClosed(outcome) => TableEvent::WindowClosed { outcome: *outcome },
            Event::TakeBack { seat, actions } => TableEvent::TakeBack { seat: *seat, actions: *actions },
        }
    }

    pub(super) fn view_and_legal(&self, viewer: Viewer) -> (Option<GameView>, Option<Legal>) {
        if let Stage::Stake { ask, .. } = &self.stage
            && viewer == Viewer::Seat(ask.seat)
            && self.status == TableStatus::Playing
        {
            return (None, Some(Legal::Stake { low: ask.low, high: ask.high }));
        }
        let Some(st) = &self.state else { return (None, None) };
        let ov = self.overlay();
        let view = Some(G::table_view(st, viewer, ov));
        let paused = matches!(self.stage, Stage::Paused { .. });
        let legal = match viewer {
            Viewer::Seat(s) if self.status == TableStatus::Playing && !paused => {
                G::legal_for(st, s, ov, self.requests[s.index()])
            }
            _ => None,
        };
        (view, legal)
    }

    pub(super) fn sync_msg(&self, m: &Member, now: Millis) -> ServerMsg {
        let viewer = m.seat.map_or(Viewer::Spectator, Viewer::Seat);
        let (view, legal) = self.view_and_legal(viewer);
        let is_host = self.host.as_deref() == Some(m.guest.id.as_str());
        ServerMsg::Sync(Box::new(SyncMsg {
            v: self.v,
            table: self.summary(now),
            you: You { seat: m.seat, guest: m.guest.id.clone(), name: m.guest.name.clone(), host: is_host },
            hand: self.hand,
            move_no: self.moves,
            view,
            legal,
            timer: self.timer_now(now),
            match_: self.match_json(),
            results: self.results.iter().cloned().map(Into::into).collect(),
            chat: self.chat.iter().cloned().collect(),
            watchers: self.watchers(),
            rematch: match &self.rematch {
                RematchState::Made(t) => Some(t.clone()),
                _ => None,
            },
            commitment: self.m.as_ref().map(|_| self.commitment()),
        }))
    }

    /// Sends `msg` to the connections `to`, but for the delayed watchers (the TV), who get
    /// only what [`Table::send_all`] puts in their stream.
    pub(super) fn send_to(&mut self, mut to: Vec<ConnId>, msg: ServerMsg) {
        if self.members.iter().any(|m| m.delayed) {
            to.retain(|&c| !self.is_delayed(c));
        }
        if !to.is_empty() {
            self.fx.sends.push(Send { to, msg });
        }
    }

    /// Sends a message every spectator gets (seats, chat, a host's event) to `to`, and to the
    /// delayed watchers' stream.
    pub(super) fn send_all(&mut self, to: Vec<ConnId>, msg: ServerMsg) {
        self.tv_note(&msg);
        self.send_to(to, msg);
    }

    pub(super) fn reply(&mut self, conn: ConnId, msg: ServerMsg) {
        if self.members.iter().any(|m| m.conn == conn) {
            self.send_to(vec![conn], msg);
        }
    }

    pub(super) fn err(&mut self, conn: ConnId, code: ErrorCode, message: impl Into<String>) {
        if self.is_delayed(conn) {
            // A delayed watcher is not told the table's version now.
            let msg = ServerMsg::Error(ErrorMsg { code, message: message.into(), v: None });
            self.fx.sends.push(Send { to: vec![conn], msg });
            return;
        }
        let msg = ServerMsg::Error(ErrorMsg { code, message: message.into(), v: Some(self.v) });
        self.reply(conn, msg);
    }

    pub(super) fn sync_to(&mut self, conn: ConnId, now: Millis) {
        if self.is_delayed(conn) {
            self.tv_sync_to(conn, now);
            return;
        }
        if let Some(msg) = self.sync_for(conn, now) {
            self.send_to(vec![conn], msg);
        }
    }

    pub(super) fn broadcast(&mut self, e: Event<G::Action>, now: Millis) {
        self.v += 1;
        if matches!(e, Event::Action { .. } | Event::TakeBack { .. }) {
            self.moves += 1;
        }
        // One message per viewer (each seat, the spectators), to every connection of that viewer.
        // The delayed watchers get the spectators' message later, from their stream.
        let mut groups: [Vec<ConnId>; 5] = Default::default();
        for m in self.members.iter().filter(|m| !m.delayed) {
            groups[m.seat.map_or(4, |s| s.index())].push(m.conn);
        }
        let timer = self.timer_now(now);
        let match_ = self.match_json();
        let tv = self.tv_on();
        for (i, to) in groups.into_iter().enumerate() {
            if to.is_empty() && !(i == 4 && tv) {
                continue;
            }
            let viewer = if i < 4 { Viewer::Seat(Seat::ALL[i]) } else { Viewer::Spectator };
            let (view, legal) = self.view_and_legal(viewer);
            let msg = ServerMsg::Update(UpdateMsg {
                v: self.v,
                event: self.table_event(&e, viewer),
                hand: self.hand,
                move_no: self.moves,
                view,
                legal,
                timer: timer.clone(),
                match_: match_.clone(),
            });
            if i == 4 {
                self.send_all(to, msg);
            } else {
                self.send_to(to, msg);
            }
        }
    }

    pub(super) fn broadcast_seats(&mut self, except: Option<ConnId>, now: Millis) {
        self.v += 1;
        let msg = ServerMsg::Seats(SeatsMsg {
            v: self.v,
            seats: self.seat_infos(now),
            spectators: self.members.iter().filter(|m| m.seat.is_none()).count(),
            watchers: self.watchers(),
            status: self.status,
            timer: self.timer_now(now),
        });
        let to = self.members.iter().map(|m| m.conn).filter(|&c| Some(c) != except).collect();
        self.send_all(to, msg);
    }

    /// The names of the people watching (connections not seated), one per guest, at most
    /// [`WATCHERS_SHOWN`]; a seated person watching from another connection is a player, not a
    /// spectator.
    pub(super) fn watchers(&self) -> Vec<String> {
        let seated = |g: &str| {
            self.seats.iter().any(|s| matches!(&s.owner, SeatRow::Person { guest, .. } if guest == g))
        };
        let mut seen: Vec<&str> = Vec::new();
        let mut names = Vec::new();
        for m in self.members.iter().filter(|m| m.seat.is_none()) {
            let id = m.guest.id.as_str();
            if seen.contains(&id) || seated(id) {
                continue;
            }
            seen.push(id);
            names.push(m.guest.name.clone());
            if names.len() == WATCHERS_SHOWN {
                break;
            }
        }
        names
    }

    pub(super) fn finish_fx(&mut self, now: Millis) -> Effects<G> {
        self.tv_release(now);
        let mut fx = std::mem::take(&mut self.fx);
        fx.wake = self.wake_at(now);
        if let Stage::MatchOver { record_due: false, retire_at: Some(r) } = self.stage
            && self.members.is_empty()
            && r <= now
        {
            fx.retire = true;
        }
        fx
    }
}
