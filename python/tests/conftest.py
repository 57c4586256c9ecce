import importlib.util
import os
import random

import pytest


def random_playout(state, rng):
    """Plays chance and every seat at random to the end; returns the number of player steps."""
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


@pytest.fixture(scope="session")
def yezi_bin():
    """The `yezi` binary for the parity test: $YEZI_BIN (test.sh sets it to the binary its Rust
    tests built), else None, and the test compares with the same bench compiled into the
    extension (`yezi._yezi.bench_checksum`) instead of building the binary."""
    path = os.environ.get("YEZI_BIN")
    if path and not os.access(path, os.X_OK):
        raise FileNotFoundError(f"YEZI_BIN={path} is not an executable")
    return path or None


@pytest.fixture
def rng():
    return random.Random(12345)


#: The modules of the `train` extra: PyTorch, and GitPython (`git`), which RLCard's DMC logger imports.
TRAIN_MODULES = {"torch": "torch", "git": "GitPython"}
SKIP_REASON = "the train extra is not installed"


def _missing_train():
    return [pkg for mod, pkg in TRAIN_MODULES.items() if importlib.util.find_spec(mod) is None]


def pytest_addoption(parser):
    parser.addoption(
        "--no-skips",
        action="store_true",
        help="fail the run when any test is skipped (test.sh and CI, where every extra is installed)",
    )


def pytest_collection_modifyitems(config, items):
    """Tests marked `torch` are skipped when the `train` extra (PyTorch, GitPython) is absent."""
    missing = _missing_train()
    if not missing:
        return
    skip = pytest.mark.skip(reason=f"{SKIP_REASON} ({', '.join(missing)} missing; docs/python.md)")
    for item in items:
        if "torch" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line for the tests skipped for want of the `train` extra; with --no-skips, one line
    saying the skips fail the run."""
    skipped = terminalreporter.stats.get("skipped", [])
    train = [r for r in skipped if SKIP_REASON in str(r.longrepr)]
    if train:
        terminalreporter.write_line(
            f"{len(train)} tests need PyTorch and were skipped ({', '.join(_missing_train())} missing): "
            "install the `train` extra, torch's CPU build first (docs/python.md)",
            yellow=True,
        )
    if skipped and config.getoption("--no-skips"):
        terminalreporter.write_line(f"--no-skips: {len(skipped)} skipped tests fail the run (every test must run)", red=True)


def pytest_sessionfinish(session, exitstatus):
    """With --no-skips (test.sh), a skipped test fails the run: nothing may skip silently."""
    if not session.config.getoption("--no-skips"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = 1
