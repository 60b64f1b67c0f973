//! A CLI whose `main` reads clap's matches itself, as some real CLIs do
//! (tests/drop_in.rs): it changes its command before parsing, asks where
//! each value came from (`value_source`), and builds its value with
//! `from_arg_matches`. It adopted the bridge through
//! `mcp_bridge::get_matches_from::<Cli>(cmd, args)` in place of
//! `cmd.get_matches_from(args)`.

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use mcp_bridge::McpTool;

/// Say things, and say where each setting came from.
#[derive(Parser, McpTool, Debug)]
#[command(name = "sayer")]
struct Cli {
    /// Louder, once per use
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Print words
    Say {
        /// The words; they may start with `-`
        words: Vec<String>,
        /// What goes between them
        #[arg(long, default_value = " ")]
        separator: String,
        /// Shout
        #[arg(long, env = "SAYER_UPPER")]
        upper: bool,
    },
    /// Count to a number
    Count {
        /// Where to stop
        #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
        to: i64,
    },
    /// Any other command, run as a plugin would be
    #[command(external_subcommand)]
    Plugin(Vec<String>),
}

fn main() {
    // A later `--upper` wins over an earlier one, as the CLI has always
    // parsed it: the command is changed before parsing.
    let cmd = Cli::command().args_override_self(true);
    // A first look, errors ignored (as CLIs do to find a config file's
    // option before the real parse): the call's command line too.
    let early = mcp_bridge::try_get_matches_from::<Cli>(
        cmd.clone().ignore_errors(true),
        std::env::args_os(),
    );
    let verbose = early.map_or(0, |m| m.get_count("verbose"));
    println!("early look: verbose {verbose}");
    let matches = mcp_bridge::get_matches_from::<Cli>(cmd, std::env::args_os());
    let (name, sub) = matches.subcommand().expect("a command is required");
    let source = |id: &str| match sub.value_source(id) {
        Some(ValueSource::CommandLine) => "given",
        Some(ValueSource::DefaultValue) => "default",
        Some(_) => "other",
        None => "absent",
    };
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Say {
            words,
            separator,
            upper,
        } => {
            let text = words.join(&separator);
            let text = if upper { text.to_uppercase() } else { text };
            println!("{name}: {text}");
            println!("separator {}, verbose {}", source("separator"), cli.verbose);
        }
        Command::Plugin(words) => {
            println!("plugin: {} (verbose {})", words.join(" "), cli.verbose);
        }
        Command::Count { to } => {
            let numbers: Vec<String> = (1..=to).map(|n| n.to_string()).collect();
            println!("{name}: {} (to {})", numbers.join(","), source("to"));
            if to < 1 {
                std::process::exit(3);
            }
        }
    }
}
