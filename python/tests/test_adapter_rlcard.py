"""The RLCard adapter: registered environments, env.run, 54-dimensional action features, pickling."""

import pickle

import numpy as np
import pytest
import rlcard
from rlcard.agents import RandomAgent

from yezi import dabaifen, madiao
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
            # The state carries the same features.
            assert all(np.array_equal(f, state["legal_actions"][a]) for a, f in zip(legal, feats))
            # Within one decision the features tell the actions apart.
            assert len({f.tobytes() for f in feats}) == len(legal)
            hand = {dabaifen.CARDS.index(c) for c in env.game.state.view(player)["hand"]}
            for a, f in zip(legal, feats):
                cards = set(np.flatnonzero(f))
                kind = int(a) >> 54
                if kind == 0:  # a burial or play: cards from the hand
                    assert cards and cards <= hand
                elif kind == 1:  # picking one card: showing it, or burying it
                    assert len(cards) == 1 and cards <= hand
                elif kind == 2:  # passing
                    assert not cards
                else:  # annulling shows the whole hand
                    assert cards == hand
            a = legal[rng.integers(len(legal))]
            seen.add(int(a) >> 54)
            state, player = env.step(a)
    assert {0, 1, 2} <= seen  # plays made, cards picked (burials), polls passed


def test_madiao_action_features():
    env = rlcard.make("yezi-madiao", config={"seed": 2})
    assert env.action_shape == [[54]] * 4
    every = np.stack([env.get_action_feature(a) for a in range(madiao.NUM_ACTIONS)])
    assert every.shape == (82, 54) and every.dtype == np.int8
    # A function of the id alone, one feature per id.
    assert len({row.tobytes() for row in every}) == 82
    for n in range(40):
        assert set(np.flatnonzero(every[n])) == {n}
        assert set(np.flatnonzero(every[40 + n])) == {n, 40}
    assert set(np.flatnonzero(every[madiao.DECLINE_REDEAL])) == {41}
    assert set(np.flatnonzero(every[madiao.FORCE_REDEAL])) == {42}
    assert not every[:, 43:].any()
    with pytest.raises(ValueError):
        env.get_action_feature(82)
    rng = np.random.default_rng(1)
    face_down = 0
    for _ in range(10):
        state, player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            feats = [state["legal_actions"][a] for a in legal]
            assert all(np.array_equal(f, env.get_action_feature(a)) for a, f in zip(legal, feats))
            assert len({f.tobytes() for f in feats}) == len(legal)
            a = legal[rng.integers(len(legal))]
            face_down += 40 <= a < 80
            state, player = env.step(a)
    assert face_down > 0


@pytest.mark.parametrize("env_id", ["yezi-madiao", "yezi-dabaifen"])
def test_env_pickles_with_its_hand(env_id):
    env = rlcard.make(env_id, config={"seed": 4})
    rng = np.random.default_rng(4)
    state, player = env.reset()
    for _ in range(6):
        legal = list(state["legal_actions"])
        state, player = env.step(legal[rng.integers(len(legal))])
    copy = pickle.loads(pickle.dumps(env))
    assert copy.get_player_id() == env.get_player_id()
    assert copy.game.state.to_record() == env.game.state.to_record()
    # Both play on alike to the same end.
    a_state, b_state = state, copy.get_state(copy.get_player_id())
    assert np.array_equal(a_state["obs"], b_state["obs"])
    while not env.is_over():
        legal = list(a_state["legal_actions"])
        assert legal == list(b_state["legal_actions"])
        a = legal[rng.integers(len(legal))]
        a_state, _ = env.step(a)
        b_state, _ = copy.step(a)
    assert copy.is_over()
    assert np.array_equal(env.get_payoffs(), copy.get_payoffs())
    # A fresh environment pickles too (what the DMC trainer sends to its actors).
    fresh = pickle.loads(pickle.dumps(rlcard.make(env_id, config={"seed": 4})))
    fresh.set_agents([AnyRandomAgent(seed=s) for s in range(4)])
    assert fresh.run()[1].shape == (4,)


def test_seeded_runs_repeat():
    def run():
        env = rlcard.make("yezi-madiao", config={"seed": 11})
        # RLCard's own agent on Madiao (82 action ids).
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        np.random.seed(0)
        return [tuple(env.run()[1]) for _ in range(5)]

    assert run() == run()


@pytest.mark.parametrize(
    "env_id, config, name, value",
    [
        ("yezi-madiao", {"faceup_discard": "forbidden"}, "faceup_discard", "forbidden"),
        ("yezi-madiao", {"game_faceup_discard": "forbidden"}, "faceup_discard", "forbidden"),
        ("yezi-dabaifen", {"revoke": "refuse"}, "revoke", "refuse"),
    ],
)
def test_config_variants_reach_the_game(env_id, config, name, value):
    env = rlcard.make(env_id, config={"seed": 1, **config})
    assert dict(env.game.native.variants())[name] == value
    default = rlcard.make(env_id, config={"seed": 1})
    assert dict(default.game.native.variants())[name] != value
    # They travel with a pickled environment (the DMC trainer's actors).
    back = pickle.loads(pickle.dumps(env))
    assert back.game.native == env.game.native
    env.set_agents([AnyRandomAgent(seed=s) for s in range(4)])
    assert env.run()[1].shape == (4,)


def test_config_setup_and_bad_variants():
    env = rlcard.make("yezi-madiao", config={"seed": 1, "banker": 2, "stake": 4})
    assert env.game.native == madiao.Game(banker=2, stake=4)
    with pytest.raises(ValueError, match="faceup_discard"):
        rlcard.make("yezi-madiao", config={"seed": 1, "faceup_discard": "sometimes"})
    with pytest.raises(ValueError):
        rlcard.make("yezi-dabaifen", config={"seed": 1, "no_such_variant": "x"})


def test_dabaifen_refuses_agents_sized_by_num_actions_at_once():
    import time

    env = rlcard.make("yezi-dabaifen", config={"seed": 2})
    assert env.num_actions == 1 << 56
    state, _ = env.reset()
    agent = RandomAgent(num_actions=env.num_actions)
    started = time.monotonic()
    with pytest.raises(ValueError, match="no agent can be sized by num_actions"):
        agent.eval_step(state)
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
    with pytest.raises(ValueError, match="yezi.rlcard.RandomAgent"):
        env.run(is_training=False)
    with pytest.raises(ValueError):
        np.zeros(env.num_actions)
    assert time.monotonic() - started < 5
    # Training-mode steps need no size: RLCard's agent picks among the legal ids.
    assert agent.step(state) in state["legal_actions"]


@pytest.mark.parametrize("env_id", ["yezi-madiao", "yezi-dabaifen"])
def test_observations_survive_dmcs_int8_buffers(env_id):
    """RLCard's DMC trainer copies `state["obs"]` into `int8` buffers for its learner
    (rlcard.agents.dmc_agent.utils: `buffers[p]["state"][index][t, ...] = torch.from_numpy(obs)`)
    while its actors choose on `state["obs"].astype(np.float32)`: the two must be the same
    numbers, the fraction-valued entries of the observation tensor (counts / 8, points / 200 …)
    included, and `obs / env.obs_scale` is the tensor."""
    env = rlcard.make(env_id, config={"seed": 7})
    size = env.state_shape[0][0]
    rng = np.random.default_rng(7)
    fraction_seen = np.zeros(size, dtype=bool)
    pairs = []
    for _ in range(12):
        state, player = env.reset()
        while not env.is_over():
            obs = state["obs"]
            buffer = np.zeros(size, dtype=np.int8)
            buffer[...] = obs  # the DMC buffer's copy (numpy casts as torch does: toward zero)
            assert np.array_equal(buffer.astype(np.float32), obs.astype(np.float32)), np.flatnonzero(
                buffer.astype(np.float32) != obs.astype(np.float32)
            )
            tensor = np.asarray(env.game.state.observation_tensor(player), dtype=np.float32)
            pairs.append((buffer, tensor))
            fraction_seen |= (tensor > 0) & (tensor < 1)
            legal = list(state["legal_actions"])
            state, player = env.step(legal[rng.integers(len(legal))])
    assert len(pairs) > 100
    for buffer, tensor in pairs:
        np.testing.assert_allclose(buffer / env.obs_scale, tensor, rtol=0, atol=1e-6)
    # Fraction-valued entries occurred (and survived): every entry that took a value strictly
    # between 0 and 1 is one the scale makes whole, and several did.
    assert fraction_seen.sum() >= 4, np.flatnonzero(fraction_seen)
    assert np.all(env.obs_scale[fraction_seen] > 1)
