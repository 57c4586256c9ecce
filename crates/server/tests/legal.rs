//! The compact legal actions the server sends (so that a client needs no rules code) describe
//! exactly the engine's legal actions: checked on the positions of many random Da Bai Fen deals
//! under both `revoke` variants, with the client-side reading of each description written here
//! independently of the server, and for Madiao's lists.

use std::collections::HashSet;

use ai::{Dabaifen, Madiao};
use cards::{Rng, Seat};
use dabaifen::random::RandomPolicy;
use dabaifen::{Action, Cards, Match, Phase, Variants, deal_from_seed};
use table::game::{Legal, Overlay, TableGame};
use wire::{CardsAction, RevokeRule};

fn set_of(cards: &[dabaifen::Card]) -> Cards {
    cards.iter().copied().collect()
}

/// How a client reads a description: is this set of cards a legal play or burial?
fn allows(legal: &Legal, chosen: Cards) -> bool {
    match legal {
        Legal::Cards { count, must, from, .. } => {
            let (must, from) = (set_of(must), set_of(from));
            chosen.len() == u32::from(*count) && must.is_subset(chosen) && chosen.is_subset(must | from)
        }
        Legal::Lead { singles, groups, revoke } => {
            if chosen.len() == 1 {
                return set_of(singles).contains(chosen.first().unwrap());
            }
            groups.iter().any(|g| {
                let pool = match (&g.tops, revoke) {
                    (Some(t), RevokeRule::Refuse) => set_of(t),
                    (None, RevokeRule::Penalize) => set_of(&g.cards),
                    _ => panic!("tops are sent exactly under refuse: {g:?}"),
                };
                chosen.len() >= 2 && chosen.is_subset(pool)
            })
        }
        other => panic!("not a card choice: {other:?}"),
    }
}

fn subsets(hand: Cards, f: &mut impl FnMut(Cards)) {
    let bits = hand.bits();
    let mut sub = bits;
    loop {
        if sub != 0 {
            f(Cards::from_bits(sub));
        }
        if sub == 0 {
            break;
        }
        sub = (sub - 1) & bits;
    }
}

fn check_position(st: &dabaifen::State, checked: &mut [usize; 3]) {
    let Some(seat) = st.to_move() else { return };
    let legal = <Dabaifen as TableGame>::legal_for(st, seat, Overlay::default(), Default::default());
    let engine: HashSet<Cards> = st
        .legal_actions()
        .into_iter()
        .map(|a| match a {
            Action::Bury(c) | Action::Play(c) => c,
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    let legal = legal.expect("the seat to move has a description");
    match st.phase() {
        Phase::Burying => {
            // All C(18, 6) burials: check every engine burial and the count.
            assert!(engine.iter().all(|&c| allows(&legal, c)));
            assert_eq!(engine.len(), 18_564);
            let Legal::Cards { from, must, count, action } = &legal else { panic!("{legal:?}") };
            assert_eq!((*action, *count, must.len(), from.len()), (CardsAction::Bury, 6, 0, 18));
            checked[0] += 1;
        }
        Phase::Playing => {
            let mut described = HashSet::new();
            subsets(st.hand(seat), &mut |c| {
                if allows(&legal, c) {
                    described.insert(c);
                }
            });
            assert_eq!(described, engine, "{seat} in {st:?}\n{legal:?}");
            checked[if matches!(legal, Legal::Lead { .. }) { 1 } else { 2 }] += 1;
        }
        _ => {}
    }
}

#[test]
fn dabaifen_descriptions_are_exactly_the_engine_legal_actions() {
    for (variants, seed) in
        [(Variants::STANDARD, 11u64), (Variants::STANDARD.with_overrides(&revoke_refuse()).unwrap(), 12)]
    {
        let mut checked = [0usize; 3];
        let mut m = Match::new(variants, Seat::ALL[0]);
        for deal in 0..60u64 {
            if m.is_over() {
                m = Match::new(variants, Seat::ALL[(deal % 4) as usize]);
            }
            let (deck, rng) = deal_from_seed(seed, deal);
            let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
            let mut policy = RandomPolicy::new(rng);
            while st.to_move().is_some() {
                if matches!(st.phase(), Phase::Burying | Phase::Playing) {
                    check_position(&st, &mut checked);
                }
                let a = policy.choose(&st);
                st.apply(a).unwrap();
            }
            m.record(st.result().unwrap());
        }
        assert!(checked[0] >= 20 && checked[1] >= 200 && checked[2] >= 400, "{checked:?}");
    }
}

fn revoke_refuse() -> cards::record::Variants {
    let mut v = cards::record::Variants::default();
    v.0.insert("revoke".into(), "refuse".into());
    v
}

#[test]
fn madiao_lists_are_the_engine_legal_actions() {
    let mut rng = Rng::from_seed(5);
    let mut positions = 0;
    for k in 0..200u64 {
        let deck = madiao::deck_from_seed(3, k);
        let Ok(mut st) = madiao::State::new(madiao::HandSetup::new(Seat::ALL[(k % 4) as usize], deck)) else {
            continue;
        };
        while let Some(seat) = st.to_move() {
            let legal = st.legal_actions();
            if st.phase() == madiao::Phase::Play {
                let d = <Madiao as TableGame>::legal_for(&st, seat, Overlay::default(), false).unwrap();
                let Legal::Actions { actions, .. } = d else { panic!("{d:?}") };
                assert_eq!(actions, legal);
                for other in Seat::ALL.into_iter().filter(|&s| s != seat) {
                    assert!(
                        <Madiao as TableGame>::legal_for(&st, other, Overlay::default(), false).is_none()
                    );
                }
                positions += 1;
            }
            st.apply(legal[rng.index(legal.len())]).unwrap();
        }
    }
    assert!(positions > 3000, "{positions}");
}
