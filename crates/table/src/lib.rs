//! The table core of yezi: what a table is between the engines and the people, with no I/O.
//!
//! - [`game`]: each game as a table runs it (settings and matches, the stages of a hand, hidden
//!   polls answered for persons, views and legal actions for any viewer, the record).
//! - [`machine`]: a table's life as a stage machine driven by inputs, returning effects.
//! - [`log`]: what a table persists, and the match rebuilt from its log.
//! - [`settings`]: a table's settings and the timing of tables.
//! - [`archive`]: the public archive's wire types (finished public games).
//! - [`history`]: a player's finished games: the match rebuilt from a log, and how a seat came out.
//! - [`bots`]: the bots that play for seats.
//! - [`text`]: the checks of names and chat lines.
//! - [`tutorial`]: each game's tutorial, a frozen scripted hand replayed into seat 0's views and
//!   lessons.

pub mod archive;
pub mod bots;
pub mod game;
pub mod history;
pub mod log;
pub mod machine;
pub mod rated;
pub mod seats;
pub mod settings;
pub mod standings;
pub mod text;
pub mod tutorial;
