//! Da Bai Fen's duplicate scheme: the same deal with the teams swapped, and an all-baseline run
//! that splits the comparison by role.
//!
//! Deal `i` of seed `S`: the deck is [`::dabaifen::deck_from_seed`]`(S, i)`; the starter is seat
//! `i mod 4`; the team ranks are drawn uniformly and independently from 2…K with
//! `Rng::from_seed_stream(S, 2⁴⁷ + i)` (A is left out: under `reach_ace` a team at A has won). First
//! deals and open deals are never used: there the declaration decides who declares, so the roles
//! could not be paired. So the starter's team are the declarers in every run.
//!
//! Three runs: `"baseline"` (four baseline bots), `"A declares"` (the candidate in the starter's
//! team), `"A defends"` (the candidate in the other team).
//!
//! Measures, from the declarers' side:
//! - **game points** (primary), `D`: the ranks the declarers gain, or minus the ranks the defenders
//!   gain — `+2` (T = 0), `+1` (5–35), `0` (40–75), `−1` (80–95), `−2` (100 or more), `0` for an
//!   annulled deal. A seat's score in a run is `D` for the declarers and `−D` for the defenders.
//! - **card points**, `T`: the defenders' points with the kitty bonus, a finer second measure
//!   (only for deals played, not annulled, in all three runs).
//!
//! Observations per deal (`D_AB`: A declares against B, `D_BB`: the baseline run, `D_BA`: B
//! declares against A):
//! - `declarers`: `D_AB − D_BB` (what the candidate gains as declarers);
//! - `defenders`: `D_BB − D_BA` (what the candidate takes off the declarers as defenders);
//! - `overall`: `D_AB − D_BA`, their sum: the classic teams-swapped duplicate comparison — the
//!   candidate team's score minus the baseline team's in the same seats on the same deal.
//!
//! and likewise in card points: `declarers` `T_BB − T_AB`, `defenders` `T_BA − T_BB`, `overall`
//! `T_BA − T_AB`.

use cards::{Rng, Seat};
use dabaifen::{HandSetup, Outcome, Rank, State, Variants};
use serde::Serialize;

use super::{Key, Run, Scheme, Seating, Side};
use crate::Dabaifen;

/// Deal `index` of an arena run.
#[derive(Clone, Debug, Serialize)]
pub struct DabaifenDeal {
    /// The arena's seed.
    #[serde(skip)]
    pub seed: u64,
    /// The deal's index.
    pub index: u64,
    /// The starter.
    pub starter: Seat,
    /// The team ranks before the deal (team 0 = seats 0 and 2).
    pub ranks: [Rank; 2],
    /// The rules.
    #[serde(skip)]
    pub variants: Variants,
}

/// The stream offset of the rank draws.
pub const RANK_STREAM: u64 = 1 << 47;

const KEYS: [Key; 6] = [
    Key { measure: "game_points", role: "overall", unit: "ranks" },
    Key { measure: "game_points", role: "declarers", unit: "ranks" },
    Key { measure: "game_points", role: "defenders", unit: "ranks" },
    Key { measure: "card_points", role: "overall", unit: "card points" },
    Key { measure: "card_points", role: "declarers", unit: "card points" },
    Key { measure: "card_points", role: "defenders", unit: "card points" },
];

/// The declarers' signed game points of a finished deal (0 when annulled).
pub fn declarers_game_points(st: &State) -> f64 {
    match st.result() {
        Some(r) if r.outcome != Outcome::Annulled => {
            let levels = f64::from(r.levels);
            if r.winner == Some(r.declarers()) { levels } else { -levels }
        }
        _ => 0.0,
    }
}

/// The defenders' card points `T` of a finished deal, kitty bonus included (`None` if annulled).
pub fn defenders_points(st: &State) -> Option<f64> {
    st.result().and_then(|r| r.defender_points).map(f64::from)
}

impl Scheme for Dabaifen {
    type Rules = Variants;
    type Deal = DabaifenDeal;

    const DESCRIPTION: &'static str = "teams swapped: each deal (deck, starter rotating, ranks 2-K at random, \
         no first or open deals) played with the candidate team as declarers, as defenders, and an \
         all-baseline run; observation = candidate team's score minus the baseline team's in the same \
         seats (signed game points; card points as a finer measure)";

    fn keys() -> &'static [Key] {
        &KEYS
    }

    fn deal(rules: &Variants, seed: u64, index: u64) -> DabaifenDeal {
        let mut rng = Rng::from_seed_stream(seed, RANK_STREAM.wrapping_add(index));
        let ranks = [0, 1].map(|_| Rank::from_index(rng.below(12) as u8));
        DabaifenDeal { seed, index, starter: Seat::wrapping((index % 4) as usize), ranks, variants: *rules }
    }

    fn seatings(deal: &DabaifenDeal) -> Vec<Seating> {
        let declarers = deal.starter.team();
        let team = |t: u8| -> [Side; 4] {
            std::array::from_fn(|s| if Seat::wrapping(s).team() == t { Side::A } else { Side::B })
        };
        vec![
            Seating { label: "baseline".to_string(), sides: [Side::B; 4] },
            Seating { label: "A declares".to_string(), sides: team(declarers) },
            Seating { label: "A defends".to_string(), sides: team(1 - declarers) },
        ]
    }

    fn start(deal: &DabaifenDeal, _hand: u32) -> State {
        let setup = HandSetup {
            deck: dabaifen::deck_from_seed(deal.seed, deal.index),
            starter: deal.starter,
            first_deal: false,
            open: false,
            ranks: deal.ranks,
            variants: deal.variants,
        };
        // Only a game already won could be refused, and A is never drawn; fall back to the
        // first-deal setup, which is always valid, rather than panic.
        State::new(&setup).unwrap_or_else(|_| {
            State::new_unchecked(&HandSetup::first(setup.deck, setup.starter, setup.variants))
        })
    }

    fn another_hand(_deal: &DabaifenDeal, _last: &State, _hands: u32) -> bool {
        false
    }

    fn scores(deal: &DabaifenDeal, states: &[State]) -> [f64; 4] {
        let d = states.last().map_or(0.0, declarers_game_points);
        std::array::from_fn(|s| if Seat::wrapping(s).team() == deal.starter.team() { d } else { -d })
    }

    fn observe(_deal: &DabaifenDeal, runs: &[Run<Dabaifen>]) -> Vec<Option<f64>> {
        let (bb, ab, ba) = (runs_last(&runs[0]), runs_last(&runs[1]), runs_last(&runs[2]));
        let (d_bb, d_ab, d_ba) =
            (declarers_game_points(bb), declarers_game_points(ab), declarers_game_points(ba));
        let t = (defenders_points(bb), defenders_points(ab), defenders_points(ba));
        let (c_overall, c_decl, c_def) = match t {
            (Some(t_bb), Some(t_ab), Some(t_ba)) => (Some(t_ba - t_ab), Some(t_bb - t_ab), Some(t_ba - t_bb)),
            _ => (None, None, None),
        };
        vec![Some(d_ab - d_ba), Some(d_ab - d_bb), Some(d_bb - d_ba), c_overall, c_decl, c_def]
    }

    fn outcome_text(states: &[State]) -> String {
        match states.last().and_then(State::result) {
            Some(r) => {
                let what = match r.outcome {
                    Outcome::Played => "played",
                    Outcome::Annulled => "annulled",
                    Outcome::Revoke => "revoke",
                };
                match r.defender_points {
                    Some(t) => format!("{what}, T = {t}"),
                    None => what.to_string(),
                }
            }
            None => "unfinished".to_string(),
        }
    }

    fn record(rules: &Variants, seed: u64, run: &Run<Dabaifen>, players: [String; 4]) -> serde_json::Value {
        let hands = run.states.iter().map(dabaifen::record::hand_record).collect();
        let mut rec = dabaifen::record::match_record(rules, Some(seed), hands);
        rec.players = Some(cards::BySeat(players.map(|p| format!("bot:{p}"))));
        serde_json::to_value(&rec).unwrap_or(serde_json::Value::Null)
    }
}

fn runs_last(r: &Run<Dabaifen>) -> &State {
    // Every run has exactly one hand.
    &r.states[r.states.len() - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Budget;
    use crate::arena::{Config, play_deal, run};

    fn cfg(hands: u64, threads: usize) -> Config<Variants> {
        Config {
            a: "random".into(),
            b: "random".into(),
            hands,
            seed: 11,
            budget: Budget { think_ms: 10 },
            threads,
            rules: Variants::STANDARD,
            limits: crate::ext::ExtLimits::default(),
        }
    }

    #[test]
    fn runs_seat_the_teams_by_role() {
        let c = cfg(12, 1);
        for i in 0..12 {
            let d = play_deal::<Dabaifen>(&c, i).unwrap();
            assert_eq!(d.runs.len(), 3);
            let starter = d.deal.starter;
            assert_eq!(starter.index(), (i % 4) as usize);
            assert!(d.deal.ranks.iter().all(|&r| r != Rank::Ace));
            assert_eq!(d.runs[1].seating.sides[starter.index()], Side::A);
            assert_eq!(d.runs[2].seating.sides[starter.index()], Side::B);
            assert_eq!(d.runs[2].seating.sides[starter.next().index()], Side::A);
            for r in &d.runs {
                let st = &r.states[0];
                assert!(!st.is_first_deal() && !st.is_open());
                assert_eq!(st.deck(), d.runs[0].states[0].deck());
                assert_eq!(r.scores.iter().sum::<f64>(), 0.0);
            }
            let o = &d.observations;
            assert_eq!(o[0].unwrap(), o[1].unwrap() + o[2].unwrap());
            if let (Some(a), Some(b), Some(c)) = (o[3], o[4], o[5]) {
                assert_eq!(a, b + c);
            }
        }
    }

    #[test]
    fn results_do_not_depend_on_threads_and_records_replay() {
        let one = run::<Dabaifen>(&cfg(30, 1), |_, _| Ok(())).unwrap();
        let mut records = 0;
        let two = run::<Dabaifen>(&cfg(30, 2), |d, _| {
            for r in &d.runs {
                let v =
                    Dabaifen::record(&Variants::STANDARD, 11, r, std::array::from_fn(|_| "random".into()));
                let rec: cards::record::Record<::dabaifen::record::DabaifenHand> = serde_json::from_value(v)?;
                let rep = dabaifen::record::replay(&rec);
                if !rep.is_clean() || rep.error.is_some() {
                    return Err(format!("deal {} {} does not replay", d.index, r.seating.label).into());
                }
                records += 1;
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(records, 90);
        assert_eq!(one.series, two.series);
        assert_eq!(one.running, two.running);
    }

    #[test]
    fn signed_game_points_follow_the_table() {
        // Sum over many random deals: every value is one of the table's.
        let c = cfg(40, 1);
        for i in 0..40 {
            let d = play_deal::<Dabaifen>(&c, i).unwrap();
            for r in &d.runs {
                let st = &r.states[0];
                let gp = declarers_game_points(st);
                match (st.result().unwrap().outcome, defenders_points(st)) {
                    (Outcome::Annulled, None) => assert_eq!(gp, 0.0),
                    (_, Some(t)) => {
                        let want = match t as u32 {
                            0 => 2.0,
                            1..=39 => 1.0,
                            40..=79 => 0.0,
                            80..=99 => -1.0,
                            _ => -2.0,
                        };
                        assert_eq!(gp, want, "T = {t}");
                    }
                    (o, t) => panic!("{o:?} with {t:?}"),
                }
            }
        }
    }
}
