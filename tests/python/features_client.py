#!/usr/bin/env python3
"""Attribute-driven features as the real Python MCP SDK sees them.

Usage:
    python features_client.py --mode fleet [--url URL] [-- <fleet mcp serve --flat...>]
    python features_client.py --mode fixture [--url URL] [-- <fixture ai serve...>]
    python features_client.py --mode pins [--url URL] [-- <taskctl mcp serve --search --pin ...>]

fleet: a JSON argument (`deploy --limits`, `#[mcp(json)]`), output parsed
into structured content (table, lines, YAML) and a fixed argument
(`host show`'s `format`, `#[mcp(args(format = "yaml"))]`).
fixture (served by its plain handler): icons, a tool name shortened under
`#[mcp(max_name_len = 40)]`, and a table that does not parse, sent as text
alone.
pins (`--search --pin 'taskctl_stats*' --pin taskctl_task_add`): the
pinned tools beside `search_tools` and `call_tool`, called by their names,
and the status values described by their doc comments.

Each check prints one line; the first failure prints `FAIL: ...` and
exits 1; a clean run ends with `N passed, 0 failed`.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from checks import ok, run, text


async def tools_by_name(client: Any) -> dict[str, Any]:
    return {t.name: t for t in (await client.list_tools()).tools}


async def fleet(client: Any) -> None:
    tools = await tools_by_name(client)
    ok(
        list(tools)
        == ["fl_host_list", "fl_host_show", "fl_host_drain", "fl_service_list", "fl_service_deploy"],
        "every fleet command is a tool",
        str(list(tools)),
    )

    # A JSON argument: the type's own schema, an object handed to the handler.
    limits = tools["fl_service_deploy"].input_schema["properties"]["limits"]
    ok(
        limits
        == {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "cpu": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255,
                    "description": "CPU cores",
                },
                "memory": {"type": ["string", "null"], "description": "Memory, e.g. `512Mi` or `2Gi`"},
            },
            "required": ["cpu"],
            "description": "Resources each copy may use, as JSON",
        },
        "limits is an object with the schema of its type",
        json.dumps(limits),
    )
    deployed = await client.call_tool(
        "fl_service_deploy", {"name": "api", "replicas": 3, "limits": {"cpu": 2, "memory": "1Gi"}}
    )
    ok(
        not deployed.is_error and text(deployed) == "would deploy api x3, 2 cores and 1Gi each\n",
        "an object reaches the handler",
        text(deployed),
    )
    for limits, why in [
        ({"cpu": 2, "disk": "1Ti"}, "unknown field `disk`, expected `cpu` or `memory`"),
        ({"memory": "1Gi"}, "missing field `cpu`"),
        ({"cpu": "two"}, 'invalid type: string "two", expected u8'),
    ]:
        refused = await client.call_tool("fl_service_deploy", {"name": "api", "limits": limits})
        shown = json.dumps(limits, separators=(",", ":"))
        expected = (
            "[stderr]\ntool `fl_service_deploy`: property `limits`: expected a JSON value of "
            f"`Limits`, got {shown} ({why})\n[exit code 2]"
        )
        ok(
            refused.is_error and text(refused) == expected,
            f"limits {shown} is refused naming the property",
            text(refused),
        )

    # Output parsed into structured content.
    hosts = await client.call_tool("fl_host_list", {"region": "us-east"})
    ok(
        not hosts.is_error
        and text(hosts) == "NAME    REGION    CORES  SERVICES\nweb-2   us-east   8      web\n"
        and hosts.structured_content
        == {"rows": [{"NAME": "web-2", "REGION": "us-east", "CORES": "8", "SERVICES": "web"}]},
        "a table is parsed into rows",
        f"{hosts.structured_content!r} {text(hosts)!r}",
    )
    services = await client.call_tool("fl_service_list", {})
    ok(
        not services.is_error
        and services.structured_content
        == {"lines": ["api on web-1", "web on web-1", "web on web-2", "postgres on db-1"]},
        "lines are parsed into a list",
        f"{services.structured_content!r}",
    )
    shown = await client.call_tool("fl_host_show", {"name": "db-1"})
    ok(
        not shown.is_error
        and text(shown) == "name: db-1\nregion: eu-west\ncores: 32\nservices:\n  - postgres\n"
        and shown.structured_content == {"name": "db-1", "region": "eu-west", "cores": 32, "services": ["postgres"]},
        "YAML is parsed into an object (the fixed format gives YAML)",
        f"{shown.structured_content!r} {text(shown)!r}",
    )

    # A fixed argument: not offered, and refused when given.
    show = tools["fl_host_show"].input_schema
    ok(
        list(show["properties"]) == ["name"] and show["required"] == ["name"],
        "the fixed `format` is not in the schema",
        json.dumps(show),
    )
    fixed = await client.call_tool("fl_host_show", {"name": "db-1", "format": "text"})
    ok(
        fixed.is_error
        and text(fixed)
        == "[stderr]\ntool `fl_host_show`: property `format` is fixed for this tool "
        '(`#[mcp(args(format = "yaml"))]`); leave it out\n[exit code 2]'
        and fixed.structured_content is None,
        "a call giving the fixed property is refused",
        text(fixed),
    )


ROOT_ICON = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E"
SHOUT_ICON = "https://example.com/icons/shout.png?v=2"
SHORTENED = "newest-key-of-a-service-account_4e0b073d"


async def fixture(client: Any) -> None:
    tools = await tools_by_name(client)
    ok(len(tools) == 29, "the fixture's 29 tools are listed", str(list(tools)))

    icons = {name: [(i.src, i.mime_type) for i in (t.icons or [])] for name, t in tools.items()}
    ok(icons["fixture_shout"] == [(SHOUT_ICON, "image/png")], "a command's own icon", repr(icons["fixture_shout"]))
    others = {name: got for name, got in icons.items() if name != "fixture_shout"}
    ok(
        all(got == [(ROOT_ICON, "image/svg+xml")] for got in others.values()),
        "the root's icon on every other tool",
        repr(others),
    )

    long = [name for name in tools if not name.startswith("fixture_")]
    ok(long == [SHORTENED], "the long name is listed shortened", str(long))
    ok(all(len(name) <= 40 for name in tools), "no name is past 40 bytes", str(list(tools)))
    key = await client.call_tool(SHORTENED, {"account": "ci"})
    ok(not key.is_error and text(key) == "newest key of ci: k-7\n", "the shortened name is called", text(key))

    sizes = await client.call_tool("fixture_sizes", {})
    ok(
        not sizes.is_error
        and sizes.structured_content == {"rows": [{"NAME": "small", "SIZE": "1"}, {"NAME": "large", "SIZE": "300"}]},
        "a table that lines up is parsed",
        f"{sizes.structured_content!r}",
    )
    ragged = await client.call_tool("fixture_sizes", {"ragged": True})
    ok(
        not ragged.is_error
        and ragged.structured_content is None
        and len(ragged.content) == 1
        and text(ragged) == "NAME    SIZE\nsmall   1\nlarge   300\nextra-large 5000\n",
        "a table that does not parse is the text alone",
        f"{ragged.structured_content!r} {text(ragged)!r}",
    )


async def pins(client: Any) -> None:
    tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    ok(
        names == ["search_tools", "call_tool", "taskctl_task_add", "taskctl_stats", "taskctl_stats_export"],
        "the pinned tools are listed after the two, in the CLI's order",
        str(names),
    )
    status = tools[2].input_schema["properties"]["status"]
    ok(
        status["description"]
        == "The status to start in (todo: Not started; doing: In progress; done: Finished)"
        and status["enum"] == ["todo", "doing", "done"],
        "a pinned tool has its full schema, enum values described by their doc comments",
        json.dumps(status),
    )
    added = await client.call_tool("taskctl_task_add", {"title": "pinned"})
    ok(not added.is_error and text(added) == "added task #1: pinned\n", "a pinned tool is called by its name", text(added))
    counts = await client.call_tool("taskctl_stats", {})
    ok(
        not counts.is_error and counts.structured_content == {"todo": 1, "doing": 0, "done": 0},
        "another pinned tool is called by its name",
        f"{counts.structured_content!r} {text(counts)!r}",
    )
    listed = await client.call_tool("call_tool", {"name": "taskctl_task_list", "arguments": {}})
    ok(not listed.is_error and text(listed) == "#1 [todo] p3 pinned\n", "call_tool reaches the others", text(listed))


async def main(args: argparse.Namespace, server_cmd: list[str]) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    target: Any = args.url
    if target is None:
        target = StdioServerParameters(command=server_cmd[0], args=server_cmd[1:], env=dict(os.environ))
    client = Client(target, mode="legacy", read_timeout_seconds=30.0, cache=None)
    with anyio.fail_after(60):
        async with client:
            await {"fleet": fleet, "fixture": fixture, "pins": pins}[args.mode](client)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["fleet", "fixture", "pins"], required=True)
    parser.add_argument("--url")
    run(main, parser)
