//! The forms of `tests/src/adopt/total.rs`: keys and parsers clap's
//! derive accepts that the bridge once read otherwise. Each call is held
//! to what clap's `try_parse_from` builds from the same command line, and
//! each CLI to `assert_parity` and the agreement check.

use mcp_bridge::testing::{assert_agrees_with_clap, assert_parity};
use mcp_bridge::McpCommand;
use serde_json::{json, Value};
use tests::adopt::total::{
    CargoBuild, Copy, Finder, Hook, HookCommand, Query, SyncArgs, SyncThen, Total, Zig, ZigBuild,
    ZigCommand,
};
use tests::oracle::{both_refuse, same, schema};

/// A property of `tool`'s input schema.
fn property<C: McpCommand>(tool: &str, name: &str) -> Option<Value> {
    schema::<C>(tool)["properties"].get(name).cloned()
}

/// The agreement check sets the variables the CLIs here read
/// (`TOTAL_TOKEN_TEST`) while it runs, and the other tests read them:
/// one test at a time.
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn each_cli_has_parity_and_agrees_with_clap() {
    let _one = one_at_a_time();
    assert_parity::<Total>();
    assert_agrees_with_clap::<Total>();
    assert_parity::<Hook>();
    assert_agrees_with_clap::<Hook>();
    assert_parity::<Copy>();
    assert_agrees_with_clap::<Copy>();
    assert_parity::<Query>();
    assert_agrees_with_clap::<Query>();
    assert_parity::<Zig>();
    assert_agrees_with_clap::<Zig>();
}

#[test]
fn a_command_name_no_tool_name_allows_is_mapped_byte_by_byte() {
    let _one = one_at_a_time();
    let registry = mcp_bridge::Registry::<Zig>::new().unwrap();
    let names: Vec<&str> = registry.tools().map(|t| t.name.as_str()).collect();
    // `é` is two bytes: two `_`.
    assert_eq!(
        names,
        [
            "my_zig_c__",
            "my_zig_cc",
            "my_zig_r__mote_add",
            "my_zig_r__mote_push",
            "my_zig_build"
        ]
    );
    let zig = same::<Zig>(
        "my_zig_c__",
        json!({"args": ["-O2", "main.cc"]}),
        &["my zig", "c++", "-O2", "main.cc"],
    );
    assert_eq!(
        zig.command,
        ZigCommand::Cxx {
            args: vec!["-O2".into(), "main.cc".into()]
        }
    );
}

#[test]
fn a_struct_read_through_clap_keeps_its_about_last_list_and_missing_value() {
    let _one = one_at_a_time();
    let registry = mcp_bridge::Registry::<Zig>::new().unwrap();
    let build = registry
        .tools()
        .find(|t| t.name == "my_zig_build")
        .expect("the build tool");
    assert!(
        build
            .description
            .contains("Compile a package and its dependencies"),
        "{}",
        build.description
    );
    // What `build` holds with no target and no trailing arguments.
    let built = |color: Option<Option<String>>, test_name: Option<&str>| {
        ZigCommand::Build(ZigBuild {
            disable_zig_linker: false,
            cargo: CargoBuild {
                target: vec![],
                color,
                test_name: test_name.map(str::to_owned),
                args: vec![],
            },
        })
    };
    // A positional before the `last` list goes to itself, not the list.
    let zig = same::<Zig>(
        "my_zig_build",
        json!({"test_name": "value"}),
        &["my zig", "build", "value"],
    );
    assert_eq!(zig.command, built(None, Some("value")));
    same::<Zig>(
        "my_zig_build",
        json!({"test_name": "", "args": ["--nocapture", "-x"]}),
        &["my zig", "build", "", "--", "--nocapture", "-x"],
    );
    same::<Zig>(
        "my_zig_build",
        json!({"args": ["value"]}),
        &["my zig", "build", "--", "value"],
    );
    // The flag alone holds its `default_missing_value`; no items is no flag.
    same::<Zig>(
        "my_zig_build",
        json!({"target": [""]}),
        &["my zig", "build", "--target"],
    );
    let zig = same::<Zig>("my_zig_build", json!({"target": []}), &["my zig", "build"]);
    assert_eq!(zig.command, built(None, None));
    // A flag given alone does not take the positional's value.
    let zig = same::<Zig>(
        "my_zig_build",
        json!({"color": null, "test_name": "x"}),
        &["my zig", "build", "x", "--color"],
    );
    assert_eq!(zig.command, built(Some(None), Some("x")));
    // Said before the `--`, a value starting with `-` is a flag: refused
    // by name, as clap refuses the command line.
    both_refuse::<Zig>(
        "my_zig_build",
        json!({"test_name": "-x"}),
        &["my zig", "build", "-x"],
        "test_name",
        "a value not starting with `-`",
    );
}

#[test]
fn relations_of_computed_ids_are_enforced_as_clap_enforces_them() {
    let _one = one_at_a_time();
    // `conflicts_with_all = Query::NARROWING`
    both_refuse::<Query>(
        "query",
        json!({"all": true, "age": 3}),
        &["query", "--all", "--age", "3"],
        "age",
        "",
    );
    // `required_unless_present_any = unless_given()`
    both_refuse::<Query>("query", json!({}), &["query"], "where", "");
    same::<Query>("query", json!({"all": true}), &["query", "--all"]);
    // `requires = Query::WHERE`
    both_refuse::<Query>(
        "query",
        json!({"name": "n"}),
        &["query", "--name", "n"],
        "where",
        "",
    );
    same::<Query>(
        "query",
        json!({"where": "here", "name": "n"}),
        &["query", "--where", "here", "--name", "n"],
    );
    // `overrides_with = Some("oldest")`: both given is refused.
    tests::oracle::refused::<Query>(
        "query",
        json!({"where": "w", "newest": true, "oldest": true}),
        "oldest",
        "override each other",
    );
    // A flag in an `Option`: `Some` either way, as clap builds it.
    let query = same::<Query>("query", json!({"all": true}), &["query", "--all"]);
    assert_eq!(query.emit_diffs, Some(false));
    let query = same::<Query>(
        "query",
        json!({"all": true, "diff": true}),
        &["query", "--all", "--diff"],
    );
    assert_eq!(query.emit_diffs, Some(true));
    // In the schema too.
    let rules = schema::<Query>("query")["allOf"].to_string();
    assert!(
        rules.contains("\"age\"") && rules.contains("\"all\""),
        "{rules}"
    );
}

#[test]
fn use_value_delimiter_splits_items_as_clap_does() {
    let _one = one_at_a_time();
    let total = same::<Total>(
        "total",
        json!({"enabled": ["fzf,skim"], "names": ["x,y"]}),
        &["total", "--enabled", "fzf,skim", "--names", "x,y"],
    );
    assert_eq!(total.enabled, [Finder::Fzf, Finder::Skim]);
    assert_eq!(total.names, ["x", "y"]);
    // The delimited default, split.
    let total = same::<Total>("total", json!({}), &["total"]);
    assert_eq!(total.names, ["a", "b"]);
}

#[test]
fn an_inferred_value_enum_ignores_case_as_clap_does() {
    let _one = one_at_a_time();
    let total = same::<Total>(
        "total",
        json!({"finder": "FZF"}),
        &["total", "--finder", "FZF"],
    );
    assert_eq!(total.finder, Some(Finder::Fzf));
    let finder = property::<Total>("total", "finder").expect("a property");
    assert_eq!(finder["enum"], json!(["fzf", "skim"]), "{finder}");
}

#[test]
fn a_function_of_the_cli_reads_its_own_notation() {
    let _one = one_at_a_time();
    let total = same::<Total>(
        "total",
        json!({"block-size": "4KB"}),
        &["total", "--block-size", "4KB"],
    );
    assert_eq!(total.block_size, 4096);
    // Its default, in that notation, is what a call giving nothing gets.
    assert_eq!(
        same::<Total>("total", json!({}), &["total"]).block_size,
        1 << 20
    );
    let block = property::<Total>("total", "block-size").expect("a property");
    assert_eq!(block["type"], "string", "{block}");
    both_refuse::<Total>(
        "total",
        json!({"block-size": "4GB"}),
        &["total", "--block-size", "4GB"],
        "block-size",
        "no unit",
    );
}

#[test]
fn a_ranged_parser_bounds_counts_and_integers() {
    let _one = one_at_a_time();
    assert_eq!(
        same::<Total>("total", json!({"quiet": 2}), &["total", "-qq"]).quiet,
        2
    );
    both_refuse::<Total>(
        "total",
        json!({"quiet": 3}),
        &["total", "-qqq"],
        "quiet",
        "",
    );
    let quiet = property::<Total>("total", "quiet").expect("a property");
    assert_eq!(
        (quiet["minimum"].clone(), quiet["maximum"].clone()),
        (json!(0), json!(2))
    );
    // A bound that is a constant, found by asking the parser.
    let jobs = property::<Total>("total", "jobs").expect("a property");
    assert_eq!(
        (jobs["minimum"].clone(), jobs["maximum"].clone()),
        (json!(1), json!(64)),
        "{jobs}"
    );
    assert_eq!(
        same::<Total>("total", json!({"jobs": 64}), &["total", "--jobs", "64"]).jobs,
        Some(64)
    );
    both_refuse::<Total>(
        "total",
        json!({"jobs": 65}),
        &["total", "--jobs", "65"],
        "jobs",
        "",
    );
}

#[test]
fn required_if_eq_any_and_the_os_forms_are_followed() {
    let _one = one_at_a_time();
    both_refuse::<Total>(
        "total",
        json!({"finder": "skim"}),
        &["total", "--finder", "skim"],
        "reason",
        "",
    );
    same::<Total>(
        "total",
        json!({"finder": "skim", "reason": "r", "pair": ["a", "b"]}),
        &[
            "total", "--finder", "skim", "--reason", "r", "--pair", "a", "b",
        ],
    );
    assert_eq!(same::<Total>("total", json!({}), &["total"]).out, "out");
}

#[test]
fn a_parent_whose_arguments_conflict_with_its_subcommands_keeps_them_to_itself() {
    let _one = one_at_a_time();
    let hook = same::<Hook>(
        "hook_install",
        json!({"agent": "claude-code"}),
        &["hook", "install", "claude-code"],
    );
    assert_eq!(hook.agent, None);
    assert_eq!(
        hook.command,
        Some(HookCommand::Install {
            agent: "claude-code".into()
        })
    );
    assert!(property::<Hook>("hook_install", "loud").is_none());
    assert!(property::<Hook>("hook", "loud").is_some());
    // The parent's hidden positional stays the command line's.
    assert_eq!(
        same::<Hook>("hook", json!({"loud": true}), &["hook", "--loud"]).agent,
        None
    );
}

#[test]
fn a_subcommand_negates_its_parents_requirements() {
    let _one = one_at_a_time();
    let hook = same::<Hook>("hook_sync_show", json!({}), &["hook", "sync", "show"]);
    assert_eq!(
        hook.command,
        Some(HookCommand::Sync(SyncArgs {
            remote: None,
            then: Some(SyncThen::Show)
        }))
    );
    both_refuse::<Hook>("hook_sync", json!({}), &["hook", "sync"], "remote", "");
}

#[test]
fn a_required_positional_after_an_optional_one_stands_alone() {
    let _one = one_at_a_time();
    let copy = same::<Copy>("copy", json!({"to": "b"}), &["copy", "b"]);
    assert_eq!((copy.from, copy.to), (None, "b".to_owned()));
    same::<Copy>("copy", json!({"from": "a", "to": "b"}), &["copy", "a", "b"]);
}
