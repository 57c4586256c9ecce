//! What a driver may read of a table: its stage, its seats, its views and its record.

use super::*;

impl<G: TableRules> Table<G>
where
    G::Action: DeserializeOwned,
{
    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The stage.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The status.
    pub fn status(&self) -> TableStatus {
        self.status
    }

    /// The hand being played (from 0) and its state, once the match has begun.
    pub fn hand(&self) -> Option<(u32, &G::State)> {
        self.state.as_ref().map(|s| (self.hand, s))
    }

    /// The number of the current hand (from 0), dealt or waiting for its banker's stake.
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// The match between hands, once it has begun.
    pub fn match_state(&self) -> Option<&G::Match> {
        self.m.as_ref()
    }

    /// The results of the finished hands.
    pub fn results(&self) -> &[G::HandResult] {
        &self.results
    }

    /// Every action persisted (the table's log).
    pub fn log(&self) -> Vec<LoggedAction> {
        self.log
            .iter()
            .enumerate()
            .map(|(i, (hand, seat, a))| LoggedAction {
                seq: i as u64,
                hand: *hand,
                seat: seat.number(),
                action: a.to_json(),
            })
            .collect()
    }

    /// The table's version (each message at the table raises it).
    pub fn version(&self) -> u64 {
        self.v
    }

    /// Counts the table's versions on from `v` (when that is higher than now): a table loaded
    /// by a node that takes it over from another begins above every version the other node
    /// can have sent, so that a version never goes back for the people at the table.
    pub fn continue_versions_from(&mut self, v: u64) {
        self.v = self.v.max(v);
    }

    /// Moves everyone has seen (the `move` of the messages).
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The pace the table plays at: `fast` when no seat is a person's.
    pub fn pace(&self) -> Pace {
        if self.seats.iter().all(|s| !matches!(s.owner, SeatRow::Person { .. })) {
            Pace::Fast
        } else {
            self.doc.pace
        }
    }

    /// When the table wants its next [`Input::Tick`].
    pub fn wake_at(&self, now: Millis) -> Option<Millis> {
        if let Some(r) = self.retry_at {
            return Some(r);
        }
        let mut at: Option<Millis> = None;
        let mut take = |t: Option<Millis>| {
            if let Some(t) = t {
                at = Some(at.map_or(t, |a| a.min(t)));
            }
        };
        take(self.park_at);
        if let Some((_, _, t)) = &self.held {
            take(Some(*t));
        }
        if self.status == TableStatus::Playing {
            for s in &self.seats {
                if s.conns == 0 {
                    take(s.grace_until);
                }
            }
        }
        match &self.stage {
            Stage::Waiting { start_due } => take(start_due.then_some(now)),
            Stage::Draw { due, .. } if self.job.is_none() && self.held.is_none() => take(Some(*due)),
            Stage::Window { until } if self.job.is_none() && self.held.is_none() => take(Some(*until)),
            Stage::Draw { .. } | Stage::Window { .. } => {}
            Stage::Turn { seat, deadline, bot_at } => {
                if self.job.is_none() {
                    take(*bot_at);
                    if self.controller(*seat, now) == Controller::Person {
                        take(self.cutoff(*seat, *deadline));
                    }
                }
            }
            Stage::Stake { ask, deadline, bot_at } => match self.controller(ask.seat, now) {
                Controller::Person => take(self.cutoff(ask.seat, *deadline)),
                Controller::Bot(_) => take(*bot_at),
            },
            Stage::Trick { until } => take(Some(*until)),
            Stage::HandOver { until, .. } => take(*until),
            Stage::MatchOver { record_due, retire_at } => {
                if *record_due {
                    take(Some(now));
                } else if self.members.is_empty() {
                    take(*retire_at);
                }
            }
            Stage::Parked { .. } | Stage::Paused { .. } => {}
        }
        at
    }

    /// The table as the lobby shows it at `now`.
    pub fn summary(&self, now: Millis) -> TableSummary {
        TableSummary {
            id: self.id.clone(),
            name: self.doc.name.clone(),
            game: self.doc.game,
            rules: self.doc.rules.clone(),
            variants: G::variant_map(&self.settings),
            stake: (self.doc.game == GameKind::Madiao).then_some(self.doc.stake),
            stake_max: self
                .doc
                .stake_max
                .filter(|&m| self.doc.game == GameKind::Madiao && m > self.doc.stake),
            turn_seconds: self.doc.turn_seconds,
            untimed: self.doc.untimed,
            bank_seconds: if self.doc.untimed { 0 } else { self.doc.bank_seconds },
            pace: self.doc.pace,
            grace_seconds: self.doc.grace_seconds,
            private: self.doc.private,
            status: self.status,
            host: self.host.clone(),
            seats: self.seat_infos(now),
            open_seats: self.seats.iter().filter(|s| s.owner == SeatRow::Open).count(),
            spectators: self.members.iter().filter(|m| m.seat.is_none()).count(),
            hands: self.results.len(),
            created_ms: self.created_ms,
            zero_cash: (self.doc.game == GameKind::Madiao).then_some(self.doc.zero_cash),
            rated: self.doc.rated,
            no_aids: self.doc.no_aids,
        }
    }

    /// The `sync` a connection would get now (`None` for a connection not at the table).
    pub fn sync_for(&self, conn: ConnId, now: Millis) -> Option<ServerMsg> {
        let m = self.members.iter().find(|m| m.conn == conn)?;
        Some(self.sync_msg(m, now))
    }
}
