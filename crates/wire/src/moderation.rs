//! Moderation (`docs/protocol.md`, "Moderation"): a signed-in player's lists of muted and
//! blocked players and his reports, and the operator's admin API (its reports, sanctions, log
//! and a player's games; `yezi admin --json` prints the same bodies).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A player in one of a player's lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Listed {
    /// The guest id.
    pub id: String,
    /// The name shown.
    pub name: String,
}

/// `GET /api/me/moderation`: the signed-in player's lists, the earliest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MyLists {
    /// The players whose chat lines are hidden to this one.
    pub muted: Vec<Listed>,
    /// The players who never sit at a table with this one.
    pub blocked: Vec<Listed>,
}

/// `PUT` or `DELETE` `/api/me/mutes/{guest}` and `/api/me/blocks/{guest}`: the player muted or
/// blocked (or no longer), with the one list changed named by its field (`mute` or `block`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RelationReply {
    /// The other player's guest id.
    pub id: String,
    /// His name shown.
    pub name: String,
    /// For the mutes: whether he is muted now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mute: Option<bool>,
    /// For the blocks: whether he is blocked now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub block: Option<bool>,
    /// Whether the list changed (false: he was in it, or out of it, already).
    pub changed: bool,
}

/// `POST /api/reports`'s body: a report of a player, or of one of his chat lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    /// The guest id of the player reported.
    pub player: String,
    /// With `chat`: the table the line was said at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table: Option<String>,
    /// With `table`: the number (`seq`) of the chat line reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub chat: Option<u64>,
    /// Why: 1 to 500 characters, no control characters.
    pub reason: String,
}

/// `POST /api/reports`'s answer (`201`): the new report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReportMade {
    /// The report's id.
    pub id: String,
}

/// A report as the operator sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReportView {
    /// The report.
    pub id: String,
    /// When, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The guest who reports.
    pub reporter: String,
    /// The guest reported.
    pub player: String,
    /// The reported player's name now.
    pub player_name: Option<String>,
    /// The table of the line reported.
    pub table: Option<String>,
    /// The line's number.
    pub chat: Option<u64>,
    /// The line's text when reported.
    pub chat_text: Option<String>,
    /// Why.
    pub reason: String,
}

/// `GET /api/admin/reports`: the reports, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReportsReply {
    /// The reports.
    pub reports: Vec<ReportView>,
}

/// A sanction as the operator sees it (`POST /api/admin/sanctions` answers with the new one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SanctionView {
    /// The sanction.
    pub id: String,
    /// `mute_chat`, `ban_account` or `ban_address`.
    pub kind: String,
    /// The guest id or the address.
    pub subject: String,
    /// When it was given, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it ends, milliseconds since the Unix epoch.
    pub until_ms: i64,
    /// When it was lifted, milliseconds since the Unix epoch.
    pub lifted_ms: Option<i64>,
    /// Whether it holds now.
    pub in_force: bool,
    /// Why.
    pub reason: String,
    /// The operator.
    pub by: String,
}

/// `GET /api/admin/sanctions`: the sanctions given, newest first, in force or not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SanctionsReply {
    /// The sanctions.
    pub sanctions: Vec<SanctionView>,
}

/// A line of the moderation log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LogView {
    /// The line.
    pub id: String,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The operator.
    pub by: String,
    /// What was done (`mute_chat`, `ban_account`, `ban_address`, `lift`, `remove_chat`).
    pub action: String,
    /// To whom or what.
    pub subject: String,
    /// Why.
    pub reason: String,
}

/// `GET /api/admin/log`: the moderation log, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LogReply {
    /// The lines.
    pub log: Vec<LogView>,
}

/// `POST /api/admin/sanctions`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewSanction {
    /// `mute_chat`, `ban_account` or `ban_address`.
    pub kind: String,
    /// The username or guest id (`mute_chat`, `ban_account`), or the address (`ban_address`).
    pub target: String,
    /// For how long, in minutes.
    pub minutes: u64,
    /// Why.
    pub reason: String,
    /// The operator's name.
    pub by: String,
}

/// `POST /api/admin/sanctions/{id}/lift`'s body: why, and who.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Because {
    /// Why.
    pub reason: String,
    /// The operator's name.
    pub by: String,
}

/// `POST /api/admin/sanctions/{id}/lift`'s answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LiftedReply {
    /// The sanction lifted.
    pub lifted: String,
}

/// `POST /api/admin/chat/remove`'s body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct RemoveChat {
    /// The table.
    pub table: String,
    /// The line's number (`seq`).
    pub chat: u64,
    /// Why.
    pub reason: String,
    /// The operator's name.
    pub by: String,
}

/// A chat line removed: its table and number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemovedLine {
    /// The table.
    pub table: String,
    /// The line's number (`seq`).
    pub chat: u64,
}

/// `POST /api/admin/chat/remove`'s answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RemovedReply {
    /// The line removed.
    pub removed: RemovedLine,
}

/// A game of a player, as the operator sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameLine {
    /// The table.
    pub id: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// Where the table is in its life (`waiting`, `playing`, `finished`, `closed`).
    pub status: String,
    /// When it was created, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The seats: a person's name and guest id, a bot's name, or empty.
    pub seats: Vec<String>,
}

/// `GET /api/admin/players/{player}/games`: a player's latest tables, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerGames {
    /// The player's name shown.
    pub name: String,
    /// His tables.
    pub games: Vec<GameLine>,
}
