//! Hints (`ai::hint`): the hinted action is legal and is the hint bot's own choice, and each kind
//! of reason is given when its situation holds, naming the cards and facts of the position.

use ai::hint::{HINT_BOT, ReasonKind, dabaifen_hint, dabaifen_reason, madiao_hint, madiao_reason};
use ai::{Budget, Dabaifen, Madiao, Registry};
use cards::{BySeat, Seat};

const BUDGET: Budget = Budget { think_ms: 5 };

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Madiao

fn mcard(c: &str) -> madiao::Card {
    c.parse().unwrap()
}

fn mcards<const N: usize>(s: &str) -> [madiao::Card; N] {
    let v: Vec<madiao::Card> = s.split_whitespace().map(mcard).collect();
    v.try_into().unwrap()
}

/// Seat 0 banks and leads first (upcard W3); `hands` by seat, `stock` with the upcard last.
fn mstate(hands: [&str; 4], stock: &str) -> madiao::State {
    let deck =
        madiao::deck_from_hands(seat(0), &BySeat(hands.map(mcards::<8>)), &mcards::<8>(stock)).unwrap();
    madiao::State::new(madiao::HandSetup::new(seat(0), deck)).unwrap()
}

fn mplay(st: &mut madiao::State, script: &str) {
    for tok in script.split_whitespace() {
        let a = match tok.strip_prefix('-') {
            Some(c) => madiao::Action::Slough(mcard(c)),
            None => madiao::Action::Play(mcard(tok)),
        };
        st.apply(a).unwrap_or_else(|e| panic!("{tok}: {e}"));
    }
}

/// Two cards of each suit per seat, every top card in the stock (no meld, no long suit).
const QUIET: [&str; 4] = [
    "TQ T3 M8 M1 S8 S1 W1 W9",
    "T9 T4 M7 M2 S7 S2 W2 W8",
    "T8 T5 M6 M3 S6 S3 W4 W7",
    "T7 T6 M5 M4 S5 S4 W5 W6",
];
const QUIET_STOCK: &str = "TW TB M9 S9 W0 T2 WH W3";

fn mreason(st: &madiao::State, action: &str) -> ai::hint::Reason {
    let s = st.to_move().unwrap();
    let v = st.view(s);
    let a = match action.strip_prefix('-') {
        Some(c) => madiao::Action::Slough(mcard(c)),
        None => madiao::Action::Play(mcard(action)),
    };
    assert!(v.legal_actions.contains(&a), "{action} is legal");
    madiao_reason(&v, a)
}

#[test]
fn madiao_leads_are_told_apart_by_top_cards() {
    // Seat 0 holds S9 and has seen nothing above its strings: S6 is top too.
    let st = mstate(
        [
            "S9 S8 S7 S6 TQ T3 M8 W1",
            "S5 S4 T9 T4 M7 M2 W2 W8",
            "S3 S2 T8 T5 M6 M3 W4 W7",
            "S1 T7 T6 M4 M1 W5 W6 W9",
        ],
        "TW TB M9 W0 T2 WH M5 W3",
    );
    let r = mreason(&st, "S6");
    assert_eq!(r.kind, ReasonKind::LeadTop);
    assert!(r.en.contains("6 strings 六索") && r.en.contains("2 make the minimum"), "{}", r.en);
    assert!(r.zh.contains("六索"), "{}", r.zh);
    let r = mreason(&st, "TQ");
    assert_eq!(r.kind, ReasonKind::Lead);
    assert!(r.en.contains("1 higher card of its suit is unseen"), "{}", r.en);
    let r = mreason(&st, "M8");
    assert!(r.en.contains("1 higher card"), "M9 is in the stock: {}", r.en);
}

#[test]
fn madiao_captures_and_sloughs_say_who_wins_the_trick() {
    let mut st = mstate(QUIET, QUIET_STOCK);
    mplay(&mut st, "M1");
    // Seat 1 takes the trick from the banker, who has no trick yet.
    let r = mreason(&st, "M7");
    assert_eq!(r.kind, ReasonKind::Capture);
    assert!(r.en.contains("capture with 7 myriads 七萬"), "{}", r.en);
    assert!(r.en.contains("takes the trick from the banker") && r.en.contains("has not yet taken a trick"));
    assert!(r.en.contains("beating 1 myriad 一萬") && r.en.contains("2 higher cards"), "M8 and M9: {}", r.en);
    // A face-up card of another suit is a discard.
    assert_eq!(mreason(&st, "W8").kind, ReasonKind::Discard);
    // Seat 1 may capture but sloughs while the banker leads: it keeps its capturing cards.
    let r = mreason(&st, "-W8");
    assert_eq!(r.kind, ReasonKind::SloughKeep);
    assert!(r.en.contains("keep 7 myriads 七萬, 2 myriads 二萬"), "{}", r.en);
    // In Chinese a slough is 灭 (issue 26: one word per action), and the cards are named in
    // simplified characters in running text (the faces keep 七萬).
    assert!(r.zh.starts_with("灭") && r.zh.contains("七万") && !r.zh.contains('萬'), "{}", r.zh);
    mplay(&mut st, "M2");
    // Seat 2 could capture M2 with M6 or M3, but seat 1 — a player like it — is winning.
    let r = mreason(&st, "-W7");
    assert_eq!(r.kind, ReasonKind::SloughFellowWins);
    assert!(r.en.contains("seat 1") && r.en.contains("2 myriads"), "{}", r.en);
    mplay(&mut st, "M6");
    // Seat 3 holds M5 M4: nothing beats M6.
    let r = mreason(&st, "-W6");
    assert_eq!(r.kind, ReasonKind::SloughCannotWin);
    assert!(r.en.contains("can capture 6 myriads 六萬"), "{}", r.en);
}

#[test]
fn madiao_a_capture_with_a_top_card_is_sure() {
    // Seat 1 holds M9, the highest myriad.
    let mut hands = QUIET;
    hands[1] = "T9 T4 M7 M9 S7 S2 W2 W8";
    let mut st = mstate(hands, "TW TB M2 S9 W0 T2 WH W3");
    mplay(&mut st, "M8");
    let r = mreason(&st, "M9");
    assert_eq!(r.kind, ReasonKind::CaptureTop);
    assert!(r.en.contains("nothing unseen can beat it"), "{}", r.en);
}

#[test]
fn madiao_the_last_trick_is_barred_to_a_seat_without_a_trick() {
    let mut st = mstate(QUIET, QUIET_STOCK);
    // Seat 0 leads and wins seven tricks while the others slough.
    for (lead, downs) in [
        ("M8", "-W8 -W7 -W6"),
        ("S8", "-W2 -W4 -W5"),
        ("T3", "-S2 -S3 -S4"),
        ("M1", "-M2 -M3 -M4"),
        ("S1", "-S7 -S6 -S5"),
        ("W1", "-T4 -T5 -T6"),
        ("W9", "-M7 -M6 -M5"),
    ] {
        mplay(&mut st, &format!("{lead} {downs}"));
    }
    mplay(&mut st, "TQ");
    let r = mreason(&st, "-T9");
    assert_eq!(r.kind, ReasonKind::LastTrickBarred);
    // Seat 0, who has taken tricks, is not barred on its own lead.
    assert!(st.view(seat(0)).tricks_won[seat(0)] == 7);
}

#[test]
fn madiao_redeal_reasons_name_the_long_suit() {
    let st = mstate(
        [
            "S9 S8 S7 S6 S5 TQ T3 M8",
            "W1 S4 T9 T4 M7 M2 W2 W8",
            "S3 S2 T8 T5 M6 M3 W4 W7",
            "S1 T7 T6 M4 M1 W5 W6 W9",
        ],
        "TW TB M9 W0 T2 WH M5 W3",
    );
    assert_eq!(st.phase(), madiao::Phase::Redeal);
    let v = st.view(st.to_move().unwrap());
    let force = madiao_reason(&v, madiao::Action::Redeal(true));
    assert_eq!(force.kind, ReasonKind::RedealForce);
    assert!(force.en.contains("(strings)") && force.en.contains("5 cards"), "{}", force.en);
    let keep = madiao_reason(&v, madiao::Action::Redeal(false));
    assert_eq!(keep.kind, ReasonKind::RedealKeep);
    assert!(keep.zh.contains("索"));
}

#[test]
fn a_madiao_hint_is_the_bots_legal_choice() {
    for seed in 0..6u64 {
        let deck = madiao::deck_from_seed(seed, 0);
        let mut st = madiao::State::new(madiao::HandSetup::new(seat(0), deck)).unwrap();
        let mut step = 0u64;
        while let Some(s) = st.to_move() {
            let v = st.view(s);
            let legal = st.legal_actions();
            let hint = madiao_hint(&v, &legal, seed + step, BUDGET).unwrap();
            assert!(legal.contains(&hint.action), "seed {seed}: {} is legal", hint.action);
            let mut bot = Madiao::bot(HINT_BOT, seed + step, BUDGET).unwrap();
            assert_eq!(bot.choose(&v, &legal), hint.action, "seed {seed} step {step}");
            assert!(!hint.reason.en.is_empty() && !hint.reason.zh.is_empty());
            st.apply(hint.action).unwrap();
            step += 1;
        }
    }
    assert!(
        madiao_hint(
            &madiao::State::new(madiao::HandSetup::new(seat(0), madiao::deck_from_seed(1, 0)))
                .unwrap()
                .view(seat(1)),
            &[],
            1,
            BUDGET
        )
        .is_none()
    );
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

fn dcard(c: &str) -> dabaifen::Card {
    c.parse().unwrap()
}

fn dcards(s: &str) -> dabaifen::Cards {
    s.split_whitespace().map(dcard).collect()
}

/// Starter 0 draws first; each seat's twelve cards by seat; the kitty in turning order.
fn dsetup(hands: [&str; 4], kitty: &str) -> dabaifen::HandSetup {
    let hands: Vec<Vec<dabaifen::Card>> =
        hands.iter().map(|h| h.split_whitespace().map(dcard).collect()).collect();
    let mut deck: Vec<dabaifen::Card> = (0..48).map(|p| hands[p % 4][p / 4]).collect();
    deck.extend(kitty.split_whitespace().map(dcard));
    dabaifen::HandSetup {
        deck: deck.try_into().unwrap(),
        starter: seat(0),
        first_deal: false,
        open: false,
        ranks: [dabaifen::Rank::from_letter('8').unwrap(), dabaifen::Rank::Two],
        variants: dabaifen::Variants::STANDARD,
    }
}

/// Hearts and 8 by turning the kitty (8H first); seat 1 holds one diamond (2D); seat 3 has no
/// trump.
fn kitty_deal() -> dabaifen::State {
    dabaifen::State::new(&dsetup(
        [
            "8S 8C AS KS 5S 4S 3S 2S AD KD QD JD",
            "8D QS JS TS 9S 7S 6S AC KC QC JC 2D",
            "AH KH QH JH TH 9H 7H 6H 5H 4H 3H 2H",
            "TD 9D 7D 6D 5D 4D 3D TC 9C 7C 6C 5C",
        ],
        "8H BJ SJ 2C 3C 4C",
    ))
    .unwrap()
}

fn dpass_draw(st: &mut dabaifen::State) {
    while st.phase() == dabaifen::Phase::Drawing {
        st.apply(dabaifen::Action::Pass).unwrap();
    }
}

fn dplaying() -> dabaifen::State {
    let mut st = kitty_deal();
    dpass_draw(&mut st);
    st.apply(dabaifen::Action::Pass).unwrap();
    st.apply(dabaifen::Action::Bury(dcards("8H BJ SJ 2C 3C 4C"))).unwrap();
    st
}

fn dreason(st: &dabaifen::State, action: dabaifen::Action) -> ai::hint::Reason {
    let s = st.to_move().unwrap();
    let legal = st.legal_actions();
    assert!(legal.contains(&action), "{action} is legal");
    dabaifen_reason(&st.view(s), &legal, action)
}

fn dplay(st: &mut dabaifen::State, s: &str) {
    st.apply(dabaifen::Action::Play(dcards(s))).unwrap_or_else(|e| panic!("{s}: {e}"));
}

#[test]
fn dabaifen_annulment_and_burial_reasons() {
    let mut st = kitty_deal();
    dpass_draw(&mut st);
    assert_eq!(st.phase(), dabaifen::Phase::Annulling);
    assert_eq!(st.to_move(), Some(seat(3)));
    let r = dreason(&st, dabaifen::Action::Annul);
    assert_eq!(r.kind, ReasonKind::Annul);
    let r = dreason(&st, dabaifen::Action::Pass);
    assert_eq!(r.kind, ReasonKind::KeepDeal);
    assert!(r.en.contains("0 trumps"), "{}", r.en);
    st.apply(dabaifen::Action::Pass).unwrap();
    let r = dreason(&st, dabaifen::Action::Bury(dcards("5S 4S 3S 2C 3C 4C")));
    assert_eq!(r.kind, ReasonKind::Bury);
    // 5 points buried; the kept trumps: 8S 8C 8H BJ SJ; no club left.
    assert!(
        r.en.contains("5 points") && r.en.contains("keep 5 trumps") && r.en.contains("no clubs"),
        "{}",
        r.en
    );
    assert!(!r.en.contains("hearts"), "hearts are trumps: {}", r.en);
}

#[test]
fn dabaifen_leads_single_multi_and_not_top() {
    let st = dplaying();
    let r = dreason(&st, dabaifen::Action::Play(dcards("8S 8C")));
    assert_eq!(r.kind, ReasonKind::LeadTops);
    assert!(r.en.contains("8♠ 8♣") && r.en.contains("trumps"), "{}", r.en);
    let r = dreason(&st, dabaifen::Action::Play(dcards("AS")));
    assert_eq!(r.kind, ReasonKind::LeadTop);
    assert!(r.zh.contains("黑桃A"), "{}", r.zh);
    let r = dreason(&st, dabaifen::Action::Play(dcards("5S")));
    assert_eq!(r.kind, ReasonKind::Lead);
    // QS JS TS 9S 7S 6S are stronger and unseen to seat 0.
    assert!(r.en.contains("6 stronger cards of spades are still out"), "{}", r.en);
}

#[test]
fn dabaifen_follows_say_who_wins_the_trick() {
    let mut st = dplaying();
    dplay(&mut st, "8S 8C");
    // Seat 1 cannot beat a pair of trumps with one trump.
    let r = dreason(&st, dabaifen::Action::Play(dcards("8D QS")));
    assert_eq!(r.kind, ReasonKind::OpponentWins);
    assert!(r.en.contains("you cannot beat it") && r.en.contains("seat 0"), "{}", r.en);
    dplay(&mut st, "8D QS");
    // Seat 2's partner, seat 0, still wins the trick: KH and TH give it 20 points.
    let r = dreason(&st, dabaifen::Action::Play(dcards("KH TH")));
    assert_eq!(r.kind, ReasonKind::PartnerWins);
    assert!(r.en.contains("20 points"), "{}", r.en);
    dplay(&mut st, "AH KH");
    dplay(&mut st, "TD 9C");
    // Seat 0 leads AD: seat 1's only diamond is 2D.
    dplay(&mut st, "AD");
    let r = dreason(&st, dabaifen::Action::Play(dcards("2D")));
    assert_eq!(r.kind, ReasonKind::Forced);
    dplay(&mut st, "2D");
    // Seat 2 has no diamond: a trump wins it.
    let r = dreason(&st, dabaifen::Action::Play(dcards("2H")));
    assert_eq!(r.kind, ReasonKind::TrumpIn);
    assert!(r.en.contains("no diamonds"), "{}", r.en);
}

#[test]
fn dabaifen_a_follow_that_takes_the_lead_is_a_win() {
    let mut st = dplaying();
    dplay(&mut st, "5S");
    let r = dreason(&st, dabaifen::Action::Play(dcards("QS")));
    assert_eq!(r.kind, ReasonKind::FollowWin);
    assert!(r.en.contains("5 points"), "the 5♠: {}", r.en);
}

#[test]
fn dabaifen_draw_reasons_count_the_trumps() {
    // A random deal: find a seat asked whether to show, and give both reasons.
    let mut found = false;
    for seed in 0..50u64 {
        let (deck, _) = dabaifen::deal_from_seed(seed, 0);
        let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, seat(0));
        let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
        while st.phase() == dabaifen::Phase::Drawing {
            let legal = st.legal_actions();
            if let Some(&d) = legal.iter().find(|a| matches!(a, dabaifen::Action::Declare(_))) {
                let v = st.view(st.to_move().unwrap());
                let r = dabaifen_reason(&v, &legal, d);
                assert_eq!(r.kind, ReasonKind::Declare);
                assert!(r.en.starts_with("show ") && r.en.contains("trump"), "{}", r.en);
                let w = dabaifen_reason(&v, &legal, dabaifen::Action::Pass);
                assert_eq!(w.kind, ReasonKind::Wait);
                assert!(w.en.starts_with("do not show yet"), "{}", w.en);
                found = true;
                break;
            }
            st.apply(dabaifen::Action::Pass).unwrap();
        }
        if found {
            break;
        }
    }
    assert!(found);
}

#[test]
fn a_dabaifen_hint_is_the_bots_legal_choice() {
    for seed in 0..3u64 {
        let (deck, _) = dabaifen::deal_from_seed(seed, 0);
        let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, seat(0));
        let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
        let mut step = 0u64;
        while let Some(s) = st.to_move() {
            let v = st.view(s);
            let legal = st.legal_actions();
            let hint = dabaifen_hint(&v, &legal, seed + step, BUDGET).unwrap();
            assert!(legal.contains(&hint.action), "seed {seed}: {} is legal", hint.action);
            let mut bot = Dabaifen::bot(HINT_BOT, seed + step, BUDGET).unwrap();
            assert_eq!(bot.choose(&v, &legal), hint.action, "seed {seed} step {step}");
            st.apply(hint.action).unwrap();
            step += 1;
        }
    }
}
