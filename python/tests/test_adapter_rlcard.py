"""The RLCard adapter: registered environments, env.run, 54-dimensional action features."""

import numpy as np
import pytest
import rlcard
from rlcard.agents import RandomAgent

from yezi.rlcard import RandomAgent as AnyRandomAgent

import yezi.rlcard  # noqa: F401  (registers the environments)


@pytest.mark.parametrize("env_id", ["yezi-madiao", "yezi-dabaifen"])
def test_env_run_with_random_agents(env_id):
    env = rlcard.make(env_id, config={"seed": 3})
    env.set_agents([AnyRandomAgent(seed=s) for s in range(4)])
    paid = 0
    for _ in range(20):
        trajectories, payoffs = env.run(is_training=False)
        assert len(trajectories) == 4
        assert abs(payoffs.sum()) < 1e-9
        paid += bool(np.any(payoffs))
        for p in range(4):
            for state in trajectories[p][0::2]:
                assert state["obs"].shape == tuple(env.state_shape[p])
    assert paid >= 5


def test_dabaifen_action_features_are_card_sets():
    env = rlcard.make("yezi-dabaifen", config={"seed": 1})
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(10):
        state, player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            feats = [env.get_action_feature(a) for a in legal]
            assert all(f.shape == (54,) and f.dtype == np.int8 for f in feats)
            # Within one decision the features tell the actions apart.
            assert len({f.tobytes() for f in feats}) == len(legal)
            a = legal[rng.integers(len(legal))]
            seen.add(int(a) >> 54)
            state, player = env.step(a)
    assert {0, 2} <= seen  # burials and plays were made, polls passed


def test_seeded_runs_repeat():
    def run():
        env = rlcard.make("yezi-madiao", config={"seed": 11})
        # RLCard's own agent on Madiao (82 action ids).
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        np.random.seed(0)
        return [tuple(env.run()[1]) for _ in range(5)]

    assert run() == run()
