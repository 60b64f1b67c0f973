//! `testing::assert_agrees_with_clap` on every CLI of this repository: the
//! examples, the adoption corpus (`tests/src/adopt/`) and the type-mapping
//! CLIs. (The fixture CLI checks itself: `cargo test --bin fixture_cli`.)
//! Each call the check makes from a tool's spec builds the value clap
//! parses from the same command line, or both refuse it.

use mcp_bridge::testing::{agreement, assert_agrees_with_clap};

#[test]
fn taskctl_agrees_with_clap() {
    assert_agrees_with_clap::<examples::taskctl::Cli>();
}

#[test]
fn awkward_agrees_with_clap() {
    assert_agrees_with_clap::<examples::awkward::Cli>();
}

#[test]
fn fleet_agrees_with_clap() {
    assert_agrees_with_clap::<examples::fleet::Cli>();
}

#[test]
fn the_adoption_corpus_agrees_with_clap() {
    use tests::adopt::{conv::Conv, pkg::Pkg, seek::Seek, ship::Ship, vcs::Vcs};
    assert_agrees_with_clap::<Seek>();
    assert_agrees_with_clap::<Vcs>();
    assert_agrees_with_clap::<Pkg>();
    assert_agrees_with_clap::<Conv>();
    assert_agrees_with_clap::<Ship>();
}

/// The check compares many calls for each tool, and finds a difference
/// where there is one: a build that ignores its default would disagree.
#[test]
fn the_check_compares_each_tool_many_ways_and_finds_a_planted_difference() {
    use clap::Parser;
    use mcp_bridge::McpTool;

    let report = agreement::<examples::taskctl::Cli>();
    assert!(report.compared > 100, "{report:?}");

    /// A CLI whose call and command line cannot agree: the command line
    /// reads `--level` from a variable the check does not know of.
    #[derive(Parser, McpTool, Debug)]
    #[command(name = "planted")]
    struct Planted {
        /// A level
        #[arg(long, default_value_t = level())]
        level: u32,
    }
    fn level() -> u32 {
        // Called once by clap's command and once per call by the build:
        // each call gets a new value.
        static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    }
    let report = agreement::<Planted>();
    assert!(!report.disagreements.is_empty(), "{report:?}");
    let first = &report.disagreements[0];
    assert!(
        first.contains("tool `planted`") && first.contains("command line"),
        "{first}"
    );
}

/// The differences kept on purpose are reported apart, under their
/// reason, and do not fail the check: both of an `overrides_with` pair
/// (declared on one side only, or through `overrides_with_all`, with
/// `args_override_self` on the command), and a flag given `false` while
/// its variable is set.
#[test]
fn documented_differences_are_reported_apart_under_their_reason() {
    use clap::Parser;
    use mcp_bridge::testing::kept;
    use mcp_bridge::McpTool;

    /// Lists entries
    #[derive(Parser, McpTool, Debug)]
    #[command(name = "listing", args_override_self = true)]
    struct Listing {
        /// Show all
        #[arg(short, long, overrides_with = "almost_all")]
        all: bool,
        /// Show almost all
        #[arg(short = 'A', long)]
        almost_all: bool,
        /// Sort by time
        #[arg(short = 't', long)]
        timesort: bool,
        /// Sort by size
        #[arg(short = 'S', long)]
        sizesort: bool,
        /// Sort by
        #[arg(long, value_parser = ["size", "time", "none"],
              overrides_with_all = ["timesort", "sizesort", "no_sort"])]
        sort: Option<String>,
        /// Do not sort
        #[arg(short = 'U', long, overrides_with_all = ["timesort", "sizesort", "sort"])]
        no_sort: bool,
        /// Colours
        #[arg(long, env = "LISTING_AGREEMENT_COLOUR")]
        colour: bool,
    }

    let report = agreement::<Listing>();
    assert!(report.disagreements.is_empty(), "{report:#?}");
    let by_reason = report.kept_by_reason();
    // all/almost_all, sort/timesort, sort/sizesort, sort/no_sort,
    // no_sort/timesort, no_sort/sizesort: each given together once.
    assert!(
        by_reason.get(kept::OVERRIDES).is_some_and(|&n| n >= 6),
        "{by_reason:#?}"
    );
    assert!(
        by_reason.contains_key(kept::FLAG_OVER_VARIABLE),
        "{by_reason:#?}"
    );
    let pair = report
        .kept
        .iter()
        .find(|k| k.case.contains("\"all\"") && k.case.contains("\"almost-all\""))
        .unwrap_or_else(|| panic!("no case of `all` with `almost-all`: {report:#?}"));
    assert!(pair.case.contains("refused"), "{pair:?}");
    assert_agrees_with_clap::<Listing>();
}
