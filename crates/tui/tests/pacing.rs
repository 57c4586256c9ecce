//! The offline table's pace, which is the table core's: decision windows open for their paced
//! time whoever may answer, a finished trick stays on show before the next lead, the next hand
//! waits for the person's ready, and the person has no turn clock. Time is the harness's clock.

use std::time::Duration;

use ai::record::AnyRecord;
use cards::record::GameKind;
use ratatui::crossterm::event::KeyCode;
use table::settings::Pace;
use tui::model::{GameView, Legal, timer_remaining};
use tui::testing::Harness;

fn harness(game: GameKind, seed: u64, pace: Pace) -> Harness {
    let mut c = tui::LocalConfig::new(seed);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.pace = pace;
    Harness::local(game, c, 100, 30).unwrap()
}

fn over(a: &tui::App) -> bool {
    a.model.view.as_ref().is_some_and(GameView::is_over)
}

fn timer_what(a: &tui::App) -> Option<&str> {
    a.model.timer.as_ref().map(tui::model::timer_what)
}

/// Waits an hour on the harness's clock.
fn wait_an_hour(h: &mut Harness) {
    h.now += Duration::from_secs(3600);
    h.app.tick(h.now);
}

#[test]
fn the_redeal_window_lasts_its_paced_time_and_applies_the_answer_when_it_closes() {
    for (pace, ms) in [(Pace::Normal, 8000), (Pace::Relaxed, 16_000), (Pace::Fast, 2000)] {
        // Seed 17: the person (seat 0) holds a long suit in the first hand.
        let mut h = harness(GameKind::Madiao, 17, pace);
        let start = h.now;
        assert!(h.until_decision());
        assert_eq!(h.legal(), Some(&Legal::Redeal { requested: false }));
        let t = h.app.model.timer.clone().unwrap();
        assert_eq!((tui::model::timer_what(&t), timer_remaining(&t)), ("window", Some(ms)), "{pace:?}");
        // Forcing a redeal is a request: the window stays open until its time is up.
        h.key(KeyCode::Char('r'));
        assert_eq!(h.legal(), Some(&Legal::Redeal { requested: true }));
        let forced = |a: &tui::App| a.model.notes.iter().any(|n| n.contains("seat 0 forced a redeal"));
        assert!(h.run_until(100, forced), "{pace:?}: the redeal was not applied");
        let took = h.now.duration_since(start);
        assert!(took >= Duration::from_millis(ms), "{pace:?}: the window closed after {took:?}");
        assert!(took < Duration::from_millis(ms + 1000), "{pace:?}: the window closed after {took:?}");
    }
}

#[test]
fn a_finished_trick_stays_on_show_before_a_bot_leads() {
    for (pace, ms) in [(Pace::Normal, 2000), (Pace::Relaxed, 4000), (Pace::Fast, 500)] {
        let mut h = harness(GameKind::Madiao, 1, pace);
        let bot_leads_next = |a: &tui::App| {
            timer_what(a) == Some("trick")
                && matches!(&a.model.view, Some(GameView::Madiao(v))
                    if v.tricks.last().and_then(|t| t.winner).is_some_and(|w| Some(w) != a.model.me))
        };
        assert!(h.play_until(5000, false, bot_leads_next), "{pace:?}: no trick won by a bot");
        let shown_at = h.now;
        let tricks = match &h.app.model.view {
            Some(GameView::Madiao(v)) => v.tricks.len(),
            _ => unreachable!(),
        };
        assert_eq!(h.app.model.timer.as_ref().and_then(timer_remaining), Some(ms));
        assert_eq!(h.legal(), None);
        let s = h.screen();
        assert!(s.contains("The trick is complete"), "{s}");
        // The next lead comes when the trick's time on show is over, not before.
        assert!(h.run_until(
            100,
            |a| matches!(&a.model.view, Some(GameView::Madiao(v)) if v.tricks.len() > tricks)
        ));
        assert_eq!(h.now.duration_since(shown_at), Duration::from_millis(ms), "{pace:?}");
    }
}

#[test]
fn the_person_may_lead_while_his_trick_is_on_show() {
    let mut h = harness(GameKind::Madiao, 1, Pace::Normal);
    let mine = |a: &tui::App| {
        timer_what(a) == Some("trick")
            && matches!(&a.model.view, Some(GameView::Madiao(v))
                if v.tricks.last().and_then(|t| t.winner).is_some() && v.to_move == a.model.me)
    };
    assert!(h.play_until(20_000, false, mine), "the person never won a trick");
    assert!(matches!(h.legal(), Some(Legal::Actions { .. })));
    // His lead prompt shows no countdown: the trick's time on show is not his clock.
    let s = h.screen();
    let prompt = s.lines().find(|l| l.contains("Your lead:")).unwrap_or_else(|| panic!("{s}"));
    assert!(!prompt.trim_end().ends_with("s)"), "{prompt}");
    let cards = h.app.hand().len();
    h.key(KeyCode::Enter);
    assert_eq!(h.app.hand().len(), cards - 1, "the lead was not taken at once");
}

#[test]
fn the_next_hand_waits_for_the_person() {
    let mut h = harness(GameKind::Madiao, 1, Pace::Normal);
    assert!(h.play_until(5000, false, over));
    assert_eq!(h.app.model.hand, 0);
    assert_eq!(timer_what(&h.app), Some("next_hand"));
    // Untimed offline: no countdown is shown, and an hour later the table still waits.
    assert_eq!(h.app.model.timer.as_ref().and_then(tui::model::timer_remaining), None);
    let s = h.screen();
    let prompt = s.lines().find(|l| l.contains("The hand is over")).unwrap_or_else(|| panic!("{s}"));
    assert!(!prompt.contains("s)"), "{prompt}");
    wait_an_hour(&mut h);
    assert_eq!(h.app.model.hand, 0);
    assert!(over(&h.app));
    // Ready: the next hand is dealt at once.
    h.key(KeyCode::Enter);
    assert_eq!(h.app.model.hand, 1);
    assert!(!over(&h.app));
}

#[test]
fn the_person_has_no_turn_clock() {
    let mut h = harness(GameKind::Dabaifen, 6, Pace::Normal);
    let my_lead =
        |a: &tui::App| matches!(a.model.legal, Some(Legal::Lead { .. })) && timer_what(a) == Some("turn");
    assert!(h.play_until(5000, true, my_lead));
    // His turn's clock is not shown: offline it does not run.
    assert_eq!(h.app.model.timer.as_ref().and_then(tui::model::timer_remaining), None);
    let s = h.screen();
    let prompt = s.lines().find(|l| l.contains("Your lead")).unwrap_or_else(|| panic!("{s}"));
    assert!(!prompt.trim_end().ends_with("s)"), "{prompt}");
    let cards = h.app.hand().len();
    let moves = h.app.model.move_no;
    wait_an_hour(&mut h);
    // Nobody played for him: his decision, his cards and the table are as they were.
    assert!(matches!(h.legal(), Some(Legal::Lead { .. })));
    assert_eq!((h.app.hand().len(), h.app.model.move_no), (cards, moves));
    let me = h.app.model.me.unwrap();
    let seat = h.app.model.seat_info(me).unwrap();
    assert!(!seat.away && !seat.bot_plays, "{seat:?}");
}

#[test]
fn bots_on_a_thread_play_a_match_to_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.json");
    let mut c = tui::LocalConfig::new(11);
    c.bots = std::array::from_fn(|_| "heuristic".to_string());
    c.seat = cards::Seat::new(2).unwrap();
    c.threaded = true;
    c.out = Some(out.clone());
    let mut h = Harness::local(GameKind::Dabaifen, c, 100, 30).unwrap();
    let done = |a: &tui::App| a.model.match_over() && over(a);
    let began = std::time::Instant::now();
    while !done(&h.app) {
        assert!(began.elapsed() < Duration::from_secs(120), "the match did not end");
        if !h.auto_decide(true) {
            h.step();
            // The bots think in real time: give their thread a moment.
            std::thread::sleep(Duration::from_micros(100));
        }
    }
    h.app.finish();
    let AnyRecord::Dabaifen(rec) = ai::record::parse(&std::fs::read_to_string(&out).unwrap()).unwrap() else {
        panic!("not a Da Bai Fen record")
    };
    let rep = dabaifen::record::replay(&rec);
    assert!(rep.is_clean(), "{:?} {:?}", rep.error, rep.differences());
    assert!(rep.hands.last().unwrap().state.to_record_result().expect("finished").game_over);
}
