"""Trains the Madiao policy network by reinforcement learning (Deep Monte Carlo) on CPU, with numpy
alone, and writes it for the Rust `learned` bot (`crates/ai/src/madiao/learned.rs`).

    python python/examples/train_madiao_rl.py             # from random weights: a minute, it learns
    python python/examples/train_madiao_rl.py --init crates/ai/data/learned-madiao-imitation.bin ...

The network is the one of `train_madiao.py` (515 -> 128 -> 128 -> 82, ReLU), read as an action-value
function: its score for a legal id is the estimated return of playing it. Deep Monte Carlo (DMC):
one seat plays against three `heuristic` seats in `yezi.vector.VecEnv(seat=0, ...)` (the bots play
in Rust), in four batches of hands whose banker is seat 0, 1, 2 and 3 (the learner in every role);
the learner plays epsilon-greedily on the scores; when a hand ends, each of its decisions becomes a
sample (observation, legal mask, chosen id, the hand's return for the learner times
`--target-scale`), and the chosen id's score is regressed on that return (squared error, Adam,
the gradient's norm clipped, batches drawn from a buffer of the latest samples).

`--init FILE` starts from trained weights (the imitation network of `train_madiao.py`). Its scores
are logits, not returns: the last layer is multiplied by `--init-scale` and its biases shifted so
that the chosen ids' mean score is the mean return of 400 hands played with it; for the first
`--behaviour-updates` updates the initial network (frozen) chooses, so the values are first learnt
for its policy; and the loss adds `--demo-weight` times the large-margin loss of DQfD (Hester et al.,
"Deep Q-learning from Demonstrations", 2018) towards the initial network's choice: the highest
legal score, lifted by `--margin` for every id but that choice, minus that choice's score. Without
it the regression reorders the scores before they are values, and the play falls far below the
start. Without `--init` it is plain DMC from random weights.

Every `--eval-every` seconds it plays the duplicate arena (`yezi.arena.run`, `--eval-deals` deals,
seed `--seed` + 1000) against `heuristic` with the greedy policy (as the Rust bot plays), writes a
checkpoint into `--checkpoints`, and keeps the best so far in `--out`. Everything random takes
`--seed`; the run stops after `--minutes` of wall time.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import numpy.typing as npt

import yezi
from yezi.vector import VecEnv

from train_madiao import ACTIONS, OBS, F32, Mlp, evaluate, read_weights


I64 = npt.NDArray[np.int64]


def greedy(net: Mlp, x: F32, mask: npt.NDArray[np.int8]) -> I64:
    """Each row's legal id with the highest score."""
    scores, _ = net.forward(x)
    out: I64 = np.argmax(np.where(mask > 0, scores, -np.inf), axis=1)
    return out


def dmc_loss(net: Mlp, x: F32, mask: npt.NDArray[np.int8], a: I64, target: F32, demo: I64,
             margin: float, weight: float) -> tuple[float, float, list[F32]]:
    """The batch's squared error between the chosen ids' scores and the returns, the whole loss
    (that plus `weight` times the large-margin loss of DQfD towards the demonstrator's ids `demo`:
    max over legal ids of (score + `margin` if not `demo`) - score of `demo`, averaged), and the
    whole loss's gradients (in `Mlp.params` order)."""
    scores, acts = net.forward(x)
    n = len(a)
    rows = np.arange(n)
    diff = scores[rows, a] - target
    mse = float((diff * diff).mean())
    loss = mse
    g = np.zeros_like(scores)
    g[rows, a] = 2.0 * diff / n
    if weight > 0:
        lifted = np.where(mask > 0, scores + margin, -np.inf)
        lifted[rows, demo] -= margin
        top = np.argmax(lifted, axis=1)
        loss += weight * float((lifted[rows, top] - scores[rows, demo]).mean())
        np.add.at(g, (rows, top), weight / n)
        np.add.at(g, (rows, demo), -weight / n)
    return mse, loss, net.backward(acts, g)


def dmc_step(net: Mlp, x: F32, mask: npt.NDArray[np.int8], a: I64, target: F32, demo: I64,
             margin: float, weight: float, lr: float, clip: float) -> float:
    """One Adam step on `dmc_loss` (the gradient's norm clipped to `clip`); returns the squared
    error."""
    mse, _, grads = dmc_loss(net, x, mask, a, target, demo, margin, weight)
    norm = float(np.sqrt(sum(float((gr * gr).sum()) for gr in grads)))
    if norm > clip:
        grads = [gr * (clip / norm) for gr in grads]
    net.adam(grads, lr)
    return mse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--init", help="start from these weights (the Rust bot's format), else random ones")
    ap.add_argument("--init-scale", type=float, default=0.1, help="with --init: the last layer's weights times this")
    ap.add_argument("--target-scale", type=float, default=1.0, help="the returns are regressed times this")
    ap.add_argument("--behaviour-updates", type=int, default=0, help="updates during which the initial network chooses")
    ap.add_argument("--margin", type=float, default=0.5, help="the demonstration loss's margin (stakes)")
    ap.add_argument("--demo-weight", type=float, default=1.0, help="with --init: the demonstration loss's weight, 0: none")
    ap.add_argument("--opponents", default="heuristic")
    ap.add_argument("--hands", type=int, default=32, help="hands played at once for each banker seat")
    ap.add_argument("--epsilon", type=float, default=0.1, help="the share of random legal choices")
    ap.add_argument("--buffer", type=int, default=60000, help="samples kept for replay")
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--replay", type=float, default=2.0, help="samples trained on for each new one")
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--clip", type=float, default=40.0, help="the gradient's norm is clipped to this")
    ap.add_argument("--minutes", type=float, default=1.0, help="wall time of the training")
    ap.add_argument("--eval-every", type=float, default=15.0, help="seconds between evaluations")
    ap.add_argument("--eval-deals", type=int, default=1000)
    ap.add_argument("--final-deals", type=int, default=0, help="deals of a last evaluation against both baselines")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--checkpoints", help="a directory for every evaluated checkpoint")
    ap.add_argument("--out", help="write the best evaluated weights here (the Rust bot's format)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    net = Mlp([OBS, 128, 128, ACTIONS], rng)
    if args.init:
        with open(args.init, "rb") as f:
            layers = read_weights(f.read())
        net.w = [w.copy() for w, _ in layers]
        net.b = [b.copy() for _, b in layers]
    if not args.init:
        args.demo_weight = 0.0  # no demonstrator: plain DMC
    behaviour = Mlp([OBS, 128, 128, ACTIONS], rng)
    behaviour.w = [w.copy() for w in net.w]
    behaviour.b = [b.copy() for b in net.b]

    envs = [
        VecEnv(yezi.madiao.Game(banker=b), args.hands, seed=args.seed * 4 + b, seat=0,
               opponents=args.opponents, think_ms=1)
        for b in range(4)
    ]
    n = args.hands
    pending: list[list[list[tuple[F32, npt.NDArray[np.int8], int, int]]]] = [[[] for _ in range(n)] for _ in envs]
    bx = np.zeros((args.buffer, OBS), np.float32)
    ba = np.zeros(args.buffer, np.int64)
    bm = np.zeros((args.buffer, ACTIONS), np.int8)
    bd = np.zeros(args.buffer, np.int64)
    br = np.zeros(args.buffer, np.float32)
    filled = 0
    at = 0
    added = 0
    trained = 0.0
    updates = 0
    hands = 0
    returns_sum = 0.0
    window = 0
    for env in envs:
        env.reset()

    if args.init:
        # The returns' scale, from the first hands with the initial policy, before any update.
        first: list[float] = []
        chosen: list[float] = []
        while len(first) < 400:
            for k, env in enumerate(envs):
                obs, mask = env.observations, env.action_masks
                scores, _ = net.forward(obs)
                acts = np.argmax(np.where(mask > 0, scores, -np.inf), axis=1)
                chosen.extend(scores[np.arange(n), acts] * args.init_scale)
                _, _, _, rew, done = env.step(acts)
                first.extend(float(r) * args.target_scale for r in rew[done, 0])
        mean, sd = float(np.mean(first)), float(np.std(first))
        net.w[-1] *= args.init_scale
        net.b[-1] = net.b[-1] * args.init_scale + (mean - float(np.mean(chosen)))
        for env in envs:
            env.reset()
        print(f"initial policy: {len(first)} hands, scaled return {mean:+.3f} +- {sd:.3f}; last layer x{args.init_scale}")
    net.m = [np.zeros_like(p) for p in net.params()]
    net.v = [np.zeros_like(p) for p in net.params()]

    best = -np.inf
    losses: list[float] = []
    next_eval = time.perf_counter()
    print("updates  hands  samples  loss  mean return  vs heuristic  seconds", flush=True)
    end = t0 + 60 * args.minutes
    while True:
        now = time.perf_counter()
        if now >= next_eval or now >= end:
            e = evaluate(net, args.eval_deals, args.seed + 1000, ("heuristic",)) if args.eval_deals else {"heuristic": 0.0}
            vh = e["heuristic"]
            mean_ret = returns_sum / max(window, 1)
            print(f"{updates:7}  {hands:6}  {added:7}  {np.mean(losses) if losses else 0:.3f}  {mean_ret:+11.3f}"
                  f"  {vh:+12.3f}  {time.perf_counter() - t0:.0f}", flush=True)
            losses, returns_sum, window = [], 0.0, 0
            if args.checkpoints:
                os.makedirs(args.checkpoints, exist_ok=True)
                with open(os.path.join(args.checkpoints, f"u{updates:07}.bin"), "wb") as f:
                    f.write(net.to_bytes())
            if args.out and vh > best:
                best = vh
                with open(args.out, "wb") as f:
                    f.write(net.to_bytes())
            next_eval = time.perf_counter() + args.eval_every
            if now >= end:
                break
        for k, env in enumerate(envs):
            obs = env.observations.copy()
            mask = env.action_masks
            demo = greedy(behaviour, obs, mask)
            acts = demo.copy() if updates < args.behaviour_updates else greedy(net, obs, mask)
            explore = rng.random(n) < args.epsilon
            for i in np.flatnonzero(explore):
                legal = np.flatnonzero(mask[i])
                acts[i] = legal[rng.integers(len(legal))]
            for i in range(n):
                pending[k][i].append((obs[i], mask[i].copy(), int(acts[i]), int(demo[i])))
            _, _, _, rew, done = env.step(acts)
            for i in np.flatnonzero(done):
                r = float(rew[i, 0]) * args.target_scale
                hands += 1
                window += 1
                returns_sum += r / args.target_scale
                for x, m, a, d in pending[k][i]:
                    bx[at], bm[at], ba[at], bd[at], br[at] = x, m, a, d, r
                    at = (at + 1) % args.buffer
                    filled = min(filled + 1, args.buffer)
                    added += 1
                    trained += args.replay
                pending[k][i] = []
        while filled >= args.batch and trained >= args.batch:
            j = rng.integers(filled, size=args.batch)
            losses.append(dmc_step(net, bx[j], bm[j], ba[j], br[j], bd[j], args.margin, args.demo_weight, args.lr, args.clip))
            trained -= args.batch
            updates += 1
    if args.out:
        print(f"best {best:+.3f} against heuristic over {args.eval_deals} deals: {args.out}")
    if args.final_deals and args.out:
        with open(args.out, "rb") as f:
            layers = read_weights(f.read())
        net.w = [w.copy() for w, _ in layers]
        net.b = [b.copy() for _, b in layers]
        e = evaluate(net, args.final_deals, args.seed + 1000)
        print(f"best, {args.final_deals} deals: {e['random']:+.3f} against random, {e['heuristic']:+.3f} against heuristic")


if __name__ == "__main__":
    main()
