//! Checks of the whole command tree, run by the compiler.
//!
//! Tool names and property names depend on several types at once (a
//! subcommand enum, the `Args` struct of one of its variants, the globals of
//! the root...), so one derive alone cannot see a collision. Each derive
//! therefore describes its own node as an associated constant
//! ([`ArgsNode`] for structs, [`SubNode`] for enums) that refers to the
//! constants of the types it flattens or nests, and emits
//!
//! ```text
//! const __REPORT: Report = check_args::<C, P>(<Self as McpArgs>::MCP_NODE, is_parser);
//! const _: () = fail_at(&__REPORT, site);   // once per site, spanned at it
//! ```
//!
//! [`check_args`] / [`check_sub`] are `const fn`s: they mirror what
//! `mcp_augment` does at run time (same order, same layers) into fixed-size
//! tables, flatten them into tools the way the registry does, and look for
//! problems. A problem is reported at a *site*: a field or variant of the
//! type whose derive found it, so the compile error points at the user's
//! tokens.
//!
//! Every derive checks its whole subtree, so to report a collision once,
//! the derive that reports it is the lowest one that contains both sides
//! (two tools inside the same nested type were already reported by that
//! type's derive). Checks that need the full tool name (its length, a
//! `#[mcp(name)]` equal to a name made from a path) are done only where
//! the root is known: on a `Parser` struct, whose name is a literal or the
//! package name. The registry checks tool names again at run time.

use crate::spec::ToolSpec;

/// The longest tool name MCP allows.
pub const MAX_TOOL_NAME: usize = 128;

/// Whether `name` is a valid MCP tool name: 1 to 128 characters of
/// `A-Z a-z 0-9 _ . -`.
pub const fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_TOOL_NAME && valid_chars(name)
}

/// A command name that can be part of a tool name.
const fn valid_segment(name: &str) -> bool {
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

// ---------------------------------------------------------------------------
// The nodes the derive emits.

/// The command attributes one item applies (`#[command(hide)]`, `#[mcp]`).
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    /// `#[mcp(name = "...")]`.
    pub mcp_name: Option<&'static str>,
    /// `#[mcp(skip)]`.
    pub mcp_skip: bool,
    /// `#[command(hide = ...)]`.
    pub hide: Option<bool>,
}

impl Layer {
    /// A layer that changes nothing.
    pub const NONE: Layer = Layer {
        mcp_name: None,
        mcp_skip: false,
        hide: None,
    };
}

/// What a struct (`Args`/`Parser`) adds to the command it augments.
#[derive(Debug)]
pub struct ArgsNode {
    /// Whether the type's own derive checks its subtree (it does unless it
    /// is generic).
    pub checked: bool,
    /// The type, for messages (`` `Cli` ``).
    pub origin: &'static str,
    /// The name it has as a root: `#[command(name = "...")]` or the package
    /// name; `None` when it is not a literal.
    pub root_name: Option<&'static str>,
    /// The site of the root name (the literal, or the type's name).
    pub root_site: u32,
    /// The struct's own attributes, applied after its fields.
    pub layer: Layer,
    /// Its fields, in order.
    pub items: &'static [Item],
}

impl ArgsNode {
    /// A struct with nothing in it (also what an erroneous derive reports).
    pub const EMPTY: ArgsNode = ArgsNode {
        checked: true,
        origin: "",
        root_name: None,
        root_site: 0,
        layer: Layer::NONE,
        items: &[],
    };
}

/// What a subcommand enum adds to its parent command.
#[derive(Debug)]
pub struct SubNode {
    /// See [`ArgsNode::checked`].
    pub checked: bool,
    /// The enum's own attributes, applied to the parent command.
    pub layer: Layer,
    /// Its variants that are commands, in order.
    pub variants: &'static [VariantNode],
}

impl SubNode {
    /// An enum with no command (also what an erroneous derive reports).
    pub const EMPTY: SubNode = SubNode {
        checked: true,
        layer: Layer::NONE,
        variants: &[],
    };
}

/// One field of a struct or of a struct-like variant.
#[derive(Debug)]
pub enum Item {
    /// An argument.
    Param(Param),
    /// `#[command(flatten)]`.
    Flatten {
        /// The field's site.
        site: u32,
        /// The flattened struct.
        node: &'static ArgsNode,
    },
    /// `#[command(subcommand)]`.
    Subcommand {
        /// The field's site.
        site: u32,
        /// The subcommand enum.
        node: &'static SubNode,
        /// `Option<Enum>`: the parent runs without a subcommand.
        optional: bool,
    },
}

/// One argument.
#[derive(Debug)]
pub struct Param {
    /// The property name.
    pub name: &'static str,
    /// `global = true`.
    pub global: bool,
    /// Not exposed (`hide`, `#[mcp(skip)]`).
    pub hidden: bool,
    /// The field's site.
    pub site: u32,
    /// The field, for messages (``field `verbose` of `Cli` ``).
    pub origin: &'static str,
}

/// One variant that is a command.
#[derive(Debug)]
pub struct VariantNode {
    /// The command name clap gives it.
    pub name: &'static str,
    /// The variant's site (its `name` literal, or its identifier).
    pub site: u32,
    /// The variant, for messages (`` `Command::Add` ``).
    pub origin: &'static str,
    /// The variant's own attributes.
    pub layer: Layer,
    /// What it holds.
    pub kind: VariantKind,
}

/// What a variant holds.
#[derive(Debug)]
pub enum VariantKind {
    /// No arguments.
    Unit,
    /// Named fields.
    Fields(&'static [Item]),
    /// A newtype over an `Args` struct.
    Args(&'static ArgsNode),
    /// `#[command(subcommand)]` newtype: nested subcommands.
    Subcommand(&'static SubNode),
    /// `#[command(flatten)]` newtype: the inner enum's variants here.
    Flatten(&'static SubNode),
}

// ---------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------
// The tables: the command tree as the registry would see it.

const NO_PARENT: usize = usize::MAX;

#[derive(Clone, Copy)]
struct Cmd {
    name: &'static str,
    parent: usize,
    mcp_name: Option<&'static str>,
    skip: bool,
    hide: bool,
    sub_required: bool,
    subs: usize,
    /// 0: declared by the checking derive itself; otherwise which nested
    /// (checked) type it comes from, one number per occurrence.
    owner: u32,
    site: u32,
    origin: &'static str,
}

impl Cmd {
    const EMPTY: Cmd = Cmd {
        name: "",
        parent: NO_PARENT,
        mcp_name: None,
        skip: false,
        hide: false,
        sub_required: false,
        subs: 0,
        owner: 0,
        site: 0,
        origin: "",
    };
}

#[derive(Clone, Copy)]
struct Prop {
    name: &'static str,
    cmd: usize,
    global: bool,
    hidden: bool,
    owner: u32,
    site: u32,
    origin: &'static str,
}

impl Prop {
    const EMPTY: Prop = Prop {
        name: "",
        cmd: 0,
        global: false,
        hidden: false,
        owner: 0,
        site: 0,
        origin: "",
    };
}

struct Table<const C: usize, const P: usize> {
    cmds: [Cmd; C],
    nc: usize,
    props: [Prop; P],
    np: usize,
    owners: u32,
    /// The name of the host command (index 0) is the real root name.
    root_known: bool,
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

const fn apply<const C: usize, const P: usize>(t: &mut Table<C, P>, cmd: usize, layer: &Layer) {
    if let Some(name) = layer.mcp_name {
        t.cmds[cmd].mcp_name = Some(name);
    }
    if layer.mcp_skip {
        t.cmds[cmd].skip = true;
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
    apply(t, cmd, &node.layer);
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
                let inner = enter(t, here, variant.site, sub.checked);
                walk_sub(t, sub, cmd, inner);
            }
        }
        apply(t, cmd, &variant.layer);
        i += 1;
    }
    apply(t, parent, &node.layer);
}

// ---------------------------------------------------------------------------
// Messages.

const MSG_LEN: usize = 640;

/// A message built at compile time.
#[derive(Clone, Copy)]
pub struct Msg {
    buf: [u8; MSG_LEN],
    len: usize,
    full: bool,
}

impl Msg {
    const fn new() -> Self {
        Self {
            buf: [0; MSG_LEN],
            len: 0,
            full: false,
        }
    }

    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if self.full {
            return;
        }
        if self.len + bytes.len() + "…".len() > MSG_LEN {
            // Cut at a character boundary and say so.
            let mut keep = MSG_LEN - "…".len() - self.len;
            while keep > 0 && keep < bytes.len() && (bytes[keep] & 0xC0) == 0x80 {
                keep -= 1;
            }
            self.copy(bytes, keep);
            self.copy("…".as_bytes(), "…".len());
            self.full = true;
            return;
        }
        self.copy(bytes, bytes.len());
    }

    const fn copy(&mut self, bytes: &[u8], count: usize) {
        let mut i = 0;
        while i < count && i < bytes.len() && self.len < MSG_LEN {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
    }

    const fn push_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut count = 0;
        loop {
            digits[19 - count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, tail) = digits.split_at(20 - count);
        if let Ok(text) = core::str::from_utf8(tail) {
            self.push(text);
        }
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        let (text, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(text) {
            Ok(text) => text,
            Err(_) => "invalid MCP surface",
        }
    }
}

const MAX_DEPTH: usize = 32;

/// The commands from the top (index 0) down to `cmd`.
const fn chain<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
) -> ([usize; MAX_DEPTH], usize) {
    let mut up = [0usize; MAX_DEPTH];
    let mut n = 0;
    let mut at = cmd;
    while at != NO_PARENT && n < MAX_DEPTH {
        up[n] = at;
        n += 1;
        at = t.cmds[at].parent;
    }
    let mut down = [0usize; MAX_DEPTH];
    let mut i = 0;
    while i < n {
        down[i] = up[n - 1 - i];
        i += 1;
    }
    (down, n)
}

/// The command path joined with `sep`; `…` stands for the unknown part
/// above the checking type.
const fn push_path<const C: usize, const P: usize>(
    msg: &mut Msg,
    t: &Table<C, P>,
    cmd: usize,
    sep: &str,
) {
    let (down, n) = chain(t, cmd);
    let mut i = 0;
    while i < n {
        if i > 0 {
            msg.push(sep);
        }
        if down[i] == 0 && !t.root_known {
            msg.push("…");
        } else {
            msg.push(t.cmds[down[i]].name);
        }
        i += 1;
    }
}

const fn push_tool_name<const C: usize, const P: usize>(
    msg: &mut Msg,
    t: &Table<C, P>,
    cmd: usize,
) {
    match t.cmds[cmd].mcp_name {
        Some(name) => msg.push(name),
        None => push_path(msg, t, cmd, "_"),
    }
}

const fn push_command<const C: usize, const P: usize>(msg: &mut Msg, t: &Table<C, P>, cmd: usize) {
    msg.push(t.cmds[cmd].origin);
    msg.push(" (command `");
    push_path(msg, t, cmd, " ");
    msg.push("`)");
}

// ---------------------------------------------------------------------------
// The report.

const MAX_PROBLEMS: usize = 8;

#[derive(Clone, Copy)]
struct Problem {
    site: u32,
    kind: u8,
    a: usize,
    b: usize,
    msg: Msg,
}

/// What a check found: up to 8 problems, each at a site.
pub struct Report {
    problems: [Problem; MAX_PROBLEMS],
    len: usize,
}

impl Report {
    const fn new() -> Self {
        Self {
            problems: [Problem {
                site: 0,
                kind: 0,
                a: 0,
                b: 0,
                msg: Msg::new(),
            }; MAX_PROBLEMS],
            len: 0,
        }
    }

    const fn seen(&self, kind: u8, a: usize, b: usize) -> bool {
        let mut i = 0;
        while i < self.len {
            let p = &self.problems[i];
            if p.kind == kind && p.a == a && p.b == b {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn add(&mut self, site: u32, kind: u8, a: usize, b: usize, msg: Msg) {
        if self.len < MAX_PROBLEMS && !self.seen(kind, a, b) {
            self.problems[self.len] = Problem {
                site,
                kind,
                a,
                b,
                msg,
            };
            self.len += 1;
        }
    }

    /// Whether nothing was found.
    pub const fn is_ok(&self) -> bool {
        self.len == 0
    }

    /// The message of the `index`-th problem.
    pub const fn message(&self, index: usize) -> Option<&str> {
        if index < self.len {
            Some(self.problems[index].msg.as_str())
        } else {
            None
        }
    }
}

/// Fails compilation, at the caller's tokens, with the first problem found
/// at `site`.
#[track_caller]
pub const fn fail_at(report: &Report, site: u32) {
    let mut i = 0;
    while i < report.len {
        if report.problems[i].site == site {
            panic!("{}", report.problems[i].msg.as_str());
        }
        i += 1;
    }
}

// ---------------------------------------------------------------------------
// The checks.

/// Checks the subtree of a struct. With `is_parser` (the struct derives
/// `clap::Parser`) it is a root, and its root name is known.
pub const fn check_args<const C: usize, const P: usize>(
    node: &ArgsNode,
    is_parser: bool,
) -> Report {
    let root = if is_parser { node.root_name } else { None };
    let mut t = Table {
        cmds: [Cmd::EMPTY; C],
        nc: 1,
        props: [Prop::EMPTY; P],
        np: 0,
        owners: 0,
        root_known: root.is_some(),
    };
    t.cmds[0] = Cmd {
        name: match root {
            Some(name) => name,
            None => "",
        },
        site: node.root_site,
        origin: node.origin,
        ..Cmd::EMPTY
    };
    let top = Ctx {
        top: true,
        site: node.root_site,
        owner: 0,
    };
    walk_args(&mut t, node, 0, top);
    finish(&t, true)
}

/// Checks the subtree of a subcommand enum (its parent is unknown).
pub const fn check_sub<const C: usize, const P: usize>(node: &SubNode) -> Report {
    let mut t = Table {
        cmds: [Cmd::EMPTY; C],
        nc: 1,
        props: [Prop::EMPTY; P],
        np: 0,
        owners: 0,
        root_known: false,
    };
    let top = Ctx {
        top: true,
        site: 0,
        owner: 0,
    };
    walk_sub(&mut t, node, 0, top);
    finish(&t, false)
}

const KIND_SEGMENT: u8 = 1;
const KIND_LENGTH: u8 = 2;
const KIND_TOOL: u8 = 3;
const KIND_PROPERTY: u8 = 4;

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

/// Length of the name joined from `cmd` up to, and without, `stop`.
const fn joined_len<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
    stop: usize,
) -> usize {
    let mut len = 0;
    let mut at = cmd;
    let mut first = true;
    while at != stop && at != NO_PARENT {
        if !first {
            len += 1;
        }
        len += t.cmds[at].name.len();
        first = false;
        at = t.cmds[at].parent;
    }
    len
}

/// The `k`-th byte from the end of the name joined from `cmd` up to `stop`.
const fn joined_byte_back<const C: usize, const P: usize>(
    t: &Table<C, P>,
    cmd: usize,
    stop: usize,
    mut k: usize,
) -> u8 {
    let mut at = cmd;
    while at != stop && at != NO_PARENT {
        let name = t.cmds[at].name.as_bytes();
        if k < name.len() {
            return name[name.len() - 1 - k];
        }
        k -= name.len();
        if k == 0 {
            return b'_';
        }
        k -= 1;
        at = t.cmds[at].parent;
    }
    0
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

/// Whether the full path name of `cmd` is `name`.
const fn path_is<const C: usize, const P: usize>(t: &Table<C, P>, cmd: usize, name: &str) -> bool {
    let bytes = name.as_bytes();
    let len = joined_len(t, cmd, NO_PARENT);
    if len != bytes.len() {
        return false;
    }
    let mut k = 0;
    while k < len {
        if joined_byte_back(t, cmd, NO_PARENT, k) != bytes[len - 1 - k] {
            return false;
        }
        k += 1;
    }
    true
}

const fn is_ancestor<const C: usize, const P: usize>(
    t: &Table<C, P>,
    ancestor: usize,
    cmd: usize,
) -> bool {
    let mut at = t.cmds[cmd].parent;
    while at != NO_PARENT {
        if at == ancestor {
            return true;
        }
        at = t.cmds[at].parent;
    }
    false
}

/// Two things owned by the same nested type were reported by its derive.
const fn ours(a: u32, b: u32) -> bool {
    a == 0 || b == 0 || a != b
}

const fn finish<const C: usize, const P: usize>(t: &Table<C, P>, host_is_tool: bool) -> Report {
    let mut report = Report::new();
    let n = t.nc;

    // Exposed commands and tools, as the registry picks them.
    let mut exposed = [false; C];
    let mut tool = [false; C];
    let mut i = 0;
    while i < n {
        let cmd = &t.cmds[i];
        let parent_exposed = cmd.parent == NO_PARENT || exposed[cmd.parent];
        exposed[i] = parent_exposed && !cmd.hide && !cmd.skip;
        tool[i] = exposed[i] && (cmd.subs == 0 || !cmd.sub_required) && (i != 0 || host_is_tool);
        i += 1;
    }

    // Command names that make path-built tool names invalid.
    let mut c = if t.root_known { 0 } else { 1 };
    while c < n {
        let cmd = &t.cmds[c];
        if cmd.owner == 0 && exposed[c] && !valid_segment(cmd.name) {
            let mut j = c;
            while j < n {
                if tool[j] && t.cmds[j].mcp_name.is_none() && (j == c || is_ancestor(t, c, j)) {
                    let mut msg = Msg::new();
                    msg.push("the command name `");
                    msg.push(cmd.name);
                    msg.push("` of ");
                    msg.push(cmd.origin);
                    msg.push(" makes the tool name `");
                    push_tool_name(&mut msg, t, j);
                    msg.push("` invalid: MCP tool names are 1 to 128 characters of A-Z, a-z, 0-9, `_`, `.` and `-`; ");
                    if j == c {
                        msg.push("rename the command, or set its tool name with `#[mcp(name = \"...\")]`");
                    } else {
                        msg.push("rename the command, or set the tool name of ");
                        msg.push(t.cmds[j].origin);
                        msg.push(" with `#[mcp(name = \"...\")]`");
                    }
                    report.add(cmd.site, KIND_SEGMENT, c, 0, msg);
                    break;
                }
                j += 1;
            }
        }
        c += 1;
    }

    // Full tool names longer than MCP allows (only where the root is known).
    if t.root_known {
        let mut j = 0;
        while j < n {
            if tool[j] && t.cmds[j].mcp_name.is_none() {
                let len = joined_len(t, j, NO_PARENT);
                if len > MAX_TOOL_NAME && all_segments_valid(t, j) {
                    let mut msg = Msg::new();
                    msg.push("the tool name `");
                    push_tool_name(&mut msg, t, j);
                    msg.push("` of ");
                    msg.push(t.cmds[j].origin);
                    msg.push(" is ");
                    msg.push_number(len);
                    msg.push(" characters long; MCP allows at most 128: set a shorter one with `#[mcp(name = \"...\")]`");
                    report.add(t.cmds[j].site, KIND_LENGTH, j, 0, msg);
                }
            }
            j += 1;
        }
    }

    // Two tools with one name.
    let mut j = 0;
    while j < n {
        if tool[j] {
            let mut i = 0;
            while i < j {
                if tool[i] && same_tool_name(t, i, j) {
                    let mut msg = Msg::new();
                    msg.push("two tools are named `");
                    push_tool_name(&mut msg, t, j);
                    msg.push("`: ");
                    push_command(&mut msg, t, i);
                    msg.push(" and ");
                    push_command(&mut msg, t, j);
                    msg.push("; give one of them another name with `#[mcp(name = \"...\")]`");
                    report.add(t.cmds[j].site, KIND_TOOL, i, j, msg);
                    break;
                }
                i += 1;
            }
        }
        j += 1;
    }

    // Two properties of one tool with one name. The exposed parameters of
    // each command, grouped (indices into `props`, command by command), so
    // a tool looks only at its own and its ancestors'.
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
    while c < n {
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
    let groups = Groups {
        first: &first,
        count: &count,
        grouped: &grouped,
    };
    let mut scratch = [0usize; P];
    let mut tool_at = 0;
    while tool_at < n {
        if tool[tool_at] {
            check_properties(t, &groups, tool_at, &mut scratch, &mut report);
        }
        tool_at += 1;
    }
    report
}

/// The exposed parameters of each command: `grouped[first[c]..][..count[c]]`.
struct Groups<'a, const C: usize, const P: usize> {
    first: &'a [usize; C],
    count: &'a [usize; C],
    grouped: &'a [usize; P],
}

const fn all_segments_valid<const C: usize, const P: usize>(t: &Table<C, P>, cmd: usize) -> bool {
    let mut at = cmd;
    while at != NO_PARENT {
        if !valid_segment(t.cmds[at].name) {
            return false;
        }
        at = t.cmds[at].parent;
    }
    true
}

const fn same_tool_name<const C: usize, const P: usize>(
    t: &Table<C, P>,
    i: usize,
    j: usize,
) -> bool {
    let (a, b) = (&t.cmds[i], &t.cmds[j]);
    match (a.mcp_name, b.mcp_name) {
        (Some(x), Some(y)) => ours(a.owner, b.owner) && str_eq(x, y),
        // The host's own (relative) name is empty, every other is not.
        (None, None) => ours(a.owner, b.owner) && i != 0 && path_eq(t, i, j, 0),
        // A given name against one made from a path: needs the root.
        (Some(x), None) => t.root_known && path_is(t, j, x),
        (None, Some(y)) => t.root_known && path_is(t, i, y),
    }
}

/// Checks the properties of one tool: its own parameters and the globals
/// of its ancestors.
const fn check_properties<const C: usize, const P: usize>(
    t: &Table<C, P>,
    groups: &Groups<'_, C, P>,
    tool: usize,
    visible: &mut [usize; P],
    report: &mut Report,
) {
    let mut count = 0;
    let mut at = tool;
    while at != NO_PARENT {
        let mut k = 0;
        while k < groups.count[at] {
            let p = groups.grouped[groups.first[at] + k];
            if at == tool || t.props[p].global {
                visible[count] = p;
                count += 1;
            }
            k += 1;
        }
        at = t.cmds[at].parent;
    }
    let mut vb = 0;
    while vb < count {
        let mut va = 0;
        while va < vb {
            // The one declared later is the one reported.
            let (a, b) = if visible[va] < visible[vb] {
                (visible[va], visible[vb])
            } else {
                (visible[vb], visible[va])
            };
            let (pa, pb) = (&t.props[a], &t.props[b]);
            if ours(pa.owner, pb.owner) && str_eq(pa.name, pb.name) {
                let mut msg = Msg::new();
                msg.push("the tool `");
                push_tool_name(&mut msg, t, tool);
                msg.push("` has two properties named `");
                msg.push(pb.name);
                msg.push("`: ");
                msg.push(pa.origin);
                if pa.global {
                    msg.push(" (global)");
                }
                msg.push(" and ");
                msg.push(pb.origin);
                if pb.global {
                    msg.push(" (global)");
                }
                msg.push(
                    "; rename one with `#[mcp(name = \"...\")]`, or hide it with `#[mcp(skip)]`",
                );
                report.add(pb.site, KIND_PROPERTY, a, b, msg);
                break;
            }
            va += 1;
        }
        vb += 1;
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

// ---------------------------------------------------------------------------
// The same rule at run time, for what the compiler could not see (generic
// types, names that are not literals).

/// A tool name that breaks the MCP rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("tool name `{name}` (command `{path}`) is not a valid MCP tool name: use 1 to 128 characters of A-Z, a-z, 0-9, `_`, `.` and `-`; set one with #[mcp(name = \"...\")]")]
pub struct InvalidToolName {
    /// The name.
    pub name: String,
    /// The command path.
    pub path: String,
}

/// Checks every tool name.
pub(crate) fn check_tool_names(tools: &[ToolSpec]) -> Result<(), InvalidToolName> {
    match tools.iter().find(|tool| !is_valid_tool_name(&tool.name)) {
        Some(tool) => Err(InvalidToolName {
            name: tool.name.clone(),
            path: tool.path.join(" "),
        }),
        None => Ok(()),
    }
}

/// Why the tool table of a CLI cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// Two commands end up as tools with the same name.
    #[error(transparent)]
    DuplicateTool(#[from] crate::registry::DuplicateTool),
    /// A tool name breaks the MCP rule.
    #[error(transparent)]
    InvalidToolName(#[from] InvalidToolName),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::CommandSpec;

    const fn variant(name: &'static str, site: u32, kind: VariantKind) -> VariantNode {
        VariantNode {
            name,
            site,
            origin: "`V`",
            layer: Layer::NONE,
            kind,
        }
    }

    /// An enum with two variants named `run`, nested in a struct.
    static TWINS: SubNode = SubNode {
        checked: true,
        layer: Layer::NONE,
        variants: &[
            variant("run", 0, VariantKind::Unit),
            variant("run", 1, VariantKind::Unit),
        ],
    };

    static GENERIC_TWINS: SubNode = SubNode {
        checked: false,
        ..TWINS
    };

    fn root(sub: &'static SubNode) -> ArgsNode {
        ArgsNode {
            checked: true,
            origin: "`Cli`",
            root_name: Some("app"),
            root_site: 0,
            layer: Layer::NONE,
            items: Box::leak(Box::new([Item::Subcommand {
                site: 1,
                node: sub,
                optional: false,
            }])),
        }
    }

    #[test]
    fn a_collision_is_reported_by_the_lowest_type_that_sees_it() {
        let inner = check_sub::<3, 0>(&TWINS);
        assert_eq!(
            inner.message(0),
            Some("two tools are named `…_run`: `V` (command `… run`) and `V` (command `… run`); give one of them another name with `#[mcp(name = \"...\")]`")
        );
        assert_eq!(inner.problems[0].site, 1, "at the second variant");
        // The enum checks itself: the root does not repeat it.
        assert!(check_args::<3, 0>(&root(&TWINS), true).is_ok());
        // A generic enum does not check itself: the root does.
        let outer = check_args::<3, 0>(&root(&GENERIC_TWINS), true);
        assert_eq!(
            outer.message(0),
            Some("two tools are named `app_run`: `V` (command `app run`) and `V` (command `app run`); give one of them another name with `#[mcp(name = \"...\")]`")
        );
        assert_eq!(outer.problems[0].site, 1, "at the subcommand field");
    }

    #[test]
    fn hidden_and_skipped_commands_are_not_tools() {
        static HIDDEN: SubNode = SubNode {
            checked: true,
            layer: Layer::NONE,
            variants: &[
                variant("run", 0, VariantKind::Unit),
                VariantNode {
                    layer: Layer {
                        hide: Some(true),
                        ..Layer::NONE
                    },
                    ..variant("run", 1, VariantKind::Unit)
                },
                VariantNode {
                    layer: Layer {
                        mcp_skip: true,
                        ..Layer::NONE
                    },
                    ..variant("run", 2, VariantKind::Unit)
                },
            ],
        };
        assert!(check_sub::<4, 0>(&HIDDEN).is_ok());
    }

    #[test]
    fn messages_are_cut_at_a_character_boundary() {
        let mut msg = Msg::new();
        for _ in 0..MSG_LEN {
            msg.push("é");
        }
        assert!(msg.as_str().ends_with('…'));
        assert!(msg.as_str().len() <= MSG_LEN);
        let mut msg = Msg::new();
        msg.push_number(0);
        msg.push(" ");
        msg.push_number(129);
        assert_eq!(msg.as_str(), "0 129");
    }

    #[test]
    fn the_registry_refuses_invalid_tool_names() {
        let mut root = CommandSpec::new("app");
        root.subcommands.push(CommandSpec::new("my cmd"));
        let error = crate::Registry::<()>::from_spec(root).unwrap_err();
        assert_eq!(
            error,
            RegistryError::InvalidToolName(InvalidToolName {
                name: "app_my cmd".into(),
                path: "app my cmd".into(),
            })
        );
        let long = CommandSpec::new("x".repeat(129));
        assert!(crate::Registry::<()>::from_spec(long).is_err());
        assert!(crate::Registry::<()>::from_spec(CommandSpec::new("x".repeat(128))).is_ok());
    }

    #[test]
    fn tool_name_rule() {
        assert!(is_valid_tool_name("app_task-add.v2"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("a b"));
        assert!(!is_valid_tool_name("tâche"));
    }
}
