//! Strings: `String`, `PathBuf`, `OsString`, a `FromStr` type, a `value_parser` fn; and `char`.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, formats::*, lists::*, maps::*, scalars::*, tools::*,
};

// Strings: String, PathBuf, OsString, a FromStr type, a `value_parser` fn.

/// A colour written `#rrggbb`; parsed by its `FromStr`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rgb(u8, u8, u8);

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
pub(crate) struct Slug(String);

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
pub(crate) struct Strings {
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
    // The type that reads the text is named.
    assert_invalid(
        &error,
        "strings",
        "color",
        "a string `Rgb` reads",
        "\"red\"",
    );
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
        "a string the argument's parser accepts",
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

// char

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "chars")]
pub(crate) struct Chars {
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
