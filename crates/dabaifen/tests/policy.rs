//! The random policy picks only legal actions under every variant and exercises every path.

use cards::Rng;
use dabaifen::random::{RandomPolicy, play_out, play_out_checked};
use dabaifen::setup::FIRST_DRAW_STREAM;
use dabaifen::{Action, Match, Outcome, State, Variants, deal_from_seed};

fn all_variants() -> Vec<Variants> {
    let mut out = Vec::new();
    for i in 0..32u8 {
        let mut v = Variants::STANDARD;
        for (bit, name, value) in [
            (1, "revoke", "refuse"),
            (2, "kitty_multiplier", "per_card"),
            (4, "first_drawer", "starter_right"),
            (8, "annul", "non_starters_only"),
            (16, "game_end", "win_as_declarers_at_ace"),
        ] {
            if i & bit != 0 {
                v.set(name, value).unwrap();
            }
        }
        out.push(v);
    }
    out
}

#[test]
fn the_policy_only_picks_legal_actions_under_every_variant() {
    for (i, v) in all_variants().into_iter().enumerate() {
        let seed = 1000 + i as u64;
        let mut m = Match::new(v, cards::Seat::ALL[i % 4]);
        for k in 0..120 {
            if m.is_over() {
                m = Match::from_draw(v, &mut Rng::from_seed_stream(seed, FIRST_DRAW_STREAM + k)).0;
            }
            let (deck, rng) = deal_from_seed(seed, k);
            let mut st = State::new(&m.setup(deck)).unwrap();
            let actions = play_out_checked(&mut st, &mut RandomPolicy::new(rng)).unwrap();
            let r = st.result().unwrap();
            if v.revoke == dabaifen::Revoke::Refuse {
                assert_ne!(r.outcome, Outcome::Revoke);
            }
            assert!(
                actions.iter().any(|(_, a)| matches!(a, Action::Play(_))) || r.outcome == Outcome::Annulled
            );
            m.record(r);
        }
    }
}

#[test]
fn the_policy_reaches_every_kind_of_event() {
    let v = Variants::STANDARD;
    let mut m = Match::new(v, cards::Seat::ALL[0]);
    let (mut declared, mut kitty, mut annulled, mut no_show, mut multi, mut revokes, mut games) =
        (0, 0, 0, 0, 0, 0, 0);
    for k in 0..6000u64 {
        if m.is_over() {
            games += 1;
            m = Match::from_draw(v, &mut Rng::from_seed_stream(7, FIRST_DRAW_STREAM + k)).0;
        }
        let (deck, rng) = deal_from_seed(7, k);
        let mut st = State::new(&m.setup(deck)).unwrap();
        play_out(&mut st, &mut RandomPolicy::new(rng));
        declared += st.declaration().is_some() as u32;
        kitty += st.kitty_turn().is_some() as u32;
        annulled += st.annulled_by().is_some() as u32;
        no_show += (st.is_open() && st.trump().is_none()) as u32;
        multi += st.tricks().iter().filter(|t| t.size > 1).count() as u32;
        revokes += st.revoke().is_some() as u32;
        m.record(st.result().unwrap());
    }
    for (name, n) in [
        ("declarations", declared),
        ("kitty turns", kitty),
        ("annulments", annulled),
        ("open deals without a showing", no_show),
        ("multi-card leads", multi),
        ("revokes", revokes),
        ("games", games),
    ] {
        assert!(n > 0, "no {name} in 6000 deals");
    }
    assert!(declared > kitty);
}
