//! The runtime's modules import one way, down the pipeline: a module uses
//! only the modules below it (see `docs/architecture.md`). A module that
//! needs something from above it holds a misplaced item: move the item,
//! don't add the arrow.
//!
//! This reads the sources of `mcp-bridge/src` and checks every `crate::`
//! path in code (comments excluded) against the order below.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top to bottom. A module may use those after it; `error`, `io`,
/// `handler`, `handoff`, `ordered`, `spawn` and `trace` are leaves every
/// layer may use.
const LAYERS: &[&str] = &[
    "testing",
    "bridge",
    "install",
    "server_json",
    "serve",
    "registry",
    "traits",
    "call",
    "spec",
];
const LEAVES: &[&str] = &[
    "error", "io", "handler", "handoff", "ordered", "spawn", "trace",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`spec/param.rs` → `spec`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
    let first = relative.components().next().expect("a path");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_owned()
}

/// The top-level modules a file's code names through `crate::`, whether in
/// `use crate::x` or `use crate::{x, y}` or a path in an expression.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                group[..end]
                    .split(',')
                    .map(|part| part.trim().split("::").next().unwrap_or(""))
                    .collect()
            } else {
                vec![rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")]
            };
            for name in names {
                if !name.is_empty() {
                    used.insert(name.to_owned());
                }
            }
        }
    }
    used
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|m| *m == module)
}

#[test]
fn runtime_modules_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp-bridge/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "lib" {
            continue; // the table of contents re-exports everything
        }
        if module == "bin" {
            continue; // `cargo mcp-bridge` (`bin/`): a crate of its own
        }
        seen.insert(module.clone());
        let text = std::fs::read_to_string(file).expect("read a source file");
        for used in used_modules(&text) {
            if used == module || LEAVES.contains(&used.as_str()) {
                continue;
            }
            let allowed = match (rank(&module), rank(&used)) {
                (Some(from), Some(to)) => to > from,
                // A leaf uses nothing of the crate's layers.
                (None, _) => false,
                // Something that is not a module (a root re-export).
                (_, None) => false,
            };
            if !allowed {
                wrong.push(format!(
                    "{}: `{module}` uses `crate::{used}`",
                    file.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer order {LAYERS:?} (leaves {LEAVES:?}):\n{}",
        wrong.join("\n")
    );
    // Every top-level module is placed in the order.
    for module in &seen {
        assert!(
            rank(module).is_some() || LEAVES.contains(&module.as_str()),
            "module `{module}` is not in the layer order of tests/layers.rs"
        );
    }
}

#[test]
fn the_checker_sees_every_form_of_import() {
    let used = used_modules(
        "use crate::spec::ParamSpec;\nuse crate::{call::BuildCtx, error::ArgError};\n// crate::serve in a comment\nlet x = crate::registry::rules::MAX;\n",
    );
    let used: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(used, ["call", "error", "registry", "spec"]);
}
