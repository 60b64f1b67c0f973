//! taskctl in a terminal and under MCP: one handler returns the task list
//! as data; the terminal gets lines, or JSON with `--json`, and a client
//! gets both the lines and the data, without a `json` property to set.

mod common;

use std::process::Command;

use common::raw::RawServer;
use serde_json::{json, Value};

fn run(db: &std::path::Path, args: &[&str]) -> String {
    let output = Command::new(common::taskctl())
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn json_flag_prints_the_returned_value_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.json");
    run(
        &db,
        &["task", "add", "Write", "--priority", "4", "--tag", "docs"],
    );
    assert_eq!(run(&db, &["task", "list"]), "#1 [todo] p4 Write (docs)\n");
    let printed: Value = serde_json::from_str(&run(&db, &["task", "list", "--json"])).unwrap();
    assert_eq!(
        printed,
        json!({"tasks": [{"id": 1, "title": "Write", "priority": 4, "tags": ["docs"], "status": "todo"}]})
    );
    assert!(run(&db, &["task", "list", "--json"]).starts_with("{\n  \"tasks\""));

    let mut cmd = Command::new(common::taskctl());
    cmd.arg("--db").arg(&db).args(["mcp", "serve"]);
    cmd.env("MCP_BRIDGE_LOG", "warn");
    let mut server = RawServer::spawn(cmd);
    server.initialize();
    let tools = server.request(2, "tools/list", json!({}));
    let list = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "taskctl_task_list")
        .unwrap();
    assert!(
        list["inputSchema"]["properties"].get("json").is_none(),
        "{list}"
    );
    let listed = server.call(3, "taskctl_task_list", json!({}));
    assert_eq!(listed["content"][0]["text"], "#1 [todo] p4 Write (docs)\n");
    assert_eq!(listed["structuredContent"], printed);
    let given = server.call(4, "taskctl_task_list", json!({"json": true}));
    assert_eq!(given["isError"], true, "{given}");
    server.assert_stdout_pure();
}
