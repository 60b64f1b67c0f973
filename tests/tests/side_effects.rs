//! A library changes nothing else in its user's program: the features the
//! bridge turns on in crates its user shares with it leave out those that
//! change what those crates do (or the code they generate) elsewhere in
//! the program. Read from `cargo tree`, for the default features and for
//! every feature.

use std::process::Command;

/// The features of `krate` that building mcp-bridge (with `features`)
/// turns on.
fn features_of(krate: &str, features: &[&str]) -> Vec<String> {
    let workspace = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--locked",
            "-p",
            "mcp-bridge",
            "-e",
            "features,normal",
        ])
        .args(features)
        .args(["-i", krate, "--prefix", "none"])
        .current_dir(workspace)
        .output()
        .expect("run cargo tree");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let marker = format!("{krate} feature \"");
    let mut found: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix(&marker))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_bridge_turns_on_no_feature_that_changes_a_shared_crate() {
    for features in [&[][..], &["--all-features"][..]] {
        let clap = features_of("clap_builder", features);
        // Read at all: the features the bridge needs are there.
        assert!(clap.contains(&"env".to_owned()), "{features:?}: {clap:?}");
        // Owned text in clap's `Str`, `Id` and `OsStr`: the code clap's
        // derive writes in the user's crate costs a quarter more to
        // compile (docs/benchmarks.md).
        assert!(
            !clap.contains(&"string".to_owned()),
            "{features:?}: {clap:?}"
        );
        let json = features_of("serde_json", features);
        assert!(json.contains(&"std".to_owned()), "{features:?}: {json:?}");
        // Every `serde_json::Map` of the program would keep insertion
        // order; numbers and floats would read differently.
        for changing in ["preserve_order", "arbitrary_precision", "float_roundtrip"] {
            assert!(
                !json.contains(&changing.to_owned()),
                "{features:?}: {json:?}"
            );
        }
    }
}
