// clap's own derive refuses these types too (after this error, with a list
// of the traits its `value_parser!` tried). It is left out here so that the
// expected output is mcp-bridge's alone; a field without `#[arg]` is a
// positional argument, as for clap.
use mcp_bridge::McpTool;

#[derive(McpTool)]
struct Cli {
    name: &'static str,
    pair: Option<(String, u32)>,
    callback: fn(u32) -> u32,
    bytes: [u8; 4],
    handler: Box<dyn Fn()>,
    pointer: Vec<*const u8>,
}

fn main() {}
