//! Da Bai Fen bots: `random`, `heuristic`, `pimc`, and the `cheater` oracle.
//!
//! - [`heuristic::HeuristicBot`]: the rules of [`policy`] from the seat's view.
//! - [`pimc::PimcBot`]: determinized search — worlds sampled from what the view proves
//!   ([`know`], [`sample`]), candidates valued by the exact solver ([`solver`]) near the end and by
//!   heuristic rollouts before it, on the play-phase model [`pos`].
//! - [`pimc::Cheater`]: the same search on the true state.
//!
//! The design, the objective and the figures are in `docs/dabaifen-bots.md` and
//! `docs/strength.md`.

pub mod analysis;
pub mod expert;
pub mod heuristic;
pub mod hint;
pub mod infer;
pub mod know;
pub mod pimc;
pub mod policy;
pub mod pos;
pub mod sample;
pub mod solver;

use crate::random::RandomBot;
use crate::{Bot, Budget, Dabaifen, Oracle, Registry, UnknownBot};

impl Registry for Dabaifen {
    fn bot_names() -> &'static [&'static str] {
        &["random", "heuristic", "pimc", "expert"]
    }

    fn bot(name: &str, seed: u64, budget: Budget) -> Result<Box<dyn Bot<Dabaifen>>, UnknownBot> {
        match name {
            "random" => Ok(Box::new(RandomBot::new(seed))),
            "heuristic" => Ok(Box::new(heuristic::HeuristicBot::new())),
            "pimc" => Ok(Box::new(pimc::PimcBot::new(seed, budget))),
            "expert" => Ok(Box::new(expert::ExpertBot::new(seed, budget))),
            _ => Err(UnknownBot {
                game: "dabaifen",
                name: name.to_string(),
                known: Self::bot_names().join(", "),
            }),
        }
    }

    fn oracle(_seed: u64, budget: Budget) -> Option<Box<dyn Oracle<Dabaifen>>> {
        Some(Box::new(pimc::Cheater::new(budget)))
    }
}
