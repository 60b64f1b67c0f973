//! Checks of the whole command tree, run by the compiler.
//!
//! Tool names and property names depend on several types at once (a
//! subcommand enum, the `Args` struct of one of its variants, the globals of
//! the root...), so one derive alone cannot see a collision. Each derive
//! therefore describes its own node as an associated constant
//! ([`ArgsNode`] for structs, [`SubNode`] for enums) that refers to the
//! constants of the types it flattens or nests, and emits
//!
//! ```text
//! const __REPORT: Report = check_args::<C, P>(<Self as McpArgs>::MCP_NODE, is_parser);
//! const _: () = fail_at(&__REPORT, site);   // once per site, spanned at it
//! ```
//!
//! [`check_args`] / [`check_sub`] are `const fn`s: they mirror what
//! `mcp_augment` does at run time (same order, same layers) into fixed-size
//! tables, flatten them into tools the way the registry does, and look for
//! problems. A problem is reported at a *site*: a field or variant of the
//! type whose derive found it, so the compile error points at the user's
//! tokens.
//!
//! Every derive checks its whole subtree, so to report a collision once,
//! the derive that reports it is the lowest one that contains both sides
//! (two tools inside the same nested type were already reported by that
//! type's derive). Checks that need the full tool name (its length, a
//! `#[mcp(name)]` equal to a name made from a path) are done only where
//! the root is known: on a `Parser` struct, whose name is a literal or the
//! package name. The registry checks tool names again at run time.

mod check;
mod list;
mod msg;
mod name;
mod report;
mod walk;

pub use check::{check_args, check_sub, positional_property, IsParser, NotParser};
pub use list::{tools_of_root, CheckedTool};
pub use msg::Msg;
pub use report::{fail_at, CheckReport};
pub use walk::{size_args, size_sub};

#[cfg(test)]
mod tests;
