//! Accounts (see `docs/protocol.md`, "Accounts"): a guest claims an account (a username and a
//! password), signs in from other devices (sessions), signs out here or everywhere, changes its
//! password and deletes its account.
//!
//! An account belongs to the guest who claimed it: its id, its tables and its seats are the
//! account's. A session is one more token of that guest, stored hashed like a guest's token, with
//! an expiry, and revocable. When a guest claims an account its own token is retired: from then
//! on only sessions speak for it, so that "sign out everywhere" means everywhere.
//!
//! Passwords are hashed with argon2id (the `argon2` crate's default parameters, those OWASP
//! recommends: 19 MiB of memory, 2 passes, 1 lane, a random 16-byte salt), on
//! [`AccountLimits::hashes_at_once`] threads of their own that keep their hashing memory
//! ([`super::hashing`]). Signing in is rate-limited per address, per
//! (username, address) and, with a much larger bound, per username (known or not, alike), in maps
//! of bounded size, so that guessing from one address cannot lock the owner out from another; a
//! signed-in session's password checks (changing the password, deleting the account) draw only on
//! its (username, address) allowance. A wrong password and an unknown
//! username get the same answer, and an unknown username costs one hash as well (of a dummy
//! password), so that the time does not tell them apart either.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use cards::record::GameKind;
use wire::{
    AccountInfo, AccountTable, AccountTables, ApiCode, DeleteAccount, NewAccount, NewPassword, SessionReply,
    SignIn, SignedOut,
};

use super::hashing::{hash_password, verify_password};
use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, ok_json};
use crate::ids;
use crate::ids::now_ms;
use crate::listen::Peer;
use crate::rate::RateBucket;
use crate::store::{AccountRow, GuestRow, SessionRow, StoreError};

/// The name a deleted account's guest gets wherever it is stored (its seats, its chat lines, the
/// records of its games).
pub const DELETED_NAME: &str = "deleted player";

/// The shortest and longest username (ASCII characters).
pub const USERNAME_LEN: std::ops::RangeInclusive<usize> = 3..=20;

/// The shortest and longest password (characters).
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=256;

/// The most addresses, and the most usernames, whose sign-in allowance is remembered at once.
/// Allowances that are whole again are forgotten first; when every remembered one is still in
/// use, sign-ins from new addresses (or for new usernames) are refused as rate-limited until some
/// are whole again.
pub const LIMITER_CAP: usize = 10_000;

/// The limits of accounts and sessions.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AccountLimits {
    /// How long a session lasts (milliseconds).
    pub session_ms: u64,
    /// Sign-in attempts (and account claims) one address may make in a burst…
    pub ip_burst: f64,
    /// …and then one every this many seconds.
    pub ip_every_seconds: f64,
    /// Password checks one username may take from one address in a burst (signing in, changing
    /// the password, deleting the account)…
    pub account_burst: f64,
    /// …and then one every this many seconds.
    pub account_every_seconds: f64,
    /// Sign-in attempts one username may take from all addresses together in a burst (much more
    /// than [`AccountLimits::account_burst`]: a bound on guessing from many addresses, not a lock
    /// an attacker could close on the owner)…
    pub username_burst: f64,
    /// …and then one every this many seconds.
    pub username_every_seconds: f64,
    /// Player profiles (`GET /api/players/{name}`, which tells whether a username exists) one
    /// address may look up in a burst…
    pub lookup_burst: f64,
    /// …and then one every this many seconds.
    pub lookup_every_seconds: f64,
    /// Passwords hashed or checked at once (each takes 19 MiB for a few tens of milliseconds);
    /// more wait their turn.
    pub hashes_at_once: usize,
    /// How often an open connection checks that its session still holds (milliseconds): the
    /// longest a connection on another node of a cluster stays open after its session was signed
    /// out (on the node that signed it out, it is closed at once).
    pub session_check_ms: u64,
}

impl Default for AccountLimits {
    fn default() -> Self {
        AccountLimits {
            session_ms: 30 * 24 * 3600 * 1000,
            ip_burst: 20.0,
            ip_every_seconds: 6.0,
            account_burst: 5.0,
            account_every_seconds: 60.0,
            username_burst: 200.0,
            username_every_seconds: 6.0,
            lookup_burst: 30.0,
            lookup_every_seconds: 2.0,
            hashes_at_once: 2,
            session_check_ms: 30_000,
        }
    }
}

/// Token buckets by key, at most [`LIMITER_CAP`] of them.
struct Limiter<K> {
    buckets: Mutex<HashMap<K, RateBucket>>,
}

impl<K: Eq + Hash> Limiter<K> {
    fn new() -> Limiter<K> {
        Limiter { buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one attempt from `key`'s allowance (`burst`, then one every `every` seconds), or
    /// says how many seconds to wait.
    fn take(&self, key: K, burst: f64, every: f64) -> Result<(), f64> {
        let Ok(mut buckets) = self.buckets.lock() else { return Err(every) };
        if !buckets.contains_key(&key) && buckets.len() >= LIMITER_CAP {
            buckets.retain(|_, b| !b.is_full());
            if buckets.len() >= LIMITER_CAP {
                return Err(every);
            }
        }
        let b = buckets.entry(key).or_insert_with(|| RateBucket::new(1.0 / every.max(0.001), burst));
        if b.take() { Ok(()) } else { Err(b.wait_seconds()) }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.buckets.lock().map(|b| b.len()).unwrap_or(0)
    }
}

/// The accounts' state in a server: the sign-in allowances and the hashing turns.
pub struct Accounts {
    by_ip: Limiter<IpAddr>,
    by_username: Limiter<String>,
    by_username_ip: Limiter<(String, Option<IpAddr>)>,
    lookups: Limiter<IpAddr>,
    hashing: super::hashing::Hasher,
    dummy: OnceLock<String>,
}

impl Accounts {
    /// The state of a server with these limits.
    pub fn new(limits: AccountLimits) -> Accounts {
        Accounts {
            by_ip: Limiter::new(),
            by_username: Limiter::new(),
            by_username_ip: Limiter::new(),
            lookups: Limiter::new(),
            hashing: super::hashing::Hasher::new(limits.hashes_at_once),
            dummy: OnceLock::new(),
        }
    }
}

/// The account routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/account", get(account).post(claim))
        .route("/api/account/password", post(change_password))
        .route("/api/account/delete", post(delete_account))
        .route("/api/account/tables", get(account_tables))
        .route("/api/sessions", post(sign_in).delete(sign_out_everywhere))
        .route("/api/sessions/current", delete(sign_out))
        .layer(DefaultBodyLimit::max(16 * 1024))
}

/// Why a token is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// No guest and no session has this token.
    #[error("unknown token")]
    Unknown,
    /// The token was a guest's, whose account has been claimed since.
    #[error("this guest's token was retired when it claimed an account: sign in with the account")]
    Claimed,
    /// The session has expired.
    #[error("the session has expired: sign in again")]
    Expired,
    /// The session was signed out.
    #[error("the session was signed out: sign in again")]
    Revoked,
    /// The store failed.
    #[error("the token cannot be looked up: {0}")]
    Store(String),
}

impl From<Refused> for ApiError {
    fn from(r: Refused) -> ApiError {
        let code = match r {
            Refused::Unknown | Refused::Claimed => ApiCode::BadToken,
            Refused::Expired => ApiCode::SessionExpired,
            Refused::Revoked => ApiCode::SessionRevoked,
            Refused::Store(_) => return ApiError::internal(r.to_string()),
        };
        ApiError::new(StatusCode::UNAUTHORIZED, code, r.to_string())
    }
}

fn store_error(e: StoreError) -> Refused {
    Refused::Store(e.to_string())
}

/// The guest a token speaks for: a guest's own token, or a session of an account (then with
/// the session).
pub async fn identify(app: &App, token: &str) -> Result<(GuestRow, Option<SessionRow>), Refused> {
    let hash = ids::hash_token(token);
    if let Some(g) = app.store.guest_by_token_hash(&hash).await.map_err(store_error)? {
        return Ok((g, None));
    }
    let Some(s) = app.store.session_by_token_hash(&hash).await.map_err(store_error)? else {
        let claimed = app.store.guest_by_token_hash(&format!("claimed:{hash}")).await.map_err(store_error)?;
        return Err(if claimed.is_some() { Refused::Claimed } else { Refused::Unknown });
    };
    if s.revoked_ms.is_some() {
        return Err(Refused::Revoked);
    }
    // By the database's clock: a node whose own clock is wrong judges like the others.
    if app.cluster.db_now_ms() >= s.expires_ms {
        return Err(Refused::Expired);
    }
    let g = app.store.guest(&s.guest).await.map_err(store_error)?.ok_or(Refused::Unknown)?;
    Ok((g, Some(s)))
}

/// The request's session and its account; a guest's token is refused with `no_account`.
async fn session(app: &App, headers: &HeaderMap) -> Result<(GuestRow, SessionRow, AccountRow), ApiError> {
    let (g, s) = identify(app, bearer(headers)?).await?;
    let no_account = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            ApiCode::NoAccount,
            "this is a guest's token: the guest has no account (POST /api/account claims one)",
        )
    };
    let s = s.ok_or_else(no_account)?;
    let a = app.store.account_by_guest(&g.id).await.map_err(|e| ApiError::internal(e.to_string()))?;
    Ok((g, s, a.ok_or_else(no_account)?))
}

/// Checks a username's form (see [`USERNAME_LEN`]: ASCII letters, digits, `_` and `-`,
/// beginning with a letter) and gives its key, the lower-case username.
pub fn username_key(username: &str) -> Result<String, BadUsername> {
    let ok_chars = username.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let first_letter = username.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    if !USERNAME_LEN.contains(&username.len()) || !ok_chars || !first_letter {
        return Err(BadUsername);
    }
    Ok(username.to_ascii_lowercase())
}

/// A username not of the form [`username_key`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "a username is {} to {} ASCII letters, digits, `_` or `-`, beginning with a letter",
    USERNAME_LEN.start(),
    USERNAME_LEN.end()
)]
pub struct BadUsername;

/// Checks a new password's length.
fn check_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if PASSWORD_LEN.contains(&n) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::BAD_REQUEST,
        ApiCode::BadPassword,
        format!("a password is {} to {} characters, not {n}", PASSWORD_LEN.start(), PASSWORD_LEN.end()),
    ))
}

fn rate_limited(what: &str, wait: f64) -> ApiError {
    ApiError::rate_limited(format!("too many {what}: try again in {:.0} s", wait.ceil().max(1.0)), wait)
}

/// Takes one profile lookup from the address's allowance (`GET /api/players/{name}`).
pub(crate) fn lookup_allowance(app: &App, peer: Option<IpAddr>) -> Result<(), ApiError> {
    let l = app.limits.accounts;
    match peer {
        Some(ip) => app
            .accounts
            .lookups
            .take(ip, l.lookup_burst, l.lookup_every_seconds)
            .map_err(|w| rate_limited("player lookups from this address", w)),
        None => Ok(()),
    }
}

/// Takes one attempt from the address's allowance.
fn ip_allowance(app: &App, peer: Option<IpAddr>) -> Result<(), ApiError> {
    let l = app.limits.accounts;
    match peer {
        Some(ip) => app
            .accounts
            .by_ip
            .take(ip, l.ip_burst, l.ip_every_seconds)
            .map_err(|w| rate_limited("sign-in attempts from this address", w)),
        None => Ok(()),
    }
}

/// Takes one password check from the allowance of the username from this address.
fn pair_allowance(app: &App, key: &str, peer: Option<IpAddr>) -> Result<(), ApiError> {
    let l = app.limits.accounts;
    app.accounts
        .by_username_ip
        .take((key.to_string(), peer), l.account_burst, l.account_every_seconds)
        .map_err(|w| rate_limited("password attempts for this username", w))
}

/// Takes one sign-in attempt from the allowance of the username (from this address, then from
/// all addresses together).
fn username_allowance(app: &App, key: &str, peer: Option<IpAddr>) -> Result<(), ApiError> {
    pair_allowance(app, key, peer)?;
    let l = app.limits.accounts;
    app.accounts
        .by_username
        .take(key.to_string(), l.username_burst, l.username_every_seconds)
        .map_err(|w| rate_limited("password attempts for this username", w))
}

/// Runs `f` (a hash or a check) on a hashing thread, in its turn ([`super::hashing`]).
async fn hashing<T: Send + 'static>(
    app: &App,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    app.accounts.hashing.run(f).await.map_err(|e| ApiError::internal(e.to_string()))
}

/// Hashes `password` in its turn.
async fn hash_in_turn(app: &App, password: String) -> Result<String, ApiError> {
    hashing(app, move || hash_password(&password)).await?.map_err(|e| ApiError::internal(e.to_string()))
}

/// Checks `password` against `hash` in its turn; without a hash (an unknown username), against
/// a dummy hash, so that it takes as long, and the answer is no.
async fn verify_in_turn(app: &App, password: String, hash: Option<String>) -> Result<bool, ApiError> {
    let known = hash.is_some();
    let hash = match hash {
        Some(h) => h,
        None => match app.accounts.dummy.get() {
            Some(d) => d.clone(),
            None => {
                let d = hash_in_turn(app, "not a password: the dummy".into()).await?;
                app.accounts.dummy.get_or_init(|| d).clone()
            }
        },
    };
    let right = hashing(app, move || verify_password(&password, &hash)).await?;
    Ok(known && right)
}

/// A new session of `guest`, stored: its token and its row.
async fn new_session(app: &App, guest: &str) -> Result<(String, SessionRow), ApiError> {
    let token = ids::new_token().map_err(|e| ApiError::internal(e.to_string()))?;
    let now = app.cluster.db_now_ms();
    let ms = i64::try_from(app.limits.accounts.session_ms).unwrap_or(i64::MAX);
    let row = SessionRow {
        token_hash: ids::hash_token(&token),
        guest: guest.to_string(),
        created_ms: now,
        expires_ms: now.saturating_add(ms),
        revoked_ms: None,
    };
    Ok((token, row))
}

fn internal(e: StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

fn taken(username: &str) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        ApiCode::UsernameTaken,
        format!("the username {username:?} is taken (regardless of case): choose another"),
    )
}

/// `POST /api/account`: the guest of the token claims an account.
async fn claim(State(app): State<Arc<App>>, Peer(peer): Peer, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    let (g, s) = identify(&app, bearer(&headers)?).await?;
    if s.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::AlreadyAccount,
            "this session's guest has an account already",
        ));
    }
    let req: NewAccount = body(&bytes)?;
    let key = username_key(&req.username)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, ApiCode::BadUsername, e.to_string()))?;
    check_password(&req.password)?;
    ip_allowance(&app, peer)?;
    if app.store.account_by_username(&key).await.map_err(internal)?.is_some() {
        return Err(taken(&req.username));
    }
    let password_hash = hash_in_turn(&app, req.password).await?;
    let account = AccountRow {
        guest: g.id.clone(),
        username: req.username.clone(),
        username_key: key.clone(),
        password_hash,
        created_ms: now_ms(),
    };
    let (token, session) = new_session(&app, &g.id).await?;
    match app.store.claim_account(&account, &session).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            // Claimed meanwhile: the name by another guest, or this guest by another request.
            if app.store.account_by_guest(&g.id).await.map_err(internal)?.is_some() {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    ApiCode::AlreadyAccount,
                    "this guest has an account already",
                ));
            }
            return Err(taken(&req.username));
        }
        Err(e) => return Err(internal(e)),
    }
    note_address(&app, &g.id, peer).await;
    session_made(g, account.username, token, &session)
}

/// Keeps the keyed hash of the address `guest`'s account was just used from (signing in,
/// creating the account, or sitting down at a table), for the ratings'
/// rule on accounts sharing an address (`docs/ratings.md`, "Repeated results"). A failure is
/// logged, never refused: the session is made already.
pub(crate) async fn note_address(app: &App, guest: &str, peer: Option<IpAddr>) {
    let Some(ip) = peer.filter(|ip| crate::ratings::address_counts(*ip)) else { return };
    let secret = match crate::ids::new_token() {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "the address is not noted");
            return;
        }
    };
    if let Err(e) = app.store.note_address(guest, &ip.to_string(), now_ms(), &secret).await {
        tracing::warn!(error = %e, "the address is not noted");
    }
}

/// The answer to a new session of `g`'s account `username`: 201 with its token.
fn session_made(g: GuestRow, username: String, token: String, session: &SessionRow) -> ApiResult {
    ok_json(
        StatusCode::CREATED,
        SessionReply { id: g.id, name: g.name, username, token, expires_ms: session.expires_ms },
    )
}

/// The one answer to a failed sign-in, whatever failed.
fn bad_credentials() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, ApiCode::BadCredentials, "wrong username or password")
}

/// `POST /api/sessions`: signing in.
async fn sign_in(State(app): State<Arc<App>>, Peer(peer): Peer, bytes: Bytes) -> ApiResult {
    let req: SignIn = body(&bytes)?;
    ip_allowance(&app, peer)?;
    let account = match username_key(&req.username) {
        Ok(key) => {
            username_allowance(&app, &key, peer)?;
            app.store.account_by_username(&key).await.map_err(internal)?
        }
        Err(_) => None,
    };
    let right = verify_in_turn(&app, req.password, account.as_ref().map(|a| a.password_hash.clone())).await?;
    let Some(account) = account.filter(|_| right) else { return Err(bad_credentials()) };
    let g = app.store.guest(&account.guest).await.map_err(internal)?.ok_or_else(bad_credentials)?;
    // A banned account or address is refused (see `docs/protocol.md`, "Moderation").
    let mut subjects = vec![g.id.clone()];
    subjects.extend(peer.map(|ip| ip.to_string()));
    if let Ok(found) = app.store.sanctions_on(&subjects, now_ms()).await
        && let Some(ban) = found.iter().find(|s| s.kind != crate::store::moderation::SanctionKind::MuteChat)
    {
        return Err(ApiError::new(StatusCode::FORBIDDEN, ApiCode::Banned, ban.refusal(now_ms())));
    }
    let (token, session) = new_session(&app, &g.id).await?;
    app.store.create_session(&session).await.map_err(internal)?;
    note_address(&app, &g.id, peer).await;
    session_made(g, account.username, token, &session)
}

/// `GET /api/account`.
async fn account(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (g, s, a) = session(&app, &headers).await?;
    ok_json(
        StatusCode::OK,
        AccountInfo {
            id: g.id,
            name: g.name,
            username: a.username,
            created_ms: a.created_ms,
            expires_ms: s.expires_ms,
        },
    )
}

/// `DELETE /api/sessions/current`: signing out this session.
async fn sign_out(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (_, s, _) = session(&app, &headers).await?;
    app.store.revoke_session(&s.token_hash, now_ms()).await.map_err(internal)?;
    let _ = app.signouts.send(crate::SignOut::One(s.token_hash));
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/sessions`: signing out every session of the account, this one too.
async fn sign_out_everywhere(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (g, _, _) = session(&app, &headers).await?;
    let revoked = app.store.revoke_sessions(&g.id, None, now_ms()).await.map_err(internal)?;
    let _ = app.signouts.send(crate::SignOut::Guest { guest: g.id, keep: None });
    ok_json(StatusCode::OK, SignedOut { revoked })
}

/// Checks the account's password for a signed-in session (from the allowance of the username
/// from this address only: guesses from elsewhere cannot stop the owner changing it).
async fn confirm(app: &App, a: &AccountRow, password: String, peer: Option<IpAddr>) -> Result<(), ApiError> {
    pair_allowance(app, &a.username_key, peer)?;
    if verify_in_turn(app, password, Some(a.password_hash.clone())).await? {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::WrongPassword,
            "that is not the account's password",
        ))
    }
}

/// `POST /api/account/password`: a new password; every other session is signed out.
async fn change_password(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let (g, s, a) = session(&app, &headers).await?;
    let req: NewPassword = body(&bytes)?;
    check_password(&req.password)?;
    confirm(&app, &a, req.current, peer).await?;
    let hash = hash_in_turn(&app, req.password).await?;
    app.store.set_password(&g.id, &hash).await.map_err(internal)?;
    let revoked = app.store.revoke_sessions(&g.id, Some(&s.token_hash), now_ms()).await.map_err(internal)?;
    let _ = app.signouts.send(crate::SignOut::Guest { guest: g.id, keep: Some(s.token_hash) });
    ok_json(StatusCode::OK, SignedOut { revoked })
}

/// `POST /api/account/delete`: deletes the account; its games stay, under [`DELETED_NAME`].
async fn delete_account(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    headers: HeaderMap,
    bytes: Bytes,
) -> ApiResult {
    let (g, _, a) = session(&app, &headers).await?;
    let req: DeleteAccount = body(&bytes)?;
    confirm(&app, &a, req.password, peer).await?;
    // The tables loaded here forget his name first (a match that ends meanwhile writes its record
    // under the neutral name), then the store everywhere it keeps it.
    app.forget_guest(&g.id, DELETED_NAME).await;
    app.store.delete_account(&g.id, DELETED_NAME).await.map_err(internal)?;
    let _ = app.signouts.send(crate::SignOut::Guest { guest: g.id, keep: None });
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The most tables `GET /api/account/tables` lists.
pub const TABLES_LISTED: u32 = 50;

/// `GET /api/account/tables`: the tables of the token's guest (an account's or a guest's).
async fn account_tables(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (g, _) = identify(&app, bearer(&headers)?).await?;
    let rows = app.store.tables_of_guest(&g.id, TABLES_LISTED).await.map_err(internal)?;
    let tables = rows
        .into_iter()
        .filter_map(|t| {
            let game = match t.game.as_str() {
                "madiao" => GameKind::Madiao,
                "dabaifen" => GameKind::Dabaifen,
                _ => return None,
            };
            let name = serde_json::from_str::<serde_json::Value>(&t.settings)
                .ok()
                .and_then(|v| v.get("name").and_then(|n| n.as_str()).map(str::to_string))
                .unwrap_or_default();
            let seat = t
                .seats
                .iter()
                .position(|s| matches!(s, table::log::SeatRow::Person { guest, .. } if *guest == g.id));
            Some(AccountTable {
                id: t.id,
                game,
                name,
                status: t.status,
                seat: seat.and_then(|s| u8::try_from(s).ok()),
                created_ms: t.created_ms,
            })
        })
        .collect();
    ok_json(StatusCode::OK, AccountTables { tables })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_have_their_form_and_compare_without_case() {
        for good in ["Ann", "bo_2", "Cai-Lun", "a23456789012345678_z"] {
            assert_eq!(username_key(good).unwrap(), good.to_ascii_lowercase(), "{good}");
        }
        for bad in ["", "ab", "2ann", "_ann", "an n", "安安安", "a234567890123456789_z", "ann!"] {
            assert!(username_key(bad).is_err(), "{bad:?} was allowed");
        }
        assert_eq!(username_key("ANN").unwrap(), username_key("ann").unwrap());
    }

    #[test]
    fn passwords_hash_with_argon2id_and_check() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(h, hash_password("correct horse").unwrap(), "the salt is not random");
    }

    #[test]
    fn a_limiter_refuses_past_its_allowance_and_stays_bounded() {
        let l: Limiter<u32> = Limiter::new();
        assert!(l.take(1, 2.0, 60.0).is_ok());
        assert!(l.take(1, 2.0, 60.0).is_ok());
        let wait = l.take(1, 2.0, 60.0).unwrap_err();
        assert!(wait > 50.0 && wait <= 60.0, "{wait}");
        assert!(l.take(2, 2.0, 60.0).is_ok(), "another key has its own allowance");
        // Keys whose allowance is in use fill the map up to its cap, no further.
        for k in 3..(LIMITER_CAP as u32 + 100) {
            let _ = l.take(k, 1.0, 60.0);
        }
        assert_eq!(l.len(), LIMITER_CAP);
        assert!(l.take(u32::MAX, 1.0, 60.0).is_err(), "a new key past the cap was let in");
        // Allowances whole again are forgotten to make room.
        let fast: Limiter<u32> = Limiter::new();
        for k in 0..LIMITER_CAP as u32 {
            fast.take(k, 1.0, 0.001).unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(fast.take(u32::MAX, 1.0, 0.001).is_ok());
        assert!(fast.len() < 10);
    }
}
