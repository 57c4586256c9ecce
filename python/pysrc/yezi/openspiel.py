"""OpenSpiel: importing this module registers ``yezi_madiao`` and ``yezi_dabaifen`` with
``pyspiel.register_game``; ``pyspiel.load_game("yezi_madiao", {"faceup_discard": "forbidden"})``.

Sequential, explicit chance (the deck placed card by card), imperfect information, zero-sum,
terminal rewards. Observers are filled by Rust into their numpy tensor in place (the default
observation: the observation tensor; perfect recall: the information-state tensor).
``State.resample_from_infostate`` uses the bots' samplers, so Python's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` runs on both games. (OpenSpiel's C++ MCTS and
IS-MCTS bots do not work on games registered from Python.)

``Environment`` is OpenSpiel's ``rl_environment.Environment`` for these games: its ``reset()``
never hands back a finished game. A deal can end before any decision (0.57% of Madiao deals: a
meld or the four lowest); ``reset()`` then deals again and counts the deal in ``skipped``, as
``yezi.vector.VecEnv`` does. (OpenSpiel's own ``rl_environment.Environment`` returns such a deal
as it is, with ``current_player()`` -4, on which its agents fail.)
"""

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

from . import dabaifen, madiao

_MAX_U = {"madiao": 200.0, "dabaifen": 13.0}
_MAX_LEN = {"madiao": 40 + 4 + 32, "dabaifen": 54 + 4 * 48 + 4 + 6 + 54 + 12}


def _game_type(name, module, defaults):
    return pyspiel.GameType(
        short_name=f"yezi_{name}",
        long_name=f"yezi {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


class YeziGame(pyspiel.Game):
    """A yezi game for OpenSpiel; ``params`` are the game's keyword arguments."""

    name = None
    module = None

    def __init__(self, params=None):
        params = dict(params or {})
        self.native = self.module.Game(**{k: v for k, v in params.items()})
        info = pyspiel.GameInfo(
            num_distinct_actions=self.native.num_distinct_actions(),
            max_chance_outcomes=self.native.max_chance_outcomes(),
            num_players=4,
            min_utility=-_MAX_U[self.name],
            max_utility=_MAX_U[self.name],
            utility_sum=0.0,
            max_game_length=_MAX_LEN[self.name],
        )
        super().__init__(self.game_type, info, params)

    def new_initial_state(self):
        return YeziState(self, self.native.new_initial_state())

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("yezi observers show one player's private cards (PrivateInfoType.SINGLE_PLAYER)")
        return YeziObserver(self.native, perfect_recall)


class YeziState(pyspiel.State):
    def __init__(self, game, native):
        super().__init__(game)
        self.native = native

    def current_player(self):
        p = self.native.current_player()
        if p == -1:
            return pyspiel.PlayerId.CHANCE
        if p == -4:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return self.native.legal_actions()

    def chance_outcomes(self):
        return self.native.chance_outcomes()

    def _apply_action(self, action):
        self.native.apply_action(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.get_game().module.CARDS[action]}"
        return f"p{player} {_action_name(self.get_game().name, action)}"

    def is_terminal(self):
        return self.native.is_terminal()

    def returns(self):
        return self.native.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        seed = int(probability_sampler() * (2**53))
        r = YeziState(self.get_game(), self.native.resample_from_infostate(player_id, seed))
        return r

    def __str__(self):
        return str(self.native)


class Environment(rl_environment.Environment):
    """``rl_environment.Environment(game, **kwargs)`` whose ``reset()`` deals again while the deal
    is over before any decision; ``skipped`` counts those deals. ``game`` is a game object or a
    name such as ``"yezi_madiao"``."""

    skipped = 0

    def reset(self):
        for _ in range(10_000):
            time_step = super().reset()
            if not self._state.is_terminal():
                return time_step
            self.skipped += 1
        raise RuntimeError("10,000 deals in a row ended before any decision")


def _action_name(game, a):
    if game == "madiao":
        if a < 40:
            return f"up {madiao.CARDS[a]}"
        if a < 80:
            return f"down {madiao.CARDS[a - 40]}"
        return "decline redeal" if a == 80 else "force redeal"
    if a < 54:
        return f"pick {dabaifen.CARDS[a]}"
    return {54: "pass", 55: "annul", 56: "end lead"}[a]


class YeziObserver:
    """Observer filled by Rust in place (``tensor`` is written, never reallocated)."""

    def __init__(self, native_game, perfect_recall):
        self.perfect_recall = perfect_recall
        size = native_game.information_state_tensor_size() if perfect_recall else native_game.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state, player):
        if self.perfect_recall:
            state.native.information_state_tensor(player, out=self.tensor)
        else:
            state.native.observation_tensor(player, out=self.tensor)

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.native.information_state_string(player)
        return state.native.observation_string(player)


def _typed(value):
    # OpenSpiel reads a serialized game's parameters back by their look ("false" is a bool), so
    # each default has the type its text will be read as; the native game takes any of them.
    if value in ("true", "false"):
        return value == "true"
    return value


def _register(name, module):
    defaults = {k: _typed(v) for k, v in module.Game().variants()}
    if name == "madiao":
        defaults = {"rules": "standard", **defaults}
    cls = type(f"{name.title()}Game", (YeziGame,), {"name": name, "module": module})
    cls.game_type = _game_type(name, module, defaults)
    pyspiel.register_game(cls.game_type, cls)
    return cls


MadiaoGame = _register("madiao", madiao)
DabaifenGame = _register("dabaifen", dabaifen)

__all__ = ["MadiaoGame", "DabaifenGame", "YeziGame", "YeziState", "YeziObserver", "Environment"]
