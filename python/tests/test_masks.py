"""One dtype for every legal-action mask: `yezi.MASK_DTYPE` (int8), from the native state, the
vector env, the PettingZoo and Gymnasium adapters and the arena's policy calls alike."""

import numpy as np
import pytest

import yezi
import yezi.arena
import yezi.gym
from yezi import dabaifen, madiao
from yezi.pettingzoo import dabaifen_v0, madiao_v0
from yezi.vector import VecEnv


def test_mask_dtype_is_int8():
    # Gymnasium's Discrete.sample(mask=...) asserts int8.
    assert yezi.MASK_DTYPE == np.int8


@pytest.mark.parametrize("name", ["madiao", "dabaifen"])
def test_every_adapter_gives_the_same_mask_dtype(name):
    game = {"madiao": madiao, "dabaifen": dabaifen}[name].Game()
    seen = {}
    s = game.new_initial_state(seed=1)
    seen["State.legal_action_mask"] = s.legal_action_mask().dtype
    seen["VecEnv.action_masks"] = VecEnv(game, 2).action_masks.dtype
    pz = {"madiao": madiao_v0, "dabaifen": dabaifen_v0}[name].env()
    pz.reset(seed=1)
    obs = pz.observe(pz.agent_selection)
    seen["PettingZoo observation"] = obs["action_mask"].dtype
    seen["PettingZoo space"] = pz.observation_space(pz.agent_selection)["action_mask"].dtype
    # The PettingZoo idiom: a masked sample straight from the observation.
    assert obs["action_mask"][pz.action_space(pz.agent_selection).sample(obs["action_mask"])] == 1
    env = yezi.gym.SeatEnv(name, seat=0, seed=1)
    gobs, _ = env.reset(seed=1)
    seen["SeatEnv observation"] = gobs["action_mask"].dtype
    seen["SeatEnv space"] = env.observation_space["action_mask"].dtype
    assert gobs["action_mask"][env.action_space.sample(gobs["action_mask"])] == 1
    venv = yezi.gym.VecSeatEnv(name, num_envs=2, seat=0, seed=1)
    vobs, _ = venv.reset(seed=1)
    seen["VecSeatEnv observation"] = vobs["action_mask"].dtype
    seen["VecSeatEnv space"] = venv.single_observation_space["action_mask"].dtype
    masks = []

    def policy(observation, mask, seat):
        masks.append(mask.dtype)
        return int(np.flatnonzero(mask)[0])

    yezi.arena.run(name, policy, hands=1, seed=1, think_ms=1)
    seen["arena policy"] = masks[0]
    assert set(masks) == {np.dtype(np.int8)}
    assert all(d == yezi.MASK_DTYPE for d in seen.values()), seen
