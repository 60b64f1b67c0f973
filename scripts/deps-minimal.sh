#!/usr/bin/env bash
# Builds the published crates, and runs their own tests, against the oldest
# versions of their direct dependencies that the manifests allow
# (`cargo update -Z direct-minimal-versions`): every lower bound in a
# manifest is one that builds and passes. The lock file is put back
# afterwards. Needs a nightly cargo feature: RUSTC_BOOTSTRAP=1 lets the
# stable toolchain use it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

saved="$(mktemp)"
cp Cargo.lock "$saved"
trap 'cp "$saved" Cargo.lock; rm -f "$saved"' EXIT

RUSTC_BOOTSTRAP=1 cargo update -Z direct-minimal-versions
for crate in rmcp clap serde_json tokio syn schemars; do
  cargo tree -p mcp-bridge -p mcp-bridge-derive -e normal -i "$crate" --depth 0 2> /dev/null |
    sed -n 1p || true
done
# Without the default features too: the stdio-only build a user may pick.
cargo build -p mcp-bridge --no-default-features --locked
# And with OAuth, the feature that brings the JWT and HTTPS crates.
cargo build -p mcp-bridge --features oauth --locked
cargo test -p mcp-bridge-derive -p mcp-bridge --lib --locked
# `cargo mcp-bridge adopt` (the `adopt` feature: syn's spans, toml_edit).
cargo test -p mcp-bridge --features adopt --bin cargo-mcp-bridge --locked
# The crate docs' examples on the default features: among them, that
# `#[mcp(output = "yaml")]` does not compile without the `yaml` feature
# (the workspace's tests build with it on).
cargo test -p mcp-bridge --doc --locked
