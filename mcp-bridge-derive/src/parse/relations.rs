//! Relations between arguments, read from the literal forms users write:
//! `conflicts_with`, `requires`, `required_unless_present*`,
//! `required_if_eq`, `exclusive`, `overrides_with`, `group`, and `#[group(...)]` on an `Args`
//! struct. clap accepts any expression there: an argument's relation
//! written as another expression (a constant list) is evaluated through
//! clap's `Id` conversions when the table is built; a group's, which the
//! derive needs to know its members, is a compile error rather than a
//! relation silently lost.

use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use super::attr::{keys, ClapAttrKind, ClapItem, ClapValue};
use super::lit::{path_ends_with, str_literal, str_literals};
use crate::ctxt::Ctxt;
use crate::model::{ArgRelations, ComputedRelation, GroupDecl};

const OUT_OF_REACH: &str = "mcp-bridge reads this relation only from string literals \
     (e.g. `required_if_eq(\"other\", \"value\")`), so it can enforce it for MCP calls";

const GROUP_OUT_OF_REACH: &str = "mcp-bridge reads groups and their relations only from string \
     literals (e.g. `group = \"output\"`, `#[group(conflicts_with = \"other\")]`): it needs a \
     group's members when the derive runs (an argument's own `conflicts_with`, `requires`, \
     `required_unless_present*` or `overrides_with` may be any expression clap takes)";

fn strings(cx: &Ctxt, item: &ClapItem) -> Vec<String> {
    let expr = match &item.value {
        ClapValue::Expr(expr) | ClapValue::Call(_, Some(expr)) => expr.clone(),
        ClapValue::Call(_, None) => {
            cx.error_at(&item.key, GROUP_OUT_OF_REACH);
            return Vec::new();
        }
        ClapValue::None => {
            cx.error_at(&item.key, format!("`{}` needs a value", item.key));
            return Vec::new();
        }
    };
    match str_literals(&expr) {
        Some(values) => values,
        None => {
            cx.error_at(&expr, GROUP_OUT_OF_REACH);
            Vec::new()
        }
    }
}

/// `required_if_eq("other", "value")` or `required_if_eq = ("other", "value")`.
fn pair(cx: &Ctxt, item: &ClapItem) -> Option<(String, String)> {
    let elems: Vec<Expr> = match &item.value {
        ClapValue::Call(tokens, _) => {
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
        [a, b] => match (str_literal(a), str_literal(b)) {
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

/// `required_if_eq_any([("other", "value"), ...])`: any pair met makes the
/// argument required, as several `required_if_eq` do.
fn pairs(cx: &Ctxt, item: &ClapItem) -> Vec<(String, String)> {
    let list = match item.expr() {
        Some(Expr::Array(array)) => Some(&array.elems),
        Some(Expr::Reference(reference)) => match &*reference.expr {
            Expr::Array(array) => Some(&array.elems),
            _ => None,
        },
        _ => None,
    };
    let read = |elem: &Expr| match elem {
        Expr::Tuple(tuple) if tuple.elems.len() == 2 => {
            Some((str_literal(&tuple.elems[0])?, str_literal(&tuple.elems[1])?))
        }
        _ => None,
    };
    match list.map(|elems| elems.iter().map(read).collect::<Option<Vec<_>>>()) {
        Some(Some(pairs)) => pairs,
        _ => {
            cx.error_at(
                item.expr().map_or(&item.key as &dyn quote::ToTokens, |e| {
                    e as &dyn quote::ToTokens
                }),
                "mcp-bridge reads `required_if_eq_any` only as a list of pairs of string \
                 literals, `[(\"other\", \"value\"), ...]`, so it can enforce it for MCP calls",
            );
            Vec::new()
        }
    }
}

/// The ids of an argument's relation: string literals as data, another
/// expression kept to be evaluated through clap (`kind`: the runtime's
/// `RelationKind`).
fn arg_ids(cx: &Ctxt, item: &ClapItem, kind: &'static str, out: &mut ArgRelations) -> Vec<String> {
    if let ClapValue::Expr(expr) | ClapValue::Call(_, Some(expr)) = &item.value {
        if str_literals(expr).is_none() {
            let key = item.key.to_string();
            out.computed.push(ComputedRelation {
                kind,
                many: key.ends_with("_all") || key.ends_with("_any"),
                expr: expr.clone(),
            });
            return Vec::new();
        }
    }
    strings(cx, item)
}

/// Reads the relations of one argument.
pub(crate) fn arg_relations(cx: &Ctxt, items: &[ClapItem]) -> ArgRelations {
    let mut out = ArgRelations::default();
    for item in items.iter().filter(|i| i.kind == ClapAttrKind::Arg) {
        match item.key.to_string().as_str() {
            keys::CONFLICTS_WITH | keys::CONFLICTS_WITH_ALL => {
                let ids = arg_ids(cx, item, "ConflictsWith", &mut out);
                out.conflicts_with.extend(ids);
            }
            keys::REQUIRES | keys::REQUIRES_ALL => {
                let ids = arg_ids(cx, item, "Requires", &mut out);
                out.requires.extend(ids);
            }
            keys::REQUIRED_UNLESS_PRESENT | keys::REQUIRED_UNLESS_PRESENT_ANY => {
                let ids = arg_ids(cx, item, "RequiredUnlessAny", &mut out);
                out.required_unless_any.extend(ids);
            }
            keys::REQUIRED_UNLESS_PRESENT_ALL => {
                let ids = arg_ids(cx, item, "RequiredUnlessAll", &mut out);
                out.required_unless_all.extend(ids);
            }
            keys::REQUIRED_IF_EQ => out.required_if_eq.extend(pair(cx, item)),
            keys::EXCLUSIVE => {
                out.exclusive = item
                    .literal_bool(cx, "MCP calls are checked against it")
                    .unwrap_or(false);
            }
            keys::OVERRIDES_WITH | keys::OVERRIDES_WITH_ALL => {
                let ids = arg_ids(cx, item, "OverridesWith", &mut out);
                out.overrides_with.extend(ids);
            }
            keys::GROUP | keys::GROUPS => out.groups.extend(strings(cx, item)),
            keys::REQUIRED_IF_EQ_ANY => out.required_if_eq.extend(pairs(cx, item)),
            // `requires_if(s)`, `required_if_eq_all`: refused with the
            // other keys clap_keys refuses.
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
            keys::ID => {
                if let Some(id) = item.lit_str() {
                    group.id = id;
                } else {
                    cx.error_at(&item.key, OUT_OF_REACH);
                }
            }
            keys::REQUIRED => {
                group.required = item
                    .literal_bool(cx, "MCP calls are checked against it")
                    .unwrap_or(false);
            }
            keys::MULTIPLE => {
                group.multiple = item
                    .literal_bool(cx, "MCP calls are checked against it")
                    .unwrap_or(true);
            }
            keys::ARGS | keys::ARG => group.args.extend(strings(cx, item)),
            keys::CONFLICTS_WITH | keys::CONFLICTS_WITH_ALL => {
                group.conflicts_with.extend(strings(cx, item))
            }
            keys::REQUIRES | keys::REQUIRES_ALL => group.requires.extend(strings(cx, item)),
            keys::SKIP => return None,
            _ => {}
        }
    }
    Some(group)
}

/// `#[command(group(ArgGroup::new("id").required(true).args([...])))]`:
/// groups built with clap's builder, read from their literal method chain.
pub(crate) fn command_groups(cx: &Ctxt, items: &[ClapItem]) -> Vec<GroupDecl> {
    let mut groups = Vec::new();
    for item in items
        .iter()
        .filter(|i| i.kind == ClapAttrKind::Command && (i.is(keys::GROUP) || i.is(keys::GROUPS)))
    {
        let expr = match &item.value {
            ClapValue::Expr(expr) | ClapValue::Call(_, Some(expr)) => Some(expr.clone()),
            ClapValue::Call(_, None) | ClapValue::None => None,
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
            if !path_ends_with(&call.func, &["ArgGroup", "new"]) || call.args.len() != 1 {
                return None;
            }
            Some(GroupDecl {
                id: str_literal(&call.args[0])?,
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
                keys::REQUIRED => group.required = flag()?,
                keys::MULTIPLE => group.multiple = flag()?,
                keys::ARG | keys::ARGS => group.args.extend(str_literals(arg?)?),
                keys::CONFLICTS_WITH | keys::CONFLICTS_WITH_ALL => {
                    group.conflicts_with.extend(str_literals(arg?)?)
                }
                keys::REQUIRES | keys::REQUIRES_ALL => group.requires.extend(str_literals(arg?)?),
                _ => return None,
            }
            Some(group)
        }
        Expr::Paren(paren) => builder_group(&paren.expr),
        _ => None,
    }
}
