//! What the fuzz targets (`tests/fuzz`, run with `cargo +nightly fuzz`)
//! check on one input. The same functions replay the committed seeds and
//! every crash found so far on stable (`tests/tests/fuzz_corpus.rs`), so a
//! machine without nightly still runs them.
//!
//! - [`arguments`]: arbitrary JSON arguments → the typed value, for every
//!   tool of every example and adoption CLI. A call either builds, and then
//!   its arguments validate against the tool's own input schema (checked by
//!   the `jsonschema` crate; a closed-set value the schema's `enum` leaves
//!   out passes only when clap accepts that spelling too: a value alias,
//!   a hidden value, another case under `ignore_case`), or is refused with an [`ArgError`] naming the
//!   tool and a property.
//! - [`lines`]: bytes → the stdio framing → the server. Every line gets
//!   exactly one answer (none for a notification or a response), carrying
//!   the request's id when the line has one; the session never ends with
//!   an error.
//!
//! Both panic (what the fuzzer reports as a crash) on a broken promise.

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use arbitrary::Unstructured;
use mcp_bridge::{ArgError, BridgeServer, CallError, Io, McpCommand, Problem, Registry};
use serde_json::{json, Map, Value};

/// A typed build with the value dropped: `Registry::build` of one CLI.
type Build = Box<dyn Fn(&str, &Map<String, Value>) -> Result<(), CallError> + Send + Sync>;

/// One CLI, type-erased: its tools and its build.
struct Cli {
    tools: Vec<Tool>,
    build: Build,
}

struct Tool {
    name: String,
    /// The offered property names: the dictionary keys are drawn from.
    properties: Vec<String>,
    /// The properties fixed for the tool (`#[mcp(args(...))]`): not
    /// offered, and refused by name when given.
    fixed: Vec<String>,
    /// Values near what the schema says: bounds and one past them, enum
    /// values, defaults, examples.
    near: Vec<Value>,
    schema: Value,
    validator: jsonschema::Validator,
    /// Per property, the spellings clap accepts for a value of a closed
    /// set beyond what the schema's `enum` lists (value aliases, hidden
    /// values, other cases under `ignore_case`): clap is the oracle.
    spellings: HashMap<String, Spellings>,
}

/// Every spelling clap accepts for an argument's possible values.
struct Spellings {
    names: Vec<String>,
    ignore_case: bool,
}

impl Spellings {
    fn accepts(&self, text: &str) -> bool {
        self.names.iter().any(|name| {
            if self.ignore_case {
                name.eq_ignore_ascii_case(text)
            } else {
                name == text
            }
        })
    }
}

/// The spellings clap accepts for each closed-set property of `tool`,
/// read from the clap command the tool runs (globals propagated).
fn spellings(
    root: &clap::Command,
    tool: &mcp_bridge::spec::ToolSpec,
) -> HashMap<String, Spellings> {
    let mut command = root;
    for name in tool.path.iter().skip(1) {
        match command.find_subcommand(name) {
            Some(sub) => command = sub,
            None => return HashMap::new(),
        }
    }
    tool.params
        .iter()
        .filter_map(|param| {
            let arg = command
                .get_arguments()
                .find(|arg| arg.get_id().as_str() == param.id)?;
            let names: Vec<String> = arg
                .get_possible_values()
                .iter()
                .flat_map(|value| value.get_name_and_aliases().map(str::to_owned))
                .collect();
            (!names.is_empty()).then(|| {
                let spellings = Spellings {
                    names,
                    ignore_case: arg.is_ignore_case_set(),
                };
                (param.name.clone(), spellings)
            })
        })
        .collect()
}

fn cli<C: McpCommand + 'static>() -> Cli {
    let registry = Registry::<C>::new().expect("the CLI's tool names are unique");
    let mut root = C::command();
    root.build();
    let tools = registry
        .tools()
        .map(|tool| {
            let schema = Value::Object(tool.input_schema());
            let mut near = Vec::new();
            collect_near(&schema, &mut near);
            Tool {
                name: tool.name.clone(),
                properties: tool
                    .params
                    .iter()
                    .filter(|p| !p.hidden)
                    .map(|p| p.name.clone())
                    .collect(),
                fixed: tool.fixed().map(|(name, _)| name.to_owned()).collect(),
                near,
                validator: validator(&schema),
                schema,
                spellings: spellings(&root, tool),
            }
        })
        .collect();
    Cli {
        tools,
        build: Box::new(move |tool, args| registry.build(tool, args).map(drop)),
    }
}

/// A validator of `schema` that checks `format` too (what a strict client
/// does).
pub fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("the input schema is a valid JSON Schema")
}

/// Every value a schema names: bounds (and one past), enum values,
/// constants, defaults and examples.
fn collect_near(schema: &Value, out: &mut Vec<Value>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match key.as_str() {
                    "minimum" | "maximum" | "minItems" | "maxItems" | "minLength" | "maxLength" => {
                        out.push(value.clone());
                        if let Some(n) = value.as_i64() {
                            out.push(json!(n.saturating_sub(1)));
                            out.push(json!(n.saturating_add(1)));
                        } else if let Some(n) = value.as_u64() {
                            out.push(json!(n.saturating_sub(1)));
                            out.push(json!(n as f64 * 2.0));
                        }
                    }
                    "enum" | "examples" => {
                        if let Some(items) = value.as_array() {
                            out.extend(items.iter().cloned());
                        }
                    }
                    "const" | "default" => out.push(value.clone()),
                    _ => {}
                }
                collect_near(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_near(item, out)),
        _ => {}
    }
}

static CLIS: LazyLock<Vec<Cli>> = LazyLock::new(|| {
    vec![
        cli::<examples::taskctl::Cli>(),
        cli::<examples::awkward::Cli>(),
        cli::<crate::adopt::vcs::Vcs>(),
        cli::<crate::adopt::pkg::Pkg>(),
        cli::<crate::adopt::seek::Seek>(),
        cli::<crate::adopt::conv::Conv>(),
    ]
});

/// Values that break converters: integer limits, floats JSON cannot carry
/// exactly, number-like and flag-like text, separators, control
/// characters, a long string.
fn hostile_value(index: usize) -> Value {
    const TEXTS: &[&str] = &[
        "",
        " ",
        "-",
        "--",
        "-1",
        "--x",
        "NaN",
        "inf",
        "-inf",
        "Infinity",
        "1e400",
        "0x10",
        "1_0",
        "+5",
        "05",
        "1.0",
        "true",
        "null",
        ",",
        "a,b",
        "a=b",
        "\u{0}",
        "\n",
        "\u{FEFF}",
        "\u{1F600}",
        "é",
        "127.0.0.1",
        "::1",
        "[::1]:80",
        "10s",
        "1h 2m",
        "/",
        "..",
        "~",
    ];
    match index % 12 {
        0 => json!(i64::MIN),
        1 => json!(i64::MAX),
        2 => json!(u64::MAX),
        3 => json!(-0.0),
        4 => json!(1.5),
        5 => json!(1e308),
        6 => json!(-1e308),
        7 => json!(f64::EPSILON),
        8 => json!(255),
        9 => json!(256),
        10 => json!("x".repeat(1000)),
        _ => json!(TEXTS[index / 12 % TEXTS.len()]),
    }
}

fn arbitrary_value(u: &mut Unstructured<'_>, tool: &Tool, depth: u32) -> arbitrary::Result<Value> {
    let choice = if depth == 0 {
        u.int_in_range(0..=7)?
    } else {
        u.int_in_range(0..=9)?
    };
    Ok(match choice {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(u.arbitrary::<i64>()?),
        3 => json!(u.arbitrary::<u64>()?),
        4 => serde_json::Number::from_f64(u.arbitrary()?).map_or(Value::Null, Value::Number),
        5 => Value::String(u.arbitrary()?),
        6 if !tool.near.is_empty() => tool.near[u.choose_index(tool.near.len())?].clone(),
        6 | 7 => hostile_value(u.arbitrary::<u16>()? as usize),
        8 => {
            let len = u.int_in_range(0..=6)?;
            let mut items = Vec::with_capacity(len);
            for _ in 0..len {
                items.push(arbitrary_value(u, tool, depth - 1)?);
            }
            Value::Array(items)
        }
        _ => Value::Object(arbitrary_object(u, tool, depth - 1)?),
    })
}

fn arbitrary_object(
    u: &mut Unstructured<'_>,
    tool: &Tool,
    depth: u32,
) -> arbitrary::Result<Map<String, Value>> {
    let len = u.int_in_range(0..=8)?;
    let mut object = Map::new();
    for _ in 0..len {
        let key = if !tool.properties.is_empty() && u.ratio(7, 8)? {
            tool.properties[u.choose_index(tool.properties.len())?].clone()
        } else {
            u.arbitrary()?
        };
        let value = arbitrary_value(u, tool, depth)?;
        object.insert(key, value);
    }
    Ok(object)
}

/// Fuzz target `arguments`: one arbitrary call of one tool.
pub fn arguments(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(cli) = u.choose(&CLIS) else { return };
    let Ok(tool) = u.choose(&cli.tools) else {
        return;
    };
    let Ok(args) = arbitrary_object(&mut u, tool, 3) else {
        return;
    };
    check_call(cli, tool, &args);
}

/// `value` with every number that has no fractional part written as an
/// integer. JSON Schema counts `1.0` as an integer, and so does the
/// `jsonschema` crate for `"type": "integer"`, but not for a list of types
/// (`["integer", "null"]`): this spares the oracle that quirk.
pub fn integral_as_integers(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64 => {
                json!(f as i64)
            }
            Some(f) if f.fract() == 0.0 && f >= 0.0 && f < u64::MAX as f64 => json!(f as u64),
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(integral_as_integers).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), integral_as_integers(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

fn check_call(cli: &Cli, tool: &Tool, args: &Map<String, Value>) {
    let given = Value::Object(args.clone());
    match (cli.build)(&tool.name, args) {
        Ok(()) => {
            let errors: Vec<String> = tool
                .validator
                .iter_errors(&integral_as_integers(&given))
                .filter(|e| !clap_spelling(tool, e))
                .map(|e| format!("{} at {}", e, e.instance_path))
                .collect();
            assert!(
                errors.is_empty(),
                "tool `{}` accepted arguments its input schema refuses:\n  arguments: {given}\n  \
                 schema: {}\n  {}",
                tool.name,
                tool.schema,
                errors.join("\n  ")
            );
        }
        Err(CallError::InvalidArguments(error)) => check_refusal(tool, args, &error),
        Err(other) => panic!(
            "tool `{}`: arguments {given} were refused without naming an argument: {other}",
            tool.name
        ),
    }
}

/// Whether a schema error is an `enum` refusing a spelling clap accepts
/// for that property (`md` for `markdown`): the call mirrors clap there.
fn clap_spelling(tool: &Tool, error: &jsonschema::ValidationError<'_>) -> bool {
    let (jsonschema::error::ValidationErrorKind::Enum { .. }, Value::String(text)) =
        (&error.kind, error.instance.as_ref())
    else {
        return false;
    };
    let path = error.instance_path.as_str();
    let property = path
        .strip_prefix('/')
        .and_then(|rest| rest.split('/').next())
        .map(|segment| segment.replace("~1", "/").replace("~0", "~"));
    property
        .and_then(|property| tool.spellings.get(&property))
        .is_some_and(|spellings| spellings.accepts(text))
}

fn check_refusal(tool: &Tool, args: &Map<String, Value>, error: &ArgError) {
    let message = error.to_string();
    assert_eq!(
        error.tool, tool.name,
        "the refusal names another tool: {message}"
    );
    assert!(
        message.starts_with(&format!("tool `{}`: ", tool.name)),
        "the refusal does not start with the tool: {message}"
    );
    let property = error
        .property
        .as_deref()
        .unwrap_or_else(|| panic!("the refusal names no property: {message}"));
    // An item of a list is named by its index (`paths[0]`).
    let base = match property.split_once('[') {
        Some((base, index)) if index.ends_with(']') => base,
        _ => property,
    };
    let known = tool.properties.iter().any(|p| p == base);
    match &error.problem {
        Problem::Unknown { .. } => assert!(
            args.contains_key(property) && !known,
            "`{property}` is called unknown but {}: {message}",
            if known {
                "the tool has it"
            } else {
                "it was not given"
            }
        ),
        // A fixed property given: refused by its name, as the call gave it.
        _ if tool.fixed.iter().any(|f| f == property) => assert!(
            args.contains_key(property) && message.contains("is fixed for this tool"),
            "`{property}` is fixed for `{}` but refused otherwise: {message}",
            tool.name
        ),
        _ => assert!(
            known,
            "the refusal names `{property}`, which is not a property of `{}`: {message}",
            tool.name
        ),
    }
}

// ---------------------------------------------------------------------------
// Lines through the stdio framing.

const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
"#;

static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
});

/// The awkward example's tools with a handler that prints the value it
/// was given: the subject is the framing, the server and the typed build,
/// not what the CLI does with its files.
static SERVER: LazyLock<BridgeServer> = LazyLock::new(|| {
    BridgeServer::new(|cli: examples::awkward::Cli, io: &mut Io| writeln!(io.out(), "{cli:?}"))
        .expect("awkward's tool names are unique")
});

/// How many answers one line may get.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Expect {
    min: usize,
    max: usize,
}

const NONE: Expect = Expect { min: 0, max: 0 };
const ONE: Expect = Expect { min: 1, max: 1 };
const MAYBE: Expect = Expect { min: 0, max: 1 };

fn is_id(value: &Value) -> bool {
    value.is_string() || value.is_i64() || value.is_u64()
}

/// What a line calls for, decided from JSON-RPC alone (not from how the
/// server frames it): its answers, and the id they carry when readable.
fn expectation(line: &[u8]) -> (Expect, Option<Value>) {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return (NONE, None);
    }
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return (ONE, None);
    };
    let Some(object) = value.as_object() else {
        return (ONE, None);
    };
    let id = object.get("id").filter(|id| is_id(id)).cloned();
    if object.contains_key("method") && !object.contains_key("id") {
        // A notification: never answered.
        return (NONE, None);
    }
    if !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"))
    {
        // A response to a request of the server's (there are none): rmcp
        // ignores one it can read; one it cannot is refused.
        return (MAYBE, id);
    }
    (ONE, id)
}

/// Fuzz target `lines`: a session of arbitrary lines. The first byte says
/// whether the session is initialized first; the rest is sent as it is.
pub fn lines(data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let mut input = Vec::new();
    if first & 1 == 1 {
        input.extend_from_slice(INITIALIZE);
    }
    input.extend_from_slice(body);
    let (answers, ended) = RUNTIME.block_on(session(input.clone()));
    if let Err(error) = ended {
        panic!(
            "the session ended with an error: {error}\ninput: {}",
            show(&input)
        );
    }
    check_answers(&input, &answers);
}

async fn session(input: Vec<u8>) -> (Vec<u8>, Result<(), String>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (client, ours) = tokio::io::duplex(1 << 16);
    let (server_in, server_out) = tokio::io::split(ours);
    let (mut from_server, mut to_server) = tokio::io::split(client);
    let serving = tokio::spawn(mcp_bridge::testing::serve_lines(
        SERVER.for_new_session(),
        server_in,
        server_out,
        Duration::from_secs(5),
    ));
    let reading = tokio::spawn(async move {
        let mut answers = Vec::new();
        let _ = from_server.read_to_end(&mut answers).await;
        answers
    });
    let _ = to_server.write_all(&input).await;
    let _ = to_server.shutdown().await;
    let limit = Duration::from_secs(20);
    let ended = match tokio::time::timeout(limit, serving).await {
        Ok(Ok(ended)) => ended,
        Ok(Err(panicked)) => Err(format!("the server panicked: {panicked}")),
        Err(_) => Err(format!("no end within {limit:?} after the input ended")),
    };
    drop(to_server);
    let answers = match tokio::time::timeout(limit, reading).await {
        Ok(Ok(answers)) => answers,
        _ => panic!("the answers never ended"),
    };
    (answers, ended)
}

fn show(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.chars().count() > 2000 {
        let start: String = text.chars().take(2000).collect();
        format!("{start}… ({} bytes)", bytes.len())
    } else {
        text.into_owned()
    }
}

fn check_answers(input: &[u8], output: &[u8]) {
    // Only complete lines are messages: a last line without its newline
    // ends with the input and is not read.
    let mut lines: Vec<&[u8]> = input.split(|b| *b == b'\n').collect();
    lines.pop();
    let mut min = 0;
    let mut max = 0;
    let mut owed: HashMap<String, usize> = HashMap::new();
    let mut cancelled: Vec<String> = Vec::new();
    for line in &lines {
        let (expect, id) = expectation(line);
        min += expect.min;
        max += expect.max;
        if let (1, Some(id)) = (expect.min, id) {
            *owed.entry(id.to_string()).or_default() += 1;
        }
        if let Ok(value) = serde_json::from_slice::<Value>(line) {
            if value["method"] == "notifications/cancelled" {
                cancelled.push(value["params"]["requestId"].to_string());
            }
        }
    }
    // A cancelled request gets no answer (if the cancellation came in
    // time): it may be owed none.
    for id in &cancelled {
        if let Some(n) = owed.get_mut(id) {
            if *n > 0 {
                *n -= 1;
                min -= 1;
            }
        }
    }
    let mut answers = 0;
    let mut ids: HashMap<String, usize> = HashMap::new();
    for line in output.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let message: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
            panic!(
                "the server wrote a line that is not JSON ({e}): {}",
                show(line)
            )
        });
        assert_eq!(message["jsonrpc"], "2.0", "not JSON-RPC 2.0: {message}");
        if message.get("method").is_some() {
            // A notification of the server's (a log, progress).
            continue;
        }
        assert!(
            message.get("result").is_some() != message.get("error").is_some(),
            "an answer needs exactly one of result and error: {message}"
        );
        answers += 1;
        *ids.entry(message["id"].to_string()).or_default() += 1;
    }
    let context = || format!("\ninput:\n{}\noutput:\n{}", show(input), show(output));
    assert!(
        (min..=max).contains(&answers),
        "{answers} answers, expected {}{}",
        if min == max {
            min.to_string()
        } else {
            format!("{min} to {max}")
        },
        context()
    );
    for (id, n) in &owed {
        let got = ids.get(id).copied().unwrap_or(0);
        assert!(
            got >= *n,
            "id {id} was sent in {n} request(s) and answered {got} time(s){}",
            context()
        );
    }
}

/// Bytes → `#[mcp(output = "...")]`'s parsers (the first byte picks the
/// format, the rest is what the command printed). Oracle: no panic; JSON
/// parses exactly when serde_json reads the text; every non-empty line is
/// one item of `lines`; every row of a table has the header's columns.
pub fn output(data: &[u8]) {
    use mcp_bridge::spec::OutputFormat;
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let format = match pick % 4 {
        0 => OutputFormat::Json,
        1 => OutputFormat::Yaml,
        2 => OutputFormat::Table,
        _ => OutputFormat::Lines,
    };
    let parsed = mcp_bridge::testing::structured_output(format, &text);
    match format {
        OutputFormat::Json => assert_eq!(
            parsed.is_ok(),
            serde_json::from_str::<Value>(&text).is_ok(),
            "JSON parses exactly when serde_json reads it: {text:?}"
        ),
        OutputFormat::Lines => {
            let lines = parsed.expect("lines always parse");
            let expected = text.lines().filter(|l| !l.trim().is_empty()).count();
            assert_eq!(lines["lines"].as_array().map(Vec::len), Some(expected));
        }
        OutputFormat::Table => {
            if let Ok(table) = parsed {
                let rows = table["rows"].as_array().expect("rows");
                if let Some(first) = rows.first() {
                    let columns: Vec<&String> = first.as_object().expect("a row").keys().collect();
                    for row in rows {
                        let keys: Vec<&String> = row.as_object().expect("a row").keys().collect();
                        assert_eq!(keys, columns, "every row has the header's columns");
                    }
                }
            }
        }
        _ => {}
    }
}
