//! From a tool call's JSON arguments to the command line a person would
//! type for it: what a tool's arguments look like to clap (its `Command`,
//! built as clap builds it before parsing), and the words of one call,
//! spelled in one of the ways that mean the same thing (`--long=v` or
//! `--long v`, `-s`, aliases, `-vvv`, globals before or after the
//! subcommand words), with `--` where a value would otherwise read as a
//! flag.
//!
//! Two users: the agreement check (`testing::assert_agrees_with_clap`),
//! which spells each call many ways and has clap parse them, and the
//! matches drop-ins (`mcp_bridge::get_matches::<Cli>(cmd)`), whose child
//! process hands a CLI that reads clap's `ArgMatches` the matches of the
//! command line that says its call, in one plain spelling ([`said`]).
//! Never on the in-process serving path.

use clap::ArgAction;
use serde_json::{Map, Value};

use crate::spec::{ParamKind, ParamSpec, ToolSpec};

/// One tool as clap reads its command line.
#[derive(Debug)]
pub struct ToolModel {
    pub spec: ToolSpec,
    /// The binary name, then the subcommand words, each with every
    /// spelling clap accepts (name first, then aliases).
    pub words: Vec<Vec<String>>,
    pub params: Vec<ParamModel>,
    /// Pairs of parameters (indices) clap refuses together.
    pub conflicts: Vec<(usize, usize)>,
    /// `allow_negative_numbers` on the command: `-3` is a value.
    pub negative_numbers: bool,
    /// A positional takes hyphenated values (`--x` is a value there, so an
    /// unknown flag has no command line of its own).
    pub hyphen_positional: bool,
    /// A positional is `last = true`: the other positionals cannot follow
    /// `--`, so their values must not start with `-`.
    pub has_last: bool,
}

/// One parameter of a tool as clap reads it.
#[derive(Debug, Clone)]
pub struct ParamModel {
    pub spec: ParamSpec,
    pub action: ArgAction,
    /// Long names: the long first, then the aliases.
    pub longs: Vec<String>,
    /// Short names: the short first, then the aliases.
    pub shorts: Vec<char>,
    /// clap's positional index.
    pub index: Option<usize>,
    /// `num_args = 0..=1`: the flag may be given without a value.
    pub value_optional: bool,
    /// `default_missing_value(s)`: the flag given alone holds those.
    pub missing_values: bool,
    pub require_equals: bool,
    pub hyphen_values: bool,
    /// `allow_negative_numbers` on the argument.
    pub negative_numbers: bool,
    pub delimiter: Option<char>,
    pub last: bool,
    pub trailing: bool,
    /// A global of the root: may be typed before the subcommand words.
    pub root_global: bool,
    /// An ancestor's argument that is not global: the level of the command
    /// that declares it (0: the root), after whose name it is given.
    pub ancestor_level: Option<usize>,
    /// A flag taking several values per use (`num_args(1..)`): it takes
    /// the positionals that follow it, unless `--` comes first.
    pub greedy: bool,
    /// Every spelling of every possible value (names and aliases).
    pub spellings: Vec<String>,
    /// `value_terminator`: what ends the values of one use.
    pub terminator: Option<String>,
    pub ignore_case: bool,
    /// `env = "NAME"`: clap reads the variable when the argument is absent.
    pub env: Option<String>,
}

impl ParamModel {
    /// The property name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn positional(&self) -> bool {
        matches!(self.spec.kind, ParamKind::Positional)
    }

    pub fn is_switch(&self) -> bool {
        matches!(self.action, ArgAction::SetTrue | ArgAction::SetFalse)
    }

    pub fn is_count(&self) -> bool {
        matches!(self.action, ArgAction::Count)
    }

    /// Whether `null` is a valid value: "given without a value".
    pub fn null_ok(&self) -> bool {
        self.value_optional && !self.spec.multiple
    }
}

/// Whether the flag `arg` of `cmd` (built, as part of the CLI's built
/// command), given alone, holds values: its `default_missing_value`,
/// which clap has no getter for, so clap is asked, with `cmd` alone and
/// its errors (a required argument left out) ignored.
fn alone_holds_values(cmd: &clap::Command, arg: &clap::Arg) -> bool {
    let word = match (arg.get_long(), arg.get_short()) {
        (Some(long), _) => format!("--{long}"),
        (None, Some(short)) => format!("-{short}"),
        (None, None) => return false,
    };
    let Ok(matches) = cmd
        .clone()
        .ignore_errors(true)
        .no_binary_name(true)
        .try_get_matches_from([word])
    else {
        return false;
    };
    let id = arg.get_id().as_str();
    matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        && matches
            .try_get_raw(id)
            .ok()
            .flatten()
            .is_some_and(|mut raw| raw.next().is_some())
}

/// The tool models of the tools `tools` of the CLI whose built command is
/// `root`; `Err` names a tool clap has no command or argument for.
pub fn models<'a>(
    root: &clap::Command,
    tools: impl Iterator<Item = &'a ToolSpec>,
) -> Result<Vec<ToolModel>, String> {
    tools.map(|tool| tool_model(root, tool)).collect()
}

fn tool_model(root: &clap::Command, tool: &ToolSpec) -> Result<ToolModel, String> {
    let mut command = root;
    let mut chain = vec![root];
    let mut words = vec![vec![root.get_name().to_owned()]];
    for name in &tool.path[1..] {
        command = command.find_subcommand(name).ok_or_else(|| {
            format!(
                "`{}`: clap has no subcommand `{name}` on the way to it",
                tool.name
            )
        })?;
        chain.push(command);
        let mut spellings = vec![command.get_name().to_owned()];
        spellings.extend(command.get_all_aliases().map(str::to_owned));
        words.push(spellings);
    }
    let mut params = Vec::new();
    for spec in &tool.params {
        // The tool's own argument, a global, or an ancestor's (given right
        // after the ancestor's name on the command line). An ancestor's
        // that a nearer argument of its id shadows is offered as
        // `<command>-<name>`: it is that command's.
        let shadowed = tool.params.iter().filter(|p| p.id == spec.id).count() > 1;
        let renamed_at = chain.iter().position(|cmd| {
            shadowed
                && spec
                    .name
                    .strip_prefix(cmd.get_name())
                    .is_some_and(|rest| rest.starts_with('-'))
        });
        let (level, arg) = chain
            .iter()
            .enumerate()
            .rev()
            .filter(|(level, _)| renamed_at.is_none_or(|at| at == *level))
            .find_map(|(level, cmd)| {
                cmd.get_arguments()
                    .find(|a| a.get_id().as_str() == spec.id)
                    .map(|a| (level, a))
            })
            .ok_or_else(|| format!("`{}`: clap has no argument `{}`", tool.name, spec.id))?;
        let arg_level = level;
        let value_optional = arg
            .get_num_args()
            .is_some_and(|n| n.min_values() == 0 && n.takes_values());
        let level = if arg.is_global_set() || level + 1 == chain.len() {
            None
        } else {
            Some(level)
        };
        let root_global = root
            .get_arguments()
            .any(|a| a.get_id() == arg.get_id() && a.is_global_set());
        let mut longs: Vec<String> = arg.get_long().map(str::to_owned).into_iter().collect();
        longs.extend(
            arg.get_all_aliases()
                .unwrap_or_default()
                .into_iter()
                .map(str::to_owned),
        );
        let mut shorts: Vec<char> = arg.get_short().into_iter().collect();
        shorts.extend(arg.get_all_short_aliases().unwrap_or_default());
        let spellings = arg
            .get_possible_values()
            .iter()
            .flat_map(|v| {
                v.get_name_and_aliases()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect();
        params.push(ParamModel {
            spec: spec.clone(),
            action: arg.get_action().clone(),
            longs,
            shorts,
            index: arg.get_index(),
            value_optional,
            missing_values: value_optional && alone_holds_values(chain[arg_level], arg),
            require_equals: arg.is_require_equals_set(),
            hyphen_values: arg.is_allow_hyphen_values_set(),
            negative_numbers: arg.is_allow_negative_numbers_set(),
            delimiter: arg.get_value_delimiter(),
            last: arg.is_last_set(),
            ancestor_level: level,
            greedy: !arg.is_positional() && arg.get_num_args().is_some_and(|n| n.max_values() > 1),
            trailing: arg.is_trailing_var_arg_set(),
            root_global,
            spellings,
            ignore_case: arg.is_ignore_case_set(),
            terminator: arg.get_value_terminator().map(|t| t.to_string()),
            env: arg
                .get_env()
                .map(|name| name.to_string_lossy().into_owned()),
        });
    }
    let mut conflicts = Vec::new();
    for (i, p) in params.iter().enumerate() {
        // An ancestor's argument conflicts within its own command.
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_id().as_str() == p.spec.id)
        else {
            continue;
        };
        for other in command.get_arg_conflicts_with(arg) {
            if let Some(j) = params
                .iter()
                .position(|q| q.spec.id == other.get_id().as_str())
            {
                let pair = (i.min(j), i.max(j));
                if !conflicts.contains(&pair) {
                    conflicts.push(pair);
                }
            }
        }
    }
    // Deprecated in newer clap (in favour of the argument's own setting),
    // but what a command set with `allow_negative_numbers` still means.
    #[allow(deprecated)]
    let negative_numbers = command.is_allow_negative_numbers_set();
    Ok(ToolModel {
        spec: tool.clone(),
        words,
        negative_numbers,
        hyphen_positional: params.iter().any(|p| p.positional() && p.hyphen_values),
        has_last: params.iter().any(|p| p.last),
        params,
        conflicts,
    })
}

impl ToolModel {
    /// May a value of `p` start with `-`? Not for positionals before a
    /// `last` one: they cannot follow `--`, and clap takes `-x` as a flag;
    /// nor for a list set once (`--revs a b`), whose later values follow
    /// the first as words of their own.
    pub fn dash_ok(&self, p: &ParamModel) -> bool {
        let before_last = p.positional() && self.has_last && !p.last;
        let set_once_list = p.greedy && matches!(p.action, ArgAction::Set) && !p.hyphen_values;
        !before_last && !set_once_list
    }

    /// Whether leaving out positional `property` moves a later positional's
    /// values into its place: no command line leaves it out then.
    pub fn shifts_positionals(&self, args: &Map<String, Value>, property: &str) -> bool {
        let Some((index, level, required)) = self
            .params
            .iter()
            .find(|p| p.name() == property && p.positional())
            .and_then(|p| Some((p.index?, p.ancestor_level, p.spec.required)))
        else {
            return false;
        };
        // Positionals of one command: an ancestor's are typed apart. A
        // required one after an optional one left out (clap's
        // `allow_missing_positional`) takes a lone word itself.
        self.params.iter().any(|p| {
            p.positional()
                && p.ancestor_level == level
                && !p.last
                && (required || !p.spec.required)
                && p.index.is_some_and(|i| i > index)
                && args
                    .get(p.name())
                    .is_some_and(|v| v.as_array().is_none_or(|a| !a.is_empty()))
        })
    }
}

/// A small deterministic random number generator (SplitMix64), for the
/// spellings of a command line; or, `plain`, always the first choice: the
/// first long name, `--long=value`, the order the arguments came in.
pub struct Forms {
    state: u64,
    plain: bool,
}

impl Forms {
    pub fn new(seed: u64) -> Self {
        Forms {
            state: seed,
            plain: false,
        }
    }

    pub fn plain() -> Self {
        Forms {
            state: 0,
            plain: true,
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if self.plain {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    pub fn coin(&mut self) -> bool {
        !self.plain && self.next_u64() & 1 == 1
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        if self.plain {
            return;
        }
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The text clap reads for one JSON value (`None` for an object or
/// array, which have none).
pub fn value_text(value: &Value) -> Option<String> {
    Some(match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            // An integral float is written as the integer a user would type.
            (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 2f64.powi(53) => {
                format!("{}", f as i64)
            }
            (_, _, Some(f)) => f.to_string(),
            _ => return None,
        },
        _ => return None,
    })
}

/// A plain negative number (`-3`, `-0.5`), which clap takes as a value
/// where negative numbers are allowed. (clap takes a few more forms, like
/// `-1e5`; those simply get `--`.)
pub fn is_negative_number(text: &str) -> bool {
    text.strip_prefix('-').is_some_and(|digits| {
        let mut parts = digits.splitn(2, '.');
        parts.all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// The command line for `args` of `tool`, spelled as `forms` picks; `Err`
/// when no command line says it (a value that cannot be typed where it
/// must go).
pub fn argv(
    tool: &ToolModel,
    args: &Map<String, Value>,
    forms: u64,
) -> Result<Vec<String>, String> {
    spelled(tool, args, &mut Forms::new(forms))
}

/// The command line for `args` of `tool` in its plain spelling (first
/// names, `--long=value`), with the values `#[mcp(args(...))]` fixes:
/// what a person would type for the call. `Err` when no command line
/// says it.
pub fn said(tool: &ToolModel, args: &Map<String, Value>) -> Result<Vec<String>, String> {
    // A flag left out reads its variable: `false` (or a count 0) while it
    // is set has no command line.
    for p in tool.params.iter().filter(|p| p.is_switch() || p.is_count()) {
        let off = args
            .get(p.name())
            .is_some_and(|v| *v == Value::Bool(false) || v.as_u64() == Some(0));
        if let (true, Some(variable)) = (off, p.env.as_deref()) {
            if std::env::var_os(variable).is_some() {
                return Err(format!(
                    "`{}`: given {} while its variable {variable} is set, which a command \
                     line cannot say",
                    p.name(),
                    args[p.name()]
                ));
            }
        }
    }
    let mut words = spelled(tool, args, &mut Forms::plain())?;
    with_fixed(tool, &mut words);
    Ok(words)
}

fn spelled(
    tool: &ToolModel,
    args: &Map<String, Value>,
    rng: &mut Forms,
) -> Result<Vec<String>, String> {
    let mut before: Vec<Vec<String>> = Vec::new(); // globals before the words
    let mut flags: Vec<Vec<String>> = Vec::new();
    // Flags given without a value that would take a following positional.
    let mut bare: Vec<Vec<String>> = Vec::new();
    let mut bare_at_end: Vec<Vec<String>> = Vec::new();
    let mut positionals: Vec<(usize, Vec<String>)> = Vec::new();
    let mut last: Vec<String> = Vec::new();
    // Root globals all go before the subcommand words or all after: clap
    // checks relations per level, so `app -v say -q` passes where
    // `app say -v -q` does not.
    let globals_first = rng.coin();
    let mut greedy_given = false;
    // A flag of several values that takes hyphenated ones: it takes all
    // that follows it (`-c cmd --flag --`), so it goes last.
    let mut swallowing: Option<Vec<String>> = None;
    // Ancestors' arguments that are not global, by the level declaring them.
    let mut at_level: Vec<Vec<Vec<String>>> = vec![Vec::new(); tool.words.len()];
    // Those given without a value: the next word would be their value.
    let mut bare_at_level: Vec<Vec<Vec<String>>> = vec![Vec::new(); tool.words.len()];
    let texts = |value: &Value| -> Result<Vec<String>, String> {
        match value {
            Value::Array(items) => items.iter().map(text_of).collect(),
            other => Ok(vec![text_of(other)?]),
        }
    };

    for (name, value) in args {
        let Some(p) = tool.params.iter().find(|p| p.name() == name) else {
            flags.push(vec![format!("--{name}={}", text_of(value)?)]);
            continue;
        };
        if p.positional() {
            let values = texts(value)?;
            // An ancestor's positional: typed before the subcommand words,
            // where a list would take them as its values.
            if let Some(level) = p.ancestor_level {
                if p.spec.multiple {
                    return Err(format!(
                        "`{}`: a list before a subcommand takes its name",
                        p.name()
                    ));
                }
                at_level[level].push(values);
                continue;
            }
            if p.last {
                last = values;
            } else {
                positionals.push((p.index.unwrap_or(usize::MAX), values));
            }
            continue;
        }
        let tokens = flag_tokens(tool, p, value, rng)?;
        if tokens.is_empty() {
            continue;
        }
        let no_values = value.as_array().is_some_and(Vec::is_empty) && p.value_optional;
        let is_bare = (value.is_null() || no_values) && !p.require_equals;
        if p.greedy && p.hyphen_values && p.ancestor_level.is_none() && !is_bare {
            if swallowing.replace(tokens).is_some() {
                return Err("two options take all that follows them".into());
            }
            continue;
        }
        greedy_given |= p.greedy;
        if let (Some(level), true) = (p.ancestor_level, is_bare) {
            bare_at_level[level].push(tokens);
        } else if let Some(level) = p.ancestor_level {
            at_level[level].push(tokens);
        } else if is_bare && p.hyphen_values {
            // `--ping-args` with no values, when it takes hyphenated ones:
            // anything after it, `--` too, would be its value, so it ends
            // the command line.
            bare_at_end.push(tokens);
        } else if is_bare {
            bare.push(tokens);
        } else if p.root_global && globals_first {
            before.push(tokens);
        } else {
            flags.push(tokens);
        }
    }
    positionals.sort_by_key(|(index, _)| *index);

    rng.shuffle(&mut before);
    rng.shuffle(&mut flags);
    let mut out: Vec<String> = Vec::new();
    out.push(tool.words[0][0].clone());
    out.extend(before.into_iter().flatten());
    for (level, spellings) in tool.words.iter().enumerate() {
        if level > 0 {
            out.push(rng.pick(spellings).clone());
        }
        let mut tokens = std::mem::take(&mut at_level[level]);
        rng.shuffle(&mut tokens);
        // An option given no values before a subcommand's name would take
        // the name as its value: another option of its level must follow.
        let bare = std::mem::take(&mut bare_at_level[level]);
        if !bare.is_empty() {
            let option = tokens
                .iter()
                .position(|t| t.first().is_some_and(|w| w.starts_with('-')))
                .ok_or("an option given no values takes the subcommand's name")?;
            let option = tokens.remove(option);
            tokens.insert(0, option);
        }
        out.extend(bare.into_iter().flatten());
        out.extend(tokens.into_iter().flatten());
    }

    // Values that would read as flags need `--` before the positionals
    // (after a trailing_var_arg's first value, everything is a value).
    let mut needs_escape = greedy_given;
    let trailing = tool
        .params
        .iter()
        .find(|p| p.trailing)
        .and_then(|p| p.index);
    let mut first_seen = false;
    for (index, values) in &positionals {
        for value in values {
            let after_trailing_start = Some(*index) == trailing && first_seen;
            if Some(*index) == trailing {
                first_seen = true;
            }
            let negative_ok = tool.negative_numbers && is_negative_number(value);
            if value.starts_with('-') && !after_trailing_start && !negative_ok {
                needs_escape = true;
            }
        }
    }
    let positional_tokens: Vec<String> = positionals.into_iter().flat_map(|(_, v)| v).collect();
    let positional_given = !positional_tokens.is_empty() || !last.is_empty();
    // A bare `--indent` followed by a positional would take it as its value:
    // put other flags after it, or escape the positionals, or (when `--`
    // belongs to a `last` argument) put the positionals first.
    let bare_then_positional =
        !bare.is_empty() && flags.is_empty() && !positional_tokens.is_empty();
    if bare_then_positional && tool.has_last {
        if needs_escape {
            return Err("a value before a `last` argument starts with `-`".into());
        }
        out.extend(positional_tokens);
        out.extend(bare.into_iter().flatten());
    } else {
        out.extend(bare.into_iter().flatten());
        out.extend(flags.into_iter().flatten());
        if needs_escape || bare_then_positional {
            if tool.has_last {
                return Err("`--` would start the `last` argument".into());
            }
            out.push("--".to_owned());
        }
        out.extend(positional_tokens);
    }
    if !last.is_empty() {
        out.push("--".to_owned());
        out.extend(last);
    }
    let swallowed = swallowing.is_some();
    if let Some(tokens) = swallowing {
        if positional_given || out.iter().any(|w| w == "--") {
            return Err("an option taking hyphenated values takes what follows it".into());
        }
        out.extend(tokens);
    }
    if !bare_at_end.is_empty() {
        let escaped = out.iter().any(|w| w == "--");
        if bare_at_end.len() > 1 || escaped || swallowed {
            return Err("an option given no values takes what follows it".into());
        }
        out.extend(bare_at_end.into_iter().flatten());
    }
    Ok(out)
}

/// The command line for `args` of an external subcommand's tool (a
/// command the CLI does not define, run with its words): the path to it
/// with the other arguments given (an ancestor's options, spelled as for
/// the command it belongs to), then the command and its words as given.
pub fn external_said(
    root: &clap::Command,
    tool: &ToolSpec,
    args: &Map<String, Value>,
) -> Result<Vec<String>, String> {
    use crate::spec::{EXTERNAL_ARGS, EXTERNAL_COMMAND};
    let mut parent = tool.clone();
    parent.path.pop();
    parent
        .params
        .retain(|p| p.name != EXTERNAL_COMMAND && p.name != EXTERNAL_ARGS);
    let others: Map<String, Value> = args
        .iter()
        .filter(|(k, _)| *k != EXTERNAL_COMMAND && *k != EXTERNAL_ARGS)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let model = tool_model(root, &parent)?;
    let mut words = said(&model, &others)?;
    if words.iter().any(|w| w == "--") {
        return Err("an option before the command needs `--`, which would end them".into());
    }
    let command = args
        .get(EXTERNAL_COMMAND)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("`{EXTERNAL_COMMAND}`: a command's name is needed"))?;
    words.push(command.to_owned());
    if let Some(items) = args.get(EXTERNAL_ARGS) {
        let items = items
            .as_array()
            .ok_or_else(|| format!("`{EXTERNAL_ARGS}`: a list of words is needed"))?;
        for item in items {
            words.push(text_of(item)?);
        }
    }
    Ok(words)
}

/// Adds to a tool's command line the values `#[mcp(args(...))]` fixes,
/// which join every call: long flags, before a `--`.
pub fn with_fixed(tool: &ToolModel, words: &mut Vec<String>) {
    let at = words.iter().position(|a| a == "--").unwrap_or(words.len());
    let fixed: Vec<String> = tool
        .spec
        .fixed()
        .filter_map(|(name, value)| match value {
            Value::Bool(true) => Some(format!("--{name}")),
            Value::Bool(false) => None,
            Value::String(text) => Some(format!("--{name}={text}")),
            other => Some(format!("--{name}={other}")),
        })
        .collect();
    words.splice(at..at, fixed);
}

fn text_of(value: &Value) -> Result<String, String> {
    value_text(value).ok_or_else(|| format!("no command-line text for {value}"))
}

/// The tokens giving flag `p` the JSON `value`.
fn flag_tokens(
    tool: &ToolModel,
    p: &ParamModel,
    value: &Value,
    rng: &mut Forms,
) -> Result<Vec<String>, String> {
    let long = |rng: &mut Forms| (!p.longs.is_empty()).then(|| format!("--{}", rng.pick(&p.longs)));
    let short =
        |rng: &mut Forms| (!p.shorts.is_empty()).then(|| format!("-{}", rng.pick(&p.shorts)));
    let name = |rng: &mut Forms| {
        let choice = if rng.coin() { short(rng) } else { long(rng) };
        choice
            .or_else(|| long(rng))
            .or_else(|| short(rng))
            .ok_or_else(|| format!("`{}`: a flag without a name", p.name()))
    };
    if p.is_switch() {
        return match value {
            Value::Bool(true) => Ok(vec![name(rng)?]),
            Value::Bool(false) => Ok(Vec::new()),
            other => Err(format!("`{}`: a switch given {other}", p.name())),
        };
    }
    if p.is_count() {
        let n = value
            .as_u64()
            .ok_or_else(|| format!("`{}`: a count given {value}", p.name()))?
            as usize;
        if n > 0 && !p.shorts.is_empty() && rng.coin() {
            return Ok(vec![format!("-{}", p.shorts[0].to_string().repeat(n))]);
        }
        return (0..n).map(|_| name(rng)).collect();
    }
    if value.is_null() {
        return Ok(vec![name(rng)?]);
    }
    let texts: Vec<String> = match value {
        Value::Array(items) => items.iter().map(text_of).collect::<Result<_, _>>()?,
        other => vec![text_of(other)?],
    };
    // No values, of a flag that may take none: the flag alone (what an
    // `Option<Vec<T>>` tells from absent), unless the flag alone holds its
    // `default_missing_value`: then no values is saying nothing (cargo's
    // `--target` with `""` for the flag alone).
    if texts.is_empty() && p.value_optional {
        return match p.missing_values {
            true => Ok(Vec::new()),
            false => Ok(vec![name(rng)?]),
        };
    }
    // Items of a delimited list may also be given joined in one flag.
    if let (Some(d), true) = (p.delimiter, texts.len() > 1 && rng.coin()) {
        if texts.iter().all(|t| !t.is_empty() && !t.contains(d)) {
            return value_tokens(tool, p, &texts.join(&d.to_string()), rng);
        }
    }
    // A list taking hyphenated values takes every word after it, a second
    // `--flag` too: all its values go in one use.
    if p.greedy && p.hyphen_values && texts.len() > 1 {
        let per_use = p
            .spec
            .arity
            .and_then(|a| a.max)
            .map_or(usize::MAX, |max| max as usize);
        if texts.len() > per_use {
            return Err(format!("`{}`: more values than one use takes", p.name()));
        }
        let mut tokens = vec![name(rng)?];
        tokens.extend(texts);
        tokens.extend(p.terminator.clone());
        return Ok(tokens);
    }
    // A list set once (`action = Set`, `num_args = 1..=2`) takes its
    // values in one occurrence: `--revs a b`; more than it takes go in a
    // second one, which clap refuses as the build does. An appended list
    // of several values per use (`--set NAME VALUE`) gives them together.
    let grouped = p.spec.arity.is_some_and(|a| a.min > 1);
    let per_use_cap = match p.action {
        ArgAction::Set => Some(p.spec.max_items),
        ArgAction::Append if grouped => Some(p.spec.arity.and_then(|a| a.max)),
        _ => None,
    };
    if let (true, Some(cap), true) = (p.greedy, per_use_cap, texts.len() > 1) {
        let per_use = cap.map_or(texts.len(), |max| max.max(1) as usize);
        let mut tokens = Vec::new();
        for chunk in texts.chunks(per_use) {
            tokens.push(name(rng)?);
            for text in chunk {
                if text.starts_with('-') && !p.hyphen_values {
                    return Err(format!(
                        "`{}`: no way to type {text:?} after other values",
                        p.name()
                    ));
                }
                tokens.push(text.clone());
            }
            tokens.extend(p.terminator.clone());
        }
        return Ok(tokens);
    }
    let mut tokens = Vec::new();
    for text in &texts {
        tokens.extend(value_tokens(tool, p, text, rng)?);
        // A flag taking several values per use ends each use with its
        // terminator, when it has one.
        if p.greedy {
            tokens.extend(p.terminator.clone());
        }
    }
    Ok(tokens)
}

/// One occurrence of flag `p` with the value `text`.
fn value_tokens(
    tool: &ToolModel,
    p: &ParamModel,
    text: &str,
    rng: &mut Forms,
) -> Result<Vec<String>, String> {
    let negative_ok = (tool.negative_numbers || p.negative_numbers) && is_negative_number(text);
    let hyphen_ok = !text.starts_with('-') || p.hyphen_values || negative_ok;
    let separate_ok = !p.require_equals && !p.value_optional && hyphen_ok;
    // `-Tplain`: where a positional takes hyphenated values, clap reads a
    // cluster with letters that are no short flags as that positional's
    // value.
    let attached_ok = separate_ok
        && !tool.hyphen_positional
        && text.chars().next().is_some_and(char::is_alphanumeric);
    // A short-only option (`-C DIR`) takes any value attached (`-C-1`):
    // clap reads the rest of the cluster as the value (but for a leading
    // `=`, which it drops).
    let attached_ok = attached_ok
        || (p.longs.is_empty()
            && !p.require_equals
            && !p.value_optional
            && !text.is_empty()
            && !text.starts_with('='));
    // A value attached (`--exec=cmd`) ends the use: the terminator that
    // follows would be a positional.
    let ends_use = p.greedy && p.terminator.is_some();
    let attached_ok = attached_ok && !ends_use;
    let mut choices: Vec<Vec<String>> = Vec::new();
    for l in &p.longs {
        if !ends_use || !separate_ok {
            choices.push(vec![format!("--{l}={text}")]);
        }
        if separate_ok {
            choices.push(vec![format!("--{l}"), text.to_owned()]);
        }
    }
    for s in &p.shorts {
        if separate_ok {
            choices.push(vec![format!("-{s}"), text.to_owned()]);
        }
        if attached_ok {
            choices.push(vec![format!("-{s}{text}")]);
        }
    }
    if choices.is_empty() {
        return Err(format!("`{}`: no way to type {text:?}", p.name()));
    }
    Ok(rng.pick(&choices).clone())
}
