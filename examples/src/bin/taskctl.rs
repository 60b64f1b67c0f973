//! `taskctl`: a small task list kept in a JSON file, served to AI
//! assistants by mcp-bridge.
//!
//! ```text
//! taskctl task add "Write the report" --priority 5 --tag work
//! taskctl task list --all
//! taskctl mcp tools      # the tool definitions
//! taskctl mcp serve      # serve over stdio
//! ```

use std::process::ExitCode;

use examples::taskctl::{run, Cli};
use mcp_bridge::Bridge;

fn main() -> ExitCode {
    Bridge::<Cli>::new(run).run()
}
