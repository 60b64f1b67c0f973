//! Framing: one line of bytes → one rmcp message, or the JSON-RPC error
//! that answers it (with the request id whenever it can be read).

use rmcp::service::RxJsonRpcMessage;
use rmcp::RoleServer;
use serde::Deserialize;
use serde_json::{json, Value};

/// What to do with one received line.
#[derive(Debug)]
pub(crate) enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (blank line, or a notification we cannot read: a
    /// notification never gets a response).
    Skip,
    /// Answer with this JSON-RPC error response.
    Reply(Value),
}

/// Turns one line (without its newline) into a message or an error reply.
pub(crate) fn decode_line(line: &[u8]) -> Decoded {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Skip;
    }
    if let Some(message) = tool_call(line) {
        return Decoded::Message(Box::new(message));
    }
    match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(error) => {
            let parsed: Option<Value> = serde_json::from_slice(line).ok();
            let id = match &parsed {
                Some(value) => value.get("id").cloned().filter(is_valid_id),
                None => recover_id(line),
            };
            let is_notification = parsed
                .as_ref()
                .is_some_and(|v| v.get("method").is_some() && v.get("id").is_none());
            if is_notification {
                tracing::debug!("ignoring a notification that could not be read: {error}");
                return Decoded::Skip;
            }
            let (code, message) = match &parsed {
                Some(value) => what_is_wrong(value),
                None => (-32700, format!("Parse error: {error}")),
            };
            tracing::warn!("refusing an incoming line: {message}");
            Decoded::Reply(error_response(id, code, &message))
        }
    }
}

/// The keys that tell a message's kind, read without building anything.
#[derive(serde::Deserialize)]
struct Shape<'a> {
    #[serde(borrow, default)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    id: bool,
    #[serde(default, deserialize_with = "present")]
    result: bool,
    #[serde(default, deserialize_with = "present")]
    error: bool,
}

/// Whether a key is there, whatever its value (`null` included).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| true)
}

/// A `tools/call` request, read straight into its type: the message every
/// call is, read without trying the twenty other kinds of request rmcp's
/// untagged `ClientRequest` tries before it (each failure a formatted
/// error). The same types read it, so it is the message rmcp's own reading
/// gives; anything else, or a call that does not read, takes that reading.
fn tool_call(line: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
    use rmcp::model::{CallToolRequest, ClientRequest, JsonRpcMessage, JsonRpcRequest};
    let shape: Shape<'_> = serde_json::from_slice(line).ok()?;
    if shape.method.as_deref() != Some("tools/call") || !shape.id || shape.result || shape.error {
        return None;
    }
    let call: JsonRpcRequest<CallToolRequest> = serde_json::from_slice(line).ok()?;
    Some(JsonRpcMessage::Request(JsonRpcRequest {
        jsonrpc: call.jsonrpc,
        id: call.id,
        request: ClientRequest::CallToolRequest(call.request),
    }))
}

/// What is wrong with JSON that is not a JSON-RPC message rmcp can read:
/// the error code and a message saying what was expected.
fn what_is_wrong(value: &Value) -> (i64, String) {
    const INVALID: i64 = -32600;
    let Some(object) = value.as_object() else {
        return match value {
            Value::Array(_) => (
                INVALID,
                "Invalid Request: a batch (JSON array) is not a message; MCP has no batches \
                 since protocol 2025-06-18: send each message on its own"
                    .to_owned(),
            ),
            other => (
                INVALID,
                format!(
                    "Invalid Request: a message is a JSON object, got {}",
                    brief(other)
                ),
            ),
        };
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        let given = object.get("jsonrpc").map_or("nothing".to_owned(), brief);
        return (
            INVALID,
            format!("Invalid Request: \"jsonrpc\" must be \"2.0\", got {given}"),
        );
    }
    if let Some(id) = object.get("id").filter(|id| !is_valid_id(id)) {
        return (
            INVALID,
            format!(
                "Invalid Request: an id is a string or an integer, got {}",
                brief(id)
            ),
        );
    }
    match object.get("method") {
        Some(Value::String(method)) => match object.get("params") {
            Some(params) if !params.is_object() && !params.is_null() => (
                -32602,
                format!(
                    "Invalid params: the params of `{method}` are an object, got {}",
                    brief(params)
                ),
            ),
            _ => (
                -32602,
                format!("Invalid params: the params of `{method}` do not have the shape it takes"),
            ),
        },
        Some(other) => (
            INVALID,
            format!(
                "Invalid Request: \"method\" is a string, got {}",
                brief(other)
            ),
        ),
        None if object.contains_key("result") || object.contains_key("error") => (
            INVALID,
            "Invalid Request: a response has an id and either `result` or an `error` with \
             `code` and `message`"
                .to_owned(),
        ),
        None => (
            INVALID,
            "Invalid Request: a request needs a \"method\" (and an \"id\")".to_owned(),
        ),
    }
}

/// A JSON value as an error message shows it: its start when long.
fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        return text;
    }
    let start: String = text.chars().take(60).collect();
    format!("{start}…")
}

pub(crate) fn error_response(id: Option<Value>, code: i64, message: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": { "code": code, "message": message },
    })
}

fn is_valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// Finds the top-level `"id"` of a line that is not valid JSON (truncated,
/// nested too deep, or not UTF-8 — JSON's structure is ASCII, so invalid
/// bytes elsewhere do not hide it), scanning without building a value.
pub(crate) fn recover_id(line: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(line);
    let text = text.as_ref();
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let end = string_end(bytes, i)?;
                let key = &text[i + 1..end];
                i = end + 1;
                if depth == 1 && key == "id" {
                    let rest = text[i..].trim_start();
                    if let Some(rest) = rest.strip_prefix(':') {
                        return read_id_value(rest.trim_start());
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn read_id_value(text: &str) -> Option<Value> {
    if text.starts_with('"') {
        let end = string_end(text.as_bytes(), 0)?;
        return serde_json::from_str(&text[..=end]).ok();
    }
    // Take the whole number token (fractions and exponents included), so
    // `1.5` is not misread as `1`; only integers are valid ids.
    let end = text
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
        .unwrap_or(text.len());
    serde_json::from_str::<Value>(&text[..end])
        .ok()
        .filter(is_valid_id)
}

pub(crate) fn reply_bytes(reply: &Value) -> Vec<u8> {
    let mut bytes = reply.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `tools/call` fast path gives the message rmcp's own reading
    /// gives, and leaves every other line to it.
    #[test]
    fn a_tool_call_reads_as_rmcp_reads_it() {
        let calls = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":null}]}}}"#,
            r#"{"id":"s","method":"tools/call","jsonrpc":"2.0","params":{"name":"x","_meta":{"progressToken":3},"task":{"ttl":5}},"extra":1}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"x","inputResponses":{"q":{"action":"accept"}},"requestState":"s"}}"#,
        ];
        for line in calls {
            let fast = tool_call(line.as_bytes()).expect("read by the fast path");
            let rmcp: RxJsonRpcMessage<RoleServer> =
                serde_json::from_slice(line.as_bytes()).unwrap();
            assert_eq!(
                serde_json::to_value(&fast).unwrap(),
                serde_json::to_value(&rmcp).unwrap(),
                "{line}"
            );
            assert!(matches!(decode_line(line.as_bytes()), Decoded::Message(_)));
        }
        // Not calls, or not readable as one: rmcp decides.
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","result":null,"params":{"name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/call","params":{"name":"x"}}"#,
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
        ] {
            assert!(tool_call(line.as_bytes()).is_none(), "{line}");
        }
    }

    #[test]
    fn garbage_gets_a_parse_error_without_id() {
        let Decoded::Reply(reply) = decode_line(b"this is not json") else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], Value::Null);
    }

    #[test]
    fn truncated_request_keeps_its_id() {
        let Decoded::Reply(reply) =
            decode_line(br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"#)
        else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], 42);
    }

    #[test]
    fn too_deep_request_keeps_its_string_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{{"name":"x","arguments":{{"a":{}1{}}}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        let Decoded::Reply(reply) = decode_line(deep.as_bytes()) else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], "abc");
    }

    #[test]
    fn wrong_shape_gets_invalid_request_with_id() {
        let Decoded::Reply(reply) = decode_line(br#"{"jsonrpc":"2.0","id":7,"result":{"#) else {
            panic!()
        };
        assert_eq!(reply["id"], 7);
        let Decoded::Reply(reply) = decode_line(br#"{"id":8,"foo":true}"#) else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], 8);
    }

    #[test]
    fn fractional_ids_are_not_recovered() {
        assert_eq!(recover_id(br#"{"id":1.5,"method":"x","params":{"#), None);
        assert_eq!(recover_id(br#"{"id":1e3,"method":"x","params":{"#), None);
        assert_eq!(
            recover_id(br#"{"id": -4 ,"method":"x","params":{"#),
            Some(Value::from(-4))
        );
    }

    #[test]
    fn nested_id_is_not_taken_for_the_request_id() {
        assert_eq!(recover_id(br#"{"params":{"id":5},"method":"x""#), None);
    }

    #[test]
    fn invalid_utf8_keeps_its_id() {
        let mut line = br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"t":""#.to_vec();
        line.extend_from_slice(b"\xff\xfe");
        line.extend_from_slice(br#""}}}"#);
        let Decoded::Reply(reply) = decode_line(&line) else {
            panic!()
        };
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], 9);
    }

    #[test]
    fn blank_lines_are_skipped() {
        assert!(matches!(decode_line(b"  \r"), Decoded::Skip));
    }

    #[test]
    fn valid_request_is_a_message() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert!(matches!(decode_line(line), Decoded::Message(_)));
    }
}
