//! Snapshots of what `taskctl` shows MCP clients: the `tools/list` answer
//! and the parameter specs it is generated from.
//!
//! Update with `INSTA_UPDATE=always cargo test -p tests --test schema_snapshots`
//! (or `cargo insta review`), then read the diff: a change here is a change
//! of the public surface every client sees.

use examples::taskctl::{run, Cli};
use mcp_bridge::spec::ToolSpec;
use mcp_bridge::{BridgeServer, Registry};

#[test]
fn taskctl_tools_list() {
    let server = BridgeServer::new::<Cli, _, _>(run).expect("taskctl has no duplicate tool names");
    let tools = serde_json::to_value(server.tools()).expect("tools serialize");
    insta::assert_json_snapshot!("taskctl_tools_list", tools);
}

#[test]
fn taskctl_tool_specs() {
    let registry = Registry::<Cli>::new().expect("taskctl has no duplicate tool names");
    let specs: Vec<&ToolSpec> = registry.tools().collect();
    insta::assert_json_snapshot!("taskctl_tool_specs", specs);
}
