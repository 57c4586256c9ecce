//! Da Bai Fen at a table: a match until a team wins, the draw dealt at a steady pace, the
//! annulment window, views that keep hands, the kitty and the polls hidden.
//!
//! **The draw.** The engine polls, after each card drawn, the seats that hold a card they may
//! show; being polled tells that one holds such a card, and a pause of the draw would tell it to
//! everyone. So the server deals the draw at a steady pace for everyone (one card per tick) and
//! answers every poll itself at the tick of its card: a bot seat's poll by asking the bot, a
//! person's poll from his request. A person may ask at any moment to show a card he has drawn;
//! the request is kept and applied the next time he is polled (right after the next card is
//! drawn, unless a seat polled before him at that card shows first); without a request his polls
//! are passed. A showing ends the visible draw at once.
//!
//! **The annulment.** Likewise, being asked whether to annul tells that a hand has no trump. Once
//! trumps are fixed, every deal that is not over has an annulment window of the same length for
//! everyone; a person whose hand has no trump may ask to annul during it; when it closes, the
//! server asks the engine's questions in order and answers each (the person's request, or the
//! bot's choice). Only then does the starter take the kitty.

use ::dabaifen::record::DabaifenResult;
use ::dabaifen::{
    Action, Annul, Card, IllegalAction, LegalSummary, Match, Phase, Revoke, State, Variants, deck_from_seed,
    first_draw,
};
use ai::Dabaifen;
use cards::record;
use cards::{Rng, Seat};
use serde_json::Value;

use super::{
    LeadGroup, Legal, Next, NoStake, NotAllowed, Overlay, RecordError, RequestError, SettingsError,
    TableGame, Viewer,
};
use wire::{
    ActAction, AnnulOutcome, CardsAction, GameView, HiddenAction, MatchSummary, PublicAction, RevokeRule,
    WindowOutcome,
};

/// The rules of a Da Bai Fen table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DabaifenSettings {
    /// Every variant.
    pub variants: Variants,
    /// The duplicate board the table plays, if any: one deal from the board's start
    /// ([`::dabaifen::BoardStart::of_board`], `docs/dabaifen.md` "Duplicate boards").
    pub board: Option<u32>,
}

/// What a person asked for ahead of a poll.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DabaifenRequest {
    /// The trump-rank card he asked to show during the draw.
    pub declare: Option<Card>,
    /// He asked to annul the deal during the annulment window.
    pub annul: bool,
}

fn codes(cards: impl IntoIterator<Item = Card>) -> Vec<Card> {
    cards.into_iter().collect()
}

/// The wire form of the engine's legal summary.
fn legal_json(summary: LegalSummary) -> Legal {
    match summary {
        LegalSummary::Bury { from } => {
            Legal::Cards { action: CardsAction::Bury, count: 6, must: Vec::new(), from: codes(from) }
        }
        LegalSummary::Lead { singles, groups, revoke } => Legal::Lead {
            singles: codes(singles),
            groups: groups
                .into_iter()
                .map(|g| LeadGroup { suit: g.suit.into(), cards: codes(g.cards), tops: g.tops.map(codes) })
                .collect(),
            revoke: if revoke == Revoke::Refuse { RevokeRule::Refuse } else { RevokeRule::Penalize },
        },
        LegalSummary::Follow { count, must, from } => {
            Legal::Cards { action: CardsAction::Play, count, must: codes(must), from: codes(from) }
        }
    }
}

impl TableGame for Dabaifen {
    type Settings = DabaifenSettings;
    type Match = Match;
    type Request = DabaifenRequest;
    type HandResult = DabaifenResult;
    type Stake = NoStake;

    const OPENS_WITH_DRAW: bool = true;

    fn settings(
        rules: &str,
        variants: &record::Variants,
        _stakes: (u32, u32),
    ) -> Result<DabaifenSettings, SettingsError> {
        let variants = Variants::preset(rules)?.with_overrides(variants)?;
        Ok(DabaifenSettings { variants, board: None })
    }

    fn table_settings(doc: &crate::settings::TableSettings) -> Result<DabaifenSettings, SettingsError> {
        let s = Self::settings(&doc.rules, &doc.variants, doc.stakes())?;
        Ok(DabaifenSettings { board: doc.board, ..s })
    }

    fn variant_map(s: &DabaifenSettings) -> serde_json::Map<String, Value> {
        s.variants.entries().iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string()))).collect()
    }

    /// A board's match starts from the board (the same at every table of the event); any other
    /// draws its provisional starter from the table's seed (§4).
    fn new_match(s: &DabaifenSettings, seed: u64) -> Match {
        if let Some(k) = s.board {
            return Match::board(s.variants, ::dabaifen::BoardStart::of_board(k));
        }
        let mut rng = Rng::from_seed_stream(seed, ::dabaifen::setup::FIRST_DRAW_STREAM);
        Match::new(s.variants, first_draw(&mut rng).starter)
    }

    fn start_hand(
        _s: &DabaifenSettings,
        m: &Match,
        seed: u64,
        hand: u32,
        _stake: Option<u32>,
    ) -> Option<State> {
        if m.is_over() {
            return None;
        }
        State::new(&m.setup(deck_from_seed(seed, u64::from(hand)))).ok()
    }

    fn finish_hand(m: &mut Match, state: &State) -> Option<DabaifenResult> {
        let r = state.result()?;
        m.record(r);
        Some(r.to_record())
    }

    fn match_over(m: &Match) -> bool {
        m.is_over()
    }

    fn match_summary(m: &Match, results: &[DabaifenResult]) -> MatchSummary {
        let mut wins = [0u32; 2];
        for r in results {
            if let Some(w) = r.winner.filter(|&w| w < 2) {
                wins[usize::from(w)] += 1;
            }
        }
        let summary = wire::DabaifenMatch {
            hands: results.len(),
            ranks: m.ranks(),
            next_starter: m.starter(),
            deals_won: wins,
            over: m.is_over(),
            winner: m.winner(),
        };
        MatchSummary::Dabaifen(summary)
    }

    /// The draw (§4), the annulment window (§6) before the burial (§7), a trick complete (§8)
    /// kept on show before the next lead.
    fn next(state: &State) -> Next {
        let Some(seat) = state.to_move() else { return Next::Over };
        match state.phase() {
            Phase::Drawing => Next::Draw { drawn: state.drawn(), seat },
            Phase::Annulling => Next::Window { seat },
            Phase::Burying => Next::Turn { seat, first: state.buried().is_empty() },
            Phase::Playing | Phase::Over => {
                let tricks = state.tricks();
                if tricks.len() > 1 && tricks.last().is_some_and(|t| t.count == 0) {
                    Next::TrickShown { seat }
                } else {
                    Next::Turn { seat, first: false }
                }
            }
        }
    }

    fn request(
        state: &State,
        seat: Seat,
        overlay: Overlay,
        current: DabaifenRequest,
        action: &Action,
    ) -> Result<DabaifenRequest, RequestError<IllegalAction>> {
        use super::RequestError::{Illegal, Refused, TooLate};
        if let Some(drawn) = overlay.drawn {
            return match action {
                Action::Declare(c) => {
                    if let Some(e) = state.declaration_rank_error(seat, *c) {
                        return Err(Refused(e));
                    }
                    if !state.drawn_cards(seat, drawn).contains(*c) {
                        return Err(Illegal(NotAllowed::NotDrawn { card: *c }));
                    }
                    Ok(DabaifenRequest { declare: Some(*c), ..current })
                }
                Action::Pass => Ok(DabaifenRequest { declare: None, ..current }),
                Action::Annul => Err(Illegal(NotAllowed::TrumpsNotFixed)),
                _ => Err(Illegal(NotAllowed::DrawOpen)),
            };
        }
        if overlay.window {
            return match action {
                Action::Annul => {
                    if state.may_annul(seat) {
                        Ok(DabaifenRequest { annul: true, ..current })
                    } else if state.variants().annul == Annul::NonStartersOnly && seat == state.starter() {
                        Err(Illegal(NotAllowed::StarterMayNotAnnul))
                    } else {
                        Err(Illegal(NotAllowed::HoldsTrumps))
                    }
                }
                Action::Pass => Ok(DabaifenRequest { annul: false, ..current }),
                Action::Declare(_) => Err(TooLate(super::TooLate::DrawOver)),
                _ => Err(Illegal(NotAllowed::AnnulmentWindowOpen)),
            };
        }
        Err(TooLate(super::TooLate::NothingOpen))
    }

    fn answer(state: &State, request: DabaifenRequest) -> Action {
        match state.phase() {
            Phase::Drawing => match request.declare {
                Some(c) if state.check(Action::Declare(c)).is_ok() => Action::Declare(c),
                _ => Action::Pass,
            },
            Phase::Annulling if request.annul => Action::Annul,
            _ => Action::Pass,
        }
    }

    fn is_move(_state: &State, action: &Action) -> bool {
        matches!(action, Action::Declare(_) | Action::Bury(_) | Action::Play(_))
    }

    fn is_request(action: &Action) -> bool {
        matches!(action, Action::Pass | Action::Declare(_) | Action::Annul)
    }

    fn window_outcome(state: &State) -> WindowOutcome {
        WindowOutcome::Annul(AnnulOutcome { annulled_by: state.annulled_by() })
    }

    fn table_view(state: &State, viewer: Viewer, overlay: Overlay) -> GameView {
        state.private_poll_view(viewer, overlay.drawn, overlay.window).into()
    }

    fn legal_for(state: &State, seat: Seat, overlay: Overlay, request: DabaifenRequest) -> Option<Legal> {
        if let Some(d) = overlay.drawn {
            return Some(Legal::Declare {
                cards: codes(::dabaifen::trump::sorted_plain(state.declarable_among(seat, d))),
                requested: request.declare,
            });
        }
        if overlay.window {
            return state.may_annul(seat).then_some(Legal::Annul { requested: request.annul });
        }
        state.legal_summary(seat).map(legal_json)
    }

    fn public_action(action: &Action, actor: Seat, viewer: Viewer) -> PublicAction {
        match action {
            Action::Bury(_) if viewer != Viewer::Seat(actor) => PublicAction::Hidden(HiddenAction::Bury(())),
            a => PublicAction::Dabaifen(*a),
        }
    }

    fn from_wire(action: ActAction) -> Option<Action> {
        match action {
            ActAction::Dabaifen(a) => Some(a),
            _ => None,
        }
    }

    fn record(
        s: &DabaifenSettings,
        seed: u64,
        players: [String; 4],
        states: &[State],
    ) -> Result<String, RecordError> {
        let hands = states.iter().map(::dabaifen::record::hand_record).collect();
        let mut rec = ::dabaifen::record::match_record(&s.variants, Some(seed), hands);
        rec.players = Some(cards::BySeat(players));
        Ok(record::to_pretty_json(&rec))
    }
}

#[cfg(test)]
mod tests {
    use cards::Seat;

    use super::*;
    use crate::game::Overlay;

    /// A declaration the engine refuses reaches the table as the engine's own typed error, which
    /// the table turns into the `illegal` protocol error only at its edge.
    #[test]
    fn a_request_the_engine_refuses_keeps_its_typed_error() {
        let seat = Seat::new(1).unwrap();
        let setup =
            ::dabaifen::HandSetup::first(deck_from_seed(3, 0), Seat::new(0).unwrap(), Variants::STANDARD);
        let state = State::new(&setup).unwrap();
        let joker = Card::all().find(|c| c.is_joker()).unwrap();
        let overlay = Overlay { drawn: Some(8), window: false };
        match Dabaifen::request(&state, seat, overlay, DabaifenRequest::default(), &Action::Declare(joker)) {
            Err(RequestError::Refused(IllegalAction::BadDeclaration { seat: s, card, .. })) => {
                assert_eq!((s, card), (seat, joker));
            }
            other => panic!("expected the engine's BadDeclaration, got {other:?}"),
        }
    }
}
