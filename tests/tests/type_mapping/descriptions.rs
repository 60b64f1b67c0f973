//! Descriptions from doc comments and help attributes.

use super::helpers::*;
#[allow(unused_imports)]
use super::{
    defaults::*, enums::*, formats::*, lists::*, maps::*, scalars::*, strings::*, tools::*,
};

/// Render documents.
///
/// Reads every input and writes
/// one page per input.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "docs")]
pub(crate) struct Docs {
    /// The input file.
    input: String,

    /// Level of detail.
    ///
    /// Higher levels print more; the
    /// default prints a summary.
    #[arg(long, default_value_t = 1)]
    level: u8,

    #[arg(long, help = "Explicit help text")]
    explicit: Option<String>,

    #[arg(long, help = "Short help", long_help = "Long help, shown by --help")]
    both: Option<String>,

    /// Documented for the terminal
    #[arg(long)]
    #[mcp(description = "Documented for MCP clients")]
    custom: Option<String>,

    /// Keep   this
    /// layout.
    ///
    /// Second paragraph.
    #[arg(long, verbatim_doc_comment)]
    verbatim: Option<String>,

    #[arg(long)]
    bare: Option<String>,
}

#[test]
fn descriptions_come_from_doc_comments_and_help() {
    let registry = registry::<Docs>();
    let tool = registry.tool("docs").unwrap();
    assert_eq!(
        tool.description,
        "docs: Render documents.\n\nReads every input and writes one page per input."
    );
    let p = props::<Docs>("docs");
    assert_eq!(
        p["input"],
        json!({ "type": "string", "description": "The input file" })
    );
    assert_eq!(
        p["level"],
        json!({
            "type": "integer",
            "minimum": 0,
            "maximum": 255,
            "description": "Level of detail.\n\nHigher levels print more; the default prints a summary.",
            "default": 1
        })
    );
    assert_eq!(p["explicit"]["description"], "Explicit help text");
    assert_eq!(p["both"]["description"], "Long help, shown by --help");
    assert_eq!(p["custom"]["description"], "Documented for MCP clients");
    assert_eq!(
        p["verbatim"]["description"],
        "Keep   this\nlayout.\n\nSecond paragraph."
    );
    assert_eq!(p["bare"], json!({ "type": "string" }));
}

#[test]
fn descriptions_match_clap_help() {
    assert_clap_parity::<Docs>();
    let cmd = Docs::command();
    let spec = Docs::command_spec();
    assert_eq!(spec.about.as_deref(), Some("Render documents"));
    assert_eq!(
        cmd.get_about().map(ToString::to_string).as_deref(),
        Some("Render documents")
    );
    assert_eq!(
        spec.long_about,
        cmd.get_long_about().map(ToString::to_string)
    );
    for param in spec.params.iter().filter(|p| p.id != "custom") {
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_id() == param.id.as_str())
            .unwrap();
        let clap_text = arg
            .get_long_help()
            .or(arg.get_help())
            .map(ToString::to_string);
        assert_eq!(param.description, clap_text, "{}", param.id);
    }
}

/// Doc comment summary.
///
/// Doc comment details.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "pkgabout", about, long_about = None)]
pub(crate) struct PkgAbout {}

#[test]
fn explicit_about_attributes_override_the_doc_comment_like_clap() {
    assert_clap_parity::<PkgAbout>();
    let spec = PkgAbout::command_spec();
    assert_eq!(spec.about.as_deref(), Some(env!("CARGO_PKG_DESCRIPTION")));
    assert_eq!(spec.long_about, None);
    let registry = registry::<PkgAbout>();
    assert_eq!(
        registry.tool("pkgabout").unwrap().description,
        format!("pkgabout: {}", env!("CARGO_PKG_DESCRIPTION"))
    );
}
