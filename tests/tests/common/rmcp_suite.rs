// The rmcp client suite: `taskctl mcp serve` driven by rmcp's own client —
// the tool list and schemas, real calls against a task file, argument
// errors, unknown tools and every protocol version rmcp's client speaks;
// and the features seen in `fleet` and the fixture CLI: JSON arguments,
// parsed output and its fallback, icons, enum values' docs, shortened
// names, pinned tools in the search mode.
// Included once per transport by `tests/rmcp_client.rs`, whose module sets
// `VIA`.

use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};

use crate::common::outcome;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};
use serde_json::{json, Map, Value};

/// Every test gives up after this long instead of hanging.
const TEST_TIMEOUT: Duration = Duration::from_secs(20);

/// A connected client, and the HTTP server process it talks to (killed
/// when the client is dropped).
struct Client {
    service: RunningService<RoleClient, ClientConfig>,
    _server: Option<tokio::process::Child>,
    /// How many lines of the server's log hold the marker it was opened
    /// with ([`open_program`]).
    marked: Arc<AtomicUsize>,
}

impl std::ops::Deref for Client {
    type Target = RunningService<RoleClient, ClientConfig>;
    fn deref(&self) -> &Self::Target {
        &self.service
    }
}

fn client_config(version: ProtocolVersion) -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("rmcp-client-test", "0.0.1"),
    )
    .with_protocol_version(version)
}

/// `taskctl mcp serve` with `args`, run in `cwd` (so the default
/// `tasks.json` lands there).
fn server_command(cwd: &Path, args: &[&str]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(crate::common::taskctl());
    cmd.args(["mcp", "serve"])
        .args(args)
        .current_dir(cwd)
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info")
        .kill_on_drop(true);
    cmd
}

/// Opens a session with the server `VIA` names, by `initialize` or, with
/// `lifecycle`, as it says.
async fn open(
    cwd: &Path,
    config: ClientConfig,
    lifecycle: Option<ClientLifecycleMode>,
) -> Client {
    open_serving(cwd, config, lifecycle, &[]).await
}

/// [`open`], with `extra` arguments for `mcp serve`.
async fn open_serving(
    cwd: &Path,
    config: ClientConfig,
    lifecycle: Option<ClientLifecycleMode>,
    extra: &[&str],
) -> Client {
    let command = |args: &[&str]| server_command(cwd, args);
    open_command(command, config, lifecycle, extra, None).await
}

/// A session with another server: `program` run with `serve` (its words
/// for `mcp serve`, and any of its own) and `env`, counting the lines of
/// its log that hold `marker`.
async fn open_program(
    program: &Path,
    serve: &[&str],
    env: &[(&str, &str)],
    marker: Option<&'static str>,
) -> Client {
    let command = |args: &[&str]| {
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(serve)
            .args(args)
            .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info")
            .envs(env.iter().copied())
            .kill_on_drop(true);
        cmd
    };
    let config = client_config(ProtocolVersion::V_2025_06_18);
    open_command(command, config, None, &[], marker).await
}

/// Opens a session with the server `command` makes (given the transport's
/// arguments and `extra`) over the transport `VIA` names.
async fn open_command(
    command: impl Fn(&[&str]) -> tokio::process::Command,
    config: ClientConfig,
    lifecycle: Option<ClientLifecycleMode>,
    extra: &[&str],
    marker: Option<&'static str>,
) -> Client {
    match VIA {
        Via::Stdio => {
            let stderr = match marker {
                Some(_) => Stdio::piped(),
                None => Stdio::null(),
            };
            let (transport, log) = TokioChildProcess::builder(command(extra))
                .stderr(stderr)
                .spawn()
                .expect("spawn the server");
            let marked = Arc::new(AtomicUsize::new(0));
            if let (Some(log), Some(marker)) = (log, marker) {
                let counter = Arc::clone(&marked);
                tokio::spawn(async move {
                    use tokio::io::AsyncBufReadExt;
                    let mut lines = tokio::io::BufReader::new(log).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        if line.contains(marker) {
                            counter.fetch_add(1, Ordering::SeqCst);
                        }
                        eprintln!("server: {line}");
                    }
                });
            }
            let service = match lifecycle {
                Some(mode) => config.serve_with_lifecycle(transport, mode).await,
                None => config.serve(transport).await,
            };
            Client {
                service: service.expect("the session opens"),
                _server: None,
                marked,
            }
        }
        Via::Http { stateless } => {
            let mut args = vec!["--http", "127.0.0.1:0"];
            args.extend_from_slice(extra);
            if stateless {
                args.push("--stateless");
            }
            let marker = marker.unwrap_or("\u{0}");
            let (server, url, marked) =
                crate::common::http::spawn_counting(command(&args), marker).await;
            let transport = StreamableHttpClientTransport::from_uri(url);
            let service = match lifecycle {
                Some(mode) => config.serve_with_lifecycle(transport, mode).await,
                None => config.serve(transport).await,
            };
            Client {
                service: service.expect("the session opens"),
                _server: Some(server),
                marked,
            }
        }
    }
}

async fn connect_with(cwd: &Path, version: ProtocolVersion) -> Client {
    open(cwd, client_config(version), None).await
}

async fn connect(cwd: &Path) -> Client {
    connect_with(cwd, ProtocolVersion::V_2025_06_18).await
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// Calls `tool` and returns the result as it looks on the wire.
async fn call(client: &Client, tool: &str, arguments: Value) -> Value {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(object(arguments));
    let result = client
        .call_tool(params)
        .await
        .unwrap_or_else(|e| panic!("tools/call {tool} failed at the protocol level: {e}"));
    serde_json::to_value(&result).expect("result serializes")
}

/// Asserts success and returns stdout.
fn ok_stdout(result: &Value) -> String {
    let (stdout, stderr, code) = outcome(result);
    assert_eq!(code, 0, "expected success: {result}");
    assert_eq!(stderr, "", "no stderr expected: {result}");
    assert_eq!(result["content"][0]["type"], "text");
    stdout
}

/// What a successful call printed, one line of JSON, as a value: the
/// example builds it with `json!`, whose key order is serde_json's, not
/// the bridge's.
fn stdout_json(result: &Value) -> Value {
    let stdout = ok_stdout(result);
    assert!(stdout.ends_with('\n') && stdout.lines().count() == 1, "{stdout:?}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{stdout:?}: {e}"))
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text content")
}

fn read_db(path: &Path) -> Value {
    let bytes = std::fs::read(path).expect("read task file");
    serde_json::from_slice(&bytes).expect("task file is JSON")
}

fn task(db: &Value, id: u64) -> Option<&Value> {
    db["tasks"]
        .as_array()
        .expect("tasks array")
        .iter()
        .find(|t| t["id"] == id)
}

async fn finish(client: Client) {
    client
        .service
        .cancel()
        .await
        .expect("shut the client down");
}

async fn timed<F: std::future::Future<Output = ()>>(f: F) {
    // Built once per test process, before the clock starts.
    crate::common::taskctl();
    tokio::time::timeout(TEST_TIMEOUT, f)
        .await
        .expect("test timed out");
}

const ALL_TOOLS: [&str; 6] = [
    "taskctl_task_add",
    "taskctl_task_list",
    "taskctl_task_done",
    "taskctl_task_remove",
    "taskctl_stats",
    "taskctl_stats_export",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_has_exactly_the_runnable_commands() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = connect(dir.path()).await;
        let info = client.peer_info().expect("server info");
        let server = info.server_info.as_ref().expect("server_info");
        assert_eq!(server.name, "taskctl");
        assert!(info.capabilities.tools.is_some(), "tools capability");

        let tools = client.list_all_tools().await.expect("tools/list");
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort_unstable();
        let mut expected = ALL_TOOLS.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected);
        assert!(
            !names.iter().any(|n| n.contains("purge")),
            "hidden command exposed"
        );
        assert!(
            !names.contains(&"taskctl_task"),
            "non-runnable parent exposed"
        );
        assert!(!names.contains(&"taskctl"), "non-runnable root exposed");

        // `#[mcp(title, read_only, ...)]`: titles and annotations as the
        // example declares them; none on the command without them.
        let described = |name: &str| {
            let tool = tools.iter().find(|t| t.name == name).expect(name);
            let tool = serde_json::to_value(tool).unwrap();
            (tool["title"].clone(), tool["annotations"].clone())
        };
        assert_eq!(
            described("taskctl_task_list"),
            (
                json!("List tasks"),
                json!({"readOnlyHint": true, "openWorldHint": false})
            )
        );
        assert_eq!(
            described("taskctl_task_remove"),
            (
                json!("Remove a task"),
                json!({"destructiveHint": true, "openWorldHint": false})
            )
        );
        assert_eq!(
            described("taskctl_task_done").1,
            json!({"destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert_eq!(described("taskctl_stats_export"), (Value::Null, Value::Null));

        for tool in &tools {
            let tool = serde_json::to_value(tool).unwrap();
            // No envelope schema repeated on every tool: only `task list`,
            // whose handler returns its tasks as data, has one.
            if tool["name"] == "taskctl_task_list" {
                let schema = &tool["outputSchema"];
                assert_eq!(schema["required"], json!(["tasks"]), "{tool}");
                let task = &schema["properties"]["tasks"]["items"];
                assert_eq!(
                    task["required"],
                    json!(["id", "title", "priority", "tags", "status"]),
                    "{tool}"
                );
            } else {
                assert!(tool.get("outputSchema").is_none(), "{tool}");
            }
            assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
            assert_eq!(tool["inputSchema"]["additionalProperties"], false, "{tool}");
            // The global options reach every tool.
            assert!(
                tool["inputSchema"]["properties"]["db"].is_object(),
                "{tool}"
            );
            assert!(
                tool["inputSchema"]["properties"]["verbose"].is_object(),
                "{tool}"
            );
        }
        finish(client).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn task_add_schema_and_description() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = connect(dir.path()).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        let add = tools
            .iter()
            .find(|t| t.name == "taskctl_task_add")
            .expect("taskctl_task_add");
        let add = serde_json::to_value(add).unwrap();

        let description = add["description"].as_str().expect("description");
        assert!(
            description.starts_with("taskctl task add: Add a task"),
            "{description}"
        );
        assert!(
            description.contains("The task gets the next free id, which is printed."),
            "{description}"
        );
        assert!(
            description
                .contains("Titles are taken literally: quotes, dashes and semicolons are kept."),
            "{description}"
        );

        let schema = &add["inputSchema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["title"]));
        assert_eq!(schema["additionalProperties"], false);
        let props = &schema["properties"];
        let mut keys: Vec<&str> = props
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["db", "estimate", "priority", "status", "tag", "title", "verbose"]
        );

        assert_eq!(props["title"]["type"], "string");
        assert_eq!(props["title"]["description"], "What has to be done");

        let priority = &props["priority"];
        assert_eq!(priority["type"], "integer");
        assert_eq!(priority["minimum"], 1);
        assert_eq!(priority["maximum"], 5);
        assert_eq!(priority["default"], 3);

        let status = &props["status"];
        assert_eq!(status["type"], "string");
        assert_eq!(status["enum"], json!(["todo", "doing", "done"]));
        assert_eq!(status["default"], "todo");

        let tag = &props["tag"];
        assert_eq!(tag["type"], "array");
        assert_eq!(tag["items"]["type"], "string");

        // taskctl parses estimates with a parser of its own: a plain
        // string, no promised pattern; the help text says what it takes.
        let estimate = &props["estimate"];
        assert_eq!(estimate["type"], "string");
        assert!(estimate.get("pattern").is_none(), "{estimate}");
        assert_eq!(
            estimate["description"],
            "How long it should take, e.g. 90m or 2h"
        );

        assert_eq!(props["db"]["type"], "string");
        assert_eq!(props["db"]["default"], "tasks.json");

        assert_eq!(props["verbose"]["type"], "integer");
        assert_eq!(props["verbose"]["minimum"], 0);
        finish(client).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_change_the_task_file() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("my tasks.json");
        let db_arg = db.to_str().unwrap();
        let client = connect(dir.path()).await;

        // add
        let r = call(
            &client,
            "taskctl_task_add",
            json!({"db": db_arg, "title": "Write report", "priority": 5,
                   "tag": ["work", "urgent"], "estimate": "1h30m"}),
        )
        .await;
        assert_eq!(ok_stdout(&r), "added task #1: Write report\n");
        let file = read_db(&db);
        assert_eq!(file["next_id"], 2);
        assert_eq!(
            task(&file, 1).unwrap(),
            &json!({"id": 1, "title": "Write report", "priority": 5,
                    "tags": ["work", "urgent"], "estimate_minutes": 90, "status": "todo"})
        );

        // Strings are data: nothing is read as a flag or a shell command.
        let r = call(
            &client,
            "taskctl_task_add",
            json!({"db": db_arg, "title": "--help; rm -rf /"}),
        )
        .await;
        assert_eq!(ok_stdout(&r), "added task #2: --help; rm -rf /\n");
        let r = call(
            &client,
            "taskctl_task_add",
            json!({"db": db_arg, "title": "-rf", "priority": 1, "status": "doing", "tag": ["--force"]}),
        )
        .await;
        assert_eq!(ok_stdout(&r), "added task #3: -rf\n");
        let file = read_db(&db);
        assert_eq!(file["next_id"], 4);
        assert_eq!(
            task(&file, 2).unwrap(),
            &json!({"id": 2, "title": "--help; rm -rf /", "priority": 3, "tags": [], "status": "todo"})
        );
        assert_eq!(
            task(&file, 3).unwrap(),
            &json!({"id": 3, "title": "-rf", "priority": 1, "tags": ["--force"], "status": "doing"})
        );

        // list: the lines as text, the tasks as data
        let r = call(&client, "taskctl_task_list", json!({"db": db_arg})).await;
        assert_eq!(
            ok_stdout(&r),
            "#1 [todo] p5 Write report (work, urgent)\n#2 [todo] p3 --help; rm -rf /\n#3 [doing] p1 -rf (--force)\n"
        );
        let listed: Vec<&Value> = [1, 2, 3].iter().map(|id| task(&file, *id).unwrap()).collect();
        assert_eq!(r["structuredContent"], json!({"tasks": listed}), "{r}");
        let r = call(&client, "taskctl_task_list", json!({"db": db_arg, "tag": "work"})).await;
        assert_eq!(ok_stdout(&r), "#1 [todo] p5 Write report (work, urgent)\n");

        // verbose output goes to the result's stderr
        let r = call(
            &client,
            "taskctl_task_list",
            json!({"db": db_arg, "verbose": 2, "status": "todo"}),
        )
        .await;
        let (stdout, stderr, code) = outcome(&r);
        assert_eq!(code, 0);
        assert_eq!(
            stdout,
            "#1 [todo] p5 Write report (work, urgent) ~1h30m\n#2 [todo] p3 --help; rm -rf /\n"
        );
        assert_eq!(stderr, format!("using {} (3 tasks)\n", db.display()));
        assert_eq!(
            text(&r),
            format!("{}\n[stderr]\n{stderr}", stdout.trim_end_matches('\n'))
        );

        // done
        let r = call(&client, "taskctl_task_done", json!({"db": db_arg, "ids": [1, 3]})).await;
        assert_eq!(ok_stdout(&r), "done: #1\ndone: #3\n");
        let file = read_db(&db);
        assert_eq!(task(&file, 1).unwrap()["status"], "done");
        assert_eq!(task(&file, 2).unwrap()["status"], "todo");
        assert_eq!(task(&file, 3).unwrap()["status"], "done");

        let r = call(&client, "taskctl_task_list", json!({"db": db_arg})).await;
        assert_eq!(ok_stdout(&r), "#2 [todo] p3 --help; rm -rf /\n");
        let r = call(&client, "taskctl_task_list", json!({"db": db_arg, "all": true})).await;
        assert_eq!(ok_stdout(&r).lines().count(), 3);
        let r = call(&client, "taskctl_task_list", json!({"db": db_arg, "status": "done"})).await;
        assert_eq!(
            ok_stdout(&r),
            "#1 [done] p5 Write report (work, urgent)\n#3 [done] p1 -rf (--force)\n"
        );

        // remove without force on a task that is not done: the command
        // would ask, this client cannot, so it fails naming the flag
        let before = std::fs::read(&db).unwrap();
        let r = call(&client, "taskctl_task_remove", json!({"db": db_arg, "id": 2})).await;
        let (stdout, stderr, code) = outcome(&r);
        assert_eq!(r["isError"], true);
        assert_eq!(code, 1);
        assert_eq!(stdout, "");
        assert_eq!(
            stderr,
            "error: cannot ask \"Task #2 is not done. Remove it anyway?\": the MCP client did not \
             declare that it can ask its user (elicitation); to go ahead without the question, \
             call again with `force: true`\n"
        );
        assert_eq!(text(&r), format!("[stderr]\n{stderr}[exit code 1]"));
        assert_eq!(std::fs::read(&db).unwrap(), before, "failed remove changed the file");

        // ...and with force it goes
        let r = call(
            &client,
            "taskctl_task_remove",
            json!({"db": db_arg, "id": 2, "force": true}),
        )
        .await;
        assert_eq!(ok_stdout(&r), "removed task #2\n");
        assert!(task(&read_db(&db), 2).is_none());

        // a done task needs no force; `force: false` is the same as leaving it out
        let r = call(
            &client,
            "taskctl_task_remove",
            json!({"db": db_arg, "id": 1, "force": false}),
        )
        .await;
        assert_eq!(ok_stdout(&r), "removed task #1\n");

        let r = call(&client, "taskctl_task_remove", json!({"db": db_arg, "id": 99})).await;
        let (_, stderr, code) = outcome(&r);
        assert_eq!(code, 1);
        assert_eq!(stderr, "error: no task with id 99\n");

        let file = read_db(&db);
        assert_eq!(file["next_id"], 4);
        assert_eq!(
            file["tasks"],
            json!([{"id": 3, "title": "-rf", "priority": 1, "tags": ["--force"], "status": "done"}])
        );

        // stats
        call(&client, "taskctl_task_add", json!({"db": db_arg, "title": "x", "status": "doing"})).await;
        let r = call(&client, "taskctl_stats", json!({"db": db_arg})).await;
        // Fixed `--json` and `output = "json"`: the text as printed, and
        // the same counts as data.
        assert_eq!(stdout_json(&r), json!({"todo": 0, "doing": 1, "done": 1}));
        assert_eq!(r["structuredContent"], json!({"todo": 0, "doing": 1, "done": 1}));
        let fixed = call(&client, "taskctl_stats", json!({"db": db_arg, "json": false})).await;
        assert_eq!(fixed["isError"], true);
        assert!(
            text(&fixed).contains("property `json` is fixed for this tool (`#[mcp(args(json = true))]`); leave it out"),
            "{fixed}"
        );

        let export = dir.path().join("stats.json");
        let r = call(
            &client,
            "taskctl_stats_export",
            json!({"db": db_arg, "file": export.to_str().unwrap()}),
        )
        .await;
        assert_eq!(ok_stdout(&r), format!("wrote {}\n", export.display()));
        let written: Value =
            serde_json::from_slice(&std::fs::read(&export).unwrap()).unwrap();
        assert_eq!(written, json!({"todo": 0, "doing": 1, "done": 1}));

        // an export into a missing directory fails as the command does
        let r = call(
            &client,
            "taskctl_stats_export",
            json!({"db": db_arg, "file": dir.path().join("missing/stats.json").to_str().unwrap()}),
        )
        .await;
        let (_, stderr, code) = outcome(&r);
        assert_eq!(code, 1);
        assert!(stderr.starts_with("error: cannot use "), "{stderr}");

        // `db` left out: the default `tasks.json`, relative to the server's cwd
        let r = call(&client, "taskctl_task_add", json!({"title": "default db"})).await;
        assert_eq!(ok_stdout(&r), "added task #1: default db\n");
        let default_db = read_db(&dir.path().join("tasks.json"));
        assert_eq!(default_db["tasks"][0]["title"], "default db");

        finish(client).await;
    })
    .await;
}

/// One bad call: `isError`, exit code 2, and a message on stderr that names
/// the tool and the property.
async fn expect_arg_error(client: &Client, tool: &str, arguments: Value, property: &str) -> String {
    let r = call(client, tool, arguments.clone()).await;
    let (stdout, stderr, code) = outcome(&r);
    assert_eq!(r["isError"], true, "{arguments} → {r}");
    assert_eq!(code, 2, "{arguments} → {r}");
    assert_eq!(stdout, "", "{arguments} → {r}");
    assert!(
        stderr.contains(&format!("`{tool}`")),
        "{arguments}: message does not name the tool: {stderr}"
    );
    assert!(
        stderr.contains(&format!("`{property}`")),
        "{arguments}: message does not name `{property}`: {stderr}"
    );
    assert_eq!(
        text(&r),
        format!("[stderr]\n{stderr}[exit code 2]"),
        "the text content is the message"
    );
    stderr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn argument_errors_are_tool_errors_with_exit_code_2() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("tasks-args.json");
        let db_arg = db.to_str().unwrap();
        let client = connect(dir.path()).await;
        let add = "taskctl_task_add";

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "prioity": 4}),
            "prioity",
        )
        .await;
        assert!(message.contains("unknown property"), "{message}");
        assert!(message.contains("did you mean `priority`?"), "{message}");

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "priority": "5"}),
            "priority",
        )
        .await;
        assert!(message.contains("an integer from 1 to 5"), "{message}");
        assert!(
            message.contains("\"5\""),
            "shows the string given: {message}"
        );

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "priority": 9}),
            "priority",
        )
        .await;
        assert!(message.contains("an integer from 1 to 5"), "{message}");
        assert!(message.contains('9'), "{message}");

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "priority": 0}),
            "priority",
        )
        .await;
        assert!(message.contains("an integer from 1 to 5"), "{message}");

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "status": "urgent"}),
            "status",
        )
        .await;
        assert!(
            message.contains("\"todo\", \"doing\", \"done\""),
            "{message}"
        );
        assert!(message.contains("urgent"), "{message}");

        let message =
            expect_arg_error(&client, add, json!({"db": db_arg, "priority": 2}), "title").await;
        assert!(message.contains("missing required property"), "{message}");

        let message = expect_arg_error(
            &client,
            "taskctl_task_done",
            json!({"db": db_arg, "ids": []}),
            "ids",
        )
        .await;
        assert!(message.contains("at least 1"), "{message}");
        expect_arg_error(&client, "taskctl_task_done", json!({"db": db_arg}), "ids").await;

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "priority": null}),
            "priority",
        )
        .await;
        assert!(message.contains("null"), "{message}");

        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "priority": 2.5}),
            "priority",
        )
        .await;
        assert!(message.contains("2.5"), "{message}");

        // An object is not a title: refused, not stringified.
        let message = expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": {"text": "hi"}}),
            "title",
        )
        .await;
        assert!(message.contains("a string"), "{message}");
        expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": ["a", "b"]}),
            "title",
        )
        .await;
        expect_arg_error(&client, add, json!({"db": db_arg, "title": 42}), "title").await;

        // More type errors on other kinds of properties.
        expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "tag": "work"}),
            "tag",
        )
        .await;
        expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "tag": [1]}),
            "tag[0]",
        )
        .await;
        expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "estimate": "soon"}),
            "estimate",
        )
        .await;
        expect_arg_error(&client, add, json!({"db": "", "title": "t"}), "db").await;
        expect_arg_error(
            &client,
            add,
            json!({"db": db_arg, "title": "t", "verbose": -1}),
            "verbose",
        )
        .await;
        expect_arg_error(
            &client,
            "taskctl_task_list",
            json!({"db": db_arg, "all": "yes"}),
            "all",
        )
        .await;
        expect_arg_error(
            &client,
            "taskctl_task_remove",
            json!({"db": db_arg, "id": -1}),
            "id",
        )
        .await;
        // A property of another tool is unknown here.
        expect_arg_error(
            &client,
            "taskctl_task_list",
            json!({"db": db_arg, "title": "t"}),
            "title",
        )
        .await;

        assert!(!db.exists(), "no bad call may run the command");

        // The server still answers, and a good call works.
        let r = call(&client, add, json!({"db": db_arg, "title": "after errors"})).await;
        assert_eq!(ok_stdout(&r), "added task #1: after errors\n");
        assert_eq!(
            client.list_all_tools().await.unwrap().len(),
            ALL_TOOLS.len()
        );
        finish(client).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_tool_is_a_protocol_error() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = connect(dir.path()).await;
        for name in [
            "taskctl_nope",
            "taskctl_task",
            "taskctl_purge",
            "TASKCTL_TASK_ADD",
        ] {
            let params = CallToolRequestParams::new(name.to_owned())
                .with_arguments(object(json!({"title": "x"})));
            match client.call_tool(params).await {
                Err(ServiceError::McpError(error)) => {
                    assert_eq!(error.code.0, -32602, "{name}: {error:?}");
                    assert!(error.message.contains(name), "{name}: {error:?}");
                }
                other => panic!("{name}: expected a JSON-RPC error, got {other:?}"),
            }
        }
        assert!(!dir.path().join("tasks.json").exists(), "purge/other ran");
        // Still serving.
        assert_eq!(
            client.list_all_tools().await.unwrap().len(),
            ALL_TOOLS.len()
        );
        let db = dir.path().join("t.json");
        let r = call(
            &client,
            "taskctl_stats",
            json!({"db": db.to_str().unwrap()}),
        )
        .await;
        assert_eq!(stdout_json(&r), json!({"todo": 0, "doing": 0, "done": 0}));
        finish(client).await;
    })
    .await;
}

/// Lists the tools and runs one successful call.
async fn smoke(client: &Client, dir: &Path) {
    let tools = client.list_all_tools().await.expect("tools/list");
    assert_eq!(tools.len(), ALL_TOOLS.len());
    let db = dir.join("smoke.json");
    let r = call(
        client,
        "taskctl_task_add",
        json!({"db": db.to_str().unwrap(), "title": "smoke"}),
    )
    .await;
    assert_eq!(ok_stdout(&r), "added task #1: smoke\n");
    assert_eq!(read_db(&db)["tasks"][0]["title"], "smoke");
}

/// Every version negotiated with `initialize` serves the same tools.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_versions_with_initialize() {
    for version in [ProtocolVersion::V_2024_11_05, ProtocolVersion::V_2025_11_25] {
        timed(async {
            let dir = tempfile::tempdir().unwrap();
            let client = connect_with(dir.path(), version.clone()).await;
            assert_eq!(client.peer_info().unwrap().protocol_version, version);
            smoke(&client, dir.path()).await;
            finish(client).await;
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_2026_07_28_via_discover() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = open(
            dir.path(),
            client_config(ProtocolVersion::V_2026_07_28),
            Some(ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            }),
        )
        .await;
        let info = client.peer_info().expect("server info");
        assert_eq!(info.protocol_version, ProtocolVersion::V_2026_07_28);
        smoke(&client, dir.path()).await;
        finish(client).await;
    })
    .await;
}

/// The estimate's schema promises nothing about the notation (it is the
/// CLI's own parser), so the parser decides, and its refusals come back as
/// argument errors naming the property.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn estimates_are_checked_by_the_clis_own_parser() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("estimate.json");
        let client = connect(dir.path()).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        let add = tools.iter().find(|t| t.name == "taskctl_task_add").unwrap();
        assert!(add.input_schema["properties"]["estimate"]
            .get("pattern")
            .is_none());
        for (estimate, accepted) in [
            ("90s", true),
            ("1h 30m", true),
            ("2days", true),
            ("15 m", true),
            ("1.5h", false),
            ("5x", false),
            ("", false),
            ("90", false),
        ] {
            let r = call(
                &client,
                "taskctl_task_add",
                json!({"db": db.to_str().unwrap(), "title": "t", "estimate": estimate}),
            )
            .await;
            let (_, stderr, code) = outcome(&r);
            assert_eq!(code == 0, accepted, "{estimate:?}: exit {code}: {stderr}");
            if !accepted {
                assert_eq!(code, 2, "{estimate:?}");
                assert!(stderr.contains("`estimate`"), "{estimate:?}: {stderr}");
            }
        }
        finish(client).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn titles_are_kept_byte_for_byte() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("unicode.json");
        let client = connect(dir.path()).await;
        let titles = [
            "naïve café ☕ — 日本語",
            "two\nlines\tand a tab",
            r#"quotes " ' ` and \ backslash"#,
            "$(touch pwned) `id` && echo hi | cat > x",
            "--db=/etc/passwd",
            "-v",
            "",
        ];
        for (i, title) in titles.iter().enumerate() {
            let r = call(
                &client,
                "taskctl_task_add",
                json!({"db": db.to_str().unwrap(), "title": title}),
            )
            .await;
            assert_eq!(ok_stdout(&r), format!("added task #{}: {title}\n", i + 1));
        }
        let file = read_db(&db);
        let stored: Vec<&str> = file["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["title"].as_str().unwrap())
            .collect();
        assert_eq!(stored, titles);
        assert!(!dir.path().join("pwned").exists());
        assert!(!dir.path().join("x").exists());
        // `--db=/etc/passwd` as a title did not change the file used.
        assert!(!dir.path().join("tasks.json").exists());
        finish(client).await;
    })
    .await;
}

/// The grouped and search modes: what is listed, and a command run
/// through the made tools, over this transport too.
#[tokio::test]
async fn grouped_and_search_modes() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let config = || client_config(ProtocolVersion::V_2025_06_18);
        let client = open_serving(dir.path(), config(), None, &["--grouped", "1"]).await;
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["taskctl_task", "taskctl_stats"]);
        let added = call(
            &client,
            "taskctl_task",
            json!({"command": "add", "arguments": {"title": "grouped"}}),
        )
        .await;
        assert_eq!(ok_stdout(&added), "added task #1: grouped\n");
        let listed = call(&client, "taskctl_task", json!({"command": "ls"})).await;
        assert!(ok_stdout(&listed).contains("grouped"), "{listed}");
        finish(client).await;

        let client = open_serving(dir.path(), config(), None, &["--search"]).await;
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(names, ["search_tools", "call_tool"]);
        let found = call(&client, "search_tools", json!({"query": "remove"})).await;
        let found: Value = serde_json::from_str(text(&found)).unwrap();
        assert_eq!(found[0]["name"], "taskctl_task_remove");
        let removed = call(
            &client,
            "call_tool",
            json!({"name": "taskctl_task_remove", "arguments": {"id": 1, "force": true}}),
        )
        .await;
        assert_eq!(removed["isError"], false, "{removed}");
        assert!(read_db(&dir.path().join("tasks.json"))["tasks"]
            .as_array()
            .unwrap()
            .is_empty());
        finish(client).await;
    })
    .await;
}

/// Each tool's `--help` as a resource (`help://<tool>`), and the tools
/// with examples (`#[mcp(example)]`, doc-comment command lines) as prompts.
#[tokio::test]
async fn help_resources_and_example_prompts() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = connect(dir.path()).await;
        let caps = client.peer_info().unwrap().capabilities.clone();
        assert!(caps.resources.is_some() && caps.prompts.is_some());
        let resources = client.list_all_resources().await.unwrap();
        let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(uris.len(), ALL_TOOLS.len());
        assert!(uris.contains(&"help://taskctl_task_add"), "{uris:?}");
        let read = client
            .read_resource(rmcp::model::ReadResourceRequestParams::new("help://taskctl_task_add"))
            .await
            .unwrap();
        let text = match &read.contents[0] {
            rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("text expected: {other:?}"),
        };
        assert!(text.contains("Usage: taskctl task add [OPTIONS] <TITLE>"), "{text}");
        let missing = client
            .read_resource(rmcp::model::ReadResourceRequestParams::new("help://taskctl_nothing"))
            .await
            .unwrap_err();
        assert!(missing.to_string().contains("no resource `help://taskctl_nothing`"), "{missing}");

        let prompts = client.list_all_prompts().await.unwrap();
        let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["taskctl_task_add"]);
        let prompt = client
            .get_prompt(rmcp::model::GetPromptRequestParams::new("taskctl_task_add"))
            .await
            .unwrap();
        let message = serde_json::to_value(&prompt.messages[0]).unwrap();
        let text = message["content"]["text"].as_str().unwrap();
        assert!(text.contains(r#""title":"Write the release notes""#), "{text}");
        // The command line of the doc comment is a call of the prompt too.
        assert!(
            text.contains(r#""title":"Call the plumber""#) && text.contains(r#""tag":["home","urgent"]"#),
            "{text}"
        );
        finish(client).await;
    })
    .await;
}

/// `fleet mcp serve --flat`: every command a tool.
async fn fleet() -> Client {
    open_program(
        crate::common::fleet(),
        &["mcp", "serve", "--flat"],
        &[],
        None,
    )
    .await
}

/// The fixture CLI served by its plain handler (which prints with
/// `println!`), its bridge named `ai`, with `env`.
async fn fixture(env: &[(&str, &str)], marker: Option<&'static str>) -> Client {
    let mut all = vec![("FIXTURE_BRIDGE_NAME", "ai"), ("FIXTURE_HANDLER", "plain")];
    all.extend_from_slice(env);
    let program = Path::new(env!("CARGO_BIN_EXE_fixture_cli"));
    open_program(program, &["ai", "serve"], &all, marker).await
}

/// The listed tool called `name`, as it looks on the wire.
async fn listed(client: &Client, name: &str) -> Value {
    let tools = client.list_all_tools().await.expect("tools/list");
    let tool = tools
        .iter()
        .find(|tool| tool.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"));
    serde_json::to_value(tool).unwrap()
}

/// fleet's `deploy --limits` (`#[mcp(json)]`): the property is the type's
/// own schema; an object is handed to the handler, and one of another
/// shape is refused naming the property and what is wrong with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_argument_is_an_object_of_its_types_schema() {
    crate::common::fleet();
    timed(async {
        let client = fleet().await;
        let deploy = listed(&client, "fl_service_deploy").await;
        assert_eq!(
            deploy["inputSchema"]["properties"]["limits"],
            json!({
                "type": "object",
                "additionalProperties": false,
                "properties": {
                    "cpu": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255,
                            "description": "CPU cores"},
                    "memory": {"type": ["string", "null"],
                               "description": "Memory, e.g. `512Mi` or `2Gi`"},
                },
                "required": ["cpu"],
                "description": "Resources each copy may use, as JSON",
            })
        );
        assert_eq!(deploy["inputSchema"]["required"], json!(["name"]));

        let deploy = |arguments: Value| call(&client, "fl_service_deploy", arguments);
        let done =
            deploy(json!({"name": "api", "replicas": 3, "limits": {"cpu": 2, "memory": "1Gi"}}))
                .await;
        assert_eq!(
            ok_stdout(&done),
            "would deploy api x3, 2 cores and 1Gi each\n"
        );
        let done = deploy(json!({"name": "api", "limits": {"cpu": 1, "memory": null}})).await;
        assert_eq!(
            ok_stdout(&done),
            "would deploy api x1, 1 cores and no memory limit each\n"
        );

        let refused = |limits: Value, why: &'static str| {
            let deploy = &deploy;
            async move {
                let r = deploy(json!({"name": "api", "limits": limits})).await;
                let (stdout, stderr, code) = outcome(&r);
                assert_eq!((stdout.as_str(), code), ("", 2), "{r}");
                assert_eq!(
                    stderr,
                    format!(
                        "tool `fl_service_deploy`: property `limits`: expected a JSON value of \
                         `Limits`, got {limits} ({why})\n"
                    ),
                    "{r}"
                );
            }
        };
        refused(
            json!({"cpu": 2, "disk": "1Ti"}),
            "unknown field `disk`, expected `cpu` or `memory`",
        )
        .await;
        refused(
            json!({"cpu": "two"}),
            "invalid type: string \"two\", expected u8",
        )
        .await;
        refused(json!({"memory": "1Gi"}), "missing field `cpu`").await;
        refused(
            json!({"cpu": 300}),
            "invalid value: integer `300`, expected u8",
        )
        .await;
        // JSON text is a string, not the object the schema asks for.
        refused(
            json!("{\"cpu\": 1}"),
            "invalid type: string \"{\\\"cpu\\\": 1}\", expected struct Limits",
        )
        .await;
        finish(client).await;
    })
    .await;
}

/// fleet's `#[mcp(output = "table" | "lines" | "yaml")]`: what a command
/// prints is the text, and its parsed value the `structuredContent`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printed_output_is_parsed_into_structured_content() {
    crate::common::fleet();
    timed(async {
        let client = fleet().await;
        let hosts = call(&client, "fl_host_list", json!({"region": "eu-west"})).await;
        assert_eq!(
            ok_stdout(&hosts),
            "NAME    REGION    CORES  SERVICES\n\
             web-1   eu-west   8      api,web\n\
             db-1    eu-west   32     postgres\n"
        );
        assert_eq!(
            hosts["structuredContent"],
            json!({"rows": [
                {"NAME": "web-1", "REGION": "eu-west", "CORES": "8", "SERVICES": "api,web"},
                {"NAME": "db-1", "REGION": "eu-west", "CORES": "32", "SERVICES": "postgres"},
            ]})
        );
        let services = call(&client, "fl_service_list", json!({})).await;
        assert_eq!(
            ok_stdout(&services),
            "api on web-1\nweb on web-1\nweb on web-2\npostgres on db-1\n"
        );
        assert_eq!(
            services["structuredContent"],
            json!({"lines": ["api on web-1", "web on web-1", "web on web-2", "postgres on db-1"]})
        );
        let show = call(&client, "fl_host_show", json!({"name": "web-1"})).await;
        assert_eq!(
            ok_stdout(&show),
            "name: web-1\nregion: eu-west\ncores: 8\nservices:\n  - api\n  - web\n"
        );
        assert_eq!(
            show["structuredContent"],
            json!({"name": "web-1", "region": "eu-west", "cores": 8, "services": ["api", "web"]})
        );
        // A failed call is not parsed.
        let missing = call(
            &client,
            "fl_host_show",
            json!({"name": "web-1", "format": "text"}),
        )
        .await;
        assert_eq!(missing["isError"], true, "{missing}");
        assert!(missing.get("structuredContent").is_none(), "{missing}");
        finish(client).await;
    })
    .await;
}

/// What the warning of an output that does not parse says.
const NOT_PARSED: &str = "output not parsed: sent as text only tool=\"fixture_sizes\" \
     format=Table why=row 3 does not line up with the header's columns";

/// The fixture's `sizes` (`#[mcp(output = "table")]`): a table that lines
/// up is parsed; one that does not is the text alone, no
/// `structuredContent`, and the server's log warns why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_that_does_not_parse_is_the_text_alone_with_a_warning() {
    timed(async {
        let client = fixture(&[], Some(NOT_PARSED)).await;
        let sizes = listed(&client, "fixture_sizes").await;
        assert!(sizes.get("outputSchema").is_none(), "{sizes}");
        let parsed = call(&client, "fixture_sizes", json!({})).await;
        assert_eq!(ok_stdout(&parsed), "NAME    SIZE\nsmall   1\nlarge   300\n");
        assert_eq!(
            parsed["structuredContent"],
            json!({"rows": [{"NAME": "small", "SIZE": "1"}, {"NAME": "large", "SIZE": "300"}]})
        );
        let ragged = call(&client, "fixture_sizes", json!({"ragged": true})).await;
        assert_eq!(
            ragged,
            json!({
                "content": [{"type": "text",
                             "text": "NAME    SIZE\nsmall   1\nlarge   300\nextra-large 5000\n"}],
                "isError": false,
            })
        );
        // The warning is logged before the answer is sent; its line may
        // reach the test a little after.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while client.marked.load(Ordering::SeqCst) == 0 {
            assert!(std::time::Instant::now() < deadline, "no warning logged");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(
            client.marked.load(Ordering::SeqCst),
            1,
            "one warning, for the ragged table"
        );
        finish(client).await;
    })
    .await;
}

/// `#[mcp(icon)]` as rmcp's client reads it: the fixture's root icon on
/// every tool, the one `shout` declares in its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn icons_reach_the_client() {
    timed(async {
        let client = fixture(&[], None).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(tools.len(), 29);
        for tool in &tools {
            let icons = tool.icons.as_deref().unwrap_or_default();
            let icons: Vec<(&str, Option<&str>)> = icons
                .iter()
                .map(|icon| (icon.src.as_str(), icon.mime_type.as_deref()))
                .collect();
            let expected = match tool.name.as_ref() {
                "fixture_shout" => ("https://example.com/icons/shout.png?v=2", Some("image/png")),
                _ => (
                    "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E",
                    Some("image/svg+xml"),
                ),
            };
            assert_eq!(icons, [expected], "{}", tool.name);
        }
        finish(client).await;
    })
    .await;
}

/// A tool's icons: each one's `src` and MIME type.
type Icons = Vec<(String, Option<String>)>;

/// The icons of each tool, by name, as rmcp's client reads them.
fn icons_by_name(tools: &[rmcp::model::Tool]) -> Vec<(String, Icons)> {
    tools
        .iter()
        .map(|tool| {
            let icons = tool.icons.as_deref().unwrap_or_default();
            let icons = icons
                .iter()
                .map(|icon| (icon.src.clone(), icon.mime_type.clone()))
                .collect();
            (tool.name.to_string(), icons)
        })
        .collect()
}

const ROOT_ICON: &str = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E";

/// `--search --pin`: a pinned tool keeps the icon it has when listed
/// flat; the two made tools, which stand for the whole CLI, have the
/// root's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pinned_tools_keep_their_icons() {
    timed(async {
        let pins = ["--search", "--pin", "fixture_shout", "--pin", "newest-*"];
        let env = [("FIXTURE_BRIDGE_NAME", "ai"), ("FIXTURE_HANDLER", "plain")];
        let serve: Vec<&str> = ["ai", "serve"].into_iter().chain(pins).collect();
        let program = Path::new(env!("CARGO_BIN_EXE_fixture_cli"));
        let client = open_program(program, &serve, &env, None).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        let icon = |src: &str, mime: &str| vec![(src.to_owned(), Some(mime.to_owned()))];
        assert_eq!(
            icons_by_name(&tools),
            [
                ("search_tools".to_owned(), icon(ROOT_ICON, "image/svg+xml")),
                ("call_tool".to_owned(), icon(ROOT_ICON, "image/svg+xml")),
                (
                    "fixture_shout".to_owned(),
                    icon("https://example.com/icons/shout.png?v=2", "image/png")
                ),
                (SHORTENED.to_owned(), icon(ROOT_ICON, "image/svg+xml")),
            ]
        );
        finish(client).await;
    })
    .await;
}

/// `--grouped`: the one tool standing for the root and every command
/// below it is the root's tool, so it shows the root's icon (README: an
/// icon is "the icon of its tools and of every tool below it").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_grouped_tool_shows_its_commands_icon() {
    timed(async {
        let serve = ["ai", "serve", "--grouped"];
        let env = [("FIXTURE_BRIDGE_NAME", "ai"), ("FIXTURE_HANDLER", "plain")];
        let program = Path::new(env!("CARGO_BIN_EXE_fixture_cli"));
        let client = open_program(program, &serve, &env, None).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        assert_eq!(
            icons_by_name(&tools),
            [(
                "fixture".to_owned(),
                vec![(ROOT_ICON.to_owned(), Some("image/svg+xml".to_owned()))]
            )]
        );
        finish(client).await;
    })
    .await;
}

/// taskctl's `Status` values described by their doc comments, in the
/// description of each property that takes one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enum_values_are_described_by_their_doc_comments() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let client = connect(dir.path()).await;
        let values = "(todo: Not started; doing: In progress; done: Finished)";
        for (tool, help) in [
            ("taskctl_task_add", "The status to start in"),
            ("taskctl_task_list", "Only tasks with this status"),
        ] {
            let status = &listed(&client, tool).await["inputSchema"]["properties"]["status"];
            assert_eq!(status["description"], format!("{help} {values}"), "{tool}");
            assert_eq!(status["enum"], json!(["todo", "doing", "done"]), "{tool}");
        }
        finish(client).await;
    })
    .await;
}

/// The fixture's tool names are held to 40 bytes (`#[mcp(max_name_len =
/// 40)]`): the one longer path is listed shortened (its end and a hash),
/// and called by that name; its full name is no tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shortened_name_is_listed_and_called() {
    timed(async {
        let client = fixture(&[], None).await;
        let tools = client.list_all_tools().await.expect("tools/list");
        let long: Vec<&str> = tools
            .iter()
            .map(|tool| tool.name.as_ref())
            .filter(|name| !name.starts_with("fixture_"))
            .collect();
        assert_eq!(long, [SHORTENED]);
        assert!(tools.iter().all(|tool| tool.name.len() <= 40));
        let shown = listed(&client, SHORTENED).await;
        assert!(
            shown["description"].as_str().unwrap().starts_with(
                "fixture show-the-newest-key-of-a-service-account: Print the newest key"
            ),
            "{shown}"
        );
        let key = call(&client, SHORTENED, json!({"account": "ci"})).await;
        assert_eq!(ok_stdout(&key), "newest key of ci: k-7\n");
        let full = "fixture_show-the-newest-key-of-a-service-account";
        let params =
            CallToolRequestParams::new(full).with_arguments(object(json!({"account": "ci"})));
        match client.call_tool(params).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(error.code.0, -32602, "{error:?}");
                assert!(error.message.contains(full), "{error:?}");
            }
            other => panic!("the full name is no tool: {other:?}"),
        }
        finish(client).await;
    })
    .await;
}

/// The fixture's `show-the-newest-key-of-a-service-account`, shortened.
const SHORTENED: &str = "newest-key-of-a-service-account_4e0b073d";

/// `--search --pin`: the pinned tools are listed after `search_tools` and
/// `call_tool`, in the CLI's order, each with its full schema, and called
/// by their names; `call_tool` still reaches every tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_mode_with_pinned_tools() {
    timed(async {
        let dir = tempfile::tempdir().unwrap();
        let config = client_config(ProtocolVersion::V_2025_06_18);
        let pins = [
            "--search",
            "--pin",
            "taskctl_stats*",
            "--pin",
            "taskctl_task_add",
        ];
        let client = open_serving(dir.path(), config, None, &pins).await;
        let tools = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "search_tools",
                "call_tool",
                "taskctl_task_add",
                "taskctl_stats",
                "taskctl_stats_export"
            ]
        );
        let add = serde_json::to_value(&tools[2]).unwrap();
        assert_eq!(add["inputSchema"]["required"], json!(["title"]), "{add}");
        assert_eq!(
            add["inputSchema"]["properties"]["priority"]["maximum"], 5,
            "{add}"
        );

        let added = call(&client, "taskctl_task_add", json!({"title": "pinned"})).await;
        assert_eq!(ok_stdout(&added), "added task #1: pinned\n");
        let counted = call(&client, "taskctl_stats", json!({})).await;
        assert_eq!(stdout_json(&counted), json!({"todo": 1, "doing": 0, "done": 0}));
        let refused = call(&client, "taskctl_task_add", json!({"priority": 2})).await;
        let (_, stderr, code) = outcome(&refused);
        assert_eq!(code, 2, "{refused}");
        assert!(stderr.contains("`title`"), "{stderr}");
        let listed = call(
            &client,
            "call_tool",
            json!({"name": "taskctl_task_list", "arguments": {}}),
        )
        .await;
        assert_eq!(ok_stdout(&listed), "#1 [todo] p3 pinned\n");
        finish(client).await;
    })
    .await;
}
