//! The one model the interface shows, built from the server protocol's messages (`sync`,
//! `update`, `seats`, `ack`, `error`; `docs/protocol.md`), typed as the protocol defines them
//! ([`wire`]). Both table drivers deliver them: the remote driver passes on what the
//! server sends, the local driver what its table core writes. So what is on the screen is built
//! one way in both modes, from the engines' own views.

use cards::Seat;
use cards::record::GameKind;
pub use table::game::{LeadGroup, Legal};
pub use wire::{
    DabaifenMatch, ErrorCode, GameView, HandResult, HintMsg, HostEvent, MadiaoMatch, MatchSummary, SeatInfo,
    SeatKind, ServerMsg, TableEvent, TableStatus, TableSummary, Timer, Tracker, WindowOutcome,
};

/// What a seat sees of a Madiao hand: the engine's view.
pub type MadiaoView = madiao::View;
/// What a seat sees of a Da Bai Fen deal: the engine's view.
pub type DabaifenView = dabaifen::View;

/// The seat's cards as codes, in the view's order.
pub fn hand_codes(view: &GameView) -> Vec<String> {
    match view {
        GameView::Madiao(v) => v.hand.iter().map(|c| c.code().to_string()).collect(),
        GameView::Dabaifen(v) => v.hand.iter().map(|c| c.to_string()).collect(),
    }
}

/// True once the match a summary describes is over.
pub fn summary_over(s: &MatchSummary) -> bool {
    match s {
        MatchSummary::Madiao(m) => m.over,
        MatchSummary::Dabaifen(m) => m.over,
    }
}

/// The seat a clock belongs to, if it is a seat's.
pub fn timer_seat(t: &Timer) -> Option<Seat> {
    match t {
        Timer::Turn { seat, .. } | Timer::Bot { seat } | Timer::Grace { seat, .. } => Some(*seat),
        _ => None,
    }
}

/// The time left on a clock, when it counts down.
pub fn timer_remaining(t: &Timer) -> Option<u64> {
    match t {
        Timer::Turn { remaining_ms, .. } | Timer::NextHand { remaining_ms, .. } => *remaining_ms,
        Timer::Window { remaining_ms }
        | Timer::Trick { remaining_ms }
        | Timer::Grace { remaining_ms, .. } => Some(*remaining_ms),
        Timer::Bot { .. } | Timer::Draw { .. } | Timer::Paused => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The model

/// A message the model cannot take ([`Model::apply`]); it keeps what it had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A view of one game at a table of the other.
    #[error("a {} view at a {} table", .view.name(), .table.name())]
    OtherGame {
        /// The view's game.
        view: GameKind,
        /// The table's game.
        table: GameKind,
    },
}

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
    pub table: Option<TableSummary>,
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
    /// The results of the finished hands.
    pub results: Vec<HandResult>,
    /// Events of the hand that the view does not keep (windows, the draw's end), in words.
    pub notes: Vec<String>,
    /// The last error the table sent, in words.
    pub error: Option<String>,
    /// A line from the driver (connection, record saved).
    pub status: Option<String>,
    /// The connection.
    pub connection: Connection,
    /// Tables offered by a server's lobby (remote mode before joining).
    pub lobby: Option<Vec<TableSummary>>,
    /// The server's address in the lobby.
    pub lobby_server: String,
    /// Bumped on every change of the decision (to reset the selection).
    pub decision_seq: u64,
    /// The names of the people watching the table (as the server last told them).
    pub watchers: Vec<String>,
    /// The last hint the table gave this seat, while its move is current.
    pub hint: Option<HintMsg>,
    /// The card tracker as the table last sent it (`None` before one is asked for or means
    /// anything).
    pub tracker: Option<Tracker>,
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
            watchers: Vec::new(),
            hint: None,
            tracker: None,
        }
    }
}

impl Model {
    /// The spectators in a few words: `watching: Ann, Bo` (at most three names, then how many
    /// more), or nothing when nobody watches.
    pub fn watchers_line(&self) -> Option<String> {
        let n = self.watchers.len();
        if n == 0 {
            return None;
        }
        let shown: Vec<&str> = self.watchers.iter().take(3).map(String::as_str).collect();
        let more = if n > 3 { format!(" and {} more", n - 3) } else { String::new() };
        Some(format!("watching: {}{more}", shown.join(", ")))
    }

    /// The name shown for a seat: "You" for one's own, else the seat's player name.
    pub fn seat_name(&self, s: Seat) -> String {
        if Some(s) == self.me {
            return "You".into();
        }
        self.table
            .as_ref()
            .and_then(|t| t.seats.iter().find(|x| x.seat == s.number()))
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
            && i.kind == SeatKind::Person
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
        self.table.as_ref().and_then(|t| t.seats.iter().find(|x| x.seat == s.number()))
    }

    /// The table's variant `name`, if known.
    pub fn variant(&self, name: &str) -> Option<&str> {
        self.table.as_ref().and_then(|t| t.variants.get(name)).and_then(|v| v.as_str())
    }

    fn set_view(&mut self, view: Option<GameView>) -> Result<(), ModelError> {
        if let (Some(v), Some(g)) = (&view, self.game)
            && v.game() != g
        {
            return Err(ModelError::OtherGame { view: v.game(), table: g });
        }
        self.view = view;
        Ok(())
    }

    fn set_legal(&mut self, new: Option<Legal>) {
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
    }

    fn set_timer(&mut self, timer: Option<Timer>, now: std::time::Instant) {
        self.timer = timer;
        self.timer_at = Some(now);
    }

    /// Takes one protocol message; returns an error for a message the client cannot show (a
    /// view of the other game's: the model then keeps the view it had).
    pub fn apply(&mut self, msg: &ServerMsg, now: std::time::Instant) -> Result<(), ModelError> {
        match msg {
            ServerMsg::Sync(s) => {
                self.game = Some(s.table.game);
                self.table = Some(s.table.clone());
                self.me = s.you.seat;
                self.connection = Connection::Connected;
                self.lobby = None;
                self.hand = s.hand;
                self.move_no = s.move_no;
                self.set_legal(s.legal.clone());
                self.set_timer(s.timer.clone(), now);
                self.summary = s.match_.clone();
                self.results = s.results.clone();
                self.watchers = s.watchers.clone();
                self.notes.clear();
                self.error = None;
                self.set_view(s.view.clone())?;
            }
            ServerMsg::Update(u) => {
                if u.hand != self.hand || matches!(u.event, TableEvent::HandStart { .. } | TableEvent::Start)
                {
                    self.notes.clear();
                }
                // A finished hand's result joins the results when the next one starts.
                if u.hand != self.hand
                    && let Some(r) = self.view.as_ref().filter(|v| v.is_over()).and_then(GameView::result)
                {
                    self.results.push(r);
                }
                // The match has begun: the first update may carry no view (a Madiao banker names
                // the stake before anything is dealt), and no `seats` message says so.
                if let Some(t) = self.table.as_mut().filter(|t| t.status == TableStatus::Waiting) {
                    t.status = TableStatus::Playing;
                }
                self.hand = u.hand;
                self.move_no = u.move_no;
                if self.hint.as_ref().is_some_and(|h| h.move_no != u.move_no || u.legal.is_none()) {
                    self.hint = None;
                }
                self.set_legal(u.legal.clone());
                self.set_timer(u.timer.clone(), now);
                if u.match_.is_some() {
                    self.summary = u.match_.clone();
                }
                self.error = None;
                match &u.event {
                    TableEvent::DrawEnd => self.notes.push("the draw is over: nobody showed a card".into()),
                    TableEvent::Stake { seat, stake, .. } => {
                        self.notes.push(format!(
                            "the banker (seat {}) set the stake at {stake} chips",
                            seat.number()
                        ));
                    }
                    // Only what someone did: that nobody acted says nothing worth a line.
                    TableEvent::WindowClosed { outcome: WindowOutcome::Redeal(o) } => {
                        if let Some(s) = o.redeal_forced_by {
                            self.notes.push(format!("seat {} forced a redeal with a long suit", s.number()));
                        }
                    }
                    TableEvent::WindowClosed { outcome: WindowOutcome::Annul(o) } => {
                        if let Some(s) = o.annulled_by {
                            self.notes.push(format!(
                                "seat {} annulled the deal (a hand without trumps)",
                                s.number()
                            ));
                        }
                    }
                    _ => {}
                }
                self.set_view(u.view.clone())?;
            }
            ServerMsg::Seats(s) => {
                if let Some(t) = &mut self.table {
                    t.seats = s.seats.clone();
                    t.status = s.status;
                    t.spectators = s.spectators;
                }
                self.watchers = s.watchers.clone();
                self.set_timer(s.timer.clone(), now);
            }
            ServerMsg::Ack(a) => {
                if let Some(legal) = &a.legal {
                    self.set_legal(legal.clone());
                }
            }
            ServerMsg::Error(e) => {
                let text = &e.message;
                self.error = Some(if e.code == ErrorCode::Illegal {
                    text.clone()
                } else {
                    // The code as the protocol writes it (`not_your_turn`).
                    let code = serde_json::to_value(e.code).ok();
                    format!("{}: {text}", code.as_ref().and_then(|c| c.as_str()).unwrap_or("error"))
                });
            }
            ServerMsg::Host(h) => self.notes.push(match &h.event {
                HostEvent::Closed { by, .. } => {
                    format!("{by} (the host) closed the table: the match is over")
                }
                HostEvent::Removed { seat, name } => {
                    format!(
                        "the host removed {name} (seat {}), who was away: the seat is open",
                        seat.number()
                    )
                }
                HostEvent::Rematch { table } => format!("the host offers a rematch: table {table}"),
            }),
            ServerMsg::Hint(h) => {
                self.hint = (h.move_no == self.move_no).then(|| h.clone());
            }
            ServerMsg::Tracker(t) => self.tracker = t.tracker.clone(),
            ServerMsg::Welcome(_)
            | ServerMsg::Chat(_)
            | ServerMsg::ChatRemoved(_)
            | ServerMsg::Pong
            | ServerMsg::Moved(_)
            | ServerMsg::Deal(_)
            // Notices to the account (friends, challenges, invitations): the terminal shows none.
            | ServerMsg::Friend(_)
            | ServerMsg::Challenge(_)
            | ServerMsg::Invited(_) => {}
        }
        Ok(())
    }

    /// True once the match is over.
    pub fn match_over(&self) -> bool {
        self.summary.as_ref().is_some_and(summary_over)
            || self.table.as_ref().is_some_and(|t| t.status.is_over())
    }
}

/// A clock's kind, as the protocol names it (`turn`, `bot`, `draw`, `window`, `next_hand`,
/// `trick`, `grace`, `paused`).
pub fn timer_what(t: &Timer) -> &'static str {
    match t {
        Timer::Turn { .. } => "turn",
        Timer::Bot { .. } => "bot",
        Timer::Draw { .. } => "draw",
        Timer::Window { .. } => "window",
        Timer::NextHand { .. } => "next_hand",
        Timer::Trick { .. } => "trick",
        Timer::Grace { .. } => "grace",
        Timer::Paused => "paused",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Viewer;

    fn seat(n: u8) -> Seat {
        Seat::new(n).unwrap()
    }

    fn table_json(game: &str) -> serde_json::Value {
        serde_json::json!({
            "id": "t1", "name": "a table", "game": game, "rules": "standard", "variants": {},
            "turn_seconds": 30, "pace": "normal", "grace_seconds": 15, "private": false,
            "status": "playing", "host": null, "seats": [], "open_seats": 0, "spectators": 0,
            "hands": 0, "created_ms": 1
        })
    }

    /// A `sync` as the server writes it (JSON, with the engine's view in it) is read as the
    /// protocol's typed message, and the model holds the very view the engine made.
    #[test]
    fn a_sync_from_the_wire_gives_the_engines_view() {
        let st = madiao::State::new(madiao::HandSetup::new(seat(1), madiao::deck_from_seed(7, 0))).unwrap();
        let view = st.view(seat(2));
        let text = serde_json::json!({
            "type": "sync", "v": 3, "table": table_json("madiao"),
            "you": {"seat": 2, "guest": "g", "name": "Ann", "host": false},
            "hand": 0, "move": 5, "view": view, "legal": null,
            "timer": {"what": "turn", "seat": 1, "remaining_ms": 2500},
            "match": null, "results": [], "chat": []
        })
        .to_string();
        let msg: ServerMsg = serde_json::from_str(&text).unwrap();
        let mut m = Model::default();
        m.apply(&msg, std::time::Instant::now()).unwrap();
        assert_eq!(m.view, Some(GameView::Madiao(Box::new(view.clone()))));
        assert_eq!((m.me, m.move_no, m.game), (Some(seat(2)), 5, Some(GameKind::Madiao)));
        assert_eq!(m.timer.as_ref().map(timer_what), Some("turn"));
        assert_eq!(m.timer.as_ref().and_then(timer_seat), Some(seat(1)));
        assert_eq!(m.timer.as_ref().and_then(timer_remaining), Some(2500));
        assert_eq!(hand_codes(m.view.as_ref().unwrap()).len(), view.hand.len());
        // A spectator's view has no seat.
        let spec = st.view_for(Viewer::Spectator);
        assert_eq!(serde_json::to_value(&spec).unwrap()["seat"], serde_json::Value::Null);
    }

    /// The spectators' names come with a `sync` and change with every `seats` message.
    #[test]
    fn the_spectators_names_are_kept_from_sync_and_seats() {
        let text = serde_json::json!({
            "type": "sync", "v": 1, "table": table_json("madiao"),
            "you": {"seat": null, "guest": "g", "name": "Ann", "host": false},
            "hand": 0, "move": 0, "view": null, "legal": null, "timer": null,
            "match": null, "results": [], "chat": [], "watchers": ["Ann", "Bo"]
        })
        .to_string();
        let mut m = Model::default();
        m.apply(&serde_json::from_str(&text).unwrap(), std::time::Instant::now()).unwrap();
        assert_eq!(m.watchers_line().as_deref(), Some("watching: Ann, Bo"));
        let seats = serde_json::json!({
            "type": "seats", "v": 2, "seats": [], "spectators": 5, "status": "playing", "timer": null,
            "watchers": ["Ann", "Bo", "Cy", "Di", "Ed"]
        })
        .to_string();
        m.apply(&serde_json::from_str(&seats).unwrap(), std::time::Instant::now()).unwrap();
        assert_eq!(m.watchers_line().as_deref(), Some("watching: Ann, Bo, Cy and 2 more"));
        assert_eq!(m.table.as_ref().map(|t| t.spectators), Some(5));
        let seats = serde_json::json!({
            "type": "seats", "v": 3, "seats": [], "spectators": 0, "status": "playing", "timer": null,
            "watchers": []
        })
        .to_string();
        m.apply(&serde_json::from_str(&seats).unwrap(), std::time::Instant::now()).unwrap();
        assert_eq!(m.watchers_line(), None);
    }

    /// A person who banks first is asked for the stake before anything is dealt: the update
    /// that begins the match has no view, and the table is playing from it on.
    #[test]
    fn the_match_begins_with_the_stake_ask_and_no_view() {
        let mut table = table_json("madiao");
        table["status"] = "waiting".into();
        let sync = serde_json::json!({
            "type": "sync", "v": 1, "table": table,
            "you": {"seat": 0, "guest": "g", "name": "Sam", "host": true},
            "hand": 0, "move": 0, "view": null, "legal": null, "timer": null,
            "match": null, "results": [], "chat": []
        });
        let mut m = Model::default();
        m.apply(&serde_json::from_value(sync).unwrap(), std::time::Instant::now()).unwrap();
        assert_eq!(m.table.as_ref().map(|t| t.status), Some(TableStatus::Waiting));
        let update = serde_json::json!({
            "type": "update", "v": 2, "event": {"kind": "start"}, "hand": 0, "move": 0,
            "view": null, "legal": {"kind": "stake", "low": 2, "high": 8},
            "timer": {"what": "turn", "seat": 0, "remaining_ms": 30000}, "match": null
        });
        m.apply(&serde_json::from_value(update).unwrap(), std::time::Instant::now()).unwrap();
        assert_eq!(m.table.as_ref().map(|t| t.status), Some(TableStatus::Playing));
        assert!(matches!(m.legal, Some(Legal::Stake { low: 2, high: 8 })), "{:?}", m.legal);
    }

    /// A view of the other game than the table's is refused in words, and the model keeps the
    /// view it had; errors are shown in the protocol's words.
    #[test]
    fn a_view_of_the_wrong_game_is_an_error_not_a_panic() {
        let (deck, _) = dabaifen::deal_from_seed(2, 0);
        let m0 = dabaifen::Match::new(dabaifen::Variants::STANDARD, seat(0));
        let db = dabaifen::State::new(&m0.setup(deck)).unwrap();
        let text = serde_json::json!({
            "type": "sync", "v": 1, "table": table_json("madiao"),
            "you": {"seat": null, "guest": "g", "name": "Ann", "host": false},
            "hand": 0, "move": 0, "view": db.view_for(Viewer::Spectator), "legal": null, "timer": null,
            "match": null, "results": [], "chat": []
        })
        .to_string();
        let msg: ServerMsg = serde_json::from_str(&text).unwrap();
        let mut m = Model::default();
        let e = m.apply(&msg, std::time::Instant::now()).unwrap_err();
        assert_eq!(e, ModelError::OtherGame { view: GameKind::Dabaifen, table: GameKind::Madiao });
        assert!(e.to_string().contains("dabaifen view at a madiao table"), "{e}");
        assert_eq!(m.view, None);
        let err: ServerMsg =
            serde_json::from_str(r#"{"type": "error", "code": "not_your_turn", "message": "wait", "v": 1}"#)
                .unwrap();
        m.apply(&err, std::time::Instant::now()).unwrap();
        assert_eq!(m.error.as_deref(), Some("not_your_turn: wait"));
        let illegal: ServerMsg =
            serde_json::from_str(r#"{"type": "error", "code": "illegal", "message": "no TW", "v": 1}"#)
                .unwrap();
        m.apply(&illegal, std::time::Instant::now()).unwrap();
        assert_eq!(m.error.as_deref(), Some("no TW"));
    }
}
