//! The tables: the command tree as the registry would see it, filled by a
//! `const fn` walk of the nodes in the order `mcp_augment` applies them.

use crate::spec::tree::{ArgsNode, Item, Layer, SubNode, VariantKind, SELF_SITE};

// Sizes of the tables.
const fn add(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    (a.0 + b.0, a.1 + b.1)
}

const fn count_items(items: &[Item]) -> (usize, usize) {
    let mut total = (0, 0);
    let mut i = 0;
    while i < items.len() {
        total = match &items[i] {
            Item::Param(_) => add(total, (0, 1)),
            Item::Flatten { node, .. } => add(total, count_args(node)),
            Item::Subcommand { node, .. } => add(total, count_sub(node)),
        };
        i += 1;
    }
    total
}

const fn count_args(node: &ArgsNode) -> (usize, usize) {
    count_items(node.items)
}

const fn count_sub(node: &SubNode) -> (usize, usize) {
    let mut total = (0, 0);
    let mut i = 0;
    while i < node.variants.len() {
        let here = match &node.variants[i].kind {
            VariantKind::Unit => (1, 0),
            VariantKind::Fields(items) => add((1, 0), count_items(items)),
            VariantKind::Args(args) => add((1, 0), count_args(args)),
            VariantKind::Subcommand(sub) => add((1, 0), count_sub(sub)),
            VariantKind::Flatten(sub) => count_sub(sub),
        };
        total = add(total, here);
        i += 1;
    }
    total
}

/// `(commands, parameters)` the table for a struct's subtree needs.
pub const fn size_args(node: &ArgsNode) -> (usize, usize) {
    add((1, 0), count_args(node))
}

/// `(commands, parameters)` the table for an enum's subtree needs.
pub const fn size_sub(node: &SubNode) -> (usize, usize) {
    add((1, 0), count_sub(node))
}

// The tables: the command tree as the registry would see it.
pub(super) const NO_PARENT: usize = usize::MAX;

/// The keys of one layer that only a command's own tool carries, and
/// where that layer was written.
#[derive(Clone, Copy)]
pub(super) struct ToolKeys {
    /// The keys, as written (`title`, `args(...)`); empty: none.
    pub(super) keys: &'static [&'static str],
    /// The struct, enum or variant the layer is on.
    pub(super) origin: &'static str,
    /// Which (checked) type declared the layer; see [`Cmd::owner`].
    pub(super) owner: u32,
    pub(super) site: u32,
}

impl ToolKeys {
    const EMPTY: ToolKeys = ToolKeys {
        keys: &[],
        origin: "",
        owner: 0,
        site: 0,
    };
}

/// How many layers with tool keys one command keeps (its variant, its
/// `Args` struct, a flattened struct, its subcommand enum...); a command
/// with more gets the rest checked once the first are fixed.
pub(super) const KEY_LAYERS: usize = 4;

#[derive(Clone, Copy)]
pub(super) struct Cmd {
    pub(super) name: &'static str,
    pub(super) parent: usize,
    pub(super) mcp_name: Option<&'static str>,
    /// `#[mcp(prefix)]`, meaningful on the root only.
    pub(super) prefix: Option<&'static str>,
    /// `#[mcp(max_name_len)]` (`0`: not set), meaningful on the root only.
    pub(super) max_name_len: usize,
    /// A root-only key (`prefix`, `max_name_len`) was given on this
    /// command's attributes.
    pub(super) has_root_keys: bool,
    /// The property names `#[mcp(args(...))]` fixes for its tool.
    pub(super) fixed: &'static [&'static str],
    pub(super) skip: bool,
    pub(super) hide: bool,
    pub(super) sub_required: bool,
    /// Which (checked) type declared the subcommand that decides
    /// `sub_required`; see [`Cmd::owner`].
    pub(super) sub_owner: u32,
    pub(super) subs: usize,
    /// The layers applied to the command that give keys only a tool
    /// carries (the first [`KEY_LAYERS`]).
    pub(super) tool_keys: [ToolKeys; KEY_LAYERS],
    /// 0: declared by the checking derive itself; otherwise which nested
    /// (checked) type it comes from, one number per occurrence.
    pub(super) owner: u32,
    pub(super) site: u32,
    pub(super) origin: &'static str,
}

impl Cmd {
    pub(super) const EMPTY: Cmd = Cmd {
        name: "",
        parent: NO_PARENT,
        mcp_name: None,
        prefix: None,
        max_name_len: 0,
        has_root_keys: false,
        fixed: &[],
        skip: false,
        hide: false,
        sub_required: false,
        sub_owner: 0,
        subs: 0,
        tool_keys: [ToolKeys::EMPTY; KEY_LAYERS],
        owner: 0,
        site: 0,
        origin: "",
    };
}

#[derive(Clone, Copy)]
pub(super) struct Prop {
    pub(super) name: &'static str,
    pub(super) cmd: usize,
    pub(super) global: bool,
    pub(super) hidden: bool,
    pub(super) owner: u32,
    pub(super) site: u32,
    pub(super) origin: &'static str,
}

impl Prop {
    pub(super) const EMPTY: Prop = Prop {
        name: "",
        cmd: 0,
        global: false,
        hidden: false,
        owner: 0,
        site: 0,
        origin: "",
    };
}

pub(super) struct Table<const C: usize, const P: usize> {
    pub(super) cmds: [Cmd; C],
    pub(super) nc: usize,
    pub(super) props: [Prop; P],
    pub(super) np: usize,
    pub(super) owners: u32,
    /// The name of the host command (index 0) is the real root name.
    pub(super) root_known: bool,
}

impl<const C: usize, const P: usize> Table<C, P> {
    /// What command `cmd` adds to the tool names made from paths through
    /// it: its name, or for the root its `#[mcp(prefix)]` (maybe empty).
    pub(super) const fn segment(&self, cmd: usize) -> &'static str {
        match self.cmds[cmd].prefix {
            Some(prefix) if cmd == 0 && self.root_known => prefix,
            _ => self.cmds[cmd].name,
        }
    }

    /// The longest tool name the root allows.
    pub(super) const fn budget(&self) -> usize {
        crate::registry::rules::name_budget(self.cmds[0].max_name_len)
    }
}

/// Where the walk is: at the checking derive's own items (`top`), the site
/// of the top-level item it went through, and the owner.
#[derive(Clone, Copy)]
struct Ctx {
    top: bool,
    site: u32,
    owner: u32,
}

const fn enter<const C: usize, const P: usize>(
    t: &mut Table<C, P>,
    ctx: Ctx,
    site: u32,
    checked: bool,
) -> Ctx {
    // An enum root's own variants: still the checking derive's items.
    if site == SELF_SITE {
        return ctx;
    }
    let mut next = ctx;
    if ctx.top {
        next.site = site;
    }
    next.top = false;
    // A generic type does not check itself: its content stays ours.
    if ctx.owner == 0 && checked {
        t.owners += 1;
        next.owner = t.owners;
    }
    next
}

/// Applies the layer of `origin` to `cmd`, as `mcp_augment` does; the walk
/// is at `ctx`.
const fn apply<const C: usize, const P: usize>(
    t: &mut Table<C, P>,
    cmd: usize,
    layer: &Layer,
    origin: &'static str,
    ctx: Ctx,
) {
    if !layer.mcp_tool_keys.is_empty() {
        let mut k = 0;
        while k < KEY_LAYERS {
            if t.cmds[cmd].tool_keys[k].keys.is_empty() {
                t.cmds[cmd].tool_keys[k] = ToolKeys {
                    keys: layer.mcp_tool_keys,
                    origin,
                    owner: ctx.owner,
                    site: ctx.site,
                };
                break;
            }
            k += 1;
        }
    }
    if let Some(name) = layer.mcp_name {
        t.cmds[cmd].mcp_name = Some(name);
    }
    if layer.mcp_skip {
        t.cmds[cmd].skip = true;
    }
    if let Some(prefix) = layer.mcp_prefix {
        t.cmds[cmd].prefix = Some(prefix);
        t.cmds[cmd].has_root_keys = true;
    }
    if !layer.mcp_fixed.is_empty() {
        t.cmds[cmd].fixed = layer.mcp_fixed;
    }
    if layer.mcp_max_name_len != 0 {
        t.cmds[cmd].max_name_len = layer.mcp_max_name_len;
        t.cmds[cmd].has_root_keys = true;
    }
    if let Some(hide) = layer.hide {
        t.cmds[cmd].hide = hide;
    }
}

const fn walk_items<const C: usize, const P: usize>(
    t: &mut Table<C, P>,
    items: &[Item],
    cmd: usize,
    ctx: Ctx,
) {
    let mut i = 0;
    while i < items.len() {
        match &items[i] {
            Item::Param(param) => {
                if t.np < P {
                    t.props[t.np] = Prop {
                        name: param.name,
                        cmd,
                        global: param.global,
                        hidden: param.hidden,
                        owner: ctx.owner,
                        site: if ctx.top { param.site } else { ctx.site },
                        origin: param.origin,
                    };
                    t.np += 1;
                }
            }
            Item::Flatten { site, node } => {
                let inner = enter(t, ctx, *site, node.checked);
                walk_args(t, node, cmd, inner);
            }
            Item::Subcommand {
                site,
                node,
                optional,
            } => {
                t.cmds[cmd].sub_required = !*optional;
                t.cmds[cmd].sub_owner = ctx.owner;
                let inner = enter(t, ctx, *site, node.checked);
                walk_sub(t, node, cmd, inner);
            }
        }
        i += 1;
    }
}

const fn walk_args<const C: usize, const P: usize>(
    t: &mut Table<C, P>,
    node: &ArgsNode,
    cmd: usize,
    ctx: Ctx,
) {
    walk_items(t, node.items, cmd, ctx);
    apply(t, cmd, &node.layer, node.origin, ctx);
}

const fn walk_sub<const C: usize, const P: usize>(
    t: &mut Table<C, P>,
    node: &SubNode,
    parent: usize,
    ctx: Ctx,
) {
    let mut i = 0;
    while i < node.variants.len() {
        let variant = &node.variants[i];
        let mut here = ctx;
        if ctx.top {
            here.site = variant.site;
        }
        if let VariantKind::Flatten(sub) = &variant.kind {
            let inner = enter(t, here, variant.site, sub.checked);
            walk_sub(t, sub, parent, inner);
            i += 1;
            continue;
        }
        if t.nc >= C {
            return;
        }
        let cmd = t.nc;
        t.cmds[cmd] = Cmd {
            name: variant.name,
            parent,
            owner: here.owner,
            site: here.site,
            origin: variant.origin,
            ..Cmd::EMPTY
        };
        t.nc += 1;
        t.cmds[parent].subs += 1;
        match &variant.kind {
            VariantKind::Unit | VariantKind::Flatten(_) => {}
            VariantKind::Fields(items) => walk_items(t, items, cmd, here),
            VariantKind::Args(args) => {
                let inner = enter(t, here, variant.site, args.checked);
                walk_args(t, args, cmd, inner);
            }
            VariantKind::Subcommand(sub) => {
                t.cmds[cmd].sub_required = true;
                t.cmds[cmd].sub_owner = here.owner;
                let inner = enter(t, here, variant.site, sub.checked);
                walk_sub(t, sub, cmd, inner);
            }
        }
        apply(t, cmd, &variant.layer, variant.origin, here);
        i += 1;
    }
    apply(t, parent, &node.layer, node.origin, ctx);
}

impl<const C: usize, const P: usize> Table<C, P> {
    /// A table holding only the host command (index 0), whose own items
    /// the walk starts from at `site`.
    const fn with_host(host: Cmd, root_known: bool) -> Self {
        let mut t = Table {
            cmds: [Cmd::EMPTY; C],
            nc: 1,
            props: [Prop::EMPTY; P],
            np: 0,
            owners: 0,
            root_known,
        };
        t.cmds[0] = host;
        t
    }

    /// The table of a struct's subtree. With `is_parser` (the struct
    /// derives `clap::Parser`) it is a root, and its root name is known.
    pub(super) const fn of_args(node: &ArgsNode, is_parser: bool) -> Self {
        let root = if is_parser { node.root_name } else { None };
        let host = Cmd {
            name: match root {
                Some(name) => name,
                None => "",
            },
            site: node.root_site,
            origin: node.origin,
            ..Cmd::EMPTY
        };
        let mut t = Self::with_host(host, root.is_some());
        walk_args(&mut t, node, 0, Ctx::top(node.root_site));
        t
    }

    /// The table of a subcommand enum's subtree (its parent is unknown).
    pub(super) const fn of_sub(node: &SubNode) -> Self {
        let mut t = Self::with_host(Cmd::EMPTY, false);
        walk_sub(&mut t, node, 0, Ctx::top(0));
        t
    }
}

impl Ctx {
    /// At the checking derive's own items, reported at `site`.
    const fn top(site: u32) -> Self {
        Ctx {
            top: true,
            site,
            owner: 0,
        }
    }
}
