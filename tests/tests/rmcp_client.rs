//! `taskctl mcp serve` (and `fleet`'s and the fixture CLI's) driven by
//! rmcp's own client, one suite (`common/rmcp_suite.rs`) over each
//! transport: stdio, Streamable HTTP with sessions, and stateless
//! Streamable HTTP. What works over one works the same over the others.
//! The modules after it need a client of their own (one that answers
//! questions, or is told the tools changed).

mod common;

/// Which server the suite talks to.
#[allow(dead_code)]
#[derive(Clone, Copy)]
enum Via {
    Stdio,
    Http { stateless: bool },
}

mod stdio {
    use super::Via;
    const VIA: Via = Via::Stdio;
    include!("common/rmcp_suite.rs");
}

mod http {
    use super::Via;
    const VIA: Via = Via::Http { stateless: false };
    include!("common/rmcp_suite.rs");
}

mod http_stateless {
    use super::Via;
    const VIA: Via = Via::Http { stateless: true };
    include!("common/rmcp_suite.rs");
}

/// The configuration of a client named `name` that can ask its user
/// (elicitation), speaking `version` if given.
fn eliciting(
    name: &str,
    version: Option<&rmcp::model::ProtocolVersion>,
) -> rmcp::model::ClientConfig {
    use rmcp::model::{ClientCapabilities, ClientConfig, ElicitationCapability, Implementation};
    let mut capabilities = ClientCapabilities::default();
    capabilities.elicitation = Some(ElicitationCapability::new());
    let config = ClientConfig::new(capabilities, Implementation::new(name, "0.0.1"));
    match version {
        Some(version) => config.with_protocol_version(version.clone()),
        None => config,
    }
}

/// A client that can ask its user: taskctl's `task remove` of a task that
/// is not done asks (an elicitation), and this user says yes.
mod asking {
    use std::sync::{Arc, Mutex};

    use rmcp::model::{
        CallToolRequestParams, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
        ProtocolVersion,
    };
    use rmcp::service::{RequestContext, RunningService};
    use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
    use rmcp::{
        ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, RoleClient, ServiceExt,
    };
    use serde_json::json;

    #[derive(Clone, Default)]
    struct SaysYes {
        asked: Arc<Mutex<Vec<String>>>,
        version: Option<ProtocolVersion>,
    }

    impl ClientHandler for SaysYes {
        fn get_info(&self) -> ClientConfig {
            crate::eliciting("says-yes", self.version.as_ref())
        }

        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            if let ElicitRequestParams::FormElicitationParams { message, .. } = &request {
                self.asked.lock().unwrap().push(message.clone());
            }
            Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true})))
        }
    }

    fn taskctl(dir: &std::path::Path) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(crate::common::taskctl());
        cmd.args(["mcp", "serve"])
            .current_dir(dir)
            .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info")
            .kill_on_drop(true);
        cmd
    }

    /// Adds a task and removes it before it is done: the question is
    /// asked once and answered yes.
    async fn remove_asks(client: &RunningService<RoleClient, SaysYes>, handler: &SaysYes) {
        let call = |name: &str, arguments: serde_json::Value| {
            let params = CallToolRequestParams::new(name.to_owned())
                .with_arguments(arguments.as_object().cloned().unwrap());
            client.call_tool(params)
        };
        call("taskctl_task_add", json!({"title": "keep"}))
            .await
            .unwrap();
        let removed = call("taskctl_task_remove", json!({"id": 1})).await.unwrap();
        let removed = serde_json::to_value(&removed).unwrap();
        assert_eq!(removed["isError"], false, "{removed}");
        assert_eq!(removed["content"][0]["text"], "removed task #1\n");
        assert_eq!(
            *handler.asked.lock().unwrap(),
            ["Task #1 is not done. Remove it anyway?"]
        );
    }

    #[tokio::test]
    async fn a_question_is_asked_and_answered() {
        let dir = tempfile::tempdir().unwrap();
        let transport = TokioChildProcess::new(taskctl(dir.path())).expect("spawn taskctl");
        let handler = SaysYes::default();
        let client = handler
            .clone()
            .serve(transport)
            .await
            .expect("the session opens");
        remove_asks(&client, &handler).await;
        client.cancel().await.unwrap();
    }

    /// In the grouped mode the follow-up call names the group, as the
    /// first did.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_grouped_tool_asks_in_rounds_too() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = taskctl(dir.path());
        cmd.args(["--grouped", "1"]);
        let handler = SaysYes {
            version: Some(ProtocolVersion::V_2026_07_28),
            ..SaysYes::default()
        };
        let mode = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let transport = TokioChildProcess::new(cmd).expect("spawn taskctl");
        let client = handler
            .clone()
            .serve_with_lifecycle(transport, mode)
            .await
            .unwrap();
        let call = |arguments: serde_json::Value| {
            let params = CallToolRequestParams::new("taskctl_task")
                .with_arguments(arguments.as_object().cloned().unwrap());
            client.call_tool(params)
        };
        call(json!({"command": "add", "arguments": {"title": "keep"}}))
            .await
            .unwrap();
        let removed = call(json!({"command": "remove", "arguments": {"id": 1}}))
            .await
            .unwrap();
        let removed = serde_json::to_value(&removed).unwrap();
        assert_eq!(
            removed["content"][0]["text"], "removed task #1\n",
            "{removed}"
        );
        assert_eq!(handler.asked.lock().unwrap().len(), 1);
        client.cancel().await.unwrap();
    }

    /// Protocol 2026-07-28 has no server requests: the question comes back
    /// as an `input_required` result, which rmcp's client fulfils through
    /// the same handler and calls again; over stdio and over stateless
    /// HTTP (each request on its own).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn under_2026_07_28_a_question_is_a_round_trip() {
        for stateless_http in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut cmd = taskctl(dir.path());
            let handler = SaysYes {
                version: Some(ProtocolVersion::V_2026_07_28),
                ..SaysYes::default()
            };
            let mode = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            let (client, _server) = match stateless_http {
                false => {
                    let transport = TokioChildProcess::new(cmd).expect("spawn taskctl");
                    let client = handler.clone().serve_with_lifecycle(transport, mode).await;
                    (client.expect("the session opens"), None)
                }
                true => {
                    cmd.args(["--http", "127.0.0.1:0", "--stateless"]);
                    let (server, url) = crate::common::http::spawn(cmd).await;
                    let transport = StreamableHttpClientTransport::from_uri(url);
                    let client = handler.clone().serve_with_lifecycle(transport, mode).await;
                    (client.expect("the session opens"), Some(server))
                }
            };
            assert_eq!(
                client.peer_info().expect("server info").protocol_version,
                ProtocolVersion::V_2026_07_28
            );
            remove_asks(&client, &handler).await;
            // Driven by hand: the first answer is the question, and the
            // call waits; answered, it goes on.
            let add = CallToolRequestParams::new("taskctl_task_add")
                .with_arguments(json!({"title": "again"}).as_object().cloned().unwrap());
            client.call_tool(add).await.unwrap();
            let remove = CallToolRequestParams::new("taskctl_task_remove")
                .with_arguments(json!({"id": 2}).as_object().cloned().unwrap());
            let first = client.call_tool_once(remove.clone()).await.unwrap();
            let rmcp::model::CallToolResponse::InputRequired(required) = first else {
                panic!("not an input_required result: {first:?}");
            };
            let wire = serde_json::to_value(&required).unwrap();
            assert_eq!(wire["resultType"], "input_required", "{wire}");
            assert_eq!(
                wire["inputRequests"]["question"]["params"]["message"],
                "Task #2 is not done. Remove it anyway?",
                "{wire}"
            );
            let mut answered = remove;
            answered.request_state = required.request_state.clone();
            answered.input_responses = Some(std::collections::BTreeMap::from([(
                "question".to_owned(),
                json!({"action": "decline"}),
            )]));
            let declined = client.call_tool_once(answered).await.unwrap();
            let rmcp::model::CallToolResponse::Complete(declined) = declined else {
                panic!("not a result: {declined:?}");
            };
            let declined = serde_json::to_value(&declined).unwrap();
            assert_eq!(declined["isError"], true, "{declined}");
            assert!(
                declined["content"][0]["text"].as_str().unwrap().contains(
                    "was declined; to go ahead without the question, call again with `force: true`"
                ),
                "{declined}"
            );
            // A requestState no call waits under is refused, naming why.
            let mut stale = CallToolRequestParams::new("taskctl_task_remove")
                .with_arguments(json!({"id": 1}).as_object().cloned().unwrap());
            stale.request_state = Some("0123".to_owned());
            let error = client.call_tool_once(stale).await.expect_err("refused");
            assert!(
                error
                    .to_string()
                    .contains("no call of `taskctl_task_remove` waits"),
                "{error}"
            );
            client.cancel().await.unwrap();
        }
    }
}

/// fleet's host names fetched at run time (`#[mcp(values)]`) through
/// rmcp's client: the enum in `tools/list`, a refused name, a host added
/// to the inventory taken at the next call naming it, and the
/// `notifications/tools/list_changed` that follows.
mod fetched_values {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use rmcp::model::CallToolRequestParams;
    use rmcp::service::NotificationContext;
    use rmcp::transport::TokioChildProcess;
    use rmcp::{ClientHandler, RoleClient, ServiceExt};
    use serde_json::{json, Value};

    #[derive(Clone, Default)]
    struct Counts {
        changed: Arc<AtomicUsize>,
    }

    impl ClientHandler for Counts {
        async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
            self.changed.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn inventory(path: &std::path::Path, names: &[&str]) {
        let hosts: Vec<Value> = names
            .iter()
            .map(|name| json!({"name": name, "region": "north", "cores": 4, "services": []}))
            .collect();
        std::fs::write(path, Value::Array(hosts).to_string()).unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_enum_follows_the_inventory() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("inventory.json");
        inventory(&file, &["a-1", "b-1"]);
        let mut cmd = tokio::process::Command::new(crate::common::fleet());
        cmd.args(["mcp", "serve", "--flat"])
            .env("FLEET_INVENTORY", &file)
            .env("MCP_BRIDGE_LOG", "warn")
            .kill_on_drop(true);
        let handler = Counts::default();
        let transport = TokioChildProcess::new(cmd).expect("spawn fleet mcp serve");
        let client = handler
            .clone()
            .serve(transport)
            .await
            .expect("the session opens");
        let names = |tools: &[rmcp::model::Tool]| {
            let show = tools.iter().find(|t| t.name == "fl_host_show").unwrap();
            show.input_schema["properties"]["name"]["enum"].clone()
        };
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(names(&tools), json!(["a-1", "b-1"]));
        let show = |name: &str| {
            let params = CallToolRequestParams::new("fl_host_show")
                .with_arguments(json!({"name": name}).as_object().cloned().unwrap());
            client.call_tool(params)
        };
        let refused = serde_json::to_value(show("c-1").await.unwrap()).unwrap();
        assert_eq!(refused["isError"], true, "{refused}");
        assert!(
            refused["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("one of \"a-1\", \"b-1\""),
            "{refused}"
        );
        inventory(&file, &["a-1", "b-1", "c-1"]);
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let shown = serde_json::to_value(show("c-1").await.unwrap()).unwrap();
        assert_eq!(shown["isError"], false, "{shown}");
        assert_eq!(shown["structuredContent"]["name"], "c-1");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while handler.changed.load(Ordering::SeqCst) == 0 {
            assert!(std::time::Instant::now() < deadline, "no list_changed");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(names(&tools), json!(["a-1", "b-1", "c-1"]));
        client.cancel().await.unwrap();
    }
}

/// A server started for a client with a handler of its own: `cmd` over
/// stdio, or with `http` (the extra arguments of `--http`) over
/// Streamable HTTP; the log lines holding `marker` are counted.
mod own_client {
    use std::process::Stdio;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use rmcp::service::RunningService;
    use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
    use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, RoleClient, ServiceExt};

    pub struct Session<H: ClientHandler> {
        pub client: RunningService<RoleClient, H>,
        pub marked: Arc<AtomicUsize>,
        _server: Option<tokio::process::Child>,
    }

    impl<H: ClientHandler> std::ops::Deref for Session<H> {
        type Target = RunningService<RoleClient, H>;
        fn deref(&self) -> &Self::Target {
            &self.client
        }
    }

    pub async fn open<H: ClientHandler>(
        handler: H,
        mut cmd: tokio::process::Command,
        http: Option<&[&str]>,
        lifecycle: Option<ClientLifecycleMode>,
        marker: &'static str,
    ) -> Session<H> {
        cmd.env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info")
            .kill_on_drop(true);
        let (client, server, marked) = match http {
            None => {
                let (transport, log) = TokioChildProcess::builder(cmd)
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawn the server");
                let marked = Arc::new(AtomicUsize::new(0));
                let counter = Arc::clone(&marked);
                let log = log.expect("stderr piped");
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
                let client = match lifecycle {
                    Some(mode) => handler.serve_with_lifecycle(transport, mode).await,
                    None => handler.serve(transport).await,
                };
                (client, None, marked)
            }
            Some(extra) => {
                cmd.args(["--http", "127.0.0.1:0"]).args(extra);
                let (server, url, marked) = crate::common::http::spawn_counting(cmd, marker).await;
                let transport = StreamableHttpClientTransport::from_uri(url);
                let client = match lifecycle {
                    Some(mode) => handler.serve_with_lifecycle(transport, mode).await,
                    None => handler.serve(transport).await,
                };
                (client, Some(server), marked)
            }
        };
        Session {
            client: client.expect("the session opens"),
            marked,
            _server: server,
        }
    }

    /// Waits up to `seconds` for `count` to reach `at_least`.
    pub async fn await_count(count: &AtomicUsize, at_least: usize, seconds: u64, what: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        while count.load(Ordering::SeqCst) < at_least {
            assert!(std::time::Instant::now() < deadline, "{what}");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

/// The fixture's `label` (`#[mcp(values = labels)]`: fetched from the
/// file `FIXTURE_LABELS`, `name`'s every 300 ms, `also`'s every hour)
/// through rmcp's client: a function that fails leaves the schema as
/// declared; new values fetched on their TTL reach the client as
/// `notifications/tools/list_changed`, with no call asking for them.
mod label_values {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use rmcp::model::CallToolRequestParams;
    use rmcp::service::NotificationContext;
    use rmcp::{ClientHandler, RoleClient};
    use serde_json::{json, Value};

    use crate::own_client::{await_count, open, Session};

    #[derive(Clone, Default)]
    struct Counts {
        changed: Arc<AtomicUsize>,
    }

    impl ClientHandler for Counts {
        async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
            self.changed.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn fixture(labels: &std::path::Path) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_fixture_cli"));
        cmd.args(["ai", "serve"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("FIXTURE_HANDLER", "plain")
            .env("FIXTURE_LABELS", labels);
        cmd
    }

    /// The `label` tool's properties as listed.
    async fn properties(session: &Session<Counts>) -> Value {
        let tools = session.list_all_tools().await.expect("tools/list");
        let label = tools
            .iter()
            .find(|tool| tool.name == "fixture_label")
            .expect("the label tool");
        Value::Object(label.input_schema.as_ref().clone())["properties"].clone()
    }

    async fn label(session: &Session<Counts>, arguments: Value) -> Value {
        let params = CallToolRequestParams::new("fixture_label")
            .with_arguments(arguments.as_object().cloned().unwrap());
        serde_json::to_value(session.call_tool(params).await.unwrap()).unwrap()
    }

    const KEPT: &str = "the schema stays as the CLI declares it";

    async fn a_failing_function_keeps_the_declared_schema(http: Option<&[&str]>) {
        let dir = tempfile::tempdir().unwrap();
        let labels = dir.path().join("no-labels");
        let handler = Counts::default();
        let session = open(handler.clone(), fixture(&labels), http, None, KEPT).await;
        let declared = json!({
            "name": {"type": "string", "description": "The label (its values fetched every 300 ms)"},
            "also": {"type": "array", "items": {"type": "string"},
                     "description": "More labels (their values fetched once an hour, or when a \
                                     call gives one not fetched yet)"},
        });
        assert_eq!(properties(&session).await, declared);
        // Any label goes: clap's own check is all there is.
        let done = label(&session, json!({"name": "anything", "also": ["else"]})).await;
        assert_eq!(
            done["content"][0]["text"], "label anything [\"else\"]\n",
            "{done}"
        );
        assert_eq!(done["isError"], false, "{done}");
        // Fetched again (and failing again) past the TTL: still as declared,
        // and no client told of a change.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(properties(&session).await, declared);
        assert_eq!(handler.changed.load(Ordering::SeqCst), 0);
        await_count(&session.marked, 1, 5, "no warning that the schema stays").await;
        session.client.cancel().await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_function_keeps_the_declared_schema_over_stdio() {
        a_failing_function_keeps_the_declared_schema(None).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_function_keeps_the_declared_schema_over_stateless_http() {
        a_failing_function_keeps_the_declared_schema(Some(&["--stateless"])).await;
    }

    async fn new_values_are_announced(http: Option<&[&str]>) {
        let dir = tempfile::tempdir().unwrap();
        let labels = dir.path().join("labels");
        std::fs::write(&labels, "bug\ndocs\n").unwrap();
        let handler = Counts::default();
        let session = open(handler.clone(), fixture(&labels), http, None, "\u{0}").await;
        let enums = |properties: &Value| {
            (
                properties["name"]["enum"].clone(),
                properties["also"]["items"]["enum"].clone(),
            )
        };
        // The first list waits for the values.
        let listed = properties(&session).await;
        assert_eq!(
            enums(&listed),
            (json!(["bug", "docs"]), json!(["bug", "docs"]))
        );
        let refused = label(&session, json!({"name": "zzz"})).await;
        assert_eq!(refused["isError"], true, "{refused}");
        assert_eq!(handler.changed.load(Ordering::SeqCst), 0);

        // New values, and no call: `name`'s are fetched again within its
        // TTL (at most every second), and the client is told.
        std::fs::write(&labels, "bug\ndocs\nzzz\n").unwrap();
        await_count(
            &handler.changed,
            1,
            10,
            "no notifications/tools/list_changed",
        )
        .await;
        let listed = properties(&session).await;
        // `also`'s values hold an hour.
        assert_eq!(
            enums(&listed),
            (json!(["bug", "docs", "zzz"]), json!(["bug", "docs"]))
        );
        let done = label(&session, json!({"name": "zzz"})).await;
        assert_eq!(done["content"][0]["text"], "label zzz []\n", "{done}");

        // The function failing from then on keeps the values fetched
        // before, and nobody is told of a change.
        let told = handler.changed.load(Ordering::SeqCst);
        std::fs::remove_file(&labels).unwrap();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            enums(&properties(&session).await),
            (json!(["bug", "docs", "zzz"]), json!(["bug", "docs"]))
        );
        assert_eq!(handler.changed.load(Ordering::SeqCst), told);
        session.client.cancel().await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn new_values_are_announced_over_stdio() {
        new_values_are_announced(None).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn new_values_are_announced_over_http_with_sessions() {
        new_values_are_announced(Some(&[])).await;
    }
}

/// `Io::prompt` / `mcp_bridge::prompt` / `prompt_async` (the fixture's
/// `ask --name`, a question answered with a line of text) through rmcp's
/// client: answered by a client that can ask its user (an elicitation, or
/// under 2026-07-28 an `input_required` round), declined, and refused to
/// a client that cannot ask.
mod prompting {
    use std::sync::{Arc, Mutex};

    use rmcp::model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        Implementation, ProtocolVersion,
    };
    use rmcp::service::RequestContext;
    use rmcp::{ClientHandler, ClientLifecycleMode, ErrorData, RoleClient};
    use serde_json::{json, Value};

    use crate::own_client::{open, Session};

    /// A client whose user gives `reply` (an `ElicitResult`) to every
    /// question, kept in `asked`.
    #[derive(Clone)]
    struct Replies {
        reply: Value,
        asked: Arc<Mutex<Vec<Value>>>,
        version: Option<ProtocolVersion>,
    }

    impl Replies {
        fn new(reply: Value) -> Self {
            Self {
                reply,
                asked: Arc::default(),
                version: None,
            }
        }
    }

    impl ClientHandler for Replies {
        fn get_info(&self) -> ClientConfig {
            crate::eliciting("replies", self.version.as_ref())
        }

        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, ErrorData> {
            self.asked
                .lock()
                .unwrap()
                .push(serde_json::to_value(&request).unwrap());
            Ok(serde_json::from_value(self.reply.clone()).unwrap())
        }
    }

    fn fixture(handler: &str) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_fixture_cli"));
        cmd.args(["ai", "serve"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .env("FIXTURE_HANDLER", handler);
        cmd
    }

    async fn ask_name<H: ClientHandler>(session: &Session<H>) -> Value {
        let params = CallToolRequestParams::new("fixture_ask")
            .with_arguments(json!({"name": true}).as_object().cloned().unwrap());
        serde_json::to_value(session.call_tool(params).await.unwrap()).unwrap()
    }

    /// The question as the client got it: one text property, `answer`.
    fn assert_asked_for_a_name(asked: &[Value]) {
        assert_eq!(asked.len(), 1, "{asked:?}");
        assert_eq!(asked[0]["message"], "Your name?", "{asked:?}");
        let schema = &asked[0]["requestedSchema"];
        assert_eq!(schema["type"], "object", "{schema}");
        assert_eq!(schema["properties"]["answer"]["type"], "string", "{schema}");
        assert_eq!(schema["required"], json!(["answer"]), "{schema}");
    }

    async fn answered_and_declined(handler: &str, http: Option<&[&str]>, modern: bool) {
        let lifecycle = modern.then(|| ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        });
        let version = modern.then_some(ProtocolVersion::V_2026_07_28);
        let answers = Replies {
            version: version.clone(),
            ..Replies::new(json!({"action": "accept", "content": {"answer": "Ann"}}))
        };
        let session = open(
            answers.clone(),
            fixture(handler),
            http,
            lifecycle.clone(),
            "\u{0}",
        )
        .await;
        let named = ask_name(&session).await;
        assert_eq!(named["isError"], false, "{handler}: {named}");
        assert_eq!(
            named["content"],
            json!([{"type": "text", "text": "hello Ann\n"}]),
            "{handler}"
        );
        assert_asked_for_a_name(&answers.asked.lock().unwrap());
        session.client.cancel().await.unwrap();

        let declines = Replies {
            version,
            ..Replies::new(json!({"action": "decline"}))
        };
        let session = open(declines.clone(), fixture(handler), http, lifecycle, "\u{0}").await;
        let declined = ask_name(&session).await;
        assert_eq!(declined["isError"], true, "{handler}: {declined}");
        assert_eq!(
            declined["content"][0]["text"],
            "[stderr]\nerror: \"Your name?\" was declined\n[exit code 1]",
            "{handler}"
        );
        assert_asked_for_a_name(&declines.asked.lock().unwrap());
        session.client.cancel().await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_text_question_is_answered_over_stdio() {
        for handler in ["io", "plain", "async"] {
            answered_and_declined(handler, None, false).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_text_question_is_answered_over_http_with_sessions() {
        answered_and_declined("io", Some(&[]), false).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_text_question_is_answered_in_rounds_under_2026_07_28() {
        for handler in ["io", "plain", "async"] {
            answered_and_declined(handler, None, true).await;
        }
        answered_and_declined("io", Some(&["--stateless"]), true).await;
    }

    /// A client that declared no elicitation: the call fails saying why,
    /// with no flag to offer (a name has no default).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_cannot_ask_gets_an_error() {
        for handler in ["io", "plain", "async"] {
            let config = ClientConfig::new(
                ClientCapabilities::default(),
                Implementation::new("cannot-ask", "0.0.1"),
            );
            let session = open(config, fixture(handler), None, None, "\u{0}").await;
            let refused = ask_name(&session).await;
            assert_eq!(refused["isError"], true, "{handler}: {refused}");
            assert_eq!(
                refused["content"][0]["text"],
                "[stderr]\nerror: cannot ask \"Your name?\": the MCP client did not declare that \
                 it can ask its user (elicitation)\n[exit code 1]",
                "{handler}"
            );
            session.client.cancel().await.unwrap();
        }
    }
}
