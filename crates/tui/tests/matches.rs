//! Complete matches of both games played through the key handling — the interface acting for the
//! person's seat, bots for the others — to the end of the match; the record written by the local
//! driver is read back and replayed by the engines, and must agree with what the screen showed.
//! Also: a match left midway is saved as far as it went, and still replays.

use ai::record::AnyRecord;
use ratatui::crossterm::event::KeyCode;
use tui::model::{GameView, MatchSummary};
use tui::testing::Harness;

fn config(seed: u64, seat: u8, bots: &str, out: &std::path::Path) -> tui::LocalConfig {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| bots.to_string());
    c.seat = cards::Seat::new(seat).unwrap();
    c.name = "Tester".into();
    c.out = Some(out.to_path_buf());
    c
}

fn match_over(a: &tui::App) -> bool {
    a.model.match_over() && a.model.view.as_ref().is_some_and(GameView::is_over)
}

fn read(path: &std::path::Path) -> AnyRecord {
    ai::record::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_complete_madiao_match_through_the_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.json");
    let mut h =
        Harness::local(cards::record::GameKind::Madiao, config(11, 2, "heuristic", &out), 100, 30).unwrap();
    assert!(h.play_until(200_000, false, match_over), "the match did not end");
    // Enter on the last screen quits.
    h.key(KeyCode::Enter);
    assert!(h.app.quit);
    let lines = h.app.finish();
    assert!(lines.iter().any(|l| l.contains(out.to_str().unwrap())), "{lines:?}");
    let AnyRecord::Madiao(rec) = read(&out) else { panic!("not a Madiao record") };
    assert_eq!(rec.seed, Some(11));
    assert_eq!(rec.players.as_ref().unwrap().0[2], "Tester");
    assert_eq!(rec.players.as_ref().unwrap().0[0], "bot:heuristic");
    let rep = madiao::record::replay(&rec);
    assert!(rep.is_clean(), "{:?} {:?}", rep.error, rep.differences().collect::<Vec<_>>());
    let results: Vec<_> = rep.hands.iter().map(|h| h.result.clone().expect("every hand finished")).collect();
    assert!(results.len() >= 4, "every seat banks at least once: {} hands", results.len());
    assert!(results.last().unwrap().game_over);
    assert!(results[..results.len() - 1].iter().all(|r| !r.game_over));
    // The running score on screen is the sum of the record's payoffs.
    let Some(MatchSummary::Madiao(tui::model::MadiaoMatch { totals, hands, over, .. })) =
        &h.app.model.summary
    else {
        panic!()
    };
    assert!(*over);
    assert_eq!(*hands, results.len());
    for (s, total) in totals.iter().enumerate() {
        let sum: f64 = results.iter().map(|r| r.payoffs.0[s].to_f64()).sum();
        assert_eq!(*total, sum, "seat {s}");
    }
    // The person really played: his seat's actions are in the record.
    let mine = rec.hands.iter().flat_map(|h| &h.actions).filter(|a| a.seat().number() == 2).count();
    assert!(mine >= 8 * 3, "{mine} actions by the person");
}

#[test]
fn a_complete_dabaifen_match_through_the_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.json");
    let mut h =
        Harness::local(cards::record::GameKind::Dabaifen, config(3, 0, "heuristic", &out), 100, 30).unwrap();
    assert!(h.play_until(400_000, true, match_over), "the match did not end");
    h.app.finish();
    let AnyRecord::Dabaifen(rec) = read(&out) else { panic!("not a Da Bai Fen record") };
    let rep = dabaifen::record::replay(&rec);
    assert!(rep.is_clean(), "{:?} {:?}", rep.error, rep.differences());
    let last = rep.hands.last().unwrap().state.to_record_result().expect("finished");
    assert!(last.game_over);
    let Some(MatchSummary::Dabaifen(tui::model::DabaifenMatch { ranks, winner, over, hands, .. })) =
        &h.app.model.summary
    else {
        panic!()
    };
    assert!(*over);
    assert_eq!(*hands, rep.hands.len());
    assert_eq!(*winner, last.winner);
    let ranks: Vec<String> = ranks.iter().map(ToString::to_string).collect();
    assert_eq!(ranks, last.ranks.to_vec());
    assert!(ranks.iter().any(|r| r == "A"), "{ranks:?}");
    // The person buried, led and followed: his plays are in the record.
    let mine: Vec<_> = rec.hands.iter().flat_map(|h| &h.actions).filter(|a| a.seat().number() == 0).collect();
    assert!(mine.iter().any(|a| matches!(a, dabaifen::record::DabaifenAction::Play { .. })));
}

#[test]
fn a_match_left_midway_is_saved_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    // Madiao: a few tricks into the second hand.
    let out = dir.path().join("m.json");
    let mut h =
        Harness::local(cards::record::GameKind::Madiao, config(4, 0, "random", &out), 100, 30).unwrap();
    assert!(h.play_until(50_000, false, |a| a.model.hand == 1
        && matches!(&a.model.view, Some(GameView::Madiao(v)) if v.tricks.len() >= 3)));
    h.key(KeyCode::Esc);
    assert!(h.app.ui.confirm_quit);
    h.key(KeyCode::Char('y'));
    assert!(h.app.quit);
    h.app.finish();
    let AnyRecord::Madiao(rec) = read(&out) else { panic!() };
    assert_eq!(rec.hands.len(), 2);
    assert!(rec.hands[0].result.is_some() && rec.hands[1].result.is_none());
    assert!(rec.hands[1].actions.len() >= 8);
    let rep = madiao::record::replay(&rec);
    assert!(rep.is_clean(), "{:?}", rep.error);
    assert!(rep.hands[1].state.to_move().is_some(), "the second hand is unfinished");

    // Da Bai Fen: left during the draw of the first deal.
    let out = dir.path().join("d.json");
    let mut h =
        Harness::local(cards::record::GameKind::Dabaifen, config(4, 0, "random", &out), 100, 30).unwrap();
    assert!(h.run_until(1000, |a| matches!(&a.model.view, Some(GameView::Dabaifen(v)) if v.drawn >= 20)));
    h.app.finish();
    let AnyRecord::Dabaifen(rec) = read(&out) else { panic!() };
    assert_eq!(rec.hands.len(), 1);
    assert!(rec.hands[0].result.is_none());
    let rep = dabaifen::record::replay(&rec);
    assert!(rep.error.is_none(), "{:?}", rep.error);
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut c = tui::LocalConfig::new(1);
    c.rules = "feng".into();
    assert!(tui::local_app(cards::record::GameKind::Dabaifen, c.clone(), std::time::Instant::now()).is_err());
    assert!(tui::local_app(cards::record::GameKind::Madiao, c.clone(), std::time::Instant::now()).is_ok());
    c.bots[1] = "genius".into();
    let e = tui::local_app(cards::record::GameKind::Madiao, c, std::time::Instant::now()).err().unwrap();
    assert!(e.to_string().contains("genius"), "{e}");
    let mut c = tui::LocalConfig::new(1);
    c.variants.0.insert("colour".into(), "red".into());
    assert!(tui::local_app(cards::record::GameKind::Madiao, c, std::time::Instant::now()).is_err());
}

/// A seed whose match puts the person before a forced multi-card follow.
const SEED: u64 = 3;

/// When the cards to follow with are forced (as many cards left as the lead asks for, say),
/// Enter plays them without choosing each one.
#[test]
fn enter_plays_a_forced_multi_card_follow() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.json");
    let mut h =
        Harness::local(cards::record::GameKind::Dabaifen, config(SEED, 0, "heuristic", &out), 100, 30)
            .unwrap();
    let forced = |a: &tui::App| {
        matches!(&a.model.legal, Some(tui::model::Legal::Cards { count, must, from, .. })
            if *count >= 2 && must.len() + from.len() == usize::from(*count))
    };
    assert!(h.play_until(400_000, true, |a| forced(a) || match_over(a)), "the match did not end");
    assert!(forced(&h.app), "seed {SEED} never forces a multi-card follow");
    let before = h.app.hand().len();
    h.app.ui.selected.clear();
    h.key(KeyCode::Enter);
    assert!(h.app.ui.message.as_deref().is_none_or(|m| !m.contains("choose")), "{:?}", h.app.ui.message);
    assert!(h.run_until(100, |a| a.hand().len() < before), "the forced cards were not played");
}

#[test]
fn the_person_as_banker_names_each_hands_stake_with_the_keys_and_the_record_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.json");
    let mut c = config(5, 0, "random", &out);
    c.stake = 2;
    c.stake_max = Some(10);
    let mut h = Harness::local(cards::record::GameKind::Madiao, c, 100, 30).unwrap();
    let asked = |a: &tui::App| matches!(a.model.legal, Some(tui::model::Legal::Stake { .. }));
    assert!(h.play_until(200_000, false, |a| asked(a) || match_over(a)), "the person never banked");
    assert!(asked(&h.app), "the person banks once in a match where everyone banks");
    assert_eq!(h.app.model.legal, Some(tui::model::Legal::Stake { low: 2, high: 10 }));
    let screen = h.screen();
    assert!(screen.contains("name its stake, 2 to 10 chips"), "{screen}");
    // → three times (to 8), ← once (6), Enter names it; past the highest it stays at 10.
    for k in [KeyCode::Right, KeyCode::Right, KeyCode::Right, KeyCode::Left] {
        h.key(k);
    }
    assert!(h.screen().contains("Enter names 6 chips"));
    h.key(KeyCode::Enter);
    assert!(h.until_decision());
    let named = h.app.model.view.as_ref().map(|v| match v {
        GameView::Madiao(v) => v.stake,
        _ => 0,
    });
    assert_eq!(named, Some(6), "the hand is dealt at the stake named");
    assert!(h.play_until(200_000, false, match_over), "the match did not end");
    h.app.finish();
    let AnyRecord::Madiao(rec) = read(&out) else { panic!() };
    assert!(
        rec.hands.iter().any(|hand| hand.banker.number() == 0 && hand.stake == 6),
        "{:?}",
        rec.hands.iter().map(|h| (h.banker.number(), h.stake)).collect::<Vec<_>>()
    );
    assert!(madiao::record::replay(&rec).is_clean());
    let Some(MatchSummary::Madiao(m)) = &h.app.model.summary else { panic!() };
    let chips: Vec<f64> = (0..4)
        .map(|s| {
            rec.hands
                .iter()
                .map(|h| h.result.as_ref().unwrap().payoffs.0[s].to_f64() * f64::from(h.stake))
                .sum()
        })
        .collect();
    assert_eq!(m.chips.to_vec(), chips);
}
