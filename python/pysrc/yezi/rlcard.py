"""RLCard: importing this module registers the environments ``yezi-madiao`` and
``yezi-dabaifen``; ``rlcard.make("yezi-dabaifen", config={"seed": 0})``.

One RLCard step is one whole decision. Madiao's action ids are the native ones (0–81, one-hot
features). Da Bai Fen's are whole actions, with 54-dimensional card-set features for DMC-style
training (``env.get_action_feature``): a burial or play is the bit mask of its cards; showing card
``c`` is ``1 << 54 | 1 << c``; passing ``2 << 54`` (no cards); annulling ``3 << 54`` (its feature
is the hand it shows). ``state["obs"]`` is the player's observation tensor. Da Bai Fen's
``num_actions`` is therefore 2**56: RLCard's own ``RandomAgent`` (which allocates one probability
per action id) does not fit it; ``yezi.rlcard.RandomAgent`` does, for both games.
"""

from collections import OrderedDict

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import register

from . import dabaifen, madiao

SET, DECLARE, PASS, ANNUL = 0, 1 << 54, 2 << 54, 3 << 54
CARD_BITS = (1 << 54) - 1


class _Game:
    """The RLCard game object over a native state."""

    def __init__(self, module, allow_step_back=False):
        self.module = module
        self.native = module.Game()
        self.allow_step_back = allow_step_back
        self.np_random = np.random.RandomState()
        self.state = None

    def get_num_players(self):
        return 4

    def get_num_actions(self):
        return madiao.NUM_ACTIONS if self.module is madiao else 1 << 56

    def init_game(self):
        while True:
            state = self.native.new_initial_state()
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[self.np_random.randint(len(outcomes))][0])
            if not state.is_terminal():
                self.state = state
                p = state.current_player()
                return self.get_state(p), p

    def legal_actions(self):
        s = self.state
        if self.module is madiao:
            return s.legal_actions()
        plays = s.legal_plays()
        if plays.shape[0]:
            weights = np.left_shift(np.ones(54, dtype=np.uint64), np.arange(54, dtype=np.uint64))
            return [int(x) for x in plays.astype(np.uint64) @ weights]
        out = []
        for a in s.legal_actions():
            out.append(PASS if a == dabaifen.PASS else ANNUL if a == dabaifen.ANNUL else DECLARE | 1 << a)
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
        elif action == ANNUL:
            s.apply_action(dabaifen.ANNUL)
        else:
            s.apply_action((action & CARD_BITS).bit_length() - 1)
        p = s.current_player()
        return self.get_state(p if p >= 0 else 0), p

    def step_back(self):
        return False

    def get_state(self, player):
        s = self.state
        mover = s.current_player() == player
        return {
            "obs": s.observation_tensor(player),
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

    def __init__(self, config):
        self.name = f"yezi-{self.module.__name__.split('.')[-1]}"
        self.default_game_config = {}
        self.game = _Game(self.module)
        super().__init__(config)
        size = self.game.native.observation_tensor_size()
        self.state_shape = [[size] for _ in range(4)]
        self.action_shape = [[madiao.NUM_ACTIONS] if self.module is madiao else [54] for _ in range(4)]

    def _extract_state(self, state):
        legal = OrderedDict((a, None) for a in state["legal_actions"])
        return {
            "obs": state["obs"],
            "legal_actions": legal,
            "raw_obs": state["raw_obs"],
            "raw_legal_actions": list(legal),
            "action_record": self.action_recorder,
        }

    def get_payoffs(self):
        return np.array(self.game.state.returns())

    def _decode_action(self, action_id):
        return int(action_id)

    def _get_legal_actions(self):
        return OrderedDict((a, None) for a in self.game.legal_actions())

    def get_perfect_information(self):
        return {"state": str(self.game.state)}


class MadiaoEnv(_Env):
    module = madiao


class DabaifenEnv(_Env):
    module = dabaifen

    def get_action_feature(self, action):
        action = int(action)
        feature = np.zeros(54, dtype=np.int8)
        if action == ANNUL:
            bits = [dabaifen.CARDS.index(c) for c in self.game.state.view(self.game.get_player_id())["hand"]]
        else:
            bits = [c for c in range(54) if action >> c & 1]
        feature[bits] = 1
        return feature


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

__all__ = ["MadiaoEnv", "DabaifenEnv", "RandomAgent"]
