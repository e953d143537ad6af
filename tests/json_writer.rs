//! `arbiter::json::to_vec` writes every response and every stored record and ruling: its bytes
//! must be serde_json's, exactly, for every value arbiter writes and for any JSON value.

mod common;

use arbiter::api::problem::{Problem, parse_json};
use arbiter::record::HandRecord;
use common::random::random_hand;
use proptest::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[track_caller]
fn same<T: Serialize + ?Sized>(value: &T) {
    let ours = arbiter::json::to_vec(value).unwrap();
    let theirs = serde_json::to_vec(value).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
    assert_eq!(
        arbiter::json::to_string(value).unwrap(),
        serde_json::to_string(value).unwrap()
    );
}

#[test]
fn every_fixture_record_ruling_and_position_is_written_as_serde_json_writes_it() {
    let mut written = 0;
    for (game, path) in common::fixtures() {
        let game = arbiter::games::find(&game).unwrap();
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let bytes = serde_json::to_vec(&fixture["record"]).unwrap();
        match parse_json::<HandRecord>(&bytes) {
            Err(problem) => same(&problem),
            Ok(record) => {
                same(&record);
                match arbiter::engine::adjudicate(game, &record) {
                    Ok(ruling) => same(&ruling),
                    Err(errors) => same(&Problem::invalid(errors)),
                }
                if let Ok(read) = game.read(&record)
                    && let Ok(replay) = read.replay()
                {
                    same(&replay.view());
                }
            }
        }
        written += 1;
    }
    assert!(written >= 393, "{written} fixtures");
}

#[test]
fn random_legal_hands_of_every_game_are_written_as_serde_json_writes_them() {
    for game in arbiter::games::all() {
        for seed in 1..=8u64 {
            let Some(record) = random_hand(*game, seed) else {
                continue;
            };
            same(&record);
            same(&arbiter::engine::adjudicate(*game, &record).unwrap());
        }
    }
}

/// Shapes no ruling has today, each as serde_json writes it: variants of every kind, keys that
/// are not strings, numbers at their bounds, floats that JSON cannot hold, long formatted text.
#[test]
fn every_shape_serde_has_is_written_as_serde_json_writes_it() {
    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(i8),
        Tuple(u8, String),
        Struct { a: Option<f32>, b: () },
    }
    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize)]
    struct Pair(char, Unit);
    #[derive(Serialize)]
    struct Named(Vec<Shape>);
    struct Long;
    impl Serialize for Long {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{}\"{}", "x".repeat(40), '\u{1}'))
        }
    }
    same(&Named(vec![
        Shape::Unit,
        Shape::Newtype(-128),
        Shape::Tuple(255, "t\u{7f}\u{2028}é".into()),
        Shape::Struct {
            a: Some(f32::NAN),
            b: (),
        },
        Shape::Struct { a: None, b: () },
        Shape::Struct {
            a: Some(1.5e-7),
            b: (),
        },
    ]));
    same(&Pair('"', Unit));
    // Field names and keys that need an escape, first and after another.
    #[derive(Serialize)]
    struct Escaped {
        #[serde(rename = "quo\"te")]
        first: u8,
        #[serde(rename = "line\nbreak")]
        second: u8,
    }
    same(&Escaped {
        first: 1,
        second: 2,
    });
    same(&BTreeMap::from([("a\\b", 1), ("c", 2), ("d\u{1f}", 3)]));
    same(&BTreeMap::from([(7u8, 'x'), (9, 'y')]));
    same(&Long);
    same(&(
        i128::MIN,
        u128::MAX,
        i64::MIN,
        u64::MAX,
        f64::INFINITY,
        f64::MAX,
        -0.0f64,
    ));
    same(&serde_bytes_like());
    same(&BTreeMap::from([(-3i32, 1), (7, 2)]));
    same(&BTreeMap::from([('a', 1), ('\n', 2)]));
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Key {
        Variant,
    }
    same(&BTreeMap::from([(Key::Variant, 1)]));
    same(&Vec::<Value>::new());
    same(&BTreeMap::<String, Value>::new());
    // Keys serde_json writes its own way (a bool, a float in quotes) or refuses (a sequence):
    // left to serde_json, the same text or the same error.
    same(&BTreeMap::from([(true, 1), (false, 2)]));
    struct FloatKey;
    impl Serialize for FloatKey {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map([(1.5f64, 1)])
        }
    }
    same(&FloatKey);
    // Text serde_json passes through as it is (its `RawValue`, enabled for the tests).
    let raw = serde_json::value::RawValue::from_string("[1,  {\"a\" : 2}]".into()).unwrap();
    same(&BTreeMap::from([("raw", raw)]));
    let refused = BTreeMap::from([(vec![1], 1)]);
    assert_eq!(
        arbiter::json::to_vec(&refused).unwrap_err().to_string(),
        serde_json::to_vec(&refused).unwrap_err().to_string()
    );
}

/// Bytes, which serde writes as an array of numbers.
fn serde_bytes_like() -> impl Serialize {
    struct Bytes;
    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&[0, 34, 255])
        }
    }
    Bytes
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".*".prop_map(Value::String),
        "[\\x00-\\x7f]{0,24}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map("[\\x00-\\x7f]{0,6}|.{0,3}", inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn any_json_value_is_written_as_serde_json_writes_it(value in any_json()) {
        let ours = arbiter::json::to_vec(&value).unwrap();
        prop_assert_eq!(ours, serde_json::to_vec(&value).unwrap());
    }
}
