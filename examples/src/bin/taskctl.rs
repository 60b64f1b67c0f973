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

use examples::taskctl::run;
use mcp_bridge::Bridge;

// Before the bridge, this was:
//
//     fn main() -> Result<(), TaskError> {
//         run(Cli::parse())
//     }
//
// (`run` has since returned `task list`'s tasks as data, an
// `Option<mcp_bridge::Output>`, which the bridge prints in the terminal.)
fn main() -> ExitCode {
    Bridge::new(run).run()
}
