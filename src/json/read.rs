//! The one-pass reader behind `read_unique`: a serde deserializer over JSON text that reads what
//! serde_json reads, as serde_json hands it to a visitor, and refuses a key given twice in any
//! object. It only has to be right about what it takes: wherever it is not sure of serde_json's
//! answer (a number that is not a plain integer, a key written with an escape, an object of many
//! keys, deep nesting, a type it does not read) it stops, and the caller reads the text again the
//! slow way (serde_json and the path-reporting walk), which names the problem or takes it.
//!
//! Before, the one pass was serde_json's own deserializer under a wrapper that noted every key.
//! Reading a record spent a third of its time in serde_json's string parsing (built for strings of
//! any length) and a fifth in the wrapper's hand-offs; a record is short strings: seats, cards,
//! verbs.

// Why the one pass stopped: the text is read again the slow way.
use super::{ESCAPE, LeftToSerdeJson as Unsure, RAW_VALUE};
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The most keys an object read here may have (a record's objects have fewer: its own fields,
/// its seats, its options). Each key is compared with the object's others: a long object would
/// cost the square of its length, and the slow walk hashes them.
const FEW: usize = 32;

/// The deepest nesting read here (serde_json stops at 128).
const DEEP: usize = 64;

type Result<T> = std::result::Result<T, Unsure>;

pub(super) struct Reader<'de> {
    text: &'de str,
    at: usize,
    depth: usize,
    /// The keys so far of the objects being read, outermost first: an object's own keys are the
    /// last ones, and it takes them off when it ends (one list for the document).
    keys: Vec<&'de str>,
}

/// A string as read: as written, or with its escapes replaced.
enum Text<'de> {
    Written(&'de str),
    Unescaped(String),
}

impl<'de> Reader<'de> {
    pub(super) fn new(text: &'de str) -> Self {
        Reader {
            text,
            at: 0,
            depth: 0,
            // Room for a record's fields and an action's at once, made once rather than grown.
            keys: Vec::with_capacity(FEW),
        }
    }

    /// Nothing but whitespace after the document.
    pub(super) fn end(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(Unsure),
        }
    }

    fn bytes(&self) -> &'de [u8] {
        self.text.as_bytes()
    }

    /// The next byte that is not JSON whitespace, not taken.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes().get(self.at) {
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.at += 1;
        }
        None
    }

    /// The next byte that is not whitespace, which must be `b`, taken.
    #[inline]
    fn expect(&mut self, b: u8) -> Result<()> {
        if self.peek() != Some(b) {
            return Err(Unsure);
        }
        self.at += 1;
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if !self.bytes()[self.at..].starts_with(word) {
            return Err(Unsure);
        }
        self.at += word.len();
        Ok(())
    }

    /// A string, its opening quote next.
    #[inline]
    fn string(&mut self) -> Result<Text<'de>> {
        let start = self.at + 1;
        let bytes = self.bytes();
        // The plain run, one look-up a byte, then the byte that ends it.
        let mut at = start;
        while let Some(&b) = bytes.get(at)
            && ESCAPE[b as usize] == 0
        {
            at += 1;
        }
        self.at = at;
        match bytes.get(at) {
            Some(b'"') => {
                self.at += 1;
                Ok(Text::Written(&self.text[start..at]))
            }
            Some(b'\\') => self.unescaped(start).map(Text::Unescaped),
            // A control character must be escaped in JSON: serde_json refuses it. Or the text
            // ends inside the string.
            _ => Err(Unsure),
        }
    }

    /// The rest of a string that holds an escape, from `start` (its first byte).
    #[cold]
    fn unescaped(&mut self, start: usize) -> Result<String> {
        let bytes = self.bytes();
        let mut out = String::from(&self.text[start..self.at]);
        loop {
            let run = self.at;
            while bytes
                .get(self.at)
                .is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20)
            {
                self.at += 1;
            }
            out.push_str(&self.text[run..self.at]);
            match bytes.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escape = *bytes.get(self.at + 1).ok_or(Unsure)?;
                    self.at += 2;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\x08',
                        b'f' => '\x0c',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.code_point()?,
                        _ => return Err(Unsure),
                    });
                }
                _ => return Err(Unsure),
            }
        }
    }

    /// The character of a `\u` escape (its four hex digits next), a surrogate pair whole. A lone
    /// surrogate is refused, as serde_json refuses it.
    fn code_point(&mut self) -> Result<char> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..0xDC00 => {
                self.literal(b"\\u")?;
                let low = self.hex4()?;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(Unsure);
                }
                0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
            }
            0xDC00..0xE000 => return Err(Unsure),
            _ => first,
        };
        char::from_u32(code).ok_or(Unsure)
    }

    fn hex4(&mut self) -> Result<u32> {
        let digits = self.text.get(self.at..self.at + 4).ok_or(Unsure)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Unsure);
        }
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| Unsure)
    }

    /// A number given to `visitor` as serde_json gives it: an integer without sign as a `u64`, a
    /// negative one as an `i64`, any other (a fraction, an exponent, `-0`, an integer beyond 64
    /// bits) as the nearest `f64`. serde_json (with `float_roundtrip`) and Rust's `str::parse`
    /// both round correctly: the same float. One too large for a float is refused, as serde_json
    /// refuses it.
    fn number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let bytes = self.bytes();
        let start = self.at;
        let negative = bytes[self.at] == b'-';
        if negative {
            self.at += 1;
        }
        let digits = |r: &mut Self| {
            let from = r.at;
            while bytes.get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            r.at - from
        };
        let integer = self.at;
        let length = digits(self);
        if length == 0 || (length > 1 && bytes[integer] == b'0') {
            return Err(Unsure);
        }
        let mut float = false;
        if bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            float = true;
            if digits(self) == 0 {
                return Err(Unsure);
            }
        }
        if matches!(bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            float = true;
            if matches!(bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if digits(self) == 0 {
                return Err(Unsure);
            }
        }
        if !float && let Ok(n) = self.text[integer..self.at].parse::<u64>() {
            match (negative, 0i64.checked_sub_unsigned(n)) {
                (false, _) => return visitor.visit_u64(n),
                (true, Some(n)) if n < 0 => return visitor.visit_i64(n),
                _ => {}
            }
        }
        match self.text[start..self.at].parse::<f64>() {
            Ok(x) if x.is_finite() => visitor.visit_f64(x),
            _ => Err(Unsure),
        }
    }

    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth == DEEP {
            return Err(Unsure);
        }
        self.depth += 1;
        self.at += 1;
        let value = read(self)?;
        self.depth -= 1;
        Ok(value)
    }

    fn seq<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nested(|r| {
            let value = visitor.visit_seq(Elements {
                reader: &mut *r,
                first: true,
            })?;
            r.expect(b']')?;
            Ok(value)
        })
    }

    fn map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.nested(|r| {
            let first_key = r.keys.len();
            let value = visitor.visit_map(Entries {
                reader: &mut *r,
                first: true,
                first_key,
            })?;
            r.expect(b'}')?;
            r.keys.truncate(first_key);
            Ok(value)
        })
    }

    /// The key of an object (the opening quote next), refused if the object has it already.
    fn key(&mut self, first_key: usize) -> Result<&'de str> {
        let Text::Written(key) = self.string()? else {
            // Written with an escape: compared as written, two spellings of one key would pass.
            return Err(Unsure);
        };
        let keys = &self.keys[first_key..];
        // Length and first byte before the bytes: most keys differ there ("seat" and "play"),
        // and comparing two strings of one length is a call to `memcmp`.
        let given = |k: &&str| {
            k.len() == key.len() && k.as_bytes().first() == key.as_bytes().first() && *k == key
        };
        if keys.len() >= FEW || keys.iter().any(given) {
            return Err(Unsure);
        }
        self.keys.push(key);
        Ok(key)
    }

    fn str<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if self.peek() != Some(b'"') {
            return Err(Unsure);
        }
        match self.string()? {
            Text::Written(s) => visitor.visit_borrowed_str(s),
            Text::Unescaped(s) => visitor.visit_str(&s),
        }
    }
}

/// The methods serde_json answers only for the type they name; each reads `$read` when the next
/// byte is one of `$first`, and refuses anything else.
macro_rules! only {
    ($($method:ident($($arg:ident: $ty:ty),*) if $first:pat => $read:ident;)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
                $(let _ = $arg;)*
                match self.peek() {
                    Some($first) => self.$read(visitor),
                    _ => Err(Unsure),
                }
            }
        )*
    };
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Unsure;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek().ok_or(Unsure)? {
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'"' => self.str(visitor),
            b'-' | b'0'..=b'9' => self.number(visitor),
            b'[' => self.seq(visitor),
            b'{' => self.map(visitor),
            _ => Err(Unsure),
        }
    }

    only! {
        deserialize_bool() if b't' | b'f' => deserialize_any;
        deserialize_i8() if b'-' | b'0'..=b'9' => number;
        deserialize_i16() if b'-' | b'0'..=b'9' => number;
        deserialize_i32() if b'-' | b'0'..=b'9' => number;
        deserialize_i64() if b'-' | b'0'..=b'9' => number;
        deserialize_u8() if b'-' | b'0'..=b'9' => number;
        deserialize_u16() if b'-' | b'0'..=b'9' => number;
        deserialize_u32() if b'-' | b'0'..=b'9' => number;
        deserialize_u64() if b'-' | b'0'..=b'9' => number;
        deserialize_f32() if b'-' | b'0'..=b'9' => number;
        deserialize_f64() if b'-' | b'0'..=b'9' => number;
        deserialize_char() if b'"' => str;
        deserialize_str() if b'"' => str;
        deserialize_string() if b'"' => str;
        deserialize_identifier() if b'"' => str;
        deserialize_seq() if b'[' => seq;
        deserialize_tuple(len: usize) if b'[' => seq;
        deserialize_tuple_struct(name: &'static str, len: usize) if b'[' => seq;
        deserialize_map() if b'{' => map;
        // serde_json reads a struct from an array of its fields too.
        deserialize_struct(name: &'static str, fields: &'static [&'static str]) if b'{' | b'[' => deserialize_any;
        deserialize_unit() if b'n' => deserialize_any;
        deserialize_unit_struct(name: &'static str) if b'n' => deserialize_any;
    }

    /// Left to serde_json: it reads 128-bit integers and bytes its own way.
    fn deserialize_i128<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(Unsure)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(Unsure)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(Unsure)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> Result<V::Value> {
        Err(Unsure)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE {
            return Err(Unsure);
        }
        visitor.visit_newtype_struct(self)
    }

    /// A unit variant as its name in a string; any other as an object of one key, its name.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek() {
            Some(b'"') => match self.string()? {
                Text::Written(name) => visitor.visit_enum(BorrowedStrDeserializer::new(name)),
                Text::Unescaped(_) => Err(Unsure),
            },
            Some(b'{') => self.nested(|r| {
                if r.peek() != Some(b'"') {
                    return Err(Unsure);
                }
                let Text::Written(name) = r.string()? else {
                    return Err(Unsure);
                };
                r.expect(b':')?;
                let value = visitor.visit_enum(Variant {
                    reader: &mut *r,
                    name,
                })?;
                r.expect(b'}')?;
                Ok(value)
            }),
            _ => Err(Unsure),
        }
    }

    /// A value skipped is walked all the same: an object in it may not repeat a key either.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
}

/// An array's elements.
struct Elements<'r, 'de> {
    reader: &'r mut Reader<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Unsure;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.reader.peek() == Some(b']') {
            return Ok(None);
        }
        if !std::mem::take(&mut self.first) {
            self.reader.expect(b',')?;
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// An object's entries.
struct Entries<'r, 'de> {
    reader: &'r mut Reader<'de>,
    first: bool,
    /// Where this object's keys start in the reader's `keys`.
    first_key: usize,
}

impl<'de> MapAccess<'de> for Entries<'_, 'de> {
    type Error = Unsure;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let reader = &mut *self.reader;
        if reader.peek() == Some(b'}') {
            return Ok(None);
        }
        if !std::mem::take(&mut self.first) {
            reader.expect(b',')?;
        }
        if reader.peek() != Some(b'"') {
            return Err(Unsure);
        }
        let key = reader.key(self.first_key)?;
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value> {
        self.reader.expect(b':')?;
        seed.deserialize(&mut *self.reader)
    }
}

/// The content of an enum written as an object of one key.
struct Variant<'r, 'de> {
    reader: &'r mut Reader<'de>,
    name: &'de str,
}

impl<'r, 'de> de::EnumAccess<'de> for Variant<'r, 'de> {
    type Error = Unsure;
    type Variant = &'r mut Reader<'de>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant)> {
        let name = seed.deserialize(BorrowedStrDeserializer::new(self.name))?;
        Ok((name, self.reader))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = Unsure;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_struct("", fields, visitor)
    }
}
