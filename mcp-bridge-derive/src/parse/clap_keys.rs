//! Every key clap's derive accepts, and what mcp-bridge does with it.
//!
//! clap's derive reads a few keys itself (its "magic" keys: `long` alone,
//! `value_enum`, `default_value_t`, `flatten`...) and turns any other
//! `key = expr` or `key(args)` into a call of the builder method of that
//! name, on an `Arg` (`#[arg]`, `#[clap]` on a field), a `Command`
//! (`#[command]`, `#[clap]` on a type or variant), an `ArgGroup`
//! (`#[group]`) or a `PossibleValue` (`#[value]`). These tables hold every
//! one of those names, each with what the bridge does with it; a test
//! (`tests::every_clap_key_is_classified`) reads the builder methods and
//! magic keys from the sources of the clap version being built and fails
//! on any name missing here, so a new clap release is classified before a
//! CLI meets it. A key in no table is a compile error naming it
//! ([`check_keys`]): nothing clap reads is passed over unseen.
//!
//! docs/clap-support.md lists these tables (`tests::clap_support_lists_every_key`
//! holds it to them).

use super::attr::{ClapAttrKind, ClapItem};
use crate::ctxt::Ctxt;

/// What the bridge does with one clap key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// Read when the derive runs and applied to the tool as clap applies
    /// it to the command line; an expression is evaluated where clap
    /// evaluates it, through clap's own conversions.
    Mirrored,
    /// Evaluated by clap itself: the bridge calls clap's code that reads it
    /// (`ValueEnum`'s derive, a closure handed a clap `Arg`).
    ByClap,
    /// Changes only how a command line is written and split into values,
    /// which a call does not have: the reason.
    Argv(&'static str),
    /// Changes only what `--help`, `--version` or shell completions show.
    Help,
    /// A compile error, with this message.
    Refused(&'static str),
}

impl Use {
    /// The class's name in docs/clap-support.md.
    #[cfg(test)]
    pub(crate) fn class(self) -> &'static str {
        match self {
            Use::Mirrored => "mirrored",
            Use::ByClap => "evaluated by clap",
            Use::Argv(_) => "argv only",
            Use::Help => "help only",
            Use::Refused(_) => "refused",
        }
    }
}

const POSITION: &str = "the place of a positional on a command line; a call names it";
const HYPHENS: &str =
    "whether a word starting with `-` is read as a value; a call's values are values";
const EQUALS: &str = "whether a command line writes `--opt=value`; a call has no spelling";
const TERMINATOR: &str =
    "the word that ends a list on a command line; a call's list is a JSON array";
const AS_FLAG: &str =
    "a subcommand called as a flag (`-S`, `--sync`) on a command line; a call names the tool";
const ABBREVIATIONS: &str =
    "abbreviated names on a command line; a call names the tool and its properties in full";
const TRAILING: &str = "how the words after `--` or the last positional are read on a command line";

const BUILT_SUBCOMMANDS: &str = "mcp-bridge reads a command's subcommands from its variants: one \
     added by a builder call has no variant the call could build; declare it as a variant";
const UNFIELDED: &str = "an argument added by a builder call has no field: the typed value never \
     holds it, so a call has no property for it (its relations to the fields' arguments are not \
     followed)";
const CONDITIONAL_REQUIRES: &str =
    "not supported by mcp-bridge yet, so MCP calls could not follow \
     it; express the rule with `conflicts_with`, `requires`, `required_unless_present`, \
     `required_if_eq` or `required_if_eq_any`";
const MUT_SUBCOMMAND: &str = "mcp-bridge reads each subcommand from its variant: put the change \
     in the variant's own `#[command(...)]`";
const MUT_GROUP: &str = "mcp-bridge reads groups from their literal declarations: declare the \
     group as it should be (`#[group(...)]`, `#[command(group(ArgGroup::new(..)...))]`)";

/// `#[arg(...)]`, and `#[clap(...)]`/`#[structopt(...)]` on a field: the
/// builder methods of `clap::Arg` and the magic keys clap's derive reads
/// on a field.
pub(crate) const ARG: &[(&str, Use)] = &[
    ("id", Use::Mirrored),
    ("name", Use::Mirrored),
    ("short", Use::Mirrored),
    ("long", Use::Mirrored),
    ("alias", Use::Mirrored),
    ("short_alias", Use::Mirrored),
    ("aliases", Use::Mirrored),
    ("short_aliases", Use::Mirrored),
    ("visible_alias", Use::Mirrored),
    ("visible_short_alias", Use::Mirrored),
    ("visible_aliases", Use::Mirrored),
    ("visible_short_aliases", Use::Mirrored),
    ("index", Use::Argv(POSITION)),
    ("trailing_var_arg", Use::Argv(TRAILING)),
    ("last", Use::Mirrored),
    ("required", Use::Mirrored),
    ("requires", Use::Mirrored),
    ("exclusive", Use::Mirrored),
    ("global", Use::Mirrored),
    ("add", Use::Help),
    ("action", Use::Mirrored),
    ("value_parser", Use::Mirrored),
    ("value_enum", Use::Mirrored),
    ("num_args", Use::Mirrored),
    ("number_of_values", Use::Mirrored),
    ("value_name", Use::Help),
    ("value_names", Use::Help),
    ("value_hint", Use::Help),
    ("ignore_case", Use::Mirrored),
    ("allow_hyphen_values", Use::Argv(HYPHENS)),
    ("allow_negative_numbers", Use::Argv(HYPHENS)),
    ("require_equals", Use::Argv(EQUALS)),
    ("use_value_delimiter", Use::Mirrored),
    ("value_delimiter", Use::Mirrored),
    ("value_terminator", Use::Argv(TERMINATOR)),
    ("raw", Use::Mirrored),
    ("default_value", Use::Mirrored),
    ("default_value_os", Use::Mirrored),
    ("default_values", Use::Mirrored),
    ("default_values_os", Use::Mirrored),
    ("default_value_t", Use::Mirrored),
    ("default_values_t", Use::Mirrored),
    ("default_value_os_t", Use::Mirrored),
    ("default_values_os_t", Use::Mirrored),
    ("default_missing_value", Use::Mirrored),
    ("default_missing_value_os", Use::Mirrored),
    ("default_missing_values", Use::Mirrored),
    ("default_missing_values_os", Use::Mirrored),
    ("env", Use::Mirrored),
    ("env_os", Use::Mirrored),
    ("rename_all", Use::Mirrored),
    ("rename_all_env", Use::Mirrored),
    ("help", Use::Mirrored),
    ("long_help", Use::Mirrored),
    ("verbatim_doc_comment", Use::Mirrored),
    ("display_order", Use::Help),
    ("next_display_order", Use::Help),
    ("help_heading", Use::Help),
    ("next_help_heading", Use::Help),
    ("next_line_help", Use::Help),
    ("hide", Use::Mirrored),
    ("hide_possible_values", Use::Help),
    ("hide_default_value", Use::Help),
    ("hide_env", Use::Help),
    ("hide_env_values", Use::Help),
    ("hide_short_help", Use::Help),
    ("hide_long_help", Use::Help),
    ("group", Use::Mirrored),
    ("groups", Use::Mirrored),
    ("default_value_if", Use::Mirrored),
    ("default_values_if", Use::Mirrored),
    ("default_value_if_os", Use::Mirrored),
    ("default_value_ifs", Use::Mirrored),
    ("default_values_ifs", Use::Mirrored),
    ("default_value_ifs_os", Use::Mirrored),
    ("required_unless_present", Use::Mirrored),
    ("required_unless_present_all", Use::Mirrored),
    ("required_unless_present_any", Use::Mirrored),
    ("required_if_eq", Use::Mirrored),
    ("required_if_eq_any", Use::Mirrored),
    ("required_if_eq_all", Use::Refused(CONDITIONAL_REQUIRES)),
    ("requires_if", Use::Refused(CONDITIONAL_REQUIRES)),
    ("requires_ifs", Use::Refused(CONDITIONAL_REQUIRES)),
    ("requires_all", Use::Mirrored),
    ("conflicts_with", Use::Mirrored),
    ("conflicts_with_all", Use::Mirrored),
    ("overrides_with", Use::Mirrored),
    ("overrides_with_all", Use::Mirrored),
    ("skip", Use::Mirrored),
    ("flatten", Use::Mirrored),
    ("subcommand", Use::Mirrored),
    ("from_global", Use::Mirrored),
];

/// `#[command(...)]`, and `#[clap(...)]`/`#[structopt(...)]` on a type or
/// a variant: the builder methods of `clap::Command` and the magic keys
/// clap's derive reads there (and on `flatten`/`subcommand` fields).
pub(crate) const COMMAND: &[(&str, Use)] = &[
    ("name", Use::Mirrored),
    ("id", Use::Mirrored),
    ("arg", Use::Argv(UNFIELDED)),
    ("args", Use::Argv(UNFIELDED)),
    ("mut_arg", Use::ByClap),
    ("mut_args", Use::ByClap),
    ("mut_group", Use::Refused(MUT_GROUP)),
    ("mut_subcommand", Use::Refused(MUT_SUBCOMMAND)),
    ("mut_subcommands", Use::Refused(MUT_SUBCOMMAND)),
    ("group", Use::Mirrored),
    ("groups", Use::Mirrored),
    ("subcommand", Use::Mirrored),
    ("subcommands", Use::Refused(BUILT_SUBCOMMANDS)),
    ("flatten", Use::Mirrored),
    ("skip", Use::Mirrored),
    ("external_subcommand", Use::Mirrored),
    ("defer", Use::Argv("when clap builds a subcommand's arguments; the tools are built once, from the derive")),
    ("add", Use::Help),
    ("no_binary_name", Use::Argv("whether a command line starts with the binary's name")),
    ("ignore_errors", Use::Argv("clap goes on past a command line's errors; a call with a value its parser refuses is refused, naming it")),
    ("args_override_self", Use::Argv("a flag given twice on a command line; a call gives each property once")),
    ("dont_delimit_trailing_values", Use::Argv(TRAILING)),
    ("color", Use::Help),
    ("styles", Use::Help),
    ("term_width", Use::Help),
    ("max_term_width", Use::Help),
    ("disable_version_flag", Use::Help),
    ("propagate_version", Use::Help),
    ("next_line_help", Use::Help),
    ("disable_help_flag", Use::Help),
    ("disable_help_subcommand", Use::Help),
    ("disable_colored_help", Use::Help),
    ("help_expected", Use::Help),
    ("dont_collapse_args_in_usage", Use::Help),
    ("hide_possible_values", Use::Help),
    ("infer_long_args", Use::Argv(ABBREVIATIONS)),
    ("infer_subcommands", Use::Argv(ABBREVIATIONS)),
    ("bin_name", Use::Help),
    ("display_name", Use::Help),
    ("author", Use::Help),
    ("about", Use::Mirrored),
    ("long_about", Use::Mirrored),
    ("verbatim_doc_comment", Use::Mirrored),
    ("after_help", Use::Help),
    ("after_long_help", Use::Help),
    ("before_help", Use::Help),
    ("before_long_help", Use::Help),
    ("version", Use::Mirrored),
    ("long_version", Use::Help),
    ("override_usage", Use::Help),
    ("override_help", Use::Help),
    ("help_template", Use::Help),
    ("flatten_help", Use::Help),
    ("next_help_heading", Use::Help),
    ("next_display_order", Use::Help),
    ("rename_all", Use::Mirrored),
    ("rename_all_env", Use::Mirrored),
    ("arg_required_else_help", Use::Argv("with nothing on its command line clap prints the help; a call with no arguments runs the command with its defaults")),
    ("allow_hyphen_values", Use::Argv(HYPHENS)),
    ("allow_negative_numbers", Use::Argv(HYPHENS)),
    ("trailing_var_arg", Use::Argv(TRAILING)),
    ("allow_missing_positional", Use::Argv("which positional a lone word fills on a command line; a call names each, and a required positional after an optional one stands alone, as clap reads it")),
    ("short_flag", Use::Argv(AS_FLAG)),
    ("long_flag", Use::Argv(AS_FLAG)),
    ("alias", Use::Mirrored),
    ("short_flag_alias", Use::Argv(AS_FLAG)),
    ("long_flag_alias", Use::Argv(AS_FLAG)),
    ("aliases", Use::Mirrored),
    ("short_flag_aliases", Use::Argv(AS_FLAG)),
    ("long_flag_aliases", Use::Argv(AS_FLAG)),
    ("visible_alias", Use::Mirrored),
    ("visible_short_flag_alias", Use::Argv(AS_FLAG)),
    ("visible_long_flag_alias", Use::Argv(AS_FLAG)),
    ("visible_aliases", Use::Mirrored),
    ("visible_short_flag_aliases", Use::Argv(AS_FLAG)),
    ("visible_long_flag_aliases", Use::Argv(AS_FLAG)),
    ("display_order", Use::Help),
    ("hide", Use::Mirrored),
    ("subcommand_required", Use::Mirrored),
    ("allow_external_subcommands", Use::Argv("set by clap's derive with an `#[command(external_subcommand)]` variant, which mcp-bridge mirrors as a tool; written alone, no variant holds the words")),
    ("external_subcommand_value_parser", Use::Argv("set by clap's derive from the external variant's `Vec<String>` or `Vec<OsString>`; a call's words are JSON strings, converted by that type")),
    ("args_conflicts_with_subcommands", Use::Mirrored),
    ("subcommand_precedence_over_arg", Use::Argv("whether a word that names a subcommand ends an option's list on a command line; a call names the tool")),
    ("subcommand_negates_reqs", Use::Mirrored),
    ("multicall", Use::Argv("the binary's name picks the command on a command line; a call names the tool")),
    ("subcommand_value_name", Use::Help),
    ("subcommand_help_heading", Use::Help),
];

/// `#[group(...)]`: the builder methods of `clap::ArgGroup`, and `skip`.
pub(crate) const GROUP: &[(&str, Use)] = &[
    ("id", Use::Mirrored),
    ("arg", Use::Mirrored),
    ("args", Use::Mirrored),
    ("multiple", Use::Mirrored),
    ("required", Use::Mirrored),
    ("requires", Use::Mirrored),
    ("requires_all", Use::Mirrored),
    ("conflicts_with", Use::Mirrored),
    ("conflicts_with_all", Use::Mirrored),
    ("skip", Use::Mirrored),
];

/// `#[value(...)]`, on the variants of a `ValueEnum`: read by clap's
/// `ValueEnum` derive, whose `to_possible_value` the bridge calls for an
/// argument's values (`name`, `skip` and `rename_all` are its magic keys;
/// the rest are `PossibleValue`'s methods).
pub(crate) const VALUE: &[(&str, Use)] = &[
    ("name", Use::ByClap),
    ("skip", Use::ByClap),
    ("rename_all", Use::ByClap),
    ("help", Use::ByClap),
    ("hide", Use::ByClap),
    ("alias", Use::ByClap),
    ("aliases", Use::ByClap),
];

/// The table of keys an attribute of `kind` takes.
pub(crate) fn table(kind: ClapAttrKind) -> &'static [(&'static str, Use)] {
    match kind {
        ClapAttrKind::Arg => ARG,
        ClapAttrKind::Command => COMMAND,
        ClapAttrKind::Group => GROUP,
        ClapAttrKind::Value => VALUE,
    }
}

/// What the bridge does with `key` in an attribute of `kind`; `None` for
/// a key clap's derive does not take there either (clap reports it).
pub(crate) fn use_of(kind: ClapAttrKind, key: &str) -> Option<Use> {
    table(kind)
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, use_)| *use_)
}

/// The attribute's name as users write it, for messages.
fn attribute(kind: ClapAttrKind) -> &'static str {
    match kind {
        ClapAttrKind::Arg => "arg",
        ClapAttrKind::Command => "command",
        ClapAttrKind::Group => "group",
        ClapAttrKind::Value => "value",
    }
}

/// Refuses every key that has no classification, and every key refused.
pub(crate) fn check_keys(cx: &Ctxt, items: &[ClapItem]) {
    for item in items {
        let key = item.key.to_string();
        match use_of(item.kind, &key) {
            Some(Use::Refused(message)) => cx.error_at(
                &item.key,
                format!("`#[{}({key})]`: {message}", attribute(item.kind)),
            ),
            Some(_) => {}
            None => cx.error_at(
                &item.key,
                format!(
                    "`#[{}({key})]` is a key mcp-bridge does not know: it knows every key of \
                     clap's derive up to clap {}, so that none is passed over unseen; if clap \
                     takes this one, mcp-bridge needs a newer version",
                    attribute(item.kind),
                    KNOWN_CLAP
                ),
            ),
        }
    }
}

/// The newest clap whose keys the tables hold (`tests::every_clap_key_is_classified`
/// checks the version being built).
pub(crate) const KNOWN_CLAP: &str = "4.6";

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{Use, ARG, COMMAND, GROUP, VALUE};

    /// The directory of a package of the workspace's dependency graph, as
    /// `cargo metadata` resolves it (the lock file's version: the newest
    /// under `scripts/deps-newest.sh`).
    fn package_dir(name: &str) -> PathBuf {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let output = std::process::Command::new(env!("CARGO"))
            .args(["metadata", "--format-version", "1", "--manifest-path"])
            .arg(&manifest)
            .output()
            .expect("cargo metadata runs");
        assert!(
            output.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
        let packages = metadata["packages"].as_array().expect("packages");
        let package = packages
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} is in the dependency graph"));
        let manifest = package["manifest_path"].as_str().expect("manifest_path");
        Path::new(manifest)
            .parent()
            .expect("a directory")
            .to_owned()
    }

    fn parse_file(path: &Path) -> syn::File {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        syn::parse_file(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
    }

    /// The builder methods of `ty` in `file`: public methods of its
    /// inherent impls that take `self` by value and return `Self`, which
    /// is what clap's derive calls for a key it does not read itself.
    fn builder_methods(file: &syn::File, ty: &str) -> Vec<String> {
        let mut methods = Vec::new();
        for item in &file.items {
            let syn::Item::Impl(block) = item else {
                continue;
            };
            let named = matches!(&*block.self_ty, syn::Type::Path(path)
                if path.path.segments.last().is_some_and(|s| s.ident == ty));
            if !named || block.trait_.is_some() {
                continue;
            }
            for item in &block.items {
                let syn::ImplItem::Fn(method) = item else {
                    continue;
                };
                let by_value = matches!(method.sig.inputs.first(),
                    Some(syn::FnArg::Receiver(r)) if r.reference.is_none());
                let returns_self = matches!(&method.sig.output, syn::ReturnType::Type(_, ty)
                    if matches!(&**ty, syn::Type::Path(p) if p.path.is_ident("Self")));
                if matches!(method.vis, syn::Visibility::Public(_)) && by_value && returns_self {
                    methods.push(method.sig.ident.to_string());
                }
            }
        }
        methods
    }

    /// The magic keys of clap's derive: the names its attribute parser
    /// maps to `MagicAttrName`, and the ones its items read by name.
    fn magic_keys(derive: &Path) -> Vec<String> {
        let text =
            std::fs::read_to_string(derive.join("src/attr.rs")).expect("clap_derive's attr.rs");
        let mut keys = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix('"') {
                if let Some((key, tail)) = rest.split_once('"') {
                    if tail.contains("MagicAttrName::") {
                        keys.push(key.to_owned());
                    }
                }
            }
        }
        assert!(
            keys.len() > 20,
            "clap_derive's magic keys are read ({keys:?})"
        );
        keys
    }

    fn names(table: &[(&'static str, Use)]) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = table.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names
    }

    #[test]
    fn every_clap_key_is_classified() {
        let builder = package_dir("clap_builder");
        let derive = package_dir("clap_derive");
        let mut missing = Vec::new();
        for (file, ty, table, attribute) in [
            ("arg.rs", "Arg", ARG, "#[arg]"),
            ("command.rs", "Command", COMMAND, "#[command]"),
            ("arg_group.rs", "ArgGroup", GROUP, "#[group]"),
            ("possible_value.rs", "PossibleValue", VALUE, "#[value]"),
        ] {
            let source = parse_file(&builder.join("src/builder").join(file));
            let methods = builder_methods(&source, ty);
            assert!(
                methods.len() >= 4,
                "{ty}'s builder methods are read: {methods:?}"
            );
            for method in methods {
                if !table.iter().any(|(name, _)| *name == method) {
                    missing.push(format!("{attribute}: {ty}::{method}"));
                }
            }
        }
        for key in magic_keys(&derive) {
            if ![ARG, COMMAND, GROUP, VALUE]
                .iter()
                .any(|table| table.iter().any(|(name, _)| *name == key))
            {
                missing.push(format!("clap_derive's magic key `{key}`"));
            }
        }
        assert!(
            missing.is_empty(),
            "keys of clap's derive (clap_builder at {}) that mcp-bridge does not classify; \
             add each to a table of src/parse/clap_keys.rs, and to docs/clap-support.md:\n  {}",
            builder.display(),
            missing.join("\n  ")
        );
    }

    #[test]
    fn a_key_is_classified_once() {
        for table in [ARG, COMMAND, GROUP, VALUE] {
            let all = names(table);
            let mut unique = all.clone();
            unique.dedup();
            assert_eq!(all, unique, "a key is listed twice");
        }
    }

    /// The tables as docs/clap-support.md lists them.
    fn rendered() -> String {
        let mut out = String::new();
        for (attribute, table) in [
            ("`#[arg]` (and `#[clap]` on a field)", ARG),
            (
                "`#[command]` (and `#[clap]` on a type or a variant)",
                COMMAND,
            ),
            ("`#[group]`", GROUP),
            ("`#[value]`", VALUE),
        ] {
            out.push_str(&format!(
                "\n{attribute}:\n\n| key | bridge | why |\n| --- | --- | --- |\n"
            ));
            let mut rows: Vec<&(&str, Use)> = table.iter().collect();
            rows.sort_by_key(|(name, _)| *name);
            for (name, use_) in rows {
                let why = match use_ {
                    Use::Argv(why) | Use::Refused(why) => why.replace('|', "\\|"),
                    _ => String::new(),
                };
                out.push_str(&format!("| `{name}` | {} | {why} |\n", use_.class()));
            }
        }
        out
    }

    #[test]
    fn clap_support_lists_every_key() {
        const START: &str = "<!-- clap-keys: start (written by the derive's tests) -->\n";
        const END: &str = "<!-- clap-keys: end -->";
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/clap-support.md");
        let doc = std::fs::read_to_string(&path).expect("docs/clap-support.md");
        let (Some(start), Some(end)) = (doc.find(START), doc.find(END)) else {
            panic!(
                "docs/clap-support.md has no `{}` ... `{END}` section",
                START.trim()
            );
        };
        let listed = &doc[start + START.len()..end];
        let expected = rendered();
        if listed != expected {
            if std::env::var_os("UPDATE_EXPANSIONS").is_some() {
                let updated = format!("{}{expected}{}", &doc[..start + START.len()], &doc[end..]);
                std::fs::write(&path, updated).expect("docs/clap-support.md written");
                return;
            }
            panic!(
                "docs/clap-support.md does not list the keys of src/parse/clap_keys.rs as they \
                 are; run `UPDATE_EXPANSIONS=1 cargo test -p mcp-bridge-derive` and read the diff"
            );
        }
    }
}
