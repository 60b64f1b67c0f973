//! Checks on the whole model, all reported through the accumulator.

use std::collections::HashMap;

use crate::ctxt::Ctxt;
use crate::model::{FieldKind, Input, VariantKind};
use crate::naming::is_valid_tool_name;

pub(crate) fn check(cx: &Ctxt, input: &Input<'_>) {
    match input {
        Input::Struct(container, fields) => {
            check_tool_name(cx, container.layer.mcp.name.as_ref());
            check_properties(cx, fields.iter().map(|f| &f.kind));
        }
        Input::Enum(container, variants) => {
            check_tool_name(cx, container.layer.mcp.name.as_ref());
            for variant in variants {
                check_tool_name(cx, variant.layer.mcp.name.as_ref());
                if let VariantKind::Named(fields) = &variant.kind {
                    check_properties(cx, fields.iter().map(|f| &f.kind));
                }
            }
        }
    }
}

fn check_tool_name(cx: &Ctxt, name: Option<&crate::attr::Spanned<String>>) {
    if let Some(name) = name {
        if !is_valid_tool_name(&name.value) {
            cx.error_span(
                name.span,
                format!(
                    "`{}` is not a valid MCP tool name: use 1 to 128 characters of A-Z, a-z, 0-9, `_`, `.` and `-`",
                    name.value
                ),
            );
        }
    }
}

/// Two arguments of one struct exposed under the same property name.
fn check_properties<'a>(cx: &Ctxt, fields: impl Iterator<Item = &'a FieldKind>) {
    let mut seen: HashMap<String, proc_macro2::Span> = HashMap::new();
    for field in fields {
        if let FieldKind::Arg(arg) = field {
            if arg.hide || arg.mcp.skip.is_some() {
                continue;
            }
            let property = arg.property();
            if seen.insert(property.clone(), arg.span).is_some() {
                cx.error_span(
                    arg.span,
                    format!("two arguments are exposed as the property `{property}`; rename one with `#[mcp(name = \"...\")]`"),
                );
            }
        }
    }
}
