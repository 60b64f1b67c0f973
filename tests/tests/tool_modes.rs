//! The grouped and search modes over stdio, as a client sees them: what
//! `tools/list` shows, and every way a call through the made tools reaches
//! a command (aliases, the group's own command, `help`, searches,
//! `call_tool`) or is refused with a message saying what to give.

mod common;

use std::process::Command;

use common::raw::RawServer;
use serde_json::{json, Value};

fn taskctl(db: &std::path::Path, mode: &[&str]) -> RawServer {
    let mut cmd = Command::new(common::taskctl());
    cmd.args(["--db", db.to_str().unwrap(), "mcp", "serve"])
        .args(mode)
        .env("MCP_BRIDGE_LOG", "warn");
    let mut server = RawServer::spawn(cmd);
    server.initialize();
    server
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text")
}

fn listed(server: &mut RawServer) -> Vec<Value> {
    server.request(90, "tools/list", json!({}))["tools"]
        .as_array()
        .expect("tools")
        .clone()
}

#[test]
fn grouped_by_top_level_command() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = taskctl(&dir.path().join("tasks.json"), &["--grouped", "1"]);
    let tools = listed(&mut server);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["taskctl_task", "taskctl_stats"]);
    let task = &tools[0];
    assert_eq!(
        task["inputSchema"]["properties"]["command"]["enum"],
        json!(["add", "list", "done", "remove"])
    );
    let description = task["description"].as_str().unwrap();
    assert!(description.starts_with("taskctl task: "), "{description}");
    assert!(description.contains("\n- list: List tasks, most urgent first"));
    // `stats` runs on its own: `command` may be left out.
    let stats = &tools[1];
    assert_eq!(
        stats["inputSchema"]["properties"]["command"]["enum"],
        json!(["export", null])
    );
    assert!(stats["inputSchema"].get("required").is_none());
    // A group says what holds for every command it runs: `remove` destroys
    // and `add` is not idempotent, but none of them reaches beyond the
    // machine; `stats` runs its own command (and its title).
    assert_eq!(task["annotations"], json!({"openWorldHint": false}));
    assert!(task.get("title").is_none(), "{task}");
    assert_eq!(stats["title"], "Task counts");

    // A call reaches the command, with the same build as the flat tool.
    let added = server.call(
        1,
        "taskctl_task",
        json!({"command": "add", "arguments": {"title": "grouped", "priority": 2}}),
    );
    assert_eq!(text(&added), "added task #1: grouped\n", "{added}");
    // An alias as clap takes it, and the group's name in front.
    let listed = server.call(2, "taskctl_task", json!({"command": "task ls"}));
    assert!(text(&listed).contains("grouped"), "{listed}");
    let counts = server.call(3, "taskctl_stats", json!({}));
    assert_eq!(counts["isError"], false, "{counts}");
    // `help`: the command's own definition, nothing run.
    let help = server.call(4, "taskctl_task", json!({"command": "add", "help": true}));
    let help = text(&help);
    assert!(help.starts_with("taskctl task add: Add a task."), "{help}");
    assert!(help.contains(r#""title":{"#), "{help}");
    // The flat tool's refusal, naming the argument.
    let refused = server.call(
        5,
        "taskctl_task",
        json!({"command": "add", "arguments": {"title": "x", "priority": "high"}}),
    );
    assert_eq!(refused["isError"], true);
    assert!(text(&refused).contains("priority"), "{refused}");
    // Refusals of the group's own input say what to give.
    let unknown = server.call(6, "taskctl_task", json!({"command": "purge"}));
    assert_eq!(unknown["isError"], true);
    assert_eq!(
        text(&unknown),
        "tool `taskctl_task`: `command` is `purge`, which is none of its commands: `add`, \
         `list`, `done`, `remove`"
    );
    let missing = server.call(7, "taskctl_task", json!({}));
    assert!(text(&missing).contains("needs `command`"), "{missing}");
    let extra = server.call(8, "taskctl_task", json!({"command": "list", "title": "x"}));
    assert!(
        text(&extra).contains("has no property `title`: it takes `command`, `arguments`, `help`"),
        "{extra}"
    );
    let not_object = server.call(
        9,
        "taskctl_task",
        json!({"command": "add", "arguments": "x"}),
    );
    assert!(
        text(&not_object).contains("`arguments` must be an object"),
        "{not_object}"
    );
    // A flat tool's own name is still served.
    let flat = server.call(10, "taskctl_task_list", json!({}));
    assert!(text(&flat).contains("grouped"), "{flat}");
    server.assert_stdout_pure();
}

#[test]
fn grouped_whole_cli() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = taskctl(&dir.path().join("tasks.json"), &["--grouped"]);
    let tools = listed(&mut server);
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "taskctl");
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["command"]["enum"],
        json!([
            "task add",
            "task list",
            "task done",
            "task remove",
            "stats",
            "stats export"
        ])
    );
    let added = server.call(
        1,
        "taskctl",
        json!({"command": "task  add", "arguments": {"title": "whole"}}),
    );
    assert_eq!(text(&added), "added task #1: whole\n", "{added}");
    let listed = server.call(2, "taskctl", json!({"command": "task ls"}));
    assert!(text(&listed).contains("whole"), "{listed}");
}

#[test]
fn search_and_call() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = taskctl(
        &dir.path().join("tasks.json"),
        &["--search", "--pin", "taskctl_task_list"],
    );
    let tools = listed(&mut server);
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search_tools", "call_tool", "taskctl_task_list"]);
    // Searching reads the table only; `call_tool` may run any command,
    // and `stats export` says nothing of itself.
    assert_eq!(
        tools[0]["annotations"],
        json!({"readOnlyHint": true, "openWorldHint": false})
    );
    assert!(tools[1].get("annotations").is_none(), "{}", tools[1]);
    assert_eq!(tools[2]["title"], "List tasks");

    let found = server.call(
        1,
        "search_tools",
        json!({"query": "add a task", "limit": 2}),
    );
    let found: Vec<Value> = serde_json::from_str(text(&found)).expect("JSON definitions");
    assert_eq!(found.len(), 2);
    assert_eq!(found[0]["name"], "taskctl_task_add");
    assert!(found[0]["inputSchema"]["properties"]["title"].is_object());
    let added = server.call(
        2,
        "call_tool",
        json!({"name": "taskctl_task_add", "arguments": {"title": "searched"}}),
    );
    assert_eq!(text(&added), "added task #1: searched\n", "{added}");
    let pinned = server.call(3, "taskctl_task_list", json!({}));
    assert!(text(&pinned).contains("searched"), "{pinned}");

    let none = server.call(4, "search_tools", json!({"query": "zebra"}));
    assert_eq!(none["isError"], false);
    assert_eq!(
        text(&none),
        "No tool matches `zebra`. The commands are: task, stats. Search for one of them, or \
         for other words of what you want to do."
    );
    let empty = server.call(5, "search_tools", json!({"query": "  "}));
    assert_eq!(empty["isError"], true);
    let limit = server.call(6, "search_tools", json!({"query": "task", "limit": 0}));
    assert!(text(&limit).contains("`limit` must be an integer from 1 to 20, not `0`"));
    let unknown = server.call(7, "call_tool", json!({"name": "taskctl_purge"}));
    assert_eq!(
        text(&unknown),
        "tool `call_tool`: there is no tool named `taskctl_purge`; `search_tools` finds the \
         tools and their exact names"
    );
    let bad = server.call(
        8,
        "call_tool",
        json!({"name": "taskctl_task_add", "arguments": {"title": 3}}),
    );
    assert_eq!(bad["isError"], true);
    assert!(text(&bad).contains("title"), "{bad}");
    server.assert_stdout_pure();
}

#[test]
fn a_pattern_that_pins_nothing_is_refused_at_start() {
    let out = Command::new(common::taskctl())
        .args(["mcp", "serve", "--search", "--pin", "nothing*"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--pin nothing*: no tool has a name that matches"));
}
