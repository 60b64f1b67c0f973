//! JSON Schema rendering: one value, one property, a tool's input, and
//! the shared output schema.

use serde_json::{json, Map, Value};

use super::{ParamSpec, ToolSpec, ValueType};

/// The schema keyword of `#[mcp(header = "...")]` (SEP-2243): the HTTP
/// header (`Mcp-Param-<name>`) a client sends the property's value in.
pub(crate) const HEADER_KEYWORD: &str = "x-mcp-header";

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
        if let Some(header) = &self.header {
            schema.insert(HEADER_KEYWORD.into(), header.clone().into());
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

/// The JSON Schema `schemars` derives for `T` (draft 2020-12, subschemas
/// inlined; a recursive type keeps its `$defs`), without `$schema` and
/// `title`: the tool says the dialect, the type's name is no help to a
/// model.
pub(crate) fn type_schema<T: schemars::JsonSchema>() -> Map<String, Value> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let mut schema = match generator.into_root_schema_for::<T>().to_value() {
        Value::Object(schema) => schema,
        // `true`: anything.
        _ => Map::new(),
    };
    schema.remove("$schema");
    schema.remove("title");
    schema
}

/// The property a handler's value sits under in `structuredContent` when
/// its schema is not an object's (MCP wants an object there).
pub const RESULT_PROPERTY: &str = "result";

/// Whether a schema describes objects only, so a value it describes can be
/// `structuredContent` as it is.
pub(crate) fn is_object_schema(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

impl ToolSpec {
    /// The tool's `outputSchema`, when its handler returns a value
    /// (`#[mcp(output = Type)]`): the type's schema when it describes an
    /// object, else an object with the value under `result`.
    pub fn output_schema(&self) -> Option<Map<String, Value>> {
        let schema = self.returns?.schema();
        if is_object_schema(&schema) {
            return Some(schema);
        }
        let mut inner = Value::Object(schema);
        let at = format!("#/properties/{RESULT_PROPERTY}");
        relocate_refs(&mut inner, &at);
        let wrapped = json!({
            "type": "object",
            "properties": { RESULT_PROPERTY: inner },
            "required": [RESULT_PROPERTY],
        });
        match wrapped {
            Value::Object(map) => Some(map),
            _ => unreachable!("a JSON object literal"),
        }
    }
}
