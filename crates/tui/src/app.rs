//! The interface's state and its keys: a [`Model`] fed by a [`Driver`], a cursor and a
//! selection over the hand, a card code being typed, the help, the result, and what each key does
//! for the decision at hand. Drawing is in [`crate::render`]; the terminal in [`crate::term`].
//!
//! Keys (also on the help screen, `?`):
//! - `←` `→` (`Home`, `End`) choose a card; typing a code (`S9`, `AS`, `10h`) goes to that card.
//! - `Enter` does the obvious thing: plays the card (face up in Madiao), plays or buries the
//!   cards selected, answers a prompt with its default, starts the next hand.
//! - `Space` or `↑` selects a card for a multi-card play or the burial, `↓` unselects.
//! - Madiao: `Enter` plays a lead or a capture face up and any other card face down; `d`
//!   sloughs the card face down; `u`, pressed twice, discards it face up (a face-up discard,
//!   2 stakes under `faceup_discard: penalty`); `r` forces a redeal when you may.
//! - Da Bai Fen: `d` shows (declares) a trump-rank card during the draw, `p` withdraws it;
//!   `n` annuls a deal when your hand has no trump.
//! - `Tab` shows the table behind a hand's result; `Esc` clears, or asks to quit; `Ctrl-C` quits.
//! - `a`, after a hand (offline): the analysis of the person's decisions in it (`↑` `↓` scroll,
//!   any other key closes it).

use std::path::PathBuf;
use std::time::Instant;

use cards::Seat;
use cards::record::GameKind;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::driver::{Driver, Incoming, Notice, Outgoing};
use crate::model::{Connection, GameView, Legal, MadiaoView, Model, Timer, hand_codes, timer_seat};
use crate::names;
use wire::{ActAction, CardsAction, RevokeRule, StakeChoice, TableMsg};

/// The seed of the analysis shown on `a` (the same hand, the same analysis).
pub const ANALYSIS_SEED: u64 = 1;

/// The interface's own state (what the model does not hold).
#[derive(Clone, Debug, Default)]
pub struct Ui {
    /// The card under the cursor (index into the hand).
    pub cursor: usize,
    /// The cards selected, in the order chosen.
    pub selected: Vec<String>,
    /// A card code being typed.
    pub typed: String,
    /// The help is shown.
    pub help: bool,
    /// The result of the hand is hidden (to look at the table).
    pub hide_result: bool,
    /// Scroll of the result.
    pub scroll: u16,
    /// Asking whether to quit.
    pub confirm_quit: bool,
    /// An action waiting for a second `u` (a Madiao face-up discard), with its question.
    pub confirm: Option<(ActAction, String)>,
    /// Feedback on the last key (why nothing happened, what was chosen).
    pub message: Option<String>,
    /// The model's decision this selection belongs to.
    pub decision_seq: u64,
    /// The hand the result scroll belongs to.
    pub hand: u32,
    /// The lobby's cursor.
    pub lobby_cursor: usize,
    /// Madiao: the stake the person, as banker, is about to name (0: not chosen yet, the lowest).
    pub stake: u32,
    /// The card tracker is shown (key `c`).
    pub tracker: bool,
    /// The (hand, move) the tracker was last asked for.
    pub tracker_asked: Option<(u32, u64)>,
    /// The move whose hint has been applied to the selection.
    pub hint_applied: Option<u64>,
    /// The analysis of the last finished hand on screen: the report's lines.
    pub analysis: Option<Vec<String>>,
    /// Scroll of the analysis.
    pub analysis_scroll: u16,
}

/// The whole interface: model, driver, and what the person is doing.
pub struct App {
    /// What the table shows.
    pub model: Model,
    /// The interface's state.
    pub ui: Ui,
    driver: Box<dyn Driver>,
    /// The person has asked to quit.
    pub quit: bool,
    /// Says where the match is played ("offline · seed 42", "127.0.0.1:8080").
    pub place: String,
    /// The record file, once written.
    pub record: Option<PathBuf>,
    /// The driver cannot go on.
    pub fatal: Option<String>,
    finished: Option<Vec<String>>,
}

/// The cards of a hinted action as codes: a Madiao play or slough, a Da Bai Fen play or burial.
pub fn hint_cards(action: &ActAction) -> Vec<String> {
    match action {
        ActAction::Madiao(madiao::Action::Play(c) | madiao::Action::Slough(c)) => vec![c.to_string()],
        ActAction::Dabaifen(dabaifen::Action::Declare(c)) => vec![c.to_string()],
        ActAction::Dabaifen(dabaifen::Action::Play(cs) | dabaifen::Action::Bury(cs)) => {
            cs.iter().map(|c| c.to_string()).collect()
        }
        _ => Vec::new(),
    }
}

/// What the hand's cards are for the decision at hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandMarks {
    /// Cards that may be used in the decision (highlighted).
    pub legal: Vec<String>,
    /// Madiao: cards that would capture (or lead) face up.
    pub capture: Vec<String>,
    /// Da Bai Fen, while burying: the cards that came from the kitty.
    pub kitty: Vec<String>,
}

fn strings(v: &[String]) -> impl Iterator<Item = &str> {
    v.iter().map(String::as_str)
}

/// Card codes, as the terminal shows and selects cards.
fn codes<C: ToString>(cards: &[C]) -> Vec<String> {
    cards.iter().map(ToString::to_string).collect()
}

/// The Da Bai Fen cards of `codes` as one set (`None` when a code is not a card).
fn dabaifen_set(codes: &[String]) -> Option<dabaifen::Cards> {
    let mut set = dabaifen::Cards::EMPTY;
    for c in codes {
        set.insert(c.parse().ok()?);
    }
    Some(set)
}

/// True when `action` is a request for a poll the table answers (a redeal, a declaration, an
/// annulment, or withdrawing one), which answers no particular move.
fn is_request(action: &ActAction) -> bool {
    matches!(
        action,
        ActAction::Madiao(madiao::Action::Redeal(_))
            | ActAction::Dabaifen(
                dabaifen::Action::Declare(_) | dabaifen::Action::Pass | dabaifen::Action::Annul
            )
    )
}

/// The led suit and the best card so far of Madiao's current trick, with who played it (`None`
/// when leading), as the engine's view says.
pub fn madiao_best(v: &MadiaoView) -> Option<(madiao::Suit, madiao::Card, Seat)> {
    let t = v.tricks.last().filter(|t| t.winner.is_none() && !t.plays.is_empty())?;
    let best = t.best?;
    Some((best.suit(), best, t.leading?))
}

impl App {
    /// An interface over `driver`; `place` says where the match is played.
    pub fn new(driver: Box<dyn Driver>, place: impl Into<String>) -> App {
        App {
            model: Model::default(),
            ui: Ui::default(),
            driver,
            quit: false,
            place: place.into(),
            record: None,
            fatal: None,
            finished: None,
        }
    }

    /// The game, once known.
    pub fn game(&self) -> Option<GameKind> {
        self.model.game
    }

    /// The person's cards as codes.
    pub fn hand(&self) -> Vec<String> {
        self.model.view.as_ref().map(hand_codes).unwrap_or_default()
    }

    /// When the driver next has something to do by itself.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.driver.next_deadline()
    }

    /// Takes what the driver has delivered by `now`.
    pub fn tick(&mut self, now: Instant) {
        for inc in self.driver.poll(now) {
            match inc {
                Incoming::Msg(m) => {
                    if let Err(e) = self.model.apply(&m, now) {
                        self.model.error = Some(e.to_string());
                    }
                }
                Incoming::Notice(n) => match n {
                    Notice::Connected => self.model.connection = Connection::Connected,
                    Notice::Connecting(s) => self.model.connection = Connection::Connecting(s),
                    Notice::Lobby { server, tables } => {
                        self.model.lobby = Some(tables);
                        self.model.lobby_server = server;
                        self.model.connection = Connection::Connected;
                        self.ui.lobby_cursor = 0;
                    }
                    Notice::RecordSaved(p) => {
                        self.model.status = Some(format!("record: {}", p.display()));
                        self.record = Some(p);
                    }
                    Notice::Info(s) => self.model.status = Some(s),
                    Notice::Fatal(s) => self.fatal = Some(s),
                },
            }
        }
        self.sync_ui();
        // The tracker follows the view: asked again after every move while it is shown.
        let at = (self.model.hand, self.model.move_no);
        if self.ui.tracker && self.model.view.is_some() && self.ui.tracker_asked != Some(at) {
            self.ui.tracker_asked = Some(at);
            self.send(Outgoing::Table(TableMsg::Tracker), now);
        }
    }

    /// Keeps the selection and cursor in step with the model.
    fn sync_ui(&mut self) {
        let hand = self.hand();
        if self.model.decision_seq != self.ui.decision_seq {
            self.ui.decision_seq = self.model.decision_seq;
            self.ui.selected.clear();
            self.ui.confirm = None;
            // Cards that must be played are chosen already.
            if let Some(Legal::Cards { must, count, .. }) = &self.model.legal
                && must.len() <= usize::from(*count)
            {
                self.ui.selected = codes(must);
            }
            // The cursor goes to a card that may be used: in Madiao the lowest that captures.
            let marks = self.marks();
            if let Some(i) = hand.iter().rposition(|h| marks.capture.contains(h))
                && self.model.legal.is_some()
            {
                self.ui.cursor = i;
            } else if let Some(cur) = hand.get(self.ui.cursor)
                && !marks.legal.contains(cur)
                && let Some(i) = hand.iter().position(|c| marks.legal.contains(c))
            {
                self.ui.cursor = i;
            }
        }
        if self.model.hand != self.ui.hand {
            self.ui.hand = self.model.hand;
            self.ui.scroll = 0;
            self.ui.hide_result = false;
            self.ui.analysis = None;
            self.ui.message = None;
        }
        // A hint chooses its cards: the cursor on a Madiao card, the selection of a Da Bai Fen play.
        if let Some(h) = self.model.hint.clone()
            && self.ui.hint_applied != Some(h.move_no)
        {
            self.ui.hint_applied = Some(h.move_no);
            let cards = hint_cards(&h.action);
            if self.multi_select() || matches!(self.model.legal, Some(Legal::Lead { .. })) && cards.len() > 1
            {
                self.ui.selected = cards.clone();
            }
            if let Some(i) = cards.first().and_then(|c| hand.iter().position(|x| x == c)) {
                self.ui.cursor = i;
            }
        }
        self.ui.selected.retain(|c| hand.contains(c));
        if self.ui.cursor >= hand.len() {
            self.ui.cursor = hand.len().saturating_sub(1);
        }
    }

    /// The hand's cards as the decision at hand sees them.
    pub fn marks(&self) -> HandMarks {
        let mut m = HandMarks::default();
        match &self.model.legal {
            Some(Legal::Actions { actions, captures }) => {
                for a in actions {
                    if let madiao::Action::Play(c) | madiao::Action::Slough(c) = a
                        && !m.legal.iter().any(|x| *x == c.to_string())
                    {
                        m.legal.push(c.to_string());
                    }
                }
                // Face up, a card captures (or leads) unless it is a discard: the server says which.
                m.capture = codes(captures);
            }
            Some(Legal::Cards { must, from, action, .. }) => {
                m.legal = codes(must).into_iter().chain(codes(from)).collect();
                if *action == CardsAction::Bury
                    && let Some(GameView::Dabaifen(v)) = &self.model.view
                {
                    m.kitty = v.kitty.iter().flatten().map(ToString::to_string).collect();
                }
            }
            Some(Legal::Lead { singles, .. }) => m.legal = codes(singles),
            Some(Legal::Declare { cards, .. }) => m.legal = codes(cards),
            _ => {}
        }
        m
    }

    fn cursor_card(&self) -> Option<String> {
        self.hand().get(self.ui.cursor).cloned()
    }

    fn send(&mut self, cmd: Outgoing, now: Instant) {
        self.driver.send(cmd, now);
        // Answers (errors, acks, updates) are taken at once, so feedback is immediate offline.
        self.tick(now);
    }

    fn act(&mut self, action: impl Into<ActAction>, now: Instant) {
        let action = action.into();
        self.ui.confirm = None;
        self.ui.typed.clear();
        self.ui.message = None;
        self.model.error = None;
        let move_no = (!is_request(&action)).then_some(self.model.move_no);
        self.send(Outgoing::Table(TableMsg::Act { action, move_no, seat: None }), now);
    }

    /// The lines to print once the terminal is restored (where the record is).
    pub fn finish(&mut self) -> Vec<String> {
        if self.finished.is_none() {
            self.finished = Some(self.driver.finish());
        }
        self.finished.clone().unwrap_or_default()
    }

    /// True while a finished hand's result is on screen.
    pub fn showing_result(&self) -> bool {
        !self.ui.hide_result && self.model.view.as_ref().is_some_and(GameView::is_over)
    }

    /// Analyses the person's decisions in the hand just finished (from the driver's record) and
    /// shows the report; says why not when it cannot (no record at a server's table, no seat).
    pub fn analyse_last(&mut self) {
        let Some(seat) = self.model.me else {
            self.ui.message = Some("no seat of yours to analyse".into());
            return;
        };
        let Some(text) = self.driver.record_json() else {
            self.ui.message = Some("the analysis needs the match's record: offline matches only".into());
            return;
        };
        let opts = ai::analysis::Options {
            seat,
            hand: self.model.hand as usize,
            seed: ANALYSIS_SEED,
            budget: ai::Budget::default(),
        };
        let done = ai::record::parse(&text)
            .map_err(|e| e.to_string())
            .and_then(|r| ai::analysis::analyse(&r, &opts, &mut |_| {}).map_err(|e| e.to_string()));
        match done {
            Ok(a) => {
                self.ui.analysis = Some(ai::analysis::report(&a).lines().map(str::to_string).collect());
                self.ui.analysis_scroll = 0;
            }
            Err(e) => self.ui.message = Some(format!("no analysis: {e}")),
        }
    }

    /// Handles one key.
    pub fn handle_key(&mut self, key: KeyEvent, now: Instant) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            self.quit = true;
            return;
        }
        if self.ui.confirm_quit {
            match key.code {
                KeyCode::Char('y' | 'Y' | 'q') | KeyCode::Enter => self.quit = true,
                _ => self.ui.confirm_quit = false,
            }
            return;
        }
        if self.ui.help {
            self.ui.help = false;
            return;
        }
        if key.code == KeyCode::Char('?') {
            self.ui.help = true;
            return;
        }
        if self.fatal.is_some() {
            if matches!(key.code, KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q')) {
                self.quit = true;
            }
            return;
        }
        if self.ui.analysis.is_some() {
            match key.code {
                KeyCode::Up => self.ui.analysis_scroll = self.ui.analysis_scroll.saturating_sub(1),
                KeyCode::Down => self.ui.analysis_scroll = self.ui.analysis_scroll.saturating_add(1),
                KeyCode::PageUp => self.ui.analysis_scroll = self.ui.analysis_scroll.saturating_sub(10),
                KeyCode::PageDown => self.ui.analysis_scroll = self.ui.analysis_scroll.saturating_add(10),
                _ => self.ui.analysis = None,
            }
            return;
        }
        if self.model.lobby.is_some() && self.model.view.is_none() {
            return self.lobby_key(key, now);
        }
        if key.code == KeyCode::Char('a') && self.model.view.as_ref().is_some_and(GameView::is_over) {
            self.analyse_last();
            return;
        }
        if self.model.match_over() && self.model.view.as_ref().is_some_and(GameView::is_over) {
            match key.code {
                KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q') => self.quit = true,
                KeyCode::Tab => self.ui.hide_result = !self.ui.hide_result,
                KeyCode::Up => self.ui.scroll = self.ui.scroll.saturating_sub(1),
                KeyCode::Down => self.ui.scroll = self.ui.scroll.saturating_add(1),
                KeyCode::PageUp => self.ui.scroll = self.ui.scroll.saturating_sub(10),
                KeyCode::PageDown => self.ui.scroll = self.ui.scroll.saturating_add(10),
                _ => {}
            }
            return;
        }
        if self.model.view.as_ref().is_some_and(GameView::is_over) {
            match key.code {
                KeyCode::Enter | KeyCode::Char('n') => {
                    self.ui.message = None;
                    self.send(Outgoing::Table(TableMsg::Next), now);
                    if let Some(e) = self.model.error.take() {
                        self.ui.message = Some(e);
                    } else {
                        self.ui.message = Some("waiting for the next hand…".into());
                    }
                }
                KeyCode::Tab => self.ui.hide_result = !self.ui.hide_result,
                KeyCode::Up => self.ui.scroll = self.ui.scroll.saturating_sub(1),
                KeyCode::Down => self.ui.scroll = self.ui.scroll.saturating_add(1),
                KeyCode::PageUp => self.ui.scroll = self.ui.scroll.saturating_sub(10),
                KeyCode::PageDown => self.ui.scroll = self.ui.scroll.saturating_add(10),
                KeyCode::Esc => self.ui.confirm_quit = true,
                _ => {}
            }
            return;
        }
        self.game_key(key, now);
    }

    fn lobby_key(&mut self, key: KeyEvent, now: Instant) {
        let n = self.model.lobby.as_ref().map_or(0, Vec::len);
        match key.code {
            KeyCode::Up => self.ui.lobby_cursor = self.ui.lobby_cursor.saturating_sub(1),
            KeyCode::Down => self.ui.lobby_cursor = (self.ui.lobby_cursor + 1).min(n.saturating_sub(1)),
            KeyCode::Enter => {
                let id =
                    self.model.lobby.as_ref().and_then(|l| l.get(self.ui.lobby_cursor)).map(|t| t.id.clone());
                match id {
                    Some(id) => {
                        self.model.connection = Connection::Connecting(format!("joining table {id}…"));
                        self.send(Outgoing::Join(id), now);
                    }
                    None => self.ui.message = Some("no table to join: press m or d to open one".into()),
                }
            }
            KeyCode::Char('m') => {
                self.model.connection = Connection::Connecting("opening a Madiao table…".into());
                self.send(Outgoing::Create("madiao".into()), now);
            }
            KeyCode::Char('d') => {
                self.model.connection = Connection::Connecting("opening a Da Bai Fen table…".into());
                self.send(Outgoing::Create("dabaifen".into()), now);
            }
            KeyCode::Char('g') | KeyCode::F(5) => self.send(Outgoing::Refresh, now),
            KeyCode::Esc | KeyCode::Char('q') => self.ui.confirm_quit = true,
            _ => {}
        }
    }

    fn move_cursor(&mut self, to: usize) {
        let n = self.hand().len();
        if n > 0 {
            self.ui.cursor = to.min(n - 1);
        }
        self.ui.confirm = None;
    }

    fn multi_select(&self) -> bool {
        matches!(&self.model.legal, Some(Legal::Cards { count, .. }) if *count > 1)
    }

    fn toggle(&mut self, code: &str) {
        if !self.marks().legal.iter().any(|c| c == code) {
            self.ui.message = Some(format!("{code} cannot be chosen now"));
            return;
        }
        if let Some(Legal::Cards { must, from, count, .. }) = &self.model.legal
            && must.iter().any(|c| c.to_string() == code)
            && must.len() <= usize::from(*count)
            && !from.is_empty()
        {
            self.ui.message = Some(format!("{code} must be played: you have to follow suit with it"));
            return;
        }
        if let Some(i) = self.ui.selected.iter().position(|c| c == code) {
            self.ui.selected.remove(i);
        } else {
            self.ui.selected.push(code.to_string());
        }
        self.ui.confirm = None;
    }

    /// The stake the person, as banker, would name now (the lowest until he changes it).
    pub fn stake_choice(&self, low: u32, high: u32) -> u32 {
        self.ui.stake.clamp(low, high)
    }

    /// Madiao, as banker before the deal: ←→ (or −/+) change the stake by 2 chips, Enter names it.
    fn stake_key(&mut self, key: KeyEvent, low: u32, high: u32, now: Instant) {
        let cur = self.stake_choice(low, high);
        match key.code {
            KeyCode::Left | KeyCode::Down | KeyCode::Char('-') => {
                self.ui.stake = cur.saturating_sub(2).max(low)
            }
            KeyCode::Right | KeyCode::Up | KeyCode::Char('+' | '=') => self.ui.stake = (cur + 2).min(high),
            KeyCode::Home => self.ui.stake = low,
            KeyCode::End => self.ui.stake = high,
            KeyCode::Enter => {
                self.ui.stake = 0;
                self.act(ActAction::Stake(StakeChoice { stake: cur }), now);
            }
            KeyCode::Esc => self.ui.confirm_quit = true,
            _ => self.ui.message = Some(format!("←→ change the stake ({low}–{high} chips), Enter names it")),
        }
    }

    fn game_key(&mut self, key: KeyEvent, now: Instant) {
        let Some(game) = self.game() else {
            if key.code == KeyCode::Esc {
                self.ui.confirm_quit = true;
            }
            return;
        };
        if let Some(Legal::Stake { low, high }) = self.model.legal {
            return self.stake_key(key, low, high, now);
        }
        let hand = self.hand();
        match key.code {
            KeyCode::Esc => {
                if !self.ui.typed.is_empty() {
                    self.ui.typed.clear();
                } else if self.ui.confirm.is_some() {
                    self.ui.confirm = None;
                } else if !self.ui.selected.is_empty()
                    && !matches!(&self.model.legal, Some(Legal::Cards { must, .. }) if codes(must) == self.ui.selected)
                {
                    self.ui.selected.clear();
                } else {
                    self.ui.confirm_quit = true;
                }
                self.ui.message = None;
            }
            KeyCode::Left => self.move_cursor(self.ui.cursor.saturating_sub(1)),
            KeyCode::Right => self.move_cursor(self.ui.cursor + 1),
            KeyCode::Home => self.move_cursor(0),
            KeyCode::End => self.move_cursor(usize::MAX),
            KeyCode::Tab => {}
            KeyCode::Backspace => {
                self.ui.typed.pop();
            }
            KeyCode::Up | KeyCode::Char(' ') => {
                if matches!(&self.model.legal, Some(Legal::Cards { .. } | Legal::Lead { .. })) {
                    if let Some(c) = self.cursor_card() {
                        if key.code == KeyCode::Up && self.ui.selected.contains(&c) {
                            return;
                        }
                        self.toggle(&c);
                    }
                } else if key.code == KeyCode::Char(' ') {
                    self.ui.message = Some("nothing to select now: Enter acts on the card".into());
                }
            }
            KeyCode::Down => {
                if let Some(c) = self.cursor_card()
                    && self.ui.selected.contains(&c)
                {
                    self.toggle(&c);
                }
            }
            KeyCode::Enter => self.enter(now),
            KeyCode::Char(ch) => {
                let mut t = self.ui.typed.clone();
                t.push(ch);
                if names::is_code_prefix(game, &t) {
                    self.ui.message = None;
                    match names::parse_typed(game, &t) {
                        Some(code) if !(game == GameKind::Dabaifen && t == "1") => {
                            self.ui.typed.clear();
                            match hand.iter().position(|c| *c == code) {
                                Some(i) => {
                                    self.ui.cursor = i;
                                    self.ui.confirm = None;
                                    if self.multi_select() {
                                        self.toggle(&code);
                                    } else if matches!(self.model.legal, Some(Legal::Lead { .. })) {
                                        self.ui.message = Some(format!(
                                            "{code}: Enter leads it alone · Space selects it for a multi-card lead"
                                        ));
                                    } else {
                                        self.ui.message = Some(format!(
                                            "{}: Enter to act on it",
                                            names::label(game, &code)
                                        ));
                                    }
                                }
                                None => self.ui.message = Some(format!("you do not hold {code}")),
                            }
                        }
                        _ => self.ui.typed = t,
                    }
                    return;
                }
                if !self.ui.typed.is_empty() {
                    self.ui.message = Some(format!("no card is written {}", t.to_ascii_uppercase()));
                    self.ui.typed.clear();
                    return;
                }
                self.command(game, ch, now);
            }
            _ => {}
        }
    }

    /// A command letter.
    fn command(&mut self, game: GameKind, ch: char, now: Instant) {
        let legal = self.model.legal.clone();
        let card = self.cursor_card();
        match (game, ch, &legal) {
            (GameKind::Madiao, 'd', Some(Legal::Actions { actions, .. })) => {
                let Some(c) = card else { return };
                let a = c.parse().map(madiao::Action::Slough);
                if let Ok(a) = a
                    && actions.contains(&a)
                {
                    self.act(a, now);
                } else if madiao_leading(&self.model) {
                    self.ui.message = Some("you lead: the leader plays face up (Enter)".into());
                } else {
                    self.ui.message = Some(format!("{c} cannot be sloughed now"));
                }
            }
            (GameKind::Madiao, 'u', Some(Legal::Actions { actions, .. })) => {
                let Some(c) = card else { return };
                let Ok(card) = c.parse::<madiao::Card>() else { return };
                let play = madiao::Action::Play(card);
                if !actions.contains(&play) {
                    self.ui.message =
                        Some(format!("{c} cannot be played face up now: Enter or d sloughs it"));
                } else if self.marks().capture.contains(&c)
                    || self.ui.confirm.as_ref().is_some_and(|(a, _)| *a == ActAction::from(play))
                {
                    self.act(play, now);
                } else {
                    let q = format!(
                        "{c} face up is a face-up discard (penalty: 2 stakes): u again plays it face up; Enter or d sloughs it face down"
                    );
                    self.ui.confirm = Some((play.into(), q));
                }
            }
            (GameKind::Madiao, 'r', Some(Legal::Redeal { .. })) => {
                self.act(madiao::Action::Redeal(true), now)
            }
            (GameKind::Dabaifen, 'd', Some(Legal::Declare { cards, requested })) => {
                let (cards, requested) = (codes(cards), requested.map(|c| c.to_string()));
                if cards.is_empty() {
                    self.ui.message = Some("you have drawn no card you may show".into());
                    return;
                }
                // The card under the cursor if it may be shown, else the next showable card.
                let pick = match card.filter(|c| cards.contains(c)) {
                    Some(c) if requested.as_deref() != Some(c.as_str()) => c,
                    _ => {
                        let at = requested.as_ref().and_then(|r| cards.iter().position(|c| c == r));
                        cards[at.map_or(0, |i| (i + 1) % cards.len())].clone()
                    }
                };
                if let Ok(c) = pick.parse() {
                    self.act(dabaifen::Action::Declare(c), now);
                }
            }
            (GameKind::Dabaifen, 'p', Some(Legal::Declare { requested: Some(_), .. })) => {
                self.act(dabaifen::Action::Pass, now)
            }
            (GameKind::Dabaifen, 'n', Some(Legal::Annul { .. })) => self.act(dabaifen::Action::Annul, now),
            (_, 'h', Some(Legal::Actions { .. } | Legal::Cards { .. } | Legal::Lead { .. })) => {
                self.ui.message = Some("asking for a hint…".into());
                self.send(Outgoing::Table(TableMsg::Hint), now);
            }
            (_, 'h', _) => self.ui.message = Some("a hint is given on your turn to play".into()),
            (_, 'c', _) => {
                self.ui.tracker = !self.ui.tracker;
                self.ui.tracker_asked = None;
                if self.ui.tracker && self.model.view.is_some() {
                    self.ui.tracker_asked = Some((self.model.hand, self.model.move_no));
                    self.send(Outgoing::Table(TableMsg::Tracker), now);
                }
            }
            _ => {
                self.ui.message = Some(match ch {
                    'q' => "Esc quits (Ctrl-C at once); ? shows the keys".to_string(),
                    _ => format!("'{ch}' does nothing now: ? shows the keys"),
                })
            }
        }
    }

    /// `Enter`: the obvious action.
    fn enter(&mut self, now: Instant) {
        let Some(legal) = self.model.legal.clone() else {
            self.ui.message = Some(match &self.model.timer {
                Some(Timer::Draw { .. }) => "the cards are being drawn…".to_string(),
                Some(t) => match timer_seat(t) {
                    Some(s) => format!("waiting for {}…", self.model.seat_name(s)),
                    None => "waiting…".into(),
                },
                None => "nothing to do now".into(),
            });
            return;
        };
        let card = self.cursor_card();
        match legal {
            Legal::Stake { .. } => {}
            Legal::Actions { actions, .. } => {
                let Some(c) = card else { return };
                let Ok(card) = c.parse::<madiao::Card>() else { return };
                let play = madiao::Action::Play(card);
                let slough = madiao::Action::Slough(card);
                // A lead or a capture goes face up; any other card face down (rules §5): a
                // face-up discard, which costs 2 stakes, is only ever played by its own key (`u`).
                if actions.contains(&play)
                    && (self.marks().capture.contains(&c) || !actions.contains(&slough))
                {
                    self.act(play, now);
                } else if actions.contains(&slough) {
                    self.act(slough, now);
                } else {
                    let why = match self.model.view.as_ref() {
                        Some(GameView::Madiao(v)) => match madiao_best(v) {
                            Some((led, best, _)) if card.suit() == led => {
                                format!("{c} does not beat {best}")
                            }
                            Some((led, best, _)) => format!("{led} were led (best {best})"),
                            None => String::new(),
                        },
                        _ => String::new(),
                    };
                    self.ui.message = Some(format!("{c} cannot be played now: {why}"));
                }
            }
            Legal::Cards { action, count, must, from } => {
                let (must, from) = (codes(&must), codes(&from));
                let count = usize::from(count);
                let chosen: Vec<String> = if self.ui.selected.is_empty() && count == 1 {
                    card.into_iter().collect()
                } else if self.ui.selected.is_empty() && must.len() + from.len() == count {
                    // Only one choice (e.g. the last cards of the hand): Enter plays it.
                    strings(&must).chain(strings(&from)).map(str::to_string).collect()
                } else {
                    self.ui.selected.clone()
                };
                if chosen.len() != count {
                    let verb = if action == CardsAction::Bury { "bury" } else { "play" };
                    self.ui.message = Some(format!(
                        "choose {count} cards to {verb} with Space ({} chosen), then Enter",
                        chosen.len()
                    ));
                    return;
                }
                let missing: Vec<&str> = strings(&must).filter(|m| !chosen.iter().any(|c| c == m)).collect();
                if !missing.is_empty() {
                    self.ui.message = Some(format!("you must play {} (follow suit)", missing.join(" ")));
                    return;
                }
                if let Some(bad) = chosen.iter().find(|c| !must.contains(c) && !from.contains(c)) {
                    self.ui.message = Some(format!("{bad} cannot be played now: follow suit first"));
                    return;
                }
                let Some(set) = dabaifen_set(&chosen) else { return };
                match action {
                    CardsAction::Bury => self.act(dabaifen::Action::Bury(set), now),
                    CardsAction::Play => self.act(dabaifen::Action::Play(set), now),
                }
            }
            Legal::Lead { singles, groups, revoke } => {
                let singles = codes(&singles);
                let chosen: Vec<String> = if self.ui.selected.is_empty() {
                    card.into_iter().collect()
                } else {
                    self.ui.selected.clone()
                };
                if chosen.len() == 1 {
                    if singles.contains(&chosen[0])
                        && let Some(set) = dabaifen_set(&chosen)
                    {
                        return self.act(dabaifen::Action::Play(set), now);
                    }
                    self.ui.message = Some(format!("{} cannot be led", chosen[0]));
                    return;
                }
                let Some(g) = groups.iter().find(|g| chosen.iter().all(|c| codes(&g.cards).contains(c)))
                else {
                    self.ui.message = Some(
                        "a multi-card lead is two or more top cards of one suit (the trumps count as one suit)".into(),
                    );
                    return;
                };
                if revoke == RevokeRule::Refuse
                    && let Some(tops) = g.tops.as_deref().map(codes)
                    && let Some(bad) = chosen.iter().find(|c| !tops.contains(c))
                {
                    self.ui.message =
                        Some(format!("{bad} is not a top card: another hand holds a stronger one"));
                    return;
                }
                if let Some(set) = dabaifen_set(&chosen) {
                    self.act(dabaifen::Action::Play(set), now);
                }
            }
            Legal::Declare { cards, requested } => match card.filter(|c| codes(&cards).contains(c)) {
                Some(c) if requested.map(|r| r.to_string()) != Some(c.clone()) => {
                    if let Ok(c) = c.parse() {
                        self.act(dabaifen::Action::Declare(c), now)
                    }
                }
                Some(_) => {
                    self.ui.message =
                        Some("already asked: shown at your next turn to be asked; p withdraws".into())
                }
                None if cards.is_empty() => self.ui.message = Some("the cards are being drawn…".into()),
                None => {
                    self.ui.message =
                        Some(format!("you may show {}: press d (or Enter on it)", codes(&cards).join(" or ")))
                }
            },
            Legal::Annul { .. } => self.act(dabaifen::Action::Pass, now),
            Legal::Redeal { .. } => self.act(madiao::Action::Redeal(false), now),
        }
    }
}

/// True when the person leads the current Madiao trick.
fn madiao_leading(m: &Model) -> bool {
    match &m.view {
        Some(GameView::Madiao(v)) => madiao_best(v).is_none(),
        _ => false,
    }
}
