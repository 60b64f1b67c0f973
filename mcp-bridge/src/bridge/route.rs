//! Which way a command line goes: to the CLI (its own parse, or the
//! derive's command with the CLI's changes) or to the bridge's `mcp`
//! command, found without building the bridge's command unless the
//! arguments name it.

use std::ffi::OsString;

use super::args::{bridge_command, bridge_stand_in, BridgeArgs};
use super::settings::{CliType, Settings};

impl Settings {
    /// The derive's command, with the CLI's own changes.
    pub(super) fn cli_command(&self, cli: &dyn CliType) -> clap::Command {
        let cmd = cli.command();
        match &self.customise {
            Some(customise) => customise(cmd),
            None => cmd,
        }
    }

    /// [`Bridge::route`] without the CLI's type (an isolated call, which
    /// needs it, is routed before): the bridge's arguments, or how the
    /// CLI's value is to be built (`parse`: whether the CLI has a parse of
    /// its own).
    pub(super) fn route(&self, cli: &dyn CliType, parse: bool, args: Vec<OsString>) -> Routed {
        let bin = bin_name(&args);
        let name = self.command_name.as_str();
        // `taskctl mcp ...`: the bridge, without parsing the CLI's options.
        if args.get(1).is_some_and(|a| *a == *name) {
            // The tree is built once and reused by the server.
            let root = cli.command_spec();
            if !root.subcommands.iter().any(|s| s.name == name) {
                let only = args.get(2).and_then(|a| a.to_str());
                let matches = bridge_command(&bin, name, only).get_matches_from(&args[1..]);
                return Routed::Bridge(Box::new(BridgeArgs {
                    root,
                    matches,
                    cli: None,
                    bin,
                }));
            }
            eprintln!(
                "mcp-bridge: `{name}` is a command of this CLI, so it runs as before; \
                 give the bridge another name with `Bridge::command_name`"
            );
            return Routed::Parse(args);
        }
        // A CLI's own parse runs alone unless the bridge's command may be
        // among the arguments.
        let named = args.iter().skip(1).any(|a| *a == *name);
        if parse && !named {
            return Routed::Parse(args);
        }
        // Otherwise the CLI parses its arguments, with the bridge as one
        // more subcommand when it has subcommands (shown in `--help`, and
        // `taskctl --db tasks.json mcp serve` pins `--db`).
        //
        // The bridge's own command is built only when an argument names
        // it: otherwise a stand-in with its name and summary lists it in
        // `--help`, and a trivial command pays nothing for the bridge's
        // options. (The stand-in chosen all the same, by an abbreviation
        // under `infer_subcommands`, sends the parse round again with the
        // real one.)
        let mut full = named;
        let (cmd, bridged, mut matches) = loop {
            let mut cmd = self.cli_command(cli);
            let bridged = cmd.has_subcommands() && cmd.find_subcommand(name).is_none();
            if bridged {
                let bridge = match full {
                    true => bridge_command(&bin, name, None),
                    false => bridge_stand_in(),
                };
                cmd = cmd.subcommand(
                    bridge
                        .name(crate::spec::clap_args::static_text(name))
                        .hide(self.hide_command),
                );
            }
            match cmd.try_get_matches_from_mut(&args) {
                Ok(matches) if bridged && !full && matches.subcommand_name() == Some(name) => {
                    full = true;
                }
                Ok(matches) => break (cmd, bridged, matches),
                // Not the bridge's: the CLI's own parse says what it is.
                Err(_) if parse => return Routed::Parse(args),
                Err(error) => error.exit(),
            }
        };
        if bridged && matches.subcommand_name() == Some(name) {
            if let Some((_, bridge)) = matches.remove_subcommand() {
                return Routed::Bridge(Box::new(BridgeArgs {
                    root: cli.command_spec(),
                    matches: bridge,
                    cli: Some(matches),
                    bin,
                }));
            }
        }
        if parse {
            return Routed::Parse(args);
        }
        Routed::Matches(Box::new(cmd), matches)
    }
}

/// [`Route`] before the value is built: what builds it.
pub(super) enum Routed {
    /// The CLI's own parse, on these arguments.
    Parse(Vec<OsString>),
    /// `FromArgMatches` on the matches of this command.
    Matches(Box<clap::Command>, clap::ArgMatches),
    Bridge(Box<BridgeArgs>),
}

/// The binary's name, as `--help` shows it.
pub(super) fn bin_name(args: &[OsString]) -> String {
    args.first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
