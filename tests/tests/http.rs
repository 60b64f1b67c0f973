//! `mcp serve --http`: what stands in front of MCP, checked with plain
//! HTTP requests — `Host` and `Origin` (403), the bearer token (401), the
//! body cap (413), the session cap (503), refusing to listen beyond
//! loopback without auth — and sessions (DELETE, idle expiry), the
//! stateless mode, and a graceful end on SIGTERM. (The MCP suite itself
//! runs over HTTP in `rmcp_client.rs`.)

mod common;

use std::path::Path;
use std::time::Duration;

use common::http::{messages, open_session, post, request, spawn, ACCEPT, INITIALIZE, JSON};
use serde_json::json;

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_cli");

/// Every test gives up after this long instead of hanging.
const TEST_TIMEOUT: Duration = Duration::from_secs(60);

fn taskctl(cwd: &Path, args: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(common::taskctl());
    cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
        .args(args)
        .current_dir(cwd)
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=debug");
    cmd
}

async fn timed<F: std::future::Future<Output = ()>>(f: F) {
    // Built once per test process, before the clock starts.
    common::taskctl();
    tokio::time::timeout(TEST_TIMEOUT, f)
        .await
        .expect("test timed out");
}

#[tokio::test]
async fn a_foreign_host_or_origin_is_refused_with_403() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let (_server, url) = spawn(taskctl(dir.path(), &[])).await;
        // DNS rebinding: a page of evil.example resolving to 127.0.0.1.
        let rebound = post(&url, &[("Host", "evil.example")], INITIALIZE).await;
        assert_eq!(rebound.status, 403, "{rebound:?}");
        let foreign = post(&url, &[("Origin", "https://evil.example")], INITIALIZE).await;
        assert_eq!(foreign.status, 403, "{foreign:?}");
        // A page served from loopback, and a client that is no browser.
        let local = post(&url, &[("Origin", "http://localhost:6274")], INITIALIZE).await;
        assert_eq!(local.status, 200, "{local:?}");
        let plain = post(&url, &[], INITIALIZE).await;
        assert_eq!(plain.status, 200, "{plain:?}");
        assert_eq!(
            messages(&plain)[0]["result"]["serverInfo"]["name"],
            "taskctl"
        );
    })
    .await;
}

#[tokio::test]
async fn an_allowed_origin_passes() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let (_server, url) = spawn(taskctl(
            dir.path(),
            &["--allow-origin", "https://app.example:443"],
        ))
        .await;
        let allowed = post(&url, &[("Origin", "https://app.example")], INITIALIZE).await;
        assert_eq!(allowed.status, 200, "{allowed:?}");
        let other = post(&url, &[("Origin", "https://other.example")], INITIALIZE).await;
        assert_eq!(other.status, 403, "{other:?}");
    })
    .await;
}

#[tokio::test]
async fn a_token_is_required_when_set_and_compared_exactly() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = taskctl(dir.path(), &["--token-env", "TEST_MCP_TOKEN"]);
        cmd.env("TEST_MCP_TOKEN", "s3cret-token");
        let (_server, url) = spawn(cmd).await;
        let missing = post(&url, &[], INITIALIZE).await;
        assert_eq!(missing.status, 401, "{missing:?}");
        assert_eq!(
            missing.header("www-authenticate"),
            Some(r#"Bearer realm="mcp""#)
        );
        // Refused before its body was read: the connection is not reused,
        // and a keep-alive request is told so.
        let head = keep_alive_response_head(&url, INITIALIZE).await;
        assert!(head.starts_with("HTTP/1.1 401"), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("\r\nconnection: close\r\n"),
            "{head}"
        );
        for wrong in [
            "Bearer s3cret-toke",
            "Bearer s3cret-token2",
            "Basic s3cret-token",
            "s3cret-token",
        ] {
            let reply = post(&url, &[("Authorization", wrong)], INITIALIZE).await;
            assert_eq!(reply.status, 401, "{wrong}: {reply:?}");
        }
        let wrong = post(&url, &[("Authorization", "Bearer nope")], INITIALIZE).await;
        assert_eq!(
            wrong.header("www-authenticate"),
            Some(r#"Bearer realm="mcp", error="invalid_token""#)
        );
        let right = post(
            &url,
            &[("Authorization", "Bearer s3cret-token")],
            INITIALIZE,
        )
        .await;
        assert_eq!(right.status, 200, "{right:?}");
        // The token guards every method, DELETE and GET included.
        let delete = request("DELETE", &url, &[("Mcp-Session-Id", "x")], b"")
            .await
            .unwrap();
        assert_eq!(delete.status, 401, "{delete:?}");
    })
    .await;
}

#[tokio::test]
async fn a_token_file_works_and_a_missing_variable_stops_the_start() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "from-a-file\n").unwrap();
        let (_server, url) = spawn(taskctl(
            dir.path(),
            &["--token-file", file.to_str().unwrap()],
        ))
        .await;
        let right = post(&url, &[("Authorization", "Bearer from-a-file")], INITIALIZE).await;
        assert_eq!(right.status, 200, "{right:?}");

        let output = taskctl(dir.path(), &["--token-env", "TEST_MCP_UNSET_VAR"])
            .env_remove("TEST_MCP_UNSET_VAR")
            .output()
            .await
            .unwrap();
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("TEST_MCP_UNSET_VAR is not set"), "{stderr}");
    })
    .await;
}

#[tokio::test]
async fn listening_beyond_loopback_without_auth_is_refused() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = tokio::process::Command::new(common::taskctl());
        // Refused before anything is bound.
        cmd.args(["mcp", "serve", "--http", "0.0.0.0:0"])
            .current_dir(dir.path());
        let output = cmd.output().await.unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("refusing to listen on 0.0.0.0:0 without authentication"),
            "{stderr}"
        );
        assert!(stderr.contains("--allow-unauthenticated"), "{stderr}");
    })
    .await;
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let (_server, url) = spawn(taskctl(dir.path(), &["--max-body", "1024"])).await;
        let title = "x".repeat(2000);
        let big = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": title, "version": "0"}}});
        let reply = post(&url, &[], &big.to_string()).await;
        assert_eq!(reply.status, 413, "{reply:?}");
        // Still serving.
        assert_eq!(post(&url, &[], INITIALIZE).await.status, 200);
    })
    .await;
}

#[tokio::test]
async fn sessions_are_capped_ended_by_delete_and_expire_when_idle() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let (_server, url) = spawn(taskctl(
            dir.path(),
            &["--max-sessions", "1", "--session-idle", "2"],
        ))
        .await;
        let first = open_session(&url, &[]).await;
        let refused = post(&url, &[], INITIALIZE).await;
        assert_eq!(refused.status, 503, "{refused:?}");
        assert_eq!(refused.header("retry-after"), Some("5"));
        assert!(refused.body.contains("too many sessions"), "{refused:?}");

        // The session serves calls, then DELETE ends it.
        let list = post(
            &url,
            &[("Mcp-Session-Id", &first)],
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        )
        .await;
        assert_eq!(list.status, 200, "{list:?}");
        assert_eq!(
            messages(&list)[0]["result"]["tools"]
                .as_array()
                .unwrap()
                .len(),
            6
        );
        let deleted = request("DELETE", &url, &[("Mcp-Session-Id", &first)], b"")
            .await
            .unwrap();
        assert!(deleted.status < 300, "{deleted:?}");
        let gone = post(
            &url,
            &[("Mcp-Session-Id", &first)],
            r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
        )
        .await;
        assert_eq!(gone.status, 404, "{gone:?}");

        // A place is free again; left idle, the session expires.
        let second = open_session(&url, &[]).await;
        let mut expired = false;
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            if post(&url, &[], INITIALIZE).await.status == 200 {
                expired = true;
                break;
            }
        }
        assert!(expired, "the idle session {second} never expired");
    })
    .await;
}

#[tokio::test]
async fn stateless_mode_opens_no_session_and_answers_every_post() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let (_server, url) = spawn(taskctl(dir.path(), &["--stateless"])).await;
        let reply = post(&url, &[], INITIALIZE).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.header("mcp-session-id"), None, "{reply:?}");
        let db = dir.path().join("t.json");
        let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "taskctl_task_add", "arguments": {"db": db, "title": "stateless"}}});
        let reply = post(&url, &[("MCP-Protocol-Version", "2025-06-18")], &call.to_string()).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let answer = &messages(&reply)[0];
        assert_eq!(answer["id"], 7);
        assert_eq!(
            answer["result"]["content"][0]["text"],
            "added task #1: stateless\n"
        );
    })
    .await;
}

#[tokio::test]
async fn sigterm_lets_a_running_call_answer_then_the_server_ends() {
    timed(async {
        let mut cmd = tokio::process::Command::new(FIXTURE);
        // The fixture has an `mcp` command of its own.
        cmd.args(["bridge", "serve", "--http", "127.0.0.1:0"])
            .env("FIXTURE_BRIDGE_NAME", "bridge")
            .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
        let (mut server, url) = spawn(cmd).await;
        let session = open_session(&url, &[]).await;
        let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "fixture_sleep", "arguments": {"ms": 1500}}});
        let headers = [ACCEPT, JSON, ("Mcp-Session-Id", session.as_str())];
        let body = call.to_string();
        let pending = tokio::spawn({
            let url = url.clone();
            let headers: Vec<(String, String)> = headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            async move {
                let headers: Vec<(&str, &str)> =
                    headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
                request("POST", &url, &headers, body.as_bytes()).await
            }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        let pid = server.id().expect("running") as i32;
        rustix::process::kill_process(
            rustix::process::Pid::from_raw(pid).unwrap(),
            rustix::process::Signal::TERM,
        )
        .unwrap();
        let reply = pending.await.unwrap().expect("the call is answered");
        assert_eq!(reply.status, 200, "{reply:?}");
        let answer = messages(&reply)
            .into_iter()
            .find(|m| m["id"] == 2)
            .expect("the answer");
        assert_eq!(answer["result"]["content"][0]["text"], "slept\n", "{answer}");
        let status = tokio::time::timeout(Duration::from_secs(20), server.wait())
            .await
            .expect("the server ends")
            .unwrap();
        assert!(status.success(), "{status:?}");
    })
    .await;
}

/// Protocol 2026-07-28 without sessions: a request names its own log level
/// in `_meta` (and gets the call's logs only then), and the session-era
/// methods it removed are unknown (`404`, `-32601`) whatever their params.
#[tokio::test]
async fn a_2026_07_28_request_names_its_log_level_and_removed_methods_are_404() {
    timed(async {
        let mut cmd = tokio::process::Command::new(FIXTURE);
        cmd.args(["bridge", "serve", "--http", "127.0.0.1:0", "--stateless"])
            .env("FIXTURE_BRIDGE_NAME", "bridge")
            .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
        let (_server, url) = spawn(cmd).await;
        let version = [("MCP-Protocol-Version", "2026-07-28")];
        let meta = |level: Option<&str>| {
            let mut meta = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            });
            if let Some(level) = level {
                meta["io.modelcontextprotocol/logLevel"] = json!(level);
            }
            meta
        };
        let shout = |level| {
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                "name": "fixture_shout", "arguments": {"text": "hi there"}, "_meta": meta(level)}})
            .to_string()
        };
        let logs = |reply: &common::http::Reply| -> Vec<serde_json::Value> {
            messages(reply)
                .into_iter()
                .filter(|m| m["method"] == "notifications/message")
                .map(|m| m["params"].clone())
                .collect()
        };

        let headers = [version[0], ("Mcp-Method", "tools/call"), ("Mcp-Name", "fixture_shout")];
        let reply = post(&url, &headers, shout(Some("info"))).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let sent = logs(&reply);
        assert_eq!(sent.len(), 1, "info only, not debug: {reply:?}");
        assert_eq!(sent[0]["level"], "info");
        assert!(sent[0]["data"].to_string().contains("shouting hi there"), "{sent:?}");
        let answer = messages(&reply).into_iter().find(|m| m["id"] == 3).unwrap();
        assert_eq!(answer["result"]["content"][0]["text"], "shouted hi there\n", "{answer}");

        let reply = post(&url, &headers, shout(Some("debug"))).await;
        assert_eq!(logs(&reply).len(), 2, "{reply:?}");
        let reply = post(&url, &headers, shout(None)).await;
        assert_eq!(logs(&reply), Vec::<serde_json::Value>::new(), "{reply:?}");

        // Removed, with params of the old shape or none.
        for (method, params) in [
            ("logging/setLevel", json!({"level": "info"})),
            ("logging/setLevel", json!({})),
            ("initialize", json!({})),
            ("resources/subscribe", json!({"uri": "help://fixture_shout"})),
            ("resources/unsubscribe", json!({})),
        ] {
            let mut params = params;
            params["_meta"] = meta(None);
            let body = json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": params});
            let mut headers = vec![version[0], ("Mcp-Method", method)];
            if let Some(uri) = params["uri"].as_str() {
                headers.push(("Mcp-Name", uri));
            }
            let reply = post(&url, &headers, body.to_string()).await;
            assert_eq!(reply.status, 404, "{method}: {reply:?}");
            let error = &messages(&reply)[0];
            assert_eq!(error["id"], 9, "{error}");
            assert_eq!(error["error"]["code"], -32601, "{method}: {error}");
        }

        // An older client still sets a level for its requests.
        let set = json!({"jsonrpc": "2.0", "id": 4, "method": "logging/setLevel", "params": {"level": "info"}});
        let reply = post(&url, &[("MCP-Protocol-Version", "2025-06-18")], set.to_string()).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(messages(&reply)[0]["result"], json!({}), "{reply:?}");
    })
    .await;
}

/// A server whose tools change (fleet's fetched values) says so to a
/// client with a session, which gets `notifications/tools/list_changed`,
/// and not without sessions, where no notification can reach a client.
#[tokio::test]
async fn list_changed_is_declared_only_where_it_can_be_sent() {
    timed(async {
        for (args, declared) in [(&[][..], Some(true)), (&["--stateless"][..], None)] {
            let mut cmd = tokio::process::Command::new(common::fleet());
            cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
                .args(args)
                .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=debug");
            let (_server, url) = spawn(cmd).await;
            let reply = post(&url, &[], INITIALIZE).await;
            assert_eq!(reply.status, 200, "{reply:?}");
            let tools = &messages(&reply)[0]["result"]["capabilities"]["tools"];
            assert_eq!(
                tools["listChanged"].as_bool(),
                declared,
                "{args:?}: {tools}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn a_traceparent_header_reaches_the_call_and_meta_wins_over_it() {
    timed(async {
        const HEADER: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        const META: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
        let mut fixture = tokio::process::Command::new(FIXTURE);
        fixture
            .args(["ai", "serve", "--http", "127.0.0.1:0", "--stateless"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("MCP_BRIDGE_LOG", "info");
        let (_server, url) = spawn(fixture).await;
        let call = |tool: &str, meta: serde_json::Value| {
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                   "params": {"name": tool, "arguments": {}, "_meta": meta}})
            .to_string()
        };
        let headers = [
            ("MCP-Protocol-Version", "2025-11-25"),
            ("traceparent", HEADER),
            ("tracestate", "vendor=header"),
        ];
        for tool in ["fixture_trace", "fixture_trace-apart"] {
            let reply = post(&url, &headers, call(tool, json!({}))).await;
            let answer = &messages(&reply)[0]["result"]["structuredContent"];
            assert_eq!(answer["traceparent"], HEADER, "{tool}: {reply:?}");
            assert_eq!(answer["tracestate"], "vendor=header", "{tool}: {reply:?}");
            let env = if tool.ends_with("apart") {
                json!(HEADER)
            } else {
                json!(null)
            };
            assert_eq!(answer["TRACEPARENT"], env, "{tool}: {reply:?}");
            // The request's own `_meta` is the more precise one.
            let reply = post(&url, &headers, call(tool, json!({"traceparent": META}))).await;
            let answer = &messages(&reply)[0]["result"]["structuredContent"];
            assert_eq!(answer["traceparent"], META, "{tool}: {reply:?}");
            assert_eq!(answer["tracestate"], json!(null), "{tool}: {reply:?}");
        }
    })
    .await;
}

/// The status line and headers of the answer to one keep-alive POST of
/// `body` to `url` (HTTP/1.1, no `Connection` header).
async fn keep_alive_response_head(url: &str, body: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (authority, path) = rest.split_once('/').expect("a path");
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    let request = format!(
        "POST /{path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 64 * 1024 {
        if stream.read(&mut byte).await.unwrap() == 0 {
            break;
        }
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}
