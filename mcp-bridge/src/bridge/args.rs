//! The bridge's own command line: `mcp serve|tools|install|uninstall|
//! server-json` and their options (HTTP and OAuth ones with their
//! features), what `mcp ...` was started with, and the CLI's root options
//! the operator pinned.

use std::ffi::OsString;
use std::path::PathBuf;

use super::settings::CliType;
use crate::registry::ToolMode;
use crate::spec::CommandSpec;

/// What `mcp ...` was started with.
pub(super) struct BridgeArgs {
    /// The CLI's command tree.
    pub(super) root: CommandSpec,
    /// The bridge's own arguments (`serve --http`).
    pub(super) matches: clap::ArgMatches,
    /// The CLI's root options given before the bridge's name
    /// (`taskctl --db tasks.json mcp serve`).
    pub(super) cli: Option<clap::ArgMatches>,
    /// The binary's name.
    pub(super) bin: String,
}

/// The root options the operator fixed, by clap id, as the JSON a call
/// would give, with how they were given: before the bridge's name, and
/// after `mcp serve --` (those win).
pub(super) fn pinned_values(
    cli: &dyn CliType,
    root: &CommandSpec,
    before: Option<&clap::ArgMatches>,
    bridge: &clap::ArgMatches,
) -> Result<Vec<(String, serde_json::Value, String)>, String> {
    let mut pins = Vec::new();
    if let Some(matches) = before {
        pins.extend(crate::spec::pins::given(root, matches)?);
    }
    // Read by name: the bridge's command holds only the subcommand its
    // arguments named (`bridge_command`).
    let after = match bridge.subcommand() {
        Some(("serve", serve)) => serve.get_many::<OsString>("cli-args"),
        _ => None,
    };
    if let Some(after) = after {
        let mut argv = vec![OsString::from(root.name.clone())];
        argv.extend(after.cloned());
        let mut cmd = cli
            .command()
            .subcommand_required(false)
            .arg_required_else_help(false)
            .mut_args(|arg| arg.required(false));
        let a_command = |sub: &str| {
            format!(
                "the CLI's arguments after `--` are the root command's options, fixed for every \
                 call; `{sub}` is a command (each becomes a tool)"
            )
        };
        let matches = match cmd.try_get_matches_from_mut(&argv) {
            Ok(matches) => matches,
            Err(error) => {
                let sub = argv[1..]
                    .iter()
                    .filter_map(|arg| arg.to_str())
                    .find(|arg| cmd.find_subcommand(arg).is_some());
                return Err(match sub {
                    Some(sub) => a_command(sub),
                    None => format!("the CLI's arguments after `--`: {}", error.render()),
                });
            }
        };
        if let Some(sub) = matches.subcommand_name() {
            return Err(a_command(sub));
        }
        for pin in crate::spec::pins::given(root, &matches)? {
            pins.retain(|(id, _, _)| *id != pin.0);
            pins.push(pin);
        }
    }
    Ok(pins)
}

/// The mode `--flat`, `--grouped [DEPTH]` or `--search` (with `--pin`)
/// asks for, if any.
pub(super) fn tool_mode(options: &clap::ArgMatches) -> Option<ToolMode> {
    if options.get_flag("flat") {
        return Some(ToolMode::Flat);
    }
    if let Some(depth) = options.get_one::<usize>("grouped") {
        return Some(ToolMode::Grouped { depth: *depth });
    }
    if options.get_flag("search") {
        let pinned = options
            .get_many::<String>("pin")
            .map(|values| values.cloned().collect())
            .unwrap_or_default();
        return Some(ToolMode::Search { pinned });
    }
    None
}

/// `--flat`, `--grouped [DEPTH]`, `--search` and `--pin`, for `serve` and
/// `tools`.
pub(super) fn mode_args(command: clap::Command) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    command
        .arg(
            Arg::new("flat")
                .long("flat")
                .action(ArgAction::SetTrue)
                .help_heading("Tool list")
                .help("List every command as a tool with its full schema (the default)"),
        )
        .arg(
            Arg::new("grouped")
                .long("grouped")
                .value_name("DEPTH")
                .num_args(0..=1)
                .default_missing_value("0")
                .value_parser(value_parser!(usize))
                .conflicts_with_all(["flat", "search"])
                .help_heading("Tool list")
                .help("List the commands under each command DEPTH levels down (0, the default: the whole CLI) as one tool taking `command` and `arguments`; `help: true` gives a command's schema"),
        )
        .arg(
            Arg::new("search")
                .long("search")
                .action(ArgAction::SetTrue)
                .conflicts_with("flat")
                .help_heading("Tool list")
                .help("List two tools, `search_tools` (words -> the matching tools' definitions) and `call_tool`, instead of every command"),
        )
        .arg(
            Arg::new("pin")
                .long("pin")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .requires("search")
                .help_heading("Tool list")
                .help("With --search, also list the tools whose name matches (`*` and `?`; repeatable)"),
        )
}

/// The bridge's command in a CLI's parse that does not name it: its
/// summary for `--help`, and whatever follows it taken as it is.
pub(super) fn bridge_stand_in() -> clap::Command {
    use clap::{value_parser, Arg};
    clap::Command::new("mcp")
        .about(BRIDGE_ABOUT)
        .disable_help_flag(true)
        .arg(
            Arg::new("rest")
                .num_args(0..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true)
                .value_parser(value_parser!(OsString)),
        )
}

/// What the bridge's command does, in the CLI's `--help`.
pub(super) const BRIDGE_ABOUT: &str =
    "Serve this CLI to AI assistants over the Model Context Protocol";

/// The bridge's command. `only`: the word after the bridge's name; when
/// it names one of the bridge's subcommands, that one is the only one
/// built (the parse goes nowhere else, and building the others was most
/// of what a server's start spent parsing its arguments); otherwise all
/// of them are, for `--help` and for errors that list them.
pub(super) fn bridge_command(bin: &str, name: &str, only: Option<&str>) -> clap::Command {
    use clap::Command;
    let only = only.filter(|word| BRIDGE_SUBCOMMANDS.contains(word));
    let wanted = |sub: &str| only.is_none_or(|only| only == sub);
    let mut command = Command::new("mcp")
        .bin_name(format!("{bin} {name}"))
        .about(BRIDGE_ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true);
    if wanted("serve") {
        command = command.subcommand(serve_command());
    }
    if wanted("tools") {
        command = command.subcommand(
            mode_args(Command::new("tools"))
                .about("Print the tool definitions as `tools/list` returns them, as JSON")
                .arg(output_arg()),
        );
    }
    if wanted("server-json") {
        command = command.subcommand(server_json_command());
    }
    if wanted("install") {
        command = command.subcommand(install_command(
            "install",
            "Add this server to an MCP client's configuration (root options given before the \
             bridge's name are fixed for every call, as with `serve`)",
        ));
    }
    if wanted("uninstall") {
        command = command.subcommand(install_command(
            "uninstall",
            "Remove this server from an MCP client's configuration",
        ));
    }
    command
}

/// `mcp server-json`.
#[cfg(feature = "server-json")]
pub(super) fn server_json_command() -> clap::Command {
    use clap::{Arg, Command};
    Command::new("server-json")
        .about("Print the server's entry for the MCP Registry (server.json)")
        .arg(
            Arg::new("name")
                .long("name")
                .value_name("NAME")
                .help("The server's registry name, e.g. io.github.<owner>/<server> [default: from the package's GitHub repository]"),
        )
        .arg(
            Arg::new("title")
                .long("title")
                .value_name("TEXT")
                .help("A title to show in place of the name"),
        )
        .arg(
            Arg::new("description")
                .long("description")
                .value_name("TEXT")
                .help("At most 100 characters [default: the package's description]"),
        )
        .arg(output_arg())
}

/// `mcp server-json` in a binary built without the feature: hidden (the
/// CLI's users have no use for it), it takes any options and says which
/// feature it needs.
#[cfg(not(feature = "server-json"))]
pub(super) fn server_json_command() -> clap::Command {
    clap::Command::new("server-json")
        .about("Print the server's entry for the MCP Registry (needs the `server-json` feature)")
        .hide(true)
        .disable_help_flag(true)
        .arg(
            clap::Arg::new("rest")
                .num_args(0..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true),
        )
}

/// What `mcp server-json` says in a binary built without it.
#[cfg(not(feature = "server-json"))]
pub(super) const NO_SERVER_JSON: &str =
    "`mcp server-json` needs mcp-bridge's `server-json` feature, which \
     this binary was built without (its users have no use for it): run it from a build with \
     the feature, e.g. `cargo run --features mcp-bridge/server-json -- mcp server-json`";

/// The bridge's subcommands, by name.
pub(super) const BRIDGE_SUBCOMMANDS: [&str; 5] =
    ["serve", "tools", "server-json", "install", "uninstall"];

/// `--output FILE` of `mcp tools` and `mcp server-json`.
pub(super) fn output_arg() -> clap::Arg {
    clap::Arg::new("output")
        .long("output")
        .short('o')
        .value_name("FILE")
        .value_parser(clap::value_parser!(PathBuf))
        .help("Write to FILE instead of stdout")
}

/// `mcp install <client>` and `mcp uninstall <client>`.
pub(super) fn install_command(name: &'static str, about: &'static str) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, Command};
    let install = name == "install";
    let mut command = Command::new(name)
        .about(about)
        .arg(
            Arg::new("client")
                .required(true)
                .value_parser(value_parser!(crate::install::Client))
                .help("The client whose configuration to change"),
        )
        .arg(
            Arg::new("scope")
                .long("scope")
                .value_parser(value_parser!(crate::install::Scope))
                .help("The user's configuration, or the project's (the current directory); each client has its own default"),
        )
        .arg(
            Arg::new("name")
                .long("name")
                .value_name("NAME")
                .help("The server's name in the configuration [default: the binary's name]"),
        )
        .arg(
            Arg::new("dry-run")
                .long("dry-run")
                .action(ArgAction::SetTrue)
                .help("Print the change as a diff; write nothing"),
        );
    if install {
        command = command
            .arg(
                Arg::new("env")
                    .long("env")
                    .value_name("KEY=VALUE")
                    .action(ArgAction::Append)
                    .help("Set an environment variable for the server (repeatable)"),
            )
            .arg(
                Arg::new("no-path")
                    .long("no-path")
                    .action(ArgAction::SetTrue)
                    .help("Do not record the current PATH (recorded by default: clients start servers with a minimal one)"),
            )
            .arg(
                Arg::new("print")
                    .long("print")
                    .action(ArgAction::SetTrue)
                    .conflicts_with("dry-run")
                    .help("Print the JSON entry to add by hand; write nothing"),
            )
            .arg(
                Arg::new("serve-args")
                    .value_name("SERVE OPTIONS")
                    .num_args(0..)
                    .last(true)
                    .help("Options for `serve`, after -- (e.g. -- --include 'app_task_*')"),
            );
    }
    command
}

/// `mcp serve`: stdio by default, Streamable HTTP with `--http`.
pub(super) fn serve_command() -> clap::Command {
    use clap::{value_parser, Arg, ArgAction, Command};
    let command = mode_args(Command::new("serve"))
        .about("Serve every command as an MCP tool, over stdio (JSON-RPC) or Streamable HTTP")
        .arg(
            Arg::new("cli-args")
                .value_name("CLI OPTIONS")
                .num_args(0..)
                .last(true)
                .value_parser(value_parser!(std::ffi::OsString))
                .help("The CLI's own root options (after --), fixed for every call and left out of the tools, e.g. -- --db tasks.json; they may also come before the bridge's name"),
        )
        .arg(
            Arg::new("cwd")
                .long("cwd")
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Run in DIR (relative paths and defaults resolve there, not wherever the client started the server)"),
        )
        .arg(
            Arg::new("include")
                .long("include")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .help("Serve only the tools whose name matches (`*` and `?`; repeatable)"),
        )
        .arg(
            Arg::new("exclude")
                .long("exclude")
                .value_name("PATTERN")
                .action(ArgAction::Append)
                .help("Leave out the tools whose name matches (`*` and `?`; repeatable)"),
        )
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("ADDR")
                .num_args(0..=1)
                .default_missing_value(DEFAULT_HTTP_ADDR)
                .help_heading("HTTP")
                .help(format!(
                    "Serve MCP Streamable HTTP at http://ADDR/mcp instead of stdio \
                     (ADDR: PORT, IP:PORT; default {DEFAULT_HTTP_ADDR}, loopback){NEEDS_HTTP}"
                )),
        );
    #[cfg(feature = "http")]
    let command = http_args(command);
    command
}

/// What `--http`'s help adds in a binary built without the `http` feature.
pub(super) const NEEDS_HTTP: &str = if cfg!(feature = "http") {
    ""
} else {
    " (needs the `http` feature)"
};

/// The HTTP server's options (`--http`'s own is with `serve`'s), in a
/// binary built with the `http` feature: without it, `--http` alone says
/// what it needs, and its options are not offered, built or parsed.
#[cfg(feature = "http")]
pub(super) fn http_args(command: clap::Command) -> clap::Command {
    use clap::{value_parser, Arg, ArgAction};
    let http_only = |arg: Arg| arg.requires("http").help_heading("HTTP");
    command
        .arg(http_only(
            Arg::new("stateless")
                .long("stateless")
                .action(ArgAction::SetTrue)
                .help("No sessions: every POST stands alone (for replicas behind a load balancer)"),
        ))
        .arg(http_only(
            Arg::new("token-env")
                .long("token-env")
                .value_name("VAR")
                .conflicts_with("token-file")
                .help("Require `Authorization: Bearer <token>`, the token read from VAR"),
        ))
        .arg(http_only(
            Arg::new("token-file")
                .long("token-file")
                .value_name("FILE")
                .value_parser(value_parser!(PathBuf))
                .help("Require `Authorization: Bearer <token>`, the token read from FILE"),
        ))
        .arg(http_only(
            Arg::new("allow-unauthenticated")
                .long("allow-unauthenticated")
                .action(ArgAction::SetTrue)
                .help("Listen beyond loopback without a token (something in front authenticates)"),
        ))
        .arg(http_only(
            Arg::new("allow-host")
                .long("allow-host")
                .value_name("HOST")
                .action(ArgAction::Append)
                .help("Accept this Host header too (loopback names and the bound IP always are)"),
        ))
        .arg(http_only(
            Arg::new("allow-origin")
                .long("allow-origin")
                .value_name("ORIGIN")
                .action(ArgAction::Append)
                .help("Accept requests from this browser origin too, e.g. https://app.example:443 (loopback pages always are)"),
        ))
        .arg(http_only(
            Arg::new("max-sessions")
                .long("max-sessions")
                .value_name("N")
                .value_parser(value_parser!(usize))
                .default_value("256")
                .help("Sessions open at once, at most"),
        ))
        .arg(http_only(
            Arg::new("max-body")
                .long("max-body")
                .value_name("BYTES")
                .value_parser(value_parser!(usize))
                .default_value("4194304")
                .help("The largest request body (413 beyond)"),
        ))
        .arg(http_only(
            Arg::new("session-idle")
                .long("session-idle")
                .value_name("SECONDS")
                .value_parser(value_parser!(u64).range(1..))
                .default_value("300")
                .help("Close a session unused this long"),
        ))
        .arg(http_only(
            Arg::new("oauth-issuer")
                .long("oauth-issuer")
                .value_name("URL")
                .conflicts_with_all(["token-env", "token-file"])
                .help("OAuth: require an access token of this authorization server, checked against its keys (needs the `oauth` feature)"),
        ))
        .arg(
            Arg::new("oauth-resource")
                .long("oauth-resource")
                .value_name("URL")
                .requires("oauth-issuer")
                .help("OAuth: this server's URL as clients reach it, the tokens' audience [default: the endpoint's URL]"),
        )
        .arg(
            Arg::new("oauth-scope")
                .long("oauth-scope")
                .value_name("SCOPE")
                .action(ArgAction::Append)
                .requires("oauth-issuer")
                .help("OAuth: a scope every request needs (repeatable)"),
        )
        .arg(
            Arg::new("oauth-tool-scope")
                .long("oauth-tool-scope")
                .value_name("TOOL=SCOPE")
                .action(ArgAction::Append)
                .requires("oauth-issuer")
                .help("OAuth: a scope the calls of matching tools need, e.g. 'app_task_*=tasks:write' (repeatable; tools/list shows a token only what it may call)"),
        )
        .arg(
            Arg::new("oauth-client-id")
                .long("oauth-client-id")
                .value_name("ID")
                .requires_all(["oauth-issuer", "oauth-client-secret-env"])
                .help("OAuth: this server's client at the issuer, to introspect opaque tokens"),
        )
        .arg(
            Arg::new("oauth-client-secret-env")
                .long("oauth-client-secret-env")
                .value_name("VAR")
                .requires("oauth-client-id")
                .help("OAuth: the environment variable holding that client's secret"),
        )
}

/// `--http` without an address.
pub(super) const DEFAULT_HTTP_ADDR: &str = "127.0.0.1:8080";

#[cfg(feature = "http")]
pub(super) fn http_options(
    addr: &str,
    matches: &clap::ArgMatches,
) -> Result<crate::serve::HttpOptions, String> {
    let addr: std::net::SocketAddr = match addr.parse::<u16>() {
        Ok(port) => std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Err(_) => addr.parse().map_err(|_| {
            format!("--http {addr:?}: expected PORT or IP:PORT (e.g. 8080, 127.0.0.1:8080)")
        })?,
    };
    let token = match (
        matches.get_one::<String>("token-env"),
        matches.get_one::<PathBuf>("token-file"),
    ) {
        (Some(var), _) => Some(std::env::var(var).map_err(|_| {
            format!("--token-env {var}: the environment variable {var} is not set")
        })?),
        (_, Some(file)) => Some(
            std::fs::read_to_string(file)
                .map_err(|error| format!("--token-file {}: {error}", file.display()))?
                .trim()
                .to_owned(),
        ),
        _ => None,
    };
    let strings = |id: &str| {
        matches
            .get_many::<String>(id)
            .map(|values| values.cloned().collect())
            .unwrap_or_default()
    };
    let mut options = crate::serve::HttpOptions::loopback(addr.port());
    options.addr = addr;
    options.stateless = matches.get_flag("stateless");
    options.token = token;
    options.allow_unauthenticated = matches.get_flag("allow-unauthenticated");
    options.allowed_hosts = strings("allow-host");
    options.allowed_origins = strings("allow-origin");
    options.max_sessions = matches
        .get_one::<usize>("max-sessions")
        .copied()
        .unwrap_or(256);
    if let Some(bytes) = matches.get_one::<usize>("max-body") {
        options.max_body_bytes = *bytes;
    }
    if let Some(seconds) = matches.get_one::<u64>("session-idle") {
        options.session_idle = std::time::Duration::from_secs(*seconds);
    }
    if let Some(issuer) = matches.get_one::<String>("oauth-issuer") {
        oauth_options(&mut options, issuer, matches, strings)?;
    }
    options.check()?;
    Ok(options)
}

/// Whether some tools need scopes of their own (`--oauth-tool-scope`).
#[cfg(feature = "http")]
pub(super) fn per_tool_scopes(options: &crate::serve::HttpOptions) -> bool {
    #[cfg(feature = "oauth")]
    return options
        .oauth
        .as_ref()
        .is_some_and(|oauth| !oauth.tool_scopes.is_empty());
    #[cfg(not(feature = "oauth"))]
    {
        let _ = options;
        false
    }
}

/// `--oauth-*`: the resource server's setup.
#[cfg(feature = "oauth")]
pub(super) fn oauth_options(
    options: &mut crate::serve::HttpOptions,
    issuer: &str,
    matches: &clap::ArgMatches,
    strings: impl Fn(&str) -> Vec<String>,
) -> Result<(), String> {
    use crate::serve::oauth::{is_scope_token, OAuthOptions};
    let scopes = strings("oauth-scope");
    if let Some(bad) = scopes.iter().find(|scope| !is_scope_token(scope)) {
        return Err(format!(
            "--oauth-scope {bad:?}: a scope is one word of printable ASCII"
        ));
    }
    let tool_scopes = strings("oauth-tool-scope")
        .iter()
        .map(|given| OAuthOptions::tool_scope(given))
        .collect::<Result<_, _>>()?;
    let introspection = match matches.get_one::<String>("oauth-client-id") {
        Some(id) => {
            let var = matches
                .get_one::<String>("oauth-client-secret-env")
                .ok_or("--oauth-client-id needs --oauth-client-secret-env")?;
            let secret = std::env::var(var).map_err(|_| {
                format!(
                    "--oauth-client-secret-env {var}: the environment variable {var} is not set"
                )
            })?;
            Some((id.clone(), secret))
        }
        None => None,
    };
    options.oauth = Some(OAuthOptions {
        issuer: issuer.to_owned(),
        resource: matches.get_one::<String>("oauth-resource").cloned(),
        scopes,
        tool_scopes,
        introspection,
    });
    Ok(())
}

#[cfg(all(feature = "http", not(feature = "oauth")))]
pub(super) fn oauth_options(
    _options: &mut crate::serve::HttpOptions,
    _issuer: &str,
    _matches: &clap::ArgMatches,
    _strings: impl Fn(&str) -> Vec<String>,
) -> Result<(), String> {
    Err("--oauth-issuer: this binary was built without mcp-bridge's `oauth` feature".to_owned())
}

#[cfg(test)]
mod tests {
    use super::{bridge_command, BRIDGE_SUBCOMMANDS};

    /// The word after the bridge's name picks the one subcommand built;
    /// any other word (`help`, an option, a typo) gets them all, and the
    /// list of names is the full command's.
    #[test]
    fn the_bridge_command_builds_the_subcommand_named_or_all_of_them() {
        let names = |only: Option<&str>| -> Vec<String> {
            bridge_command("taskctl", "mcp", only)
                .get_subcommands()
                .map(|sub| sub.get_name().to_owned())
                .collect()
        };
        assert_eq!(names(None), BRIDGE_SUBCOMMANDS);
        for sub in BRIDGE_SUBCOMMANDS {
            assert_eq!(names(Some(sub)), [sub]);
        }
        for other in ["help", "--help", "serv", "-V"] {
            assert_eq!(names(Some(other)), BRIDGE_SUBCOMMANDS, "{other}");
        }
        // The one built parses as in the whole command.
        let matches = bridge_command("taskctl", "mcp", Some("serve"))
            .try_get_matches_from(["mcp", "serve", "--cwd", "/tmp"])
            .unwrap();
        let (sub, serve) = matches.subcommand().unwrap();
        assert_eq!(sub, "serve");
        assert_eq!(
            serve.get_one::<std::path::PathBuf>("cwd"),
            Some(&std::path::PathBuf::from("/tmp"))
        );
    }

    /// Without its feature, `mcp server-json` is still a subcommand
    /// (hidden): what it is given parses, and the route answers it with
    /// the feature it needs (`NO_SERVER_JSON`), not clap's "unrecognized
    /// subcommand". Run by `scripts/deps-minimal.sh` (the default
    /// features); the workspace's tests build with the feature on.
    #[cfg(not(feature = "server-json"))]
    #[test]
    fn without_its_feature_server_json_is_refused_naming_the_feature() {
        let matches = bridge_command("taskctl", "mcp", Some("server-json"))
            .try_get_matches_from(["mcp", "server-json", "--name", "io.github.x/y", "-o", "f"])
            .unwrap();
        assert_eq!(matches.subcommand_name(), Some("server-json"));
        let all = bridge_command("taskctl", "mcp", None);
        let stand_in = all.find_subcommand("server-json").unwrap();
        assert!(stand_in.is_hide_set(), "not offered to the CLI's users");
        for needed in ["`server-json` feature", "--features mcp-bridge/server-json"] {
            assert!(super::NO_SERVER_JSON.contains(needed), "{needed}");
        }
    }

    /// Without the `http` feature, `mcp serve` has `--http` alone of the
    /// HTTP options (the route says which feature it needs); the others
    /// are neither offered in its help nor parsed. With it, all of them.
    #[test]
    fn the_http_options_come_with_the_http_feature() {
        let serve = super::serve_command();
        let has = |id: &str| serve.get_arguments().any(|arg| arg.get_id() == id);
        assert!(has("http") && has("cwd"));
        for id in ["stateless", "token-env", "max-body", "oauth-issuer"] {
            assert_eq!(has(id), cfg!(feature = "http"), "{id}");
        }
        let given = serve.try_get_matches_from(["serve", "--http", "--stateless"]);
        assert_eq!(given.is_ok(), cfg!(feature = "http"));
    }
}
