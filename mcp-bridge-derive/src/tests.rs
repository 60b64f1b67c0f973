//! Expansion snapshots: the derive run on representative inputs, its
//! output compared with `expansions/<case>.txt`, byte for byte.
//!
//! Each snapshot holds the generated tokens (`TokenStream::to_string`),
//! then the spans of the tokens that point into the input (the user's
//! tokens, `quote_spanned!` sites, compile errors), so a refactor that
//! moves an error or a span is caught here, without the runtime crate.
//!
//! A change to the generated code is reviewed as a snapshot diff: run
//! `UPDATE_EXPANSIONS=1 cargo test -p mcp-bridge-derive`, then read
//! `git diff mcp-bridge-derive/expansions`. A case without a snapshot
//! writes one and fails, so new cases are reviewed too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};

/// Name and source of every case. The source starts with a newline so that
/// no input token is on line 1, where the generated tokens' spans sit.
const CASES: &[(&str, &str)] = &[
    (
        "root_parser",
        r#"
/// The app.
///
/// Longer text about the app,
/// over two lines.
#[derive(Parser, McpTool)]
#[command(name = "app", version, about = "Overrides the doc", long_about = None)]
#[mcp(description = "The app, for MCP")]
struct Cli {
    /// Louder output.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}
"#,
    ),
    (
        "root_default_name",
        r#"
#[derive(Parser, McpTool)]
#[command(version = "1.2.3", about, hide = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}
"#,
    ),
    (
        "root_name_expression",
        r#"
#[derive(Parser, McpTool)]
#[command(name = NAME, about = None)]
#[mcp(name = "tool")]
struct Cli {
    name: String,
}
"#,
    ),
    (
        "field_shapes",
        r#"
#[derive(Args, McpTool)]
struct Shapes {
    /// A positional.
    input: std::path::PathBuf,
    /// Many positionals.
    rest: Vec<String>,
    #[arg(long)]
    maybe: Option<u32>,
    #[arg(long)]
    list: Vec<i64>,
    #[arg(long)]
    maybe_list: Option<Vec<f64>>,
    #[arg(long)]
    maybe_value: Option<Option<char>>,
    #[arg(long, required = true)]
    must: Option<String>,
    #[arg(long, required = true)]
    must_nested: Option<Option<String>>,
    #[arg(long, required = true)]
    must_list: Vec<String>,
    #[arg(long)]
    map: std::collections::HashMap<String, u16>,
    #[arg(long)]
    maybe_map: Option<BTreeMap<String, Duration>>,
    #[arg(long, value_parser = parse_pair::<String, u8>)]
    pairs: Vec<(String, u8)>,
    #[arg(long)]
    addr: std::net::SocketAddr,
    #[arg(long)]
    ip: Option<IpAddr>,
    #[arg(long)]
    v4: Ipv4Addr,
    #[arg(long)]
    v6: Ipv6Addr,
    #[arg(long)]
    os: std::ffi::OsString,
    #[arg(long)]
    timeout: Duration,
    #[arg(long)]
    custom: my::Custom,
    #[arg(long, action = clap::ArgAction::Set)]
    bool_value: bool,
    #[arg(long)]
    r#type: String,
}
"#,
    ),
    (
        "actions",
        r#"
#[derive(Args, McpTool)]
struct Actions {
    #[arg(short, long)]
    force: bool,
    #[arg(long = "no-color", action = ArgAction::SetFalse)]
    color: bool,
    #[arg(short = 'v', action = clap::ArgAction::Count)]
    verbosity: u8,
    #[arg(long, action = clap::ArgAction::SetTrue)]
    explicit: bool,
    #[arg(long, action = clap::ArgAction::Append)]
    tags: Vec<String>,
    #[arg(long, action = ArgAction::Set)]
    last: Vec<String>,
    #[arg(long, action = custom_action())]
    odd: String,
}
"#,
    ),
    (
        "value_parsers",
        r#"
#[derive(Args, McpTool)]
struct Parsers {
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: u8,
    #[arg(long, value_parser = value_parser!(i64).range(-10..10))]
    offset: Option<i64>,
    #[arg(long, value_parser = clap::value_parser!(u16).range(1024..))]
    port: u16,
    #[arg(long, value_parser = ["low", "high"], ignore_case = true)]
    priority: String,
    #[arg(long, value_parser = |s: &str| s.parse::<u32>())]
    closure: u32,
    #[arg(long, value_parser = parse_duration)]
    duration: std::time::Duration,
    #[arg(long, value_parser = clap::value_parser!(u64))]
    plain: u64,
    #[arg(long, value_parser = parse_flag)]
    flagged: Option<bool>,
    #[arg(long, value_parser = parse_char)]
    chars: Vec<char>,
    #[arg(long, value_enum)]
    mode: Mode,
    #[arg(long, value_enum, ignore_case = true)]
    modes: Vec<Mode>,
    #[arg(long, value_enum, default_value_t = Mode::Fast)]
    default_mode: Mode,
    #[arg(long, value_parser = my_parser(), value_delimiter = ',')]
    ips: Vec<IpAddr>,
}
"#,
    ),
    (
        "defaults",
        r#"
#[derive(Args, McpTool)]
struct Defaults {
    #[arg(long, default_value = "3")]
    text: u32,
    #[arg(long, default_values = ["a", "b"])]
    texts: Vec<String>,
    #[arg(long, default_values = &["x"])]
    texts_ref: Vec<String>,
    #[arg(long, default_value_t = 8080)]
    port: u16,
    #[arg(long, default_value_t)]
    zero: u32,
    #[arg(long, default_values_t = [1, 2, 3])]
    numbers: Vec<u8>,
    #[arg(long, default_values_t = vec![1.5])]
    floats: Vec<f32>,
    #[arg(long, num_args = 0..=1, default_missing_value = "always")]
    color: Option<String>,
    #[arg(long, env = "APP_TOKEN")]
    token: String,
    #[arg(long, env)]
    api_key: Option<String>,
    #[arg(long, env = "APP_LIST", value_delimiter = ':')]
    list: Vec<String>,
    #[arg(long, num_args = 2)]
    pair: Vec<String>,
    #[arg(long, num_args = 1..=3)]
    some: Vec<String>,
    #[arg(long, num_args = 0..)]
    any: Option<Vec<String>>,
    #[arg(long, num_args = ..=2)]
    few: Vec<String>,
    #[arg(num_args = 1..4)]
    positional: Vec<String>,
    #[arg(long, required = false)]
    not_required: String,
    #[arg(long, required = true, default_value = "x")]
    required_with_default: Option<String>,
}
"#,
    ),
    (
        "relations",
        r#"
#[derive(Args, McpTool)]
#[group(id = "input", required = true, multiple = false, conflicts_with = "other", requires_all = ["x"])]
#[command(group(ArgGroup::new("output").required(true).args(["json", "yaml"])))]
#[command(groups = [clap::ArgGroup::new("a").multiple(true).arg("json").conflicts_with("b").requires("c"), ArgGroup::new("b")])]
struct Relations {
    #[arg(long, conflicts_with = "yaml")]
    json: bool,
    #[arg(long, conflicts_with_all = ["json", "file"], requires("file"))]
    yaml: bool,
    #[arg(long, requires_all = &["json", "yaml"], exclusive = false)]
    file: Option<String>,
    #[arg(long, required_unless_present = "file")]
    name: String,
    #[arg(long, required_unless_present_any = vec!["file", "json"])]
    any: String,
    #[arg(long, required_unless_present_all = ["file", "json"])]
    all: String,
    #[arg(long, required_if_eq("json", "true"))]
    when: Option<String>,
    #[arg(long, required_if_eq = ("yaml", "true"))]
    when_tuple: Option<String>,
    #[arg(long, exclusive = true)]
    alone: bool,
    #[arg(long, group = "mode")]
    fast: bool,
    #[arg(long, groups = ["mode", "extra"])]
    slow: bool,
}
"#,
    ),
    (
        "relations_flatten_group_skip",
        r#"
#[derive(Args, McpTool)]
#[group(skip)]
struct Outer {
    #[command(flatten)]
    inner: Inner,
    #[arg(long)]
    own: bool,
}
"#,
    ),
    (
        "relations_flatten",
        r#"
#[derive(Args, McpTool)]
struct Outer {
    #[command(flatten)]
    inner: Inner,
    #[arg(long, group = "g")]
    own: bool,
}
"#,
    ),
    (
        "mcp_attrs",
        r#"
#[derive(Args, McpTool)]
#[mcp(name = "custom_tool", description = "Does things", skip)]
struct Attrs {
    #[arg(long)]
    #[mcp(name = "renamed", description = "For MCP")]
    original: String,
    #[arg(long)]
    #[mcp(values = labels::fetch, values_ttl = "5m", header = "Label")]
    label: Option<String>,
    #[arg(long, default_value_t = 3)]
    #[mcp(skip)]
    retries: u8,
    #[arg(long)]
    #[mcp(skip)]
    maybe: Option<NoJson>,
    #[arg(long)]
    #[mcp(skip)]
    many: Vec<NoJson>,
    #[arg(long)]
    #[mcp(skip)]
    maybe_many: Option<Vec<NoJson>>,
    #[arg(long)]
    #[mcp(skip)]
    maybe_twice: Option<Option<NoJson>>,
    #[arg(long, default_value_t = NoJson::new())]
    #[mcp(skip)]
    maybe_default: Option<NoJson>,
    #[arg(long, default_value_t)]
    #[mcp(skip)]
    plain_default: NoJson,
    #[arg(long, default_value_t)]
    #[mcp(skip)]
    maybe_plain_default: Option<NoJson>,
    #[arg(long, default_values_t = [1, 2])]
    #[mcp(skip)]
    values: Vec<u8>,
    #[arg(long, default_values_t = [1, 2])]
    #[mcp(skip)]
    maybe_values: Option<Vec<u8>>,
    #[arg(long, env = "APP_TOKEN")]
    #[mcp(skip)]
    token: String,
    #[arg(long, default_value = "x")]
    #[mcp(skip)]
    text_default: String,
    #[arg(long, hide = true)]
    hidden: bool,
    #[arg(long)]
    #[mcp(skip)]
    flag: bool,
    #[arg(skip)]
    skipped: Vec<String>,
    #[arg(skip = 42)]
    skipped_value: u64,
    #[command(skip)]
    skipped_command: String,
}
"#,
    ),
    (
        "naming",
        r#"
#[derive(Args, McpTool)]
#[command(rename_all = "snake_case")]
struct Naming {
    #[arg(short, long)]
    dry_run: bool,
    #[arg(long = "out-file", short = 'o')]
    output_file: String,
    #[arg(id = "the-id", long)]
    with_id: String,
    #[arg(name = "named", short)]
    with_name: String,
    #[arg(long, id = "after")]
    id_after_long: String,
    #[clap(long)]
    old_style: String,
    #[arg(long, verbatim_doc_comment)]
    /// Keep
    ///   this layout.
    ///
    /// Second paragraph.
    verbatim: String,
    /// Summary line.
    ///
    /// Details, over
    /// two lines.
    #[arg(long, help = "Explicit help", long_help = None)]
    helped: String,
    #[arg(long, help = None)]
    no_help: String,
    r#ref: String,
}
"#,
    ),
    (
        "casings",
        r#"
#[derive(Subcommand, McpTool)]
#[command(rename_all = "SCREAMING_SNAKE_CASE")]
enum Casings {
    FirstOne,
    #[command(rename_all = "camelCase")]
    SecondOne { some_field: bool },
    #[command(rename_all = "PascalCase")]
    ThirdOne,
    #[command(rename_all = "lower")]
    FourthOne,
    #[command(rename_all = "UPPER")]
    FifthOne,
    #[command(rename_all = "verbatim")]
    Sixth_One,
    #[command(rename_all = "kebab-case")]
    SeventhOne {
        #[arg(short, long)]
        upper_flag: bool,
    },
}
"#,
    ),
    (
        "subcommand_enum",
        r#"
/// Commands.
#[derive(Subcommand, McpTool)]
#[command(rename_all = "kebab-case", about = "All commands")]
#[mcp(description = "Commands for MCP")]
enum Command {
    /// Does nothing.
    Unit,
    /// Has named fields.
    #[command(name = "named-fields")]
    Named {
        #[arg(long)]
        path: String,
        #[arg(long, group = "g")]
        a: bool,
        #[arg(long, group = "g")]
        b: bool,
        #[command(flatten)]
        common: Common,
        #[command(subcommand)]
        sub: Option<Sub>,
    },
    /// Takes an `Args` struct.
    #[command(hide = true)]
    WithArgs(RunArgs),
    #[command(subcommand)]
    #[mcp(skip)]
    Nested(Nested),
    #[command(flatten)]
    More(More),
    #[command(skip)]
    Skipped,
    #[command(external_subcommand)]
    External(Vec<String>),
    #[mcp(name = "custom", description = "Custom tool")]
    #[command(version = "2", long_about = "Long")]
    Renamed,
    r#Raw,
}
"#,
    ),
    (
        "generic_struct",
        r#"
#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli<T: Args + McpArgs> where T: Clone {
    #[command(flatten)]
    inner: T,
    #[arg(long)]
    verbose: bool,
}
"#,
    ),
    (
        "generic_enum",
        r#"
#[derive(Subcommand, McpTool)]
enum Command<T: Args + McpArgs> {
    Run(T),
    Stop,
}
"#,
    ),
    (
        "unit_struct",
        r#"
#[derive(Parser, McpTool)]
struct Empty;
"#,
    ),
    (
        "error_union",
        r#"
#[derive(McpTool)]
union Bad {
    a: u32,
}
"#,
    ),
    (
        "error_tuple_struct",
        r#"
#[derive(Args, McpTool)]
struct Tuple(String, #[command(flatten)] Common);
"#,
    ),
    (
        "error_mcp_attrs",
        r#"
#[derive(Parser, McpTool)]
#[mcp(name = "app", name = "other", title = "App")]
#[mcp]
#[mcp = "x"]
struct Cli {
    #[arg(long)]
    #[mcp(skip, skip)]
    #[mcp(skip = true)]
    verbose: bool,
    #[arg(long)]
    #[mcp(description)]
    #[mcp(name = 3)]
    #[mcp(name("x"))]
    quiet: bool,
    #[command(flatten)]
    #[mcp(name = "common")]
    common: Common,
    #[command(subcommand)]
    #[mcp(skip)]
    command: Command,
    #[arg(skip)]
    #[mcp(description = "never an argument")]
    cache: Vec<String>,
}
"#,
    ),
    (
        "error_mcp_attrs_enum",
        r#"
#[derive(Subcommand, McpTool)]
enum Command {
    #[command(flatten)]
    #[mcp(name = "more")]
    More(More),
    #[command(skip)]
    #[mcp(description = "x")]
    Skipped,
    #[command(external_subcommand)]
    #[mcp(skip)]
    External(Vec<String>),
    #[mcp(name = "list all")]
    List,
    #[mcp(name = "")]
    Empty,
    #[command(flatten)]
    NotNewtype { a: String },
    #[command(subcommand)]
    NotNewtypeEither,
    Pair(A, B),
}
"#,
    ),
    (
        "error_checks",
        r#"
/// Every mistake of this type is reported, and nothing else.
#[derive(Parser, McpTool)]
#[command(name = "app", rename_all = "weird")]
#[mcp(name = "bad name")]
struct Cli {
    #[arg(long, default_value = "256")]
    level: u8,
    #[arg(long, default_value = "abc")]
    count: u32,
    #[arg(long, default_value = "x")]
    enabled: bool,
    #[arg(long, default_value = "ab")]
    separator: char,
    #[arg(long, default_value = "1.x")]
    ratio: f64,
    #[arg(long, default_value = "")]
    path: PathBuf,
    #[arg(long, default_values_t = [1, -2])]
    sizes: Vec<u16>,
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5), default_value_t = 9)]
    priority: u8,
    #[arg(long, value_parser = clap::value_parser!(i8).range(..0), default_value_t)]
    offset: i8,
    #[arg(long, value_parser = ["low", "high"], default_value = "medium")]
    grade: String,
    #[arg(long)]
    #[mcp(skip)]
    token: String,
    #[arg(long)]
    #[mcp(name = "")]
    empty: String,
    #[arg(long = "level")]
    other_level: Option<u8>,
    #[arg(long)]
    name: &'static str,
    #[arg(long)]
    pair: (String, u32),
    #[arg(long)]
    func: fn(u32) -> u32,
    #[arg(long)]
    bytes: [u8; 4],
    #[arg(long)]
    boxed: Box<dyn Fn()>,
    #[arg(long)]
    error: Box<dyn std::error::Error>,
    #[arg(long)]
    ptr: *const u8,
}
"#,
    ),
    (
        "error_unsupported",
        r#"
#[derive(Args, McpTool)]
#[command(group(make_group()))]
struct Unsupported {
    #[arg(from_global)]
    verbose: bool,
    #[arg(long, default_value = "normal", default_value_if("fast", ArgPredicate::IsPresent, "quick"))]
    speed: String,
    #[arg(long, default_value_ifs([("a", "b", "c")]))]
    other: String,
    #[arg(long, env = "APP_FORCE")]
    force: bool,
    #[arg(long, env = ENV_NAME)]
    token: String,
    #[arg(long, num_args = PAIR)]
    pair: Vec<String>,
    #[arg(long, conflicts_with = OTHER)]
    relation: bool,
    #[arg(long, requires)]
    bare: bool,
    #[arg(long, requires(OTHER))]
    call: bool,
    #[arg(long, required_if_eq("only-one"))]
    half: Option<String>,
    #[arg(long, required_if_eq(NAME, "x"))]
    half_literal: Option<String>,
    #[arg(long, overrides_with = "quiet")]
    loud: bool,
    #[arg(long, requires_if("a", "b"))]
    requires_if: bool,
    #[arg(long, value_parser = ["a", B])]
    mixed: String,
}
"#,
    ),
    (
        "error_group",
        r#"
#[derive(Args, McpTool)]
#[group(id = ID)]
struct Grouped {
    #[arg(long)]
    a: bool,
}
"#,
    ),
    (
        "error_generic_enum",
        r#"
#[derive(Subcommand, McpTool)]
enum Command<T> where T: Clone {
    #[mcp(title = "x")]
    Run(T),
}
"#,
    ),
    // `#[mcp(crate = "...")]`.
    (
        "crate_renamed",
        r#"
#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(crate = "my_bridge")]
struct Cli {
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    level: u8,
    #[arg(long)]
    custom: Custom,
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}
"#,
    ),
    (
        "crate_reexport_enum",
        r#"
#[derive(Subcommand, McpTool)]
#[mcp(crate = "::reexport::mcp_bridge", name = "tools")]
enum Command {
    Run(RunArgs),
    Stop { #[arg(long)] force: bool },
}
"#,
    ),
    (
        "crate_generic",
        r#"
#[derive(Args, McpTool)]
#[mcp(crate = "crate::bridge")]
struct Inner<T: Clone> {
    #[arg(long)]
    value: T,
}
"#,
    ),
    (
        "error_crate_fallback",
        r#"
#[derive(Parser, McpTool)]
#[mcp(crate = "my_bridge")]
struct Cli {
    #[arg(long)]
    #[mcp(title = "x")]
    verbose: bool,
}
"#,
    ),
    (
        "error_crate",
        r#"
#[derive(Parser, McpTool)]
#[mcp(crate = "mcp-bridge")]
#[mcp(crate = "my_bridge", crate = "other")]
#[mcp(crate = my_bridge)]
#[mcp(crate)]
#[mcp(crate = "a::<T>")]
#[mcp(crate = "")]
#[mcp(colour = "red")]
struct Cli {
    #[arg(long)]
    #[mcp(crate = "my_bridge")]
    verbose: bool,
    #[command(flatten)]
    #[mcp(crate = "my_bridge")]
    common: Common,
    #[arg(skip)]
    #[mcp(crate = "my_bridge")]
    cache: Vec<String>,
}
"#,
    ),
    (
        "error_crate_enum",
        r#"
#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(crate = "my_bridge")]
    Run,
    #[command(flatten)]
    #[mcp(crate = "my_bridge")]
    More(More),
    #[command(skip)]
    #[mcp(crate = "my_bridge")]
    Skipped,
}
"#,
    ),
];

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("expansions")
}

/// The text stored for one case.
fn render(tokens: &TokenStream) -> String {
    let mut out = tokens.to_string();
    out.push_str("\n\n--- spans into the input (line:column, then the tokens) ---\n");
    let mut runs: Vec<(String, Vec<String>)> = Vec::new();
    spans(tokens, &mut runs);
    for (span, texts) in runs {
        let _ = writeln!(out, "{span} {}", texts.join(" "));
    }
    out
}

/// Every token whose span points into the input, runs of one span on one
/// line. Generated tokens are on line 1: the call site, or a text
/// `quote!` parsed.
fn spans(tokens: &TokenStream, runs: &mut Vec<(String, Vec<String>)>) {
    for tree in tokens.clone() {
        let span = tree.span();
        let (start, end) = (span.start(), span.end());
        if start.line > 1 {
            let at = format!(
                "{}:{}-{}:{}",
                start.line, start.column, end.line, end.column
            );
            let text = match &tree {
                TokenTree::Group(group) => match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => "(..)".to_owned(),
                    proc_macro2::Delimiter::Brace => "{..}".to_owned(),
                    proc_macro2::Delimiter::Bracket => "[..]".to_owned(),
                    proc_macro2::Delimiter::None => "<group>".to_owned(),
                },
                other => other.to_string(),
            };
            match runs.last_mut() {
                Some((last, texts)) if *last == at => texts.push(text),
                _ => runs.push((at, vec![text])),
            }
        }
        if let TokenTree::Group(group) = tree {
            spans(&group.stream(), runs);
        }
    }
}

/// With `#[mcp(crate = "...")]`, nothing generated names `mcp_bridge`
/// (the UI pass case cannot show it: `::mcp_bridge` resolves there).
#[test]
fn crate_path_replaces_every_runtime_path() {
    for name in ["crate_renamed", "crate_generic", "error_crate_fallback"] {
        let (_, source) = CASES
            .iter()
            .find(|(case, _)| *case == name)
            .expect("the case exists");
        let input: syn::DeriveInput = syn::parse_str(source).expect("the case parses");
        let tokens = crate::derive(&input).to_string();
        assert!(
            !tokens.contains("mcp_bridge"),
            "`{name}` still names `mcp_bridge`: {tokens}"
        );
    }
}

/// Each argument's `ParamData` is a constant expression that the compiler
/// promotes to static data: no lazy boolean operator (never promoted), no
/// call. A literal-only argument must keep it so (a non-promoted one costs
/// ~130 lines of LLVM IR per argument: docs/benchmarks.md).
#[test]
fn parameter_data_is_promotable() {
    let input: syn::DeriveInput = syn::parse_quote! {
        #[command(name = "app")]
        struct Cli {
            /// A flag
            #[arg(short, long, hide = true, conflicts_with = "name")]
            force: bool,
            #[mcp(skip)]
            #[arg(long, default_value = "x")]
            skipped: String,
            #[arg(long = "name", env = "APP_NAME", num_args = 1..=3)]
            names: Vec<String>,
            level: (),
        }
    };
    let tokens = crate::derive(&input).to_string();
    let mut found = 0;
    for data in tokens.split("ParamData {").skip(1) {
        found += 1;
        // The literal ends where `from_data`'s next argument starts.
        let literal = data.split("} ,").next().unwrap_or(data);
        for forbidden in ["||", "&&", "::new", "to_string", "vec !"] {
            assert!(
                !literal.contains(forbidden),
                "`{forbidden}` in a ParamData literal: {literal}"
            );
        }
    }
    assert_eq!(found, 4, "{tokens}");
}

#[test]
fn case_names_are_unique() {
    let mut names: Vec<&str> = CASES.iter().map(|(name, _)| *name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CASES.len(), "two cases share a name");
}

#[test]
fn expansions_match_snapshots() {
    let dir = snapshot_dir();
    let update = std::env::var_os("UPDATE_EXPANSIONS").is_some();
    let mut failures = Vec::new();
    for (name, source) in CASES {
        assert!(
            source.starts_with('\n'),
            "case `{name}`: start the source with a newline"
        );
        let input: syn::DeriveInput = syn::parse_str(source)
            .unwrap_or_else(|error| panic!("case `{name}` does not parse: {error}"));
        let actual = render(&crate::derive(&input));
        let path = dir.join(format!("{name}.txt"));
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(_) if update => write(&path, &actual),
            Ok(expected) => {
                let at = expected
                    .bytes()
                    .zip(actual.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(expected.len().min(actual.len()));
                let context = |s: &str| {
                    let from = at.saturating_sub(80);
                    String::from_utf8_lossy(
                        &s.as_bytes()[from.min(s.len())..(at + 80).min(s.len())],
                    )
                    .into_owned()
                };
                failures.push(format!(
                    "`{name}` differs from {} at byte {at}:\n  expected: …{}…\n  actual:   …{}…",
                    path.display(),
                    context(&expected),
                    context(&actual),
                ));
            }
            Err(_) => {
                write(&path, &actual);
                if !update {
                    failures.push(format!(
                        "`{name}` had no snapshot; wrote {}: review it and run again",
                        path.display()
                    ));
                }
            }
        }
    }
    // A snapshot no case writes any more.
    for entry in std::fs::read_dir(&dir).expect("read the snapshot directory") {
        let path = entry.expect("read the snapshot directory").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if !CASES.iter().any(|(name, _)| *name == stem) {
            failures.push(format!("{} belongs to no case: delete it", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "expansions changed (UPDATE_EXPANSIONS=1 rewrites the snapshots; review the diff):\n\n{}",
        failures.join("\n\n")
    );
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a snapshot path has a parent"))
        .expect("create the snapshot directory");
    std::fs::write(path, text).expect("write a snapshot");
}
