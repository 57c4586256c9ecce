#!/usr/bin/env bash
# The whole test suite: formatting, lints, every crate's tests (unit, property, data-driven,
# doc tests) and the command-line tests. Installs what it needs when missing. `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test (workspace)"
cargo test --workspace --locked

step "all tests passed"
