//! A call's result: the output the command produced and its exit code,
//! and what a panic said.

use std::any::Any;

use rmcp::model::{CallToolResult, ContentBlock};

/// What one tool call produced: the captured output and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallOutcome {
    /// What the command wrote to its stdout.
    pub stdout: String,
    /// What the command wrote to its stderr (or the argument error).
    pub stderr: String,
    /// The exit code: 0 for success, 2 for bad arguments (as clap), 101
    /// for a panic.
    pub exit_code: i32,
}

impl CallOutcome {
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
        if self.exit_code != 0 {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        }
    }
}

pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_owned()
    }
}
