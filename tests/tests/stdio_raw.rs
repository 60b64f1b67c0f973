//! `taskctl mcp serve` over raw pipes: hand-written JSON-RPC lines, every
//! read bounded by a timeout. Covers the framing rmcp's client never
//! exercises: garbage, truncated and too-deep lines, non-JSON-RPC JSON,
//! stdout purity and shutdown on end of input.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any single response may take.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// A running `taskctl mcp serve` with its pipes.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines from stdout, read on a thread; the channel closes at EOF.
    lines: Receiver<String>,
    /// Every stdout line received so far, for the purity check.
    seen: Vec<String>,
    /// Everything written to stderr (the log).
    stderr: Arc<Mutex<Vec<u8>>>,
    _dir: tempfile::TempDir,
    db: PathBuf,
}

impl Server {
    fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(common::taskctl())
            .args(["mcp", "serve"])
            .current_dir(dir.path())
            .env("MCP_BRIDGE_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn taskctl mcp serve");
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
        let db = dir.path().join("raw.json");
        Server {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
            stderr,
            _dir: dir,
            db,
        }
    }

    fn log(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Writes one raw line (a newline is added).
    fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write to server");
        stdin.write_all(b"\n").expect("write to server");
        stdin.flush().expect("flush to server");
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&message.to_string());
    }

    /// The next stdout line as JSON-RPC, within the timeout.
    fn recv(&mut self) -> Value {
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
        self.seen.push(line.clone());
        parse_jsonrpc(&line)
    }

    /// Waits for the response with `id`, failing on anything else (the
    /// server sends no notifications or requests of its own here).
    fn response(&mut self, id: &Value) -> Value {
        let message = self.recv();
        assert_eq!(&message["id"], id, "unexpected message: {message}");
        message
    }

    /// Sends a request and returns its result, failing on an error.
    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.response(&json!(id));
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    fn initialize(&mut self) -> Value {
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

    fn tools_list(&mut self, id: i64) -> Vec<String> {
        let result = self.request(id, "tools/list", json!({}));
        result["tools"]
            .as_array()
            .expect("tools array")
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Closes stdin and waits (bounded) for the process to exit.
    fn close_and_wait(&mut self, limit: Duration) -> Option<ExitStatus> {
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
    fn drain(&mut self) {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(2)) {
                Ok(line) => {
                    parse_jsonrpc(&line);
                    self.seen.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("stdout did not reach EOF"),
            }
        }
    }

    /// Every line seen on stdout is a JSON-RPC message.
    fn assert_stdout_pure(&self) {
        assert!(!self.seen.is_empty());
        for line in &self.seen {
            parse_jsonrpc(line);
        }
    }
}

impl Drop for Server {
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
fn parse_jsonrpc(line: &str) -> Value {
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

fn error_code(message: &Value) -> i64 {
    message["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("expected an error response: {message}"))
}

#[test]
fn initialize_then_tools_list() {
    let mut server = Server::start();
    let result = server.initialize();
    assert_eq!(result["protocolVersion"], "2025-06-18");
    assert_eq!(result["serverInfo"]["name"], "taskctl");
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
    let mut tools = server.tools_list(1);
    tools.sort();
    assert_eq!(
        tools,
        [
            "taskctl_stats",
            "taskctl_stats_export",
            "taskctl_task_add",
            "taskctl_task_done",
            "taskctl_task_list",
            "taskctl_task_remove"
        ]
    );
    // A request with an unknown method gets -32601 with its id.
    server.send(&json!({"jsonrpc": "2.0", "id": "m", "method": "no/such/method"}));
    let response = server.response(&json!("m"));
    assert_eq!(error_code(&response), -32601);
    // A string id is echoed back as a string.
    server.send(&json!({"jsonrpc": "2.0", "id": "abc", "method": "tools/list"}));
    let response = server.response(&json!("abc"));
    assert!(response["result"]["tools"].is_array());
    server.assert_stdout_pure();
}

#[test]
fn garbage_line_gets_parse_error_with_null_id() {
    let mut server = Server::start();
    server.initialize();
    server.send_raw("this is not json");
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], Value::Null, "{response}");
    assert!(
        response.as_object().unwrap().contains_key("id"),
        "id member present"
    );

    // More kinds of broken lines, each answered, none fatal.
    for line in [
        "{",
        "}",
        "[1,2",
        "{\"jsonrpc\":\"2.0\",\"id\":",
        "\u{1}",
        "nul",
    ] {
        server.send_raw(line);
        let response = server.recv();
        assert_eq!(error_code(&response), -32700, "{line:?} → {response}");
    }

    // Blank lines are skipped without an answer: the next response is for id 2.
    server.send_raw("");
    server.send_raw("   \r");
    let tools = server.tools_list(2);
    assert_eq!(tools.len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn garbage_before_initialize_is_answered_and_not_fatal() {
    let mut server = Server::start();
    server.send_raw("not json at all");
    let response = server.recv();
    assert_eq!(error_code(&response), -32700);
    assert_eq!(response["id"], Value::Null);
    server.send_raw(r#"{"id":9,"foo":1}"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32600);
    assert_eq!(response["id"], 9);
    server.initialize();
    assert_eq!(server.tools_list(1).len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn truncated_request_gets_parse_error_with_its_id() {
    let mut server = Server::start();
    server.initialize();
    server.send_raw(r#"{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], 77, "{response}");

    server.send_raw(
        r#"{"jsonrpc":"2.0","id":"s-1","method":"tools/call","params":{"name":"taskctl_stats""#,
    );
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], "s-1", "{response}");

    assert_eq!(server.tools_list(3).len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn too_deep_request_gets_parse_error_with_its_id() {
    let mut server = Server::start();
    server.initialize();
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":88,"method":"tools/call","params":{{"name":"taskctl_task_add","arguments":{{"title":{}"x"{}}}}}}}"#,
        "[".repeat(300),
        "]".repeat(300)
    );
    server.send_raw(&deep);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], 88, "{response}");

    // Deep objects too, with a string id.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{{"name":"taskctl_task_add","arguments":{}1{}}}}}"#,
        r#"{"a":"#.repeat(300),
        "}".repeat(300)
    );
    server.send_raw(&deep);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], "deep", "{response}");

    assert_eq!(server.tools_list(4).len(), 6);
    assert!(!server.db.exists());
    server.assert_stdout_pure();
}

#[test]
fn json_that_is_not_jsonrpc_gets_invalid_request_with_its_id() {
    let mut server = Server::start();
    server.initialize();
    server.send_raw(r#"{"id":5,"foo":1}"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32600, "{response}");
    assert_eq!(response["id"], 5, "{response}");

    // Without a usable id the error still comes, with a null id.
    for line in [
        "[1,2,3]",
        "42",
        r#""text""#,
        r#"{"foo":1}"#,
        r#"{"id":{"x":1},"foo":1}"#,
    ] {
        server.send_raw(line);
        let response = server.recv();
        assert_eq!(error_code(&response), -32600, "{line} → {response}");
        assert_eq!(response["id"], Value::Null, "{line} → {response}");
    }

    // A wrong jsonrpc version, or params of the wrong shape, with an id.
    server.send_raw(r#"{"jsonrpc":"1.0","id":6,"method":"tools/list"}"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32600, "{response}");
    assert_eq!(response["id"], 6, "{response}");

    assert_eq!(server.tools_list(7).len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn verbose_output_goes_to_the_result_not_stdout() {
    let mut server = Server::start();
    server.initialize();
    let db = server.db.to_str().unwrap().to_owned();
    let result = server.request(
        10,
        "tools/call",
        json!({"name": "taskctl_task_add",
               "arguments": {"db": db, "title": "loud", "verbose": 3, "estimate": "2h"}}),
    );
    assert_eq!(result["isError"], false, "{result}");
    let structured = &result["structuredContent"];
    assert_eq!(structured["exitCode"], 0);
    assert_eq!(structured["stdout"], "added task #1: loud\n");
    assert_eq!(
        structured["stderr"],
        format!("using {db} (0 tasks)\n"),
        "{result}"
    );

    let result = server.request(
        11,
        "tools/call",
        json!({"name": "taskctl_task_list", "arguments": {"db": db, "verbose": 1}}),
    );
    let structured = &result["structuredContent"];
    assert_eq!(structured["stdout"], "#1 [todo] p3 loud ~2h\n");
    assert_eq!(structured["stderr"], format!("using {db} (1 tasks)\n"));

    // A failing command: its error on the result's stderr, not on stdout.
    let result = server.request(
        12,
        "tools/call",
        json!({"name": "taskctl_task_remove", "arguments": {"db": db, "id": 1, "verbose": 1}}),
    );
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["exitCode"], 1);
    assert!(result["structuredContent"]["stderr"]
        .as_str()
        .unwrap()
        .ends_with("error: task 1 is not done; pass --force to remove it anyway\n"));

    // Shut down and check every byte the server wrote to stdout.
    let status = server.close_and_wait(Duration::from_secs(5));
    assert!(status.is_some(), "server did not exit");
    server.drain();
    assert_eq!(
        server.seen.len(),
        4,
        "exactly one line per request: {:?}",
        server.seen
    );
    server.assert_stdout_pure();
    // The log went to stderr (debug level was requested).
    let log = server.log();
    assert!(log.contains("serving over stdio"), "log: {log}");
    assert!(!log.contains("\"jsonrpc\""), "protocol on stderr? {log}");
}

#[test]
fn closing_stdin_exits_with_status_0() {
    let mut server = Server::start();
    server.initialize();
    assert_eq!(server.tools_list(1).len(), 6);
    let start = Instant::now();
    let status = server
        .close_and_wait(Duration::from_secs(5))
        .expect("server still running 5 s after stdin closed");
    assert!(
        status.success(),
        "exit status {status:?}; log:\n{}",
        server.log()
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    server.drain();
    server.assert_stdout_pure();
}

#[test]
fn closing_stdin_before_initialize_exits_promptly() {
    let mut server = Server::start();
    let status = server
        .close_and_wait(Duration::from_secs(5))
        .expect("server still running 5 s after stdin closed");
    // Nothing was served; the exit code is the bridge's choice, but the
    // process must end and print nothing on stdout.
    server.drain();
    assert!(server.seen.is_empty(), "{:?}", server.seen);
    let _ = status;
}

#[test]
fn closing_stdin_during_a_partial_line_exits() {
    let mut server = Server::start();
    server.initialize();
    let stdin = server.stdin.as_mut().unwrap();
    stdin
        .write_all(br#"{"jsonrpc":"2.0","id":50,"method":"tools/li"#)
        .unwrap();
    stdin.flush().unwrap();
    let status = server
        .close_and_wait(Duration::from_secs(5))
        .expect("server still running 5 s after stdin closed");
    assert!(status.success(), "exit status {status:?}");
    server.drain();
    server.assert_stdout_pure();
}

#[test]
fn crlf_bom_and_long_lines() {
    let mut server = Server::start();
    // CRLF line endings and a UTF-8 byte order mark are tolerated.
    server.send_raw(
        "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\r",
    );
    let response = server.response(&json!(0));
    assert_eq!(response["result"]["protocolVersion"], "2025-06-18");
    server.send_raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r");
    server.send_raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\r");
    let response = server.response(&json!(1));
    assert_eq!(response["result"]["tools"].as_array().unwrap().len(), 6);

    // A line over the 16 MiB limit is refused with -32600, and the
    // connection survives it.
    let title = "x".repeat(17 * 1024 * 1024);
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "taskctl_task_add", "arguments": {"title": title}}}));
    let response = server.recv();
    assert_eq!(error_code(&response), -32600, "{}", response["error"]);
    assert_eq!(response["id"], Value::Null);
    assert_eq!(server.tools_list(3).len(), 6);
    assert!(!server._dir.path().join("tasks.json").exists());

    // A line just under the limit is served normally.
    let title = "y".repeat(1024 * 1024);
    let result = server.request(
        4,
        "tools/call",
        json!({"name": "taskctl_task_add", "arguments": {"db": server.db.to_str().unwrap(), "title": title}}),
    );
    assert_eq!(result["structuredContent"]["exitCode"], 0);
    server.assert_stdout_pure();
}

#[test]
fn unreadable_notifications_get_no_response() {
    let mut server = Server::start();
    server.initialize();
    // Notifications never get a response, even malformed or unknown ones.
    server.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"bad"}"#);
    server.send_raw(r#"{"jsonrpc":"2.0","method":"custom/thing","params":{"x":1}}"#);
    server.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#);
    // The next line on stdout is the answer to this request.
    assert_eq!(server.tools_list(1).len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn malformed_params_keep_the_request_id() {
    let mut server = Server::start();
    server.initialize();
    // params of the wrong JSON type: refused with the request's id.
    server.send_raw(r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"str"}"#);
    let response = server.response(&json!(6));
    assert!(response.get("error").is_some(), "{response}");
    // A truncated request whose id comes after nested members.
    server.send_raw(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"id":1}},"id":12,"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], 12, "{response}");
    // A nested "id" is not mistaken for the request's.
    server.send_raw(r#"{"jsonrpc":"2.0","params":{"id":99,"name":"x"},"method":"tools/call""#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], Value::Null, "{response}");
    assert_eq!(server.tools_list(13).len(), 6);
    server.assert_stdout_pure();
}

#[test]
fn tools_call_with_bad_params_is_invalid_params() {
    let mut server = Server::start();
    server.initialize();
    let cases = [
        (21, json!({"arguments": {}})),
        (22, json!({"name": 5})),
        (
            23,
            json!({"name": "taskctl_task_add", "arguments": "title"}),
        ),
        (24, json!({"name": "taskctl_task_add", "arguments": ["t"]})),
    ];
    for (id, params) in cases {
        server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
        let response = server.response(&json!(id));
        assert_eq!(error_code(&response), -32602, "{params} → {response}");
    }
    server.send_raw(r#"{"jsonrpc":"2.0","id":25,"method":"tools/call"}"#);
    let response = server.response(&json!(25));
    assert_eq!(error_code(&response), -32602, "{response}");
    server.assert_stdout_pure();
}

#[test]
fn truncated_request_with_fractional_id_is_not_misattributed() {
    let mut server = Server::start();
    server.initialize();
    server.send_raw(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"#);
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    // The valid-JSON path refuses non-integer ids (null); the truncated
    // path must not invent id 1 from "1.5".
    assert_eq!(response["id"], Value::Null, "{response}");
    server.send_raw(r#"{"jsonrpc":"2.0","id":1e3,"method":"tools/call","params":{"#);
    let response = server.recv();
    assert_ne!(response["id"], 1, "{response}");
}

#[test]
fn notification_before_initialize_is_not_fatal() {
    let mut server = Server::start();
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server.initialize();
    assert_eq!(server.tools_list(1).len(), 6);
}

#[test]
fn closing_stdin_before_initialize_exits_with_status_0() {
    let mut server = Server::start();
    let status = server
        .close_and_wait(Duration::from_secs(5))
        .expect("server still running 5 s after stdin closed");
    assert!(
        status.success(),
        "exit status {status:?}; log:\n{}",
        server.log()
    );
}
