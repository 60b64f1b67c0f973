#!/usr/bin/env python3
"""Drive taskctl's grouped and search modes, its help resources and its
example prompts, and fleet's values fetched at run time, with the real
Python MCP SDK.

Usage:
    python tool_modes_client.py --mode grouped|search|resources [--url URL] [-- <server command...>]
    python tool_modes_client.py --mode values --inventory FILE [--url URL] [-- <fleet mcp serve --flat...>]

Over stdio the server command is started by the SDK; with --url a server
already listening is spoken to over Streamable HTTP. Each check prints one
line; the first failure prints `FAIL: ...` and exits 1; a clean run ends
with `N passed, 0 failed`.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from checks import ok, run, text


async def grouped(client: Any) -> None:
    tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    ok(names == ["taskctl_task", "taskctl_stats"], "one tool per top-level command", str(names))
    schema = tools[0].input_schema
    ok(schema["properties"]["command"]["enum"] == ["add", "list", "done", "remove"], "commands listed", json.dumps(schema))
    hints = tools[0].annotations
    ok(
        hints is not None and hints.open_world_hint is False and hints.read_only_hint is None,
        "a group's annotations hold for all its commands (none reaches beyond the machine, some write)",
        repr(hints),
    )
    ok(tools[1].title == "Task counts", "a group running its own command has that command's title", repr(tools[1].title))
    added = await client.call_tool("taskctl_task", {"command": "add", "arguments": {"title": "from python"}})
    ok(not added.is_error and text(added) == "added task #1: from python\n", "a command runs through its group", text(added))
    listed = await client.call_tool("taskctl_task", {"command": "ls"})
    ok(not listed.is_error and "from python" in text(listed), "an alias reaches its command", text(listed))
    counts = await client.call_tool("taskctl_stats", {})
    ok(
        not counts.is_error and counts.structured_content == {"todo": 1, "doing": 0, "done": 0},
        "the group's own command runs, its JSON output parsed into structured content",
        f"{counts.structured_content!r} {text(counts)!r}",
    )
    helped = await client.call_tool("taskctl_task", {"command": "done", "help": True})
    ok(not helped.is_error and '"ids"' in text(helped), "help answers with the command's schema", text(helped))
    unknown = await client.call_tool("taskctl_task", {"command": "purge"})
    ok(unknown.is_error and "none of its commands" in text(unknown), "an unknown command is refused, with the choices", text(unknown))


async def search(client: Any) -> None:
    tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    ok(names == ["search_tools", "call_tool"], "two tools listed", str(names))
    hints = tools[0].annotations
    ok(
        hints is not None and hints.read_only_hint is True and hints.open_world_hint is False,
        "search_tools only reads the table",
        repr(hints),
    )
    found = await client.call_tool("search_tools", {"query": "export counts"})
    definitions = json.loads(text(found))
    ok(definitions and definitions[0]["name"] == "taskctl_stats_export", "search finds the tool", text(found))
    ok("inputSchema" in definitions[0], "with its input schema", json.dumps(definitions[0]))
    added = await client.call_tool("call_tool", {"name": "taskctl_task_add", "arguments": {"title": "found"}})
    ok(not added.is_error and text(added) == "added task #1: found\n", "call_tool runs it", text(added))
    bad = await client.call_tool("call_tool", {"name": "taskctl_task_add", "arguments": {}})
    ok(bad.is_error and "title" in text(bad), "its arguments are checked", text(bad))


async def resources(client: Any) -> None:
    listed = (await client.list_resources()).resources
    uris = [str(r.uri) for r in listed]
    ok("help://taskctl_task_add" in uris and len(uris) == 6, "one help resource per tool", str(uris))
    read = await client.read_resource("help://taskctl_task_add")
    text_ = read.contents[0].text
    ok("Usage: taskctl task add" in text_, "a resource is the command's --help", text_[:200])
    prompts = (await client.list_prompts()).prompts
    ok([p.name for p in prompts] == ["taskctl_task_add"], "the tools with examples are prompts", str(prompts))
    got = await client.get_prompt("taskctl_task_add")
    said = got.messages[0].content.text
    ok('"title":"Write the release notes"' in said, "a prompt shows the example calls", said)


def write_inventory(path: str, names: list[str]) -> None:
    hosts = [{"name": name, "region": "north", "cores": 4, "services": []} for name in names]
    with open(path, "w") as f:
        json.dump(hosts, f)


async def values(client: Any, inventory: str, changed: list[Any]) -> None:
    import anyio

    def host_names(tools: Any) -> Any:
        show = next(t for t in tools if t.name == "fl_host_show")
        return show.input_schema["properties"]["name"].get("enum")

    tools = (await client.list_tools()).tools
    ok(host_names(tools) == ["a-1", "b-1"], "a host name is one of the inventory's (enum)", str(host_names(tools)))
    refused = await client.call_tool("fl_host_show", {"name": "c-1"})
    ok(
        refused.is_error and 'one of "a-1", "b-1"' in text(refused),
        "another name is refused, naming the current ones",
        text(refused),
    )
    write_inventory(inventory, ["a-1", "b-1", "c-1"])
    await anyio.sleep(1.1)
    shown = await client.call_tool("fl_host_show", {"name": "c-1"})
    ok(
        not shown.is_error and (shown.structured_content or {}).get("name") == "c-1",
        "a host added to the inventory is taken at the next call naming it",
        text(shown),
    )
    with anyio.fail_after(10):
        while not changed:
            await anyio.sleep(0.05)
    ok(True, "the client is told the tools changed (notifications/tools/list_changed)")
    tools = (await client.list_tools()).tools
    ok(host_names(tools) == ["a-1", "b-1", "c-1"], "the list has the new values", str(host_names(tools)))


async def main(args: argparse.Namespace, server_cmd: list[str]) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    target: Any = args.url
    if target is None:
        target = StdioServerParameters(command=server_cmd[0], args=server_cmd[1:], env=dict(os.environ))
    changed: list[Any] = []

    async def on_message(message: Any) -> None:
        inner = getattr(message, "root", message)
        if type(inner).__name__ == "ToolListChangedNotification":
            changed.append(inner)

    client = Client(target, mode="legacy", read_timeout_seconds=30.0, cache=None, message_handler=on_message)
    with anyio.fail_after(60):
        async with client:
            if args.mode == "values":
                await values(client, args.inventory, changed)
            else:
                await {"grouped": grouped, "search": search, "resources": resources}[args.mode](client)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["grouped", "search", "resources", "values"], required=True)
    parser.add_argument("--url")
    parser.add_argument("--inventory")
    run(main, parser)
