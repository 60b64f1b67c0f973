//! Compile-time checks of `#[derive(McpTool)]`: every rule of
//! `docs/compile-checks.md` has a failing case in `ui/*.rs` with the exact
//! error in `ui/*.stderr`, and `ui/pass/*.rs` compile.
//!
//! Compiler messages change between Rust releases, so the `.stderr` files
//! hold for the toolchain written in `ui/TOOLCHAIN`. With another one the
//! suite is skipped (and fails under `CI`, where the toolchain is pinned).
//! To update the files after a change: `TRYBUILD=overwrite cargo test -p
//! tests --test ui`, then review the diff.

use std::path::Path;
use std::process::Command;

fn rustc_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc)
        .arg("--version")
        .output()
        .expect("run rustc --version");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[test]
fn ui() {
    let pinned_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/TOOLCHAIN");
    let pinned = std::fs::read_to_string(&pinned_file)
        .expect("read ui/TOOLCHAIN")
        .trim()
        .to_owned();
    let current = rustc_version();
    if current != pinned {
        let message = format!(
            "UI tests skipped: their .stderr files were made with `{pinned}` (ui/TOOLCHAIN), this is `{current}`"
        );
        if std::env::var_os("CI").is_some() {
            panic!("{message}; CI must run the pinned toolchain");
        }
        eprintln!("{message}");
        return;
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
    cases.pass("ui/pass/*.rs");
}
