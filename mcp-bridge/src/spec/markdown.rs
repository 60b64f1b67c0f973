//! Help texts of a CLI whose doc comments clap renders as markdown (clap's
//! `unstable-markdown` feature): the derive reads doc comments as written,
//! so when clap's own derive renders them, the texts are taken from the
//! CLI's `clap::Command`, as clap renders them (inline code without its
//! backticks, list items on lines of their own, links as their text), once,
//! when the command tree is made.
//!
//! Whether clap renders markdown is a feature of `clap_derive`, one crate
//! for the whole build: a struct derived here with a markdown doc comment
//! says what it does for the CLI's structs too.

use std::sync::LazyLock;

use super::CommandSpec;

/// `probe`'s doc comment is inline code: clap shows it without backticks
/// when it renders markdown.
#[derive(clap::Args)]
struct Probe {
    /// `probe`
    #[arg(long)]
    probe: bool,
}

/// Whether clap's derive renders doc comments as markdown in this build.
pub(crate) fn clap_renders_markdown() -> bool {
    static RENDERS: LazyLock<bool> = LazyLock::new(|| {
        let cmd = <Probe as clap::Args>::augment_args(clap::Command::new("probe"));
        let rendered = cmd
            .get_arguments()
            .find(|arg| arg.get_id() == "probe")
            .and_then(clap::Arg::get_help)
            .is_some_and(|help| help.to_string() != "`probe`");
        rendered
    });
    *RENDERS
}

/// Takes the help texts of `ours` and everything below it from `clap`,
/// the same command as clap builds it: commands by name, arguments by id.
pub(crate) fn take_texts(ours: &mut CommandSpec, clap: &clap::Command) {
    let text = |styled: Option<&clap::builder::StyledStr>| styled.map(ToString::to_string);
    if ours.about.is_some() || clap.get_about().is_some() {
        ours.about = text(clap.get_about());
    }
    if ours.long_about.is_some() || clap.get_long_about().is_some() {
        ours.long_about = text(clap.get_long_about());
    }
    for param in &mut ours.params {
        if let Some(arg) = clap
            .get_arguments()
            .find(|a| a.get_id() == param.id.as_str())
        {
            param.replace_help(text(arg.get_long_help().or(arg.get_help())));
        }
    }
    for sub in ours.subcommands.iter_mut().filter(|s| !s.external) {
        if let Some(theirs) = clap.find_subcommand(&sub.name) {
            take_texts(sub, theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{ParamSpec, ValueType};

    #[test]
    fn this_build_renders_no_markdown() {
        // The workspace does not turn on clap's `unstable-markdown`; the
        // real-CLI run (`scripts/adopt_real.py`) adopts CLIs that do.
        assert!(!clap_renders_markdown());
    }

    #[test]
    fn texts_are_taken_by_command_name_and_argument_id() {
        let mut ours = CommandSpec::new("app");
        ours.about = Some("`app` does things".into());
        ours.params.push(
            ParamSpec::flag("level", Some("level"), None, ValueType::string())
                .description(Some("The `level`")),
        );
        let mut run = CommandSpec::new("run");
        run.about = Some("Run **now**".into());
        ours.subcommands.push(run);
        let clap = clap::Command::new("app")
            .about("app does things")
            .arg(clap::Arg::new("level").long("level").help("The level"))
            .subcommand(clap::Command::new("run").about("Run now"));
        take_texts(&mut ours, &clap);
        assert_eq!(ours.about.as_deref(), Some("app does things"));
        assert_eq!(ours.params[0].help.as_deref(), Some("The level"));
        assert_eq!(ours.params[0].description.as_deref(), Some("The level"));
        assert_eq!(ours.subcommands[0].about.as_deref(), Some("Run now"));
    }
}
