#!/usr/bin/env bash
# Runs every test (scripts/test-all.sh) against the newest versions of the
# dependencies that the manifests allow, as `cargo add mcp-bridge` resolves
# them for a new user, instead of the versions Cargo.lock holds. The lock
# file is put back afterwards. When nothing newer exists, the run with the
# lock file covered it and nothing is run again.
#
#   scripts/deps-newest.sh             # extra arguments go to `cargo test`
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

saved="$(mktemp)"
cp Cargo.lock "$saved"
trap 'cp "$saved" Cargo.lock; rm -f "$saved"' EXIT

cargo update 2>&1 | grep -E "Updating|Adding|Removing|Downgrading" || true
if cmp -s Cargo.lock "$saved"; then
  echo "the lock file holds the newest versions already: covered by the run with it"
  exit 0
fi
scripts/test-all.sh "$@"
