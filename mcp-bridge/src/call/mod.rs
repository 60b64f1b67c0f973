//! A call: JSON arguments → the user's typed value.
//!
//! [`prepare`] checks the property names and the relations between
//! arguments; generated `mcp_build` code then asks the [`BuildCtx`] for
//! each field, in declaration order, and [`convert`]'s converters turn each
//! JSON value into the field's type as clap's parser would.

#[doc(hidden)]
pub mod auto;
pub(crate) mod clap_args;
pub mod convert;
mod ctx;
mod properties;
pub(crate) use properties::closest;
pub(crate) mod relations;

pub use ctx::{env_texts, no_texts, BuildCtx, DefaultSource, DefaultTexts, LiteralTexts, Texts};
pub(crate) use ctx::{is_given, scalar_text};

use serde_json::{Map, Value};

use crate::error::ArgError;
use crate::spec::ToolSpec;

/// Refuses a call giving an argument the server's operator fixed.
pub(crate) fn refuse_pinned(tool: &ToolSpec, args: &Map<String, Value>) -> Result<(), ArgError> {
    match tool.pinned.iter().find(|p| args.contains_key(&p.name)) {
        Some(pinned) => Err(ArgError::new(
            &tool.name,
            Some(&pinned.name),
            crate::error::Problem::Relation {
                message: match pinned.by_cli {
                    false => format!(
                        "property `{}` is fixed by the server (`{}` was given when it started); leave it out",
                        pinned.name, pinned.given_as
                    ),
                    true => format!(
                        "property `{}` is fixed for this tool ({}); leave it out",
                        pinned.name, pinned.given_as
                    ),
                },
            },
        )),
        None => Ok(()),
    }
}

/// Checks a call's arguments against `tool` (property names, sorted in
/// `properties`; relations when `has_rules`) and returns the context the
/// typed build reads them from.
pub(crate) fn prepare<'a>(
    tool: &'a ToolSpec,
    properties: &[String],
    has_rules: bool,
    args: &'a Map<String, Value>,
) -> Result<BuildCtx<'a>, ArgError> {
    properties::check(tool, properties, args)?;
    if has_rules {
        relations::check(tool, args)?;
    }
    Ok(BuildCtx::new(tool, args))
}
