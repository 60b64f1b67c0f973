//! The command tree as constant data, for the checks the compiler runs.
//!
//! Each derive describes its own node as an associated constant
//! ([`ArgsNode`] for structs, [`SubNode`] for enums) that refers to the
//! constants of the types it flattens or nests; `registry::tree` walks
//! them in `const fn`s. Generated code only: not a public API.

/// The command attributes one item applies (`#[command(hide)]`, `#[mcp]`).
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    /// `#[mcp(name = "...")]`.
    pub mcp_name: Option<&'static str>,
    /// `#[mcp(skip)]`.
    pub mcp_skip: bool,
    /// `#[command(hide = ...)]`.
    pub hide: Option<bool>,
    /// `#[mcp(prefix = "...")]`: what the root gives to the start of tool
    /// names (root only).
    pub mcp_prefix: Option<&'static str>,
    /// `#[mcp(max_name_len = N)]`: the longest tool name (root only; `0`
    /// when not set).
    pub mcp_max_name_len: usize,
    /// The property names `#[mcp(args(...))]` fixes.
    pub mcp_fixed: &'static [&'static str],
    /// The `#[mcp(...)]` keys given here that only a command's own tool
    /// carries (`title`, `timeout`, `args(...)`...), as written: a command
    /// that runs only through its subcommands has no tool to carry them.
    pub mcp_tool_keys: &'static [&'static str],
}

impl Layer {
    /// A layer that changes nothing.
    pub const NONE: Layer = Layer {
        mcp_name: None,
        mcp_skip: false,
        hide: None,
        mcp_prefix: None,
        mcp_max_name_len: 0,
        mcp_fixed: &[],
        mcp_tool_keys: &[],
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
    /// The enum, for messages (`` `Command` ``).
    pub origin: &'static str,
    /// The enum's own attributes, applied to the parent command.
    pub layer: Layer,
    /// Its variants that are commands, in order.
    pub variants: &'static [VariantNode],
}

impl SubNode {
    /// An enum with no command (also what an erroneous derive reports).
    pub const EMPTY: SubNode = SubNode {
        checked: true,
        origin: "",
        layer: Layer::NONE,
        variants: &[],
    };
}

/// The site of an [`Item::Subcommand`] that is the checking type itself:
/// an enum deriving `Parser` is the required subcommand of its own root
/// command, and its variants are the checking derive's own items (checked
/// and reported at their sites, not as a nested type's).
pub const SELF_SITE: u32 = u32::MAX;

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
    /// A positional argument (the positional/flag rule: a flag named as a
    /// positional of its command keeps the name).
    pub positional: bool,
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
