//! `fleet`: a few hosts and the services on them, served to AI assistants
//! by mcp-bridge, one tool per top-level command (see `examples/src/fleet.rs`).
//!
//! ```text
//! fleet host list
//! fleet mcp tools        # the tool definitions, grouped
//! fleet mcp serve        # serve over stdio
//! ```

use std::process::ExitCode;

use examples::fleet::run;
use mcp_bridge::{Bridge, ToolMode};

fn main() -> ExitCode {
    Bridge::new(run)
        .tool_mode(ToolMode::Grouped { depth: 1 })
        .run()
}
