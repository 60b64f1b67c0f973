//! The tools the official MCP conformance suite calls by name
//! (`@modelcontextprotocol/conformance`, server scenarios), as an ordinary
//! clap CLI served by the bridge: `tests/tests/conformance.rs` runs the
//! suite against `conformance mcp serve --http`. Artificial on purpose, so
//! it is kept out of the user-facing examples.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use mcp_bridge::{Bridge, Io, McpTool};

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
    /// Sleep a little, as a task when the client supports tasks
    #[mcp(name = "test_tool_with_task", task)]
    WithTask,
    /// Ask the user a question (an elicitation), and say the answer
    #[mcp(name = "test_elicitation")]
    Elicitation {
        /// The question
        #[arg(long)]
        message: String,
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
        Command::WithTask => {
            std::thread::sleep(Duration::from_millis(200));
            write!(io.out(), "task done")
        }
        // The suite's client answers with fields of its own choosing: the
        // answer it gives to the one-field form is reported as it is.
        Command::Elicitation { message } => match io.prompt(&message) {
            Ok(answer) => write!(io.out(), "answered: {answer}"),
            Err(unanswered) => write!(io.out(), "not answered: {unanswered}"),
        },
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

fn main() -> ExitCode {
    Bridge::new(run).run()
}
