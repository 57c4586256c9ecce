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
use serde::de::DeserializeOwned;
use serde_json::Value;

use wire::{
    ActAction, ErrorCode, GameView, HandResult, MatchSummary, PublicAction, Refusal, Tracker, WindowOutcome,
};

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

/// What a hand waits for next, read from its state alone: the one question the stage machine
/// asks of a game. The table adds the pace (the draw shown a card a tick, a window open for its
/// full length, a finished trick kept on show); the engine says whom it asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Da Bai Fen's draw (§4): the engine asks `seat` whether to show a trump-rank card once
    /// `drawn` cards are out.
    Draw {
        /// The count of cards drawn at which the engine asks.
        drawn: u8,
        /// The seat asked.
        seat: Seat,
    },
    /// The hand's decision window (Madiao's redeal, §4.3; Da Bai Fen's annulment, §6): the
    /// engine asks `seat`, in private.
    Window {
        /// The seat asked.
        seat: Seat,
    },
    /// `seat` moves in the open. `first`: the hand's first open move after its deal and draw,
    /// which its decision window comes before (shown even when nobody is asked in it, so that
    /// the pace tells nobody who might have been).
    Turn {
        /// The seat to move.
        seat: Seat,
        /// True for the hand's first open move (Madiao: the first lead; Da Bai Fen: the burial).
        first: bool,
    },
    /// A trick is complete and `seat` leads the next: after the move that completed it, the
    /// table keeps the trick on show first.
    TrickShown {
        /// The seat that leads the next trick.
        seat: Seat,
    },
    /// The hand is over.
    Over,
}

impl Next {
    /// The seat the engine waits for, if any.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Next::Draw { seat, .. }
            | Next::Window { seat }
            | Next::Turn { seat, .. }
            | Next::TrickShown { seat } => Some(seat),
            Next::Over => None,
        }
    }

    /// True when the hand is at its decision window (a seat asked in it, or the first open move
    /// that it comes before).
    pub fn at_window(self) -> bool {
        matches!(self, Next::Window { .. } | Next::Turn { first: true, .. })
    }
}

pub use wire::{LeadGroup, Legal};

/// Why a request cannot be made. `E` is the engine's illegal-action error, kept typed until the
/// edge turns it into a protocol error ([`Refusal`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError<E> {
    /// It was meant for a stage that is over (a declaration once the draw has ended).
    #[error("{0}")]
    TooLate(TooLate),
    /// It is not allowed now.
    #[error("{0}")]
    Illegal(NotAllowed),
    /// The engine itself refuses it, and says why.
    #[error("{0}")]
    Refused(E),
}

/// A request for a stage that is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TooLate {
    /// Madiao: the redeal window has closed.
    #[error("the redeal window has closed")]
    RedealWindowClosed,
    /// Da Bai Fen: a declaration after the draw.
    #[error("the draw is over: trumps are fixed")]
    DrawOver,
    /// Nothing is open to ask in.
    #[error("there is no draw or window open now")]
    NothingOpen,
}

/// A request that is not allowed now, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAllowed {
    /// Madiao: the seat has answered the redeal question of this hand.
    #[error("you have already answered the redeal question in this hand")]
    AlreadyAnswered,
    /// Madiao: the seat holds no long suit.
    #[error("you cannot force a redeal: you hold no long suit (5 or more cards of one suit)")]
    NoLongSuit,
    /// Madiao: a move during the redeal window.
    #[error("the redeal window is open: cards are played once it closes")]
    RedealWindowOpen,
    /// Da Bai Fen: a card to show that the seat has not drawn yet.
    #[error("you cannot show {card}: you have not drawn it")]
    NotDrawn {
        /// The card.
        card: ::dabaifen::Card,
    },
    /// Da Bai Fen: annulling during the draw.
    #[error("you cannot annul now: trumps are not fixed yet")]
    TrumpsNotFixed,
    /// Da Bai Fen: a move during the draw.
    #[error("during the draw you may only ask to show a card of the trump rank (or withdraw with pass)")]
    DrawOpen,
    /// Da Bai Fen: the starter may not annul under `annul: non_starters_only`.
    #[error("you cannot annul: under annul non_starters_only the starter may not")]
    StarterMayNotAnnul,
    /// Da Bai Fen: annulling a hand with trumps.
    #[error("you cannot annul: your hand holds trumps")]
    HoldsTrumps,
    /// Da Bai Fen: a move during the annulment window.
    #[error("the annulment window is open: the kitty is taken once it closes")]
    AnnulmentWindowOpen,
}

impl<E: std::fmt::Display> From<RequestError<E>> for Refusal {
    fn from(e: RequestError<E>) -> Refusal {
        let code = match e {
            RequestError::TooLate(_) => ErrorCode::TooLate,
            RequestError::Illegal(_) | RequestError::Refused(_) => ErrorCode::Illegal,
        };
        Refusal::new(code, e.to_string())
    }
}

/// Why a table's rules are not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Madiao's preset or variants.
    #[error(transparent)]
    Madiao(#[from] ::madiao::VariantError),
    /// Da Bai Fen's preset or variants.
    #[error(transparent)]
    Dabaifen(#[from] ::dabaifen::VariantError),
    /// Madiao's stake limits (§2).
    #[error(transparent)]
    Stake(#[from] ::madiao::StakeError),
    /// A stake named in a game whose hands have none.
    #[error("this game has no stake")]
    NoStake,
}

impl From<SettingsError> for Refusal {
    fn from(e: SettingsError) -> Refusal {
        Refusal::new(ErrorCode::BadMessage, e.to_string())
    }
}

/// A stake to name before a hand is dealt: the banker, and the table's limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StakeAsk {
    /// The banker of the hand, who names it.
    pub seat: Seat,
    /// The lowest stake, also the stake when the banker's clock runs out.
    pub low: u32,
    /// The highest stake.
    pub high: u32,
}

/// The stake a hand's banker names before it is dealt (Madiao §2): [`TableGame::Stake`].
pub trait Stake<G: TableGame>
where
    G::Action: DeserializeOwned,
{
    /// Who names the stake of hand `hand` before it is dealt, and within which limits; `None`
    /// when nobody is asked (fixed limits, the match over).
    fn ask(settings: &G::Settings, m: &G::Match, seed: u64, hand: u32) -> Option<StakeAsk>;
    /// A stake named for a hand, checked against the table's limits.
    fn check(settings: &G::Settings, stake: u32) -> Result<u32, SettingsError>;
    /// The stake a bot banker names when asked (the engine's documented policy).
    fn bot(settings: &G::Settings, m: &G::Match, seat: Seat, ask: StakeAsk) -> u32;
}

/// The stake of a game whose hands are dealt without one (Da Bai Fen): nobody is ever asked,
/// and a stake named is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoStake {}

impl<G: TableGame> Stake<G> for NoStake
where
    G::Action: DeserializeOwned,
{
    fn ask(_settings: &G::Settings, _m: &G::Match, _seed: u64, _hand: u32) -> Option<StakeAsk> {
        None
    }

    fn check(_settings: &G::Settings, _stake: u32) -> Result<u32, SettingsError> {
        Err(SettingsError::NoStake)
    }

    /// Never asked ([`Stake::ask`] is always `None`); were it, the lowest.
    fn bot(_settings: &G::Settings, _m: &G::Match, _seat: Seat, ask: StakeAsk) -> u32 {
        ask.low
    }
}

/// Why a table's record cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Madiao's preset is not known.
    #[error(transparent)]
    Madiao(#[from] ::madiao::VariantError),
}

/// An engine's illegal action at the edge: the `illegal` protocol error with the engine's reason.
pub fn illegal<E: std::fmt::Display>(e: &E) -> Refusal {
    Refusal::new(ErrorCode::Illegal, e.to_string())
}

/// A game as the server runs it, on top of its engine and its bots.
pub trait TableGame: Registry + ai::hint::Hinted
where
    Self::Action: DeserializeOwned,
{
    /// The rules of a table: the variants, and for Madiao the stake.
    type Settings: Clone + Debug + Send + Sync + 'static;
    /// The match between hands: who deals or banks next, the ranks, whether it is over.
    type Match: Clone + Debug + Send + Sync + 'static;
    /// What a person asked for in advance of a poll the server answers for him.
    type Request: Copy + Default + Debug + PartialEq + Send + Sync + 'static;
    /// The result of a finished hand (the record's `result`).
    type HandResult: Clone + Debug + PartialEq + Send + Sync + Into<HandResult> + 'static;
    /// What a hand's banker names before it is dealt: Madiao's stake (§2), or [`NoStake`].
    type Stake: Stake<Self>;

    /// True when a hand opens with its draw, dealt at a steady pace (Da Bai Fen §4); otherwise
    /// it opens with its decision window.
    const OPENS_WITH_DRAW: bool;

    /// Checks a table's rules: the preset, the variant overrides and (Madiao) the stake limits,
    /// lowest and highest (equal: a fixed stake).
    fn settings(
        rules: &str,
        variants: &record::Variants,
        stakes: (u32, u32),
    ) -> Result<Self::Settings, SettingsError>;
    /// The rules of a table with these stored settings: [`TableGame::settings`] of its rules and
    /// stakes, and the duplicate board it plays if any (by default a board fixes nothing the
    /// table's seed does not already).
    fn table_settings(doc: &crate::settings::TableSettings) -> Result<Self::Settings, SettingsError> {
        Self::settings(&doc.rules, &doc.variants, doc.stakes())
    }
    /// Every variant in force, by name.
    fn variant_map(settings: &Self::Settings) -> serde_json::Map<String, Value>;
    /// A new match; the first banker or starter is drawn from the table's seed.
    fn new_match(settings: &Self::Settings, seed: u64) -> Self::Match;
    /// Hand `hand` (from 0) of the match, dealt from the table's seed, at the stake the banker
    /// chose (`None`: the lowest, or the game has none); `None` once the match is over.
    fn start_hand(
        settings: &Self::Settings,
        m: &Self::Match,
        seed: u64,
        hand: u32,
        stake: Option<u32>,
    ) -> Option<Self::State>;
    /// Records a finished hand in the match; returns its result (`None` when the hand is not over).
    fn finish_hand(m: &mut Self::Match, state: &Self::State) -> Option<Self::HandResult>;
    /// True once the match is over.
    fn match_over(m: &Self::Match) -> bool;
    /// The running score: `results` are the results of the finished hands.
    fn match_summary(m: &Self::Match, results: &[Self::HandResult]) -> MatchSummary;

    /// What the hand waits for next ([`Next`]).
    fn next(state: &Self::State) -> Next;
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
    fn window_outcome(state: &Self::State) -> WindowOutcome;

    /// What `viewer` may see now, at a table that answers the polls in private (the engine's
    /// `private_poll_view`).
    fn table_view(state: &Self::State, viewer: Viewer, overlay: Overlay) -> GameView;
    /// The legal actions of `seat` now, if it has something to decide.
    fn legal_for(state: &Self::State, seat: Seat, overlay: Overlay, request: Self::Request) -> Option<Legal>;
    /// An action as `viewer` may see it in an event (a face-down card or a burial is hidden from
    /// everyone but its owner).
    fn public_action(action: &Self::Action, actor: Seat, viewer: Viewer) -> PublicAction;
    /// The action a client sent, if it is an action of this game.
    fn from_wire(action: ActAction) -> Option<Self::Action>;

    /// The `yezi/1` record of the hands in `states`.
    fn record(
        settings: &Self::Settings,
        seed: u64,
        players: [String; 4],
        states: &[Self::State],
    ) -> Result<String, RecordError>;
}

/// A seeded bot for one decision: the seed mixes the table's secret seed, the seat and the
/// position in the log, so that bots differ per decision and cannot be predicted by clients.
pub fn decision_seed(table_seed: u64, seat: Seat, position: u64) -> u64 {
    let mut z = table_seed ^ position.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat.number()) << 56;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The card tracker of a view (`madiao::Tracker`, `dabaifen::Tracker`); `None` before it
/// means anything (Da Bai Fen: before trumps are fixed).
pub fn tracker_of(view: &GameView) -> Option<Tracker> {
    match view {
        GameView::Madiao(v) => Some(Tracker::Madiao(::madiao::Tracker::from_view(v))),
        GameView::Dabaifen(v) => ::dabaifen::Tracker::from_view(v).map(Tracker::Dabaifen),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use wire::ApiCode;

    /// An engine's refusal reaches the edge typed: the request error keeps the engine's error,
    /// and the one edge error gives the WebSocket code and the HTTP status.
    #[test]
    fn typed_errors_reach_the_edge_with_their_codes() {
        let engine = ::madiao::IllegalAction::HandOver;
        let r: Refusal = RequestError::<::madiao::IllegalAction>::Refused(engine.clone()).into();
        assert_eq!((r.code, r.status(), r.api_code()), (ErrorCode::Illegal, 422, ApiCode::BadRequest));
        assert_eq!(r.message, engine.to_string());
        let r: Refusal = RequestError::<::madiao::IllegalAction>::TooLate(TooLate::DrawOver).into();
        assert_eq!((r.code, r.status()), (ErrorCode::TooLate, 409));
        assert_eq!(r.message, "the draw is over: trumps are fixed");
        let r: Refusal = RequestError::<::madiao::IllegalAction>::Illegal(NotAllowed::HoldsTrumps).into();
        assert_eq!(r.code, ErrorCode::Illegal);
        let sent: Value = serde_json::from_str(&r.message(Some(9)).text()).unwrap();
        assert_eq!(
            sent,
            json!({"type": "error", "code": "illegal", "message": "you cannot annul: your hand holds trumps", "v": 9})
        );
        let bad = <ai::Madiao as TableGame>::settings("standard", &Default::default(), (3, 3)).unwrap_err();
        let r = Refusal::from(bad);
        assert_eq!((r.status(), r.api_code()), (400, ApiCode::BadRequest));
        assert!(r.message.contains("not 3"), "{}", r.message);
        assert_eq!(Refusal::new(ErrorCode::NoTable, "x").status(), 404);
    }
}
