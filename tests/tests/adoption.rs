//! The adoption corpus (`tests/src/adopt/`): CLIs written the way popular
//! clap CLIs are written, with nothing but `McpTool` added. For each: the
//! parity check against clap's own `Command`, the schema a client sees, and
//! calls built exactly as clap parses the same command line (clap is the
//! oracle), including what clap refuses.

use std::sync::{Mutex, MutexGuard};

use clap::Parser;
use mcp_bridge::testing::assert_parity;
use mcp_bridge::{McpCommand, Registry};
use serde_json::{json, Value};
use tests::adopt::seek::{Color, Seek};
use tests::oracle::{both_refuse, build, refused, same, schema};

/// Tests that read or set environment variables take this lock, so that a
/// variable set by one never leaks into another's oracle.
static ENV: Mutex<()> = Mutex::new(());

fn env_lock() -> MutexGuard<'static, ()> {
    ENV.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---------------------------------------------------------------------------
// seek: one big flat struct of flags.

#[test]
fn seek_has_parity_with_clap() {
    let _env = env_lock();
    assert_parity::<Seek>();
}

#[test]
fn seek_offers_what_clap_shows_and_nothing_it_cannot_set() {
    let _env = env_lock();
    let schema = schema::<Seek>("seek");
    let props = schema["properties"].as_object().expect("properties");
    let mut names: Vec<&str> = props.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "case-sensitive",
            "color",
            "context",
            "follow",
            "ignore-case",
            "max-count",
            "paths",
            "pattern",
            "plan",
            "pre",
            "sort",
            "stats",
            "threads",
            "type",
            "verbose",
        ],
        "hidden: no-follow (hide(true)), trace (hide = !cfg!(..)), mmap (a `()` field); \
         help is clap's own action"
    );
    assert_eq!(
        props["verbose"]["type"], "integer",
        "action(ArgAction::Count)"
    );
    assert_eq!(props["context"]["default"], 2, "default_value(CONST)");
    assert_eq!(
        props["max-count"]["minimum"], 1,
        "value_parser(value_parser!(u64).range(1..))"
    );
    assert_eq!(
        props["sort"]["enum"],
        json!(["path", "modified"]),
        "PossibleValuesParser"
    );
    assert_eq!(props["type"]["type"], "array", "num_args(1..)");
    assert!(
        props["stats"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("[env: SEEK_STATS]")),
        "the variable is named: {}",
        props["stats"]
    );
    assert_eq!(schema["required"], json!(["pattern"]));
}

#[test]
fn seek_calls_build_what_clap_parses() {
    let _env = env_lock();
    let plain = same::<Seek>("seek", json!({ "pattern": "x" }), &["seek", "x"]);
    assert_eq!(plain.context, 2);
    assert_eq!(plain.color, Color::Auto);
    same::<Seek>(
        "seek",
        json!({ "pattern": "-x", "paths": ["src", "-"] }),
        &["seek", "--", "-x", "src", "-"],
    );
    let counted = same::<Seek>(
        "seek",
        json!({ "pattern": "x", "verbose": 3 }),
        &["seek", "-vvv", "x"],
    );
    assert_eq!(counted.verbose, 3);
    // value_delimiter = TYPE_SEPARATOR splits strings as clap splits them.
    let typed = same::<Seek>(
        "seek",
        json!({ "pattern": "x", "type": ["rs,py", "md"] }),
        &["seek", "-t", "rs,py", "md", "--", "x"],
    );
    assert_eq!(typed.types, ["rs", "py", "md"]);
    same::<Seek>(
        "seek",
        json!({ "pattern": "x", "context": 5, "max-count": 7, "threads": "8" }),
        &["seek", "-C", "5", "-m", "7", "-j", "8", "x"],
    );
    same::<Seek>(
        "seek",
        json!({ "pattern": "x", "sort": "modified", "pre": "gunzip", "color": "never" }),
        &[
            "seek", "--sort", "modified", "--pre", "gunzip", "--color", "never", "x",
        ],
    );
    same::<Seek>(
        "seek",
        json!({ "pattern": "x", "follow": true, "ignore-case": true, "plan": true }),
        &["seek", "-L", "-i", "--plan", "x"],
    );
}

#[test]
fn seek_refuses_what_clap_refuses() {
    let _env = env_lock();
    both_refuse::<Seek>(
        "seek",
        json!({ "pattern": "x", "max-count": 0 }),
        &["seek", "-m", "0", "x"],
        "max-count",
        "1",
    );
    both_refuse::<Seek>(
        "seek",
        json!({ "pattern": "x", "threads": "300" }),
        &["seek", "-j", "300", "x"],
        "threads",
        "at most 256 threads",
    );
    both_refuse::<Seek>(
        "seek",
        json!({ "pattern": "x", "pre": "" }),
        &["seek", "--pre", "", "x"],
        "pre",
        "must not be empty",
    );
    both_refuse::<Seek>(
        "seek",
        json!({ "pattern": "x", "sort": "size" }),
        &["seek", "--sort", "size", "x"],
        "sort",
        "size",
    );
    both_refuse::<Seek>(
        "seek",
        json!({ "pattern": "x", "context": -1 }),
        &["seek", "-C", "-1", "x"],
        "context",
        "-1",
    );
}

#[test]
fn seek_refuses_both_sides_of_an_override_pair() {
    let _env = env_lock();
    // On the command line the later flag wins; a call has no order.
    let clap = Seek::try_parse_from(["seek", "-i", "-s", "x"]).expect("clap takes both");
    assert!(clap.case_sensitive && !clap.ignore_case);
    refused::<Seek>(
        "seek",
        json!({ "pattern": "x", "ignore-case": true, "case-sensitive": true }),
        "ignore-case",
        "override each other",
    );
    // One side alone, or the other side false, is what the command line says.
    same::<Seek>(
        "seek",
        json!({ "pattern": "x", "ignore-case": true, "case-sensitive": false }),
        &["seek", "-i", "x"],
    );
    let schema = schema::<Seek>("seek");
    let rules = schema["allOf"]
        .as_array()
        .expect("the pair is a schema rule");
    assert_eq!(
        rules.len(),
        1,
        "one rule for the pair, declared on both sides: {rules:?}"
    );
}

#[test]
fn seek_has_no_help_or_no_op_property() {
    let _env = env_lock();
    refused::<Seek>("seek", json!({ "pattern": "x", "help": true }), "help", "");
    refused::<Seek>("seek", json!({ "pattern": "x", "mmap": true }), "mmap", "");
    // The no-op flag still parses on the command line, to the same value.
    same::<Seek>("seek", json!({ "pattern": "x" }), &["seek", "--mmap", "x"]);
}

#[test]
fn seek_reads_a_flag_from_the_environment_as_clap_does() {
    let _env = env_lock();
    let with = |value: Option<&str>, check: &dyn Fn()| {
        match value {
            Some(value) => std::env::set_var("SEEK_STATS", value),
            None => std::env::remove_var("SEEK_STATS"),
        }
        check();
        std::env::remove_var("SEEK_STATS");
    };
    with(Some("true"), &|| {
        let seek = same::<Seek>("seek", json!({ "pattern": "x" }), &["seek", "x"]);
        assert!(seek.stats);
        // A given property wins over the variable.
        let given = build::<Seek>("seek", &json!({ "pattern": "x", "stats": false })).unwrap();
        assert!(!given.stats);
        assert_eq!(
            schema::<Seek>("seek")["properties"]["stats"]["default"],
            true
        );
    });
    with(Some("false"), &|| {
        assert!(!same::<Seek>("seek", json!({ "pattern": "x" }), &["seek", "x"]).stats);
    });
    for bad in ["yes", "1", ""] {
        with(Some(bad), &|| {
            both_refuse::<Seek>(
                "seek",
                json!({ "pattern": "x" }),
                &["seek", "x"],
                "stats",
                "SEEK_STATS",
            );
        });
    }
    with(None, &|| {
        assert!(!same::<Seek>("seek", json!({ "pattern": "x" }), &["seek", "x"]).stats);
    });
}

// ---------------------------------------------------------------------------
// vcs: nested subcommands, flattened globals, a `Parser` type as arguments.

use std::path::PathBuf;
use tests::adopt::vcs::{CommitArgs, RemoteCommand, Vcs, VcsCommand, When};

fn tool_names<C: McpCommand>() -> Vec<String> {
    Registry::<C>::new()
        .expect("no duplicate tool names")
        .tools()
        .map(|t| t.name.clone())
        .collect()
}

#[test]
fn vcs_has_parity_with_clap() {
    let _env = env_lock();
    assert_parity::<Vcs>();
    assert_parity::<CommitArgs>();
}

#[test]
fn vcs_tools_are_its_runnable_commands() {
    let _env = env_lock();
    assert_eq!(
        tool_names::<Vcs>(),
        [
            "vcs_commit",
            "vcs_remote_add",
            "vcs_remote_remove",
            "vcs_log"
        ]
    );
    // The type that derives `Parser` is a root of its own as well.
    assert_eq!(tool_names::<CommitArgs>(), ["vcs-commit"]);
    let props = schema::<Vcs>("vcs_commit")["properties"].clone();
    for global in ["quiet", "color"] {
        assert!(
            props.get(global).is_some(),
            "the root's global `{global}`: {props}"
        );
    }
    // `from_global` adds no property; `log --dir` and the root's `-C`
    // are both offered.
    let log = schema::<Vcs>("vcs_log")["properties"].clone();
    let mut names: Vec<&String> = log.as_object().unwrap().keys().collect();
    names.sort();
    assert_eq!(
        names,
        [
            "color",
            "dir",
            "max-count",
            "paths",
            "quiet",
            "revs",
            "vcs-dir"
        ]
    );
    assert_eq!(
        log["dir"]["description"],
        "Only the history under this directory (the root's `-C` has the same id: this one is given after `log`)"
    );
    assert_eq!(
        log["vcs-dir"]["description"],
        "Run as if started in this directory (given before the subcommand: `vcs -C DIR commit`; not global) (an option of `vcs`, before its subcommand)"
    );
}

#[test]
fn vcs_calls_build_what_clap_parses() {
    let _env = env_lock();
    let commit = same::<Vcs>(
        "vcs_commit",
        json!({ "message": "fix", "all": true, "quiet": true }),
        &["vcs", "commit", "-a", "-m", "fix", "-q"],
    );
    assert_eq!(
        commit.command,
        VcsCommand::Commit(CommitArgs {
            message: "fix".into(),
            all: true,
            amend: false
        })
    );
    same::<Vcs>(
        "vcs_commit",
        json!({ "message": "-x", "color": "never" }),
        &["vcs", "--color", "never", "ci", "--message=-x"],
    );
    same::<Vcs>(
        "vcs_log",
        json!({ "revs": ["v1", "v2"] }),
        &["vcs", "log", "--revs", "v1", "v2"],
    );
    // The root's option that is not global, given before the subcommand.
    let moved = same::<Vcs>(
        "vcs_remote_add",
        json!({ "dir": "/srv/repo", "name": "up", "url": "u" }),
        &["vcs", "-C", "/srv/repo", "remote", "add", "up", "u"],
    );
    assert_eq!(moved.dir, Some(PathBuf::from("/srv/repo")));
    let remote = same::<Vcs>(
        "vcs_remote_remove",
        json!({ "name": "origin" }),
        &["vcs", "remote", "rm", "origin"],
    );
    assert_eq!(
        remote.command,
        VcsCommand::Remote(RemoteCommand::Remove {
            name: "origin".into()
        })
    );
    same::<Vcs>(
        "vcs_remote_add",
        json!({ "name": "up", "url": "https://example.invalid/r" }),
        &["vcs", "remote", "add", "up", "https://example.invalid/r"],
    );
    let log = same::<Vcs>(
        "vcs_log",
        json!({ "max-count": 3, "paths": ["a", "b"] }),
        &["vcs", "log", "-n", "3", "a", "b"],
    );
    assert_eq!(log.output.color, When::Auto);
    // `log --dir` keeps its name; the root's `-C` (same id, not global) is
    // offered as `vcs-dir`, and each lands on its own level.
    let both = same::<Vcs>(
        "vcs_log",
        json!({ "vcs-dir": "/srv/repo", "dir": "src" }),
        &["vcs", "-C", "/srv/repo", "log", "--dir", "src"],
    );
    assert_eq!(both.dir, Some(PathBuf::from("/srv/repo")));
    let VcsCommand::Log { dir, .. } = &both.command else {
        panic!("{both:?}")
    };
    assert_eq!(dir.as_deref(), Some(std::path::Path::new("src")));
    same::<Vcs>(
        "vcs_log",
        json!({ "vcs-dir": "/srv/repo" }),
        &["vcs", "-C", "/srv/repo", "log"],
    );
    // `from_global` fields read the root's globals: given, or defaulted.
    let coloured = same::<Vcs>(
        "vcs_log",
        json!({ "color": "always" }),
        &["vcs", "log", "--color", "always"],
    );
    let VcsCommand::Log { color, .. } = &coloured.command else {
        panic!("{coloured:?}")
    };
    assert_eq!(*color, When::Always);
    let VcsCommand::Log { color, .. } = &log.command else {
        panic!("{log:?}")
    };
    assert_eq!(*color, When::Auto);
    let quiet = same::<Vcs>(
        "vcs_remote_add",
        json!({ "name": "up", "url": "u", "quiet": true }),
        &["vcs", "remote", "add", "-q", "up", "u"],
    );
    assert!(matches!(
        quiet.command,
        VcsCommand::Remote(RemoteCommand::Add { quiet: true, .. })
    ));
    same::<CommitArgs>(
        "vcs-commit",
        json!({ "message": "m", "amend": true }),
        &["vcs-commit", "--amend", "-m", "m"],
    );
}

#[test]
fn vcs_refuses_what_clap_refuses() {
    let _env = env_lock();
    both_refuse::<Vcs>(
        "vcs_commit",
        json!({ "all": true }),
        &["vcs", "commit", "-a"],
        "message",
        "",
    );
    both_refuse::<Vcs>(
        "vcs_log",
        json!({ "max-count": -1 }),
        &["vcs", "log", "-n", "-1"],
        "max-count",
        "-1",
    );
    // A command-line spelling names the property to use instead.
    for spelling in ["limit", "n", "-l", "--max-count"] {
        refused::<Vcs>(
            "vcs_log",
            json!({ spelling: 3 }),
            spelling,
            "did you mean `max-count`?",
        );
    }
    // `num_args = REV_RANGE` (a constant), evaluated through clap.
    both_refuse::<Vcs>(
        "vcs_log",
        json!({ "revs": ["a", "b", "c"] }),
        &["vcs", "log", "--revs", "a", "b", "--revs", "c"],
        "revs",
        "1 to 2 values",
    );
    both_refuse::<Vcs>(
        "vcs_commit",
        json!({ "message": "m", "color": "sometimes" }),
        &["vcs", "commit", "-m", "m", "--color", "sometimes"],
        "color",
        "sometimes",
    );
}

// ---------------------------------------------------------------------------
// pkg: an enum as the root.

use tests::adopt::pkg::Pkg;

#[test]
fn pkg_has_parity_with_clap() {
    let _env = env_lock();
    assert_parity::<Pkg>();
}

#[test]
fn pkg_tools_are_its_variants_without_the_hidden_one() {
    let _env = env_lock();
    // `Debug` is hidden with `#[clap(hide = true)]`.
    assert_eq!(
        tool_names::<Pkg>(),
        ["pkg_install", "pkg_remove", "pkg_search"]
    );
    let spec = Pkg::command_spec();
    assert_eq!(spec.name, "pkg");
    assert!(spec.subcommand_required);
    assert!(spec.version.is_some());
}

#[test]
fn pkg_calls_build_what_clap_parses() {
    let _env = env_lock();
    same::<Pkg>(
        "pkg_install",
        json!({ "names": ["a", "b"], "yes": true, "verbose": 2 }),
        &["pkg", "install", "-y", "-vv", "a", "b"],
    );
    let removed = same::<Pkg>(
        "pkg_remove",
        json!({ "name": "a", "keep-config": true }),
        &["pkg", "rm", "--keep-config", "a"],
    );
    assert_eq!(
        removed,
        Pkg::Remove {
            name: "a".into(),
            purge: false
        }
    );
    same::<Pkg>(
        "pkg_remove",
        json!({ "name": "a" }),
        &["pkg", "remove", "a"],
    );
    same::<Pkg>(
        "pkg_search",
        json!({ "query": "x", "limit": 100 }),
        &["pkg", "search", "--limit", "100", "x"],
    );
}

#[test]
fn pkg_refuses_what_clap_refuses() {
    let _env = env_lock();
    for limit in ["0", "101"] {
        both_refuse::<Pkg>(
            "pkg_search",
            json!({ "query": "x", "limit": limit.parse::<i64>().unwrap() }),
            &["pkg", "search", "--limit", limit, "x"],
            "limit",
            limit,
        );
    }
    both_refuse::<Pkg>("pkg_install", json!({}), &["pkg", "install"], "names", "");
    both_refuse::<Pkg>(
        "pkg_install",
        json!({ "names": [] }),
        &["pkg", "install"],
        "names",
        "",
    );
    refused::<Pkg>("pkg_debug", json!({}), "pkg_debug", "unknown tool");
}

#[test]
fn pkg_reads_a_count_from_the_environment_as_clap_does() {
    let _env = env_lock();
    std::env::set_var("PKG_VERBOSE", "3");
    let built = same::<Pkg>(
        "pkg_install",
        json!({ "names": ["a"] }),
        &["pkg", "install", "a"],
    );
    assert!(matches!(built, Pkg::Install { verbose: 3, .. }));
    for bad in ["x", "256", "-1", ""] {
        std::env::set_var("PKG_VERBOSE", bad);
        both_refuse::<Pkg>(
            "pkg_install",
            json!({ "names": ["a"] }),
            &["pkg", "install", "a"],
            "verbose",
            "PKG_VERBOSE",
        );
    }
    std::env::remove_var("PKG_VERBOSE");
    std::env::set_var("PKG_YES", "true");
    let built = same::<Pkg>(
        "pkg_install",
        json!({ "names": ["a"] }),
        &["pkg", "install", "a"],
    );
    assert!(matches!(built, Pkg::Install { yes: true, .. }));
    std::env::remove_var("PKG_YES");
}

// ---------------------------------------------------------------------------
// conv: options from the environment, a positional named like a flag.

use tests::adopt::conv::{Conv, Format};

const CONV_VARS: [&str; 5] = [
    "CONV_INPUT",
    "CONV_TO",
    "CONV_WRAP",
    "CONV_TIMEOUT",
    "CONV_QUIET",
];

fn conv_env(vars: &[(&str, &str)]) {
    for name in CONV_VARS {
        std::env::remove_var(name);
    }
    for (name, value) in vars {
        std::env::set_var(name, value);
    }
}

#[test]
fn conv_has_parity_with_clap() {
    let _env = env_lock();
    conv_env(&[]);
    assert_parity::<Conv>();
}

#[test]
fn conv_names_the_positional_apart_from_the_flag() {
    let _env = env_lock();
    conv_env(&[]);
    let schema = schema::<Conv>("conv");
    let props = &schema["properties"];
    // `<input>` and `--input`: the flag keeps the name users type.
    assert!(
        props.get("input").is_some() && props.get("input-positional").is_some(),
        "{props}"
    );
    assert!(props["input"]["description"]
        .as_str()
        .is_some_and(|d| d.contains("[env: CONV_INPUT]")));
    // A parser of the tool's own: no duration pattern is promised.
    assert!(
        props["timeout"].get("pattern").is_none(),
        "{}",
        props["timeout"]
    );
    same::<Conv>(
        "conv",
        json!({ "input-positional": "a.md" }),
        &["conv", "a.md"],
    );
    same::<Conv>(
        "conv",
        json!({ "input": "a.md" }),
        &["conv", "--input", "a.md"],
    );
    refused::<Conv>(
        "conv",
        json!({ "input": "a.md", "input-positional": "b.md" }),
        "input",
        "cannot be used with",
    );
    both_refuse::<Conv>("conv", json!({}), &["conv"], "input-positional", "");
}

#[test]
fn conv_runs_a_type_erased_parser_through_clap() {
    let _env = env_lock();
    conv_env(&[]);
    // The CLI's own function reads the text: the property is that text.
    assert_eq!(
        schema::<Conv>("conv")["properties"]["level"]["type"],
        "string"
    );
    let conv = same::<Conv>(
        "conv",
        json!({ "input": "a", "level": "7" }),
        &["conv", "--input", "a", "--level", "7"],
    );
    assert_eq!(conv.level, Some(7));
    refused::<Conv>(
        "conv",
        json!({ "input": "a", "level": 7 }),
        "level",
        "string",
    );
    both_refuse::<Conv>(
        "conv",
        json!({ "input": "a", "level": "12" }),
        &["conv", "--input", "a", "--level", "12"],
        "level",
        "not a level from 0 to 9",
    );
    both_refuse::<Conv>(
        "conv",
        json!({ "input": "a", "level": "seven" }),
        &["conv", "--input", "a", "--level", "seven"],
        "level",
        "not a level from 0 to 9",
    );
}

#[test]
fn conv_reads_its_options_from_the_environment_as_clap_does() {
    let _env = env_lock();
    conv_env(&[
        ("CONV_INPUT", "in.md"),
        ("CONV_TO", "md"),
        ("CONV_WRAP", "100"),
        ("CONV_TIMEOUT", "2m"),
        ("CONV_QUIET", "true"),
    ]);
    let conv = same::<Conv>("conv", json!({}), &["conv"]);
    assert_eq!(conv.to, Format::Markdown, "an alias from the environment");
    assert_eq!(conv.timeout, Some(std::time::Duration::from_secs(120)));
    assert!(conv.quiet);
    let schema = schema::<Conv>("conv");
    assert_eq!(
        schema["properties"]["wrap"]["default"], 100,
        "the variable is the default"
    );
    // Given properties win.
    same::<Conv>(
        "conv",
        json!({ "to": "text", "wrap": 40 }),
        &["conv", "--to", "text", "--wrap", "40"],
    );
    // Even `false` for a flag, which no command line can say while the
    // variable is set (a documented difference).
    assert!(
        !build::<Conv>("conv", &json!({ "quiet": false }))
            .unwrap()
            .quiet
    );
    // The variable counts as given for relations, as in clap.
    both_refuse::<Conv>(
        "conv",
        json!({ "input-positional": "b.md" }),
        &["conv", "b.md"],
        "input",
        "cannot be used with",
    );
    for (name, bad, property) in [
        ("CONV_WRAP", "10", "wrap"),
        ("CONV_TIMEOUT", "soon", "timeout"),
        ("CONV_TO", "pdf", "to"),
    ] {
        conv_env(&[("CONV_INPUT", "in.md"), (name, bad)]);
        // The error names the variable the bad value came from.
        both_refuse::<Conv>("conv", json!({}), &["conv"], property, name);
        refused::<Conv>("conv", json!({}), property, &format!("{bad:?}"));
    }
    conv_env(&[]);
}

// `forms`: the clap forms real CLIs use that the bridge first met in them
// (`tests/src/adopt/forms.rs`).

use tests::adopt::forms::{Bump, Forms, FormsCommand, Layout, Paging};

#[test]
fn forms_have_parity_and_agree_with_clap() {
    let _env = env_lock();
    assert_parity::<Forms>();
    mcp_bridge::testing::assert_agrees_with_clap::<Forms>();
}

#[test]
fn a_hand_written_args_struct_adopts_with_no_code() {
    let _env = env_lock();
    // Its arguments, read from what its `augment_args` adds.
    let show = schema::<Forms>("forms_show");
    let properties = &show["properties"];
    assert_eq!(properties["no-pager"]["type"], "boolean");
    assert_eq!(properties["verbose"]["type"], "integer");
    assert_eq!(properties["exec"]["type"], "array");
    assert!(
        properties["pager"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("The pager to use") && d.contains("[env: FORMS_PAGER]")),
        "{show}"
    );
    // Its value, built by clap from the call's properties.
    let built = same::<Forms>(
        "forms_show",
        json!({"file": "a.txt", "pager": "less", "exec": ["wc", "-l"], "verbose": 2}),
        &[
            "forms", "show", "a.txt", "--pager", "less", "-vv", "-x", "wc", "-l", ";",
        ],
    );
    let FormsCommand::Show { paging, .. } = built.command else {
        panic!("{built:?}")
    };
    assert_eq!(
        paging,
        Paging {
            no_pager: false,
            pager: Some("less".into()),
            exec: Some(vec!["wc".into(), "-l".into()]),
            verbose: 2
        }
    );
    // What clap refuses, it refuses, naming the property.
    both_refuse::<Forms>(
        "forms_show",
        json!({"file": "a.txt", "pager": "less", "no-pager": true}),
        &["forms", "show", "a.txt", "--pager", "less", "--no-pager"],
        "pager",
        "cannot be used with",
    );
}

#[test]
fn boxed_and_optional_flattened_structs_build_as_clap_builds_them() {
    let _env = env_lock();
    same::<Forms>(
        "forms_run",
        json!({"target": "x", "jobs": 3, "only": ["a", "b"]}),
        &["forms", "run", "x", "-j", "3", "--only", "a", "--only", "b"],
    );
    // None when none of the struct's own arguments is given.
    let none = same::<Forms>(
        "forms_scope",
        json!({"all": true}),
        &["forms", "scope", "--all"],
    );
    assert!(matches!(
        none.command,
        FormsCommand::Scope { scope: None, .. }
    ));
    let some = same::<Forms>(
        "forms_scope",
        json!({"lang": "rust"}),
        &["forms", "scope", "--lang", "rust"],
    );
    assert!(matches!(
        some.command,
        FormsCommand::Scope { scope: Some(_), .. }
    ));
}

#[test]
fn bare_keys_and_parsers_mean_what_they_mean_to_clap() {
    let _env = env_lock();
    // Bare `action`: the type's default; bare `long_help`: the doc comment.
    let bump = schema::<Forms>("forms_bump");
    assert_eq!(bump["properties"]["quiet"]["type"], "boolean");
    assert_eq!(
        bump["properties"]["layout"]["description"],
        "Where the layout is read from. A second line of the same paragraph."
    );
    // `value_enum` next to a parser of another type: the parser wins.
    let built = same::<Forms>(
        "forms_bump",
        json!({"bump": "minor", "quiet": true}),
        &["forms", "bump", "--bump", "minor", "--quiet"],
    );
    let FormsCommand::Bump { bump, layout, .. } = built.command else {
        panic!()
    };
    assert_eq!(bump, Some(Bump::Specific("minor".into())));
    // A type clap makes `From<&str>`.
    assert_eq!(layout, Layout("GRID".into()));
    same::<Forms>(
        "forms_part",
        json!({"part": "major"}),
        &["forms", "part", "--part", "major"],
    );
    // A constant subcommand name; `#[structopt]` attributes.
    assert!(build::<Forms>("forms_legacy", &json!({"name": "n"})).is_ok());
    let names = tool_names::<Forms>();
    assert!(!names.iter().any(|n| n.contains("helper")), "{names:?}");
}

#[test]
fn defaults_that_depend_on_other_arguments_follow_them() {
    let _env = env_lock();
    let dump = |args: Value, argv: &[&str]| {
        let built = same::<Forms>("forms_dump", args, argv);
        let FormsCommand::Dump {
            color,
            border,
            mode,
            ..
        } = built.command
        else {
            panic!()
        };
        assert_eq!(mode, "flag");
        (color, border)
    };
    assert_eq!(
        dump(json!({}), &["forms", "dump"]),
        ("always".into(), "ascii".into())
    );
    assert_eq!(
        dump(json!({"plain": true}), &["forms", "dump", "--plain"]),
        ("never".into(), "none".into())
    );
    assert_eq!(
        dump(
            json!({"color": "never"}),
            &["forms", "dump", "--color", "never"]
        ),
        ("never".into(), "thick".into())
    );
    assert_eq!(
        dump(
            json!({"plain": true, "color": "auto"}),
            &["forms", "dump", "--plain", "--color", "auto"]
        ),
        ("auto".into(), "none".into())
    );
    let schema = schema::<Forms>("forms_dump");
    assert!(
        schema["properties"]["color"]["description"]
            .as_str()
            .is_some_and(|d| d.contains(r#"(default: "never" when `plain` is true)"#)),
        "{schema}"
    );
    // What a call giving nothing gets: `plain`'s own default is there
    // before `mode`'s, so `IsPresent` holds.
    assert_eq!(schema["properties"]["mode"]["default"], "flag");
    assert_eq!(schema["properties"]["color"]["default"], "always");
}

// `corners`: more clap corners real CLIs use (`tests/src/adopt/corners.rs`).

use tests::adopt::corners::Corners;

#[test]
fn corners_have_parity_and_agree_with_clap() {
    let _env = env_lock();
    assert_parity::<Corners>();
    mcp_bridge::testing::assert_agrees_with_clap::<Corners>();
}

#[test]
fn a_cli_declared_by_a_macro_rules_macro_builds_what_clap_parses() {
    use tests::adopt::corners::{Declared, DeclaredCommand, Kind};
    let _env = env_lock();
    assert_parity::<Declared>();
    mcp_bridge::testing::assert_agrees_with_clap::<Declared>();
    let built = same::<Declared>(
        "declared_add",
        json!({"words": ["a", "b"], "loud": 2, "kind": "dir", "keep": true}),
        &[
            "declared", "add", "a", "b", "-ll", "--kind", "dir", "--keep",
        ],
    );
    assert_eq!(
        built.command,
        DeclaredCommand::Add {
            words: vec!["a".into(), "b".into()],
            loud: 2,
            kind: Some(Kind::Dir),
            keep: true,
        }
    );
    assert_eq!(
        same::<Declared>("declared_add", json!({}), &["declared", "add"]).place,
        "here"
    );
}

#[test]
fn literal_defaults_are_shown_as_clap_shows_them() {
    use tests::adopt::corners::Literals;
    let _env = env_lock();
    assert_parity::<Literals>();
    mcp_bridge::testing::assert_agrees_with_clap::<Literals>();
    let schema = schema::<Literals>("literals");
    let defaults: Vec<(&str, Value)> = [
        "hex", "thousand", "low", "zero", "min", "paren", "bare", "name", "on",
    ]
    .into_iter()
    .map(|name| (name, schema["properties"][name]["default"].clone()))
    .collect();
    assert_eq!(
        defaults,
        [
            ("hex", json!(16)),
            ("thousand", json!(1000)),
            ("low", json!(-128)),
            ("zero", json!(0)),
            ("min", json!(i64::MIN)),
            ("paren", json!(7)),
            ("bare", json!(0)),
            ("name", json!("")),
            ("on", json!(true)),
        ]
    );
    same::<Literals>("literals", json!({}), &["literals"]);
    same::<Literals>(
        "literals",
        json!({"low": -1, "on": false}),
        &["literals", "--low=-1", "--on", "false"],
    );
}

#[test]
fn corners_build_what_clap_parses_and_say_it_in_the_schema() {
    use tests::adopt::corners::{ChildCommand, CornersCommand, Kind, ParentArgs};
    let _env = env_lock();
    // h: a positional and a flattened flag of one name both offered.
    let read = schema::<Corners>("corners_read");
    // The flag keeps its name, the positional is told apart.
    assert_eq!(read["properties"]["input"]["type"], "array", "{read}");
    assert_eq!(read["properties"]["input-positional"]["type"], "string");
    same::<Corners>(
        "corners_read",
        json!({"input-positional": "a", "input": ["b"], "stdin": true, "from-file": "f"}),
        &[
            "corners",
            "read",
            "a",
            "--input",
            "b",
            "--stdin",
            "--from-file",
            "f",
        ],
    );
    // i, j, u: delimited defaults split; a flag defaulting to true; "".
    let list = same::<Corners>("corners_list", json!({}), &["corners", "list"]);
    let CornersCommand::List {
        kinds,
        columns,
        quote,
        separator,
        ..
    } = list.command
    else {
        panic!()
    };
    assert_eq!(kinds, [Kind::File, Kind::Dir]);
    assert_eq!(columns, ["name", "size"]);
    assert!(quote);
    assert_eq!(separator, "");
    let list = schema::<Corners>("corners_list");
    assert_eq!(
        list["properties"]["kinds"]["default"],
        json!(["file", "dir"])
    );
    assert_eq!(
        list["properties"]["columns"]["default"],
        json!(["name", "size"])
    );
    // A flag's property says whether it is given (`false`: left out).
    assert_eq!(list["properties"]["quote"]["default"], false);
    assert_eq!(list["properties"]["separator"]["default"], "");
    // A parser that panics (the command line crashes): the call is refused.
    refused::<Corners>("corners_list", json!({"info": "top"}), "info", "panicked");
    // `default_values = CONSTANT`, evaluated as clap evaluates it.
    assert_eq!(list["properties"]["widths"]["default"], json!([8, 16]));
    // `mut_arg`: the variant's change to a flattened argument's help.
    assert_eq!(
        read["properties"]["stdin"]["description"],
        "Read the standard input as well"
    );
    // ... and a struct's own, on its argument.
    assert_eq!(
        read["properties"]["input"]["description"],
        "More inputs, one flag each"
    );
    // l: ignore_case with a constant list gives the value as given.
    same::<Corners>(
        "corners_list",
        json!({"order": "top", "group-order": "NEW"}),
        &["corners", "list", "--order", "top", "--group-order", "NEW"],
    );
    // m: a later positional needs the earlier, and the schema says so.
    // (no command line gives `second` alone: `copy b` gives `first`.)
    refused::<Corners>(
        "corners_copy",
        json!({"second": "b"}),
        "second",
        "requires `first`",
    );
    let copy = schema::<Corners>("corners_copy");
    assert!(copy.to_string().contains("first"), "{copy}");
    // n: the child's `show-logs` is the child's alone.
    let child = same::<Corners>(
        "corners_parent_child",
        json!({"show-logs": true}),
        &["corners", "parent", "child", "--show-logs"],
    );
    assert_eq!(
        child.command,
        CornersCommand::Parent(ParentArgs {
            show_logs: false,
            restore: None,
            child: Some(ChildCommand::Child { show_logs: true })
        })
    );
    // A parent's option given no values, with a child: the command line
    // needs another parent option between them.
    let restore = same::<Corners>(
        "corners_parent_child",
        json!({"restore": [], "parent-show-logs": true}),
        &["corners", "parent", "-r", "--show-logs", "child"],
    );
    assert_eq!(
        restore.command,
        CornersCommand::Parent(ParentArgs {
            show_logs: true,
            restore: Some(vec![]),
            child: Some(ChildCommand::Child { show_logs: false })
        })
    );
    // o: a conflicting argument waives `required`.
    same::<Corners>(
        "corners_fetch",
        json!({"generate": "man"}),
        &["corners", "fetch", "--generate", "man"],
    );
    // p: NonZero integers are integers of at least 1.
    let sizes = schema::<Corners>("corners_sizes");
    assert_eq!(sizes["properties"]["size"]["type"], "integer");
    assert_eq!(sizes["properties"]["size"]["minimum"], 1);
    assert_eq!(sizes["properties"]["level"]["minimum"], 1);
    refused::<Corners>(
        "corners_sizes",
        json!({"size": 0}),
        "size",
        "expected an integer ≥ 1, got 0",
    );
    // A requirement is waived by an argument in conflict with its target,
    // as clap waives it.
    same::<Corners>(
        "corners_show",
        json!({"edit": true, "render": "page.md"}),
        &["corners", "show", "--edit", "--render", "page.md"],
    );
    refused::<Corners>(
        "corners_show",
        json!({"edit": true}),
        "edit",
        "requires `page`",
    );
    // A default that follows a group (any member given, or set by its
    // variable), said in the description.
    let convert = same::<Corners>(
        "corners_convert",
        json!({"naive": true}),
        &["corners", "convert", "--naive"],
    );
    assert!(matches!(
        convert.command,
        CornersCommand::Convert { ref actions, .. } if actions.german
    ));
    let convert = schema::<Corners>("corners_convert");
    assert!(
        convert["properties"]["german"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("when `prefer-original` or `naive` is given")),
        "{convert}"
    );
    // r: an external subcommand is a tool taking the command and its words.
    let plugin = schema::<Corners>("corners_plugin");
    assert_eq!(plugin["required"], json!(["command"]), "{plugin}");
    assert_eq!(plugin["properties"]["args"]["type"], "array");
    let built = same::<Corners>(
        "corners_plugin",
        json!({"command": "lint", "args": ["--fix", "src"]}),
        &["corners", "lint", "--fix", "src"],
    );
    assert_eq!(
        built.command,
        CornersCommand::Plugin(vec!["lint".into(), "--fix".into(), "src".into()])
    );
    refused::<Corners>(
        "corners_plugin",
        json!({"command": "copy"}),
        "command",
        "one of this CLI's own commands",
    );
    refused::<Corners>(
        "corners_plugin",
        json!({"command": "help"}),
        "command",
        "own",
    );
    refused::<Corners>(
        "corners_plugin",
        json!({"command": "-v"}),
        "command",
        "option",
    );
    // q: a value that may be left out: `null` is `--color` alone.
    same::<Corners>(
        "corners_toggle",
        json!({"color": null}),
        &["corners", "toggle", "--color"],
    );
    same::<Corners>(
        "corners_toggle",
        json!({"color": false}),
        &["corners", "toggle", "--color=false"],
    );
    // A `()` flag that overrides another is a property (alone it changes
    // nothing; with the other, the call has no order to say which wins).
    let toggle = schema::<Corners>("corners_toggle");
    assert_eq!(toggle["properties"]["panel"]["type"], "boolean", "{toggle}");
    same::<Corners>(
        "corners_toggle",
        json!({"panel": true}),
        &["corners", "toggle", "--panel"],
    );
    refused::<Corners>(
        "corners_toggle",
        json!({"panel": true, "no-panel": true}),
        "panel",
        "no-panel",
    );
}
