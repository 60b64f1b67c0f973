//! The hostile corpus: malformed JSON-RPC, a wrong type, `null` and each
//! bound ± 1 for every property of the `awkward` example, NaN and
//! Infinity, huge strings and arrays, deep nesting, lone surrogates and
//! invalid UTF-8, unknown tools and properties, batches — each line sent to
//! `awkward mcp serve` over stdio, its exact answer kept in a snapshot
//! (`snapshots/hostile__stdio.snap`), and the same answer required over
//! Streamable HTTP. Then requests before `initialize`, duplicate ids in
//! flight and 1,000-request bursts; the server must answer all of it and
//! still serve the same `tools/list` at the end.

mod common;

use std::process::Command;
use std::time::Duration;

use common::http::{messages, open_session, post, spawn, Reply};
use common::raw::RawServer;
use serde_json::{json, Map, Value};

/// One hostile line.
struct Case {
    name: String,
    /// The line, without its newline.
    line: Vec<u8>,
    /// Whether it is answered (a notification is not).
    answered: bool,
    /// A notification that cannot be read: nothing answers it over stdio
    /// (it has no id), HTTP refuses it with `400` and an error without id.
    unreadable: bool,
}

fn case(name: impl Into<String>, line: impl Into<Vec<u8>>) -> Case {
    Case {
        name: name.into(),
        line: line.into(),
        answered: true,
        unreadable: false,
    }
}

fn call(id: usize, tool: &str, arguments: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
    .to_string()
    .into_bytes()
}

/// A value the schema accepts (for the required properties around the
/// one under test).
fn valid(schema: &Value) -> Value {
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    if let Some(first) = schema["enum"].get(0) {
        return first.clone();
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds[0].as_str().unwrap_or("string"),
        other => other.as_str().unwrap_or("string"),
    };
    match kind {
        "integer" => {
            let min = schema["minimum"].as_i64().unwrap_or(1);
            json!(min
                .max(1)
                .min(schema["maximum"].as_i64().unwrap_or(i64::MAX)))
        }
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => {
            let items = schema["minItems"].as_u64().unwrap_or(1).max(1) as usize;
            Value::Array(vec![valid(&schema["items"]); items])
        }
        _ => json!("x"),
    }
}

/// A value of another JSON type than the schema's.
fn wrong_type(schema: &Value) -> Value {
    let kinds: Vec<&str> = match &schema["type"] {
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        other => other.as_str().into_iter().collect(),
    };
    if kinds.contains(&"string") {
        json!({"not": "a string"})
    } else if kinds.contains(&"array") {
        json!("not an array")
    } else {
        json!("7")
    }
}

/// Every property of every tool once (the first tool having it), with a
/// call that is right but for that property.
fn property_cases(tools: &[Value], next_id: &mut usize) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for tool in tools {
        let name = tool["name"].as_str().expect("a tool name");
        let schema = &tool["inputSchema"];
        let properties = schema["properties"].as_object().expect("properties");
        let required: Vec<&str> = schema["required"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let base: Map<String, Value> = required
            .iter()
            .map(|p| (p.to_string(), valid(&properties[*p])))
            .collect();
        for (property, property_schema) in properties {
            if !seen.insert(property.clone()) {
                continue;
            }
            let mut bad_values = vec![
                ("wrong-type", wrong_type(property_schema)),
                ("null", Value::Null),
            ];
            let item = if property_schema["type"] == "array" {
                bad_values.push(("empty-list", json!([])));
                bad_values.push(("wrong-item", json!([wrong_type(&property_schema["items"])])));
                &property_schema["items"]
            } else {
                property_schema
            };
            let wrap = |v: Value| {
                if property_schema["type"] == "array" {
                    json!([v])
                } else {
                    v
                }
            };
            if let Some(min) = item["minimum"].as_i64() {
                bad_values.push(("below-minimum", wrap(below(min))));
            }
            if let Some(max) = item.get("maximum").filter(|m| m.is_number()) {
                bad_values.push(("above-maximum", wrap(above(max))));
            }
            if item.get("enum").is_some() {
                bad_values.push(("not-in-enum", wrap(json!("purple"))));
            }
            if item["minLength"].as_u64() == Some(1) {
                bad_values.push(("empty-string", wrap(json!(""))));
            }
            if item["type"] == "integer" {
                bad_values.push(("fraction", wrap(json!(1.5))));
                bad_values.push(("nan-text", wrap(json!("NaN"))));
                bad_values.push(("infinity-text", wrap(json!("Infinity"))));
            }
            for (what, value) in bad_values {
                let mut arguments = base.clone();
                arguments.insert(property.clone(), value);
                *next_id += 1;
                cases.push(case(
                    format!("{name}.{property}: {what}"),
                    call(*next_id, name, Value::Object(arguments)),
                ));
            }
        }
    }
    cases
}

fn below(min: i64) -> Value {
    match min.checked_sub(1) {
        Some(n) => json!(n),
        // -9223372036854775809: one past i64, as JSON text carries it.
        None => serde_json::from_str("-9223372036854775809").expect("a JSON number"),
    }
}

fn above(max: &Value) -> Value {
    if let Some(n) = max.as_i64().and_then(|n| n.checked_add(1)) {
        return json!(n);
    }
    if let Some(n) = max.as_u64().and_then(|n| n.checked_add(1)) {
        return json!(n);
    }
    // One past u64: a number serde_json keeps as a float.
    serde_json::from_str("18446744073709551616").expect("a JSON number")
}

/// The lines that are not about one property.
fn message_cases(next_id: &mut usize) -> Vec<Case> {
    let mut id = || {
        *next_id += 1;
        *next_id
    };
    let mut cases = vec![
        case("garbage", "not json at all"),
        case(
            "truncated",
            format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping""#, id()),
        ),
        case("empty object", "{}"),
        case("a bare number", "42"),
        case("a bare string", r#""tools/list""#),
        case("null", "null"),
        case(
            "a batch",
            format!(r#"[{{"jsonrpc":"2.0","id":{},"method":"ping"}}]"#, id()),
        ),
        case("an empty batch", "[]"),
        case(
            "no jsonrpc member",
            format!(r#"{{"id":{},"method":"ping"}}"#, id()),
        ),
        case(
            "jsonrpc 1.0",
            format!(r#"{{"jsonrpc":"1.0","id":{},"method":"ping"}}"#, id()),
        ),
        case(
            "method is a number",
            format!(r#"{{"jsonrpc":"2.0","id":{},"method":7}}"#, id()),
        ),
        case(
            "unknown method",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/destroy"}}"#,
                id()
            ),
        ),
        case(
            "id is an object",
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        ),
        case(
            "id is null",
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        ),
        case(
            "id is a fraction",
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        ),
        case(
            "id is a string",
            r#"{"jsonrpc":"2.0","id":"x-1","method":"ping"}"#,
        ),
        case(
            "tools/call without params",
            format!(r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call"}}"#, id()),
        ),
        case(
            "tools/call params null",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":null}}"#,
                id()
            ),
        ),
        case(
            "tools/call params a list",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":["awkward_say"]}}"#,
                id()
            ),
        ),
        case(
            "tools/call without a name",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"arguments":{{}}}}}}"#,
                id()
            ),
        ),
        case(
            "tools/call name null",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":null}}}}"#,
                id()
            ),
        ),
        case(
            "arguments a list",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":["hi"]}}}}"#,
                id()
            ),
        ),
        case(
            "arguments null",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":null}}}}"#,
                id()
            ),
        ),
        case(
            "arguments absent",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say"}}}}"#,
                id()
            ),
        ),
        case("unknown tool", call(id(), "awkward_format_disk", json!({}))),
        case(
            "unknown property, close to one",
            call(
                id(),
                "awkward_say",
                json!({"words": ["hi"], "separater": "-"}),
            ),
        ),
        case(
            "unknown property, a flag spelling",
            call(id(), "awkward_wrap", json!({"--width": 30})),
        ),
        case(
            "unknown property, far from any",
            call(id(), "awkward_say", json!({"words": ["hi"], "zzz": 1})),
        ),
        case(
            "NaN as a bare token",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_wrap","arguments":{{"width":NaN}}}}}}"#,
                id()
            ),
        ),
        case(
            "Infinity as a bare token",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_wrap","arguments":{{"width":Infinity}}}}}}"#,
                id()
            ),
        ),
        case(
            "1e400",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_wrap","arguments":{{"width":1e400}}}}}}"#,
                id()
            ),
        ),
        case(
            "a huge string where an enum value goes",
            call(
                id(),
                "awkward_say",
                json!({"words": ["hi"], "type": "p".repeat(1 << 20)}),
            ),
        ),
        case(
            "a huge list of integers over the bound",
            call(
                id(),
                "awkward_pick_fields",
                json!({"fields": vec![100; 100_000], "files": ["x"]}),
            ),
        ),
        case(
            "a huge separator (output over the cap)",
            call(
                id(),
                "awkward_say",
                json!({"words": ["a", "b"], "separator": "-".repeat(1 << 20)}),
            ),
        ),
        case("deep nesting", {
            let depth = 10_000;
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":{}{}}}}}}}"#,
                id(),
                "[".repeat(depth),
                "]".repeat(depth)
            )
        }),
        case(
            "nesting within the limit but the wrong shape",
            call(id(), "awkward_say", json!({"words": [[["deep"]]]})),
        ),
        case(
            "a lone surrogate",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":["\ud800"]}}}}}}"#,
                id()
            ),
        ),
        case(
            "a surrogate pair",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":["\ud83d\ude00"]}}}}}}"#,
                id()
            ),
        ),
        case("invalid UTF-8 in a string", {
            let mut line = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":[""#, id()).into_bytes();
            line.extend_from_slice(b"\xff\xfe");
            line.extend_from_slice(br#""]}}}"#);
            line
        }),
        case(
            "a NUL in a string",
            call(id(), "awkward_say", json!({"words": ["a\u{0}b"]})),
        ),
        case(
            "a duplicate key (the last one counts)",
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":[1],"words":["ok"]}}}}}}"#,
                id()
            ),
        ),
        case(
            "a valid call",
            call(id(), "awkward_say", json!({"words": ["still", "serving"]})),
        ),
        case("a 17 MB line", {
            let mut line = format!(r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"awkward_say","arguments":{{"words":[""#, id()).into_bytes();
            line.extend(std::iter::repeat_n(b'a', 17 * 1024 * 1024));
            line.extend_from_slice(br#""]}}}"#);
            line
        }),
    ];
    // A notification is never answered, readable or not.
    for (name, line, unreadable) in [
        (
            "an unknown notification",
            r#"{"jsonrpc":"2.0","method":"notifications/nonsense"}"#,
            false,
        ),
        (
            "a notification with broken params",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}"#,
            true,
        ),
        (
            "a cancellation of nothing",
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":987654}}"#,
            false,
        ),
    ] {
        cases.push(Case {
            name: name.into(),
            line: line.into(),
            answered: false,
            unreadable,
        });
    }
    cases
}

/// Long strings shortened to their length and ends, so the snapshot stays
/// readable and still pins what was answered.
fn shorten(value: &Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > 400 => {
            let head: String = s.chars().take(120).collect();
            let tail: String = {
                let mut t: Vec<char> = s.chars().rev().take(60).collect();
                t.reverse();
                t.into_iter().collect()
            };
            json!(format!("<{} chars: {head} … {tail}>", s.chars().count()))
        }
        Value::Array(items) => Value::Array(items.iter().map(shorten).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shorten(v))).collect())
        }
        other => other.clone(),
    }
}

fn awkward_stdio(dir: &std::path::Path) -> RawServer {
    let mut command = Command::new(common::awkward());
    command
        .args(["mcp", "serve"])
        .current_dir(dir)
        .env_remove("AWKWARD_TAB_WIDTH")
        .env("MCP_BRIDGE_LOG", "error");
    RawServer::spawn(command)
}

/// Sends every case and returns each one's answers (a sentinel `ping`
/// after each line shows nothing more came).
fn over_stdio(server: &mut RawServer, cases: &[Case]) -> Vec<Vec<Value>> {
    let mut all = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        server.send_bytes(&case.line);
        server.send_bytes(b"\n");
        let mut answers = Vec::new();
        if case.answered {
            answers.push(server.recv());
        }
        let sentinel = json!(format!("sentinel-{n}"));
        server.send(&json!({"jsonrpc": "2.0", "id": sentinel, "method": "ping"}));
        let next = server.recv();
        assert_eq!(
            next["id"],
            sentinel,
            "case `{}` was answered more than {} time(s): {next}",
            case.name,
            usize::from(case.answered)
        );
        all.push(answers);
    }
    all
}

fn tools(server: &mut RawServer) -> Vec<Value> {
    server.request(900_000, "tools/list", json!({}))["tools"]
        .as_array()
        .expect("tools")
        .clone()
}

fn corpus(tools: &[Value]) -> Vec<Case> {
    let mut next_id = 0;
    let mut cases = message_cases(&mut next_id);
    next_id = 10_000;
    cases.extend(property_cases(tools, &mut next_id));
    cases
}

#[test]
fn every_hostile_line_gets_its_exact_answer_over_stdio_and_http() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut server = awkward_stdio(dir.path());
    server.initialize();
    let tools_before = tools(&mut server);
    let cases = corpus(&tools_before);
    assert!(cases.len() > 100, "{} cases", cases.len());
    let answers = over_stdio(&mut server, &cases);
    assert_eq!(tools(&mut server), tools_before, "tools/list changed");
    server.assert_stdout_pure();
    let log = server.finish();
    assert!(!log.contains("panicked"), "{log}");

    let snapshot: Vec<Value> = cases
        .iter()
        .zip(&answers)
        .map(|(case, answers)| {
            json!({
                "case": case.name,
                "answers": answers.iter().map(shorten).collect::<Vec<_>>(),
            })
        })
        .collect();
    insta::assert_json_snapshot!("stdio", snapshot);

    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(over_http(dir.path(), &cases, &answers));
}

/// POSTs `body` in `session`, or, without one, as a stateless request of
/// protocol 2025-06-18.
async fn post_in(url: &str, session: Option<&str>, body: &[u8]) -> Reply {
    match session {
        Some(session) => post(url, &[("Mcp-Session-Id", session)], body).await,
        None => post(url, &[("MCP-Protocol-Version", "2025-06-18")], body).await,
    }
}

async fn over_http(dir: &std::path::Path, cases: &[Case], stdio: &[Vec<Value>]) {
    let mut command = tokio::process::Command::new(common::awkward());
    command
        .args(["mcp", "serve", "--http", "127.0.0.1:0"])
        .current_dir(dir)
        .env_remove("AWKWARD_TAB_WIDTH")
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (mut child, url) = spawn(command).await;
    // Before a session: a request other than `initialize` is refused by
    // rmcp's session layer, as the specification says.
    let early = post_in(
        &url,
        None,
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    )
    .await;
    assert_eq!(
        (early.status, early.body.as_str()),
        (400, "Bad Request: Session ID is required"),
        "{early:?}"
    );
    let session = open_session(&url, &[]).await;

    for (case, stdio) in cases.iter().zip(stdio) {
        let reply = post_in(&url, Some(&session), &case.line).await;
        let answers = messages(&reply);
        if case.line.len() > 4 * 1024 * 1024 {
            // Over the body cap: refused before it is read.
            assert_eq!(reply.status, 413, "{}: {reply:?}", case.name);
            continue;
        }
        if case.unreadable {
            assert_eq!(reply.status, 400, "{}: {reply:?}", case.name);
            assert_eq!(
                answers,
                [
                    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
                    "message": "Invalid Request: a notification that cannot be read"}})
                ],
                "{}",
                case.name
            );
            continue;
        }
        let expected_status = match (case.answered, stdio.first()) {
            (false, _) => 202,
            (true, Some(answer)) if is_framing_error(answer) => 400,
            (true, _) => 200,
        };
        assert_eq!(reply.status, expected_status, "{}: {reply:?}", case.name);
        assert_eq!(&answers, stdio, "{}: over HTTP", case.name);
    }
    let _ = child.start_kill();
}

/// An error the framing answers (the line is not a readable message).
fn is_framing_error(answer: &Value) -> bool {
    let message = answer["error"]["message"].as_str().unwrap_or("");
    matches!(
        answer["error"]["code"].as_i64(),
        Some(-32700 | -32600 | -32602)
    ) && (message.starts_with("Parse error")
        || message.starts_with("Invalid Request")
        || message.starts_with("Invalid params: the params of"))
}

#[test]
fn requests_before_initialize_are_answered_and_the_session_still_begins() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut server = awkward_stdio(dir.path());
    server.send_raw(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
    let early = server.response(&json!(1));
    assert_eq!(early["error"]["code"], -32600, "{early}");
    assert!(
        early["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("send initialize first")),
        "{early}"
    );
    server.send_raw(&String::from_utf8(call(2, "awkward_say", json!({"words": ["x"]}))).unwrap());
    assert_eq!(server.response(&json!(2))["error"]["code"], -32600);
    server.send_raw(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    assert_eq!(server.response(&json!(3))["result"], json!({}));
    // Notifications and responses before the session: dropped, not fatal.
    server.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    server.send_raw(r#"{"jsonrpc":"2.0","id":77,"result":{}}"#);
    server.send_raw("garbage");
    assert_eq!(server.recv()["error"]["code"], -32700);
    server.initialize();
    assert_eq!(server.tools_list(4).len(), 8);
    server.finish();
}

#[test]
fn a_duplicate_id_in_flight_gets_its_own_refusal() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fixture_cli"));
    command
        .args(["ai", "serve"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("MCP_BRIDGE_LOG", "error");
    let mut server = RawServer::spawn(command);
    server.initialize();
    server.send_raw(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fixture_sleep","arguments":{"ms":400}}}"#);
    server.send_raw(r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#);
    let refusal = server.response(&json!(5));
    assert_eq!(
        refusal["error"],
        json!({"code": -32600, "message": "Invalid Request: id 5 is already used by a request in flight"})
    );
    let slept = server.response(&json!(5));
    assert_eq!(slept["result"]["isError"], false, "{slept}");
    // Answered, the id is free again.
    server.send_raw(r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#);
    assert_eq!(server.response(&json!(5))["result"], json!({}));
    server.finish();
}

#[test]
fn a_burst_of_a_thousand_requests_gets_a_thousand_answers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut server = awkward_stdio(dir.path());
    server.initialize();
    let mut burst = Vec::new();
    for id in 1..=1000usize {
        let line = match id % 5 {
            0 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).into_bytes(),
            1 => call(id, "awkward_say", json!({"words": [id.to_string()]})),
            2 => call(id, "awkward_wrap", json!({"width": 1})),
            3 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":"#)
                .into_bytes(),
            _ => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#).into_bytes(),
        };
        burst.extend_from_slice(&line);
        burst.push(b'\n');
    }
    // All at once: the server reads while it answers.
    server.note_sent(&burst);
    let mut stdin = server.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&burst).expect("write the burst");
        stdin
    });
    let mut seen = vec![0u8; 1001];
    for _ in 0..1000 {
        let answer = server.recv();
        let id = answer["id"].as_u64().expect("every answer has its id") as usize;
        seen[id] += 1;
        let expect_error = matches!(id % 5, 3);
        assert_eq!(answer.get("error").is_some(), expect_error, "{answer}");
        match id % 5 {
            1 => assert_eq!(answer["result"]["content"][0]["text"], format!("{id}\n")),
            2 => assert_eq!(answer["result"]["isError"], true, "{answer}"),
            _ => {}
        }
    }
    assert!(seen[1..].iter().all(|n| *n == 1), "each id answered once");
    server.stdin = Some(writer.join().expect("the writer"));
    // Still serving, and 1,000 lines of garbage get 1,000 parse errors.
    let garbage = "{not json\n".repeat(1000);
    server.send_bytes(garbage.as_bytes());
    for _ in 0..1000 {
        assert_eq!(server.recv()["error"]["code"], -32700);
    }
    assert_eq!(server.tools_list(5000).len(), 8);
    server.finish();
}

#[tokio::test]
async fn a_burst_of_a_thousand_requests_over_http_gets_a_thousand_answers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut command = tokio::process::Command::new(common::awkward());
    command
        .args(["mcp", "serve", "--http", "127.0.0.1:0", "--stateless"])
        .current_dir(dir.path())
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (mut child, url) = spawn(command).await;
    let url = std::sync::Arc::new(url);
    let mut calls = tokio::task::JoinSet::new();
    for id in 1..=1000usize {
        let url = std::sync::Arc::clone(&url);
        calls.spawn(async move {
            let body = match id % 3 {
                0 => call(id, "awkward_say", json!({"words": [id.to_string()]})),
                1 => call(id, "awkward_wrap", json!({"width": 1})),
                _ => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":"#)
                    .into_bytes(),
            };
            let reply = tokio::time::timeout(Duration::from_secs(60), post_in(&url, None, &body))
                .await
                .expect("an answer in time");
            (id, reply)
        });
    }
    let mut seen = vec![0u8; 1001];
    while let Some(done) = calls.join_next().await {
        let (id, reply) = done.expect("a request task");
        let messages = messages(&reply);
        assert_eq!(messages.len(), 1, "{id}: {reply:?}");
        assert_eq!(messages[0]["id"], id, "{reply:?}");
        seen[id] += 1;
        match id % 3 {
            0 => assert_eq!(
                messages[0]["result"]["content"][0]["text"],
                format!("{id}\n")
            ),
            1 => assert_eq!(messages[0]["result"]["isError"], true),
            _ => assert_eq!(reply.status, 400, "{reply:?}"),
        }
    }
    assert!(seen[1..].iter().all(|n| *n == 1));
    let _ = child.start_kill();
}

/// A CLI whose own parser panics on some input (here: an overflow, as a
/// hand-written `value_parser` function can).
mod panicking {
    use clap::Parser;
    use mcp_bridge::McpTool;

    fn parse_minutes(text: &str) -> Result<u64, String> {
        let minutes: u64 = text.parse().map_err(|e| format!("{e}"))?;
        if minutes > 1_000_000 {
            panic!("minutes overflow: {minutes}");
        }
        Ok(minutes * 60)
    }

    /// Waits.
    #[derive(Parser, McpTool, Debug)]
    #[command(name = "wait")]
    pub struct Wait {
        /// How long, in minutes
        #[arg(long, value_parser = parse_minutes)]
        pub minutes: u64,
        /// More lengths
        #[arg(long, value_parser = parse_minutes)]
        pub more: Vec<u64>,
    }
}

#[test]
fn a_panic_in_the_clis_own_parser_is_a_refusal_naming_the_property() {
    use mcp_bridge::{BridgeServer, CallError, Io, Problem, Registry};
    let registry = Registry::<panicking::Wait>::new().expect("one tool");
    let args = json!({"minutes": "5000000"});
    let Err(CallError::InvalidArguments(error)) =
        registry.build("wait", args.as_object().expect("an object"))
    else {
        panic!("a panicking parser must refuse the value");
    };
    assert_eq!(error.property.as_deref(), Some("minutes"));
    let Problem::Invalid { reason, .. } = &error.problem else {
        panic!("{error}");
    };
    assert_eq!(
        reason.as_deref(),
        Some("the CLI's parser panicked: minutes overflow: 5000000")
    );
    // An item of a list, through the server: an answer, and the server
    // still serves.
    let server = BridgeServer::new(|wait: panicking::Wait, io: &mut Io| {
        writeln!(io.out(), "{}", wait.minutes)
    })
    .expect("a server");
    let outcome = server
        .call(
            "wait",
            json!({"minutes": "1", "more": ["2", "9999999"]})
                .as_object()
                .unwrap()
                .clone(),
        )
        .expect("a call of a known tool");
    assert_eq!(outcome.exit_code, 2, "{outcome:?}");
    assert!(
        outcome.stderr.contains("property `more[1]`")
            && outcome
                .stderr
                .contains("panicked: minutes overflow: 9999999"),
        "{}",
        outcome.stderr
    );
    let outcome = server
        .call("wait", json!({"minutes": "2"}).as_object().unwrap().clone())
        .expect("a call");
    assert_eq!(outcome.stdout, "120\n");
}

#[tokio::test]
async fn a_duplicate_id_in_flight_over_http_gets_its_own_refusal() {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_fixture_cli"));
    command
        .args(["ai", "serve", "--http", "127.0.0.1:0"])
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (mut child, url) = spawn(command).await;
    let session = open_session(&url, &[]).await;
    let shout: &[u8] = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fixture_shout","arguments":{"text":"hi"}}}"#;
    let slow = {
        let (url, session) = (url.clone(), session.clone());
        tokio::spawn(async move {
            post_in(
                &url,
                Some(&session),
                br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fixture_sleep","arguments":{"ms":600}}}"#,
            )
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let second = post_in(&url, Some(&session), shout).await;
    assert_eq!(second.status, 400, "{second:?}");
    assert_eq!(
        messages(&second),
        [json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32600,
            "message": "Invalid Request: id 5 is already used by a request in flight"}})]
    );
    let slow = messages(&slow.await.expect("the slow call"));
    assert_eq!(slow.len(), 1, "{slow:?}");
    assert_eq!(slow[0]["id"], 5);
    assert_eq!(
        slow[0]["result"]["content"][0]["text"], "slept\n",
        "{slow:?}"
    );
    // Answered, the id is free again.
    let again = post_in(&url, Some(&session), shout).await;
    assert_eq!(again.status, 200, "{again:?}");
    assert_eq!(messages(&again)[0]["id"], 5);
    let _ = child.start_kill();
}
