//! Shared by the integration tests that run a server binary: locating
//! `taskctl`, and the raw-pipe harness (`raw`). Each test binary uses part
//! of it.

#![allow(dead_code)]

pub mod raw;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `taskctl` binary, built once per test process. (Binaries of another
/// package have no `CARGO_BIN_EXE_*`, so it is built and located here.)
pub fn taskctl() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let workspace = workspace_root();
        let output = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "examples", "--bin", "taskctl"])
            .current_dir(&workspace)
            .output()
            .expect("run cargo build");
        assert!(
            output.status.success(),
            "cargo build of taskctl failed:\n{}",
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
            .join(format!("taskctl{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "taskctl not found at {}", bin.display());
        bin
    })
}
