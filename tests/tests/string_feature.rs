//! A CLI that turns on clap's `string` feature (`tests/string-feature/`),
//! built and tested as a package of its own: in this workspace clap has the
//! feature off, and features unify within one build. Its lock file is this
//! workspace's, so both build the same versions.

mod common;

use std::process::Command;

#[test]
fn a_cli_with_clap_string_feature_adopts() {
    let root = common::workspace_root();
    let package = root.join("tests/string-feature");
    std::fs::copy(root.join("Cargo.lock"), package.join("Cargo.lock"))
        .expect("the lock file is copied");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .arg("test")
        .arg("--manifest-path")
        .arg(package.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(root.join("target/string-feature"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the string-feature package fails:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
