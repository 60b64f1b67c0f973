//! Custom types: a `value_parser`, `McpValue`, or `#[mcp(skip)]` with a
//! typed default.
use clap::Parser;
use mcp_bridge::{convert::Text, McpTool, McpValue};

#[derive(Clone, Debug, PartialEq)]
struct Label(String);

impl From<&str> for Label {
    fn from(text: &str) -> Self {
        Label(text.to_owned())
    }
}

impl From<String> for Label {
    fn from(text: String) -> Self {
        Label(text)
    }
}

/// Only clap can read it: `From<&str>`.
#[derive(Clone, Debug, PartialEq)]
struct Color(String);

impl From<&str> for Color {
    fn from(text: &str) -> Self {
        Color(text.to_owned())
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Default for Color {
    fn default() -> Self {
        Color("black".into())
    }
}

/// Converted by a converter of the user's.
#[derive(Clone, Debug, PartialEq)]
struct Tag(String);

impl From<&str> for Tag {
    fn from(text: &str) -> Self {
        Tag(text.to_owned())
    }
}

impl From<String> for Tag {
    fn from(text: String) -> Self {
        Tag(text)
    }
}

impl McpValue for Tag {
    type Converter = Text<Tag>;
    fn converter() -> Text<Tag> {
        Text::new()
    }
}

fn parse_pair(text: &str) -> Result<(String, u32), String> {
    let (key, value) = text.split_once('=').ok_or("expected KEY=VALUE")?;
    Ok((key.to_owned(), value.parse().map_err(|_| "not a number")?))
}

#[derive(Parser, McpTool)]
#[command(name = "app")]
struct Cli {
    #[arg(long)]
    label: Label,
    #[arg(long, default_value_t = Color("white".into()))]
    #[mcp(skip)]
    color: Color,
    #[arg(long, default_value_t)]
    #[mcp(skip)]
    background: Color,
    #[arg(long)]
    #[mcp(skip)]
    accent: Option<Color>,
    #[arg(long)]
    tag: Tag,
    #[arg(long, value_parser = parse_pair)]
    limits: Vec<(String, u32)>,
}

fn main() {
    let registry = mcp_bridge::Registry::<Cli>::new().unwrap();
    let args = serde_json::json!({ "label": "a", "tag": "b", "limits": { "cpu": 2 } });
    let cli = registry.build("app", args.as_object().unwrap()).unwrap();
    assert_eq!(cli.label, Label("a".into()));
    assert_eq!(cli.color, Color("white".into()));
    assert_eq!(cli.background, Color("black".into()));
    assert_eq!(cli.accent, None);
    assert_eq!(cli.tag, Tag("b".into()));
    assert_eq!(cli.limits, [("cpu".to_owned(), 2)]);
}
