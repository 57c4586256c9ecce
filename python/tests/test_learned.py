"""The `learned` Madiao bot: its Rust forward pass equals a numpy forward pass of the shipped
weights, it plays the legal id the network scores highest, and it plays legal moves in every
role."""

import pathlib
import struct

import numpy as np
import pytest

import yezi
from yezi._yezi import madiao_learned_scores
from yezi.bots import Bot

WEIGHTS = pathlib.Path(__file__).resolve().parents[2] / "crates" / "ai" / "data" / "learned-madiao.bin"


def numpy_layers():
    """The shipped file read here, independently of the Rust reader (the format of
    crates/ai/src/mlp.rs)."""
    data = WEIGHTS.read_bytes()
    assert data[:8] == b"YZMLP1\n\0"
    (n,) = struct.unpack_from("<I", data, 8)
    shapes = [struct.unpack_from("<II", data, 12 + 8 * i) for i in range(n)]
    at, layers = 12 + 8 * n, []
    for i, o in shapes:
        w = np.frombuffer(data, "<f4", i * o, at).reshape(o, i).astype(np.float64)
        at += 4 * i * o
        b = np.frombuffer(data, "<f4", o, at).astype(np.float64)
        at += 4 * o
        layers.append((w, b))
    assert at == len(data)
    return layers


def numpy_scores(layers, x):
    x = np.asarray(x, np.float64)
    for k, (w, b) in enumerate(layers):
        x = w @ x + b
        if k < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def positions(hands, seed):
    """(state, seat to move) at every decision of `hands` random hands."""
    rng = np.random.default_rng(seed)
    for k in range(hands):
        state = yezi.madiao.Game(banker=k % 4).new_initial_state(seed=seed, deal=k)
        while not state.is_terminal():
            yield state, state.current_player()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])


def test_the_rust_forward_pass_equals_numpys():
    layers = numpy_layers()
    assert layers[0][0].shape[1] == 515 and layers[-1][0].shape[0] == 82
    checked = 0
    for state, p in positions(30, 5):
        obs = state.observation_tensor(p)
        rust = madiao_learned_scores(obs)
        assert rust.dtype == np.float32 and rust.shape == (82,)
        np.testing.assert_allclose(rust, numpy_scores(layers, obs), rtol=1e-4, atol=1e-4)
        checked += 1
    assert checked > 500
    # Not only zeros: the network distinguishes actions.
    assert np.ptp(madiao_learned_scores(obs)) > 0


def test_the_bot_plays_the_best_scored_legal_id():
    layers = numpy_layers()
    bot = Bot("madiao", "learned")
    for state, p in positions(30, 6):
        scores = numpy_scores(layers, state.observation_tensor(p))
        mask = state.legal_action_mask()
        best = np.max(scores[mask > 0])
        (chosen,) = bot.choose(state)
        assert mask[chosen] == 1
        # The highest legal score (ties to within float32 rounding allowed).
        assert scores[chosen] >= best - 1e-4


@pytest.mark.parametrize("banker_is_learned", [True, False])
def test_legal_moves_in_both_roles(banker_is_learned):
    hands = 0
    for k in range(150):
        banker = k % 4
        me = banker if banker_is_learned else (banker + 1 + k % 3) % 4
        bots = [Bot("madiao", "learned" if s == me else "heuristic", seed=k) for s in range(4)]
        state = yezi.madiao.Game(banker=banker).new_initial_state(seed=11, deal=k)
        while not state.is_terminal():
            bots[state.current_player()].act(state)  # an illegal choice would raise
        assert sum(state.returns()) == pytest.approx(0.0)
        hands += 1
    assert hands == 150


def test_a_wrong_observation_is_refused():
    with pytest.raises(ValueError, match="515"):
        madiao_learned_scores(np.zeros(10, np.float32))


def test_the_arena_accepts_it_as_baseline():
    report = yezi.arena.run("madiao", lambda o, m, s: int(np.flatnonzero(m)[0]), baseline="learned", hands=3, seed=1)
    assert report["b"] == "learned" and report["series"][0]["summary"]["n"] == 3
