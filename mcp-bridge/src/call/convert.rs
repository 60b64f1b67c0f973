//! JSON value → typed field, converted and validated the way clap would.
//!
//! Each argument gets one [`Converter`], chosen by the derive from the
//! field's type and `#[arg]` attributes. The same converter describes the
//! JSON type (for the schema) and converts values (for the call), so the
//! two cannot disagree. Values arrive typed: an integer must be a JSON
//! integer, a string a JSON string; nothing is coerced.

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::str::FromStr;
use std::sync::LazyLock;

use clap::builder::TypedValueParser;
use clap::ValueEnum;
use serde_json::Value;

use crate::error::ValueProblem;
pub use crate::spec::value::PrimitiveInteger;
use crate::spec::{describe_range, StringFacets, ValueType};

/// Converts one JSON value (or one default text) into a field's type.
///
/// Implemented by the converters in this module; the derive picks one per
/// argument. Implement it yourself only for exotic needs.
///
/// ```
/// use mcp_bridge::convert::{Converter, Integer};
/// use serde_json::json;
/// let priority = Integer::<u8>::new().range(Some(1), Some(5));
/// assert_eq!(priority.convert_json(&json!(3)).unwrap(), 3);
/// assert!(priority.convert_json(&json!(9)).is_err());
/// assert!(priority.convert_json(&json!("3")).is_err());
/// ```
pub trait Converter {
    /// The field's type.
    type Output;
    /// The JSON type one value has.
    fn value_type(&self) -> ValueType;
    /// The JSON type the tool's schema shows, found once when the tool
    /// table is made: [`value_type`](Self::value_type) unless the
    /// converter can tell more (a parser's integer bounds, found by asking
    /// the parser).
    fn schema_type(&self) -> ValueType {
        self.value_type()
    }
    /// Converts a value sent by the client.
    fn convert_json(&self, value: &Value) -> Result<Self::Output, ValueProblem>;
    /// Converts a value written as text: defaults, which clap stores as
    /// strings and parses like user input.
    fn convert_text(&self, text: &str) -> Result<Self::Output, ValueProblem>;
}

/// A field type converted from JSON by a converter of your own, for types
/// the derive cannot handle otherwise.
///
/// ```
/// use mcp_bridge::{convert::Text, McpValue};
/// struct Label(String);
/// impl From<String> for Label {
///     fn from(s: String) -> Self { Label(s) }
/// }
/// impl McpValue for Label {
///     type Converter = Text<Label>;
///     fn converter() -> Text<Label> { Text::new() }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "the argument type `{Self}` cannot be converted from a JSON value",
    label = "no JSON conversion for `{Self}`",
    note = "give the field a `value_parser`, implement `FromStr` or `clap::ValueEnum` for `{Self}`, implement `mcp_bridge::McpValue` for it, or keep the field out of MCP with `#[mcp(skip)]` and a `default_value_t`"
)]
pub trait McpValue: Sized {
    /// The converter used for this type.
    type Converter: Converter<Output = Self>;
    /// Makes the converter.
    fn converter() -> Self::Converter;
}

/// A short, readable rendering of a JSON value for error messages.
pub(crate) fn describe_value(value: &Value) -> String {
    let text = value.to_string();
    const LIMIT: usize = 80;
    if text.chars().count() > LIMIT {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}…")
    } else {
        text
    }
}

fn expect_str(value: &Value, expected: impl FnOnce() -> String) -> Result<&str, ValueProblem> {
    value
        .as_str()
        .ok_or_else(|| ValueProblem::expected(expected()))
}

/// A value the CLI takes as JSON text, offered as JSON (`#[mcp(json)]`):
/// deserialized by serde straight from the call's value, described by the
/// schema `schemars` derives for `T` (subschemas inlined, so the property
/// stands alone in the tool's input schema; a recursive type's references
/// to itself are pointed at where the property sits).
///
/// ```
/// use mcp_bridge::convert::{Converter, Json};
/// use serde_json::json;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
/// struct Limits { cpu: u32, memory: Option<String> }
///
/// let limits = Json::<Limits>::new();
/// assert_eq!(limits.value_type().schema()["type"], "object");
/// let value = limits.convert_json(&json!({"cpu": 2})).unwrap();
/// assert_eq!(value, Limits { cpu: 2, memory: None });
/// assert!(limits.convert_json(&json!({"cpu": "two"})).is_err());
/// // A default is JSON text, as the CLI reads it.
/// assert_eq!(limits.convert_text(r#"{"cpu": 1}"#).unwrap().cpu, 1);
/// ```
#[derive(Debug)]
pub struct Json<T>(PhantomData<fn() -> T>);

impl<T> Json<T> {
    /// A converter for `T`.
    pub const fn new() -> Self {
        Json(PhantomData)
    }
}

impl<T> Default for Json<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: serde::de::DeserializeOwned + schemars::JsonSchema> Converter for Json<T> {
    type Output = T;

    fn value_type(&self) -> ValueType {
        ValueType::Json {
            schema: crate::spec::type_schema::<T>(),
        }
    }

    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        T::deserialize(value).map_err(|error| {
            ValueProblem::expected(format!("a JSON value of `{}`", T::schema_name()))
                .because(error.to_string())
        })
    }

    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        serde_json::from_str(text).map_err(|error| {
            ValueProblem::expected(format!("JSON text of `{}`", T::schema_name()))
                .because(error.to_string())
        })
    }
}

/// Strings: `String`, `OsString` and anything `From<String>`.
#[derive(Debug)]
pub struct Text<T>(PhantomData<fn() -> T>);

impl<T> Text<T> {
    /// A converter for `T`.
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for Text<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: From<String>> Converter for Text<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::string()
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        expect_str(value, || "a string".into()).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        Ok(T::from(text.to_owned()))
    }
}

/// A type clap's `value_parser!` makes from the text by a `From` impl
/// (`From<OsString>`, `From<&OsStr>` or `From<&str>`): any string.
pub struct FromText<T>(fn(&str) -> T);

impl<T> FromText<T> {
    /// A converter making `T` with `from`.
    pub fn new(from: fn(&str) -> T) -> Self {
        Self(from)
    }
}

impl<T> Converter for FromText<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::string()
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        expect_str(value, || "a string".into()).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        Ok((self.0)(text))
    }
}

/// Paths: like clap's `PathBuf` parser, an empty path is refused.
#[derive(Debug, Default)]
pub struct Path;

impl Converter for Path {
    type Output = std::path::PathBuf;
    fn value_type(&self) -> ValueType {
        ValueType::String(StringFacets {
            min_length: Some(1),
            ..StringFacets::default()
        })
    }
    fn convert_json(&self, value: &Value) -> Result<Self::Output, ValueProblem> {
        expect_str(value, || "a path (a non-empty string)".into())
            .and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<Self::Output, ValueProblem> {
        if text.is_empty() {
            Err(ValueProblem::expected("a non-empty path"))
        } else {
            Ok(text.into())
        }
    }
}

/// Single characters: a string of exactly one character.
#[derive(Debug, Default)]
pub struct Char;

impl Converter for Char {
    type Output = char;
    fn value_type(&self) -> ValueType {
        ValueType::String(StringFacets {
            min_length: Some(1),
            max_length: Some(1),
            ..StringFacets::default()
        })
    }
    fn convert_json(&self, value: &Value) -> Result<char, ValueProblem> {
        expect_str(value, || "a single character".into()).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<char, ValueProblem> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(ValueProblem::expected("a single character")),
        }
    }
}

/// Booleans taking a value (`ArgAction::Set` on `bool`).
#[derive(Debug, Default)]
pub struct Bool;

impl Converter for Bool {
    type Output = bool;
    fn value_type(&self) -> ValueType {
        ValueType::Boolean
    }
    fn convert_json(&self, value: &Value) -> Result<bool, ValueProblem> {
        value
            .as_bool()
            .ok_or_else(|| ValueProblem::expected("a boolean (true or false)"))
    }
    fn convert_text(&self, text: &str) -> Result<bool, ValueProblem> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ValueProblem::expected("true or false")),
        }
    }
}

/// Integers, within the type's range and an optional `range(..)`.
#[derive(Debug)]
pub struct Integer<T> {
    min: i128,
    max: i128,
    ty: PhantomData<fn() -> T>,
}

impl<T: PrimitiveInteger> Integer<T> {
    /// The whole range of `T`.
    pub const fn new() -> Self {
        Self {
            min: T::MIN,
            max: T::MAX,
            ty: PhantomData,
        }
    }

    /// Narrows to an inclusive range (`value_parser!(T).range(..)`).
    pub const fn range(mut self, min: Option<i128>, max: Option<i128>) -> Self {
        if let Some(min) = min {
            if min > self.min {
                self.min = min;
            }
        }
        if let Some(max) = max {
            if max < self.max {
                self.max = max;
            }
        }
        self
    }

    fn expected(&self) -> String {
        let range = describe_range(self.min, self.max);
        if T::ZERO || self.min > 0 || self.max < 0 {
            range
        } else {
            format!("{range}, other than 0")
        }
    }

    fn check(&self, n: i128) -> Result<T, ValueProblem> {
        if n < self.min || n > self.max {
            return Err(ValueProblem::expected(self.expected()));
        }
        T::from_wide(n).ok_or_else(|| ValueProblem::expected(self.expected()))
    }
}

impl<T: PrimitiveInteger> Default for Integer<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads a JSON integer of any width, refusing fractions and strings. A
/// number with a zero fraction (`3.0`) is an integer for JSON Schema, and
/// so it is here, within the range where floats are exact.
pub(crate) fn json_integer(value: &Value) -> Option<i128> {
    if let Some(n) = value.as_i64() {
        Some(n.into())
    } else if let Some(n) = value.as_u64() {
        Some(n.into())
    } else {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() <= EXACT)
            .map(|f| f as i128)
    }
}

impl<T: PrimitiveInteger> Converter for Integer<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::integer(self.min, self.max)
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        let n = json_integer(value).ok_or_else(|| ValueProblem::expected(self.expected()))?;
        self.check(n)
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        let n: i128 = text
            .parse()
            .map_err(|_| ValueProblem::expected(self.expected()))?;
        self.check(n)
    }
}

/// `f32` / `f64`.
#[derive(Debug)]
pub struct Float<T>(PhantomData<fn() -> T>);

impl<T> Float<T> {
    /// A converter for `T`.
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for Float<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Floating-point field types.
pub trait PrimitiveFloat: FromStr {
    /// Narrows a JSON number.
    fn from_f64(n: f64) -> Self;
}
impl PrimitiveFloat for f64 {
    fn from_f64(n: f64) -> Self {
        n
    }
}
impl PrimitiveFloat for f32 {
    #[allow(clippy::cast_possible_truncation)]
    fn from_f64(n: f64) -> Self {
        n as f32
    }
}

impl<T: PrimitiveFloat> Converter for Float<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::Number
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        value
            .as_f64()
            .map(T::from_f64)
            .ok_or_else(|| ValueProblem::expected("a number"))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        text.parse().map_err(|_| ValueProblem::expected("a number"))
    }
}

/// `#[arg(value_enum)]` types: one of the values clap accepts, by the
/// names (and aliases) clap gives them.
#[derive(Debug)]
pub struct Enum<T> {
    ignore_case: bool,
    ty: PhantomData<fn() -> T>,
}

impl<T> Enum<T> {
    /// A converter for `T`; `ignore_case` mirrors `#[arg(ignore_case)]`.
    pub const fn new(ignore_case: bool) -> Self {
        Self {
            ignore_case,
            ty: PhantomData,
        }
    }
}

impl<T: ValueEnum> Enum<T> {
    /// The help of each visible value (`""` without), or nothing when no
    /// value has one.
    fn help() -> Vec<String> {
        let help: Vec<String> = T::value_variants()
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .filter(|value| !value.is_hide_set())
            .map(|value| {
                value
                    .get_help()
                    .map(ToString::to_string)
                    .unwrap_or_default()
            })
            .collect();
        if help.iter().all(String::is_empty) {
            Vec::new()
        } else {
            help
        }
    }

    fn names() -> Vec<String> {
        T::value_variants()
            .iter()
            .filter_map(ValueEnum::to_possible_value)
            .filter(|value| !value.is_hide_set())
            .map(|value| value.get_name().to_owned())
            .collect()
    }

    fn expected() -> String {
        format!("one of {}", quoted_list(&Self::names()))
    }
}

fn quoted_list(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("\"{v}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

impl<T: ValueEnum> Converter for Enum<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::Enum {
            values: Self::names(),
            help: Self::help(),
        }
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        expect_str(value, Self::expected).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        T::from_str(text, self.ignore_case).map_err(|_| ValueProblem::expected(Self::expected()))
    }
}

/// `value_parser = ["a", "b"]`: one of a literal list of strings.
#[derive(Debug)]
pub struct OneOf<T> {
    values: &'static [&'static str],
    ignore_case: bool,
    ty: PhantomData<fn() -> T>,
}

impl<T> OneOf<T> {
    /// A converter accepting `values`.
    pub const fn new(values: &'static [&'static str], ignore_case: bool) -> Self {
        Self {
            values,
            ignore_case,
            ty: PhantomData,
        }
    }

    fn expected(&self) -> String {
        let values: Vec<String> = self.values.iter().map(|v| (*v).to_owned()).collect();
        format!("one of {}", quoted_list(&values))
    }
}

impl<T: From<String>> Converter for OneOf<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        ValueType::Enum {
            values: self.values.iter().map(|v| (*v).to_owned()).collect(),
            help: Vec::new(),
        }
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        expect_str(value, || self.expected()).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        let found = self.values.iter().find(|v| {
            if self.ignore_case {
                v.eq_ignore_ascii_case(text)
            } else {
                **v == text
            }
        });
        match found {
            // clap's `PossibleValuesParser` keeps the text as given, also
            // when it matched without regard to case.
            Some(_) => Ok(T::from(text.to_owned())),
            None => Err(ValueProblem::expected(self.expected())),
        }
    }
}

/// Any `FromStr` type (IP addresses, user types): a JSON string parsed by
/// the type's own `FromStr`, as clap's `value_parser!` does.
#[derive(Debug)]
pub struct Parse<T> {
    value_type: ValueType,
    ty: PhantomData<fn() -> T>,
}

impl<T> Parse<T> {
    /// Parses with `T::from_str`, described as `value_type`.
    pub const fn new(value_type: ValueType) -> Self {
        Self {
            value_type,
            ty: PhantomData,
        }
    }
}

impl<T> Converter for Parse<T>
where
    T: FromStr,
    T::Err: std::fmt::Display,
{
    type Output = T;
    fn value_type(&self) -> ValueType {
        self.value_type.clone()
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        expect_str(value, || "a string".into()).and_then(|s| self.convert_text(s))
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        text.parse::<T>().map_err(|e| {
            let expected = match &self.value_type {
                ValueType::String(facets) if *facets == StringFacets::default() => {
                    format!("a string `{}` reads", short_type_name::<T>())
                }
                other => expected_of(other),
            };
            ValueProblem::expected(expected).because(e.to_string())
        })
    }
}

/// A type's name without its path (`Url` for `url::Url`), generic
/// arguments kept short too.
fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or_default());
            word.clear();
            out.push(c);
        }
    }
    out.push_str(word.rsplit("::").next().unwrap_or_default());
    out
}

/// What a parser of the user's accepts, when it refused a value: the
/// value's type alone could claim too much (an integer parser with a
/// range of its own refuses integers of the type's range).
fn parser_expected(value_type: &ValueType) -> String {
    match value_type {
        ValueType::Enum { .. } => expected_of(value_type),
        ValueType::String(facets) if *facets != StringFacets::default() => expected_of(value_type),
        ValueType::Integer { .. } => "an integer the argument's parser accepts".to_owned(),
        other => format!("a {} the argument's parser accepts", other.json_type()),
    }
}

pub(crate) fn expected_of(value_type: &ValueType) -> String {
    match value_type {
        ValueType::String(facets) => match facets.format {
            Some(format) => format!("a string in `{format}` format"),
            None if !facets.any_format.is_empty() => {
                format!("a string in `{}` format", facets.any_format.join("` or `"))
            }
            None if !facets.examples.is_empty() => {
                format!("a string like \"{}\"", facets.examples.join("\", \""))
            }
            None => "a valid string".to_owned(),
        },
        ValueType::Integer { minimum, maximum } => {
            describe_range(minimum.unwrap_or(i128::MIN), maximum.unwrap_or(i128::MAX))
        }
        ValueType::Number => "a number".to_owned(),
        ValueType::Boolean => "a boolean".to_owned(),
        ValueType::Enum { values, .. } => format!("one of {}", quoted_list(values)),
        ValueType::Map { .. } => "an object".to_owned(),
        ValueType::Json { .. } => "a JSON value matching the property's schema".to_owned(),
    }
}

/// The empty command clap's value parsers need as context for their error
/// messages. Made once; the user's command tree is never built.
static PARSER_CONTEXT: LazyLock<clap::Command> = LazyLock::new(|| clap::Command::new("mcp-bridge"));

/// A `value_parser = ...` expression: the value goes through the same
/// `TypedValueParser` clap would call.
#[derive(Debug)]
pub struct ClapParser<P> {
    parser: P,
    value_type: ValueType,
    /// `ignore_case` of the argument, which clap hands the parser with
    /// the argument (a `PossibleValuesParser` reads it).
    ignore_case: bool,
}

impl<P: TypedValueParser> ClapParser<P> {
    /// Wraps `parser`; `value_type` tells which JSON type the value has
    /// (a string parser with possible values, such as
    /// `PossibleValuesParser`, makes it an enum of them).
    pub fn new(parser: P, value_type: ValueType) -> Self {
        let value_type = with_possible_values(value_type, parser.possible_values());
        Self {
            parser,
            value_type,
            ignore_case: false,
        }
    }

    /// The argument's `ignore_case`, handed to the parser as clap hands it.
    pub fn ignore_case(mut self, ignore_case: bool) -> Self {
        self.ignore_case = ignore_case;
        self
    }
}

/// The arguments a parser is handed as context, by `ignore_case`: what
/// clap gives it reads only that setting.
static PARSER_ARGS: LazyLock<[clap::Arg; 2]> = LazyLock::new(|| {
    [
        clap::Arg::new("value"),
        clap::Arg::new("value").ignore_case(true),
    ]
});

/// A string type narrowed to the values a parser lists (hidden ones left
/// out, as clap's help leaves them out).
fn with_possible_values(
    value_type: ValueType,
    values: Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>>,
) -> ValueType {
    match (value_type, values) {
        (ValueType::String(_), Some(values)) => {
            let (values, mut help): (Vec<String>, Vec<String>) = values
                .filter(|v| !v.is_hide_set())
                .map(|v| {
                    let help = v.get_help().map(ToString::to_string).unwrap_or_default();
                    (v.get_name().to_owned(), help)
                })
                .unzip();
            if help.iter().all(String::is_empty) {
                help.clear();
            }
            ValueType::Enum { values, help }
        }
        (value_type, _) => value_type,
    }
}

impl<P: TypedValueParser> Converter for ClapParser<P> {
    type Output = P::Value;
    fn value_type(&self) -> ValueType {
        self.value_type.clone()
    }
    fn schema_type(&self) -> ValueType {
        accepted_bounds(self.value_type.clone(), |n| {
            self.convert_text(&n.to_string()).is_ok()
        })
    }
    fn convert_json(&self, value: &Value) -> Result<P::Value, ValueProblem> {
        let text = json_text(&self.value_type, value)?;
        self.convert_text(&text)
    }
    fn convert_text(&self, text: &str) -> Result<P::Value, ValueProblem> {
        let arg = &PARSER_ARGS[usize::from(self.ignore_case)];
        self.parser
            .parse_ref(&PARSER_CONTEXT, Some(arg), OsStr::new(text))
            .map_err(|error| {
                ValueProblem::expected(parser_expected(&self.value_type))
                    .because(clap_reason(&error))
            })
    }
}

/// A parser clap only knows type-erased (a `ValueParser`): clap parses
/// the text itself, as the one value of a one-argument command holding
/// the parser, and hands back the typed value. Slower than [`ClapParser`]
/// (a small command is built per value), and only used when the parser's
/// type gives no other way.
#[derive(Debug)]
pub struct ErasedParser<T> {
    parser: clap::builder::ValueParser,
    value_type: ValueType,
    ignore_case: bool,
    _value: PhantomData<fn() -> T>,
}

impl<T> ErasedParser<T> {
    /// Wraps `parser`; `value_type` tells which JSON type the value has.
    pub fn new(parser: clap::builder::ValueParser, value_type: ValueType) -> Self {
        let value_type = with_possible_values(value_type, parser.possible_values());
        Self {
            parser,
            value_type,
            ignore_case: false,
            _value: PhantomData,
        }
    }

    /// The argument's `ignore_case`, as clap applies it.
    pub fn ignore_case(mut self, ignore_case: bool) -> Self {
        self.ignore_case = ignore_case;
        self
    }
}

impl<T: std::any::Any + Clone + Send + Sync + 'static> Converter for ErasedParser<T> {
    type Output = T;
    fn value_type(&self) -> ValueType {
        self.value_type.clone()
    }
    fn schema_type(&self) -> ValueType {
        accepted_bounds(self.value_type.clone(), |n| {
            self.convert_text(&n.to_string()).is_ok()
        })
    }
    fn convert_json(&self, value: &Value) -> Result<T, ValueProblem> {
        let text = json_text(&self.value_type, value)?;
        self.convert_text(&text)
    }
    fn convert_text(&self, text: &str) -> Result<T, ValueProblem> {
        const ID: &str = "value";
        let command = clap::Command::new(ID)
            .no_binary_name(true)
            .disable_help_flag(true)
            .arg(
                clap::Arg::new(ID)
                    .value_parser(self.parser.clone())
                    .ignore_case(self.ignore_case)
                    .allow_hyphen_values(true)
                    .required(true)
                    .num_args(1),
            );
        let problem = |reason: String| {
            ValueProblem::expected(parser_expected(&self.value_type)).because(reason)
        };
        let mut matches = command
            .try_get_matches_from([text])
            .map_err(|error| problem(clap_reason(&error)))?;
        matches
            .try_remove_one::<T>(ID)
            .map_err(|error| problem(error.to_string()))?
            .ok_or_else(|| problem("no value".to_owned()))
    }
}

/// An integer type narrowed to the interval its parser accepts
/// (`value_parser!(u16).range(1..PORTS)`, a `RangedI64ValueParser`): the
/// parser is asked for the type's ends and, where it refuses one, the
/// edge is found by bisection from a value it takes. A parser taking
/// neither end nor any of 0, 1, -1 keeps the type's bounds (its own
/// message says what it takes).
fn accepted_bounds(value_type: ValueType, accepts: impl Fn(i128) -> bool) -> ValueType {
    let ValueType::Integer {
        minimum: Some(low),
        maximum: Some(high),
    } = value_type
    else {
        return value_type;
    };
    let (takes_low, takes_high) = (accepts(low), accepts(high));
    if takes_low && takes_high {
        return value_type;
    }
    let inside = [0, 1, -1, low, high]
        .into_iter()
        .filter(|n| (low..=high).contains(n))
        .find(|&n| accepts(n));
    let Some(inside) = inside else {
        return value_type;
    };
    // Between a refused value and a taken one, the taken value nearest
    // the refused one.
    let edge = |mut refused: i128, mut taken: i128| {
        while refused.abs_diff(taken) > 1 {
            let middle = refused + (taken - refused) / 2;
            if accepts(middle) {
                taken = middle;
            } else {
                refused = middle;
            }
        }
        taken
    };
    ValueType::Integer {
        minimum: Some(if takes_low { low } else { edge(low, inside) }),
        maximum: Some(if takes_high { high } else { edge(high, inside) }),
    }
}

/// The text a parser is given for a JSON value of `value_type`: the
/// value as typed (an integer for an integer, a string for a parser of
/// the CLI's, which reads text), never coerced: what the schema says is
/// what a call is taken with.
fn json_text(value_type: &ValueType, value: &Value) -> Result<String, ValueProblem> {
    Ok(match (value_type, value) {
        (ValueType::Integer { .. }, v) => match json_integer(v) {
            Some(n) => n.to_string(),
            None => return Err(ValueProblem::expected(expected_of(value_type))),
        },
        (ValueType::Number, Value::Number(n)) => n.to_string(),
        (ValueType::Boolean, Value::Bool(b)) => b.to_string(),
        (ValueType::Number | ValueType::Boolean, _) => {
            return Err(ValueProblem::expected(expected_of(value_type)))
        }
        (_, Value::String(s)) => s.clone(),
        _ => return Err(ValueProblem::expected(expected_of(value_type))),
    })
}

/// The useful part of a clap value error: the parser's own message when
/// there is one; else the values clap would take and its suggestion; else
/// clap's first line without the `error:` prefix, nor the name of the
/// stand-in argument the parser was run for (`for '<value>'`).
fn clap_reason(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    if let Some(source) = std::error::Error::source(error) {
        return source.to_string();
    }
    let mut parts = Vec::new();
    if let Some(ContextValue::Strings(valid)) = error.get(ContextKind::ValidValue) {
        parts.push(format!("possible values: {}", valid.join(", ")));
    }
    if let Some(ContextValue::String(suggested)) = error.get(ContextKind::SuggestedValue) {
        parts.push(format!("did you mean {suggested:?}?"));
    }
    if !parts.is_empty() {
        return parts.join("; ");
    }
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    match first.split_once(" for '<value>'") {
        Some((before, after)) => format!("{before}{}", after.trim_start_matches(':')),
        None => first.to_owned(),
    }
}

/// Key=value pairs (`Vec<(K, V)>` with a key=value `value_parser`): a JSON
/// object whose entries are each handed to the parser as `key=value`.
#[derive(Debug)]
pub struct KeyValue<C> {
    pair: C,
    values: ValueType,
}

impl<C: Converter> KeyValue<C> {
    /// `pair` parses one `key=value` text; `values` describes a value.
    pub fn new(pair: C, values: ValueType) -> Self {
        Self { pair, values }
    }

    /// The JSON type of the whole map.
    pub fn map_type(&self) -> ValueType {
        ValueType::Map {
            values: Box::new(self.values.clone()),
        }
    }

    /// Converts every entry of a JSON object.
    pub fn from_object(
        &self,
        value: &Value,
    ) -> Result<Vec<C::Output>, (Option<String>, ValueProblem)> {
        let object = value.as_object().ok_or_else(|| {
            (
                None,
                ValueProblem::expected("an object of key: value pairs"),
            )
        })?;
        object
            .iter()
            .map(|(key, item)| {
                // The value must have the JSON type the schema states; only
                // then is it written as text for the pair parser.
                let text = match (&self.values, item) {
                    (ValueType::Integer { .. }, v) if json_integer(v).is_some() => {
                        json_integer(v).map(|n| n.to_string()).unwrap_or_default()
                    }
                    (ValueType::Number, Value::Number(n)) => n.to_string(),
                    (ValueType::Boolean, Value::Bool(b)) => b.to_string(),
                    (ValueType::String(_) | ValueType::Enum { .. }, Value::String(s)) => s.clone(),
                    _ => {
                        return Err((
                            Some(key.clone()),
                            ValueProblem::expected(expected_of(&self.values)),
                        ))
                    }
                };
                self.pair
                    .convert_text(&format!("{key}={text}"))
                    .map_err(|problem| {
                        let mut refused = ValueProblem::expected(expected_of(&self.values));
                        refused.reason = problem.reason;
                        (Some(key.clone()), refused)
                    })
            })
            .collect()
    }

    /// Converts one `key=value` default.
    pub fn convert_text(&self, text: &str) -> Result<C::Output, ValueProblem> {
        self.pair.convert_text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_arrive_as_integers_within_their_bounds() {
        let conv = Integer::<u8>::new().range(Some(1), Some(5));
        assert_eq!(conv.convert_json(&json!(5)).unwrap(), 5);
        assert_eq!(conv.convert_json(&json!(3.0)).unwrap(), 3);
        for refused in [json!(0), json!(6), json!("3"), json!(2.5), json!(null)] {
            let problem = conv.convert_json(&refused).unwrap_err();
            assert_eq!(problem.expected, "an integer from 1 to 5", "{refused}");
        }
        assert_eq!(conv.convert_text("4").unwrap(), 4);
        assert_eq!(
            conv.value_type(),
            ValueType::Integer {
                minimum: Some(1),
                maximum: Some(5)
            }
        );
    }

    #[test]
    fn wide_integer_bounds_are_not_stated() {
        assert_eq!(
            Integer::<i128>::new().value_type(),
            ValueType::Integer {
                minimum: None,
                maximum: None
            }
        );
        assert_eq!(Integer::<i128>::new().expected(), "an integer");
    }

    #[test]
    fn paths_and_chars_refuse_what_clap_refuses() {
        assert!(Path.convert_json(&json!("")).is_err());
        assert_eq!(
            Path.convert_json(&json!("a/b")).unwrap(),
            std::path::PathBuf::from("a/b")
        );
        assert_eq!(Char.convert_json(&json!("é")).unwrap(), 'é');
        assert!(Char.convert_json(&json!("ab")).is_err());
        assert!(Bool.convert_json(&json!("true")).is_err());
        assert!(Bool.convert_text("yes").is_err());
    }

    #[test]
    fn one_of_gives_the_text_as_given_as_clap_does() {
        // clap's `PossibleValuesParser` matches ignoring case and hands on
        // the text it was given.
        let conv = OneOf::<String>::new(&["json", "text"], true);
        assert_eq!(conv.convert_json(&json!("JSON")).unwrap(), "JSON");
        let strict = OneOf::<String>::new(&["json", "text"], false);
        assert!(strict.convert_json(&json!("JSON")).is_err());
        let problem = conv.convert_json(&json!("yaml")).unwrap_err();
        assert_eq!(problem.expected, "one of \"json\", \"text\"");
    }

    #[test]
    fn a_clap_parser_gets_the_text_of_a_typed_value() {
        let conv = ClapParser::new(
            clap::value_parser!(u16).range(1..=10),
            ValueType::integer(1, 10),
        );
        assert_eq!(conv.convert_json(&json!(7)).unwrap(), 7);
        assert!(
            conv.convert_json(&json!("7")).is_err(),
            "typed, not coerced"
        );
        let problem = conv.convert_json(&json!(11)).unwrap_err();
        assert!(problem.reason.is_some(), "clap's own reason is kept");
    }

    #[test]
    fn refusals_say_what_the_parser_takes_not_the_types_range() {
        // A range of the parser's own: the type's range would claim 0.
        let ranged = ClapParser::new(
            clap::value_parser!(u64).range(1..),
            ValueType::integer(0, u64::MAX.into()),
        );
        let problem = ranged.convert_json(&json!(0)).unwrap_err();
        assert_eq!(problem.expected, "an integer the argument's parser accepts");
        let reason = problem.reason.unwrap();
        assert!(reason.contains("0 is not in 1.."), "{reason}");
        // A list of values: no stand-in argument named, the values listed.
        let listed = ClapParser::new(
            clap::builder::PossibleValuesParser::new(["fast", "slow"]),
            ValueType::string(),
        );
        let problem = listed.convert_json(&json!("fats")).unwrap_err();
        assert_eq!(problem.expected, "one of \"fast\", \"slow\"");
        let reason = problem.reason.unwrap();
        assert!(!reason.contains("<value>"), "{reason}");
        assert!(reason.contains("did you mean \"fast\"?"), "{reason}");
        // A `FromStr` type names itself.
        #[derive(Debug)]
        struct Even;
        impl FromStr for Even {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                s.parse::<u32>()
                    .ok()
                    .filter(|n| n % 2 == 0)
                    .map(|_| Even)
                    .ok_or_else(|| format!("{s} is not even"))
            }
        }
        let problem = Parse::<Even>::new(ValueType::string())
            .convert_json(&json!("3"))
            .unwrap_err();
        assert_eq!(problem.expected, "a string `Even` reads");
        assert_eq!(problem.reason.as_deref(), Some("3 is not even"));
        assert_eq!(short_type_name::<Vec<std::path::PathBuf>>(), "Vec<PathBuf>");
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        let long = json!("x".repeat(200));
        let shown = describe_value(&long);
        assert!(shown.ends_with('…'));
        assert_eq!(shown.chars().count(), 81);
    }
}
