//! The conformance suite every storage backend must pass, run by the tests against SQLite and
//! PostgreSQL alike. It returns the first failed check as an error rather than panicking, so a
//! test shows which backend failed and why.

use std::future::Future;
use std::sync::Arc;

use super::{
    AccountRow, ChatRow, Epoch, FIRST_EPOCH, GuestRow, Held, LoggedAction, SeatRow, SessionRow, Store,
    StoreError, TableRow, TableStatus, Write,
};

macro_rules! check {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(Failed(format!($($msg)+)));
        }
    };
}

fn ok<T>(what: &str, r: Result<T, StoreError>) -> Result<T, Failed> {
    r.map_err(|e| Failed(format!("{what}: {e}")))
}

fn unique(prefix: &str) -> String {
    crate::ids::new_id(prefix).unwrap_or_else(|_| format!("{prefix}{}", std::process::id()))
}

fn table_row(id: &str, created_ms: i64) -> TableRow {
    TableRow {
        id: id.to_string(),
        game: "madiao".into(),
        settings: r#"{"name":"conformance"}"#.into(),
        seed: u64::MAX - 5,
        host: Some("g_host".into()),
        status: TableStatus::Waiting,
        created_ms,
        seats: [
            SeatRow::Person { guest: "g_host".into(), name: "Ann 安".into() },
            SeatRow::Bot("random".into()),
            SeatRow::Open,
            SeatRow::Bot("heuristic".into()),
        ],
    }
}

fn action(seq: u64, hand: u32, seat: u8, json: &str) -> LoggedAction {
    LoggedAction { seq, hand, seat, action: json.to_string() }
}

/// The first check a backend failed: which backend, which check, and what it found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Failed(pub String);

impl From<String> for Failed {
    fn from(text: String) -> Failed {
        Failed(text)
    }
}

/// Runs every check against stores made by `open`, which must open the **same** database each time
/// it is called (the suite reopens it to check that writes persist).
pub async fn run<F, Fut>(open: F) -> Result<(), Failed>
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Arc<dyn Store>, StoreError>>,
{
    checks(open).await
}

/// Puzzle ratings and attempts: a first attempt is written with both ratings, a second one at
/// the same puzzle writes nothing, and attempts read back newest first.
async fn puzzles(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use super::puzzles::{AttemptRow, PuzzleRatingRow};
    let at = |what: &str| format!("{backend}: {what}");
    let guest = unique("pg");
    let none = ok(&at("puzzle_rating"), store.puzzle_rating("player", "madiao", &guest).await)?;
    check!(none.is_none(), "{}: a new player has a puzzle rating {none:?}", at("puzzles"));
    let r = |rating: f64, attempts: u64, solved: u64| PuzzleRatingRow {
        rating: rating::glicko2::Rating { rating, deviation: 300.5, volatility: 0.06 },
        attempts,
        solved,
    };
    let a1 = AttemptRow {
        guest: guest.clone(),
        game: "madiao".into(),
        puzzle: "m1-2-3".into(),
        at_ms: 1_000,
        solved: true,
        rating_before: 1500.0,
        rating_after: 1600.25,
    };
    let wrote =
        ok(&at("record_attempt"), store.record_attempt(&a1, &r(1600.25, 1, 1), &r(1200.5, 1, 1)).await)?;
    check!(wrote, "{}: a first attempt was not written", at("puzzles"));
    let again = AttemptRow { solved: false, at_ms: 2_000, ..a1.clone() };
    let wrote =
        ok(&at("record_attempt"), store.record_attempt(&again, &r(1400.0, 2, 1), &r(1300.0, 2, 1)).await)?;
    check!(!wrote, "{}: a second attempt at one puzzle was written", at("puzzles"));
    let p = ok(&at("puzzle_rating"), store.puzzle_rating("player", "madiao", &guest).await)?;
    check!(p == Some(r(1600.25, 1, 1)), "{}: the player's puzzle rating read back is {p:?}", at("puzzles"));
    let q = ok(&at("puzzle_rating"), store.puzzle_rating("puzzle", "madiao", "m1-2-3").await)?;
    check!(q == Some(r(1200.5, 1, 1)), "{}: the puzzle's rating read back is {q:?}", at("puzzles"));
    let other = ok(&at("puzzle_rating"), store.puzzle_rating("player", "dabaifen", &guest).await)?;
    check!(other.is_none(), "{}: a rating in one game shows in the other", at("puzzles"));
    let a2 = AttemptRow { puzzle: "m9-9-9".into(), at_ms: 3_000, solved: false, ..a1.clone() };
    ok(&at("record_attempt"), store.record_attempt(&a2, &r(1550.0, 2, 1), &r(1650.0, 1, 0)).await)?;
    let list = ok(&at("attempts"), store.attempts(&guest, "madiao", 10).await)?;
    check!(list == vec![a2.clone(), a1.clone()], "{}: attempts read back as {list:?}", at("puzzles"));
    let one = ok(&at("attempts"), store.attempts(&guest, "madiao", 1).await)?;
    check!(one == vec![a2], "{}: attempts limited to 1 read back as {one:?}", at("puzzles"));
    Ok(())
}

/// Follows and challenges: following twice is one follow, unfollowing ends it, and a challenge
/// is answered once (a second answer writes nothing), read back by either player.
async fn friends(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use super::friends::ChallengeRow;
    let at = |what: &str| format!("{backend}: friends: {what}");
    let (a, b, c) = (unique("fa"), unique("fb"), unique("fc"));
    check!(ok(&at("follow"), store.follow(&a, &b, 100).await)?, "{}", at("a first follow is not written"));
    check!(!ok(&at("follow"), store.follow(&a, &b, 200).await)?, "{}", at("a second follow is written"));
    check!(ok(&at("follow"), store.follow(&a, &c, 150).await)?, "{}", at("a follow of c is not written"));
    let list = ok(&at("following"), store.following(&a).await)?;
    check!(list == vec![(b.clone(), 100), (c.clone(), 150)], "{}: {list:?}", at("following read back as"));
    check!(ok(&at("following"), store.following(&b).await)?.is_empty(), "{}", at("following is one-way"));
    check!(ok(&at("unfollow"), store.unfollow(&a, &b).await)?, "{}", at("unfollow did nothing"));
    check!(!ok(&at("unfollow"), store.unfollow(&a, &b).await)?, "{}", at("a second unfollow did something"));
    let list = ok(&at("following"), store.following(&a).await)?;
    check!(list == vec![(c.clone(), 150)], "{}: {list:?}", at("after unfollowing, following read back as"));
    let ch = ChallengeRow {
        id: unique("ch"),
        from: a.clone(),
        to: c.clone(),
        game: "dabaifen".into(),
        status: "pending".into(),
        table: None,
        created_ms: 1_000,
        answered_ms: None,
    };
    ok(&at("add_challenge"), store.add_challenge(&ch).await)?;
    let older = ChallengeRow { id: unique("ch"), created_ms: 500, game: "madiao".into(), ..ch.clone() };
    ok(&at("add_challenge"), store.add_challenge(&older).await)?;
    let got = ok(&at("challenge"), store.challenge(&ch.id).await)?;
    check!(got.as_ref() == Some(&ch), "{}: {got:?}", at("the challenge read back as"));
    for who in [&a, &c] {
        let l = ok(&at("challenges_of"), store.challenges_of(who, 0, 10).await)?;
        check!(
            l == vec![ch.clone(), older.clone()],
            "{}: {l:?}",
            at("challenges read back, newest first, as")
        );
    }
    let recent = ok(&at("challenges_of"), store.challenges_of(&a, 600, 10).await)?;
    check!(recent == vec![ch.clone()], "{}: {recent:?}", at("challenges since 600 read back as"));
    let one = ok(&at("challenges_of"), store.challenges_of(&a, 0, 1).await)?;
    check!(one == vec![ch.clone()], "{}: {one:?}", at("challenges limited to 1 read back as"));
    check!(
        ok(&at("challenges_of"), store.challenges_of(&b, 0, 10).await)?.is_empty(),
        "{}",
        at("b has challenges")
    );
    let answered =
        ok(&at("answer_challenge"), store.answer_challenge(&ch.id, "accepted", Some("t123"), 2_000).await)?;
    check!(answered, "{}", at("a pending challenge was not answered"));
    let again = ok(&at("answer_challenge"), store.answer_challenge(&ch.id, "declined", None, 3_000).await)?;
    check!(!again, "{}", at("an answered challenge was answered again"));
    let got = ok(&at("challenge"), store.challenge(&ch.id).await)?;
    let want = ChallengeRow {
        status: "accepted".into(),
        table: Some("t123".into()),
        answered_ms: Some(2_000),
        ..ch
    };
    check!(got == Some(want), "{}: {got:?}", at("the answered challenge read back as"));
    check!(
        ok(&at("challenge"), store.challenge("nope").await)?.is_none(),
        "{}",
        at("an unknown challenge is found")
    );
    let f = ok(&at("followers"), store.followers(&c).await)?;
    check!(f == vec![a.clone()], "{}: {f:?}", at("c's followers read back as"));
    check!(ok(&at("followers"), store.followers(&b).await)?.is_empty(), "{}", at("b kept a follower"));
    // Presence: noted for this node (which lives: it beat), seen by any other node, not by
    // this one (it knows its own connections), gone once unset.
    ok(&at("beat"), store.beat(false).await)?;
    let me = store.node().to_string();
    ok(&at("set_present"), store.set_present(&b, &me, true, 10).await)?;
    ok(&at("set_present"), store.set_present(&b, &me, true, 20).await)?;
    let seen = ok(&at("present"), store.present(&[b.clone(), c.clone()], "elsewhere").await)?;
    check!(seen == vec![b.clone()], "{}: {seen:?}", at("present read back as"));
    let mine = ok(&at("present"), store.present(std::slice::from_ref(&b), &me).await)?;
    check!(mine.is_empty(), "{}: {mine:?}", at("a node's own presence is read back"));
    ok(&at("set_present"), store.set_present(&b, &me, false, 30).await)?;
    let gone = ok(&at("present"), store.present(std::slice::from_ref(&b), "elsewhere").await)?;
    check!(gone.is_empty(), "{}: {gone:?}", at("an unset presence is read back"));
    Ok(())
}

/// Tournaments: stored as given, changed only from the version read (a stale write changes
/// nothing), listed unfinished first then newest first, and driven by one node at a time (a
/// lease another node takes only once it has run out).
async fn tournaments(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use super::tournaments::TournamentRow;
    let at = |what: &str| format!("{backend}: tournaments: {what}");
    let row = |id: &str, status: &str, created_ms: i64| TournamentRow {
        id: id.to_string(),
        kind: "swiss".into(),
        game: "madiao".into(),
        name: "Swiss 瑞士".into(),
        host: "g_host".into(),
        status: status.into(),
        state: r#"{"format":{"kind":"swiss"}}"#.into(),
        version: 0,
        created_ms,
        updated_ms: created_ms,
    };
    let (old, new, done) = (unique("z"), unique("z"), unique("z"));
    let base = 4_000_000_000_000 + i64::from(std::process::id());
    for r in [row(&old, "open", base), row(&new, "running", base + 10), row(&done, "finished", base + 20)] {
        ok(&at("create_tournament"), store.create_tournament(&r).await)?;
    }
    check!(
        store.create_tournament(&row(&old, "open", base)).await.is_err(),
        "{}",
        at("an id stored twice was accepted")
    );
    let got = ok(&at("tournament"), store.tournament(&old).await)?;
    check!(got == Some(row(&old, "open", base)), "{}: {got:?}", at("a tournament read back as"));
    check!(
        ok(&at("tournament"), store.tournament("z_none").await)?.is_none(),
        "{}",
        at("an unknown one found")
    );
    // Versioned writes.
    let wrote = ok(
        &at("update_tournament"),
        store.update_tournament(&old, 0, "running", "{\"v\":1}", base + 5).await,
    )?;
    check!(wrote, "{}", at("a write at the version read was refused"));
    let stale =
        ok(&at("update_tournament"), store.update_tournament(&old, 0, "finished", "{}", base + 6).await)?;
    check!(!stale, "{}", at("a write at a stale version was taken"));
    let got = ok(&at("tournament"), store.tournament(&old).await)?.ok_or_else(|| Failed(at("lost")))?;
    check!(
        (got.version, got.status.as_str(), got.state.as_str(), got.updated_ms)
            == (1, "running", "{\"v\":1}", base + 5),
        "{}: {got:?}",
        at("after one write, read back as")
    );
    // Listed: the unfinished first, newest first.
    let list = ok(&at("tournaments"), store.tournaments(10_000).await)?;
    let ours: Vec<&str> =
        list.iter().map(|r| r.id.as_str()).filter(|id| [&old, &new, &done].iter().any(|o| o == id)).collect();
    check!(
        ours == vec![new.as_str(), old.as_str(), done.as_str()],
        "{}: {ours:?}",
        at("listed (unfinished first, newest first) as")
    );
    // The lease: one node at a time, another once it ran out; the holder renews it.
    let claim = |node: &'static str, now: i64, until: i64| {
        let id = new.clone();
        async move { store.claim_tournament(&id, node, now, until).await }
    };
    check!(ok(&at("claim"), claim("n1", 100, 10_100).await)?, "{}", at("a free lease was not taken"));
    check!(!ok(&at("claim"), claim("n2", 5_000, 15_000).await)?, "{}", at("a held lease was taken"));
    check!(ok(&at("claim"), claim("n1", 6_000, 16_000).await)?, "{}", at("the holder could not renew"));
    check!(!ok(&at("claim"), claim("n2", 12_000, 22_000).await)?, "{}", at("a renewed lease was taken"));
    check!(ok(&at("claim"), claim("n2", 16_000, 26_000).await)?, "{}", at("a lease run out was not taken"));
    check!(!ok(&at("claim"), claim("n1", 17_000, 27_000).await)?, "{}", at("the old holder took it back"));
    check!(
        !ok(&at("claim"), store.claim_tournament("z_none", "n1", 0, 1).await)?,
        "{}",
        at("an unknown one claimed")
    );
    Ok(())
}

/// Duplicate events: stored as given (an id twice is refused), changed only from the version
/// read, listed newest first (all, or the unfinished only).
async fn events(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use super::events::EventRow;
    let at = |what: &str| format!("{backend}: events: {what}");
    let base = 4_000_000_000_000 + i64::from(std::process::id());
    let row = |id: &str, created_ms: i64| EventRow {
        id: id.to_string(),
        host: "g_host".into(),
        status: "open".into(),
        created_ms,
        version: 0,
        doc: r#"{"name":"Duplicate 复式"}"#.into(),
    };
    let (a, b) = (unique("e"), unique("e"));
    ok(&at("create_event"), store.create_event(&row(&a, base)).await)?;
    ok(&at("create_event"), store.create_event(&row(&b, base + 1)).await)?;
    check!(store.create_event(&row(&a, base)).await.is_err(), "{}", at("an id stored twice was accepted"));
    let got = ok(&at("event"), store.event(&a).await)?;
    check!(got == Some(row(&a, base)), "{}: {got:?}", at("an event read back as"));
    check!(ok(&at("event"), store.event("e_none").await)?.is_none(), "{}", at("an unknown one found"));
    check!(
        ok(&at("update_event"), store.update_event(&a, 0, "playing", "{\"a\":1}").await)?,
        "{}",
        at("a write at the version read was refused")
    );
    check!(
        !ok(&at("update_event"), store.update_event(&a, 0, "finished", "{}").await)?,
        "{}",
        at("a stale write was taken")
    );
    let got = ok(&at("event"), store.event(&a).await)?.ok_or_else(|| Failed(at("lost")))?;
    check!(
        (got.version, got.status.as_str(), got.doc.as_str()) == (1, "playing", "{\"a\":1}"),
        "{}: {got:?}",
        at("after one write, read back as")
    );
    check!(
        ok(&at("update_event"), store.update_event(&b, 0, "finished", "{}").await)?,
        "{}",
        at("b's write refused")
    );
    let ours = |list: Vec<EventRow>| -> Vec<String> {
        list.into_iter().map(|r| r.id).filter(|id| *id == a || *id == b).collect()
    };
    let all = ours(ok(&at("events"), store.events(false, 10_000).await)?);
    check!(all == vec![b.clone(), a.clone()], "{}: {all:?}", at("all events, newest first, listed as"));
    let unfinished = ours(ok(&at("events"), store.events(true, 10_000).await)?);
    check!(unfinished == vec![a.clone()], "{}: {unfinished:?}", at("the unfinished events listed as"));
    rated_event(store, backend).await
}

/// A new guest named `name`, with an account of `username` claimed for him when there is one;
/// `at` names the check for a failure's message.
async fn guest_with_account(
    store: &dyn Store,
    at: &str,
    name: &str,
    username: Option<&str>,
) -> Result<GuestRow, Failed> {
    let g = GuestRow { id: unique("g"), name: name.to_string(), token_hash: unique("h"), created_ms: 5 };
    ok(&format!("{at}create_guest"), store.create_guest(&g).await)?;
    if let Some(username) = username {
        let account = AccountRow {
            guest: g.id.clone(),
            username: username.to_string(),
            username_key: unique(&name.to_lowercase()),
            password_hash: "x".into(),
            created_ms: 40,
        };
        let s = SessionRow {
            token_hash: unique("s"),
            guest: g.id.clone(),
            created_ms: 40,
            expires_ms: 1_000,
            revoked_ms: None,
        };
        ok(&format!("{at}claim_account"), store.claim_account(&account, &s).await)?;
    }
    Ok(g)
}

/// A rated event's finish (`docs/events.md`, "Rated events"): the event finished and its
/// accounts rated in one write, as `crate::ratings::settle_event` computes them; a finish from a
/// stale version writes nothing, and one driven again changes no rating (the history backstop).
async fn rated_event(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use super::events::EventRow;
    use crate::ratings::{Comparison, EventPlayer, RatedEvent, settle_event};
    use table::rated::RatedPlayer;
    let at = |what: &str| format!("{backend}: rated event: {what}");
    let mut guests = Vec::new();
    for name in ["Gao", "Hua"] {
        guests.push(guest_with_account(store, &at(""), name, Some(&unique(name))).await?);
    }
    let (t1, t2) = (table_row(&unique("t"), 50), table_row(&unique("t"), 60));
    for t in [&t1, &t2] {
        ok(&at("create_table"), store.create_table(t).await)?;
    }
    let person = |g: &GuestRow, t: &TableRow| EventPlayer {
        player: RatedPlayer::Person { guest: g.id.clone(), name: g.name.clone() },
        table: t.id.clone(),
    };
    // Gao beats Hua and the bot on the board; Hua loses to both.
    let event = RatedEvent {
        game: cards::record::GameKind::Madiao,
        players: vec![
            person(&guests[0], &t1),
            person(&guests[1], &t2),
            EventPlayer { player: RatedPlayer::Bot("heuristic".into()), table: t2.id.clone() },
        ],
        comparisons: vec![
            Comparison { a: 0, b: 1, a_score: 5.0, b_score: -5.0 },
            Comparison { a: 0, b: 2, a_score: 5.0, b_score: 0.0 },
            Comparison { a: 1, b: 2, a_score: -5.0, b_score: 0.0 },
        ],
    };
    let accounts = guests.iter().map(|g| (g.id.clone(), None)).collect();
    let want = settle_event(&event, &accounts, &Default::default(), 0).map_err(|e| e.to_string())?;
    check!(want.len() == 2, "{}: {want:?}", at("settle_event"));
    let id = unique("e");
    let row = EventRow {
        id: id.clone(),
        host: guests[0].id.clone(),
        status: "playing".into(),
        created_ms: 70,
        version: 0,
        doc: "{}".into(),
    };
    ok(&at("create_event"), store.create_event(&row).await)?;
    check!(
        ok(&at("finish_rated_event"), store.finish_rated_event(&id, 0, "{\"over\":1}", &event).await)?,
        "{}",
        at("the finish was refused")
    );
    let got = ok(&at("event"), store.event(&id).await)?.ok_or_else(|| Failed(at("lost")))?;
    check!(
        (got.version, got.status.as_str(), got.doc.as_str()) == (1, "finished", "{\"over\":1}"),
        "{}: {got:?}",
        at("the finished event read back as")
    );
    let rated = async |g: &GuestRow| -> Result<_, Failed> {
        let r = ok(&at("ratings_of"), store.ratings_of(&g.id).await)?;
        let h = ok(&at("rating_history"), store.rating_history(&g.id, 10).await)?;
        Ok((r, h))
    };
    let mut first = Vec::new();
    for (g, t, wins) in [(&guests[0], &t1, 1), (&guests[1], &t2, 0)] {
        let (r, h) = rated(g).await?;
        let w = &want.iter().find(|(w, _)| w.guest == g.id).ok_or_else(|| Failed(at("not settled")))?.0;
        check!(
            r.len() == 1
                && r[0].rating == w.rating
                && r[0].deviation == w.deviation
                && (r[0].games, r[0].wins) == (1, wins),
            "{}: stored {r:?}, computed {w:?}",
            at("ratings_of")
        );
        check!(h.len() == 1 && h[0].table == t.id, "{}: {h:?}", at("one history row naming his table"));
        first.push(r);
    }
    let winner_above = first[0][0].rating > first[1][0].rating;
    check!(winner_above, "{}: {first:?}", at("the winner below the loser"));
    // A second node's finish from the version it read: nothing written.
    check!(
        !ok(&at("finish_rated_event"), store.finish_rated_event(&id, 0, "{}", &event).await)?,
        "{}",
        at("a stale finish was accepted")
    );
    // The finish driven again from the current version: the event's row changes, no rating.
    ok(&at("finish_rated_event"), store.finish_rated_event(&id, 1, "{\"over\":2}", &event).await)?;
    for (g, before) in guests.iter().zip(&first) {
        let (r, h) = rated(g).await?;
        check!(&r == before && h.len() == 1, "{}: {r:?} {h:?}", at("rated twice"));
    }
    // The accounts go, and their ratings with them (the ratings' checks count a leaderboard).
    for g in &guests {
        ok(&at("delete_account"), store.delete_account(&g.id, "deleted player").await)?;
        check!(rated(g).await?.0.is_empty(), "{}", at("ratings stay after a deletion"));
    }
    Ok(())
}

/// Every check, in order; the first that fails says why.
async fn checks<F, Fut>(open: F) -> Result<(), Failed>
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Arc<dyn Store>, StoreError>>,
{
    let store = ok("open", open().await)?;
    let backend = store.backend();
    let at = |what: &str| format!("{backend}: {what}");
    puzzles(store.as_ref(), backend).await?;
    friends(store.as_ref(), backend).await?;
    tournaments(store.as_ref(), backend).await?;
    events(store.as_ref(), backend).await?;

    // Guests.
    let g = GuestRow {
        id: unique("g"),
        name: "Bo".into(),
        token_hash: unique("h"),
        created_ms: 1_700_000_000_000,
    };
    ok(&at("create_guest"), store.create_guest(&g).await)?;
    let found = ok(&at("guest_by_token_hash"), store.guest_by_token_hash(&g.token_hash).await)?;
    check!(found.as_ref() == Some(&g), "{}: the guest read back differs: {found:?}", at("guests"));
    let none = ok(&at("guest_by_token_hash"), store.guest_by_token_hash("no-such-hash").await)?;
    check!(none.is_none(), "{}: an unknown token hash found {none:?}", at("guests"));
    let same_hash = GuestRow { id: unique("g"), ..g.clone() };
    let dup = store.create_guest(&same_hash).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "{}: a reused token hash gave {dup:?}", at("guests"));
    let same_id = GuestRow { token_hash: unique("h"), ..g.clone() };
    let dup = store.create_guest(&same_id).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "{}: a reused guest id gave {dup:?}", at("guests"));

    // Tables and seats.
    let t1 = table_row(&unique("t"), 1_000);
    let t2 =
        TableRow { game: "dabaifen".into(), status: TableStatus::Playing, ..table_row(&unique("t"), 2_000) };
    ok(&at("create_table"), store.create_table(&t1).await)?;
    ok(&at("create_table"), store.create_table(&t2).await)?;
    let back = ok(&at("table"), store.table(&t1.id).await)?;
    check!(back.as_ref() == Some(&t1), "{}: the table read back differs: {back:?}", at("tables"));
    check!(
        ok(&at("table"), store.table("t-none").await)?.is_none(),
        "{}: an unknown table was found",
        at("tables")
    );
    let dup = store.create_table(&t1).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "{}: a reused table id gave {dup:?}", at("tables"));
    let mine: Vec<String> = ok(&at("unfinished_tables"), store.unfinished_tables().await)?
        .into_iter()
        .filter(|t| t.id == t1.id || t.id == t2.id)
        .map(|t| t.id)
        .collect();
    check!(
        mine == vec![t1.id.clone(), t2.id.clone()],
        "{}: unfinished tables {mine:?}",
        at("unfinished_tables")
    );

    let person = SeatRow::Person { guest: g.id.clone(), name: "Bo".into() };
    ok(&at("set_seat"), store.set_seat(&t1.id, 2, &person).await)?;
    ok(&at("set_seat"), store.set_seat(&t1.id, 0, &SeatRow::Open).await)?;
    let seats = ok(&at("table"), store.table(&t1.id).await)?.map(|t| t.seats);
    check!(
        seats.as_ref().is_some_and(|s| s[0] == SeatRow::Open && s[2] == person && s[1] == t1.seats[1]),
        "{}: seats after two changes: {seats:?}",
        at("set_seat")
    );
    let missing = store.set_seat("t-none", 0, &SeatRow::Open).await;
    check!(
        matches!(missing, Err(StoreError::NoTable(_))),
        "{}: unknown table gave {missing:?}",
        at("set_seat")
    );
    // A parked table is stored as such and still listed among the unfinished ones.
    ok(&at("set_status"), store.set_status(&t1.id, TableStatus::Parked).await)?;
    let status = ok(&at("table"), store.table(&t1.id).await)?.map(|t| t.status);
    check!(status == Some(TableStatus::Parked), "{}: status {status:?}", at("set_status"));
    let unfinished = ok(&at("unfinished_tables"), store.unfinished_tables().await)?;
    check!(
        unfinished.iter().any(|t| t.id == t1.id && t.status == TableStatus::Parked),
        "{}: a parked table is not listed as unfinished",
        at("unfinished_tables")
    );
    ok(&at("set_status"), store.set_status(&t1.id, TableStatus::Playing).await)?;
    let status = ok(&at("table"), store.table(&t1.id).await)?.map(|t| t.status);
    check!(status == Some(TableStatus::Playing), "{}: status {status:?}", at("set_status"));

    // The action log: batches, order, conflicts all or none.
    let first = [action(0, 0, 2, r#"{"redeal":false}"#), action(1, 0, 2, r#"{"play":"M9"}"#)];
    ok(&at("append_actions"), store.append_actions(&t1.id, &first).await)?;
    ok(&at("append_actions"), store.append_actions(&t1.id, &[action(2, 0, 3, r#"{"slough":"S1"}"#)]).await)?;
    let clash = [action(3, 1, 0, r#"{"play":"TW"}"#), action(2, 1, 0, r#"{"play":"TQ"}"#)];
    let dup = store.append_actions(&t1.id, &clash).await;
    check!(
        matches!(dup, Err(StoreError::Conflict(_))),
        "{}: a reused number gave {dup:?}",
        at("append_actions")
    );
    let log = ok(&at("actions"), store.actions(&t1.id).await)?;
    let expected: Vec<LoggedAction> =
        first.iter().cloned().chain([action(2, 0, 3, r#"{"slough":"S1"}"#)]).collect();
    check!(log == expected, "{}: log after a refused batch (all or none): {log:?}", at("actions"));
    let missing = store.append_actions("t-none", &[action(0, 0, 0, "{}")]).await;
    check!(
        matches!(missing, Err(StoreError::NoTable(_))),
        "{}: unknown table gave {missing:?}",
        at("append_actions")
    );
    check!(
        ok(&at("actions"), store.actions(&t2.id).await)?.is_empty(),
        "{}: a new table's log is not empty",
        at("actions")
    );

    // Concurrent writers: one log each, and two writers racing for the same number.
    let mut handles = Vec::new();
    for i in 0..8u64 {
        let s = store.clone();
        let id = t2.id.clone();
        handles.push(tokio::spawn(async move {
            s.append_actions(&id, &[action(i, 0, (i % 4) as u8, r#"{"pass":true}"#)]).await
        }));
    }
    let mut racers = Vec::new();
    for _ in 0..2 {
        let s = store.clone();
        let id = t1.id.clone();
        racers.push(tokio::spawn(async move {
            s.append_actions(&id, &[action(3, 1, 1, r#"{"play":"W0"}"#)]).await
        }));
    }
    for h in handles {
        let r = h.await.map_err(|e| format!("{}: a writer panicked: {e}", at("concurrency")))?;
        ok(&at("concurrent append_actions"), r)?;
    }
    let mut won = 0;
    for h in racers {
        match h.await.map_err(|e| format!("{}: a writer panicked: {e}", at("concurrency")))? {
            Ok(()) => won += 1,
            Err(StoreError::Conflict(_)) => {}
            Err(e) => {
                return Err(Failed(format!("{}: a racing writer failed otherwise: {e}", at("concurrency"))));
            }
        }
    }
    check!(won == 1, "{}: {won} of two writers of the same number succeeded", at("concurrency"));
    let log2 = ok(&at("actions"), store.actions(&t2.id).await)?;
    check!(
        log2.iter().map(|a| a.seq).collect::<Vec<_>>() == (0..8).collect::<Vec<_>>(),
        "{}: the concurrent log reads back as {log2:?}",
        at("concurrency")
    );

    // Chat.
    for i in 0..5u64 {
        let m = ChatRow {
            seq: i,
            at_ms: 10 + i as i64,
            guest: (i % 2 == 0).then(|| g.id.clone()),
            name: format!("Bo {i}"),
            seat: (i < 3).then_some(i as u8),
            text: format!("message {i} 你好"),
        };
        ok(&at("append_chat"), store.append_chat(&t1.id, &m).await)?;
    }
    let recent = ok(&at("recent_chat"), store.recent_chat(&t1.id, 3).await)?;
    check!(
        recent.iter().map(|m| m.seq).collect::<Vec<_>>() == vec![2, 3, 4],
        "{}: the last three, oldest first: {recent:?}",
        at("recent_chat")
    );
    check!(
        recent[0].seat == Some(2)
            && recent[1].seat.is_none()
            && recent[1].guest.is_none()
            && recent[2].text == "message 4 你好",
        "{}: fields read back: {recent:?}",
        at("recent_chat")
    );
    let dup = store
        .append_chat(
            &t1.id,
            &ChatRow { seq: 4, at_ms: 0, guest: None, name: "x".into(), seat: None, text: "y".into() },
        )
        .await;
    check!(
        matches!(dup, Err(StoreError::Conflict(_))),
        "{}: a reused number gave {dup:?}",
        at("append_chat")
    );

    // Finishing: the record is served only once finished; a finished table leaves the unfinished list.
    check!(
        ok(&at("record"), store.record(&t1.id).await)?.is_none(),
        "{}: a record before the end",
        at("record")
    );
    let record = "{\"format\": \"yezi/1\", \"game\": \"madiao\"}\n";
    ok(&at("finish_table"), store.finish_table(&t1.id, record).await)?;
    let served = ok(&at("record"), store.record(&t1.id).await)?;
    check!(served.as_deref() == Some(record), "{}: served {served:?}", at("record"));
    check!(
        ok(&at("record"), store.record("t-none").await)?.is_none(),
        "{}: a record of no table",
        at("record")
    );
    let still = ok(&at("unfinished_tables"), store.unfinished_tables().await)?;
    check!(
        !still.iter().any(|t| t.id == t1.id) && still.iter().any(|t| t.id == t2.id),
        "{}: the finished table is still listed",
        at("unfinished_tables")
    );
    let status = ok(&at("table"), store.table(&t1.id).await)?.map(|t| t.status);
    check!(status == Some(TableStatus::Finished), "{}: status {status:?}", at("finish_table"));
    let reopen = store.set_status(&t1.id, TableStatus::Playing).await;
    check!(reopen.is_err(), "{}: a finished table's status changed back", at("set_status"));

    // A step's writes: all or none, under the creator's lease.
    let t3 = table_row(&unique("t"), 3_000);
    ok(&at("create_table"), store.create_table(&t3).await)?;
    let chat =
        |seq: u64| ChatRow { seq, at_ms: 1, guest: None, name: "x".into(), seat: None, text: "y".into() };
    let step = [
        Write::Actions(vec![action(0, 0, 1, r#"{"pass":true}"#)]),
        Write::Seat { seat: 2, owner: person.clone() },
        Write::Status(TableStatus::Playing),
        Write::Chat(chat(0)),
    ];
    ok(&at("write_step"), store.write_step(&t3.id, FIRST_EPOCH, &step).await)?;
    let back = ok(&at("table"), store.table(&t3.id).await)?;
    check!(
        back.as_ref().is_some_and(|t| t.status == TableStatus::Playing && t.seats[2] == person),
        "{}: the step's seat and status: {back:?}",
        at("write_step")
    );
    // The second write fails (a chat number used twice): the first is undone.
    let failing = [Write::Actions(vec![action(1, 0, 2, r#"{"pass":true}"#)]), Write::Chat(chat(0))];
    let dup = store.write_step(&t3.id, FIRST_EPOCH, &failing).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "{}: a failing step gave {dup:?}", at("write_step"));
    let log3 = ok(&at("actions"), store.actions(&t3.id).await)?;
    check!(log3.len() == 1, "{}: a failed step left part of its writes: {log3:?}", at("write_step"));
    ok(
        &at("write_step"),
        store.write_step(&t3.id, FIRST_EPOCH, &[Write::Actions(vec![action(1, 0, 2, "{}")])]).await,
    )?;

    // Closing: a table its host closed is over; it is neither resumed, claimed, counted among
    // its host's unfinished tables, nor opened again; it has no record.
    let t4 = TableRow { host: Some(unique("g")), ..table_row(&unique("t"), 4_000) };
    ok(&at("create_table"), store.create_table(&t4).await)?;
    let host = t4.host.clone().unwrap_or_default();
    let hosted = ok(&at("hosted_tables"), store.hosted_tables(&host).await)?;
    check!(hosted == 1, "{}: {hosted} hosted before closing", at("close"));
    let close =
        [Write::Actions(vec![action(0, 0, 1, r#"{"pass":true}"#)]), Write::Status(TableStatus::Closed)];
    ok(&at("write_step"), store.write_step(&t4.id, FIRST_EPOCH, &close).await)?;
    let status = ok(&at("table"), store.table(&t4.id).await)?.map(|t| t.status);
    check!(status == Some(TableStatus::Closed), "{}: status {status:?}", at("close"));
    let unfinished = ok(&at("unfinished_tables"), store.unfinished_tables().await)?;
    check!(!unfinished.iter().any(|t| t.id == t4.id), "{}: a closed table is resumed", at("close"));
    let hosted = ok(&at("hosted_tables"), store.hosted_tables(&host).await)?;
    check!(hosted == 0, "{}: a closed table is counted as hosted", at("close"));
    let reopen = store.set_status(&t4.id, TableStatus::Playing).await;
    let status = ok(&at("table"), store.table(&t4.id).await)?.map(|t| t.status);
    check!(
        reopen.is_err() || status == Some(TableStatus::Closed),
        "{}: a closed table's status changed back to {status:?}",
        at("close")
    );
    check!(
        ok(&at("record"), store.record(&t4.id).await)?.is_none(),
        "{}: a closed table's record",
        at("close")
    );
    let log4 = ok(&at("actions"), store.actions(&t4.id).await)?;
    check!(log4.len() == 1, "{}: a closed table keeps its log: {log4:?}", at("close"));

    // Ownership, through a second node (a second store on the same database).
    let other = ok("open a second store", open().await)?;
    let shared = ok(&at("renew_leases"), store.renew_leases().await)? != Held::Every;
    if shared {
        fencing(&*store, &*other, &t3.id).await.map_err(|e| format!("{backend}: fencing: {e}"))?;
    } else {
        // One node holds every unfinished table.
        let mine = ok(&at("claim_table"), other.claim_table(&t3.id).await)?;
        check!(mine.is_some_and(|(t, e)| t.id == t3.id && e == FIRST_EPOCH), "{}: claim", at("one node"));
    }
    let done = ok(&at("claim_table"), other.claim_table(&t1.id).await)?;
    check!(done.is_none(), "{}: a finished table was claimed: {done:?}", at("claim_table"));
    let closed = ok(&at("claim_table"), other.claim_table(&t4.id).await)?;
    check!(closed.is_none(), "{}: a closed table was claimed: {closed:?}", at("claim_table"));
    drop(other);

    // Everything is still there through a new connection.
    drop(store);
    let again = ok("reopen", open().await)?;
    let log = ok(&at("actions after reopening"), again.actions(&t1.id).await)?;
    check!(log.len() == 4 && log[..3] == expected[..], "{}: the log after reopening: {log:?}", at("reopen"));
    let back = ok(&at("table after reopening"), again.table(&t2.id).await)?;
    check!(back.as_ref() == Some(&t2), "{}: the table after reopening: {back:?}", at("reopen"));
    check!(
        ok(&at("guest after reopening"), again.guest_by_token_hash(&g.token_hash).await)?.as_ref()
            == Some(&g),
        "{}: the guest after reopening",
        at("reopen")
    );
    check!(
        ok(&at("record after reopening"), again.record(&t1.id).await)?.as_deref() == Some(record),
        "{}: the record after reopening",
        at("reopen")
    );
    archive(&*again).await.map_err(|e| format!("{backend}: archive: {e}"))?;
    accounts(&*again, backend).await?;
    ratings(&*again, backend).await?;
    addresses(&*again, backend).await?;
    moderation(&*again).await.map_err(|e| format!("{backend}: moderation: {e}"))?;
    drop(again);
    analyses(&open).await.map_err(|e| Failed(format!("{backend}: analyses: {e}")))
}

/// Analyses: stored by table, hand, seat, seed and budget (every part of the key tells them
/// apart, a seed of 64 bits comes back whole), replaced when stored again, refused for a table
/// that is not stored, and kept when the database is opened again.
async fn analyses<F, Fut>(open: &F) -> Result<(), Failed>
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Arc<dyn Store>, StoreError>>,
{
    use super::AnalysisKey;
    let store = ok("open", open().await)?;
    let t = table_row(&unique("t"), 3_000);
    ok("create_table", store.create_table(&t).await)?;
    ok("finish_table", store.finish_table(&t.id, r#"{"format":"yezi/1"}"#).await)?;
    let key = AnalysisKey { table: t.id.clone(), hand: 2, seat: 3, seed: u64::MAX - 3, think_ms: 100 };
    let first = r#"{"game":"madiao","hand":2,"seat":3,"decisions":[]}"#;
    check!(ok("analysis", store.analysis(&key).await)?.is_none(), "an analysis before any was stored");
    ok("put_analysis", store.put_analysis(&key, first).await)?;
    let back = ok("analysis", store.analysis(&key).await)?;
    check!(back.as_deref() == Some(first), "read back: {back:?}");
    let others = [
        AnalysisKey { hand: 1, ..key.clone() },
        AnalysisKey { seat: 0, ..key.clone() },
        AnalysisKey { seed: 3, ..key.clone() },
        AnalysisKey { think_ms: 50, ..key.clone() },
        AnalysisKey { table: unique("t"), ..key.clone() },
    ];
    for other in &others {
        let got = ok("analysis", store.analysis(other).await)?;
        check!(got.is_none(), "{other:?} found the analysis of {key:?}: {got:?}");
    }
    let seat0 = r#"{"seat":0}"#;
    ok("put_analysis", store.put_analysis(&others[1], seat0).await)?;
    let second = r#"{"game":"madiao","hand":2,"seat":3,"decisions":[1]}"#;
    ok("put_analysis again", store.put_analysis(&key, second).await)?;
    let back = ok("analysis", store.analysis(&key).await)?;
    check!(back.as_deref() == Some(second), "not replaced: {back:?}");
    let unknown = store.put_analysis(&others[4], first).await;
    check!(matches!(unknown, Err(StoreError::NoTable(_))), "an unknown table gave {unknown:?}");
    drop(store);
    let again = ok("reopen", open().await)?;
    let back = ok("analysis after reopening", again.analysis(&key).await)?;
    check!(back.as_deref() == Some(second), "after reopening: {back:?}");
    let back = ok("analysis after reopening", again.analysis(&others[1]).await)?;
    check!(back.as_deref() == Some(seat0), "the other seat's after reopening: {back:?}");
    Ok(())
}

/// Ratings: a rated match's update (once), the leaderboard, the history, and an account's
/// deletion taking its ratings.
async fn ratings(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use crate::ratings::settle;
    use table::rated::{RatedMatch, RatedPlayer, RatedSeat};
    let at = |what: &str| format!("{backend}: ratings: {what}");
    let mut guests = Vec::new();
    for (i, name) in ["Dai", "Eve", "Fu"].iter().enumerate() {
        let g = guest_with_account(store, &at(""), name, (i < 2).then_some(*name)).await?;
        guests.push(g);
    }
    let person = |g: &GuestRow| RatedPlayer::Person { guest: g.id.clone(), name: g.name.clone() };
    let seat = |i: u8, player: RatedPlayer, result: f64| RatedSeat {
        seat: i,
        player,
        side: None,
        result,
        forfeited: false,
    };
    // Dai wins, Eve loses, Fu (no account) is not rated.
    let first = RatedMatch {
        game: cards::record::GameKind::Madiao,
        seats: vec![
            seat(0, person(&guests[0]), 8.0),
            seat(1, RatedPlayer::Bot("heuristic".into()), 0.0),
            seat(2, person(&guests[1]), -6.0),
            seat(3, person(&guests[2]), -2.0),
        ],
    };
    let t1 = table_row(&unique("t"), 50);
    let t2 = table_row(&unique("t"), 60);
    for t in [&t1, &t2] {
        ok(&at("create_table"), store.create_table(t).await)?;
    }
    let accounts: std::collections::HashMap<String, Option<super::RatingRow>> =
        [(guests[0].id.clone(), None), (guests[1].id.clone(), None)].into_iter().collect();
    let want = settle(&t1.id, &first, &accounts, &Default::default(), 0).map_err(|e| e.to_string())?;
    for _ in 0..2 {
        // The second write of the same match changes nothing.
        ok(&at("write_step"), store.write_step(&t1.id, FIRST_EPOCH, &[Write::Rated(first.clone())]).await)?;
    }
    let dai = ok(&at("ratings_of"), store.ratings_of(&guests[0].id).await)?;
    check!(dai.len() == 1, "{}: one game's rating: {dai:?}", at("ratings_of"));
    let w = &want[0].0;
    check!(
        dai[0].guest == guests[0].id
            && dai[0].game == "madiao"
            && dai[0].rating == w.rating
            && dai[0].deviation == w.deviation
            && dai[0].volatility == w.volatility
            && (dai[0].games, dai[0].wins, dai[0].losses, dai[0].draws) == (1, 1, 0, 0),
        "{}: stored {dai:?}, computed {w:?}",
        at("ratings_of")
    );
    let fu = ok(&at("ratings_of"), store.ratings_of(&guests[2].id).await)?;
    check!(fu.is_empty(), "{}: a guest without an account is rated: {fu:?}", at("ratings_of"));
    let (board, total) = ok(&at("leaderboard"), store.leaderboard("madiao", 0, 10).await)?;
    let names: Vec<&str> = board.iter().map(|(u, _)| u.as_str()).collect();
    check!(total == 2 && names == ["Dai", "Eve"], "{}: {names:?} of {total}", at("leaderboard"));
    let (page, _) = ok(&at("leaderboard"), store.leaderboard("madiao", 1, 1).await)?;
    check!(page.len() == 1 && page[0].0 == "Eve", "{}: the second page: {page:?}", at("leaderboard"));
    let (none, zero) = ok(&at("leaderboard"), store.leaderboard("dabaifen", 0, 10).await)?;
    check!(none.is_empty() && zero == 0, "{}: another game's: {none:?}", at("leaderboard"));
    // A second match, later: Dai loses this time.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let mut second = first.clone();
    second.seats[0].result = -9.0;
    ok(&at("write_step"), store.write_step(&t2.id, FIRST_EPOCH, &[Write::Rated(second)]).await)?;
    let history = ok(&at("rating_history"), store.rating_history(&guests[0].id, 10).await)?;
    let tables: Vec<&str> = history.iter().map(|h| h.table.as_str()).collect();
    check!(tables == [t2.id.as_str(), t1.id.as_str()], "{}: newest first: {tables:?}", at("rating_history"));
    check!(
        history[1] == want[0].1
            || (history[1].before == want[0].1.before && history[1].after == want[0].1.after),
        "{}: {:?} vs {:?}",
        at("rating_history"),
        history[1],
        want[0].1
    );
    check!(
        history[0].before == history[1].after,
        "{}: the second starts where the first ended",
        at("rating_history")
    );
    check!(
        history[0].score == 0.0 && history[0].opponents == 2,
        "{}: {:?}",
        at("rating_history"),
        history[0]
    );
    let dai = ok(&at("ratings_of"), store.ratings_of(&guests[0].id).await)?;
    check!((dai[0].games, dai[0].wins, dai[0].losses) == (2, 1, 1), "{}: {dai:?}", at("ratings_of"));
    let one = ok(&at("rating_history"), store.rating_history(&guests[0].id, 1).await)?;
    check!(one.len() == 1 && one[0].table == t2.id, "{}: the limit", at("rating_history"));
    // A third match of the same two accounts the same day: they are no longer rated against
    // each other (crate::ratings::PAIR_LIMIT), only against the bot.
    // Later again (a match of the same millisecond would tie with the second in the history's
    // order).
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let t3 = table_row(&unique("t"), 70);
    ok(&at("create_table"), store.create_table(&t3).await)?;
    ok(&at("write_step"), store.write_step(&t3.id, FIRST_EPOCH, &[Write::Rated(first.clone())]).await)?;
    let third = ok(&at("rating_history"), store.rating_history(&guests[0].id, 1).await)?;
    check!(
        third.len() == 1 && third[0].table == t3.id && third[0].opponents == 1 && third[0].score == 1.0,
        "{}: a pair past the day's limit is rated against each other: {third:?}",
        at("rating_history")
    );
    // Deleting an account deletes its ratings and history.
    ok(&at("delete_account"), store.delete_account(&guests[1].id, "deleted player").await)?;
    check!(
        ok(&at("ratings_of"), store.ratings_of(&guests[1].id).await)?.is_empty(),
        "{}: ratings stay",
        at("delete_account")
    );
    check!(
        ok(&at("rating_history"), store.rating_history(&guests[1].id, 10).await)?.is_empty(),
        "{}: history stays",
        at("delete_account")
    );
    let (board, total) = ok(&at("leaderboard"), store.leaderboard("madiao", 0, 10).await)?;
    check!(total == 1 && board.len() == 1 && board[0].0 == "Dai", "{}: {board:?}", at("delete_account"));
    Ok(())
}

/// The address hashes of accounts: only a keyed hash is kept, one per address and account (the
/// same for every account), at most `ADDRESS_LIMIT` per account within `ADDRESS_WINDOW_MS`, and
/// none after the account's deletion.
async fn addresses(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    use crate::ratings::{ADDRESS_LIMIT, ADDRESS_WINDOW_MS};
    let at = |what: &str| format!("{backend}: addresses: {what}");
    let (a, b) = (unique("g"), unique("g"));
    let t0: i64 = 1_700_000_000_000;
    ok(&at("note_address"), store.note_address(&a, "203.0.113.5", t0, &unique("k")).await)?;
    ok(&at("note_address"), store.note_address(&a, "203.0.113.5", t0 + 10, &unique("k")).await)?;
    ok(&at("note_address"), store.note_address(&b, "203.0.113.5", t0 + 20, &unique("k")).await)?;
    let ha = ok(&at("address_hashes"), store.address_hashes(&a).await)?;
    let hb = ok(&at("address_hashes"), store.address_hashes(&b).await)?;
    check!(ha.len() == 1 && ha == hb, "{}: one hash, the same for both: {ha:?} {hb:?}", at("note_address"));
    check!(!ha[0].contains("203.0.113"), "{}: the address is stored as itself: {ha:?}", at("note_address"));
    ok(&at("note_address"), store.note_address(&b, "203.0.113.6", t0 + 30, &unique("k")).await)?;
    let hb = ok(&at("address_hashes"), store.address_hashes(&b).await)?;
    check!(hb.len() == 2 && hb[1] == ha[0], "{}: newest first: {hb:?}", at("address_hashes"));
    for i in 0..ADDRESS_LIMIT + 3 {
        ok(&at("note_address"), store.note_address(&a, &format!("198.51.100.{i}"), t0 + 100 + i, "k").await)?;
    }
    let ha = ok(&at("address_hashes"), store.address_hashes(&a).await)?;
    check!(ha.len() as i64 == ADDRESS_LIMIT, "{}: {} hashes kept", at("the limit"), ha.len());
    let later = t0 + 200 + ADDRESS_WINDOW_MS;
    ok(&at("note_address"), store.note_address(&a, "192.0.2.1", later, "k").await)?;
    let ha = ok(&at("address_hashes"), store.address_hashes(&a).await)?;
    check!(ha.len() == 1, "{}: hashes older than the window stay: {ha:?}", at("the window"));
    // The deletion of an account drops its hashes.
    let g = GuestRow { id: unique("g"), name: "Eve".into(), token_hash: unique("h"), created_ms: 5 };
    ok(&at("create_guest"), store.create_guest(&g).await)?;
    let account = AccountRow {
        guest: g.id.clone(),
        username: "Eve_A".into(),
        username_key: unique("eve_a_"),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 40,
    };
    let s = SessionRow {
        token_hash: unique("s"),
        guest: g.id.clone(),
        created_ms: 40,
        expires_ms: 1_000,
        revoked_ms: None,
    };
    ok(&at("claim_account"), store.claim_account(&account, &s).await)?;
    ok(&at("note_address"), store.note_address(&g.id, "203.0.113.5", t0, "k").await)?;
    check!(
        ok(&at("address_hashes"), store.address_hashes(&g.id).await)?.len() == 1,
        "{}: noted",
        at("delete")
    );
    ok(&at("delete_account"), store.delete_account(&g.id, "deleted player").await)?;
    let left = ok(&at("address_hashes"), store.address_hashes(&g.id).await)?;
    check!(left.is_empty(), "{}: the deleted account's hashes stay: {left:?}", at("delete_account"));
    Ok(())
}

/// Accounts and sessions: claiming, looking up, revoking, deleting.
async fn accounts(store: &dyn Store, backend: &str) -> Result<(), Failed> {
    let at = |what: &str| format!("{backend}: accounts: {what}");
    let g = GuestRow { id: unique("g"), name: "Cai 蔡".into(), token_hash: unique("h"), created_ms: 5 };
    ok(&at("create_guest"), store.create_guest(&g).await)?;
    let read = ok(&at("guest"), store.guest(&g.id).await)?;
    check!(read.as_ref() == Some(&g), "{}: guest by id: {read:?}", at("guest"));
    check!(ok(&at("guest"), store.guest("g-none").await)?.is_none(), "{}: an unknown id", at("guest"));
    // Two tables of the guest (one finished, with a record naming it), one of another guest.
    let mut mine = table_row(&unique("t"), 10);
    mine.host = Some("g-other".into());
    mine.seats[2] = SeatRow::Person { guest: g.id.clone(), name: g.name.clone() };
    let mut hosted = table_row(&unique("t"), 20);
    hosted.host = Some(g.id.clone());
    hosted.seats[0] = SeatRow::Person { guest: g.id.clone(), name: g.name.clone() };
    hosted.settings =
        serde_json::json!({ "name": format!("{}'s table", g.name), "private": false }).to_string();
    let other = table_row(&unique("t"), 30);
    for t in [&mine, &hosted, &other] {
        ok(&at("create_table"), store.create_table(t).await)?;
    }
    let record = r#"{"format":"yezi/1","players":["Ann 安","bot:random","Cai 蔡","bot:heuristic"]}"#;
    ok(&at("finish_table"), store.finish_table(&mine.id, record).await)?;
    let listed = ok(&at("tables_of_guest"), store.tables_of_guest(&g.id, 10).await)?;
    let ids: Vec<&str> = listed.iter().map(|t| t.id.as_str()).collect();
    check!(
        ids == [hosted.id.as_str(), mine.id.as_str()],
        "{}: newest first, only its own: {ids:?}",
        at("tables_of_guest")
    );
    let one = ok(&at("tables_of_guest"), store.tables_of_guest(&g.id, 1).await)?;
    check!(one.len() == 1 && one[0] == hosted, "{}: the limit: {one:?}", at("tables_of_guest"));

    let account = AccountRow {
        guest: g.id.clone(),
        username: "Cai_Lun".into(),
        username_key: unique("cai_lun_"),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        created_ms: 40,
    };
    let first = SessionRow {
        token_hash: unique("s"),
        guest: g.id.clone(),
        created_ms: 40,
        expires_ms: 1_000,
        revoked_ms: None,
    };
    ok(&at("claim_account"), store.claim_account(&account, &first).await)?;
    let gone = ok(&at("guest_by_token_hash"), store.guest_by_token_hash(&g.token_hash).await)?;
    check!(gone.is_none(), "{}: the claimed guest's own token still works: {gone:?}", at("claim_account"));
    let by_name = ok(&at("account_by_username"), store.account_by_username(&account.username_key).await)?;
    check!(by_name.as_ref() == Some(&account), "{}: {by_name:?}", at("account_by_username"));
    let by_guest = ok(&at("account_by_guest"), store.account_by_guest(&g.id).await)?;
    check!(by_guest.as_ref() == Some(&account), "{}: {by_guest:?}", at("account_by_guest"));
    check!(
        ok(&at("account_by_username"), store.account_by_username("no-such-user").await)?.is_none(),
        "{}: an unknown username",
        at("account_by_username")
    );
    let s = ok(&at("session_by_token_hash"), store.session_by_token_hash(&first.token_hash).await)?;
    check!(s.as_ref() == Some(&first), "{}: {s:?}", at("session_by_token_hash"));

    // A taken username key, or a second account of the guest, is a conflict, and nothing of it
    // is stored (not even its session).
    let g2 = GuestRow { id: unique("g"), name: "Du".into(), token_hash: unique("h"), created_ms: 6 };
    ok(&at("create_guest"), store.create_guest(&g2).await)?;
    let s2 = SessionRow { token_hash: unique("s"), guest: g2.id.clone(), ..first.clone() };
    let taken = AccountRow { guest: g2.id.clone(), username: "CAI_LUN".into(), ..account.clone() };
    let dup = store.claim_account(&taken, &s2).await;
    check!(
        matches!(dup, Err(StoreError::Conflict(_))),
        "{}: a taken username gave {dup:?}",
        at("claim_account")
    );
    check!(
        ok(&at("session_by_token_hash"), store.session_by_token_hash(&s2.token_hash).await)?.is_none(),
        "{}: a refused claim stored its session",
        at("claim_account")
    );
    check!(
        ok(&at("guest_by_token_hash"), store.guest_by_token_hash(&g2.token_hash).await)?.is_some(),
        "{}: a refused claim retired the guest's token",
        at("claim_account")
    );
    let twice = AccountRow { username_key: unique("other_"), ..account.clone() };
    let dup = store.claim_account(&twice, &s2).await;
    check!(
        matches!(dup, Err(StoreError::Conflict(_))),
        "{}: a second account gave {dup:?}",
        at("claim_account")
    );

    // Passwords and sessions.
    ok(&at("set_password"), store.set_password(&g.id, "$argon2id$new").await)?;
    let changed = ok(&at("account_by_guest"), store.account_by_guest(&g.id).await)?;
    check!(
        changed.is_some_and(|a| a.password_hash == "$argon2id$new"),
        "{}: the new hash was not stored",
        at("set_password")
    );
    let mut sessions = vec![first.clone()];
    for i in 0..2 {
        let s = SessionRow { token_hash: unique("s"), created_ms: 50 + i, ..first.clone() };
        ok(&at("create_session"), store.create_session(&s).await)?;
        sessions.push(s);
    }
    let dup = store.create_session(&sessions[1]).await;
    check!(
        matches!(dup, Err(StoreError::Conflict(_))),
        "{}: a reused token hash gave {dup:?}",
        at("create_session")
    );
    ok(&at("revoke_session"), store.revoke_session(&sessions[1].token_hash, 60).await)?;
    ok(&at("revoke_session"), store.revoke_session(&sessions[1].token_hash, 70).await)?;
    let s = ok(&at("session_by_token_hash"), store.session_by_token_hash(&sessions[1].token_hash).await)?;
    check!(
        s.is_some_and(|s| s.revoked_ms == Some(60)),
        "{}: revoked at its first revoking",
        at("revoke_session")
    );
    // All but the first: one left to revoke (the second is revoked already).
    let n = ok(&at("revoke_sessions"), store.revoke_sessions(&g.id, Some(&first.token_hash), 80).await)?;
    check!(n == 1, "{}: revoked {n} sessions, not 1", at("revoke_sessions"));
    let kept = ok(&at("session_by_token_hash"), store.session_by_token_hash(&first.token_hash).await)?;
    check!(
        kept.is_some_and(|s| s.revoked_ms.is_none()),
        "{}: the spared session was revoked",
        at("revoke_sessions")
    );
    let third = ok(&at("session_by_token_hash"), store.session_by_token_hash(&sessions[2].token_hash).await)?;
    check!(third.is_some_and(|s| s.revoked_ms == Some(80)), "{}: the third session", at("revoke_sessions"));
    let n = ok(&at("revoke_sessions"), store.revoke_sessions(&g.id, None, 90).await)?;
    check!(n == 1, "{}: everywhere revoked {n} sessions, not 1", at("revoke_sessions"));
    // Long after, revoking again deletes the long-revoked sessions.
    let late = 90 + super::SESSION_KEEP_MS + 1;
    ok(&at("revoke_sessions"), store.revoke_sessions(&g.id, None, late).await)?;
    let purged = ok(&at("session_by_token_hash"), store.session_by_token_hash(&first.token_hash).await)?;
    check!(purged.is_none(), "{}: a long-revoked session was kept: {purged:?}", at("revoke_sessions"));

    // Deleting: the games stay, under the neutral name; the username is free again.
    let live = SessionRow { token_hash: unique("s"), created_ms: 100, expires_ms: late * 2, ..first.clone() };
    ok(&at("create_session"), store.create_session(&live).await)?;
    ok(
        &at("append_chat"),
        store
            .append_chat(
                &hosted.id,
                &ChatRow {
                    seq: 0,
                    at_ms: 1,
                    guest: Some(g.id.clone()),
                    name: g.name.clone(),
                    seat: Some(0),
                    text: "hi".into(),
                },
            )
            .await,
    )?;
    // The public archive finds the finished game under the player's name, until the account goes.
    let by_name = |name: &str| super::ArchiveQuery {
        player: Some(super::PlayerMatch::Exact(table::archive::name_key(name))),
        from_ms: None,
        to_ms: None,
        after: None,
        limit: 100,
    };
    let found = ok(&at("archived_games"), store.archived_games(&by_name(&g.name)).await)?;
    check!(found.iter().any(|a| a.id == mine.id), "{}: the game is not in the archive", at("archived_games"));
    ok(&at("delete_account"), store.delete_account(&g.id, "deleted player").await)?;
    let found = ok(&at("archived_games"), store.archived_games(&by_name(&g.name)).await)?;
    check!(
        !found.iter().any(|a| a.id == mine.id),
        "{}: the archive still finds the game by the deleted account's name",
        at("delete_account")
    );
    let found = ok(&at("archived_games"), store.archived_games(&by_name("deleted player")).await)?;
    check!(
        found.iter().any(|a| a.id == mine.id && a.seats.iter().any(|s| s.name == "deleted player")),
        "{}: the archive's entry is not renamed: {found:?}",
        at("delete_account")
    );
    check!(
        ok(&at("account_by_guest"), store.account_by_guest(&g.id).await)?.is_none(),
        "{}: the account is still there",
        at("delete_account")
    );
    check!(
        ok(&at("session_by_token_hash"), store.session_by_token_hash(&live.token_hash).await)?.is_none(),
        "{}: a session is still there",
        at("delete_account")
    );
    let renamed = ok(&at("guest"), store.guest(&g.id).await)?;
    check!(renamed.is_some_and(|r| r.name == "deleted player"), "{}: the guest's name", at("delete_account"));
    // The table he created is named after him no more; another's table keeps its name.
    let named = ok(&at("table"), store.table(&hosted.id).await)?.map(|t| t.settings).unwrap_or_default();
    check!(
        named.contains("deleted player's table") && !named.contains(&g.name),
        "{}: the table's name: {named}",
        at("delete_account")
    );
    let kept = ok(&at("table"), store.table(&other.id).await)?.map(|t| t.settings).unwrap_or_default();
    check!(kept.contains("conformance"), "{}: another's table renamed: {kept}", at("delete_account"));
    let t = ok(&at("table"), store.table(&mine.id).await)?;
    check!(
        t.is_some_and(
            |t| t.seats[2] == SeatRow::Person { guest: g.id.clone(), name: "deleted player".into() }
        ),
        "{}: the seat's name",
        at("delete_account")
    );
    let rec = ok(&at("record"), store.record(&mine.id).await)?.unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&rec).map_err(|e| format!("{}: {e}", at("record")))?;
    check!(
        v["players"] == serde_json::json!(["Ann 安", "bot:random", "deleted player", "bot:heuristic"]),
        "{}: the record's players: {rec}",
        at("delete_account")
    );
    let chat = ok(&at("recent_chat"), store.recent_chat(&hosted.id, 5).await)?;
    check!(
        chat.len() == 1 && chat[0].name == "deleted player",
        "{}: the chat line's name: {chat:?}",
        at("delete_account")
    );
    let still = ok(&at("tables_of_guest"), store.tables_of_guest(&g.id, 10).await)?;
    check!(still.len() == 2, "{}: its tables are gone: {still:?}", at("delete_account"));
    let reuse = AccountRow { guest: g2.id.clone(), ..account.clone() };
    ok(&at("claim_account after delete"), store.claim_account(&reuse, &s2).await)?;
    ok(&at("delete_account of none"), store.delete_account("g-none", "x").await)?;
    Ok(())
}

/// The public archive: finished public games only, newest first, by name (any case, `%` and `_`
/// taken literally), a page at a time, by end time, with their records.
async fn archive(store: &dyn Store) -> Result<(), Failed> {
    use super::{ArchiveCursor, ArchiveQuery, PlayerMatch};
    // Names no other check uses, so that other rows of a shared database do not count.
    let tag = unique("p");
    let (ann, bo, odd) = (format!("Ann 安 {tag}"), format!("Bo {tag}"), format!("C%_y {tag}"));
    let since = super::now_ms();
    let mut finished = Vec::new();
    for (i, (private, players)) in [
        (false, [ann.clone(), "bot:random".into(), bo.clone(), "bot:heuristic".into()]),
        (true, [ann.clone(), bo.clone(), "bot:random".into(), "bot:random".into()]),
        (false, [bo.clone(), odd.clone(), "bot:random".into(), "bot:random".into()]),
        (false, ["bot:random".into(), "bot:random".into(), ann.to_uppercase(), "bot:random".into()]),
    ]
    .into_iter()
    .enumerate()
    {
        let id = unique("t");
        let mut row = table_row(&id, since);
        row.settings = format!(r#"{{"name":"archive {i}","private":{private}}}"#);
        ok("create_table", store.create_table(&row).await)?;
        let record =
            serde_json::json!({"format": "yezi/1", "game": "madiao", "players": players, "n": i}).to_string();
        if i % 2 == 0 {
            ok("finish_table", store.finish_table(&id, &record).await)?;
        } else {
            let w = store.write_step(&id, FIRST_EPOCH, &[Write::Finish { record: record.clone() }]).await;
            ok("write_step(finish)", w)?;
        }
        finished.push((id, private, record));
        // Distinct end times, so that the order is by time and not only by id.
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let public: Vec<&(String, bool, String)> = finished.iter().filter(|f| !f.1).collect();
    let ids = |games: &[super::ArchivedGame]| games.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
    let query = |player: Option<PlayerMatch>, limit| ArchiveQuery {
        player,
        from_ms: Some(since),
        to_ms: None,
        after: None,
        limit,
    };
    // Every public game, newest first; the private one never.
    let all = ok("archived_games", store.archived_games(&query(None, 100)).await)?;
    let want: Vec<String> = public.iter().rev().map(|f| f.0.clone()).collect();
    check!(ids(&all) == want, "newest first: got {:?}, want {want:?}", ids(&all));
    check!(all.windows(2).all(|w| w[0].finished_ms > w[1].finished_ms), "end times not decreasing: {all:?}");
    let first = all.last().ok_or_else(|| Failed("no games".into()))?;
    check!(
        first.name == "archive 0"
            && first.seats.len() == 4
            && first.seats[0].name == ann
            && !first.seats[0].bot
            && first.seats[1].name == "random"
            && first.seats[1].bot,
        "the entry read back: {first:?}"
    );
    // Search: any case, a part of a name; bots' names are not players' names.
    let by = |m: PlayerMatch| query(Some(m), 100);
    let got = ok("search", store.archived_games(&by(PlayerMatch::Contains(format!("ann 安 {tag}")))).await)?;
    check!(
        ids(&got) == [want[0].clone(), want[2].clone()],
        "search by a part of Ann's name: {:?}",
        ids(&got)
    );
    let got = ok("search", store.archived_games(&by(PlayerMatch::Contains(tag.clone()))).await)?;
    check!(ids(&got) == want, "search by the common part: {:?}", ids(&got));
    let got = ok("search", store.archived_games(&by(PlayerMatch::Contains(format!("%_y {tag}")))).await)?;
    check!(ids(&got) == [want[1].clone()], "search for % and _ literally: {:?}", ids(&got));
    let got = ok("search", store.archived_games(&by(PlayerMatch::Contains(format!("c__y {tag}")))).await)?;
    check!(got.is_empty(), "_ matched any character: {:?}", ids(&got));
    let got = ok("search", store.archived_games(&by(PlayerMatch::Exact(format!("bo {tag}")))).await)?;
    check!(ids(&got) == [want[1].clone(), want[2].clone()], "Bo's games: {:?}", ids(&got));
    let got = ok("search", store.archived_games(&by(PlayerMatch::Exact(format!("b {tag}")))).await)?;
    check!(got.is_empty(), "an exact name matched a part: {:?}", ids(&got));
    let got = ok("search", store.archived_games(&by(PlayerMatch::Contains("random".into()))).await)?;
    check!(got.iter().all(|g| !want.contains(&g.id)), "a bot's name matched: {:?}", ids(&got));
    // A page at a time.
    let mut seen = Vec::new();
    let mut after: Option<ArchiveCursor> = None;
    loop {
        let q = ArchiveQuery { after: after.clone(), ..query(None, 1) };
        let page = ok("archived_games(page)", store.archived_games(&q).await)?;
        check!(page.len() <= 1, "a page of {} for a limit of 1", page.len());
        let Some(g) = page.first() else { break };
        seen.push(g.id.clone());
        after = Some(ArchiveCursor::after(g));
        check!(seen.len() <= want.len(), "pages go on: {seen:?}");
    }
    check!(seen == want, "paged: {seen:?}, want {want:?}");
    // By end time: [from, to).
    let mid = all[1].finished_ms;
    let q = ArchiveQuery { from_ms: Some(mid), to_ms: Some(all[0].finished_ms), ..query(None, 100) };
    let got = ok("archived_games(time)", store.archived_games(&q).await)?;
    check!(ids(&got) == [want[1].clone()], "by end time: {:?}", ids(&got));
    // With their records.
    let recs = ok("archived_records", store.archived_records(&query(None, 100)).await)?;
    let want_records: Vec<(String, String)> =
        public.iter().rev().map(|f| (f.0.clone(), f.2.clone())).collect();
    let got: Vec<(String, String)> = recs.into_iter().map(|(g, r)| (g.id, r)).collect();
    check!(got == want_records, "records: {got:?}");
    Ok(())
}

/// The leases of a store shared by nodes: `a` holds `table` (it created it, epoch 1) and `b` is
/// another node on the same database.
async fn fencing(a: &dyn Store, b: &dyn Store, table: &str) -> Result<(), Failed> {
    check!(a.node() != b.node(), "two stores share the node name {:?}", a.node());
    let one = |seq: u64| [Write::Actions(vec![action(seq, 0, 0, r#"{"pass":true}"#)])];
    // A held table cannot be claimed by another node, nor written by it.
    let c = ok("claim_table", b.claim_table(table).await)?;
    check!(c.is_none(), "another node claimed a held table: {c:?}");
    let n = ok("actions", a.actions(table).await)?.len() as u64;
    let w = b.write_step(table, FIRST_EPOCH, &one(n)).await;
    check!(matches!(w, Err(StoreError::Fenced(_))), "a node that never held the table wrote: {w:?}");
    let holders = ok("holders", a.holders(&[table.to_string()]).await)?;
    check!(
        holders.len() == 1 && holders[0].1.node == a.node() && holders[0].1.epoch == FIRST_EPOCH,
        "holders: {holders:?}"
    );
    let held = ok("renew_leases", a.renew_leases().await)?;
    check!(matches!(&held, Held::Only(h) if h.contains(table)), "the holder's renewal: {held:?}");
    // The holder gives the table up; the other node claims it in a new epoch.
    ok("release", a.release(table, FIRST_EPOCH).await)?;
    let claimed = ok("claim_table", b.claim_table(table).await)?;
    let epoch: Epoch = match claimed {
        Some((row, e)) if row.id == table && e > FIRST_EPOCH => e,
        other => return Err(Failed(format!("the released table's claim gave {other:?}"))),
    };
    // The stale epoch's writes are refused, one statement or several, and change nothing.
    let w = a.write_step(table, FIRST_EPOCH, &one(n)).await;
    check!(matches!(w, Err(StoreError::Fenced(_))), "a stale epoch's move was written: {w:?}");
    let several = [
        Write::Actions(vec![action(n, 0, 0, r#"{"pass":true}"#)]),
        Write::Seat { seat: 0, owner: SeatRow::Open },
        Write::Status(TableStatus::Parked),
        Write::Chat(ChatRow {
            seq: 90,
            at_ms: 1,
            guest: None,
            name: "x".into(),
            seat: None,
            text: "y".into(),
        }),
        Write::Finish { record: "{}".into() },
    ];
    let w = a.write_step(table, FIRST_EPOCH, &several).await;
    check!(matches!(w, Err(StoreError::Fenced(_))), "a stale epoch's step was written: {w:?}");
    let w = b.write_step(table, epoch - 1, &one(n)).await;
    check!(matches!(w, Err(StoreError::Fenced(_))), "the new holder wrote with the old epoch: {w:?}");
    let after = ok("table", a.table(table).await)?;
    check!(
        after.as_ref().is_some_and(|t| t.status == TableStatus::Playing && t.seats[0] != SeatRow::Open),
        "a fenced step changed the table: {after:?}"
    );
    check!(ok("actions", a.actions(table).await)?.len() as u64 == n, "a fenced step changed the log");
    check!(
        ok("recent_chat", a.recent_chat(table, 100).await)?.iter().all(|m| m.seq != 90),
        "a fenced step stored its chat line"
    );
    // The new holder writes; the old one's renewal no longer holds the table.
    ok("write_step", b.write_step(table, epoch, &one(n)).await)?;
    check!(
        ok("actions", a.actions(table).await)?.len() as u64 == n + 1,
        "the new holder's move is not in the log"
    );
    let held = ok("renew_leases", a.renew_leases().await)?;
    check!(matches!(&held, Held::Only(h) if !h.contains(table)), "the old holder still holds it: {held:?}");
    let held = ok("renew_leases", b.renew_leases().await)?;
    check!(matches!(&held, Held::Only(h) if h.contains(table)), "the new holder lost it: {held:?}");
    let holders = ok("holders", a.holders(&[table.to_string()]).await)?;
    check!(
        holders.len() == 1 && holders[0].1.node == b.node() && holders[0].1.epoch == epoch,
        "holders after the claim: {holders:?}"
    );
    let again = ok("claim_table", a.claim_table(table).await)?;
    check!(again.is_none(), "a held table was claimed back: {again:?}");
    // Released again: two nodes racing for it, exactly one wins.
    ok("release", b.release(table, epoch).await)?;
    let (x, y) = tokio::join!(a.claim_table(table), b.claim_table(table));
    let won = [ok("claim_table", x)?, ok("claim_table", y)?].into_iter().flatten().count();
    check!(won == 1, "{won} nodes claimed the same table at once");
    Ok(())
}

/// Moderation: mutes and blocks (set once, listed in order, taken back, either way for blocks),
/// reports (newest first, counted per reporter), sanctions (in force until their end or until
/// lifted, each written with its log line), chat lines read and removed, and the log.
async fn moderation(store: &dyn Store) -> Result<(), Failed> {
    use super::moderation::{LogRow, Relation, ReportRow, SanctionKind, SanctionRow};
    let (a, b, c) = (unique("g"), unique("g"), unique("g"));
    // Mutes and blocks.
    check!(ok("mute", store.set_relation(Relation::Mute, &a, &b, true, 10).await)?, "a new mute is a change");
    check!(
        !ok("mute", store.set_relation(Relation::Mute, &a, &b, true, 11).await)?,
        "a mute twice is no change"
    );
    ok("mute", store.set_relation(Relation::Mute, &a, &c, true, 12).await)?;
    let muted = ok("relations", store.relations(Relation::Mute, &a).await)?;
    check!(muted == [b.clone(), c.clone()], "muted in order: {muted:?}");
    let blocked = ok("relations", store.relations(Relation::Block, &a).await)?;
    check!(blocked.is_empty(), "a mute is not a block: {blocked:?}");
    check!(
        ok("unmute", store.set_relation(Relation::Mute, &a, &b, false, 13).await)?,
        "an unmute is a change"
    );
    check!(!ok("unmute", store.set_relation(Relation::Mute, &a, &b, false, 14).await)?, "unmuting twice");
    let muted = ok("relations", store.relations(Relation::Mute, &a).await)?;
    check!(muted == [c.clone()], "after the unmute: {muted:?}");
    ok("block", store.set_relation(Relation::Block, &b, &a, true, 15).await)?;
    let between = ok("blocks_between", store.blocks_between(&a, &[b.clone(), c.clone()]).await)?;
    check!(between == [(b.clone(), a.clone())], "a block either way is found: {between:?}");
    let none = ok("blocks_between", store.blocks_between(&c, &[a.clone(), b.clone()]).await)?;
    check!(none.is_empty(), "no block of c: {none:?}");
    ok("unblock", store.set_relation(Relation::Block, &b, &a, false, 16).await)?;
    let none = ok("blocks_between", store.blocks_between(&a, std::slice::from_ref(&b)).await)?;
    check!(none.is_empty(), "after the unblock: {none:?}");

    // Chat lines: read one, remove one with its log line.
    let t = table_row(&unique("t"), 3_000);
    ok("create_table", store.create_table(&t).await)?;
    let line = ChatRow {
        seq: 0,
        at_ms: 5,
        guest: Some(b.clone()),
        name: "Bo".into(),
        seat: Some(2),
        text: "rude 粗".into(),
    };
    ok("append_chat", store.append_chat(&t.id, &line).await)?;
    let next = ChatRow { seq: 1, text: "fine".into(), ..line.clone() };
    ok("append_chat", store.append_chat(&t.id, &next).await)?;
    let read = ok("chat_line", store.chat_line(&t.id, 0).await)?;
    check!(read.as_ref() == Some(&line), "the chat line read back: {read:?}");
    check!(ok("chat_line", store.chat_line(&t.id, 7).await)?.is_none(), "no line 7");

    // Reports.
    let report = |id: &str, at: i64| ReportRow {
        id: id.to_string(),
        reporter: a.clone(),
        player: b.clone(),
        table: Some(t.id.clone()),
        chat_seq: Some(0),
        chat_text: Some("rude 粗".into()),
        reason: "insults 侮辱".into(),
        created_ms: at,
    };
    let (r1, r2) = (report(&unique("r"), 100), report(&unique("r"), 200));
    ok("add_report", store.add_report(&r1).await)?;
    ok(
        "add_report",
        store.add_report(&ReportRow { table: None, chat_seq: None, chat_text: None, ..r2.clone() }).await,
    )?;
    let dup = store.add_report(&r1).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "a report id twice: {dup:?}");
    let reports = ok("reports", store.reports(1000).await)?;
    let mine: Vec<&ReportRow> = reports.iter().filter(|r| r.reporter == a).collect();
    check!(mine.len() == 2 && mine[0].id == r2.id && *mine[1] == r1, "reports, newest first: {mine:?}");
    check!(mine[0].chat_seq.is_none() && mine[0].table.is_none(), "a report of a player: {:?}", mine[0]);
    check!(ok("reports_since", store.reports_since(&a, 150).await)? == 1, "one report since 150");
    check!(ok("reports_since", store.reports_since(&a, 0).await)? == 2, "two reports since 0");
    check!(ok("reports_since", store.reports_since(&b, 0).await)? == 0, "no report by b");

    // Sanctions and the log.
    let log = |action: &str, subject: &str, at: i64| LogRow {
        id: unique("m"),
        at_ms: at,
        by: "op 管理".into(),
        action: action.into(),
        subject: subject.into(),
        reason: "why 为何".into(),
    };
    let s1 = SanctionRow {
        id: unique("s"),
        kind: SanctionKind::MuteChat,
        subject: b.clone(),
        created_ms: 1_000,
        until_ms: 2_000,
        lifted_ms: None,
        reason: "spam".into(),
        by: "op 管理".into(),
    };
    let s2 = SanctionRow {
        id: unique("s"),
        kind: SanctionKind::BanAddress,
        subject: "203.0.113.9".into(),
        created_ms: 1_100,
        ..s1.clone()
    };
    let l1 = log("mute_chat", &b, 1_000);
    ok("add_sanction", store.add_sanction(&s1, &l1).await)?;
    ok("add_sanction", store.add_sanction(&s2, &log("ban_address", "203.0.113.9", 1_100)).await)?;
    // A sanction whose log line cannot be written is not stored either.
    let s3 = SanctionRow { id: unique("s"), ..s1.clone() };
    let dup = store.add_sanction(&s3, &l1).await;
    check!(matches!(dup, Err(StoreError::Conflict(_))), "a log id twice: {dup:?}");
    let subjects = [b.clone(), "203.0.113.9".to_string(), c.clone()];
    let on = ok("sanctions_on", store.sanctions_on(&subjects, 1_500).await)?;
    check!(on == [s1.clone(), s2.clone()], "in force at 1500: {on:?}");
    let on = ok("sanctions_on", store.sanctions_on(&subjects, 2_000).await)?;
    check!(on.is_empty(), "ended at 2000: {on:?}");
    check!(ok("lift", store.lift_sanction(&s1.id, &log("lift", &s1.id, 1_200)).await)?, "a sanction lifted");
    check!(
        !ok("lift", store.lift_sanction("s_none", &log("lift", "s_none", 1_200)).await)?,
        "no such sanction"
    );
    let on = ok("sanctions_on", store.sanctions_on(&subjects, 1_500).await)?;
    check!(on == [s2.clone()], "the lifted one is not in force: {on:?}");
    let all = ok("sanctions", store.sanctions(1000).await)?;
    let lifted = all.iter().find(|s| s.id == s1.id);
    check!(lifted.is_some_and(|s| s.lifted_ms == Some(1_200)), "the lifted sanction: {lifted:?}");
    check!(all.iter().all(|s| s.id != s3.id), "the sanction without its log line is not stored");

    check!(
        ok("remove_chat", store.remove_chat(&t.id, 0, &log("remove_chat", "line", 1_300)).await)?,
        "removed"
    );
    check!(
        !ok("remove_chat", store.remove_chat(&t.id, 0, &log("remove_chat", "line", 1_301)).await)?,
        "twice"
    );
    let left = ok("recent_chat", store.recent_chat(&t.id, 10).await)?;
    check!(left == [next.clone()], "the line is gone from the history: {left:?}");

    let lines = ok("moderation_log", store.moderation_log(1000).await)?;
    let ours: Vec<(&str, i64)> = lines
        .iter()
        .filter(|l| {
            [b.as_str(), "203.0.113.9", s1.id.as_str(), "line", "s_none"].contains(&l.subject.as_str())
        })
        .map(|l| (l.action.as_str(), l.at_ms))
        .collect();
    check!(
        ours == [("remove_chat", 1_300), ("lift", 1_200), ("ban_address", 1_100), ("mute_chat", 1_000)],
        "the log, newest first, one line an action done: {ours:?}"
    );
    check!(lines.iter().any(|l| l.by == "op 管理" && l.reason == "why 为何"), "who and why are kept");
    Ok(())
}
