//! `cut-size FILE...`: replaces the body of every function in each file
//! with `(black_box(crate::__stub as fn() -> _))()`, where the crate
//! defines `fn __stub<T>() -> T { panic!() }` (`scripts/bench-cut.py` adds
//! it). Through `black_box` the compiler cannot tell that the call never
//! returns, so the code of the callers stays as it is: what goes is the
//! code of these functions and everything only they reach.
//!
//! Left as they are: functions returning `impl Trait` (no value of an
//! opaque type to stand in), `const fn`s, and tests.

use syn::visit_mut::VisitMut;

struct Stub;

fn stub(sig: &syn::Signature, block: &mut syn::Block) {
    let opaque = match &sig.output {
        syn::ReturnType::Type(_, ty) => quote::quote!(#ty).to_string().contains("impl "),
        syn::ReturnType::Default => false,
    };
    if opaque || sig.constness.is_some() {
        return;
    }
    *block = syn::parse_quote!({ (::std::hint::black_box(crate::__stub as fn() -> _))() });
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test") || quote::quote!(#attr).to_string().contains("cfg (test)")
    })
}

impl VisitMut for Stub {
    fn visit_item_fn_mut(&mut self, item: &mut syn::ItemFn) {
        if !is_test(&item.attrs) {
            stub(&item.sig, &mut item.block);
        }
    }

    fn visit_impl_item_fn_mut(&mut self, item: &mut syn::ImplItemFn) {
        stub(&item.sig, &mut item.block);
    }

    fn visit_item_mod_mut(&mut self, item: &mut syn::ItemMod) {
        if !is_test(&item.attrs) {
            syn::visit_mut::visit_item_mod_mut(self, item);
        }
    }
}

fn main() {
    for path in std::env::args().skip(1) {
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut file = syn::parse_file(&source).unwrap_or_else(|e| panic!("{path}: {e}"));
        Stub.visit_file_mut(&mut file);
        std::fs::write(&path, quote::quote!(#file).to_string())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
}
