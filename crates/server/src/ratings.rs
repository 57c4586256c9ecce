//! The rules of account ratings (`docs/ratings.md`), over the `rating` crate: the bots' fixed
//! ratings, and how a rated match that ended updates its players' stored ratings ([`settle`],
//! which every store runs in the same transaction as the table's finish). Pure: no storage, no
//! HTTP (the API is [`crate::api::ratings`]).

use std::collections::HashMap;

use cards::record::GameKind;
use rating::{Config, Entrant, Rating, rate_match};
use table::rated::{RatedMatch, RatedPlayer};
use wire::RatedOutcome;

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
    /// The rating (Glicko-2, on the familiar scale).
    pub rating: f64,
    /// Its deviation: how uncertain it is.
    pub deviation: f64,
    /// Its volatility: how much it is expected to move.
    pub volatility: f64,
    /// Rated matches played…
    pub games: u32,
    /// …won…
    pub wins: u32,
    /// …lost…
    pub losses: u32,
    /// …and drawn.
    pub draws: u32,
    /// When it last changed, milliseconds since the Unix epoch.
    pub updated_ms: i64,
}

/// One rated match of an account: its rating before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRow {
    /// The account's guest.
    pub guest: String,
    /// `madiao` or `dabaifen`.
    pub game: String,
    /// The table the match was played at.
    pub table: String,
    /// When it ended, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The account's rating before the match…
    pub before: Rating,
    /// …and after.
    pub after: Rating,
    /// The points of its games…
    pub score: f64,
    /// …and how many games (opponents) it had.
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

/// How many rated matches two accounts may share within [`PAIR_WINDOW_MS`] and still be rated
/// against each other: from the next one on, their game against each other counts for neither
/// (each is still rated against the match's other players). `docs/ratings.md`, "Repeated
/// results".
pub const PAIR_LIMIT: u32 = 2;

/// The window [`PAIR_LIMIT`] counts in: a day, in milliseconds, before the match's end.
pub const PAIR_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// How long a client address an account signed in from is kept (30 days, in milliseconds): two
/// accounts that both used one address in this window are not rated against each other
/// (`docs/ratings.md`, "Repeated results").
pub const ADDRESS_WINDOW_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// How many address hashes are kept per account (the newest).
pub const ADDRESS_LIMIT: i64 = 20;

/// Whether a client address is noted for [`ADDRESS_WINDOW_MS`]: not the server's own machine
/// (loopback: a proxy in front of it that is not declared with `--trusted-proxy`, through which
/// every client would seem to share one address) nor an unspecified one.
pub fn address_counts(ip: std::net::IpAddr) -> bool {
    !ip.is_loopback() && !ip.is_unspecified()
}

/// The pairs of distinct accounts among `guests`, each as the key [`settle`]'s `shared` map
/// uses (the smaller guest id first).
pub fn pairs(guests: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, a) in guests.iter().enumerate() {
        for b in &guests[i + 1..] {
            if a != b {
                out.push(pair(a, b));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The key of the pair `a`, `b` (either order).
pub fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b { (a.to_string(), b.to_string()) } else { (b.to_string(), a.to_string()) }
}

/// The new ratings of a rated match's accounts and their history rows, from their stored ratings:
/// `accounts` holds every person of the match that has an account (with its stored rating, if it
/// has one in this game); a person without an account (deleted during the match) is left out, as
/// is a bot without a calibrated rating. Bots play under [`bot_rating`] and never change.
/// `shared` counts, for pairs of the match's accounts (keyed by [`pair`]), the rated matches
/// they played together in the [`PAIR_WINDOW_MS`] before this one: a pair at [`PAIR_LIMIT`] or
/// more is not rated against each other (a pair missing from it shared none).
pub fn settle(
    table: &str,
    m: &RatedMatch,
    accounts: &HashMap<String, Option<RatingRow>>,
    shared: &HashMap<(String, String), u32>,
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
    // Whether entrants `i` and `j` are rated against each other: not two accounts that have
    // shared PAIR_LIMIT rated matches in the window already.
    let counts = |i: usize, j: usize| match (whose[i], whose[j]) {
        (Some(a), Some(b)) => shared.get(&pair(a, b)).is_none_or(|&n| n < PAIR_LIMIT),
        _ => true,
    };
    let mut out = Vec::new();
    for (i, guest) in whose.iter().enumerate() {
        let Some(guest) = guest else { continue };
        // The account's games are against the entrants it counts against; its rating moves by
        // those alone (every game is rated against the ratings before the match, so leaving a
        // pair out changes nobody else's).
        let mine: Vec<Entrant> =
            entrants.iter().enumerate().filter(|&(j, _)| j == i || counts(i, j)).map(|(_, e)| *e).collect();
        let at = entrants[..i].iter().enumerate().filter(|&(j, _)| counts(i, j)).count();
        let after = rate_match(&mine, &Config::default())?[at];
        let me = &entrants[i];
        let (score, opponents) = mine
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != at)
            .filter_map(|(_, them)| rating::matches::score(me, them))
            .fold((0.0, 0u32), |(s, n), x| (s + x, n + 1));
        let history = HistoryRow {
            guest: (*guest).clone(),
            game: game.clone(),
            table: table.to_string(),
            at_ms,
            before: me.rating,
            after,
            score,
            opponents,
            forfeited: me.forfeited,
        };
        out.push(stored(history, accounts.get(*guest).cloned().flatten()));
    }
    Ok(out)
}

/// An account's new stored rating from its history row of a rated match (or event) and the
/// rating it had (`None`: its first in the game): the new rating, and one more match won, lost
/// or drawn.
fn stored(history: HistoryRow, old: Option<RatingRow>) -> (RatingRow, HistoryRow) {
    let (mut wins, mut losses, mut draws, games) =
        old.as_ref().map_or((0, 0, 0, 0), |o| (o.wins, o.losses, o.draws, o.games));
    match history.outcome() {
        RatedOutcome::Win => wins += 1,
        RatedOutcome::Loss => losses += 1,
        RatedOutcome::Draw => draws += 1,
    }
    let row = RatingRow {
        guest: history.guest.clone(),
        game: history.game.clone(),
        rating: history.after.rating,
        deviation: history.after.deviation,
        volatility: history.after.volatility,
        games: games + 1,
        wins,
        losses,
        draws,
        updated_ms: history.at_ms,
    };
    (row, history)
}

/// One holder of a seat of a rated duplicate event (`docs/events.md`, "Rated events").
#[derive(Clone, Debug, PartialEq)]
pub struct EventPlayer {
    /// A person (his guest) or a bot.
    pub player: RatedPlayer,
    /// The table a person's history row names: his table on the event's last board.
    pub table: String,
}

/// One comparison of a rated duplicate event: on one board, the holders of one seat at two of
/// its tables (indices into [`RatedEvent::players`]) and their scores there; the higher score
/// wins, equal scores draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// The first holder…
    pub a: usize,
    /// …and the second.
    pub b: usize,
    /// The first's score on the board…
    pub a_score: f64,
    /// …and the second's.
    pub b_score: f64,
}

/// A rated duplicate event that is over, as ratings read it: every seat's holder and every
/// comparison of its boards (`crate::duplicate::EventDoc::rated_event` makes it).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEvent {
    /// The game (ratings are per game).
    pub game: GameKind,
    /// Every seat's holder, table by table.
    pub players: Vec<EventPlayer>,
    /// Every comparison of every board.
    pub comparisons: Vec<Comparison>,
}

impl RatedEvent {
    /// The guests of the event's people.
    pub fn persons(&self) -> Vec<String> {
        self.players
            .iter()
            .filter_map(|p| match &p.player {
                RatedPlayer::Person { guest, .. } => Some(guest.clone()),
                RatedPlayer::Bot(_) => None,
            })
            .collect()
    }

    /// The tables the people's history rows name (an event with any is rated already).
    pub fn history_tables(&self) -> Vec<String> {
        let mut t: Vec<String> = self
            .players
            .iter()
            .filter(|p| matches!(p.player, RatedPlayer::Person { .. }))
            .map(|p| p.table.clone())
            .collect();
        t.sort();
        t.dedup();
        t
    }
}

/// The new ratings of a rated duplicate event's accounts and their history rows
/// (`docs/events.md`, "Rated events"), as [`settle`] does for a match: the event is one rating
/// period; each comparison is one game for each of its two holders (a win for the higher score,
/// a draw for equal ones, scored by [`rating::matches::score`]), played against the other's
/// rating before the event — an account's stored one, a bot's fixed [`bot_rating`]. A person
/// without an account and a bot without a calibrated rating are left out, as is a pair of
/// accounts that `shared` puts at [`PAIR_LIMIT`]. Bots never change.
pub fn settle_event(
    event: &RatedEvent,
    accounts: &HashMap<String, Option<RatingRow>>,
    shared: &HashMap<(String, String), u32>,
    at_ms: i64,
) -> Result<Vec<(RatingRow, HistoryRow)>, rating::RatingError> {
    let game = game_name(event.game).to_string();
    for c in &event.comparisons {
        for x in [c.a_score, c.b_score] {
            if !x.is_finite() {
                return Err(rating::RatingError::Result(x));
            }
        }
    }
    // Each holder's rating before the event, and the account it is (`None`: a bot); `None`
    // for one left out.
    let rated: Vec<Option<(Rating, Option<&String>)>> = event
        .players
        .iter()
        .map(|p| match &p.player {
            RatedPlayer::Person { guest, .. } => {
                accounts.get(guest).map(|row| (rating_of(row.as_ref()), Some(guest)))
            }
            RatedPlayer::Bot(b) => bot_rating(event.game, b).map(|r| (r, None)),
        })
        .collect();
    let counts = |i: usize, j: usize| match (rated[i], rated[j]) {
        (Some((_, Some(a))), Some((_, Some(b)))) => {
            a != b && shared.get(&pair(a, b)).is_none_or(|&n| n < PAIR_LIMIT)
        }
        (Some(_), Some(_)) => true,
        _ => false,
    };
    let entrant =
        |rating: Rating, result: f64| Entrant { rating, fixed: false, side: None, result, forfeited: false };
    let mut out = Vec::new();
    for (i, holder) in rated.iter().enumerate() {
        let Some((before, Some(guest))) = holder else { continue };
        let mut games = Vec::new();
        for c in &event.comparisons {
            let (other, mine, theirs) = if c.a == i {
                (c.b, c.a_score, c.b_score)
            } else if c.b == i {
                (c.a, c.b_score, c.a_score)
            } else {
                continue;
            };
            if !counts(i, other) {
                continue;
            }
            let Some((opponent, _)) = rated[other] else { continue };
            let me = entrant(*before, mine);
            let them = entrant(opponent, theirs);
            if let Some(score) = rating::matches::score(&me, &them) {
                games.push(rating::Game { opponent, score });
            }
        }
        let after = rating::update(*before, &games, &Config::default())?;
        let history = HistoryRow {
            guest: (*guest).clone(),
            game: game.clone(),
            table: event.players[i].table.clone(),
            at_ms,
            before: *before,
            after,
            score: games.iter().map(|g| g.score).sum(),
            opponents: games.len() as u32,
            forfeited: false,
        };
        out.push(stored(history, accounts.get(*guest).cloned().flatten()));
    }
    Ok(out)
}

/// The refusal of a seat at a rated table (or of creating one) to a guest without an account.
pub fn account_required() -> wire::Refusal {
    wire::Refusal::new(
        wire::ErrorCode::AccountRequired,
        "only a guest with an account may play at a rated table: claim one (POST /api/account) or sign in",
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
        let opponents =
            |bot: &str| settle("t", &m(bot), &accounts, &HashMap::new(), 1).unwrap()[0].1.opponents;
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
        let out = settle("t1", &m, &accounts, &HashMap::new(), 99).unwrap();
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

    #[test]
    fn two_accounts_that_shared_the_limit_of_rated_matches_today_are_not_rated_against_each_other() {
        // The farm of issue 28: b joins a's rated table and leaves at once.
        let m = RatedMatch {
            game: GameKind::Madiao,
            seats: vec![
                seat(0, person("a"), 1.0, false),
                seat(1, person("b"), 0.0, true),
                seat(2, RatedPlayer::Bot("heuristic".into()), -2.0, false),
                seat(3, RatedPlayer::Bot("random".into()), 1.0, false),
            ],
        };
        let accounts: HashMap<String, Option<RatingRow>> =
            [("a".to_string(), None), ("b".to_string(), None)].into_iter().collect();
        let with = |n: u32| {
            let shared = [(pair("b", "a"), n)].into_iter().collect();
            settle("t", &m, &accounts, &shared, 1).unwrap()
        };
        for n in 0..PAIR_LIMIT {
            let out = with(n);
            assert_eq!((out[0].1.opponents, out[0].1.score), (3, 2.5), "a beats b by his forfeit");
            assert_eq!((out[1].1.opponents, out[1].1.score), (3, 0.0));
        }
        let out = with(PAIR_LIMIT);
        assert_eq!((out[0].1.opponents, out[0].1.score), (2, 1.5), "b is left out of a's games");
        assert_eq!((out[1].1.opponents, out[1].1.score), (2, 0.0), "a is left out of b's games");
        // a's rating is what the two bots alone give.
        let e = |rating, fixed, result, forfeited| Entrant { rating, fixed, side: None, result, forfeited };
        let alone = rate_match(
            &[
                e(Rating::new(&Config::default()), false, 1.0, false),
                e(bot_rating(GameKind::Madiao, "heuristic").unwrap(), true, -2.0, false),
                e(bot_rating(GameKind::Madiao, "random").unwrap(), true, 1.0, false),
            ],
            &Config::default(),
        )
        .unwrap();
        assert_eq!(out[0].1.after, alone[0]);
        assert!(out[0].0.rating < with(0)[0].0.rating, "the forfeit no longer lifts a");
        assert_eq!(
            pairs(&["b".into(), "a".into(), "c".into(), "a".into()]),
            [pair("a", "b"), pair("a", "c"), pair("b", "c")]
        );
    }
}
