//! A JSON value as one PBN token, and a JSON object as `path=value` fields, both reversible
//! exactly (`docs/pbn.md`, "Values"): a word stands for itself (`smudge`, `52+1`, `H`); any
//! other value is its JSON with `(` `)` for `{` `}` and `<` `>` for `[` `]` outside strings, and
//! with white space and PBN's own marks (`{ } [ ] ;`) inside strings written as `\u` escapes, so
//! that the token holds no space and nothing PBN reads as a comment or a tag.

use serde_json::{Map, Value};

/// Whether `s` is written as itself: letters, digits and `_ + - . /`, not read as JSON (`3`,
/// `true`), and none of the tokens PBN gives a meaning (`Pass`, `AP`, `-`).
fn word(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '-' | '.' | '/'))
        && serde_json::from_str::<Value>(s).is_err()
        && !["pass", "ap", "-"].contains(&s.to_ascii_lowercase().as_str())
}

/// The token of `v`.
pub fn write(v: &Value) -> String {
    if let Value::String(s) = v
        && word(s)
    {
        return s.clone();
    }
    let json = serde_json::to_string(v).expect("a JSON value is written");
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut chars = json.chars();
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                out.push(c);
                out.extend(chars.next());
            }
            (_, '"') => {
                in_string = !in_string;
                out.push(c);
            }
            (true, ' ' | '{' | '}' | '[' | ']' | ';') => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            (false, '{') => out.push('('),
            (false, '}') => out.push(')'),
            (false, '[') => out.push('<'),
            (false, ']') => out.push('>'),
            _ => out.push(c),
        }
    }
    out
}

/// The value of a token `write` made (or a person wrote the same way).
pub fn read(token: &str) -> Result<Value, String> {
    if word(token) {
        return Ok(Value::String(token.to_string()));
    }
    let mut json = String::with_capacity(token.len());
    let mut in_string = false;
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                json.push(c);
                json.extend(chars.next());
            }
            (_, '"') => {
                in_string = !in_string;
                json.push(c);
            }
            (false, '(') => json.push('{'),
            (false, ')') => json.push('}'),
            (false, '<') => json.push('['),
            (false, '>') => json.push(']'),
            _ => json.push(c),
        }
    }
    serde_json::from_str(&json).map_err(|_| {
        format!(
            "'{token}' is not a value: expected a word (letters, digits, _ + - . /) or a value in \
             JSON form with ( ) for {{ }} and < > for [ ]"
        )
    })
}

/// Whether `key` may be one step of a field's path.
fn path_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The fields of `map`, space-separated: `scores.NS=12 hands_played=3` (an object whose keys are
/// all words is written key by key, under its own key and a dot).
pub fn write_fields(map: &Map<String, Value>) -> String {
    let mut out = Vec::new();
    fields(map, "", &mut out);
    out.join(" ")
}

fn fields(map: &Map<String, Value>, prefix: &str, out: &mut Vec<String>) {
    for (key, v) in map {
        let path = format!("{prefix}{key}");
        match v {
            Value::Object(inner) if !inner.is_empty() && inner.keys().all(|k| path_key(k)) => {
                fields(inner, &format!("{path}."), out)
            }
            _ => out.push(format!("{path}={}", write(v))),
        }
    }
}

/// The object `write_fields` wrote; the error names the field at fault.
pub fn read_fields(text: &str) -> Result<Map<String, Value>, String> {
    let mut map = Map::new();
    for item in text.split_ascii_whitespace() {
        let Some((path, token)) = item.split_once('=') else {
            return Err(format!("'{item}' is not a field: expected name=value"));
        };
        let keys: Vec<&str> = path.split('.').collect();
        if !keys.iter().all(|k| path_key(k)) {
            return Err(format!(
                "'{path}' is not a field's name: expected words (letters, digits, _) joined by dots"
            ));
        }
        let value = read(token)?;
        let (last, parents) = keys.split_last().expect("split gives one key at least");
        let mut at = &mut map;
        for key in parents {
            let entry = at
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            at = match entry {
                Value::Object(inner) => inner,
                _ => return Err(format!("'{path}': '{key}' is given a value already")),
            };
        }
        if at.insert(last.to_string(), value).is_some() {
            return Err(format!("'{path}' is given twice"));
        }
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn words_stand_for_themselves_and_the_rest_is_json() {
        for (v, token) in [
            (json!("smudge"), "smudge"),
            (json!("52+1"), "52+1"),
            (json!("3"), "\"3\""),
            (json!(3), "3"),
            (json!(true), "true"),
            (json!("true"), "\"true\""),
            (json!("Pass"), "\"Pass\""),
            (json!("-"), "\"-\""),
            (
                json!({"tricks": 8, "suit": "H"}),
                "(\"suit\":\"H\",\"tricks\":8)",
            ),
            (json!(["AS", "2C"]), "<\"AS\",\"2C\">"),
            (
                json!("a b{[;]}"),
                "\"a\\u0020b\\u007b\\u005b\\u003b\\u005d\\u007d\"",
            ),
            (json!({}), "()"),
        ] {
            assert_eq!(write(&v), token, "{v}");
            assert_eq!(read(token).unwrap(), v, "{token}");
        }
        assert!(read("a b").is_err());
        assert!(read("(").is_err());
    }

    #[test]
    fn fields_nest_by_dots() {
        let m = json!({"scores": {"NS": 12, "EW": -3}, "hands_played": 3, "out": {}, "odd": {"a b": 1}});
        let text = write_fields(m.as_object().unwrap());
        assert_eq!(
            text,
            "hands_played=3 odd=(\"a\\u0020b\":1) out=() scores.EW=-3 scores.NS=12"
        );
        assert_eq!(Value::Object(read_fields(&text).unwrap()), m);
        for bad in ["x", "a.=1", "a=1 a=2", "a=1 a.b=2", "a=("] {
            assert!(read_fields(bad).is_err(), "{bad}");
        }
    }

    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            ".*".prop_map(Value::from),
            "[A-Za-z0-9_+./-]{1,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map("[a-z ]{0,4}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Every value is one token that reads back as itself.
        #[test]
        fn every_value_is_one_token_read_back_exactly(v in any_value()) {
            let token = write(&v);
            prop_assert!(!token.is_empty());
            prop_assert!(!token.chars().any(|c| c.is_ascii_whitespace() || "{}[];".contains(c)), "{}", token);
            prop_assert_eq!(read(&token).unwrap(), v);
        }

        /// Reading never panics, whatever the token.
        #[test]
        fn reading_any_token_never_panics(token in "\\PC*") {
            let _ = read(&token);
            let _ = read_fields(&token);
        }
    }
}
