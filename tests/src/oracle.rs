//! clap as the oracle: a call built by the registry against what clap's
//! `try_parse_from` makes of the same command line, for the corpus tests.

use std::fmt::Debug;

use clap::Parser;
use mcp_bridge::{CallError, McpCommand, Registry};
use serde_json::Value;

/// The value a call of `tool` with `args` builds.
pub fn build<C: McpCommand>(tool: &str, args: &Value) -> Result<C, CallError> {
    Registry::<C>::new()
        .expect("no duplicate tool names")
        .build(tool, args.as_object().expect("an object"))
}

/// The call and the command line give the same value.
#[track_caller]
pub fn same<C: McpCommand + Parser + Debug + PartialEq>(
    tool: &str,
    args: Value,
    argv: &[&str],
) -> C {
    let ours = build::<C>(tool, &args).unwrap_or_else(|e| panic!("{args} refused: {e}"));
    let theirs = C::try_parse_from(argv).unwrap_or_else(|e| panic!("clap refused {argv:?}: {e}"));
    assert_eq!(ours, theirs, "JSON {args} and argv {argv:?} disagree");
    ours
}

/// Both refuse; the call's error names `property` and contains `says`.
#[track_caller]
pub fn both_refuse<C: McpCommand + Parser + Debug>(
    tool: &str,
    args: Value,
    argv: &[&str],
    property: &str,
    says: &str,
) {
    if let Ok(value) = C::try_parse_from(argv) {
        panic!("clap accepted {argv:?} as {value:?}");
    }
    refused::<C>(tool, args, property, says);
}

/// The call is refused with an error naming `property` and containing `says`.
#[track_caller]
pub fn refused<C: McpCommand + Debug>(tool: &str, args: Value, property: &str, says: &str) {
    match build::<C>(tool, &args) {
        Ok(value) => panic!("{args} accepted as {value:?}"),
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.contains(&format!("`{property}`")) && message.contains(says),
                "error for {args} should name `{property}` and say {says:?}: {message}"
            );
        }
    }
}

/// The input schema a client sees for `tool`.
pub fn schema<C: McpCommand>(tool: &str) -> Value {
    let registry = Registry::<C>::new().expect("no duplicate tool names");
    Value::Object(registry.tool(tool).expect("the tool exists").input_schema())
}
