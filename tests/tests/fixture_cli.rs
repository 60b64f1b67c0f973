//! The stdout guard, panics and the `mcp` name clash, on a CLI made to
//! misbehave (`tests/src/bin/fixture_cli.rs`).

mod common;

use std::process::Command;

use common::raw::RawServer;
use serde_json::{json, Value};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_cli");

/// A raw JSON-RPC session with the fixture, initialized.
struct Session;

impl Session {
    fn start(bridge_name: &str) -> RawServer {
        Self::start_with(bridge_name, false)
    }

    fn start_with(bridge_name: &str, offload: bool) -> RawServer {
        let mut command = Command::new(FIXTURE);
        if offload {
            command.env("FIXTURE_OFFLOAD", "1");
        }
        command
            .args([bridge_name, "serve"])
            .env("FIXTURE_BRIDGE_NAME", bridge_name);
        let mut session = RawServer::spawn(command);
        let init = session.initialize();
        assert_eq!(init["serverInfo"]["name"], "fixture");
        session
    }
}

#[test]
fn stray_println_goes_to_stderr_not_into_the_protocol() {
    let mut session = Session::start("ai");
    let result = session.call(2, "fixture_shout", json!({"text": "hello"}));
    assert_eq!(result["isError"], false);
    assert_eq!(result["structuredContent"]["stdout"], "shouted hello\n");
    // The next answer must still be clean JSON on stdout.
    let listed = session.exchange(3, "tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array());
    let stderr = session.finish();
    assert!(
        stderr.contains("stray println: hello"),
        "stderr was:\n{stderr}"
    );
}

#[test]
fn a_panicking_command_is_an_error_result_and_the_server_goes_on() {
    let mut session = Session::start("ai");
    let result = session.call(2, "fixture_crash", json!({}));
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["exitCode"], 101);
    let stderr = result["structuredContent"]["stderr"].as_str().unwrap();
    assert!(stderr.contains("deliberate crash"), "{stderr}");
    let result = session.call(3, "fixture_shout", json!({"text": "still here"}));
    assert_eq!(
        result["structuredContent"]["stdout"],
        "shouted still here\n"
    );
    session.finish();
}

#[test]
fn renamed_bridge_serves_the_clis_own_mcp_command_as_a_tool() {
    let mut session = Session::start("ai");
    let listed = session.exchange(2, "tools/list", json!({}));
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["fixture_shout", "fixture_mcp", "fixture_crash"]);
    let result = session.call(3, "fixture_mcp", json!({}));
    assert_eq!(
        result["structuredContent"]["stdout"],
        "the CLI's own mcp command\n"
    );
    session.finish();
}

#[test]
fn the_clis_own_mcp_command_wins_over_the_default_bridge_name() {
    let output = Command::new(FIXTURE).arg("mcp").output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "the CLI's own mcp command\n"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("Bridge::command_name"), "{stderr}");
}

#[test]
fn cli_mode_is_unchanged() {
    let output = Command::new(FIXTURE)
        .args(["shout", "--", "-rf"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "stray println: -rf\nshouted -rf\n"
    );
    let output = Command::new(FIXTURE).arg("nope").output().unwrap();
    assert_eq!(output.status.code(), Some(2), "clap's usage error code");
    let output = Command::new(FIXTURE).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(
        help.contains("A CLI for testing the bridge") && !help.contains("Model Context Protocol")
    );
}

#[test]
fn tools_command_writes_the_definitions_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tools.json");
    let status = Command::new(FIXTURE)
        .args(["mcp", "tools", "--output"])
        .arg(&path)
        .env("FIXTURE_BRIDGE_NAME", "mcp-bridge")
        .status()
        .unwrap();
    // With the default name `mcp` taken by the CLI, the bridge is renamed here.
    assert!(
        !status.success(),
        "`mcp tools` reaches the CLI's own `mcp` command, which takes no argument"
    );
    let status = Command::new(FIXTURE)
        .args(["ai", "tools", "--output"])
        .arg(&path)
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .status()
        .unwrap();
    assert!(status.success());
    let tools: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 3);
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["text"]));
}

#[test]
fn offloaded_calls_behave_like_inline_ones() {
    let mut session = Session::start_with("ai", true);
    let result = session.call(2, "fixture_shout", json!({"text": "away"}));
    assert_eq!(result["structuredContent"]["stdout"], "shouted away\n");
    let result = session.call(3, "fixture_crash", json!({}));
    assert_eq!(result["structuredContent"]["exitCode"], 101);
    let stderr = session.finish();
    assert!(stderr.contains("stray println: away"), "{stderr}");
}
