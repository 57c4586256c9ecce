//! The games as the bindings drive them: one [`Core`] per game wraps the engine's state with an
//! explicit chance phase (the deck placed card by card) and the integer action ids, and encodes a
//! seat's view as tensors. Every tensor and string is computed from the engine's `view(seat)`,
//! so nothing a seat may not know can reach it.

use cards::{Rng, Seat};

use crate::error::Error;

/// `current_player` of a chance node (OpenSpiel's value).
pub const CHANCE: i32 = -1;
/// `current_player` of a finished hand (OpenSpiel's value).
pub const TERMINAL: i32 = -4;

/// A game state driven by action ids.
pub trait Core: Clone + Send + Sync + 'static {
    /// How many action ids there are.
    const NUM_ACTIONS: usize;
    /// How many cards the chance phase places.
    const DECK: usize;
    /// The length of the observation tensor.
    const OBS_LEN: usize;
    /// The length of the information-state tensor.
    const INFO_LEN: usize;

    /// The cards placed so far by chance, as bits.
    fn dealt_mask(&self) -> u64;
    /// The deck so far.
    fn deck_len(&self) -> usize;
    /// Places the next card of the deck (a chance outcome).
    fn place(&mut self, card: usize) -> Result<(), Error>;
    /// True while the deck is being placed.
    fn is_chance(&self) -> bool {
        self.deck_len() < Self::DECK
    }
    /// The seat to act: a seat number, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i32;
    /// Sets `out[id]` to 1 for every legal action id (chance outcomes at a chance node), 0 elsewhere.
    fn legal_mask(&self, out: &mut [i8]);
    /// Applies a player's action id.
    fn apply_player(&mut self, id: usize) -> Result<(), Error>;
    /// The payoffs of a finished hand (zeros before).
    fn returns(&self) -> [f64; 4];
    /// The observation tensor of `seat` into `out` (of length [`Core::OBS_LEN`]).
    fn observation(&self, seat: Seat, out: &mut [f32]);
    /// The information-state tensor of `seat` into `out` (of length [`Core::INFO_LEN`]).
    fn information_state(&self, seat: Seat, out: &mut [f32]);

    /// Applies an action id: a chance outcome or a player's action.
    fn apply(&mut self, id: usize) -> Result<(), Error> {
        if self.is_chance() { self.place(id) } else { self.apply_player(id) }
    }

    /// Places the rest of the deck at random.
    fn deal_rest(&mut self, rng: &mut Rng) -> Result<(), Error> {
        let mut rest: Vec<usize> = (0..Self::DECK).filter(|&c| self.dealt_mask() >> c & 1 == 0).collect();
        rng.shuffle(&mut rest);
        for c in rest {
            self.place(c)?;
        }
        Ok(())
    }
}

/// A seat number checked.
pub fn seat(p: i64) -> Result<Seat, Error> {
    u8::try_from(p).ok().and_then(Seat::new).ok_or(Error::Seat(p))
}

/// Seat `s` as seen from `me`: 0 is `me`, then the next seats in play order.
#[inline]
pub fn rel(me: Seat, s: Seat) -> usize {
    s.distance_from(me) as usize
}

/// Sets one element; a helper that keeps the encoders short.
#[inline]
pub fn one(out: &mut [f32], at: usize) {
    out[at] = 1.0;
}
