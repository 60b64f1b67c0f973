//! A CLI made to misbehave, for integration tests of the execution model:
//! it prints with `println!` (and through `Io`), panics, sleeps, floods
//! its output, reads stdin, starts child processes and runtimes of its
//! own, and has its own `mcp` command, so the bridge must be renamed.
//!
//! Environment:
//! - `FIXTURE_BRIDGE_NAME`: the bridge's command name (default `mcp`);
//! - `FIXTURE_HANDLER`: which kind of handler serves it: `io` (default,
//!   `Fn(Cli, &mut Io)`), `plain` (`Fn(Cli) -> Result`, printing with
//!   `println!`) or `async` (`async fn(Cli)`);
//! - `FIXTURE_TIMEOUT_MS`, `FIXTURE_OUTPUT_LIMIT`, `FIXTURE_MAX_CALLS`,
//!   `FIXTURE_GRACE_MS`, `FIXTURE_TASK_TTL_MS`: the bridge's limits;
//! - `FIXTURE_ISOLATE`: every call in a child process;
//! - `FIXTURE_MAIN=async`: `main` starts the bridge with `Bridge::run_async`
//!   on a runtime of its own, as `#[tokio::main]` would;
//! - `FIXTURE_LABELS`: the file `label`'s values are fetched from (one per
//!   line; a missing file is a failed fetch).
//!
//! Tool names are held to 40 bytes (`#[mcp(max_name_len = 40)]`): the one
//! command with a longer path is served under a shortened name.

use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use mcp_bridge::{Bridge, Io, McpTool, Output};

/// A CLI for testing the bridge.
#[derive(Parser, McpTool, Debug)]
#[command(name = "fixture")]
#[mcp(icon = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E")]
#[mcp(max_name_len = 40)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Print a text (and, with an `Io` handler, a stray `println!` too)
    #[mcp(icon = "https://example.com/icons/shout.png?v=2")]
    Shout {
        /// What to print
        text: String,
    },
    /// The CLI's own `mcp` command
    Mcp,
    /// Panic, to show a panic becomes an error result
    Crash,
    /// Sleep, then print `slept` (a task for clients that support tasks)
    #[mcp(task)]
    Sleep {
        /// How long, in milliseconds
        #[arg(long, default_value_t = 1000)]
        ms: u64,
    },
    /// Print many numbered lines
    Flood {
        /// How many
        #[arg(long)]
        lines: u64,
    },
    /// Read stdin to its end and print how many bytes it had
    ReadStdin,
    /// Start a child process that prints to stdout and stderr
    Child,
    /// Start a tokio runtime of its own and `block_on` it, as blocking
    /// HTTP clients do
    NestedRuntime,
    /// Exit with a code (`std::process::exit`: in a child process of its
    /// own under `mcp serve`)
    #[mcp(isolate)]
    Exit {
        /// The code
        code: u8,
    },
    /// Fail with an error
    Fail,
    /// Report progress in steps (with an `Io` handler)
    Progress {
        /// How many steps
        #[arg(long, default_value_t = 3)]
        steps: u32,
    },
    /// Stay a while in a section only one call may be in, and say whether
    /// another call was in it too
    #[mcp(serial)]
    Exclusive {
        /// How long, in milliseconds
        #[arg(long, default_value_t = 200)]
        ms: u64,
    },
    /// Sleep, under a timeout of its own
    #[mcp(timeout = "200ms")]
    Hurry {
        /// How long, in milliseconds
        #[arg(long, default_value_t = 2000)]
        ms: u64,
    },
    /// Count words and letters, returned as data
    #[mcp(output = Counts)]
    Measure {
        /// The words
        words: Vec<String>,
    },
    /// The letters of a word, returned as data: a list, not an object
    #[mcp(output = Vec<char>)]
    Spell {
        /// The word
        word: String,
    },
    /// Declares `Counts` but returns a list of numbers
    #[mcp(output = Counts)]
    Mislabel,
    /// Declares `Counts` but returns nothing
    #[mcp(output = Counts)]
    Forget,
    /// Print a label, one of those fetched from the labels file
    Label {
        /// The label (its values fetched every 300 ms)
        #[mcp(values = labels, values_ttl = "300ms")]
        name: String,
        /// More labels (their values fetched once an hour, or when a call
        /// gives one not fetched yet)
        #[arg(long, value_delimiter = ',')]
        #[mcp(values = labels, values_ttl = "1h")]
        also: Vec<String>,
    },
    /// Ask the user before going ahead (or for a name)
    Ask {
        /// Go ahead without asking
        #[arg(long)]
        force: bool,
        /// Ask for a name instead
        #[arg(long)]
        name: bool,
        /// Ask from inside a tokio runtime of the handler's own
        #[arg(long)]
        nested: bool,
    },
    /// Returns numbers as data, declaring no type
    Numbers {
        /// How many
        #[arg(long, default_value_t = 3)]
        count: u32,
    },
    /// Print a table of sizes, parsed into structured content (with
    /// `--ragged`, one whose last row does not line up with the header)
    #[mcp(output = "table")]
    Sizes {
        /// Let the last row's name run into the next column
        #[arg(long)]
        ragged: bool,
    },
    /// Print the newest key of a service account (its tool name is past
    /// the 40 bytes allowed, so it is shortened)
    ShowTheNewestKeyOfAServiceAccount {
        /// The account
        account: String,
    },
    /// Ask for a name and a yes, both at once with an `Io` handler (each
    /// from a thread of its own); a task for clients that support tasks
    #[mcp(task)]
    Survey,
    /// Panic, as a task for clients that support tasks
    #[mcp(task)]
    Break,
    /// Ask where to deploy, then go on as a task (for clients that
    /// support tasks)
    #[mcp(task = "deferred")]
    Deploy,
    /// Ask which version from a thread while going on as a task (with an
    /// `Io` handler): the question first, then `Io::start_task`
    #[mcp(task = "deferred")]
    Rollout,
    /// Sleep, then print `batched`: always a task
    #[mcp(task = "required")]
    Batch {
        /// How long, in milliseconds
        #[arg(long, default_value_t = 100)]
        ms: u64,
    },
    /// Say the call's trace context, and the `TRACEPARENT` variable, as data
    Trace,
    /// The same, in a process of its own
    #[mcp(isolate)]
    TraceApart,
}

fn went_ahead(yes: bool) -> &'static str {
    match yes {
        true => "went ahead",
        false => "stopped",
    }
}

/// The labels: the lines of the file `FIXTURE_LABELS` names.
fn labels() -> Result<Vec<String>, String> {
    let path = std::env::var_os("FIXTURE_LABELS").ok_or("FIXTURE_LABELS is not set")?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("no labels file: {e}"))?;
    if text.trim() == "panic" {
        panic!("the labels file says panic");
    }
    Ok(text
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// What `measure` returns.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Counts {
    /// How many words
    words: usize,
    /// How many letters
    letters: usize,
}

/// The commands that return data, the same for every kind of handler.
fn returned(command: &Command) -> Option<Result<Option<Output>, String>> {
    Some(Ok(Some(match command {
        Command::Measure { words } => Output::display(Counts {
            words: words.len(),
            letters: words.iter().map(|w| w.chars().count()).sum(),
        }),
        Command::Spell { word } => Output::new(word.chars().collect::<Vec<char>>()),
        Command::Mislabel => Output::new(vec![1, 2, 3]),
        Command::Forget => return Some(Ok(None)),
        Command::Numbers { count } => Output::new((1..=*count).collect::<Vec<u32>>()),
        Command::Trace | Command::TraceApart => {
            let context = mcp_bridge::trace_context();
            tracing::info!("in the call's span");
            Output::new(serde_json::json!({
                "traceparent": context.as_ref().map(|c| c.traceparent.clone()),
                "tracestate": context.and_then(|c| c.tracestate),
                "TRACEPARENT": std::env::var("TRACEPARENT").ok(),
            }))
        }
        _ => return None,
    })))
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} words, {} letters", self.words, self.letters)
    }
}

/// How many calls are in `exclusive`'s section.
static INSIDE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The `Io` handler: writes through the bridge's writers.
/// With `FIXTURE_MARKS` set, a line in that file per handler run: the
/// side effect the tests of calls that must never start look for.
fn mark(cli: &Cli) {
    if let Some(path) = std::env::var_os("FIXTURE_MARKS") {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("open the marks file");
        writeln!(file, "{:?}", cli.command).expect("write a mark");
    }
}

fn run_io(cli: Cli, io: &mut Io) -> Result<Option<Output>, String> {
    mark(&cli);
    if let Some(returned) = returned(&cli.command) {
        return returned;
    }
    let text = |e: std::io::Error| e.to_string();
    match cli.command {
        Command::Shout { text: said } => {
            tracing::info!(words = said.split_whitespace().count(), "shouting {said}");
            tracing::debug!("a detail");
            println!("stray println: {said}");
            writeln!(io.out(), "shouted {said}").map_err(text)?;
        }
        Command::Mcp => writeln!(io.out(), "the CLI's own mcp command").map_err(text)?,
        Command::Crash => panic!("deliberate crash"),
        Command::Sleep { ms } => {
            let until = std::time::Instant::now() + Duration::from_millis(ms);
            while std::time::Instant::now() < until {
                if io.cancelled() {
                    writeln!(io.err(), "stopped early").map_err(text)?;
                    return Ok(None);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            writeln!(io.out(), "slept").map_err(text)?;
        }
        Command::Flood { lines } => {
            for i in 0..lines {
                writeln!(io.out(), "line {i}").map_err(text)?;
            }
        }
        Command::Progress { steps } => {
            for step in 1..=steps {
                io.progress(f64::from(step), Some(f64::from(steps)), Some("working"));
                std::thread::sleep(Duration::from_millis(20));
            }
            writeln!(io.out(), "done").map_err(text)?;
        }
        Command::Exclusive { ms } => {
            use std::sync::atomic::Ordering;
            let others = INSIDE.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(ms));
            let others = others.max(INSIDE.load(Ordering::SeqCst) - 1);
            INSIDE.fetch_sub(1, Ordering::SeqCst);
            writeln!(io.out(), "others inside: {others}").map_err(text)?;
        }
        Command::Hurry { ms } => {
            std::thread::sleep(Duration::from_millis(ms));
            writeln!(io.out(), "done in time").map_err(text)?;
        }
        Command::Ask { force, name, .. } => {
            let said = match name {
                true => format!(
                    "hello {}",
                    io.prompt("Your name?").map_err(|e| e.to_string())?
                ),
                false => went_ahead(
                    force
                        || io
                            .confirm("Really go ahead?")
                            .map_err(|e| e.instead("force").to_string())?,
                )
                .to_owned(),
            };
            writeln!(io.out(), "{said}").map_err(text)?;
        }
        Command::Survey => {
            let asker = io.asker();
            let (name, yes) = std::thread::scope(|scope| {
                let name = scope.spawn(|| asker.prompt("Your name?"));
                let yes = scope.spawn(|| asker.confirm("Really go ahead?"));
                (name.join(), yes.join())
            });
            let name = name
                .map_err(|_| "asking panicked")?
                .map_err(|e| e.to_string())?;
            let yes = yes
                .map_err(|_| "asking panicked")?
                .map_err(|e| e.to_string())?;
            writeln!(io.out(), "{name}: {}", went_ahead(yes)).map_err(text)?;
        }
        Command::Batch { ms } => {
            std::thread::sleep(Duration::from_millis(ms));
            writeln!(io.out(), "batched").map_err(text)?;
        }
        Command::Deploy => {
            let place = io.prompt("Where to?").map_err(|e| e.to_string())?;
            let task = io.start_task();
            writeln!(io.out(), "deploying to {place} (a task: {task})").map_err(text)?;
            // Asked in the task, when it is one.
            let yes = io.confirm("Really go ahead?").map_err(|e| e.to_string())?;
            writeln!(io.out(), "{}", went_ahead(yes)).map_err(text)?;
        }
        Command::Rollout => {
            let asker = io.asker();
            let (version, task) = std::thread::scope(|scope| {
                let version = scope.spawn(|| asker.prompt("Which version?"));
                // The question goes first.
                std::thread::sleep(Duration::from_millis(200));
                let task = io.start_task();
                (version.join(), task)
            });
            let version = version
                .map_err(|_| "asking panicked")?
                .map_err(|e| e.to_string())?;
            writeln!(io.out(), "rolling out {version} (a task: {task})").map_err(text)?;
        }
        other => return run_plain(Cli { command: other }),
    }
    Ok(None)
}

/// The plain handler: prints with `println!`, as a CLI's `main` does.
fn run_plain(cli: Cli) -> Result<Option<Output>, String> {
    mark(&cli);
    if let Some(returned) = returned(&cli.command) {
        return returned;
    }
    match cli.command {
        Command::Shout { text } => println!("shouted {text}"),
        Command::Mcp => println!("the CLI's own mcp command"),
        Command::Crash => panic!("deliberate crash"),
        Command::Sleep { ms } => {
            std::thread::sleep(Duration::from_millis(ms));
            println!("slept");
        }
        Command::Flood { lines } => {
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for i in 0..lines {
                writeln!(out, "line {i}").map_err(|e| e.to_string())?;
            }
        }
        Command::ReadStdin => {
            let mut input = Vec::new();
            std::io::stdin()
                .read_to_end(&mut input)
                .map_err(|e| e.to_string())?;
            println!("stdin had {} bytes", input.len());
        }
        Command::Child => {
            let status = std::process::Command::new("sh")
                .args(["-c", "echo from the child; echo child complains >&2"])
                .status()
                .map_err(|e| e.to_string())?;
            println!("child exited with {}", status.code().unwrap_or(-1));
        }
        Command::NestedRuntime => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            let answer = runtime.block_on(async {
                tokio::time::sleep(Duration::from_millis(5)).await;
                42
            });
            println!("the nested runtime answered {answer}");
        }
        Command::Exit { code } => std::process::exit(i32::from(code)),
        Command::Label { name, also } => println!("label {name} {also:?}"),
        Command::Sizes { ragged } => {
            println!("NAME    SIZE");
            println!("small   1");
            println!("large   300");
            if ragged {
                println!("extra-large 5000");
            }
        }
        Command::ShowTheNewestKeyOfAServiceAccount { account } => {
            println!("newest key of {account}: k-7")
        }
        Command::Ask {
            nested: true,
            force,
            ..
        } => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .map_err(|e| e.to_string())?;
            let yes = runtime.block_on(async {
                match force {
                    true => Ok(true),
                    false => mcp_bridge::confirm("Really go ahead?"),
                }
            });
            let yes = yes.map_err(|e| e.instead("force").to_string())?;
            println!("{}", went_ahead(yes));
        }
        Command::Ask { force, name, .. } => match name {
            true => println!(
                "hello {}",
                mcp_bridge::prompt("Your name?").map_err(|e| e.to_string())?
            ),
            false => {
                let yes = force
                    || mcp_bridge::confirm("Really go ahead?")
                        .map_err(|e| e.instead("force").to_string())?;
                println!("{}", went_ahead(yes));
            }
        },
        Command::Survey => {
            let name = mcp_bridge::prompt("Your name?").map_err(|e| e.to_string())?;
            let yes = mcp_bridge::confirm("Really go ahead?").map_err(|e| e.to_string())?;
            println!("{name}: {}", went_ahead(yes));
        }
        Command::Break => panic!("deliberate crash in a task"),
        Command::Deploy => {
            let place = mcp_bridge::prompt("Where to?").map_err(|e| e.to_string())?;
            let task = mcp_bridge::start_task();
            println!("deploying to {place} (a task: {task})");
            let yes = mcp_bridge::confirm("Really go ahead?").map_err(|e| e.to_string())?;
            println!("{}", went_ahead(yes));
        }
        Command::Batch { ms } => {
            std::thread::sleep(Duration::from_millis(ms));
            println!("batched");
        }
        Command::Fail => return Err("the command failed on purpose".into()),
        Command::Progress { .. }
        | Command::Exclusive { .. }
        | Command::Hurry { .. }
        | Command::Rollout => {
            println!("served with an Io handler only")
        }
        Command::Measure { .. }
        | Command::Spell { .. }
        | Command::Mislabel
        | Command::Forget
        | Command::Numbers { .. }
        | Command::Trace
        | Command::TraceApart => unreachable!("returned above"),
    }
    Ok(None)
}

/// The async handler.
async fn run_async(cli: Cli) -> Result<Option<Output>, String> {
    mark(&cli);
    if let Some(returned) = returned(&cli.command) {
        tokio::task::yield_now().await;
        return returned;
    }
    match cli.command {
        Command::Sleep { ms } => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            println!("slept");
            Ok(None)
        }
        Command::Shout { text } => {
            tokio::task::yield_now().await;
            println!("shouted {text}");
            Ok(None)
        }
        Command::Crash => {
            tokio::task::yield_now().await;
            panic!("deliberate crash")
        }
        Command::Break => {
            tokio::task::yield_now().await;
            panic!("deliberate crash in a task")
        }
        Command::Deploy => {
            let place = mcp_bridge::prompt_async("Where to?")
                .await
                .map_err(|e| e.to_string())?;
            let task = mcp_bridge::start_task_async().await;
            println!("deploying to {place} (a task: {task})");
            let yes = mcp_bridge::confirm_async("Really go ahead?")
                .await
                .map_err(|e| e.to_string())?;
            println!("{}", went_ahead(yes));
            Ok(None)
        }
        Command::Ask { force, name, .. } => {
            let said = match name {
                true => format!(
                    "hello {}",
                    mcp_bridge::prompt_async("Your name?")
                        .await
                        .map_err(|e| e.to_string())?
                ),
                false => {
                    let yes = force
                        || mcp_bridge::confirm_async("Really go ahead?")
                            .await
                            .map_err(|e| e.instead("force").to_string())?;
                    went_ahead(yes).to_owned()
                }
            };
            println!("{said}");
            Ok(None)
        }
        // The rest is synchronous work: off the runtime's workers.
        other => tokio::task::spawn_blocking(move || run_plain(Cli { command: other }))
            .await
            .map_err(|e| e.to_string())?,
    }
}

fn number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

fn main() -> ExitCode {
    let name = std::env::var("FIXTURE_BRIDGE_NAME").unwrap_or_else(|_| "mcp".to_owned());
    let handler = std::env::var("FIXTURE_HANDLER").unwrap_or_default();
    // `FIXTURE_MAIN=async`: the bridge started from an async `main`, as
    // `#[tokio::main]` expands it.
    let async_main = std::env::var_os("FIXTURE_MAIN").is_some_and(|main| main == "async");
    macro_rules! configured {
        ($bridge:expr) => {{
            let mut bridge = $bridge.command_name(name);
            if let Some(ms) = number("FIXTURE_TIMEOUT_MS") {
                bridge = bridge.call_timeout(Duration::from_millis(ms));
            }
            if let Some(bytes) = number("FIXTURE_OUTPUT_LIMIT") {
                bridge = bridge.output_limit(bytes as usize);
            }
            if let Some(calls) = number("FIXTURE_MAX_CALLS") {
                bridge = bridge.max_concurrent_calls(calls as usize);
            }
            if let Some(ms) = number("FIXTURE_TASK_TTL_MS") {
                bridge = bridge.task_ttl(Duration::from_millis(ms));
            }
            if let Some(ms) = number("FIXTURE_GRACE_MS") {
                bridge = bridge.shutdown_grace(Duration::from_millis(ms));
            }
            if std::env::var_os("FIXTURE_ISOLATE").is_some() {
                bridge = bridge.isolate_calls(true);
            }
            match async_main {
                true => tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime")
                    .block_on(bridge.run_async()),
                false => bridge.run(),
            }
        }};
    }
    match handler.as_str() {
        "plain" => configured!(Bridge::new(run_plain)),
        "async" => configured!(Bridge::new(run_async)),
        _ => configured!(Bridge::new(run_io)),
    }
}

#[cfg(test)]
mod agreement {
    /// Every call of every tool builds what clap parses from the same
    /// command line (`cargo test --bin fixture_cli`).
    #[test]
    fn the_fixture_agrees_with_clap() {
        mcp_bridge::testing::assert_parity::<super::Cli>();
        mcp_bridge::testing::assert_agrees_with_clap::<super::Cli>();
    }
}
