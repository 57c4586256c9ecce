"""A short run of RLCard's DMC trainer on Madiao, then its seat models in the duplicate arena
against `random` (needs the `train` extra: PyTorch and GitPython).

    python python/dmc_madiao.py --frames 40000 --seed 0 --savedir /tmp/dmc   # docs/python.md

Trains `yezi-madiao` (`state["obs"]`: the observation tensor as int8 counts, which RLCard's int8
buffers keep) for `--frames` frames on CPU, then plays `--hands` duplicate deals
(`yezi.arena.run`, seed 1001) with each seat's greedy model against `random`, before and after
training (the untrained networks of the same seed). Prints stakes a deal, positive for DMC.
"""

import argparse
import multiprocessing
import os
import time

import numpy as np
import rlcard
import torch

import yezi.rlcard
from yezi import arena


def greedy(models):
    """The arena's policy: the seat's network scores each legal id's feature on the int8 obs."""

    def choose(observation, mask, seat):
        obs = yezi.rlcard.obs_to_int8(observation, yezi.rlcard.MADIAO_OBS_SCALE).astype(np.float32)
        legal = np.flatnonzero(mask)
        feats = np.stack([yezi.rlcard.madiao_action_feature(a) for a in legal]).astype(np.float32)
        with torch.no_grad():
            values = models[seat](torch.from_numpy(np.repeat(obs[None], len(legal), 0)), torch.from_numpy(feats))
        return int(legal[int(torch.argmax(values.reshape(-1)))])

    return choose


def evaluate(models, hands):
    report = arena.run("madiao", greedy(models), baseline="random", hands=hands, seed=1001, think_ms=1)
    d = report["series"][0]["summary"]["diff"]
    return d["mean"], d["low"], d["high"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--savedir", default="dmc-runs")
    args = ap.parse_args()
    from rlcard.agents.dmc_agent import DMCTrainer
    from rlcard.agents.dmc_agent.model import DMCModel

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    env = rlcard.make("yezi-madiao", config={"seed": args.seed})
    untrained = DMCModel(env.state_shape, env.action_shape, device="cpu")
    before = evaluate([untrained.get_agent(p).net.eval() for p in range(4)], args.hands)
    print(f"untrained: {before[0]:+.3f} [{before[1]:+.3f}, {before[2]:+.3f}] stakes a deal against random", flush=True)
    torch.manual_seed(args.seed)
    xpid = f"madiao-seed{args.seed}"
    trainer = DMCTrainer(env, cuda="", xpid=xpid, savedir=args.savedir, save_interval=10**6,
                         num_actors=2, total_frames=args.frames, batch_size=8, unroll_length=32,
                         num_buffers=64, num_threads=1)
    t0 = time.time()
    try:
        trainer.start()
    finally:
        for p in multiprocessing.active_children():
            p.terminate()
            p.join(10)
    ckpt = torch.load(os.path.join(args.savedir, xpid, "model.tar"), map_location="cpu")
    trained = DMCModel(env.state_shape, env.action_shape, device="cpu")
    for p in range(4):
        trained.get_agent(p).net.load_state_dict(ckpt["model_state_dict"][p])
    after = evaluate([trained.get_agent(p).net.eval() for p in range(4)], args.hands)
    print(f"after {ckpt['frames']} frames ({time.time() - t0:.0f} s): {after[0]:+.3f} [{after[1]:+.3f}, {after[2]:+.3f}] stakes a deal against random")


if __name__ == "__main__":
    main()
