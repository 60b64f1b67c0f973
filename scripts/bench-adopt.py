#!/usr/bin/env python3
"""What adopting mcp-bridge costs a CLI that does not serve: binary size and
start-up in CLI mode (docs/benchmarks.md, "What adopting costs").

    scripts/bench-adopt.py [--runs N] [--rounds R]    # defaults: 300 runs, 2 rounds

Builds three release binaries of the same `notes` CLI (tests/bench-bins:
`src/notes.rs`), which differ only in what serves MCP:

    notes_plain   the CLI alone (clap + tokio)
    notes         the CLI with `McpTool` and `Bridge` (mcp-bridge's default features)
    notes_rmcp    the CLI with a server written by hand with rmcp's `#[tool]` macros

then prints each one's stripped size, and the same for the 300-command
`wide` CLI (`src/wide.rs`):

    wide            the CLI with `McpTool` and `Bridge`
    wide_cli_rmcp   the CLI with a server written by hand with rmcp (one
                    argument type and function per tool, `wide_rmcp`'s)
    wide_rmcp       that server alone, without the CLI (the stdio
                    benchmark's baseline)

It then times `list --limit 1` of `notes` against `notes_plain` (and
`notes_rmcp` against `notes_plain`), the two run in turn, RUNS times each
per round. Reported per round: the median wall time
(spawn to exit, as a shell sees it) and the median CPU time of the child
(user + system, from wait4), and the ratios of the medians.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BINS = ["notes_plain", "notes", "notes_rmcp"]
# Built and measured for their size only.
WIDE = ["wide", "wide_cli_rmcp", "wide_rmcp"]
ARGS = ["list", "--limit", "1"]


def build() -> Path:
    print("building: cargo build --release -p bench-bins "
          + " ".join(f"--bin {b}" for b in BINS + WIDE))
    cmd = ["cargo", "build", "--release", "-p", "bench-bins"]
    for b in BINS + WIDE:
        cmd += ["--bin", b]
    subprocess.run(cmd, cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    return target / "release"


def stripped(release: Path, into: Path) -> dict:
    paths = {}
    for b in BINS + WIDE:
        dest = into / b
        shutil.copy2(release / b, dest)
        subprocess.run(["strip", str(dest)], check=True)
        paths[b] = dest
    return paths


def one_run(path: Path) -> tuple:
    """Wall and child CPU seconds of one run, its output thrown away."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        pid = os.posix_spawn(str(path), [str(path), *ARGS], os.environ,
                             file_actions=[(os.POSIX_SPAWN_DUP2, null.fileno(), 1)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{path.name} {' '.join(ARGS)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def paired(a: Path, b: Path, runs: int) -> dict:
    figures = {"a_wall": [], "a_cpu": [], "b_wall": [], "b_cpu": []}
    for _ in range(5):  # warm-up: page cache, branch predictors
        one_run(a)
        one_run(b)
    for _ in range(runs):
        for side, path in (("a", a), ("b", b)):
            wall, cpu = one_run(path)
            figures[f"{side}_wall"].append(wall)
            figures[f"{side}_cpu"].append(cpu)
    return {k: statistics.median(v) for k, v in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    opts = parser.parse_args()
    release = build()
    with tempfile.TemporaryDirectory() as scratch:
        paths = stripped(release, Path(scratch))
        sizes = {b: paths[b].stat().st_size for b in BINS + WIDE}
        print("\nstripped release binaries")
        for b in BINS:
            print(f"  {b:14} {sizes[b] / 1e6:6.2f} MB  ({sizes[b] / sizes['notes_rmcp']:.2f}x notes_rmcp)")
        for b in WIDE:
            print(f"  {b:14} {sizes[b] / 1e6:6.2f} MB  "
                  f"({sizes[b] / sizes['wide_cli_rmcp']:.2f}x wide_cli_rmcp)")
        print(f"\nstart-up in CLI mode: `{' '.join(ARGS)}`, {opts.runs} runs each, in turn")
        for round_ in range(1, opts.rounds + 1):
            for name in ("notes", "notes_rmcp"):
                m = paired(paths[name], paths["notes_plain"], opts.runs)
                print(
                    f"  round {round_}: {name:10} wall {m['a_wall'] * 1e3:.3f} ms against "
                    f"{m['b_wall'] * 1e3:.3f} ms = {m['a_wall'] / m['b_wall']:.3f}x; "
                    f"cpu {m['a_cpu'] * 1e3:.3f} ms against {m['b_cpu'] * 1e3:.3f} ms = "
                    f"{m['a_cpu'] / m['b_cpu']:.3f}x"
                )


if __name__ == "__main__":
    main()
