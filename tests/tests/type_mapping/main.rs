//! How field types and `#[arg]` attributes map to JSON Schema properties,
//! and how JSON values are converted back into the typed CLI value.
//!
//! Every CLI here derives clap's traits *and* `McpTool`, so clap is the
//! oracle: a JSON call that builds must give exactly the value clap parses
//! from the equivalent argv, and a value clap refuses must be refused too.
//! Errors must name the tool and the property and say what was expected
//! and what was given.
//!
//! One module per family of types; `helpers` holds what they share.

mod helpers;

mod defaults;
mod descriptions;
mod enums;
mod formats;
mod lists;
mod maps;
mod scalars;
mod strings;
mod tools;
