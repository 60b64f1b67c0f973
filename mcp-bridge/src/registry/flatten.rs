//! Flattening: the command tree becomes the list of tools, by the rules of
//! [`super::rules`].

use crate::spec::relations::describe_rules;
use crate::spec::{CommandSpec, ParamSpec, ToolSpec};

use super::rules::{is_exposed, is_runnable, offers, PATH_SEPARATOR};

/// Every tool of the tree under `root`, in the order of the tree.
pub(crate) fn tools(root: &CommandSpec) -> Vec<ToolSpec> {
    let mut out = Vec::new();
    collect_tools(root, &mut Vec::new(), &[], &mut Vec::new(), &mut out);
    out
}

fn collect_tools(
    node: &CommandSpec,
    path: &mut Vec<String>,
    inherited: &[ParamSpec],
    route: &mut Vec<u32>,
    out: &mut Vec<ToolSpec>,
) {
    // Only reached when the parent is exposed.
    if !is_exposed(true, node.hidden, node.mcp.skip) {
        return;
    }
    path.push(node.name.clone());
    let route_len = route.len();
    route.extend_from_slice(&node.selector);

    if is_runnable(!node.subcommands.is_empty(), node.subcommand_required) {
        let mut params: Vec<ParamSpec> = node
            .params
            .iter()
            .filter(|p| offers(p.hidden))
            .cloned()
            .collect();
        // Two properties of one name never get here: the tree check refuses
        // the collision (each level's build reads its arguments by name).
        for param in inherited {
            if !params.iter().any(|p| p.name == param.name) {
                params.push(param.clone());
            }
        }
        let name = node
            .mcp
            .name
            .clone()
            .unwrap_or_else(|| path.join(PATH_SEPARATOR));
        let mut tool = ToolSpec {
            name,
            path: path.clone(),
            description: describe(node, path),
            params,
            groups: node.groups.clone(),
            serial: node.mcp.serial,
            timeout: node.mcp.timeout,
            isolate: node.mcp.isolate,
            task: node.mcp.task,
            route: route.clone(),
        };
        let rules = describe_rules(&tool);
        if !rules.is_empty() {
            tool.description.push_str("\n\nRules: ");
            tool.description.push_str(&rules.join("; "));
            tool.description.push('.');
        }
        out.push(tool);
    }

    if !node.subcommands.is_empty() {
        // What the commands below inherit, nearest first once collected:
        // this command's arguments replace an ancestor's of the same name.
        let mut below = inherited.to_vec();
        for param in node.params.iter().filter(|p| offers(p.hidden)) {
            below.retain(|g| g.name != param.name);
            below.push(param.clone());
        }
        for sub in &node.subcommands {
            collect_tools(sub, path, &below, route, out);
        }
    }

    route.truncate(route_len);
    path.pop();
}

fn describe(node: &CommandSpec, path: &[String]) -> String {
    let context = path.join(" ");
    let text = node
        .mcp
        .description
        .as_ref()
        .or(node.long_about.as_ref())
        .or(node.about.as_ref());
    match text {
        Some(text) if !text.is_empty() => format!("{context}: {text}"),
        _ => context,
    }
}
