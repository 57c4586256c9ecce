//! Typed views end to end: for random hands of both games (the engines' seeded random playouts)
//! and every viewer (each seat, a spectator, through the draw, the windows, the play and after
//! the hand), the view a table sends reads back as the same typed view, writes again to the same
//! bytes, and a spectator's view has no seat and no hidden card.

use ai::{Dabaifen, Madiao};
use cards::{Seat, Viewer};
use table::game::{Overlay, TableGame};
use wire::GameView;

/// Every viewer of a table.
fn viewers() -> impl Iterator<Item = Viewer> {
    Seat::ALL.into_iter().map(Viewer::Seat).chain(std::iter::once(Viewer::Spectator))
}

/// Writes `view` as the wire does, reads it back, and checks it is the same view and the same
/// bytes; returns the JSON.
fn round_trip(view: &GameView) -> serde_json::Value {
    let text = serde_json::to_string(view).unwrap();
    let back: GameView = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(&back, view, "{text}");
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    // Through a `serde_json::Value` too (how a client that keeps the message whole reads it).
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let again: GameView = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(&again, view);
    value
}

fn madiao_check(state: &madiao::State, overlay: Overlay) -> usize {
    let mut checked = 0;
    for viewer in viewers() {
        let view = Madiao::table_view(state, viewer, overlay);
        let json = round_trip(&view);
        let GameView::Madiao(v) = &view else { panic!("a Madiao table gave {view:?}") };
        assert_eq!(v.seat, if let Viewer::Seat(s) = viewer { Some(s) } else { None });
        assert_eq!(json["seat"], serde_json::to_value(v.seat).unwrap());
        if !state.is_over() {
            // Nobody sees another seat's face-down card, nor a declined redeal.
            for p in v.tricks.iter().flat_map(|t| &t.plays) {
                if !p.face_up && viewer != Viewer::Seat(p.seat) {
                    assert_eq!(p.card, None, "{viewer:?} sees {p:?}");
                }
            }
            assert!(v.redeal_choices.iter().all(|c| c.redeal), "{viewer:?}: {:?}", v.redeal_choices);
        }
        if overlay.window {
            assert_eq!((v.to_move, v.legal_actions.len(), v.captures.len()), (None, 0, 0));
        }
        if viewer == Viewer::Spectator {
            assert!(json["seat"].is_null());
            assert!(v.hand.is_empty() && v.legal_actions.is_empty() && v.captures.is_empty());
        }
        checked += 1;
    }
    checked
}

#[test]
fn madiao_views_read_back_the_same_and_hide_what_they_must() {
    let sampler = madiao::random::Sampler::from(madiao::random::RandomPolicy::default());
    let mut checked = 0;
    let (mut over, mut settled, mut declared) = (0, 0, 0);
    for seed in 0..40u64 {
        let variants = if seed % 2 == 0 { madiao::Variants::STANDARD } else { madiao::Variants::FENG };
        let banker = Seat::ALL[(seed % 4) as usize];
        let setup =
            madiao::HandSetup { variants, ..madiao::HandSetup::new(banker, madiao::deck_from_seed(seed, 0)) };
        let mut st = madiao::State::new(setup).unwrap();
        let mut rng = madiao::deal::policy_rng(seed, 0);
        // The redeal window is shown before the long-suit questions are answered.
        if st.phase() == madiao::Phase::Redeal {
            checked += madiao_check(&st, Overlay { drawn: None, window: true });
        }
        loop {
            checked += madiao_check(&st, Overlay::default());
            match sampler.choose(&st, &mut rng) {
                Some(a) => st.apply(a).unwrap(),
                None => break,
            }
        }
        assert!(st.is_over());
        over += 1;
        if let GameView::Madiao(v) = Madiao::table_view(&st, Viewer::Spectator, Overlay::default()) {
            settled += usize::from(v.settlement.as_ref().is_some_and(|s| !s.lines.is_empty()));
            declared += usize::from(!v.declared.is_empty());
        }
    }
    assert_eq!(over, 40);
    // Both the played hands' settlements and the cards shown before play were read back.
    assert!(settled > 10 && declared > 0, "{settled} settled, {declared} declared");
    assert!(checked > 40 * 5 * 25, "{checked}");
}

fn dabaifen_check(state: &dabaifen::State, overlay: Overlay) -> usize {
    let mut checked = 0;
    for viewer in viewers() {
        let view = Dabaifen::table_view(state, viewer, overlay);
        let json = round_trip(&view);
        let GameView::Dabaifen(v) = &view else { panic!("a Da Bai Fen table gave {view:?}") };
        assert_eq!(v.seat, if let Viewer::Seat(s) = viewer { Some(s) } else { None });
        // Polls are never shown.
        if matches!(v.phase, dabaifen::Phase::Drawing | dabaifen::Phase::Annulling) {
            assert_eq!(v.to_move, None, "{viewer:?}");
        }
        if let Some(d) = overlay.drawn {
            assert_eq!(v.drawn, d);
            assert!(v.declaration.is_none() && v.trump.is_none());
        }
        let over = v.phase == dabaifen::Phase::Over;
        match viewer {
            Viewer::Spectator => {
                assert!(json["seat"].is_null());
                assert!(v.hand.is_empty() && v.kitty.is_none());
                if !over {
                    assert!(v.buried.is_none());
                }
            }
            Viewer::Seat(s) => {
                if s != state.starter() {
                    assert!(v.kitty.is_none());
                    if !over {
                        assert!(v.buried.is_none());
                    }
                }
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn dabaifen_views_read_back_the_same_and_hide_what_they_must() {
    use dabaifen::random::RandomPolicy;
    let mut checked = 0;
    let mut over = 0;
    for seed in 0..30u64 {
        let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, Seat::ALL[(seed % 4) as usize]);
        let (deck, rng) = dabaifen::deal_from_seed(seed, 0);
        let mut st = dabaifen::State::new(&m.setup(deck)).unwrap();
        let mut policy = RandomPolicy::new(rng);
        // The draw as the table deals it, a card a tick, before the engine has decided anything.
        for d in (0..=48).step_by(7) {
            checked += dabaifen_check(&st, Overlay { drawn: Some(d), window: false });
        }
        let mut window_shown = false;
        while st.to_move().is_some() {
            checked += dabaifen_check(&st, Overlay::default());
            if !window_shown && Dabaifen::next(&st).at_window() {
                checked += dabaifen_check(&st, Overlay { drawn: None, window: true });
                window_shown = true;
            }
            let a = policy.choose(&st);
            st.apply(a).unwrap();
        }
        checked += dabaifen_check(&st, Overlay::default());
        over += usize::from(st.phase() == dabaifen::Phase::Over);
    }
    assert_eq!(over, 30);
    assert!(checked > 30 * 5 * 20, "{checked}");
}

/// The fields of a view's JSON, in the order written.
fn keys(j: &serde_json::Value) -> Vec<&str> {
    j.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default()
}

/// The views are written with the fields the browser page reads (`docs/protocol.md`, VIEW), each
/// always present, `null` when empty.
#[test]
fn views_keep_their_wire_fields() {
    let md = madiao::State::new(madiao::HandSetup::new(Seat::ALL[3], madiao::deck_from_seed(9, 0))).unwrap();
    let j = serde_json::to_value(Madiao::table_view(&md, Viewer::Spectator, Overlay::default())).unwrap();
    let mut k = keys(&j);
    k.sort_unstable();
    let mut want = vec![
        "seat",
        "banker",
        "stake",
        "variants",
        "first_recipient",
        "upcard",
        "phase",
        "to_move",
        "hand",
        "hand_sizes",
        "redeal_choices",
        "tricks",
        "tricks_won",
        "legal_actions",
        "captures",
        "declared",
        "exposed_stock_card",
        "result",
        "settlement",
    ];
    want.sort_unstable();
    assert_eq!(k, want);
    assert!(j["seat"].is_null());
    let (deck, _) = dabaifen::deal_from_seed(9, 0);
    let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, Seat::ALL[0]);
    let db = dabaifen::State::new(&m.setup(deck)).unwrap();
    let j = serde_json::to_value(Dabaifen::table_view(&db, Viewer::Seat(Seat::ALL[1]), Overlay::default()))
        .unwrap();
    let mut k = keys(&j);
    k.sort_unstable();
    let mut want = vec![
        "seat",
        "phase",
        "to_move",
        "variants",
        "first_deal",
        "open",
        "ranks",
        "provisional_starter",
        "starter",
        "first_drawer",
        "drawn",
        "hand",
        "hand_sizes",
        "declaration",
        "kitty_turn",
        "kitty_turned",
        "trump",
        "annulment",
        "kitty",
        "buried",
        "tricks",
        "team_points",
        "revoke",
        "result",
        "account",
    ];
    want.sort_unstable();
    assert_eq!(k, want);
    assert_eq!(j["seat"], 1);
}

/// A view of one game is never read as the other's, and a view that is not one is an error.
#[test]
fn views_are_read_as_their_own_game_or_refused() {
    let md = madiao::State::new(madiao::HandSetup::new(Seat::ALL[0], madiao::deck_from_seed(5, 0))).unwrap();
    let v: GameView = md.view_for(Viewer::Spectator).into();
    let back: GameView = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
    assert_eq!(back.game(), cards::record::GameKind::Madiao);
    let (deck, _) = dabaifen::deal_from_seed(5, 0);
    let m = dabaifen::Match::new(dabaifen::Variants::STANDARD, Seat::ALL[1]);
    let db = dabaifen::State::new(&m.setup(deck)).unwrap();
    let v: GameView = db.view(Seat::ALL[2]).into();
    let back: GameView = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
    assert_eq!(back.game(), cards::record::GameKind::Dabaifen);
    assert_eq!(back.seat(), Some(Seat::ALL[2]));
    for bad in [r#"{"seat": 9}"#, r#"{}"#, "[1, 2]", r#""view""#] {
        assert!(serde_json::from_str::<GameView>(bad).is_err(), "{bad}");
    }
    // A view with a variant of an unknown value is refused.
    let mut j = serde_json::to_value(md.view(Seat::ALL[0])).unwrap();
    j["variants"]["faceup_discard"] = "whatever".into();
    assert!(serde_json::from_value::<GameView>(j).is_err());
}
