#!/usr/bin/env bash
# Create (or reuse) the Python venv used by the real-client MCP tests and make
# sure the pinned SDK from tests/python/requirements.txt is installed in it.
#
#   PY=$(scripts/python-venv.sh)      # last (only) stdout line: the venv's python
#
# The venv lives at ${MCP_BRIDGE_VENV:-target/py-venv}; a relative path is taken
# relative to the repository root. Idempotent: a second run only checks that
# `import mcp` works and reports the pinned version, then exits.
# Diagnostics go to stderr so stdout carries just the python path.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
requirements="$repo_root/tests/python/requirements.txt"

venv="${MCP_BRIDGE_VENV:-target/py-venv}"
case "$venv" in
  /*) ;;
  *) venv="$repo_root/$venv" ;;
esac
py="$venv/bin/python"

# The version we pin, e.g. "2.3.0" from a line "mcp==2.3.0".
want="$(sed -n 's/^[[:space:]]*mcp[[:space:]]*==[[:space:]]*\([^[:space:];#]*\).*/\1/p' "$requirements" | head -n1)"
if [ -z "$want" ]; then
  echo "python-venv.sh: no 'mcp==VERSION' pin found in $requirements" >&2
  exit 1
fi

have_sdk() {
  "$py" - "$want" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
import mcp  # noqa: F401  (must actually import, not just be listed)
sys.exit(0 if version("mcp") == sys.argv[1] else 1)
PY
}

# (Re)create the venv when missing or when its interpreter no longer runs
# (e.g. the base python it was made from went away).
if ! "$py" -c 'import sys' >/dev/null 2>&1; then
  if ! command -v python3 >/dev/null 2>&1; then
    echo "python-venv.sh: python3 not found on PATH" >&2
    exit 1
  fi
  if ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
    echo "python-venv.sh: python3 >= 3.10 is required (mcp $want), found $(python3 --version 2>&1)" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  if ! python3 -m venv "$venv" >&2; then
    echo "python-venv.sh: 'python3 -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)" >&2
    exit 1
  fi
fi

if ! have_sdk; then
  "$py" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements" >&2
  if ! have_sdk; then
    echo "python-venv.sh: mcp==$want still not importable from $py after pip install" >&2
    exit 1
  fi
fi

echo "$py"
