//! `notes_rmcp`: the `notes` CLI with an MCP server written by hand with
//! rmcp's `#[tool]` macros, as its documentation shows: the baseline of
//! what adopting mcp-bridge costs in binary size and build time
//! (docs/benchmarks.md, "What adopting costs").
//!
//! ```text
//! notes_rmcp list --limit 1   # the CLI
//! notes_rmcp mcp              # its three commands as tools, over stdio
//! ```

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router, ServiceExt};

include!("../notes.rs");

notes_cli!();

/// The arguments of each tool: the command's, and the root's `--db`.
mod params {
    use std::path::PathBuf;

    fn db() -> PathBuf {
        PathBuf::from("notes.json")
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub(crate) struct Add {
        /// The notes file
        #[serde(default = "db")]
        pub(crate) db: PathBuf,
        /// What the note says
        pub(crate) text: String,
        /// Tags to file it under
        #[serde(default)]
        pub(crate) tag: Vec<String>,
    }

    fn ten() -> usize {
        10
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub(crate) struct List {
        /// The notes file
        #[serde(default = "db")]
        pub(crate) db: PathBuf,
        /// How many
        #[serde(default = "ten")]
        pub(crate) limit: usize,
        /// Only those with this tag
        pub(crate) tag: Option<String>,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub(crate) struct Remove {
        /// The notes file
        #[serde(default = "db")]
        pub(crate) db: PathBuf,
        /// The note's number
        pub(crate) id: u32,
    }
}

struct Server;

#[tool_router(server_handler)]
impl Server {
    /// Add a note
    #[tool(name = "notes_add")]
    async fn add(&self, Parameters(p): Parameters<params::Add>) -> String {
        let (text, tag) = (p.text, p.tag);
        notes(Cli {
            db: p.db,
            command: Command::Add { text, tag },
        })
        .await
    }

    /// List the newest notes
    #[tool(name = "notes_list")]
    async fn list(&self, Parameters(p): Parameters<params::List>) -> String {
        let (limit, tag) = (p.limit, p.tag);
        notes(Cli {
            db: p.db,
            command: Command::List { limit, tag },
        })
        .await
    }

    /// Remove a note
    #[tool(name = "notes_remove")]
    async fn remove(&self, Parameters(p): Parameters<params::Remove>) -> String {
        notes(Cli {
            db: p.db,
            command: Command::Remove { id: p.id },
        })
        .await
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    use clap::Parser;
    if std::env::args_os().nth(1).is_some_and(|a| a == "mcp") {
        let running = Server.serve(rmcp::transport::stdio()).await?;
        running.waiting().await?;
        return Ok(());
    }
    print!("{}", notes(Cli::parse()).await);
    Ok(())
}
