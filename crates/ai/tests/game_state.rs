//! Both engines driven through the one trait they share, [`cards::GameState`], by code that does
//! not know which game it plays: random legal play to the end of a hand, and illegal actions
//! refused with the engine's own typed error (never a string), the hand unchanged.

use std::fmt::Debug;

use cards::{GameState, Rng, Seat};

/// Plays `state` to its end, choosing uniformly among the legal actions. Before each choice it
/// tries every action that was legal one step earlier and is not legal now (a card just played,
/// an answer already given): each must be refused, leaving the hand as it was. Once the hand is
/// over, the last action is tried again. Returns the refusals, as the engine's error type, and the
/// number of actions applied.
fn playout<S>(mut state: S, rng: &mut Rng) -> (Vec<S::Error>, usize)
where
    S: GameState,
    S::Action: Copy + PartialEq + Debug,
    S::View: Debug,
{
    let mut refused = Vec::new();
    let mut applied = 0;
    let mut earlier: Vec<S::Action> = Vec::new();
    let mut last = None;
    while let Some(seat) = state.to_move() {
        let legal = state.legal_actions();
        assert!(!legal.is_empty(), "{seat} is to move with no legal action");
        for &a in earlier.iter().filter(|a| !legal.contains(a)) {
            let err = state.apply(a).expect_err("an action that is not legal now was applied");
            assert!(!err.to_string().is_empty(), "a refusal says why");
            assert_eq!(state.to_move(), Some(seat), "a refused {a:?} changed whose turn it is");
            assert_eq!(state.legal_actions(), legal, "a refused {a:?} changed the legal actions");
            refused.push(err);
        }
        for s in Seat::ALL {
            let _ = format!("{:?}", state.view(s));
        }
        let a = legal[rng.index(legal.len())];
        state.apply(a).unwrap_or_else(|e| panic!("legal {a:?} refused: {e}"));
        applied += 1;
        earlier = legal;
        last = Some(a);
    }
    assert!(state.legal_actions().is_empty(), "a finished hand has no legal action");
    let a = last.expect("a hand has at least one action");
    refused.push(state.apply(a).expect_err("an action was applied to a finished hand"));
    (refused, applied)
}

#[test]
fn madiao_hands_play_through_the_trait() {
    let mut rng = Rng::from_seed(12);
    let mut mid_hand = 0;
    for k in 0..20 {
        let setup = madiao::HandSetup::new(Seat::new((k % 4) as u8).unwrap(), madiao::deck_from_seed(12, k));
        let state = madiao::State::new(setup).unwrap();
        // The error type is the engine's own: this binding does not compile if it is anything else.
        let (refused, applied): (Vec<madiao::IllegalAction>, usize) = playout(state, &mut rng);
        assert!(applied > 0);
        assert_eq!(refused.last(), Some(&madiao::IllegalAction::HandOver));
        mid_hand += refused.len() - 1;
    }
    assert!(mid_hand > 0, "no illegal action was tried during play");
}

#[test]
fn dabaifen_deals_play_through_the_trait() {
    let mut rng = Rng::from_seed(12);
    let mut mid_hand = 0;
    for k in 0..20 {
        let deck = dabaifen::deck_from_seed(12, k);
        let setup =
            dabaifen::HandSetup::first(deck, Seat::new((k % 4) as u8).unwrap(), dabaifen::Variants::STANDARD);
        let state = dabaifen::State::new(&setup).unwrap();
        let (refused, applied): (Vec<dabaifen::IllegalAction>, usize) = playout(state, &mut rng);
        assert!(applied > 0);
        assert_eq!(refused.last(), Some(&dabaifen::IllegalAction::DealOver));
        mid_hand += refused.len() - 1;
    }
    assert!(mid_hand > 0, "no illegal action was tried during play");
}
