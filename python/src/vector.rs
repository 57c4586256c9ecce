//! `yezi.vector.VecEnv`: `n` hands stepped together in Rust, the GIL released, into arrays
//! allocated once: observations (n × tensor length, float32), legal-action masks (n × actions,
//! uint8), the player to move (n, int32), rewards (n × 4, float32: a finished hand's returns on
//! the step that ends it, else 0) and terminations (n, bool). A finished hand is replaced at once
//! by a new deal (autoreset); the arrays then describe the new hand. Hands that end at the deal
//! with no decision (a Madiao meld or the four lowest) are dealt again and counted in `skipped`.

use cards::{Rng, Seat};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::core::{Core, TERMINAL};
use crate::dbf::DCore;
use crate::md::MCore;
use crate::{DGame, MGame, verr};

/// The five arrays of a step: observations, masks, players, rewards, terminations.
type Arrays = (Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>, Py<PyAny>);

enum Envs {
    Madiao { template: Box<MCore>, envs: Vec<MCore> },
    Dabaifen { template: Box<DCore>, envs: Vec<DCore> },
}

/// The arrays of one step, as slices.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [u8],
    player: &'a mut [i32],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
}

#[pyclass(module = "yezi._yezi", name = "VecEnv")]
pub struct VecEnv {
    envs: Envs,
    rngs: Vec<Rng>,
    seed: u64,
    info: bool,
    obs_len: usize,
    num_actions: usize,
    skipped: u64,
    episodes: u64,
    #[pyo3(get)]
    observations: Py<PyArray2<f32>>,
    #[pyo3(get)]
    action_masks: Py<PyArray2<u8>>,
    #[pyo3(get)]
    current_players: Py<PyArray1<i32>>,
    #[pyo3(get)]
    rewards: Py<PyArray2<f32>>,
    #[pyo3(get)]
    terminations: Py<PyArray1<bool>>,
}

fn deal<C: Core>(c: &mut C, template: &C, rng: &mut Rng, skipped: &mut u64) -> Result<(), String> {
    for _ in 0..10_000 {
        *c = template.clone();
        c.deal_rest(rng)?;
        if c.current_player() != TERMINAL {
            return Ok(());
        }
        *skipped += 1;
    }
    Err("10,000 deals in a row ended with no decision".into())
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

fn reset_all<C: Core>(
    envs: &mut [C],
    template: &C,
    rngs: &mut [Rng],
    o: &mut Out<'_>,
    info: bool,
    skipped: &mut u64,
) -> Result<(), String> {
    for (i, (c, rng)) in envs.iter_mut().zip(rngs.iter_mut()).enumerate() {
        deal(c, template, rng, skipped)?;
        write(c, i, o, info);
        o.rewards[4 * i..4 * i + 4].fill(0.0);
        o.terminated[i] = false;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn step_all<C: Core>(
    envs: &mut [C],
    template: &C,
    rngs: &mut [Rng],
    actions: &[i64],
    o: &mut Out<'_>,
    info: bool,
    skipped: &mut u64,
    episodes: &mut u64,
) -> Result<(), String> {
    for (i, (c, rng)) in envs.iter_mut().zip(rngs.iter_mut()).enumerate() {
        c.apply(actions[i] as usize).map_err(|e| format!("env {i}: {e}"))?;
        if c.current_player() == TERMINAL {
            let r = c.returns();
            for (slot, x) in o.rewards[4 * i..4 * i + 4].iter_mut().zip(r) {
                *slot = x as f32;
            }
            o.terminated[i] = true;
            *episodes += 1;
            deal(c, template, rng, skipped)?;
        } else {
            o.rewards[4 * i..4 * i + 4].fill(0.0);
            o.terminated[i] = false;
        }
        write(c, i, o, info);
    }
    Ok(())
}

impl VecEnv {
    fn run<'py>(&mut self, py: Python<'py>, actions: Option<&[i64]>) -> PyResult<()> {
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
        let (envs, rngs, skipped, episodes) =
            (&mut self.envs, &mut self.rngs, &mut self.skipped, &mut self.episodes);
        let r = py.detach(move || match (envs, actions) {
            (Envs::Madiao { template, envs }, None) => reset_all(envs, template, rngs, &mut o, info, skipped),
            (Envs::Dabaifen { template, envs }, None) => {
                reset_all(envs, template, rngs, &mut o, info, skipped)
            }
            (Envs::Madiao { template, envs }, Some(a)) => {
                step_all(envs, template, rngs, a, &mut o, info, skipped, episodes)
            }
            (Envs::Dabaifen { template, envs }, Some(a)) => {
                step_all(envs, template, rngs, a, &mut o, info, skipped, episodes)
            }
        });
        r.map_err(verr)
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
    /// `VecEnv(game, n, seed=0, tensor="observation")`: `game` is a `yezi.madiao.Game`, a
    /// `yezi.dabaifen.Game`, `"madiao"` or `"dabaifen"`; `tensor` `"observation"` or
    /// `"information_state"`. Env `i` deals from its own generator, stream `i` of `seed`.
    #[new]
    #[pyo3(signature = (game, n, seed=0, tensor="observation"))]
    fn new(py: Python<'_>, game: &Bound<'_, PyAny>, n: usize, seed: u64, tensor: &str) -> PyResult<Self> {
        if n == 0 {
            return Err(verr("n must be at least 1"));
        }
        let info = match tensor {
            "observation" => false,
            "information_state" => true,
            t => return Err(verr(format!("tensor is \"observation\" or \"information_state\", not {t:?}"))),
        };
        let envs = if let Ok(g) = game.extract::<PyRef<'_, MGame>>() {
            let t = MCore::new(g.cfg.clone());
            Envs::Madiao { envs: vec![t.clone(); n], template: Box::new(t) }
        } else if let Ok(g) = game.extract::<PyRef<'_, DGame>>() {
            let t = DCore::new(g.cfg.clone());
            Envs::Dabaifen { envs: vec![t.clone(); n], template: Box::new(t) }
        } else {
            match game.extract::<String>().as_deref() {
                Ok("madiao") => {
                    let t = MCore::new(MGame::new("standard", 0, 2, None)?.cfg);
                    Envs::Madiao { envs: vec![t.clone(); n], template: Box::new(t) }
                }
                Ok("dabaifen") => {
                    let t = DCore::new(DGame::new(0, ("2".into(), "2".into()), true, false, None)?.cfg);
                    Envs::Dabaifen { envs: vec![t.clone(); n], template: Box::new(t) }
                }
                _ => {
                    return Err(verr(
                        "game is a yezi.madiao.Game, a yezi.dabaifen.Game, \"madiao\" or \"dabaifen\"",
                    ));
                }
            }
        };
        let (obs_len, num_actions) = match (&envs, info) {
            (Envs::Madiao { .. }, false) => (MCore::OBS_LEN, MCore::NUM_ACTIONS),
            (Envs::Madiao { .. }, true) => (MCore::INFO_LEN, MCore::NUM_ACTIONS),
            (Envs::Dabaifen { .. }, false) => (DCore::OBS_LEN, DCore::NUM_ACTIONS),
            (Envs::Dabaifen { .. }, true) => (DCore::INFO_LEN, DCore::NUM_ACTIONS),
        };
        let mut v = VecEnv {
            envs,
            rngs: (0..n as u64).map(|i| Rng::from_seed_stream(seed, i)).collect(),
            seed,
            info,
            obs_len,
            num_actions,
            skipped: 0,
            episodes: 0,
            observations: PyArray2::<f32>::zeros(py, [n, obs_len], false).unbind(),
            action_masks: PyArray2::<u8>::zeros(py, [n, num_actions], false).unbind(),
            current_players: PyArray1::<i32>::zeros(py, n, false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, 4], false).unbind(),
            terminations: PyArray1::<bool>::zeros(py, n, false).unbind(),
        };
        v.run(py, None)?;
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
        self.run(py, None)?;
        let (o, m, p, _, _) = self.arrays(py);
        Ok((o, m, p))
    }

    /// Applies one action id per hand (for its player to move) and returns `(observations,
    /// action_masks, current_players, rewards, terminations)` — the same arrays every time.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<Arrays> {
        let a = actions.as_slice().map_err(verr)?.to_vec();
        if a.len() != self.rngs.len() {
            return Err(verr(format!("step takes {} actions, not {}", self.rngs.len(), a.len())));
        }
        self.run(py, Some(&a))?;
        Ok(self.arrays(py))
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
