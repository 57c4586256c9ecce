//! The rules a table asks the engine (`legal.rs`, `State::view_for`, `State::draw_view`) agree
//! with `legal_actions`, `check` and `apply` over random deals: the legal summary describes
//! exactly the legal plays, the trick's current leader is §8's winner of the plays so far, the
//! cards one may show and whether one may annul match what the engine accepts, a spectator sees
//! what every seat sees and nothing more.

use cards::{Rng, Seat, Viewer};
use dabaifen::random::RandomPolicy;
use dabaifen::{Action, Cards, HandSetup, LegalSummary, Phase, Rank, Revoke, State, Trick, Variants};
use proptest::prelude::*;

fn random_setup(seed: u64, vi: u8) -> HandSetup {
    let mut rng = Rng::from_seed_stream(seed, 99);
    let mut deck = dabaifen::setup::canonical_deck();
    rng.shuffle(&mut deck);
    let mut v = Variants::STANDARD;
    if vi & 1 != 0 {
        v.revoke = Revoke::Refuse;
    }
    if vi & 2 != 0 {
        v.annul = dabaifen::Annul::NonStartersOnly;
    }
    let kind = rng.below(4);
    let ranks = [Rank::from_index(rng.below(12) as u8), Rank::from_index(rng.below(12) as u8)];
    HandSetup {
        deck,
        starter: Seat::wrapping(rng.below(4) as usize),
        first_deal: kind == 0,
        open: kind == 1,
        ranks: if kind == 0 { [Rank::Two; 2] } else { ranks },
        variants: v,
    }
}

/// §8's winner by its words: eligible plays keyed by (all trumps?, strengths strongest first),
/// compared element by element, ties to the earliest. `None` before the lead.
fn reference_leader(st: &State, trick: &Trick) -> Option<Seat> {
    let t = st.tables().unwrap();
    let mut best: Option<((bool, Vec<u8>), Seat)> = None;
    for (seat, play) in trick.in_order() {
        let all_trumps = play.iter().all(|c| t.suit_of(c) == dabaifen::EffSuit::TRUMPS);
        let all_led = play.iter().all(|c| t.suit_of(c) == trick.suit);
        if play.is_empty() || !(all_trumps || all_led) {
            continue;
        }
        let mut s: Vec<u8> = play.iter().map(|c| t.strength[c.number() as usize]).collect();
        s.sort_unstable_by(|a, b| b.cmp(a));
        let key = (all_trumps, s);
        if best.as_ref().is_none_or(|(b, _)| key > *b) {
            best = Some((key, seat));
        }
    }
    best.map(|(_, s)| s)
}

fn set(v: &[dabaifen::Card]) -> Cards {
    v.iter().copied().collect()
}

fn check_summary(st: &State) -> Result<(), TestCaseError> {
    let Some(me) = st.to_move() else {
        return Ok(());
    };
    for s in Seat::ALL {
        if s != me {
            prop_assert!(st.legal_summary(s).is_none(), "only the seat to move has a summary");
        }
    }
    let legal = st.legal_actions();
    let summary = st.legal_summary(me);
    match st.phase() {
        Phase::Burying => {
            let Some(LegalSummary::Bury { from }) = summary else {
                return Err(TestCaseError::fail(format!("burying, summary {summary:?}")));
            };
            prop_assert_eq!(set(&from), st.hand(me));
            for a in &legal {
                let Action::Bury(c) = a else { continue };
                prop_assert!(c.len() == 6 && (*c - set(&from)).is_empty());
            }
        }
        Phase::Playing => match summary {
            Some(LegalSummary::Follow { count, must, from }) => {
                let (must, from) = (set(&must), set(&from));
                prop_assert!((must & from).is_empty());
                let mut seen = Cards::EMPTY;
                for a in &legal {
                    let Action::Play(c) = a else { continue };
                    prop_assert_eq!(c.len(), u32::from(count));
                    prop_assert!((must - *c).is_empty(), "{c} lacks a card of {must}");
                    prop_assert!((*c - must - from).is_empty(), "{c} outside {must} + {from}");
                    seen |= *c;
                }
                prop_assert_eq!(seen, must | from, "every card offered is in some legal play");
            }
            Some(LegalSummary::Lead { singles, groups, revoke }) => {
                prop_assert_eq!(revoke, st.variants().revoke);
                prop_assert_eq!(set(&singles), st.hand(me));
                for c in singles.iter() {
                    prop_assert!(st.check(Action::Play([*c].into_iter().collect())).is_ok());
                }
                for g in &groups {
                    let cards = set(&g.cards);
                    let usable = g.tops.as_ref().map_or(cards, |t| set(t));
                    // Any two usable cards of a group may be led together.
                    let v: Vec<_> = usable.iter().collect();
                    if v.len() >= 2 {
                        let pair: Cards = [v[0], v[v.len() - 1]].into_iter().collect();
                        prop_assert!(st.check(Action::Play(pair)).is_ok(), "lead {pair} refused");
                    }
                }
                for a in &legal {
                    let Action::Play(c) = a else { continue };
                    if c.len() >= 2 {
                        prop_assert!(
                            groups
                                .iter()
                                .any(|g| { (*c - set(g.tops.as_ref().unwrap_or(&g.cards))).is_empty() }),
                            "the legal lead {} is in no group",
                            c
                        );
                    }
                }
            }
            other => return Err(TestCaseError::fail(format!("playing, summary {other:?}"))),
        },
        _ => prop_assert!(summary.is_none()),
    }
    Ok(())
}

fn check_polls(st: &State) -> Result<(), TestCaseError> {
    match st.phase() {
        Phase::Drawing => {
            let d = st.drawn();
            for s in Seat::ALL {
                // The view of the engine's own draw and the steady-pace view agree.
                let (a, b) = (st.view(s), st.draw_view(Viewer::Seat(s), d));
                prop_assert_eq!(&a.hand, &b.hand);
                prop_assert_eq!(a.hand_sizes, b.hand_sizes);
            }
            if let Some(me) = st.to_move() {
                let may = st.declarable_among(me, d);
                for c in st.drawn_cards(me, d).iter() {
                    prop_assert_eq!(st.check(Action::Declare(c)).is_ok(), may.contains(c), "declare {}", c);
                }
            }
        }
        Phase::Annulling => {
            let me = st.to_move().unwrap();
            prop_assert!(st.may_annul(me), "the engine asks {me}, who may not annul");
        }
        _ => {}
    }
    Ok(())
}

fn check_spectator(st: &State) -> Result<(), TestCaseError> {
    let spec = st.view_for(Viewer::Spectator);
    prop_assert!(spec.hand.is_empty() && spec.kitty.is_none());
    if st.phase() != Phase::Over {
        prop_assert!(spec.buried.is_none());
    }
    prop_assert!(spec.seat.is_none());
    for s in Seat::ALL {
        let mut v = st.view(s);
        prop_assert_eq!(v.seat, Some(s));
        v.seat = spec.seat;
        v.hand.clear();
        v.kitty = None;
        if st.phase() != Phase::Over {
            v.buried = None;
        }
        if matches!(v.phase, Phase::Drawing | Phase::Annulling) {
            v.to_move = None;
        }
        prop_assert_eq!(&v, &spec, "the spectator sees what {} sees of the table", s);
    }
    Ok(())
}

fn check_tricks(st: &State) -> Result<(), TestCaseError> {
    let Some(t) = st.tables() else { return Ok(()) };
    let view = st.view(Seat::ALL[0]);
    for (trick, tv) in st.tricks().iter().zip(&view.tricks) {
        prop_assert_eq!(trick.leading(t), reference_leader(st, trick));
        prop_assert_eq!(tv.leading, trick.leading(t));
        if trick.winner.is_some() {
            prop_assert_eq!(trick.leading(t), trick.winner, "a complete trick's leader is its winner");
        }
    }
    let current = st.tricks().last().filter(|t| t.winner.is_none() && t.count > 0);
    prop_assert_eq!(st.trick_leading(), current.and_then(|c| c.leading(t)));
    Ok(())
}

fn play(seed: u64, vi: u8) -> Result<(), TestCaseError> {
    let mut st = State::new(&random_setup(seed, vi)).unwrap();
    let mut policy = RandomPolicy::new(Rng::from_seed_stream(seed, 7));
    for _ in 0..1000 {
        check_summary(&st)?;
        check_polls(&st)?;
        check_spectator(&st)?;
        check_tricks(&st)?;
        if st.to_move().is_none() {
            return Ok(());
        }
        let before = st.tricks().len();
        let leading = st.trick_leading();
        let a = policy.choose(&st);
        prop_assert!(st.apply(a).is_ok());
        // When the last play of a trick beats nobody, the leader so far wins it.
        if let Action::Play(_) = a
            && let Some(done) = st.tricks().get(before.saturating_sub(1)).filter(|d| d.winner.is_some())
            && leading.is_some()
            && done.count == 4
        {
            let last = done.leader.offset(3);
            if done.winner != Some(last) {
                prop_assert_eq!(
                    done.winner,
                    leading,
                    "the trick went to {:?}, not to its leader",
                    done.winner
                );
            }
        }
    }
    Err(TestCaseError::fail("the deal did not end"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_table_rules_agree_with_the_engine(seed in any::<u64>(), vi in 0u8..4) {
        play(seed, vi)?;
    }
}

#[test]
fn a_seat_with_no_trump_may_annul_and_a_barred_starter_may_not() {
    // Many seeds: the answer matches the dealt cards and the variant every time.
    for seed in 0..200u64 {
        let setup = random_setup(seed, (seed % 4) as u8);
        let mut st = State::new(&setup).unwrap();
        while st.phase() == Phase::Drawing {
            st.apply(Action::Pass).unwrap();
        }
        let Some(t) = st.tables() else { continue };
        for s in Seat::ALL {
            let no_trump = (st.dealt(s) & t.trumps()).is_empty();
            let barred = st.variants().annul == dabaifen::Annul::NonStartersOnly && s == st.starter();
            assert_eq!(st.may_annul(s), no_trump && !barred, "seed {seed}, {s}");
        }
    }
}
