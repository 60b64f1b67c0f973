//! How field types and `#[arg]` attributes map to JSON Schema properties,
//! and how JSON values are converted back into the typed CLI value.
//!
//! Every CLI here derives clap's traits *and* `McpTool`, so clap is the
//! oracle: a JSON call that builds must give exactly the value clap parses
//! from the equivalent argv, and a value clap refuses must be refused too.
//! Errors must name the tool and the property and say what was expected
//! and what was given.

use std::collections::HashMap;
use std::error::Error;
use std::ffi::OsString;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use clap::{ArgAction, Args, CommandFactory, Parser, Subcommand, ValueEnum};
use mcp_bridge::spec::CommandSpec;
use mcp_bridge::{ArgError, CallError, McpCommand, McpTool, Problem, Registry};
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Helpers.

fn registry<C: McpCommand>() -> Registry<C> {
    Registry::<C>::new().expect("no duplicate tool names")
}

fn tool_names<C: McpCommand>() -> Vec<String> {
    registry::<C>().tools().map(|t| t.name.clone()).collect()
}

/// The whole input schema of `tool`.
fn input_schema<C: McpCommand>(tool: &str) -> Value {
    let registry = registry::<C>();
    let spec = registry
        .tool(tool)
        .unwrap_or_else(|| panic!("no tool `{tool}`; tools: {:?}", tool_names::<C>()));
    Value::Object(spec.input_schema())
}

/// The `properties` of `tool`'s input schema.
fn props<C: McpCommand>(tool: &str) -> Value {
    input_schema::<C>(tool)["properties"].clone()
}

fn build<C: McpCommand>(tool: &str, args: &Value) -> Result<C, CallError> {
    registry::<C>().build(tool, args.as_object().expect("arguments are an object"))
}

fn built<C: McpCommand + Debug>(tool: &str, args: Value) -> C {
    build::<C>(tool, &args).unwrap_or_else(|e| panic!("{tool} refused {args}: {e}"))
}

fn arg_error<C: McpCommand + Debug>(tool: &str, args: Value) -> ArgError {
    match build::<C>(tool, &args) {
        Err(CallError::InvalidArguments(error)) => error,
        Err(other) => panic!("{tool} {args}: expected an argument error, got {other}"),
        Ok(value) => panic!("{tool} accepted {args} as {value:?}"),
    }
}

fn clap_parse<C: Parser>(argv: &[&str]) -> C {
    C::try_parse_from(argv).unwrap_or_else(|e| panic!("clap refused {argv:?}: {e}"))
}

fn clap_error<C: Parser + Debug>(argv: &[&str]) -> clap::Error {
    match C::try_parse_from(argv) {
        Ok(value) => panic!("clap accepted {argv:?} as {value:?}"),
        Err(error) => error,
    }
}

/// Builds `args` for `tool`, parses `argv` with clap, and asserts both give
/// the same value.
fn same<C: McpCommand + Debug + PartialEq>(tool: &str, args: Value, argv: &[&str]) -> C {
    let ours = built::<C>(tool, args.clone());
    let theirs = clap_parse::<C>(argv);
    assert_eq!(ours, theirs, "JSON {args} and argv {argv:?} disagree");
    ours
}

/// Asserts an `Invalid` error about `property` of `tool`, whose message
/// says what was expected and what was given.
#[track_caller]
fn assert_invalid(error: &ArgError, tool: &str, property: &str, expected: &str, given: &str) {
    let text = error.to_string();
    assert_eq!(error.tool, tool, "{text}");
    assert_eq!(error.property.as_deref(), Some(property), "{text}");
    assert!(
        matches!(error.problem, Problem::Invalid { .. }),
        "not an Invalid problem: {error:?}"
    );
    for part in [
        format!("tool `{tool}`"),
        format!("property `{property}`"),
        format!("expected {expected}"),
        format!("got {given}"),
    ] {
        assert!(text.contains(&part), "`{text}` should contain `{part}`");
    }
}

/// The parser's own explanation attached to an `Invalid` error.
fn reason(error: &ArgError) -> String {
    match &error.problem {
        Problem::Invalid {
            reason: Some(reason),
            ..
        } => reason.clone(),
        other => panic!("no parser reason in {other:?}"),
    }
}

/// Compares the derived command tree with clap's: names, help texts, the
/// long/short names, required, hidden, of every command and argument.
fn assert_clap_parity<C: McpCommand + CommandFactory>() {
    fn walk(spec: &CommandSpec, cmd: &clap::Command) {
        let at = cmd.get_name();
        assert_eq!(spec.name, at);
        assert_eq!(
            spec.about,
            cmd.get_about().map(ToString::to_string),
            "about of `{at}`"
        );
        assert_eq!(
            spec.long_about,
            cmd.get_long_about().map(ToString::to_string),
            "long_about of `{at}`"
        );
        assert_eq!(spec.hidden, cmd.is_hide_set(), "hidden of `{at}`");
        for param in &spec.params {
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_id().as_str() == param.id)
                .unwrap_or_else(|| panic!("clap has no argument `{}` in `{at}`", param.id));
            let what = format!("argument `{}` of `{at}`", param.id);
            match &param.kind {
                mcp_bridge::spec::ParamKind::Flag { long, short } => {
                    assert_eq!(long.as_deref(), arg.get_long(), "long of {what}");
                    assert_eq!(*short, arg.get_short(), "short of {what}");
                }
                mcp_bridge::spec::ParamKind::Positional => {
                    assert!(arg.is_positional(), "{what} is positional for clap");
                }
            }
            assert_eq!(param.required, arg.is_required_set(), "required of {what}");
            assert_eq!(param.global, arg.is_global_set(), "global of {what}");
            let help = arg
                .get_long_help()
                .or(arg.get_help())
                .map(ToString::to_string);
            if param.description != help {
                // Only `#[mcp(description)]` may differ from clap's help.
                assert!(param.description.is_some(), "help of {what}: {help:?}");
            }
        }
        for sub in &spec.subcommands {
            let clap_sub = cmd
                .find_subcommand(&sub.name)
                .unwrap_or_else(|| panic!("clap has no subcommand `{}` in `{at}`", sub.name));
            walk(sub, clap_sub);
        }
    }
    walk(&C::command_spec(), &C::command());
}

// ---------------------------------------------------------------------------
// Strings: String, PathBuf, OsString, a FromStr type, a `value_parser` fn.

/// A colour written `#rrggbb`; parsed by its `FromStr`.
#[derive(Debug, Clone, PartialEq)]
struct Rgb(u8, u8, u8);

impl FromStr for Rgb {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let hex = s
            .strip_prefix('#')
            .ok_or_else(|| format!("`{s}` does not start with `#`"))?;
        if hex.len() != 6 || !hex.is_ascii() {
            return Err(format!("`{s}` needs six hex digits"));
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string());
        Ok(Rgb(byte(0)?, byte(2)?, byte(4)?))
    }
}

/// A URL slug; parsed only by a `value_parser` function.
#[derive(Debug, Clone, PartialEq)]
struct Slug(String);

fn parse_slug(s: &str) -> Result<Slug, String> {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        Ok(Slug(s.to_owned()))
    } else {
        Err(format!(
            "`{s}` is not a slug: use lowercase letters, digits and `-`"
        ))
    }
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "strings")]
struct Strings {
    #[arg(long)]
    text: Option<String>,
    #[arg(long)]
    path: Option<PathBuf>,
    #[arg(long)]
    os: Option<OsString>,
    #[arg(long)]
    color: Option<Rgb>,
    #[arg(long, value_parser = parse_slug)]
    slug: Option<Slug>,
}

#[test]
fn string_like_types_are_strings() {
    let p = props::<Strings>("strings");
    assert_eq!(p["text"], json!({ "type": "string" }));
    // An empty path is refused, as clap's PathBuf parser does.
    assert_eq!(p["path"], json!({ "type": "string", "minLength": 1 }));
    assert_eq!(p["os"], json!({ "type": "string" }));
    assert_eq!(p["color"], json!({ "type": "string" }));
    assert_eq!(p["slug"], json!({ "type": "string" }));
    assert_eq!(input_schema::<Strings>("strings").get("required"), None);
    assert_clap_parity::<Strings>();
}

#[test]
fn string_like_values_convert_like_clap() {
    let value = same::<Strings>(
        "strings",
        json!({
            "text": "hello world",
            "path": "dir/file.txt",
            "os": "raw bytes",
            "color": "#ff8000",
            "slug": "my-post-1",
        }),
        &[
            "strings",
            "--text",
            "hello world",
            "--path",
            "dir/file.txt",
            "--os",
            "raw bytes",
            "--color",
            "#ff8000",
            "--slug",
            "my-post-1",
        ],
    );
    assert_eq!(value.color, Some(Rgb(255, 128, 0)));
    assert_eq!(value.slug, Some(Slug("my-post-1".into())));

    // Values are taken literally: nothing is re-parsed as a flag.
    let value = same::<Strings>(
        "strings",
        json!({ "text": "--help; rm -rf /", "os": "" }),
        &["strings", "--text=--help; rm -rf /", "--os="],
    );
    assert_eq!(value.text.as_deref(), Some("--help; rm -rf /"));
    assert_eq!(value.os, Some(OsString::new()));

    same::<Strings>("strings", json!({}), &["strings"]);
}

#[test]
fn empty_path_is_refused_like_clap() {
    let error = arg_error::<Strings>("strings", json!({ "path": "" }));
    assert_invalid(&error, "strings", "path", "a non-empty path", "\"\"");
    clap_error::<Strings>(&["strings", "--path="]);
}

#[test]
fn from_str_errors_carry_the_parsers_message() {
    let error = arg_error::<Strings>("strings", json!({ "color": "red" }));
    assert_invalid(&error, "strings", "color", "a valid string", "\"red\"");
    let why = reason(&error);
    assert_eq!(why, "`red` does not start with `#`");
    assert!(error.to_string().contains(&why));
    // clap reports the same parser message.
    let clap = clap_error::<Strings>(&["strings", "--color", "red"]);
    assert!(clap.to_string().contains(&why), "{clap}");
}

#[test]
fn value_parser_fn_errors_carry_the_parsers_message() {
    let error = arg_error::<Strings>("strings", json!({ "slug": "Not A Slug" }));
    assert_invalid(
        &error,
        "strings",
        "slug",
        "a valid string",
        "\"Not A Slug\"",
    );
    let why = reason(&error);
    assert_eq!(
        why,
        "`Not A Slug` is not a slug: use lowercase letters, digits and `-`"
    );
    assert!(error.to_string().contains(&why));
    let clap = clap_error::<Strings>(&["strings", "--slug", "Not A Slug"]);
    assert!(clap.to_string().contains(&why), "{clap}");
}

#[test]
fn non_strings_are_refused_for_strings_never_stringified() {
    for property in ["text", "path", "os", "color", "slug"] {
        for (given, shown) in [
            (json!({ "a": 1 }), r#"{"a":1}"#),
            (json!(["x"]), r#"["x"]"#),
            (json!(5), "5"),
            (json!(true), "true"),
        ] {
            let error = arg_error::<Strings>("strings", json!({ property: given }));
            assert_eq!(error.property.as_deref(), Some(property), "{error}");
            assert!(
                error.to_string().contains(&format!("got {shown}")),
                "{error}"
            );
            assert!(error.to_string().contains("tool `strings`"), "{error}");
        }
    }
    let error = arg_error::<Strings>("strings", json!({ "text": { "a": 1 } }));
    assert_invalid(&error, "strings", "text", "a string", r#"{"a":1}"#);
}

// ---------------------------------------------------------------------------
// char

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "chars")]
struct Chars {
    #[arg(long)]
    sep: Option<char>,
    #[arg(long, default_value_t = ',')]
    delim: char,
}

#[test]
fn char_is_a_one_character_string() {
    let p = props::<Chars>("chars");
    assert_eq!(
        p["sep"],
        json!({ "type": "string", "minLength": 1, "maxLength": 1 })
    );
    assert_eq!(
        p["delim"],
        json!({ "type": "string", "minLength": 1, "maxLength": 1, "default": "," })
    );
    assert_clap_parity::<Chars>();

    same::<Chars>("chars", json!({}), &["chars"]);
    let value = same::<Chars>(
        "chars",
        json!({ "sep": "é", "delim": ";" }),
        &["chars", "--sep", "é", "--delim", ";"],
    );
    assert_eq!((value.sep, value.delim), (Some('é'), ';'));

    for bad in ["ab", ""] {
        let error = arg_error::<Chars>("chars", json!({ "sep": bad }));
        assert_invalid(
            &error,
            "chars",
            "sep",
            "a single character",
            &format!("{:?}", bad),
        );
    }
    clap_error::<Chars>(&["chars", "--sep", "ab"]);
    let error = arg_error::<Chars>("chars", json!({ "sep": 7 }));
    assert_invalid(&error, "chars", "sep", "a single character", "7");
}

// ---------------------------------------------------------------------------
// bool flags

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "flags")]
struct Flags {
    /// Say more
    #[arg(short, long)]
    verbose: bool,
    /// Turn colours off
    #[arg(long = "no-color", action = ArgAction::SetFalse)]
    color: bool,
}

#[test]
fn bool_flags_are_optional_booleans_defaulting_to_false() {
    let schema = input_schema::<Flags>("flags");
    assert_eq!(
        schema["properties"]["verbose"],
        json!({ "type": "boolean", "description": "Say more", "default": false })
    );
    assert_eq!(
        schema["properties"]["no-color"],
        json!({ "type": "boolean", "description": "Turn colours off", "default": false })
    );
    assert_eq!(schema.get("required"), None, "flags are never required");
    assert_clap_parity::<Flags>();
}

#[test]
fn true_means_the_flag_is_given() {
    let value = same::<Flags>("flags", json!({}), &["flags"]);
    assert_eq!((value.verbose, value.color), (false, true));
    let value = same::<Flags>(
        "flags",
        json!({ "verbose": true, "no-color": true }),
        &["flags", "--verbose", "--no-color"],
    );
    assert_eq!((value.verbose, value.color), (true, false));
    same::<Flags>(
        "flags",
        json!({ "verbose": false, "no-color": false }),
        &["flags"],
    );

    for given in [json!("yes"), json!(1), json!(null)] {
        let shown = given.to_string();
        let error = arg_error::<Flags>("flags", json!({ "verbose": given }));
        assert_invalid(&error, "flags", "verbose", "a boolean", &shown);
    }
}

/// `bool` with `ArgAction::Set` takes a value (`--enabled true`); without a
/// default clap requires it, like any other plain-typed option.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "setbool")]
struct SetBool {
    #[arg(long, action = ArgAction::Set)]
    enabled: bool,
    #[arg(long, action = ArgAction::Set, default_value_t = true)]
    cache: bool,
}

#[test]
fn bool_with_set_action_takes_a_boolean_value() {
    let p = props::<SetBool>("setbool");
    assert_eq!(p["enabled"], json!({ "type": "boolean" }));
    assert_eq!(p["cache"], json!({ "type": "boolean", "default": true }));
    let value = same::<SetBool>(
        "setbool",
        json!({ "enabled": false, "cache": false }),
        &["setbool", "--enabled", "false", "--cache", "false"],
    );
    assert_eq!((value.enabled, value.cache), (false, false));
    let value = same::<SetBool>(
        "setbool",
        json!({ "enabled": true }),
        &["setbool", "--enabled", "true"],
    );
    assert_eq!((value.enabled, value.cache), (true, true));
    let error = arg_error::<SetBool>("setbool", json!({ "enabled": "true" }));
    assert_invalid(&error, "setbool", "enabled", "a boolean", "\"true\"");
    // Absent without default: refused, as clap refuses it.
    let error = arg_error::<SetBool>("setbool", json!({}));
    assert_eq!(
        error.to_string(),
        "tool `setbool`: missing required property `enabled` (expected a boolean)"
    );
    clap_error::<SetBool>(&["setbool"]);
}

#[test]
fn bool_with_set_action_and_no_default_is_required_like_clap() {
    assert!(SetBool::command()
        .get_arguments()
        .find(|a| a.get_id() == "enabled")
        .unwrap()
        .is_required_set());
    assert_eq!(
        input_schema::<SetBool>("setbool")["required"],
        json!(["enabled"])
    );
    assert_clap_parity::<SetBool>();
}

// ---------------------------------------------------------------------------
// Integers

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "ints")]
struct Ints {
    #[arg(long = "i8")]
    v_i8: Option<i8>,
    #[arg(long = "i16")]
    v_i16: Option<i16>,
    #[arg(long = "i32")]
    v_i32: Option<i32>,
    #[arg(long = "i64")]
    v_i64: Option<i64>,
    #[arg(long = "i128")]
    v_i128: Option<i128>,
    #[arg(long = "isize")]
    v_isize: Option<isize>,
    #[arg(long = "u8")]
    v_u8: Option<u8>,
    #[arg(long = "u16")]
    v_u16: Option<u16>,
    #[arg(long = "u32")]
    v_u32: Option<u32>,
    #[arg(long = "u64")]
    v_u64: Option<u64>,
    #[arg(long = "u128")]
    v_u128: Option<u128>,
    #[arg(long = "usize")]
    v_usize: Option<usize>,
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=100))]
    percent: Option<u16>,
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..100))]
    below: Option<u16>,
    #[arg(long, value_parser = clap::value_parser!(i64).range(-5..=5))]
    offset: Option<i64>,
}

#[test]
fn integer_schemas_carry_the_types_bounds() {
    let p = props::<Ints>("ints");
    let bounded = |min: i64, max: u64| json!({ "type": "integer", "minimum": min, "maximum": max });
    assert_eq!(p["i8"], bounded(-128, 127));
    assert_eq!(p["i16"], bounded(-32768, 32767));
    assert_eq!(p["i32"], bounded(-2147483648, 2147483647));
    assert_eq!(p["u8"], bounded(0, 255));
    assert_eq!(p["u16"], bounded(0, 65535));
    assert_eq!(p["u32"], bounded(0, 4294967295));
    // 64-bit types show both bounds (JSON carries them exactly); wider
    // types show only the bounds that fit in 64 bits.
    for unsigned in ["u64", "usize"] {
        assert_eq!(p[unsigned], bounded(0, u64::MAX), "{unsigned}");
    }
    assert_eq!(p["u128"], json!({ "type": "integer", "minimum": 0 }));
    assert_eq!(p["i128"], json!({ "type": "integer" }));
    for signed in ["i64", "isize"] {
        assert_eq!(p[signed], bounded(i64::MIN, i64::MAX as u64), "{signed}");
    }
    // `value_parser!(T).range(..)`.
    assert_eq!(p["percent"], bounded(1, 100));
    assert_eq!(p["below"], bounded(1, 99));
    assert_eq!(
        p["offset"],
        json!({ "type": "integer", "minimum": -5, "maximum": 5 })
    );
    assert_eq!(input_schema::<Ints>("ints").get("required"), None);
    assert_clap_parity::<Ints>();
}

#[test]
fn integers_in_range_convert_like_clap() {
    let cases: &[(&str, Value)] = &[
        ("i8", json!(-128)),
        ("i8", json!(127)),
        ("i16", json!(-32768)),
        ("i16", json!(32767)),
        ("i32", json!(i32::MIN)),
        ("i32", json!(i32::MAX)),
        ("i64", json!(i64::MIN)),
        ("i64", json!(i64::MAX)),
        ("i128", json!(i64::MIN)),
        ("i128", json!(u64::MAX)),
        ("isize", json!(i64::MIN)),
        ("isize", json!(i64::MAX)),
        ("u8", json!(0)),
        ("u8", json!(255)),
        ("u16", json!(65535)),
        ("u32", json!(u32::MAX)),
        ("u64", json!(u64::MAX)),
        ("u128", json!(u64::MAX)),
        ("usize", json!(u64::MAX)),
        ("percent", json!(1)),
        ("percent", json!(100)),
        ("below", json!(99)),
        ("offset", json!(-5)),
        ("offset", json!(5)),
    ];
    for (property, value) in cases {
        let flag = format!("--{property}={value}");
        same::<Ints>("ints", json!({ *property: value }), &["ints", &flag]);
    }
    let value = built::<Ints>("ints", json!({ "u64": u64::MAX, "i8": -1, "usize": 3 }));
    assert_eq!(value.v_u64, Some(u64::MAX));
    assert_eq!(value.v_i8, Some(-1));
    assert_eq!(value.v_usize, Some(3));
}

#[test]
fn integers_out_of_range_are_refused_like_clap() {
    let cases: &[(&str, Value, &str)] = &[
        ("i8", json!(128), "an integer from -128 to 127"),
        ("i8", json!(-129), "an integer from -128 to 127"),
        ("i16", json!(32768), "an integer from -32768 to 32767"),
        (
            "i32",
            json!(2147483648_i64),
            "an integer from -2147483648 to 2147483647",
        ),
        ("u8", json!(-1), "an integer from 0 to 255"),
        ("u8", json!(256), "an integer from 0 to 255"),
        ("u16", json!(65536), "an integer from 0 to 65535"),
        ("u32", json!(-1), "an integer from 0 to 4294967295"),
        (
            "u32",
            json!(4294967296_u64),
            "an integer from 0 to 4294967295",
        ),
        ("u64", json!(-1), "an integer ≥ 0"),
        ("u128", json!(-1), "an integer ≥ 0"),
        ("usize", json!(-1), "an integer ≥ 0"),
        ("i64", json!(u64::MAX), "an integer"),
        ("percent", json!(0), "an integer from 1 to 100"),
        ("percent", json!(101), "an integer from 1 to 100"),
        ("below", json!(100), "an integer from 1 to 99"),
        ("offset", json!(6), "an integer from -5 to 5"),
        ("offset", json!(-6), "an integer from -5 to 5"),
    ];
    for (property, value, expected) in cases {
        let error = arg_error::<Ints>("ints", json!({ *property: value }));
        assert_invalid(&error, "ints", property, expected, &value.to_string());
        let flag = format!("--{property}={value}");
        clap_error::<Ints>(&["ints", &flag]);
    }
}

#[test]
fn integers_refuse_fractions_strings_and_other_json() {
    let properties = [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        "percent", "below", "offset",
    ];
    for property in properties {
        for (given, shown) in [
            (json!(1.5), "1.5"),
            (json!("5"), "\"5\""),
            (json!(true), "true"),
            (json!([5]), "[5]"),
            (json!({ "n": 5 }), r#"{"n":5}"#),
            (json!(null), "null"),
        ] {
            let error = arg_error::<Ints>("ints", json!({ property: given }));
            assert_invalid(&error, "ints", property, "", shown);
            assert!(error.to_string().contains("integer"), "{error}");
        }
    }
}

// ---------------------------------------------------------------------------
// Floats

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "floats")]
struct Floats {
    #[arg(long = "f32")]
    v_f32: Option<f32>,
    #[arg(long = "f64")]
    v_f64: Option<f64>,
}

#[test]
fn floats_are_numbers() {
    let p = props::<Floats>("floats");
    assert_eq!(p["f32"], json!({ "type": "number" }));
    assert_eq!(p["f64"], json!({ "type": "number" }));
    assert_clap_parity::<Floats>();

    let value = same::<Floats>(
        "floats",
        json!({ "f32": 1.5, "f64": -0.25 }),
        &["floats", "--f32=1.5", "--f64=-0.25"],
    );
    assert_eq!((value.v_f32, value.v_f64), (Some(1.5), Some(-0.25)));
    // An integer is a number too.
    same::<Floats>(
        "floats",
        json!({ "f32": 2, "f64": 1e10 }),
        &["floats", "--f32=2", "--f64=10000000000"],
    );

    for (given, shown) in [(json!("1.5"), "\"1.5\""), (json!(true), "true")] {
        let error = arg_error::<Floats>("floats", json!({ "f64": given }));
        assert_invalid(&error, "floats", "f64", "a number", shown);
    }
}

// ---------------------------------------------------------------------------
// ArgAction::Count

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "count")]
struct Count {
    /// More output
    #[arg(short, long, action = ArgAction::Count)]
    verbose: u8,
}

#[test]
fn count_is_a_non_negative_integer() {
    let schema = input_schema::<Count>("count");
    assert_eq!(
        schema["properties"]["verbose"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 255,
            "description": "More output",
            "default": 0
        })
    );
    assert_eq!(schema.get("required"), None);
    assert_clap_parity::<Count>();

    assert_eq!(same::<Count>("count", json!({}), &["count"]).verbose, 0);
    assert_eq!(
        same::<Count>("count", json!({ "verbose": 3 }), &["count", "-vvv"]).verbose,
        3
    );
    for (given, shown) in [
        (json!(-1), "-1"),
        (json!(256), "256"),
        (json!(1.5), "1.5"),
        (json!("3"), "\"3\""),
        (json!(true), "true"),
    ] {
        let error = arg_error::<Count>("count", json!({ "verbose": given }));
        assert_invalid(
            &error,
            "count",
            "verbose",
            "an integer from 0 to 255",
            shown,
        );
    }
}

// ---------------------------------------------------------------------------
// Vec<T>

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "lists")]
struct Lists {
    /// Files to read
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Tags (repeatable)
    #[arg(long)]
    tag: Vec<String>,
    #[arg(long, num_args = 1..)]
    nums: Vec<u32>,
    #[arg(long, value_delimiter = ',')]
    cols: Vec<String>,
    #[arg(long, value_delimiter = ',')]
    ports: Vec<u16>,
    #[arg(long)]
    maybe: Option<Vec<String>>,
}

#[test]
fn vec_schemas_are_arrays() {
    let schema = input_schema::<Lists>("lists");
    let p = &schema["properties"];
    assert_eq!(
        p["files"],
        json!({
            "type": "array",
            "items": { "type": "string", "minLength": 1 },
            "minItems": 1,
            "description": "Files to read"
        })
    );
    assert_eq!(
        p["tag"],
        json!({
            "type": "array",
            "items": { "type": "string" },
            "description": "Tags (repeatable)"
        })
    );
    assert_eq!(
        p["nums"],
        json!({ "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 4294967295_u64 } })
    );
    assert_eq!(
        p["cols"],
        json!({ "type": "array", "items": { "type": "string" } })
    );
    assert_eq!(
        p["ports"],
        json!({ "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 65535 } })
    );
    assert_eq!(
        p["maybe"],
        json!({ "type": "array", "items": { "type": "string" } })
    );
    assert_eq!(schema["required"], json!(["files"]));
    assert_clap_parity::<Lists>();
}

#[test]
fn vec_values_convert_like_clap() {
    let value = same::<Lists>(
        "lists",
        json!({
            "files": ["a.txt", "b.txt"],
            "tag": ["x", "y z"],
            "nums": [1, 2, 3],
            "cols": ["a,b", "c"],
            "ports": [80, 443, 8080],
            "maybe": ["m"],
        }),
        &[
            "lists", "a.txt", "b.txt", "--tag", "x", "--tag", "y z", "--nums", "1", "2", "3",
            "--cols", "a,b", "--cols", "c", "--ports", "80,443", "--ports", "8080", "--maybe", "m",
        ],
    );
    // `value_delimiter = ','` splits a string element into several, as clap
    // splits its text; integer lists arrive as JSON integers.
    assert_eq!(value.cols, ["a", "b", "c"]);
    assert_eq!(value.ports, [80, 443, 8080]);
    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "ports": ["80,443"] }));
    assert!(error.to_string().contains("property `ports[0]`"), "{error}");
    assert_eq!(value.nums, [1, 2, 3]);

    // Absent lists are empty; an absent Option<Vec> is None.
    let value = same::<Lists>("lists", json!({ "files": ["f"] }), &["lists", "f"]);
    assert!(value.tag.is_empty() && value.nums.is_empty());
    assert_eq!(value.maybe, None);
    same::<Lists>(
        "lists",
        json!({ "files": ["f"], "tag": [] }),
        &["lists", "f"],
    );
}

#[test]
fn required_variadic_needs_at_least_one_value() {
    let error = arg_error::<Lists>("lists", json!({ "files": [] }));
    assert_eq!(error.property.as_deref(), Some("files"));
    assert_eq!(error.problem, Problem::TooFew { min: 1, given: 0 });
    assert_eq!(
        error.to_string(),
        "tool `lists`: property `files`: needs at least 1 value, got 0"
    );
    let error = arg_error::<Lists>("lists", json!({}));
    assert!(
        matches!(error.problem, Problem::Missing { .. }),
        "{error:?}"
    );
    assert!(error
        .to_string()
        .contains("missing required property `files`"));
    clap_error::<Lists>(&["lists"]);
}

#[test]
fn vec_elements_are_checked_one_by_one() {
    let error = arg_error::<Lists>("lists", json!({ "files": ["ok", ""] }));
    assert_invalid(&error, "lists", "files[1]", "a non-empty path", "\"\"");

    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "ports": [80, "443,x"] }));
    assert_invalid(
        &error,
        "lists",
        "ports[1]",
        "an integer from 0 to 65535",
        "\"443,x\"",
    );
    clap_error::<Lists>(&["lists", "f", "--ports", "443,x"]);

    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "nums": [1, -2] }));
    assert_invalid(
        &error,
        "lists",
        "nums[1]",
        "an integer from 0 to 4294967295",
        "-2",
    );

    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "tag": [{ "a": 1 }] }));
    assert_invalid(&error, "lists", "tag[0]", "a string", r#"{"a":1}"#);

    // A single value where an array is expected is not wrapped.
    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "tag": "x" }));
    assert_invalid(&error, "lists", "tag", "an array of strings", "\"x\"");
    let error = arg_error::<Lists>("lists", json!({ "files": "f" }));
    assert_invalid(&error, "lists", "files", "an array of strings", "\"f\"");
}

// ---------------------------------------------------------------------------
// Option<T>

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "options")]
struct Options {
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    port: Option<u16>,
    #[arg(long, default_value = "guest")]
    user: Option<String>,
    // clap takes no `default_value_t` on `Option<T>` (it would need an
    // `Option` value); a textual default still yields `Some`.
    #[arg(long, default_value = "8")]
    jobs: Option<u32>,
}

#[test]
fn option_has_the_inner_schema_and_is_not_required() {
    let schema = input_schema::<Options>("options");
    assert_eq!(
        schema,
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "port": { "type": "integer", "minimum": 0, "maximum": 65535 },
                "user": { "type": "string", "default": "guest" },
                "jobs": { "type": "integer", "minimum": 0, "maximum": 4294967295_u64, "default": 8 }
            },
            "additionalProperties": false
        })
    );
    assert_clap_parity::<Options>();
}

#[test]
fn option_absent_is_none_and_default_gives_some() {
    let value = same::<Options>("options", json!({}), &["options"]);
    assert_eq!(
        value,
        Options {
            name: None,
            port: None,
            user: Some("guest".into()),
            jobs: Some(8),
        }
    );
    let value = same::<Options>(
        "options",
        json!({ "name": "n", "port": 80, "user": "root", "jobs": 1 }),
        &[
            "options", "--name", "n", "--port", "80", "--user", "root", "--jobs", "1",
        ],
    );
    assert_eq!(value.port, Some(80));
    let error = arg_error::<Options>("options", json!({ "port": 70000 }));
    assert_invalid(
        &error,
        "options",
        "port",
        "an integer from 0 to 65535",
        "70000",
    );
}

// ---------------------------------------------------------------------------
// value_enum

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq)]
enum Color {
    Red,
    #[value(name = "dark-blue")]
    Blue,
    #[value(alias = "verde")]
    Green,
    LightYellow,
    #[value(hide = true)]
    Secret,
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "enums")]
struct Enums {
    #[arg(long, value_enum)]
    color: Option<Color>,
    #[arg(long, value_enum, ignore_case = true)]
    loose: Option<Color>,
    #[arg(long, value_enum, default_value_t = Color::Blue)]
    background: Color,
    #[arg(long, value_enum)]
    palette: Vec<Color>,
    /// No `value_enum` attribute: clap finds `ValueEnum` by itself.
    #[arg(long)]
    implicit: Option<Color>,
}

#[test]
fn value_enum_is_a_string_enum_with_clap_names() {
    let names = json!(["red", "dark-blue", "green", "light-yellow"]);
    let p = props::<Enums>("enums");
    assert_eq!(p["color"], json!({ "type": "string", "enum": names }));
    assert_eq!(p["loose"], json!({ "type": "string", "enum": names }));
    assert_eq!(
        p["background"],
        json!({ "type": "string", "enum": names, "default": "dark-blue" })
    );
    assert_eq!(
        p["palette"],
        json!({ "type": "array", "items": { "type": "string", "enum": names } })
    );
    assert_eq!(
        p["implicit"]["enum"], names,
        "ValueEnum found without the attribute"
    );
    assert_eq!(input_schema::<Enums>("enums").get("required"), None);

    // The names are exactly clap's visible possible values.
    let clap_names: Vec<String> = Color::value_variants()
        .iter()
        .filter_map(ValueEnum::to_possible_value)
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    assert_eq!(json!(clap_names), names);
    assert_clap_parity::<Enums>();
}

#[test]
fn value_enum_values_convert_like_clap() {
    let value = same::<Enums>("enums", json!({}), &["enums"]);
    assert_eq!(value.background, Color::Blue);

    let value = same::<Enums>(
        "enums",
        json!({
            "color": "dark-blue",
            "loose": "LIGHT-Yellow",
            "background": "red",
            "palette": ["green", "verde", "red"],
            "implicit": "light-yellow",
        }),
        &[
            "enums",
            "--color",
            "dark-blue",
            "--loose",
            "LIGHT-Yellow",
            "--background",
            "red",
            "--palette",
            "green",
            "--palette",
            "verde",
            "--palette",
            "red",
            "--implicit",
            "light-yellow",
        ],
    );
    assert_eq!(value.loose, Some(Color::LightYellow));
    assert_eq!(value.palette, [Color::Green, Color::Green, Color::Red]);

    // An alias and a hidden value are accepted, as clap accepts them.
    let value = same::<Enums>(
        "enums",
        json!({ "color": "verde", "loose": "secret" }),
        &["enums", "--color", "verde", "--loose", "secret"],
    );
    assert_eq!(
        (value.color, value.loose),
        (Some(Color::Green), Some(Color::Secret))
    );
}

#[test]
fn value_enum_refuses_unknown_and_wrongly_cased_names() {
    let expected = r#"one of "red", "dark-blue", "green", "light-yellow""#;
    for given in ["purple", "RED", "blue"] {
        let error = arg_error::<Enums>("enums", json!({ "color": given }));
        assert_invalid(&error, "enums", "color", expected, &format!("\"{given}\""));
        clap_error::<Enums>(&["enums", "--color", given]);
    }
    let error = arg_error::<Enums>("enums", json!({ "loose": "purple" }));
    assert_invalid(&error, "enums", "loose", expected, "\"purple\"");
    let error = arg_error::<Enums>("enums", json!({ "palette": ["red", 1] }));
    assert_invalid(&error, "enums", "palette[1]", expected, "1");
}

// ---------------------------------------------------------------------------
// Key=value pairs and maps

/// The key=value parser from clap's cookbook.
fn parse_key_val<T, U>(s: &str) -> Result<(T, U), Box<dyn Error + Send + Sync + 'static>>
where
    T: FromStr,
    T::Err: Error + Send + Sync + 'static,
    U: FromStr,
    U::Err: Error + Send + Sync + 'static,
{
    let pos = s
        .find('=')
        .ok_or_else(|| format!("invalid KEY=value: no `=` found in `{s}`"))?;
    Ok((s[..pos].parse()?, s[pos + 1..].parse()?))
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "pairs")]
struct Pairs {
    /// Limits per resource
    #[arg(long = "limit", value_parser = parse_key_val::<String, i32>)]
    limits: Vec<(String, i32)>,
    #[arg(long = "label", value_parser = parse_key_val::<String, String>)]
    labels: Vec<(String, String)>,
}

#[test]
fn key_value_pairs_are_objects() {
    let schema = input_schema::<Pairs>("pairs");
    assert_eq!(
        schema["properties"]["limit"],
        json!({
            "type": "object",
            "additionalProperties": { "type": "integer", "minimum": -2147483648, "maximum": 2147483647 },
            "description": "Limits per resource"
        })
    );
    assert_eq!(
        schema["properties"]["label"],
        json!({ "type": "object", "additionalProperties": { "type": "string" } })
    );
    assert_eq!(schema.get("required"), None);
    assert_clap_parity::<Pairs>();
}

#[test]
fn key_value_pairs_convert_like_clap() {
    let value = same::<Pairs>(
        "pairs",
        json!({ "limit": { "cpu": 2, "mem": -1 }, "label": { "team": "a=b", "x": "" } }),
        &[
            "pairs", "--limit", "cpu=2", "--limit", "mem=-1", "--label", "team=a=b", "--label",
            "x=",
        ],
    );
    assert_eq!(
        value.limits,
        [("cpu".to_owned(), 2), ("mem".to_owned(), -1)]
    );
    assert_eq!(
        value.labels,
        [
            ("team".to_owned(), "a=b".to_owned()),
            ("x".to_owned(), String::new())
        ]
    );
    let value = same::<Pairs>("pairs", json!({ "limit": {} }), &["pairs"]);
    assert!(value.limits.is_empty());
    same::<Pairs>("pairs", json!({}), &["pairs"]);
}

#[test]
fn key_value_errors_name_the_entry_and_carry_the_parsers_message() {
    // A well-typed entry the pair parser still refuses: the key holds a
    // `=`, so the parser splits there and reads "b=2" as the number.
    let error = arg_error::<Pairs>("pairs", json!({ "limit": { "a=b": 2 } }));
    assert_eq!(error.tool, "pairs");
    assert_eq!(error.property.as_deref(), Some("limit.a=b"));
    let text = error.to_string();
    assert!(text.contains("property `limit.a=b`"), "{text}");
    assert!(text.contains("got 2"), "{text}");
    assert_eq!(reason(&error), "invalid digit found in string");
    clap_error::<Pairs>(&["pairs", "--limit", "a=b=2"]);

    let error = arg_error::<Pairs>("pairs", json!({ "limit": { "cpu": 1.5 } }));
    assert_eq!(error.property.as_deref(), Some("limit.cpu"));
    assert!(error.to_string().contains("got 1.5"), "{error}");

    let error = arg_error::<Pairs>("pairs", json!({ "limit": { "cpu": { "n": 1 } } }));
    assert_invalid(
        &error,
        "pairs",
        "limit.cpu",
        "an integer from -2147483648 to 2147483647",
        r#"{"n":1}"#,
    );

    let error = arg_error::<Pairs>("pairs", json!({ "limit": ["cpu=2"] }));
    assert_invalid(&error, "pairs", "limit", "an object", r#"["cpu=2"]"#);
}

#[test]
fn key_value_errors_say_the_value_type_expected() {
    // The schema says the values are integers, so the error should too.
    let error = arg_error::<Pairs>("pairs", json!({ "limit": { "cpu": "lots" } }));
    assert_invalid(
        &error,
        "pairs",
        "limit.cpu",
        "an integer from -2147483648 to 2147483647",
        "\"lots\"",
    );
}

#[test]
fn key_value_integer_values_refuse_strings() {
    // Integers are never accepted as strings elsewhere ("5" is refused for
    // an i32 property); entries of an object of integers should not differ.
    let error = arg_error::<Pairs>("pairs", json!({ "limit": { "cpu": "2" } }));
    assert_invalid(
        &error,
        "pairs",
        "limit.cpu",
        "an integer from -2147483648 to 2147483647",
        "\"2\"",
    );
}

/// A std `HashMap` field: clap cannot parse it without a `value_parser`
/// (`value_parser!` has no fallback for maps), and with one the derive
/// treats the field like any other `value_parser` type: one string, handed
/// to the same parser clap calls.
fn parse_limits(s: &str) -> Result<HashMap<String, u32>, String> {
    s.split(',')
        .map(|entry| {
            let (k, v) = entry
                .split_once('=')
                .ok_or_else(|| format!("`{entry}` is not key=value"))?;
            let v = v.parse().map_err(|e| format!("`{v}`: {e}"))?;
            Ok((k.to_owned(), v))
        })
        .collect()
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "stdmap")]
struct StdMap {
    #[arg(long, value_parser = parse_limits)]
    limits: HashMap<String, u32>,
}

#[test]
fn std_hashmap_with_value_parser_is_one_string_like_clap() {
    let schema = input_schema::<StdMap>("stdmap");
    assert_eq!(schema["properties"]["limits"], json!({ "type": "string" }));
    assert_eq!(schema["required"], json!(["limits"]));
    assert_clap_parity::<StdMap>();
    let value = same::<StdMap>(
        "stdmap",
        json!({ "limits": "cpu=2,mem=512" }),
        &["stdmap", "--limits", "cpu=2,mem=512"],
    );
    assert_eq!(value.limits["mem"], 512);
    let error = arg_error::<StdMap>("stdmap", json!({ "limits": "cpu" }));
    assert_invalid(&error, "stdmap", "limits", "a valid string", "\"cpu\"");
    assert_eq!(reason(&error), "`cpu` is not key=value");
}

/// The derive maps fields whose type is named `HashMap`/`BTreeMap`/
/// `IndexMap` with a `String` key to JSON objects. clap can only parse such
/// a field when the type has a value parser of its own, which std's maps
/// cannot get (orphan rule) — so this local `BTreeMap` (the derive looks at
/// the last path segment, like clap does for `Option`/`Vec`) parses
/// `k=v,k=v` for clap and collects entries for the bridge. This exercises
/// the derive's map path; clap's parse of the equivalent text is the oracle.
mod shim {
    use std::str::FromStr;

    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct BTreeMap<K: Ord, V>(pub std::collections::BTreeMap<K, V>);

    impl<V: FromStr> FromStr for BTreeMap<String, V>
    where
        V::Err: std::fmt::Display,
    {
        type Err = String;
        fn from_str(s: &str) -> Result<Self, String> {
            s.split(',')
                .map(|entry| {
                    let (k, v) = entry
                        .split_once('=')
                        .ok_or_else(|| format!("`{entry}` is not key=value"))?;
                    Ok((k.to_owned(), v.parse::<V>().map_err(|e| e.to_string())?))
                })
                .collect::<Result<_, String>>()
                .map(BTreeMap)
        }
    }

    impl<K: Ord, V> FromIterator<(K, V)> for BTreeMap<K, V> {
        fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
            BTreeMap(iter.into_iter().collect())
        }
    }
}

/// An optional map: absent → `None`, given → the map.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "quotas")]
struct Quotas {
    #[arg(long)]
    quotas: Option<shim::BTreeMap<String, u32>>,
}

#[test]
fn optional_map_fields_are_none_when_absent() {
    let registry = mcp_bridge::Registry::<Quotas>::new().unwrap();
    let absent = registry
        .build("quotas", json!({}).as_object().unwrap())
        .unwrap();
    assert_eq!(absent.quotas, None);
    let given = registry
        .build("quotas", json!({"quotas": {"ann": 2}}).as_object().unwrap())
        .unwrap();
    assert_eq!(given.quotas.unwrap().0.get("ann"), Some(&2));
    let schema = input_schema::<Quotas>("quotas");
    assert_eq!(
        schema["properties"]["quotas"]["additionalProperties"]["type"],
        "integer"
    );
    assert!(schema.get("required").is_none());
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "labels")]
struct Labels {
    /// Labels to attach
    #[arg(long)]
    labels: shim::BTreeMap<String, String>,
}

#[test]
fn map_fields_with_string_values_are_objects_of_strings() {
    let schema = input_schema::<Labels>("labels");
    assert_eq!(
        schema["properties"]["labels"],
        json!({
            "type": "object",
            "additionalProperties": { "type": "string" },
            "description": "Labels to attach"
        })
    );
    assert_eq!(schema["required"], json!(["labels"]));
    assert_clap_parity::<Labels>();
    let value = same::<Labels>(
        "labels",
        json!({ "labels": { "team": "core", "tier": "1" } }),
        &["labels", "--labels", "team=core,tier=1"],
    );
    assert_eq!(value.labels.0["tier"], "1");
    let error = arg_error::<Labels>("labels", json!({ "labels": { "team": 1 } }));
    assert_invalid(&error, "labels", "labels.team", "a", "1");
    let error = arg_error::<Labels>("labels", json!({ "labels": "team=core" }));
    assert_invalid(
        &error,
        "labels",
        "labels",
        "an object of strings",
        "\"team=core\"",
    );
}

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "mapsreq")]
struct MapsRequired {
    #[arg(long)]
    quotas: shim::BTreeMap<String, u32>,
}

#[test]
fn map_fields_are_objects_of_the_value_type() {
    let schema = input_schema::<MapsRequired>("mapsreq");
    assert_eq!(
        schema["properties"]["quotas"],
        json!({
            "type": "object",
            "additionalProperties": { "type": "integer", "minimum": 0, "maximum": 4294967295_u64 }
        })
    );
}

#[test]
fn map_fields_convert_integer_values() {
    let value = built::<MapsRequired>("mapsreq", json!({ "quotas": { "ann": 2, "bob": 3 } }));
    let parsed = clap_parse::<MapsRequired>(&["mapsreq", "--quotas", "ann=2,bob=3"]);
    assert_eq!(value, parsed);

    let error = arg_error::<MapsRequired>("mapsreq", json!({ "quotas": { "ann": -1 } }));
    assert_invalid(
        &error,
        "mapsreq",
        "quotas.ann",
        "an integer from 0 to 4294967295",
        "-1",
    );
}

#[test]
fn map_fields_refuse_non_objects() {
    let error = arg_error::<MapsRequired>("mapsreq", json!({ "quotas": "ann=2" }));
    assert_invalid(&error, "mapsreq", "quotas", "an object", "\"ann=2\"");
    let error = arg_error::<MapsRequired>("mapsreq", json!({ "quotas": [1] }));
    assert_invalid(&error, "mapsreq", "quotas", "an object", "[1]");
}

#[test]
fn map_field_required_in_schema_is_enforced_by_build() {
    // clap requires the plain-typed option, and so does the schema...
    clap_error::<MapsRequired>(&["mapsreq"]);
    assert_eq!(
        input_schema::<MapsRequired>("mapsreq")["required"],
        json!(["quotas"])
    );
    // ...so a call without it must be refused too.
    let error = arg_error::<MapsRequired>("mapsreq", json!({}));
    assert!(
        matches!(error.problem, Problem::Missing { .. }),
        "{error:?}"
    );
}

// ---------------------------------------------------------------------------
// Duration

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "durations")]
struct Durations {
    #[arg(long, value_parser = examples::taskctl::parse_duration)]
    timeout: Duration,
    #[arg(long, value_parser = examples::taskctl::parse_duration, default_value = "90s")]
    retry: Duration,
}

/// The duration type the bridge declares for `Duration` fields: the single
/// source of the pattern and the examples (they are being tuned to the
/// notation of common duration parsers, so they are not repeated here).
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
fn duration_is_a_patterned_string_with_examples() {
    let declared = declared_duration();
    assert_eq!(declared["type"], "string");
    assert!(declared["pattern"]
        .as_str()
        .is_some_and(|p| p.starts_with('^') && p.ends_with('$')));
    assert!(!duration_examples().is_empty());
    assert_eq!(
        declared.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["type", "pattern", "examples"]
    );

    let schema = input_schema::<Durations>("durations");
    assert_eq!(schema["properties"]["timeout"], declared);
    let mut retry = declared.clone();
    retry["default"] = json!("90s");
    assert_eq!(schema["properties"]["retry"], retry);
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
}

#[test]
fn advertised_duration_examples_are_accepted_by_taskctls_parser() {
    for example in duration_examples() {
        same::<Durations>(
            "durations",
            json!({ "timeout": example }),
            &["durations", "--timeout", &example],
        );
    }
}

// ---------------------------------------------------------------------------
// Network addresses

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "net")]
struct Net {
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

// ---------------------------------------------------------------------------
// Required and defaults

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "required")]
struct Required {
    /// Positional without Option or default
    name: String,
    #[arg(long, required = true)]
    token: Option<String>,
    /// A plain-typed option without default
    #[arg(long)]
    mode: String,
    #[arg(long, default_value = "x")]
    with_default: String,
    #[arg(long)]
    maybe: Option<String>,
    extra: Option<String>,
}

#[test]
fn required_properties_match_clap() {
    let schema = input_schema::<Required>("required");
    assert_eq!(schema["required"], json!(["name", "token", "mode"]));
    assert_eq!(
        schema["properties"]["with-default"],
        json!({ "type": "string", "default": "x" })
    );
    assert_clap_parity::<Required>();

    let ours: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let spec = Required::command_spec();
    let clap_required: Vec<String> = Required::command()
        .get_arguments()
        .filter(|a| a.is_required_set())
        .map(|a| {
            let id = a.get_id().as_str();
            spec.params
                .iter()
                .find(|p| p.id == id)
                .unwrap()
                .name
                .clone()
        })
        .collect();
    assert_eq!(ours, clap_required);
}

#[test]
fn required_properties_are_enforced() {
    let value = same::<Required>(
        "required",
        json!({ "name": "n", "token": "t", "mode": "m" }),
        &["required", "n", "--token", "t", "--mode", "m"],
    );
    assert_eq!(value.with_default, "x");
    assert_eq!((value.maybe, value.extra), (None, None));

    for missing in ["name", "mode"] {
        let mut args = json!({ "name": "n", "token": "t", "mode": "m" });
        args.as_object_mut().unwrap().remove(missing);
        let error = arg_error::<Required>("required", args);
        assert_eq!(error.property.as_deref(), Some(missing));
        assert_eq!(
            error.problem,
            Problem::Missing {
                expected: "a string".into()
            }
        );
        assert_eq!(
            error.to_string(),
            format!("tool `required`: missing required property `{missing}` (expected a string)")
        );
    }
    clap_error::<Required>(&["required", "n", "--token", "t"]);
    clap_error::<Required>(&["required", "--token", "t", "--mode", "m"]);
}

#[test]
fn required_option_is_enforced() {
    clap_error::<Required>(&["required", "n", "--mode", "m"]);
    let error = arg_error::<Required>("required", json!({ "name": "n", "mode": "m" }));
    assert_eq!(error.property.as_deref(), Some("token"));
    assert_eq!(
        error.to_string(),
        "tool `required`: missing required property `token` (expected a string)"
    );
}

// Unsuffixed literals in `default_value_t` take the field's type, as in clap.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "defaults")]
struct Defaults {
    #[arg(long, default_value = "info")]
    level: String,
    #[arg(long, default_value_t = 10)]
    retries: u32,
    #[arg(long, default_value_t = 0.5)]
    ratio: f64,
    #[arg(long, default_value_t = -3)]
    shift: i32,
    #[arg(long, default_values_t = vec![80, 443])]
    ports: Vec<u16>,
    #[arg(long, default_values = ["a", "b"])]
    names: Vec<String>,
    #[arg(long, default_value = "")]
    empty: String,
    #[arg(long, default_values_t = Vec::<u32>::new())]
    none: Vec<u32>,
    #[arg(long, default_value = "7")]
    text_number: u8,
}

#[test]
fn defaults_are_typed_and_empty_ones_hidden() {
    let schema = input_schema::<Defaults>("defaults");
    let p = &schema["properties"];
    assert_eq!(p["level"], json!({ "type": "string", "default": "info" }));
    assert_eq!(
        p["retries"],
        json!({ "type": "integer", "minimum": 0, "maximum": 4294967295_u64, "default": 10 })
    );
    assert_eq!(p["ratio"], json!({ "type": "number", "default": 0.5 }));
    assert_eq!(
        p["shift"],
        json!({ "type": "integer", "minimum": -2147483648, "maximum": 2147483647, "default": -3 })
    );
    assert_eq!(
        p["ports"],
        json!({
            "type": "array",
            "items": { "type": "integer", "minimum": 0, "maximum": 65535 },
            "default": [80, 443]
        })
    );
    assert_eq!(
        p["names"],
        json!({ "type": "array", "items": { "type": "string" }, "default": ["a", "b"] })
    );
    assert_eq!(p["empty"], json!({ "type": "string" }), "\"\" is not shown");
    assert_eq!(
        p["none"],
        json!({ "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 4294967295_u64 } }),
        "[] is not shown"
    );
    assert_eq!(
        p["text-number"],
        json!({ "type": "integer", "minimum": 0, "maximum": 255, "default": 7 })
    );
    assert_eq!(
        schema.get("required"),
        None,
        "defaulted arguments are optional"
    );
    assert_clap_parity::<Defaults>();
}

#[test]
fn defaults_apply_like_clap() {
    let value = same::<Defaults>("defaults", json!({}), &["defaults"]);
    assert_eq!(
        value,
        Defaults {
            level: "info".into(),
            retries: 10,
            ratio: 0.5,
            shift: -3,
            ports: vec![80, 443],
            names: vec!["a".into(), "b".into()],
            empty: String::new(),
            none: vec![],
            text_number: 7,
        }
    );
    // Given values replace the defaults, lists entirely.
    same::<Defaults>(
        "defaults",
        json!({ "level": "debug", "retries": 0, "ports": [22], "names": ["z"], "shift": 4 }),
        &[
            "defaults",
            "--level",
            "debug",
            "--retries",
            "0",
            "--ports",
            "22",
            "--names",
            "z",
            "--shift",
            "4",
        ],
    );
    // An empty list leaves the default, as giving no value does in clap.
    same::<Defaults>("defaults", json!({ "ports": [] }), &["defaults"]);
}

// ---------------------------------------------------------------------------
// Descriptions

/// Render documents.
///
/// Reads every input and writes
/// one page per input.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "docs")]
struct Docs {
    /// The input file.
    input: String,

    /// Level of detail.
    ///
    /// Higher levels print more; the
    /// default prints a summary.
    #[arg(long, default_value_t = 1)]
    level: u8,

    #[arg(long, help = "Explicit help text")]
    explicit: Option<String>,

    #[arg(long, help = "Short help", long_help = "Long help, shown by --help")]
    both: Option<String>,

    /// Documented for the terminal
    #[arg(long)]
    #[mcp(description = "Documented for MCP clients")]
    custom: Option<String>,

    /// Keep   this
    /// layout.
    ///
    /// Second paragraph.
    #[arg(long, verbatim_doc_comment)]
    verbatim: Option<String>,

    #[arg(long)]
    bare: Option<String>,
}

#[test]
fn descriptions_come_from_doc_comments_and_help() {
    let registry = registry::<Docs>();
    let tool = registry.tool("docs").unwrap();
    assert_eq!(
        tool.description,
        "docs: Render documents.\n\nReads every input and writes one page per input."
    );
    let p = props::<Docs>("docs");
    assert_eq!(
        p["input"],
        json!({ "type": "string", "description": "The input file" })
    );
    assert_eq!(
        p["level"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 255,
            "description": "Level of detail.\n\nHigher levels print more; the default prints a summary.",
            "default": 1
        })
    );
    assert_eq!(p["explicit"]["description"], "Explicit help text");
    assert_eq!(p["both"]["description"], "Long help, shown by --help");
    assert_eq!(p["custom"]["description"], "Documented for MCP clients");
    assert_eq!(
        p["verbatim"]["description"],
        "Keep   this\nlayout.\n\nSecond paragraph."
    );
    assert_eq!(p["bare"], json!({ "type": "string" }));
}

#[test]
fn descriptions_match_clap_help() {
    assert_clap_parity::<Docs>();
    let cmd = Docs::command();
    let spec = Docs::command_spec();
    assert_eq!(spec.about.as_deref(), Some("Render documents"));
    assert_eq!(
        cmd.get_about().map(ToString::to_string).as_deref(),
        Some("Render documents")
    );
    assert_eq!(
        spec.long_about,
        cmd.get_long_about().map(ToString::to_string)
    );
    for param in spec.params.iter().filter(|p| p.id != "custom") {
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_id() == param.id.as_str())
            .unwrap();
        let clap_text = arg
            .get_long_help()
            .or(arg.get_help())
            .map(ToString::to_string);
        assert_eq!(param.description, clap_text, "{}", param.id);
    }
}

/// Doc comment summary.
///
/// Doc comment details.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "pkgabout", about, long_about = None)]
struct PkgAbout {}

#[test]
fn explicit_about_attributes_override_the_doc_comment_like_clap() {
    assert_clap_parity::<PkgAbout>();
    let spec = PkgAbout::command_spec();
    assert_eq!(spec.about.as_deref(), Some(env!("CARGO_PKG_DESCRIPTION")));
    assert_eq!(spec.long_about, None);
    let registry = registry::<PkgAbout>();
    assert_eq!(
        registry.tool("pkgabout").unwrap().description,
        format!("pkgabout: {}", env!("CARGO_PKG_DESCRIPTION"))
    );
}

// ---------------------------------------------------------------------------
// Tool naming, globals, runnable parents

/// Naming rules.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "app")]
struct App {
    /// Configuration profile
    #[arg(long, global = true)]
    profile: Option<String>,
    #[command(subcommand)]
    command: AppCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
#[command(rename_all = "snake_case")]
enum AppCommand {
    /// Show everything
    ShowAll {
        #[arg(long)]
        max_items: Option<u32>,
    },
    #[command(name = "fetch-one")]
    FetchOne { id: u32 },
    #[mcp(name = "custom_tool")]
    Custom,
    #[mcp(skip)]
    Internal,
    /// Original text
    #[mcp(description = "Text written for MCP clients")]
    Described,
    #[command(hide = true)]
    Hidden,
    /// Manage remotes
    #[command(subcommand)]
    Remote(RemoteCommand),
    /// Run the server
    Server(ServerArgs),
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
enum RemoteCommand {
    /// Add a remote
    AddRemote {
        name: String,
    },
    List,
}

#[derive(Args, McpTool, Debug, PartialEq)]
struct ServerArgs {
    /// Port to listen on
    #[arg(long, global = true, default_value_t = 8080u16)]
    port: u16,
    #[command(subcommand)]
    command: Option<ServerCommand>,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
enum ServerCommand {
    /// Stop the server
    Stop {
        #[arg(long)]
        force: bool,
    },
}

#[test]
fn tool_names_join_the_command_path() {
    assert_eq!(
        tool_names::<App>(),
        [
            "app_show_all",
            "app_fetch-one",
            "custom_tool",
            "app_described",
            "app_remote_add-remote",
            "app_remote_list",
            "app_server",
            "app_server_stop",
        ]
    );
    assert_clap_parity::<App>();
    // The names are clap's command names.
    let cmd = App::command();
    for name in [
        "show_all",
        "fetch-one",
        "custom",
        "described",
        "remote",
        "server",
    ] {
        assert!(cmd.find_subcommand(name).is_some(), "clap has `{name}`");
    }
    // `rename_all` reaches the fields of the variants too, as in clap.
    let show_all = cmd.find_subcommand("show_all").unwrap();
    let max = show_all
        .get_arguments()
        .find(|a| a.get_id() == "max_items")
        .unwrap();
    assert_eq!(max.get_long(), Some("max_items"));
    assert!(props::<App>("app_show_all").get("max_items").is_some());
}

#[test]
fn skipped_hidden_and_group_commands_are_not_tools() {
    let registry = registry::<App>();
    for absent in [
        "app",
        "app_internal",
        "app_hidden",
        "app_remote",
        "app_custom",
    ] {
        assert!(registry.tool(absent).is_none(), "`{absent}` is not a tool");
    }
    match build::<App>("app_internal", &json!({})) {
        Err(CallError::UnknownTool { name }) => assert_eq!(name, "app_internal"),
        other => panic!("{other:?}"),
    }
    // clap still knows them.
    clap_parse::<App>(&["app", "internal"]);
    clap_parse::<App>(&["app", "hidden"]);
}

#[test]
fn tool_descriptions_start_with_the_command_path() {
    let registry = registry::<App>();
    let description = |name: &str| registry.tool(name).unwrap().description.clone();
    assert_eq!(description("app_show_all"), "app show_all: Show everything");
    assert_eq!(description("app_fetch-one"), "app fetch-one");
    assert_eq!(description("custom_tool"), "app custom");
    assert_eq!(
        description("app_described"),
        "app described: Text written for MCP clients"
    );
    assert_eq!(
        description("app_remote_add-remote"),
        "app remote add-remote: Add a remote"
    );
    assert_eq!(description("app_server"), "app server: Run the server");
    assert_eq!(
        description("app_server_stop"),
        "app server stop: Stop the server"
    );
    let tool = registry.tool("custom_tool").unwrap();
    assert_eq!(tool.path, ["app", "custom"]);
}

#[test]
fn global_args_of_ancestors_are_added_to_every_tool() {
    let registry = registry::<App>();
    let params = |name: &str| -> Vec<String> {
        registry
            .tool(name)
            .unwrap()
            .params
            .iter()
            .map(|p| p.name.clone())
            .collect()
    };
    assert_eq!(params("app_show_all"), ["max_items", "profile"]);
    assert_eq!(params("custom_tool"), ["profile"]);
    assert_eq!(params("app_remote_add-remote"), ["name", "profile"]);
    assert_eq!(params("app_server"), ["port", "profile"]);
    assert_eq!(params("app_server_stop"), ["force", "profile", "port"]);
    assert_eq!(
        props::<App>("app_server_stop")["port"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 65535,
            "description": "Port to listen on",
            "default": 8080
        })
    );
    assert_eq!(
        props::<App>("app_remote_list")["profile"],
        json!({ "type": "string", "description": "Configuration profile" })
    );
}

#[test]
fn tools_build_what_clap_parses() {
    let value = same::<App>(
        "app_show_all",
        json!({ "max_items": 3, "profile": "dev" }),
        &["app", "show_all", "--max_items", "3", "--profile", "dev"],
    );
    assert_eq!(value.profile.as_deref(), Some("dev"));
    same::<App>(
        "app_fetch-one",
        json!({ "id": 7 }),
        &["app", "fetch-one", "7"],
    );
    same::<App>("custom_tool", json!({}), &["app", "custom"]);
    same::<App>("app_described", json!({}), &["app", "described"]);
    same::<App>(
        "app_remote_add-remote",
        json!({ "name": "origin" }),
        &["app", "remote", "add-remote", "origin"],
    );
    same::<App>("app_remote_list", json!({}), &["app", "remote", "list"]);
    // A parent whose subcommand is optional runs on its own.
    let value = same::<App>("app_server", json!({}), &["app", "server"]);
    assert_eq!(
        value.command,
        AppCommand::Server(ServerArgs {
            port: 8080,
            command: None
        })
    );
    let value = same::<App>(
        "app_server_stop",
        json!({ "force": true, "port": 9000, "profile": "p" }),
        &[
            "app",
            "--profile",
            "p",
            "server",
            "stop",
            "--force",
            "--port",
            "9000",
        ],
    );
    assert_eq!(
        value.command,
        AppCommand::Server(ServerArgs {
            port: 9000,
            command: Some(ServerCommand::Stop { force: true })
        })
    );
}

// ---------------------------------------------------------------------------
// Property-level #[mcp] attributes

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "props")]
struct Props {
    #[arg(long = "dry-run")]
    #[mcp(name = "dry_run")]
    dry_run: bool,
    #[arg(long, default_value = "secret")]
    #[mcp(skip)]
    internal: String,
    #[arg(long, hide = true)]
    hidden: Option<String>,
}

#[test]
fn property_renames_and_skips() {
    let schema = input_schema::<Props>("props");
    assert_eq!(
        schema["properties"],
        json!({ "dry_run": { "type": "boolean", "default": false } })
    );
    let value = same::<Props>("props", json!({ "dry_run": true }), &["props", "--dry-run"]);
    assert_eq!(
        value.internal, "secret",
        "a skipped argument gets its default"
    );
    let error = arg_error::<Props>("props", json!({ "internal": "x" }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
    let error = arg_error::<Props>("props", json!({ "dry-run": true }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
}

// ---------------------------------------------------------------------------
// Unknown properties, null, objects

#[test]
fn unknown_properties_are_refused_with_a_suggestion() {
    let error = arg_error::<Options>("options", json!({ "nmae": "x" }));
    assert_eq!(error.tool, "options");
    assert_eq!(error.property.as_deref(), Some("nmae"));
    assert_eq!(
        error.problem,
        Problem::Unknown {
            suggestion: Some("name".into()),
            accepted: vec!["name".into(), "port".into(), "user".into(), "jobs".into()],
        }
    );
    assert_eq!(
        error.to_string(),
        "tool `options`: unknown property `nmae`; did you mean `name`?; accepted properties: name, port, user, jobs"
    );

    let error = arg_error::<Options>("options", json!({ "zzzzzz": 1 }));
    match &error.problem {
        Problem::Unknown { suggestion, .. } => assert_eq!(suggestion, &None),
        other => panic!("{other:?}"),
    }
    assert!(!error.to_string().contains("did you mean"), "{error}");

    // Clap ids and short names are not property names.
    let error = arg_error::<Ints>("ints", json!({ "v_i8": 1 }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );
    let error = arg_error::<Flags>("flags", json!({ "v": true }));
    assert!(
        matches!(error.problem, Problem::Unknown { .. }),
        "{error:?}"
    );

    let error = arg_error::<App>("custom_tool", json!({ "x": 1 }));
    assert!(
        error.to_string().ends_with("accepted properties: profile"),
        "{error}"
    );
}

#[test]
fn null_is_refused_even_for_optional_properties() {
    for property in ["name", "port", "user", "jobs"] {
        let error = arg_error::<Options>("options", json!({ property: null }));
        assert_invalid(&error, "options", property, "", "null");
        assert!(
            error.to_string().contains("leave the property out"),
            "{error}"
        );
    }
    let error = arg_error::<Lists>("lists", json!({ "files": ["f"], "tag": null }));
    assert_invalid(&error, "lists", "tag", "an array", "null");
    let error = arg_error::<Pairs>("pairs", json!({ "limit": null }));
    assert_invalid(&error, "pairs", "limit", "an object", "null");
    let error = arg_error::<Count>("count", json!({ "verbose": null }));
    assert_invalid(&error, "count", "verbose", "an integer", "null");
}

#[test]
fn objects_are_never_stringified() {
    let object = json!({ "k": "v" });
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({ "name": object }), "options", "name"),
        (json!({ "files": [object] }), "lists", "files[0]"),
        (json!({ "timeout": object }), "durations", "timeout"),
        (json!({ "v4": object }), "net", "v4"),
        (json!({ "color": object }), "enums", "color"),
        (json!({ "sep": object }), "chars", "sep"),
    ];
    for (args, tool, property) in cases {
        let error = match tool {
            "options" => arg_error::<Options>(tool, args),
            "lists" => arg_error::<Lists>(tool, args),
            "durations" => arg_error::<Durations>(tool, args),
            "net" => arg_error::<Net>(tool, args),
            "enums" => arg_error::<Enums>(tool, args),
            "chars" => arg_error::<Chars>(tool, args),
            _ => unreachable!(),
        };
        assert_invalid(&error, tool, property, "", r#"{"k":"v"}"#);
    }
}

#[test]
fn unknown_tools_are_reported() {
    match build::<Options>("option", &json!({})) {
        Err(error @ CallError::UnknownTool { .. }) => assert_eq!(
            error.to_string(),
            "unknown tool `option`; call tools/list for the available tools"
        ),
        other => panic!("{other:?}"),
    }
}
