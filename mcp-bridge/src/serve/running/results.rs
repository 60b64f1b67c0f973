//! Shaping a call's result: what a command printed parsed into
//! `structuredContent` (`#[mcp(output = "...")]`), bad arguments answered
//! as clap reports them, a call the shutdown stopped.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use super::output;
use super::run::CallOutcome;
use crate::error::ArgError;
use crate::spec::OutputFormat;

/// A call's result; with `#[mcp(output = "...")]`, what a successful
/// call printed is parsed into `structuredContent` too (or, when it does
/// not parse, left as text with a warning in the log).
pub(in crate::serve) fn with_output(
    outcome: CallOutcome,
    output: Option<OutputFormat>,
    tool: &str,
) -> CallToolResult {
    let parsed = match output {
        // A value the handler returned is the structured content.
        _ if outcome.structured.is_some() => None,
        Some(format) if outcome.exit_code == 0 => match output::structured(format, &outcome.stdout)
        {
            Ok(parsed) => Some(Value::Object(parsed)),
            Err(why) => {
                tracing::warn!(tool, ?format, %why, "output not parsed: sent as text only");
                None
            }
        },
        _ => None,
    };
    let mut result = outcome.into_result();
    if parsed.is_some() {
        result.structured_content = parsed;
    }
    result
}

/// Bad arguments, answered as clap would: exit code 2, the message on stderr.
pub(in crate::serve) fn invalid_arguments(error: &ArgError) -> CallOutcome {
    CallOutcome::new(2, String::new(), error.to_string())
}

/// The answer to a call the shutdown stopped: it did not finish in the
/// grace period, and, told to stop, may still complete (a synchronous
/// handler runs until it returns, or until the process ends).
pub(in crate::serve) fn unfinished(tool: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "tool `{tool}` had not finished when the server stopped (its shutdown grace \
         period ended): it was asked to stop, and what it was doing may or may not have \
         completed"
    ))])
}
