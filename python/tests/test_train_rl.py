"""The reinforcement-learning trainer of the `learned` network (`examples/train_madiao_rl.py`): its
hand-written gradients equal finite differences of its loss, the demonstration loss is zero once
the demonstrator's id leads by the margin, and a few seconds of training lower the loss."""

import importlib
import pathlib
import sys

import numpy as np
import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


@pytest.fixture(scope="module")
def rl():
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("train_madiao_rl")
    finally:
        sys.path.remove(str(EXAMPLES))


def batch(rng, n=6, inputs=5, actions=4):
    x = rng.standard_normal((n, inputs)).astype(np.float32)
    mask = (rng.random((n, actions)) < 0.7).astype(np.int8)
    mask[:, 0] = 1
    a = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64)
    demo = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int64)
    target = rng.standard_normal(n).astype(np.float32)
    return x, mask, a, target, demo


def float64(rl, net):
    """The same network computing in float64 (the trainer's runs in float32), so that finite
    differences are exact enough."""

    class Mlp64(rl.Mlp):
        def forward(self, x):
            acts = [x]
            for k, (w, b) in enumerate(zip(self.w, self.b)):
                x = x @ w.T + b
                if k < len(self.w) - 1:
                    x = np.maximum(x, 0.0)
                acts.append(x)
            return x, acts

    net.__class__ = Mlp64
    net.w = [w.astype(np.float64) for w in net.w]
    net.b = [b.astype(np.float64) for b in net.b]
    return net


@pytest.mark.parametrize("weight", [0.0, 1.5])
def test_the_gradients_are_the_losss(rl, weight):
    rng = np.random.default_rng(3)
    net = float64(rl, rl.Mlp([5, 7, 6, 4], rng))
    # Biases apart from zero: no two ids tie when a row's hidden units are all off.
    net.b = [rng.standard_normal(b.shape) for b in net.b]
    x, mask, a, target, demo = batch(rng)
    x = x.astype(np.float64)
    _, _, grads = rl.dmc_loss(net, x, mask, a, target, demo, 0.3, weight)
    eps = 1e-6
    for p, g in zip(net.params(), grads):
        for idx in list(np.ndindex(p.shape))[:8]:
            keep = p[idx]
            p[idx] = keep + eps
            up = rl.dmc_loss(net, x, mask, a, target, demo, 0.3, weight)[1]
            p[idx] = keep - eps
            down = rl.dmc_loss(net, x, mask, a, target, demo, 0.3, weight)[1]
            p[idx] = keep
            assert g[idx] == pytest.approx((up - down) / (2 * eps), rel=1e-4, abs=1e-6)


def test_the_margin_loss_vanishes_once_the_demonstration_leads(rl):
    rng = np.random.default_rng(4)
    net = rl.Mlp([5, 4], rng)  # one layer: the scores are x @ w.T + b
    net.w[0][:] = 0.0
    net.b[0][:] = np.array([1.0, 0.0, 0.0, 0.0], np.float32)
    x, mask, a, target, _ = batch(rng)
    demo = np.zeros(len(a), np.int64)  # id 0, legal in every row, scored 1 above the rest
    base = rl.dmc_loss(net, x, mask, a, target, demo, 0.0, 0.0)[1]
    assert rl.dmc_loss(net, x, mask, a, target, demo, 0.9, 1.0)[1] == pytest.approx(base)
    # A margin above the lead costs its excess in every row with another legal id.
    others = float((mask[:, 1:].sum(axis=1) > 0).mean())
    assert others > 0
    assert rl.dmc_loss(net, x, mask, a, target, demo, 1.5, 1.0)[1] == pytest.approx(base + 0.5 * others)


def test_training_steps_lower_the_loss(rl):
    rng = np.random.default_rng(5)
    net = rl.Mlp([5, 16, 16, 4], rng)
    x, mask, a, target, demo = batch(rng, n=64)
    before = rl.dmc_loss(net, x, mask, a, target, demo, 0.3, 1.0)[1]
    for _ in range(300):
        rl.dmc_step(net, x, mask, a, target, demo, 0.3, 1.0, 1e-2, 40.0)
    after = rl.dmc_loss(net, x, mask, a, target, demo, 0.3, 1.0)[1]
    assert after < 0.5 * before
