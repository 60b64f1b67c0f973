"""What the small client scripts (tool_modes_client.py, ask_client.py,
features_client.py) share: one line per check, the first failure ends
the run, and a summary line `N passed, M failed` that the Rust side
reads."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Awaitable, Callable


class Failed(Exception):
    pass


passed = 0


def ok(cond: Any, what: str, detail: str = "") -> None:
    global passed
    if not cond:
        raise Failed(f"{what}: {detail}")
    passed += 1
    print(f"ok: {what}")


def text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def run(main: Callable[[argparse.Namespace, list[str]], Awaitable[None]], parser: argparse.ArgumentParser) -> None:
    """Parses the arguments before `--` (the server command follows it),
    runs `main(args, server_cmd)` and prints the summary; exits 1 on a
    failed check."""
    import anyio

    argv = sys.argv[1:]
    own, server_cmd = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    args = parser.parse_args(own)
    try:
        anyio.run(main, args, server_cmd)
    except Failed as failure:
        print(f"FAIL: {failure}")
        print(f"{passed} passed, 1 failed")
        sys.exit(1)
    print(f"{passed} passed, 0 failed")
