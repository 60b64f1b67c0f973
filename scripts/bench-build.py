#!/usr/bin/env python3
"""What adopting mcp-bridge costs a CLI's clean build (docs/benchmarks.md,
"What adopting costs"): the `notes` CLI of tests/bench-bins built clean, in
release, as three packages of their own that differ only in what serves MCP:

    notes_plain   the CLI alone (clap + tokio)
    notes         the CLI with `McpTool` and `Bridge` (mcp-bridge's default features)
    notes_rmcp    the CLI with a server written by hand with rmcp's `#[tool]` macros

    scripts/bench-build.py [--rounds R] [--jobs J]    # defaults: 2 rounds, all cores

Each package is made in a temporary folder (the bin's source and
`src/notes.rs`, the workspace's lock file so that every build resolves the
same versions, mcp-bridge by path), its dependencies fetched first, then
built with an empty target folder; the three are built in turn, RUNS times
over. Reported per build: wall seconds and CPU seconds (user + system of
cargo and everything it ran), and the ratios of `notes` to the others.
"""

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "tests" / "bench-bins" / "src"

CLAP = 'clap = { version = "4.6.7", features = ["derive", "env"] }'
TOKIO = 'tokio = { version = "1.54.1", features = ["rt-multi-thread", "macros"] }'
VARIANTS = {
    "notes_plain": [CLAP, TOKIO],
    "notes": [CLAP, TOKIO, f'mcp-bridge = {{ path = "{REPO / "mcp-bridge"}" }}'],
    "notes_rmcp": [
        CLAP,
        TOKIO,
        'rmcp = { version = "3.9", default-features = false, features = ["server", "transport-io", "macros"] }',
        'schemars = "1.2.3"',
        'serde = { version = "1.0.229", features = ["derive"] }',
        'serde_json = "1.0.154"',
    ],
}


def make(variant: str, into: Path) -> Path:
    package = into / variant
    (package / "src").mkdir(parents=True)
    shutil.copy2(BENCH / "notes.rs", package / "notes.rs")
    # `include!("../notes.rs")` from src/main.rs.
    shutil.copy2(BENCH / "bin" / f"{variant}.rs", package / "src" / "main.rs")
    shutil.copy2(REPO / "Cargo.lock", package / "Cargo.lock")
    manifest = "\n".join(
        [
            "[package]",
            f'name = "{variant.replace("_", "-")}"',
            'version = "0.0.0"',
            'edition = "2021"',
            "publish = false",
            "",
            "[[bin]]",
            f'name = "{variant}"',
            'path = "src/main.rs"',
            "",
            "[dependencies]",
            *VARIANTS[variant],
            "",
            "[workspace]",
            "",
        ]
    )
    (package / "Cargo.toml").write_text(manifest)
    subprocess.run(["cargo", "fetch", "--quiet"], cwd=package, check=True)
    return package


def build(package: Path, jobs: int | None) -> tuple:
    """Wall and CPU seconds of one clean release build."""
    target = package / "target"
    shutil.rmtree(target, ignore_errors=True)
    cmd = ["cargo", "build", "--release", "--offline", "--quiet"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=package, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    shutil.rmtree(target, ignore_errors=True)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-build-") as scratch:
        packages = {variant: make(variant, Path(scratch)) for variant in VARIANTS}
        results = {variant: [] for variant in VARIANTS}
        for round_ in range(1, args.rounds + 1):
            for variant, package in packages.items():
                wall, cpu = build(package, args.jobs)
                results[variant].append((wall, cpu))
                print(f"round {round_}: {variant:12} wall {wall:7.1f} s  cpu {cpu:7.1f} s", flush=True)
            ours = results["notes"][-1]
            for other in ("notes_rmcp", "notes_plain"):
                theirs = results[other][-1]
                print(
                    f"round {round_}: notes / {other:11} wall {ours[0] / theirs[0]:.2f}x"
                    f"  cpu {ours[1] / theirs[1]:.2f}x",
                    flush=True,
                )
    best = {variant: (min(w for w, _ in runs), min(c for _, c in runs)) for variant, runs in results.items()}
    for other in ("notes_rmcp", "notes_plain"):
        print(
            f"best of {args.rounds}: notes / {other:11} wall {best['notes'][0] / best[other][0]:.2f}x"
            f"  cpu {best['notes'][1] / best[other][1]:.2f}x"
        )


if __name__ == "__main__":
    sys.exit(main())
