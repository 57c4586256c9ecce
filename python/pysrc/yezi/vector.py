"""``VecEnv(game, n, seed=0, tensor="observation")``: n hands stepped together in Rust.

``reset(seed=None)`` → ``(observations, action_masks, current_players)``;
``step(actions)`` → ``(observations, action_masks, current_players, rewards, terminations)``.
The arrays are allocated once and filled in place (the GIL released); a finished hand is
replaced by a new deal at once (its returns are in ``rewards`` on the step that ended it).
"""

from ._yezi import VecEnv

__all__ = ["VecEnv"]
