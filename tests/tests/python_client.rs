//! Real-client test: the official Python MCP SDK (pinned in
//! `tests/python/requirements.txt`) drives `taskctl mcp serve` over stdio,
//! and over Streamable HTTP with sessions and stateless; and `fleet`'s and
//! the fixture CLI's servers, for the features their attributes declare.
//!
//! `scripts/test-all.sh` creates the venv and sets `MCP_BRIDGE_PYTHON`.
//! Without it the test is skipped locally, but fails under CI, so a CI run
//! can never pass without having run the real client.

mod common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

fn python() -> Option<PathBuf> {
    common::installed("MCP_BRIDGE_PYTHON", "the Python SDK client")
}

fn run_client(protocol_version: Option<&str>) {
    run_client_over(protocol_version, None);
}

/// Over Streamable HTTP: `taskctl mcp serve --http` (with `extra`) started
/// here, the SDK given its URL.
fn run_client_over_http(protocol_version: Option<&str>, extra: &[&str]) {
    if python().is_none() {
        return;
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut cmd = tokio::process::Command::new(common::taskctl());
    cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
        .args(extra)
        .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
    let (_server, url) = runtime.block_on(common::http::spawn(cmd));
    run_client_over(protocol_version, Some(&url));
}

fn run_client_over(protocol_version: Option<&str>, url: Option<&str>) {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(python);
    command
        .arg(common::workspace_root().join("tests/python/taskctl_client.py"))
        .arg("--db")
        .arg(dir.path().join("tasks.json"))
        .args(["--timeout", "120"]);
    if let Some(version) = protocol_version {
        command.args(["--protocol-version", version]);
    }
    match url {
        Some(url) => {
            command.args(["--url", url]);
        }
        None => {
            command
                .arg("--")
                .arg(common::taskctl())
                .args(["mcp", "serve"]);
        }
    }
    let output = command.output().expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let summary = stdout.lines().last().unwrap_or_default().to_owned();
    assert!(
        output.status.success() && summary.ends_with("passed, 0 failed"),
        "Python SDK client failed ({:?}):\n{stdout}\n--- stderr ---\n{stderr}",
        output.status
    );
}

#[test]
fn python_sdk_client_with_default_handshake() {
    run_client(None);
}

#[test]
fn python_sdk_client_with_oldest_protocol_version() {
    run_client(Some("2024-11-05"));
}

#[test]
fn python_sdk_client_with_2026_07_28() {
    run_client(Some("2026-07-28"));
}

#[test]
fn python_sdk_client_over_http_with_sessions() {
    run_client_over_http(None, &[]);
}

#[test]
fn python_sdk_client_over_stateless_http() {
    run_client_over_http(None, &["--stateless"]);
}

#[test]
fn python_sdk_client_over_stateless_http_with_protocol_2026_07_28() {
    run_client_over_http(Some("2026-07-28"), &["--stateless"]);
}

/// Runs the Python client `script` (with `args`) against `bin serve...`:
/// over stdio, started by the SDK, or, with `http` (the extra arguments of
/// `--http`), started here and given to the script by its URL. `env` is
/// the server's. The script must end with `N passed, 0 failed`. Returns
/// the script's stderr (where a server it started logs), `None` when the
/// SDK is not installed.
fn run_script(
    script: &str,
    args: &[&OsStr],
    bin: &Path,
    serve: &[&OsStr],
    env: &[(&str, &OsStr)],
    http: Option<&[&str]>,
) -> Option<String> {
    let python = python()?;
    let mut command = Command::new(python);
    command
        .arg(common::workspace_root().join("tests/python").join(script))
        .args(args);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _server = match http {
        Some(extra) => {
            let mut cmd = tokio::process::Command::new(bin);
            cmd.args(serve)
                .args(["--http", "127.0.0.1:0"])
                .args(extra)
                .envs(env.iter().copied())
                .env("MCP_BRIDGE_LOG", "warn,mcp_bridge=info");
            let (server, url) = runtime.block_on(common::http::spawn(cmd));
            command.args(["--url", &url]);
            Some(server)
        }
        None => {
            // The scripts pass their environment on to the server.
            command
                .arg("--")
                .arg(bin)
                .args(serve)
                .envs(env.iter().copied());
            None
        }
    };
    let output = command.output().expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success() && stdout.trim_end().ends_with("passed, 0 failed"),
        "Python SDK client {script} failed ({:?}):\n{stdout}\n--- stderr ---\n{stderr}",
        output.status,
    );
    Some(stderr)
}

/// The grouped and search modes, help resources and example prompts
/// (`tests/python/tool_modes_client.py`),
/// over stdio, or over HTTP with `http` extra arguments.
fn run_modes_client(mode: &str, http: Option<&[&str]>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.json");
    let mut serve = vec![
        OsStr::new("--db"),
        db.as_os_str(),
        OsStr::new("mcp"),
        OsStr::new("serve"),
    ];
    match mode {
        "grouped" => serve.extend([OsStr::new("--grouped"), OsStr::new("1")]),
        "search" => serve.push(OsStr::new("--search")),
        _ => {}
    }
    let args = [OsStr::new("--mode"), OsStr::new(mode)];
    run_script(
        "tool_modes_client.py",
        &args,
        common::taskctl(),
        &serve,
        &[],
        http,
    );
}

#[test]
fn python_sdk_client_grouped_over_stdio() {
    run_modes_client("grouped", None);
}

#[test]
fn python_sdk_client_search_over_stdio() {
    run_modes_client("search", None);
}

#[test]
fn python_sdk_client_grouped_over_stateless_http() {
    run_modes_client("grouped", Some(&["--stateless"]));
}

#[test]
fn python_sdk_client_search_over_http_with_sessions() {
    run_modes_client("search", Some(&[]));
}

#[test]
fn python_sdk_client_resources_and_prompts_over_stdio() {
    run_modes_client("resources", None);
}

#[test]
fn python_sdk_client_resources_and_prompts_over_http() {
    run_modes_client("resources", Some(&[]));
}

/// fleet's host names fetched at run time (`#[mcp(values)]`): the enum,
/// a refusal, a host added, `notifications/tools/list_changed`
/// (`tests/python/tool_modes_client.py --mode values`), over stdio or
/// over HTTP with sessions.
fn run_values_client(http: bool) {
    let dir = tempfile::tempdir().unwrap();
    let inventory = dir.path().join("inventory.json");
    std::fs::write(
        &inventory,
        r#"[{"name": "a-1", "region": "north", "cores": 4, "services": []},
            {"name": "b-1", "region": "north", "cores": 4, "services": []}]"#,
    )
    .unwrap();
    let args = ["--mode", "values", "--inventory"].map(OsStr::new);
    let args = [&args[..], &[inventory.as_os_str()]].concat();
    let serve = ["mcp", "serve", "--flat"].map(OsStr::new);
    let env = [("FLEET_INVENTORY", inventory.as_os_str())];
    let http: Option<&[&str]> = if http { Some(&[]) } else { None };
    run_script(
        "tool_modes_client.py",
        &args,
        common::fleet(),
        &serve,
        &env,
        http,
    );
}

#[test]
fn python_sdk_client_fetched_values_over_stdio() {
    run_values_client(false);
}

#[test]
fn python_sdk_client_fetched_values_over_http_with_sessions() {
    run_values_client(true);
}

/// A handler's question answered through the SDK's elicitation callback,
/// and refused to a client without one (`tests/python/ask_client.py`,
/// the fixture CLI with an `Io` handler), over stdio or HTTP (`http`: the
/// extra arguments of `serve --http`), negotiating `mode`.
fn run_ask_client(mode: &str, http: Option<&[&str]>) {
    let fixture = Path::new(env!("CARGO_BIN_EXE_fixture_cli"));
    let args = [OsStr::new("--mode"), OsStr::new(mode)];
    let serve = ["ai", "serve"].map(OsStr::new);
    let env = [("FIXTURE_BRIDGE_NAME", OsStr::new("ai"))];
    run_script("ask_client.py", &args, fixture, &serve, &env, http);
}

#[test]
fn python_sdk_client_answers_a_question_over_stdio() {
    run_ask_client("legacy", None);
}

#[test]
fn python_sdk_client_answers_a_question_over_http_with_sessions() {
    run_ask_client("legacy", Some(&[]));
}

#[test]
fn python_sdk_client_answers_a_question_in_rounds_with_2026_07_28() {
    run_ask_client("2026-07-28", None);
}

#[test]
fn python_sdk_client_answers_a_question_in_rounds_over_stateless_http() {
    run_ask_client("2026-07-28", Some(&["--stateless"]));
}

/// fleet as the Python SDK sees it (`tests/python/features_client.py
/// --mode fleet`): `deploy --limits`'s object schema, an object reaching
/// the handler and shapes refused naming `limits`; a table, lines and
/// YAML parsed into structured content; `host show`'s fixed `format` not
/// offered, and refused when given.
fn run_fleet_features(http: Option<&[&str]>) {
    let serve = ["mcp", "serve", "--flat"].map(OsStr::new);
    let args = ["--mode", "fleet"].map(OsStr::new);
    run_script(
        "features_client.py",
        &args,
        common::fleet(),
        &serve,
        &[],
        http,
    );
}

#[test]
fn python_sdk_client_fleet_features_over_stdio() {
    run_fleet_features(None);
}

#[test]
fn python_sdk_client_fleet_features_over_stateless_http() {
    run_fleet_features(Some(&["--stateless"]));
}

/// The fixture CLI as the Python SDK sees it (`features_client.py --mode
/// fixture`): icons, the name shortened under `max_name_len`, a table that
/// does not parse sent as text alone. Returns what the script's stderr
/// holds (the server's log, over stdio).
fn run_fixture_features(http: Option<&[&str]>) -> Option<String> {
    let fixture = Path::new(env!("CARGO_BIN_EXE_fixture_cli"));
    let serve = ["ai", "serve"].map(OsStr::new);
    let args = ["--mode", "fixture"].map(OsStr::new);
    let env = [
        ("FIXTURE_BRIDGE_NAME", OsStr::new("ai")),
        ("FIXTURE_HANDLER", OsStr::new("plain")),
    ];
    run_script("features_client.py", &args, fixture, &serve, &env, http)
}

#[test]
fn python_sdk_client_fixture_features_over_stdio() {
    let Some(log) = run_fixture_features(None) else {
        return;
    };
    let warning = "output not parsed: sent as text only tool=\"fixture_sizes\" format=Table \
                   why=row 3 does not line up with the header's columns";
    assert_eq!(log.matches(warning).count(), 1, "{log}");
}

#[test]
fn python_sdk_client_fixture_features_over_http_with_sessions() {
    run_fixture_features(Some(&[]));
}

/// taskctl's search mode with pinned tools as the Python SDK sees it
/// (`features_client.py --mode pins`).
fn run_pinned_client(http: Option<&[&str]>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.json");
    let mut serve = vec![OsStr::new("--db"), db.as_os_str()];
    serve.extend(
        [
            "mcp",
            "serve",
            "--search",
            "--pin",
            "taskctl_stats*",
            "--pin",
            "taskctl_task_add",
        ]
        .map(OsStr::new),
    );
    let args = ["--mode", "pins"].map(OsStr::new);
    run_script(
        "features_client.py",
        &args,
        common::taskctl(),
        &serve,
        &[],
        http,
    );
}

#[test]
fn python_sdk_client_pinned_tools_over_stdio() {
    run_pinned_client(None);
}

#[test]
fn python_sdk_client_pinned_tools_over_http_with_sessions() {
    run_pinned_client(Some(&[]));
}
