"""The package is typed: `py.typed` and the native module's stubs ship with it, the examples
pass `mypy --strict` against them, and they run."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

import yezi

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def test_the_package_ships_its_types():
    package = pathlib.Path(yezi.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_yezi.pyi").is_file()


def test_the_stubs_name_everything_the_module_has():
    import ast

    stub = ast.parse((pathlib.Path(yezi.__file__).parent / "_yezi.pyi").read_text())
    named = {n.name for n in stub.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    named |= {t.id for n in stub.body if isinstance(n, ast.AnnAssign) for t in [n.target]}
    public = {k for k in dir(yezi._yezi) if not k.startswith("__") or k == "__version__"}
    assert public - named == set()


#: The training example runs in its own test, which checks that it learns.
TRAINING = "train_madiao.py"
#: How much better than untrained it must end, in stakes a deal (its documented run, docs/python.md:
#: +1.06 → +7.54 against `random`, −12.55 → −3.49 against `heuristic`).
MARGIN_RANDOM = 3.0
MARGIN_HEURISTIC = 5.0


#: Arguments that keep an example short here: the reinforcement-learning trainer runs for a
#: minute by default; a few seconds show that it runs.
SHORT = {"train_madiao_rl.py": ["--minutes", "0.15", "--eval-every", "4", "--eval-deals", "100"]}


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.py") if p.name != TRAINING))
def test_examples_run(example):
    cmd = [sys.executable, str(EXAMPLES / example), *SHORT.get(example, [])]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)


def test_the_training_example_learns(tmp_path):
    """`python/examples/train_madiao.py`, the ten-minute example (docs/python.md), learns: after
    its epochs the network does better in the duplicate arena than untrained, against `random`
    and against `heuristic`, by margins its documented runs clear several times over. Seeded
    (`--seed 1`, evaluation seed 1001), so the figures are the same on every run."""
    curve_file = tmp_path / "curve.json"
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / TRAINING), "--curve", str(curve_file)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    curve = json.loads(curve_file.read_text())
    assert [c["epoch"] for c in curve] == list(range(len(curve))) and len(curve) >= 3, curve
    untrained, last = curve[0], curve[-1]
    table = "\n".join(str(c) for c in curve)
    # Stakes a deal, the mean of 40 duplicate deals.
    assert last["random"] >= untrained["random"] + MARGIN_RANDOM, table
    assert last["heuristic"] >= untrained["heuristic"] + MARGIN_HEURISTIC, table
    # Fitting the teacher: the loss falls and the agreement with its choices rises.
    assert last["loss"] < curve[1]["loss"] and last["agree"] > curve[1]["agree"], table


def _mypy_env(tmp_path):
    """mypy writes its cache into the working directory (a checkout's root, when the suite runs
    from there, leaving `.mypy_cache/` behind): keep it in the test's temporary directory."""
    return {**os.environ, "MYPY_CACHE_DIR": str(tmp_path / "mypy_cache")}


def test_examples_pass_mypy_strict(tmp_path):
    # mypy is in the `test` extra.
    assert importlib.util.find_spec("mypy") is not None, "mypy is missing: pip install './python[test]'"
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLES)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env=_mypy_env(tmp_path),
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stubs_match_the_native_module(tmp_path):
    # mypy's stubtest compares the stubs with the module as built: every class, method, parameter
    # and default.
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "yezi._yezi"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env=_mypy_env(tmp_path),
    )
    assert out.returncode == 0, out.stdout + out.stderr
