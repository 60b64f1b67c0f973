//! `#[mcp(skip)]`ped arguments whose value is known without converting
//! anything: built directly, so their type needs no JSON conversion (the
//! way out the "cannot be converted from a JSON value" error suggests).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Action, Arg, DefaultValue, Shape, ValueKind};

/// The value of a skipped argument that needs no converter: its typed
/// default (`default_value_t`, `default_values_t`), or what clap gives an
/// absent optional argument. `None` when the argument is exposed, reads an
/// environment variable, has a textual default (parsed like clap does), or
/// has a `value_parser` (which could transform the default).
pub(crate) fn build(arg: &Arg) -> Option<TokenStream> {
    if arg.mcp.skip.is_none()
        || arg.env.is_some()
        || !matches!(arg.action, Action::Set | Action::Append)
        || !matches!(
            arg.value,
            ValueKind::Builtin(_) | ValueKind::Auto | ValueKind::Enum
        )
    {
        return None;
    }
    let inner = &arg.inner;
    let collect = |expr: &syn::Expr| quote!(::core::iter::Iterator::collect(::core::iter::IntoIterator::into_iter(#expr)));
    Some(match (&arg.default, arg.shape) {
        (DefaultValue::ValueT(Some(expr)), Shape::Other | Shape::Bool) => {
            quote!({ let __v: #inner = #expr; __v })
        }
        (DefaultValue::ValueT(Some(expr)), Shape::Option) => {
            quote!(::core::option::Option::Some({ let __v: #inner = #expr; __v }))
        }
        (DefaultValue::ValueT(None), Shape::Other | Shape::Bool) => {
            quote!(<#inner as ::core::default::Default>::default())
        }
        (DefaultValue::ValueT(None), Shape::Option) => {
            quote!(::core::option::Option::Some(<#inner as ::core::default::Default>::default()))
        }
        (DefaultValue::ValuesT(expr), Shape::Vec) => collect(expr),
        (DefaultValue::ValuesT(expr), Shape::OptionVec) => {
            let all = collect(expr);
            quote!(::core::option::Option::Some(#all))
        }
        (DefaultValue::None, Shape::Option | Shape::OptionOption | Shape::OptionVec)
            if !arg.required =>
        {
            quote!(::core::option::Option::None)
        }
        (DefaultValue::None, Shape::Vec) if !arg.required => quote!(::std::vec::Vec::new()),
        _ => return None,
    })
}

/// Whether [`build`] builds the argument (and no converter is needed).
pub(crate) fn bypasses_conversion(arg: &Arg) -> bool {
    build(arg).is_some()
}
