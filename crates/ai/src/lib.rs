//! Bots for both games, and the one interface that drives them.
//!
//! A bot sees what its seat may know — the engine's `View` for that seat — and the legal actions,
//! and returns one of them. It never sees the full state. Bots are seeded: the same seed, the same
//! budget and the same sequence of views give the same choices, whatever the machine's load
//! (budgets are turned into fixed amounts of work, never read off a clock).
//!
//! Rules sections cited as §n are those of `docs/rules/madiao.md` in the Madiao modules and of
//! `docs/rules/dabaifen.md` in the Da Bai Fen modules.
pub mod analysis;
pub mod arena;
pub mod dabaifen;
pub mod ext;
pub mod game;
pub mod hint;
pub mod madiao;
pub mod mlp;
pub mod players;
pub mod puzzle;
pub mod random;
pub mod record;
pub mod resample;

pub use game::{Dabaifen, Game, Illegal, Madiao};

/// How much thinking a bot may do per decision: a nominal time in milliseconds on one core of the
/// reference machine. Bots translate it into a fixed amount of work (samples, nodes), so a choice
/// never depends on the clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nominal milliseconds per decision.
    pub think_ms: u32,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { think_ms: 100 }
    }
}

/// A player of game `G` that chooses from a seat's view.
pub trait Bot<G: Game>: Send {
    /// The bot's name as the registry knows it (`"random"`, `"heuristic"`, …).
    fn name(&self) -> &str;

    /// Chooses one of `legal` (never empty) for the seat whose view `view` is.
    fn choose(&mut self, view: &G::View, legal: &[G::Action]) -> G::Action;

    /// Learns that the hand is over: `view` is the seat's last view of it, with the result. A bot
    /// that keeps nothing between hands ignores it.
    fn hand_over(&mut self, _view: &G::View) {}

    /// How many decisions were made for the bot because it failed them (an external bot's
    /// illegal answers, timeouts, crashes); `None` for a bot that cannot fail.
    fn fallbacks(&self) -> Option<ext::Fallbacks> {
        None
    }
}

/// A player that sees the whole state, hidden cards included. It exists only to measure what hidden
/// information costs (the arena's `cheater`: how far a real bot is from perfect information); it is
/// never seated at a table.
pub trait Oracle<G: Game>: Send {
    /// The oracle's name (`"cheater"`).
    fn name(&self) -> &str;

    /// Chooses one of `legal` (never empty) for the seat to move in `state`.
    fn choose(&mut self, state: &G::State, legal: &[G::Action]) -> G::Action;
}

/// A bot name the registry does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {game} bot {name:?}; known bots: {known}")]
pub struct UnknownBot {
    /// The game asked for.
    pub game: &'static str,
    /// The name asked for.
    pub name: String,
    /// The names the registry knows, comma-separated.
    pub known: String,
}

/// The bots of a game by name.
pub trait Registry: Game {
    /// The names of the bots available for this game.
    fn bot_names() -> &'static [&'static str];

    /// A new bot by name, seeded, with a budget per decision.
    fn bot(name: &str, seed: u64, budget: Budget) -> Result<Box<dyn Bot<Self>>, UnknownBot>;

    /// The perfect-information player (`"cheater"`), if this game has one yet.
    fn oracle(seed: u64, budget: Budget) -> Option<Box<dyn Oracle<Self>>>;
}
