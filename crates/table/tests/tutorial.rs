//! The tutorials' frozen scripts: each replays with the engine, every action legal and the hand
//! played to its end; seat 0 meets every kind of decision its tutorial teaches; every lesson has
//! its text in both languages of the browser client; the searches that found them still find one.

use std::collections::HashSet;

use cards::record::GameKind;
use table::game::Legal;
use table::tutorial::{self, Decision, Tutorial};
use wire::{GameView, PublicAction};

fn kinds(t: &Tutorial) -> HashSet<Decision> {
    t.steps.iter().filter_map(|s| s.lesson.as_ref().map(|l| l.kind)).collect()
}

fn over(view: &GameView) -> bool {
    let v = serde_json::to_value(view).unwrap();
    v["phase"] == "over" && !v["result"].is_null()
}

#[test]
fn madiao_tutorial_replays_to_the_settlement_with_every_decision() {
    let t = tutorial::tutorial(GameKind::Madiao).expect("the Madiao script replays");
    let script: tutorial::Script<madiao::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Madiao)).unwrap();
    assert_eq!(t.steps.len(), script.actions.len());
    assert!(over(&t.steps.last().unwrap().view), "the hand ends settled");
    assert!(!over(&t.start));
    let k = kinds(&t);
    for want in [Decision::Redeal, Decision::Lead, Decision::Capture, Decision::Slough] {
        assert!(k.contains(&want), "seat 0 meets {want:?}: {k:?}");
    }
    assert!(!k.contains(&Decision::Discard), "no penalized face-up discard is taught as a move");
    assert_eq!(t.end_lesson, "tut.madiao.settlement");
    // Every one of seat 0's moves is a lesson, and its action is among the legal choices offered.
    for (i, s) in t.steps.iter().enumerate() {
        assert_eq!(s.lesson.is_some(), s.seat.number() == 0, "step {i}");
        let Some(l) = &s.lesson else { continue };
        let Some(PublicAction::Madiao(a)) = s.action else { panic!("step {i}: seat 0 sees its own move") };
        match &l.legal {
            Legal::Actions { actions, .. } => assert!(actions.contains(&a), "step {i}: {a} offered"),
            Legal::Redeal { .. } => assert!(matches!(a, madiao::Action::Redeal(false)), "step {i}"),
            other => panic!("step {i}: unexpected legal {other:?}"),
        }
    }
}

#[test]
fn dabaifen_tutorial_replays_to_the_account_with_every_decision() {
    let t = tutorial::tutorial(GameKind::Dabaifen).expect("the Da Bai Fen script replays");
    let script: tutorial::Script<dabaifen::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Dabaifen)).unwrap();
    assert_eq!(t.steps.len(), script.actions.len());
    assert!(over(&t.steps.last().unwrap().view), "the deal ends with its account");
    let k = kinds(&t);
    for want in [Decision::Declare, Decision::Bury, Decision::LeadSeveral, Decision::Follow] {
        assert!(k.contains(&want), "seat 0 meets {want:?}: {k:?}");
    }
    assert_eq!(t.end_lesson, "tut.dabaifen.account");
    for (i, s) in t.steps.iter().enumerate() {
        let Some(l) = &s.lesson else {
            // Seat 0's only moves without a lesson are its passes of the draw's polls, never shown.
            if s.seat.number() == 0 {
                assert!(s.action.is_none(), "step {i}");
            }
            continue;
        };
        let Some(PublicAction::Dabaifen(a)) = &s.action else { panic!("step {i}: seat 0 sees its own move") };
        match (&l.legal, a) {
            (Legal::Declare { cards, .. }, dabaifen::Action::Declare(c)) => {
                assert!(cards.contains(c), "step {i}")
            }
            (Legal::Cards { from, count, .. }, dabaifen::Action::Bury(cs) | dabaifen::Action::Play(cs)) => {
                assert_eq!(cs.len() as usize, usize::from(*count), "step {i}");
                assert!(cs.iter().all(|c| from.contains(&c)), "step {i}");
            }
            (Legal::Lead { singles, groups, .. }, dabaifen::Action::Play(cs)) => {
                if cs.len() == 1 {
                    assert!(cs.iter().all(|c| singles.contains(&c)), "step {i}");
                } else {
                    // A lead of several: top cards of one suit, as the engine lists them.
                    let tops = groups
                        .iter()
                        .filter_map(|g| g.tops.as_ref())
                        .find(|tops| cs.iter().all(|c| tops.contains(&c)));
                    assert!(tops.is_some(), "step {i}: {cs:?} are top cards of one suit");
                }
            }
            (legal, a) => panic!("step {i}: {a:?} does not fit {legal:?}"),
        }
    }
    // The learner is the starter: he declared, so he buries and leads the first trick.
    let first_bury = t.steps.iter().position(|s| s.lesson.as_ref().is_some_and(|l| l.kind == Decision::Bury));
    let first_declare =
        t.steps.iter().position(|s| s.lesson.as_ref().is_some_and(|l| l.kind == Decision::Declare));
    assert!(first_declare < first_bury);
}

/// Another seat's answers to hidden polls are never shown (a table never shows them).
#[test]
fn hidden_polls_stay_hidden() {
    let t = tutorial::tutorial(GameKind::Dabaifen).unwrap();
    let script: tutorial::Script<dabaifen::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Dabaifen)).unwrap();
    let mut hidden = 0;
    for (s, m) in t.steps.iter().zip(&script.actions) {
        if m.action == dabaifen::Action::Pass {
            assert!(s.action.is_none());
            hidden += 1;
        }
    }
    assert!(hidden > 0, "the script has draw polls");
}

/// Every lesson's text is in the browser client, in English and in Chinese (each key twice).
#[test]
fn every_lesson_has_its_text_in_both_languages() {
    let words = |lang: &str| {
        std::fs::read_to_string(format!("{}/../../web/js/i18n/{lang}.js", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
    };
    let i18n = words("en") + &words("zh");
    for game in [GameKind::Madiao, GameKind::Dabaifen] {
        let t = tutorial::tutorial(game).unwrap();
        let mut keys: Vec<String> =
            t.steps.iter().filter_map(|s| s.lesson.as_ref().map(|l| l.id.clone())).collect();
        keys.push(t.end_lesson.clone());
        for k in keys {
            let quoted = format!("'{k}'");
            assert_eq!(i18n.matches(&quoted).count(), 2, "{k} in English and Chinese");
        }
    }
}

/// A broken script is refused with the engine's reason, never replayed.
#[test]
fn an_illegal_script_is_refused() {
    let mut script: tutorial::Script<madiao::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Madiao)).unwrap();
    script.actions.swap(1, 2);
    assert!(matches!(
        tutorial::madiao_tutorial(&script),
        Err(tutorial::TutorialError::Illegal { index: 1, .. })
    ));
    let mut short = tutorial::parse::<madiao::Action>(tutorial::script_json(GameKind::Madiao)).unwrap();
    short.actions.pop();
    assert_eq!(tutorial::madiao_tutorial(&short).err(), Some(tutorial::TutorialError::Unfinished));
    assert!(tutorial::parse::<madiao::Action>("{\"rules\": 1}").is_err());
}

/// The searches that made the frozen scripts find them again (seat 0 steered, heuristic bots).
#[test]
fn the_searches_find_the_frozen_scripts() {
    let frozen: tutorial::Script<madiao::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Madiao)).unwrap();
    let found = tutorial::search_madiao(0..frozen.seed + 1).expect("a Madiao script");
    assert_eq!(found, frozen);
    let frozen: tutorial::Script<dabaifen::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Dabaifen)).unwrap();
    let found = tutorial::search_dabaifen(0..frozen.seed + 1).expect("a Da Bai Fen script");
    assert_eq!(found, frozen);
}

/// The facts the lessons' words state about the hand (web/js/i18n/en.js, `tut.*`) hold in the frozen
/// scripts: a new script needs its lessons read again.
#[test]
fn the_lessons_words_fit_the_scripted_hands() {
    let t = tutorial::tutorial(GameKind::Madiao).unwrap();
    let start = serde_json::to_value(&t.start).unwrap();
    assert_eq!(start["banker"], 2, "Bot 3, opposite you, banks");
    assert_eq!(start["first_recipient"], 1, "Bot 2, on your right, leads first");
    let hand: Vec<String> = serde_json::from_value(start["hand"].clone()).unwrap();
    assert_eq!(hand.iter().filter(|c| c.starts_with('W')).count(), 5, "five Cash");
    assert!(
        hand.contains(&"W0".to_string()) && !hand.iter().any(|c| c.starts_with('M')),
        "the Zero cash, no Myriad"
    );
    let end = serde_json::to_value(&t.steps.last().unwrap().view).unwrap();
    assert_eq!(end["tricks_won"][0], 3, "you took 3 tricks");
    assert_eq!(end["tricks_won"][end["banker"].as_u64().unwrap() as usize], 0, "the banker took none");
    assert_eq!(end["settlement"]["totals"][0], 2, "you end on +2 stakes");
    let mine: Vec<&str> = end["settlement"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["seat"] == 0 || l["seat"] == end["banker"])
        .filter_map(|l| l["item"].as_str())
        .collect();
    for item in ["3_or_more_tricks", "reward_trick", "fewer_than_2_tricks", "hm_fewer_than_2_tricks"] {
        assert!(mine.contains(&item), "{item}: {mine:?}");
    }
    // The slough that keeps the Zero cash: the learner could have captured with it.
    let keep =
        t.steps.iter().position(|s| s.lesson.as_ref().is_some_and(|l| l.id == "tut.madiao.slough_keep"));
    let keep = keep.expect("a lesson keeps the Zero cash");
    assert_eq!(serde_json::to_value(&t.steps[keep].action).unwrap(), serde_json::json!({"slough": "W7"}));
    let led = serde_json::to_value(&t.steps[keep - 1].view).unwrap();
    let hand: Vec<String> = serde_json::from_value(led["hand"].clone()).unwrap();
    assert!(hand.contains(&"W0".to_string()) && !hand.contains(&"WH".to_string()), "{hand:?}");

    let t = tutorial::tutorial(GameKind::Dabaifen).unwrap();
    let declared =
        t.steps.iter().find(|s| s.lesson.as_ref().is_some_and(|l| l.kind == Decision::Declare)).unwrap();
    assert_eq!(serde_json::to_value(&declared.action).unwrap(), serde_json::json!({"declare": "2S"}));
    let before_several = t
        .steps
        .iter()
        .position(|s| s.lesson.as_ref().is_some_and(|l| l.kind == Decision::LeadSeveral))
        .unwrap();
    let v = serde_json::to_value(&t.steps[before_several - 1].view).unwrap();
    let played_bj = v["tricks"].as_array().unwrap().iter().any(|tr| {
        tr["plays"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["cards"].as_array().is_some_and(|cs| cs.contains(&"BJ".into())))
    });
    assert!(played_bj, "the Big joker is gone before the lead of two");
    let end = serde_json::to_value(&t.steps.last().unwrap().view).unwrap();
    assert_eq!(end["result"]["defender_points"], 20);
    assert_eq!(end["result"]["ranks"], serde_json::json!(["3", "2"]));
    assert_eq!(end["result"]["next_starter"], 2, "your partner starts next");
    assert_eq!(end["result"]["kitty_points"], 0, "the buried kitty holds no points");
    let kitty =
        end["account"]["lines"].as_array().unwrap().iter().find(|l| l["event"] == "kitty").unwrap().clone();
    assert_eq!(kitty["to_defenders"], true, "the defenders took the last trick");
    let buried =
        t.steps.iter().find(|s| s.lesson.as_ref().is_some_and(|l| l.kind == Decision::Bury)).unwrap();
    let before_bury = serde_json::to_value(
        &t.steps[t.steps.iter().position(|s| std::ptr::eq(s, buried)).unwrap() - 1].view,
    )
    .unwrap();
    assert_eq!(before_bury["phase"], "burying", "no annulment window: every hand holds a trump");
}

/// The analysis (`ai::analysis`, seed 1, the default budget: what `yezi analyse` and the server
/// give) of every move a tutorial tells the learner to make: none is a mistake or a blunder, and
/// no Da Bai Fen play gives the defenders [`tutorial::GIFT_POINTS`] or more points than the best
/// play (the old script's 10♣ on the partner's J♦ with an opponent still to play: 14 more).
#[test]
fn no_lesson_teaches_a_mistake() {
    let budget = ai::Budget::default();
    let seat = cards::Seat::ALL[0];
    let script: tutorial::Script<madiao::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Madiao)).unwrap();
    let end = tutorial::madiao_finished(&script).unwrap();
    let madiao = ai::analysis::analyse_madiao_hand(&end, seat, 1, budget, &mut |_| {});
    let script: tutorial::Script<dabaifen::Action> =
        tutorial::parse(tutorial::script_json(GameKind::Dabaifen)).unwrap();
    let end = tutorial::dabaifen_finished(&script).unwrap();
    let actions = dabaifen::record::record_actions(&end);
    let dabaifen = ai::analysis::analyse_dabaifen_hand(&end, &actions, seat, 1, budget, &mut |_| {});
    let mut bad = Vec::new();
    for a in [&madiao, &dabaifen] {
        assert!(a.decisions.len() >= 4, "{:?}: the learner's moves are analysed", a.game);
        assert!(
            a.decisions.iter().filter(|d| matches!(d.verdict, ai::analysis::Verdict::Searched(_))).count()
                >= 4,
            "{:?}: most of them searched",
            a.game
        );
        for d in &a.decisions {
            // The learner is the Da Bai Fen starter: his team declares.
            if let Some(why) = tutorial::taught_mistake(&d.verdict, &d.played, false) {
                bad.push(format!("{:?} trick {:?}: {} {why}", a.game, d.trick, d.played));
            }
        }
    }
    if std::env::var_os("YEZI_SHOW").is_some() {
        eprintln!("{}\n{}", ai::analysis::report(&madiao), ai::analysis::report(&dabaifen));
    }
    assert!(bad.is_empty(), "lessons teach mistakes:\n{}", bad.join("\n"));
}

/// A known position: the old Da Bai Fen tutorial's 8th trick, where the learner threw 10♣ on his
/// partner's J♦ with an opponent still to play (`tests/data/dabaifen_tutorial_old.json`). The
/// analysis says why Q♠ was better and what 10♣ gave away, in both languages.
#[test]
fn the_analysis_explains_the_old_lessons_gift_of_points() {
    let script: tutorial::Script<dabaifen::Action> =
        tutorial::parse(include_str!("data/dabaifen_tutorial_old.json")).unwrap();
    let end = tutorial::dabaifen_finished(&script).unwrap();
    let actions = dabaifen::record::record_actions(&end);
    let seat = cards::Seat::ALL[0];
    let a = ai::analysis::analyse_dabaifen_hand(&end, &actions, seat, 1, ai::Budget::default(), &mut |_| {});
    let d = a.decisions.iter().find(|d| d.trick == Some(8)).unwrap();
    assert_eq!(d.played, "play TC");
    let ai::analysis::Verdict::Searched(x) = &d.verdict else { panic!("{d:?}") };
    assert_eq!(x.bot, "play QS");
    let pos = d.position.as_ref().unwrap();
    // The trick so far: the partner's J♦ (seat 2) after an opponent's lead; one opponent to play.
    assert!(pos.trick.iter().any(|p| p.seat.number() == 2 && p.cards == ["JD"]), "{pos:?}");
    assert_eq!(pos.trick.len(), 2, "{pos:?}");
    assert!(pos.hand.contains(&"TC".to_string()) && pos.trump.as_deref() == Some("2S"), "{pos:?}");
    let why = d.why.as_ref().unwrap();
    let against = why.played.as_ref().expect("a reason against 10♣");
    assert!(why.best.en.contains("Q♠") && why.best.zh.contains("黑桃Q"), "{:?}", why.best);
    assert!(
        against.en.contains("gives the defenders 14 card points more on average than play Q♠"),
        "{}",
        against.en
    );
    assert!(against.zh.contains("多送守方14分"), "{}", against.zh);
}
