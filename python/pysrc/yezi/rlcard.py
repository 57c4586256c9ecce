"""RLCard: importing this module registers the environments ``yezi-madiao`` and
``yezi-dabaifen``; ``rlcard.make("yezi-dabaifen", config={"seed": 0})``.

One RLCard step is one whole decision, and every action has a 54-dimensional feature
(``env.get_action_feature(id)``, a function of the id alone, also the values of
``state["legal_actions"]``) for RLCard's DMC trainer (``rlcard.agents.dmc_agent``).

Madiao's ids are the native ones (0–81). Feature: 0–39 the card played (one-hot), 40 set when it
is played face down, 41 declining a long-suit redeal, 42 forcing it, 43–53 zero.

Da Bai Fen's ids carry the action's cards, which are its feature. A play is the bit mask of its
cards (id = feature); picking card ``c`` is ``1 << 54 | 1 << c``: showing it during the draw, or
burying it (a burial is six picks, card by card in ascending order, rather than one of the
C(18, 6) = 18,564 six-card sets a network would have to score at once); passing is ``2 << 54`` (no
cards); annulling ``3 << 54 | hand``, the hand it shows. Da Bai Fen's
ids therefore run to 2**56, which no agent can size a table or a network by: its ``num_actions``
is ``DABAIFEN_NUM_ACTIONS``, which refuses to be used as a size (``range``, ``np.zeros``, …) with
a ``ValueError`` saying so, so RLCard's own ``RandomAgent.eval_step`` fails at once instead of
allocating 2**56 probabilities. ``yezi.rlcard.RandomAgent`` works for both games; DMC uses the
54-dimensional features.

The game's variants come from the config: ``rlcard.make("yezi-madiao", config={"seed": 0,
"faceup_discard": "forbidden"})`` (the keyword arguments of ``yezi.madiao.Game`` /
``yezi.dabaifen.Game``, by name or with RLCard's ``game_`` prefix; an unknown one is a
``ValueError``).

``state["obs"]`` is the player's observation tensor as ``int8`` whole numbers: the tensor times
``env.obs_scale`` (1 for the 0/1 entries, the denominator for the fraction-valued ones, so they
arrive as counts: face-down cards and tricks won in Madiao, cards drawn, hand sizes, card points / 5
and cards in the lead in Da Bai Fen). RLCard's DMC trainer stores observations in ``int8``
buffers, where a fraction below 1 would become 0; whole numbers pass unchanged, and the actors and
the learner see the same values. ``state["obs"] / env.obs_scale`` is
``State.observation_tensor``. An environment pickles (RLCard's DMC trainer
sends it to its actor processes), with its game and the hand in progress.
"""

from collections import OrderedDict

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import register

from . import dabaifen, madiao

SET, PICK, PASS, ANNUL = 0, 1 << 54, 2 << 54, 3 << 54
CARD_BITS = (1 << 54) - 1
FEATURE_SIZE = 54

#: Madiao's feature columns after the 40 cards.
MADIAO_FACE_DOWN, MADIAO_DECLINE, MADIAO_FORCE = 40, 41, 42

_MADIAO_FEATURES = np.zeros((madiao.NUM_ACTIONS, FEATURE_SIZE), dtype=np.int8)
for _a in range(40):
    _MADIAO_FEATURES[_a, _a] = 1
    _MADIAO_FEATURES[40 + _a, _a] = 1
    _MADIAO_FEATURES[40 + _a, MADIAO_FACE_DOWN] = 1
_MADIAO_FEATURES[madiao.DECLINE_REDEAL, MADIAO_DECLINE] = 1
_MADIAO_FEATURES[madiao.FORCE_REDEAL, MADIAO_FORCE] = 1
_MADIAO_FEATURES.setflags(write=False)


def _obs_scale(size, fractions):
    scale = np.ones(size, dtype=np.float32)
    for start, n, denominator in fractions:
        scale[start : start + n] = denominator
    scale.setflags(write=False)
    return scale


#: The factors that make each game's observation tensor whole numbers (docs/python.md, "Tensor
#: layouts"): the denominators of its fraction-valued entries, 1 elsewhere. Da Bai Fen's card
#: points (multiples of 5, out of 200) become points / 5, so every entry fits in ``int8``.
MADIAO_OBS_SCALE = _obs_scale(madiao.Game().observation_tensor_size(), [(404, 4, 8), (460, 4, 8)])
DABAIFEN_OBS_SCALE = _obs_scale(
    dabaifen.Game().observation_tensor_size(), [(820, 1, 48), (821, 4, 18), (825, 2, 40), (827, 1, 12)]
)


def obs_to_int8(tensor, scale):
    """An observation tensor as RLCard's ``state["obs"]``: ``tensor * scale`` as ``int8``, which
    must be whole numbers in ``int8``'s range (a ``ValueError`` otherwise: a fraction the scale
    misses would otherwise be lost in RLCard's DMC buffers)."""
    scaled = np.asarray(tensor, dtype=np.float32) * scale
    out = np.rint(scaled)
    if np.abs(scaled - out).max(initial=0.0) > 1e-3 or out.min(initial=0) < -128 or out.max(initial=0) > 127:
        bad = np.flatnonzero((np.abs(scaled - out) > 1e-3) | (out < -128) | (out > 127))
        raise ValueError(f"observation entries {bad.tolist()} are not whole int8 numbers once scaled")
    return out.astype(np.int8)


#: RLCard's own configuration keys; every other key of ``config`` is a game keyword argument.
RLCARD_KEYS = ("seed", "allow_step_back")


class UnsizedActionCount:
    """Da Bai Fen's ``num_actions``: 2**56 ids (card bit masks), which nothing can be sized by.

    Used as a size (``range(n)``, ``np.zeros(n)``, ``int(n)``) it raises ``ValueError`` at once,
    so an agent that allocates one entry per action id (RLCard's ``RandomAgent.eval_step``, its
    DQN and NFSP heads) fails with this message instead of allocating without limit.
    """

    value = 1 << 56
    message = (
        "yezi-dabaifen's RLCard action ids are card bit masks up to 2**56: no agent can be sized "
        "by num_actions. Use yezi.rlcard.RandomAgent, or an agent that scores the legal actions by "
        "their 54-dimensional features (env.get_action_feature, as RLCard's DMC does)"
    )

    def __index__(self):
        raise ValueError(self.message)

    __int__ = __index__

    def __eq__(self, other):
        return other is self or other == self.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "2**56 (yezi-dabaifen's card-mask ids: not a size)"


DABAIFEN_NUM_ACTIONS = UnsizedActionCount()

_BIT_WEIGHTS = np.left_shift(np.ones(54, dtype=np.uint64), np.arange(54, dtype=np.uint64))
_CARD_NUMBER = {c: i for i, c in enumerate(dabaifen.CARDS)}


def madiao_action_feature(action):
    """Madiao's 54-dimensional feature of native id ``action`` (a read-only int8 row)."""
    action = int(action)
    if not 0 <= action < madiao.NUM_ACTIONS:
        raise ValueError(f"no Madiao action {action}")
    return _MADIAO_FEATURES[action]


def dabaifen_action_feature(action):
    """Da Bai Fen's 54-dimensional feature of RLCard id ``action``: its cards (int8)."""
    action = int(action)
    if not 0 <= action < 1 << 56:
        raise ValueError(f"no Da Bai Fen action {action}")
    bits = np.right_shift(np.uint64(action & CARD_BITS), np.arange(54, dtype=np.uint64))
    return (bits & np.uint64(1)).astype(np.int8)


class _Game:
    """The RLCard game object over a native state (both pickle: a pickled environment carries
    its game's variants and the hand in progress). ``skipped`` counts the deals dealt again
    because they ended before any decision (a Madiao meld or the four lowest)."""

    def __init__(self, module, allow_step_back=False, game_kwargs=None):
        self.module = module
        self.native = module.Game(**(game_kwargs or {}))
        self.allow_step_back = allow_step_back
        self.obs_scale = MADIAO_OBS_SCALE if module is madiao else DABAIFEN_OBS_SCALE
        self.np_random = np.random.RandomState()
        self.state = None
        self.skipped = 0

    def __getstate__(self):
        # The game and the state pickle themselves (their setup, deck and yezi/1 record).
        d = self.__dict__.copy()
        d["module"] = self.module.__name__
        del d["obs_scale"]
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self.module = madiao if d["module"] == madiao.__name__ else dabaifen
        self.obs_scale = MADIAO_OBS_SCALE if self.module is madiao else DABAIFEN_OBS_SCALE

    def get_num_players(self):
        return 4

    def get_num_actions(self):
        return madiao.NUM_ACTIONS if self.module is madiao else DABAIFEN_NUM_ACTIONS

    def init_game(self):
        while True:
            state = self.native.new_initial_state()
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[self.np_random.randint(len(outcomes))][0])
            if state.is_terminal():
                self.skipped += 1
            else:
                self.state = state
                p = state.current_player()
                return self.get_state(p), p

    def legal_actions(self):
        s = self.state
        if self.module is madiao:
            return s.legal_actions()
        if s.is_terminal():
            return []
        if s.view(s.current_player())["phase"] == "burying":
            # Card by card: six picks (a whole burial would be one of C(18, 6) = 18,564 sets).
            return [PICK | 1 << a for a in s.legal_actions()]
        plays = s.legal_plays()
        if plays.shape[0]:
            return [int(x) for x in plays.astype(np.uint64) @ _BIT_WEIGHTS]
        out = []
        for a in s.legal_actions():
            if a == dabaifen.PASS:
                out.append(PASS)
            elif a == dabaifen.ANNUL:
                hand = s.view(s.current_player())["hand"]
                out.append(ANNUL | sum(1 << _CARD_NUMBER[c] for c in hand))
            else:
                out.append(PICK | 1 << a)
        return out

    def step(self, action):
        action = int(action)
        s = self.state
        if self.module is madiao:
            s.apply_action(action)
        elif action >> 54 == 0:
            s.apply_play([c for c in range(54) if action >> c & 1])
        elif action == PASS:
            s.apply_action(dabaifen.PASS)
        elif action >> 54 == 3:
            if action not in self.legal_actions():
                raise ValueError(f"annulling with cards {action & CARD_BITS:#x}, not the hand")
            s.apply_action(dabaifen.ANNUL)
        elif action >> 54 == 1 and bin(action & CARD_BITS).count("1") == 1:
            s.apply_action((action & CARD_BITS).bit_length() - 1)
        else:
            raise ValueError(f"no Da Bai Fen action {action}")
        p = s.current_player()
        return self.get_state(p if p >= 0 else 0), p

    def step_back(self):
        return False

    def get_state(self, player):
        s = self.state
        mover = s.current_player() == player
        return {
            "obs": obs_to_int8(s.observation_tensor(player), self.obs_scale),
            "legal_actions": self.legal_actions() if mover else [],
            "raw_obs": s.view(player),
            "player": player,
        }

    def is_over(self):
        return self.state.is_terminal()

    def get_player_id(self):
        p = self.state.current_player()
        return p if p >= 0 else 0


class _Env(Env):
    module = None
    feature = None

    def __init__(self, config):
        self.name = f"yezi-{self.module.__name__.split('.')[-1]}"
        self.default_game_config = {}
        # Every key but RLCard's own is the game's keyword argument (``game_`` prefix optional).
        game_kwargs = {
            (k[len("game_"):] if k.startswith("game_") else k): v for k, v in config.items() if k not in RLCARD_KEYS
        }
        self.game_config = game_kwargs
        self.game = _Game(self.module, game_kwargs=game_kwargs)
        super().__init__(config)
        size = self.game.native.observation_tensor_size()
        self.state_shape = [[size] for _ in range(4)]
        self.action_shape = [[FEATURE_SIZE] for _ in range(4)]
        #: ``state["obs"] / obs_scale`` is the observation tensor (``state["obs"]`` is int8 counts).
        self.obs_scale = self.game.obs_scale

    def _extract_state(self, state):
        feature = type(self).feature
        legal = OrderedDict((a, feature(a)) for a in state["legal_actions"])
        return {
            "obs": state["obs"],
            "legal_actions": legal,
            "raw_obs": state["raw_obs"],
            "raw_legal_actions": list(legal),
            "action_record": self.action_recorder,
        }

    def get_action_feature(self, action):
        """The action's 54-dimensional int8 feature (depends on the id only)."""
        return type(self).feature(action)

    def get_payoffs(self):
        return np.array(self.game.state.returns())

    def _decode_action(self, action_id):
        return int(action_id)

    def _get_legal_actions(self):
        feature = type(self).feature
        return OrderedDict((a, feature(a)) for a in self.game.legal_actions())

    def get_perfect_information(self):
        return {"state": str(self.game.state)}


class MadiaoEnv(_Env):
    module = madiao
    feature = staticmethod(madiao_action_feature)


class DabaifenEnv(_Env):
    module = dabaifen
    feature = staticmethod(dabaifen_action_feature)


class RandomAgent:
    """Uniform over the legal actions, for any action-id range."""

    use_raw = False

    def __init__(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def step(self, state):
        legal = list(state["legal_actions"])
        return legal[self._rng.integers(len(legal))]

    def eval_step(self, state):
        return self.step(state), {}


def _register():
    from rlcard.envs.registration import registry

    for env_id, entry in (("yezi-madiao", "yezi.rlcard:MadiaoEnv"), ("yezi-dabaifen", "yezi.rlcard:DabaifenEnv")):
        if env_id not in registry.env_specs:
            register(env_id=env_id, entry_point=entry)


_register()

__all__ = [
    "MadiaoEnv",
    "DabaifenEnv",
    "RandomAgent",
    "madiao_action_feature",
    "dabaifen_action_feature",
    "MADIAO_OBS_SCALE",
    "DABAIFEN_OBS_SCALE",
    "obs_to_int8",
]
