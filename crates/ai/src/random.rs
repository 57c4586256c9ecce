//! `random`: a uniformly random legal action.

use cards::Rng;

use crate::{Bot, Game};

/// Picks uniformly among the legal actions.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random bot with its own seeded generator.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Rng::from_seed(seed) }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _view: &G::View, legal: &[G::Action]) -> G::Action {
        legal[self.rng.index(legal.len())]
    }
}
