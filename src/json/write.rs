//! Writing JSON text: the same bytes as serde_json's compact writer, in about two thirds of its
//! time.
//!
//! A ruling is mostly short strings that need no escape (seats, card codes, field names) and
//! small numbers. serde_json runs every one of them, field names too, through its general escape
//! loop and copies each piece with a call to `memcpy`: writing was two fifths of adjudicating a
//! hand end to end (issue 26). Here a string with nothing to escape is copied whole, and a short
//! piece by two moves of a fixed size into a buffer already long enough. Numbers are written by
//! serde_json's own formatter. Whatever this writer does not handle (serde_json's `RawValue`, a
//! map key that is not a string, an integer or a unit variant) stops it, and the value is written
//! again by serde_json: the text, or the error, is always serde_json's.

// Why this writer stopped: the value is written again by serde_json.
use super::{ESCAPE, LeftToSerdeJson as Unhandled, RAW_VALUE};
use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::ser::{CompactFormatter, Formatter};
use std::fmt;

/// `value` as compact JSON text, exactly as `serde_json::to_vec` writes it.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut writer = Writer {
        // A ruling's length (2.7 KB for a hand of Malilla): one allocation rather than three.
        buffer: vec![0; 4096],
        len: 0,
    };
    match value.serialize(&mut writer) {
        Ok(()) => {
            writer.buffer.truncate(writer.len);
            Ok(writer.buffer)
        }
        Err(Unhandled) => serde_json::to_vec(value),
    }
}

/// `value` as compact JSON text, exactly as `serde_json::to_string` writes it.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let bytes = to_vec(value)?;
    Ok(String::from_utf8(bytes).expect("JSON text written from strings is UTF-8"))
}

/// The text so far: the first `len` bytes of `buffer`, which is kept longer than the text (zeros
/// past it), so that a piece is copied into bytes already there rather than pushed byte by byte.
struct Writer {
    buffer: Vec<u8>,
    len: usize,
}

impl Writer {
    /// The next `n` bytes of the text, to be written.
    #[inline]
    fn room(&mut self, n: usize) -> &mut [u8] {
        let end = self.len + n;
        if end > self.buffer.len() {
            self.grow(end);
        }
        let start = std::mem::replace(&mut self.len, end);
        &mut self.buffer[start..end]
    }

    #[cold]
    fn grow(&mut self, end: usize) {
        self.buffer.resize(end.max(2 * self.buffer.len()), 0);
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.room(1)[0] = b;
    }

    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        copy(self.room(bytes.len()), bytes);
    }

    /// `s` as a JSON string, escaped as serde_json escapes it.
    #[inline(always)]
    fn string(&mut self, s: &str) {
        let bytes = s.as_bytes();
        if !plain(bytes) {
            return self.escaped(bytes);
        }
        let n = bytes.len();
        let out = self.room(n + 2);
        out[0] = b'"';
        copy(&mut out[1..=n], bytes);
        out[n + 1] = b'"';
    }

    #[cold]
    fn escaped(&mut self, bytes: &[u8]) {
        self.byte(b'"');
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let escape = ESCAPE[b as usize];
            if escape == 0 {
                continue;
            }
            self.put(&bytes[start..i]);
            match escape {
                b'u' => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let (high, low) = (HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]);
                    self.put(&[b'\\', b'u', b'0', b'0', high, low]);
                }
                short => self.put(&[b'\\', short]),
            }
            start = i + 1;
        }
        self.put(&bytes[start..]);
        self.byte(b'"');
    }

    /// A field's name, after a comma unless it is the `first`, and its colon: written at once,
    /// as one piece, when the name needs no escape (a field name of a ruling never does).
    #[inline(always)]
    fn key(&mut self, first: &mut bool, key: &str) {
        let bytes = key.as_bytes();
        if !plain(bytes) {
            self.comma(first);
            self.escaped(bytes);
            return self.byte(b':');
        }
        let comma = usize::from(!std::mem::take(first));
        let n = bytes.len();
        let out = self.room(comma + n + 3);
        out[0] = b','; // the opening quote's place when there is no comma
        out[comma] = b'"';
        copy(&mut out[comma + 1..=comma + n], bytes);
        out[comma + n + 1] = b'"';
        out[comma + n + 2] = b':';
    }

    #[inline]
    fn comma(&mut self, first: &mut bool) {
        if !std::mem::take(first) {
            self.byte(b',');
        }
    }

    /// A number, as serde_json's formatter writes it.
    fn number(&mut self, write: impl FnOnce(&mut &mut [u8]) -> std::io::Result<()>) {
        // Room for the longest: an i128 is at most 40 characters, a float's shortest form 24.
        let mut digits = [0u8; 48];
        let mut rest = &mut digits[..];
        write(&mut rest).expect("a number fits in 48 bytes");
        let written = 48 - rest.len();
        self.put(&digits[..written]);
    }

    /// A float as serde_json writes it: `null` for one JSON cannot hold (NaN, an infinity).
    fn float(&mut self, finite: bool, write: impl FnOnce(&mut &mut [u8]) -> std::io::Result<()>) {
        if finite {
            self.number(write);
        } else {
            self.put(b"null");
        }
    }
}

/// Whether `bytes` is written in a JSON string as it is, with no escape.
#[inline(always)]
fn plain(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| ESCAPE[b as usize] == 0)
}

/// `from` copied into `to`, of the same length. Most pieces of a ruling are a few bytes: two
/// overlapping copies of a fixed size each compile to a move or two, where a copy of any length is
/// a call to `memcpy`.
#[inline(always)]
fn copy(to: &mut [u8], from: &[u8]) {
    let n = from.len();
    match n {
        0 => {}
        1..=3 => {
            to[0] = from[0];
            to[n / 2] = from[n / 2];
            to[n - 1] = from[n - 1];
        }
        4..=7 => {
            to[..4].copy_from_slice(&from[..4]);
            to[n - 4..].copy_from_slice(&from[n - 4..]);
        }
        8..=16 => {
            to[..8].copy_from_slice(&from[..8]);
            to[n - 8..].copy_from_slice(&from[n - 8..]);
        }
        _ => to.copy_from_slice(from),
    }
}

/// An array or object being written: whether its first element is still to come.
struct Compound<'a> {
    writer: &'a mut Writer,
    first: bool,
}

impl<'a> Compound<'a> {
    fn open(writer: &'a mut Writer, bracket: u8) -> Self {
        writer.byte(bracket);
        Compound {
            writer,
            first: true,
        }
    }

    /// A variant's content, in an object of one key, the variant's name (`{"variant":...}`).
    fn open_variant(writer: &'a mut Writer, variant: &str, bracket: u8) -> Self {
        writer.byte(b'{');
        writer.string(variant);
        writer.byte(b':');
        Compound::open(writer, bracket)
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unhandled> {
        self.writer.comma(&mut self.first);
        value.serialize(&mut *self.writer)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Unhandled> {
        self.writer.key(&mut self.first, key);
        value.serialize(&mut *self.writer)
    }

    fn close(self, bracket: u8) {
        self.writer.byte(bracket);
    }

    /// The end of a variant's content, and of the object around it (`{"variant":...}`).
    fn close_variant(self, bracket: u8) {
        self.writer.put(&[bracket, b'}']);
    }
}

/// `$write!` with every integer type: its `Serializer` method, the type, and the method of
/// serde_json's formatter that writes it.
macro_rules! each_integer {
    ($write:ident) => {
        $write! {
            serialize_i8: i8 => write_i8, serialize_i16: i16 => write_i16,
            serialize_i32: i32 => write_i32, serialize_i64: i64 => write_i64,
            serialize_i128: i128 => write_i128, serialize_u8: u8 => write_u8,
            serialize_u16: u16 => write_u16, serialize_u32: u32 => write_u32,
            serialize_u64: u64 => write_u64, serialize_u128: u128 => write_u128,
        }
    };
}

macro_rules! integers {
    ($($method:ident: $ty:ty => $write:ident),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result<(), Unhandled> {
                self.number(|out| CompactFormatter.$write(out, v));
                Ok(())
            }
        )*
    };
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Unhandled;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unhandled> {
        self.put(if v { b"true" } else { b"false" });
        Ok(())
    }

    each_integer!(integers);

    fn serialize_f32(self, v: f32) -> Result<(), Unhandled> {
        self.float(v.is_finite(), |out| CompactFormatter.write_f32(out, v));
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Unhandled> {
        self.float(v.is_finite(), |out| CompactFormatter.write_f64(out, v));
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Unhandled> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Unhandled> {
        self.string(v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unhandled> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Unhandled> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unhandled> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Unhandled> {
        self.put(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unhandled> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unhandled> {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unhandled> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unhandled> {
        let mut object = Compound::open(self, b'{');
        object.field(variant, value)?;
        object.close(b'}');
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open(self, b'['))
    }

    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open(self, b'['))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open(self, b'['))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open_variant(self, variant, b'['))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open(self, b'{'))
    }

    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a>, Unhandled> {
        if name == RAW_VALUE {
            return Err(Unhandled);
        }
        Ok(Compound::open(self, b'{'))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Unhandled> {
        Ok(Compound::open_variant(self, variant, b'{'))
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Unhandled> {
        // A `Reason`'s sentence, the one caller in a ruling.
        self.string(&formatted(value)?);
        Ok(())
    }
}

/// `value` formatted once into a String, to be written escaped; a `Display` that fails is left to
/// serde_json, which reports it.
fn formatted<T: fmt::Display + ?Sized>(value: &T) -> Result<String, Unhandled> {
    let mut text = String::new();
    fmt::write(&mut text, format_args!("{value}")).map_err(|_| Unhandled)?;
    Ok(text)
}

/// The array-like compounds: each element after a comma, and the closing bracket (and, for a
/// variant, the brace of the object around it).
macro_rules! elements {
    ($($trait:ident::$method:ident, $close:ident;)*) => {
        $(
            impl ser::$trait for Compound<'_> {
                type Ok = ();
                type Error = Unhandled;

                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unhandled> {
                    self.element(value)
                }

                fn end(self) -> Result<(), Unhandled> {
                    self.$close(b']');
                    Ok(())
                }
            }
        )*
    };
}

elements! {
    SerializeSeq::serialize_element, close;
    SerializeTuple::serialize_element, close;
    SerializeTupleStruct::serialize_field, close;
    SerializeTupleVariant::serialize_field, close_variant;
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unhandled;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unhandled> {
        key.serialize(Key {
            writer: self.writer,
            first: &mut self.first,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unhandled> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Unhandled> {
        self.close(b'}');
        Ok(())
    }
}

/// The object-like compounds: each field by its name, and the closing brace (and, for a variant,
/// the brace of the object around it).
macro_rules! fields {
    ($($trait:ident, $close:ident;)*) => {
        $(
            impl ser::$trait for Compound<'_> {
                type Ok = ();
                type Error = Unhandled;

                fn serialize_field<T: Serialize + ?Sized>(
                    &mut self,
                    key: &'static str,
                    value: &T,
                ) -> Result<(), Unhandled> {
                    self.field(key, value)
                }

                fn end(self) -> Result<(), Unhandled> {
                    self.$close(b'}');
                    Ok(())
                }
            }
        )*
    };
}

fields! {
    SerializeStruct, close;
    SerializeStructVariant, close_variant;
}

/// An object's key: a string, or what serde_json writes as one (a unit variant, an integer in
/// quotes), written with the comma before it (unless it is the `first`) and the colon after it.
/// Any other key is left to serde_json, which writes or refuses it.
struct Key<'a> {
    writer: &'a mut Writer,
    first: &'a mut bool,
}

macro_rules! quoted_integers {
    ($($method:ident: $ty:ty => $write:ident),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result<(), Unhandled> {
                self.writer.comma(self.first);
                self.writer.byte(b'"');
                self.writer.number(|out| CompactFormatter.$write(out, v));
                self.writer.put(b"\":");
                Ok(())
            }
        )*
    };
}

macro_rules! unhandled {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(
            fn $method(self, $(_: $ty),*) -> Result<(), Unhandled> {
                Err(Unhandled)
            }
        )*
    };
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unhandled;
    type SerializeSeq = Impossible<(), Unhandled>;
    type SerializeTuple = Impossible<(), Unhandled>;
    type SerializeTupleStruct = Impossible<(), Unhandled>;
    type SerializeTupleVariant = Impossible<(), Unhandled>;
    type SerializeMap = Impossible<(), Unhandled>;
    type SerializeStruct = Impossible<(), Unhandled>;
    type SerializeStructVariant = Impossible<(), Unhandled>;

    // A key that is a string is written as a field's name is.
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Unhandled> {
        self.writer.key(self.first, v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Unhandled> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Unhandled> {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Unhandled> {
        value.serialize(self)
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<(), Unhandled> {
        self.serialize_str(&formatted(value)?)
    }

    each_integer!(quoted_integers);

    unhandled! {
        serialize_bool(bool), serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]),
        serialize_none(), serialize_unit(), serialize_unit_struct(&'static str),
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unhandled> {
        Err(Unhandled)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Unhandled> {
        Err(Unhandled)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Unhandled> {
        Err(Unhandled)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unhandled> {
        Err(Unhandled)
    }
}
