//! Helpers for your own tests: check that the MCP surface the derive
//! generated matches what clap builds from the same types
//! ([`assert_parity`]), that every call builds the value the same command
//! line gives ([`assert_agrees_with_clap`]), and serve a server over
//! in-memory streams with the framing of `mcp serve`.
//!
//! This is the one place that builds `clap::Command` — in tests, never on
//! the serving path.

mod agree;
#[doc(hidden)]
pub use crate::spec::command_line;

pub use agree::{agreement, kept, Agreement, Kept};

use std::time::Duration;

use clap::CommandFactory;
use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::registry::Registry;
use crate::serve::BridgeServer;
use crate::spec::{CommandSpec, DocOutcome, ParamKind, ParamSpec, ToolSpec, ValueType};
use crate::traits::McpCommand;

/// What `#[mcp(output = "...")]` makes of a command's output: the object a
/// successful call's `structuredContent` carries, or why the output does
/// not parse (the call then answers with the text alone). For tests and
/// the fuzz target `output`.
///
/// ```
/// use mcp_bridge::spec::OutputFormat;
/// use mcp_bridge::testing::structured_output;
/// let rows = structured_output(OutputFormat::Table, "ID  NAME\n1   ann\n").unwrap();
/// assert_eq!(rows["rows"][0]["NAME"], "ann");
/// assert!(structured_output(OutputFormat::Json, "not json").is_err());
/// ```
pub fn structured_output(
    format: crate::spec::OutputFormat,
    stdout: &str,
) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    crate::serve::structured_output(format, stdout)
}

/// Fails with a readable list of differences if the specs of `C` disagree
/// with `C::command()` (built, as clap builds it before parsing): command
/// names and nesting, help texts, aliases, hidden commands, required
/// subcommands;
/// for every argument its id, long and short names, positional or not,
/// required, global, hidden (arguments left out on purpose — `#[mcp(skip)]`,
/// `()` fields — excepted), action, help text, aliases, `env`, `value_delimiter`,
/// whether it takes a list, values per use (`num_args`), defaults and
/// possible values; and every visible argument that no tool at or below
/// its command can set.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::McpTool;
///
/// /// Copies files.
/// #[derive(Parser, McpTool)]
/// #[command(name = "cp")]
/// struct Cp {
///     /// Where from
///     from: String,
///     /// Overwrite
///     #[arg(short, long)]
///     force: bool,
/// }
///
/// mcp_bridge::testing::assert_parity::<Cp>();
/// ```
#[track_caller]
pub fn assert_parity<C: McpCommand + CommandFactory>() {
    let differences = parity_differences::<C>();
    assert!(
        differences.is_empty(),
        "the MCP specs of `{}` differ from clap's command:\n  {}",
        std::any::type_name::<C>(),
        differences.join("\n  ")
    );
}

/// Fails with every disagreement unless each call of each tool of `C`
/// builds the value clap parses from the same command line, or both
/// refuse it: the proof that the CLI behaves over MCP as on its command
/// line.
///
/// For every tool, calls are made from the tool's own spec: the empty
/// object; the required properties alone; each optional property alone
/// (and absent, so every default is exercised), with each of its values
/// (every possible value, in another case where case is ignored; integer
/// bounds and just past them; lists of 0 to 3 items, items holding the
/// delimiter; `null` where it means "given without a value"); each
/// required property dropped; conflicting properties, overriding ones and
/// members of one group together; a required property dropped while one
/// conflicting with it is given; each `env` variable set with its property
/// absent, and a flag's variable set while the flag is given `false`. Each
/// call is written as the command line a person would type (long or
/// short names, `--flag=value` or separate words, aliases, positionals in
/// order, `--` where a value would read as a flag), parsed with
/// `C::try_parse_from`, and built as a `tools/call` is; the two values are
/// compared by their `Debug` text. The spellings are picked by a fixed
/// seed (`MCP_BRIDGE_AGREEMENT_SEED` picks another), so a run is
/// repeatable. Each disagreement names the tool, the call's JSON, the
/// command line and both outcomes.
///
/// The differences `docs/clap-support.md` keeps on purpose do not fail
/// the check; [`Agreement::kept`] lists them under their reason (see
/// [`mod@kept`]): a flag given `false` while its `env` variable
/// is set (no command line says it); both of an `overrides_with` pair
/// given (refused, naming both, as a call has no order); a value on which
/// the CLI's own parser panics (the command line crashes, the call must
/// be refused); a command line that clap itself parses to two different
/// values (a parser reading the clock: `--delay 7` as seven seconds from
/// now), whose changing lines are left out and the rest compared (a map
/// printed in another order each time is compared as a set of entries,
/// and agrees). Each still fails the check when the call does not do what the
/// difference says (an overriding pair built rather than refused). A call
/// leaving out a positional while giving a later one must be refused: no
/// command line says it.
///
/// The check sets the variables the CLI's `env` arguments read, one call
/// at a time, and puts them back afterwards. An external
/// subcommand's tool is given a command the CLI does not define, alone and
/// with arguments, and the names a command line would give elsewhere.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::McpTool;
///
/// /// Copies files.
/// #[derive(Parser, McpTool, Debug)]
/// #[command(name = "cp")]
/// struct Cp {
///     /// Where from
///     from: String,
///     /// Overwrite
///     #[arg(short, long)]
///     force: bool,
///     /// How many times
///     #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
///     times: u8,
/// }
///
/// mcp_bridge::testing::assert_agrees_with_clap::<Cp>();
/// ```
#[track_caller]
pub fn assert_agrees_with_clap<C>()
where
    C: McpCommand + clap::Parser + std::fmt::Debug,
{
    let report = agreement::<C>();
    assert!(
        report.disagreements.is_empty(),
        "calls of `{}` build other values than the same command lines \
         ({} calls compared, {} disagree, {} differ as documented):\n  {}",
        std::any::type_name::<C>(),
        report.compared,
        report.disagreements.len(),
        report.kept.len(),
        report.disagreements.join("\n  ")
    );
}

/// Fails with a readable list unless every command line of the doc
/// comments' example sections (`$ app run --fast`, see
/// [`ToolSpec::doc_examples`]) is an example its tool accepts and builds
/// the value clap parses from the same words. Lines for other commands are
/// passed over.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::McpTool;
///
/// /// Copies files.
/// ///
/// /// Examples:
/// ///   $ cp a.txt b.txt --force
/// #[derive(Parser, McpTool, Debug, PartialEq)]
/// #[command(name = "cp", verbatim_doc_comment)]
/// struct Cp {
///     from: String,
///     to: String,
///     #[arg(short, long)]
///     force: bool,
/// }
///
/// mcp_bridge::testing::assert_doc_examples::<Cp>();
/// let registry = mcp_bridge::Registry::<Cp>::new().unwrap();
/// let example = &registry.tool("cp").unwrap().examples[0];
/// assert_eq!(example["force"], true);
/// ```
#[track_caller]
pub fn assert_doc_examples<C>()
where
    C: McpCommand + clap::Parser + std::fmt::Debug + PartialEq,
{
    let differences = doc_example_differences::<C>();
    assert!(
        differences.is_empty(),
        "the doc-comment examples of `{}` are not what clap parses:\n  {}",
        std::any::type_name::<C>(),
        differences.join("\n  ")
    );
}

/// The problems [`assert_doc_examples`] reports, one line each: a line
/// skipped (and why), or one whose value differs from clap's.
pub fn doc_example_differences<C>() -> Vec<String>
where
    C: McpCommand + clap::Parser + std::fmt::Debug + PartialEq,
{
    let registry = match Registry::<C>::new() {
        Ok(registry) => registry,
        Err(error) => return vec![format!("the tool table cannot be built: {error}")],
    };
    let mut out = Vec::new();
    for tool in registry.tools() {
        for example in &tool.doc_examples {
            let line = format!("`$ {}` ({})", example.line, tool.name);
            let arguments = match &example.outcome {
                DocOutcome::Accepted(arguments) => arguments,
                DocOutcome::Skipped(why) => {
                    out.push(format!("{line}: skipped: {why}"));
                    continue;
                }
                _ => continue,
            };
            let json = serde_json::Value::Object(arguments.clone());
            match (
                registry.build(&tool.name, arguments),
                C::try_parse_from(&example.words),
            ) {
                (Ok(ours), Ok(theirs)) if ours == theirs => {}
                (Ok(ours), Ok(theirs)) => out.push(format!(
                    "{line}: {json} builds {ours:?}, clap parses {theirs:?}"
                )),
                (Ok(_), Err(error)) => out.push(format!(
                    "{line}: clap refuses it: {}",
                    error
                        .render()
                        .to_string()
                        .lines()
                        .next()
                        .unwrap_or_default()
                )),
                (Err(error), _) => out.push(format!("{line}: {json} is refused: {error}")),
            }
        }
    }
    out
}

/// Serves `server` over `input` and `output` exactly as `mcp serve` serves
/// stdio — one JSON-RPC message per line, every line that cannot be read
/// answered with its request id when the id is readable — until `input`
/// ends and the calls it started have answered (each within `grace`).
///
/// For tests and fuzzing in one process: `mcp serve` wraps the same
/// framing and server around the process's real fd 0 and fd 1, with output
/// capture and signal handling that this leaves out. An error means the
/// session could not start (the first request was not answered) or a call
/// was still running after `grace`.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::{BridgeServer, Io, McpTool};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// /// Says hello.
/// #[derive(Parser, McpTool)]
/// #[command(name = "hi")]
/// struct Hi {}
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let server = BridgeServer::new(|_: Hi, _: &mut Io| ()).unwrap();
/// let (mut client, ours) = tokio::io::duplex(1 << 16);
/// let (input, output) = tokio::io::split(ours);
/// let serving = tokio::spawn(mcp_bridge::testing::serve_lines(
///     server,
///     input,
///     output,
///     std::time::Duration::from_secs(5),
/// ));
/// client.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}\nnot json\n").await.unwrap();
/// client.shutdown().await.unwrap();
/// let mut answers = String::new();
/// client.read_to_string(&mut answers).await.unwrap();
/// serving.await.unwrap().unwrap();
/// // Both lines are answered: the request before `initialize` is told to
/// // send it first, the garbage gets a parse error.
/// assert!(answers.contains("send initialize first"));
/// assert!(answers.contains("-32700"));
/// # });
/// ```
pub async fn serve_lines(
    server: BridgeServer,
    input: impl AsyncRead + Send + 'static,
    output: impl AsyncWrite + Send + 'static,
    grace: Duration,
) -> Result<(), String> {
    let transport = crate::serve::transport::LineTransport::new(input, output);
    let server = server.answering_through(&transport);
    let service = match server.clone().into_service().serve(transport).await {
        Ok(service) => service,
        // The input ended before a session began: every line was answered.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(error.to_string()),
    };
    let ended = service.waiting().await.map_err(|e| e.to_string());
    server.drain();
    if !server.finish_calls(grace).await {
        return Err(format!("calls were still running after {grace:?}"));
    }
    ended.map(|_| ())
}

/// The differences [`assert_parity`] reports, one line each.
pub fn parity_differences<C: McpCommand + CommandFactory>() -> Vec<String> {
    differences(&C::command_spec(), C::command())
}

/// The differences between a spec tree and a clap command: what
/// [`parity_differences`] reports, for a spec built by hand.
pub fn differences(ours: &CommandSpec, mut clap: clap::Command) -> Vec<String> {
    // Resolve what clap derives when it builds (`num_args` from actions,
    // propagated globals...), as it does before parsing.
    clap.build();
    let mut out = Vec::new();
    compare_command(ours, &clap, &mut Vec::new(), &mut out);
    reachability(ours, &clap, &mut out);
    out
}

fn is_info(arg: &clap::Arg) -> bool {
    matches!(
        arg.get_action(),
        clap::ArgAction::Help
            | clap::ArgAction::HelpShort
            | clap::ArgAction::HelpLong
            | clap::ArgAction::Version
    )
}

/// Every visible argument clap has must be settable through some tool at
/// or below its command (an argument no call can give is a silent hole).
fn reachability(ours: &CommandSpec, clap: &clap::Command, out: &mut Vec<String>) {
    let tools: Vec<ToolSpec> = match Registry::<()>::from_spec(ours.clone()) {
        Ok(registry) => registry.tools().cloned().collect(),
        Err(error) => {
            out.push(format!("the tool table cannot be built: {error}"));
            return;
        }
    };
    let mut path = Vec::new();
    walk_reachable(clap, &tools, &mut path, out, ours.hidden || ours.mcp.skip);
}

fn walk_reachable(
    clap: &clap::Command,
    tools: &[ToolSpec],
    path: &mut Vec<String>,
    out: &mut Vec<String>,
    unexposed: bool,
) {
    path.push(clap.get_name().to_owned());
    // Hidden commands are not served, and neither is what is below them.
    let unexposed = unexposed || clap.is_hide_set();
    if !unexposed {
        let below: Vec<&ToolSpec> = tools
            .iter()
            .filter(|t| t.path.starts_with(path.as_slice()))
            .collect();
        for arg in clap.get_arguments() {
            if arg.is_hide_set() || is_info(arg) || arg.is_global_set() && path.len() > 1 {
                continue;
            }
            let id = arg.get_id().as_str();
            // Offered, or fixed for the tool (`#[mcp(args(...))]`).
            let reachable = below.iter().any(|t| {
                t.params.iter().any(|p| p.id == id && !p.hidden)
                    || t.pinned.iter().any(|p| p.id == id)
            });
            if !reachable && !below.is_empty() {
                out.push(format!(
                    "`{}` argument `{id}`: visible in clap, but no tool can set it",
                    path.join(" ")
                ));
            }
        }
    }
    for sub in clap.get_subcommands() {
        walk_reachable(sub, tools, path, out, unexposed);
    }
    path.pop();
}

/// Values per use as clap's derive sets them: `num_args`, else one value
/// (none with `null` accepted), a positional list any number.
fn values_per_use(param: &ParamSpec) -> (u64, Option<u64>) {
    match param.arity {
        Some(arity) => (arity.min.into(), arity.max.map(u64::from)),
        None if param.multiple && matches!(param.kind, ParamKind::Positional) => (1, None),
        None => (u64::from(!param.nullable), Some(1)),
    }
}

fn range_text((min, max): (u64, Option<u64>)) -> String {
    match max {
        Some(max) => format!("{min}..={max}"),
        None => format!("{min}.."),
    }
}

/// A list compared in any order: its items' texts, sorted.
fn sorted<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let mut texts: Vec<String> = items.into_iter().map(|item| item.to_string()).collect();
    texts.sort();
    format!("{texts:?}")
}

fn styled(text: Option<&clap::builder::StyledStr>) -> Option<String> {
    text.map(ToString::to_string)
}

fn compare_command(
    ours: &CommandSpec,
    clap: &clap::Command,
    path: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    path.push(clap.get_name().to_owned());
    let at = path.join(" ");
    let mut differ = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            out.push(format!("`{at}` {what}: ours {ours}, clap {theirs}"));
        }
    };
    differ(
        "name",
        format!("{:?}", ours.name),
        format!("{:?}", clap.get_name()),
    );
    differ(
        "about",
        format!("{:?}", ours.about),
        format!("{:?}", styled(clap.get_about())),
    );
    differ(
        "long_about",
        format!("{:?}", ours.long_about),
        format!("{:?}", styled(clap.get_long_about())),
    );
    differ(
        "hidden",
        ours.hidden.to_string(),
        clap.is_hide_set().to_string(),
    );
    differ(
        "aliases",
        sorted(&ours.aliases),
        sorted(clap.get_all_aliases()),
    );
    if clap.get_subcommands().next().is_some() {
        differ(
            "subcommand required",
            ours.subcommand_required.to_string(),
            clap.is_subcommand_required_set().to_string(),
        );
    }

    // Globals of ancestors are propagated into every subcommand by
    // `build`; each is compared where it is declared.
    let theirs_args: Vec<&clap::Arg> = clap
        .get_arguments()
        .filter(|a| {
            let inherited =
                a.is_global_set() && ours.params.iter().all(|p| p.id != a.get_id().as_str());
            !is_info(a) && !inherited
        })
        .collect();
    for arg in &theirs_args {
        let id = arg.get_id().as_str();
        let Some(param) = ours.params.iter().find(|p| p.id == id) else {
            out.push(format!("`{at}` argument `{id}`: missing from our spec"));
            continue;
        };
        let mut differ = |what: &str, ours: String, theirs: String| {
            if ours != theirs {
                out.push(format!(
                    "`{at}` argument `{id}` {what}: ours {ours}, clap {theirs}"
                ));
            }
        };
        let (long, short) = match &param.kind {
            ParamKind::Flag { long, short } => (long.clone(), *short),
            ParamKind::Positional => (None, None),
        };
        differ("long", format!("{long:?}"), format!("{:?}", arg.get_long()));
        differ(
            "short",
            format!("{short:?}"),
            format!("{:?}", arg.get_short()),
        );
        differ(
            "positional",
            matches!(param.kind, ParamKind::Positional).to_string(),
            arg.is_positional().to_string(),
        );
        // Ours is the schema's `required`: unconditional, and not already
        // satisfied by a default or by the environment.
        let env_set = arg
            .get_env()
            .is_some_and(|name| std::env::var_os(name).is_some());
        let clap_required = arg.is_required_set()
            && arg.get_default_values().is_empty()
            && !param.relations.is_conditional()
            && !env_set;
        differ(
            "required",
            param.required.to_string(),
            clap_required.to_string(),
        );
        differ(
            "global",
            param.global.to_string(),
            arg.is_global_set().to_string(),
        );
        // Hidden by clap; what mcp-bridge leaves out on purpose is not a
        // difference.
        if !param.skipped {
            differ(
                "hidden",
                param.hidden.to_string(),
                arg.is_hide_set().to_string(),
            );
        }
        differ(
            "action",
            format!("{:?}", param.action),
            format!("{:?}", arg.get_action()),
        );
        differ(
            "env",
            format!("{:?}", param.env),
            format!(
                "{:?}",
                arg.get_env().map(|e| e.to_string_lossy().into_owned())
            ),
        );
        differ(
            "value delimiter",
            format!("{:?}", param.delimiter),
            format!("{:?}", arg.get_value_delimiter()),
        );
        differ(
            "aliases",
            sorted(&param.aliases),
            sorted(arg.get_all_aliases().unwrap_or_default()),
        );
        differ(
            "short aliases",
            sorted(&param.short_aliases),
            sorted(arg.get_all_short_aliases().unwrap_or_default()),
        );
        differ(
            "help",
            format!("{:?}", param.help),
            format!("{:?}", styled(arg.get_long_help().or(arg.get_help()))),
        );
        // A field of one value set with several words per use
        // (`Option<String>`, `num_args = 0..`) keeps the first: a call gives
        // that one, so it is no list.
        let one_kept = !param.multiple && matches!(arg.get_action(), clap::ArgAction::Set);
        let clap_multiple = matches!(arg.get_action(), clap::ArgAction::Append)
            || !one_kept
                && arg
                    .get_num_args()
                    .is_some_and(|range| range.max_values() > 1);
        // A `Vec` field set once with one value is an array of at most one
        // item: as clap, it takes no list.
        let ours_multiple = param.multiple && param.max_items.is_none_or(|max| max > 1);
        if !matches!(param.value_type, ValueType::Map { .. }) {
            differ(
                "takes a list",
                ours_multiple.to_string(),
                clap_multiple.to_string(),
            );
        }
        if let (Some(range), false, false) =
            (arg.get_num_args(), param.action.is_flag(), clap_multiple)
        {
            differ(
                "accepts no value (num_args 0..)",
                param.nullable.to_string(),
                (range.min_values() == 0).to_string(),
            );
        }
        if let (Some(range), false, false) = (
            arg.get_num_args(),
            param.action.is_flag(),
            matches!(param.value_type, ValueType::Map { .. }),
        ) {
            let max = if one_kept {
                range.max_values().min(1)
            } else {
                range.max_values()
            };
            let theirs = (
                range.min_values() as u64,
                (max != usize::MAX).then_some(max as u64),
            );
            differ(
                "values per use (num_args)",
                range_text(values_per_use(param)),
                range_text(theirs),
            );
        }
        let takes_flag = matches!(
            arg.get_action(),
            clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count
        );
        if !takes_flag {
            // A list's default is split on its delimiter when clap adds
            // it, as the values it gives.
            let delimiter = arg.get_value_delimiter().filter(|_| param.multiple);
            let theirs: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .flat_map(|text| match delimiter {
                    Some(d) => text.split(d).map(str::to_owned).collect(),
                    None => vec![text],
                })
                .collect();
            differ(
                "defaults",
                format!("{:?}", param.default_text),
                format!("{theirs:?}"),
            );
            let theirs: Vec<String> = arg
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_owned())
                .collect();
            if !theirs.is_empty() {
                let ours = match &param.value_type {
                    ValueType::Enum { values, .. } => values.clone(),
                    // A boolean taking a value (`ArgAction::Set`): clap's
                    // parser lists `true` and `false`.
                    ValueType::Boolean if !param.action.is_flag() => {
                        vec!["true".to_owned(), "false".to_owned()]
                    }
                    _ => Vec::new(),
                };
                differ(
                    "possible values",
                    format!("{ours:?}"),
                    format!("{theirs:?}"),
                );
            }
        }
    }
    for param in &ours.params {
        if !theirs_args.iter().any(|a| a.get_id().as_str() == param.id) {
            out.push(format!(
                "`{at}` argument `{}`: not in clap's command",
                param.id
            ));
        }
    }

    for sub in clap.get_subcommands() {
        match ours.subcommands.iter().find(|s| s.name == sub.get_name()) {
            Some(mine) => compare_command(mine, sub, path, out),
            // The `help` command clap adds to every command with subcommands.
            None if sub.get_name() == "help" => {}
            None => out.push(format!(
                "`{at}` subcommand `{}`: missing from our spec",
                sub.get_name()
            )),
        }
    }
    // An external subcommand (`#[command(external_subcommand)]`) is no
    // command of clap's, which takes any name it does not define.
    let external = ours.subcommands.iter().any(|s| s.external);
    if external != clap.is_allow_external_subcommands_set() {
        out.push(format!(
            "`{at}` external subcommands: clap {}, our spec {}",
            if clap.is_allow_external_subcommands_set() {
                "takes them"
            } else {
                "takes none"
            },
            if external {
                "has a tool for them"
            } else {
                "has none"
            },
        ));
    }
    for mine in ours.subcommands.iter().filter(|s| !s.external) {
        if clap.find_subcommand(&mine.name).is_none() {
            out.push(format!(
                "`{at}` subcommand `{}`: not in clap's command",
                mine.name
            ));
        }
    }
    path.pop();
}

#[cfg(test)]
mod tests {
    use clap::{Arg, ArgAction, Command};

    use super::differences;
    use crate::spec::{CommandSpec, ParamAction, ParamSpec, ValueType};

    /// A command and a spec that agree.
    fn pair() -> (CommandSpec, Command) {
        let clap = Command::new("app")
            .arg(Arg::new("name").long("name").action(ArgAction::Set))
            .arg(
                Arg::new("force")
                    .long("force")
                    .short('f')
                    .action(ArgAction::SetTrue),
            )
            .arg(
                Arg::new("tags")
                    .long("tags")
                    .action(ArgAction::Append)
                    .value_delimiter(','),
            )
            .arg(
                Arg::new("token")
                    .long("token")
                    .env("APP_TOKEN_FOR_PARITY_TESTS")
                    .action(ArgAction::Set),
            );
        let mut ours = CommandSpec::new("app");
        ours.params = vec![
            ParamSpec::flag("name", Some("name"), None, ValueType::string()),
            ParamSpec::flag("force", Some("force"), Some('f'), ValueType::Boolean)
                .action(ParamAction::SetTrue)
                .default_text(["false"]),
            {
                let mut tags = ParamSpec::flag("tags", Some("tags"), None, ValueType::string())
                    .multiple(None)
                    .action(ParamAction::Append);
                tags.delimiter = Some(',');
                tags
            },
            ParamSpec::flag("token", Some("token"), None, ValueType::string())
                .env(Some("APP_TOKEN_FOR_PARITY_TESTS")),
        ];
        (ours, clap)
    }

    #[test]
    fn agreeing_specs_have_no_difference() {
        let (ours, clap) = pair();
        assert_eq!(differences(&ours, clap), Vec::<String>::new());
    }

    /// Each planted difference is reported, naming what differs.
    #[test]
    fn every_planted_difference_is_reported() {
        type Plant = fn(&mut CommandSpec);
        let plants: &[(&str, Plant)] = &[
            ("hidden", |s| s.params[0].hidden = true),
            ("action", |s| s.params[1].action = ParamAction::Count),
            ("env", |s| s.params[3].env = None),
            ("value delimiter", |s| s.params[2].delimiter = None),
            ("takes a list", |s| s.params[2].multiple = false),
            ("accepts no value", |s| s.params[0].nullable = true),
            ("values per use", |s| {
                s.params[2] = s.params[2].clone().arity(crate::spec::Arity {
                    min: 1,
                    max: Some(2),
                    repeatable: true,
                })
            }),
            ("help", |s| s.params[0].help = Some("Something else".into())),
            ("aliases", |s| s.params[0].aliases = vec!["nom".into()]),
            ("short aliases", |s| s.params[0].short_aliases = vec!['n']),
            ("long", |s| {
                s.params[0].kind = crate::spec::ParamKind::Flag {
                    long: Some("nom".into()),
                    short: None,
                }
            }),
            ("required", |s| s.params[0].required = true),
            ("global", |s| s.params[0].global = true),
            ("defaults", |s| s.params[0].default_text = vec!["x".into()]),
            ("not in clap's command", |s| {
                s.params.push(ParamSpec::flag(
                    "extra",
                    Some("extra"),
                    None,
                    ValueType::string(),
                ))
            }),
            ("missing from our spec", |s| {
                s.params.remove(0);
            }),
            ("about", |s| s.about = Some("Something else".into())),
            ("`app` aliases", |s| s.aliases = vec!["application".into()]),
            ("no tool can set it", |s| {
                // Hidden on purpose, still visible in clap: no call can give it.
                s.params[0].hidden = true;
                s.params[0].skipped = true;
            }),
        ];
        for (what, plant) in plants {
            let (mut ours, clap) = pair();
            plant(&mut ours);
            let found = differences(&ours, clap);
            assert!(
                found.iter().any(|line| line.contains(what)),
                "a planted `{what}` difference went unreported: {found:?}"
            );
        }
    }

    #[test]
    fn a_parent_option_is_reachable_through_the_tools_below() {
        // clap takes `app --color never run`: the tool for `run` offers
        // `color`, so nothing is reported; planted as hidden on purpose,
        // no call could give it, and that is reported.
        let clap = || {
            Command::new("app")
                .arg(Arg::new("color").long("color").action(ArgAction::Set))
                .subcommand_required(true)
                .subcommand(Command::new("run"))
        };
        let mut ours = CommandSpec::new("app");
        ours.params = vec![ParamSpec::flag(
            "color",
            Some("color"),
            None,
            ValueType::string(),
        )];
        ours.subcommand_required = true;
        ours.subcommands = vec![CommandSpec::new("run")];
        assert_eq!(differences(&ours, clap()), Vec::<String>::new());
        ours.params[0].hidden = true;
        ours.params[0].skipped = true;
        let found = differences(&ours, clap());
        assert!(
            found
                .iter()
                .any(|line| line.contains("`app` argument `color`") && line.contains("no tool")),
            "{found:?}"
        );
    }
}
