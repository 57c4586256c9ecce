//! A rated match as ratings read it when it ends (`docs/ratings.md`): who held each seat, the
//! seat's standing, and whether its person forfeited (left the match, was away at its end, or
//! let the turn clock run out [`CLOCK_FORFEIT`] times).

use cards::record::GameKind;
use serde::{Deserialize, Serialize};

use crate::seats::SeatRow;
use crate::standings::Standing;

/// How many times a person's turn clock (or banker's stake clock) may run out in a rated match
/// before the match counts as lost for him: this many times forfeits.
pub const CLOCK_FORFEIT: u32 = 3;

/// Why a person forfeited a rated match, as the table's log keeps it (`{"forfeit":"left"}`,
/// `{"forfeit":"clock"}`, at the seat's number).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitKind {
    /// The person gave up the seat during the match (a bot played it to the end).
    Left,
    /// The person's clock ran out (once; [`CLOCK_FORFEIT`] of them forfeit).
    Clock,
}

/// One log entry of a forfeit (the JSON the log stores).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForfeitEntry {
    /// What happened.
    pub forfeit: ForfeitKind,
}

/// What a rated match's log says of each seat's conduct.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Conduct {
    /// The seat's person left the match.
    pub left: [bool; 4],
    /// How many times the seat's person let the clock run out.
    pub clock: [u32; 4],
}

impl Conduct {
    /// Counts one log entry of `seat` (0–3).
    pub fn note(&mut self, seat: usize, kind: ForfeitKind) {
        if seat >= 4 {
            return;
        }
        match kind {
            ForfeitKind::Left => self.left[seat] = true,
            ForfeitKind::Clock => self.clock[seat] = self.clock[seat].saturating_add(1),
        }
    }

    /// Whether the seat's person forfeited by the log (left, or [`CLOCK_FORFEIT`] clocks).
    pub fn forfeited(&self, seat: usize) -> bool {
        seat < 4 && (self.left[seat] || self.clock[seat] >= CLOCK_FORFEIT)
    }
}

/// Who played a seat of a rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RatedPlayer {
    /// A person (a guest, with an account when the match began).
    Person {
        /// The guest.
        guest: String,
        /// The name shown.
        name: String,
    },
    /// A bot, by its registry name: plays under its fixed rating.
    Bot(String),
}

/// One seat of a rated match that ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedSeat {
    /// The seat, 0–3.
    pub seat: u8,
    /// Who held it.
    pub player: RatedPlayer,
    /// Its side and result ([`crate::standings::MatchStandings::standings`]).
    pub side: Option<u8>,
    /// The higher the better.
    pub result: f64,
    /// The person forfeited: loses to every other seat.
    pub forfeited: bool,
}

/// A rated match that ended: what its players' ratings are updated from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedMatch {
    /// The game (ratings are per game).
    pub game: GameKind,
    /// The seats held at the end (an open seat, which a bot played for nobody, is left out).
    pub seats: Vec<RatedSeat>,
}

/// The rated match of a table whose match is over: its seats' owners, their standings, the log's
/// conduct, and which seats' persons were away at the end (their clock had run out and they were
/// not back, or they were gone past their grace period). `None` without standings.
pub fn rated_match(
    game: GameKind,
    owners: &[SeatRow; 4],
    standings: Option<[Standing; 4]>,
    conduct: &Conduct,
    away_at_end: [bool; 4],
) -> Option<RatedMatch> {
    let standings = standings?;
    let seats = owners
        .iter()
        .enumerate()
        .filter_map(|(i, owner)| {
            let (player, person) = match owner {
                SeatRow::Open => return None,
                SeatRow::Bot(b) => (RatedPlayer::Bot(b.clone()), false),
                SeatRow::Person { guest, name } => {
                    (RatedPlayer::Person { guest: guest.clone(), name: name.clone() }, true)
                }
            };
            Some(RatedSeat {
                seat: i as u8,
                player,
                side: standings[i].side,
                result: standings[i].result,
                forfeited: person && (conduct.forfeited(i) || away_at_end[i]),
            })
        })
        .collect();
    Some(RatedMatch { game, seats })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(g: &str) -> SeatRow {
        SeatRow::Person { guest: g.into(), name: g.to_uppercase() }
    }

    #[test]
    fn forfeit_entries_read_and_write_as_the_log_keeps_them() {
        let e = ForfeitEntry { forfeit: ForfeitKind::Clock };
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"forfeit":"clock"}"#);
        let left: ForfeitEntry = serde_json::from_str(r#"{"forfeit":"left"}"#).unwrap();
        assert_eq!(left.forfeit, ForfeitKind::Left);
        assert!(serde_json::from_str::<ForfeitEntry>(r#"{"forfeit":"left","play":"M9"}"#).is_err());
        assert!(serde_json::from_str::<ForfeitEntry>(r#"{"play":"M9"}"#).is_err());
    }

    #[test]
    fn a_person_forfeits_by_leaving_or_by_the_third_clock() {
        let mut c = Conduct::default();
        c.note(1, ForfeitKind::Clock);
        c.note(1, ForfeitKind::Clock);
        assert!(!c.forfeited(1), "two clocks do not forfeit");
        c.note(1, ForfeitKind::Clock);
        assert!(c.forfeited(1), "the third does");
        c.note(2, ForfeitKind::Left);
        assert!(c.forfeited(2));
        assert!(!c.forfeited(0) && !c.forfeited(3) && !c.forfeited(9));
        c.note(9, ForfeitKind::Left);
    }

    #[test]
    fn the_rated_match_has_every_held_seat_and_only_persons_forfeit() {
        let owners = [person("a"), SeatRow::Bot("pimc".into()), SeatRow::Open, person("d")];
        let standings = [4.0, -1.0, 2.0, -5.0].map(|result| Standing { side: None, result });
        let mut conduct = Conduct::default();
        conduct.note(0, ForfeitKind::Left);
        // A bot seat's log entries (none are written) would not make it forfeit.
        conduct.note(1, ForfeitKind::Left);
        let m =
            rated_match(GameKind::Madiao, &owners, Some(standings), &conduct, [false, false, false, true])
                .unwrap();
        assert_eq!(m.seats.len(), 3, "the open seat is nobody's");
        assert_eq!(m.seats.iter().map(|s| s.seat).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(m.seats.iter().map(|s| s.forfeited).collect::<Vec<_>>(), [true, false, true]);
        assert_eq!(m.seats.iter().map(|s| s.result).collect::<Vec<_>>(), [4.0, -1.0, -5.0]);
        assert_eq!(m.seats[1].player, RatedPlayer::Bot("pimc".into()));
        assert!(rated_match(GameKind::Madiao, &owners, None, &conduct, [false; 4]).is_none());
    }
}
