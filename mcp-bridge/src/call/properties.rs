//! The property names of a call: every one must be a property of the tool.

use serde_json::{Map, Value};

use crate::error::{ArgError, Problem};
use crate::spec::{ParamKind, ToolSpec};

/// Checks the property names of a call against the tool's (`sorted`).
pub(crate) fn check(
    tool: &ToolSpec,
    sorted: &[String],
    args: &Map<String, Value>,
) -> Result<(), ArgError> {
    for key in args.keys() {
        if sorted.binary_search(key).is_err() {
            return Err(ArgError::new(
                tool.name.clone(),
                Some(key),
                Problem::Unknown {
                    suggestion: spelt_for(tool, key).or_else(|| closest(key, sorted)),
                    accepted: tool.params.iter().map(|p| p.name.clone()).collect(),
                },
            ));
        }
    }
    Ok(())
}

/// The property a command-line spelling stands for: an alias, a short
/// name, or a long name the property is not named after (`-n`, `colour`).
fn spelt_for(tool: &ToolSpec, given: &str) -> Option<String> {
    let given = given.trim_start_matches('-');
    let mut chars = given.chars();
    let short = chars.next().filter(|_| chars.next().is_none());
    tool.params
        .iter()
        .filter(|p| !p.hidden)
        .find(|p| {
            let (long, own_short) = match &p.kind {
                ParamKind::Flag { long, short } => (long.as_deref(), *short),
                ParamKind::Positional => (None, None),
            };
            long == Some(given)
                || p.aliases.iter().any(|a| a == given)
                || short.is_some_and(|c| own_short == Some(c) || p.short_aliases.contains(&c))
        })
        .map(|p| p.name.clone())
}

/// The accepted name closest to a misspelt one, if it is close enough to
/// be a likely typo.
pub(crate) fn closest(given: &str, accepted: &[String]) -> Option<String> {
    accepted
        .iter()
        .map(|name| (strsim::jaro(given, name), name))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}
