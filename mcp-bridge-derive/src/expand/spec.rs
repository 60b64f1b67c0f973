//! `mcp_augment`: the code describing a command to the runtime —
//! `CommandSpec` nodes, one `ParamSpec` per argument, the `CommandLayer`
//! of help and visibility, relations and groups.

use proc_macro2::TokenStream;
use quote::quote;

use super::arg::{arity_tokens, default_texts, is_str_literal, literal_default_text};
use super::convert::{converter, count_converter, value_type_of};
use super::{delimiter_tokens, env_option_tokens, Private};
use crate::model::{
    Action, Arg, ArgRelations, BoolValue, Container, DefaultIfs, DefaultValue, Field, FieldKind,
    GroupDecl, Layer, NumArgs, Shape, Spanned, TaskMode, Text, ValueKind, Variant, VariantKind,
};

/// The body of a struct's `mcp_augment(__cmd)`.
pub(super) fn struct_augment(
    p: &Private,
    container: &Container<'_>,
    fields: &[Field<'_>],
) -> TokenStream {
    let mut augment = augment_fields(p, fields, quote!(__cmd));
    // clap leaves a struct's own group empty when it flattens others.
    let has_flatten = fields
        .iter()
        .any(|f| matches!(f.kind, FieldKind::Flatten { .. }));
    augment.extend(group_specs(
        p,
        &quote!(__cmd),
        &container
            .group
            .iter()
            .chain(&container.builder_groups)
            .collect::<Vec<_>>(),
        &arg_groups(fields),
        !has_flatten,
    ));
    let layer = layer_tokens(p, &container.layer);
    let muts = mut_arg_tokens(p, &container.layer, &quote!(__cmd));
    quote! {
        #augment
        #muts
        __cmd.apply(&#layer);
    }
}

/// `mut_arg(id, f)` calls, after the arguments are added (as clap's derive
/// applies them).
fn mut_arg_tokens(p: &Private, layer: &Layer, target: &TokenStream) -> TokenStream {
    let calls = layer
        .mut_args
        .iter()
        .map(|(id, f)| quote!(#p::mut_arg(&mut *#target, #id, #f);));
    let all = layer
        .mut_all
        .iter()
        .map(|f| quote!(#p::mut_args(&mut *#target, #f);));
    quote!(#(#calls)* #(#all)*)
}

/// The body of an enum's `mcp_augment_subcommands(__cmd)`: one command
/// per variant (its index is the selector `mcp_build` routes on).
///
/// A variant with fields is described by a method of its own (`helpers`,
/// never inlined), as in `mcp_build`.
pub(super) fn enum_augment(
    p: &Private,
    container: &Container<'_>,
    variants: &[Variant<'_>],
    helpers: &mut Vec<TokenStream>,
) -> TokenStream {
    let mut augments = Vec::new();
    for (index, variant) in variants.iter().enumerate() {
        let index = index as u32;
        let name = variant.name_tokens();
        let vlayer = layer_tokens(p, &variant.layer);
        let muts = mut_arg_tokens(p, &variant.layer, &quote!(__sub));
        match &variant.kind {
            VariantKind::NotATool => continue,
            VariantKind::Flatten(ty) => {
                augments.push(quote! {{
                    let __start = __cmd.subcommands.len();
                    <#ty as #p::McpSubcommand>::mcp_augment_subcommands(__cmd);
                    for __sub in &mut __cmd.subcommands[__start..] {
                        __sub.route_prefix(#index);
                    }
                }});
            }
            VariantKind::Unit => {
                augments.push(subcommand_node(
                    &name,
                    index,
                    TokenStream::new(),
                    &vlayer,
                    &muts,
                ));
            }
            VariantKind::External(_) => {
                augments.push(subcommand_node(
                    &name,
                    index,
                    quote!(#p::external_subcommand(__sub);),
                    &vlayer,
                    &muts,
                ));
            }
            VariantKind::Named(fields) => {
                let mut augment = augment_fields(p, fields, quote!(__sub));
                augment.extend(group_specs(
                    p,
                    &quote!(__sub),
                    &variant.builder_groups.iter().collect::<Vec<_>>(),
                    &arg_groups(fields),
                    false,
                ));
                let node = subcommand_node(&name, index, augment, &vlayer, &muts);
                let method = quote::format_ident!("__mcp_augment_{}", index);
                helpers.push(quote! {
                    #[inline(never)]
                    fn #method(__cmd: &mut #p::CommandSpec) {
                        #node
                    }
                });
                augments.push(quote!(Self::#method(__cmd);));
            }
            VariantKind::Args(ty) => {
                let groups = group_specs(
                    p,
                    &quote!(__sub),
                    &variant.builder_groups.iter().collect::<Vec<_>>(),
                    &[],
                    false,
                );
                let augment = quote! {
                    #p::ArgsOf::<#ty>::mcp_augment(__sub);
                    #groups
                };
                augments.push(subcommand_node(&name, index, augment, &vlayer, &muts));
            }
            VariantKind::Subcommand(ty) => {
                let augment = quote! {
                    __sub.subcommand_required = true;
                    <#ty as #p::McpSubcommand>::mcp_augment_subcommands(__sub);
                };
                augments.push(subcommand_node(&name, index, augment, &vlayer, &muts));
            }
        }
    }
    let layer = layer_tokens(p, &container.layer);
    quote! {
        #(#augments)*
        __cmd.apply(&#layer);
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
    name: &TokenStream,
    index: u32,
    augment: TokenStream,
    layer: &TokenStream,
    muts: &TokenStream,
) -> TokenStream {
    // Added to the parent first and described in place: no command of
    // the caller's own to move, or to drop if a step panics.
    quote! {{
        let __sub = __cmd.push_subcommand(#name, #index);
        #augment
        #muts
        __sub.apply(&#layer);
    }}
}

/// A help text as an `Option<&'static str>` expression: a literal, or the
/// user's expression as clap takes it (`IntoResettable<StyledStr>`: any
/// string type, or `None`, which unsets it).
pub(super) fn text_tokens(p: &Private, text: &Text) -> TokenStream {
    match text {
        Text::Lit(text) => quote!(#p::Some(#text)),
        // A string literal is static data as it is.
        Text::Expr(expr) if is_str_literal(expr) => quote!(#p::Some(#expr)),
        Text::Expr(expr) => quote!(#p::help_text(#expr)),
        Text::PkgDescription => quote!(#p::Some(::core::env!("CARGO_PKG_DESCRIPTION"))),
        Text::PkgVersion => quote!(#p::Some(::core::env!("CARGO_PKG_VERSION"))),
    }
}

/// The layer as a `CommandLayer` literal naming only what the attributes
/// set (`..CommandLayer::NONE` for the rest): fewer tokens per command for
/// the compiler to read.
fn layer_tokens(p: &Private, layer: &Layer) -> TokenStream {
    let mut fields = Vec::new();
    let opt_opt = |value: &Option<Option<Text>>| match value {
        None => None,
        Some(None) => Some(quote!(#p::Some(#p::None))),
        Some(Some(text)) => {
            let text = text_tokens(p, text);
            Some(quote!(#p::Some(#text)))
        }
    };
    if let Some(about) = opt_opt(&layer.about) {
        fields.push(quote!(about: #about));
    }
    if let Some(long_about) = opt_opt(&layer.long_about) {
        fields.push(quote!(long_about: #long_about));
    }
    for (value, field) in [
        (&layer.hide, quote!(hide)),
        (&layer.subcommand_required, quote!(subcommand_required)),
        (
            &layer.args_conflicts_with_subcommands,
            quote!(args_conflicts_with_subcommands),
        ),
        (
            &layer.subcommand_negates_reqs,
            quote!(subcommand_negates_reqs),
        ),
    ] {
        if let Some(value) = value {
            fields.push(quote!(#field: #p::Some(#value)));
        }
    }
    if let Some(version) = &layer.version {
        // `version = EXPR` is clap's `IntoResettable<Str>`: a `String`
        // only with clap's `string` feature, as clap takes it.
        let version = match version {
            Text::Expr(expr) if !is_str_literal(expr) => quote!(#p::str_text(#expr)),
            text => text_tokens(p, text),
        };
        fields.push(quote!(version: #version));
    }
    let aliases = &layer.aliases;
    if !aliases.is_empty() {
        fields.push(quote!(aliases: &[#(#aliases),*]));
    }
    let mcp = &layer.mcp;
    let text = |field: TokenStream, value: &Option<Spanned<String>>| {
        value.as_ref().map(|value| {
            let value = &value.value;
            quote!(#field: #p::Some(#value))
        })
    };
    fields.extend(text(quote!(mcp_name), &mcp.name));
    fields.extend(text(quote!(mcp_description), &mcp.description));
    for (set, field) in [
        (mcp.skip.is_some(), quote!(mcp_skip)),
        (mcp.serial.is_some(), quote!(mcp_serial)),
        (mcp.isolate.is_some(), quote!(mcp_isolate)),
    ] {
        if set {
            fields.push(quote!(#field: true));
        }
    }
    if let Some(task) = &mcp.task {
        let variant = match task.value {
            TaskMode::Optional => quote!(Optional),
            TaskMode::Required => quote!(Required),
            TaskMode::Deferred => quote!(Deferred),
        };
        fields.push(quote!(mcp_task: #p::Some(#p::TaskSupport::#variant)));
    }
    if let Some(millis) = mcp.timeout {
        fields.push(quote!(mcp_timeout: #p::Some(::core::time::Duration::from_millis(#millis))));
    }
    fields.extend(text(quote!(mcp_title), &mcp.title));
    fields.extend(text(quote!(mcp_icon), &mcp.icon));
    fields.extend(text(quote!(mcp_prefix), &mcp.prefix));
    if let Some(max) = mcp.max_name_len {
        fields.push(quote!(mcp_max_name_len: #p::Some(#max)));
    }
    if let Some(output) = &mcp.output {
        let format = match output.value.as_str() {
            "json" => quote!(#p::OutputFormat::Json),
            // Spanned at the `"yaml"`: without the runtime's `yaml`
            // feature the trait is not implemented, and its message
            // names the feature there.
            "yaml" => quote::quote_spanned!(output.span=> <() as #p::YamlOutput>::FORMAT),
            "table" => quote!(#p::OutputFormat::Table),
            _ => quote!(#p::OutputFormat::Lines),
        };
        fields.push(quote!(mcp_output: #p::Some(#format)));
    }
    if let Some(ty) = &mcp.returns {
        // Spanned at the type: a type that is not `Serialize + JsonSchema`
        // is reported there.
        let of =
            quote::quote_spanned!(syn::spanned::Spanned::span(ty)=> #p::OutputType::of::<#ty>());
        fields.push(quote!(mcp_returns: #p::Some(#of)));
    }
    if !mcp.examples.is_empty() {
        let examples = &mcp.examples;
        fields.push(quote!(mcp_examples: &[#(#examples),*]));
    }
    if !mcp.fixed.is_empty() {
        let values = mcp.fixed.iter().map(|(name, lit)| {
            let name = &name.value;
            let value = match lit {
                syn::Lit::Str(text) => quote!(#p::FixedValue::Str(#text)),
                // Without a suffix (`3u8`): the value is a JSON number.
                syn::Lit::Int(int) => {
                    let int = syn::LitInt::new(int.base10_digits(), int.span());
                    quote!(#p::FixedValue::Int(#int))
                }
                syn::Lit::Float(float) => {
                    let float = syn::LitFloat::new(float.base10_digits(), float.span());
                    quote!(#p::FixedValue::Float(#float))
                }
                syn::Lit::Bool(b) => quote!(#p::FixedValue::Bool(#b)),
                _ => unreachable!("checked when parsed"),
            };
            quote!((#name, #value))
        });
        fields.push(quote!(mcp_fixed: &[#(#values),*]));
    }
    if mcp.hints.iter().any(Option::is_some) {
        let hint = |index: usize| match &mcp.hints[index] {
            Some(hint) => {
                let value = hint.value;
                quote!(#p::Some(#value))
            }
            None => quote!(#p::None),
        };
        let (read_only, destructive, idempotent, open_world) = (hint(0), hint(1), hint(2), hint(3));
        fields.push(quote!(mcp_hints: #p::ToolHints {
            read_only: #read_only,
            destructive: #destructive,
            idempotent: #idempotent,
            open_world: #open_world,
        }));
    }
    quote! {
        #p::CommandLayer { #(#fields,)* ..#p::CommandLayer::NONE }
    }
}

fn augment_fields(p: &Private, fields: &[Field<'_>], cmd: TokenStream) -> TokenStream {
    let parts = fields.iter().map(|field| match &field.kind {
        // Help and version flags are no property of any tool.
        FieldKind::Arg(arg) if arg.action == Action::Info => TokenStream::new(),
        FieldKind::Arg(arg) => {
            let (data, steps) = param_spec(p, arg);
            if steps.is_empty() {
                quote!(#cmd.push_param(#data);)
            } else {
                quote!(#cmd.params.push(#p::ParamSpec::from_data(#data)#steps);)
            }
        }
        FieldKind::Flatten { inner, .. } => quote!(#p::ArgsOf::<#inner>::mcp_augment(&mut *#cmd);),
        FieldKind::Subcommand { inner, optional } => {
            let required = !optional;
            quote! {
                #cmd.subcommand_required = #required;
                <#inner as #p::McpSubcommand>::mcp_augment_subcommands(&mut *#cmd);
            }
        }
        FieldKind::Skip(_) | FieldKind::FromGlobal(_) => TokenStream::new(),
    });
    quote!(#(#parts)*)
}

/// The arguments of `ParamSpec::from_data` for `arg` (static data, then
/// what is known at run time), and the builder steps that follow it, if
/// any.
fn param_spec(p: &Private, arg: &Arg) -> (TokenStream, TokenStream) {
    let id = &arg.id;
    let value_type = match (arg.action, &arg.value) {
        (Action::SetTrue | Action::SetFalse, _) if arg.direct_is_unit() => {
            quote!(#p::ValueType::Boolean)
        }
        (Action::Count, _) if arg.direct_is_unit() => quote!(#p::value_types::integer::<u8>()),
        // Hidden, and its type may have no JSON conversion at all.
        _ if arg.direct.is_some() => quote!(#p::ValueType::string()),
        (Action::SetTrue | Action::SetFalse, _) => quote!(#p::ValueType::Boolean),
        (Action::Count, _) => {
            let conv = count_converter(p, arg);
            quote!(#p::Converter::schema_type(&#conv))
        }
        (
            _,
            ValueKind::KeyValue {
                value,
                value_builtin,
                ..
            },
        ) => {
            let values = value_type_of(p, *value_builtin, value);
            quote!(#p::ValueType::Map { values: #p::Box::new(#values) })
        }
        (_, ValueKind::Map { .. }) => {
            let conv = converter(p, arg);
            quote!(#p::ValueType::Map { values: #p::Box::new(#p::Converter::schema_type(&#conv)) })
        }
        _ => {
            let conv = converter(p, arg);
            quote!(#p::Converter::schema_type(&#conv))
        }
    };
    let opt = |value: Option<TokenStream>| match value {
        Some(value) => quote!(#p::Some(#value)),
        None => quote!(#p::None),
    };
    let positional = arg.positional;
    let (long, short) = if arg.positional {
        (quote!(#p::None), quote!(#p::None))
    } else {
        (
            opt(arg.long.as_ref().map(|long| quote!(#long))),
            opt(arg.short.map(|c| quote!(#c))),
        )
    };
    let multiple = if arg.multiple() {
        let min = opt(arg.required.then(|| quote!(1u32)));
        quote!(#p::Some(#min))
    } else {
        quote!(#p::None)
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
        Action::Info => unreachable!("help and version flags are no parameter"),
    };
    let relations = relation_tokens(p, &arg.relations);
    let env = env_option_tokens(p, arg.env.as_ref());
    let nullable = arg.value_optional || arg.shape == Shape::OptionOption;
    // A `num_args` expression is a call: it is applied after the data, which
    // stays static.
    let computed_arity = matches!(arg.num_args, Some(NumArgs::Expr(_)));
    let arity = opt((arg.multiple() && !computed_arity).then(|| arity_tokens(p, arg)));
    // Literal default texts are data; computed ones are evaluated when the
    // table is built.
    let (literal_defaults, computed_defaults) =
        match (arg.action, &arg.default, literal_default_text(arg)) {
            (Action::SetTrue | Action::SetFalse, _, _) => (quote!(&["false"]), quote!(#p::None)),
            (Action::Count, _, _) => (quote!(&["0"]), quote!(#p::None)),
            (_, DefaultValue::None, _) => (quote!(&[]), quote!(#p::None)),
            (_, DefaultValue::Texts(texts), _) if texts.iter().all(is_str_literal) => {
                (quote!(&[#(#texts),*]), quote!(#p::None))
            }
            (_, _, Some(text)) => (quote!(&[#text]), quote!(#p::None)),
            _ => (quote!(&[]), default_texts(p, arg)),
        };
    let description = match (&arg.long_help, &arg.help) {
        // A long help that may unset itself falls back to the short one.
        (Some(long @ Text::Expr(_)), Some(short)) => {
            let (long, short) = (text_tokens(p, long), text_tokens(p, short));
            quote!(#p::Option::or(#long, #short))
        }
        (Some(long), _) => text_tokens(p, long),
        (None, Some(short)) => text_tokens(p, short),
        (None, None) => quote!(#p::None),
    };
    let (aliases, short_aliases) = (&arg.aliases, &arg.short_aliases);
    let mcp_description = opt(arg.mcp.description.as_ref().map(|text| {
        let text = &text.value;
        quote!(#text)
    }));
    let global = &arg.global;
    let delimiter = delimiter_tokens(p, arg.delimiter.as_ref());
    let skip = arg.mcp.skip.is_some() || arg.inert();
    // One literal (or the user's expression): `a || b` would keep the
    // constant from being promoted to static data.
    let hidden = if skip {
        quote!(true)
    } else {
        let hide = &arg.hide;
        quote!(#hide)
    };
    let rename = opt(arg
        .mcp
        .name
        .as_ref()
        .map(|name| name.value.clone())
        .or_else(|| arg.auto_name.clone())
        .map(|name| quote!(#name))
        .or_else(|| arg.cross_name.is_some().then(|| arg.property_tokens())));
    let values = opt(arg.mcp.values.as_ref().map(|path| {
        let name = quote!(#path).to_string().replace(' ', "");
        let ttl = opt(arg.mcp.values_ttl.as_ref().map(|ttl| {
            let millis = ttl.value;
            quote!(::core::time::Duration::from_millis(#millis))
        }));
        // Spanned at the path: a function of another shape is reported
        // there.
        let fetch =
            quote::quote_spanned!(syn::spanned::Spanned::span(path)=> || #p::values_of(#path()));
        quote!(#p::ValuesSource { name: #name, fetch: #fetch, ttl: #ttl })
    }));
    let header = opt(arg.mcp.header.as_ref().map(|header| {
        let header = &header.value;
        quote!(#header)
    }));
    let default_ifs = arg.default_ifs.iter().map(|rule| match rule {
        DefaultIfs::One(other, predicate, default) => {
            quote!(.default_if(#p::default_if(#other, #predicate, #default)))
        }
        DefaultIfs::Values(other, predicate, defaults) => {
            quote!(.default_if(#p::default_values_if(#other, #predicate, #defaults)))
        }
        DefaultIfs::Many(list) => quote! {
            .default_ifs(::core::iter::IntoIterator::into_iter(#list).map(
                |(__arg, __predicate, __default)| #p::default_if(__arg, __predicate, __default),
            ))
        },
        DefaultIfs::ManyValues(list) => quote! {
            .default_ifs(::core::iter::IntoIterator::into_iter(#list).map(
                |(__arg, __predicate, __defaults)| #p::default_values_if(__arg, __predicate, __defaults),
            ))
        },
    });
    // Said only where set: most arguments are not.
    let last = match &arg.last {
        BoolValue::Lit(false) => None,
        last => Some(quote!(.last(#last))),
    };
    let ignore_case = match &arg.ignore_case {
        BoolValue::Lit(false) => None,
        ignore_case => Some(quote!(.ignore_case(#ignore_case))),
    };
    // Relations whose ids the CLI computes: through clap's `Id`.
    let computed_relations = arg.relations.computed.iter().map(|relation| {
        let kind = syn::Ident::new(relation.kind, proc_macro2::Span::call_site());
        let expr = &relation.expr;
        let ids = match relation.many {
            true => quote!(#p::relation_ids(#expr)),
            false => quote!(#p::relation_id(#expr)),
        };
        quote!(.relate(#p::RelationKind::#kind, #ids))
    });
    let arity_after = (arg.multiple() && computed_arity).then(|| {
        let arity = arity_tokens(p, arg);
        quote!(.arity(#arity))
    });
    let data = quote! {
            &#p::ParamData {
                id: #id,
                positional: #positional,
                long: #long,
                short: #short,
                required: #required,
                multiple: #multiple,
                default_text: #literal_defaults,
                global: #global,
                hidden: #hidden,
                skipped: #skip,
                rename: #rename,
                mcp_description: #mcp_description,
                aliases: &[#(#aliases),*],
                short_aliases: &[#(#short_aliases),*],
                action: #action,
                relations: #relations,
                env: #env,
                nullable: #nullable,
                arity: #arity,
                values: #values,
                header: #header,
            },
            #value_type,
            #description,
            #computed_defaults,
            #delimiter,
    };
    (
        data,
        quote!(#arity_after #last #ignore_case #(#default_ifs)* #(#computed_relations)*),
    )
}

/// A string literal (static data), as opposed to an expression evaluated
/// at run time.
fn relation_tokens(p: &Private, relations: &ArgRelations) -> TokenStream {
    let conflicts = &relations.conflicts_with;
    let requires = &relations.requires;
    let unless_any = &relations.required_unless_any;
    let unless_all = &relations.required_unless_all;
    let if_eq = relations
        .required_if_eq
        .iter()
        .map(|(a, b)| quote!((#a, #b)));
    let exclusive = relations.exclusive;
    let overrides = &relations.overrides_with;
    if conflicts.is_empty()
        && overrides.is_empty()
        && requires.is_empty()
        && unless_any.is_empty()
        && unless_all.is_empty()
        && relations.required_if_eq.is_empty()
        && !exclusive
    {
        return quote!(#p::RelationData::NONE);
    }
    quote! {
        #p::RelationData {
            conflicts_with: &[#(#conflicts),*],
            requires: &[#(#requires),*],
            required_unless_any: &[#(#unless_any),*],
            required_unless_all: &[#(#unless_all),*],
            required_if_eq: &[#(#if_eq),*],
            exclusive: #exclusive,
            overrides_with: &[#(#overrides),*],
        }
    }
}

/// Tokens building the runtime `GroupSpec`s of a struct: its
/// `#[group(...)]`, and the implicit groups its arguments name.
fn group_specs(
    p: &Private,
    cmd: &TokenStream,
    groups: &[&GroupDecl],
    member_ids: &[(String, Vec<String>)],
    struct_members: bool,
) -> TokenStream {
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
        #(#cmd.declare_group(#specs);)*
        #(#implicit)*
    }
}
