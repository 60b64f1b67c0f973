//! The `awkward` example CLI: a small text toolkit whose clap types go
//! through the corners of clap's derive that real CLIs run into, so the
//! tests can hold mcp-bridge to clap on each of them.
//!
//! | corner | where |
//! | --- | --- |
//! | `rename_all` on a command | [`Cli`] (`camelCase`: `--tabWidth`) |
//! | `rename_all` on a subcommand enum | [`Command`] (`snake_case`: `count_text`, `wrap --break_long_words`), [`CaseCommand`] (`SCREAMING_SNAKE_CASE`: `UPPER --ASCII_ONLY`) |
//! | raw identifier | [`OutputOpts::type`] (`--type`) |
//! | `id = ...` | `pick_fields --fields` (id `field_list`), `wrap --width` (id `width`) |
//! | `value_name` | most options |
//! | arg `alias` / `visible_alias` | `--sep` for `say --separator`, `--format` for `--type` |
//! | subcommand `alias` / `visible_alias` | `cut`, `shift`, `case`; `wc`, `echo` |
//! | `#[command(flatten)]` twice | [`Cli`] flattens [`OutputOpts`] and [`Verbosity`]; [`InputOpts`] is flattened into three commands' arguments |
//! | `Option<Option<T>>` with `default_missing_value` | `wrap --indent[=N]` |
//! | `num_args = 0..=1` + `default_missing_value` | `--color[=WHEN]` |
//! | `env = "..."` | `--tabWidth` (`AWKWARD_TAB_WIDTH`) |
//! | `ignore_case` value enums, value aliases | `--type`, `--color`, `count_text --units` |
//! | negative numbers as values | `shift_numbers` (`allow_negative_numbers`), `pick_fields --fields -1` (`allow_hyphen_values`) |
//! | `trailing_var_arg` | `say WORDS...` |
//! | `last = true` | `wrap [FILES]... -- [TEXT]...` |
//! | `default_values_t`, `value_delimiter` | `count_text --units` |
//! | counted flag, `conflicts_with` | `-v`/`-vv` and `--quiet` |
//! | `ArgAction::SetFalse` | `count_text --keep-blank` |
//! | short-only flag | `say -n` (property `no_newline`) |
//!
//! ```text
//! awkward wc notes.txt --units lines,words
//! awkward cut --fields 1,-1 -d , data.csv
//! awkward shift -3 prices.txt
//! awkward say --sep=- -- -v is not a flag here
//! awkward wrap --width 30 --indent -- some long text to wrap
//! awkward case UPPER hello world
//! ```

use std::fmt;
use std::fs;
use std::io::{self, IsTerminal as _};
use std::path::{Path, PathBuf};

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::{Io, McpTool};

/// Small text tools: count, pick fields, shift numbers, say, wrap and
/// change case.
///
/// Every command reads the files it is given (or the words on its command
/// line) and prints the result, as plain text or as JSON.
#[derive(Parser, McpTool, Debug, Clone, PartialEq)]
#[command(name = "awkward", version, rename_all = "camelCase")]
pub struct Cli {
    /// Columns between tab stops; tabs are expanded before text is measured
    /// or wrapped
    #[arg(
        long,
        global = true,
        env = "AWKWARD_TAB_WIDTH",
        default_value_t = 8,
        value_parser = clap::value_parser!(u8).range(1..=16),
        value_name = "COLUMNS"
    )]
    pub tab_width: u8,

    #[command(flatten)]
    pub output: OutputOpts,

    #[command(flatten)]
    pub verbosity: Verbosity,

    #[command(subcommand)]
    pub command: Command,
}

/// How results are printed.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct OutputOpts {
    /// How to print results
    #[arg(
        short = 'T',
        long,
        global = true,
        value_enum,
        ignore_case = true,
        default_value_t = Format::Plain,
        visible_alias = "format",
        value_name = "FORMAT"
    )]
    pub r#type: Format,

    /// When to colour numbers (`--color` alone means always)
    #[arg(
        long,
        global = true,
        value_enum,
        ignore_case = true,
        num_args = 0..=1,
        require_equals = true,
        default_value_t = ColorWhen::Auto,
        default_missing_value = "always",
        value_name = "WHEN"
    )]
    pub color: ColorWhen,
}

/// How much is said besides the results.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct Verbosity {
    /// Say what is being done (repeat for more)
    #[arg(short, long, global = true, action = ArgAction::Count)]
    pub verbose: u8,

    /// Print the results only, no notes
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
}

/// The files a command reads.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct InputOpts {
    /// Files to read
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Go on with the next file when one cannot be read
    #[arg(short, long)]
    pub keep_going: bool,
}

/// Arguments of `count_text`.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputOpts,

    /// What to count, comma-separated
    #[arg(
        short,
        long,
        value_enum,
        ignore_case = true,
        value_delimiter = ',',
        default_values_t = [Unit::Lines, Unit::Words, Unit::Bytes],
        value_name = "UNIT"
    )]
    pub units: Vec<Unit>,

    /// Count blank lines too (they are skipped by default)
    #[arg(long = "keep-blank", action = ArgAction::SetFalse)]
    pub skip_blank: bool,
}

/// Arguments of `pick_fields`.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct PickArgs {
    /// Fields to print, 1-based and comma-separated; negative numbers count
    /// from the end (-1 is the last field)
    #[arg(
        short,
        long = "fields",
        id = "field_list",
        required = true,
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = clap::value_parser!(i32).range(-99..=99),
        value_name = "N"
    )]
    pub list: Vec<i32>,

    /// The character fields are separated by
    #[arg(short, long, default_value_t = '\t', value_name = "CHAR")]
    pub delimiter: char,

    /// What to put between printed fields (the delimiter by default)
    #[arg(long, value_name = "TEXT")]
    pub output_delimiter: Option<String>,

    #[command(flatten)]
    pub input: InputOpts,
}

/// Arguments of `shift_numbers`.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct ShiftArgs {
    /// The amount to add; may be negative (`shift -3 prices.txt`)
    #[arg(value_name = "AMOUNT")]
    pub by: i64,

    #[command(flatten)]
    pub input: InputOpts,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
#[command(rename_all = "snake_case")]
pub enum Command {
    /// Count lines, words, characters and bytes of files
    #[command(visible_alias = "wc")]
    CountText(CountArgs),

    /// Print selected fields of each line
    #[command(alias = "cut")]
    PickFields(PickArgs),

    /// Add an amount to every whole number in the files
    #[command(alias = "shift", allow_negative_numbers = true)]
    ShiftNumbers(ShiftArgs),

    /// Print words joined by a separator
    #[command(visible_alias = "echo")]
    Say {
        /// What to put between words
        #[arg(
            short,
            long,
            default_value = " ",
            alias = "sep",
            allow_hyphen_values = true,
            value_name = "TEXT"
        )]
        separator: String,

        /// Leave out the final newline
        #[arg(short = 'n')]
        no_newline: bool,

        /// The words; from the first word on, everything is a word, even
        /// `--flags`
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "WORD"
        )]
        words: Vec<String>,
    },

    /// Wrap text to a width: the files' text, then the words after `--`
    Wrap {
        /// The widest a line may be, indent included
        #[arg(
            id = "width",
            short,
            long,
            default_value_t = 72,
            value_parser = clap::value_parser!(u16).range(8..=1000),
            value_name = "COLUMNS"
        )]
        max_width: u16,

        /// Indent every line by this many spaces (`--indent` alone: 4)
        #[arg(long, default_missing_value = "4", value_name = "SPACES")]
        indent: Option<Option<usize>>,

        /// Split words longer than a line instead of giving them a line of
        /// their own
        #[arg(long)]
        break_long_words: bool,

        /// Files whose text comes first
        #[arg(value_name = "FILE")]
        files: Vec<PathBuf>,

        /// Text to wrap, after `--`
        #[arg(last = true, value_name = "TEXT")]
        text: Vec<String>,
    },

    /// Change the case of words
    #[command(subcommand, alias = "case")]
    ChangeCase(CaseCommand),
}

/// The case to change words to.
#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
#[command(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum CaseCommand {
    /// ALL CAPITALS
    Upper {
        /// Change ASCII letters only, leave others as they are
        #[arg(long)]
        ascii_only: bool,
        /// The words
        #[arg(required = true)]
        words: Vec<String>,
    },
    /// all small letters
    Lower {
        /// Change ASCII letters only, leave others as they are
        #[arg(long)]
        ascii_only: bool,
        /// The words
        #[arg(required = true)]
        words: Vec<String>,
    },
    /// First Letter Of Every Word In Capitals
    TitleCase {
        /// The words
        #[arg(required = true)]
        words: Vec<String>,
    },
}

/// How results are printed.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Text for people
    #[value(alias = "text")]
    Plain,
    /// One JSON document
    Json,
}

/// When to colour numbers.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorWhen {
    /// When the output is a terminal (so never under MCP)
    Auto,
    /// Always, with ANSI escapes
    Always,
    /// Never
    Never,
}

/// What `count_text` counts.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Lines
    Lines,
    /// Runs of non-whitespace
    Words,
    /// Unicode scalar values
    #[value(alias = "characters")]
    Chars,
    /// Bytes (of the text with tabs expanded)
    Bytes,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Lines => "lines",
            Unit::Words => "words",
            Unit::Chars => "chars",
            Unit::Bytes => "bytes",
        }
    }
}

/// A command that could not do its job.
#[derive(Debug)]
pub enum AwkwardError {
    /// A file could not be read.
    Read(PathBuf, io::Error),
    /// The output could not be written.
    Write(io::Error),
    /// `--fields 0`: fields are numbered from 1.
    FieldZero,
    /// A shifted number does not fit in 64 bits.
    Overflow(String),
    /// Some files could not be read (with `--keep-going`).
    Unreadable(usize),
}

impl fmt::Display for AwkwardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AwkwardError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            AwkwardError::Write(e) => write!(f, "cannot write the output: {e}"),
            AwkwardError::FieldZero => {
                write!(f, "fields are numbered from 1 (or from -1 at the end)")
            }
            AwkwardError::Overflow(number) => write!(f, "{number} does not fit in 64 bits"),
            AwkwardError::Unreadable(n) => write!(f, "{n} file(s) could not be read"),
        }
    }
}

impl From<io::Error> for AwkwardError {
    fn from(e: io::Error) -> Self {
        AwkwardError::Write(e)
    }
}

/// Everything a command needs besides its own arguments.
struct Context<'a, 'io> {
    io: &'a mut Io<'io>,
    tab_width: usize,
    format: Format,
    color: bool,
    verbose: u8,
    quiet: bool,
    unreadable: usize,
}

impl Context<'_, '_> {
    /// The text of `path` (tabs expanded if `expand`); `None`, after a
    /// note, for an unreadable file under `--keep-going`.
    fn read(
        &mut self,
        path: &Path,
        keep_going: bool,
        expand: bool,
    ) -> Result<Option<String>, AwkwardError> {
        if self.verbose > 0 {
            writeln!(self.io.err(), "reading {}", path.display())?;
        }
        match fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                Ok(Some(if expand {
                    expand_tabs(&text, self.tab_width)
                } else {
                    text.into_owned()
                }))
            }
            Err(e) if keep_going => {
                if !self.quiet {
                    writeln!(self.io.err(), "skipping {}: {e}", path.display())?;
                }
                self.unreadable += 1;
                Ok(None)
            }
            Err(e) => Err(AwkwardError::Read(path.to_owned(), e)),
        }
    }

    fn number(&self, n: impl fmt::Display) -> String {
        if self.color {
            format!("\x1b[1;36m{n}\x1b[0m")
        } else {
            n.to_string()
        }
    }

    /// Prints result lines, as text or as a JSON array of strings.
    fn print_lines(&mut self, lines: &[String]) -> Result<(), AwkwardError> {
        match self.format {
            Format::Plain => {
                for line in lines {
                    writeln!(self.io.out(), "{line}")?;
                }
            }
            Format::Json => writeln!(self.io.out(), "{}", serde_json::json!(lines))?,
        }
        Ok(())
    }
}

/// Runs one parsed command; the same code serves the CLI and MCP.
pub fn run(cli: Cli, io: &mut Io<'_>) -> Result<(), AwkwardError> {
    let color = match cli.output.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => !io.is_mcp() && io::stdout().is_terminal(),
    };
    let mut cx = Context {
        io,
        tab_width: cli.tab_width.into(),
        format: cli.output.r#type,
        color,
        verbose: cli.verbosity.verbose,
        quiet: cli.verbosity.quiet,
        unreadable: 0,
    };
    match cli.command {
        Command::CountText(CountArgs {
            input,
            units,
            skip_blank,
        }) => count_text(&mut cx, &input, &units, skip_blank)?,
        Command::PickFields(PickArgs {
            list,
            delimiter,
            output_delimiter,
            input,
        }) => {
            let separator = output_delimiter.unwrap_or_else(|| delimiter.to_string());
            pick_fields(&mut cx, &input, &list, delimiter, &separator)?;
        }
        Command::ShiftNumbers(ShiftArgs { by, input }) => {
            let mut lines = Vec::new();
            for path in &input.files {
                if let Some(text) = cx.read(path, input.keep_going, false)? {
                    for line in text.lines() {
                        lines.push(shift_numbers(line, by)?);
                    }
                }
            }
            cx.print_lines(&lines)?;
        }
        Command::Say {
            separator,
            no_newline,
            words,
        } => {
            let text = words.join(&separator);
            match cx.format {
                Format::Plain if no_newline => write!(cx.io.out(), "{text}")?,
                Format::Plain => writeln!(cx.io.out(), "{text}")?,
                Format::Json => writeln!(cx.io.out(), "{}", serde_json::json!(text))?,
            }
        }
        Command::Wrap {
            max_width,
            indent,
            break_long_words,
            files,
            text,
        } => {
            let mut all = String::new();
            for path in &files {
                if let Some(content) = cx.read(path, false, true)? {
                    all.push_str(&content);
                    all.push(' ');
                }
            }
            all.push_str(&expand_tabs(&text.join(" "), cx.tab_width));
            let indent = indent.map(|n| n.unwrap_or(4)).unwrap_or(0);
            let lines = wrap(&all, usize::from(max_width), indent, break_long_words);
            cx.print_lines(&lines)?;
        }
        Command::ChangeCase(case) => {
            let line = match case {
                CaseCommand::Upper { ascii_only, words } => words
                    .iter()
                    .map(|w| {
                        if ascii_only {
                            w.to_ascii_uppercase()
                        } else {
                            w.to_uppercase()
                        }
                    })
                    .collect::<Vec<_>>(),
                CaseCommand::Lower { ascii_only, words } => words
                    .iter()
                    .map(|w| {
                        if ascii_only {
                            w.to_ascii_lowercase()
                        } else {
                            w.to_lowercase()
                        }
                    })
                    .collect(),
                CaseCommand::TitleCase { words } => words.iter().map(|w| title_case(w)).collect(),
            };
            cx.print_lines(&[line.join(" ")])?;
        }
    }
    if cx.unreadable > 0 {
        return Err(AwkwardError::Unreadable(cx.unreadable));
    }
    Ok(())
}

fn count_text(
    cx: &mut Context<'_, '_>,
    input: &InputOpts,
    units: &[Unit],
    skip_blank: bool,
) -> Result<(), AwkwardError> {
    let mut rows = Vec::new();
    for path in &input.files {
        let Some(text) = cx.read(path, input.keep_going, true)? else {
            continue;
        };
        let counts: Vec<(Unit, usize)> = units
            .iter()
            .map(|&unit| {
                let n = match unit {
                    Unit::Lines => text
                        .lines()
                        .filter(|l| !skip_blank || !l.trim().is_empty())
                        .count(),
                    Unit::Words => text.split_whitespace().count(),
                    Unit::Chars => text.chars().count(),
                    Unit::Bytes => text.len(),
                };
                (unit, n)
            })
            .collect();
        rows.push((path.display().to_string(), counts));
    }
    match cx.format {
        Format::Plain => {
            for (path, counts) in &rows {
                let numbers: Vec<String> = counts
                    .iter()
                    .map(|(unit, n)| format!("{} {}", cx.number(n), unit.name()))
                    .collect();
                writeln!(cx.io.out(), "{path}: {}", numbers.join(", "))?;
            }
        }
        Format::Json => {
            let files: serde_json::Map<String, serde_json::Value> = rows
                .into_iter()
                .map(|(path, counts)| {
                    let counts: serde_json::Map<String, serde_json::Value> = counts
                        .into_iter()
                        .map(|(unit, n)| (unit.name().to_owned(), n.into()))
                        .collect();
                    (path, counts.into())
                })
                .collect();
            writeln!(cx.io.out(), "{}", serde_json::Value::Object(files))?;
        }
    }
    Ok(())
}

fn pick_fields(
    cx: &mut Context<'_, '_>,
    input: &InputOpts,
    list: &[i32],
    delimiter: char,
    separator: &str,
) -> Result<(), AwkwardError> {
    if list.contains(&0) {
        return Err(AwkwardError::FieldZero);
    }
    let mut lines = Vec::new();
    for path in &input.files {
        let Some(text) = cx.read(path, input.keep_going, false)? else {
            continue;
        };
        for line in text.lines() {
            let fields: Vec<&str> = line.split(delimiter).collect();
            let picked: Vec<&str> = list
                .iter()
                .filter_map(|&n| {
                    let index = if n > 0 {
                        usize::try_from(n - 1).ok()
                    } else {
                        fields.len().checked_sub(n.unsigned_abs() as usize)
                    };
                    index.and_then(|i| fields.get(i).copied())
                })
                .collect();
            lines.push(picked.join(separator));
        }
    }
    cx.print_lines(&lines)
}

/// Adds `by` to every whole number of `line` (a run of digits, with its
/// minus sign when one is right before it).
pub fn shift_numbers(line: &str, by: i64) -> Result<String, AwkwardError> {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let negative = chars[i] == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if chars[i].is_ascii_digit() || negative {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            let shifted = number
                .parse::<i64>()
                .ok()
                .and_then(|n| n.checked_add(by))
                .ok_or(AwkwardError::Overflow(number))?;
            out.push_str(&shifted.to_string());
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// Replaces tabs by spaces up to the next multiple of `width` columns.
pub fn expand_tabs(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut column = 0;
    for c in text.chars() {
        match c {
            '\t' => {
                let spaces = width - column % width;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            '\n' => {
                out.push(c);
                column = 0;
            }
            _ => {
                out.push(c);
                column += 1;
            }
        }
    }
    out
}

/// Greedy wrap: words are kept whole unless `break_long` is set; a word
/// longer than a line then gets lines of its own, else one line.
pub fn wrap(text: &str, width: usize, indent: usize, break_long: bool) -> Vec<String> {
    let prefix = " ".repeat(indent);
    let room = width.saturating_sub(indent).max(1);
    let mut pieces: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let chars: Vec<char> = word.chars().collect();
        if break_long && chars.len() > room {
            pieces.extend(chars.chunks(room).map(|c| c.iter().collect::<String>()));
        } else {
            pieces.push(word.to_owned());
        }
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in &pieces {
        let len = word.chars().count();
        if used > 0 && used + 1 + len > room {
            lines.push(format!("{prefix}{line}"));
            line.clear();
            used = 0;
        }
        if used > 0 {
            line.push(' ');
            used += 1;
        }
        line.push_str(word);
        used += len;
    }
    if used > 0 {
        lines.push(format!("{prefix}{line}"));
    }
    lines
}

fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_numbers_with_their_sign() {
        assert_eq!(
            shift_numbers("a 1, b -2, c 10x", 5).unwrap(),
            "a 6, b 3, c 15x"
        );
        assert_eq!(shift_numbers("x-1", -1).unwrap(), "x-2");
        assert!(shift_numbers("9223372036854775807", 1).is_err());
    }

    #[test]
    fn expands_tabs_to_stops() {
        assert_eq!(expand_tabs("a\tb\n\tc", 4), "a   b\n    c");
    }

    #[test]
    fn wraps_greedily_with_indent() {
        assert_eq!(
            wrap("one two three four", 12, 2, false),
            vec!["  one two", "  three four"]
        );
        assert_eq!(wrap("", 10, 0, false), Vec::<String>::new());
        assert_eq!(
            wrap("abcdefgh ij", 3, 0, true),
            vec!["abc", "def", "gh", "ij"]
        );
        assert_eq!(wrap("abcdefgh ij", 3, 0, false), vec!["abcdefgh", "ij"]);
    }

    #[test]
    fn title_cases_words() {
        assert_eq!(title_case("hELLO"), "Hello");
    }
}
