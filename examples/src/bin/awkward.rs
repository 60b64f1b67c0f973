//! `awkward`: small text tools whose clap types use the awkward corners of
//! clap's derive, served to AI assistants by mcp-bridge.
//!
//! ```text
//! awkward wc notes.txt --units lines,words
//! awkward shift -3 prices.txt
//! awkward say --sep=- -- -v is a word here
//! awkward mcp tools      # the tool definitions
//! awkward mcp serve      # serve over stdio
//! ```

use std::process::ExitCode;

use examples::awkward::{run, Cli};
use mcp_bridge::Bridge;

fn main() -> ExitCode {
    Bridge::<Cli>::new(run).run()
}
