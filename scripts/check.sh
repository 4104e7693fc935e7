#!/usr/bin/env bash
# The checks CI runs after installing what they need: formatting, lints, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo check -p pbm --no-default-features
cargo test --workspace
