//! `tally`: counts and finds in text files. Its `main` is written as any
//! clap CLI's is (it reads an environment variable, prints with
//! `println!`, and ends with `std::process::exit` and its own codes); it
//! adopted mcp-bridge by one line, `mcp_bridge::parse::<Cli>()` in place of
//! `Cli::parse()`, and `McpTool` beside clap's derives.
//!
//! ```text
//! tally count notes.txt          # as before
//! tally mcp serve                # each tool call runs this main in a process of its own
//! ```

use std::path::PathBuf;
use std::process::exit;

use clap::{Parser, Subcommand};
use mcp_bridge::McpTool;

/// Count and find in text files.
#[derive(Parser, McpTool, Debug)]
#[command(name = "tally", version)]
struct Cli {
    /// Print file names as given, without the folder
    #[arg(long, global = true)]
    short_names: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug)]
enum Command {
    /// Count the lines, words and bytes of files
    Count {
        /// The files to count
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Count only lines
        #[arg(short, long)]
        lines: bool,
    },
    /// Print the lines of files holding a word
    Find {
        /// The word
        word: String,
        /// The files to search
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Ignore case
        #[arg(short, long)]
        ignore_case: bool,
    },
}

fn main() {
    let cli = mcp_bridge::parse::<Cli>();
    // What the CLI read after parsing, as real CLIs do.
    let separator = std::env::var("TALLY_SEPARATOR").unwrap_or_else(|_| "\t".to_owned());
    let name = |path: &PathBuf| match (cli.short_names, path.file_name()) {
        (true, Some(name)) => name.to_string_lossy().into_owned(),
        _ => path.display().to_string(),
    };
    let mut missing = 0;
    match &cli.command {
        Command::Count { files, lines } => {
            for file in files {
                let Ok(text) = std::fs::read_to_string(file) else {
                    eprintln!("tally: {}: cannot read it", file.display());
                    missing += 1;
                    continue;
                };
                let count = text.lines().count();
                match lines {
                    true => println!("{count}{separator}{}", name(file)),
                    false => println!(
                        "{count}{separator}{}{separator}{}{separator}{}",
                        text.split_whitespace().count(),
                        text.len(),
                        name(file)
                    ),
                }
            }
        }
        Command::Find {
            word,
            files,
            ignore_case,
        } => {
            let word = if *ignore_case {
                word.to_lowercase()
            } else {
                word.clone()
            };
            let mut found = false;
            for file in files {
                let Ok(text) = std::fs::read_to_string(file) else {
                    eprintln!("tally: {}: cannot read it", file.display());
                    missing += 1;
                    continue;
                };
                for (number, line) in text.lines().enumerate() {
                    let seen = if *ignore_case {
                        line.to_lowercase()
                    } else {
                        line.to_owned()
                    };
                    if seen.contains(&word) {
                        found = true;
                        println!("{}:{}:{line}", name(file), number + 1);
                    }
                }
            }
            if !found && missing == 0 {
                exit(1);
            }
        }
    }
    exit(if missing > 0 { 2 } else { 0 });
}
