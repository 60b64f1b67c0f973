//! The relations between arguments, checked on every call the way clap
//! checks them (conflicts, requirements, groups). What they are and how
//! the schema states them is `spec::relations`.

use serde_json::{Map, Value};

use crate::error::{ArgError, Problem};
use crate::spec::relations::{is_given, Ids};
use crate::spec::{ParamSpec, ToolSpec};

fn relation_error(tool: &ToolSpec, property: &str, message: String) -> ArgError {
    ArgError::new(
        tool.name.clone(),
        Some(property),
        Problem::Relation { message },
    )
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
