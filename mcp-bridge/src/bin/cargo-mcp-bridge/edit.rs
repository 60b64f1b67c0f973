//! Changes to a package's files: edits at byte ranges of a file's text,
//! and the change to each file, shown as a diff or written.

use std::ops::Range;
use std::path::{Path, PathBuf};

/// Replaces the bytes of `at` with `text` (an insertion when `at` is
/// empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) at: Range<usize>,
    pub(crate) text: String,
}

impl Edit {
    pub(crate) fn insert(at: usize, text: impl Into<String>) -> Self {
        Self {
            at: at..at,
            text: text.into(),
        }
    }

    pub(crate) fn delete(at: Range<usize>) -> Self {
        Self {
            at,
            text: String::new(),
        }
    }

    pub(crate) fn replace(at: Range<usize>, text: impl Into<String>) -> Self {
        Self {
            at,
            text: text.into(),
        }
    }
}

/// `source` with `edits` made. Edits never overlap: each is made where
/// the text it was found in still is.
pub(crate) fn apply(source: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|edit| (edit.at.start, edit.at.end));
    let mut out = String::with_capacity(source.len() + 256);
    let mut done = 0;
    for edit in edits {
        debug_assert!(edit.at.start >= done, "overlapping edits");
        out.push_str(&source[done..edit.at.start]);
        out.push_str(&edit.text);
        done = edit.at.end;
    }
    out.push_str(&source[done..]);
    out
}

/// One file's text before and after.
#[derive(Debug)]
pub(crate) struct Change {
    pub(crate) path: PathBuf,
    pub(crate) before: String,
    pub(crate) after: String,
}

impl Change {
    /// A unified diff, its paths relative to `base`.
    pub(crate) fn diff(&self, base: &Path) -> String {
        let shown = self.path.strip_prefix(base).unwrap_or(&self.path);
        let shown = shown.display().to_string();
        similar::TextDiff::from_lines(&self.before, &self.after)
            .unified_diff()
            .header(&format!("a/{shown}"), &format!("b/{shown}"))
            .to_string()
    }

    /// Writes the new text (through a file beside it, renamed over the
    /// old one, so a failed write leaves the old text).
    pub(crate) fn write(&self) -> Result<(), String> {
        let mut temp = self.path.clone().into_os_string();
        temp.push(".mcp-bridge-tmp");
        let temp = PathBuf::from(temp);
        std::fs::write(&temp, &self.after)
            .and_then(|()| std::fs::rename(&temp, &self.path))
            .map_err(|error| {
                let _ = std::fs::remove_file(&temp);
                format!("{}: cannot write it: {error}", self.path.display())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_are_made_in_the_order_of_their_places() {
        let edits = vec![
            Edit::insert(5, "!"),
            Edit::replace(0..1, "H"),
            Edit::delete(6..7),
        ];
        assert_eq!(apply("hello, world", edits), "Hello!,world");
    }
}
