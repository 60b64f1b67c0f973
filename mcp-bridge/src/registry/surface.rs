//! What `tools/list` shows of the tool table, and how a call to what it
//! shows reaches a tool. Flat (the default): every tool on its own, and
//! this module is not used. Grouped: the tools under a command served as
//! one tool whose input names the command. Search: two tools, one that
//! finds tools by words and returns their definitions, one that runs a
//! tool by name, plus the tools the operator pins.
//!
//! Every call still reaches the tool it names in the table, with the same
//! build and the same refusals: the modes change what is listed, never
//! what a call may do.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::flatten::{served_name, Outline};
use super::rules::name_budget;
use super::Table;
use crate::spec::{CommandSpec, ToolHints, ToolSpec};

/// How the tools of a CLI are listed to clients (`mcp serve --grouped`,
/// `--search`, or [`Bridge::tool_mode`](crate::Bridge::tool_mode)).
///
/// A CLI of a few dozen commands is best served flat: each tool carries
/// its own schema and a model calls it in one step. Past that, the tool
/// definitions cost context on every turn; the grouped and search modes
/// trade it for a second step the first time a command is used.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ToolMode {
    /// Every command that runs is a tool with its full input schema.
    #[default]
    Flat,
    /// The tools under each command `depth` levels below the root (`0`:
    /// the whole CLI) are one tool, named like that command, whose input
    /// is `{"command": "<its path below>", "arguments": {...}}`; the
    /// description lists the commands with their first line of help, and
    /// `{"command": ..., "help": true}` answers with the command's full
    /// description and input schema. Command aliases are accepted as clap
    /// accepts them. Tools above that depth, and commands with a single
    /// tool, stay as they are. A group's annotations hold for every
    /// command it runs (read-only only if all are, see
    /// [`ToolHints::for_any_of`]); it has its command's icon, the title of
    /// its own command, and no `outputSchema` (`help` answers with a
    /// command's own).
    Grouped {
        /// The level of the commands whose subtrees become one tool.
        depth: usize,
    },
    /// Two tools, `search_tools` (words → the definitions of the tools
    /// they match) and `call_tool` (a tool's name and arguments), plus the
    /// tools whose names match one of `pinned` (`*` and `?`), listed as
    /// they are.
    Search {
        /// Patterns of the tools listed as they are.
        pinned: Vec<String>,
    },
}

/// The name of the search mode's finding tool.
pub(crate) const SEARCH_TOOL: &str = "search_tools";
/// The name of the search mode's running tool.
pub(crate) const CALL_TOOL: &str = "call_tool";
/// How many tools a search returns unless asked for another number.
const SEARCH_LIMIT: u64 = 5;
/// The most a search returns.
const SEARCH_MAX: u64 = 20;
/// How many commands an unknown-command refusal lists before cutting.
const LISTED_CHOICES: usize = 24;

/// One entry of `tools/list`.
#[derive(Debug)]
pub(crate) enum Shown {
    /// A tool of the table, as it is (by index).
    Tool(usize),
    /// A command's tools as one tool.
    Group(Group),
    /// The search mode's two tools.
    Search(Listed),
    Call(Listed),
}

/// A tool this module makes: its name, description and input schema, and
/// what it says of itself (the hints hold for every tool it may run).
#[derive(Debug)]
pub(crate) struct Listed {
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) schema: Map<String, Value>,
    pub(crate) title: Option<String>,
    pub(crate) icon: Option<String>,
    pub(crate) hints: ToolHints,
}

/// The tools under one command, served as one tool.
#[derive(Debug)]
pub(crate) struct Group {
    pub(crate) listed: Listed,
    /// The command's path, root first.
    path: Vec<String>,
    /// The group's own command, when it runs without a subcommand.
    own: Option<usize>,
    /// Its tools by their path below the command (`"remote add"`).
    members: Vec<(String, usize)>,
    by_command: HashMap<String, usize>,
    /// The aliases of the commands below, by command path.
    aliases: HashMap<Vec<String>, Vec<String>>,
}

/// Where a call to a listed tool goes.
#[derive(Debug)]
pub(crate) enum Resolved<'a> {
    /// The tool at this index, with these arguments.
    Tool {
        index: usize,
        arguments: Cow<'a, Map<String, Value>>,
    },
    /// A group's `help`: the definition of the tool at this index.
    Help { index: usize, group: String },
    /// A search: the tools found, best first (empty: none matched).
    Found { indices: Vec<usize>, query: String },
    /// Refused before any tool: the message says why and what to give.
    Refused(String),
}

/// The tools as listed in a mode other than flat, and the routes of calls.
#[derive(Debug)]
pub(crate) struct Surface {
    pub(crate) shown: Vec<Shown>,
    by_name: HashMap<String, usize>,
    /// For searching: each tool's words (name, path, description),
    /// lowercased, in table order.
    words: Vec<String>,
    /// The CLI's top-level commands, for refusals that list them.
    commands: Vec<String>,
}

impl Surface {
    /// The surface of `registry` in `mode` (`None` for flat, which lists
    /// the table as it is). Errors when a made tool's name is taken.
    pub(crate) fn new(registry: &Table, mode: &ToolMode) -> Result<Option<Self>, String> {
        let tools: Vec<&ToolSpec> = registry.tools().collect();
        let root = registry.root();
        let shown = match mode {
            ToolMode::Flat => return Ok(None),
            ToolMode::Grouped { depth } => grouped(&tools, root, &registry.outline, *depth),
            ToolMode::Search { pinned } => searched(&tools, root, pinned)?,
        };
        let mut by_name = HashMap::with_capacity(shown.len());
        for (at, entry) in shown.iter().enumerate() {
            let name = match entry {
                Shown::Tool(index) => tools[*index].name.as_str(),
                Shown::Group(group) => group.listed.name.as_str(),
                Shown::Search(listed) | Shown::Call(listed) => listed.name.as_str(),
            };
            if by_name.insert(name.to_owned(), at).is_some() {
                return Err(format!(
                    "the tool name `{name}` is taken twice in this mode: name one of the \
                     commands with `#[mcp(name = \"...\")]`, or serve with another depth"
                ));
            }
        }
        let words = match mode {
            ToolMode::Search { .. } => tools
                .iter()
                .map(|tool| {
                    format!("{} {} {}", tool.name, tool.path.join(" "), tool.description)
                        .to_lowercase()
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut commands: Vec<String> = Vec::new();
        for tool in &tools {
            if let Some(first) = tool.path.get(1) {
                if !commands.contains(first) {
                    commands.push(first.clone());
                }
            }
        }
        let mut surface = Surface {
            shown,
            by_name,
            words,
            commands,
        };
        for entry in &mut surface.shown {
            if let Shown::Group(group) = entry {
                group.listed.description = describe_group(group, &tools, root, registry);
            }
        }
        Ok(Some(surface))
    }

    /// The listed entry named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Shown> {
        self.by_name.get(name).map(|&at| &self.shown[at])
    }

    /// Where the entry named `name` stands in the listing.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Where a call of `name` with `arguments` goes; `None` when no listed
    /// tool has the name (a tool of the table called by its own name is
    /// still served: `lookup` finds it).
    pub(crate) fn resolve<'a>(
        &self,
        name: &str,
        arguments: &'a Map<String, Value>,
        lookup: impl Fn(&str) -> Option<usize>,
    ) -> Option<Resolved<'a>> {
        let Some(entry) = self.get(name) else {
            return lookup(name).map(|index| Resolved::Tool {
                index,
                arguments: Cow::Borrowed(arguments),
            });
        };
        Some(match entry {
            Shown::Tool(index) => Resolved::Tool {
                index: *index,
                arguments: Cow::Borrowed(arguments),
            },
            Shown::Group(group) => group.resolve(arguments),
            Shown::Search(listed) => self.search(&listed.name, arguments),
            Shown::Call(listed) => call(&listed.name, arguments, lookup),
        })
    }

    fn search<'a>(&self, tool: &str, arguments: &Map<String, Value>) -> Resolved<'a> {
        if let Some(refused) = unknown_keys(tool, arguments, &["query", "limit"]) {
            return refused;
        }
        let query = match arguments.get("query") {
            Some(Value::String(query)) if !query.trim().is_empty() => query.clone(),
            other => {
                return Resolved::Refused(format!(
                    "tool `{tool}`: `query` must be a non-empty string of words (a command's \
                     name, or what you want to do), not {}",
                    given(other)
                ))
            }
        };
        let limit = match arguments.get("limit") {
            None | Some(Value::Null) => SEARCH_LIMIT,
            Some(Value::Number(n)) if n.as_u64().is_some_and(|n| (1..=SEARCH_MAX).contains(&n)) => {
                n.as_u64().unwrap_or(SEARCH_LIMIT)
            }
            other => {
                return Resolved::Refused(format!(
                    "tool `{tool}`: `limit` must be an integer from 1 to {SEARCH_MAX}, not {}",
                    given(other)
                ))
            }
        };
        Resolved::Found {
            indices: rank(&self.words, &query, limit as usize),
            query,
        }
    }

    /// The CLI's top-level commands, for a search that found nothing.
    pub(crate) fn commands(&self) -> &[String] {
        &self.commands
    }
}

/// What a refusal says was given.
fn given(value: Option<&Value>) -> String {
    match value {
        None => "nothing".to_owned(),
        Some(value) => {
            let text = value.to_string();
            match text.chars().count() > 60 {
                true => format!("`{}…`", text.chars().take(60).collect::<String>()),
                false => format!("`{text}`"),
            }
        }
    }
}

/// A refusal naming the first key of `arguments` not in `known`.
fn unknown_keys<'a>(
    tool: &str,
    arguments: &Map<String, Value>,
    known: &[&str],
) -> Option<Resolved<'a>> {
    let key = arguments
        .keys()
        .find(|key| !known.contains(&key.as_str()))?;
    Some(Resolved::Refused(format!(
        "tool `{tool}` has no property `{key}`: it takes {}",
        known
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )))
}

/// A tool's `arguments`: an object, or nothing (no arguments).
fn inner_arguments<'a>(
    tool: &str,
    arguments: &'a Map<String, Value>,
) -> Result<Cow<'a, Map<String, Value>>, Resolved<'a>> {
    match arguments.get("arguments") {
        None | Some(Value::Null) => Ok(Cow::Owned(Map::new())),
        Some(Value::Object(inner)) => Ok(Cow::Borrowed(inner)),
        other => Err(Resolved::Refused(format!(
            "tool `{tool}`: `arguments` must be an object of the command's arguments by name, \
             not {}",
            given(other)
        ))),
    }
}

fn call<'a>(
    tool: &str,
    arguments: &'a Map<String, Value>,
    lookup: impl Fn(&str) -> Option<usize>,
) -> Resolved<'a> {
    if let Some(refused) = unknown_keys(tool, arguments, &["name", "arguments"]) {
        return refused;
    }
    let name = match arguments.get("name") {
        Some(Value::String(name)) => name,
        other => {
            return Resolved::Refused(format!(
                "tool `{tool}`: `name` must be the name of a tool `{SEARCH_TOOL}` found, not {}",
                given(other)
            ))
        }
    };
    let Some(index) = lookup(name) else {
        return Resolved::Refused(format!(
            "tool `{tool}`: there is no tool named `{name}`; `{SEARCH_TOOL}` finds the tools \
             and their exact names"
        ));
    };
    match inner_arguments(tool, arguments) {
        Ok(arguments) => Resolved::Tool { index, arguments },
        Err(refused) => refused,
    }
}

impl Group {
    fn resolve<'a>(&self, arguments: &'a Map<String, Value>) -> Resolved<'a> {
        let tool = &self.listed.name;
        if let Some(refused) = unknown_keys(tool, arguments, &["command", "arguments", "help"]) {
            return refused;
        }
        let index = match arguments.get("command") {
            None | Some(Value::Null) => match self.own {
                Some(index) => index,
                None => {
                    return Resolved::Refused(format!(
                        "tool `{tool}` needs `command`: one of {}",
                        self.choices()
                    ))
                }
            },
            Some(Value::String(command)) => match self.find(command) {
                Some(index) => index,
                None => {
                    let listed: Vec<String> =
                        self.members.iter().map(|(name, _)| name.clone()).collect();
                    let hint = match crate::call::closest(command.trim(), &listed) {
                        Some(near) => format!(" (did you mean `{near}`?)"),
                        None => String::new(),
                    };
                    return Resolved::Refused(format!(
                        "tool `{tool}`: `command` is `{command}`, which is none of its \
                         commands{hint}: {}",
                        self.choices()
                    ));
                }
            },
            other => {
                return Resolved::Refused(format!(
                    "tool `{tool}`: `command` must be a string, one of {}; not {}",
                    self.choices(),
                    given(other)
                ))
            }
        };
        match arguments.get("help") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => {
                return Resolved::Help {
                    index,
                    group: tool.clone(),
                }
            }
            other => {
                return Resolved::Refused(format!(
                    "tool `{tool}`: `help` must be `true` or `false`, not {}",
                    given(other)
                ))
            }
        }
        match inner_arguments(tool, arguments) {
            Ok(arguments) => Resolved::Tool { index, arguments },
            Err(refused) => refused,
        }
    }

    /// The tool a `command` names: its path below the group's command, as
    /// listed or with aliases (`ls` for `list`) as clap takes them, and
    /// with the group's own command name in front or not.
    fn find(&self, command: &str) -> Option<usize> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let joined = words.join(" ");
        if let Some(&at) = self.by_command.get(&joined) {
            return Some(self.members[at].1);
        }
        let own_name = self.path.last().map(String::as_str);
        let words = match words.first() {
            Some(first) if Some(*first) == own_name => &words[1..],
            _ => &words[..],
        };
        if words.is_empty() {
            return self.own;
        }
        if let Some(&at) = self.by_command.get(&words.join(" ")) {
            return Some(self.members[at].1);
        }
        // Aliases: a word matches a command's name or one of its aliases.
        let aliases = &self.aliases;
        self.members.iter().find_map(|(member, index)| {
            let names: Vec<&str> = member.split(' ').collect();
            if names.len() != words.len() {
                return None;
            }
            let mut path = self.path.clone();
            for (name, word) in names.iter().zip(words) {
                path.push((*name).to_owned());
                let alias = aliases
                    .get(&path)
                    .is_some_and(|list| list.iter().any(|a| a == word));
                if name != word && !alias {
                    return None;
                }
            }
            Some(*index)
        })
    }

    fn choices(&self) -> String {
        let mut names: Vec<String> = self
            .members
            .iter()
            .take(LISTED_CHOICES)
            .map(|(command, _)| format!("`{command}`"))
            .collect();
        if self.members.len() > LISTED_CHOICES {
            names.push(format!(
                "… ({} in all, listed in the tool's description)",
                self.members.len()
            ));
        }
        names.join(", ")
    }
}

/// The grouped listing: each tool at or below `depth + 1` levels joins the
/// group of its ancestor at `depth`; a group of one tool stays that tool.
fn grouped(tools: &[&ToolSpec], root: &CommandSpec, outline: &Outline, depth: usize) -> Vec<Shown> {
    // Groups by the path of their command, in order of first appearance.
    let mut order: Vec<Vec<usize>> = Vec::new();
    let mut keys: HashMap<&[String], usize> = HashMap::new();
    let mut shown: Vec<Option<usize>> = Vec::new();
    for (index, tool) in tools.iter().enumerate() {
        if tool.path.len() <= depth {
            shown.push(None);
            order.push(vec![index]);
            continue;
        }
        let key = &tool.path[..=depth];
        let at = *keys.entry(key).or_insert_with(|| {
            order.push(Vec::new());
            order.len() - 1
        });
        order[at].push(index);
        shown.push(Some(at));
    }
    let budget = name_budget(root.mcp.max_name_len.unwrap_or(0));
    order
        .into_iter()
        .map(|members| {
            let first = tools[members[0]];
            if members.len() == 1 || first.path.len() <= depth {
                return Shown::Tool(members[0]);
            }
            let path = first.path[..=depth].to_vec();
            let own = members
                .iter()
                .copied()
                .find(|&index| tools[index].path.len() == depth + 1);
            let name = match own {
                Some(index) => tools[index].name.clone(),
                None => served_name(&path, root, budget),
            };
            let listed_members: Vec<(String, usize)> = members
                .iter()
                .copied()
                .filter(|&index| Some(index) != own)
                .map(|index| (tools[index].path[depth + 1..].join(" "), index))
                .collect();
            let by_command = listed_members
                .iter()
                .enumerate()
                .map(|(at, (command, _))| (command.clone(), at))
                .collect();
            let aliases = outline
                .aliases
                .iter()
                .filter(|(alias_path, _)| alias_path.starts_with(&path))
                .map(|(alias_path, list)| (alias_path.clone(), list.clone()))
                .collect();
            let schema = group_schema(&listed_members, own.is_some());
            Shown::Group(Group {
                listed: Listed {
                    name,
                    description: String::new(),
                    schema,
                    title: own.and_then(|index| tools[index].title.clone()),
                    icon: outline.icon_at(&path).cloned(),
                    hints: ToolHints::for_any_of(members.iter().map(|&index| &tools[index].hints)),
                },
                path,
                own,
                members: listed_members,
                by_command,
                aliases,
            })
        })
        .collect()
}

/// The input schema of a group: the command (listed), its arguments (an
/// object the command's own schema checks when the call arrives) and
/// `help`.
fn group_schema(members: &[(String, usize)], own: bool) -> Map<String, Value> {
    let commands: Vec<&str> = members
        .iter()
        .map(|(command, _)| command.as_str())
        .collect();
    let mut command = json!({
        "type": "string",
        "description": "The command to run, from the list in the tool's description",
        "enum": commands,
    });
    if own {
        command["type"] = json!(["string", "null"]);
        command["description"] =
            json!("The command to run, from the list in the tool's description; leave it out to run the tool's own command");
        command["enum"]
            .as_array_mut()
            .expect("an array")
            .push(Value::Null);
    }
    let mut schema = json!({
        "type": "object",
        "properties": {
            "command": command,
            "arguments": {
                "type": "object",
                "description": "The command's arguments by name (its input schema: call with `help: true`)",
            },
            "help": {
                "type": "boolean",
                "description": "Return the command's description and input schema instead of running it",
            },
        },
        "additionalProperties": false,
    });
    if !own {
        schema["required"] = json!(["command"]);
    }
    match schema {
        Value::Object(schema) => schema,
        _ => unreachable!("an object literal"),
    }
}

/// A group's description: its command's help, then one line per command.
fn describe_group(
    group: &Group,
    tools: &[&ToolSpec],
    root: &CommandSpec,
    registry: &Table,
) -> String {
    let context = group.path.join(" ");
    let about = match group.own {
        Some(index) => summary(tools[index]).to_owned(),
        None if group.path.len() == 1 => root
            .mcp
            .description
            .as_ref()
            .or(root.about.as_ref())
            .map(|text| first_line(text).to_owned())
            .unwrap_or_default(),
        None => registry
            .outline
            .abouts
            .get(&group.path)
            .map(|text| first_line(text).to_owned())
            .unwrap_or_default(),
    };
    let mut text = match about.is_empty() {
        true => format!("{context}: its commands as one tool."),
        false => format!("{context}: {about}"),
    };
    text.push_str(
        "\nGive `command` (one below) and its `arguments`; `help: true` returns the command's \
         arguments. Commands:",
    );
    for (command, index) in &group.members {
        let line = summary(tools[*index]);
        text.push_str("\n- ");
        text.push_str(command);
        if !line.is_empty() {
            text.push_str(": ");
            text.push_str(line);
        }
    }
    text
}

/// The first line of a tool's help: its description without the command
/// path it starts with.
fn summary(tool: &ToolSpec) -> &str {
    let context = tool.path.join(" ");
    let text = tool
        .description
        .strip_prefix(context.as_str())
        .unwrap_or(&tool.description);
    first_line(text.strip_prefix(':').unwrap_or(text))
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// The search listing: the two tools, then the pinned ones.
fn searched(
    tools: &[&ToolSpec],
    root: &CommandSpec,
    pinned: &[String],
) -> Result<Vec<Shown>, String> {
    let patterns: Vec<wildmatch::WildMatch> = pinned
        .iter()
        .map(|p| wildmatch::WildMatch::new(p))
        .collect();
    let about = root
        .mcp
        .description
        .as_ref()
        .or(root.about.as_ref())
        .map(|text| format!(" ({})", first_line(text).trim_end_matches('.')))
        .unwrap_or_default();
    let search = Listed {
        name: SEARCH_TOOL.to_owned(),
        description: format!(
            "Find the tools of `{}`{about}: {} commands, each a tool. Give words (a command's \
             name, or what you want to do); returns the matching tools' names, descriptions and \
             input schemas. Run one with `{CALL_TOOL}`.",
            root.name,
            tools.len()
        ),
        schema: object(json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "description": "Words to look for in the tools' names and descriptions" },
                "limit": { "type": "integer", "minimum": 1, "maximum": SEARCH_MAX, "default": SEARCH_LIMIT, "description": "The most tools to return" },
            },
            "required": ["query"],
            "additionalProperties": false,
        })),
        title: None,
        icon: root.mcp.icon.clone(),
        // It reads the table of tools and nothing else.
        hints: ToolHints {
            read_only: Some(true),
            open_world: Some(false),
            ..ToolHints::NONE
        },
    };
    let call = Listed {
        name: CALL_TOOL.to_owned(),
        description: format!(
            "Run a tool of `{}` that `{SEARCH_TOOL}` found: its exact name, and its arguments \
             as its input schema says.",
            root.name
        ),
        schema: object(json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "The tool's name" },
                "arguments": { "type": "object", "description": "The tool's arguments by name" },
            },
            "required": ["name"],
            "additionalProperties": false,
        })),
        title: None,
        icon: root.mcp.icon.clone(),
        hints: ToolHints::for_any_of(tools.iter().map(|tool| &tool.hints)),
    };
    let mut shown = vec![Shown::Search(search), Shown::Call(call)];
    // The operator's own words: a pattern's `Display` is the crate's to
    // change (wildmatch 2.0 printed `x*` as `x`).
    for (pattern, written) in patterns.iter().zip(pinned) {
        if !tools.iter().any(|tool| pattern.matches(&tool.name)) {
            return Err(format!("--pin {written}: no tool has a name that matches"));
        }
    }
    shown.extend(
        tools
            .iter()
            .enumerate()
            .filter(|(_, tool)| patterns.iter().any(|p| p.matches(&tool.name)))
            .map(|(index, _)| Shown::Tool(index)),
    );
    Ok(shown)
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("an object literal"),
    }
}

/// The tools whose words match the query best, best first: a tool matching
/// more of the query's words ranks first, then by score (a query word
/// found as a whole word counts 2, inside a word 1), then in table order;
/// a tool matching none is left out.
fn rank(words: &[String], query: &str, limit: usize) -> Vec<usize> {
    let terms: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect();
    if terms.is_empty() {
        return Vec::new();
    }
    let mut scored: Vec<(usize, usize, usize)> = words
        .iter()
        .enumerate()
        .filter_map(|(index, text)| {
            let mut score = 0;
            let mut matched = 0;
            for term in &terms {
                let whole = text
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|word| word == term);
                if whole {
                    score += 2;
                    matched += 1;
                } else if text.contains(term.as_str()) {
                    score += 1;
                    matched += 1;
                }
            }
            (matched > 0).then_some((index, matched, score))
        })
        .collect();
    // Most terms matched first, then the score, then the table's order.
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    scored
        .into_iter()
        .take(limit)
        .map(|(index, ..)| index)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_drop_the_path_context() {
        let mut tool = ToolSpec {
            description: "app task add: Add a task\nmore".into(),
            ..crate::registry::Registry::<()>::from_spec(CommandSpec::new("app"))
                .unwrap()
                .tools()
                .next()
                .unwrap()
                .clone()
        };
        tool.path = vec!["app".into(), "task".into(), "add".into()];
        assert_eq!(summary(&tool), "Add a task");
        tool.description = "app task add".into();
        assert_eq!(summary(&tool), "");
    }

    fn app() -> CommandSpec {
        let mut root = CommandSpec::new("app");
        root.subcommand_required = true;
        let mut task = CommandSpec::new("task");
        task.subcommand_required = true;
        task.about = Some("Work with tasks".into());
        task.subcommands.push(CommandSpec::new("add"));
        let mut list = CommandSpec::new("list");
        list.aliases = vec!["ls".into()];
        task.subcommands.push(list);
        root.subcommands.push(task);
        root.subcommands.push(CommandSpec::new("stats"));
        root
    }

    fn surface(root: CommandSpec, mode: ToolMode) -> Result<Option<Surface>, String> {
        Surface::new(
            crate::registry::Registry::<()>::from_spec(root)
                .unwrap()
                .table(),
            &mode,
        )
    }

    fn names(surface: &Surface) -> Vec<String> {
        let mut names: Vec<(usize, String)> = surface
            .by_name
            .iter()
            .map(|(n, &at)| (at, n.clone()))
            .collect();
        names.sort();
        names.into_iter().map(|(_, name)| name).collect()
    }

    fn routed(surface: &Surface, tool: &str, arguments: Value) -> Result<usize, String> {
        let arguments = arguments.as_object().unwrap().clone();
        match surface.resolve(tool, &arguments, |_| None) {
            Some(Resolved::Tool { index, .. }) => Ok(index),
            Some(Resolved::Refused(message)) => Err(message),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn a_group_shows_the_icon_its_command_declares_or_inherits() {
        let icon_of = |root: CommandSpec, depth: usize| -> Vec<Option<String>> {
            let surface = surface(root, ToolMode::Grouped { depth }).unwrap().unwrap();
            surface
                .shown
                .iter()
                .map(|shown| match shown {
                    Shown::Group(group) => group.listed.icon.clone(),
                    _ => panic!("a group"),
                })
                .collect()
        };
        let task_icon = "https://example.com/task.png";
        let mut root = app();
        root.subcommands[1]
            .subcommands
            .push(CommandSpec::new("show"));
        root.subcommands[1]
            .subcommands
            .push(CommandSpec::new("reset"));
        root.subcommands[1].subcommand_required = true;
        root.subcommands[0].mcp.icon = Some(task_icon.into());
        assert_eq!(icon_of(root.clone(), 1), [Some(task_icon.into()), None]);
        root.mcp.icon = Some("https://example.com/app.png".into());
        assert_eq!(
            icon_of(root.clone(), 1),
            [
                Some(task_icon.into()),
                Some("https://example.com/app.png".into())
            ]
        );
        assert_eq!(
            icon_of(root, 0),
            [Some("https://example.com/app.png".into())]
        );
    }

    #[test]
    fn groups_by_depth() {
        assert!(surface(app(), ToolMode::Flat).unwrap().is_none());
        let top = surface(app(), ToolMode::Grouped { depth: 1 })
            .unwrap()
            .unwrap();
        assert_eq!(names(&top), ["app_task", "app_stats"]);
        let Shown::Group(group) = &top.shown[0] else {
            panic!("a group")
        };
        assert_eq!(
            group.listed.description,
            "app task: Work with tasks\nGive `command` (one below) and its `arguments`; \
             `help: true` returns the command's arguments. Commands:\n- add\n- list"
        );
        let whole = surface(app(), ToolMode::Grouped { depth: 0 })
            .unwrap()
            .unwrap();
        assert_eq!(names(&whole), ["app"]);
        let deep = surface(app(), ToolMode::Grouped { depth: 2 })
            .unwrap()
            .unwrap();
        assert_eq!(names(&deep), ["app_task_add", "app_task_list", "app_stats"]);
    }

    #[test]
    fn commands_are_found_as_clap_finds_them() {
        let whole = surface(app(), ToolMode::Grouped { depth: 0 })
            .unwrap()
            .unwrap();
        assert_eq!(routed(&whole, "app", json!({"command": "task add"})), Ok(0));
        assert_eq!(
            routed(&whole, "app", json!({"command": "app task ls"})),
            Ok(1)
        );
        assert_eq!(
            routed(&whole, "app", json!({"command": " task\tlist "})),
            Ok(1)
        );
        assert_eq!(routed(&whole, "app", json!({"command": "stats"})), Ok(2));
        let refused = routed(&whole, "app", json!({"command": "ls"})).unwrap_err();
        assert!(
            refused.contains("none of its commands: `task add`"),
            "{refused}"
        );
        let refused = routed(&whole, "app", json!({"command": 3})).unwrap_err();
        assert!(refused.ends_with("not `3`"), "{refused}");
        let refused = routed(&whole, "app", json!({"command": "stats", "help": "yes"}));
        assert!(refused
            .unwrap_err()
            .contains("`help` must be `true` or `false`"));
    }

    #[test]
    fn a_made_name_that_is_taken_is_refused() {
        let mut root = app();
        let mut clash = CommandSpec::new("other");
        clash.mcp.name = Some("app_task".into());
        root.subcommands.push(clash);
        let error = surface(root, ToolMode::Grouped { depth: 1 }).unwrap_err();
        assert!(error.contains("`app_task` is taken twice"), "{error}");
        let error = surface(
            app(),
            ToolMode::Search {
                pinned: vec!["x*".into()],
            },
        )
        .unwrap_err();
        assert_eq!(error, "--pin x*: no tool has a name that matches");
    }

    #[test]
    fn ranking_prefers_whole_words_and_all_terms() {
        let words = vec![
            "app_task_add app task add add a task".to_owned(),
            "app_task_list app task list list tasks".to_owned(),
            "app_stats app stats show statistics about tasks".to_owned(),
        ];
        assert_eq!(rank(&words, "add task", 5), [0, 1, 2]);
        assert_eq!(rank(&words, "statistics", 5), [2]);
        assert_eq!(rank(&words, "LIST", 1), [1]);
        assert!(rank(&words, "zebra", 5).is_empty());
        assert!(rank(&words, " ,", 5).is_empty());
    }
}
