//! `taskctl mcp serve` driven by rmcp's own client, one suite
//! (`common/rmcp_suite.rs`) over each transport: stdio, Streamable HTTP
//! with sessions, and stateless Streamable HTTP. What works over one works
//! the same over the others.

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

/// A client that can ask its user: taskctl's `task remove` of a task that
/// is not done asks (an elicitation), and this user says yes.
mod asking {
    use std::sync::{Arc, Mutex};

    use rmcp::model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        ElicitationAction, ElicitationCapability, Implementation, ProtocolVersion,
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
            let mut capabilities = ClientCapabilities::default();
            capabilities.elicitation = Some(ElicitationCapability::new());
            let config = ClientConfig::new(capabilities, Implementation::new("says-yes", "0.0.1"));
            match &self.version {
                Some(version) => config.with_protocol_version(version.clone()),
                None => config,
            }
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
