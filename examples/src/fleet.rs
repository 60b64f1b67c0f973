//! The `fleet` example CLI: an operator's view of a few hosts and the
//! services deployed on them, the shape of many infrastructure CLIs. It
//! shows what a larger CLI uses of mcp-bridge:
//!
//! | feature | where |
//! | --- | --- |
//! | a shorter prefix for tool names | `#[mcp(prefix = "fl")]` on [`Cli`]: `fl_host_list` |
//! | a table parsed into structured content | `host list` (`output = "table"`) |
//! | machine output forced for the model | `host show` (`args(format = "yaml")`, `output = "yaml"`) |
//! | a JSON argument with its type's schema | `service deploy --limits` (`#[mcp(json)]`) |
//! | an alias, an example call | `service list` (`ls`), `service deploy` |
//! | values fetched at run time | `host show <name>`, `host list --region` (`#[mcp(values = ...)]`: the inventory's host names and regions) |
//! | a value sent as an HTTP header too, for routing | `host list --region` (`header = "Region"`: `Mcp-Param-Region` when served flat over HTTP) |
//! | the grouped mode by default | the binary: `Bridge::tool_mode(ToolMode::Grouped { depth: 1 })` |
//! | a question the user answers | `host drain` asks for the host's name again (`mcp_bridge::prompt`: the client's elicitation, or the terminal), or takes it as `--confirm` |
//! | an icon for every tool | `#[mcp(icon = "data:image/svg+xml;...")]` on [`Cli`] |
//!
//! The fleet is an inventory: the JSON file `FLEET_INVENTORY` names (a
//! stand-in for an inventory API), else three hosts built in; `deploy`
//! prints what it would roll out. Everything prints with `println!`, as a
//! CLI does.
//!
//! ```text
//! fleet host list
//! fleet host show db-1 --format yaml
//! fleet host drain web-2 --confirm web-2
//! fleet service deploy api --replicas 3 --limits '{"cpu": 2, "memory": "1Gi"}'
//! fleet mcp serve                # one tool per top-level command
//! fleet mcp serve --flat         # every command a tool
//! ```

use clap::{Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::McpTool;
use serde::{Deserialize, Serialize};

/// Inspect the hosts of a small fleet and deploy services to them.
#[derive(Parser, McpTool, Debug, Clone, PartialEq)]
#[command(name = "fleet", version)]
#[mcp(prefix = "fl")]
#[mcp(
    icon = "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAxNiAxNiI+PHJlY3Qgd2lkdGg9IjE2IiBoZWlnaHQ9IjE2IiByeD0iMyIgZmlsbD0iIzJkNmNkZiIvPjwvc3ZnPg=="
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum Command {
    /// The machines services run on
    #[command(subcommand)]
    Host(HostCommand),
    /// What runs where
    #[command(subcommand)]
    Service(ServiceCommand),
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum HostCommand {
    /// List the hosts, one row each
    #[mcp(read_only, open_world = false, output = "table")]
    List {
        /// Only hosts in this region
        #[arg(long)]
        #[mcp(values = regions, values_ttl = "5m", header = "Region")]
        region: Option<String>,
    },
    /// Show one host in detail
    #[mcp(read_only, open_world = false)]
    #[mcp(args(format = "yaml"), output = "yaml")]
    Show {
        /// The host's name
        #[mcp(values = host_names)]
        name: String,
        /// How to print it
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Take a host out of service: its services move to the other hosts
    #[mcp(destructive, open_world = false)]
    Drain {
        /// The host's name
        #[mcp(values = host_names)]
        name: String,
        /// The host's name again: goes ahead without asking
        #[arg(long, value_name = "NAME")]
        confirm: Option<String>,
    },
}

#[derive(Subcommand, McpTool, Debug, Clone, PartialEq)]
pub enum ServiceCommand {
    /// List the services and where they run
    #[command(visible_alias = "ls")]
    #[mcp(read_only, open_world = false, output = "lines")]
    List,
    /// Roll a service out to the fleet
    #[mcp(destructive = false, idempotent)]
    #[mcp(example = r#"{"name": "api", "replicas": 3, "limits": {"cpu": 2, "memory": "1Gi"}}"#)]
    Deploy(DeployArgs),
}

#[derive(Args, McpTool, Debug, Clone, PartialEq)]
pub struct DeployArgs {
    /// The service
    pub name: String,
    /// How many copies to run
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=50))]
    pub replicas: u16,
    /// Resources each copy may use, as JSON
    #[arg(long, value_parser = parse_limits)]
    #[mcp(json)]
    pub limits: Option<Limits>,
}

/// What one copy of a service may use.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// CPU cores
    pub cpu: u8,
    /// Memory, e.g. `512Mi` or `2Gi`
    pub memory: Option<String>,
}

fn parse_limits(text: &str) -> Result<Limits, String> {
    serde_json::from_str(text).map_err(|e| format!("not a limits object: {e}"))
}

/// How `host show` prints.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Lines for people
    Text,
    /// YAML for programs
    Yaml,
}

/// One machine of the inventory.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Host {
    pub name: String,
    pub region: String,
    pub cores: u8,
    pub services: Vec<String>,
}

/// The fleet's hosts: the JSON file `FLEET_INVENTORY` names (an array of
/// hosts), else the three built in.
pub fn inventory() -> Result<Vec<Host>, String> {
    let Some(path) = std::env::var_os("FLEET_INVENTORY") else {
        let host = |name: &str, region: &str, cores, services: &[&str]| Host {
            name: name.to_owned(),
            region: region.to_owned(),
            cores,
            services: services.iter().map(|s| (*s).to_owned()).collect(),
        };
        return Ok(vec![
            host("web-1", "eu-west", 8, &["api", "web"]),
            host("web-2", "us-east", 8, &["web"]),
            host("db-1", "eu-west", 32, &["postgres"]),
        ]);
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read the inventory {}: {e}", path.to_string_lossy()))?;
    serde_json::from_str(&text).map_err(|e| format!("the inventory is not a list of hosts: {e}"))
}

/// The hosts' names, which `host show` takes (fetched at run time under
/// `mcp serve`).
pub fn host_names() -> Result<Vec<String>, String> {
    Ok(inventory()?.into_iter().map(|host| host.name).collect())
}

/// The regions hosts are in, which `host list --region` takes.
pub fn regions() -> Result<Vec<String>, String> {
    let mut regions: Vec<String> = inventory()?.into_iter().map(|host| host.region).collect();
    regions.sort();
    regions.dedup();
    Ok(regions)
}

/// Runs a command, printing as a CLI does; an error is a message and
/// exit code 1.
pub fn run(cli: Cli) -> Result<(), String> {
    let hosts = inventory()?;
    match cli.command {
        Command::Host(HostCommand::List { region }) => {
            println!("{:<8}{:<10}{:<7}SERVICES", "NAME", "REGION", "CORES");
            for host in hosts
                .iter()
                .filter(|h| region.as_deref().is_none_or(|r| r == h.region))
            {
                println!(
                    "{:<8}{:<10}{:<7}{}",
                    host.name,
                    host.region,
                    host.cores,
                    host.services.join(",")
                );
            }
        }
        Command::Host(HostCommand::Show { name, format }) => {
            let host = hosts
                .iter()
                .find(|h| h.name == name)
                .ok_or_else(|| format!("no host named `{name}`"))?;
            match format {
                Format::Text => println!(
                    "{} in {}, {} cores: {}",
                    host.name,
                    host.region,
                    host.cores,
                    host.services.join(", ")
                ),
                Format::Yaml => {
                    println!("name: {}", host.name);
                    println!("region: {}", host.region);
                    println!("cores: {}", host.cores);
                    println!("services:");
                    for service in &host.services {
                        println!("  - {service}");
                    }
                }
            }
        }
        Command::Host(HostCommand::Drain { name, confirm }) => {
            let host = hosts
                .iter()
                .find(|h| h.name == name)
                .ok_or_else(|| format!("no host named `{name}`"))?;
            // Asked through the MCP client (elicitation) or on the terminal.
            let typed = match confirm {
                Some(typed) => typed,
                None => mcp_bridge::prompt(&format!(
                    "Draining moves {} off {name}. Type the host's name to go ahead",
                    host.services.join(", ")
                ))
                .map_err(|unanswered| unanswered.instead_value("confirm").to_string())?,
            };
            if typed.trim() != name {
                return Err(format!("`{typed}` is not `{name}`: nothing was drained"));
            }
            println!(
                "would drain {name}: {} move elsewhere",
                host.services.join(", ")
            );
        }
        Command::Service(ServiceCommand::List) => {
            for host in &hosts {
                for service in &host.services {
                    println!("{service} on {}", host.name);
                }
            }
        }
        Command::Service(ServiceCommand::Deploy(deploy)) => {
            let limits = match &deploy.limits {
                Some(Limits { cpu, memory }) => format!(
                    ", {cpu} cores and {} each",
                    memory.as_deref().unwrap_or("no memory limit")
                ),
                None => String::new(),
            };
            println!("would deploy {} x{}{limits}", deploy.name, deploy.replicas);
        }
    }
    Ok(())
}
