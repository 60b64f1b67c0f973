#!/usr/bin/env python3
"""Calls tools of a server with the real Python MCP SDK and prints what each
returned, one JSON line per call: `{"tool", "isError", "text"}`; first a
line `{"tools": [names]}` from `tools/list`.

    python calls_client.py --cwd DIR --calls FILE -- <cli> mcp serve

FILE holds a JSON list of `{"tool": name, "arguments": {...}}`. The server
is started in DIR (the calls' relative paths resolve there), with this
process's whole environment. Used by
scripts/adopt_real.py for the calls of real published CLIs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


async def main(args: argparse.Namespace, server_cmd: list[str]) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    with open(args.calls) as f:
        calls = json.load(f)
    # The whole environment, as the command line the calls are compared
    # with has it (the SDK passes only a few variables by default).
    params = StdioServerParameters(
        command=server_cmd[0], args=server_cmd[1:], cwd=args.cwd, env=dict(os.environ)
    )
    with open(args.log, "w") if args.log else open("/dev/null", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = [t.name for t in (await session.list_tools()).tools]
                print(json.dumps({"tools": tools}), flush=True)
                for call in calls:
                    result = await session.call_tool(call["tool"], call["arguments"])
                    text = "".join(getattr(block, "text", "") for block in result.content)
                    print(
                        json.dumps({"tool": call["tool"], "isError": bool(getattr(result, "is_error", getattr(result, "isError", False))), "text": text}),
                        flush=True,
                    )


if __name__ == "__main__":
    import anyio

    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd", required=True)
    parser.add_argument("--calls", required=True)
    parser.add_argument("--log")
    argv = sys.argv[1:]
    split = argv.index("--")
    anyio.run(main, parser.parse_args(argv[:split]), argv[split + 1 :])
