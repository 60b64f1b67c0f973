//! A call's result: the output the command produced and its exit code,
//! and what a panic said.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

use crate::io::Structured;
use crate::spec::{OutputType, RESULT_PROPERTY};

/// What one tool call produced: the captured output, the exit code, and
/// the value the handler returned as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOutcome {
    /// What the command wrote to its stdout.
    pub stdout: String,
    /// What the command wrote to its stderr (or the argument error).
    pub stderr: String,
    /// The exit code: 0 for success, 2 for bad arguments (as clap), 101
    /// for a panic.
    pub exit_code: i32,
    /// The call's `structuredContent`: the value the handler returned as
    /// an [`Output`](crate::Output), under `result` when it is no object.
    pub structured: Option<Map<String, Value>>,
}

/// What a command declares it returns (`#[mcp(output = Type)]`), and
/// whether its values sit under `result` (a schema that is not an
/// object's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Returns {
    pub(crate) ty: OutputType,
    pub(crate) wrapped: bool,
}

impl Returns {
    pub(crate) fn new(ty: OutputType) -> Self {
        Self {
            ty,
            wrapped: !crate::spec::is_object_schema(&ty.schema()),
        }
    }
}

/// What became of a call whose job was lost before it answered (its task
/// of the runtime failed): said in its result, or its task's error.
pub(crate) const LOST: &str = "the call failed before it could answer";

impl CallOutcome {
    /// The outcome of a call whose job was lost before it answered.
    pub(crate) fn lost() -> Self {
        Self::new(101, String::new(), format!("{LOST}\n"))
    }

    /// An outcome without a returned value.
    pub(crate) fn new(exit_code: i32, stdout: String, stderr: String) -> Self {
        Self {
            stdout,
            stderr,
            exit_code,
            structured: None,
        }
    }

    /// The outcome with the value the handler returned, checked against
    /// what the command declares: a value of another type, or none from a
    /// successful call of a command that declares one, fails the call
    /// (MCP wants `structuredContent` to match the `outputSchema`); so
    /// does a value longer than `limit` bytes as JSON, as the text is cut
    /// there (it is left out, and the call says why).
    pub(crate) fn with_returned(
        mut self,
        returned: Option<Structured>,
        returns: Option<Returns>,
        tool: &str,
        limit: usize,
    ) -> Self {
        let declared = returns.map(|r| r.ty.name());
        let problem = match (&returned, returns) {
            (Some(value), Some(returns)) => {
                let same = match value.type_id {
                    Some(id) => returns.ty.is(id),
                    None => value.type_name == returns.ty.name(),
                };
                (!same).then(|| {
                    format!(
                        "tool `{tool}` declares its output as `{}` (`#[mcp(output = ...)]`), \
                         but its handler returned a `{}`",
                        returns.ty.name(),
                        value.type_name
                    )
                })
            }
            (None, Some(returns)) if self.exit_code == 0 => Some(format!(
                "tool `{tool}` declares its output as `{}` (`#[mcp(output = ...)]`), but its \
                 handler returned none: return `mcp_bridge::Output::new(value)`",
                returns.ty.name()
            )),
            _ => None,
        };
        let problem = problem.or_else(|| {
            let value = &returned.as_ref()?.value;
            (!json_fits(value, limit)).then(|| {
                format!(
                    "tool `{tool}` returned a value longer than this server's limit of {limit} \
                     bytes as JSON (`Bridge::output_limit`): its structured content is left \
                     out; run the command with narrower arguments (a filter, fewer items)"
                )
            })
        });
        if let Some(problem) = problem {
            tracing::error!(tool, declared, "{problem}");
            if !self.stderr.is_empty() && !self.stderr.ends_with('\n') {
                self.stderr.push('\n');
            }
            self.stderr.push_str(&problem);
            self.stderr.push('\n');
            if self.exit_code == 0 {
                self.exit_code = 1;
            }
            return self;
        }
        self.structured = returned.map(|returned| {
            let wrapped = match returns {
                Some(returns) => returns.wrapped,
                None => !returned.value.is_object(),
            };
            match returned.value {
                Value::Object(map) if !wrapped => map,
                value => Map::from_iter([(RESULT_PROPERTY.to_owned(), value)]),
            }
        });
        self
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.exit_code != 0
    }

    /// The MCP result: the output as one text, sent once: stdout, then
    /// stderr under a `[stderr]` line, then a failure's `[exit code N]`.
    pub(crate) fn into_result(self) -> CallToolResult {
        let mut text = self.stdout;
        let new_line = |text: &mut String| {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
        };
        if !self.stderr.is_empty() {
            new_line(&mut text);
            text.push_str("[stderr]\n");
            text.push_str(&self.stderr);
        }
        if self.exit_code != 0 {
            new_line(&mut text);
            text.push_str(&format!("[exit code {}]", self.exit_code));
        }
        let content = vec![ContentBlock::text(text)];
        let mut result = if self.exit_code != 0 {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        result.structured_content = self.structured.map(Value::Object);
        result
    }
}

/// Whether `value`, written as JSON, takes at most `limit` bytes (written
/// no further than that to find out).
fn json_fits(value: &Value, limit: usize) -> bool {
    struct Counter {
        left: usize,
    }
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.left = self
                .left
                .checked_sub(bytes.len())
                .ok_or_else(|| std::io::Error::other("over the limit"))?;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    serde_json::to_writer(&mut Counter { left: limit }, value).is_ok()
}

pub(crate) use crate::error::panic_message;
