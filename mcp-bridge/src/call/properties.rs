//! The property names of a call: every one must be a property of the tool.

use serde_json::{Map, Value};

use crate::error::{ArgError, Problem};
use crate::spec::ToolSpec;

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
                    suggestion: closest(key, sorted),
                    accepted: tool.params.iter().map(|p| p.name.clone()).collect(),
                },
            ));
        }
    }
    Ok(())
}

/// The accepted name closest to a misspelt one, if it is close enough to
/// be a likely typo.
fn closest(given: &str, accepted: &[String]) -> Option<String> {
    accepted
        .iter()
        .map(|name| (strsim::jaro(given, name), name))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.clone())
}
