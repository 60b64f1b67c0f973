//! A call's `tracing` events sent to the client as `notifications/message`,
//! when the client asked for them: with `logging/setLevel` for its session
//! (protocols up to 2025-11-25), or in the request's own `_meta` log level
//! (2026-07-28). A request that names no level gets no logs.
//!
//! MCP logging is deprecated by SEP-2577 (rmcp marks its types so); it is
//! still what clients of protocol versions up to 2025-11-25 use, so it is
//! served for them, and does nothing for a client that never sets a level.
//!
//! The [`ClientLogs`] layer knows which call an event belongs to by what
//! runs it: a thread of the call pool (a thread-local, set around the
//! handler) or the task of an async handler (a task-local).
#![allow(deprecated)]

use std::cell::RefCell;
use std::fmt::Write as _;
use std::future::Future;
use std::sync::{Arc, Mutex};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use tracing::field::{Field, Visit};

use tracing::level_filters::LevelFilter;
use tracing::subscriber::Interest;
use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::filter::Filtered;
use tracing_subscriber::layer::{Context, Filter, Layer};

use super::outbox::Outbox;

/// The level the client asked for (`None`: no logs).
pub(crate) type ClientLevel = Arc<Mutex<Option<LoggingLevel>>>;

/// Where one call's events go.
pub(crate) struct CallLog {
    tool: String,
    level: ClientLevel,
    outbox: Arc<Outbox>,
}

impl CallLog {
    /// A log for a call of `tool`, queued in the call's `outbox`, of what
    /// passes the client's `level`.
    pub(crate) fn new(tool: &str, level: ClientLevel, outbox: Arc<Outbox>) -> Arc<Self> {
        Arc::new(Self {
            tool: tool.to_owned(),
            level,
            outbox,
        })
    }

    fn wants(&self, level: LoggingLevel) -> bool {
        let asked = self.level.lock().ok().and_then(|level| *level);
        asked.is_some_and(|asked| rank(level) >= rank(asked))
    }
}

thread_local! {
    static ON_THREAD: RefCell<Option<Arc<CallLog>>> = const { RefCell::new(None) };
}

tokio::task_local! {
    static IN_TASK: Arc<CallLog>;
}

/// While it lives, the events of this thread (a synchronous handler's)
/// go to the call's log.
pub(crate) struct Entered(bool);

impl Entered {
    pub(crate) fn on_thread(log: Option<Arc<CallLog>>) -> Self {
        let entered = log.is_some();
        if entered {
            ON_THREAD.with(|current| *current.borrow_mut() = log);
        }
        Self(entered)
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        if self.0 {
            ON_THREAD.with(|current| current.borrow_mut().take());
        }
    }
}

/// Runs `call` (an async handler) with its events sent to `log`.
pub(crate) async fn in_task<T>(log: Option<Arc<CallLog>>, call: impl Future<Output = T>) -> T {
    match log {
        Some(log) => IN_TASK.scope(log, call).await,
        None => call.await,
    }
}

fn current() -> Option<Arc<CallLog>> {
    ON_THREAD
        .with(|current| current.borrow().clone())
        .or_else(|| IN_TASK.try_with(Arc::clone).ok())
}

fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

fn mcp_level(level: &Level) -> LoggingLevel {
    match *level {
        Level::ERROR => LoggingLevel::Error,
        Level::WARN => LoggingLevel::Warning,
        Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    }
}

/// The layer that sends a call's events to its client.
pub(crate) struct ClientLogs;

/// Whether some client asked for logs: until then the layer is off for
/// every callsite, so tracing costs what it cost without it.
static ASKED: AtomicBool = AtomicBool::new(false);

/// Whether the `log` facade's records reach tracing through the bridge's
/// own logger (installed with the server's log): only then does the
/// bridge change the facade's level.
static OWN_LOG_RECORDS: AtomicBool = AtomicBool::new(false);

/// Says that the server's log installed the logger that passes `log`
/// records on to tracing.
pub(crate) fn log_records_are_ours() {
    OWN_LOG_RECORDS.store(true, Ordering::SeqCst);
}

/// Turns the layer on (a client sent `logging/setLevel`, or a request
/// named its log level).
pub(crate) fn asked() {
    if !ASKED.swap(true, Ordering::SeqCst) {
        tracing::callsite::rebuild_interest_cache();
        // The facade's level was set from the server's log alone (the
        // layer's hint was "nothing"): records of every level may now go
        // to a call's client.
        if OWN_LOG_RECORDS.load(Ordering::SeqCst) {
            log::set_max_level(log::LevelFilter::Trace);
        }
    }
}

/// Passes an event to [`ClientLogs`] only when a call that wants it runs
/// it (so the server's own log filter is left alone).
pub(crate) struct ForCalls;

impl<S> Filter<S> for ForCalls {
    fn enabled(&self, metadata: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        metadata.is_event() && current().is_some_and(|log| log.wants(mcp_level(metadata.level())))
    }

    /// Nothing until a client asks: the most verbose level the server
    /// enables is then its own log's, and below it a `log` record (mio
    /// writes two on every call read by a call thread) is dropped where it
    /// is made, not built and offered to each layer.
    fn max_level_hint(&self) -> Option<LevelFilter> {
        match ASKED.load(Ordering::SeqCst) {
            true => None,
            false => Some(LevelFilter::OFF),
        }
    }

    fn callsite_enabled(&self, metadata: &'static Metadata<'static>) -> Interest {
        if ASKED.load(Ordering::SeqCst) && metadata.is_event() {
            Interest::sometimes()
        } else {
            Interest::never()
        }
    }
}

/// [`ClientLogs`] behind its filter.
pub(crate) fn client_logs<S>() -> Filtered<ClientLogs, ForCalls, S>
where
    S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    ClientLogs.with_filter(ForCalls)
}

impl<S: Subscriber> Layer<S> for ClientLogs {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        let Some(log) = current() else { return };
        let level = mcp_level(event.metadata().level());
        if !log.wants(level) {
            return;
        }
        let mut text = Text(String::new());
        event.record(&mut text);
        let message = LoggingMessageNotificationParam::new(level, Value::String(text.0))
            .with_logger(format!("{}:{}", log.tool, event.metadata().target()));
        log.outbox.log(message);
    }
}

/// An event's message, then its other fields as `name=value`.
struct Text(String);

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let rest = std::mem::take(&mut self.0);
            let _ = write!(self.0, "{value:?}");
            if !rest.is_empty() {
                let _ = write!(self.0, " {rest}");
            }
        } else {
            let sep = if self.0.is_empty() { "" } else { " " };
            let _ = write!(self.0, "{sep}{}={value:?}", field.name());
        }
    }
}
