//! `value_enum` types.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, formats::*, lists::*, maps::*, scalars::*, strings::*, tools::*,
};

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq)]
pub(crate) enum Color {
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
pub(crate) struct Enums {
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
