//! `learned`: a small policy network trained in Python — initialised by imitation of `heuristic`
//! (`python/examples/train_madiao.py`), then trained by reinforcement learning (Deep Monte Carlo,
//! `python/examples/train_madiao_rl.py`) — and shipped as `crates/ai/data/learned-madiao.bin`,
//! played by a forward pass written here — no Python at play time.
//!
//! The network reads the seat's observation tensor ([`super::features::encode_view`], the one
//! `yezi.madiao.State.observation_tensor` gives in Python) and scores the 82 action ids; the bot
//! plays the legal action with the highest score (the first such on ties), so it is
//! deterministic and needs no seed. It sees only its seat's view, like every bot. How it was
//! trained and how strong it is: `docs/python.md`, "The learned baseline".

use std::sync::LazyLock;

use madiao::{Action, View};

use super::features::{OBS_LEN, action_id, encode_view};
use crate::mlp::Mlp;
use crate::{Bot, Madiao};

/// The shipped weights.
pub const WEIGHTS: &[u8] = include_bytes!("../../data/learned-madiao.bin");

/// The shipped network, read once. The file is part of the build and checked by this module's
/// tests (inputs [`OBS_LEN`], outputs [`NUM_ACTIONS`]).
static NET: LazyLock<Mlp> = LazyLock::new(|| match Mlp::parse(WEIGHTS) {
    Ok(m) => m,
    Err(e) => panic!("crates/ai/data/learned-madiao.bin: {e}"),
});

/// The shipped network.
pub fn network() -> &'static Mlp {
    &NET
}

/// The network's scores of the 82 action ids for a seat's view.
pub fn scores(view: &View) -> Vec<f32> {
    let mut obs = vec![0f32; OBS_LEN];
    encode_view(view, &mut obs, false);
    network().forward(&obs)
}

/// The learned bot.
#[derive(Debug, Default)]
pub struct LearnedBot;

impl LearnedBot {
    /// A learned bot (the shipped network).
    pub fn new() -> LearnedBot {
        LearnedBot
    }
}

impl Bot<Madiao> for LearnedBot {
    fn name(&self) -> &str {
        "learned"
    }

    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let s = scores(view);
        let mut best = legal[0];
        let mut top = f32::NEG_INFINITY;
        for &a in legal {
            let v = s[action_id(a)];
            if v > top {
                top = v;
                best = a;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::NUM_ACTIONS;
    use super::*;
    use crate::Registry;
    use madiao::{HandSetup, State};

    #[test]
    fn the_shipped_network_fits_the_features() {
        let m = network();
        assert_eq!((m.inputs(), m.outputs()), (OBS_LEN, NUM_ACTIONS));
        assert_eq!(m.to_bytes(), WEIGHTS);
    }

    /// Plays whole hands with `learned` in one seat and `random` elsewhere, banker and players in
    /// turn: every choice is legal (`State::apply` would refuse it) and every hand ends.
    #[test]
    fn plays_legal_moves_in_every_role() {
        let mut learned_moves = 0;
        for seed in 0..400u64 {
            let banker = cards::Seat::ALL[(seed % 4) as usize];
            let me = cards::Seat::ALL[((seed / 4) % 4) as usize];
            let setup = HandSetup::new(banker, madiao::deal::deck_from_seed(seed, 0));
            let mut st = State::new(setup).unwrap();
            let mut bots: Vec<Box<dyn Bot<Madiao>>> = cards::Seat::ALL
                .iter()
                .map(|&s| {
                    if s == me {
                        Madiao::bot("learned", seed, crate::Budget::default())
                    } else {
                        Madiao::bot("random", seed, crate::Budget::default())
                    }
                })
                .collect::<Result<_, _>>()
                .unwrap();
            let mut steps = 0;
            while let Some(s) = st.to_move() {
                let legal = st.legal_actions();
                let a = bots[s.index()].choose(&st.view(s), &legal);
                assert!(legal.contains(&a));
                st.apply(a).unwrap();
                learned_moves += usize::from(s == me);
                steps += 1;
                assert!(steps < 100);
            }
            assert!(st.is_over());
        }
        assert!(learned_moves > 400 * 4);
    }
}
