//! Friends (`docs/protocol.md`, "Friends"): an account follows players (by username), sees which
//! of them are online and at which table, and challenges one of them to a table, who accepts
//! (the table is made: the challenger in seat 0, seat 2 kept for the friend, bots in seats 1 and
//! 3) or declines. A player hears of a challenge, of its answer, of a followed player coming
//! online or going offline or sitting down at a table, and of an invitation to a private event,
//! as WebSocket notices ([`crate::notices`], `docs/protocol.md` "Friend notices"); `GET
//! /api/friends` gives the whole state. On a cluster, "online" is any node's: each node notes
//! its accounts' connections in the store (`presence`). The storage is
//! [`crate::store::friends::FriendStore`].

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post, put};
use cards::record::GameKind;
use table::log::SeatRow;
use wire::{
    ApiCode, Challenge, ChallengeStatus, Friend, FriendMsg, FriendTable, FriendsReply, InvitedMsg,
    NewChallenge, NewTable, SeatKind, ServerMsg,
};

use crate::App;
use crate::api::error::{ApiError, ApiResult, bearer, body, ok_json};
use crate::store::friends::ChallengeRow;
use crate::store::{AccountRow, GuestRow, StoreError};

/// The most players an account may follow.
pub const MAX_FOLLOWED: usize = 200;
/// The most challenges an account may have pending at once.
pub const MAX_PENDING: usize = 10;
/// How far back `GET /api/friends` lists challenges (milliseconds): a day.
pub const CHALLENGES_SHOWN_MS: i64 = 24 * 3600 * 1000;

/// The friends' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/friends", get(friends))
        .route("/api/friends/{username}", put(follow).delete(unfollow))
        .route("/api/challenges", post(challenge))
        .route("/api/challenges/{id}/{answer}", post(answer))
}

fn internal(e: StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// The caller and his account; a guest without one is refused with `account_required`.
async fn caller(app: &App, headers: &HeaderMap) -> Result<(GuestRow, AccountRow), ApiError> {
    let (g, _) = crate::api::accounts::identify(app, bearer(headers)?).await?;
    match app.store.account_by_guest(&g.id).await.map_err(internal)? {
        Some(a) => Ok((g, a)),
        None => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ApiCode::AccountRequired,
            "friends are for accounts: claim one (POST /api/account) or sign in",
        )),
    }
}

/// The account of a username (`404 no_player` when there is none).
async fn account_of(app: &App, username: &str) -> Result<AccountRow, ApiError> {
    let shown: String = username.chars().take(40).collect();
    let none = || ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, format!("no player {shown:?}"));
    let key = crate::api::accounts::username_key(username).map_err(|_| none())?;
    app.store.account_by_username(&key).await.map_err(internal)?.ok_or_else(none)
}

/// `GET /api/friends`.
async fn friends(State(app): State<Arc<App>>, headers: HeaderMap) -> ApiResult {
    let (g, _) = caller(&app, &headers).await?;
    ok_json(StatusCode::OK, reply(&app, &g.id).await?)
}

/// Which of `ids` are online: connected to this node, or (on a store shared by nodes) to
/// another node that lives.
pub(crate) async fn online_among(app: &App, ids: &[String]) -> Result<HashSet<String>, ApiError> {
    let mut online: HashSet<String> = app
        .per_guest
        .lock()
        .map(|m| ids.iter().filter(|g| m.contains_key(*g)).cloned().collect())
        .unwrap_or_default();
    if app.store.backend() != "sqlite" {
        let rest: Vec<String> = ids.iter().filter(|g| !online.contains(*g)).cloned().collect();
        if !rest.is_empty() {
            online.extend(app.store.present(&rest, app.store.node()).await.map_err(internal)?);
        }
    }
    Ok(online)
}

/// The public table `guest` is seated at (unfinished), and whether he is at a private one.
fn seated_at(tables: &[wire::TableSummary], guest: &str) -> (Option<FriendTable>, bool) {
    let seated = |t: &&wire::TableSummary| {
        !t.status.is_over()
            && t.seats.iter().any(|s| s.kind == SeatKind::Person && s.guest.as_deref() == Some(guest))
    };
    let at = tables.iter().find(|t| seated(t) && !t.private);
    let private = at.is_none() && tables.iter().any(|t| seated(&t) && t.private);
    let table =
        at.map(|t| FriendTable { id: t.id.clone(), name: t.name.clone(), game: t.game, status: t.status });
    (table, private)
}

/// The caller's friends and challenges.
async fn reply(app: &App, guest: &str) -> Result<FriendsReply, ApiError> {
    let followed = app.store.following(guest).await.map_err(internal)?;
    let ids: Vec<String> = followed.iter().map(|(id, _)| id.clone()).collect();
    let online = online_among(app, &ids).await?;
    let tables =
        if followed.is_empty() { Vec::new() } else { crate::tables::all_summaries(&app.tables).await };
    let mut friends = Vec::with_capacity(followed.len());
    for (id, since_ms) in followed {
        // An account deleted since: no longer listed.
        let Some(account) = app.store.account_by_guest(&id).await.map_err(internal)? else { continue };
        let name = app
            .store
            .guest(&id)
            .await
            .map_err(internal)?
            .map_or_else(|| account.username.clone(), |g| g.name);
        let (table, at_private_table) = seated_at(&tables, &id);
        friends.push(Friend {
            username: account.username,
            name,
            online: online.contains(&id),
            table,
            at_private_table,
            since_ms,
        });
    }
    let since = crate::ids::now_ms() - CHALLENGES_SHOWN_MS;
    let rows = app.store.challenges_of(guest, since, 50).await.map_err(internal)?;
    let mut challenges = Vec::with_capacity(rows.len());
    for r in rows {
        challenges.push(challenge_of(app, &r, guest).await?);
    }
    Ok(FriendsReply { friends, challenges })
}

/// Starts the friends' worker: it hears the changes of the node's [`crate::notices::Hub`] (an
/// account's first connection here opened or its last closed; people sat down at a table or
/// left it), notes the presence in a store shared by nodes, and sends each changed account's
/// followers a `friend` notice with his state now. It first forgets the presence noted by
/// nodes that no longer live.
pub fn spawn_worker(app: &Arc<App>) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    app.cluster.notices.set_worker(tx);
    let weak = Arc::downgrade(app);
    tokio::spawn(async move {
        if let Some(app) = weak.upgrade()
            && let Err(e) = app.store.prune_presence(app.store.node()).await
        {
            tracing::warn!(error = %e, "the presence of gone nodes could not be forgotten");
        }
        while let Some(first) = rx.recv().await {
            let Some(app) = weak.upgrade() else { break };
            // What came meanwhile, once each.
            let mut changes = std::collections::BTreeSet::from([first]);
            while let Ok(c) = rx.try_recv() {
                changes.insert(c);
            }
            let mut told = HashSet::new();
            for change in changes {
                if let Err(e) = changed(&app, &change, &mut told).await {
                    tracing::warn!(error = ?e, "a friend notice was not sent");
                }
            }
        }
    });
}

/// Acts on one change; `told`: the guests whose followers were told already in this round.
async fn changed(
    app: &App,
    change: &crate::notices::Change,
    told: &mut HashSet<String>,
) -> Result<(), ApiError> {
    let guest = match change {
        crate::notices::Change::Presence(g) => {
            // Noted as it stands now (a later change is acted on in turn).
            if app.store.backend() != "sqlite" {
                let here = app.per_guest.lock().map(|m| m.contains_key(g)).unwrap_or(false);
                let now = crate::ids::now_ms();
                app.store.set_present(g, app.store.node(), here, now).await.map_err(internal)?;
            }
            g
        }
        crate::notices::Change::Seat(g) => g,
    };
    if !told.insert(guest.clone()) {
        return Ok(());
    }
    let followers = app.store.followers(guest).await.map_err(internal)?;
    if followers.is_empty() {
        return Ok(());
    }
    let Some(msg) = friend_state(app, guest).await? else { return Ok(()) };
    app.cluster.notify(app.store.node(), &followers, &ServerMsg::Friend(msg)).await;
    Ok(())
}

/// An account's state now, as a `friend` notice gives it (`None`: no account).
async fn friend_state(app: &App, guest: &str) -> Result<Option<FriendMsg>, ApiError> {
    let Some(account) = app.store.account_by_guest(guest).await.map_err(internal)? else { return Ok(None) };
    let name =
        app.store.guest(guest).await.map_err(internal)?.map_or_else(|| account.username.clone(), |g| g.name);
    let online = online_among(app, &[guest.to_string()]).await?.contains(guest);
    // The tables this node runs first (the one that changed is here), then the others'.
    let tables = crate::tables::all_summaries(&app.tables).await;
    let (table, at_private_table) = seated_at(&tables, guest);
    Ok(Some(FriendMsg { username: account.username, name, online, table, at_private_table }))
}

/// Tells `to` (a guest) of the challenge as he sees it.
async fn tell_challenge(app: &App, row: &ChallengeRow, to: &str) {
    match challenge_of(app, row, to).await {
        Ok(c) => app.cluster.notify(app.store.node(), &[to.to_string()], &ServerMsg::Challenge(c)).await,
        Err(e) => tracing::warn!(error = ?e, "a challenge notice was not sent"),
    }
}

/// The most players a private event may invite.
pub const MAX_INVITED: usize = 32;

/// The players of a private event `host` invites, by username: each must be a player he
/// follows (1 to [`MAX_INVITED`]; a name twice counts once). Each comes back as an entrant
/// named by his username.
pub async fn invitees(
    app: &App,
    host: &str,
    names: &[String],
) -> Result<Vec<crate::duplicate::Entrant>, ApiError> {
    if names.is_empty() || names.len() > MAX_INVITED {
        return Err(ApiError::bad(format!(
            "invite: a private event invites 1 to {MAX_INVITED} of the players you follow"
        )));
    }
    let followed = app.store.following(host).await.map_err(internal)?;
    let mut out: Vec<crate::duplicate::Entrant> = Vec::new();
    for name in names {
        let other = account_of(app, name).await?;
        if !followed.iter().any(|(f, _)| *f == other.guest) {
            return Err(ApiError::bad(format!(
                "invite: you do not follow {}: a private event is for the players you follow",
                other.username
            )));
        }
        if !out.iter().any(|e| e.guest == other.guest) {
            out.push(crate::duplicate::Entrant { guest: other.guest, name: other.username });
        }
    }
    Ok(out)
}

/// Tells the players invited to private event `event` (named `name`, hosted by the guest
/// `host`) of it: an `invited` notice.
pub async fn tell_invited(
    app: &App,
    event: &str,
    name: &str,
    host: &str,
    invited: &[crate::duplicate::Entrant],
) {
    let host = match app.store.account_by_guest(host).await {
        Ok(Some(a)) => a.username,
        _ => return,
    };
    let to: Vec<String> = invited.iter().map(|e| e.guest.clone()).collect();
    let msg = InvitedMsg { event: event.to_string(), name: name.to_string(), host };
    app.cluster.notify(app.store.node(), &to, &ServerMsg::Invited(msg)).await;
}

/// A stored challenge as the caller `me` sees it.
async fn challenge_of(app: &App, r: &ChallengeRow, me: &str) -> Result<Challenge, ApiError> {
    let username = |g: String| async move {
        Ok::<String, ApiError>(
            app.store
                .account_by_guest(&g)
                .await
                .map_err(internal)?
                .map_or_else(|| "?".to_string(), |a| a.username),
        )
    };
    Ok(Challenge {
        id: r.id.clone(),
        from: username(r.from.clone()).await?,
        to: username(r.to.clone()).await?,
        game: if r.game == "dabaifen" { GameKind::Dabaifen } else { GameKind::Madiao },
        status: ChallengeStatus::parse(&r.status).unwrap_or(ChallengeStatus::Withdrawn),
        table: r.table.clone(),
        created_ms: r.created_ms,
        incoming: r.to == me,
    })
}

/// `PUT /api/friends/{username}`: follows the player (already followed: nothing changes).
async fn follow(State(app): State<Arc<App>>, Path(username): Path<String>, headers: HeaderMap) -> ApiResult {
    let (g, _) = caller(&app, &headers).await?;
    let other = account_of(&app, &username).await?;
    if other.guest == g.id {
        return Err(ApiError::bad("you cannot follow yourself"));
    }
    let followed = app.store.following(&g.id).await.map_err(internal)?;
    if followed.len() >= MAX_FOLLOWED && !followed.iter().any(|(f, _)| *f == other.guest) {
        return Err(ApiError::bad(format!("you follow {MAX_FOLLOWED} players, the most one may")));
    }
    app.store.follow(&g.id, &other.guest, crate::ids::now_ms()).await.map_err(internal)?;
    ok_json(StatusCode::OK, reply(&app, &g.id).await?)
}

/// `DELETE /api/friends/{username}`: no longer follows the player.
async fn unfollow(
    State(app): State<Arc<App>>,
    Path(username): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    let (g, _) = caller(&app, &headers).await?;
    let other = account_of(&app, &username).await?;
    app.store.unfollow(&g.id, &other.guest).await.map_err(internal)?;
    ok_json(StatusCode::OK, reply(&app, &g.id).await?)
}

/// `POST /api/challenges`: challenges a followed player to a table of a game.
async fn challenge(State(app): State<Arc<App>>, headers: HeaderMap, bytes: Bytes) -> ApiResult {
    let (g, _) = caller(&app, &headers).await?;
    let req: NewChallenge = body(&bytes)?;
    let other = account_of(&app, &req.username).await?;
    let followed = app.store.following(&g.id).await.map_err(internal)?;
    if !followed.iter().any(|(f, _)| *f == other.guest) {
        return Err(ApiError::bad(format!(
            "follow {} first: you challenge the players you follow",
            other.username
        )));
    }
    let now = crate::ids::now_ms();
    let mine = app.store.challenges_of(&g.id, now - CHALLENGES_SHOWN_MS, 200).await.map_err(internal)?;
    let pending = mine.iter().filter(|c| c.from == g.id && c.status == "pending").count();
    if pending >= MAX_PENDING {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::RateLimited,
            format!("you have {MAX_PENDING} challenges waiting for an answer, the most one may"),
        ));
    }
    let row = ChallengeRow {
        id: crate::ids::new_id("c").map_err(|e| ApiError::internal(e.to_string()))?,
        from: g.id.clone(),
        to: other.guest.clone(),
        game: req.game.name().to_string(),
        status: "pending".into(),
        table: None,
        created_ms: now,
        answered_ms: None,
    };
    app.store.add_challenge(&row).await.map_err(internal)?;
    tell_challenge(&app, &row, &row.to).await;
    ok_json(StatusCode::CREATED, challenge_of(&app, &row, &g.id).await?)
}

/// `POST /api/challenges/{id}/accept|decline|withdraw`: the recipient accepts (the table is
/// made) or declines; the sender withdraws.
async fn answer(
    State(app): State<Arc<App>>,
    Path((id, answer)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let (g, _) = caller(&app, &headers).await?;
    let none = || ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoChallenge, "no such challenge of yours");
    let row = app.store.challenge(&id).await.map_err(internal)?.ok_or_else(none)?;
    let status = match answer.as_str() {
        "accept" if row.to == g.id => ChallengeStatus::Accepted,
        "decline" if row.to == g.id => ChallengeStatus::Declined,
        "withdraw" if row.from == g.id => ChallengeStatus::Withdrawn,
        "accept" | "decline" | "withdraw" => return Err(none()),
        other => {
            let shown: String = other.chars().take(20).collect();
            return Err(ApiError::bad(format!("no answer {shown:?}: accept, decline or withdraw")));
        }
    };
    if row.status != "pending" {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::BadRequest,
            format!("this challenge is {} already", row.status),
        ));
    }
    let table = match status {
        ChallengeStatus::Accepted => Some(make_table(&app, &row, &g).await?),
        _ => None,
    };
    let now = crate::ids::now_ms();
    let done =
        app.store.answer_challenge(&id, status.name(), table.as_deref(), now).await.map_err(internal)?;
    if !done {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            ApiCode::BadRequest,
            "this challenge was answered already",
        ));
    }
    let row = app.store.challenge(&id).await.map_err(internal)?.ok_or_else(none)?;
    // The other one hears of it: the sender of an answer, the recipient of a withdrawal.
    let other = if row.to == g.id { &row.from } else { &row.to };
    tell_challenge(&app, &row, other).await;
    ok_json(StatusCode::OK, challenge_of(&app, &row, &g.id).await?)
}

/// Makes the table of an accepted challenge: the game's defaults (`POST /api/tables` without
/// options), hosted by the challenger in seat 0, seat 2 kept for `friend`, bots in seats 1 and 3.
async fn make_table(app: &App, row: &ChallengeRow, friend: &GuestRow) -> Result<String, ApiError> {
    let from = app
        .store
        .guest(&row.from)
        .await
        .map_err(internal)?
        .ok_or_else(|| ApiError::internal("no challenger"))?;
    let game = if row.game == "dabaifen" { "dabaifen" } else { "madiao" };
    let req: NewTable = serde_json::from_value(serde_json::json!({ "game": game }))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let settings = table::settings::TableSettings {
        name: format!("{} – {}", from.name, friend.name).chars().take(60).collect(),
        game: req.game,
        rules: req.rules.clone(),
        variants: req.variants.clone(),
        stake: req.stake,
        stake_max: req.stake_max.filter(|_| req.game == GameKind::Madiao),
        turn_seconds: req.turn_seconds,
        private: true,
        pace: req.pace,
        grace_seconds: req.grace_seconds,
        untimed: req.untimed(),
        bank_seconds: req.bank(),
        zero_cash: req.zero_cash,
        rated: false,
        board: None,
        no_aids: false,
    };
    crate::tables::check_settings(&settings).map_err(|e| ApiError::from(wire::Refusal::from(e)))?;
    let bot = table::bots::default_bot_of(req.game).to_string();
    let seats = [
        SeatRow::Person { guest: from.id.clone(), name: from.name.clone() },
        SeatRow::Bot(bot.clone()),
        SeatRow::Open,
        SeatRow::Bot(bot),
    ];
    let (id, handle) = app.tables.create(&settings, &from.id, seats, None).await.map_err(|e| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            ApiCode::TooManyTables,
            format!("the challenger's table: {e}"),
        )
    })?;
    let guest = table::settings::Guest { id: friend.id.clone(), name: friend.name.clone() };
    let _ = handle
        .send(crate::tables::Cmd::Request(table::machine::Request::Invite {
            guests: [None, None, Some(guest), None],
        }))
        .await;
    Ok(id)
}
