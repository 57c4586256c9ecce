//! The common shape of the two rules engines, as bots, the arena and the server drive them: the
//! engines' own [`GameState`] trait, plus what bots need on top (the game's kind, bounds for
//! threads, hashing and serialization). Bots keep their registry on top of this (`Registry`).

use std::fmt::{Debug, Display};
use std::hash::Hash;

use cards::record::GameKind;
use cards::{GameState, Seat};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why `G` refused an action: the engine's own typed error (`madiao::IllegalAction`,
/// `dabaifen::IllegalAction`).
pub type Illegal<G> = <<G as Game>::State as GameState>::Error;

/// A game whose hands bots can play: the engine's state, action and view types, and the few
/// operations every driver needs (those of the engine's [`GameState`]).
pub trait Game: Sized + Send + Sync + 'static {
    /// The full state of one hand (never shown to a bot).
    type State: GameState<Action = Self::Action, View = Self::View> + Clone + Send + Sync + 'static;
    /// The one way to change a state.
    type Action: Copy + Eq + Hash + Debug + Display + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// What one seat may know.
    type View: Clone + Debug + Send + Sync + Serialize + 'static;

    /// Which game this is.
    const KIND: GameKind;

    /// The seat to act, or `None` when the hand is over.
    fn to_move(state: &Self::State) -> Option<Seat> {
        state.to_move()
    }
    /// What `seat` may know of `state`.
    fn view(state: &Self::State, seat: Seat) -> Self::View {
        state.view(seat)
    }
    /// Every legal action of the seat to act (empty when the hand is over).
    fn legal_actions(state: &Self::State) -> Vec<Self::Action> {
        state.legal_actions()
    }
    /// Applies an action, or gives the engine's typed reason why it is illegal.
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), Illegal<Self>> {
        state.apply(action)
    }
}

/// Madiao (馬弔).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Madiao;

impl Game for Madiao {
    type State = madiao::State;
    type Action = madiao::Action;
    type View = madiao::View;
    const KIND: GameKind = GameKind::Madiao;
}

/// Da Bai Fen (打百分).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Dabaifen;

impl Game for Dabaifen {
    type State = dabaifen::State;
    type Action = dabaifen::Action;
    type View = dabaifen::View;
    const KIND: GameKind = GameKind::Dabaifen;
}
