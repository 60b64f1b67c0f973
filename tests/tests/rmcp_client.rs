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
        ElicitationAction, ElicitationCapability, Implementation,
    };
    use rmcp::service::RequestContext;
    use rmcp::transport::TokioChildProcess;
    use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
    use serde_json::json;

    #[derive(Clone, Default)]
    struct SaysYes {
        asked: Arc<Mutex<Vec<String>>>,
    }

    impl ClientHandler for SaysYes {
        fn get_info(&self) -> ClientConfig {
            let mut capabilities = ClientCapabilities::default();
            capabilities.elicitation = Some(ElicitationCapability::new());
            ClientConfig::new(capabilities, Implementation::new("says-yes", "0.0.1"))
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

    #[tokio::test]
    async fn a_question_is_asked_and_answered() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = tokio::process::Command::new(crate::common::taskctl());
        cmd.args(["mcp", "serve"])
            .current_dir(dir.path())
            .env("MCP_BRIDGE_LOG", "warn")
            .kill_on_drop(true);
        let transport = TokioChildProcess::new(cmd).expect("spawn taskctl mcp serve");
        let handler = SaysYes::default();
        let client = handler
            .clone()
            .serve(transport)
            .await
            .expect("the session opens");
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
        client.cancel().await.unwrap();
    }
}
