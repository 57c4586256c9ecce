//! Invariants over random legal play (proptest): 54 cards conserved, 100 points in play, legal
//! actions ⇔ accepted actions, views never leak, exactly one winner per trick (checked against a
//! slow reference of §8), top cards against their definition, records round-trip.

use std::collections::HashSet;

use cards::{Rng, Seat};
use dabaifen::random::RandomPolicy;
use dabaifen::record::{hand_record, replay_actions};
use dabaifen::{Action, Card, Cards, HandSetup, Outcome, Phase, Rank, State, Variants, card::points};
use proptest::prelude::*;

fn variants(i: u8) -> Variants {
    let mut v = Variants::STANDARD;
    if i & 1 != 0 {
        v.revoke = dabaifen::Revoke::Refuse;
    }
    if i & 2 != 0 {
        v.kitty_multiplier = dabaifen::KittyMultiplier::PerCard;
    }
    if i & 4 != 0 {
        v.first_drawer = dabaifen::FirstDrawer::StarterRight;
    }
    if i & 8 != 0 {
        v.annul = dabaifen::Annul::NonStartersOnly;
    }
    if i & 16 != 0 {
        v.game_end = dabaifen::GameEnd::WinAsDeclarersAtAce;
    }
    v
}

fn random_setup(seed: u64, vi: u8) -> HandSetup {
    let mut rng = Rng::from_seed_stream(seed, 99);
    let mut deck = dabaifen::setup::canonical_deck();
    rng.shuffle(&mut deck);
    let v = variants(vi);
    let kind = rng.below(4);
    let top = if v.game_end == dabaifen::GameEnd::ReachAce { 12 } else { 13 };
    let ranks = [Rank::from_index(rng.below(top) as u8), Rank::from_index(rng.below(top) as u8)];
    HandSetup {
        deck,
        starter: Seat::wrapping(rng.below(4) as usize),
        first_deal: kind == 0,
        open: kind == 1,
        ranks: if kind == 0 { [Rank::Two; 2] } else { ranks },
        variants: v,
    }
}

/// The slow reference of §8's winner: eligible plays keyed by (all trumps?, strengths sorted
/// strongest first), compared lexicographically, ties to the earliest.
fn reference_winner(st: &State, trick: &dabaifen::Trick) -> Seat {
    let t = st.tables().unwrap();
    let mut best: Option<(bool, Vec<u8>)> = None;
    let mut winner = trick.leader;
    for (seat, play) in trick.in_order() {
        let all_trumps = play.iter().all(|c| t.suit_of(c) == dabaifen::EffSuit::TRUMPS);
        let all_led = play.iter().all(|c| t.suit_of(c) == trick.suit);
        if !(all_trumps || all_led) {
            continue;
        }
        let mut s: Vec<u8> = play.iter().map(|c| t.strength[c.number() as usize]).collect();
        s.sort_unstable_by(|a, b| b.cmp(a));
        let key = (all_trumps, s);
        if best.as_ref().is_none_or(|b| key > *b) {
            best = Some(key);
            winner = seat;
        }
    }
    winner
}

/// Top cards by their definition: no strictly stronger card of the same effective suit in
/// another player's hand.
fn reference_tops(st: &State, seat: Seat) -> Cards {
    let t = st.tables().unwrap();
    let others: Vec<Card> =
        Seat::ALL.iter().filter(|&&s| s != seat).flat_map(|&s| st.hand(s).iter()).collect();
    st.hand(seat)
        .iter()
        .filter(|&c| {
            !others.iter().any(|&o| {
                t.suit_of(o) == t.suit_of(c)
                    && t.strength[o.number() as usize] > t.strength[c.number() as usize]
            })
        })
        .collect()
}

fn view_cards(v: &serde_json::Value, out: &mut Cards) {
    match v {
        serde_json::Value::String(s) => {
            if let Ok(c) = s.parse::<Card>() {
                out.insert(c);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| view_cards(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| view_cards(x, out)),
        _ => {}
    }
}

fn played(st: &State) -> Cards {
    let mut p = Cards::EMPTY;
    for t in st.tricks() {
        for (_, c) in t.in_order() {
            p |= c;
        }
    }
    p
}

/// The cards `seat` may know.
fn allowed(st: &State, seat: Seat) -> Cards {
    let mut a = st.hand(seat) | played(st);
    if let Some(d) = st.declaration() {
        a.insert(d.card);
    }
    if let Some(k) = st.kitty_turn() {
        a |= st.deck()[48..48 + k.turned as usize].iter().copied().collect::<Cards>();
    }
    if let Some(s) = st.annulled_by() {
        a |= st.dealt(s);
    }
    let took = matches!(st.phase(), Phase::Burying | Phase::Playing)
        || (st.phase() == Phase::Over && !st.buried().is_empty());
    if took && seat == st.starter() {
        a |= st.kitty() | st.buried();
    }
    if st.phase() == Phase::Over {
        a |= st.buried();
        if let Some(rev) = st.revoke() {
            // The proof of the revoke: for each non-top card, a stronger card another seat held.
            let t = st.tables().unwrap();
            let lead = st.tricks().last().unwrap().plays[rev.index()];
            for c in lead {
                for s in Seat::ALL.iter().filter(|&&s| s != rev) {
                    let stronger = Cards::from_bits(t.stronger[c.number() as usize]) & st.hand(*s);
                    if let Some(x) = stronger.last() {
                        a.insert(x);
                    }
                }
            }
        }
    }
    a
}

fn candidates(st: &State, rng: &mut Rng) -> Vec<Action> {
    let seat = st.to_move().unwrap();
    let hand = st.hand(seat).bits();
    let mut out = vec![Action::Pass, Action::Annul];
    for _ in 0..6 {
        let c = Card::from_number(rng.below(54) as u8).unwrap();
        out.push(Action::Declare(c));
    }
    for c in st.hand(seat) {
        out.push(Action::Play(Cards::single(c)));
        out.push(Action::Declare(c));
    }
    for _ in 0..40 {
        let sub = rng.next_u64() & rng.next_u64() & hand;
        out.push(Action::Play(Cards::from_bits(sub)));
        out.push(Action::Bury(Cards::from_bits(sub)));
        let stray = 1u64 << rng.below(54);
        out.push(Action::Play(Cards::from_bits(sub | stray)));
    }
    // Subsets of one effective suit (leads of top cards, revokes, follows).
    if let Some(t) = st.tables() {
        for m in t.suit_mask {
            let mine = hand & m;
            for _ in 0..8 {
                out.push(Action::Play(Cards::from_bits(rng.next_u64() & mine)));
            }
        }
    }
    for _ in 0..10 {
        let mut six = 0u64;
        let mut h = hand;
        while six.count_ones() < 6 && h != 0 {
            let b = 1u64 << rng.pick_bit(h);
            six |= b;
            h &= !b;
        }
        out.push(Action::Bury(Cards::from_bits(six)));
    }
    out
}

fn check_state(st: &State, rng: &mut Rng) -> Result<(), TestCaseError> {
    // 54 cards conserved; 100 points in play.
    if matches!(st.phase(), Phase::Burying | Phase::Playing)
        || (st.phase() == Phase::Over && !st.buried().is_empty())
    {
        let mut all = st.buried();
        let mut n = st.buried().len();
        for s in Seat::ALL {
            all |= st.hand(s);
            n += st.hand(s).len();
        }
        let p = played(st);
        n += p.len();
        all |= p;
        prop_assert_eq!(n, 54);
        prop_assert_eq!(all, Cards::full());
        let in_hands: u32 = Seat::ALL.iter().map(|&s| points(st.hand(s))).sum();
        let current: u32 = st
            .tricks()
            .iter()
            .filter(|t| t.winner.is_none())
            .map(|t| t.in_order().map(|(_, c)| points(c)).sum::<u32>())
            .sum();
        let [a, b] = st.team_points();
        prop_assert_eq!(a + b + in_hands + current + points(st.buried()), 100);
    } else {
        let dealt: Cards = Seat::ALL.iter().fold(Cards::EMPTY, |m, &s| m | st.dealt(s));
        prop_assert_eq!(dealt.len(), 48);
        prop_assert_eq!(dealt | st.kitty(), Cards::full());
    }
    // Every complete trick has exactly one winner, the one §8 names.
    for t in st.tricks() {
        match t.winner {
            Some(w) => {
                prop_assert_eq!(t.count, 4);
                prop_assert_eq!(w, reference_winner(st, t));
                prop_assert_eq!(t.points, t.in_order().map(|(_, c)| points(c)).sum::<u32>());
            }
            None => prop_assert!(t.count < 4),
        }
    }
    // Views: nothing the seat may not know; its own hand and the hand sizes.
    for s in Seat::ALL {
        let v = st.view(s);
        let json = serde_json::to_value(&v).unwrap();
        let mut seen = Cards::EMPTY;
        view_cards(&json, &mut seen);
        let ok = allowed(st, s);
        prop_assert!(seen.is_subset(ok), "{s} sees {} beyond what it may know", seen - ok);
        prop_assert_eq!(v.hand.iter().copied().collect::<Cards>(), st.hand(s));
        for o in Seat::ALL {
            prop_assert_eq!(u32::from(v.hand_sizes[o.index()]), st.hand(o).len());
        }
    }
    let Some(seat) = st.to_move() else { return Ok(()) };
    if st.phase() == Phase::Playing {
        prop_assert_eq!(st.top_cards(seat), reference_tops(st, seat));
    }
    // Legal ⇔ accepted.
    let legal: HashSet<Action> = st.legal_actions().into_iter().collect();
    prop_assert_eq!(legal.len(), st.legal_action_count());
    for a in &legal {
        prop_assert!(st.check(*a).is_ok(), "legal {a} rejected: {:?}", st.check(*a));
    }
    for a in candidates(st, rng) {
        prop_assert_eq!(st.check(a).is_ok(), legal.contains(&a), "{} (check says {:?})", a, st.check(a));
    }
    Ok(())
}

fn play_checked(setup: &HandSetup, seed: u64) -> Result<State, TestCaseError> {
    let mut st = State::new(setup).unwrap();
    let mut policy = RandomPolicy::new(Rng::from_seed_stream(seed, 7));
    let mut rng = Rng::from_seed_stream(seed, 8);
    let mut steps = 0;
    loop {
        check_state(&st, &mut rng)?;
        if st.to_move().is_none() {
            break;
        }
        let a = policy.choose(&st);
        prop_assert!(st.apply(a).is_ok(), "policy chose {a}: {:?}", st.apply(a));
        steps += 1;
        prop_assert!(steps < 1000);
    }
    Ok(st)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_deals_keep_every_invariant(seed in any::<u64>(), vi in 0u8..32) {
        let setup = random_setup(seed, vi);
        let st = play_checked(&setup, seed)?;
        let r = st.result().unwrap();
        if r.outcome == Outcome::Played {
            let [a, b] = st.team_points();
            prop_assert_eq!(a + b + r.kitty_points.unwrap(), 100);
            prop_assert!(st.hand(Seat::ALL[0]).is_empty());
        }
        // The record of the deal replays to the same result.
        let rec = hand_record(&st);
        let mut again = State::new(&setup).unwrap();
        prop_assert!(replay_actions(&mut again, &rec.actions).is_ok());
        prop_assert_eq!(again.result(), st.result());
    }

    #[test]
    fn the_fast_path_agrees_with_the_checked_path(seed in any::<u64>(), vi in 0u8..32) {
        let setup = random_setup(seed, vi);
        let mut a = State::new(&setup).unwrap();
        let mut b = a.clone();
        let mut pa = RandomPolicy::new(Rng::from_seed(seed));
        let mut pb = pa.clone();
        dabaifen::random::play_out(&mut a, &mut pa);
        let actions = dabaifen::random::play_out_checked(&mut b, &mut pb).unwrap();
        prop_assert!(!actions.is_empty() || b.result().unwrap().outcome == Outcome::Annulled);
        prop_assert_eq!(a.result(), b.result());
        prop_assert_eq!(a.tricks(), b.tricks());
    }
}
