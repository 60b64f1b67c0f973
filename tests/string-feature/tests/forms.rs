//! Each form builds what clap builds from the same command line.

use clap::Parser;
use mcp_bridge::Registry;
use serde_json::json;
use string_feature::{Cli, Command};

#[test]
fn clap_has_its_string_feature_on() {
    // `Str: From<String>` exists only with clap's `string` feature.
    let text: clap::builder::Str = String::from("on").into();
    assert_eq!(text.as_str(), "on");
}

#[test]
fn calls_build_what_the_command_line_builds() {
    let registry = Registry::<Cli>::new().expect("the tools are made");
    for (tool, args, argv) in [
        ("strings", json!({}), vec!["strings"]),
        ("strings", json!({"name": "ann"}), vec!["strings", "--name", "ann"]),
        ("strings_say", json!({"times": 3}), vec!["strings", "say", "--times", "3"]),
        ("strings_say", json!({}), vec!["strings", "say"]),
    ] {
        let ours = registry
            .build(tool, args.as_object().expect("an object"))
            .unwrap_or_else(|e| panic!("{args}: {e}"));
        let theirs = Cli::try_parse_from(&argv).expect("clap parses it");
        assert_eq!(ours, theirs, "{tool} {args}");
    }
    let cli = Cli::try_parse_from(["strings", "say"]).expect("clap parses it");
    assert_eq!(cli.config, "config/app.toml");
    assert_eq!(cli.greeting, "hello");
    assert_eq!(cli.command, Some(Command::Say { times: 1 }));
}

#[test]
fn the_schema_says_the_evaluated_texts() {
    let registry = Registry::<Cli>::new().expect("the tools are made");
    let schema = registry.tool("strings").expect("a tool").input_schema();
    assert_eq!(schema["properties"]["config"]["default"], "config/app.toml");
    assert_eq!(schema["properties"]["greeting"]["default"], "hello");
    let name = schema["properties"]["name"]["description"].as_str().unwrap_or_default();
    assert!(name.contains("in full"), "{name}");
}

#[test]
fn parity_and_agreement_hold() {
    mcp_bridge::testing::assert_parity::<Cli>();
    mcp_bridge::testing::assert_agrees_with_clap::<Cli>();
}
