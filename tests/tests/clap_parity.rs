//! The derive's specs agree with what clap builds from the same types.

use examples::taskctl::Cli;

#[test]
fn taskctl_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<Cli>();
}

/// `task add`'s doc comment shows a command line: the example call the
/// bridge makes of it builds what clap parses from it.
#[test]
fn taskctl_doc_examples_are_what_clap_parses() {
    mcp_bridge::testing::assert_doc_examples::<Cli>();
    let registry = mcp_bridge::Registry::<Cli>::new().unwrap();
    let add = registry.tool("taskctl_task_add").unwrap();
    assert_eq!(
        add.examples.last(),
        serde_json::json!({
            "title": "Call the plumber", "priority": 5, "tag": ["home", "urgent"]
        })
        .as_object()
    );
}

#[test]
fn awkward_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<examples::awkward::Cli>();
}

#[test]
fn fleet_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<examples::fleet::Cli>();
}
