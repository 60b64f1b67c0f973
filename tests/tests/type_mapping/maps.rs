//! Key=value pairs and maps.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, descriptions::*, enums::*, formats::*, lists::*, scalars::*, strings::*, tools::*,
};

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
pub(crate) struct Pairs {
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
pub(crate) struct StdMap {
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
    assert_invalid(
        &error,
        "stdmap",
        "limits",
        "a string the argument's parser accepts",
        "\"cpu\"",
    );
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
pub(crate) struct Quotas {
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
pub(crate) struct Labels {
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
pub(crate) struct MapsRequired {
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
