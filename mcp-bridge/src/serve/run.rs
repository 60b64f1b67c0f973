//! Running the user's handler on a built value: output captured into
//! buffers, a panic caught and reported, the exit code kept.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

use crate::io::Io;

/// The user's handler, with its return value already turned into an exit
/// code.
pub(crate) type Handler<C> = Arc<dyn Fn(C, &mut Io<'_>) -> i32 + Send + Sync>;

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

    pub(crate) fn into_result(self) -> CallToolResult {
        let text = match (self.stdout.is_empty(), self.stderr.is_empty()) {
            (_, true) => self.stdout.clone(),
            (true, false) => self.stderr.clone(),
            (false, false) => format!(
                "{}\n[stderr]\n{}",
                self.stdout.trim_end_matches('\n'),
                self.stderr
            ),
        };
        let content = vec![ContentBlock::text(text)];
        let mut result = if self.is_error() {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        result.structured_content = Some(json!({
            "stdout": self.stdout,
            "stderr": self.stderr,
            "exitCode": self.exit_code,
        }));
        result
    }
}

pub(crate) fn run_handler<C>(handler: &Handler<C>, cli: C) -> CallOutcome {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let exit_code = {
        let mut io = Io::new(&mut stdout, &mut stderr, true);
        match catch_unwind(AssertUnwindSafe(|| handler(cli, &mut io))) {
            Ok(code) => code,
            Err(panic) => {
                let message = panic_message(&*panic);
                tracing::error!("command panicked: {message}");
                let _ = std::io::Write::write_fmt(
                    io.err(),
                    format_args!("command panicked: {message}\n"),
                );
                101
            }
        }
    };
    CallOutcome {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        exit_code,
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_owned()
    }
}

/// Runs a (possibly slow, blocking) command without starving the runtime:
/// on a multi-threaded runtime other requests keep being served meanwhile.
pub(crate) fn run_blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}
