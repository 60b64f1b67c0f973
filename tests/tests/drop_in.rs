//! `mcp_bridge::parse::<Cli>()`, the drop-in for `Cli::parse()`: the
//! example `tally`, whose `main` reads an environment variable, prints
//! with `println!` and ends with `std::process::exit`, is served with that
//! one line changed. Each call runs its `main` in a process of its own,
//! and prints what the same command line prints; the command line itself
//! is clap's, errors and exit codes included.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clap::{Parser, Subcommand};
use common::raw::RawServer;
use mcp_bridge::McpTool;
use serde_json::{json, Value};

/// The example, built once per test process.
fn tally() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| common::example_bin("tally"))
}

/// Files for the calls, in a scratch folder.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "one two\nthree\nfour five six\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "Three\nseven\n").unwrap();
    dir
}

/// `tally <args>` run in `dir`: its stdout, stderr and exit code.
fn command_line(dir: &Path, args: &[&str]) -> (String, String, i64) {
    let output = Command::new(tally())
        .args(args)
        .current_dir(dir)
        .env("TALLY_SEPARATOR", " | ")
        .output()
        .unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        i64::from(output.status.code().unwrap()),
    )
}

fn server(dir: &Path) -> RawServer {
    let mut command = Command::new(tally());
    command
        .args(["mcp", "serve"])
        .current_dir(dir)
        .env("TALLY_SEPARATOR", " | ");
    let mut server = RawServer::spawn(command);
    server.initialize();
    server
}

#[test]
fn each_call_runs_the_cli_s_own_main_and_prints_what_its_command_line_prints() {
    let dir = scratch();
    let mut server = server(dir.path());
    let mut tools = server.tools_list(1);
    tools.sort();
    assert_eq!(tools, ["tally_count", "tally_find"]);
    let cases: [(&str, Value, &[&str]); 5] = [
        (
            "tally_count",
            json!({"files": ["a.txt", "b.txt"]}),
            &["count", "a.txt", "b.txt"],
        ),
        (
            "tally_count",
            json!({"files": ["a.txt"], "lines": true, "short-names": true}),
            &["count", "--lines", "--short-names", "a.txt"],
        ),
        (
            "tally_find",
            json!({"word": "three", "files": ["a.txt", "b.txt"], "ignore-case": true}),
            &["find", "-i", "three", "a.txt", "b.txt"],
        ),
        // The CLI's own exit codes: 1 for nothing found, 2 for a file
        // it cannot read.
        (
            "tally_find",
            json!({"word": "eight", "files": ["a.txt"]}),
            &["find", "eight", "a.txt"],
        ),
        (
            "tally_count",
            json!({"files": ["a.txt", "missing.txt"]}),
            &["count", "a.txt", "missing.txt"],
        ),
    ];
    for (id, (tool, arguments, args)) in (10..).zip(cases) {
        let result = server.call(id, tool, arguments.clone());
        let called = common::outcome(&result);
        let expected = command_line(dir.path(), args);
        assert_eq!(
            called, expected,
            "{tool} {arguments} against tally {args:?}"
        );
        assert!(
            !called.0.is_empty() || called.2 != 0,
            "{tool}: it ran: {called:?}"
        );
    }
    // Bad arguments are refused before a process starts, naming the tool
    // and the argument; the server goes on.
    let refused = server.call(20, "tally_count", json!({"files": "a.txt"}));
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("files"), "{text}");
    let again = common::outcome(&server.call(21, "tally_count", json!({"files": ["b.txt"]})));
    assert_eq!(again, command_line(dir.path(), &["count", "b.txt"]));
    server.assert_stdout_pure();
    server.finish();
}

/// A root option the operator gave before `mcp` (`tally --short-names mcp
/// serve`) holds in every call: the child, whose own table pins nothing,
/// is handed it with the call's arguments.
#[test]
fn an_option_pinned_by_the_operator_holds_in_each_call_s_process() {
    let dir = scratch();
    let mut command = Command::new(tally());
    command
        .args(["--short-names", "mcp", "serve"])
        .current_dir(dir.path())
        .env("TALLY_SEPARATOR", " | ");
    let mut server = RawServer::spawn(command);
    server.initialize();
    server.tools_list(1);
    let path = dir.path().join("a.txt").display().to_string();
    let called = common::outcome(&server.call(2, "tally_count", json!({"files": [path]})));
    let expected = command_line(dir.path(), &["--short-names", "count", &path]);
    assert_eq!(called, expected);
    assert!(called.0.ends_with(" | a.txt\n"), "{called:?}");
    // And a call may not give it.
    let refused = server.call(
        3,
        "tally_count",
        json!({"files": ["a.txt"], "short-names": false}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    server.assert_stdout_pure();
    server.finish();
}

#[test]
fn the_command_line_is_clap_s_errors_and_exit_codes_included() {
    let dir = scratch();
    let (out, err, code) = command_line(dir.path(), &["count", "--bogus", "a.txt"]);
    assert_eq!((out.as_str(), code), ("", 2), "{err}");
    assert!(err.contains("unexpected argument '--bogus'"), "{err}");
    let (out, _, code) = command_line(dir.path(), &["--version"]);
    assert_eq!((out.as_str(), code), ("tally 0.1.0\n", 0));
    // `mcp tools` lists what `mcp serve` serves, and nothing else runs.
    let (out, err, code) = command_line(dir.path(), &["mcp", "tools"]);
    assert_eq!(code, 0, "{err}");
    let listed: Value = serde_json::from_str(&out).unwrap();
    assert!(listed.to_string().contains("tally_find"), "{listed}");
}

/// The in-process side of the drop-ins: on a command line they return
/// what clap's functions return.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "shelf")]
struct Shelf {
    #[arg(long)]
    dry: bool,
    #[command(subcommand)]
    command: ShelfCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
enum ShelfCommand {
    /// Put a book on the shelf
    Put { title: String },
}

#[test]
fn on_a_command_line_the_drop_ins_return_what_clap_s_functions_return() {
    for args in [
        &["shelf", "put", "Dune"][..],
        &["shelf", "--dry", "put", "mcp"],
        &["shelf", "put", "--", "mcp"],
    ] {
        assert_eq!(
            mcp_bridge::try_parse_from::<Shelf>(args).unwrap(),
            Shelf::try_parse_from(args).unwrap(),
            "{args:?}"
        );
    }
    for args in [
        &["shelf", "take"][..],
        &["shelf"],
        &["shelf", "put"],
        &["shelf", "--help"],
    ] {
        let ours = mcp_bridge::try_parse_from::<Shelf>(args).unwrap_err();
        let clap = Shelf::try_parse_from(args).unwrap_err();
        assert_eq!(
            (ours.kind(), ours.to_string()),
            (clap.kind(), clap.to_string()),
            "{args:?}"
        );
    }
}

/// An async `main` (`#[tokio::main]`) parses on a runtime's thread: the
/// server runs beside it, and each call runs that `main` in its process.
#[test]
fn an_async_main_is_served_and_each_call_runs_it() {
    let bin = env!("CARGO_BIN_EXE_async_drop_in");
    let mut command = Command::new(bin);
    command.args(["mcp", "serve"]);
    let mut server = RawServer::spawn(command);
    server.initialize();
    assert_eq!(server.tools_list(1), ["pause"]);
    let result = server.call(
        2,
        "pause",
        json!({"words": ["slow", "hello"], "millis": 20}),
    );
    let direct = Command::new(bin)
        .args(["--millis", "20", "slow", "hello"])
        .output()
        .unwrap();
    assert_eq!(
        common::outcome(&result),
        (String::from_utf8(direct.stdout).unwrap(), String::new(), 0)
    );
    server.assert_stdout_pure();
    server.finish();
}

/// A CLI's options may hold what is not `Send` (skim's hold `Rc`s): the
/// drop-ins take it, since the value never leaves the thread it is built
/// on (the server builds it only to check a call's arguments).
#[derive(Parser, McpTool, Debug)]
#[command(name = "local")]
struct Local {
    name: String,
    #[arg(skip)]
    seen: std::rc::Rc<std::cell::Cell<u8>>,
}

#[test]
fn a_cli_whose_options_are_not_send_adopts_through_the_drop_ins() {
    let local = mcp_bridge::try_parse_from::<Local>(["local", "x"]).unwrap();
    local.seen.set(1);
    assert_eq!((local.name.as_str(), local.seen.get()), ("x", 1));
    mcp_bridge::testing::assert_parity::<Local>();
}

/// `mcp_bridge::get_matches_from::<Cli>(cmd, args)`, the drop-in for
/// `cmd.get_matches_from(args)`, for a `main` that reads clap's matches
/// itself (`value_source`) on a command it changed: each call runs that
/// `main` on the matches of the command line that says the call, and
/// prints what that command line prints, where each value came from
/// included.
#[test]
fn a_main_reading_clap_s_matches_gets_those_of_the_call_s_command_line() {
    let bin = env!("CARGO_BIN_EXE_matches_drop_in");
    let mut command = Command::new(bin);
    command.args(["mcp", "serve"]);
    let mut server = RawServer::spawn(command);
    server.initialize();
    assert_eq!(
        server.tools_list(1),
        ["sayer_say", "sayer_count", "sayer_plugin"]
    );
    let cases: [(&str, Value, &[&str]); 7] = [
        (
            "sayer_say",
            json!({"words": ["hello", "-world", "--x"], "upper": true}),
            &["say", "--upper", "--", "hello", "-world", "--x"],
        ),
        (
            "sayer_say",
            json!({"words": ["a", "b"], "separator": "-", "verbose": 2}),
            &["-vv", "say", "--separator", "-", "a", "b"],
        ),
        ("sayer_count", json!({}), &["count"]),
        ("sayer_count", json!({"to": 5}), &["count", "--to", "5"]),
        // Exit code 3, from the CLI's own `process::exit`.
        ("sayer_count", json!({"to": -1}), &["count", "--to=-1"]),
        // An external subcommand, with the root's option before it.
        (
            "sayer_plugin",
            json!({"command": "plug", "args": ["x", "-y"], "verbose": 1}),
            &["-v", "plug", "x", "-y"],
        ),
        ("sayer_plugin", json!({"command": "plug"}), &["plug"]),
    ];
    for (id, (tool, arguments, argv)) in cases.into_iter().enumerate() {
        let result = server.call(id as i64 + 2, tool, arguments.clone());
        let direct = Command::new(bin).args(argv).output().unwrap();
        assert_eq!(
            common::outcome(&result),
            (
                String::from_utf8(direct.stdout).unwrap(),
                String::from_utf8(direct.stderr).unwrap(),
                i64::from(direct.status.code().unwrap())
            ),
            "{tool} {arguments} against {argv:?}"
        );
    }
    // Bad arguments are refused by the server, naming the tool and the
    // argument, before any process starts.
    let refused = server.call(20, "sayer_count", json!({"to": "many"}));
    let text = refused.to_string();
    assert!(
        text.contains("isError") && text.contains("`to`"),
        "{refused}"
    );
    server.assert_stdout_pure();
    server.finish();

    // A switch given `false` while its variable is set: the typed value
    // says so, but no command line does, so the child refuses the call,
    // naming the tool, the property and the variable.
    let mut command = Command::new(bin);
    command.args(["mcp", "serve"]).env("SAYER_UPPER", "true");
    let mut server = RawServer::spawn(command);
    server.initialize();
    let (stdout, stderr, code) =
        common::outcome(&server.call(2, "sayer_say", json!({"words": ["quiet"], "upper": false})));
    assert_eq!((stdout.as_str(), code), ("", 2), "{stderr}");
    for named in ["sayer_say", "`upper`", "SAYER_UPPER"] {
        assert!(stderr.contains(named), "{named} in {stderr}");
    }
    // Left to the variable, it runs.
    let (stdout, _, code) =
        common::outcome(&server.call(3, "sayer_say", json!({"words": ["loud"]})));
    assert_eq!(
        (stdout.as_str(), code),
        (
            "early look: verbose 0\nsay: LOUD\nseparator default, verbose 0\n",
            0
        )
    );
    server.finish();

    // On a command line, clap's own method on the CLI's command: its
    // errors and exit codes.
    let direct = Command::new(bin).args(["count", "--to"]).output().unwrap();
    assert_eq!(direct.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&direct.stderr).contains("a value is required"));
}

/// The matches drop-ins, on a command line: what clap's methods return.
#[test]
fn on_a_command_line_the_matches_drop_ins_return_what_clap_s_methods_return() {
    use clap::CommandFactory;
    for argv in [
        &["shelf", "--dry", "put", "Dune"][..],
        &["shelf", "put", "--", "mcp"],
    ] {
        let clap = format!("{:?}", Shelf::command().get_matches_from(argv));
        let ours = mcp_bridge::get_matches_from::<Shelf>(Shelf::command(), argv);
        assert_eq!(format!("{ours:?}"), clap);
        let mut cmd = Shelf::command();
        let ours = mcp_bridge::try_get_matches_from_mut::<Shelf>(&mut cmd, argv).unwrap();
        assert_eq!(format!("{ours:?}"), clap);
    }
    for bad in [&["shelf", "take"][..], &["shelf", "--help"]] {
        let ours = mcp_bridge::try_get_matches_from::<Shelf>(Shelf::command(), bad).unwrap_err();
        let clap = Shelf::command().try_get_matches_from(bad).unwrap_err();
        assert_eq!(
            (ours.kind(), ours.to_string()),
            (clap.kind(), clap.to_string())
        );
    }
}
