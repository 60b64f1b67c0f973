//! `#[mcp(header = "...")]` (SEP-2243 parameter headers): the schema
//! carries `x-mcp-header`, the registry refuses a header on a property
//! no header can carry or one sent under an inherited argument's header,
//! and over HTTP the server refuses a call whose `Mcp-Param-` header is
//! missing or differs from its argument. (The compile-time rules are in
//! `ui/mcp-header.rs`; the conformance suite's
//! `http-custom-header-server-validation` runs in `conformance.rs`.)

mod common;

use clap::{Parser, Subcommand};
use common::http::{messages, post, spawn};
use mcp_bridge::{McpTool, Registry, RegistryError};
use serde_json::json;

/// Deploy things.
#[derive(Parser, McpTool, Debug)]
#[command(name = "deploy")]
struct Deploy {
    /// The region
    #[arg(long)]
    #[mcp(header = "Region")]
    region: String,
    /// How many replicas
    #[arg(long)]
    #[mcp(header = "Replicas")]
    replicas: Option<u32>,
    /// Whether to wait
    #[arg(long)]
    #[mcp(header = "Wait")]
    wait: bool,
    /// Tags, no header
    #[arg(long)]
    tags: Vec<String>,
}

#[test]
fn the_schema_names_each_header() {
    let registry = Registry::<Deploy>::new().unwrap();
    let tool = registry.tools().next().unwrap();
    let schema = tool.input_schema();
    let properties = &schema["properties"];
    assert_eq!(properties["region"]["x-mcp-header"], "Region");
    assert_eq!(properties["region"]["type"], "string");
    assert_eq!(properties["replicas"]["x-mcp-header"], "Replicas");
    assert_eq!(properties["replicas"]["type"], "integer");
    assert_eq!(properties["wait"]["x-mcp-header"], "Wait");
    assert_eq!(properties["wait"]["type"], "boolean");
    assert!(
        properties["tags"].get("x-mcp-header").is_none(),
        "{schema:?}"
    );
}

/// Scale by a factor.
#[derive(Parser, McpTool, Debug)]
#[command(name = "scale")]
struct Scale {
    /// The factor
    #[arg(long)]
    #[mcp(header = "Factor")]
    factor: f64,
}

#[test]
fn a_header_on_a_number_is_refused() {
    let Err(error) = Registry::<Scale>::new() else {
        panic!("a header on a number is refused");
    };
    assert!(matches!(error, RegistryError::Header { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.starts_with(
            "`#[mcp(header = \"Factor\")]` on the argument `factor` of the command `scale`: an \
             `Mcp-Param-` header carries one string, integer or boolean, and the property's \
             schema is {"
        ),
        "{text}"
    );
}

/// Manage sites.
#[derive(Parser, McpTool, Debug)]
#[command(name = "sites")]
struct Sites {
    /// The tenant
    #[arg(long, global = true)]
    #[mcp(header = "Tenant")]
    tenant: Option<String>,
    #[command(subcommand)]
    command: SiteCommand,
}

#[derive(Subcommand, McpTool, Debug)]
enum SiteCommand {
    /// Show a site
    Show {
        /// Who owns it
        #[arg(long)]
        #[mcp(header = "TENANT")]
        owner: String,
    },
}

#[test]
fn a_header_inherited_from_a_parent_counts_in_each_tool() {
    let Err(error) = Registry::<Sites>::new() else {
        panic!("one header for two properties of a tool is refused");
    };
    assert_eq!(
        error.to_string(),
        "`#[mcp(header = \"Tenant\")]` on the argument `tenant` of the command `sites show`: \
         the tool's property `owner` is sent under that header too (header names ignore \
         case); give each its own name"
    );
}

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance_cli");

/// Over stateless HTTP under 2026-07-28: the header must come with the
/// argument and say the same (Base64 when wrapped as `=?base64?...?=`);
/// rmcp's transport checks it against the listed schema.
#[tokio::test]
async fn over_http_the_header_must_match_the_argument() {
    let mut cmd = tokio::process::Command::new(CONFORMANCE);
    cmd.args(["mcp", "serve", "--http", "127.0.0.1:0", "--stateless"])
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (_server, url) = spawn(cmd).await;
    let call = |region: &str| {
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "test_region_header", "arguments": {"region": region},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }}})
        .to_string()
    };
    let headers = |param: Option<&'static str>| {
        let mut headers = vec![
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "test_region_header"),
        ];
        if let Some(value) = param {
            headers.push(("Mcp-Param-Region", value));
        }
        headers
    };
    let answer = |reply: &common::http::Reply| messages(reply)[0].clone();

    for given in ["eu-west", "=?base64?ZXUtd2VzdA==?="] {
        let reply = post(&url, &headers(Some(given)), call("eu-west")).await;
        assert_eq!(reply.status, 200, "{given}: {reply:?}");
        assert_eq!(
            answer(&reply)["result"]["content"][0]["text"],
            "region: eu-west",
            "{reply:?}"
        );
    }
    for (given, why) in [
        (None, "missing Mcp-Param-Region header"),
        (Some("us-east"), "does not match body value `eu-west`"),
        (Some("=?base64?ZXUtd2VzdA?="), "not valid Base64"),
    ] {
        let reply = post(&url, &headers(given), call("eu-west")).await;
        assert_eq!(reply.status, 400, "{given:?}: {reply:?}");
        let error = answer(&reply);
        assert_eq!(error["id"], 7, "{error}");
        assert_eq!(error["error"]["code"], -32020, "{error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{given:?}: {message}");
    }
}
