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
    // Each group carries the hints every one of its commands has (`host
    // drain` changes things, no command reaches beyond the machine), and
    // the root's icon.
    let listed = server.request(90, "tools/list", json!({}));
    assert_eq!(
        listed["tools"][0]["annotations"],
        json!({"openWorldHint": false})
    );
    assert_eq!(listed["tools"][0]["icons"][0]["mimeType"], "image/svg+xml");
    assert!(listed["tools"][1]["icons"][0]["src"]
        .as_str()
        .unwrap()
        .starts_with("data:image/svg+xml;base64,"));
    assert_eq!(
        listed["tools"][1]["annotations"],
        json!({"destructiveHint": false, "idempotentHint": true})
    );

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
    assert!(help.contains(r#"Example: {""#), "{help}");
    assert!(help.contains(r#""name":"api""#), "{help}");
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
            "fl_host_drain",
            "fl_service_list",
            "fl_service_deploy"
        ]
    );
    let tools = server.request(2, "tools/list", json!({}));
    let deploy = &tools["tools"][4]["inputSchema"]["properties"]["limits"];
    assert_eq!(deploy["type"], "object");
    assert_eq!(deploy["properties"]["cpu"]["type"], "integer");
    assert_eq!(deploy["additionalProperties"], false);
}

/// Sends a request and waits for its answer, skipping notifications.
fn answer(server: &mut RawServer, id: i64, method: &str, params: Value) -> Value {
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    loop {
        let message = server.recv();
        if message["id"] == json!(id) {
            return message["result"].clone();
        }
    }
}

fn write_inventory(path: &std::path::Path, hosts: &[(&str, &str)]) {
    let hosts: Vec<Value> = hosts
        .iter()
        .map(|(name, region)| json!({"name": name, "region": region, "cores": 4, "services": []}))
        .collect();
    std::fs::write(path, Value::Array(hosts).to_string()).unwrap();
}

#[test]
fn host_names_and_regions_are_fetched_from_the_inventory() {
    let dir = tempfile::tempdir().unwrap();
    let inventory = dir.path().join("inventory.json");
    write_inventory(&inventory, &[("a-1", "north"), ("b-1", "south")]);

    // `mcp tools` lists the values it fetches.
    let output = Command::new(common::fleet())
        .args(["mcp", "tools", "--flat"])
        .env("FLEET_INVENTORY", &inventory)
        .output()
        .unwrap();
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    let property = |tools: &Value, tool: &str, name: &str| {
        tools
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == tool)
            .unwrap()["inputSchema"]["properties"][name]
            .clone()
    };
    assert_eq!(
        property(&tools, "fl_host_show", "name")["enum"],
        json!(["a-1", "b-1"])
    );
    assert_eq!(
        property(&tools, "fl_host_list", "region")["enum"],
        json!(["north", "south"])
    );

    let mut cmd = Command::new(common::fleet());
    cmd.args(["mcp", "serve"])
        .env("MCP_BRIDGE_LOG", "warn")
        .env("FLEET_INVENTORY", &inventory);
    let mut server = RawServer::spawn(cmd);
    server.initialize();
    // Grouped: the command's definition (`help`) carries the values.
    let help = answer(
        &mut server,
        1,
        "tools/call",
        json!({"name": "fl_host", "arguments": {"command": "show", "help": true}}),
    );
    let (_, schema) = text(&help).split_once("input schema: ").expect("a schema");
    let schema: Value = serde_json::from_str(schema).expect("a schema");
    assert_eq!(
        schema["properties"]["name"]["enum"],
        json!(["a-1", "b-1"]),
        "{schema}"
    );
    let show = |server: &mut RawServer, id, name: &str| {
        answer(
            server,
            id,
            "tools/call",
            json!({"name": "fl_host", "arguments": {"command": "show", "arguments": {"name": name}}}),
        )
    };
    let refused = show(&mut server, 2, "c-1");
    assert_eq!(refused["isError"], true);
    assert!(
        text(&refused).contains("\"c-1\"") && text(&refused).contains("one of \"a-1\", \"b-1\""),
        "{refused}"
    );
    // A host added to the inventory is there at the next call that names
    // it (its values older than a second are fetched again).
    write_inventory(
        &inventory,
        &[("a-1", "north"), ("b-1", "south"), ("c-1", "north")],
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let shown = show(&mut server, 3, "c-1");
    assert_eq!(shown["isError"], false, "{shown}");
    assert_eq!(shown["structuredContent"]["name"], "c-1");
    server.finish();
}

#[test]
fn drain_asks_for_the_name_or_takes_it_as_an_argument() {
    let mut server = fleet(&[]);
    // This client cannot ask its user: the refusal names the argument.
    let asked = server.call(
        1,
        "fl_host",
        json!({"command": "drain", "arguments": {"name": "web-2"}}),
    );
    assert_eq!(asked["isError"], true, "{asked}");
    assert!(
        text(&asked).contains(
            "the MCP client did not declare that it can ask its user (elicitation); to go ahead \
             without the question, call again with `confirm` set to the answer\n[exit code 1]"
        ),
        "{asked}"
    );
    let drained = server.call(
        2,
        "fl_host",
        json!({"command": "drain", "arguments": {"name": "web-2", "confirm": "web-2"}}),
    );
    assert_eq!(
        text(&drained),
        "would drain web-2: web move elsewhere\n",
        "{drained}"
    );
    let wrong = server.call(
        3,
        "fl_host",
        json!({"command": "drain", "arguments": {"name": "web-2", "confirm": "web-1"}}),
    );
    assert_eq!(wrong["isError"], true);
    assert!(text(&wrong).contains("`web-1` is not `web-2`: nothing was drained"));
    server.assert_stdout_pure();

    // In a terminal without one, the same question names the option.
    let output = Command::new(common::fleet())
        .args(["host", "drain", "web-2"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("stdin is not a terminal, so nobody can answer; to go ahead without the question, pass `--confirm <answer>`"));
}
