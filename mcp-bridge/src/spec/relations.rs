//! Relations between arguments — conflicts, requirements, groups — as
//! data: what "given" means, and the relations stated in the input schema
//! (`allOf`) and in the tool description. The call-time check is
//! `call::relations`.
//!
//! An argument counts as *given* as clap would see it on the command line:
//! a boolean flag when `true`, a counted flag above 0, a list when not
//! empty, anything else when the property is present; and, as clap counts
//! it, when the property is absent and its environment variable is set.

use serde_json::{json, Map, Value};

use super::{GroupSpec, ParamAction, ParamSpec, ToolSpec};

/// Whether the argument is given in `args`.
pub(crate) fn is_given(param: &ParamSpec, args: &Map<String, Value>) -> bool {
    match args.get(&param.name) {
        None => false,
        Some(value) => match param.action {
            ParamAction::SetTrue | ParamAction::SetFalse => value == &Value::Bool(true),
            ParamAction::Count => value.as_u64().is_some_and(|n| n > 0),
            _ if param.multiple => value.as_array().is_none_or(|items| !items.is_empty()),
            _ => true,
        },
    }
}

/// Whether the argument's environment variable is set (and not empty): an
/// absent property then counts as given.
pub(crate) fn set_by_env(param: &ParamSpec) -> bool {
    param
        .env
        .as_deref()
        .and_then(std::env::var_os)
        .is_some_and(|value| !value.is_empty())
}

pub(crate) struct Ids<'a> {
    pub(crate) tool: &'a ToolSpec,
}

impl<'a> Ids<'a> {
    pub(crate) fn param(&self, id: &str) -> Option<&'a ParamSpec> {
        self.tool.params.iter().find(|p| p.id == id)
    }

    pub(crate) fn group(&self, id: &str) -> Option<&'a GroupSpec> {
        self.tool.groups.iter().find(|g| g.id == id)
    }

    /// The exposed arguments an id stands for (a group names its members).
    pub(crate) fn members(&self, id: &str) -> Vec<&'a ParamSpec> {
        match (self.param(id), self.group(id)) {
            (Some(param), _) => vec![param],
            (None, Some(group)) => group.members.iter().filter_map(|m| self.param(m)).collect(),
            (None, None) => Vec::new(),
        }
    }

    /// What a requirement of `id` is met by: its members, and (as clap
    /// waives a missing required argument when one that conflicts with it
    /// is given) the arguments in conflict with `id` itself, either side
    /// naming the other; for a group, with the group (its members'
    /// conflicts are theirs, not the group's).
    pub(crate) fn meeting(&self, id: &str) -> Vec<&'a ParamSpec> {
        let mut out = self.members(id);
        let own: &[String] = match (self.param(id), self.group(id)) {
            (Some(param), _) => &param.relations.conflicts_with,
            (None, Some(group)) => &group.conflicts_with,
            (None, None) => &[],
        };
        for other in &self.tool.params {
            let conflicts =
                other.relations.conflicts_with.iter().any(|c| c == id) || own.contains(&other.id);
            if conflicts && !out.iter().any(|p| p.id == other.id) {
                out.push(other);
            }
        }
        out
    }

    /// How an id reads in a message: `prop`, or `one of a, b`.
    pub(crate) fn describe(&self, id: &str) -> String {
        match (self.param(id), self.group(id)) {
            (Some(param), _) => format!("`{}`", param.name),
            (None, Some(group)) => self.describe_group(group),
            (None, None) => format!("`{id}`"),
        }
    }

    pub(crate) fn describe_group(&self, group: &GroupSpec) -> String {
        let names: Vec<String> = group
            .members
            .iter()
            .filter_map(|m| self.param(m))
            .map(|p| format!("`{}`", p.name))
            .collect();
        match names.as_slice() {
            [one] => one.clone(),
            _ => format!("one of {}", names.join(", ")),
        }
    }
}

/// Whether `tool` has any relation that can refuse a call (clap's
/// per-struct groups, which allow anything, do not count), so calls to
/// the many tools without one skip [`check`].
pub(crate) fn any_rules(tool: &ToolSpec) -> bool {
    tool.params.iter().any(|p| !p.relations.is_empty())
        || tool.groups.iter().any(|g| {
            g.required || !g.multiple || !g.conflicts_with.is_empty() || !g.requires.is_empty()
        })
}

/// A JSON Schema fragment that holds when `param` is given: with its
/// environment variable set when the table is built, also when absent.
fn given_schema(param: &ParamSpec) -> Value {
    let given = given_in_call(param);
    if set_by_env(param) {
        json!({ "anyOf": [{ "not": { "required": [param.name] } }, given] })
    } else {
        given
    }
}

/// A JSON Schema fragment that holds when the call gives `param`.
fn given_in_call(param: &ParamSpec) -> Value {
    let name = &param.name;
    let constraint = match param.action {
        ParamAction::SetTrue | ParamAction::SetFalse => Some(json!({ "const": true })),
        ParamAction::Count => Some(json!({ "minimum": 1 })),
        _ if param.multiple => Some(json!({ "minItems": 1 })),
        _ => None,
    };
    match constraint {
        Some(constraint) => json!({ "required": [name], "properties": { name: constraint } }),
        None => json!({ "required": [name] }),
    }
}

fn any_of(params: &[&ParamSpec]) -> Value {
    match params {
        [one] => given_schema(one),
        _ => json!({ "anyOf": params.iter().map(|p| given_schema(p)).collect::<Vec<_>>() }),
    }
}

fn not_both(a: &ParamSpec, b: &ParamSpec) -> Value {
    json!({ "not": { "allOf": [given_schema(a), given_schema(b)] } })
}

/// The pairs of exposed arguments that override each other, each once
/// (a `--foo`/`--no-foo` pair usually declares it on both sides).
pub(crate) fn override_pairs(tool: &ToolSpec) -> Vec<(&ParamSpec, &ParamSpec)> {
    let ids = Ids { tool };
    let mut pairs: Vec<(&ParamSpec, &ParamSpec)> = Vec::new();
    for param in &tool.params {
        for target in &param.relations.overrides_with {
            for other in ids.members(target).into_iter().filter(|o| o.id != param.id) {
                let known = pairs.iter().any(|(a, b)| {
                    (a.id == param.id && b.id == other.id) || (a.id == other.id && b.id == param.id)
                });
                if !known {
                    pairs.push((param, other));
                }
            }
        }
    }
    pairs
}

/// The relations as JSON Schema rules (the input schema's `allOf`).
pub(crate) fn schema_rules(tool: &ToolSpec) -> Vec<Value> {
    let ids = Ids { tool };
    let mut rules: Vec<Value> = override_pairs(tool)
        .into_iter()
        .map(|(a, b)| not_both(a, b))
        .collect();
    for param in &tool.params {
        let relations = &param.relations;
        if relations.exclusive {
            let others: Vec<&ParamSpec> = tool.params.iter().filter(|p| p.id != param.id).collect();
            if !others.is_empty() {
                rules
                    .push(json!({ "if": given_schema(param), "then": { "not": any_of(&others) } }));
            }
        }
        for target in &relations.conflicts_with {
            for other in ids.members(target).into_iter().filter(|o| o.id != param.id) {
                rules.push(not_both(param, other));
            }
        }
        for target in &relations.requires {
            let members = ids.meeting(target);
            if !members.is_empty() {
                rules.push(json!({ "if": given_schema(param), "then": any_of(&members) }));
            }
        }
        let mut alternatives = vec![given_schema(param)];
        for id in &relations.required_unless_any {
            let members = ids.members(id);
            if !members.is_empty() {
                alternatives.push(any_of(&members));
            }
        }
        if !relations.required_unless_all.is_empty() {
            let all: Vec<Value> = relations
                .required_unless_all
                .iter()
                .map(|id| any_of(&ids.members(id)))
                .collect();
            alternatives.push(json!({ "allOf": all }));
        }
        if alternatives.len() > 1 {
            rules.push(json!({ "anyOf": alternatives }));
        }
        for (other_id, value) in &relations.required_if_eq {
            if let Some(other) = ids.param(other_id) {
                let typed = other.value_type.typed_default(value);
                rules.push(json!({
                    "if": { "required": [other.name], "properties": { other.name.clone(): { "const": typed } } },
                    "then": given_schema(param),
                }));
            }
        }
    }
    for group in &tool.groups {
        let members: Vec<&ParamSpec> = group.members.iter().filter_map(|m| ids.param(m)).collect();
        if group.required && !members.is_empty() {
            rules.push(any_of(&members));
        }
        if !group.multiple {
            for (i, a) in members.iter().enumerate() {
                for b in &members[i + 1..] {
                    rules.push(not_both(a, b));
                }
            }
        }
        if !members.is_empty() {
            for target in &group.conflicts_with {
                for other in ids.members(target) {
                    rules.push(
                        json!({ "not": { "allOf": [any_of(&members), given_schema(other)] } }),
                    );
                }
            }
            for target in &group.requires {
                let required = ids.members(target);
                if !required.is_empty() {
                    rules.push(json!({ "if": any_of(&members), "then": any_of(&required) }));
                }
            }
        }
    }
    rules
}

/// The relations in words, for the tool description.
pub(crate) fn describe_rules(tool: &ToolSpec) -> Vec<String> {
    let ids = Ids { tool };
    let mut lines: Vec<String> = override_pairs(tool)
        .into_iter()
        .map(|(a, b)| {
            format!(
                "`{}` and `{}` override each other: give at most one",
                a.name, b.name
            )
        })
        .collect();
    for param in &tool.params {
        let name = &param.name;
        let relations = &param.relations;
        if relations.exclusive {
            lines.push(format!(
                "`{name}` cannot be combined with any other argument"
            ));
        }
        for target in &relations.conflicts_with {
            lines.push(format!(
                "`{name}` cannot be used with {}",
                ids.describe(target)
            ));
        }
        for target in &relations.requires {
            lines.push(format!("`{name}` requires {}", ids.describe(target)));
        }
        if !relations.required_unless_any.is_empty() {
            let others: Vec<String> = relations
                .required_unless_any
                .iter()
                .map(|id| ids.describe(id))
                .collect();
            lines.push(format!(
                "`{name}` is required unless {} is given",
                others.join(" or ")
            ));
        }
        if !relations.required_unless_all.is_empty() {
            let others: Vec<String> = relations
                .required_unless_all
                .iter()
                .map(|id| ids.describe(id))
                .collect();
            lines.push(format!(
                "`{name}` is required unless {} are all given",
                others.join(", ")
            ));
        }
        for (other, value) in &relations.required_if_eq {
            lines.push(format!(
                "`{name}` is required when {} is {value:?}",
                ids.describe(other)
            ));
        }
    }
    for group in &tool.groups {
        let members: Vec<String> = group
            .members
            .iter()
            .filter_map(|m| ids.param(m))
            .map(|p| format!("`{}`", p.name))
            .collect();
        if members.len() < 2 && !group.required {
            continue;
        }
        match (group.required, group.multiple) {
            (true, false) => lines.push(format!("give exactly one of {}", members.join(", "))),
            (true, true) => lines.push(format!("give at least one of {}", members.join(", "))),
            (false, false) => lines.push(format!("give at most one of {}", members.join(", "))),
            (false, true) => {}
        }
        for target in &group.conflicts_with {
            lines.push(format!(
                "{} cannot be used with {}",
                members.join(", "),
                ids.describe(target)
            ));
        }
        for target in &group.requires {
            lines.push(format!(
                "{} require {}",
                members.join(", "),
                ids.describe(target)
            ));
        }
    }
    lines
}
