"""A short run of RLCard's DMC trainer (Deep Monte-Carlo, rlcard.agents.dmc_agent) on both games
through the registered RLCard environments and their 54-dimensional action features.

The trainer runs in a child process (it starts torch actor processes that never stop by
themselves; the child ends them), bounded in time; the test then reads what it wrote: the
checkpoint, the per-seat models and the learner's log, and plays whole games with the models.
"""

import csv
import math
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import rlcard

import yezi.rlcard  # noqa: F401  (registers the environments)

try:
    import torch
except ImportError:  # without the `train` extra: every test here is skipped (tests/conftest.py)
    torch = None

# PyTorch and GitPython are needed (the `train` extra); conftest.py skips these, with one line, without them.
pytestmark = pytest.mark.torch

FRAMES = 2048
TIMEOUT_S = 150


def train(env_id, savedir, frames):
    """Runs DMCTrainer.start() to `frames` frames on CPU, then ends its actor processes."""
    import multiprocessing

    from rlcard.agents.dmc_agent import DMCTrainer

    torch.set_num_threads(1)
    torch.manual_seed(0)
    env = rlcard.make(env_id, config={"seed": 0})
    trainer = DMCTrainer(
        env,
        cuda="",
        xpid=env_id,
        savedir=savedir,
        save_interval=30,
        num_actors=2,
        total_frames=frames,
        batch_size=4,
        unroll_length=16,
        # Enough buffers that no actor waits for a seat whose learner has already stopped
        # (RLCard's trainer joins its learner threads while its actors run on).
        num_buffers=64,
        num_threads=1,
    )
    try:
        trainer.start()
    finally:
        for p in multiprocessing.active_children():
            p.terminate()
            p.join(10)


def run_training(env_id, savedir):
    # Outside any git work tree (RLCard's log writer records the repository it runs in), with a
    # small environment (it also records the environment variables in its meta.json).
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "PYTHONPATH") if k in os.environ}
    env["OMP_NUM_THREADS"] = "1"
    proc = subprocess.Popen(
        [sys.executable, __file__, env_id, str(savedir), str(FRAMES)],
        cwd=savedir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        text=True,
    )
    try:
        out, _ = proc.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"DMC training did not finish in {TIMEOUT_S} s:\n{out[-4000:]}")
    assert proc.returncode == 0, out[-4000:]
    return out


@pytest.mark.parametrize("env_id", ["yezi-madiao", "yezi-dabaifen"])
def test_dmc_trains_saves_and_plays(env_id, tmp_path):
    run_training(env_id, tmp_path)
    exp = tmp_path / env_id
    env = rlcard.make(env_id, config={"seed": 5})
    obs_size = env.state_shape[0][0]

    # The checkpoint: every seat's network and optimizer, past the frames asked for.
    ckpt = torch.load(exp / "model.tar", map_location="cpu")
    assert ckpt["frames"] >= FRAMES
    assert len(ckpt["model_state_dict"]) == 4 and len(ckpt["optimizer_state_dict"]) == 4

    # The learner's log: every seat learned, with a finite, non-zero loss (0 is the
    # trainer's value for a seat that has not learned yet).
    with open(exp / "logs.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows
    last = rows[-1]
    for p in range(4):
        loss = float(last[f"loss_{p}"])
        assert math.isfinite(loss) and loss > 0, (p, loss)
    assert max(int(r["frames"]) for r in rows) >= FRAMES - 16 * 4

    # The per-seat models load; their input is the observation plus the 54 action features.
    agents = []
    for p in range(4):
        agent = torch.load(exp / f"{p}_{ckpt['frames']}.pth", map_location="cpu")
        first = agent.net.fc_layers[0]
        assert first.in_features == obs_size + 54
        for k, v in agent.state_dict().items():
            assert torch.equal(v, ckpt["model_state_dict"][p][k])
        agent.set_device("cpu")
        agents.append(agent)

    # They play whole games through env.run, choosing legal actions, with zero-sum payoffs.
    env.set_agents(agents)
    for _ in range(3):
        trajectories, payoffs = env.run(is_training=False)
        assert payoffs.shape == (4,) and abs(payoffs.sum()) < 1e-9
        for p in range(4):
            traj = trajectories[p]
            for state, action in zip(traj[0:-1:2], traj[1::2]):
                assert action in state["legal_actions"]


@pytest.mark.parametrize("env_id", ["yezi-madiao", "yezi-dabaifen"])
def test_dmc_buffers_keep_the_fraction_valued_features(env_id):
    """The trainer's own buffers (`create_buffers`: `int8` observations) filled as its actors fill
    them (`buffers[p]["state"][index][t, ...] = torch.from_numpy(obs)`) hold what the actors saw,
    for observations whose fraction-valued entries (counts / 8, hand sizes / 18 …) are not 0."""
    from rlcard.agents.dmc_agent.utils import create_buffers

    T = 16
    env = rlcard.make(env_id, config={"seed": 2})
    buffers = create_buffers(T, 1, env.state_shape, env.action_shape, ["cpu"])["cpu"]
    fractions = env.obs_scale > 1
    rng = np.random.default_rng(2)
    picked = []  # (observation, the native tensor) with a fraction-valued entry set
    while len(picked) < T:
        state, player = env.reset()
        while not env.is_over() and len(picked) < T:
            tensor = np.asarray(env.game.state.observation_tensor(player), dtype=np.float32)
            if np.any(tensor[fractions] % 1 != 0):
                picked.append((state["obs"], tensor))
            legal = list(state["legal_actions"])
            state, player = env.step(legal[rng.integers(len(legal))])
    for t, (obs, _) in enumerate(picked):
        buffers[0]["state"][0][t, ...] = torch.from_numpy(obs)
    stored = buffers[0]["state"][0].float()  # as the learner reads it
    scale = torch.tensor(env.obs_scale)
    for t, (obs, tensor) in enumerate(picked):
        assert torch.equal(stored[t], torch.from_numpy(obs.astype(np.float32)))  # what the actor saw
        assert torch.allclose(stored[t] / scale, torch.from_numpy(tensor), rtol=0, atol=1e-6)


if __name__ == "__main__":
    train(sys.argv[1], sys.argv[2], int(sys.argv[3]))
