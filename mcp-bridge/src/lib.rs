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
//! Data flows one way: attributes → [`spec`] (built once) → [`Registry`]
//! → the rmcp server → [`BuildCtx`](build::BuildCtx) → your value → your
//! handler → captured output → the tool result.

pub mod build;
mod cli;
mod command;
pub mod convert;
mod error;
mod io;
mod registry;
mod relations;
mod server;
pub mod spec;
pub mod testing;
pub mod transport;
#[doc(hidden)]
pub mod tree_check;

pub use cli::Bridge;
pub use command::{McpArgs, McpCommand, McpSubcommand, McpValue};
pub use error::{ArgError, Problem, ValueProblem};
pub use io::{Io, Report};
pub use mcp_bridge_derive::McpTool;
pub use registry::{CallError, DuplicateTool, Registry};
pub use server::{BridgeServer, CallOutcome};
pub use tree_check::{InvalidToolName, RegistryError};

/// What generated code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::build::{Arity, BuildCtx, DefaultTexts};
    pub use crate::command::{McpArgs, McpRoot, McpSubcommand};
    pub use crate::convert;
    pub use crate::convert::Converter;
    pub use crate::error::ArgError;
    pub use crate::spec::{
        CommandLayer, CommandSpec, GroupSpec, ParamAction, ParamRelations, ParamSpec, ValueType,
    };
    pub use crate::tree_check as tree;
    pub use std::borrow::Cow;
    pub use std::boxed::Box;
    pub use std::marker::PhantomData;
    pub use std::option::Option::{self, None, Some};
    pub use std::result::Result::{self, Err, Ok};
    pub use std::string::{String, ToString};
    pub use std::vec;

    /// The name clap shows for a `ValueEnum` value (used for defaults).
    pub fn value_enum_name<T: clap::ValueEnum>(value: &T) -> String {
        value
            .to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }

    /// JSON types of well-known field types.
    pub mod value_types {
        use crate::convert::Converter;
        use crate::convert::{Integer, PrimitiveInteger};
        use crate::spec::{StringFacets, ValueType};

        /// An integer with `T`'s bounds.
        pub fn integer<T: PrimitiveInteger>() -> ValueType {
            Integer::<T>::new().value_type()
        }

        /// Whole numbers followed by a unit, as `humantime` (the usual
        /// duration parser of clap CLIs) reads them.
        pub const DURATION_PATTERN: &str = r"^\s*([0-9]+\s*(nsec|ns|usec|us|µs|msec|ms|seconds|second|secs|sec|s|minutes|minute|mins|min|m|hours|hour|hrs|hr|h|days|day|d|weeks|week|w|months|month|M|years|year|y)\s*)+$";

        /// A duration in the common `humantime` notation: whole numbers
        /// with units, `90s`, `5m`, `1h 30m`, `2 days`.
        pub fn duration() -> ValueType {
            ValueType::String(StringFacets {
                pattern: Some(DURATION_PATTERN),
                examples: &["90s", "15m", "1h 30m", "2days"],
                ..StringFacets::default()
            })
        }

        /// `IpAddr`: IPv4 or IPv6.
        pub fn ip_addr() -> ValueType {
            ValueType::String(StringFacets {
                any_format: &["ipv4", "ipv6"],
                examples: &["127.0.0.1", "::1"],
                ..StringFacets::default()
            })
        }

        /// `Ipv4Addr`.
        pub fn ipv4() -> ValueType {
            ValueType::String(StringFacets {
                format: Some("ipv4"),
                ..StringFacets::default()
            })
        }

        /// `Ipv6Addr`.
        pub fn ipv6() -> ValueType {
            ValueType::String(StringFacets {
                format: Some("ipv6"),
                ..StringFacets::default()
            })
        }

        /// `SocketAddr`: an address and a port.
        pub fn socket_addr() -> ValueType {
            ValueType::String(StringFacets {
                pattern: Some(r"^(\[[0-9A-Fa-f:.]+\]|[0-9.]+):[0-9]{1,5}$"),
                examples: &["127.0.0.1:8080", "[::1]:8080"],
                ..StringFacets::default()
            })
        }

        /// One character.
        pub fn single_char() -> ValueType {
            ValueType::String(StringFacets {
                min_length: Some(1),
                max_length: Some(1),
                ..StringFacets::default()
            })
        }
    }
}
