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
//! One shortcut: the answer to a call of a synchronous handler is written
//! by the call thread that ran it ([`Replier`], the same serialisation of
//! the same rmcp types, through the same writer), so no hand-back to the
//! event loop stands between the handler and the client. rmcp's own answer
//! to that request comes later, marked [`ANSWERED`], and is dropped here;
//! until it has come, a new request reusing the id waits (rmcp keeps a
//! request under its id until it has answered it). A cancellation of a
//! request already answered is ignored: it came too late, and passed on
//! it would stop the next request reusing the id.
//!
//! Over stdio on Unix the input is read by the call threads, not by the
//! event loop ([`InputReader`], led by `pool.rs`): one thread reads and
//! hands the messages on. A call it may start itself (`BridgeServer`
//! decides, [`EarlyCall`]) it runs at once, lending the input to a thread
//! standing by, which wakes only if something comes meanwhile. A call that
//! ends first is answered by its thread and never seen by rmcp; otherwise
//! the thread standing by hands its request on to rmcp first (its handler
//! then follows the call: cancellation, timeout) and reads on. So a
//! request after a pause wakes one thread, which runs the call and
//! answers it, as a hand-written rmcp server's one worker does.

mod framing;
#[cfg(feature = "http")]
pub(crate) mod http;
mod stdio;

pub(crate) use stdio::guarded_stdio;

use framing::{decode_line, error_response, recover_id, reply_bytes, Decoded};

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

/// The `structuredContent` of the answer a call gives rmcp when the thread
/// that ran it has already written its answer ([`Replier`]): the transport
/// drops that answer (no result of a call is ever a bare string).
pub(crate) const ANSWERED: &str = "(answered by the call thread)";

/// Writes a call's answer from the thread that ran its handler, through
/// the transport's writer and its lock, in the order the transport writes
/// everything else. The answer leaves as soon as the handler returns,
/// without a hand-back to the event loop first: rmcp's own answer to the
/// request comes later, marked [`ANSWERED`], and is dropped.
pub(crate) struct Replier {
    writer: Arc<Mutex<Writer>>,
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
    answering: Arc<Answering>,
    runtime: tokio::runtime::Handle,
}

/// The requests answered by their call threads whose answer from rmcp has
/// not come through yet. rmcp keeps a request under its id until then, so
/// a new request reusing one of these ids waits for it.
#[derive(Default)]
struct Answering {
    ids: std::sync::Mutex<HashSet<RequestId>>,
    /// Told when an id leaves `ids`.
    passed: tokio::sync::Notify,
}

impl Answering {
    fn insert(&self, id: &RequestId) {
        if let Ok(mut ids) = self.ids.lock() {
            ids.insert(id.clone());
        }
    }

    fn remove(&self, id: &RequestId) {
        let removed = self.ids.lock().is_ok_and(|mut ids| ids.remove(id));
        if removed {
            self.passed.notify_waiters();
        }
    }

    fn contains(&self, id: &RequestId) -> bool {
        self.ids.lock().is_ok_and(|ids| ids.contains(id))
    }

    /// Whether `message` is a request reusing an id rmcp still holds.
    fn holds(&self, message: &RxJsonRpcMessage<RoleServer>) -> bool {
        matches!(message, rmcp::model::JsonRpcMessage::Request(request)
            if self.contains(&request.id))
    }
}

impl Replier {
    /// Writes `result` as the answer to request `id`, in the shape of
    /// protocol 2026-07-28 when `modern` (as rmcp's handler shapes its
    /// answers). Call it from a thread outside the runtime (it blocks until
    /// the line is written).
    pub(crate) fn reply(
        &self,
        id: RequestId,
        result: rmcp::model::CallToolResult,
        modern: bool,
    ) -> std::io::Result<()> {
        use rmcp::model::{JsonRpcMessage, ServerResult};
        if let Ok(mut in_flight) = self.in_flight.lock() {
            in_flight.remove(&id);
        }
        let mut result = ServerResult::CallToolResult(result);
        match modern {
            true => result.fill_missing_cache_hints(),
            false => result.strip_result_type_for_legacy_peer(),
        }
        let message: TxJsonRpcMessage<RoleServer> = JsonRpcMessage::response(result, id);
        let bytes = message_line(&message)?;
        self.runtime.block_on(write_line(&self.writer, &bytes))
    }

    /// Says that this thread may answer request `id`: until rmcp's own
    /// answer to it has passed (or [`forget`](Self::forget)), a new request
    /// reusing the id waits. Before the answer is written, so before the
    /// client can send the id again.
    pub(crate) fn expect(&self, id: &RequestId) {
        self.answering.insert(id);
    }

    /// Forgets [`expect`](Self::expect)ed request `id`: rmcp sends no
    /// answer of its own to it (the request was cancelled) or the thread
    /// will not answer it.
    pub(crate) fn forget(&self, id: &RequestId) {
        self.answering.remove(id);
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

/// Whether `item` is rmcp's answer to a call whose thread already wrote
/// it.
fn answered_already(item: &TxJsonRpcMessage<RoleServer>) -> bool {
    use rmcp::model::{JsonRpcMessage, ServerResult};
    let JsonRpcMessage::Response(response) = item else {
        return false;
    };
    let ServerResult::CallToolResult(result) = &response.result else {
        return false;
    };
    result
        .structured_content
        .as_ref()
        .and_then(serde_json::Value::as_str)
        == Some(ANSWERED)
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
    /// Requests answered by their call threads, rmcp's answer to come.
    answering: Arc<Answering>,
    /// A message read while its request id waits for rmcp's answer to an
    /// earlier request of that id (kept across cancellation).
    held: Option<RxJsonRpcMessage<RoleServer>>,
}

/// Where the messages come from.
enum Source {
    /// Read here, on the event loop.
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
    /// The request of a call its reading thread started: never held back
    /// for its id (the id its thread may be answering is its own).
    Started(Box<RxJsonRpcMessage<RoleServer>>),
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
    answering: Arc<Answering>,
}

impl LineTransport {
    /// Frames messages over `reader` and `writer`, reading on the event
    /// loop.
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
        let fd = std::os::fd::AsRawFd::as_raw_fd(&input);
        Ok(Self::with(writer, |framing| Source::Threads {
            inbox,
            reader: std::sync::Mutex::new(Some(InputReader {
                state: std::sync::Mutex::new(ReaderState {
                    input,
                    buffer: vec![0; READ_CHUNK],
                    start: 0,
                    end: 0,
                    framing,
                }),
                away: std::sync::Mutex::new(None),
                fd,
                to_loop,
                early: None,
                watch: std::sync::Mutex::new(watch),
                registry,
            })),
        }))
    }

    fn with(
        writer: impl AsyncWrite + Send + 'static,
        source: impl FnOnce(Framing) -> Source,
    ) -> Self {
        let in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>> = Arc::default();
        let answering: Arc<Answering> = Arc::default();
        let framing = Framing {
            line: Vec::new(),
            discarding: false,
            in_session: false,
            began: false,
            in_flight: Arc::clone(&in_flight),
            answering: Arc::clone(&answering),
        };
        Self {
            source: source(framing),
            writer: Arc::new(Mutex::new(Box::pin(writer))),
            pending: None,
            in_flight,
            answering,
            held: None,
        }
    }

    /// The reader of the input, for the call threads to read it with
    /// ([`Pool::lead`](super::pool::Pool::lead)), `early` starting the
    /// calls the reading thread runs itself; once, and only for a
    /// [`threaded`](Self::threaded) transport.
    pub(crate) fn reader(&self, early: Early) -> Option<Arc<dyn super::pool::Lead>> {
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

    /// What writes calls' answers from their threads, through this
    /// transport; `None` outside a runtime.
    pub(crate) fn replier(&self) -> Option<Arc<Replier>> {
        Some(Arc::new(Replier {
            writer: Arc::clone(&self.writer),
            in_flight: Arc::clone(&self.in_flight),
            answering: Arc::clone(&self.answering),
            runtime: tokio::runtime::Handle::try_current().ok()?,
        }))
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

/// Starts the call a request brings on the thread that read it, when it
/// may ([`EarlyCall`]).
pub(crate) type Early =
    Box<dyn Fn(&mut RxJsonRpcMessage<RoleServer>) -> Option<EarlyCall> + Send + Sync>;

/// A call started by the thread that read its request: the task to run
/// there, and who answers it. Its request is handed on to the event loop
/// only if something comes in while it runs (read by the thread standing
/// by), or if it ends unanswered; a call that ends first is answered by
/// its thread, unseen by the event loop: no wake-up of another thread
/// stands between its request and its answer.
pub(crate) struct EarlyCall {
    pub(crate) task: super::pool::Task,
    pub(crate) lent: Arc<super::pool::Lent>,
}

/// How much the reading thread reads at once (as a `BufReader`; a longer
/// line is read in several).
#[cfg(unix)]
const READ_CHUNK: usize = 8 * 1024;

/// How long a thread stands by before it looks for other work.
#[cfg(unix)]
const STAND_BY: std::time::Duration = std::time::Duration::from_secs(10);

#[cfg(unix)]
/// The protocol input read by the call threads, one at a time
/// ([`Lead`](super::pool::Lead)).
pub(crate) struct InputReader {
    /// Taken by the leading thread only (the lead passes on through
    /// `away`).
    state: std::sync::Mutex<ReaderState>,
    /// While the leading thread runs a call it read: the request, not
    /// handed on yet. Whoever takes it leads next.
    away: std::sync::Mutex<Option<Away>>,
    fd: std::os::fd::RawFd,
    to_loop: tokio::sync::mpsc::UnboundedSender<Inbound>,
    early: Option<Early>,
    /// Where the thread standing by waits for the input while it is lent
    /// (registered there only then).
    watch: std::sync::Mutex<mio::Poll>,
    registry: mio::Registry,
}

#[cfg(unix)]
struct ReaderState {
    input: std::fs::File,
    /// Bytes read, `start..end` not taken yet.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    framing: Framing,
}

#[cfg(unix)]
/// The request of a call its reading thread runs.
struct Away {
    message: Option<Box<RxJsonRpcMessage<RoleServer>>>,
    lent: Arc<super::pool::Lent>,
    /// The thread running the call.
    by: std::thread::ThreadId,
}

#[cfg(unix)]
impl InputReader {
    /// Lets the thread standing by wake when the input has something to
    /// read (edge triggered: what is already there wakes it at once).
    fn lend(&self) -> std::io::Result<()> {
        self.registry.register(
            &mut mio::unix::SourceFd(&self.fd),
            mio::Token(0),
            mio::Interest::READABLE,
        )
    }

    fn unlend(&self) {
        let _ = self.registry.deregister(&mut mio::unix::SourceFd(&self.fd));
    }

    /// Ends the input's loan (when `mine`, only one this thread made):
    /// hands the request on to the event loop unless its call was
    /// answered already; whether this thread leads now.
    fn settle(&self, mine: bool) -> bool {
        let away = {
            let mut away = self.away.lock().unwrap_or_else(|e| e.into_inner());
            match &*away {
                Some(lent) if !mine || lent.by == std::thread::current().id() => away.take(),
                _ => None,
            }
        };
        let Some(away) = away else {
            return false;
        };
        self.unlend();
        if away.lent.forward() {
            if let Some(message) = away.message {
                let _ = self.to_loop.send(Inbound::Started(message));
            }
        }
        true
    }
}

#[cfg(unix)]
impl super::pool::Lead for InputReader {
    fn reclaim(&self) -> bool {
        self.settle(true)
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
        self.settle(false)
    }

    fn lead(&self) -> Option<super::pool::Task> {
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
                let inbound = match (inbound, &self.early) {
                    (Inbound::Message(mut message), Some(early))
                        if !state.framing.answering.holds(&message) =>
                    {
                        match early(&mut message) {
                            Some(call) => return Some(self.run_here(message, call)),
                            None => Inbound::Message(message),
                        }
                    }
                    (inbound, _) => inbound,
                };
                if self.to_loop.send(inbound).is_err() {
                    // The session is over: nothing reads what comes.
                    return None;
                }
            }
            match state.read() {
                Ok(0) => {
                    let _ = self.to_loop.send(Inbound::End);
                    return None;
                }
                Ok(read) => (state.start, state.end) = (0, read),
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
    /// Lends the input to the thread standing by while this one runs
    /// `call`; its request is held back until something comes.
    fn run_here(
        &self,
        message: Box<RxJsonRpcMessage<RoleServer>>,
        call: EarlyCall,
    ) -> super::pool::Task {
        // Set before the input is watched: the thread standing by takes it.
        *self.away.lock().unwrap_or_else(|e| e.into_inner()) = Some(Away {
            message: Some(message),
            lent: Arc::clone(&call.lent),
            by: std::thread::current().id(),
        });
        if let Err(error) = self.lend() {
            // Handed on now; what comes next waits for this call.
            tracing::error!(%error, "cannot watch the input");
            let mut away = self.away.lock().unwrap_or_else(|e| e.into_inner());
            let held = away.as_mut().and_then(|away| away.message.take());
            if let (Some(message), true) = (held, call.lent.forward()) {
                let _ = self.to_loop.send(Inbound::Started(message));
            }
        }
        call.task
    }
}

#[cfg(unix)]
impl ReaderState {
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
    /// the next request to reuse the id, or have rmcp drop its own answer
    /// to a request a call thread answered, so that a new request reusing
    /// the id would wait for it for ever. Such a cancellation is ignored,
    /// as the protocol allows for a request that has completed.
    fn cancels_an_answered_request(&self, message: &RxJsonRpcMessage<RoleServer>) -> bool {
        let Some(id) = cancelled_id(message) else {
            return false;
        };
        let answered = self
            .in_flight
            .lock()
            .is_ok_and(|in_flight| !in_flight.contains(id))
            || self.answering.contains(id);
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
fn duplicate_id(id: &RequestId) -> serde_json::Value {
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
        // Written already, by the thread that ran the call (when the
        // request's id may be in flight again, for a new request).
        let skip = answered_already(&item);
        let answered = match &item {
            rmcp::model::JsonRpcMessage::Response(response) => Some(&response.id),
            rmcp::model::JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let Some(id) = answered {
            if let (false, Ok(mut in_flight)) = (skip, self.in_flight.lock()) {
                in_flight.remove(id);
            }
            // rmcp is done with the id: a request reusing it may go.
            self.answering.remove(id);
        }
        async move {
            if skip {
                return Ok(());
            }
            write_line(&writer, &message_line(&item)?).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Err(error) = self.flush_pending().await {
                tracing::error!("cannot write to the client: {error}");
                return None;
            }
            if let Some(message) = self.held.take() {
                let answering = Arc::clone(&self.answering);
                let passed = answering.passed.notified();
                if answering.holds(&message) {
                    self.held = Some(message);
                    passed.await;
                    continue;
                }
                return Some(message);
            }
            match self.next().await {
                Inbound::Message(message) => {
                    if self.answering.holds(&message) {
                        self.held = Some(*message);
                        continue;
                    }
                    return Some(*message);
                }
                Inbound::Started(message) => return Some(*message),
                Inbound::Reply(reply) => self.pending = Some(reply),
                Inbound::End => return None,
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}
