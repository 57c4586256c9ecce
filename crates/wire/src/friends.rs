//! Friends (`docs/protocol.md`, "Friends"): the players an account follows, who of them is online
//! and at which table, and the challenges to a table one sends another.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::TableStatus;

/// The table a followed player is at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct FriendTable {
    /// The table's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its game.
    pub game: GameKind,
    /// Where it is in its life (waiting for players, playing).
    pub status: TableStatus,
}

/// A followed player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Friend {
    /// His username.
    pub username: String,
    /// The name he is shown by.
    pub name: String,
    /// He has a connection open to the server now.
    pub online: bool,
    /// The public table he is seated at, if any (a private table is not named).
    pub table: Option<FriendTable>,
    /// He is seated at a private table.
    pub at_private_table: bool,
    /// Followed since, milliseconds since the Unix epoch.
    pub since_ms: i64,
}

/// Where a challenge stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Sent, not answered yet.
    Pending,
    /// Accepted: its table is made.
    Accepted,
    /// Declined.
    Declined,
    /// Withdrawn by its sender.
    Withdrawn,
}

impl ChallengeStatus {
    /// The status as stored.
    pub fn name(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Withdrawn => "withdrawn",
        }
    }

    /// The status of its stored name.
    pub fn parse(s: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Pending,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Withdrawn,
        ]
        .into_iter()
        .find(|c| c.name() == s)
    }
}

/// A challenge to a table, sent or received.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct Challenge {
    /// Its id.
    pub id: String,
    /// The sender's username.
    pub from: String,
    /// The recipient's username.
    pub to: String,
    /// The game.
    pub game: GameKind,
    /// Where it stands.
    pub status: ChallengeStatus,
    /// Once accepted: the table made for it (the sender sits in seat 0, the recipient's seat 2
    /// is kept for him, bots play seats 1 and 3).
    pub table: Option<String>,
    /// When it was sent, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// True when the caller is its recipient.
    pub incoming: bool,
}

/// `GET /api/friends`: the players the caller follows and his challenges of the last day.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct FriendsReply {
    /// The players followed, in the order they were followed.
    pub friends: Vec<Friend>,
    /// The challenges sent or received in the last 24 hours, the newest first.
    pub challenges: Vec<Challenge>,
}

/// `POST /api/challenges`: a challenge to a followed player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    /// The player's username.
    pub username: String,
    /// The game.
    pub game: GameKind,
}

/// `friend` (a server message, `docs/protocol.md` "Friend notices"): a player the recipient
/// follows came online or went offline, or sat down at a table or left it. It carries his whole
/// state now, as `GET /api/friends` lists it (without `since_ms`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct FriendMsg {
    /// His username.
    pub username: String,
    /// The name he is shown by.
    pub name: String,
    /// He has a connection open to the server (any of its nodes) now.
    pub online: bool,
    /// The public table he is seated at, if any.
    pub table: Option<FriendTable>,
    /// He is seated at a private table.
    pub at_private_table: bool,
}

/// `invited` (a server message): the host of a private event invited the recipient to it
/// (`docs/protocol.md`, "Duplicate events").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct InvitedMsg {
    /// The event's id (`GET /api/events/{id}`, the page `/events/{id}`).
    pub event: String,
    /// The event's name.
    pub name: String,
    /// The host's username.
    pub host: String,
}
