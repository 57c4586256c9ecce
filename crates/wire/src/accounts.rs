//! Accounts (`docs/protocol.md`, "Accounts"): the bodies of signing up, in and out.

use cards::record::GameKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::game::TableStatus;

/// `POST /api/account`'s body: the guest claims an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewAccount {
    /// 3 to 20 ASCII letters, digits, `_` or `-`, beginning with a letter; unique regardless of
    /// case.
    pub username: String,
    /// 8 to 256 characters.
    pub password: String,
}

/// `POST /api/sessions`'s body: signing in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SignIn {
    /// The username, in any case.
    pub username: String,
    /// The password.
    pub password: String,
}

/// A new session (`POST /api/account` and `POST /api/sessions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionReply {
    /// The account's guest id (its seats and tables are the account's).
    pub id: String,
    /// The name shown at tables.
    pub name: String,
    /// The account's username, as written when it was claimed.
    pub username: String,
    /// The session's secret: the bearer token of the API and the `hello` of the WebSocket.
    pub token: String,
    /// When the session ends (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub expires_ms: i64,
}

/// `GET /api/account`: who the session's account is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountInfo {
    /// The account's guest id.
    pub id: String,
    /// The name shown at tables.
    pub name: String,
    /// The username it signs in with.
    pub username: String,
    /// When the account was claimed (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub created_ms: i64,
    /// When this session ends (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub expires_ms: i64,
}

/// `POST /api/account/password`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewPassword {
    /// The password now.
    pub current: String,
    /// The new password (8 to 256 characters).
    pub password: String,
}

/// `POST /api/account/delete`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DeleteAccount {
    /// The account's password.
    pub password: String,
}

/// `DELETE /api/sessions`'s answer: every session of the account is signed out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SignedOut {
    /// How many sessions were signed out (this one included).
    #[ts(type = "number")]
    pub revoked: u64,
}

/// One table of `GET /api/account/tables`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountTable {
    /// The table's id.
    pub id: String,
    /// The game.
    pub game: GameKind,
    /// The table's name.
    pub name: String,
    /// Where the table is in its life.
    pub status: TableStatus,
    /// The account's seat, if it holds one.
    pub seat: Option<u8>,
    /// When the table was made, milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub created_ms: i64,
}

/// `GET /api/account/tables`: the tables the account hosts or sits at, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountTables {
    /// The tables, newest first.
    pub tables: Vec<AccountTable>,
}
