#!/usr/bin/env bash
# How long `testing::assert_agrees_with_clap` takes in a user's test suite
# (docs/benchmarks.md): a generated CLI of COMMANDS subcommands, each with
# the argument kinds the check makes most calls for (a positional, an
# integer option with a range and a default, a value enum, a delimited
# list, a flag, an option read from a variable, two conflicting options),
# checked in a debug test build, as `cargo test` runs it.
#
#   scripts/bench-agreement.sh [COMMANDS] [RUNS]    # defaults: 100 commands, 3 runs
#
# Prints, for each run, the calls compared and the wall time of the check
# alone (the build is not timed), then the fastest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$(pwd)"
commands="${1:-100}"
runs="${2:-3}"
dir="$repo/target/agreement-bench"
mkdir -p "$dir/src"
{
  echo "[package]"
  echo 'name = "agreement_bench"'
  echo 'version = "0.0.0"'
  echo 'edition = "2021"'
  echo 'publish = false'
  echo '[workspace]'
  echo '[dependencies]'
  echo 'clap = { version = "4", features = ["derive", "env"] }'
  echo "mcp-bridge = { path = \"$repo/mcp-bridge\", features = [\"testing\"] }"
} > "$dir/Cargo.toml"
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
python3 - "$commands" "$runs" > "$dir/src/lib.rs" <<'PY'
import sys
n, runs = int(sys.argv[1]), int(sys.argv[2])
out = ["use clap::{Parser, Subcommand, ValueEnum};", "use mcp_bridge::McpTool;"]
out.append("#[derive(ValueEnum, Clone, Debug)]\npub enum Mode { Fast, Slow, Careful }")
out.append("/// A CLI with many commands.")
out.append("#[derive(Parser, McpTool, Debug)]")
out.append('#[command(name = "many")]')
out.append("pub struct Cli {\n    #[command(subcommand)]\n    pub command: Command,\n}")
out.append("#[derive(Subcommand, McpTool, Debug)]")
out.append("pub enum Command {")
for i in range(n):
    out.append(f"""    /// Command number {i}
    C{i:03} {{
        /// What to work on
        target: String,
        /// How many times
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=9))]
        count: u32,
        /// How to go about it
        #[arg(long, value_enum, ignore_case = true)]
        mode: Option<Mode>,
        /// Labels
        #[arg(long, value_delimiter = ',')]
        label: Vec<String>,
        /// Say more
        #[arg(short, long)]
        verbose: bool,
        /// Where to write
        #[arg(long, env = "MANY_OUT_{i:03}")]
        out: Option<String>,
        /// Quiet
        #[arg(long, conflicts_with = "loud")]
        quiet: bool,
        /// Loud
        #[arg(long)]
        loud: bool,
    }},""")
out.append("}")
out.append(f"""
#[test]
fn agreement_timing() {{
    let mut best = f64::MAX;
    for run in 0..{runs} {{
        let start = std::time::Instant::now();
        let report = mcp_bridge::testing::agreement::<Cli>();
        let seconds = start.elapsed().as_secs_f64();
        assert!(report.disagreements.is_empty(), "{{:?}}", report.disagreements);
        println!("AGREEMENT run={{run}} tools={n} compared={{}} seconds={{seconds:.3}}", report.compared);
        best = best.min(seconds);
    }}
    println!("AGREEMENT best={{best:.3}}");
}}
""")
print("\n".join(out))
PY
cd "$dir"
CARGO_TARGET_DIR="$dir/target" cargo test --quiet --lib --no-run 2>&1 | tail -n 3
# clap's own `Cli::command()` for this many commands needs more than the
# 2 MiB of a test thread in a debug build, with or without mcp-bridge.
RUST_MIN_STACK=16777216 CARGO_TARGET_DIR="$dir/target" cargo test --quiet --lib -- --nocapture 2>&1 | grep '^AGREEMENT'
