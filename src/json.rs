//! Reading JSON text into a type in one pass that also refuses what serde lets through: a key
//! given twice in any object (serde keeps a map's last value silently) and anything after the
//! document. The way a well-formed body is read; a body this refuses is read again by the
//! path-reporting reader (`api::problem`), which names what is wrong.
//!
//! Writing (`to_vec`, `to_string`): serde_json's compact text, byte for byte, in less time
//! (`write`).

mod write;

pub use write::{to_string, to_vec};

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use std::cell::{Cell, RefCell};
use std::fmt;

/// `bytes` read as `T`, if they are one JSON document of a `T` with no key given twice in any
/// of its objects. `None` for any failure, and wherever the reader cannot be sure (a key written
/// with an escape or read as other than a string, an object of more than `FEW` keys): the caller
/// reads the body again to name the problem (`api::problem::parse_json`).
pub fn read_unique<'de, T: de::Deserialize<'de>>(bytes: &'de [u8]) -> Option<T> {
    let keys = Keys::default();
    // The whole text checked as UTF-8 once, not each string again as it is read: text from a
    // `str` is known to be UTF-8 (`from_str`), bytes are not (`from_slice` checks every string,
    // a tenth of reading a record). The same answer: every byte outside a string is JSON's ASCII
    // and every string of a record is read, so bytes that are not UTF-8 never read.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Unique {
        de: &mut de,
        keys: &keys,
    })
    .ok()?;
    de.end().ok()?;
    Some(value)
}

/// The keys so far of the objects being read, outermost first: an object's own keys are the last
/// ones, and it takes them off when it ends (one list for the document, not one per object).
#[derive(Default)]
struct Keys<'de>(RefCell<Vec<&'de str>>);

/// The most keys an object read here may have (a record's objects have fewer: its own fields,
/// its seats, its options).
const FEW: usize = 32;

/// Why a read stopped short (never shown: the body is read again to name its problem).
fn unsure<E: de::Error>() -> E {
    E::custom("a key given twice, or one this reader cannot compare")
}

/// A deserializer that reads every object it meets through `UniqueMap`.
struct Unique<'k, 'de, D> {
    de: D,
    keys: &'k Keys<'de>,
}

/// A visitor that hands on every map, sequence, option and enum wrapped, so that objects at any
/// depth are read through `UniqueMap`.
struct Wrap<'k, 'de, V> {
    visitor: V,
    keys: &'k Keys<'de>,
}

/// The methods of a deserializer that hands each of its visitors on wrapped in `$wrap`, which
/// takes the deserializer's own `$field` (all but `deserialize_ignored_any`, which differs).
macro_rules! forward_deserialize {
    ($wrap:ident { $field:ident }) => {
        forward_deserialize! {
            @each $wrap $field;
            deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(),
            deserialize_i32(), deserialize_i64(), deserialize_i128(), deserialize_u8(),
            deserialize_u16(), deserialize_u32(), deserialize_u64(), deserialize_u128(),
            deserialize_f32(), deserialize_f64(), deserialize_char(), deserialize_str(),
            deserialize_string(), deserialize_bytes(), deserialize_byte_buf(), deserialize_option(),
            deserialize_unit(), deserialize_unit_struct(name: &'static str),
            deserialize_newtype_struct(name: &'static str), deserialize_seq(),
            deserialize_tuple(len: usize), deserialize_tuple_struct(name: &'static str, len: usize),
            deserialize_map(),
            deserialize_struct(name: &'static str, fields: &'static [&'static str]),
            deserialize_enum(name: &'static str, variants: &'static [&'static str]),
            deserialize_identifier(),
        }
    };
    (@each $wrap:ident $field:ident; $($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                self.de.$method($($arg,)* $wrap { visitor, $field: self.$field })
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Unique<'_, 'de, D> {
    type Error = D::Error;

    forward_deserialize!(Wrap { keys });

    /// A value skipped is walked all the same: an object in it may not repeat a key either.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

/// The methods of a visitor that hands each value on to its `visitor` as it is: every one that
/// takes no deserializer or access, but `visit_borrowed_str`, which differs.
macro_rules! forward_visit {
    () => {
        forward_visit! {
            @each
            visit_bool(v: bool), visit_i8(v: i8), visit_i16(v: i16), visit_i32(v: i32),
            visit_i64(v: i64), visit_i128(v: i128), visit_u8(v: u8), visit_u16(v: u16),
            visit_u32(v: u32), visit_u64(v: u64), visit_u128(v: u128), visit_f32(v: f32),
            visit_f64(v: f64), visit_char(v: char), visit_str(v: &str), visit_string(v: String),
            visit_bytes(v: &[u8]), visit_borrowed_bytes(v: &'de [u8]), visit_byte_buf(v: Vec<u8>),
            visit_none(), visit_unit(),
        }
    };
    (@each $($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            fn $method<E: de::Error>(self, $($arg: $ty),*) -> Result<V::Value, E> {
                self.visitor.$method($($arg),*)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit!();

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let keys = self.keys;
        self.visitor.visit_some(Unique { de, keys })
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let keys = self.keys;
        self.visitor.visit_newtype_struct(Unique { de, keys })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let keys = self.keys;
        self.visitor.visit_seq(Unique { de: seq, keys })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let first = self.keys.0.borrow().len();
        let keys = self.keys;
        self.visitor.visit_map(UniqueMap { map, keys, first })
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let keys = self.keys;
        self.visitor.visit_enum(Unique { de: data, keys })
    }
}

/// A seed whose value is read through `Unique`.
struct Seed<'k, 'de, S> {
    seed: S,
    keys: &'k Keys<'de>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, 'de, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        let keys = self.keys;
        self.seed.deserialize(Unique { de, keys })
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Unique<'_, 'de, A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let keys = self.keys;
        self.de.next_element_seed(Seed { seed, keys })
    }
    fn size_hint(&self) -> Option<usize> {
        self.de.size_hint()
    }
}

impl<'k, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Unique<'k, 'de, A> {
    type Error = A::Error;
    type Variant = Unique<'k, 'de, A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let keys = self.keys;
        let (value, de) = self.de.variant_seed(seed)?;
        Ok((value, Unique { de, keys }))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Unique<'_, 'de, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.de.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        let keys = self.keys;
        self.de.newtype_variant_seed(Seed { seed, keys })
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let keys = self.keys;
        self.de.tuple_variant(len, Wrap { visitor, keys })
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let keys = self.keys;
        self.de.struct_variant(fields, Wrap { visitor, keys })
    }
}

/// An object being read: each key is compared with the object's keys so far and refused if given
/// before. An object of more than `FEW` keys is left to the path-reporting reader, whose walk
/// hashes them: compared here, a long object would cost the square of its length.
struct UniqueMap<'k, 'de, A> {
    map: A,
    keys: &'k Keys<'de>,
    /// Where this object's keys start in `keys`.
    first: usize,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for UniqueMap<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let key = Cell::new(None);
        let Some(value) = self.map.next_key_seed(KeySeed { seed, key: &key })? else {
            return Ok(None);
        };
        let key = key.get().ok_or_else(unsure)?;
        let mut keys = self.keys.0.borrow_mut();
        // Length and first byte before the bytes: most keys differ there ("seat" and "play"), and
        // comparing two strings of one length is a call to `memcmp`, a twentieth of reading a record.
        let given = |k: &&str| {
            k.len() == key.len() && k.as_bytes().first() == key.as_bytes().first() && *k == key
        };
        if keys.len() - self.first >= FEW || keys[self.first..].iter().any(given) {
            return Err(unsure());
        }
        keys.push(key);
        Ok(Some(value))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let keys = self.keys;
        self.map.next_value_seed(Seed { seed, keys })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<A> Drop for UniqueMap<'_, '_, A> {
    fn drop(&mut self) {
        self.keys.0.borrow_mut().truncate(self.first);
    }
}

/// A key's seed: the key is read as it is and kept in `key` when the document holds it as
/// written (a borrowed string: no escape).
struct KeySeed<'c, 'de, S> {
    seed: S,
    key: &'c Cell<Option<&'de str>>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, 'de, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDe { de, key: self.key })
    }
}

/// The deserializer of a key, noting the key as its visitor is given it.
struct KeyDe<'c, 'de, D> {
    de: D,
    key: &'c Cell<Option<&'de str>>,
}

/// The visitor of a key (`KeyDe`).
struct KeyVisitor<'c, 'de, V> {
    visitor: V,
    key: &'c Cell<Option<&'de str>>,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDe<'_, 'de, D> {
    type Error = D::Error;

    forward_deserialize!(KeyVisitor { key });

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let key = self.key;
        self.de.deserialize_ignored_any(KeyVisitor { visitor, key })
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, 'de, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.visitor.expecting(f)
    }

    /// The one way a key is noted: as written in the document. Any other (an escaped key, a
    /// number) leaves `key` empty, and the read stops as unsure.
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.key.set(Some(v));
        self.visitor.visit_borrowed_str(v)
    }

    forward_visit!();
}

#[cfg(test)]
mod tests {
    use super::read_unique;
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Plain {
        #[allow(dead_code)]
        a: u8,
    }

    #[test]
    fn a_value_skipped_is_walked_for_keys_given_twice_all_the_same() {
        assert!(read_unique::<Plain>(br#"{"a": 1, "b": {"c": 1, "d": [{"c": 2}]}}"#).is_some());
        assert!(read_unique::<Plain>(br#"{"a": 1, "b": {"c": 1, "c": 2}}"#).is_none());
        assert!(read_unique::<Plain>(br#"{"a": 1, "b": [{"c": 1, "c": 2}]}"#).is_none());
        assert!(read_unique::<Plain>(br#"{"a": 1, "a": 1}"#).is_none());
    }
}
