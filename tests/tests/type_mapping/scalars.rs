//! Booleans, integers, floats and counted flags.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, formats::*, lists::*, maps::*, strings::*, tools::*,
};

// bool flags

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "flags")]
pub(crate) struct Flags {
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
pub(crate) struct SetBool {
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

// Integers

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "ints")]
pub(crate) struct Ints {
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

// Floats

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "floats")]
pub(crate) struct Floats {
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

// ArgAction::Count

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "count")]
pub(crate) struct Count {
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
