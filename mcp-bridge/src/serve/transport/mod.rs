//! The stdio transport: newline-delimited JSON-RPC, where no line goes
//! unanswered and nothing but the protocol reaches stdout.
//!
//! rmcp's own line transport drops a line that is not JSON (or nests deeper
//! than serde_json allows) without a word, and answers a malformed message
//! without its id. This one answers every such line with a JSON-RPC error
//! (`-32700` or `-32600`), carrying the request id whenever it can be read,
//! and keeps serving. Messages are still parsed into rmcp's own types and
//! handled by rmcp; only the framing is ours.

mod framing;
mod stdio;

pub(crate) use stdio::guarded_stdio;

use framing::{decode_line, error_response, reply_bytes, Decoded};

use std::pin::Pin;
use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line accepted; longer ones are refused with an error.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

pub(super) type Reader = Pin<Box<dyn AsyncRead + Send>>;
pub(super) type Writer = Pin<Box<dyn AsyncWrite + Send>>;

/// A line-delimited JSON-RPC transport over any reader and writer.
pub(crate) struct LineTransport {
    reader: BufReader<Reader>,
    line: Vec<u8>,
    /// Dropping the rest of an over-long line.
    discarding: bool,
    writer: Arc<Mutex<Writer>>,
    /// An error response still to be written (kept across cancellation).
    pending: Option<Vec<u8>>,
    /// Whether a request has arrived yet: rmcp ends the session on a
    /// notification that comes before `initialize`, so those are dropped.
    seen_request: bool,
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
            seen_request: false,
        }
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
                self.line.clear();
                self.discarding = newline.is_none();
                outcome = Some(LineRead::TooLong);
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

    async fn flush_pending(&mut self) -> std::io::Result<()> {
        if let Some(bytes) = &self.pending {
            let mut writer = self.writer.lock().await;
            writer.write_all(bytes).await?;
            writer.flush().await?;
            self.pending = None;
        }
        Ok(())
    }
}

enum LineRead {
    Line,
    TooLong,
    Eof,
}

impl Transport<RoleServer> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let mut bytes = serde_json::to_vec(&item)?;
            bytes.push(b'\n');
            let mut writer = writer.lock().await;
            writer.write_all(&bytes).await?;
            writer.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Err(error) = self.flush_pending().await {
                tracing::error!("cannot write to the client: {error}");
                return None;
            }
            match self.read_line().await {
                Ok(LineRead::Line) => {}
                Ok(LineRead::TooLong) => {
                    tracing::warn!("refusing a message longer than {MAX_LINE_BYTES} bytes");
                    let reply = error_response(
                        None,
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
                    let is_request = matches!(*message, rmcp::model::JsonRpcMessage::Request(_));
                    if !self.seen_request && !is_request {
                        tracing::warn!("ignoring a message sent before the first request");
                        continue;
                    }
                    self.seen_request |= is_request;
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
