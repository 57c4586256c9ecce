//! Scoring a deal (§9), rank progression, next starter and game end (§10), and the result object.

use cards::Seat;
use cards::record::{DabaifenOutcome, DabaifenResult, TrumpRecord};

use crate::card::{Cards, Rank, points};
use crate::state::{Outcome, State};
use crate::trump::Trump;
use crate::variants::{GameEnd, KittyMultiplier};

/// The outcome of a deal as the rules score it (the record's result object, typed).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DealResult {
    /// How the deal ended.
    pub outcome: Outcome,
    /// Trumps as fixed (`None` when an open deal saw no showing).
    pub trump: Option<Trump>,
    /// The starter who played the deal (after any declaration in a first or open deal).
    pub starter: Seat,
    /// `T`: the defenders' points, kitty bonus included (`None` when annulled).
    pub defender_points: Option<u32>,
    /// The card points buried in the kitty (`None` when annulled).
    pub kitty_points: Option<u32>,
    /// The team that won (or, after a revoke, is taken to have won) the last trick.
    pub last_trick: Option<u8>,
    /// The team that won the deal.
    pub winner: Option<u8>,
    /// The game points of the table (§9), as the table gives them (§12.9).
    pub levels: u8,
    /// The team ranks after the deal.
    pub ranks: [Rank; 2],
    /// The starter of the next deal.
    pub next_starter: Seat,
    /// True when a team has won the game with this deal.
    pub game_over: bool,
    /// The kitty bonus added to `T` (0 unless the defenders took the last trick).
    pub kitty_bonus: u32,
    /// The kitty multiplier used (2 under `double`; 2 × cards per player in the last trick
    /// under `per_card`).
    pub multiplier: u32,
}

/// The game-point table of §9: who wins the deal for defenders' points `t`, and how many ranks.
/// Returns `(declarers_win, levels)`.
pub const fn game_points(t: u32) -> (bool, u8) {
    match t {
        0 => (true, 2),
        1..=39 => (true, 1),
        40..=79 => (false, 0),
        80..=99 => (false, 1),
        _ => (false, 2),
    }
}

pub(crate) fn score(st: &State, outcome: Outcome) -> DealResult {
    let starter = st.starter;
    if outcome == Outcome::Annulled {
        // §12.6.
        return DealResult {
            outcome,
            trump: st.trump,
            starter,
            defender_points: None,
            kitty_points: None,
            last_trick: None,
            winner: None,
            levels: 0,
            ranks: st.ranks,
            next_starter: starter.opposite(),
            game_over: false,
            kitty_bonus: 0,
            multiplier: 0,
        };
    }
    let declarers = starter.team();
    let defenders = 1 - declarers;
    let kitty_points = points(Cards::from_bits(st.buried));
    let (t, last, cards_in_last) = match outcome {
        Outcome::Revoke => {
            // §12.8: the other team is taken to win every trick, the last included.
            let trick = &st.tricks[st.trick_no as usize];
            let offender = st.revoke.map_or(declarers, |s| s.team());
            if offender == declarers {
                (100 - kitty_points, defenders, trick.size as u32)
            } else {
                (0, declarers, trick.size as u32)
            }
        }
        _ => {
            let last_trick = &st.tricks[st.trick_no as usize];
            let last = last_trick.winner.map_or(declarers, |s| s.team());
            (st.team_points[defenders as usize], last, last_trick.size as u32)
        }
    };
    // §9: the kitty goes to the last trick's team; its points count double (or per card).
    let multiplier = match st.variants.kitty_multiplier {
        KittyMultiplier::Double => 2,
        KittyMultiplier::PerCard => 2 * cards_in_last,
    };
    let kitty_bonus = if last == defenders { multiplier * kitty_points } else { 0 };
    let t = t + kitty_bonus;
    let (declarers_win, levels) = game_points(t);
    let winner = if declarers_win { declarers } else { defenders };
    let mut ranks = st.ranks;
    ranks[winner as usize] = ranks[winner as usize].plus(levels);
    // §10: declarers won → the starter's partner; defenders won → the seat after the starter.
    let next_starter = if declarers_win { starter.opposite() } else { starter.next() };
    let trump = st.trump.expect("a played deal has trumps");
    let game_over = match st.variants.game_end {
        GameEnd::ReachAce => ranks[winner as usize] == Rank::Ace,
        GameEnd::WinAsDeclarersAtAce => declarers_win && trump.rank == Rank::Ace,
    };
    DealResult {
        outcome,
        trump: Some(trump),
        starter,
        defender_points: Some(t),
        kitty_points: Some(kitty_points),
        last_trick: Some(last),
        winner: Some(winner),
        levels,
        ranks,
        next_starter,
        game_over,
        kitty_bonus,
        multiplier,
    }
}

impl DealResult {
    /// The team that declared (the starter's).
    pub fn declarers(&self) -> u8 {
        self.starter.team()
    }

    /// The result object of the record format.
    pub fn to_record(&self) -> DabaifenResult {
        DabaifenResult {
            outcome: match self.outcome {
                Outcome::Played => DabaifenOutcome::Played,
                Outcome::Annulled => DabaifenOutcome::Annulled,
                Outcome::Revoke => DabaifenOutcome::Revoke,
            },
            trump: self.trump.map(|t| TrumpRecord { suit: t.suit.letter().to_string(), rank: t.rank.to_string() }),
            starter: self.starter,
            defender_points: self.defender_points,
            kitty_points: self.kitty_points,
            last_trick: self.last_trick,
            winner: self.winner,
            levels: self.levels,
            ranks: self.ranks.map(|r| r.to_string()),
            next_starter: self.next_starter,
            game_over: self.game_over,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_point_table_row_by_row() {
        // | 0 | declarers +2 |
        assert_eq!(game_points(0), (true, 2));
        // | 5 – 35 | declarers +1 |
        for t in (5..=35).step_by(5) {
            assert_eq!(game_points(t), (true, 1), "{t}");
        }
        // | 40 – 75 | defenders win, no rank |
        for t in (40..=75).step_by(5) {
            assert_eq!(game_points(t), (false, 0), "{t}");
        }
        // | 80 – 95 | defenders +1 |
        for t in (80..=95).step_by(5) {
            assert_eq!(game_points(t), (false, 1), "{t}");
        }
        // | 100 or more | defenders +2 | (T can pass 100 with the kitty bonus)
        for t in [100, 105, 140, 200, 340] {
            assert_eq!(game_points(t), (false, 2), "{t}");
        }
    }
}
