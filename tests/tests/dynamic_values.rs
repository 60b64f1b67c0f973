//! `#[mcp(values = ...)]` without a server running: the registry refuses
//! it on an argument that is not a string, the spec names the function,
//! and `BridgeServer::call` fetches the values and checks a call against
//! them. Served (the enum in `tools/list`, the TTL, `list_changed`, a
//! failing function) it is tested in `fixture_cli.rs` and
//! `fleet_example.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Parser;
use mcp_bridge::{BridgeServer, Io, McpTool, Registry, RegistryError};
use serde_json::{json, Map, Value};

static FETCHES: AtomicUsize = AtomicUsize::new(0);

fn colors() -> Result<Vec<&'static str>, std::io::Error> {
    FETCHES.fetch_add(1, Ordering::SeqCst);
    Ok(vec!["red", "green", "red"])
}

/// Paint something.
#[derive(Parser, McpTool, Debug)]
#[command(name = "paint")]
struct Paint {
    /// The color
    #[arg(long)]
    #[mcp(values = colors, values_ttl = "1h")]
    color: String,
    /// Colors to mix in
    #[arg(long)]
    #[mcp(values = colors)]
    mix: Vec<String>,
}

fn counts() -> Result<Vec<String>, String> {
    Ok(vec!["1".into()])
}

/// Count to a number.
/// A parser whose bounds are known only when it is made: clap's typed
/// parser keeps the field's integer type, so the derive leaves the check
/// to the registry (on a plain `u32` it is a compile error; a function of
/// the CLI's reads a string, which a values function may list).
#[derive(Parser, McpTool, Debug)]
#[command(name = "count")]
struct Count {
    /// How far
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..MAX_COUNT))]
    #[mcp(values = counts)]
    to: u32,
}

/// A bound only known when the parser is made.
const MAX_COUNT: i64 = 100;

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().expect("an object")
}

#[test]
fn the_spec_names_the_function_and_its_ttl() {
    let registry = Registry::<Paint>::new().unwrap();
    let tool = registry.tools().next().unwrap();
    let color = tool.param("color").unwrap();
    let source = color.values.expect("a values function");
    assert_eq!(source.name, "colors");
    assert_eq!(source.ttl, Some(std::time::Duration::from_secs(3600)));
    assert_eq!(tool.param("mix").unwrap().values.unwrap().ttl, None);
    assert_eq!(serde_json::to_value(color).unwrap()["values"], "colors");
}

#[test]
fn a_values_function_on_an_argument_that_is_no_string_is_refused() {
    let Err(error) = Registry::<Count>::new() else {
        panic!("a values function on a number is refused");
    };
    assert!(matches!(error, RegistryError::Values { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "`#[mcp(values = counts)]` on the argument `to` of the command `count`: its values \
         are integer values, and a values function gives strings: use it on a string argument"
    );
}

#[test]
fn a_direct_call_is_checked_against_the_values_it_fetches() {
    let server = BridgeServer::new(|paint: Paint, io: &mut Io| {
        writeln!(io.out(), "{} {:?}", paint.color, paint.mix)
    })
    .unwrap();
    // Listed before any fetch: the schema as declared.
    let listed = serde_json::to_value(server.tools()).unwrap();
    assert_eq!(
        listed[0]["inputSchema"]["properties"]["color"]["enum"],
        Value::Null
    );

    let before = FETCHES.load(Ordering::SeqCst);
    let done = server
        .call(
            "paint",
            arguments(json!({"color": "red", "mix": ["green"]})),
        )
        .unwrap();
    assert_eq!(done.stdout, "red [\"green\"]\n");
    // Each of the two functions fetched once (the same `colors`, two
    // arguments with their own TTLs).
    assert_eq!(FETCHES.load(Ordering::SeqCst) - before, 2);
    // Duplicates are dropped; the list has the values now.
    let listed = serde_json::to_value(server.tools()).unwrap();
    assert_eq!(
        listed[0]["inputSchema"]["properties"]["color"]["enum"],
        json!(["red", "green"])
    );

    let refused = server
        .call("paint", arguments(json!({"color": "blue"})))
        .unwrap();
    assert_eq!(refused.exit_code, 2);
    assert!(
        refused.stderr.contains("\"blue\"") && refused.stderr.contains("one of \"red\", \"green\""),
        "{}",
        refused.stderr
    );
    let refused = server
        .call(
            "paint",
            arguments(json!({"color": "red", "mix": ["green", "teal"]})),
        )
        .unwrap();
    assert!(
        refused.stderr.contains("`mix`") && refused.stderr.contains("\"teal\""),
        "{}",
        refused.stderr
    );
}
