//! The typed build: generated code asks this context for each field's
//! value, in declaration order, and gets it converted or a precise error.
//!
//! It applies what clap applies when an argument is absent (defaults,
//! `None`, empty lists, `false`) and refuses what clap refuses.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::convert::{describe_value, expected_of, json_integer, Converter, KeyValue};
use crate::error::{ArgError, Problem, ValueProblem};
use crate::spec::{Arity, ParamAction, ParamSpec, ToolSpec, EXTERNAL_ARGS, EXTERNAL_COMMAND};

/// A default as clap would store it: texts parsed like user input.
pub type DefaultTexts = Option<Vec<Cow<'static, str>>>;

/// The lazily evaluated default texts of one argument. A trait object, so
/// that the build functions are instantiated once per converter type, not
/// once per argument: a closure, or [`LiteralTexts`].
pub type Texts<'f> = &'f dyn DefaultSource;

/// Where an argument's default texts come from ([`Texts`]).
pub trait DefaultSource {
    /// The texts, evaluated now.
    fn texts(&self) -> DefaultTexts;
}

impl<F: Fn() -> DefaultTexts> DefaultSource for F {
    fn texts(&self) -> DefaultTexts {
        self()
    }
}

/// Default texts written as literals: static data, with no code of their
/// own in the CLI's crate.
#[derive(Debug)]
pub struct LiteralTexts(pub &'static [&'static str]);

impl DefaultSource for LiteralTexts {
    fn texts(&self) -> DefaultTexts {
        Some(self.0.iter().map(|text| Cow::Borrowed(*text)).collect())
    }
}

/// The default texts of an argument that has none.
pub fn no_texts() -> DefaultTexts {
    None
}

/// The texts of the environment variable `name`, split on `delimiter` as
/// clap splits them, or `otherwise` when it is not set.
pub fn env_texts(
    name: &str,
    delimiter: Option<char>,
    otherwise: impl FnOnce() -> DefaultTexts,
) -> DefaultTexts {
    match std::env::var(name) {
        Ok(value) => Some(match delimiter {
            Some(delimiter) => value
                .split(delimiter)
                .map(|piece| Cow::Owned(piece.to_owned()))
                .collect(),
            None => vec![Cow::Owned(value)],
        }),
        Err(_) => otherwise(),
    }
}

/// Whether a value makes clap see the argument at all: `false` for a
/// switch, 0 for a count and `[]` are no argument on a command line.
pub(crate) fn is_given(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Array(items) => !items.is_empty(),
        Value::Number(n) => n.as_f64() != Some(0.0),
        _ => true,
    }
}

/// The text clap reads for a JSON scalar.
pub(crate) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn first(texts: Texts<'_>) -> Option<Cow<'static, str>> {
    texts.texts().and_then(|texts| texts.into_iter().next())
}

/// Where a single value comes from.
enum Pick<'a> {
    /// The property's JSON value.
    Json(&'a Value),
    /// A default (or missing-value) text.
    Text(Cow<'static, str>),
    /// `null`, with no text for the flag given without a value.
    Null,
    /// Absent, with no default.
    Absent,
}

/// One `tools/call` being turned into the CLI's typed value: generated
/// `mcp_build`s (and hand-written [`McpArgs`](crate::McpArgs)
/// implementations) ask it for each argument by property name, with the
/// converter of its value type, and get the value clap would give or an
/// [`ArgError`] naming the tool and the property.
#[derive(Debug)]
pub struct BuildCtx<'a> {
    tool: &'a ToolSpec,
    args: &'a Map<String, Value>,
    next_step: usize,
    /// How many subcommand levels (route steps) the build is inside: the
    /// level whose fields are being read.
    depth: u32,
    /// The variable the argument being built reads (`env = "NAME"`), so
    /// that a bad value from it is reported as such, not as a default.
    env: Option<&'static str>,
}

impl<'a> BuildCtx<'a> {
    /// A context for a call of `tool` with `args`.
    pub(crate) fn new(tool: &'a ToolSpec, args: &'a Map<String, Value>) -> Self {
        Self {
            tool,
            args,
            next_step: 0,
            depth: 0,
            env: None,
        }
    }

    /// The tool being called.
    pub fn tool(&self) -> &str {
        &self.tool.name
    }

    /// The next variant index on the route, or `None` when the route ends
    /// here (a runnable parent with an optional subcommand). The fields
    /// read next are those of that variant, one level down, until
    /// [`left_variant`](Self::left_variant).
    #[doc(hidden)]
    pub fn next_variant(&mut self) -> Option<u32> {
        let step = self.tool.route.get(self.next_step).copied();
        if step.is_some() {
            self.next_step += 1;
            self.depth += 1;
        }
        step
    }

    /// The variant [`next_variant`](Self::next_variant) chose is built:
    /// the fields read next are the enclosing level's again.
    #[doc(hidden)]
    pub fn left_variant(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The property an argument of the level being built is read from:
    /// its own name, unless a command below declares one of that name,
    /// which then keeps it (the registry renamed this one).
    fn property<'n>(&self, name: &'n str) -> &'n str
    where
        'a: 'n,
    {
        match self.tool.renamed.as_slice() {
            [] => name,
            renamed => renamed
                .iter()
                .find(|r| r.depth == self.depth && r.from == name)
                .map_or(name, |r| r.to.as_str()),
        }
    }

    /// Whether the route has no step left.
    #[doc(hidden)]
    pub fn route_ended(&self) -> bool {
        self.next_step >= self.tool.route.len()
    }

    /// An error for a route index no variant has. Only a registry built from
    /// another type's spec can cause it.
    #[doc(hidden)]
    pub fn bad_route(&self, type_name: &str) -> ArgError {
        ArgError::new(
            &self.tool.name,
            None,
            Problem::Relation {
                message: format!("internal error: tool route does not match `{type_name}`"),
            },
        )
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.args.get(name)
    }

    /// The value the call gives the argument of the level being built
    /// read from property `name`, as it is.
    pub(crate) fn given(&self, name: &str) -> Option<&'a Value> {
        self.get(self.property(name))
    }

    /// The default of the argument read from property `name`: the first
    /// of its `default_value_if`s whose condition the call meets (clap's
    /// order), or `otherwise` (its plain default).
    #[doc(hidden)]
    pub fn conditional_texts(
        &self,
        name: &str,
        otherwise: impl FnOnce() -> DefaultTexts,
    ) -> DefaultTexts {
        let property = self.property(name);
        let Some(param) = self.tool.params.iter().find(|p| p.name == property) else {
            return otherwise();
        };
        for rule in &param.default_ifs {
            if self.meets(rule, param) {
                return rule
                    .default
                    .as_ref()
                    .map(|texts| texts.iter().map(|text| Cow::Owned(text.clone())).collect());
            }
        }
        otherwise()
    }

    /// Whether the call meets a `default_value_if`'s condition, as clap
    /// checks it when it adds defaults: the other argument has values (any
    /// value for `IsPresent`, the one named otherwise), given in the call,
    /// by its variable, or as its own default when it comes first among
    /// the command's arguments (clap adds defaults in that order).
    fn meets(&self, rule: &crate::spec::DefaultIf, of: &ParamSpec) -> bool {
        let Some(texts) = self.values_for_defaults(&rule.arg, of, 0) else {
            return false;
        };
        match &rule.equals {
            None => true,
            Some(wanted) => texts.iter().any(|text| text == wanted),
        }
    }

    /// The values clap holds for the argument of id `id` when it adds the
    /// defaults of `of` (see [`meets`](Self::meets)); `None` when it holds
    /// none.
    fn values_for_defaults(&self, id: &str, of: &ParamSpec, depth: u8) -> Option<Vec<String>> {
        let params = &self.tool.params;
        let Some(at) = params.iter().position(|p| p.id == id) else {
            // A group's id: the values its members hold.
            let group = self.tool.groups.iter().find(|g| g.id == id)?;
            if depth > 8 {
                return None;
            }
            let held: Vec<Vec<String>> = group
                .members
                .iter()
                .filter_map(|member| self.values_for_defaults(member, of, depth + 1))
                .collect();
            return (!held.is_empty()).then(|| held.concat());
        };
        let other = &params[at];
        match self.args.get(&other.name) {
            Some(Value::Null) => return Some(Vec::new()),
            Some(Value::Bool(false)) | None => {}
            Some(Value::Array(items)) if items.is_empty() => {}
            Some(Value::Array(items)) => {
                return Some(items.iter().filter_map(scalar_text).collect())
            }
            Some(value) => return Some(scalar_text(value).into_iter().collect()),
        }
        if let Some(text) = other.env.as_deref().and_then(|env| std::env::var(env).ok()) {
            return Some(vec![text]);
        }
        // Absent: its default counts only if clap added it first.
        let before = params
            .iter()
            .position(|p| std::ptr::eq(p, of))
            .is_some_and(|mine| at < mine);
        if !before || depth > 8 {
            return None;
        }
        for rule in &other.default_ifs {
            let holds = self
                .values_for_defaults(&rule.arg, other, depth + 1)
                .is_some_and(|texts| rule.equals.as_ref().is_none_or(|w| texts.contains(w)));
            if holds {
                return rule.default.clone();
            }
        }
        (!other.default_text.is_empty()).then(|| other.default_text.clone())
    }

    /// Whether the call gives any of the arguments read from `names`, as
    /// clap counts an argument given (`false` for a switch, 0 for a count
    /// and `[]` are no argument on a command line), or the environment
    /// variable of one (`env`) is set.
    #[doc(hidden)]
    pub fn any_given(&self, names: &[&str]) -> bool {
        names.iter().any(|name| {
            let given = self.given(name).is_some_and(is_given);
            let property = self.property(name);
            given
                || self.tool.params.iter().any(|p| {
                    p.name == property
                        && p.env
                            .as_deref()
                            .is_some_and(|env| std::env::var_os(env).is_some())
                })
        })
    }

    fn invalid(&self, name: &str, value: &Value, problem: ValueProblem) -> ArgError {
        ArgError::new(
            &self.tool.name,
            Some(name),
            Problem::Invalid {
                given: describe_value(value),
                expected: problem.expected,
                reason: problem.reason,
            },
        )
    }

    fn convert<C: Converter>(
        &self,
        name: &str,
        conv: &C,
        value: &Value,
    ) -> Result<C::Output, ArgError> {
        if value.is_null() {
            let expected = match conv.value_type() {
                crate::spec::ValueType::String(facets)
                    if facets.format.is_none() && facets.any_format.is_empty() =>
                {
                    "a string".to_owned()
                }
                other => super::convert::expected_of(&other),
            };
            let optional = self
                .tool
                .params
                .iter()
                .any(|p| p.name == name && !p.required);
            let expected = if optional {
                format!("{expected} (or leave the property out)")
            } else {
                expected
            };
            return Err(self.invalid(name, value, ValueProblem::expected(expected)));
        }
        guarded_json(conv, value).map_err(|p| self.invalid(name, value, p))
    }

    /// [`convert`](Self::convert) for an item of a list or map, whose name
    /// (`tag[2]`, `env.HOME`) is only written out for an error.
    fn convert_item<C: Converter>(
        &self,
        name: impl FnOnce() -> String,
        conv: &C,
        value: &Value,
    ) -> Result<C::Output, ArgError> {
        match value {
            Value::Null => self.convert(&name(), conv, value),
            _ => guarded_json(conv, value).map_err(|p| self.invalid(&name(), value, p)),
        }
    }

    fn convert_default<C: Converter>(
        &self,
        name: &str,
        conv: &C,
        text: &str,
    ) -> Result<C::Output, ArgError> {
        guarded_text(conv, text).map_err(|p| self.default_error(name, text, p))
    }

    /// A default text refused by the converter: from the argument's
    /// environment variable when it is set (it comes first), else the
    /// declared default.
    fn default_error(&self, name: &str, text: &str, problem: ValueProblem) -> ArgError {
        match self.env.filter(|env| std::env::var_os(env).is_some()) {
            Some(env) => self.invalid_env(name, env, text, problem),
            None => self.invalid(name, &Value::from(format!("default {text:?}")), problem),
        }
    }

    /// Says which environment variable the next argument reads (`None`
    /// after it): generated code sets it around the argument's build.
    #[doc(hidden)]
    pub fn reading_env(&mut self, env: Option<&'static str>) {
        self.env = env;
    }

    fn missing<C: Converter>(&self, name: &str, conv: &C) -> ArgError {
        ArgError::new(
            &self.tool.name,
            Some(name),
            Problem::Missing {
                expected: a_json_type(conv.value_type().json_type()),
            },
        )
    }

    /// Where a single value comes from: the property, or (absent, or
    /// `null` for the flag given without a value) the first default text.
    /// Not generic, so that each converter's code stays small.
    fn pick(&self, name: &str, default: Texts<'_>, missing: Option<Texts<'_>>) -> Pick<'a> {
        match (self.get(name), missing) {
            (Some(Value::Null), Some(missing)) => match first(missing) {
                Some(text) => Pick::Text(text),
                None => Pick::Null,
            },
            (Some(value), _) => Pick::Json(value),
            (None, _) => match first(default) {
                Some(text) => Pick::Text(text),
                None => Pick::Absent,
            },
        }
    }

    /// A single-valued argument clap requires or defaults (`T`). `null`
    /// means the flag given without a value (`num_args = 0..=1`): the
    /// `default_missing_value` then applies.
    pub fn one<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        missing: Texts<'_>,
        conv: C,
    ) -> Result<C::Output, ArgError> {
        let name = self.property(name);
        match self.pick(name, default, Some(missing)) {
            Pick::Json(value) => self.convert(name, &conv, value),
            Pick::Text(text) => self.convert_default(name, &conv, &text),
            Pick::Null => self.convert(name, &conv, &Value::Null),
            Pick::Absent => Err(self.missing(name, &conv)),
        }
    }

    /// The words of an external subcommand (`#[command(external_subcommand)]`):
    /// the command's name, then its arguments, as clap hands them to the
    /// variant. A name clap would give to one of the CLI's own commands
    /// (or to `help`), an empty one, or one a command line would read as a
    /// flag is refused.
    pub fn external_words<T: From<String>>(&self) -> Result<Vec<T>, ArgError> {
        let text = super::convert::Text::<String>::new;
        let name = self.one(EXTERNAL_COMMAND, &no_texts, &no_texts, text())?;
        let taken = self.tool.external.as_deref().unwrap_or_default();
        let refused = if name.is_empty() {
            Some("a command has a name".to_owned())
        } else if name.starts_with('-') {
            Some("a command line reads it as an option, not a command".to_owned())
        } else if taken.contains(&name) {
            Some(format!(
                "`{name}` is one of this CLI's own commands: call its own tool"
            ))
        } else {
            None
        };
        if let Some(reason) = refused {
            return Err(self.invalid(
                self.property(EXTERNAL_COMMAND),
                &Value::String(name),
                ValueProblem::expected("the name of a command this CLI does not define")
                    .because(reason),
            ));
        }
        let any_number = Arity {
            min: 1,
            max: None,
            repeatable: false,
        };
        let args = self.many(EXTERNAL_ARGS, &no_texts, None, None, any_number, text())?;
        Ok(std::iter::once(name).chain(args).map(T::from).collect())
    }

    /// An `Option<T>` marked `required = true`: missing, clap refuses it,
    /// unless an argument that conflicts with it is given. The registry
    /// then holds it required unless that one is given (checked before
    /// the build), and it is `None` when left out.
    pub fn required_optional<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        missing: Texts<'_>,
        conv: C,
    ) -> Result<Option<C::Output>, ArgError> {
        let property = self.property(name);
        let waived = self
            .tool
            .params
            .iter()
            .any(|p| p.name == property && !p.required);
        if waived {
            self.optional(name, default, Some(missing), conv)
        } else {
            self.one(name, default, missing, conv).map(Some)
        }
    }

    /// An optional single value (`Option<T>`); a default still yields
    /// `Some`. `null` (`num_args = 0..=1`) gives the
    /// `default_missing_value`, or `None` when there is none, as clap does.
    pub fn optional<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        missing: Option<Texts<'_>>,
        conv: C,
    ) -> Result<Option<C::Output>, ArgError> {
        let name = self.property(name);
        match self.pick(name, default, missing) {
            Pick::Json(value) => self.convert(name, &conv, value).map(Some),
            Pick::Text(text) => self.convert_default(name, &conv, &text).map(Some),
            Pick::Null | Pick::Absent => Ok(None),
        }
    }

    /// `Option<Option<T>>` (`num_args = 0..=1`): absent → `None`, `null` →
    /// the flag given without a value, a value → `Some(Some(v))`.
    pub fn optional_value<C: Converter>(
        &self,
        name: &str,
        missing_value: Texts<'_>,
        conv: C,
    ) -> Result<Option<Option<C::Output>>, ArgError> {
        let name = self.property(name);
        if self.get(name).is_none() {
            return Ok(None);
        }
        match self.pick(name, &no_texts, Some(missing_value)) {
            Pick::Json(value) => self.convert(name, &conv, value).map(|v| Some(Some(v))),
            Pick::Text(text) => self
                .convert_default(name, &conv, &text)
                .map(|v| Some(Some(v))),
            Pick::Null | Pick::Absent => Ok(Some(None)),
        }
    }

    /// A list (`Vec<T>`): absent or empty → the defaults, or empty.
    pub fn many<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        min_items: Option<u32>,
        delimiter: Option<char>,
        arity: Arity,
        conv: C,
    ) -> Result<Vec<C::Output>, ArgError> {
        Ok(self
            .optional_many(name, default, min_items, delimiter, arity, conv)?
            .unwrap_or_default())
    }

    /// An optional list (`Option<Vec<T>>`): absent or empty → `None`.
    pub fn optional_many<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        min_items: Option<u32>,
        delimiter: Option<char>,
        arity: Arity,
        conv: C,
    ) -> Result<Option<Vec<C::Output>>, ArgError> {
        let name = self.property(name);
        let items = match self.get(name) {
            Some(Value::Array(items)) => items,
            Some(other) => {
                let problem = ValueProblem::expected(format!(
                    "an array of {}",
                    plural_json_type(conv.value_type().json_type())
                ));
                return Err(self.invalid(name, other, problem));
            }
            None => &Vec::new(),
        };
        // `num_args = 0..`: an empty list is the flag given without values.
        if items.is_empty() && arity.min == 0 && self.get(name).is_some() {
            return Ok(Some(Vec::new()));
        }
        if items.is_empty() {
            if let Some(min) = min_items.filter(|_| self.get(name).is_some()) {
                return Err(ArgError::new(
                    &self.tool.name,
                    Some(name),
                    Problem::TooFew { min, given: 0 },
                ));
            }
            return match default.texts() {
                // A default is split on the delimiter, as clap splits it.
                Some(texts) if !texts.is_empty() => texts
                    .iter()
                    .flat_map(|text| match delimiter {
                        Some(d) => text.split(d).collect::<Vec<_>>(),
                        None => vec![text.as_ref()],
                    })
                    .map(|text| self.convert_default(name, &conv, text))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some),
                _ => match min_items {
                    Some(_) => Err(self.missing(name, &conv)),
                    None => Ok(None),
                },
            };
        }
        // Only string items are split, as clap splits the text it is given;
        // a string for an integer list is refused, not parsed.
        let splits = delimiter.filter(|_| conv.value_type().json_type() == "string");
        let mut out = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            let item_name = || format!("{name}[{index}]");
            match (splits, item) {
                (Some(delimiter), Value::String(text)) => {
                    for piece in text.split(delimiter) {
                        out.push(
                            guarded_text(&conv, piece)
                                .map_err(|p| self.invalid(&item_name(), item, p))?,
                        );
                    }
                }
                _ => out.push(self.convert_item(item_name, &conv, item)?),
            }
        }
        if !arity.accepts(out.len()) {
            return Err(ArgError::new(
                &self.tool.name,
                Some(name),
                Problem::Relation {
                    message: format!(
                        "property `{name}`: expected {}, got {} value{}",
                        arity.describe(),
                        out.len(),
                        if out.len() == 1 { "" } else { "s" }
                    ),
                },
            ));
        }
        if let Some(min) = min_items {
            if out.len() < min as usize {
                return Err(ArgError::new(
                    &self.tool.name,
                    Some(name),
                    Problem::TooFew {
                        min,
                        given: out.len(),
                    },
                ));
            }
        }
        Ok(Some(out))
    }

    /// Key=value pairs given as a JSON object (`Vec<(K, V)>`).
    pub fn pairs<C: Converter>(
        &self,
        name: &str,
        default: Texts<'_>,
        conv: KeyValue<C>,
    ) -> Result<Vec<C::Output>, ArgError> {
        let name = self.property(name);
        match self.get(name) {
            Some(value) => guarded(
                || expected_of(&conv.map_type()),
                || Ok(conv.from_object(value)),
            )
            .map_err(|problem| (None, problem))
            .and_then(|converted| converted)
            .map_err(|(key, problem)| match key {
                Some(key) => self.invalid(&format!("{name}.{key}"), &value[&key], problem),
                None => self.invalid(name, value, problem),
            }),
            None => default
                .texts()
                .unwrap_or_default()
                .iter()
                .map(|text| {
                    guarded(|| expected_of(&conv.map_type()), || conv.convert_text(text))
                        .map_err(|p| self.invalid(name, &Value::from(text.as_ref()), p))
                })
                .collect(),
        }
    }

    /// An error for a required property that is absent.
    pub fn missing_property(&self, name: &str) -> ArgError {
        let name = self.property(name);
        ArgError::new(
            &self.tool.name,
            Some(name),
            Problem::Missing {
                expected: "a value".to_owned(),
            },
        )
    }

    /// An optional map (`Option<HashMap<String, T>>`): absent → `None`.
    pub fn optional_map<C, M>(&self, name: &str, conv: C) -> Result<Option<M>, ArgError>
    where
        C: Converter,
        M: FromIterator<(String, C::Output)>,
    {
        let name = self.property(name);
        match self.get(name) {
            None => Ok(None),
            Some(_) => self.map(name, false, conv).map(Some),
        }
    }

    /// A `HashMap`/`BTreeMap<String, T>` field given as a JSON object.
    pub fn map<C, M>(&self, name: &str, required: bool, conv: C) -> Result<M, ArgError>
    where
        C: Converter,
        M: FromIterator<(String, C::Output)>,
    {
        let name = self.property(name);
        match self.get(name) {
            None if required => Err(ArgError::new(
                &self.tool.name,
                Some(name),
                Problem::Missing {
                    expected: format!(
                        "an object of {}",
                        plural_json_type(conv.value_type().json_type())
                    ),
                },
            )),
            None => Ok(std::iter::empty().collect()),
            Some(Value::Object(object)) => object
                .iter()
                .map(|(key, item)| {
                    self.convert_item(|| format!("{name}.{key}"), &conv, item)
                        .map(|v| (key.clone(), v))
                })
                .collect(),
            Some(other) => Err(self.invalid(
                name,
                other,
                ValueProblem::expected(format!(
                    "an object of {}",
                    plural_json_type(conv.value_type().json_type())
                )),
            )),
        }
    }

    /// A boolean flag (`SetTrue`/`SetFalse`): `true` means the flag is
    /// given. Returns the field's value.
    pub fn flag(&self, name: &str, sets: bool) -> Result<bool, ArgError> {
        let name = self.property(name);
        match self.get(name) {
            None => Ok(!sets),
            Some(Value::Bool(given)) => Ok(if *given { sets } else { !sets }),
            Some(other) => Err(self.invalid(
                name,
                other,
                ValueProblem::expected("a boolean (true or false)"),
            )),
        }
    }

    /// A boolean flag with a default of its own (`default_value_t =
    /// true`): absent, the default's text (or its variable's, `default`
    /// puts it first) parsed as clap parses it (`conv`); given, what the
    /// flag sets.
    #[doc(hidden)]
    pub fn flag_default<C: Converter<Output = bool>>(
        &self,
        name: &str,
        sets: bool,
        default: Texts<'_>,
        conv: C,
    ) -> Result<bool, ArgError> {
        let name = self.property(name);
        // `false` is the flag not given, which the default answers (but a
        // set variable, which `false` wins over: no command line says it).
        let reads_env = self
            .tool
            .params
            .iter()
            .any(|p| p.name == name && p.env.is_some());
        match self.get(name) {
            Some(Value::Bool(false)) if !reads_env => {}
            Some(_) => return self.flag(name, sets),
            None => {}
        }
        match first(default) {
            Some(text) => self.convert_default(name, &conv, &text),
            None => Ok(!sets),
        }
    }

    /// A counted flag with a default of its own (`default_value_t = 2`):
    /// absent, the default's count.
    #[doc(hidden)]
    pub fn count_default<C: Converter<Output = u8>>(
        &self,
        name: &str,
        default: Texts<'_>,
        conv: C,
    ) -> Result<u8, ArgError> {
        let name = self.property(name);
        match self.get(name) {
            // 0 is the flag not given, which the default answers.
            Some(value) if value.as_u64() == Some(0) => {}
            Some(_) => return self.count_in(name, &conv),
            None => {}
        }
        match first(default) {
            Some(text) => self.convert_default(name, &conv, &text),
            None => Ok(0),
        }
    }

    /// A boolean flag read from the environment variable `env` when the
    /// property is absent: clap parses the variable's text with the
    /// flag's value parser (`conv`: `true` or `false`) and stores it as is,
    /// for `SetTrue` and `SetFalse` alike. A given property wins.
    pub fn flag_env<C: Converter<Output = bool>>(
        &self,
        name: &str,
        sets: bool,
        env: &str,
        conv: C,
    ) -> Result<bool, ArgError> {
        let name = self.property(name);
        if self.get(name).is_some() {
            return self.flag(name, sets);
        }
        match self.env_text(name, env)? {
            Some(text) => guarded_text(&conv, &text)
                .map_err(|problem| self.invalid_env(name, env, &text, problem)),
            None => Ok(!sets),
        }
    }

    /// A counted flag read from the environment variable `env` when the
    /// property is absent: the variable holds the count (`conv`: an integer
    /// from 0 to 255), as clap reads it. A given property wins.
    pub fn count_env<C: Converter<Output = u8>>(
        &self,
        name: &str,
        env: &str,
        conv: C,
    ) -> Result<u8, ArgError> {
        let name = self.property(name);
        if self.get(name).is_some() {
            return self.count_in(name, &conv);
        }
        match self.env_text(name, env)? {
            Some(text) => guarded_text(&conv, &text)
                .map_err(|problem| self.invalid_env(name, env, &text, problem)),
            None => Ok(0),
        }
    }

    /// The text of `env` when it is set. Set but empty is refused, as clap
    /// refuses it for a flag ("a value is required").
    fn env_text(&self, name: &str, env: &str) -> Result<Option<String>, ArgError> {
        match std::env::var(env) {
            Ok(text) if text.is_empty() => Err(self.invalid_env(
                name,
                env,
                &text,
                ValueProblem::expected("a value").because("the variable is set but empty"),
            )),
            Ok(text) => Ok(Some(text)),
            Err(_) => Ok(None),
        }
    }

    fn invalid_env(&self, name: &str, env: &str, text: &str, problem: ValueProblem) -> ArgError {
        ArgError::new(
            &self.tool.name,
            Some(name),
            Problem::Invalid {
                given: format!("{text:?} from the environment variable {env}"),
                expected: problem.expected,
                reason: problem.reason,
            },
        )
    }

    /// The global argument `id` of an ancestor, which a `from_global`
    /// field reads: offered by the tool, or hidden (then only its default
    /// and its variable count).
    fn global(&self, id: &str) -> Result<&'a ParamSpec, ArgError> {
        let tool: &'a ToolSpec = self.tool;
        tool.params
            .iter()
            .chain(&tool.unoffered)
            .find(|p| p.global && p.id == id)
            .ok_or_else(|| {
                ArgError::new(
                    &tool.name,
                    None,
                    Problem::Relation {
                        message: format!(
                            "a `from_global` field reads `{id}`, but no command above `{}` declares a global argument `{id}`",
                            tool.path.join(" ")
                        ),
                    },
                )
            })
    }

    /// The value of a `from_global` field: what clap stores for the global
    /// argument `id` declared on an ancestor — given, from its variable,
    /// its default, or (a flag) whether it is given — converted by the
    /// field's own converter as clap's derive reads it.
    pub fn global_one<C: Converter>(&mut self, id: &str, conv: C) -> Result<C::Output, ArgError> {
        let param = self.global(id)?;
        let name = param.name.as_str();
        let env = param.env.as_deref();
        let text = match param.action {
            ParamAction::SetTrue | ParamAction::SetFalse => {
                let sets = param.action == ParamAction::SetTrue;
                match (self.get(name), env) {
                    (None, Some(env)) => match self.env_text(name, env)? {
                        Some(text) => {
                            return guarded_text(&conv, &text)
                                .map_err(|problem| self.invalid_env(name, env, &text, problem))
                        }
                        None => (!sets).to_string(),
                    },
                    _ => self.flag(name, sets)?.to_string(),
                }
            }
            ParamAction::Count => match (self.get(name), env) {
                (None, Some(env)) => self.env_text(name, env)?.unwrap_or_else(|| "0".into()),
                _ => self.count(name)?.to_string(),
            },
            ParamAction::Set | ParamAction::Append => {
                let defaults = global_texts(param);
                self.reading_env(None);
                return self.one(name, &defaults, &no_texts, conv);
            }
        };
        self.convert_default(name, &conv, &text)
    }

    /// An optional `from_global` field (`Option<T>`): `None` when the
    /// global is absent and has no default.
    pub fn global_optional<C: Converter>(
        &mut self,
        id: &str,
        conv: C,
    ) -> Result<Option<C::Output>, ArgError> {
        let param = self.global(id)?;
        match param.action {
            ParamAction::Set | ParamAction::Append => {
                let defaults = global_texts(param);
                self.optional(&param.name, &defaults, None, conv)
            }
            _ => self.global_one(id, conv).map(Some),
        }
    }

    /// A `from_global` list (`Vec<T>`).
    pub fn global_many<C: Converter>(
        &mut self,
        id: &str,
        conv: C,
    ) -> Result<Vec<C::Output>, ArgError> {
        let param = self.global(id)?;
        let defaults = global_texts(param);
        let arity = param.arity.unwrap_or(Arity {
            min: 1,
            max: Some(1),
            repeatable: param.action == ParamAction::Append,
        });
        self.many(&param.name, &defaults, None, param.delimiter, arity, conv)
    }

    /// A counted flag (`ArgAction::Count`, `-vvv`): how many times it is given.
    pub fn count(&self, name: &str) -> Result<u8, ArgError> {
        let name = self.property(name);
        match self.get(name) {
            None => Ok(0),
            Some(value) => json_integer(value)
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| {
                    self.invalid(
                        name,
                        value,
                        ValueProblem::expected("an integer from 0 to 255"),
                    )
                }),
        }
    }

    /// A counted flag whose value parser holds bounds (`action = Count,
    /// value_parser = value_parser!(u8).range(0..3)`): clap runs the count
    /// through the parser, so `-qqq` is refused there, and 3 here.
    pub fn count_in<C: Converter<Output = u8>>(
        &self,
        name: &str,
        conv: &C,
    ) -> Result<u8, ArgError> {
        let count = self.count(name)?;
        if count == 0 {
            return Ok(0);
        }
        let name = self.property(name);
        guarded_text(conv, &count.to_string())
            .map_err(|problem| self.invalid(name, &Value::from(count), problem))
    }
}

/// A global's default texts as its own build reads them: its variable
/// when set, then its declared default.
fn global_texts(param: &ParamSpec) -> impl Fn() -> DefaultTexts + '_ {
    move || {
        let declared = || {
            (!param.default_text.is_empty()).then(|| {
                param
                    .default_text
                    .iter()
                    .map(|text| Cow::Owned(text.clone()))
                    .collect()
            })
        };
        match &param.env {
            Some(env) => env_texts(env, param.delimiter, declared),
            None => declared(),
        }
    }
}

fn a_json_type(json_type: &str) -> String {
    match json_type {
        "integer" => "an integer".to_owned(),
        "object" => "an object".to_owned(),
        "array" => "an array".to_owned(),
        other => format!("a {other}"),
    }
}

fn plural_json_type(json_type: &str) -> String {
    match json_type {
        "boolean" => "booleans".to_owned(),
        other => format!("{other}s"),
    }
}

/// `conv.convert_json(value)`, with a panic in the CLI's own parser (a
/// `value_parser` function, a `FromStr` impl) turned into a refusal of the
/// value: bad input never takes the call, or the server, down.
fn guarded_json<C: Converter>(conv: &C, value: &Value) -> Result<C::Output, ValueProblem> {
    guarded(
        || expected_of(&conv.value_type()),
        || conv.convert_json(value),
    )
}

/// [`guarded_json`] for a text (an item of a delimited string, a default,
/// an environment variable).
fn guarded_text<C: Converter>(conv: &C, text: &str) -> Result<C::Output, ValueProblem> {
    guarded(
        || expected_of(&conv.value_type()),
        || conv.convert_text(text),
    )
}

/// Runs a conversion, turning a panic into a refusal that expects
/// `expected()` and says the parser panicked.
fn guarded<T>(
    expected: impl FnOnce() -> String,
    convert: impl FnOnce() -> Result<T, ValueProblem>,
) -> Result<T, ValueProblem> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(convert)) {
        Ok(converted) => converted,
        Err(payload) => {
            let message = crate::error::panic_message(&*payload);
            tracing::error!("the CLI's parser panicked on a value: {message}");
            Err(ValueProblem::expected(expected())
                .because(format!("the CLI's parser panicked: {message}")))
        }
    }
}
