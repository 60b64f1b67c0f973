//! clap's naming rules: `rename_all` casings applied to field and variant
//! names (clap uses `heck`; so do we, for identical results).

use heck::{ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Casing {
    Camel,
    Kebab,
    Pascal,
    ScreamingSnake,
    Snake,
    Lower,
    Upper,
    Verbatim,
}

impl Casing {
    /// Reads a `rename_all` value the way clap does.
    pub(crate) fn parse(value: &str) -> Option<Self> {
        let normalized = value.to_upper_camel_case().to_lowercase();
        Some(match normalized.as_str() {
            "camel" | "camelcase" => Casing::Camel,
            "kebab" | "kebabcase" => Casing::Kebab,
            "pascal" | "pascalcase" => Casing::Pascal,
            "screamingsnake" | "screamingsnakecase" => Casing::ScreamingSnake,
            "snake" | "snakecase" => Casing::Snake,
            "lower" | "lowercase" => Casing::Lower,
            "upper" | "uppercase" => Casing::Upper,
            "verbatim" | "verbatimcase" => Casing::Verbatim,
            _ => return None,
        })
    }

    pub(crate) fn apply(self, name: &str) -> String {
        match self {
            Casing::Pascal => name.to_upper_camel_case(),
            Casing::Kebab => name.to_kebab_case(),
            Casing::Camel => name.to_lower_camel_case(),
            Casing::ScreamingSnake => name.to_shouty_snake_case(),
            Casing::Snake => name.to_snake_case(),
            Casing::Lower => name.to_snake_case().replace('_', ""),
            Casing::Upper => name.to_shouty_snake_case().replace('_', ""),
            Casing::Verbatim => name.to_owned(),
        }
    }

    /// The first character of the cased name (clap's bare `short`).
    pub(crate) fn apply_char(self, name: &str) -> Option<char> {
        let cased = match self {
            Casing::Lower => name.to_snake_case(),
            Casing::Upper => name.to_shouty_snake_case(),
            other => other.apply(name),
        };
        cased.chars().next()
    }
}

/// The casings an item's names are made with: `rename_all` for long names
/// and subcommands (kebab-case unless given), `rename_all_env` for the
/// variables a bare `env` names (SCREAMING_SNAKE_CASE unless given). A
/// type's apply to its fields and variants; a variant's or a field's own
/// override them there, as in clap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Naming {
    pub(crate) casing: Casing,
    pub(crate) env: Casing,
}

impl Naming {
    pub(crate) const DEFAULT: Naming = Naming {
        casing: Casing::Kebab,
        env: Casing::ScreamingSnake,
    };
}

/// A field or variant name without its `r#` prefix.
pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
