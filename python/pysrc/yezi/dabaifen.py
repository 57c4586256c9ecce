"""Da Bai Fen (打百分): ``Game(starter=0, ranks=("2", "2"), first_deal=True, open=False,
**variants)`` → ``State``.

Action ids: 0–53 pick card n (show it during the draw; add it to the burial or the play being
built, in ascending card order), 54 pass, 55 annul, 56 end a multi-card lead. Card n is
``CARDS[n]``: 2S … AS, 2H … AH, 2D … AD, 2C … AC, SJ, BJ.
"""

from ._yezi import DabaifenGame as Game
from ._yezi import DabaifenMatch as Match
from ._yezi import DabaifenRandomPolicy as RandomPolicy
from ._yezi import DabaifenState as State
from ._yezi import dabaifen_result as result

NUM_ACTIONS = 57
PASS = 54
ANNUL = 55
END_LEAD = 56

CARDS = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["SJ", "BJ"]

__all__ = ["Game", "State", "Match", "RandomPolicy", "result", "NUM_ACTIONS", "PASS", "ANNUL", "END_LEAD", "CARDS"]
