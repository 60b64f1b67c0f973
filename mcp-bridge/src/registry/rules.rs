//! What is exposed, and under which name: the one place these rules live.
//!
//! The registry applies them at run time when it flattens the command tree
//! ([`super::flatten`]), and the compile-time tree check applies the very
//! same `const fn`s to the constant nodes the derive emits
//! ([`super::tree`]), so what `cargo build` accepts is what the registry
//! serves. (The derive, which cannot depend on this crate, checks literal
//! names with its own copy of the name rule; a test ties the two.)

/// The longest tool name MCP allows.
pub(crate) const MAX_TOOL_NAME: usize = 128;

/// What separates the command names of a path in a tool name
/// (`taskctl_task_add`).
pub(crate) const PATH_SEPARATOR: &str = "_";

/// Whether `name` is a valid MCP tool name: 1 to 128 characters of
/// `A-Z a-z 0-9 _ . -`.
pub(crate) const fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_TOOL_NAME && valid_chars(name)
}

/// A command name that can be part of a tool name.
pub(crate) const fn valid_segment(name: &str) -> bool {
    !name.is_empty() && valid_chars(name)
}

const fn valid_chars(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-') {
            return false;
        }
        i += 1;
    }
    true
}

/// A command is exposed when its parent is (the root has none) and it is
/// neither hidden (`#[command(hide = true)]`) nor skipped
/// (`#[mcp(skip)]`); nothing below an unexposed command is exposed.
pub(crate) const fn is_exposed(parent_exposed: bool, hidden: bool, skipped: bool) -> bool {
    parent_exposed && !hidden && !skipped
}

/// An exposed command is a tool when it can run: a leaf, or a parent
/// whose subcommand is optional.
pub(crate) const fn is_runnable(has_subcommands: bool, subcommand_required: bool) -> bool {
    !has_subcommands || !subcommand_required
}

/// Whether a tool offers a parameter declared on the tool's own command or
/// on one of its ancestors: every visible one. clap takes an ancestor's
/// argument before the subcommand (`app --color never run`) even when it
/// is not `global`, so a call to the tool may give it too.
pub(crate) const fn offers(hidden: bool) -> bool {
    !hidden
}

/// What joins a command's name and an argument's in the property an
/// ancestor's argument is renamed to (`vcs-dir`).
pub(crate) const RENAME_SEPARATOR: &str = "-";

/// Two arguments a tool offers have one name, one declared on a command
/// nearer the tool than the other (clap keeps them apart: each is given
/// before or after its own command's name). When neither is `global`,
/// the nearer keeps the name and the farther is offered as
/// `<its command's name>-<name>`; a `global` one is propagated into the
/// command below by clap, so sharing its name is a collision.
pub(crate) const fn renames_farther(nearer_global: bool, farther_global: bool) -> bool {
    !nearer_global && !farther_global
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_name_rule() {
        assert!(is_valid_tool_name("app_task-add.v2"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("a b"));
        assert!(!is_valid_tool_name("tâche"));
    }
}
