import os
import pathlib
import random
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


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
    """The `yezi` binary: $YEZI_BIN, or built with cargo (debug) from this checkout."""
    path = os.environ.get("YEZI_BIN")
    if path:
        return path
    subprocess.run(["cargo", "build", "-q", "-p", "yezi", "--locked"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "yezi")


@pytest.fixture
def rng():
    return random.Random(12345)


def pytest_sessionfinish(session, exitstatus):
    """No test may skip silently: a skipped test fails the run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("a skipped test fails the run: every test must run", red=True)
        session.exitstatus = 1
