//! An unvalidated deal setup, dealing from a seed, and the first-deal draw (§4).
//!
//! ## From a seed to decks
//! Deal `k` (counted from 0 over a whole run of deals, e.g. `yezi sim`'s deals) of seed `S` uses the
//! deck made by shuffling the canonical order (cards by number: `2S 3S … AS 2H … AC SJ BJ`) with
//! our Fisher–Yates shuffle ([`cards::Rng::shuffle`]) driven by `Rng::from_seed_stream(S, k)`; the
//! same generator, after the shuffle, then drives the random policy of that deal ([`deal_from_seed`]).
//! The first-deal draw of a match whose first deal is deal `k` uses
//! `Rng::from_seed_stream(S, FIRST_DRAW_STREAM + k)`. The first decks of a few seeds are pinned by a
//! test.

use cards::{Rng, Seat};

use crate::card::{Card, Rank};
use crate::variants::{GameEnd, Variants};

/// Stream offset of the first-deal draws (see the module documentation).
pub const FIRST_DRAW_STREAM: u64 = 1 << 48;

/// Everything that fixes a deal before anyone acts; checked by [`crate::State::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandSetup {
    /// The pack after shuffling and cutting, top card first (§4).
    pub deck: [Card; 54],
    /// The starter who draws first: provisional in a first or an open deal (record `starter`).
    pub starter: Seat,
    /// The match's first deal: ranks 2 and 2, whoever declares becomes the starter.
    pub first_deal: bool,
    /// The deal after an annulled one (§6): each player may show his own team's rank.
    pub open: bool,
    /// The team ranks before the deal (team 0 = seats 0 and 2).
    pub ranks: [Rank; 2],
    /// The rules variants.
    pub variants: Variants,
}

impl HandSetup {
    /// The first deal of a match with `starter` as provisional starter.
    pub fn first(deck: [Card; 54], starter: Seat, variants: Variants) -> HandSetup {
        HandSetup { deck, starter, first_deal: true, open: false, ranks: [Rank::Two; 2], variants }
    }
}

/// The starting conditions a duplicate board fixes for every table that plays it
/// (`docs/dabaifen.md`, "Duplicate boards"): a later deal (not a first deal, §4, nor an open
/// one, §6) whose starter and team ranks are the board's, dealt from the board's table seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardStart {
    /// The starter (§3): he draws first, takes the kitty and leads, and his team declares.
    pub starter: Seat,
    /// Both teams' rank, hence the trump rank (§3, §12.2).
    pub rank: Rank,
}

impl BoardStart {
    /// Board `board` (from 0): the starter moves one seat on every board, as the dealer of
    /// bridge boards does, so that in every four boards each seat starts once; both teams play
    /// at rank 2 on the first four boards, 3 on the next four, and so on up to K, then from 2
    /// again (A is left out: under `game_end: reach_ace` a team at A has won, §10).
    pub fn of_board(board: u32) -> BoardStart {
        BoardStart {
            starter: Seat::wrapping((board % 4) as usize),
            rank: Rank::ALL[(board / 4 % 12) as usize],
        }
    }
}

/// Why a setup cannot be dealt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A card appears twice in the deck.
    #[error("deck[{second}]: duplicate card {card} (already at deck[{first}])")]
    DuplicateCard {
        /// The card that appears twice.
        card: Card,
        /// Its first position in the deck, from 0.
        first: usize,
        /// Its second position in the deck.
        second: usize,
    },
    /// `first_deal` and `open` together.
    #[error("a deal cannot be both the first deal and an open deal (an open deal follows an annulled one)")]
    FirstAndOpen,
    /// A first deal whose ranks are not 2 and 2.
    #[error("the first deal is played with ranks 2 and 2, not {0} and {1}")]
    FirstDealRanks(Rank, Rank),
    /// Under `game_end: reach_ace` a team at A has already won.
    #[error("team {0} is at A: under game_end reach_ace the game is already over")]
    GameAlreadyOver(u8),
}

/// The canonical deck order: all 54 cards by number.
pub fn canonical_deck() -> [Card; 54] {
    std::array::from_fn(|i| Card::from_number(i as u8).expect("i < 54"))
}

/// The deck of deal `deal` of `seed` (see the module documentation).
pub fn deck_from_seed(seed: u64, deal: u64) -> [Card; 54] {
    deal_from_seed(seed, deal).0
}

/// The deck of deal `deal` of `seed` and the generator that shuffled it, to be used next by the
/// deal's random policy (see the module documentation).
#[inline]
pub fn deal_from_seed(seed: u64, deal: u64) -> ([Card; 54], Rng) {
    let mut deck = canonical_deck();
    let mut rng = Rng::from_seed_stream(seed, deal);
    rng.shuffle(&mut deck);
    (deck, rng)
}

/// The first-deal draw for the provisional starter (§4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstDraw {
    /// The provisional starter: the seat that drew highest.
    pub starter: Seat,
    /// The cards drawn, round by round (`None` for a seat that did not draw in that round).
    pub rounds: Vec<[Option<Card>; 4]>,
}

/// Draws for the provisional starter (§4): every seat, in seat order 0–3, draws the next card of a
/// pack shuffled with `rng`; the highest (`BJ` > `SJ` > A > … > 2, suits ignored) wins; players tied
/// for highest draw again, in seat order, from the rest of the same pack (a fresh pack shuffled with
/// `rng` if it runs out).
pub fn first_draw(rng: &mut Rng) -> FirstDraw {
    let mut rounds = Vec::new();
    let starter = draw_for_starter(rng, |round| rounds.push(round));
    FirstDraw { starter, rounds }
}

/// The draw of [`first_draw`] without keeping the cards: the provisional starter, each round's
/// cards told to `on_round` (`None` for a seat that did not draw in that round).
pub(crate) fn draw_for_starter(rng: &mut Rng, mut on_round: impl FnMut([Option<Card>; 4])) -> Seat {
    let mut pack = canonical_deck();
    rng.shuffle(&mut pack);
    let mut next = 0usize;
    let mut in_draw = [true; 4];
    loop {
        let needed = in_draw.iter().filter(|&&b| b).count();
        if next + needed > pack.len() {
            pack = canonical_deck();
            rng.shuffle(&mut pack);
            next = 0;
        }
        let mut round = [None; 4];
        for s in 0..4 {
            if in_draw[s] {
                round[s] = Some(pack[next]);
                next += 1;
            }
        }
        on_round(round);
        let best = round.iter().flatten().map(|c| c.draw_strength()).max().unwrap_or(0);
        for s in 0..4 {
            in_draw[s] = round[s].is_some_and(|c| c.draw_strength() == best);
        }
        let mut tied = (0..4).filter(|&s| in_draw[s]);
        if let (Some(only), None) = (tied.next(), tied.next()) {
            return Seat::wrapping(only);
        }
    }
}

/// Checks a setup (used by [`crate::State::new`]).
pub(crate) fn check(setup: &HandSetup) -> Result<(), SetupError> {
    let mut seen = [usize::MAX; 54];
    for (i, c) in setup.deck.iter().enumerate() {
        let n = c.number() as usize;
        if seen[n] != usize::MAX {
            return Err(SetupError::DuplicateCard { card: *c, first: seen[n], second: i });
        }
        seen[n] = i;
    }
    if setup.first_deal && setup.open {
        return Err(SetupError::FirstAndOpen);
    }
    if setup.first_deal && setup.ranks != [Rank::Two; 2] {
        return Err(SetupError::FirstDealRanks(setup.ranks[0], setup.ranks[1]));
    }
    if setup.variants.game_end == GameEnd::ReachAce
        && let Some(t) = setup.ranks.iter().position(|&r| r == Rank::Ace)
    {
        return Err(SetupError::GameAlreadyOver(t as u8));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_draw_picks_the_unique_highest() {
        for seed in 0..200 {
            let d = first_draw(&mut Rng::from_seed(seed));
            let last = d.rounds.last().unwrap();
            let best = last.iter().flatten().map(|c| c.draw_strength()).max().unwrap();
            let winners: Vec<usize> =
                (0..4).filter(|&s| last[s].is_some_and(|c| c.draw_strength() == best)).collect();
            assert_eq!(winners, vec![d.starter.index()]);
            // Every earlier round was a tie for highest among exactly the next round's drawers.
            for w in d.rounds.windows(2) {
                let best = w[0].iter().flatten().map(|c| c.draw_strength()).max().unwrap();
                for (next, prev) in w[1].iter().zip(&w[0]) {
                    assert_eq!(next.is_some(), prev.is_some_and(|c| c.draw_strength() == best));
                }
            }
        }
    }

    #[test]
    fn ties_draw_again() {
        // Some seed among the first few hundred must produce a tie (13 ranks, 4 draws).
        let tie = (0..500).find(|&s| first_draw(&mut Rng::from_seed(s)).rounds.len() > 1);
        assert!(tie.is_some());
    }

    #[test]
    fn boards_rotate_the_starter_and_step_the_rank_every_four() {
        let starts: Vec<(usize, Rank)> =
            (0..9).map(BoardStart::of_board).map(|b| (b.starter.index(), b.rank)).collect();
        assert_eq!(
            starts,
            [
                (0, Rank::Two),
                (1, Rank::Two),
                (2, Rank::Two),
                (3, Rank::Two),
                (0, Rank::Three),
                (1, Rank::Three),
                (2, Rank::Three),
                (3, Rank::Three),
                (0, Rank::Four)
            ]
        );
        assert_eq!(BoardStart::of_board(47).rank, Rank::King);
        assert_eq!(BoardStart::of_board(48).rank, Rank::Two);
    }

    #[test]
    fn setup_checks() {
        let mut s = HandSetup::first(canonical_deck(), Seat::ALL[0], Variants::STANDARD);
        assert_eq!(check(&s), Ok(()));
        s.deck[5] = s.deck[2];
        assert_eq!(check(&s).unwrap_err().to_string(), "deck[5]: duplicate card 4S (already at deck[2])");
        s.deck = canonical_deck();
        s.open = true;
        assert_eq!(check(&s), Err(SetupError::FirstAndOpen));
        s.open = false;
        s.ranks = [Rank::Three, Rank::Two];
        assert_eq!(check(&s), Err(SetupError::FirstDealRanks(Rank::Three, Rank::Two)));
        s.first_deal = false;
        s.ranks = [Rank::Three, Rank::Ace];
        assert_eq!(check(&s), Err(SetupError::GameAlreadyOver(1)));
        s.variants.game_end = GameEnd::WinAsDeclarersAtAce;
        assert_eq!(check(&s), Ok(()));
    }
}
