//! Moderation (see `docs/protocol.md`, "Moderation"): a signed-in player's mutes, blocks and
//! reports (`/api/me/moderation`, `/api/me/mutes/{guest}`, `/api/me/blocks/{guest}`,
//! `/api/reports`), the operator's API behind the operator token (`/api/admin/…`, on only when
//! `yezi serve` was given `--admin-token-file`), and the checks the rest of the server makes: a
//! banned account or address ([`ban_of`]), a muted account's chat ([`chat_refusal`]), a join
//! between players who block each other ([`block_refusal`]). The operator's actions
//! ([`sanction`], [`lift`], [`remove_chat`], [`recent_games`]) are shared with `yezi admin`,
//! which runs them on the database directly; each writes its line of the moderation log.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use table::text::{TextKind, check_text};
use wire::{
    ApiCode, Because, ErrorCode, GameLine, LiftedReply, Listed, LogReply, LogView, MyLists, NewReport,
    NewSanction, PlayerGames, RelationReply, RemoveChat, RemovedLine, RemovedReply, ReportMade, ReportView,
    ReportsReply, SanctionView, SanctionsReply,
};

use super::error::{ApiError, ApiResult, bearer, body, ok_json, query_number};
use crate::App;
use crate::api::accounts::identify;
use crate::ids::{self, now_ms};
use crate::store::moderation::{LogRow, Relation, ReportRow, SanctionKind, SanctionRow};
use crate::store::{SeatRow, Store, StoreError};

/// The longest reason of a report or an operator's action, in characters.
pub const REASON_MAX: usize = 500;
/// Reports one player may make in an hour.
pub const REPORTS_PER_HOUR: u32 = 20;
/// The longest sanction: ten years, in minutes.
pub const MAX_MINUTES: u64 = 10 * 366 * 24 * 60;
/// Rows a list of the admin API gives at most.
const LIST_MAX: u32 = 500;

/// The moderation routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/me/moderation", get(my_lists))
        .route("/api/me/mutes/{guest}", put(mute).delete(unmute))
        .route("/api/me/blocks/{guest}", put(block).delete(unblock))
        .route("/api/reports", post(report))
        .route("/api/admin/reports", get(admin_reports))
        .route("/api/admin/sanctions", get(admin_sanctions).post(admin_sanction))
        .route("/api/admin/sanctions/{id}/lift", post(admin_lift))
        .route("/api/admin/chat/remove", post(admin_remove_chat))
        .route("/api/admin/log", get(admin_log))
        .route("/api/admin/players/{player}/games", get(admin_games))
        .layer(DefaultBodyLimit::max(16 * 1024))
}

/// What went wrong in a moderation action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModError {
    /// The request is not one the action takes; the message says why.
    #[error("{0}")]
    Bad(String),
    /// No player has this username or guest id.
    #[error("no player {0:?}")]
    NoPlayer(String),
    /// No such sanction, table or chat line.
    #[error("{0}")]
    NotFound(String),
    /// The store failed.
    #[error("{0}")]
    Store(#[from] StoreError),
}

impl From<ModError> for ApiError {
    fn from(e: ModError) -> ApiError {
        match e {
            ModError::Bad(m) => ApiError::bad(m),
            ModError::NoPlayer(_) => ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, e.to_string()),
            ModError::NotFound(m) => ApiError::new(StatusCode::NOT_FOUND, ApiCode::BadRequest, m),
            ModError::Store(s) => ApiError::internal(s.to_string()),
        }
    }
}

fn internal(e: StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// Checks a reason: 1 to [`REASON_MAX`] characters, no control characters.
pub fn check_reason(reason: &str) -> Result<String, ModError> {
    let n = reason.chars().count();
    if n > REASON_MAX {
        return Err(ModError::Bad(format!("a reason has at most {REASON_MAX} characters, this one {n}")));
    }
    check_text(TextKind::Chat, reason, REASON_MAX).map_err(|e| ModError::Bad(format!("the reason: {e}")))
}

/// The player a name stands for: an account's username (any case), or a guest id; as
/// `(guest id, name shown)`.
pub async fn resolve_player(store: &dyn Store, player: &str) -> Result<(String, String), ModError> {
    let shown: String = player.chars().take(40).collect();
    if let Ok(key) = crate::api::accounts::username_key(player)
        && let Some(a) = store.account_by_username(&key).await?
    {
        let name = store.guest(&a.guest).await?.map_or(a.username.clone(), |g| g.name);
        return Ok((a.guest, name));
    }
    match store.guest(player).await? {
        Some(g) => Ok((g.id, g.name)),
        None => Err(ModError::NoPlayer(shown)),
    }
}

// A player's lists and reports.

/// The guest of a request's account session; a guest's own token is refused with
/// `account_required` (mutes, blocks and reports are an account's).
async fn account_guest(app: &App, headers: &HeaderMap) -> Result<crate::store::GuestRow, ApiError> {
    let (g, session) = identify(app, bearer(headers)?).await?;
    let has_account =
        session.is_some() && app.store.account_by_guest(&g.id).await.map_err(internal)?.is_some();
    if !has_account {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::AccountRequired,
            "muting, blocking and reporting need an account: sign in (POST /api/sessions)",
        ));
    }
    Ok(g)
}

async fn listed(app: &App, relation: Relation, guest: &str) -> Result<Vec<Listed>, ApiError> {
    let ids = app.store.relations(relation, guest).await.map_err(internal)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let name = app.store.guest(&id).await.map_err(internal)?.map_or_else(|| id.clone(), |g| g.name);
        out.push(Listed { id, name });
    }
    Ok(out)
}

async fn my_lists(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let g = account_guest(&app, &headers).await?;
    let muted = listed(&app, Relation::Mute, &g.id).await?;
    let blocked = listed(&app, Relation::Block, &g.id).await?;
    ok_json(StatusCode::OK, MyLists { muted, blocked })
}

async fn set_relation(
    app: &App,
    headers: &HeaderMap,
    relation: Relation,
    target: &str,
    on: bool,
) -> ApiResult {
    let g = account_guest(app, headers).await?;
    let verb = match relation {
        Relation::Mute => "mute",
        Relation::Block => "block",
    };
    if target == g.id {
        return Err(ApiError::bad(format!("you cannot {verb} yourself")));
    }
    let Some(other) = app.store.guest(target).await.map_err(internal)? else {
        let shown: String = target.chars().take(40).collect();
        return Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, format!("no player {shown:?}")));
    };
    let changed = app.store.set_relation(relation, &g.id, &other.id, on, now_ms()).await.map_err(internal)?;
    let (mute, block) = match relation {
        Relation::Mute => (Some(on), None),
        Relation::Block => (None, Some(on)),
    };
    ok_json(StatusCode::OK, RelationReply { id: other.id, name: other.name, mute, block, changed })
}

async fn mute(State(app): State<Arc<App>>, Path(guest): Path<String>, headers: HeaderMap) -> ApiResult {
    set_relation(&app, &headers, Relation::Mute, &guest, true).await
}

async fn unmute(State(app): State<Arc<App>>, Path(guest): Path<String>, headers: HeaderMap) -> ApiResult {
    set_relation(&app, &headers, Relation::Mute, &guest, false).await
}

async fn block(State(app): State<Arc<App>>, Path(guest): Path<String>, headers: HeaderMap) -> ApiResult {
    set_relation(&app, &headers, Relation::Block, &guest, true).await
}

async fn unblock(State(app): State<Arc<App>>, Path(guest): Path<String>, headers: HeaderMap) -> ApiResult {
    set_relation(&app, &headers, Relation::Block, &guest, false).await
}

async fn report(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    let g = account_guest(&app, &headers).await?;
    let req: NewReport = body(&bytes)?;
    let reason = check_reason(&req.reason)?;
    if req.player == g.id {
        return Err(ApiError::bad("you cannot report yourself"));
    }
    let Some(player) = app.store.guest(&req.player).await.map_err(internal)? else {
        let shown: String = req.player.chars().take(40).collect();
        return Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, format!("no player {shown:?}")));
    };
    let chat_text = match (&req.table, req.chat) {
        (None, None) => None,
        (Some(table), Some(seq)) => {
            let line = app.store.chat_line(table, seq).await.map_err(internal)?;
            match line {
                Some(l) if l.guest.as_deref() == Some(player.id.as_str()) => Some(l.text),
                Some(_) => {
                    return Err(ApiError::bad(format!("chat line {seq} of that table is not this player's")));
                }
                None => {
                    return Err(ApiError::new(
                        StatusCode::NOT_FOUND,
                        ApiCode::BadRequest,
                        format!("no chat line {seq} at that table"),
                    ));
                }
            }
        }
        _ => return Err(ApiError::bad("a chat line is named by both table and chat")),
    };
    let now = now_ms();
    let made = app.store.reports_since(&g.id, now - 3_600_000).await.map_err(internal)?;
    if made >= REPORTS_PER_HOUR {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::TooManyReports,
            format!("at most {REPORTS_PER_HOUR} reports an hour: try again later"),
        ));
    }
    let id = ids::new_id("r").map_err(|e| ApiError::internal(e.to_string()))?;
    let row = ReportRow {
        id: id.clone(),
        reporter: g.id,
        player: player.id,
        table: req.table,
        chat_seq: req.chat,
        chat_text,
        reason,
        created_ms: now,
    };
    app.store.add_report(&row).await.map_err(internal)?;
    ok_json(StatusCode::CREATED, ReportMade { id })
}

// The checks the rest of the server makes.

/// The ban in force on this guest (an account's) or this address, if any.
pub async fn ban_of(
    app: &App,
    guest: Option<&str>,
    ip: Option<IpAddr>,
) -> Result<Option<SanctionRow>, StoreError> {
    let mut subjects = Vec::with_capacity(2);
    if let Some(g) = guest {
        subjects.push(g.to_string());
    }
    if let Some(ip) = ip {
        subjects.push(ip.to_string());
    }
    if subjects.is_empty() {
        return Ok(None);
    }
    let found = app.store.sanctions_on(&subjects, now_ms()).await?;
    Ok(found.into_iter().find(|s| matches!(s.kind, SanctionKind::BanAccount | SanctionKind::BanAddress)))
}

/// What a banned person is told.
pub fn ban_message(s: &SanctionRow) -> String {
    s.refusal(now_ms())
}

/// The refusal of a ban, as an API error.
pub fn ban_error(s: &SanctionRow) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, ApiCode::Banned, ban_message(s))
}

/// Refuses a request of a banned account or address with `banned`; a store that cannot answer
/// lets it through (the ban is checked again at the next step).
pub async fn refuse_banned(app: &App, guest: Option<&str>, ip: Option<IpAddr>) -> Result<(), ApiError> {
    match ban_of(app, guest, ip).await {
        Ok(Some(s)) => Err(ban_error(&s)),
        _ => Ok(()),
    }
}

/// Why `guest` (at `ip`) may not chat now, if he may not: a ban, or a chat mute.
pub async fn chat_refusal(app: &App, guest: &str, ip: Option<IpAddr>) -> Option<(ErrorCode, String)> {
    let mut subjects = vec![guest.to_string()];
    if let Some(ip) = ip {
        subjects.push(ip.to_string());
    }
    let found = app.store.sanctions_on(&subjects, now_ms()).await.ok()?;
    let s = found.iter().find(|s| s.kind != SanctionKind::MuteChat).or(found.first())?;
    Some(match s.kind {
        SanctionKind::MuteChat => (ErrorCode::ChatMuted, s.refusal(now_ms())),
        _ => (ErrorCode::Banned, ban_message(s)),
    })
}

/// Why `guest` may not sit at table `table`, if he may not: he and a player seated there (or the
/// host) block one another. A guest who holds a seat there already is let back in.
pub async fn block_refusal(app: &App, table: &str, guest: &str) -> Option<String> {
    let row = app.store.table(table).await.ok()??;
    let mut others: Vec<String> = Vec::new();
    for seat in &row.seats {
        if let SeatRow::Person { guest: g, .. } = seat {
            if g == guest {
                return None;
            }
            others.push(g.clone());
        }
    }
    others.extend(row.host.clone());
    let blocks = app.store.blocks_between(guest, &others).await.ok()?;
    let (blocker, _) = blocks.first()?;
    Some(if blocker == guest {
        "you blocked a player at this table: you cannot sit with him (unblock him on your page)".into()
    } else {
        "a player at this table has blocked you: you cannot sit here".into()
    })
}

// The operator's actions, shared with `yezi admin`.

/// Log lines written by this process so far: the ids of lines of the same millisecond sort in
/// the order they were written.
static LOG_LINES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A new line of the log, now. Its id is the time, this process's count of lines, then random
/// letters: the log's order (time, then id) is the order of writing within a process.
fn log_line(by: &str, action: &str, subject: &str, reason: &str) -> Result<LogRow, ModError> {
    let at_ms = now_ms();
    let n = LOG_LINES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let random = ids::new_id("").map_err(|e| ModError::Bad(e.to_string()))?;
    Ok(LogRow {
        id: format!("m{:012x}{n:010x}{random}", at_ms.max(0)),
        at_ms,
        by: by.to_string(),
        action: action.to_string(),
        subject: subject.to_string(),
        reason: reason.to_string(),
    })
}

fn check_by(by: &str) -> Result<String, ModError> {
    let by = by.trim();
    if by.is_empty() || by.chars().count() > 64 || by.chars().any(char::is_control) {
        return Err(ModError::Bad("the operator's name (by) must be 1 to 64 characters".into()));
    }
    Ok(by.to_string())
}

/// Gives a sanction of `kind` to `target` (a username or guest id, or for a ban of an address,
/// the address) for `minutes`, and logs it.
pub async fn sanction(
    store: &dyn Store,
    kind: SanctionKind,
    target: &str,
    minutes: u64,
    reason: &str,
    by: &str,
) -> Result<SanctionRow, ModError> {
    let reason = check_reason(reason)?;
    let by = check_by(by)?;
    if minutes == 0 || minutes > MAX_MINUTES {
        return Err(ModError::Bad(format!("minutes must be from 1 to {MAX_MINUTES}, not {minutes}")));
    }
    let subject = match kind {
        SanctionKind::BanAddress => target
            .trim()
            .parse::<IpAddr>()
            .map_err(|_| {
                ModError::Bad(format!(
                    "{:?} is not an IP address",
                    target.chars().take(60).collect::<String>()
                ))
            })?
            .to_string(),
        _ => resolve_player(store, target).await?.0,
    };
    let now = now_ms();
    let ms = i64::try_from(minutes).unwrap_or(i64::MAX).saturating_mul(60_000);
    let row = SanctionRow {
        id: ids::new_id("s").map_err(|e| ModError::Bad(e.to_string()))?,
        kind,
        subject: subject.clone(),
        created_ms: now,
        until_ms: now.saturating_add(ms),
        lifted_ms: None,
        reason: reason.clone(),
        by: by.clone(),
    };
    let log = log_line(&by, kind.name(), &subject, &format!("{reason} ({minutes} min, {})", row.id))?;
    store.add_sanction(&row, &log).await?;
    Ok(row)
}

/// Lifts a sanction, and logs it.
pub async fn lift(store: &dyn Store, id: &str, reason: &str, by: &str) -> Result<(), ModError> {
    let reason = check_reason(reason)?;
    let by = check_by(by)?;
    let log = log_line(&by, "lift", id, &reason)?;
    if !store.lift_sanction(id, &log).await? {
        return Err(ModError::NotFound(format!("no sanction {:?}", id.chars().take(40).collect::<String>())));
    }
    Ok(())
}

/// Removes chat line `seq` of table `table` from the database, and logs it (with the line's
/// author and text, so that the log still says what was removed).
pub async fn remove_chat(
    store: &dyn Store,
    table: &str,
    seq: u64,
    reason: &str,
    by: &str,
) -> Result<(), ModError> {
    let reason = check_reason(reason)?;
    let by = check_by(by)?;
    let shown: String = table.chars().take(40).collect();
    let Some(line) = store.chat_line(table, seq).await? else {
        return Err(ModError::NotFound(format!("no chat line {seq} at table {shown:?}")));
    };
    let said =
        format!("{reason} (line by {} {:?}: {:?})", line.name, line.guest.unwrap_or_default(), line.text);
    let log = log_line(&by, "remove_chat", &format!("{table}#{seq}"), &said)?;
    if !store.remove_chat(table, seq, &log).await? {
        return Err(ModError::NotFound(format!("no chat line {seq} at table {shown:?}")));
    }
    Ok(())
}

/// The latest `limit` tables of a player (a username or guest id), newest first.
pub async fn recent_games(
    store: &dyn Store,
    player: &str,
    limit: u32,
) -> Result<(String, Vec<GameLine>), ModError> {
    let (id, name) = resolve_player(store, player).await?;
    let rows = store.tables_of_guest(&id, limit).await?;
    let games = rows
        .into_iter()
        .map(|t| GameLine {
            id: t.id,
            game: t.game,
            status: serde_json::to_value(t.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_else(|| format!("{:?}", t.status).to_lowercase()),
            created_ms: t.created_ms,
            seats: t
                .seats
                .iter()
                .map(|s| match s {
                    SeatRow::Person { guest, name } => format!("{name} ({guest})"),
                    SeatRow::Bot(b) => format!("bot {b}"),
                    _ => String::new(),
                })
                .collect(),
        })
        .collect();
    Ok((name, games))
}

// The operator's API.

/// Checks the request's operator token.
fn operator(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(hash) = app.admin_token_hash() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            ApiCode::AdminOff,
            "the admin API is off: start the server with --admin-token-file",
        ));
    };
    let token = bearer(headers)?;
    let given = ids::hash_token(token);
    // Compared as hashes, every byte: the time taken does not tell how much matched.
    let same =
        given.len() == hash.len() && given.bytes().zip(hash.bytes()).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0;
    if !same {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::NotAdmin,
            "this is not the operator's token",
        ));
    }
    Ok(())
}

/// The reports as the operator sees them, newest first.
pub async fn report_views(store: &dyn Store, limit: u32) -> Result<Vec<ReportView>, ModError> {
    let rows = store.reports(limit).await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let player_name = store.guest(&r.player).await?.map(|g| g.name);
        out.push(ReportView {
            id: r.id,
            created_ms: r.created_ms,
            reporter: r.reporter,
            player: r.player,
            player_name,
            table: r.table,
            chat: r.chat_seq,
            chat_text: r.chat_text,
            reason: r.reason,
        });
    }
    Ok(out)
}

impl From<SanctionRow> for SanctionView {
    fn from(s: SanctionRow) -> SanctionView {
        SanctionView {
            in_force: s.in_force(now_ms()),
            id: s.id,
            kind: s.kind.name().into(),
            subject: s.subject,
            created_ms: s.created_ms,
            until_ms: s.until_ms,
            lifted_ms: s.lifted_ms,
            reason: s.reason,
            by: s.by,
        }
    }
}

impl From<LogRow> for LogView {
    fn from(l: LogRow) -> LogView {
        LogView { id: l.id, at_ms: l.at_ms, by: l.by, action: l.action, subject: l.subject, reason: l.reason }
    }
}

fn limit_of(q: &HashMap<String, String>) -> Result<u32, ApiError> {
    Ok(query_number(q, "limit")?.unwrap_or(100).clamp(1, LIST_MAX))
}

async fn admin_reports(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    operator(&app, &headers)?;
    let reports = report_views(&*app.store, limit_of(&q)?).await?;
    ok_json(StatusCode::OK, ReportsReply { reports })
}

async fn admin_sanctions(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    operator(&app, &headers)?;
    let rows = app.store.sanctions(limit_of(&q)?).await.map_err(internal)?;
    let sanctions: Vec<SanctionView> = rows.into_iter().map(SanctionView::from).collect();
    ok_json(StatusCode::OK, SanctionsReply { sanctions })
}

async fn admin_log(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    operator(&app, &headers)?;
    let rows = app.store.moderation_log(limit_of(&q)?).await.map_err(internal)?;
    let log: Vec<LogView> = rows.into_iter().map(LogView::from).collect();
    ok_json(StatusCode::OK, LogReply { log })
}

async fn admin_sanction(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    operator(&app, &headers)?;
    let req: NewSanction = body(&bytes)?;
    let kind = SanctionKind::parse(&req.kind).ok_or_else(|| {
        ApiError::bad(format!(
            "kind must be mute_chat, ban_account or ban_address, not {:?}",
            req.kind.chars().take(40).collect::<String>()
        ))
    })?;
    let row = sanction(&*app.store, kind, &req.target, req.minutes, &req.reason, &req.by).await?;
    ok_json(StatusCode::CREATED, SanctionView::from(row))
}

async fn admin_lift(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    operator(&app, &headers)?;
    let req: Because = body(&bytes)?;
    lift(&*app.store, &id, &req.reason, &req.by).await?;
    ok_json(StatusCode::OK, LiftedReply { lifted: id })
}

async fn admin_remove_chat(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    operator(&app, &headers)?;
    let req: RemoveChat = body(&bytes)?;
    remove_chat(&*app.store, &req.table, req.chat, &req.reason, &req.by).await?;
    // A table running on this node drops the line at once and tells its connections.
    app.tables.remove_chat(&req.table, req.chat).await;
    ok_json(StatusCode::OK, RemovedReply { removed: RemovedLine { table: req.table, chat: req.chat } })
}

async fn admin_games(
    State(app): State<Arc<App>>,
    Path(player): Path<String>,
    headers: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    operator(&app, &headers)?;
    let limit = query_number(&q, "limit")?.unwrap_or(20).clamp(1, 100);
    let (name, games) = recent_games(&*app.store, &player, limit).await?;
    ok_json(StatusCode::OK, PlayerGames { name, games })
}
