//! The derive's specs agree with what clap builds from the same types.

use examples::taskctl::Cli;

#[test]
fn taskctl_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<Cli>();
}

#[test]
fn awkward_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<examples::awkward::Cli>();
}

#[test]
fn fleet_specs_match_clap() {
    mcp_bridge::testing::assert_parity::<examples::fleet::Cli>();
}
