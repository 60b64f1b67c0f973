//! Relations between arguments: enforced like clap (clap is the oracle),
//! stated in the schema's `allOf` and in the tool description.

use clap::{Args, Parser, Subcommand};
use mcp_bridge::{McpTool, Registry};
use serde_json::{json, Value};

#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "deploy")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, McpTool, Debug, PartialEq)]
enum Command {
    /// Ship a release
    Ship(Ship),
    /// Roll back
    Rollback {
        /// Undo everything
        #[arg(long, exclusive = true)]
        all: bool,
        /// Steps to undo
        #[arg(long, required_unless_present = "all")]
        steps: Option<u32>,
        /// Be quiet
        #[arg(long)]
        quiet: bool,
    },
}

#[derive(Args, McpTool, Debug, PartialEq)]
struct Ship {
    /// Ship to production
    #[arg(long, conflicts_with = "dry_run")]
    prod: bool,
    /// Only pretend
    #[arg(long)]
    dry_run: bool,
    /// Who approved it
    #[arg(long, requires = "ticket")]
    approver: Option<String>,
    /// The change ticket
    #[arg(long)]
    ticket: Option<String>,
    /// The region (needed for `--mode remote`)
    #[arg(long, required_if_eq("mode", "remote"))]
    region: Option<String>,
    /// How to ship
    #[arg(long, default_value = "local")]
    mode: String,
    #[command(flatten)]
    target: Target,
    /// Notify by mail or by chat, not both
    #[arg(long, group = "notify")]
    mail: Option<String>,
    #[arg(long, group = "notify")]
    chat: Option<String>,
}

#[derive(Args, McpTool, Debug, PartialEq)]
#[group(required = true, multiple = false)]
struct Target {
    /// A version to ship
    #[arg(long)]
    version: Option<String>,
    /// Or a commit
    #[arg(long)]
    commit: Option<String>,
}

fn registry() -> Registry<Cli> {
    Registry::new().unwrap()
}

/// Both sides accept with equal values, or both refuse; returns our error.
fn same(tool: &str, args: Value, argv: &[&str]) -> Option<String> {
    let ours = registry().build(tool, args.as_object().unwrap());
    let theirs = Cli::try_parse_from(argv);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours, theirs, "{args} / {argv:?}");
            None
        }
        (Err(ours), Err(_)) => Some(ours.to_string()),
        (ours, theirs) => {
            panic!("disagree on {args} / {argv:?}:\n ours: {ours:?}\n clap: {theirs:?}")
        }
    }
}

#[test]
fn conflicts_with_is_enforced() {
    let error = same(
        "deploy_ship",
        json!({"prod": true, "dry-run": true, "version": "1"}),
        &["deploy", "ship", "--prod", "--dry-run", "--version", "1"],
    )
    .unwrap();
    assert_eq!(
        error,
        "tool `deploy_ship`: property `prod` cannot be used with `dry-run`"
    );
    // `false` is the flag not given: no conflict.
    same(
        "deploy_ship",
        json!({"prod": true, "dry-run": false, "version": "1"}),
        &["deploy", "ship", "--prod", "--version", "1"],
    );
}

#[test]
fn requires_is_enforced() {
    let error = same(
        "deploy_ship",
        json!({"approver": "ann", "version": "1"}),
        &["deploy", "ship", "--approver", "ann", "--version", "1"],
    )
    .unwrap();
    assert!(
        error.contains("property `approver` requires `ticket`"),
        "{error}"
    );
    same(
        "deploy_ship",
        json!({"approver": "ann", "ticket": "T-1", "version": "1"}),
        &[
            "deploy",
            "ship",
            "--approver",
            "ann",
            "--ticket",
            "T-1",
            "--version",
            "1",
        ],
    );
}

#[test]
fn required_if_eq_is_enforced() {
    let error = same(
        "deploy_ship",
        json!({"mode": "remote", "version": "1"}),
        &["deploy", "ship", "--mode", "remote", "--version", "1"],
    )
    .unwrap();
    assert!(
        error.contains("missing required property `region`"),
        "{error}"
    );
    assert!(error.contains("`mode` is \"remote\""), "{error}");
    same(
        "deploy_ship",
        json!({"mode": "remote", "region": "eu", "version": "1"}),
        &[
            "deploy",
            "ship",
            "--mode",
            "remote",
            "--region",
            "eu",
            "--version",
            "1",
        ],
    );
}

#[test]
fn a_required_exclusive_group_needs_exactly_one_member() {
    let error = same("deploy_ship", json!({}), &["deploy", "ship"]).unwrap();
    assert!(error.contains("give one of `version`, `commit`"), "{error}");
    let error = same(
        "deploy_ship",
        json!({"version": "1", "commit": "abc"}),
        &["deploy", "ship", "--version", "1", "--commit", "abc"],
    )
    .unwrap();
    assert!(
        error.contains("`version` cannot be used with `commit`"),
        "{error}"
    );
    same(
        "deploy_ship",
        json!({"commit": "abc"}),
        &["deploy", "ship", "--commit", "abc"],
    );
}

#[test]
fn an_implicit_group_allows_one_member_at_most() {
    let error = same(
        "deploy_ship",
        json!({"version": "1", "mail": "a@b", "chat": "#ops"}),
        &[
            "deploy",
            "ship",
            "--version",
            "1",
            "--mail",
            "a@b",
            "--chat",
            "#ops",
        ],
    )
    .unwrap();
    assert!(
        error.contains("`mail` cannot be used with `chat`"),
        "{error}"
    );
}

#[test]
fn exclusive_and_required_unless_present_are_enforced() {
    let error = same(
        "deploy_rollback",
        json!({"all": true, "quiet": true}),
        &["deploy", "rollback", "--all", "--quiet"],
    )
    .unwrap();
    assert!(
        error.contains("`all` cannot be used with any other argument"),
        "{error}"
    );
    same(
        "deploy_rollback",
        json!({"all": true}),
        &["deploy", "rollback", "--all"],
    );
    let error = same("deploy_rollback", json!({}), &["deploy", "rollback"]).unwrap();
    assert!(
        error.contains("missing required property `steps` (required unless `all` is given)"),
        "{error}"
    );
    same(
        "deploy_rollback",
        json!({"steps": 2}),
        &["deploy", "rollback", "--steps", "2"],
    );
}

#[test]
fn relations_are_in_the_schema_and_the_description() {
    let registry = registry();
    let ship = registry.tool("deploy_ship").unwrap();
    let schema = Value::Object(ship.input_schema());
    let rules = schema["allOf"].as_array().expect("allOf rules");
    assert!(rules.contains(&json!({"not": {"allOf": [
        {"required": ["prod"], "properties": {"prod": {"const": true}}},
        {"required": ["dry-run"], "properties": {"dry-run": {"const": true}}}
    ]}})));
    assert!(rules
        .contains(&json!({"if": {"required": ["approver"]}, "then": {"required": ["ticket"]}})));
    assert!(
        rules.contains(&json!({"anyOf": [{"required": ["version"]}, {"required": ["commit"]}]}))
    );
    assert!(rules.contains(&json!({
        "if": {"required": ["mode"], "properties": {"mode": {"const": "remote"}}},
        "then": {"required": ["region"]}
    })));
    assert!(
        ship.description
            .contains("Rules: `prod` cannot be used with `dry-run`"),
        "{}",
        ship.description
    );
    assert!(
        ship.description
            .contains("give exactly one of `version`, `commit`"),
        "{}",
        ship.description
    );
    // Conditionally required arguments are not in `required`.
    let rollback = Value::Object(registry.tool("deploy_rollback").unwrap().input_schema());
    assert_eq!(rollback.get("required"), None);
}

#[test]
fn relation_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<Cli>();
}

/// A group built with clap's builder in `#[command(group(...))]`.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "fetch", group(clap::ArgGroup::new("source").required(true).args(["url", "path"])))]
struct Fetch {
    #[arg(long)]
    url: Option<String>,
    #[arg(long)]
    path: Option<String>,
}

#[test]
fn builder_groups_are_read() {
    let registry = Registry::<Fetch>::new().unwrap();
    let ours = registry
        .build("fetch", json!({}).as_object().unwrap())
        .unwrap_err();
    assert!(Fetch::try_parse_from(["fetch"]).is_err());
    assert!(
        ours.to_string().contains("give one of `url`, `path`"),
        "{ours}"
    );
    let both = json!({"url": "u", "path": "p"});
    assert!(registry.build("fetch", both.as_object().unwrap()).is_err());
    assert!(Fetch::try_parse_from(["fetch", "--url", "u", "--path", "p"]).is_err());
    let one = registry
        .build("fetch", json!({"url": "u"}).as_object().unwrap())
        .unwrap();
    assert_eq!(one, Fetch::try_parse_from(["fetch", "--url", "u"]).unwrap());
}

/// A CLI whose alternatives may come from the environment.
#[derive(Parser, McpTool, Debug, PartialEq)]
#[command(name = "token-fetch")]
struct TokenFetch {
    /// The token
    #[arg(long, required_unless_present = "token_file")]
    token: Option<String>,
    /// A file holding the token
    #[arg(long, env = "FETCH_TOKEN_FILE_FOR_RELATIONS_TEST")]
    token_file: Option<String>,
    /// TokenFetch from production
    #[arg(long, requires = "region")]
    prod: bool,
    /// The region
    #[arg(long, env = "FETCH_REGION_FOR_RELATIONS_TEST")]
    region: Option<String>,
}

/// Whether the tool's input schema, checked by an independent validator,
/// accepts `args`.
fn schema_accepts(registry: &Registry<TokenFetch>, args: &Value) -> bool {
    let schema = Value::Object(registry.tool("token-fetch").unwrap().input_schema());
    jsonschema::validator_for(&schema)
        .expect("a valid JSON Schema")
        .is_valid(args)
}

#[test]
fn an_argument_set_by_its_environment_variable_satisfies_the_schema_rules() {
    // The only test touching these variables.
    let vars = [
        "FETCH_TOKEN_FILE_FOR_RELATIONS_TEST",
        "FETCH_REGION_FOR_RELATIONS_TEST",
    ];
    let cases = [json!({}), json!({ "prod": true })];
    for var in vars {
        std::env::remove_var(var);
    }
    let registry = Registry::<TokenFetch>::new().unwrap();
    for args in &cases {
        assert!(
            !schema_accepts(&registry, args),
            "{args} without the variables"
        );
        assert!(registry
            .build("token-fetch", args.as_object().unwrap())
            .is_err());
    }
    assert!(TokenFetch::try_parse_from(["token-fetch"]).is_err());

    for var in vars {
        std::env::set_var(var, "x");
    }
    // The schema is built with the table: as clap, the variable counts as
    // the argument given.
    let registry = Registry::<TokenFetch>::new().unwrap();
    for args in &cases {
        assert!(schema_accepts(&registry, args), "{args} with the variables");
        let built = registry
            .build("token-fetch", args.as_object().unwrap())
            .unwrap();
        let argv: &[&str] = if args.get("prod").is_some() {
            &["token-fetch", "--prod"]
        } else {
            &["token-fetch"]
        };
        assert_eq!(built, TokenFetch::try_parse_from(argv).unwrap());
    }
    // Given explicitly, a property still has to be valid.
    assert!(!schema_accepts(
        &registry,
        &json!({ "prod": true, "region": 3 })
    ));
    for var in vars {
        std::env::remove_var(var);
    }
}
