//! Madiao's duplicate scheme: seat substitution.
//!
//! Deal `i` of seed `S`: the banker is seat `i mod 4` (the bank rotates over the deals, so every
//! seat banks equally often) and the deck is [`::madiao::deck_from_seed`]`(S, 32·i)`. It is played
//! in five runs: four baseline bots (`"baseline"`), then for each seat `s` the candidate in seat
//! `s` among three baseline bots (`"A in seat s"`).
//!
//! A long-suit redeal (§4.3) keeps the banker and deals again, as in a match: the run goes on with
//! hand `h` of the deal, deck `deck_from_seed(S, 32·i + h)`, until a hand ends otherwise (after 31
//! redeals in a row the last hand stands: its payoff is 0). Every run of the deal sees the same
//! decks, so runs that redeal alike stay comparable. A run's payoff for a seat is the sum over its
//! hands (only the last can be non-zero), in stakes.
//!
//! Observations per deal, in stakes (candidate's payoff minus the baseline's in the same seat,
//! `d(s) = payoff(A in seat s, s) − payoff(baseline, s)`):
//! - `payoff/banker`: `d(banker)`;
//! - `payoff/players`: the mean of `d` over the three player seats;
//! - `payoff/overall`: the mean of `d` over all four seats — the candidate's gain per hand played
//!   at a seat drawn at random, `(banker + 3 · players) / 4`.
//!
//! Deals that end before anyone acts (a meld, the four lowest) are counted, with differences of 0.

use ::madiao::record::MadiaoOutcome;
use cards::Seat;
use madiao::{HandSetup, MatchProgress, State, Variants};
use serde::Serialize;

use super::{Key, Run, Scheme, Seating, Side};
use crate::Madiao;

/// The rules of an arena run: a preset name and the variants (preset plus overrides).
#[derive(Clone, Debug, PartialEq)]
pub struct MadiaoRules {
    /// `standard` or `feng`, as records name the preset.
    pub preset: String,
    /// The variants played.
    pub variants: Variants,
}

impl Default for MadiaoRules {
    fn default() -> Self {
        MadiaoRules { preset: "standard".to_string(), variants: Variants::STANDARD }
    }
}

/// Deal `index` of an arena run.
#[derive(Clone, Debug, Serialize)]
pub struct MadiaoDeal {
    /// The arena's seed.
    #[serde(skip)]
    pub seed: u64,
    /// The deal's index.
    pub index: u64,
    /// The banker.
    pub banker: Seat,
    /// The rules.
    #[serde(skip)]
    pub variants: Variants,
}

/// Most hands in one run of a deal (a redeal after the last one is not followed).
pub const MAX_HANDS: u32 = 32;

impl MadiaoDeal {
    /// The deck of hand `hand` of this deal.
    pub fn deck(&self, hand: u32) -> [madiao::Card; 40] {
        madiao::deck_from_seed(
            self.seed,
            self.index * u64::from(MAX_HANDS) + u64::from(hand.min(MAX_HANDS - 1)),
        )
    }
}

const KEYS: [Key; 3] = [
    Key { measure: "payoff", role: "overall", unit: "stakes" },
    Key { measure: "payoff", role: "banker", unit: "stakes" },
    Key { measure: "payoff", role: "players", unit: "stakes" },
];

impl Scheme for Madiao {
    type Rules = MadiaoRules;
    type Deal = MadiaoDeal;

    const DESCRIPTION: &'static str = "seat substitution: each deal (deck, banker rotating) played once with \
         four baseline bots and once with the candidate in each seat; observation = candidate's payoff \
         minus the baseline's in that seat (stakes)";

    fn keys() -> &'static [Key] {
        &KEYS
    }

    fn deal(rules: &MadiaoRules, seed: u64, index: u64) -> MadiaoDeal {
        MadiaoDeal { seed, index, banker: Seat::wrapping((index % 4) as usize), variants: rules.variants }
    }

    fn seatings(_deal: &MadiaoDeal) -> Vec<Seating> {
        let mut v = vec![Seating { label: "baseline".to_string(), sides: [Side::B; 4] }];
        for s in Seat::ALL {
            let mut sides = [Side::B; 4];
            sides[s.index()] = Side::A;
            v.push(Seating { label: format!("A in seat {}", s.number()), sides });
        }
        v
    }

    fn start(deal: &MadiaoDeal, hand: u32) -> State {
        let mut progress = MatchProgress { hands_before: hand, ..MatchProgress::default() };
        if hand > 0 {
            progress.banked[deal.banker] = true;
        }
        let setup = HandSetup {
            banker: deal.banker,
            stake: 2,
            deck: deal.deck(hand),
            variants: deal.variants,
            progress,
        };
        State::new(setup).unwrap_or_else(|_| unreachable!("a shuffled deck and stake 2 are a valid setup"))
    }

    fn another_hand(_deal: &MadiaoDeal, last: &State, hands: u32) -> bool {
        last.outcome() == Some(MadiaoOutcome::Redeal) && hands < MAX_HANDS
    }

    fn scores(_deal: &MadiaoDeal, states: &[State]) -> [f64; 4] {
        let mut t = [0.0; 4];
        for st in states {
            for (x, p) in t.iter_mut().zip(st.payoffs().0) {
                *x += p.to_f64();
            }
        }
        t
    }

    fn observe(deal: &MadiaoDeal, runs: &[Run<Madiao>]) -> Vec<Option<f64>> {
        let base = &runs[0].scores;
        let d: [f64; 4] = std::array::from_fn(|s| runs[1 + s].scores[s] - base[s]);
        let b = deal.banker.index();
        let players = (d.iter().sum::<f64>() - d[b]) / 3.0;
        let overall = d.iter().sum::<f64>() / 4.0;
        vec![Some(overall), Some(d[b]), Some(players)]
    }

    fn outcome_text(states: &[State]) -> String {
        let parts: Vec<&str> = states
            .iter()
            .map(|s| match s.outcome() {
                Some(MadiaoOutcome::Played) => "played",
                Some(MadiaoOutcome::Meld) => "meld",
                Some(MadiaoOutcome::FourLowest) => "four_lowest",
                Some(MadiaoOutcome::Redeal) => "redeal",
                None => "unfinished",
            })
            .collect();
        parts.join(", ")
    }

    fn record(rules: &MadiaoRules, seed: u64, run: &Run<Madiao>, players: [String; 4]) -> serde_json::Value {
        let rec = madiao::record::to_record(&rules.preset, &rules.variants, Some(seed), &run.states);
        match rec {
            Ok(mut rec) => {
                rec.players = Some(cards::BySeat(players.map(|p| format!("bot:{p}"))));
                serde_json::to_value(&rec).unwrap_or(serde_json::Value::Null)
            }
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Budget;
    use crate::arena::{Config, play_deal, run};

    fn cfg(a: &str, b: &str, hands: u64, threads: usize) -> Config<MadiaoRules> {
        Config {
            a: a.into(),
            b: b.into(),
            hands,
            seed: 7,
            budget: Budget { think_ms: 10 },
            threads,
            rules: MadiaoRules::default(),
            limits: crate::ext::ExtLimits::default(),
        }
    }

    #[test]
    fn five_runs_on_the_same_decks_and_consistent_observations() {
        let c = cfg("random", "random", 20, 1);
        for i in 0..20 {
            let d = play_deal::<Madiao>(&c, i).unwrap();
            assert_eq!(d.runs.len(), 5);
            assert_eq!(d.deal.banker.index(), (i % 4) as usize);
            // Every run plays the same first deck.
            let deck0 = d.runs[0].states[0].deck();
            assert!(d.runs.iter().all(|r| r.states[0].deck() == deck0));
            for r in &d.runs {
                assert!((r.scores.iter().sum::<f64>()).abs() < 1e-9, "payoffs sum to zero");
            }
            let o = d.observations;
            let (overall, banker, players) = (o[0].unwrap(), o[1].unwrap(), o[2].unwrap());
            assert!((overall - (banker + 3.0 * players) / 4.0).abs() < 1e-9);
        }
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        let one = run::<Madiao>(&cfg("random", "random", 60, 1), |_, _| Ok(())).unwrap();
        let two = run::<Madiao>(&cfg("random", "random", 60, 2), |_, _| Ok(())).unwrap();
        assert_eq!(one.series, two.series);
        assert_eq!(one.running, two.running);
        assert_eq!(one.hands, 60);
    }

    #[test]
    fn records_replay_with_their_results() {
        let c = cfg("random", "random", 8, 1);
        for i in 0..8 {
            let d = play_deal::<Madiao>(&c, i).unwrap();
            for r in &d.runs {
                let v = Madiao::record(&c.rules, c.seed, r, std::array::from_fn(|_| "random".to_string()));
                let rec: cards::record::Record<::madiao::record::MadiaoHand> =
                    serde_json::from_value(v).unwrap();
                let rep = madiao::record::replay(&rec);
                assert!(rep.is_clean(), "deal {i} {}", r.seating.label);
                assert_eq!(rep.hands.len(), r.states.len());
            }
        }
    }

    #[test]
    fn unknown_names_are_refused() {
        let e = run::<Madiao>(&cfg("nobody", "random", 1, 1), |_, _| Ok(())).unwrap_err();
        assert!(e.to_string().contains("unknown madiao bot \"nobody\""), "{e}");
    }
}
