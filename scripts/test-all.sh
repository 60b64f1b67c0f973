#!/usr/bin/env bash
# Runs every test: unit, doc, integration, snapshot and real-client tests
# (the Python MCP SDK, installed into a venv on first use; the MCP
# Inspector CLI and the official conformance suite, installed from npm on
# first use).
#
#   scripts/test-all.sh            # extra arguments go to `cargo test`
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MCP_BRIDGE_PYTHON="$(scripts/python-venv.sh)"
export MCP_BRIDGE_PYTHON
MCP_BRIDGE_NODE_TOOLS="$(scripts/node-tools.sh)"
export MCP_BRIDGE_NODE_TOOLS

cargo test --workspace "$@"
