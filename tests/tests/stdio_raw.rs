//! `taskctl mcp serve` over raw pipes: hand-written JSON-RPC lines, every
//! read bounded by a timeout. Covers the framing rmcp's client never
//! exercises: garbage, truncated and too-deep lines, non-JSON-RPC JSON,
//! stdout purity and shutdown on end of input.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::raw::RawServer;
use serde_json::{json, Value};

/// `taskctl mcp serve` in a temporary directory, with the task file the
/// tests use there.
struct Server {
    raw: RawServer,
    db: PathBuf,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut command = Command::new(common::taskctl());
        command
            .args(["mcp", "serve"])
            .current_dir(dir.path())
            .env("MCP_BRIDGE_LOG", "debug");
        Server {
            raw: RawServer::spawn(command),
            db: dir.path().join("raw.json"),
            _dir: dir,
        }
    }
}

impl std::ops::Deref for Server {
    type Target = RawServer;
    fn deref(&self) -> &RawServer {
        &self.raw
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut RawServer {
        &mut self.raw
    }
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
    let (stdout, stderr, code) = common::outcome(&result);
    assert_eq!(code, 0);
    assert_eq!(stdout, "added task #1: loud\n");
    assert_eq!(stderr, format!("using {db} (0 tasks)\n"), "{result}");

    let result = server.request(
        11,
        "tools/call",
        json!({"name": "taskctl_task_list", "arguments": {"db": db, "verbose": 1}}),
    );
    let (stdout, stderr, _) = common::outcome(&result);
    assert_eq!(stdout, "#1 [todo] p3 loud ~2h\n");
    assert_eq!(stderr, format!("using {db} (1 tasks)\n"));

    // A failing command: its error on the result's stderr, not on stdout.
    let result = server.request(
        12,
        "tools/call",
        json!({"name": "taskctl_task_remove", "arguments": {"db": db, "id": 1, "verbose": 1}}),
    );
    let (_, stderr, code) = common::outcome(&result);
    assert_eq!(code, 1);
    assert!(
        stderr.ends_with("call again with `force: true`\n"),
        "{stderr}"
    );

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
    server.send_bytes(br#"{"jsonrpc":"2.0","id":50,"method":"tools/li"#);
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

    // A line over the 16 MiB limit is refused with -32600, with the id
    // its start carries, and the connection survives it.
    let title = "x".repeat(17 * 1024 * 1024);
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "taskctl_task_add", "arguments": {"title": title}}}));
    let response = server.recv();
    assert_eq!(error_code(&response), -32600, "{}", response["error"]);
    assert_eq!(response["id"], 2);
    // With the id past the limit, the answer has none to give.
    // (Written out: a `json!` object's keys may be sorted, the id first.)
    server.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"taskctl_task_add","arguments":{{"title":"{title}"}}}},"id":5}}"#
    ));
    let response = server.recv();
    assert_eq!(error_code(&response), -32600, "{}", response["error"]);
    assert_eq!(response["id"], Value::Null);
    assert_eq!(server.tools_list(3).len(), 6);
    assert!(!server._dir.path().join("tasks.json").exists());

    // A line just under the limit is served normally.
    let title = "y".repeat(1024 * 1024);
    let db = server.db.to_str().unwrap().to_owned();
    let result = server.request(
        4,
        "tools/call",
        json!({"name": "taskctl_task_add", "arguments": {"db": db, "title": title}}),
    );
    assert_eq!(common::outcome(&result).2, 0);
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
    // Bytes that are not UTF-8 do not hide the id.
    server.send_bytes(
        b"{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}\n",
    );
    let response = server.recv();
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(response["id"], 14, "{response}");
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

#[test]
fn fifty_pipelined_adds_store_fifty_tasks() {
    let mut server = Server::start();
    server.initialize();
    let db = server.db.to_str().unwrap().to_owned();
    for id in 0..50 {
        server.send(&json!({
            "jsonrpc": "2.0", "id": 100 + id, "method": "tools/call",
            "params": {"name": "taskctl_task_add",
                       "arguments": {"db": db, "title": format!("task {id}")}}
        }));
    }
    let mut answered = Vec::new();
    for _ in 0..50 {
        let message = server.recv();
        let (stdout, _, code) = common::outcome(&message["result"]);
        assert_eq!(code, 0, "{message}");
        assert!(stdout.starts_with("added task #"), "{message}");
        answered.push(message["id"].as_i64().unwrap());
    }
    answered.sort_unstable();
    assert_eq!(answered, (100..150).collect::<Vec<_>>());
    let file: Value = serde_json::from_slice(&std::fs::read(&server.db).unwrap()).unwrap();
    let mut ids: Vec<u64> = file["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=50).collect::<Vec<_>>(), "every add stored once");
    let Server { raw, _dir, .. } = server;
    raw.finish();
}

#[test]
fn the_task_file_is_always_whole_for_readers_and_after_a_kill() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;

    // A reader polls the file while calls rewrite it, then the server is
    // killed (SIGKILL: no grace) in the middle of the rest: with a write
    // in place, the reader or the kill would find it cut.
    for round in 0..3u64 {
        let mut server = Server::start();
        server.initialize();
        let db = server.db.clone();
        let done = Arc::new(AtomicBool::new(false));
        let (cut, reads) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let reader = {
            let (db, done, cut, reads) = (db.clone(), done.clone(), cut.clone(), reads.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::SeqCst) {
                    if let Ok(bytes) = std::fs::read(&db) {
                        reads.fetch_add(1, Ordering::SeqCst);
                        if serde_json::from_slice::<Value>(&bytes).is_err() {
                            cut.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                }
            })
        };
        let title = "x".repeat(20_000);
        for id in 0..40 {
            server.send(&json!({
                "jsonrpc": "2.0", "id": 100 + id, "method": "tools/call",
                "params": {"name": "taskctl_task_add",
                           "arguments": {"db": db.to_str().unwrap(), "title": title}}
            }));
        }
        for _ in 0..(20 + round * 5) {
            server.recv();
        }
        server.child.kill().expect("kill the server");
        let _ = server.child.wait();
        done.store(true, Ordering::SeqCst);
        reader.join().unwrap();
        assert!(reads.load(Ordering::SeqCst) > 0, "the reader read the file");
        assert_eq!(
            cut.load(Ordering::SeqCst),
            0,
            "round {round}: a reader saw a cut file"
        );
        let bytes = std::fs::read(&db).expect("the task file exists");
        let file: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("round {round}: the task file is cut ({e})"));
        let stored = file["tasks"].as_array().unwrap().len() as u64;
        assert!(stored >= 20 + round * 5, "round {round}: {stored} tasks");
    }
}

/// A call's answer is written by the thread that ran its handler, while
/// rmcp still holds the request: the client may send a request with the
/// same id as soon as it has the answer (JSON-RPC only asks ids to be
/// unique among requests in flight), also after cancelling a request it
/// already had the answer to (a cancellation that stops nothing then),
/// and each gets its own answer, once.
#[test]
fn an_answered_id_can_be_used_again_at_once() {
    let mut server = Server::start();
    server.initialize();
    let db = server.db.to_str().unwrap().to_owned();
    for round in 0..100 {
        let title = format!("task {round}");
        let result = server.call(1, "taskctl_task_add", json!({"db": db, "title": title}));
        let (stdout, _, code) = common::outcome(&result);
        assert_eq!(code, 0, "{result}");
        assert_eq!(stdout, format!("added task #{}: {title}\n", round + 1));
        let result = server.call(1, "taskctl_task_list", json!({"db": db}));
        let (stdout, _, code) = common::outcome(&result);
        assert_eq!(code, 0, "{result}");
        assert_eq!(stdout.lines().count(), round + 1, "{result}");
    }
    // A cancellation that comes after the answer is too late: ignored,
    // it stops neither the request nor the next one with that id.
    for _ in 0..30 {
        server.call(7, "taskctl_task_list", json!({"db": db}));
        server.send(&json!({
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 7, "reason": "too late"}
        }));
        let result = server.call(7, "taskctl_task_list", json!({"db": db}));
        assert_eq!(common::outcome(&result).0.lines().count(), 100, "{result}");
    }
    // One answer per request, nothing else on stdout.
    let log = server.raw.finish();
    assert!(!log.contains("cannot write"), "{log}");
}

#[test]
fn skills_are_listed_got_and_read_as_resources() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_conformance_cli"));
    command.args(["mcp", "serve"]);
    let mut server = RawServer::spawn(command);
    let init = server.initialize();
    assert_eq!(
        init["capabilities"]["extensions"]["io.modelcontextprotocol/skills"],
        json!({"directoryRead": true}),
        "{init}"
    );
    let listed = server.request(2, "skills/list", json!({}));
    let uris: Vec<&str> = listed["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skill| skill["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://conformance-tools/SKILL.md",
            "skill://conformance/SKILL.md"
        ]
    );
    let written = &listed["skills"][0];
    assert_eq!(
        written["frontmatter"],
        json!({
            "name": "conformance-tools",
            "description": "Call the conformance tools by name; each one shows one feature of the protocol.",
            "license": "MIT",
            "metadata": {"audience": "testers"},
        })
    );
    assert_eq!(written["resources"].as_array().unwrap().len(), 2);
    let got = server.request(
        3,
        "skills/get",
        json!({"uri": "skill://conformance/SKILL.md"}),
    );
    assert_eq!(got["skill"], listed["skills"][1]);
    // The generated one is made from the CLI's help.
    let read = server.request(
        4,
        "resources/read",
        json!({"uri": "skill://conformance/SKILL.md"}),
    );
    let text = read["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("---\nname: \"conformance\"\n"), "{text}");
    assert!(
        text.contains("## Tools\n\n- `test_simple_text`: conformance simple-text: Return a fixed text\n- `test_error_handling`"),
        "{text}"
    );
    let read = server.request(
        5,
        "resources/read",
        json!({"uri": "skill://conformance-tools/references/tools.md"}),
    );
    assert_eq!(read["contents"][0]["mimeType"], "text/markdown");
    // An unknown skill is invalid params, naming the ones there are.
    let unknown = server.exchange(6, "skills/get", json!({"uri": "skill://nope/SKILL.md"}));
    assert_eq!(error_code(&unknown), -32602);
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("skill://conformance-tools/SKILL.md"),
        "{message}"
    );
    let folder = server.request(
        7,
        "resources/directory/read",
        json!({"uri": "skill://conformance-tools"}),
    );
    assert_eq!(folder["resources"][1]["mimeType"], "inode/directory");
    let resources = server.request(8, "resources/list", json!({}));
    let skill_md = resources["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == "skill://conformance-tools/SKILL.md")
        .expect("the SKILL.md is listed");
    assert_eq!(skill_md["name"], "conformance-tools");
    server.assert_stdout_pure();
    server.finish();
}

#[test]
fn a_skill_that_cannot_be_served_stops_the_start_saying_why() {
    let output = Command::new(env!("CARGO_BIN_EXE_conformance_cli"))
        .args(["mcp", "serve"])
        .env("CONFORMANCE_BAD_SKILL", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("skill: a SKILL.md begins with its frontmatter"),
        "{said}"
    );
}
