//! Named game variants (`docs/rules/*.md` §6 "Variant" column): declared by each game, chosen per
//! record, validated with a pointer to the offending option.

use super::FieldError;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};

/// The values an option takes.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OptionKind {
    /// `true` or `false`.
    Flag { default: bool },
    /// One of the listed strings.
    Choice {
        #[schema(value_type = Vec<String>)]
        values: &'static [&'static str],
        default: &'static str,
    },
    /// A whole number from `min` to `max` (a match length in hands, ...).
    Count { min: u32, max: u32, default: u32 },
}

/// One option a game accepts.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct OptionSpec {
    pub name: &'static str,
    #[serde(flatten)]
    pub kind: OptionKind,
    pub description: &'static str,
    /// The ruling that names this variant (rule file and section).
    pub rule: &'static str,
}

/// One object per kind of option, each with the option's name, description and rule beside the
/// kind's fields (they are flattened on the wire): generators refuse an `allOf` of the kinds'
/// `oneOf` with the common fields.
impl utoipa::PartialSchema for OptionSpec {
    fn schema() -> RefOr<Schema> {
        let RefOr::T(Schema::OneOf(kinds)) = OptionKind::schema() else {
            unreachable!("OptionKind is a tagged enum: a oneOf")
        };
        let mut one_of = OneOfBuilder::new().description(Some("One option a game accepts."));
        for kind in kinds.items {
            let RefOr::T(Schema::Object(kind)) = kind else {
                unreachable!("each kind of option is an object")
            };
            let text = || ObjectBuilder::new().schema_type(Type::String);
            let mut spec = ObjectBuilder::from(kind)
                .property("name", text())
                .property("description", text())
                .property(
                    "rule",
                    text().description(Some(
                        "The ruling that names this variant (rule file and section).",
                    )),
                );
            for field in ["name", "description", "rule"] {
                spec = spec.required(field);
            }
            one_of = one_of.item(spec);
        }
        one_of.into()
    }
}

impl ToSchema for OptionSpec {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Flag(bool),
    Choice(&'static str),
    Count(u32),
}

/// The options of one record, every declared option resolved to a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options(Vec<(&'static str, Value)>);

impl Options {
    /// Checks `raw` against `specs` (pointers under `base`, e.g. `/options`).
    pub fn resolve(
        specs: &'static [OptionSpec],
        raw: &BTreeMap<String, serde_json::Value>,
        base: &str,
    ) -> Result<Options, Vec<FieldError>> {
        let mut errors = Vec::new();
        for name in raw.keys() {
            if !specs.iter().any(|s| s.name == name) {
                let known: Vec<_> = specs.iter().map(|s| s.name).collect();
                errors.push(FieldError::new(
                    format!("{base}/{name}"),
                    if known.is_empty() {
                        format!("unknown option '{name}': this game has no options")
                    } else {
                        format!(
                            "unknown option '{name}': expected one of {}",
                            known.join(", ")
                        )
                    },
                ));
            }
        }
        let mut values = Vec::with_capacity(specs.len());
        for spec in specs {
            // Only a refused value needs its pointer: every hand resolves its options.
            let pointer = || format!("{base}/{}", spec.name);
            let value = match (spec.kind, raw.get(spec.name)) {
                (OptionKind::Flag { default }, None) => Value::Flag(default),
                (OptionKind::Choice { default, .. }, None) => Value::Choice(default),
                (OptionKind::Count { default, .. }, None) => Value::Count(default),
                (OptionKind::Flag { .. }, Some(serde_json::Value::Bool(b))) => Value::Flag(*b),
                (OptionKind::Choice { values, .. }, Some(serde_json::Value::String(s))) => {
                    match values.iter().find(|v| *v == s) {
                        Some(v) => Value::Choice(v),
                        None => {
                            errors.push(FieldError::new(
                                pointer(),
                                format!("expected one of {}", values.join(", ")),
                            ));
                            continue;
                        }
                    }
                }
                (OptionKind::Count { min, max, .. }, Some(v)) => {
                    match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
                        Some(n) if (min..=max).contains(&n) => Value::Count(n),
                        _ => {
                            errors.push(FieldError::new(
                                pointer(),
                                format!("expected a whole number from {min} to {max}"),
                            ));
                            continue;
                        }
                    }
                }
                (OptionKind::Flag { .. }, Some(_)) => {
                    errors.push(FieldError::new(pointer(), "expected true or false".into()));
                    continue;
                }
                (OptionKind::Choice { values, .. }, Some(_)) => {
                    errors.push(FieldError::new(
                        pointer(),
                        format!("expected one of {}", values.join(", ")),
                    ));
                    continue;
                }
            };
            values.push((spec.name, value));
        }
        if errors.is_empty() {
            Ok(Options(values))
        } else {
            Err(errors)
        }
    }

    /// Every option at its default.
    pub fn defaults(specs: &'static [OptionSpec]) -> Options {
        Options::resolve(specs, &BTreeMap::new(), "").expect("defaults are valid")
    }

    fn get(&self, name: &str) -> Value {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("option '{name}' is not declared by this game"))
    }

    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Value::Flag(true))
    }

    pub fn choice(&self, name: &str) -> &'static str {
        match self.get(name) {
            Value::Choice(s) => s,
            _ => panic!("option '{name}' is not a choice"),
        }
    }

    pub fn count(&self, name: &str) -> u32 {
        match self.get(name) {
            Value::Count(n) => n,
            _ => panic!("option '{name}' is not a count"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static SPECS: &[OptionSpec] = &[OptionSpec {
        name: "hands",
        kind: OptionKind::Count {
            min: 0,
            max: 10,
            default: 3,
        },
        description: "",
        rule: "",
    }];

    #[test]
    fn counts_take_a_whole_number_in_range() {
        let read = |v: serde_json::Value| {
            let raw = BTreeMap::from([("hands".to_string(), v)]);
            Options::resolve(SPECS, &raw, "/options")
        };
        assert_eq!(Options::defaults(SPECS).count("hands"), 3);
        assert_eq!(read(json!(10)).unwrap().count("hands"), 10);
        for bad in [json!(11), json!(-1), json!(2.5), json!("4"), json!(true)] {
            let e = read(bad.clone()).unwrap_err();
            assert_eq!(e[0].pointer, "/options/hands", "{bad}");
        }
    }
}
