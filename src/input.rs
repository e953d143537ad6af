//! What is wrong with a request's input, before any adjudication: a JSON pointer to the value and
//! what was expected (RFC 9457 problem details carry these as `errors`).

use serde::Serialize;
use serde::de::{DeserializeSeed, Deserializer, Visitor};
use std::borrow::Cow;
use std::fmt;
use utoipa::ToSchema;

/// A problem with one part of a request, refused before any adjudication (HTTP 4xx).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) to the offending value.
    pub pointer: String,
    /// What is wrong and what was expected.
    pub detail: String,
    /// In a CSV upload: the 1-based line of the offending cell (the header is line 1). In a PBN
    /// text: the 1-based line where the offending part was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u64>,
    /// In a CSV upload: the 1-based column of the offending cell. In a PBN text: the 1-based
    /// column (in characters) where the offending part was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

impl FieldError {
    pub fn new(pointer: String, detail: String) -> FieldError {
        FieldError {
            pointer,
            detail,
            row: None,
            column: None,
        }
    }

    /// Prefixes the pointer with `base` (an error inside a nested document).
    pub fn under(mut self, base: &str) -> FieldError {
        self.pointer = format!("{base}{}", self.pointer);
        self
    }
}

/// Escapes one token of a JSON pointer (RFC 6901).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The JSON pointer of a path where deserializing failed.
pub fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => out.push_str(&format!("/{}", escape(key))),
            Segment::Enum { variant } => out.push_str(&format!("/{}", escape(variant))),
            Segment::Unknown => {}
        }
    }
    out
}

/// An object's key, borrowed from the document unless it has escapes (`next_key_seed(Key)`): serde
/// reads a `Cow<str>` key as an owned string, an allocation for every key of every body.
pub struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(key))
    }
    fn visit_str<E>(self, key: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(key.to_owned()))
    }
}
