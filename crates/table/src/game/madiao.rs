//! Madiao at a table: a match until every seat has banked, the redeal window at the start of
//! each hand, views that keep face-down cards and redeal questions hidden.
//!
//! The long-suit question (§4.3) is a poll: being asked tells that a seat holds five cards of a
//! suit. So every hand that is not settled at once by a meld or the four lowest begins with a
//! redeal window of the same length for everyone, during which a long-suit holder may ask to force
//! a redeal; when it closes, the server asks the holders in the rules' order and answers for each
//! (the person's request, or the bot's choice). Who declined is not shown until the hand is over.

use ::madiao::record::MadiaoResult;
use ::madiao::{
    Action, BankerDraw, IllegalAction, Match, Phase, PlayKind, StakeLimits, State, Variants, deck_from_seed,
};
use ai::Madiao;
use cards::Seat;
use cards::record;
use serde_json::Value;

use super::{
    Legal, Next, NotAllowed, Overlay, RecordError, RequestError, SettingsError, Stake, StakeAsk, TableGame,
    TooLate, Viewer,
};
use wire::{ActAction, GameView, HiddenAction, MatchSummary, PublicAction, RedealOutcome, WindowOutcome};

/// The rules of a Madiao table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadiaoSettings {
    /// The preset the variants override.
    pub rules: String,
    /// Every variant.
    pub variants: Variants,
    /// The stake limits (§2): the banker names each hand's stake within them.
    pub stakes: StakeLimits,
}

/// A Madiao match at a table.
#[derive(Clone, Debug)]
pub struct MadiaoMatch {
    /// The engine's match: next banker, who has banked, whether it is over.
    pub inner: Match,
    /// The stake of each finished hand, in order.
    pub stakes: Vec<u32>,
    /// Each seat's running total in chips: each hand's payoffs times its stake.
    pub chips: [f64; 4],
}

/// Madiao's stake (§2): the banker names it within the table's limits before each hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MadiaoStake;

impl Stake<Madiao> for MadiaoStake {
    /// §2 The banker names the stake before the shuffle, unless the limits are equal.
    fn ask(s: &MadiaoSettings, m: &MadiaoMatch, seed: u64, hand: u32) -> Option<StakeAsk> {
        if s.stakes.is_fixed() || m.inner.is_over() {
            return None;
        }
        let seat = m.inner.banker_or_draw(|| BankerDraw::from_seed(seed, u64::from(hand)));
        Some(StakeAsk { seat, low: s.stakes.low(), high: s.stakes.high() })
    }

    fn check(s: &MadiaoSettings, stake: u32) -> Result<u32, SettingsError> {
        Ok(s.stakes.check(stake)?)
    }

    /// The engine's policy ([`StakeLimits::bot_choice`]): by the bot's running total in chips.
    fn bot(s: &MadiaoSettings, m: &MadiaoMatch, seat: Seat, _ask: StakeAsk) -> u32 {
        s.stakes.bot_choice(m.chips[seat.index()])
    }
}

/// The largest stake a table may set.
pub const MAX_STAKE: u32 = ::madiao::MAX_STAKE;

impl TableGame for Madiao {
    type Settings = MadiaoSettings;
    type Match = MadiaoMatch;
    /// True when the person asked to force a redeal.
    type Request = bool;
    type HandResult = MadiaoResult;
    type Stake = MadiaoStake;

    const OPENS_WITH_DRAW: bool = false;

    fn settings(
        rules: &str,
        variants: &record::Variants,
        (low, high): (u32, u32),
    ) -> Result<MadiaoSettings, SettingsError> {
        let variants = Variants::preset(rules)?.with_overrides(variants)?;
        let stakes = StakeLimits::new(low, high)?;
        Ok(MadiaoSettings { rules: rules.to_string(), variants, stakes })
    }

    fn variant_map(s: &MadiaoSettings) -> serde_json::Map<String, Value> {
        s.variants.entries().map(|(k, v)| (k.to_string(), Value::String(v))).collect()
    }

    fn new_match(s: &MadiaoSettings, _seed: u64) -> MadiaoMatch {
        MadiaoMatch { inner: Match::new(s.variants), stakes: Vec::new(), chips: [0.0; 4] }
    }

    fn start_hand(
        s: &MadiaoSettings,
        m: &MadiaoMatch,
        seed: u64,
        hand: u32,
        stake: Option<u32>,
    ) -> Option<State> {
        if m.inner.is_over() {
            return None;
        }
        let k = u64::from(hand);
        let banker = m.inner.banker_or_draw(|| BankerDraw::from_seed(seed, k));
        let stake = s.stakes.check(stake.unwrap_or(s.stakes.low())).ok()?;
        let setup = m.inner.setup(banker, stake, deck_from_seed(seed, k)).ok()?;
        State::new(setup).ok()
    }

    fn finish_hand(m: &mut MadiaoMatch, state: &State) -> Option<MadiaoResult> {
        let r = m.inner.finish(state).ok()?;
        m.stakes.push(state.stake());
        for (c, x) in m.chips.iter_mut().zip(r.payoffs.0) {
            *c += x.to_f64() * f64::from(state.stake());
        }
        Some(r)
    }

    fn match_over(m: &MadiaoMatch) -> bool {
        m.inner.is_over()
    }

    fn match_summary(m: &MadiaoMatch, results: &[MadiaoResult]) -> MatchSummary {
        let mut totals = [0f64; 4];
        for r in results {
            for (t, x) in totals.iter_mut().zip(r.payoffs.0) {
                *t += x.to_f64();
            }
        }
        let progress = m.inner.progress();
        let summary = wire::MadiaoMatch {
            hands: results.len(),
            totals,
            stakes: m.stakes.clone(),
            chips: m.chips,
            banked: progress.banked.0,
            next_banker: m.inner.next_banker(),
            over: m.inner.is_over(),
        };
        MatchSummary::Madiao(summary)
    }

    /// The redeal window (§4.3) comes before the first lead, whether or not anyone is asked in
    /// it; a trick complete (§5) is kept on show before the next lead.
    fn next(state: &State) -> Next {
        let Some(seat) = state.to_move() else { return Next::Over };
        if state.phase() == Phase::Redeal {
            Next::Window { seat }
        } else if state.plays().next().is_none() {
            Next::Turn { seat, first: true }
        } else if state.cards_in_trick() == 0 {
            Next::TrickShown { seat }
        } else {
            Next::Turn { seat, first: false }
        }
    }

    fn request(
        state: &State,
        seat: Seat,
        overlay: Overlay,
        _current: bool,
        action: &Action,
    ) -> Result<bool, RequestError<IllegalAction>> {
        if !overlay.window {
            return Err(RequestError::TooLate(TooLate::RedealWindowClosed));
        }
        match action {
            Action::Redeal(true) => {
                if state.may_force_redeal(seat) {
                    Ok(true)
                } else if state.phase() == Phase::Redeal && state.long_suit_holders().any(|s| s == seat) {
                    Err(RequestError::Illegal(NotAllowed::AlreadyAnswered))
                } else {
                    Err(RequestError::Illegal(NotAllowed::NoLongSuit))
                }
            }
            Action::Redeal(false) => Ok(false),
            _ => Err(RequestError::Illegal(NotAllowed::RedealWindowOpen)),
        }
    }

    fn answer(_state: &State, request: bool) -> Action {
        Action::Redeal(request)
    }

    fn is_move(_state: &State, action: &Action) -> bool {
        !matches!(action, Action::Redeal(_))
    }

    fn is_request(action: &Action) -> bool {
        matches!(action, Action::Redeal(_))
    }

    fn window_outcome(state: &State) -> WindowOutcome {
        WindowOutcome::Redeal(RedealOutcome { redeal_forced_by: state.redeal_forced_by() })
    }

    fn table_view(state: &State, viewer: Viewer, overlay: Overlay) -> GameView {
        state.private_poll_view(viewer, overlay.window).into()
    }

    fn legal_for(state: &State, seat: Seat, overlay: Overlay, request: bool) -> Option<Legal> {
        if overlay.window {
            return state.may_force_redeal(seat).then_some(Legal::Redeal { requested: request });
        }
        if state.to_move() != Some(seat) || state.phase() != Phase::Play {
            return None;
        }
        let actions = state.legal_actions();
        let captures = actions
            .iter()
            .filter_map(|a| match *a {
                Action::Play(c) if state.face_up_kind(c) != Some(PlayKind::Discard) => Some(c),
                _ => None,
            })
            .collect();
        Some(Legal::Actions { actions, captures })
    }

    fn public_action(action: &Action, actor: Seat, viewer: Viewer) -> PublicAction {
        match action {
            Action::Slough(_) if viewer != Viewer::Seat(actor) => {
                PublicAction::Hidden(HiddenAction::Slough(()))
            }
            a => PublicAction::Madiao(*a),
        }
    }

    fn from_wire(action: ActAction) -> Option<Action> {
        match action {
            ActAction::Madiao(a) => Some(a),
            _ => None,
        }
    }

    fn record(
        s: &MadiaoSettings,
        seed: u64,
        players: [String; 4],
        states: &[State],
    ) -> Result<String, RecordError> {
        let mut rec = ::madiao::record::to_record(&s.rules, &s.variants, Some(seed), states.iter())?;
        rec.players = Some(cards::BySeat(players));
        Ok(record::to_pretty_json(&rec))
    }
}
