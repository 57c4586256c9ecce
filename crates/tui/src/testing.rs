//! Driving the interface without a terminal, for tests: a local match on a clock the test
//! advances (so bots move and cards are drawn exactly when the test says), keys sent as the
//! terminal would send them, and the screen drawn on ratatui's test backend.

use std::time::{Duration, Instant};

use cards::record::GameKind;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
pub use ratatui::crossterm::event::KeyCode;
use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

use crate::app::App;
use crate::driver::Driver;
use crate::local::{LocalConfig, LocalError};
use crate::model::{GameView, Legal};
use crate::render;

/// An interface with a test clock and a test screen.
pub struct Harness {
    /// The interface.
    pub app: App,
    /// The test clock.
    pub now: Instant,
    /// The screen.
    pub terminal: Terminal<TestBackend>,
}

impl Harness {
    /// A local match of `game` with `cfg` on a `width`×`height` screen.
    pub fn local(game: GameKind, cfg: LocalConfig, width: u16, height: u16) -> Result<Harness, LocalError> {
        let now = Instant::now();
        let app = crate::local_app(game, cfg, now)?;
        Ok(Harness::with_app(app, now, width, height))
    }

    /// An interface over any driver.
    pub fn with_driver(driver: Box<dyn Driver>, place: &str, width: u16, height: u16) -> Harness {
        let now = Instant::now();
        let mut app = App::new(driver, place);
        app.tick(now);
        Harness::with_app(app, now, width, height)
    }

    fn with_app(app: App, now: Instant, width: u16, height: u16) -> Harness {
        let terminal = Terminal::new(TestBackend::new(width, height)).expect("the test backend never fails");
        Harness { app, now, terminal }
    }

    /// Moves the clock to the driver's next deadline (or by 10 ms) and takes what happened.
    pub fn step(&mut self) {
        let next = self.app.next_deadline().unwrap_or(self.now + Duration::from_millis(10));
        self.now = self.now.max(next);
        self.app.tick(self.now);
    }

    /// Steps until `pred` holds; false if it does not within `steps` steps.
    pub fn run_until(&mut self, steps: usize, pred: impl Fn(&App) -> bool) -> bool {
        for _ in 0..steps {
            if pred(&self.app) {
                return true;
            }
            self.step();
        }
        pred(&self.app)
    }

    /// Steps until the person has a decision (or the hand is over).
    pub fn until_decision(&mut self) -> bool {
        self.run_until(5000, |a| {
            a.model.legal.is_some() || a.model.view.as_ref().is_some_and(GameView::is_over)
        })
    }

    /// Sends a key.
    pub fn key(&mut self, code: KeyCode) {
        self.app.handle_key(KeyEvent::new(code, KeyModifiers::NONE), self.now);
    }

    /// Types text, one key per character.
    pub fn type_str(&mut self, s: &str) {
        for c in s.chars() {
            self.key(KeyCode::Char(c));
        }
    }

    /// Draws the screen and returns it as text, one line per row (wide characters take their
    /// cells; trailing spaces are kept so the size shows).
    pub fn screen(&mut self) -> String {
        let now = self.now;
        let app = &self.app;
        self.terminal.draw(|f| render::draw(f, app, now)).expect("the test backend never fails");
        let buf = self.terminal.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut skip = 0;
            for x in 0..buf.area.width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let s = buf[(x, y)].symbol();
                let w = ratatui::text::Span::raw(s).width();
                skip = w.saturating_sub(1);
                out.push_str(s);
            }
            out.push('\n');
        }
        out
    }

    /// The decision the person has now.
    pub fn legal(&self) -> Option<&Legal> {
        self.app.model.legal.as_ref()
    }

    /// Makes the person's current decision with keys, as a simple player would: Madiao captures
    /// with the lowest capturing card or sloughs the chosen card, lets the redeal window close
    /// without forcing a redeal; Da Bai Fen shows a card when it may (if `declare`), never annuls, buries the first six cards, leads and
    /// follows with the first legal cards; after a hand, asks for the next. Returns false when there
    /// was nothing to decide.
    pub fn auto_decide(&mut self, declare: bool) -> bool {
        if self.app.model.view.as_ref().is_some_and(GameView::is_over) {
            if self.app.model.match_over() {
                return false;
            }
            self.key(KeyCode::Enter);
            return true;
        }
        let Some(legal) = self.app.model.legal.clone() else { return false };
        match legal {
            Legal::Actions { .. } => {
                if self.app.marks().capture.is_empty() {
                    self.key(KeyCode::Char('d'));
                } else {
                    self.key(KeyCode::Enter);
                }
            }
            // The banker names the stake shown (the lowest unless changed).
            Legal::Stake { .. } => self.key(KeyCode::Enter),
            // Playing on is a window's default: nothing to send; the window closes in its time.
            Legal::Redeal { requested: false } | Legal::Annul { requested: false } => return false,
            Legal::Redeal { requested: true } | Legal::Annul { requested: true } => self.key(KeyCode::Enter),
            Legal::Declare { cards, requested } => {
                if declare && requested.is_none() && !cards.is_empty() {
                    self.key(KeyCode::Char('d'));
                } else {
                    return false;
                }
            }
            Legal::Lead { .. } => {
                self.app.ui.selected.clear();
                self.key(KeyCode::Enter);
            }
            Legal::Cards { count, .. } => {
                let hand = self.app.hand();
                self.key(KeyCode::Home);
                for _ in 0..hand.len() {
                    if self.app.ui.selected.len() >= usize::from(count) {
                        break;
                    }
                    let cur = hand.get(self.app.ui.cursor).cloned().unwrap_or_default();
                    if self.app.marks().legal.contains(&cur) && !self.app.ui.selected.contains(&cur) {
                        self.key(KeyCode::Char(' '));
                    }
                    self.key(KeyCode::Right);
                }
                self.key(KeyCode::Enter);
            }
        }
        true
    }

    /// Plays on with [`Harness::auto_decide`] until `pred` holds (checked before each step);
    /// false if it does not within `steps` steps.
    pub fn play_until(&mut self, steps: usize, declare: bool, pred: impl Fn(&App) -> bool) -> bool {
        for _ in 0..steps {
            if pred(&self.app) {
                return true;
            }
            if !self.auto_decide(declare) {
                self.step();
            }
        }
        pred(&self.app)
    }
}
