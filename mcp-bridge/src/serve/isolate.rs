//! Isolated calls: a call run in a child process of the same binary, which
//! receives the tool's name and its JSON arguments (never an argv) and
//! builds the typed value itself. A crash, `std::process::exit` or a hang
//! there cannot take the server down; its output comes from real file
//! descriptors; a cancelled or timed-out call is killed.
//!
//! The parent has already checked the arguments, so the child's build is
//! the same typed build, run again.

use std::io::Read;
use std::process::Stdio;

use serde_json::{Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::capture::Bounded;
use super::run::CallOutcome;

/// Set in a child's environment to the tool it is started for; its
/// arguments arrive on stdin as one JSON object.
pub(crate) const CALL_ENV: &str = "MCP_BRIDGE_ISOLATED_CALL";

/// The exit code of a child killed by a signal: 128 + the signal, as
/// shells report it.
fn signal_code(status: &std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal().map(|signal| 128 + signal)
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// The tool of an isolated call and its arguments.
pub(crate) type Call = (String, Map<String, Value>);

/// In a child started for one call: the tool and its arguments (read from
/// stdin, which then reads nothing more). The variable is removed, so the
/// handler's own child processes do not take themselves for calls.
pub(crate) fn isolated_call() -> Option<Result<Call, String>> {
    let tool = std::env::var(CALL_ENV).ok()?;
    std::env::remove_var(CALL_ENV);
    let mut input = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut input) {
        return Some(Err(format!("cannot read the call's arguments: {error}")));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(null) = std::fs::File::open("/dev/null") {
            let _ = rustix::stdio::dup2_stdin(null.as_fd());
        }
    }
    Some(match serde_json::from_slice::<Value>(&input) {
        Ok(Value::Object(arguments)) => Ok((tool, arguments)),
        Ok(other) => Err(format!("the call's arguments are not an object: {other}")),
        Err(error) => Err(format!("the call's arguments are not JSON: {error}")),
    })
}

/// Reads a stream to its end into a buffer of `limit` bytes.
async fn read_all(stream: Option<impl tokio::io::AsyncRead + Unpin>, limit: usize) -> String {
    let mut buffer = Bounded::new(limit);
    if let Some(mut stream) = stream {
        let mut chunk = vec![0u8; 16 * 1024];
        while let Ok(n) = stream.read(&mut chunk).await {
            if n == 0 {
                break;
            }
            let _ = std::io::Write::write_all(&mut buffer, &chunk[..n]);
        }
    }
    buffer.into_text()
}

/// A running child for one call.
pub(crate) struct Child {
    child: tokio::process::Child,
}

impl Child {
    /// Starts this binary for `tool` with `arguments`.
    pub(crate) async fn start(tool: &str, arguments: &Map<String, Value>) -> std::io::Result<Self> {
        let exe = std::env::current_exe()?;
        let mut child = tokio::process::Command::new(exe)
            .env(CALL_ENV, tool)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            let json = serde_json::to_vec(arguments).map_err(std::io::Error::other)?;
            stdin.write_all(&json).await?;
            // Closing stdin tells the child the arguments are complete.
        }
        Ok(Self { child })
    }

    /// Waits for the child, reading its output into buffers of `limit`
    /// bytes each.
    pub(crate) async fn finish(mut self, limit: usize) -> CallOutcome {
        let (stdout, mut stderr, status) = tokio::join!(
            read_all(self.child.stdout.take(), limit),
            read_all(self.child.stderr.take(), limit),
            self.child.wait()
        );
        let exit_code = match status {
            Ok(status) => match (status.code(), signal_code(&status)) {
                (Some(code), _) => code,
                (None, Some(code)) => {
                    stderr.push_str(&format!(
                        "the command was killed by signal {}\n",
                        code - 128
                    ));
                    code
                }
                (None, None) => 1,
            },
            Err(error) => {
                stderr.push_str(&format!("the command's process was lost: {error}\n"));
                1
            }
        };
        CallOutcome {
            stdout,
            stderr,
            exit_code,
        }
    }
}
