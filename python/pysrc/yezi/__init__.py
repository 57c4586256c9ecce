"""Madiao (馬弔) and Da Bai Fen (打百分) for game-AI research.

The rules engines are the project's Rust crates; this package reaches them through a native
module. ``yezi.madiao`` and ``yezi.dabaifen`` hold the games' ``Game`` and ``State``;
``yezi.vector`` the vectorized environment; ``yezi.bots`` the project's bots; the adapters are
``yezi.pettingzoo``, ``yezi.gym``, ``yezi.openspiel`` and ``yezi.rlcard`` (each imports its
library only when used). Encodings and tensor layouts: ``docs/python.md``.
"""

import numpy as _np

from . import _yezi, arena, bots, dabaifen, madiao, vector

#: The package's version (the extension's, which is the wheel's).
__version__: str = _yezi.__version__

CHANCE_PLAYER: int = _yezi.CHANCE_PLAYER
TERMINAL_PLAYER: int = _yezi.TERMINAL_PLAYER

#: The dtype of every legal-action mask (``State.legal_action_mask``, ``VecEnv.action_masks``,
#: the PettingZoo and Gymnasium observations' ``action_mask``): int8, 1 for a legal id, the dtype
#: Gymnasium's ``Discrete.sample(mask=...)`` requires.
MASK_DTYPE = _np.int8

__all__ = [
    "madiao",
    "dabaifen",
    "vector",
    "bots",
    "arena",
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "MASK_DTYPE",
    "__version__",
]
