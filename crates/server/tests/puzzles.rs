//! Puzzles: the shipped files re-verified (a sample of each: the position replays, the answer is
//! legal and the unique best by the stated margin with every card face up), a tampered puzzle
//! refused, the generator deterministic and its puzzles passing the same check, and the HTTP API
//! (a position, a judged attempt, the Glicko-2 rating of the first attempt only, the puzzle of
//! the day, the next puzzle, errors).

use crate::common;

use std::collections::BTreeSet;

use ai::puzzle::{self, DabaifenFile, MadiaoFile, MakeOptions, Theme};
use cards::record::GameKind;
use common::{TestServer, fast};
use serde_json::{Value, json};

fn madiao_file() -> MadiaoFile {
    puzzle::read_file(server::puzzles::shipped(GameKind::Madiao), GameKind::Madiao).unwrap()
}

fn dabaifen_file() -> DabaifenFile {
    puzzle::read_file(server::puzzles::shipped(GameKind::Dabaifen), GameKind::Dabaifen).unwrap()
}

/// Every `n`-th index of a list of `len`.
fn every(len: usize, n: usize) -> impl Iterator<Item = usize> {
    (0..len).step_by(n.max(1))
}

#[test]
fn the_shipped_files_hold_at_least_500_puzzles_per_game_with_every_theme() {
    let m = madiao_file();
    let d = dabaifen_file();
    assert!(m.puzzles.len() >= 500, "{} Madiao puzzles", m.puzzles.len());
    assert!(d.puzzles.len() >= 500, "{} Da Bai Fen puzzles", d.puzzles.len());
    let ids: BTreeSet<&str> =
        m.puzzles.iter().map(|p| p.id.as_str()).chain(d.puzzles.iter().map(|p| p.id.as_str())).collect();
    assert_eq!(ids.len(), m.puzzles.len() + d.puzzles.len(), "ids are unique");
    let mt: BTreeSet<Theme> = m.puzzles.iter().flat_map(|p| p.themes.iter().copied()).collect();
    for t in [Theme::CaptureOrSlough, Theme::RewardCard, Theme::LastTrick, Theme::BankerCount] {
        assert!(mt.contains(&t), "no Madiao puzzle on {t:?}");
    }
    let dt: BTreeSet<Theme> = d.puzzles.iter().flat_map(|p| p.themes.iter().copied()).collect();
    for t in [Theme::MultiLead, Theme::Ruff, Theme::ProtectPoints, Theme::KittyEnd] {
        assert!(dt.contains(&t), "no Da Bai Fen puzzle on {t:?}");
    }
    for p in &m.puzzles {
        assert!((1..=5).contains(&p.difficulty) && !p.themes.is_empty() && !p.line.is_empty(), "{}", p.id);
    }
    for p in &d.puzzles {
        assert!((1..=5).contains(&p.difficulty) && !p.themes.is_empty() && !p.line.is_empty(), "{}", p.id);
    }
    // Easiest first.
    assert!(m.puzzles.windows(2).all(|w| w[0].difficulty <= w[1].difficulty));
    assert!(d.puzzles.windows(2).all(|w| w[0].difficulty <= w[1].difficulty));
}

#[test]
fn a_sample_of_the_shipped_madiao_puzzles_checks() {
    let f = madiao_file();
    for i in every(f.puzzles.len(), 10) {
        let p = &f.puzzles[i];
        let c = puzzle::check_madiao(p, &f.rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.face_up_gap >= f.margin, "{}: gap {}", p.id, c.face_up_gap);
        assert!(
            (c.face_up_gap - p.face_up_gap).abs() < 1e-6,
            "{}: the stated gap {} is not {}",
            p.id,
            p.face_up_gap,
            c.face_up_gap
        );
    }
}

#[test]
fn a_sample_of_the_shipped_dabaifen_puzzles_checks() {
    let f = dabaifen_file();
    for i in every(f.puzzles.len(), 10) {
        let p = &f.puzzles[i];
        let c = puzzle::check_dabaifen(p, &f.rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.face_up_gap >= f.margin, "{}: gap {}", p.id, c.face_up_gap);
    }
}

#[test]
fn a_tampered_puzzle_is_refused() {
    let f = madiao_file();
    let p = &f.puzzles[0];
    // Another move as the answer: not the best by the margin.
    let mut wrong = p.clone();
    wrong.answers = vec![p.moves[1].action];
    let e = puzzle::check_madiao(&wrong, &f.rules).unwrap_err().to_string();
    assert!(e.contains("under the margin") || e.contains("not one move"), "{e}");
    // An illegal answer.
    let mut illegal = p.clone();
    let held: Vec<String> = p.hand.deck.clone();
    let other = held.iter().find_map(|c| {
        let a = madiao::Action::Play(c.parse().ok()?);
        let st = puzzle::madiao_position(&p.hand, &f.rules).ok()?;
        (!st.legal_actions().contains(&a)).then_some(a)
    });
    illegal.answers = vec![other.unwrap()];
    assert!(puzzle::check_madiao(&illegal, &f.rules).unwrap_err().to_string().contains("not legal"));
    // A position that does not replay.
    let mut broken = p.clone();
    broken.hand.actions.truncate(broken.hand.actions.len().saturating_sub(1));
    assert!(puzzle::check_madiao(&broken, &f.rules).is_err());
    // Another format version, another game.
    let text = server::puzzles::shipped(GameKind::Madiao).replacen("\"format\":1", "\"format\":2", 1);
    assert!(
        puzzle::read_file::<madiao::record::MadiaoHand, madiao::Action>(&text, GameKind::Madiao)
            .unwrap_err()
            .to_string()
            .contains("format 2")
    );
    assert!(
        puzzle::read_file::<dabaifen::record::DabaifenHand, dabaifen::Action>(
            server::puzzles::shipped(GameKind::Madiao),
            GameKind::Dabaifen
        )
        .is_err()
    );
}

#[test]
fn the_generator_is_seeded_and_its_puzzles_check() {
    let opts = MakeOptions {
        seed: 5,
        count: 6,
        max_deals: 200,
        rules: "standard".into(),
        bot: "heuristic".into(),
        records: Vec::new(),
        burials: 0,
    };
    let a = puzzle::make_madiao(&opts, &mut |_, _| {}).unwrap();
    let b = puzzle::make_madiao(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(a, b, "the same seed, the same puzzles");
    assert_eq!(a.puzzles.len(), 6);
    assert!(a.made.examined >= a.made.sampled && a.made.sampled >= a.made.accepted);
    for p in &a.puzzles {
        puzzle::check_madiao(p, &a.rules).unwrap();
        assert!(p.agree == p.worlds || p.expected_gap >= puzzle::WIDE * puzzle::MADIAO_MARGIN, "{}", p.id);
    }
    let d = puzzle::make_dabaifen(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(d.puzzles.len(), 6);
    for p in &d.puzzles {
        puzzle::check_dabaifen(p, &d.rules).unwrap();
    }
    let other = puzzle::make_madiao(&MakeOptions { seed: 6, ..opts }, &mut |_, _| {}).unwrap();
    assert_ne!(a.puzzles[0].id, other.puzzles[0].id);
}

#[test]
fn judging_says_right_for_every_answer_and_wrong_with_the_loss_otherwise() {
    let set = server::puzzles::set(GameKind::Madiao);
    let f = madiao_file();
    let p = &f.puzzles[3];
    let i = set.get(&p.id).unwrap();
    for a in &p.answers {
        let v = set.judge(i, &serde_json::to_value(a).unwrap()).unwrap();
        assert!(v.right && v.mistake.is_none(), "{a}");
        assert!(!v.reason.en.is_empty() && !v.reason.zh.is_empty());
    }
    let wrong = &p.moves[1];
    let v = set.judge(i, &serde_json::to_value(wrong.action).unwrap()).unwrap();
    assert!(!v.right);
    let loss = v.loss.unwrap();
    assert!((loss - (p.moves[0].face_up - wrong.face_up)).abs() < 0.01, "{loss}");
    assert!(loss >= f.margin - 1e-9);
    assert!(v.mistake.unwrap().en.contains("less than"));
    // Not an action, or not legal.
    assert!(set.judge(i, &json!({"play": "XX"})).is_err());
    let d = server::puzzles::set(GameKind::Dabaifen);
    assert!(matches!(
        d.judge(0, &json!({"play": []})),
        Err(server::puzzles::JudgeError::Illegal(_)) | Err(server::puzzles::JudgeError::Unreadable(..))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_serves_judges_and_rates_puzzles() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest("Solver").await;
    let c = &srv.client;

    // The puzzle of the day, the same twice; a position as a table draws it.
    let (status, daily) = c.get("/api/puzzles/madiao/daily").await.unwrap();
    assert_eq!(status, 200, "{daily}");
    let (_, again) = c.get("/api/puzzles/madiao/daily").await.unwrap();
    assert_eq!(daily["id"], again["id"]);
    assert_eq!(daily["view"]["seat"], daily["seat"]);
    assert_eq!(daily["legal"]["kind"], "actions");
    assert!(!daily["choices"].as_array().unwrap().is_empty());

    // By place and by id.
    let (status, first) = c.get("/api/puzzles/dabaifen?index=0").await.unwrap();
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["index"], 0);
    let id = first["id"].as_str().unwrap().to_string();
    let (status, by_id) = c.get(&format!("/api/puzzles/dabaifen/id/{id}")).await.unwrap();
    assert_eq!((status, &by_id["id"]), (200, &first["id"]));
    let (status, body) = c.get("/api/puzzles/dabaifen/id/nope").await.unwrap();
    assert_eq!((status, body["error"]["code"].as_str()), (404, Some("no_puzzle")), "{body}");
    let (status, body) = c.get("/api/puzzles/chess/daily").await.unwrap();
    assert_eq!(status, 400, "{body}");
    let (status, _) = c.get("/api/puzzles/dabaifen?index=100000").await.unwrap();
    assert_eq!(status, 404);

    // A right answer, rated: the player's rating rises and the puzzle's falls.
    let f = dabaifen_file();
    let p = f.puzzles.iter().find(|p| p.id == id).unwrap();
    let answer = serde_json::to_value(p.answers[0]).unwrap();
    let path = format!("/api/puzzles/dabaifen/id/{id}/attempt");
    let (status, r) = c.post(&path, &json!({ "action": answer }), Some(&g.token)).await.unwrap();
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["verdict"]["right"], true);
    assert!(!r["verdict"]["line"].as_array().unwrap().is_empty());
    let change = &r["rating"];
    assert!(change["after"].as_f64().unwrap() > change["before"].as_f64().unwrap(), "{change}");
    assert!(change["puzzle_after"].as_f64().unwrap() < change["puzzle_before"].as_f64().unwrap());
    let (want, _) = server::puzzles::rate(
        server::puzzles::new_player(),
        server::puzzles::initial_rating(p.difficulty),
        true,
    )
    .unwrap();
    assert!((change["after"].as_f64().unwrap() - want.rating).abs() < 1e-6);

    // A second attempt at it is judged, not rated.
    let wrong = serde_json::to_value(p.moves[1].action).unwrap();
    let (_, r2) = c.post(&path, &json!({ "action": wrong }), Some(&g.token)).await.unwrap();
    assert_eq!(r2["verdict"]["right"], false);
    assert!(r2["verdict"]["mistake"]["zh"].as_str().is_some_and(|s| !s.is_empty()));
    assert_eq!(r2["rating"], Value::Null);
    let (_, me) = c.get_authed(&g.token, "/api/puzzles/dabaifen/me").await.unwrap();
    assert_eq!((me["attempts"].as_u64(), me["solved"].as_u64()), (Some(1), Some(1)), "{me}");
    assert!((me["rating"].as_f64().unwrap() - want.rating).abs() < 1e-6);
    // The puzzle's rating is served with its position.
    let (_, shown) = c.get(&format!("/api/puzzles/dabaifen/id/{id}")).await.unwrap();
    assert!((shown["rating"].as_f64().unwrap() - change["puzzle_after"].as_f64().unwrap()).abs() < 1e-6);

    // Without a token: judged, never rated; an illegal or unreadable action is a 400.
    let (status, r3) = c.post(&path, &json!({ "action": answer }), None).await.unwrap();
    assert_eq!((status, &r3["rating"]), (200, &Value::Null));
    let (status, bad) = c.post(&path, &json!({ "action": { "play": ["ZZ"] } }), None).await.unwrap();
    assert_eq!(status, 400, "{bad}");
    let (status, bad) = c.post(&path, &json!({ "nothing": 1 }), None).await.unwrap();
    assert_eq!(status, 400, "{bad}");

    // The next puzzle is one not tried yet; it needs a token.
    let (status, next) = c.get_authed(&g.token, "/api/puzzles/dabaifen/next").await.unwrap();
    assert_eq!(status, 200, "{next}");
    assert_ne!(next["id"].as_str(), Some(id.as_str()));
    let (status, _) = c.get("/api/puzzles/dabaifen/next").await.unwrap();
    assert_eq!(status, 401);
    srv.task.abort();
}

/// The shipped burial puzzles (Da Bai Fen, `burial` set).
fn burials(f: &DabaifenFile) -> Vec<&puzzle::DabaifenPuzzle> {
    f.puzzles.iter().filter(|p| p.burial.is_some()).collect()
}

/// A burial as the engine's action.
fn bury_of(cards: &[dabaifen::Card]) -> dabaifen::Action {
    dabaifen::Action::Bury(cards.iter().copied().collect())
}

#[test]
fn the_shipped_burial_puzzles_split_the_burials_by_the_margins() {
    let f = dabaifen_file();
    let b = burials(&f);
    assert!(b.len() >= 60, "{} burial puzzles", b.len());
    for p in &b {
        let rule = p.burial.as_ref().unwrap();
        assert_eq!(p.themes, vec![Theme::Burial], "{}", p.id);
        assert!(rule.small <= puzzle::BURIAL_SMALL + 1e-9 && rule.wide >= puzzle::BURIAL_WIDE - 1e-9);
        assert_eq!(rule.worlds, puzzle::BURIAL_WORLDS);
        // Confirmed in other worlds than its own: the best burial that follows the rule led the
        // best one that breaks it there by the confirmation's margin.
        let c = rule.confirm.as_ref().unwrap_or_else(|| panic!("{}: the rule is confirmed", p.id));
        assert_eq!(c.seed, puzzle::confirm_seed(rule.seed), "{}", p.id);
        assert_ne!(c.seed, rule.seed, "{}", p.id);
        assert_eq!(c.worlds, puzzle::CONFIRM_WORLDS, "{}", p.id);
        assert!(c.margin >= puzzle::CONFIRM_LEAD - 1e-9 && c.lead >= c.margin - 1e-9, "{}: {}", p.id, c.lead);
        // The data agree with the rule: the best listed burial and every answer follow it; every
        // listed burial that follows it is within the small margin of the best, every one that
        // breaks it is worse by the wide margin.
        let best = p.moves[0].expected;
        for m in &p.moves {
            let dabaifen::Action::Bury(set) = m.action else { panic!("{}: {} is no burial", p.id, m.action) };
            if rule.admits(set) {
                assert!(m.expected >= best - rule.small - 1e-3, "{}: {} follows the rule", p.id, m.action);
            } else {
                assert!(m.expected <= best - rule.wide + 1e-3, "{}: {} breaks the rule", p.id, m.action);
            }
        }
        assert!(
            p.answers.iter().all(|a| matches!(a, dabaifen::Action::Bury(s) if rule.admits(*s))),
            "{}",
            p.id
        );
        assert!(p.moves.iter().any(|m| matches!(m.action, dabaifen::Action::Bury(s) if !rule.admits(s))));
        assert!(p.expected_gap >= rule.wide - 1e-9, "{}: gap {}", p.id, p.expected_gap);
        assert!(!p.line.is_empty() && (1..=5).contains(&p.difficulty));
    }
    // Every one replays to the starter's burial, the one of a deal where nobody declared (its
    // record has no action) included.
    for p in &b {
        let st = puzzle::dabaifen_position(&p.hand, &f.rules).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(st.phase(), dabaifen::Phase::Burying, "{}", p.id);
        assert_eq!(st.to_move(), Some(p.seat), "{}", p.id);
    }
    assert!(b.iter().any(|p| p.hand.actions.is_empty()), "a burial puzzle without a declaration");
    // A sample valued again from the data alone: the same rule, the same split.
    for i in every(b.len(), b.len() / 3) {
        let p = b[i];
        let c = puzzle::check_dabaifen(p, &f.rules).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.face_up_gap >= puzzle::BURIAL_WIDE - 1e-9, "{}: {}", p.id, c.face_up_gap);
        assert!(
            (c.face_up_gap - p.expected_gap).abs() < 1e-6,
            "{}: {} vs {}",
            p.id,
            c.face_up_gap,
            p.expected_gap
        );
        assert!(c.moves > 40, "{}: the family holds the one-card changes ({})", p.id, c.moves);
    }
}

#[test]
fn the_burial_generator_is_seeded_and_a_tampered_burial_puzzle_is_refused() {
    let f = dabaifen_file();
    let shipped = burials(&f);
    // The first burial puzzle of seed 27, made again, is the shipped one.
    let opts = MakeOptions {
        seed: f.made.seed,
        count: 0,
        max_deals: 400,
        rules: f.rules.clone(),
        bot: "heuristic".into(),
        records: Vec::new(),
        burials: 1,
    };
    let made = puzzle::make_dabaifen(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(made.puzzles.len(), 1);
    let p = &made.puzzles[0];
    let same = shipped.iter().find(|s| s.id == p.id).unwrap_or_else(|| panic!("{} is shipped", p.id));
    assert_eq!(*same, p);
    assert!(made.made.burials_examined >= 1 && made.made.burials == 1);
    // A rule that keeps a must-bury card instead of a must-keep one is refused.
    let rule = p.burial.clone().unwrap();
    let mut t = p.clone();
    let r = t.burial.as_mut().unwrap();
    let (a, b) = (r.must_bury[0], r.must_keep[0]);
    r.must_bury[0] = b;
    r.must_keep[0] = a;
    let e = puzzle::check_dabaifen(&t, &f.rules).unwrap_err().to_string();
    assert!(e.contains("follows the rule") || e.contains("differs"), "{e}");
    // An answer that breaks the rule is refused.
    let mut t = p.clone();
    let mut wrong = rule.must_bury.clone();
    wrong[0] = rule.must_keep[0];
    t.answers = vec![bury_of(&wrong)];
    let e = puzzle::check_dabaifen(&t, &f.rules).unwrap_err().to_string();
    assert!(e.contains("follows the rule"), "{e}");
    // Looser margins than the generator's are refused.
    let mut t = p.clone();
    t.burial.as_mut().unwrap().wide = 0.01;
    assert!(puzzle::check_dabaifen(&t, &f.rules).unwrap_err().to_string().contains("looser"));
    // A rule never confirmed in other worlds (as the generator made them before) is refused, and
    // so is one "confirmed" in its own worlds, in fewer worlds, by a smaller margin, with a lead
    // other than the one measured, or in more worlds than the check values (a clear refusal).
    let mut t = p.clone();
    t.burial.as_mut().unwrap().confirm = None;
    let e = puzzle::check_dabaifen(&t, &f.rules).unwrap_err().to_string();
    assert!(e.contains("never confirmed"), "{e}");
    type Tamper = fn(&mut puzzle::BurialRule);
    let tampers: [(Tamper, &str); 5] = [
        (|r| r.confirm.as_mut().unwrap().seed = r.seed, "same worlds"),
        (|r| r.confirm.as_mut().unwrap().worlds = puzzle::CONFIRM_WORLDS / 2, "looser"),
        (|r| r.confirm.as_mut().unwrap().margin = 0.0, "looser"),
        (|r| r.confirm.as_mut().unwrap().lead += 0.01, "not the file's"),
        (|r| r.confirm.as_mut().unwrap().worlds = u32::MAX, "more than the check values"),
    ];
    for (tamper, says) in tampers {
        let mut t = p.clone();
        tamper(t.burial.as_mut().unwrap());
        let e = puzzle::check_dabaifen(&t, &f.rules).unwrap_err().to_string();
        assert!(e.contains(says), "{e}");
    }
}

#[test]
fn a_burial_is_judged_by_its_rule() {
    let set = server::puzzles::set(GameKind::Dabaifen);
    let f = dabaifen_file();
    let p = burials(&f)[0];
    let rule = p.burial.as_ref().unwrap();
    let i = set.get(&p.id).unwrap();
    let shown = set.show(i).unwrap();
    assert!(shown.choices.is_empty() && shown.themes == ["burial"]);
    assert_eq!(serde_json::to_value(&shown.legal).unwrap()["action"], "bury");
    for a in &p.answers {
        let v = set.judge(i, &serde_json::to_value(a).unwrap()).unwrap();
        assert!(v.right && v.mistake.is_none(), "{a}");
        assert!(v.reason.en.contains("The rule: bury") && v.reason.zh.contains("要点"), "{}", v.reason.en);
    }
    // A listed burial that breaks the rule: wrong, with what it costs on average.
    let m =
        p.moves.iter().find(|m| matches!(m.action, dabaifen::Action::Bury(s) if !rule.admits(s))).unwrap();
    let v = set.judge(i, &serde_json::to_value(m.action).unwrap()).unwrap();
    assert!(!v.right);
    let loss = v.loss.unwrap();
    assert!((loss - (p.moves[0].expected - m.expected)).abs() < 0.01 && loss >= rule.wide - 0.01, "{loss}");
    let mistake = v.mistake.unwrap();
    assert!(mistake.en.contains("breaks the rule") && mistake.zh.contains("违反要点"), "{}", mistake.en);
    // The cards are named as the hints name them, never in the engine's notation (`QS`).
    let engine_code = |t: &str| {
        t.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.len() == 2 && "23456789TJQKA".contains(&w[..1]) && "SHDC".contains(&w[1..]))
    };
    for t in [&v.reason.en, &v.reason.zh, &mistake.en, &mistake.zh] {
        assert!(!engine_code(t), "a card in the engine's notation: {t}");
    }
    assert!(["♠", "♥", "♦", "♣", "joker"].iter().any(|s| mistake.en.contains(s)), "{}", mistake.en);
    assert!(["黑桃", "红桃", "方块", "梅花", "王"].iter().any(|s| mistake.zh.contains(s)), "{}", mistake.zh);
    // An unlisted burial that breaks the rule: wrong, and it says which card.
    let mut cards = rule.must_bury.clone();
    cards[0] = rule.must_keep[0];
    let v = set.judge(i, &serde_json::to_value(bury_of(&cards)).unwrap()).unwrap();
    assert!(!v.right);
    assert!(
        v.mistake
            .unwrap()
            .en
            .contains(&format!("it buries {}", ai::dabaifen::hint::db_en(rule.must_keep[0])))
    );
    // Five cards, or a card not held: illegal.
    let five = serde_json::to_value(bury_of(&rule.must_bury[..5])).unwrap();
    assert!(matches!(set.judge(i, &five), Err(server::puzzles::JudgeError::Illegal(_))));
    let held: Vec<dabaifen::Card> = rule.must_bury.iter().chain(&rule.must_keep).copied().collect();
    let other = dabaifen::Card::all().find(|c| !held.contains(c)).unwrap();
    let mut cards = rule.must_bury.clone();
    cards[0] = other;
    let v = set.judge(i, &serde_json::to_value(bury_of(&cards)).unwrap());
    assert!(matches!(v, Err(server::puzzles::JudgeError::Illegal(_))), "{v:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_judges_and_rates_a_burial() {
    let srv = TestServer::start(fast()).await;
    let g = srv.guest("Burier").await;
    let c = &srv.client;
    let f = dabaifen_file();
    let p = burials(&f)[1];
    let (status, shown) = c.get(&format!("/api/puzzles/dabaifen/id/{}", p.id)).await.unwrap();
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["view"]["phase"], "burying");
    assert_eq!(shown["view"]["hand"].as_array().unwrap().len(), 18);
    assert_eq!(shown["legal"]["action"], "bury");
    let path = format!("/api/puzzles/dabaifen/id/{}/attempt", p.id);
    let right = serde_json::to_value(p.answers[0]).unwrap();
    let (status, r) = c.post(&path, &json!({ "action": right }), Some(&g.token)).await.unwrap();
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["verdict"]["right"], true);
    assert!(r["rating"]["after"].as_f64().unwrap() > r["rating"]["before"].as_f64().unwrap(), "{r}");
    let rule = p.burial.as_ref().unwrap();
    let wrong =
        p.moves.iter().find(|m| matches!(m.action, dabaifen::Action::Bury(s) if !rule.admits(s))).unwrap();
    let (status, r) =
        c.post(&path, &json!({ "action": serde_json::to_value(wrong.action).unwrap() }), None).await.unwrap();
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["verdict"]["right"], false);
    assert_eq!(r["rating"], Value::Null);
    // A burial of five cards is refused.
    let five: Vec<String> = rule.must_bury[..5].iter().map(|c| c.to_string()).collect();
    let (status, bad) = c.post(&path, &json!({ "action": { "bury": five } }), None).await.unwrap();
    assert_eq!(status, 400, "{bad}");
    srv.task.abort();
}
