//! `yezi/1` records of Da Bai Fen: checked setups from recorded hands, replaying recorded actions
//! with errors that name the hand, the action and the reason, chaining hands as `docs/record.md` says,
//! comparing stored results, and writing played deals back as records.
//!
//! Recorded actions map to engine actions as follows. During the draw, a `declare` at `drawn: k`
//! by seat `s` means every poll before (card `k`, seat `s`) passed; passes are not recorded. An
//! `annul: true` means the seats asked before it kept the deal; an `annul: false` is an explicit
//! decline by the seat being asked (written for every decline by [`hand_record`]). A `bury` or a
//! `play` (or the end of the actions) means every pending poll passed.
//!
//! A record holds one match and at least one deal (`"hands": []` is an error); a deal after the one
//! that ends the game is an error.
//!
//! The record's last deal may be unfinished, as in a record of a game in progress: when passing
//! every pending poll after its last action does not end the deal, the deal stands where its
//! actions leave it (the pending polls unanswered) and has no result (`null` in `replay --json`).
//! An open deal in which nobody showed is not unfinished: it is annulled with no action (§12.5).
//! Every other deal must be finished.

use cards::Seat;
use cards::record::{GameKind, Record, diff_results};

pub use crate::format::{DabaifenAction, DabaifenHand, DabaifenOutcome, DabaifenResult, TrumpRecord};

use crate::card::{Card, Cards, UnknownCard, UnknownRank, parse_rank};
use crate::game::Match;
use crate::setup::HandSetup;
use crate::state::{Action, IllegalAction, Phase, State};
use crate::variants::Variants;

pub use cards::record::ReplayError;

/// Why a recorded hand's deck or ranks cannot be read (`docs/record.md`, §Da Bai Fen).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    /// A deck that is not 54 cards long.
    #[error("deck has {0} cards; a Da Bai Fen deck has 54")]
    DeckSize(usize),
    /// A deck entry that is not a card code.
    #[error("deck[{index}]: {code}")]
    UnknownCard {
        /// Its position in the deck, from 0.
        index: usize,
        /// The code as written.
        code: UnknownCard,
    },
    /// A team's rank that is not a rank.
    #[error("ranks[{team}]: {rank}")]
    UnknownRank {
        /// The team, 0 or 1.
        team: usize,
        /// The rank as written.
        rank: UnknownRank,
    },
}

/// Why a recorded action cannot be applied to the deal (see the module documentation for how
/// the record's actions map to the engine's); the text names the seat, the card and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// A field's card code that is not a card (`declare`, `bury[2]`, `play[0]`).
    #[error("{field}: {code}")]
    UnknownCard {
        /// The field and, for a list, the position in it.
        field: String,
        /// The code as written.
        code: UnknownCard,
    },
    /// A burial or a play that names a card twice.
    #[error("{field} lists {card} twice")]
    Twice {
        /// `bury` or `play`.
        field: &'static str,
        /// The card named twice.
        card: Card,
    },
    /// An action after the end of the deal.
    #[error("the deal is already over")]
    DealOver,
    /// A play by a seat whose turn it is not.
    #[error("{seat} cannot {what}: it is {turn}'s turn")]
    NotYourTurn {
        /// The seat the record names.
        seat: Seat,
        /// What it tried to do (`play`).
        what: &'static str,
        /// The seat to move.
        turn: Seat,
    },
    /// A second showing: the first one is final (§6).
    #[error("{seat} cannot declare {card}: trumps were already declared (the first showing is final)")]
    AlreadyDeclared {
        /// The seat that showed.
        seat: Seat,
        /// The card shown.
        card: Card,
    },
    /// A showing after the draw, when the trumps are fixed.
    #[error("{seat} cannot declare {card}: trumps are already fixed")]
    TrumpsFixed {
        /// The seat that showed.
        seat: Seat,
        /// The card shown.
        card: Card,
    },
    /// A `drawn` outside the draw.
    #[error("drawn must be 1–48 (cards drawn when the card was shown), not {0}")]
    Drawn(u8),
    /// A showing of a card the seat is not dealt.
    #[error("{seat} cannot declare {card}: {seat} does not hold it")]
    NotHeld {
        /// The seat that showed.
        seat: Seat,
        /// The card shown.
        card: Card,
    },
    /// A showing before the seat draws the card.
    #[error("{seat} cannot declare {card} at drawn {drawn}: {seat} draws it as card {position} of the draw")]
    NotDrawnYet {
        /// The seat that showed.
        seat: Seat,
        /// The card shown.
        card: Card,
        /// The record's `drawn`.
        drawn: u8,
        /// When the seat draws the card, from 1.
        position: usize,
    },
    /// A showing at a poll the draw has already passed.
    #[error("{seat} cannot declare {card} at drawn {drawn}: the draw is already at card {at}")]
    DrawPast {
        /// The seat that showed.
        seat: Seat,
        /// The card shown.
        card: Card,
        /// The record's `drawn`.
        drawn: u8,
        /// The card the draw is at.
        at: u8,
    },
    /// An explicit decline by a seat that is not being asked whether to annul.
    #[error("{seat} is not asked whether to annul now: {why}")]
    NotAsked {
        /// The seat that declined.
        seat: Seat,
        /// Why it is not asked, in words.
        why: String,
    },
    /// An annulment the rules do not allow the seat (§12.5).
    #[error("{seat} cannot annul: {why}")]
    CannotAnnul {
        /// The seat that annulled.
        seat: Seat,
        /// Why it may not, in words.
        why: String,
    },
    /// An annulment during the draw.
    #[error("{seat} cannot annul now")]
    AnnulNotNow {
        /// The seat that annulled.
        seat: Seat,
    },
    /// A second burial.
    #[error("{seat} cannot bury: the kitty is already buried")]
    AlreadyBuried {
        /// The seat that buried.
        seat: Seat,
    },
    /// A burial by a seat that is not the starter.
    #[error("{seat} cannot bury: {starter} is the starter")]
    NotStarter {
        /// The seat that buried.
        seat: Seat,
        /// The starter.
        starter: Seat,
    },
    /// A play before the burial.
    #[error("{seat} cannot play: {starter} must bury six cards first")]
    BuryFirst {
        /// The seat that played.
        seat: Seat,
        /// The starter, who buries.
        starter: Seat,
    },
    /// The actions end before the deal does.
    #[error("the record ends before the deal is over ({seat} to {what})")]
    Unfinished {
        /// The seat to move.
        seat: Seat,
        /// What it is asked to do (`bury`, `play`, …).
        what: &'static str,
    },
    /// The engine refuses the action.
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
}

/// The first recorded action of a deal that cannot be replayed, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("action {index}: {error}")]
pub struct ActionFailed {
    /// The action's position in the deal's actions, from 0 (the number of actions when the
    /// actions end before the deal does).
    pub index: usize,
    /// Why it cannot be replayed.
    pub error: ActionError,
}

fn card_set(field: &'static str, codes: &[String]) -> Result<Cards, ActionError> {
    let mut set = Cards::EMPTY;
    for (i, code) in codes.iter().enumerate() {
        let c = code
            .parse::<Card>()
            .map_err(|code| ActionError::UnknownCard { field: format!("{field}[{i}]"), code })?;
        if !set.insert(c) {
            return Err(ActionError::Twice { field, card: c });
        }
    }
    Ok(set)
}

/// The variants of a record (its preset with its overrides).
pub fn variants_of(rec: &Record<DabaifenHand>) -> Result<Variants, ReplayError> {
    let err = |reason: String| ReplayError { hand: None, action: None, reason };
    if rec.game != GameKind::Dabaifen {
        return Err(err(format!("game: this is a {} record, not a dabaifen one", rec.game)));
    }
    let v = Variants::preset(&rec.rules).map_err(|e| err(format!("rules: {e}")))?;
    v.with_overrides(&rec.variants).map_err(|e| err(format!("variants: {e}")))
}

/// The setup of a recorded hand: card codes, deck size and ranks checked (duplicates and the
/// other rules of a setup are checked by [`State::new`]).
pub fn setup_of(hand: &DabaifenHand, variants: Variants) -> Result<HandSetup, HandError> {
    if hand.deck.len() != 54 {
        return Err(HandError::DeckSize(hand.deck.len()));
    }
    let mut deck = [Card::BIG_JOKER; 54];
    for (i, code) in hand.deck.iter().enumerate() {
        deck[i] = code.parse().map_err(|code| HandError::UnknownCard { index: i, code })?;
    }
    let mut ranks = [crate::Rank::Two; 2];
    for (t, r) in ranks.iter_mut().enumerate() {
        *r = parse_rank(&hand.ranks[t]).map_err(|rank| HandError::UnknownRank { team: t, rank })?;
    }
    Ok(HandSetup {
        deck,
        starter: hand.starter,
        first_deal: hand.first_deal,
        open: hand.open,
        ranks,
        variants,
    })
}

fn pass_draw_polls(st: &mut State) {
    while st.phase() == Phase::Drawing {
        st.apply_unchecked(Action::Pass);
    }
}

fn pass_all_polls(st: &mut State) {
    while matches!(st.phase(), Phase::Drawing | Phase::Annulling) {
        st.apply_unchecked(Action::Pass);
    }
}

fn expect_turn(st: &State, seat: Seat, what: &'static str) -> Result<(), ActionError> {
    match st.to_move() {
        None => Err(ActionError::DealOver),
        Some(s) if s == seat => Ok(()),
        Some(turn) => Err(ActionError::NotYourTurn { seat, what, turn }),
    }
}

/// Applies one recorded action (see the module documentation for how polls are passed).
pub fn apply_recorded(st: &mut State, action: &DabaifenAction) -> Result<(), ActionError> {
    match action {
        DabaifenAction::Declare { seat, card: code, drawn } => {
            let (seat, drawn) = (*seat, *drawn);
            let card: Card =
                code.parse().map_err(|code| ActionError::UnknownCard { field: "declare".into(), code })?;
            if st.phase() != Phase::Drawing {
                return Err(match st.phase() {
                    Phase::Over => ActionError::DealOver,
                    _ if st.declaration().is_some() => ActionError::AlreadyDeclared { seat, card },
                    _ => ActionError::TrumpsFixed { seat, card },
                });
            }
            if !(1..=48).contains(&drawn) {
                return Err(ActionError::Drawn(drawn));
            }
            if let Some(e) = st.declaration_rank_error(seat, card) {
                return Err(e.into());
            }
            // Does the seat hold the card, and had it drawn it by then?
            let pos = st.deck().iter().position(|&x| x == card).unwrap_or(53);
            let drawer = st.first_drawer().offset((pos & 3) as u8);
            if pos >= 48 || drawer != seat {
                return Err(ActionError::NotHeld { seat, card });
            }
            if pos as u8 >= drawn {
                return Err(ActionError::NotDrawnYet { seat, card, drawn, position: pos + 1 });
            }
            // Pass every poll before (drawn, seat).
            loop {
                if st.phase() != Phase::Drawing {
                    return Err(ActionError::TrumpsFixed { seat, card });
                }
                let who = st.to_move().expect("a poll has an asked seat");
                if st.drawn() > drawn || (st.drawn() == drawn && who == seat) {
                    break;
                }
                st.apply_unchecked(Action::Pass);
            }
            if st.drawn() != drawn || st.to_move() != Some(seat) {
                return Err(ActionError::DrawPast { seat, card, drawn, at: st.drawn() });
            }
            Ok(st.apply(Action::Declare(card))?)
        }
        DabaifenAction::Annul { seat, annul } => {
            let seat = *seat;
            pass_draw_polls(st);
            match st.phase() {
                Phase::Annulling => {}
                Phase::Over => return Err(ActionError::DealOver),
                _ => return Err(cannot_annul(st, seat)),
            }
            if !*annul {
                return match st.to_move() {
                    Some(s) if s == seat => Ok(st.apply(Action::Pass)?),
                    _ => Err(ActionError::NotAsked { seat, why: why_not_asked(st, seat) }),
                };
            }
            while st.phase() == Phase::Annulling && st.to_move() != Some(seat) {
                st.apply_unchecked(Action::Pass);
            }
            if st.phase() != Phase::Annulling {
                return Err(cannot_annul(st, seat));
            }
            Ok(st.apply(Action::Annul)?)
        }
        DabaifenAction::Bury { seat, cards } => {
            pass_all_polls(st);
            let set = card_set("bury", cards)?;
            if st.phase() != Phase::Burying {
                return Err(match st.phase() {
                    Phase::Over => ActionError::DealOver,
                    _ => ActionError::AlreadyBuried { seat: *seat },
                });
            }
            if st.to_move() != Some(*seat) {
                return Err(ActionError::NotStarter { seat: *seat, starter: st.starter() });
            }
            Ok(st.apply(Action::Bury(set))?)
        }
        DabaifenAction::Play { seat, cards } => {
            pass_all_polls(st);
            let set = card_set("play", cards)?;
            if st.phase() == Phase::Burying {
                return Err(ActionError::BuryFirst { seat: *seat, starter: st.starter() });
            }
            expect_turn(st, *seat, "play")?;
            Ok(st.apply(Action::Play(set))?)
        }
    }
}

fn why_not_asked(st: &State, seat: Seat) -> String {
    let trumps = st.tables().map_or(Cards::EMPTY, |t| t.trumps());
    let held = st.dealt(seat) & trumps;
    if !held.is_empty() {
        let t = st.tables().expect("trumps are fixed when annulling");
        format!("its hand holds trumps ({})", crate::card::codes(t.sorted(held)))
    } else if seat == st.starter() && st.variants().annul == crate::Annul::NonStartersOnly {
        "under annul non_starters_only the starter may not annul".into()
    } else if st.annul_declined().any(|s| s == seat) {
        "it was already asked and kept the deal".into()
    } else {
        format!("{} is being asked first", st.to_move().map_or("nobody".into(), |s| s.to_string()))
    }
}

fn cannot_annul(st: &State, seat: Seat) -> ActionError {
    let why = match st.phase() {
        Phase::Burying | Phase::Playing => {
            if st.trump().is_some()
                && !(st.dealt(seat) & st.tables().map_or(Cards::EMPTY, |t| t.trumps())).is_empty()
            {
                why_not_asked(st, seat)
            } else if seat == st.starter() && st.variants().annul == crate::Annul::NonStartersOnly {
                "under annul non_starters_only the starter may not annul".into()
            } else if st.annul_declined().any(|s| s == seat) {
                "it was already asked and kept the deal".into()
            } else {
                "the annulment comes before the burial".into()
            }
        }
        _ => return ActionError::AnnulNotNow { seat },
    };
    ActionError::CannotAnnul { seat, why }
}

/// What the seat to move is asked to do, in words (`"bury"`, `"play"`, …).
fn pending_what(st: &State) -> &'static str {
    match st.phase() {
        Phase::Drawing => "answer a draw poll",
        Phase::Annulling => "say whether it annuls",
        Phase::Burying => "bury",
        _ => "play",
    }
}

/// Replays the actions of one hand from its state; an error names the first illegal one, or
/// index `actions.len()` when the actions end before the deal does.
pub fn replay_actions(st: &mut State, actions: &[DabaifenAction]) -> Result<(), ActionFailed> {
    replay_actions_unfinished(st, actions)?;
    if let Some(seat) = st.to_move() {
        let what = pending_what(st);
        return Err(ActionFailed { index: actions.len(), error: ActionError::Unfinished { seat, what } });
    }
    Ok(())
}

/// Replays the actions of a deal that may be unfinished (a record's last deal): like
/// [`replay_actions`], but when passing every pending poll after the last action does not end the
/// deal, the deal is left where its actions leave it, its pending polls unanswered.
pub fn replay_actions_unfinished(st: &mut State, actions: &[DabaifenAction]) -> Result<(), ActionFailed> {
    for (index, a) in actions.iter().enumerate() {
        if st.phase() == Phase::Over {
            return Err(ActionFailed { index, error: ActionError::DealOver });
        }
        apply_recorded(st, a).map_err(|error| ActionFailed { index, error })?;
    }
    let mut passed = st.clone();
    pass_all_polls(&mut passed);
    if passed.phase() == Phase::Over {
        *st = passed;
    }
    Ok(())
}

/// Replays the actions of a record cut at a position (a puzzle's hand): like
/// [`replay_actions_unfinished`], and when the actions end in the draw or at the annulment polls
/// and passing every pending poll brings the deal to the starter's burial (docs/rules/dabaifen.md
/// §5–§7), the deal stands at the burial. A record leaves passes implicit, so the record of a deal
/// cut at the burial where nobody declared (the kitty turned up fixed the trumps, §5) and nobody
/// was asked to annul has no action at all: without this it would stand at the first draw poll.
/// A record cut later than the burial replays as with [`replay_actions_unfinished`].
pub fn replay_to_position(st: &mut State, actions: &[DabaifenAction]) -> Result<(), ActionFailed> {
    replay_actions_unfinished(st, actions)?;
    if matches!(st.phase(), Phase::Drawing | Phase::Annulling) {
        let mut passed = st.clone();
        pass_all_polls(&mut passed);
        if passed.phase() == Phase::Burying {
            *st = passed;
        }
    }
    Ok(())
}

/// One replayed hand.
#[derive(Clone, Debug)]
pub struct ReplayedHand {
    /// The deal as far as its actions go: finished, unless it is the record's unfinished last deal
    /// (then [`State::result`] is `None`).
    pub state: State,
    /// Differences between the stored result and the replayed one (`result.x: …` lines).
    pub differences: Vec<String>,
}

/// A replayed record: the hands replayed so far, and the error that stopped it, if any.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The variants of the record.
    pub variants: Option<Variants>,
    /// The hands replayed, in order.
    pub hands: Vec<ReplayedHand>,
    /// What stopped the replay.
    pub error: Option<ReplayError>,
}

impl Replay {
    /// True when every action was legal and every stored result matched.
    pub fn is_clean(&self) -> bool {
        self.error.is_none() && self.hands.iter().all(|h| h.differences.is_empty())
    }

    /// Every stored-result difference, as `hand H: result.x: …` lines.
    pub fn differences(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, h) in self.hands.iter().enumerate() {
            for d in &h.differences {
                out.push(format!("hand {i}: {d}"));
            }
        }
        out
    }
}

fn chain_error(prev: usize, m: &Match, setup: &HandSetup, hand: &DabaifenHand) -> Option<String> {
    if m.is_over() {
        return Some(format!("the game ended with hand {prev}; a record holds one match"));
    }
    if hand.first_deal {
        return Some("first_deal is true but only a match's first deal can be".into());
    }
    if setup.starter != m.starter() {
        return Some(format!(
            "starter is {} but hand {prev}'s result says {} comes next",
            setup.starter.number(),
            m.starter().number()
        ));
    }
    if setup.ranks != m.ranks() {
        return Some(format!(
            "ranks are {} and {} but hand {prev}'s result says {} and {}",
            setup.ranks[0],
            setup.ranks[1],
            m.ranks()[0],
            m.ranks()[1]
        ));
    }
    if setup.open != m.is_open() {
        return Some(if m.is_open() {
            format!("open is false but hand {prev} was annulled, so this deal is open")
        } else {
            format!("open is true but hand {prev} was not annulled")
        });
    }
    None
}

/// Replays a whole record: every hand's setup, actions and chaining, and compares stored results.
pub fn replay(rec: &Record<DabaifenHand>) -> Replay {
    let mut out = Replay { variants: None, hands: Vec::new(), error: None };
    let variants = match variants_of(rec) {
        Ok(v) => v,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    out.variants = Some(variants);
    if rec.hands.is_empty() {
        out.error = Some(ReplayError {
            hand: None,
            action: None,
            reason: "hands: a record holds at least one hand".into(),
        });
        return out;
    }
    let mut m: Option<Match> = None;
    for (h, hand) in rec.hands.iter().enumerate() {
        let err = |action: Option<usize>, reason: String| ReplayError { hand: Some(h), action, reason };
        let setup = match setup_of(hand, variants) {
            Ok(s) => s,
            Err(e) => {
                out.error = Some(err(None, e.to_string()));
                return out;
            }
        };
        if let Some(m) = &m
            && let Some(e) = chain_error(h - 1, m, &setup, hand)
        {
            out.error = Some(err(None, e));
            return out;
        }
        let mut st = match State::new(&setup) {
            Ok(s) => s,
            Err(e) => {
                out.error = Some(err(None, e.to_string()));
                return out;
            }
        };
        if let Err(ActionFailed { index, error }) = replay_actions_unfinished(&mut st, &hand.actions) {
            out.error = Some(err(Some(index), error.to_string()));
            return out;
        }
        let Some(result) = st.result().cloned() else {
            // Unfinished: allowed for the last deal only.
            let turn = st.to_move().map_or("nobody".to_string(), |s| s.to_string());
            let what = pending_what(&st);
            if h + 1 < rec.hands.len() {
                out.error = Some(err(
                    None,
                    format!("the deal is unfinished ({turn} to {what}) but hand {} follows", h + 1),
                ));
                return out;
            }
            let differences = match hand.result {
                Some(_) => vec![format!(
                    "result: the record has a result but the deal is unfinished ({turn} to {what})"
                )],
                None => Vec::new(),
            };
            out.hands.push(ReplayedHand { state: st, differences });
            return out;
        };
        let differences =
            hand.result.as_ref().map_or(Vec::new(), |stored| diff_results(stored, &result.to_record()));
        m.get_or_insert_with(|| Match::resume(&setup)).record(&result);
        out.hands.push(ReplayedHand { state: st, differences });
    }
    out
}

/// The record actions of a finished (or begun) deal: the declaration, annulment declines and
/// annulment, the burial, the plays in order.
pub fn record_actions(st: &State) -> Vec<DabaifenAction> {
    let mut out = Vec::new();
    let t = st.tables();
    let codes = |set: Cards| -> Vec<String> {
        match t {
            Some(t) => t.sorted(set).iter().map(|c| c.to_string()).collect(),
            None => set.iter().map(|c| c.to_string()).collect(),
        }
    };
    if let Some(d) = st.declaration() {
        out.push(DabaifenAction::Declare { seat: d.seat, card: d.card.to_string(), drawn: d.drawn });
    }
    for s in st.annul_declined() {
        out.push(DabaifenAction::Annul { seat: s, annul: false });
    }
    if let Some(s) = st.annulled_by() {
        out.push(DabaifenAction::Annul { seat: s, annul: true });
    }
    if !st.buried().is_empty() {
        out.push(DabaifenAction::Bury { seat: st.starter(), cards: codes(st.buried()) });
    }
    for trick in st.tricks() {
        for (s, c) in trick.in_order() {
            out.push(DabaifenAction::Play { seat: s, cards: codes(c) });
        }
    }
    out
}

/// A recorded hand for a deal, with its result if it is over.
pub fn hand_record(st: &State) -> DabaifenHand {
    DabaifenHand {
        starter: st.provisional_starter(),
        first_deal: st.is_first_deal(),
        open: st.is_open(),
        ranks: st.ranks().map(|r| r.to_string()),
        seed: None,
        commitment: None,
        deck: st.deck().iter().map(|c| c.to_string()).collect(),
        actions: record_actions(st),
        result: st.result().map(|r| r.to_record()),
    }
}

/// A record of hands played under `variants` (preset `standard` with the differing overrides).
pub fn match_record(
    variants: &Variants,
    seed: Option<u64>,
    hands: Vec<DabaifenHand>,
) -> Record<DabaifenHand> {
    let mut rec = Record::new(GameKind::Dabaifen, "standard");
    rec.variants = variants.overrides_from(&Variants::STANDARD);
    rec.seed = seed;
    rec.hands = hands;
    rec
}
