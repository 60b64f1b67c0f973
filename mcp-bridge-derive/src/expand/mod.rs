//! Code generation: the trait impls, inside `const _: () = { ... };` and
//! reaching the runtime only through its `__private` module ([`Private`]).
//!
//! `spec` writes `mcp_augment` (what the command looks like), `build`
//! writes `mcp_build` (the typed value from JSON arguments), `convert`
//! picks the converter of one value, `tree` the compile-time tree checks,
//! and `fallback` the stubs emitted next to errors.

mod arg;
mod build;
mod convert;
mod fallback;
mod spec;
mod tree;

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};

use crate::model::{
    BoolValue, CharValue, Container, EnvName, Field, FieldKind, Input, Variant, VariantKind,
};

pub(crate) use self::fallback::fallback;

/// The path of the runtime's hidden module, through which all generated
/// code reaches the runtime: `::mcp_bridge::__private`, or
/// `<path>::__private` under `#[mcp(crate = "path")]`. This is the one
/// place the runtime crate is named.
pub(crate) struct Private(TokenStream);

impl Private {
    pub(crate) fn new(krate: Option<&syn::Path>) -> Self {
        Private(match krate {
            Some(krate) => quote!(#krate::__private),
            None => quote!(::mcp_bridge::__private),
        })
    }

    /// The path with every token spanned at `span`, for a call whose
    /// error must point at the user's tokens (an interpolated path keeps
    /// its own span, and the error would point there).
    pub(crate) fn spanned(&self, span: Span) -> TokenStream {
        respan(self.0.clone(), span)
    }
}

impl ToTokens for Private {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.0.clone());
    }
}

/// A boolean key as a `bool` expression: the literal, or the user's
/// expression (evaluated in a constant for the tree check, at run time for
/// the spec).
impl ToTokens for BoolValue {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            BoolValue::Lit(value) => value.to_tokens(tokens),
            BoolValue::Expr(expr) => tokens.extend(quote!((#expr))),
        }
    }
}

/// `value_delimiter` as an `Option<char>` expression; the user's
/// expression goes through clap's `IntoResettable<char>`, as clap takes it.
pub(crate) fn delimiter_tokens(p: &Private, delimiter: Option<&CharValue>) -> TokenStream {
    match delimiter {
        None => quote!(#p::None),
        Some(CharValue::Lit(c)) => quote!(#p::Some(#c)),
        Some(CharValue::Expr(expr)) => quote!(#p::delimiter(#expr)),
    }
}

/// The variable an argument reads, as a `&'static str` for the build: the
/// literal, or the user's expression through clap's conversions (one that
/// unsets it, `None`, is the empty name, which no variable has).
pub(crate) fn env_tokens(p: &Private, env: &EnvName) -> TokenStream {
    match env {
        EnvName::Lit(name) => quote!(#name),
        EnvName::Expr(expr) => quote!(#p::Option::unwrap_or(#p::env_name(#expr), "")),
    }
}

/// The variable as the spec's `Option<&'static str>`.
pub(crate) fn env_option_tokens(p: &Private, env: Option<&EnvName>) -> TokenStream {
    match env {
        None => quote!(#p::None),
        Some(EnvName::Lit(name)) => quote!(#p::Some(#name)),
        Some(EnvName::Expr(expr)) => quote!(#p::env_name(#expr)),
    }
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let TokenTree::Group(group) = &tree {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                tree = TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

pub(crate) fn expand(input: &Input<'_>) -> TokenStream {
    let p = Private::new(input.container().layer.mcp.krate.as_ref());
    let body = match input {
        Input::Struct(container, fields) => expand_struct(&p, container, fields),
        Input::Enum(container, variants) => expand_enum(&p, container, variants),
    };
    let positional_consts = match input {
        Input::Struct(_, fields) => positional_consts(&p, fields),
        Input::Enum(_, variants) => variants
            .iter()
            .filter_map(|v| match &v.kind {
                VariantKind::Named(fields) => Some(positional_consts(&p, fields)),
                _ => None,
            })
            .collect(),
    };
    // A flattened struct (or a variant's payload) with no `McpArgs` is
    // read through clap (`ArgsOf`): its trait is needed where one is.
    let via_clap = reaches_args(input).then(|| {
        quote! {
            #[allow(unused_imports)]
            use #p::ViaClap as _;
        }
    });
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
            #via_clap
            #positional_consts
            #body
        };
    }
}

/// The property names of the positional arguments of a struct (or a
/// variant's fields) that flattens others: the positional/flag rule
/// applied across them, where their flags are known.
fn positional_consts(p: &Private, fields: &[Field<'_>]) -> TokenStream {
    let flattened: Vec<&syn::Type> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            FieldKind::Flatten { inner, .. } => Some(inner),
            _ => None,
        })
        .collect();
    fields
        .iter()
        .filter_map(|f| match &f.kind {
            FieldKind::Arg(arg) => arg.cross_name.as_ref().map(|name| (arg, name)),
            _ => None,
        })
        .map(|(arg, name)| {
            let ident = proc_macro2::Ident::new(name, arg.span);
            let own = &arg.id;
            let renamed = format!("{}-positional", arg.id);
            quote! {
                const #ident: &'static str = #p::tree::positional_property(
                    #own,
                    #renamed,
                    &[#(#p::ArgsOf::<#flattened>::MCP_NODE),*],
                );
            }
        })
        .collect()
}

/// Whether the item flattens a struct or holds one in a variant.
fn reaches_args(input: &Input<'_>) -> bool {
    let flattens = |fields: &[Field<'_>]| {
        fields
            .iter()
            .any(|f| matches!(f.kind, FieldKind::Flatten { .. }))
    };
    match input {
        Input::Struct(_, fields) => flattens(fields),
        Input::Enum(_, variants) => variants.iter().any(|v| match &v.kind {
            VariantKind::Args(_) => true,
            VariantKind::Named(fields) => flattens(fields),
            _ => false,
        }),
    }
}

fn expand_struct(p: &Private, container: &Container<'_>, fields: &[Field<'_>]) -> TokenStream {
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let augment = spec::struct_augment(p, container, fields);
    let build = build::struct_build(p, fields);
    let given = build::struct_given(fields);
    let root_impl = root_impl(p, container);
    let tree = tree::for_struct(p, container, fields);
    let (tree_node, tree_check) = (tree.node, tree.check);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::McpArgs for #ident #ty_generics #where_clause {
            #tree_node

            fn mcp_augment(__cmd: &mut #p::CommandSpec) {
                #augment
            }

            fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                #build
            }

            fn mcp_given(__ctx: &#p::BuildCtx<'_>) -> bool {
                __ctx.any_given(&[#(#given),*])
            }
        }

        #root_impl

        #tree_check
    }
}

fn expand_enum(p: &Private, container: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let mut helpers = Vec::new();
    let augment = spec::enum_augment(p, container, variants, &mut helpers);
    let build = build::enum_build(p, container, variants, &mut helpers);
    // The variants' own functions, hidden: not the CLI's API.
    let helpers = match helpers.is_empty() {
        true => TokenStream::new(),
        false => quote! {
            #[automatically_derived]
            #[doc(hidden)]
            impl #impl_generics #ident #ty_generics #where_clause {
                #(#helpers)*
            }
        },
    };
    let tree = tree::for_enum(p, container, variants);
    let (tree_node, tree_check) = (tree.node, tree.check);
    let root_node = tree.root_node;
    let root_impl = root_impl(p, container);
    // An enum that derives `Parser` is a root whose subcommand is required
    // (`#[derive(Parser)] enum Cli { ... }`): it is its own arguments.
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::McpSubcommand for #ident #ty_generics #where_clause {
            #tree_node

            fn mcp_augment_subcommands(__cmd: &mut #p::CommandSpec) {
                #augment
            }

            fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                #build
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::McpArgs for #ident #ty_generics #where_clause {
            #root_node

            fn mcp_augment(__cmd: &mut #p::CommandSpec) {
                __cmd.subcommand_required = true;
                <Self as #p::McpSubcommand>::mcp_augment_subcommands(__cmd);
            }

            fn mcp_build(__ctx: &mut #p::BuildCtx<'_>) -> #p::Result<Self, #p::ArgError> {
                <Self as #p::McpSubcommand>::mcp_build(__ctx)
            }
        }

        #helpers

        #root_impl

        #tree_check
    }
}

/// `McpRoot`: the root's name, and the Cargo package it is declared in
/// (read in the CLI's crate).
fn root_impl(p: &Private, container: &Container<'_>) -> TokenStream {
    let ident = container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let root_name = root_name(p, container);
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::McpRoot for #ident #ty_generics #where_clause {
            fn mcp_root_name() -> &'static str {
                #root_name
            }
            fn mcp_package() -> #p::Package {
                #p::Package::from_cargo(
                    ::core::option_env!("CARGO_PKG_NAME"),
                    ::core::option_env!("CARGO_PKG_VERSION"),
                    ::core::option_env!("CARGO_PKG_REPOSITORY"),
                    ::core::option_env!("CARGO_PKG_DESCRIPTION"),
                )
            }
        }
    }
}

/// `#[command(name)]`, or the package name, as clap names a root.
fn root_name(p: &Private, container: &Container<'_>) -> TokenStream {
    match &container.name {
        Some(name @ syn::Expr::Lit(_)) => quote!(#name),
        // As clap's `Command::name` takes it (`impl Into<Str>`).
        Some(name) => quote!(#p::name_text(#name)),
        None => quote!(::core::env!("CARGO_PKG_NAME")),
    }
}
