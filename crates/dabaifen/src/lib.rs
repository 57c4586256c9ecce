//! Da Bai Fen (打百分, "fight for 100 points"): a pure rules engine.
//!
//! The rules are those of the project's `docs/rules/dabaifen.md` (sections cited as §n in the
//! code), with every variant of its §11 ([`Variants`]) and every clarification of its §12.
//!
//! The shape: an unvalidated [`HandSetup`] becomes a [`State`] with [`State::new`]; one
//! [`Action`] type is the only way to change it ([`State::apply`] checks, [`State::apply_unchecked`]
//! does not); [`State::for_each_legal_action`] enumerates without allocating; [`State::view`] is
//! what one seat may know; [`State::result`] and [`State::settlement`] score and explain the deal;
//! a [`Match`] chains deals; [`record`] reads, replays and writes `yezi/1` records; [`random`] is
//! the random policy and the allocation-free playout used by `yezi sim` and `yezi bench`.
//!
//! ```
//! use dabaifen::{Action, Match, Phase, State, Variants, deal_from_seed};
//! use dabaifen::random::RandomPolicy;
//!
//! // The first deal of a match: provisional starter 0, the deck of deal 0 of seed 42.
//! let m = Match::new(Variants::STANDARD, cards::Seat::ALL[0]);
//! let (deck, rng) = deal_from_seed(42, 0);
//! let mut st = State::new(&m.setup(deck)).unwrap();
//! assert_eq!(st.phase(), Phase::Drawing);
//! // A polled seat may pass or show a trump-rank card it has drawn.
//! assert_eq!(st.legal_actions()[0], Action::Pass);
//! let mut policy = RandomPolicy::new(rng);
//! while st.to_move().is_some() {
//!     let a = policy.choose(&st);
//!     st.apply(a).unwrap();
//! }
//! let result = st.result().unwrap();
//! println!("{}", st.settlement()); // the deal in words, trick by trick
//! assert!(result.defender_points.is_some() || result.winner.is_none());
//! ```

pub mod account;
pub mod card;
mod format;
pub mod game;
pub mod legal;
pub mod pick;
pub mod random;
pub mod record;
pub mod score;
pub mod setup;
pub mod state;
pub mod track;
pub mod trump;
pub mod variants;
pub mod view;

pub use account::{Event, Settlement, StarterReason};
pub use card::{Card, Cards, Rank, Suit, UnknownCard};
pub use game::Match;
pub use legal::{LeadGroup, LegalSummary};
pub use pick::{PickOptions, pick_options_among};
pub use score::{DealResult, Outcome, game_points};
pub use setup::{BoardStart, FirstDraw, HandSetup, SetupError, deal_from_seed, deck_from_seed, first_draw};
pub use state::{Action, Declaration, IllegalAction, KittyTurn, Phase, State, Trick};
pub use track::Tracker;
pub use trump::{EffSuit, Tables, Trump};
pub use variants::{Annul, FirstDrawer, GameEnd, KittyMultiplier, Revoke, VariantError, Variants};
pub use view::View;

/// TypeScript declarations of the types with a hand-written serde form (feature `ts`).
/// The engine as the common [`cards::GameState`]: the inherent methods of [`State`], with
/// [`IllegalAction`] as the typed error.
impl cards::GameState for State {
    type Action = Action;
    type View = View;
    type Error = IllegalAction;

    fn to_move(&self) -> Option<cards::Seat> {
        State::to_move(self)
    }
    fn legal_actions(&self) -> Vec<Action> {
        State::legal_actions(self)
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        State::apply(self, action)
    }
    fn view(&self, seat: cards::Seat) -> View {
        State::view(self, seat)
    }
}

#[cfg(feature = "ts")]
mod ts {
    use cards::{ts_named, ts_union};

    ts_named!(
        crate::Card,
        "DabaifenCard",
        ts_union(crate::Card::all().map(|c| c.to_string()).collect::<Vec<_>>().iter().map(String::as_str))
    );
    ts_named!(
        crate::Rank,
        "DabaifenRank",
        ts_union(
            crate::Rank::ALL
                .iter()
                .map(|r| r.letter().to_string())
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
        )
    );
    ts_named!(crate::Variants, "DabaifenVariants", crate::variants::ts_type());
    ts_named!(
        crate::Action,
        "DabaifenAction",
        "{ \"pass\": true } | { \"declare\": DabaifenCard } | { \"annul\": true } | { \"bury\": Array<DabaifenCard> } | { \"play\": Array<DabaifenCard> }"
            .to_string()
    );
}
