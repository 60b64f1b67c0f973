//! JSON Schema rendering: one value, one property, a tool's input, and
//! the shared output schema.

use serde_json::{json, Map, Value};

use super::{ParamSpec, ToolSpec, ValueType};

impl ValueType {
    /// The JSON Schema of one value of this type.
    pub fn schema(&self) -> Map<String, Value> {
        if let ValueType::Json { schema } = self {
            return schema.clone();
        }
        let mut schema = Map::new();
        schema.insert("type".into(), self.json_type().into());
        match self {
            ValueType::String(facets) => {
                if let Some(format) = facets.format {
                    schema.insert("format".into(), format.into());
                }
                if !facets.any_format.is_empty() {
                    let alternatives: Vec<Value> = facets
                        .any_format
                        .iter()
                        .map(|format| json!({ "format": format }))
                        .collect();
                    schema.insert("anyOf".into(), alternatives.into());
                }
                if let Some(pattern) = facets.pattern {
                    schema.insert("pattern".into(), pattern.into());
                }
                if let Some(min) = facets.min_length {
                    schema.insert("minLength".into(), min.into());
                }
                if let Some(max) = facets.max_length {
                    schema.insert("maxLength".into(), max.into());
                }
                if !facets.examples.is_empty() {
                    schema.insert("examples".into(), facets.examples.into());
                }
            }
            ValueType::Integer { minimum, maximum } => {
                if let Some(min) = minimum {
                    schema.insert("minimum".into(), integer_json(*min));
                }
                if let Some(max) = maximum {
                    schema.insert("maximum".into(), integer_json(*max));
                }
            }
            ValueType::Enum { values, .. } => {
                schema.insert("enum".into(), values.clone().into());
            }
            ValueType::Map { values } => {
                schema.insert("additionalProperties".into(), values.schema().into());
            }
            ValueType::Number | ValueType::Boolean | ValueType::Json { .. } => {}
        }
        schema
    }
}

fn integer_json(value: i128) -> Value {
    if let Ok(small) = i64::try_from(value) {
        Value::from(small)
    } else if let Ok(unsigned) = u64::try_from(value) {
        Value::from(unsigned)
    } else {
        // Beyond 64 bits JSON numbers lose precision in most clients anyway.
        Value::from(value as f64)
    }
}

impl ParamSpec {
    /// The JSON Schema of this property.
    pub fn property_schema(&self) -> Value {
        let item = self.value_type.schema();
        // A `#[mcp(json)]` type's schema names its parts from its own root.
        let own_root = matches!(self.value_type, ValueType::Json { .. });
        let mut schema = if self.multiple {
            let mut array = Map::new();
            array.insert("type".into(), "array".into());
            array.insert("items".into(), item.into());
            if let Some(min) = self.min_items {
                array.insert("minItems".into(), min.into());
            }
            if let Some(max) = self.max_items {
                array.insert("maxItems".into(), max.into());
            }
            array
        } else {
            item
        };
        if self.nullable && !schema.contains_key("type") {
            // A schema without one type (`anyOf`...): null as an alternative.
            let any = json!([Value::Object(std::mem::take(&mut schema)), { "type": "null" }]);
            schema.insert("anyOf".into(), any);
        } else if self.nullable {
            let json_type = match schema.remove("type") {
                // Already a list (a `#[mcp(json)]` type's own): add `null`.
                Some(Value::Array(mut kinds)) => {
                    if !kinds.contains(&json!("null")) {
                        kinds.push(json!("null"));
                    }
                    Value::Array(kinds)
                }
                Some(kind) => json!([kind, "null"]),
                None => json!(["null"]),
            };
            schema.insert("type".into(), json_type);
            // `enum` constrains every instance, `null` included.
            if let Some(Value::Array(values)) = schema.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        if own_root {
            // A recursive `#[mcp(json)]` type refers to itself (`#`) or to
            // its `$defs` from the root of its own schema; inside the tool's
            // input schema those references must name where it sits.
            let mut at = format!("#/properties/{}", pointer_escape(&self.name));
            if schema.contains_key("anyOf") && self.nullable {
                at.push_str("/anyOf/0");
            }
            if self.multiple {
                at.push_str("/items");
            }
            for value in schema.values_mut() {
                relocate_refs(value, &at);
            }
        }
        if let Some(description) = &self.description {
            schema.insert("description".into(), description.clone().into());
        }
        if let Some(default) = &self.default {
            schema.insert("default".into(), default.clone());
        }
        Value::Object(schema)
    }
}

/// A property name as a JSON Pointer token.
fn pointer_escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Points every root-relative `$ref` below `value` (`#`, `#/$defs/...`)
/// at the same place under `at`.
fn relocate_refs(value: &mut Value, at: &str) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map.iter_mut() {
                match inner {
                    Value::String(target) if key == "$ref" => {
                        if target == "#" {
                            *target = at.to_owned();
                        } else if let Some(rest) = target.strip_prefix("#/") {
                            *target = format!("{at}/{rest}");
                        }
                    }
                    _ => relocate_refs(inner, at),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| relocate_refs(item, at)),
        _ => {}
    }
}

impl ToolSpec {
    /// The tool's input schema: `type: object`, one property per
    /// parameter, `required`, `additionalProperties: false`.
    pub fn input_schema(&self) -> Map<String, Value> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for param in &self.params {
            properties.insert(param.name.clone(), param.property_schema());
            if param.required {
                required.push(Value::from(param.name.clone()));
            }
        }
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        schema.insert("properties".into(), properties.into());
        if !required.is_empty() {
            schema.insert("required".into(), required.into());
        }
        schema.insert("additionalProperties".into(), false.into());
        let rules = super::relations::schema_rules(self);
        if !rules.is_empty() {
            schema.insert("allOf".into(), rules.into());
        }
        schema
    }
}

/// The output schema every tool shares: what the command printed and its
/// exit code.
pub fn output_schema() -> Map<String, Value> {
    let schema = json!({
        "type": "object",
        "properties": {
            "stdout": { "type": "string", "description": "What the command wrote to standard output" },
            "stderr": { "type": "string", "description": "What the command wrote to standard error" },
            "exitCode": { "type": "integer", "description": "The command's exit code; 0 means success" }
        },
        "required": ["stdout", "stderr", "exitCode"]
    });
    match schema {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}
