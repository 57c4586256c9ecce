"""OpenSpiel's IS-MCTS (Python ISMCTSBot with our resampler) and outcome-sampling MCCFR in the
project's duplicate arena against random, heuristic and pimc.

    python python/openspiel_arena.py [--hands 20] [--sims 50] [--mccfr-iterations 300]

Each candidate is side A of `yezi.arena.run(..., policy_input="state")`: it is shown a state drawn
from its seat's information (never the true one). Prints the mean difference per deal with its
95% interval (Madiao in stakes, Da Bai Fen in ranks; positive favours the candidate).
"""

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr

import yezi.openspiel
from yezi import arena


def ismcts_policy(game, sims, seed):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims, random_state=np.random.RandomState(seed + 1))

    def policy(native):
        return int(bot.step(yezi.openspiel.YeziState(game, native)))

    return policy


def mccfr_policy(game, iterations, seed):
    np.random.seed(seed)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(iterations):
        solver.iteration()
    average = solver.average_policy()
    rng = np.random.default_rng(seed)

    def policy(native):
        probs = average.action_probabilities(yezi.openspiel.YeziState(game, native))
        actions = list(probs)
        p = np.array([probs[a] for a in actions], dtype=float)
        return int(actions[rng.choice(len(actions), p=p / p.sum())])

    return policy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--sims", type=int, default=50)
    ap.add_argument("--mccfr-iterations", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'game':9s} {'candidate':18s} {'baseline':10s} {'mean diff [95% CI]':32s} win rate")
    for name in ("madiao", "dabaifen"):
        game = pyspiel.load_game("yezi_" + name)
        candidates = {
            f"ismcts({args.sims})": lambda: ismcts_policy(game, args.sims, args.seed),
            f"os-mccfr({args.mccfr_iterations})": lambda: mccfr_policy(game, args.mccfr_iterations, args.seed),
        }
        for cname, make in candidates.items():
            for baseline in ("random", "heuristic", "pimc"):
                r = arena.run(name, make(), baseline=baseline, hands=args.hands, seed=args.seed, think_ms=10,
                              policy_input="state")
                s = r["series"][0]["summary"]
                d, w = s["diff"], s["win_rate"]
                print(f"{name:9s} {cname:18s} {baseline:10s} {d['mean']:+8.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"
                      f"{'':6s} {w['mean']:.2f}", flush=True)


if __name__ == "__main__":
    main()
