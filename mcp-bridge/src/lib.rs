//! Serve a clap CLI as an MCP server, with tool schemas and typed dispatch
//! generated at compile time.
//!
//! Add `#[derive(McpTool)]` next to clap's derives, write one handler that
//! runs a parsed command, and hand both to [`Bridge`]:
//!
//! ```no_run
//! use std::io::Write;
//! use clap::{Parser, Subcommand};
//! use mcp_bridge::{Bridge, Io, McpTool};
//!
//! /// A greeter.
//! #[derive(Parser, McpTool)]
//! #[command(name = "greet")]
//! struct Cli {
//!     #[command(subcommand)]
//!     command: Command,
//! }
//!
//! #[derive(Subcommand, McpTool)]
//! enum Command {
//!     /// Say hello
//!     Hello {
//!         /// Who to greet
//!         name: String,
//!         /// How many times
//!         #[arg(long, default_value_t = 1)]
//!         times: u8,
//!     },
//! }
//!
//! fn run(cli: Cli, io: &mut Io) -> std::io::Result<()> {
//!     let Command::Hello { name, times } = cli.command;
//!     for _ in 0..times {
//!         writeln!(io.out(), "hello {name}")?;
//!     }
//!     Ok(())
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     // `greet hello Ann` works as before; `greet mcp serve` serves the
//!     // tool `greet_hello` over stdio; `greet mcp tools` prints its schema.
//!     Bridge::new(run).run()
//! }
//! ```
//!
//! Features: stdio needs none. `http` serves over Streamable HTTP too
//! (`mcp serve --http`: axum and hyper); `oauth` (with `http`) checks
//! OAuth 2.1 access tokens; `yaml` reads YAML, for `#[mcp(output =
//! "yaml")]` and `Skill::new` (an author's `SKILL.md`). Without `yaml`,
//! asking for YAML output is a compile error that names the feature:
//!
#![cfg_attr(feature = "yaml", doc = "```no_run")]
#![cfg_attr(not(feature = "yaml"), doc = "```compile_fail,E0277")]
//! # use clap::Parser;
//! # use mcp_bridge::McpTool;
//! #[derive(Parser, McpTool)]
//! #[mcp(output = "yaml")]
//! struct Show {
//!     name: String,
//! }
//! # fn main() {}
//! ```
//!
//! Data flows one way, and so do the imports, down this list:
//!
//! | module | step |
//! | --- | --- |
//! | [`Bridge`] (`bridge/`) | the CLI runs as itself, or `mcp serve` / `mcp tools`; [`parse`], the drop-in for `Cli::parse()` |
//! | [`BridgeServer`] (`serve/`) | the rmcp handler; running the user's handler off the event loop within the server's limits; the stdio transport |
//! | [`Registry`] (`registry/`) | the tool table: which commands are tools, their names; the compile-time tree checks |
//! | traits (`traits.rs`) | what `#[derive(McpTool)]` implements: spec, typed build, tree node |
//! | `call/` | a call's JSON arguments → the user's typed value: property and relation checks, converters |
//! | [`spec`] (`spec/`) | the static description: commands, parameters, value types, relations, JSON Schema |
//!
//! `error.rs`, `io.rs` and `handler.rs` (the kinds of handler [`Bridge`]
//! takes) are leaves every layer may use; generated code
//! reaches the runtime only through the hidden `__private` module.

mod bridge;
mod call;
mod error;
pub mod handler;
mod handoff;
mod install;
mod io;
mod ordered;
mod registry;
mod serve;
#[cfg(feature = "server-json")]
mod server_json;
mod spawn;
pub mod spec;
#[cfg(feature = "testing")]
pub mod testing;
mod trace;
mod traits;

pub use bridge::{
    get_matches, get_matches_from, get_matches_mut, parse, parse_from, try_get_matches,
    try_get_matches_from, try_get_matches_from_mut, try_parse, try_parse_from, Bridge,
};
pub use call::convert;
pub use call::{no_texts, BuildCtx, DefaultSource, DefaultTexts, LiteralTexts, Texts};
pub use convert::McpValue;
pub use error::{
    ArgError, CallError, DuplicateTool, InvalidToolName, Problem, RegistryError, ValueProblem,
};
pub use handler::IntoHandler;
pub use io::{
    confirm, confirm_async, prompt, prompt_async, start_task, start_task_async, Asker, Io, Output,
    Report, Unanswered, UnansweredReason,
};
pub use mcp_bridge_derive::McpTool;
pub use registry::{Registry, ToolMode};
pub use serve::{BridgeServer, CallOutcome, Skill};
pub use trace::{trace_context, TraceContext};
pub use traits::{McpArgs, McpCommand, McpSubcommand};

/// `__private::tri!` (see there).
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_bridge_tri {
    ($result:expr) => {
        match $result {
            ::core::result::Result::Ok(value) => value,
            ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
        }
    };
}

/// What generated code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::call::convert::Converter;
    pub use crate::call::{env_texts, no_texts, BuildCtx, DefaultTexts, LiteralTexts, Texts};
    pub use crate::error::ArgError;
    pub use crate::spec::known as value_types;
    pub use crate::spec::{
        values_of, FixedValue, OutputFormat, OutputType, TaskSupport, ValuesSource,
    };
    pub use crate::spec::{
        Arity, CommandLayer, CommandSpec, GroupSpec, ParamAction, ParamData, ParamRelations,
        ParamSpec, RelationData, RelationKind, ToolHints, ValueType,
    };
    pub use crate::traits::{ArgsOf, McpArgs, McpRoot, McpSubcommand, Package, ViaClap};
    pub use std::borrow::Cow;
    pub use std::boxed::Box;
    pub use std::marker::PhantomData;
    pub use std::option::Option::{self, None, Some};
    pub use std::result::Result::{self, Err, Ok};
    pub use std::string::{String, ToString};
    pub use std::vec;

    /// `?` for the generated `mcp_build`s, which return the error they
    /// get as it is: a plain `match`, not the `Try` and `From` calls `?`
    /// expands to, so each argument of each command gives the compiler
    /// less to work through (serde's derive does the same).
    pub use crate::__mcp_bridge_tri as tri;

    /// `#[mcp(output = "yaml")]`, spanned at the `"yaml"`: reading YAML
    /// is the `yaml` feature's, and without it the derive's code does not
    /// compile, saying which feature to turn on.
    #[diagnostic::on_unimplemented(
        message = "`#[mcp(output = \"yaml\")]` needs mcp-bridge's `yaml` feature",
        label = "YAML output is read with the `yaml` feature",
        note = "turn it on in Cargo.toml: `mcp-bridge = {{ version = \"0.1\", features = [\"yaml\"] }}`"
    )]
    pub trait YamlOutput {
        /// The format, where the feature is on.
        const FORMAT: OutputFormat;
    }

    #[cfg(feature = "yaml")]
    impl YamlOutput for () {
        const FORMAT: OutputFormat = OutputFormat::Yaml;
    }

    /// The converters, and the probe that picks one by type.
    pub mod convert {
        pub use crate::call::auto;
        pub use crate::call::convert::*;
    }

    /// The compile-time checks of the whole command tree: the nodes the
    /// derive emits and the `const fn`s that check them.
    pub mod tree {
        pub use crate::registry::tree::*;
        pub use crate::spec::tree::*;
    }

    /// `value_delimiter = EXPR`, read as clap reads it.
    pub fn delimiter(value: impl clap::builder::IntoResettable<char>) -> Option<char> {
        match value.into_resettable() {
            clap::builder::Resettable::Value(c) => Some(c),
            clap::builder::Resettable::Reset => None,
        }
    }

    /// `num_args = EXPR`, read as clap reads it.
    pub fn num_args(range: impl Into<clap::builder::ValueRange>, repeatable: bool) -> Arity {
        let range = range.into();
        let bound = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Arity {
            min: bound(range.min_values()),
            max: (range.max_values() != usize::MAX).then(|| bound(range.max_values())),
            repeatable,
        }
    }

    /// A `default_value_if(arg, predicate, default)`, evaluated through
    /// clap's own conversions.
    pub fn default_if(
        arg: impl Into<clap::Id>,
        predicate: impl Into<clap::builder::ArgPredicate>,
        default: impl clap::builder::IntoResettable<clap::builder::OsStr>,
    ) -> crate::spec::DefaultIf {
        crate::spec::DefaultIf {
            arg: arg.into().to_string(),
            equals: predicate_text(predicate.into()),
            default: os_text(default).map(|text| vec![text.into_owned()]),
        }
    }

    /// A `default_values_if(arg, predicate, defaults)`, evaluated through
    /// clap's own conversions.
    pub fn default_values_if(
        arg: impl Into<clap::Id>,
        predicate: impl Into<clap::builder::ArgPredicate>,
        defaults: impl IntoIterator<Item = impl Into<clap::builder::OsStr>>,
    ) -> crate::spec::DefaultIf {
        crate::spec::DefaultIf {
            arg: arg.into().to_string(),
            equals: predicate_text(predicate.into()),
            default: Some(
                default_values_of(defaults)
                    .into_iter()
                    .map(Cow::into_owned)
                    .collect(),
            ),
        }
    }

    fn predicate_text(predicate: clap::builder::ArgPredicate) -> Option<String> {
        match predicate {
            clap::builder::ArgPredicate::IsPresent => None,
            clap::builder::ArgPredicate::Equals(value) => {
                Some(value.to_string_lossy().into_owned())
            }
        }
    }

    /// A text clap takes as `impl IntoResettable<OsStr>` (a default, a
    /// missing value, a variable's name): exactly what clap accepts there
    /// (`&'static str`, `&&'static str`, `Option<&'static str>`, `OsStr`,
    /// and with clap's `string` feature `String`...); `None` when it
    /// unsets (`None`).
    pub fn os_text(
        value: impl clap::builder::IntoResettable<clap::builder::OsStr>,
    ) -> Option<Cow<'static, str>> {
        match value.into_resettable() {
            clap::builder::Resettable::Value(value) => {
                Some(Cow::Owned(value.to_string_lossy().into_owned()))
            }
            clap::builder::Resettable::Reset => None,
        }
    }

    /// `default_value = EXPR` (not a literal), as clap's `Arg::default_value`
    /// takes it.
    pub fn default_value_of(
        value: impl clap::builder::IntoResettable<clap::builder::OsStr>,
    ) -> crate::DefaultTexts {
        os_text(value).map(|text| vec![text])
    }

    /// `env = EXPR` (not a literal): the variable's name, as clap's
    /// `Arg::env` takes it, kept for the process's life (it is read by
    /// every call).
    pub fn env_name(
        name: impl clap::builder::IntoResettable<clap::builder::OsStr>,
    ) -> Option<&'static str> {
        os_text(name).map(|name| crate::spec::clap_args::static_text(&name))
    }

    /// A help text (`about`, `help`, `long_help`... = EXPR), as clap takes
    /// it (`impl IntoResettable<StyledStr>`: any `&str`, `String`, `Cow`,
    /// or `None` to unset it), kept for the process's life.
    pub fn help_text(
        text: impl clap::builder::IntoResettable<clap::builder::StyledStr>,
    ) -> Option<&'static str> {
        static_value(text.into_resettable(), |text| text.to_string())
    }

    /// A text clap takes as `impl IntoResettable<Str>` (`version = EXPR`):
    /// `&'static str`, and `String` with clap's `string` feature, as clap
    /// accepts; kept for the process's life.
    pub fn str_text(
        text: impl clap::builder::IntoResettable<clap::builder::Str>,
    ) -> Option<&'static str> {
        static_value(text.into_resettable(), |text| text.as_str().to_owned())
    }

    /// A value clap holds (`None` when it unsets it), as text kept for the
    /// process's life.
    fn static_value<T>(
        value: clap::builder::Resettable<T>,
        text: impl FnOnce(&T) -> String,
    ) -> Option<&'static str> {
        match value {
            clap::builder::Resettable::Value(value) => {
                Some(crate::spec::clap_args::static_text(&text(&value)))
            }
            clap::builder::Resettable::Reset => None,
        }
    }

    /// Default texts known when the derive ran (string literals, and the
    /// `Display` of an integer or `bool` literal): one function for all,
    /// so each argument's default costs a call, not code of its own.
    pub fn literal_texts(texts: &'static [&'static str]) -> crate::DefaultTexts {
        crate::DefaultSource::texts(&LiteralTexts(texts))
    }

    /// `default_values = EXPR`: the texts clap's `Arg::default_values`
    /// keeps of it.
    pub fn default_values_of(
        values: impl IntoIterator<Item = impl Into<clap::builder::OsStr>>,
    ) -> Vec<Cow<'static, str>> {
        clap::Arg::new("value")
            .default_values(values)
            .get_default_values()
            .iter()
            .map(|value| Cow::Owned(value.to_string_lossy().into_owned()))
            .collect()
    }

    /// `#[command(mut_arg(id, f))]`: `f`'s change to the argument, read
    /// through clap's `Arg`.
    pub fn mut_arg(
        cmd: &mut CommandSpec,
        id: impl AsRef<str>,
        f: impl FnOnce(clap::Arg) -> clap::Arg,
    ) {
        crate::spec::clap_args::mut_arg(cmd, id.as_ref(), f);
    }

    /// `#[command(mut_args(f))]`: `f`'s change to each argument of the
    /// command, read through clap's `Arg` as for `mut_arg`.
    pub fn mut_args(cmd: &mut CommandSpec, mut f: impl FnMut(clap::Arg) -> clap::Arg) {
        let ids: Vec<String> = cmd.params.iter().map(|p| p.id.clone()).collect();
        for id in ids {
            crate::spec::clap_args::mut_arg(cmd, &id, &mut f);
        }
    }

    /// `#[command(external_subcommand)]`: see [`CommandSpec::make_external`].
    pub fn external_subcommand(cmd: &mut CommandSpec) {
        cmd.make_external();
    }

    /// An argument's relation to one id given as an expression
    /// (`conflicts_with = ID`), as clap's `Arg::conflicts_with` takes it.
    pub fn relation_id(id: impl clap::builder::IntoResettable<clap::Id>) -> Vec<String> {
        match id.into_resettable() {
            clap::builder::Resettable::Value(id) => vec![id.as_str().to_owned()],
            clap::builder::Resettable::Reset => Vec::new(),
        }
    }

    /// An argument's relation to ids given as an expression
    /// (`conflicts_with_all = list::CONFLICTS`), as clap's
    /// `Arg::conflicts_with_all` takes them.
    pub fn relation_ids(ids: impl IntoIterator<Item = impl Into<clap::Id>>) -> Vec<String> {
        ids.into_iter()
            .map(|id| id.into().as_str().to_owned())
            .collect()
    }

    /// A command's `name = EXPR`, as clap's `Command::name` takes it
    /// (`impl Into<Str>`), kept for the process's life.
    pub fn name_text(name: impl Into<clap::builder::Str>) -> &'static str {
        crate::spec::clap_args::static_text(name.into().as_str())
    }

    /// The name clap shows for a `ValueEnum` value (used for defaults).
    pub fn value_enum_name<T: clap::ValueEnum>(value: &T) -> String {
        value
            .to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}
