//! The name a tool is served under, byte by byte in `const fn`s: the
//! command names of its path joined (the root's `#[mcp(prefix)]` in place
//! of its name), or its `#[mcp(name)]`, shortened past the root's budget
//! by the rule of [`shorten`](crate::registry::rules::shorten).

use super::walk::{Table, NO_PARENT};
use crate::registry::rules::{
    hash_digit, hash_step, is_separator, tool_byte, HASH_START, HASH_SUFFIX_LEN,
};

/// Length of the name joined from `cmd` up to, and without, `stop`. An
/// empty segment (a root's `prefix = ""`) adds nothing, not even a
/// separator.
pub(super) const fn joined_len<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
    stop: usize,
) -> usize {
    let mut len = 0;
    let mut at = cmd;
    let mut any = false;
    while at != stop && at != NO_PARENT {
        let seg = t.segment(at).len();
        if seg > 0 {
            if any {
                len += 1;
            }
            len += seg;
            any = true;
        }
        at = t.cmds[at].parent;
    }
    len
}

/// The `k`-th byte from the end of the name joined from `cmd` up to `stop`.
pub(super) const fn joined_byte_back<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
    stop: usize,
    mut k: usize,
) -> u8 {
    let mut at = cmd;
    while at != stop && at != NO_PARENT {
        let name = t.segment(at).as_bytes();
        if !name.is_empty() {
            if k < name.len() {
                return tool_byte(name[name.len() - 1 - k]);
            }
            k -= name.len();
            if k == 0 {
                return b'_';
            }
            k -= 1;
        }
        at = t.cmds[at].parent;
    }
    0
}

/// The name a tool is served under, where the root is known: given with
/// `#[mcp(name)]`, or made from its path — with the root's `prefix`, the
/// root's own name when that leaves nothing, and shortened by
/// [`shorten`](crate::registry::rules::shorten)'s rule past the budget.
#[derive(Clone, Copy)]
pub(super) struct ToolName {
    pub(super) given: Option<&'static str>,
    /// Length of the name made from the path.
    full: usize,
    /// Where the kept tail starts in it, when shortened.
    start: usize,
    pub(super) shortened: bool,
    hash: u32,
    /// The length of the served name.
    pub(super) len: usize,
}

impl ToolName {
    pub(super) const EMPTY: ToolName = ToolName {
        given: None,
        full: 0,
        start: 0,
        shortened: false,
        hash: 0,
        len: 0,
    };

    pub(super) const fn of<const C: usize, const P: usize>(t: &Table<C, P>, cmd: usize) -> Self {
        let given = match t.cmds[cmd].mcp_name {
            Some(name) => Some(name),
            None if joined_len(t, cmd, NO_PARENT) == 0 => Some(t.cmds[0].name),
            None => None,
        };
        if let Some(name) = given {
            return ToolName {
                given,
                len: name.len(),
                ..ToolName::EMPTY
            };
        }
        let full = joined_len(t, cmd, NO_PARENT);
        let budget = t.budget();
        if full <= budget {
            return ToolName {
                full,
                len: full,
                ..ToolName::EMPTY
            };
        }
        let mut start = full - (budget - HASH_SUFFIX_LEN);
        while start < full && is_separator(joined_byte_back(t, cmd, NO_PARENT, full - 1 - start)) {
            start += 1;
        }
        let mut hash = HASH_START;
        let mut p = 0;
        while p < full {
            hash = hash_step(hash, joined_byte_back(t, cmd, NO_PARENT, full - 1 - p));
            p += 1;
        }
        ToolName {
            given: None,
            full,
            start,
            shortened: true,
            hash,
            len: full - start + HASH_SUFFIX_LEN,
        }
    }

    /// The `p`-th byte of the served name of `cmd`.
    pub(super) const fn byte<const C: usize, const P: usize>(
        &self,
        t: &Table<C, P>,
        cmd: usize,
        p: usize,
    ) -> u8 {
        if let Some(name) = self.given {
            return name.as_bytes()[p];
        }
        if !self.shortened {
            return joined_byte_back(t, cmd, NO_PARENT, self.full - 1 - p);
        }
        let tail = self.full - self.start;
        if p < tail {
            joined_byte_back(t, cmd, NO_PARENT, self.full - 1 - (self.start + p))
        } else if p == tail {
            b'_'
        } else {
            hash_digit(self.hash, p - tail - 1)
        }
    }
}
