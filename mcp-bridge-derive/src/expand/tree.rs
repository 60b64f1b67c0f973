//! The compile-time checks that need several types at once (tool names
//! and property names across the tree): each derive describes its node as
//! an associated constant referring to the constants of the types it
//! nests, and asks the runtime's `__private::tree` to check its subtree in
//! a `const` item. See the runtime's tree checks for the checks and
//! `docs/compile-checks.md` for the design.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;

use super::Private;
use crate::model::{Action, Container, Field, FieldKind, Layer, McpAttrs, Variant, VariantKind};
use crate::parse::mcp_keys;

/// What one derive adds: the `MCP_NODE` constant (inside the trait impl)
/// and the check (next to the impls).
pub(crate) struct Generated {
    pub(crate) node: TokenStream,
    pub(crate) check: TokenStream,
    /// For an enum: the `ArgsNode` it has as a root (`McpArgs`).
    pub(crate) root_node: TokenStream,
}

/// Places errors can point at; their index is the site number the node
/// data carries.
#[derive(Default)]
struct Sites(Vec<Span>);

impl Sites {
    fn add(&mut self, span: Span) -> u32 {
        self.0.push(span);
        (self.0.len() - 1) as u32
    }
}

pub(super) fn for_struct(
    p: &Private,
    container: &Container<'_>,
    fields: &[Field<'_>],
) -> Generated {
    let tree = quote!(#p::tree);
    let ident = container.ident;
    let mut sites = Sites::default();
    let (root_site, root_name) = root(container, &mut sites);
    let origin = format!("`{ident}`");
    let checked = container.generics.params.is_empty();
    let items = items(p, fields, &ident.to_string(), &mut sites);
    let layer = layer(p, &container.layer);
    let node = args_node(
        p,
        checked,
        &origin,
        (root_site, root_name),
        layer,
        quote!(#(#items),*),
    );
    let check = if checked {
        let run = quote! {
            const __MCP_NODE: &'static #tree::ArgsNode = <#ident as #p::McpArgs>::MCP_NODE;
            const __MCP_SIZE: (usize, usize) = #tree::size_args(__MCP_NODE);
            #[allow(long_running_const_eval)]
            const __MCP_REPORT: #tree::CheckReport =
                #tree::check_args::<{ __MCP_SIZE.0 }, { __MCP_SIZE.1 }>(__MCP_NODE, {
                    #[allow(unused_imports)]
                    use #tree::NotParser as _;
                    #tree::IsParser::<#ident>::IS
                });
        };
        check_items(p, run, &sites)
    } else {
        TokenStream::new()
    };
    Generated {
        node,
        check,
        root_node: TokenStream::new(),
    }
}

/// The `MCP_NODE` constant of an `McpArgs` impl.
fn args_node(
    p: &Private,
    checked: bool,
    origin: &str,
    (root_site, root_name): (u32, TokenStream),
    layer: TokenStream,
    items: TokenStream,
) -> TokenStream {
    let tree = quote!(#p::tree);
    quote! {
        #[doc(hidden)]
        const MCP_NODE: &'static #tree::ArgsNode = &#tree::ArgsNode {
            checked: #checked,
            origin: #origin,
            root_name: #root_name,
            root_site: #root_site,
            layer: #layer,
            items: &[#items],
        };
    }
}

/// The site and the literal name of a root (`None` for a name given as an
/// expression, which the registry checks at run time).
fn root(container: &Container<'_>, sites: &mut Sites) -> (u32, TokenStream) {
    let site = sites.add(match &container.name {
        Some(name) => name.span(),
        None => container.ident.span(),
    });
    let name = match &container.name {
        Some(syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(name),
            ..
        })) => quote!(::core::option::Option::Some(#name)),
        Some(_) => quote!(::core::option::Option::None),
        None => quote!(::core::option::Option::Some(::core::env!("CARGO_PKG_NAME"))),
    };
    (site, name)
}

pub(super) fn for_enum(
    p: &Private,
    container: &Container<'_>,
    variants: &[Variant<'_>],
) -> Generated {
    let tree = quote!(#p::tree);
    let ident = container.ident;
    let mut sites = Sites::default();
    let checked = container.generics.params.is_empty();
    let mut nodes = Vec::new();
    for variant in variants {
        let vident = variant.ident;
        let site = sites.add(variant.name_span.unwrap_or_else(|| vident.span()));
        let kind = match &variant.kind {
            VariantKind::NotATool => continue,
            // Its two properties are checked with the table.
            VariantKind::Unit | VariantKind::External(_) => quote!(#tree::VariantKind::Unit),
            VariantKind::Named(fields) => {
                let items = items(p, fields, &format!("{ident}::{vident}"), &mut sites);
                quote!(#tree::VariantKind::Fields(&[#(#items),*]))
            }
            VariantKind::Args(ty) => {
                quote!(#tree::VariantKind::Args(#p::ArgsOf::<#ty>::MCP_NODE))
            }
            VariantKind::Subcommand(ty) => {
                quote!(#tree::VariantKind::Subcommand(<#ty as #p::McpSubcommand>::MCP_NODE))
            }
            VariantKind::Flatten(ty) => {
                quote!(#tree::VariantKind::Flatten(<#ty as #p::McpSubcommand>::MCP_NODE))
            }
        };
        let name = variant.name_tokens();
        let origin = format!("`{ident}::{vident}`");
        let layer = layer(p, &variant.layer);
        nodes.push(quote! {
            #tree::VariantNode {
                name: #name,
                site: #site,
                origin: #origin,
                layer: #layer,
                kind: #kind,
            }
        });
    }
    let layer = layer(p, &container.layer);
    let origin = format!("`{ident}`");
    let node = quote! {
        #[doc(hidden)]
        const MCP_NODE: &'static #tree::SubNode = &#tree::SubNode {
            checked: #checked,
            origin: #origin,
            layer: #layer,
            variants: &[#(#nodes),*],
        };
    };
    // As a root (`#[derive(Parser)]` on the enum): the enum is the required
    // subcommand of a command named like the root, and its variants stay
    // this derive's own items (`SELF_SITE`), reported at their sites.
    let (root_site, root_name) = root(container, &mut sites);
    let root_node = args_node(
        p,
        checked,
        &origin,
        (root_site, root_name),
        quote!(#tree::Layer::NONE),
        quote! {
            #tree::Item::Subcommand {
                site: #tree::SELF_SITE,
                node: <#ident as #p::McpSubcommand>::MCP_NODE,
                optional: false,
            }
        },
    );
    let check = if checked {
        // A root checks its whole tree with its name; otherwise the enum's
        // subtree is checked without a parent.
        let run = quote! {
            const __MCP_NODE: &'static #tree::SubNode = <#ident as #p::McpSubcommand>::MCP_NODE;
            const __MCP_SIZE: (usize, usize) = #tree::size_sub(__MCP_NODE);
            const __MCP_ROOT: &'static #tree::ArgsNode = <#ident as #p::McpArgs>::MCP_NODE;
            const __MCP_ROOT_SIZE: (usize, usize) = #tree::size_args(__MCP_ROOT);
            const __MCP_IS_ROOT: bool = {
                #[allow(unused_imports)]
                use #tree::NotParser as _;
                #tree::IsParser::<#ident>::IS
            };
            #[allow(long_running_const_eval)]
            const __MCP_REPORT: #tree::CheckReport = if __MCP_IS_ROOT {
                #tree::check_args::<{ __MCP_ROOT_SIZE.0 }, { __MCP_ROOT_SIZE.1 }>(__MCP_ROOT, true)
            } else {
                #tree::check_sub::<{ __MCP_SIZE.0 }, { __MCP_SIZE.1 }>(__MCP_NODE)
            };
        };
        check_items(p, run, &sites)
    } else {
        TokenStream::new()
    };
    Generated {
        node,
        check,
        root_node,
    }
}

/// The report, then one `const` per site that fails, pointing at the site,
/// when the report has a problem there.
fn check_items(p: &Private, run: TokenStream, sites: &Sites) -> TokenStream {
    // Every token of the call carries the site's span (an interpolated
    // path would keep its own span, and the error would point there).
    let fails = sites.0.iter().enumerate().map(|(index, span)| {
        let index = index as u32;
        let p = p.spanned(*span);
        quote_spanned! {*span=>
            const _: () = #p::tree::fail_at(&__MCP_REPORT, #index);
        }
    });
    quote! {
        const _: () = {
            #run
            #(#fails)*
        };
    }
}

fn items(p: &Private, fields: &[Field<'_>], owner: &str, sites: &mut Sites) -> Vec<TokenStream> {
    let tree = quote!(#p::tree);
    let mut out = Vec::new();
    for field in fields {
        let span = match &field.original.ident {
            Some(ident) => ident.span(),
            None => field.original.ty.span(),
        };
        match &field.kind {
            // Help and version flags are no property of any tool.
            FieldKind::Arg(arg) if arg.action == Action::Info => {}
            FieldKind::Arg(arg) => {
                let site = sites.add(span);
                let name = arg.property_tokens();
                let positional = arg.positional;
                let global = &arg.global;
                let hidden = if arg.mcp.skip.is_some() || arg.inert() {
                    quote!(true)
                } else {
                    let hide = &arg.hide;
                    quote!(#hide)
                };
                let origin = format!("field `{}` of `{owner}`", arg_field_name(field));
                out.push(quote! {
                    #tree::Item::Param(#tree::Param {
                        name: #name,
                        global: #global,
                        hidden: #hidden,
                        positional: #positional,
                        site: #site,
                        origin: #origin,
                    })
                });
            }
            FieldKind::Flatten { inner, .. } => {
                let site = sites.add(span);
                out.push(quote! {
                    #tree::Item::Flatten { site: #site, node: #p::ArgsOf::<#inner>::MCP_NODE }
                });
            }
            FieldKind::Subcommand { inner, optional } => {
                let site = sites.add(span);
                out.push(quote! {
                    #tree::Item::Subcommand {
                        site: #site,
                        node: <#inner as #p::McpSubcommand>::MCP_NODE,
                        optional: #optional,
                    }
                });
            }
            FieldKind::Skip(_) | FieldKind::FromGlobal(_) => {}
        }
    }
    out
}

fn arg_field_name(field: &Field<'_>) -> String {
    match &field.original.ident {
        Some(ident) => ident.unraw().to_string(),
        None => "?".to_owned(),
    }
}

fn layer(p: &Private, layer: &Layer) -> TokenStream {
    let tree = quote!(#p::tree);
    // Only what is set, like the spec's `CommandLayer`.
    let mut fields = Vec::new();
    if let Some(name) = &layer.mcp.name {
        let name = &name.value;
        fields.push(quote!(mcp_name: ::core::option::Option::Some(#name)));
    }
    if layer.mcp.skip.is_some() {
        fields.push(quote!(mcp_skip: true));
    }
    if let Some(hide) = &layer.hide {
        fields.push(quote!(hide: ::core::option::Option::Some(#hide)));
    }
    if let Some(prefix) = &layer.mcp.prefix {
        let prefix = &prefix.value;
        fields.push(quote!(mcp_prefix: ::core::option::Option::Some(#prefix)));
    }
    if let Some(max) = layer.mcp.max_name_len {
        fields.push(quote!(mcp_max_name_len: #max));
    }
    if !layer.mcp.fixed.is_empty() {
        let names = layer.mcp.fixed.iter().map(|(name, _)| &name.value);
        fields.push(quote!(mcp_fixed: &[#(#names),*]));
    }
    let tool_keys = tool_keys(&layer.mcp);
    if !tool_keys.is_empty() {
        fields.push(quote!(mcp_tool_keys: &[#(#tool_keys),*]));
    }
    if fields.is_empty() {
        return quote!(#tree::Layer::NONE);
    }
    quote! {
        #tree::Layer { #(#fields,)* ..#tree::Layer::NONE }
    }
}

/// The keys given that only a command's own tool carries, as messages
/// name them: a command that runs only through its subcommands has no
/// tool, and the tree check refuses them there. (`description`, `skip`
/// and `icon` mean something on such a command too; the root-only keys
/// have a check of their own.)
fn tool_keys(mcp: &McpAttrs) -> Vec<&'static str> {
    let mut keys = Vec::new();
    let mut given = |key: &'static str, is: bool| {
        if is {
            keys.push(key);
        }
    };
    given(mcp_keys::NAME, mcp.name.is_some());
    given(mcp_keys::TITLE, mcp.title.is_some());
    for (hint, value) in mcp_keys::HINTS.iter().zip(&mcp.hints) {
        given(hint, value.is_some());
    }
    given(mcp_keys::SERIAL, mcp.serial.is_some());
    given(mcp_keys::TIMEOUT, mcp.timeout.is_some());
    given(mcp_keys::ISOLATE, mcp.isolate.is_some());
    given(mcp_keys::TASK, mcp.task.is_some());
    given(
        mcp_keys::OUTPUT,
        mcp.output.is_some() || mcp.returns.is_some(),
    );
    given(mcp_keys::EXAMPLE, !mcp.examples.is_empty());
    given("args(...)", !mcp.fixed.is_empty());
    keys
}
