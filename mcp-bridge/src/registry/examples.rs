//! Examples in doc comments: the command lines a CLI's author wrote under
//! a command's `Examples:` heading, read the way clap would read them and
//! turned into the arguments of the command's tool.
//!
//! ```text
//! /// Add a task.
//! ///
//! /// Examples:
//! ///   $ taskctl task add "Write the report" --priority 5 --tag work
//! ```
//!
//! The section: a line that is `Example:` or `Examples:` (any case; clap
//! joins the lines of a paragraph, so a command line may follow on the same
//! line) or a Markdown heading `# Example(s)`, up to the next Markdown
//! heading or the end of the help text. In it, every line starting with
//! `$ ` (after indentation, or after a code fence clap joined to it) is a
//! command line; several joined by clap (`$ a ... $ b ...`) are told apart
//! at ` $ ` outside quotes. Its words are split as a shell splits them
//! (`shell-words`), the first (the binary's name) dropped; the next must
//! name the tool's command path (names or aliases), with ancestors'
//! options between them, as clap takes them; the rest are the command's
//! options and positionals. A line for another command is left for that
//! command; a line that cannot be read is skipped, with a warning.
//!
//! Only commands whose help text contains `xample` (or `XAMPLE`) are
//! scanned: that substring check is all the others cost at start-up.

use serde_json::{Map, Value};

use crate::spec::{
    CommandSpec, DocExample, DocOutcome, ParamAction, ParamKind, ParamSpec, ToolSpec, ValueType,
};

use super::rules::offers;

/// One command on a tool's path, root first.
#[derive(Clone, Copy)]
pub(crate) struct Level<'a> {
    pub(crate) node: &'a CommandSpec,
    /// Route steps from the root: what its arguments are known by
    /// ([`crate::spec::Renamed`]'s depth).
    pub(crate) depth: u32,
}

/// Whether a help text may hold an example section: the one check every
/// command pays.
pub(crate) fn may_have_examples(help: &str) -> bool {
    help.contains("xample") || help.contains("XAMPLE")
}

/// The command lines of `help`'s example sections, each read for the tool
/// at the end of `levels`.
pub(crate) fn doc_examples(help: &str, levels: &[Level<'_>], tool: &ToolSpec) -> Vec<DocExample> {
    command_lines(help)
        .into_iter()
        .map(|line| match shell_words::split(&line) {
            Ok(words) => {
                let outcome = convert(&words, levels, tool);
                DocExample {
                    line,
                    words,
                    outcome,
                }
            }
            Err(error) => DocExample {
                line,
                words: Vec::new(),
                outcome: DocOutcome::Skipped(format!("its words cannot be split: {error}")),
            },
        })
        .collect()
}

/// What a line of a help text is.
enum Heading<'t> {
    /// An example heading, with the rest of its line.
    Examples(&'t str),
    /// Another Markdown heading: the section ends.
    Other,
    /// Not a heading.
    None,
}

fn is_example_word(word: &str) -> bool {
    word.eq_ignore_ascii_case("example") || word.eq_ignore_ascii_case("examples")
}

fn heading(line: &str) -> Heading<'_> {
    // `# Examples`, `## Example`: Markdown, at the start of a line (an
    // indented `# ...` is a shell comment among the examples).
    let marks = line.bytes().take_while(|byte| *byte == b'#').count();
    if (1..=6).contains(&marks) && line[marks..].starts_with(' ') {
        let title = line[marks..].trim_start();
        let (first, rest) = title.split_once(char::is_whitespace).unwrap_or((title, ""));
        return if is_example_word(first.trim_end_matches(':')) {
            Heading::Examples(rest.trim_start())
        } else {
            Heading::Other
        };
    }
    let trimmed = line.trim_start();
    match trimmed.split_once(':') {
        Some((word, rest)) if is_example_word(word) => Heading::Examples(rest.trim_start()),
        _ => Heading::None,
    }
}

/// The command lines (after `$ `) of the example sections of `help`.
pub(crate) fn command_lines(help: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_section = false;
    for raw in help.lines() {
        let text = match heading(raw) {
            Heading::Examples(rest) => {
                in_section = true;
                rest
            }
            Heading::Other => {
                in_section = false;
                continue;
            }
            Heading::None if in_section => raw.trim(),
            Heading::None => continue,
        };
        let text = without_fences(text);
        if let Some(commands) = text.strip_prefix("$ ") {
            lines.extend(split_joined(commands));
        }
    }
    lines
}

/// A line without the code fences clap may have joined to it
/// (```` ```console $ app run ``` ````).
fn without_fences(text: &str) -> &str {
    let mut text = text;
    if text.starts_with("```") {
        text = text
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest)
            .trim_start();
    }
    text.strip_suffix("```").unwrap_or(text).trim_end()
}

/// The command lines clap joined into one (`a ... $ b ...`), apart: at
/// each ` $ ` that is not inside quotes, which is where the words of what
/// comes before can be split.
fn split_joined(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for (at, piece) in text.split(" $ ").enumerate() {
        if at > 0 && !current.is_empty() {
            current.push_str(" $ ");
        }
        current.push_str(piece);
        if shell_words::split(&current).is_ok() {
            lines.push(std::mem::take(&mut current));
        }
    }
    // Quotes that never close: the line is skipped with its error.
    lines.push(current);
    lines.retain(|line| !line.trim().is_empty());
    lines
        .iter_mut()
        .for_each(|line| *line = line.trim().to_owned());
    lines
}

/// Why a line gives no arguments.
enum Stop {
    /// It runs another command.
    Elsewhere(String),
    /// It cannot be read for this tool.
    Refused(String),
}

fn refused(why: String) -> Stop {
    Stop::Refused(why)
}

/// Turns a command line's words into the arguments of the tool at the end
/// of `levels`.
fn convert(words: &[String], levels: &[Level<'_>], tool: &ToolSpec) -> DocOutcome {
    let mut reading = Reading {
        levels,
        tool,
        at: 0,
        args: Map::new(),
        positionals: Vec::new(),
    };
    match reading.read(words.get(1..).unwrap_or_default()) {
        Ok(()) => DocOutcome::Converted(reading.args),
        Err(Stop::Elsewhere(why)) => DocOutcome::OtherCommand(why),
        Err(Stop::Refused(why)) => DocOutcome::Skipped(why),
    }
}

/// A command line being read, level by level as clap reads it.
struct Reading<'t, 'a> {
    levels: &'t [Level<'a>],
    tool: &'t ToolSpec,
    /// The level whose options are read now.
    at: usize,
    args: Map<String, Value>,
    /// The tool's positional words, in order.
    positionals: Vec<String>,
}

fn names(node: &CommandSpec, word: &str) -> bool {
    node.name == word || node.aliases.iter().any(|alias| alias == word)
}

/// A word clap reads as an option (or `--`), not as a value.
fn looks_like_option(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-')
}

impl<'t> Reading<'t, '_> {
    fn last(&self) -> usize {
        self.levels.len() - 1
    }

    /// The command path up to level `at`, as typed.
    fn path_to(&self, at: usize) -> String {
        self.levels[..=at]
            .iter()
            .map(|level| level.node.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn read(&mut self, words: &[String]) -> Result<(), Stop> {
        let mut next = 0;
        let mut only_positionals = false;
        while next < words.len() {
            let word = &words[next];
            next += 1;
            if !only_positionals {
                if word == "--" {
                    if self.at < self.last() {
                        return Err(refused(format!(
                            "`--` comes before the command `{}`",
                            self.tool.path.join(" ")
                        )));
                    }
                    only_positionals = true;
                    continue;
                }
                if let Some(long) = word.strip_prefix("--") {
                    next = self.long(long, words, next)?;
                    continue;
                }
                if looks_like_option(word) {
                    next = self.shorts(&word[1..], words, next)?;
                    continue;
                }
            }
            if self.at < self.last() {
                self.enter(word)?;
                continue;
            }
            if self.positionals.is_empty() && !only_positionals {
                let node = self.levels[self.at].node;
                if let Some(sub) = node.subcommands.iter().find(|sub| names(sub, word)) {
                    return Err(Stop::Elsewhere(format!(
                        "it runs `{} {}`",
                        self.path_to(self.at),
                        sub.name
                    )));
                }
            }
            self.positionals.push(word.clone());
        }
        if self.at < self.last() {
            return Err(Stop::Elsewhere(format!(
                "it runs `{}`",
                self.path_to(self.at)
            )));
        }
        self.assign_positionals()
    }

    /// A word where the next command of the path is due.
    fn enter(&mut self, word: &str) -> Result<(), Stop> {
        if names(self.levels[self.at + 1].node, word) {
            self.at += 1;
            return Ok(());
        }
        let here = self.levels[self.at].node;
        if let Some(other) = here.subcommands.iter().find(|sub| names(sub, word)) {
            return Err(Stop::Elsewhere(format!(
                "it runs `{} {}`",
                self.path_to(self.at),
                other.name
            )));
        }
        if word == "help" {
            return Err(Stop::Elsewhere("it asks for help".to_owned()));
        }
        Err(refused(format!(
            "`{word}` is no subcommand of `{}` (the tool runs `{}`)",
            self.path_to(self.at),
            self.tool.path.join(" ")
        )))
    }

    /// The option an option word names at the current level: the level's
    /// own, or a global of an ancestor (nearest first), with its level's
    /// depth.
    /// `matches` is false for positionals.
    fn find(&self, matches: impl Fn(&ParamSpec) -> bool) -> Option<(&'t ParamSpec, u32)> {
        let here = self.levels[self.at];
        here.node
            .params
            .iter()
            .find(|param| matches(param))
            .map(|param| (param, here.depth))
            .or_else(|| {
                self.levels[..self.at].iter().rev().find_map(|level| {
                    level
                        .node
                        .params
                        .iter()
                        .find(|param| param.global && matches(param))
                        .map(|param| (param, level.depth))
                })
            })
    }

    /// The tool's property for `param` of the level at `depth`.
    fn property(&self, param: &ParamSpec, depth: u32, shown: &str) -> Result<&'t ParamSpec, Stop> {
        if !offers(param.hidden) {
            return Err(refused(format!("`{shown}` is hidden from the tool")));
        }
        let name = self
            .tool
            .renamed
            .iter()
            .find(|renamed| renamed.depth == depth && renamed.from == param.name)
            .map_or(param.name.as_str(), |renamed| renamed.to.as_str());
        let tool = self.tool;
        tool.params
            .iter()
            .find(|offered| offered.name == name && offered.id == param.id)
            .ok_or_else(|| {
                refused(if tool.pinned.iter().any(|pinned| pinned.name == name) {
                    format!("`{shown}` is fixed for every call of the tool")
                } else {
                    format!("the tool does not offer `{shown}`")
                })
            })
    }

    /// The tool's property for the option the word `shown` names (the
    /// first `matches` finds, here or in an ancestor), or why there is none.
    fn option(
        &self,
        shown: &str,
        matches: impl Fn(&ParamSpec) -> bool,
    ) -> Result<&'t ParamSpec, Stop> {
        let (param, depth) = self.find(matches).ok_or_else(|| {
            refused(format!(
                "`{shown}` is no option of `{}`",
                self.path_to(self.at)
            ))
        })?;
        self.property(param, depth, shown)
    }

    /// `--name`, `--name=value`, `--name value...`; the index of the next
    /// word to read.
    fn long(&mut self, body: &str, words: &[String], next: usize) -> Result<usize, Stop> {
        let (name, attached) = match body.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (body, None),
        };
        let shown = format!("--{name}");
        let property = self.option(&shown, |param| match &param.kind {
            ParamKind::Flag { long, .. } => {
                long.as_deref() == Some(name) || param.aliases.iter().any(|a| a == name)
            }
            ParamKind::Positional => false,
        })?;
        if property.action.is_flag() {
            if attached.is_some() {
                return Err(refused(format!("`{shown}` takes no value")));
            }
            self.flag(property, &shown)?;
            return Ok(next);
        }
        self.values(property, &shown, attached, words, next)
    }

    /// `-v`, `-vv`, `-abc`, `-p5`, `-p=5`, `-p 5`.
    fn shorts(&mut self, body: &str, words: &[String], next: usize) -> Result<usize, Stop> {
        for (at, short) in body.char_indices() {
            let shown = format!("-{short}");
            let property = self.option(&shown, |param| match &param.kind {
                ParamKind::Flag { short: own, .. } => {
                    *own == Some(short) || param.short_aliases.contains(&short)
                }
                ParamKind::Positional => false,
            })?;
            if property.action.is_flag() {
                self.flag(property, &shown)?;
                continue;
            }
            // The rest of the word is the value, as clap reads it.
            let rest = &body[at + short.len_utf8()..];
            let attached = match rest.strip_prefix('=') {
                Some(value) => Some(value),
                None => (!rest.is_empty()).then_some(rest),
            };
            return self.values(property, &shown, attached, words, next);
        }
        Ok(next)
    }

    /// A flag given: `true` (for `SetFalse` too: the property says whether
    /// the flag is given), or one more of a count.
    fn flag(&mut self, property: &ParamSpec, shown: &str) -> Result<(), Stop> {
        let name = property.name.clone();
        if property.action == ParamAction::Count {
            let count = self.args.get(&name).and_then(Value::as_u64).unwrap_or(0);
            self.args.insert(name, Value::from(count + 1));
            return Ok(());
        }
        if self.args.insert(name, Value::Bool(true)).is_some() {
            return Err(twice(shown));
        }
        Ok(())
    }

    /// An option's values: the attached one, or the words after it that
    /// are not options, as many as one use takes.
    fn values(
        &mut self,
        property: &ParamSpec,
        shown: &str,
        attached: Option<&str>,
        words: &[String],
        mut next: usize,
    ) -> Result<usize, Stop> {
        let (min, max) = match property.arity {
            Some(arity) => (arity.min as usize, arity.max.map(|max| max as usize)),
            None if property.nullable => (0, Some(1)),
            None => (1, Some(1)),
        };
        let mut texts = Vec::new();
        match attached {
            Some(value) => texts.push(value),
            None => {
                while max.is_none_or(|max| texts.len() < max)
                    && next < words.len()
                    && !looks_like_option(&words[next])
                {
                    texts.push(words[next].as_str());
                    next += 1;
                }
            }
        }
        if texts.len() < min {
            return Err(refused(match min {
                1 => format!("`{shown}` needs a value"),
                _ => format!("`{shown}` needs {min} values"),
            }));
        }
        self.set(property, shown, &texts)?;
        Ok(next)
    }

    /// Gives `property` the values `texts`, each typed as the property's
    /// schema says (split at its delimiter first).
    fn set(&mut self, property: &ParamSpec, shown: &str, texts: &[&str]) -> Result<(), Stop> {
        let pieces: Vec<&str> = match property.delimiter {
            Some(delimiter) if property.multiple || is_map(property) => texts
                .iter()
                .flat_map(|text| text.split(delimiter))
                .collect(),
            _ => texts.to_vec(),
        };
        let name = property.name.clone();
        let bad = |why: String| refused(format!("`{shown}`: {why}"));
        if let ValueType::Map { values } = &property.value_type {
            let entry = self
                .args
                .entry(name)
                .or_insert_with(|| Value::Object(Map::new()));
            for piece in pieces {
                let (key, value) = piece
                    .split_once('=')
                    .ok_or_else(|| bad(format!("`{piece}` is no key=value pair")))?;
                let value = typed(values, value).map_err(bad)?;
                if let Value::Object(object) = entry {
                    object.insert(key.to_owned(), value);
                }
            }
            return Ok(());
        }
        let mut items = pieces
            .iter()
            .map(|piece| typed(&property.value_type, piece))
            .collect::<Result<Vec<_>, _>>()
            .map_err(bad)?;
        if property.multiple {
            match self.args.get_mut(&name) {
                Some(Value::Array(given)) if property.action == ParamAction::Append => {
                    given.extend(items);
                }
                Some(_) => return Err(twice(shown)),
                None => {
                    self.args.insert(name, Value::Array(items));
                }
            }
            return Ok(());
        }
        let value = match items.len() {
            0 => Value::Null,
            1 => items.remove(0),
            _ => return Err(refused(format!("`{shown}` takes one value"))),
        };
        if self.args.insert(name, value).is_some() {
            return Err(twice(shown));
        }
        Ok(())
    }

    /// The positional words, to the tool's positional arguments in order:
    /// a list takes what the single ones after it leave.
    fn assign_positionals(&mut self) -> Result<(), Stop> {
        let level = self.levels[self.last()];
        let slots: Vec<&ParamSpec> = level
            .node
            .params
            .iter()
            .filter(|param| param.kind == ParamKind::Positional)
            .collect();
        let words = std::mem::take(&mut self.positionals);
        let mut rest = &words[..];
        for (at, slot) in slots.iter().enumerate() {
            if rest.is_empty() {
                break;
            }
            let takes = if slot.multiple {
                let singles_after = slots[at + 1..].iter().filter(|p| !p.multiple).count();
                let fits = rest.len().saturating_sub(singles_after);
                match slot.arity.and_then(|arity| arity.max) {
                    Some(max) => fits.min(max as usize),
                    None => fits,
                }
            } else {
                1
            };
            if takes == 0 {
                continue;
            }
            let shown = format!("<{}>", slot.id.to_uppercase());
            let property = self.property(slot, level.depth, &shown)?;
            let texts: Vec<&str> = rest[..takes].iter().map(String::as_str).collect();
            self.set(property, &shown, &texts)?;
            rest = &rest[takes..];
        }
        match rest.first() {
            Some(extra) => Err(refused(format!(
                "`{extra}` is one argument too many for `{}`",
                self.tool.path.join(" ")
            ))),
            None => Ok(()),
        }
    }
}

fn is_map(param: &ParamSpec) -> bool {
    matches!(param.value_type, ValueType::Map { .. })
}

fn twice(shown: &str) -> Stop {
    refused(format!("`{shown}` is given twice"))
}

/// One value's text as the JSON the property's schema asks for: numbers
/// and booleans typed, the rest strings (the tool's build checks them).
fn typed(value_type: &ValueType, text: &str) -> Result<Value, String> {
    value_type.read_text(text).ok_or_else(|| match value_type {
        ValueType::Integer { .. } => format!("`{text}` is no integer"),
        ValueType::Number => format!("`{text}` is no number"),
        ValueType::Boolean => format!("`{text}` is neither true nor false"),
        // Only JSON text is refused among the rest: say where it breaks.
        _ => match serde_json::from_str::<Value>(text) {
            Err(error) => format!("`{text}` is no JSON: {error}"),
            Ok(_) => format!("`{text}` is no JSON"),
        },
    })
}

/// The warning a skipped doc-comment example of `tool` deserves, if it was
/// skipped.
pub(crate) fn warning(tool: &ToolSpec, example: &DocExample) -> Option<String> {
    match &example.outcome {
        DocOutcome::Skipped(why) => Some(format!(
            "tool `{}`: the doc-comment example `$ {}` is skipped: {why}",
            tool.name, example.line
        )),
        _ => None,
    }
}

/// Logs what became of the tools' doc-comment examples: a warning for
/// each line skipped, a debug line for each left to another command.
pub(crate) fn log<'s>(tools: impl Iterator<Item = &'s ToolSpec>) {
    for tool in tools {
        for example in &tool.doc_examples {
            if let Some(warning) = warning(tool, example) {
                tracing::warn!("{warning}");
            } else if let DocOutcome::OtherCommand(why) = &example.outcome {
                tracing::debug!(
                    tool = %tool.name,
                    "the doc-comment example `$ {}` is not for this tool: {why}",
                    example.line
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::registry::Registry;
    use crate::spec::Arity;

    #[test]
    fn the_section_is_found_in_every_form_clap_leaves_it() {
        // Verbatim: one command a line, comments and indentation kept.
        let verbatim = "Add a task.\n\nExamples:\n  $ app add \"Write it\" -p 5\n  # a comment\n  $ app add x\n\nMore text.\n$ app not-in-a-section";
        assert_eq!(
            command_lines(verbatim),
            [
                "app add \"Write it\" -p 5",
                "app add x",
                "app not-in-a-section"
            ],
            "the section runs to the next heading: a later `$ ` line is in it"
        );
        // clap's default: a paragraph's lines joined with spaces.
        let joined = "Add a task.\n\nExamples: $ app add 'a $ b' -p 5 $ app add x";
        assert_eq!(
            command_lines(joined),
            ["app add 'a $ b' -p 5", "app add x"],
            "` $ ` inside quotes is no new command"
        );
        let heading_alone = "Add.\n\nEXAMPLE:\n\n$ app add x";
        assert_eq!(command_lines(heading_alone), ["app add x"]);
        // Markdown: a heading, fences, and another heading ending it.
        let markdown =
            "Add.\n\n# Examples\n\n```console\n$ app add x\n```\n\n# Notes\n\n$ app add y";
        assert_eq!(command_lines(markdown), ["app add x"]);
        let fenced_and_joined = "Add.\n\n## Example\n\n```sh $ app add x ```";
        assert_eq!(command_lines(fenced_and_joined), ["app add x"]);
        // No heading: nothing, even with `$ ` lines or the word.
        assert!(command_lines("For example: run it.\n$ app add x").is_empty());
        assert!(command_lines("Add.\n\nExamples:\nnone yet").is_empty());
        // A quote that never closes is kept, to be skipped with its error.
        assert_eq!(command_lines("Examples: $ app add 'x"), ["app add 'x"]);
    }

    #[test]
    fn only_a_help_text_naming_examples_is_scanned() {
        assert!(may_have_examples("Examples:\n$ app"));
        assert!(may_have_examples("# Example"));
        assert!(may_have_examples("EXAMPLES:"));
        assert!(!may_have_examples("Add a task.\n\nThe task gets an id."));
    }

    fn flag(id: &str, long: &str, short: Option<char>, value_type: ValueType) -> ParamSpec {
        ParamSpec::flag(id, Some(long), short, value_type)
    }

    /// `app [-C CONFIG] [-v...] task|t add|new ...`, with a doc comment of
    /// examples on `add`.
    fn app(help: &str) -> CommandSpec {
        let mut root = CommandSpec::new("app");
        root.subcommand_required = true;
        root.params
            .push(flag("config", "config", Some('C'), ValueType::string()));
        root.params.push(
            flag("verbose", "verbose", Some('v'), ValueType::integer(0, 255))
                .action(ParamAction::Count)
                .global(true),
        );
        let mut task = CommandSpec::new("task");
        task.aliases = vec!["t".into()];
        task.subcommand_required = true;
        task.route_step(0);
        let mut add = CommandSpec::new("add");
        add.aliases = vec!["new".into()];
        add.route_step(0);
        add.long_about = Some(help.to_owned());
        let mut tag = flag("tag", "tag", Some('t'), ValueType::string())
            .action(ParamAction::Append)
            .multiple(None)
            .arity(Arity {
                min: 1,
                max: Some(1),
                repeatable: true,
            });
        tag.short_aliases = vec!['T'];
        let mut label = flag("label", "label", None, ValueType::string())
            .action(ParamAction::Append)
            .multiple(None);
        label.delimiter = Some(',');
        let mut priority = flag("priority", "priority", Some('p'), ValueType::integer(1, 5));
        priority.aliases = vec!["prio".into()];
        add.params = vec![
            ParamSpec::positional("title", ValueType::string()).required(true),
            ParamSpec::positional("notes", ValueType::string()).multiple(None),
            priority,
            tag,
            label,
            flag("dry_run", "dry-run", Some('n'), ValueType::Boolean).action(ParamAction::SetTrue),
            flag("keep", "keep", Some('k'), ValueType::Boolean).action(ParamAction::SetFalse),
            flag("ratio", "ratio", None, ValueType::Number),
            flag(
                "define",
                "define",
                Some('D'),
                ValueType::Map {
                    values: Box::new(ValueType::integer(0, 99)),
                },
            )
            .action(ParamAction::Append),
            flag("color", "color", None, ValueType::string()).nullable(true),
            flag("config", "config", None, ValueType::string()),
            flag("secret", "secret", None, ValueType::string()).hidden(true),
        ];
        let mut list = CommandSpec::new("list");
        list.route_step(1);
        task.subcommands = vec![add, list];
        root.subcommands.push(task);
        root
    }

    /// What became of each line of `add`'s doc comment.
    fn outcomes(lines: &[&str]) -> Vec<DocOutcome> {
        let help = format!("Add a task.\n\nExamples:\n  $ {}", lines.join("\n  $ "));
        let registry = Registry::<()>::from_spec(app(&help)).unwrap();
        let tool = registry.tool("app_task_add").unwrap();
        assert_eq!(tool.doc_examples.len(), lines.len());
        tool.doc_examples
            .iter()
            .map(|e| e.outcome.clone())
            .collect()
    }

    fn converted(line: &str) -> Value {
        match outcomes(&[line]).remove(0) {
            DocOutcome::Converted(arguments) => Value::Object(arguments),
            other => panic!("`{line}`: {other:?}"),
        }
    }

    fn skipped(line: &str) -> String {
        match outcomes(&[line]).remove(0) {
            DocOutcome::Skipped(why) => why,
            other => panic!("`{line}` should be skipped: {other:?}"),
        }
    }

    #[test]
    fn options_are_read_as_clap_reads_them() {
        assert_eq!(
            converted(r#"app task add "Write the report" --priority 5 --tag work"#),
            json!({ "title": "Write the report", "priority": 5, "tag": ["work"] })
        );
        // `--long=value`, `-sVALUE`, `-s=VALUE`, a long alias, a short alias.
        assert_eq!(
            converted("app task add x --priority=4 -twork -T=home --tag=a=b"),
            json!({ "title": "x", "priority": 4, "tag": ["work", "home", "a=b"] })
        );
        assert_eq!(converted("app task add x --prio 2")["priority"], 2);
        // Clustered flags, the last taking the rest of the word.
        assert_eq!(
            converted("app task add x -nkp3"),
            json!({ "title": "x", "dry-run": true, "keep": true, "priority": 3 })
        );
        // Delimited values, numbers, key=value pairs, an optional value.
        assert_eq!(
            converted(
                "app task add x --label a,b --label c --ratio 0.5 -D n=1 --define m=2 --color"
            ),
            json!({
                "title": "x", "label": ["a", "b", "c"], "ratio": 0.5,
                "define": { "n": 1, "m": 2 }, "color": null,
            })
        );
        assert_eq!(
            converted("app task add x --color always")["color"],
            "always"
        );
    }

    #[test]
    fn positionals_dashes_and_quotes() {
        // `--` ends the options; a list takes what the singles leave.
        assert_eq!(
            converted(r#"app task add -- -x "one two" 'it'\''s'"#),
            json!({ "title": "-x", "notes": ["one two", "it's"] })
        );
        assert_eq!(
            converted(r"app task add a\ b -p 1 c # and a comment"),
            json!({ "title": "a b", "priority": 1, "notes": ["c"] })
        );
        assert_eq!(converted("app task add -")["title"], "-");
    }

    #[test]
    fn the_path_and_the_ancestors_options() {
        // Aliases name the path; a root option before its subcommand, a
        // global after it (counted across levels); the root's `--config`
        // is offered as `app-config` beside `add`'s own.
        assert_eq!(
            converted("app -v --config a.toml t new x -vv --config b.toml"),
            json!({ "title": "x", "verbose": 3, "app-config": "a.toml", "config": "b.toml" })
        );
    }

    #[test]
    fn a_line_for_another_command_is_left_to_it() {
        let outcomes = outcomes(&["app task list", "app t", "app help task"]);
        let why: Vec<&str> = outcomes
            .iter()
            .map(|outcome| match outcome {
                DocOutcome::OtherCommand(why) => why.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            why,
            [
                "it runs `app task list`",
                "it runs `app task`",
                "it asks for help"
            ]
        );
    }

    #[test]
    fn a_line_that_cannot_be_read_is_skipped_with_why() {
        assert_eq!(
            skipped("app task add x -C c.toml"),
            "`-C` is no option of `app task add`"
        );
        assert_eq!(
            skipped("app task add x --nope"),
            "`--nope` is no option of `app task add`"
        );
        assert_eq!(
            skipped("app task add x --priority"),
            "`--priority` needs a value"
        );
        assert_eq!(
            skipped("app task add x --priority -1"),
            "`--priority` needs a value",
            "clap reads `-1` as an option"
        );
        assert_eq!(
            skipped("app task add x --priority high"),
            "`--priority`: `high` is no integer"
        );
        assert_eq!(
            skipped("app task add x --dry-run=yes"),
            "`--dry-run` takes no value"
        );
        assert_eq!(skipped("app task add x -n -n"), "`-n` is given twice");
        assert_eq!(skipped("app task add x -p 1 -p 2"), "`-p` is given twice");
        assert_eq!(
            skipped("app task add x --secret s"),
            "`--secret` is hidden from the tool"
        );
        assert_eq!(
            skipped("app task add x -D n"),
            "`-D`: `n` is no key=value pair"
        );
        assert_eq!(
            skipped("app tsk add x"),
            "`tsk` is no subcommand of `app` (the tool runs `app task add`)"
        );
        assert_eq!(
            skipped("app task -- add x"),
            "`--` comes before the command `app task add`"
        );
        assert!(skipped("app task add 'x").starts_with("its words cannot be split"));
    }

    #[test]
    fn a_skipped_line_is_a_warning_naming_the_tool_and_the_line() {
        let help =
            "Add.\n\nExamples:\n  $ app task add x --nope\n  $ app task list\n  $ app task add x";
        let registry = Registry::<()>::from_spec(app(help)).unwrap();
        let tool = registry.tool("app_task_add").unwrap();
        let warnings: Vec<String> = tool
            .doc_examples
            .iter()
            .filter_map(|example| warning(tool, example))
            .collect();
        assert_eq!(
            warnings,
            [
                "tool `app_task_add`: the doc-comment example `$ app task add x --nope` is \
              skipped: `--nope` is no option of `app task add`"
            ]
        );
        let logged = logged(|| log(registry.tools()));
        let warned = logged
            .lines()
            .find(|line| line.contains(" WARN "))
            .unwrap_or_default();
        assert!(warned.ends_with(&warnings[0]), "{logged}");
        assert!(
            logged.contains("DEBUG") && logged.contains("it runs `app task list`"),
            "{logged}"
        );
        // Without the type, nothing is built: no example yet.
        assert!(tool.examples.is_empty());
    }

    /// What `f` logs, at every level.
    fn logged(f: impl FnOnce()) -> String {
        use std::sync::{Arc, Mutex};
        #[derive(Clone, Default)]
        struct Buffer(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Buffer {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buffer = Buffer::default();
        let writer = buffer.clone();
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::Layer;
        let subscriber = tracing_subscriber::registry().with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(move || writer.clone())
                .with_filter(tracing_subscriber::filter::LevelFilter::DEBUG),
        );
        tracing::subscriber::with_default(subscriber, f);
        let bytes = buffer.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }
}
