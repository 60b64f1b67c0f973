//! The tools the official MCP conformance suite calls by name
//! (`@modelcontextprotocol/conformance`, server scenarios), as an ordinary
//! clap CLI served by the bridge: `tests/tests/conformance.rs` runs the
//! suite against `conformance mcp serve --http`. Artificial on purpose, so
//! it is kept out of the user-facing examples.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use mcp_bridge::{Bridge, Io, McpTool, Skill};

/// Tools for the MCP conformance suite.
#[derive(Parser, McpTool, Debug)]
#[command(name = "conformance", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Return a fixed text
    #[mcp(name = "test_simple_text")]
    SimpleText,
    /// Fail, always
    #[mcp(name = "test_error_handling")]
    ErrorHandling,
    /// Report progress 0, 50 and 100 of 100, 50 ms apart
    #[mcp(name = "test_tool_with_progress")]
    WithProgress,
    /// Log three messages at info level, 50 ms apart
    #[mcp(name = "test_tool_with_logging")]
    WithLogging,
    /// Ask for the user's name, then go on as a task (when the client
    /// supports tasks) and greet them
    #[mcp(name = "test_tool_with_task", task = "deferred")]
    WithTask,
    /// Greet someone
    #[mcp(name = "greet")]
    Greet {
        /// Who
        #[arg(long)]
        name: String,
    },
    /// Sleep a number of seconds (as a task when the client supports
    /// tasks), stopping when cancelled
    #[mcp(name = "slow_compute", task)]
    SlowCompute {
        /// How long
        #[arg(long)]
        seconds: u64,
        /// What to call the result
        #[arg(long, default_value = "")]
        label: String,
    },
    /// Fail after a second, always as a task
    #[mcp(name = "failing_job", task = "required")]
    FailingJob,
    /// Panic, as a task when the client supports tasks
    #[mcp(name = "protocol_error_job", task)]
    ProtocolErrorJob,
    /// Ask whether to delete a file (as a task when the client supports
    /// tasks)
    #[mcp(name = "confirm_delete", task)]
    ConfirmDelete {
        /// The file
        #[arg(long)]
        filename: String,
    },
    /// Ask two questions at once (as a task when the client supports
    /// tasks)
    #[mcp(name = "multi_input", task)]
    MultiInput,
    /// Ask the user a question (an elicitation), and say the answer
    // Its example makes it a prompt too, so the server declares prompts
    // (the suite lists them, and checks the declaration).
    #[mcp(
        name = "test_elicitation",
        example = r#"{"message": "Which colour do you like?"}"#
    )]
    Elicitation {
        /// The question
        #[arg(long)]
        message: String,
    },
    /// Ask the user for their name: under protocol 2026-07-28 the call
    /// answers with an `input_required` result, never a request of its own
    #[mcp(name = "test_streaming_elicitation")]
    StreamingElicitation,
    /// Log a message at info level (sent only to a request that names a
    /// log level)
    #[mcp(name = "test_logging_tool")]
    LoggingTool,
    /// Say which region the call was for
    #[mcp(name = "test_region_header")]
    RegionHeader {
        /// The region (sent in the `Mcp-Param-Region` header too)
        #[arg(long)]
        #[mcp(header = "Region")]
        region: String,
    },
}

fn run(cli: Cli, io: &mut Io) -> ExitCode {
    let pause = || std::thread::sleep(Duration::from_millis(50));
    let written = match cli.command {
        Command::SimpleText => write!(io.out(), "This is a simple text response for testing."),
        Command::ErrorHandling => {
            let _ = write!(
                io.err(),
                "This tool intentionally returns an error for testing"
            );
            return ExitCode::FAILURE;
        }
        Command::WithProgress => {
            for done in [0.0, 50.0, 100.0] {
                io.progress(done, Some(100.0), None);
                if done < 100.0 {
                    pause();
                }
            }
            write!(io.out(), "progress reported")
        }
        Command::WithLogging => {
            tracing::info!("Tool execution started");
            pause();
            tracing::info!("Tool processing data");
            pause();
            tracing::info!("Tool execution completed");
            write!(io.out(), "logged three messages")
        }
        Command::LoggingTool => {
            tracing::info!("Tool ran");
            write!(io.out(), "logged one message")
        }
        Command::RegionHeader { region } => write!(io.out(), "region: {region}"),
        Command::WithTask => {
            let name = match io.prompt("What is your name?") {
                Ok(name) => name,
                Err(unanswered) => return fail(io, &unanswered),
            };
            let task = io.start_task();
            pause();
            write!(io.out(), "Hello, {name}!").and_then(|()| match task {
                true => write!(io.out(), " (from a task)"),
                false => Ok(()),
            })
        }
        Command::Greet { name } => write!(io.out(), "Hello, {name}!"),
        Command::SlowCompute { seconds, label } => {
            let until = std::time::Instant::now() + Duration::from_secs(seconds);
            while std::time::Instant::now() < until {
                if io.cancelled() {
                    return ExitCode::FAILURE;
                }
                pause();
            }
            write!(io.out(), "computed {label} in {seconds}s")
        }
        Command::FailingJob => {
            std::thread::sleep(Duration::from_secs(1));
            let _ = write!(io.err(), "the job failed, as it always does");
            return ExitCode::FAILURE;
        }
        Command::ProtocolErrorJob => panic!("the job broke, as it always does"),
        Command::ConfirmDelete { filename } => match io.confirm(&format!("Delete {filename}?")) {
            Ok(true) => write!(io.out(), "deleted {filename}"),
            Ok(false) => write!(io.out(), "kept {filename}"),
            Err(unanswered) => return fail(io, &unanswered),
        },
        // Each question from a thread of its own: both wait at once.
        Command::MultiInput => {
            let asker = io.asker();
            let (name, sure) = std::thread::scope(|scope| {
                let name = scope.spawn(|| asker.prompt("What is your name?"));
                let sure = scope.spawn(|| asker.confirm("Go ahead?"));
                (name.join(), sure.join())
            });
            match (name, sure) {
                (Ok(Ok(name)), Ok(Ok(sure))) => write!(io.out(), "{name} said {sure}"),
                (Ok(Err(unanswered)), _) | (_, Ok(Err(unanswered))) => {
                    return fail(io, &unanswered)
                }
                _ => return ExitCode::FAILURE,
            }
        }
        // The suite's client answers with fields of its own choosing: the
        // answer it gives to the one-field form is reported as it is.
        Command::Elicitation { message } => match io.prompt(&message) {
            Ok(answer) => write!(io.out(), "answered: {answer}"),
            Err(unanswered) => write!(io.out(), "not answered: {unanswered}"),
        },
        Command::StreamingElicitation => match io.prompt("What is your name?") {
            Ok(name) => write!(io.out(), "hello, {name}"),
            Err(unanswered) => write!(io.out(), "not answered: {unanswered}"),
        },
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// A question that got no answer, as the call's error.
fn fail(io: &mut Io, unanswered: &mcp_bridge::Unanswered) -> ExitCode {
    let _ = write!(io.err(), "{unanswered}");
    ExitCode::FAILURE
}

/// The skill its author wrote (SEP-2640), with a file in a folder of it.
const SKILL_MD: &str = "---
name: conformance-tools
description: Call the conformance tools by name; each one shows one feature of the protocol.
license: MIT
metadata:
  audience: testers
---

# Conformance tools

Call `test_simple_text` for a fixed text, `test_error_handling` for an
error result. See [the tool notes](references/tools.md).
";

fn main() -> ExitCode {
    let bridge = Bridge::new(run)
        .skill(Skill::new(SKILL_MD).file(
            "references/tools.md",
            "# Tool notes\n\n`test_tool_with_progress` reports three steps.\n",
        ))
        .skill(Skill::generated());
    // A skill that cannot be served: `mcp serve` must refuse to start.
    match std::env::var_os("CONFORMANCE_BAD_SKILL") {
        Some(_) => bridge.skill(Skill::new("# no frontmatter\n")).run(),
        None => bridge.run(),
    }
}
