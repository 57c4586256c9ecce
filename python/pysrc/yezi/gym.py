"""Gymnasium: one seat against the project's bots (``SeatEnv``), and the same natively vectorized
in Rust (``VecSeatEnv``).

``SeatEnv(game="madiao", seat=0, opponents="random", seed=None, think_ms=10, illegal="random",
**game_kwargs)``: the agent plays ``seat``; the other seats are ``yezi.bots`` (one name for all,
or a list of three in seat order). Observations are dicts ``{"observation", "action_mask"}``;
the reward is the seat's return when the hand ends. An action the mask forbids is replaced by a
random legal one (``info["illegal_action"]`` is set) or, with ``illegal="raise"``, refused.
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from . import bots, dabaifen, madiao

_GAMES = {"madiao": madiao, "dabaifen": dabaifen}


class SeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game="madiao", seat=0, opponents="random", seed=None, think_ms=10, illegal="random",
                 render_mode=None, **game_kwargs):
        if game not in _GAMES:
            raise ValueError(f"game is one of {sorted(_GAMES)}, not {game!r}")
        if illegal not in ("random", "raise"):
            raise ValueError("illegal is 'random' or 'raise'")
        self.game_name = game
        self.game = _GAMES[game].Game(**game_kwargs)
        self.seat = int(seat)
        if not 0 <= self.seat < 4:
            raise ValueError(f"seat is 0–3, not {seat}")
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise ValueError("opponents is one bot name or three")
        self._names = names
        self._think_ms = think_ms
        self.illegal = illegal
        self.render_mode = render_mode
        n_obs = self.game.observation_tensor_size()
        n_act = self.game.num_distinct_actions()
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(n_act)
        self.state = None
        self._bots = {}
        self._seed = seed

    def _make_bots(self, seed):
        others = [s for s in range(4) if s != self.seat]
        self._bots = {s: bots.Bot(self.game_name, n, seed=seed + s, think_ms=self._think_ms) for s, n in zip(others, self._names)}

    def _obs(self):
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self.state.current_player() == self.seat:
            mask[:] = self.state.legal_action_mask()
        return {"observation": self.state.observation_tensor(self.seat), "action_mask": mask}

    def _advance(self):
        # Chance and the bots until the agent's turn or the end.
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            if self.state.is_chance_node():
                outcomes = self.state.chance_outcomes()
                self.state.apply_action(outcomes[self.np_random.integers(len(outcomes))][0])
            else:
                self._bots[self.state.current_player()].act(self.state)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed if seed is not None else self._seed)
        self._seed = None
        self._make_bots(int(self.np_random.integers(2**62)))
        while True:
            self.state = self.game.new_initial_state()
            self._advance()
            if not self.state.is_terminal():
                return self._obs(), {}

    def step(self, action):
        info = {}
        action = int(action)
        if not self.state.legal_action_mask()[action] if 0 <= action < self.action_space.n else True:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal")
            legal = self.state.legal_actions()
            action = legal[self.np_random.integers(len(legal))]
            info["illegal_action"] = True
        self.state.apply_action(action)
        self._advance()
        done = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        return self._obs(), reward, done, False, info

    def render(self):
        return str(self.state) if self.state is not None else ""


class VecSeatEnv(gymnasium.vector.VectorEnv):
    """A native vector env: ``num_envs`` hands stepped in Rust (``yezi.vector.VecEnv``), the agent
    playing ``seat`` in each and the project's bots the other seats, also in Rust.

    Observations are dicts of batched arrays ``{"observation", "action_mask"}`` (the same
    arrays every step, filled in place); rewards are the seat's returns on the step a hand ends;
    a finished hand is dealt anew in the same step (``autoreset_mode`` ``SAME_STEP``).
    """

    def __init__(self, game="madiao", num_envs=8, seat=0, opponents="random", seed=0, think_ms=10, **game_kwargs):
        from .vector import VecEnv

        if game not in _GAMES:
            raise ValueError(f"game is one of {sorted(_GAMES)}, not {game!r}")
        native = _GAMES[game].Game(**game_kwargs)
        self.seat = int(seat)
        self._env = VecEnv(native, num_envs, seed=seed, seat=self.seat, opponents=opponents, think_ms=think_ms)
        self.num_envs = num_envs
        n_obs = native.observation_tensor_size()
        n_act = native.num_distinct_actions()
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(n_act)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
        self._truncations = np.zeros(num_envs, dtype=bool)

    def _obs(self):
        return {"observation": self._env.observations, "action_mask": self._env.action_masks}

    def reset(self, seed=None, options=None):
        self._env.reset(seed=seed)
        return self._obs(), {}

    def step(self, actions):
        _, _, _, rewards, terms = self._env.step(np.asarray(actions, dtype=np.int64))
        return self._obs(), rewards[:, self.seat].copy(), terms.copy(), self._truncations, {}


gymnasium.register(id="yezi/Madiao-v0", entry_point="yezi.gym:SeatEnv", kwargs={"game": "madiao"})
gymnasium.register(id="yezi/Dabaifen-v0", entry_point="yezi.gym:SeatEnv", kwargs={"game": "dabaifen"})

__all__ = ["SeatEnv", "VecSeatEnv"]
