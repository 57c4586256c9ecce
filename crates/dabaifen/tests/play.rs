//! Leads, top cards, following, trick winners and revokes (§2, §8, §12.7–8, §12.12).

mod common;

use common::*;
use dabaifen::{
    Action, HandSetup, IllegalAction, KittyMultiplier, Outcome, Phase, Rank, Revoke, State, Suit, Trump,
};

/// Trumps hearts and 8 (the example of §2), starter 0 (team 0 at 8), seat 2 shows 8H after the
/// draw; the kitty 2D 5C 6C 7C 9C TC (15 points) is buried as dealt.
///
/// | seat | trumps | spades | diamonds | clubs |
/// |---|---|---|---|---|
/// | 0 | BJ 8S 8C 4H | AS KS QS 5S | AD | 4C 3C 2C |
/// | 1 | 8D 9H 7H | JS TS 3S | 6D 5D | AC KC QC JC |
/// | 2 | SJ 8H AH | 9S 7S 6S 4S 2S | 9D 7D 4D 3D | |
/// | 3 | KH QH JH TH 6H 5H 3H 2H | | KD QD JD TD | |
fn hearts_and_8() -> HandSetup {
    setup(
        0,
        ['8', '2'],
        [
            "AS KS QS 5S 8S 8C BJ 4H AD 2C 3C 4C",
            "JS TS 3S 8D 9H 7H AC KC QC JC 5D 6D",
            "9S 7S 6S 4S 2S SJ 8H AH 3D 4D 7D 9D",
            "KH QH JH TH 6H 5H 3H 2H KD QD JD TD",
        ],
        "2D 5C 6C 7C 9C TC",
    )
}

fn layout1() -> State {
    let st = playing(&hearts_and_8(), 2, "8H");
    assert_eq!(st.trump(), Some(Trump { suit: Suit::Hearts, rank: Rank::Eight }));
    assert_eq!(st.starter(), seat(0));
    st
}

#[test]
fn top_cards_ignore_the_leaders_own_cards_and_count_only_strictly_stronger_ones() {
    let st = layout1();
    // Spades: others' best is JS, so AS KS QS are top and 5S is not. BJ is always top; 8S and
    // 8C are beaten by 8H and SJ in seat 2's hand. AD is a plain-suit A.
    assert_eq!(st.top_cards(seat(0)), cards("AS KS QS BJ AD"));
    // Seat 3: AH, 8H, the off-suit 8s and the jokers beat its hearts; AD beats its diamonds.
    assert_eq!(st.top_cards(seat(3)), cards(""));
}

#[test]
fn legal_leads_are_singles_top_subsets_and_under_penalize_revokes() {
    let st = layout1();
    let legal = st.legal_actions();
    // 12 singles; spades AS KS QS 5S: 11 subsets of two or more (4 of top cards only, 7 revokes);
    // trumps BJ 8S 8C 4H: 11 (all revokes, BJ being the only top trump); clubs 4C 3C 2C: 4 revokes.
    assert_eq!(legal.len(), 12 + 11 + 11 + 4);
    assert!(legal.contains(&Action::Play(cards("AS KS QS"))));
    assert!(legal.contains(&Action::Play(cards("AS 5S"))));
    assert!(!legal.iter().any(|a| *a == Action::Play(cards("AS AD"))));
    let mut refuse = hearts_and_8();
    refuse.variants.revoke = Revoke::Refuse;
    let st = playing(&refuse, 2, "8H");
    let legal = st.legal_actions();
    assert_eq!(legal.len(), 12 + 4);
    assert!(legal.contains(&Action::Play(cards("KS QS"))));
    assert!(!legal.contains(&Action::Play(cards("AS 5S"))));
}

#[test]
fn a_lead_mixing_suits_is_illegal_under_both_revoke_variants() {
    let mut st = layout1();
    assert_eq!(
        play(&mut st, "AS AD").unwrap_err(),
        "seat 0 cannot lead AS AD together: a lead of several cards must be of one suit"
    );
    // 8S is a trump, not a spade.
    assert_eq!(
        play(&mut st, "AS 8S").unwrap_err(),
        "seat 0 cannot lead 8S AS together: a lead of several cards must be of one suit"
    );
    let mut refuse = hearts_and_8();
    refuse.variants.revoke = Revoke::Refuse;
    let mut st = playing(&refuse, 2, "8H");
    assert!(play(&mut st, "AS AD").unwrap_err().contains("must be of one suit"));
    play(&mut st, "AS").unwrap();
}

#[test]
fn a_multi_card_lead_of_top_cards_and_following_n_cards() {
    let mut st = layout1();
    play(&mut st, "AS KS QS").unwrap();
    // Seat 1 holds three spades: all of them.
    assert_eq!(
        play(&mut st, "JS TS AC").unwrap_err(),
        "seat 1 must play 3 of its spades to follow this lead of 3, not 2 (holds JS TS 3S)"
    );
    assert_eq!(play(&mut st, "JS TS").unwrap_err(), "seat 1 must play 3 cards to this trick, not 2");
    assert_eq!(play(&mut st, "JS TS 3S 9H").unwrap_err(), "seat 1 must play 3 cards to this trick, not 4");
    // Legal follows for seat 1: exactly one.
    assert_eq!(st.legal_actions(), vec![Action::Play(cards("JS TS 3S"))]);
    play(&mut st, "3S TS JS").unwrap(); // any order (§12.12)
    // Seat 2 holds five spades: any three of them, nothing else.
    assert_eq!(st.legal_action_count(), 10);
    assert_eq!(
        play(&mut st, "9S 7S 3D").unwrap_err(),
        "seat 2 must play 3 of its spades to follow this lead of 3, not 2 (holds 9S 7S 6S 4S 2S)"
    );
    play(&mut st, "9S 7S 6S").unwrap();
    // Seat 3 has no spade: any three cards (C(12, 3) = 220); only trumps can win.
    assert_eq!(st.legal_action_count(), 220);
    let mut mixed = st.clone();
    play(&mut mixed, "KH QH KD").unwrap();
    assert_eq!(mixed.tricks()[0].winner, Some(seat(0)), "a play mixing trumps and plain cards cannot win");
    let mut plain = st.clone();
    play(&mut plain, "KD QD JD").unwrap();
    assert_eq!(plain.tricks()[0].winner, Some(seat(0)));
    play(&mut st, "KH QH 2H").unwrap();
    let t = st.tricks()[0];
    assert_eq!(t.winner, Some(seat(3)), "a follower playing only trumps wins");
    assert_eq!(t.points, 30, "KS TS KH");
    assert_eq!(st.team_points(), [0, 30]);
    assert_eq!(st.to_move(), Some(seat(3)), "the winner leads next");
    assert_eq!(st.tricks()[1].leader, seat(3));
}

#[test]
fn following_a_single_card_is_judged_on_effective_suits() {
    let mut st = layout1();
    play(&mut st, "AD").unwrap();
    // 8D is a trump, not a diamond.
    assert_eq!(play(&mut st, "8D").unwrap_err(), "seat 1 must follow diamonds (holds 6D 5D)");
    assert_eq!(st.legal_actions(), vec![Action::Play(cards("5D")), Action::Play(cards("6D"))]);
    play(&mut st, "5D").unwrap();
    play(&mut st, "3D").unwrap();
    // Seat 3 must follow diamonds too; trumping is never compulsory but not allowed while holding the suit.
    assert_eq!(play(&mut st, "KH").unwrap_err(), "seat 3 must follow diamonds (holds KD QD JD TD)");
    play(&mut st, "KD").unwrap();
    let t = st.tricks()[0];
    assert_eq!((t.winner, t.points), (Some(seat(0)), 15));
    assert_eq!(st.team_points(), [15, 0]);

    let mut st = layout1();
    play(&mut st, "8S").unwrap();
    assert_eq!(play(&mut st, "JS").unwrap_err(), "seat 1 must follow trumps (holds 8D 9H 7H)");
    // Equal trump-rank cards: the one played first wins; AH is below the off-suit 8s.
    play(&mut st, "8D").unwrap();
    play(&mut st, "AH").unwrap();
    play(&mut st, "2H").unwrap();
    assert_eq!(st.tricks()[0].winner, Some(seat(0)));

    // A void follower may discard anything; a discard never wins.
    let mut st = layout1();
    play(&mut st, "5S").unwrap();
    play(&mut st, "3S").unwrap();
    play(&mut st, "2S").unwrap();
    assert_eq!(st.legal_action_count(), 12, "void in spades: any card");
    play(&mut st, "KD").unwrap();
    assert_eq!((st.tricks()[0].winner, st.tricks()[0].points), (Some(seat(0)), 15));
}

#[test]
fn single_card_trick_winners_follow_the_trump_order() {
    let mut st = layout1();
    // 4C: seat 1 must follow clubs; seats 2 and 3 are void and trump.
    play(&mut st, "4C").unwrap();
    play(&mut st, "JC").unwrap();
    play(&mut st, "AH").unwrap();
    play(&mut st, "KH").unwrap();
    assert_eq!(st.tricks()[0].winner, Some(seat(2)), "AH beats KH");
    let mut st = layout1();
    play(&mut st, "4C").unwrap();
    play(&mut st, "AC").unwrap();
    play(&mut st, "8H").unwrap();
    play(&mut st, "2H").unwrap();
    assert_eq!(
        st.tricks()[0].winner,
        Some(seat(2)),
        "8H, the trump-rank card of the trump suit, beats the other trumps"
    );
    let mut st = layout1();
    play(&mut st, "BJ").unwrap();
    play(&mut st, "9H").unwrap();
    play(&mut st, "SJ").unwrap();
    play(&mut st, "3H").unwrap();
    assert_eq!(st.tricks()[0].winner, Some(seat(0)), "BJ beats SJ");
}

/// Trumps spades and 2; starter 1 leads clubs; seats 2 and 3 are void in clubs and hold trumps,
/// among them the equal 2H and 2D.
///
/// | seat | trumps | other |
/// |---|---|---|
/// | 0 | QS JS TS 9S 8S 7S | TC 9C 8C 7C 6C 5C |
/// | 1 | | AC KC QC JC, TH 9H 8H 7H 6H 5H 4H 3H |
/// | 2 | BJ 2H 5S 4S | AD KD QD JD TD 9D 8D 7D |
/// | 3 | SJ 2S 2D AS | AH KH QH JH 6D 5D 4D 3D |
fn spades_and_2() -> State {
    let setup = setup(
        1,
        ['5', '2'],
        [
            "TC 9C 8C 7C 6C 5C 7S 8S 9S TS JS QS",
            "AC KC QC JC 3H 4H 5H 6H 7H 8H 9H TH",
            "BJ 2H 4S 5S AD KD QD JD TD 9D 8D 7D",
            "SJ 2S AS 2D KH QH JH AH 6D 5D 4D 3D",
        ],
        "KS 3S 6S 4C 3C 2C",
    );
    let st = playing(&setup, 3, "2S");
    assert_eq!(st.trump(), Some(Trump { suit: Suit::Spades, rank: Rank::Two }));
    assert_eq!(st.starter(), seat(1));
    st
}

fn multi(plays: [&str; 4]) -> u8 {
    let mut st = spades_and_2();
    for p in plays {
        play(&mut st, p).unwrap();
    }
    st.tricks()[0].winner.unwrap().number()
}

#[test]
fn multi_card_tricks_compare_all_trump_plays_strongest_first_then_the_next() {
    // Seats play 1, 2, 3, 0.
    assert_eq!(multi(["AC KC", "BJ 4S", "2S AS", "TC 9C"]), 2, "BJ beats 2S");
    assert_eq!(multi(["AC KC", "2H 5S", "2D AS", "TC 9C"]), 3, "2H = 2D, then AS beats 5S");
    assert_eq!(multi(["AC KC", "2H BJ", "2D 2S", "TC 9C"]), 2, "strongest first: BJ beats 2S");
    assert_eq!(multi(["AC KC", "2H AD", "KH QH", "TC 9C"]), 1, "mixed or off-suit plays cannot win");
    assert_eq!(multi(["AC KC QC", "BJ 2H 4S", "SJ 2S AS", "TC 9C 8C"]), 2);
    assert_eq!(multi(["AC KC QC", "5S 4S 2H", "2D AS SJ", "TC 9C 8C"]), 3, "SJ beats 2H");
    // A single card: equal trumps, the earlier wins.
    let mut st = spades_and_2();
    for p in ["JC", "2H", "2D", "5C"] {
        play(&mut st, p).unwrap();
    }
    assert_eq!(st.tricks()[0].winner, Some(seat(2)));
}

#[test]
fn partial_follows_of_a_multi_card_lead() {
    let mut st = spades_and_2();
    // Seat 1 leads its four top clubs; seat 2 has none; seat 3 none; seat 0 six clubs.
    play(&mut st, "AC KC QC JC").unwrap();
    play(&mut st, "BJ 2H 4S AD").unwrap();
    play(&mut st, "SJ 2S 2D AS").unwrap();
    assert_eq!(
        play(&mut st, "TC 9C 8C 7S").unwrap_err(),
        "seat 0 must play 4 of its clubs to follow this lead of 4, not 3 (holds TC 9C 8C 7C 6C 5C)"
    );
    play(&mut st, "TC 9C 8C 7C").unwrap();
    assert_eq!(st.tricks()[0].winner, Some(seat(3)), "seat 2 mixed a diamond in; seat 3 played only trumps");
    assert_eq!(st.to_move(), Some(seat(3)));
}

#[test]
fn top_card_checks_ignore_the_buried_kitty_and_equal_trump_rank_cards() {
    let mut st = kitty_holds_the_strong_trumps();
    assert_eq!(st.top_cards(seat(0)), cards("8S 8C AS KS AD KD QD JD"));
    assert!(st.legal_actions().contains(&Action::Play(cards("8S 8C"))));
    play(&mut st, "8S 8C").unwrap();
    assert_eq!(st.phase(), Phase::Playing, "not a revoke");
    // Seat 1 holds one trump (8D): it and one other card.
    assert_eq!(
        play(&mut st, "QS JS").unwrap_err(),
        "seat 1 must play 1 of its trumps to follow this lead of 2, not 0 (holds 8D)"
    );
    play(&mut st, "8D QS").unwrap();
    play(&mut st, "AH KH").unwrap();
    play(&mut st, "TD 9C").unwrap();
    assert_eq!(st.tricks()[0].winner, Some(seat(0)), "8S 8C (equal) beat AH KH");
    // Played cards do not count either: seat 0's 5S is not top while QS..6S are out there,
    // but the diamonds are.
    assert!(st.legal_actions().contains(&Action::Play(cards("AD KD QD JD"))));
}

#[test]
fn revoke_penalize_ends_the_deal_scored_against_the_offending_declarers() {
    let mut st = layout1();
    play(&mut st, "AS KS QS 5S").unwrap();
    assert_eq!(st.phase(), Phase::Over);
    assert_eq!(st.revoke(), Some(seat(0)));
    let r = st.result().unwrap();
    // §12.8: T = 100 − 15 (kitty) + 2 × 15 = 115; defenders +2; the last trick counts as theirs.
    assert_eq!(r.outcome, Outcome::Revoke);
    assert_eq!(
        (r.defender_points, r.kitty_points, r.last_trick, r.winner),
        (Some(115), Some(15), Some(1), Some(1))
    );
    assert_eq!((r.levels, r.ranks, r.next_starter), (2, [Rank::Eight, Rank::Four], seat(1)));
    // The lead is shown to everyone; the account names a stronger card another seat held.
    let v = st.view(seat(2));
    assert_eq!(v.tricks[0].plays[0].cards.len(), 4);
    let text = st.settlement().to_string();
    assert!(
        text.contains("seat 0 led AS KS QS 5S: a revoke; 5S is not a top card (seat 1 holds JS)"),
        "{text}"
    );

    let mut per_card = hearts_and_8();
    per_card.variants.kitty_multiplier = KittyMultiplier::PerCard;
    let mut st = playing(&per_card, 2, "8H");
    play(&mut st, "AS KS QS 5S").unwrap();
    // Under per_card the multiplier uses the revoking lead's size: 2 × 4.
    assert_eq!(st.result().unwrap().defender_points, Some(100 - 15 + 8 * 15));
}

#[test]
fn revoke_by_the_defenders_scores_zero_for_them() {
    let mut st = layout1();
    for p in ["2C", "AC", "9D", "KD"] {
        play(&mut st, p).unwrap();
    }
    assert_eq!(st.tricks()[0].winner, Some(seat(1)));
    assert_eq!(st.team_points(), [0, 10]);
    // JS TS are beaten by AS KS QS in seat 0's hand.
    play(&mut st, "JS TS").unwrap();
    let r = st.result().unwrap();
    assert_eq!(r.outcome, Outcome::Revoke);
    assert_eq!((r.defender_points, r.last_trick, r.winner, r.levels), (Some(0), Some(0), Some(0), 2));
    assert_eq!(r.ranks, [Rank::Ten, Rank::Two]);
    assert_eq!(r.next_starter, seat(2));
}

#[test]
fn revoke_refuse_rejects_the_lead() {
    let mut refuse = hearts_and_8();
    refuse.variants.revoke = Revoke::Refuse;
    let mut st = playing(&refuse, 2, "8H");
    let e = st.apply(Action::Play(cards("AS KS QS 5S"))).unwrap_err();
    assert_eq!(e.to_string(), "seat 0 cannot lead AS KS QS 5S: 5S is not a top card (seat 1 holds JS)");
    assert!(matches!(e, IllegalAction::NotTop { .. }));
    assert_eq!(st.phase(), Phase::Playing);
    play(&mut st, "AS KS QS").unwrap();
}

#[test]
fn cards_not_held_and_wrong_phase_actions_are_rejected() {
    let mut st = layout1();
    assert_eq!(play(&mut st, "JS").unwrap_err(), "seat 0 does not hold JS");
    assert_eq!(play(&mut st, "").unwrap_err(), "seat 0 must play at least one card");
    assert_eq!(st.apply(Action::Pass).unwrap_err().to_string(), "seat 0 cannot pass now: it must play");
    assert_eq!(
        st.apply(Action::Declare(card("8S"))).unwrap_err().to_string(),
        "seat 0 cannot declare now: trumps are already fixed"
    );
    assert_eq!(st.apply(Action::Annul).unwrap_err().to_string(), "seat 0 cannot annul now: play has begun");
}

#[test]
fn a_full_deal_ends_when_the_hands_are_empty_and_scores() {
    // Everyone plays one card at a time, the lowest legal card by the engine's enumeration.
    let mut st = layout1();
    while st.phase() == Phase::Playing {
        let a = st.legal_actions()[0];
        st.apply(a).unwrap();
    }
    assert_eq!(st.tricks().len(), 12);
    let r = st.result().unwrap();
    let [p0, p1] = st.team_points();
    assert_eq!(p0 + p1 + r.kitty_points.unwrap(), 100);
    let t = r.defender_points.unwrap();
    let bonus = if r.last_trick == Some(1) { 30 } else { 0 };
    assert_eq!(t, p1 + bonus);
}
