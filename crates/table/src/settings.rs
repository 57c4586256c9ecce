//! A table's settings and the server-wide timing of tables.

use cards::record::{self, GameKind};
use serde::{Deserialize, Serialize};

pub use wire::http::{BANK_DEFAULT, Pace};

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
    /// The table plays board `k` (from 0) of a duplicate event (`docs/events.md`): the game
    /// fixes the board's start from `k` ([`crate::game::TableGame::table_settings`]; Da Bai Fen:
    /// one deal with the board's starter and ranks; Madiao: nothing beyond the table's seed, its
    /// one hand is `game_length: hands:1`). Absent: an ordinary table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// No aids: a board of a rated event (`docs/events.md`, "Rated events"). The table's own
    /// match is not rated, but it offers what a rated table offers: no hints, no card tracker,
    /// no take-backs and no pauses. Absent: the table's `rated` alone decides.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_aids: bool,
}

/// Whether hints and the card tracker are offered at a table with these settings: at a casual
/// table, never at a rated one nor at a board of a rated event (`docs/protocol.md`, "Hints and
/// the tracker"). It is the one place
/// that decides.
pub fn hints_allowed(settings: &TableSettings) -> bool {
    !settings.rated && !settings.no_aids
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The largest time bank a table may have, in seconds.
pub const BANK_MAX: u32 = 600;

/// Whether take-backs and pauses are offered at a table: an unrated table where `seat` is the
/// only seat held by a person (spectators may watch; bots and open seats play the others). It is
/// the one place that decides (`docs/protocol.md`, "Take-backs and pauses").
pub fn solo_allowed(settings: &TableSettings, persons: &[bool; 4], seat: usize) -> bool {
    !settings.rated && !settings.no_aids && persons[seat] && persons.iter().filter(|&&p| p).count() == 1
}

/// The longest grace period a table may have, in seconds.
pub const GRACE_MAX: u32 = 120;

fn default_grace() -> u32 {
    15
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A table's settings as stored and as asked for: the zero cash's default and its values.
    #[test]
    fn the_zero_cash_defaults_to_an_unnamed_figure_for_stored_tables_and_old_clients() {
        // A table stored before the choice existed.
        let stored = r#"{"name":"t","game":"madiao","rules":"standard","turn_seconds":30}"#;
        let doc: TableSettings = serde_json::from_str(stored).unwrap();
        assert_eq!(doc.zero_cash, madiao::ZeroCash::Unnamed);
        let chosen =
            r#"{"name":"t","game":"madiao","rules":"standard","turn_seconds":30,"zero_cash":"wang_ying"}"#;
        let doc: TableSettings = serde_json::from_str(chosen).unwrap();
        assert_eq!(doc.zero_cash, madiao::ZeroCash::WangYing);
        let back: TableSettings = serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
        assert_eq!(back, doc);
        // A client that does not send it; one that sends a value that does not exist.
        let req: wire::NewTable = serde_json::from_str(r#"{"game":"madiao"}"#).unwrap();
        assert_eq!(req.zero_cash, madiao::ZeroCash::Unnamed);
        let req: wire::NewTable = serde_json::from_str(r#"{"game":"madiao","zero_cash":"blank"}"#).unwrap();
        assert_eq!(req.zero_cash, madiao::ZeroCash::Blank);
        let err = serde_json::from_str::<wire::NewTable>(r#"{"game":"madiao","zero_cash":"portrait"}"#)
            .unwrap_err();
        assert!(err.to_string().contains("unknown variant `portrait`"), "{err}");
    }
}
