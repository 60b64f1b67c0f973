//! What a derive with errors emits: the errors, and stub impls of the
//! traits next to them, so the user sees the errors and not a cascade of
//! "trait not implemented" (the stubs describe an empty node, so the tree
//! checks of other types report nothing about this one either).

use proc_macro2::TokenStream;
use quote::quote;

use super::Private;
use crate::model::Input;

/// The errors (if any), then the stubs. `model` is what could be read of
/// the input, for the path of the runtime (`#[mcp(crate = "...")]`).
pub(crate) fn fallback(
    input: &syn::DeriveInput,
    model: Option<&Input<'_>>,
    errors: Option<syn::Error>,
) -> TokenStream {
    let krate = model.and_then(|model| model.container().layer.mcp.krate.as_ref());
    let p = Private::new(krate);
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
    let errors = errors.map(|errors| errors.to_compile_error());
    quote! {
        #errors
        #[doc(hidden)]
        const _: () = { #body };
    }
}
