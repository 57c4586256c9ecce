//! Replays of finished games for the browser client, which has no rules code: a `yezi/1` record
//! replayed with the engines into steps, each with the omniscient state of the hand — every seat's
//! cards, the tricks with every card face up, the event that led to it — so a client can step
//! through a game forward and back.
//!
//! A replay is served **hand by hand** so that neither the server nor a client ever holds a whole
//! long match's steps: a record is checked once and turned into a [`Prepared`] replay (its
//! outline — one line per hand — and, per hand, the state it starts from and its actions), kept
//! for a while in a bounded cache ([`Replays`]); each hand's steps are then made on demand from
//! that hand's start alone. Served as `GET /api/replays/{id}` (the outline of a finished table's
//! record or of a posted one), `GET /api/replays/{id}?hand=K` (hand K's steps) and
//! `POST /api/replay` (a record in the body, answered with its outline); see `docs/protocol.md`.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ai::record::AnyRecord;
use cards::Seat;
use cards::record::{GameKind, Record};
use dabaifen::record::{DabaifenAction, DabaifenHand};
use madiao::record::{MadiaoAction, MadiaoHand};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
pub use wire::replay::*;

/// The largest record `POST /api/replay` accepts (bytes).
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// The limits of the replay API: how often a guest may post a record, how many records are
/// replayed at once, and how much the cache of replays may hold.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ReplayLimits {
    /// Records one guest may post per minute on average…
    pub posts_per_minute: f64,
    /// …and in a burst.
    pub post_burst: f64,
    /// Records checked and outlined at once (the heavy part of a replay); more wait their turn.
    pub concurrent: usize,
    /// Hands whose steps are made at once; more wait their turn.
    pub concurrent_hands: usize,
    /// How long a request waits for its turn before it is answered `503 busy` (milliseconds).
    pub wait_ms: u64,
    /// The bytes all the replays kept may take in all (the least recently used go first).
    pub cache_bytes: usize,
    /// A replay is kept this long after it was last used (seconds).
    pub ttl_seconds: u64,
}

impl Default for ReplayLimits {
    fn default() -> Self {
        ReplayLimits {
            posts_per_minute: 6.0,
            post_burst: 3.0,
            concurrent: 2,
            concurrent_hands: 4,
            wait_ms: 10_000,
            cache_bytes: 32 * 1024 * 1024,
            ttl_seconds: 30 * 60,
        }
    }
}

/// What led to a step, before it is turned into a [`ReplayEvent`] (which only the steps that are
/// shown need).
enum Event<'a, A> {
    Deal,
    DrawEnd,
    End,
    Action(&'a A),
}

impl<A: Serialize> Event<'_, A> {
    fn to_event(&self) -> ReplayEvent {
        match self {
            Event::Deal => ReplayEvent::Deal,
            Event::DrawEnd => ReplayEvent::DrawEnd,
            Event::End => ReplayEvent::End,
            Event::Action(a) => ReplayEvent::Action { action: action_value(*a) },
        }
    }
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayFailed(pub String);

/// Why a hand of a replay cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    /// The replay has no such hand.
    #[error("the replay has {count} hand(s), numbered from 0: there is no hand {hand}")]
    NoHand {
        /// The hand asked for.
        hand: usize,
        /// How many hands there are.
        count: usize,
    },
    /// The hand cannot be replayed (it was checked when the replay was prepared, so this is a bug).
    #[error("{0}")]
    Failed(#[from] ReplayFailed),
}

/// Where a hand starts: everything that fixes it before anyone acts.
#[derive(Clone, Debug)]
enum Start {
    Madiao(::madiao::HandSetup),
    Dabaifen(::dabaifen::HandSetup),
}

/// One hand of a prepared replay.
#[derive(Clone, Debug)]
struct PreparedHand {
    start: Start,
    /// The hand as the record gives it (compact JSON), in [`Prepared::hands_json`].
    json: Range<usize>,
    /// How many steps it has.
    steps: u32,
    /// The replayed result as JSON (`null` for an unfinished hand).
    result: String,
}

/// A record checked and outlined: what a replay's hands are made from, one at a time.
#[derive(Clone, Debug)]
pub struct Prepared {
    outline: String,
    hands_json: String,
    hands: Vec<PreparedHand>,
}

impl Prepared {
    /// The outline ([`ReplayOutline`]) as JSON.
    pub fn outline_json(&self) -> &str {
        &self.outline
    }

    /// How many hands the replay has.
    pub fn hand_count(&self) -> usize {
        self.hands.len()
    }

    /// About how many bytes the prepared replay takes in memory (what the cache counts).
    pub fn cost(&self) -> usize {
        const OVERHEAD: usize = 1024;
        OVERHEAD
            + self.outline.len()
            + self.hands_json.len()
            + self.hands.iter().map(|h| std::mem::size_of::<PreparedHand>() + h.result.len()).sum::<usize>()
    }

    /// Hand `k` with its steps, made from the hand's start and its actions alone.
    pub fn hand(&self, k: usize) -> Result<ReplayHand, HandError> {
        let h = self.hands.get(k).ok_or(HandError::NoHand { hand: k, count: self.hands.len() })?;
        let text = &self.hands_json[h.json.clone()];
        let bug = |e: serde_json::Error| ReplayFailed(format!("hand {k}: {e}"));
        let mut steps = Vec::with_capacity(h.steps as usize);
        let undealt = match &h.start {
            Start::Madiao(setup) => {
                let rec: MadiaoHand = serde_json::from_str(text).map_err(bug)?;
                madiao_walk(setup, &rec.actions, k, |state, e| steps.push(madiao_step(state, e.to_event())))?;
                setup.deck[32..].iter().map(|c| c.to_string()).collect()
            }
            Start::Dabaifen(setup) => {
                let rec: DabaifenHand = serde_json::from_str(text).map_err(bug)?;
                dabaifen_walk(setup, &rec.actions, k, |state, e| {
                    steps.push(dabaifen_step(state, e.to_event()))
                })?;
                setup.deck[48..].iter().map(|c| c.to_string()).collect()
            }
        };
        let result = serde_json::from_str(&h.result).map_err(bug)?;
        Ok(ReplayHand { hand: k as u32, undealt, steps, result })
    }
}

/// Checks a record's text and prepares its replay under `id`; the error says what is wrong and
/// where (`hand 0, action 7: …`), as `yezi replay` does.
pub fn prepare(id: &str, text: &str) -> Result<Prepared, ReplayFailed> {
    let rec = ai::record::parse(text).map_err(|e| ReplayFailed(format!("not a yezi/1 record: {e}")))?;
    let deals = deals_checked(&rec);
    let mut prepared = match rec {
        AnyRecord::Madiao(r) => madiao_prepare(id, &r),
        AnyRecord::Dabaifen(r) => dabaifen_prepare(id, &r),
    }?;
    if let Some(deals) = deals {
        let mut outline: Value =
            serde_json::from_str(&prepared.outline).map_err(|e| ReplayFailed(e.to_string()))?;
        if let Some(o) = outline.as_object_mut() {
            o.insert("deals".into(), serde_json::to_value(deals).map_err(|e| ReplayFailed(e.to_string()))?);
        }
        prepared.outline = outline.to_string();
    }
    Ok(prepared)
}

/// The verification of a record's deals (`docs/record.md`, "Deal verification"), when any hand
/// carries a seed or a commitment.
fn deals_checked(rec: &AnyRecord) -> Option<wire::replay::DealsChecked> {
    let carries = match rec {
        AnyRecord::Madiao(r) => r.hands.iter().any(|h| h.seed.is_some() || h.commitment.is_some()),
        AnyRecord::Dabaifen(r) => r.hands.iter().any(|h| h.seed.is_some() || h.commitment.is_some()),
    };
    if !carries {
        return None;
    }
    let check = ai::record::verify_deals(rec);
    Some(wire::replay::DealsChecked {
        hands: check.hands as u32,
        problems: check
            .problems
            .into_iter()
            .map(|p| wire::replay::DealProblem {
                hand: p.hand as u32,
                fault: match p.fault {
                    ai::record::DealFault::Missing => "missing",
                    ai::record::DealFault::Deck => "deck",
                    ai::record::DealFault::Commitment => "commitment",
                }
                .into(),
                detail: p.detail,
                why: deal_mismatch(p.why),
            })
            .collect(),
    })
}

/// A deal's mismatch as the wire says it.
fn deal_mismatch(why: ai::record::DealMismatch) -> wire::replay::DealMismatch {
    use ai::record::DealMismatch as A;
    use wire::replay::DealMismatch as W;
    let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    match why {
        A::NoSeed => W::NoSeed,
        A::NoCommitment => W::NoCommitment,
        A::NoTable => W::NoTable,
        A::DeckSize { cards, dealt } => W::DeckSize { cards: n(cards), dealt: n(dealt) },
        A::DeckCards { places, first } => W::DeckCards {
            places: n(places),
            first: first
                .into_iter()
                .map(|(i, card, seed_card)| wire::replay::CardMismatch { index: n(i), card, seed_card })
                .collect(),
        },
        A::Commitment { commitment, seed, table, expected } => {
            W::Commitment { commitment, seed: seed.to_string(), table, expected }
        }
    }
}

fn action_value<A: Serialize>(a: &A) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

fn players(p: &Option<cards::BySeat<String>>) -> Option<[String; 4]> {
    p.as_ref().map(|b| b.0.clone())
}

/// The outline and the per-hand parts, once every hand's start, step count and result is known.
struct Outliner {
    outline: ReplayOutline,
    hands_json: String,
    hands: Vec<PreparedHand>,
}

impl Outliner {
    fn new(id: &str, game: GameKind, variants: serde_json::Map<String, Value>, rec_meta: Meta) -> Outliner {
        Outliner {
            outline: ReplayOutline {
                id: id.to_string(),
                game,
                rules: rec_meta.rules,
                variants,
                players: rec_meta.players,
                seed: rec_meta.seed,
                hands: Vec::new(),
                deals: None,
            },
            hands_json: String::new(),
            hands: Vec::new(),
        }
    }

    fn push<H: Serialize, R: Serialize>(
        &mut self,
        start: Start,
        hand: &H,
        steps: u32,
        result: Option<&R>,
    ) -> Result<(), ReplayFailed> {
        let at = self.hands_json.len();
        let json = serde_json::to_string(hand).map_err(|e| ReplayFailed(e.to_string()))?;
        self.hands_json.push_str(&json);
        let result_value = result.map_or(Value::Null, action_value);
        let result_json = result_value.to_string();
        self.outline.hands.push(ReplayHandOutline { steps, result: result_value });
        self.hands.push(PreparedHand { start, json: at..self.hands_json.len(), steps, result: result_json });
        Ok(())
    }

    fn finish(mut self) -> Result<Prepared, ReplayFailed> {
        let outline = serde_json::to_string(&self.outline).map_err(|e| ReplayFailed(e.to_string()))?;
        self.hands_json.shrink_to_fit();
        Ok(Prepared { outline, hands_json: self.hands_json, hands: self.hands })
    }
}

/// What the outline repeats of a record.
struct Meta {
    rules: String,
    players: Option<[String; 4]>,
    seed: Option<u64>,
}

fn meta<H>(rec: &Record<H>) -> Meta {
    Meta { rules: rec.rules.clone(), players: players(&rec.players), seed: rec.seed }
}

// ---------------------------------------------------------------------------------------------
// Madiao

fn madiao_codes(set: ::madiao::Cards) -> Vec<String> {
    set.iter().rev().map(|c| c.to_string()).collect()
}

fn madiao_step(state: &::madiao::State, event: ReplayEvent) -> ReplayStep {
    let mut v = state.view(state.banker());
    v.seat = None;
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
    ReplayStep {
        event,
        hands: std::array::from_fn(|i| madiao_codes(state.hand(Seat::ALL[i]))),
        view: v.into(),
    }
}

/// Plays hand `k` from its setup through its actions, showing `step` each state: as dealt, then
/// after each action.
fn madiao_walk(
    setup: &::madiao::HandSetup,
    actions: &[MadiaoAction],
    k: usize,
    mut step: impl FnMut(&::madiao::State, Event<'_, MadiaoAction>),
) -> Result<(), ReplayFailed> {
    let mut state = ::madiao::State::new(*setup).map_err(|e| ReplayFailed(format!("hand {k}: {e}")))?;
    step(&state, Event::Deal);
    for (j, a) in actions.iter().enumerate() {
        madiao::record::apply_record_action(&mut state, a)
            .map_err(|e| ReplayFailed(format!("hand {k}, action {j}: {e}")))?;
        step(&state, Event::Action(a));
    }
    Ok(())
}

fn madiao_prepare(id: &str, rec: &Record<MadiaoHand>) -> Result<Prepared, ReplayFailed> {
    let checked = madiao::record::replay(rec);
    if let Some(e) = &checked.error {
        return Err(ReplayFailed(e.to_string()));
    }
    let variants = checked.variants.ok_or_else(|| ReplayFailed("the record has no variants".into()))?;
    let names = variants.entries().map(|(k, v)| (k.to_string(), Value::String(v))).collect();
    let mut out = Outliner::new(id, GameKind::Madiao, names, meta(rec));
    for (k, (replayed, recorded)) in checked.hands.iter().zip(&rec.hands).enumerate() {
        let end = &replayed.state;
        let setup = ::madiao::HandSetup {
            banker: end.banker(),
            stake: end.stake(),
            deck: *end.deck(),
            variants,
            progress: end.progress(),
        };
        let mut steps = 0u32;
        madiao_walk(&setup, &recorded.actions, k, |_, _| steps += 1)?;
        out.push(Start::Madiao(setup), recorded, steps, replayed.result.as_ref())?;
    }
    out.finish()
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
    v.seat = None;
    v.hand.clear();
    let drawing = state.phase() == Phase::Drawing;
    if drawing {
        // The replay shows the whole deal: every seat's twelve cards.
        v.hand_sizes = [12; 4];
    }
    let view = v.into();
    let hands = std::array::from_fn(|i| {
        let s = Seat::ALL[i];
        dabaifen_codes(state, if drawing { state.dealt(s) } else { state.hand(s) })
    });
    ReplayStep { event, hands, view }
}

/// Plays deal `k` from its setup through its actions, showing `step` each state: as dealt, the
/// end of a draw without a showing, after each action, and the end when the last polls pass.
fn dabaifen_walk(
    setup: &::dabaifen::HandSetup,
    actions: &[DabaifenAction],
    k: usize,
    mut step: impl FnMut(&::dabaifen::State, Event<'_, DabaifenAction>),
) -> Result<(), ReplayFailed> {
    use ::dabaifen::{Action, Phase};
    let mut state = ::dabaifen::State::new(setup).map_err(|e| ReplayFailed(format!("hand {k}: {e}")))?;
    step(&state, Event::Deal);
    for (j, a) in actions.iter().enumerate() {
        if state.phase() == Phase::Drawing && !matches!(a, DabaifenAction::Declare { .. }) {
            // Nobody showed: the draw ends (the kitty is turned) before this action.
            while state.phase() == Phase::Drawing {
                state.apply_unchecked(Action::Pass);
            }
            step(&state, Event::DrawEnd);
        }
        dabaifen::record::apply_recorded(&mut state, a)
            .map_err(|e| ReplayFailed(format!("hand {k}, action {j}: {e}")))?;
        step(&state, Event::Action(a));
    }
    if state.phase() != Phase::Over {
        let was_drawing = state.phase() == Phase::Drawing;
        while matches!(state.phase(), Phase::Drawing | Phase::Annulling) {
            state.apply_unchecked(Action::Pass);
        }
        if state.phase() == Phase::Over {
            step(&state, if was_drawing { Event::DrawEnd } else { Event::End });
        }
    }
    Ok(())
}

fn dabaifen_prepare(id: &str, rec: &Record<DabaifenHand>) -> Result<Prepared, ReplayFailed> {
    let checked = dabaifen::record::replay(rec);
    if let Some(e) = &checked.error {
        return Err(ReplayFailed(e.to_string()));
    }
    let variants = checked.variants.ok_or_else(|| ReplayFailed("the record has no variants".into()))?;
    let names =
        variants.entries().iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string()))).collect();
    let mut out = Outliner::new(id, GameKind::Dabaifen, names, meta(rec));
    for (k, (replayed, recorded)) in checked.hands.iter().zip(&rec.hands).enumerate() {
        let end = &replayed.state;
        let setup = end.setup();
        let mut steps = 0u32;
        dabaifen_walk(&setup, &recorded.actions, k, |_, _| steps += 1)?;
        out.push(Start::Dabaifen(setup), recorded, steps, end.to_record_result().as_ref())?;
    }
    out.finish()
}

// ---------------------------------------------------------------------------------------------
// The service: turns, the cache and the rate limit of posts

/// A prepared replay in the cache.
struct Entry {
    prepared: Arc<Prepared>,
    cost: usize,
    used: Instant,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<String, Entry>,
    bytes: usize,
}

impl Cache {
    fn remove(&mut self, id: &str) {
        if let Some(e) = self.entries.remove(id) {
            self.bytes -= e.cost;
        }
    }

    fn expire(&mut self, now: Instant, ttl: Duration) {
        let old: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, e)| now.duration_since(e.used) > ttl)
            .map(|(k, _)| k.clone())
            .collect();
        for id in old {
            self.remove(&id);
        }
    }
}

/// The replay service of a server: whose turn it is to replay, the replays kept for their hands
/// to be fetched, and each guest's allowance of posted records. Every part is bounded by its
/// [`ReplayLimits`].
pub struct Replays {
    limits: ReplayLimits,
    turns: Arc<Semaphore>,
    hand_turns: Arc<Semaphore>,
    cache: Mutex<Cache>,
    posts: Mutex<HashMap<String, crate::rate::RateBucket>>,
}

/// A post refused by the rate limit: it may be tried again after this many seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryAfter(pub f64);

impl Replays {
    /// A service with these limits.
    pub fn new(limits: ReplayLimits) -> Replays {
        Replays {
            limits,
            turns: Arc::new(Semaphore::new(limits.concurrent.max(1))),
            hand_turns: Arc::new(Semaphore::new(limits.concurrent_hands.max(1))),
            cache: Mutex::new(Cache::default()),
            posts: Mutex::new(HashMap::new()),
        }
    }

    /// The limits.
    pub fn limits(&self) -> &ReplayLimits {
        &self.limits
    }

    /// Counts a post of `guest` against its allowance; `Err` when it has none left.
    pub fn allow_post(&self, guest: &str) -> Result<(), RetryAfter> {
        let per_second = self.limits.posts_per_minute / 60.0;
        let burst = self.limits.post_burst.max(1.0);
        let Ok(mut posts) = self.posts.lock() else { return Ok(()) };
        if posts.len() > 10_000 {
            // Guests whose allowance is whole again need no entry.
            posts.retain(|_, b| !b.is_full());
        }
        let b =
            posts.entry(guest.to_string()).or_insert_with(|| crate::rate::RateBucket::new(per_second, burst));
        if b.take() {
            Ok(())
        } else if per_second > 0.0 {
            Err(RetryAfter(b.wait_seconds()))
        } else {
            Err(RetryAfter(f64::INFINITY))
        }
    }

    /// A turn to prepare a record, waiting up to [`ReplayLimits::wait_ms`]; `None` when none came.
    pub async fn turn(&self) -> Option<OwnedSemaphorePermit> {
        let wait = Duration::from_millis(self.limits.wait_ms);
        tokio::time::timeout(wait, self.turns.clone().acquire_owned()).await.ok()?.ok()
    }

    /// A turn to make a hand's steps, waiting up to [`ReplayLimits::wait_ms`]; `None` when none came.
    pub async fn hand_turn(&self) -> Option<OwnedSemaphorePermit> {
        let wait = Duration::from_millis(self.limits.wait_ms);
        tokio::time::timeout(wait, self.hand_turns.clone().acquire_owned()).await.ok()?.ok()
    }

    /// The replay kept under `id`, if it is still kept.
    pub fn get(&self, id: &str) -> Option<Arc<Prepared>> {
        let now = Instant::now();
        let ttl = Duration::from_secs(self.limits.ttl_seconds);
        let mut cache = self.cache.lock().ok()?;
        let e = cache.entries.get_mut(id)?;
        if now.duration_since(e.used) > ttl {
            cache.remove(id);
            return None;
        }
        e.used = now;
        Some(e.prepared.clone())
    }

    /// Keeps `prepared` under `id`, letting the least recently used replays go to stay within
    /// [`ReplayLimits::cache_bytes`]. A replay larger than the whole cache is not kept.
    pub fn put(&self, id: &str, prepared: Arc<Prepared>) {
        let now = Instant::now();
        let cost = prepared.cost();
        let Ok(mut cache) = self.cache.lock() else { return };
        cache.remove(id);
        cache.expire(now, Duration::from_secs(self.limits.ttl_seconds));
        if cost > self.limits.cache_bytes {
            return;
        }
        while cache.bytes + cost > self.limits.cache_bytes {
            let Some(oldest) = cache.entries.iter().min_by_key(|(_, e)| e.used).map(|(k, _)| k.clone())
            else {
                break;
            };
            cache.remove(&oldest);
        }
        cache.bytes += cost;
        cache.entries.insert(id.to_string(), Entry { prepared, cost, used: now });
    }

    /// The bytes the kept replays take, and how many there are.
    pub fn cached(&self) -> (usize, usize) {
        self.cache.lock().map(|c| (c.bytes, c.entries.len())).unwrap_or((0, 0))
    }
}
