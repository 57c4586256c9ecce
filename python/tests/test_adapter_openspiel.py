"""The OpenSpiel adapter: registration, random_sim_test, the Python API, IS-MCTS with our
resampler, outcome-sampling MCCFR."""

import json
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

import yezi.arena
import yezi.openspiel  # noqa: F401  (registers the games)

NAMES = ["yezi_madiao", "yezi_dabaifen"]


#: The decision phases random play must reach in `test_random_sim_test` (the phase of the mover's
#: view): Madiao's long-suit redeal, Da Bai Fen's rare annulment (about 0.6% of decisions).
PHASES = {
    "yezi_madiao": {"redeal", "play"},
    "yezi_dabaifen": {"drawing", "annulling", "burying", "playing"},
}


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_test(name):
    # OpenSpiel's random_sim_test plays from a default-seeded std::mt19937, so its games are the
    # same on every run; 300 of them reach every decision phase (checked at every state), the
    # rare ones included (Da Bai Fen's first annulment comes in game 206).
    game = pyspiel.load_game(name)
    phases = set()
    games = []

    def check(state):
        if state.is_terminal():
            games.append(len(state.history()))
        elif not state.is_chance_node():
            phases.add(state.native.view(state.current_player())["phase"])

    pyspiel.random_sim_test(game, num_sims=300, serialize=False, verbose=False, state_checker_fn=check)
    assert len(games) == 300
    assert phases == PHASES[name]


@pytest.mark.parametrize(
    "name, params",
    [
        ("yezi_madiao", {}),
        ("yezi_madiao", {"faceup_discard": "forbidden", "meld_extra_stake": True, "rules": "feng"}),
        ("yezi_dabaifen", {}),
        ("yezi_dabaifen", {"revoke": "refuse", "annul": "non_starters_only"}),
    ],
)
def test_random_sim_test_serializes(name, params):
    # Serializing writes the game as its name and parameters and reads it back: each parameter's
    # value must come back with its type ("false" is read as a bool).
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=300, serialize=True, verbose=False)
    back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, game.new_initial_state()))[0]
    assert str(back) == str(game)
    assert back.native == game.native


@pytest.mark.parametrize("name", NAMES)
def test_games_and_states_pickle(name):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    back = pickle.loads(pickle.dumps(state))
    assert back.history() == state.history()
    assert back.native == state.native
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_environment_reset_never_hands_back_a_finished_deal():
    # 0.57% of Madiao deals end at the deal (a meld, the four lowest): OpenSpiel's own
    # rl_environment hands those back at reset with current_player -4.
    from open_spiel.python import rl_environment

    plain = rl_environment.Environment("yezi_madiao", chance_event_sampler=rl_environment.ChanceEventSampler(seed=5))
    finished = sum(plain.reset().observations["current_player"] < 0 for _ in range(1000))
    assert finished > 0  # the trap is real (5 of these 1,000 seeded deals)

    env = yezi.openspiel.Environment("yezi_madiao", chance_event_sampler=rl_environment.ChanceEventSampler(seed=5))
    for _ in range(1000):
        assert env.reset().observations["current_player"] in range(4)
    # The deals dealt again are counted: about 0.57%.
    assert 0 < env.skipped < 20


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_agents_play_whole_episodes(name):
    from open_spiel.python.algorithms import random_agent, tabular_qlearner

    from open_spiel.python import rl_environment

    env = yezi.openspiel.Environment(name, chance_event_sampler=rl_environment.ChanceEventSampler(seed=1))
    n = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=0, num_actions=n)] + [
        random_agent.RandomAgent(player_id=p, num_actions=n) for p in range(1, 4)
    ]
    for _ in range(30):
        time_step = env.reset()
        acted = set()
        while not time_step.last():
            p = time_step.observations["current_player"]
            acted.add(p)
            time_step = env.step([agents[p].step(time_step).action])
        # The last step for the agents that acted (a hand can end before a seat acts, a forced
        # redeal or an annulment, and QLearner's last step assumes it acted).
        for p in acted:
            agents[p].step(time_step)
        assert sum(time_step.rewards) == pytest.approx(0)


@pytest.mark.parametrize("name", NAMES)
def test_python_api(name):
    game = pyspiel.load_game(name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 4
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        p = state.current_player()
        # OpenSpiel's tensors come from our observer, equal to the native ones.
        assert np.array_equal(np.array(state.observation_tensor(p)), state.native.observation_tensor(p))
        assert np.array_equal(np.array(state.information_state_tensor(p)), state.native.information_state_tensor(p))
        assert state.information_state_string(p) == state.native.information_state_string(p)
        assert state.observation_string(p) == state.native.observation_string(p)
        legal = state.legal_actions()
        assert legal == state.native.legal_actions()
        assert list(np.flatnonzero(state.legal_actions_mask(p))) == legal
        clone = state.clone()
        a = legal[rng.integers(len(legal))]
        state.apply_action(a)
        assert clone.history() + [a] == state.history()
    assert abs(sum(state.returns())) < 1e-9
    assert all(abs(r) <= game.max_utility() for r in state.returns())


def test_game_parameters_reach_the_engine():
    game = pyspiel.load_game("yezi_madiao", {"faceup_discard": "forbidden"})
    assert dict(game.native.variants())["faceup_discard"] == "forbidden"
    with pytest.raises(Exception):
        pyspiel.load_game("yezi_madiao", {"faceup_discard": "sometimes"})


def _deal(game, seed):
    rng = np.random.default_rng(seed)
    while True:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        if not state.is_terminal():
            return state


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_with_our_resampler_plays_legal_moves(name):
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(2))
    state = _deal(game, 3)
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[0][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0


@pytest.mark.parametrize("name", NAMES)
def test_outcome_sampling_mccfr_runs(name):
    game = pyspiel.load_game(name)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = _deal(game, 4)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1.0) < 1e-9


@pytest.mark.parametrize("game", ["madiao", "dabaifen"])
def test_ismcts_and_mccfr_play_in_the_duplicate_arena(game):
    import importlib.util
    import pathlib

    spec = importlib.util.spec_from_file_location("osa", pathlib.Path(__file__).parents[1] / "openspiel_arena.py")
    osa = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(osa)
    g = pyspiel.load_game("yezi_" + game)
    for policy in (osa.ismcts_policy(g, 4, 1), osa.mccfr_policy(g, 5, 1)):
        report = yezi.arena.run(game, policy, baseline="heuristic", hands=1, seed=3, think_ms=1, policy_input="state")
        assert report["hands"] == 1 and report["series"][0]["summary"]["n"] == 1


def test_state_policies_see_a_resampled_state_never_the_true_one():
    seen = []

    def policy(state):
        seen.append(state.to_record())
        return state.legal_actions()[0]

    yezi.arena.run("madiao", policy, baseline="random", hands=1, seed=2, policy_input="state")
    # One deal only: were these true states, every deck would be the same.
    decks = {tuple(json.loads(r)["hands"][0]["deck"]) for r in seen}
    assert len(seen) > 4 and len(decks) > 1
    with pytest.raises(ValueError, match="raised"):
        yezi.arena.run("dabaifen", lambda s: 1 / 0, hands=1, policy_input="state")
