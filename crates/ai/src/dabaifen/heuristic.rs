//! `heuristic`: the rules of [`super::policy`] played from a seat's view.

use dabaifen::{Action, Cards, KittyMultiplier, Phase, Tables, View};

use super::know::{KITTY, Knowledge};
use super::policy::{self, BuryStyle, Ctx};
use super::pos::{TRUMPS, bits};
use super::solver::pts;
use crate::{Bot, Dabaifen};

/// The rule-based bot (deterministic: it has no use for its seed).
#[derive(Clone, Debug, Default)]
pub struct HeuristicBot;

impl HeuristicBot {
    /// A heuristic bot.
    pub fn new() -> HeuristicBot {
        HeuristicBot
    }
}

/// A set of cards from a view's list.
pub fn mask(cards: &[dabaifen::Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | 1u64 << c.number())
}

/// The trick in progress in a view: leader, plays by seat, count, size and suit.
pub fn current_trick(view: &View, t: &Tables) -> (u8, [u64; 4], u8, u8, u8) {
    let mut plays = [0u64; 4];
    let Some(tr) = view.tricks.last() else { return (view.starter.number(), plays, 0, 0, 0) };
    if tr.winner.is_some() {
        // A complete trick with no next one: the deal is over.
        return (tr.winner.map_or(0, |w| w.number()), plays, 0, 0, 0);
    }
    for p in &tr.plays {
        plays[p.seat.index()] = mask(&p.cards);
    }
    let (size, suit) = match tr.plays.first() {
        Some(lead) => {
            let m = mask(&lead.cards);
            (m.count_ones() as u8, t.eff[m.trailing_zeros() as usize])
        }
        None => (0, 0),
    };
    (tr.leader.number(), plays, tr.plays.len() as u8, size, suit)
}

/// The play context of a view's seat.
pub fn ctx_from_view(view: &View, k: &Knowledge) -> Ctx {
    let t = k.t;
    let (leader, plays, count, size, suit) = current_trick(view, t);
    let mut maybe = [0u64; 4];
    for (s, m) in maybe.iter_mut().enumerate() {
        *m = if s == k.me as usize { k.hand } else { k.maybe(s) };
    }
    let lead_size = if count == 0 { k.hand.count_ones() } else { u32::from(size) };
    let mult = match view.variants.kitty_multiplier {
        KittyMultiplier::Double => 2,
        KittyMultiplier::PerCard => 2 * lead_size,
    };
    let kitty_points = match k.buried {
        Some(b) => pts(b),
        None => {
            // Expected points of the burial: the points of the cards that may be there, in
            // proportion.
            let m = k.maybe(KITTY);
            if m == 0 { 0 } else { pts(m) * 6 / m.count_ones().max(6) }
        }
    };
    Ctx {
        t,
        me: k.me,
        hand: k.hand,
        maybe,
        void: k.void,
        leader,
        count,
        size,
        suit,
        plays,
        defenders: 1 - view.starter.team(),
        bonus: mult * kitty_points,
    }
}

/// The burial style for a hand: unprotected points only with firm trump control (eight
/// trumps or more with a joker).
pub fn bury_style(t: &Tables, hand: u64) -> BuryStyle {
    let trumps = hand & t.suit_mask[TRUMPS];
    let strong = trumps.count_ones() >= 8 && trumps >> 52 != 0;
    BuryStyle { points: strong, ..BuryStyle::SAFE }
}

/// The heuristic's action for a view, or `None` when it has no rule for the phase (the caller
/// falls back to a legal action).
pub fn heuristic_action(view: &View, legal: &[Action]) -> Option<Action> {
    match view.phase {
        Phase::Drawing => {
            let declarable: Vec<dabaifen::Card> = legal
                .iter()
                .filter_map(|a| match a {
                    Action::Declare(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let hand = mask(&view.hand);
            let choice = policy::declare_choice(hand, &declarable, hand.count_ones(), view.drawn >= 40);
            Some(choice.map_or(Action::Pass, Action::Declare))
        }
        Phase::Annulling => {
            Some(if policy::annul_choice(mask(&view.hand)) { Action::Annul } else { Action::Pass })
        }
        Phase::Burying => {
            let t = Tables::of(view.trump?);
            let hand = mask(&view.hand);
            Some(Action::Bury(Cards::from_bits(policy::bury(t, hand, bury_style(t, hand)))))
        }
        Phase::Playing => {
            let k = Knowledge::from_view(view, legal)?;
            Some(Action::Play(Cards::from_bits(ctx_from_view(view, &k).choose())))
        }
        Phase::Over => None,
    }
}

/// `action` if it is legal, else the first legal single-card play or pass, else the first legal
/// action (never a revoke: a single card is never one).
pub fn legal_or_fallback(action: Option<Action>, legal: &[Action]) -> Action {
    if let Some(a) = action
        && legal.contains(&a)
    {
        return a;
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Pass) || matches!(a, Action::Play(s) if s.len() == 1))
        .unwrap_or(legal[0])
}

impl Bot<Dabaifen> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        legal_or_fallback(heuristic_action(view, legal), legal)
    }
}

/// The cards of a set, for debugging output.
pub fn show(set: u64) -> String {
    bits(set)
        .filter_map(|c| dabaifen::Card::from_number(c as u8))
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
