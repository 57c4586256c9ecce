//! Checks of a tournament worked out here from the tables' records and `docs/tournaments.md`,
//! not by the server's code: each table's points from its record ("Points"), the standings their
//! sums, and a swiss round's pairing from the standings before it ("Swiss").

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use client::{Client, GuestToken, Socket};
use serde_json::{Value, json};

use super::{TestServer, play_randomly};

/// The tournament as `GET /api/tournaments/{id}` shows it.
pub async fn info(c: &Client, id: &str) -> Value {
    let (s, v) = c.get(&format!("/api/tournaments/{id}")).await.unwrap();
    assert_eq!(s, 200, "{v}");
    v
}

/// Joins the guest of `token` to `table` and plays his seat with random legal actions until its
/// match is over (within `limit`).
pub async fn play(addr: String, token: String, table: String, seed: u64, limit: Duration) {
    let c = Client::new(&addr);
    let mut s: Socket = c.connect_as(&token).await.unwrap();
    s.send(&json!({ "type": "join", "table": table })).await.unwrap();
    let sync = s
        .until(Duration::from_secs(10), "sync", |m| m["type"] == "sync" || m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(sync["type"], "sync", "{sync}");
    play_randomly(&mut s, seed, limit).await;
}

/// `n` new guests of `server`, named `{name} 0`, `{name} 1`, …
pub async fn new_guests(server: &TestServer, name: &str, n: usize) -> Vec<GuestToken> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(server.guest(&format!("{name} {i}")).await);
    }
    out
}

/// Makes the tournament `body`, hosted by the first of `players`, and enters every one of them;
/// returns the tournament as it was made.
pub async fn entered(c: &Client, body: &Value, players: &[GuestToken]) -> Value {
    let (s, made) = c.post("/api/tournaments", body, Some(&players[0].token)).await.unwrap();
    assert_eq!(s, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    for p in players {
        let (s, v) =
            c.post(&format!("/api/tournaments/{id}/join"), &json!({}), Some(&p.token)).await.unwrap();
        assert_eq!(s, 200, "{v}");
    }
    made
}

/// The people of a tournament's table, in seat order.
pub fn guests(t: &Value) -> Vec<String> {
    t["guests"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()).collect()
}

/// Waits (30 s at most) until the swiss `id` is in round `round` with all of its `tables` tables
/// made; returns the tournament then and the round's tables.
pub async fn until_round_paired(c: &Client, id: &str, round: u64, tables: usize) -> (Value, Vec<Value>) {
    let end = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let v = info(c, id).await;
        let this: Vec<Value> =
            v["tables"].as_array().unwrap().iter().filter(|t| t["round"] == round).cloned().collect();
        if v["round"] == round && this.iter().filter(|t| t["table"].is_string()).count() == tables {
            return (v, this);
        }
        assert!(tokio::time::Instant::now() < end, "round {round} was not paired: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Checks that each of a round's `tables` seats the pairing's people (no bots: the players fill
/// them), each once, at a `game` table, seat by seat; then plays every seat with random legal
/// actions (seeded `seed_base` plus the table's place times four plus the seat), a match within
/// `limit`. Returns the players' tasks.
pub async fn seat_and_play(
    c: &Client,
    round: u64,
    tables: &[Value],
    game: &str,
    by_id: &HashMap<String, GuestToken>,
    seed_base: u64,
    limit: Duration,
) -> Vec<tokio::task::JoinHandle<()>> {
    let mut seated = HashSet::new();
    let mut games = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        assert_eq!(t["bots"], 0, "the players fill the tables: {t}");
        let people = guests(t);
        assert_eq!(people.len(), 4, "{t}");
        let table = t["table"].as_str().unwrap().to_string();
        let (s, summary) = c.get(&format!("/api/tables/{table}")).await.unwrap();
        assert_eq!(s, 200);
        assert_eq!(summary["game"], game, "{summary}");
        let seat_guests: Vec<String> = summary["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["guest"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(seat_guests, people, "the table's seats are the pairing's");
        for (k, g) in people.iter().enumerate() {
            assert!(seated.insert(g.clone()), "round {round}: {g} seated twice");
            let seed = seed_base + (i * 4 + k) as u64;
            games.push(tokio::spawn(play(
                c.addr().to_string(),
                by_id[g].token.clone(),
                table.clone(),
                seed,
                limit,
            )));
        }
    }
    assert_eq!(seated.len(), by_id.len(), "everyone seated in round {round}");
    games
}

/// Waits (30 s at most) until all `tables` tables of the swiss `id`'s round `round` are scored,
/// then checks each table's points against its record (`scored` keeps those read), the
/// standings as their sums, every player's `round` matches, and 6 points a table in all. Returns
/// the tournament then.
pub async fn until_round_scored(
    server: &TestServer,
    id: &str,
    round: u64,
    tables: usize,
    scored: &mut HashMap<String, Vec<f64>>,
) -> Value {
    let c = &server.client;
    let end = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let v = info(c, id).await;
        let over = v["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["round"] == round && t["points"].is_array())
            .count();
        if over == tables {
            points_from_records(server, &v, scored).await;
            check_standings_from(&v, scored);
            for s in v["standings"].as_array().unwrap() {
                assert_eq!(s["matches"], round, "{s}");
            }
            let total: f64 =
                v["standings"].as_array().unwrap().iter().map(|s| s["points"].as_f64().unwrap()).sum();
            assert_eq!(
                total,
                6.0 * (tables as u64 * round) as f64,
                "6 points a table, {tables} tables a round"
            );
            return v;
        }
        assert!(tokio::time::Instant::now() < end, "round {round} was not scored: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Plays the arena `id` (its window closing at `ends`, epoch ms) as its `players` would: each finds
/// his unfinished table (never two at once), plays it with random legal actions (a match within
/// `limit`), and again, until the arena is over; it must be over `grace_ms` after its window.
/// Checks that every table has four seats, its people and bots, and that the people played as
/// many matches as the tables list; returns the finished arena.
pub async fn play_arena(
    c: &Client,
    id: &str,
    players: &[GuestToken],
    ends: i64,
    grace_ms: i64,
    limit: Duration,
) -> Value {
    let mut tasks = Vec::new();
    for (k, p) in players.iter().enumerate() {
        let (addr, p, id) = (c.addr().to_string(), p.clone(), id.to_string());
        tasks.push(tokio::spawn(async move {
            let c = Client::new(&addr);
            let mut played: HashSet<String> = HashSet::new();
            let mut n = 0u64;
            loop {
                let v = info(&c, &id).await;
                if v["status"] == "finished" {
                    return played.len();
                }
                assert!(v["now_ms"].as_i64().unwrap() < ends + grace_ms, "the arena did not finish: {v}");
                let mine: Vec<&Value> = v["tables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|t| {
                        t["points"].is_null()
                            && t["guests"].as_array().unwrap().iter().any(|g| g == p.id.as_str())
                    })
                    .collect();
                assert!(mine.len() <= 1, "{} at two unfinished tables: {mine:?}", p.name);
                if let Some(table) = mine.first().and_then(|t| t["table"].as_str())
                    && played.insert(table.to_string())
                {
                    n += 1;
                    play(addr.clone(), p.token.clone(), table.to_string(), k as u64 * 1000 + n, limit).await;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    let mut matches = 0;
    for t in tasks {
        matches += t.await.unwrap();
    }
    let v = info(c, id).await;
    assert_eq!(v["status"], "finished", "{v}");
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(matches, tables.iter().map(|t| t["guests"].as_array().unwrap().len()).sum::<usize>());
    for t in tables {
        let people = t["guests"].as_array().unwrap().len();
        assert_eq!(people as u64 + t["bots"].as_u64().unwrap(), 4);
    }
    v
}

/// Waits (10 s at most) until the tournament `id` is finished.
pub async fn until_finished(c: &Client, id: &str) {
    let end = tokio::time::Instant::now() + Duration::from_secs(10);
    while info(c, id).await["status"] != "finished" {
        assert!(tokio::time::Instant::now() < end, "the tournament did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The four seats' results of a finished match, read from its record (`docs/record.md`) as
/// `docs/tournaments.md` ("Points") scores them: Madiao, the chips each seat won (each hand's
/// payoffs, in stakes, times its stake, 2 when not written); Da Bai Fen, 1 for both seats of
/// the team the hand that ends the game names as its winner (team 0: seats 0 and 2), 0 for the
/// other team.
pub fn record_results(rec: &Value) -> [f64; 4] {
    let hands = rec["hands"].as_array().expect("hands");
    let last = &hands.last().expect("a hand")["result"];
    assert_eq!(last["game_over"], true, "a finished match's last hand ends it: {last}");
    match rec["game"].as_str() {
        Some("madiao") => {
            let mut chips = [0.0; 4];
            for h in hands {
                let stake = h["stake"].as_f64().unwrap_or(2.0);
                let payoffs = h["result"]["payoffs"].as_array().expect("payoffs");
                assert_eq!(payoffs.len(), 4, "{h}");
                for (c, p) in chips.iter_mut().zip(payoffs) {
                    *c += p.as_f64().unwrap() * stake;
                }
            }
            chips
        }
        Some("dabaifen") => {
            let winner = last["winner"].as_u64().expect("the team that won the game");
            [0, 1, 2, 3].map(|s| if s % 2 == winner { 1.0 } else { 0.0 })
        }
        other => panic!("a record of {other:?}"),
    }
}

/// Points by the rule of `docs/tournaments.md`: one for each other seat a seat finished above,
/// a half for each it tied.
pub fn points_of(results: &[f64; 4]) -> [f64; 4] {
    let mut out = [0.0; 4];
    for (i, r) in results.iter().enumerate() {
        for (j, o) in results.iter().enumerate() {
            if i != j {
                out[i] += if r > o {
                    1.0
                } else if r == o {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    out
}

/// The record of `table`, once the server serves it.
pub async fn record(server: &TestServer, table: &str) -> Value {
    let text = server.record_within(table, Duration::from_secs(30)).await.unwrap_or_else(|| {
        panic!("the record of the finished table {table}");
    });
    serde_json::from_str(&text).unwrap()
}

/// Every finished table of the tournament `v` scored from its record: the points of its people
/// (seats 0, 1, … in the order the table lists them) as the record gives them, checked against
/// the table's points; `known` keeps the tables read before. Returns each table's people's
/// points from the records.
pub async fn points_from_records(
    server: &TestServer,
    v: &Value,
    known: &mut HashMap<String, Vec<f64>>,
) -> HashMap<String, Vec<f64>> {
    for t in v["tables"].as_array().unwrap() {
        let Some(shown) = t["points"].as_array() else { continue };
        let table = t["table"].as_str().expect("a scored table was made").to_string();
        if !known.contains_key(&table) {
            let rec = record(server, &table).await;
            let people = t["guests"].as_array().unwrap().len();
            let mine = points_of(&record_results(&rec))[..people].to_vec();
            known.insert(table.clone(), mine);
        }
        let mine = &known[&table];
        let shown: Vec<f64> = shown.iter().map(|p| p.as_f64().unwrap()).collect();
        assert_eq!(&shown, mine, "table {table}: the points shown, and the record's ({t})");
    }
    known.clone()
}

/// The standings of `v` are the sums, per player, of the points the records give (`scored`,
/// by table), sorted, ranked 1, 2, …
pub fn check_standings_from(v: &Value, scored: &HashMap<String, Vec<f64>>) {
    let mut sums: HashMap<String, f64> = HashMap::new();
    for t in v["tables"].as_array().unwrap() {
        let Some(table) = t["table"].as_str() else { continue };
        let Some(points) = scored.get(table) else { continue };
        for (g, p) in t["guests"].as_array().unwrap().iter().zip(points) {
            *sums.entry(g.as_str().unwrap().to_string()).or_insert(0.0) += p;
        }
    }
    let st = v["standings"].as_array().unwrap();
    for (i, s) in st.iter().enumerate() {
        let g = s["guest"].as_str().unwrap();
        let p = s["points"].as_f64().unwrap();
        let want = sums.get(g).copied().unwrap_or(0.0);
        assert!((p - want).abs() < 1e-9, "{g}: {p} points in the standings, the records give {want}");
        assert_eq!(s["rank"].as_u64().unwrap(), i as u64 + 1);
        if i > 0 {
            assert!(st[i - 1]["points"].as_f64().unwrap() >= p, "sorted by points");
        }
    }
    let players: HashSet<&str> = st.iter().map(|s| s["guest"].as_str().unwrap()).collect();
    for g in sums.keys() {
        assert!(players.contains(g.as_str()), "{g} scored but is not in the standings");
    }
}

/// An unordered pair.
fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b { (a.to_string(), b.to_string()) } else { (b.to_string(), a.to_string()) }
}

/// The pairs of players who shared a table in the swiss `v`'s rounds before `round`.
pub fn met_before(v: &Value, round: u64) -> HashSet<(String, String)> {
    let mut met = HashSet::new();
    for t in v["tables"].as_array().unwrap() {
        if t["round"].as_u64().unwrap() >= round {
            continue;
        }
        let g: Vec<&str> = t["guests"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
        for (i, a) in g.iter().enumerate() {
            for b in &g[i + 1..] {
                met.insert(pair(a, b));
            }
        }
    }
    met
}

/// The swiss `v`'s standings order before round `round`, worked out from the points of the
/// earlier rounds' tables (`scored`, from the records): points, then the tie-break (over every
/// table he finished, the points of his table mates), then rating, then id.
pub fn order_before(v: &Value, round: u64, scored: &HashMap<String, Vec<f64>>) -> Vec<String> {
    let earlier: Vec<(Vec<String>, &Vec<f64>)> = v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["round"].as_u64().unwrap() < round)
        .map(|t| {
            let table = t["table"].as_str().unwrap();
            let guests = t["guests"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string());
            (
                guests.collect(),
                scored.get(table).unwrap_or_else(|| panic!("{table} scored before round {round}")),
            )
        })
        .collect();
    let mut points: HashMap<&str, f64> = HashMap::new();
    for (guests, pts) in &earlier {
        for (g, p) in guests.iter().zip(pts.iter()) {
            *points.entry(g).or_insert(0.0) += p;
        }
    }
    let mut tiebreak: HashMap<&str, f64> = HashMap::new();
    for (guests, _) in &earlier {
        for g in guests {
            let mates: f64 = guests.iter().filter(|m| *m != g).map(|m| points[m.as_str()]).sum();
            *tiebreak.entry(g).or_insert(0.0) += mates;
        }
    }
    let mut lines: Vec<(String, f64, f64, f64)> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let g = s["guest"].as_str().unwrap();
            let p = points.get(g).copied().unwrap_or(0.0);
            let t = tiebreak.get(g).copied().unwrap_or(0.0);
            (g.to_string(), p, t, s["rating"].as_f64().unwrap())
        })
        .collect();
    lines.sort_by(|a, b| {
        b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)).then(b.3.total_cmp(&a.3)).then(a.0.cmp(&b.0))
    });
    lines.into_iter().map(|l| l.0).collect()
}

/// Checks a swiss round's tables (`tables`, each its people in seat order) against the rule of
/// `docs/tournaments.md`, "Swiss", from the standings order before it (`order`) and the pairs
/// who met (`met`):
/// - `ceil(n / 4)` tables, as even as can be, the larger first; everyone at one table;
/// - each table headed (seat 0) by the best placed player not seated at the tables before it;
/// - when a round without repeated table mates exists, the round has none, and each of its seats
///   went to the best placed player who could take it: every better placed player left out of
///   a table he could have joined (he had met no one at it) is one with whom the rest of the
///   round could not have been paired without a repeat;
/// - when none exists, each seat went to the player left with the fewest table mates met at
///   that table, the best placed of equals.
///
/// So the players sit with those nearest them in the standings that the no-repeat rule allows.
pub fn check_pairing(order: &[String], met: &HashSet<(String, String)>, tables: &[Vec<String>]) {
    let n = order.len();
    let at: HashMap<&str, usize> = order.iter().enumerate().map(|(i, g)| (g.as_str(), i)).collect();
    let count = n.div_ceil(4);
    let sizes: Vec<usize> = (0..count).map(|i| n / count + usize::from(i < n % count)).collect();
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), sizes, "the tables' sizes: {tables:?}");
    let idx: Vec<Vec<usize>> = tables
        .iter()
        .map(|t| {
            t.iter().map(|g| *at.get(g.as_str()).unwrap_or_else(|| panic!("{g} is no player"))).collect()
        })
        .collect();
    let mut seen = HashSet::new();
    for i in idx.iter().flatten() {
        assert!(seen.insert(*i), "{} seated twice: {tables:?}", order[*i]);
    }
    let clash = |a: usize, b: usize| met.contains(&pair(&order[a], &order[b]));
    let mut used = vec![false; n];
    if completes(&clash, &sizes, &mut used, &mut Vec::new()) {
        let mut used = vec![false; n];
        for (k, t) in idx.iter().enumerate() {
            let head = (0..n).find(|&i| !used[i]).unwrap();
            assert_eq!(t[0], head, "table {k} is headed by {} ({order:?}): {tables:?}", order[head]);
            let mut sorted = t.clone();
            sorted.sort();
            let mut table = vec![head];
            used[head] = true;
            for &actual in &sorted[1..] {
                for c in table.last().unwrap() + 1..actual {
                    if used[c] || table.iter().any(|&m| clash(m, c)) {
                        continue;
                    }
                    used[c] = true;
                    table.push(c);
                    let could = completes(&clash, &sizes[k..], &mut used, &mut table);
                    table.pop();
                    used[c] = false;
                    assert!(
                        !could,
                        "table {k}: {} is better placed than {} and could have sat at it ({order:?}): {tables:?}",
                        order[c], order[actual]
                    );
                }
                assert!(
                    table.iter().all(|&m| !clash(m, actual)),
                    "table {k}: {} met someone at it before, and a round without repeats exists: {tables:?}",
                    order[actual]
                );
                used[actual] = true;
                table.push(actual);
            }
        }
    } else {
        // The fallback: the fewest repeats seat by seat.
        let mut used = vec![false; n];
        for (k, (t, &size)) in idx.iter().zip(&sizes).enumerate() {
            let head = (0..n).find(|&i| !used[i]).unwrap();
            used[head] = true;
            let mut want = vec![head];
            while want.len() < size {
                let c = (0..n)
                    .filter(|&c| !used[c])
                    .min_by_key(|&c| (want.iter().filter(|&&m| clash(m, c)).count(), c))
                    .unwrap();
                used[c] = true;
                want.push(c);
            }
            assert_eq!(t[0], head, "table {k}'s head ({order:?}): {tables:?}");
            let (mut a, mut b) = (t.clone(), want.clone());
            a.sort();
            b.sort();
            let names = |x: &[usize]| x.iter().map(|&i| order[i].clone()).collect::<Vec<_>>();
            assert_eq!(names(&a), names(&b), "table {k}, the fewest repeats ({order:?}, met {met:?})");
        }
    }
}

/// True when the current table (`table`, its people ascending; its size `sizes[0]`) and the
/// tables of `sizes[1..]` can be filled from the players not `used` with no two who met at one
/// table, each table headed by the best placed player left.
fn completes(
    clash: &dyn Fn(usize, usize) -> bool,
    sizes: &[usize],
    used: &mut [bool],
    table: &mut Vec<usize>,
) -> bool {
    let Some(&size) = sizes.first() else { return true };
    if table.is_empty() {
        let Some(head) = (0..used.len()).find(|&i| !used[i]) else { return false };
        used[head] = true;
        table.push(head);
        let ok = completes(clash, sizes, used, table);
        table.pop();
        used[head] = false;
        return ok;
    }
    if table.len() == size {
        return sizes.len() == 1 || completes(clash, &sizes[1..], used, &mut Vec::new());
    }
    let from = table.last().map_or(0, |&l| l + 1);
    for c in from..used.len() {
        if used[c] || table.iter().any(|&m| clash(m, c)) {
            continue;
        }
        used[c] = true;
        table.push(c);
        let ok = completes(clash, sizes, used, table);
        table.pop();
        used[c] = false;
        if ok {
            return true;
        }
    }
    false
}
