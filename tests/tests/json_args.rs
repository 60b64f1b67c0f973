//! `#[mcp(json)]`: an argument the CLI reads as JSON text is offered as a
//! JSON value with its type's schema, and received as one. clap, parsing
//! the same JSON as text, is the oracle.

use clap::Parser;
use mcp_bridge::{CallError, McpTool, Registry};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
struct Limits {
    /// Cores
    cpu: u32,
    /// Memory, e.g. `512Mi`
    memory: Option<String>,
    /// Where it may run
    #[serde(default)]
    zones: Vec<Zone>,
}

#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Zone {
    North,
    South,
}

fn parse_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Deploys a service.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "deploy")]
struct Deploy {
    /// The service
    service: String,
    /// Resource limits, as JSON
    #[arg(long, value_parser = parse_json::<Limits>)]
    #[mcp(json)]
    limits: Limits,
    /// Labels, as a JSON object
    #[arg(long, value_parser = parse_json::<std::collections::BTreeMap<String, String>>)]
    #[mcp(json)]
    labels: Option<std::collections::BTreeMap<String, String>>,
    /// Health checks, each a JSON object
    #[arg(long = "check", value_parser = parse_json::<Check>)]
    #[mcp(json)]
    checks: Vec<Check>,
    /// Retry policy
    #[arg(long, value_parser = parse_json::<Retry>, default_value = r#"{"times": 3}"#)]
    #[mcp(json)]
    retry: Retry,
    /// The rollout order, a tree of stages
    #[arg(long, value_parser = parse_json::<Stage>)]
    #[mcp(json)]
    stages: Vec<Stage>,
    /// A plan holding stages
    #[arg(long, value_parser = parse_json::<Plan>)]
    #[mcp(json)]
    plan: Option<Plan>,
}

/// A type around a recursive one: schemars keeps that one in `$defs`.
#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
struct Plan {
    first: Stage,
}

/// A recursive type: its schema refers to itself.
#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
struct Stage {
    name: String,
    #[serde(default)]
    then: Vec<Stage>,
}

#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
struct Check {
    path: String,
    port: u16,
}

#[derive(Deserialize, JsonSchema, Debug, Clone, PartialEq)]
struct Retry {
    times: u8,
}

fn schema() -> Value {
    let registry = Registry::<Deploy>::new().unwrap();
    Value::Object(registry.tool("deploy").unwrap().input_schema())
}

#[test]
fn the_schema_is_the_types() {
    let schema = schema();
    let limits = &schema["properties"]["limits"];
    assert_eq!(limits["type"], "object");
    assert_eq!(limits["description"], "Resource limits, as JSON");
    assert_eq!(limits["properties"]["cpu"]["type"], "integer");
    assert_eq!(limits["properties"]["cpu"]["description"], "Cores");
    // Subschemas inlined: the property stands alone in the tool's schema.
    assert_eq!(
        limits["properties"]["zones"]["items"]["enum"],
        json!(["north", "south"])
    );
    // Only the recursive type refers to parts of itself, and from where it
    // sits in the tool's schema.
    let text = schema.to_string();
    assert!(
        text.contains(r##""$ref":"#/properties/stages/items""##),
        "{schema}"
    );
    assert!(
        text.contains(r##""$ref":"#/properties/plan/$defs/Stage""##),
        "{schema}"
    );
    assert_eq!(limits["additionalProperties"], false);
    assert_eq!(schema["properties"]["check"]["type"], "array");
    assert_eq!(
        schema["properties"]["check"]["items"]["required"],
        json!(["path", "port"])
    );
    assert_eq!(schema["properties"]["labels"]["type"], "object");
    assert_eq!(
        schema["properties"]["retry"]["default"],
        json!({"times": 3})
    );
    assert_eq!(schema["required"], json!(["service", "limits"]));
}

/// The call and the command line clap parses give one value.
fn agree(arguments: Value, argv: &[&str]) {
    let registry = Registry::<Deploy>::new().unwrap();
    let ours = registry
        .build("deploy", arguments.as_object().unwrap())
        .unwrap_or_else(|e| panic!("{arguments}: {e}"));
    let mut line = vec!["deploy"];
    line.extend_from_slice(argv);
    let theirs = Deploy::try_parse_from(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(ours, theirs, "{arguments} against {line:?}");
}

#[test]
fn calls_agree_with_clap() {
    agree(
        json!({"service": "web", "limits": {"cpu": 2}}),
        &["web", "--limits", r#"{"cpu": 2}"#],
    );
    agree(
        json!({
            "service": "web",
            "limits": {"cpu": 1, "memory": "512Mi", "zones": ["north"]},
            "labels": {"team": "infra"},
            "check": [{"path": "/up", "port": 80}, {"path": "/ready", "port": 81}],
            "retry": {"times": 5},
        }),
        &[
            "web",
            "--limits",
            r#"{"cpu": 1, "memory": "512Mi", "zones": ["north"]}"#,
            "--labels",
            r#"{"team": "infra"}"#,
            "--check",
            r#"{"path": "/up", "port": 80}"#,
            "--check",
            r#"{"path": "/ready", "port": 81}"#,
            "--retry",
            r#"{"times": 5}"#,
        ],
    );
}

#[test]
fn values_the_type_refuses_are_refused_naming_the_property() {
    let registry = Registry::<Deploy>::new().unwrap();
    for (limits, why) in [
        (json!({"cpu": "two"}), "invalid type"),
        (json!({"cpu": 1, "gpu": 1}), "unknown field `gpu`"),
        (
            json!({"cpu": 1, "zones": ["east"]}),
            "unknown variant `east`",
        ),
        (json!(r#"{"cpu": 1}"#), "invalid type: string"),
    ] {
        let call = json!({"service": "web", "limits": limits});
        match registry.build("deploy", call.as_object().unwrap()) {
            Err(CallError::InvalidArguments(error)) => {
                assert_eq!(error.property.as_deref(), Some("limits"));
                let text = error.to_string();
                assert!(text.contains("a JSON value of `Limits`"), "{text}");
                assert!(text.contains(why), "{text}");
            }
            other => panic!("{limits} must be refused: {other:?}"),
        }
        // clap refuses the same text too.
        let text = limits.to_string();
        assert!(Deploy::try_parse_from(["deploy", "web", "--limits", &text]).is_err());
    }
}

/// A recursive type's `$ref`s point at its `$defs` inside the tool's input
/// schema, so a validating client checks nested values too.
#[test]
fn a_recursive_type_is_described_where_it_sits() {
    let schema = schema();
    let validator = tests::fuzzing::validator(&schema);
    let call = |stages: Value| json!({"service": "web", "limits": {"cpu": 1}, "stages": stages});
    let nested = json!([{"name": "canary", "then": [{"name": "all", "then": []}]}]);
    assert!(validator.is_valid(&call(nested.clone())), "{schema}");
    let mut planned = call(json!([]));
    planned["plan"] = json!({"first": {"name": "a", "then": [{"name": "b"}]}});
    assert!(validator.is_valid(&planned), "{schema}");
    planned["plan"] = json!({"first": {"name": "a", "then": [{"name": false}]}});
    assert!(!validator.is_valid(&planned), "{schema}");
    let wrong = json!([{"name": "canary", "then": [{"name": 3}]}]);
    assert!(!validator.is_valid(&call(wrong)), "{schema}");
    agree(
        call(nested),
        &[
            "web",
            "--limits",
            r#"{"cpu": 1}"#,
            "--stages",
            r#"{"name": "canary", "then": [{"name": "all", "then": []}]}"#,
        ],
    );
}

#[test]
fn the_spec_agrees_with_clap() {
    mcp_bridge::testing::assert_parity::<Deploy>();
}
