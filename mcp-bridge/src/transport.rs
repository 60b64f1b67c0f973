//! The stdio transport: newline-delimited JSON-RPC, where no line goes
//! unanswered and nothing but the protocol reaches stdout.
//!
//! rmcp's own line transport drops a line that is not JSON (or nests deeper
//! than serde_json allows) without a word, and answers a malformed message
//! without its id. This one answers every such line with a JSON-RPC error
//! (`-32700` or `-32600`), carrying the request id whenever it can be read,
//! and keeps serving. Messages are still parsed into rmcp's own types and
//! handled by rmcp; only the framing is ours.

use std::pin::Pin;
use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line accepted; longer ones are refused with an error.
pub(crate) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

type Reader = Pin<Box<dyn AsyncRead + Send>>;
type Writer = Pin<Box<dyn AsyncWrite + Send>>;

/// A line-delimited JSON-RPC transport over any reader and writer.
pub struct LineTransport {
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
    pub fn new(
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

/// What to do with one received line.
#[derive(Debug)]
pub(crate) enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (blank line, or a notification we cannot read: a
    /// notification never gets a response).
    Skip,
    /// Answer with this JSON-RPC error response.
    Reply(Value),
}

/// Turns one line (without its newline) into a message or an error reply.
pub(crate) fn decode_line(line: &[u8]) -> Decoded {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Skip;
    }
    match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(error) => {
            let parsed: Option<Value> = serde_json::from_slice(line).ok();
            let (code, kind) = match &parsed {
                Some(_) => (-32600, "Invalid Request"),
                None => (-32700, "Parse error"),
            };
            let id = match &parsed {
                Some(value) => value.get("id").cloned().filter(is_valid_id),
                None => recover_id(line),
            };
            let is_notification = parsed
                .as_ref()
                .is_some_and(|v| v.get("method").is_some() && v.get("id").is_none());
            if is_notification {
                tracing::debug!("ignoring a notification that could not be read: {error}");
                return Decoded::Skip;
            }
            tracing::warn!("refusing an incoming line ({kind}): {error}");
            Decoded::Reply(error_response(id, code, &format!("{kind}: {error}")))
        }
    }
}

fn error_response(id: Option<Value>, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": { "code": code, "message": message },
    })
}

fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// Finds the top-level `"id"` of a line that is not valid JSON (truncated,
/// or nested too deep), scanning without building a value.
pub(crate) fn recover_id(line: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(line).ok()?;
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let end = string_end(bytes, i)?;
                let key = &text[i + 1..end];
                i = end + 1;
                if depth == 1 && key == "id" {
                    let rest = text[i..].trim_start();
                    if let Some(rest) = rest.strip_prefix(':') {
                        return read_id_value(rest.trim_start());
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn read_id_value(text: &str) -> Option<Value> {
    if text.starts_with('"') {
        let end = string_end(text.as_bytes(), 0)?;
        return serde_json::from_str(&text[..=end]).ok();
    }
    // Take the whole number token (fractions and exponents included), so
    // `1.5` is not misread as `1`; only integers are valid ids.
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .unwrap_or(text.len());
    serde_json::from_str::<Value>(&text[..end])
        .ok()
        .filter(is_valid_id)
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

fn reply_bytes(reply: &Value) -> Vec<u8> {
    let mut bytes = reply.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

/// Standard input and a private handle on the original standard output,
/// after pointing the process's fd 1 at stderr: from then on a stray
/// `println!` in the handler or a dependency lands in the log, never in the
/// protocol.
pub(crate) fn guarded_stdio() -> std::io::Result<LineTransport> {
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::fd::AsFd;

        std::io::stdout().flush()?;
        let (reader, writer) = unix_protocol_streams()?;
        rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
        Ok(LineTransport::new(reader, writer))
    }
    #[cfg(not(unix))]
    {
        Ok(LineTransport::new(tokio::io::stdin(), tokio::io::stdout()))
    }
}

#[cfg(unix)]
fn unix_protocol_streams() -> std::io::Result<(Reader, Writer)> {
    use std::os::fd::AsFd;

    // Pipes (how MCP clients start servers) are reopened as non-blocking
    // pipes on their own file descriptions, so reads and writes run on the
    // reactor; anything else (a file, a terminal) uses the blocking pool.
    #[cfg(target_os = "linux")]
    if let (Some(input), Some(output)) = (reopen_fifo(0, false), reopen_fifo(1, true)) {
        if let (Ok(reader), Ok(writer)) = (
            tokio::net::unix::pipe::Receiver::from_owned_fd(input),
            tokio::net::unix::pipe::Sender::from_owned_fd(output),
        ) {
            return Ok((Box::pin(reader), Box::pin(writer)));
        }
    }
    let output = std::io::stdout().as_fd().try_clone_to_owned()?;
    let writer = tokio::fs::File::from_std(std::fs::File::from(output));
    Ok((Box::pin(tokio::io::stdin()), Box::pin(writer)))
}

#[cfg(target_os = "linux")]
fn reopen_fifo(fd: i32, write: bool) -> Option<std::os::fd::OwnedFd> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

    let file = std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(format!("/proc/self/fd/{fd}"))
        .ok()?;
    let is_fifo = file.metadata().ok()?.file_type().is_fifo();
    is_fifo.then(|| file.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_gets_a_parse_error_without_id() {
        let Decoded::Reply(reply) = decode_line(b"this is not json") else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], Value::Null);
    }

    #[test]
    fn truncated_request_keeps_its_id() {
        let Decoded::Reply(reply) =
            decode_line(br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"#)
        else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], 42);
    }

    #[test]
    fn too_deep_request_keeps_its_string_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{{"name":"x","arguments":{{"a":{}1{}}}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let Decoded::Reply(reply) = decode_line(deep.as_bytes()) else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], "abc");
    }

    #[test]
    fn wrong_shape_gets_invalid_request_with_id() {
        let Decoded::Reply(reply) = decode_line(br#"{"jsonrpc":"2.0","id":7,"result":{"#) else {
            panic!()
        };
        assert_eq!(reply["id"], 7);
        let Decoded::Reply(reply) = decode_line(br#"{"id":8,"foo":true}"#) else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], 8);
    }

    #[test]
    fn fractional_ids_are_not_recovered() {
        assert_eq!(recover_id(br#"{"id":1.5,"method":"x","params":{"#), None);
        assert_eq!(recover_id(br#"{"id":1e3,"method":"x","params":{"#), None);
        assert_eq!(
            recover_id(br#"{"id": -4 ,"method":"x","params":{"#),
            Some(Value::from(-4))
        );
    }

    #[test]
    fn nested_id_is_not_taken_for_the_request_id() {
        assert_eq!(recover_id(br#"{"params":{"id":5},"method":"x""#), None);
    }

    #[test]
    fn blank_lines_are_skipped() {
        assert!(matches!(decode_line(b"  \r"), Decoded::Skip));
    }

    #[test]
    fn valid_request_is_a_message() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert!(matches!(decode_line(line), Decoded::Message(_)));
    }
}
