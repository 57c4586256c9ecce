"""yezi.vector.VecEnv: preallocated arrays filled in place, autoreset, seeding."""

import numpy as np
import pytest

from yezi import dabaifen, madiao
from yezi.vector import VecEnv


def random_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_vecenv_steps_in_place_with_autoreset(game):
    n = 16
    env = VecEnv(game, n, seed=5)
    obs, masks, players = env.reset()
    size = env.observation_size
    assert obs.shape == (n, size) and obs.dtype == np.float32
    assert masks.shape == (n, env.num_actions) and masks.dtype == np.int8
    assert players.shape == (n,) and players.dtype == np.int32
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        assert ((players >= 0) & (players < 4)).all()
        assert (masks.sum(axis=1) > 0).all()
        out = env.step(random_actions(masks, rng))
        o, m, p, rewards, terms = out
        # The same arrays every step: nothing is copied.
        assert o is env.observations and m is env.action_masks and p is env.current_players
        assert rewards is env.rewards and terms is env.terminations
        assert o is obs and m is masks
        assert np.allclose(rewards.sum(axis=1), 0.0)
        assert (rewards[~terms] == 0).all()
        finished += int(terms.sum())
    assert finished > 20
    assert env.episodes == finished


def test_vecenv_is_reproducible_and_seeded():
    def run(seed):
        env = VecEnv(madiao.Game(), 8, seed=seed)
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(200):
            _, masks, _, rewards, _ = env.step(random_actions(env.action_masks, rng))
            trace.append((env.observations.copy(), rewards.copy()))
        return trace

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c))
    env = VecEnv("dabaifen", 4, seed=9)
    first = env.observations.copy()
    env.step(random_actions(env.action_masks, np.random.default_rng(2)))
    env.reset(seed=9)
    assert np.array_equal(env.observations, first)


def test_vecenv_observation_is_the_players_own():
    env = VecEnv(madiao.Game(), 32, seed=1)
    rng = np.random.default_rng(3)
    for _ in range(100):
        for row, mask in zip(env.observations, env.action_masks):
            hand = set(np.flatnonzero(row[0:40]))
            plays = set(np.flatnonzero(mask[0:80]) % 40)
            assert plays <= hand  # every card the mover may play is in the hand it observes
        env.step(random_actions(env.action_masks, rng))


def test_vecenv_refuses_illegal_actions_without_stepping():
    env = VecEnv(dabaifen.Game(), 4, seed=2)
    before = env.observations.copy(), env.current_players.copy()
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in env.action_masks], dtype=np.int64)
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    with pytest.raises(ValueError):
        env.step(np.zeros(3, dtype=np.int64))
    assert np.array_equal(env.observations, before[0])
    assert np.array_equal(env.current_players, before[1])
    with pytest.raises(ValueError):
        VecEnv("chess", 2)
    with pytest.raises(ValueError):
        VecEnv("madiao", 0)


def test_vecenv_information_state_rows():
    env = VecEnv(dabaifen.Game(), 3, seed=0, tensor="information_state")
    assert env.observations.shape == (3, dabaifen.Game().information_state_tensor_size())


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_vecenv_one_seat_against_bots_in_rust(game):
    env = VecEnv(game, 6, seed=4, seat=2, opponents=["heuristic", "random", "random"], think_ms=1)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        assert (env.current_players == 2).all()
        _, _, _, rewards, terms = env.step(random_actions(env.action_masks, rng))
        assert np.allclose(rewards.sum(axis=1), 0.0)
        finished += int(terms.sum())
    assert finished >= 6
    with pytest.raises(ValueError):
        VecEnv(game, 2, opponents="random")  # opponents need a seat
    with pytest.raises(ValueError):
        VecEnv(game, 2, seat=0, opponents="nobody")


def test_gymnasium_native_vector_env():
    import yezi.gym

    env = yezi.gym.VecSeatEnv("dabaifen", num_envs=4, seat=1, opponents="random", seed=3)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains({k: v.copy() for k, v in obs.items()})
    rng = np.random.default_rng(1)
    total = 0.0
    ends = 0
    for _ in range(200):
        obs, reward, term, trunc, _ = env.step(random_actions(obs["action_mask"], rng))
        assert reward.shape == (4,) and term.shape == (4,) and not trunc.any()
        total += float(reward.sum())
        ends += int(term.sum())
    assert ends > 0


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint32, np.uint64, np.int64, "list"])
def test_vecenv_steps_on_any_integer_actions(dtype):
    # The same random actions as int64, in another integer dtype or as a list of ints, step alike.
    a, b = VecEnv("dabaifen", 6, seed=3), VecEnv("dabaifen", 6, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        actions = random_actions(a.action_masks, rng)
        other = [int(x) for x in actions] if dtype == "list" else actions.astype(dtype)
        for x, y in zip([z.copy() for z in a.step(actions)], b.step(other)):
            assert np.array_equal(x, y)


def test_vecenv_refuses_actions_that_are_not_integers():
    env = VecEnv("madiao", 2, seed=1)
    legal = random_actions(env.action_masks, np.random.default_rng(0))
    with pytest.raises(TypeError, match="integers"):
        env.step(legal.astype(np.float64))
    with pytest.raises(ValueError, match="one-dimensional"):
        env.step(legal.reshape(2, 1))
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.array([2**64 - 1, 2**64 - 1], dtype=np.uint64))
    with pytest.raises(ValueError, match="2 actions"):
        env.step([int(legal[0])])


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_vecenv_gives_each_hands_state(game):
    env = VecEnv(game, 5, seed=8)
    rng = np.random.default_rng(8)
    for _ in range(40):
        env.step(random_actions(env.action_masks, rng))
        for i in range(len(env)):
            s = env.state(i)
            assert s.current_player() == env.current_players[i]
            assert np.array_equal(s.legal_action_mask(), env.action_masks[i])
            p = s.current_player()
            assert np.array_equal(s.observation_tensor(p), env.observations[i])
    # A copy: playing it leaves the hand alone.
    s = env.state(0)
    s.apply_action(int(np.flatnonzero(s.legal_action_mask())[0]))
    assert env.state(0) != s
    with pytest.raises(IndexError):
        env.state(5)
    with pytest.raises(IndexError):
        env.state(-1)
