// Keys that only a command's own tool carries (`name`, `title`, the hints,
// `serial`, `timeout`, `isolate`, `task`, `output`, `example`, `args(...)`)
// do nothing on a command that runs only through its subcommands: each is
// reported where it is written, by the type that sees the required
// subcommand.
use clap::{Args, Parser, Subcommand};
use mcp_bridge::McpTool;

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(title = "The app", timeout = "30s")]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

// Flattened into `Cli`, a command without a tool.
#[derive(Args, McpTool)]
#[mcp(read_only)]
struct Common {
    #[arg(long)]
    verbose: bool,
}

#[derive(Subcommand, McpTool)]
enum Command {
    #[mcp(output = "json", example = r#"{"all": true}"#)]
    #[command(subcommand)]
    Remote(Remote),
    #[mcp(serial)]
    Branch(BranchArgs),
    Stash(StashArgs),
}

#[derive(Args, McpTool)]
#[mcp(isolate)]
struct BranchArgs {
    #[command(subcommand)]
    command: Remote,
}

#[derive(Args, McpTool)]
struct StashArgs {
    #[command(subcommand)]
    command: Stash,
}

// An enum's own attributes apply to the command that holds it.
#[derive(Subcommand, McpTool)]
#[mcp(task)]
enum Stash {
    Pop,
}

#[derive(Subcommand, McpTool)]
enum Remote {
    List {
        #[arg(long)]
        all: bool,
    },
}

// An enum root runs only through its variants too.
#[derive(Parser, McpTool)]
#[command(name = "tool")]
#[mcp(name = "tool")]
enum Tool {
    Run,
}

fn main() {}
