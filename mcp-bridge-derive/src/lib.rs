//! Derive macro for [mcp-bridge](https://docs.rs/mcp-bridge): put
//! `#[derive(McpTool)]` next to clap's `Parser`, `Args` and `Subcommand`
//! derives.
//!
//! The derive reads the same attributes clap reads, builds a small model
//! of the command tree ([`model`], built by [`parse`]), checks it
//! ([`check`]) collecting every error, and generates the spec builders and
//! typed constructors ([`expand`]). See the `mcp-bridge` crate for the
//! user-facing docs.
//!
//! # `#[mcp(...)]`
//!
//! clap's attributes say what the command is; `#[mcp(...)]` refines what
//! MCP clients see:
//!
//! | key | on | effect |
//! | --- | --- | --- |
//! | `name = "..."` | the type, a variant | the tool's name |
//! | `name = "..."` | an argument field | the property's name |
//! | `description = "..."` | the type, a variant, an argument field | the description, instead of the doc comment |
//! | `skip` | the type, a variant, an argument field | leave it out of MCP (clap still has it) |
//! | `crate = "path"` | the type (struct or enum) only | reach mcp-bridge through `path` (a renamed or re-exported dependency): generated code uses `path::__private` instead of `::mcp_bridge::__private` |
//!
//! ```ignore
//! // Cargo.toml: bridge = { package = "mcp-bridge", version = "..." }
//! use bridge::McpTool;
//!
//! #[derive(clap::Parser, McpTool)]
//! #[mcp(crate = "bridge")]
//! struct Cli { /* ... */ }
//! ```
//!
//! Every type that derives `McpTool` through a renamed crate needs the
//! key, as with serde's `#[serde(crate = "...")]`.

// The model and the attribute items hold syn nodes by value, for the
// length of one expansion; their size varies with proc-macro2's features
// (`span-locations`, on in this crate's tests), and boxing them would only
// add noise.
#![allow(clippy::large_enum_variant)]

mod check;
mod ctxt;
mod expand;
mod model;
mod parse;
#[cfg(test)]
mod tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives the MCP surface of a clap command type.
///
/// On a `Parser`/`Args` struct it implements `mcp_bridge::McpArgs` (and
/// makes a `Parser` root usable with `mcp_bridge::Bridge`); on a
/// `Subcommand` enum it implements `mcp_bridge::McpSubcommand`.
///
/// `#[mcp(...)]` refines the result: `name = "..."` (tool or property
/// name), `description = "..."`, `skip`, and on the type `crate = "path"`
/// (the path of a renamed or re-exported mcp-bridge); see the crate docs.
#[proc_macro_derive(McpTool, attributes(mcp))]
pub fn derive_mcp_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

/// The pipeline: read the input into the model, check it, generate code
/// (or, with errors, the errors and stub impls).
fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let model = parse::from_syn(&cx, input);
    model.iter().for_each(|model| check::check(&cx, model));
    match (cx.check(), model) {
        (Ok(()), Some(model)) => expand::expand(&model),
        (errors, model) => expand::fallback(input, model.as_ref(), errors.err()),
    }
}
