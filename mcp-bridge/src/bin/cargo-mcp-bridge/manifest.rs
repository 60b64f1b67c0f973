//! The package's `Cargo.toml`, edited with a format-preserving TOML editor
//! (`toml_edit`): comments, order and spacing stay as they are.

use std::path::{Path, PathBuf};

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, Value};

const NAME: &str = "mcp-bridge";
/// What the package's manifest says of itself.
#[derive(Debug, Default)]
pub(crate) struct Package {
    pub(crate) has_lib: bool,
    /// The paths of its targets outside `src/` and its build script.
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) build: Option<PathBuf>,
}

/// Where the dependency comes from.
pub(crate) enum Source {
    /// The registry, at this version requirement.
    Version(String),
    /// A local checkout of mcp-bridge (its crate's folder).
    Path(PathBuf),
}

fn parse(text: &str) -> Result<DocumentMut, String> {
    text.parse::<DocumentMut>()
        .map_err(|error| format!("Cargo.toml: cannot parse it: {error}"))
}

/// The package's name, targets and build script.
pub(crate) fn package(text: &str, dir: &Path) -> Result<Package, String> {
    let doc = parse(text)?;
    let Some(package) = doc.get("package").and_then(Item::as_table_like) else {
        return Err(
            "Cargo.toml has no [package] (a workspace's manifest?): run it in the CLI's package, \
             or give --manifest-path <its Cargo.toml>"
                .to_owned(),
        );
    };
    let path_of = |item: &Item| item.get("path").and_then(Item::as_str).map(|p| dir.join(p));
    let mut paths = Vec::new();
    let lib = doc.get("lib");
    paths.extend(lib.and_then(path_of));
    if let Some(bins) = doc.get("bin").and_then(Item::as_array_of_tables) {
        paths.extend(
            bins.iter()
                .filter_map(|bin| bin.get("path").and_then(Item::as_str))
                .map(|p| dir.join(p)),
        );
    }
    let build = match package.get("build") {
        Some(item) if item.as_bool() == Some(false) => None,
        Some(item) => item.as_str().map(|p| dir.join(p)),
        None => Some(dir.join("build.rs")).filter(|p| p.exists()),
    };
    Ok(Package {
        has_lib: lib.is_some() || dir.join("src/lib.rs").exists(),
        paths,
        build,
    })
}

/// The dependency entry: `"0.1.0"`, or an inline table.
fn entry(source: &Source, optional: bool, features: &[&str]) -> Item {
    if let (Source::Version(version), false, []) = (source, optional, features) {
        return toml_edit::value(version.as_str());
    }
    let mut table = InlineTable::new();
    match source {
        Source::Version(version) => table.insert("version", version.as_str().into()),
        Source::Path(path) => table.insert("path", path.display().to_string().into()),
    };
    if optional {
        table.insert("optional", true.into());
    }
    if !features.is_empty() {
        table.insert(
            "features",
            Value::Array(features.iter().copied().collect::<Array>()),
        );
    }
    Item::Value(Value::InlineTable(table))
}

/// Sets `key` in the table `section`, made when missing; whether it was
/// set (an entry already there is kept).
fn add(doc: &mut DocumentMut, section: &str, key: &str, item: Item) -> bool {
    let table = doc
        .entry(section)
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_like_mut();
    let Some(table) = table else {
        return false;
    };
    if table.contains_key(key) {
        return false;
    }
    table.insert(key, item);
    true
}

/// The manifest with mcp-bridge as a dependency (optional, behind
/// `feature`, when one is given), with its `testing` feature for the
/// tests, and for the build script when it compiles the CLI's types too;
/// and what was added.
pub(crate) fn adopt(
    text: &str,
    source: &Source,
    feature: Option<&str>,
    build: bool,
) -> Result<(String, Vec<String>), String> {
    let mut doc = parse(text)?;
    let mut added = Vec::new();
    if let Some(feature) = feature {
        let has = doc.get("features").and_then(|f| f.get(feature)).is_some();
        if has
            && doc["features"][feature]
                .as_array()
                .is_none_or(|a| !is_ours(a))
        {
            return Err(format!(
                "Cargo.toml has a feature `{feature}` already: name another with --feature"
            ));
        }
        let enables: Array = [format!("dep:{NAME}")].into_iter().collect();
        if add(&mut doc, "features", feature, toml_edit::value(enables)) {
            added.push(format!("[features] {feature}"));
        }
    }
    let optional = feature.is_some();
    if add(&mut doc, "dependencies", NAME, entry(source, optional, &[])) {
        added.push(format!("[dependencies] {NAME}"));
    }
    if add(
        &mut doc,
        "dev-dependencies",
        NAME,
        entry(source, false, &["testing"]),
    ) {
        added.push(format!(
            "[dev-dependencies] {NAME} (features = [\"testing\"])"
        ));
    }
    if build
        && add(
            &mut doc,
            "build-dependencies",
            NAME,
            entry(source, optional, &[]),
        )
    {
        added.push(format!("[build-dependencies] {NAME}"));
    }
    Ok((doc.to_string(), added))
}

/// `["dep:mcp-bridge"]`: the feature `adopt` adds.
fn is_ours(array: &Array) -> bool {
    array.len() == 1 && array.get(0).and_then(Value::as_str) == Some(&format!("dep:{NAME}"))
}

/// The manifest without what `adopt` added: mcp-bridge in the three
/// dependency tables, the feature enabling it alone, and a table left
/// empty by that.
pub(crate) fn remove(text: &str) -> Result<String, String> {
    let mut doc = parse(text)?;
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(table) = doc.get_mut(section).and_then(Item::as_table_like_mut) else {
            continue;
        };
        if table.remove(NAME).is_some() && table.is_empty() {
            doc.remove(section);
        }
    }
    if let Some(features) = doc.get_mut("features").and_then(Item::as_table_like_mut) {
        let ours: Vec<String> = features
            .iter()
            .filter(|(_, item)| item.as_array().is_some_and(is_ours))
            .map(|(key, _)| key.to_owned())
            .collect();
        for key in &ours {
            features.remove(key);
        }
        if !ours.is_empty() && features.is_empty() {
            doc.remove("features");
        }
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "[package]\nname = \"demo\" # the CLI\nversion = \"0.1.0\"\n\n\
                            [dependencies]\n# parsing\nclap = { version = \"4\", features = [\"derive\"] }\n\n\
                            [profile.release]\nstrip = true\n";

    #[test]
    fn adopting_keeps_the_text_and_removing_restores_it_byte_for_byte() {
        for feature in [None, Some("mcp")] {
            let source = Source::Version("0.1.0".to_owned());
            let (adopted, added) = adopt(MANIFEST, &source, feature, true).unwrap();
            assert!(
                adopted.starts_with("[package]\nname = \"demo\" # the CLI\n"),
                "{adopted}"
            );
            assert!(adopted.contains("# parsing\nclap = "), "{adopted}");
            assert_eq!(added.len(), 3 + usize::from(feature.is_some()), "{added:?}");
            let again = adopt(&adopted, &source, feature, true).unwrap();
            assert_eq!(
                again,
                (adopted.clone(), Vec::new()),
                "a second run changes nothing"
            );
            assert_eq!(remove(&adopted).unwrap(), MANIFEST, "{adopted}");
        }
    }

    #[test]
    fn a_feature_of_the_name_already_there_is_refused() {
        let text = format!("{MANIFEST}[features]\nmcp = [\"clap/env\"]\n");
        let source = Source::Version("0.1.0".to_owned());
        let error = adopt(&text, &source, Some("mcp"), false).unwrap_err();
        assert!(error.contains("feature `mcp` already"), "{error}");
    }
}
