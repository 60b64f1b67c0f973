//! A JSON value that keeps its object keys in the order they were read or
//! added: for editing a file a person wrote (`mcp install`), whose keys
//! must stay where they were.
//!
//! `serde_json::Value` keeps them only under serde_json's `preserve_order`
//! feature, which would change every `serde_json::Map` in the program that
//! uses this library: features are unified across the whole dependency
//! graph. So the order is kept here, in a type of our own.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A JSON value; objects keep their keys in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Object),
}

/// A JSON object: its members in order, each key once.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Object(Vec<(String, Json)>);

impl Object {
    /// An empty object.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Sets `key` to `value`: in its place when it was there (the old value
    /// returned), at the end otherwise.
    pub(crate) fn insert(
        &mut self,
        key: impl Into<String>,
        value: impl Into<Json>,
    ) -> Option<Json> {
        let key = key.into();
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// Removes `key`, keeping the others in order.
    pub(crate) fn remove(&mut self, key: &str) -> Option<Json> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// The value of `key`, set to `make()` at the end first when missing.
    pub(crate) fn get_or_insert_with(
        &mut self,
        key: &str,
        make: impl FnOnce() -> Json,
    ) -> &mut Json {
        let at = match self.0.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                self.0.push((key.to_owned(), make()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    /// The members, in order.
    #[cfg(test)]
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }
}

impl Json {
    /// What kind of value this is, as a message names it.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

impl From<Object> for Json {
    fn from(object: Object) -> Self {
        Json::Object(object)
    }
}

impl From<&str> for Json {
    fn from(text: &str) -> Self {
        Json::String(text.to_owned())
    }
}

impl From<String> for Json {
    fn from(text: String) -> Self {
        Json::String(text)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(items: Vec<T>) -> Self {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => items.serialize(serializer),
            Json::Object(object) => {
                let mut map = serializer.serialize_map(Some(object.0.len()))?;
                for (key, value) in &object.0 {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json, E> {
        // JSON text has no NaN or infinity: serde_json never hands one over.
        Ok(serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, text: &str) -> Result<Json, E> {
        Ok(Json::String(text.to_owned()))
    }

    fn visit_string<E>(self, text: String) -> Result<Json, E> {
        Ok(Json::String(text))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        Deserialize::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        // A key given twice keeps its first place and its last value, as
        // serde_json's own map does.
        let mut object = Object::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            object.insert(key, value);
        }
        Ok(Json::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_through_a_read_an_edit_and_a_write() {
        let text = r#"{"zeta": 1, "alpha": {"b": [1.5, -2, null, true], "a": "x"}, "mid": false}"#;
        let mut json: Json = serde_json::from_str(text).unwrap();
        let Json::Object(root) = &mut json else {
            panic!("an object")
        };
        assert_eq!(root.keys().collect::<Vec<_>>(), ["zeta", "alpha", "mid"]);
        // Replaced in place; added at the end; removed without moving the rest.
        let old = root.insert("alpha", "replaced").unwrap();
        assert_eq!(old.kind(), "an object");
        assert_eq!(root.insert("new", vec!["x"]), None);
        assert_eq!(root.remove("zeta"), Some(Json::Number(1.into())));
        assert_eq!(root.remove("zeta"), None);
        root.get_or_insert_with("mid", || Json::Null);
        root.get_or_insert_with("last", || Object::new().into());
        assert_eq!(
            serde_json::to_string(&json).unwrap(),
            r#"{"alpha":"replaced","mid":false,"new":["x"],"last":{}}"#
        );
        let nested: Json = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_string(&nested).unwrap(),
            r#"{"zeta":1,"alpha":{"b":[1.5,-2,null,true],"a":"x"},"mid":false}"#
        );
    }

    #[test]
    fn a_key_given_twice_keeps_its_first_place_and_its_last_value() {
        let json: Json = serde_json::from_str(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), r#"{"a":3,"b":2}"#);
    }
}
