//! Keys for a command's own tool on a command whose subcommand is
//! optional (it runs on its own too), and the keys that mean something on
//! a command without a tool: `description`, `icon` (inherited) and `skip`.
use clap::{Parser, Subcommand};
use mcp_bridge::{McpTool, Registry};

#[derive(Parser, McpTool)]
#[command(name = "app")]
#[mcp(description = "The app", icon = "https://example.com/app.png")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool)]
enum Command {
    /// Lists remotes, or runs one of their commands
    #[mcp(title = "Remotes", read_only, timeout = "5s", output = "lines")]
    #[mcp(example = r#"{"verbose": true}"#)]
    Remote {
        #[arg(long)]
        verbose: bool,
        #[command(subcommand)]
        command: Option<Remote>,
    },
    #[mcp(skip)]
    #[command(subcommand)]
    Legacy(Remote),
}

#[derive(Subcommand, McpTool)]
enum Remote {
    Prune,
}

fn main() {
    let registry = Registry::<Cli>::new().unwrap();
    let names: Vec<&str> = registry.tools().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["app_remote", "app_remote_prune"]);
    let remote = registry.tool("app_remote").unwrap();
    assert_eq!(remote.title.as_deref(), Some("Remotes"));
    assert_eq!(remote.examples.len(), 1);
    let prune = registry.tool("app_remote_prune").unwrap();
    assert_eq!(prune.icon.as_deref(), Some("https://example.com/app.png"));
    assert_eq!(prune.title, None);
}
