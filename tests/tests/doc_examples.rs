//! Doc-comment examples (`$ ship deploy web --env prod` under `Examples:`)
//! become example calls, with clap as the oracle: the arguments made of
//! each line build the value clap parses from the same words. A line that
//! cannot be read is skipped with a warning, never silently.

use mcp_bridge::spec::{DocOutcome, ToolSpec};
use mcp_bridge::testing::{assert_parity, doc_example_differences};
use mcp_bridge::Registry;
use serde_json::{json, Value};
use tests::adopt::ship::Ship;

fn tool<C>(registry: &Registry<C>, name: &str) -> ToolSpec {
    registry.tool(name).expect("the tool exists").clone()
}

/// Each line of the tool's doc comment with what became of it: the
/// arguments of an accepted one, `"other: why"` or `"skipped: why"`.
fn lines(tool: &ToolSpec) -> Vec<(String, Value)> {
    tool.doc_examples
        .iter()
        .map(|example| {
            let outcome = match &example.outcome {
                DocOutcome::Accepted(arguments) => Value::Object(arguments.clone()),
                DocOutcome::OtherCommand(why) => json!(format!("other: {why}")),
                DocOutcome::Skipped(why) => json!(format!("skipped: {why}")),
                other => json!(format!("{other:?}")),
            };
            (example.line.clone(), outcome)
        })
        .collect()
}

#[test]
fn ship_has_parity_with_clap() {
    assert_parity::<Ship>();
}

#[test]
fn every_accepted_line_builds_what_clap_parses() {
    // The one difference is the line written to be refused.
    assert_eq!(
        doc_example_differences::<Ship>(),
        [
            "`$ ship deploy web --replicas many` (ship_deploy): skipped: `--replicas`: `many` is \
          no integer"
        ]
    );
}

#[test]
fn verbatim_lines_in_every_form_of_option() {
    let registry = Registry::<Ship>::new().unwrap();
    let deploy = tool(&registry, "ship_deploy");
    let lines = lines(&deploy);
    let expected = [
        (
            "ship deploy web --env prod --replicas 3",
            json!({ "service": "web", "env": "prod", "replicas": 3 }),
        ),
        (
            // A root option before the subcommand; `-r2`; `--canary=0.25`.
            r#"ship -C other.toml deploy "api gateway" -e staging -r2 --canary=0.25"#,
            json!({
                "config": "other.toml", "service": "api gateway", "env": "staging",
                "replicas": 2, "canary": 0.25,
            }),
        ),
        (
            // key=value pairs (quotes and escapes inside), a cluster with
            // the root's global count in it.
            r#"ship deploy web --set image.tag=v2 --set "note=it's \"fine\"" -fvv"#,
            json!({
                "service": "web", "set": { "image.tag": "v2", "note": "it's \"fine\"" },
                "force": true, "verbose": 2,
            }),
        ),
        (
            "ship -v deploy web --label team=core,tier=1 --region eu --region us -n",
            json!({
                "verbose": 1, "service": "web", "label": ["team=core", "tier=1"],
                "region": ["eu", "us"], "dry-run": true,
            }),
        ),
        (
            "ship deploy --wait -- -legacy-name   # a name that starts with a dash",
            json!({ "wait": true, "service": "-legacy-name" }),
        ),
        ("ship status web", json!("other: it runs `ship status`")),
        (
            "ship deploy web --replicas many",
            json!("skipped: `--replicas`: `many` is no integer"),
        ),
    ];
    let expected: Vec<(String, Value)> = expected
        .into_iter()
        .map(|(line, outcome)| (line.to_owned(), outcome))
        .collect();
    assert_eq!(lines, expected);
    // The accepted ones are the tool's examples, so its prompt shows them;
    // the description shows them once, as the doc comment wrote them.
    assert_eq!(deploy.examples.len(), 5);
    assert!(deploy
        .description
        .contains("$ ship deploy web --env prod --replicas 3"));
    assert!(
        !deploy.description.contains("Example: {"),
        "{}",
        deploy.description
    );
}

#[test]
fn joined_markdown_and_nested_lines() {
    let registry = Registry::<Ship>::new().unwrap();
    // clap joins the lines of a paragraph: two commands on one line, the
    // second through the command's alias.
    assert_eq!(
        lines(&tool(&registry, "ship_rollback")),
        [
            (
                "ship rollback web --to 41".to_owned(),
                json!({ "service": "web", "to": 41 })
            ),
            (
                "ship rb 'web' --to=40 --no-verify".to_owned(),
                json!({ "service": "web", "to": 40, "no-verify": true })
            ),
        ]
    );
    // A Markdown heading, the line inside a code fence.
    assert_eq!(
        lines(&tool(&registry, "ship_status")),
        [(
            "ship status --format json web api".to_owned(),
            json!({ "format": "json", "services": ["web", "api"] })
        )]
    );
    // A command two levels down, its example on the heading's line.
    assert_eq!(
        lines(&tool(&registry, "ship_secret_set")),
        [(
            "ship secret set DB_PASSWORD 'p@ss w0rd' --overwrite".to_owned(),
            json!({ "name": "DB_PASSWORD", "value": "p@ss w0rd", "overwrite": true })
        )]
    );
}

#[test]
fn a_line_the_tool_refuses_is_skipped_and_the_server_still_starts() {
    let registry = Registry::<Ship>::new().expect("a doc comment is no contract");
    let deploy = tool(&registry, "ship_deploy");
    let refused: Vec<&str> = deploy
        .doc_examples
        .iter()
        .filter(|example| matches!(example.outcome, DocOutcome::Skipped(_)))
        .map(|example| example.line.as_str())
        .collect();
    assert_eq!(refused, ["ship deploy web --replicas many"]);
    // Without the CLI's type the lines are read but not built.
    let unbuilt =
        Registry::<Ship>::from_spec(<Ship as mcp_bridge::McpCommand>::command_spec()).unwrap();
    let deploy = tool(&unbuilt, "ship_deploy");
    assert!(deploy.examples.is_empty());
    assert!(matches!(
        deploy.doc_examples[0].outcome,
        DocOutcome::Converted(_)
    ));
}

/// Paints.
///
/// Examples:
///   $ paint --color always
///   $ paint --color=never
#[derive(clap::Parser, mcp_bridge::McpTool, Debug, PartialEq)]
#[command(name = "paint", verbatim_doc_comment)]
struct Paint {
    /// When to colour
    #[arg(
        long,
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "always",
        default_value = "auto"
    )]
    color: String,
}

/// What the specs do not say (`require_equals`), the oracle sees: the
/// bridge reads `--color always` as a value, clap refuses it.
#[test]
fn the_oracle_reports_a_line_clap_reads_otherwise() {
    let differences = doc_example_differences::<Paint>();
    assert_eq!(differences.len(), 1, "{differences:?}");
    assert!(
        differences[0].starts_with("`$ paint --color always` (paint): clap refuses it: error:"),
        "{differences:?}"
    );
}

/// Greets.
///
/// Examples:
///   $ greet Ann --loud
///   $ greet --loud
#[derive(clap::Parser, mcp_bridge::McpTool, Debug, PartialEq)]
#[command(name = "greet", verbatim_doc_comment)]
#[mcp(description = "Say hello to someone")]
struct Greet {
    /// Who
    name: String,
    /// Shout
    #[arg(long)]
    loud: bool,
}

/// When `#[mcp(description)]` replaces the doc comment, the description
/// no longer shows the line: the call made of it is appended instead. A
/// line read well but refused by the tool's build is skipped.
#[test]
fn a_replaced_description_gets_the_call_as_json() {
    let differences = doc_example_differences::<Greet>();
    assert_eq!(differences.len(), 1, "{differences:?}");
    assert!(
        differences[0].starts_with(
            "`$ greet --loud` (greet): skipped: its tool refuses it: tool `greet`: missing required property `name`"
        ),
        "{differences:?}"
    );
    let registry = Registry::<Greet>::new().unwrap();
    assert_eq!(
        tool(&registry, "greet").description,
        r#"greet: Say hello to someone

Example: {"loud":true,"name":"Ann"}"#
    );
}
