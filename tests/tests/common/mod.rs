//! Shared by the integration tests that run a server binary: locating
//! `taskctl`, and the raw-pipe harness (`raw`). Each test binary uses part
//! of it.

#![allow(dead_code)]

pub mod http;
pub mod raw;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The folder `scripts/node-tools.sh` installs the Node test tools in
/// (`MCP_BRIDGE_NODE_TOOLS`, set by `scripts/test-all.sh`). Without it a
/// test is skipped locally, but fails under CI, so a CI run can never pass
/// without having run those clients.
pub fn node_tools() -> Option<PathBuf> {
    installed("MCP_BRIDGE_NODE_TOOLS", "the Node clients")
}

/// A real client's path that `scripts/test-all.sh` puts in `var`: `None`
/// (the test skips `what`) locally without it; under CI a missing one
/// fails the test.
pub fn installed(var: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(path) => Some(PathBuf::from(path)),
        None if std::env::var_os("CI").is_some() => {
            panic!("{var} is not set; run the tests with scripts/test-all.sh")
        }
        None => {
            eprintln!("skipped: set {var} (scripts/test-all.sh does) to run {what}");
            None
        }
    }
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `taskctl` binary, built once per test process. (Binaries of another
/// package have no `CARGO_BIN_EXE_*`, so it is built and located here.)
pub fn taskctl() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| example_bin("taskctl"))
}

/// The `awkward` example binary, built once per test process.
pub fn awkward() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| example_bin("awkward"))
}

/// The `fleet` example binary, built once per test process.
pub fn fleet() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| example_bin("fleet"))
}

/// An example binary, built (when it is not up to date) and located.
pub fn example_bin(name: &str) -> PathBuf {
    let workspace = workspace_root();
    let output = Command::new(env!("CARGO"))
        .args(["build", "-q", "-p", "examples", "--bin", name])
        .current_dir(&workspace)
        .output()
        .expect("run cargo build");
    assert!(
        output.status.success(),
        "cargo build of {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => workspace.join(dir),
        None => option_env!("CARGO_TARGET_TMPDIR")
            .and_then(|tmp| Path::new(tmp).parent().map(Path::to_path_buf))
            .unwrap_or_else(|| workspace.join("target")),
    };
    let bin = target
        .join("debug")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(bin.is_file(), "{name} not found at {}", bin.display());
    bin
}

/// A tool result's text read back into `(stdout, stderr, exit code)`: the
/// text is stdout, then stderr under a `[stderr]` line, then a failure's
/// `[exit code N]`. Also checks `isError` matches the exit code and that
/// the output is sent once (`structuredContent` only as the printed JSON,
/// parsed).
pub fn outcome(result: &serde_json::Value) -> (String, String, i64) {
    let text = result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text result: {result}"));
    assert_eq!(
        result["content"].as_array().map(Vec::len),
        Some(1),
        "one text: {result}"
    );
    // Structured content only where the command declares its output:
    // printed JSON parsed (`#[mcp(output = "json")]`), then equal to the
    // text; or a value the handler returned (`#[mcp(output = Type)]`),
    // whose text is the handler's (`task list`'s lines), checked by the
    // caller against the data.
    if let Some(structured) = result.get("structuredContent") {
        if let Ok(parsed) = serde_json::from_str::<serde_json::Value>(text) {
            assert_eq!(&parsed, structured, "the printed JSON, parsed: {result}");
        }
    }
    let (rest, code) = match text.rfind("[exit code ") {
        Some(at) if text.ends_with(']') => {
            let code = text[at + "[exit code ".len()..text.len() - 1]
                .parse()
                .expect("an exit code");
            // The output before it ends with a newline (one is added when
            // it has none).
            (&text[..at], code)
        }
        _ => (text, 0),
    };
    let (stdout, stderr) = match rest.find("[stderr]\n") {
        Some(0) => (String::new(), rest["[stderr]\n".len()..].to_owned()),
        Some(at) if rest[..at].ends_with('\n') => (
            rest[..at].to_owned(),
            rest[at + "[stderr]\n".len()..].to_owned(),
        ),
        _ => (rest.to_owned(), String::new()),
    };
    assert_eq!(
        result["isError"],
        serde_json::json!(code != 0),
        "isError matches the exit code: {result}"
    );
    (stdout, stderr, code)
}
