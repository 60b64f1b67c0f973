//! `notes_plain`: the `notes` CLI without MCP, the baseline of what
//! adopting costs (docs/benchmarks.md, "What adopting costs").
//!
//! ```text
//! notes_plain list --limit 1
//! ```

include!("../notes.rs");

notes_cli!();

#[tokio::main]
async fn main() {
    use clap::Parser;
    print!("{}", notes(Cli::parse()).await);
}
