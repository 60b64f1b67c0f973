//! The bytes of `tools/list` for the 300-command benchmark CLI: what an
//! assistant pays for on every turn. It must stay within a budget, and at
//! or below what the hand-written rmcp server sends for the same tools.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The budget: 100,246 bytes when this test was written (the
/// hand-written rmcp server's list was 132,346).
const BUDGET: usize = 105_000;

/// The budget of the grouped mode (the whole CLI as one tool): 15,4xx
/// bytes when written; the goal was 20 KB.
const GROUPED_BUDGET: usize = 20_000;

/// The search mode lists two tools whatever the CLI's size.
const SEARCH_BUDGET: usize = 2_000;

/// The `tools/list` response line of a server over stdio.
fn listed(bin: &str, args: &[&str]) -> String {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let mut stdin = child.stdin.take().unwrap();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"size","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.contains(r#""id":2"#) {
                let _ = tx.send(line);
                break;
            }
        }
    });
    let line = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("a tools/list answer within 30 s");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    line
}

#[test]
fn the_300_command_tool_list_stays_lean() {
    let ours = listed(env!("CARGO_BIN_EXE_wide"), &["mcp", "serve"]);
    let theirs = listed(env!("CARGO_BIN_EXE_wide_rmcp"), &["--pipes"]);
    let count = ours.matches(r#""inputSchema""#).count();
    assert_eq!(count, 300);
    assert!(
        ours.len() <= BUDGET,
        "tools/list grew to {} bytes (budget {BUDGET})",
        ours.len()
    );
    assert!(
        ours.len() <= theirs.len(),
        "tools/list is {} bytes, the hand-written rmcp server's {}",
        ours.len(),
        theirs.len()
    );
    let grouped = listed(env!("CARGO_BIN_EXE_wide"), &["mcp", "serve", "--grouped"]);
    let search = listed(env!("CARGO_BIN_EXE_wide"), &["mcp", "serve", "--search"]);
    assert_eq!(grouped.matches(r#""inputSchema""#).count(), 1);
    assert!(grouped.contains(r#""c299""#), "every command reachable");
    assert!(
        grouped.len() <= GROUPED_BUDGET,
        "grouped tools/list grew to {} bytes (budget {GROUPED_BUDGET})",
        grouped.len()
    );
    assert!(
        search.len() <= SEARCH_BUDGET,
        "search tools/list grew to {} bytes (budget {SEARCH_BUDGET})",
        search.len()
    );
    // The figures docs/benchmarks.md quotes (tokens: bytes / 4, the usual
    // estimate for English and JSON).
    println!("tools/list of the 300-command CLI: bytes, ~tokens");
    for (what, line) in [
        ("mcp-bridge, flat", &ours),
        ("mcp-bridge, --grouped", &grouped),
        ("mcp-bridge, --search", &search),
        ("hand-written rmcp", &theirs),
    ] {
        println!("{what:24} {:>8} {:>8}", line.len(), line.len() / 4);
    }
}
