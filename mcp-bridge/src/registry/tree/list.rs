//! The tools the compile-time check sees, listed at run time: the same
//! walk and the same rules, so a test can hold them against what the
//! [`Registry`](crate::Registry) serves.

use super::check::{exposure, is_renamed, Groups};
use super::name::ToolName;
use super::walk::Table;
use crate::registry::rules::RENAME_SEPARATOR;
use crate::spec::tree::ArgsNode;

/// One tool as the compile-time check sees it: its name and its property
/// names (own ones first, then those its ancestors offer it, renamed
/// where a nearer command has one of the name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedTool {
    /// The tool name.
    pub name: String,
    /// Its property names.
    pub properties: Vec<String>,
}

/// The tools of a root struct's tree, in tree order, as the compile-time
/// check of a `Parser` root sees them. `C` and `P` come from
/// [`size_args`](super::size_args).
pub fn tools_of_root<const C: usize, const P: usize>(node: &ArgsNode) -> Vec<CheckedTool> {
    let t = Table::<C, P>::of_args(node, true);
    let (_, tool) = exposure(&t, true);
    let groups = Groups::of(&t);
    let mut visible = [0usize; P];
    let mut tools = Vec::new();
    for (index, is_tool) in tool.iter().enumerate().take(t.nc) {
        if !is_tool {
            continue;
        }
        let served = ToolName::of(&t, index);
        let bytes: Vec<u8> = (0..served.len).map(|p| served.byte(&t, index, p)).collect();
        let name = String::from_utf8_lossy(&bytes).into_owned();
        let count = groups.offered(&t, index, &mut visible);
        let properties = (0..count)
            .map(|at| {
                let prop = &t.props[visible[at]];
                if is_renamed(&t, &visible, at) {
                    format!("{}{RENAME_SEPARATOR}{}", t.cmds[prop.cmd].name, prop.name)
                } else {
                    prop.name.to_owned()
                }
            })
            // Fixed by `#[mcp(args(...))]`: not offered.
            .filter(|name| !t.cmds[index].fixed.contains(&name.as_str()))
            .collect();
        tools.push(CheckedTool { name, properties });
    }
    tools
}
