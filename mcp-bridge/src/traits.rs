//! The traits `#[derive(McpTool)]` implements: the seam between the code
//! generated for a CLI and this runtime. Each has three faces: the spec
//! (`mcp_augment`), the typed build (`mcp_build`) and the constant node the
//! compile-time tree check walks (`MCP_NODE`).
//!
//! They are not meant to be written by hand: a hand-written `clap::Args`
//! or `Subcommand` type gets them by deriving `McpTool` next to its clap
//! derive.

use crate::call::BuildCtx;
use crate::error::ArgError;
use crate::spec::tree::{ArgsNode, SubNode};
use crate::spec::CommandSpec;

/// A clap `Args`/`Parser` struct that knows its MCP surface.
///
/// Implemented by `#[derive(McpTool)]` on structs; not meant to be written
/// by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is used as clap arguments but does not derive `McpTool`",
    label = "missing `#[derive(McpTool)]`",
    note = "add `#[derive(mcp_bridge::McpTool)]` next to `#[derive(clap::Args)]` (or `Parser`) on `{Self}`"
)]
pub trait McpArgs: Sized {
    /// What the struct adds to its command, for the compile-time checks of
    /// the whole tree (`registry::tree`).
    #[doc(hidden)]
    const MCP_NODE: &'static ArgsNode = &ArgsNode::EMPTY;

    /// Adds this struct's arguments, subcommands and attributes to `cmd`.
    #[doc(hidden)]
    fn mcp_augment(cmd: &mut CommandSpec);

    /// Builds the value from a tool call's arguments.
    #[doc(hidden)]
    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError>;
}

/// A clap `Subcommand` enum that knows its MCP surface.
///
/// Implemented by `#[derive(McpTool)]` on enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is used as a clap subcommand but does not derive `McpTool`",
    label = "missing `#[derive(McpTool)]`",
    note = "add `#[derive(mcp_bridge::McpTool)]` next to `#[derive(clap::Subcommand)]` on `{Self}`"
)]
pub trait McpSubcommand: Sized {
    /// What the enum adds to its parent command, for the compile-time
    /// checks of the whole tree (`registry::tree`).
    #[doc(hidden)]
    const MCP_NODE: &'static SubNode = &SubNode::EMPTY;

    /// Adds one subcommand per variant to `cmd`.
    #[doc(hidden)]
    fn mcp_augment_subcommands(cmd: &mut CommandSpec);

    /// Builds the variant the route selects.
    #[doc(hidden)]
    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError>;

    /// Builds an optional subcommand: `None` when the route ends at the
    /// parent (a runnable parent called without a subcommand).
    #[doc(hidden)]
    fn mcp_build_optional(ctx: &mut BuildCtx<'_>) -> Result<Option<Self>, ArgError> {
        if ctx.route_ended() {
            Ok(None)
        } else {
            Self::mcp_build(ctx).map(Some)
        }
    }
}

/// The name a struct has when it is the root command; generated for every
/// struct, used only for `Parser` roots.
#[doc(hidden)]
pub trait McpRoot {
    /// `#[command(name)]`, or the package name as clap defaults it.
    fn mcp_root_name() -> &'static str;
}

/// The root of a CLI (`#[derive(Parser, McpTool)]`): the whole command
/// tree, ready to be served.
///
/// ```
/// use clap::Parser;
/// use mcp_bridge::{McpCommand, McpTool};
///
/// /// Greets people.
/// #[derive(Parser, McpTool)]
/// #[command(name = "hello")]
/// struct Hello {
///     /// Who to greet
///     name: String,
/// }
///
/// let spec = Hello::command_spec();
/// assert_eq!(spec.name, "hello");
/// assert_eq!(spec.params[0].name, "name");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP-enabled clap command",
    label = "missing `#[derive(McpTool)]`",
    note = "add `#[derive(mcp_bridge::McpTool)]` next to `#[derive(clap::Parser)]` on `{Self}`"
)]
pub trait McpCommand: McpArgs + clap::Parser {
    /// The command tree, as clap would build it, without building it.
    fn command_spec() -> CommandSpec;
}

impl<T: McpArgs + McpRoot + clap::Parser> McpCommand for T {
    fn command_spec() -> CommandSpec {
        let mut root = CommandSpec::new(T::mcp_root_name());
        T::mcp_augment(&mut root);
        root
    }
}
