//! What the spec and the build both emit of one argument, as clap
//! evaluates it: its default texts and its arity.

use proc_macro2::TokenStream;
use quote::quote;

use super::Private;
use crate::model::{Action, Arg, Builtin, DefaultValue, Int, NumArgs, ValueKind};

/// The default texts as an array of string literals, when the derive
/// reads them itself (a literal `default_value(s)`, or a literal
/// `default_value_t` it writes as text): static data, no code.
pub(super) fn literal_texts(arg: &Arg) -> Option<TokenStream> {
    if let Some(text) = literal_default_text(arg) {
        return Some(quote!([#text]));
    }
    match &arg.default {
        DefaultValue::Texts(texts) if texts.iter().all(is_str_literal) => {
            Some(quote!([#(#texts),*]))
        }
        _ => None,
    }
}

/// The lazily evaluated default texts, as clap would store them.
pub(super) fn default_texts(p: &Private, arg: &Arg) -> TokenStream {
    let inner = &arg.inner;
    // The text of a value, given by reference (`&T`).
    let display = |value: TokenStream| match arg.value {
        ValueKind::Enum => quote! {
            #p::Cow::Owned(#p::value_enum_name::<#inner>(#value))
        },
        _ => quote!(#p::Cow::Owned(#p::ToString::to_string(#value))),
    };
    // The text of each item of a list (`shown`, of `__v: &T`), the items
    // taken by `Borrow` as clap's derive takes them (a `&Vec<T>` as well
    // as a `Vec<T>`).
    let each = |list: &syn::Expr, shown: TokenStream| {
        quote! {
            #p::Some(::core::iter::IntoIterator::into_iter(#list).map(|__v| {
                let __v: &#inner = ::core::borrow::Borrow::borrow(&__v);
                #shown
            }).collect())
        }
    };
    if let Some(texts) = literal_texts(arg) {
        return quote!(#p::literal_texts(&#texts));
    }
    match &arg.default {
        DefaultValue::None => quote!(#p::None),
        // Not all literals: each as clap's `default_values` takes it.
        DefaultValue::Texts(texts) => {
            quote!(#p::Some(#p::default_values_of([#(#texts),*])))
        }
        DefaultValue::One(expr) => quote!(#p::default_value_of(#expr)),
        DefaultValue::TextsOf(expr) => quote!(#p::Some(#p::default_values_of(#expr))),
        DefaultValue::ValueT(Some(expr)) => {
            let shown = display(quote!(&{ let __v: #inner = #expr; __v }));
            quote!(#p::Some(#p::vec![#shown]))
        }
        DefaultValue::ValueT(None) => {
            let shown = display(quote!(&<#inner as ::core::default::Default>::default()));
            quote!(#p::Some(#p::vec![#shown]))
        }
        DefaultValue::ValuesT(expr) => each(expr, display(quote!(__v))),
        // `default_value_os_t`: the value made an `OsString`, as clap's
        // derive makes it (a value enum by its name).
        DefaultValue::OsT(expr) => {
            let value = match expr {
                Some(expr) => quote!({ let __v: #inner = #expr; __v }),
                None => quote!(<#inner as ::core::default::Default>::default()),
            };
            let shown = match arg.value {
                ValueKind::Enum => display(quote!(&#value)),
                _ => quote! {
                    #p::Cow::Owned(::std::ffi::OsString::from(#value).to_string_lossy().into_owned())
                },
            };
            quote!(#p::Some(#p::vec![#shown]))
        }
        DefaultValue::OsValuesT(expr) => {
            let shown = match arg.value {
                ValueKind::Enum => display(quote!(__v)),
                _ => quote! {
                    #p::Cow::Owned(::std::ffi::OsString::from(__v).to_string_lossy().into_owned())
                },
            };
            each(expr, shown)
        }
    }
}

/// The text of a `default_value_t` the derive can show itself, as clap
/// would at run time (`Display` of the value): an integer or `bool`
/// literal of a primitive type, or a bare `default_value_t` of an integer,
/// `bool` or `String`. Anything else (and a value enum, shown by its
/// name) is left to run time.
pub(super) fn literal_default_text(arg: &Arg) -> Option<String> {
    if matches!(arg.value, ValueKind::Enum) {
        return None;
    }
    match (&arg.default, arg.inner_builtin?) {
        (DefaultValue::ValueT(None), Builtin::Integer(_)) => Some("0".to_owned()),
        (DefaultValue::ValueT(None), Builtin::Bool) => Some("false".to_owned()),
        (DefaultValue::ValueT(None), Builtin::String) => Some(String::new()),
        (DefaultValue::ValueT(Some(expr)), Builtin::Integer(int)) => integer_text(expr, int),
        (DefaultValue::ValueT(Some(expr)), Builtin::Bool) => match unwrapped(expr) {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => Some(b.value.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A literal's text in base 10, when it is one of `int` (`0x10`, `1_000`
/// and `7u8` read as Rust reads them); out of range, `None`, and the
/// compiler says so where clap's derive uses it.
fn integer_text(expr: &syn::Expr, int: Int) -> Option<String> {
    let (negative, lit) = match unwrapped(expr) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => (false, lit),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match unwrapped(expr) {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(lit),
                ..
            }) => (true, lit),
            _ => return None,
        },
        _ => return None,
    };
    let magnitude: u128 = lit.base10_parse().ok()?;
    let (min, max): (i128, u128) = match int {
        Int::I8 => (i8::MIN.into(), i8::MAX as u128),
        Int::I16 => (i16::MIN.into(), i16::MAX as u128),
        Int::I32 => (i32::MIN.into(), i32::MAX as u128),
        Int::I64 | Int::Isize => (i64::MIN.into(), i64::MAX as u128),
        Int::I128 => (i128::MIN, i128::MAX as u128),
        Int::U8 => (0, u8::MAX.into()),
        Int::U16 => (0, u16::MAX.into()),
        Int::U32 => (0, u32::MAX.into()),
        Int::U64 | Int::Usize => (0, u64::MAX.into()),
        Int::U128 => (0, u128::MAX),
    };
    if !negative {
        return (magnitude <= max).then(|| magnitude.to_string());
    }
    let fits = magnitude <= min.unsigned_abs();
    match magnitude {
        0 => Some("0".to_owned()),
        _ if fits => Some(format!("-{magnitude}")),
        _ => None,
    }
}

/// An expression without the parentheses or invisible groups (a
/// `macro_rules!` fragment) around it.
fn unwrapped(expr: &syn::Expr) -> &syn::Expr {
    match expr {
        syn::Expr::Paren(inner) => unwrapped(&inner.expr),
        syn::Expr::Group(inner) => unwrapped(&inner.expr),
        other => other,
    }
}

/// A string literal (`default_value = "text"`).
pub(super) fn is_str_literal(expr: &syn::Expr) -> bool {
    matches!(
        unwrapped(expr),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(_),
            ..
        })
    )
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

#[cfg(test)]
mod tests {
    use super::integer_text;
    use crate::model::Int;

    fn text(expr: &str, int: Int) -> Option<String> {
        integer_text(&syn::parse_str(expr).unwrap(), int)
    }

    #[test]
    fn integer_literals_read_as_rust_reads_them() {
        assert_eq!(text("0x10", Int::U32).as_deref(), Some("16"));
        assert_eq!(text("1_000u64", Int::U64).as_deref(), Some("1000"));
        assert_eq!(text("-128", Int::I8).as_deref(), Some("-128"));
        assert_eq!(text("-(5)", Int::I32).as_deref(), Some("-5"));
        assert_eq!(text("-0", Int::I16).as_deref(), Some("0"));
        assert_eq!(text("255", Int::U8).as_deref(), Some("255"));
        // Out of range, or not a literal: left to run time (and the
        // compiler).
        assert_eq!(text("256", Int::U8), None);
        assert_eq!(text("-129", Int::I8), None);
        assert_eq!(text("-1", Int::U8), None);
        assert_eq!(text("i64::MIN", Int::I64), None);
        assert_eq!(text("1 + 1", Int::U32), None);
    }
}
