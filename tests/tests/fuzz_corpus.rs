//! The fuzz targets' checks (`tests/src/fuzzing.rs`) on stable, over the
//! committed seeds and every input a fuzzer ever crashed on
//! (`tests/fuzz/seeds`, `tests/fuzz/regressions`): what the nightly fuzz
//! run starts from and must never break again. `docs/reliability.md`
//! says how to fuzz.

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files: Vec<PathBuf> = ["seeds", "regressions"]
        .iter()
        .flat_map(|kind| {
            std::fs::read_dir(fuzz.join(kind).join(target))
                .unwrap_or_else(|e| panic!("{kind}/{target}: {e}"))
                .map(|entry| entry.expect("a directory entry").path())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs for `{target}`");
    files
}

fn replay(target: &str, check: fn(&[u8])) {
    for file in inputs(target) {
        let data = std::fs::read(&file).expect("a readable input");
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("fuzz input `{target}/{name}` fails its check (the panic is above)");
        }
    }
}

#[test]
fn argument_inputs_pass() {
    replay("arguments", tests::fuzzing::arguments);
}

#[test]
fn line_inputs_pass() {
    replay("lines", tests::fuzzing::lines);
}

#[test]
fn output_inputs_pass() {
    replay("output", tests::fuzzing::output);
}
