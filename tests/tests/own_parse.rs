//! A CLI that changes its `clap::Command` at run time, or parses its
//! command line its own way, keeps doing so with the bridge
//! (`Bridge::command`, `Bridge::parse_with`): CLI mode runs the CLI's own
//! parse, and only the bridge's command is added. Run in-process through
//! `Bridge::run_from`.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Mutex;

use clap::{Arg, ArgAction, Parser, Subcommand};
use mcp_bridge::{Bridge, McpTool};

#[derive(Parser, McpTool, Debug, Clone, PartialEq)]
#[command(name = "shade")]
struct Shade {
    /// Color the output
    #[arg(long)]
    color: bool,
    /// The palette file
    #[arg(long)]
    palette: Option<String>,
    #[command(subcommand)]
    command: ShadeCommand,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
enum ShadeCommand {
    /// Paint a wall
    Paint {
        /// The wall
        wall: String,
    },
}

/// What each run of the handler was given, by test.
static SEEN: Mutex<Vec<(&'static str, Shade)>> = Mutex::new(Vec::new());

fn seen(test: &'static str) -> Vec<Shade> {
    SEEN.lock()
        .unwrap()
        .iter()
        .filter(|(t, _)| *t == test)
        .map(|(_, s)| s.clone())
        .collect()
}

fn paint(wall: &str, color: bool) -> Shade {
    Shade {
        color,
        palette: None,
        command: ShadeCommand::Paint { wall: wall.into() },
    }
}

/// `--no-color`, added at run time as CLIs add negations.
fn with_negations(cmd: clap::Command) -> clap::Command {
    cmd.mut_arg("color", |arg| arg.overrides_with("no-color"))
        .arg(
            Arg::new("no-color")
                .long("no-color")
                .action(ArgAction::SetTrue)
                .overrides_with("color"),
        )
}

fn tools_of(bridge: Bridge<Shade>, before: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tools.json");
    let mut args: Vec<OsString> = vec!["shade".into()];
    args.extend(before.iter().map(OsString::from));
    args.extend(["mcp", "tools", "--output"].map(OsString::from));
    args.push(out.clone().into());
    assert_eq!(bridge.run_from(args), ExitCode::SUCCESS);
    std::fs::read_to_string(out).expect("the tools were written")
}

#[test]
fn a_changed_command_parses_the_command_line_and_the_tools_stay_the_derives() {
    let bridge = || {
        Bridge::new(|cli: Shade| SEEN.lock().unwrap().push(("command", cli)))
            .command(with_negations)
    };
    let run = |args: &[&str]| bridge().run_from(args.iter().copied());
    assert_eq!(
        run(&["shade", "--color", "--no-color", "paint", "north"]),
        ExitCode::SUCCESS
    );
    assert_eq!(
        run(&["shade", "--no-color", "--color", "paint", "south"]),
        ExitCode::SUCCESS
    );
    assert_eq!(
        seen("command"),
        [paint("north", false), paint("south", true)]
    );
    // The bridge is still there; the negation is the command line's only.
    let tools = tools_of(bridge(), &[]);
    assert!(tools.contains("shade_paint"), "{tools}");
    assert!(!tools.contains("no-color"), "{tools}");
}

/// `@file` arguments expanded, one argument a line, as some CLIs do.
fn expand_argfiles(args: Vec<OsString>) -> Shade {
    let mut expanded = Vec::new();
    for arg in args {
        match arg.to_str().and_then(|a| a.strip_prefix('@')) {
            Some(path) => expanded.extend(
                std::fs::read_to_string(path)
                    .expect("an argument file")
                    .lines()
                    .map(OsString::from),
            ),
            None => expanded.push(arg),
        }
    }
    Shade::parse_from(expanded)
}

#[test]
fn the_clis_own_parse_runs_in_cli_mode_and_the_bridge_still_answers() {
    let bridge = || {
        Bridge::new(|cli: Shade| SEEN.lock().unwrap().push(("parse", cli)))
            .parse_with(expand_argfiles)
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("args");
    std::fs::write(&file, "--color\npaint\neast\n").unwrap();
    let at = format!("@{}", file.display());
    assert_eq!(bridge().run_from(["shade", at.as_str()]), ExitCode::SUCCESS);
    assert_eq!(seen("parse"), [paint("east", true)]);
    // `mcp` first, or after root options the derive's command reads.
    let tools = tools_of(bridge(), &[]);
    assert!(tools.contains("shade_paint"), "{tools}");
    let tools = tools_of(bridge(), &["--palette", "warm.toml"]);
    assert!(tools.contains("shade_paint"), "{tools}");
    // A word `mcp` elsewhere is the CLI's: a wall called `mcp`.
    assert_eq!(
        bridge().run_from(["shade", "paint", "mcp"]),
        ExitCode::SUCCESS
    );
    assert_eq!(seen("parse"), [paint("east", true), paint("mcp", false)]);
}

#[test]
fn an_abbreviated_bridge_command_reaches_the_bridge_under_infer_subcommands() {
    // In CLI mode the bridge's command is a stand-in until an argument
    // names it; an abbreviation clap infers picks the stand-in, and the
    // parse runs again with the bridge's real command.
    let bridge = Bridge::new(|cli: Shade| SEEN.lock().unwrap().push(("infer", cli)))
        .command(|cmd| cmd.infer_subcommands(true));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tools.json");
    let args: Vec<OsString> = ["shade", "--palette", "warm", "mc", "tools", "--output"]
        .map(OsString::from)
        .into_iter()
        .chain([out.clone().into_os_string()])
        .collect();
    assert_eq!(bridge.run_from(args), ExitCode::SUCCESS);
    let tools = std::fs::read_to_string(out).expect("the tools were written");
    assert!(tools.contains("shade_paint"), "{tools}");
    // `--palette` given before the bridge's name is pinned: not offered.
    assert!(!tools.contains("palette"), "{tools}");
    // The CLI's own commands are still inferred as before.
    let bridge = Bridge::new(|cli: Shade| SEEN.lock().unwrap().push(("infer", cli)))
        .command(|cmd| cmd.infer_subcommands(true));
    assert_eq!(bridge.run_from(["shade", "pa", "east"]), ExitCode::SUCCESS);
    assert_eq!(seen("infer"), [paint("east", false)]);
}
