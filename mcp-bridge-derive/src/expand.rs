//! Code generation: spec builders and typed constructors, inside
//! `const _: () = { ... };` and reaching the runtime only through
//! `::mcp_bridge::__private`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Type;

use crate::model::{
    Action, Arg, Builtin, Container, DefaultValue, Field, FieldKind, Input, Layer, Shape,
    ValueKind, Variant, VariantKind,
};
use crate::relations;

pub(crate) fn expand(input: &Input<'_>) -> TokenStream {
    let body = match input {
        Input::Struct(container, fields) => expand_struct(container, fields),
        Input::Enum(container, variants) => expand_enum(container, variants),
    };
    quote! {
        #[doc(hidden)]
        #[allow(
            non_upper_case_globals,
            unused_qualifications,
            unused_variables,
            clippy::all,
            clippy::pedantic,
            clippy::nursery,
        )]
        const _: () = {
            #body
        };
    }
}

fn private() -> TokenStream {
    quote!(::mcp_bridge::__private)
}

fn expand_struct(container: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let p = private();
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let mut augment = augment_fields(fields, quote!(__cmd));
    // clap leaves a struct's own group empty when it flattens others.
    let has_flatten = fields
        .iter()
        .any(|f| matches!(f.kind, FieldKind::Flatten(_)));
    augment.extend(relations::group_specs(
        &quote!(__cmd),
        &container
            .group
            .iter()
            .chain(&container.builder_groups)
            .collect::<Vec<_>>(),
        &arg_groups(fields),
        !has_flatten,
    ));
    let layer = layer_tokens(&container.layer);
    let construct = construct_fields(fields, quote!(Self));
    let root_name = match &container.name {
        Some(name) => quote!(#name),
        None => quote!(::core::env!("CARGO_PKG_NAME")),
    };
    let tree = crate::const_tree::for_struct(container, fields);
    let (tree_node, tree_check) = (tree.node, tree.check);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::McpArgs for #ident #ty_generics #where_clause {
            #tree_node

            fn mcp_augment(__cmd: &mut #p::CommandSpec) {
                #augment
                __cmd.apply(&#layer);
            }

            fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                #p::Ok(#construct)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::McpRoot for #ident #ty_generics #where_clause {
            fn mcp_root_name() -> &'static str {
                #root_name
            }
        }

        #tree_check
    }
}

fn expand_enum(container: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let layer = layer_tokens(&container.layer);
    let type_name = ident.to_string();

    let mut augments = Vec::new();
    let mut arms = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let index = index as u32;
        let vident = variant.ident;
        let name = &variant.name;
        let vlayer = layer_tokens(&variant.layer);
        match &variant.kind {
            VariantKind::NotATool => continue,
            VariantKind::Flatten(ty) => {
                augments.push(quote! {{
                    let __start = __cmd.subcommands.len();
                    <#ty as #p::McpSubcommand>::mcp_augment_subcommands(__cmd);
                    for __sub in &mut __cmd.subcommands[__start..] {
                        __sub.selector.insert(0, #index);
                    }
                }});
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(<#ty as #p::McpSubcommand>::mcp_build(__ctx)?)),
                });
                continue;
            }
            VariantKind::Unit => {
                augments.push(subcommand_node(name, index, TokenStream::new(), &vlayer));
                arms.push(quote!(#p::Some(#index) => #p::Ok(Self::#vident),));
            }
            VariantKind::Named(fields) => {
                let mut augment = augment_fields(fields, quote!((&mut __sub)));
                augment.extend(relations::group_specs(
                    &quote!(__sub),
                    &[],
                    &arg_groups(fields),
                    false,
                ));
                augments.push(subcommand_node(name, index, augment, &vlayer));
                let construct = construct_fields(fields, quote!(Self::#vident));
                arms.push(quote!(#p::Some(#index) => #p::Ok(#construct),));
            }
            VariantKind::Args(ty) => {
                let augment = quote!(<#ty as #p::McpArgs>::mcp_augment(&mut __sub););
                augments.push(subcommand_node(name, index, augment, &vlayer));
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(<#ty as #p::McpArgs>::mcp_build(__ctx)?)),
                });
            }
            VariantKind::Subcommand(ty) => {
                let augment = quote! {
                    __sub.subcommand_required = true;
                    <#ty as #p::McpSubcommand>::mcp_augment_subcommands(&mut __sub);
                };
                augments.push(subcommand_node(name, index, augment, &vlayer));
                arms.push(quote! {
                    #p::Some(#index) => #p::Ok(Self::#vident(<#ty as #p::McpSubcommand>::mcp_build(__ctx)?)),
                });
            }
        }
    }

    let tree = crate::const_tree::for_enum(container, variants);
    let (tree_node, tree_check) = (tree.node, tree.check);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::McpSubcommand for #ident #ty_generics #where_clause {
            #tree_node

            fn mcp_augment_subcommands(__cmd: &mut #p::CommandSpec) {
                #(#augments)*
                __cmd.apply(&#layer);
            }

            fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                match __ctx.next_variant() {
                    #(#arms)*
                    _ => #p::Err(__ctx.bad_route(#type_name)),
                }
            }
        }

        #tree_check
    }
}

/// The ids of a struct's arguments with the groups each names.
fn arg_groups(fields: &[Field<'_>]) -> Vec<(String, Vec<String>)> {
    fields
        .iter()
        .filter_map(|field| match &field.kind {
            FieldKind::Arg(arg) => Some((arg.id.clone(), arg.relations.groups.clone())),
            _ => None,
        })
        .collect()
}

fn subcommand_node(
    name: &str,
    index: u32,
    augment: TokenStream,
    layer: &TokenStream,
) -> TokenStream {
    let p = private();
    quote! {{
        let mut __sub = #p::CommandSpec::new(#name);
        __sub.selector.push(#index);
        #augment
        __sub.apply(&#layer);
        __cmd.subcommands.push(__sub);
    }}
}

fn layer_tokens(layer: &Layer) -> TokenStream {
    let p = private();
    let opt_opt = |value: &Option<Option<TokenStream>>| match value {
        None => quote!(#p::None),
        Some(None) => quote!(#p::Some(#p::None)),
        Some(Some(text)) => quote!(#p::Some(#p::Some(#text))),
    };
    let about = opt_opt(&layer.about);
    let long_about = opt_opt(&layer.long_about);
    let hide = match layer.hide {
        Some(hide) => quote!(#p::Some(#hide)),
        None => quote!(#p::None),
    };
    let version = match &layer.version {
        Some(version) => quote!(#p::Some(#version)),
        None => quote!(#p::None),
    };
    let opt_str = |value: Option<&String>| match value {
        Some(s) => quote!(#p::Some(#s)),
        None => quote!(#p::None),
    };
    let mcp_name = opt_str(layer.mcp.name.as_ref().map(|s| &s.value));
    let mcp_description = opt_str(layer.mcp.description.as_ref().map(|s| &s.value));
    let mcp_skip = layer.mcp.skip.is_some();
    quote! {
        #p::CommandLayer {
            about: #about,
            long_about: #long_about,
            hide: #hide,
            version: #version,
            mcp_name: #mcp_name,
            mcp_description: #mcp_description,
            mcp_skip: #mcp_skip,
        }
    }
}

fn augment_fields(fields: &[Field<'_>], cmd: TokenStream) -> TokenStream {
    let p = private();
    let parts = fields.iter().map(|field| match &field.kind {
        FieldKind::Arg(arg) => {
            let spec = param_spec(arg);
            quote!(#cmd.params.push(#spec);)
        }
        FieldKind::Flatten(ty) => quote!(<#ty as #p::McpArgs>::mcp_augment(&mut *#cmd);),
        FieldKind::Subcommand { inner, optional } => {
            let required = !optional;
            quote! {
                #cmd.subcommand_required = #required;
                <#inner as #p::McpSubcommand>::mcp_augment_subcommands(&mut *#cmd);
            }
        }
        FieldKind::Skip(_) => TokenStream::new(),
    });
    quote!(#(#parts)*)
}

fn construct_fields(fields: &[Field<'_>], path: TokenStream) -> TokenStream {
    let p = private();
    let inits = fields.iter().map(|field| {
        let member = &field.member;
        let ty = &field.original.ty;
        let value = match &field.kind {
            FieldKind::Arg(arg) => build_arg(arg),
            FieldKind::Flatten(ty) => quote!(<#ty as #p::McpArgs>::mcp_build(__ctx)?),
            FieldKind::Subcommand {
                inner,
                optional: false,
            } => {
                quote!(<#inner as #p::McpSubcommand>::mcp_build(__ctx)?)
            }
            FieldKind::Subcommand {
                inner,
                optional: true,
            } => {
                quote!(<#inner as #p::McpSubcommand>::mcp_build_optional(__ctx)?)
            }
            FieldKind::Skip(Some(expr)) => quote!(::core::convert::Into::<#ty>::into(#expr)),
            FieldKind::Skip(None) => quote!(<#ty as ::core::default::Default>::default()),
        };
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// The converter expression for one value of `arg`.
fn converter(arg: &Arg) -> TokenStream {
    let p = private();
    let inner = &arg.inner;
    let ignore_case = arg.ignore_case;
    match &arg.value {
        ValueKind::Builtin(builtin) => builtin_converter(*builtin, inner),
        ValueKind::Enum => quote!(#p::convert::Enum::<#inner>::new(#ignore_case)),
        ValueKind::OneOf(values) => {
            quote!(#p::convert::OneOf::<#inner>::new(&[#(#values),*], #ignore_case))
        }
        ValueKind::Range { min, max } => {
            let bound = |b: &Option<i128>| match b {
                Some(n) => quote!(#p::Some(#n)),
                None => quote!(#p::None),
            };
            let (min, max) = (bound(min), bound(max));
            quote!(#p::convert::Integer::<#inner>::new().range(#min, #max))
        }
        ValueKind::Parser(parser) => {
            let value_type = value_type_of(inner);
            quote_spanned!(parser_span(parser)=> #p::convert::ClapParser::new(#parser, #value_type))
        }
        ValueKind::KeyValue { parser, .. } => {
            quote_spanned!(parser_span(parser)=> #p::convert::ClapParser::new(#parser, #p::ValueType::string()))
        }
        ValueKind::Map { value } => match Builtin::of(value) {
            Some(builtin) => builtin_converter(builtin, value),
            None => auto_converter(value),
        },
        ValueKind::Auto => auto_converter(inner),
    }
}

fn parser_span(parser: &syn::Expr) -> proc_macro2::Span {
    syn::spanned::Spanned::span(parser)
}

fn builtin_converter(builtin: Builtin, ty: &Type) -> TokenStream {
    let p = private();
    match builtin {
        Builtin::String | Builtin::OsString => quote!(#p::convert::Text::<#ty>::new()),
        Builtin::PathBuf => quote!(#p::convert::Path),
        Builtin::Char => quote!(#p::convert::Char),
        Builtin::Bool => quote!(#p::convert::Bool),
        Builtin::Integer => quote!(#p::convert::Integer::<#ty>::new()),
        Builtin::Float => quote!(#p::convert::Float::<#ty>::new()),
        Builtin::IpAddr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ip_addr())),
        Builtin::Ipv4Addr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ipv4())),
        Builtin::Ipv6Addr => quote!(#p::convert::Parse::<#ty>::new(#p::value_types::ipv6())),
        Builtin::SocketAddr => {
            quote!(#p::convert::Parse::<#ty>::new(#p::value_types::socket_addr()))
        }
        Builtin::Duration => auto_converter(ty),
    }
}

/// A value's JSON type when a custom parser converts it: by the field type.
fn value_type_of(ty: &Type) -> TokenStream {
    let p = private();
    match Builtin::of(ty) {
        Some(Builtin::Integer) => quote!(#p::value_types::integer::<#ty>()),
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

fn auto_converter(ty: &Type) -> TokenStream {
    let p = private();
    quote_spanned! {syn::spanned::Spanned::span(ty)=>
        {
            #[allow(unused_imports)]
            use #p::convert::auto::{ViaFactory as _, ViaFromStr as _, ViaFromString as _, ViaNothing as _, ViaValueEnum as _};
            (&&&&#p::convert::auto::Probe::<#ty>(#p::PhantomData)).converter()
        }
    }
}

/// The lazily evaluated default texts, as clap would store them.
fn default_texts(arg: &Arg) -> TokenStream {
    let p = private();
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

/// Defaults behind `env = "NAME"`: the variable, when set, comes first,
/// split on the `value_delimiter` as clap splits it.
fn with_env(arg: &Arg, defaults: TokenStream) -> TokenStream {
    let p = private();
    let Some(name) = &arg.env else {
        return defaults;
    };
    let texts = match arg.delimiter {
        Some(delimiter) => quote! {
            __value.split(#delimiter).map(|__s| #p::Cow::Owned(#p::ToString::to_string(__s))).collect()
        },
        None => quote!(#p::vec![#p::Cow::Owned(__value)]),
    };
    quote! {
        match ::std::env::var(#name) {
            #p::Ok(__value) => #p::Some(#texts),
            #p::Err(_) => #defaults,
        }
    }
}

fn missing_texts(arg: &Arg) -> TokenStream {
    let p = private();
    match &arg.default_missing {
        Some(expr) => quote!(#p::Some(#p::vec![#p::Cow::Borrowed(#expr)])),
        None => quote!(#p::None),
    }
}

fn param_spec(arg: &Arg) -> TokenStream {
    let p = private();
    let id = &arg.id;
    let value_type = match (arg.action, &arg.value) {
        // Hidden, and its type may have no JSON conversion at all.
        _ if crate::skipped::bypasses_conversion(arg) => quote!(#p::ValueType::string()),
        (Action::SetTrue | Action::SetFalse, _) => quote!(#p::ValueType::Boolean),
        (Action::Count, _) => quote!(#p::value_types::integer::<u8>()),
        (_, ValueKind::KeyValue { value, .. }) => {
            let values = value_type_of(value);
            quote!(#p::ValueType::Map { values: #p::Box::new(#values) })
        }
        (_, ValueKind::Map { .. }) => {
            let conv = converter(arg);
            quote!(#p::ValueType::Map { values: #p::Box::new(#p::Converter::value_type(&#conv)) })
        }
        _ => {
            let conv = converter(arg);
            quote!(#p::Converter::value_type(&#conv))
        }
    };
    let base = if arg.positional {
        quote!(#p::ParamSpec::positional(#id, #value_type))
    } else {
        let long = match &arg.long {
            Some(long) => quote!(#p::Some(#long)),
            None => quote!(#p::None),
        };
        let short = match arg.short {
            Some(c) => quote!(#p::Some(#c)),
            None => quote!(#p::None),
        };
        quote!(#p::ParamSpec::flag(#id, #long, #short, #value_type))
    };
    let multiple = if arg.multiple() {
        let min = if arg.required {
            quote!(#p::Some(1))
        } else {
            quote!(#p::None)
        };
        quote!(.multiple(#min))
    } else {
        TokenStream::new()
    };
    let required = arg.required
        && !arg.default.is_some()
        && !arg.relations.is_conditional()
        && !matches!(
            arg.action,
            Action::SetTrue | Action::SetFalse | Action::Count
        );
    let action = match arg.action {
        Action::Set => quote!(#p::ParamAction::Set),
        Action::Append => quote!(#p::ParamAction::Append),
        Action::SetTrue => quote!(#p::ParamAction::SetTrue),
        Action::SetFalse => quote!(#p::ParamAction::SetFalse),
        Action::Count => quote!(#p::ParamAction::Count),
    };
    let relations = relation_tokens(&arg.relations);
    let env = match &arg.env {
        Some(name) => quote!(#p::Some(#name)),
        None => quote!(#p::None),
    };
    let nullable = arg.value_optional || arg.shape == Shape::OptionOption;
    let arity = if arg.multiple() {
        let tokens = arity_tokens(arg);
        quote!(.arity(#tokens))
    } else {
        TokenStream::new()
    };
    let defaults = match arg.action {
        Action::SetTrue | Action::SetFalse => quote!(.default_text(["false"])),
        Action::Count => quote!(.default_text(["0"])),
        _ => {
            let texts = default_texts(arg);
            quote!(.default_text({ let __texts: #p::DefaultTexts = #texts; __texts.unwrap_or_default() }))
        }
    };
    let description = match (&arg.mcp.description, &arg.long_help, &arg.help) {
        (Some(text), _, _) => {
            let text = &text.value;
            quote!(#p::Some(#text))
        }
        (None, Some(long), _) => quote!(#p::Some(#long)),
        (None, None, Some(short)) => quote!(#p::Some(#short)),
        (None, None, None) => quote!(#p::None),
    };
    let global = arg.global;
    let hidden = arg.hide || arg.mcp.skip.is_some();
    let rename = match &arg.mcp.name {
        Some(name) => {
            let name = &name.value;
            quote!(#p::Some(#name))
        }
        None => quote!(#p::None),
    };
    quote! {
        #base
            #multiple
            .required(#required)
            #defaults
            .description(#description)
            .global(#global)
            .hidden(#hidden)
            .rename(#rename)
            .action(#action)
            .relations(#relations)
            .env(#env)
            .nullable(#nullable)
            #arity
    }
}

/// Values per use of a list argument, and whether it may be repeated:
/// clap's `num_args`, or the defaults its derive gives (`1..` for a
/// positional list, one value per use of an `Append` flag).
fn arity(arg: &Arg) -> (u32, Option<u32>, bool) {
    let repeatable = arg.action == Action::Append && !arg.positional;
    let (min, max) = arg.num_args.unwrap_or(if arg.positional {
        (1, None)
    } else {
        (1, Some(1))
    });
    (min, max, repeatable)
}

fn arity_tokens(arg: &Arg) -> TokenStream {
    let p = private();
    let (min, max, repeatable) = arity(arg);
    let max = match max {
        Some(max) => quote!(#p::Some(#max)),
        None => quote!(#p::None),
    };
    quote!(#p::Arity { min: #min, max: #max, repeatable: #repeatable })
}

fn relation_tokens(relations: &relations::ArgRelations) -> TokenStream {
    let p = private();
    let list = |ids: &[String]| quote!(#p::vec![#(#p::ToString::to_string(#ids)),*]);
    let conflicts = list(&relations.conflicts_with);
    let requires = list(&relations.requires);
    let unless_any = list(&relations.required_unless_any);
    let unless_all = list(&relations.required_unless_all);
    let if_eq = relations
        .required_if_eq
        .iter()
        .map(|(a, b)| quote!((#p::ToString::to_string(#a), #p::ToString::to_string(#b))));
    let exclusive = relations.exclusive;
    quote! {
        #p::ParamRelations {
            conflicts_with: #conflicts,
            requires: #requires,
            required_unless_any: #unless_any,
            required_unless_all: #unless_all,
            required_if_eq: #p::vec![#(#if_eq),*],
            exclusive: #exclusive,
        }
    }
}

fn build_arg(arg: &Arg) -> TokenStream {
    if let Some(value) = crate::skipped::build(arg) {
        return value;
    }
    let p = private();
    let name = arg.property();
    let conv = converter(arg);
    let defaults = with_env(arg, default_texts(arg));
    let missing = missing_texts(arg);
    let nullable = arg.value_optional;
    let span = arg.span;
    let min = if arg.required && arg.multiple() {
        quote!(#p::Some(1))
    } else {
        quote!(#p::None)
    };
    let delimiter = match arg.delimiter {
        Some(c) => quote!(#p::Some(#c)),
        None => quote!(#p::None),
    };
    let arity = arity_tokens(arg);
    match (arg.action, arg.shape, &arg.value) {
        (Action::SetTrue, _, _) => quote!(__ctx.flag(#name, true)?),
        (Action::SetFalse, _, _) => quote!(__ctx.flag(#name, false)?),
        (Action::Count, _, _) => quote!(::core::convert::From::from(__ctx.count(#name)?)),
        (_, Shape::Vec, ValueKind::KeyValue { value, .. }) => {
            let values = value_type_of(value);
            quote_spanned!(span=> __ctx.pairs(#name, || #defaults, #p::convert::KeyValue::new(#conv, #values))?)
        }
        (_, Shape::Option, ValueKind::Map { .. }) => {
            quote_spanned!(span=> __ctx.optional_map(#name, #conv)?)
        }
        (_, _, ValueKind::Map { .. }) => {
            let required = arg.required;
            quote_spanned!(span=> __ctx.map(#name, #required, #conv)?)
        }
        (_, Shape::Vec, _) => {
            quote_spanned!(span=> __ctx.many(#name, || #defaults, #min, #delimiter, #arity, #conv)?)
        }
        (_, Shape::OptionVec, _) => {
            quote_spanned!(span=> __ctx.optional_many(#name, || #defaults, #min, #delimiter, #arity, #conv)?)
        }
        // clap refuses a missing `Option<T>` marked `required = true`.
        (_, Shape::Option, _) if arg.required && !arg.default.is_some() => {
            quote_spanned!(span=> #p::Some(__ctx.one(#name, || #defaults, || #missing, #conv)?))
        }
        (_, Shape::Option, _) if nullable => {
            quote_spanned!(span=> __ctx.optional(#name, || #defaults, #p::Some(&|| #missing), #conv)?)
        }
        (_, Shape::Option, _) => {
            quote_spanned!(span=> __ctx.optional(#name, || #defaults, #p::None, #conv)?)
        }
        (_, Shape::OptionOption, _) if arg.required => {
            quote_spanned!(span=> #p::Some(__ctx.optional_value(#name, || #missing, #conv)?.ok_or_else(|| __ctx.missing_property(#name))?))
        }
        (_, Shape::OptionOption, _) => {
            quote_spanned!(span=> __ctx.optional_value(#name, || #missing, #conv)?)
        }
        (_, Shape::Bool | Shape::Other, _) => {
            quote_spanned!(span=> __ctx.one(#name, || #defaults, || #missing, #conv)?)
        }
    }
}

/// Stub impls emitted next to compile errors, so the user sees the errors
/// and not a cascade of "trait not implemented".
pub(crate) fn fallback(input: &syn::DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let body = match &input.data {
        syn::Data::Enum(_) => quote! {
            impl #impl_generics #p::McpSubcommand for #ident #ty_generics #where_clause {
                fn mcp_augment_subcommands(_: &mut #p::CommandSpec) {}
                fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                    #p::Err(__ctx.bad_route("?"))
                }
            }
        },
        _ => quote! {
            impl #impl_generics #p::McpArgs for #ident #ty_generics #where_clause {
                fn mcp_augment(_: &mut #p::CommandSpec) {}
                fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                    #p::Err(__ctx.bad_route("?"))
                }
            }
            impl #impl_generics #p::McpRoot for #ident #ty_generics #where_clause {
                fn mcp_root_name() -> &'static str { "" }
            }
        },
    };
    quote! {
        #[doc(hidden)]
        const _: () = { #body };
    }
}
