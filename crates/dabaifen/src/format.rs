//! A Da Bai Fen deal as a `yezi/1` record writes it (`docs/record.md`, Da Bai Fen hand): card
//! codes are text here; [`crate::record`] checks them against the deck and replays the actions.
//! The record's envelope (format, game, rules, variants, players) is [`cards::record::Record`].

use cards::Seat;
use serde::{Deserialize, Serialize};

/// One Da Bai Fen deal as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DabaifenHand {
    /// The starter who draws first (provisional in a first or open deal).
    pub starter: Seat,
    /// True for the match's first deal.
    pub first_deal: bool,
    /// True exactly when the previous deal was annulled.
    pub open: bool,
    /// The two team ranks before the deal (team 0 = seats 0 and 2), written `2`…`9 T J Q K A`.
    pub ranks: [String; 2],
    /// The seed the deck was shuffled from (`docs/record.md`, "Deal verification"); replay
    /// plays the `deck` and does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    pub seed: Option<u64>,
    /// The commitment to the deal the seats were sent before it was dealt (64 hexadecimal
    /// digits, `docs/record.md`, "Deal verification"); replay does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    pub commitment: Option<String>,
    /// The 54 cards after shuffling and cutting, top first.
    pub deck: Vec<String>,
    /// The players' choices, in order (required, `[]` for a deal settled before play).
    pub actions: Vec<DabaifenAction>,
    /// The deal's outcome, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<DabaifenResult>,
}

/// One recorded Da Bai Fen choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawDabaifenAction", into = "RawDabaifenAction")]
pub enum DabaifenAction {
    /// Showing a trump-rank card when `drawn` cards had been drawn in all.
    Declare {
        /// Who showed it.
        seat: Seat,
        /// The trump-rank card shown.
        card: String,
        /// How many cards had been drawn in all when it was shown.
        drawn: u8,
    },
    /// Annulling the deal for a hand with no trump (`true`), or declining to (`false`).
    Annul {
        /// The player without a trump.
        seat: Seat,
        /// Whether he annuls the deal.
        annul: bool,
    },
    /// The starter's six buried cards.
    Bury {
        /// The starter.
        seat: Seat,
        /// The six cards buried.
        cards: Vec<String>,
    },
    /// One or more cards played to a trick.
    Play {
        /// Who played them.
        seat: Seat,
        /// The cards played, one or more.
        cards: Vec<String>,
    },
}

impl DabaifenAction {
    /// The seat that acted.
    pub fn seat(&self) -> Seat {
        match *self {
            DabaifenAction::Declare { seat, .. }
            | DabaifenAction::Annul { seat, .. }
            | DabaifenAction::Bury { seat, .. }
            | DabaifenAction::Play { seat, .. } => seat,
        }
    }
}

#[derive(Serialize, Deserialize)]
struct RawDabaifenAction {
    seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    declare: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    drawn: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    annul: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    bury: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "cards::record::present")]
    play: Option<Vec<String>>,
}

impl TryFrom<RawDabaifenAction> for DabaifenAction {
    type Error = cards::record::ActionShapeError;
    fn try_from(r: RawDabaifenAction) -> Result<Self, cards::record::ActionShapeError> {
        let seat = r.seat;
        match (r.declare, r.drawn, r.annul, r.bury, r.play) {
            (Some(card), Some(drawn), None, None, None) => Ok(DabaifenAction::Declare { seat, card, drawn }),
            (Some(_), None, None, None, None) => Err(cards::record::ActionShapeError::DeclareWithoutDrawn),
            (None, Some(_), ..) => Err(cards::record::ActionShapeError::DrawnOutsideDeclare),
            (None, None, Some(annul), None, None) => Ok(DabaifenAction::Annul { seat, annul }),
            (None, None, None, Some(cards), None) => Ok(DabaifenAction::Bury { seat, cards }),
            (None, None, None, None, Some(cards)) => Ok(DabaifenAction::Play { seat, cards }),
            _ => Err(cards::record::ActionShapeError::Dabaifen),
        }
    }
}

impl From<DabaifenAction> for RawDabaifenAction {
    fn from(a: DabaifenAction) -> Self {
        let mut r = RawDabaifenAction {
            seat: a.seat(),
            declare: None,
            drawn: None,
            annul: None,
            bury: None,
            play: None,
        };
        match a {
            DabaifenAction::Declare { card, drawn, .. } => {
                r.declare = Some(card);
                r.drawn = Some(drawn);
            }
            DabaifenAction::Annul { annul, .. } => r.annul = Some(annul),
            DabaifenAction::Bury { cards, .. } => r.bury = Some(cards),
            DabaifenAction::Play { cards, .. } => r.play = Some(cards),
        }
        r
    }
}

#[cfg(feature = "ts")]
cards::ts_named!(
    DabaifenAction,
    "DabaifenRecordAction",
    "{ seat: Seat } & ({ declare: DabaifenCard, drawn: number } | { annul: boolean } | { bury: Array<DabaifenCard> } | { play: Array<DabaifenCard> })"
        .to_string()
);

/// How a Da Bai Fen deal ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DabaifenOutcome {
    /// Played to the end and scored.
    Played,
    /// Annulled: not played, dealt again as an open deal.
    Annulled,
    /// Ended at once by a revoking lead.
    Revoke,
}

/// Trumps as fixed for a deal: suit letter and rank letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TrumpRecord {
    /// `S`, `H`, `D` or `C`.
    pub suit: String,
    /// `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    pub rank: String,
}

/// The result object of a Da Bai Fen deal (spec §Da Bai Fen hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DabaifenResult {
    /// How the deal ended.
    pub outcome: DabaifenOutcome,
    /// Trumps as fixed, or `None` if an open deal saw no showing.
    pub trump: Option<TrumpRecord>,
    /// The starter who played the deal.
    pub starter: Seat,
    /// The defenders' points `T`, kitty bonus included.
    pub defender_points: Option<u32>,
    /// The card points buried in the kitty.
    pub kitty_points: Option<u32>,
    /// The team (0 or 1) that won the last trick.
    pub last_trick: Option<u8>,
    /// The team (0 or 1) that won the deal.
    pub winner: Option<u8>,
    /// The game points of the scoring table.
    pub levels: u8,
    /// The team ranks after the deal.
    pub ranks: [String; 2],
    /// The starter of the next deal.
    pub next_starter: Seat,
    /// True when a team has won the game.
    pub game_over: bool,
}

/// The line of §9: the defenders win a deal exactly when `T` reaches it.
pub const DEFENDERS_LINE: u32 = 40;

impl DabaifenResult {
    /// The score of `seat` on a duplicate board whose deal ended with this result
    /// (`docs/events.md`, "Da Bai Fen boards"): how far `T` ended from the line of §9, from the
    /// seat's side: `T − 40` for a defender, `40 − T` for a declarer (the starter's team, §3), in
    /// card points. Partners score alike and the two sides' scores add up to 0; a side that won
    /// the deal scores 0 or more, one that lost scores 0 or less. `None` for an annulled deal
    /// (§12.6: it has no `T`).
    pub fn board_score(&self, seat: Seat) -> Option<i32> {
        let t = i64::from(self.defender_points?);
        let margin = t - i64::from(DEFENDERS_LINE);
        let score = if seat.team() == self.starter.team() { -margin } else { margin };
        i32::try_from(score).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(outcome: DabaifenOutcome, starter: u8, t: Option<u32>) -> DabaifenResult {
        DabaifenResult {
            outcome,
            trump: None,
            starter: Seat::new(starter).unwrap(),
            defender_points: t,
            kitty_points: t.map(|_| 0),
            last_trick: None,
            winner: None,
            levels: 0,
            ranks: ["2".into(), "2".into()],
            next_starter: Seat::new(starter).unwrap(),
            game_over: false,
        }
    }

    /// `docs/events.md`, "Da Bai Fen boards": the margin from the line of 40, by side.
    #[test]
    fn a_boards_score_is_the_margin_from_the_line_by_side() {
        let scores = |r: &DabaifenResult| -> Vec<Option<i32>> {
            Seat::ALL.iter().map(|&s| r.board_score(s)).collect()
        };
        // Starter 1: team 1 (seats 1 and 3) declares; the defenders took 25.
        let r = result(DabaifenOutcome::Played, 1, Some(25));
        assert_eq!(scores(&r), [Some(-15), Some(15), Some(-15), Some(15)]);
        // Starter 2: team 0 declares; the defenders took 85 (a revoke scores its T the same).
        let r = result(DabaifenOutcome::Revoke, 2, Some(85));
        assert_eq!(scores(&r), [Some(-45), Some(45), Some(-45), Some(45)]);
        // Exactly on the line: the defenders' bare win scores 0 for both sides.
        let r = result(DabaifenOutcome::Played, 0, Some(40));
        assert_eq!(scores(&r), [Some(0); 4]);
        assert_eq!(scores(&result(DabaifenOutcome::Annulled, 0, None)), [None; 4]);
    }
}
