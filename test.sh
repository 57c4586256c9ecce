#!/usr/bin/env bash
# The whole test suite: formatting, lints, every crate's tests (unit, property, data-driven,
# doc tests, the server's API, WebSocket, restart and leak tests), the command-line tests (among
# them `yezi play` run in a real terminal under tmux), and the browser client's (type checks, unit
# tests, end-to-end tests in headless Chromium against the real binary; see docs/web.md).
# Installs what it needs when missing (tmux; PostgreSQL, for the storage conformance suite and the
# cluster tests, and Redis, for the cluster's bus, each started on a loopback port in a temporary
# directory and stopped at the end; Chromium and a CJK font from Debian; playwright-core and
# TypeScript from npm), and the Python bindings: the release wheel built once with maturin,
# every Python test run against it in a virtualenv under target/ made from Debian's Python 3
# (apt installs its CPU PyTorch when missing; pip installs numpy, maturin, pytest, gymnasium,
# pettingzoo, open-spiel, rlcard, GitPython and mypy when missing; a skipped Python test fails
# the suite), then the same wheel installed into a fresh virtualenv and tested there (see
# docs/python.md). The workspace's tests run under
# cargo-nextest when it is installed (several test binaries at once), else `cargo test`.
# `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")"
# A clean clone gains nothing from incremental compilation: it only adds disk (several GB).
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# Each step's wall time and the processor time of what it ran (user and system, its commands
# and their children; not the servers started in the background) are printed when the next step
# begins, and all of them at the end (also when a step fails), so that a slow suite shows where
# its time goes: wall time depends on what else the machine runs, processor time much less.
SUITE_START=$SECONDS
STEP_START=$SECONDS
STEP_NAME=
STEP_TIMES=()
# The processor seconds the shell's children have used so far (bash's `times`, second line), in
# CPU_NOW. `times` must run in this shell itself: in a subshell (`$(...)`) it reports the
# subshell's children, none.
TIMES_FILE=$(mktemp)
children_cpu() {
  times > "$TIMES_FILE"
  CPU_NOW=$(tail -n 1 "$TIMES_FILE" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } printf "%d", t }')
}
children_cpu
SUITE_CPU=$CPU_NOW
STEP_CPU=$SUITE_CPU
step_done() {
  if [ -n "$STEP_NAME" ]; then
    children_cpu
    local took=$((SECONDS - STEP_START)) cpu=$((CPU_NOW - STEP_CPU))
    STEP_TIMES+=("$(printf '%5d s %6d s  %s' "$took" "$cpu" "$STEP_NAME")")
    printf '    (%d s, %d s of processor time)\n' "$took" "$cpu"
  fi
  STEP_NAME=
}
step_report() {
  step_done
  printf '\n==> time per step: wall, processor (load average now: %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%s\n' "${STEP_TIMES[@]}"
  children_cpu
  printf '%5d s %6d s  in all\n' "$((SECONDS - SUITE_START))" "$((CPU_NOW - SUITE_CPU))"
  rm -f "$TIMES_FILE"
}
step() {
  step_done
  printf '\n==> %s\n' "$*"
  STEP_NAME="$*"
  STEP_START=$SECONDS
  children_cpu
  STEP_CPU=$CPU_NOW
}
trap step_report EXIT

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc (warnings are errors: a broken intra-doc link fails)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked

apt_updated=
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$apt_updated" ]; then apt-get update -qq; apt_updated=1; fi
  apt-get install -y -qq "$@" >/dev/null
}

step "tmux for the terminal test of yezi play"
if ! command -v tmux >/dev/null 2>&1; then
  echo "tmux is not installed: installing it (apt-get)"
  apt_install tmux
  command -v tmux >/dev/null 2>&1 || { echo "tmux could not be installed"; exit 1; }
fi
tmux -V

step "libfaketime for the frozen-clock pause of crates/yezi/tests/cluster_pause.rs"
FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [ ! -e "$FAKETIME_LIB" ]; then
  echo "libfaketime is not installed: installing it (apt-get)"
  apt_install faketime libfaketime
  [ -e "$FAKETIME_LIB" ] || { echo "libfaketime could not be installed"; exit 1; }
fi
echo "libfaketime: $FAKETIME_LIB"

step "PostgreSQL for the storage conformance suite"
pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; fi
}
PGBIN=$(pg_bin)
if [ -z "$PGBIN" ]; then
  echo "PostgreSQL is not installed: installing it (apt-get)"
  apt_install postgresql
  PGBIN=$(pg_bin)
  [ -n "$PGBIN" ] || { echo "PostgreSQL could not be installed"; exit 1; }
fi
PGDIR=$(mktemp -d /tmp/yezi-pg.XXXXXX)
PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# PostgreSQL refuses to run as root: as root, run it as the `postgres` system user.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
  chown postgres "$PGDIR"
fi
stop_pg() { as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$PGDIR"; }
REDISDIR=
stop_redis() {
  if [ -n "$REDISDIR" ]; then
    [ -f "$REDISDIR/pid" ] && kill "$(cat "$REDISDIR/pid")" 2>/dev/null || true
    rm -rf "$REDISDIR"
  fi
}
PYBUILD_PID=
stop_pybuild() { if [ -n "$PYBUILD_PID" ]; then kill -- "-$PYBUILD_PID" 2>/dev/null || true; fi; }
trap 'stop_pybuild; stop_pg; stop_redis; step_report' EXIT
as_pg "$PGBIN/initdb" -D "$PGDIR/data" -U postgres -A trust --no-sync >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w \
  -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
export YEZI_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$PGPORT/postgres"
# The cluster's fault test stops and starts this server again (pg_ctl stop, then start).
export YEZI_TEST_PG_BIN="$PGBIN" YEZI_TEST_PG_DATA="$PGDIR/data"
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PGPORT"

step "Redis for the cluster's bus"
if ! command -v redis-server >/dev/null 2>&1; then
  echo "Redis is not installed: installing it (apt-get)"
  apt_install redis-server
  command -v redis-server >/dev/null 2>&1 || { echo "Redis could not be installed"; exit 1; }
fi
REDISDIR=$(mktemp -d /tmp/yezi-redis.XXXXXX)
REDISPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$REDISPORT" --bind 127.0.0.1 --dir "$REDISDIR" --save '' --appendonly no \
  --daemonize yes --pidfile "$REDISDIR/pid" --logfile "$REDISDIR/log"
for _ in $(seq 50); do redis-cli -p "$REDISPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
export YEZI_TEST_REDIS_URL="redis://127.0.0.1:$REDISPORT"
echo "$(redis-server --version | awk '{print $1, $3}') on 127.0.0.1:$REDISPORT"

step "cargo test (workspace): every test binary, then the doc tests"
# cargo-nextest runs the test binaries' tests side by side (most of them wait on timers and
# sockets far more than they compute), where `cargo test` runs one binary after another;
# .config/nextest.toml says how many at once and which run alone. Without it, `cargo test`.
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --locked
  cargo test --workspace --doc --locked
else
  echo "cargo-nextest is not installed: cargo test runs the test binaries one after another"
  cargo test --workspace --locked
fi
# The yezi binary the integration tests ran, built with them (and with their dependencies'
# features: `cargo build -p yezi` would build it and its dependencies a second time).
YEZI="$PWD/target/debug/yezi"
[ -x "$YEZI" ] || { echo "the test build left no $YEZI"; exit 1; }

step "arena smoke run: the example bot over the bot protocol (docs/bot-protocol.md) against heuristic"
for game in madiao dabaifen; do
  out=$("$YEZI" arena "$game" --a ext:"python3 examples/bots/random_bot.py" --b heuristic --hands 3 --quiet)
  echo "$out" | head -1
  echo "$out" | tail -1
  echo "$out" | tail -1 | grep -q ': 0 of [0-9]* decisions: ' || { echo "the example bot's decisions fell back"; exit 1; }
done

step "the Python bindings: the test tools (Debian's CPU PyTorch, a virtualenv with the test tools)"
# RLCard's DMC trainer (tests/test_dmc.py) needs PyTorch. PyPI's Linux torch wheels bring
# gigabytes of CUDA libraries, so the virtualenv is made from Debian's Python 3 and sees Debian's
# CPU build (python3-torch, with OpenBLAS for its matrix products) through
# --system-site-packages; numpy stays below 2 (that torch is built against numpy 1).
if ! dpkg -s python3-torch libopenblas0-pthread python3-venv >/dev/null 2>&1; then
  echo "PyTorch (CPU) is not installed: installing python3-torch and OpenBLAS (apt-get)"
  apt_install --no-install-recommends python3-torch libopenblas0-pthread python3-venv
fi
PYENV="$PWD/target/pyenv-debian"
[ -x "$PYENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$PYENV"
if ! "$PYENV/bin/python" -c "import numpy, maturin, pytest, gymnasium, pettingzoo, pyspiel, rlcard, git, torch, mypy" 2>/dev/null \
  || ! "$PYENV/bin/python" -c "import numpy, sys; sys.exit(int(numpy.__version__.split('.')[0]) >= 2)"; then
  echo "installing the Python test tools into $PYENV (pip)"
  "$PYENV/bin/python" -m pip install -q "numpy<2" maturin pytest gymnasium pettingzoo open-spiel rlcard GitPython mypy
fi
# `pip install './python[test]'` must never pull PyTorch or CUDA (docs/python.md): pip resolves it
# without installing (--dry-run --ignore-installed, as in an empty virtualenv) and the packages it
# would install are checked.
"$PYENV/bin/python" -m pip install -q --dry-run --ignore-installed --report "$PWD/target/pip-test-extra.json" './python[test]'
"$PYENV/bin/python" - "$PWD/target/pip-test-extra.json" <<'PY'
import json, sys
names = sorted(i["metadata"]["name"] for i in json.load(open(sys.argv[1]))["install"])
bad = [n for n in names if n.lower().startswith(("nvidia-", "torch", "triton", "jax", "tensorflow"))]
print("pip install './python[test]' would install:", " ".join(names))
sys.exit(f"the test extra pulls {bad}" if bad else 0)
PY
step "the Python bindings: fmt, clippy and the release wheel, started in the background"
# python/ is outside the workspace, with its own Cargo.lock. Its lints and the release wheel are
# compiled while the browser tests run (they mostly wait: about a quarter of two cores), in a
# session of their own (stopped with the suite if it fails first); the Python step after the
# browser tests waits for them and shows their output.
# The extension is built once, as what `pip install yezi` installs: the abi3 wheel in release
# mode, with the sdist beside it (the one documented command, docs/python.md). Every test runs
# against the wheel here; then the same wheel goes into a fresh virtualenv.
WHEELS="$PWD/target/wheels"
PYBUILD_LOG="$PWD/target/python-build.log"
export PYENV WHEELS
python_build() {
  set -euo pipefail
  cargo fmt --manifest-path python/Cargo.toml -- --check
  CARGO_TARGET_DIR="$PWD/target/python" cargo clippy --manifest-path python/Cargo.toml --all-targets --locked -- -D warnings
  rm -rf "$WHEELS"
  (cd python && VIRTUAL_ENV="$PYENV" PATH="$PYENV/bin:$PATH" CARGO_TARGET_DIR="$PWD/../target/python" \
    maturin build --release --sdist --locked -q -i "$PYENV/bin/python" -o "$WHEELS")
}
export -f python_build
setsid bash -c python_build > "$PYBUILD_LOG" 2>&1 &
PYBUILD_PID=$!
echo "building in the background (pid $PYBUILD_PID), its output in $PYBUILD_LOG"

step "the browser client: tools (Node.js, npm packages, Chromium)"
command -v node >/dev/null && command -v npm >/dev/null || { echo "the browser client's tests need Node.js 20 and npm"; exit 1; }
echo "node $(node --version), npm $(npm --version)"
if [ ! -x /usr/bin/chromium ]; then
  echo "Chromium is not installed: installing it (apt-get)"
  apt_install chromium
  [ -x /usr/bin/chromium ] || { echo "Chromium could not be installed"; exit 1; }
fi
# A font with Chinese characters, so the screenshots show the cards' names.
if ! fc-list 2>/dev/null | grep -qiE "wqy|noto sans cjk|noto serif cjk"; then
  echo "no CJK font: installing fonts-wqy-microhei (apt-get)"
  apt_install fonts-wqy-microhei
fi
/usr/bin/chromium --version
(cd e2e && npm ci --no-audit --no-fund --loglevel=error)

step "the browser client: type check (tsc --checkJs, wire types generated from the Rust types)"
(cd e2e && ./node_modules/.bin/tsc -p tsconfig.json)

step "the browser client: unit tests of the pure helpers (node --test)"
(cd e2e && node --test unit/)

step "the browser client: end-to-end in headless Chromium against the real yezi binary"
# Each file of e2e/scenarios/ starts its own server and browser (e2e/lib/harness.mjs), so one can
# run alone (`cd e2e && node --test scenarios/NAME.test.mjs`) and a failure names its scenario.
# Two files at a time: the run mostly waits (bots' pace, clocks; 124 s of processor time in a
# 1,020 s run one at a time), and two at once passed whole on two cores under a load average of 19
# (9 min 54 s). More at once makes the timings flaky.
rm -rf target/e2e-artifacts
(cd e2e && YEZI_BIN="$YEZI" node --test --test-concurrency=2 --test-timeout=600000 scenarios/)

step "the Python bindings: fmt, clippy and the release wheel (waits for the build started before the browser tests), every test in a virtualenv with the test tools"
PYBUILD_OK=0
wait "$PYBUILD_PID" || PYBUILD_OK=$?
PYBUILD_PID=
cat "$PYBUILD_LOG"
[ "$PYBUILD_OK" = 0 ] || { echo "the Python bindings' fmt, clippy or wheel build failed (exit $PYBUILD_OK)"; exit 1; }
# One abi3 wheel (every CPython from 3.9), not one for this interpreter.
ls "$WHEELS"/yezi-*-cp39-abi3-*.whl >/dev/null || { echo "the wheel is not abi3: $(ls "$WHEELS")"; exit 1; }
# Both carry the types: py.typed and the native module's stubs.
WHEEL_FILES=$("$PYENV/bin/python" -m zipfile -l "$WHEELS"/yezi-*.whl)
SDIST_FILES=$(tar tzf "$WHEELS"/yezi-*.tar.gz)
for f in yezi/py.typed yezi/_yezi.pyi; do
  grep -q "^$f " <<<"$WHEEL_FILES" || { echo "the wheel lacks $f"; exit 1; }
  grep -q "/pysrc/$f\$" <<<"$SDIST_FILES" || { echo "the sdist lacks $f"; exit 1; }
done
# --no-deps: the virtualenv keeps its numpy below 2 (Debian's torch is built against numpy 1).
"$PYENV/bin/python" -m pip install -q --force-reinstall --no-deps "$WHEELS"/yezi-*.whl
# --no-skips (tests/conftest.py): every tool and extra is installed here, PyTorch included, so a
# skipped test fails the run; the summary is checked for skips as well.
(cd python && YEZI_BIN="$YEZI" "$PYENV/bin/python" -m pytest -q -rs --no-skips tests) | tee "$PWD/target/pytest.log"
if grep -qE "[0-9]+ skipped" "$PWD/target/pytest.log"; then echo "Python tests were skipped"; exit 1; fi

step "the Python bindings: the release wheel in a fresh virtualenv, without PyTorch"
# What `pip install './python[test]'` would install: the same wheel with its `test` extra (no
# torch, no GitPython), in a new virtualenv made from another Python (not Debian's), with numpy
# from PyPI. The whole suite must collect there; the tests that need torch (marked `torch`) are
# skipped with the one-line note saying so, and nothing else: the native API's tests, the no-leak
# tests, the checksum parity with `yezi bench` and the pickling tests run with --no-skips.
WHEELENV="$PWD/target/wheelenv"
rm -rf "$WHEELENV"
python3 -m venv "$WHEELENV"
WHEEL=$(ls "$WHEELS"/yezi-*.whl)
"$WHEELENV/bin/python" -m pip install -q "$WHEEL[test]"
if "$WHEELENV/bin/python" -c "import torch" 2>/dev/null; then echo "the test extra brought torch"; exit 1; fi
# Every test file is collected (-m torch then runs only the torch tests, each skipped).
(cd python && YEZI_BIN="$YEZI" "$WHEELENV/bin/python" -m pytest -q -rs -m torch tests) | tee "$PWD/target/pytest-notorch.log"
"$WHEELENV/bin/python" - "$PWD/target/pytest-notorch.log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
summary = log.strip().splitlines()[-1]
counts = {k: int(n) for n, k in re.findall(r"(\d+) (\w+)", summary)}
skipped = counts.get("skipped", 0)
note = re.search(r"^(\d+) tests need PyTorch and were skipped \(torch\b[^)]*missing\)", log, re.M)
problems = []
if not note:
    problems.append("the one-line note on the skipped torch tests is missing")
elif int(note.group(1)) != skipped:
    problems.append(f"the note counts {note.group(1)} skipped tests, the summary {skipped}")
if skipped == 0 or set(counts) - {"skipped", "deselected", "warning", "warnings"}:
    problems.append(f"only skipped torch tests expected: {summary}")
if counts.get("deselected", 0) < 100:
    problems.append(f"the whole suite was not collected: {summary}")
reasons = re.findall(r"^SKIPPED \[\d+\] (.*)$", log, re.M)
other = [r for r in reasons if "the train extra is not installed" not in r]
if other:
    problems.append(f"skipped for another reason: {other}")
sys.exit("without torch: " + "; ".join(problems) if problems else 0)
PY
"$WHEELENV/bin/python" -c '
import sys, yezi, yezi._yezi as native
assert native.__file__.startswith(sys.prefix + "/"), native.__file__
s = yezi.madiao.Game().new_initial_state(seed=1)
print("yezi from the wheel:", native.__file__, "| a Madiao deal, player", s.current_player())'
(cd python && YEZI_BIN="$YEZI" "$WHEELENV/bin/python" -m pytest -q --no-skips \
  tests/test_native.py tests/test_noleak.py tests/test_parity.py tests/test_pickle.py)

step_done
STEP_NAME=
echo
echo "==> all tests passed"
