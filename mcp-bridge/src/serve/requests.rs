//! Requests rmcp could not type: a standard method with malformed params
//! is answered as invalid params, anything else as an unknown method.

use rmcp::ErrorData;
use serde_json::Value;

/// The MCP methods a client may send to a server.
const STANDARD_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
];

pub(crate) fn malformed_request_error(method: &str, params: Option<&Value>) -> ErrorData {
    if !STANDARD_METHODS.contains(&method) {
        return ErrorData::new(
            rmcp::model::ErrorCode::METHOD_NOT_FOUND,
            format!("unknown method `{method}`"),
            None,
        );
    }
    let detail = if method == "tools/call" {
        match params {
            None => "params are missing; send {\"name\": <tool>, \"arguments\": {...}}".to_owned(),
            Some(Value::Object(params)) => match (params.get("name"), params.get("arguments")) {
                (None, _) => "params.name is missing: give the tool name as a string".to_owned(),
                (Some(name), _) if !name.is_string() => {
                    format!("params.name must be a string, got {name}")
                }
                (_, Some(arguments)) if !arguments.is_object() => {
                    format!(
                        "params.arguments must be an object of argument values, got {arguments}"
                    )
                }
                _ => "params do not match the tools/call request".to_owned(),
            },
            Some(other) => format!("params must be an object, got {other}"),
        }
    } else {
        "params do not match the request".to_owned()
    };
    ErrorData::invalid_params(format!("{method}: {detail}"), None)
}
