//! More clap corners real CLIs use, each written as they write it, with
//! nothing but `McpTool` added: a positional and a flattened flag of one
//! name, delimited defaults, a flag defaulting to `true`, a group of
//! several members joined through a flattened struct, `ignore_case` with a
//! constant list of values, two optional positionals, a runnable parent
//! and its child sharing an option's name, a required positional waived by
//! a conflicting flag, `NonZero` integers, a `bool` set with a value that
//! may be left out, and an empty default.

use std::num::{NonZeroU64, NonZeroU8};

use clap::{ArgAction, ArgGroup, Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::McpTool;

/// The kinds of an item.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A file
    File,
    /// A directory
    Dir,
    /// A link
    Link,
}

/// The sort orders, listed in a constant.
pub const ORDERS: [&str; 3] = ["TOP", "new", "Old"];

/// Input options, flattened into a command with a positional `input`.
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct InputOpts {
    /// More inputs, by flag
    #[arg(long = "input")]
    pub inputs: Vec<String>,
    /// Read stdin too
    #[arg(long, group = "source")]
    pub stdin: bool,
}

/// A CLI of clap's corners.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "corners")]
#[command(group(ArgGroup::new("source").multiple(true)))]
pub struct Corners {
    #[command(subcommand)]
    pub command: CornersCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum CornersCommand {
    /// Read inputs
    #[command(group(ArgGroup::new("source").multiple(true)))]
    Read {
        /// The input
        input: Option<String>,
        #[command(flatten)]
        opts: InputOpts,
        /// A file list
        #[arg(long, group = "source")]
        from_file: Option<String>,
    },
    /// List items
    List {
        /// Kinds to list
        #[arg(long, value_delimiter = ',', default_value = "file,dir")]
        kinds: Vec<Kind>,
        /// Columns to show
        #[arg(long, value_delimiter = ',', default_value = "name,size")]
        columns: Vec<String>,
        /// Quote names (on unless `--no-quote`... by default)
        #[arg(long, default_value_t = true)]
        quote: bool,
        /// The order
        #[arg(long, ignore_case = true, value_parser = ORDERS)]
        order: Option<String>,
        /// The order of groups
        #[arg(long, ignore_case = true, value_parser = ["TOP", "new"])]
        group_order: Option<String>,
        /// A separator, empty by default
        #[arg(long, default_value = "")]
        separator: String,
    },
    /// Copy one path to another
    Copy {
        /// From
        first: Option<String>,
        /// To
        second: Option<String>,
    },
    /// A parent that runs, and has children
    Parent(ParentArgs),
    /// Fetch a URL, or write the man page
    Fetch {
        /// The URL
        #[arg(required = true)]
        url: Option<String>,
        /// Write the man page instead
        #[arg(long, conflicts_with = "url")]
        generate: Option<String>,
    },
    /// Sizes that cannot be zero
    Sizes {
        /// A size
        #[arg(long)]
        size: Option<NonZeroU64>,
        /// A level
        #[arg(long, default_value = "1")]
        level: NonZeroU8,
    },
    /// A switch that takes a value, or none
    Toggle {
        /// Whether to color (`--color`, `--color=false`)
        #[arg(long, action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true", default_value = "false")]
        color: bool,
    },
}

/// A runnable parent: its own `--show-logs`, and a child with one too.
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct ParentArgs {
    /// Show logs (the parent's)
    #[arg(long)]
    pub show_logs: bool,
    #[command(subcommand)]
    pub child: Option<ChildCommand>,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum ChildCommand {
    /// The child
    Child {
        /// Show logs (the child's)
        #[arg(long)]
        show_logs: bool,
    },
}
