//! Madiao bots.

use crate::random::RandomBot;
use crate::{Bot, Budget, Madiao, Oracle, Registry, UnknownBot};

impl Registry for Madiao {
    fn bot_names() -> &'static [&'static str] {
        &["random"]
    }

    fn bot(name: &str, seed: u64, _budget: Budget) -> Result<Box<dyn Bot<Madiao>>, UnknownBot> {
        match name {
            "random" => Ok(Box::new(RandomBot::new(seed))),
            _ => Err(UnknownBot {
                game: "madiao",
                name: name.to_string(),
                known: Self::bot_names().join(", "),
            }),
        }
    }

    fn oracle(_seed: u64, _budget: Budget) -> Option<Box<dyn Oracle<Madiao>>> {
        None
    }
}
