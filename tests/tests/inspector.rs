//! Real-client test: the MCP Inspector CLI (pinned in
//! `scripts/node-tools.sh`) lists and calls `taskctl`'s tools over stdio and
//! over Streamable HTTP.
//!
//! `scripts/test-all.sh` installs it and sets `MCP_BRIDGE_NODE_TOOLS`.
//! Without it the test is skipped locally, but fails under CI. The
//! Inspector exits 0 even when a call is an error, so its JSON is checked.

mod common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn inspector() -> Option<PathBuf> {
    let entry = common::node_tools()?
        .join("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
    assert!(entry.exists(), "no Inspector CLI at {}", entry.display());
    Some(entry)
}

/// Runs the Inspector against `target` (a URL, or a command and its
/// arguments) with `args`, and returns the JSON it prints.
fn run(entry: &PathBuf, target: &[&str], args: &[&str]) -> Value {
    // Run from inside node_modules, where the CLI finds its dependencies.
    let node_modules = entry
        .ancestors()
        .find(|p| p.ends_with("node_modules"))
        .expect("the entry is under node_modules");
    let output = Command::new("node")
        .arg(entry)
        .args(target)
        .args(args)
        .current_dir(node_modules)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the Inspector failed ({:?}):\n{stdout}\n--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// The same checks over either transport.
fn check(entry: &PathBuf, target: &[&str], db: &str) {
    let listed = run(entry, target, &["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "taskctl_task_add",
            "taskctl_task_list",
            "taskctl_task_done",
            "taskctl_task_remove",
            "taskctl_stats",
            "taskctl_stats_export"
        ]
    );
    // `task add` with this title and priority, into `db`.
    let add = |title: &str, priority: &str| {
        let args = [
            format!("db={db}"),
            format!("title={title}"),
            format!("priority={priority}"),
        ];
        let mut call = vec!["--method", "tools/call", "--tool-name", "taskctl_task_add"];
        for arg in &args {
            call.extend(["--tool-arg", arg.as_str()]);
        }
        run(entry, target, &call)
    };
    let added = add("from the inspector", "5");
    assert_eq!(added["isError"], false, "{added}");
    assert_eq!(
        added["content"][0]["text"],
        "added task #1: from the inspector\n"
    );
    // A bad value: a tool error naming the property, not a crash.
    let refused = add("x", "9");
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("`priority`"), "{text}");
}

#[test]
fn the_inspector_lists_and_calls_over_stdio() {
    let Some(entry) = inspector() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("stdio.json");
    let taskctl = common::taskctl().to_str().unwrap().to_owned();
    check(&entry, &[&taskctl, "mcp", "serve"], db.to_str().unwrap());
}

#[test]
fn the_inspector_lists_and_calls_over_http() {
    let Some(entry) = inspector() else { return };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("http.json");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut cmd = tokio::process::Command::new(common::taskctl());
    cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (_server, url) = runtime.block_on(common::http::spawn(cmd));
    check(&entry, &[&url, "--transport", "http"], db.to_str().unwrap());
}
