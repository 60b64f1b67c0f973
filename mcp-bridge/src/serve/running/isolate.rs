//! Isolated calls: a call run in a child process of the same binary, which
//! receives the tool's name and its JSON arguments (never an argv) and
//! builds the typed value itself. A crash, `std::process::exit` or a hang
//! there cannot take the server down; its output comes from real file
//! descriptors; a cancelled or timed-out call is killed.
//!
//! The parent has already checked the arguments, so the child's build is
//! the same typed build, run again.
//!
//! On Unix the child's stdin is one end of a socket pair: the arguments
//! come through it, and the value the handler returns as data
//! ([`Output`](crate::Output)) goes back through it once the handler is
//! done (`{"type": ..., "value": ...}`), apart from anything printed; or,
//! when the handler panicked, what the panic said (`{"panic": ...}`), so
//! the server tells a broken handler from a failed command (a task fails)
//! as it does for a call it runs itself. Elsewhere stdin is a pipe and an
//! isolated call carries neither: a child's panic is its exit code (101).

use std::io::Read;
use std::process::Stdio;
use std::sync::OnceLock;

use serde_json::{Map, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::capture::Bounded;
use super::run::CallOutcome;
use crate::io::Structured;
use crate::trace::TraceContext;

/// The most bytes of a returned value read back from a child.
#[cfg(unix)]
const MAX_REPLY: usize = 64 * 1024 * 1024;

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

/// The tool of an isolated call, its arguments, and where its returned
/// value goes.
pub(crate) struct Call {
    pub(crate) tool: String,
    pub(crate) arguments: Map<String, Value>,
    pub(crate) reply: Reply,
}

/// In a child started for one call: the way back to the parent for the
/// value the handler returns.
#[derive(Debug, Default)]
pub(crate) struct Reply {
    #[cfg(unix)]
    to: Option<std::os::unix::net::UnixStream>,
}

impl Reply {
    /// Sends the returned value to the parent (nothing when there is
    /// none, or no way back).
    pub(crate) fn send(self, structured: Option<&Structured>) {
        if let Some(structured) = structured {
            self.write(&serde_json::json!({
                "type": structured.type_name,
                "value": structured.value,
            }));
        }
    }

    /// Another way back to the parent, kept aside for a panic (this one
    /// goes with the handler's value).
    pub(crate) fn for_panic(&self) -> Self {
        Self {
            #[cfg(unix)]
            to: self.to.as_ref().and_then(|to| to.try_clone().ok()),
        }
    }

    /// Tells the parent the handler panicked, and what the panic said.
    pub(crate) fn send_panic(self, panic: &(dyn std::any::Any + Send)) {
        let message = crate::error::panic_message(panic);
        self.write(&serde_json::json!({ "panic": message }));
    }

    fn write(self, reply: &Value) {
        #[cfg(unix)]
        if let Some(to) = self.to {
            if let Err(error) = serde_json::to_writer(to, reply) {
                eprintln!("mcp-bridge: cannot send the command's result back: {error}");
            }
        }
        #[cfg(not(unix))]
        let _ = reply;
    }
}

/// The tool and the arguments a child read for its call.
type ReadCall = (String, Map<String, Value>);

/// In a child started for one call: the tool and its arguments (read from
/// stdin, which then reads nothing more). The variable is removed, so the
/// handler's own child processes do not take themselves for calls. Read
/// once: a CLI that parses twice (a drop-in in each of two places) gets
/// the same call each time, the way back only the first time.
pub(crate) fn isolated_call() -> Option<Result<Call, String>> {
    static READ: OnceLock<Option<Result<ReadCall, String>>> = OnceLock::new();
    let mut first = None;
    let read = READ.get_or_init(|| {
        let tool = std::env::var(CALL_ENV).ok()?;
        std::env::remove_var(CALL_ENV);
        crate::trace::in_environment();
        let mut input = Vec::new();
        if let Err(error) = std::io::stdin().read_to_end(&mut input) {
            return Some(Err(format!("cannot read the call's arguments: {error}")));
        }
        let mut reply = Reply::default();
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            // The socket stays open for the reply, on a descriptor the
            // handler's own children do not inherit; stdin reads nothing.
            reply.to = rustix::io::fcntl_dupfd_cloexec(std::io::stdin(), 3)
                .ok()
                .map(std::os::unix::net::UnixStream::from);
            if let Ok(null) = std::fs::File::open("/dev/null") {
                let _ = rustix::stdio::dup2_stdin(null.as_fd());
            }
        }
        first = Some(reply);
        Some(match serde_json::from_slice::<Value>(&input) {
            Ok(Value::Object(arguments)) => Ok((tool, arguments)),
            Ok(other) => Err(format!("the call's arguments are not an object: {other}")),
            Err(error) => Err(format!("the call's arguments are not JSON: {error}")),
        })
    });
    let read = read.as_ref()?;
    Some(read.clone().map(|(tool, arguments)| Call {
        tool,
        arguments,
        reply: first.unwrap_or_default(),
    }))
}

/// What a child sent back: the value its handler returned, or what its
/// handler's panic said.
#[derive(Debug, Default)]
pub(crate) struct Returned {
    pub(crate) value: Option<Structured>,
    pub(crate) panic: Option<String>,
}

/// What a child sent back, if it sent something that reads.
fn returned(reply: &[u8]) -> Returned {
    if reply.is_empty() {
        return Returned::default();
    }
    let Ok(Value::Object(mut reply)) = serde_json::from_slice::<Value>(reply) else {
        tracing::warn!("an isolated call's returned value did not read; it is left out");
        return Returned::default();
    };
    if let Some(Value::String(panic)) = reply.remove("panic") {
        return Returned {
            value: None,
            panic: Some(panic),
        };
    }
    let value = reply
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .zip(reply.remove("value"))
        .map(|(type_name, value)| Structured {
            value,
            type_id: None,
            type_name,
        });
    if value.is_none() {
        tracing::warn!("an isolated call's returned value did not read; it is left out");
    }
    Returned { value, panic: None }
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
    /// Our end of the child's stdin, where its returned value comes.
    #[cfg(unix)]
    reply: tokio::net::UnixStream,
}

impl Child {
    /// Starts this binary for `tool` with `arguments`, in the call's
    /// trace context (`TRACEPARENT`, `TRACESTATE`) when it has one.
    pub(crate) async fn start(
        tool: &str,
        arguments: &Map<String, Value>,
        trace: Option<&TraceContext>,
    ) -> std::io::Result<Self> {
        let exe = std::env::current_exe()?;
        let json = serde_json::to_vec(arguments).map_err(std::io::Error::other)?;
        let mut command = tokio::process::Command::new(exe);
        // The call's context, never the server's own.
        command.env_remove("TRACEPARENT").env_remove("TRACESTATE");
        if let Some(trace) = trace {
            command.envs(trace.environment());
        }
        command
            .env(CALL_ENV, tool)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        {
            let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
            command.stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
            let child = command.spawn()?;
            // Our copy of the child's end goes, so the reply ends when
            // the child's copies do.
            drop(command);
            ours.set_nonblocking(true)?;
            let mut reply = tokio::net::UnixStream::from_std(ours)?;
            reply.write_all(&json).await?;
            // Shutting our side for writing ends the child's arguments.
            reply.shutdown().await?;
            Ok(Self { child, reply })
        }
        #[cfg(not(unix))]
        {
            command.stdin(Stdio::piped());
            let mut child = command.spawn()?;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(&json).await?;
                // Closing stdin tells the child the arguments are complete.
            }
            Ok(Self { child })
        }
    }

    /// Waits for the child, reading its output into buffers of `limit`
    /// bytes each, and what it sent back.
    pub(crate) async fn finish(self, limit: usize) -> (CallOutcome, Returned) {
        #[cfg(unix)]
        let Child { mut child, reply } = self;
        #[cfg(not(unix))]
        let Child { mut child } = self;
        #[cfg(unix)]
        let reply = async move {
            let mut bytes = Vec::new();
            let _ = reply.take(MAX_REPLY as u64).read_to_end(&mut bytes).await;
            bytes
        };
        #[cfg(not(unix))]
        let reply = async { Vec::new() };
        let (stdout, mut stderr, status, reply) = tokio::join!(
            read_all(child.stdout.take(), limit),
            read_all(child.stderr.take(), limit),
            child.wait(),
            reply
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
        (
            CallOutcome::new(exit_code, stdout, stderr),
            returned(&reply),
        )
    }
}
