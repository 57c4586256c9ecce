//! `yezi.arena.run`: the duplicate arena (`ai::arena`) with a Python policy as side A against
//! one of the project's bots as side B. The policy is called as `policy(observation, action_mask,
//! seat) -> action id` with the same tensors and ids as the `State` API (for Da Bai Fen, once per
//! pick of a set), or with `policy_input="state"` as `policy(state) -> action id` on a `State`
//! drawn from the seat's information (never the true state) — for search such as IS-MCTS.

use std::sync::{Arc, Mutex};

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::dbf::{self, DCore};
use crate::md::{self, MCore};
use crate::{json_to_py, kwargs, madiao_rules, verr};

/// The first error of a policy (an exception or an illegal choice); the arena stops on it.
type Failure = Arc<Mutex<Option<String>>>;

struct PolicyBot {
    policy: Py<PyAny>,
    failure: Failure,
}

impl PolicyBot {
    fn fail(&self, e: String) {
        if let Ok(mut f) = self.failure.lock()
            && f.is_none()
        {
            *f = Some(e);
        }
    }

    fn failed(&self) -> bool {
        self.failure.lock().map(|f| f.is_some()).unwrap_or(true)
    }

    /// One call of the policy: the chosen id, if it is allowed by `mask`.
    fn ask(&self, obs: Vec<f32>, mask: Vec<i8>, seat: u8) -> Option<usize> {
        if self.failed() {
            return None;
        }
        Python::attach(|py| {
            let allowed = mask.clone();
            let r = self
                .policy
                .call1(py, (PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask), seat))
                .and_then(|x| x.extract::<usize>(py));
            match r {
                Ok(id) if allowed.get(id) == Some(&1) => Some(id),
                Ok(id) => {
                    self.fail(format!("the policy chose action {id}, which the mask forbids"));
                    None
                }
                Err(e) => {
                    self.fail(format!("the policy raised: {e}"));
                    None
                }
            }
        })
    }
}

impl ai::Bot<ai::Madiao> for PolicyBot {
    fn name(&self) -> &str {
        "python"
    }

    fn choose(&mut self, view: &madiao::View, legal: &[madiao::Action]) -> madiao::Action {
        let mut obs = vec![0f32; md::OBS_LEN];
        md::encode_view(view, &mut obs, false);
        let mut mask = vec![0i8; md::NUM_ACTIONS];
        for &a in legal {
            mask[MCore::id(a)] = 1;
        }
        let seat = view.seat.or(view.to_move).map_or(0, |s| s.number());
        self.ask(obs, mask, seat).and_then(MCore::action).unwrap_or(legal[0])
    }
}

impl ai::Bot<ai::Dabaifen> for PolicyBot {
    fn name(&self) -> &str {
        "python"
    }

    fn choose(&mut self, view: &dabaifen::View, legal: &[dabaifen::Action]) -> dabaifen::Action {
        use dabaifen::{Action, Cards, Phase};
        let seat = view.seat.or(view.to_move).map_or(0, |s| s.number());
        let sets: Vec<Cards> = legal
            .iter()
            .filter_map(|a| match a {
                Action::Play(s) | Action::Bury(s) => Some(*s),
                _ => None,
            })
            .collect();
        let set_action =
            |s: Cards| if view.phase == Phase::Burying { Action::Bury(s) } else { Action::Play(s) };
        if sets.is_empty() {
            let mut mask = vec![0i8; dbf::NUM_ACTIONS];
            for &a in legal {
                if let [id] = DCore::ids_of_unpicked(a)[..] {
                    mask[id] = 1;
                }
            }
            let mut obs = vec![0f32; dbf::OBS_LEN];
            dbf::encode_view(view, 0, &mut obs, false);
            let chosen = self.ask(obs, mask, seat).map(|id| match id {
                dbf::PASS => Action::Pass,
                dbf::ANNUL => Action::Annul,
                c => dabaifen::Card::from_number(c as u8).map_or(Action::Pass, Action::Declare),
            });
            return chosen.filter(|a| legal.contains(a)).unwrap_or(legal[0]);
        }
        let mut picked = Cards::EMPTY;
        for _ in 0..60 {
            let o = dabaifen::pick_options_among(sets.iter().copied(), picked);
            if o.complete && o.next.is_empty() {
                return set_action(picked);
            }
            let mut mask = vec![0i8; dbf::NUM_ACTIONS];
            for c in o.next {
                mask[c.number() as usize] = 1;
            }
            if o.complete {
                mask[dbf::END] = 1;
            }
            let mut obs = vec![0f32; dbf::OBS_LEN];
            dbf::encode_view(view, picked.bits(), &mut obs, false);
            match self.ask(obs, mask, seat) {
                Some(dbf::END) => return set_action(picked),
                Some(c) => {
                    if let Some(card) = dabaifen::Card::from_number(c as u8) {
                        picked.insert(card);
                    }
                }
                None => return legal[0],
            }
        }
        legal[0]
    }
}

/// A policy that is shown a state: not the true one, but one drawn from the seat's information
/// (`ai::resample`), as `resample_from_infostate` gives. The arena seats it as an oracle only to
/// reach the state to resample from.
struct StatePolicy {
    inner: PolicyBot,
    rng: cards::Rng,
}

impl StatePolicy {
    /// Calls the policy on `state` (a Python `State`) until one engine action is complete; the
    /// ids it chose.
    fn ids(&self, state: Py<PyAny>, limit: usize) -> Option<Vec<usize>> {
        if self.inner.failed() {
            return None;
        }
        let r = self.ids_inner(state, limit);
        if r.is_none() {
            self.inner.fail("the policy's choices did not make one action on its state".into());
        }
        r
    }

    fn ids_inner(&self, state: Py<PyAny>, limit: usize) -> Option<Vec<usize>> {
        Python::attach(|py| {
            let mut ids = Vec::new();
            let b = state.bind(py);
            let mover = b.call_method0("current_player").and_then(|x| x.extract::<i32>()).ok()?;
            for _ in 0..limit {
                let mask: Vec<u8> =
                    b.call_method0("legal_actions").and_then(|x| x.extract::<Vec<usize>>()).ok().map(
                        |l| {
                            let mut m = vec![0u8; 82];
                            for i in l {
                                m[i] = 1;
                            }
                            m
                        },
                    )?;
                let r = self.inner.policy.call1(py, (b,)).and_then(|x| x.extract::<usize>(py));
                let id = match r {
                    Ok(id) if mask.get(id) == Some(&1) => id,
                    Ok(id) => {
                        self.inner.fail(format!("the policy chose action {id}, which is not legal"));
                        return None;
                    }
                    Err(e) => {
                        self.inner.fail(format!("the policy raised: {e}"));
                        return None;
                    }
                };
                ids.push(id);
                if b.call_method1("apply_action", (id,)).is_err() {
                    return None;
                }
                let still = b.call_method0("current_player").and_then(|x| x.extract::<i32>()).ok()? == mover;
                let picking = b
                    .call_method0("picked")
                    .and_then(|x| x.extract::<Vec<usize>>())
                    .map(|p| !p.is_empty())
                    .unwrap_or(false);
                if !(still && picking) {
                    return Some(ids);
                }
            }
            None
        })
    }
}

impl ai::Oracle<ai::Madiao> for StatePolicy {
    fn name(&self) -> &str {
        "python"
    }

    fn choose(&mut self, state: &madiao::State, legal: &[madiao::Action]) -> madiao::Action {
        let Some(seat) = state.to_move() else { return legal[0] };
        let sample = match ai::resample::madiao(state, seat, &mut self.rng) {
            Ok(s) => s,
            Err(e) => {
                self.inner.fail(e.to_string());
                return legal[0];
            }
        };
        let deck = sample.deck().to_vec();
        let dealt = deck.iter().fold(0u64, |m, c| m | 1 << c.number());
        let core = MCore { cfg: madiao_cfg(state), deck, dealt, st: Some(sample) };
        let obj = Python::attach(|py| Py::new(py, crate::MState { core }).map(|o| o.into_any()));
        let Ok(obj) = obj else { return legal[0] };
        match self.ids(obj, 1).as_deref() {
            Some([id]) => MCore::action(*id).filter(|a| legal.contains(a)).unwrap_or(legal[0]),
            _ => legal[0],
        }
    }
}

fn madiao_cfg(state: &madiao::State) -> md::Cfg {
    md::Cfg {
        rules: "standard",
        variants: *state.variants(),
        banker: state.banker(),
        stake: state.stake(),
        progress: state.progress(),
    }
}

impl ai::Oracle<ai::Dabaifen> for StatePolicy {
    fn name(&self) -> &str {
        "python"
    }

    fn choose(&mut self, state: &dabaifen::State, legal: &[dabaifen::Action]) -> dabaifen::Action {
        use dabaifen::{Action, Cards, Phase};
        let Some(seat) = state.to_move() else { return legal[0] };
        let sample = match ai::resample::dabaifen(state, seat, &mut self.rng) {
            Ok(s) => s,
            Err(e) => {
                self.inner.fail(e.to_string());
                return legal[0];
            }
        };
        let setup = sample.setup();
        let cfg = dbf::Cfg {
            variants: setup.variants,
            starter: setup.starter,
            ranks: setup.ranks,
            first_deal: setup.first_deal,
            open: setup.open,
        };
        let deck = sample.deck().to_vec();
        let dealt = deck.iter().fold(0u64, |m, c| m | 1 << c.number());
        let phase = sample.phase();
        let core = DCore { cfg, deck, dealt, st: Some(sample), picked: 0 };
        let obj = Python::attach(|py| Py::new(py, crate::DState { core }).map(|o| o.into_any()));
        let Ok(obj) = obj else { return legal[0] };
        let Some(ids) = self.ids(obj, 60) else { return legal[0] };
        let a = match (phase, &ids[..]) {
            (Phase::Burying | Phase::Playing, _) => {
                let set: Cards = ids
                    .iter()
                    .filter(|&&i| i < 54)
                    .filter_map(|&i| dabaifen::Card::from_number(i as u8))
                    .collect();
                if phase == Phase::Burying { Action::Bury(set) } else { Action::Play(set) }
            }
            (_, [dbf::PASS]) => Action::Pass,
            (_, [dbf::ANNUL]) => Action::Annul,
            (_, [c]) => dabaifen::Card::from_number(*c as u8).map_or(Action::Pass, Action::Declare),
            _ => legal[0],
        };
        if legal.contains(&a) { a } else { legal[0] }
    }
}

fn make<G: ai::Registry>(
    side: ai::arena::Side,
    seed: u64,
    baseline: &str,
    budget: ai::Budget,
    policy: &Py<PyAny>,
    failure: &Failure,
    with_state: bool,
) -> Result<ai::players::Player<G>, ai::arena::ArenaError>
where
    PolicyBot: ai::Bot<G>,
    StatePolicy: ai::Oracle<G>,
{
    if side == ai::arena::Side::A {
        let inner = Python::attach(|py| PolicyBot { policy: policy.clone_ref(py), failure: failure.clone() });
        if with_state {
            let rng = cards::Rng::from_seed(seed);
            return Ok(ai::players::Player::Oracle(Box::new(StatePolicy { inner, rng })));
        }
        return Ok(ai::players::Player::Bot(Box::new(inner)));
    }
    Ok(ai::players::Player::new(baseline, seed, budget)?)
}

/// Plays `hands` duplicate deals of `game` (`"madiao"` or `"dabaifen"`), the Python `policy` as
/// side A against the bot `baseline` as side B, and returns the arena's report as a dict (the
/// same as `yezi arena --json`). Keyword arguments are the game's variants (Madiao also `rules`).
#[pyfunction]
#[pyo3(signature = (game, policy, baseline="random", hands=100, seed=1, think_ms=10, policy_input="tensors", **variants))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    game: &str,
    policy: Py<PyAny>,
    baseline: &str,
    hands: u64,
    seed: u64,
    think_ms: u32,
    policy_input: &str,
    variants: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = ai::Budget { think_ms };
    let with_state = match policy_input {
        "tensors" => false,
        "state" => true,
        p => return Err(verr(format!("policy_input is \"tensors\" or \"state\", not {p:?}"))),
    };
    let failure: Failure = Arc::new(Mutex::new(None));
    let mut overrides = kwargs(variants)?;
    let report = match game {
        "madiao" => {
            let preset = match overrides.iter().position(|(k, _)| k == "rules") {
                Some(i) => madiao_rules(&overrides.remove(i).1)?,
                None => "standard",
            };
            let mut v = madiao::Variants::preset(preset).map_err(verr)?;
            for (k, val) in &overrides {
                v.set(k, val).map_err(verr)?;
            }
            let cfg = ai::arena::Config {
                a: "python".into(),
                b: baseline.into(),
                hands,
                seed,
                budget,
                threads: 1,
                limits: ai::ext::ExtLimits::default(),
                rules: ai::arena::madiao::MadiaoRules { preset: preset.into(), variants: v },
            };
            ai::arena::run_with::<ai::Madiao>(&cfg, &mut |side, _seat, s| {
                make::<ai::Madiao>(side, s, baseline, budget, &policy, &failure, with_state)
            })
        }
        "dabaifen" => {
            let mut v = dabaifen::Variants::STANDARD;
            for (k, val) in &overrides {
                v.set(k, val).map_err(verr)?;
            }
            let cfg = ai::arena::Config {
                a: "python".into(),
                b: baseline.into(),
                hands,
                seed,
                budget,
                threads: 1,
                limits: ai::ext::ExtLimits::default(),
                rules: v,
            };
            ai::arena::run_with::<ai::Dabaifen>(&cfg, &mut |side, _seat, s| {
                make::<ai::Dabaifen>(side, s, baseline, budget, &policy, &failure, with_state)
            })
        }
        g => return Err(verr(format!("unknown game {g:?}: \"madiao\" or \"dabaifen\""))),
    };
    if let Some(e) = failure.lock().ok().and_then(|f| f.clone()) {
        return Err(verr(e));
    }
    let report = report.map_err(verr)?;
    json_to_py(py, &serde_json::to_string(&report).map_err(verr)?)
}
