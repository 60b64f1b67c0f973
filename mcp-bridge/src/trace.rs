//! Trace context (W3C Trace Context, MCP SEP-414): the `traceparent` and
//! `tracestate` a client sends with a call, in the request's `_meta` or as
//! HTTP headers, reach the handler: a `tracing` span around it
//! (`mcp_call`, with the tool and both values as fields), the call's
//! [`trace_context`] while it runs, and, for a call run in a process of its
//! own, the `TRACEPARENT` and `TRACESTATE` variables of that process (the
//! names OpenTelemetry's environment carrier reads). A value that is not
//! well formed is dropped, as the W3C recommendation asks of a receiver,
//! and said in the server's log.

use std::cell::RefCell;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

use tracing::Instrument;

/// The W3C trace context of the call a handler runs for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TraceContext {
    /// `version-traceid-parentid-flags`, e.g.
    /// `00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01`.
    pub traceparent: String,
    /// Vendor-specific entries that go with it, as received.
    pub tracestate: Option<String>,
}

/// The most bytes of a `tracestate` kept (the W3C limit is 32 entries of
/// at most 256 bytes; 512 bytes is what a receiver must at least keep).
const MAX_TRACESTATE: usize = 8192;

impl TraceContext {
    /// The context a client sent, if its `traceparent` is well formed:
    /// `None` for none, and for a malformed one (said in the log, naming
    /// what was wrong). A `tracestate` without a valid parent is dropped
    /// with it; one that is too long or not printable ASCII is dropped alone.
    pub(crate) fn received(traceparent: Option<&str>, tracestate: Option<&str>) -> Option<Self> {
        let traceparent = traceparent?.trim();
        if let Err(problem) = check_traceparent(traceparent) {
            tracing::warn!(traceparent, "the call's traceparent is dropped: {problem}");
            return None;
        }
        let tracestate = tracestate.map(str::trim).filter(|state| {
            let fine =
                state.len() <= MAX_TRACESTATE && state.bytes().all(|b| (b' '..=b'~').contains(&b));
            if !fine {
                tracing::warn!("the call's tracestate is dropped: too long or not printable ASCII");
            }
            fine && !state.is_empty()
        });
        Some(Self {
            traceparent: traceparent.to_owned(),
            tracestate: tracestate.map(str::to_owned),
        })
    }

    /// The span a handler runs in.
    fn span(&self, tool: &str) -> tracing::Span {
        tracing::info_span!(
            "mcp_call",
            tool,
            traceparent = self.traceparent.as_str(),
            tracestate = self.tracestate.as_deref(),
        )
    }

    /// Runs `f`, a synchronous handler's call, in the call's span and
    /// with this context as [`trace_context`]'s answer.
    pub(crate) fn run<R>(self, tool: &str, f: impl FnOnce() -> R) -> R {
        let span = self.span(tool);
        let _entered = span.enter();
        let previous = ON_THREAD.replace(Some(self));
        let _restore = Restore(previous);
        f()
    }

    /// `call`, an async handler's call, in the call's span and with this
    /// context as [`trace_context`]'s answer.
    pub(crate) fn scope<F: Future>(self, tool: &str, call: F) -> impl Future<Output = F::Output> {
        let span = self.span(tool);
        IN_TASK.scope(self, call).instrument(span)
    }

    /// The environment of a call's own process: the variables
    /// OpenTelemetry's environment carrier reads.
    pub(crate) fn environment(&self) -> impl Iterator<Item = (&'static str, &str)> {
        std::iter::once(("TRACEPARENT", self.traceparent.as_str())).chain(
            self.tracestate
                .as_deref()
                .map(|state| ("TRACESTATE", state)),
        )
    }
}

/// Why a `traceparent` is not one: `version-traceid-parentid-flags`, lower-case
/// hex of 2, 32, 16 and 2 digits, the trace and parent ids not all zeros,
/// version `ff` invalid; a later version may add fields after a `-`.
fn check_traceparent(value: &str) -> Result<(), &'static str> {
    let hex = |part: &str, len: usize| {
        part.len() == len
            && part
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    let mut parts = value.split('-');
    let (Some(version), Some(trace), Some(parent), Some(flags)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected version-traceid-parentid-flags");
    };
    if !hex(version, 2) || version == "ff" {
        return Err("the version is not two lower-case hex digits other than ff");
    }
    if version == "00" && parts.next().is_some() {
        return Err("version 00 has four fields");
    }
    if !hex(trace, 32) || trace.bytes().all(|b| b == b'0') {
        return Err("the trace id is not 32 lower-case hex digits, not all zero");
    }
    if !hex(parent, 16) || parent.bytes().all(|b| b == b'0') {
        return Err("the parent id is not 16 lower-case hex digits, not all zero");
    }
    if !hex(flags, 2) {
        return Err("the flags are not two lower-case hex digits");
    }
    Ok(())
}

thread_local! {
    /// The context of the synchronous call running on this thread.
    static ON_THREAD: RefCell<Option<TraceContext>> = const { RefCell::new(None) };
}

tokio::task_local! {
    /// The context of the async call this task runs.
    static IN_TASK: TraceContext;
}

/// Set in a child started for one call: its context is in its
/// environment.
static IN_ENVIRONMENT: AtomicBool = AtomicBool::new(false);

/// Tells [`trace_context`] that this process runs one call, whose context
/// is in its environment.
pub(crate) fn in_environment() {
    IN_ENVIRONMENT.store(true, Ordering::Relaxed);
}

/// Puts back the thread's previous context when a call ends (panicking
/// or not).
struct Restore(Option<TraceContext>);

impl Drop for Restore {
    fn drop(&mut self) {
        ON_THREAD.set(self.0.take());
    }
}

/// The trace context of the call this handler runs for, when its client
/// sent one (`traceparent` in the request's `_meta`, or the HTTP header):
/// for a CLI's own telemetry to join the client's trace. `None` outside a
/// served call. A call run in a process of its own finds it in the
/// `TRACEPARENT` and `TRACESTATE` variables instead, as OpenTelemetry's
/// environment carrier reads them; this reads those there too.
pub fn trace_context() -> Option<TraceContext> {
    if let Ok(context) = IN_TASK.try_with(Clone::clone) {
        return Some(context);
    }
    if let Some(context) = ON_THREAD.with_borrow(Clone::clone) {
        return Some(context);
    }
    if IN_ENVIRONMENT.load(Ordering::Relaxed) {
        let parent = std::env::var("TRACEPARENT").ok();
        let state = std::env::var("TRACESTATE").ok();
        return TraceContext::received(parent.as_deref(), state.as_deref());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    #[test]
    fn a_well_formed_traceparent_is_kept_with_its_state() {
        let context = TraceContext::received(Some(GOOD), Some("congo=t61rcWkgMzE")).unwrap();
        assert_eq!(context.traceparent, GOOD);
        assert_eq!(context.tracestate.as_deref(), Some("congo=t61rcWkgMzE"));
        let env: Vec<_> = context.environment().collect();
        assert_eq!(
            env,
            [("TRACEPARENT", GOOD), ("TRACESTATE", "congo=t61rcWkgMzE")]
        );
        // A later version may carry more fields.
        let later = "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra";
        assert!(TraceContext::received(Some(later), None).is_some());
    }

    #[test]
    fn a_malformed_traceparent_is_dropped_and_its_state_with_it() {
        for bad in [
            "",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",
            "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1",
        ] {
            assert_eq!(
                TraceContext::received(Some(bad), Some("a=b")),
                None,
                "{bad}"
            );
        }
        let context = TraceContext::received(Some(GOOD), Some("a=\u{7}")).unwrap();
        assert_eq!(context.tracestate, None);
    }

    #[test]
    fn a_call_sees_its_context_and_the_thread_forgets_it_after() {
        let context = TraceContext::received(Some(GOOD), None).unwrap();
        let seen = context.clone().run("t", trace_context);
        assert_eq!(seen, Some(context.clone()));
        assert_eq!(trace_context(), None);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let seen = runtime.block_on(context.clone().scope("t", async { trace_context() }));
        assert_eq!(seen, Some(context));
    }
}
