//! Moderation's storage ([`Moderation`]): what players say of each other (mutes, blocks,
//! reports) and what the operator does (sanctions: a site-wide chat mute, a ban of an account or
//! of an address, each for a time; removed chat lines), every operator action written to the
//! moderation log. Players and accounts are named by their guest id; an address by its text
//! (`203.0.113.7`, `2001:db8::1`). Both backends implement it here, over the same SQL.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};

use super::postgres::PgStore;
use super::sql::{Sql, sql};
use super::sqlite::SqliteStore;
use super::{ChatRow, StoreError};

#[allow(unused_imports)]
pub(crate) use super::MODERATION_SCHEMA;

/// Which of a player's lists a relation is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The player does not see the other's chat lines.
    Mute,
    /// The player and the other are never seated at one table.
    Block,
}

impl Relation {
    /// Puts `$2` in `$1`'s list at `$3` (nothing when it is there already).
    fn insert(self) -> Sql {
        match self {
            Relation::Mute => INSERT_MUTE,
            Relation::Block => INSERT_BLOCK,
        }
    }

    /// Takes `$2` out of `$1`'s list.
    fn delete(self) -> Sql {
        match self {
            Relation::Mute => DELETE_MUTE,
            Relation::Block => DELETE_BLOCK,
        }
    }

    /// The guests in `$1`'s list, the earliest put first.
    fn list(self) -> Sql {
        match self {
            Relation::Mute => MUTES,
            Relation::Block => BLOCKS,
        }
    }
}

/// A player's report of another player, or of one of his chat lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    /// The report's identifier.
    pub id: String,
    /// The guest who reports.
    pub reporter: String,
    /// The guest reported.
    pub player: String,
    /// The table the chat line reported was said at, if a line is reported.
    pub table: Option<String>,
    /// The chat line's number at that table.
    pub chat_seq: Option<u64>,
    /// The line's text as it was when reported (kept if the line is removed later).
    pub chat_text: Option<String>,
    /// Why, in the reporter's words.
    pub reason: String,
    /// When, milliseconds since the Unix epoch.
    pub created_ms: i64,
}

/// What a sanction does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanctionKind {
    /// The account may not chat anywhere.
    MuteChat,
    /// The account may not sign in, join a table or chat.
    BanAccount,
    /// The address may not create guests, sign in, join a table or chat.
    BanAddress,
}

impl SanctionKind {
    /// The kind's name in the API, the command line and the database.
    pub fn name(self) -> &'static str {
        match self {
            SanctionKind::MuteChat => "mute_chat",
            SanctionKind::BanAccount => "ban_account",
            SanctionKind::BanAddress => "ban_address",
        }
    }

    /// The kind of a name ([`SanctionKind::name`]).
    pub fn parse(name: &str) -> Option<SanctionKind> {
        [SanctionKind::MuteChat, SanctionKind::BanAccount, SanctionKind::BanAddress]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// An operator's sanction of an account (its guest id) or an address, in force from
/// `created_ms` until `until_ms` unless lifted before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanctionRow {
    /// The sanction's identifier.
    pub id: String,
    /// What it does.
    pub kind: SanctionKind,
    /// The guest id (an account's) or the address it applies to.
    pub subject: String,
    /// When it was given, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// When it ends.
    pub until_ms: i64,
    /// When it was lifted, if it was.
    pub lifted_ms: Option<i64>,
    /// Why, in the operator's words.
    pub reason: String,
    /// The operator who gave it.
    pub by: String,
}

impl SanctionRow {
    /// True when the sanction holds at `now_ms`.
    pub fn in_force(&self, now_ms: i64) -> bool {
        self.lifted_ms.is_none() && now_ms < self.until_ms
    }

    /// What the sanctioned person is told at `now_ms`: what holds, for how long more, and why.
    pub fn refusal(&self, now_ms: i64) -> String {
        let minutes = u64::try_from(self.until_ms - now_ms).unwrap_or(0).div_ceil(60_000);
        let left = match minutes {
            0..=1 => "for a minute more".to_string(),
            2..=119 => format!("for {minutes} minutes more"),
            120..=2879 => format!("for {} hours more", minutes.div_ceil(60)),
            _ => format!("for {} days more", minutes.div_ceil(1440)),
        };
        let what = match self.kind {
            SanctionKind::BanAddress => "this address is banned",
            SanctionKind::BanAccount => "this account is banned",
            SanctionKind::MuteChat => "the operator muted your chat",
        };
        format!("{what} {left} (reason: {})", self.reason)
    }
}

/// One line of the moderation log: who did what to whom, why and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// The line's identifier.
    pub id: String,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The operator.
    pub by: String,
    /// What was done (`ban_account`, `mute_chat`, `ban_address`, `lift`, `remove_chat`).
    pub action: String,
    /// To whom or what (a guest id, an address, `TABLE#SEQ`, a sanction's id).
    pub subject: String,
    /// Why.
    pub reason: String,
}

/// Moderation's storage (see the module).
#[async_trait]
pub trait Moderation: Send + Sync {
    /// Puts `target` in (`on`) or out of `guest`'s list `relation`; true when it changed.
    async fn set_relation(
        &self,
        relation: Relation,
        guest: &str,
        target: &str,
        on: bool,
        at_ms: i64,
    ) -> Result<bool, StoreError>;
    /// The guests in `guest`'s list `relation`, the earliest put first.
    async fn relations(&self, relation: Relation, guest: &str) -> Result<Vec<String>, StoreError>;
    /// The blocks between `guest` and any of `others`, either way, as `(blocker, blocked)`.
    async fn blocks_between(
        &self,
        guest: &str,
        others: &[String],
    ) -> Result<Vec<(String, String)>, StoreError>;
    /// Stores a report.
    async fn add_report(&self, report: &ReportRow) -> Result<(), StoreError>;
    /// The latest `limit` reports, newest first.
    async fn reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError>;
    /// How many reports `reporter` made at or after `since_ms`.
    async fn reports_since(&self, reporter: &str, since_ms: i64) -> Result<u32, StoreError>;
    /// Stores a sanction and its log line, all or none.
    async fn add_sanction(&self, sanction: &SanctionRow, log: &LogRow) -> Result<(), StoreError>;
    /// Lifts a sanction (if not lifted yet) and writes its log line, all or none; false when no
    /// sanction has this id (nothing is written then).
    async fn lift_sanction(&self, id: &str, log: &LogRow) -> Result<bool, StoreError>;
    /// The sanctions of these subjects in force at `now_ms`.
    async fn sanctions_on(&self, subjects: &[String], now_ms: i64) -> Result<Vec<SanctionRow>, StoreError>;
    /// The latest `limit` sanctions, in force or not, newest first.
    async fn sanctions(&self, limit: u32) -> Result<Vec<SanctionRow>, StoreError>;
    /// One chat line of a table.
    async fn chat_line(&self, table: &str, seq: u64) -> Result<Option<ChatRow>, StoreError>;
    /// Deletes a chat line and writes its log line, all or none; false when there is no such
    /// line (nothing is written then).
    async fn remove_chat(&self, table: &str, seq: u64, log: &LogRow) -> Result<bool, StoreError>;
    /// The latest `limit` lines of the moderation log, newest first.
    async fn moderation_log(&self, limit: u32) -> Result<Vec<LogRow>, StoreError>;
}

/// A statement on the table of one relation's lists (`mod_mutes` or `mod_blocks`).
macro_rules! relation {
    (insert $t:literal) => {
        concat!(
            "INSERT INTO ",
            $t,
            " (guest_id, target_id, created_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING"
        )
    };
    (delete $t:literal) => {
        concat!("DELETE FROM ", $t, " WHERE guest_id = $1 AND target_id = $2")
    };
    (list $t:literal) => {
        concat!(
            "SELECT target_id FROM ",
            $t,
            " WHERE guest_id = $1 ORDER BY created_ms, target_id LIMIT 1000"
        )
    };
}

/// The columns of a report, in [`report_from`]'s order.
macro_rules! report_cols {
    () => {
        "id, reporter_id, player_id, table_id, chat_seq, chat_text, reason, created_ms"
    };
}

/// The columns of a sanction, in [`sanction_from`]'s order.
macro_rules! sanction_cols {
    () => {
        "id, kind, subject, created_ms, until_ms, lifted_ms, reason, by_whom"
    };
}

/// The columns of a line of the moderation log, in [`LogRow`]'s order.
macro_rules! log_cols {
    () => {
        "id, at_ms, by_whom, action, subject, reason"
    };
}

sql! {
    /// See [`Relation::insert`].
    INSERT_MUTE = relation!(insert "mod_mutes");
    /// See [`Relation::insert`].
    INSERT_BLOCK = relation!(insert "mod_blocks");
    /// See [`Relation::delete`].
    DELETE_MUTE = relation!(delete "mod_mutes");
    /// See [`Relation::delete`].
    DELETE_BLOCK = relation!(delete "mod_blocks");
    /// See [`Relation::list`].
    MUTES = relation!(list "mod_mutes");
    /// See [`Relation::list`].
    BLOCKS = relation!(list "mod_blocks");
    /// Stores a report.
    INSERT_REPORT =
        concat!("INSERT INTO mod_reports (", report_cols!(), ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    /// The latest `$1` reports, newest first.
    REPORTS = concat!("SELECT ", report_cols!(), " FROM mod_reports ORDER BY created_ms DESC, id DESC LIMIT $1");
    /// How many reports `$1` made at or after `$2`.
    REPORTS_SINCE = "SELECT COUNT(*) FROM mod_reports WHERE reporter_id = $1 AND created_ms >= $2";
    /// Stores a sanction.
    INSERT_SANCTION =
        concat!("INSERT INTO mod_sanctions (", sanction_cols!(), ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    /// A row when a sanction of this id is stored.
    SANCTION_EXISTS = "SELECT id FROM mod_sanctions WHERE id = $1";
    /// Lifts a sanction at `$2`, unless lifted already.
    LIFT_SANCTION = "UPDATE mod_sanctions SET lifted_ms = $2 WHERE id = $1 AND lifted_ms IS NULL";
    /// The latest `$1` sanctions, newest first.
    SANCTIONS =
        concat!("SELECT ", sanction_cols!(), " FROM mod_sanctions ORDER BY created_ms DESC, id DESC LIMIT $1");
    /// One chat line (`$1` the table, `$2` its number).
    CHAT_LINE = "SELECT at_ms, guest_id, name, seat, text FROM chat WHERE table_id = $1 AND seq = $2";
    /// Deletes one chat line.
    DELETE_CHAT_LINE = "DELETE FROM chat WHERE table_id = $1 AND seq = $2";
    /// Writes a line of the moderation log.
    INSERT_LOG = concat!("INSERT INTO mod_log (", log_cols!(), ") VALUES ($1, $2, $3, $4, $5, $6)");
    /// The latest `$1` lines of the moderation log, newest first.
    MODERATION_LOG = concat!("SELECT ", log_cols!(), " FROM mod_log ORDER BY at_ms DESC, id DESC LIMIT $1");
}

/// The sanctions in force: of one subject (SQLite, run once per subject: `?1`), at `?2`.
const SANCTIONS_ON_ONE: &str = concat!(
    "SELECT ",
    sanction_cols!(),
    " FROM mod_sanctions WHERE subject = ?1 AND until_ms > ?2 \
     AND lifted_ms IS NULL ORDER BY created_ms, id"
);

/// The sanctions in force: of any of the subjects `$1` (PostgreSQL, an array), at `$2`.
const SANCTIONS_ON_ANY: &str = concat!(
    "SELECT ",
    sanction_cols!(),
    " FROM mod_sanctions WHERE subject = ANY($1) AND until_ms > $2 \
     AND lifted_ms IS NULL ORDER BY created_ms, id"
);

fn seq_of(v: Option<i64>, what: &str) -> Result<Option<u64>, StoreError> {
    v.map(|s| u64::try_from(s).map_err(|_| StoreError::Corrupt(format!("{what}: chat line {s}")))).transpose()
}

fn kind_of(name: &str, id: &str) -> Result<SanctionKind, StoreError> {
    SanctionKind::parse(name).ok_or_else(|| StoreError::Corrupt(format!("sanction {id}: kind {name:?}")))
}

fn i64_of(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

// SQLite.

type ReportCols = (String, String, String, Option<String>, Option<i64>, Option<String>, String, i64);
type SanctionCols = (String, String, String, i64, i64, Option<i64>, String, String);

fn sqlite_report(r: &rusqlite::Row<'_>) -> rusqlite::Result<ReportCols> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
}

fn report_from(c: ReportCols) -> Result<ReportRow, StoreError> {
    let (id, reporter, player, table, seq, chat_text, reason, created_ms) = c;
    let chat_seq = seq_of(seq, &format!("report {id}"))?;
    Ok(ReportRow { id, reporter, player, table, chat_seq, chat_text, reason, created_ms })
}

fn sqlite_sanction(r: &rusqlite::Row<'_>) -> rusqlite::Result<SanctionCols> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?))
}

fn sanction_from(c: SanctionCols) -> Result<SanctionRow, StoreError> {
    let (id, kind, subject, created_ms, until_ms, lifted_ms, reason, by) = c;
    let kind = kind_of(&kind, &id)?;
    Ok(SanctionRow { id, kind, subject, created_ms, until_ms, lifted_ms, reason, by })
}

fn sqlite_log(r: &rusqlite::Row<'_>) -> rusqlite::Result<LogRow> {
    Ok(LogRow {
        id: r.get(0)?,
        at_ms: r.get(1)?,
        by: r.get(2)?,
        action: r.get(3)?,
        subject: r.get(4)?,
        reason: r.get(5)?,
    })
}

fn sqlite_write_log(c: &rusqlite::Connection, l: &LogRow) -> Result<(), StoreError> {
    c.execute(INSERT_LOG.sqlite, params![l.id, l.at_ms, l.by, l.action, l.subject, l.reason])
        .map_err(super::sqlite::backend)?;
    Ok(())
}

#[async_trait]
impl Moderation for SqliteStore {
    async fn set_relation(
        &self,
        relation: Relation,
        guest: &str,
        target: &str,
        on: bool,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let (guest, target) = (guest.to_string(), target.to_string());
        self.call(move |c| {
            let n = if on {
                c.execute(relation.insert().sqlite, params![guest, target, at_ms])
            } else {
                c.execute(relation.delete().sqlite, params![guest, target])
            }
            .map_err(super::sqlite::backend)?;
            Ok(n > 0)
        })
        .await
    }

    async fn relations(&self, relation: Relation, guest: &str) -> Result<Vec<String>, StoreError> {
        let guest = guest.to_string();
        self.call(move |c| {
            let rows =
                super::sqlite::rows(c, relation.list().sqlite, params![guest], |r| r.get::<_, String>(0))?;
            Ok(rows)
        })
        .await
    }

    async fn blocks_between(
        &self,
        guest: &str,
        others: &[String],
    ) -> Result<Vec<(String, String)>, StoreError> {
        let (guest, others) = (guest.to_string(), others.to_vec());
        self.call(move |c| {
            let mut stmt = c
                .prepare_cached(
                    "SELECT guest_id, target_id FROM mod_blocks WHERE (guest_id = ?1 AND target_id = ?2) \
                     OR (guest_id = ?2 AND target_id = ?1)",
                )
                .map_err(super::sqlite::backend)?;
            let mut out = Vec::new();
            for o in others.iter().filter(|o| **o != guest) {
                let rows = stmt
                    .query_map(params![guest, o], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
                    .map_err(super::sqlite::backend)?;
                for row in rows {
                    out.push(row.map_err(super::sqlite::backend)?);
                }
            }
            Ok(out)
        })
        .await
    }

    async fn add_report(&self, report: &ReportRow) -> Result<(), StoreError> {
        let r = report.clone();
        self.call(move |c| {
            c.execute(
                INSERT_REPORT.sqlite,
                params![
                    r.id,
                    r.reporter,
                    r.player,
                    r.table,
                    r.chat_seq.map(i64_of),
                    r.chat_text,
                    r.reason,
                    r.created_ms
                ],
            )
            .map_err(super::sqlite::backend)?;
            Ok(())
        })
        .await
    }

    async fn reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        self.call(move |c| {
            let rows = super::sqlite::rows(c, REPORTS.sqlite, params![limit], sqlite_report)?;
            rows.into_iter().map(report_from).collect()
        })
        .await
    }

    async fn reports_since(&self, reporter: &str, since_ms: i64) -> Result<u32, StoreError> {
        let reporter = reporter.to_string();
        self.call(move |c| {
            let n: i64 = c
                .query_row(REPORTS_SINCE.sqlite, params![reporter, since_ms], |r| r.get(0))
                .map_err(super::sqlite::backend)?;
            Ok(u32::try_from(n).unwrap_or(u32::MAX))
        })
        .await
    }

    async fn add_sanction(&self, sanction: &SanctionRow, log: &LogRow) -> Result<(), StoreError> {
        let (s, l) = (sanction.clone(), log.clone());
        self.call(move |c| {
            c.execute(
                INSERT_SANCTION.sqlite,
                params![
                    s.id,
                    s.kind.name(),
                    s.subject,
                    s.created_ms,
                    s.until_ms,
                    s.lifted_ms,
                    s.reason,
                    s.by
                ],
            )
            .map_err(super::sqlite::backend)?;
            sqlite_write_log(c, &l)
        })
        .await
    }

    async fn lift_sanction(&self, id: &str, log: &LogRow) -> Result<bool, StoreError> {
        let (id, l) = (id.to_string(), log.clone());
        self.call(move |c| {
            let found: Option<String> = c
                .query_row(SANCTION_EXISTS.sqlite, params![id], |r| r.get(0))
                .optional()
                .map_err(super::sqlite::backend)?;
            if found.is_none() {
                return Ok(false);
            }
            c.execute(LIFT_SANCTION.sqlite, params![id, l.at_ms]).map_err(super::sqlite::backend)?;
            sqlite_write_log(c, &l)?;
            Ok(true)
        })
        .await
    }

    async fn sanctions_on(&self, subjects: &[String], now_ms: i64) -> Result<Vec<SanctionRow>, StoreError> {
        let subjects = subjects.to_vec();
        self.call(move |c| {
            let mut stmt = c.prepare_cached(SANCTIONS_ON_ONE).map_err(super::sqlite::backend)?;
            let mut out = Vec::new();
            for s in &subjects {
                let rows = stmt
                    .query_map(params![s, now_ms], sqlite_sanction)
                    .map_err(super::sqlite::backend)?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(super::sqlite::backend)?;
                for row in rows {
                    out.push(sanction_from(row)?);
                }
            }
            Ok(out)
        })
        .await
    }

    async fn sanctions(&self, limit: u32) -> Result<Vec<SanctionRow>, StoreError> {
        self.call(move |c| {
            let rows = super::sqlite::rows(c, SANCTIONS.sqlite, params![limit], sqlite_sanction)?;
            rows.into_iter().map(sanction_from).collect()
        })
        .await
    }

    async fn chat_line(&self, table: &str, seq: u64) -> Result<Option<ChatRow>, StoreError> {
        let table = table.to_string();
        self.call(move |c| {
            let row = c
                .query_row(CHAT_LINE.sqlite, params![table, i64_of(seq)], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                })
                .optional()
                .map_err(super::sqlite::backend)?;
            row.map(|(at_ms, guest, name, seat, text)| {
                let seat = seat
                    .map(|s| {
                        u8::try_from(s).map_err(|_| StoreError::Corrupt(format!("table {table}: chat {seq}")))
                    })
                    .transpose()?;
                Ok(ChatRow { seq, at_ms, guest, name, seat, text })
            })
            .transpose()
        })
        .await
    }

    async fn remove_chat(&self, table: &str, seq: u64, log: &LogRow) -> Result<bool, StoreError> {
        let (table, l) = (table.to_string(), log.clone());
        self.call(move |c| {
            let n = c
                .execute(DELETE_CHAT_LINE.sqlite, params![table, i64_of(seq)])
                .map_err(super::sqlite::backend)?;
            if n == 0 {
                return Ok(false);
            }
            sqlite_write_log(c, &l)?;
            Ok(true)
        })
        .await
    }

    async fn moderation_log(&self, limit: u32) -> Result<Vec<LogRow>, StoreError> {
        self.call(move |c| {
            let rows = super::sqlite::rows(c, MODERATION_LOG.sqlite, params![limit], sqlite_log)?;
            Ok(rows)
        })
        .await
    }
}

// PostgreSQL.

use super::postgres::pg;
use tokio_postgres::Client;

fn pg_report(r: &tokio_postgres::Row) -> Result<ReportRow, StoreError> {
    report_from((r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)))
}

fn pg_sanction(r: &tokio_postgres::Row) -> Result<SanctionRow, StoreError> {
    sanction_from((r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6), r.get(7)))
}

async fn pg_write_log<C: tokio_postgres::GenericClient>(c: &C, l: &LogRow) -> Result<(), StoreError> {
    c.execute(INSERT_LOG.pg, &[&l.id, &l.at_ms, &l.by, &l.action, &l.subject, &l.reason])
        .await
        .map_err(pg)?;
    Ok(())
}

#[async_trait]
impl Moderation for PgStore {
    async fn set_relation(
        &self,
        relation: Relation,
        guest: &str,
        target: &str,
        on: bool,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let n = if on {
            c.execute(relation.insert().pg, &[&guest, &target, &at_ms]).await
        } else {
            c.execute(relation.delete().pg, &[&guest, &target]).await
        }
        .map_err(pg)?;
        Ok(n > 0)
    }

    async fn relations(&self, relation: Relation, guest: &str) -> Result<Vec<String>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(relation.list().pg, &[&guest]).await.map_err(pg)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn blocks_between(
        &self,
        guest: &str,
        others: &[String],
    ) -> Result<Vec<(String, String)>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let others: Vec<String> = others.iter().filter(|o| *o != guest).cloned().collect();
        let rows = c
            .query(
                "SELECT guest_id, target_id FROM mod_blocks WHERE (guest_id = $1 AND target_id = ANY($2)) \
                 OR (target_id = $1 AND guest_id = ANY($2)) ORDER BY guest_id, target_id",
                &[&guest, &others],
            )
            .await
            .map_err(pg)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    async fn add_report(&self, r: &ReportRow) -> Result<(), StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        c.execute(
            INSERT_REPORT.pg,
            &[
                &r.id,
                &r.reporter,
                &r.player,
                &r.table,
                &r.chat_seq.map(i64_of),
                &r.chat_text,
                &r.reason,
                &r.created_ms,
            ],
        )
        .await
        .map_err(pg)?;
        Ok(())
    }

    async fn reports(&self, limit: u32) -> Result<Vec<ReportRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(REPORTS.pg, &[&i64::from(limit)]).await.map_err(pg)?;
        rows.iter().map(pg_report).collect()
    }

    async fn reports_since(&self, reporter: &str, since_ms: i64) -> Result<u32, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_one(REPORTS_SINCE.pg, &[&reporter, &since_ms]).await.map_err(pg)?;
        Ok(u32::try_from(row.get::<_, i64>(0)).unwrap_or(u32::MAX))
    }

    async fn add_sanction(&self, s: &SanctionRow, log: &LogRow) -> Result<(), StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        tx.execute(
            INSERT_SANCTION.pg,
            &[&s.id, &s.kind.name(), &s.subject, &s.created_ms, &s.until_ms, &s.lifted_ms, &s.reason, &s.by],
        )
        .await
        .map_err(pg)?;
        pg_write_log(&tx, log).await?;
        tx.commit().await.map_err(pg)
    }

    async fn lift_sanction(&self, id: &str, log: &LogRow) -> Result<bool, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let found = tx.query_opt(SANCTION_EXISTS.pg, &[&id]).await.map_err(pg)?;
        if found.is_none() {
            return Ok(false);
        }
        tx.execute(LIFT_SANCTION.pg, &[&id, &log.at_ms]).await.map_err(pg)?;
        pg_write_log(&tx, log).await?;
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }

    async fn sanctions_on(&self, subjects: &[String], now_ms: i64) -> Result<Vec<SanctionRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(SANCTIONS_ON_ANY, &[&subjects, &now_ms]).await.map_err(pg)?;
        rows.iter().map(pg_sanction).collect()
    }

    async fn sanctions(&self, limit: u32) -> Result<Vec<SanctionRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(SANCTIONS.pg, &[&i64::from(limit)]).await.map_err(pg)?;
        rows.iter().map(pg_sanction).collect()
    }

    async fn chat_line(&self, table: &str, seq: u64) -> Result<Option<ChatRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_opt(CHAT_LINE.pg, &[&table, &i64_of(seq)]).await.map_err(pg)?;
        row.map(|r| {
            let seat = r
                .get::<_, Option<i16>>(3)
                .map(|s| {
                    u8::try_from(s).map_err(|_| StoreError::Corrupt(format!("table {table}: chat {seq}")))
                })
                .transpose()?;
            Ok(ChatRow { seq, at_ms: r.get(0), guest: r.get(1), name: r.get(2), seat, text: r.get(4) })
        })
        .transpose()
    }

    async fn remove_chat(&self, table: &str, seq: u64, log: &LogRow) -> Result<bool, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let n = tx.execute(DELETE_CHAT_LINE.pg, &[&table, &i64_of(seq)]).await.map_err(pg)?;
        if n == 0 {
            return Ok(false);
        }
        pg_write_log(&tx, log).await?;
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }

    async fn moderation_log(&self, limit: u32) -> Result<Vec<LogRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(MODERATION_LOG.pg, &[&i64::from(limit)]).await.map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| LogRow {
                id: r.get(0),
                at_ms: r.get(1),
                by: r.get(2),
                action: r.get(3),
                subject: r.get(4),
                reason: r.get(5),
            })
            .collect())
    }
}
