"""Trains a small Madiao policy network on CPU with numpy alone, and writes it for the Rust
`learned` bot (`crates/ai/src/madiao/learned.rs`).

    python python/examples/train_madiao.py                  # the demonstration: minutes at most
    python python/examples/train_madiao.py --hands 3000 --epochs 12 --eval-deals 300   # longer

The method is imitation (behaviour cloning): a teacher bot (`heuristic` by default, or
`expert`) plays every seat of seeded hands; each of its decisions is a sample — the seat's
observation tensor (515 floats, `State.observation_tensor`), the legal-action mask, and the id it
chose. A multilayer perceptron (515 → 128 → 128 → 82, ReLU) is fitted by cross-entropy over the
legal ids with Adam, the backward pass written by hand. After each epoch it plays the duplicate
arena (`yezi.arena.run`) against `random` and against `heuristic`, and the curve is printed.

`--out FILE` writes the weights in the format of `crates/ai/src/mlp.rs`; the shipped
`crates/ai/data/learned-madiao.bin` was made by the command in `docs/python.md` ("The learned
baseline"). Everything random takes `--seed`.
"""

from __future__ import annotations

import argparse
import json
import struct
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import yezi
from yezi.arena import run as arena_run
from yezi.bots import Bot

F32 = npt.NDArray[np.float32]
OBS = 515
ACTIONS = 82
MAGIC = b"YZMLP1\n\0"


def collect(teacher: str, hands: int, seed: int, think_ms: int) -> tuple[F32, F32, npt.NDArray[np.int64]]:
    """The teacher's decisions over `hands` seeded hands (banker seat k mod 4 for hand k)."""
    bots = [Bot("madiao", teacher, seed=seed * 4 + s, think_ms=think_ms) for s in range(4)]
    obs: list[F32] = []
    masks: list[F32] = []
    acts: list[int] = []
    for k in range(hands):
        game = yezi.madiao.Game(banker=k % 4)
        state = game.new_initial_state(seed=seed, deal=k)
        while not state.is_terminal():
            p = state.current_player()
            obs.append(state.observation_tensor(p))
            masks.append(state.legal_action_mask().astype(np.float32))
            (a,) = bots[p].choose(state)
            acts.append(a)
            state.apply_action(a)
    return np.stack(obs), np.stack(masks), np.array(acts, dtype=np.int64)


class Mlp:
    """A ReLU perceptron with a hand-written backward pass and Adam."""

    def __init__(self, sizes: list[int], rng: np.random.Generator) -> None:
        self.w: list[F32] = []
        self.b: list[F32] = []
        for i, o in zip(sizes, sizes[1:]):
            self.w.append((rng.standard_normal((o, i)) * np.sqrt(2.0 / i)).astype(np.float32))
            self.b.append(np.zeros(o, np.float32))
        self.m = [np.zeros_like(p) for p in self.params()]
        self.v = [np.zeros_like(p) for p in self.params()]
        self.t = 0

    def params(self) -> list[F32]:
        return [p for pair in zip(self.w, self.b) for p in pair]

    def forward(self, x: F32) -> tuple[F32, list[F32]]:
        """Scores of a batch of rows, and every layer's input (for the backward pass)."""
        acts = [x]
        for k, (w, b) in enumerate(zip(self.w, self.b)):
            x = (x @ w.T + b).astype(np.float32)
            if k < len(self.w) - 1:
                x = np.maximum(x, 0.0)
            acts.append(x)
        return x, acts

    def step(self, x: F32, mask: F32, y: npt.NDArray[np.int64], lr: float) -> float:
        """One Adam step of cross-entropy over the legal ids; returns the batch's loss."""
        scores, acts = self.forward(x)
        scores = np.where(mask > 0, scores, -1e9)
        scores -= scores.max(axis=1, keepdims=True)
        e = np.exp(scores)
        prob = e / e.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(prob[np.arange(n), y] + 1e-12).mean())
        g = prob
        g[np.arange(n), y] -= 1.0
        g /= n
        self.adam(self.backward(acts, g.astype(np.float32)), lr)
        return loss

    def backward(self, acts: list[F32], g: F32) -> list[F32]:
        """The gradients of every parameter (in `params` order), given the gradient `g` of the
        loss with respect to the batch's scores and the layers' inputs from `forward`."""
        grads: list[F32] = []
        for k in range(len(self.w) - 1, -1, -1):
            grads = [(g.T @ acts[k]).astype(np.float32), g.sum(axis=0)] + grads
            if k > 0:
                g = (g @ self.w[k]) * (acts[k] > 0)
        return grads

    def adam(self, grads: list[F32], lr: float) -> None:
        """One Adam step."""
        self.t += 1
        for p, gr, m, v in zip(self.params(), grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * gr
            v *= 0.999
            v += 0.001 * gr * gr
            mh = m / (1 - 0.9**self.t)
            vh = v / (1 - 0.999**self.t)
            p -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)

    def policy(self) -> Any:
        """The arena's policy: the legal id with the highest score (the first on ties), as the
        Rust bot plays."""

        def choose(observation: F32, mask: npt.NDArray[np.int8], seat: int) -> int:
            scores, _ = self.forward(observation[None, :])
            return int(np.argmax(np.where(mask > 0, scores[0], -np.inf)))

        return choose

    def to_bytes(self) -> bytes:
        out = MAGIC + struct.pack("<I", len(self.w))
        for w in self.w:
            out += struct.pack("<II", w.shape[1], w.shape[0])
        for w, b in zip(self.w, self.b):
            out += w.astype("<f4").tobytes() + b.astype("<f4").tobytes()
        return out


def read_weights(data: bytes) -> list[tuple[F32, F32]]:
    """The layers (weights, biases) of a weights file."""
    assert data[:8] == MAGIC, "not a yezi weights file"
    (n,) = struct.unpack_from("<I", data, 8)
    shapes = [struct.unpack_from("<II", data, 12 + 8 * i) for i in range(n)]
    at = 12 + 8 * n
    layers = []
    for i, o in shapes:
        w = np.frombuffer(data, "<f4", i * o, at).reshape(o, i).astype(np.float32)
        at += 4 * i * o
        b = np.frombuffer(data, "<f4", o, at).astype(np.float32)
        at += 4 * o
        layers.append((w, b))
    return layers


def evaluate(net: Mlp, deals: int, seed: int, baselines: tuple[str, ...] = ("random", "heuristic")) -> dict[str, float]:
    """Mean difference per deal (stakes) against each baseline in the duplicate arena."""
    out = {}
    for baseline in baselines:
        report = arena_run("madiao", net.policy(), baseline=baseline, hands=deals, seed=seed, think_ms=1)
        out[baseline] = float(report["series"][0]["summary"]["diff"]["mean"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--teacher", default="heuristic", help="the bot imitated: heuristic or expert")
    ap.add_argument("--think-ms", type=int, default=5, help="the teacher's budget per decision")
    ap.add_argument("--hands", type=int, default=300, help="hands the teacher plays (4 seats each)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--eval-deals", type=int, default=40, help="duplicate deals per evaluation, 0: none")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", help="an .npz of collected decisions to read (or write, if missing)")
    ap.add_argument("--init", help="start from these weights (the Rust bot's format) instead of random ones")
    ap.add_argument("--out", help="write the weights here (the Rust bot's format)")
    ap.add_argument("--curve", help="write the curve here as JSON: a list of epochs (0: untrained)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    if args.data:
        try:
            d = np.load(args.data)
            x, mask, y = d["x"], d["mask"], d["y"]
        except FileNotFoundError:
            x, mask, y = collect(args.teacher, args.hands, args.seed, args.think_ms)
            np.savez_compressed(args.data, x=x, mask=mask, y=y)
    else:
        x, mask, y = collect(args.teacher, args.hands, args.seed, args.think_ms)
    t1 = time.perf_counter()
    print(f"{len(y)} decisions of {args.teacher} in {t1 - t0:.0f} s")

    rng = np.random.default_rng(args.seed)
    net = Mlp([OBS, args.hidden, args.hidden, ACTIONS], rng)
    if args.init:
        with open(args.init, "rb") as f:
            layers = read_weights(f.read())
        net.w = [w.copy() for w, _ in layers]
        net.b = [b.copy() for _, b in layers]
        net.m = [np.zeros_like(p) for p in net.params()]
        net.v = [np.zeros_like(p) for p in net.params()]
    print("epoch  loss   agree  vs random  vs heuristic  (stakes a deal, duplicate arena)  seconds")
    curve: list[dict[str, Any]] = []
    if args.eval_deals:
        e = evaluate(net, args.eval_deals, args.seed + 1000)
        print(f"{0:5}  {'':5}  {'':5}  {e['random']:+9.3f}  {e['heuristic']:+12.3f}  {time.perf_counter() - t0:.0f}")
        curve.append({"epoch": 0, "seconds": time.perf_counter() - t0, **e})
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(y))
        losses = []
        for i in range(0, len(y), args.batch):
            j = order[i : i + args.batch]
            losses.append(net.step(x[j], mask[j], y[j], args.lr))
        scores, _ = net.forward(x[:20000])
        agree = float((np.argmax(np.where(mask[:20000] > 0, scores, -np.inf), axis=1) == y[:20000]).mean())
        line = f"{epoch:5}  {np.mean(losses):.3f}  {agree:.3f}"
        point: dict[str, Any] = {"epoch": epoch, "loss": float(np.mean(losses)), "agree": agree}
        if args.eval_deals:
            e = evaluate(net, args.eval_deals, args.seed + 1000)
            line += f"  {e['random']:+9.3f}  {e['heuristic']:+12.3f}"
            point.update(e)
        print(line + f"  {time.perf_counter() - t0:.0f}", flush=True)
        curve.append({**point, "seconds": time.perf_counter() - t0})
    if args.curve:
        with open(args.curve, "w") as f:
            json.dump(curve, f, indent=1)
    if args.out:
        with open(args.out, "wb") as f:
            f.write(net.to_bytes())
        print(f"wrote {args.out} ({len(net.to_bytes())} bytes)")


if __name__ == "__main__":
    main()
