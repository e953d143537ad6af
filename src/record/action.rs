//! One recorded action: `{"seat": "N", "<verb>": value}`.

use crate::cards::{Card, Suit};
use crate::input::{self, FieldError};
use crate::seat::Seat;
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use std::fmt;
use std::marker::PhantomData;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, OneOfBuilder, Ref, Schema};
use utoipa::{PartialSchema, ToSchema};

/// One recorded action: the seat that acted and what it did, in its game's own verbs (`V`, an
/// enum declared by the game with `verbs!`), or not yet read by a game (`AnyVerb`).
#[derive(Clone, Debug, PartialEq)]
pub struct Action<V = AnyVerb> {
    pub seat: Seat,
    pub kind: V,
}

/// A game's verbs and what each carries: one enum per game, declared with `verbs!`. Records read
/// and write an action as `{"seat": ..., "<verb>": value}`.
pub trait Verbs: Sized + Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// The game's name (for messages); `None` for `AnyVerb`, which takes every verb.
    const GAME: Option<&'static str>;
    /// The verbs, in the order the game documents them.
    const VERBS: &'static [&'static str];

    fn verb(&self) -> &str;

    /// Reads the value of `verb` (one of `VERBS`, or any for `AnyVerb`) from `map`.
    fn read<'de, A: MapAccess<'de>>(verb: &str, map: &mut A) -> Result<Self, A::Error>;

    fn write<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;

    /// Each verb, its description and the schema of its value.
    fn schemas() -> Vec<(&'static str, &'static str, RefOr<Schema>)>;

    /// How a value of `verb` is written in a spreadsheet cell.
    fn placeholder(verb: &str) -> &'static str;

    /// The schemas the verbs' values refer to.
    fn nested_schemas(out: &mut Vec<(String, RefOr<Schema>)>);
}

/// Declares a game's verbs: an enum with one variant per verb and the type of its value.
#[macro_export]
macro_rules! verbs {
    ($(#[$meta:meta])* $vis:vis enum $name:ident in $game:literal {
        $( $variant:ident($ty:ty) = $verb:literal : $doc:literal ),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis enum $name {
            $( #[doc = $doc] $variant($ty), )*
        }

        impl $crate::record::Verbs for $name {
            const GAME: Option<&'static str> = Some($game);
            const VERBS: &'static [&'static str] = &[$($verb),*];

            fn verb(&self) -> &str {
                match self { $( $name::$variant(_) => $verb, )* }
            }

            fn read<'de, A: serde::de::MapAccess<'de>>(verb: &str, map: &mut A) -> Result<Self, A::Error> {
                Ok(match verb {
                    $( $verb => $name::$variant(map.next_value()?), )*
                    _ => unreachable!("`Action` reads only the verbs in `VERBS`"),
                })
            }

            fn write<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
                match self { $( $name::$variant(v) => map.serialize_entry($verb, v), )* }
            }

            fn schemas() -> Vec<(&'static str, &'static str, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)> {
                vec![$( ($verb, $doc, $crate::record::value_schema::<$ty>()) ),*]
            }

            fn placeholder(verb: &str) -> &'static str {
                match verb {
                    $( $verb => <$ty as $crate::record::Placeholder>::PLACEHOLDER, )*
                    _ => "<value>",
                }
            }

            fn nested_schemas(out: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
                $(
                    <$ty as utoipa::ToSchema>::schemas(out);
                    $crate::record::value_component::<$ty>(out);
                )*
            }
        }
    };
}

/// The schema of a verb's value: an object is a component of its own, referred to by name;
/// anything else is inline. Generators name an inline object after where it sits, and an action
/// schema is reached from several places (the game's action and record), so inline objects would
/// be generated twice under one name and dropped.
pub fn value_schema<T: ToSchema>() -> RefOr<Schema> {
    match T::schema() {
        RefOr::T(Schema::Object(o)) if !o.properties.is_empty() => {
            Ref::from_schema_name(T::name()).into()
        }
        inline => inline,
    }
}

/// Registers the component `value_schema` refers to, if it refers to one.
pub fn value_component<T: ToSchema>(out: &mut Vec<(String, RefOr<Schema>)>) {
    if let RefOr::T(Schema::Object(o)) = T::schema()
        && !o.properties.is_empty()
    {
        out.push((T::name().into_owned(), o.into()));
    }
}

/// A verb as sent, not yet read by a game: its name and its value. A game reads it into its own
/// verbs with `Action::read`, which refuses a verb it does not have with a pointer.
#[derive(Clone, Debug, PartialEq)]
pub struct AnyVerb {
    pub verb: String,
    pub value: serde_json::Value,
}

impl AnyVerb {
    /// The value, read as `T`, if this is `verb` (`None` for another verb or another value).
    pub fn of<T: serde::de::DeserializeOwned>(&self, verb: &str) -> Option<T> {
        (self.verb == verb)
            .then(|| T::deserialize(&self.value).ok())
            .flatten()
    }
}

impl Verbs for AnyVerb {
    const GAME: Option<&'static str> = None;
    const VERBS: &'static [&'static str] = &[];

    fn verb(&self) -> &str {
        &self.verb
    }

    fn read<'de, A: MapAccess<'de>>(verb: &str, map: &mut A) -> Result<Self, A::Error> {
        Ok(AnyVerb {
            verb: verb.to_string(),
            value: map.next_value()?,
        })
    }

    fn write<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry(&self.verb, &self.value)
    }

    fn schemas() -> Vec<(&'static str, &'static str, RefOr<Schema>)> {
        Vec::new()
    }

    fn placeholder(_: &str) -> &'static str {
        "<value>"
    }

    fn nested_schemas(_: &mut Vec<(String, RefOr<Schema>)>) {}
}

impl PartialSchema for AnyVerb {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(
                "A verb and its value; the game's action schema names them.",
            ))
            .into()
    }
}

impl ToSchema for AnyVerb {}

impl<V: Verbs> Action<V> {
    /// This action as sent on the wire, not tied to its game's types.
    pub fn any(&self) -> Action {
        let value = serde_json::to_value(self).expect("an action is JSON");
        serde_json::from_value(value).expect("an action reads back")
    }
}

impl Action {
    /// An action of `verb` with `value`.
    pub fn new(seat: Seat, verb: &str, value: impl serde::Serialize) -> Action {
        Action {
            seat,
            kind: AnyVerb {
                verb: verb.to_string(),
                value: serde_json::to_value(value).expect("a verb's value is JSON"),
            },
        }
    }

    /// Reads this action (`index` in its record) in the verbs of its game. The error names the
    /// verb or the part of its value that is wrong (`/actions/3/bid/level`) and what was expected.
    pub fn read<V: Verbs>(&self, index: usize) -> Result<Action<V>, FieldError> {
        let verb = self.kind.verb.as_str();
        if !V::VERBS.contains(&verb) {
            return Err(FieldError::new(
                format!("/actions/{index}/{}", input::escape(verb)),
                unknown_verb::<V>(verb),
            ));
        }
        let entry = || {
            de::value::MapDeserializer::<_, serde_json::Error>::new(std::iter::once((
                verb,
                &self.kind.value,
            )))
        };
        // Read plainly; the path is tracked only to name what is wrong.
        if let Ok(kind) = <OneVerb<V> as serde::Deserialize>::deserialize(entry()) {
            return Ok(Action {
                seat: self.seat,
                kind: kind.0,
            });
        }
        let kind = serde_path_to_error::deserialize::<_, OneVerb<V>>(entry()).map_err(|e| {
            FieldError::new(
                format!("/actions/{index}{}", input::pointer_of(e.path())),
                e.into_inner().to_string(),
            )
        })?;
        Ok(Action {
            seat: self.seat,
            kind: kind.0,
        })
    }
}

/// One verb and its value, read from a one-entry map (`Action::read`).
struct OneVerb<V>(V);

impl<'de, V: Verbs> serde::Deserialize<'de> for OneVerb<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<V>(PhantomData<V>);
        impl<'de, V: Verbs> Visitor<'de> for Visit<V> {
            type Value = OneVerb<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("one verb and its value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OneVerb<V>, A::Error> {
                let verb = map
                    .next_key_seed(input::Key)?
                    .ok_or_else(|| de::Error::custom("no verb"))?;
                Ok(OneVerb(V::read(&verb, &mut map)?))
            }
        }
        d.deserialize_map(Visit(PhantomData))
    }
}

/// "'x' is not an action in <game>: expected one of ...".
fn unknown_verb<V: Verbs>(verb: &str) -> String {
    match V::GAME {
        Some(game) => format!(
            "'{verb}' is not an action in {game}: expected one of {}",
            V::VERBS.join(", ")
        ),
        None => format!("unknown verb '{verb}'"),
    }
}

impl<V: Verbs> Action<V> {
    fn parse_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<Action<V>, A::Error> {
        let mut seat = None;
        let mut kind: Option<V> = None;
        while let Some(key) = map.next_key_seed(input::Key)? {
            if key == "seat" {
                seat = Some(map.next_value::<Seat>()?);
                continue;
            }
            if let Some(k) = &kind {
                return Err(de::Error::custom(format!(
                    "an action has exactly one verb, but this one has '{}' and '{key}'",
                    k.verb()
                )));
            }
            if V::GAME.is_some() && !V::VERBS.contains(&&*key) {
                return map.next_value_seed(Refuse(unknown_verb::<V>(&key), PhantomData));
            }
            kind = Some(V::read(&key, &mut map)?);
        }
        let seat = seat.ok_or_else(|| de::Error::missing_field("seat"))?;
        let kind = kind.ok_or_else(|| {
            de::Error::custom(match V::GAME {
                Some(_) => format!(
                    "the action has no verb: expected one of {}",
                    V::VERBS.join(", ")
                ),
                None => "the action has no verb: expected {\"seat\": ..., \"<verb>\": ...}".into(),
            })
        })?;
        Ok(Action { seat, kind })
    }
}

impl<'de, V: Verbs> serde::Deserialize<'de> for Action<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<V>(PhantomData<V>);
        impl<'de, V: Verbs> Visitor<'de> for Visit<V> {
            type Value = Action<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an action object: {\"seat\": ..., \"<verb>\": ...}")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Action<V>, A::Error> {
                Action::parse_map(map)
            }
        }
        d.deserialize_map(Visit(PhantomData))
    }
}

/// Refuses the value of an action's verb, so that the error's pointer names the verb.
struct Refuse<T>(String, PhantomData<T>);

impl<'de, T> de::DeserializeSeed<'de> for Refuse<T> {
    type Value = T;
    fn deserialize<D: serde::Deserializer<'de>>(self, _: D) -> Result<T, D::Error> {
        Err(de::Error::custom(self.0))
    }
}

impl<V: Verbs> serde::Serialize for Action<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("seat", &self.seat)?;
        self.kind.write(&mut m)?;
        m.end()
    }
}

impl<V: Verbs> PartialSchema for Action<V> {
    fn schema() -> RefOr<Schema> {
        if V::GAME.is_none() {
            return ObjectBuilder::new()
                .description(Some(
                    "An action: the seat that acted and exactly one verb with its value. Each \
                     game's verbs and their values are in its own schema (`GET /v1/games/{game}`, \
                     `schemas.action`).",
                ))
                .property("seat", Seat::schema())
                .required("seat")
                .min_properties(Some(2))
                .max_properties(Some(2))
                .into();
        }
        let mut one_of = OneOfBuilder::new().description(Some(format!(
            "An action in {}: the seat that acted and exactly one verb with its value.",
            V::GAME.unwrap_or_default()
        )));
        let game = V::GAME.unwrap_or_default();
        for (verb, doc, schema) in V::schemas() {
            one_of = one_of.item(
                ObjectBuilder::new()
                    // Named by game, verb and "action": generators name a class after the
                    // title, one verb (`play`) takes different values in different games, and
                    // a verb's value may have its own schema named by game and verb
                    // (`TongItsDraw`), which a class `TongItsDraw` would collide with.
                    .title(Some(format!("{game} {verb} action")))
                    .description(Some(doc))
                    .property("seat", Seat::schema())
                    .property(verb, schema)
                    .required("seat")
                    .required(verb)
                    .additional_properties(Some(AdditionalProperties::FreeForm(false))),
            );
        }
        one_of.into()
    }
}

impl ToSchema for Action {}

/// How a verb's value is written in a spreadsheet cell (the sheet template shows it).
pub trait Placeholder {
    const PLACEHOLDER: &'static str;
}

macro_rules! placeholders {
    ($( $ty:ty => $text:literal ),* $(,)?) => {
        $( impl Placeholder for $ty { const PLACEHOLDER: &'static str = $text; } )*
    };
}

placeholders! {
    Card => "<card>",
    Suit => "<suit: S H D C>",
    Seat => "<seat>",
    Yes => "true",
    bool => "<true or false>",
    u8 => "<number>",
}

/// The value of a verb that names several cards at once (Calabrasella's discard and take): a
/// list of card codes, `["4C", "5C"]`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ToSchema)]
#[serde(transparent)]
pub struct Cards(pub Vec<Card>);

impl Placeholder for Cards {
    const PLACEHOLDER: &'static str = "<[\"card\", ...]>";
}

/// The value of a verb that needs none: `true`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Yes;

impl serde::Serialize for Yes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl<'de> serde::Deserialize<'de> for Yes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(Yes),
            false => Err(de::Error::custom(
                "expected true: this verb takes no value (leave the action out instead of false)",
            )),
        }
    }
}

impl ToSchema for Yes {}

impl PartialSchema for Yes {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Boolean)
            .enum_values(Some([true]))
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, ToSchema)]
    struct Numbers(Vec<u8>);

    impl Placeholder for Numbers {
        const PLACEHOLDER: &'static str = "<numbers>";
    }

    crate::verbs! {
        /// A test game's verbs.
        enum Verb in "Test" {
            Play(Card) = "play": "A card.",
            Bid(Numbers) = "bid": "Numbers.",
        }
    }

    #[test]
    fn reads_and_writes_one_verb() {
        let a: Action<Verb> = serde_json::from_str(r#"{"play": "10h", "seat": "E"}"#).unwrap();
        assert_eq!(a.seat, Seat::E);
        assert_eq!(a.kind, Verb::Play("TH".parse().unwrap()));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"seat":"E","play":"TH"}"#
        );
        assert_eq!(a.any(), Action::new(Seat::E, "play", "TH"));
    }

    #[test]
    fn reads_an_action_as_sent_in_the_game_verbs_with_pointers() {
        let any: Action = serde_json::from_str(r#"{"seat": "E", "bid": [1, "x"]}"#).unwrap();
        let e = any.read::<Verb>(3).unwrap_err();
        assert_eq!(e.pointer, "/actions/3/bid/1");
        let any: Action = serde_json::from_str(r#"{"seat": "E", "cut": 3}"#).unwrap();
        let e = any.read::<Verb>(0).unwrap_err();
        assert_eq!(e.pointer, "/actions/0/cut");
        assert!(
            e.detail
                .contains("'cut' is not an action in Test: expected one of play, bid"),
            "{}",
            e.detail
        );
        let any: Action = serde_json::from_str(r#"{"seat": "E", "bid": [1, 2]}"#).unwrap();
        assert_eq!(
            any.read::<Verb>(0).unwrap().kind,
            Verb::Bid(Numbers(vec![1, 2]))
        );
    }

    #[test]
    fn refuses_two_verbs_no_verb_and_unknown_verbs() {
        for (json, why) in [
            (
                r#"{"seat": "E", "play": "TH", "bid": [1]}"#,
                "exactly one verb",
            ),
            (r#"{"seat": "E"}"#, "no verb"),
            (
                r#"{"seat": "E", "dance": 1}"#,
                "'dance' is not an action in Test",
            ),
            (r#"{"play": "TH"}"#, "seat"),
        ] {
            let e = serde_json::from_str::<Action<Verb>>(json)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{json}: {e}");
        }
    }
}
