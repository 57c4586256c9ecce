//! `yezi._yezi`: the native module behind the `yezi` Python package. Python reaches it through
//! `yezi.madiao`, `yezi.dabaifen`, `yezi.vector`, `yezi.bots` and the adapters; the encodings and
//! tensor layouts are documented in `docs/python.md`.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

mod arena;
mod bots;
mod core;
mod dbf;
mod error;
mod md;
mod persist;
mod vector;

use crate::core::{Core, TERMINAL, seat};
use crate::error::Error;
use crate::persist::Persist;
use dbf::DCore;
use md::MCore;

fn verr(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The chance outcomes' `(card, probability)` pairs of a deck of `deck` cards, built once:
/// entry `(n - 1) * deck + c` is `(c, 1 / n)`, card `c` with `n` cards left to place.
fn outcome_pairs<'a>(
    py: Python<'_>,
    cell: &'a PyOnceLock<Vec<Py<PyTuple>>>,
    deck: usize,
) -> PyResult<&'a Vec<Py<PyTuple>>> {
    cell.get_or_try_init(py, || {
        let mut v = Vec::with_capacity(deck * deck);
        for n in 1..=deck {
            for c in 0..deck {
                v.push(
                    PyTuple::new(
                        py,
                        [c.into_pyobject(py)?.into_any(), (1.0 / n as f64).into_pyobject(py)?.into_any()],
                    )?
                    .unbind(),
                );
            }
        }
        Ok(v)
    })
}

/// A JSON text as Python objects.
fn json_to_py<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// `out` checked (length, contiguity) or a new zeroed array.
fn out_or_new<'py, T: numpy::Element + Default + Copy>(
    py: Python<'py>,
    out: Option<Bound<'py, PyArray1<T>>>,
    len: usize,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    match out {
        Some(a) => {
            let n = PyUntypedArrayMethods::len(&a);
            if n != len {
                return Err(verr(format!("out has {n} elements; {len} are needed")));
            }
            if !a.is_contiguous() {
                return Err(verr("out must be a contiguous array"));
            }
            Ok(a)
        }
        None => Ok(PyArray1::<T>::zeros(py, len, false)),
    }
}

fn fill<'py, T: numpy::Element>(a: &Bound<'py, PyArray1<T>>, f: impl FnOnce(&mut [T])) -> PyResult<()> {
    let mut w = a.try_readwrite().map_err(|e| verr(format!("out cannot be written: {e}")))?;
    let s = w.as_slice_mut().map_err(verr)?;
    f(s);
    Ok(())
}

macro_rules! state_class {
    ($State:ident, $Core:ty, $pyname:literal, { $($extra:tt)* }) => {
        #[pyclass(module = "yezi._yezi", name = $pyname, from_py_object)]
        #[derive(Clone)]
        pub struct $State {
            pub core: $Core,
        }

        #[pymethods]
        impl $State {
            /// The seat to act (0–3), -1 at a chance node, -4 once the hand is over.
            fn current_player(&self) -> i32 {
                self.core.current_player()
            }
            /// True while the deck is being placed card by card.
            fn is_chance_node(&self) -> bool {
                self.core.is_chance()
            }
            /// True once the hand is over.
            fn is_terminal(&self) -> bool {
                self.core.current_player() == TERMINAL
            }
            /// The chance outcomes (card ids) with their probabilities (uniform).
            fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                // The (card, 1/n) pairs are built once per class and shared (tuples are
                // immutable): a call only fills a new list with references to them.
                static PAIRS: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();
                if !self.core.is_chance() {
                    return Ok(PyList::empty(py));
                }
                let pairs = outcome_pairs(py, &PAIRS, <$Core>::DECK)?;
                let left = <$Core>::DECK - self.core.deck_len();
                let row = &pairs[(left - 1) * <$Core>::DECK..left * <$Core>::DECK];
                let dealt = self.core.dealt_mask();
                let mut ids = [0u8; <$Core>::DECK];
                let mut k = 0;
                for c in 0..<$Core>::DECK {
                    if dealt >> c & 1 == 0 {
                        ids[k] = c as u8;
                        k += 1;
                    }
                }
                PyList::new(py, ids[..k].iter().map(|&c| row[usize::from(c)].bind_borrowed(py)))
            }
            /// The legal action ids, ascending (the chance outcomes at a chance node).
            fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                let mut m = [0i8; <$Core>::NUM_ACTIONS];
                self.core.legal_mask(&mut m);
                let mut ids = [0u8; <$Core>::NUM_ACTIONS];
                let mut k = 0;
                for (i, &b) in m.iter().enumerate() {
                    if b == 1 {
                        ids[k] = i as u8;
                        k += 1;
                    }
                }
                PyList::new(py, &ids[..k])
            }
            /// 1 for each legal action id (int8, as every mask of the package), written into
            /// `out` when given.
            #[pyo3(signature = (out=None))]
            fn legal_action_mask<'py>(
                &self,
                py: Python<'py>,
                out: Option<Bound<'py, PyArray1<i8>>>,
            ) -> PyResult<Bound<'py, PyArray1<i8>>> {
                let a = out_or_new(py, out, <$Core>::NUM_ACTIONS)?;
                fill(&a, |s| self.core.legal_mask(s))?;
                Ok(a)
            }
            /// Applies an action id (a chance outcome at a chance node).
            fn apply_action(&mut self, action: i64) -> PyResult<()> {
                let id = usize::try_from(action).map_err(|_| verr(format!("an action id is not negative: {action}")))?;
                Ok(self.core.apply(id)?)
            }
            /// Each seat's payoff (zero until the hand is over).
            fn returns(&self) -> Vec<f64> {
                self.core.returns().to_vec()
            }
            /// An independent copy.
            fn clone(&self) -> Self {
                Clone::clone(self)
            }
            fn __copy__(&self) -> Self {
                Clone::clone(self)
            }
            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                Clone::clone(self)
            }
            /// Everything `player` has seen, as float32 (written into `out` when given).
            #[pyo3(signature = (player, out=None))]
            fn information_state_tensor<'py>(
                &self,
                py: Python<'py>,
                player: i64,
                out: Option<Bound<'py, PyArray1<f32>>>,
            ) -> PyResult<Bound<'py, PyArray1<f32>>> {
                let p = seat(player)?;
                let a = out_or_new(py, out, <$Core>::INFO_LEN)?;
                fill(&a, |s| self.core.information_state(p, s))?;
                Ok(a)
            }
            /// What `player` sees now, as float32 (written into `out` when given).
            #[pyo3(signature = (player, out=None))]
            fn observation_tensor<'py>(
                &self,
                py: Python<'py>,
                player: i64,
                out: Option<Bound<'py, PyArray1<f32>>>,
            ) -> PyResult<Bound<'py, PyArray1<f32>>> {
                let p = seat(player)?;
                let a = out_or_new(py, out, <$Core>::OBS_LEN)?;
                fill(&a, |s| self.core.observation(p, s))?;
                Ok(a)
            }
            /// Everything `player` has seen, as text (its view as JSON).
            fn information_state_string(&self, player: i64) -> PyResult<String> {
                Ok(self.core.information_state_string(seat(player)?))
            }
            /// What `player` sees now, as a short text.
            fn observation_string(&self, player: i64) -> PyResult<String> {
                Ok(self.core.observation_string(seat(player)?))
            }
            /// The engine's view of `player` as a dict (the server's wire form).
            fn view<'py>(&self, py: Python<'py>, player: i64) -> PyResult<Bound<'py, PyAny>> {
                let p = seat(player)?;
                let st = self.core.st.as_ref().ok_or(Error::Dealing)?;
                let text = serde_json::to_string(&st.view(p)).map_err(verr)?;
                json_to_py(py, &text)
            }
            /// A state `player` cannot tell from this one, its hidden cards drawn by the bots'
            /// sampler with `seed`.
            fn resample_from_infostate(&self, player: i64, seed: u64) -> PyResult<Self> {
                let p = seat(player)?;
                Ok($State { core: self.core.resample(p, seed)? })
            }
            /// The hand as a `yezi/1` record (JSON text).
            fn to_record(&self) -> PyResult<String> {
                Ok(self.core.to_record()?)
            }
            /// Pickling: the state as its game, deck, `yezi/1` record and picks (JSON text),
            /// rebuilt by `yezi._yezi._restore` through the engine.
            fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
                let text = persist::to_text(&self.core.save()?)?;
                Ok((restorer(py)?, ($pyname, text)))
            }
            /// Two states are equal when they are the same position of the same game: the same
            /// setup, deck, actions and picks.
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
                let Ok(other) = other.extract::<PyRef<'_, Self>>() else { return Ok(false) };
                Ok(self.core.save()? == other.core.save()?)
            }
            fn __str__(&self) -> String {
                self.core.text()
            }
            fn __repr__(&self) -> String {
                format!("<{} player {}>", $pyname, self.core.current_player())
            }
            $($extra)*
        }
    };
}

/// What both cores add for the Python classes.
pub trait Extra {
    /// A state `p` cannot tell from this one, its hidden cards drawn by the bots' sampler with
    /// `seed`.
    fn resample(&self, p: cards::Seat, seed: u64) -> Result<Self, Error>
    where
        Self: Sized;
    /// The hand as a `yezi/1` record (JSON text).
    fn to_record(&self) -> Result<String, Error>;
    /// The state as text: the phase and every hand.
    fn text(&self) -> String;
}

impl Extra for MCore {
    fn resample(&self, p: cards::Seat, seed: u64) -> Result<MCore, Error> {
        let st = self.st.as_ref().ok_or(Error::ResampleDealing)?;
        let mut rng = cards::Rng::from_seed(seed);
        let new = ai::resample::madiao(st, p, &mut rng)?;
        let deck = new.deck().to_vec();
        let dealt = deck.iter().fold(0u64, |m, c| m | 1 << c.number());
        Ok(MCore { cfg: self.cfg.clone(), deck, dealt, st: Some(new) })
    }
    fn to_record(&self) -> Result<String, Error> {
        let st = self.st.as_ref().ok_or(Error::Dealing)?;
        let rec = madiao::record::to_record(self.cfg.rules, &self.cfg.variants, None, [st])?;
        serde_json::to_string_pretty(&rec).map_err(Error::Json)
    }
    fn text(&self) -> String {
        match &self.st {
            None => format!("dealing: {} of 40 cards placed", self.deck.len()),
            Some(st) => {
                let mut s = format!(
                    "{:?}, banker {}, upcard {}",
                    st.phase(),
                    st.banker().number(),
                    st.upcard().code()
                );
                for seat in cards::Seat::ALL {
                    let hand: Vec<&str> = st.hand(seat).iter().map(|c| c.code()).collect();
                    s.push_str(&format!("\n{}: {}", seat.number(), hand.join(" ")));
                }
                s
            }
        }
    }
}

impl Extra for DCore {
    fn resample(&self, p: cards::Seat, seed: u64) -> Result<DCore, Error> {
        let st = self.st.as_ref().ok_or(Error::ResampleDealing)?;
        let mut rng = cards::Rng::from_seed(seed);
        let new = ai::resample::dabaifen(st, p, &mut rng)?;
        let deck = new.deck().to_vec();
        let dealt = deck.iter().fold(0u64, |m, c| m | 1 << c.number());
        // The picks are the mover's: kept for the mover's own resample, unseen by the others.
        let picked = if st.to_move() == Some(p) { self.picked } else { 0 };
        Ok(DCore { cfg: self.cfg.clone(), deck, dealt, st: Some(new), picked })
    }
    fn to_record(&self) -> Result<String, Error> {
        let st = self.st.as_ref().ok_or(Error::Dealing)?;
        let rec =
            dabaifen::record::match_record(&self.cfg.variants, None, vec![dabaifen::record::hand_record(st)]);
        serde_json::to_string_pretty(&rec).map_err(Error::Json)
    }
    fn text(&self) -> String {
        match &self.st {
            None => format!("dealing: {} of 54 cards placed", self.deck.len()),
            Some(st) => {
                let mut s = format!("{:?}, starter {}", st.phase(), st.starter().number());
                for seat in cards::Seat::ALL {
                    let hand: Vec<String> = st.hand(seat).iter().map(|c| c.to_string()).collect();
                    s.push_str(&format!("\n{}: {}", seat.number(), hand.join(" ")));
                }
                s
            }
        }
    }
}

state_class!(MState, MCore, "MadiaoState", {});
state_class!(DState, DCore, "DabaifenState", {
    /// Every legal burial or play as rows of a (N, 54) int8 array (no rows in other phases).
    fn legal_plays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let sets = self.core.legal_sets();
        let a = PyArray2::<i8>::zeros(py, [sets.len(), 54], false);
        {
            let mut w = a.readwrite();
            let s = w.as_slice_mut().map_err(verr)?;
            for (i, set) in sets.iter().enumerate() {
                for c in 0..54 {
                    s[54 * i + c] = (set >> c & 1) as i8;
                }
            }
        }
        Ok(a)
    }
    /// Plays (or buries) a whole set of card ids at once.
    fn apply_play(&mut self, cards: Vec<i64>) -> PyResult<()> {
        let mut set = 0u64;
        for c in cards {
            if !(0..54).contains(&c) {
                return Err(verr(format!("a card id is 0–53, not {c}")));
            }
            set |= 1 << c;
        }
        Ok(self.core.apply_set(set)?)
    }
    /// The card ids picked so far for the set being built.
    fn picked(&self) -> Vec<usize> {
        (0..54).filter(|c| self.core.picked >> c & 1 == 1).collect()
    }
});

fn madiao_rules(rules: &str) -> PyResult<&'static str> {
    madiao::variants::PRESETS.iter().copied().find(|p| *p == rules).ok_or_else(|| {
        verr(format!("unknown Madiao rules {rules:?}; known: {}", madiao::variants::PRESETS.join(", ")))
    })
}

fn kwargs(v: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = v {
        for (k, val) in d.iter() {
            let val = if let Ok(b) = val.extract::<bool>() { b.to_string() } else { val.str()?.to_string() };
            out.push((k.extract::<String>()?, val));
        }
    }
    Ok(out)
}

/// `yezi.madiao.Game(rules="standard", banker=0, stake=2, **variants)`.
#[pyclass(module = "yezi._yezi", name = "MadiaoGame", from_py_object)]
#[derive(Clone)]
pub struct MGame {
    pub cfg: md::Cfg,
}

#[pymethods]
impl MGame {
    #[new]
    #[pyo3(signature = (rules="standard", banker=0, stake=2, **variants))]
    fn new(rules: &str, banker: i64, stake: u32, variants: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let rules = madiao_rules(rules)?;
        let mut v = madiao::Variants::preset(rules).map_err(verr)?;
        for (k, val) in kwargs(variants)? {
            v.set(&k, &val).map_err(verr)?;
        }
        if stake == 0 || stake % 2 == 1 {
            return Err(Error::Stake(stake).into());
        }
        let cfg = md::Cfg {
            rules,
            variants: v,
            banker: seat(banker)?,
            stake,
            progress: madiao::MatchProgress::default(),
        };
        Ok(MGame { cfg })
    }
    /// A new hand: at its first chance node, or dealt from `deck` (40 card ids, top first), or
    /// from hand `deal` of `seed` (the engine's seeding, as `yezi sim`).
    #[pyo3(signature = (seed=None, deal=0, deck=None, banker=None, hands_before=0, banked=None))]
    fn new_initial_state(
        &self,
        seed: Option<u64>,
        deal: u64,
        deck: Option<Vec<i64>>,
        banker: Option<i64>,
        hands_before: u32,
        banked: Option<Vec<bool>>,
    ) -> PyResult<MState> {
        let mut cfg = self.cfg.clone();
        if let Some(b) = banker {
            cfg.banker = seat(b)?;
        }
        cfg.progress = md::progress(hands_before, banked)?;
        let mut core = MCore::new(cfg);
        let ids: Option<Vec<i64>> = match (seed, deck) {
            (Some(_), Some(_)) => return Err(verr("give a seed or a deck, not both")),
            (Some(s), None) => {
                Some(madiao::deck_from_seed(s, deal).iter().map(|c| i64::from(c.number())).collect())
            }
            (None, d) => d,
        };
        if let Some(ids) = ids {
            if ids.len() != 40 {
                return Err(verr(format!("a Madiao deck has 40 cards, not {}", ids.len())));
            }
            for id in ids {
                core.apply(usize::try_from(id).map_err(verr)?)?;
            }
        }
        Ok(MState { core })
    }
    fn num_players(&self) -> usize {
        4
    }
    fn num_distinct_actions(&self) -> usize {
        md::NUM_ACTIONS
    }
    fn max_chance_outcomes(&self) -> usize {
        40
    }
    fn observation_tensor_size(&self) -> usize {
        md::OBS_LEN
    }
    fn information_state_tensor_size(&self) -> usize {
        md::INFO_LEN
    }
    /// The rules as name → value.
    fn variants(&self) -> Vec<(String, String)> {
        self.cfg.variants.entries().map(|(k, v)| (k.to_string(), v)).collect()
    }
    /// Pickling: the game as its setup (JSON text).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((restorer(py)?, ("MadiaoGame", persist::to_text(&persist::MGameP::of(&self.cfg))?)))
    }
    /// Two games are equal when they have the same rules and setup.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Self>>()
            .is_ok_and(|o| persist::MGameP::of(&self.cfg) == persist::MGameP::of(&o.cfg))
    }
    fn __repr__(&self) -> String {
        format!(
            "yezi.madiao.Game(rules={:?}, banker={}, stake={})",
            self.cfg.rules,
            self.cfg.banker.number(),
            self.cfg.stake
        )
    }
}

/// `yezi.dabaifen.Game(starter=0, ranks=("2", "2"), first_deal=True, open=False, **variants)`.
#[pyclass(module = "yezi._yezi", name = "DabaifenGame", from_py_object)]
#[derive(Clone)]
pub struct DGame {
    pub cfg: dbf::Cfg,
}

#[pymethods]
impl DGame {
    #[new]
    #[pyo3(signature = (starter=0, ranks=("2".to_string(), "2".to_string()), first_deal=true, open=false, **variants))]
    fn new(
        starter: i64,
        ranks: (String, String),
        first_deal: bool,
        open: bool,
        variants: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut v = dabaifen::Variants::STANDARD;
        for (k, val) in kwargs(variants)? {
            v.set(&k, &val).map_err(verr)?;
        }
        let ranks = [
            dabaifen::card::parse_rank(&ranks.0).map_err(verr)?,
            dabaifen::card::parse_rank(&ranks.1).map_err(verr)?,
        ];
        let cfg = dbf::Cfg { variants: v, starter: seat(starter)?, ranks, first_deal, open };
        // The setup's own checks (first deal at 2 and 2, not first and open, …), on any deck.
        let probe = dabaifen::HandSetup {
            deck: dabaifen::setup::canonical_deck(),
            starter: cfg.starter,
            first_deal,
            open,
            ranks,
            variants: v,
        };
        dabaifen::State::new(&probe).map_err(verr)?;
        Ok(DGame { cfg })
    }
    /// A new deal: at its first chance node, or dealt from `deck` (54 card ids, top first), or
    /// from deal `deal` of `seed` (the engine's seeding, as `yezi sim`).
    #[pyo3(signature = (seed=None, deal=0, deck=None))]
    fn new_initial_state(&self, seed: Option<u64>, deal: u64, deck: Option<Vec<i64>>) -> PyResult<DState> {
        let mut core = DCore::new(self.cfg.clone());
        let ids: Option<Vec<i64>> = match (seed, deck) {
            (Some(_), Some(_)) => return Err(verr("give a seed or a deck, not both")),
            (Some(s), None) => {
                Some(dabaifen::deck_from_seed(s, deal).iter().map(|c| i64::from(c.number())).collect())
            }
            (None, d) => d,
        };
        if let Some(ids) = ids {
            if ids.len() != 54 {
                return Err(verr(format!("a Da Bai Fen deck has 54 cards, not {}", ids.len())));
            }
            for id in ids {
                core.apply(usize::try_from(id).map_err(verr)?)?;
            }
        }
        Ok(DState { core })
    }
    fn num_players(&self) -> usize {
        4
    }
    fn num_distinct_actions(&self) -> usize {
        dbf::NUM_ACTIONS
    }
    fn max_chance_outcomes(&self) -> usize {
        54
    }
    fn observation_tensor_size(&self) -> usize {
        dbf::OBS_LEN
    }
    fn information_state_tensor_size(&self) -> usize {
        dbf::INFO_LEN
    }
    /// The rules as name → value.
    fn variants(&self) -> Vec<(String, String)> {
        self.cfg.variants.entries().iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }
    /// Pickling: the game as its setup (JSON text).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((restorer(py)?, ("DabaifenGame", persist::to_text(&persist::DGameP::of(&self.cfg))?)))
    }
    /// Two games are equal when they have the same rules and setup.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, Self>>()
            .is_ok_and(|o| persist::DGameP::of(&self.cfg) == persist::DGameP::of(&o.cfg))
    }
    fn __repr__(&self) -> String {
        format!("yezi.dabaifen.Game(starter={})", self.cfg.starter.number())
    }
}

/// The random playouts of `yezi bench madiao`, step by step: the generator that draws bankers,
/// shuffles the carried deck and chooses random actions, in the bench's order.
#[pyclass(module = "yezi._yezi", name = "MadiaoBenchStream")]
pub struct MBench {
    rng: cards::Rng,
    deck: [madiao::Card; 40],
    sampler: madiao::random::Sampler,
}

#[pymethods]
impl MBench {
    #[new]
    fn new(seed: u64) -> Self {
        MBench {
            rng: cards::Rng::from_seed(seed),
            deck: madiao::canonical_deck(),
            sampler: madiao::random::Sampler::from(madiao::random::RandomPolicy::default()),
        }
    }
    /// A banker drawn as the bench draws one.
    fn draw_banker(&mut self) -> u8 {
        madiao::BankerDraw::from_rng(&mut self.rng).banker.number()
    }
    /// The next deck (the previous one shuffled again), as card ids.
    fn next_deck(&mut self) -> Vec<u8> {
        madiao::random::shuffle_batched(&mut self.rng, &mut self.deck);
        self.deck.iter().map(|c| c.number()).collect()
    }
    /// The bench's random action for the state, as an action id (`None` once it is over).
    fn choose(&mut self, state: &MState) -> PyResult<Option<usize>> {
        let st = state.core.st.as_ref().ok_or_else(|| verr("a chance node"))?;
        Ok(self.sampler.choose(st, &mut self.rng).map(MCore::id))
    }
}

/// A Da Bai Fen match: the setup of each deal from the results so far (ranks, starter).
#[pyclass(module = "yezi._yezi", name = "DabaifenMatch")]
pub struct DMatch {
    m: dabaifen::Match,
}

#[pymethods]
impl DMatch {
    /// A match whose provisional first starter is `starter`, or drawn for deal `deal` of `seed`
    /// as `yezi sim` and `yezi bench` draw it.
    #[new]
    #[pyo3(signature = (starter=None, seed=None, deal=0, **variants))]
    fn new(
        starter: Option<i64>,
        seed: Option<u64>,
        deal: u64,
        variants: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut v = dabaifen::Variants::STANDARD;
        for (k, val) in kwargs(variants)? {
            v.set(&k, &val).map_err(verr)?;
        }
        let starter = match (starter, seed) {
            (Some(s), None) => seat(s)?,
            (None, Some(seed)) => {
                let mut rng = cards::Rng::from_seed_stream(seed, dabaifen::setup::FIRST_DRAW_STREAM + deal);
                dabaifen::first_draw(&mut rng).starter
            }
            _ => return Err(verr("give a starter or a seed")),
        };
        Ok(DMatch { m: dabaifen::Match::new(v, starter) })
    }
    /// The next deal with the deck of deal `deal` of `seed`.
    fn new_state(&self, seed: u64, deal: u64) -> PyResult<DState> {
        let setup = self.m.setup(dabaifen::deck_from_seed(seed, deal));
        let cfg = dbf::Cfg {
            variants: setup.variants,
            starter: setup.starter,
            ranks: setup.ranks,
            first_deal: setup.first_deal,
            open: setup.open,
        };
        let mut core = DCore::new(cfg);
        for c in setup.deck {
            core.apply(c.number() as usize)?;
        }
        Ok(DState { core })
    }
    /// Records a finished deal.
    fn record(&mut self, state: &DState) -> PyResult<()> {
        let r =
            state.core.st.as_ref().and_then(|s| s.result()).ok_or_else(|| verr("the deal is not over"))?;
        self.m.record(r);
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.m.is_over()
    }
}

/// The random policy of `yezi bench dabaifen` for deal `deal` of `seed`.
#[pyclass(module = "yezi._yezi", name = "DabaifenRandomPolicy")]
pub struct DPolicy {
    p: dabaifen::random::RandomPolicy,
}

#[pymethods]
impl DPolicy {
    #[new]
    fn new(seed: u64, deal: u64) -> Self {
        DPolicy { p: dabaifen::random::RandomPolicy::new(dabaifen::deal_from_seed(seed, deal).1) }
    }
    /// Its choice as the action ids that play it.
    fn choose(&mut self, state: &DState) -> PyResult<Vec<usize>> {
        let st = state.core.st.as_ref().ok_or_else(|| verr("a chance node"))?;
        if st.to_move().is_none() {
            return Err(verr("the deal is over"));
        }
        if state.core.picked != 0 {
            return Err(verr("cards are already picked"));
        }
        let a = self.p.choose(st);
        Ok(DCore::ids_of(st, a))
    }
}

/// The deal result of a finished Da Bai Fen state, as the bench's checksum reads it.
#[pyfunction]
fn dabaifen_result<'py>(py: Python<'py>, state: &DState) -> PyResult<Bound<'py, PyAny>> {
    let r = state.core.st.as_ref().and_then(|s| s.result()).ok_or_else(|| verr("the deal is not over"))?;
    let d = PyDict::new(py);
    d.set_item("defender_points", r.defender_points)?;
    d.set_item("ranks", (r.ranks[0].index(), r.ranks[1].index()))?;
    d.set_item("next_starter", r.next_starter.number())?;
    d.set_item("outcome", r.outcome as u8)?;
    d.set_item("levels", r.levels)?;
    d.set_item("winner", r.winner)?;
    d.set_item("game_over", r.game_over)?;
    Ok(d.into_any())
}

/// The Madiao hand's payoffs in half stakes, tricks per seat, whether the match is over and the
/// next banker (as the bench reads them).
#[pyfunction]
fn madiao_result<'py>(py: Python<'py>, state: &MState) -> PyResult<Bound<'py, PyAny>> {
    let st = state.core.st.as_ref().filter(|s| s.is_over()).ok_or_else(|| verr("the hand is not over"))?;
    let d = PyDict::new(py);
    d.set_item("payoff_halves", st.payoffs().0.map(|h| h.0).to_vec())?;
    d.set_item("tricks", st.tricks().0.to_vec())?;
    d.set_item("game_over", st.game_over())?;
    d.set_item("next_banker", st.next_banker().map(|s| s.number()))?;
    d.set_item("outcome", st.outcome().map(madiao::random::outcome_index))?;
    Ok(d.into_any())
}

/// The checksum `yezi bench madiao|dabaifen --hands N --seed S` prints (standard rules, random
/// play): the same library function the binary calls, for the parity test when no binary is at
/// hand.
#[pyfunction]
fn bench_checksum(game: &str, hands: u64, seed: u64) -> PyResult<u64> {
    match game {
        "madiao" => {
            let v = madiao::Variants::preset("standard").map_err(verr)?;
            Ok(madiao::random::bench(seed, hands, v, madiao::random::RandomPolicy::default()).checksum)
        }
        "dabaifen" => {
            let v = dabaifen::Variants::preset("standard").map_err(verr)?;
            Ok(dabaifen::random::bench(v, seed, hands).checksum)
        }
        g => Err(verr(format!("game is \"madiao\" or \"dabaifen\", not {g:?}"))),
    }
}

/// The scores the Rust `learned` bot's network gives the 82 Madiao action ids for an observation
/// tensor (`State.observation_tensor`, 515 floats): the bot plays the legal id with the highest.
/// The forward pass is the bot's own (`crates/ai/src/mlp.rs`), so Python can check it.
#[pyfunction]
fn madiao_learned_scores<'py>(
    py: Python<'py>,
    observation: numpy::PyReadonlyArray1<'py, f32>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let x = observation.as_slice().map_err(verr)?;
    if x.len() != md::OBS_LEN {
        return Err(verr(format!("an observation has {} floats, not {}", md::OBS_LEN, x.len())));
    }
    Ok(PyArray1::from_vec(py, ai::madiao::learned::network().forward(x)))
}

/// Replays a `yezi/1` record as `yezi replay` checks it (every action legal, every stored
/// result matching); `ValueError` saying what is wrong otherwise.
#[pyfunction]
fn replay_record(text: &str) -> PyResult<()> {
    let head: serde_json::Value = serde_json::from_str(text).map_err(verr)?;
    let (error, differences) = match head.get("game").and_then(|g| g.as_str()) {
        Some("madiao") => {
            let rec: cards::record::Record<madiao::record::MadiaoHand> =
                serde_json::from_value(head).map_err(verr)?;
            let r = madiao::record::replay(&rec);
            (r.error.clone(), r.differences().collect::<Vec<_>>())
        }
        Some("dabaifen") => {
            let rec: cards::record::Record<dabaifen::record::DabaifenHand> =
                serde_json::from_value(head).map_err(verr)?;
            let r = dabaifen::record::replay(&rec);
            (r.error.clone(), r.differences())
        }
        g => return Err(verr(format!("a record's game is \"madiao\" or \"dabaifen\", not {g:?}"))),
    };
    if let Some(e) = error {
        return Err(verr(format!("hand {:?}, action {:?}: {}", e.hand, e.action, e.reason)));
    }
    if !differences.is_empty() {
        return Err(verr(differences.join("; ")));
    }
    Ok(())
}

/// `yezi._yezi._restore`, the callable pickles name: rebuilds what `__reduce__` wrote.
fn restorer<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    py.import("yezi._yezi")?.getattr("_restore")
}

/// Rebuilds a pickled `Game`, `State` or `VecEnv` from its kind and JSON text (see `persist`).
#[pyfunction]
fn _restore(py: Python<'_>, kind: &str, text: &str) -> PyResult<Py<PyAny>> {
    let obj = match kind {
        "MadiaoGame" => MGame { cfg: persist::from_text::<persist::MGameP>(text).and_then(|p| p.cfg())? }
            .into_pyobject(py)?
            .into_any(),
        "DabaifenGame" => DGame { cfg: persist::from_text::<persist::DGameP>(text).and_then(|p| p.cfg())? }
            .into_pyobject(py)?
            .into_any(),
        "MadiaoState" => MState { core: persist::from_text(text).and_then(|p| MCore::restore(&p))? }
            .into_pyobject(py)?
            .into_any(),
        "DabaifenState" => DState { core: persist::from_text(text).and_then(|p| DCore::restore(&p))? }
            .into_pyobject(py)?
            .into_any(),
        "VecEnv" => vector::VecEnv::restore(py, text)?.into_pyobject(py)?.into_any(),
        k => return Err(verr(format!("no yezi class {k:?} to restore"))),
    };
    Ok(obj.unbind())
}

#[pymodule]
fn _yezi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MGame>()?;
    m.add_class::<MState>()?;
    m.add_class::<DGame>()?;
    m.add_class::<DState>()?;
    m.add_class::<MBench>()?;
    m.add_class::<DMatch>()?;
    m.add_class::<DPolicy>()?;
    m.add_class::<vector::VecEnv>()?;
    m.add_class::<bots::Bot>()?;
    m.add_function(wrap_pyfunction!(dabaifen_result, m)?)?;
    m.add_function(wrap_pyfunction!(madiao_result, m)?)?;
    m.add_function(wrap_pyfunction!(arena::run, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(bench_checksum, m)?)?;
    m.add_function(wrap_pyfunction!(replay_record, m)?)?;
    m.add_function(wrap_pyfunction!(madiao_learned_scores, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CHANCE_PLAYER", core::CHANCE)?;
    m.add("TERMINAL_PLAYER", core::TERMINAL)?;
    Ok(())
}
