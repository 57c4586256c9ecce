//! The rules of Madiao (馬弔), the Ming-dynasty trick-taking game of 40 money-suited cards, a
//! banker against three — as the project's rules file `shared/rules/madiao.md` states them, with
//! every variant of its §8 table and every clarification of its §9.
//!
//! The crate is pure: no I/O, no threads. A hand goes from an unvalidated [`HandSetup`] to a
//! validated [`State`]; one [`Action`] type changes it ([`State::apply`] checks,
//! [`State::apply_unchecked`] is the fast path); [`State::view`] shows a seat what it may know;
//! [`State::settlement`] itemizes the money. A [`Match`] chains hands (§7); [`record`] reads,
//! checks, replays and writes `yezi/1` records; [`random`] plays random legal hands fast.
//!
//! ```
//! use madiao::{Action, HandSetup, State, deck_from_seed};
//! use cards::Seat;
//!
//! let deck = deck_from_seed(42, 0);
//! let mut state = State::new(HandSetup::new(Seat::new(0).unwrap(), deck)).unwrap();
//! while state.to_move().is_some() {
//!     // Decline any redeal; otherwise play the first legal action.
//!     let legal = state.legal_actions();
//!     let a = if legal.contains(&Action::Redeal(false)) { Action::Redeal(false) } else { legal[0] };
//!     state.apply(a).unwrap();
//! }
//! let result = state.to_record_result().unwrap();
//! assert_eq!(result.payoffs.0.iter().map(|h| h.0).sum::<i32>(), 0);
//! println!("{}", state.settlement().unwrap());
//! ```

pub mod card;
pub mod deal;
pub mod declare;
pub mod matches;
pub mod random;
pub mod record;
pub mod settle;
pub mod state;
pub mod variants;
pub mod view;

pub use card::{Card, CardSet, Suit, canonical_deck};
pub use deal::{BankerDraw, deck_from_hands, deck_from_seed, first_recipient};
pub use declare::{MeldKind, Melds};
pub use matches::{Match, MatchError};
pub use settle::{Item, Line, Settlement};
pub use state::{
    Action, ActionList, HandSetup, IllegalAction, MatchProgress, Phase, Play, PlayKind, SetupError, State,
};
pub use variants::{VariantError, Variants};
pub use view::View;
