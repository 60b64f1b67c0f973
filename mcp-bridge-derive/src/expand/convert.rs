//! The converter of one value: the runtime type turning a JSON value into
//! the argument's value type, and the JSON type it accepts.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::Type;

use super::Private;
use crate::model::{Arg, Builtin, ValueKind};
use crate::parse::lit::path_ends_with;

/// The converter expression for one value of `arg`.
pub(super) fn converter(p: &Private, arg: &Arg) -> TokenStream {
    let inner = &arg.inner;
    let ignore_case = &arg.ignore_case;
    match &arg.value {
        ValueKind::Builtin(builtin) => builtin_converter(p, *builtin, inner),
        ValueKind::Enum => quote!(#p::convert::Enum::<#inner>::new(#ignore_case)),
        ValueKind::OneOf(values) => {
            quote!(#p::convert::OneOf::<#inner>::new(&[#(#values),*], #ignore_case))
        }
        ValueKind::Range { min, max } => ranged_integer(p, &quote!(#inner), *min, *max),
        ValueKind::Parser(parser) => {
            // The JSON type follows the field's type only where clap's own
            // typed parser reads the text (`value_parser!(u16).range(1..N)`,
            // `BoolishValueParser`): a function or type of the CLI's reads
            // text of its own notation (`"1MB"` for a `u64`), given as the
            // string a command line gives it. The duration notation is
            // promised only for the parser it describes.
            let value_type = match arg.inner_builtin {
                Some(Builtin::Duration) if is_humantime(parser) => {
                    quote!(#p::value_types::duration())
                }
                builtin if is_clap_typed_parser(parser) => value_type_of(p, builtin, inner),
                _ => quote!(#p::ValueType::string()),
            };
            quote_spanned! {parser.span()=>
                {
                    #[allow(unused_imports)]
                    use #p::convert::auto::{ViaErasedParser as _, ViaTypedParser as _};
                    (&&#p::convert::auto::ParserProbe::<#inner, _>::new(#parser)).parser_converter(#value_type, #ignore_case)
                }
            }
        }
        ValueKind::KeyValue { parser, .. } => {
            quote_spanned!(parser.span()=> #p::convert::ClapParser::new(#parser, #p::ValueType::string()))
        }
        ValueKind::Map {
            value,
            value_builtin,
        } => match value_builtin {
            Some(builtin) => builtin_converter(p, *builtin, value),
            None => auto_converter(p, value, &quote!(false)),
        },
        ValueKind::Auto => auto_converter(p, inner, ignore_case),
        ValueKind::Json => {
            quote_spanned!(inner.span()=> #p::convert::Json::<#inner>::new())
        }
    }
}

/// The converter a counted flag's count goes through: clap runs it
/// through the argument's value parser, `u8`'s unless a literal range
/// narrows it (`value_parser!(u8).range(0..3)`).
pub(super) fn count_converter(p: &Private, arg: &Arg) -> TokenStream {
    match &arg.value {
        ValueKind::Range { min, max } => ranged_integer(p, &quote!(u8), *min, *max),
        _ => quote!(#p::convert::Integer::<u8>::new()),
    }
}

/// The converter of integers of type `ty` within literal bounds.
fn ranged_integer(
    p: &Private,
    ty: &TokenStream,
    min: Option<i128>,
    max: Option<i128>,
) -> TokenStream {
    let bound = |b: Option<i128>| match b {
        Some(n) => quote!(#p::Some(#n)),
        None => quote!(#p::None),
    };
    let (min, max) = (bound(min), bound(max));
    quote!(#p::convert::Integer::<#ty>::new().range(#min, #max))
}

fn builtin_converter(p: &Private, builtin: Builtin, ty: &Type) -> TokenStream {
    match builtin {
        Builtin::String | Builtin::OsString => quote!(#p::convert::Text::<#ty>::new()),
        Builtin::PathBuf => quote!(#p::convert::Path),
        Builtin::Char => quote!(#p::convert::Char),
        Builtin::Bool => quote!(#p::convert::Bool),
        Builtin::Integer(_) => quote!(#p::convert::Integer::<#ty>::new()),
        Builtin::Float => quote!(#p::convert::Float::<#ty>::new()),
        Builtin::IpAddr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ip_addr())),
        Builtin::Ipv4Addr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ipv4())),
        Builtin::Ipv6Addr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ipv6())),
        Builtin::SocketAddr => {
            quote!(#p::convert::Parse::<#ty>::new(#p::value_types::socket_addr()))
        }
        Builtin::Duration => auto_converter(p, ty, &quote!(false)),
    }
}

/// A value's JSON type when a custom parser converts it: by the field
/// type, `ty` (recognised as `builtin`).
pub(super) fn value_type_of(p: &Private, builtin: Option<Builtin>, ty: &Type) -> TokenStream {
    match builtin {
        Some(Builtin::Integer(_)) => quote!(#p::value_types::integer::<#ty>()),
        Some(Builtin::Float) => quote!(#p::ValueType::Number),
        Some(Builtin::Bool) => quote!(#p::ValueType::Boolean),
        Some(Builtin::Duration) => quote!(#p::value_types::duration()),
        Some(Builtin::IpAddr) => quote!(#p::value_types::ip_addr()),
        Some(Builtin::Ipv4Addr) => quote!(#p::value_types::ipv4()),
        Some(Builtin::Ipv6Addr) => quote!(#p::value_types::ipv6()),
        Some(Builtin::SocketAddr) => quote!(#p::value_types::socket_addr()),
        Some(Builtin::Char) => quote!(#p::value_types::single_char()),
        _ => quote!(#p::ValueType::string()),
    }
}

/// A parser of clap's own that reads the field's type as clap reads it:
/// `value_parser!(T)` with any builder steps after it (`.range(..)`,
/// `.map(..)`), or one of clap's typed parsers (`RangedI64ValueParser`,
/// `BoolishValueParser`...), by the last segments of its path.
fn is_clap_typed_parser(parser: &syn::Expr) -> bool {
    const TYPED: &[&str] = &[
        "RangedI64ValueParser",
        "RangedU64ValueParser",
        "BoolValueParser",
        "BoolishValueParser",
        "FalseyValueParser",
    ];
    match parser {
        syn::Expr::Macro(mac) => mac
            .mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "value_parser"),
        syn::Expr::MethodCall(call) => is_clap_typed_parser(&call.receiver),
        syn::Expr::Paren(inner) => is_clap_typed_parser(&inner.expr),
        syn::Expr::Call(call) => is_clap_typed_parser(&call.func),
        syn::Expr::Path(path) => path
            .path
            .segments
            .iter()
            .any(|s| TYPED.iter().any(|t| s.ident == t)),
        _ => false,
    }
}

/// `humantime::parse_duration` (any path ending so): the parser whose
/// notation `value_types::duration` describes.
fn is_humantime(parser: &syn::Expr) -> bool {
    path_ends_with(parser, &["humantime", "parse_duration"])
}

/// A converter chosen by trait resolution, in clap's order, handed the
/// argument's `ignore_case` (which the parser clap picks reads).
fn auto_converter(p: &Private, ty: &Type, ignore_case: &dyn quote::ToTokens) -> TokenStream {
    quote_spanned! {ty.span()=>
        {
            #[allow(unused_imports)]
            use #p::convert::auto::{
                ViaFactory as _, ViaFromOsStr as _, ViaFromOsString as _, ViaFromStr as _,
                ViaFromStrRef as _, ViaFromString as _, ViaNothing as _, ViaValueEnum as _,
            };
            (&&&&&&&#p::convert::auto::Probe::<#ty>(#p::PhantomData)).converter(#ignore_case)
        }
    }
}
