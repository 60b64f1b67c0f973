//! The stdio transport: newline-delimited JSON-RPC, where no line goes
//! unanswered and nothing but the protocol reaches stdout.
//!
//! rmcp's own line transport drops a line that is not JSON (or nests deeper
//! than serde_json allows) without a word, and answers a malformed message
//! without its id. This one answers every such line with a JSON-RPC error
//! (`-32700` or `-32600`), carrying the request id whenever it can be read,
//! and keeps serving. Messages are still parsed into rmcp's own types and
//! handled by rmcp; only the framing is ours.
//!
//! One shortcut, over stdio on Unix: the input is read by the call
//! threads, not by the event loop ([`InputReader`], led by `pool.rs`): one
//! thread reads and hands the messages on. A call it may start itself
//! (`BridgeServer` decides, [`EarlyCalls`]) it runs at once, lending the
//! input to a thread standing by, which wakes if something comes
//! meanwhile, or at once when the read that brought the call brought more.
//! Such a call never reaches rmcp: its thread writes its answer
//! ([`Replier`], rmcp's own types serialised through the same writer), a
//! `notifications/cancelled` naming it stops it here and goes no further,
//! and the server's shutdown stops and answers it. So each request is
//! answered exactly once, by rmcp or by its call's thread, whatever rmcp
//! does with the requests it sees; a request after a pause wakes one
//! thread, which runs the call and answers it, as a hand-written rmcp
//! server's one worker does.

mod framing;
#[cfg(unix)]
mod loan;
pub(super) mod pool;
mod stdio;

pub(crate) use stdio::guarded_stdio;
#[cfg(all(unix, feature = "http"))]
pub(super) use stdio::null_stdin;

// The HTTP server (`serve/http/`) answers with the same framing.
use framing::recover_id;
pub(super) use framing::{decode_line, error_response, reply_bytes, Decoded};

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::RequestId;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The `_meta` key a request of protocol 2026-07-28 carries its version in.
const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// The longest line accepted; longer ones are refused with an error.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

pub(super) type Reader = Pin<Box<dyn AsyncRead + Send>>;
pub(super) type Writer = Pin<Box<dyn AsyncWrite + Send>>;

/// Writes the answer of a call that rmcp never saw (one its reading thread
/// started, [`EarlyCalls`]) through the transport's writer and its lock,
/// in turn with everything else the transport writes.
pub(crate) struct Replier {
    writer: Arc<Mutex<Writer>>,
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
    runtime: tokio::runtime::Handle,
    /// The input's loan: a call's thread that leads the input takes it
    /// back before its answer is written.
    #[cfg(unix)]
    loan: Arc<loan::Loan>,
}

impl Replier {
    /// Writes `result` as the answer to request `id`, in the shape of the
    /// protocols before 2026-07-28 (the only ones whose calls start
    /// early). Blocks until the line is written when called outside the
    /// runtime; inside it, the line is written by a task.
    pub(crate) fn reply(&self, id: RequestId, result: rmcp::model::CallToolResult) {
        let Some(line) = self.answer_line(id, result) else {
            return;
        };
        #[cfg(unix)]
        self.loan.return_early();
        let writer = Arc::clone(&self.writer);
        match tokio::runtime::Handle::try_current() {
            Ok(_) => {
                crate::spawn::spawn_on(&self.runtime, async move {
                    report(write_line(&writer, &line).await)
                });
            }
            Err(_) => report(self.runtime.block_on(write_line(&writer, &line))),
        }
    }

    /// Writes the answer like [`reply`](Self::reply), from the runtime.
    pub(crate) async fn reply_async(&self, id: RequestId, result: rmcp::model::CallToolResult) {
        if let Some(line) = self.answer_line(id, result) {
            report(write_line(&self.writer, &line).await);
        }
    }

    /// The answer's line; the request is no longer in flight.
    fn answer_line(&self, id: RequestId, result: rmcp::model::CallToolResult) -> Option<Vec<u8>> {
        use rmcp::model::{JsonRpcMessage, ServerResult};
        if let Ok(mut in_flight) = self.in_flight.lock() {
            in_flight.remove(&id);
        }
        let mut result = ServerResult::CallToolResult(result);
        result.strip_result_type_for_legacy_peer();
        let message: TxJsonRpcMessage<RoleServer> = JsonRpcMessage::response(result, id);
        message_line(&message)
            .inspect_err(|error| tracing::error!(%error, "cannot write an answer"))
            .ok()
    }
}

/// Logs a failed write of an answer.
fn report(written: std::io::Result<()>) {
    if let Err(error) = written {
        tracing::error!("cannot write the answer to the client: {error}");
    }
}

/// `message` as one line of the protocol.
fn message_line(message: &TxJsonRpcMessage<RoleServer>) -> std::io::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(message)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Writes a line to the client, in turn with every other writer.
async fn write_line(writer: &Mutex<Writer>, line: &[u8]) -> std::io::Result<()> {
    let mut writer = writer.lock().await;
    writer.write_all(line).await?;
    writer.flush().await
}

/// The request a `notifications/cancelled` message cancels.
/// The id and tool of a `tools/call` request.
#[cfg(unix)]
fn call_of(message: &RxJsonRpcMessage<RoleServer>) -> Option<(&RequestId, &str)> {
    let rmcp::model::JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let rmcp::model::ClientRequest::CallToolRequest(call) = &request.request else {
        return None;
    };
    Some((&request.id, &call.params.name))
}

fn cancelled_id(message: &RxJsonRpcMessage<RoleServer>) -> Option<&RequestId> {
    let rmcp::model::JsonRpcMessage::Notification(notification) = message else {
        return None;
    };
    let rmcp::model::ClientNotification::CancelledNotification(cancelled) =
        &notification.notification
    else {
        return None;
    };
    cancelled.params.request_id.as_ref()
}

impl LineTransport {
    /// A token cancelled when the client closes its input. From then on
    /// the transport tells rmcp the input ended only once every request
    /// read has been answered (rmcp's own wait for its answers is short
    /// and fixed): whoever holds the token lets the calls finish within
    /// their grace period, then stops the service.
    pub(crate) fn on_input_end(&mut self) -> tokio_util::sync::CancellationToken {
        self.input_ended
            .get_or_insert_with(tokio_util::sync::CancellationToken::new)
            .clone()
    }

    /// Waits until no request read is left unanswered.
    fn answered(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let in_flight = Arc::clone(&self.in_flight);
        async move {
            while in_flight.lock().is_ok_and(|ids| !ids.is_empty()) {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        }
    }
}

/// A line-delimited JSON-RPC transport over any reader and writer.
pub(crate) struct LineTransport {
    source: Source,
    writer: Arc<Mutex<Writer>>,
    /// An error response still to be written (kept across cancellation).
    pending: Option<Vec<u8>>,
    /// The ids of requests not answered yet: a second request with one of
    /// them is refused, so each request gets its own answer.
    /// (`1` and `"1"` are different ids.)
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
    /// Cancelled when the client closes its input, when someone asked
    /// ([`on_input_end`](Self::on_input_end)): the input then stays open
    /// to rmcp until every request read is answered.
    input_ended: Option<tokio_util::sync::CancellationToken>,
    /// The client closed its input.
    ended: bool,
}

/// Where the messages come from.
enum Source {
    /// Read here, on the event loop: stdio where it is not Unix (on Unix
    /// the call threads read it), and `testing::serve_lines`.
    #[cfg_attr(all(unix, not(feature = "testing")), allow(dead_code))]
    Stream {
        reader: BufReader<Reader>,
        framing: Framing,
    },
    /// Read by the call threads ([`InputReader`]), which hand them on.
    #[cfg(unix)]
    Threads {
        inbox: tokio::sync::mpsc::UnboundedReceiver<Inbound>,
        /// The reader, until the threads take it.
        reader: std::sync::Mutex<Option<InputReader>>,
    },
}

/// What came in, for the event loop.
enum Inbound {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// An error to answer the client with (a line that is no message).
    Reply(Vec<u8>),
    /// The input ended.
    End,
}

/// The reading side's state: the line being read, and what the session
/// has seen so far.
struct Framing {
    line: Vec<u8>,
    /// Dropping the rest of an over-long line.
    discarding: bool,
    /// Whether rmcp's session has begun: before it, rmcp ends the whole
    /// session on a notification or a response (even after a `ping`), so
    /// those are dropped until then.
    in_session: bool,
    /// Whether the client began a lifecycle: `initialize`, or
    /// `server/discover` / a request carrying its protocol version in
    /// `_meta` (protocol 2026-07-28, which has no `initialize`).
    began: bool,
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
}

impl LineTransport {
    /// Frames messages over `reader` and `writer`, reading on the event
    /// loop.
    #[cfg_attr(all(unix, not(feature = "testing")), allow(dead_code))]
    pub(crate) fn new(
        reader: impl AsyncRead + Send + 'static,
        writer: impl AsyncWrite + Send + 'static,
    ) -> Self {
        let reader = BufReader::new(Box::pin(reader) as Reader);
        Self::with(writer, |framing| Source::Stream { reader, framing })
    }

    /// Frames messages read from `input` by the call threads (once
    /// [`reader`](Self::reader) is handed to them), written to `writer`.
    #[cfg(unix)]
    pub(crate) fn threaded(
        input: std::fs::File,
        writer: impl AsyncWrite + Send + 'static,
    ) -> std::io::Result<Self> {
        let (to_loop, inbox) = tokio::sync::mpsc::unbounded_channel();
        let watch = mio::Poll::new()?;
        let registry = watch.registry().try_clone()?;
        let waker = mio::Waker::new(&registry, MORE_READ)?;
        let loan = Arc::new(loan::Loan::new(
            std::os::fd::AsRawFd::as_raw_fd(&input),
            registry,
        ));
        Ok(Self::with(writer, |framing| Source::Threads {
            inbox,
            reader: std::sync::Mutex::new(Some(InputReader {
                state: std::sync::Mutex::new(ReaderState {
                    input,
                    buffer: vec![0; READ_CHUNK],
                    start: 0,
                    end: 0,
                    framing,
                    cancelled_ahead: None,
                }),
                loan,
                to_loop,
                early: None,
                watch: std::sync::Mutex::new(watch),
                waker,
            })),
        }))
    }

    fn with(
        writer: impl AsyncWrite + Send + 'static,
        source: impl FnOnce(Framing) -> Source,
    ) -> Self {
        let in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>> = Arc::default();
        let framing = Framing {
            line: Vec::new(),
            discarding: false,
            in_session: false,
            began: false,
            in_flight: Arc::clone(&in_flight),
        };
        Self {
            source: source(framing),
            writer: Arc::new(Mutex::new(Box::pin(writer))),
            pending: None,
            input_ended: None,
            ended: false,
            in_flight,
        }
    }

    /// The reader of the input, for the call threads to read it with
    /// ([`Pool::lead`](pool::Pool::lead)), `early` starting the
    /// calls the reading thread runs itself; once, and only for a
    /// [`threaded`](Self::threaded) transport.
    pub(crate) fn reader(&self, early: Arc<dyn EarlyCalls>) -> Option<Arc<dyn pool::Lead>> {
        match &self.source {
            Source::Stream { .. } => None,
            #[cfg(unix)]
            Source::Threads { reader, .. } => {
                let mut reader = reader.lock().ok()?.take()?;
                reader.early = Some(early);
                Some(Arc::new(reader))
            }
        }
    }

    /// What writes the answers of the calls the reading threads start,
    /// through this transport: for a [`threaded`](Self::threaded) one
    /// whose reader is not taken yet, inside a runtime.
    pub(crate) fn replier(&self) -> Option<Arc<Replier>> {
        match &self.source {
            Source::Stream { .. } => None,
            #[cfg(unix)]
            Source::Threads { reader, .. } => {
                let loan = Arc::clone(&reader.lock().ok()?.as_ref()?.loan);
                Some(Arc::new(Replier {
                    writer: Arc::clone(&self.writer),
                    in_flight: Arc::clone(&self.in_flight),
                    runtime: tokio::runtime::Handle::try_current().ok()?,
                    loan,
                }))
            }
        }
    }

    /// The next thing that came in, read here or by the call threads.
    async fn next(&mut self) -> Inbound {
        match &mut self.source {
            Source::Stream { reader, framing } => loop {
                let read = match framing.read_line(reader).await {
                    Ok(read) => read,
                    Err(error) => {
                        tracing::error!("cannot read from the client: {error}");
                        return Inbound::End;
                    }
                };
                if let Some(inbound) = framing.after(read) {
                    return inbound;
                }
            },
            #[cfg(unix)]
            Source::Threads { inbox, reader } => {
                if reader.get_mut().is_ok_and(|reader| reader.is_some()) {
                    tracing::error!("the input is read by no thread");
                    return Inbound::End;
                }
                inbox.recv().await.unwrap_or(Inbound::End)
            }
        }
    }

    async fn flush_pending(&mut self) -> std::io::Result<()> {
        if let Some(bytes) = &self.pending {
            write_line(&self.writer, bytes).await?;
            self.pending = None;
        }
        Ok(())
    }
}

/// The calls the thread that read their request starts itself, before
/// rmcp sees them (and it never does): answered by their thread, stopped
/// by a cancellation the reading threads read.
pub(crate) trait EarlyCalls: Send + Sync {
    /// Starts the call `message` brings, when it may start here: the task
    /// to run on this thread, which answers the call. `message` is left as
    /// it was otherwise.
    fn start(&self, message: &mut RxJsonRpcMessage<RoleServer>) -> Option<pool::Task>;
    /// Stops the call started under request `id`, if one runs: whether it
    /// did (the cancellation then goes no further: rmcp never knew it).
    fn cancel(&self, id: &RequestId) -> bool;
}

/// How much the reading thread reads at once (as a `BufReader`; a longer
/// line is read in several).
#[cfg(unix)]
const READ_CHUNK: usize = 8 * 1024;

/// How long a thread stands by before it looks for other work.
#[cfg(unix)]
const STAND_BY: std::time::Duration = std::time::Duration::from_secs(10);

/// The waker's token in the watch of the thread standing by (the input's
/// is `loan`'s): the read that brought a call brought more, already read.
#[cfg(unix)]
const MORE_READ: mio::Token = mio::Token(1);

#[cfg(unix)]
/// The protocol input read by the call threads, one at a time
/// ([`Lead`](pool::Lead)).
pub(crate) struct InputReader {
    /// Taken by the leading thread only (the lead passes on through
    /// `loan`).
    state: std::sync::Mutex<ReaderState>,
    /// Lent while the leading thread runs a call it read; whoever takes
    /// the input over leads next.
    loan: Arc<loan::Loan>,
    to_loop: tokio::sync::mpsc::UnboundedSender<Inbound>,
    early: Option<Arc<dyn EarlyCalls>>,
    /// Where the thread standing by waits for the input while it is lent
    /// (registered there only then, by `loan`).
    watch: std::sync::Mutex<mio::Poll>,
    /// Wakes the thread standing by when bytes read already wait in the
    /// buffer (the input's readiness, edge triggered, never tells of
    /// them).
    waker: mio::Waker,
}

#[cfg(unix)]
struct ReaderState {
    input: std::fs::File,
    /// Bytes read, `start..end` not taken yet.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    framing: Framing,
    /// The requests the rest of this read cancels (where each
    /// cancellation ends in the buffer, and the id as JSON), found once per
    /// read when a call has more behind it.
    cancelled_ahead: Option<Vec<(usize, serde_json::Value)>>,
}

#[cfg(unix)]
impl InputReader {
    /// What the reading thread does with `message`: the task of a call it
    /// runs itself, or `None` once the message is handed on (or, a
    /// cancellation of such a call, acted on); `Err` when the session is
    /// over.
    fn route(
        &self,
        mut message: Box<RxJsonRpcMessage<RoleServer>>,
    ) -> Result<Option<pool::Task>, ()> {
        if let Some(early) = &self.early {
            if let Some(id) = cancelled_id(&message) {
                if early.cancel(id) {
                    return Ok(None);
                }
            } else if let Some(task) = early.start(&mut message) {
                return Ok(Some(task));
            }
        }
        self.to_loop
            .send(Inbound::Message(message))
            .map(|()| None)
            .map_err(drop)
    }
}

#[cfg(unix)]
impl pool::Lead for InputReader {
    fn reclaim(&self) -> bool {
        self.loan.reclaim()
    }

    fn stand_by(&self) -> bool {
        {
            let mut watch = self.watch.lock().unwrap_or_else(|e| e.into_inner());
            let mut events = mio::Events::with_capacity(2);
            if let Err(error) = watch.poll(&mut events, Some(STAND_BY)) {
                if error.kind() != std::io::ErrorKind::Interrupted {
                    tracing::debug!(%error, "cannot wait for the input");
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                return false;
            }
            if events.is_empty() {
                return false;
            }
        }
        // Something came while the input was lent: take it over, unless
        // its leader came back first.
        self.loan.take_over()
    }

    fn lead(&self) -> Option<pool::Task> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let state = &mut *state;
        loop {
            while state.start < state.end {
                let available = &state.buffer[state.start..state.end];
                let (took, read) = state.framing.take(available);
                state.start += took;
                let Some(inbound) = read.and_then(|read| state.framing.after(read)) else {
                    continue;
                };
                let routed = match inbound {
                    // A call whose cancellation was read with it never
                    // starts: neither this thread nor rmcp sees it (the
                    // cancellation then reaches nothing).
                    Inbound::Message(message)
                        if state.start < state.end
                            && call_of(&message).is_some_and(|(id, _)| state.cancels(id)) =>
                    {
                        if let Some((id, tool)) = call_of(&message) {
                            tracing::info!(
                                %id,
                                tool,
                                "call cancelled by the client in the read that brought it: \
                                 not started"
                            );
                        }
                        Ok(None)
                    }
                    Inbound::Message(message) => self.route(message),
                    inbound => self.to_loop.send(inbound).map(|()| None).map_err(drop),
                };
                match routed {
                    Ok(Some(task)) => {
                        self.lend_while(state.start < state.end);
                        return Some(task);
                    }
                    Ok(None) => {}
                    // The session is over: nothing reads what comes.
                    Err(()) => return None,
                }
            }
            match state.read() {
                Ok(0) => {
                    let _ = self.to_loop.send(Inbound::End);
                    return None;
                }
                Ok(read) => {
                    (state.start, state.end) = (0, read);
                    state.cancelled_ahead = None;
                }
                Err(error) => {
                    tracing::error!("cannot read from the client: {error}");
                    let _ = self.to_loop.send(Inbound::End);
                    return None;
                }
            }
        }
    }
}

#[cfg(unix)]
impl InputReader {
    /// Lends the input to the thread standing by while this thread runs a
    /// call it read; when `more` was read with the call, the thread
    /// standing by takes the input over at once.
    fn lend_while(&self, more: bool) {
        if let Err(error) = self.loan.lend() {
            // Only the bytes read already can be taken over now; what
            // comes later waits for this call.
            tracing::error!(%error, "cannot watch the input");
        }
        if more {
            if let Err(error) = self.waker.wake() {
                tracing::error!(%error, "cannot wake the thread standing by");
            }
        }
    }
}

#[cfg(unix)]
impl ReaderState {
    /// Whether the rest of this read holds a `notifications/cancelled` of
    /// the request `id` (read through once per read, whole lines only).
    fn cancels(&mut self, id: &RequestId) -> bool {
        let (start, end) = (self.start, self.end);
        let buffer = &self.buffer;
        let ahead = self.cancelled_ahead.get_or_insert_with(|| {
            // Whole lines only, each with where it ends in the buffer.
            let mut lines = Vec::new();
            let mut at = start;
            while let Some(length) = buffer[at..end].iter().position(|b| *b == b'\n') {
                lines.push((at + length, &buffer[at..at + length]));
                at += length + 1;
            }
            lines
                .into_iter()
                .filter_map(|(ends, line)| Some((ends, std::str::from_utf8(line).ok()?)))
                .filter(|(_, line)| line.contains("notifications/cancelled"))
                .filter_map(|(ends, line)| {
                    let message = serde_json::from_str::<serde_json::Value>(line).ok()?;
                    (message["method"] == "notifications/cancelled")
                        .then(|| (ends, message["params"]["requestId"].clone()))
                })
                .collect()
        });
        // Only what follows the call: a cancellation before it, read
        // already, was of an earlier request with its id.
        !ahead.is_empty()
            && serde_json::to_value(id).is_ok_and(|id| {
                ahead
                    .iter()
                    .any(|(ends, cancelled)| *ends >= start && *cancelled == id)
            })
    }

    /// Reads what came (waiting for it), into the emptied buffer.
    fn read(&mut self) -> std::io::Result<usize> {
        use std::io::Read;
        loop {
            match self.input.read(&mut self.buffer) {
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                    // A non-blocking input (shared with another process):
                    // wait until it is readable.
                    let mut fds = [rustix::event::PollFd::new(
                        &self.input,
                        rustix::event::PollFlags::IN,
                    )];
                    match rustix::event::poll(&mut fds, None) {
                        Ok(_) | Err(rustix::io::Errno::INTR) => {}
                        Err(error) => return Err(error.into()),
                    }
                }
                read => return read,
            }
        }
    }
}

/// The refusal of a line longer than [`MAX_LINE_BYTES`], with the request
/// id its start had, if any.
fn too_long(id: Option<serde_json::Value>) -> Vec<u8> {
    tracing::warn!("refusing a message longer than {MAX_LINE_BYTES} bytes");
    let reply = error_response(
        id,
        -32600,
        &format!("Invalid Request: message longer than {MAX_LINE_BYTES} bytes"),
    );
    reply_bytes(&reply)
}

impl Framing {
    /// Reads up to the next newline into `self.line`. Cancel-safe: partial
    /// lines stay in the buffer for the next call.
    async fn read_line(&mut self, reader: &mut BufReader<Reader>) -> std::io::Result<LineRead> {
        loop {
            let available = reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(LineRead::Eof);
            }
            let (take, outcome) = self.take(available);
            reader.consume(take);
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
        }
    }

    /// Takes `available` up to its first newline into `self.line`: how
    /// many bytes it took, and what they ended, if anything: a line, or
    /// one too long (dropped, to its end).
    fn take(&mut self, available: &[u8]) -> (usize, Option<LineRead>) {
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        let mut outcome = None;
        if self.discarding {
            if newline.is_some() {
                self.discarding = false;
            }
        } else if self.line.len() + take > MAX_LINE_BYTES {
            // The id is usually near the start: read it from what came.
            let id = recover_id(&self.line);
            self.line.clear();
            self.discarding = newline.is_none();
            outcome = Some(LineRead::TooLong(id));
        } else {
            self.line.extend_from_slice(&available[..take]);
            if newline.is_some() {
                outcome = Some(LineRead::Line);
            }
        }
        (take, outcome)
    }

    /// What a read means for the event loop: the line's message or the
    /// error to answer it with (or nothing), the refusal of a line too
    /// long, or the end of the input.
    fn after(&mut self, read: LineRead) -> Option<Inbound> {
        match read {
            LineRead::Line => self.accept(),
            LineRead::TooLong(id) => Some(Inbound::Reply(too_long(id))),
            LineRead::Eof => Some(Inbound::End),
        }
    }

    /// What the line read means for the event loop: a message, an error
    /// to answer with, or nothing.
    fn accept(&mut self) -> Option<Inbound> {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        let decoded = decode_line(line);
        self.line.clear();
        match decoded {
            Decoded::Message(message) => {
                if self.cancels_an_answered_request(&message) {
                    return None;
                }
                if let Some(reply) = self.track(&message) {
                    return Some(Inbound::Reply(reply_bytes(&reply)));
                }
                if let Some(reply) = self.before_lifecycle(&message) {
                    return Some(Inbound::Reply(reply_bytes(&reply)));
                }
                if !self.in_session {
                    let rmcp::model::JsonRpcMessage::Request(request) = &*message else {
                        tracing::warn!("ignoring a message sent before the session began");
                        return None;
                    };
                    self.in_session = begins_session(&request.request);
                }
                Some(Inbound::Message(message))
            }
            Decoded::Skip => None,
            Decoded::Reply(reply) => Some(Inbound::Reply(reply_bytes(&reply))),
        }
    }

    /// Records a request as in flight, or the refusal of one whose id is
    /// already in flight; forgets a request its client cancelled (rmcp
    /// answers it no more).
    fn track(&self, message: &RxJsonRpcMessage<RoleServer>) -> Option<serde_json::Value> {
        let mut in_flight = self.in_flight.lock().ok()?;
        if let rmcp::model::JsonRpcMessage::Request(request) = message {
            if in_flight.insert(request.id.clone()) {
                return None;
            }
            return Some(duplicate_id(&request.id));
        }
        if let Some(id) = cancelled_id(message) {
            in_flight.remove(id);
        }
        None
    }

    /// Whether `message` cancels a request that is answered already (or
    /// was never made): too late to stop it, and, passed on, it would stop
    /// the next request to reuse the id. Such a cancellation is ignored,
    /// as the protocol allows for a request that has completed.
    fn cancels_an_answered_request(&self, message: &RxJsonRpcMessage<RoleServer>) -> bool {
        let Some(id) = cancelled_id(message) else {
            return false;
        };
        let answered = self
            .in_flight
            .lock()
            .is_ok_and(|in_flight| !in_flight.contains(id));
        if answered {
            tracing::debug!(%id, "ignoring the cancellation of a request already answered");
        }
        answered
    }

    /// A request other than `ping` before any lifecycle began: answered
    /// here with what to do, where rmcp would only name the `_meta`
    /// fields of the newest protocol.
    fn before_lifecycle(
        &mut self,
        message: &RxJsonRpcMessage<RoleServer>,
    ) -> Option<serde_json::Value> {
        use rmcp::model::{ClientRequest, GetMeta};
        if self.began {
            return None;
        }
        let rmcp::model::JsonRpcMessage::Request(request) = message else {
            return None;
        };
        match &request.request {
            ClientRequest::PingRequest(_) => return None,
            ClientRequest::InitializeRequest(_) | ClientRequest::DiscoverRequest(_) => {
                self.began = true;
                return None;
            }
            other if other.get_meta().contains_key(PROTOCOL_VERSION_META) => {
                self.began = true;
                return None;
            }
            _ => {}
        }
        if let Ok(mut in_flight) = self.in_flight.lock() {
            in_flight.remove(&request.id);
        }
        tracing::warn!(id = %request.id, "refusing a request sent before initialize");
        Some(error_response(
            serde_json::to_value(&request.id).ok(),
            -32600,
            &format!(
                "Invalid Request: send initialize first (or, with protocol 2026-07-28, \
                 server/discover, and `{PROTOCOL_VERSION_META}` and \
                 `io.modelcontextprotocol/clientCapabilities` in every request's _meta)"
            ),
        ))
    }
}

/// The refusal of a request whose id is already in flight (each request
/// gets its own answer), over stdio and over HTTP alike.
pub(super) fn duplicate_id(id: &RequestId) -> serde_json::Value {
    tracing::warn!(%id, "refusing a request whose id is in flight");
    error_response(
        serde_json::to_value(id).ok(),
        -32600,
        &format!("Invalid Request: id {id} is already used by a request in flight"),
    )
}

/// Whether rmcp begins its session on this request (rather than answering
/// it from its pre-session loop): `initialize`, or — protocol 2026-07-28,
/// which has no `initialize` — any request but `ping` and
/// `server/discover` whose `_meta` carries every required field and a
/// version the server supports (rmcp's default list, which
/// [`BridgeServer`](crate::BridgeServer) keeps).
fn begins_session(request: &rmcp::model::ClientRequest) -> bool {
    use rmcp::model::{ClientRequest, GetMeta, ProtocolVersion};
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.missing_required_keys(&ProtocolVersion::V_2026_07_28)
                .is_empty()
                && meta
                    .protocol_version()
                    .is_some_and(|v| ProtocolVersion::KNOWN_VERSIONS.contains(&v))
        }
    }
}

enum LineRead {
    Line,
    /// Longer than the limit; the request id, if its start had one.
    TooLong(Option<serde_json::Value>),
    Eof,
}

impl Transport<RoleServer> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        let answered = match &item {
            rmcp::model::JsonRpcMessage::Response(response) => Some(&response.id),
            rmcp::model::JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let (Some(id), Ok(mut in_flight)) = (answered, self.in_flight.lock()) {
            in_flight.remove(id);
        }
        async move { write_line(&writer, &message_line(&item)?).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Err(error) = self.flush_pending().await {
                tracing::error!("cannot write to the client: {error}");
                return None;
            }
            if self.ended {
                self.answered().await;
                return None;
            }
            match self.next().await {
                Inbound::Message(message) => return Some(*message),
                Inbound::Reply(reply) => self.pending = Some(reply),
                Inbound::End => match &self.input_ended {
                    Some(ended) => {
                        ended.cancel();
                        self.ended = true;
                    }
                    None => return None,
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}
