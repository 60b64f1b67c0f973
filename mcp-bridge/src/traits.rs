//! The traits `#[derive(McpTool)]` implements: the seam between the code
//! generated for a CLI and this runtime. Each has three faces: the spec
//! (`mcp_augment`), the typed build (`mcp_build`) and the constant node the
//! compile-time tree check walks (`MCP_NODE`).
//!
//! `#[derive(McpTool)]` writes them. A type that implements `clap::Args`
//! by hand (with clap's builder API) implements [`McpArgs`] by hand too:
//! see its documentation.

use crate::call::BuildCtx;
use crate::error::ArgError;
use crate::spec::tree::{ArgsNode, SubNode};
use crate::spec::CommandSpec;

/// A clap `Args`/`Parser` struct that knows its MCP surface.
///
/// `#[derive(McpTool)]` implements it on structs. For a type that
/// implements `clap::Args` by hand, implement it by hand next to it: say
/// in [`mcp_augment`](Self::mcp_augment) which parameters `augment_args`
/// declares, and build the value from a call's arguments in
/// [`mcp_build`](Self::mcp_build) with [`BuildCtx`]. Check the result
/// against clap with [`testing::assert_parity`](crate::testing::assert_parity)
/// on the root. (Such a type is not part of the compile-time tree checks;
/// the registry still checks tool and property names when it is built.)
///
/// ```
/// use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, Parser};
/// use mcp_bridge::convert::Text;
/// use mcp_bridge::spec::{CommandSpec, ParamAction, ParamSpec, ValueType};
/// use mcp_bridge::{no_texts, ArgError, BuildCtx, McpArgs, McpTool};
///
/// /// Paging, written with clap's builder API.
/// #[derive(Debug, PartialEq)]
/// struct Paging {
///     no_pager: bool,
///     pager: Option<String>,
/// }
///
/// impl FromArgMatches for Paging {
///     fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
///         Ok(Self { no_pager: m.get_flag("no_pager"), pager: m.get_one::<String>("pager").cloned() })
///     }
///     fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
///         *self = Self::from_arg_matches(m)?;
///         Ok(())
///     }
/// }
///
/// impl Args for Paging {
///     fn augment_args(cmd: Command) -> Command {
///         cmd.arg(Arg::new("no_pager").long("no-pager").action(ArgAction::SetTrue).help("Do not page"))
///             .arg(Arg::new("pager").long("pager").help("The pager to use"))
///     }
///     fn augment_args_for_update(cmd: Command) -> Command {
///         Self::augment_args(cmd)
///     }
/// }
///
/// impl McpArgs for Paging {
///     fn mcp_augment(cmd: &mut CommandSpec) {
///         cmd.params.push(
///             ParamSpec::flag("no_pager", Some("no-pager"), None, ValueType::Boolean)
///                 .action(ParamAction::SetTrue)
///                 .default_text(["false"])
///                 .description(Some("Do not page")),
///         );
///         cmd.params.push(
///             ParamSpec::flag("pager", Some("pager"), None, ValueType::string())
///                 .description(Some("The pager to use")),
///         );
///     }
///     fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError> {
///         Ok(Self {
///             no_pager: ctx.flag("no-pager", true)?,
///             pager: ctx.optional("pager", &no_texts, None, Text::<String>::new())?,
///         })
///     }
/// }
///
/// /// Shows files.
/// #[derive(Parser, McpTool, Debug, PartialEq)]
/// #[command(name = "show")]
/// struct Show {
///     /// What to show
///     file: String,
///     #[command(flatten)]
///     paging: Paging,
/// }
///
/// mcp_bridge::testing::assert_parity::<Show>();
/// let registry = mcp_bridge::Registry::<Show>::new().unwrap();
/// let args = serde_json::json!({ "file": "a", "pager": "less" });
/// let show = registry.build("show", args.as_object().unwrap()).unwrap();
/// assert_eq!(show, Show::try_parse_from(["show", "--pager", "less", "a"]).unwrap());
/// ```
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

    /// Adds this struct's arguments (and subcommands and attributes) to
    /// `cmd`, as `clap::Args::augment_args` adds them to a `Command`: one
    /// [`ParamSpec`](crate::spec::ParamSpec) per argument, in order.
    fn mcp_augment(cmd: &mut CommandSpec);

    /// Builds the value from a tool call's arguments, reading each
    /// argument from `ctx` by its property name (its long name, or its id
    /// for a positional argument).
    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError>;

    /// Whether the call gives any of the struct's own arguments (for a
    /// flattened `Option<Self>`, which clap makes `None` otherwise).
    /// Generated by the derive; a hand-written implementation used as an
    /// `Option` says so here.
    #[doc(hidden)]
    fn mcp_given(ctx: &BuildCtx<'_>) -> bool {
        let _ = ctx;
        false
    }
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

/// `Box<T>` as clap takes it, a flattened struct or a subcommand's payload
/// (`Run(Box<RunOpts>)`): `T`'s arguments, the value boxed.
impl<T: McpArgs> McpArgs for Box<T> {
    const MCP_NODE: &'static ArgsNode = T::MCP_NODE;

    fn mcp_augment(cmd: &mut CommandSpec) {
        T::mcp_augment(cmd);
    }

    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError> {
        T::mcp_build(ctx).map(Box::new)
    }

    fn mcp_given(ctx: &BuildCtx<'_>) -> bool {
        T::mcp_given(ctx)
    }
}

/// `Box<T>` as clap takes it for a nested subcommand enum: `T`'s
/// subcommands, the value boxed.
impl<T: McpSubcommand> McpSubcommand for Box<T> {
    const MCP_NODE: &'static SubNode = T::MCP_NODE;

    fn mcp_augment_subcommands(cmd: &mut CommandSpec) {
        T::mcp_augment_subcommands(cmd);
    }

    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self, ArgError> {
        T::mcp_build(ctx).map(Box::new)
    }
}

/// The arguments of `T`, a flattened struct or a subcommand variant's
/// payload, as generated code reaches them: `T`'s [`McpArgs`] when it has
/// them (these inherent items), else, for a `T` that implements
/// `clap::Args` by hand or comes from another crate, the items of
/// [`ViaClap`], read through clap (an inherent associated item whose
/// bounds do not hold gives way to a trait's). Generated code only.
#[doc(hidden)]
pub struct ArgsOf<T>(std::marker::PhantomData<T>);

impl<T: McpArgs> ArgsOf<T> {
    /// `T`'s node in the compile-time tree checks.
    pub const MCP_NODE: &'static ArgsNode = T::MCP_NODE;

    /// Adds `T`'s parameters to `cmd`.
    pub fn mcp_augment(cmd: &mut CommandSpec) {
        T::mcp_augment(cmd);
    }

    /// Builds `T` from a call.
    pub fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<T, ArgError> {
        T::mcp_build(ctx)
    }

    /// Whether any of `T`'s own arguments is given.
    pub fn mcp_given(ctx: &BuildCtx<'_>) -> bool {
        T::mcp_given(ctx)
    }
}

/// [`ArgsOf`] for a struct with no [`McpArgs`] that implements
/// `clap::Args`: its parameters read from the `Arg`s its `augment_args`
/// adds, when the tool table is built; its value built by clap from the
/// call's properties for that struct alone (the one place a call's value
/// is parsed from text). Not part of the compile-time tree checks (the
/// registry checks tool and property names when it is built).
#[doc(hidden)]
pub trait ViaClap {
    /// The struct.
    type Value;
    /// No node: nothing for the compile-time checks to walk.
    const MCP_NODE: &'static ArgsNode = &ArgsNode::EMPTY;
    /// Adds the parameters clap's `Arg`s say to `cmd`.
    fn mcp_augment(cmd: &mut CommandSpec);
    /// The value clap builds from the call.
    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<Self::Value, ArgError>;
    /// Whether any of the struct's arguments is given.
    fn mcp_given(ctx: &BuildCtx<'_>) -> bool;
}

impl<T: clap::Args + clap::FromArgMatches + 'static> ViaClap for ArgsOf<T> {
    type Value = T;

    fn mcp_augment(cmd: &mut CommandSpec) {
        let (clap, stand_ins) = crate::spec::clap_args::standalone::<T>(&cmd.name);
        crate::spec::clap_args::augment(cmd, clap, &stand_ins);
    }

    fn mcp_build(ctx: &mut BuildCtx<'_>) -> Result<T, ArgError> {
        crate::call::clap_args::build::<T>(ctx)
    }

    fn mcp_given(ctx: &BuildCtx<'_>) -> bool {
        crate::call::clap_args::given::<T>(ctx)
    }
}

/// The name a struct has when it is the root command; generated for every
/// struct, used only for `Parser` roots.
#[doc(hidden)]
pub trait McpRoot {
    /// `#[command(name)]`, or the package name as clap defaults it.
    fn mcp_root_name() -> &'static str;

    /// The Cargo package the CLI is declared in (what `mcp server-json`
    /// publishes).
    fn mcp_package() -> Package {
        Package::default()
    }
}

/// The Cargo package a CLI is declared in, as Cargo told the compiler:
/// `None` for what it did not set (or set empty).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Package {
    /// `CARGO_PKG_NAME`.
    pub name: Option<&'static str>,
    /// `CARGO_PKG_VERSION`.
    pub version: Option<&'static str>,
    /// `CARGO_PKG_REPOSITORY`.
    pub repository: Option<&'static str>,
    /// `CARGO_PKG_DESCRIPTION`.
    pub description: Option<&'static str>,
}

impl Package {
    /// The package from `CARGO_PKG_*` as `option_env!` read them in the
    /// CLI's crate (what the derive expands to).
    pub const fn from_cargo(
        name: Option<&'static str>,
        version: Option<&'static str>,
        repository: Option<&'static str>,
        description: Option<&'static str>,
    ) -> Self {
        const fn set(value: Option<&'static str>) -> Option<&'static str> {
            match value {
                Some(text) if !text.is_empty() => Some(text),
                _ => None,
            }
        }
        Self {
            name: set(name),
            version: set(version),
            repository: set(repository),
            description: set(description),
        }
    }
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

    /// The Cargo package the CLI is declared in.
    #[doc(hidden)]
    fn package() -> Package;
}

impl<T: McpArgs + McpRoot + clap::Parser> McpCommand for T {
    fn package() -> Package {
        T::mcp_package()
    }

    fn command_spec() -> CommandSpec {
        let mut root = CommandSpec::new(T::mcp_root_name());
        T::mcp_augment(&mut root);
        // Doc comments rendered as markdown: the texts as clap has them.
        if crate::spec::markdown::clap_renders_markdown() {
            crate::spec::markdown::take_texts(&mut root, &T::command());
        }
        root
    }
}
