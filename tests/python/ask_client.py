#!/usr/bin/env python3
"""A handler's question (`Io::confirm`, `mcp_bridge::confirm`) through the
real Python MCP SDK: a client with an elicitation callback answers it; a
client without one gets an error naming the flag to pass.

Usage:
    python ask_client.py [--mode legacy|2026-07-28] [--url URL] [-- <fixture ai serve...>]

Under 2026-07-28 the question comes as an `input_required` result, which
the SDK fulfils with the same callback and calls again.

Each check prints one line; the first failure prints `FAIL: ...` and
exits 1; a clean run ends with `N passed, 0 failed`.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from checks import ok, run, text


async def main(args: argparse.Namespace, server_cmd: list[str]) -> None:
    import anyio
    from mcp import Client, StdioServerParameters, types

    def target() -> Any:
        if args.url is not None:
            return args.url
        return StdioServerParameters(command=server_cmd[0], args=server_cmd[1:], env=dict(os.environ))

    asked: list[Any] = []

    async def answer(context: Any, params: Any) -> Any:
        asked.append(params)
        if "name" in params.message:
            return types.ElicitResult(action="accept", content={"answer": "Ann"})
        return types.ElicitResult(action="accept", content={"confirm": True})

    with anyio.fail_after(60):
        async with Client(target(), mode=args.mode, read_timeout_seconds=30.0, elicitation_callback=answer) as client:
            went = await client.call_tool("fixture_ask", {})
            ok(not went.is_error and text(went) == "went ahead\n", "a confirmation answered yes goes ahead", text(went))
            ok(
                len(asked) == 1 and asked[0].message == "Really go ahead?",
                "the question reached the client's elicitation callback",
                repr(asked),
            )
            schema = asked[0].requested_schema
            ok(
                schema["properties"]["confirm"]["type"] == "boolean" and schema["required"] == ["confirm"],
                "as a form with one boolean",
                repr(schema),
            )
            named = await client.call_tool("fixture_ask", {"name": True})
            ok(not named.is_error and text(named) == "hello Ann\n", "a line of text", text(named))

        async with Client(target(), mode=args.mode, read_timeout_seconds=30.0) as client:
            refused = await client.call_tool("fixture_ask", {})
            ok(
                refused.is_error and "call again with `force: true`" in text(refused),
                "a client that cannot ask gets an error naming the flag",
                text(refused),
            )
            forced = await client.call_tool("fixture_ask", {"force": True})
            ok(not forced.is_error and text(forced) == "went ahead\n", "the flag goes ahead without asking", text(forced))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--mode", default="legacy")
    run(main, parser)
