"""OpenSpiel's IS-MCTS against one of the project's bots (`expert` by default) at equal time, in
the duplicate arena.

    python python/ismcts_equal_time.py [--hands 200] [--games madiao,dabaifen] [--think-ms 100]
                                       [--baseline expert]

For each game: a short calibration run gives the baseline bot's mean decision time (at
`--think-ms`, on this machine, one core) and IS-MCTS's time per simulation; IS-MCTS (OpenSpiel's
Python `ISMCTSBot`, one random rollout per simulation, our resampler for the hidden cards) is then
given as many simulations per decision as fit in the baseline's mean time (at least one;
`--sims` sets them), and plays `--hands` duplicate deals as side A of
`yezi.arena.run(..., policy_input="state")` against the baseline as side B. The report gives both sides' measured mean decision times in that run (the equal-time check)
and the mean difference per deal with its 95% interval (Madiao in stakes, Da Bai Fen in ranks;
positive favours IS-MCTS): the baseline is the stronger when the whole interval is below zero.
"""

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import yezi.openspiel
from yezi import arena


def ismcts_policy(game, sims, seed):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=sims,
                           random_state=np.random.RandomState(seed + 1))

    def policy(native):
        return int(bot.step(yezi.openspiel.YeziState(game, native)))

    return policy


def run(name, game, sims, hands, seed, think_ms, baseline="expert"):
    t0 = time.time()
    r = arena.run(name, ismcts_policy(game, sims, seed), baseline=baseline, hands=hands, seed=seed,
                  think_ms=think_ms, policy_input="state")
    return r, time.time() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think-ms", type=int, default=100)
    ap.add_argument("--calibration-hands", type=int, default=4)
    ap.add_argument("--calibration-sims", type=int, default=20)
    ap.add_argument("--games", default="madiao,dabaifen")
    ap.add_argument("--json-out", default=None)
    ap.add_argument("--baseline", default="expert", help="the bot IS-MCTS plays against (side B)")
    ap.add_argument("--sims", type=int, default=0, help="simulations per decision (0: calibrate to equal time)")
    args = ap.parse_args()
    out = {}
    for name in args.games.split(","):
        game = pyspiel.load_game("yezi_" + name)
        # Calibration on other deals than the measured ones (seed + 1000).
        b = args.baseline
        r, _ = run(name, game, args.calibration_sims, args.calibration_hands, args.seed + 1000, args.think_ms, b)
        per_sim = r["times_a"]["mean_ms"] / args.calibration_sims
        expert_ms = r["times_b"]["mean_ms"]
        sims = args.sims or max(1, round(expert_ms / per_sim))
        print(f"{name}: calibration: {b} {expert_ms:.3f} ms a decision, IS-MCTS {per_sim:.2f} ms a simulation"
              f" -> {sims} simulations" + (" (--sims)" if args.sims else ""), flush=True)
        r, wall = run(name, game, sims, args.hands, args.seed, args.think_ms, b)
        s = r["series"][0]["summary"]
        d, w = s["diff"], s["win_rate"]
        print(f"{name}: ismcts({sims}) vs {b} (think {args.think_ms} ms), {args.hands} deals, seed {args.seed},"
              f" {wall:.0f} s", flush=True)
        print(f"  mean decision time: IS-MCTS {r['times_a']['mean_ms']:.3f} ms, {b} {r['times_b']['mean_ms']:.3f} ms",
              flush=True)
        for series in r["series"]:
            k, sd = series["key"], series["summary"]["diff"]
            print(f"  {k['measure']:<12} {k['role']:<10} n={series['summary']['n']:<5} {sd['mean']:+8.3f}"
                  f" [{sd['low']:+.3f}, {sd['high']:+.3f}] {k['unit']}", flush=True)
        verdict = f"{b} better" if d["high"] < 0 else ("IS-MCTS better" if d["low"] > 0 else "no difference shown")
        print(f"  overall {d['mean']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}], IS-MCTS win rate {w['mean']:.2f}:"
              f" {verdict}", flush=True)
        out[name] = {"sims": sims, "calibration": {"baseline_ms": expert_ms, "ismcts_ms_per_sim": per_sim},
                     "report": r}
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(out, f)


if __name__ == "__main__":
    main()
