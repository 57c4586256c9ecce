//! The table driver: what stands behind the interface. The local driver runs a table of the
//! table core with bots on this machine; the remote driver talks to a `yezi serve` server. Both deliver the
//! protocol's messages (`docs/protocol.md`) and take the same commands, so the interface has one
//! way of showing and one way of acting for both.

use std::path::PathBuf;
use std::time::Instant;

use wire::{ServerMsg, TableMsg, TableSummary};

/// What a driver delivers to the interface.
// One message at a time passes through: boxing the larger variant would save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A protocol message, as the server would send it to this seat.
    Msg(ServerMsg),
    /// Something about the driver itself.
    Notice(Notice),
}

/// What a driver says about itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Connected (after connecting or reconnecting).
    Connected,
    /// Not connected: connecting, or reconnecting after a drop (the text says how it goes).
    Connecting(String),
    /// The open tables of a server's lobby, to choose from (remote mode before joining).
    Lobby {
        /// The server's address.
        server: String,
        /// The tables.
        tables: Vec<TableSummary>,
    },
    /// The match's record was written to this file.
    RecordSaved(PathBuf),
    /// A line worth showing (an error of the driver, a record that could not be saved…).
    Info(String),
    /// The driver cannot go on (the text says why); the interface shows it and waits to quit.
    Fatal(String),
}

/// What the interface asks of a driver.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// A message for the table, as a client sends it (`docs/protocol.md`, "Client messages"):
    /// the local driver hands it to its table, the remote one sends it on the socket, unchanged.
    Table(TableMsg),
    /// Lobby: join this table.
    Join(String),
    /// Lobby: create a table of this game (`madiao`, `dabaifen`) with bots in the other seats.
    Create(String),
    /// Lobby: list the tables again.
    Refresh,
}

/// A table driver.
pub trait Driver {
    /// Sends a command.
    fn send(&mut self, cmd: Outgoing, now: Instant);

    /// What has happened by `now` (never blocks).
    fn poll(&mut self, now: Instant) -> Vec<Incoming>;

    /// When `poll` next has something to do by itself (a bot's move, the draw's next card), if
    /// the driver knows; the interface polls at least that often.
    fn next_deadline(&self) -> Option<Instant> {
        None
    }

    /// The `yezi/1` record of the match so far (JSON), when this driver has it: an offline match
    /// does, a server's table does not.
    fn record_json(&self) -> Option<String> {
        None
    }

    /// The match is being left (quit, Ctrl-C, the end): saves what must be saved and says what
    /// the player should know afterwards (where the record is), one line each.
    fn finish(&mut self) -> Vec<String>;
}
