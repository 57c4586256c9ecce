//! The one model the interface shows, built from the server protocol's messages (`sync`,
//! `update`, `seats`, `ack`, `error`; `docs/protocol.md`). Both table drivers speak them: the
//! remote driver passes on what the server sends, the local driver writes the same messages from
//! its engines and bots. So what is on the screen is built one way in both modes.

use std::collections::BTreeMap;

use cards::record::{DabaifenResult, GameKind, MadiaoResult};
use cards::{Halves, Seat};
use serde::Deserialize;
use serde_json::Value;
pub use table::game::{LeadGroup, Legal};

/// A seat of a table as the server describes it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SeatInfo {
    /// 0–3.
    pub seat: Seat,
    /// `person`, `bot` or `open`.
    pub kind: String,
    /// The player's name (`bot:NAME` for a bot), if the seat is taken.
    #[serde(default)]
    pub name: Option<String>,
    /// A person's seat has a live connection.
    #[serde(default)]
    pub present: bool,
    /// A person whose clock ran out: a bot plays for him.
    #[serde(default)]
    pub away: bool,
    /// A bot plays this seat now.
    #[serde(default)]
    pub bot_plays: bool,
}

/// A table (the protocol's TABLE).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TableInfo {
    /// The table's id (`local` for an offline match).
    pub id: String,
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// `madiao` or `dabaifen`.
    pub game: GameKind,
    /// The rules preset.
    #[serde(default)]
    pub rules: String,
    /// Every variant in force.
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// Madiao: chips per stake.
    #[serde(default)]
    pub stake: Option<u32>,
    /// `waiting`, `playing` or `finished`.
    #[serde(default)]
    pub status: String,
    /// The four seats.
    #[serde(default)]
    pub seats: Vec<SeatInfo>,
    /// Open seats (lobby).
    #[serde(default)]
    pub open_seats: u8,
    /// Hands played (lobby).
    #[serde(default)]
    pub hands: u32,
}

/// Who the connection is.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct You {
    /// The seat, or `None` for a spectator.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// The name.
    #[serde(default)]
    pub name: String,
}

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Timer {
    /// `turn`, `bot`, `draw`, `window` or `next_hand`.
    pub what: String,
    /// The seat whose turn it is.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// Time left on a clock (absent offline, where nothing is timed).
    #[serde(default)]
    pub remaining_ms: Option<u64>,
    /// The draw's pace.
    #[serde(default)]
    pub every_ms: Option<u64>,
}

/// The running score of a match.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum MatchSummary {
    /// Madiao: totals in stakes.
    Madiao {
        /// Hands finished.
        hands: u32,
        /// Each seat's total, in stakes.
        totals: [f64; 4],
        /// Seats that have banked.
        banked: [bool; 4],
        /// The next banker (`None`: drawn).
        next_banker: Option<Seat>,
        /// The match is over.
        over: bool,
    },
    /// Da Bai Fen: team ranks.
    Dabaifen {
        /// Deals finished.
        hands: u32,
        /// The team ranks.
        ranks: [String; 2],
        /// The next starter.
        next_starter: Seat,
        /// Deals won by each team.
        deals_won: [u32; 2],
        /// The game is over.
        over: bool,
        /// The team that won the game.
        winner: Option<u8>,
    },
}

impl MatchSummary {
    /// True once the match is over.
    pub fn over(&self) -> bool {
        match self {
            MatchSummary::Madiao { over, .. } | MatchSummary::Dabaifen { over, .. } => *over,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Madiao's view

/// A long-suit holder's answer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RedealChoice {
    /// Who.
    pub seat: Seat,
    /// Forced a redeal.
    pub redeal: bool,
}

/// One card played.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MPlay {
    /// Who.
    pub seat: Seat,
    /// `lead`, `capture`, `slough` or `discard`.
    pub kind: String,
    /// Face up.
    pub face_up: bool,
    /// The card, when this seat may see it.
    pub card: Option<madiao::Card>,
    /// False for a card that cannot win.
    pub can_win: bool,
}

/// One trick.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MTrick {
    /// 1–8.
    pub number: u8,
    /// Who led.
    pub leader: Seat,
    /// The plays so far.
    pub plays: Vec<MPlay>,
    /// The winner once complete.
    pub winner: Option<Seat>,
    /// Who is winning it so far (the engine's rules say; the winner once complete).
    #[serde(default)]
    pub leading: Option<Seat>,
    /// The best card so far: a face-up card captures when of its suit and higher.
    #[serde(default)]
    pub best: Option<madiao::Card>,
}

/// Cards shown when a hand ends before play.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Declared {
    /// Who.
    pub seat: Seat,
    /// `meld`, `four_lowest`, `long_suit`, `hm_exemption`.
    pub what: String,
    /// The cards.
    pub cards: Vec<madiao::Card>,
}

/// One settlement line, in words.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SettlementLine {
    /// Whose line.
    pub seat: Seat,
    /// Counted (false: listed but not counted under `largest_only`).
    pub counted: bool,
    /// What each seat gains, in stakes.
    pub transfers: [Halves; 4],
    /// The line in words.
    pub text: String,
}

/// A hand's settlement.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Settlement {
    /// The lines in order.
    pub lines: Vec<SettlementLine>,
    /// Each seat's total.
    pub totals: [Halves; 4],
}

/// What a seat sees of a Madiao hand (`madiao::View` as JSON).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct MadiaoView {
    /// Whose view (`None`: a spectator's).
    pub seat: Option<Seat>,
    /// The banker.
    pub banker: Seat,
    /// Chips per stake.
    pub stake: u32,
    /// The rules.
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// Who leads trick 1.
    pub first_recipient: Seat,
    /// The stock's face-up card.
    pub upcard: madiao::Card,
    /// `redeal`, `play` or `over`.
    pub phase: String,
    /// Whose turn.
    pub to_move: Option<Seat>,
    /// The seat's cards, highest first.
    pub hand: Vec<madiao::Card>,
    /// Cards per seat.
    pub hand_sizes: [u8; 4],
    /// Redeal answers shown.
    #[serde(default)]
    pub redeal_choices: Vec<RedealChoice>,
    /// Every trick begun.
    pub tricks: Vec<MTrick>,
    /// Tricks won per seat.
    pub tricks_won: [u8; 4],
    /// Cards shown for a meld, the four lowest, a long suit.
    #[serde(default)]
    pub declared: Vec<Declared>,
    /// The stock card under the upcard, once a played hand is over.
    #[serde(default)]
    pub exposed_stock_card: Option<madiao::Card>,
    /// The result once over.
    #[serde(default)]
    pub result: Option<MadiaoResult>,
    /// The settlement once over.
    #[serde(default)]
    pub settlement: Option<Settlement>,
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen's view

/// A declaration.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Declaration {
    /// Who showed.
    pub seat: Seat,
    /// The card.
    pub card: dabaifen::Card,
    /// Cards drawn when it was shown.
    pub drawn: u8,
}

/// How the kitty was turned.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct KittyTurn {
    /// Cards turned.
    pub turned: u8,
    /// The card that fixed the suit.
    pub card: dabaifen::Card,
    /// It was of the trump rank.
    pub by_rank: bool,
}

/// One play of a trick.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DPlay {
    /// Who.
    pub seat: Seat,
    /// The cards.
    pub cards: Vec<dabaifen::Card>,
}

/// One trick.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DTrick {
    /// Who led.
    pub leader: Seat,
    /// The plays so far.
    pub plays: Vec<DPlay>,
    /// The winner once complete.
    pub winner: Option<Seat>,
    /// Who is winning it so far (the engine's rules say; the winner once complete).
    #[serde(default)]
    pub leading: Option<Seat>,
    /// The points once complete.
    pub points: Option<u32>,
}

/// One line of a deal's account, as JSON carries it (`dabaifen::Event`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum AccountLine {
    /// A declaration.
    Declared { seat: Seat, card: dabaifen::Card, drawn: u8, trump: dabaifen::Trump, became_starter: bool },
    /// The kitty turned.
    KittyTurned {
        starter: Seat,
        turned: Vec<dabaifen::Card>,
        card: dabaifen::Card,
        by_rank: bool,
        trump: dabaifen::Trump,
    },
    /// An open deal with no showing.
    NoShowing,
    /// A seat kept a hand without trump.
    KeptDeal { seat: Seat },
    /// An annulment.
    Annulled { seat: Seat, hand: Vec<dabaifen::Card> },
    /// The burial.
    Buried { seat: Seat, cards: Vec<dabaifen::Card>, points: u32 },
    /// A trick.
    Trick {
        number: u8,
        plays: Vec<(Seat, Vec<dabaifen::Card>)>,
        winner: Seat,
        points: u32,
        to_defenders: bool,
    },
    /// A revoke.
    Revoke { seat: Seat, cards: Vec<dabaifen::Card>, not_top: Vec<(dabaifen::Card, Seat, dabaifen::Card)> },
    /// The kitty's bonus.
    Kitty { team: u8, to_defenders: bool, kitty_points: u32, multiplier: u32, bonus: u32 },
    /// The total and the table row.
    Total { in_tricks: u32, bonus: u32, total: u32, revoke: bool, declarers_win: bool, levels: u8 },
    /// A rank moved.
    RankUp { team: u8, from: dabaifen::Rank, to: dabaifen::Rank },
    /// The next starter.
    NextStarter { seat: Seat, why: String },
    /// The game is over.
    GameOver { team: u8 },
}

impl AccountLine {
    /// The line in words, as the engine writes it.
    pub fn text(&self) -> String {
        use dabaifen::Event as E;
        let e = match self.clone() {
            AccountLine::Declared { seat, card, drawn, trump, became_starter } => {
                E::Declared { seat, card, drawn, trump, became_starter }
            }
            AccountLine::KittyTurned { starter, turned, card, by_rank, trump } => {
                E::KittyTurned { starter, turned, card, by_rank, trump }
            }
            AccountLine::NoShowing => E::NoShowing,
            AccountLine::KeptDeal { seat } => E::KeptDeal { seat },
            AccountLine::Annulled { seat, hand } => E::Annulled { seat, hand },
            AccountLine::Buried { seat, cards, points } => E::Buried { seat, cards, points },
            AccountLine::Trick { number, plays, winner, points, to_defenders } => {
                E::Trick { number, plays, winner, points, to_defenders }
            }
            AccountLine::Revoke { seat, cards, not_top } => E::Revoke { seat, cards, not_top },
            AccountLine::Kitty { team, to_defenders, kitty_points, multiplier, bonus } => {
                E::Kitty { team, to_defenders, kitty_points, multiplier, bonus }
            }
            AccountLine::Total { in_tricks, bonus, total, revoke, declarers_win, levels } => {
                E::Total { in_tricks, bonus, total, revoke, declarers_win, levels }
            }
            AccountLine::RankUp { team, from, to } => E::RankUp { team, from, to },
            // The reason is a fixed text of the engine's; written the engine's way.
            AccountLine::NextStarter { seat, why } => return format!("next starter: {seat} ({why})"),
            AccountLine::GameOver { team } => E::GameOver { team },
        };
        e.to_string()
    }
}

/// A deal's account.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Account {
    /// The lines in order.
    pub lines: Vec<AccountLine>,
}

/// What a seat sees of a Da Bai Fen deal (`dabaifen::View` as JSON).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct DabaifenView {
    /// Whose view (`None`: a spectator's).
    pub seat: Option<Seat>,
    /// `drawing`, `annulling`, `burying`, `playing` or `over`.
    pub phase: String,
    /// Whose turn (never shown during the draw and the annulment window).
    pub to_move: Option<Seat>,
    /// The rules.
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// The match's first deal.
    pub first_deal: bool,
    /// An open deal.
    pub open: bool,
    /// Team ranks before the deal.
    pub ranks: [dabaifen::Rank; 2],
    /// The starter who drew first.
    pub provisional_starter: Seat,
    /// The starter as things stand.
    pub starter: Seat,
    /// Who took the first card.
    pub first_drawer: Seat,
    /// Cards drawn so far.
    pub drawn: u8,
    /// The seat's cards.
    pub hand: Vec<dabaifen::Card>,
    /// Cards per seat.
    pub hand_sizes: [u8; 4],
    /// The declaration.
    pub declaration: Option<Declaration>,
    /// The kitty turn.
    pub kitty_turn: Option<KittyTurn>,
    /// Kitty cards turned face up.
    #[serde(default)]
    pub kitty_turned: Vec<dabaifen::Card>,
    /// Trumps once fixed.
    pub trump: Option<dabaifen::Trump>,
    /// A hand shown to annul.
    pub annulment: Option<(Seat, Vec<dabaifen::Card>)>,
    /// The kitty as taken (the starter only).
    pub kitty: Option<Vec<dabaifen::Card>>,
    /// The buried cards (the starter; everyone once scored).
    pub buried: Option<Vec<dabaifen::Card>>,
    /// The tricks.
    pub tricks: Vec<DTrick>,
    /// Card points per team.
    pub team_points: [u32; 2],
    /// The seat that revoked.
    pub revoke: Option<Seat>,
    /// The result once over (the record's result object plus details).
    #[serde(default)]
    pub result: Option<DabaifenResult>,
    /// The account once over.
    #[serde(default)]
    pub account: Option<Account>,
}

/// A view of either game.
#[derive(Clone, Debug, PartialEq)]
pub enum GameView {
    /// Madiao.
    Madiao(Box<MadiaoView>),
    /// Da Bai Fen.
    Dabaifen(Box<DabaifenView>),
}

impl GameView {
    /// Reads a view of `game` from its JSON.
    pub fn parse(game: GameKind, v: &Value) -> Result<GameView, String> {
        match game {
            GameKind::Madiao => serde_json::from_value::<MadiaoView>(v.clone())
                .map(|x| GameView::Madiao(Box::new(x)))
                .map_err(|e| format!("a Madiao view the client cannot read: {e}")),
            GameKind::Dabaifen => serde_json::from_value::<DabaifenView>(v.clone())
                .map(|x| GameView::Dabaifen(Box::new(x)))
                .map_err(|e| format!("a Da Bai Fen view the client cannot read: {e}")),
        }
    }

    /// The seat's cards as codes, in the view's order.
    pub fn hand_codes(&self) -> Vec<String> {
        match self {
            GameView::Madiao(v) => v.hand.iter().map(|c| c.code().to_string()).collect(),
            GameView::Dabaifen(v) => v.hand.iter().map(|c| c.to_string()).collect(),
        }
    }

    /// True once the hand is over.
    pub fn is_over(&self) -> bool {
        match self {
            GameView::Madiao(v) => v.phase == "over",
            GameView::Dabaifen(v) => v.phase == "over",
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The model

/// How the connection stands (always `Connected` offline).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Connection {
    /// Messages flow.
    Connected,
    /// Connecting, or reconnecting after a drop; the text says which and how it goes.
    Connecting(String),
}

/// Everything the screen shows of the table.
#[derive(Clone, Debug)]
pub struct Model {
    /// The game, once known.
    pub game: Option<GameKind>,
    /// The table.
    pub table: Option<TableInfo>,
    /// The seat this client plays.
    pub me: Option<Seat>,
    /// The current hand of the match (from 0).
    pub hand: u32,
    /// The move count the server quotes.
    pub move_no: u64,
    /// The seat's view, once the match has begun.
    pub view: Option<GameView>,
    /// The seat's decision, if it has one now.
    pub legal: Option<Legal>,
    /// What the table waits for.
    pub timer: Option<Timer>,
    /// When `timer` arrived (for its countdown).
    pub timer_at: Option<std::time::Instant>,
    /// The running score.
    pub summary: Option<MatchSummary>,
    /// The result objects of the finished hands.
    pub results: Vec<Value>,
    /// Events of the hand that the view does not keep (windows, the draw's end), in words.
    pub notes: Vec<String>,
    /// The last error the table sent, in words.
    pub error: Option<String>,
    /// A line from the driver (connection, record saved).
    pub status: Option<String>,
    /// The connection.
    pub connection: Connection,
    /// Tables offered by a server's lobby (remote mode before joining).
    pub lobby: Option<Vec<TableInfo>>,
    /// The server's address in the lobby.
    pub lobby_server: String,
    /// Bumped on every change of the decision (to reset the selection).
    pub decision_seq: u64,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            game: None,
            table: None,
            me: None,
            hand: 0,
            move_no: 0,
            view: None,
            legal: None,
            timer: None,
            timer_at: None,
            summary: None,
            results: Vec::new(),
            notes: Vec::new(),
            error: None,
            status: None,
            connection: Connection::Connecting("connecting…".into()),
            lobby: None,
            lobby_server: String::new(),
            decision_seq: 0,
        }
    }
}

fn opt<T: for<'de> Deserialize<'de>>(v: &Value, what: &str) -> Result<Option<T>, String> {
    if v.is_null() {
        return Ok(None);
    }
    serde_json::from_value(v.clone()).map(Some).map_err(|e| format!("{what}: {e}"))
}

impl Model {
    /// The name shown for a seat: "You" for one's own, else the seat's player name.
    pub fn seat_name(&self, s: Seat) -> String {
        if Some(s) == self.me {
            return "You".into();
        }
        self.table
            .as_ref()
            .and_then(|t| t.seats.iter().find(|x| x.seat == s))
            .and_then(|x| x.name.clone())
            .unwrap_or_else(|| "open seat".into())
    }

    /// A seat as the table shows it: "You", or "seat 1 · heuristic" for a bot, "seat 1 · Ann".
    pub fn seat_label(&self, s: Seat) -> String {
        if Some(s) == self.me {
            return format!("You · seat {}", s.number());
        }
        let name = self.seat_name(s);
        let mut l = format!("seat {} · {}", s.number(), name.strip_prefix("bot:").unwrap_or(&name));
        // At a server: a person who is gone or away is played by a bot meanwhile.
        if let Some(i) = self.seat_info(s)
            && i.kind == "person"
        {
            if !i.present {
                l.push_str(" (gone: a bot plays)");
            } else if i.away {
                l.push_str(" (away: a bot plays)");
            }
        }
        l
    }

    /// The seat's information from the table.
    pub fn seat_info(&self, s: Seat) -> Option<&SeatInfo> {
        self.table.as_ref().and_then(|t| t.seats.iter().find(|x| x.seat == s))
    }

    /// The table's variant `name`, if known.
    pub fn variant(&self, name: &str) -> Option<&str> {
        self.table.as_ref().and_then(|t| t.variants.get(name)).map(String::as_str)
    }

    fn set_view(&mut self, view: &Value) -> Result<(), String> {
        self.view = match (self.game, view.is_null()) {
            (_, true) => None,
            (Some(g), false) => Some(GameView::parse(g, view)?),
            (None, false) => return Err("a view before the table is known".into()),
        };
        Ok(())
    }

    fn set_legal(&mut self, legal: &Value) -> Result<(), String> {
        let new: Option<Legal> = opt(legal, "legal")?;
        if new != self.legal {
            // A new decision (not just a request's echo) starts a fresh selection.
            let same_kind = matches!(
                (&new, &self.legal),
                (Some(Legal::Declare { .. }), Some(Legal::Declare { .. }))
                    | (Some(Legal::Annul { .. }), Some(Legal::Annul { .. }))
                    | (Some(Legal::Redeal { .. }), Some(Legal::Redeal { .. }))
            );
            if !same_kind {
                self.decision_seq += 1;
            }
            self.legal = new;
        }
        Ok(())
    }

    fn set_timer(&mut self, timer: &Value, now: std::time::Instant) -> Result<(), String> {
        self.timer = opt(timer, "timer")?;
        self.timer_at = Some(now);
        Ok(())
    }

    /// Takes one protocol message; returns an error in words for a message the client cannot
    /// read (the model is then left as it was, except for what was read before the error).
    pub fn apply(&mut self, msg: &Value, now: std::time::Instant) -> Result<(), String> {
        let ty = msg["type"].as_str().unwrap_or("");
        match ty {
            "sync" => {
                let table: TableInfo =
                    serde_json::from_value(msg["table"].clone()).map_err(|e| format!("sync: table: {e}"))?;
                let you: You =
                    serde_json::from_value(msg["you"].clone()).map_err(|e| format!("sync: you: {e}"))?;
                self.game = Some(table.game);
                self.table = Some(table);
                self.me = you.seat;
                self.connection = Connection::Connected;
                self.lobby = None;
                self.hand = msg["hand"].as_u64().unwrap_or(0) as u32;
                self.move_no = msg["move"].as_u64().unwrap_or(0);
                self.set_view(&msg["view"])?;
                self.set_legal(&msg["legal"])?;
                self.set_timer(&msg["timer"], now)?;
                self.summary = opt(&msg["match"], "match")?;
                self.results = msg["results"].as_array().cloned().unwrap_or_default();
                self.notes.clear();
                self.error = None;
            }
            "update" => {
                let hand = msg["hand"].as_u64().unwrap_or(0) as u32;
                let event = &msg["event"];
                let kind = event["kind"].as_str().unwrap_or("");
                if hand != self.hand || kind == "hand_start" || kind == "start" {
                    self.notes.clear();
                }
                // A finished hand's result joins the results when the next one starts.
                if let Some(v) = &self.view
                    && v.is_over()
                    && hand != self.hand
                    && let Some(r) = self.current_result()
                {
                    self.results.push(r);
                }
                self.hand = hand;
                self.move_no = msg["move"].as_u64().unwrap_or(self.move_no);
                self.set_view(&msg["view"])?;
                self.set_legal(&msg["legal"])?;
                self.set_timer(&msg["timer"], now)?;
                self.summary = opt(&msg["match"], "match")?.or(self.summary.take());
                self.error = None;
                match kind {
                    "draw_end" => self.notes.push("the draw is over: nobody showed a card".into()),
                    "window_closed" => {
                        let o = &event["outcome"];
                        // Only what someone did: that nobody acted says nothing worth a line.
                        let text = if let Some(s) = o.get("redeal_forced_by").and_then(Value::as_u64) {
                            format!("seat {s} forced a redeal with a long suit")
                        } else if let Some(s) = o.get("annulled_by").and_then(Value::as_u64) {
                            format!("seat {s} annulled the deal (a hand without trumps)")
                        } else {
                            String::new()
                        };
                        if !text.is_empty() {
                            self.notes.push(text);
                        }
                    }
                    _ => {}
                }
            }
            "seats" => {
                let seats: Vec<SeatInfo> =
                    serde_json::from_value(msg["seats"].clone()).map_err(|e| format!("seats: {e}"))?;
                if let Some(t) = &mut self.table {
                    t.seats = seats;
                    if let Some(s) = msg["status"].as_str() {
                        t.status = s.to_string();
                    }
                }
                if msg.get("timer").is_some() {
                    self.set_timer(&msg["timer"], now)?;
                }
            }
            "ack" if msg.get("legal").is_some() => self.set_legal(&msg["legal"])?,
            "error" => {
                let code = msg["code"].as_str().unwrap_or("error");
                let text = msg["message"].as_str().unwrap_or("");
                self.error =
                    Some(if code == "illegal" { text.to_string() } else { format!("{code}: {text}") });
            }
            _ => {}
        }
        Ok(())
    }

    /// The result object of the current hand, once it is over.
    pub fn current_result(&self) -> Option<Value> {
        match &self.view {
            Some(GameView::Madiao(v)) => v.result.as_ref().and_then(|r| serde_json::to_value(r).ok()),
            Some(GameView::Dabaifen(v)) => v.result.as_ref().and_then(|r| serde_json::to_value(r).ok()),
            None => None,
        }
    }

    /// True once the match is over.
    pub fn match_over(&self) -> bool {
        self.summary.as_ref().is_some_and(MatchSummary::over)
            || self.table.as_ref().is_some_and(|t| t.status == "finished")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_lines_read_back_as_the_engine_writes_them() {
        use dabaifen::random::RandomPolicy;
        use dabaifen::{Match, Variants, deal_from_seed};
        // A few deals of random play: every account line read from JSON says what the engine says.
        let mut checked = 0;
        for seed in 0..20 {
            let m = Match::new(Variants::STANDARD, Seat::ALL[(seed % 4) as usize]);
            let (deck, rng) = deal_from_seed(seed, 0);
            let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
            let mut policy = RandomPolicy::new(rng);
            while st.to_move().is_some() {
                let a = policy.choose(&st);
                st.apply(a).unwrap();
            }
            let account = st.account();
            let json = serde_json::to_value(&account).unwrap();
            let read: Account = serde_json::from_value(json).unwrap();
            assert_eq!(read.lines.len(), account.lines.len());
            for (a, b) in read.lines.iter().zip(&account.lines) {
                assert_eq!(a.text(), b.to_string());
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn unreadable_messages_are_errors_not_panics() {
        let now = std::time::Instant::now();
        let mut m = Model::default();
        for bad in [
            serde_json::json!({"type": "sync"}),
            serde_json::json!({"type": "sync", "table": {"id": "x", "game": "chess"}, "you": {}}),
            serde_json::json!({"type": "update", "view": {"seat": 9}}),
            serde_json::json!({"type": "seats", "seats": 3}),
        ] {
            assert!(m.apply(&bad, now).is_err(), "{bad}");
        }
        // Unknown types and errors are taken in.
        m.apply(&serde_json::json!({"type": "pong"}), now).unwrap();
        m.apply(
            &serde_json::json!({"type": "error", "code": "illegal", "message": "seat 0 does not hold TW"}),
            now,
        )
        .unwrap();
        assert_eq!(m.error.as_deref(), Some("seat 0 does not hold TW"));
    }
}
