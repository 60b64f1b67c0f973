//! Relations between arguments, read from the literal forms users write:
//! `conflicts_with`, `requires`, `required_unless_present*`,
//! `required_if_eq`, `exclusive`, `group`, and `#[group(...)]` on an `Args`
//! struct. clap accepts any expression there; one we cannot read at
//! expansion time is a compile error rather than a relation silently lost.

use proc_macro2::TokenStream;
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use crate::attr::{ClapAttrKind, ClapItem, ClapValue};
use crate::ctxt::Ctxt;

/// What one argument says about others.
#[derive(Default)]
pub(crate) struct ArgRelations {
    pub(crate) conflicts_with: Vec<String>,
    pub(crate) requires: Vec<String>,
    pub(crate) required_unless_any: Vec<String>,
    pub(crate) required_unless_all: Vec<String>,
    pub(crate) required_if_eq: Vec<(String, String)>,
    pub(crate) exclusive: bool,
    pub(crate) groups: Vec<String>,
}

impl ArgRelations {
    /// Whether the argument is required only under a condition.
    pub(crate) fn is_conditional(&self) -> bool {
        !self.required_unless_any.is_empty()
            || !self.required_unless_all.is_empty()
            || !self.required_if_eq.is_empty()
    }
}

/// A group of arguments: `#[group(...)]` on a struct, or one named by
/// `#[arg(group = "...")]`.
pub(crate) struct GroupDecl {
    pub(crate) id: String,
    pub(crate) required: bool,
    pub(crate) multiple: bool,
    /// Extra members named with `args = [...]`.
    pub(crate) args: Vec<String>,
    pub(crate) conflicts_with: Vec<String>,
    pub(crate) requires: Vec<String>,
    /// Whether the struct's own arguments are its members (clap's
    /// per-struct group).
    pub(crate) struct_members: bool,
}

const OUT_OF_REACH: &str = "mcp-bridge reads this relation only from string literals \
     (e.g. `conflicts_with = \"other\"`, `requires_all = [\"a\", \"b\"]`), so it can enforce it for MCP calls";

fn strings(cx: &Ctxt, item: &ClapItem) -> Vec<String> {
    let expr = match &item.value {
        ClapValue::Expr(expr) => expr.clone(),
        ClapValue::Call(tokens) => match syn::parse2::<Expr>(tokens.clone()) {
            Ok(expr) => expr,
            Err(_) => {
                cx.error_at(&item.key, OUT_OF_REACH);
                return Vec::new();
            }
        },
        ClapValue::None => {
            cx.error_at(&item.key, format!("`{}` needs a value", item.key));
            return Vec::new();
        }
    };
    match literal_strings(&expr) {
        Some(values) => values,
        None => {
            cx.error_at(&expr, OUT_OF_REACH);
            Vec::new()
        }
    }
}

/// `"a"`, `["a", "b"]`, `&["a", "b"]`, `vec!["a"]`.
fn literal_strings(expr: &Expr) -> Option<Vec<String>> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(vec![s.value()]),
        Expr::Array(array) => array.elems.iter().map(literal_str).collect(),
        Expr::Reference(reference) => literal_strings(&reference.expr),
        Expr::Paren(paren) => literal_strings(&paren.expr),
        Expr::Macro(mac) if mac.mac.path.is_ident("vec") => {
            let elems = mac
                .mac
                .parse_body_with(Punctuated::<Expr, Token![,]>::parse_terminated)
                .ok()?;
            elems.iter().map(literal_str).collect()
        }
        _ => None,
    }
}

fn literal_str(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// `required_if_eq("other", "value")` or `required_if_eq = ("other", "value")`.
fn pair(cx: &Ctxt, item: &ClapItem) -> Option<(String, String)> {
    let elems: Vec<Expr> = match &item.value {
        ClapValue::Call(tokens) => {
            match syn::parse::Parser::parse2(
                Punctuated::<Expr, Token![,]>::parse_terminated,
                tokens.clone(),
            ) {
                Ok(elems) => elems.into_iter().collect(),
                Err(_) => Vec::new(),
            }
        }
        ClapValue::Expr(Expr::Tuple(tuple)) => tuple.elems.iter().cloned().collect(),
        _ => Vec::new(),
    };
    match elems.as_slice() {
        [a, b] => match (literal_str(a), literal_str(b)) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => {
                cx.error_at(&item.key, OUT_OF_REACH);
                None
            }
        },
        _ => {
            cx.error_at(&item.key, "expected `required_if_eq(\"other\", \"value\")`");
            None
        }
    }
}

/// Reads the relations of one argument.
pub(crate) fn arg_relations(cx: &Ctxt, items: &[ClapItem]) -> ArgRelations {
    let mut out = ArgRelations::default();
    for item in items.iter().filter(|i| i.kind == ClapAttrKind::Arg) {
        match item.key.to_string().as_str() {
            "conflicts_with" | "conflicts_with_all" => out.conflicts_with.extend(strings(cx, item)),
            "requires" | "requires_all" => out.requires.extend(strings(cx, item)),
            "required_unless_present" | "required_unless_present_any" => {
                out.required_unless_any.extend(strings(cx, item));
            }
            "required_unless_present_all" => out.required_unless_all.extend(strings(cx, item)),
            "required_if_eq" => out.required_if_eq.extend(pair(cx, item)),
            "exclusive" => out.exclusive = item.flag_value(),
            "group" => out.groups.extend(strings(cx, item)),
            "groups" => out.groups.extend(strings(cx, item)),
            "overrides_with"
            | "overrides_with_all"
            | "requires_if"
            | "requires_ifs"
            | "required_if_eq_any"
            | "required_if_eq_all"
            | "conflicts_with_everything" => cx.error_at(
                &item.key,
                format!(
                    "`{}` is not supported by mcp-bridge yet, so MCP calls could not follow it; \
                     express the rule with `conflicts_with`, `requires`, `required_unless_present` \
                     or `required_if_eq`",
                    item.key
                ),
            ),
            _ => {}
        }
    }
    out
}

/// The group clap makes for every `Args` struct (id: the struct's name,
/// any number of members, not required), as `#[group(...)]` refines it.
/// `None` for `#[group(skip)]`.
pub(crate) fn struct_group(cx: &Ctxt, items: &[ClapItem], struct_name: &str) -> Option<GroupDecl> {
    let group_items: Vec<&ClapItem> = items
        .iter()
        .filter(|i| i.kind == ClapAttrKind::Group)
        .collect();
    let mut group = GroupDecl {
        id: struct_name.to_owned(),
        required: false,
        multiple: true,
        args: Vec::new(),
        conflicts_with: Vec::new(),
        requires: Vec::new(),
        struct_members: true,
    };
    for item in group_items {
        match item.key.to_string().as_str() {
            "id" => {
                if let Some(id) = item.lit_str() {
                    group.id = id;
                } else {
                    cx.error_at(&item.key, OUT_OF_REACH);
                }
            }
            "required" => group.required = item.flag_value(),
            "multiple" => group.multiple = item.flag_value(),
            "args" | "arg" => group.args.extend(strings(cx, item)),
            "conflicts_with" | "conflicts_with_all" => {
                group.conflicts_with.extend(strings(cx, item))
            }
            "requires" | "requires_all" => group.requires.extend(strings(cx, item)),
            "skip" => return None,
            _ => {}
        }
    }
    Some(group)
}

/// Tokens building the runtime `GroupSpec`s of a struct: its
/// `#[group(...)]`, and the implicit groups its arguments name.
pub(crate) fn group_specs(
    cmd: &TokenStream,
    groups: &[&GroupDecl],
    member_ids: &[(String, Vec<String>)],
    struct_members: bool,
) -> TokenStream {
    let p = quote!(::mcp_bridge::__private);
    let mut specs = Vec::new();
    for group in groups {
        let id = &group.id;
        let mut members: Vec<String> = group.args.clone();
        if group.struct_members && struct_members {
            members.extend(member_ids.iter().map(|(id, _)| id.clone()));
        }
        let required = group.required;
        let multiple = group.multiple;
        let conflicts = &group.conflicts_with;
        let requires = &group.requires;
        specs.push(quote! {
            #p::GroupSpec::new(#id, &[#(#members),*], #required, #multiple, &[#(#conflicts),*], &[#(#requires),*])
        });
    }
    // `#[arg(group = "x")]` adds to group x, creating it with clap's
    // defaults (not required, one member at most) when nothing declares it.
    let mut implicit: Vec<(String, Vec<String>)> = Vec::new();
    for (arg_id, arg_groups) in member_ids {
        for group in arg_groups {
            match implicit.iter_mut().find(|(id, _)| id == group) {
                Some((_, members)) => members.push(arg_id.clone()),
                None => implicit.push((group.clone(), vec![arg_id.clone()])),
            }
        }
    }
    let implicit = implicit
        .into_iter()
        .map(|(id, members)| quote!(#cmd.add_to_group(#id, &[#(#members),*]);));
    quote! {
        #(#cmd.groups.push(#specs);)*
        #(#implicit)*
    }
}

/// `#[command(group(ArgGroup::new("id").required(true).args([...])))]`:
/// groups built with clap's builder, read from their literal method chain.
pub(crate) fn command_groups(cx: &Ctxt, items: &[ClapItem]) -> Vec<GroupDecl> {
    let mut groups = Vec::new();
    for item in items
        .iter()
        .filter(|i| i.kind == ClapAttrKind::Command && (i.is("group") || i.is("groups")))
    {
        let expr = match &item.value {
            ClapValue::Expr(expr) => Some(expr.clone()),
            ClapValue::Call(tokens) => syn::parse2::<Expr>(tokens.clone()).ok(),
            ClapValue::None => None,
        };
        let chains: Vec<Expr> = match expr {
            Some(Expr::Array(array)) => array.elems.into_iter().collect(),
            Some(expr) => vec![expr],
            None => Vec::new(),
        };
        for chain in &chains {
            match builder_group(chain) {
                Some(group) => groups.push(group),
                None => cx.error_at(
                    chain,
                    "mcp-bridge reads a command's group only as a literal builder chain, \
                     e.g. `ArgGroup::new(\"id\").required(true).args([\"a\", \"b\"])`",
                ),
            }
        }
    }
    groups
}

fn builder_group(expr: &Expr) -> Option<GroupDecl> {
    match expr {
        Expr::Call(call) => {
            let Expr::Path(path) = &*call.func else {
                return None;
            };
            let segments: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if !segments.ends_with(&["ArgGroup".to_owned(), "new".to_owned()])
                || call.args.len() != 1
            {
                return None;
            }
            Some(GroupDecl {
                id: literal_str(&call.args[0])?,
                required: false,
                multiple: false,
                args: Vec::new(),
                conflicts_with: Vec::new(),
                requires: Vec::new(),
                struct_members: false,
            })
        }
        Expr::MethodCall(call) => {
            let mut group = builder_group(&call.receiver)?;
            let arg = call.args.first();
            let flag = || match arg {
                None => Some(true),
                Some(Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Bool(b),
                    ..
                })) => Some(b.value),
                _ => None,
            };
            match call.method.to_string().as_str() {
                "required" => group.required = flag()?,
                "multiple" => group.multiple = flag()?,
                "arg" | "args" => group.args.extend(literal_strings(arg?)?),
                "conflicts_with" | "conflicts_with_all" => {
                    group.conflicts_with.extend(literal_strings(arg?)?)
                }
                "requires" | "requires_all" => group.requires.extend(literal_strings(arg?)?),
                _ => return None,
            }
            Some(group)
        }
        Expr::Paren(paren) => builder_group(&paren.expr),
        _ => None,
    }
}
