"""Pickle round trips of random mid-hand states, checked equal, and their speed.

    python python/pickle_bench.py [--states 10000] [--seed 1]

For each game: `--states` states at random points of random hands (a fifth of them chance nodes,
most mid-hand, Da Bai Fen's draw polls and half-built sets among them, a few finished; as in
tests/test_pickle.py); each is pickled and unpickled on its own; every copy must equal its
original (`==`: the same setup, deck, actions and picks) and show the same legal-action mask.
Prints the time per state of `pickle.dumps` and `pickle.loads` and the pickle's mean size.
"""

import argparse
import pickle
import random
import time

import numpy as np

import yezi


def random_states(game, n, seed):
    """`n` states of `game` along random hands: a random hand is played to its end, then replayed
    to a random point of it: a chance node (one in five), a decision (mid-hand: about three in
    four, Da Bai Fen's draw polls and half-built sets among them), or the end (one in twenty)."""
    rng = random.Random(seed)
    deck = game.max_chance_outcomes()
    out = []
    while len(out) < n:
        s, history = game.new_initial_state(), []
        while not s.is_terminal():
            a = rng.choice(s.chance_outcomes())[0] if s.is_chance_node() else rng.choice(s.legal_actions())
            s.apply_action(a)
            history.append(a)
        u = rng.random()
        if u < 0.2:
            k = rng.randrange(deck)
        elif u < 0.95 and len(history) > deck:
            k = rng.randrange(deck, len(history))
        else:
            k = len(history)
        s = game.new_initial_state()
        for a in history[:k]:
            s.apply_action(a)
        out.append(s)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"yezi {yezi.__version__}: {args.states} random states per game, seed {args.seed}")
    for name, game in (("madiao", yezi.madiao.Game()), ("dabaifen", yezi.dabaifen.Game())):
        states = random_states(game, args.states, args.seed)
        chance = sum(s.is_chance_node() for s in states)
        over = sum(s.is_terminal() for s in states)
        t0 = time.perf_counter()
        blobs = [pickle.dumps(s) for s in states]
        t1 = time.perf_counter()
        back = [pickle.loads(b) for b in blobs]
        t2 = time.perf_counter()
        unequal = sum(a != b for a, b in zip(states, back))
        unequal += sum(not np.array_equal(a.legal_action_mask(), b.legal_action_mask()) for a, b in zip(states, back))
        n = len(states)
        print(
            f"{name:9s} {n} states ({chance} chance nodes, {n - chance - over} mid-hand, {over} over): "
            f"{'all equal' if unequal == 0 else f'{unequal} UNEQUAL'}; "
            f"dumps {1e6 * (t1 - t0) / n:.1f} µs, loads {1e6 * (t2 - t1) / n:.1f} µs per state, "
            f"{sum(map(len, blobs)) / n:,.0f} bytes"
        )
        if unequal:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
