//! The common shape of the two rules engines, as bots, the arena and the server drive them.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use cards::Seat;
use cards::record::GameKind;
use serde::Serialize;

/// A game whose hands bots can play: the engine's state, action and view types, and the few
/// operations every driver needs.
pub trait Game: Sized + Send + Sync + 'static {
    /// The full state of one hand (never shown to a bot).
    type State: Clone + Send + Sync + 'static;
    /// The one way to change a state.
    type Action: Copy + Eq + Hash + Debug + Display + Send + Sync + Serialize + 'static;
    /// What one seat may know.
    type View: Clone + Debug + Send + Sync + Serialize + 'static;

    /// Which game this is.
    const KIND: GameKind;

    /// The seat to act, or `None` when the hand is over.
    fn to_move(state: &Self::State) -> Option<Seat>;
    /// What `seat` may know of `state`.
    fn view(state: &Self::State, seat: Seat) -> Self::View;
    /// Every legal action of the seat to act (empty when the hand is over).
    fn legal_actions(state: &Self::State) -> Vec<Self::Action>;
    /// Applies an action, or says in words why it is illegal.
    fn apply(state: &mut Self::State, action: Self::Action) -> Result<(), String>;
}

/// Madiao (馬弔).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Madiao;

impl Game for Madiao {
    type State = madiao::State;
    type Action = madiao::Action;
    type View = madiao::View;
    const KIND: GameKind = GameKind::Madiao;

    fn to_move(state: &madiao::State) -> Option<Seat> {
        state.to_move()
    }
    fn view(state: &madiao::State, seat: Seat) -> madiao::View {
        state.view(seat)
    }
    fn legal_actions(state: &madiao::State) -> Vec<madiao::Action> {
        state.legal_actions()
    }
    fn apply(state: &mut madiao::State, action: madiao::Action) -> Result<(), String> {
        state.apply(action).map_err(|e| e.to_string())
    }
}

/// Da Bai Fen (打百分).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Dabaifen;

impl Game for Dabaifen {
    type State = dabaifen::State;
    type Action = dabaifen::Action;
    type View = dabaifen::View;
    const KIND: GameKind = GameKind::Dabaifen;

    fn to_move(state: &dabaifen::State) -> Option<Seat> {
        state.to_move()
    }
    fn view(state: &dabaifen::State, seat: Seat) -> dabaifen::View {
        state.view(seat)
    }
    fn legal_actions(state: &dabaifen::State) -> Vec<dabaifen::Action> {
        state.legal_actions()
    }
    fn apply(state: &mut dabaifen::State, action: dabaifen::Action) -> Result<(), String> {
        state.apply(action).map_err(|e| e.to_string())
    }
}
