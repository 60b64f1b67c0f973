//! Reading syn into the model: the attributes clap reads (and `#[mcp]`),
//! doc comments, clap's naming rules and its sorting of field types.
//! Mistakes found on the way are reported through the accumulator.

mod arg;
mod attr;
pub(crate) mod clap_keys;
mod doc;
pub(crate) mod lit;
mod naming;
mod relations;
mod ty;

/// The keys of `#[mcp(...)]`, for messages the checks and expansion write.
pub(crate) use self::attr::mcp_keys;

use syn::spanned::Spanned as _;
use syn::Expr;

use self::attr::{keys, ClapAttrKind, ClapItem, McpPlace};
use self::doc::doc_help;
use self::naming::{unraw, Casing, Naming};
use crate::ctxt::Ctxt;
use crate::model::{Container, Field, FieldKind, Input, Layer, Text, Variant, VariantKind};

pub(crate) fn from_syn<'a>(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Input<'a>> {
    let items = checked_items(cx, &input.attrs, false);
    let naming = naming_of(cx, &items, Naming::DEFAULT);
    let container = Container {
        ident: &input.ident,
        generics: &input.generics,
        layer: layer(cx, &input.attrs, &items, McpPlace::Container),
        name: command_name(&items).and_then(|i| i.expr().cloned()),
        group: match &input.data {
            syn::Data::Struct(_) => relations::struct_group(cx, &items, &input.ident.to_string()),
            _ => None,
        },
        builder_groups: relations::command_groups(cx, &items),
    };
    match &input.data {
        syn::Data::Struct(data) => {
            let fields = fields(cx, &data.fields, naming, "");
            Some(Input::Struct(container, fields))
        }
        syn::Data::Enum(data) => {
            let variants = data
                .variants
                .iter()
                .map(|v| variant(cx, v, naming))
                .collect();
            Some(Input::Enum(container, variants))
        }
        syn::Data::Union(_) => {
            cx.error_at(input, "McpTool cannot be derived for unions; use a struct (clap `Parser`/`Args`) or an enum (clap `Subcommand`)");
            None
        }
    }
}

/// A command's `name` (or `id`, which clap's derive reads as its name on
/// a command, deprecated): the last one.
fn command_name(items: &[ClapItem]) -> Option<&ClapItem> {
    items
        .iter()
        .rev()
        .find(|i| i.kind == ClapAttrKind::Command && (i.is(keys::NAME) || i.is(keys::ID)))
}

/// The naming of an item: its own `rename_all` and `rename_all_env` over
/// what it inherits.
pub(super) fn naming_of(cx: &Ctxt, items: &[ClapItem], inherited: Naming) -> Naming {
    Naming {
        casing: casing_of(cx, items, keys::RENAME_ALL).unwrap_or(inherited.casing),
        env: casing_of(cx, items, keys::RENAME_ALL_ENV).unwrap_or(inherited.env),
    }
}

fn casing_of(cx: &Ctxt, items: &[ClapItem], key: &str) -> Option<Casing> {
    let item = attr::last(items, key)?;
    match item.lit_str() {
        Some(value) => Casing::parse(&value).or_else(|| {
            // clap rejects it too; say so once.
            cx.error_at(&item.key, format!("unsupported casing: `{value}`"));
            None
        }),
        None => None,
    }
}

fn layer(cx: &Ctxt, attrs: &[syn::Attribute], items: &[ClapItem], place: McpPlace) -> Layer {
    let verbatim = attr::has(items, keys::VERBATIM_DOC_COMMENT);
    // A bare `long_about`: the doc comment is the long help, even of one
    // paragraph.
    let force_long = items
        .iter()
        .any(|i| i.kind == ClapAttrKind::Command && i.is(keys::LONG_ABOUT) && i.expr().is_none());
    let doc = doc_help(attrs, verbatim, force_long);
    let mut layer = Layer {
        mcp: attr::mcp_attrs(cx, attrs, place),
        ..Layer::default()
    };
    if doc.present {
        layer.about = Some(doc.short.map(Text::Lit));
        layer.long_about = Some(doc.long.map(Text::Lit));
    }
    for item in items.iter().filter(|i| i.kind == ClapAttrKind::Command) {
        let key = item.key.to_string();
        match key.as_str() {
            keys::ABOUT => {
                layer.about = Some(match item.expr() {
                    Some(expr) => option_text(expr),
                    None => Some(Text::PkgDescription),
                });
            }
            keys::LONG_ABOUT => {
                if let Some(expr) = item.expr() {
                    layer.long_about = Some(option_text(expr));
                }
            }
            keys::HIDE => layer.hide = Some(item.bool_value()),
            keys::MUT_ARG => {
                if let Some([id, f]) = item.call_args().as_deref() {
                    layer.mut_args.push((id.clone(), f.clone()));
                }
            }
            keys::MUT_ARGS => {
                if let Some([f]) = item.call_args().as_deref() {
                    layer.mut_all.push(f.clone());
                }
            }
            keys::SUBCOMMAND_REQUIRED => layer.subcommand_required = Some(item.bool_value()),
            keys::ARGS_CONFLICTS_WITH_SUBCOMMANDS => {
                layer.args_conflicts_with_subcommands = Some(item.bool_value());
            }
            keys::SUBCOMMAND_NEGATES_REQS => {
                layer.subcommand_negates_reqs = Some(item.bool_value());
            }
            keys::VERSION => {
                layer.version = Some(match item.expr() {
                    Some(expr) => Text::Expr(expr.clone()),
                    None => Text::PkgVersion,
                });
            }
            keys::ALIAS | keys::ALIASES | keys::VISIBLE_ALIAS | keys::VISIBLE_ALIASES => {
                match item.literal_list() {
                    Some(literals) => {
                        for literal in literals {
                            match literal {
                                syn::Lit::Str(s) => layer.aliases.push(s.value()),
                                other => cx.error_at(&other, format!("`{key}` takes strings")),
                            }
                        }
                    }
                    None => cx.error_at(
                        item.expr().map_or(&item.key as &dyn quote::ToTokens, |e| {
                            e as &dyn quote::ToTokens
                        }),
                        format!(
                            "mcp-bridge reads a command's `{key}` only as string literals \
                             (`\"name\"`, `[\"a\", \"b\"]`); write the aliases out"
                        ),
                    ),
                }
            }
            _ => {}
        }
    }
    layer
}

/// `Some(expr)` → the text; `None` → explicitly unset.
fn option_text(expr: &Expr) -> Option<Text> {
    if let Expr::Path(path) = expr {
        if path.path.is_ident("None") {
            return None;
        }
    }
    Some(Text::Expr(expr.clone()))
}

/// The fields of a struct, or of the variant `scope` names.
fn fields<'a>(cx: &Ctxt, fields: &'a syn::Fields, naming: Naming, scope: &str) -> Vec<Field<'a>> {
    let mut fields = all_fields(cx, fields, naming);
    positional_names(&mut fields, scope);
    fields
}

/// The positional/flag rule: a positional argument whose id is the long
/// name of a flag of the same command (`<input>` and `--input`, which clap
/// tells apart by position) is offered as `<id>-positional`, and the flag
/// keeps the name users type. An `#[mcp(name)]` on either opts out.
fn positional_names(fields: &mut [Field<'_>], scope: &str) {
    let flags: Vec<String> = fields
        .iter()
        .filter_map(|field| match &field.kind {
            FieldKind::Arg(arg) if !arg.positional && arg.exposed() => Some(arg.property()),
            _ => None,
        })
        .collect();
    for field in fields.iter_mut() {
        if let FieldKind::Arg(arg) = &mut field.kind {
            if arg.positional
                && arg.mcp.name.is_none()
                && arg.exposed()
                && flags.contains(&arg.property())
            {
                arg.auto_name = Some(format!("{}-positional", arg.id));
            }
        }
    }
    // Across flattened structs, the same rule is decided where their
    // flags are known: in a constant of the generated code.
    let flattens = fields
        .iter()
        .any(|f| matches!(f.kind, FieldKind::Flatten { .. }));
    for field in fields.iter_mut() {
        if let FieldKind::Arg(arg) = &mut field.kind {
            if flattens
                && arg.positional
                && arg.mcp.name.is_none()
                && arg.auto_name.is_none()
                && arg.exposed()
            {
                let id: String = arg
                    .id
                    .chars()
                    .map(|c| if c.is_alphanumeric() { c } else { '_' })
                    .collect();
                arg.cross_name = Some(format!("__MCP_PROPERTY_{scope}_{id}"));
            }
        }
    }
}

fn all_fields<'a>(cx: &Ctxt, fields: &'a syn::Fields, naming: Naming) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| {
            let member = match &field.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(index.into()),
            };
            let kind = field_kind(cx, field, naming)?;
            Some(Field {
                member,
                original: field,
                kind,
            })
        })
        .collect()
}

fn field_kind(cx: &Ctxt, field: &syn::Field, naming: Naming) -> Option<FieldKind> {
    let items = checked_items(cx, &field.attrs, true);
    for item in items.iter().rev() {
        match item.key.to_string().as_str() {
            keys::SKIP if item.kind != ClapAttrKind::Group => {
                reject_mcp_on_nesting(cx, field, McpPlace::SkippedField);
                return Some(FieldKind::Skip(item.expr().cloned()));
            }
            keys::FLATTEN => {
                reject_mcp_on_nesting(cx, field, McpPlace::NestingField);
                let (inner, optional) = match ty::option_inner(&field.ty) {
                    Some(inner) => (inner.clone(), true),
                    None => (field.ty.clone(), false),
                };
                return Some(FieldKind::Flatten { inner, optional });
            }
            keys::SUBCOMMAND => {
                reject_mcp_on_nesting(cx, field, McpPlace::NestingField);
                let (inner, optional) = match ty::option_inner(&field.ty) {
                    Some(inner) => (inner.clone(), true),
                    None => (field.ty.clone(), false),
                };
                return Some(FieldKind::Subcommand { inner, optional });
            }
            _ => {}
        }
    }
    let from_global = items.iter().any(|item| item.key == keys::FROM_GLOBAL);
    let Some(ident) = &field.ident else {
        cx.error_at(
            field,
            "McpTool needs named fields for arguments, as clap does",
        );
        return None;
    };
    let arg = Box::new(arg::arg(
        cx,
        field,
        ident,
        &items,
        naming_of(cx, &items, naming),
    ));
    Some(if from_global {
        FieldKind::FromGlobal(arg)
    } else {
        FieldKind::Arg(arg)
    })
}

fn reject_mcp_on_nesting(cx: &Ctxt, field: &syn::Field, place: McpPlace) {
    let _ = attr::mcp_attrs(cx, &field.attrs, place);
}

fn variant<'a>(cx: &Ctxt, variant: &'a syn::Variant, naming: Naming) -> Variant<'a> {
    let items = checked_items(cx, &variant.attrs, false);
    let inner = naming_of(cx, &items, naming);
    let inner_casing = inner.casing;
    let name_item = command_name(&items);
    // A name that is no literal (`name = SOME_CONST`) is a `&'static str`
    // constant, evaluated where the compile-time tree check needs it.
    let name_expr = name_item
        .and_then(|item| item.expr().filter(|_| item.lit_str().is_none()))
        .cloned();
    let name = name_item
        .and_then(ClapItem::lit_str)
        // A variant's own `rename_all` also cases its name, as in clap.
        .unwrap_or_else(|| inner_casing.apply(&unraw(&variant.ident)));
    let newtype = match &variant.fields {
        syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
            Some(fields.unnamed[0].ty.clone())
        }
        _ => None,
    };
    let command_key = |key: &str| {
        items
            .iter()
            .any(|i| i.kind == ClapAttrKind::Command && i.is(key))
    };
    let kind = if command_key(keys::SKIP) {
        VariantKind::NotATool
    } else if command_key(keys::EXTERNAL_SUBCOMMAND) {
        match newtype.as_ref().and_then(ty::vec_inner) {
            Some(item) => VariantKind::External(item.clone()),
            None => {
                cx.error_at(
                    variant,
                    "an `external_subcommand` variant holds `Vec<String>` or `Vec<OsString>`, as clap requires",
                );
                VariantKind::NotATool
            }
        }
    } else if command_key(keys::FLATTEN) {
        match newtype {
            Some(ty) => VariantKind::Flatten(ty),
            None => {
                cx.error_at(variant, "`#[command(flatten)]` needs a newtype variant");
                VariantKind::NotATool
            }
        }
    } else if command_key(keys::SUBCOMMAND) {
        match newtype {
            Some(ty) => VariantKind::Subcommand(ty),
            None => {
                cx.error_at(variant, "`#[command(subcommand)]` needs a newtype variant");
                VariantKind::NotATool
            }
        }
    } else {
        match &variant.fields {
            syn::Fields::Unit => VariantKind::Unit,
            syn::Fields::Named(_) => {
                VariantKind::Named(fields(cx, &variant.fields, inner, &unraw(&variant.ident)))
            }
            syn::Fields::Unnamed(_) => match newtype {
                Some(ty) => VariantKind::Args(ty),
                None => {
                    cx.error_at(variant, "a subcommand variant holds one `Args` type or named fields, as clap requires");
                    VariantKind::NotATool
                }
            },
        }
    };
    let place = match kind {
        VariantKind::Flatten(_) => McpPlace::FlattenVariant,
        VariantKind::NotATool => McpPlace::NotACommand,
        _ => McpPlace::Variant,
    };
    let layer = if matches!(kind, VariantKind::Flatten(_) | VariantKind::NotATool) {
        Layer {
            mcp: attr::mcp_attrs(cx, &variant.attrs, place),
            ..Layer::default()
        }
    } else {
        layer(cx, &variant.attrs, &items, place)
    };
    Variant {
        ident: &variant.ident,
        name,
        name_expr,
        name_span: command_name(&items)
            .and_then(ClapItem::expr)
            .map(|expr| expr.span()),
        layer,
        kind,
        builder_groups: relations::command_groups(cx, &items),
    }
}

/// The clap items of an item's attributes, every key looked up in clap's
/// keys (`clap_keys`): one mcp-bridge does not know, or refuses, is an
/// error here.
fn checked_items(cx: &Ctxt, attrs: &[syn::Attribute], on_field: bool) -> Vec<attr::ClapItem> {
    let items = attr::clap_items(attrs, on_field);
    clap_keys::check_keys(cx, &items);
    items
}
