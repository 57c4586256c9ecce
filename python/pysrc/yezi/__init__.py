"""Madiao (馬弔) and Da Bai Fen (打百分) for game-AI research.

The rules engines are the project's Rust crates; this package reaches them through a native
module. ``yezi.madiao`` and ``yezi.dabaifen`` hold the games' ``Game`` and ``State``;
``yezi.vector`` the vectorized environment; ``yezi.bots`` the project's bots; the adapters are
``yezi.pettingzoo``, ``yezi.gym``, ``yezi.openspiel`` and ``yezi.rlcard`` (each imports its
library only when used). Encodings and tensor layouts: ``docs/python.md``.
"""

from . import _yezi, arena, bots, dabaifen, madiao, vector

CHANCE_PLAYER = _yezi.CHANCE_PLAYER
TERMINAL_PLAYER = _yezi.TERMINAL_PLAYER

__all__ = ["madiao", "dabaifen", "vector", "bots", "arena", "CHANCE_PLAYER", "TERMINAL_PLAYER"]
