//! What the server needs of a game beyond the engine: settings and matches, the hand's stages
//! as the table runs them (the Da Bai Fen draw at a steady pace, decision windows), requests that
//! persons make for polls the server answers for them, views for seats and spectators with
//! nothing hidden leaking, the legal actions in a compact form a client can use without rules
//! code, and the `yezi/1` record of a table.
//!
//! Two things here exist to keep hidden information hidden:
//! - **Polls are never shown.** The engines ask some seats questions that reveal their cards by
//!   being asked (Da Bai Fen: "will you show a trump-rank card?" during the draw, "will you annul
//!   your hand without trumps?"; Madiao: "will you force a redeal with your long suit?"). The
//!   server answers those polls itself: for a bot seat by asking the bot, for a person from the
//!   request he made beforehand (see [`TableGame::request`]). What everybody sees goes at a pace
//!   that does not depend on who was asked: the draw one card per tick, each window for its full
//!   length.
//! - **Views are redacted for what the table shows** ([`Overlay`]): during the draw every view
//!   shows only the cards drawn so far by the steady count; during a window every view looks the
//!   same whether or not anyone may answer.

use std::fmt::Debug;

use ai::Registry;
use cards::Seat;
use cards::record;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

pub mod dabaifen;
pub mod madiao;

/// Who a view is for (the engines' own notion: a seat, or a spectator).
pub use cards::Viewer;

/// What the table shows beyond the engine's state.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// During the draw: how many cards everyone has seen drawn (the steady count, which may be
    /// behind the engine's own count, since the engine skips draws where nobody is asked).
    pub drawn: Option<u8>,
    /// A decision window is open (Madiao: redeal; Da Bai Fen: annulment).
    pub window: bool,
}

/// How a hand that is not over begins, or resumes after a restart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Begin {
    /// With the draw dealt at a steady pace (Da Bai Fen).
    Draw,
    /// With a decision window.
    Window,
    /// With a seat to move.
    Play,
}

/// One lead group of Da Bai Fen: the cards of one suit (the trumps count as one suit) from which
/// two or more may be led together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct LeadGroup {
    /// `trumps`, or a suit letter `S`, `H`, `D`, `C`.
    #[ts(type = "\"trumps\" | \"S\" | \"H\" | \"D\" | \"C\"")]
    pub suit: String,
    /// The seat's cards of that suit, strongest first.
    #[ts(type = "Array<DabaifenCard>")]
    pub cards: Vec<String>,
    /// Under `revoke: refuse` only: the top cards among them (a multi-card lead must use only
    /// these). Under `penalize` this is absent: any two or more may be led, and a lead with a card
    /// that is not a top card is a revoke, which ends the deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<DabaifenCard>")]
    pub tops: Option<Vec<String>>,
}

/// The legal actions of a seat, in a form a client can use without rules code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Legal {
    /// Send one of these actions as it is.
    Actions {
        /// The actions, in the engine's JSON shape.
        #[ts(type = "Array<MadiaoAction>")]
        actions: Vec<Value>,
        /// Madiao: the cards of the `play` actions that would lead or capture (§5); any other
        /// `play` is a face-up discard.
        #[serde(default)]
        #[ts(type = "Array<MadiaoCard>")]
        captures: Vec<String>,
    },
    /// Choose exactly `count` cards: every card of `must`, the rest from `from`; send
    /// `{ACTION: [cards]}`.
    Cards {
        /// `bury` or `play`.
        #[ts(type = "\"bury\" | \"play\"")]
        action: String,
        /// How many cards.
        count: u8,
        /// Cards that must be among them.
        #[ts(type = "Array<DabaifenCard>")]
        must: Vec<String>,
        /// Cards to choose the others from.
        #[ts(type = "Array<DabaifenCard>")]
        from: Vec<String>,
    },
    /// A Da Bai Fen lead: one card of `singles`, or two or more cards of one group; send
    /// `{"play": [cards]}`.
    Lead {
        /// Every card of the hand.
        #[ts(type = "Array<DabaifenCard>")]
        singles: Vec<String>,
        /// The suits with two or more cards.
        groups: Vec<LeadGroup>,
        /// The `revoke` variant (`penalize` or `refuse`).
        #[ts(type = "\"penalize\" | \"refuse\"")]
        revoke: String,
    },
    /// Da Bai Fen, during the draw: you may ask at any moment to show one of these cards; the
    /// request is applied when you are next asked (right after the next card is drawn, unless
    /// someone asked before you shows first). `{"pass": true}` withdraws it.
    Declare {
        /// Your cards drawn so far that you may show.
        #[ts(type = "Array<DabaifenCard>")]
        cards: Vec<String>,
        /// The card you asked to show, if any.
        #[ts(type = "DabaifenCard | null")]
        requested: Option<String>,
    },
    /// Da Bai Fen, during the annulment window: your hand has no trump and you may annul the
    /// deal with `{"annul": true}` (`{"annul": false}` withdraws it). Applied when the window closes.
    Annul {
        /// True when you have asked to annul.
        requested: bool,
    },
    /// Madiao, during the redeal window: you hold a long suit and may force a redeal with
    /// `{"redeal": true}` (`{"redeal": false}` withdraws it). Applied when the window closes.
    Redeal {
        /// True when you have asked for a redeal.
        requested: bool,
    },
}

/// Why a request cannot be made. `E` is the engine's illegal-action error, kept typed until the
/// edge turns it into a protocol error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RequestError<E> {
    /// It was meant for a stage that is over (a declaration once the draw has ended).
    TooLate(String),
    /// It is not allowed, and why.
    Illegal(String),
    /// The engine itself refuses it, and says why.
    Refused(E),
}

/// A game as the server runs it, on top of its engine and its bots.
pub trait TableGame: Registry
where
    Self::Action: DeserializeOwned,
{
    /// The rules of a table: the variants, and for Madiao the stake.
    type Settings: Clone + Debug + Send + Sync + 'static;
    /// The match between hands: who deals or banks next, the ranks, whether it is over.
    type Match: Clone + Debug + Send + Sync + 'static;
    /// What a person asked for in advance of a poll the server answers for him.
    type Request: Copy + Default + Debug + PartialEq + Send + Sync + 'static;

    /// Checks a table's rules: the preset, the variant overrides and (Madiao) the stake.
    fn settings(rules: &str, variants: &record::Variants, stake: u32) -> Result<Self::Settings, String>;
    /// Every variant in force, by name.
    fn variant_map(settings: &Self::Settings) -> serde_json::Map<String, Value>;
    /// A new match; the first banker or starter is drawn from the table's seed.
    fn new_match(settings: &Self::Settings, seed: u64) -> Self::Match;
    /// Hand `hand` (from 0) of the match, dealt from the table's seed; `None` once the match is over.
    fn start_hand(settings: &Self::Settings, m: &Self::Match, seed: u64, hand: u32) -> Option<Self::State>;
    /// Records a finished hand in the match; returns its result object (the record's `result`).
    fn finish_hand(m: &mut Self::Match, state: &Self::State) -> Value;
    /// True once the match is over.
    fn match_over(m: &Self::Match) -> bool;
    /// The running score: `results` are the result objects of the finished hands.
    fn match_summary(m: &Self::Match, results: &[Value]) -> Value;

    /// How a hand begins (`resumed`: after a restart, from the state its log left it in).
    fn begin(state: &Self::State, resumed: bool) -> Begin;
    /// During the draw: the count at which the engine polls next and the seat it asks.
    fn draw_poll(state: &Self::State) -> Option<(u8, Seat)>;
    /// True when the draw is decided (a declaration ends the visible draw at once).
    fn draw_decided(state: &Self::State) -> bool;
    /// True when a decision window follows the draw (Da Bai Fen: trumps fixed, deal not over).
    fn window_after_draw(state: &Self::State) -> bool;
    /// The seat the engine asks in a window poll.
    fn window_poll(state: &Self::State) -> Option<Seat>;
    /// A person's request during the draw or a window, checked: the request as it now stands,
    /// or why it cannot be made.
    fn request(
        state: &Self::State,
        seat: Seat,
        overlay: Overlay,
        current: Self::Request,
        action: &Self::Action,
    ) -> Result<Self::Request, RequestError<ai::Illegal<Self>>>;
    /// The answer to a poll of a person, from his request.
    fn answer(state: &Self::State, request: Self::Request) -> Self::Action;
    /// True when `action`, taken in `state`, is a move everyone sees (a play, a burial, a
    /// declaration) rather than an answer to a hidden poll.
    fn is_move(state: &Self::State, action: &Self::Action) -> bool;
    /// True when `action` is what a person sends as a request for a poll (a declaration, an
    /// annulment, a redeal, or withdrawing one), never as a turn's move.
    fn is_request(action: &Self::Action) -> bool;
    /// A short description of how a window closed (who forced a redeal or annulled), public.
    fn window_outcome(state: &Self::State) -> Value;

    /// What `viewer` may see now.
    fn view_json(state: &Self::State, viewer: Viewer, overlay: Overlay) -> Value;
    /// The legal actions of `seat` now, if it has something to decide.
    fn legal_for(state: &Self::State, seat: Seat, overlay: Overlay, request: Self::Request) -> Option<Legal>;
    /// An action as `viewer` may see it in an event (a face-down card or a burial is hidden from
    /// everyone but its owner).
    fn public_action(action: &Self::Action, actor: Seat, viewer: Viewer) -> Value;

    /// The `yezi/1` record of the hands in `states`.
    fn record(
        settings: &Self::Settings,
        seed: u64,
        players: [String; 4],
        states: &[Self::State],
    ) -> Result<String, String>;
}

/// The game-independent part of an engine action in JSON.
pub fn action_json<A: Serialize>(a: &A) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

/// A seeded bot for one decision: the seed mixes the table's secret seed, the seat and the
/// position in the log, so that bots differ per decision and cannot be predicted by clients.
pub fn decision_seed(table_seed: u64, seat: Seat, position: u64) -> u64 {
    let mut z = table_seed ^ position.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat.number()) << 56;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
