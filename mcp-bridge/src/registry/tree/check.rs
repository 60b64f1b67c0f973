//! The checks: invalid names, over-long names, duplicate tools and
//! duplicate properties, over the tables the walk filled.

use super::msg::{push_command, push_path, push_tool_name, Msg};
use super::name::{joined_byte_back, joined_len, ToolName};
use super::report::CheckReport;
use super::walk::{Prop, Table, ToolKeys, KEY_LAYERS, NO_PARENT};
use crate::registry::rules::{
    hash_step, is_exposed, is_runnable, offers, renames_farther, HASH_START, RENAME_SEPARATOR,
};
use crate::spec::tree::{ArgsNode, Item, SubNode};

/// Checks the subtree of a struct. With `is_parser` (the struct derives
/// `clap::Parser`) it is a root, and its root name is known.
pub const fn check_args<const C: usize, const P: usize>(
    node: &ArgsNode,
    is_parser: bool,
) -> CheckReport {
    finish(&Table::<C, P>::of_args(node, is_parser), true)
}

/// Checks the subtree of a subcommand enum (its parent is unknown).
pub const fn check_sub<const C: usize, const P: usize>(node: &SubNode) -> CheckReport {
    finish(&Table::<C, P>::of_sub(node), false)
}

const KIND_LENGTH: u8 = 2;
const KIND_TOOL: u8 = 3;
const KIND_PROPERTY: u8 = 4;
const KIND_ROOT_KEY: u8 = 5;
const KIND_FIXED: u8 = 6;
const KIND_NO_TOOL: u8 = 7;

/// The property of a positional argument named `own`, in a struct that
/// flattens `flattened`: `renamed` (`<id>-positional`) when one of them
/// (or a struct they flatten) has an exposed flag named `own` (the
/// positional/flag rule across flattened structs: the flag keeps the
/// name users type), else `own`.
pub const fn positional_property(
    own: &'static str,
    renamed: &'static str,
    flattened: &[&ArgsNode],
) -> &'static str {
    let mut i = 0;
    while i < flattened.len() {
        if has_flag(flattened[i], own) {
            return renamed;
        }
        i += 1;
    }
    own
}

/// Whether `node` (or a struct it flattens) has an exposed flag `name`.
const fn has_flag(node: &ArgsNode, name: &str) -> bool {
    let mut i = 0;
    while i < node.items.len() {
        let found = match &node.items[i] {
            Item::Param(param) => !param.positional && !param.hidden && str_eq(param.name, name),
            Item::Flatten { node, .. } => has_flag(node, name),
            _ => false,
        };
        if found {
            return true;
        }
        i += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The served names of the tools, where the root is known.
const fn tool_names<const C: usize, const P: usize>(
    t: &Table<C, P>,
    tool: &[bool; C],
) -> [ToolName; C] {
    let mut names = [ToolName::EMPTY; C];
    if t.root_known {
        let mut c = 0;
        while c < t.nc {
            if tool[c] {
                names[c] = ToolName::of(t, c);
            }
            c += 1;
        }
    }
    names
}

/// Whether two commands have the same name joined from their path below
/// `stop` (`NO_PARENT`: the whole path).
const fn path_eq<const C: usize, const P: usize>(
    t: &Table<C, P>,
    a: usize,
    b: usize,
    stop: usize,
) -> bool {
    let len = joined_len(t, a, stop);
    if len != joined_len(t, b, stop) {
        return false;
    }
    let mut k = 0;
    while k < len {
        if joined_byte_back(t, a, stop, k) != joined_byte_back(t, b, stop, k) {
            return false;
        }
        k += 1;
    }
    true
}

/// Two things owned by the same nested type were reported by its derive.
const fn ours(a: u32, b: u32) -> bool {
    a == 0 || b == 0 || a != b
}

const fn finish<const C: usize, const P: usize>(
    t: &Table<C, P>,
    host_is_tool: bool,
) -> CheckReport {
    let mut report = CheckReport::new();
    let n = t.nc;

    // Exposed commands and tools, as the registry picks them.
    let (exposed, tool) = exposure(t, host_is_tool);

    let names = tool_names(t, &tool);

    // Root-only keys on another command (reported by the derive that
    // declares the command).
    let mut c = 1;
    while c < n {
        if t.cmds[c].has_root_keys && t.cmds[c].owner == 0 {
            let mut msg = Msg::new();
            msg.push("`#[mcp(prefix)]` and `#[mcp(max_name_len)]` shape every tool name, so they belong on the root; ");
            msg.push(t.cmds[c].origin);
            msg.push(" is the command `");
            push_path(&mut msg, t, c, " ");
            msg.push("`: name its tool with `#[mcp(name = \"...\")]`, or move the key to the root");
            report.add(t.cmds[c].site, KIND_ROOT_KEY, c, 0, msg);
        }
        c += 1;
    }

    // Given tool names longer than the root's budget (path-built ones are
    // shortened; only where the root is known).
    if t.root_known {
        let budget = t.budget();
        let mut j = 0;
        while j < n {
            // Given with `#[mcp(name)]`, or the root's own name standing for
            // an empty prefix: never shortened.
            if tool[j] && names[j].given.is_some() && names[j].len > budget {
                let mut msg = Msg::new();
                msg.push("the tool name `");
                push_tool_name(&mut msg, t, j);
                msg.push("` of ");
                msg.push(t.cmds[j].origin);
                msg.push(" is ");
                msg.push_number(names[j].len);
                msg.push(" characters long; tool names are at most ");
                msg.push_number(budget);
                if t.cmds[0].max_name_len == 0 {
                    msg.push(" characters by default (what common clients accept): set a shorter name, or raise the limit with `#[mcp(max_name_len = N)]` on the root (at most 128)");
                } else {
                    msg.push(
                        " characters here (`#[mcp(max_name_len)]` on the root): set a shorter name",
                    );
                }
                report.add(t.cmds[j].site, KIND_LENGTH, j, 0, msg);
            }
            j += 1;
        }
    }

    // Two tools with one name. Only tools whose names have one key can
    // be named alike: each tool is compared with those before it in its
    // run of equal keys, not with every tool before it (which took the
    // compiler's evaluator seconds on a CLI of a few hundred commands),
    // and is reported, in the order of the commands, against the first
    // of its name.
    let keys = name_keys(t, &names, &tool);
    let sorted = sort_by_key(&keys, n);
    let mut first_alike: [Option<usize>; C] = [None; C];
    let mut at = 0;
    while at < n {
        let j = sorted[at];
        if tool[j] {
            first_alike[j] = first_named_alike(t, &names, &tool, &keys, &sorted, at);
        }
        at += 1;
    }
    let mut j = 0;
    while j < n {
        if let Some(i) = first_alike[j] {
            let mut msg = Msg::new();
            msg.push("two tools are named `");
            push_tool_name(&mut msg, t, j);
            msg.push("`: ");
            push_command(&mut msg, t, i);
            msg.push(" and ");
            push_command(&mut msg, t, j);
            if names[i].shortened || names[j].shortened {
                msg.push(" (a name longer than ");
                msg.push_number(t.budget());
                msg.push(" characters is shortened to its end and a hash)");
            }
            msg.push("; give one of them another name with `#[mcp(name = \"...\")]`");
            report.add(t.cmds[j].site, KIND_TOOL, i, j, msg);
        }
        j += 1;
    }

    // Two properties of one tool with one name. The exposed parameters of
    // each command, grouped (indices into `props`, command by command), so
    // a tool looks only at its own and its ancestors'.
    let groups = Groups::of(t);
    let mut scratch = [0usize; P];
    let mut tool_at = 0;
    while tool_at < n {
        if tool[tool_at] {
            check_properties(t, &groups, tool_at, &mut scratch, &mut report);
        }
        tool_at += 1;
    }

    // Keys only a command's own tool carries, on a command that runs only
    // through its subcommands (hidden or not: it has no tool either way).
    // Reported by the lowest type that declares both the key and the
    // required subcommand. The host of an enum's check is its unknown
    // parent, whose subcommand may be optional.
    let mut c = if host_is_tool { 0 } else { 1 };
    while c < n {
        let cmd = &t.cmds[c];
        let mut k = 0;
        while k < KEY_LAYERS && !is_runnable(cmd.subs != 0, cmd.sub_required) {
            let keys = &cmd.tool_keys[k];
            if !keys.keys.is_empty() && ours(keys.owner, cmd.sub_owner) {
                report.add(keys.site, KIND_NO_TOOL, c, k, no_tool(t, c, keys));
            }
            k += 1;
        }
        c += 1;
    }

    // Fixed values (`#[mcp(args(...))]`) name properties of the command's
    // own tool. Only where the root is known: a nested type does not know
    // the properties its ancestors offer. (On a command without a tool,
    // they were reported above.)
    if t.root_known {
        let mut c = 0;
        while c < n {
            let fixed = t.cmds[c].fixed;
            let mut k = 0;
            while exposed[c] && tool[c] && k < fixed.len() {
                if !offers_property(t, &groups, c, fixed[k], &mut scratch) {
                    let mut msg = Msg::new();
                    msg.push("`#[mcp(args(...))]` on ");
                    msg.push(t.cmds[c].origin);
                    msg.push(" fixes `");
                    msg.push(fixed[k]);
                    msg.push("`, which is no property of the tool `");
                    push_tool_name(&mut msg, t, c);
                    msg.push("`: name a property as its schema does (the long flag, or a positional's id), e.g. `args(format = \"json\")` or `args(\"dry-run\" = true)`");
                    report.add(t.cmds[c].site, KIND_FIXED, c, k + 1, msg);
                }
                k += 1;
            }
            c += 1;
        }
    }
    report
}

/// Why the keys of `keys` do nothing on `cmd`, which runs only through its
/// subcommands, and what to write instead.
const fn no_tool<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
    keys: &ToolKeys,
) -> Msg {
    let mut msg = Msg::new();
    msg.push("`#[mcp(");
    let mut k = 0;
    while k < keys.keys.len() {
        if k > 0 {
            msg.push(", ");
        }
        msg.push(keys.keys[k]);
        k += 1;
    }
    msg.push(")]` on ");
    msg.push(keys.origin);
    let one = keys.keys.len() == 1;
    msg.push(if one {
        " does nothing: it is for a command's own tool, and "
    } else {
        " does nothing: these keys are for a command's own tool, and "
    });
    let elsewhere = !str_eq(keys.origin, t.cmds[cmd].origin);
    if elsewhere {
        msg.push(if one {
            "the command it applies to, "
        } else {
            "the command they apply to, "
        });
    }
    if cmd == 0 && !t.root_known {
        msg.push(t.cmds[cmd].origin);
    } else {
        push_command(&mut msg, t, cmd);
    }
    msg.push(if elsewhere { ", has none" } else { " has none" });
    msg.push(
        ", since it runs only through its subcommands (a required `#[command(subcommand)]`); put ",
    );
    msg.push(if one { "it" } else { "them" });
    msg.push(" on the subcommands ");
    msg.push(if one { "it is" } else { "they are" });
    msg.push(" meant for, or make the subcommand optional (`Option<...>`) so that the command runs on its own too");
    let mut k = 0;
    while k < keys.keys.len() {
        if str_eq(keys.keys[k], "name") {
            msg.push(" (the tools below are named from their command path, which `#[command(name)]` and the root's `#[mcp(prefix)]` change)");
        }
        k += 1;
    }
    msg
}

/// Whether the tool of `cmd` offers a property named `name`.
const fn offers_property<const C: usize, const P: usize>(
    t: &Table<C, P>,
    groups: &Groups<C, P>,
    cmd: usize,
    name: &str,
    visible: &mut [usize; P],
) -> bool {
    let count = groups.offered(t, cmd, visible);
    let mut at = 0;
    while at < count {
        let prop = &t.props[visible[at]];
        if pieces_eq(
            effective(t, prop, is_renamed(t, visible, at)),
            ["", "", name],
        ) {
            return true;
        }
        at += 1;
    }
    false
}

/// Which commands are exposed, and which of those are tools, by the
/// rules of [`rules`](crate::registry::rules) (the registry applies the
/// same ones at run time). `host_is_tool`: whether the command at index 0
/// is the root (a `Parser`), which is a tool when runnable.
pub(super) const fn exposure<const C: usize, const P: usize>(
    t: &Table<C, P>,
    host_is_tool: bool,
) -> ([bool; C], [bool; C]) {
    let mut exposed = [false; C];
    let mut tool = [false; C];
    let mut i = 0;
    while i < t.nc {
        let cmd = &t.cmds[i];
        let parent_exposed = cmd.parent == NO_PARENT || exposed[cmd.parent];
        exposed[i] = is_exposed(parent_exposed, cmd.hide, cmd.skip);
        tool[i] =
            exposed[i] && is_runnable(cmd.subs != 0, cmd.sub_required) && (i != 0 || host_is_tool);
        i += 1;
    }
    (exposed, tool)
}

/// The exposed parameters of each command: `grouped[first[c]..][..count[c]]`.
pub(super) struct Groups<const C: usize, const P: usize> {
    first: [usize; C],
    count: [usize; C],
    grouped: [usize; P],
}

impl<const C: usize, const P: usize> Groups<C, P> {
    /// The parameters of `t`, command by command, hidden ones left out.
    pub(super) const fn of(t: &Table<C, P>) -> Self {
        let mut first = [0usize; C];
        let mut count = [0usize; C];
        let mut grouped = [0usize; P];
        let mut p = 0;
        while p < t.np {
            if !t.props[p].hidden {
                count[t.props[p].cmd] += 1;
            }
            p += 1;
        }
        let mut next = 0;
        let mut c = 0;
        while c < t.nc {
            first[c] = next;
            next += count[c];
            count[c] = 0;
            c += 1;
        }
        let mut p = 0;
        while p < t.np {
            if !t.props[p].hidden {
                let cmd = t.props[p].cmd;
                grouped[first[cmd] + count[cmd]] = p;
                count[cmd] += 1;
            }
            p += 1;
        }
        Groups {
            first,
            count,
            grouped,
        }
    }

    /// The properties of the tool at `tool` (indices into `t.props`): its
    /// own parameters, then those of its ancestors, by the
    /// rules of [`rules`](crate::registry::rules). Returns how many it
    /// wrote into `visible`.
    pub(super) const fn offered(
        &self,
        t: &Table<C, P>,
        tool: usize,
        visible: &mut [usize; P],
    ) -> usize {
        let mut count = 0;
        let mut at = tool;
        while at != NO_PARENT {
            let mut k = 0;
            while k < self.count[at] {
                let p = self.grouped[self.first[at] + k];
                if offers(t.props[p].hidden) {
                    visible[count] = p;
                    count += 1;
                }
                k += 1;
            }
            at = t.cmds[at].parent;
        }
        count
    }
}

/// A key of each tool's name as [`same_tool_name`] compares it: two tools
/// it finds alike have equal keys (the length and a hash of the bytes it
/// compares, and whether the name is given where the root is unknown).
const fn name_keys<const C: usize, const P: usize>(
    t: &Table<C, P>,
    names: &[ToolName; C],
    tool: &[bool; C],
) -> [u64; C] {
    let mut keys = [0u64; C];
    let mut c = 0;
    while c < t.nc {
        if tool[c] {
            let mut hash = HASH_START;
            let mut len = 0;
            let mut given = 0u64;
            if t.root_known {
                len = names[c].len;
                let mut p = 0;
                while p < len {
                    hash = hash_step(hash, names[c].byte(t, c, p));
                    p += 1;
                }
            } else if let Some(name) = t.cmds[c].mcp_name {
                given = 1;
                len = name.len();
                let mut p = 0;
                while p < len {
                    hash = hash_step(hash, name.as_bytes()[p]);
                    p += 1;
                }
            } else if c != 0 {
                // `path_eq` below the host, read from the end.
                len = joined_len(t, c, 0);
                let mut k = 0;
                while k < len {
                    hash = hash_step(hash, joined_byte_back(t, c, 0, k));
                    k += 1;
                }
            }
            keys[c] = (given << 63) | ((len as u64) << 32) | hash as u64;
        }
        c += 1;
    }
    keys
}

/// The first tool before `sorted[at]` in its run of equal keys (so the
/// first in command order) whose name is the same.
const fn first_named_alike<const C: usize, const P: usize>(
    t: &Table<C, P>,
    names: &[ToolName; C],
    tool: &[bool; C],
    keys: &[u64; C],
    sorted: &[usize; C],
    at: usize,
) -> Option<usize> {
    let j = sorted[at];
    let mut k = at;
    while k > 0 && keys[sorted[k - 1]] == keys[j] {
        k -= 1;
    }
    while k < at {
        let i = sorted[k];
        if tool[i] && same_tool_name(t, names, i, j) {
            return Some(i);
        }
        k += 1;
    }
    None
}

/// The indices `0..n` ordered by `keys`, then by index (a heap sort: the
/// compiler's evaluator runs it, so it has to be `O(n log n)`).
pub(super) const fn sort_by_key<const C: usize>(keys: &[u64; C], n: usize) -> [usize; C] {
    let mut order = [0usize; C];
    let mut i = 0;
    while i < n {
        order[i] = i;
        i += 1;
    }
    let mut start = n / 2;
    while start > 0 {
        start -= 1;
        sift_down(keys, &mut order, start, n);
    }
    let mut end = n;
    while end > 1 {
        end -= 1;
        let top = order[0];
        order[0] = order[end];
        order[end] = top;
        sift_down(keys, &mut order, 0, end);
    }
    order
}

const fn sift_down<const C: usize>(
    keys: &[u64; C],
    order: &mut [usize; C],
    mut at: usize,
    end: usize,
) {
    loop {
        let mut child = 2 * at + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && before(keys, order[child], order[child + 1]) {
            child += 1;
        }
        if !before(keys, order[at], order[child]) {
            return;
        }
        let swap = order[at];
        order[at] = order[child];
        order[child] = swap;
        at = child;
    }
}

/// Whether `a` sorts before `b`: by key, then by index.
const fn before<const C: usize>(keys: &[u64; C], a: usize, b: usize) -> bool {
    keys[a] < keys[b] || (keys[a] == keys[b] && a < b)
}

const fn same_tool_name<const C: usize, const P: usize>(
    t: &Table<C, P>,
    names: &[ToolName; C],
    i: usize,
    j: usize,
) -> bool {
    let (a, b) = (&t.cmds[i], &t.cmds[j]);
    if t.root_known {
        // Every name is known: compare what is served. Two names of one
        // nested type, both given or both made from paths, were compared by
        // that type's derive (below its own command, the same comparison).
        if a.mcp_name.is_some() == b.mcp_name.is_some() && !ours(a.owner, b.owner) {
            return false;
        }
        let (x, y) = (&names[i], &names[j]);
        if x.len != y.len {
            return false;
        }
        let mut p = 0;
        while p < x.len {
            if x.byte(t, i, p) != y.byte(t, j, p) {
                return false;
            }
            p += 1;
        }
        return true;
    }
    match (a.mcp_name, b.mcp_name) {
        (Some(x), Some(y)) => ours(a.owner, b.owner) && str_eq(x, y),
        // The host's own (relative) name is empty, every other is not.
        (None, None) => ours(a.owner, b.owner) && i != 0 && path_eq(t, i, j, 0),
        // A given name against one made from a path: needs the root.
        _ => false,
    }
}

/// Checks the properties of one tool: its own parameters and those of
/// its ancestors, an ancestor's renamed when a command nearer the tool
/// declares one of its name (by the rule of
/// [`renames_farther`](crate::registry::rules::renames_farther)).
const fn check_properties<const C: usize, const P: usize>(
    t: &Table<C, P>,
    groups: &Groups<C, P>,
    tool: usize,
    visible: &mut [usize; P],
    report: &mut CheckReport,
) {
    // `visible` is nearest command first.
    let count = groups.offered(t, tool, visible);
    let mut renamed = [false; P];
    let mut vb = 0;
    while vb < count {
        renamed[vb] = is_renamed(t, visible, vb);
        let mut va = 0;
        while va < vb {
            let (near, far) = (&t.props[visible[va]], &t.props[visible[vb]]);
            if ours(near.owner, far.owner)
                && str_eq(near.name, far.name)
                && !(near.cmd != far.cmd && renames_farther(near.global, far.global))
            {
                let (a, b) = ordered(visible[va], visible[vb]);
                report_same_name(t, tool, a, b, None, report);
                break;
            }
            va += 1;
        }
        vb += 1;
    }
    // A renamed property against every other: `<command>-<name>` may be
    // another argument's name. (The root's name is needed: without it, the
    // registry checks at run time.)
    let mut vb = 0;
    while vb < count {
        let mut va = 0;
        while va < vb {
            let (pa, pb) = (&t.props[visible[va]], &t.props[visible[vb]]);
            if (renamed[va] || renamed[vb])
                && ours(pa.owner, pb.owner)
                && (t.root_known || (!renamed[va] || pa.cmd != 0) && (!renamed[vb] || pb.cmd != 0))
                && effective_eq(t, pa, renamed[va], pb, renamed[vb])
            {
                let (a, b) = ordered(visible[va], visible[vb]);
                let shown = if renamed[va] { va } else { vb };
                report_same_name(t, tool, a, b, Some(visible[shown]), report);
                break;
            }
            va += 1;
        }
        vb += 1;
    }
}

/// Whether the property at `visible[at]` (nearest command first) is
/// offered as `<command>-<name>`: a nearer command has one of its name,
/// and neither is global.
pub(super) const fn is_renamed<const C: usize, const P: usize>(
    t: &Table<C, P>,
    visible: &[usize; P],
    at: usize,
) -> bool {
    let far = &t.props[visible[at]];
    let mut k = 0;
    while k < at {
        let near = &t.props[visible[k]];
        if ours(near.owner, far.owner)
            && str_eq(near.name, far.name)
            && near.cmd != far.cmd
            && renames_farther(near.global, far.global)
        {
            return true;
        }
        k += 1;
    }
    false
}

/// The one declared later is the one reported.
const fn ordered(a: usize, b: usize) -> (usize, usize) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The property name of `prop` in a tool: its own, or (`renamed`)
/// `<command>-<name>`, as three pieces.
const fn effective<const C: usize, const P: usize>(
    t: &Table<C, P>,
    prop: &Prop,
    renamed: bool,
) -> [&'static str; 3] {
    if renamed {
        [t.cmds[prop.cmd].name, RENAME_SEPARATOR, prop.name]
    } else {
        ["", "", prop.name]
    }
}

const fn effective_eq<const C: usize, const P: usize>(
    t: &Table<C, P>,
    a: &Prop,
    a_renamed: bool,
    b: &Prop,
    b_renamed: bool,
) -> bool {
    pieces_eq(effective(t, a, a_renamed), effective(t, b, b_renamed))
}

/// Whether two strings given in pieces are equal.
const fn pieces_eq(a: [&str; 3], b: [&str; 3]) -> bool {
    if a[0].len() + a[1].len() + a[2].len() != b[0].len() + b[1].len() + b[2].len() {
        return false;
    }
    let (mut ia, mut ja, mut ib, mut jb) = (0, 0, 0, 0);
    loop {
        while ia < 3 && ja >= a[ia].len() {
            ia += 1;
            ja = 0;
        }
        while ib < 3 && jb >= b[ib].len() {
            ib += 1;
            jb = 0;
        }
        if ia == 3 || ib == 3 {
            return ia == 3 && ib == 3;
        }
        if a[ia].as_bytes()[ja] != b[ib].as_bytes()[jb] {
            return false;
        }
        ja += 1;
        jb += 1;
    }
}

/// Reports two properties of one name (`renamed`: the one offered under
/// `<command>-<name>`, when that is why).
const fn report_same_name<const C: usize, const P: usize>(
    t: &Table<C, P>,
    tool: usize,
    a: usize,
    b: usize,
    renamed: Option<usize>,
    report: &mut CheckReport,
) {
    let (pa, pb) = (&t.props[a], &t.props[b]);
    let mut msg = Msg::new();
    msg.push("the tool `");
    push_tool_name(&mut msg, t, tool);
    msg.push("` has two properties named `");
    match renamed {
        Some(r) => {
            let pr = &t.props[r];
            msg.push(t.cmds[pr.cmd].name);
            msg.push(RENAME_SEPARATOR);
            msg.push(pr.name);
        }
        None => msg.push(pb.name),
    }
    msg.push("`: ");
    push_prop(&mut msg, pa, matches!(renamed, Some(r) if r == a));
    msg.push(" and ");
    push_prop(&mut msg, pb, matches!(renamed, Some(r) if r == b));
    msg.push("; rename one with `#[mcp(name = \"...\")]`, or hide it with `#[mcp(skip)]`");
    report.add(pb.site, KIND_PROPERTY, a, b, msg);
}

const fn push_prop(msg: &mut Msg, prop: &Prop, renamed: bool) {
    msg.push(prop.origin);
    if prop.global {
        msg.push(" (global)");
    }
    if renamed {
        msg.push(" (renamed: a command below has its own `");
        msg.push(prop.name);
        msg.push("`)");
    }
}

// ---------------------------------------------------------------------------
// Root detection: `IsParser::<T>::IS` is true when `T: clap::Parser`.

/// `IsParser::<T>::IS` tells whether `T` implements `clap::Parser`: the
/// inherent constant exists only then, and the trait's default answers
/// otherwise (bring [`NotParser`] into scope).
pub struct IsParser<T>(core::marker::PhantomData<fn() -> T>);

/// The fallback of [`IsParser`].
pub trait NotParser {
    /// `false`: not a root.
    const IS: bool = false;
}

impl<T> NotParser for IsParser<T> {}

impl<T: clap::Parser> IsParser<T> {
    /// `true`: `T` is a root.
    pub const IS: bool = true;
}
