//! What the spec and the build both emit of one argument, as clap
//! evaluates it: its default texts and its arity.

use proc_macro2::TokenStream;
use quote::quote;

use super::Private;
use crate::model::{Action, Arg, DefaultValue, NumArgs, ValueKind};

/// The lazily evaluated default texts, as clap would store them.
pub(super) fn default_texts(p: &Private, arg: &Arg) -> TokenStream {
    let inner = &arg.inner;
    let display = |value: TokenStream| match arg.value {
        ValueKind::Enum => quote! {
            #p::Cow::Owned(#p::value_enum_name::<#inner>(&#value))
        },
        _ => quote!(#p::Cow::Owned(#p::ToString::to_string(&#value))),
    };
    match &arg.default {
        DefaultValue::None => quote!(#p::None),
        DefaultValue::Texts(texts) => {
            quote!(#p::Some(#p::vec![#(#p::Cow::Borrowed(#texts)),*]))
        }
        DefaultValue::TextsOf(expr) => quote!(#p::Some(#p::default_values_of(#expr))),
        DefaultValue::ValueT(Some(expr)) => {
            let shown = display(quote!({ let __v: #inner = #expr; __v }));
            quote!(#p::Some(#p::vec![#shown]))
        }
        DefaultValue::ValueT(None) => {
            let shown = display(quote!(<#inner as ::core::default::Default>::default()));
            quote!(#p::Some(#p::vec![#shown]))
        }
        DefaultValue::ValuesT(expr) => {
            let shown = display(quote!(__v));
            quote! {
                #p::Some(::core::iter::IntoIterator::into_iter(#expr).map(|__v: #inner| #shown).collect())
            }
        }
    }
}

/// Values per use of a list argument, and whether it may be repeated:
/// clap's `num_args`, or the defaults its derive gives (`1..` for a
/// positional list, one value per use of an `Append` flag). A `num_args`
/// expression is evaluated through clap's `ValueRange`.
pub(super) fn arity_tokens(p: &Private, arg: &Arg) -> TokenStream {
    let repeatable = arg.action == Action::Append && !arg.positional;
    let (min, max) = match &arg.num_args {
        Some(NumArgs::Expr(expr)) => return quote!(#p::num_args(#expr, #repeatable)),
        Some(NumArgs::Lit(min, max)) => (*min, *max),
        None if arg.positional => (1, None),
        None => (1, Some(1)),
    };
    let max = match max {
        Some(max) => quote!(#p::Some(#max)),
        None => quote!(#p::None),
    };
    quote!(#p::Arity { min: #min, max: #max, repeatable: #repeatable })
}
