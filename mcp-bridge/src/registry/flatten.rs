//! Flattening: the command tree becomes the list of tools, by the rules of
//! [`super::rules`].

use std::collections::HashMap;

use crate::error::RegistryError;
use crate::spec::relations::describe_rules;
use crate::spec::{
    CommandSpec, ParamKind, ParamSpec, Pinned, Renamed, ToolSpec, ValueType, EXTERNAL_COMMAND,
};

use super::examples::{self, Level};
use super::rules::{
    is_exposed, is_runnable, name_budget, offers, renames_farther, shorten, tool_text,
    PATH_SEPARATOR, RENAME_SEPARATOR,
};

/// What the grouped and search modes need of the exposed commands that
/// the tools do not carry: the help text of commands that are no tool
/// themselves, every command's aliases and the icons commands declare (by
/// command path, root first; only commands that have some). The tree
/// itself is not kept once its tools are made.
#[derive(Debug, Default)]
pub(crate) struct Outline {
    pub(crate) abouts: HashMap<Vec<String>, String>,
    pub(crate) aliases: HashMap<Vec<String>, Vec<String>>,
    pub(crate) icons: HashMap<Vec<String>, String>,
}

impl Outline {
    /// The icon of the command at `path`: its own, or the nearest one
    /// declared above it, as its tools inherit it.
    pub(crate) fn icon_at(&self, path: &[String]) -> Option<&String> {
        (1..=path.len())
            .rev()
            .find_map(|len| self.icons.get(&path[..len]))
    }
}

/// What the walk found: each tool, with whether its name was given.
#[derive(Default)]
struct Found {
    tools: Vec<(ToolSpec, bool)>,
    outline: Outline,
    /// What the attributes ask that the tools cannot do.
    problems: Vec<RegistryError>,
}

/// Every tool of the tree under `root`, in the order of the tree, and the
/// [`Outline`] of the exposed commands.
pub(crate) fn tools_and_outline(
    root: &CommandSpec,
) -> Result<(Vec<ToolSpec>, Outline), RegistryError> {
    let mut found = Found::default();
    collect_tools(
        root,
        &mut Vec::new(),
        &[],
        &[],
        &mut Vec::new(),
        None,
        &mut found,
    );
    let Found {
        mut tools,
        outline,
        problems,
    } = found;
    if let Some(problem) = problems.into_iter().next() {
        return Err(problem);
    }
    let budget = name_budget(root.mcp.max_name_len.unwrap_or(0));
    for (tool, given) in &mut tools {
        if !*given {
            tool.name = served_name(&tool.path, root, budget);
        }
    }
    Ok((tools.into_iter().map(|(tool, _)| tool).collect(), outline))
}

/// The name a tool without `#[mcp(name)]` is served under: its path joined
/// by [`PATH_SEPARATOR`], starting with the root's `prefix` in place of its
/// name (an empty prefix adds nothing; the root's name when nothing is
/// left), [`shorten`]ed past the budget.
pub(crate) fn served_name(path: &[String], root: &CommandSpec, budget: usize) -> String {
    let first = root.mcp.prefix.as_deref().unwrap_or(&root.name);
    let segments: Vec<&str> = std::iter::once(first)
        .chain(path.iter().skip(1).map(String::as_str))
        .filter(|segment| !segment.is_empty())
        .collect();
    if segments.is_empty() {
        return root.name.clone();
    }
    shorten(&tool_text(&segments.join(PATH_SEPARATOR)), budget)
}

/// A parameter a command's tools inherit from it or an ancestor (borrowed
/// from the tree: it is cloned once, into each tool that offers it).
#[derive(Clone, Copy)]
struct Inherited<'a> {
    param: &'a ParamSpec,
    /// The level (route steps) of the command that declares it: one per
    /// command on a path.
    depth: u32,
    /// That command's name.
    command: &'a str,
    /// Not required here, though declared so: a subcommand is given and
    /// its command has `subcommand_negates_reqs`.
    waived: bool,
}

impl Inherited<'_> {
    /// Whether this argument, of a command nearer the tool, has the name
    /// of `farther`'s.
    fn shadows(&self, farther: &Inherited<'_>) -> bool {
        self.depth > farther.depth && self.param.name == farther.param.name
    }
}

/// An argument no call gives (hidden) whose name a nearer command's
/// property has: read from a name no property has, so that it is built as
/// absent, as on a command line (`hook install claude-code` gives the
/// subcommand's `agent`, never the parent's hidden one).
fn unoffered_shadows(hidden: &[Inherited<'_>], path: &[Inherited<'_>]) -> Vec<Renamed> {
    hidden
        .iter()
        .filter(|entry| path.iter().any(|nearer| nearer.shadows(entry)))
        .map(|entry| Renamed {
            depth: entry.depth,
            from: entry.param.name.clone(),
            to: format!("{}{RENAME_SEPARATOR}{}", entry.command, entry.param.name),
        })
        .collect()
}

/// The properties of a tool, from every parameter on its path (farthest
/// first), by the rule of [`renames_farther`]: the tool's own first, then
/// its ancestors'; with the ancestors' arguments offered under another
/// name. A global shadowed by a nearer argument is left out: the tree
/// check refuses that collision.
fn properties(path: &[Inherited<'_>], own_depth: u32) -> (Vec<ParamSpec>, Vec<Renamed>) {
    let mut own = Vec::with_capacity(path.len());
    let mut own_depths = Vec::with_capacity(path.len());
    let mut ancestors = Vec::new();
    let mut ancestor_depths = Vec::new();
    let mut renamed = Vec::new();
    // The last positional seen of each command, by depth.
    let mut previous_positional: Vec<(u32, &ParamSpec)> = Vec::new();
    for entry in path {
        let shadow = path.iter().find(|nearer| nearer.shadows(entry));
        let mut param = entry.param.clone();
        if entry.waived {
            param.required = false;
        }
        if param.kind == ParamKind::Positional {
            let earlier = previous_positional
                .iter()
                .rposition(|(d, _)| *d == entry.depth);
            if let Some(at) = earlier {
                let earlier = previous_positional[at].1;
                // On a command line a positional takes the first free
                // place: a later one is only reached through the earlier.
                // Not one given after `--` (`last`).
                // Nor a required one after an optional one: clap allows
                // that only with `allow_missing_positional`, and then a
                // lone word fills the required one.
                if !earlier.required
                    && !param.required
                    && !param.last
                    && !param.relations.requires.contains(&earlier.id)
                {
                    param.relations.requires.push(earlier.id.clone());
                }
            }
            previous_positional.push((entry.depth, entry.param));
        }
        if let Some(nearer) = shadow {
            if !renames_farther(nearer.param.global, param.global) {
                continue;
            }
            param.name = format!("{}{RENAME_SEPARATOR}{}", entry.command, param.name);
            // Said once, so that the model tells it from the nearer one.
            let whose = format!("(an option of `{}`, before its subcommand)", entry.command);
            param.description = Some(match param.description.take() {
                Some(text) => format!("{text} {whose}"),
                None => whose,
            });
            renamed.push(Renamed {
                depth: entry.depth,
                from: entry.param.name.clone(),
                to: param.name.clone(),
            });
        }
        if entry.depth == own_depth {
            own.push(param);
            own_depths.push(entry.depth);
        } else {
            ancestors.push(param);
            ancestor_depths.push(entry.depth);
        }
    }
    own.extend(ancestors);
    own_depths.extend(ancestor_depths);
    waive_required_by_conflicts(&mut own, &own_depths);
    (own, renamed)
}

/// clap does not ask for a required argument when one that conflicts with
/// it (either side naming the other) is given: such an argument is
/// required unless one of those is given, which the schema, the
/// description and the call check then say as they say
/// `required_unless_present_any`.
fn waive_required_by_conflicts(params: &mut [ParamSpec], depths: &[u32]) {
    for at in 0..params.len() {
        if !params[at].required {
            continue;
        }
        let param = &params[at];
        let mut waivers: Vec<String> = param
            .relations
            .conflicts_with
            .iter()
            .filter(|id| **id != param.id)
            .cloned()
            .collect();
        for (other, depth) in params.iter().zip(depths) {
            let conflicts = *depth == depths[at]
                && other.id != param.id
                && other.relations.conflicts_with.contains(&param.id);
            if conflicts && !waivers.contains(&other.id) {
                waivers.push(other.id.clone());
            }
        }
        if waivers.is_empty() {
            continue;
        }
        let param = &mut params[at];
        param.required = false;
        for id in waivers {
            if !param.relations.required_unless_any.contains(&id) {
                param.relations.required_unless_any.push(id);
            }
        }
    }
}

/// Says each conditional default (`default_value_if`) in its property's
/// description, naming the property it depends on; the schema's
/// `default` is what a call giving nothing gets (a condition clap finds
/// met by another argument's own default takes the plain one's place).
fn describe_default_ifs(tool: &mut ToolSpec) {
    if tool.params.iter().all(|p| p.default_ifs.is_empty()) {
        return;
    }
    let nothing = serde_json::Map::new();
    let ctx = crate::call::BuildCtx::new(tool, &nothing);
    let changes: Vec<(usize, Option<Vec<String>>, Vec<String>)> = tool
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.default_ifs.is_empty())
        .map(|(at, param)| {
            let plain = || Some(param.default_text.iter().cloned().map(Into::into).collect());
            let effective = ctx
                .conditional_texts(&param.name, plain)
                .map(|texts| texts.into_iter().map(|t| t.into_owned()).collect());
            let notes = param
                .default_ifs
                .iter()
                .map(|rule| {
                    let other = tool.params.iter().find(|p| p.id == rule.arg);
                    // A group's id: any of its members.
                    let members = tool.groups.iter().find(|g| g.id == rule.arg).map(|g| {
                        let names: Vec<&str> = g
                            .members
                            .iter()
                            .filter_map(|m| tool.params.iter().find(|p| &p.id == m))
                            .map(|p| p.name.as_str())
                            .collect();
                        names.join("` or `")
                    });
                    let name = match (other, &members) {
                        (Some(p), _) => p.name.as_str(),
                        (None, Some(members)) => members.as_str(),
                        (None, None) => rule.arg.as_str(),
                    };
                    let boolean = other.is_some_and(|p| p.value_type == ValueType::Boolean);
                    rule.describe(name, boolean)
                })
                .collect();
            (at, effective, notes)
        })
        .collect();
    for (at, effective, notes) in changes {
        let param = &mut tool.params[at];
        let effective = effective.unwrap_or_default();
        if effective != param.default_text {
            param.set_default_text(effective);
        }
        for note in notes {
            param.note(note);
        }
    }
}

fn collect_tools<'a>(
    node: &'a CommandSpec,
    levels: &mut Vec<Level<'a>>,
    inherited: &[Inherited<'a>],
    hidden: &[Inherited<'a>],
    route: &mut Vec<u32>,
    icon: Option<&'a str>,
    out: &mut Found,
) {
    // Only reached when the parent is exposed.
    let icon = node.mcp.icon.as_deref().or(icon);
    if !is_exposed(true, node.hidden, node.mcp.skip) {
        return;
    }
    let route_len = route.len();
    route.extend_from_slice(&node.selector);
    let depth = route.len() as u32;
    levels.push(Level { node, depth });
    let (offered, unoffered): (Vec<&ParamSpec>, Vec<&ParamSpec>) =
        node.params.iter().partition(|p| offers(p.hidden));
    let mut hidden = hidden.to_vec();
    hidden.extend(unoffered.into_iter().map(|param| Inherited {
        param,
        depth,
        command: &node.name,
        waived: false,
    }));
    let mut on_path = inherited.to_vec();
    on_path.extend(offered.into_iter().map(|param| Inherited {
        param,
        depth,
        command: &node.name,
        waived: false,
    }));

    let path = path_of(levels);
    if let Some(icon) = &node.mcp.icon {
        out.outline.icons.insert(path.clone(), icon.clone());
    }
    if !node.aliases.is_empty() {
        out.outline
            .aliases
            .insert(path.clone(), node.aliases.clone());
    }
    let runnable = is_runnable(!node.subcommands.is_empty(), node.subcommand_required);
    if !runnable {
        if let Some(about) = node.mcp.description.as_ref().or(node.about.as_ref()) {
            out.outline.abouts.insert(path.clone(), about.clone());
        }
    }
    if runnable {
        let (params, mut renamed) = properties(&on_path, depth);
        renamed.extend(unoffered_shadows(&hidden, &on_path));
        // A name made from the path is set once the whole tree is known.
        let given = node.mcp.name.is_some();
        let mut tool = ToolSpec {
            name: node.mcp.name.clone().unwrap_or_default(),
            path: path.clone(),
            description: describe(node, &path),
            params,
            groups: node.groups.clone(),
            serial: node.mcp.serial,
            timeout: node.mcp.timeout,
            isolate: node.mcp.isolate,
            task: node.mcp.task,
            title: node.mcp.title.clone(),
            icon: icon.map(str::to_owned),
            hints: node.mcp.hints,
            output: node.mcp.output,
            returns: node.mcp.returns,
            examples: Vec::new(),
            doc_examples: Vec::new(),
            doc_in_description: false,
            route: route.clone(),
            renamed,
            unoffered: hidden.iter().map(|entry| entry.param.clone()).collect(),
            pinned: Vec::new(),
            external: node.external.then(|| external_taken(levels)),
        };
        if let Some(taken) = &tool.external {
            describe_external(&mut tool.params, taken);
        }
        describe_default_ifs(&mut tool);
        for param in tool.params.iter().filter(|p| p.values.is_some()) {
            if !matches!(param.value_type, crate::spec::ValueType::String(_)) {
                out.problems.push(RegistryError::Values {
                    command: path.join(" "),
                    name: param.name.clone(),
                    function: param.values.map(|v| v.name).unwrap_or_default().to_owned(),
                    problem: match &param.value_type {
                        crate::spec::ValueType::Enum { .. } => "its values are a fixed set \
                            already (clap's possible values): use one or the other"
                            .to_owned(),
                        other => format!(
                            "its values are {} values, and a values function gives strings: \
                             use it on a string argument",
                            other.json_type()
                        ),
                    },
                });
            }
        }
        check_headers(&tool, &mut out.problems);
        for (name, value) in &node.mcp.fixed {
            match tool.params.iter().position(|p| &p.name == name) {
                Some(at) if !fits(&tool.params[at].property_schema(), value) => {
                    out.problems.push(RegistryError::FixedArgument {
                        command: path.join(" "),
                        name: name.clone(),
                        problem: format!(
                            "`{value}` is no value of the property, whose schema is {}",
                            tool.params[at].property_schema()
                        ),
                    });
                }
                Some(at) => {
                    let param = tool.params.remove(at);
                    tool.pinned.push(Pinned {
                        name: name.clone(),
                        id: param.id,
                        value: value.clone(),
                        given_as: format!("`#[mcp(args({name} = {value}))]`"),
                        by_cli: true,
                    });
                }
                None => out.problems.push(RegistryError::FixedArgument {
                    command: path.join(" "),
                    name: name.clone(),
                    problem: "its tool has no property of that name".to_owned(),
                }),
            }
        }
        for example in &node.mcp.examples {
            match serde_json::from_str::<serde_json::Value>(example) {
                Ok(serde_json::Value::Object(arguments)) => tool.examples.push(arguments),
                Ok(_) => out.problems.push(RegistryError::Example {
                    command: path.join(" "),
                    example: example.clone(),
                    problem: "it is no JSON object".to_owned(),
                }),
                Err(error) => out.problems.push(RegistryError::Example {
                    command: path.join(" "),
                    example: example.clone(),
                    problem: format!("it is no JSON: {error}"),
                }),
            }
        }
        // The command lines of the doc comment's example section: built
        // (and logged) when the registry knows the CLI's type.
        let help = node.long_about.as_deref().or(node.about.as_deref());
        if let Some(help) = help.filter(|help| examples::may_have_examples(help)) {
            tool.doc_examples = examples::doc_examples(help, levels, &tool);
            tool.doc_in_description = node.mcp.description.is_none();
        }
        let rules = describe_rules(&tool);
        if !rules.is_empty() {
            tool.description.push_str("\n\nRules: ");
            tool.description.push_str(&rules.join("; "));
            tool.description.push('.');
        }
        let mut shown = 0;
        for example in &tool.examples {
            shown += usize::from(describe_example(&mut tool.description, shown, example));
        }
        out.tools.push((tool, given));
    }

    // What this command's subcommands inherit of its own arguments: none
    // but its globals with `args_conflicts_with_subcommands` (the rest are
    // built as absent, read from no property), and none required with
    // `subcommand_negates_reqs`.
    let (mut below, mut below_hidden) = (on_path, hidden);
    if node.args_conflict_with_subcommands {
        let (kept, dropped): (Vec<Inherited<'_>>, Vec<Inherited<'_>>) = below
            .into_iter()
            .partition(|entry| entry.depth != depth || entry.param.global);
        below = kept;
        below_hidden.extend(dropped);
    }
    if node.subcommand_negates_reqs {
        for entry in below.iter_mut().filter(|entry| entry.depth == depth) {
            entry.waived = true;
        }
    }
    for sub in &node.subcommands {
        collect_tools(sub, levels, &below, &below_hidden, route, icon, out);
    }

    route.truncate(route_len);
    levels.pop();
}

/// The names an external subcommand's tool may not be given: its parent's
/// own commands (names and aliases) and clap's `help`, which a command
/// line gives to those.
fn external_taken(levels: &[Level<'_>]) -> Vec<String> {
    let mut taken = vec!["help".to_owned()];
    if let Some(parent) = levels.len().checked_sub(2).map(|at| levels[at].node) {
        for sibling in parent.subcommands.iter().filter(|s| !s.external) {
            taken.push(sibling.name.clone());
            taken.extend(sibling.aliases.iter().cloned());
        }
    }
    taken.sort();
    taken.dedup();
    taken
}

/// Names the commands an external subcommand's `command` may not be, when
/// they are few enough to list.
fn describe_external(params: &mut [ParamSpec], taken: &[String]) {
    const LISTED: usize = 12;
    let Some(command) = params.iter_mut().find(|p| p.id == EXTERNAL_COMMAND) else {
        return;
    };
    if taken.len() <= LISTED {
        let names: Vec<String> = taken.iter().map(|n| format!("`{n}`")).collect();
        command.note(format!("(not one of the CLI's own: {})", names.join(", ")));
    } else {
        command.note("(not one of the CLI's own commands)".to_owned());
    }
}

/// The most examples a tool's description shows.
const DESCRIBED_EXAMPLES: usize = 2;
/// The longest example (as JSON) a tool's description shows.
const DESCRIBED_EXAMPLE_BYTES: usize = 240;

/// Appends `example` to a description that shows `shown` examples, if it
/// is cheap: examples show the model a whole call, worth their bytes where
/// the CLI's author wrote them while they are short, since the description
/// is sent on every turn. Every example is a prompt all the same. Whether
/// it was appended.
pub(super) fn describe_example(
    description: &mut String,
    shown: usize,
    example: &serde_json::Map<String, serde_json::Value>,
) -> bool {
    if shown >= DESCRIBED_EXAMPLES {
        return false;
    }
    let Some(call) = short_call(example) else {
        return false;
    };
    description.push_str(if shown == 0 {
        "\n\nExample: "
    } else {
        "\nExample: "
    });
    description.push_str(&call);
    true
}

/// How many of `examples` a description shows ([`describe_example`]).
pub(super) fn described_examples(examples: &[serde_json::Map<String, serde_json::Value>]) -> usize {
    examples
        .iter()
        .filter_map(short_call)
        .take(DESCRIBED_EXAMPLES)
        .count()
}

/// An example as JSON, if it is short enough for a description.
fn short_call(example: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    let call = serde_json::to_string(example).ok()?;
    (call.len() <= DESCRIBED_EXAMPLE_BYTES).then_some(call)
}

/// `#[mcp(header = "...")]` where a client can send it (SEP-2243): on a
/// property of one string, integer or boolean (what clients accept; a
/// client drops a tool whose annotation is not), each header name once per
/// tool without case — an inherited argument's included, which the
/// derive's check of one struct cannot see.
fn check_headers(tool: &ToolSpec, problems: &mut Vec<RegistryError>) {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for param in &tool.params {
        let Some(header) = &param.header else {
            continue;
        };
        let problem = |problem: String| RegistryError::Header {
            command: tool.path.join(" "),
            name: param.name.clone(),
            header: header.clone(),
            problem,
        };
        let schema = param.property_schema();
        match schema.get("type").and_then(serde_json::Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            _ => problems.push(problem(format!(
                "an `Mcp-Param-` header carries one string, integer or boolean, and the \
                 property's schema is {schema}"
            ))),
        }
        let folded = header.to_ascii_lowercase();
        if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == folded) {
            problems.push(problem(format!(
                "the tool's property `{first}` is sent under that header too (header names \
                 ignore case); give each its own name"
            )));
        }
        seen.push((folded, &param.name));
    }
}

/// Whether a fixed literal is of a JSON type its property's schema allows,
/// one of its `enum` values when it lists some, and within its bounds.
/// The CLI's own parser is left to the call, which refuses with the usual
/// message naming the property.
fn fits(schema: &serde_json::Value, value: &serde_json::Value) -> bool {
    use serde_json::Value;
    let types: Vec<&str> = match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => return true,
    };
    let kind = types.iter().any(|kind| match *kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        // A list of one: the call decides whether a single value fits.
        "array" => fits(&schema["items"], value),
        _ => true,
    });
    let listed = match schema.get("enum") {
        Some(Value::Array(values)) => values.contains(value),
        _ => true,
    };
    let number = value.as_f64();
    let bound = |key: &str, ok: fn(f64, f64) -> bool| match (schema[key].as_f64(), number) {
        (Some(bound), Some(n)) => ok(n, bound),
        _ => true,
    };
    let bounded = bound("minimum", |n, min| n >= min) && bound("maximum", |n, max| n <= max);
    kind && listed && bounded
}

/// The command path of the last level, root first.
fn path_of(levels: &[Level<'_>]) -> Vec<String> {
    levels.iter().map(|level| level.node.name.clone()).collect()
}

fn describe(node: &CommandSpec, path: &[String]) -> String {
    let context = path.join(" ");
    let text = node
        .mcp
        .description
        .as_ref()
        .or(node.long_about.as_ref())
        .or(node.about.as_ref());
    match text {
        Some(text) if !text.is_empty() => format!("{context}: {text}"),
        _ => context,
    }
}
