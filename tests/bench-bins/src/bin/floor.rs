//! `floor`: the least a stdio MCP server can do per call, the floor the
//! stdio benchmark (`cargo bench -p tests --bench stdio`, see
//! docs/benchmarks.md) holds the servers' CPU per call against. One
//! thread reads a request line, parses it with serde_json, and writes an
//! answer computed before the first request, with the request's id put
//! in. It runs no tool and checks no argument: what it costs is reading,
//! parsing and writing a line.
//!
//! ```text
//! floor 300 wide_   # lists 300 tools, wide_c000 ... wide_c299
//! ```

use std::io::{BufRead, BufWriter, Write};

use serde_json::{json, Value};

fn main() {
    let mut args = std::env::args().skip(1);
    let tools: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let prefix = args.next().unwrap_or_default();
    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "floor", "version": "0"},
    });
    let list = json!({
        "tools": (0..tools)
            .map(|n| json!({
                "name": format!("{prefix}c{n:03}"),
                "description": "Greet someone, a number of times",
                "inputSchema": {"type": "object"},
            }))
            .collect::<Vec<_>>(),
    });
    let call = json!({
        "content": [{"type": "text", "text": "C000: hello Ann x2\n"}],
        "isError": false,
    });
    // Each answer as the text after its id: `{"jsonrpc":"2.0","id":` + id
    // + this.
    let tail = |result: &Value| format!(r#","result":{result}}}"#);
    let (initialize, list, call) = (tail(&initialize), tail(&list), tail(&call));

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = request.get("id") else {
            continue; // a notification
        };
        let answer = match request.get("method").and_then(Value::as_str) {
            Some("initialize") => &initialize,
            Some("tools/list") => &list,
            Some("tools/call") => &call,
            _ => continue,
        };
        let written = write!(output, r#"{{"jsonrpc":"2.0","id":{id}{answer}"#)
            .and_then(|()| output.write_all(b"\n"))
            .and_then(|()| output.flush());
        if written.is_err() {
            break;
        }
    }
}
