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
use cards::record::{DabaifenAction, DabaifenHand, GameKind, Record, diff_results};

use crate::card::{Card, Cards, parse_rank};
use crate::game::Match;
use crate::setup::DealSetup;
use crate::state::{Action, Phase, State};
use crate::variants::Variants;

pub use cards::record::ReplayError;

fn card(code: &str) -> Result<Card, String> {
    code.parse::<Card>().map_err(|e| e.to_string())
}

fn card_set(field: &str, codes: &[String]) -> Result<Cards, String> {
    let mut set = Cards::EMPTY;
    for (i, code) in codes.iter().enumerate() {
        let c = card(code).map_err(|e| format!("{field}[{i}]: {e}"))?;
        if !set.insert(c) {
            return Err(format!("{field} lists {c} twice"));
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
pub fn setup_of(hand: &DabaifenHand, variants: Variants) -> Result<DealSetup, String> {
    if hand.deck.len() != 54 {
        return Err(format!("deck has {} cards; a Da Bai Fen deck has 54", hand.deck.len()));
    }
    let mut deck = [Card::BIG_JOKER; 54];
    for (i, code) in hand.deck.iter().enumerate() {
        deck[i] = card(code).map_err(|e| format!("deck[{i}]: {e}"))?;
    }
    let mut ranks = [crate::Rank::Two; 2];
    for (t, r) in ranks.iter_mut().enumerate() {
        *r = parse_rank(&hand.ranks[t]).map_err(|e| format!("ranks[{t}]: {e}"))?;
    }
    Ok(DealSetup {
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

fn expect_turn(st: &State, seat: Seat, what: &str) -> Result<(), String> {
    match st.to_move() {
        None => Err("the deal is already over".into()),
        Some(s) if s == seat => Ok(()),
        Some(s) => Err(format!("{seat} cannot {what}: it is {s}'s turn")),
    }
}

/// Applies one recorded action (see the module documentation for how polls are passed).
pub fn apply_recorded(st: &mut State, action: &DabaifenAction) -> Result<(), String> {
    match action {
        DabaifenAction::Declare { seat, card: code, drawn } => {
            let (seat, drawn) = (*seat, *drawn);
            let c = card(code).map_err(|e| format!("declare: {e}"))?;
            if st.phase() != Phase::Drawing {
                return Err(match st.phase() {
                    Phase::Over => "the deal is already over".into(),
                    _ if st.declaration().is_some() => {
                        format!(
                            "{seat} cannot declare {c}: trumps were already declared (the first showing is final)"
                        )
                    }
                    _ => format!("{seat} cannot declare {c}: trumps are already fixed"),
                });
            }
            if !(1..=48).contains(&drawn) {
                return Err(format!("drawn must be 1–48 (cards drawn when the card was shown), not {drawn}"));
            }
            if let Some(e) = st.declaration_rank_error(seat, c) {
                return Err(e.to_string());
            }
            // Does the seat hold the card, and had it drawn it by then?
            let pos = st.deck().iter().position(|&x| x == c).unwrap_or(53);
            let drawer = st.first_drawer().offset((pos & 3) as u8);
            if pos >= 48 || drawer != seat {
                return Err(format!("{seat} cannot declare {c}: {seat} does not hold it"));
            }
            if pos as u8 >= drawn {
                return Err(format!(
                    "{seat} cannot declare {c} at drawn {drawn}: {seat} draws it as card {} of the draw",
                    pos + 1
                ));
            }
            // Pass every poll before (drawn, seat).
            loop {
                if st.phase() != Phase::Drawing {
                    return Err(format!("{seat} cannot declare {c}: trumps are already fixed"));
                }
                let who = st.to_move().expect("a poll has an asked seat");
                if st.drawn() > drawn || (st.drawn() == drawn && who == seat) {
                    break;
                }
                st.apply_unchecked(Action::Pass);
            }
            if st.drawn() != drawn || st.to_move() != Some(seat) {
                return Err(format!(
                    "{seat} cannot declare {c} at drawn {drawn}: the draw is already at card {}",
                    st.drawn()
                ));
            }
            st.apply(Action::Declare(c)).map_err(|e| e.to_string())
        }
        DabaifenAction::Annul { seat, annul } => {
            let seat = *seat;
            pass_draw_polls(st);
            match st.phase() {
                Phase::Annulling => {}
                Phase::Over => return Err("the deal is already over".into()),
                _ => return Err(cannot_annul(st, seat)),
            }
            if !*annul {
                return match st.to_move() {
                    Some(s) if s == seat => st.apply(Action::Pass).map_err(|e| e.to_string()),
                    _ => {
                        Err(format!("{seat} is not asked whether to annul now: {}", why_not_asked(st, seat)))
                    }
                };
            }
            while st.phase() == Phase::Annulling && st.to_move() != Some(seat) {
                st.apply_unchecked(Action::Pass);
            }
            if st.phase() != Phase::Annulling {
                return Err(cannot_annul(st, seat));
            }
            st.apply(Action::Annul).map_err(|e| e.to_string())
        }
        DabaifenAction::Bury { seat, cards } => {
            pass_all_polls(st);
            let set = card_set("bury", cards)?;
            if st.phase() != Phase::Burying {
                return Err(match st.phase() {
                    Phase::Over => "the deal is already over".into(),
                    _ => format!("{seat} cannot bury: the kitty is already buried"),
                });
            }
            if st.to_move() != Some(*seat) {
                return Err(format!("{seat} cannot bury: {} is the starter", st.starter()));
            }
            st.apply(Action::Bury(set)).map_err(|e| e.to_string())
        }
        DabaifenAction::Play { seat, cards } => {
            pass_all_polls(st);
            let set = card_set("play", cards)?;
            if st.phase() == Phase::Burying {
                return Err(format!("{seat} cannot play: {} must bury six cards first", st.starter()));
            }
            expect_turn(st, *seat, "play")?;
            st.apply(Action::Play(set)).map_err(|e| e.to_string())
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

fn cannot_annul(st: &State, seat: Seat) -> String {
    match st.phase() {
        Phase::Burying | Phase::Playing => {
            if st.trump().is_some()
                && !(st.dealt(seat) & st.tables().map_or(Cards::EMPTY, |t| t.trumps())).is_empty()
            {
                format!("{seat} cannot annul: {}", why_not_asked(st, seat))
            } else if seat == st.starter() && st.variants().annul == crate::Annul::NonStartersOnly {
                format!("{seat} cannot annul: under annul non_starters_only the starter may not annul")
            } else if st.annul_declined().any(|s| s == seat) {
                format!("{seat} cannot annul: it was already asked and kept the deal")
            } else {
                format!("{seat} cannot annul: the annulment comes before the burial")
            }
        }
        _ => format!("{seat} cannot annul now"),
    }
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

/// Replays the actions of one hand from its state; `Err((action index, reason))` on the first
/// illegal one, or `(actions.len(), reason)` when the actions end before the deal does.
pub fn replay_actions(st: &mut State, actions: &[DabaifenAction]) -> Result<(), (usize, String)> {
    replay_actions_unfinished(st, actions)?;
    if let Some(s) = st.to_move() {
        let what = pending_what(st);
        return Err((actions.len(), format!("the record ends before the deal is over ({s} to {what})")));
    }
    Ok(())
}

/// Replays the actions of a deal that may be unfinished (a record's last deal): like
/// [`replay_actions`], but when passing every pending poll after the last action does not end the
/// deal, the deal is left where its actions leave it, its pending polls unanswered.
pub fn replay_actions_unfinished(st: &mut State, actions: &[DabaifenAction]) -> Result<(), (usize, String)> {
    for (i, a) in actions.iter().enumerate() {
        if st.phase() == Phase::Over {
            return Err((i, "the deal is already over".into()));
        }
        apply_recorded(st, a).map_err(|e| (i, e))?;
    }
    let mut passed = st.clone();
    pass_all_polls(&mut passed);
    if passed.phase() == Phase::Over {
        *st = passed;
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
    pub diffs: Vec<String>,
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
        self.error.is_none() && self.hands.iter().all(|h| h.diffs.is_empty())
    }

    /// Every stored-result difference, as `hand H: result.x: …` lines.
    pub fn differences(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, h) in self.hands.iter().enumerate() {
            for d in &h.diffs {
                out.push(format!("hand {i}: {d}"));
            }
        }
        out
    }
}

fn chain_error(prev: usize, m: &Match, setup: &DealSetup, hand: &DabaifenHand) -> Option<String> {
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
                out.error = Some(err(None, e));
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
        if let Err((i, reason)) = replay_actions_unfinished(&mut st, &hand.actions) {
            out.error = Some(err(Some(i), reason));
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
            let diffs = match hand.result {
                Some(_) => vec![format!(
                    "result: the record has a result but the deal is unfinished ({turn} to {what})"
                )],
                None => Vec::new(),
            };
            out.hands.push(ReplayedHand { state: st, diffs });
            return out;
        };
        let diffs =
            hand.result.as_ref().map_or(Vec::new(), |stored| diff_results(stored, &result.to_record()));
        m.get_or_insert_with(|| Match::resume(&setup)).record(&result);
        out.hands.push(ReplayedHand { state: st, diffs });
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
