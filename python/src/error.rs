//! The one error of the bindings: what a call asked that the game, the deck or a pickle cannot
//! do, in the caller's terms. Every function below the Python classes returns it; the classes
//! turn it into a Python exception at the edge, through [`From<Error> for PyErr`](Error).

use pyo3::PyErr;
use pyo3::exceptions::PyValueError;

/// What went wrong, each with the message Python shows.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A player number that is no seat.
    #[error("a player is 0–3, not {0}")]
    Seat(i64),
    /// A chance outcome given once every card is placed.
    #[error("the deck is complete: this is not a chance node")]
    DeckComplete,
    /// A chance outcome that is no card of a deck of `deck` cards.
    #[error("a chance outcome is a card 0–{}, not {id}", deck - 1)]
    NotACard {
        /// The outcome given.
        id: usize,
        /// The cards in the game's deck.
        deck: usize,
    },
    /// A chance outcome whose card is placed already.
    #[error("card {card} ({id}) is already in the deck")]
    CardPlaced {
        /// The card, as the game writes it.
        card: String,
        /// Its id.
        id: usize,
    },
    /// A player's action, a set, a view or a record asked for while the deck is being placed (a
    /// chance node), or of a state without a hand.
    #[error("the deck is not complete (a chance node)")]
    Dealing,
    /// A resample asked for at a chance node.
    #[error("resampling needs a complete deck (not a chance node)")]
    ResampleDealing,
    /// An action id beyond the game's ids (`0..=last`).
    #[error("a {game} action id is 0–{last}, not {id}")]
    ActionId {
        /// The game's name.
        game: &'static str,
        /// The id given.
        id: usize,
        /// The game's highest action id.
        last: usize,
    },
    /// Madiao's engine refuses the action in this position.
    #[error(transparent)]
    MadiaoIllegal(#[from] madiao::IllegalAction),
    /// Da Bai Fen's engine refuses the action in this position.
    #[error(transparent)]
    DabaifenIllegal(#[from] dabaifen::IllegalAction),
    /// A whole set played while cards are picked for one already.
    #[error("cards are already picked: finish that set with picks")]
    AlreadyPicked,
    /// A whole set played in a phase that plays none (Da Bai Fen's draw or annulment).
    #[error("no set is played in the {0:?} phase")]
    NoSetInPhase(dabaifen::Phase),
    /// Id 56 (end a multi-card lead) when the picks are not a lead that could go on.
    #[error("56 (end a multi-card lead) is legal only when the picks are a lead that could go on")]
    NoLeadToEnd,
    /// Id 56 (end a multi-card lead) in a phase without picks.
    #[error("56 ends a multi-card lead; the {0:?} phase has none")]
    NoLeadInPhase(dabaifen::Phase),
    /// A pick that no legal burial or play contains with the picks so far.
    #[error("picking {card} ({id}) cannot lead to a legal {set} (picks go in ascending card order)")]
    BadPick {
        /// The card, as the game writes it.
        card: String,
        /// Its id.
        id: usize,
        /// What is being built: `burial` or `play`.
        set: &'static str,
    },
    /// An id that is no card pick in a phase that takes card picks.
    #[error("action {id} is not a pick: the {phase:?} phase takes card picks")]
    NotAPick {
        /// The id given.
        id: usize,
        /// The phase.
        phase: dabaifen::Phase,
    },
    /// A match's `banked` without one entry per seat.
    #[error("banked has one entry per seat (4)")]
    Banked,
    /// Madiao rules that are no preset.
    #[error("unknown Madiao rules {0:?}")]
    UnknownRules(String),
    /// A Madiao stake that is not a positive even number of chips.
    #[error("stake must be a positive even number of chips, not {0}")]
    Stake(u32),
    /// A Madiao rules preset or variant that does not exist or does not take the value.
    #[error(transparent)]
    MadiaoVariant(#[from] madiao::VariantError),
    /// A Da Bai Fen variant that does not exist or does not take the value.
    #[error(transparent)]
    DabaifenVariant(#[from] dabaifen::VariantError),
    /// A Da Bai Fen rank that is not written `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    #[error(transparent)]
    Rank(#[from] dabaifen::card::UnknownRank),
    /// A Madiao deck and setup that are no hand.
    #[error(transparent)]
    MadiaoSetup(#[from] madiao::SetupError),
    /// A Da Bai Fen deck and setup that are no deal.
    #[error(transparent)]
    DabaifenSetup(#[from] dabaifen::SetupError),
    /// The bots' sampler found no state the seat cannot tell from this one.
    #[error(transparent)]
    Resample(#[from] ai::resample::ResampleError),
    /// A pickled deck of more cards than the game's deck holds.
    #[error("a deck of {deck} cards holds {given} cards")]
    DeckTooLong {
        /// The cards in the game's deck.
        deck: usize,
        /// The cards in the pickle.
        given: usize,
    },
    /// A pickled state whose record holds no hand or several.
    #[error("a state's record holds one hand, not {0}")]
    RecordHands(usize),
    /// A pickled state with a record but not the whole deck.
    #[error("a record needs the whole deck")]
    RecordWithoutDeck,
    /// A pickled state with the whole deck but no record.
    #[error("a dealt hand travels with its record")]
    DeckWithoutRecord,
    /// A pickled Madiao record's action `index` (from 0) that does not replay.
    #[error("action {index}: {source}")]
    MadiaoRecord {
        /// The action's place in the record.
        index: usize,
        /// Why it does not replay.
        source: madiao::record::ActionError,
    },
    /// A pickled Da Bai Fen record's action `index` (from 0) that does not replay.
    #[error("action {index}: {source}")]
    DabaifenRecord {
        /// The action's place in the record.
        index: usize,
        /// Why it does not replay.
        source: dabaifen::record::ActionError,
    },
    /// A pickled state whose record replays to another hand than the one pickled.
    #[error("the record does not replay to the same hand")]
    ReplayDiffers,
    /// A text that is not a pickle's JSON.
    #[error("not a yezi pickle: {0}")]
    Pickle(serde_json::Error),
    /// A record or pickle that could not be written as JSON.
    #[error(transparent)]
    Json(serde_json::Error),
    /// The error of one hand (`env`) of a `VecEnv`.
    #[error("env {env}: {source}")]
    Env {
        /// The hand's index.
        env: usize,
        /// What went wrong in it.
        source: Box<Error>,
    },
    /// The bots of a `VecEnv` hand played on without the learning seat's turn coming.
    #[error("the bots made 10,000 moves in a row")]
    BotsNeverStop,
    /// A `VecEnv` hand dealt again and again without a decision.
    #[error("10,000 deals in a row ended with no decision")]
    NoDecision,
}

/// The edge: each error as the Python exception it raises. All are `ValueError`s (a value the
/// caller passed, or the state it reached, does not allow the call); the match names every
/// variant, so a new one chooses its exception.
impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match &e {
            Error::Seat(_)
            | Error::DeckComplete
            | Error::NotACard { .. }
            | Error::CardPlaced { .. }
            | Error::Dealing
            | Error::ResampleDealing
            | Error::ActionId { .. }
            | Error::MadiaoIllegal(_)
            | Error::DabaifenIllegal(_)
            | Error::AlreadyPicked
            | Error::NoSetInPhase(_)
            | Error::NoLeadToEnd
            | Error::NoLeadInPhase(_)
            | Error::BadPick { .. }
            | Error::NotAPick { .. }
            | Error::Banked
            | Error::UnknownRules(_)
            | Error::Stake(_)
            | Error::MadiaoVariant(_)
            | Error::DabaifenVariant(_)
            | Error::Rank(_)
            | Error::MadiaoSetup(_)
            | Error::DabaifenSetup(_)
            | Error::Resample(_)
            | Error::DeckTooLong { .. }
            | Error::RecordHands(_)
            | Error::RecordWithoutDeck
            | Error::DeckWithoutRecord
            | Error::MadiaoRecord { .. }
            | Error::DabaifenRecord { .. }
            | Error::ReplayDiffers
            | Error::Pickle(_)
            | Error::Json(_)
            | Error::Env { .. }
            | Error::BotsNeverStop
            | Error::NoDecision => PyValueError::new_err(e.to_string()),
        }
    }
}
