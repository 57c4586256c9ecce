//! Da Bai Fen bots: legal actions in every phase under every combination of variants (draw polls
//! in first, later and open deals, kitty turning, annulment polls, burial, play), no revokes,
//! determinism for a seed and a budget, and a few rules of the heuristic.

use ai::dabaifen::expert::{ExpertBot, Params as ExpertParams};
use ai::dabaifen::heuristic::HeuristicBot;
use ai::dabaifen::know::{KITTY, Knowledge};
use ai::dabaifen::pimc::{Cheater, PimcBot};
use ai::dabaifen::policy::{BuryStyle, Ctx, bury};
use ai::dabaifen::pos::Pos;
use ai::{Bot, Budget, Dabaifen, Oracle, Registry};
use cards::Seat;
use dabaifen::{
    Action, Annul, Card, Cards, FirstDrawer, GameEnd, HandSetup, KittyMultiplier, Outcome, Phase, Rank,
    Revoke, State, Tables, Trump, Variants, deal_from_seed,
};

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn cards(codes: &str) -> Cards {
    codes.split_whitespace().map(card).collect()
}

/// Every combination of the five variants.
fn all_variants() -> Vec<Variants> {
    (0..32u32)
        .map(|i| Variants {
            revoke: if i & 1 == 0 { Revoke::Penalize } else { Revoke::Refuse },
            kitty_multiplier: if i & 2 == 0 { KittyMultiplier::Double } else { KittyMultiplier::PerCard },
            first_drawer: if i & 4 == 0 { FirstDrawer::Starter } else { FirstDrawer::StarterRight },
            game_end: if i & 8 == 0 { GameEnd::ReachAce } else { GameEnd::WinAsDeclarersAtAce },
            annul: if i & 16 == 0 { Annul::AnyPlayer } else { Annul::NonStartersOnly },
        })
        .collect()
}

/// A deck in which seat 1 (drawing second from starter 0) holds twelve spades without the 2,
/// and the kitty turns 2H first: unless someone shows 2S, seat 1 holds no trump.
fn trumpless_deck() -> [Card; 54] {
    let hands = [
        "2D 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    ];
    let kitty = "2H KC AC 2S SJ BJ";
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| h.split_whitespace().map(card).collect()).collect();
    let mut deck = Vec::new();
    for p in 0..48 {
        deck.push(hands[p % 4][p / 4]);
    }
    deck.extend(kitty.split_whitespace().map(card));
    assert_eq!(deck.iter().copied().collect::<Cards>().len(), 54);
    deck.try_into().unwrap()
}

enum Player {
    Bot(Box<dyn Bot<Dabaifen>>),
    Oracle(Box<dyn Oracle<Dabaifen>>),
}

/// Plays one deal; checks every action is legal and that no bot revokes; returns the phases in
/// which a bot chose among two or more actions, and the final state.
fn play(setup: &HandSetup, players: &mut [Player; 4], may_revoke: bool) -> ([bool; 5], State) {
    let mut st = State::new(setup).unwrap();
    let mut seen = [false; 5];
    while let Some(s) = st.to_move() {
        let legal = st.legal_actions();
        for o in Seat::ALL {
            check_knowledge(&st, o, if o == s { &legal } else { &[] });
        }
        let a = match &mut players[s.index()] {
            Player::Bot(b) => b.choose(&st.view(s), &legal),
            Player::Oracle(o) => o.choose(&st, &legal),
        };
        assert!(legal.contains(&a), "{s} chose {a}, not legal in {:?}", st.phase());
        if legal.len() > 1 {
            seen[st.phase() as usize] = true;
        }
        st.apply(a).unwrap();
    }
    let r = st.result().unwrap();
    assert!(may_revoke || r.outcome != Outcome::Revoke, "a bot revoked");
    (seen, st)
}

/// The knowledge a seat draws from its view holds in the true deal: every hidden card may be
/// where it really is, and the counts are right (so sampling never needs to drop a fact).
fn check_knowledge(st: &State, seat: Seat, legal: &[Action]) {
    let Some(k) = Knowledge::from_view(&st.view(seat), legal) else { return };
    for c in ai::dabaifen::pos::bits(k.hidden) {
        let card = Card::from_number(c as u8).unwrap();
        let place = match Seat::ALL.into_iter().find(|&o| st.hand(o).contains(card)) {
            Some(o) => o.index(),
            None => KITTY,
        };
        assert!(
            k.allowed[c as usize] >> place & 1 != 0,
            "{seat} rules out {card} at place {place} in {:?}",
            st.phase()
        );
    }
    for o in Seat::ALL {
        let n = if o == seat { 0 } else { st.hand(o).len() };
        assert_eq!(u32::from(k.counts[o.index()]), n);
    }
    // The places hold exactly the hidden cards (while the starter buries, the kitty is in his hand).
    let room: u32 = k.counts.iter().map(|&n| u32::from(n)).sum();
    assert_eq!(room, k.hidden.count_ones(), "{seat}'s places in {:?}", st.phase());
    assert!(ai::dabaifen::sample::Problem::of(&k).feasible());
}

fn players(name: &str, seed: u64, budget: Budget) -> [Player; 4] {
    std::array::from_fn(|i| {
        if name == "cheater" {
            Player::Oracle(Box::new(Cheater::new(budget)))
        } else {
            Player::Bot(<Dabaifen as Registry>::bot(name, seed + i as u64, budget).unwrap())
        }
    })
}

fn setups(v: Variants, k: u64) -> Vec<HandSetup> {
    let deck = |d: u64| deal_from_seed(500 + k, d).0;
    let ranks = [Rank::from_index((k % 12) as u8), Rank::from_index((k * 5 % 12) as u8)];
    vec![
        // A first deal: whoever declares starts.
        HandSetup::first(deck(0), Seat::ALL[(k % 4) as usize], v),
        // A later deal with ranks of its own.
        HandSetup {
            deck: deck(1),
            starter: Seat::ALL[(k + 1) as usize % 4],
            first_deal: false,
            open: false,
            ranks,
            variants: v,
        },
        // An open deal: each seat may show his own team's rank.
        HandSetup {
            deck: deck(2),
            starter: Seat::ALL[(k + 2) as usize % 4],
            first_deal: false,
            open: true,
            ranks,
            variants: v,
        },
        // A hand without trumps: annulment polls.
        HandSetup {
            deck: trumpless_deck(),
            starter: Seat::ALL[0],
            first_deal: false,
            open: false,
            ranks: [Rank::Two, Rank::Two],
            variants: Variants { first_drawer: FirstDrawer::Starter, ..v },
        },
    ]
}

fn check_bot(name: &str, budget: Budget, variants: &[Variants]) {
    let mut seen = [false; 5];
    let mut annulled = 0;
    let mut kitty_turned = 0;
    let mut open_shown = 0;
    for (k, &v) in variants.iter().enumerate() {
        for setup in setups(v, k as u64) {
            let mut p = players(name, 10 * k as u64, budget);
            let (s, st) = play(&setup, &mut p, name == "random");
            for i in 0..5 {
                seen[i] |= s[i];
            }
            annulled += usize::from(st.result().unwrap().outcome == Outcome::Annulled);
            kitty_turned += usize::from(st.kitty_turn().is_some());
            open_shown += usize::from(setup.open && st.declaration().is_some());
        }
    }
    let phases = [Phase::Drawing, Phase::Annulling, Phase::Burying, Phase::Playing];
    for ph in phases {
        assert!(seen[ph as usize], "{name} never chose in {ph:?}");
    }
    assert!(open_shown > 0, "{name}: no open deal saw a showing");
    eprintln!("{name}: {annulled} annulled, {kitty_turned} kitty turned, {open_shown} open deals shown");
}

#[test]
fn heuristic_and_random_play_legally_under_every_variant() {
    check_bot("heuristic", Budget::default(), &all_variants());
    check_bot("random", Budget::default(), &all_variants());
}

#[test]
fn pimc_plays_legally_under_every_variant() {
    check_bot("pimc", Budget { think_ms: 4 }, &all_variants());
}

#[test]
fn the_cheater_plays_legally_under_every_variant() {
    check_bot("cheater", Budget { think_ms: 4 }, &all_variants()[..16]);
}

#[test]
fn bots_annul_a_hand_without_trumps_when_it_is_bad() {
    // Seat 1's twelve spades are no trumps once hearts are trumps; the heuristic annuls (fewer
    // than three aces).
    let setup = &setups(Variants::STANDARD, 0)[3];
    let mut st = State::new(setup).unwrap();
    while st.phase() == Phase::Drawing {
        st.apply(Action::Pass).unwrap();
    }
    assert_eq!(st.phase(), Phase::Annulling);
    assert_eq!(st.to_move(), Some(Seat::ALL[1]));
    let legal = st.legal_actions();
    assert_eq!(HeuristicBot::new().choose(&st.view(Seat::ALL[1]), &legal), Action::Annul);
    let a = PimcBot::new(1, Budget { think_ms: 20 }).choose(&st.view(Seat::ALL[1]), &legal);
    assert!(legal.contains(&a));
}

#[test]
fn expert_plays_legally_under_every_variant() {
    check_bot("expert", Budget { think_ms: 4 }, &all_variants());
}

/// The actions of one deal with `name` in every seat.
fn deal_actions(name: &str, setup: &HandSetup, seed: u64, budget: Budget) -> Vec<Action> {
    let mut p = players(name, seed, budget);
    let mut st = State::new(setup).unwrap();
    let mut actions = Vec::new();
    while let Some(s) = st.to_move() {
        let legal = st.legal_actions();
        let Player::Bot(b) = &mut p[s.index()] else { unreachable!() };
        let a = b.choose(&st.view(s), &legal);
        actions.push(a);
        st.apply(a).unwrap();
    }
    actions
}

#[test]
fn expert_is_deterministic_for_a_seed_and_a_budget() {
    for k in 0..3u64 {
        let setup = &setups(Variants::STANDARD, k)[1];
        let budget = Budget { think_ms: 8 };
        assert_eq!(
            deal_actions("expert", setup, 7, budget),
            deal_actions("expert", setup, 7, budget),
            "deal {k}"
        );
    }
}

#[test]
fn expert_work_follows_the_budget() {
    // The budget is turned into fixed amounts of work: more thinking, more worlds and decks.
    let small = ExpertParams::for_budget(Budget { think_ms: 10 });
    let large = ExpertParams::for_budget(Budget { think_ms: 100 });
    assert!(small.base.samples < large.base.samples);
    assert!(small.base.bury_samples < large.base.bury_samples);
    assert!(small.base.declare_samples < large.base.declare_samples);
    assert_eq!(ExpertParams::for_budget(Budget::default()), large);
    // The smallest budget still plays a whole deal legally, and a larger one plays it otherwise
    // somewhere (it sees more worlds).
    let setup = &setups(Variants::STANDARD, 1)[1];
    let tiny = deal_actions("expert", setup, 3, Budget { think_ms: 1 });
    assert!(!tiny.is_empty());
    let differ = (0..4u64).any(|k| {
        let setup = &setups(Variants::STANDARD, k)[1];
        deal_actions("expert", setup, 3, Budget { think_ms: 1 })
            != deal_actions("expert", setup, 3, Budget { think_ms: 40 })
    });
    assert!(differ, "the budget changes nothing");
}

#[test]
fn pimc_is_deterministic_for_a_seed_and_a_budget() {
    for k in 0..3u64 {
        let setup = &setups(Variants::STANDARD, k)[1];
        let budget = Budget { think_ms: 8 };
        assert_eq!(
            deal_actions("pimc", setup, 7, budget),
            deal_actions("pimc", setup, 7, budget),
            "deal {k}"
        );
    }
}

/// A play-phase state: hearts and 2s, seat 0 starter, the kitty buried as dealt.
fn hearts_deal(hands: [&str; 4], kitty: &str) -> State {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| h.split_whitespace().map(card).collect()).collect();
    let mut deck = Vec::new();
    for p in 0..48 {
        deck.push(hands[p % 4][p / 4]);
    }
    deck.extend(kitty.split_whitespace().map(card));
    let setup = HandSetup {
        deck: deck.try_into().unwrap(),
        starter: Seat::ALL[0],
        first_deal: false,
        open: false,
        ranks: [Rank::Two, Rank::Two],
        variants: Variants::STANDARD,
    };
    let mut st = State::new(&setup).unwrap();
    while st.phase() == Phase::Drawing {
        let a = if st.declarable(st.to_move().unwrap()).contains(card("2H")) {
            Action::Declare(card("2H"))
        } else {
            Action::Pass
        };
        st.apply(a).unwrap();
    }
    while st.phase() == Phase::Annulling {
        st.apply(Action::Pass).unwrap();
    }
    let kitty = st.kitty();
    st.apply(Action::Bury(kitty)).unwrap();
    st
}

const HANDS: [&str; 4] = [
    "AS KS QS AC KC 3C BJ SJ 2H AH KH QH",
    "JS TS 9S QC JC TC 2S JH TH 9H 8H 7H",
    "8S 7S 6S 9C 8C 7C 2C 6H 5H 4H 3H 2D",
    "5S 4S 3S 6C 5C 4C AD KD QD JD TD 9D",
];
const KITTY_CARDS: &str = "8D 7D 6D 5D 4D 3D";

#[test]
fn the_heuristic_leads_its_top_cards_together_and_gives_points_to_a_winning_partner() {
    let mut st = hearts_deal(HANDS, KITTY_CARDS);
    let legal = st.legal_actions();
    let mut h = HeuristicBot::new();
    // Seat 0 holds AS KS QS, all top cards of spades, and no opponent is known void: it leads them
    // together.
    let a = h.choose(&st.view(Seat::ALL[0]), &legal);
    assert_eq!(a, Action::Play(cards("AS KS QS")));
    st.apply(a).unwrap();
    // Seat 1 must follow with three spades; seat 2 (the partner, winning for sure) gives points
    // when it can: it has no point spade, so it throws its lowest spades.
    st.apply(Action::Play(cards("JS TS 9S"))).unwrap();
    let legal = st.legal_actions();
    let a = h.choose(&st.view(Seat::ALL[2]), &legal);
    assert_eq!(a, Action::Play(cards("8S 7S 6S")));
    st.apply(a).unwrap();
    // Seat 3 follows with 5S 4S 3S (all it has).
    st.apply(Action::Play(cards("5S 4S 3S"))).unwrap();
    assert_eq!(st.tricks()[0].winner, Some(Seat::ALL[0]));
    // Seat 0 leads KC? It holds AC KC: both top cards in clubs: led together.
    let legal = st.legal_actions();
    let a = h.choose(&st.view(Seat::ALL[0]), &legal);
    assert_eq!(a, Action::Play(cards("AC KC")));
    st.apply(a).unwrap();
    // Seat 1 follows QC JC; partner seat 2 gives its clubs: 9C 8C (no points), seat 3 6C 5C —
    // a 5 it must... it holds 6C 5C 4C: throws the cheapest, keeping the five.
    st.apply(Action::Play(cards("QC JC"))).unwrap();
    st.apply(Action::Play(cards("9C 8C"))).unwrap();
    let legal = st.legal_actions();
    let a = h.choose(&st.view(Seat::ALL[3]), &legal);
    assert_eq!(a, Action::Play(cards("6C 4C")));
}

#[test]
fn knowledge_tracks_voids_and_top_card_facts() {
    let mut st = hearts_deal(HANDS, KITTY_CARDS);
    st.apply(Action::Play(cards("AS KS QS"))).unwrap();
    st.apply(Action::Play(cards("JS TS 9S"))).unwrap();
    st.apply(Action::Play(cards("8S 7S 6S"))).unwrap();
    st.apply(Action::Play(cards("5S 4S 3S"))).unwrap();
    st.apply(Action::Play(cards("AC KC"))).unwrap();
    // Seat 1 has two clubs left... it plays QC and a heart: void in clubs from now on.
    st.apply(Action::Play(cards("QC JH"))).unwrap_err();
    st.apply(Action::Play(cards("QC JC"))).unwrap();
    let v = st.view(Seat::ALL[3]);
    let k = Knowledge::from_view(&v, &st.legal_actions()).unwrap();
    let t = Tables::of(Trump { suit: dabaifen::Suit::Hearts, rank: Rank::Two });
    // Seat 1 followed three spades with three spades: not void. Everyone played three spades.
    assert_eq!(k.void, [0; 4]);
    // The top-card lead AS KS QS proved nobody else held a stronger spade (there is none), and
    // AC KC the same for clubs; the burial (hidden from seat 3) is six cards.
    assert_eq!(k.counts[KITTY], 6);
    assert_eq!(k.hidden & k.hand, 0);
    let _ = t;
    // After the trick, seat 3 sees that seat 2 followed AC KC with 9C 8C (two clubs of three) and
    // cannot say more; a follower who plays another suit is void.
    st.apply(Action::Play(cards("9C 8C"))).unwrap();
    st.apply(Action::Play(cards("6C 5C"))).unwrap();
    // Seat 0 leads 3C; seat 1 holds TC and must follow.
    st.apply(Action::Play(cards("3C"))).unwrap();
    st.apply(Action::Play(cards("TC"))).unwrap();
    // Seat 2 has 7C left.
    st.apply(Action::Play(cards("7C"))).unwrap();
    let v = st.view(Seat::ALL[3]);
    let k = Knowledge::from_view(&v, &st.legal_actions()).unwrap();
    assert_eq!(k.void, [0; 4]);
    st.apply(Action::Play(cards("4C"))).unwrap();
    // Seat 1 (won with TC) leads 2S (a trump); seat 2 plays 2C; seat 3 has no trump: plays AD.
    let w = st.tricks()[2].winner.unwrap();
    assert_eq!(w, Seat::ALL[1]);
    st.apply(Action::Play(cards("2S"))).unwrap();
    st.apply(Action::Play(cards("2C"))).unwrap();
    st.apply(Action::Play(cards("AD"))).unwrap();
    let v = st.view(Seat::ALL[0]);
    let k = Knowledge::from_view(&v, &st.legal_actions()).unwrap();
    assert_eq!(k.void[3], 1 << 4, "seat 3 showed it has no trump");
    // No trump can be placed with seat 3 in any sample.
    let p = ai::dabaifen::sample::Problem::of(&k);
    let mut rng = cards::Rng::from_seed(3);
    for _ in 0..50 {
        let w = p.sample(&mut rng);
        assert_eq!(w[3] & t.suit_mask[4], 0);
        assert_eq!(w[0], 0, "nothing hidden is placed with the seat itself");
        for (s, hand) in w.iter().enumerate().take(4).skip(1) {
            assert_eq!(hand.count_ones(), u32::from(v.hand_sizes[s]));
        }
    }
}

#[test]
fn the_burial_keeps_trumps_and_aces_and_voids_a_short_suit() {
    let t = Tables::of(Trump { suit: dabaifen::Suit::Hearts, rank: Rank::Two });
    let hand = cards("BJ 2H AH KH QH 9H 2S AS 9S 8S 4S 3S AC 7C 6C 4D 3D 9D").bits();
    let b = bury(t, hand, BuryStyle::SAFE);
    let buried = Cards::from_bits(b);
    assert_eq!(buried.len(), 6);
    assert_eq!(b & t.suit_mask[4], 0, "no trumps buried: {buried}");
    assert!(!buried.contains(card("AS")) && !buried.contains(card("AC")));
    // Diamonds (three low cards) are voided.
    assert!(cards("4D 3D 9D").is_subset(buried), "{buried}");
    // Pos sanity: from the hearts deal, the solver model agrees with the engine on the leader.
    let st = hearts_deal(HANDS, KITTY_CARDS);
    let pos = Pos::from_state(&st).unwrap();
    assert_eq!(pos.leader, 0);
    assert_eq!(Ctx::exact(&pos).choose(), cards("AS KS QS").bits());
}

#[test]
fn expert_worlds_respect_the_view_and_explain_the_heuristic_s_plays() {
    // Heuristic players to the sixth trick; then seat 0's worlds, from expert's chains and from
    // plain draws, are checked against what its view proves and compared by how many of the
    // other seats' plays the heuristic would not have made in them.
    let mut chains_misses = 0u32;
    let mut draws_misses = 0u32;
    for k in 0..4u64 {
        let setup = &setups(Variants::STANDARD, k)[1];
        let mut st = State::new(setup).unwrap();
        let mut h = HeuristicBot::new();
        while st.tricks().len() < 6 || st.tricks().last().unwrap().count != 0 {
            let s = st.to_move().unwrap();
            let a = h.choose(&st.view(s), &st.legal_actions());
            st.apply(a).unwrap();
        }
        let seat = Seat::ALL[0];
        let view = st.view(seat);
        let know = Knowledge::from_view(&view, &[]).unwrap();
        let obs = ai::dabaifen::infer::observed(&view, &know);
        let mut expert = ExpertBot::new(k, Budget::default());
        let mut plain = ExpertBot::with_params(
            k,
            ExpertParams { mcmc_steps: 0, ..ExpertParams::for_budget(Budget::default()) },
        );
        for (bot, misses) in [(&mut expert, &mut chains_misses), (&mut plain, &mut draws_misses)] {
            for w in bot.worlds(&view, &know, 40) {
                for c in ai::dabaifen::pos::bits(know.hidden) {
                    let place = (0..5).find(|&p| w[p] >> c & 1 != 0).expect("every hidden card placed");
                    assert!(know.allowed[c as usize] >> place & 1 != 0, "card {c} at place {place}");
                }
                for (p, (cards, &n)) in w.iter().zip(&know.counts).enumerate() {
                    assert_eq!(cards.count_ones(), u32::from(n), "place {p}");
                }
                let m = ai::dabaifen::infer::mismatches(&view, &know, &obs, &w).expect("a possible world");
                *misses += m.iter().map(|&x| u32::from(x)).sum::<u32>();
            }
        }
    }
    // The chains find worlds that explain the plays far better (a third fewer unexplained plays).
    assert!(chains_misses * 3 < draws_misses * 2, "chains {chains_misses}, draws {draws_misses}");
}

#[test]
fn expert_buries_among_pimc_s_burials_and_their_one_card_changes() {
    use ai::dabaifen::pimc::bury_options;
    let budget = Budget { think_ms: 20 };
    let (mut outside, mut positions) = (0, 0);
    for k in 0..6u64 {
        let setup = &setups(Variants::STANDARD, k)[1];
        let mut st = State::new(setup).unwrap();
        let mut h = HeuristicBot::new();
        while matches!(st.phase(), Phase::Drawing | Phase::Annulling) {
            let seat = st.to_move().unwrap();
            let legal = st.legal_actions();
            st.apply(h.choose(&st.view(seat), &legal)).unwrap();
        }
        if st.phase() != Phase::Burying {
            continue;
        }
        positions += 1;
        let seat = st.to_move().unwrap();
        let (view, legal) = (st.view(seat), st.legal_actions());
        let k8 = Knowledge::from_view(&view, &legal).unwrap();
        let pimc_cands = bury_options(k8.t, k8.hand, 8);
        let mut e = ExpertBot::new(k, budget);
        let w = e.weigh_bury(&view, &legal).unwrap();
        // The screen holds the best candidates' one-card changes (72 each, some shared).
        assert!(w.screened > 72 + 1, "screened {}", w.screened);
        assert!(w.choice < w.burials.len() && w.sums.len() == w.burials.len());
        assert!(w.burials.iter().all(|&b| b & !k8.hand == 0 && b.count_ones() == 6));
        outside += w.burials.iter().filter(|b| !pimc_cands.contains(b)).count();
        // Its choice is what it plays, and a legal burial.
        let a = ExpertBot::new(k, budget).choose(&view, &legal);
        assert_eq!(a, Action::Bury(Cards::from_bits(w.burials[w.choice])));
        assert!(legal.contains(&a));
        // Without the widening it buries as pimc does.
        let mut plain = ExpertParams::for_budget(budget);
        plain.bury_widen = 0;
        let p = PimcBot::with_params(k, plain.base).choose(&view, &legal);
        assert_eq!(ExpertBot::with_params(k, plain).choose(&view, &legal), p);
    }
    assert!(positions >= 3, "{positions} burial positions");
    assert!(outside > 0, "no finalist outside pimc's candidates");
}
