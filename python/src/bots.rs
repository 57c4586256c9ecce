//! `yezi.bots`: the project's bots (and the `cheater`, which sees the whole state) choosing for
//! the seat to move of a Python state.

use std::sync::Mutex;

use pyo3::prelude::*;

use crate::dbf::DCore;
use crate::md::MCore;
use crate::{DState, MState, verr};

enum Inner {
    Madiao(Box<dyn ai::Bot<ai::Madiao>>),
    MadiaoOracle(Box<dyn ai::Oracle<ai::Madiao>>),
    Dabaifen(Box<dyn ai::Bot<ai::Dabaifen>>),
    DabaifenOracle(Box<dyn ai::Oracle<ai::Dabaifen>>),
}

/// `Bot(game, name, seed=0, think_ms=100)`: `game` is `"madiao"` or `"dabaifen"`; `name` one of
/// the registry's bots or `"cheater"`.
#[pyclass(module = "yezi._yezi", name = "Bot")]
pub struct Bot {
    inner: Mutex<Inner>,
    name: String,
    game: &'static str,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (game, name, seed=0, think_ms=100))]
    fn new(game: &str, name: &str, seed: u64, think_ms: u32) -> PyResult<Self> {
        use ai::Registry;
        let budget = ai::Budget { think_ms };
        let (inner, g) = match (game, name) {
            ("madiao", "cheater") => (
                Inner::MadiaoOracle(
                    ai::Madiao::oracle(seed, budget).ok_or_else(|| verr("no Madiao cheater"))?,
                ),
                "madiao",
            ),
            ("madiao", n) => (Inner::Madiao(ai::Madiao::bot(n, seed, budget).map_err(verr)?), "madiao"),
            ("dabaifen", "cheater") => (
                Inner::DabaifenOracle(
                    ai::Dabaifen::oracle(seed, budget).ok_or_else(|| verr("no Da Bai Fen cheater"))?,
                ),
                "dabaifen",
            ),
            ("dabaifen", n) => {
                (Inner::Dabaifen(ai::Dabaifen::bot(n, seed, budget).map_err(verr)?), "dabaifen")
            }
            (g, _) => return Err(verr(format!("unknown game {g:?}: \"madiao\" or \"dabaifen\""))),
        };
        Ok(Bot { inner: Mutex::new(inner), name: name.to_string(), game: g })
    }

    /// The bot's choice for the seat to move, as the action ids that play it (one for Madiao;
    /// for a Da Bai Fen set, its picks, then 56 when the lead could go on).
    fn choose(&self, state: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let mut inner = self.inner.lock().map_err(|_| verr("the bot failed earlier"))?;
        if let Ok(s) = state.extract::<PyRef<'_, MState>>() {
            let st = s.core.st.clone().ok_or_else(|| verr("a chance node: no player to choose for"))?;
            let seat = st.to_move().ok_or_else(|| verr("the hand is over"))?;
            let legal = st.legal_actions();
            let a = match &mut *inner {
                Inner::Madiao(b) => Ok(b.choose(&st.view(seat), &legal)),
                Inner::MadiaoOracle(o) => Ok(o.choose(&st, &legal)),
                _ => Err("this is a Da Bai Fen bot"),
            };
            return Ok(vec![MCore::id(a.map_err(verr)?)]);
        }
        if let Ok(s) = state.extract::<PyRef<'_, DState>>() {
            if s.core.picked != 0 {
                return Err(verr("cards are already picked: a bot chooses whole sets"));
            }
            let st = s.core.st.clone().ok_or_else(|| verr("a chance node: no player to choose for"))?;
            let seat = st.to_move().ok_or_else(|| verr("the deal is over"))?;
            let legal = st.legal_actions();
            let a = match &mut *inner {
                Inner::Dabaifen(b) => Ok(b.choose(&st.view(seat), &legal)),
                Inner::DabaifenOracle(o) => Ok(o.choose(&st, &legal)),
                _ => Err("this is a Madiao bot"),
            };
            return Ok(DCore::ids_of(&st, a.map_err(verr)?));
        }
        Err(verr("choose takes a yezi.madiao or yezi.dabaifen State"))
    }

    /// Chooses and applies the bot's whole action to `state`.
    fn act(&self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = self.choose(state)?;
        for id in ids {
            state.call_method1("apply_action", (id,))?;
        }
        Ok(())
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    #[getter]
    fn game(&self) -> &str {
        self.game
    }

    fn __repr__(&self) -> String {
        format!("yezi.bots.Bot({:?}, {:?})", self.game, self.name)
    }
}
