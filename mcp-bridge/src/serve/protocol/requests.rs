//! How requests are told apart: the protocol era of a request, the methods
//! protocol 2026-07-28 removed, and the requests rmcp could not type (a
//! standard method with malformed params is answered as invalid params,
//! anything else as an unknown method).

use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;

use crate::trace::TraceContext;

/// Whether a request came under protocol 2026-07-28 or later: it carries
/// its version, the client's capabilities and its log level in its own
/// `_meta`, with no session behind it (and no server requests: questions go
/// in `input_required` results).
pub(crate) fn per_request(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version >= rmcp::model::ProtocolVersion::V_2026_07_28)
}

/// The trace context a request carries: `traceparent` and `tracestate`
/// in its `_meta` (SEP-414), or else, over HTTP, the request's headers of
/// the same names (W3C Trace Context).
pub(crate) fn trace_of(context: &RequestContext<RoleServer>) -> Option<TraceContext> {
    if let Some(parent) = context.meta.get_traceparent() {
        return TraceContext::received(Some(parent), context.meta.get_tracestate());
    }
    #[cfg(feature = "http")]
    if let Some(parts) = context.extensions.get::<axum::http::request::Parts>() {
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        return TraceContext::received(header("traceparent"), header("tracestate"));
    }
    None
}

/// The methods of the session era that protocol 2026-07-28 removed.
const REMOVED_IN_2026_07_28: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The answer to a removed method sent under 2026-07-28: unknown method
/// (`404` over HTTP).
pub(crate) fn removed_method(method: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("`{method}` does not exist in protocol 2026-07-28 and later"),
        None,
    )
}

/// The answer to a method whose capability the server does not declare.
pub(crate) fn undeclared_method(method: &str, capability: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("`{method}`: this server offers no {capability}"),
        None,
    )
}

/// The MCP methods a client may send to a server (`tasks/list` and
/// `tasks/result` are not: the Tasks extension dropped them, a task's
/// result comes with `tasks/get`).
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
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
    "resources/directory/read",
];

pub(crate) fn malformed_request_error(
    method: &str,
    params: Option<&Value>,
    per_request: bool,
) -> ErrorData {
    if per_request && REMOVED_IN_2026_07_28.contains(&method) {
        return removed_method(method);
    }
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

#[cfg(test)]
mod tests {
    use super::malformed_request_error;
    use rmcp::model::ErrorCode;

    #[test]
    fn the_task_methods_the_extension_dropped_are_unknown() {
        for method in ["tasks/list", "tasks/result", "no/such"] {
            let error = malformed_request_error(method, None, true);
            assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{method}");
        }
        let error = malformed_request_error("tasks/get", Some(&serde_json::json!([])), true);
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    }
}
