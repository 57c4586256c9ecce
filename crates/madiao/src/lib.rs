//! The rules of Madiao (馬弔), the Ming-dynasty trick-taking game of 40 money-suited cards, a
//! banker against three — as the project's rules file `docs/rules/madiao.md` states them, with
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
//!
//! # Readings where the rules leave room
//! - A stake is a positive even number of chips (`0` is refused); payoffs are always in stakes.
//! - §4.1 `meld_extra_stake` adds 1 stake per payer once per holder, also under `cumulative`.
//! - §4.3 An explicit decline (`redeal: false`) must come from the seat being asked; a forced redeal
//!   (`redeal: true`) by a seat means every seat asked before it declined, and a play (or slough)
//!   declines every pending question (spec). Only a long-suit holder may force or decline.
//! - §6 The itemized lines come in the rules' order: stock check; hand values seat by seat from the
//!   banker in play order; knock; face-up discard penalties in play order. Under `largest_only` the
//!   lines that do not count are listed as "not counted"; of equal largest bonuses the first counts.
//! - §6.2 `each_plus_half` applies when exactly two seats (the banker included) share the most
//!   tricks and that most is 3 or more.
//! - §7 A meld won by the banker himself, a long-suit redeal and the +3 HM line keep the bank (the
//!   match goes on); the four lowest's redraw counts as the bank passing, whoever is drawn.
//!   `game_length: hands:N` counts every hand that is settled, melds and the four lowest included,
//!   but not a long-suit redeal: that is the same hand dealt again ("the banker stays", nobody
//!   pays), so with `hands:1` a forced redeal does not use up the match's only hand.
//! - Records: a record holds one match; a hand after the `game_over` hand is an error.
//! - [`View`]: a hidden card is `null`; how a card was played (lead, capture, slough, discard) is
//!   public. Once the hand is over every face-down card is shown, and in a played hand the stock card
//!   the stock check exposes; an unplayed hand shows only the declared cards (the meld, the four
//!   lowest, the forcing seat's long suit, and `TB` of an HM holder exempt from paying a meld).

pub mod account;
pub mod card;
pub mod deal;
pub mod declare;
pub mod figures;
mod format;
pub mod game;
pub mod random;
pub mod record;
pub mod stake;
pub mod state;
pub mod track;
pub mod variants;
pub mod view;

pub use account::{Item, Line, LineDetail, LineView, Settlement, SettlementView};
pub use card::{Card, Cards, Suit, canonical_deck};
pub use deal::{BankerDraw, deck_from_hands, deck_from_seed, first_recipient};
pub use declare::{MeldKind, Melds};
pub use figures::{Figure, Hero, ZeroCash, figure};
pub use game::{Match, MatchError};
pub use stake::{MAX_STAKE, StakeError, StakeLimits};
pub use state::{
    Action, ActionList, HandSetup, IllegalAction, MatchProgress, Phase, Play, PlayKind, SetupError, State,
};
pub use track::Tracker;
pub use variants::{VariantError, Variants};
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

    ts_named!(crate::ZeroCash, "ZeroCash", ts_union(crate::ZeroCash::ALL.iter().map(|z| z.name())));
    ts_named!(crate::Card, "MadiaoCard", ts_union(crate::card::ALL_CARDS.iter().rev().map(|c| c.code())));
    ts_named!(
        crate::Action,
        "MadiaoAction",
        "{ \"play\": MadiaoCard } | { \"slough\": MadiaoCard } | { \"redeal\": boolean }".to_string()
    );
    ts_named!(
        crate::Variants,
        "MadiaoVariants",
        format!(
            "{{ {} }}",
            crate::variants::VARIANT_NAMES
                .iter()
                .map(|n| format!("{n}: string"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
    ts_named!(
        crate::LineView,
        "SettlementLine",
        "{ seat: Seat, banker: Seat, item: string, counted: boolean, transfers: [number, number, number, number], text: string, detail: { card?: MadiaoCard, promoted?: boolean, tricks?: number, exposed?: MadiaoCard, second?: MadiaoCard, face_up?: boolean, trick?: number } }"
            .to_string()
    );
}
