//! The inputs a table takes: each request of a connection, a job's result, a tick.

use super::*;

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    pub(super) fn member(&self, conn: ConnId) -> Option<&Member> {
        self.members.iter().find(|m| m.conn == conn)
    }

    pub(super) fn rows(&self, entries: &[(Seat, Logged<G::Action>)]) -> Vec<LoggedAction> {
        let start = self.log_len;
        entries
            .iter()
            .enumerate()
            .map(|(i, (s, a))| LoggedAction {
                seq: start + i as u64,
                hand: self.hand,
                seat: s.number(),
                action: a.to_json(),
            })
            .collect()
    }

    /// Logs actions (any buffered draw answers first): the write, and the table's log follows.
    pub(super) fn log_actions(&mut self, actions: &[(Seat, G::Action)]) -> Option<Write> {
        let mut all = std::mem::take(&mut self.draw_answers);
        all.extend_from_slice(actions);
        let entries: Vec<_> = all.into_iter().map(|(s, a)| (s, Logged::Act(a))).collect();
        self.log_entries(entries)
    }

    /// Logs entries (any forfeit entries waiting first): the write, and the table's log follows.
    pub(super) fn log_entries(&mut self, entries: Vec<(Seat, Logged<G::Action>)>) -> Option<Write> {
        let mut entries = entries;
        if !self.forfeits.is_empty() {
            let mut all: Vec<_> = self.forfeits.drain(..).map(|(s, k)| (s, Logged::Forfeit(k))).collect();
            all.append(&mut entries);
            entries = all;
        }
        if entries.is_empty() {
            return None;
        }
        let rows = self.rows(&entries);
        self.log_len += rows.len() as u64;
        let hand = self.hand;
        self.fresh.extend(entries.into_iter().map(|(s, a)| (hand, s, a)));
        Some(Write::Actions(rows))
    }

    pub(super) fn handle(&mut self, input: Input<G>, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let request = match input {
            Input::Tick => return self.tick(now),
            Input::Done(done) => return self.done(done, now),
            Input::Request(r) => r,
        };
        let unpark = matches!(request, Request::Join { .. } | Request::Watch { .. } | Request::Tv { .. })
            && self.status == TableStatus::Parked;
        let mut writes = Vec::new();
        if unpark {
            self.unpark(now);
            writes.push(Write::Status(TableStatus::Playing));
        }
        match request {
            Request::Join { conn, guest, seat } => {
                writes.append(&mut self.join(conn, guest, seat, now));
                return (writes, OnFail::Refuse { conn, join: true, what: "the seat could not be saved" });
            }
            Request::Watch { conn, guest } => {
                self.members.retain(|m| m.conn != conn);
                self.members.push(Member { conn, guest, seat: None, delayed: false });
                self.fx.replies.push((conn, Ok(())));
                self.broadcast_seats(Some(conn), now);
                self.sync_to(conn, now);
                return (writes, OnFail::Anyway("cannot mark the table playing again"));
            }
            Request::Tv { conn, guest } => {
                self.members.retain(|m| m.conn != conn);
                let delayed = self.tv_on();
                self.members.push(Member { conn, guest, seat: None, delayed });
                self.fx.replies.push((conn, Ok(())));
                self.broadcast_seats(Some(conn), now);
                self.sync_to(conn, now);
                return (writes, OnFail::Anyway("cannot mark the table playing again"));
            }
            Request::Table { conn, msg, at_ms } => return self.message(conn, msg, at_ms, now),
            Request::Gone { conn } => self.gone(conn, now),
            Request::AutoStart => {
                if self.status == TableStatus::Waiting && self.seats.iter().all(|s| s.owner != SeatRow::Open)
                {
                    return self.begin_match(now);
                }
            }
            Request::Rematched { table } => self.rematched(table),
            Request::Forget { guest, name } => self.forget(&guest, &name, now),
            Request::RemoveChat { seq } => self.remove_chat(seq),
            Request::Invite { guests } => {
                if self.status == TableStatus::Waiting {
                    for (i, g) in guests.into_iter().enumerate() {
                        self.invited[i] = g.filter(|_| self.seats[i].owner == SeatRow::Open);
                    }
                    self.broadcast_seats(None, now);
                }
            }
        }
        none
    }

    /// A connection's message for the table (`at_ms`: when it arrived).
    fn message(&mut self, conn: ConnId, msg: TableMsg, at_ms: i64, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        match msg {
            TableMsg::Act { action, move_no, seat } => return self.act(conn, action, move_no, seat, now),
            TableMsg::Chat { text } => return self.say(conn, text, at_ms),
            TableMsg::Resync => self.sync_to(conn, now),
            TableMsg::Leave => return self.leave(conn, now),
            TableMsg::Back => match self.member(conn).and_then(|m| m.seat) {
                Some(s) => {
                    if self.seats[s.index()].away {
                        self.seats[s.index()].away = false;
                        self.restart_turn(s, now);
                        self.broadcast_seats(None, now);
                    }
                    self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Back, legal: None }));
                }
                None => self.err(conn, ErrorCode::NotSeated, "only a seated player can come back"),
            },
            TableMsg::Start => {
                let Some(m) = self.member(conn) else { return none };
                if self.host.as_deref() != Some(m.guest.id.as_str()) {
                    self.err(conn, ErrorCode::NotHost, "only the table's host can start the match");
                } else if self.status != TableStatus::Waiting {
                    self.err(conn, ErrorCode::AlreadyStarted, "the match has already begun");
                } else {
                    return self.begin_match(now);
                }
            }
            TableMsg::Next => self.next(conn, now),
            TableMsg::Hint => self.ask_hint(conn),
            TableMsg::Tracker => self.send_tracker(conn),
            TableMsg::Close { keep } => return self.close(conn, keep, now),
            TableMsg::TakeBack => return self.take_back(conn, now),
            TableMsg::Pause => self.pause(conn, true, now),
            TableMsg::Resume => self.pause(conn, false, now),
            TableMsg::Remove { seat } => return self.remove(conn, seat, now),
            TableMsg::Rematch => self.offer_rematch(conn),
        }
        none
    }

    /// Whether `conn` is the host's connection; if not, it is told so (`what`: what only the
    /// host may do).
    pub(super) fn host_only(&mut self, conn: ConnId, what: &str) -> bool {
        let Some(m) = self.member(conn) else { return false };
        if self.host.as_deref() == Some(m.guest.id.as_str()) {
            return true;
        }
        self.err(conn, ErrorCode::NotHost, format!("only the table's host can {what}"));
        false
    }

    /// The host closes the table: it is over at once, without a record (the hands completed
    /// stay in its log); everyone at the table is told. With `keep`, the match ends with the
    /// record of its finished hands instead (it is finished, ended by its host).
    pub(super) fn close(&mut self, conn: ConnId, keep: bool, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if !self.host_only(conn, "close it") {
            return none;
        }
        if self.status.is_over() || matches!(self.stage, Stage::MatchOver { .. }) {
            let code =
                if self.status == TableStatus::Closed { ErrorCode::Closed } else { ErrorCode::Finished };
            self.err(conn, code, "the table's match is over already; there is nothing to close");
            return none;
        }
        let kept = if keep {
            if self.results.is_empty() {
                self.err(conn, ErrorCode::NothingToKeep, "no hand is finished yet: there is nothing to keep");
                return none;
            }
            let log = self.full_log.take().unwrap_or_default();
            match record_of_finished::<G>(&self.settings, self.seed, self.players(), &log) {
                Ok(r) => Some(with_deals(r, &self.id, self.seed)),
                Err(e) => {
                    self.fx.notes.push(format!("table {}: the record cannot be written: {e}", self.id));
                    self.err(conn, ErrorCode::Storage, format!("the record cannot be written: {e}"));
                    return none;
                }
            }
        } else {
            None
        };
        let by = self.member(conn).map(|m| m.guest.name.clone()).unwrap_or_default();
        // A rated match in progress is rated as it stands, its closer forfeiting
        // (docs/ratings.md, "Forfeits"): closing cannot undo a match one is losing.
        let rated = if self.doc.rated && matches!(self.status, TableStatus::Playing | TableStatus::Parked) {
            let closer = self.member(conn).map(|m| m.guest.id.clone());
            let mut conduct = self.conduct;
            for (i, s) in self.seats.iter().enumerate() {
                if matches!(&s.owner, SeatRow::Person { guest, .. } if Some(guest) == closer.as_ref()) {
                    conduct.note(i, ForfeitKind::Left);
                }
            }
            self.rated_now(&conduct, now)
        } else {
            None
        };
        self.status = if kept.is_some() { TableStatus::Finished } else { TableStatus::Closed };
        // Nothing more is played: answers of a draw not yet written are dropped with it.
        self.stage = Stage::MatchOver { record_due: false, retire_at: Some(now + self.timing.retire_ms) };
        self.job = None;
        self.held = None;
        self.draw_answers.clear();
        self.requests = [G::Request::default(); 4];
        self.invited = Default::default();
        for s in &mut self.seats {
            s.grace_until = None;
        }
        self.broadcast_seats(None, now);
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        let hands = self.results.len();
        let event = HostEvent::Closed { by, hands, kept: kept.is_some() };
        self.send_all(to, ServerMsg::Host(HostMsg { v: self.v, event }));
        let mut writes = vec![match kept {
            Some(record) => Write::Finish { record },
            None => Write::Status(TableStatus::Closed),
        }];
        writes.extend(rated.map(Write::Rated));
        (writes, OnFail::Refuse { conn, join: false, what: "the table could not be closed, nothing changed" })
    }

    /// `guest`'s name becomes `name` wherever the table holds it; the table's name loses his old
    /// names too ("NAME's table").
    pub(super) fn forget(&mut self, guest: &str, name: &str, now: Millis) {
        let mut old: Vec<String> = Vec::new();
        for s in &mut self.seats {
            if let SeatRow::Person { guest: g, name: n } = &mut s.owner
                && g == guest
            {
                old.push(std::mem::replace(n, name.to_string()));
            }
        }
        for m in &mut self.members {
            if m.guest.id == guest {
                old.push(std::mem::replace(&mut m.guest.name, name.to_string()));
            }
        }
        for g in self.invited.iter_mut().flatten() {
            if g.id == guest {
                old.push(std::mem::replace(&mut g.name, name.to_string()));
            }
        }
        for c in &mut self.chat {
            if c.guest.as_deref() == Some(guest) {
                old.push(std::mem::replace(&mut c.name, name.to_string()));
            }
        }
        old.retain(|n| !n.is_empty() && n != name);
        old.sort();
        old.dedup();
        // The longest first: one name may be part of another.
        old.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in &old {
            if self.doc.name.contains(n.as_str()) {
                self.doc.name = self.doc.name.replace(n.as_str(), name);
            }
        }
        if !old.is_empty() {
            self.broadcast_seats(None, now);
        }
    }

    /// The host removes the person of `seat`, who must be away (his turn clock ran out, or none
    /// of his connections is open): the seat becomes open (a bot plays it meanwhile, and anyone
    /// may take it), and he may only watch from then on.
    pub(super) fn remove(&mut self, conn: ConnId, seat: u8, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        if !self.host_only(conn, "remove a player") {
            return none;
        }
        if self.status.is_over() {
            self.err(conn, ErrorCode::Finished, "the table's match is over; nobody can be removed");
            return none;
        }
        let Some(s) = Seat::new(seat) else {
            self.err(conn, ErrorCode::BadMessage, format!("seat must be 0–3, not {seat}"));
            return none;
        };
        let st = &self.seats[s.index()];
        let SeatRow::Person { guest, name } = st.owner.clone() else {
            self.err(conn, ErrorCode::BadMessage, format!("seat {seat} holds no person"));
            return none;
        };
        if self.doc.rated && matches!(self.status, TableStatus::Playing | TableStatus::Parked) {
            // Removing him would take him out of the match's rating (an open seat is no entrant):
            // a bot plays his seat already, and if he is still away at the end he forfeits.
            self.err(
                conn,
                ErrorCode::AlreadyStarted,
                format!(
                    "{name} (seat {seat}) plays this rated match to its end: nobody is removed once it \
                     began (a bot plays the seat; a player away at the end forfeits)"
                ),
            );
            return none;
        }
        if st.conns > 0 && !st.away {
            self.err(
                conn,
                ErrorCode::NotAway,
                format!("{name} (seat {seat}) is at the table: only a person who is away can be removed"),
            );
            return none;
        }
        if !self.removed.contains(&guest) {
            self.removed.push(guest.clone());
        }
        for m in &mut self.members {
            if m.seat == Some(s) {
                m.seat = None;
            }
        }
        self.seats[s.index()] = SeatState { owner: SeatRow::Open, conns: 0, away: false, grace_until: None };
        self.requests[s.index()] = G::Request::default();
        self.broadcast_seats(None, now);
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        self.send_all(
            to,
            ServerMsg::Host(HostMsg { v: self.v, event: HostEvent::Removed { seat: s, name } }),
        );
        // The removed person's connections (away, but connected) watch now.
        let watching: Vec<ConnId> =
            self.members.iter().filter(|m| m.guest.id == guest).map(|m| m.conn).collect();
        for c in watching {
            self.sync_to(c, now);
        }
        (
            vec![Write::Seat { seat, owner: SeatRow::Open }],
            OnFail::Refuse { conn, join: false, what: "the seat could not be freed, nothing changed" },
        )
    }

    /// The host offers a rematch: the driver is asked to make its table.
    pub(super) fn offer_rematch(&mut self, conn: ConnId) {
        if !self.host_only(conn, "offer a rematch") {
            return;
        }
        match (&self.rematch, self.status) {
            (RematchState::Made(t), _) => {
                let msg = format!("a rematch was offered already: table {t}");
                self.err(conn, ErrorCode::RematchOffered, msg);
            }
            (RematchState::Pending(_), _) => {
                self.err(conn, ErrorCode::RematchOffered, "the rematch's table is being made");
            }
            (RematchState::None, TableStatus::Finished) => {
                self.rematch = RematchState::Pending(conn);
                let Some(host) = self.host.clone() else { return };
                self.fx.rematch = Some(RematchOrder {
                    host,
                    settings: self.doc.clone(),
                    seats: self.seats.clone().map(|s| s.owner),
                });
            }
            (RematchState::None, TableStatus::Closed) => {
                self.err(
                    conn,
                    ErrorCode::Closed,
                    "the host closed this table; a rematch follows a finished match",
                );
            }
            (RematchState::None, _) => {
                self.err(conn, ErrorCode::NotOver, "a rematch is offered when the match is over");
            }
        }
    }

    /// The rematch's table is made (or could not be): everyone at the table is told.
    pub(super) fn rematched(&mut self, table: Result<String, RematchError>) {
        let RematchState::Pending(conn) = self.rematch else { return };
        match table {
            Ok(t) => {
                self.rematch = RematchState::Made(t.clone());
                self.v += 1;
                let to = self.members.iter().map(|m| m.conn).collect();
                self.send_all(
                    to,
                    ServerMsg::Host(HostMsg { v: self.v, event: HostEvent::Rematch { table: t } }),
                );
            }
            Err(why) => {
                self.rematch = RematchState::None;
                self.err(conn, ErrorCode::Unavailable, format!("the rematch could not be made: {why}"));
            }
        }
    }

    pub(super) fn join(&mut self, conn: ConnId, guest: Guest, want: Option<u8>, now: Millis) -> Vec<Write> {
        let held = Seat::ALL.into_iter().find(
            |s| matches!(&self.seats[s.index()].owner, SeatRow::Person { guest: g, .. } if *g == guest.id),
        );
        let refuse = |t: &mut Self, code: ErrorCode, msg: String| {
            t.fx.replies.push((conn, Err(Refusal::new(code, msg))));
            Vec::new()
        };
        if self.status == TableStatus::Finished && held.is_none() {
            return refuse(
                self,
                ErrorCode::Finished,
                "the match at this table is over; watch it or fetch its record".into(),
            );
        }
        if self.status == TableStatus::Closed && held.is_none() {
            return refuse(self, ErrorCode::Closed, "the host closed this table; you may watch it".into());
        }
        if held.is_none() && self.removed.contains(&guest.id) {
            return refuse(
                self,
                ErrorCode::Removed,
                "the host removed you from this table while you were away; you may watch it".into(),
            );
        }
        // A seat kept for an invited person (a rematch) is his alone.
        let kept_for = |t: &Self, s: Seat| t.invited[s.index()].as_ref().is_some_and(|g| g.id != guest.id);
        let mine = Seat::ALL
            .into_iter()
            .find(|s| self.invited[s.index()].as_ref().is_some_and(|g| g.id == guest.id));
        let want = match (held, want) {
            (None, None) => mine.map(|s| s.number()),
            (_, w) => w,
        };
        if held.is_none()
            && let Some(s) = want.and_then(Seat::new)
            && kept_for(self, s)
        {
            let name = self.invited[s.index()].as_ref().map(|g| g.name.clone()).unwrap_or_default();
            return refuse(
                self,
                ErrorCode::SeatTaken,
                format!("seat {} is kept for {name} (a rematch)", s.number()),
            );
        }
        if self.doc.rated && self.status != TableStatus::Waiting && held.is_none() {
            return refuse(
                self,
                ErrorCode::AlreadyStarted,
                "a rated match is played by those seated when it began: watch it instead".into(),
            );
        }
        let seat = match (held, want) {
            (Some(h), Some(w)) if h.number() != w => {
                return refuse(
                    self,
                    ErrorCode::SeatTaken,
                    format!("you hold seat {} at this table", h.number()),
                );
            }
            (Some(h), _) => h,
            (None, Some(w)) => match Seat::new(w) {
                None => return refuse(self, ErrorCode::BadMessage, format!("seat must be 0–3, not {w}")),
                Some(s) if self.seats[s.index()].owner != SeatRow::Open => {
                    return refuse(self, ErrorCode::SeatTaken, format!("seat {w} is not open"));
                }
                Some(s) => s,
            },
            (None, None) => {
                match Seat::ALL
                    .into_iter()
                    .find(|&s| self.seats[s.index()].owner == SeatRow::Open && !kept_for(self, s))
                {
                    Some(s) => s,
                    None => {
                        return refuse(
                            self,
                            ErrorCode::NoSeat,
                            "no seat is open at this table; watch it instead".to_string(),
                        );
                    }
                }
            }
        };
        let mut writes = Vec::new();
        if held.is_none() {
            self.invited[seat.index()] = None;
            let owner = SeatRow::Person { guest: guest.id.clone(), name: guest.name.clone() };
            writes.push(Write::Seat { seat: seat.number(), owner: owner.clone() });
            self.seats[seat.index()].owner = owner;
        }
        let st = &mut self.seats[seat.index()];
        st.conns += 1;
        st.away = false;
        st.grace_until = None;
        self.members.retain(|m| m.conn != conn);
        self.members.push(Member { conn, guest, seat: Some(seat), delayed: false });
        self.person_back(seat, now);
        self.fx.replies.push((conn, Ok(())));
        self.broadcast_seats(Some(conn), now);
        self.sync_to(conn, now);
        let full = self.seats.iter().all(|s| s.owner != SeatRow::Open);
        if self.status == TableStatus::Waiting && full {
            self.stage = Stage::Waiting { start_due: true };
        }
        writes
    }

    /// A person is in charge of his seat again: a bot's move being computed for it is dropped
    /// if his turn clock has time left (the clock is never restarted).
    pub(super) fn person_back(&mut self, seat: Seat, now: Millis) {
        if let Stage::Turn { seat: s, deadline, bot_at } = &mut self.stage
            && *s == seat
            && (deadline.is_some_and(|d| d + self.bank[seat.index()] > now)
                || (deadline.is_none() && self.doc.untimed))
        {
            *bot_at = None;
            self.job = None;
        }
    }

    /// A person takes his seat back from the bot that played for him: if it is his turn (or his
    /// stake to name), the bot's move is dropped and he has a whole turn clock from now, his
    /// bank as it stands (`docs/protocol.md`, "Clocks").
    pub(super) fn restart_turn(&mut self, seat: Seat, now: Millis) {
        let full = (!self.doc.untimed).then(|| now + u64::from(self.doc.turn_seconds) * 1000);
        let mut dropped = false;
        match &mut self.stage {
            Stage::Turn { seat: s, deadline, bot_at } if *s == seat => {
                *deadline = full;
                *bot_at = None;
                dropped = true;
            }
            Stage::Stake { ask, deadline, bot_at } if ask.seat == seat => {
                *deadline = full;
                *bot_at = None;
            }
            _ => {}
        }
        if dropped {
            self.job = None;
        }
    }

    /// The seat of `conn` if it may take back a play or pause the match (`what`): a player alone
    /// with bots at an unrated table whose match is being played; if not, he is told why.
    pub(super) fn solo(&mut self, conn: ConnId, what: &str) -> Option<Seat> {
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, format!("only a seated player can {what}"));
            return None;
        };
        let persons = self.seats.clone().map(|s| matches!(s.owner, SeatRow::Person { .. }));
        if !solo_allowed(&self.doc, &persons, seat.index()) {
            let why = if self.doc.rated { "a rated table" } else { "another person plays at this table" };
            self.err(
                conn,
                ErrorCode::NotAlone,
                format!("only a player alone with bots at an unrated table can {what}: this is {why}"),
            );
            return None;
        }
        let code = match self.status {
            TableStatus::Playing | TableStatus::Parked => return Some(seat),
            TableStatus::Waiting => ErrorCode::NotStarted,
            TableStatus::Finished => ErrorCode::Finished,
            TableStatus::Closed => ErrorCode::Closed,
        };
        self.err(conn, code, format!("the match is not being played: nothing to {what}"));
        None
    }

    /// Pauses (`pause`) or resumes the match of a player alone with bots: while it is paused,
    /// no clock runs and no bot moves; resumed, each clock starts afresh where it was (a turn
    /// clock whole, the bank as it stood).
    pub(super) fn pause(&mut self, conn: ConnId, pause: bool, now: Millis) {
        let what = if pause { "pause the match" } else { "resume the match" };
        if self.solo(conn, what).is_none() {
            return;
        }
        match (&self.stage, pause) {
            (Stage::Paused { .. }, true) => {
                self.err(conn, ErrorCode::Paused, "the match is paused already");
            }
            (Stage::Paused { .. }, false) => {
                let Stage::Paused { was } =
                    std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false })
                else {
                    return;
                };
                self.restore(*was, now);
                self.broadcast_seats(None, now);
                self.sync_all(now);
            }
            (_, false) => self.err(conn, ErrorCode::NothingToDecide, "the match is not paused"),
            (Stage::Waiting { .. } | Stage::MatchOver { .. } | Stage::Parked { .. }, true) => {
                self.err(conn, ErrorCode::NothingToDecide, "there is nothing to pause now");
            }
            (_, true) => {
                self.job = None;
                self.held = None;
                let was = std::mem::replace(&mut self.stage, Stage::Waiting { start_due: false });
                self.stage = Stage::Paused { was: Box::new(was) };
                self.broadcast_seats(None, now);
                self.sync_all(now);
            }
        }
    }

    /// Everyone at the table gets a `sync` (what each may do changed with the stage).
    pub(super) fn sync_all(&mut self, now: Millis) {
        let conns: Vec<ConnId> = self.members.iter().map(|m| m.conn).collect();
        for c in conns {
            self.sync_to(c, now);
        }
    }

    /// The player alone with bots takes back his last play of the hand being played (or just
    /// finished): it and every action after it are undone (the log keeps a take-back entry, the
    /// record only the line finally played), and it is his turn again, on a whole clock.
    pub(super) fn take_back(&mut self, conn: ConnId, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(seat) = self.solo(conn, "take back a play") else { return none };
        match &self.stage {
            Stage::Paused { .. } => {
                self.err(conn, ErrorCode::Paused, "the match is paused: resume it first");
                return none;
            }
            Stage::Turn { .. } | Stage::Trick { .. } | Stage::HandOver { .. } => {}
            _ => {
                self.err(
                    conn,
                    ErrorCode::NothingToTakeBack,
                    "a play is taken back while the hand is played or just after it, not now",
                );
                return none;
            }
        }
        let Some(log) = self.full_log.take() else { return none };
        let r = match replay::<G>(&self.settings, self.seed, &log) {
            Ok(r) => r,
            Err(e) => {
                self.fx.notes.push(format!("table {}: the log does not replay: {e}", self.id));
                return none;
            }
        };
        let last = r.line.iter().rposition(|(s, _, turn)| *s == seat && *turn);
        let Some(k) = last.filter(|_| r.line_hand == self.hand) else {
            self.err(conn, ErrorCode::NothingToTakeBack, "you have no play of this hand to take back");
            return none;
        };
        let actions = (r.line.len() - k) as u32;
        let writes: Vec<Write> = self.log_entries(vec![(seat, Logged::Undo(actions))]).into_iter().collect();
        let mut all = log;
        for w in &writes {
            if let Write::Actions(rows) = w {
                all.extend(rows.iter().cloned());
            }
        }
        let r = match replay::<G>(&self.settings, self.seed, &all) {
            Ok(r) => r,
            Err(e) => {
                self.fx.notes.push(format!("table {}: a take-back does not replay: {e}", self.id));
                self.err(conn, ErrorCode::NothingToTakeBack, format!("the play cannot be taken back: {e}"));
                return none;
            }
        };
        let mut states = r.states;
        self.state = states.pop();
        self.m = Some(r.m);
        self.results = std::sync::Arc::new(r.results);
        self.moves = r.moves.saturating_sub(1);
        self.requests = [G::Request::default(); 4];
        self.draw_answers.clear();
        self.held = None;
        self.job = None;
        self.seats[seat.index()].away = false;
        self.after_change(now, false);
        self.broadcast(Event::TakeBack { seat, actions }, now);
        (
            writes,
            OnFail::Refuse { conn, join: false, what: "the take-back could not be saved, nothing changed" },
        )
    }

    pub(super) fn gone(&mut self, conn: ConnId, now: Millis) {
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return };
        let m = self.members.swap_remove(i);
        if let Some(s) = m.seat {
            let grace = u64::from(self.doc.grace_seconds) * 1000;
            let seat = &mut self.seats[s.index()];
            seat.conns = seat.conns.saturating_sub(1);
            if seat.conns == 0 {
                seat.grace_until = (grace > 0 && self.status == TableStatus::Playing).then_some(now + grace);
            }
        }
        self.broadcast_seats(None, now);
        if let Stage::MatchOver { retire_at, .. } = &mut self.stage
            && self.members.is_empty()
        {
            *retire_at = Some(now + self.timing.retire_ms);
        }
    }

    pub(super) fn leave(&mut self, conn: ConnId, now: Millis) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(i) = self.members.iter().position(|m| m.conn == conn) else { return none };
        let Some(s) = self.members[i].seat else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return none;
        };
        let guest = self.members[i].guest.id.clone();
        for m in &mut self.members {
            if m.seat == Some(s) && m.guest.id == guest {
                m.seat = None;
            }
        }
        if self.doc.rated && matches!(self.status, TableStatus::Playing | TableStatus::Parked) {
            // Leaving a rated match forfeits it: the seat stays his (a bot plays it to the end,
            // and he may sit down again), and the log keeps that he left.
            let st = &mut self.seats[s.index()];
            st.conns = 0;
            st.away = true;
            st.grace_until = None;
            self.conduct.note(s.index(), ForfeitKind::Left);
            let writes: Vec<Write> =
                self.log_entries(vec![(s, Logged::Forfeit(ForfeitKind::Left))]).into_iter().collect();
            self.broadcast_seats(None, now);
            self.sync_to(conn, now);
            return (writes, OnFail::Refuse { conn, join: false, what: "the seat could not be given up" });
        }
        self.seats[s.index()] = SeatState { owner: SeatRow::Open, conns: 0, away: false, grace_until: None };
        self.requests[s.index()] = G::Request::default();
        self.broadcast_seats(None, now);
        self.sync_to(conn, now);
        (
            vec![Write::Seat { seat: s.number(), owner: SeatRow::Open }],
            OnFail::Refuse { conn, join: false, what: "the seat could not be given up" },
        )
    }

    pub(super) fn next(&mut self, conn: ConnId, now: Millis) {
        let Some(s) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "you are not seated");
            return;
        };
        let playing = self.status == TableStatus::Playing;
        match &mut self.stage {
            Stage::HandOver { ready, .. } if playing => {
                ready[s.index()] = true;
                self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Next, legal: None }));
                self.broadcast_seats(None, now);
            }
            Stage::MatchOver { .. } if playing => {
                self.reply(conn, ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Next, legal: None }));
            }
            _ => self.err(conn, ErrorCode::NothingToDecide, "the next hand is dealt only between hands"),
        }
    }

    /// Drops chat line `seq` from the kept lines, and tells every connection to drop it (a
    /// connection may have it even when the table keeps it no more).
    pub(super) fn remove_chat(&mut self, seq: u64) {
        self.chat.retain(|c| c.seq != seq);
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        self.send_all(to, ServerMsg::ChatRemoved(ChatRemovedMsg { v: self.v, seq }));
    }

    pub(super) fn say(&mut self, conn: ConnId, text: String, at_ms: i64) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(m) = self.member(conn) else { return none };
        let text = match crate::text::check_text(crate::text::TextKind::Chat, &text, 500) {
            Ok(t) => t,
            Err(e) => {
                self.err(conn, ErrorCode::BadChat, e.to_string());
                return none;
            }
        };
        let row = ChatRow {
            seq: self.chat_seq,
            at_ms,
            guest: Some(m.guest.id.clone()),
            name: m.guest.name.clone(),
            seat: m.seat.map(|s| s.number()),
            text,
        };
        self.chat_seq += 1;
        self.v += 1;
        let to = self.members.iter().map(|m| m.conn).collect();
        self.send_all(to, ServerMsg::Chat(ChatMsg { v: self.v, message: row.clone() }));
        self.chat.push_back(row.clone());
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        (vec![Write::Chat(row)], OnFail::Refuse { conn, join: false, what: "the line could not be saved" })
    }

    pub(super) fn act(
        &mut self,
        conn: ConnId,
        raw: ActAction,
        move_no: Option<u64>,
        named: Option<u8>,
        now: Millis,
    ) -> (Vec<Write>, OnFail) {
        let none = (Vec::new(), OnFail::Drop("nothing"));
        let Some(seat) = self.member(conn).and_then(|m| m.seat) else {
            self.err(conn, ErrorCode::NotSeated, "only a seated player can act; join a seat first");
            return none;
        };
        if let Some(n) = named
            && n != seat.number()
        {
            self.err(conn, ErrorCode::NotYourSeat, format!("you are seat {}, not seat {n}", seat.number()));
            return none;
        }
        match self.status {
            TableStatus::Waiting => {
                self.err(conn, ErrorCode::NotStarted, "the match has not begun");
                return none;
            }
            TableStatus::Finished => {
                self.err(conn, ErrorCode::Finished, "the match is over");
                return none;
            }
            TableStatus::Closed => {
                self.err(conn, ErrorCode::Closed, "the host closed this table");
                return none;
            }
            TableStatus::Parked | TableStatus::Playing => {}
        }
        if matches!(&self.stage, Stage::Paused { .. })
            || matches!(&self.stage, Stage::Parked { was } if matches!(was.as_ref(), Stage::Paused { .. }))
        {
            self.err(conn, ErrorCode::Paused, "the match is paused: resume it first");
            return none;
        }
        let staking = match &self.stage {
            Stage::Stake { ask, .. } => Some(*ask),
            Stage::Parked { was } => match was.as_ref() {
                Stage::Stake { ask, .. } => Some(*ask),
                _ => None,
            },
            _ => None,
        };
        if let ActAction::Stake(c) = raw {
            let Some(ask) = staking else {
                self.err(
                    conn,
                    ErrorCode::TooLate,
                    "the stake is named by the banker before the deal, not now",
                );
                return none;
            };
            if ask.seat != seat {
                let msg = format!("{} is the banker and names the stake, not you ({seat})", ask.seat);
                self.err(conn, ErrorCode::NotYourTurn, msg);
                return none;
            }
            if let Err(why) = G::Stake::check(&self.settings, c.stake) {
                self.err(conn, ErrorCode::Illegal, why.to_string());
                return none;
            }
            if self.seats[seat.index()].away {
                self.seats[seat.index()].away = false;
                self.person_back(seat, now);
                self.broadcast_seats(None, now);
            }
            if let Stage::Stake { deadline, .. } = self.stage {
                self.draw_bank(seat, deadline, now);
            }
            let writes = self.name_stake(ask, c.stake, false, now);
            return (
                writes,
                OnFail::Refuse { conn, join: false, what: "the stake could not be saved, nothing changed" },
            );
        }
        if let Some(ask) = staking {
            let msg = format!("the hand is not dealt yet: its banker ({}) names the stake first", ask.seat);
            self.err(conn, ErrorCode::NotYourTurn, msg);
            return none;
        }
        let action: G::Action = match G::from_wire(raw) {
            Some(a) => a,
            None => {
                let game = G::KIND.name();
                self.err(conn, ErrorCode::Illegal, format!("not an action of this game ({game})"));
                return none;
            }
        };
        let current = self.moves;
        if let Some(n) = move_no
            && n != current
        {
            self.err(
                conn,
                ErrorCode::Stale,
                format!("the action answers move {n}, but the table is at move {current}"),
            );
            return none;
        }
        if self.seats[seat.index()].away {
            // Acting is coming back.
            self.seats[seat.index()].away = false;
            self.person_back(seat, now);
            self.broadcast_seats(None, now);
        }
        let Some(st) = &self.state else { return none };
        let ov = self.overlay();
        if ov.drawn.is_some() || ov.window {
            match G::request(st, seat, ov, self.requests[seat.index()], &action) {
                Ok(r) => {
                    self.requests[seat.index()] = r;
                    let legal = G::legal_for(st, seat, ov, r);
                    let ack =
                        ServerMsg::Ack(AckMsg { v: self.v, what: AckWhat::Request, legal: Some(legal) });
                    self.reply(conn, ack);
                }
                Err(RequestError::Illegal(why)) => self.err(conn, ErrorCode::Illegal, why.to_string()),
                Err(RequestError::TooLate(why)) => self.err(conn, ErrorCode::TooLate, why.to_string()),
                Err(RequestError::Refused(why)) => self.err(conn, ErrorCode::Illegal, why.to_string()),
            }
            return none;
        }
        if G::is_request(&action) {
            self.err(
                conn,
                ErrorCode::TooLate,
                "there is no draw or window open now: this request comes too late",
            );
            return none;
        }
        let Some(turn) = G::to_move(st) else {
            self.err(conn, ErrorCode::NothingToDecide, "the hand is over; the next one is dealt soon");
            return none;
        };
        if turn != seat {
            self.err(conn, ErrorCode::NotYourTurn, format!("it is {turn}'s turn, not yours ({seat})"));
            return none;
        }
        let mut next = st.clone();
        if let Err(why) = G::apply(&mut next, action) {
            self.err(conn, ErrorCode::Illegal, why.to_string());
            return none;
        }
        if let Stage::Turn { seat: s, deadline, .. } = self.stage
            && s == seat
        {
            self.draw_bank(seat, deadline, now);
        }
        let writes = self.log_actions(&[(seat, action)]).into_iter().collect();
        self.job = None;
        self.moved(next, seat, action, false, now);
        (writes, OnFail::Refuse { conn, join: false, what: "the move could not be saved, nothing changed" })
    }
}
