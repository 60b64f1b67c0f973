//! A deployment tool whose commands show their use in their doc comments,
//! as many CLIs' do: an `Examples:` paragraph of `$ ship ...` lines, kept
//! line by line (`verbatim_doc_comment`) or joined into one line by clap's
//! default, or under a Markdown `# Examples` heading in a code fence. The
//! bridge turns those lines into example calls (`tests/tests/doc_examples.rs`
//! checks each against clap parsing the same words).

use std::path::PathBuf;

use clap::{ArgAction, Args, Parser, Subcommand, ValueEnum};
use mcp_bridge::McpTool;

/// Ship services to their environments.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "ship", version)]
pub struct Ship {
    /// Where the configuration lives
    #[arg(short = 'C', long, default_value = "ship.toml")]
    pub config: PathBuf,

    /// Say more (repeat for more)
    #[arg(short, long, global = true, action = ArgAction::Count)]
    pub verbose: u8,

    #[command(subcommand)]
    pub command: ShipCommand,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum ShipCommand {
    /// Deploy a service.
    ///
    /// The service's image is pushed, then rolled out replica by replica.
    ///
    /// Examples:
    ///   $ ship deploy web --env prod --replicas 3
    ///   $ ship -C other.toml deploy "api gateway" -e staging -r2 --canary=0.25
    ///   $ ship deploy web --set image.tag=v2 --set "note=it's \"fine\"" -fvv
    ///   $ ship -v deploy web --label team=core,tier=1 --region eu --region us -n
    ///   $ ship deploy --wait -- -legacy-name   # a name that starts with a dash
    ///   $ ship status web
    ///   $ ship deploy web --replicas many
    #[command(verbatim_doc_comment, visible_alias = "up")]
    Deploy(DeployArgs),

    /// Roll a service back to an earlier release.
    ///
    /// Examples:
    ///   $ ship rollback web --to 41
    ///   $ ship rb 'web' --to=40 --no-verify
    #[command(alias = "rb")]
    Rollback {
        /// The service
        service: String,

        /// The release to go back to
        #[arg(long)]
        to: u32,

        /// Skip the health check after the rollback
        #[arg(long = "no-verify", action = ArgAction::SetFalse)]
        verify: bool,
    },

    /// Show the state of services.
    ///
    /// # Examples
    ///
    /// ```console
    /// $ ship status --format json web api
    /// ```
    Status {
        /// The services (all when none is named)
        services: Vec<String>,

        /// How to print the state
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },

    /// Manage the secrets services read
    #[command(subcommand)]
    Secret(SecretCommand),
}

#[derive(Args, McpTool, Debug, PartialEq)]
pub struct DeployArgs {
    /// The service to deploy
    pub service: String,

    /// The environment
    #[arg(short, long, value_enum, default_value_t = Env::Dev)]
    pub env: Env,

    /// How many replicas to run
    #[arg(short, long, default_value_t = 1)]
    pub replicas: u16,

    /// The share of traffic the new release takes first
    #[arg(long)]
    pub canary: Option<f64>,

    /// Values to override, as key=value
    #[arg(long = "set", value_parser = parse_key_val)]
    pub overrides: Vec<(String, String)>,

    /// Labels, comma-separated
    #[arg(long = "label", value_delimiter = ',')]
    pub labels: Vec<String>,

    /// Regions to deploy to (repeatable)
    #[arg(long)]
    pub region: Vec<String>,

    /// Deploy even if the checks fail
    #[arg(short, long)]
    pub force: bool,

    /// Only say what would be done
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Wait until the rollout is done
    #[arg(long)]
    pub wait: bool,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
pub enum SecretCommand {
    /// Set a secret.
    ///
    /// Example: $ ship secret set DB_PASSWORD 'p@ss w0rd' --overwrite
    Set {
        /// The secret's name
        name: String,

        /// Its value
        value: String,

        /// Replace a secret of that name
        #[arg(long)]
        overwrite: bool,
    },
}

/// Where a service runs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum Env {
    Dev,
    Staging,
    Prod,
}

/// How state is printed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum Format {
    Text,
    Json,
}

/// `key=value`, split at the first `=`.
fn parse_key_val(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .ok_or_else(|| format!("`{text}` is no key=value pair"))
}
