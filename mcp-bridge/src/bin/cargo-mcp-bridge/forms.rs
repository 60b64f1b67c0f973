//! The text `adopt` writes, in one place: `remove` finds each form by
//! writing it again from the parts it read and comparing, so it takes
//! back exactly what `adopt` wrote and nothing a person wrote.

/// The derive added beside clap's.
pub(crate) const DERIVE: &str = "mcp_bridge::McpTool";
/// What comes before it in a derive list.
pub(crate) const DERIVE_SEPARATOR: &str = ", ";
/// The test module added next to the CLI's root type, and the words of
/// its doc comment that tell it is `adopt`'s.
pub(crate) const TESTS: &str = "mcp_bridge_adoption";
pub(crate) const TESTS_MARK: &str = "Added by `cargo mcp-bridge adopt`";

/// `#[cfg_attr(<condition>, derive(mcp_bridge::McpTool))]`.
pub(crate) fn cfg_attr_derive(condition: &str) -> String {
    format!("#[cfg_attr({condition}, derive({DERIVE}))]")
}

/// The condition of the derive with `--feature`: the feature, and the
/// condition clap's derive is under, if any.
pub(crate) fn feature_condition(feature: &str, cfg: Option<&str>) -> String {
    match cfg {
        Some(cfg) => format!("all({cfg}, feature = \"{feature}\")"),
        None => format!("feature = \"{feature}\""),
    }
}

/// The type of `mcp_bridge::parse::<_>()`, which a `let` gives, written
/// for `Parser::parse()` (`let cli: Cli = Parser::parse();`).
pub(crate) const INFERRED: &str = "_";

/// `Cli::parse()`; with a receiver, clap's method on the CLI's command:
/// `Cli::command().get_matches_from(args)`.
pub(crate) fn clap_call(ty: &str, function: &str, receiver: Option<&str>, args: &str) -> String {
    match receiver {
        None if ty == INFERRED => format!("Parser::{function}({args})"),
        None => format!("{ty}::{function}({args})"),
        Some(receiver) => format!("{receiver}.{function}({args})"),
    }
}

/// `mcp_bridge::parse::<Cli>()`; with a receiver,
/// `mcp_bridge::get_matches_from::<Cli>(Cli::command(), args)`.
pub(crate) fn bridged_call(ty: &str, function: &str, receiver: Option<&str>, args: &str) -> String {
    match (receiver, args.trim().is_empty()) {
        (None, _) => format!("mcp_bridge::{function}::<{ty}>({args})"),
        (Some(receiver), true) => format!("mcp_bridge::{function}::<{ty}>({receiver})"),
        (Some(receiver), false) => format!("mcp_bridge::{function}::<{ty}>({receiver}, {args})"),
    }
}

/// The call with `--feature`: the bridge's with the feature, clap's
/// without.
pub(crate) fn feature_call(
    feature: &str,
    ty: &str,
    function: &str,
    receiver: Option<&str>,
    args: &str,
) -> String {
    let bridged = bridged_call(ty, function, receiver, args);
    let clap = clap_call(ty, function, receiver, args);
    format!(
        "{{ #[cfg(feature = \"{feature}\")] let cli = {bridged}; \
         #[cfg(not(feature = \"{feature}\"))] let cli = {clap}; cli }}"
    )
}

/// A root type of the CLI, tested by the module `adopt` adds.
pub(crate) struct Root<'a> {
    pub(crate) name: &'a str,
    /// It derives `Debug`, which the agreement check needs.
    pub(crate) debug: bool,
}

/// The test module: the tools agree with clap's command, in their
/// definitions and in the values a call builds.
pub(crate) fn tests(roots: &[Root<'_>], feature: Option<&str>) -> String {
    let condition = match feature {
        Some(feature) => format!("all(test, feature = \"{feature}\")"),
        None => "test".to_owned(),
    };
    let mut text = format!(
        "#[cfg({condition})]\nmod {TESTS} {{\n    \
         //! {TESTS_MARK}: the CLI's MCP tools are its clap command.\n"
    );
    for root in roots {
        let name = root.name;
        text.push_str(&format!(
            "\n    #[test]\n    fn {}_is_served_as_clap_reads_it() {{\n        \
             mcp_bridge::testing::assert_parity::<super::{name}>();\n",
            snake(name)
        ));
        if root.debug {
            text.push_str(&format!(
                "        mcp_bridge::testing::assert_agrees_with_clap::<super::{name}>();\n"
            ));
        } else {
            text.push_str(&format!(
                "        // With `Debug` on {name}, check the values calls build too:\n        \
                 // mcp_bridge::testing::assert_agrees_with_clap::<super::{name}>();\n"
            ));
        }
        text.push_str("    }\n");
    }
    text.push_str("}\n");
    text
}

/// `MyCli` → `my_cli`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_call_keeps_clap_s_call_without_the_feature() {
        assert_eq!(
            feature_call("mcp", "Cli", "parse_from", None, "args"),
            "{ #[cfg(feature = \"mcp\")] let cli = mcp_bridge::parse_from::<Cli>(args); \
             #[cfg(not(feature = \"mcp\"))] let cli = Cli::parse_from(args); cli }"
        );
        assert_eq!(snake("MyCli"), "my_cli");
    }
}
