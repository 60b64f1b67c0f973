// The `notes` CLI of the CLI-mode and size benchmarks (docs/benchmarks.md,
// "What adopting costs"): three commands and a root option, an async
// handler, the shape of a small CLI that adds MCP. Included by
// `bin/notes.rs` (with `McpTool`), `bin/notes_plain.rs` (the same CLI
// without the bridge) and `bin/notes_rmcp.rs` (the same CLI with a
// hand-written rmcp server), each giving its own derive list, so that the
// three differ in nothing else. Plain comments: this file is `include!`d.

use std::path::PathBuf;

/// The CLI's types, with `$derive` added to both derive lists.
macro_rules! notes_cli {
    ($($derive:path),*) => {
        /// Keep short notes in a file.
        #[derive(clap::Parser, Debug $(, $derive)*)]
        #[command(name = "notes", version)]
        pub(crate) struct Cli {
            /// The notes file
            #[arg(long, default_value = "notes.json")]
            db: PathBuf,
            #[command(subcommand)]
            command: Command,
        }

        #[derive(clap::Subcommand, Debug $(, $derive)*)]
        pub(crate) enum Command {
            /// Add a note
            Add {
                /// What the note says
                text: String,
                /// Tags to file it under
                #[arg(long, short)]
                tag: Vec<String>,
            },
            /// List the newest notes
            List {
                /// How many
                #[arg(long, default_value_t = 10)]
                limit: usize,
                /// Only those with this tag
                #[arg(long)]
                tag: Option<String>,
            },
            /// Remove a note
            Remove {
                /// The note's number
                id: u32,
            },
        }
    };
}

/// What each command does: the same text in every variant of the CLI.
async fn notes(cli: Cli) -> String {
    tokio::task::yield_now().await;
    let db = cli.db.display();
    match cli.command {
        Command::Add { text, tag } => format!("{db}: added {text:?} tagged {tag:?}\n"),
        Command::List { limit, tag } => format!("{db}: the newest {limit} notes, tag {tag:?}\n"),
        Command::Remove { id } => format!("{db}: removed note {id}\n"),
    }
}
