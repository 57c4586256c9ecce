"""Madiao (馬弔): ``Game(rules="standard", banker=0, stake=2, **variants)`` → ``State``.

Action ids: 0–39 play card n face up, 40–79 play card n−40 face down, 80 decline a long-suit
redeal, 81 force it. Card n is the engine's card number (``CARDS[n]`` is its code).
"""

from ._yezi import MadiaoBenchStream as BenchStream
from ._yezi import MadiaoGame as Game
from ._yezi import MadiaoState as State
from ._yezi import madiao_result as result

NUM_ACTIONS = 82
DECLINE_REDEAL = 80
FORCE_REDEAL = 81

#: Card codes by number, lowest first (the engine's order).
CARDS = (
    "W9 W8 W7 W6 W5 W4 W3 W2 W1 WH W0 "
    "S1 S2 S3 S4 S5 S6 S7 S8 S9 "
    "M1 M2 M3 M4 M5 M6 M7 M8 M9 "
    "T2 T3 T4 T5 T6 T7 T8 T9 TB TQ TW"
).split()

__all__ = ["Game", "State", "BenchStream", "result", "NUM_ACTIONS", "DECLINE_REDEAL", "FORCE_REDEAL", "CARDS"]
