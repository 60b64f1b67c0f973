//! The value of a struct that implements `clap::Args` by hand (clap's
//! builder API) and has no `McpArgs` (`traits::ArgsOf`): built by clap,
//! from the call's properties for that struct alone written as a command
//! line, through its own `FromArgMatches`. The one place a call's value is
//! parsed from text (`spec::clap_args` reads its parameters).

use clap::ArgAction;
use serde_json::Value;

use super::{is_given, scalar_text as text, BuildCtx};
use crate::error::{ArgError, Problem};

/// `T` built by clap from the call's properties of its arguments.
pub(crate) fn build<T: clap::Args + clap::FromArgMatches + 'static>(
    ctx: &BuildCtx<'_>,
) -> Result<T, ArgError> {
    let (clap, _) = crate::spec::clap_args::standalone::<T>(ctx.tool());
    let (clap, matches) = matches(ctx, clap)?;
    T::from_arg_matches(&matches).map_err(|error| refused(ctx, &error, &clap))
}

/// Whether any argument of `T` is given in the call (explicitly, or by
/// its environment variable, as clap counts it).
pub(crate) fn given<T: clap::Args + 'static>(ctx: &BuildCtx<'_>) -> bool {
    let (clap, _) = crate::spec::clap_args::standalone::<T>(ctx.tool());
    let given = clap.get_arguments().any(|arg| {
        crate::spec::clap_args::property(arg)
            .is_some_and(|(name, _)| ctx.given(&name).is_some_and(is_given))
            || arg
                .get_env()
                .is_some_and(|env| std::env::var_os(env).is_some())
    });
    given
}

/// The call's properties of `clap`'s arguments as a command line, parsed
/// by clap.
fn matches(
    ctx: &BuildCtx<'_>,
    clap: clap::Command,
) -> Result<(clap::Command, clap::ArgMatches), ArgError> {
    let mut clap = clap.no_binary_name(true);
    clap.build();
    let mut flags: Vec<String> = Vec::new();
    let mut occurrences: Vec<String> = Vec::new();
    let mut positionals: Vec<(usize, bool, Vec<String>)> = Vec::new();
    let has_last = clap.get_positionals().any(clap::Arg::is_last_set);
    for arg in clap.get_arguments() {
        let Some((name, _)) = crate::spec::clap_args::property(arg) else {
            continue;
        };
        let Some(value) = ctx.given(&name) else {
            continue;
        };
        let wrong = |expected: &str| {
            ArgError::new(
                ctx.tool(),
                Some(&name),
                Problem::Invalid {
                    given: value.to_string(),
                    expected: expected.to_owned(),
                    reason: None,
                },
            )
        };
        let word = match (arg.get_long(), arg.get_short()) {
            (Some(long), _) => format!("--{long}"),
            (None, Some(short)) => format!("-{short}"),
            (None, None) => String::new(),
        };
        match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => match value {
                Value::Bool(true) => flags.push(word),
                Value::Bool(false) => {}
                _ => return Err(wrong("a boolean")),
            },
            ArgAction::Count => {
                let n = value
                    .as_u64()
                    .filter(|n| *n <= 255)
                    .ok_or_else(|| wrong("an integer from 0 to 255"))?;
                flags.extend((0..n).map(|_| word.clone()));
            }
            _ => {
                let texts: Vec<String> = match value {
                    // No value is no argument on a command line.
                    Value::Array(items) if items.is_empty() => continue,
                    Value::Array(items) => items
                        .iter()
                        .map(text)
                        .collect::<Option<_>>()
                        .ok_or_else(|| wrong("an array of strings"))?,
                    Value::Null if !arg.is_positional() => {
                        // Given without a value (`num_args = 0..=1`).
                        flags.push(word);
                        continue;
                    }
                    other => vec![text(other).ok_or_else(|| wrong("a string"))?],
                };
                if arg.is_positional() {
                    // Said before the `--` (below): a word starting with
                    // `-` there may be a flag to clap, `allow_hyphen_values`
                    // or not (a known flag, `--` itself); a negative
                    // number only where clap takes one.
                    let numbers =
                        arg.is_allow_negative_numbers_set() || arg.is_allow_hyphen_values_set();
                    let flag_like = |text: &String| {
                        text.starts_with('-')
                            && text != "-"
                            && !(numbers && crate::spec::command_line::is_negative_number(text))
                    };
                    if has_last && !arg.is_last_set() && texts.iter().any(flag_like) {
                        return Err(wrong(
                            "a value not starting with `-`: a command line says it before the \
                             `--` that the last argument takes",
                        ));
                    }
                    positionals.push((
                        arg.get_index().unwrap_or(usize::MAX),
                        arg.is_last_set(),
                        texts,
                    ));
                    continue;
                }
                let per_use = arg.get_num_args().map_or(1, |n| n.max_values());
                if per_use > 1 {
                    // One use with every value (`--exec cmd arg`), ended
                    // by the argument's terminator when it has one.
                    occurrences.push(word);
                    occurrences.extend(texts);
                    if let Some(end) = arg.get_value_terminator() {
                        occurrences.push(end.to_string());
                    }
                } else {
                    flags.extend(texts.into_iter().map(|t| format!("{word}={t}")));
                }
            }
        }
    }
    positionals.sort_by_key(|(index, ..)| *index);
    // After `--` every word is a positional's value, so a value may start
    // with `-`; but when an argument is `last`, clap gives it every word
    // after `--`, and the others are said before it (where a value
    // starting with `-` would be read as a flag: refused above), first:
    // after a flag given alone or one taking several values, clap would
    // give it to the flag.
    let (last, before): (Vec<_>, Vec<_>) = positionals
        .into_iter()
        .partition(|(_, last, _)| *last || !has_last);
    let mut words: Vec<String> = before.into_iter().flat_map(|(.., texts)| texts).collect();
    words.extend(flags);
    words.extend(occurrences);
    if !last.is_empty() {
        words.push("--".to_owned());
        words.extend(last.into_iter().flat_map(|(.., texts)| texts));
    }
    match clap.try_get_matches_from_mut(words) {
        Ok(matches) => Ok((clap, matches)),
        Err(error) => Err(refused(ctx, &error, &clap)),
    }
}

/// clap's refusal as the call's error, naming the property clap names.
fn refused(ctx: &BuildCtx<'_>, error: &clap::Error, clap: &clap::Command) -> ArgError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let said = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.clone()),
        _ => None,
    };
    let property = said.as_deref().and_then(|said| {
        clap.get_arguments()
            .filter_map(crate::spec::clap_args::property)
            .find(|(_, spelled)| {
                spelled
                    .iter()
                    .any(|s| said.split([' ', '=']).next() == Some(s))
            })
            .map(|(name, _)| name)
    });
    let message = error
        .render()
        .to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_owned();
    let problem = match error.kind() {
        ErrorKind::InvalidValue | ErrorKind::ValueValidation | ErrorKind::InvalidUtf8 => {
            Problem::Invalid {
                given: error
                    .get(ContextKind::InvalidValue)
                    .map(|v| {
                        format!("{v:?}")
                            .trim_start_matches("String(")
                            .trim_end_matches(')')
                            .to_owned()
                    })
                    .unwrap_or_default(),
                expected: "a value the command accepts".to_owned(),
                reason: Some(message),
            }
        }
        _ => Problem::Relation { message },
    };
    ArgError::new(ctx.tool(), property.as_deref(), problem)
}
