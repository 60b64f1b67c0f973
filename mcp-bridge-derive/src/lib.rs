//! Derive macro for [mcp-bridge](https://docs.rs/mcp-bridge): put
//! `#[derive(McpTool)]` next to clap's `Parser`, `Args` and `Subcommand`
//! derives.
//!
//! The derive reads the same attributes clap reads, builds a small model
//! of the command tree ([`model`]), checks it ([`check`]) collecting every
//! error, and generates the spec builders and typed constructors
//! ([`expand`]). See the `mcp-bridge` crate for the user-facing docs.

mod attr;
mod check;
mod const_tree;
mod ctxt;
mod doc;
mod expand;
mod model;
mod naming;
mod relations;
mod skipped;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives the MCP surface of a clap command type.
///
/// On a `Parser`/`Args` struct it implements `mcp_bridge::McpArgs` (and
/// makes a `Parser` root usable with `mcp_bridge::Bridge`); on a
/// `Subcommand` enum it implements `mcp_bridge::McpSubcommand`.
///
/// `#[mcp(...)]` refines the result: `name = "..."` (tool or property
/// name), `description = "..."`, `skip`.
#[proc_macro_derive(McpTool, attributes(mcp))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let model = model::from_syn(&cx, input);
    if let Some(model) = &model {
        check::check(&cx, model);
    }
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::expand(&model),
        (Err(errors), _) => {
            let mut tokens = ctxt::to_compile_errors(errors);
            tokens.extend(expand::fallback(input));
            tokens
        }
        (Ok(()), None) => expand::fallback(input),
    }
}
