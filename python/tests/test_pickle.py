"""Pickling: `Game`, `State` (at chance nodes and mid-hand) and `VecEnv` travel by their setup,
deck and `yezi/1` record (and a `VecEnv` by its seed) and come back equal: the same position,
the same tensors and strings for every seat, and the same future under the same actions."""

import copy
import pickle
import random

import numpy as np
import pytest

import yezi
from yezi import _yezi, dabaifen, madiao
from yezi.vector import VecEnv

GAMES = {
    "madiao": [madiao.Game(), madiao.Game(rules="standard", banker=2, stake=4, faceup_discard="forbidden")],
    "dabaifen": [
        dabaifen.Game(),
        dabaifen.Game(starter=1, ranks=("5", "9"), first_deal=False, open=True, revoke="refuse"),
    ],
}

# How many random mid-hand states of each game the round-trip test pickles (docs/python.md).
STATES = 10_000


def random_states(game, n, seed):
    """`n` states of `game` along random hands: a random hand is played to its end, then replayed
    to a random point of it: a chance node (one in five), a decision (mid-hand: about three in
    four, Da Bai Fen's draw polls and half-built sets among them), or the end (one in twenty)."""
    rng = random.Random(seed)
    deck = game.max_chance_outcomes()
    out = []
    while len(out) < n:
        s, history = game.new_initial_state(), []
        while not s.is_terminal():
            a = rng.choice(s.chance_outcomes())[0] if s.is_chance_node() else rng.choice(s.legal_actions())
            s.apply_action(a)
            history.append(a)
        u = rng.random()
        if u < 0.2:
            k = rng.randrange(deck)
        elif u < 0.95 and len(history) > deck:
            k = rng.randrange(deck, len(history))
        else:
            k = len(history)
        s = game.new_initial_state()
        for a in history[:k]:
            s.apply_action(a)
        out.append(s)
    return out


def same_position(a, b):
    """Everything the API shows of `a` and `b` is equal."""
    assert a == b
    assert a.current_player() == b.current_player()
    assert a.is_chance_node() == b.is_chance_node()
    assert a.legal_actions() == b.legal_actions()
    assert np.array_equal(a.legal_action_mask(), b.legal_action_mask())
    assert a.returns() == b.returns()
    assert str(a) == str(b)
    for p in range(4):
        assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
        assert np.array_equal(a.information_state_tensor(p), b.information_state_tensor(p))
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_string(p) == b.information_state_string(p)
    if not a.is_chance_node():
        assert a.to_record() == b.to_record()
    if hasattr(a, "picked"):
        assert a.picked() == b.picked()


@pytest.mark.parametrize("name", ["madiao", "dabaifen"])
def test_games_pickle_with_their_variants(name):
    for g in GAMES[name]:
        back = pickle.loads(pickle.dumps(g))
        assert back == g
        assert back.variants() == g.variants()
        assert repr(back) == repr(g)
        assert copy.deepcopy(g) == g
    assert GAMES[name][0] != GAMES[name][1]


@pytest.mark.parametrize("name", ["madiao", "dabaifen"])
def test_random_mid_hand_states_pickle_equal(name):
    kinds = {"chance": 0, "decision": 0, "over": 0, "picked": 0, "draw": 0}
    for g_index, game in enumerate(GAMES[name]):
        states = random_states(game, STATES // 2, seed=g_index)
        blob = pickle.dumps(states)
        back = pickle.loads(blob)
        for i, (a, b) in enumerate(zip(states, back)):
            assert a == b, i
            assert b.current_player() == a.current_player()
            assert np.array_equal(a.legal_action_mask(), b.legal_action_mask())
            if a.is_chance_node():
                kinds["chance"] += 1
                assert b.chance_outcomes() == a.chance_outcomes()
            elif a.is_terminal():
                kinds["over"] += 1
                assert b.returns() == a.returns()
            else:
                kinds["decision"] += 1
                p = a.current_player()
                assert np.array_equal(a.information_state_tensor(p), b.information_state_tensor(p))
                if name == "dabaifen":
                    kinds["picked"] += bool(a.picked())
                    kinds["draw"] += a.view(p)["phase"] == "drawing"
            # Every 50th state in full, and played on with the same actions to the same end.
            if i % 50 == 0:
                same_position(a, b)
                rng_a, rng_b = random.Random(i), random.Random(i)
                a, b = a.clone(), b.clone()
                while not a.is_terminal():
                    if a.is_chance_node():
                        x, y = rng_a.choice(a.chance_outcomes())[0], rng_b.choice(b.chance_outcomes())[0]
                    else:
                        x, y = rng_a.choice(a.legal_actions()), rng_b.choice(b.legal_actions())
                    assert x == y
                    a.apply_action(x)
                    b.apply_action(y)
                same_position(a, b)
    assert kinds["chance"] > 100 and kinds["decision"] > 100 and kinds["over"] > 10
    if name == "dabaifen":
        assert kinds["picked"] > 10 and kinds["draw"] > 10


def test_a_state_pickles_as_its_record():
    s = madiao.Game().new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(7):
        s.apply_action(rng.choice(s.legal_actions()))
    fn, (kind, text) = s.__reduce__()
    assert fn is _yezi._restore and kind == "MadiaoState"
    import json

    payload = json.loads(text)
    assert payload["record"]["format"] == "yezi/1"
    assert payload["record"] == json.loads(s.to_record())
    assert len(payload["record"]["hands"][0]["actions"]) == 7


def test_a_corrupt_pickle_is_a_value_error():
    s = dabaifen.Game().new_initial_state(seed=2)
    while s.view(s.current_player())["phase"] != "playing":
        s.apply_action(s.legal_actions()[0])
    _, (kind, text) = s.__reduce__()
    import json

    payload = json.loads(text)
    payload["record"]["hands"][0]["actions"].append({"seat": 0, "play": ["BJ", "SJ"]})
    with pytest.raises(ValueError):
        _yezi._restore(kind, json.dumps(payload))
    with pytest.raises(ValueError):
        _yezi._restore(kind, "{}")
    with pytest.raises(ValueError):
        _yezi._restore("NoSuchClass", text)
    payload = json.loads(text)
    payload["deck"] = payload["deck"][:-1]
    with pytest.raises(ValueError):
        _yezi._restore(kind, json.dumps(payload))


def step_randomly(env, rng, steps, dtype=np.int64):
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks], dtype=dtype)
        env.step(actions)


@pytest.mark.parametrize("name", ["madiao", "dabaifen"])
@pytest.mark.parametrize("tensor", ["observation", "information_state"])
def test_vecenv_pickles_equal_and_goes_on_alike(name, tensor):
    env = VecEnv(GAMES[name][1], 8, seed=9, tensor=tensor)
    step_randomly(env, random.Random(1), 150)
    assert env.episodes > 0
    back = pickle.loads(pickle.dumps(env))
    for field in ("observations", "action_masks", "current_players", "rewards", "terminations"):
        assert np.array_equal(getattr(back, field), getattr(env, field)), field
    assert (back.seed, back.episodes, back.skipped, len(back)) == (env.seed, env.episodes, env.skipped, len(env))
    for i in range(len(env)):
        assert back.state(i) == env.state(i)
    # The same actions from here give the same hands, the new deals included (each hand's
    # generator goes on where it was).
    rng = random.Random(2)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks])
        a = [x.copy() for x in env.step(actions)]
        b = back.step(actions)
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert back.episodes == env.episodes > 0


def test_vecenv_with_bots_refuses_to_pickle():
    env = VecEnv("madiao", 2, seed=1, seat=0, opponents="random")
    with pytest.raises(TypeError, match="bots"):
        pickle.dumps(env)


def test_version():
    import importlib.metadata

    # One version: the crate's, which maturin also writes into the package's metadata.
    assert yezi.__version__ == _yezi.__version__ == importlib.metadata.version("yezi")
    assert yezi.__version__.count(".") == 2


def _play_out(state):
    """The state played on with the first legal action each time; its returns, record and itself
    (run in another process, everything crosses by pickle)."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state.returns(), state.to_record(), state


def test_states_cross_process_boundaries():
    # multiprocessing sends arguments and results by pickle: mid-hand states go to a fresh
    # interpreter (spawn) and come back played out.
    import concurrent.futures
    import multiprocessing

    states = random_states(dabaifen.Game(), 40, seed=3) + random_states(madiao.Game(), 40, seed=3)
    states = [s for s in states if not s.is_chance_node()]
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        remote = list(pool.map(_play_out, states))
    for s, (returns, record, back) in zip(states, remote):
        local = _play_out(s.clone())
        assert returns == local[0] and record == local[1]
        assert back == local[2]
