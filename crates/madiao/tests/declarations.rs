//! §4 Declarations: one test per line of the meld table with its payments, the HM holder's
//! exemption, several holders (§9.2), cumulative stacking (§9.3), the extra stake, the four lowest
//! (§9.4) and the long-suit redeal; §7 the next banker and the end of the match.

mod common;

use common::*;
use madiao::record::MadiaoOutcome;
use madiao::{Action, Match, MeldKind, Phase, State, Suit, Variants};

/// Seat 1 gets `meld_hand`; the other hands and the stock are filled from the remaining cards in
/// a fixed order (no other meld, no four lowest: T2 M1 S1 W9 are kept apart).
fn meld_deal(banker: u8, meld_hand: &str, tb_with: Option<u8>, variants: Variants) -> State {
    let taken: Vec<madiao::Card> = meld_hand.split_whitespace().map(card).collect();
    // Spread the rest: seats 0, 2, 3 then the stock, lowest cards kept apart by dealing round-robin.
    let mut rest: Vec<madiao::Card> = madiao::Card::all().filter(|c| !taken.contains(c)).collect();
    // Put TB where asked (seat 0, 2, 3 or the stock when None), the rest round-robin.
    let tb = card("TB");
    let tb_free = rest.contains(&tb);
    rest.retain(|&c| c != tb);
    let mut piles: [Vec<madiao::Card>; 4] = Default::default(); // seat 0, seat 2, seat 3, stock
    if tb_free {
        let k = match tb_with {
            Some(0) => 0,
            Some(2) => 1,
            Some(3) => 2,
            _ => 3,
        };
        piles[k].push(tb);
    }
    // Round-robin over the four piles, skipping full ones; keep the upcard a plain 3 (W3).
    let w3 = card("W3");
    rest.retain(|&c| c != w3);
    let mut k = 0;
    for c in rest {
        while piles[k].len() >= if k == 3 { 7 } else { 8 } {
            k = (k + 1) % 4;
        }
        piles[k].push(c);
        k = (k + 1) % 4;
    }
    piles[3].push(w3);
    let text = |v: &Vec<madiao::Card>| v.iter().map(|c| c.code()).collect::<Vec<_>>().join(" ");
    let hands = [text(&piles[0]), meld_hand.to_string(), text(&piles[1]), text(&piles[2])];
    state(banker, [&hands[0], &hands[1], &hands[2], &hands[3]], &text(&piles[3]), variants)
}

fn meld_case(hand: &str, tb_with: Option<u8>, v: Variants) -> ([f64; 4], State) {
    let st = meld_deal(0, hand, tb_with, v);
    assert_eq!(st.outcome(), Some(MadiaoOutcome::Meld), "{hand}");
    let r = st.to_record_result().unwrap();
    assert_eq!(r.tricks.0, [0; 4], "§9.1 unplayed hands report no tricks");
    assert_eq!(r.next_banker, Some(seat(1)), "the meld holder banks next");
    (payoffs(&st), st)
}

#[test]
fn meld_four_tops_pays_four_except_the_hm_holder() {
    let (p, st) = meld_case("TW M9 S9 W0 T7 M6 S6 W4", Some(2), standard());
    assert_eq!(st.melds(seat(1)).0[0], Some(MeldKind::FourTops));
    // Seats 0 and 3 pay 4 each; seat 2 holds TB and pays nothing.
    assert_eq!(p, [-4.0, 8.0, 0.0, -4.0]);
    let line = all_lines(&st)[0].to_string();
    assert_eq!(
        line,
        "seat 1: meld: four tops (TW M9 S9 W0) (seat 2 holds TB and pays nothing): +4 from each of seats 0, 3 (+8)"
    );
}

#[test]
fn meld_four_tops_with_hm_pays_five_from_everyone() {
    let (p, _) = meld_case("TW TB M9 S9 W0 M6 S6 W4", None, standard());
    assert_eq!(p, [-5.0, 15.0, -5.0, -5.0]);
}

#[test]
fn meld_flush_pays_four() {
    let (p, st) = meld_case("S1 S2 S3 S4 S5 S6 S7 S8", Some(3), standard());
    assert_eq!(st.melds(seat(1)).0[1], Some(MeldKind::Flush(Suit::Strings)));
    assert_eq!(p, [-4.0, 8.0, -4.0, 0.0]);
    let (p, _) = meld_case("TW TQ T9 T8 T7 T6 T5 T4", Some(0), standard());
    assert_eq!(p, [0.0, 8.0, -4.0, -4.0]);
}

#[test]
fn meld_flush_of_tens_with_hm_pays_five() {
    let (p, _) = meld_case("TW TQ TB T9 T8 T7 T6 T5", None, standard());
    assert_eq!(p, [-5.0, 15.0, -5.0, -5.0]);
}

#[test]
fn meld_eight_reds_pays_six() {
    // Eight reds without TB (which contains the four tops: only the highest, 6, counts).
    let (p, _) = meld_case("TW TQ T2 M9 M1 S9 S1 W0", Some(3), standard());
    assert_eq!(p, [-6.0, 12.0, -6.0, 0.0]);
}

#[test]
fn meld_eight_reds_with_hm_pays_seven() {
    let (p, _) = meld_case("TQ TB T2 M9 M1 S9 S1 W9", None, standard());
    assert_eq!(p, [-7.0, 21.0, -7.0, -7.0]);
}

#[test]
fn meld_four_tops_and_four_lowest_pays_eight() {
    let (p, st) = meld_case("TW T2 M9 M1 S9 S1 W0 W9", Some(2), standard());
    // A meld beats the four lowest it contains (melds are checked first).
    assert_eq!(p, [-8.0, 16.0, 0.0, -8.0]);
    assert_eq!(st.melds(seat(1)).stakes(st.variants()), 8);
}

#[test]
fn meld_stacking_cumulative_adds_families_and_replaces_within_them() {
    let v = with(standard(), "meld_stacking", "cumulative");
    // §9.3 four tops 4 + eight reds 6 + four tops and four lowest 8 = 18.
    let (p, _) = meld_case("TW T2 M9 M1 S9 S1 W0 W9", Some(2), v);
    assert_eq!(p, [-18.0, 36.0, 0.0, -18.0]);
    // Four tops with HM 5 + eight reds with HM 7 = 12 (not 4 + 5 + 6 + 7).
    let (p, st) = meld_case("TW TQ TB T2 M9 S9 W0 W9", None, v);
    assert_eq!(p, [-12.0, 36.0, -12.0, -12.0]);
    assert_eq!(all_lines(&st).len(), 2, "one line per family");
}

#[test]
fn meld_extra_stake_adds_one_from_each_payer() {
    let v = with(standard(), "meld_extra_stake", "true");
    let (p, _) = meld_case("TW M9 S9 W0 T7 M6 S6 W4", Some(2), v);
    assert_eq!(p, [-5.0, 10.0, 0.0, -5.0]);
    let (p, _) = meld_case("TW M9 S9 W0 T7 M6 S6 W4", Some(2), Variants::FENG);
    assert_eq!(p, [-5.0, 10.0, 0.0, -5.0]);
}

#[test]
fn several_meld_holders_each_collect_and_the_first_in_play_order_banks() {
    let hands = [
        "T9 T8 M8 M7 W1 W2 T6 M5",
        "TW M9 S9 W0 T7 M6 W4 W5",
        "TB T5 M4 M3 W6 W7 T4 M2",
        "S1 S2 S3 S4 S5 S6 S7 S8",
    ];
    let stock = "TQ T3 T2 M1 W8 W9 WH W3";
    let st = state(0, hands, stock, standard());
    // §9.2 s1 collects 4 from s0 and s3; s3 collects 4 from s0 and s1; s2 (TB) pays nobody.
    assert_eq!(payoffs(&st), [-8.0, 4.0, 0.0, 4.0]);
    assert_eq!(st.to_record_result().unwrap().next_banker, Some(seat(1)));
    // With banker 2 the first recipient is seat 2 (upcard W3), so seat 3 comes first in play order.
    let st = state(2, hands, stock, standard());
    assert_eq!(st.first_recipient(), seat(2));
    assert_eq!(payoffs(&st), [-8.0, 4.0, 0.0, 4.0]);
    assert_eq!(st.to_record_result().unwrap().next_banker, Some(seat(3)));
}

#[test]
fn tb_in_the_stock_exempts_nobody() {
    // §9.10
    let (p, st) = meld_case("TW M9 S9 W0 T7 M6 S6 W4", None, standard());
    assert!(st.hm_holder().is_none());
    assert_eq!(p, [-4.0, 12.0, -4.0, -4.0]);
}

const FOUR_LOWEST: [&str; 4] = [
    "T9 T8 M8 M7 S8 S7 W1 W2",
    "T2 M1 S1 W9 T7 M6 S6 W4",
    "TB T6 M5 M4 S5 S4 W5 W6",
    "TQ T5 M3 M2 S3 S2 W7 W8",
];

#[test]
fn four_lowest_everyone_pays_one_and_the_banker_is_drawn_again() {
    let st = state(0, FOUR_LOWEST, "TW T4 T3 M9 S9 W0 WH W3", standard());
    assert_eq!(st.outcome(), Some(MadiaoOutcome::FourLowest));
    // §9.4 the HM holder (seat 2) pays too.
    assert_eq!(payoffs(&st), [-1.0, 3.0, -1.0, -1.0]);
    let r = st.to_record_result().unwrap();
    assert_eq!(r.next_banker, None);
    assert_eq!(r.tricks.0, [0; 4]);
    assert_eq!(st.four_lowest_holder(), Some(seat(1)));
}

const LONG: [&str; 4] = [
    "T9 T8 M8 M7 S8 S7 W1 W2",
    "M6 M5 M4 M3 M2 T7 S6 W4",
    "TB T6 T5 M9 S5 S4 W5 W6",
    "W0 WH W7 W8 W9 T4 S3 S2",
];
const LONG_STOCK: &str = "TW TQ T3 T2 M1 S9 S1 W3";

#[test]
fn long_suit_holders_are_asked_in_play_order_and_may_force_a_redeal() {
    let mut st = state(0, LONG, LONG_STOCK, standard());
    assert_eq!(st.phase(), Phase::Redeal);
    assert_eq!(st.to_move(), Some(seat(1)));
    assert_eq!(st.legal_actions(), vec![Action::Redeal(true), Action::Redeal(false)]);
    st.apply(Action::Redeal(false)).unwrap();
    assert_eq!(st.to_move(), Some(seat(3)));
    st.apply(Action::Redeal(true)).unwrap();
    assert_eq!(st.outcome(), Some(MadiaoOutcome::Redeal));
    let r = st.to_record_result().unwrap();
    assert_eq!(r.next_banker, Some(seat(0)), "the banker stays");
    assert_eq!(r.payoffs.0.map(|h| h.0), [0; 4]);
    assert_eq!(r.tricks.0, [0; 4]);
    assert_eq!(st.redeal_choices(), vec![(seat(1), false), (seat(3), true)]);
}

#[test]
fn long_suit_order_starts_from_the_first_recipient() {
    // Banker 2: the upcard W3 makes seat 2 first, so seat 3 is asked before seat 1.
    let mut st = state(2, LONG, LONG_STOCK, standard());
    assert_eq!(st.to_move(), Some(seat(3)));
    st.apply(Action::Redeal(false)).unwrap();
    assert_eq!(st.to_move(), Some(seat(1)));
    st.apply(Action::Redeal(false)).unwrap();
    assert_eq!(st.phase(), Phase::Play);
    assert_eq!(st.to_move(), Some(seat(2)));
    assert_eq!(st.redeal_choices(), vec![(seat(3), false), (seat(1), false)]);
    let e = st.apply(Action::Redeal(true)).unwrap_err().to_string();
    assert_eq!(e, "seat 2 cannot choose a redeal now: the declarations are over and play has begun");
}

#[test]
fn playing_before_a_pending_redeal_question_is_refused() {
    let mut st = state(0, LONG, LONG_STOCK, standard());
    let e = st.apply(Action::Play(card("T9"))).unwrap_err().to_string();
    assert_eq!(e, "seat 1 must first say whether to force a redeal with a long suit (§4.3)");
}

/// A deck where seat `(banker + 1) % 4` holds the four tops (a meld), built for `banker`.
fn meld_for_next(banker: u8) -> [madiao::Card; 40] {
    let holder = usize::from((banker + 1) % 4);
    let others = ["T7 T6 M6 M5 S6 S5 W4 W5", "T5 T4 M4 M3 S4 S3 W6 W7", "TQ TB M2 S2 W8 T3 T2 S1"];
    let mut k = 0;
    let hands: [&str; 4] = std::array::from_fn(|s| {
        if s == holder {
            "TW M9 S9 W0 S8 S7 W1 W2"
        } else {
            k += 1;
            others[k - 1]
        }
    });
    deck(banker, hands, "T9 T8 M8 M7 M1 W9 WH W3")
}

#[test]
fn match_ends_when_every_seat_has_banked_and_the_bank_passes() {
    let mut m = Match::new(Variants::STANDARD);
    for b in 0..4u8 {
        let setup = m.setup(seat(b), 2, meld_for_next(b)).unwrap();
        let st = State::new(setup).unwrap();
        assert_eq!(st.outcome(), Some(MadiaoOutcome::Meld));
        let r = m.finish(&st).unwrap();
        assert_eq!(r.next_banker, Some(seat((b + 1) % 4)));
        assert_eq!(r.game_over, b == 3, "hand {b}");
    }
    assert!(m.is_over());
    assert!(m.setup(seat(0), 2, meld_for_next(0)).is_err());
}

#[test]
fn match_chains_bankers_and_refuses_the_wrong_one() {
    let mut m = Match::new(Variants::STANDARD);
    let st = State::new(m.setup(seat(2), 2, meld_for_next(2)).unwrap()).unwrap();
    m.finish(&st).unwrap();
    let e = m.setup(seat(0), 2, meld_for_next(0)).unwrap_err();
    assert_eq!(e.to_string(), "banker is 0 but the previous hand's result says 3 comes next");
}

#[test]
fn a_banker_who_keeps_the_bank_plays_on() {
    // All four have banked; the banker (seat 3) deals a redeal: the bank stays, the match goes on.
    let mut m = Match::new(Variants::STANDARD);
    for b in 0..3u8 {
        let st = State::new(m.setup(seat(b), 2, meld_for_next(b)).unwrap()).unwrap();
        m.finish(&st).unwrap();
    }
    let mut st = State::new(m.setup(seat(3), 2, deck(3, LONG, LONG_STOCK)).unwrap()).unwrap();
    while st.phase() == Phase::Redeal {
        st.apply(Action::Redeal(true)).unwrap();
    }
    let r = m.finish(&st).unwrap();
    assert_eq!(r.next_banker, Some(seat(3)));
    assert!(!r.game_over);
    // Then a hand after which the bank passes ends it.
    let st = State::new(m.setup(seat(3), 2, meld_for_next(3)).unwrap()).unwrap();
    assert!(m.finish(&st).unwrap().game_over);
}

#[test]
fn four_lowest_redraw_counts_as_the_bank_passing() {
    let mut m = Match::new(Variants::STANDARD);
    for b in 0..3u8 {
        let st = State::new(m.setup(seat(b), 2, meld_for_next(b)).unwrap()).unwrap();
        m.finish(&st).unwrap();
    }
    let st =
        State::new(m.setup(seat(3), 2, deck(3, FOUR_LOWEST, "TW T4 T3 M9 S9 W0 WH W3")).unwrap()).unwrap();
    let r = m.finish(&st).unwrap();
    assert_eq!(r.next_banker, None);
    assert!(r.game_over);
}

#[test]
fn game_length_hands_n_ends_after_n_hands() {
    let v = with(standard(), "game_length", "hands:2");
    let mut m = Match::new(v);
    let st = State::new(m.setup(seat(0), 2, meld_for_next(0)).unwrap()).unwrap();
    assert!(!m.finish(&st).unwrap().game_over);
    let st = State::new(m.setup(seat(1), 2, meld_for_next(1)).unwrap()).unwrap();
    assert!(m.finish(&st).unwrap().game_over);
}
