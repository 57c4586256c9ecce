//! The one protocol between clients and the server (`docs/protocol.md`): every WebSocket message
//! both ways, the HTTP API's bodies, the running match score. The browser client's TypeScript
//! declarations (`web/js/wire.d.ts`) are generated from these and the engines' types; a test
//! fails when the committed file is not what the generator gives now.
//!
//! Every WebSocket message is one JSON object in a text frame with a `type`. The client's
//! messages are [`ClientMsg`]; the server's are [`ServerMsg`], each at a table carrying the
//! table's version `v`.
//!
//! Fields that hold a game's own values (an action, a result, a match score, a legal action) are
//! enums over both games' types, serialized as the game's own JSON (untagged), since a message is
//! read before one knows the game of its table. So is a view ([`GameView`]): the engine's own
//! view type, as the engine writes it.
//!
//! This module depends on no other module of the crate (the games and the log depend on it).

use cards::Seat;
use cards::record::{DabaifenResult, GameKind, MadiaoResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The largest page size of the lobby.
pub const LOBBY_PAGE_MAX: u32 = 200;

/// A field that is present, even as `null` (`Some(None)`), or absent (`None`).
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// Where a table is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Seats are open and the match has not begun.
    Waiting,
    /// The match is being played.
    Playing,
    /// The match has begun, but no person has been connected to the table for a while
    /// (`Timing::park_ms`): its bots and clocks are stopped until a person connects again.
    Parked,
    /// The match is over; the record is stored.
    Finished,
    /// The host closed the table before the match ended: it is over, and has no record (its
    /// log is kept).
    Closed,
}

impl TableStatus {
    /// The stored name.
    pub fn name(self) -> &'static str {
        match self {
            TableStatus::Waiting => "waiting",
            TableStatus::Playing => "playing",
            TableStatus::Parked => "parked",
            TableStatus::Finished => "finished",
            TableStatus::Closed => "closed",
        }
    }

    /// The table's life is over: its match finished, or its host closed it.
    pub fn is_over(self) -> bool {
        matches!(self, TableStatus::Finished | TableStatus::Closed)
    }

    /// Reads a stored name (`None` for a name that is not a status).
    pub fn parse(s: &str) -> Option<TableStatus> {
        match s {
            "waiting" => Some(TableStatus::Waiting),
            "playing" => Some(TableStatus::Playing),
            "parked" => Some(TableStatus::Parked),
            "finished" => Some(TableStatus::Finished),
            "closed" => Some(TableStatus::Closed),
            _ => None,
        }
    }
}

/// One lead group of Da Bai Fen: the cards of one suit (the trumps count as one suit) from which
/// two or more may be led together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LeadGroup {
    /// The trumps, or a plain suit.
    pub suit: LeadSuit,
    /// The seat's cards of that suit, strongest first.
    pub cards: Vec<dabaifen::Card>,
    /// Under `revoke: refuse` only: the top cards among them (a multi-card lead must use only
    /// these). Under `penalize` this is absent: any two or more may be led, and a lead with a card
    /// that is not a top card is a revoke, which ends the deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tops: Option<Vec<dabaifen::Card>>,
}

/// The suit of a Da Bai Fen lead group: the trumps count as one suit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum LeadSuit {
    /// The trumps.
    #[serde(rename = "trumps")]
    Trumps,
    /// Spades (plain).
    S,
    /// Hearts (plain).
    H,
    /// Diamonds (plain).
    D,
    /// Clubs (plain).
    C,
}

impl From<Option<dabaifen::Suit>> for LeadSuit {
    fn from(s: Option<dabaifen::Suit>) -> LeadSuit {
        match s {
            None => LeadSuit::Trumps,
            Some(dabaifen::Suit::Spades) => LeadSuit::S,
            Some(dabaifen::Suit::Hearts) => LeadSuit::H,
            Some(dabaifen::Suit::Diamonds) => LeadSuit::D,
            Some(dabaifen::Suit::Clubs) => LeadSuit::C,
        }
    }
}

/// What a Da Bai Fen choice of cards is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum CardsAction {
    /// Burying six cards under the kitty.
    Bury,
    /// Following a lead.
    Play,
}

impl CardsAction {
    /// The action that sends `cards` for this choice.
    pub fn action(self, cards: Vec<dabaifen::Card>) -> dabaifen::Action {
        let set = cards.into_iter().collect();
        match self {
            CardsAction::Bury => dabaifen::Action::Bury(set),
            CardsAction::Play => dabaifen::Action::Play(set),
        }
    }
}

/// The Da Bai Fen `revoke` variant in force (§8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RevokeRule {
    /// A revoking lead is allowed and ends the deal.
    Penalize,
    /// A revoking lead is refused.
    Refuse,
}

/// The legal actions of a seat, in a form a client can use without rules code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Legal {
    /// Madiao: send one of these actions as it is.
    Actions {
        /// The actions.
        actions: Vec<madiao::Action>,
        /// The cards of the `play` actions that would lead or capture (§5); any other `play` is a
        /// face-up discard.
        #[serde(default)]
        captures: Vec<madiao::Card>,
    },
    /// Choose exactly `count` cards: every card of `must`, the rest from `from`; send
    /// `{ACTION: [cards]}`.
    Cards {
        /// Burying or following.
        action: CardsAction,
        /// How many cards.
        count: u8,
        /// Cards that must be among them.
        must: Vec<dabaifen::Card>,
        /// Cards to choose the others from.
        from: Vec<dabaifen::Card>,
    },
    /// A Da Bai Fen lead: one card of `singles`, or two or more cards of one group; send
    /// `{"play": [cards]}`.
    Lead {
        /// Every card of the hand.
        singles: Vec<dabaifen::Card>,
        /// The suits with two or more cards.
        groups: Vec<LeadGroup>,
        /// The `revoke` variant.
        revoke: RevokeRule,
    },
    /// Da Bai Fen, during the draw: you may ask at any moment to show one of these cards; the
    /// request is applied when you are next asked (right after the next card is drawn, unless
    /// someone asked before you shows first). `{"pass": true}` withdraws it.
    Declare {
        /// Your cards drawn so far that you may show.
        cards: Vec<dabaifen::Card>,
        /// The card you asked to show, if any.
        requested: Option<dabaifen::Card>,
    },
    /// Da Bai Fen, during the annulment window: your hand has no trump and you may annul the
    /// deal with `{"annul": true}` (`{"annul": false}` withdraws it). Applied when the window closes.
    Annul {
        /// True when you have asked to annul.
        requested: bool,
    },
    /// Madiao, before a hand is dealt: you are its banker and name its stake (§2), an even number
    /// of chips from `low` to `high`; send `{"stake": n}`. When your clock runs out it is `low`.
    Stake {
        /// The lowest stake (also the stake if you do not choose in time).
        low: u32,
        /// The highest stake.
        high: u32,
    },
    /// Madiao, during the redeal window: you hold a long suit and may force a redeal with
    /// `{"redeal": true}` (`{"redeal": false}` withdraws it). Applied when the window closes.
    Redeal {
        /// True when you have asked for a redeal.
        requested: bool,
    },
}

/// What a seat or a spectator may see of a hand of either game: the engine's view
/// (`madiao::View`, `dabaifen::View`), written as the engine writes it (untagged).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GameView {
    /// A Madiao view.
    Madiao(Box<madiao::View>),
    /// A Da Bai Fen view.
    Dabaifen(Box<dabaifen::View>),
}

impl GameView {
    /// The game the view is of.
    pub fn game(&self) -> GameKind {
        match self {
            GameView::Madiao(_) => GameKind::Madiao,
            GameView::Dabaifen(_) => GameKind::Dabaifen,
        }
    }

    /// Whose view it is (`None`: a spectator's).
    pub fn seat(&self) -> Option<Seat> {
        match self {
            GameView::Madiao(v) => v.seat,
            GameView::Dabaifen(v) => v.seat,
        }
    }

    /// Whose turn the view shows (`None` when it shows nobody to move).
    pub fn to_move(&self) -> Option<Seat> {
        match self {
            GameView::Madiao(v) => v.to_move,
            GameView::Dabaifen(v) => v.to_move,
        }
    }

    /// True once the hand is over.
    pub fn is_over(&self) -> bool {
        match self {
            GameView::Madiao(v) => v.phase == madiao::Phase::Over,
            GameView::Dabaifen(v) => v.phase == dabaifen::Phase::Over,
        }
    }

    /// The hand's result (the record's result object), once it is over.
    pub fn result(&self) -> Option<HandResult> {
        match self {
            GameView::Madiao(v) => v.result.clone().map(HandResult::Madiao),
            GameView::Dabaifen(v) => v.result.as_ref().map(|r| HandResult::Dabaifen(r.to_record())),
        }
    }
}

impl From<madiao::View> for GameView {
    fn from(v: madiao::View) -> GameView {
        GameView::Madiao(Box::new(v))
    }
}

impl From<dabaifen::View> for GameView {
    fn from(v: dabaifen::View) -> GameView {
        GameView::Dabaifen(Box::new(v))
    }
}

/// An engine action of either game, as a client sends it (`{"play": "M9"}`, `{"play": ["AS"]}`,
/// `{"declare": "2H"}`, …). A message is read before the game of its table is known: an action
/// of neither game is kept as it came, and refused by the table as not an action of its game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ActAction {
    /// A Madiao action.
    Madiao(madiao::Action),
    /// A Da Bai Fen action.
    Dabaifen(dabaifen::Action),
    /// Madiao: the banker names the stake of the hand about to be dealt.
    Stake(StakeChoice),
    /// JSON that is an action of neither game.
    Other(Value),
}

/// A banker's stake for the hand about to be dealt (§2): `{"stake": 6}`, chips per stake.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct StakeChoice {
    /// Chips per stake, even, within the table's limits.
    pub stake: u32,
}

impl From<madiao::Action> for ActAction {
    fn from(a: madiao::Action) -> ActAction {
        ActAction::Madiao(a)
    }
}

impl From<dabaifen::Action> for ActAction {
    fn from(a: dabaifen::Action) -> ActAction {
        ActAction::Dabaifen(a)
    }
}

/// A card of a face-down play that the recipient may not see.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum HiddenAction {
    /// A Madiao slough (a face-down card): `{"slough": null}`.
    Slough(()),
    /// A Da Bai Fen burial: `{"bury": null}`.
    Bury(()),
}

/// A move as the recipient of an event may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum PublicAction {
    /// A Madiao action, as it was taken.
    Madiao(madiao::Action),
    /// A Da Bai Fen action, as it was taken.
    Dabaifen(dabaifen::Action),
    /// An action whose cards are hidden from the recipient.
    Hidden(HiddenAction),
}

/// Who forced a Madiao redeal when the window closed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct RedealOutcome {
    /// The seat that forced a redeal, if one did.
    pub redeal_forced_by: Option<Seat>,
}

/// Who annulled a Da Bai Fen deal when the window closed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AnnulOutcome {
    /// The seat that annulled, if one did.
    pub annulled_by: Option<Seat>,
}

/// How a decision window closed (public).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum WindowOutcome {
    /// Madiao's redeal window.
    Redeal(RedealOutcome),
    /// Da Bai Fen's annulment window.
    Annul(AnnulOutcome),
}

/// The result of a finished hand (the record's `result`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum HandResult {
    /// A Madiao hand.
    Madiao(MadiaoResult),
    /// A Da Bai Fen deal.
    Dabaifen(DabaifenResult),
}

impl From<MadiaoResult> for HandResult {
    fn from(r: MadiaoResult) -> HandResult {
        HandResult::Madiao(r)
    }
}

impl From<DabaifenResult> for HandResult {
    fn from(r: DabaifenResult) -> HandResult {
        HandResult::Dabaifen(r)
    }
}

/// The running match score of either game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum MatchSummary {
    /// Madiao's.
    Madiao(MadiaoMatch),
    /// Da Bai Fen's.
    Dabaifen(DabaifenMatch),
}

/// A chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatMessage {
    /// Position in the table's chat, from 0.
    pub seq: u64,
    /// When it was said, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The name shown.
    pub name: String,
    /// The speaker's seat, if seated.
    pub seat: Option<u8>,
    /// The speaker.
    pub guest: Option<String>,
    /// The text.
    pub text: String,
}

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Timer {
    /// A person's turn clock (no `remaining_ms` at an untimed table). `bank_ms`: at a table with
    /// time banks, what is left of the seat's bank, drawn on once `remaining_ms` is spent.
    Turn {
        /// The seat whose turn it is.
        seat: Seat,
        /// What is left of the turn clock, in milliseconds (absent at an untimed table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remaining_ms: Option<u64>,
        /// What is left of the seat's time bank, in milliseconds (only at a table with time banks).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bank_ms: Option<u64>,
    },
    /// A bot moves shortly.
    Bot {
        /// The seat the bot plays.
        seat: Seat,
    },
    /// The Da Bai Fen draw: a card every `every_ms`.
    Draw {
        /// The time between two cards of the draw, in milliseconds.
        every_ms: u64,
    },
    /// A decision window closes.
    Window {
        /// Until the window closes, in milliseconds.
        remaining_ms: u64,
    },
    /// The pause before the next hand (no `remaining_ms` at an untimed table: it waits for the
    /// people); `ready`: the seats that pressed ready so far.
    NextHand {
        /// Until the next hand is dealt, in milliseconds (absent at an untimed table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remaining_ms: Option<u64>,
        /// The seats that pressed ready so far.
        ready: Vec<Seat>,
    },
    /// A finished trick is on show; the next lead after it.
    Trick {
        /// Until the trick is cleared and the next lead is due, in milliseconds.
        remaining_ms: u64,
    },
    /// It is a disconnected person's turn: a bot stands in when this runs out.
    Grace {
        /// The seat whose person is disconnected.
        seat: Seat,
        /// Until a bot stands in, in milliseconds.
        remaining_ms: u64,
    },
    /// The player alone with bots paused the match: every clock and the bots wait until he
    /// resumes it.
    Paused,
}

/// What happened at the table (an `update`'s event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableEvent {
    /// The match begins (hand 0 is dealt).
    Start,
    /// The next hand is dealt.
    HandStart {
        /// The hand dealt, from 0.
        hand: u32,
    },
    /// Da Bai Fen: one more card of the draw.
    Draw {
        /// How many cards have been drawn in all.
        drawn: u8,
    },
    /// Da Bai Fen: the draw ended without a showing.
    DrawEnd,
    /// A move, as the recipient may see it.
    Action {
        /// The seat that moved.
        seat: Seat,
        /// The move as the recipient may see it (another seat's slough or burial is hidden).
        action: PublicAction,
        /// A bot made it (a bot's seat, or a bot standing in for a person).
        by_bot: bool,
    },
    /// Madiao: the banker named the stake of the hand, which is now dealt.
    Stake {
        /// The banker.
        seat: Seat,
        /// The stake named, in chips.
        stake: u32,
        /// A bot named it, or the banker's clock ran out and it is the lowest.
        by_bot: bool,
    },
    /// A decision window opens.
    Window {
        /// Until the window closes, in milliseconds.
        closes_in_ms: u64,
    },
    /// The seat took back its last play of the hand: `actions` actions in all (its play and the
    /// answers after it) are undone, and the view is the hand as it was before them.
    TakeBack {
        /// The seat that took back its play.
        seat: Seat,
        /// How many actions were undone.
        actions: u32,
    },
    /// It closed: who forced a redeal or annulled, if anyone.
    WindowClosed {
        /// Who forced a redeal (Madiao) or annulled (Da Bai Fen), if anyone.
        outcome: WindowOutcome,
    },
}

/// The recipient of a `sync`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct You {
    /// The seat, `null` for a spectator.
    pub seat: Option<Seat>,
    /// The guest.
    pub guest: String,
    /// The guest's name.
    pub name: String,
    /// True for the table's host.
    pub host: bool,
}

/// Madiao's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct MadiaoMatch {
    /// Hands finished.
    pub hands: usize,
    /// Each seat's total, in stakes.
    pub totals: [f64; 4],
    /// The stake of each finished hand, in order (chips per stake, named by its banker).
    #[serde(default)]
    pub stakes: Vec<u32>,
    /// Each seat's total in chips: the sum over hands of the payoffs times the hand's stake.
    #[serde(default)]
    pub chips: [f64; 4],
    /// The seats that have banked.
    pub banked: [bool; 4],
    /// The next banker, `null` when he is drawn.
    pub next_banker: Option<Seat>,
    /// The match is over.
    pub over: bool,
}

/// Da Bai Fen's running match score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct DabaifenMatch {
    /// Deals finished.
    pub hands: usize,
    /// The team ranks (team 0: seats 0 and 2).
    pub ranks: [dabaifen::Rank; 2],
    /// The next starter.
    pub next_starter: Seat,
    /// Deals won by each team.
    pub deals_won: [u32; 2],
    /// The game is over.
    pub over: bool,
    /// The team that won the game.
    pub winner: Option<u8>,
}

/// The whole state of a table for one connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SyncMsg {
    /// The table's version: the number of events it has broadcast.
    pub v: u64,
    /// The table: its name, game, settings and seats.
    pub table: TableSummary,
    /// Who this connection is at the table.
    pub you: You,
    /// The hand of the match, from 0.
    pub hand: u32,
    /// The moves everyone has seen in the match (an `act` may quote it).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// What this connection may see of the hand (`null` before the match begins, and before a
    /// Madiao hand whose stake is still to be named is dealt).
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Option<GameView>,
    /// The legal actions of this connection's seat now (`null` when it has nothing to decide, and
    /// for a spectator).
    pub legal: Option<Legal>,
    /// What the table waits for (`null` when waiting for the match to begin, or finished).
    pub timer: Option<Timer>,
    /// The running score of the match (`null` before it begins).
    #[serde(rename = "match")]
    pub match_: Option<MatchSummary>,
    /// The results of the finished hands, in the record format.
    pub results: Vec<HandResult>,
    /// The last chat lines (at most 30).
    pub chat: Vec<ChatMessage>,
    /// The names of the people watching (not seated), one per person, at most
    /// [`WATCHERS_SHOWN`] (`table.spectators` counts every connection watching).
    #[serde(default)]
    pub watchers: Vec<String>,
    /// The table of the rematch the host offered at the end of this match, if he did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rematch: Option<String>,
}

/// Something happened at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct UpdateMsg {
    /// The table's version after this event (one more than the previous event's).
    pub v: u64,
    /// What happened.
    pub event: TableEvent,
    /// The hand of the match, from 0.
    pub hand: u32,
    /// The moves everyone has seen in the match (an `act` may quote it).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// The recipient's view of the hand after the event.
    #[ts(type = "MadiaoView | DabaifenView | null")]
    pub view: Option<GameView>,
    /// The recipient's legal actions after the event.
    pub legal: Option<Legal>,
    /// What the table waits for now.
    pub timer: Option<Timer>,
    /// The running score of the match.
    #[serde(rename = "match")]
    pub match_: Option<MatchSummary>,
}

/// The seats changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct SeatsMsg {
    /// The table's version after this event.
    pub v: u64,
    /// Who holds each seat, seat 0 first.
    pub seats: Vec<SeatInfo>,
    /// How many connections watch the table.
    pub spectators: usize,
    /// The names of the people watching, as in a `sync`.
    #[serde(default)]
    pub watchers: Vec<String>,
    /// Where the table is in its life (waiting, playing, finished).
    pub status: TableStatus,
    /// What the table waits for now.
    pub timer: Option<Timer>,
}

/// What the host did to the table (a `host` message to everyone at it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HostEvent {
    /// The host closed the table: the match is over, without a record. The last message of the
    /// table; the connections stay open (the client may go elsewhere).
    Closed {
        /// The host's name.
        by: String,
        /// The hands completed before it was closed.
        hands: usize,
        /// The host ended the match and kept it: its finished hands are stored as a record (the
        /// match is `finished`, an ended match in replays and My games).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[ts(optional, as = "Option<bool>")]
        kept: bool,
    },
    /// The host removed an away person from his seat, which is open now.
    Removed {
        /// The seat.
        seat: Seat,
        /// The person's name.
        name: String,
    },
    /// The host offers a rematch: a new table with the same game, settings and seats, where
    /// each person of this one may take his seat.
    Rematch {
        /// The new table's id.
        table: String,
    },
}

/// The host did something to the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct HostMsg {
    /// The table's version after this event.
    pub v: u64,
    /// What the host did.
    pub event: HostEvent,
}

/// The most spectators' names a `sync` or `seats` message lists.
pub const WATCHERS_SHOWN: usize = 50;

/// A chat line was said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ChatMsg {
    /// The table's version after this event.
    pub v: u64,
    /// The line said.
    pub message: ChatMessage,
}

/// `chat_removed`: the operator removed a chat line of the table; a client drops it from what
/// it shows (`docs/protocol.md`, "Moderation").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChatRemovedMsg {
    /// The table's version after this event.
    pub v: u64,
    /// The number (`seq`) of the line removed.
    #[ts(type = "number")]
    pub seq: u64,
}

/// What an `ack` answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AckWhat {
    /// A request during the draw or a window (with the seat's `legal` as it now stands).
    Request,
    /// `back`.
    Back,
    /// `next`.
    Next,
}

/// A request was taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct AckMsg {
    /// The table's version now (an `ack` does not raise it).
    pub v: u64,
    /// What was taken.
    pub what: AckWhat,
    /// For a request: the seat's legal actions as they now stand.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    #[ts(optional = nullable, as = "Option<Legal>")]
    pub legal: Option<Option<Legal>>,
}

/// A message was refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ErrorMsg {
    /// Why it was refused, for programs.
    pub code: ErrorCode,
    /// Why it was refused, in words, naming the seat and the cards.
    pub message: String,
    /// The table's version now, when the connection is at a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub v: Option<u64>,
}

/// A guest's public identity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GuestInfo {
    /// The guest's id.
    pub id: String,
    /// The name shown for the guest.
    pub name: String,
}

/// The connection is identified.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct WelcomeMsg {
    /// The guest the connection is identified as.
    pub guest: GuestInfo,
}

/// Why a hint is the move it is, in words (`docs/protocol.md`, "Hints and the tracker").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HintReason {
    /// The situation: `lead_top`, `capture`, `slough_fellow_wins`, `lead_tops`, `trump_in`, …
    pub kind: String,
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

/// The answer to a `hint`: the move the hint bot would make for the seat now, and why. Sent only
/// to the connection that asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct HintMsg {
    /// The table's version now.
    pub v: u64,
    /// The move it answers (the `move` of the last update).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// The seat the hint is for.
    pub seat: Seat,
    /// The action, in the engine's JSON shape (as an `act` sends it).
    #[ts(type = "MadiaoAction | DabaifenAction")]
    pub action: Value,
    /// Why the hint bot makes that move.
    pub reason: HintReason,
}

/// The answer to a `tracker`: the card tracker of the seat's view now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TrackerMsg {
    /// The table's version now.
    pub v: u64,
    /// The move it answers (the `move` of the last update).
    #[serde(rename = "move")]
    pub move_no: u64,
    /// `null` before the tracker means anything (Da Bai Fen: before trumps are fixed).
    #[ts(type = "MadiaoTracker | DabaifenTracker | null")]
    pub tracker: Option<Value>,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The connection is identified (the answer to `hello`).
    Welcome(WelcomeMsg),
    /// The whole state of a table for this connection.
    Sync(Box<SyncMsg>),
    /// Something happened at the table.
    Update(UpdateMsg),
    /// The seats or the spectators changed.
    Seats(SeatsMsg),
    /// A chat line was said.
    Chat(ChatMsg),
    /// The operator removed a chat line.
    ChatRemoved(ChatRemovedMsg),
    /// A request was taken.
    Ack(AckMsg),
    /// A message was refused.
    Error(ErrorMsg),
    /// The answer to a `ping`.
    Pong,
    /// The host did something to the table.
    Host(HostMsg),
    /// The answer to a `hint`.
    Hint(HintMsg),
    /// The answer to a `tracker`.
    Tracker(TrackerMsg),
}

impl ServerMsg {
    /// The message as a text frame's payload.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

// ---------------------------------------------------------------------------------------------
// HTTP

/// `POST /api/guests`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewGuestReply {
    /// The new guest's id.
    pub id: String,
    /// The name given to the guest.
    pub name: String,
    /// The guest's secret.
    pub token: String,
}

/// One game of `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameInfo {
    /// The game.
    pub game: GameKind,
    /// Each preset's variants, by name.
    #[ts(type = "Record<string, Record<string, string>>")]
    pub presets: serde_json::Map<String, Value>,
    /// The names of the bots that may play a seat.
    pub bots: Vec<String>,
    /// The bot a seat gets when none is named.
    pub default_bot: String,
    /// The bots of `bots` kept for research (Madiao's `pimc-coalition` and `pimc-mixed`): a seat
    /// may name them through the API, but a lobby does not offer them.
    #[serde(default)]
    pub research_bots: Vec<String>,
}

/// `GET /api/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GamesReply {
    /// Each game the server plays.
    pub games: Vec<GameInfo>,
}

/// `GET /api/tables?offset=K&limit=N`: one page of the lobby.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LobbyReply {
    /// The tables of this page, in the lobby's order (most open seats first, then oldest).
    pub tables: Vec<TableSummary>,
    /// How many tables the whole lobby lists.
    pub total: u32,
    /// The position of this page's first table in the lobby.
    pub offset: u32,
    /// The page size used.
    pub limit: u32,
    /// The `offset` of the next page, or null when this is the last.
    pub next: Option<u32>,
}

/// `POST /api/guests`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewGuest {
    /// The name shown at tables.
    pub name: String,
}

/// `GET /api/stats`: the server's load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StatsReply {
    /// Tables loaded.
    pub tables: u64,
    /// Open WebSocket connections.
    pub connections: u64,
    /// The server's resident memory (bytes), where the system tells it.
    pub rss_bytes: Option<u64>,
    /// The server's peak resident memory (bytes), where the system tells it.
    pub peak_rss_bytes: Option<u64>,
    /// The storage backend (`sqlite`, `postgres`).
    pub backend: String,
    /// Steps of a table's writes this node tried after another node had taken the table's lease
    /// over, all refused by the database (fencing): a stale owner's attempts since the node
    /// started; always 0 on SQLite.
    pub fenced_writes: u64,
    /// Tables this node stopped since it started because it found it no longer held their lease
    /// (at a renewal, or when it claimed one again in a newer epoch), or because it had not
    /// renewed their lease for nearly a lease's length by its own clock; always 0 on SQLite.
    pub leases_lost: u64,
    /// The operator's external bots that have played since the server started (`--bots`), with
    /// the decisions they failed (played for them as the first legal action), by cause.
    pub external_bots: Vec<ExternalBotCounts>,
}

/// An external bot's decisions at this server since it started, and those it failed by cause
/// (docs/bot-protocol.md, "Errors and fallbacks").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExternalBotCounts {
    /// The bot's name in the operator's file.
    pub name: String,
    /// Decisions asked of it.
    pub decisions: u64,
    /// Answers naming an action that was not legal.
    pub illegal: u64,
    /// Answers that were not a `yezi-bot/1` message of the expected shape.
    pub malformed: u64,
    /// No answer within the time limit.
    pub timeouts: u64,
    /// The process could not start, exited or closed its output.
    pub crashes: u64,
}

/// A seat of a new table (`POST /api/tables`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatChoice {
    /// The creator sits here.
    Me,
    /// A bot (the default bot when no name is given).
    Bot {
        /// The bot's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        bot: Option<String>,
    },
    /// Open for a person.
    Open,
}

/// `POST /api/tables`'s body (see `docs/protocol.md` for the defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewTable {
    /// The game.
    pub game: GameKind,
    /// The rules preset.
    #[serde(default = "standard")]
    #[ts(optional, as = "Option<String>")]
    pub rules: String,
    /// Variants overriding the preset.
    #[serde(default)]
    #[ts(optional, as = "Option<cards::record::Variants>")]
    pub variants: cards::record::Variants,
    /// Madiao: chips per stake; with `stake_max`, the lowest stake the banker may name.
    #[serde(default = "two")]
    #[ts(optional, as = "Option<u32>")]
    pub stake: u32,
    /// Madiao: the highest stake the banker may name for a hand (§2); absent or equal to
    /// `stake`, the stake is fixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake_max: Option<u32>,
    /// The turn clock, in seconds.
    #[serde(default = "thirty")]
    #[ts(optional, as = "Option<u32>")]
    pub turn_seconds: u32,
    /// No clock for the people (`turn_seconds` and `bank_seconds` are then unused). Absent: untimed
    /// when the creator is the only person and the other three seats are bots, timed otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub untimed: Option<bool>,
    /// Each person's time bank for the match, in seconds (0–600): drawn on when a turn clock runs
    /// out, before a bot stands in. Absent: 60.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bank_seconds: Option<u32>,
    /// The table's name (default: "NAME's table", after its creator).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// Not listed in the lobby.
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub private: bool,
    /// The four seats (default: the creator, then three of the default bot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seats: Option<Vec<SeatChoice>>,
    /// How fast the table's fixed clocks run (default `normal`).
    #[serde(default)]
    #[ts(optional, as = "Option<crate::settings::Pace>")]
    pub pace: crate::settings::Pace,
    /// Seconds before a bot stands in for a seated person whose connection dropped (0–120,
    /// default 15).
    #[serde(default = "fifteen")]
    #[ts(optional, as = "Option<u32>")]
    pub grace_seconds: u32,
    /// Madiao: how the table's deck draws the zero cash (`unnamed`, the default, `blank` or
    /// `wang_ying`; the figures are presentation only, `docs/rules/madiao.md` §1).
    #[serde(default)]
    #[ts(optional, as = "Option<madiao::ZeroCash>")]
    pub zero_cash: madiao::ZeroCash,
    /// A rated table: its match changes its players' ratings (`docs/ratings.md`). Only a guest
    /// with an account may create one or take a seat at one (`account_required`).
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub rated: bool,
}

impl NewTable {
    /// A table of `game` with every default: the standard rules, a stake of 2, a 30 s turn
    /// clock, the normal pace, a 15 s grace period, listed, the creator and three bots.
    pub fn new(game: GameKind) -> NewTable {
        NewTable {
            game,
            rules: standard(),
            variants: cards::record::Variants::default(),
            stake: two(),
            stake_max: None,
            turn_seconds: thirty(),
            untimed: None,
            bank_seconds: None,
            name: None,
            private: false,
            seats: None,
            pace: crate::settings::Pace::default(),
            grace_seconds: fifteen(),
            zero_cash: madiao::ZeroCash::default(),
            rated: false,
        }
    }
}

impl NewTable {
    /// Whether the table plays untimed: as asked, else when its creator is its only person, the
    /// other three seats bots (the default seats included); a rated table never (`docs/ratings.md`).
    pub fn untimed(&self) -> bool {
        let solo = self.seats.as_deref().is_none_or(|seats| {
            seats.iter().filter(|c| **c == SeatChoice::Me).count() == 1
                && seats.iter().all(|c| matches!(c, SeatChoice::Me | SeatChoice::Bot { .. }))
        });
        !self.rated && self.untimed.unwrap_or(solo)
    }

    /// Each person's time bank, in seconds, as asked, else
    /// [`crate::settings::BANK_DEFAULT`]; none at an untimed table.
    pub fn bank(&self) -> u32 {
        if self.untimed() { 0 } else { self.bank_seconds.unwrap_or(crate::settings::BANK_DEFAULT) }
    }
}

fn fifteen() -> u32 {
    15
}

fn standard() -> String {
    "standard".into()
}
fn two() -> u32 {
    2
}
fn thirty() -> u32 {
    30
}

/// `POST /api/tables`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct NewTableReply {
    /// The new table.
    pub table: TableSummary,
    /// The invite link.
    pub invite: String,
}

/// `GET /api/tables/{id}` for a finished table no longer loaded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableStub {
    /// The table's id.
    pub id: String,
    /// The game (`madiao` or `dabaifen`).
    #[ts(type = "GameKind")]
    pub game: String,
    /// Where the table is in its life.
    pub status: TableStatus,
    /// When the table was made, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// An HTTP error's body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ApiErrorBody {
    /// What went wrong.
    pub error: ApiErrorDetail,
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ApiErrorDetail {
    /// What kind of error.
    pub code: ApiCode,
    /// What went wrong, in words.
    pub message: String,
}

/// Who holds a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person (a guest).
    Person,
    /// A bot named by the table.
    Bot,
    /// Nobody yet: a person may take it (a bot plays it while a match runs).
    Open,
}

/// A seat as the lobby and the clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeatInfo {
    /// 0–3.
    pub seat: u8,
    /// Who holds the seat.
    pub kind: SeatKind,
    /// The name shown (`bot:NAME` for a bot).
    pub name: Option<String>,
    /// The bot's name, for a bot seat.
    pub bot: Option<String>,
    /// The guest holding a person's seat.
    pub guest: Option<String>,
    /// A person's seat has a live connection.
    pub present: bool,
    /// A bot is playing for the person after his clock ran out (until he is back).
    pub away: bool,
    /// A bot plays this seat now (a bot seat, an open seat, or an absent or away person); false
    /// during a disconnected person's grace period.
    pub bot_plays: bool,
    /// For a seated person with no connection: the time left before a bot stands in for him
    /// (`null` otherwise).
    #[serde(default)]
    pub grace_ms: Option<u64>,
    /// An open seat kept for a person invited to a rematch: his name (only he may take it,
    /// until the match begins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub invited: Option<String>,
}

/// A table as the lobby and `GET /api/tables/{id}` show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableSummary {
    /// The table's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// The preset.
    pub rules: String,
    /// Every variant in force.
    #[ts(type = "Record<string, string>")]
    pub variants: serde_json::Map<String, Value>,
    /// Madiao: chips per stake (the lowest stake when the banker names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake: Option<u32>,
    /// Madiao: the highest stake the banker may name, when it is above `stake`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stake_max: Option<u32>,
    /// The turn clock, in seconds.
    pub turn_seconds: u32,
    /// The people play without a clock.
    #[serde(default)]
    pub untimed: bool,
    /// Each person's time bank for the match, in seconds (0: none).
    #[serde(default)]
    pub bank_seconds: u32,
    /// How fast the table's fixed clocks run.
    #[serde(default)]
    pub pace: crate::settings::Pace,
    /// How long after a seated person's connection drops a bot stands in for him, in seconds.
    #[serde(default)]
    pub grace_seconds: u32,
    /// Not listed in the lobby.
    pub private: bool,
    /// Waiting, playing or finished.
    pub status: TableStatus,
    /// The guest who created it.
    pub host: Option<String>,
    /// The four seats.
    pub seats: Vec<SeatInfo>,
    /// How many seats are open.
    pub open_seats: usize,
    /// How many connections watch.
    pub spectators: usize,
    /// Hands finished.
    pub hands: usize,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Madiao: how the table's deck draws the zero cash, so that every viewer draws the same
    /// deck (absent for Da Bai Fen; a client reads an absent value as `unnamed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub zero_cash: Option<madiao::ZeroCash>,
    /// A rated table: its match changes its players' ratings; only guests with an account sit
    /// at it (`docs/ratings.md`).
    #[serde(default)]
    pub rated: bool,
}

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Identifies the connection with a guest token (the first message).
    Hello {
        /// The token `POST /api/guests` gave.
        token: String,
    },
    /// Takes a seat at a table: the seat this guest already holds there, else `seat` if it is
    /// open, else the first open seat.
    Join {
        /// The table's id.
        table: String,
        /// The seat wanted (0–3).
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// Watches a table as a spectator.
    Watch {
        /// The table's id.
        table: String,
    },
    /// An action of the seat, in the engine's JSON shape (`{"play": "M9"}`, `{"play": ["AS"]}`, …).
    Act {
        /// The action.
        #[ts(type = "MadiaoAction | DabaifenAction")]
        action: ActAction,
        /// The move number the action answers (the `move` of the last update); when given and no
        /// longer current, the action is refused as stale.
        #[serde(default, rename = "move")]
        #[ts(optional)]
        move_no: Option<u64>,
        /// The seat acting, if the client names it: refused unless it is the connection's own.
        #[serde(default)]
        #[ts(optional)]
        seat: Option<u8>,
    },
    /// A chat line for the table.
    Chat {
        /// The text (1–500 characters, no control characters).
        text: String,
    },
    /// Asks for the full state again (after a gap in `v`).
    Resync,
    /// Gives up the seat (it becomes open; a bot plays it meanwhile); the connection stays as a
    /// spectator.
    Leave,
    /// Takes the seat back from the bot that played for it after a timeout.
    Back,
    /// The host starts the match with bots in the open seats.
    Start,
    /// Ready for the next hand (skips the rest of the pause once every present person is ready).
    Next,
    /// Asks for a `pong`.
    Ping,
    /// The host closes the table: the match ends at once, without a record; with `keep`, at a
    /// table where hands were finished, the match ends with a record of its finished hands.
    Close {
        /// End the match and keep its finished hands.
        #[serde(default)]
        #[ts(optional, as = "Option<bool>")]
        keep: bool,
    },
    /// The player alone with bots at an unrated table takes back his last play of the hand (and
    /// the bots' answers after it).
    TakeBack,
    /// The player alone with bots at an unrated table pauses the match.
    Pause,
    /// He resumes it.
    Resume,
    /// The host removes a person who is away (his turn clock ran out, or his connection is
    /// gone) from his seat, which becomes open.
    Remove {
        /// The seat (0–3).
        seat: u8,
    },
    /// The host offers a rematch at the end of a finished match.
    Rematch,
    /// Asks for a hint on the seat's own turn (casual tables only): answered with a `hint` to
    /// this connection alone, and noted in the table's record.
    Hint,
    /// Asks for the card tracker of the seat's view (casual tables only): answered with a
    /// `tracker` to this connection alone.
    Tracker,
}

/// Why a message was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON.
    BadJson,
    /// JSON, but not a message of the protocol (missing or wrong fields).
    BadMessage,
    /// A `type` the protocol does not have.
    UnknownType,
    /// A message over the size limit.
    TooLarge,
    /// A binary frame (the protocol is text).
    Binary,
    /// Too many messages: this one was dropped.
    RateLimited,
    /// The first message must be `hello`.
    NotAuthenticated,
    /// A second `hello`.
    AlreadyAuthenticated,
    /// The token is unknown.
    BadToken,
    /// The connection's session was signed out (this session, every session, or by a password
    /// change or the account's deletion): the connection is closed.
    SignedOut,
    /// No such table.
    NoTable,
    /// The message needs a table: `join` or `watch` first.
    NotAtTable,
    /// The connection is at a table already.
    AlreadyAtTable,
    /// No seat is open.
    NoSeat,
    /// The seat asked for is not open.
    SeatTaken,
    /// Only a seated player can do this.
    NotSeated,
    /// Only the table's host can do this.
    NotHost,
    /// The match has not begun.
    NotStarted,
    /// The match has begun already.
    AlreadyStarted,
    /// Another seat is to act.
    NotYourTurn,
    /// The action names a seat that is not the connection's.
    NotYourSeat,
    /// The action is not legal now; the message says why.
    Illegal,
    /// The action answers a move that is no longer current.
    Stale,
    /// A request for the draw or a window that has already ended.
    TooLate,
    /// There is nothing to decide now.
    NothingToDecide,
    /// A chat line that is empty, too long, has control characters or nothing visible (format
    /// characters are stripped, not refused).
    BadChat,
    /// The table's storage failed; nothing changed, try again.
    Storage,
    /// The match is over.
    Finished,
    /// The server is shutting the table down or is overloaded.
    Unavailable,
    /// No valid `hello` came in time after the connection opened: it is closed.
    HelloTimeout,
    /// The guest holds as many WebSocket connections as the server allows: this one is closed.
    TooManyConnections,
    /// The person named is not away: only an away person can be removed.
    NotAway,
    /// The host removed this guest from the table: he may watch it, not sit at it.
    Removed,
    /// The match is not over yet (a rematch is offered at its end).
    NotOver,
    /// The host closed the table.
    Closed,
    /// A rematch has been offered already (the message names its table).
    RematchOffered,
    /// Only a guest with an account may take a seat at a rated table (or create one).
    AccountRequired,
    /// Hints and the tracker are not offered at this table (a rated table).
    HintsOff,
    /// Take-backs and pauses are offered only to a player alone with bots at an unrated table.
    NotAlone,
    /// The match is paused: resume it first.
    Paused,
    /// There is no play of the seat's to take back in this hand.
    NothingToTakeBack,
    /// No hand is finished: there is nothing to keep (close the table instead).
    NothingToKeep,
    // Moderation (see `docs/protocol.md`, "Moderation").
    /// The operator banned the account or the address for a time: the message says until when.
    Banned,
    /// The operator muted the account's chat for a time.
    ChatMuted,
    /// A player seated at the table blocked this one, or this one blocked him: they never sit
    /// at one table.
    Blocked,
}

/// An `error` message.
pub fn error(code: ErrorCode, message: impl Into<String>, v: Option<u64>) -> String {
    ServerMsg::Error(ErrorMsg { code, message: message.into(), v }).text()
}

/// Why the server refused something, at its edge: the one error that the typed errors inside
/// (an engine's illegal action, a request, settings) become, and that becomes a WebSocket
/// `error` message ([`Refusal::message`]) or an HTTP error ([`Refusal::status`],
/// [`Refusal::api_code`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct Refusal {
    /// The WebSocket code.
    pub code: ErrorCode,
    /// Why, for a person.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    /// The `error` message of the refusal at table version `v`.
    pub fn message(&self, v: Option<u64>) -> ServerMsg {
        ServerMsg::Error(ErrorMsg { code: self.code, message: self.message.clone(), v })
    }

    /// The HTTP status of the refusal.
    pub fn status(&self) -> u16 {
        match self.code {
            ErrorCode::NotAuthenticated
            | ErrorCode::BadToken
            | ErrorCode::SignedOut
            | ErrorCode::HelloTimeout => 401,
            ErrorCode::NotHost
            | ErrorCode::NotSeated
            | ErrorCode::NotYourSeat
            | ErrorCode::Removed
            | ErrorCode::AccountRequired
            | ErrorCode::HintsOff
            | ErrorCode::NotAlone
            | ErrorCode::Banned
            | ErrorCode::ChatMuted
            | ErrorCode::Blocked => 403,
            ErrorCode::NoTable => 404,
            ErrorCode::AlreadyAuthenticated
            | ErrorCode::AlreadyAtTable
            | ErrorCode::NoSeat
            | ErrorCode::SeatTaken
            | ErrorCode::NotStarted
            | ErrorCode::AlreadyStarted
            | ErrorCode::NotYourTurn
            | ErrorCode::Stale
            | ErrorCode::TooLate
            | ErrorCode::NothingToDecide
            | ErrorCode::Finished
            | ErrorCode::NotAway
            | ErrorCode::NotOver
            | ErrorCode::Closed
            | ErrorCode::RematchOffered
            | ErrorCode::Paused
            | ErrorCode::NothingToTakeBack
            | ErrorCode::NothingToKeep => 409,
            ErrorCode::TooLarge => 413,
            ErrorCode::Illegal => 422,
            ErrorCode::RateLimited | ErrorCode::TooManyConnections => 429,
            ErrorCode::Storage => 500,
            ErrorCode::Unavailable => 503,
            ErrorCode::BadJson
            | ErrorCode::BadMessage
            | ErrorCode::UnknownType
            | ErrorCode::Binary
            | ErrorCode::NotAtTable
            | ErrorCode::BadChat => 400,
        }
    }

    /// The code of the HTTP error body.
    pub fn api_code(&self) -> ApiCode {
        match self.code {
            ErrorCode::BadJson => ApiCode::NotJson,
            ErrorCode::TooLarge => ApiCode::RecordTooLarge,
            ErrorCode::BadToken
            | ErrorCode::SignedOut
            | ErrorCode::NotAuthenticated
            | ErrorCode::HelloTimeout => ApiCode::BadToken,
            ErrorCode::NoTable => ApiCode::NoTable,
            ErrorCode::RateLimited => ApiCode::RateLimited,
            ErrorCode::TooManyConnections => ApiCode::TooManyConnections,
            ErrorCode::Storage => ApiCode::Internal,
            ErrorCode::Unavailable => ApiCode::Busy,
            ErrorCode::BadChat => ApiCode::BadName,
            ErrorCode::Closed => ApiCode::Closed,
            ErrorCode::AccountRequired => ApiCode::AccountRequired,
            ErrorCode::Banned => ApiCode::Banned,
            _ => ApiCode::BadRequest,
        }
    }
}

/// The code of an HTTP error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApiCode {
    /// The request is not what the API takes.
    BadRequest,
    /// A name that is empty, too long or has characters not allowed.
    BadName,
    /// No token, or one that is unknown.
    BadToken,
    /// No such table.
    NoTable,
    /// The table's match is not over (its record is not ready).
    NotFinished,
    /// The host closed the table before its match ended: it has no record.
    Closed,
    /// The guest has as many open tables as allowed.
    TooManyTables,
    /// The table has no replay.
    NoReplay,
    /// No such hand.
    NoHand,
    /// The body is not JSON.
    NotJson,
    /// The record is over the size limit.
    RecordTooLarge,
    /// Too many records posted from one address.
    TooManyPosts,
    /// Too many guests created from one address.
    RateLimited,
    /// The server is busy.
    Busy,
    /// The address holds as many connections as the server allows.
    TooManyConnections,
    /// The server is at its connection cap.
    Unavailable,
    /// Something went wrong in the server.
    Internal,
    // Accounts.
    /// A username not of the allowed form.
    BadUsername,
    /// A password too short or too long.
    BadPassword,
    /// The username belongs to another account.
    UsernameTaken,
    /// The guest has an account already.
    AlreadyAccount,
    /// The token is a guest's, not an account's session.
    NoAccount,
    /// Signing in failed: no such username, or not its password (the answer does not tell which).
    BadCredentials,
    /// The password given to confirm a change is not the account's.
    WrongPassword,
    /// The session has expired: sign in again.
    SessionExpired,
    /// The session was signed out: sign in again.
    SessionRevoked,
    // Ratings.
    /// Only a guest with an account may create a rated table or take a seat at one.
    AccountRequired,
    /// No account has this username.
    NoPlayer,
    // Analyses.
    /// The server runs no analyses (`--analysis-workers 0`).
    AnalysisOff,
    /// The hand has not been analysed for this seat, and no analysis of it is under way.
    NoAnalysis,
    // Moderation.
    /// The operator banned the account or the address for a time.
    Banned,
    /// The server has no operator token (`yezi serve --admin-token-file`): the admin API is off.
    AdminOff,
    /// The token is not the operator's.
    NotAdmin,
    /// The player made as many reports as allowed for now.
    TooManyReports,
    // Requests.
    /// A state-changing request came from a web page of another site (its `Origin` is not the
    /// server's).
    BadOrigin,
    /// The request's body is over the size limit.
    TooLarge,
}

/// Reads a client message: `Err` with the error to send when it is not JSON, not a message, or of
/// an unknown type.
pub fn parse(msg: &str) -> Result<ClientMsg, (ErrorCode, String)> {
    let v: Value =
        serde_json::from_str(msg).map_err(|e| (ErrorCode::BadJson, format!("not valid JSON: {e}")))?;
    let Some(obj) = v.as_object() else {
        return Err((ErrorCode::BadMessage, "a message is a JSON object with a \"type\"".into()));
    };
    let Some(ty) = obj.get("type") else {
        return Err((ErrorCode::BadMessage, "a message needs a \"type\"".into()));
    };
    let Some(ty) = ty.as_str().map(str::to_string) else {
        return Err((ErrorCode::BadMessage, "\"type\" must be a string".into()));
    };
    let ty = ty.as_str();
    const TYPES: [&str; 19] = [
        "hello",
        "join",
        "watch",
        "act",
        "chat",
        "resync",
        "leave",
        "back",
        "start",
        "next",
        "ping",
        "close",
        "remove",
        "rematch",
        "hint",
        "tracker",
        "take_back",
        "pause",
        "resume",
    ];
    if !TYPES.contains(&ty) {
        let shown: String = ty.chars().take(40).collect();
        return Err((
            ErrorCode::UnknownType,
            format!("unknown message type {shown:?}; the types are {}", TYPES.join(", ")),
        ));
    }
    serde_json::from_value(v).map_err(|e| (ErrorCode::BadMessage, format!("{ty}: {e}")))
}

// Accounts (see `docs/protocol.md`, "Accounts").

/// `POST /api/account`'s body: the guest claims an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewAccount {
    /// 3 to 20 ASCII letters, digits, `_` or `-`, beginning with a letter; unique regardless of
    /// case.
    pub username: String,
    /// 8 to 256 characters.
    pub password: String,
}

/// `POST /api/sessions`'s body: signing in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SignIn {
    /// The username, in any case.
    pub username: String,
    /// The password.
    pub password: String,
}

/// A new session (`POST /api/account` and `POST /api/sessions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionReply {
    /// The account's guest id (its seats and tables are the account's).
    pub id: String,
    /// The name shown at tables.
    pub name: String,
    /// The account's username, as written when it was claimed.
    pub username: String,
    /// The session's secret: the bearer token of the API and the `hello` of the WebSocket.
    pub token: String,
    /// When the session ends (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub expires_ms: i64,
}

/// `GET /api/account`: who the session's account is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountInfo {
    /// The account's guest id.
    pub id: String,
    /// The name shown at tables.
    pub name: String,
    /// The username it signs in with.
    pub username: String,
    /// When the account was claimed (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub created_ms: i64,
    /// When this session ends (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub expires_ms: i64,
}

/// `POST /api/account/password`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewPassword {
    /// The password now.
    pub current: String,
    /// The new password (8 to 256 characters).
    pub password: String,
}

/// `POST /api/account/delete`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DeleteAccount {
    /// The account's password.
    pub password: String,
}

/// `DELETE /api/sessions`'s answer: every session of the account is signed out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SignedOut {
    /// How many sessions were signed out (this one included).
    #[ts(type = "number")]
    pub revoked: u64,
}

/// One table of `GET /api/account/tables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountTable {
    /// The table's id.
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The table's name.
    pub name: String,
    /// Where the table is in its life.
    pub status: TableStatus,
    /// The account's seat, if it holds one.
    pub seat: Option<u8>,
    /// When the table was made, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub created_ms: i64,
}

/// `GET /api/account/tables`: the tables the account hosts or sits at, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountTables {
    /// The tables, newest first.
    pub tables: Vec<AccountTable>,
}

// Ratings (`docs/ratings.md`).

/// One account on a game's leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LeaderboardEntry {
    /// The place on the leaderboard, from 1.
    pub rank: u32,
    /// The account's username.
    pub username: String,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated matches played.
    pub games: u32,
    /// The deviation is still high: the rating is provisional.
    pub provisional: bool,
}

/// `GET /api/ratings/{game}`: the accounts that played a rated match of the game, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct LeaderboardReply {
    /// The game.
    pub game: GameKind,
    /// The accounts of this page, best first.
    pub entries: Vec<LeaderboardEntry>,
    /// How many accounts the leaderboard holds.
    pub total: u32,
    /// How many accounts come before this page.
    pub offset: u32,
    /// The most entries a page holds.
    pub limit: u32,
    /// The offset of the next page, if there is one.
    pub next: Option<u32>,
}

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GameRating {
    /// The game.
    pub game: GameKind,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility (how much the rating is expected to move).
    pub volatility: f64,
    /// Rated matches played.
    pub games: u32,
    /// Matches won (by the player's score against the others of the match).
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Matches drawn.
    pub draws: u32,
    /// The deviation is still high: the rating is provisional.
    pub provisional: bool,
}

/// How a rated match went for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RatedOutcome {
    /// More than half the points of its games.
    Win,
    /// Half.
    Draw,
    /// Less than half.
    Loss,
}

/// One rated match of a player, with the rating before and after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RatedResult {
    /// The table (its record and replay are under this id).
    pub table: String,
    /// The game.
    pub game: GameKind,
    /// When the match ended, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub at_ms: i64,
    /// The rating before the match.
    pub rating_before: f64,
    /// The rating after it.
    pub rating_after: f64,
    /// The deviation after it.
    pub deviation_after: f64,
    /// The points of the match's games (1 a win, ½ a draw).
    pub score: f64,
    /// How many games `score` is out of: one against each other seat the player was scored against.
    pub opponents: u32,
    /// How the match went for the player.
    pub outcome: RatedOutcome,
    /// The player forfeited (left, or lost on the clock).
    pub forfeited: bool,
}

/// One person's rating change in a rated match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RatingChange {
    /// The seat the person played (0–3).
    pub seat: u8,
    /// The name shown at the table.
    pub name: String,
    /// The rating before the match.
    pub rating_before: f64,
    /// The rating after it.
    pub rating_after: f64,
    /// How the match went for the person.
    pub outcome: RatedOutcome,
    /// The person forfeited (left, or lost on the clock).
    pub forfeited: bool,
}

/// `GET /api/tables/{id}/ratings`: what a finished rated match changed, one entry per person
/// with an account (empty for a table that is not rated, or not finished yet).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TableRatings {
    /// The table's id.
    pub table: String,
    /// One entry per person with an account.
    pub changes: Vec<RatingChange>,
}

/// `GET /api/players/{name}`: an account's public profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PlayerProfile {
    /// The account's username.
    pub username: String,
    /// The account's guest id: how seats and chat lines name him, and what muting, blocking and
    /// reporting him take.
    pub guest: String,
    /// When the account was made, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub joined_ms: i64,
    /// The games it has a rating in.
    pub ratings: Vec<GameRating>,
    /// Its latest rated matches, newest first.
    pub recent: Vec<RatedResult>,
    /// Its rated matches for the rating history, oldest first (at most the latest
    /// [`PROFILE_HISTORY`]).
    pub history: Vec<RatedResult>,
}

/// The most rated matches a profile's history holds.
pub const PROFILE_HISTORY: u32 = 500;

/// The most rated matches a profile lists as recent.
pub const PROFILE_RECENT: usize = 20;

/// The largest page of a leaderboard.
pub const LEADERBOARD_PAGE_MAX: u32 = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_parse_or_say_why_not() {
        assert_eq!(parse(r#"{"type":"hello","token":"x"}"#).unwrap(), ClientMsg::Hello { token: "x".into() });
        assert_eq!(
            parse(r#"{"type":"act","action":{"play":"M9"},"move":7}"#).unwrap(),
            ClientMsg::Act {
                action: ActAction::Madiao(madiao::Action::Play("M9".parse().unwrap())),
                move_no: Some(7),
                seat: None
            }
        );
        assert_eq!(
            parse(r#"{"type":"join","table":"t1"}"#).unwrap(),
            ClientMsg::Join { table: "t1".into(), seat: None }
        );
        assert_eq!(parse("{nope").unwrap_err().0, ErrorCode::BadJson);
        assert_eq!(parse("[1]").unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"x":1}"#).unwrap_err().0, ErrorCode::BadMessage);
        assert_eq!(parse(r#"{"type":3}"#).unwrap_err().0, ErrorCode::BadMessage);
        let (code, msg) = parse(r#"{"type":"fly"}"#).unwrap_err();
        assert_eq!(code, ErrorCode::UnknownType);
        assert!(msg.contains("\"fly\"") && msg.contains("hello, join"), "{msg}");
        let (code, msg) = parse(r#"{"type":"join","seat":1}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(msg.contains("missing field `table`"), "{msg}");
        let (code, _) = parse(r#"{"type":"join","table":"t","seat":9999}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
    }

    /// Serializes, deserializes and compares a message, and checks its JSON is unchanged.
    fn round_trip<T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(m: &T) {
        let text = serde_json::to_string(m).unwrap();
        let back: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(&back, m, "{text}");
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
    }

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    #[test]
    fn every_client_message_round_trips() {
        let md = ActAction::Madiao(madiao::Action::Play("M9".parse().unwrap()));
        let cards: dabaifen::Cards =
            ["AS", "KS"].iter().map(|c| c.parse::<dabaifen::Card>().unwrap()).collect();
        let dbf = ActAction::Dabaifen(dabaifen::Action::Play(cards));
        let msgs = [
            ClientMsg::Hello { token: "t".into() },
            ClientMsg::Join { table: "t1".into(), seat: Some(2) },
            ClientMsg::Join { table: "t1".into(), seat: None },
            ClientMsg::Watch { table: "t1".into() },
            ClientMsg::Act { action: md, move_no: Some(3), seat: Some(1) },
            ClientMsg::Act { action: dbf, move_no: None, seat: None },
            ClientMsg::Act { action: ActAction::Other(json!({"fly": 1})), move_no: None, seat: None },
            ClientMsg::Act { action: ActAction::Stake(StakeChoice { stake: 6 }), move_no: None, seat: None },
            ClientMsg::Chat { text: "hi".into() },
            ClientMsg::Resync,
            ClientMsg::Leave,
            ClientMsg::Back,
            ClientMsg::Start,
            ClientMsg::Next,
            ClientMsg::Ping,
            ClientMsg::Close { keep: false },
            ClientMsg::Close { keep: true },
            ClientMsg::TakeBack,
            ClientMsg::Pause,
            ClientMsg::Resume,
            ClientMsg::Remove { seat: 2 },
            ClientMsg::Rematch,
        ];
        for m in &msgs {
            round_trip(m);
        }
        // Each game's actions are read as that game's, whatever the table.
        assert!(matches!(
            parse(r#"{"type":"act","action":{"declare":"2H"}}"#).unwrap(),
            ClientMsg::Act { action: ActAction::Dabaifen(dabaifen::Action::Declare(_)), .. }
        ));
        assert!(matches!(
            parse(r#"{"type":"act","action":{"redeal":true}}"#).unwrap(),
            ClientMsg::Act { action: ActAction::Madiao(madiao::Action::Redeal(true)), .. }
        ));
        assert!(matches!(
            parse(r#"{"type":"act","action":{"stake":6}}"#).unwrap(),
            ClientMsg::Act { action: ActAction::Stake(StakeChoice { stake: 6 }), .. }
        ));
        assert!(matches!(
            parse(r#"{"type":"act","action":{"stake":6,"play":"M9"}}"#).unwrap(),
            ClientMsg::Act { action: ActAction::Other(_), .. }
        ));
    }

    #[test]
    fn every_server_message_round_trips() {
        let seat_info = SeatInfo {
            seat: 0,
            kind: SeatKind::Bot,
            name: Some("bot:x".into()),
            bot: Some("x".into()),
            guest: None,
            present: false,
            away: false,
            bot_plays: true,
            grace_ms: Some(1500),
            invited: Some("Ann".into()),
        };
        let table = TableSummary {
            id: "t1".into(),
            name: "n".into(),
            game: GameKind::Madiao,
            rules: "standard".into(),
            variants: serde_json::Map::new(),
            stake: Some(2),
            stake_max: Some(8),
            turn_seconds: 30,
            untimed: false,
            bank_seconds: 60,
            private: false,
            status: TableStatus::Playing,
            host: Some("g1".into()),
            seats: vec![seat_info.clone()],
            open_seats: 0,
            spectators: 1,
            hands: 0,
            created_ms: 5,
            pace: crate::settings::Pace::Relaxed,
            grace_seconds: 15,
            zero_cash: Some(madiao::ZeroCash::WangYing),
            rated: true,
        };
        let madiao_match = MatchSummary::Madiao(MadiaoMatch {
            hands: 1,
            totals: [1.5, -0.5, -0.5, -0.5],
            stakes: vec![6],
            chips: [9.0, -3.0, -3.0, -3.0],
            banked: [true, false, false, false],
            next_banker: Some(seat(1)),
            over: false,
        });
        let dabaifen_match = MatchSummary::Dabaifen(DabaifenMatch {
            hands: 2,
            ranks: [serde_json::from_str("\"3\"").unwrap(), serde_json::from_str("\"5\"").unwrap()],
            next_starter: seat(2),
            deals_won: [1, 1],
            over: false,
            winner: None,
        });
        let chat = ChatMessage {
            seq: 0,
            at_ms: 1,
            name: "a".into(),
            seat: Some(1),
            guest: Some("g".into()),
            text: "hi".into(),
        };
        let legal = Legal::Redeal { requested: true };
        let sync = SyncMsg {
            v: 3,
            table,
            you: You { seat: Some(seat(0)), guest: "g1".into(), name: "a".into(), host: true },
            hand: 0,
            move_no: 4,
            view: Some(
                madiao::State::new(madiao::HandSetup::new(seat(0), madiao::deck_from_seed(1, 0)))
                    .unwrap()
                    .view_for(cards::Viewer::Spectator)
                    .into(),
            ),
            legal: Some(legal.clone()),
            timer: Some(Timer::Turn { seat: seat(0), remaining_ms: Some(100), bank_ms: Some(20_000) }),
            match_: Some(madiao_match),
            results: Vec::new(),
            chat: vec![chat.clone()],
            watchers: vec!["Bo".into()],
            rematch: Some("t2".into()),
        };
        let events = [
            TableEvent::Start,
            TableEvent::HandStart { hand: 1 },
            TableEvent::Draw { drawn: 7 },
            TableEvent::DrawEnd,
            TableEvent::Action {
                seat: seat(1),
                action: PublicAction::Madiao(madiao::Action::Slough("S1".parse().unwrap())),
                by_bot: true,
            },
            TableEvent::Action {
                seat: seat(1),
                action: PublicAction::Hidden(HiddenAction::Slough(())),
                by_bot: false,
            },
            TableEvent::Action {
                seat: seat(2),
                action: PublicAction::Hidden(HiddenAction::Bury(())),
                by_bot: false,
            },
            TableEvent::Action {
                seat: seat(3),
                action: PublicAction::Dabaifen(dabaifen::Action::Declare("2H".parse().unwrap())),
                by_bot: false,
            },
            TableEvent::Stake { seat: seat(0), stake: 6, by_bot: false },
            TableEvent::Window { closes_in_ms: 4000 },
            TableEvent::WindowClosed {
                outcome: WindowOutcome::Redeal(RedealOutcome { redeal_forced_by: Some(seat(2)) }),
            },
            TableEvent::WindowClosed { outcome: WindowOutcome::Annul(AnnulOutcome { annulled_by: None }) },
            TableEvent::WindowClosed {
                outcome: WindowOutcome::Redeal(RedealOutcome { redeal_forced_by: None }),
            },
        ];
        let mut msgs = vec![
            ServerMsg::Welcome(WelcomeMsg { guest: GuestInfo { id: "g1".into(), name: "a".into() } }),
            ServerMsg::Sync(Box::new(sync)),
            ServerMsg::Seats(SeatsMsg {
                v: 4,
                seats: vec![seat_info],
                spectators: 0,
                watchers: vec!["Cy".into()],
                status: TableStatus::Parked,
                timer: Some(Timer::NextHand { remaining_ms: Some(5), ready: vec![seat(2)] }),
            }),
            ServerMsg::Chat(ChatMsg { v: 5, message: chat }),
            ServerMsg::ChatRemoved(ChatRemovedMsg { v: 5, seq: 3 }),
            ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Request, legal: Some(Some(legal)) }),
            ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Request, legal: Some(None) }),
            ServerMsg::Ack(AckMsg {
                v: 6,
                what: AckWhat::Request,
                legal: Some(Some(Legal::Stake { low: 2, high: 8 })),
            }),
            ServerMsg::Ack(AckMsg { v: 6, what: AckWhat::Next, legal: None }),
            ServerMsg::Error(ErrorMsg { code: ErrorCode::Illegal, message: "no".into(), v: Some(2) }),
            ServerMsg::Error(ErrorMsg { code: ErrorCode::BadJson, message: "no".into(), v: None }),
            ServerMsg::Host(HostMsg {
                v: 7,
                event: HostEvent::Closed { by: "Ann".into(), hands: 2, kept: false },
            }),
            ServerMsg::Host(HostMsg { v: 8, event: HostEvent::Removed { seat: seat(1), name: "Bo".into() } }),
            ServerMsg::Host(HostMsg { v: 9, event: HostEvent::Rematch { table: "t2".into() } }),
            ServerMsg::Pong,
        ];
        for (i, event) in events.into_iter().enumerate() {
            msgs.push(ServerMsg::Update(UpdateMsg {
                v: 10 + i as u64,
                event,
                hand: 0,
                move_no: 1,
                view: (i % 2 == 0).then(|| {
                    let deck = dabaifen::deck_from_seed(3, i as u64);
                    let setup = dabaifen::DealSetup::first(deck, seat(1), dabaifen::Variants::STANDARD);
                    dabaifen::State::new(&setup).unwrap().view(seat(1)).into()
                }),
                legal: None,
                timer: Some(Timer::Draw { every_ms: 250 }),
                match_: Some(dabaifen_match.clone()),
            }));
        }
        for m in &msgs {
            round_trip(m);
        }
    }

    /// A table's settings as stored and as asked for: the zero cash's default and its values.
    #[test]
    fn the_zero_cash_defaults_to_an_unnamed_figure_for_stored_tables_and_old_clients() {
        // A table stored before the choice existed.
        let stored = r#"{"name":"t","game":"madiao","rules":"standard","turn_seconds":30}"#;
        let doc: crate::settings::TableSettings = serde_json::from_str(stored).unwrap();
        assert_eq!(doc.zero_cash, madiao::ZeroCash::Unnamed);
        let chosen =
            r#"{"name":"t","game":"madiao","rules":"standard","turn_seconds":30,"zero_cash":"wang_ying"}"#;
        let doc: crate::settings::TableSettings = serde_json::from_str(chosen).unwrap();
        assert_eq!(doc.zero_cash, madiao::ZeroCash::WangYing);
        let back: crate::settings::TableSettings =
            serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
        assert_eq!(back, doc);
        // A client that does not send it; one that sends a value that does not exist.
        let req: NewTable = serde_json::from_str(r#"{"game":"madiao"}"#).unwrap();
        assert_eq!(req.zero_cash, madiao::ZeroCash::Unnamed);
        let req: NewTable = serde_json::from_str(r#"{"game":"madiao","zero_cash":"blank"}"#).unwrap();
        assert_eq!(req.zero_cash, madiao::ZeroCash::Blank);
        let err =
            serde_json::from_str::<NewTable>(r#"{"game":"madiao","zero_cash":"portrait"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant `portrait`"), "{err}");
    }

    #[test]
    fn errors_carry_code_message_and_version() {
        let e = error(ErrorCode::NotYourTurn, "it is seat 2's turn", Some(7));
        let v: Value = serde_json::from_str(&e).unwrap();
        assert_eq!(
            v,
            json!({"type": "error", "code": "not_your_turn", "message": "it is seat 2's turn", "v": 7})
        );
    }
}
