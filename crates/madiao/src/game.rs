//! §7 A match: hands chained by their next banker, until the match ends.

use crate::format::{MadiaoOutcome, MadiaoResult};
use cards::Seat;

use crate::card::Card;
use crate::deal::BankerDraw;
use crate::state::{HandSetup, MatchProgress, State};
use crate::variants::Variants;

/// A match in progress: whose bank it is next, who has banked, whether it is over.
///
/// ```
/// use madiao::{BankerDraw, Match, State, Variants, deck_from_seed};
/// let mut m = Match::new(Variants::STANDARD);
/// assert_eq!(m.next_banker(), None); // the first banker is drawn (§2)
/// let banker = BankerDraw::from_seed(7, 0).banker;
/// let setup = m.setup(banker, 2, deck_from_seed(7, 0)).unwrap();
/// let mut state = State::new(setup).unwrap();
/// while state.to_move().is_some() {
///     let a = *state.legal_actions().last().unwrap();
///     state.apply(a).unwrap();
/// }
/// let result = m.finish(&state).unwrap();
/// assert_eq!(m.next_banker(), result.next_banker);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Match {
    variants: Variants,
    progress: MatchProgress,
    next_banker: Option<Seat>,
    over: bool,
    /// Hands finished in this match, long-suit redeals included.
    finished: u32,
}

/// Why a hand does not fit the match.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The hand's banker is not the one the previous hand named.
    #[error("banker is {} but the previous hand's result says {} comes next", .given.number(), .expected.number())]
    WrongBanker {
        /// The banker of the hand given.
        given: Seat,
        /// The banker the previous hand's result names (§7).
        expected: Seat,
    },
    /// The match has ended.
    #[error("the match is over")]
    Over,
    /// The hand given to [`Match::finish`] is still being played.
    #[error("the hand is not finished")]
    HandNotOver,
}

impl Match {
    /// A new match; its first banker is drawn (§2).
    pub fn new(variants: Variants) -> Match {
        Match { variants, progress: MatchProgress::default(), next_banker: None, over: false, finished: 0 }
    }

    /// The rules.
    pub fn variants(&self) -> &Variants {
        &self.variants
    }

    /// The hands that count towards the match's length and the seats that banked so far (a
    /// long-suit redeal is the same hand dealt again and is not counted; see [`Match::finish`]).
    pub fn progress(&self) -> MatchProgress {
        self.progress
    }

    /// The next hand's banker, or `None` when it is drawn (the first hand, and after the four
    /// lowest).
    pub fn next_banker(&self) -> Option<Seat> {
        self.next_banker
    }

    /// Every hand finished in this match, long-suit redeals included (0 before its first hand).
    pub fn hands_finished(&self) -> u32 {
        self.finished
    }

    /// True once a hand has ended the match.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The banker of the next hand: the named one, or the winner of `draw`.
    pub fn banker_or_draw(&self, draw: impl FnOnce() -> BankerDraw) -> Seat {
        self.next_banker.unwrap_or_else(|| draw().banker)
    }

    /// The next hand's setup from its deck. `banker` must be the named next banker, if one is named.
    pub fn setup(&self, banker: Seat, stake: u32, deck: [Card; 40]) -> Result<HandSetup, MatchError> {
        if self.over {
            return Err(MatchError::Over);
        }
        if let Some(expected) = self.next_banker
            && expected != banker
        {
            return Err(MatchError::WrongBanker { given: banker, expected });
        }
        Ok(HandSetup { banker, stake, deck, variants: self.variants, progress: self.progress })
    }

    /// Records a finished hand of this match (made from [`Match::setup`]) and returns its result.
    ///
    /// A hand ended by a long-suit redeal (§4.3) is the same hand dealt again: the banker stays,
    /// nobody pays, and it does not count towards `game_length: hands:N` (§7).
    pub fn finish(&mut self, state: &State) -> Result<MadiaoResult, MatchError> {
        if self.over {
            return Err(MatchError::Over);
        }
        let result = state.to_record_result().ok_or(MatchError::HandNotOver)?;
        self.finished += 1;
        if result.outcome != MadiaoOutcome::Redeal {
            self.progress.hands_before += 1;
        }
        self.progress.banked[state.banker()] = true;
        self.next_banker = result.next_banker;
        self.over = result.game_over;
        Ok(result)
    }
}
