//! Doc comments → help texts, exactly as clap's derive turns them into
//! `about`/`long_about` (and `help`/`long_help`).

use syn::Attribute;

use super::attr::names;

/// The help texts a doc comment gives: the short one and, when the comment
/// has several paragraphs, the long one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct DocHelp {
    pub(crate) short: Option<String>,
    pub(crate) long: Option<String>,
    /// Whether there was a doc comment at all (it then overrides both).
    pub(crate) present: bool,
}

fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident(names::DOC))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(syn::MetaNameValue {
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }),
                ..
            }) => Some(s.value()),
            _ => None,
        })
        .skip_while(|s| is_blank(s))
        .flat_map(|s| {
            s.split('\n')
                .map(|line| line.strip_prefix(' ').unwrap_or(line).to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    while lines.last().is_some_and(|s| is_blank(s)) {
        lines.pop();
    }
    lines
}

/// The help texts of the doc comment in `attrs`. With `force_long` (a bare
/// `long_help` or `long_about`), a one-paragraph comment is the long help
/// too, as clap's derive makes it (the period kept there).
pub(crate) fn doc_help(attrs: &[Attribute], verbatim: bool, force_long: bool) -> DocHelp {
    let lines = doc_lines(attrs);
    if lines.is_empty() {
        return DocHelp::default();
    }
    let (short, long) = if verbatim {
        match lines.iter().position(|s| is_blank(s)) {
            Some(first_blank) => (lines[..first_blank].join("\n"), Some(lines.join("\n"))),
            None => {
                let short = lines.join("\n");
                let long = force_long.then(|| short.clone());
                (short, long)
            }
        }
    } else if lines.iter().any(|s| is_blank(s)) {
        let paragraphs = split_paragraphs(&lines);
        (
            remove_period(paragraphs[0].clone()),
            Some(paragraphs.join("\n\n")),
        )
    } else {
        let short = merge_lines(&lines);
        let long = force_long.then(|| short.clone());
        (remove_period(short), long)
    };
    DocHelp {
        short: Some(short),
        long,
        present: true,
    }
}

fn split_paragraphs(lines: &[String]) -> Vec<String> {
    let mut paragraphs = Vec::new();
    let mut current: Vec<&String> = Vec::new();
    for line in lines {
        if is_blank(line) {
            if !current.is_empty() {
                paragraphs.push(merge_lines(current.drain(..)));
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(merge_lines(current));
    }
    paragraphs
}

fn merge_lines(lines: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    lines
        .into_iter()
        .map(|s| s.as_ref().trim().to_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

fn remove_period(mut s: String) -> String {
    if s.ends_with('.') && !s.ends_with("..") {
        s.pop();
    }
    s
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}
