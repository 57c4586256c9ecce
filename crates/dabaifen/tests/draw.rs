//! The draw, declarations and their timing (§4, §12.2–3, §12.11), turning the kitty (§5, §12.4),
//! annulment and open deals (§6, §12.5–6).

mod common;

use common::*;
use dabaifen::record::DabaifenAction;
use dabaifen::record::apply_recorded;
use dabaifen::{
    Action, Annul, FirstDrawer, HandSetup, IllegalAction, Outcome, Phase, Rank, State, Suit, Trump, Variants,
};

/// First deal, provisional starter 0 who draws first. Seat 1 draws 2D as card 2, seat 0 draws 2S
/// as card 5, seat 3 draws 2C as card 12; 2H is in the kitty.
fn polls_setup() -> HandSetup {
    let deck = deck_with(&[(pos(0, 1, 0), "2D"), (pos(0, 0, 1), "2S"), (pos(0, 3, 2), "2C"), (50, "2H")]);
    HandSetup::first(deck, seat(0), Variants::STANDARD)
}

fn trump(s: Suit, r: char) -> Option<Trump> {
    Some(Trump { suit: s, rank: rank(r) })
}

#[test]
fn polls_run_after_each_card_from_the_one_who_drew_it_skipping_seats_with_nothing_to_show() {
    assert_eq!([pos(0, 1, 0), pos(0, 0, 1), pos(0, 3, 2)], [1, 4, 11]);
    let mut st = State::new(&polls_setup()).unwrap();
    let mut seen = Vec::new();
    for _ in 0..20 {
        seen.push((st.drawn(), st.to_move().unwrap().number()));
        // A polled seat may pass or show one of the cards it may show.
        let legal = st.legal_actions();
        assert_eq!(legal[0], Action::Pass);
        assert!(legal[1..].iter().all(|a| matches!(a, Action::Declare(c) if c.rank() == Some(Rank::Two))));
        st.apply(Action::Pass).unwrap();
    }
    assert_eq!(
        seen,
        vec![
            (2, 1), // seat 1 drew 2D as card 2 and is asked first
            (3, 1), // card 3 drawn by seat 2, who has nothing to show
            (4, 1),
            (5, 0), // seat 0 just drew 2S: asked first, then seat 1
            (5, 1),
            (6, 1), // card 6 drawn by seat 1: seat 1 first, then seat 0
            (6, 0),
            (7, 0), // card 7 drawn by seat 2: order 2, 3, 0, 1
            (7, 1),
            (8, 0), // card 8 drawn by seat 3: order 3, 0, 1, 2
            (8, 1),
            (9, 0),
            (9, 1),
            (10, 1),
            (10, 0),
            (11, 0),
            (11, 1),
            (12, 3), // seat 3 just drew 2C: asked first
            (12, 0),
            (12, 1),
        ]
    );
    // The poll after the 48th card is the last chance; then the kitty is turned.
    while st.phase() == Phase::Drawing {
        st.apply(Action::Pass).unwrap();
        assert!(st.drawn() <= 48);
    }
    assert!(st.kitty_turn().is_some());
}

#[test]
fn first_deal_declarer_becomes_starter_and_the_card_stays_in_his_hand() {
    let mut st = State::new(&polls_setup()).unwrap();
    declare(&mut st, 3, "2C", 12).unwrap();
    let d = st.declaration().unwrap();
    assert_eq!((d.seat.number(), d.card.to_string(), d.drawn), (3, "2C".into(), 12));
    assert_eq!(st.trump(), trump(Suit::Clubs, '2'));
    assert_eq!(st.starter(), seat(3));
    assert_eq!(st.provisional_starter(), seat(0));
    assert_eq!(st.drawn(), 48);
    assert!(st.dealt(seat(3)).contains(card("2C")));
    // The draw goes on to its end; the starter then takes the kitty.
    assert!(matches!(st.phase(), Phase::Burying | Phase::Annulling));
    let result = dabaifen::record::replay_actions(&mut st, &[]);
    assert!(result.is_err(), "a deal needs its burial and play");
}

#[test]
fn declaring_at_a_later_poll_passes_the_earlier_ones() {
    let mut st = State::new(&polls_setup()).unwrap();
    declare(&mut st, 1, "2D", 30).unwrap();
    assert_eq!(st.declaration().unwrap().drawn, 30);
    assert_eq!(st.starter(), seat(1));
    assert_eq!(st.trump(), trump(Suit::Diamonds, '2'));
}

#[test]
fn declaration_errors_say_why() {
    let st0 = State::new(&polls_setup()).unwrap();
    let err = |seat: u8, code: &str, drawn: u8| {
        let mut st = st0.clone();
        declare(&mut st, seat, code, drawn).unwrap_err()
    };
    assert_eq!(
        err(3, "2C", 11),
        "seat 3 cannot declare 2C at drawn 11: seat 3 draws it as card 12 of the draw"
    );
    assert_eq!(err(2, "2H", 40), "seat 2 cannot declare 2H: seat 2 does not hold it");
    assert_eq!(err(0, "AS", 20), "seat 0 cannot declare AS: the trump rank is 2");
    assert_eq!(err(0, "BJ", 20), "seat 0 cannot declare BJ: jokers cannot be declared");
    assert_eq!(err(0, "2D", 20), "seat 0 cannot declare 2D: seat 0 does not hold it");
    assert_eq!(err(1, "2D", 49), "drawn must be 1–48 (cards drawn when the card was shown), not 49");
    assert_eq!(err(1, "2D", 0), "drawn must be 1–48 (cards drawn when the card was shown), not 0");
    assert_eq!(err(1, "XX", 3), "declare: unknown card code \"XX\"");
    // Through the engine: the asked seat showing a card of another rank, a joker, a card not held.
    let mut st = st0.clone();
    assert_eq!(st.to_move(), Some(seat(1)));
    let dealt = st.dealt(seat(1));
    let other = dealt.iter().find(|c| c.rank() != Some(Rank::Two)).unwrap();
    let e = st.apply(Action::Declare(other)).unwrap_err();
    assert_eq!(e.to_string(), format!("seat 1 cannot declare {other}: the trump rank is 2"));
    let e = st.apply(Action::Declare(card("SJ"))).unwrap_err();
    assert_eq!(e.to_string(), "seat 1 cannot declare SJ: jokers cannot be declared");
    let e = st.apply(Action::Declare(card("2C"))).unwrap_err();
    assert_eq!(e, IllegalAction::NotHeld { seat: seat(1), cards: "2C".into() });
    // The first showing is final.
    let mut st = st0.clone();
    declare(&mut st, 0, "2S", 5).unwrap();
    let e = declare(&mut st, 3, "2C", 12).unwrap_err();
    assert_eq!(e, "seat 3 cannot declare 2C: trumps were already declared (the first showing is final)");
}

#[test]
fn a_seat_cannot_show_a_card_before_drawing_it() {
    // Seat 3 holds 2C from card 12 and another 2 from card 4: asked at card 4, it may show only
    // the card it has drawn.
    let deck = deck_with(&[(pos(0, 3, 0), "2H"), (pos(0, 3, 2), "2C"), (49, "2D"), (50, "2S")]);
    let mut st = State::new(&HandSetup::first(deck, seat(0), Variants::STANDARD)).unwrap();
    assert_eq!((st.drawn(), st.to_move()), (4, Some(seat(3))));
    assert_eq!(st.declarable(seat(3)), cards("2H"));
    let e = st.apply(Action::Declare(card("2C"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 3 cannot declare 2C: seat 3 has not drawn it yet (it is card 12 of the draw)"
    );
    assert_eq!(st.legal_actions(), vec![Action::Pass, Action::Declare(card("2H"))]);
}

#[test]
fn later_deals_use_the_starters_team_rank_and_keep_the_starter() {
    // Starter 1 (team 1 at rank 5); seat 0 holds 5S and 3S. 3s are not trump-rank cards.
    let deck = deck_with(&[(pos(1, 0, 0), "5S"), (pos(1, 0, 1), "3S"), (48, "5H"), (49, "5D"), (50, "5C")]);
    let setup = HandSetup {
        deck,
        starter: seat(1),
        first_deal: false,
        open: false,
        ranks: [rank('3'), rank('5')],
        variants: Variants::STANDARD,
    };
    let mut st = State::new(&setup).unwrap();
    assert_eq!(st.to_move(), Some(seat(0)));
    assert_eq!(st.declarable(seat(0)), cards("5S"));
    let e = st.apply(Action::Declare(card("3S"))).unwrap_err().to_string();
    assert_eq!(e, "seat 0 cannot declare 3S: the trump rank is 5");
    st.apply(Action::Declare(card("5S"))).unwrap();
    assert_eq!(st.trump(), trump(Suit::Spades, '5'));
    assert_eq!(st.starter(), seat(1), "later deals: the starter does not change");
}

#[test]
fn first_drawer_starter_right_gives_deck_0_to_the_seat_after_the_starter() {
    // §12.11: seat s+1 takes deck[0]; `drawn` still counts cards drawn by anyone.
    let mut v = Variants::STANDARD;
    v.first_drawer = FirstDrawer::StarterRight;
    let deck = deck_with(&[(0, "2S"), (45, "2H"), (46, "2D"), (47, "2C")]);
    let st = State::new(&HandSetup::first(deck, seat(2), v)).unwrap();
    assert_eq!(st.first_drawer(), seat(3));
    assert_eq!((st.drawn(), st.to_move()), (1, Some(seat(3))));
    assert!(st.dealt(seat(3)).contains(card("2S")));
    // deck[45] is the 46th card: drawn by seat 3 + 45 = seat 0.
    assert!(st.dealt(seat(0)).contains(card("2H")));
    let std = State::new(&HandSetup::first(deck, seat(2), Variants::STANDARD)).unwrap();
    assert_eq!(std.first_drawer(), seat(2));
    assert!(std.dealt(seat(2)).contains(card("2S")));
}

/// A first deal (rank 2) where nobody declares, with the kitty given (turned deck[48] first).
fn turn(kitty: [&str; 6]) -> State {
    let placed: Vec<(usize, &str)> = kitty.iter().enumerate().map(|(i, c)| (48 + i, *c)).collect();
    let mut st = State::new(&HandSetup::first(deck_with(&placed), seat(1), Variants::STANDARD)).unwrap();
    pass_draw(&mut st);
    st
}

#[test]
fn turning_the_kitty_stops_at_the_first_trump_rank_card() {
    let st = turn(["7C", "9D", "2H", "2S", "5C", "KD"]);
    assert_eq!(st.trump(), trump(Suit::Hearts, '2'));
    let k = st.kitty_turn().unwrap();
    assert_eq!((k.turned, k.card.to_string(), k.by_rank), (3, "2H".to_string(), true));
    // First deal: the provisional starter becomes the starter.
    assert_eq!(st.starter(), seat(1));
    let v = st.view(seat(3));
    assert_eq!(v.kitty_turned, vec![card("7C"), card("9D"), card("2H")]);
    assert_eq!(v.kitty, None);
}

#[test]
fn with_no_trump_rank_card_the_highest_non_joker_decides_first_turned_among_equals() {
    let st = turn(["BJ", "9D", "KC", "4S", "KH", "SJ"]);
    assert_eq!(st.trump(), trump(Suit::Clubs, '2'));
    let k = st.kitty_turn().unwrap();
    assert_eq!((k.turned, k.card.to_string(), k.by_rank), (6, "KC".to_string(), false));
    // Jokers are skipped even when turned first.
    let st = turn(["SJ", "BJ", "3D", "3S", "3C", "3H"]);
    assert_eq!(st.trump(), trump(Suit::Diamonds, '2'));
    assert_eq!(st.kitty_turn().unwrap().card, card("3D"));
    let st = turn(["4C", "AS", "3D", "AH", "5C", "QH"]);
    assert_eq!(st.trump(), trump(Suit::Spades, '2'));
}

#[test]
fn the_kitty_turns_by_the_provisional_starters_team_rank() {
    // Starter 3 (team 1) at rank 9: the first 9 turned fixes trumps, even after a higher card.
    let deck = deck_with(&[(48, "AS"), (49, "9D"), (50, "2C"), (51, "9H"), (52, "5S"), (53, "6S")]);
    let setup = HandSetup {
        deck,
        starter: seat(3),
        first_deal: false,
        open: false,
        ranks: [rank('2'), rank('9')],
        variants: Variants::STANDARD,
    };
    let mut st = State::new(&setup).unwrap();
    pass_draw(&mut st);
    assert_eq!(st.trump(), trump(Suit::Diamonds, '9'));
    assert_eq!(st.kitty_turn().unwrap().turned, 2);
}

/// Seats 0, 1 and 3 each hold a single plain suit; seat 2 holds hearts with 2H (drawn as its
/// fifth card, card 19 of the draw).
fn one_suit_each(first: u8) -> HandSetup {
    let deck = deck(
        first,
        [
            "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
            "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
            "AH KH QH JH 2H TH 9H 8H 7H 6H 5H 4H",
            "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
        ],
        "3H 2S 2D 2C SJ BJ",
    );
    HandSetup::first(deck, seat(first), Variants::STANDARD)
}

#[test]
fn seats_without_trumps_are_asked_from_the_starter_and_may_annul() {
    let mut st = State::new(&one_suit_each(0)).unwrap();
    declare(&mut st, 2, "2H", 25).unwrap();
    assert_eq!(st.starter(), seat(2));
    assert_eq!(st.phase(), Phase::Annulling);
    // Asked in play order from the starter (seat 2 holds trumps): 3, 0, 1.
    assert_eq!(st.to_move(), Some(seat(3)));
    assert_eq!(st.legal_actions(), vec![Action::Pass, Action::Annul]);
    // Only the asked seat's view shows it is asked.
    assert_eq!(st.view(seat(3)).to_move, Some(seat(3)));
    assert_eq!(st.view(seat(0)).to_move, None);
    st.apply(Action::Pass).unwrap();
    assert_eq!(st.to_move(), Some(seat(0)));
    st.apply(Action::Annul).unwrap();
    assert_eq!(st.phase(), Phase::Over);
    let r = st.result().unwrap();
    // §12.6: trump as fixed, nulls, levels 0, ranks unchanged, next starter = starter + 2.
    assert_eq!(r.outcome, Outcome::Annulled);
    assert_eq!(r.trump, trump(Suit::Hearts, '2'));
    assert_eq!(r.starter, seat(2));
    assert_eq!((r.defender_points, r.kitty_points, r.last_trick, r.winner), (None, None, None, None));
    assert_eq!((r.levels, r.ranks, r.next_starter, r.game_over), (0, [Rank::Two; 2], seat(0), false));
    let rec = r.to_record();
    let json = serde_json::to_value(&rec).unwrap();
    assert_eq!(json["defender_points"], serde_json::Value::Null);
    assert_eq!(json["trump"]["suit"], "H");
    // The annulling hand is shown to everyone.
    let v = st.view(seat(1));
    assert_eq!(v.annulment.as_ref().map(|(s, h)| (s.number(), h.len())), Some((0, 12)));
}

#[test]
fn nobody_annulling_leads_to_the_burial() {
    let mut st = State::new(&one_suit_each(0)).unwrap();
    declare(&mut st, 2, "2H", 25).unwrap();
    for s in [3, 0, 1] {
        assert_eq!(st.to_move(), Some(seat(s)));
        st.apply(Action::Pass).unwrap();
    }
    assert_eq!(st.phase(), Phase::Burying);
    assert_eq!(st.hand(seat(2)).len(), 18);
    assert_eq!(st.annul_declined().map(|s| s.number()).collect::<Vec<_>>(), vec![3, 0, 1]);
}

#[test]
fn a_recorded_annulment_passes_the_seats_asked_before() {
    let mut st = State::new(&one_suit_each(0)).unwrap();
    declare(&mut st, 2, "2H", 25).unwrap();
    let annul = |s: u8, a: bool| DabaifenAction::Annul { seat: seat(s), annul: a };
    let mut a = st.clone();
    apply_recorded(&mut a, &annul(1, true)).unwrap();
    assert_eq!(a.annulled_by(), Some(seat(1)));
    assert_eq!(a.annul_declined().count(), 2);
    let mut b = st.clone();
    assert_eq!(
        apply_recorded(&mut b, &annul(2, true)).unwrap_err().to_string(),
        "seat 2 cannot annul: its hand holds trumps (2H AH KH QH JH TH 9H 8H 7H 6H 5H 4H)"
    );
    let mut c = st.clone();
    assert_eq!(
        apply_recorded(&mut c, &annul(0, false)).unwrap_err().to_string(),
        "seat 0 is not asked whether to annul now: seat 3 is being asked first"
    );
    apply_recorded(&mut st, &annul(3, false)).unwrap();
    apply_recorded(&mut st, &annul(0, false)).unwrap();
    let mut d = st.clone();
    assert_eq!(
        apply_recorded(&mut d, &annul(3, true)).unwrap_err().to_string(),
        "seat 3 cannot annul: it was already asked and kept the deal"
    );
}

#[test]
fn non_starters_only_keeps_the_starter_from_annulling() {
    // Seat 1 draws first and starts; the kitty turns 2S: spades are trumps. Seats 1 (diamonds)
    // and 3 (clubs) hold no trump.
    let mut st = State::new(&one_suit_each(1)).unwrap();
    pass_draw(&mut st);
    assert_eq!(st.trump(), trump(Suit::Spades, '2'));
    assert_eq!(st.starter(), seat(1));
    assert_eq!(st.to_move(), Some(seat(1)));
    st.apply(Action::Pass).unwrap();
    assert_eq!(st.to_move(), Some(seat(3)));

    let mut setup = one_suit_each(1);
    setup.variants.annul = Annul::NonStartersOnly;
    let mut st = State::new(&setup).unwrap();
    pass_draw(&mut st);
    assert_eq!(st.to_move(), Some(seat(3)), "the starter is not asked");
    st.apply(Action::Pass).unwrap();
    assert_eq!(st.phase(), Phase::Burying);
    let mut st = State::new(&setup).unwrap();
    pass_draw(&mut st);
    let e = apply_recorded(&mut st, &DabaifenAction::Annul { seat: seat(1), annul: true }).unwrap_err();
    assert_eq!(e.to_string(), "seat 1 cannot annul: under annul non_starters_only the starter may not annul");
}

fn open_setup(starter: u8, ranks: [char; 2], placed: &[(usize, &str)]) -> HandSetup {
    HandSetup {
        deck: deck_with(placed),
        starter: seat(starter),
        first_deal: false,
        open: true,
        ranks: [rank(ranks[0]), rank(ranks[1])],
        variants: Variants::STANDARD,
    }
}

#[test]
fn in_an_open_deal_each_player_shows_his_own_teams_rank_and_becomes_starter() {
    // Team 0 at 3, team 1 at 5; provisional starter 1 draws first. Seat 0 holds 5S and 3D; seat
    // 3 holds 5C.
    let placed = [
        (pos(1, 0, 0), "5S"),
        (pos(1, 0, 1), "3D"),
        (pos(1, 3, 3), "5C"),
        (48, "3S"),
        (49, "3H"),
        (50, "3C"),
        (51, "5H"),
        (52, "5D"),
    ];
    let setup = open_setup(1, ['3', '5'], &placed);
    let mut st = State::new(&setup).unwrap();
    // Seat 0 first holds a card of its own team's rank (3D) at card 8 (its second card).
    assert_eq!((st.drawn(), st.to_move()), (8, Some(seat(0))));
    assert_eq!(st.declarable(seat(0)), cards("3D"));
    let e = st.apply(Action::Declare(card("5S"))).unwrap_err().to_string();
    assert_eq!(e, "seat 0 cannot declare 5S: in this open deal seat 0 may show only his team's rank 3");
    let mut other = st.clone();
    declare(&mut other, 3, "5C", 16).unwrap();
    assert_eq!(other.trump(), trump(Suit::Clubs, '5'));
    assert_eq!(other.starter(), seat(3));
    st.apply(Action::Declare(card("3D"))).unwrap();
    assert_eq!(st.trump(), trump(Suit::Diamonds, '3'));
    assert_eq!(st.starter(), seat(0), "the declarer becomes the starter");
    assert_eq!(st.provisional_starter(), seat(1));
}

#[test]
fn an_open_deal_with_no_showing_is_annulled_again_without_any_action() {
    // Ranks 2 and 2 with all four 2s in the kitty: nobody can show; the kitty is not turned.
    let setup = open_setup(2, ['2', '2'], &[(48, "2S"), (49, "2H"), (51, "2D"), (53, "2C")]);
    let st = State::new(&setup).unwrap();
    assert_eq!(st.phase(), Phase::Over);
    assert_eq!(st.kitty_turn(), None);
    let r = st.result().unwrap();
    assert_eq!((r.outcome, r.trump, r.starter, r.next_starter), (Outcome::Annulled, None, seat(2), seat(0)));
    // When everyone passes, the same.
    let setup = open_setup(1, ['2', '4'], &[]);
    let mut st = State::new(&setup).unwrap();
    assert_eq!(st.phase(), Phase::Drawing);
    pass_draw(&mut st);
    let r = st.result().unwrap();
    assert_eq!((r.outcome, r.trump, r.next_starter), (Outcome::Annulled, None, seat(3)));
    let json = serde_json::to_value(r.to_record()).unwrap();
    assert_eq!(json["trump"], serde_json::Value::Null);
}

#[test]
fn views_during_the_draw_show_only_the_seats_own_drawn_cards() {
    let mut st = State::new(&polls_setup()).unwrap();
    st.apply(Action::Pass).unwrap();
    let v = st.view(seat(1));
    assert_eq!(v.drawn, 3);
    assert_eq!(v.hand, vec![card("2D")]);
    assert_eq!(v.hand_sizes, [1, 1, 1, 0]);
    assert_eq!(v.to_move, Some(seat(1)));
    assert_eq!(st.view(seat(2)).hand.len(), 1);
    assert_eq!(st.view(seat(2)).to_move, None);
    assert!(v.kitty.is_none() && v.trump.is_none() && v.declaration.is_none());
    // The rules in force are public.
    assert_eq!(v.variants, *st.variants());
    let mut refuse = polls_setup();
    refuse.variants.revoke = dabaifen::Revoke::Refuse;
    let v = State::new(&refuse).unwrap().view(seat(0));
    assert_eq!(v.variants.revoke, dabaifen::Revoke::Refuse);
    assert_eq!(serde_json::to_value(&v).unwrap()["variants"]["revoke"], "refuse");
}

#[test]
fn the_starter_sees_the_kitty_after_taking_it_and_his_burial() {
    let mut st = State::new(&one_suit_each(0)).unwrap();
    declare(&mut st, 2, "2H", 25).unwrap();
    pass_annulments(&mut st);
    let v = st.view(seat(2));
    assert_eq!(v.kitty.as_ref().map(Vec::len), Some(6));
    assert_eq!(v.hand.len(), 18);
    assert!(st.view(seat(1)).kitty.is_none());
    st.apply(Action::Bury(cards("3H 4H 5H 6H 7H 8H"))).unwrap();
    assert_eq!(st.view(seat(2)).buried.as_ref().map(Vec::len), Some(6));
    assert!(st.view(seat(0)).buried.is_none());
    assert!(st.view(seat(0)).kitty.is_none());
}

fn pass_annulments(st: &mut State) {
    while st.phase() == Phase::Annulling {
        st.apply(Action::Pass).unwrap();
    }
}

#[test]
fn burial_must_be_six_held_cards() {
    let mut st = State::new(&one_suit_each(0)).unwrap();
    declare(&mut st, 2, "2H", 25).unwrap();
    pass_annulments(&mut st);
    let e = st.apply(Action::Bury(cards("3H 4H 5H 6H 7H"))).unwrap_err().to_string();
    assert_eq!(e, "seat 2 must bury exactly 6 cards, not 5");
    let e = st.apply(Action::Bury(cards("3H 4H 5H 6H 7H AS"))).unwrap_err().to_string();
    assert_eq!(e, "seat 2 does not hold AS");
    let e = st.apply(Action::Play(cards("3H"))).unwrap_err().to_string();
    assert_eq!(e, "seat 2 cannot play now: the starter must bury six cards first");
    // Points and trumps may be buried.
    st.apply(Action::Bury(cards("BJ SJ KH TH 5H 2D"))).unwrap();
    assert_eq!(st.phase(), Phase::Playing);
    assert_eq!(st.to_move(), Some(seat(2)), "the starter leads the first trick");
}

#[test]
fn setup_errors() {
    let mut s = polls_setup();
    s.deck[7] = s.deck[3];
    let e = State::new(&s).unwrap_err().to_string();
    assert_eq!(e, format!("deck[7]: duplicate card {} (already at deck[3])", s.deck[3]));
    let mut s = polls_setup();
    s.open = true;
    assert!(State::new(&s).is_err());
}

#[test]
fn trump_rank_ace_deals_work() {
    // Ranks at A under win_as_declarers_at_ace; trump rank A: a plain suit's highest card is K.
    let mut v = Variants::STANDARD;
    v.game_end = dabaifen::GameEnd::WinAsDeclarersAtAce;
    let setup = HandSetup {
        deck: deck_with(&[(0, "AS")]),
        starter: seat(0),
        first_deal: false,
        open: false,
        ranks: [Rank::Ace, Rank::King],
        variants: v,
    };
    let mut st = State::new(&setup).unwrap();
    st.apply(Action::Declare(card("AS"))).unwrap();
    let t = st.tables().unwrap();
    assert_eq!(t.trumps().len(), 18);
    assert!(t.trumps().contains(card("AH")));
    assert!(t.stronger[card("KH").number() as usize] == 0, "KH is the top of plain hearts");
}
