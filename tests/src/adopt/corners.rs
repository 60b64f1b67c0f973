//! More clap corners real CLIs use, each written as they write it, with
//! nothing but `McpTool` added: a positional and a flattened flag of one
//! name, delimited defaults, a flag defaulting to `true`, a group of
//! several members joined through a flattened struct, `ignore_case` with a
//! constant list of values, two optional positionals, a runnable parent
//! and its child sharing an option's name, a required positional waived by
//! a conflicting flag, `NonZero` integers, a `bool` set with a value that
//! may be left out, an empty default, and plugins through an external
//! subcommand.

use std::ffi::OsString;
use std::num::{NonZeroU64, NonZeroU8};

use clap::builder::ArgPredicate;
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

/// Where a status line goes, read by a `From<&str>` that panics on what it
/// does not know (as a real CLI's does): the command line crashes, a call
/// is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct Info(pub String);

impl From<&str> for Info {
    fn from(text: &str) -> Self {
        match text {
            "left" | "right" | "value" => Info(text.to_owned()),
            other => panic!("Failed to parse {other} as an Info"),
        }
    }
}

/// Default widths, a constant list.
pub const WIDTHS: &[&str] = &["8", "16"];

/// The sort orders, listed in a constant.
pub const ORDERS: [&str; 3] = ["TOP", "new", "Old"];

/// Input options, flattened into a command with a positional `input`.
#[derive(Args, McpTool, Debug, PartialEq)]
#[command(mut_arg("inputs", |arg| arg.help("More inputs, one flag each")))]
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
    #[command(mut_arg("stdin", |arg| arg.help("Read the standard input as well")))]
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
        /// Column widths
        #[arg(long, default_values = WIDTHS)]
        widths: Vec<u16>,
        /// Where the status line goes
        #[arg(long)]
        info: Option<Info>,
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
    /// Show a page, or render a file
    Show {
        /// The page
        page: Vec<String>,
        /// Edit the page (a file to render stands in for it)
        #[arg(long, requires = "page")]
        edit: bool,
        /// Render a file instead (the id written as some CLIs write it)
        #[arg(long, conflicts_with = stringify!(page))]
        render: Option<String>,
    },
    /// Run a command with its arguments, or list what would run
    Exec {
        /// The command and its arguments: all that follows
        #[arg(short, long, num_args = 1.., allow_hyphen_values = true)]
        command: Option<Vec<String>>,
        /// List instead
        #[arg(long)]
        list: bool,
    },
    /// Convert text, with a default that follows a group
    Convert {
        #[command(flatten)]
        actions: ConvertActions,
        #[command(flatten)]
        german: GermanOpts,
    },
    /// Commands of plugins, installed apart
    #[command(external_subcommand)]
    Plugin(Vec<OsString>),
    /// A switch that takes a value, or none
    Toggle {
        /// Whether to color (`--color`, `--color=false`)
        #[arg(long, action = ArgAction::Set, num_args = 0..=1, default_missing_value = "true", default_value = "false")]
        color: bool,
        /// Hide the panel
        #[arg(long)]
        no_panel: bool,
        /// Listen on a socket, named or not (a field of one value that
        /// clap lets take several words: it keeps the first)
        #[arg(long, default_missing_value = "sk", num_args = 0..)]
        listen: Option<String>,
        /// Show the panel: the default, and what `--no-panel` before it
        /// is undone by
        #[arg(long, action = ArgAction::SetTrue, overrides_with = "no_panel")]
        panel: (),
    },
}

/// Actions, one of which is on when a group of options is given.
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct ConvertActions {
    /// Convert German spellings (on with any German option)
    #[arg(long, default_value_if("german-opts", ArgPredicate::IsPresent, "true"))]
    pub german: bool,
}

/// The German options, a group of its own id.
#[derive(Args, McpTool, Debug, PartialEq)]
#[group(required = false, multiple = true, id("german-opts"))]
pub struct GermanOpts {
    /// Prefer the original spelling
    #[arg(long, env = "CORNERS_GERMAN_ORIGINAL")]
    pub prefer_original: bool,
    /// Replace whatever can be
    #[arg(long)]
    pub naive: bool,
}

/// A runnable parent: its own `--show-logs`, and a child with one too.
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct ParentArgs {
    /// Show logs (the parent's)
    #[arg(long)]
    pub show_logs: bool,
    /// Restore these, or the last one when given no values: on a command
    /// line, given no values before the child's name, it takes the name
    #[arg(short, long, num_args = 0..)]
    pub restore: Option<Vec<String>>,
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

/// A CLI declared by a `macro_rules!` macro, as CLIs that share their
/// types between binaries do: the fields' spans carry the macro's hygiene.
macro_rules! declare_macro_cli {
    ($($derive:path),*) => {
        /// Types declared by a macro.
        #[derive(Parser, Debug, PartialEq $(, $derive)*)]
        #[command(name = "declared")]
        pub struct Declared {
            /// A root option with a default
            #[arg(long, default_value = "here")]
            pub place: String,
            /// The command
            #[command(subcommand)]
            pub command: DeclaredCommand,
        }

        /// The commands of a CLI declared by a macro.
        #[derive(Subcommand, Debug, PartialEq $(, $derive)*)]
        pub enum DeclaredCommand {
            /// Add words
            Add {
                /// The words
                words: Vec<String>,
                /// How loud
                #[arg(short, long, action = ArgAction::Count)]
                loud: u8,
                /// Only this kind
                #[arg(long, value_enum, env = "DECLARED_KIND")]
                kind: Option<Kind>,
                /// Whether to keep them
                #[arg(long)]
                keep: bool,
            },
        }
    };
}

declare_macro_cli!(McpTool);

/// Defaults written as literals in the ways Rust allows, which the derive
/// shows itself, beside ones it leaves to run time.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "literals")]
pub struct Literals {
    /// Hexadecimal
    #[arg(long, default_value_t = 0x10)]
    pub hex: u32,
    /// With separators
    #[arg(long, default_value_t = 1_000)]
    pub thousand: u64,
    /// The smallest of its type
    #[arg(long, default_value_t = -128)]
    pub low: i8,
    /// Negative zero
    #[arg(long, default_value_t = -0)]
    pub zero: i16,
    /// A constant (left to run time)
    #[arg(long, default_value_t = i64::MIN)]
    pub min: i64,
    /// With a suffix
    #[arg(long, default_value_t = 7u8)]
    pub paren: u8,
    /// The type's default
    #[arg(long, default_value_t)]
    pub bare: i32,
    /// An empty text by default
    #[arg(long, default_value_t)]
    pub name: String,
    /// A switch that is on unless told
    #[arg(long, default_value_t = true, action = ArgAction::Set)]
    pub on: bool,
}
