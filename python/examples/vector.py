"""The vectorized environment, typed: any integer array of actions, one hand's `State` on
request, and a pickled environment that goes on dealing the same hands.

Run: ``python python/examples/vector.py``; type-checked by ``mypy --strict python/examples``.
"""

import pickle

import numpy as np
import numpy.typing as npt

from yezi.vector import VecEnv


def masked_random(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int32]:
    """A random legal id per row, as int32 (any integer dtype will do)."""
    noise = rng.random(masks.shape) * masks
    ids: npt.NDArray[np.int32] = np.argmax(noise, axis=1).astype(np.int32)
    return ids


def main() -> None:
    env = VecEnv("dabaifen", 64, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        env.step(masked_random(env.action_masks, rng))
    print(f"{env.episodes} deals finished, {env.skipped} dealt again")

    state = env.state(0)  # hand 0's State (a copy)
    assert state.current_player() == env.current_players[0]

    back: VecEnv = pickle.loads(pickle.dumps(env))
    actions = masked_random(env.action_masks, rng)
    obs, masks, players, rewards, ends = env.step(actions)
    obs2, masks2, players2, rewards2, ends2 = back.step(actions)
    assert np.array_equal(obs, obs2) and np.array_equal(masks, masks2)
    assert np.array_equal(players, players2) and np.array_equal(rewards, rewards2)
    assert np.array_equal(ends, ends2)
    print("a pickled VecEnv steps alike")


if __name__ == "__main__":
    main()
