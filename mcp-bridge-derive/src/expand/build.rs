//! `mcp_build`: the code building the user's value from a call's JSON
//! arguments — one `BuildCtx` call per argument, with its converter, its
//! defaults (and `env`), and the value clap gives a flag used without one.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::arg::{arity_tokens, default_texts, is_str_literal, literal_texts};
use super::convert::{converter, count_converter, value_type_of};
use super::{delimiter_tokens, env_tokens, Private};
use crate::model::{
    Action, Arg, Container, Direct, DirectValue, Field, FieldKind, Missing, Shape, ValueKind,
    Variant, VariantKind,
};

/// The body of a struct's `mcp_build(__ctx)`.
pub(super) fn struct_build(p: &Private, fields: &[Field<'_>]) -> TokenStream {
    let construct = construct_fields(p, fields, quote!(Self));
    quote!(#p::Ok(#construct))
}

/// The body of an enum's `mcp_build(__ctx)`: the variant the call's
/// command selects (by its index, as `mcp_augment_subcommands` numbered
/// them), built.
///
/// A variant with fields is built by a method of its own (`helpers`, in an
/// inherent impl, never inlined): one match of hundreds of arms is a single
/// function the optimiser works on at a cost that grows faster than its
/// size, and the CLI's crate pays that at every release build.
pub(super) fn enum_build(
    p: &Private,
    container: &Container<'_>,
    variants: &[Variant<'_>],
    helpers: &mut Vec<TokenStream>,
) -> TokenStream {
    let type_name = container.ident.to_string();
    let mut arms = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let index = index as u32;
        let vident = variant.ident;
        match &variant.kind {
            VariantKind::NotATool => continue,
            VariantKind::Flatten(ty) | VariantKind::Subcommand(ty) => {
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(#p::tri!(<#ty as #p::McpSubcommand>::mcp_build(__ctx)))),
                });
            }
            VariantKind::Unit => {
                arms.push(quote!(#p::Some(#index) => #p::Ok(Self::#vident),));
            }
            VariantKind::External(item) => {
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(#p::tri!(__ctx.external_words::<#item>()))),
                });
            }
            VariantKind::Named(fields) => {
                let construct = construct_fields(p, fields, quote!(Self::#vident));
                let method = quote::format_ident!("__mcp_build_{}", index);
                helpers.push(quote! {
                    #[inline(never)]
                    fn #method(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                        #p::Ok(#construct)
                    }
                });
                arms.push(quote!(#p::Some(#index) => Self::#method(__ctx),));
            }
            VariantKind::Args(ty) => {
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(#p::tri!(#p::ArgsOf::<#ty>::mcp_build(__ctx)))),
                });
            }
        }
    }
    // The variant's fields are one level down; the fields of the struct
    // that holds this enum, read after it, are back at its level.
    quote! {
        let __built = match __ctx.next_variant() {
            #(#arms)*
            _ => #p::Err(__ctx.bad_route(#type_name)),
        };
        __ctx.left_variant();
        __built
    }
}

/// The properties of a struct's own arguments (not those of structs it
/// flattens): clap's group for the struct, which says whether an
/// `Option<Self>` flattened elsewhere is `Some`.
pub(super) fn struct_given(fields: &[Field<'_>]) -> Vec<TokenStream> {
    fields
        .iter()
        .filter_map(|field| match &field.kind {
            FieldKind::Arg(arg) if !arg.inert() => Some(arg.property_tokens()),
            _ => None,
        })
        .collect()
}

fn construct_fields(p: &Private, fields: &[Field<'_>], path: TokenStream) -> TokenStream {
    let inits = fields.iter().map(|field| {
        let member = &field.member;
        let ty = &field.original.ty;
        let value = match &field.kind {
            FieldKind::Arg(arg) => build_arg(p, arg),
            FieldKind::Flatten {
                inner,
                optional: false,
            } => quote!(#p::tri!(#p::ArgsOf::<#inner>::mcp_build(__ctx))),
            FieldKind::Flatten {
                inner,
                optional: true,
            } => quote! {
                match #p::ArgsOf::<#inner>::mcp_given(__ctx) {
                    true => #p::Some(#p::tri!(#p::ArgsOf::<#inner>::mcp_build(__ctx))),
                    false => #p::None,
                }
            },
            FieldKind::Subcommand {
                inner,
                optional: false,
            } => {
                quote!(#p::tri!(<#inner as #p::McpSubcommand>::mcp_build(__ctx)))
            }
            FieldKind::Subcommand {
                inner,
                optional: true,
            } => {
                quote!(#p::tri!(<#inner as #p::McpSubcommand>::mcp_build_optional(__ctx)))
            }
            FieldKind::Skip(Some(expr)) => quote!(::core::convert::Into::<#ty>::into(#expr)),
            FieldKind::Skip(None) => quote!(<#ty as ::core::default::Default>::default()),
            FieldKind::FromGlobal(arg) => build_from_global(p, arg),
        };
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// The context every `mcp_build` reads its call from, named with the
/// macro's own span: a site spanned by a field of a CLI declared inside
/// `macro_rules!` would otherwise resolve the local in that macro's
/// hygiene, where it does not exist.
fn ctx() -> proc_macro2::Ident {
    proc_macro2::Ident::new("__ctx", proc_macro2::Span::call_site())
}

/// A `from_global` field: the global's property, default and variable
/// come from the tool's spec (the ancestor declares them); the value is
/// converted by the field's own converter, shaped by its type.
fn build_from_global(p: &Private, arg: &Arg) -> TokenStream {
    let id = &arg.id;
    let conv = converter(p, arg);
    let span = arg.span;
    let ctx = ctx();
    match arg.shape {
        Shape::Vec => quote_spanned!(span=> #p::tri!(#ctx.global_many(#id, #conv))),
        Shape::OptionVec => quote_spanned! {span=>
            #p::Some(#p::tri!(#ctx.global_many(#id, #conv))).filter(|__v| !__v.is_empty())
        },
        Shape::Option => quote_spanned!(span=> #p::tri!(#ctx.global_optional(#id, #conv))),
        Shape::OptionOption => {
            quote_spanned!(span=> #p::tri!(#ctx.global_optional(#id, #conv)).map(#p::Some))
        }
        Shape::Bool | Shape::Other => quote_spanned!(span=> #p::tri!(#ctx.global_one(#id, #conv))),
    }
}

/// Defaults behind `env = "NAME"`: the variable, when set, comes first,
/// split on the `value_delimiter` as clap splits it.
fn with_env(p: &Private, arg: &Arg, defaults: TokenStream) -> TokenStream {
    // Defaults that depend on other arguments come before the plain one;
    // the variable before both, as in clap.
    let defaults = match arg.default_ifs.is_empty() {
        true => defaults,
        false => {
            let name = arg.property_tokens();
            quote!(__ctx.conditional_texts(#name, || #defaults))
        }
    };
    let Some(env) = &arg.env else {
        return defaults;
    };
    let name = env_tokens(p, env);
    let delimiter = delimiter_tokens(p, arg.delimiter.as_ref());
    quote!(#p::env_texts(#name, #delimiter, || #defaults))
}

/// What the flag given without a value gets, as clap's
/// `default_missing_value(s)` takes it.
fn missing_texts(p: &Private, arg: &Arg) -> TokenStream {
    match &arg.default_missing {
        Some(Missing::One(expr)) if is_str_literal(expr) => {
            quote!(#p::Some(#p::vec![#p::Cow::Borrowed(#expr)]))
        }
        Some(Missing::One(expr)) => quote!(#p::default_value_of(#expr)),
        Some(Missing::Many(expr)) => quote!(#p::Some(#p::default_values_of(#expr))),
        None => quote!(#p::None),
    }
}

/// A skipped argument built without a converter (so its type needs no
/// JSON conversion: the way out the "cannot be converted from a JSON
/// value" error suggests).
fn build_direct(arg: &Arg, direct: &DirectValue) -> TokenStream {
    let inner = &arg.inner;
    match direct {
        DirectValue::Value { value, some } => {
            let value = match value {
                Direct::Typed(expr) => quote!({ let __v: #inner = #expr; __v }),
                Direct::Default => quote!(<#inner as ::core::default::Default>::default()),
                Direct::Collected(expr) => {
                    quote!(::core::iter::Iterator::collect(::core::iter::IntoIterator::into_iter(#expr)))
                }
            };
            if *some {
                quote!(::core::option::Option::Some(#value))
            } else {
                value
            }
        }
        DirectValue::None => quote!(::core::option::Option::None),
        DirectValue::EmptyVec => quote!(::std::vec::Vec::new()),
        DirectValue::Unit => quote!(()),
    }
}

/// A `Texts` argument: the shared empty one, or a closure.
fn texts_fn(p: &Private, texts: TokenStream, empty: bool) -> TokenStream {
    if empty {
        quote!(&#p::no_texts)
    } else {
        quote!(&|| #texts)
    }
}

fn build_arg(p: &Private, arg: &Arg) -> TokenStream {
    if let Some(direct) = &arg.direct {
        return build_direct(arg, direct);
    }
    let value = build_value(p, arg);
    // An option read from the environment: a bad value names the variable.
    match (&arg.env, arg.action) {
        (Some(env), Action::Set | Action::Append) => {
            let env = env_tokens(p, env);
            quote! {{
                __ctx.reading_env(#p::Some(#env));
                let __value = (|| #p::Ok::<_, #p::ArgError>(#value))();
                __ctx.reading_env(#p::None);
                #p::tri!(__value)
            }}
        }
        _ => value,
    }
}

/// The value of a flag or a count (`SetTrue`, `SetFalse`, `Count`).
fn flag_value(p: &Private, arg: &Arg, defaults: &TokenStream, conv: &TokenStream) -> TokenStream {
    let name = arg.property_tokens();
    let span = arg.span;
    let ctx = ctx();
    match (arg.action, arg.shape, &arg.value) {
        // A flag with a default of its own, or one that follows other
        // arguments (`default_value_if`): absent, the default (after its
        // variable).
        (Action::SetTrue | Action::SetFalse, _, _)
            if arg.default.is_some() || !arg.default_ifs.is_empty() =>
        {
            let sets = arg.action == Action::SetTrue;
            quote_spanned!(span=> #p::tri!(#ctx.flag_default(#name, #sets, #defaults, #conv)))
        }
        (Action::SetTrue | Action::SetFalse, _, _) => {
            let sets = arg.action == Action::SetTrue;
            match &arg.env {
                Some(env) => {
                    let env = env_tokens(p, env);
                    quote_spanned!(span=> #p::tri!(#ctx.flag_env(#name, #sets, #env, #conv)))
                }
                None => quote!(#p::tri!(#ctx.flag(#name, #sets))),
            }
        }
        (Action::Count, _, _) if arg.default.is_some() || !arg.default_ifs.is_empty() => {
            let conv = count_converter(p, arg);
            quote_spanned! {span=>
                ::core::convert::From::from(#p::tri!(#ctx.count_default(#name, #defaults, #conv)))
            }
        }
        (Action::Count, _, _) => match arg.env.as_ref().map(|env| env_tokens(p, env)) {
            Some(env) => {
                let conv = count_converter(p, arg);
                quote_spanned! {span=>
                    ::core::convert::From::from(#p::tri!(#ctx.count_env(#name, #env, #conv)))
                }
            }
            None if matches!(arg.value, ValueKind::Range { .. }) => {
                let conv = count_converter(p, arg);
                quote!(::core::convert::From::from(#p::tri!(#ctx.count_in(#name, &#conv))))
            }
            None => quote!(::core::convert::From::from(#p::tri!(#ctx.count(#name)))),
        },
        _ => unreachable!("only flags and counts"),
    }
}

fn build_value(p: &Private, arg: &Arg) -> TokenStream {
    let name = arg.property_tokens();
    let conv = converter(p, arg);
    let plain = arg.env.is_none() && arg.default_ifs.is_empty();
    let defaults = match literal_texts(arg).filter(|_| plain) {
        // Static data: no closure (and no code) of its own per argument.
        Some(texts) => quote!(&#p::LiteralTexts(&#texts)),
        None => texts_fn(
            p,
            with_env(p, arg, default_texts(p, arg)),
            plain && !arg.default.is_some(),
        ),
    };
    let missing = texts_fn(p, missing_texts(p, arg), arg.default_missing.is_none());
    let nullable = arg.value_optional;
    let span = arg.span;
    let ctx = ctx();
    let min = if arg.required && arg.multiple() {
        quote!(#p::Some(1))
    } else {
        quote!(#p::None)
    };
    let delimiter = delimiter_tokens(p, arg.delimiter.as_ref());
    let arity = arity_tokens(p, arg);
    // A flag or count always has a value (its default): in an `Option` or
    // a `Vec` field, clap gives `Some(value)` or `vec![value]`.
    if matches!(
        arg.action,
        Action::SetTrue | Action::SetFalse | Action::Count
    ) {
        let value = flag_value(p, arg, &defaults, &conv);
        return match arg.shape {
            Shape::Option => quote!(#p::Some(#value)),
            Shape::Vec => quote!(#p::vec![#value]),
            Shape::OptionVec => quote!(#p::Some(#p::vec![#value])),
            Shape::OptionOption => quote!(#p::Some(#p::Some(#value))),
            Shape::Bool | Shape::Other => value,
        };
    }
    match (arg.action, arg.shape, &arg.value) {
        (Action::Info | Action::SetTrue | Action::SetFalse | Action::Count, _, _) => {
            unreachable!("help and version flags are built directly; flags and counts above")
        }
        (
            _,
            Shape::Vec,
            ValueKind::KeyValue {
                value,
                value_builtin,
                ..
            },
        ) => {
            let values = value_type_of(p, *value_builtin, value);
            quote_spanned!(span=> #p::tri!(#ctx.pairs(#name, #defaults, #p::convert::KeyValue::new(#conv, #values))))
        }
        (_, Shape::Option, ValueKind::Map { .. }) => {
            quote_spanned!(span=> #p::tri!(#ctx.optional_map(#name, #conv)))
        }
        (_, _, ValueKind::Map { .. }) => {
            let required = arg.required;
            quote_spanned!(span=> #p::tri!(#ctx.map(#name, #required, #conv)))
        }
        (_, Shape::Vec, _) => {
            quote_spanned!(span=> #p::tri!(#ctx.many(#name, #defaults, #min, #delimiter, #arity, #conv)))
        }
        (_, Shape::OptionVec, _) => {
            quote_spanned!(span=> #p::tri!(#ctx.optional_many(#name, #defaults, #min, #delimiter, #arity, #conv)))
        }
        // clap refuses a missing `Option<T>` marked `required = true`
        // (unless a conflicting argument is given).
        (_, Shape::Option, _) if arg.required && !arg.default.is_some() => {
            quote_spanned!(span=> #p::tri!(#ctx.required_optional(#name, #defaults, #missing, #conv)))
        }
        (_, Shape::Option, _) if nullable => {
            quote_spanned!(span=> #p::tri!(#ctx.optional(#name, #defaults, #p::Some(#missing), #conv)))
        }
        (_, Shape::Option, _) => {
            quote_spanned!(span=> #p::tri!(#ctx.optional(#name, #defaults, #p::None, #conv)))
        }
        (_, Shape::OptionOption, _) if arg.required => {
            quote_spanned!(span=> #p::Some(#p::tri!(#p::tri!(#ctx.optional_value(#name, #missing, #conv)).ok_or_else(|| #ctx.missing_property(#name)))))
        }
        (_, Shape::OptionOption, _) => {
            quote_spanned!(span=> #p::tri!(#ctx.optional_value(#name, #missing, #conv)))
        }
        (_, Shape::Bool | Shape::Other, _) => {
            quote_spanned!(span=> #p::tri!(#ctx.one(#name, #defaults, #missing, #conv)))
        }
    }
}
