//! Relations between arguments — conflicts, requirements, groups — checked
//! on every call the way clap checks them, described in the tool schema
//! where JSON Schema can say it, and always in the tool description.
//!
//! An argument counts as *given* as clap would see it on the command line:
//! a boolean flag when `true`, a counted flag above 0, a list when not
//! empty, anything else when the property is present.

use serde_json::{json, Map, Value};

use crate::error::{ArgError, Problem};
use crate::spec::{GroupSpec, ParamAction, ParamSpec, ToolSpec};

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

struct Ids<'a> {
    tool: &'a ToolSpec,
}

impl<'a> Ids<'a> {
    fn param(&self, id: &str) -> Option<&'a ParamSpec> {
        self.tool.params.iter().find(|p| p.id == id)
    }

    fn group(&self, id: &str) -> Option<&'a GroupSpec> {
        self.tool.groups.iter().find(|g| g.id == id)
    }

    /// The exposed arguments an id stands for (a group names its members).
    fn members(&self, id: &str) -> Vec<&'a ParamSpec> {
        match (self.param(id), self.group(id)) {
            (Some(param), _) => vec![param],
            (None, Some(group)) => group.members.iter().filter_map(|m| self.param(m)).collect(),
            (None, None) => Vec::new(),
        }
    }

    /// How an id reads in a message: `prop`, or `one of a, b`.
    fn describe(&self, id: &str) -> String {
        match (self.param(id), self.group(id)) {
            (Some(param), _) => format!("`{}`", param.name),
            (None, Some(group)) => self.describe_group(group),
            (None, None) => format!("`{id}`"),
        }
    }

    fn describe_group(&self, group: &GroupSpec) -> String {
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

fn relation_error(tool: &ToolSpec, property: &str, message: String) -> ArgError {
    ArgError::new(
        tool.name.clone(),
        Some(property),
        Problem::Relation { message },
    )
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

/// Checks every relation of `tool` against a call's arguments.
pub(crate) fn check(tool: &ToolSpec, args: &Map<String, Value>) -> Result<(), ArgError> {
    let ids = Ids { tool };
    let given: Vec<&ParamSpec> = tool.params.iter().filter(|p| is_given(p, args)).collect();
    let is = |param: &ParamSpec| given.iter().any(|g| g.id == param.id);
    let any_given = |id: &str| ids.members(id).into_iter().any(is);

    for param in &given {
        if param.relations.exclusive {
            if let Some(other) = given.iter().find(|g| g.id != param.id) {
                return Err(relation_error(
                    tool,
                    &param.name,
                    format!(
                        "property `{}` cannot be used with any other argument, but `{}` is given",
                        param.name, other.name
                    ),
                ));
            }
        }
    }
    for param in &given {
        for target in &param.relations.conflicts_with {
            if let Some(other) = ids
                .members(target)
                .into_iter()
                .find(|o| o.id != param.id && is(o))
            {
                return Err(relation_error(
                    tool,
                    &param.name,
                    format!(
                        "property `{}` cannot be used with `{}`",
                        param.name, other.name
                    ),
                ));
            }
        }
    }
    for group in &tool.groups {
        let members: Vec<&ParamSpec> = group
            .members
            .iter()
            .filter_map(|m| ids.param(m))
            .filter(|p| is(p))
            .collect();
        if !group.multiple && members.len() > 1 {
            return Err(relation_error(
                tool,
                &members[1].name,
                format!(
                    "property `{}` cannot be used with `{}`",
                    members[0].name, members[1].name
                ),
            ));
        }
        if let Some(member) = members.first() {
            for target in &group.conflicts_with {
                if let Some(other) = ids.members(target).into_iter().find(|o| is(o)) {
                    return Err(relation_error(
                        tool,
                        &member.name,
                        format!(
                            "property `{}` cannot be used with `{}`",
                            member.name, other.name
                        ),
                    ));
                }
            }
            for target in &group.requires {
                if !any_given(target) {
                    return Err(relation_error(
                        tool,
                        &member.name,
                        format!(
                            "property `{}` requires {}",
                            member.name,
                            ids.describe(target)
                        ),
                    ));
                }
            }
        }
    }
    for param in &given {
        for target in &param.relations.requires {
            if !any_given(target) {
                return Err(relation_error(
                    tool,
                    &param.name,
                    format!(
                        "property `{}` requires {}",
                        param.name,
                        ids.describe(target)
                    ),
                ));
            }
        }
    }
    for param in &tool.params {
        if is(param) {
            continue;
        }
        let relations = &param.relations;
        let unless_any = !relations.required_unless_any.is_empty()
            && !relations.required_unless_any.iter().any(|id| any_given(id));
        let unless_all = !relations.required_unless_all.is_empty()
            && !relations.required_unless_all.iter().all(|id| any_given(id));
        if unless_any || unless_all {
            let others: Vec<String> = relations
                .required_unless_any
                .iter()
                .chain(&relations.required_unless_all)
                .map(|id| ids.describe(id))
                .collect();
            let joiner = if unless_all { " and " } else { " or " };
            return Err(relation_error(
                tool,
                &param.name,
                format!(
                    "missing required property `{}` (required unless {} {} given)",
                    param.name,
                    others.join(joiner),
                    if others.len() > 1 && unless_all {
                        "are"
                    } else {
                        "is"
                    }
                ),
            ));
        }
        for (other_id, value) in &relations.required_if_eq {
            if let Some(other) = ids.param(other_id) {
                if args
                    .get(&other.name)
                    .is_some_and(|v| value_matches(v, value))
                {
                    return Err(relation_error(
                        tool,
                        &param.name,
                        format!(
                            "missing required property `{}` (required when `{}` is {:?})",
                            param.name, other.name, value
                        ),
                    ));
                }
            }
        }
    }
    for group in &tool.groups {
        if group.required && !group.members.iter().any(|m| any_given(m)) {
            let property = group
                .members
                .iter()
                .find_map(|m| ids.param(m))
                .map(|p| p.name.clone())
                .unwrap_or_else(|| group.id.clone());
            return Err(relation_error(
                tool,
                &property,
                format!(
                    "missing required argument: give {}",
                    ids.describe_group(group)
                ),
            ));
        }
    }
    Ok(())
}

/// clap compares the raw text of the value.
fn value_matches(value: &Value, expected: &str) -> bool {
    match value {
        Value::String(s) => s == expected,
        Value::Bool(b) => b.to_string() == expected,
        Value::Number(n) => n.to_string() == expected,
        _ => false,
    }
}

/// A JSON Schema fragment that holds when `param` is given.
fn given_schema(param: &ParamSpec) -> Value {
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

/// The relations as JSON Schema rules (the input schema's `allOf`).
pub(crate) fn schema_rules(tool: &ToolSpec) -> Vec<Value> {
    let ids = Ids { tool };
    let mut rules = Vec::new();
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
            let members = ids.members(target);
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
    let mut lines = Vec::new();
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
