//! Madiao bots: `random`, `heuristic`, `pimc`, and the `cheater` oracle.

pub mod analysis;
pub mod expert;
pub mod features;
pub mod heuristic;
pub mod hint;
pub mod know;
pub mod learned;
pub mod pimc;
pub mod pos;
pub mod solver;

use crate::random::RandomBot;
use crate::{Bot, Budget, Madiao, Oracle, Registry, UnknownBot};

impl Registry for Madiao {
    fn bot_names() -> &'static [&'static str] {
        &["random", "heuristic", "pimc", "expert", "pimc-coalition", "pimc-mixed", "learned"]
    }

    fn bot(name: &str, seed: u64, budget: Budget) -> Result<Box<dyn Bot<Madiao>>, UnknownBot> {
        match name {
            "random" => Ok(Box::new(RandomBot::new(seed))),
            "heuristic" => Ok(Box::new(heuristic::HeuristicBot::new())),
            "pimc" => Ok(Box::new(pimc::PimcBot::new("pimc", seed, budget, pimc::PlayerObjective::Own))),
            "expert" => Ok(Box::new(expert::ExpertBot::new(seed, budget))),
            "learned" => Ok(Box::new(learned::LearnedBot::new())),
            "pimc-coalition" => Ok(Box::new(pimc::PimcBot::new(
                "pimc-coalition",
                seed,
                budget,
                pimc::PlayerObjective::Coalition,
            ))),
            "pimc-mixed" => {
                Ok(Box::new(pimc::PimcBot::new("pimc-mixed", seed, budget, pimc::PlayerObjective::Mixed)))
            }
            _ => Err(UnknownBot {
                game: "madiao",
                name: name.to_string(),
                known: Self::bot_names().join(", "),
            }),
        }
    }

    fn oracle(seed: u64, budget: Budget) -> Option<Box<dyn Oracle<Madiao>>> {
        Some(Box::new(pimc::Cheater::new(seed, budget)))
    }
}
