//! Strings with a format: durations and network addresses.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, lists::*, maps::*, scalars::*, strings::*, tools::*,
};

// Duration

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "durations")]
pub(crate) struct Durations {
    /// The parser whose notation the duration schema describes.
    #[arg(long, value_parser = humantime::parse_duration)]
    timeout: Duration,
    /// A parser of the CLI's own: a plain string, whatever it accepts.
    #[arg(long, value_parser = examples::taskctl::parse_duration, default_value = "90s")]
    retry: Duration,
}

/// The duration type the bridge declares for `humantime` durations: the
/// single source of the pattern and the examples.
fn declared_duration() -> Value {
    Value::Object(mcp_bridge::__private::value_types::duration().schema())
}

fn duration_examples() -> Vec<String> {
    declared_duration()["examples"]
        .as_array()
        .expect("a duration schema has examples")
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn only_humantime_durations_promise_the_duration_notation() {
    let declared = declared_duration();
    assert_eq!(declared["type"], "string");
    assert!(declared["pattern"]
        .as_str()
        .is_some_and(|p| p.starts_with('^') && p.ends_with('$')));
    assert!(!duration_examples().is_empty());
    let mut keys = declared.as_object().unwrap().keys().collect::<Vec<_>>();
    keys.sort();
    assert_eq!(keys, ["examples", "pattern", "type"]);

    let schema = input_schema::<Durations>("durations");
    let mut timeout = declared.clone();
    timeout["description"] = json!("The parser whose notation the duration schema describes");
    assert_eq!(schema["properties"]["timeout"], timeout);
    assert_eq!(
        schema["properties"]["retry"],
        json!({
            "type": "string",
            "default": "90s",
            "description": "A parser of the CLI's own: a plain string, whatever it accepts"
        })
    );
    assert_eq!(schema["required"], json!(["timeout"]));
    assert_clap_parity::<Durations>();
}

#[test]
fn durations_go_through_the_same_parser_as_clap() {
    let value = same::<Durations>(
        "durations",
        json!({ "timeout": "1h30m" }),
        &["durations", "--timeout", "1h30m"],
    );
    assert_eq!(value.timeout, Duration::from_secs(5400));
    assert_eq!(value.retry, Duration::from_secs(90));

    let expected = format!("a string like \"{}\"", duration_examples().join("\", \""));
    let error = arg_error::<Durations>("durations", json!({ "timeout": "soon" }));
    assert_invalid(&error, "durations", "timeout", &expected, "\"soon\"");
    // The parser's own message, as clap shows it.
    let why = reason(&error);
    assert!(!why.is_empty());
    let clap = clap_error::<Durations>(&["durations", "--timeout", "soon"]);
    assert!(
        clap.to_string().contains(&why),
        "`{clap}` should contain `{why}`"
    );

    let error = arg_error::<Durations>("durations", json!({ "timeout": 90 }));
    assert_invalid(&error, "durations", "timeout", &expected, "90");

    same::<Durations>(
        "durations",
        json!({ "timeout": "5s", "retry": "2m" }),
        &["durations", "--timeout", "5s", "--retry", "2m"],
    );
}

/// The schema never promises what the parser refuses: every advertised
/// example, and every sample the pattern accepts, is accepted by
/// `humantime` itself.
#[test]
fn the_duration_schema_promises_only_what_humantime_accepts() {
    for example in duration_examples() {
        same::<Durations>(
            "durations",
            json!({ "timeout": example }),
            &["durations", "--timeout", &example],
        );
    }
    let pattern = regex::Regex::new(declared_duration()["pattern"].as_str().unwrap()).unwrap();
    let samples = [
        "90s", "15m", "1h 30m", "2days", "1h30m", " 5 min ", "3 weeks", "1y 2M", "10ms", "7nsec",
        "soon", "", "5", "1.5h", "-5s", "5x", "h", "5 s 5",
    ];
    for sample in samples {
        if pattern.is_match(sample) {
            assert!(
                humantime::parse_duration(sample).is_ok(),
                "the pattern accepts {sample:?}, humantime refuses it"
            );
        }
    }
}

// Network addresses

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "net")]
pub(crate) struct Net {
    #[arg(long)]
    ip: Option<IpAddr>,
    #[arg(long)]
    v4: Option<Ipv4Addr>,
    #[arg(long)]
    v6: Option<Ipv6Addr>,
    #[arg(long)]
    addr: Option<SocketAddr>,
}

#[test]
fn addresses_are_formatted_strings() {
    let p = props::<Net>("net");
    assert_eq!(
        p["ip"],
        json!({
            "type": "string",
            "anyOf": [{ "format": "ipv4" }, { "format": "ipv6" }],
            "examples": ["127.0.0.1", "::1"]
        })
    );
    assert_eq!(p["v4"], json!({ "type": "string", "format": "ipv4" }));
    assert_eq!(p["v6"], json!({ "type": "string", "format": "ipv6" }));
    assert_eq!(
        p["addr"],
        json!({
            "type": "string",
            "pattern": r"^(\[[0-9A-Fa-f:.]+\]|[0-9.]+):[0-9]{1,5}$",
            "examples": ["127.0.0.1:8080", "[::1]:8080"]
        })
    );
    assert_clap_parity::<Net>();
}

#[test]
fn addresses_convert_like_clap() {
    let value = same::<Net>(
        "net",
        json!({ "ip": "::1", "v4": "10.0.0.1", "v6": "fe80::1", "addr": "[::1]:8080" }),
        &[
            "net",
            "--ip",
            "::1",
            "--v4",
            "10.0.0.1",
            "--v6",
            "fe80::1",
            "--addr",
            "[::1]:8080",
        ],
    );
    assert_eq!(value.ip, Some(IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1])));
    same::<Net>(
        "net",
        json!({ "ip": "192.168.1.1", "addr": "127.0.0.1:80" }),
        &["net", "--ip", "192.168.1.1", "--addr", "127.0.0.1:80"],
    );

    let cases = [
        ("ip", "nope", "a string in `ipv4` or `ipv6` format"),
        ("v4", "::1", "a string in `ipv4` format"),
        ("v4", "999.1.1.1", "a string in `ipv4` format"),
        ("v6", "10.0.0.1", "a string in `ipv6` format"),
        (
            "addr",
            "localhost",
            r#"a string like "127.0.0.1:8080", "[::1]:8080""#,
        ),
    ];
    for (property, given, expected) in cases {
        let error = arg_error::<Net>("net", json!({ property: given }));
        assert_invalid(&error, "net", property, expected, &format!("\"{given}\""));
        // The std parser's message is kept.
        assert!(reason(&error).contains("address syntax"), "{error}");
        clap_error::<Net>(&["net", &format!("--{property}"), given]);
    }
}
