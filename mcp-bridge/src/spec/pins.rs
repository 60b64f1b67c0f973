//! Root options the server's operator fixed (`taskctl --db tasks.json mcp
//! serve`), read from clap's matches into the JSON a call would give.

use clap::parser::ValueSource;
use clap::ArgMatches;
use serde_json::Value;

use super::{CommandSpec, ParamAction, ParamKind, ParamSpec};

/// The root's arguments given on the command line, by clap id, as JSON,
/// with how each was given (`--db`).
pub(crate) fn given(
    root: &CommandSpec,
    matches: &ArgMatches,
) -> Result<Vec<(String, Value, String)>, String> {
    let mut pins = Vec::new();
    for param in &root.params {
        let id = param.id.as_str();
        if matches.try_contains_id(id).ok() != Some(true)
            || matches.value_source(id) != Some(ValueSource::CommandLine)
        {
            continue;
        }
        let shown = shown(param);
        let value = match param.action {
            // `true`: the flag is given.
            ParamAction::SetTrue | ParamAction::SetFalse => Value::Bool(true),
            ParamAction::Count => Value::from(matches.get_count(id)),
            ParamAction::Set | ParamAction::Append => {
                let texts: Vec<String> = matches
                    .get_raw(id)
                    .into_iter()
                    .flatten()
                    .map(|text| {
                        text.to_str().map(str::to_owned).ok_or_else(|| {
                            format!("`{shown}`: only UTF-8 values can be fixed for calls")
                        })
                    })
                    .collect::<Result<_, _>>()?;
                let json = |text: &String| typed(param, text, &shown);
                if param.multiple {
                    Value::Array(texts.iter().map(json).collect::<Result<_, _>>()?)
                } else {
                    match texts.first() {
                        Some(text) => json(text)?,
                        None => Value::Null,
                    }
                }
            }
        };
        pins.push((param.id.clone(), value, shown));
    }
    Ok(pins)
}

/// How a user types the argument.
fn shown(param: &ParamSpec) -> String {
    match &param.kind {
        ParamKind::Flag {
            long: Some(long), ..
        } => format!("--{long}"),
        ParamKind::Flag {
            short: Some(short), ..
        } => format!("-{short}"),
        _ => param.id.clone(),
    }
}

/// One value's text as the JSON the property's schema asks for; the
/// converter checks it on every call, as it checks a call's own.
fn typed(param: &ParamSpec, text: &str, shown: &str) -> Result<Value, String> {
    let cannot = |what: &str| format!("`{shown} {text}`: {what} cannot be fixed for calls");
    match param.value_type.json_type() {
        "integer" => text
            .parse::<i64>()
            .map(Value::from)
            .or_else(|_| text.parse::<u64>().map(Value::from))
            .map_err(|_| cannot("this integer")),
        "number" => text
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .ok_or_else(|| cannot("this number")),
        "boolean" => text
            .parse::<bool>()
            .map(Value::Bool)
            .map_err(|_| cannot("this value")),
        "object" => Err(cannot("a key=value argument")),
        _ => Ok(Value::String(text.to_owned())),
    }
}

/// The pinned values as command-line arguments again (`--db X`), for a
/// client's configuration.
pub(crate) fn argv(root: &CommandSpec, pins: &[(String, Value, String)]) -> Vec<String> {
    let mut argv = Vec::new();
    for (id, value, shown) in pins {
        let Some(param) = root.params.iter().find(|p| &p.id == id) else {
            continue;
        };
        let flag = matches!(param.kind, ParamKind::Flag { .. });
        match (param.action, value) {
            (ParamAction::Count, Value::Number(n)) => {
                argv.extend(std::iter::repeat_n(
                    shown.clone(),
                    n.as_u64().unwrap_or(0) as usize,
                ));
            }
            (ParamAction::SetTrue | ParamAction::SetFalse, _) => argv.push(shown.clone()),
            (_, Value::Array(items)) => {
                for item in items {
                    if flag {
                        argv.push(shown.clone());
                    }
                    argv.push(text(item));
                }
            }
            (_, value) => {
                if flag {
                    argv.push(shown.clone());
                }
                argv.push(text(value));
            }
        }
    }
    argv
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
