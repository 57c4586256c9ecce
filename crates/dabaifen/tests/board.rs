//! A duplicate board's match (`docs/dabaifen.md`, "Duplicate boards"), through the public API.

use dabaifen::random::RandomPolicy;
use dabaifen::variants::Variants;
use dabaifen::{BoardStart, Match, Outcome, State, deal_from_seed};

/// A board's match deals a later deal with the board's starter and ranks, goes on after an
/// annulled deal with an open one, and is over after its first deal that is not annulled.
#[test]
fn a_boards_match_is_one_deal_from_the_boards_start() {
    let (mut annulled, mut played) = (0, 0);
    for seed in 0..1500u64 {
        let start = BoardStart::of_board(seed as u32);
        let mut m = Match::board(Variants::STANDARD, start);
        let first = m.setup(deal_from_seed(seed, 0).0);
        assert_eq!(
            (first.starter, first.ranks, first.first_deal, first.open),
            (start.starter, [start.rank; 2], false, false)
        );
        let mut deal = 0;
        while !m.is_over() {
            let (deck, rng) = deal_from_seed(seed, deal);
            let mut st = State::new(&m.setup(deck)).unwrap();
            let mut policy = RandomPolicy::new(rng);
            while st.to_move().is_some() {
                let a = policy.choose(&st);
                st.apply(a).unwrap();
            }
            let r = st.result().unwrap().clone();
            m.record(&r);
            if r.outcome == Outcome::Annulled {
                annulled += 1;
                assert!(!m.is_over() && m.is_open(), "an annulled deal does not count");
            } else {
                played += 1;
                assert!(m.is_over(), "a played deal ends the board");
            }
            deal += 1;
            assert!(deal < 50);
        }
        assert_eq!(m.deals(), deal as u32);
    }
    assert_eq!(played, 1500);
    assert!(annulled > 0, "some board saw an annulment (the random policy annuls half the time)");
}
