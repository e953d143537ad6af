//! Game-owned details: the fields a game adds to the common adjudication, tally, table view and
//! match state (Stubs & Spoils' mode, Court Piece's streak, ...). In the engine's types they are one
//! value the game owns; on the wire its fields sit beside the common ones, so that records and
//! results read as they always have. Each game declares their types (`Rules::Details`,
//! `Rules::Carried`), which also give its schemas.
//!
//! A game writes its details as its own typed value, and the JSON object is made only when someone
//! reads it (the ruling written out, a test). Every hand writes details, and building a JSON map
//! for each showed in the replay profile. Details read from a request stay JSON until the game
//! reads them (`read`), and a game's carried state is read once, when the hand starts
//! (`Game::read_carried`).

use crate::input::{FieldError, pointer_of};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};
use utoipa::ToSchema;

type Fields = serde_json::Map<String, serde_json::Value>;

/// A game's own fields. Most games have none, and every hand builds and copies many of these (one
/// per tally side, the match states, the view), so empty details hold nothing, and others are one
/// shared pointer: small to move, and a copy is not a new allocation.
#[derive(Clone, Default)]
pub struct Details(Option<Arc<Held>>);

enum Held {
    /// As read from a request (a match state), not yet read by its game.
    Json(Fields),
    /// As the game wrote them.
    Typed(Box<dyn Owned>),
}

/// A game's typed details, with their JSON object made on first reading.
trait Owned: Send + Sync {
    fn fields(&self) -> &Fields;
    fn value(&self) -> &dyn Any;
}

struct Value<T> {
    value: T,
    fields: OnceLock<Fields>,
}

impl<T: Serialize + Send + Sync + 'static> Owned for Value<T> {
    fn fields(&self) -> &Fields {
        self.fields
            .get_or_init(|| match serde_json::to_value(&self.value) {
                Ok(serde_json::Value::Object(fields)) => fields,
                other => unreachable!("details are a struct, not {other:?}"),
            })
    }

    fn value(&self) -> &dyn Any {
        &self.value
    }
}

impl Details {
    pub fn new() -> Details {
        Details(None)
    }

    /// The game's details `value` (a struct): its fields are the details' fields.
    pub fn of<T: Serialize + Send + Sync + 'static>(value: T) -> Details {
        Details(Some(Arc::new(Held::Typed(Box::new(Value {
            value,
            fields: OnceLock::new(),
        })))))
    }
}

/// The fields, read like a JSON object (empty when there are none).
impl std::ops::Deref for Details {
    type Target = Fields;
    fn deref(&self) -> &Fields {
        static EMPTY: OnceLock<Fields> = OnceLock::new();
        match self.0.as_deref() {
            None => EMPTY.get_or_init(Fields::new),
            Some(Held::Json(fields)) => fields,
            Some(Held::Typed(value)) => value.fields(),
        }
    }
}

/// Details are equal when their fields are, however they are held.
impl PartialEq for Details {
    fn eq(&self, other: &Details) -> bool {
        **self == **other
    }
}

impl fmt::Debug for Details {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
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
        Ok(Details(
            (!fields.is_empty()).then(|| Arc::new(Held::Json(fields))),
        ))
    }
}

/// Reads `details` as the game's type `T`: as the game wrote them, or from JSON refusing every
/// field it does not have, or a wrong value, with a pointer under `base`
/// (`/match_state/streak/count`).
pub fn read<T: DeserializeOwned + Clone + 'static>(
    details: &Details,
    base: &str,
) -> Result<T, Vec<FieldError>> {
    let fields = match details.0.as_deref() {
        Some(Held::Typed(value)) => {
            if let Some(value) = value.value().downcast_ref::<T>() {
                return Ok(value.clone());
            }
            value.fields()
        }
        Some(Held::Json(fields)) => fields,
        None => {
            // Every hand of a game that carries nothing yet reads this: no path to track.
            let none = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
                std::iter::empty::<(&str, &serde_json::Value)>(),
            );
            return T::deserialize(none)
                .map_err(|e| vec![FieldError::new(base.to_string(), e.to_string())]);
        }
    };
    let mut errors = Vec::new();
    let mut unknown: Vec<&str> = Vec::new();
    loop {
        let map = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
            fields
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
            .and_then(|f| fields.keys().find(|k| *k == f));
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
