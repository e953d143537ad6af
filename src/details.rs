//! Game-owned details: the fields a game adds to the common adjudication, tally, table view and
//! match state (Stubs & Spoils' mode, Court Piece's streak, ...). In the engine's types they are one
//! value the game owns; on the wire its fields sit beside the common ones, so that records and
//! results read as they always have. Each game declares their types (`Rules::Details`,
//! `Rules::Carried`), which also give its schemas.
//!
//! A game writes its details as its own typed value, and the JSON object is made only when someone
//! reads it (the ruling written out, a test): every hand writes details, and building a JSON map
//! for each showed in the replay profile. A match state's details given in a request are read
//! once, when the match state is checked (`checked`, through `Game::read_carried`): the game's
//! later reads take that reading, and the fields stay exactly as given.

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
    /// As given in a request (a match state), not yet read by its game.
    Json(Fields),
    /// As the game wrote them, or as it read them from a request (`checked`).
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

impl Held {
    fn fields(&self) -> &Fields {
        match self {
            Held::Json(fields) => fields,
            Held::Typed(value) => value.fields(),
        }
    }
}

impl Details {
    pub fn new() -> Details {
        Details(None)
    }

    /// The game's details `value` (a struct): its fields are the details' fields.
    pub fn of<T: Serialize + Send + Sync + 'static>(value: T) -> Details {
        if size_of::<T>() == 0 {
            // A struct of no size has no fields (`NoDetails`): held as none, as every hand of
            // most games reads its match state's details, and a shared value is an allocation.
            return Details(None);
        }
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
        self.0
            .as_deref()
            .map_or_else(|| EMPTY.get_or_init(Fields::new), Held::fields)
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
pub fn read<T: DeserializeOwned + Clone + Send + Sync + 'static>(
    details: &Details,
    base: &str,
) -> Result<T, Vec<FieldError>> {
    match details.0.as_deref() {
        Some(Held::Typed(value)) => match value.value().downcast_ref::<T>() {
            Some(value) => Ok(value.clone()),
            None => parse(value.fields(), base),
        },
        Some(Held::Json(fields)) => parse(fields, base),
        None => {
            // Every hand of a game that carries nothing yet reads this: no path to track.
            let none = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
                std::iter::empty::<(&str, &serde_json::Value)>(),
            );
            T::deserialize(none).map_err(|e| vec![FieldError::new(base.to_string(), e.to_string())])
        }
    }
}

/// Reads `details` given in a request as the game's type `T` (see `read`), once: the details
/// returned hold that reading for the game's later reads, with every field of `T`, a field not
/// given at its starting value (records.md, "Presence": the match state lists every field).
pub fn checked<T: DeserializeOwned + Serialize + Clone + Send + Sync + 'static>(
    details: &Details,
    base: &str,
) -> Result<Details, Vec<FieldError>> {
    Ok(Details::of(read::<T>(details, base)?))
}

/// Reads `fields` as `T`, naming every field it does not have (see `read`).
fn parse<T: DeserializeOwned>(fields: &Fields, base: &str) -> Result<T, Vec<FieldError>> {
    // Details given are mostly right: read them plainly, and track the path only to name an error.
    let plain = serde::de::value::MapDeserializer::<_, serde_json::Error>::new(
        fields.iter().map(|(k, v)| (k.as_str(), v)),
    );
    if let Ok(value) = T::deserialize(plain) {
        return Ok(value);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Carried {
        #[serde(default)]
        ties: u32,
        #[serde(default)]
        side: Option<String>,
    }

    fn given(fields: serde_json::Value) -> Details {
        serde_json::from_value(fields).unwrap()
    }

    #[test]
    fn typed_details_read_as_the_json_of_their_value() {
        let d = Details::of(Carried {
            ties: 2,
            side: None,
        });
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            json!({"ties": 2, "side": null})
        );
        assert_eq!(d, given(json!({"side": null, "ties": 2})));
        assert_ne!(d, given(json!({"ties": 2})));
        assert_eq!(
            read::<Carried>(&d, "/m").unwrap(),
            Carried {
                ties: 2,
                side: None
            }
        );
        // Nothing written: nothing held, and no field on the wire.
        assert!(Details::of(crate::details::NoDetails {}).is_empty());
        assert_eq!(serde_json::to_value(Details::new()).unwrap(), json!({}));
    }

    #[test]
    fn details_checked_hold_every_field_and_their_reading() {
        let d = given(json!({"side": "NS"}));
        let held = checked::<Carried>(&d, "/match_state").unwrap();
        // The field not given is there at its starting value.
        assert_eq!(
            serde_json::to_value(&held).unwrap(),
            json!({"ties": 0, "side": "NS"})
        );
        assert_eq!(
            read::<Carried>(&held, "/match_state").unwrap(),
            Carried {
                ties: 0,
                side: Some("NS".into())
            }
        );
        // Nothing given: the match's start, every field at its starting value.
        assert_eq!(
            serde_json::to_value(checked::<Carried>(&Details::new(), "/m").unwrap()).unwrap(),
            json!({"ties": 0, "side": null})
        );
    }

    #[test]
    fn every_wrong_field_is_named_with_its_pointer() {
        let d = given(json!({"ties": 1, "odd": 1, "other": 2}));
        let e = checked::<Carried>(&d, "/match_state").unwrap_err();
        let pointers: Vec<_> = e.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(pointers, ["/match_state/odd", "/match_state/other"]);
        let e = read::<Carried>(&given(json!({"ties": "x"})), "/match_state").unwrap_err();
        assert_eq!(e[0].pointer, "/match_state/ties");
    }
}
