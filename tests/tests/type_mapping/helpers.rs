//! Shared by the type-mapping tests: the registry, builds, clap as the oracle.

#![allow(unused_imports, dead_code)]

pub use std::collections::HashMap;
pub use std::error::Error;
pub use std::ffi::OsString;
pub use std::fmt::Debug;
pub use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
pub use std::path::PathBuf;
pub use std::str::FromStr;
pub use std::time::Duration;

pub use clap::{ArgAction, Args, CommandFactory, Parser, Subcommand, ValueEnum};
pub use mcp_bridge::spec::CommandSpec;
pub use mcp_bridge::{ArgError, CallError, McpCommand, McpTool, Problem, Registry};
pub use serde_json::{json, Value};

pub fn registry<C: McpCommand>() -> Registry<C> {
    Registry::<C>::new().expect("no duplicate tool names")
}

pub fn tool_names<C: McpCommand>() -> Vec<String> {
    registry::<C>().tools().map(|t| t.name.clone()).collect()
}

/// The whole input schema of `tool`.
pub fn input_schema<C: McpCommand>(tool: &str) -> Value {
    let registry = registry::<C>();
    let spec = registry
        .tool(tool)
        .unwrap_or_else(|| panic!("no tool `{tool}`; tools: {:?}", tool_names::<C>()));
    Value::Object(spec.input_schema())
}

/// The `properties` of `tool`'s input schema.
pub fn props<C: McpCommand>(tool: &str) -> Value {
    input_schema::<C>(tool)["properties"].clone()
}

pub fn build<C: McpCommand>(tool: &str, args: &Value) -> Result<C, CallError> {
    registry::<C>().build(tool, args.as_object().expect("arguments are an object"))
}

pub fn built<C: McpCommand + Debug>(tool: &str, args: Value) -> C {
    build::<C>(tool, &args).unwrap_or_else(|e| panic!("{tool} refused {args}: {e}"))
}

pub fn arg_error<C: McpCommand + Debug>(tool: &str, args: Value) -> ArgError {
    match build::<C>(tool, &args) {
        Err(CallError::InvalidArguments(error)) => error,
        Err(other) => panic!("{tool} {args}: expected an argument error, got {other}"),
        Ok(value) => panic!("{tool} accepted {args} as {value:?}"),
    }
}

pub fn clap_parse<C: Parser>(argv: &[&str]) -> C {
    C::try_parse_from(argv).unwrap_or_else(|e| panic!("clap refused {argv:?}: {e}"))
}

pub fn clap_error<C: Parser + Debug>(argv: &[&str]) -> clap::Error {
    match C::try_parse_from(argv) {
        Ok(value) => panic!("clap accepted {argv:?} as {value:?}"),
        Err(error) => error,
    }
}

/// Builds `args` for `tool`, parses `argv` with clap, and asserts both give
/// the same value.
pub fn same<C: McpCommand + Debug + PartialEq>(tool: &str, args: Value, argv: &[&str]) -> C {
    let ours = built::<C>(tool, args.clone());
    let theirs = clap_parse::<C>(argv);
    assert_eq!(ours, theirs, "JSON {args} and argv {argv:?} disagree");
    ours
}

/// Asserts an `Invalid` error about `property` of `tool`, whose message
/// says what was expected and what was given.
#[track_caller]
pub fn assert_invalid(error: &ArgError, tool: &str, property: &str, expected: &str, given: &str) {
    let text = error.to_string();
    assert_eq!(error.tool, tool, "{text}");
    assert_eq!(error.property.as_deref(), Some(property), "{text}");
    assert!(
        matches!(error.problem, Problem::Invalid { .. }),
        "not an Invalid problem: {error:?}"
    );
    for part in [
        format!("tool `{tool}`"),
        format!("property `{property}`"),
        format!("expected {expected}"),
        format!("got {given}"),
    ] {
        assert!(text.contains(&part), "`{text}` should contain `{part}`");
    }
}

/// The parser's own explanation attached to an `Invalid` error.
pub fn reason(error: &ArgError) -> String {
    match &error.problem {
        Problem::Invalid {
            reason: Some(reason),
            ..
        } => reason.clone(),
        other => panic!("no parser reason in {other:?}"),
    }
}

/// Compares the derived command tree with clap's: names, help texts, the
/// long/short names, required, hidden, of every command and argument.
pub fn assert_clap_parity<C: McpCommand + CommandFactory>() {
    fn walk(spec: &CommandSpec, cmd: &clap::Command) {
        let at = cmd.get_name();
        assert_eq!(spec.name, at);
        assert_eq!(
            spec.about,
            cmd.get_about().map(ToString::to_string),
            "about of `{at}`"
        );
        assert_eq!(
            spec.long_about,
            cmd.get_long_about().map(ToString::to_string),
            "long_about of `{at}`"
        );
        assert_eq!(spec.hidden, cmd.is_hide_set(), "hidden of `{at}`");
        for param in &spec.params {
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_id().as_str() == param.id)
                .unwrap_or_else(|| panic!("clap has no argument `{}` in `{at}`", param.id));
            let what = format!("argument `{}` of `{at}`", param.id);
            match &param.kind {
                mcp_bridge::spec::ParamKind::Flag { long, short } => {
                    assert_eq!(long.as_deref(), arg.get_long(), "long of {what}");
                    assert_eq!(*short, arg.get_short(), "short of {what}");
                }
                mcp_bridge::spec::ParamKind::Positional => {
                    assert!(arg.is_positional(), "{what} is positional for clap");
                }
            }
            assert_eq!(param.required, arg.is_required_set(), "required of {what}");
            assert_eq!(param.global, arg.is_global_set(), "global of {what}");
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(ToString::to_string);
            if param.description != help {
                // Only `#[mcp(description)]` may differ from clap's help.
                assert!(param.description.is_some(), "help of {what}: {help:?}");
            }
        }
        for sub in &spec.subcommands {
            let clap_sub = cmd
                .find_subcommand(&sub.name)
                .unwrap_or_else(|| panic!("clap has no subcommand `{}` in `{at}`", sub.name));
            walk(sub, clap_sub);
        }
    }
    walk(&C::command_spec(), &C::command());
}
