#!/usr/bin/env python3
"""Drive the taskctl example MCP server with the real Python MCP SDK (mcp==2.3.0).

Usage:
    python taskctl_client.py --db PATH [--protocol-version V] [--timeout S] -- <server command...>
    python taskctl_client.py --db PATH [--protocol-version V] [--timeout S] --url URL

    e.g. python tests/python/taskctl_client.py --db target/py-test/tasks.json \
             -- target/debug/examples/taskctl mcp serve

The server command is started as a subprocess and spoken to over stdio;
with --url, a server already listening there is spoken to over Streamable
HTTP. The
test owns the --db file: it is deleted before the run and inspected after it.

Every check prints one line when it passes. The first failing check prints
`FAIL: ...` and the summary `N passed, 1 failed`, and the script exits 1.
A clean run ends with `N passed, 0 failed` and exit status 0.

--protocol-version picks the version offered in the `initialize` handshake
(2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; default: the SDK's newest
handshake version, 2025-11-25) and checks the server accepts it. The SDK's
own modes are also accepted: `auto` (probe `server/discover`, fall back to
`initialize`) and `2026-07-28` (stateless per-request envelope, no handshake).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import traceback
from typing import Any

if sys.version_info < (3, 11):  # anyio depends on the backport there
    from exceptiongroup import BaseExceptionGroup

EXPECTED_TOOLS = {
    "taskctl_task_add",
    "taskctl_task_list",
    "taskctl_task_done",
    "taskctl_task_remove",
    "taskctl_stats",
    "taskctl_stats_export",
}
FORBIDDEN_TOOLS = {"taskctl_task", "taskctl_purge", "taskctl_task_purge"}

EVIL_TITLE = "--help; rm -rf /"
SECOND_TITLE = "Write the docs"
TEMP_TITLE = "temporary task"



class CheckFailed(Exception):
    pass


def require(cond: Any, what: str, detail: str = "") -> None:
    """A sub-condition of a check: fail the run if false, print nothing if true."""
    if not cond:
        raise CheckFailed(what if not detail else f"{what}\n      {detail}")


class Checker:
    def __init__(self) -> None:
        self.passed = 0
        self.doing = "connecting (initialize)"  # the request in flight, for timeout/crash messages

    def ok(self, cond: Any, what: str, detail: str = "") -> None:
        """Count `what` as passed if cond is truthy, else stop the run."""
        if not cond:
            msg = what if not detail else f"{what}\n      {detail}"
            raise CheckFailed(msg)
        self.passed += 1
        print(f"ok {self.passed:2d} - {what}", flush=True)

    def note(self, text: str) -> None:
        print(f"# {text}", flush=True)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    if "--" not in argv:
        own, server_cmd = argv, []
    else:
        i = argv.index("--")
        own, server_cmd = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser(
        description="Real MCP client test for the taskctl example server.",
        usage="%(prog)s --db PATH [--protocol-version V] [--timeout S] -- <server command...>",
    )
    p.add_argument("--db", required=True, help="task database path passed as `db` on every call (deleted first)")
    p.add_argument(
        "--protocol-version",
        default=None,
        help="protocol version to offer in initialize (or 'auto' / a modern version); default: SDK default",
    )
    p.add_argument("--timeout", type=float, default=60.0, help="overall time limit in seconds (default 60)")
    p.add_argument("--url", default=None, help="talk Streamable HTTP to a server already listening at URL")
    args = p.parse_args(own)
    if not server_cmd and args.url is None:
        p.error("missing server command after `--`, e.g. -- target/debug/examples/taskctl mcp serve")
    return args, server_cmd


# --------------------------------------------------------------------------- helpers


def text_of(result: Any) -> str:
    """All text content blocks of a CallToolResult, joined by newlines."""
    parts = []
    for block in result.content or []:
        if getattr(block, "type", None) == "text":
            parts.append(block.text)
    return "\n".join(parts)


def describe(result: Any) -> str:
    return (
        f"isError={result.is_error} structuredContent={json.dumps(result.structured_content)} text={text_of(result)!r}"
    )


def lines(s: str) -> list[str]:
    return [ln.rstrip() for ln in s.splitlines() if ln.strip()]


def find_tasks(doc: Any) -> list[dict[str, Any]] | None:
    """Find the list of task objects in the db document (top-level or under "tasks")."""

    def is_task_list(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(t, dict) and "title" in t for t in v)

    if is_task_list(doc):
        return doc
    if isinstance(doc, dict):
        if is_task_list(doc.get("tasks")):
            return doc["tasks"]
        for v in doc.values():  # any other key holding the list
            if is_task_list(v) and v:
                return v
    return None


# --------------------------------------------------------------------------- test body


async def run_checks(c: Checker, args: argparse.Namespace, server_cmd: list[str]) -> None:
    import anyio
    from mcp import Client, MCPError, StdioServerParameters

    db = os.path.abspath(args.db)
    pv = args.protocol_version
    mode = "legacy"
    if pv is not None:
        from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

        if pv == "auto" or pv in MODERN_PROTOCOL_VERSIONS:
            mode = pv
        elif pv in HANDSHAKE_PROTOCOL_VERSIONS:
            # Client(mode="legacy") always offers LATEST_HANDSHAKE_VERSION in initialize and
            # exposes no option for it; this module global is the one place the offer is read.
            import mcp.client.session as session_mod

            if not hasattr(session_mod, "LATEST_HANDSHAKE_VERSION"):
                raise CheckFailed("this mcp SDK has no mcp.client.session.LATEST_HANDSHAKE_VERSION to pin")
            session_mod.LATEST_HANDSHAKE_VERSION = pv
        else:
            choices = ["auto", *HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS]
            raise CheckFailed(f"--protocol-version {pv!r} is not one of {choices}")

    # The SDK passes only a minimal environment (HOME, PATH, ...) to the server by default;
    # pass ours through so RUST_LOG, RUST_BACKTRACE, LLVM_PROFILE_FILE etc. reach it.
    # With --url the server is already listening (Streamable HTTP); otherwise the SDK starts it.
    target: Any = args.url
    if target is None:
        target = StdioServerParameters(command=server_cmd[0], args=server_cmd[1:], env=dict(os.environ))
    # cache=None: never serve tools/list from the client-side response cache.
    client = Client(target, mode=mode, read_timeout_seconds=min(30.0, args.timeout), cache=None)

    with anyio.fail_after(args.timeout):
        async with client:
            negotiated = client.protocol_version
            info = client.server_info
            c.note(f"server {info.name if info else '?'} {info.version if info else ''}; protocol {negotiated}")
            if pv is not None and pv != "auto":
                c.ok(negotiated == pv, f"server accepted protocol version {pv}", f"negotiated {negotiated!r}")
            if mode in ("legacy", "auto"):  # a pinned modern version adopts a synthesized, empty result
                caps = client.server_capabilities
                c.ok(caps is not None and caps.tools is not None, "server advertises the tools capability")
            await check_tool_list(c, client)

            async def call(name: str, arguments: dict[str, Any]) -> Any:
                c.doing = f"tools/call {name} {json.dumps(arguments)}"
                try:
                    return await client.call_tool(name, arguments)
                except RuntimeError as e:  # e.g. the SDK's outputSchema validation of structuredContent
                    raise CheckFailed(f"tools/call {name} {json.dumps(arguments)}: SDK rejected the result: {e}") from e
                except MCPError as e:
                    hint = "; did the server exit or crash? (stderr above)" if "closed" in e.message.lower() else ""
                    raise CheckFailed(
                        f"tools/call {name} {json.dumps(arguments)}: unexpected JSON-RPC error {e.code}: {e.message}{hint}"
                    ) from e

            def expect_success(name: str, result: Any, what: str, structured: bool = False) -> str:
                """Require a successful call whose output is sent once, as text (with
                structuredContent only when the tool's handler returns data); return it.

                Prints nothing: the caller finishes the check with c.ok()."""
                require(not result.is_error, what, f"{name} returned isError: {describe(result)}")
                require(
                    (result.structured_content is not None) == structured,
                    what,
                    f"{name}: structuredContent {'missing' if structured else 'not expected'}: {describe(result)}",
                )
                return text_of(result)

            async def add(arguments: dict[str, Any], what: str) -> int:
                """Add a task; check stdout is exactly 'added task #<id>: <title>'; return the id."""
                r = await call("taskctl_task_add", {**arguments, "db": db})
                out = expect_success("taskctl_task_add", r, what)
                m = re.fullmatch(r"added task #(\d+): (.*)", out.strip("\n"))
                c.ok(
                    m is not None and m.group(2) == arguments["title"],
                    f"{what}: prints 'added task #<id>: {arguments['title']}'",
                    f"stdout={out!r}",
                )
                return int(m.group(1))

            async def expect_list(arguments: dict[str, Any], expected: list[str], what: str) -> None:
                r = await call("taskctl_task_list", {**arguments, "db": db})
                out = expect_success("taskctl_task_list", r, what, structured=True)
                require(lines(out) == expected, what, f"expected lines {expected!r}\n      got {lines(out)!r}")
                # The tasks as data (the SDK has checked them against the
                # tool's outputSchema): the listed ids, in the listed order.
                ids = [t.get("id") for t in (r.structured_content or {}).get("tasks", [])]
                shown = [int(re.match(r"#(\d+)", ln).group(1)) for ln in lines(out)]
                c.ok(ids == shown, what, f"structuredContent ids {ids} != listed {shown}")

            # ---- add two tasks (the first title would be a flag and a shell command if not passed as data)
            id1 = await add({"title": EVIL_TITLE, "priority": 5, "tag": ["a", "b"]}, "add p5 task tagged [a, b]")
            id2 = await add({"title": SECOND_TITLE, "estimate": "2h"}, "add task with estimate 2h, default priority")
            c.ok(id1 != id2, f"tasks got distinct ids ({id1}, {id2})")

            line1_todo = f"#{id1} [todo] p5 {EVIL_TITLE} (a, b)"
            line1_done = f"#{id1} [done] p5 {EVIL_TITLE} (a, b)"
            line2 = f"#{id2} [todo] p3 {SECOND_TITLE}"
            await expect_list({}, [line1_todo, line2], "list shows both tasks")

            # ---- add + remove a throwaway task
            id3 = await add({"title": TEMP_TITLE, "status": "doing", "priority": 1}, "add a third task, doing, p1")
            await expect_list({}, [line1_todo, line2, f"#{id3} [doing] p1 {TEMP_TITLE}"], "list shows the doing task")
            r = await call("taskctl_task_remove", {"id": id3, "force": True, "db": db})
            expect_success("taskctl_task_remove", r, f"remove task #{id3} with force")
            c.ok(True, f"remove task #{id3} with force")
            await expect_list({}, [line1_todo, line2], "list after remove shows the two tasks")

            # ---- mark one done
            r = await call("taskctl_task_done", {"ids": [id1], "db": db})
            expect_success("taskctl_task_done", r, f"mark task #{id1} done")
            c.ok(True, f"mark task #{id1} done")
            await expect_list({}, [line2], "list without all hides the done task")
            all_lines = [line1_done, line2]
            await expect_list({"all": True}, all_lines, "list with all=true shows the done task")

            # ---- error cases: each gives isError and the server keeps answering
            async def expect_invalid(name: str, arguments: dict[str, Any], prop: str, what: str) -> None:
                r = await call(name, arguments)
                what = f"{what}: isError, message names {name} and '{prop}'"
                require(r.is_error, what, f"isError is not true: {describe(r)}")
                text = text_of(r)
                require(name in text and prop in text, what, f"text={text!r}")
                require(text.endswith("[exit code 2]"), what, f"the text does not end with the exit code 2: {text!r}")
                c.ok(True, what)
                await expect_list({"all": True}, all_lines, "  then list still answers, db unchanged")

            await expect_invalid("taskctl_task_add", {"title": "x", "bogus": 1, "db": db}, "bogus", "unknown property")
            await expect_invalid(
                "taskctl_task_add", {"title": "x", "priority": "high", "db": db}, "priority", "string for priority"
            )
            await expect_invalid("taskctl_task_add", {"title": "x", "priority": 9, "db": db}, "priority", "priority 9")
            await expect_invalid(
                "taskctl_task_add", {"title": "x", "status": "blocked", "db": db}, "status", "bad status"
            )
            await expect_invalid("taskctl_task_add", {"priority": 2, "db": db}, "title", "missing title")
            await expect_invalid("taskctl_task_done", {"ids": [], "db": db}, "ids", "empty ids")

            r = await call("taskctl_task_done", {"ids": [999], "db": db})
            what = "done with unknown id 999: isError, exit code 1, stderr names 999"
            require(r.is_error, what, f"isError is not true: {describe(r)}")
            require(text_of(r).endswith("[exit code 1]"), what, f"the text does not end with exit code 1: {describe(r)}")
            require("999" in text_of(r), what, f"text content does not mention 999: {describe(r)}")
            c.ok(True, what)
            await expect_list({"all": True}, all_lines, "  then list still answers, db unchanged")

            # ---- unknown tools are JSON-RPC errors, not tool results
            for bad in ("taskctl_nope", "taskctl_purge", "taskctl_task"):
                c.doing = f"tools/call {bad}"
                try:
                    r = await client.call_tool(bad, {"db": db})
                except MCPError as e:
                    c.ok(True, f"call to unknown tool {bad}: JSON-RPC error {e.code} ({e.message})")
                else:
                    raise CheckFailed(
                        f"call to unknown tool {bad} returned a result instead of an error: {describe(r)}"
                    )
            await expect_list({"all": True}, all_lines, "  then list still answers, db unchanged")

    # ---- the db file, read after the server has gone
    c.ok(os.path.isfile(db), f"db file exists at {db}")
    with open(db, encoding="utf-8") as f:
        try:
            doc = json.load(f)
        except json.JSONDecodeError as e:
            raise CheckFailed(f"db file is not valid JSON: {e}") from e
    tasks = find_tasks(doc)
    c.ok(tasks is not None, "db file holds a list of task objects", json.dumps(doc)[:500])
    c.ok(len(tasks) == 2, "db file has exactly 2 tasks", json.dumps(tasks))
    by_title = {t.get("title"): t for t in tasks}
    t1, t2 = by_title.get(EVIL_TITLE), by_title.get(SECOND_TITLE)
    c.ok(t1 is not None and t2 is not None, "db file has both titles verbatim", json.dumps(tasks))
    c.ok(
        t1.get("status") == "done" and t2.get("status") == "todo",
        "db: first task is done, second is todo",
        json.dumps(tasks),
    )
    c.ok(t1.get("id") == id1 and t2.get("id") == id2, "db: ids match the ids reported by add", json.dumps(tasks))
    c.ok(
        t1.get("priority") == 5 and t2.get("priority") == 3 and list(t1.get("tags") or []) == ["a", "b"],
        "db: priorities 5/3 and tags [a, b] stored",
        json.dumps(tasks),
    )


async def check_tool_list(c: Checker, client: Any) -> None:
    c.doing = "tools/list"
    tools = []
    cursor = None
    for _ in range(100):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    by_name = {t.name: t for t in tools}
    names = set(by_name)
    c.ok(len(names) == len(tools), "tools/list has no duplicate names", str(sorted(t.name for t in tools)))
    missing, extra = EXPECTED_TOOLS - names, names - EXPECTED_TOOLS
    c.ok(
        not missing and not extra,
        "tools/list names are exactly the expected set",
        f"missing={sorted(missing)} extra={sorted(extra)}",
    )
    c.ok(
        not (names & FORBIDDEN_TOOLS) and not any("purge" in n for n in names),
        "hidden purge and parent taskctl_task are not tools",
        str(sorted(names)),
    )

    for t in sorted(tools, key=lambda t: t.name):
        returns_data = t.name == "taskctl_task_list"
        what = f"{t.name}: object inputSchema with globals db, verbose, and " + (
            "an outputSchema of its tasks" if returns_data else "no outputSchema (the output is text)"
        )
        schema = t.input_schema
        require(
            isinstance(schema, dict) and schema.get("type") == "object",
            what,
            f"inputSchema is not an object schema: {json.dumps(schema)}",
        )
        props = schema.get("properties", {})
        require(
            props.get("db", {}).get("type") == "string" and props["db"].get("default") == "tasks.json",
            what,
            f"db is not a string defaulting to tasks.json: {json.dumps(props.get('db'))}",
        )
        require(
            props.get("verbose", {}).get("type") == "integer" and props["verbose"].get("minimum") == 0,
            what,
            f"verbose is not an integer with minimum 0: {json.dumps(props.get('verbose'))}",
        )
        if returns_data:
            out = t.output_schema or {}
            require(
                out.get("type") == "object" and out.get("required") == ["tasks"],
                what,
                f"outputSchema: {json.dumps(t.output_schema)}",
            )
        else:
            require(t.output_schema is None, what, f"outputSchema: {json.dumps(t.output_schema)}")
        c.ok(True, what)

    listing = by_name["taskctl_task_list"]
    ann = listing.annotations
    c.ok(
        listing.title == "List tasks"
        and ann is not None
        and ann.read_only_hint is True
        and ann.open_world_hint is False,
        "taskctl_task_list has its title and read-only, closed-world annotations",
        f"title={listing.title!r} annotations={ann!r}",
    )
    removing = by_name["taskctl_task_remove"].annotations
    c.ok(
        removing is not None and removing.destructive_hint is True,
        "taskctl_task_remove is marked destructive",
        repr(removing),
    )

    add = by_name["taskctl_task_add"].input_schema
    p = add.get("properties", {})
    c.ok(
        sorted(add.get("required", [])) == ["title"],
        "taskctl_task_add: required is exactly [title]",
        json.dumps(add.get("required")),
    )
    c.ok(p.get("title", {}).get("type") == "string", "taskctl_task_add: title is a string", json.dumps(p.get("title")))
    pr = p.get("priority", {})
    c.ok(
        pr.get("type") == "integer" and pr.get("minimum") == 1 and pr.get("maximum") == 5 and pr.get("default") == 3,
        "taskctl_task_add: priority is an integer 1..5, default 3",
        json.dumps(pr),
    )
    tag = p.get("tag", {})
    c.ok(
        tag.get("type") == "array" and tag.get("items", {}).get("type") == "string",
        "taskctl_task_add: tag is an array of strings",
        json.dumps(tag),
    )
    c.ok(
        p.get("estimate", {}).get("type") == "string",
        "taskctl_task_add: estimate is a string",
        json.dumps(p.get("estimate")),
    )
    st = p.get("status", {})
    c.ok(
        st.get("type") == "string" and st.get("enum") == ["todo", "doing", "done"] and st.get("default") == "todo",
        "taskctl_task_add: status is enum [todo, doing, done], default todo",
        json.dumps(st),
    )

    lst = by_name["taskctl_task_list"].input_schema
    lp = lst.get("properties", {})
    c.ok(
        not lst.get("required")
        and lp.get("status", {}).get("enum") == ["todo", "doing", "done"]
        and lp.get("tag", {}).get("type") == "string"
        and lp.get("all", {}).get("type") == "boolean",
        "taskctl_task_list: optional status enum, tag string, all boolean",
        json.dumps(lst),
    )
    done = by_name["taskctl_task_done"].input_schema
    ids = done.get("properties", {}).get("ids", {})
    c.ok(
        done.get("required") == ["ids"]
        and ids.get("type") == "array"
        and ids.get("items", {}).get("type") == "integer"
        and ids.get("minItems") == 1,
        "taskctl_task_done: ids is a required integer array, minItems 1",
        json.dumps(done),
    )
    rm = by_name["taskctl_task_remove"].input_schema
    rp = rm.get("properties", {})
    c.ok(
        rm.get("required") == ["id"]
        and rp.get("id", {}).get("type") == "integer"
        and rp.get("force", {}).get("type") == "boolean",
        "taskctl_task_remove: id required integer, force boolean",
        json.dumps(rm),
    )
    ex = by_name["taskctl_stats_export"].input_schema
    c.ok(
        ex.get("required") == ["file"] and ex.get("properties", {}).get("file", {}).get("type") == "string",
        "taskctl_stats_export: file is a required string",
        json.dumps(ex),
    )


def first_check_failure(exc: BaseException) -> BaseException:
    """Unwrap anyio/asyncio exception groups to the most relevant leaf exception."""
    if isinstance(exc, BaseExceptionGroup):
        leaves = [first_check_failure(e) for e in exc.exceptions]
        for leaf in leaves:
            if isinstance(leaf, CheckFailed):
                return leaf
        return leaves[0] if leaves else exc
    return exc


def main(argv: list[str]) -> int:
    args, server_cmd = parse_args(argv)
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        print("FAIL: the mcp SDK is not importable; run scripts/python-venv.sh and use the python it prints")
        print("0 passed, 1 failed")
        return 1

    # The test owns the db file: start from none.
    db = os.path.abspath(args.db)
    try:
        if os.path.lexists(db):
            os.remove(db)
        os.makedirs(os.path.dirname(db), exist_ok=True)
    except OSError as e:
        print(f"FAIL: cannot prepare --db {db}: {e}")
        print("0 passed, 1 failed")
        return 1

    c = Checker()
    try:
        anyio.run(run_checks, c, args, server_cmd)
    except BaseException as e:  # report any failure as a failed check
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        leaf = first_check_failure(e)
        if isinstance(leaf, CheckFailed):
            msg = str(leaf)
        elif isinstance(leaf, OSError) and c.passed == 0:
            msg = f"could not start the server command {server_cmd!r}: {leaf}"
        elif type(leaf).__name__ == "MCPError" and "closed" in str(leaf).lower():
            msg = f"the server closed the connection during {c.doing} ({leaf}); did it exit or crash? (stderr above)"
        elif isinstance(leaf, TimeoutError):
            msg = (
                f"timed out during {c.doing} "
                f"(--timeout {args.timeout}s overall, {min(30.0, args.timeout)}s per request)"
            )
        else:
            msg = f"unexpected {type(leaf).__name__}: {leaf}\n" + "".join(
                traceback.format_exception(type(leaf), leaf, leaf.__traceback__)
            )
        print(f"FAIL: {msg}", flush=True)
        print(f"{c.passed} passed, 1 failed", flush=True)
        return 1
    print(f"{c.passed} passed, 0 failed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
