//! `narrow_rmcp`: the one tool of `narrow mcp serve`, served by a server
//! written by hand with rmcp; the same code as `wide_rmcp` with one tool
//! instead of 300. The baseline of the stdio benchmark
//! (`cargo bench -p tests --bench stdio`, see docs/benchmarks.md).
//!
//! ```text
//! narrow_rmcp           # serve over stdio with rmcp::transport::stdio()
//! narrow_rmcp --pipes   # ... with rmcp::transport::stdio_pipes()
//! ```

include!("../hand_written_rmcp.rs");

tools! {
    "narrow_": c000
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    serve().await
}
