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
    reader: BufReader<Reader>,
    line: Vec<u8>,
    /// Dropping the rest of an over-long line.
    discarding: bool,
    writer: Arc<Mutex<Writer>>,
    /// An error response still to be written (kept across cancellation).
    pending: Option<Vec<u8>>,
    /// Whether rmcp's session has begun: before it, rmcp ends the whole
    /// session on a notification or a response (even after a `ping`), so
    /// those are dropped until then.
    in_session: bool,
    /// Whether the client began a lifecycle: `initialize`, or
    /// `server/discover` / a request carrying its protocol version in
    /// `_meta` (protocol 2026-07-28, which has no `initialize`).
    began: bool,
    /// The ids of requests not answered yet: a second request with one of
    /// them is refused, so each request gets its own answer.
    /// (`1` and `"1"` are different ids.)
    in_flight: Arc<std::sync::Mutex<HashSet<RequestId>>>,
    /// Requests answered by their call threads, rmcp's answer to come.
    answering: Arc<Answering>,
    /// A message read while its request id waits for rmcp's answer to an
    /// earlier request of that id (kept across cancellation).
    held: Option<RxJsonRpcMessage<RoleServer>>,
    /// The incoming pipe again, for a call thread to wait on its
    /// readiness (never read but by this transport).
    #[cfg(unix)]
    input: Option<std::os::fd::OwnedFd>,
}

impl LineTransport {
    /// Frames messages over `reader` and `writer`.
    pub(crate) fn new(
        reader: impl AsyncRead + Send + 'static,
        writer: impl AsyncWrite + Send + 'static,
    ) -> Self {
        Self {
            reader: BufReader::new(Box::pin(reader)),
            line: Vec::new(),
            discarding: false,
            writer: Arc::new(Mutex::new(Box::pin(writer))),
            pending: None,
            in_session: false,
            began: false,
            in_flight: Arc::default(),
            answering: Arc::default(),
            held: None,
            #[cfg(unix)]
            input: None,
        }
    }

    /// The incoming pipe, for a call thread to wait on its readiness.
    #[cfg(unix)]
    pub(crate) fn watched_input(&self) -> Option<std::os::fd::OwnedFd> {
        self.input.as_ref()?.try_clone().ok()
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

    /// Reads up to the next newline into `self.line`. Cancel-safe: partial
    /// lines stay in the buffer for the next call.
    async fn read_line(&mut self) -> std::io::Result<LineRead> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(LineRead::Eof);
            }
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
            self.reader.consume(take);
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
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

    async fn flush_pending(&mut self) -> std::io::Result<()> {
        if let Some(bytes) = &self.pending {
            write_line(&self.writer, bytes).await?;
            self.pending = None;
        }
        Ok(())
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
            match self.read_line().await {
                Ok(LineRead::Line) => {}
                Ok(LineRead::TooLong(id)) => {
                    tracing::warn!("refusing a message longer than {MAX_LINE_BYTES} bytes");
                    let reply = error_response(
                        id,
                        -32600,
                        &format!("Invalid Request: message longer than {MAX_LINE_BYTES} bytes"),
                    );
                    self.pending = Some(reply_bytes(&reply));
                    continue;
                }
                Ok(LineRead::Eof) => return None,
                Err(error) => {
                    tracing::error!("cannot read from the client: {error}");
                    return None;
                }
            }
            let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let decoded = decode_line(line);
            self.line.clear();
            match decoded {
                Decoded::Message(message) => {
                    if self.cancels_an_answered_request(&message) {
                        continue;
                    }
                    if let Some(reply) = self.track(&message) {
                        self.pending = Some(reply_bytes(&reply));
                        continue;
                    }
                    if let Some(reply) = self.before_lifecycle(&message) {
                        self.pending = Some(reply_bytes(&reply));
                        continue;
                    }
                    if !self.in_session {
                        let rmcp::model::JsonRpcMessage::Request(request) = &*message else {
                            tracing::warn!("ignoring a message sent before the session began");
                            continue;
                        };
                        self.in_session = begins_session(&request.request);
                    }
                    if self.answering.holds(&message) {
                        self.held = Some(*message);
                        continue;
                    }
                    return Some(*message);
                }
                Decoded::Skip => continue,
                Decoded::Reply(reply) => self.pending = Some(reply_bytes(&reply)),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.shutdown().await
    }
}
