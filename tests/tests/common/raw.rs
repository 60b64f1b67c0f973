//! A server over its raw pipes: hand-written JSON-RPC lines, every read
//! bounded by a timeout, stdout checked to carry nothing but JSON-RPC, and
//! every response checked to answer a request sent and not answered yet
//! (no request is answered twice).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any single response may take.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A running MCP server over its raw pipes.
pub struct RawServer {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    /// Lines from stdout, read on a thread; the channel closes at EOF.
    lines: Receiver<String>,
    /// Every stdout line received so far, for the purity check.
    pub seen: Vec<String>,
    /// Everything written to stderr (the log).
    stderr: Arc<Mutex<Vec<u8>>>,
    /// The requests sent and not answered yet.
    ledger: Ledger,
}

/// The requests a session sent and not answered yet, by id: a response to
/// anything else is a second answer (or one nobody asked for).
#[derive(Default)]
pub struct Ledger {
    /// Requests in flight, by their id's JSON text (`1` and `"1"` differ);
    /// a request may reuse an id once it is answered.
    open: HashMap<String, usize>,
    /// Lines sent that are no readable request but may be answered with an
    /// error, with the id the server reads from them or none.
    unreadable: usize,
    /// The start of a line sent without its end yet.
    partial: Vec<u8>,
}

impl Ledger {
    /// Notes what `bytes`, as sent, ask to be answered.
    pub fn sent(&mut self, bytes: &[u8]) {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            self.line(&line[..end]);
        }
    }

    fn line(&mut self, line: &[u8]) {
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        // A batch is no message (MCP has none): it gets one error.
        let Ok(message @ Value::Object(_)) = serde_json::from_slice::<Value>(line) else {
            self.unreadable += 1;
            return;
        };
        match (message.get("method"), message.get("id")) {
            (Some(Value::String(_)), Some(id)) if id.is_string() || id.is_i64() || id.is_u64() => {
                *self.open.entry(id.to_string()).or_default() += 1;
            }
            // A notification is never answered.
            (Some(Value::String(_)), None) => {}
            // A response of the client's (to a question) is not answered
            // either, unless it is malformed.
            _ if message.get("result").is_some() || message.get("error").is_some() => {}
            _ => self.unreadable += 1,
        }
    }

    /// Checks that `message`, received, answers a request in flight (or a
    /// line the server could not read as one).
    pub fn received(&mut self, message: &Value) {
        let is_response = message.get("result").is_some() || message.get("error").is_some();
        if !is_response {
            return;
        }
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        if let Some(open) = self.open.get_mut(&id.to_string()) {
            if *open > 0 {
                *open -= 1;
                return;
            }
        }
        if self.unreadable > 0 {
            self.unreadable -= 1;
            return;
        }
        // An error for a line whose id the server could not read (one
        // past the length limit): no answer to an id.
        assert!(
            id.is_null() && message.get("error").is_some(),
            "a response to no request in flight (a second answer to id {id}?): {message}"
        );
    }
}

impl RawServer {
    /// Starts `command` (a server binary with its arguments, environment
    /// and directory set) with piped stdin, stdout and stderr.
    pub fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        RawServer {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
            stderr,
            ledger: Ledger::default(),
        }
    }

    pub fn log(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Writes one raw line (a newline is added).
    pub fn send_raw(&mut self, line: &str) {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.send_bytes(&bytes);
    }

    /// Notes bytes written to the server's stdin by other means (a thread
    /// of the test's own), for the check of its answers.
    pub fn note_sent(&mut self, bytes: &[u8]) {
        self.ledger.sent(bytes);
    }

    /// Writes raw bytes as they are (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.ledger.sent(bytes);
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to server");
        stdin.flush().expect("flush to server");
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string());
    }

    /// The next stdout line as JSON-RPC, within the timeout.
    pub fn recv(&mut self) -> Value {
        let line = match self.lines.recv_timeout(READ_TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no response within {READ_TIMEOUT:?}; server log:\n{}",
                self.log()
            ),
            Err(RecvTimeoutError::Disconnected) => {
                panic!("server closed stdout; server log:\n{}", self.log())
            }
        };
        self.take(line)
    }

    /// The next stdout line as JSON-RPC, if one comes within `wait`.
    pub fn recv_within(&mut self, wait: Duration) -> Option<Value> {
        let line = self.lines.recv_timeout(wait).ok()?;
        Some(self.take(line))
    }

    /// A line received: parsed, kept, and checked against the ledger.
    fn take(&mut self, line: String) -> Value {
        let message = parse_jsonrpc(&line);
        self.seen.push(line);
        self.ledger.received(&message);
        message
    }

    /// Waits for the response with `id`, failing on anything else (the
    /// server sends no notifications or requests of its own here).
    pub fn response(&mut self, id: &Value) -> Value {
        let message = self.recv();
        assert_eq!(&message["id"], id, "unexpected message: {message}");
        message
    }

    /// Sends a request and returns its result, failing on an error.
    pub fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.response(&json!(id));
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// Sends a request and returns the whole response, whatever it is.
    pub fn exchange(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(&json!(id))
    }

    /// Calls a tool and returns the result.
    pub fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.request(
            id,
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
        )
    }

    /// Closes stdin, waits for a successful exit and returns the log; no
    /// line may be left on stdout.
    pub fn finish(mut self) -> String {
        let status = self
            .close_and_wait(READ_TIMEOUT)
            .unwrap_or_else(|| panic!("the server did not exit; log:\n{}", self.log()));
        self.drain();
        let log = self.log();
        assert!(status.success(), "server exited with {status}; log:\n{log}");
        log
    }

    pub fn initialize(&mut self) -> Value {
        let result = self.request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "0.0.1"}
            }),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        result
    }

    pub fn tools_list(&mut self, id: i64) -> Vec<String> {
        let result = self.request(id, "tools/list", json!({}));
        result["tools"]
            .as_array()
            .expect("tools array")
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Closes stdin and waits (bounded) for the process to exit.
    pub fn close_and_wait(&mut self, limit: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Reads whatever is left on stdout after the process exited.
    pub fn drain(&mut self) {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(2)) {
                Ok(line) => {
                    self.take(line);
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("stdout did not reach EOF"),
            }
        }
    }

    /// Every line seen on stdout is a JSON-RPC message.
    pub fn assert_stdout_pure(&self) {
        assert!(!self.seen.is_empty());
        for line in &self.seen {
            parse_jsonrpc(line);
        }
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        drop(self.stdin.take());
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Parses one stdout line and checks it is a JSON-RPC 2.0 response (with
/// `result` xor `error`) or notification/request.
pub fn parse_jsonrpc(line: &str) -> Value {
    let message: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
    assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC 2.0: {line}");
    let is_response = message.get("result").is_some() || message.get("error").is_some();
    if is_response {
        assert!(
            message.get("result").is_some() != message.get("error").is_some(),
            "both result and error: {line}"
        );
        assert!(
            message.get("id").is_some(),
            "response without id member: {line}"
        );
        if let Some(error) = message.get("error") {
            assert!(error["code"].is_i64(), "error code: {line}");
            assert!(error["message"].is_string(), "error message: {line}");
        }
    } else {
        assert!(
            message["method"].is_string(),
            "neither response nor message: {line}"
        );
    }
    message
}
