//! `yezi.vector.VecEnv`: `n` hands stepped together in Rust, the GIL released, into arrays
//! allocated once: observations (n × tensor length, float32), legal-action masks (n × actions,
//! int8), the player to move (n, int32), rewards (n × 4, float32: a finished hand's returns on
//! the step that ends it, else 0) and terminations (n, bool). A finished hand is replaced at once
//! by a new deal (autoreset); the arrays then describe the new hand. Hands that end at the deal
//! with no decision (a Madiao meld or the four lowest) are dealt again and counted in `skipped`.
//!
//! With `seat` given, the other seats are played in Rust by the project's bots (`opponents`):
//! every row is then that seat's decision (one seat against bots, natively vectorized).

use std::sync::Mutex;

use ai::players::Player;
use cards::{Rng, Seat};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};

use crate::core::{Core, TERMINAL};
use crate::dbf::DCore;
use crate::error::Error;
use crate::md::MCore;
use crate::persist::{self, DGameP, DStateP, MGameP, MStateP, Persist};
use crate::{DGame, DState, MGame, MState, verr};

/// The five arrays of a step: observations, masks, players, rewards, terminations.
type Arrays = (Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>);

/// Each hand's opponents (`None` for the learning seat), empty when every seat is the caller's.
type Players<G> = Vec<Vec<Option<Player<G>>>>;

enum Envs {
    Madiao { template: Box<MCore>, envs: Vec<MCore>, players: Players<ai::Madiao> },
    Dabaifen { template: Box<DCore>, envs: Vec<DCore>, players: Players<ai::Dabaifen> },
}

/// A core whose engine state bots can play.
trait Driven: Core {
    type G: ai::Registry;
    /// The engine's state, once the deck is complete.
    fn engine(&self) -> Option<&<Self::G as ai::Game>::State>;
    /// Applies a bot's engine action.
    fn apply_engine(&mut self, a: <Self::G as ai::Game>::Action) -> Result<(), Error>;
}

impl Driven for MCore {
    type G = ai::Madiao;
    fn engine(&self) -> Option<&madiao::State> {
        self.st.as_ref()
    }
    fn apply_engine(&mut self, a: madiao::Action) -> Result<(), Error> {
        Ok(self.st.as_mut().ok_or(Error::Dealing)?.apply(a)?)
    }
}

impl Driven for DCore {
    type G = ai::Dabaifen;
    fn engine(&self) -> Option<&dabaifen::State> {
        self.st.as_ref()
    }
    fn apply_engine(&mut self, a: dabaifen::Action) -> Result<(), Error> {
        Ok(self.st.as_mut().ok_or(Error::Dealing)?.apply(a)?)
    }
}

/// The bots play until the learning seat is to move or the hand is over.
fn advance<C: Driven>(c: &mut C, players: &mut [Option<Player<C::G>>]) -> Result<(), Error> {
    if players.is_empty() {
        return Ok(());
    }
    for _ in 0..10_000 {
        let p = c.current_player();
        let Some(Some(player)) = usize::try_from(p).ok().and_then(|i| players.get_mut(i)) else {
            return Ok(());
        };
        let st = c.engine().ok_or(Error::Dealing)?;
        let seat = Seat::new(p as u8).ok_or(Error::Seat(i64::from(p)))?;
        let legal = <C::G as ai::Game>::legal_actions(st);
        let a = player.choose(st, seat, &legal);
        c.apply_engine(a)?;
    }
    Err(Error::BotsNeverStop)
}

/// The arrays of one step, as slices.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    player: &'a mut [i32],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
}

const BOTS_DO_NOT_PICKLE: &str = "a VecEnv with bots (seat=...) does not pickle: the bots' generators and \
clocks do not travel; pickle one without seat, or make a new one";

#[pyclass(module = "yezi._yezi", name = "VecEnv")]
pub struct VecEnv {
    envs: Mutex<Envs>,
    rngs: Vec<Rng>,
    /// Deals each hand's generator has made since it was seeded.
    deals: Vec<u64>,
    seed: u64,
    info: bool,
    obs_len: usize,
    num_actions: usize,
    skipped: u64,
    episodes: u64,
    #[pyo3(get)]
    observations: Py<PyArray2<f32>>,
    #[pyo3(get)]
    action_masks: Py<PyArray2<i8>>,
    #[pyo3(get)]
    current_players: Py<PyArray1<i32>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    terminations: Py<PyArray1<bool>>,
}

fn deal<C: Driven>(
    c: &mut C,
    template: &C,
    rng: &mut Rng,
    players: &mut [Option<Player<C::G>>],
    skipped: &mut u64,
    deals: &mut u64,
) -> Result<(), Error> {
    for _ in 0..10_000 {
        *c = template.clone();
        c.deal_rest(rng)?;
        *deals += 1;
        advance(c, players)?;
        if c.current_player() != TERMINAL {
            return Ok(());
        }
        *skipped += 1;
    }
    Err(Error::NoDecision)
}

fn write<C: Core>(c: &C, i: usize, o: &mut Out<'_>, info: bool) {
    let p = c.current_player();
    o.player[i] = p;
    c.legal_mask(&mut o.mask[C::NUM_ACTIONS * i..C::NUM_ACTIONS * (i + 1)]);
    let len = if info { C::INFO_LEN } else { C::OBS_LEN };
    let obs = &mut o.obs[len * i..len * (i + 1)];
    match u8::try_from(p).ok().and_then(Seat::new) {
        Some(s) if info => c.information_state(s, obs),
        Some(s) => c.observation(s, obs),
        None => obs.fill(0.0),
    }
}

#[allow(clippy::too_many_arguments)]
fn reset_all<C: Driven>(
    envs: &mut [C],
    template: &C,
    rngs: &mut [Rng],
    players: &mut Players<C::G>,
    o: &mut Out<'_>,
    info: bool,
    skipped: &mut u64,
    deals: &mut [u64],
) -> Result<(), Error> {
    for (i, (c, rng)) in envs.iter_mut().zip(rngs.iter_mut()).enumerate() {
        deal(
            c,
            template,
            rng,
            players.get_mut(i).map_or(&mut [][..], |p| &mut p[..]),
            skipped,
            &mut deals[i],
        )?;
        write(c, i, o, info);
        o.rewards[4 * i..4 * i + 4].fill(0.0);
        o.terminated[i] = false;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn step_all<C: Driven>(
    envs: &mut [C],
    template: &C,
    rngs: &mut [Rng],
    players: &mut Players<C::G>,
    actions: &[i64],
    o: &mut Out<'_>,
    info: bool,
    skipped: &mut u64,
    episodes: &mut u64,
    deals: &mut [u64],
) -> Result<(), Error> {
    for (i, (c, rng)) in envs.iter_mut().zip(rngs.iter_mut()).enumerate() {
        let ps = players.get_mut(i).map_or(&mut [][..], |p| &mut p[..]);
        c.apply(actions[i] as usize).map_err(|e| Error::Env { env: i, source: Box::new(e) })?;
        advance(c, ps)?;
        if c.current_player() == TERMINAL {
            let r = c.returns();
            for (slot, x) in o.rewards[4 * i..4 * i + 4].iter_mut().zip(r) {
                *slot = x as f32;
            }
            o.terminated[i] = true;
            *episodes += 1;
            deal(c, template, rng, ps, skipped, &mut deals[i])?;
        } else {
            o.rewards[4 * i..4 * i + 4].fill(0.0);
            o.terminated[i] = false;
        }
        write(c, i, o, info);
    }
    Ok(())
}

/// Writes every hand's arrays as they stand (after a restore).
fn write_all<C: Core>(envs: &[C], o: &mut Out<'_>, info: bool) {
    for (i, c) in envs.iter().enumerate() {
        write(c, i, o, info);
    }
}

/// What a call of [`VecEnv::run`] does.
#[derive(Clone, Copy)]
enum Mode<'a> {
    /// Deal every hand anew.
    Reset,
    /// Apply one action per hand.
    Step(&'a [i64]),
    /// Only write the arrays of the hands as they are.
    Write,
}

/// A pickled `VecEnv`: its game, seed, tensor, each hand (a `State`'s pickle), how many deals each
/// hand's generator has made, the counters and the last step's rewards and terminations.
#[derive(Serialize, Deserialize)]
struct VecP {
    game: GameP,
    seed: u64,
    info: bool,
    deals: Vec<u64>,
    skipped: u64,
    episodes: u64,
    rewards: Vec<f32>,
    terminations: Vec<bool>,
}

#[derive(Serialize, Deserialize)]
enum GameP {
    Madiao { game: MGameP, hands: Vec<MStateP> },
    Dabaifen { game: DGameP, hands: Vec<DStateP> },
}

/// Generators for `n` hands from `seed`, each advanced past `deals[i]` deals (a deal shuffles the
/// `deck` cards left to place, all of them: the template is an empty deck).
fn generators(seed: u64, deals: &[u64], deck: usize) -> Vec<Rng> {
    let mut scratch: Vec<usize> = (0..deck).collect();
    deals
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let mut rng = Rng::from_seed_stream(seed, i as u64);
            for _ in 0..k {
                rng.shuffle(&mut scratch);
            }
            rng
        })
        .collect()
}

impl VecEnv {
    fn run<'py>(&mut self, py: Python<'py>, mode: Mode<'_>) -> PyResult<()> {
        let actions = match mode {
            Mode::Step(a) => Some(a),
            _ => None,
        };
        let obs = self.observations.bind(py).clone();
        let mask = self.action_masks.bind(py).clone();
        let player = self.current_players.bind(py).clone();
        let rewards = self.rewards.bind(py).clone();
        let term = self.terminations.bind(py).clone();
        let mut obs_w = obs.try_readwrite().map_err(|e| verr(format!("observations are borrowed: {e}")))?;
        let mut mask_w = mask.try_readwrite().map_err(|e| verr(format!("action_masks are borrowed: {e}")))?;
        let mut player_w =
            player.try_readwrite().map_err(|e| verr(format!("current_players are borrowed: {e}")))?;
        let mut rewards_w =
            rewards.try_readwrite().map_err(|e| verr(format!("rewards are borrowed: {e}")))?;
        let mut term_w = term.try_readwrite().map_err(|e| verr(format!("terminations are borrowed: {e}")))?;
        let mut o = Out {
            obs: obs_w.as_slice_mut().map_err(verr)?,
            mask: mask_w.as_slice_mut().map_err(verr)?,
            player: player_w.as_slice_mut().map_err(verr)?,
            rewards: rewards_w.as_slice_mut().map_err(verr)?,
            terminated: term_w.as_slice_mut().map_err(verr)?,
        };
        // Every action is checked against the masks before any is applied.
        if let Some(a) = actions {
            for (i, &x) in a.iter().enumerate() {
                let ok = x >= 0
                    && (x as usize) < self.num_actions
                    && o.mask[self.num_actions * i + x as usize] == 1;
                if !ok {
                    return Err(verr(format!("env {i}: action {x} is not legal (see action_masks[{i}])")));
                }
            }
        }
        let info = self.info;
        let mut guard = self.envs.lock().map_err(|_| verr("an earlier step failed inside the bots"))?;
        let envs: &mut Envs = &mut guard;
        let (rngs, skipped, episodes, deals) =
            (&mut self.rngs, &mut self.skipped, &mut self.episodes, &mut self.deals);
        let r = py.detach(move || match (envs, mode) {
            (Envs::Madiao { template, envs, players }, Mode::Reset) => {
                reset_all(envs, template, rngs, players, &mut o, info, skipped, deals)
            }
            (Envs::Dabaifen { template, envs, players }, Mode::Reset) => {
                reset_all(envs, template, rngs, players, &mut o, info, skipped, deals)
            }
            (Envs::Madiao { template, envs, players }, Mode::Step(a)) => {
                step_all(envs, template, rngs, players, a, &mut o, info, skipped, episodes, deals)
            }
            (Envs::Dabaifen { template, envs, players }, Mode::Step(a)) => {
                step_all(envs, template, rngs, players, a, &mut o, info, skipped, episodes, deals)
            }
            (Envs::Madiao { envs, .. }, Mode::Write) => {
                write_all(envs, &mut o, info);
                Ok(())
            }
            (Envs::Dabaifen { envs, .. }, Mode::Write) => {
                write_all(envs, &mut o, info);
                Ok(())
            }
        });
        Ok(r?)
    }

    /// A `VecEnv` over `envs` (every hand still to be dealt or written by [`VecEnv::run`]).
    fn build(py: Python<'_>, envs: Envs, n: usize, seed: u64, info: bool) -> VecEnv {
        let (obs_len, num_actions) = match (&envs, info) {
            (Envs::Madiao { .. }, false) => (MCore::OBS_LEN, MCore::NUM_ACTIONS),
            (Envs::Madiao { .. }, true) => (MCore::INFO_LEN, MCore::NUM_ACTIONS),
            (Envs::Dabaifen { .. }, false) => (DCore::OBS_LEN, DCore::NUM_ACTIONS),
            (Envs::Dabaifen { .. }, true) => (DCore::INFO_LEN, DCore::NUM_ACTIONS),
        };
        VecEnv {
            envs: Mutex::new(envs),
            rngs: (0..n as u64).map(|i| Rng::from_seed_stream(seed, i)).collect(),
            deals: vec![0; n],
            seed,
            info,
            obs_len,
            num_actions,
            skipped: 0,
            episodes: 0,
            observations: PyArray2::<f32>::zeros(py, [n, obs_len], false).unbind(),
            action_masks: PyArray2::<i8>::zeros(py, [n, num_actions], false).unbind(),
            current_players: PyArray1::<i32>::zeros(py, n, false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, 4], false).unbind(),
            terminations: PyArray1::<bool>::zeros(py, n, false).unbind(),
        }
    }

    /// What `__reduce__` writes (only for a `VecEnv` whose seats are all the caller's: the bots
    /// keep generators and clocks of their own that do not travel).
    fn save(&self, py: Python<'_>) -> PyResult<VecP> {
        let guard = self.envs.lock().map_err(|_| verr("an earlier step failed inside the bots"))?;
        let game = match &*guard {
            Envs::Madiao { template, envs, players } => {
                if !players.is_empty() {
                    return Err(PyTypeError::new_err(BOTS_DO_NOT_PICKLE));
                }
                GameP::Madiao {
                    game: MGameP::of(&template.cfg),
                    hands: envs.iter().map(|c| c.save()).collect::<Result<_, _>>()?,
                }
            }
            Envs::Dabaifen { template, envs, players } => {
                if !players.is_empty() {
                    return Err(PyTypeError::new_err(BOTS_DO_NOT_PICKLE));
                }
                GameP::Dabaifen {
                    game: DGameP::of(&template.cfg),
                    hands: envs.iter().map(|c| c.save()).collect::<Result<_, _>>()?,
                }
            }
        };
        let rewards = self.rewards.bind(py).to_vec().map_err(verr)?;
        let terminations = self.terminations.bind(py).to_vec().map_err(verr)?;
        Ok(VecP {
            game,
            seed: self.seed,
            info: self.info,
            deals: self.deals.clone(),
            skipped: self.skipped,
            episodes: self.episodes,
            rewards,
            terminations,
        })
    }

    /// Rebuilds a pickled `VecEnv` (`yezi._yezi._restore`).
    pub fn restore(py: Python<'_>, text: &str) -> PyResult<VecEnv> {
        let p: VecP = persist::from_text(text)?;
        let n = p.deals.len();
        let (envs, deck) = match &p.game {
            GameP::Madiao { game, hands } => {
                let t = MCore::new(game.cfg()?);
                let envs = hands.iter().map(MCore::restore).collect::<Result<Vec<_>, _>>()?;
                (Envs::Madiao { template: Box::new(t), envs, players: Vec::new() }, MCore::DECK)
            }
            GameP::Dabaifen { game, hands } => {
                let t = DCore::new(game.cfg()?);
                let envs = hands.iter().map(DCore::restore).collect::<Result<Vec<_>, _>>()?;
                (Envs::Dabaifen { template: Box::new(t), envs, players: Vec::new() }, DCore::DECK)
            }
        };
        let hands = match &envs {
            Envs::Madiao { envs, .. } => envs.len(),
            Envs::Dabaifen { envs, .. } => envs.len(),
        };
        if n == 0 || hands != n || p.rewards.len() != 4 * n || p.terminations.len() != n {
            return Err(verr("a VecEnv pickle holds one hand, four rewards and a termination per slot"));
        }
        let mut v = VecEnv::build(py, envs, n, p.seed, p.info);
        v.rngs = generators(p.seed, &p.deals, deck);
        v.deals = p.deals;
        v.skipped = p.skipped;
        v.episodes = p.episodes;
        v.run(py, Mode::Write)?;
        {
            let r = v.rewards.bind(py);
            let mut w = r.try_readwrite().map_err(verr)?;
            w.as_slice_mut().map_err(verr)?.copy_from_slice(&p.rewards);
            let t = v.terminations.bind(py);
            let mut w = t.try_readwrite().map_err(verr)?;
            w.as_slice_mut().map_err(verr)?.copy_from_slice(&p.terminations);
        }
        Ok(v)
    }

    fn arrays(&self, py: Python<'_>) -> Arrays {
        (
            self.observations.clone_ref(py).into_any(),
            self.action_masks.clone_ref(py).into_any(),
            self.current_players.clone_ref(py).into_any(),
            self.rewards.clone_ref(py).into_any(),
            self.terminations.clone_ref(py).into_any(),
        )
    }
}

#[pymethods]
impl VecEnv {
    /// `VecEnv(game, n, seed=0, tensor="observation", seat=None, opponents="random",
    /// think_ms=10)`: `game` is a `yezi.madiao.Game`, a `yezi.dabaifen.Game`, `"madiao"` or
    /// `"dabaifen"`; `tensor` `"observation"` or `"information_state"`. Env `i` deals from its own
    /// generator, stream `i` of `seed`. With `seat`, the other seats are the bots `opponents` (one
    /// name, or three in seat order).
    #[new]
    #[pyo3(signature = (game, n, seed=0, tensor="observation", seat=None, opponents=None, think_ms=10))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: usize,
        seed: u64,
        tensor: &str,
        seat: Option<i64>,
        opponents: Option<&Bound<'_, PyAny>>,
        think_ms: u32,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(verr("n must be at least 1"));
        }
        let info = match tensor {
            "observation" => false,
            "information_state" => true,
            t => return Err(verr(format!("tensor is \"observation\" or \"information_state\", not {t:?}"))),
        };
        let seat = seat.map(crate::core::seat).transpose()?;
        let names: Vec<String> = match opponents {
            None => vec!["random".to_string(); 3],
            Some(o) => match o.extract::<String>() {
                Ok(name) => vec![name; 3],
                Err(_) => o.extract::<Vec<String>>()?,
            },
        };
        if names.len() != 3 {
            return Err(verr("opponents is one bot name or three"));
        }
        if seat.is_none() && opponents.is_some() {
            return Err(verr("opponents play the seats other than `seat`: give a seat"));
        }
        let budget = ai::Budget { think_ms };
        fn players<G: ai::Registry>(
            n: usize,
            seed: u64,
            seat: Option<Seat>,
            names: &[String],
            budget: ai::Budget,
        ) -> PyResult<Players<G>> {
            let Some(me) = seat else { return Ok(Vec::new()) };
            (0..n as u64)
                .map(|i| {
                    let mut k = 0;
                    Seat::ALL
                        .iter()
                        .map(|&s| {
                            if s == me {
                                return Ok(None);
                            }
                            let name = &names[k];
                            k += 1;
                            let bot_seed =
                                seed ^ (i << 8 | s.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            Player::new(name, bot_seed, budget).map(Some).map_err(verr)
                        })
                        .collect()
                })
                .collect()
        }
        let mcfg = |g: &Bound<'_, PyAny>| -> PyResult<Option<crate::md::Cfg>> {
            if let Ok(g) = g.extract::<PyRef<'_, MGame>>() {
                return Ok(Some(g.cfg.clone()));
            }
            if g.extract::<String>().ok().as_deref() == Some("madiao") {
                return Ok(Some(MGame::new("standard", 0, 2, None)?.cfg));
            }
            Ok(None)
        };
        let dcfg = |g: &Bound<'_, PyAny>| -> PyResult<Option<crate::dbf::Cfg>> {
            if let Ok(g) = g.extract::<PyRef<'_, DGame>>() {
                return Ok(Some(g.cfg.clone()));
            }
            if g.extract::<String>().ok().as_deref() == Some("dabaifen") {
                return Ok(Some(DGame::new(0, ("2".into(), "2".into()), true, false, None)?.cfg));
            }
            Ok(None)
        };
        let envs = if let Some(c) = mcfg(game)? {
            let t = MCore::new(c);
            let players = players::<ai::Madiao>(n, seed, seat, &names, budget)?;
            Envs::Madiao { envs: vec![t.clone(); n], template: Box::new(t), players }
        } else if let Some(c) = dcfg(game)? {
            let t = DCore::new(c);
            let players = players::<ai::Dabaifen>(n, seed, seat, &names, budget)?;
            Envs::Dabaifen { envs: vec![t.clone(); n], template: Box::new(t), players }
        } else {
            return Err(verr("game is a yezi.madiao.Game, a yezi.dabaifen.Game, \"madiao\" or \"dabaifen\""));
        };
        let mut v = VecEnv::build(py, envs, n, seed, info);
        v.run(py, Mode::Reset)?;
        Ok(v)
    }

    /// Deals every hand anew (the generators re-seeded from `seed` when given) and returns
    /// `(observations, action_masks, current_players)`.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<(Py<PyAny>, Py<PyAny>, Py<PyAny>)> {
        if let Some(s) = seed {
            self.seed = s;
        }
        let n = self.rngs.len() as u64;
        self.rngs = (0..n).map(|i| Rng::from_seed_stream(self.seed, i)).collect();
        self.deals = vec![0; n as usize];
        self.run(py, Mode::Reset)?;
        let (o, m, p, _, _) = self.arrays(py);
        Ok((o, m, p))
    }

    /// Applies one action id per hand (for its player to move) and returns `(observations,
    /// action_masks, current_players, rewards, terminations)` — the same arrays every time.
    /// `actions` is any one-dimensional array of integers (any integer dtype) or a sequence of
    /// ints; a value outside the ids is refused like an illegal one.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Arrays> {
        let a = action_ids(py, actions)?;
        if a.len() != self.rngs.len() {
            return Err(verr(format!("step takes {} actions, not {}", self.rngs.len(), a.len())));
        }
        self.run(py, Mode::Step(&a))?;
        Ok(self.arrays(py))
    }

    /// Hand `i`'s `State` (a copy: changing it leaves the hand alone).
    fn state(&self, py: Python<'_>, i: i64) -> PyResult<Py<PyAny>> {
        let n = self.rngs.len();
        let i = usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("a VecEnv of {n} hands has no hand {i}"))
        })?;
        let guard = self.envs.lock().map_err(|_| verr("an earlier step failed inside the bots"))?;
        Ok(match &*guard {
            Envs::Madiao { envs, .. } => {
                MState { core: envs[i].clone() }.into_pyobject(py)?.into_any().unbind()
            }
            Envs::Dabaifen { envs, .. } => {
                DState { core: envs[i].clone() }.into_pyobject(py)?.into_any().unbind()
            }
        })
    }

    /// Pickling: the game, the seed and each hand (JSON text); see `persist`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let text = persist::to_text(&self.save(py)?)?;
        Ok((py.import("yezi._yezi")?.getattr("_restore")?, ("VecEnv", text)))
    }

    /// The seed the generators were made from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// How many hands run together.
    fn __len__(&self) -> usize {
        self.rngs.len()
    }
    /// The length of one observation row.
    #[getter]
    fn observation_size(&self) -> usize {
        self.obs_len
    }
    /// How many action ids there are.
    #[getter]
    fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Hands finished so far.
    #[getter]
    fn episodes(&self) -> u64 {
        self.episodes
    }
    /// Deals that ended before any decision and were dealt again.
    #[getter]
    fn skipped(&self) -> u64 {
        self.skipped
    }
}

/// The action ids of `step`: a one-dimensional integer array (any integer dtype) or a sequence of
/// ints, as int64 (a uint64 beyond int64 becomes negative, which no mask allows).
fn action_ids(py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (actions,))?;
    let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions are integers (an integer array or a list of ints), not dtype {}",
            arr.getattr("dtype")?.str()?
        )));
    }
    let ndim: usize = arr.getattr("ndim")?.extract()?;
    if ndim != 1 {
        return Err(verr(format!("actions are one-dimensional (one id per hand), not {ndim}-dimensional")));
    }
    let a = arr.call_method1("astype", ("int64",))?;
    let a = a.cast::<PyArray1<i64>>().map_err(|e| verr(e.to_string()))?;
    a.to_vec().map_err(verr)
}
