//! `Vec<T>` and `Option<T>`.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, formats::*, maps::*, scalars::*, strings::*, tools::*,
};

// Vec<T>

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "lists")]
pub(crate) struct Lists {
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

// Option<T>

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "options")]
pub(crate) struct Options {
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
