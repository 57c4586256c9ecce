//! Ratings of accounts (`docs/ratings.md`): the bots' fixed ratings, how a rated match that
//! ended updates its players' stored ratings ([`settle`], which every store runs in the same
//! transaction as the table's finish), and the API: a leaderboard per game, a player's
//! profile, and the rating changes of one finished rated match.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use cards::record::GameKind;
use rating::{Config, Entrant, Rating, rate_match};
use table::log::SeatRow;
use table::protocol::{
    ApiCode, GameRating, LEADERBOARD_PAGE_MAX, LeaderboardEntry, LeaderboardReply, PROFILE_HISTORY,
    PROFILE_RECENT, PlayerProfile, RatedOutcome, RatedResult, RatingChange, TableRatings,
};
use table::rated::{RatedMatch, RatedPlayer};

use crate::App;
use crate::http::{ApiError, ApiResult, ok_json};

/// The bots' fixed ratings, measured by `yezi calibrate` (the table in `docs/ratings.md`).
pub const BOT_RATINGS: &[(GameKind, &str, f64)] = &[
    (GameKind::Madiao, "random", 250.0),
    (GameKind::Madiao, "heuristic", 1500.0),
    (GameKind::Madiao, "pimc", 1521.0),
    (GameKind::Madiao, "expert", 1545.0),
    (GameKind::Dabaifen, "random", 1213.0),
    (GameKind::Dabaifen, "heuristic", 1500.0),
    (GameKind::Dabaifen, "pimc", 1639.0),
    (GameKind::Dabaifen, "expert", 1650.0),
];

/// The deviation a bot's fixed rating is taken with: small, its rating is well measured.
pub const BOT_DEVIATION: f64 = 50.0;

/// A rating whose deviation is above this is provisional (shown as such).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A bot's fixed rating in `game` (`None` for a bot not calibrated: it is left out of the
/// rating, like an open seat).
pub fn bot_rating(game: GameKind, bot: &str) -> Option<Rating> {
    BOT_RATINGS.iter().find(|(g, b, _)| *g == game && *b == bot).map(|&(_, _, rating)| Rating {
        rating,
        deviation: BOT_DEVIATION,
        volatility: Config::default().volatility,
    })
}

/// An account's stored rating in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The account's guest.
    pub guest: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated matches played, won, lost and drawn.
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// When it last changed, milliseconds since the Unix epoch.
    pub updated_ms: i64,
}

/// One rated match of an account: its rating before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    pub guest: String,
    pub game: String,
    /// The table the match was played at.
    pub table: String,
    /// When it ended, milliseconds since the Unix epoch.
    pub at_ms: i64,
    pub before: Rating,
    pub after: Rating,
    /// The points of its games, and how many games (opponents) it had.
    pub score: f64,
    pub opponents: u32,
    /// The account forfeited.
    pub forfeited: bool,
}

impl HistoryRow {
    /// Won, drawn or lost: more, exactly or less than half the points.
    pub fn outcome(&self) -> RatedOutcome {
        let half = f64::from(self.opponents) / 2.0;
        if self.score > half {
            RatedOutcome::Win
        } else if self.score < half {
            RatedOutcome::Loss
        } else {
            RatedOutcome::Draw
        }
    }
}

/// A rating as stored, or a new account's.
pub fn rating_of(row: Option<&RatingRow>) -> Rating {
    match row {
        Some(r) => Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility },
        None => Rating::new(&Config::default()),
    }
}

/// The game's name as the store keeps it.
pub fn game_name(game: GameKind) -> &'static str {
    game.name()
}

/// The accounts of a rated match: the guests of its person seats.
pub fn persons(m: &RatedMatch) -> Vec<String> {
    m.seats
        .iter()
        .filter_map(|s| match &s.player {
            RatedPlayer::Person { guest, .. } => Some(guest.clone()),
            RatedPlayer::Bot(_) => None,
        })
        .collect()
}

/// The new ratings of a rated match's accounts and their history rows, from their stored ratings:
/// `accounts` holds every person of the match that has an account (with its stored rating, if it
/// has one in this game); a person without an account (deleted during the match) is left out, as
/// is a bot without a calibrated rating. Bots play under [`bot_rating`] and never change.
pub fn settle(
    table: &str,
    m: &RatedMatch,
    accounts: &HashMap<String, Option<RatingRow>>,
    at_ms: i64,
) -> Result<Vec<(RatingRow, HistoryRow)>, rating::RatingError> {
    let game = game_name(m.game).to_string();
    let mut entrants = Vec::new();
    // For each entrant, the account it is (`None`: a bot).
    let mut whose: Vec<Option<&String>> = Vec::new();
    for s in &m.seats {
        let (rating, fixed, guest) = match &s.player {
            RatedPlayer::Person { guest, .. } => match accounts.get(guest) {
                Some(row) => (rating_of(row.as_ref()), false, Some(guest)),
                None => continue,
            },
            RatedPlayer::Bot(b) => match bot_rating(m.game, b) {
                Some(r) => (r, true, None),
                None => continue,
            },
        };
        entrants.push(Entrant { rating, fixed, side: s.side, result: s.result, forfeited: s.forfeited });
        whose.push(guest);
    }
    let after = rate_match(&entrants, &Config::default())?;
    let mut out = Vec::new();
    for (i, guest) in whose.iter().enumerate() {
        let Some(guest) = guest else { continue };
        let me = &entrants[i];
        let (score, opponents) = entrants
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .filter_map(|(_, them)| rating::matches::score(me, them))
            .fold((0.0, 0u32), |(s, n), x| (s + x, n + 1));
        let history = HistoryRow {
            guest: (*guest).clone(),
            game: game.clone(),
            table: table.to_string(),
            at_ms,
            before: me.rating,
            after: after[i],
            score,
            opponents,
            forfeited: me.forfeited,
        };
        let old = accounts.get(*guest).cloned().flatten();
        let (mut wins, mut losses, mut draws, games) =
            old.as_ref().map_or((0, 0, 0, 0), |o| (o.wins, o.losses, o.draws, o.games));
        match history.outcome() {
            RatedOutcome::Win => wins += 1,
            RatedOutcome::Loss => losses += 1,
            RatedOutcome::Draw => draws += 1,
        }
        let row = RatingRow {
            guest: (*guest).clone(),
            game: game.clone(),
            rating: after[i].rating,
            deviation: after[i].deviation,
            volatility: after[i].volatility,
            games: games + 1,
            wins,
            losses,
            draws,
            updated_ms: at_ms,
        };
        out.push((row, history));
    }
    Ok(out)
}

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
];

/// The refusal of a seat at a rated table (or of creating one) to a guest without an account.
pub fn account_required() -> table::protocol::Refusal {
    table::protocol::Refusal::new(
        table::protocol::ErrorCode::AccountRequired,
        "only a guest with an account may play at a rated table: claim one (POST /api/account) or sign in",
    )
}

/// Whether `guest` has an account.
pub async fn has_account(app: &App, guest: &str) -> Result<bool, crate::store::StoreError> {
    Ok(app.store.account_by_guest(guest).await?.is_some())
}

/// Checks a rated table's creation: its host has an account, and a person's seat is in it (a
/// rated table of four bots would rate nobody).
pub(crate) async fn check_rated(
    app: &App,
    host: &str,
    seats: Option<&[table::protocol::SeatChoice]>,
) -> Result<(), ApiError> {
    if !has_account(app, host).await.map_err(internal)? {
        return Err(account_required().into());
    }
    use table::protocol::SeatChoice;
    if let Some(seats) = seats
        && !seats.iter().any(|s| matches!(s, SeatChoice::Me | SeatChoice::Open))
    {
        return Err(ApiError::bad("seats: a rated table needs a seat for a person (me or open)"));
    }
    Ok(())
}

/// The ratings routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/ratings/{game}", get(leaderboard))
        .route("/api/players/{name}", get(profile))
        .route("/api/tables/{id}/ratings", get(table_ratings))
}

/// How far back in a person's rated matches [`table_ratings`] looks for the table's (it is asked
/// for when the match has just ended: its row is the newest).
const TABLE_RATINGS_LOOKBACK: u32 = 50;

/// `GET /api/tables/{id}/ratings`: each person's rating change in the table's rated match (none
/// while it is not over, or for a casual table).
async fn table_ratings(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult {
    let Some(row) = app.store.table(&id).await.map_err(internal)? else {
        let shown: String = id.chars().take(40).collect();
        return Err(ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoTable, format!("no table {shown:?}")));
    };
    let mut changes = Vec::new();
    for (seat, s) in row.seats.iter().enumerate() {
        let SeatRow::Person { guest, name } = s else { continue };
        let history = app.store.rating_history(guest, TABLE_RATINGS_LOOKBACK).await.map_err(internal)?;
        if let Some(h) = history.iter().find(|h| h.table == row.id) {
            changes.push(RatingChange {
                seat: seat as u8,
                name: name.clone(),
                rating_before: h.before.rating,
                rating_after: h.after.rating,
                outcome: h.outcome(),
                forfeited: h.forfeited,
            });
        }
    }
    ok_json(StatusCode::OK, TableRatings { table: row.id, changes })
}

/// The leaderboard's page size when none is asked for.
pub const LEADERBOARD_PAGE: u32 = 50;

fn game_of(name: &str) -> Result<GameKind, ApiError> {
    match name {
        "madiao" => Ok(GameKind::Madiao),
        "dabaifen" => Ok(GameKind::Dabaifen),
        other => {
            let shown: String = other.chars().take(40).collect();
            Err(ApiError::new(
                StatusCode::NOT_FOUND,
                ApiCode::BadRequest,
                format!("no game {shown:?}: the games are madiao and dabaifen"),
            ))
        }
    }
}

fn number(q: &HashMap<String, String>, key: &str) -> Result<Option<u32>, ApiError> {
    q.get(key)
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| ApiError::bad(format!("{key} must be a whole number from 0, not {v:?}")))
        })
        .transpose()
}

fn internal(e: crate::store::StoreError) -> ApiError {
    ApiError::internal(e.to_string())
}

/// `GET /api/ratings/{game}?offset=&limit=`.
async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult {
    let game = game_of(&game)?;
    let offset = number(&q, "offset")?.unwrap_or(0);
    let limit = number(&q, "limit")?.unwrap_or(LEADERBOARD_PAGE);
    if !(1..=LEADERBOARD_PAGE_MAX).contains(&limit) {
        return Err(ApiError::bad(format!("limit must be 1 to {LEADERBOARD_PAGE_MAX}, not {limit}")));
    }
    let (rows, total) = app.store.leaderboard(game_name(game), offset, limit).await.map_err(internal)?;
    let entries = rows
        .into_iter()
        .enumerate()
        .map(|(i, (username, r))| LeaderboardEntry {
            rank: offset + i as u32 + 1,
            username,
            rating: r.rating,
            deviation: r.deviation,
            games: r.games,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        })
        .collect();
    let end = offset.saturating_add(limit).min(total);
    ok_json(
        StatusCode::OK,
        LeaderboardReply { game, entries, total, offset, limit, next: (end < total).then_some(end) },
    )
}

fn result_of(h: &HistoryRow) -> Option<RatedResult> {
    Some(RatedResult {
        table: h.table.clone(),
        game: match h.game.as_str() {
            "madiao" => GameKind::Madiao,
            "dabaifen" => GameKind::Dabaifen,
            _ => return None,
        },
        at_ms: h.at_ms,
        rating_before: h.before.rating,
        rating_after: h.after.rating,
        deviation_after: h.after.deviation,
        score: h.score,
        opponents: h.opponents,
        outcome: h.outcome(),
        forfeited: h.forfeited,
    })
}

/// `GET /api/players/{name}`: the account of that username (in any case).
async fn profile(State(app): State<Arc<App>>, Path(name): Path<String>) -> ApiResult {
    let no_player = || {
        let shown: String = name.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, ApiCode::NoPlayer, format!("no account {shown:?}"))
    };
    let key = crate::accounts::username_key(&name).map_err(|_| no_player())?;
    let account = app.store.account_by_username(&key).await.map_err(internal)?.ok_or_else(no_player)?;
    let ratings = app
        .store
        .ratings_of(&account.guest)
        .await
        .map_err(internal)?
        .into_iter()
        .filter_map(|r| {
            Some(GameRating {
                game: game_of(&r.game).ok()?,
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games,
                wins: r.wins,
                losses: r.losses,
                draws: r.draws,
                provisional: r.deviation > PROVISIONAL_DEVIATION,
            })
        })
        .collect();
    let newest_first: Vec<RatedResult> = app
        .store
        .rating_history(&account.guest, PROFILE_HISTORY)
        .await
        .map_err(internal)?
        .iter()
        .filter_map(result_of)
        .collect();
    let recent = newest_first.iter().take(PROFILE_RECENT).cloned().collect();
    let mut history = newest_first;
    history.reverse();
    ok_json(
        StatusCode::OK,
        PlayerProfile { username: account.username, joined_ms: account.created_ms, ratings, recent, history },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use table::rated::RatedSeat;

    fn seat(i: u8, player: RatedPlayer, result: f64, forfeited: bool) -> RatedSeat {
        RatedSeat { seat: i, player, side: None, result, forfeited }
    }

    fn person(g: &str) -> RatedPlayer {
        RatedPlayer::Person { guest: g.into(), name: g.into() }
    }

    #[test]
    fn the_bots_ratings_are_the_calibrated_ones() {
        assert_eq!(bot_rating(GameKind::Madiao, "random").unwrap().rating, 250.0);
        assert_eq!(bot_rating(GameKind::Dabaifen, "pimc").unwrap().rating, 1639.0);
        assert_eq!(bot_rating(GameKind::Dabaifen, "expert").unwrap().rating, 1650.0);
        assert_eq!(bot_rating(GameKind::Madiao, "heuristic").unwrap().deviation, BOT_DEVIATION);
        assert!(bot_rating(GameKind::Madiao, "someone").is_none());
        // docs/ratings.md's table says the same.
        let doc = include_str!("../../../docs/ratings.md");
        for bot in ["random", "heuristic", "pimc", "expert"] {
            let m = bot_rating(GameKind::Madiao, bot).unwrap().rating;
            let d = bot_rating(GameKind::Dabaifen, bot).unwrap().rating;
            assert!(doc.contains(&format!("| `{bot}` | {m} | {d} |")), "{bot}");
        }
    }

    #[test]
    fn every_bot_a_table_offers_is_rated_except_the_madiao_research_variants() {
        // A calibrated bot is an opponent of the match; one without a rating is left out.
        let m = |bot: &str| RatedMatch {
            game: GameKind::Madiao,
            seats: vec![
                seat(0, person("a"), 4.0, false),
                seat(1, RatedPlayer::Bot(bot.into()), 6.0, false),
                seat(2, RatedPlayer::Bot("heuristic".into()), -5.0, false),
                seat(3, RatedPlayer::Bot("pimc".into()), -5.0, false),
            ],
        };
        let accounts: HashMap<String, Option<RatingRow>> = [("a".to_string(), None)].into_iter().collect();
        let opponents = |bot: &str| settle("t", &m(bot), &accounts, 1).unwrap()[0].1.opponents;
        assert_eq!(opponents("expert"), 3, "expert is rated");
        assert_eq!(opponents("pimc-mixed"), 2, "a research variant is left out");
        for game in [GameKind::Madiao, GameKind::Dabaifen] {
            for bot in table::bots::builtin_names(game) {
                let research = table::bots::research_bots(game).contains(bot);
                assert_eq!(bot_rating(game, bot).is_some(), !research, "{game:?} {bot}");
            }
        }
    }

    #[test]
    fn a_match_settles_accounts_against_fixed_bots_and_a_forfeit_loses_to_all() {
        let m = RatedMatch {
            game: GameKind::Madiao,
            seats: vec![
                seat(0, person("a"), 10.0, true),
                seat(1, RatedPlayer::Bot("heuristic".into()), -2.0, false),
                seat(2, person("b"), 3.0, false),
                seat(3, person("gone"), 5.0, false),
            ],
        };
        let stored = RatingRow {
            guest: "b".into(),
            game: "madiao".into(),
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
            games: 4,
            wins: 2,
            losses: 1,
            draws: 1,
            updated_ms: 1,
        };
        // `gone` has no account any more: left out.
        let accounts: HashMap<String, Option<RatingRow>> =
            [("a".to_string(), None), ("b".to_string(), Some(stored))].into_iter().collect();
        let out = settle("t1", &m, &accounts, 99).unwrap();
        assert_eq!(out.len(), 2);
        let (a, ah) = &out[0];
        assert_eq!(a.guest, "a");
        assert_eq!(
            (ah.score, ah.opponents, ah.outcome()),
            (0.0, 2, RatedOutcome::Loss),
            "a forfeit loses to all"
        );
        assert_eq!(ah.before, Rating::new(&Config::default()));
        assert!(a.rating < 1500.0);
        assert_eq!((a.games, a.wins, a.losses), (1, 0, 1));
        let (b, bh) = &out[1];
        assert_eq!((bh.score, bh.opponents, bh.outcome()), (2.0, 2, RatedOutcome::Win));
        assert_eq!((b.games, b.wins, b.losses, b.draws), (5, 3, 1, 1));
        // The same as the rating crate computes for these three entrants.
        let e = |rating, fixed, result, forfeited| Entrant { rating, fixed, side: None, result, forfeited };
        let expected = rate_match(
            &[
                e(Rating::new(&Config::default()), false, 10.0, true),
                e(bot_rating(GameKind::Madiao, "heuristic").unwrap(), true, -2.0, false),
                e(Rating { rating: 1600.0, deviation: 80.0, volatility: 0.06 }, false, 3.0, false),
            ],
            &Config::default(),
        )
        .unwrap();
        assert_eq!(a.rating, expected[0].rating);
        assert_eq!(b.rating, expected[2].rating);
        assert_eq!(bh.after, expected[2]);
    }
}
