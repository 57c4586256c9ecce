//! Resamples (`ai::resample`) at every decision point of many hands, for the seat to move or for
//! every seat, and reports the failures and the time per resample (a measurement, not a test).
//!
//! ```sh
//! cargo run --release -p ai --example resample_sweep -- dabaifen 5000 policy,heuristic
//! cargo run --release -p ai --example resample_sweep -- dabaifen 1000 policy all match revoke=refuse
//! cargo run --release -p ai --example resample_sweep -- madiao 2000 random,heuristic all
//! ```
//!
//! Arguments, in order: the game; the number of deals; the players, one name per seat (repeated
//! round the table): a registry bot or `policy` (the engine's random policy, which also declines
//! annulments, makes multi-card leads and now and then revokes); `mover` (default) or `all` (every
//! seat); for Da Bai Fen, `arena` (default: the arena's deals, later deals with random ranks) or
//! `match` (matches played on from their first deal, so first, later and open deals); then any
//! number of `variant=value`.
//! Deal `i` is the same for any player names; the resampler is seeded with `i`.

use std::time::Instant;

use ai::arena::Scheme;
use ai::resample::ResampleError;
use ai::{Bot, Budget, Dabaifen, Game, Madiao, Registry};
use cards::{Rng, Seat};

/// A game's engine-side random policy, for the `policy` player.
type Policy<G> = Box<dyn FnMut(&<G as Game>::State) -> <G as Game>::Action>;

/// A game's resampler.
type Resampler<G> = fn(&<G as Game>::State, Seat, &mut Rng) -> Result<<G as Game>::State, ResampleError>;

/// How a game is swept, and what the sweep gathered.
struct Sweep<'a, G: Game> {
    /// The player names, one a seat, repeated round the table.
    names: &'a [&'a str],
    /// Every seat resampled, not only the seat to move.
    all_seats: bool,
    resample: Resampler<G>,
    /// True when two states look the same to a seat.
    same_view: fn(&G::State, &G::State, Seat) -> bool,
    calls: u64,
    failures: u64,
    micros: Vec<f64>,
}

impl<'a, G: Registry> Sweep<'a, G> {
    /// A sweep with nothing gathered yet.
    fn new(
        names: &'a [&'a str],
        all_seats: bool,
        resample: Resampler<G>,
        same_view: fn(&G::State, &G::State, Seat) -> bool,
    ) -> Self {
        Sweep { names, all_seats, resample, same_view, calls: 0, failures: 0, micros: Vec::new() }
    }

    /// Plays `state` to the end, resampling before every decision.
    fn hand(&mut self, mut state: G::State, deal: u64, policy: &mut Policy<G>) -> G::State {
        let mut bots: Vec<Option<Box<dyn Bot<G>>>> = (0..4u64)
            .map(|s| {
                let name = self.names[s as usize % self.names.len()];
                (name != "policy")
                    .then(|| G::bot(name, deal * 4 + s, Budget { think_ms: 5 }).expect("a bot name"))
            })
            .collect();
        let mut rng = Rng::from_seed(deal);
        while let Some(mover) = G::to_move(&state) {
            let seats = if self.all_seats { Seat::ALL.to_vec() } else { vec![mover] };
            for seat in seats {
                let t = Instant::now();
                let r = (self.resample)(&state, seat, &mut rng);
                self.micros.push(t.elapsed().as_secs_f64() * 1e6);
                self.calls += 1;
                match r {
                    Ok(s) if (self.same_view)(&s, &state, seat) && G::to_move(&s) == Some(mover) => {}
                    Ok(_) => {
                        self.failures += 1;
                        println!("deal {deal}, {seat} ({mover} to move): the resample changed the view");
                    }
                    Err(e) => {
                        self.failures += 1;
                        println!("deal {deal}, {seat} ({mover} to move): {e}");
                    }
                }
            }
            let legal = G::legal_actions(&state);
            let a = match &mut bots[mover.index()] {
                Some(b) => b.choose(&G::view(&state, mover), &legal),
                None => policy(&state),
            };
            G::apply(&mut state, a).expect("a legal action");
        }
        state
    }

    fn report(&mut self, game: &str, deals: u64) {
        let t = &mut self.micros;
        t.sort_by(f64::total_cmp);
        let q = |p: f64| t[((t.len() - 1) as f64 * p) as usize];
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        println!(
            "{game}: {deals} deals, {} resamples, {} failed; µs per resample: median {:.1}, mean {:.1}, p99 {:.1}, max {:.1}",
            self.calls,
            self.failures,
            q(0.5),
            mean,
            q(0.99),
            q(1.0)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map_or("dabaifen", String::as_str);
    let deals: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let names: Vec<&str> = args.get(2).map_or("heuristic", String::as_str).split(',').collect();
    let all_seats = args.iter().any(|a| a == "all");
    let chained = args.iter().any(|a| a == "match");
    let settings: Vec<(&str, &str)> = args.iter().skip(3).filter_map(|a| a.split_once('=')).collect();
    match game {
        "dabaifen" => {
            let mut variants = dabaifen::Variants::STANDARD;
            for (k, v) in &settings {
                variants.set(k, v).expect("a Da Bai Fen variant");
            }
            let mut sweep = Sweep::<Dabaifen>::new(&names, all_seats, ai::resample::dabaifen, |a, b, s| {
                a.view(s) == b.view(s)
            });
            let mut m = dabaifen::Match::new(variants, Seat::ALL[0]);
            for i in 0..deals {
                let mut random = dabaifen::random::RandomPolicy::new(Rng::from_seed_stream(i, 1));
                let mut policy: Policy<Dabaifen> = Box::new(move |st| random.choose(st));
                let state = if chained {
                    if m.is_over() {
                        m = dabaifen::Match::new(variants, Seat::wrapping(i as usize % 4));
                    }
                    dabaifen::State::new(&m.setup(dabaifen::deck_from_seed(7, i))).expect("a match's setup")
                } else {
                    Dabaifen::start(&Dabaifen::deal(&variants, 1, i), 0)
                };
                let end = sweep.hand(state, i, &mut policy);
                if let Some(r) = end.result() {
                    m.record(r);
                }
            }
            sweep.report(game, deals);
        }
        "madiao" => {
            let mut rules = ai::arena::madiao::MadiaoRules::default();
            for (k, v) in &settings {
                rules.variants.set(k, v).expect("a Madiao variant");
            }
            let mut sweep = Sweep::<Madiao>::new(&names, all_seats, ai::resample::madiao, |a, b, s| {
                a.view(s) == b.view(s)
            });
            for i in 0..deals {
                let deal = Madiao::deal(&rules, 1, i);
                let sampler = madiao::random::Sampler::from(madiao::random::RandomPolicy::default());
                let mut prng = Rng::from_seed_stream(i, 1);
                let mut policy: Policy<Madiao> =
                    Box::new(move |st| sampler.choose(st, &mut prng).expect("a hand not over"));
                let mut hand = 0;
                loop {
                    let end = sweep.hand(Madiao::start(&deal, hand), i, &mut policy);
                    hand += 1;
                    if !Madiao::another_hand(&deal, &end, hand) {
                        break;
                    }
                }
            }
            sweep.report(game, deals);
        }
        other => panic!("unknown game {other:?} (madiao or dabaifen)"),
    }
}
