//! The bots that play for seats at a table: the built-in bots, and the external bots the
//! server's operator configured (`yezi serve --bots FILE`, `docs/bot-protocol.md`), which clients
//! choose by name like the others. A client never gives a command: only names the operator
//! registered here are run.

use std::sync::{LazyLock, Mutex, PoisonError, RwLock};

use ai::Budget;
use ai::ext::{ExtBot, Fallbacks, OperatorBot, Pool, SharedPool};
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

/// An operator's external bot, with its name kept for the life of the process.
struct Registered {
    name: &'static str,
    bot: OperatorBot,
}

/// The operator's external bots (set at start).
static EXTERNAL: RwLock<Vec<Registered>> = RwLock::new(Vec::new());

/// External bots' processes between two decisions: the next decision of the same command takes
/// one and begins with `hello` instead of starting the program again.
static POOL: LazyLock<SharedPool> = LazyLock::new(|| Pool::shared(16));

/// The fallback counts of each external bot since the start, by name.
static FALLBACKS: Mutex<Vec<(String, Fallbacks)>> = Mutex::new(Vec::new());

/// Who is told of an external bot's failed decisions (see [`on_fallback`]).
static ON_FALLBACK: RwLock<Option<FallbackReport>> = RwLock::new(None);

/// What the host is told of an external bot's decision that failed: the bot's name and the
/// decision's fallback counts (at least one failure among them).
pub type FallbackReport = fn(&str, &Fallbacks);

/// Makes `report` hear of every decision an external bot fails (played as the first legal action
/// and counted, [`external_fallbacks`]), in place of any before: this crate does no logging, its
/// host (the server) logs. Nothing is told before it is set.
pub fn on_fallback(report: FallbackReport) {
    *ON_FALLBACK.write().unwrap_or_else(PoisonError::into_inner) = Some(report);
}

/// Makes `bots` the operator's external bots, in place of any before (names are checked by
/// [`ai::ext::parse_bots_file`]; a name that is a built-in bot's is ignored here).
pub fn set_external_bots(bots: Vec<OperatorBot>) {
    let mut known = EXTERNAL.write().unwrap_or_else(PoisonError::into_inner);
    let mut next = Vec::with_capacity(bots.len());
    for bot in bots {
        if builtin_names(GameKind::Madiao).contains(&bot.name.as_str())
            || builtin_names(GameKind::Dabaifen).contains(&bot.name.as_str())
        {
            continue;
        }
        // Names are leaked once: a name registered again reuses the old one.
        let name = match known.iter().find(|r| r.name == bot.name) {
            Some(r) => r.name,
            None => Box::leak(bot.name.clone().into_boxed_str()),
        };
        next.push(Registered { name, bot });
    }
    *known = next;
}

/// The operator's external bot `name` for `game`, if there is one.
pub fn external_bot(game: GameKind, name: &str) -> Option<OperatorBot> {
    let known = EXTERNAL.read().unwrap_or_else(PoisonError::into_inner);
    known.iter().find(|r| r.name == name && r.bot.games.contains(&game)).map(|r| r.bot.clone())
}

/// Each external bot's fallback counts since the start (decisions it failed and that were
/// played for it as the first legal action), by name.
pub fn external_fallbacks() -> Vec<(String, Fallbacks)> {
    FALLBACKS.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

fn count_fallbacks(name: &str, f: Option<Fallbacks>) {
    let Some(f) = f else { return };
    if f.total() > 0 {
        let report = *ON_FALLBACK.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(report) = report {
            report(name, &f);
        }
    }
    let mut all = FALLBACKS.lock().unwrap_or_else(PoisonError::into_inner);
    match all.iter_mut().find(|(n, _)| n == name) {
        Some((_, sum)) => sum.add(&f),
        None => all.push((name.to_string(), f)),
    }
}

/// Why a bot could not choose for a seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The seat has no legal action: it is not to move.
    #[error("{0} has nothing to do")]
    NothingToDo(Seat),
    /// Neither the bot named nor the `random` bot is known for the game (boxed: a job's result
    /// that carries it stays small, `machine::tests::a_job_result_is_small`).
    #[error(transparent)]
    Unknown(Box<ai::UnknownBot>),
}

impl From<ai::UnknownBot> for BotError {
    fn from(e: ai::UnknownBot) -> BotError {
        BotError::Unknown(Box::new(e))
    }
}

/// A bot's choice for the seat to move: the bot `name` (the `random` bot if there is none of that
/// name), seeded with `seed`; an action the bot returns that is not legal is replaced by the
/// first legal action. An operator's external bot plays this one decision as a match of its own
/// (`hello` with the seat and seed, then `decide`), in a process kept between decisions; a
/// decision it fails is played as the first legal action and counted ([`external_fallbacks`]).
/// Also used by the terminal client's local tables.
pub fn bot_choice<G: TableGame>(
    name: &str,
    state: &G::State,
    seat: Seat,
    seed: u64,
    budget: Budget,
) -> Result<G::Action, BotError>
where
    G::Action: serde::de::DeserializeOwned,
{
    let legal = G::legal_actions(state);
    let Some(&first) = legal.first() else { return Err(BotError::NothingToDo(seat)) };
    if let Some(ext) = external_bot(G::KIND, name) {
        let mut bot = ExtBot::<G>::new(name, ext.argv, seed, budget, ext.limits).with_pool(POOL.clone());
        let view = <G as ai::Game>::view(state, seat);
        let a = ai::Bot::choose(&mut bot, &view, &legal);
        count_fallbacks(name, ai::Bot::fallbacks(&bot));
        return Ok(if legal.contains(&a) { a } else { first });
    }
    let mut bot = G::bot(name, seed, budget).or_else(|_| G::bot("random", seed, budget))?;
    let view = <G as ai::Game>::view(state, seat);
    let a = bot.choose(&view, &legal);
    Ok(if legal.contains(&a) { a } else { first })
}

/// The names of the bots of a game: the built-in ones, then the operator's external bots that
/// play it.
pub fn bot_names(game: GameKind) -> Vec<&'static str> {
    let mut names = builtin_names(game).to_vec();
    let known = EXTERNAL.read().unwrap_or_else(PoisonError::into_inner);
    names.extend(known.iter().filter(|r| r.bot.games.contains(&game)).map(|r| r.name));
    names
}

/// The names of a game's built-in bots.
pub fn builtin_names(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Madiao => <ai::Madiao as ai::Registry>::bot_names(),
        GameKind::Dabaifen => <ai::Dabaifen as ai::Registry>::bot_names(),
    }
}

/// The bots of a game kept for research (Madiao's PIMC variants with other objectives than the
/// player's own score, and the `learned` baseline network, `docs/python.md`): a table accepts
/// them, but they are not offered to players in a lobby, and they have no rating.
pub fn research_bots(game: GameKind) -> &'static [&'static str] {
    match game {
        GameKind::Madiao => &["pimc-coalition", "pimc-mixed", "learned"],
        GameKind::Dabaifen => &[],
    }
}

/// The default bot of a game.
pub fn default_bot_of(game: GameKind) -> &'static str {
    match game {
        GameKind::Madiao => default_bot::<ai::Madiao>(),
        GameKind::Dabaifen => default_bot::<ai::Dabaifen>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai::arena::Scheme;
    use ai::ext::ExtLimits;
    use ai::{Dabaifen, Game, Madiao};

    fn state() -> madiao::State {
        let deal = Madiao::deal(&ai::arena::madiao::MadiaoRules::default(), 3, 0);
        Madiao::start(&deal, 0)
    }

    #[test]
    fn a_hand_over_is_nothing_to_do_not_a_panic() {
        let mut st = state();
        let mut n = 0;
        while let Some(&a) = Madiao::legal_actions(&st).first() {
            Madiao::apply(&mut st, a).unwrap();
            n += 1;
            assert!(n < 1000, "the hand ends");
        }
        let seat = Seat::ALL[2];
        let e = bot_choice::<Madiao>("heuristic", &st, seat, 1, Budget::default()).unwrap_err();
        assert_eq!(e, BotError::NothingToDo(seat));
        assert_eq!(e.to_string(), format!("{seat} has nothing to do"));
    }

    #[test]
    fn a_bot_name_is_never_run_as_a_command() {
        let st = state();
        let seat = Madiao::to_move(&st).unwrap();
        let marker = std::env::temp_dir().join(format!("yezi-bots-never-run-{}", std::process::id()));
        let name = format!("ext:touch {}", marker.display());
        let a = bot_choice::<Madiao>(&name, &st, seat, 1, Budget::default()).unwrap();
        assert!(Madiao::legal_actions(&st).contains(&a));
        assert!(!marker.exists(), "the name was run");
        assert!(!bot_names(GameKind::Madiao).contains(&name.as_str()));
    }

    #[test]
    fn operator_bots_are_listed_for_their_games_and_never_shadow_built_in_ones() {
        let bot = |name: &str, games: Vec<GameKind>| OperatorBot {
            name: name.to_string(),
            argv: vec!["/nonexistent/bot".to_string()],
            games,
            limits: ExtLimits::default(),
        };
        set_external_bots(vec![
            bot("only-dabaifen", vec![GameKind::Dabaifen]),
            bot("heuristic", vec![GameKind::Madiao]),
        ]);
        assert!(bot_names(GameKind::Dabaifen).contains(&"only-dabaifen"));
        assert!(!bot_names(GameKind::Madiao).contains(&"only-dabaifen"));
        assert!(external_bot(GameKind::Madiao, "only-dabaifen").is_none());
        assert!(external_bot(GameKind::Madiao, "heuristic").is_none(), "a built-in name is not replaced");
        assert_eq!(bot_names(GameKind::Madiao).iter().filter(|n| **n == "heuristic").count(), 1);
        // A bot that cannot start: its decision is the first legal action, counted.
        let deal = Dabaifen::deal(&dabaifen::Variants::STANDARD, 4, 0);
        let st = Dabaifen::start(&deal, 0);
        let seat = Dabaifen::to_move(&st).unwrap();
        static TOLD: Mutex<Vec<(String, u64)>> = Mutex::new(Vec::new());
        on_fallback(|name, f| TOLD.lock().unwrap().push((name.to_string(), f.crashes)));
        let a = bot_choice::<Dabaifen>("only-dabaifen", &st, seat, 1, Budget::default()).unwrap();
        assert_eq!(a, Dabaifen::legal_actions(&st)[0]);
        assert_eq!(*TOLD.lock().unwrap(), [("only-dabaifen".to_string(), 1)], "the host is told once");
        let counts = external_fallbacks();
        let f = counts.iter().find(|(n, _)| n == "only-dabaifen").unwrap().1;
        assert_eq!((f.decisions, f.crashes), (1, 1));
        set_external_bots(Vec::new());
        assert!(!bot_names(GameKind::Dabaifen).contains(&"only-dabaifen"));
    }
}
