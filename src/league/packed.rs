//! How a hand's record and ruling are stored: their JSON text compressed with zstd against a
//! dictionary trained on hands of every game (`hands.zdict`, made by
//! `cargo run --release --example train_dictionary`). Records and rulings repeat the same keys,
//! seats and card codes hand after hand, which a dictionary holds once, so a hand keeps about an
//! eighth of its text; reading it back gives the text exactly as it was written.
//!
//! The first byte names the dictionary. A stored dictionary is never changed (the hands written
//! with it could not be read): a better one is added under the next number.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use std::cell::RefCell;
use std::sync::{LazyLock, Mutex};
use zstd::bulk::{Compressor, Decompressor};
use zstd::dict::{DecoderDictionary, EncoderDictionary};

/// The dictionary hands are written with, and its number (the first byte of each stored value).
const DICTIONARY: &[u8] = include_bytes!("hands.zdict");
const DICTIONARY_NUMBER: u8 = 1;

/// zstd's default level. Measured on Malilla hands with this dictionary (`zstd -b3 -e9 -D`): level 3
/// compresses at about 530 MB/s to an 8.6th, level 9 at 43 MB/s to an 11.5th; the import pays the
/// compression of every hand, so the fast level.
const LEVEL: i32 = 3;

static ENCODER: LazyLock<EncoderDictionary<'static>> =
    LazyLock::new(|| EncoderDictionary::copy(DICTIONARY, LEVEL));
static DECODER: LazyLock<DecoderDictionary<'static>> =
    LazyLock::new(|| DecoderDictionary::copy(DICTIONARY));

/// Compression contexts, each made once (making one costs more than compressing a hand) and kept
/// for the next hand. Hands are compressed by the writer and by imports being prepared, which
/// judge a sheet's matches on every core: a context is taken for one hand and given back, so
/// there are as many as hands compressed at once, and no more are kept than the machine has
/// cores (a context per blocking thread held a megabyte in each).
static COMPRESSORS: Mutex<Vec<Compressor<'static>>> = Mutex::new(Vec::new());

thread_local! {
    // A decompression context per thread, made once: reads run side by side, and one is small.
    static DECOMPRESSOR: RefCell<Decompressor<'static>> = RefCell::new(
        Decompressor::with_prepared_dictionary(&DECODER).expect("zstd decompression context"),
    );
}

/// JSON text as the store keeps it: written compressed, read back as the same text.
#[derive(Debug, PartialEq)]
pub struct Packed(pub String);

impl Packed {
    /// `value` as JSON text.
    pub fn json(value: &impl serde::Serialize) -> Packed {
        Packed(crate::json::to_string(value).expect("a record and a ruling are JSON"))
    }

    pub(super) fn pack(&self) -> Vec<u8> {
        // A panic while compressing drops the context it took; the pool stays usable.
        let pool = || COMPRESSORS.lock().unwrap_or_else(|p| p.into_inner());
        let taken = pool().pop();
        let mut compressor = taken.unwrap_or_else(|| {
            Compressor::with_prepared_dictionary(&ENCODER).expect("zstd compression context")
        });
        let mut out = vec![DICTIONARY_NUMBER];
        out.extend(
            compressor
                .compress(self.0.as_bytes())
                .expect("zstd compresses any input"),
        );
        let mut pool = pool();
        if pool.len() < super::cores() {
            pool.push(compressor);
        }
        out
    }

    pub(super) fn unpack(bytes: &[u8]) -> Result<Packed, String> {
        let (&number, frame) = bytes.split_first().ok_or("an empty stored value")?;
        if number != DICTIONARY_NUMBER {
            return Err(format!("a stored value with unknown dictionary {number}"));
        }
        // The frame states its size (the compressor writes it), so the buffer is made once.
        let size = zstd::zstd_safe::get_frame_content_size(frame)
            .ok()
            .flatten()
            .ok_or("a stored value without its size")?;
        let text = DECOMPRESSOR
            .with_borrow_mut(|d| d.decompress(frame, size as usize))
            .map_err(|e| format!("a stored value that does not decompress: {e}"))?;
        String::from_utf8(text)
            .map(Packed)
            .map_err(|_| "a stored value that is not text".to_string())
    }
}

impl ToSql for Packed {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.pack()))
    }
}

impl FromSql for Packed {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        Packed::unpack(value.as_blob()?).map_err(|e| FromSqlError::Other(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A hand as the store writes it: a record of the repository's first Malilla fixture.
    fn record() -> String {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/malilla");
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
        v["record"].to_string()
    }

    #[test]
    fn a_hand_reads_back_as_written_and_much_smaller() {
        let text = record();
        let packed = Packed(text.clone()).pack();
        assert_eq!(packed[0], DICTIONARY_NUMBER);
        assert!(
            packed.len() * 4 < text.len(),
            "{} bytes packed from {}",
            packed.len(),
            text.len()
        );
        assert_eq!(Packed::unpack(&packed).unwrap().0, text);
    }

    #[test]
    fn what_is_not_a_stored_value_is_refused() {
        let mut packed = Packed(record()).pack();
        assert!(Packed::unpack(&[]).is_err());
        packed[0] = 0;
        assert!(
            Packed::unpack(&packed)
                .unwrap_err()
                .contains("dictionary 0")
        );
        packed[0] = DICTIONARY_NUMBER;
        packed.truncate(packed.len() / 2);
        assert!(Packed::unpack(&packed).is_err());
    }

    proptest! {
        #[test]
        fn any_text_reads_back_exactly(text in ".*") {
            prop_assert_eq!(Packed::unpack(&Packed(text.clone()).pack()).unwrap().0, text);
        }
    }
}
