"""A first hour with yezi, typed: a hand played at random through the native API, its chance
nodes included; a state pickled mid-hand and played on alike; a bot's choice.

Run: ``python python/examples/quickstart.py``; type-checked by ``mypy --strict python/examples``.
"""

import pickle
import random

import numpy as np

import yezi
from yezi import dabaifen, madiao
from yezi.bots import Bot


def play_at_random(state: madiao.State, rng: random.Random) -> list[float]:
    """Chance and every seat at random to the end; the hand's returns."""
    while not state.is_terminal():
        if state.is_chance_node():
            card, _probability = rng.choice(state.chance_outcomes())
            state.apply_action(card)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def main() -> None:
    print("yezi", yezi.__version__)
    rng = random.Random(7)
    game = madiao.Game(faceup_discard="forbidden")
    state = game.new_initial_state()  # a chance node: the deck is placed card by card
    returns = play_at_random(state, rng)
    assert abs(sum(returns)) < 1e-9
    print("a Madiao hand at random:", returns)

    # Mid-hand: masks (int8, yezi.MASK_DTYPE) and tensors written into arrays of our own.
    state = game.new_initial_state(seed=3)
    while state.is_terminal():  # a deal can end before any decision (a meld)
        state = game.new_initial_state(seed=rng.randrange(2**32))
    mask = np.zeros(game.num_distinct_actions(), dtype=yezi.MASK_DTYPE)
    obs = np.zeros(game.observation_tensor_size(), dtype=np.float32)
    for _ in range(5):
        if state.is_terminal():
            break
        state.legal_action_mask(out=mask)
        state.observation_tensor(state.current_player(), out=obs)
        state.apply_action(int(rng.choice(np.flatnonzero(mask))))

    # Pickled mid-hand (its yezi/1 record), it comes back equal and plays on alike.
    copy: madiao.State = pickle.loads(pickle.dumps(state))
    assert copy == state
    a, b = random.Random(1), random.Random(1)
    assert play_at_random(copy, a) == play_at_random(state, b)

    # Da Bai Fen: a bot chooses for the seat to move.
    d = dabaifen.Game().new_initial_state(seed=11)
    bot = Bot("dabaifen", "heuristic", seed=1, think_ms=10)
    ids = bot.choose(d)
    print("the heuristic bot's first choice in Da Bai Fen:", ids)


if __name__ == "__main__":
    main()
