//! `mcp server-json`: the CLI's entry for the MCP Registry (`server.json`,
//! schema 2025-12-11): its crates.io package, run as `<bin> mcp serve`
//! over stdio, and the environment variables the CLI reads (clap's `env`),
//! read from clap's own `Command` as declared: never from the environment
//! of the machine that prints it, so no secret set there is published.

use serde_json::{json, Map, Value};

use crate::traits::Package;

/// The schema the printed document names.
pub(crate) const SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// The registry's limit on `description` and `title`.
const MAX_TEXT: usize = 100;

/// What the author gives on the command line.
#[derive(Debug, Default)]
pub(crate) struct Options {
    /// `io.github.<owner>/<name>` or a domain's reverse-DNS name.
    pub(crate) name: Option<String>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
}

/// The document, and warnings for its author.
pub(crate) struct Document {
    pub(crate) json: Value,
    pub(crate) warnings: Vec<String>,
}

/// The `server.json` of the CLI `cli` built in `package`, served as
/// `<pinned...> <bridge> serve`.
pub(crate) fn document(
    cli: &clap::Command,
    package: &Package,
    bridge: &str,
    pinned: &[String],
    options: &Options,
) -> Result<Document, String> {
    let mut warnings = Vec::new();
    let (Some(crate_name), Some(version)) = (package.name, package.version) else {
        return Err("the package's name and version are unknown (built outside Cargo)".into());
    };
    let repository = package.repository.and_then(repository);
    let name = match (&options.name, &repository) {
        (Some(name), _) => name.clone(),
        (None, Some((url, "github"))) => github_name(url, crate_name).ok_or_else(|| {
            format!("cannot read a GitHub owner from the repository {url}: give --name")
        })?,
        (None, _) => {
            return Err("give the server's registry name with --name (e.g. \
                 io.github.<owner>/<server>, or a reverse-DNS name of a domain you own); \
                 it is read from the package's GitHub repository when it has one"
                .into())
        }
    };
    check_name(&name)?;
    let about = cli.get_about().map(ToString::to_string);
    let description = options
        .description
        .clone()
        .or_else(|| package.description.map(str::to_owned))
        .or(about)
        .ok_or("give a description with --description (the package has none)")?;
    let description = shortened(description.trim(), "description", &mut warnings);
    let mut server = Map::new();
    server.insert("$schema".into(), json!(SCHEMA));
    server.insert("name".into(), json!(name));
    if let Some(title) = &options.title {
        server.insert(
            "title".into(),
            json!(shortened(title, "title", &mut warnings)),
        );
    }
    server.insert("description".into(), json!(description));
    server.insert("version".into(), json!(version));
    if let Some((url, source)) = &repository {
        server.insert("repository".into(), json!({"url": url, "source": source}));
    }
    let arguments: Vec<Value> = pinned
        .iter()
        .map(String::as_str)
        .chain([bridge, "serve"])
        .map(|value| json!({"type": "positional", "value": value}))
        .collect();
    let mut entry = json!({
        "registryType": "cargo",
        "registryBaseUrl": "https://crates.io",
        "identifier": crate_name,
        "version": version,
        "transport": {"type": "stdio"},
        "packageArguments": arguments,
    });
    let variables = environment(cli);
    if !variables.is_empty() {
        entry["environmentVariables"] = Value::Array(variables);
    }
    server.insert("packages".into(), json!([entry]));
    Ok(Document {
        json: Value::Object(server),
        warnings,
    })
}

/// A text held to the registry's limit, cut at a word and said.
fn shortened(text: &str, what: &str, warnings: &mut Vec<String>) -> String {
    if text.chars().count() <= MAX_TEXT {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_TEXT - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > MAX_TEXT / 2 => &cut[..space],
        _ => &cut,
    };
    warnings.push(format!(
        "the {what} is over {MAX_TEXT} characters, the registry's limit: shortened (give --{what} to choose it)"
    ));
    format!("{}…", cut.trim_end_matches([' ', ',', ';', ':', '.']))
}

/// The registry's rule for a server's name: `namespace/name`, letters,
/// digits and `.-` (and `_` after the slash), starting and ending with a
/// letter or digit.
fn check_name(name: &str) -> Result<(), String> {
    let fine = |part: &str, extra: &[char]| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c))
    };
    let edges = name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    match name.split_once('/') {
        Some((namespace, server))
            if (3..=200).contains(&name.len())
                && edges
                && fine(namespace, &[])
                && fine(server, &['_']) =>
        {
            Ok(())
        }
        _ => Err(format!(
            "--name {name:?}: expected namespace/name, e.g. io.github.<owner>/<server> \
             (letters, digits, '.', '-'; '_' after the slash)"
        )),
    }
}

/// The package's repository as the registry takes it: its URL without a
/// `.git` or a trailing slash, and the host it is on.
fn repository(url: &str) -> Option<(String, &'static str)> {
    let url = url.trim().trim_end_matches('/');
    let url = url.strip_suffix(".git").unwrap_or(url);
    let host = url.split_once("://")?.1.split('/').next()?;
    let source = match host.to_ascii_lowercase().as_str() {
        "github.com" | "www.github.com" => "github",
        "gitlab.com" => "gitlab",
        "codeberg.org" => "codeberg",
        _ => "git",
    };
    Some((url.to_owned(), source))
}

/// `io.github.<owner>/<crate>` from a GitHub repository's URL.
fn github_name(url: &str, crate_name: &str) -> Option<String> {
    let path = url.split_once("://")?.1.split_once('/')?.1;
    let owner = path.split('/').next().filter(|owner| !owner.is_empty())?;
    Some(format!("io.github.{owner}/{crate_name}"))
}

/// The environment variables the CLI's arguments read, each once (the
/// first that declares it wins), hidden arguments left out.
fn environment(cli: &clap::Command) -> Vec<Value> {
    // Built as clap builds it to parse: actions and defaults set.
    let mut cli = cli.clone();
    cli.build();
    let mut seen = std::collections::HashSet::new();
    let mut variables = Vec::new();
    collect(&cli, true, &mut seen, &mut variables);
    variables
}

fn collect(
    command: &clap::Command,
    root: bool,
    seen: &mut std::collections::HashSet<String>,
    out: &mut Vec<Value>,
) {
    for arg in command.get_arguments() {
        let Some(name) = arg.get_env().and_then(|name| name.to_str()) else {
            continue;
        };
        if arg.is_hide_set() || !seen.insert(name.to_owned()) {
            continue;
        }
        out.push(variable(arg, name, root));
    }
    for sub in command.get_subcommands() {
        if !sub.is_hide_set() {
            collect(sub, false, seen, out);
        }
    }
}

/// One variable: what its argument's help says, whether the server needs
/// it (a required argument of the root, with no default), whether it is
/// secret (`hide_env_values`, or a name that says so), its format and
/// choices as clap parses it, and its declared default.
fn variable(arg: &clap::Arg, name: &str, root: bool) -> Value {
    let mut variable = Map::new();
    variable.insert("name".into(), json!(name));
    let help = arg
        .get_help()
        .or(arg.get_long_help())
        .map(ToString::to_string);
    let help = help.or_else(|| arg.get_long().map(|long| format!("Sets --{long}")));
    if let Some(help) = help {
        variable.insert("description".into(), json!(help.trim()));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|value| value.to_string_lossy().into_owned())
        .collect();
    let required = root && arg.is_required_set() && defaults.is_empty();
    let (secret, format) = (secret(arg, name), format(arg));
    variable.insert("isRequired".into(), json!(required));
    variable.insert("isSecret".into(), json!(secret));
    if let Some(format) = format {
        variable.insert("format".into(), json!(format));
    }
    if let ([default], false) = (defaults.as_slice(), secret) {
        variable.insert("default".into(), json!(default));
    }
    let choices: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_owned())
        .collect();
    if !choices.is_empty() && format != Some("boolean") {
        variable.insert("choices".into(), json!(choices));
    }
    Value::Object(variable)
}

/// Whether a variable holds a secret: its argument hides the variable's
/// value in `--help`, or its name says so.
fn secret(arg: &clap::Arg, name: &str) -> bool {
    const SECRET_WORDS: &[&str] = &[
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "APIKEY",
        "PRIVATE_KEY",
        "ACCESS_KEY",
        "CREDENTIAL",
    ];
    let upper = name.to_ascii_uppercase();
    arg.is_hide_env_values_set() || SECRET_WORDS.iter().any(|word| upper.contains(word))
}

/// The registry's format of an argument's value, from the type clap's
/// parser makes of it.
fn format(arg: &clap::Arg) -> Option<&'static str> {
    use std::any::TypeId;
    if !arg.get_action().takes_values() {
        return Some("boolean");
    }
    // Compared by the type the parser makes, not by building parsers to
    // compare with: each one built would be compiled into the binary.
    let id = arg.get_value_parser().type_id();
    if id == TypeId::of::<bool>() {
        return Some("boolean");
    }
    if id == TypeId::of::<std::path::PathBuf>() {
        return Some("filepath");
    }
    let numbers = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<usize>(),
        TypeId::of::<f64>(),
        TypeId::of::<f32>(),
    ];
    numbers
        .iter()
        .any(|number| id == *number)
        .then_some("number")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_registry_rule() {
        for good in ["io.github.alice/taskctl", "com.example/my_server-2"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "taskctl",
            "a/b/c",
            "io.github.alice/",
            "-x/y",
            "x/y-",
            "io github/x",
            "x_y/z",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_github_repository_names_the_server() {
        let (url, source) = repository("https://github.com/alice/taskctl.git/").unwrap();
        assert_eq!(
            (url.as_str(), source),
            ("https://github.com/alice/taskctl", "github")
        );
        assert_eq!(
            github_name(&url, "taskctl-cli").as_deref(),
            Some("io.github.alice/taskctl-cli")
        );
        assert_eq!(repository("https://git.example.org/x").unwrap().1, "git");
    }

    #[test]
    fn a_long_description_is_cut_at_a_word_and_said() {
        let mut warnings = Vec::new();
        let long = "word ".repeat(40);
        let short = shortened(long.trim(), "description", &mut warnings);
        assert!(short.chars().count() <= MAX_TEXT, "{short}");
        assert!(short.ends_with("word…"), "{short}");
        assert_eq!(warnings.len(), 1);
        assert_eq!(shortened("fine", "title", &mut warnings), "fine");
        assert_eq!(warnings.len(), 1);
    }
}

#[cfg(test)]
mod environment_tests {
    use clap::{Arg, ArgAction, Command};
    use serde_json::json;

    use super::*;

    fn cli() -> Command {
        Command::new("app")
            .about("Does things")
            .arg(
                Arg::new("db")
                    .long("db")
                    .env("APP_DB")
                    .value_parser(clap::value_parser!(std::path::PathBuf))
                    .default_value("app.db")
                    .help("The database"),
            )
            .arg(
                Arg::new("token")
                    .long("token")
                    .env("APP_TOKEN")
                    .required(true)
                    .help("The service's token"),
            )
            .arg(
                Arg::new("key")
                    .long("key")
                    .env("APP_SIGNING")
                    .hide_env_values(true)
                    .default_value("dev-key"),
            )
            .arg(
                Arg::new("internal")
                    .long("internal")
                    .env("APP_INTERNAL")
                    .hide(true),
            )
            .subcommand(
                Command::new("run")
                    .arg(
                        Arg::new("jobs")
                            .long("jobs")
                            .env("APP_JOBS")
                            .required(true)
                            .value_parser(clap::value_parser!(u16)),
                    )
                    .arg(
                        Arg::new("color")
                            .long("color")
                            .env("APP_COLOR")
                            .value_parser(["auto", "never"]),
                    )
                    .arg(
                        Arg::new("verbose")
                            .long("verbose")
                            .env("APP_VERBOSE")
                            .action(ArgAction::SetTrue),
                    )
                    .arg(Arg::new("again").long("again").env("APP_DB")),
            )
    }

    const PACKAGE: Package = Package::from_cargo(
        Some("app-cli"),
        Some("1.2.3"),
        Some("https://github.com/acme/app.git"),
        Some(""),
    );

    #[test]
    fn the_variables_are_read_as_declared_never_from_this_environment() {
        let document = document(&cli(), &PACKAGE, "mcp", &[], &Options::default()).unwrap();
        let server = &document.json;
        assert_eq!(server["name"], "io.github.acme/app-cli");
        assert_eq!(server["description"], "Does things");
        assert_eq!(
            server["repository"],
            json!({"url": "https://github.com/acme/app", "source": "github"})
        );
        let package = &server["packages"][0];
        assert_eq!(package["identifier"], "app-cli");
        assert_eq!(package["version"], "1.2.3");
        assert_eq!(
            package["environmentVariables"],
            json!([
                {"name": "APP_DB", "description": "The database", "isRequired": false,
                 "isSecret": false, "format": "filepath", "default": "app.db"},
                {"name": "APP_TOKEN", "description": "The service's token", "isRequired": true,
                 "isSecret": true},
                {"name": "APP_SIGNING", "description": "Sets --key", "isRequired": false,
                 "isSecret": true},
                {"name": "APP_JOBS", "description": "Sets --jobs", "isRequired": false,
                 "isSecret": false, "format": "number"},
                {"name": "APP_COLOR", "description": "Sets --color", "isRequired": false,
                 "isSecret": false, "choices": ["auto", "never"]},
                {"name": "APP_VERBOSE", "description": "Sets --verbose", "isRequired": false,
                 "isSecret": false, "format": "boolean", "default": "false"},
            ])
        );
    }

    #[test]
    fn the_pinned_options_come_before_the_bridge_and_names_are_checked() {
        let options = Options {
            name: Some("com.acme/app".into()),
            title: Some("App".into()),
            description: Some("Runs the app".into()),
        };
        let pinned = ["--db".to_owned(), "x.db".to_owned()];
        let server = document(&cli(), &PACKAGE, "ai", &pinned, &options)
            .unwrap()
            .json;
        assert_eq!(
            (&server["name"], &server["title"]),
            (&json!("com.acme/app"), &json!("App"))
        );
        assert_eq!(server["description"], "Runs the app");
        let values: Vec<&Value> = server["packages"][0]["packageArguments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|argument| &argument["value"])
            .collect();
        assert_eq!(
            values,
            [
                &json!("--db"),
                &json!("x.db"),
                &json!("ai"),
                &json!("serve")
            ]
        );
        let bad = Options {
            name: Some("app".into()),
            ..Options::default()
        };
        let error = document(&cli(), &PACKAGE, "mcp", &[], &bad).err().unwrap();
        assert!(error.contains("--name \"app\""), "{error}");
        let unnamed = Package::from_cargo(Some("x"), Some("1.0.0"), None, Some("X"));
        let error = document(&cli(), &unnamed, "mcp", &[], &Options::default())
            .err()
            .unwrap();
        assert!(error.contains("--name"), "{error}");
        let outside = Package::default();
        let error = document(&cli(), &outside, "mcp", &[], &Options::default())
            .err()
            .unwrap();
        assert!(error.contains("outside Cargo"), "{error}");
    }
}
