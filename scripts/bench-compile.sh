#!/usr/bin/env bash
# What `#[derive(McpTool)]` costs at compile time (docs/benchmarks.md).
#
#   scripts/bench-compile.sh [COMMANDS] [RUNS]     # defaults: 300 commands, 2 runs
#
# Generates one CLI of COMMANDS subcommands with 3 arguments each (a
# positional, an integer option with a default, a flag), written out as a
# real CLI is (no macro), in two bin crates under target/compile-bench/:
#   clap_only   #[derive(Parser)] / #[derive(Subcommand)], clap's main
#   with_mcp    the same types with McpTool added, main through Bridge
# Dependencies are built first; then each crate's own compilation (release,
# the binary crate alone: its main.rs is touched) is timed RUNS times, and
# the CPU time (user + system, all cores) of the fastest run is reported,
# with the ratio with_mcp / clap_only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo="$(pwd)"
commands="${1:-300}"
runs="${2:-2}"
bench="$repo/target/compile-bench"
export CARGO_TARGET_DIR="$bench/target"
mkdir -p "$bench"

generate() { # $1 = crate name, $2 = 1 for McpTool
  local name="$1" mcp="$2" dir="$bench/$1"
  mkdir -p "$dir/src"
  {
    echo "[package]"
    echo "name = \"$name\""
    echo 'version = "0.0.0"'
    echo 'edition = "2021"'
    echo 'publish = false'
    echo '[workspace]'
    echo '[dependencies]'
    echo 'clap = { version = "4", features = ["derive", "env"] }'
    if [ "$mcp" = 1 ]; then
      echo "mcp-bridge = { path = \"$repo/mcp-bridge\" }"
    fi
  } > "$dir/Cargo.toml"
  # Same lock file as the repository: same versions of clap and the rest.
  cp "$repo/Cargo.lock" "$dir/Cargo.lock"
  python3 - "$commands" "$mcp" > "$dir/src/main.rs" <<'PY'
import sys
n, mcp = int(sys.argv[1]), sys.argv[2] == "1"
derive = lambda d: f"#[derive({d}, McpTool, Debug)]" if mcp else f"#[derive({d}, Debug)]"
out = []
if mcp:
    out.append("use mcp_bridge::{Bridge, Io, McpTool};")
out.append("use clap::{Parser, Subcommand};")
out.append("/// A CLI with many commands.")
out.append(derive("Parser"))
out.append('#[command(name = "many", version)]')
out.append("struct Cli {\n    #[command(subcommand)]\n    command: Command,\n}")
out.append(derive("Subcommand"))
out.append("enum Command {")
for i in range(n):
    out.append(f"""    /// Command number {i}
    C{i:03} {{
        /// What to work on
        target: String,
        /// How many times
        #[arg(long, default_value_t = 1)]
        count: u32,
        /// Say more
        #[arg(short, long)]
        verbose: bool,
    }},""")
out.append("}")
arms = "\n".join(
    f"        Command::C{i:03} {{ target, count, verbose }} => println!(\"c{i:03} {{target}} {{count}} {{verbose}}\")," for i in range(n)
)
out.append(f"fn run(cli: Cli) {{\n    match cli.command {{\n{arms}\n    }}\n}}")
if mcp:
    out.append("fn main() -> std::process::ExitCode {\n    Bridge::new(|cli: Cli, _io: &mut Io<'_>| run(cli)).run()\n}")
else:
    out.append("fn main() {\n    run(Cli::parse())\n}")
print("\n".join(out))
PY
}

cpu_seconds() { # $1 = crate dir; prints user+sys seconds of one rebuild
  touch "$1/src/main.rs"
  /usr/bin/time -f "%U %S" -o "$bench/time.txt" \
    cargo build -q --release --manifest-path "$1/Cargo.toml"
  awk '{ printf "%.1f\n", $1 + $2 }' "$bench/time.txt"
}

for crate in clap_only with_mcp; do
  generate "$crate" "$([ "$crate" = with_mcp ] && echo 1 || echo 0)"
  echo "== $crate: building dependencies" >&2
  cargo build -q --release --manifest-path "$bench/$crate/Cargo.toml"
done

declare -A best
for run in $(seq "$runs"); do
  for crate in clap_only with_mcp; do
    t="$(cpu_seconds "$bench/$crate")"
    echo "run $run: $crate ${t}s CPU" >&2
    prev="${best[$crate]:-}"
    if [ -z "$prev" ] || awk -v a="$t" -v b="$prev" 'BEGIN { exit !(a < b) }'; then
      best[$crate]="$t"
    fi
  done
done

echo "commands: $commands (3 arguments each), release, CPU seconds of the binary crate, best of $runs"
echo "clap derive alone:        ${best[clap_only]} s"
echo "clap derive + McpTool:    ${best[with_mcp]} s"
awk -v a="${best[with_mcp]}" -v b="${best[clap_only]}" 'BEGIN { printf "ratio:                    %.2fx\n", a / b }'
