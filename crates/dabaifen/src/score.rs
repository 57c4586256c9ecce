//! Scoring a deal (§9), rank progression, next starter and game end (§10), and the result object.

use crate::format::{DabaifenOutcome, DabaifenResult, TrumpRecord};
use cards::Seat;

use crate::card::{Cards, Rank, points};
use crate::trump::Trump;
use crate::variants::{GameEnd, KittyMultiplier};

/// How a deal ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DabaifenDealOutcome"))]
pub enum Outcome {
    /// Every card was played (the hands are empty) and the deal was scored.
    Played,
    /// Annulled (§6): a hand without trumps was shown, or an open deal saw no showing.
    Annulled,
    /// A revoking lead ended the deal (§8, `revoke: penalize`).
    Revoke,
}

/// What the scoring of a deal reads of the deal as it ended.
#[derive(Clone, Debug)]
pub(crate) struct DealEnd {
    /// The starter who played the deal.
    pub starter: Seat,
    /// Trumps as fixed (`None` when an open deal saw no showing).
    pub trump: Option<Trump>,
    /// The team ranks before the deal.
    pub ranks: [Rank; 2],
    /// The buried cards, as a card-number bitset.
    pub buried: u64,
    /// The seat whose lead was a revoke (§12.8), if any.
    pub revoke: Option<Seat>,
    /// Who won the last trick played (`None` when it was not finished).
    pub last_winner: Option<Seat>,
    /// The number of cards each player played to the last trick.
    pub last_size: u8,
    /// The card points each team took in tricks.
    pub team_points: [u32; 2],
    /// The kitty multiplier variant (§11).
    pub kitty_multiplier: KittyMultiplier,
    /// The game-end variant (§11).
    pub game_end: GameEnd,
}

/// The outcome of a deal as the rules score it (the record's result object, typed).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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

/// Scores a deal that ended with `outcome` (§9, §10; §12.6 for an annulment, §12.8 for a revoke).
pub(crate) fn score(st: &DealEnd, outcome: Outcome) -> DealResult {
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
            let offender = st.revoke.map_or(declarers, |s| s.team());
            if offender == declarers {
                (100 - kitty_points, defenders, st.last_size as u32)
            } else {
                (0, declarers, st.last_size as u32)
            }
        }
        _ => {
            let last = st.last_winner.map_or(declarers, |s| s.team());
            (st.team_points[defenders as usize], last, st.last_size as u32)
        }
    };
    // §9: the kitty goes to the last trick's team; its points count double (or per card).
    let multiplier = match st.kitty_multiplier {
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
    let game_over = match st.game_end {
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
            trump: self
                .trump
                .map(|t| TrumpRecord { suit: t.suit.letter().to_string(), rank: t.rank.to_string() }),
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
    use crate::card::Card;
    use crate::variants::Variants;
    use crate::{Suit, Trump};

    /// A played deal as it stands at its end: starter, team ranks and trump rank, the defenders'
    /// and declarers' trick points, the buried cards, and the last trick's winner and size.
    struct End {
        starter: u8,
        ranks: [Rank; 2],
        trump_rank: Rank,
        defenders: u32,
        buried: &'static str,
        last: u8,
        last_size: u8,
        variants: Variants,
    }

    impl End {
        fn new(defenders: u32, buried: &'static str, last: u8) -> End {
            End {
                starter: 0,
                ranks: [Rank::Two; 2],
                trump_rank: Rank::Two,
                defenders,
                buried,
                last,
                last_size: 1,
                variants: Variants::STANDARD,
            }
        }

        fn score(&self) -> DealResult {
            let starter = Seat::new(self.starter).unwrap();
            let buried = self
                .buried
                .split_whitespace()
                .map(|c| c.parse::<Card>().unwrap())
                .fold(0, |m, c| m | 1 << c.number());
            let kitty = points(Cards::from_bits(buried));
            let defenders = 1 - starter.team();
            let mut team_points = [0; 2];
            team_points[defenders as usize] = self.defenders;
            team_points[1 - defenders as usize] = 100 - kitty - self.defenders;
            let end = DealEnd {
                starter,
                trump: Some(Trump { suit: Suit::Hearts, rank: self.trump_rank }),
                ranks: self.ranks,
                buried,
                revoke: None,
                last_winner: Some(Seat::new(self.last).unwrap()),
                last_size: self.last_size,
                team_points,
                kitty_multiplier: self.variants.kitty_multiplier,
                game_end: self.variants.game_end,
            };
            score(&end, Outcome::Played)
        }
    }

    #[test]
    fn every_row_of_the_table_through_a_scored_deal() {
        // Starter 0: declarers team 0, defenders team 1. Kitty 3C 4C 6C 7C 8C 9C: no points.
        let none = "3C 4C 6C 7C 8C 9C";
        // | 0 | declarers +2 |
        let r = End::new(0, none, 0).score();
        assert_eq!(
            (r.defender_points, r.winner, r.levels, r.ranks),
            (Some(0), Some(0), 2, [Rank::Four, Rank::Two])
        );
        assert_eq!(r.next_starter, Seat::new(2).unwrap(), "declarers won: the starter's partner");
        // | 5 – 35 | declarers +1 |
        for t in [5, 20, 35] {
            let r = End::new(t, none, 0).score();
            assert_eq!((r.winner, r.levels, r.ranks[0]), (Some(0), 1, Rank::Three), "T={t}");
        }
        // | 40 – 75 | defenders win, no rank |
        for t in [40, 55, 75] {
            let r = End::new(t, none, 1).score();
            assert_eq!((r.winner, r.levels, r.ranks), (Some(1), 0, [Rank::Two; 2]), "T={t}");
            assert_eq!(r.next_starter, Seat::new(1).unwrap(), "defenders won: the seat after the starter");
        }
        // | 80 – 95 | defenders +1 |
        for t in [80, 95] {
            let r = End::new(t, none, 1).score();
            assert_eq!((r.winner, r.levels, r.ranks[1]), (Some(1), 1, Rank::Three), "T={t}");
        }
        // | 100 or more | defenders +2 |
        let r = End::new(100, none, 1).score();
        assert_eq!((r.winner, r.levels, r.ranks[1]), (Some(1), 2, Rank::Four));
    }

    #[test]
    fn the_kitty_counts_double_for_the_defenders_when_they_take_the_last_trick() {
        // Kitty KC TC 5C: 25 points.
        let kitty = "KC TC 5C 3C 4C 6C";
        let r = End::new(30, kitty, 1).score();
        assert_eq!((r.kitty_points, r.kitty_bonus, r.defender_points), (Some(25), 50, Some(80)));
        assert_eq!((r.last_trick, r.winner, r.levels), (Some(1), Some(1), 1));
        // Taken by the declarers: no bonus, 30 < 40.
        let r = End::new(30, kitty, 2).score();
        assert_eq!(
            (r.kitty_bonus, r.defender_points, r.last_trick, r.winner),
            (0, Some(30), Some(0), Some(0))
        );
        // The bonus can carry T past 100.
        let r = End::new(75, kitty, 3).score();
        assert_eq!((r.defender_points, r.levels), (Some(125), 2));
        // The bonus alone can win the deal: 0 in tricks + 2 × 25 = 50.
        let r = End::new(0, kitty, 1).score();
        assert_eq!((r.defender_points, r.winner, r.levels), (Some(50), Some(1), 0));
    }

    #[test]
    fn per_card_multiplies_by_twice_the_cards_each_player_played_to_the_last_trick() {
        let kitty = "TC 3C 4C 6C 7C 8C";
        let mut e = End::new(20, kitty, 1);
        e.variants.kitty_multiplier = crate::KittyMultiplier::PerCard;
        e.last_size = 3;
        let r = e.score();
        assert_eq!((r.multiplier, r.kitty_bonus, r.defender_points), (6, 60, Some(80)));
        e.last_size = 1;
        assert_eq!(e.score().defender_points, Some(40));
    }

    #[test]
    fn ranks_stop_at_a_and_the_game_ends() {
        // Declarers at K win +2: they reach A (levels reported 2) and win the game.
        let mut e = End::new(0, "3C 4C 6C 7C 8C 9C", 0);
        e.ranks = [Rank::King, Rank::Five];
        e.trump_rank = Rank::King;
        let r = e.score();
        assert_eq!((r.levels, r.ranks, r.game_over), (2, [Rank::Ace, Rank::Five], true));
        // Defenders at Q with +2 reach A: the game ends at once (reach_ace).
        let mut e = End::new(100, "3C 4C 6C 7C 8C 9C", 1);
        e.ranks = [Rank::Five, Rank::Queen];
        e.trump_rank = Rank::Five;
        let r = e.score();
        assert_eq!((r.ranks, r.game_over, r.winner), ([Rank::Five, Rank::Ace], true, Some(1)));
        // A team ending below A: the game goes on.
        let mut e = End::new(20, "3C 4C 6C 7C 8C 9C", 0);
        e.ranks = [Rank::Jack, Rank::Two];
        e.trump_rank = Rank::Jack;
        let r = e.score();
        assert_eq!((r.ranks[0], r.game_over), (Rank::Queen, false));
        // Starter 3: team 1 declares, defenders are team 0.
        let mut e = End::new(85, "3C 4C 6C 7C 8C 9C", 0);
        e.starter = 3;
        let r = e.score();
        assert_eq!(
            (r.winner, r.levels, r.ranks, r.next_starter),
            (Some(0), 1, [Rank::Three, Rank::Two], Seat::ALL[0])
        );
    }

    #[test]
    fn win_as_declarers_at_ace_needs_a_won_deal_played_at_a() {
        let mut v = Variants::STANDARD;
        v.game_end = crate::GameEnd::WinAsDeclarersAtAce;
        // Defenders reach A: no game end.
        let mut e = End::new(100, "3C 4C 6C 7C 8C 9C", 1);
        e.variants = v;
        e.ranks = [Rank::Five, Rank::Queen];
        e.trump_rank = Rank::Five;
        let r = e.score();
        assert_eq!((r.ranks[1], r.game_over), (Rank::Ace, false));
        // Declarers at A lose: no game end; their rank stays A.
        let mut e = End::new(60, "3C 4C 6C 7C 8C 9C", 1);
        e.variants = v;
        e.ranks = [Rank::Ace, Rank::Ace];
        e.trump_rank = Rank::Ace;
        let r = e.score();
        assert_eq!((r.game_over, r.ranks), (false, [Rank::Ace, Rank::Ace]));
        // Declarers at A win: the game ends; levels still report the table's value.
        let mut e = End::new(35, "3C 4C 6C 7C 8C 9C", 0);
        e.variants = v;
        e.ranks = [Rank::Ace, Rank::Ten];
        e.trump_rank = Rank::Ace;
        let r = e.score();
        assert_eq!((r.game_over, r.levels, r.ranks), (true, 1, [Rank::Ace, Rank::Ten]));
        // Declarers reaching A by winning at K: not yet (A must be played).
        let mut e = End::new(0, "3C 4C 6C 7C 8C 9C", 0);
        e.variants = v;
        e.ranks = [Rank::King, Rank::Ten];
        e.trump_rank = Rank::King;
        let r = e.score();
        assert_eq!((r.ranks[0], r.game_over), (Rank::Ace, false));
    }

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
