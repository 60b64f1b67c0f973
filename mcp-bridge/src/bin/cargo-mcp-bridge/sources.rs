//! A package's Rust files read with syn, and what `adopt` and `remove`
//! look for in them: the types deriving clap's `Parser`, `Args` or
//! `Subcommand`, the call that parses the CLI's value, and the forms
//! `adopt` writes. Places are byte ranges of the file's text, so that the
//! files are edited where they were read and nothing else changes.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::edit::Edit;
use crate::forms;

/// clap's derives that `McpTool` goes beside.
const CLAP_DERIVES: [&str; 3] = ["Parser", "Args", "Subcommand"];
/// clap's helper attributes: a type carrying one derives from clap.
const CLAP_ATTRIBUTES: [&str; 4] = ["command", "clap", "arg", "group"];
/// clap's functions that parse a command line into a value.
pub(crate) const PARSE_FUNCTIONS: [&str; 4] =
    ["parse", "try_parse", "parse_from", "try_parse_from"];
/// clap's methods of a `Command` that parse a command line into matches,
/// taking the command by value (those on `&mut Command` are left for the
/// maintainer: `&mut` of the receiver is not always what it needs).
pub(crate) const MATCHES_METHODS: [&str; 4] = [
    "get_matches",
    "try_get_matches",
    "get_matches_from",
    "try_get_matches_from",
];

/// A Rust file and its syntax tree.
pub(crate) struct File {
    pub(crate) path: PathBuf,
    pub(crate) text: String,
    /// Where what syn parsed starts: after a byte-order mark and a `#!`
    /// line, which syn leaves out.
    skip: usize,
    syntax: syn::File,
}

/// Reads and parses `path`; the error names the file and the place.
pub(crate) fn read(path: &Path) -> Result<File, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("{}: cannot read it: {error}", path.display()))?;
    let mut skip = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if text[skip..].starts_with("#!") && !text[skip..].starts_with("#![") {
        skip += text[skip..].find('\n').unwrap_or(text.len() - skip);
    }
    let syntax = syn::parse_str::<syn::File>(&text[skip..]).map_err(|error| {
        let at = error.span().start();
        format!(
            "{}:{}:{}: cannot parse it: {error}",
            path.display(),
            at.line,
            at.column + 1
        )
    })?;
    Ok(File {
        path: path.to_owned(),
        text,
        skip,
        syntax,
    })
}

/// A type deriving clap's `Parser`, `Args` or `Subcommand`.
#[derive(Debug)]
pub(crate) struct Derived {
    pub(crate) name: String,
    /// It derives `Parser`: a CLI's root.
    pub(crate) parser: bool,
    pub(crate) debug: bool,
    /// A derive list of it holds `McpTool` already.
    pub(crate) adopted: bool,
    /// The first derive list holding clap's derive.
    pub(crate) list: DeriveList,
    /// Where a test module of it goes: the end of the inline module it is
    /// declared in (so that `super::Name` reaches it, private or not), with
    /// that module's indentation; `None`: the end of the file.
    pub(crate) tests_at: Option<Place>,
}

/// A place in a file's text, and the indentation of the lines there.
pub(crate) type Place = (usize, String);

/// A `#[derive(...)]` list, alone or in a `#[cfg_attr(...)]`.
#[derive(Debug)]
pub(crate) struct DeriveList {
    /// The end of its last derive.
    pub(crate) last_end: usize,
    /// The whole attribute, `#[` to `]`.
    pub(crate) attribute: Range<usize>,
    /// The text of the `cfg_attr` condition it is under.
    pub(crate) cfg: Option<String>,
}

/// `Type::parse()`, `Type::try_parse_from(args)`..., or clap's
/// `get_matches*` on the type's command (`Type::command().get_matches()`,
/// or a variable bound to it).
#[derive(Debug)]
pub(crate) struct Call {
    pub(crate) ty: String,
    /// The type's name (its path's last segment).
    pub(crate) name: String,
    pub(crate) function: String,
    /// The command a `get_matches*` method is called on.
    pub(crate) receiver: Option<String>,
    pub(crate) args: String,
    pub(crate) at: Range<usize>,
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// Already `mcp_bridge::parse::<Type>()` (in one of the forms adopt
    /// writes).
    pub(crate) bridged: bool,
    /// It is in a function named `main`.
    pub(crate) in_main: bool,
}

impl Call {
    /// It parses the process's own arguments: `parse()`, `get_matches()`,
    /// or arguments from `args()`/`args_os()` (`std::env`'s, `wild`'s),
    /// rather than words of the CLI's own (a config file's).
    pub(crate) fn own_arguments(&self) -> bool {
        let called = |name: &str| {
            self.args.match_indices(name).any(|(at, _)| {
                !self.args[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        };
        self.args.trim().is_empty() || called("args_os()") || called("args()")
    }

    /// clap's call, shortened: `Cli::parse()`, `cmd.get_matches_from(..)`.
    pub(crate) fn clap_text(&self) -> String {
        forms::clap_call(
            &self.ty,
            &self.function,
            self.receiver.as_deref(),
            self.short_args(),
        )
    }

    /// The bridge's call, shortened.
    pub(crate) fn bridged_text(&self) -> String {
        forms::bridged_call(
            &self.ty,
            &self.function,
            self.receiver.as_deref(),
            self.short_args(),
        )
    }

    fn short_args(&self) -> &'static str {
        if self.args.trim().is_empty() {
            ""
        } else {
            ".."
        }
    }
}

/// What one file holds.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    pub(crate) derived: Vec<Derived>,
    pub(crate) calls: Vec<Call>,
    /// The forms `adopt` wrote, each with the edit that takes it back.
    pub(crate) undo: Vec<Edit>,
    /// The test module `adopt` adds is there.
    pub(crate) tests: bool,
    /// It declares a binary's `fn main` (at its top level).
    pub(crate) has_main: bool,
    /// The modules declared here for tests only (`#[cfg(test)] mod x;`),
    /// whose files are test code.
    pub(crate) test_modules: Vec<String>,
}

impl File {
    /// What the file holds.
    pub(crate) fn scan(&self) -> Scan {
        let mut imports = Imports::default();
        imports.visit_file(&self.syntax);
        let mut scanner = Scanner {
            file: self,
            imports,
            scan: Scan::default(),
            modules: Vec::new(),
            impls: Vec::new(),
            functions: Vec::new(),
            commands: Vec::new(),
            trait_impls: Vec::new(),
            annotated: None,
        };
        scanner.visit_file(&self.syntax);
        // `Self` in a trait's own method: the type implementing the trait,
        // when one type of this file does (as written there, so in scope).
        let trait_impls = std::mem::take(&mut scanner.trait_impls);
        let mut scan = scanner.scan;
        scan.calls.retain_mut(|call| {
            let Some(name) = call.name.strip_prefix(IN_TRAIT) else {
                return true;
            };
            // `Self::parse()` there has no drop-in `remove` could write
            // back as it was: only a method on the command is taken.
            if call.receiver.is_none() {
                return false;
            }
            let mut implementors = trait_impls.iter().filter(|(t, _, _)| t == name);
            match (implementors.next(), implementors.next()) {
                (Some((_, ty, name)), None) => {
                    call.ty = ty.clone();
                    call.name = name.clone();
                    true
                }
                _ => false,
            }
        });
        scan
    }

    /// The byte range of `node` in the text.
    fn range(&self, node: &impl Spanned) -> Range<usize> {
        let range = node.span().byte_range();
        range.start + self.skip..range.end + self.skip
    }

    fn slice(&self, node: &impl Spanned) -> &str {
        &self.text[self.range(node)]
    }

    /// The line and column (from 1) of a byte.
    pub(crate) fn line_column(&self, at: usize) -> (usize, usize) {
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[before.len() - column..].chars().count() + 1)
    }
}

/// The names the file imports from clap (`*` for a glob), and those of
/// clap's derives imported under another name.
#[derive(Default)]
struct Imports {
    names: BTreeSet<String>,
    renamed: BTreeMap<String, String>,
}

impl Imports {
    fn collect(&mut self, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => self.collect(&path.tree),
            syn::UseTree::Name(name) => {
                self.names.insert(name.ident.to_string());
            }
            syn::UseTree::Rename(rename) => {
                self.renamed
                    .insert(rename.rename.to_string(), rename.ident.to_string());
            }
            syn::UseTree::Glob(_) => {
                self.names.insert("*".to_owned());
            }
            syn::UseTree::Group(group) => group.items.iter().for_each(|tree| self.collect(tree)),
        }
    }
}

impl<'ast> Visit<'ast> for Imports {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // `use clap::{Parser, Subcommand};`, `use clap::Parser as P;`...
        let mut tree = &item.tree;
        if let syn::UseTree::Path(path) = tree {
            if path.ident == "clap" {
                tree = &path.tree;
                self.collect(tree);
            }
        }
    }
}

struct Scanner<'a> {
    file: &'a File,
    imports: Imports,
    scan: Scan,
    /// The inline modules the visit is in: where a test module goes in
    /// each (the start of its closing brace's line, with the indentation
    /// of its items), if its brace is on a line of its own.
    modules: Vec<Option<(usize, String)>>,
    /// The types of the `impl` blocks the visit is in (a trait's own
    /// methods: `IN_TRAIT` and the trait's name).
    impls: Vec<String>,
    /// The functions the visit is in.
    functions: Vec<String>,
    /// Variables bound to a CLI type's command (`let cmd =
    /// Cli::command();`) in the functions the visit is in: the name, the
    /// type as written and its name.
    commands: Vec<(String, String, String)>,
    /// `impl Trait for Type` in the file: the trait's name, the type as
    /// written and its name.
    trait_impls: Vec<(String, String, String)>,
    /// The `let` with a type whose value the visit is in (`let cli: Cli =
    /// ...`): where its value starts, and the type's name.
    annotated: Option<(usize, String)>,
}

/// clap's functions making a type's command: `Cli::command()`...
const COMMAND_FUNCTIONS: [&str; 2] = ["command", "command_for_update"];
/// ... or adding its arguments to one: `Cli::augment_args(cmd)`.
const AUGMENT_FUNCTIONS: [&str; 4] = [
    "augment_args",
    "augment_args_for_update",
    "augment_subcommands",
    "augment_subcommands_for_update",
];

/// What stands for `Self` in a trait's own methods, before the trait's
/// name.
const IN_TRAIT: &str = "trait ";

/// The derives of one list, with its place.
struct ListFound {
    paths: Vec<syn::Path>,
    list: DeriveList,
    /// The list is a `cfg_attr` of `adopt`'s: `derive(mcp_bridge::McpTool)`
    /// alone.
    ours_alone: bool,
}

impl Scanner<'_> {
    /// The derive lists among `attrs`.
    fn derive_lists(&self, attrs: &[syn::Attribute]) -> Vec<ListFound> {
        let paths = |meta: &syn::MetaList| {
            meta.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .map(|paths| paths.into_iter().collect::<Vec<_>>())
                .unwrap_or_default()
        };
        let mut found = Vec::new();
        for attr in attrs {
            let attribute = self.file.range(attr);
            match &attr.meta {
                syn::Meta::List(list) if list.path.is_ident("derive") => {
                    let paths = paths(list);
                    if let Some(last) = paths.last() {
                        found.push(ListFound {
                            list: DeriveList {
                                last_end: self.file.range(last).end,
                                attribute,
                                cfg: None,
                            },
                            paths,
                            ours_alone: false,
                        });
                    }
                }
                syn::Meta::List(list) if list.path.is_ident("cfg_attr") => {
                    let parsed = list.parse_args_with(|input: syn::parse::ParseStream<'_>| {
                        let condition: syn::Meta = input.parse()?;
                        input.parse::<syn::Token![,]>()?;
                        let metas =
                            Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated(input)?;
                        Ok((condition, metas))
                    });
                    let Ok((condition, metas)) = parsed else {
                        continue;
                    };
                    let cfg = self.file.slice(&condition).to_owned();
                    let ours_alone = metas.len() == 1
                        && same_tokens(self.file.slice(attr), &forms::cfg_attr_derive(&cfg));
                    for meta in &metas {
                        let syn::Meta::List(inner) = meta else {
                            continue;
                        };
                        if !inner.path.is_ident("derive") {
                            continue;
                        }
                        let paths = paths(inner);
                        if let Some(last) = paths.last() {
                            found.push(ListFound {
                                list: DeriveList {
                                    last_end: self.file.range(last).end,
                                    attribute: attribute.clone(),
                                    cfg: Some(cfg.clone()),
                                },
                                paths,
                                ours_alone,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// The clap derive `path` names, if it names one: `clap::Parser`, a
    /// name the file imports from clap (or under another name), or any of
    /// the three on a type carrying clap's attributes.
    fn clap_derive(&self, path: &syn::Path, clap_attributes: bool) -> Option<String> {
        let last = path.segments.last()?.ident.to_string();
        if path.segments.len() > 1 {
            let from_clap = path.segments[0].ident == "clap";
            return (from_clap && CLAP_DERIVES.contains(&last.as_str())).then_some(last);
        }
        if let Some(original) = self.imports.renamed.get(&last) {
            return CLAP_DERIVES
                .contains(&original.as_str())
                .then(|| original.clone());
        }
        let imported = self.imports.names.contains(&last) || self.imports.names.contains("*");
        (CLAP_DERIVES.contains(&last.as_str()) && (imported || clap_attributes)).then_some(last)
    }

    fn item(
        &mut self,
        ident: &syn::Ident,
        attrs: &[syn::Attribute],
        inner: Vec<&[syn::Attribute]>,
    ) {
        let has_clap_attribute = |attrs: &[syn::Attribute]| {
            attrs.iter().any(|attr| {
                CLAP_ATTRIBUTES
                    .iter()
                    .any(|name| attr.path().is_ident(name))
            })
        };
        let clap_attributes =
            has_clap_attribute(attrs) || inner.iter().any(|attrs| has_clap_attribute(attrs));
        let lists = self.derive_lists(attrs);
        let named = |lists: &[ListFound], name: &str| {
            lists.iter().any(|found| {
                found
                    .paths
                    .iter()
                    .any(|p| p.segments.last().is_some_and(|s| s.ident == name))
            })
        };
        for found in &lists {
            self.undo_ours(found);
        }
        let derives = |found: &ListFound| -> Vec<String> {
            let paths = found.paths.iter();
            paths
                .filter_map(|p| self.clap_derive(p, clap_attributes))
                .collect()
        };
        let Some(clap) = lists.iter().find(|found| !derives(found).is_empty()) else {
            return;
        };
        let parser = lists
            .iter()
            .any(|found| derives(found).iter().any(|d| d == "Parser"));
        self.scan.derived.push(Derived {
            name: ident.to_string(),
            parser,
            debug: named(&lists, "Debug"),
            adopted: named(&lists, "McpTool"),
            list: DeriveList {
                last_end: clap.list.last_end,
                attribute: clap.list.attribute.clone(),
                cfg: clap.list.cfg.clone(),
            },
            tests_at: self.modules.last().cloned().flatten(),
        });
    }

    /// Visits a function's body: named while it is visited, and the
    /// commands bound in it forgotten after it.
    fn in_function(&mut self, name: &syn::Ident, visit: impl FnOnce(&mut Self)) {
        self.functions.push(name.to_string());
        let commands = self.commands.len();
        visit(self);
        self.commands.truncate(commands);
        self.functions.pop();
    }

    fn in_main(&self) -> bool {
        self.functions.iter().any(|name| name == "main")
    }

    /// The edit taking back `adopt`'s derive in `found`, if it is there.
    fn undo_ours(&mut self, found: &ListFound) {
        for path in &found.paths {
            if self.file.slice(path) != forms::DERIVE {
                continue;
            }
            let at = self.file.range(path);
            if found.ours_alone {
                // `\n<indent>#[cfg_attr(..., derive(mcp_bridge::McpTool))]`
                let start = found.list.attribute.start;
                let indent = self.file.text[..start].trim_end_matches([' ', '\t']);
                if indent.ends_with('\n') {
                    self.scan
                        .undo
                        .push(Edit::delete(indent.len() - 1..found.list.attribute.end));
                }
            } else if let Some(comma) = self.file.text[..at.start].trim_end().strip_suffix(',') {
                // `, mcp_bridge::McpTool` as written, or as a formatter
                // left it (`,\n    mcp_bridge::McpTool`).
                self.scan.undo.push(Edit::delete(comma.len()..at.end));
            }
        }
    }

    /// The derive lists in a macro's tokens (`macro_rules!` bodies that
    /// declare clap types): `#[derive(...)]` whose derives parse as paths.
    fn macro_lists(&mut self, tokens: proc_macro2::TokenStream) {
        use proc_macro2::{Delimiter, TokenTree};
        use syn::parse::Parser as _;
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, tree) in trees.iter().enumerate() {
            let TokenTree::Group(group) = tree else {
                continue;
            };
            let after_pound =
                i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '#');
            if group.delimiter() == Delimiter::Bracket && after_pound {
                let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                if let [TokenTree::Ident(derive), TokenTree::Group(list)] = inner.as_slice() {
                    if derive == "derive" && list.delimiter() == Delimiter::Parenthesis {
                        let parsed = Punctuated::<syn::Path, syn::Token![,]>::parse_terminated
                            .parse2(list.stream());
                        let paths: Vec<syn::Path> =
                            parsed.map(|p| p.into_iter().collect()).unwrap_or_default();
                        let pound = self.file.range(&trees[i - 1]);
                        let end = self.file.range(group).end;
                        if let Some(last) = paths.last() {
                            let found = ListFound {
                                list: DeriveList {
                                    last_end: self.file.range(last).end,
                                    attribute: pound.start..end,
                                    cfg: None,
                                },
                                paths,
                                ours_alone: false,
                            };
                            self.undo_ours(&found);
                            let clap = found
                                .paths
                                .iter()
                                .any(|p| self.clap_derive(p, false).is_some());
                            if clap {
                                let named = |name: &str| {
                                    found
                                        .paths
                                        .iter()
                                        .any(|p| p.segments.last().is_some_and(|s| s.ident == name))
                                };
                                self.scan.derived.push(Derived {
                                    name: String::new(),
                                    parser: false,
                                    debug: named("Debug"),
                                    adopted: named("McpTool"),
                                    list: found.list,
                                    tests_at: None,
                                });
                            }
                        }
                        continue;
                    }
                }
            }
            self.macro_lists(group.stream());
        }
    }

    /// `Type::parse(..)` and its kin, and `mcp_bridge::parse::<Type>(..)`.
    fn call(&mut self, call: &syn::ExprCall) {
        let syn::Expr::Path(func) = &*call.func else {
            return;
        };
        if func.qself.is_some() || func.path.segments.len() < 2 {
            return;
        }
        let segments = &func.path.segments;
        let last = &segments[segments.len() - 1];
        let function = last.ident.to_string();
        if !PARSE_FUNCTIONS.contains(&function.as_str())
            && !MATCHES_METHODS.contains(&function.as_str())
        {
            return;
        }
        let at = self.file.range(call);
        let open = call.paren_token.span.open().byte_range().end + self.file.skip;
        let close = call.paren_token.span.close().byte_range().start + self.file.skip;
        let mut args = self.file.text[open..close].to_owned();
        let (line, column) = self.file.line_column(at.start);
        let matches = MATCHES_METHODS.contains(&function.as_str());
        let mut receiver = None;
        // The edit taking back a form of adopt's: kept only once the call
        // is known to be one.
        let mut undo = None;
        let (ty, name, bridged) = if segments.len() == 2 && segments[0].ident == "mcp_bridge" {
            // `mcp_bridge::parse::<Type>(..)`, as adopt wrote it.
            let syn::PathArguments::AngleBracketed(generics) = &last.arguments else {
                return;
            };
            let Some(syn::GenericArgument::Type(ty)) = generics.args.first() else {
                return;
            };
            let ty_text = self.file.slice(ty).to_owned();
            // `mcp_bridge::get_matches_from::<Type>(command, args)`: the
            // command first, then clap's arguments.
            if matches {
                let Some(first) = call.args.first() else {
                    return;
                };
                receiver = Some(self.file.slice(first).to_owned());
                // clap's arguments as written: what follows the comma
                // after the command, less the one space adopt writes.
                let comma = call
                    .args
                    .pairs()
                    .next()
                    .and_then(|pair| pair.punct().copied());
                args = match comma {
                    Some(comma) => {
                        let after = comma.span.byte_range().end + self.file.skip;
                        let rest = &self.file.text[after..close];
                        rest.strip_prefix(' ').unwrap_or(rest).to_owned()
                    }
                    None => String::new(),
                };
            }
            let written = forms::bridged_call(&ty_text, &function, receiver.as_deref(), &args);
            if !same_tokens(&self.file.text[at.clone()], &written) {
                return;
            }
            undo = Some(Edit::replace(
                at.clone(),
                forms::clap_call(&ty_text, &function, receiver.as_deref(), &args),
            ));
            let name = match ty {
                // `mcp_bridge::parse::<_>()`: the type a `let` gives.
                syn::Type::Infer(_) => match &self.annotated {
                    Some((at_value, name)) if *at_value == at.start => name.clone(),
                    _ => return,
                },
                ty => type_name(ty),
            };
            (ty_text, name, true)
        } else {
            // `Type::parse(..)`.
            if matches || !matches!(last.arguments, syn::PathArguments::None) {
                return;
            }
            // `let cli: Cli = Parser::parse();`: clap's trait, the type
            // the `let` gives.
            if segments.len() == 2 && segments[0].ident == "Parser" {
                // The call must be the value (`?` or `.unwrap()` after it
                // are fine), not an argument inside it.
                let value = self
                    .annotated
                    .as_ref()
                    .filter(|(at_value, _)| *at_value == at.start);
                let Some((_, name)) = value else {
                    return;
                };
                let inferred = forms::INFERRED;
                if self.file.text[at.clone()] != forms::clap_call(inferred, &function, None, &args)
                {
                    return;
                }
                let name = name.clone();
                self.push_call(Call {
                    name,
                    ty: inferred.to_owned(),
                    function,
                    receiver,
                    args,
                    at,
                    line,
                    column,
                    bridged: false,
                    in_main: self.in_main(),
                });
                return;
            }
            let ty = &segments[segments.len() - 2];
            let ty_text = self.file.text[at.start..self.file.range(ty).end].to_owned();
            if self.file.text[at.clone()] != forms::clap_call(&ty_text, &function, None, &args) {
                return;
            }
            (ty_text, ty.ident.to_string(), false)
        };
        // `Self` in the type's own `impl`.
        let name = match name {
            name if name == "Self" => match self.impls.last() {
                Some(ty) => ty.clone(),
                None => return,
            },
            name => name,
        };
        self.scan.undo.extend(undo);
        self.push_call(Call {
            name,
            ty,
            function,
            receiver,
            args,
            at,
            line,
            column,
            bridged,
            in_main: self.in_main(),
        });
    }

    fn push_call(&mut self, call: Call) {
        self.scan.calls.push(call);
    }

    /// `command.get_matches_from(args)` and its kin, on a CLI type's
    /// command.
    fn method_call(&mut self, call: &syn::ExprMethodCall) {
        let function = call.method.to_string();
        if !MATCHES_METHODS.contains(&function.as_str()) || call.turbofish.is_some() {
            return;
        }
        let Some((ty, name)) = self.command_of(&call.receiver) else {
            return;
        };
        let at = self.file.range(call);
        let receiver = self.file.slice(&*call.receiver).to_owned();
        let open = call.paren_token.span.open().byte_range().end + self.file.skip;
        let close = call.paren_token.span.close().byte_range().start + self.file.skip;
        let args = self.file.text[open..close].to_owned();
        if self.file.text[at.clone()] != forms::clap_call(&ty, &function, Some(&receiver), &args) {
            return;
        }
        let (line, column) = self.file.line_column(at.start);
        self.scan.calls.push(Call {
            name,
            ty,
            function,
            receiver: Some(receiver),
            args,
            at,
            line,
            column,
            bridged: false,
            in_main: self.in_main(),
        });
    }

    /// The CLI type whose command `expr` is, or is made from: it calls
    /// `Type::command()` (or `Type::augment_args(cmd)`), or names a
    /// variable bound to such a command.
    /// The type as written, and its name (`Self` in the type's `impl`).
    fn command_of(&self, expr: &syn::Expr) -> Option<(String, String)> {
        match expr {
            // Down the chain of methods to the command they are called on
            // (`Cli::command().args_override_self(true)`), never into
            // their arguments (`.subcommand(Other::command())`).
            syn::Expr::MethodCall(call) => self.command_of(&call.receiver),
            syn::Expr::Paren(inner) => self.command_of(&inner.expr),
            syn::Expr::Reference(inner) => self.command_of(&inner.expr),
            syn::Expr::Path(path) => {
                let ident = path.path.get_ident()?.to_string();
                self.commands
                    .iter()
                    .rev()
                    .find(|(bound, _, _)| *bound == ident)
                    .map(|(_, ty, name)| (ty.clone(), name.clone()))
            }
            syn::Expr::Call(call) => {
                let syn::Expr::Path(func) = &*call.func else {
                    return None;
                };
                let segments = &func.path.segments;
                let n = segments.len();
                if func.qself.is_some() || n < 2 {
                    return None;
                }
                let function = segments[n - 1].ident.to_string();
                // `Command::clone(&cmd)`: the command cloned.
                if function == "clone" && call.args.len() == 1 {
                    return self.command_of(&call.args[0]);
                }
                let makes = match call.args.len() {
                    0 => COMMAND_FUNCTIONS.contains(&function.as_str()),
                    1 => AUGMENT_FUNCTIONS.contains(&function.as_str()),
                    _ => false,
                };
                if !makes || !matches!(segments[n - 1].arguments, syn::PathArguments::None) {
                    return None;
                }
                let start = self.file.range(&func.path).start;
                let ty = self.file.text[start..self.file.range(&segments[n - 2]).end].to_owned();
                let name = match segments[n - 2].ident.to_string() {
                    name if name == "Self" => self.impls.last().cloned()?,
                    name => name,
                };
                Some((ty, name))
            }
            _ => None,
        }
    }

    /// The block `adopt --feature` writes in place of a parse call.
    fn feature_block(&mut self, block: &syn::ExprBlock) -> bool {
        let stmts = &block.block.stmts;
        if stmts.len() != 3 {
            return false;
        }
        let syn::Stmt::Local(local) = &stmts[0] else {
            return false;
        };
        let Some(init) = &local.init else {
            return false;
        };
        let syn::Expr::Call(first) = &*init.expr else {
            return false;
        };
        let Some(syn::Meta::List(cfg)) = local.attrs.first().map(|a| &a.meta) else {
            return false;
        };
        let Ok(syn::Meta::NameValue(feature)) = cfg.parse_args::<syn::Meta>() else {
            return false;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(feature),
            ..
        }) = &feature.value
        else {
            return false;
        };
        let before = self.scan.calls.len();
        let undo = self.scan.undo.len();
        // `let cli: Cli = { ... let cli = mcp_bridge::parse::<_>(); ... }`:
        // the type the outer `let` gives is the inner call's.
        let block_start = self.file.range(block).start;
        let outer = self.annotated.clone();
        if let Some((at_value, name)) = &outer {
            if *at_value == block_start {
                self.annotated = Some((self.file.range(first).start, name.clone()));
            }
        }
        self.call(first);
        self.annotated = outer;
        let Some(call) = self.scan.calls.get(before).filter(|call| call.bridged) else {
            self.scan.calls.truncate(before);
            self.scan.undo.truncate(undo);
            return false;
        };
        let at = self.file.range(block);
        let receiver = call.receiver.as_deref();
        let written = forms::feature_call(
            &feature.value(),
            &call.ty,
            &call.function,
            receiver,
            &call.args,
        );
        self.scan.undo.truncate(undo);
        if !same_tokens(&self.file.text[at.clone()], &written) {
            self.scan.calls.truncate(before);
            return false;
        }
        let original = forms::clap_call(&call.ty, &call.function, receiver, &call.args);
        self.scan.undo.push(Edit::replace(at.clone(), original));
        let call = &mut self.scan.calls[before];
        call.at = at;
        true
    }
}

/// Whether `attrs` make an item test code: `#[test]`, `#[cfg(test)]`
/// (also inside `all(...)`).
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("test")
            || (attr.path().is_ident("cfg")
                && attr
                    .parse_args::<proc_macro2::TokenStream>()
                    .is_ok_and(|tokens| {
                        let text = tokens.to_string();
                        text == "test"
                            || (text.starts_with("all")
                                && text.contains("test")
                                && !text.contains("not"))
                    }))
    })
}

/// Whether two texts are the same tokens, however spaced: a form
/// `adopt` wrote is found after a formatter ran.
fn same_tokens(a: &str, b: &str) -> bool {
    match (
        a.parse::<proc_macro2::TokenStream>(),
        b.parse::<proc_macro2::TokenStream>(),
    ) {
        (Ok(a), Ok(b)) => a.to_string() == b.to_string(),
        _ => false,
    }
}

/// The last segment of a type's path.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

impl<'ast> Visit<'ast> for Scanner<'_> {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        let fields = item.fields.iter().map(|f| f.attrs.as_slice()).collect();
        self.item(&item.ident, &item.attrs, fields);
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        let mut inner: Vec<&[syn::Attribute]> = Vec::new();
        for variant in &item.variants {
            inner.push(&variant.attrs);
            inner.extend(variant.fields.iter().map(|f| f.attrs.as_slice()));
        }
        self.item(&item.ident, &item.attrs, inner);
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.ident == forms::TESTS && self.file.slice(item).contains(forms::TESTS_MARK) {
            // Its lines, the blank line `adopt` put before it, and its
            // line end.
            let at = self.file.range(item);
            let text = &self.file.text;
            let line = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
            let mut start = at.start;
            if text[line..at.start].trim().is_empty() {
                start = line;
                if text[..start].ends_with("\n\n") {
                    start -= 1;
                }
            }
            let end = if text[at.end..].starts_with('\n') {
                at.end + 1
            } else {
                at.end
            };
            self.scan.tests = true;
            self.scan.undo.push(Edit::delete(start..end));
            return;
        }
        // Test code: its parses and its types are not the CLI's.
        if is_test(&item.attrs) {
            if item.content.is_none() {
                self.scan.test_modules.push(item.ident.to_string());
            }
            return;
        }
        let inside = item.content.as_ref().map(|(brace, _)| {
            let text = &self.file.text;
            let close = brace.span.close().byte_range().start + self.file.skip;
            let line = text[..close].rfind('\n').map_or(0, |i| i + 1);
            let start = self.file.range(item).start;
            let own_line = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let indent: String = text[own_line..]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            text[line..close]
                .trim()
                .is_empty()
                .then(|| (line, format!("{indent}    ")))
        });
        match inside {
            Some(place) => {
                self.modules.push(place);
                syn::visit::visit_item_mod(self, item);
                self.modules.pop();
            }
            None => syn::visit::visit_item_mod(self, item),
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        if item.sig.ident == "main" && self.functions.is_empty() && self.modules.is_empty() {
            self.scan.has_main = true;
        }
        self.in_function(&item.sig.ident, |this| {
            syn::visit::visit_item_fn(this, item)
        });
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.in_function(&item.sig.ident, |this| {
            syn::visit::visit_impl_item_fn(this, item)
        });
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let ty = match &*item.self_ty {
            syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        if let (Some((None, path, _)), Some(name)) = (&item.trait_, &ty) {
            if let Some(last) = path.segments.last() {
                self.trait_impls.push((
                    last.ident.to_string(),
                    self.file.slice(&*item.self_ty).to_owned(),
                    name.clone(),
                ));
            }
        }
        self.impls.push(ty.unwrap_or_default());
        syn::visit::visit_item_impl(self, item);
        self.impls.pop();
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.impls.push(format!("{IN_TRAIT}{}", item.ident));
        syn::visit::visit_item_trait(self, item);
        self.impls.pop();
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.in_function(&item.sig.ident, |this| {
            syn::visit::visit_trait_item_fn(this, item)
        });
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.macro_lists(mac.tokens.clone());
    }

    fn visit_expr_block(&mut self, block: &'ast syn::ExprBlock) {
        if !self.feature_block(block) {
            syn::visit::visit_expr_block(self, block);
        }
    }

    fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
        self.call(call);
        syn::visit::visit_expr_call(self, call);
    }

    fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
        self.method_call(call);
        syn::visit::visit_expr_method_call(self, call);
    }

    /// `let cmd = Cli::command()...;`: `cmd` is the CLI's command.
    fn visit_local(&mut self, local: &'ast syn::Local) {
        let annotated = match (&local.pat, &local.init) {
            (syn::Pat::Type(typed), Some(init)) => {
                Some((self.file.range(&*init.expr).start, type_name(&typed.ty)))
            }
            _ => None,
        };
        let outer = std::mem::replace(&mut self.annotated, annotated);
        syn::visit::visit_local(self, local);
        self.annotated = outer;
        let ident = match &local.pat {
            syn::Pat::Ident(pat) => pat.ident.to_string(),
            syn::Pat::Type(typed) => match &*typed.pat {
                syn::Pat::Ident(pat) => pat.ident.to_string(),
                _ => return,
            },
            _ => return,
        };
        let command = local
            .init
            .as_ref()
            .and_then(|init| self.command_of(&init.expr));
        // A name bound again to something else is no longer the command.
        self.commands.retain(|(bound, _, _)| *bound != ident);
        if let Some((ty, name)) = command {
            self.commands.push((ident, ty, name));
        }
    }
}
