//! The SQL both backends run, written once. A statement is written in PostgreSQL's form, with
//! numbered placeholders `$1`, `$2`, …; SQLite's form (`?1`, `?2`, …, the same numbers) is made
//! from it when the server is compiled (the `sql!` macro). Only what really
//! differs stays in a backend: PostgreSQL's leases, arrays and multi-row inserts, SQLite's
//! statements run once per row.
//!
//! Where the two dialects spell a thing differently the shared text uses the spelling both
//! accept: `CAST(x AS BIGINT)` rather than `x::bigint`, `IS DISTINCT FROM`, an upsert's
//! `WHERE` rather than `MAX`/`GREATEST`.

/// One statement in both backends' forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sql {
    /// PostgreSQL's form (`$N` placeholders).
    pub pg: &'static str,
    /// SQLite's form (`?N` placeholders).
    pub sqlite: &'static str,
}

impl Sql {
    /// A statement from its PostgreSQL text and its SQLite text as bytes (made by
    /// [`sqlite_placeholders`], so valid UTF-8 when the PostgreSQL text is).
    pub(crate) const fn new(pg: &'static str, sqlite: &'static [u8]) -> Sql {
        match core::str::from_utf8(sqlite) {
            Ok(sqlite) => Sql { pg, sqlite },
            Err(_) => panic!("a shared SQL statement is not UTF-8"),
        }
    }
}

/// `pg` with each `$` that begins a placeholder (a `$` followed by a digit) replaced by `?`:
/// SQLite's numbered placeholder of the same number. `N` is `pg`'s length in bytes.
pub(crate) const fn sqlite_placeholders<const N: usize>(pg: &str) -> [u8; N] {
    let b = pg.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = if b[i] == b'$' && i + 1 < N && b[i + 1].is_ascii_digit() { b'?' } else { b[i] };
        i += 1;
    }
    out
}

/// Defines constants of type [`Sql`] from PostgreSQL texts: `sql! { NAME = "…"; … }`, each with
/// its doc comment.
macro_rules! sql {
    ($($(#[$doc:meta])* $vis:vis $name:ident = $text:expr;)+) => {$(
        $(#[$doc])*
        $vis const $name: $crate::store::sql::Sql = {
            const PG: &str = $text;
            const SQLITE: [u8; PG.len()] = $crate::store::sql::sqlite_placeholders(PG);
            $crate::store::sql::Sql::new(PG, &SQLITE)
        };
    )+};
}
pub(crate) use sql;

/// The columns of a table row, in the order the backends read them.
macro_rules! table_cols {
    () => {
        "id, game, settings, seed, host, status, created_ms"
    };
}

/// The columns of a rating, in the order the backends read them (`r.` prefixed in the
/// leaderboard, which joins accounts).
macro_rules! rating_cols {
    () => {
        "guest_id, game, rating, deviation, volatility, games, wins, losses, draws, updated_ms"
    };
}

/// The columns of a rating history row, in the order the backends read them.
macro_rules! history_cols {
    () => {
        "guest_id, game, table_id, at_ms, rating_before, deviation_before, volatility_before, \
         rating_after, deviation_after, volatility_after, score, opponents, forfeited"
    };
}

/// The archive query (`$1` from, `$2` to, `$3`/`$4` after this end time and id, `$5` the player
/// pattern, `$6` the limit), with `$record` as its last column.
macro_rules! archive_query {
    ($record:literal) => {
        concat!(
            "SELECT a.table_id, a.game, a.name, a.finished_ms, a.players, ",
            $record,
            " FROM archive a JOIN tables t ON t.id = a.table_id \
             WHERE (CAST($1 AS BIGINT) IS NULL OR a.finished_ms >= $1) \
             AND (CAST($2 AS BIGINT) IS NULL OR a.finished_ms < $2) \
             AND (CAST($3 AS BIGINT) IS NULL OR a.finished_ms < $3 \
                  OR (a.finished_ms = $3 AND a.table_id < CAST($4 AS TEXT))) \
             AND (CAST($5 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM archive_players p \
                  WHERE p.table_id = a.table_id AND p.name LIKE $5 ESCAPE '\\')) \
             ORDER BY a.finished_ms DESC, a.table_id DESC LIMIT $6"
        )
    };
}

// The table log (`TableLog`).
sql! {
    /// Stores a table's row.
    pub(crate) INSERT_TABLE = "INSERT INTO tables (id, game, settings, seed, host, status, created_ms) \
        VALUES ($1, $2, $3, $4, $5, $6, $7)";
    /// Stores one of a table's seats.
    pub(crate) INSERT_SEAT =
        "INSERT INTO seats (table_id, seat, kind, bot, guest_id, name) VALUES ($1, $2, $3, $4, $5, $6)";
    /// A row (`1`) when the table (`$1`) is stored.
    pub(crate) TABLE_EXISTS = "SELECT 1 FROM tables WHERE id = $1";
    /// One table's row (`$1` its id).
    pub(crate) TABLE = concat!("SELECT ", table_cols!(), " FROM tables WHERE id = $1");
    /// The rows of the tables not finished, oldest first.
    pub(crate) UNFINISHED_TABLES = concat!(
        "SELECT ", table_cols!(), " FROM tables WHERE status NOT IN ('finished', 'closed') ORDER BY created_ms, id"
    );
    /// A guest's tables, hosted or seated at (`$1` the guest, `$2` the limit), newest first.
    pub(crate) TABLES_OF_GUEST = concat!(
        "SELECT ", table_cols!(), " FROM tables WHERE host = $1 \
         OR id IN (SELECT table_id FROM seats WHERE guest_id = $1) \
         ORDER BY created_ms DESC, id DESC LIMIT $2"
    );
    /// A table's four seats.
    pub(crate) SEATS = "SELECT seat, kind, bot, guest_id, name FROM seats WHERE table_id = $1 ORDER BY seat";
    /// Changes who holds a seat (`$1` table, `$2` seat, then kind, bot, guest, name).
    pub(crate) UPDATE_SEAT =
        "UPDATE seats SET kind = $3, bot = $4, guest_id = $5, name = $6 WHERE table_id = $1 AND seat = $2";
    /// Changes the status of a table that is not over.
    pub(crate) UPDATE_STATUS =
        "UPDATE tables SET status = $2 WHERE id = $1 AND status NOT IN ('finished', 'closed')";
    /// A table's action log, in order.
    pub(crate) ACTIONS = "SELECT seq, hand, seat, action FROM actions WHERE table_id = $1 ORDER BY seq";
    /// A table's last `$2` chat lines, newest first.
    pub(crate) RECENT_CHAT = "SELECT seq, at_ms, guest_id, name, seat, text FROM chat WHERE table_id = $1 \
        ORDER BY seq DESC LIMIT $2";
    /// Marks a table finished with its record (`$2`), answering its game and settings.
    pub(crate) FINISH =
        "UPDATE tables SET status = 'finished', record = $2 WHERE id = $1 RETURNING game, settings";
    /// Stores a finished table's archive entry, once.
    pub(crate) INSERT_ARCHIVE = "INSERT INTO archive (table_id, game, name, finished_ms, players) \
        VALUES ($1, $2, $3, $4, $5) ON CONFLICT (table_id) DO NOTHING";
    /// The record of a finished table.
    pub(crate) RECORD = "SELECT record FROM tables WHERE id = $1 AND status = 'finished'";
    /// How many unfinished tables a guest hosts.
    pub(crate) HOSTED_TABLES =
        "SELECT COUNT(*) FROM tables WHERE host = $1 AND status NOT IN ('finished', 'closed')";
}

// Identities and sessions (`Identities`).
sql! {
    /// Stores a guest.
    pub(crate) INSERT_GUEST = "INSERT INTO guests (id, name, token_hash, created_ms) VALUES ($1, $2, $3, $4)";
    /// One guest, by id.
    pub(crate) GUEST_BY_ID = "SELECT id, name, token_hash, created_ms FROM guests WHERE id = $1";
    /// One guest, by the hash of its token.
    pub(crate) GUEST_BY_TOKEN_HASH = "SELECT id, name, token_hash, created_ms FROM guests WHERE token_hash = $1";
    /// Stores an account.
    pub(crate) INSERT_ACCOUNT = "INSERT INTO accounts (guest_id, username, username_key, password_hash, \
        created_ms) VALUES ($1, $2, $3, $4, $5)";
    /// Retires the token of a guest that claimed an account.
    pub(crate) RETIRE_GUEST_TOKEN = "UPDATE guests SET token_hash = 'claimed:' || token_hash WHERE id = $1";
    /// One account, by its guest.
    pub(crate) ACCOUNT_BY_GUEST = "SELECT guest_id, username, username_key, password_hash, created_ms \
        FROM accounts WHERE guest_id = $1";
    /// One account, by its username key.
    pub(crate) ACCOUNT_BY_USERNAME = "SELECT guest_id, username, username_key, password_hash, created_ms \
        FROM accounts WHERE username_key = $1";
    /// Changes an account's password hash.
    pub(crate) SET_PASSWORD = "UPDATE accounts SET password_hash = $2 WHERE guest_id = $1";
    /// Stores a session.
    pub(crate) INSERT_SESSION = "INSERT INTO sessions (token_hash, guest_id, created_ms, expires_ms, revoked_ms) \
        VALUES ($1, $2, $3, $4, $5)";
    /// One session, by the hash of its token.
    pub(crate) SESSION_BY_TOKEN_HASH = "SELECT token_hash, guest_id, created_ms, expires_ms, revoked_ms \
        FROM sessions WHERE token_hash = $1";
    /// Deletes a guest's sessions revoked or expired before `$2`.
    pub(crate) DELETE_OLD_SESSIONS =
        "DELETE FROM sessions WHERE guest_id = $1 AND (revoked_ms < $2 OR expires_ms < $2)";
    /// Revokes at `$3` a guest's sessions but the one whose token hash is `$2` (if any).
    pub(crate) REVOKE_SESSIONS = "UPDATE sessions SET revoked_ms = $3 WHERE guest_id = $1 AND revoked_ms IS NULL \
        AND token_hash IS DISTINCT FROM $2";
    /// Revokes one session at `$2`.
    pub(crate) REVOKE_SESSION =
        "UPDATE sessions SET revoked_ms = $2 WHERE token_hash = $1 AND revoked_ms IS NULL";
    /// Makes the key of the address hashes (`$1`) unless there is one.
    pub(crate) INSERT_ADDRESS_SECRET =
        "INSERT INTO server_secrets (name, value) VALUES ('address', $1) ON CONFLICT (name) DO NOTHING";
    /// The key of the address hashes.
    pub(crate) ADDRESS_SECRET = "SELECT value FROM server_secrets WHERE name = 'address'";
    /// Notes that a guest was seen at an address (its hash `$2`) at `$3`, keeping the latest time.
    pub(crate) NOTE_ADDRESS = "INSERT INTO account_addresses (guest_id, address_hash, seen_ms) \
        VALUES ($1, $2, $3) ON CONFLICT (guest_id, address_hash) DO UPDATE SET seen_ms = excluded.seen_ms \
        WHERE excluded.seen_ms > account_addresses.seen_ms";
    /// Drops a guest's address hashes seen before `$2` and all but its newest `$3`.
    pub(crate) TRIM_ADDRESSES = "DELETE FROM account_addresses WHERE guest_id = $1 AND (seen_ms < $2 \
        OR address_hash NOT IN (SELECT address_hash FROM account_addresses WHERE guest_id = $1 \
        ORDER BY seen_ms DESC, address_hash LIMIT $3))";
    /// A guest's address hashes, newest first.
    pub(crate) ADDRESS_HASHES =
        "SELECT address_hash FROM account_addresses WHERE guest_id = $1 ORDER BY seen_ms DESC, address_hash";
}

// Deleting an account (`Identities::delete_account`), in the order it runs.
sql! {
    /// The account's username.
    pub(crate) USERNAME_OF = "SELECT username FROM accounts WHERE guest_id = $1";
    /// The guest's name.
    pub(crate) GUEST_NAME_OF = "SELECT name FROM guests WHERE id = $1";
    /// Deletes the account (none deleted: nothing more is done).
    pub(crate) DELETE_ACCOUNT = "DELETE FROM accounts WHERE guest_id = $1";
    /// The reports whose reason or quoted line holds a name (`$1`), in any case.
    pub(crate) REPORTS_NAMING = "SELECT id, reason, chat_text FROM mod_reports WHERE LOWER(reason) LIKE \
        '%' || LOWER(CAST($1 AS TEXT)) || '%' OR LOWER(COALESCE(chat_text, '')) LIKE '%' || LOWER(CAST($1 AS TEXT)) || '%'";
    /// Rewrites a report's reason and quoted line.
    pub(crate) UPDATE_REPORT_TEXT = "UPDATE mod_reports SET reason = $2, chat_text = $3 WHERE id = $1";
    /// Renames the guest (`$2`) and retires its token.
    pub(crate) FORGET_GUEST = "UPDATE guests SET name = $2, token_hash = 'deleted:' || id WHERE id = $1";
    /// The guest's seats at tables with a record, by table and seat.
    pub(crate) SEATS_WITH_RECORDS = "SELECT s.table_id, s.seat, t.record FROM seats s JOIN tables t \
        ON t.id = s.table_id WHERE s.guest_id = $1 AND t.record IS NOT NULL ORDER BY s.table_id, s.seat";
    /// Replaces a table's record.
    pub(crate) UPDATE_RECORD = "UPDATE tables SET record = $2 WHERE id = $1";
    /// Replaces an archived game's players.
    pub(crate) UPDATE_ARCHIVE_PLAYERS = "UPDATE archive SET players = $2 WHERE table_id = $1";
    /// Drops an archived game's name index.
    pub(crate) DELETE_ARCHIVE_INDEX = "DELETE FROM archive_players WHERE table_id = $1";
    /// Renames the guest's seats.
    pub(crate) RENAME_SEATS = "UPDATE seats SET name = $2 WHERE guest_id = $1";
    /// Renames the guest's chat lines.
    pub(crate) RENAME_CHAT = "UPDATE chat SET name = $2 WHERE guest_id = $1";
    /// The tables the guest created, with their settings.
    pub(crate) HOSTED_SETTINGS = "SELECT id, settings FROM tables WHERE host = $1";
    /// Replaces a table's settings.
    pub(crate) UPDATE_SETTINGS = "UPDATE tables SET settings = $2 WHERE id = $1";
    /// Renames an archived game.
    pub(crate) UPDATE_ARCHIVE_NAME = "UPDATE archive SET name = $2 WHERE table_id = $1";
}

/// What an account's deletion deletes once the account is gone (`$1` its guest): its sessions,
/// ratings, rating history and address hashes, and its mutes and blocks both ways.
pub(crate) const DELETE_ACCOUNT_ROWS: [Sql; 6] =
    [DELETE_SESSIONS, DELETE_RATINGS, DELETE_HISTORY, DELETE_ADDRESSES, DELETE_MUTES, DELETE_BLOCKS];

sql! {
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_SESSIONS = "DELETE FROM sessions WHERE guest_id = $1";
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_RATINGS = "DELETE FROM ratings WHERE guest_id = $1";
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_HISTORY = "DELETE FROM rating_history WHERE guest_id = $1";
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_ADDRESSES = "DELETE FROM account_addresses WHERE guest_id = $1";
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_MUTES = "DELETE FROM mod_mutes WHERE guest_id = $1 OR target_id = $1";
    /// See [`DELETE_ACCOUNT_ROWS`].
    DELETE_BLOCKS = "DELETE FROM mod_blocks WHERE guest_id = $1 OR target_id = $1";
}

// The archive and the ratings (`Archive`, and a rated match's writes).
sql! {
    /// The archived games a query selects (see the `archive_query!` macro), without their records.
    pub(crate) ARCHIVED_GAMES = archive_query!("CAST(NULL AS TEXT)");
    /// The archived games a query selects, with their records.
    pub(crate) ARCHIVED_RECORDS = archive_query!("t.record");
    /// A guest's ratings, by game.
    pub(crate) RATINGS_OF = concat!("SELECT ", rating_cols!(), " FROM ratings WHERE guest_id = $1 ORDER BY game");
    /// How many accounts are rated in a game.
    pub(crate) LEADERBOARD_SIZE = "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.guest_id = r.guest_id \
        WHERE r.game = $1 AND r.games > 0";
    /// The accounts rated in a game, best first (`$2` the limit, `$3` the offset), each with its
    /// username first.
    pub(crate) LEADERBOARD = "SELECT a.username, r.guest_id, r.game, r.rating, r.deviation, r.volatility, \
        r.games, r.wins, r.losses, r.draws, r.updated_ms FROM ratings r JOIN accounts a ON a.guest_id = r.guest_id \
        WHERE r.game = $1 AND r.games > 0 ORDER BY r.rating DESC, r.games ASC, a.username_key ASC LIMIT $2 OFFSET $3";
    /// A guest's latest `$2` rated matches, newest first.
    pub(crate) RATING_HISTORY = concat!(
        "SELECT ", history_cols!(), " FROM rating_history WHERE guest_id = $1 \
         ORDER BY at_ms DESC, table_id DESC LIMIT $2"
    );
    /// How many history rows a table's match has (more than none: rated already).
    pub(crate) RATED_ROWS = "SELECT COUNT(*) FROM rating_history WHERE table_id = $1";
    /// A guest's rating in one game (`$2`).
    pub(crate) RATING = concat!("SELECT ", rating_cols!(), " FROM ratings WHERE guest_id = $1 AND game = $2");
    /// How many rated matches two accounts (`$1`, `$2`) played together since `$3`.
    pub(crate) PAIR_MATCHES = "SELECT COUNT(DISTINCT x.table_id) FROM rating_history x JOIN rating_history y \
        ON y.table_id = x.table_id WHERE x.guest_id = $1 AND y.guest_id = $2 AND x.at_ms >= $3";
    /// How many addresses two accounts (`$1`, `$2`) were both seen at since `$3`.
    pub(crate) PAIR_ADDRESSES = "SELECT COUNT(*) FROM account_addresses x JOIN account_addresses y \
        ON y.address_hash = x.address_hash WHERE x.guest_id = $1 AND y.guest_id = $2 \
        AND x.seen_ms >= $3 AND y.seen_ms >= $3";
    /// Stores an account's rating in a game, replacing the one before.
    pub(crate) PUT_RATING = concat!(
        "INSERT INTO ratings (", rating_cols!(), ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (guest_id, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, \
         losses = excluded.losses, draws = excluded.draws, updated_ms = excluded.updated_ms"
    );
    /// Stores an account's row of a rated match.
    pub(crate) INSERT_HISTORY = concat!(
        "INSERT INTO rating_history (", history_cols!(), ") \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
    );
}

// Analyses (`AnalysisStore`).
sql! {
    /// Stores an analysis, replacing one under the same key.
    pub(crate) PUT_ANALYSIS = "INSERT INTO analyses (table_id, hand, seat, seed, think_ms, analysis, created_ms) \
        VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (table_id, hand, seat, seed, think_ms) \
        DO UPDATE SET analysis = excluded.analysis, created_ms = excluded.created_ms";
    /// The analysis stored under a key.
    pub(crate) ANALYSIS = "SELECT analysis FROM analyses WHERE table_id = $1 AND hand = $2 AND seat = $3 \
        AND seed = $4 AND think_ms = $5";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_form_numbers_placeholders_alike() {
        assert_eq!(UPDATE_SEAT.sqlite, UPDATE_SEAT.pg.replace('$', "?"));
        assert!(UPDATE_SEAT.sqlite.contains("kind = ?3") && UPDATE_SEAT.sqlite.contains("table_id = ?1"));
        // A `$` that begins no placeholder stays.
        const TEXT: &str = "SELECT '$x', $12";
        const OUT: [u8; TEXT.len()] = sqlite_placeholders(TEXT);
        assert_eq!(std::str::from_utf8(&OUT), Ok("SELECT '$x', ?12"));
    }
}
