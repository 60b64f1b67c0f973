//! `wide`: a CLI with 300 commands, for the stdio benchmark
//! (`cargo bench -p tests --bench stdio`, see docs/benchmarks.md).
//!
//! Every command `c000` … `c299` takes a positional name and a
//! `--count` flag and prints one line (the CLI is `src/wide.rs`). The
//! hand-written rmcp server serving the same tools is `wide_rmcp`, and
//! `wide_cli_rmcp` is this CLI with that server; the one-command variants
//! are `narrow` and `narrow_rmcp`.
//!
//! ```text
//! wide c042 Ann --count 2     # the CLI
//! wide mcp serve              # 300 tools, wide_c000 … wide_c299
//! ```

use std::process::ExitCode;

use mcp_bridge::{Bridge, Io};

include!("../wide.rs");

wide_commands!(wide_cli[mcp_bridge::McpTool]);

fn main() -> ExitCode {
    Bridge::new(|cli: Cli, io: &mut Io<'_>| run(cli, io.out())).run()
}
