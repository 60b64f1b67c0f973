//! The handlers a CLI already has, as [`Bridge`](crate::Bridge) and
//! [`BridgeServer`](crate::BridgeServer) accept them: synchronous or
//! `async`, printing with `println!` or through [`Io`], returning what a
//! `main` returns.
//!
//! Which kind a function is follows from its signature alone
//! ([`IntoHandler`]'s marker types), so `Bridge::new(run)` takes each.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use crate::io::{Io, Report, Structured};
use crate::trace::TraceContext;

/// `Fn(C, &mut Io) -> exit code`.
type IoFn<C> = dyn Fn(C, &mut Io<'_>) -> i32 + Send + Sync;

/// A handler with its return value turned into an exit code and the CLI's
/// type still known.
pub(crate) enum Handler<C> {
    /// `Fn(C, &mut Io) -> R`: writes through [`Io`]; nothing to capture.
    WithIo(Arc<IoFn<C>>),
    /// `Fn(C) -> R`: prints to the process's stdout and stderr; the flag
    /// says whether the call is an MCP tool call.
    Plain(Arc<dyn Fn(C, bool) -> Ended + Send + Sync>),
    /// `Fn(C) -> impl Future<Output = R>`: prints to the process's stdout
    /// and stderr; the flag as for `Plain`.
    Async(Arc<dyn Fn(C, bool) -> BoxedCall + Send + Sync>),
}

/// How a handler that prints to the process's streams ended: its exit
/// code, and the value it returned as data ([`Output`](crate::Output)).
#[derive(Debug)]
pub(crate) struct Ended {
    pub(crate) code: i32,
    pub(crate) structured: Option<Structured>,
}

impl<C> Clone for Handler<C> {
    fn clone(&self) -> Self {
        match self {
            Self::WithIo(f) => Self::WithIo(Arc::clone(f)),
            Self::Plain(f) => Self::Plain(Arc::clone(f)),
            Self::Async(f) => Self::Async(Arc::clone(f)),
        }
    }
}

/// An async handler's call, boxed.
pub(crate) type BoxedCall = Pin<Box<dyn Future<Output = Ended> + Send>>;

impl<C: 'static> Handler<C> {
    /// The handler bound to one parsed value, ready to run as a tool call.
    pub(crate) fn bind(&self, cli: C) -> Job
    where
        C: Send,
    {
        match self {
            Self::WithIo(f) => {
                let f = Arc::clone(f);
                Job::Sync(SyncJob::WithIo(Box::new(move |io: &mut Io<'_>| f(cli, io))))
            }
            Self::Plain(f) => {
                let f = Arc::clone(f);
                Job::Sync(SyncJob::Plain(Box::new(move || f(cli, true))))
            }
            Self::Async(f) => Job::Async(f(cli, true)),
        }
    }
}

/// One call of the user's handler, with its value bound.
pub(crate) enum Job {
    /// A synchronous handler's call.
    Sync(SyncJob),
    /// An async call, printing to the process's streams.
    Async(BoxedCall),
    /// A call run in a child process of this binary, which builds the
    /// value itself from the tool's name and arguments.
    Isolated {
        tool: String,
        arguments: serde_json::Map<String, serde_json::Value>,
    },
}

/// One call of a synchronous handler, with its value bound.
pub(crate) enum SyncJob {
    /// Writes through [`Io`].
    WithIo(Box<dyn FnOnce(&mut Io<'_>) -> i32 + Send>),
    /// Prints to the process's streams.
    Plain(Box<dyn FnOnce() -> Ended + Send>),
}

impl Job {
    /// The job, run in its call's trace context when the client sent one
    /// (an isolated call's goes to its process's environment instead).
    pub(crate) fn traced(self, tool: &str, trace: Option<TraceContext>) -> Self {
        let Some(trace) = trace else {
            return self;
        };
        let tool = tool.to_owned();
        match self {
            Self::Sync(SyncJob::WithIo(f)) => {
                Self::Sync(SyncJob::WithIo(Box::new(move |io: &mut Io<'_>| {
                    trace.run(&tool, || f(io))
                })))
            }
            Self::Sync(SyncJob::Plain(f)) => {
                Self::Sync(SyncJob::Plain(Box::new(move || trace.run(&tool, f))))
            }
            Self::Async(call) => Self::Async(Box::pin(trace.scope(&tool, call))),
            isolated @ Self::Isolated { .. } => isolated,
        }
    }

    /// Whether the job prints to the process's streams (fd 1 and fd 2),
    /// which must then be captured.
    pub(crate) fn prints_to_process(&self) -> bool {
        matches!(self, Self::Sync(SyncJob::Plain(_)) | Self::Async(_))
    }
}

/// A function [`Bridge`](crate::Bridge) can run for every command of the
/// CLI `C`. Implemented for:
///
/// - `Fn(C, &mut Io) -> R`: writes through [`Io`] ([`WithIo`]);
/// - `Fn(C) -> R`: prints with `println!` / `eprintln!`, as a CLI's
///   `main` does ([`Plain`]);
/// - `async fn(C) -> R` (any `Fn(C) -> impl Future<Output = R>`): the same,
///   awaited ([`Async`]);
///
/// where `R` is anything a `main` returns: `()`, `Result<(), E>` with `E:
/// Display` (`anyhow::Error` included), [`ExitCode`](std::process::ExitCode)
/// or an `i32` / `u8` code ([`Report`]), or a result as data
/// ([`Output`](crate::Output), `Option<Output>`, either in a `Result`).
///
/// Under `mcp serve`, what a `Plain` or `Async` handler prints (and what
/// the child processes it starts print) is captured from the process's
/// file descriptors into the call's result; see [`Bridge`](crate::Bridge)
/// for what that means for concurrency.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::{BridgeServer, McpTool};
///
/// #[derive(Parser, McpTool)]
/// #[command(name = "hello")]
/// struct Hello {
///     name: String,
/// }
///
/// // What the CLI's `main` called before the bridge.
/// fn run(cli: Hello) -> Result<(), String> {
///     if cli.name.is_empty() {
///         return Err("a name, please".into());
///     }
///     println!("hello {}", cli.name);
///     Ok(())
/// }
///
/// async fn run_async(cli: Hello) {
///     println!("hello {}", cli.name);
/// }
///
/// BridgeServer::new(run).unwrap();
/// BridgeServer::new(run_async).unwrap();
/// ```
pub trait IntoHandler<C, Kind>: Send + Sync + 'static {
    #[doc(hidden)]
    fn into_handler(self) -> Erased<C>;
}

/// A handler of any kind; not a public API.
#[doc(hidden)]
pub struct Erased<C>(pub(crate) Handler<C>);

/// Marks a handler `Fn(C, &mut Io) -> R` ([`IntoHandler`]).
pub struct WithIo<R>(PhantomData<fn() -> R>);
/// Marks a handler `Fn(C) -> R` that prints to the process's streams
/// ([`IntoHandler`]).
pub struct Plain<R>(PhantomData<fn() -> R>);
/// Marks an async handler `Fn(C) -> impl Future<Output = R>`
/// ([`IntoHandler`]).
pub struct Async<R, Fut>(PhantomData<fn() -> (R, Fut)>);

impl<C, R, F> IntoHandler<C, WithIo<R>> for F
where
    R: Report,
    F: Fn(C, &mut Io<'_>) -> R + Send + Sync + 'static,
{
    fn into_handler(self) -> Erased<C> {
        Erased(Handler::WithIo(Arc::new(move |cli, io| {
            self(cli, io).report(io)
        })))
    }
}

impl<C, R, F> IntoHandler<C, Plain<R>> for F
where
    R: Report,
    F: Fn(C) -> R + Send + Sync + 'static,
{
    fn into_handler(self) -> Erased<C> {
        Erased(Handler::Plain(Arc::new(move |cli, mcp| {
            report_to_stderr(self(cli), mcp)
        })))
    }
}

impl<C, R, Fut, F> IntoHandler<C, Async<R, Fut>> for F
where
    R: Report,
    Fut: Future<Output = R> + Send + 'static,
    F: Fn(C) -> Fut + Send + Sync + 'static,
{
    fn into_handler(self) -> Erased<C> {
        Erased(Handler::Async(Arc::new(move |cli, mcp| {
            let call = self(cli);
            Box::pin(async move { report_to_stderr(call.await, mcp) })
        })))
    }
}

/// How a handler that prints to the process's streams ended: an error
/// goes to stderr, as a `main` returning it would print it; an
/// [`Output`](crate::Output)'s text to stdout.
fn report_to_stderr(value: impl Report, mcp: bool) -> Ended {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let (mut out, mut err) = (stdout.lock(), stderr.lock());
    let mut io = Io::new(&mut out, &mut err, mcp);
    let code = value.report(&mut io);
    let structured = io.take_structured();
    drop(io);
    drop(out);
    // `print!` without a newline stays in Rust's buffer otherwise.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    Ended { code, structured }
}
