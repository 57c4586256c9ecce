"""The PettingZoo and Gymnasium adapters, checked with the libraries' own checkers."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import yezi.gym
from yezi.pettingzoo import dabaifen_v0, madiao_v0


@pytest.mark.parametrize("module", [madiao_v0, dabaifen_v0], ids=["madiao", "dabaifen"])
def test_pettingzoo_api_test(module):
    api_test(module.env(), num_cycles=300)


@pytest.mark.parametrize("module", [madiao_v0, dabaifen_v0], ids=["madiao", "dabaifen"])
def test_pettingzoo_seed_test(module):
    seed_test(module.env, num_cycles=100)


@pytest.mark.parametrize("module", [madiao_v0, dabaifen_v0], ids=["madiao", "dabaifen"])
def test_pettingzoo_masked_random_games_end_zero_sum(module):
    env = module.env()
    rng = np.random.default_rng(0)
    paid = 0
    for episode in range(20):
        env.reset(seed=episode)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert abs(sum(total.values())) < 1e-9
        paid += any(total.values())
    assert paid >= 10


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_gymnasium_check_env(game):
    check_env(yezi.gym.SeatEnv(game=game, seat=1, opponents="heuristic"), skip_render_check=True)


def test_gymnasium_seat_against_bots_is_seeded():
    def episode(seed):
        env = yezi.gym.SeatEnv("dabaifen", seat=2, opponents=["random", "heuristic", "random"])
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace, done, reward = [], False, 0.0
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            trace.append(a)
            obs, reward, done, _, info = env.step(a)
            assert "illegal_action" not in info
        return trace, reward

    assert episode(5) == episode(5)
    env = gymnasium_env = yezi.gym.SeatEnv("madiao", illegal="raise")
    obs, _ = gymnasium_env.reset(seed=1)
    with pytest.raises(ValueError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
