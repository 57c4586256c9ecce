//! How a finished match ranks its seats, as ratings read it (`docs/ratings.md`): Madiao by each
//! seat's winnings in chips, Da Bai Fen by partnership.

use cards::Seat;

use wire::MatchSummary;

/// A seat's place at the end of a match.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Standing {
    /// The seat's side: seats on the same side are not ranked against each other (Da Bai Fen's
    /// partnerships); `None` when each seat plays for itself (Madiao).
    pub side: Option<u8>,
    /// The seat's result: the higher the better (Madiao: the chips won over the match, each
    /// hand's payoff in stakes times the stake its banker named; Da Bai Fen: 1 for the side that
    /// won the match, 0 for the other).
    pub result: f64,
}

/// The standings of a match score (a trait, since the score is a `wire` type).
pub trait MatchStandings {
    /// Every seat's standing once the match is over (`None` before, or for a Da Bai Fen match
    /// without a winner).
    fn standings(&self) -> Option<[Standing; 4]>;

    /// Every seat's standing as the match stands now, finished or not (a rated match closed in
    /// progress is rated so, `docs/ratings.md`, "Forfeits"): Madiao by the chips won so far; Da
    /// Bai Fen by the sides' ranks (1 for the side ahead, 0 for the other, ½ each when level),
    /// or its winner once it is over.
    fn standings_now(&self) -> [Standing; 4];
}

impl MatchStandings for MatchSummary {
    fn standings(&self) -> Option<[Standing; 4]> {
        match self {
            MatchSummary::Madiao(m) => m.over.then(|| m.chips.map(|c| Standing { side: None, result: c })),
            MatchSummary::Dabaifen(m) => {
                let winner = m.winner.filter(|_| m.over)?;
                Some(Seat::ALL.map(|s| Standing {
                    side: Some(s.team()),
                    result: if s.team() == winner { 1.0 } else { 0.0 },
                }))
            }
        }
    }

    fn standings_now(&self) -> [Standing; 4] {
        if let Some(s) = self.standings() {
            return s;
        }
        match self {
            MatchSummary::Madiao(m) => m.chips.map(|c| Standing { side: None, result: c }),
            MatchSummary::Dabaifen(m) => {
                let [a, b] = m.ranks;
                let lead = [a.cmp(&b), b.cmp(&a)].map(|o| match o {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                });
                Seat::ALL.map(|s| Standing { side: Some(s.team()), result: lead[usize::from(s.team())] })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::{DabaifenMatch, MadiaoMatch};

    #[test]
    fn madiao_ranks_by_chips_once_over() {
        // Seat 1 is behind in stakes but ahead in chips: its wins came at higher stakes.
        let mut m = MadiaoMatch {
            hands: 5,
            totals: [3.0, -1.5, 0.5, -2.0],
            stakes: vec![2, 2, 10, 2, 2],
            chips: [4.0, 9.0, -5.0, -8.0],
            banked: [true; 4],
            next_banker: None,
            over: false,
        };
        assert_eq!(MatchSummary::Madiao(m.clone()).standings(), None);
        m.over = true;
        let s = MatchSummary::Madiao(m).standings().unwrap();
        assert_eq!(s.map(|x| x.result), [4.0, 9.0, -5.0, -8.0]);
        assert!(s.iter().all(|x| x.side.is_none()));
    }

    #[test]
    fn dabaifen_ranks_by_partnership() {
        let m = DabaifenMatch {
            hands: 12,
            ranks: [dabaifen::Rank::Ace, dabaifen::Rank::Nine],
            next_starter: Seat::new(1).unwrap(),
            deals_won: [7, 5],
            over: true,
            winner: Some(1),
        };
        let s = MatchSummary::Dabaifen(m.clone()).standings().unwrap();
        assert_eq!(s.map(|x| x.side), [Some(0), Some(1), Some(0), Some(1)]);
        assert_eq!(s.map(|x| x.result), [0.0, 1.0, 0.0, 1.0]);
        let unfinished = DabaifenMatch { over: false, ..m.clone() };
        assert_eq!(MatchSummary::Dabaifen(unfinished.clone()).standings(), None);
        // As it stands: the side with the higher rank leads (team 0 at A, team 1 at 9).
        let now = MatchSummary::Dabaifen(unfinished.clone()).standings_now();
        assert_eq!(now.map(|x| x.result), [1.0, 0.0, 1.0, 0.0]);
        let level = DabaifenMatch { ranks: [dabaifen::Rank::Nine; 2], ..unfinished };
        assert_eq!(MatchSummary::Dabaifen(level).standings_now().map(|x| x.result), [0.5; 4]);
        // Once over, the winner's.
        assert_eq!(MatchSummary::Dabaifen(m).standings_now().map(|x| x.result), [0.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn a_madiao_match_stands_by_its_chips_so_far() {
        let m = MadiaoMatch {
            hands: 2,
            totals: [1.0, -1.0, 0.0, 0.0],
            stakes: vec![2, 2],
            chips: [2.0, -2.0, 0.0, 0.0],
            banked: [true, true, false, false],
            next_banker: None,
            over: false,
        };
        assert_eq!(MatchSummary::Madiao(m).standings_now().map(|x| x.result), [2.0, -2.0, 0.0, 0.0]);
    }
}
