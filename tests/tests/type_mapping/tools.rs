//! Tool naming, globals, runnable parents, property-level `#[mcp]` attributes, unknown properties and `null`.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, formats::*, lists::*, maps::*, scalars::*, strings::*,
};

// Tool naming, globals, runnable parents

/// Naming rules.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "app")]
pub(crate) struct App {
    /// Configuration profile
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(subcommand)]
    command: AppCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
#[command(rename_all = "snake_case")]
pub(crate) enum AppCommand {
    /// Show everything
    ShowAll {
        #[arg(long)]
        max_items: Option<u32>,
    },
    #[command(name = "fetch-one")]
    FetchOne { id: u32 },
    #[mcp(name = "custom_tool")]
    Custom,
    #[mcp(skip)]
    Internal,
    /// Original text
    #[mcp(description = "Text written for MCP clients")]
    Described,
    #[command(hide = true)]
    Hidden,
    /// Manage remotes
    #[command(subcommand)]
    Remote(RemoteCommand),
    /// Run the server
    Server(ServerArgs),
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub(crate) enum RemoteCommand {
    /// Add a remote
    AddRemote {
        name: String,
    },
    List,
}

#[derive(Args, McpTool, Debug, PartialEq)]
pub(crate) struct ServerArgs {
    /// Port to listen on
    #[arg(long, global = true, default_value_t = 8080u16)]
    port: u16,
    #[command(subcommand)]
    command: Option<ServerCommand>,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub(crate) enum ServerCommand {
    /// Stop the server
    Stop {
        #[arg(long)]
        force: bool,
    },
}

#[test]
fn tool_names_join_the_command_path() {
    assert_eq!(
        tool_names::<App>(),
        [
            "app_show_all",
            "app_fetch-one",
            "custom_tool",
            "app_described",
            "app_remote_add-remote",
            "app_remote_list",
            "app_server",
            "app_server_stop",
        ]
    );
    assert_clap_parity::<App>();
    // The names are clap's command names.
    let cmd = App::command();
    for name in [
        "show_all",
        "fetch-one",
        "custom",
        "described",
        "remote",
        "server",
    ] {
        assert!(cmd.find_subcommand(name).is_some(), "clap has `{name}`");
    }
    // `rename_all` reaches the fields of the variants too, as in clap.
    let show_all = cmd.find_subcommand("show_all").unwrap();
    let max = show_all
        .get_arguments()
        .find(|a| a.get_id() == "max_items")
        .unwrap();
    assert_eq!(max.get_long(), Some("max_items"));
    assert!(props::<App>("app_show_all").get("max_items").is_some());
}

#[test]
fn skipped_hidden_and_group_commands_are_not_tools() {
    let registry = registry::<App>();
    for absent in [
        "app",
        "app_internal",
        "app_hidden",
        "app_remote",
        "app_custom",
    ] {
        assert!(registry.tool(absent).is_none(), "`{absent}` is not a tool");
    }
    match build::<App>("app_internal", &json!({})) {
        Err(CallError::UnknownTool { name }) => assert_eq!(name, "app_internal"),
        other => panic!("{other:?}"),
    }
    // clap still knows them.
    clap_parse::<App>(&["app", "internal"]);
    clap_parse::<App>(&["app", "hidden"]);
}

#[test]
fn tool_descriptions_start_with_the_command_path() {
    let registry = registry::<App>();
    let description = |name: &str| registry.tool(name).unwrap().description.clone();
    assert_eq!(description("app_show_all"), "app show_all: Show everything");
    assert_eq!(description("app_fetch-one"), "app fetch-one");
    assert_eq!(description("custom_tool"), "app custom");
    assert_eq!(
        description("app_described"),
        "app described: Text written for MCP clients"
    );
    assert_eq!(
        description("app_remote_add-remote"),
        "app remote add-remote: Add a remote"
    );
    assert_eq!(description("app_server"), "app server: Run the server");
    assert_eq!(
        description("app_server_stop"),
        "app server stop: Stop the server"
    );
    let tool = registry.tool("custom_tool").unwrap();
    assert_eq!(tool.path, ["app", "custom"]);
}

#[test]
fn global_args_of_ancestors_are_added_to_every_tool() {
    let registry = registry::<App>();
    let params = |name: &str| -> Vec<String> {
        registry
            .tool(name)
            .unwrap()
            .params
            .iter()
            .map(|p| p.name.clone())
            .collect()
    };
    assert_eq!(params("app_show_all"), ["max_items", "profile"]);
    assert_eq!(params("custom_tool"), ["profile"]);
    assert_eq!(params("app_remote_add-remote"), ["name", "profile"]);
    assert_eq!(params("app_server"), ["port", "profile"]);
    assert_eq!(params("app_server_stop"), ["force", "profile", "port"]);
    assert_eq!(
        props::<App>("app_server_stop")["port"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 65535,
            "description": "Port to listen on",
            "default": 8080
        })
    );
    assert_eq!(
        props::<App>("app_remote_list")["profile"],
        json!({ "type": "string", "description": "Configuration profile" })
    );
}

#[test]
fn tools_build_what_clap_parses() {
    let value = same::<App>(
        "app_show_all",
        json!({ "max_items": 3, "profile": "dev" }),
        &["app", "show_all", "--max_items", "3", "--profile", "dev"],
    );
    assert_eq!(value.profile.as_deref(), Some("dev"));
    same::<App>(
        "app_fetch-one",
        json!({ "id": 7 }),
        &["app", "fetch-one", "7"],
    );
    same::<App>("custom_tool", json!({}), &["app", "custom"]);
    same::<App>("app_described", json!({}), &["app", "described"]);
    same::<App>(
        "app_remote_add-remote",
        json!({ "name": "origin" }),
        &["app", "remote", "add-remote", "origin"],
    );
    same::<App>("app_remote_list", json!({}), &["app", "remote", "list"]);
    // A parent whose subcommand is optional runs on its own.
    let value = same::<App>("app_server", json!({}), &["app", "server"]);
    assert_eq!(
        value.command,
        AppCommand::Server(ServerArgs {
            port: 8080,
            command: None
        })
    );
    let value = same::<App>(
        "app_server_stop",
        json!({ "force": true, "port": 9000, "profile": "p" }),
        &[
            "app",
            "--profile",
            "p",
            "server",
            "stop",
            "--force",
            "--port",
            "9000",
        ],
    );
    assert_eq!(
        value.command,
        AppCommand::Server(ServerArgs {
            port: 9000,
            command: Some(ServerCommand::Stop { force: true })
        })
    );
}

// Property-level #[mcp] attributes

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "props")]
pub(crate) struct Props {
    #[arg(long = "dry-run")]
    #[mcp(name = "dry_run")]
    dry_run: bool,
    #[arg(long, default_value = "secret")]
    #[mcp(skip)]
    internal: String,
    #[arg(long, hide = true)]
    hidden: Option<String>,
}

#[test]
fn property_renames_and_skips() {
    let schema = input_schema::<Props>("props");
    assert_eq!(
        schema["properties"],
        json!({ "dry_run": { "type": "boolean", "default": false } })
    );
    let value = same::<Props>("props", json!({ "dry_run": true }), &["props", "--dry-run"]);
    assert_eq!(
        value.internal, "secret",
        "a skipped argument gets its default"
    );
    let error = arg_error::<Props>("props", json!({ "internal": "x" }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
    let error = arg_error::<Props>("props", json!({ "dry-run": true }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
}

// Unknown properties, null, objects

#[test]
fn unknown_properties_are_refused_with_a_suggestion() {
    let error = arg_error::<Options>("options", json!({ "nmae": "x" }));
    assert_eq!(error.tool, "options");
    assert_eq!(error.property.as_deref(), Some("nmae"));
    assert_eq!(
        error.problem,
        Problem::Unknown {
            suggestion: Some("name".into()),
            accepted: vec!["name".into(), "port".into(), "user".into(), "jobs".into()],
        }
    );
    assert_eq!(
        error.to_string(),
        "tool `options`: unknown property `nmae`; did you mean `name`?; accepted properties: name, port, user, jobs"
    );

    let error = arg_error::<Options>("options", json!({ "zzzzzz": 1 }));
    match &error.problem {
        Problem::Unknown { suggestion, .. } => assert_eq!(suggestion, &None),
        other => panic!("{other:?}"),
    }
    assert!(!error.to_string().contains("did you mean"), "{error}");

    // Clap ids and short names are not property names.
    let error = arg_error::<Ints>("ints", json!({ "v_i8": 1 }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
    let error = arg_error::<Flags>("flags", json!({ "v": true }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );

    let error = arg_error::<App>("custom_tool", json!({ "x": 1 }));
    assert!(
        error.to_string().ends_with("accepted properties: profile"),
        "{error}"
    );
}

#[test]
fn null_is_refused_even_for_optional_properties() {
    for property in ["name", "port", "user", "jobs"] {
        let error = arg_error::<Options>("options", json!({ property: null }));
        assert_invalid(&error, "options", property, "", "null");
        assert!(
            error.to_string().contains("leave the property out"),
            "{error}"
        );
    }
    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "tag": null }));
    assert_invalid(&error, "lists", "tag", "an array", "null");
    let error = arg_error::<Pairs>("pairs", json!({ "limit": null }));
    assert_invalid(&error, "pairs", "limit", "an object", "null");
    let error = arg_error::<Count>("count", json!({ "verbose": null }));
    assert_invalid(&error, "count", "verbose", "an integer", "null");
}

#[test]
fn objects_are_never_stringified() {
    let object = json!({ "k": "v" });
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({ "name": object }), "options", "name"),
        (json!({ "files": [object] }), "lists", "files[0]"),
        (json!({ "timeout": object }), "durations", "timeout"),
        (json!({ "v4": object }), "net", "v4"),
        (json!({ "color": object }), "enums", "color"),
        (json!({ "sep": object }), "chars", "sep"),
    ];
    for (args, tool, property) in cases {
        let error = match tool {
            "options" => arg_error::<Options>(tool, args),
            "lists" => arg_error::<Lists>(tool, args),
            "durations" => arg_error::<Durations>(tool, args),
            "net" => arg_error::<Net>(tool, args),
            "enums" => arg_error::<Enums>(tool, args),
            "chars" => arg_error::<Chars>(tool, args),
            _ => unreachable!(),
        };
        assert_invalid(&error, tool, property, "", r#"{"k":"v"}"#);
    }
}

#[test]
fn unknown_tools_are_reported() {
    match build::<Options>("option", &json!({})) {
        Err(error @ CallError::UnknownTool { .. }) => assert_eq!(
            error.to_string(),
            "unknown tool `option`; call tools/list for the available tools"
        ),
        other => panic!("{other:?}"),
    }
}
