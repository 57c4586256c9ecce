"""The duplicate arena with a Python policy as the candidate.

``run(game, policy, baseline="random", hands=100, seed=1, think_ms=10, **variants)`` plays
``hands`` duplicate deals of ``"madiao"`` or ``"dabaifen"`` (every seating of the deal, as
``yezi arena`` does; ``docs/arena.md``) with ``policy`` as side A against the bot ``baseline`` as
side B, and returns the report as a dict (series with means and 95% intervals, win rates, Elo).
``policy(observation, action_mask, seat) -> action id`` sees the observation tensor and mask of
the ``State`` API (for Da Bai Fen it is called once per pick of a set). A policy that raises or
chooses a masked action stops the run with ``ValueError``.
"""

from ._yezi import run

__all__ = ["run"]
