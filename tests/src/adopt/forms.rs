//! The clap forms real CLIs use that broke the bridge when it first met
//! them (`scripts/adopt_real.py`), each written the way those CLIs write
//! it, with nothing but `McpTool` added: a struct with `clap::Args`
//! written by hand (as `fd`'s `--exec`, or a flag struct from another
//! crate such as `clap-verbosity-flag`), boxed payloads and flattened
//! structs (`cargo-nextest`), an optional flattened struct (`srgn`,
//! `cargo-nextest`), bare `action` and `long_help`, `value_enum` next to
//! a `value_parser` of another type (`git-cliff`), a constant subcommand
//! name (`cargo-nextest`), `#[structopt(...)]`, a type parsed through
//! `From<&str>` (`skim`), and defaults that depend on other arguments
//! (`hexyl`'s `default_value_if`).

use clap::builder::ArgPredicate;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches, Parser, Subcommand};
use mcp_bridge::McpTool;

/// A hand-written `clap::Args`: no `McpArgs`, read through clap.
#[derive(Debug, Clone, PartialEq)]
pub struct Paging {
    pub no_pager: bool,
    pub pager: Option<String>,
    /// A command given as its words (`-x cmd arg ;`), as `fd --exec`.
    pub exec: Option<Vec<String>>,
    pub verbose: u8,
}

impl FromArgMatches for Paging {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(Self {
            no_pager: m.get_flag("no_pager"),
            pager: m.get_one::<String>("pager").cloned(),
            exec: m
                .get_many::<String>("exec")
                .map(|words| words.cloned().collect()),
            verbose: m.get_count("verbose"),
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for Paging {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new("no_pager")
                .long("no-pager")
                .action(ArgAction::SetTrue)
                .help("Do not page"),
        )
        .arg(
            Arg::new("pager")
                .long("pager")
                .env("FORMS_PAGER")
                .conflicts_with("no_pager")
                .help("The pager to use"),
        )
        .arg(
            Arg::new("exec")
                .long("exec")
                .short('x')
                .num_args(1..)
                .allow_hyphen_values(true)
                .value_terminator(";")
                // An argument of the struct that flattens this one.
                .conflicts_with("raw")
                .help("Run a command on the output"),
        )
        .arg(
            Arg::new("verbose")
                .short('v')
                .long("verbose")
                .action(ArgAction::Count)
                .help("Say more"),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// Options of `run`, boxed in the variant.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct RunOpts {
    /// What to run
    pub target: String,
    /// How many jobs
    #[arg(long, short = 'j', default_value_t = 1)]
    pub jobs: u16,
    #[command(flatten)]
    pub filter: Box<FilterOpts>,
}

/// A filter, flattened through a box.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct FilterOpts {
    /// Only these
    #[arg(long = "only")]
    pub only: Vec<String>,
}

/// A language scope, given or not as a whole.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
#[group(required = false, multiple = true)]
pub struct LangScope {
    /// The language
    #[arg(long = "lang")]
    pub lang: Option<String>,
    /// A query in it
    #[arg(long = "lang-query")]
    pub query: Option<String>,
}

/// How bumps are chosen: not a `ValueEnum`, parsed by its own function.
#[derive(Debug, Clone, PartialEq)]
pub enum Bump {
    Auto,
    Specific(String),
}

fn parse_bump(text: &str) -> Result<Bump, String> {
    match text {
        "" => Err("a bump is `auto` or a version part".to_owned()),
        "auto" => Ok(Bump::Auto),
        other => Ok(Bump::Specific(other.to_owned())),
    }
}

/// A type clap parses through `From<&str>` (`value_parser!` takes it).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout(pub String);

impl From<&str> for Layout {
    fn from(text: &str) -> Self {
        Layout(text.to_uppercase())
    }
}

/// The name of a hidden helper command, kept in a constant.
pub const HELPER_NAME: &str = "__helper";

/// A CLI of the forms real CLIs use.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "forms")]
pub struct Forms {
    #[command(subcommand)]
    pub command: FormsCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum FormsCommand {
    /// Run something, its options boxed
    Run(Box<RunOpts>),
    /// Show a file, paged by hand-written arguments
    Show {
        /// The file
        file: String,
        /// Print the bytes as they are
        #[arg(long)]
        raw: bool,
        #[command(flatten)]
        paging: Paging,
    },
    /// Search in one scope, or everywhere
    Scope {
        #[command(flatten)]
        scope: Option<LangScope>,
        /// Everywhere
        #[arg(long)]
        all: bool,
    },
    /// Bump a version
    Bump {
        /// How (`auto`, or a part)
        #[arg(long, value_enum, value_parser = parse_bump)]
        bump: Option<Bump>,
        /// Be quiet
        #[arg(long, action)]
        quiet: bool,
        /// Where the layout is read from.
        /// A second line of the same paragraph.
        #[arg(long, help = "The layout", long_help, default_value = "grid")]
        layout: Layout,
    },
    /// Dump bytes
    Dump {
        /// Plain output
        #[arg(long)]
        plain: bool,
        /// When to color (never when plain)
        #[arg(long, default_value = "always")]
        #[arg(default_value_if("plain", ArgPredicate::Equals("true".into()), Some("never")))]
        color: String,
        /// The border (none when plain, thick when color is never)
        #[arg(long, default_value = "ascii")]
        #[arg(default_value_ifs([("plain", ArgPredicate::Equals("true".into()), Some("none")), ("color", ArgPredicate::Equals("never".into()), Some("thick"))]))]
        border: String,
        /// A mode: `IsPresent` on a flag holds whenever clap has added
        /// the flag's own default first, as it always has here
        #[arg(long, default_value = "plain")]
        #[arg(default_value_if("plain", ArgPredicate::IsPresent, Some("flag")))]
        mode: String,
    },
    /// Bump a part
    Part(PartOpts),
    /// A helper, named by a constant
    #[command(name = HELPER_NAME, hide = true)]
    Helper,
    /// Old-style attributes
    Legacy(LegacyOpts),
}

/// Options written with structopt's attribute, which clap's `Parser`
/// derive still reads.
#[derive(Parser, McpTool, Debug, PartialEq)]
pub struct LegacyOpts {
    /// A name
    #[structopt(long)]
    pub name: Option<String>,
}

/// A version part, parsed by its own `ValueParserFactory`, not a
/// `ValueEnum`, though the field says `value_enum` (as `git-cliff`'s).
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Major,
    Minor,
}

impl clap::builder::ValueParserFactory for Part {
    type Parser =
        clap::builder::MapValueParser<clap::builder::PossibleValuesParser, fn(String) -> Part>;
    fn value_parser() -> Self::Parser {
        use clap::builder::TypedValueParser;
        clap::builder::PossibleValuesParser::new(["major", "minor"]).map(|s| match s.as_str() {
            "major" => Part::Major,
            _ => Part::Minor,
        })
    }
}

/// Where a part is bumped.
#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct PartOpts {
    /// The part
    #[arg(long, value_enum, value_parser = clap::value_parser!(Part))]
    pub part: Option<Part>,
}
