//! Reading JSON text into a type in one pass that also refuses what serde lets through: a key
//! given twice in any object (serde keeps a map's last value silently) and anything after the
//! document. The way a well-formed body is read; a body this refuses is read again by the
//! path-reporting reader (`api::problem`), which names what is wrong.
//!
//! Writing (`to_vec`, `to_string`): serde_json's compact text, byte for byte, in less time
//! (`write`).

mod read;
mod write;

pub use write::{to_string, to_vec};

use std::fmt;

/// serde_json's escape for each byte a JSON string cannot hold as it is: `\uXXXX` (here `u`) for
/// the control characters it has no short form for, the short form for the others, and 0 for a
/// byte held as it is. The writer escapes by it; the reader ends a string's plain run at a byte
/// it names (a closing quote, an escape, or a control character serde_json refuses).
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = b'u';
        b += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Why the one-pass reader or the writer stopped short: never shown, serde_json does the work
/// again (the reader's caller reads the text the slow way; the writer writes the value by
/// serde_json), so what the client gets is always serde_json's answer.
#[derive(Debug)]
struct LeftToSerdeJson;

impl fmt::Display for LeftToSerdeJson {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("left to serde_json")
    }
}

impl std::error::Error for LeftToSerdeJson {}

impl serde::de::Error for LeftToSerdeJson {
    fn custom<T: fmt::Display>(_: T) -> Self {
        LeftToSerdeJson
    }
}

impl serde::ser::Error for LeftToSerdeJson {
    fn custom<T: fmt::Display>(_: T) -> Self {
        LeftToSerdeJson
    }
}

/// The name serde_json gives its `RawValue` (text passed through as it is), which only serde_json
/// reads and writes.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// `bytes` read as `T`, if they are one JSON document of a `T` with no key given twice in any
/// of its objects. `None` for any failure, and wherever the reader cannot be sure of serde_json's
/// answer (a key written with an escape, a number that is not a plain integer, an object of many
/// keys: `read`): the caller reads the body again to name the problem
/// (`api::problem::parse_json`).
pub fn read_unique<'de, T: serde::Deserialize<'de>>(bytes: &'de [u8]) -> Option<T> {
    // The whole text checked as UTF-8 once, not each string again as it is read: every byte
    // outside a string is JSON's ASCII, so the text cut at them is UTF-8 too.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut reader = read::Reader::new(text);
    let value = T::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::read_unique;
    use proptest::prelude::*;
    use serde::Deserialize;
    use serde_json::Value;

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

    /// Numbers and strings of every form, each alone and in an array and an object.
    fn scalar() -> impl Strategy<Value = String> {
        let number = (
            "-?(0|[1-9][0-9]{0,24})",
            prop::option::of("[.][0-9]{1,20}"),
            prop::option::of("[eE][+-]?[0-9]{1,4}"),
        )
            .prop_map(|(i, f, e)| format!("{i}{}{}", f.unwrap_or_default(), e.unwrap_or_default()));
        let escape = prop_oneof![
            Just(r#"\""#.to_string()),
            Just(r"\\".to_string()),
            Just(r"\/".to_string()),
            Just(r"\b\f\n\r\t".to_string()),
            "\\\\u[0-9a-fA-F]{4}",
            Just(r"\ud83d\ude00".to_string()),
        ];
        let string = prop::collection::vec(prop_oneof![".{0,3}", escape], 0..4)
            .prop_map(|parts| format!("\"{}\"", parts.concat()));
        prop_oneof![
            number,
            any::<f64>().prop_map(|x| x.to_string()),
            any::<i64>().prop_map(|x| x.to_string()),
            any::<u64>().prop_map(|x| x.to_string()),
            string,
            Just("-0".to_string()),
            Just("01".to_string()),
            Just("1.".to_string()),
            Just("true".to_string()),
            Just("nul".to_string()),
        ]
    }

    proptest! {
        /// A number or a string, alone or in an array or an object, is taken by the one pass
        /// exactly when serde_json takes it, and read as the same value (a float to the bit).
        #[test]
        fn the_one_pass_reads_numbers_and_strings_as_serde_json(s in scalar()) {
            for text in [s.clone(), format!("[{s}, {s}]"), format!("{{ \"k\" : {s} }}")] {
                let ours = read_unique::<Value>(text.as_bytes());
                prop_assert_eq!(ours, serde_json::from_str::<Value>(&text).ok(), "{}", text);
            }
            let ours = read_unique::<f64>(s.as_bytes()).map(f64::to_bits);
            let theirs = serde_json::from_str::<f64>(&s).ok().map(f64::to_bits);
            prop_assert_eq!(ours, theirs, "{}", s);
        }
    }
}
