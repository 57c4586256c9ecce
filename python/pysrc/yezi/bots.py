"""The project's bots from Python.

``Bot(game, name, seed=0, think_ms=100)`` with ``game`` ``"madiao"`` or ``"dabaifen"`` and
``name`` one of ``NAMES[game]`` or ``"cheater"`` (sees every card: a yardstick, not a player).
``bot.choose(state)`` gives the action ids of its choice for the seat to move;
``bot.act(state)`` applies them.
"""

from typing import TYPE_CHECKING, Sequence, Union

from ._yezi import Bot

if TYPE_CHECKING:
    from ._yezi import DabaifenState, MadiaoState

NAMES = {
    "madiao": ("random", "heuristic", "pimc", "expert", "pimc-coalition", "pimc-mixed", "cheater"),
    "dabaifen": ("random", "heuristic", "pimc", "expert", "cheater"),
}


def play_out(state: "Union[MadiaoState, DabaifenState]", bots: "Sequence[Bot]") -> "list[float]":
    """Plays ``state`` to its end with ``bots[seat]`` for each seat (chance nodes must be dealt)."""
    while not state.is_terminal():
        if state.is_chance_node():
            raise ValueError("play_out needs a dealt state (not a chance node)")
        bots[state.current_player()].act(state)
    return state.returns()


__all__ = ["Bot", "NAMES", "play_out"]
