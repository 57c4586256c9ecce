//! The common shape of a hand in both rules engines: whose turn it is, what they may do, doing it
//! (or a typed reason why not), and what a seat may see.

use crate::Seat;

/// One hand of a four-seat card game, as its rules engine holds it: everything a driver (a bot, a
/// table, a test) needs to play it through without knowing which game it is.
///
/// Both engines implement it on their `State` (`madiao::State`, `dabaifen::State`), with the
/// same meaning as their inherent methods of the same names.
pub trait GameState {
    /// The one way to change the hand: a seat's play, answer or choice.
    type Action;
    /// What one seat may know of the hand.
    type View;
    /// Why an action was refused (the engine's own typed error, never flattened to text here).
    type Error: std::error::Error + Send + Sync + 'static;

    /// The seat to act, or `None` when the hand is over.
    fn to_move(&self) -> Option<Seat>;
    /// Every legal action of the seat to act (empty when the hand is over).
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// Applies `action` for the seat to act; on an illegal action the hand is unchanged and the
    /// error says why.
    fn apply(&mut self, action: Self::Action) -> Result<(), Self::Error>;
    /// What `seat` may know of the hand.
    fn view(&self, seat: Seat) -> Self::View;
}
