//! A version-control tool with nested subcommands, in the style of the
//! git-like CLIs: a root option that is not global (`vcs -C DIR commit`),
//! and a subcommand option of the same id (`vcs -C DIR log --dir src`),
//! options shared through `flatten`, globals declared on the root and
//! read below with `from_global`, a subcommand whose arguments are a type
//! that derives `Parser` (usable on its own as well), a subcommand group
//! of its own, aliases.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::McpTool;

/// Whether the output options reach every subcommand (a constant, as
/// some CLIs write it).
pub const SHARED: bool = true;

/// Values of `log --revs`: one revision or a range's two ends.
pub const REV_RANGE: RangeInclusive<usize> = 1..=2;

/// A version-control tool.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "vcs", version, propagate_version = true)]
pub struct Vcs {
    /// Run as if started in this directory (given before the subcommand:
    /// `vcs -C DIR commit`; not global)
    #[arg(short = 'C', value_name = "DIR")]
    pub dir: Option<PathBuf>,

    #[command(flatten)]
    pub output: OutputOpts,

    #[command(subcommand)]
    pub command: VcsCommand,
}

/// How much is printed, and how.
#[derive(Args, McpTool, Debug, PartialEq)]
pub struct OutputOpts {
    /// Say less
    #[arg(short, long, global = SHARED)]
    pub quiet: bool,

    /// When to use colours
    #[arg(long, value_enum, global = true, default_value_t = When::Auto)]
    pub color: When,
}

/// When to use colours.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Always
    Always,
    /// Never
    Never,
    /// On a terminal
    Auto,
}

/// The commands.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum VcsCommand {
    /// Record changes
    #[command(visible_alias = "ci")]
    Commit(CommitArgs),

    /// Work with remotes
    #[command(subcommand)]
    Remote(RemoteCommand),

    /// Show the history
    Log {
        /// How many entries
        #[arg(short = 'n', long, visible_alias = "limit", short_alias = 'l')]
        max_count: Option<usize>,

        /// One revision, or the two ends of a range (given once)
        #[arg(long, num_args = REV_RANGE, action = ArgAction::Set)]
        revs: Vec<String>,

        /// Only the history of these paths
        paths: Vec<PathBuf>,

        /// Only the history under this directory (the root's `-C` has the
        /// same id: this one is given after `log`)
        #[arg(long)]
        dir: Option<PathBuf>,

        /// The root's colour choice, read here as well
        #[arg(from_global)]
        color: When,
    },
}

/// Record changes (also a program of its own: `vcs-commit`).
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "vcs-commit")]
pub struct CommitArgs {
    /// The message
    #[arg(short, long)]
    pub message: String,

    /// Stage every change first
    #[arg(short, long)]
    pub all: bool,

    /// Replace the last commit
    #[arg(long)]
    pub amend: bool,
}

/// Work with remotes.
#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum RemoteCommand {
    /// Add a remote
    Add {
        /// Its name
        name: String,
        /// Where it is
        url: String,
        /// The root's `--quiet`, read here
        #[arg(from_global)]
        quiet: bool,
    },
    /// Remove a remote
    #[command(alias = "rm")]
    Remove {
        /// Its name
        name: String,
    },
}
