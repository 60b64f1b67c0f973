//! The adoption corpus: CLIs written the way popular clap CLIs are written
//! (not the way mcp-bridge's own examples are), each with nothing but
//! `McpTool` added to its derive lists. `tests/tests/adoption.rs` checks
//! that each one's MCP surface matches clap and that calls build the same
//! values clap parses.

pub mod conv;
pub mod corners;
pub mod forms;
pub mod pkg;
pub mod seek;
pub mod ship;
pub mod total;
pub mod vcs;
