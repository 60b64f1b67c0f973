//! A handler's question where no client can be asked: the direct call
//! (`BridgeServer::call`) refuses it (with the reason and the flag, on the
//! handler's stderr) and never reads the terminal. Questions through clients are tested in
//! `fixture_cli.rs`, `rmcp_client.rs` and the Python clients.

use mcp_bridge::BridgeServer;
use serde_json::json;

#[test]
fn a_direct_call_refuses_a_question_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.json");
    let db = db.to_str().unwrap();
    let server = BridgeServer::new(examples::taskctl::run).unwrap();
    let arguments = |value: serde_json::Value| value.as_object().cloned().unwrap();
    let added = server
        .call(
            "taskctl_task_add",
            arguments(json!({"db": db, "title": "keep"})),
        )
        .unwrap();
    assert_eq!(added.exit_code, 0, "{added:?}");
    let refused = server
        .call("taskctl_task_remove", arguments(json!({"db": db, "id": 1})))
        .unwrap();
    // taskctl prints with `eprintln!` (not captured by a direct call): the
    // refusal is its exit code, at once, and the task is still there.
    assert_eq!(refused.exit_code, 1);
    let file = std::fs::read_to_string(db).unwrap();
    assert!(file.contains("\"keep\""), "{file}");
    let forced = server
        .call(
            "taskctl_task_remove",
            arguments(json!({"db": db, "id": 1, "force": true})),
        )
        .unwrap();
    assert_eq!(forced.exit_code, 0, "{forced:?}");
}
