#!/usr/bin/env bash
# Runs every fuzz target (tests/fuzz, docs/reliability.md) for a bounded
# time each, starting from the committed seeds and regressions; fails on
# the first crash, hang or runaway memory, leaving the input under
# tests/fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh                       # 60 s per target (what CI runs)
#   FUZZ_SECONDS=600 scripts/fuzz.sh      # the long run of the doc
#   scripts/fuzz.sh lines                 # one target
#
# Needs a nightly toolchain (cargo-fuzz builds with -Z flags) and installs
# cargo-fuzz from crates.io when it is missing. Without nightly it says so
# and exits 0: the same checks still replay the seeds and regressions on
# stable in `cargo test` (tests/tests/fuzz_corpus.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../tests"

seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(arguments lines output); fi

if ! rustup toolchain list 2> /dev/null | grep -q '^nightly'; then
  echo "!! no nightly toolchain here: the fuzz targets are NOT run (cargo test still replays their seeds and regressions)" >&2
  exit 0
fi
if ! cargo fuzz --version > /dev/null 2>&1; then
  cargo install cargo-fuzz --locked --version 0.13.2
fi

for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  extra=()
  if [ -f "fuzz/$target.dict" ]; then extra+=("-dict=fuzz/$target.dict"); fi
  echo "== fuzz $target for ${seconds} s"
  # No sanitizer: the code under test has no unsafe of its own, and the
  # plain build runs 2-3 times as many inputs; panics (every broken promise
  # of tests/src/fuzzing.rs is one), hangs and memory are still caught.
  cargo +nightly fuzz run --sanitizer none "$target" \
    "fuzz/corpus/$target" "fuzz/seeds/$target" "fuzz/regressions/$target" -- \
    -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    "${extra[@]}" 2>&1 | grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)'
done
