"""PettingZoo AEC environments: ``yezi.pettingzoo.madiao_v0.env()`` and ``dabaifen_v0.env()``.

Agents ``player_0`` … ``player_3``; each observation is a dict ``{"observation": float32 tensor
(the seat's observation tensor), "action_mask": int8 mask (all zeros when the agent is not to
move)}``. Rewards are the hand's returns, given when it ends. Chance (the deal) happens inside
``reset``, seeded by ``reset(seed=...)``; a deal that ends before any decision (a Madiao meld)
is dealt again. An action the mask forbids raises ``ValueError``. Keyword arguments are the game's (``rules``, variants, …).
"""

from types import SimpleNamespace

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import dabaifen, madiao


class YeziAEC(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_module, name, render_mode=None, **game_kwargs):
        super().__init__()
        self.metadata = dict(self.metadata, name=name)
        self.game = game_module.Game(**game_kwargs)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents = []
        n_obs = self.game.observation_tensor_size()
        n_act = self.game.num_distinct_actions()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (n_obs,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _deal(self):
        # The deck shuffled in Rust from a seed drawn from the environment's generator.
        while True:
            state = self.game.new_initial_state(seed=int(self._rng.integers(2**63)))
            if not state.is_terminal():
                return state

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self._deal()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self.state.current_player() == p:
            mask[:] = self.state.legal_action_mask()
        return {"observation": self.state.observation_tensor(p), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self.state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
            # The dead agents step out in seat order from the next one.
            i = self.possible_agents.index(agent)
            self.agent_selection = self.possible_agents[(i + 1) % 4]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass


def _module(game_module, name):
    def raw_env(render_mode=None, **kwargs):
        return YeziAEC(game_module, name, render_mode=render_mode, **kwargs)

    def env(render_mode=None, **kwargs):
        # An illegal or out-of-range action is a ValueError from the engine (not a penalty).
        return wrappers.OrderEnforcingWrapper(raw_env(render_mode=render_mode, **kwargs))

    return SimpleNamespace(env=env, raw_env=raw_env)


madiao_v0 = _module(madiao, "yezi_madiao_v0")
dabaifen_v0 = _module(dabaifen, "yezi_dabaifen_v0")

__all__ = ["madiao_v0", "dabaifen_v0", "YeziAEC"]
