//! The parameters of a struct that implements `clap::Args` by hand (clap's
//! builder API) and not `McpArgs`: read from the `Arg`s its
//! `augment_args` adds to a clap `Command`, through clap's getters, when
//! the tool table is built (`call::clap_args` builds its value).

use std::any::TypeId;

use clap::ArgAction;

use super::{Arity, CommandSpec, GroupSpec, ParamAction, ParamRelations, ParamSpec, ValueType};

/// `text` for a clap builder that keeps only `'static` text: clap takes
/// owned text only with its `string` feature, which would change the
/// code clap's derive generates in every adopter's crate (a quarter more
/// compile time on a 300-command CLI), so the few names the bridge makes
/// at run time are kept for the process's life instead, each text once.
pub(crate) fn static_text(text: &str) -> &'static str {
    static KEPT: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    match kept.iter().find(|kept| **kept == text) {
        Some(kept) => kept,
        None => {
            let leaked: &'static str = Box::leak(text.into());
            kept.push(leaked);
            leaked
        }
    }
}

/// Adds to `cmd` the parameters, the groups and the command's own
/// settings of what `clap` (a command `augment_args` added the struct's
/// arguments to) declares.
pub(crate) fn augment(cmd: &mut CommandSpec, clap: clap::Command, stand_ins: &[String]) {
    settings(cmd, &clap);
    for arg in clap
        .get_arguments()
        .filter(|arg| !stand_ins.iter().any(|id| arg.get_id() == id.as_str()))
    {
        if let Some(param) = param(&clap, arg) {
            cmd.params.push(param);
        }
    }
    for group in clap.get_groups() {
        let members: Vec<String> = group.get_args().map(|id| id.to_string()).collect();
        if members.is_empty() {
            continue;
        }
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        cmd.declare_group(GroupSpec::new(
            group.get_id().as_str(),
            &members,
            group.is_required_set(),
            group.clone().is_multiple(),
            &[],
            &[],
        ));
    }
}

/// What `augment_args` set on the command itself: a derived `Args`'s
/// `#[command(about = ..)]` or doc comment, which clap applies to the
/// command that flattens it, as the derive's own layer would (that layer
/// comes after, and wins, as clap applies it after too). A setting left
/// at clap's default changes nothing.
fn settings(cmd: &mut CommandSpec, clap: &clap::Command) {
    if let Some(about) = clap.get_about() {
        cmd.about = Some(about.to_string());
    }
    if let Some(long_about) = clap.get_long_about() {
        cmd.long_about = Some(long_about.to_string());
    }
    if let Some(version) = clap.get_version() {
        cmd.version = Some(version.to_owned());
    }
    cmd.hidden |= clap.is_hide_set();
    cmd.subcommand_required |= clap.is_subcommand_required_set();
    cmd.args_conflict_with_subcommands |= clap.is_args_conflicts_with_subcommands_set();
    cmd.subcommand_negates_reqs |= clap.is_subcommand_negates_reqs_set();
    for alias in clap.get_all_aliases() {
        if !cmd.aliases.iter().any(|known| known == alias) {
            cmd.aliases.push(alias.to_owned());
        }
    }
}

/// The property an argument is given by (its long name, else its id),
/// and how a command line spells it (`--long`, `-s`, aliases); `None` for
/// help and version flags, which are no property.
pub(crate) fn property(arg: &clap::Arg) -> Option<(String, Vec<String>)> {
    if matches!(
        arg.get_action(),
        ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
    ) {
        return None;
    }
    let id = arg.get_id().as_str();
    let name = match (arg.is_positional(), arg.get_long()) {
        (false, Some(long)) => long.to_owned(),
        _ => id.to_owned(),
    };
    let mut spelled: Vec<String> = arg
        .get_long()
        .map(|l| format!("--{l}"))
        .into_iter()
        .collect();
    spelled.extend(arg.get_short().map(|s| format!("-{s}")));
    if let Some(aliases) = arg.get_all_aliases() {
        spelled.extend(aliases.into_iter().map(|a| format!("--{a}")));
    }
    if arg.is_positional() {
        spelled.push(format!("<{}>", id.to_uppercase()));
        for name in arg.get_value_names().unwrap_or_default() {
            spelled.push(format!("<{name}>"));
        }
    }
    Some((name, spelled))
}

fn param(clap: &clap::Command, arg: &clap::Arg) -> Option<ParamSpec> {
    let (name, _) = property(arg)?;
    let id = arg.get_id().as_str();
    let action = match arg.get_action() {
        ArgAction::SetTrue => ParamAction::SetTrue,
        ArgAction::SetFalse => ParamAction::SetFalse,
        ArgAction::Count => ParamAction::Count,
        ArgAction::Append => ParamAction::Append,
        _ => ParamAction::Set,
    };
    let value_type = match action {
        ParamAction::SetTrue | ParamAction::SetFalse => ValueType::Boolean,
        ParamAction::Count => ValueType::Integer {
            minimum: Some(0),
            maximum: Some(255),
        },
        _ => value_type(arg),
    };
    let mut param = match arg.is_positional() {
        true => ParamSpec::positional(id, value_type),
        false => ParamSpec::flag(id, arg.get_long(), arg.get_short(), value_type),
    };
    param.name = name;
    param.action = action;
    let range = arg.get_num_args();
    let per_use = range.map_or(1, |r| r.max_values());
    param.multiple = action == ParamAction::Append || per_use > 1;
    param.required = arg.is_required_set() && arg.get_default_values().is_empty();
    if param.multiple && param.required {
        param.min_items = Some(1);
    }
    // As clap's `--help` has it: the long help first.
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(ToString::to_string);
    param.help.clone_from(&help);
    param.description = help;
    param.global = arg.is_global_set();
    param.last = arg.is_last_set();
    param.hidden = arg.is_hide_set();
    param.ignore_case = arg.is_ignore_case_set();
    param.delimiter = arg.get_value_delimiter();
    param.aliases = arg
        .get_all_aliases()
        .unwrap_or_default()
        .into_iter()
        .map(str::to_owned)
        .collect();
    param.short_aliases = arg.get_all_short_aliases().unwrap_or_default();
    param.nullable =
        range.is_some_and(|r| r.min_values() == 0 && r.takes_values()) && !param.multiple;
    if let (true, Some(range)) = (param.multiple, range) {
        param.set_arity(Arity {
            min: range.min_values() as u32,
            max: (range.max_values() != usize::MAX).then(|| range.max_values() as u32),
            repeatable: action == ParamAction::Append,
        });
    }
    // Through `From`, so that an argument without conflicts holds none.
    param.relations = ParamRelations {
        conflicts_with: clap
            .get_arg_conflicts_with(arg)
            .into_iter()
            .map(|other| other.get_id().to_string())
            .collect(),
        ..ParamRelations::default()
    }
    .into();
    param.set_env(
        arg.get_env()
            .and_then(|env| env.to_str())
            .map(str::to_owned)
            .as_deref(),
    );
    param.set_default_text(
        arg.get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect(),
    );
    Some(param)
}

/// The JSON type of one value: a possible value, or what the value
/// parser makes (an integer, a number, a boolean), else a string.
fn value_type(arg: &clap::Arg) -> ValueType {
    let possible = arg.get_possible_values();
    if !possible.is_empty() {
        let values = possible
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_owned())
            .collect();
        let help: Vec<String> = possible
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_help().map(ToString::to_string).unwrap_or_default())
            .collect();
        let help = match help.iter().all(String::is_empty) {
            true => Vec::new(),
            false => help,
        };
        return ValueType::Enum { values, help };
    }
    let of = arg.get_value_parser().type_id();
    macro_rules! integers {
        ($($t:ty),*) => {
            $(if of == TypeId::of::<$t>() {
                return ValueType::Integer {
                    minimum: Some(i128::from(<$t>::MIN)),
                    maximum: Some(i128::from(<$t>::MAX)),
                };
            })*
        };
    }
    integers!(u8, u16, u32, u64, i8, i16, i32, i64);
    if of == TypeId::of::<usize>() {
        return ValueType::Integer {
            minimum: Some(0),
            maximum: Some(usize::MAX as i128),
        };
    }
    if of == TypeId::of::<isize>() {
        return ValueType::Integer {
            minimum: Some(isize::MIN as i128),
            maximum: Some(isize::MAX as i128),
        };
    }
    if of == TypeId::of::<f64>() || of == TypeId::of::<f32>() {
        return ValueType::Number;
    }
    if of == TypeId::of::<bool>() {
        return ValueType::Boolean;
    }
    ValueType::string()
}

/// `#[command(mut_arg(id, f))]`: the change `f` makes to the argument `id`
/// of `cmd`, read through clap's own `Arg`: an `Arg` holding what the
/// parameter holds (help, whether hidden or required, defaults, variable)
/// is handed to `f`, and what it changed is taken back. An id the command
/// does not have is left alone (clap panics on it when it builds, which
/// `assert_parity` shows).
pub(crate) fn mut_arg(cmd: &mut CommandSpec, id: &str, f: impl FnOnce(clap::Arg) -> clap::Arg) {
    let Some(param) = cmd.params.iter_mut().find(|p| p.id == id) else {
        return;
    };
    let mut before = clap::Arg::new(static_text(id))
        .hide(param.hidden)
        .required(param.required)
        .default_values(param.default_text.iter().map(|text| static_text(text)));
    if let Some(help) = &param.help {
        before = before.help(help.clone());
    }
    if let Some(env) = &param.env {
        before = before.env(static_text(env));
    }
    let after = f(before);
    let help = after
        .get_long_help()
        .or(after.get_help())
        .map(ToString::to_string);
    param.replace_help(help);
    param.hidden = after.is_hide_set();
    param.required = after.is_required_set();
    let defaults: Vec<String> = after
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if defaults != param.default_text {
        param.set_default_text(defaults);
    }
    param.env = after.get_env().map(|v| v.to_string_lossy().into_owned());
}

/// The `Command` of `T`'s arguments alone, built, and the ids of the
/// stand-ins it needed. A hand-written `Args` may name arguments of the
/// struct that flattens it (fd's `--exec` conflicts with
/// `--list-details`), which clap's debug checks refuse in a command of its
/// own: each id they name gets a hidden stand-in that no call gives (the
/// checks, and so the stand-ins, exist only in debug builds).
pub(crate) fn standalone<T: clap::Args + 'static>(name: &str) -> (clap::Command, Vec<String>) {
    // Found once per type: each try that clap refuses is a panic.
    static FOUND: std::sync::Mutex<Vec<(TypeId, Vec<String>)>> = std::sync::Mutex::new(Vec::new());
    let found = |stand_ins: &Vec<String>| {
        let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
        if !found.iter().any(|(id, _)| *id == TypeId::of::<T>()) {
            found.push((TypeId::of::<T>(), stand_ins.clone()));
        }
    };
    let mut stand_ins: Vec<String> = FOUND
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(id, _)| *id == TypeId::of::<T>())
        .map(|(_, ids)| ids.clone())
        .unwrap_or_default();
    loop {
        let mut cmd = T::augment_args(clap::Command::new(static_text(name)));
        for id in &stand_ins {
            cmd = cmd.arg(
                clap::Arg::new(static_text(id))
                    .long(static_text(&format!("mcp-bridge-stand-in-{id}")))
                    .action(ArgAction::SetTrue)
                    .hide(true),
            );
        }
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            cmd.build();
            cmd
        }));
        match built {
            Ok(cmd) => {
                found(&stand_ins);
                return (cmd, stand_ins);
            }
            Err(panic) => match missing_id(&crate::error::panic_message(&*panic)) {
                Some(id) if stand_ins.len() < 64 && !stand_ins.contains(&id) => {
                    stand_ins.push(id);
                }
                _ => std::panic::resume_unwind(panic),
            },
        }
    }
}

/// The id a clap debug check says does not exist.
fn missing_id(message: &str) -> Option<String> {
    let after = ["Argument or group '", "contains non-existent argument '"]
        .iter()
        .find_map(|marker| message.split_once(marker).map(|(_, rest)| rest))?;
    after.split_once('\'').map(|(id, _)| id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::static_text;

    #[test]
    fn a_text_made_static_is_kept_once() {
        let name = String::from("made-at-run-time");
        let first = static_text(&name);
        let again = static_text(&format!("made-at-{}", "run-time"));
        assert_eq!(first, "made-at-run-time");
        assert!(
            std::ptr::eq(first, again),
            "the same text is not kept twice"
        );
        assert_ne!(static_text("another"), first);
    }
}
