//! Required properties and defaults.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    descriptions::*, enums::*, formats::*, lists::*, maps::*, scalars::*, strings::*, tools::*,
};

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "required")]
pub(crate) struct Required {
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
pub(crate) struct Defaults {
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
fn defaults_are_typed_and_empty_lists_hidden() {
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
    // `default_value = ""` is a string's default, as clap gives it.
    assert_eq!(p["empty"], json!({ "type": "string", "default": "" }));
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
