//! The `taskctl` example CLI: its clap types (shared by the binary and the
//! tests) and what each command does.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::{McpTool, Output};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Keep a small task list in a JSON file.
///
/// Tasks have a title, a priority from 1 to 5, tags, an optional time
/// estimate and a status. Every command reads and writes the file given
/// with `--db`.
#[derive(Parser, McpTool, Debug, Clone, PartialEq)]
#[command(name = "taskctl", version)]
pub struct Cli {
    /// The task file (created when missing)
    #[arg(long, global = true, default_value = "tasks.json")]
    pub db: PathBuf,

    /// Print more details (repeat for even more)
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum Command {
    /// Add, list, finish and remove tasks
    #[command(subcommand)]
    Task(TaskCommand),

    /// Show counts of tasks by status
    // An assistant gets the counts as data: its calls always print JSON
    // (`--json` is fixed, and leaves the tool's schema), which the bridge
    // parses into the result's structured content.
    #[mcp(title = "Task counts", read_only, open_world = false)]
    #[mcp(args(json = true), output = "json")]
    Stats(StatsArgs),

    /// Delete every finished task for good
    #[command(hide = true)]
    Purge,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum TaskCommand {
    /// Add a task.
    ///
    /// The task gets the next free id, which is printed. Give it a
    /// priority, tags and an estimate so `list` can sort and filter.
    ///
    /// Titles are taken literally: quotes, dashes and semicolons are kept.
    ///
    /// Example: $ taskctl task add "Call the plumber" --priority 5 --tag home -t urgent
    // The line above is an example call too (a prompt shows it), as the
    // JSON one below is: the bridge reads it as clap would.
    #[mcp(title = "Add a task", destructive = false, open_world = false)]
    #[mcp(
        example = r#"{"title": "Write the release notes", "priority": 4, "tag": ["docs"], "estimate": "90m"}"#
    )]
    Add(AddArgs),

    /// List tasks, most urgent first
    #[command(visible_alias = "ls")]
    // A client gets the tasks as data (`structuredContent`) and the lines
    // as text, so `--json` is only for the terminal: fixed off, it leaves
    // the tool's schema.
    #[mcp(title = "List tasks", read_only, open_world = false)]
    #[mcp(output = TaskList, args(json = false))]
    List {
        /// Only tasks with this status
        #[arg(long, value_enum)]
        status: Option<Status>,

        /// Only tasks with this tag
        #[arg(long)]
        tag: Option<String>,

        /// Include finished tasks
        #[arg(long)]
        all: bool,

        /// Print the tasks as JSON
        #[arg(long)]
        json: bool,
    },

    /// Mark tasks as done
    #[mcp(
        title = "Finish tasks",
        destructive = false,
        idempotent,
        open_world = false
    )]
    Done {
        /// Ids of the tasks to finish
        #[arg(required = true)]
        ids: Vec<u64>,
    },

    /// Remove a task
    #[mcp(title = "Remove a task", destructive, open_world = false)]
    Remove {
        /// Id of the task
        id: u64,

        /// Remove it even if it is not done, without asking
        #[arg(long)]
        force: bool,
    },
}

#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct AddArgs {
    /// What has to be done
    pub title: String,

    /// How urgent it is, from 1 (whenever) to 5 (now)
    #[arg(short, long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub priority: u8,

    /// A tag to file the task under (repeatable)
    #[arg(short, long)]
    pub tag: Vec<String>,

    /// How long it should take, e.g. 90m or 2h
    #[arg(long, value_parser = parse_duration)]
    pub estimate: Option<Duration>,

    /// The status to start in
    #[arg(long, value_enum, default_value_t = Status::Todo)]
    pub status: Status,
}

#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct StatsArgs {
    /// Print the counts as JSON
    #[arg(long)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Option<StatsCommand>,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum StatsCommand {
    /// Write the counts as JSON to a file
    Export {
        /// Where to write the JSON
        file: PathBuf,
    },
}

/// Where a task stands.
#[derive(
    ValueEnum,
    Serialize,
    Deserialize,
    JsonSchema,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Not started
    Todo,
    /// In progress
    Doing,
    /// Finished
    Done,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Todo => "todo",
            Status::Doing => "doing",
            Status::Done => "done",
        }
    }
}

/// Reads durations the way `humantime` writes them: whole numbers with
/// units, optionally separated by spaces (`90s`, `15m`, `1h 30m`, `2days`).
/// A parser of the CLI's own, so the bridge offers a plain string and the
/// help text says what it takes (the duration pattern is promised only for
/// `humantime::parse_duration` itself).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err("empty duration".into());
    }
    let mut total = Duration::ZERO;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(format!("expected a number at `{rest}`"));
        }
        let number: u64 = rest[..digits]
            .parse()
            .map_err(|_| format!("`{}` is too large", &rest[..digits]))?;
        rest = rest[digits..].trim_start();
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c.is_whitespace())
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = rest[unit_len..].trim_start();
        let nanos_per_unit: u128 = match unit {
            "nsec" | "ns" => 1,
            "usec" | "us" | "µs" => 1_000,
            "msec" | "ms" => 1_000_000,
            "seconds" | "second" | "secs" | "sec" | "s" => 1_000_000_000,
            "minutes" | "minute" | "mins" | "min" | "m" => 60 * 1_000_000_000,
            "hours" | "hour" | "hrs" | "hr" | "h" => 3_600 * 1_000_000_000,
            "days" | "day" | "d" => 86_400 * 1_000_000_000,
            "weeks" | "week" | "w" => 604_800 * 1_000_000_000,
            "months" | "month" | "M" => 2_630_016 * 1_000_000_000,
            "years" | "year" | "y" => 31_557_600 * 1_000_000_000,
            "" => return Err(format!("`{number}` needs a unit, e.g. {number}m")),
            other => return Err(format!("unknown unit `{other}` (use s, m, h, d, w...)")),
        };
        let nanos = u128::from(number) * nanos_per_unit;
        let part = u64::try_from(nanos / 1_000_000_000)
            .map(|secs| Duration::new(secs, (nanos % 1_000_000_000) as u32))
            .map_err(|_| "duration too large".to_owned())?;
        total = total.checked_add(part).ok_or("duration too large")?;
    }
    Ok(total)
}

fn format_duration(duration: Duration) -> String {
    let minutes = duration.as_secs() / 60;
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m}m"),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h{m}m"),
    }
}

/// One task as stored in the file.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Task {
    pub id: u64,
    pub title: String,
    /// 1 (lowest) to 5 (highest)
    pub priority: u8,
    pub tags: Vec<String>,
    /// How long it should take
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate_minutes: Option<u64>,
    pub status: Status,
}

/// What `task list` returns: the tasks it shows, most urgent first.
#[derive(Serialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct TaskList {
    pub tasks: Vec<Task>,
}

/// The task file.
#[derive(Serialize, Deserialize, Debug, Default, Clone, PartialEq)]
pub struct TaskFile {
    pub next_id: u64,
    pub tasks: Vec<Task>,
}

/// A command that could not do its job.
#[derive(Debug)]
pub enum TaskError {
    Io(PathBuf, io::Error),
    Corrupt(PathBuf, serde_json::Error),
    NoSuchTask(u64),
    NotDone(u64),
    /// A question nobody could answer (no terminal, a client that cannot
    /// ask its user).
    Unanswered(mcp_bridge::Unanswered),
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskError::Io(path, e) => write!(f, "cannot use {}: {e}", path.display()),
            TaskError::Corrupt(path, e) => write!(f, "{} is not a task file: {e}", path.display()),
            TaskError::NoSuchTask(id) => write!(f, "no task with id {id}"),
            TaskError::NotDone(id) => {
                write!(f, "task {id} is not done; pass --force to remove it anyway")
            }
            TaskError::Unanswered(unanswered) => write!(f, "{unanswered}"),
        }
    }
}

impl TaskFile {
    /// Reads the task file (a missing file is an empty list).
    pub fn load(path: &Path) -> Result<Self, TaskError> {
        match fs::read(path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| TaskError::Corrupt(path.into(), e))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(TaskFile {
                next_id: 1,
                tasks: Vec::new(),
            }),
            Err(e) => Err(TaskError::Io(path.into(), e)),
        }
    }

    /// Replaces the task file atomically: the new content goes to a
    /// temporary file next to it, reaches the disk, and is renamed over
    /// the old one, so a reader (or a crash) sees the old file or the new
    /// one, never half of one.
    pub fn save(&self, path: &Path) -> Result<(), TaskError> {
        let fail = |e| TaskError::Io(path.into(), e);
        let json = serde_json::to_vec_pretty(self).expect("tasks serialize");
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
        let mut file = fs::File::create(&temporary).map_err(fail)?;
        file.write_all(&json).map_err(fail)?;
        file.sync_all().map_err(fail)?;
        drop(file);
        fs::rename(&temporary, path).map_err(fail)
    }

    fn find(&mut self, id: u64) -> Result<&mut Task, TaskError> {
        self.tasks
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or(TaskError::NoSuchTask(id))
    }
}

/// Holds the task file's lock (a file next to it) while a command reads,
/// changes and writes it, so two runs at once (two calls, or the CLI and
/// the server) cannot lose each other's changes.
struct Locked {
    _file: fs::File,
}

impl Locked {
    fn take(db: &Path) -> Result<Self, TaskError> {
        let name = db.file_name().unwrap_or_default().to_string_lossy();
        let path = db.with_file_name(format!(".{name}.lock"));
        let fail = |e| TaskError::Io(path.clone(), e);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(fail)?;
        file.lock().map_err(fail)?;
        Ok(Self { _file: file })
    }
}

/// For `task remove` of a task that is not done, without `--force`: asks
/// whether to remove it anyway (in a terminal, a prompt; through an MCP
/// client that can ask its user, an elicitation; otherwise an error naming
/// the flag). `true` when the user said yes.
fn confirm_removal(cli: &Cli) -> Result<bool, TaskError> {
    let Command::Task(TaskCommand::Remove { id, force: false }) = &cli.command else {
        return Ok(false);
    };
    let file = TaskFile::load(&cli.db)?;
    if file
        .tasks
        .iter()
        .all(|t| t.id != *id || t.status == Status::Done)
    {
        // Done, or no such task: the command says so itself.
        return Ok(false);
    }
    let question = format!("Task #{id} is not done. Remove it anyway?");
    match mcp_bridge::confirm(&question) {
        Ok(true) => Ok(true),
        Ok(false) => Err(TaskError::NotDone(*id)),
        Err(unanswered) => Err(TaskError::Unanswered(unanswered.instead("force"))),
    }
}

/// Runs one parsed command, printing its output: what `main` calls, in the
/// terminal and as an MCP tool alike. `task list` returns its tasks as
/// data too (printed as lines in the terminal, `structuredContent` for a
/// model).
pub fn run(cli: Cli) -> Result<Option<Output>, TaskError> {
    // Asked before the file is locked: an answer may take a while.
    let confirmed = confirm_removal(&cli)?;
    let _lock = Locked::take(&cli.db)?;
    let mut file = TaskFile::load(&cli.db)?;
    if cli.verbose > 0 {
        eprintln!("using {} ({} tasks)", cli.db.display(), file.tasks.len());
    }
    match cli.command {
        Command::Task(TaskCommand::Add(add)) => {
            let id = file.next_id.max(1);
            file.next_id = id + 1;
            file.tasks.push(Task {
                id,
                title: add.title.clone(),
                priority: add.priority,
                tags: add.tag,
                estimate_minutes: add.estimate.map(|d| d.as_secs() / 60),
                status: add.status,
            });
            file.save(&cli.db)?;
            println!("added task #{id}: {}", add.title);
        }
        Command::Task(TaskCommand::List {
            status,
            tag,
            all,
            json,
        }) => {
            let mut tasks: Vec<&Task> = file
                .tasks
                .iter()
                .filter(|t| all || status == Some(Status::Done) || t.status != Status::Done)
                .filter(|t| status.is_none_or(|s| t.status == s))
                .filter(|t| tag.as_ref().is_none_or(|tag| t.tags.contains(tag)))
                .collect();
            tasks.sort_by_key(|t| (std::cmp::Reverse(t.priority), t.id));
            let mut text = String::new();
            for task in &tasks {
                let mut line = format!(
                    "#{} [{}] p{} {}",
                    task.id,
                    task.status.name(),
                    task.priority,
                    task.title
                );
                if !task.tags.is_empty() {
                    line += &format!(" ({})", task.tags.join(", "));
                }
                if let Some(minutes) = task.estimate_minutes.filter(|_| cli.verbose > 0) {
                    line += &format!(" ~{}", format_duration(Duration::from_secs(minutes * 60)));
                }
                text.push_str(&line);
                text.push('\n');
            }
            let tasks = tasks.into_iter().cloned().collect();
            return Ok(Some(
                Output::with_text(TaskList { tasks }, text).json_when(json),
            ));
        }
        Command::Task(TaskCommand::Done { ids }) => {
            for id in &ids {
                file.find(*id)?.status = Status::Done;
            }
            file.save(&cli.db)?;
            for id in ids {
                println!("done: #{id}");
            }
        }
        Command::Task(TaskCommand::Remove { id, force }) => {
            let task = file.find(id)?;
            if task.status != Status::Done && !force && !confirmed {
                return Err(TaskError::NotDone(id));
            }
            file.tasks.retain(|t| t.id != id);
            file.save(&cli.db)?;
            println!("removed task #{id}");
        }
        Command::Stats(StatsArgs { json, command }) => {
            let count = |s: Status| file.tasks.iter().filter(|t| t.status == s).count();
            let counts = serde_json::json!({
                "todo": count(Status::Todo),
                "doing": count(Status::Doing),
                "done": count(Status::Done),
            });
            match command {
                None if json => println!("{counts}"),
                None => println!(
                    "todo: {}, doing: {}, done: {}",
                    counts["todo"], counts["doing"], counts["done"]
                ),
                Some(StatsCommand::Export { file: path }) => {
                    fs::write(&path, counts.to_string())
                        .map_err(|e| TaskError::Io(path.clone(), e))?;
                    println!("wrote {}", path.display());
                }
            }
        }
        Command::Purge => {
            let before = file.tasks.len();
            file.tasks.retain(|t| t.status != Status::Done);
            file.save(&cli.db)?;
            println!("purged {} tasks", before - file.tasks.len());
        }
    }
    Ok(None)
}
