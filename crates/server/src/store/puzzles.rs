//! Puzzles' storage ([`PuzzleStore`]): each player's puzzle rating per game, each puzzle's
//! rating, and each player's attempts (the first attempt at a puzzle is the one rated, as
//! lichess does). Both backends implement it here, over the same SQL.

use async_trait::async_trait;
use rusqlite::{OptionalExtension, params};
use tokio_postgres::Client;

use super::StoreError;
use super::postgres::{PgStore, pg};
use super::sql::sql;
use super::sqlite::{SqliteStore, backend};

/// A puzzle rating: a player's or a puzzle's, in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRatingRow {
    /// Glicko-2 rating, deviation and volatility.
    pub rating: rating::glicko2::Rating,
    /// Rated attempts.
    pub attempts: u64,
    /// Of them, solved.
    pub solved: u64,
}

/// A player's attempt at a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    /// The player.
    pub guest: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// The puzzle.
    pub puzzle: String,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// Solved at the first try.
    pub solved: bool,
    /// The player's puzzle rating before and after.
    pub rating_before: f64,
    /// After.
    pub rating_after: f64,
}

/// Puzzles' storage (see the module).
#[async_trait]
pub trait PuzzleStore: Send + Sync {
    /// The puzzle rating of a player (`kind` `player`, a guest id) or of a puzzle (`kind`
    /// `puzzle`, its id) in `game`, if rated yet.
    async fn puzzle_rating(
        &self,
        kind: &str,
        game: &str,
        subject: &str,
    ) -> Result<Option<PuzzleRatingRow>, StoreError>;
    /// Records a player's first attempt at a puzzle with both new ratings, all or none; false
    /// (nothing written) when the player has already attempted it.
    async fn record_attempt(
        &self,
        attempt: &AttemptRow,
        player: &PuzzleRatingRow,
        puzzle: &PuzzleRatingRow,
    ) -> Result<bool, StoreError>;
    /// The puzzles a player has attempted in `game`, newest first (at most `limit`).
    async fn attempts(&self, guest: &str, game: &str, limit: u32) -> Result<Vec<AttemptRow>, StoreError>;
}

sql! {
    /// Stores a player's or a puzzle's rating, replacing the one before.
    UPSERT = "INSERT INTO puzzle_ratings (kind, game, subject, rating, deviation, volatility, attempts, solved, updated_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (kind, game, subject) DO UPDATE SET \
     rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
     attempts = excluded.attempts, solved = excluded.solved, updated_ms = excluded.updated_ms";
    /// Stores a player's first attempt at a puzzle (nothing when he attempted it before).
    INSERT_ATTEMPT = "INSERT INTO puzzle_attempts (guest_id, game, puzzle_id, at_ms, solved, rating_before, rating_after) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guest_id, game, puzzle_id) DO NOTHING";
    /// A player's attempts in a game, newest first (at most `$3`).
    SELECT_ATTEMPTS = "SELECT guest_id, game, puzzle_id, at_ms, solved, rating_before, rating_after \
     FROM puzzle_attempts WHERE guest_id = $1 AND game = $2 ORDER BY at_ms DESC, puzzle_id LIMIT $3";
    /// One rating (`$1` its kind, `$2` the game, `$3` the player or puzzle).
    RATING = "SELECT rating, deviation, volatility, attempts, solved FROM puzzle_ratings \
     WHERE kind = $1 AND game = $2 AND subject = $3";
}

fn row_of(rating: f64, deviation: f64, volatility: f64, attempts: i64, solved: i64) -> PuzzleRatingRow {
    PuzzleRatingRow {
        rating: rating::glicko2::Rating { rating, deviation, volatility },
        attempts: attempts.max(0) as u64,
        solved: solved.max(0) as u64,
    }
}

#[async_trait]
impl PuzzleStore for SqliteStore {
    async fn puzzle_rating(
        &self,
        kind: &str,
        game: &str,
        subject: &str,
    ) -> Result<Option<PuzzleRatingRow>, StoreError> {
        let (kind, game, subject) = (kind.to_string(), game.to_string(), subject.to_string());
        self.call(move |c| {
            c.query_row(RATING.sqlite, params![kind, game, subject], |r| {
                Ok(row_of(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .optional()
            .map_err(backend)
        })
        .await
    }

    async fn record_attempt(
        &self,
        a: &AttemptRow,
        player: &PuzzleRatingRow,
        puzzle: &PuzzleRatingRow,
    ) -> Result<bool, StoreError> {
        let (a, p, q) = (a.clone(), *player, *puzzle);
        // Each job runs in its own savepoint: an error undoes all of it.
        self.call(move |c| {
            let n = c
                .execute(
                    INSERT_ATTEMPT.sqlite,
                    params![
                        a.guest,
                        a.game,
                        a.puzzle,
                        a.at_ms,
                        i64::from(a.solved),
                        a.rating_before,
                        a.rating_after
                    ],
                )
                .map_err(backend)?;
            if n == 0 {
                return Ok(false);
            }
            for (kind, subject, r) in [("player", &a.guest, p), ("puzzle", &a.puzzle, q)] {
                c.execute(
                    UPSERT.sqlite,
                    params![
                        kind,
                        a.game,
                        subject,
                        r.rating.rating,
                        r.rating.deviation,
                        r.rating.volatility,
                        r.attempts as i64,
                        r.solved as i64,
                        a.at_ms
                    ],
                )
                .map_err(backend)?;
            }
            Ok(true)
        })
        .await
    }

    async fn attempts(&self, guest: &str, game: &str, limit: u32) -> Result<Vec<AttemptRow>, StoreError> {
        let (guest, game) = (guest.to_string(), game.to_string());
        self.call(move |c| {
            let mut st = c.prepare(SELECT_ATTEMPTS.sqlite).map_err(backend)?;
            let rows = st
                .query_map(params![guest, game, i64::from(limit)], |r| {
                    Ok(AttemptRow {
                        guest: r.get(0)?,
                        game: r.get(1)?,
                        puzzle: r.get(2)?,
                        at_ms: r.get(3)?,
                        solved: r.get::<_, i64>(4)? != 0,
                        rating_before: r.get(5)?,
                        rating_after: r.get(6)?,
                    })
                })
                .map_err(backend)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(backend)
        })
        .await
    }
}

#[async_trait]
impl PuzzleStore for PgStore {
    async fn puzzle_rating(
        &self,
        kind: &str,
        game: &str,
        subject: &str,
    ) -> Result<Option<PuzzleRatingRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let row = c.query_opt(RATING.pg, &[&kind, &game, &subject]).await.map_err(pg)?;
        Ok(row.map(|r| row_of(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))))
    }

    async fn record_attempt(
        &self,
        a: &AttemptRow,
        player: &PuzzleRatingRow,
        puzzle: &PuzzleRatingRow,
    ) -> Result<bool, StoreError> {
        let mut slot = self.client().await?;
        let c: &mut Client = &mut slot;
        let tx = c.transaction().await.map_err(pg)?;
        let solved = i64::from(a.solved);
        let n = tx
            .execute(
                INSERT_ATTEMPT.pg,
                &[&a.guest, &a.game, &a.puzzle, &a.at_ms, &solved, &a.rating_before, &a.rating_after],
            )
            .await
            .map_err(pg)?;
        if n == 0 {
            return Ok(false);
        }
        for (kind, subject, r) in [("player", &a.guest, player), ("puzzle", &a.puzzle, puzzle)] {
            let (attempts, solved) = (r.attempts as i64, r.solved as i64);
            tx.execute(
                UPSERT.pg,
                &[
                    &kind,
                    &a.game,
                    subject,
                    &r.rating.rating,
                    &r.rating.deviation,
                    &r.rating.volatility,
                    &attempts,
                    &solved,
                    &a.at_ms,
                ],
            )
            .await
            .map_err(pg)?;
        }
        tx.commit().await.map_err(pg)?;
        Ok(true)
    }

    async fn attempts(&self, guest: &str, game: &str, limit: u32) -> Result<Vec<AttemptRow>, StoreError> {
        let slot = self.client().await?;
        let c: &Client = &slot;
        let rows = c.query(SELECT_ATTEMPTS.pg, &[&guest, &game, &i64::from(limit)]).await.map_err(pg)?;
        Ok(rows
            .iter()
            .map(|r| AttemptRow {
                guest: r.get(0),
                game: r.get(1),
                puzzle: r.get(2),
                at_ms: r.get(3),
                solved: r.get::<_, i64>(4) != 0,
                rating_before: r.get(5),
                rating_after: r.get(6),
            })
            .collect())
    }
}
