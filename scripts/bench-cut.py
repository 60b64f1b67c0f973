#!/usr/bin/env python3
"""What each part of the bridge adds to an adopting CLI's binary, measured by
cutting it out (docs/benchmarks.md, "What adopting costs").

    scripts/bench-cut.py [GROUP ...]    # default: every group, then all at once

In a scratch worktree of HEAD (removed at the end), for each group of
files: every function body in them is replaced by a call that never
returns, made through `black_box` so that the compiler keeps the callers'
code as it is (scripts/cut-size), and `notes` (tests/bench-bins, default
features) is built in release and stripped. Printed: its size, what the
group's code took (against the build with nothing cut, made the same way),
and the size against `notes_rmcp`, the same CLI with a hand-written rmcp
server. What a group takes this way is a floor of what leaving it out of
the build would save: its types, the fields that hold them and the calls
into it stay.

Builds go to target/bench-cut; `--keep` keeps the worktree.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = "mcp-bridge/src"

# Parts a CLI may not use, by the files that hold them (under mcp-bridge/src).
GROUPS = {
    "install": ["install.rs"],
    "questions": ["serve/running/ask.rs", "serve/protocol/rounds.rs", "serve/protocol/followed.rs"],
    "tasks": ["serve/protocol/tasks.rs"],
    "skills": ["serve/protocol/skills.rs"],
    "values": ["serve/protocol/fetching.rs", "serve/protocol/values.rs"],
    "isolation": ["serve/running/isolate.rs"],
    "grouped and search modes": ["registry/surface.rs"],
    "doc-comment examples": ["registry/examples.rs"],
}
ALL = "all of them"
STUB = '\n#[allow(dead_code)]\npub(crate) fn __stub<T>() -> T {\n    panic!("cut by scripts/bench-cut.py")\n}\n'


def run(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def stripped_size(binary: Path, scratch: Path, name: str) -> int:
    dest = scratch / name
    shutil.copy2(binary, dest)
    run(["strip", str(dest)])
    return dest.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help=f"some of: {', '.join(GROUPS)}")
    parser.add_argument("--keep", action="store_true", help="keep the scratch worktree")
    opts = parser.parse_args()
    unknown = [g for g in opts.groups if g not in GROUPS]
    if unknown:
        sys.exit(f"unknown group(s): {', '.join(unknown)}; the groups: {', '.join(GROUPS)}")
    groups = opts.groups or [*GROUPS, ALL]

    target = REPO / "target" / "bench-cut"
    env = dict(os.environ, CARGO_TARGET_DIR=str(target), RUSTFLAGS="--cap-lints=allow")
    print("building the stubber: scripts/cut-size")
    run(["cargo", "build", "--release", "--quiet",
         "--manifest-path", str(REPO / "scripts/cut-size/Cargo.toml")], env=env)
    stubber = target / "release" / "cut-size"

    scratch = Path(tempfile.mkdtemp(prefix="bench-cut-"))
    tree = scratch / "tree"
    run(["git", "worktree", "add", "--quiet", "--detach", str(tree), "HEAD"], cwd=REPO)
    try:
        def build(files, name):
            run(["git", "checkout", "--quiet", "--", "mcp-bridge"], cwd=tree)
            with open(tree / SRC / "lib.rs", "a") as lib:
                lib.write(STUB)
            if files:
                run([str(stubber), *files], cwd=tree / SRC)
            run(["cargo", "build", "--release", "--quiet", "-p", "bench-bins",
                 "--bin", "notes", "--bin", "notes_rmcp"], cwd=tree, env=env)
            release = target / "release"
            return (stripped_size(release / "notes", scratch, name),
                    stripped_size(release / "notes_rmcp", scratch, name + "_rmcp"))

        print("building notes with nothing cut")
        whole, rmcp = build([], "whole")
        print(f"\nstripped `notes`: {whole:,} bytes = {whole / rmcp:.3f}x notes_rmcp "
              f"({rmcp:,} bytes)\n")
        print(f"  {'cut':26} {'bytes':>11} {'the part took':>14} {'x notes_rmcp':>13}")
        for group in groups:
            files = [f for fs in GROUPS.values() for f in fs] if group == ALL else GROUPS[group]
            size, _ = build(files, "cut")
            print(f"  {group:26} {size:>11,} {whole - size:>14,} {size / rmcp:>13.3f}",
                  flush=True)
    finally:
        if opts.keep:
            print(f"\nthe worktree is kept: {tree}")
        else:
            run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO)
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
