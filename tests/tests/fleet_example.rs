//! The `fleet` example as a client sees it: grouped by default, a shorter
//! prefix, a table and a YAML document parsed into structured content, a
//! fixed `--format`, and a JSON argument with its type's schema.

mod common;

use std::process::Command;

use common::raw::RawServer;
use serde_json::{json, Value};

fn fleet(extra: &[&str]) -> RawServer {
    let mut cmd = Command::new(common::fleet());
    cmd.args(["mcp", "serve"])
        .args(extra)
        .env("MCP_BRIDGE_LOG", "warn");
    let mut server = RawServer::spawn(cmd);
    server.initialize();
    server
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text")
}

#[test]
fn grouped_with_structured_output() {
    let mut server = fleet(&[]);
    assert_eq!(server.tools_list(1), ["fl_host", "fl_service"]);

    let hosts = server.call(
        2,
        "fl_host",
        json!({"command": "list", "arguments": {"region": "eu-west"}}),
    );
    assert_eq!(hosts["isError"], false, "{hosts}");
    assert_eq!(
        hosts["structuredContent"],
        json!({"rows": [
            {"NAME": "web-1", "REGION": "eu-west", "CORES": "8", "SERVICES": "api,web"},
            {"NAME": "db-1", "REGION": "eu-west", "CORES": "32", "SERVICES": "postgres"},
        ]})
    );
    let show = server.call(
        3,
        "fl_host",
        json!({"command": "show", "arguments": {"name": "db-1"}}),
    );
    assert_eq!(
        show["structuredContent"],
        json!({"name": "db-1", "region": "eu-west", "cores": 32, "services": ["postgres"]})
    );
    let fixed = server.call(
        4,
        "fl_host",
        json!({"command": "show", "arguments": {"name": "db-1", "format": "text"}}),
    );
    assert_eq!(fixed["isError"], true);
    assert!(
        text(&fixed).contains("property `format` is fixed for this tool"),
        "{fixed}"
    );
    // A failed call is not parsed.
    let missing = server.call(
        5,
        "fl_host",
        json!({"command": "show", "arguments": {"name": "x"}}),
    );
    assert_eq!(missing["isError"], true);
    assert!(missing.get("structuredContent").is_none(), "{missing}");

    let services = server.call(6, "fl_service", json!({"command": "ls"}));
    assert_eq!(services["structuredContent"]["lines"][0], "api on web-1");
    let deployed = server.call(
        7,
        "fl_service",
        json!({"command": "deploy", "arguments": {"name": "api", "replicas": 3, "limits": {"cpu": 2, "memory": "1Gi"}}}),
    );
    assert_eq!(
        text(&deployed),
        "would deploy api x3, 2 cores and 1Gi each\n"
    );
    let refused = server.call(
        8,
        "fl_service",
        json!({"command": "deploy", "arguments": {"name": "api", "limits": {"cpu": 2, "disk": "1Ti"}}}),
    );
    assert_eq!(refused["isError"], true);
    assert!(text(&refused).contains("`limits`"), "{refused}");
    assert!(text(&refused).contains("unknown field `disk`"), "{refused}");
    // The deploy command's definition, with its JSON argument's schema.
    let help = server.call(9, "fl_service", json!({"command": "deploy", "help": true}));
    let help = text(&help);
    assert!(help.contains(r#""limits":{"#), "{help}");
    assert!(help.contains(r#""memory":{"#), "{help}");
    assert!(help.contains(r#"Example: {"name":"api""#), "{help}");
    server.assert_stdout_pure();
}

#[test]
fn flat_on_request() {
    let mut server = fleet(&["--flat"]);
    assert_eq!(
        server.tools_list(1),
        [
            "fl_host_list",
            "fl_host_show",
            "fl_service_list",
            "fl_service_deploy"
        ]
    );
    let tools = server.request(2, "tools/list", json!({}));
    let deploy = &tools["tools"][3]["inputSchema"]["properties"]["limits"];
    assert_eq!(deploy["type"], "object");
    assert_eq!(deploy["properties"]["cpu"]["type"], "integer");
    assert_eq!(deploy["additionalProperties"], false);
}
