//! Replays of finished games for the browser client, which has no rules code: a `yezi/1` record
//! replayed with the engines into steps, each with the omniscient state of the hand — every seat's
//! cards, the tricks with every card face up, the event that led to it — so a client can step
//! through a game forward and back. Served as `GET /api/replays/{id}` (a finished table's record)
//! and `POST /api/replay` (a record in the body); see `docs/protocol.md`.

use cards::Seat;
use cards::record::{
    self, AnyRecord, DabaifenAction, DabaifenHand, GameKind, MadiaoAction, MadiaoHand, Record,
};
use serde::Serialize;
use serde_json::Value;

/// The largest record `POST /api/replay` accepts (bytes).
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// A record replayed into steps.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Replay {
    /// The game.
    pub game: GameKind,
    /// The record's preset.
    pub rules: String,
    /// Every variant in force, by name.
    #[ts(type = "Record<string, string>")]
    pub variants: serde_json::Map<String, Value>,
    /// The players' names, if the record names them (`bot:NAME` for bots).
    pub players: Option<[String; 4]>,
    /// The seed the decks came from, if the record gives it.
    #[ts(type = "number | null")]
    pub seed: Option<u64>,
    /// The hands, in order.
    pub hands: Vec<ReplayHand>,
}

/// One hand of a replay.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayHand {
    /// The cards nobody holds: Madiao's stock (the upcard last), Da Bai Fen's kitty as dealt.
    pub undealt: Vec<String>,
    /// The states of the hand: as dealt, then after each event.
    pub steps: Vec<ReplayStep>,
    /// The hand's result (the record's result object), once it is over.
    #[ts(type = "MadiaoResult | DabaifenResult | null")]
    pub result: Value,
}

/// One state of a hand in a replay.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ReplayStep {
    /// What led to this state.
    pub event: ReplayEvent,
    /// Every seat's cards now, strongest first (during the Da Bai Fen draw: the twelve it draws).
    pub hands: [Vec<String>; 4],
    /// The hand as an all-seeing spectator sees it: the engine's view with every card played face
    /// up and `hand` empty (the cards are in `hands`); `seat` is `null`.
    #[ts(type = "MadiaoView | DabaifenView")]
    pub view: Value,
}

/// What led to a step.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplayEvent {
    /// The cards are dealt (Da Bai Fen: the draw begins).
    Deal,
    /// Da Bai Fen: the draw ended without a showing (the kitty is turned, or an open deal annulled).
    DrawEnd,
    /// Da Bai Fen: the last polls are passed and the deal ends without a further action.
    End,
    /// A recorded action.
    Action {
        /// The record's action, with its seat.
        #[ts(type = "MadiaoRecordAction | DabaifenRecordAction")]
        action: Value,
    },
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayFailed(pub String);

/// Replays a record's text into steps; the error says what is wrong and where (`hand 0, action 7:
/// …`), as `yezi replay` does.
pub fn replay_text(text: &str) -> Result<Replay, ReplayFailed> {
    let rec = record::parse(text).map_err(|e| ReplayFailed(format!("not a yezi/1 record: {e}")))?;
    match rec {
        AnyRecord::Madiao(r) => madiao_replay(&r),
        AnyRecord::Dabaifen(r) => dabaifen_replay(&r),
    }
}

fn action_value<A: Serialize>(a: &A) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

fn players(p: &Option<cards::BySeat<String>>) -> Option<[String; 4]> {
    p.as_ref().map(|b| b.0.clone())
}

// ---------------------------------------------------------------------------------------------
// Madiao

fn madiao_codes(mask: u64) -> Vec<String> {
    let mut v: Vec<String> = ::madiao::Card::in_mask(mask).map(|c| c.to_string()).collect();
    v.reverse();
    v
}

fn madiao_step(state: &::madiao::State, event: ReplayEvent) -> ReplayStep {
    let mut v = state.view(state.banker());
    v.hand.clear();
    v.legal_actions.clear();
    // Every card face up: the plays in the order the view lists them.
    let mut plays = state.plays();
    for t in &mut v.tricks {
        for p in &mut t.plays {
            if let Some(played) = plays.next() {
                p.card = Some(played.card);
            }
        }
    }
    let mut view = serde_json::to_value(v).unwrap_or(Value::Null);
    view["seat"] = Value::Null;
    ReplayStep { event, hands: std::array::from_fn(|i| madiao_codes(state.hand(Seat::ALL[i]))), view }
}

fn madiao_replay(rec: &Record<MadiaoHand>) -> Result<Replay, ReplayFailed> {
    let checked = ::madiao::record::replay(rec);
    if let Some(e) = &checked.error {
        return Err(ReplayFailed(e.to_string()));
    }
    let variants = checked.variants.ok_or_else(|| ReplayFailed("the record has no variants".into()))?;
    let mut hands = Vec::new();
    for (i, (replayed, recorded)) in checked.hands.iter().zip(&rec.hands).enumerate() {
        let end = &replayed.state;
        let setup = ::madiao::HandSetup {
            banker: end.banker(),
            stake: end.stake(),
            deck: *end.deck(),
            variants,
            progress: end.progress(),
        };
        let mut state = ::madiao::State::new(setup).map_err(|e| ReplayFailed(format!("hand {i}: {e}")))?;
        let mut steps = vec![madiao_step(&state, ReplayEvent::Deal)];
        for (j, a) in recorded.actions.iter().enumerate() {
            ::madiao::record::apply_record_action(&mut state, a)
                .map_err(|e| ReplayFailed(format!("hand {i}, action {j}: {e}")))?;
            steps.push(madiao_step(&state, ReplayEvent::Action { action: action_value::<MadiaoAction>(a) }));
        }
        let undealt: Vec<String> = end.deck()[32..].iter().map(|c| c.to_string()).collect();
        let result = replayed.result.as_ref().map_or(Value::Null, action_value);
        hands.push(ReplayHand { undealt, steps, result });
    }
    Ok(Replay {
        game: GameKind::Madiao,
        rules: rec.rules.clone(),
        variants: variants.entries().map(|(k, v)| (k.to_string(), Value::String(v))).collect(),
        players: players(&rec.players),
        seed: rec.seed,
        hands,
    })
}

// ---------------------------------------------------------------------------------------------
// Da Bai Fen

fn dabaifen_codes(state: &::dabaifen::State, set: ::dabaifen::Cards) -> Vec<String> {
    let sorted = match state.tables() {
        Some(t) => t.sorted(set),
        None => ::dabaifen::trump::sorted_plain(set),
    };
    sorted.into_iter().map(|c| c.to_string()).collect()
}

fn dabaifen_step(state: &::dabaifen::State, event: ReplayEvent) -> ReplayStep {
    use ::dabaifen::Phase;
    let mut v = state.view(state.starter());
    v.hand.clear();
    let drawing = state.phase() == Phase::Drawing;
    if drawing {
        // The replay shows the whole deal: every seat's twelve cards.
        v.hand_sizes = [12; 4];
    }
    let mut view = serde_json::to_value(v).unwrap_or(Value::Null);
    view["seat"] = Value::Null;
    let hands = std::array::from_fn(|i| {
        let s = Seat::ALL[i];
        dabaifen_codes(state, if drawing { state.dealt(s) } else { state.hand(s) })
    });
    ReplayStep { event, hands, view }
}

fn dabaifen_replay(rec: &Record<DabaifenHand>) -> Result<Replay, ReplayFailed> {
    use ::dabaifen::{Action, Phase};
    let checked = ::dabaifen::record::replay(rec);
    if let Some(e) = &checked.error {
        return Err(ReplayFailed(e.to_string()));
    }
    let variants = checked.variants.ok_or_else(|| ReplayFailed("the record has no variants".into()))?;
    let mut hands = Vec::new();
    for (i, (replayed, recorded)) in checked.hands.iter().zip(&rec.hands).enumerate() {
        let end = &replayed.state;
        let mut state =
            ::dabaifen::State::new(&end.setup()).map_err(|e| ReplayFailed(format!("hand {i}: {e}")))?;
        let mut steps = vec![dabaifen_step(&state, ReplayEvent::Deal)];
        for (j, a) in recorded.actions.iter().enumerate() {
            if state.phase() == Phase::Drawing && !matches!(a, DabaifenAction::Declare { .. }) {
                // Nobody showed: the draw ends (the kitty is turned) before this action.
                while state.phase() == Phase::Drawing {
                    state.apply_unchecked(Action::Pass);
                }
                steps.push(dabaifen_step(&state, ReplayEvent::DrawEnd));
            }
            ::dabaifen::record::apply_recorded(&mut state, a)
                .map_err(|e| ReplayFailed(format!("hand {i}, action {j}: {e}")))?;
            steps.push(dabaifen_step(
                &state,
                ReplayEvent::Action { action: action_value::<DabaifenAction>(a) },
            ));
        }
        if state.phase() != Phase::Over {
            let mut passed = state.clone();
            let was_drawing = passed.phase() == Phase::Drawing;
            while matches!(passed.phase(), Phase::Drawing | Phase::Annulling) {
                passed.apply_unchecked(Action::Pass);
            }
            if passed.phase() == Phase::Over {
                let event = if was_drawing { ReplayEvent::DrawEnd } else { ReplayEvent::End };
                steps.push(dabaifen_step(&passed, event));
            }
        }
        let undealt: Vec<String> = end.deck()[48..].iter().map(|c| c.to_string()).collect();
        let result = end.to_record_result().as_ref().map_or(Value::Null, action_value);
        hands.push(ReplayHand { undealt, steps, result });
    }
    Ok(Replay {
        game: GameKind::Dabaifen,
        rules: rec.rules.clone(),
        variants: variants
            .entries()
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect(),
        players: players(&rec.players),
        seed: rec.seed,
        hands,
    })
}
