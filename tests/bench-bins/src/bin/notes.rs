//! `notes`: the `notes` CLI with `McpTool` added and `Bridge` for its
//! `main` (docs/benchmarks.md, "What adopting costs").
//!
//! ```text
//! notes list --limit 1   # the CLI
//! notes mcp serve        # its three commands as tools
//! ```

use std::process::ExitCode;

include!("../notes.rs");

notes_cli!(mcp_bridge::McpTool);

async fn run(cli: Cli) {
    print!("{}", notes(cli).await);
}

fn main() -> ExitCode {
    mcp_bridge::Bridge::new(run).run()
}
