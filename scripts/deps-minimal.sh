#!/usr/bin/env bash
# Builds the published crates, and runs their own tests, against the oldest
# versions of their direct dependencies that the manifests allow
# (`cargo update -Z direct-minimal-versions`), and checks that each lower
# bound is the version that run resolved: a floor is tested, not copied
# from the lock file. The run is made in a scratch workspace of the two
# published crates alone, as a user's build resolves them (the test
# crates' own dependencies would otherwise raise shared floors unseen).
# Needs a nightly cargo feature: RUSTC_BOOTSTRAP=1 lets the stable
# toolchain use it.
#
# Lowering a floor: set it in the manifest and run this script; it fails
# when the graph forces a higher version (the check below names it) or
# when the crates stop building or passing there. A floor is also never
# below a release with a bug the bridge would reach (wildmatch 2.3.2, held
# by a test) or a published security advisory (tokio 1.38.2,
# tracing-subscriber 0.3.20).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scratch=target/deps-minimal
rm -rf "$scratch/work"
mkdir -p "$scratch/work"
cp -r mcp-bridge mcp-bridge-derive "$scratch/work/"
# The derive's test that every key of clap is classified reads the table
# of docs/clap-support.md.
mkdir -p "$scratch/work/docs"
cp docs/clap-support.md "$scratch/work/docs/"
sed -e 's/^members = .*/members = ["mcp-bridge", "mcp-bridge-derive"]/' -e '/^exclude = /d' \
  Cargo.toml > "$scratch/work/Cargo.toml"
cd "$scratch/work"
export CARGO_TARGET_DIR=../target

RUSTC_BOOTSTRAP=1 cargo update -Z direct-minimal-versions

# Each direct dependency resolved at the lower bound its manifest states.
cargo metadata --format-version 1 --all-features --locked > ../metadata.json
python3 - ../metadata.json <<'EOF'
import json, re, sys
meta = json.load(open(sys.argv[1]))
resolved = {}
for package in meta["packages"]:
    resolved.setdefault(package["name"], set()).add(package["version"].split("+")[0])
wrong = []
for package in meta["packages"]:
    if package["source"] is not None:
        continue
    for dep in package["dependencies"]:
        if dep["source"] is None or dep["kind"] == "dev":
            continue
        name, req = dep["name"], dep["req"]
        floor = re.fullmatch(r"\^(\d+)(?:\.(\d+))?(?:\.(\d+))?", req)
        if not floor:
            wrong.append(f"{package['name']}: {name} {req} is not a caret floor")
            continue
        version = ".".join(part or "0" for part in floor.groups())
        got = resolved.get(name, set())
        if version in got:
            print(f"{package['name']}: {name} {version}")
        else:
            found = ", ".join(sorted(got)) or "nothing"
            wrong.append(f"{package['name']}: {name} >= {version} resolved to {found}: "
                         "raise the floor to what the graph needs")
if wrong:
    sys.exit("\n".join(wrong))
EOF

# Without the default features too: the stdio-only build a user may pick.
cargo build -p mcp-bridge --no-default-features --locked
# And with OAuth, the feature that brings the JWT and HTTPS crates, and
# with every feature (YAML's parser, `testing`, `server-json`, `adopt`).
cargo build -p mcp-bridge --features oauth --locked
cargo build -p mcp-bridge --all-features --locked
cargo test -p mcp-bridge-derive -p mcp-bridge --lib --locked
# `cargo mcp-bridge adopt` (the `adopt` feature: syn's spans, toml_edit).
cargo test -p mcp-bridge --features adopt --bin cargo-mcp-bridge --locked
# The crate docs' examples on the default features: among them, that
# `#[mcp(output = "yaml")]` does not compile without the `yaml` feature
# (the workspace's tests build with it on).
cargo test -p mcp-bridge --doc --locked
