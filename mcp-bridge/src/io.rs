//! Where a command's output goes: the real terminal in CLI mode, buffers
//! captured for the result in MCP mode.

use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Reports progress to the client: `(done, total, message)`.
pub(crate) type ProgressFn = Arc<dyn Fn(f64, Option<f64>, Option<String>) + Send + Sync>;

/// The writers a handler prints through.
///
/// In CLI mode they are the process's stdout and stderr; under `mcp serve`
/// they are buffers that become the tool result, so a handler never writes
/// into the protocol channel.
///
/// ```
/// use std::io::Write;
/// use mcp_bridge::Io;
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let mut io = Io::new(&mut out, &mut err, true);
/// writeln!(io.out(), "hello").unwrap();
/// assert!(io.is_mcp());
/// drop(io);
/// assert_eq!(out, b"hello\n");
/// ```
pub struct Io<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    mcp: bool,
    cancelled: Option<Arc<AtomicBool>>,
    progress: Option<ProgressFn>,
}

impl<'a> Io<'a> {
    /// Writers for one run of a command; `mcp` tells the handler whether it
    /// runs as an MCP tool.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, mcp: bool) -> Self {
        Self {
            out,
            err,
            mcp,
            cancelled: None,
            progress: None,
        }
    }

    /// The flag a cancelled or timed-out call raises, and where progress
    /// goes.
    pub(crate) fn watched(
        mut self,
        cancelled: Arc<AtomicBool>,
        progress: Option<ProgressFn>,
    ) -> Self {
        self.cancelled = Some(cancelled);
        self.progress = progress;
        self
    }

    /// Whether the call was cancelled by the client or ran past its
    /// timeout: nobody waits for the result any more, so a long command
    /// should stop at the next safe point. Always `false` in CLI mode.
    pub fn cancelled(&self) -> bool {
        self.cancelled
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Reports progress (`done` of `total`, with a message) to the client,
    /// when it asked for progress of this call (`notifications/progress`);
    /// does nothing otherwise, and in CLI mode.
    pub fn progress(&self, done: f64, total: Option<f64>, message: Option<&str>) {
        if let Some(progress) = &self.progress {
            progress(done, total, message.map(str::to_owned));
        }
    }

    /// Standard output of the command.
    pub fn out(&mut self) -> &mut dyn Write {
        self.out
    }

    /// Standard error of the command.
    pub fn err(&mut self) -> &mut dyn Write {
        self.err
    }

    /// Whether the command runs as an MCP tool call (output is captured).
    pub fn is_mcp(&self) -> bool {
        self.mcp
    }
}

/// What a handler returns, turned into an exit code: what a `main`
/// returns.
///
/// `()` is success; an integer or an [`ExitCode`](std::process::ExitCode)
/// is the exit code; a `Result` reports its error on stderr (`error: ...`,
/// with the chain of causes for errors that print it with `{:#}`, as
/// `anyhow` and `eyre` do) and exits with 1.
///
/// ```
/// use mcp_bridge::{Io, Report};
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let mut io = Io::new(&mut out, &mut err, false);
/// let failed: Result<(), String> = Err("no such task".into());
/// assert_eq!(failed.report(&mut io), 1);
/// drop(io);
/// assert_eq!(String::from_utf8(err).unwrap(), "error: no such task\n");
/// ```
pub trait Report {
    /// The exit code, after writing any error to `io.err()`.
    fn report(self, io: &mut Io<'_>) -> i32;
}

impl Report for () {
    fn report(self, _: &mut Io<'_>) -> i32 {
        0
    }
}

impl Report for i32 {
    fn report(self, _: &mut Io<'_>) -> i32 {
        self
    }
}

impl Report for u8 {
    fn report(self, _: &mut Io<'_>) -> i32 {
        self.into()
    }
}

impl Report for std::process::ExitCode {
    fn report(self, _: &mut Io<'_>) -> i32 {
        // `ExitCode` does not say its number; it compares, though.
        (0..=u8::MAX)
            .find(|code| Self::from(*code) == self)
            .map_or(1, i32::from)
    }
}

impl<T: Report, E: Display> Report for Result<T, E> {
    fn report(self, io: &mut Io<'_>) -> i32 {
        match self {
            Ok(value) => value.report(io),
            Err(error) => {
                // The exit code carries the failure even if stderr is gone.
                let _ = writeln!(io.err(), "error: {error:#}");
                1
            }
        }
    }
}
