//! Game-owned details: the fields a game adds to the common adjudication, tally, table view and
//! match state (Stubs & Spoils' mode, Court Piece's streak, ...). In the engine's types they are one
//! JSON object the game owns; on the wire its fields sit beside the common ones, so that records and
//! results read as they always have. Each game declares their types (`Rules::Details`,
//! `Rules::Carried`), which also give its schemas.

use crate::input::{FieldError, pointer_of};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use utoipa::ToSchema;

type Fields = serde_json::Map<String, serde_json::Value>;

/// A game's own fields, by name. Most games have none, and every hand builds many of these
/// (one per tally side, the match states, the view), so an empty one holds no map at all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Details(Option<Box<Fields>>);

impl Details {
    pub fn new() -> Details {
        Details(None)
    }

    pub fn insert(&mut self, key: String, value: serde_json::Value) {
        self.0.get_or_insert_with(Box::default).insert(key, value);
    }

    pub fn remove(&mut self, key: &str) -> Option<serde_json::Value> {
        let removed = self.0.as_mut()?.remove(key);
        if self.0.as_ref().is_some_and(|f| f.is_empty()) {
            self.0 = None;
        }
        removed
    }
}

/// The fields, read like a JSON object (empty when there are none).
impl std::ops::Deref for Details {
    type Target = Fields;
    fn deref(&self) -> &Fields {
        static EMPTY: OnceLock<Fields> = OnceLock::new();
        self.0
            .as_deref()
            .unwrap_or_else(|| EMPTY.get_or_init(Fields::new))
    }
}

impl Serialize for Details {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Details {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let fields = Fields::deserialize(d)?;
        Ok(Details((!fields.is_empty()).then(|| Box::new(fields))))
    }
}

/// Writes the fields of `value` (a struct) into `details`, replacing fields of the same name.
pub fn set<T: Serialize>(details: &mut Details, value: &T) {
    match serde_json::to_value(value).expect("details are JSON") {
        // Empty so far (the usual case): the new fields are the details, no copying field by field.
        serde_json::Value::Object(fields) if details.0.is_none() => {
            details.0 = (!fields.is_empty()).then(|| Box::new(fields));
        }
        serde_json::Value::Object(fields) => {
            for (k, v) in fields {
                details.insert(k, v);
            }
        }
        other => unreachable!("details are a struct, not {other}"),
    }
}

/// Reads `details` as the game's type `T`, refusing every field it does not have, or a wrong
/// value, with a pointer under `base` (`/match_state/streak/count`).
pub fn read<T: DeserializeOwned>(details: &Details, base: &str) -> Result<T, Vec<FieldError>> {
    if details.is_empty() {
        // Every hand of a game that carries nothing yet reads this: no path to track.
        let none = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
            std::iter::empty::<(&str, &serde_json::Value)>(),
        );
        return T::deserialize(none)
            .map_err(|e| vec![FieldError::new(base.to_string(), e.to_string())]);
    }
    let mut errors = Vec::new();
    let mut unknown: Vec<&str> = Vec::new();
    loop {
        let map = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
            details
                .iter()
                .filter(|(k, _)| !unknown.contains(&k.as_str()))
                .map(|(k, v)| (k.as_str(), v)),
        );
        let e = match serde_path_to_error::deserialize(map) {
            Ok(value) if errors.is_empty() => return Ok(value),
            Ok(_) => return Err(errors),
            Err(e) => e,
        };
        let pointer = format!("{base}{}", pointer_of(e.path()));
        let message = e.into_inner().to_string();
        // The path ends at an unknown field: read on without it, so that every such field is named.
        let field = message
            .strip_prefix("unknown field `")
            .and_then(|m| m.split('`').next())
            .and_then(|f| details.keys().find(|k| *k == f));
        match field {
            Some(field) => {
                errors.push(FieldError::new(pointer, message));
                unknown.push(field);
            }
            None => {
                errors.push(FieldError::new(pointer, message));
                return Err(errors);
            }
        }
    }
}

/// The details of a game that has none: any field is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoDetails {}
