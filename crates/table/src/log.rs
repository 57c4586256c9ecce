//! What a table persists (its seats, its status, its action log, its chat) and the match
//! rebuilt from its log.

use cards::Seat;

use crate::game::{Next, Stake, StakeAsk, TableGame};
use crate::rated::{Conduct, ForfeitEntry, ForfeitKind};
use wire::{ChatMessage, StakeChoice};

pub use crate::seats::SeatRow;
pub use wire::TableStatus;

/// One action of a table's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedAction {
    /// Position in the table's log, from 0, without gaps.
    pub seq: u64,
    /// The hand of the match it belongs to, from 0.
    pub hand: u32,
    /// The seat that acted.
    pub seat: u8,
    /// The engine action as JSON, e.g. `{"play":"M9"}`.
    pub action: String,
}

/// One chat line as stored: the line as it is sent.
pub type ChatRow = ChatMessage;

/// The whole match replayed from a log.
pub struct Replayed<G: TableGame>
where
    G::Action: serde::de::DeserializeOwned,
{
    /// The match as the log leaves it: the score so far and who deals next.
    pub m: G::Match,
    /// Every hand dealt, the current (last) one included unless its stake is still to be named.
    pub states: Vec<G::State>,
    /// The results of every finished hand.
    pub results: Vec<G::HandResult>,
    /// How many of the actions were moves everyone saw.
    pub moves: u64,
    /// The next hand (number `states.len()`) waits for its banker to name the stake.
    pub stake_due: Option<StakeAsk>,
    /// What the log says of the seats' conduct in a rated match (its forfeit entries).
    pub conduct: Conduct,
    /// The hints given, in order: the hand (from 0) and the seat.
    pub hints: Vec<(u32, Seat)>,
    /// The take-backs, in order: the hand (from 0), the seat that took back, and how many
    /// actions of the hand it took back (its own last play and the answers after it).
    pub takebacks: Vec<(u32, Seat, u32)>,
    /// The actions of the last hand still standing (take-backs removed), in order, each with
    /// whether it was a turn's move of its seat (not an answer to a poll of the draw or a
    /// window): what a take-back looks back over.
    pub line: Vec<(Seat, G::Action, bool)>,
    /// The hand (from 0) whose actions `line` holds.
    pub line_hand: u32,
}

/// One entry of a table's log: a move of the game, a banker's stake for the hand about to be
/// dealt (Madiao §2), stored as `{"stake": 6}`, or a hint given to the seat, stored as
/// `{"hint": true}` (it changes nothing in the game; the record notes it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Logged<A> {
    /// A move, or an answer to a poll.
    Act(A),
    /// The stake the banker named.
    Stake(u32),
    /// A rated match: the seat's person left, or his clock ran out (`{"forfeit":"left"}`,
    /// `{"forfeit":"clock"}`); no move of the game.
    Forfeit(ForfeitKind),
    /// A hint was given to the seat on its turn.
    Hint,
    /// A take-back (`{"undo": n}`): the seat took back its last play of the hand, and with it
    /// every action after it, `n` actions in all; the hand goes on from where it was before
    /// them. No move of the game; the record keeps only the line finally played and notes it.
    Undo(u32),
}

/// How a take-back is stored in the log.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoEntry {
    undo: u32,
}

/// How a hint is stored in the log.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HintEntry {
    hint: bool,
}

impl<A: serde::Serialize> Logged<A> {
    /// The entry as the log stores it.
    pub fn to_json(&self) -> String {
        match self {
            Logged::Act(a) => serde_json::to_string(a).unwrap_or_default(),
            Logged::Stake(stake) => serde_json::to_string(&StakeChoice { stake: *stake }).unwrap_or_default(),
            Logged::Forfeit(kind) => {
                serde_json::to_string(&ForfeitEntry { forfeit: *kind }).unwrap_or_default()
            }
            Logged::Hint => serde_json::to_string(&HintEntry { hint: true }).unwrap_or_default(),
            Logged::Undo(n) => serde_json::to_string(&UndoEntry { undo: *n }).unwrap_or_default(),
        }
    }
}

impl<A: serde::de::DeserializeOwned> Logged<A> {
    /// Reads an entry as the log stores it.
    pub fn parse(text: &str) -> Result<Logged<A>, EntryError> {
        if let Ok(c) = serde_json::from_str::<StakeChoice>(text) {
            return Ok(Logged::Stake(c.stake));
        }
        if let Ok(f) = serde_json::from_str::<ForfeitEntry>(text) {
            return Ok(Logged::Forfeit(f.forfeit));
        }
        if let Ok(HintEntry { hint: true }) = serde_json::from_str::<HintEntry>(text) {
            return Ok(Logged::Hint);
        }
        if let Ok(UndoEntry { undo }) = serde_json::from_str::<UndoEntry>(text) {
            return Ok(Logged::Undo(undo));
        }
        serde_json::from_str(text).map(Logged::Act).map_err(|e| EntryError(e.to_string()))
    }
}

/// A stored log entry that is none of the shapes the log holds (an action of the game, a stake, a
/// forfeit, a hint, a take-back): the JSON reader's reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EntryError(pub String);

/// Why a table's log cannot be replayed, or its record written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The match's first hand cannot be dealt.
    #[error("the first hand cannot be dealt")]
    FirstHand,
    /// An action after the end of the match.
    #[error("log entry {seq}: the match is already over")]
    MatchOver {
        /// The entry's position.
        seq: u64,
    },
    /// An action that names another hand than the one being played.
    #[error("log entry {seq}: it names hand {named} but hand {playing} is being played")]
    WrongHand {
        /// The entry's position.
        seq: u64,
        /// The hand it names.
        named: u32,
        /// The hand being played.
        playing: u32,
    },
    /// A seat number that is not a seat.
    #[error("log entry {seq}: seat {seat}")]
    BadSeat {
        /// The entry's position.
        seq: u64,
        /// The number.
        seat: u8,
    },
    /// An action of a seat that is not to move.
    #[error("log entry {seq}: {seat} is not to move")]
    NotToMove {
        /// The entry's position.
        seq: u64,
        /// The seat.
        seat: Seat,
    },
    /// A hand's first entry is not the stake its banker names, or a stake where none is named.
    #[error("log entry {seq}: {why}")]
    Stake {
        /// The entry's position.
        seq: u64,
        /// What is wrong.
        why: String,
    },
    /// An action that is not one of the game (the reader's reason).
    #[error("log entry {seq}: {reason}")]
    NotAnAction {
        /// The entry's position.
        seq: u64,
        /// Why it cannot be read.
        reason: String,
    },
    /// An action the engine refuses (the engine's reason).
    #[error("log entry {seq}: {reason}")]
    Illegal {
        /// The entry's position.
        seq: u64,
        /// The engine's reason.
        reason: String,
    },
    /// A hint to a seat that was not to move.
    #[error("log entry {seq}: a hint to {seat}, who was not to move")]
    Hint {
        /// The entry's position.
        seq: u64,
        /// The seat.
        seat: Seat,
    },
    /// A take-back that takes back more than the hand holds, or does not end at its seat's turn.
    #[error("log entry {seq}: a take-back by {seat}: {why}")]
    Undo {
        /// The entry's position.
        seq: u64,
        /// The seat.
        seat: Seat,
        /// What is wrong.
        why: String,
    },
    /// The record cannot be written.
    #[error(transparent)]
    Record(#[from] crate::game::RecordError),
}

/// Replays a table's log from its first hand: each action must belong to the hand it names and
/// to the seat to move, and be legal.
pub fn replay<G: TableGame>(
    settings: &G::Settings,
    seed: u64,
    log: &[LoggedAction],
) -> Result<Replayed<G>, LogError>
where
    G::Action: serde::de::DeserializeOwned,
{
    let mut m = G::new_match(settings, seed);
    // The hand being played, or `None` while its banker has to name the stake.
    let mut stake_due = G::Stake::ask(settings, &m, seed, 0);
    let mut st = match stake_due {
        Some(_) => None,
        None => Some(G::start_hand(settings, &m, seed, 0, None).ok_or(LogError::FirstHand)?),
    };
    let mut states = Vec::new();
    let mut results = Vec::new();
    let mut moves = 0;
    let mut conduct = Conduct::default();
    let mut hints = Vec::new();
    let mut takebacks = Vec::new();
    // The current hand as dealt, and its actions standing (for take-backs).
    let mut dealt: Option<G::State> = st.clone();
    let mut line: Vec<(Seat, G::Action, bool)> = Vec::new();
    let mut line_hand = 0u32;
    for a in log {
        // A forfeit entry is no move: it belongs to no hand's play.
        if let Ok(f) = serde_json::from_str::<ForfeitEntry>(&a.action) {
            if a.seat > 3 {
                return Err(LogError::BadSeat { seq: a.seq, seat: a.seat });
            }
            conduct.note(usize::from(a.seat), f.forfeit);
            continue;
        }
        // A take-back belongs to the hand being played, finished or not (its last play may have
        // ended it): it is read before the next hand is dealt.
        if let Ok(UndoEntry { undo }) = serde_json::from_str::<UndoEntry>(&a.action) {
            let seat = Seat::new(a.seat).ok_or(LogError::BadSeat { seq: a.seq, seat: a.seat })?;
            let hand = states.len() as u32;
            if a.hand != hand {
                return Err(LogError::WrongHand { seq: a.seq, named: a.hand, playing: hand });
            }
            let why = |why: &str| LogError::Undo { seq: a.seq, seat, why: why.to_string() };
            let n = undo as usize;
            if n == 0 || n > line.len() {
                return Err(why(&format!("{n} actions, but the hand holds {}", line.len())));
            }
            let Some(start) = dealt.clone() else { return Err(why("no hand is dealt")) };
            line.truncate(line.len() - n);
            let mut cur = start;
            for (_, action, _) in &line {
                G::apply(&mut cur, *action).map_err(|e| why(&e.to_string()))?;
            }
            if G::to_move(&cur) != Some(seat) {
                return Err(why("the hand does not go back to its turn"));
            }
            st = Some(cur);
            takebacks.push((hand, seat, undo));
            moves += 1;
            continue;
        }
        while let Some(cur) = st.as_ref().filter(|cur| G::to_move(cur).is_none()) {
            results.extend(G::finish_hand(&mut m, cur));
            let next = states.len() as u32 + 1;
            stake_due = G::Stake::ask(settings, &m, seed, next);
            let new = match stake_due {
                Some(_) => None,
                None => Some(
                    G::start_hand(settings, &m, seed, next, None)
                        .ok_or(LogError::MatchOver { seq: a.seq })?,
                ),
            };
            dealt = new.clone();
            line.clear();
            line_hand = next;
            states.extend(std::mem::replace(&mut st, new));
        }
        let hand = states.len() as u32;
        if a.hand != hand {
            return Err(LogError::WrongHand { seq: a.seq, named: a.hand, playing: hand });
        }
        let seat = Seat::new(a.seat).ok_or(LogError::BadSeat { seq: a.seq, seat: a.seat })?;
        let entry = Logged::<G::Action>::parse(&a.action)
            .map_err(|e| LogError::NotAnAction { seq: a.seq, reason: e.0 })?;
        match (stake_due, st.as_mut(), entry) {
            (_, Some(cur), Logged::Hint) if G::to_move(cur) == Some(seat) => hints.push((hand, seat)),
            (_, _, Logged::Hint) => {
                return Err(LogError::Hint { seq: a.seq, seat });
            }
            (Some(ask), _, Logged::Stake(stake)) => {
                if ask.seat != seat {
                    return Err(LogError::NotToMove { seq: a.seq, seat });
                }
                let stake = G::Stake::check(settings, stake)
                    .map_err(|e| LogError::Illegal { seq: a.seq, reason: e.to_string() })?;
                let new = G::start_hand(settings, &m, seed, hand, Some(stake))
                    .ok_or(LogError::MatchOver { seq: a.seq })?;
                dealt = Some(new.clone());
                line.clear();
                line_hand = hand;
                st = Some(new);
                stake_due = None;
            }
            (Some(ask), _, Logged::Act(_)) => {
                let why = format!("hand {hand} begins with its banker ({}) naming the stake", ask.seat);
                return Err(LogError::Stake { seq: a.seq, why });
            }
            (None, _, Logged::Stake(_)) => {
                let why = format!("the stake of hand {hand} is not named now");
                return Err(LogError::Stake { seq: a.seq, why });
            }
            (_, _, Logged::Forfeit(_) | Logged::Undo(_)) => {}
            (None, None, Logged::Act(_)) => return Err(LogError::MatchOver { seq: a.seq }),
            (None, Some(cur), Logged::Act(action)) => {
                if G::to_move(cur) != Some(seat) {
                    return Err(LogError::NotToMove { seq: a.seq, seat });
                }
                let is_move = G::is_move(cur, &action);
                let turn = is_move && !matches!(G::next(cur), Next::Draw { .. } | Next::Window { .. });
                moves += u64::from(is_move);
                line.push((seat, action, turn));
                G::apply(cur, action).map_err(|e| LogError::Illegal { seq: a.seq, reason: e.to_string() })?;
            }
        }
    }
    // Hands settled as soon as they are dealt (a Madiao meld, a Da Bai Fen open deal where nobody
    // can show) leave nothing in the log, and so does the pause after a hand: deal on to the first
    // hand that waits for someone (its banker's stake included), or to the end of the match.
    while let Some(cur) = st.as_ref().filter(|cur| G::to_move(cur).is_none()) {
        let mut after = m.clone();
        let result = G::finish_hand(&mut after, cur);
        if G::match_over(&after) {
            break;
        }
        let next = states.len() as u32 + 1;
        let ask = G::Stake::ask(settings, &after, seed, next);
        let new = match ask {
            Some(_) => None,
            None => match G::start_hand(settings, &after, seed, next, None) {
                Some(new) => Some(new),
                None => break,
            },
        };
        m = after;
        results.extend(result);
        stake_due = ask;
        states.extend(std::mem::replace(&mut st, new));
    }
    states.extend(st);
    Ok(Replayed { m, states, results, moves, stake_due, conduct, hints, takebacks, line, line_hand })
}

/// The `yezi/1` record of a table from its log.
pub fn record_of<G: TableGame>(
    settings: &G::Settings,
    seed: u64,
    players: [String; 4],
    log: &[LoggedAction],
) -> Result<String, LogError>
where
    G::Action: serde::de::DeserializeOwned,
{
    let r = replay::<G>(settings, seed, log)?;
    let record = G::record(settings, seed, players, &r.states)?;
    Ok(with_takebacks(with_hints(record, &r.hints), &r.takebacks))
}

/// The `yezi/1` record of the hands a table finished, for a match its host ended before its end
/// (`docs/record.md`, "Ended matches"): the hand being played is left out, and the record says
/// the match was ended with its `ended` field.
pub fn record_of_finished<G: TableGame>(
    settings: &G::Settings,
    seed: u64,
    players: [String; 4],
    log: &[LoggedAction],
) -> Result<String, LogError>
where
    G::Action: serde::de::DeserializeOwned,
{
    let r = replay::<G>(settings, seed, log)?;
    let finished = r.results.len().min(r.states.len());
    let hints: Vec<_> = r.hints.iter().copied().filter(|(h, _)| (*h as usize) < finished).collect();
    let takebacks: Vec<_> =
        r.takebacks.iter().copied().filter(|(h, _, _)| (*h as usize) < finished).collect();
    let record = G::record(settings, seed, players, &r.states[..finished])?;
    let record = with_takebacks(with_hints(record, &hints), &takebacks);
    Ok(with_field(record, "ended", serde_json::json!({ "hands": finished })))
}

/// The record with its deals made verifiable (`docs/record.md`, "Deal verification"): the table's
/// id as the top-level `table`, and on every hand k its `seed` (the match's: hand k's deck is the
/// engine's shuffle of it for hand k) and its `commitment` ([`cards::deal::commitment`] of the
/// seed, k and the table's id), as the seats were sent it before the deal. Only a finished match's
/// record, or one of finished hands, is ever written, so no seed is revealed before its hand ends.
pub fn with_deals(record: String, table: &str, seed: u64) -> String {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(&record) else { return record };
    let Some(obj) = doc.as_object_mut() else { return record };
    obj.insert("table".into(), serde_json::Value::String(table.to_string()));
    if let Some(hands) = obj.get_mut("hands").and_then(|h| h.as_array_mut()) {
        for (k, hand) in hands.iter_mut().enumerate() {
            if let Some(h) = hand.as_object_mut() {
                let commitment = cards::deal::commitment(seed, k as u32, table);
                h.insert("seed".into(), serde_json::json!(seed));
                h.insert("commitment".into(), serde_json::Value::String(commitment));
            }
        }
    }
    cards::record::to_pretty_json(&doc)
}

/// The record with a top-level field added (the record unchanged if it is not an object).
fn with_field(record: String, name: &str, value: serde_json::Value) -> String {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(&record) else { return record };
    match doc.as_object_mut() {
        Some(obj) => {
            obj.insert(name.into(), value);
            cards::record::to_pretty_json(&doc)
        }
        None => record,
    }
}

/// The record with its `takebacks` field (`docs/record.md`, "Take-backs"): for each hand and seat
/// that took back plays, how many times and how many actions in all; the record unchanged when
/// there were none.
pub fn with_takebacks(record: String, takebacks: &[(u32, Seat, u32)]) -> String {
    if takebacks.is_empty() {
        return record;
    }
    let mut counts: std::collections::BTreeMap<(u32, u8), (u32, u32)> = std::collections::BTreeMap::new();
    for (hand, seat, n) in takebacks {
        let e = counts.entry((*hand, seat.number())).or_default();
        e.0 += 1;
        e.1 += n;
    }
    let list: Vec<serde_json::Value> = counts
        .into_iter()
        .map(|((hand, seat), (count, actions))| {
            serde_json::json!({ "hand": hand, "seat": seat, "count": count, "actions": actions })
        })
        .collect();
    with_field(record, "takebacks", serde_json::Value::Array(list))
}

/// The record with its `hints` field (`docs/record.md`, "Hints"): for each hand and seat that
/// was given hints, how many; the record unchanged when none were given.
pub fn with_hints(record: String, hints: &[(u32, Seat)]) -> String {
    if hints.is_empty() {
        return record;
    }
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(&record) else { return record };
    let mut counts: std::collections::BTreeMap<(u32, u8), u32> = std::collections::BTreeMap::new();
    for (hand, seat) in hints {
        *counts.entry((*hand, seat.number())).or_default() += 1;
    }
    let list: Vec<serde_json::Value> = counts
        .into_iter()
        .map(|((hand, seat), count)| serde_json::json!({ "hand": hand, "seat": seat, "count": count }))
        .collect();
    match doc.as_object_mut() {
        Some(obj) => {
            obj.insert("hints".into(), serde_json::Value::Array(list));
            cards::record::to_pretty_json(&doc)
        }
        None => record,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TableGame;
    use ai::Madiao;
    use cards::record;

    fn madiao_settings(hands: u32) -> <Madiao as TableGame>::Settings {
        let mut v = record::Variants::default();
        v.0.insert("game_length".into(), format!("hands:{hands}"));
        <Madiao as TableGame>::settings("standard", &v, (2, 2)).unwrap()
    }

    /// Plays the first hand of a match with the first legal action each time; returns its log.
    fn first_hand_log(settings: &<Madiao as TableGame>::Settings, seed: u64) -> Vec<LoggedAction> {
        let m = <Madiao as TableGame>::new_match(settings, seed);
        let mut st = <Madiao as TableGame>::start_hand(settings, &m, seed, 0, None).unwrap();
        let mut log = Vec::new();
        while let Some(seat) = st.to_move() {
            let a = st.legal_actions()[0];
            log.push(LoggedAction {
                seq: log.len() as u64,
                hand: 0,
                seat: seat.number(),
                action: serde_json::to_string(&a).unwrap(),
            });
            st.apply(a).unwrap();
        }
        log
    }

    #[test]
    fn hands_settled_when_dealt_are_replayed_though_the_log_has_nothing_of_them() {
        let settings = madiao_settings(2);
        // A seed whose second hand is settled as soon as it is dealt (a meld or the four lowest).
        let (seed, log) = (0..20_000u64)
            .find_map(|seed| {
                let log = first_hand_log(&settings, seed);
                let mut m = <Madiao as TableGame>::new_match(&settings, seed);
                let mut first = <Madiao as TableGame>::start_hand(&settings, &m, seed, 0, None)?;
                for a in &log {
                    first.apply(serde_json::from_str(&a.action).ok()?).ok()?;
                }
                <Madiao as TableGame>::finish_hand(&mut m, &first);
                let second = <Madiao as TableGame>::start_hand(&settings, &m, seed, 1, None)?;
                second.is_over().then_some((seed, log))
            })
            .expect("a seed whose second hand is settled at once");
        let r = replay::<Madiao>(&settings, seed, &log).unwrap();
        assert_eq!(r.states.len(), 2, "the replay deals the second hand");
        let players = std::array::from_fn(|i| format!("p{i}"));
        let text = record_of::<Madiao>(&settings, seed, players, &log).unwrap();
        let ::ai::record::AnyRecord::Madiao(rec) = ::ai::record::parse(&text).unwrap() else { panic!() };
        assert_eq!(rec.hands.len(), 2, "{text}");
        assert!(rec.hands[1].actions.is_empty());
        assert!(rec.hands[1].result.as_ref().unwrap().game_over);
        assert!(::madiao::record::replay(&rec).is_clean());
    }

    #[test]
    fn a_log_that_breaks_the_rules_is_refused_with_its_position() {
        let settings = madiao_settings(4);
        let mut log = first_hand_log(&settings, 7);
        let last = log.len() - 1;
        log[last].seat = (log[last].seat + 1) % 4;
        let e = replay::<Madiao>(&settings, 7, &log).err().unwrap();
        assert!(matches!(e, LogError::NotToMove { seq, .. } if seq == last as u64), "{e}");
        let e = e.to_string();
        assert!(e.starts_with(&format!("log entry {last}: seat")), "{e}");
        let mut log = first_hand_log(&settings, 7);
        log[0].hand = 3;
        let e = replay::<Madiao>(&settings, 7, &log).err().unwrap();
        assert_eq!(e, LogError::WrongHand { seq: 0, named: 3, playing: 0 });
        assert!(e.to_string().contains("names hand 3 but hand 0 is being played"), "{e}");
    }

    #[test]
    fn hints_in_the_log_change_nothing_but_are_noted_in_the_record() {
        let settings = madiao_settings(1);
        let plain = first_hand_log(&settings, 7);
        assert_eq!(Logged::<::madiao::Action>::parse(r#"{"hint":true}"#), Ok(Logged::Hint));
        assert_eq!(Logged::<::madiao::Action>::Hint.to_json(), r#"{"hint":true}"#);
        // Two hints to the seat to move before its first play, one before the fifth action.
        let row = |seat: u8| LoggedAction { seq: 0, hand: 0, seat, action: r#"{"hint":true}"#.into() };
        let mut log = Vec::new();
        for (i, a) in plain.iter().enumerate() {
            if i == 0 {
                log.push(row(a.seat));
                log.push(row(a.seat));
            }
            if i == 4 {
                log.push(row(a.seat));
            }
            log.push(a.clone());
        }
        for (i, a) in log.iter_mut().enumerate() {
            a.seq = i as u64;
        }
        let r = replay::<Madiao>(&settings, 7, &log).unwrap();
        assert_eq!(r.moves, replay::<Madiao>(&settings, 7, &plain).unwrap().moves);
        assert_eq!(r.hints.len(), 3);
        let players = ["A", "B", "C", "D"].map(String::from);
        let rec = record_of::<Madiao>(&settings, 7, players.clone(), &log).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&rec).unwrap();
        let (s0, s4) = (plain[0].seat, plain[4].seat);
        let mut want = vec![serde_json::json!({ "hand": 0, "seat": s0, "count": 2 })];
        if s4 == s0 {
            want[0]["count"] = 3.into();
        } else {
            want.push(serde_json::json!({ "hand": 0, "seat": s4, "count": 1 }));
            want.sort_by_key(|v| v["seat"].as_u64());
        }
        assert_eq!(doc["hints"], serde_json::Value::Array(want));
        // Without hints the record has no such field; the record reads and replays all the same.
        let bare = record_of::<Madiao>(&settings, 7, players, &plain).unwrap();
        assert!(!bare.contains("hints"));
        match ::ai::record::parse(&rec).unwrap() {
            ::ai::record::AnyRecord::Madiao(r) => assert!(::madiao::record::replay(&r).is_clean()),
            _ => panic!("a Madiao record"),
        }
        // A hint to a seat that is not to move is an error.
        let other = plain[0].seat.wrapping_add(1) % 4;
        let bad = vec![row(other)];
        assert!(matches!(replay::<Madiao>(&settings, 7, &bad), Err(LogError::Hint { seq: 0, .. })));
    }

    #[test]
    fn a_take_back_in_the_log_undoes_the_last_actions_and_the_record_notes_it() {
        let settings = madiao_settings(1);
        let plain = first_hand_log(&settings, 7);
        assert_eq!(Logged::<::madiao::Action>::parse(r#"{"undo":3}"#), Ok(Logged::Undo(3)));
        assert_eq!(Logged::<::madiao::Action>::Undo(3).to_json(), r#"{"undo":3}"#);
        let undo = |seq: usize, seat: u8, n: u32| LoggedAction {
            seq: seq as u64,
            hand: 0,
            seat,
            action: format!(r#"{{"undo":{n}}}"#),
        };
        // Six actions, then the seat of the fourth takes it back with the two after it.
        let mut log: Vec<LoggedAction> = plain[..6].to_vec();
        log.push(undo(6, plain[3].seat, 3));
        let r = replay::<Madiao>(&settings, 7, &log).unwrap();
        let three = replay::<Madiao>(&settings, 7, &plain[..3]).unwrap();
        assert_eq!(format!("{:?}", r.states.last()), format!("{:?}", three.states.last()));
        assert_eq!(r.line.len(), 3);
        assert_eq!(r.takebacks, vec![(0, Seat::new(plain[3].seat).unwrap(), 3)]);
        assert_eq!(r.moves, replay::<Madiao>(&settings, 7, &plain[..6]).unwrap().moves + 1);
        // The hand goes on from there: the record holds the final line and notes the take-back.
        let mut rest: Vec<LoggedAction> = plain[3..].to_vec();
        for (i, a) in rest.iter_mut().enumerate() {
            a.seq = (7 + i) as u64;
        }
        log.extend(rest);
        let players = ["A", "B", "C", "D"].map(String::from);
        let rec = record_of::<Madiao>(&settings, 7, players.clone(), &log).unwrap();
        let doc: serde_json::Value = serde_json::from_str(&rec).unwrap();
        let seat = plain[3].seat;
        assert_eq!(
            doc["takebacks"],
            serde_json::json!([{ "hand": 0, "seat": seat, "count": 1, "actions": 3 }])
        );
        let bare: serde_json::Value =
            serde_json::from_str(&record_of::<Madiao>(&settings, 7, players, &plain).unwrap()).unwrap();
        assert_eq!(doc["hands"], bare["hands"], "the same line as played without the take-back");
        // More than the hand holds, or a take-back that does not end at the seat's turn.
        let mut bad = plain[..2].to_vec();
        bad.push(undo(2, plain[0].seat, 5));
        let e = replay::<Madiao>(&settings, 7, &bad).err().unwrap();
        assert!(matches!(e, LogError::Undo { seq: 2, .. }), "{e}");
        assert!(e.to_string().contains("5 actions, but the hand holds 2"), "{e}");
        let mut bad = plain[..2].to_vec();
        bad.push(undo(2, (plain[1].seat + 1) % 4, 1));
        let e = replay::<Madiao>(&settings, 7, &bad).err().unwrap();
        assert!(e.to_string().contains("does not go back to its turn"), "{e}");
    }
}
