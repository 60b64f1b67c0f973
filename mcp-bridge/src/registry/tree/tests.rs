//! Unit tests of the compile-time tree checks.

use super::msg::MSG_LEN;
use super::*;
use crate::spec::tree::*;

const fn variant(name: &'static str, site: u32, kind: VariantKind) -> VariantNode {
    VariantNode {
        name,
        site,
        origin: "`V`",
        layer: Layer::NONE,
        kind,
    }
}

/// An enum with two variants named `run`, nested in a struct.
static TWINS: SubNode = SubNode {
    checked: true,
    origin: "`E`",
    layer: Layer::NONE,
    variants: &[
        variant("run", 0, VariantKind::Unit),
        variant("run", 1, VariantKind::Unit),
    ],
};

static GENERIC_TWINS: SubNode = SubNode {
    checked: false,
    ..TWINS
};

fn root(sub: &'static SubNode) -> ArgsNode {
    ArgsNode {
        checked: true,
        origin: "`Cli`",
        root_name: Some("app"),
        root_site: 0,
        layer: Layer::NONE,
        items: Box::leak(Box::new([Item::Subcommand {
            site: 1,
            node: sub,
            optional: false,
        }])),
    }
}

#[test]
fn a_collision_is_reported_by_the_lowest_type_that_sees_it() {
    let inner = check_sub::<3, 0>(&TWINS);
    assert_eq!(
        inner.message(0),
        Some("two tools are named `…_run`: `V` (command `… run`) and `V` (command `… run`); give one of them another name with `#[mcp(name = \"...\")]`")
    );
    assert_eq!(inner.problems[0].site, 1, "at the second variant");
    // The enum checks itself: the root does not repeat it.
    assert!(check_args::<3, 0>(&root(&TWINS), true).is_ok());
    // A generic enum does not check itself: the root does.
    let outer = check_args::<3, 0>(&root(&GENERIC_TWINS), true);
    assert_eq!(
        outer.message(0),
        Some("two tools are named `app_run`: `V` (command `app run`) and `V` (command `app run`); give one of them another name with `#[mcp(name = \"...\")]`")
    );
    assert_eq!(outer.problems[0].site, 1, "at the subcommand field");
}

#[test]
fn an_enum_root_checks_its_own_variants_at_their_sites() {
    // What the derive emits for an enum deriving `Parser`.
    static ROOT: ArgsNode = ArgsNode {
        checked: true,
        origin: "`Cli`",
        root_name: Some("app"),
        root_site: 2,
        layer: Layer::NONE,
        items: &[Item::Subcommand {
            site: SELF_SITE,
            node: &TWINS,
            optional: false,
        }],
    };
    let report = check_args::<3, 0>(&ROOT, true);
    assert_eq!(
        report.message(0),
        Some("two tools are named `app_run`: `V` (command `app run`) and `V` (command `app run`); give one of them another name with `#[mcp(name = \"...\")]`")
    );
    assert_eq!(report.problems[0].site, 1, "at the second variant");
}

#[test]
fn keys_for_a_tool_on_a_command_without_one_are_reported_once() {
    static REMOTE: SubNode = SubNode {
        checked: true,
        origin: "`Remote`",
        layer: Layer::NONE,
        variants: &[variant("list", 0, VariantKind::Unit)],
    };
    // `#[mcp(title)] #[command(subcommand)] Remote(Remote)`
    static COMMAND: SubNode = SubNode {
        checked: true,
        origin: "`Command`",
        layer: Layer::NONE,
        variants: &[VariantNode {
            layer: Layer {
                mcp_tool_keys: &["title"],
                ..Layer::NONE
            },
            ..variant("remote", 3, VariantKind::Subcommand(&REMOTE))
        }],
    };
    let report = check_sub::<3, 0>(&COMMAND);
    assert_eq!(
        report.message(0),
        Some("`#[mcp(title)]` on `V` does nothing: it is for a command's own tool, and `V` (command `… remote`) has none, since it runs only through its subcommands (a required `#[command(subcommand)]`); put it on the subcommands it is meant for, or make the subcommand optional (`Option<...>`) so that the command runs on its own too")
    );
    assert_eq!(report.problems[0].site, 3, "at the variant");
    assert!(
        check_args::<3, 0>(&root(&COMMAND), true).is_ok(),
        "the enum reported it; the root does not repeat it"
    );

    // The root's own keys, on a root whose subcommand is required or not.
    static GROUP: ArgsNode = ArgsNode {
        checked: true,
        origin: "`Cli`",
        root_name: Some("app"),
        root_site: 0,
        layer: Layer {
            mcp_tool_keys: &["timeout", "args(...)"],
            ..Layer::NONE
        },
        items: &[Item::Subcommand {
            site: 1,
            node: &REMOTE,
            optional: false,
        }],
    };
    static RUNNABLE: ArgsNode = ArgsNode {
        items: &[Item::Subcommand {
            site: 1,
            node: &REMOTE,
            optional: true,
        }],
        ..GROUP
    };
    let report = check_args::<2, 0>(&GROUP, true);
    let message = report.message(0).expect("a problem");
    assert!(
        message.starts_with("`#[mcp(timeout, args(...))]` on `Cli` does nothing: these keys are for a command's own tool, and `Cli` (command `app`) has none"),
        "{message}"
    );
    assert_eq!(report.problems[0].site, 0, "at the root's name");
    assert!(check_args::<2, 0>(&RUNNABLE, true).is_ok());
}

#[test]
fn hidden_and_skipped_commands_are_not_tools() {
    static HIDDEN: SubNode = SubNode {
        checked: true,
        origin: "`E`",
        layer: Layer::NONE,
        variants: &[
            variant("run", 0, VariantKind::Unit),
            VariantNode {
                layer: Layer {
                    hide: Some(true),
                    ..Layer::NONE
                },
                ..variant("run", 1, VariantKind::Unit)
            },
            VariantNode {
                layer: Layer {
                    mcp_skip: true,
                    ..Layer::NONE
                },
                ..variant("run", 2, VariantKind::Unit)
            },
        ],
    };
    assert!(check_sub::<4, 0>(&HIDDEN).is_ok());
}

#[test]
fn messages_are_cut_at_a_character_boundary() {
    let mut msg = Msg::new();
    for _ in 0..MSG_LEN {
        msg.push("é");
    }
    assert!(msg.as_str().ends_with('…'));
    assert!(msg.as_str().len() <= MSG_LEN);
    let mut msg = Msg::new();
    msg.push_number(0);
    msg.push(" ");
    msg.push_number(129);
    assert_eq!(msg.as_str(), "0 129");
}

#[test]
fn the_roots_own_name_standing_for_an_empty_prefix_is_held_to_the_budget() {
    static ROOT: ArgsNode = ArgsNode {
        checked: true,
        origin: "`Cli`",
        root_name: Some("a-root-command-name-that-is-far-longer-than-sixty-four-characters-x"),
        root_site: 0,
        layer: Layer {
            mcp_prefix: Some(""),
            ..Layer::NONE
        },
        items: &[],
    };
    let report = check_args::<1, 0>(&ROOT, true);
    let message = report.message(0).expect("a problem");
    assert!(
        message.contains("is 67 characters long; tool names are at most 64"),
        "{message}"
    );
}

#[test]
fn duplicates_among_many_tools_are_each_reported_against_the_first() {
    // 40 commands `c0`..`c39`, where `c37` is named like `c3`, and
    // `c20` and `c30` like `c10`: each later one is reported against
    // the first of its name, at its own site, as a scan of every pair
    // would.
    let names: Vec<&'static str> = (0..40)
        .map(|i| match i {
            37 => "c3",
            20 | 30 => "c10",
            _ => &*Box::leak(format!("c{i}").into_boxed_str()),
        })
        .collect();
    let variants: Vec<VariantNode> = names
        .iter()
        .enumerate()
        .map(|(i, name)| variant(name, i as u32, VariantKind::Unit))
        .collect();
    let sub: &'static SubNode = Box::leak(Box::new(SubNode {
        checked: true,
        origin: "`E`",
        layer: Layer::NONE,
        variants: Box::leak(variants.into_boxed_slice()),
    }));
    let expected = [(20, "`… c10`"), (30, "`… c10`"), (37, "`… c3`")];
    let relative = check_sub::<41, 0>(sub);
    let root_known = check_args::<42, 0>(
        &ArgsNode {
            checked: true,
            origin: "`Cli`",
            root_name: Some("app"),
            root_site: 99,
            layer: Layer::NONE,
            items: Box::leak(Box::new([Item::Subcommand {
                site: SELF_SITE,
                node: sub,
                optional: false,
            }])),
        },
        true,
    );
    for (report, root) in [(&relative, "…"), (&root_known, "app")] {
        let found: Vec<(u32, String)> = (0..8)
            .map_while(|k| {
                report
                    .message(k)
                    .map(|m| (report.problems[k].site, m.to_owned()))
            })
            .collect();
        assert_eq!(found.len(), expected.len(), "{found:#?}");
        for ((site, message), (want_site, command)) in found.iter().zip(expected) {
            assert_eq!(*site, want_site);
            let command = command.replace('…', root);
            assert!(
                message.contains(&format!("(command {command}) and `V` (command {command})")),
                "{message}"
            );
        }
    }
}

#[test]
fn the_key_order_is_a_total_order_by_key_then_index() {
    let keys = [5u64, 1, 5, 0, 1, 9, 5, 0];
    let order = super::check::sort_by_key(&keys, keys.len());
    assert_eq!(order, [3, 7, 1, 4, 0, 2, 6, 5]);
    // Only the first `n` are ordered; the rest stay zero.
    let order = super::check::sort_by_key(&keys, 3);
    assert_eq!(order, [1, 0, 2, 0, 0, 0, 0, 0]);
}
