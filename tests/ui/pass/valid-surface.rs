//! The fixes the error messages suggest compile.
use clap::{Args, Parser, Subcommand};
use mcp_bridge::{McpTool, Registry};

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long, global = true)]
    verbose: bool,
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, McpTool)]
struct Common {
    #[arg(long)]
    #[mcp(name = "common_verbose")]
    verbose: bool,
}

#[derive(Subcommand, McpTool)]
#[command(rename_all = "snake_case")]
enum Command {
    #[command(subcommand)]
    A(A),
    #[command(subcommand)]
    AFoo(AFoo),
    /// A command name that is not a tool name, renamed for MCP
    #[command(name = "my cmd")]
    #[mcp(name = "app_my_cmd")]
    MyCmd,
    /// Two commands named alike, one hidden from MCP
    #[command(name = "run")]
    Start(RunArgs),
    #[command(name = "run")]
    #[mcp(skip)]
    Launch,
}

#[derive(Subcommand, McpTool)]
#[command(rename_all = "snake_case")]
enum A {
    FooBar,
}

#[derive(Subcommand, McpTool)]
enum AFoo {
    #[mcp(name = "app_a_foo_bar_2")]
    Bar,
}

#[derive(Args, McpTool)]
struct RunArgs {
    /// Shadows nothing: renamed
    #[arg(long)]
    #[mcp(name = "run_verbose")]
    verbose: bool,
    /// Hidden from MCP; `default_value_t` gives its value
    #[arg(long, default_value_t = 3)]
    #[mcp(skip)]
    retries: u8,
    /// Hidden from MCP; read from the environment
    #[arg(long, env = "APP_TOKEN")]
    #[mcp(skip)]
    token: String,
}

fn main() {
    let registry = Registry::<Cli>::new().unwrap();
    let names: Vec<&str> = registry.tools().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["app_a_foo_bar", "app_a_foo_bar_2", "app_my_cmd", "app_run"]
    );
}
