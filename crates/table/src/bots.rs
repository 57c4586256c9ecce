//! The bots that play for seats at a table.

use ai::Budget;
use cards::Seat;
use cards::record::GameKind;

use crate::game::TableGame;

/// The bot that plays empty and absent seats: `heuristic` when the registry has it, else `random`.
pub fn default_bot<G: TableGame>() -> &'static str
where
    G::Action: serde::de::DeserializeOwned,
{
    if G::bot_names().contains(&"heuristic") { "heuristic" } else { "random" }
}

/// A bot's choice for the seat to move: the bot `name` (the `random` bot if there is none of that
/// name), seeded with `seed`; an action the bot returns that is not legal is replaced by the
/// first legal action. Also used by the terminal client's local tables.
pub fn bot_choice<G: TableGame>(
    name: &str,
    state: &G::State,
    seat: Seat,
    seed: u64,
    budget: Budget,
) -> Result<G::Action, String>
where
    G::Action: serde::de::DeserializeOwned,
{
    let legal = G::legal_actions(state);
    let Some(&first) = legal.first() else { return Err(format!("{seat} has nothing to do")) };
    let mut bot =
        G::bot(name, seed, budget).or_else(|_| G::bot("random", seed, budget)).map_err(|e| e.to_string())?;
    let view = <G as ai::Game>::view(state, seat);
    let a = bot.choose(&view, &legal);
    Ok(if legal.contains(&a) { a } else { first })
}

/// The names of the bots of a game.
pub fn bot_names(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Madiao => <ai::Madiao as ai::Registry>::bot_names(),
        GameKind::Dabaifen => <ai::Dabaifen as ai::Registry>::bot_names(),
    }
}

/// The default bot of a game.
pub fn default_bot_of(game: GameKind) -> &'static str {
    match game {
        GameKind::Madiao => default_bot::<ai::Madiao>(),
        GameKind::Dabaifen => default_bot::<ai::Dabaifen>(),
    }
}
