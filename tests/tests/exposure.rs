//! One source of truth for what is exposed: the compile-time tree check
//! and the run-time [`Registry`] apply the same rules (`registry::rules`),
//! so the tools (names and properties) the check accepted at `cargo build`
//! are exactly the tools the registry serves.

use std::collections::BTreeSet;

use clap::{Args, Parser, Subcommand};
use mcp_bridge::__private::tree::{size_args, tools_of_root, CheckedTool};
use mcp_bridge::{McpArgs, McpCommand, McpTool, Registry};

/// The tools as the registry serves them, in the check's terms.
fn served<C: McpCommand>() -> Vec<(String, BTreeSet<String>)> {
    Registry::<C>::new()
        .expect("a valid tree")
        .tools()
        .map(|tool| {
            let properties = tool.params.iter().map(|p| p.name.clone()).collect();
            (tool.name.clone(), properties)
        })
        .collect()
}

fn checked(tools: Vec<CheckedTool>) -> Vec<(String, BTreeSet<String>)> {
    tools
        .into_iter()
        .map(|tool| {
            let properties: BTreeSet<String> =
                tool.properties.iter().map(|p| (*p).to_owned()).collect();
            assert_eq!(
                properties.len(),
                tool.properties.len(),
                "the check accepted a tool with a repeated property: {tool:?}"
            );
            (tool.name, properties)
        })
        .collect()
}

macro_rules! agree {
    ($cli:ty) => {{
        const NODE: &mcp_bridge::__private::tree::ArgsNode = <$cli as McpArgs>::MCP_NODE;
        const SIZE: (usize, usize) = size_args(NODE);
        let at_compile_time = checked(tools_of_root::<{ SIZE.0 }, { SIZE.1 }>(NODE));
        let at_run_time = served::<$cli>();
        assert_eq!(at_compile_time, at_run_time, "{}", stringify!($cli));
        at_run_time
    }};
}

#[test]
fn the_examples_agree() {
    assert!(!agree!(examples::taskctl::Cli).is_empty());
    assert!(!agree!(examples::awkward::Cli).is_empty());
    assert!(!agree!(examples::fleet::Cli).is_empty());
}

/// Every exposure rule at once: hidden and skipped commands (and what is
/// below them), hidden and skipped arguments, globals at several levels,
/// an ancestor's argument that is not global,
/// a runnable parent, `#[mcp(name)]`, flatten at both levels.
#[derive(Parser, McpTool, Debug)]
#[command(name = "rules")]
struct Rules {
    /// Global at the root
    #[arg(long, global = true)]
    verbose: bool,
    /// Not global: still offered on every tool below, as clap takes it
    /// before the subcommand (`rules --config x run`)
    #[arg(long)]
    config: Option<String>,
    #[command(flatten)]
    shared: Shared,
    #[command(subcommand)]
    command: Top,
}

#[derive(Args, McpTool, Debug)]
struct Shared {
    /// Global, from a flattened struct
    #[arg(long, global = true)]
    color: Option<String>,
    /// Hidden global: offered nowhere
    #[arg(long, global = true, hide = true)]
    trace: bool,
}

#[derive(Subcommand, McpTool, Debug)]
enum Top {
    /// A leaf
    Run {
        target: String,
        #[arg(long, hide = true)]
        secret: Option<String>,
        #[mcp(skip)]
        #[arg(long)]
        internal: Option<String>,
    },
    /// Hidden: not a tool, nor anything below it
    #[command(hide = true)]
    Debug {
        #[command(subcommand)]
        inner: Inner,
    },
    /// Skipped
    #[mcp(skip)]
    Admin,
    /// A parent that runs without a subcommand
    Remote(RemoteArgs),
    /// Renamed
    #[mcp(name = "status_now")]
    Status,
    #[command(flatten)]
    More(More),
}

#[derive(Args, McpTool, Debug)]
struct RemoteArgs {
    /// Global below the root
    #[arg(long, global = true)]
    host: Option<String>,
    #[command(subcommand)]
    command: Option<Inner>,
}

#[derive(Subcommand, McpTool, Debug)]
enum Inner {
    /// Adds
    Add { name: String },
    /// Removes
    #[command(hide = true)]
    Remove { name: String },
}

#[derive(Subcommand, McpTool, Debug)]
enum More {
    /// From a flattened enum
    Extra {
        #[arg(long)]
        level: u8,
    },
}

#[test]
fn every_exposure_rule_agrees() {
    let tools = agree!(Rules);
    let names: Vec<&str> = tools.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "rules_run",
            "rules_remote",
            "rules_remote_add",
            "status_now",
            "rules_extra"
        ]
    );
    let add = &tools[2].1;
    let expected: BTreeSet<String> = ["name", "host", "verbose", "config", "color"]
        .map(String::from)
        .into();
    assert_eq!(add, &expected);
    let extra = &tools[4].1;
    let expected: BTreeSet<String> = ["level", "config", "verbose", "color"]
        .map(String::from)
        .into();
    assert_eq!(extra, &expected);
}

/// The derive checks literal tool names with its own copy of the MCP name
/// rule (it cannot depend on this crate); the registry checks with
/// `registry::rules`. A name at the limit, of every allowed class of
/// character, passes both (with the root's budget raised to MCP's limit):
/// it compiled, and the registry serves it. (The
/// refusals are the UI tests `tool-name-invalid-mcp-name` and
/// `tool-name-too-long` on one side and the registry's unit tests on the
/// other.)
#[derive(Parser, McpTool, Debug)]
#[command(name = "edge")]
#[mcp(
    max_name_len = 128,
    name = "Az09_.-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
)]
struct Edge {
    value: String,
}

#[test]
fn the_derive_and_the_registry_share_the_name_rule() {
    let tools = agree!(Edge);
    assert_eq!(tools[0].0.len(), 128);
}

/// Naming control: the root's `prefix` (empty here: no prefix at all) and
/// `max_name_len`; a runnable root keeps its own name; a long path is
/// shortened to its end and a hash, the same at compile time and at run
/// time, and still routes.
#[derive(Parser, McpTool, Debug)]
#[command(name = "naming", subcommand_required = false)]
#[mcp(prefix = "", max_name_len = 32)]
struct Naming {
    #[command(subcommand)]
    command: Option<NamingTop>,
}

#[derive(Subcommand, McpTool, Debug)]
enum NamingTop {
    /// A short one
    Add { text: String },
    /// Deep and long
    RemoteRepositories {
        #[command(subcommand)]
        command: NamingDeep,
    },
}

#[derive(Subcommand, McpTool, Debug)]
enum NamingDeep {
    SynchroniseWithUpstream {
        #[arg(long)]
        dry_run: bool,
    },
    SynchroniseWithDownstream,
}

#[test]
fn names_follow_the_roots_prefix_and_budget() {
    let tools = agree!(Naming);
    let names: Vec<&str> = tools.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names[..2], ["naming", "add"]);
    // `remote-repositories_synchronise-with-upstream` (45 characters) and
    // its sibling (47), served as their last 23 and a hash.
    let (up, down) = (names[2], names[3]);
    assert_eq!(up.len(), 32);
    assert!(up.starts_with("nchronise-with-upstream_"), "{up}");
    assert!(down.starts_with("hronise-with-downstream_"), "{down}");
    assert_eq!(down.len(), 32);
    let registry = Registry::<Naming>::new().unwrap();
    let args = serde_json::json!({ "dry-run": true });
    let built = registry.build(up, args.as_object().unwrap()).unwrap();
    assert!(matches!(
        built.command,
        Some(NamingTop::RemoteRepositories {
            command: NamingDeep::SynchroniseWithUpstream { dry_run: true }
        })
    ));
}

/// An example the tool refuses fails the registry, at start-up.
#[derive(Parser, McpTool, Debug)]
#[command(name = "examples")]
#[mcp(example = r#"{"count": 2}"#, example = r#"{"count": "two"}"#)]
struct WrongExample {
    #[arg(long)]
    count: u8,
}

#[derive(Parser, McpTool, Debug)]
#[command(name = "examples")]
#[mcp(example = r#"{"count": 2,}"#)]
struct NotJson {
    #[arg(long)]
    count: u8,
}

#[test]
fn examples_are_checked_when_the_registry_is_made() {
    let error = Registry::<WrongExample>::new().unwrap_err().to_string();
    assert!(
        error.starts_with(r#"`#[mcp(example = "{\"count\":\"two\"}")]` on the command `examples`: its tool refuses it: tool `examples`: property `count`"#),
        "{error}"
    );
    let error = Registry::<NotJson>::new().unwrap_err().to_string();
    assert!(error.contains("it is no JSON: trailing comma"), "{error}");
}

/// `mcp serve` and `mcp tools` refuse to start on such an example too.
#[test]
fn the_bridge_does_not_start_with_an_example_its_tool_refuses() {
    let listed = |args: [&str; 3]| mcp_bridge::Bridge::new(|_: WrongExample| ()).run_from(args);
    assert_eq!(
        listed(["examples", "mcp", "tools"]),
        std::process::ExitCode::FAILURE
    );
    let good = mcp_bridge::Bridge::new(|_: GoodExample| ()).run_from(["examples", "mcp", "tools"]);
    assert_eq!(good, std::process::ExitCode::SUCCESS);
}

#[derive(Parser, McpTool, Debug)]
#[command(name = "examples")]
#[mcp(example = r#"{"count": 2}"#)]
struct GoodExample {
    #[arg(long)]
    count: u8,
}

/// The description shows the first two examples that are short; every
/// example stays one of the tool's (and its prompt's).
#[derive(Parser, McpTool, Debug)]
#[command(name = "examples")]
#[mcp(example = r#"{"note": "a"}"#)]
#[mcp(
    example = r#"{"note": "a long note that goes on and on, longer than a description should carry for one call, which the model would pay for on every turn of every conversation although a prompt shows it just as well when a user asks for it, and so on, and so forth"}"#
)]
#[mcp(example = r#"{"note": "b"}"#, example = r#"{"note": "c"}"#)]
struct ManyExamples {
    #[arg(long)]
    note: String,
}

#[test]
fn a_description_shows_the_short_examples_only() {
    let registry = Registry::<ManyExamples>::new().unwrap();
    let tool = registry.tools().next().unwrap();
    assert_eq!(tool.examples.len(), 4);
    assert!(
        tool.description
            .ends_with("\n\nExample: {\"note\":\"a\"}\nExample: {\"note\":\"b\"}"),
        "{}",
        tool.description
    );
}

/// A fixed value whose property is declared by another type: the derive of
/// the variant cannot see its type, so the registry refuses it at start-up.
#[derive(Parser, McpTool, Debug)]
#[command(name = "fixed")]
struct FixedElsewhere {
    #[command(subcommand)]
    command: FixedCommand,
}

#[derive(Subcommand, McpTool, Debug)]
enum FixedCommand {
    #[mcp(args(count = "two"))]
    Run(FixedArgs),
}

#[derive(Args, McpTool, Debug)]
struct FixedArgs {
    #[arg(long)]
    count: u8,
}

#[test]
fn fixed_values_the_derive_cannot_see_are_checked_when_the_registry_is_made() {
    let error = Registry::<FixedElsewhere>::new().unwrap_err().to_string();
    assert!(
        error.starts_with(r#"`#[mcp(args(count = ...))]` on the command `fixed run`: `"two"` is no value of the property, whose schema is"#),
        "{error}"
    );
}
