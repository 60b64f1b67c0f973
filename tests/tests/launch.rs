//! How the operator launches the server: root options pinned for every
//! call (before the bridge's name, or after `mcp serve --`), `--cwd`,
//! `--include`/`--exclude`, the bridge in the CLI's `--help`, the line
//! printed when started by hand on a terminal, and the answer to a request
//! sent before `initialize`.

mod common;

use std::process::Command;

use common::raw::RawServer;
use serde_json::{json, Value};

fn taskctl(args: &[&str]) -> Command {
    let mut cmd = Command::new(common::taskctl());
    cmd.args(args).env("MCP_BRIDGE_LOG", "warn");
    cmd
}

fn properties(server: &mut RawServer, tool: &str) -> Vec<String> {
    let tools = server.request(90, "tools/list", json!({}));
    let tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .unwrap_or_else(|| panic!("no {tool}: {tools}"));
    let mut names: Vec<String> = tool["inputSchema"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    names.sort();
    names
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text")
}

/// Pinned `--db`: gone from every schema, refused in a call, used by
/// every call.
fn check_pinned_db(mut server: RawServer, db: &std::path::Path) {
    server.initialize();
    assert_eq!(
        properties(&mut server, "taskctl_task_add"),
        ["estimate", "priority", "status", "tag", "title", "verbose"]
    );
    let added = server.call(1, "taskctl_task_add", json!({"title": "pinned"}));
    assert_eq!(text(&added), "added task #1: pinned\n");
    let stored: Value = serde_json::from_slice(&std::fs::read(db).unwrap()).unwrap();
    assert_eq!(stored["tasks"][0]["title"], "pinned");
    let refused = server.call(
        2,
        "taskctl_task_add",
        json!({"title": "x", "db": "/tmp/elsewhere.json"}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        text(&refused)
            .contains("property `db` is fixed by the server (`--db` was given when it started)"),
        "{refused}"
    );
    server.finish();
}

#[test]
fn root_options_before_the_bridge_are_pinned_for_every_call() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pinned.json");
    let server = RawServer::spawn(taskctl(&["--db", db.to_str().unwrap(), "mcp", "serve"]));
    check_pinned_db(server, &db);
}

#[test]
fn root_options_after_a_double_dash_are_pinned_too() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("after.json");
    let server = RawServer::spawn(taskctl(&[
        "mcp",
        "serve",
        "--",
        "--db",
        db.to_str().unwrap(),
    ]));
    check_pinned_db(server, &db);
}

#[test]
fn a_command_after_the_double_dash_is_refused_with_the_reason() {
    let output = taskctl(&["mcp", "serve", "--", "task", "add"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the root command's options") && stderr.contains("`task` is a command"),
        "{stderr}"
    );
    let output = taskctl(&["mcp", "serve", "--", "--no-such-option"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--no-such-option"), "{stderr}");
}

#[test]
fn include_and_exclude_select_tools_and_cwd_sets_where_defaults_land() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = RawServer::spawn(taskctl(&[
        "mcp",
        "serve",
        "--include",
        "taskctl_task_*",
        "--exclude",
        "*_remove",
        "--cwd",
        dir.path().to_str().unwrap(),
    ]));
    server.initialize();
    assert_eq!(
        server.tools_list(1),
        ["taskctl_task_add", "taskctl_task_list", "taskctl_task_done"]
    );
    let refused = server.exchange(
        2,
        "tools/call",
        json!({"name": "taskctl_stats", "arguments": {}}),
    );
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("taskctl_stats"));
    // The default `tasks.json` lands in --cwd.
    server.call(3, "taskctl_task_add", json!({"title": "here"}));
    assert!(dir.path().join("tasks.json").exists());
    server.finish();

    let output = taskctl(&["mcp", "serve", "--include", "nothing*"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("leave no tool to serve"));
}

#[test]
fn the_bridge_is_in_the_clis_help() {
    let output = taskctl(&["--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(
        help.contains("mcp    Serve this CLI to AI assistants over the Model Context Protocol"),
        "{help}"
    );
    // And the CLI is otherwise as it was.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("x.json");
    let output = taskctl(&["--db", db.to_str().unwrap(), "stats"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "todo: 0, doing: 0, done: 0\n"
    );
    let output = taskctl(&["bogus"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unrecognized subcommand 'bogus'"));
}

#[test]
fn a_request_before_initialize_is_told_to_send_initialize_first() {
    let mut server = RawServer::spawn(taskctl(&["mcp", "serve"]));
    let early = server.exchange(1, "tools/list", json!({}));
    assert_eq!(early["error"]["code"], -32600, "{early}");
    assert!(
        early["error"]["message"]
            .as_str()
            .unwrap()
            .contains("send initialize first"),
        "{early}"
    );
    // ping is allowed, and the session then starts as usual.
    assert_eq!(server.exchange(2, "ping", json!({}))["result"], json!({}));
    server.initialize();
    assert_eq!(server.tools_list(3).len(), 6);
    server.finish();
}

#[cfg(unix)]
#[test]
fn started_by_hand_on_a_terminal_it_says_what_it_is() {
    use std::io::Read;
    use std::os::fd::OwnedFd;
    use std::process::Stdio;

    let master =
        rustix::pty::openpt(rustix::pty::OpenptFlags::RDWR | rustix::pty::OpenptFlags::NOCTTY)
            .expect("a pseudo-terminal");
    rustix::pty::grantpt(&master).unwrap();
    rustix::pty::unlockpt(&master).unwrap();
    let name = rustix::pty::ptsname(&master, Vec::new()).unwrap();
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let mut child = taskctl(&["mcp", "serve"])
        .stdin(Stdio::from(OwnedFd::from(terminal)))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while stderr.read(&mut byte).unwrap_or(0) == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    let _ = child.kill();
    let _ = child.wait();
    drop(master);
    let line = String::from_utf8_lossy(&first);
    assert!(
        line.contains("mcp serve speaks MCP (JSON-RPC, one message per line) on stdin and stdout")
            && line.contains("npx @modelcontextprotocol/inspector"),
        "{line}"
    );
}
