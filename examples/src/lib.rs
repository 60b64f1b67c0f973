//! Example CLIs for mcp-bridge. Each lives in a module (its clap types and
//! its handler) so tests can use the same types the binary serves.

pub mod awkward;
pub mod fleet;
pub mod taskctl;
