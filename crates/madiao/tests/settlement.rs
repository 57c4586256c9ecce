//! One test per line of the rules file's settlement table (§6), per clarification that touches it
//! (§9), and per variant that changes it. Every expected amount was worked out by hand from the
//! rules text; the comments give the sums.

mod common;

use common::*;
use madiao::{Item, Variants};

/// Plan on the quiet deal giving tricks [3, 2, 1, 2] (banker seat 0 leads).
const PLAN_3_2_1_2: [&str; 8] = ["M8", "S8", "W1", "T3>T9", "M7", "T4>T8", "S3>S5", "M5"];
/// Plan on the quiet deal giving tricks [1, 4, 3, 0].
const PLAN_1_4_3_0: [&str; 8] = ["M8", "M1>M7", "S7", "W2", "T9", "M2>M6", "S6", "W4"];

#[test]
fn trick_count_lines_fewer_than_two_exactly_two_three_or_more() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    plan(&mut st, &PLAN_3_2_1_2);
    assert_eq!(st.tricks().0, [3, 2, 1, 2]);
    // Banker 3 tricks: +1 from each player. Seat 2, 1 trick: pays the banker 1. Seats 1 and 3: 0.
    assert_eq!(lines_named(&st, "3_or_more_tricks"), vec![(0, [3.0, -1.0, -1.0, -1.0])]);
    assert_eq!(lines_named(&st, "fewer_than_2_tricks"), vec![(2, [1.0, 0.0, -1.0, 0.0])]);
    assert_eq!(lines_named(&st, "exactly_2_tricks"), vec![(1, [0.0; 4]), (3, [0.0; 4])]);
    assert_eq!(payoffs(&st), [4.0, -1.0, -2.0, -1.0]);
    let r = st.to_record_result().unwrap();
    assert_eq!(r.next_banker, Some(seat(1)));
}

#[test]
fn banker_shortfall_winners_pays_only_players_who_made_the_minimum() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    plan(&mut st, &PLAN_1_4_3_0);
    assert_eq!(st.tricks().0, [1, 4, 3, 0]);
    // §6.3 `winners`: the banker's −1 goes to seats 1 and 2 only; seat 3 pays his own −1.
    assert_eq!(
        lines_named(&st, "fewer_than_2_tricks"),
        vec![(0, [-2.0, 1.0, 1.0, 0.0]), (3, [1.0, 0.0, 0.0, -1.0])]
    );
    // s0: −2 −1 −1 +1 = −3; s1: +1 +1; s2: +1 +1; s3: −1.
    assert_eq!(payoffs(&st), [-3.0, 2.0, 2.0, -1.0]);
    let text = all_lines(&st)[0].to_string();
    assert_eq!(text, "seat 0 (banker): fewer than 2 tricks (1): pays 1 to each of seats 1, 2 (-2)");
}

#[test]
fn banker_shortfall_all_pays_every_player() {
    let mut st = state(0, QUIET, QUIET_STOCK, with(standard(), "banker_shortfall", "all"));
    plan(&mut st, &PLAN_1_4_3_0);
    // The banker pays 1 to each of the three: s0 −3 −1 −1 +1 = −4; s3: +1 −1 = 0.
    assert_eq!(lines_named(&st, "fewer_than_2_tricks")[0], (0, [-3.0, 1.0, 1.0, 1.0]));
    assert_eq!(payoffs(&st), [-4.0, 2.0, 2.0, 0.0]);
}

#[test]
fn most_tricks_tie_each_plus_half_for_two_seats_tied() {
    let plan_2_3_3_0 = ["M8", "S8", "M1>M7", "S7", "W2", "T4>T8", "M6", "S6"];
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    plan(&mut st, &plan_2_3_3_0);
    assert_eq!(st.tricks().0, [2, 3, 3, 0]);
    // each_plus_1: s1 +1, s2 +1, s3 −1; banker exactly 2.
    assert_eq!(payoffs(&st), [-1.0, 1.0, 1.0, -1.0]);
    let mut st = state(0, QUIET, QUIET_STOCK, with(standard(), "most_tricks_tie", "each_plus_half"));
    plan(&mut st, &plan_2_3_3_0);
    // §9.9 the two tied for most get ½ each: s0 −½ −½ +1 = 0.
    assert_eq!(
        lines_named(&st, "tied_for_most_tricks"),
        vec![(1, [-0.5, 0.5, 0.0, 0.0]), (2, [-0.5, 0.0, 0.5, 0.0])]
    );
    assert_eq!(payoffs(&st), [0.0, 0.5, 0.5, -1.0]);
    assert_eq!(st.to_record_result().unwrap().payoffs.0.map(|h| h.0), [0, 1, 1, -2]);
}

#[test]
fn most_tricks_tie_leaves_an_untied_three_alone() {
    // Tricks [1, 4, 3, 0]: 4 is the most, alone; 3 is not tied for most: both +1 as usual.
    let mut st = state(0, QUIET, QUIET_STOCK, with(standard(), "most_tricks_tie", "each_plus_half"));
    plan(&mut st, &PLAN_1_4_3_0);
    assert!(lines_named(&st, "tied_for_most_tricks").is_empty());
    assert_eq!(payoffs(&st), [-3.0, 2.0, 2.0, -1.0]);
}

#[test]
fn slam_replaces_the_three_or_more_line() {
    let slam = ["M1>M7", "T9", "T4", "M2", "S7", "S2", "W2", "W8"];
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    plan(&mut st, &slam);
    assert_eq!(st.tricks().0, [0, 8, 0, 0]);
    // s0 (0 tricks) pays seat 1 only (winners); s1 +8; s2, s3 pay the banker 1 each.
    assert_eq!(lines_named(&st, "slam"), vec![(1, [-8.0, 8.0, 0.0, 0.0])]);
    assert!(lines_named(&st, "3_or_more_tricks").is_empty());
    assert_eq!(payoffs(&st), [-7.0, 9.0, -1.0, -1.0]);
}

#[test]
fn slam_adds_gives_eight_plus_one() {
    let slam = ["M1>M7", "T9", "T4", "M2", "S7", "S2", "W2", "W8"];
    let mut st = state(0, QUIET, QUIET_STOCK, with(standard(), "slam", "adds"));
    plan(&mut st, &slam);
    // §9.13 +8 and +1.
    assert_eq!(lines_named(&st, "3_or_more_tricks"), vec![(1, [-1.0, 1.0, 0.0, 0.0])]);
    assert_eq!(payoffs(&st), [-8.0, 10.0, -1.0, -1.0]);
}

/// The quiet deal with M9 dealt to the banker in place of M8.
const WITH_M9: [&str; 4] = [
    "TQ T3 M9 M1 S8 S1 W1 W9",
    "T9 T4 M7 M2 S7 S2 W2 W8",
    "T8 T5 M6 M3 S6 S3 W4 W7",
    "T7 T6 M5 M4 S5 S4 W5 W6",
];
const WITH_M9_STOCK: &str = "TW TB M8 S9 W0 T2 WH W3";

#[test]
fn reward_card_trick_pays_one_with_the_minimum() {
    let mut st = state(0, WITH_M9, WITH_M9_STOCK, standard());
    plan(&mut st, &["M9", "S8", "W1", "T3>T9", "M7", "T4>T8", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 2, 1, 2]);
    // The banker's reward line: +1 from each player, on top of [4, −1, −2, −1].
    assert_eq!(lines_named(&st, "reward_trick"), vec![(0, [3.0, -1.0, -1.0, -1.0])]);
    assert_eq!(payoffs(&st), [7.0, -2.0, -3.0, -2.0]);
    assert!(has_item(&st, |i| *i == Item::RewardTrick { card: card("M9") }));
}

#[test]
fn reward_card_trick_pays_nothing_below_the_minimum() {
    let mut st = state(0, WITH_M9, WITH_M9_STOCK, standard());
    plan(&mut st, &["M9", "M1>M7", "S7", "W2", "T9", "M2>M6", "S6", "W4"]);
    assert_eq!(st.tricks().0, [1, 4, 3, 0]);
    assert!(lines_named(&st, "reward_trick").is_empty());
    assert_eq!(payoffs(&st), [-3.0, 2.0, 2.0, -1.0]);
}

#[test]
fn upcard_top_promotes_the_second_card_to_reward() {
    // Upcard M9 (a 9: the banker's opposite, seat 2, leads); M8 becomes the myriads reward card.
    let stock = "TW TB W3 S9 W0 T2 WH M9";
    let mut st = state(0, QUIET, stock, standard());
    assert_eq!(st.first_recipient(), seat(2));
    assert_eq!(madiao::card::mask_codes(st.reward_cards()), "TW M8 S9 W0");
    plan(&mut st, &["M3>M8", "S8", "W1", "T3>T9", "M7", "T4>T8", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 2, 1, 2]);
    assert!(has_item(&st, |i| *i == Item::RewardTrick { card: card("M8") }));
    assert_eq!(payoffs(&st), [7.0, -2.0, -3.0, -2.0]);
    // The line that pays it says why M8 is a reward card, in words and in its serialized detail
    // (the browser client words it from the detail).
    let text = st.settlement().unwrap().to_string();
    let want = "won a trick with the reward card M8 (promoted: the upcard is M9, the top myriads card, \
                so the second card M8 takes its place): +1 from each player (+3)";
    assert!(text.contains(want), "missing {want:?} in\n{text}");
    let json = serde_json::to_value(st.settlement().unwrap()).unwrap();
    let line = json["lines"].as_array().unwrap().iter().find(|l| l["item"] == "reward_trick").unwrap();
    assert_eq!(line["detail"], serde_json::json!({ "card": "M8", "promoted": true }));
    assert_eq!(line["banker"], 0);
    let tricks = json["lines"].as_array().unwrap().iter().find(|l| l["item"] == "3_or_more_tricks").unwrap();
    assert_eq!(tricks["detail"], serde_json::json!({ "tricks": 3 }));
}

/// The quiet deal with TB dealt to seat 1 in place of T4.
const HM_S1: [&str; 4] = [
    "TQ T3 M8 M1 S8 S1 W1 W9",
    "T9 TB M7 M2 S7 S2 W2 W8",
    "T8 T5 M6 M3 S6 S3 W4 W7",
    "T7 T6 M5 M4 S5 S4 W5 W6",
];
const HM_S1_STOCK: &str = "TW T4 M9 S9 W0 T2 WH W3";

#[test]
fn hm_holder_below_the_minimum_gets_one() {
    let mut st = state(0, HM_S1, HM_S1_STOCK, standard());
    plan(&mut st, &["M8", "S8", "W1", "T3>T9", "M2>M6", "S6", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 1, 2, 2]);
    assert_eq!(lines_named(&st, "hm_fewer_than_2_tricks"), vec![(1, [-1.0, 1.0, 0.0, 0.0])]);
    // s0 +3 +1 −1; s1 −1 −1 +1.
    assert_eq!(payoffs(&st), [3.0, -1.0, -1.0, -1.0]);
}

#[test]
fn hm_holder_whose_hm_wins_but_below_the_minimum_gets_only_one() {
    let mut st = state(0, HM_S1, HM_S1_STOCK, standard());
    plan(&mut st, &["M8", "S8", "W1", "T3>TB", "M2>M6", "S6", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 1, 2, 2]);
    assert!(lines_named(&st, "hm_won").is_empty());
    assert!(lines_named(&st, "knock").is_empty());
    assert_eq!(payoffs(&st), [3.0, -1.0, -1.0, -1.0]);
}

#[test]
fn hm_holder_with_the_minimum_gets_two() {
    let mut st = state(0, HM_S1, HM_S1_STOCK, standard());
    plan(&mut st, &["M8", "S8", "W1", "T3>T9", "M7", "M2>M6", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 2, 1, 2]);
    assert_eq!(lines_named(&st, "hm_minimum"), vec![(1, [-2.0, 2.0, 0.0, 0.0])]);
    assert_eq!(payoffs(&st), [2.0, 1.0, -2.0, -1.0]);
}

#[test]
fn hm_won_with_exactly_two_tricks_gets_three_and_knocks() {
    let mut st = state(0, HM_S1, HM_S1_STOCK, standard());
    plan(&mut st, &["M8", "S8", "W1", "T3>TB", "M7", "M2>M6", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [3, 2, 1, 2]);
    assert_eq!(lines_named(&st, "hm_won"), vec![(1, [-3.0, 3.0, 0.0, 0.0])]);
    assert!(lines_named(&st, "hm_minimum").is_empty());
    // §6.4 the knock: 1 from each of the other two players.
    assert_eq!(lines_named(&st, "knock"), vec![(1, [0.0, 2.0, -1.0, -1.0])]);
    assert_eq!(payoffs(&st), [1.0, 4.0, -3.0, -2.0]);
    assert_eq!(st.to_record_result().unwrap().next_banker, Some(seat(1)));
}

#[test]
fn hm_bonus_tricks_exactly_2_misses_three_tricks() {
    let p = ["M8", "S8", "T3>TB", "M7", "W2", "M2>M6", "S3>S5", "M5"];
    let mut st = state(0, HM_S1, HM_S1_STOCK, standard());
    plan(&mut st, &p);
    assert_eq!(st.tricks().0, [2, 3, 1, 2]);
    // Missing the trick condition: the +2 line (§6.2 [I]), no knock.
    assert_eq!(lines_named(&st, "hm_minimum"), vec![(1, [-2.0, 2.0, 0.0, 0.0])]);
    assert!(lines_named(&st, "knock").is_empty());
    assert_eq!(payoffs(&st), [-2.0, 3.0, -1.0, 0.0]);
}

#[test]
fn hm_bonus_tricks_at_least_2_pays_three_tricks() {
    let p = ["M8", "S8", "T3>TB", "M7", "W2", "M2>M6", "S3>S5", "M5"];
    let mut st = state(0, HM_S1, HM_S1_STOCK, with(standard(), "hm_bonus_tricks", "at_least_2"));
    plan(&mut st, &p);
    assert_eq!(lines_named(&st, "hm_won"), vec![(1, [-3.0, 3.0, 0.0, 0.0])]);
    assert_eq!(lines_named(&st, "knock"), vec![(1, [0.0, 2.0, -1.0, -1.0])]);
    // s0: −1 −3 +1 = −3; s1: +1 +3 +2 = 6; s2: −1 −1; s3: −1.
    assert_eq!(payoffs(&st), [-3.0, 6.0, -2.0, -1.0]);
}

#[test]
fn banker_with_the_hm_line_wins_three_from_each_and_keeps_the_bank() {
    let hands = [
        "TQ TB M8 M1 S8 S1 W1 W9",
        "T9 T4 M7 M2 S7 S2 W2 W8",
        "T8 T5 M6 M3 S6 S3 W4 W7",
        "T7 T6 M5 M4 S5 S4 W5 W6",
    ];
    let mut st = state(0, hands, "TW T3 M9 S9 W0 T2 WH W3", standard());
    plan(&mut st, &["TB", "M8", "M1>M7", "S7", "W2", "T4>T8", "S3>S5", "M5"]);
    assert_eq!(st.tricks().0, [2, 3, 1, 2]);
    assert_eq!(lines_named(&st, "hm_won"), vec![(0, [9.0, -3.0, -3.0, -3.0])]);
    assert!(lines_named(&st, "knock").is_empty(), "the banker does not knock");
    assert_eq!(payoffs(&st), [9.0, -2.0, -4.0, -3.0]);
    let r = st.to_record_result().unwrap();
    assert_eq!(r.next_banker, Some(seat(0)), "§7 the banker keeps the bank");
    assert!(!r.game_over);
}

/// Seat 1 holds TW TQ TB W0.
const HONOURS: [&str; 4] = [
    "T9 T3 M8 M1 S8 S1 W1 W9",
    "TW TQ TB W0 M7 S7 W2 T4",
    "T8 T5 M6 M3 S6 S3 W4 W7",
    "T7 T6 M5 M4 S5 S4 W5 W6",
];
const HONOURS_STOCK: &str = "M9 S9 M2 S2 W8 T2 WH W3";
const HONOURS_PLAN: [&str; 8] = ["T3>TW", "TQ", "TB", "W0", "S7>S8", "M8", "W1", "T9"];

#[test]
fn three_and_four_honours_add_up_under_cumulative() {
    let mut st = state(0, HONOURS, HONOURS_STOCK, standard());
    plan(&mut st, &HONOURS_PLAN);
    assert_eq!(st.tricks().0, [4, 4, 0, 0]);
    assert_eq!(lines_named(&st, "tw_tq_tb"), vec![(1, [-3.0, 3.0, 0.0, 0.0])]);
    assert_eq!(lines_named(&st, "tw_tq_tb_w0"), vec![(1, [-4.0, 4.0, 0.0, 0.0])]);
    assert_eq!(lines_named(&st, "reward_trick").len(), 2, "TW and W0 are reward cards");
    // s1: +1 (tricks) +1 +1 (rewards) +2 (HM, 4 tricks ≠ exactly 2) +3 +4 = 12 from the banker.
    // s0: +3 −12 +1 +1 = −7; s1: 12 −1 = 11; s2, s3: −1 −1.
    assert_eq!(payoffs(&st), [-7.0, 11.0, -2.0, -2.0]);
}

#[test]
fn largest_only_keeps_the_trick_line_and_the_largest_bonus() {
    let mut st = state(0, HONOURS, HONOURS_STOCK, with(standard(), "bonus_stacking", "largest_only"));
    plan(&mut st, &HONOURS_PLAN);
    // §9.12 s1: +1 (tricks) and only +4 of {1, 1, 2, 3, 4}.
    assert_eq!(lines_named(&st, "tw_tq_tb_w0"), vec![(1, [-4.0, 4.0, 0.0, 0.0])]);
    assert!(lines_named(&st, "tw_tq_tb").is_empty());
    assert!(lines_named(&st, "reward_trick").is_empty());
    let uncounted = all_lines(&st).iter().filter(|l| !l.counted).count();
    assert_eq!(uncounted, 4);
    assert_eq!(payoffs(&st), [0.0, 4.0, -2.0, -2.0]);
}

#[test]
fn largest_only_still_knocks_and_keeps_the_hm_line() {
    let mut st = state(0, HM_S1, HM_S1_STOCK, with(standard(), "bonus_stacking", "largest_only"));
    plan(&mut st, &["M8", "S8", "W1", "T3>TB", "M7", "M2>M6", "S3>S5", "M5"]);
    assert_eq!(lines_named(&st, "knock"), vec![(1, [0.0, 2.0, -1.0, -1.0])]);
    assert_eq!(payoffs(&st), [1.0, 4.0, -3.0, -2.0]);
}

#[test]
fn stock_check_faceup_second_card_pays_each_other_seat() {
    // Under the upcard W3 lies M9; the banker leads M8 face up in trick 1.
    let mut st = state(0, QUIET, "TW TB S9 W0 T2 WH M9 W3", standard());
    plan(&mut st, &PLAN_3_2_1_2);
    assert_eq!(lines_named(&st, "stock_check"), vec![(0, [-3.0, 1.0, 1.0, 1.0])]);
    assert_eq!(payoffs(&st), [1.0, 0.0, -1.0, 0.0]);
    let l = all_lines(&st)[0].to_string();
    assert!(l.starts_with("stock check: under the upcard lies M9"), "{l}");
}

#[test]
fn stock_check_sloughed_second_card_pays_only_under_holder() {
    let p = ["S8", "M1>M7", "S7", "W2", "T9", "M2>M6", "S6", "W4"];
    let mut st = state(0, QUIET, "TW TB S9 W0 T2 WH M9 W3", standard());
    plan(&mut st, &p);
    let m8 = st.plays().find(|p| p.card == card("M8")).unwrap();
    assert_eq!(m8.kind, madiao::PlayKind::Slough);
    assert!(lines_named(&st, "stock_check").is_empty());
    assert_eq!(payoffs(&st), [-3.0, 2.0, 2.0, -1.0]);
    let mut st = state(0, QUIET, "TW TB S9 W0 T2 WH M9 W3", with(standard(), "stock_check_payer", "holder"));
    plan(&mut st, &p);
    assert_eq!(lines_named(&st, "stock_check"), vec![(0, [-3.0, 1.0, 1.0, 1.0])]);
    assert_eq!(payoffs(&st), [-6.0, 3.0, 3.0, 0.0]);
}

#[test]
fn stock_check_second_card_in_the_stock_pays_nobody() {
    // W0 under the upcard, WH in the stock.
    for payer in ["faceup_only", "holder"] {
        let mut st = state(0, QUIET, "TW TB M9 S9 T2 WH W0 W3", with(standard(), "stock_check_payer", payer));
        plan(&mut st, &PLAN_3_2_1_2);
        assert!(lines_named(&st, "stock_check").is_empty());
        assert_eq!(payoffs(&st), [4.0, -1.0, -2.0, -1.0]);
    }
}

#[test]
fn stock_check_ignores_a_promoted_top() {
    // §9.7 Upcard M9 promotes M8; M8 under the upcard is not an actual top card: no check.
    let hands = [
        "TQ T3 W3 M1 S8 S1 W1 W9",
        "T9 T4 M7 M2 S7 S2 W2 W8",
        "T8 T5 M6 M3 S6 S3 W4 W7",
        "T7 T6 M5 M4 S5 S4 W5 W6",
    ];
    for payer in ["faceup_only", "holder"] {
        let mut st = state(0, hands, "TW TB S9 W0 T2 WH M8 M9", with(standard(), "stock_check_payer", payer));
        assert_eq!(st.first_recipient(), seat(2));
        plan(&mut st, &["S6", "M6", "W4", "T8", "T5>T6", "T7", "M5", "S5"]);
        assert_eq!(st.tricks().0, [0, 0, 4, 4]);
        assert!(lines_named(&st, "stock_check").is_empty());
        // s0 (0 tricks) pays seats 2 and 3 (winners); s1 pays the banker; s2, s3 +1 each.
        assert_eq!(payoffs(&st), [-3.0, -1.0, 2.0, 2.0]);
    }
}

#[test]
fn faceup_discards_cost_two_stakes_a_player_to_the_banker_the_banker_to_each() {
    let mut st = state(0, QUIET, QUIET_STOCK, standard());
    // Trick 1: seat 1 discards W8 face up. Trick 3: the banker discards W9 face up.
    script(&mut st, "M8 W8 -W7 -W6  M1 M7 -M3 -M4  S7 -S3 -S4 W9");
    plan(&mut st, &["W2", "T9", "M2>M6", "S6", "W4"]);
    assert_eq!(st.tricks().0, [1, 4, 3, 0]);
    assert_eq!(
        lines_named(&st, "faceup_discard"),
        vec![(1, [2.0, -2.0, 0.0, 0.0]), (0, [-6.0, 2.0, 2.0, 2.0])]
    );
    // [−3, 2, 2, −1] + [2, −2, 0, 0] + [−6, 2, 2, 2].
    assert_eq!(payoffs(&st), [-7.0, 2.0, 4.0, 1.0]);
}

#[test]
fn last_trick_a_seat_without_a_trick_cannot_win_nor_set_the_best_card() {
    let hands = [
        "T3 T6 M8 M1 S8 S1 W1 W9",
        "T9 T4 M7 M2 S7 S2 W2 W8",
        "T8 T5 M6 M3 S6 S3 W4 W7",
        "T7 TQ M5 M4 S5 S4 W5 W6",
    ];
    for v in [Variants::STANDARD, Variants::FENG] {
        let mut st = state(0, hands, QUIET_STOCK, v);
        script(
            &mut st,
            "M8 -W8 -W7 -W6  M1 M7 -M3 -M4  S7 -S3 -S4 -S1  W2 -W4 -W5 -W9  M2 M6 -M5 -W1  \
             S6 -S5 S8 -S2  T3 T9 -T5 -T7",
        );
        assert_eq!(st.tricks().0, [2, 4, 1, 0]);
        // Trick 8: seat 1 leads T4; seat 2 sloughs; seat 3 (no trick yet) plays TQ face up — a capture
        // in form that cannot win and does not set the best card — so seat 0's T6 captures and wins.
        script(&mut st, "T4 -T8 TQ T6");
        let last: Vec<madiao::Play> = st.plays().filter(|p| p.trick == 7).collect();
        assert_eq!(last[2].kind, madiao::PlayKind::Capture);
        assert!(!last[2].can_win);
        assert!(last[3].can_win);
        assert_eq!(st.trick_winner(7), Some(seat(0)));
        assert_eq!(st.tricks().0, [3, 4, 1, 0]);
    }
    // Standard settlement: s0 +3; s1 +1; s2 −1; s3 −1 → [4, 0, −2, −2].
    let mut st = state(0, hands, QUIET_STOCK, Variants::STANDARD);
    script(
        &mut st,
        "M8 -W8 -W7 -W6  M1 M7 -M3 -M4  S7 -S3 -S4 -S1  W2 -W4 -W5 -W9  M2 M6 -M5 -W1  \
         S6 -S5 S8 -S2  T3 T9 -T5 -T7  T4 -T8 TQ T6",
    );
    assert_eq!(payoffs(&st), [4.0, 0.0, -2.0, -2.0]);
}

#[test]
fn feng_preset_settles_the_honours_hand() {
    // feng: at_least_2 gives s1 the +3 HM line (4 tricks) and the knock; s0 and s1 tie for the most
    // tricks (4 and 4): ½ each; banker_shortfall all does not apply (the banker made 4).
    let mut st = state(0, HONOURS, HONOURS_STOCK, Variants::FENG);
    plan(&mut st, &HONOURS_PLAN);
    assert_eq!(lines_named(&st, "tied_for_most_tricks").len(), 2);
    assert_eq!(lines_named(&st, "hm_won"), vec![(1, [-3.0, 3.0, 0.0, 0.0])]);
    assert_eq!(lines_named(&st, "knock"), vec![(1, [0.0, 2.0, -1.0, -1.0])]);
    // s1 v = ½ + 1 + 1 + 3 + 3 + 4 = 12.5. s0: +1.5 −12.5 +1 +1 = −9; s1: 12.5 −0.5 +2 = 14;
    // s2: −0.5 −1 −1 = −2.5; s3: −2.5.
    assert_eq!(payoffs(&st), [-9.0, 14.0, -2.5, -2.5]);
}

#[test]
fn itemized_lines_read_as_sentences() {
    let mut st = state(0, WITH_M9, WITH_M9_STOCK, standard());
    plan(&mut st, &["M9", "S8", "W1", "T3>T9", "M7", "T4>T8", "S3>S5", "M5"]);
    let text = st.settlement().unwrap().to_string();
    for want in [
        "seat 0 (banker): 3 or more tricks (3): +1 from each player (+3)",
        "seat 0 (banker): won a trick with the reward card M9: +1 from each player (+3)",
        "seat 1: exactly 2 tricks: 0",
        "seat 2: fewer than 2 tricks (1): pays the banker 1",
        "totals: seat 0 +7, seat 1 -2, seat 2 -3, seat 3 -2",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
    let mut st = state(0, HONOURS, HONOURS_STOCK, standard());
    plan(&mut st, &HONOURS_PLAN);
    let text = st.settlement().unwrap().to_string();
    assert!(text.contains("seat 1: won a trick with the reward card TW: +1 from the banker"), "{text}");
    let json = serde_json::to_value(st.settlement().unwrap()).unwrap();
    for line in json["lines"].as_array().unwrap().iter().filter(|l| l["item"] == "reward_trick") {
        assert_eq!(line["detail"]["promoted"], false, "{line}");
        assert!(["TW", "W0"].contains(&line["detail"]["card"].as_str().unwrap()), "{line}");
    }
}
