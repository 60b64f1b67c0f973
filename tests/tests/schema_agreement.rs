//! The input schema a client sees and the build the server runs accept the
//! same calls, for every tool of the example and adoption CLIs, judged by
//! an independent validator (the `jsonschema` crate, formats checked):
//!
//! - **schema ⇒ acceptance**: objects generated from the tool's own input
//!   schema, alone (types, bounds, enums, lengths, list sizes, formats,
//!   required properties); every one that validates builds.
//! - **acceptance ⇒ schema**: the same objects with one thing broken (a
//!   wrong type, a bound ± 1, `null`, a fraction, an unknown key, a
//!   required key left out); every one that builds validates.
//!
//! A string with a `pattern` is drawn from the schema's `examples`: a
//! pattern states the notation, the parser has the last word (`1.2:99999`
//! matches the socket-address pattern and is no address).
//!
//! The one exception to schema ⇒ acceptance: an argument whose value goes
//! through the CLI's own parser function (`value_parser = parse_duration`)
//! has the schema of the function's type; which strings the function takes
//! only it knows. Those are listed in [`PARSER_OWNED`], and a call may be
//! refused there only by that function, with its own message.
//!
//! Also: `tools/list` is the same from two processes.

use std::collections::BTreeMap;

use mcp_bridge::{CallError, McpCommand, Problem, Registry};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{json, Map, Value};
use tests::fuzzing::{integral_as_integers, validator};

/// Arguments whose values the CLI's own parser function checks, by CLI
/// (the tool-name prefix) and property.
const PARSER_OWNED: &[(&str, &str)] = &[
    // `parse_duration`: a number and a unit.
    ("taskctl", "estimate"),
    // `parse_threads`: at most 256.
    ("seek", "threads"),
    // `ValueParser::new(non_empty)`.
    ("seek", "pre"),
    // `parse_timeout`: seconds, or minutes with `m`.
    ("conv", "timeout"),
    // `level_parser()`: 0 to 9.
    ("conv", "level"),
];

fn parser_owned(tool: &str, error: &CallError) -> bool {
    let CallError::InvalidArguments(error) = error else {
        return false;
    };
    let Some(property) = error.property.as_deref() else {
        return false;
    };
    let by_own_parser = matches!(
        &error.problem,
        Problem::Invalid {
            reason: Some(_),
            ..
        }
    );
    by_own_parser
        && PARSER_OWNED
            .iter()
            .any(|(cli, p)| tool.starts_with(cli) && *p == property)
}

/// Cases per tool and direction.
const CASES: u32 = 256;

/// The fixed seed: a failure reproduces (`PROPTEST_RNG_SEED` overrides).
const SEED: u64 = 0x5c4e_3a11_0b1d_9e27;

fn integer_json(n: i128) -> Value {
    if let Ok(small) = i64::try_from(n) {
        json!(small)
    } else if let Ok(unsigned) = u64::try_from(n) {
        json!(unsigned)
    } else {
        json!(n as f64)
    }
}

fn bound(schema: &Value, key: &str, fallback: i128) -> i128 {
    match &schema[key] {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .unwrap_or(fallback),
        _ => fallback,
    }
}

fn types(schema: &Value) -> Vec<&str> {
    match &schema["type"] {
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        Value::String(kind) => vec![kind.as_str()],
        _ => vec![],
    }
}

fn octets() -> impl Strategy<Value = String> {
    prop::array::uniform4(any::<u8>()).prop_map(|o| format!("{}.{}.{}.{}", o[0], o[1], o[2], o[3]))
}

fn ipv6() -> impl Strategy<Value = String> {
    prop::array::uniform8(any::<u16>()).prop_map(|g| {
        g.iter()
            .map(|part| format!("{part:x}"))
            .collect::<Vec<_>>()
            .join(":")
    })
}

/// Strings of the schema's length, of any characters.
fn text(schema: &Value) -> BoxedStrategy<Value> {
    let min = schema["minLength"].as_u64().unwrap_or(0) as usize;
    let max = schema["maxLength"]
        .as_u64()
        .map_or(min + 12, |m| m as usize);
    prop::collection::vec(any::<char>(), min..=max)
        .prop_map(|chars| Value::String(chars.into_iter().collect()))
        .boxed()
}

/// Values the schema describes (and, through the validator, keeps).
fn from_schema(schema: &Value) -> BoxedStrategy<Value> {
    if let Some(Value::Array(values)) = schema.get("enum") {
        return prop::sample::select(values.clone()).boxed();
    }
    let mut choices: Vec<BoxedStrategy<Value>> = Vec::new();
    for kind in types(schema) {
        choices.push(match kind {
            "null" => Just(Value::Null).boxed(),
            "boolean" => any::<bool>().prop_map(Value::Bool).boxed(),
            "integer" => {
                let min = bound(schema, "minimum", i64::MIN.into());
                let max = bound(schema, "maximum", u64::MAX.into());
                prop_oneof![
                    Just(min),
                    Just(max),
                    min..=max,
                    (min.max(-100))..=(max.min(100)).max(min.max(-100)),
                ]
                .prop_map(integer_json)
                .boxed()
            }
            "number" => prop_oneof![
                (-1e9f64..1e9).prop_map(|f| json!(f)),
                any::<i32>().prop_map(|n| json!(n)),
            ]
            .boxed(),
            "string" => string(schema),
            "array" => {
                let min = schema["minItems"].as_u64().unwrap_or(0) as usize;
                let max = schema["maxItems"].as_u64().map_or(min + 4, |m| m as usize);
                prop::collection::vec(from_schema(&schema["items"]), min..=max)
                    .prop_map(Value::Array)
                    .boxed()
            }
            "object" => prop::collection::btree_map(
                "[a-zA-Z_][a-zA-Z0-9_]{0,8}",
                from_schema(&schema["additionalProperties"]),
                0..4,
            )
            .prop_map(|map: BTreeMap<String, Value>| Value::Object(map.into_iter().collect()))
            .boxed(),
            other => panic!("a schema type the generator does not know: {other}"),
        });
    }
    assert!(!choices.is_empty(), "a schema without a type: {schema}");
    prop::strategy::Union::new(choices).boxed()
}

fn string(schema: &Value) -> BoxedStrategy<Value> {
    let examples: Vec<Value> = schema["examples"].as_array().cloned().unwrap_or_default();
    if schema.get("pattern").is_some() {
        assert!(!examples.is_empty(), "a pattern without examples: {schema}");
        return prop::sample::select(examples).boxed();
    }
    let formats: Vec<&str> = match (&schema["format"], &schema["anyOf"]) {
        (Value::String(format), _) => vec![format.as_str()],
        (_, Value::Array(alternatives)) => alternatives
            .iter()
            .filter_map(|a| a["format"].as_str())
            .collect(),
        _ => vec![],
    };
    if formats.is_empty() {
        return text(schema);
    }
    let choices: Vec<BoxedStrategy<Value>> = formats
        .into_iter()
        .map(|format| match format {
            "ipv4" => octets().prop_map(Value::String).boxed(),
            "ipv6" => ipv6().prop_map(Value::String).boxed(),
            other => panic!("a string format the generator does not know: {other}"),
        })
        .collect();
    prop::strategy::Union::new(choices).boxed()
}

/// A whole call: every required property, each optional one or not.
fn object(schema: &Value) -> BoxedStrategy<Map<String, Value>> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let properties = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = properties
        .iter()
        .map(|(name, property)| {
            let name = name.clone();
            let value = from_schema(property);
            if required.contains(&name.as_str()) {
                value.prop_map(move |v| Some((name.clone(), v))).boxed()
            } else {
                prop::option::weighted(0.4, value.prop_map(move |v| (name.clone(), v))).boxed()
            }
        })
        .collect();
    parts
        .prop_map(|entries| entries.into_iter().flatten().collect())
        .boxed()
}

/// One thing broken in a call.
#[derive(Debug, Clone)]
enum Break {
    /// This value for one property (by index).
    Set(prop::sample::Index, Value),
    /// An unknown key.
    Unknown(String),
    /// One property left out (by index).
    Remove(prop::sample::Index),
}

fn breaks() -> impl Strategy<Value = Break> {
    let hostile = prop_oneof![
        Just(Value::Null),
        Just(json!("7")),
        Just(json!(1.5)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(i64::MIN)),
        Just(json!(u64::MAX)),
        Just(json!("NaN")),
        Just(json!("")),
        Just(json!([])),
        Just(json!([null])),
        Just(json!({})),
        Just(json!(true)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<String>().prop_map(Value::String),
    ];
    prop_oneof![
        4 => (any::<prop::sample::Index>(), hostile).prop_map(|(i, v)| Break::Set(i, v)),
        1 => "[a-z-]{1,10}".prop_map(Break::Unknown),
        1 => any::<prop::sample::Index>().prop_map(Break::Remove),
    ]
}

/// `schema`'s property names: the keys a break picks from.
fn property_names(schema: &Value) -> Vec<String> {
    schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

fn broken(mut call: Map<String, Value>, names: &[String], what: &Break) -> Map<String, Value> {
    match what {
        Break::Set(index, value) if !names.is_empty() => {
            call.insert(index.get(names).clone(), value.clone());
        }
        Break::Unknown(key) => {
            call.insert(key.clone(), json!(1));
        }
        Break::Remove(index) if !call.is_empty() => {
            let key = index.get(&call.keys().cloned().collect::<Vec<_>>()).clone();
            call.remove(&key);
        }
        _ => {}
    }
    call
}

fn runner() -> TestRunner {
    let defaults = Config::default();
    TestRunner::new(Config {
        cases: CASES,
        rng_seed: match defaults.rng_seed {
            RngSeed::Random => RngSeed::Fixed(SEED),
            fixed => fixed,
        },
        failure_persistence: None,
        ..defaults
    })
}

fn agree<C: McpCommand>() {
    let registry = Registry::<C>::new().expect("unique tool names");
    // The exceptions name arguments that exist.
    for (cli, property) in PARSER_OWNED {
        let root = &registry.root().name;
        if cli == root {
            assert!(
                registry
                    .tools()
                    .any(|t| t.params.iter().any(|p| p.name == *property)),
                "PARSER_OWNED names `{property}`, which no tool of `{cli}` has"
            );
        }
    }
    let mut valid_calls = 0usize;
    let mut tools = 0usize;
    for tool in registry.tools() {
        tools += 1;
        let schema = Value::Object(tool.input_schema());
        let judge = validator(&schema);
        let names = property_names(&schema);

        // schema ⇒ acceptance
        let valid = std::cell::Cell::new(0usize);
        let result = runner().run(&object(&schema), |call| {
            if !judge.is_valid(&Value::Object(call.clone())) {
                // A relation (`allOf`) the independent choices broke.
                return Ok(());
            }
            valid.set(valid.get() + 1);
            match registry.build(&tool.name, &call) {
                Err(error) if parser_owned(&tool.name, &error) => return Ok(()),
                result => result,
            }
            .map(drop)
            .map_err(|e| {
                TestCaseError::fail(format!(
                    "`{}` refused a call its schema accepts: {}\n  call: {}\n  schema: {schema}",
                    tool.name,
                    e,
                    Value::Object(call.clone())
                ))
            })
        });
        if let Err(error) = result {
            panic!("{error}");
        }
        let valid = valid.get();
        assert!(
            valid * 4 >= CASES as usize,
            "`{}`: only {valid} of {CASES} generated calls validate; the generator misses the schema",
            tool.name
        );
        valid_calls += valid;

        // acceptance ⇒ schema
        let result = runner().run(&(object(&schema), breaks()), |(call, what)| {
            let call = broken(call, &names, &what);
            if registry.build(&tool.name, &call).is_err() {
                return Ok(());
            }
            let given = integral_as_integers(&Value::Object(call));
            let errors: Vec<String> = judge
                .iter_errors(&given)
                .map(|e| format!("{e} at {}", e.instance_path))
                .collect();
            prop_assert!(
                errors.is_empty(),
                "`{}` accepted a call its schema refuses ({what:?}):\n  call: {given}\n  {}\n  schema: {schema}",
                tool.name,
                errors.join("\n  ")
            );
            Ok(())
        });
        if let Err(error) = result {
            panic!("{error}");
        }
    }
    assert!(tools > 0 && valid_calls > 0);
}

#[test]
fn taskctl_schema_and_build_agree() {
    agree::<examples::taskctl::Cli>();
}

#[test]
fn awkward_schema_and_build_agree() {
    agree::<examples::awkward::Cli>();
}

#[test]
fn vcs_schema_and_build_agree() {
    agree::<tests::adopt::vcs::Vcs>();
}

#[test]
fn pkg_schema_and_build_agree() {
    agree::<tests::adopt::pkg::Pkg>();
}

#[test]
fn seek_schema_and_build_agree() {
    agree::<tests::adopt::seek::Seek>();
}

#[test]
fn conv_schema_and_build_agree() {
    agree::<tests::adopt::conv::Conv>();
}

#[test]
fn tools_list_is_the_same_from_two_processes() {
    let list = || {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_fixture_cli"))
            .args(["ai", "tools"])
            .env("FIXTURE_BRIDGE_NAME", "ai")
            .output()
            .expect("run `fixture ai tools`");
        assert!(output.status.success(), "{output:?}");
        output.stdout
    };
    let first = list();
    assert!(first.len() > 100);
    assert_eq!(first, list());
}
