//! The agreement check: for every tool of a CLI, calls made from the
//! tool's own spec, each also written as the command line a person would
//! type; clap parses the command line (`try_parse_from`), mcp-bridge
//! builds the call, and both must accept with the same value (`Debug`
//! text) or both refuse.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::Mutex;

use serde_json::{json, Map, Value};

use super::command_line::{argv, models, value_text, with_fixed, ParamModel, ToolModel};
use crate::call::is_given;
use crate::error::CallError;
use crate::registry::Registry;
use crate::spec::relations::override_pairs;
use crate::spec::{ToolSpec, ValueType, EXTERNAL_ARGS, EXTERNAL_COMMAND};
use crate::traits::McpCommand;

/// The seed of the spellings unless `MCP_BRIDGE_AGREEMENT_SEED` says
/// otherwise.
const SEED: u64 = 0x6167_7265_656d_656e;

/// The most disagreements reported in full (the rest are counted).
const REPORTED: usize = 40;

/// What the check did: how many calls it compared, how many it could
/// not write as a command line, and every disagreement.
#[derive(Debug, Clone, Default)]
pub struct Agreement {
    /// Calls compared with clap.
    pub compared: usize,
    /// Calls no command line says (a value that cannot be typed where it
    /// must go), so not compared.
    pub unsayable: usize,
    /// The cases that differ from clap in one of the ways
    /// `docs/clap-support.md` lists under "Differences kept on purpose",
    /// each under its reason. They do not fail the check.
    pub kept: Vec<Kept>,
    /// One line per disagreement: the tool, the call's JSON, the command
    /// line, and both outcomes.
    pub disagreements: Vec<String>,
}

/// A case that differs from clap in a documented way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Which difference, as `docs/clap-support.md` words it.
    pub reason: &'static str,
    /// The tool, the call's JSON and what each side did.
    pub case: String,
}

/// The differences kept on purpose that the check can meet.
pub mod kept {
    /// Both of an `overrides_with` pair given: refused, as a call has no
    /// order, where the command line's later one wins.
    pub const OVERRIDES: &str = "a call has no order: both sides of an `overrides_with` pair \
                                 given is an error rather than \"the later wins\"";
    /// A flag given `false` (or a count 0) while its variable is set.
    pub const FLAG_OVER_VARIABLE: &str = "a given property wins over its environment variable, \
                                          even `false` for a flag, which no command line can say \
                                          while the variable is set";
    /// The CLI's own parser panics on the value.
    pub const PANICKING_PARSER: &str = "a parser of the CLI's that panics on a value crashes the \
                                        command line; the call is refused with an error naming \
                                        the property";
    /// The CLI's parser reads the clock: the lines of the value whose
    /// text changes from one parse of the same words to the next.
    pub const CLOCK: &str = "a parser that reads the clock gives another value each time it \
                             runs, on the command line too: those lines are not compared";
}

impl Agreement {
    /// How many cases each documented difference covered, by reason.
    pub fn kept_by_reason(&self) -> std::collections::BTreeMap<&'static str, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for kept in &self.kept {
            *counts.entry(kept.reason).or_insert(0) += 1;
        }
        counts
    }
}

/// Runs the agreement check on the CLI `C` (see
/// [`assert_agrees_with_clap`](super::assert_agrees_with_clap)).
pub fn agreement<C>() -> Agreement
where
    C: McpCommand + clap::Parser + Debug,
{
    let seed = std::env::var("MCP_BRIDGE_AGREEMENT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEED);
    let mut report = Agreement::default();
    let registry = match Registry::<C>::new() {
        Ok(registry) => registry,
        Err(error) => {
            report
                .disagreements
                .push(format!("the tool table cannot be built: {error}"));
            return report;
        }
    };
    let mut root = C::command();
    root.build();
    // An external subcommand's tool has no command of its own in clap.
    let (external, own): (Vec<&ToolSpec>, Vec<&ToolSpec>) =
        registry.tools().partition(|t| t.external.is_some());
    let tools = match models(&root, own.into_iter()) {
        Ok(tools) => tools,
        Err(error) => {
            report.disagreements.push(error);
            return report;
        }
    };
    // The variables the CLI reads: each case sets its own, and they are
    // put back as they were afterwards.
    let variables: BTreeSet<String> = tools
        .iter()
        .flat_map(|t| t.params.iter().filter_map(|p| p.env.clone()))
        .collect();
    let _env = EnvGuard::take(variables);
    // clap parses each command line with this one command, built once (as
    // `C::try_parse_from` does with a new one each time), made once the
    // variables are cleared: an `Arg` reads its variable when it is made.
    let mut parser = C::command();
    parser.build();
    for tool in external {
        check_external::<C>(&registry, &mut parser, tool, &mut report);
    }
    let mut case_number = 0u64;
    for tool in &tools {
        for case in cases(tool) {
            case_number += 1;
            let forms = seed ^ case_number.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            check::<C>(&registry, &mut parser, tool, &case, forms, &mut report);
        }
    }
    if report.disagreements.len() > REPORTED {
        let more = report.disagreements.len() - REPORTED;
        report.disagreements.truncate(REPORTED);
        report
            .disagreements
            .push(format!("... and {more} more disagreements"));
    }
    report
}

/// The calls of an external subcommand's tool: a command the CLI does not
/// define, alone and with arguments (hyphenated ones too), which must
/// build what the same command line builds; and names a command line
/// would not give it (the CLI's own commands, an empty one, an option),
/// which must be refused.
fn check_external<C>(
    registry: &Registry<C>,
    parser: &mut clap::Command,
    tool: &ToolSpec,
    report: &mut Agreement,
) where
    C: McpCommand + clap::Parser + Debug,
{
    const PLUGIN: &str = "mcp-bridge-agreement-plugin";
    let name = &tool.name;
    let call = |args: Value| registry.build(name, args.as_object().expect("an object"));
    // Other required properties (an ancestor's): not generated here.
    let alone = tool
        .params
        .iter()
        .all(|p| !p.required || p.name == EXTERNAL_COMMAND);
    let mut said: Vec<Vec<String>> = vec![
        vec![],
        vec!["a b".into(), "--flag".into(), "-x".into(), "7".into()],
    ];
    if !alone {
        said.clear();
        report.unsayable += 1;
    }
    for args in said {
        let json = json!({ EXTERNAL_COMMAND: PLUGIN, EXTERNAL_ARGS: args });
        let mut words: Vec<String> = tool.path[..tool.path.len() - 1].to_vec();
        words.push(PLUGIN.to_owned());
        words.extend(args);
        let ours = call(json.clone());
        let theirs = clap_parse::<C>(parser, &words).unwrap_or_else(|panic| {
            Err(clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                panic,
            ))
        });
        report.compared += 1;
        let agree = match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => format!("{ours:?}") == format!("{theirs:?}"),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !agree {
            let ours = ours.map_or_else(|e| format!("refused: {e}"), |v| format!("{v:?}"));
            let theirs = theirs.map_or_else(
                |e| format!("refused ({:?})", e.kind()),
                |v| format!("{v:?}"),
            );
            report.disagreements.push(format!(
                "tool `{name}`: {json}\n      command line: {words:?}\n      clap:       {theirs}\n      mcp-bridge: {ours}"
            ));
        }
    }
    let taken = tool.external.as_deref().unwrap_or_default();
    let mut refused: Vec<Value> = taken
        .iter()
        .take(3)
        .map(|own| json!({ EXTERNAL_COMMAND: own }))
        .collect();
    refused.push(json!({ EXTERNAL_COMMAND: "" }));
    refused.push(json!({ EXTERNAL_COMMAND: "--flag" }));
    refused.push(json!({}));
    for json in refused {
        report.compared += 1;
        if let Ok(value) = call(json.clone()) {
            report.disagreements.push(format!(
                "tool `{name}`: {json}: no command line gives an external subcommand this name; \
                 mcp-bridge builds {value:?}"
            ));
        }
    }
}

/// One generated call: its arguments and the variables set for it.
struct Case {
    args: Map<String, Value>,
    env: Vec<(String, String)>,
}

/// The calls generated for `tool`: the empty object; the required
/// properties alone; each optional property alone with each of its
/// values (every possible value, in another case where case is ignored;
/// integer bounds and just past them; lists of 0 to 3 items, items
/// holding the delimiter; `null` where it means "given without a value");
/// each required property dropped; conflicting properties together, and
/// overriding ones;
/// members of one group together; a required property dropped while one
/// that conflicts with it is given; each variable set with its property
/// absent, and a flag's set while the flag is given `false`.
fn cases(tool: &ToolModel) -> Vec<Case> {
    let pools: Vec<Vec<Value>> = tool.params.iter().map(|p| pool(tool, p)).collect();
    let base: Map<String, Value> = tool
        .params
        .iter()
        .zip(&pools)
        .filter(|(p, _)| p.spec.required)
        .filter_map(|(p, pool)| Some((p.name().to_owned(), good(pool)?.clone())))
        .collect();
    let plain = |args: Map<String, Value>| Case {
        args,
        env: Vec::new(),
    };
    let mut out = vec![plain(Map::new()), plain(base.clone())];
    for (p, pool) in tool.params.iter().zip(&pools) {
        if p.spec.required {
            let mut args = base.clone();
            args.remove(p.name());
            out.push(plain(args));
        }
        for value in pool {
            let mut args = base.clone();
            args.insert(p.name().to_owned(), value.clone());
            out.push(plain(args));
        }
    }
    // Two parameters given together, with good values.
    let given = |i: usize| good(&pools[i]).filter(|v| is_given(v));
    let both = |a: usize, b: usize| {
        let (va, vb) = (given(a)?, given(b)?);
        let mut args = base.clone();
        args.insert(tool.params[a].name().to_owned(), va.clone());
        args.insert(tool.params[b].name().to_owned(), vb.clone());
        Some((args, va, vb))
    };
    // Relations: both sides of a conflict; a conflicting one given in
    // place of a required one.
    for &(a, b) in &tool.conflicts {
        let Some((args, va, vb)) = both(a, b) else {
            continue;
        };
        out.push(plain(args));
        for (dropped, kept, value) in [(a, b, vb), (b, a, va)] {
            if tool.params[dropped].spec.required {
                let mut args = base.clone();
                args.remove(tool.params[dropped].name());
                args.insert(tool.params[kept].name().to_owned(), value.clone());
                out.push(plain(args));
            }
        }
    }
    // Overriding pairs: both sides together (a call refuses them).
    let index = |id: &str| tool.params.iter().position(|p| p.spec.id == id);
    for (a, b) in override_pairs(&tool.spec) {
        if let (Some(a), Some(b)) = (index(&a.id), index(&b.id)) {
            if let Some((args, _, _)) = both(a, b) {
                out.push(plain(args));
            }
        }
    }
    // Groups: their members together, two at a time.
    for group in &tool.spec.groups {
        let members: Vec<usize> = tool
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| group.members.contains(&p.spec.id))
            .map(|(i, _)| i)
            .collect();
        for (n, &a) in members.iter().enumerate() {
            for &b in &members[n + 1..] {
                if let Some((args, _, _)) = both(a, b) {
                    out.push(plain(args));
                }
            }
        }
    }
    // Variables: each set, with its property absent.
    for (p, pool) in tool.params.iter().zip(&pools) {
        let Some(name) = &p.env else { continue };
        let texts: Vec<String> = pool
            .iter()
            .filter(|v| !v.is_array() && !v.is_null())
            .filter_map(value_text)
            .take(3)
            .collect();
        for text in texts {
            let mut args = base.clone();
            args.remove(p.name());
            out.push(Case {
                args,
                env: vec![(name.clone(), text)],
            });
        }
        // A flag given `false` while its variable says `true`.
        if p.is_switch() {
            let mut args = base.clone();
            args.insert(p.name().to_owned(), json!(false));
            out.push(Case {
                args,
                env: vec![(name.clone(), "true".to_owned())],
            });
        }
    }
    out
}

/// The first value of a pool that is not an edge (out of range, empty).
fn good(pool: &[Value]) -> Option<&Value> {
    pool.iter()
        .find(|v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
}

/// The values tried for `p`, good ones first.
fn pool(tool: &ToolModel, p: &ParamModel) -> Vec<Value> {
    if p.is_switch() {
        return vec![json!(true), json!(false)];
    }
    if p.is_count() {
        return vec![json!(1), json!(3), json!(0)];
    }
    let items = item_pool(tool, p);
    if p.spec.multiple {
        let mut lists: Vec<Value> = Vec::new();
        for n in 1..=3 {
            let list: Vec<Value> = items.iter().cycle().take(n).cloned().collect();
            if !list.is_empty() {
                lists.push(Value::Array(list));
            }
        }
        // Items holding the delimiter: clap splits them.
        if let (Some(d), true) = (p.delimiter, p.spec.value_type.json_type() == "string") {
            let texts: Vec<String> = items.iter().filter_map(value_text).take(2).collect();
            if texts.len() == 2 && texts.iter().all(|t| !t.is_empty() && !t.contains(d)) {
                lists.push(json!([texts.join(&d.to_string())]));
            }
        }
        lists.push(json!([]));
        return lists;
    }
    let mut values = items;
    if p.null_ok() {
        values.push(Value::Null);
    }
    values
}

/// Values of one item of `p`'s type.
fn item_pool(tool: &ToolModel, p: &ParamModel) -> Vec<Value> {
    let dash_ok = tool.dash_ok(p);
    let mut values: Vec<Value> = Vec::new();
    // The default first: a value the CLI itself takes.
    if let Some(default) = &p.spec.default {
        match default {
            Value::Array(items) => values.extend(items.iter().take(1).cloned()),
            Value::Null => {}
            other => values.push(other.clone()),
        }
    }
    match &p.spec.value_type {
        ValueType::Integer { minimum, maximum } => {
            let lo = minimum.unwrap_or(i128::from(i64::MIN));
            let hi = maximum.unwrap_or(i128::from(u64::MAX));
            let mut ints = vec![1.clamp(lo, hi), lo.max(-5).min(hi), hi.min(1000)];
            ints.extend([lo, hi]);
            if lo > i128::from(i64::MIN) {
                ints.push(lo - 1);
            }
            if hi < i128::from(u64::MAX) {
                ints.push(hi + 1);
            }
            values.extend(ints.into_iter().filter_map(int_json));
        }
        ValueType::Number => values.extend([json!(1.5), json!(0), json!(-2.25)]),
        ValueType::Boolean => values.extend([json!(true), json!(false)]),
        ValueType::Enum { .. } => {
            for spelling in &p.spellings {
                values.push(json!(spelling));
                if p.ignore_case {
                    values.push(json!(other_case(spelling)));
                }
            }
            values.push(json!("no-such-value"));
        }
        ValueType::String(facets) => {
            if facets.max_length == Some(1) {
                values.extend([json!("a"), json!(","), json!("")]);
            } else {
                values.extend(facets.examples.iter().map(|e| json!(e)));
                values.extend([json!("value"), json!("a b.txt"), json!("7"), json!("")]);
            }
        }
        ValueType::Map { .. } => values.push(json!({"key": "value"})),
        // Arguments read as JSON are compared in their own tests.
        ValueType::Json { .. } => {}
    }
    values.retain(|v| dash_ok || value_text(v).is_none_or(|t| !t.starts_with('-')));
    let mut unique = Vec::new();
    for value in values {
        if !unique.contains(&value) {
            unique.push(value);
        }
    }
    unique
}

fn int_json(n: i128) -> Option<Value> {
    i64::try_from(n)
        .map(Value::from)
        .or_else(|_| u64::try_from(n).map(Value::from))
        .ok()
}

/// `value` with its letters' case swapped.
fn other_case(value: &str) -> String {
    value
        .chars()
        .map(|c| match c.is_lowercase() {
            true => c.to_ascii_uppercase(),
            false => c.to_ascii_lowercase(),
        })
        .collect()
}

fn check<C>(
    registry: &Registry<C>,
    parser: &mut clap::Command,
    tool: &ToolModel,
    case: &Case,
    forms: u64,
    report: &mut Agreement,
) where
    C: McpCommand + clap::Parser + Debug,
{
    for (name, value) in &case.env {
        set_var(name, Some(value));
    }
    // A case that sets a variable has clap make its command anew.
    let mut fresh;
    let parser = if case.env.is_empty() {
        parser
    } else {
        fresh = C::command();
        &mut fresh
    };
    let outcome = compare::<C>(registry, parser, tool, case, forms);
    for (name, _) in &case.env {
        set_var(name, None);
    }
    match outcome {
        Outcome::Agree => report.compared += 1,
        Outcome::Unsayable => report.unsayable += 1,
        Outcome::Differ(text) => {
            report.compared += 1;
            report.disagreements.push(text);
        }
        Outcome::Kept(reason, case) => {
            report.compared += 1;
            report.kept.push(Kept { reason, case });
        }
    }
}

enum Outcome {
    Agree,
    Unsayable,
    Differ(String),
    /// A difference kept on purpose: its reason and the case.
    Kept(&'static str, String),
}

fn compare<C>(
    registry: &Registry<C>,
    parser: &mut clap::Command,
    tool: &ToolModel,
    case: &Case,
    forms: u64,
) -> Outcome
where
    C: McpCommand + clap::Parser + Debug,
{
    let name = &tool.spec.name;
    let json = Value::Object(case.args.clone());
    let env: String = case
        .env
        .iter()
        .map(|(name, value)| format!(" {name}={value:?}"))
        .collect();
    let ours = registry.build(name, &case.args);
    let describe_ours = |ours: &Result<C, CallError>| match ours {
        Ok(value) => format!("{value:?}"),
        Err(error) => format!("refused: {error}"),
    };
    // Differences kept on purpose (docs/clap-support.md): a flag given
    // `false` (or a count 0) wins over its set variable, which no command
    // line can say; both of an overriding pair given is refused, as a call
    // has no order for the later one to win.
    let flag_over_variable = tool.params.iter().any(|p| {
        p.spec.action.is_flag()
            && p.env.as_deref().and_then(std::env::var_os).is_some()
            && case
                .args
                .get(p.name())
                .is_some_and(|v| v == &json!(false) || v == &json!(0))
    });
    if flag_over_variable {
        return Outcome::Kept(
            kept::FLAG_OVER_VARIABLE,
            format!(
                "tool `{name}`: {json}{env}: mcp-bridge: {}",
                describe_ours(&ours)
            ),
        );
    }
    let set = |name: &str| case.args.get(name).is_some_and(is_given);
    let overriding = override_pairs(&tool.spec)
        .into_iter()
        .find(|(a, b)| set(&a.name) && set(&b.name))
        .map(|(a, b)| (a.name.clone(), b.name.clone()));
    if let Some((a, b)) = overriding {
        return match &ours {
            Err(CallError::InvalidArguments(e))
                if e.to_string().contains(&format!("`{a}`"))
                    && e.to_string().contains(&format!("`{b}`")) =>
            {
                Outcome::Kept(
                    kept::OVERRIDES,
                    format!("tool `{name}`: {json}{env}: mcp-bridge: refused: {e}"),
                )
            }
            other => Outcome::Differ(format!(
                "tool `{name}`: {json}{env}: both of the overriding `{a}` and `{b}` given: \
                 mcp-bridge must refuse, naming both; it gives {}",
                describe_ours(other)
            )),
        };
    }
    // A positional left out while a later one is given: on a command line
    // the later one's values would take its place, so no command line
    // says this call, and the build must refuse it.
    let shifted = tool.params.iter().find(|p| {
        p.positional() && !case.args.contains_key(p.name()) && {
            tool.shifts_positionals(&case.args, p.name())
        }
    });
    if let Some(p) = shifted {
        return match &ours {
            Err(_) => Outcome::Agree,
            Ok(value) => Outcome::Differ(format!(
                "tool `{name}`: {json}{env}: `{}` left out while a later positional is given, \
                 which no command line says; mcp-bridge builds {value:?}",
                p.name()
            )),
        };
    }
    let Ok(mut words) = argv(tool, &case.args, forms) else {
        return Outcome::Unsayable;
    };
    with_fixed(tool, &mut words);
    let theirs = match clap_parse::<C>(parser, &words) {
        Ok(parsed) => parsed,
        // The CLI's own parser panics on this value: its command line
        // crashes, and the build must refuse (it catches the panic).
        Err(panic) => {
            return match &ours {
                Err(e) => Outcome::Kept(
                    kept::PANICKING_PARSER,
                    format!(
                        "tool `{name}`: {json}{env}: command line {words:?}: its parser \
                         panicked: {panic}; mcp-bridge: refused: {e}"
                    ),
                ),
                Ok(value) => Outcome::Differ(format!(
                    "tool `{name}`: {json}{env}\n      command line: {words:?}\n      clap:       \
                     its parser panicked: {panic}\n      mcp-bridge: {value:?}"
                )),
            };
        }
    };
    if let Err(e) = &theirs {
        use clap::error::ErrorKind;
        if matches!(
            e.kind(),
            ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
        ) {
            // A value that reads as `--help`: no command line says it.
            return Outcome::Unsayable;
        }
    }
    // Equal, or equal once the entries of every map are in one order (a
    // `HashMap`'s order is its random state's, not the value's: skim's
    // key bindings, filled by default).
    // clap's value with its maps in order, made only when the plain texts
    // differ, and once.
    let mut first_text = None;
    let agree = match (&theirs, &ours) {
        (Ok(theirs), Ok(ours)) => {
            format!("{theirs:?}") == format!("{ours:?}") || {
                let text = first_text.insert(normalized(&format!("{theirs:#?}")));
                *text == normalized(&format!("{ours:#?}"))
            }
        }
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if agree {
        return Outcome::Agree;
    }
    // A parser that reads the clock (`--delay 7`: seven seconds from now)
    // gives clap itself another value each time: the lines whose text
    // changes between two parses of the same words are left out, and
    // every other line must be equal.
    if let (Some(first), Ok(ours_value)) = (first_text, &ours) {
        if let Ok(Ok(again)) = clap_parse::<C>(parser, &words) {
            let again = normalized(&format!("{again:#?}"));
            if first != again {
                let ours_text = normalized(&format!("{ours_value:#?}"));
                return match unstable_compare(&first, &again, &ours_text) {
                    Some(Unstable::AgreeMasked(masked)) => Outcome::Kept(
                        kept::CLOCK,
                        format!(
                            "tool `{name}`: {json}{env}: command line {words:?}: not compared: \
                             {masked}"
                        ),
                    ),
                    Some(Unstable::Differ(lines)) => Outcome::Differ(format!(
                        "tool `{name}`: {json}{env}\n      command line: {words:?}\n      \
                         lines that differ (clap | mcp-bridge):\n{lines}"
                    )),
                    None => Outcome::Kept(
                        kept::CLOCK,
                        format!("tool `{name}`: {json}{env}: command line {words:?}"),
                    ),
                };
            }
        }
    }
    let theirs = match &theirs {
        Ok(value) => format!("{value:?}"),
        Err(e) => format!(
            "refused ({:?}): {}",
            e.kind(),
            e.to_string().lines().next().unwrap_or_default()
        ),
    };
    Outcome::Differ(format!(
        "tool `{name}`: {json}{env}\n      command line: {words:?}\n      clap:       {theirs}\n      mcp-bridge: {}",
        describe_ours(&ours)
    ))
}

/// How a value clap builds differently each time compares with ours.
#[derive(Debug, PartialEq)]
enum Unstable {
    /// Equal but for lines whose text changes from one parse to the next
    /// (a clock's value): those lines.
    AgreeMasked(String),
    /// The lines that differ, clap's then ours.
    Differ(String),
}

/// Compares `ours` with clap's value, printed `first` and `again` from two
/// parses of the same words (`{:#?}`, [`normalized`]): the lines whose
/// text changed between the two (a clock's value) are left out, and every
/// other line must be equal in place. `None` when the two parses do not
/// line up (another count of lines).
fn unstable_compare(first: &str, again: &str, ours: &str) -> Option<Unstable> {
    let (first, again, ours): (Vec<&str>, Vec<&str>, Vec<&str>) = (
        first.lines().collect(),
        again.lines().collect(),
        ours.lines().collect(),
    );
    if first.len() != again.len() {
        return None;
    }
    if ours.len() != first.len() {
        return Some(Unstable::Differ(format!(
            "        {} lines | {} lines",
            first.len(),
            ours.len()
        )));
    }
    let changed: Vec<usize> = (0..first.len()).filter(|&i| first[i] != again[i]).collect();
    let differ: Vec<String> = (0..first.len())
        .filter(|i| !changed.contains(i) && first[*i] != ours[*i])
        .map(|i| format!("        {} | {}", first[i].trim(), ours[i].trim()))
        .collect();
    if !differ.is_empty() {
        return Some(Unstable::Differ(differ.join("\n")));
    }
    let masked: Vec<&str> = changed.iter().map(|&i| first[i].trim()).collect();
    Some(Unstable::AgreeMasked(masked.join(" ")))
}

/// A value's `{:#?}` text with the entries of every map and set in one
/// order (sorted, each entry with its nested lines), so that a `HashMap`
/// printed in its random order compares by its entries. A map or set
/// opens with `{` alone or after a key or a field's name (`name: {`); a
/// struct's `Name {` is left as it is.
fn normalized(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    normalize_into(&lines, &mut out);
    out.join("\n")
}

fn normalize_into(lines: &[&str], out: &mut Vec<String>) {
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        let opens = trimmed == "{" || trimmed.ends_with(": {");
        // Only an opening line looks for its close: a scan from every line
        // would be quadratic in the value's size.
        let close = opens
            .then(|| {
                (i + 1..lines.len()).find(|&j| {
                    indent(lines[j]) == indent(line) && lines[j].trim_start().starts_with('}')
                })
            })
            .flatten();
        let Some(close) = close else {
            out.push(line.to_owned());
            i += 1;
            continue;
        };
        let inner = &lines[i + 1..close];
        let mut entries: Vec<String> = Vec::new();
        let mut take = |lines: &[&str]| {
            let mut entry = Vec::new();
            normalize_into(lines, &mut entry);
            entries.push(entry.join("\n"));
        };
        if let Some(first) = inner.first() {
            let at = indent(first);
            let mut start = 0;
            for (k, entry_line) in inner.iter().enumerate() {
                if indent(entry_line) == at && entry_line.trim_end().ends_with(',') {
                    take(&inner[start..=k]);
                    start = k + 1;
                }
            }
            if start < inner.len() {
                take(&inner[start..]);
            }
        }
        entries.sort();
        out.push(line.to_owned());
        out.extend(entries);
        out.push(lines[close].to_owned());
        i = close + 1;
    }
}

/// clap's parse of `words`, as `C::try_parse_from` parses them but with
/// the command built once (`parser`, `C::command()` built); `Err` with the
/// message when the CLI's own parser panics (a `From<&str>` that panics on
/// a bad value).
fn clap_parse<C: clap::Parser>(
    parser: &mut clap::Command,
    words: &[String],
) -> Result<Result<C, clap::Error>, String> {
    let parse = || {
        let mut matches = parser.try_get_matches_from_mut(words)?;
        C::from_arg_matches_mut(&mut matches).map_err(|e| e.format(parser))
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse))
        .map_err(|panic| crate::error::panic_message(&*panic))
}

/// Serialises the checks that set the variables a CLI reads.
static ENV: Mutex<()> = Mutex::new(());

/// The variables a CLI reads, cleared for the check and put back as they
/// were when it is dropped.
struct EnvGuard {
    saved: Vec<(String, Option<std::ffi::OsString>)>,
    _lock: std::sync::MutexGuard<'static, ()>,
}

impl EnvGuard {
    fn take(variables: BTreeSet<String>) -> Self {
        let lock = ENV.lock().unwrap_or_else(|e| e.into_inner());
        let saved = variables
            .into_iter()
            .map(|name| {
                let value = std::env::var_os(&name);
                set_var(&name, None);
                (name, value)
            })
            .collect();
        Self { saved, _lock: lock }
    }
}

impl Drop for EnvGuard {
    fn drop(&mut self) {
        for (name, value) in &self.saved {
            match value {
                Some(value) => set_os_var(name, value),
                None => set_var(name, None),
            }
        }
    }
}

fn set_var(name: &str, value: Option<&str>) {
    match value {
        Some(value) => set_os_var(name, std::ffi::OsStr::new(value)),
        None => remove_var(name),
    }
}

// The test process's environment: set by this check only, under `ENV`
// (the variables the CLI under test reads, put back afterwards).
fn set_os_var(name: &str, value: &std::ffi::OsStr) {
    std::env::set_var(name, value);
}

fn remove_var(name: &str) {
    std::env::remove_var(name);
}

#[cfg(test)]
mod tests {
    use super::{normalized, unstable_compare, Unstable};

    fn text(lines: &[&str]) -> String {
        lines.join("\n")
    }

    #[test]
    fn a_map_in_another_order_is_equal_and_a_changed_entry_or_field_is_not() {
        let map = |entries: &[&str], n: &str| {
            let mut lines = vec!["S {", "    keys: {"];
            lines.extend_from_slice(entries);
            lines.extend_from_slice(&["    },", n, "}"]);
            normalized(&text(&lines))
        };
        // Entries of several lines (a key that is a struct), in any order.
        let a = [
            "        K {",
            "            c: 'a',",
            "        }: [",
            "            1,",
            "        ],",
        ];
        let b = [
            "        K {",
            "            c: 'b',",
            "        }: [",
            "            2,",
            "        ],",
        ];
        let ab = [a, b].concat();
        let ba = [b, a].concat();
        assert_eq!(map(&ab, "    n: 5,"), map(&ba, "    n: 5,"));
        // An entry's value changed, a field changed, values swapped
        // between keys: not equal.
        let b3 = [
            "        K {",
            "            c: 'b',",
            "        }: [",
            "            3,",
            "        ],",
        ];
        assert_ne!(map(&ab, "    n: 5,"), map(&[a, b3].concat(), "    n: 5,"));
        assert_ne!(map(&ab, "    n: 5,"), map(&ba, "    n: 6,"));
        let a2 = [
            "        K {",
            "            c: 'a',",
            "        }: [",
            "            2,",
            "        ],",
        ];
        let b1 = [
            "        K {",
            "            c: 'b',",
            "        }: [",
            "            1,",
            "        ],",
        ];
        assert_ne!(map(&ab, "    n: 5,"), map(&[b1, a2].concat(), "    n: 5,"));
        // A struct's fields keep their order.
        let s = normalized(&text(&["S {", "    b: 1,", "    a: 2,", "}"]));
        assert_eq!(s, text(&["S {", "    b: 1,", "    a: 2,", "}"]));
    }

    #[test]
    fn a_clock_s_lines_are_left_out_and_the_rest_compared_in_place() {
        let first = text(&["S {", "  at: 100,", "  n: 5,", "}"]);
        let again = text(&["S {", "  at: 107,", "  n: 5,", "}"]);
        let ours = text(&["S {", "  at: 112,", "  n: 5,", "}"]);
        assert_eq!(
            unstable_compare(&first, &again, &ours),
            Some(Unstable::AgreeMasked("at: 100,".into()))
        );
        let other = text(&["S {", "  at: 112,", "  n: 4,", "}"]);
        assert!(matches!(
            unstable_compare(&first, &again, &other),
            Some(Unstable::Differ(lines)) if lines.contains("n: 5, | n: 4,")
        ));
        // Parses that do not line up: nothing to compare by line.
        assert_eq!(unstable_compare(&first, "S {\n}", &ours), None);
        assert!(matches!(
            unstable_compare(&first, &again, "S {\n}"),
            Some(Unstable::Differ(_))
        ));
    }
}
