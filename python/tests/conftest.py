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


def _has_torch():
    return importlib.util.find_spec("torch") is not None


def pytest_addoption(parser):
    parser.addoption(
        "--no-skips",
        action="store_true",
        help="fail the run when any test is skipped (test.sh and CI, where every extra is installed)",
    )


def pytest_collection_modifyitems(config, items):
    """Tests marked `torch` are skipped when PyTorch is not installed (the `train` extra)."""
    if _has_torch():
        return
    skip = pytest.mark.skip(reason="PyTorch is not installed (the `train` extra, docs/python.md)")
    for item in items:
        if "torch" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line for the tests skipped for want of PyTorch."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "PyTorch is not installed" in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} tests need PyTorch and were skipped: install the `train` extra "
            "(CPU wheel: see docs/python.md) to run them",
            yellow=True,
        )


def pytest_sessionfinish(session, exitstatus):
    """With --no-skips (test.sh), a skipped test fails the run: nothing may skip silently."""
    if not session.config.getoption("--no-skips"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("--no-skips: a skipped test fails the run (every test must run)", red=True)
        session.exitstatus = 1
