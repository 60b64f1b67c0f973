//! Helpers for your own tests: check that the MCP surface the derive
//! generated matches what clap builds from the same types.
//!
//! This is the one place that builds `clap::Command` — in tests, never on
//! the serving path.

use clap::CommandFactory;

use crate::spec::{CommandSpec, ParamKind, ValueType};
use crate::traits::McpCommand;

/// Fails with a readable list of differences if the specs of `C` disagree
/// with `C::command()`: command names and nesting, help texts, hidden
/// commands, required subcommands, and for every argument its id, long and
/// short names, positional or not, required, global, hidden, defaults and
/// possible values.
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

/// The differences [`assert_parity`] reports, one line each.
pub fn parity_differences<C: McpCommand + CommandFactory>() -> Vec<String> {
    let mut differences = Vec::new();
    compare_command(
        &C::command_spec(),
        &C::command(),
        &mut Vec::new(),
        &mut differences,
    );
    differences
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
    if clap.get_subcommands().next().is_some() {
        differ(
            "subcommand required",
            ours.subcommand_required.to_string(),
            clap.is_subcommand_required_set().to_string(),
        );
    }

    let theirs_args: Vec<&clap::Arg> = clap
        .get_arguments()
        .filter(|a| {
            !matches!(
                a.get_action(),
                clap::ArgAction::Help
                    | clap::ArgAction::HelpShort
                    | clap::ArgAction::HelpLong
                    | clap::ArgAction::Version
            )
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
        let takes_flag = matches!(
            arg.get_action(),
            clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count
        );
        if !takes_flag {
            let theirs: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
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
                    ValueType::Enum { values } => values.clone(),
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
            None => out.push(format!(
                "`{at}` subcommand `{}`: missing from our spec",
                sub.get_name()
            )),
        }
    }
    for mine in &ours.subcommands {
        if clap.find_subcommand(&mine.name).is_none() {
            out.push(format!(
                "`{at}` subcommand `{}`: not in clap's command",
                mine.name
            ));
        }
    }
    path.pop();
}
