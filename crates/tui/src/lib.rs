//! `yezi play`: Madiao and Da Bai Fen in the terminal, against bots on this machine or at a
//! `yezi serve` server, with one interface for both.
//!
//! The parts:
//! - [`driver`]: what stands behind the interface — [`local::LocalTable`] (a table of the table
//!   core, with bots, here) or [`remote::RemoteDriver`] (a server, over the WebSocket protocol). Both deliver the
//!   protocol's messages for the person's seat and take the same commands.
//! - [`model`]: the model those messages build (views, legal decisions, scores).
//! - [`app`]: the interface's state and what each key does.
//! - [`render`]: drawing it with ratatui (tested on ratatui's test backend).
//! - [`term`]: the real terminal, always restored.
//! - [`names`]: cards as shown (codes, Madiao's Chinese names).

pub mod app;
pub mod driver;
pub mod local;
pub mod model;
pub mod names;
pub mod remote;
pub mod render;
pub mod term;
pub mod testing;

use std::path::PathBuf;
use std::time::Instant;

use cards::record::GameKind;

pub use app::App;
pub use local::{LocalConfig, LocalError, LocalTable};

/// Why `yezi play` could not run.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The local match cannot start.
    #[error(transparent)]
    Local(#[from] LocalError),
    /// The terminal failed.
    #[error("terminal: {0}")]
    Terminal(#[from] std::io::Error),
    /// The server cannot be used.
    #[error("{0}")]
    Remote(String),
}

/// An interface over a new local match of `game`, dealt at `now`.
pub fn local_app(game: GameKind, cfg: LocalConfig, now: Instant) -> Result<App, LocalError> {
    let place = format!("offline · seed {}", cfg.seed);
    let driver: Box<dyn driver::Driver> = match game {
        GameKind::Madiao => Box::new(LocalTable::<ai::Madiao>::new(cfg, now)?),
        GameKind::Dabaifen => Box::new(LocalTable::<ai::Dabaifen>::new(cfg, now)?),
    };
    let mut app = App::new(driver, place);
    app.tick(now);
    Ok(app)
}

/// Plays a local match in the terminal; returns the lines to print afterwards.
pub fn play_local(game: GameKind, cfg: LocalConfig) -> Result<Vec<String>, PlayError> {
    let mut app = local_app(game, cfg, Instant::now())?;
    Ok(term::run(&mut app)?)
}

/// Where records go by default: `$XDG_DATA_HOME/yezi/records` (or `~/.local/share/yezi/records`;
/// `./yezi-records` when there is no home).
pub fn records_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("yezi").join("records");
    }
    match std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        Some(h) => PathBuf::from(h).join(".local").join("share").join("yezi").join("records"),
        None => PathBuf::from("yezi-records"),
    }
}

/// A record file name for a match of `game` begun at `unix_seconds` (UTC) with `seed`:
/// `madiao-2026-11-24-0415-seed42.json`.
pub fn record_file_name(game: GameKind, unix_seconds: u64, seed: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let secs = unix_seconds % 86_400;
    let (y, m, d) = table::archive::civil_from_days(days);
    format!("{}-{y:04}-{m:02}-{d:02}-{:02}{:02}-seed{seed}.json", game.name(), secs / 3600, secs / 60 % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names_carry_the_date_and_seed() {
        assert_eq!(record_file_name(GameKind::Madiao, 0, 7), "madiao-1970-01-01-0000-seed7.json");
        // 2026-11-24 04:15:00 UTC.
        assert_eq!(
            record_file_name(GameKind::Dabaifen, 1_795_493_700, 42),
            "dabaifen-2026-11-24-0415-seed42.json"
        );
        assert_eq!(record_file_name(GameKind::Madiao, 951_782_400, 1), "madiao-2000-02-29-0000-seed1.json");
    }
}
