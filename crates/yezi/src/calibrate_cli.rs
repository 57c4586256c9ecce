//! `yezi calibrate`: the bots' ratings on the players' scale, from whole matches between them
//! (`docs/ratings.md`). Each match seats the bots at random, plays it as a table would (the
//! standard rules, the same bots' budget), and every pair of seats that are not partners becomes
//! one game, won, drawn or lost as ratings count it. The games are fitted with the model behind
//! Glicko-2's expected score, one bot held at a fixed rating to anchor the scale.

use std::fmt::Write as _;
use std::time::Instant;

use ai::Budget;
use ai::players::{Player, play_hand};
use anyhow::{Context as _, bail};
use cards::Rng;
use cards::record::Variants;
use clap::Args;
use rating::{Entrant, Rating};
use serde::Serialize;
use table::game::TableGame;
use table::standings::MatchStandings;

use crate::GameArg;

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// The game.
    pub game: GameArg,
    /// The bots to rate, comma-separated (at least two).
    #[arg(long, default_value = "random,heuristic,pimc")]
    pub bots: String,
    /// How many matches.
    #[arg(long, default_value_t = 100)]
    pub matches: u64,
    /// The seed every match's seating, cards and bots come from.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Thinking per decision, in nominal milliseconds (tables give their bots 100).
    #[arg(long, default_value_t = 100)]
    pub think_ms: u32,
    /// Worker threads; the results are the same for any number.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The bot whose rating anchors the scale.
    #[arg(long, default_value = "heuristic")]
    pub anchor: String,
    /// The anchor's rating.
    #[arg(long, default_value_t = 1500.0)]
    pub anchor_rating: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The calibration's result.
#[derive(Debug, Serialize)]
pub struct Calibration {
    pub game: &'static str,
    pub matches: u64,
    pub seed: u64,
    pub think_ms: u32,
    pub anchor: String,
    pub bots: Vec<BotRating>,
    pub pairs: Vec<PairScore>,
    pub seconds: f64,
}

/// One bot's fitted rating.
#[derive(Debug, Serialize)]
pub struct BotRating {
    pub bot: String,
    pub rating: f64,
    /// Half the width of the 95% interval (0 for the anchor).
    pub margin: f64,
    /// Games against other bots.
    pub games: u64,
    /// Its score in them (wins + draws / 2).
    pub score: f64,
}

/// How two bots fared against each other.
#[derive(Debug, Serialize)]
pub struct PairScore {
    pub a: String,
    pub b: String,
    pub games: u64,
    /// A's score against B.
    pub score: f64,
}

/// Runs the calibration and prints its report.
pub fn calibrate(args: &CalibrateArgs) -> anyhow::Result<()> {
    let bots: Vec<String> = args.bots.split(',').map(|s| s.trim().to_string()).collect();
    if bots.len() < 2 {
        bail!("--bots needs at least two bots");
    }
    if let Some(b) = bots.iter().enumerate().find(|(i, b)| bots[..*i].contains(b)) {
        bail!("--bots names {} twice", b.1);
    }
    if !bots.contains(&args.anchor) {
        bail!("the anchor {} is not among --bots", args.anchor);
    }
    if !args.anchor_rating.is_finite() {
        bail!("--anchor-rating must be a number");
    }
    let c = match args.game {
        GameArg::Madiao => run::<ai::Madiao>(args, &bots, "madiao")?,
        GameArg::Dabaifen => run::<ai::Dabaifen>(args, &bots, "dabaifen")?,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&c)?);
    } else {
        print!("{}", text(&c));
    }
    Ok(())
}

/// The bots of match `m`: four seats drawn from the kinds, never all the same.
fn seating(seed: u64, m: u64, kinds: usize) -> [usize; 4] {
    let mut rng = Rng::from_seed_stream(seed, 1 << 40 | m);
    loop {
        let s = [0; 4].map(|_| rng.index(kinds));
        if s.iter().any(|&k| k != s[0]) {
            return s;
        }
    }
}

/// Plays match `m` and gives each seat's standing.
fn play_match<G: TableGame>(
    args: &CalibrateArgs,
    settings: &G::Settings,
    bots: &[String],
    m: u64,
) -> anyhow::Result<([usize; 4], [table::standings::Standing; 4])>
where
    G::Action: serde::de::DeserializeOwned,
{
    let seats = seating(args.seed, m, bots.len());
    let match_seed = Rng::from_seed_stream(args.seed, m).next_u64();
    let budget = Budget { think_ms: args.think_ms };
    let players = [0, 1, 2, 3].map(|s| {
        let seed = Rng::from_seed_stream(match_seed, 1 + s as u64).next_u64();
        Player::<G>::new(&bots[seats[s]], seed, budget)
    });
    if let Some(Err(e)) = players.iter().find(|p| p.is_err()) {
        bail!("{e}");
    }
    let mut players = players.map(|p| p.expect("checked above"));
    let mut game = G::new_match(settings, match_seed);
    let mut results = Vec::new();
    let mut hand = 0;
    while let Some(mut state) = G::start_hand(settings, &game, match_seed, hand, None) {
        play_hand::<G>(&mut state, &mut players, |_, _| {}).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        results.push(G::finish_hand(&mut game, &state).context("a hand ended unfinished")?);
        hand += 1;
        if hand > 100_000 {
            bail!("match {m} did not end");
        }
    }
    let standings = G::match_summary(&game, &results)
        .standings()
        .with_context(|| format!("match {m} ended without a result"))?;
    Ok((seats, standings))
}

fn run<G: TableGame>(args: &CalibrateArgs, bots: &[String], game: &'static str) -> anyhow::Result<Calibration>
where
    G::Action: serde::de::DeserializeOwned,
{
    let settings =
        G::settings("standard", &Variants::default(), (2, 2)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let start = Instant::now();
    let threads = args.threads.max(1) as u64;
    let mut played = Vec::with_capacity(args.matches as usize);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let settings = &settings;
                scope.spawn(move || {
                    (0..args.matches)
                        .filter(|m| m % threads == t)
                        .map(|m| play_match::<G>(args, settings, bots, m))
                        .collect::<anyhow::Result<Vec<_>>>()
                })
            })
            .collect();
        for w in workers {
            played.extend(w.join().map_err(|_| anyhow::anyhow!("a worker panicked"))??);
        }
        anyhow::Ok(())
    })?;
    let k = bots.len();
    let mut games = vec![vec![0u64; k]; k];
    let mut score = vec![vec![0f64; k]; k];
    let dummy = Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 };
    for (seats, standings) in &played {
        let entrants = standings.map(|s| Entrant {
            rating: dummy,
            fixed: false,
            side: s.side,
            result: s.result,
            forfeited: false,
        });
        for a in 0..4 {
            for b in a + 1..4 {
                let (ka, kb) = (seats[a], seats[b]);
                if ka == kb {
                    continue;
                }
                if let Some(s) = rating::matches::score(&entrants[a], &entrants[b]) {
                    games[ka][kb] += 1;
                    score[ka][kb] += s;
                }
            }
        }
    }
    let anchor = bots.iter().position(|b| *b == args.anchor).expect("checked");
    let (ratings, margins) = fit(&games, &score, anchor);
    let shift = args.anchor_rating - ratings[anchor];
    let mut pairs = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            pairs.push(PairScore {
                a: bots[a].clone(),
                b: bots[b].clone(),
                games: games[a][b] + games[b][a],
                score: score[a][b] + games[b][a] as f64 - score[b][a],
            });
        }
    }
    Ok(Calibration {
        game,
        matches: args.matches,
        seed: args.seed,
        think_ms: args.think_ms,
        anchor: args.anchor.clone(),
        bots: (0..k)
            .map(|i| BotRating {
                bot: bots[i].clone(),
                rating: ratings[i] + shift,
                margin: margins[i],
                games: (0..k).map(|j| games[i][j] + games[j][i]).sum(),
                score: (0..k).map(|j| score[i][j] + games[j][i] as f64 - score[j][i]).sum(),
            })
            .collect(),
        pairs,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The ratings (on the Elo scale, 400 points for odds of 10 to 1) that make the games most
/// likely, each pair given one drawn game more so that a bot that never lost stays finite; and
/// each rating's 95% margin with `anchor` held fixed.
pub fn fit(games: &[Vec<u64>], score: &[Vec<f64>], anchor: usize) -> (Vec<f64>, Vec<f64>) {
    let k = games.len();
    let n = |i: usize, j: usize| games[i][j] as f64 + games[j][i] as f64 + 1.0;
    let w = |i: usize| -> f64 {
        (0..k).filter(|&j| j != i).map(|j| score[i][j] + games[j][i] as f64 - score[j][i] + 0.5).sum()
    };
    let mut p = vec![1.0f64; k];
    for _ in 0..100_000 {
        let mut change = 0f64;
        for i in 0..k {
            let denom: f64 = (0..k).filter(|&j| j != i).map(|j| n(i, j) / (p[i] + p[j])).sum();
            let next = w(i) / denom;
            change = change.max((next / p[i]).ln().abs());
            p[i] = next;
        }
        let norm = p[anchor];
        p.iter_mut().for_each(|x| *x /= norm);
        if change < 1e-12 {
            break;
        }
    }
    let elo = 400.0 / std::f64::consts::LN_10;
    let ratings: Vec<f64> = p.iter().map(|x| x.ln() * elo).collect();
    // The information matrix of the log-strengths, without the anchor's row and column.
    let free: Vec<usize> = (0..k).filter(|&i| i != anchor).collect();
    let m = free.len();
    let mut info = vec![vec![0f64; m]; m];
    for (a, &i) in free.iter().enumerate() {
        for j in (0..k).filter(|&j| j != i) {
            let q = n(i, j) * p[i] * p[j] / ((p[i] + p[j]) * (p[i] + p[j]));
            info[a][a] += q;
            if let Some(b) = free.iter().position(|&f| f == j) {
                info[a][b] -= q;
            }
        }
    }
    let cov = invert(info);
    let mut margins = vec![0f64; k];
    for (a, &i) in free.iter().enumerate() {
        margins[i] = 1.96 * cov[a][a].max(0.0).sqrt() * elo;
    }
    (ratings, margins)
}

/// The inverse of a symmetric positive definite matrix (Gauss–Jordan).
fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for c in 0..n {
        let pivot = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap_or(c);
        a.swap(c, pivot);
        inv.swap(c, pivot);
        let d = a[c][c];
        if d == 0.0 {
            continue;
        }
        for j in 0..n {
            a[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                for j in 0..n {
                    a[r][j] -= f * a[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    inv
}

fn text(c: &Calibration) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} calibration: {} matches, seed {}, think {} ms, anchor {} ({:.1} s)",
        c.game, c.matches, c.seed, c.think_ms, c.anchor, c.seconds
    );
    let _ = writeln!(s, "  bot          rating   95% margin   games    score");
    for b in &c.bots {
        let _ = writeln!(
            s,
            "  {:<12} {:>6.0}   {:>10}   {:>5}   {:>6.1}",
            b.bot,
            b.rating,
            if b.margin == 0.0 { "anchor".to_string() } else { format!("±{:.0}", b.margin) },
            b.games,
            b.score
        );
    }
    let _ = writeln!(s, "  pairs (A's score against B):");
    for p in &c.pairs {
        let _ = writeln!(s, "    {} vs {}: {:.1} of {}", p.a, p.b, p.score, p.games);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bots: the likeliest gap is the Elo gap of their score's odds, the added draw counted.
    #[test]
    fn the_fit_gives_the_elo_gap_of_the_score() {
        // 99 games, 74 won by bot 0 and 25 by bot 1.
        let games = vec![vec![0, 99], vec![0, 0]];
        let score = vec![vec![0.0, 74.0], vec![0.0, 0.0]];
        let (r, margin) = fit(&games, &score, 1);
        // Bot 0's total: 74 + 0.5 of 100 games: odds 74.5 / 25.5.
        let expected = 400.0 * (74.5f64 / 25.5).log10();
        assert!((r[0] - r[1] - expected).abs() < 1e-6, "{r:?}");
        assert_eq!(margin[1], 0.0);
        assert!(margin[0] > 0.0 && margin[0] < 200.0, "{margin:?}");
    }

    #[test]
    fn three_bots_in_a_cycle_are_equal() {
        let games = vec![vec![0, 10, 0], vec![0, 0, 10], vec![10, 0, 0]];
        let score = vec![vec![0.0, 5.0, 0.0], vec![0.0, 0.0, 5.0], vec![5.0, 0.0, 0.0]];
        let (r, _) = fit(&games, &score, 0);
        assert!(r.iter().all(|x| x.abs() < 1e-6), "{r:?}");
    }

    #[test]
    fn seatings_mix_the_bots() {
        for m in 0..200 {
            let s = seating(7, m, 2);
            assert!(s.iter().any(|&k| k != s[0]));
        }
        assert_ne!(seating(7, 0, 3), seating(7, 1, 3));
    }
}
