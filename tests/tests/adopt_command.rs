//! `cargo mcp-bridge adopt` and `remove` on a CLI package written here:
//! the derives, the parse call, the dependency and the test are added at
//! their places and nothing else changes; a second run changes nothing;
//! `remove` puts every file back byte for byte; a file that cannot be
//! parsed is named and left alone; and the adopted CLI builds, passes the
//! added test, and serves its commands, each call printing what its
//! command line prints.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::raw::RawServer;
use serde_json::json;

/// The tool, built once per test process.
fn tool() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let workspace = common::workspace_root();
        let built = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "mcp-bridge", "--features", "adopt"])
            .args(["--bin", "cargo-mcp-bridge"])
            .current_dir(&workspace)
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| workspace.join("target"), |dir| workspace.join(dir));
        target
            .join("debug")
            .join(format!("cargo-mcp-bridge{}", std::env::consts::EXE_SUFFIX))
    })
}

const MANIFEST: &str = r#"[package]
name = "shelf"
version = "0.1.0"
edition = "2021"

[dependencies]
# the parser
clap = { version = "4.5", features = ["derive"] }

[workspace]
"#;

const MAIN: &str = r#"//! Shelves books.

mod cli;

use clap::Parser;
use cli::{Cli, Command};

fn main() {
    let cli = Cli::parse();
    let shelf = std::env::var("SHELF_NAME").unwrap_or_else(|_| "home".to_owned());
    match cli.command {
        Command::Put(put) => {
            let author = put.author.as_deref().unwrap_or("nobody");
            println!("{shelf}: put {:?} by {author} in {}", put.title, cli.file);
        }
        Command::List { order } => {
            println!("{shelf}: {} by {order:?}", cli.file);
            if cli.file.is_empty() {
                std::process::exit(3);
            }
        }
    }
}
"#;

const CLI: &str = r#"use clap::{Args, Parser, Subcommand, ValueEnum};

/// Shelves books.
#[derive(Parser, Debug)]
#[command(name = "shelf", version)]
pub struct Cli {
    /// Where the shelf is
    #[arg(long, global = true, default_value = "shelf.txt")]
    pub file: String,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Put a book on the shelf
    Put(Put),
    /// List the books
    List {
        /// The order
        #[arg(long, value_enum, default_value_t = Order::Title)]
        order: Order,
    },
}

#[derive(
    Args,
    Debug, // keep this comment
)]
pub struct Put {
    /// The title
    pub title: String,
    /// Who wrote it
    #[arg(short, long)]
    pub author: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Order {
    Title,
    Author,
}
"#;

/// Not clap's: a parser generator's derive of the same name (not a module
/// of the package, so not compiled).
const GRAMMAR: &str =
    "use pest_derive::Parser;\n\n#[derive(Parser)]\n#[grammar = \"shelf.pest\"]\nstruct Shelf;\n";

/// Not a module of the package: a draft that does not parse.
const DRAFT: &str = "fn half( {\n";

/// The package, in a scratch folder.
fn package() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("Cargo.toml", MANIFEST);
    write("src/main.rs", MAIN);
    write("src/cli.rs", CLI);
    write("src/notes/draft.rs", DRAFT);
    write("src/notes/grammar.rs", GRAMMAR);
    dir
}

/// Every file of the package, by path, without what builds write.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(base).unwrap().display().to_string();
            if name == "target" || name == "Cargo.lock" {
                continue;
            }
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(tool())
        .arg("mcp-bridge")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn text(dir: &Path, path: &str) -> String {
    std::fs::read_to_string(dir.join(path)).unwrap()
}

#[test]
fn adopt_edits_in_place_a_second_run_changes_nothing_and_remove_restores_every_byte() {
    let checkout = common::workspace_root().canonicalize().unwrap();
    let path = checkout.display().to_string();
    for feature in [None, Some("mcp")] {
        let dir = package();
        let before = files(dir.path());
        let mut args = vec!["adopt", "--no-check", "--path", path.as_str()];
        args.extend(feature.map(|f| ["--feature", f]).into_iter().flatten());

        // --dry-run: the diff, and nothing written.
        let mut dry = args.clone();
        dry.push("--dry-run");
        let shown = String::from_utf8(run(dir.path(), &dry).stdout).unwrap();
        assert_eq!(files(dir.path()), before, "--dry-run wrote nothing");
        for expected in [
            "--- a/src/cli.rs",
            "+++ b/src/main.rs",
            "+++ b/Cargo.toml",
            "+mcp-bridge = ",
        ] {
            assert!(shown.contains(expected), "{expected} in:\n{shown}");
        }

        let adopted = run(dir.path(), &args);
        let said = String::from_utf8(adopted.stderr).unwrap();
        assert!(
            said.contains("src/notes/draft.rs:1:"),
            "the draft is named: {said}"
        );
        assert!(said.contains("left as it is"), "{said}");
        assert_eq!(text(dir.path(), "src/notes/draft.rs"), DRAFT);
        let cli = text(dir.path(), "src/cli.rs");
        let main = text(dir.path(), "src/main.rs");
        let manifest = text(dir.path(), "Cargo.toml");
        match feature {
            None => {
                assert!(
                    cli.contains("#[derive(Parser, Debug, mcp_bridge::McpTool)]\n"),
                    "{cli}"
                );
                assert!(
                    cli.contains("#[derive(Subcommand, Debug, mcp_bridge::McpTool)]\n"),
                    "{cli}"
                );
                assert!(
                    cli.contains("    Debug, mcp_bridge::McpTool, // keep this comment\n"),
                    "{cli}"
                );
                assert!(
                    main.contains("    let cli = mcp_bridge::parse::<Cli>();\n"),
                    "{main}"
                );
                assert!(
                    said.contains("`use clap::Parser;` is not needed there"),
                    "{said}"
                );
                assert!(manifest.contains(&format!(
                    "clap = {{ version = \"4.5\", features = [\"derive\"] }}\nmcp-bridge = {{ path = \"{}\" }}\n",
                    checkout.join("mcp-bridge").display()
                )), "{manifest}");
            }
            Some(_) => {
                let derive = "#[cfg_attr(feature = \"mcp\", derive(mcp_bridge::McpTool))]\n";
                assert_eq!(cli.matches(derive).count(), 3, "{cli}");
                assert!(
                    cli.contains(&format!("#[derive(Parser, Debug)]\n{derive}")),
                    "{cli}"
                );
                assert!(
                    main.contains("#[cfg(not(feature = \"mcp\"))] let cli = Cli::parse();"),
                    "{main}"
                );
                assert!(manifest.contains("optional = true"), "{manifest}");
                assert!(
                    manifest.contains("[features]\nmcp = [\"dep:mcp-bridge\"]\n"),
                    "{manifest}"
                );
            }
        }
        // The value enum and the other crate's derive are left alone.
        assert!(
            cli.contains("#[derive(Clone, Copy, Debug, ValueEnum)]\n"),
            "{cli}"
        );
        assert_eq!(text(dir.path(), "src/notes/grammar.rs"), GRAMMAR);
        assert!(cli.contains("mod mcp_bridge_adoption {"), "{cli}");
        assert!(
            cli.contains("mcp_bridge::testing::assert_agrees_with_clap::<super::Cli>();"),
            "{cli}"
        );
        assert!(
            manifest.contains("[dev-dependencies]\nmcp-bridge = "),
            "{manifest}"
        );

        // Idempotent: a second run changes no byte.
        let once = files(dir.path());
        let again = run(dir.path(), &args);
        assert_eq!(files(dir.path()), once, "a second adopt changed something");
        let said = String::from_utf8(again.stderr).unwrap();
        assert!(said.contains("nothing to change"), "{said}");

        // remove: every file as it was.
        run(dir.path(), &["remove", "--dry-run"]);
        assert_eq!(files(dir.path()), once, "remove --dry-run wrote nothing");
        run(dir.path(), &["remove"]);
        assert_eq!(files(dir.path()), before, "remove after adopt {feature:?}");
    }
}

#[test]
fn remove_finds_what_adopt_wrote_after_a_formatter_ran() {
    let dir = package();
    let before = files(dir.path());
    let path = common::workspace_root().display().to_string();
    run(
        dir.path(),
        &["adopt", "--no-check", "--feature", "mcp", "--path", &path],
    );
    // What rustfmt makes of the call (its own lines), written by hand.
    let main = text(dir.path(), "src/main.rs").replace(
        "{ #[cfg(feature = \"mcp\")] let cli = mcp_bridge::parse::<Cli>(); \
         #[cfg(not(feature = \"mcp\"))] let cli = Cli::parse(); cli }",
        "{\n        #[cfg(feature = \"mcp\")]\n        let cli = mcp_bridge::parse::<Cli>();\n        \
         #[cfg(not(feature = \"mcp\"))]\n        let cli = Cli::parse();\n        cli\n    }",
    );
    std::fs::write(dir.path().join("src/main.rs"), &main).unwrap();
    run(dir.path(), &["remove"]);
    assert_eq!(files(dir.path()), before);
}

/// A CLI declared in an inline module of `main.rs`, its root private
/// there and parsed by `Self::parse()` in its own `impl`, with an `Args`
/// struct declared by a `macro_rules!`.
const INLINE: &str = r#"mod cli {
    use clap::{Args, Parser};

    macro_rules! options {
        ($name:ident) => {
            #[derive(Args, Debug)]
            pub struct $name {
                /// Say more
                #[arg(long)]
                loud: bool,
            }
        };
    }
    options!(Options);

    /// Greets.
    #[derive(Parser, Debug)]
    #[command(name = "hi")]
    struct Cli {
        /// Who
        name: String,
        #[command(flatten)]
        options: Options,
    }

    impl Cli {
        fn read() -> Self {
            Self::parse()
        }
    }

    pub fn run() {
        let cli = Cli::read();
        println!("hi {}{}", cli.name, if cli.options.loud { "!" } else { "" });
    }
}

fn main() {
    cli::run();
}

#[cfg(test)]
mod testing;
"#;

/// A module for tests only (`#[cfg(test)] mod testing;`), with a parser
/// of its own and a parse outside a `#[test]` function: left alone, and
/// not taken for the CLI's parse.
const TESTING: &str = r#"use clap::Parser;

/// A parser for the tests.
#[derive(Parser)]
pub struct Cli {
    name: String,
}

#[allow(dead_code)]
pub fn parsed() -> Cli {
    Cli::parse_from(["hi", "there"])
}
"#;

#[test]
fn roots_in_inline_modules_macros_and_self_calls_adopt_and_check() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        MANIFEST.replace("shelf", "hi"),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/main.rs"), INLINE).unwrap();
    std::fs::write(dir.path().join("src/testing.rs"), TESTING).unwrap();
    let before = files(dir.path());
    let workspace = common::workspace_root();
    std::fs::copy(workspace.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    let adopted = Command::new(tool())
        .args(["mcp-bridge", "adopt", "--path"])
        .arg(&workspace)
        .current_dir(dir.path())
        .env(
            "CARGO_TARGET_DIR",
            workspace.join("target").join("adopt-command"),
        )
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&adopted.stdout) + String::from_utf8_lossy(&adopted.stderr);
    assert!(adopted.status.success(), "{said}");
    let main = text(dir.path(), "src/main.rs");
    for expected in [
        "            #[derive(Args, Debug, mcp_bridge::McpTool)]\n",
        "    #[derive(Parser, Debug, mcp_bridge::McpTool)]\n",
        "            mcp_bridge::parse::<Self>()\n",
        // The test module inside `cli`, where the private root is seen.
        "    }\n\n    #[cfg(test)]\n    mod mcp_bridge_adoption {\n",
        "            mcp_bridge::testing::assert_agrees_with_clap::<super::Cli>();\n",
    ] {
        assert!(main.contains(expected), "{expected:?} in:\n{main}");
    }
    assert!(
        said.contains("cli::mcp_bridge_adoption::cli_is_served_as_clap_reads_it ... ok"),
        "{said}"
    );
    run(dir.path(), &["remove"]);
    assert_eq!(files(dir.path()), before);
}

/// Builds the adopted package, runs the test `adopt` added, and serves it:
/// each call prints what the same command line prints.
#[test]
fn an_adopted_cli_passes_its_test_and_serves_its_commands() {
    let dir = package();
    std::fs::remove_dir_all(dir.path().join("src/notes")).unwrap();
    let workspace = common::workspace_root();
    // The workspace's versions, and a target folder kept between runs.
    std::fs::copy(workspace.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    let target = workspace.join("target").join("adopt-command");
    let adopted = Command::new(tool())
        .args(["mcp-bridge", "adopt", "--path"])
        .arg(&workspace)
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    // cargo's own output is the tool's: the test's lines on stdout.
    let said = String::from_utf8_lossy(&adopted.stdout) + String::from_utf8_lossy(&adopted.stderr);
    assert!(adopted.status.success(), "{said}");
    assert!(
        said.contains("test cli::mcp_bridge_adoption::cli_is_served_as_clap_reads_it ... ok"),
        "{said}"
    );
    let bin = target
        .join("debug")
        .join(format!("shelf{}", std::env::consts::EXE_SUFFIX));
    let built = Command::new(env!("CARGO"))
        .args(["build", "-q"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );

    let command_line = |args: &[&str]| {
        let output = Command::new(&bin)
            .args(args)
            .current_dir(dir.path())
            .env("SHELF_NAME", "attic")
            .output()
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
            i64::from(output.status.code().unwrap()),
        )
    };
    let mut serve = Command::new(&bin);
    serve
        .args(["mcp", "serve"])
        .current_dir(dir.path())
        .env("SHELF_NAME", "attic");
    let mut server = RawServer::spawn(serve);
    server.initialize();
    let mut tools = server.tools_list(1);
    tools.sort();
    assert_eq!(tools, ["shelf_list", "shelf_put"]);
    let cases: [(&str, serde_json::Value, &[&str]); 4] = [
        ("shelf_put", json!({"title": "Dune"}), &["put", "Dune"]),
        (
            "shelf_put",
            json!({"title": "Emma", "author": "Austen", "file": "b.txt"}),
            &["put", "Emma", "-a", "Austen", "--file", "b.txt"],
        ),
        (
            "shelf_list",
            json!({"order": "author"}),
            &["list", "--order", "author"],
        ),
        ("shelf_list", json!({"file": ""}), &["list", "--file", ""]),
    ];
    for (id, (tool, arguments, args)) in (10..).zip(cases) {
        let called = common::outcome(&server.call(id, tool, arguments.clone()));
        assert_eq!(called, command_line(args), "{tool} {arguments}");
    }
    server.assert_stdout_pure();
    server.finish();
}

/// Two binaries, each with its own parser parsed in its `main` (a client
/// and its daemon): each call becomes its drop-in.
#[test]
fn each_binary_s_main_gets_its_drop_in() {
    let dir = tempfile::tempdir().unwrap();
    let bin = |name: &str| {
        format!(
            "use clap::Parser;\n\n/// The {name}.\n#[derive(Parser, Debug)]\nstruct Args {{\n    \
             /// How loud\n    #[arg(long)]\n    loud: bool,\n}}\n\nfn main() {{\n    \
             let args = Args::parse();\n    println!(\"{{args:?}}\");\n}}\n"
        )
    };
    std::fs::create_dir_all(dir.path().join("src/bin")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        MANIFEST.replace("shelf", "pair"),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/bin/client.rs"), bin("client")).unwrap();
    std::fs::write(dir.path().join("src/bin/daemon.rs"), bin("daemon")).unwrap();
    let before = files(dir.path());
    let path = common::workspace_root().display().to_string();
    run(dir.path(), &["adopt", "--no-check", "--path", &path]);
    for name in ["client", "daemon"] {
        let text = text(dir.path(), &format!("src/bin/{name}.rs"));
        assert!(
            text.contains("    let args = mcp_bridge::parse::<Args>();\n"),
            "{text}"
        );
        assert!(
            text.contains("#[derive(Parser, Debug, mcp_bridge::McpTool)]"),
            "{text}"
        );
        assert!(text.contains("mod mcp_bridge_adoption"), "{text}");
    }
    run(dir.path(), &["remove"]);
    assert_eq!(files(dir.path()), before);
}

/// A trait's own method parsing `Self`'s command, once from the words of
/// a config file and once from the process's arguments (as erdtree does):
/// the one type implementing it in the file stands for `Self`, and the
/// parse of the process's arguments is the one taken.
const MERGE: &str = r#"use clap::{ArgMatches, Command, CommandFactory, FromArgMatches, Parser};

/// Merges.
#[derive(Parser, Debug)]
struct Merge {
    /// Keep both
    #[arg(long)]
    keep: bool,
}

trait Reconcile: CommandFactory + FromArgMatches {
    fn matches() -> ArgMatches {
        let cmd = Self::command().args_override_self(true);
        let _from_file = cmd.clone().get_matches_from(["merge", "--keep"]);
        Command::clone(&cmd).get_matches()
    }
}

impl Reconcile for Merge {}

fn main() {
    let matches = Merge::matches();
    println!("{:?}", Merge::from_arg_matches(&matches));
}
"#;

/// A binary parsing its command three times: another command holding it
/// (not its own), a config file's words (`config_args()`, not the
/// process's), and the process's arguments, over several lines (which
/// `remove` must give back as they were).
const WRAP: &str = r#"use clap::{CommandFactory, Parser};

/// Wraps.
#[derive(Parser, Debug)]
struct Wrap {
    /// Loud
    #[arg(long)]
    loud: bool,
}

fn config_args() -> Vec<String> {
    vec!["wrap".to_owned()]
}

fn main() {
    let _outer = clap::Command::new("outer")
        .subcommand(Wrap::command())
        .try_get_matches_from(["outer"]);
    let _file = Wrap::command().get_matches_from(config_args());
    let cmd = Wrap::command();
    let matches = cmd.get_matches_from(
        std::env::args_os(),
    );
    println!("{matches:?}");
}
"#;

/// A `main` that parses the CLI's command into clap's matches itself
/// (`cmd.get_matches_from(args)` on a variable bound to `Cli::command()`,
/// or `Args::augment_args(cmd).try_get_matches()`): the matches drop-in takes its
/// place, with and without `--feature`, and `remove` takes it back.
#[test]
fn a_parse_into_matches_gets_the_matches_drop_in() {
    let dir = tempfile::tempdir().unwrap();
    let main = "use clap::{CommandFactory, FromArgMatches, Parser};\n\n\
                /// Greets.\n#[derive(Parser, Debug)]\nstruct Cli {\n    \
                /// How loud\n    #[arg(long)]\n    loud: bool,\n}\n\n\
                fn main() {\n    let cmd = Cli::command().args_override_self(true);\n    \
                let matches = cmd.get_matches_from(std::env::args_os());\n    \
                let cli = Cli::from_arg_matches(&matches).unwrap();\n    \
                println!(\"{cli:?}\");\n}\n";
    let other = "use clap::{Args as _, Parser};\n\n\
                 /// Counts.\n#[derive(Parser, Debug)]\nstruct Args {\n    \
                 /// How far\n    #[arg(long)]\n    to: Option<u8>,\n}\n\n\
                 fn main() {\n    match Args::augment_args(clap::Command::new(\"count\")).try_get_matches() {\n        \
                 Ok(matches) => println!(\"{matches:?}\"),\n        \
                 Err(error) => error.exit(),\n    }\n}\n";
    std::fs::create_dir_all(dir.path().join("src/bin")).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        MANIFEST.replace("shelf", "greet"),
    )
    .unwrap();
    std::fs::write(dir.path().join("src/main.rs"), main).unwrap();
    std::fs::write(dir.path().join("src/bin/count.rs"), other).unwrap();
    std::fs::write(dir.path().join("src/bin/merge.rs"), MERGE).unwrap();
    std::fs::write(dir.path().join("src/bin/wrap.rs"), WRAP).unwrap();
    // clap's trait, the type given by the `let` (as procs writes it).
    std::fs::write(
        dir.path().join("src/bin/plain.rs"),
        "use clap::Parser;\n\n/// Plain.\n#[derive(Parser, Debug)]\nstruct Opt {\n    \
         /// Who\n    name: Option<String>,\n}\n\nfn main() {\n    \
         let opt: Opt = Parser::parse();\n    println!(\"{opt:?}\");\n}\n",
    )
    .unwrap();
    let before = files(dir.path());
    let path = common::workspace_root().display().to_string();
    let said = run(dir.path(), &["adopt", "--no-check", "--path", &path]);
    let said = String::from_utf8_lossy(&said.stdout) + String::from_utf8_lossy(&said.stderr);
    assert!(
        said.contains(
            "cmd.get_matches_from(..) is now mcp_bridge::get_matches_from::<Cli>(cmd, ..)"
        ),
        "{said}"
    );
    let text = text(dir.path(), "src/main.rs");
    assert!(
        text.contains(
            "    let matches = mcp_bridge::get_matches_from::<Cli>(cmd, std::env::args_os());\n"
        ),
        "{text}"
    );
    let count = self::text(dir.path(), "src/bin/count.rs");
    assert!(
        count.contains(
            "    match mcp_bridge::try_get_matches::<Args>(Args::augment_args(clap::Command::new(\"count\"))) {\n"
        ),
        "{count}"
    );
    let merge = self::text(dir.path(), "src/bin/merge.rs");
    assert!(
        merge.contains("        mcp_bridge::get_matches::<Merge>(Command::clone(&cmd))\n"),
        "{merge}"
    );
    assert!(
        merge.contains("cmd.clone().get_matches_from([\"merge\", \"--keep\"])"),
        "{merge}"
    );
    let wrap = self::text(dir.path(), "src/bin/wrap.rs");
    for expected in [
        "    let matches = mcp_bridge::get_matches_from::<Wrap>(cmd, \n        std::env::args_os(),\n    );\n",
        ".subcommand(Wrap::command())\n        .try_get_matches_from([\"outer\"]);",
        "    let _file = Wrap::command().get_matches_from(config_args());\n",
    ] {
        assert!(wrap.contains(expected), "{expected:?} in:\n{wrap}");
    }
    let plain = self::text(dir.path(), "src/bin/plain.rs");
    assert!(
        plain.contains("    let opt: Opt = mcp_bridge::parse::<_>();\n"),
        "{plain}"
    );
    run(dir.path(), &["remove"]);
    assert_eq!(files(dir.path()), before);

    run(
        dir.path(),
        &["adopt", "--no-check", "--feature", "mcp", "--path", &path],
    );
    let text = self::text(dir.path(), "src/main.rs");
    assert!(
        text.contains(
            "#[cfg(feature = \"mcp\")] let cli = \
             mcp_bridge::get_matches_from::<Cli>(cmd, std::env::args_os()); \
             #[cfg(not(feature = \"mcp\"))] let cli = cmd.get_matches_from(std::env::args_os()); cli }"
        ),
        "{text}"
    );
    run(dir.path(), &["remove"]);
    assert_eq!(files(dir.path()), before);
}
