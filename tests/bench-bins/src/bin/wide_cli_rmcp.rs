//! `wide_cli_rmcp`: the `wide` CLI (`src/wide.rs`) with the server of
//! `wide_rmcp` added, as a CLI's author who writes the server by hand
//! ships it: the baseline of what adopting mcp-bridge costs a 300-command
//! CLI in binary size (`scripts/bench-adopt.py`, docs/benchmarks.md).
//!
//! ```text
//! wide_cli_rmcp c042 Ann --count 2   # the CLI
//! wide_cli_rmcp mcp                  # 300 tools, wide_c000 … wide_c299
//! ```

include!("../hand_written_rmcp.rs");
include!("../wide.rs");

wide_commands!(wide_cli[]);

include!("../wide_tools.rs");

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    use clap::Parser;
    if std::env::args_os().nth(1).is_some_and(|a| a == "mcp") {
        return serve().await;
    }
    run(Cli::parse(), &mut std::io::stdout().lock())?;
    Ok(())
}
