//! Value types: the JSON type of one value of a parameter, and how many
//! values a parameter takes.

use serde::Serialize;
use serde_json::Value;

/// The JSON type of one value of a parameter.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "type")]
pub enum ValueType {
    /// A JSON string, optionally constrained.
    String(StringFacets),
    /// A JSON integer with optional inclusive bounds.
    Integer {
        /// Smallest accepted value.
        minimum: Option<i128>,
        /// Largest accepted value.
        maximum: Option<i128>,
    },
    /// A JSON number.
    Number,
    /// A JSON boolean.
    Boolean,
    /// One of a fixed set of strings, as clap names them.
    Enum {
        /// The accepted values.
        values: Vec<String>,
        /// What each value means (its doc comment, as clap shows it in
        /// `--help`), in the order of `values`, `""` for one without; empty
        /// when none has any.
        help: Vec<String>,
    },
    /// A JSON object whose values are all of one type (key=value maps).
    Map {
        /// The type of each value.
        values: Box<ValueType>,
    },
    /// Any JSON value its schema describes: an argument the CLI parses
    /// from JSON text, offered as JSON (`#[mcp(json)]`), with the schema
    /// `schemars` derives for its type.
    Json {
        /// The value's JSON Schema (subschemas inlined).
        schema: serde_json::Map<String, Value>,
    },
}

/// Constraints on a string value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StringFacets {
    /// JSON Schema `format` (`ipv4`, `ipv6`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    /// A regular expression the value must match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<&'static str>,
    /// Minimum length in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u32>,
    /// Maximum length in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u32>,
    /// Example values shown to the client.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub examples: &'static [&'static str],
    /// Alternatives (`anyOf`), e.g. IPv4 or IPv6.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub any_format: &'static [&'static str],
}

impl ValueType {
    /// A plain, unconstrained string.
    pub const fn string() -> Self {
        ValueType::String(StringFacets {
            format: None,
            pattern: None,
            min_length: None,
            max_length: None,
            examples: &[],
            any_format: &[],
        })
    }

    /// The name of the JSON type (`"string"`, `"integer"`, ...).
    pub fn json_type(&self) -> &'static str {
        match self {
            ValueType::String(_) | ValueType::Enum { .. } => "string",
            ValueType::Integer { .. } => "integer",
            ValueType::Number => "number",
            ValueType::Boolean => "boolean",
            ValueType::Map { .. } => "object",
            ValueType::Json { schema } => match schema.get("type").and_then(Value::as_str) {
                Some("object") | None => "object",
                Some("array") => "array",
                Some("string") => "string",
                Some("integer") => "integer",
                Some("number") => "number",
                Some("boolean") => "boolean",
                Some(_) => "object",
            },
        }
    }

    /// Turns a default as clap stores it (a string) into a JSON value of
    /// this type: `"10"` becomes `10` for an integer. Falls back to the
    /// string when it does not read as this type.
    pub fn typed_default(&self, text: &str) -> Value {
        self.read_text(text).unwrap_or_else(|| Value::from(text))
    }

    /// A command-line text as a JSON value of this type (`"10"` → `10`
    /// for an integer, JSON text parsed for a JSON argument, any text a
    /// string for the others); `None` when it does not read as this type.
    pub(crate) fn read_text(&self, text: &str) -> Option<Value> {
        match self {
            ValueType::Integer { .. } => text
                .parse::<i64>()
                .map(Value::from)
                .or_else(|_| text.parse::<u64>().map(Value::from))
                .ok(),
            ValueType::Number => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            ValueType::Boolean => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            // The CLI reads it as JSON text.
            ValueType::Json { .. } => serde_json::from_str(text).ok(),
            _ => Some(Value::from(text)),
        }
    }
}

impl ValueType {
    /// An integer from `min` to `max`, inclusive. Bounds are stated where
    /// JSON numbers carry them exactly (64 bits); wider ones are left out.
    pub const fn integer(min: i128, max: i128) -> Self {
        ValueType::Integer {
            minimum: if min >= i64::MIN as i128 {
                Some(min)
            } else {
                None
            },
            maximum: if max <= u64::MAX as i128 {
                Some(max)
            } else {
                None
            },
        }
    }
}

/// Primitive integer types and their full range, and the `NonZero` ones
/// (clap reads both through `FromStr`).
pub trait PrimitiveInteger: Sized {
    /// The smallest value, widened (1 for an unsigned `NonZero`).
    const MIN: i128;
    /// The largest value, widened (capped at `i128::MAX` for `u128`).
    const MAX: i128;
    /// Whether 0 is a value (not of a `NonZero` type).
    const ZERO: bool = true;
    /// The value `n`, when it is one of the type's.
    fn from_wide(n: i128) -> Option<Self>;
}

macro_rules! primitive_integers {
    ($($t:ty),*) => {$(
        impl PrimitiveInteger for $t {
            const MIN: i128 = <$t>::MIN as i128;
            #[allow(clippy::cast_possible_wrap)]
            const MAX: i128 = if (<$t>::MAX as u128) > i128::MAX as u128 { i128::MAX } else { <$t>::MAX as i128 };
            fn from_wide(n: i128) -> Option<Self> {
                <$t>::try_from(n).ok()
            }
        }
    )*};
}
primitive_integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! nonzero_integers {
    ($($t:ty => $p:ty),*) => {$(
        impl PrimitiveInteger for $t {
            const MIN: i128 = if <$p as PrimitiveInteger>::MIN == 0 { 1 } else { <$p as PrimitiveInteger>::MIN };
            const MAX: i128 = <$p as PrimitiveInteger>::MAX;
            const ZERO: bool = false;
            fn from_wide(n: i128) -> Option<Self> {
                <$p>::try_from(n).ok().and_then(<$t>::new)
            }
        }
    )*};
}
nonzero_integers!(
    std::num::NonZeroI8 => i8, std::num::NonZeroI16 => i16, std::num::NonZeroI32 => i32,
    std::num::NonZeroI64 => i64, std::num::NonZeroI128 => i128, std::num::NonZeroIsize => isize,
    std::num::NonZeroU8 => u8, std::num::NonZeroU16 => u16, std::num::NonZeroU32 => u32,
    std::num::NonZeroU64 => u64, std::num::NonZeroU128 => u128, std::num::NonZeroUsize => usize
);

/// "an integer from 1 to 5", "an integer ≥ 0", ...
pub(crate) fn describe_range(min: i128, max: i128) -> String {
    const WIDE: i128 = i64::MAX as i128;
    match (min > -WIDE, max < WIDE) {
        (true, true) => format!("an integer from {min} to {max}"),
        (true, false) => format!("an integer ≥ {min}"),
        (false, true) => format!("an integer ≤ {max}"),
        (false, false) => "an integer".to_owned(),
    }
}

/// How many values one use of an argument takes (`num_args`), and whether
/// it may be used more than once (`Append`): the length a list may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arity {
    /// Fewest values per use.
    pub min: u32,
    /// Most values per use, if bounded.
    pub max: Option<u32>,
    /// Whether the argument may be given several times.
    pub repeatable: bool,
}

impl Arity {
    /// Whether a list of `len` values can be given.
    pub fn accepts(&self, len: usize) -> bool {
        let len = len as u64;
        let (min, max) = (u64::from(self.min), self.max.map(u64::from));
        if len == 0 {
            return true;
        }
        if !self.repeatable {
            return len >= min && max.is_none_or(|max| len <= max);
        }
        match max {
            None => len >= min.max(1),
            // Some number of uses k, each with min..=max values.
            Some(0) => false,
            Some(max) => (1..=len).any(|k| k * min <= len && len <= k * max),
        }
    }

    /// "2 values", "1 to 3 values", "values in groups of 2"...
    pub fn describe(&self) -> String {
        let per_use = match self.max {
            Some(max) if max == self.min => format!("{max}"),
            Some(max) => format!("{} to {max}", self.min),
            None => format!("at least {}", self.min),
        };
        if self.repeatable {
            format!("values in groups of {per_use}")
        } else {
            format!("{per_use} values")
        }
    }
}

/// Where an argument's allowed values come from at run time
/// (`#[mcp(values = path::to_fn)]`): a function returning the current
/// values (labels fetched from an API...), and how long they hold.
#[derive(Clone, Copy)]
pub struct ValuesSource {
    /// The function's path as written (`labels::fetch`), for messages.
    pub name: &'static str,
    /// Calls it: the values, or why there are none.
    pub fetch: fn() -> Result<Vec<String>, String>,
    /// `values_ttl = "5m"`: how long fetched values are used before they
    /// are fetched again (the server's default when `None`).
    pub ttl: Option<std::time::Duration>,
}

impl ValuesSource {
    /// The values the function gives now, a panic in it included.
    pub(crate) fn call(&self) -> Result<Vec<String>, String> {
        match std::panic::catch_unwind(self.fetch) {
            Ok(fetched) => fetched,
            Err(panic) => Err(format!(
                "it panicked: {}",
                crate::error::panic_message(&*panic)
            )),
        }
    }
}

impl std::fmt::Debug for ValuesSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValuesSource")
            .field("name", &self.name)
            .field("ttl", &self.ttl)
            .finish()
    }
}

impl PartialEq for ValuesSource {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.ttl == other.ttl
    }
}

/// What generated code makes of a values function's result: the values
/// as strings, or the error as text.
#[doc(hidden)]
pub fn values_of<S: Into<String>, E: std::fmt::Display>(
    fetched: Result<Vec<S>, E>,
) -> Result<Vec<String>, String> {
    fetched
        .map(|values| values.into_iter().map(Into::into).collect())
        .map_err(|error| error.to_string())
}
