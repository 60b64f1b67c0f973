//! The relations between arguments, checked on every call the way clap
//! checks them (conflicts, requirements, groups). What they are and how
//! the schema states them is `spec::relations`.

use serde_json::{Map, Value};

use crate::error::{ArgError, Problem};
use crate::spec::relations::{is_given, override_pairs, set_by_env, Ids};
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
    // clap counts an argument its environment variable sets as present,
    // for every relation: so does the check.
    let given: Vec<&ParamSpec> = tool
        .params
        .iter()
        .filter(|p| is_given(p, args) || (!args.contains_key(&p.name) && set_by_env(p)))
        .collect();
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
    for (a, b) in override_pairs(tool) {
        if is(a) && is(b) {
            return Err(relation_error(
                tool,
                &b.name,
                format!(
                    "properties `{}` and `{}` override each other (on the command line the later \
                     one wins, and a call has no order): give at most one",
                    a.name, b.name
                ),
            ));
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
            // Met by the target, or waived by one in conflict with it.
            if !ids.meeting(target).into_iter().any(&is) {
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
                    .is_some_and(|v| value_matches(v, value, other.ignore_case))
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

/// clap compares the raw text of the value, in any case where the
/// argument has `ignore_case`.
fn value_matches(value: &Value, expected: &str, ignore_case: bool) -> bool {
    match value {
        Value::String(s) if ignore_case => s.eq_ignore_ascii_case(expected),
        Value::String(s) => s == expected,
        Value::Bool(b) => b.to_string() == expected,
        Value::Number(n) => n.to_string() == expected,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{GroupSpec, ParamAction, ParamRelations, ParamSpec, ToolSpec, ValueType};
    use serde_json::json;

    fn tool(params: Vec<ParamSpec>, groups: Vec<GroupSpec>) -> ToolSpec {
        ToolSpec {
            name: "app_run".into(),
            path: vec!["app".into(), "run".into()],
            description: String::new(),
            params,
            groups,
            serial: false,
            timeout: None,
            isolate: false,
            task: None,
            title: None,
            icon: None,
            hints: Default::default(),
            output: None,
            returns: None,
            examples: Vec::new(),
            doc_examples: Vec::new(),
            doc_in_description: false,
            route: Vec::new(),
            renamed: Vec::new(),
            unoffered: Vec::new(),
            pinned: Vec::new(),
            external: None,
        }
    }

    fn flag(name: &str) -> ParamSpec {
        ParamSpec::flag(name, Some(name), None, ValueType::Boolean).action(ParamAction::SetTrue)
    }

    fn args(value: serde_json::Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn a_conflict_counts_only_given_arguments() {
        let json_flag = flag("json").relations(ParamRelations {
            conflicts_with: vec!["quiet".into()],
            ..ParamRelations::default()
        });
        let tool = tool(vec![json_flag, flag("quiet")], Vec::new());
        // A flag set to false is not given, as on a command line.
        assert!(check(&tool, &args(json!({"json": true, "quiet": false}))).is_ok());
        let error = check(&tool, &args(json!({"json": true, "quiet": true}))).unwrap_err();
        assert_eq!(error.property.as_deref(), Some("json"));
        assert_eq!(
            error.to_string(),
            "tool `app_run`: property `json` cannot be used with `quiet`"
        );
    }

    #[test]
    fn requirements_name_what_is_missing() {
        let user = ParamSpec::flag("user", Some("user"), None, ValueType::string()).relations(
            ParamRelations {
                requires: vec!["password".into()],
                ..ParamRelations::default()
            },
        );
        let password = ParamSpec::flag("password", Some("password"), None, ValueType::string());
        let tool = tool(vec![user, password], Vec::new());
        let error = check(&tool, &args(json!({"user": "ann"}))).unwrap_err();
        assert!(error
            .to_string()
            .ends_with("property `user` requires `password`"));
        assert!(check(&tool, &args(json!({"user": "ann", "password": "x"}))).is_ok());
    }

    #[test]
    fn a_required_group_wants_one_member() {
        let group = GroupSpec::new("source", &["file", "url"], true, false, &[], &[]);
        let file = ParamSpec::flag("file", Some("file"), None, ValueType::string());
        let url = ParamSpec::flag("url", Some("url"), None, ValueType::string());
        let tool = tool(vec![file, url], vec![group]);
        let error = check(&tool, &args(json!({}))).unwrap_err();
        assert!(error
            .to_string()
            .ends_with("missing required argument: give one of `file`, `url`"));
        assert!(check(&tool, &args(json!({"file": "a", "url": "b"}))).is_err());
        assert!(check(&tool, &args(json!({"url": "b"}))).is_ok());
    }
}
