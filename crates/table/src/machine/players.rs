//! The pace of a table and who plays each seat: persons, bots standing in, the grace period.

use super::*;

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    pub(super) fn paced(&self, base: Millis) -> Millis {
        self.pace().scale(base)
    }

    pub(super) fn draw_every(&self) -> Millis {
        self.paced(self.timing.draw_ms).max(1)
    }

    pub(super) fn window_len(&self) -> Millis {
        self.paced(self.timing.window_ms)
    }

    pub(super) fn trick_len(&self) -> Millis {
        self.paced(self.timing.trick_ms)
    }

    /// When the pause after a hand ends at the latest (`None`: an untimed table waits for its
    /// people's ready).
    pub(super) fn pause_until(&self, now: Millis) -> Option<Millis> {
        let connected = self.seats.iter().any(|s| matches!(s.owner, SeatRow::Person { .. }) && s.conns > 0);
        if !connected {
            Some(now + self.trick_len())
        } else if self.doc.untimed {
            None
        } else {
            Some(now + (u64::from(self.doc.turn_seconds) * 1000).min(self.timing.pause_ms))
        }
    }

    // -------------------------------------------------------------------------------------------
    // Who plays

    pub(super) fn controller(&self, s: Seat, now: Millis) -> Controller {
        let seat = &self.seats[s.index()];
        match &seat.owner {
            SeatRow::Bot(name) => Controller::Bot(name.clone()),
            SeatRow::Person { .. } if seat.away => Controller::Bot(default_bot::<G>().to_string()),
            SeatRow::Person { .. } if seat.conns > 0 => Controller::Person,
            SeatRow::Person { .. } if seat.grace_until.is_some_and(|g| g > now) => Controller::Person,
            _ => Controller::Bot(default_bot::<G>().to_string()),
        }
    }

    /// When a person's turn clock that runs to `deadline` has run out, his bank too.
    pub(super) fn cutoff(&self, seat: Seat, deadline: Option<Millis>) -> Option<Millis> {
        deadline.map(|d| d + self.bank[seat.index()])
    }

    /// A person moved (or named the stake) on a turn whose clock ran to `deadline`: the time
    /// past it comes out of his bank.
    pub(super) fn draw_bank(&mut self, seat: Seat, deadline: Option<Millis>, now: Millis) {
        if let Some(d) = deadline
            && now > d
        {
            let b = &mut self.bank[seat.index()];
            *b = b.saturating_sub(now - d);
        }
    }

    pub(super) fn grace_left(&self, s: Seat, now: Millis) -> Option<Millis> {
        let seat = &self.seats[s.index()];
        match seat.owner {
            SeatRow::Person { .. } if seat.conns == 0 => {
                Some(seat.grace_until.map_or(0, |g| g.saturating_sub(now)))
            }
            _ => None,
        }
    }

    pub(super) fn seat_info(&self, s: Seat, t: Millis) -> SeatInfo {
        let seat = &self.seats[s.index()];
        let bot_plays = matches!(self.controller(s, t), Controller::Bot(_));
        let (kind, name, bot, guest, present) = match &seat.owner {
            SeatRow::Open => (SeatKind::Open, None, None, None, false),
            SeatRow::Bot(b) => (SeatKind::Bot, Some(format!("bot:{b}")), Some(b.clone()), None, true),
            SeatRow::Person { guest, name } => {
                (SeatKind::Person, Some(name.clone()), None, Some(guest.clone()), seat.conns > 0)
            }
        };
        SeatInfo {
            seat: s.number(),
            kind,
            name,
            bot,
            guest,
            present,
            away: seat.away,
            bot_plays,
            grace_ms: self.grace_left(s, t).filter(|&g| g > 0 && !seat.away),
            invited: self.invited[s.index()].as_ref().map(|g| g.name.clone()),
        }
    }

    pub(super) fn seat_infos(&self, now: Millis) -> Vec<SeatInfo> {
        Seat::ALL.iter().map(|&s| self.seat_info(s, now)).collect()
    }
}
