#!/usr/bin/env bash
# Install (or reuse) the pinned MCP Inspector CLI used by the real-client
# tests (tests/tests/inspector.rs), from the npm registry.
#
#   INSPECTOR=$(scripts/node-tools.sh)   # last (only) stdout line: its entry script
#
# It lives under ${MCP_BRIDGE_NODE_TOOLS:-target/node-tools}. Without node or
# npm on the machine it says so on stderr and prints nothing (the test then
# skips locally, and fails under CI). Diagnostics go to stderr.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${MCP_BRIDGE_NODE_TOOLS:-target/node-tools}"
case "$dir" in
  /*) ;;
  *) dir="$repo_root/$dir" ;;
esac
package="@modelcontextprotocol/inspector-cli"
version="1.0.3"
entry="$dir/node_modules/$package/build/index.js"

if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "node-tools.sh: node and npm are needed for the MCP Inspector CLI; not found" >&2
  exit 0
fi
installed="$(node -p "require('$dir/node_modules/$package/package.json').version" 2> /dev/null || true)"
if [ "$installed" != "$version" ]; then
  echo "node-tools.sh: installing $package@$version into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$package@$version" >&2
fi
echo "$entry"
