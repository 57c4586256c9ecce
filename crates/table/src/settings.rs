//! A table's settings and the server-wide timing of tables.

use cards::record::{self, GameKind};
use serde::{Deserialize, Serialize};

/// The settings a table is created with (stored as JSON with the table).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSettings {
    /// A name shown in the lobby.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// The rules preset.
    pub rules: String,
    /// Variants overriding the preset.
    #[serde(default)]
    pub variants: record::Variants,
    /// Madiao: chips per stake; the lowest stake when `stake_max` is above it.
    #[serde(default = "default_stake")]
    pub stake: u32,
    /// Madiao: the highest stake a banker may name for a hand (§2); absent (tables stored
    /// before the banker named it) or equal to `stake`, the stake is fixed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stake_max: Option<u32>,
    /// The turn clock of a person, in seconds.
    pub turn_seconds: u32,
    /// A private table is not listed in the lobby (joined by its invite link).
    #[serde(default)]
    pub private: bool,
    /// How fast the table's fixed clocks run (windows, the draw, a finished trick on show).
    #[serde(default)]
    pub pace: Pace,
    /// How long after a seated person's last connection drops a bot stands in for him.
    #[serde(default = "default_grace")]
    pub grace_seconds: u32,
    /// The people play without a clock: a person's turn and the pause after a hand wait for
    /// him (the terminal's offline play; at the server, by default a table whose only person
    /// plays against bots, `docs/protocol.md` "Clocks").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untimed: bool,
    /// Each person's time bank for the match, in seconds: a reserve his turn clock draws on when
    /// it runs out, before a bot stands in for him (0, and tables stored before banks: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bank_seconds: u32,
    /// Madiao: how the deck draws the zero cash (presentation only, `docs/rules/madiao.md` §1;
    /// a table stored before the choice existed draws `unnamed`).
    #[serde(default)]
    pub zero_cash: madiao::ZeroCash,
    /// A rated table: its match changes its players' ratings, and only guests with an account
    /// take its seats (`docs/ratings.md`); absent (tables stored before ratings) is casual.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// Whether hints and the card tracker are offered at a table with these settings: at a casual
/// table, never at a rated one (`docs/protocol.md`, "Hints and the tracker"). It is the one place
/// that decides.
pub fn hints_allowed(settings: &TableSettings) -> bool {
    !settings.rated
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The largest time bank a table may have, in seconds.
pub const BANK_MAX: u32 = 600;

/// The time bank of a new table with several people (or a timed table whose creator did not
/// choose one), in seconds.
pub const BANK_DEFAULT: u32 = 60;

/// Whether take-backs and pauses are offered at a table: an unrated table where `seat` is the
/// only seat held by a person (spectators may watch; bots and open seats play the others). It is
/// the one place that decides (`docs/protocol.md`, "Take-backs and pauses").
pub fn solo_allowed(settings: &TableSettings, persons: &[bool; 4], seat: usize) -> bool {
    !settings.rated && persons[seat] && persons.iter().filter(|&&p| p).count() == 1
}

/// The longest grace period a table may have, in seconds.
pub const GRACE_MAX: u32 = 120;

fn default_grace() -> u32 {
    15
}

/// How fast a table's fixed clocks run: the decision windows, the Da Bai Fen draw, and the time
/// a finished trick stays on show. A table whose four seats are all bots plays `fast`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Twice the server's base timing.
    Relaxed,
    /// The server's base timing.
    #[default]
    Normal,
    /// A quarter of the server's base timing.
    Fast,
}

impl Pace {
    /// `base` milliseconds at this pace.
    pub fn scale(self, base: u64) -> u64 {
        match self {
            Pace::Relaxed => base.saturating_mul(2),
            Pace::Normal => base,
            Pace::Fast => base / 4,
        }
    }

    /// Reads a pace's name.
    pub fn parse(s: &str) -> Option<Pace> {
        match s {
            "relaxed" => Some(Pace::Relaxed),
            "normal" => Some(Pace::Normal),
            "fast" => Some(Pace::Fast),
            _ => None,
        }
    }
}

fn default_stake() -> u32 {
    2
}

impl TableSettings {
    /// The stake limits, lowest and highest (equal: a fixed stake).
    pub fn stakes(&self) -> (u32, u32) {
        (self.stake, self.stake_max.unwrap_or(self.stake))
    }
}

/// A guest as the table knows him.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guest {
    /// The guest's id.
    pub id: String,
    /// The guest's name.
    pub name: String,
}

/// Timing of the tables (server-wide).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Da Bai Fen: one card of the draw per this many milliseconds.
    pub draw_ms: u64,
    /// The length of a decision window (Madiao redeal, Da Bai Fen annulment).
    pub window_ms: u64,
    /// How long a bot waits before it moves (so that people can follow).
    pub bot_delay_ms: u64,
    /// How long a finished trick stays on show before the next lead (scaled by the pace).
    pub trick_ms: u64,
    /// The longest pause between hands: the next hand begins when every connected seated person
    /// is ready, or after the table's turn clock capped by this.
    pub pause_ms: u64,
    /// How long a finished table stays loaded without connections.
    pub retire_ms: u64,
    /// A match with no person connected (seated or watching) for this long is parked: its bots
    /// and clocks stop, its status is `parked`, until a person connects again.
    pub park_ms: u64,
    /// The answers to hidden polls (a draw tick, a closing window) are published this long after
    /// they are computed from, whatever the computing took, so that the time a bot spends
    /// deciding does not show whether anyone was asked. Less than `draw_ms`.
    pub poll_hold_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            draw_ms: 250,
            window_ms: 8000,
            bot_delay_ms: 700,
            trick_ms: 2000,
            pause_ms: 8000,
            retire_ms: 600_000,
            park_ms: 600_000,
            poll_hold_ms: 100,
        }
    }
}
