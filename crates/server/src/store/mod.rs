//! Storage: the traits every backend implements, one a concern ([`TableLog`], [`Leases`],
//! [`Identities`], [`Archive`], [`AnalysisStore`], together [`Store`]), the rows they store, and
//! opening a backend from a URL (`sqlite:PATH` or a plain path for SQLite, `postgres://…` for PostgreSQL).
//!
//! A table is stored as its settings, its secret seed, its four seats and its **action log**: every
//! engine action in order, each with its hand number and seat, in the engines' JSON shape (the
//! `yezi/1` record's action without the seat, which is a column). The log is everything needed to
//! rebuild the table exactly; the `yezi/1` record of a finished game is written from it and
//! stored with the table. Every backend passes the one conformance suite (`store::conformance`,
//! compiled with the `conformance` feature, which the tests turn on).

use async_trait::async_trait;

#[cfg(feature = "conformance")]
pub mod conformance;
pub mod events;
pub mod friends;
pub mod moderation;
pub mod play_now;
pub mod postgres;
pub mod provenance;
pub mod puzzles;
pub(crate) mod sql;
pub mod sqlite;
pub mod tournaments;

/// What went wrong in storage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed an operation.
    #[error("database error: {0}")]
    Backend(String),
    /// A row with this key already exists (an action number used twice, a guest token reused).
    #[error("already stored: {0}")]
    Conflict(String),
    /// A stored value cannot be read back.
    #[error("a stored value is unreadable: {0}")]
    Corrupt(String),
    /// The table does not exist.
    #[error("no table {0:?}")]
    NoTable(String),
    /// The database URL names no backend this server has (the URL is kept with its password
    /// redacted).
    #[error("unsupported database URL {0:?}: use a file path, sqlite:PATH or postgres://…")]
    BadUrl(String),
    /// The database cannot be used at all: it cannot be written, or fails its integrity check
    /// (found when it is opened, before the server starts).
    #[error("{0}")]
    Unusable(String),
    /// The write names an epoch of the table's lease that is no longer the current one (or the
    /// lease has run out): another node may run the table now, so nothing was written.
    #[error("fenced: {0}")]
    Fenced(String),
}

/// The epoch of a table's lease: how many times the table has been claimed. Every write of the
/// table names the epoch its writer holds, and is refused ([`StoreError::Fenced`]) once another
/// epoch has begun.
pub type Epoch = i64;

/// The epoch of a table's first lease, which its creator holds.
pub const FIRST_EPOCH: Epoch = 1;

/// Which node holds a table's lease, and in which epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    /// The node's name ([`Leases::node`]).
    pub node: String,
    /// The lease's epoch.
    pub epoch: Epoch,
}

/// The leases a node still holds after renewing them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// The store has no leases (one node on its own database): every table is this node's.
    Every,
    /// These tables (by id); any other table the node runs has been lost.
    Only(std::collections::HashSet<String>),
}

/// How a store is opened.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// With PostgreSQL, how many connections the store opens at most.
    pub pool: usize,
    /// With PostgreSQL, how long a table's lease lasts unless renewed (milliseconds).
    pub lease_ms: u64,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions { pool: postgres::DEFAULT_POOL, lease_ms: DEFAULT_LEASE_MS }
    }
}

/// How long a table's lease lasts unless renewed: the owner renews every third of it, and a
/// table whose node died is claimed by another within about this long.
pub const DEFAULT_LEASE_MS: u64 = 5_000;

/// A guest identity: a name and the hash of its secret token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuestRow {
    /// Public identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// SHA-256 of the token, as hexadecimal digits.
    pub token_hash: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

pub use table::log::{ChatRow, LoggedAction, SeatRow, TableStatus};

/// A table as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRow {
    /// Public identifier (also the invite).
    pub id: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// The settings as JSON (see `table::TableSettings`).
    pub settings: String,
    /// The secret seed every deck of the table comes from.
    pub seed: u64,
    /// The guest who created the table.
    pub host: Option<String>,
    /// Where the table is in its life.
    pub status: TableStatus,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// The four seats.
    pub seats: [SeatRow; 4],
}

/// The storage every backend provides. Every write is durable when its future completes: the
/// server acknowledges a move only after [`TableLog::append_actions`] has returned.
///
/// Storage by concern: each concern is a trait of its own ([`TableLog`], [`Leases`],
/// [`Identities`], [`Archive`], …), and the backends implement each one beside its SQL. The parts
/// of the server still hold the whole store (`dyn Store`), not one concern.
pub trait Store:
    TableLog
    + Leases
    + Identities
    + Archive
    + AnalysisStore
    + moderation::Moderation
    + puzzles::PuzzleStore
    + friends::FriendStore
    + events::EventStore
    + tournaments::TournamentStore
    + play_now::PlayNowStore
    + Send
    + Sync
    + 'static
{
    /// A short name of the backend (`sqlite`, `postgres`).
    fn backend(&self) -> &'static str;
}

/// A table's stored life: its row, seats and status, its action log and chat, its record, and
/// the fenced writes of its task ([`TableLog::write_step`]). Every write is durable when its
/// future completes: the server acknowledges a move only after its writes have returned.
#[async_trait]
pub trait TableLog: Send + Sync {
    /// Stores a new table with its seats; an id already stored is a conflict.
    async fn create_table(&self, table: &TableRow) -> Result<(), StoreError>;
    /// One table.
    async fn table(&self, id: &str) -> Result<Option<TableRow>, StoreError>;
    /// Every table not finished, oldest first (what a restarting server resumes).
    async fn unfinished_tables(&self) -> Result<Vec<TableRow>, StoreError>;
    /// Changes who holds a seat.
    async fn set_seat(&self, table: &str, seat: u8, row: &SeatRow) -> Result<(), StoreError>;
    /// Changes the status of a table that is not finished.
    async fn set_status(&self, table: &str, status: TableStatus) -> Result<(), StoreError>;
    /// Appends actions to a table's log, all or none; an action number already stored is a conflict.
    async fn append_actions(&self, table: &str, actions: &[LoggedAction]) -> Result<(), StoreError>;
    /// A table's whole log, in order.
    async fn actions(&self, table: &str) -> Result<Vec<LoggedAction>, StoreError>;
    /// Appends a chat message; a number already stored is a conflict.
    async fn append_chat(&self, table: &str, chat: &ChatRow) -> Result<(), StoreError>;
    /// The last `limit` chat messages of a table, oldest first.
    async fn recent_chat(&self, table: &str, limit: u32) -> Result<Vec<ChatRow>, StoreError>;
    /// Marks a table finished and stores its `yezi/1` record.
    async fn finish_table(&self, table: &str, record: &str) -> Result<(), StoreError>;
    /// The record of a finished table (`None` for a table that is not finished or not stored).
    async fn record(&self, table: &str) -> Result<Option<String>, StoreError>;
    /// Stores one step's writes of a table, in order and all or none, if `epoch` is still the
    /// table's current lease held by this node; else nothing is written and the answer is
    /// [`StoreError::Fenced`].
    async fn write_step(&self, table: &str, epoch: Epoch, writes: &[Write]) -> Result<(), StoreError>;
    /// How many unfinished tables this guest hosts (the limit per guest counts them).
    async fn hosted_tables(&self, guest: &str) -> Result<usize, StoreError>;
    /// Stores the lobby's summaries (JSON) of tables this node runs, for the other nodes'
    /// lobbies (a store of one node keeps none: its lobby is its own tables).
    async fn put_summaries(&self, rows: &[(String, String)]) -> Result<(), StoreError>;
    /// The stored summaries (JSON) of the unfinished tables whose lease is held.
    async fn summaries(&self) -> Result<Vec<String>, StoreError>;
}

/// Ownership. One node runs a table at a time: the one holding its lease. A store shared by
/// several nodes (PostgreSQL) keeps the leases and fences the writes; a store of one node
/// (SQLite) gives that node every table.
#[async_trait]
pub trait Leases: Send + Sync {
    /// This node's name in the leases (unique to the process).
    fn node(&self) -> &str;
    /// Claims for this node up to `limit` unfinished tables that no node holds (never claimed,
    /// or their lease ran out), skipping those another node is claiming or writing at the same
    /// moment; each comes with the epoch its writes must name.
    async fn claim_orphans(&self, limit: u32) -> Result<Vec<(TableRow, Epoch)>, StoreError>;
    /// Claims one unfinished table if no node holds it (`None`: held by a node, finished, or
    /// not stored).
    async fn claim_table(&self, id: &str) -> Result<Option<(TableRow, Epoch)>, StoreError>;
    /// Renews every lease this node holds, in one statement, and says which it still holds.
    async fn renew_leases(&self) -> Result<Held, StoreError>;
    /// Who holds each of these tables' leases now (tables nobody holds are left out).
    async fn holders(&self, tables: &[String]) -> Result<Vec<(String, Holder)>, StoreError>;
    /// Gives up a lease this node holds in `epoch`, so that another node may claim the table at
    /// once.
    async fn release(&self, table: &str, epoch: Epoch) -> Result<(), StoreError>;
    /// Says that this node lives (a write, so it also proves the database writable), and
    /// whether it is a cluster member (has a bus); answers the database's clock and the members
    /// heard from lately ([`Beat`]).
    async fn beat(&self, bus: bool) -> Result<Beat, StoreError>;
    /// This node leaves: it no longer counts among the members (a node that drains).
    async fn leave(&self) -> Result<(), StoreError>;
    /// Up to `limit` unfinished tables that no node holds, without claiming them.
    async fn orphans(&self, limit: u32) -> Result<Vec<String>, StoreError>;
}

/// How long a node that said it lives ([`Leases::beat`]) counts as a member: it beats every
/// half second, so a node missing for this long is gone.
pub const MEMBER_MS: i64 = 2_000;

/// A node's heartbeat's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    /// The database's clock when it answered, milliseconds since the Unix epoch: the one clock
    /// the nodes share.
    pub now_ms: i64,
    /// The cluster members (nodes with a bus) heard from in the last [`MEMBER_MS`], this one
    /// included when it has a bus, sorted.
    pub members: Vec<String>,
    /// How many tables each node holds a live lease of (nodes holding none are left out).
    pub loads: Vec<(String, u64)>,
}

/// Guests, accounts and sessions (see `crate::api::accounts`). An account belongs to one guest
/// (the guest who claimed it), so the guest's tables and seats are the account's; sessions are
/// further tokens of that guest, stored hashed, each with an expiry and revocable.
#[async_trait]
pub trait Identities: Send + Sync {
    /// Stores a new guest; a token hash already stored is a conflict.
    async fn create_guest(&self, guest: &GuestRow) -> Result<(), StoreError>;
    /// The guest whose token has this hash.
    async fn guest_by_token_hash(&self, token_hash: &str) -> Result<Option<GuestRow>, StoreError>;
    /// One guest, by id.
    async fn guest(&self, id: &str) -> Result<Option<GuestRow>, StoreError>;
    /// Stores a new account and its first session, and retires the guest's own token (its hash
    /// becomes `claimed:HASH`, which no token hashes to), all or none. A username key already
    /// stored, or a guest that has an account already, is a conflict.
    async fn claim_account(&self, account: &AccountRow, session: &SessionRow) -> Result<(), StoreError>;
    /// The account of this username key (the lower-case username).
    async fn account_by_username(&self, username_key: &str) -> Result<Option<AccountRow>, StoreError>;
    /// The account of this guest.
    async fn account_by_guest(&self, guest: &str) -> Result<Option<AccountRow>, StoreError>;
    /// Replaces an account's password hash.
    async fn set_password(&self, guest: &str, password_hash: &str) -> Result<(), StoreError>;
    /// Deletes the account of `guest`, all or none: its row and every session of the guest go;
    /// the guest is renamed `name` everywhere it is stored (the guest, its seats, its chat lines,
    /// and the `players` of the records of its finished tables); the guest's token is retired
    /// (`deleted:ID`). Its tables stay. Deleting no account is not an error.
    async fn delete_account(&self, guest: &str, name: &str) -> Result<(), StoreError>;
    /// Stores a new session; a token hash already stored is a conflict.
    async fn create_session(&self, session: &SessionRow) -> Result<(), StoreError>;
    /// The session whose token has this hash (revoked and expired ones too).
    async fn session_by_token_hash(&self, token_hash: &str) -> Result<Option<SessionRow>, StoreError>;
    /// Revokes the sessions of `guest` not yet revoked (`at_ms` is the time of revoking), except
    /// the one whose token has the hash `except`; returns how many it revoked. Sessions revoked
    /// or expired more than [`SESSION_KEEP_MS`] before `at_ms` are deleted on the way.
    async fn revoke_sessions(&self, guest: &str, except: Option<&str>, at_ms: i64)
    -> Result<u64, StoreError>;
    /// Revokes one session (by its token's hash) if it is not revoked yet.
    async fn revoke_session(&self, token_hash: &str, at_ms: i64) -> Result<(), StoreError>;
    /// The `limit` most recently created tables that `guest` hosts or holds a seat at (as
    /// stored), newest first.
    async fn tables_of_guest(&self, guest: &str, limit: u32) -> Result<Vec<TableRow>, StoreError>;
    /// Notes that `guest`'s account was used from the client address `address` at `at_ms`: keeps
    /// its keyed hash ([`crate::ids::keyed_hash`] with this database's secret, made on first use
    /// from `new_secret`), never the address; drops the guest's hashes older than
    /// [`crate::ratings::ADDRESS_WINDOW_MS`] and all but its newest
    /// [`crate::ratings::ADDRESS_LIMIT`].
    async fn note_address(
        &self,
        guest: &str,
        address: &str,
        at_ms: i64,
        new_secret: &str,
    ) -> Result<(), StoreError>;
    /// The address hashes kept for `guest`, newest first.
    async fn address_hashes(&self, guest: &str) -> Result<Vec<String>, StoreError>;
}

/// What is read of finished games: the public archive (every finished game of a table that was
/// not private, indexed when the table is finished, [`TableLog::finish_table`] or a
/// [`Write::Finish`]; a private table's game is never in it) and the ratings (`crate::ratings`:
/// an account's rating per game, and a row per account and rated match, written by a
/// [`Write::Rated`] with the table's finish, once; deleting an account deletes them).
#[async_trait]
pub trait Archive: Send + Sync {
    /// The archived games the query selects, newest first (by end time, then id), at most
    /// `query.limit`.
    async fn archived_games(&self, query: &ArchiveQuery) -> Result<Vec<ArchivedGame>, StoreError>;
    /// [`Archive::archived_games`], each with its `yezi/1` record.
    async fn archived_records(&self, query: &ArchiveQuery)
    -> Result<Vec<(ArchivedGame, String)>, StoreError>;
    /// The ratings of `guest`'s account, one per game it played a rated match of.
    async fn ratings_of(&self, guest: &str) -> Result<Vec<RatingRow>, StoreError>;
    /// The accounts rated in `game` (`madiao`, `dabaifen`), best rating first (then fewest
    /// games, then username), `limit` from `offset`, with their usernames; and how many there are.
    async fn leaderboard(
        &self,
        game: &str,
        offset: u32,
        limit: u32,
    ) -> Result<(Vec<(String, RatingRow)>, u32), StoreError>;
    /// The latest `limit` rated matches of `guest`'s account, newest first.
    async fn rating_history(&self, guest: &str, limit: u32) -> Result<Vec<HistoryRow>, StoreError>;
}

/// Analyses (`crate::analysis`): the analysis of one seat's decisions in one hand of a finished
/// table, as its JSON (`docs/analysis.md`), by table, hand, seat, seed and budget.
#[async_trait]
pub trait AnalysisStore: Send + Sync {
    /// Stores an analysis; one already stored under the same key is replaced (the same key gives
    /// the same analysis). A table that is not stored is [`StoreError::NoTable`].
    async fn put_analysis(&self, key: &AnalysisKey, analysis: &str) -> Result<(), StoreError>;
    /// The analysis stored under `key`, if any.
    async fn analysis(&self, key: &AnalysisKey) -> Result<Option<String>, StoreError>;
}

/// What an analysis is stored by: the same key gives the same analysis.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnalysisKey {
    /// The table whose record it analyses.
    pub table: String,
    /// The hand of the record, from 0.
    pub hand: u32,
    /// The seat analysed (0–3).
    pub seat: u8,
    /// The seed of the bot's sampled worlds.
    pub seed: u64,
    /// The bot's thinking per decision, in nominal milliseconds.
    pub think_ms: u32,
}

/// The schema of analyses, in SQL both backends accept: one row per analysis (its JSON).
pub(crate) const ANALYSIS_SCHEMA: &[&str] = &["CREATE TABLE IF NOT EXISTS analyses (
        table_id TEXT NOT NULL REFERENCES tables (id),
        hand INTEGER NOT NULL,
        seat SMALLINT NOT NULL,
        seed BIGINT NOT NULL,
        think_ms INTEGER NOT NULL,
        analysis TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        PRIMARY KEY (table_id, hand, seat, seed, think_ms))"];

/// The schema of friends, in SQL both backends accept.
pub(crate) const FRIENDS_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS follows (
        follower_id TEXT NOT NULL,
        followed_id TEXT NOT NULL,
        since_ms BIGINT NOT NULL,
        PRIMARY KEY (follower_id, followed_id))",
    "CREATE INDEX IF NOT EXISTS follows_by_followed ON follows (followed_id)",
    // `status`: `pending`, `accepted` (with `table_id`), `declined` or `withdrawn`.
    "CREATE TABLE IF NOT EXISTS challenges (
        id TEXT PRIMARY KEY,
        from_id TEXT NOT NULL,
        to_id TEXT NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        table_id TEXT,
        created_ms BIGINT NOT NULL,
        answered_ms BIGINT)",
    "CREATE INDEX IF NOT EXISTS challenges_to ON challenges (to_id, created_ms)",
    "CREATE INDEX IF NOT EXISTS challenges_from ON challenges (from_id, created_ms)",
    // Which node each account has a connection open to (a cluster's "online").
    "CREATE TABLE IF NOT EXISTS presence (
        guest_id TEXT NOT NULL,
        node TEXT NOT NULL,
        since_ms BIGINT NOT NULL,
        PRIMARY KEY (guest_id, node))",
];

/// The schema of duplicate events (see [`events`]), in SQL both backends accept.
pub(crate) const EVENT_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS events (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        status TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        version BIGINT NOT NULL,
        doc TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS events_by_status ON events (status, created_ms)",
];

/// The schema of puzzles, in SQL both backends accept.
pub(crate) const PUZZLE_SCHEMA: &[&str] = &[
    // `kind` is `player` (subject: a guest id) or `puzzle` (subject: a puzzle id).
    "CREATE TABLE IF NOT EXISTS puzzle_ratings (
        kind TEXT NOT NULL,
        game TEXT NOT NULL,
        subject TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts BIGINT NOT NULL,
        solved BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (kind, game, subject))",
    "CREATE TABLE IF NOT EXISTS puzzle_attempts (
        guest_id TEXT NOT NULL,
        game TEXT NOT NULL,
        puzzle_id TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        solved BIGINT NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        rating_after DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guest_id, game, puzzle_id))",
    "CREATE INDEX IF NOT EXISTS puzzle_attempts_by_time ON puzzle_attempts (guest_id, game, at_ms)",
];

/// The schema of tournaments, in SQL both backends accept.
pub(crate) const TOURNAMENT_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS tournaments (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        host TEXT NOT NULL,
        status TEXT NOT NULL,
        state TEXT NOT NULL,
        version BIGINT NOT NULL,
        driver TEXT NOT NULL,
        driver_until BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, created_ms)",
];

/// The schema of quick pairing's queue (see [`play_now`]), in SQL both backends accept.
pub(crate) const PLAY_NOW_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS play_now (
        guest TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        account BIGINT NOT NULL,
        since_ms BIGINT NOT NULL,
        bots_ms BIGINT NOT NULL,
        seen_ms BIGINT NOT NULL,
        table_id TEXT,
        seat BIGINT,
        with_names TEXT NOT NULL,
        seated_ms BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS play_now_by_game ON play_now (game, since_ms)",
];

/// The schema, in SQL both backends accept.
pub(crate) const MODERATION_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS mod_mutes (
        guest_id TEXT NOT NULL,
        target_id TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        PRIMARY KEY (guest_id, target_id))",
    "CREATE TABLE IF NOT EXISTS mod_blocks (
        guest_id TEXT NOT NULL,
        target_id TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        PRIMARY KEY (guest_id, target_id))",
    "CREATE INDEX IF NOT EXISTS mod_blocks_by_target ON mod_blocks (target_id)",
    "CREATE TABLE IF NOT EXISTS mod_reports (
        id TEXT PRIMARY KEY,
        reporter_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        table_id TEXT,
        chat_seq BIGINT,
        chat_text TEXT,
        reason TEXT NOT NULL,
        created_ms BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS mod_reports_by_time ON mod_reports (created_ms)",
    "CREATE INDEX IF NOT EXISTS mod_reports_by_reporter ON mod_reports (reporter_id, created_ms)",
    "CREATE TABLE IF NOT EXISTS mod_sanctions (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        until_ms BIGINT NOT NULL,
        lifted_ms BIGINT,
        reason TEXT NOT NULL,
        by_whom TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS mod_sanctions_by_subject ON mod_sanctions (subject, until_ms)",
    "CREATE TABLE IF NOT EXISTS mod_log (
        id TEXT PRIMARY KEY,
        at_ms BIGINT NOT NULL,
        by_whom TEXT NOT NULL,
        action TEXT NOT NULL,
        subject TEXT NOT NULL,
        reason TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS mod_log_by_time ON mod_log (at_ms)",
];

pub use crate::ratings::{HistoryRow, RatingRow};

/// An account: a username and a password, owned by the guest who claimed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// The guest whose account it is.
    pub guest: String,
    /// The username as its owner wrote it.
    pub username: String,
    /// The username in lower case: unique among accounts.
    pub username_key: String,
    /// The password's argon2id hash, in the PHC string format.
    pub password_hash: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// A session: a token of an account's guest, stored as its hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of the token, as hexadecimal digits.
    pub token_hash: String,
    /// The guest (with an account) the session is of.
    pub guest: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When the session ends, milliseconds since the Unix epoch.
    pub expires_ms: i64,
    /// When the session was revoked (signed out), if it was.
    pub revoked_ms: Option<i64>,
}

/// How long a revoked or expired session is kept (so that its token is refused as revoked or
/// expired rather than unknown) before it may be deleted: 30 days.
pub const SESSION_KEEP_MS: i64 = 30 * 24 * 3600 * 1000;

/// `(table, seat, record)` rows, ordered by table, grouped as `(table, seats, record)`.
pub(crate) fn group_seats(rows: Vec<(String, i64, String)>) -> Vec<(String, Vec<usize>, String)> {
    let mut out: Vec<(String, Vec<usize>, String)> = Vec::new();
    for (table, seat, record) in rows {
        let seat = usize::try_from(seat).unwrap_or(usize::MAX);
        match out.last_mut() {
            Some((t, seats, _)) if *t == table => seats.push(seat),
            _ => out.push((table, vec![seat], record)),
        }
    }
    out
}

/// A table's `settings` (JSON) whose `name` holds one of `old` (a deleted account's former
/// names, as in "NAME's table") with each replaced by `name`: the new settings and the new table
/// name, or `None` when the name holds none of them (or the settings are not a JSON object).
pub(crate) fn forget_in_settings(settings: &str, old: &[String], name: &str) -> Option<(String, String)> {
    let mut v = serde_json::from_str::<serde_json::Value>(settings).ok()?;
    let table_name = v.get("name")?.as_str()?.to_string();
    let mut renamed = table_name.clone();
    // The longest first: a username may be part of the guest's name.
    let mut old: Vec<&String> = old.iter().filter(|o| !o.is_empty()).collect();
    old.sort_by_key(|o| std::cmp::Reverse(o.len()));
    for o in old {
        renamed = renamed.replace(o.as_str(), name);
    }
    if renamed == table_name {
        return None;
    }
    v["name"] = serde_json::Value::String(renamed.clone());
    Some((v.to_string(), renamed))
}

/// `text` with each of `old` (a deleted account's former names, found in any ASCII case)
/// replaced by `name`, or `None` when it holds none of them: how a report's reason and quoted
/// chat line forget a deleted account (`docs/protocol.md`, "Deleting an account").
pub(crate) fn forget_in_text(text: &str, old: &[String], name: &str) -> Option<String> {
    // The longest first: a username may be part of the guest's name.
    let mut old: Vec<&String> = old.iter().filter(|o| !o.is_empty()).collect();
    old.sort_by_key(|o| std::cmp::Reverse(o.len()));
    let mut out = text.to_string();
    for o in old {
        let mut next = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while !rest.is_empty() {
            if rest.len() >= o.len()
                && rest.is_char_boundary(o.len())
                && rest[..o.len()].eq_ignore_ascii_case(o)
            {
                next.push_str(name);
                rest = &rest[o.len()..];
            } else {
                let c = rest.chars().next().unwrap_or_default();
                next.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        out = next;
    }
    (out != text).then_some(out)
}

/// `record` (a `yezi/1` record's JSON) with the `players` of `seats` replaced by `name`; a record
/// that is not a JSON object, or has no `players` list, is returned as it is.
pub(crate) fn rename_in_record(record: &str, seats: &[usize], name: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(record) else { return record.to_string() };
    let Some(players) = v.get_mut("players").and_then(|p| p.as_array_mut()) else {
        return record.to_string();
    };
    for &s in seats {
        if let Some(p) = players.get_mut(s) {
            *p = serde_json::Value::String(name.to_string());
        }
    }
    v.to_string()
}

pub use table::archive::{ArchiveCursor, ArchivedGame};

/// Which players' games an archive query selects (names compared in lower case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerMatch {
    /// A person whose name contains this text.
    Contains(String),
    /// A person of exactly this name.
    Exact(String),
}

/// A query of the public archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveQuery {
    /// Only games a person matching this played.
    pub player: Option<PlayerMatch>,
    /// Only games that ended at or after this time (milliseconds since the Unix epoch).
    pub from_ms: Option<i64>,
    /// Only games that ended before this time.
    pub to_ms: Option<i64>,
    /// Only games after this place in the order (newest first).
    pub after: Option<ArchiveCursor>,
    /// At most this many games.
    pub limit: u32,
}

impl ArchiveQuery {
    /// Every archived game, `limit` at a time.
    pub fn all(limit: u32) -> ArchiveQuery {
        ArchiveQuery { player: None, from_ms: None, to_ms: None, after: None, limit }
    }

    /// The `LIKE` pattern of the player condition (`\` escapes), if any.
    pub(crate) fn player_pattern(&self) -> Option<String> {
        let escape = |t: &str| {
            let key = table::archive::name_key(t);
            let mut out = String::with_capacity(key.len());
            for c in key.chars() {
                if matches!(c, '%' | '_' | '\\') {
                    out.push('\\');
                }
                out.push(c);
            }
            out
        };
        self.player.as_ref().map(|p| match p {
            PlayerMatch::Contains(t) => format!("%{}%", escape(t)),
            PlayerMatch::Exact(t) => escape(t),
        })
    }
}

/// What the archive stores of a game finished now: its entry (with the record's `players`
/// as JSON) and the name keys of its persons; `None` for a private table's game.
pub(crate) struct ArchiveEntry {
    pub game: String,
    pub name: String,
    pub finished_ms: i64,
    pub players: String,
    pub keys: Vec<String>,
}

/// The archive entry of a table finishing now with `record`, from its stored `game` and
/// `settings` (`None` when the table is private, or its settings cannot be read: kept out).
pub(crate) fn archive_entry(game: &str, settings: &str, record: &str) -> Option<ArchiveEntry> {
    let settings: serde_json::Value = serde_json::from_str(settings).ok()?;
    if settings.get("private").and_then(serde_json::Value::as_bool).unwrap_or(false) {
        return None;
    }
    let name = settings.get("name").and_then(serde_json::Value::as_str).unwrap_or("").to_string();
    let (players, keys) = archive_players(record)?;
    Some(ArchiveEntry { game: game.to_string(), name, finished_ms: now_ms(), players, keys })
}

/// What the archive keeps of a record's players: the `players` list (JSON) and the persons'
/// names as searched (bots left out), or `None` when the record cannot be read.
pub(crate) fn archive_players(record: &str) -> Option<(String, Vec<String>)> {
    let record: serde_json::Value = serde_json::from_str(record).ok()?;
    let players: Vec<String> =
        record.get("players").and_then(|p| serde_json::from_value(p.clone()).ok()).unwrap_or_default();
    let mut keys: Vec<String> = table::archive::seats_of(&players)
        .into_iter()
        .filter(|s| !s.bot)
        .map(|s| table::archive::name_key(&s.name))
        .collect();
    keys.sort();
    keys.dedup();
    Some((serde_json::to_string(&players).ok()?, keys))
}

/// An archived game from its stored columns.
pub(crate) fn archived_from(
    id: String,
    game: &str,
    name: String,
    finished_ms: i64,
    players: &str,
) -> Result<ArchivedGame, StoreError> {
    let game = match game {
        "madiao" => cards::record::GameKind::Madiao,
        "dabaifen" => cards::record::GameKind::Dabaifen,
        other => return Err(StoreError::Corrupt(format!("archived game {id}: game {other:?}"))),
    };
    let players: Vec<String> = serde_json::from_str(players)
        .map_err(|e| StoreError::Corrupt(format!("archived game {id}: players: {e}")))?;
    Ok(ArchivedGame { id, game, name, finished_ms, seats: table::archive::seats_of(&players), score: None })
}

/// The archive's schema, in SQL both backends accept: one row per archived game (`players` is
/// the record's `players` as JSON) and one per person's name key in it.
pub(crate) const ARCHIVE_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS archive (
        table_id TEXT PRIMARY KEY REFERENCES tables (id),
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        finished_ms BIGINT NOT NULL,
        players TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS archive_by_time ON archive (finished_ms, table_id)",
    "CREATE TABLE IF NOT EXISTS archive_players (
        table_id TEXT NOT NULL REFERENCES archive (table_id),
        name TEXT NOT NULL,
        PRIMARY KEY (name, table_id))",
];

pub use table::machine::Write;

/// `text` with every password it shows replaced by `***`: the password of a URL's user
/// (`postgres://user:PASSWORD@host/db`, wherever such a URL appears in the text) and every
/// `password=VALUE` (a URL's query parameter, or a key/value connection string's
/// `password=VALUE` or `password = 'VALUE'`). Every message that may show a database URL passes
/// through this.
pub fn redact(text: &str) -> String {
    redact_key_values(&redact_userinfo(text))
}

/// Redacts the password of every `scheme://user:PASSWORD@…` in `text`.
fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        // The URL runs to the next white space or quote; its authority to the query or fragment.
        let url_end =
            rest.find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '`').unwrap_or(rest.len());
        let authority_end = rest[..url_end].find(['?', '#']).unwrap_or(url_end);
        if let Some(at) = rest[..authority_end].rfind('@')
            && let Some(colon) = rest[..at].find(':')
        {
            out.push_str(&rest[..=colon]);
            out.push_str("***");
            rest = &rest[at..];
        }
    }
    out.push_str(rest);
    out
}

/// Redacts every `password=VALUE` (any case, spaces around `=` allowed, the value plain up to
/// white space, `&` or `#`, or quoted in `'…'` with `\'` escapes).
fn redact_key_values(text: &str) -> String {
    const KEY: &str = "password";
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(k) = lower[from..].find(KEY).map(|k| from + k) {
        let after_key = k + KEY.len();
        let eq = text[after_key..].len() - text[after_key..].trim_start().len() + after_key;
        if !text[eq..].starts_with('=') {
            out.push_str(&text[from..after_key]);
            from = after_key;
            continue;
        }
        let value_start = eq + 1 + (text[eq + 1..].len() - text[eq + 1..].trim_start().len());
        let value = &text[value_start..];
        let value_len = if let Some(quoted) = value.strip_prefix('\'') {
            let mut escaped = false;
            let mut end = value.len();
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '\'' => {
                        end = i + 2;
                        break;
                    }
                    _ => {}
                }
            }
            end
        } else {
            value.find(|c: char| c.is_whitespace() || c == '&' || c == '#' || c == '"').unwrap_or(value.len())
        };
        out.push_str(&text[from..value_start]);
        if value_len > 0 {
            out.push_str("***");
        }
        from = value_start + value_len;
    }
    out.push_str(&text[from..]);
    out
}

/// Opens the backend a URL names: `postgres://…` or `postgresql://…` for PostgreSQL;
/// `sqlite:PATH`, `sqlite://PATH` or a plain file path for SQLite (created when missing).
pub async fn open(url: &str) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    open_with(url, OpenOptions::default()).await
}

/// [`open`], with options for a PostgreSQL database (SQLite needs none).
pub async fn open_with(url: &str, options: OpenOptions) -> Result<std::sync::Arc<dyn Store>, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(std::sync::Arc::new(postgres::PgStore::connect_with(url, None, options).await?))
    } else if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
        Ok(std::sync::Arc::new(sqlite::SqliteStore::open(path)?))
    } else if url.contains("://") {
        Err(StoreError::BadUrl(redact(url)))
    } else {
        Ok(std::sync::Arc::new(sqlite::SqliteStore::open(url)?))
    }
}

/// The schema, in SQL both backends accept.
pub(crate) const SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS guests (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_ms BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        settings TEXT NOT NULL,
        seed BIGINT NOT NULL,
        host TEXT,
        status TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        record TEXT)",
    "CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, created_ms)",
    "CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables (id),
        seat SMALLINT NOT NULL,
        kind TEXT NOT NULL,
        bot TEXT,
        guest_id TEXT,
        name TEXT,
        PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables (id),
        seq BIGINT NOT NULL,
        hand INTEGER NOT NULL,
        seat SMALLINT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS chat (
        table_id TEXT NOT NULL REFERENCES tables (id),
        seq BIGINT NOT NULL,
        at_ms BIGINT NOT NULL,
        guest_id TEXT,
        name TEXT NOT NULL,
        seat SMALLINT,
        text TEXT NOT NULL,
        PRIMARY KEY (table_id, seq))",
    "CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL)",
    // Accounts: see `Identities::claim_account`.
    "CREATE TABLE IF NOT EXISTS accounts (
        guest_id TEXT PRIMARY KEY REFERENCES guests (id),
        username TEXT NOT NULL,
        username_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sessions (
        token_hash TEXT PRIMARY KEY,
        guest_id TEXT NOT NULL REFERENCES guests (id),
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        revoked_ms BIGINT)",
    "CREATE INDEX IF NOT EXISTS sessions_by_guest ON sessions (guest_id)",
    "CREATE INDEX IF NOT EXISTS seats_by_guest ON seats (guest_id)",
];

/// The write every backend makes when it opens a database, to find a database it cannot write
/// before the server starts: the time of the last start (`$1`/`?1`: milliseconds, as text).
pub(crate) const WRITE_PROBE: &str = "INSERT INTO meta (key, value) VALUES ('last_start_ms', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value";

pub(crate) use crate::ids::now_ms;

/// The schema of ratings, in SQL both backends accept: an account's rating per game, and one row
/// per account and rated match.
pub(crate) const RATINGS_SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS ratings (
        guest_id TEXT NOT NULL REFERENCES guests (id),
        game TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        losses BIGINT NOT NULL,
        draws BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (guest_id, game))",
    "CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings (game, rating)",
    "CREATE TABLE IF NOT EXISTS rating_history (
        guest_id TEXT NOT NULL REFERENCES guests (id),
        game TEXT NOT NULL,
        table_id TEXT NOT NULL REFERENCES tables (id),
        at_ms BIGINT NOT NULL,
        rating_before DOUBLE PRECISION NOT NULL,
        deviation_before DOUBLE PRECISION NOT NULL,
        volatility_before DOUBLE PRECISION NOT NULL,
        rating_after DOUBLE PRECISION NOT NULL,
        deviation_after DOUBLE PRECISION NOT NULL,
        volatility_after DOUBLE PRECISION NOT NULL,
        score DOUBLE PRECISION NOT NULL,
        opponents BIGINT NOT NULL,
        forfeited BIGINT NOT NULL,
        PRIMARY KEY (guest_id, game, table_id))",
    "CREATE INDEX IF NOT EXISTS rating_history_by_table ON rating_history (table_id)",
    "CREATE INDEX IF NOT EXISTS rating_history_by_time ON rating_history (guest_id, at_ms)",
    // The keyed hashes of the addresses an account signed in from (never the address itself),
    // the last `crate::ratings::ADDRESS_LIMIT` within `crate::ratings::ADDRESS_WINDOW_MS`.
    "CREATE TABLE IF NOT EXISTS account_addresses (
        guest_id TEXT NOT NULL,
        address_hash TEXT NOT NULL,
        seen_ms BIGINT NOT NULL,
        PRIMARY KEY (guest_id, address_hash))",
    "CREATE INDEX IF NOT EXISTS account_addresses_by_hash ON account_addresses (address_hash)",
    // Secrets this database's servers share (`address`: the key of the address hashes).
    "CREATE TABLE IF NOT EXISTS server_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL)",
];

/// Now, in milliseconds since the Unix epoch, as text (the write probe's value).
pub(crate) fn now_ms_text() -> String {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis().to_string())
        .unwrap_or_default()
}

/// A seat as its stored columns: kind, bot, guest, name.
pub(crate) fn seat_columns(row: &SeatRow) -> (&'static str, Option<&str>, Option<&str>, Option<&str>) {
    match row {
        SeatRow::Open => ("open", None, None, None),
        SeatRow::Bot(b) => ("bot", Some(b.as_str()), None, None),
        SeatRow::Person { guest, name } => ("person", None, Some(guest.as_str()), Some(name.as_str())),
    }
}

/// A seat from its stored columns.
pub(crate) fn seat_from_columns(
    kind: &str,
    bot: Option<String>,
    guest: Option<String>,
    name: Option<String>,
) -> Result<SeatRow, StoreError> {
    match (kind, bot, guest, name) {
        ("open", _, _, _) => Ok(SeatRow::Open),
        ("bot", Some(b), _, _) => Ok(SeatRow::Bot(b)),
        ("person", _, Some(guest), Some(name)) => Ok(SeatRow::Person { guest, name }),
        (k, ..) => Err(StoreError::Corrupt(format!("seat of kind {k:?} with missing columns"))),
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_redacted_in_every_form() {
        for (text, want) in [
            ("postgres://yezi:pw@db:5432/yezi", "postgres://yezi:***@db:5432/yezi"),
            ("postgresql://u:p%40ss/w@h/d?sslmode=disable", "postgresql://u:***@h/d?sslmode=disable"),
            ("opening postgres://u:pw@h/d: refused", "opening postgres://u:***@h/d: refused"),
            ("postgres://u@h/d?password=pw&x=1", "postgres://u@h/d?password=***&x=1"),
            ("host=h user=u password=pw dbname=d", "host=h user=u password=*** dbname=d"),
            ("host=h PASSWORD = 'p w\\'x' dbname=d", "host=h PASSWORD = *** dbname=d"),
            ("host=h password='p w\\'x' dbname=d", "host=h password=*** dbname=d"),
        ] {
            let got = redact(text);
            assert!(!got.contains("pw") && !got.contains("p w") && !got.contains("ss/w"), "{text} → {got}");
            assert_eq!(got, want, "{text}");
        }
        // Nothing to hide: unchanged.
        for text in ["postgres://u@h/d", "yezi.db", "sqlite:/var/lib/yezi/yezi.db", "the password is wrong"] {
            assert_eq!(redact(text), text);
        }
    }
}
