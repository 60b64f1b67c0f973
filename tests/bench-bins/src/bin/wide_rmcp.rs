//! `wide_rmcp`: the 300 tools of `wide mcp serve`, served by a server
//! written by hand with rmcp, as a user without mcp-bridge would: one
//! argument type per tool (serde + schemars), schemas built at start-up,
//! a name → function table for `tools/call`. The baseline of the stdio
//! benchmark (`cargo bench -p tests --bench stdio`, see docs/benchmarks.md).
//!
//! ```text
//! wide_rmcp           # serve over stdio with rmcp::transport::stdio()
//! wide_rmcp --pipes   # ... with rmcp::transport::stdio_pipes()
//! ```

include!("../hand_written_rmcp.rs");
include!("../wide_tools.rs");

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    serve().await
}
