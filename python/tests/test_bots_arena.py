"""yezi.bots from Python, and the duplicate arena with a Python policy."""

import numpy as np
import pytest

from yezi import arena, bots, dabaifen, madiao


@pytest.mark.parametrize("game_name,game", [("madiao", madiao.Game()), ("dabaifen", dabaifen.Game())])
@pytest.mark.parametrize("name", ["random", "heuristic", "pimc", "cheater"])
def test_bots_play_any_seat_to_the_end(game_name, game, name):
    players = [bots.Bot(game_name, name if s % 2 == 0 else "random", seed=s, think_ms=1) for s in range(4)]
    state = game.new_initial_state(seed=21)
    returns = bots.play_out(state, players)
    assert state.is_terminal() and abs(sum(returns)) < 1e-9


def test_bot_choices_are_legal_ids_and_seeded():
    state = dabaifen.Game().new_initial_state(seed=3)
    while state.legal_plays().shape[0] == 0:
        state.apply_action(state.legal_actions()[0])
    a = bots.Bot("dabaifen", "heuristic", seed=1).choose(state)
    assert a == bots.Bot("dabaifen", "heuristic", seed=1).choose(state)
    probe = state.clone()
    for i in a:
        assert probe.legal_action_mask()[i] == 1
        probe.apply_action(i)
    with pytest.raises(ValueError):
        bots.Bot("chess", "random")
    with pytest.raises(ValueError):
        bots.Bot("madiao", "nobody")
    with pytest.raises(ValueError):
        bots.Bot("madiao", "random").choose(state)


def first_legal(obs, mask, seat):
    assert obs.dtype == np.float32 and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[0])


def random_policy(seed):
    rng = np.random.default_rng(seed)
    return lambda obs, mask, seat: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_arena_with_a_python_policy(game):
    report = arena.run(game, random_policy(0), baseline="heuristic", hands=4, seed=2, think_ms=1)
    assert report["a"] == "python" and report["b"] == "heuristic" and report["hands"] == 4
    assert report["series"]
    again = arena.run(game, first_legal, baseline="random", hands=3, seed=5)
    assert again["series"] == arena.run(game, first_legal, baseline="random", hands=3, seed=5)["series"]


def test_arena_stops_on_a_bad_policy():
    with pytest.raises(ValueError, match="raised"):
        arena.run("madiao", lambda o, m, s: 1 / 0, hands=1)
    with pytest.raises(ValueError, match="forbids"):
        arena.run("dabaifen", lambda o, m, s: int(np.flatnonzero(m == 0)[0]), hands=1)
    with pytest.raises(ValueError):
        arena.run("chess", first_legal, hands=1)
