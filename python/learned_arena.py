"""The Rust `learned` Madiao bot in the duplicate arena through the bindings, against a bot.

    python python/learned_arena.py [--baseline heuristic] [--hands 5000] [--seed 1]

The candidate is `yezi.bots.Bot("madiao", "learned")` itself (the Rust bot, its forward pass in
`crates/ai/src/mlp.rs`), seated as side A of `yezi.arena.run(..., policy_input="state")`: it is
shown a state drawn from its seat's information, whose view for its seat is the true one, so it
chooses as in `yezi arena madiao --a learned`. Prints the report's series (stakes a deal, 95%
intervals; positive favours `learned`).
"""

import argparse
import time

from yezi import arena
from yezi.bots import Bot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", default="heuristic")
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--think-ms", type=int, default=100)
    args = ap.parse_args()
    bot = Bot("madiao", "learned")

    def policy(state):  # type: ignore[no-untyped-def]
        (a,) = bot.choose(state)
        return a

    t0 = time.time()
    r = arena.run("madiao", policy, baseline=args.baseline, hands=args.hands, seed=args.seed,
                  think_ms=args.think_ms, policy_input="state")
    print(f"madiao: learned vs {args.baseline}, {args.hands} deals, seed {args.seed}, {time.time() - t0:.0f} s")
    print(f"  mean decision time: learned {r['times_a']['mean_ms']:.3f} ms, {args.baseline} {r['times_b']['mean_ms']:.3f} ms")
    for s in r["series"]:
        k, d = s["key"], s["summary"]["diff"]
        w = s["summary"]["win_rate"]
        print(f"  {k['measure']:<8} {k['role']:<8} n={s['summary']['n']:<5} {d['mean']:+8.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"
              f" {k['unit']}, win rate {w['mean']:.3f}")


if __name__ == "__main__":
    main()
