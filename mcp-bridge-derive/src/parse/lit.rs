//! Literals read out of the expressions users write in attributes.

use syn::punctuated::Punctuated;
use syn::{Expr, Token};

/// An integer literal, possibly negated or parenthesised.
pub(crate) fn int_literal(expr: &Expr) -> Option<i128> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => int_literal(expr).map(|n| -n),
        Expr::Paren(p) => int_literal(&p.expr),
        Expr::Group(g) => int_literal(&g.expr),
        _ => None,
    }
}

/// A string literal.
pub(crate) fn str_literal(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        // `stringify!(Name)`, `concat!("a", "b")`: the text the compiler
        // makes of them, known here (a name, string literals).
        Expr::Macro(mac) if mac.mac.path.is_ident("stringify") => {
            let ident: syn::Ident = mac.mac.parse_body().ok()?;
            Some(ident.to_string())
        }
        Expr::Macro(mac) if mac.mac.path.is_ident("concat") => {
            let parts = mac
                .mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .ok()?;
            parts.iter().map(str_literal).collect()
        }
        _ => None,
    }
}

/// `"a"`, `["a", "b"]`, `&["a", "b"]`, `vec!["a"]`.
pub(crate) fn str_literals(expr: &Expr) -> Option<Vec<String>> {
    match expr {
        Expr::Lit(_) | Expr::Macro(_) if str_literal(expr).is_some() => {
            str_literal(expr).map(|s| vec![s])
        }
        Expr::Array(array) => array.elems.iter().map(str_literal).collect(),
        Expr::Reference(reference) => str_literals(&reference.expr),
        Expr::Paren(paren) => str_literals(&paren.expr),
        Expr::Macro(mac) if mac.mac.path.is_ident("vec") => {
            let elems = mac
                .mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .ok()?;
            elems.iter().map(str_literal).collect()
        }
        _ => None,
    }
}

/// Whether `expr` is a path whose last segments are `tail`
/// (`humantime::parse_duration`, `clap::builder::ValueParser::new`...):
/// any path to the item, as users import it.
pub(crate) fn path_ends_with(expr: &Expr, tail: &[&str]) -> bool {
    let Expr::Path(path) = expr else {
        return false;
    };
    let segments = &path.path.segments;
    segments.len() >= tail.len()
        && segments
            .iter()
            .skip(segments.len() - tail.len())
            .zip(tail)
            .all(|(segment, name)| segment.ident == name)
}
