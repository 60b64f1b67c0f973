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

/// The longest tool name served unless the root says otherwise with
/// `#[mcp(max_name_len = N)]`: what common clients and the conformance
/// suite accept (MCP itself allows 128).
pub(crate) const DEFAULT_NAME_BUDGET: usize = 64;

/// What a shortened name ends with: `_` and 8 hexadecimal digits.
pub(crate) const HASH_SUFFIX_LEN: usize = 9;

/// The shortest budget: a shortened name keeps a few characters of its
/// path besides its hash (the derive refuses less in `max_name_len`).
pub(crate) const MIN_NAME_BUDGET: usize = 16;

/// The budget a root sets (`0`: none set, the default applies), held to
/// 16..=128 (a spec built by hand may say anything).
pub(crate) const fn name_budget(max_name_len: usize) -> usize {
    if max_name_len == 0 {
        DEFAULT_NAME_BUDGET
    } else if max_name_len < MIN_NAME_BUDGET {
        MIN_NAME_BUDGET
    } else if max_name_len > MAX_TOOL_NAME {
        MAX_TOOL_NAME
    } else {
        max_name_len
    }
}

/// One step of the hash of a path-built name (32-bit FNV-1a).
pub(crate) const fn hash_step(hash: u32, byte: u8) -> u32 {
    (hash ^ byte as u32).wrapping_mul(0x0100_0193)
}

/// The hash of nothing yet.
pub(crate) const HASH_START: u32 = 0x811c_9dc5;

/// Whether a shortened name drops `byte` at the start of its kept tail.
pub(crate) const fn is_separator(byte: u8) -> bool {
    byte == b'_' || byte == b'.' || byte == b'-'
}

/// The `i`-th hexadecimal digit (most significant first) of a hash.
pub(crate) const fn hash_digit(hash: u32, i: usize) -> u8 {
    let nibble = ((hash >> (28 - 4 * i as u32)) & 0xf) as u8;
    if nibble < 10 {
        b'0' + nibble
    } else {
        b'a' + nibble - 10
    }
}

/// The name a tool is served under when the name made from its path is
/// longer than `budget`: the path's last `budget - 9` characters (without
/// the separators they may start with, so the leaf command stays
/// readable), `_`, and 8 hexadecimal digits of the whole name's hash, so
/// two long paths that end alike still get two names. The compile-time
/// check computes the same name byte by byte (`tree/check.rs`); the
/// exposure test holds the two together.
pub(crate) fn shorten(full: &str, budget: usize) -> String {
    let bytes = full.as_bytes();
    if bytes.len() <= budget {
        return full.to_owned();
    }
    let mut start = bytes.len() - (budget - HASH_SUFFIX_LEN);
    while start < bytes.len() && is_separator(bytes[start]) {
        start += 1;
    }
    let mut hash = HASH_START;
    for &byte in bytes {
        hash = hash_step(hash, byte);
    }
    let mut out = String::with_capacity(budget);
    // Cut by bytes, as the compile-time check counts; a cut inside a
    // character only happens to names the registry refuses anyway.
    out.push_str(&String::from_utf8_lossy(&bytes[start..]));
    out.push('_');
    out.extend((0..8).map(|i| hash_digit(hash, i) as char));
    out
}

/// Whether `name` is a valid MCP tool name: 1 to 128 characters of
/// `A-Z a-z 0-9 _ . -`.
pub(crate) const fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_TOOL_NAME && valid_chars(name)
}

/// A byte of a command name as it is in a tool name made from the path:
/// itself where tool names allow it (`A-Z a-z 0-9 _ . -`), `_` otherwise
/// (each byte of a character beyond ASCII too), so a command `c++` is the
/// tool `…_c__`. The run-time name and the compile-time check both map
/// through this.
pub(crate) const fn tool_byte(b: u8) -> u8 {
    if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-' {
        b
    } else {
        b'_'
    }
}

/// `name` with each byte mapped by [`tool_byte`].
pub(crate) fn tool_text(name: &str) -> String {
    name.bytes().map(|b| tool_byte(b) as char).collect()
}

const fn valid_chars(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if tool_byte(bytes[i]) != bytes[i] {
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

    #[test]
    fn long_names_are_shortened_to_their_tail_and_a_hash() {
        assert_eq!(shorten("app_task_add", 64), "app_task_add");
        let long = format!("app_{}_remove-everything", "group".repeat(12));
        let short = shorten(&long, 32);
        assert_eq!(short.len(), 32);
        assert!(short.starts_with("group_remove-everything_"), "{short}");
        assert!(is_valid_tool_name(&short));
        // Deterministic, and two paths ending alike differ by their hash.
        assert_eq!(shorten(&long, 32), short);
        let other = format!("app_{}_remove-everything", "gruop".repeat(12));
        assert_ne!(shorten(&other, 32), short);
        // Separators at the start of the kept tail are dropped.
        let dotted = format!("{}_______leaf", "x".repeat(40));
        assert!(shorten(&dotted, 20).starts_with("leaf_"));
    }
}
