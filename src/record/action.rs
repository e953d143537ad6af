//! One recorded action: `{"seat": "N", "<verb>": value}`.

use crate::cards::{Card, Suit};
use crate::engine::{GameInfo, Seat};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use std::fmt;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema};
use utoipa::{PartialSchema, ToSchema};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Action {
    pub seat: Seat,
    pub kind: ActionKind,
}

macro_rules! verbs {
    ($( $variant:ident($ty:ty) = $verb:literal : $doc:literal ),* $(,)?) => {
        /// What a seat did. Each verb's meaning is in `docs/records.md` and the game's rule file.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ActionKind {
            $( #[doc = $doc] $variant($ty), )*
        }

        impl ActionKind {
            pub const VERBS: &'static [&'static str] = &[$($verb),*];

            pub fn verb(&self) -> &'static str {
                match self { $( ActionKind::$variant(_) => $verb, )* }
            }

            fn read<'de, A: MapAccess<'de>>(verb: &str, map: &mut A) -> Result<Option<ActionKind>, A::Error> {
                Ok(Some(match verb {
                    $( $verb => ActionKind::$variant(map.next_value()?), )*
                    _ => return Ok(None),
                }))
            }

            fn write<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
                match self { $( ActionKind::$variant(v) => map.serialize_entry($verb, v), )* }
            }

            /// What a value of `verb` looks like, for the spreadsheet template.
            pub fn placeholder(verb: &str) -> &'static str {
                match verb {
                    $( $verb => <$ty as Placeholder>::PLACEHOLDER, )*
                    _ => "<value>",
                }
            }

            fn schemas() -> Vec<(&'static str, &'static str, RefOr<Schema>)> {
                vec![$( ($verb, $doc, <$ty as PartialSchema>::schema()) ),*]
            }
        }
    };
}

verbs! {
    Play(Card) = "play": "A card played to the current trick.",
    Pass(Yes) = "pass": "A pass in an auction or on an offer (value `true`).",
    Bid(Bid) = "bid": "A bid: a number (tricks or points) or a named bid such as Pitch's `smudge`.",
    Trump(Suit) = "trump": "The suit named as trump.",
    Correct(Card) = "correct": "Replaces the seat's card in the current, incomplete trick (a revoke correction).",
    Draw(Card) = "draw": "A card drawn from the stock (Briscola, optional: after each trick, the winner first); checked against the stock order.",
    Discard(Card) = "discard": "A discard (Stubs & Spoils: the gallery discard of a non-dealer).",
    Spoil(Card) = "spoil": "Stubs & Spoils: the card the spoil taker takes from the trick.",
    Stub(Card) = "stub": "Stubs & Spoils (optional): the stub the table placed in front of the trick winner; checked against the rules.",
    Decline(Yes) = "decline": "Declines the trump on offer, e.g. Couillon's upcard suit (value `true`).",
    PickUp(bool) = "pick_up": "Bacon: \"pick it up\", making the upcard's suit trump; the value is whether the caller goes alone (`true`) or not (`false`).",
    VetoPickUp(bool) = "veto_pick_up": "Bacon: the picker's partner vetoes the pick-up (`true`: it counts as a pass) or lets it stand (`false`).",
    VetoAlone(bool) = "veto_alone": "Bacon: the loner's partner vetoes going alone (`true`: an ordinary pick-up) or lets it stand (`false`).",
    Royals(Yes) = "royals": "Twenty-Nine: the seat shows the King and Queen of trumps after his side won a trick (value `true`).",
    PlayOn(bool) = "play_on": "Court Piece: the side that took the first seven tricks plays on for all thirteen (`true`) or ends the hand (`false`).",
    ClaimRevoke(Seat) = "claim_revoke": "A claim that the named seat revoked: discovers that seat's established revokes not yet discovered.",
    GoodPlay(bool) = "good_play": "Tresette: before the first lead, whether the seat says \"Good play\" (holds a meld).",
    Announce(Melds) = "announce": "Tresette: the melds a declarer announces after his first won trick (checked against his dealt hand).",
    AskBest(Yes) = "ask_best": "Tresette table talk: the leader asks his partner to play his best card of the suit led (value `true`).",
    Count(u8) = "count": "Tresette table talk: a player following to a trick states how many cards of the suit led he holds.",
    Holding(u8) = "holding": "Tresette table talk: the seat states that it holds exactly this many (2, 1 or 0) cards in some suit.",
    Keep(Yes) = "keep": "Truco: the mão keeps the packet just dealt to him (value `true`).",
    PassToPartner(Yes) = "pass_to_partner": "Truco: the mão passes the packet just dealt to him to his partner (value `true`).",
    Reject(Yes) = "reject": "Truco: the mão rejects the packet just dealt to him; it is turned face up, dead (value `true`).",
    Raise(Yes) = "raise": "A call raising the stake to its next step (Truco: truco, retruco, nine, queda; value `true`).",
    Accept(Yes) = "accept": "Accepts what is on offer (value `true`): Couillon's upcard suit as trump; Truco's raised stake, or the score-of-eleven hand (play it).",
    Run(Yes) = "run": "Refuses the stake offered and concedes the hand (Truco: run away from a raise, or from the score-of-eleven hand).",
    PlayFaceDown(Card) = "play_face_down": "Truco: a card played face down to the current trick; it cannot win it.",
    Disclosure(Yes) = "disclosure": "Truco: the seat disclosed the content of its hand by words or by showing cards (value `true`).",
    Shuffle(Shuffle) = "shuffle": "Truco procedure data: one shuffle by the dealer, `riffle`, `wash` or `strip`.",
    Cut(u8) = "cut": "Truco procedure data: one cut by the dealer's left-hand opponent, into this many piles.",
}

thread_local! {
    /// The game whose record is being read, while `for_game` runs: its name and verbs.
    static GAME: std::cell::Cell<Option<(&'static str, &'static [&'static str])>> =
        const { std::cell::Cell::new(None) };
}

/// Runs `parse` (reading a record of `game`) so that an action with a verb the game does not have
/// is refused at that verb with the game's own verbs listed, not every game's.
pub fn for_game<T>(game: &GameInfo, parse: impl FnOnce() -> T) -> T {
    let before = GAME.replace(Some((game.name, game.verbs)));
    let out = parse();
    GAME.set(before);
    out
}

/// The verbs a record may use here: the game's while `for_game` runs, else every game's.
fn allowed() -> (Option<&'static str>, &'static [&'static str]) {
    match GAME.get() {
        Some((game, verbs)) => (Some(game), verbs),
        None => (None, ActionKind::VERBS),
    }
}

impl<'de> serde::Deserialize<'de> for Action {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Action;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an action object: {\"seat\": ..., \"<verb>\": ...}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Action, A::Error> {
                let mut seat = None;
                let mut kind: Option<ActionKind> = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == "seat" {
                        seat = Some(map.next_value::<Seat>()?);
                        continue;
                    }
                    if let Some(k) = kind {
                        return Err(de::Error::custom(format!(
                            "an action has exactly one verb, but this one has '{}' and '{key}'",
                            k.verb()
                        )));
                    }
                    let (game, verbs) = allowed();
                    kind = match verbs.contains(&&*key) {
                        true => ActionKind::read(&key, &mut map)?,
                        false => None,
                    };
                    if kind.is_none() {
                        let what = match game {
                            Some(game) => format!("'{key}' is not an action in {game}"),
                            None => format!("unknown verb '{key}'"),
                        };
                        let expected = verbs.join(", ");
                        return map.next_value_seed(Refuse(format!(
                            "{what}: expected one of {expected}"
                        )));
                    }
                }
                let seat = seat.ok_or_else(|| de::Error::missing_field("seat"))?;
                let kind = kind.ok_or_else(|| {
                    de::Error::custom(format!(
                        "the action has no verb: expected one of {}",
                        allowed().1.join(", ")
                    ))
                })?;
                Ok(Action { seat, kind })
            }
        }
        d.deserialize_map(V)
    }
}

/// Refuses the value of an action's verb, so that the error's pointer names the verb.
struct Refuse(String);

impl<'de> de::DeserializeSeed<'de> for Refuse {
    type Value = Action;
    fn deserialize<D: serde::Deserializer<'de>>(self, _: D) -> Result<Action, D::Error> {
        Err(de::Error::custom(self.0))
    }
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("seat", &self.seat)?;
        self.kind.write(&mut m)?;
        m.end()
    }
}

impl PartialSchema for Action {
    fn schema() -> RefOr<Schema> {
        let mut one_of = OneOfBuilder::new().description(Some(
            "An action: the seat that acted and exactly one verb with its value.",
        ));
        for (verb, doc, schema) in ActionKind::schemas() {
            one_of = one_of.item(
                ObjectBuilder::new()
                    .title(Some(verb))
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
    Bid => "<bid>",
    Melds => "<melds as JSON, e.g. [\"napoleon\"]>",
    Shuffle => "<riffle, wash or strip>",
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

impl PartialSchema for Yes {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Boolean)
            .enum_values(Some([true]))
            .into()
    }
}

/// One shuffle of the pack (Truco allows a single riffle and no wash or strip shuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shuffle {
    Riffle,
    Wash,
    Strip,
}

/// A bid: a number, or a bid the game names (`smudge`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bid {
    Number(u8),
    /// Pitch: four points and every trick.
    Smudge,
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bid::Number(n) => write!(f, "{n}"),
            Bid::Smudge => f.write_str("smudge"),
        }
    }
}

impl serde::Serialize for Bid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Bid::Number(n) => s.serialize_u8(*n),
            Bid::Smudge => s.serialize_str("smudge"),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Bid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Bid;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a bid: a whole number from 0 to 99, or \"smudge\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Bid, E> {
                u8::try_from(v)
                    .ok()
                    .filter(|n| *n < 100)
                    .map(Bid::Number)
                    .ok_or_else(|| E::custom(format!("{v} is not a bid: expected 0 to 99")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Bid, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => Err(E::custom(format!("{v} is not a bid: expected 0 to 99"))),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bid, E> {
                match v {
                    "smudge" => Ok(Bid::Smudge),
                    _ => Err(E::custom(format!(
                        "'{v}' is not a bid: expected a number or \"smudge\""
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl PartialSchema for Bid {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(99)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(["smudge"])),
            )
            .into()
    }
}

impl ToSchema for Bid {}

/// One meld a Tresette declarer can announce (`tresette.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldName {
    FourAces,
    FourTwos,
    FourThrees,
    ThreeAces,
    ThreeTwos,
    ThreeThrees,
    /// 3-2-A of one suit; a hand can hold several.
    Napoleon,
}

impl MeldName {
    const ALL: [MeldName; 7] = [
        MeldName::FourAces,
        MeldName::FourTwos,
        MeldName::FourThrees,
        MeldName::ThreeAces,
        MeldName::ThreeTwos,
        MeldName::ThreeThrees,
        MeldName::Napoleon,
    ];

    pub fn name(self) -> &'static str {
        [
            "four_aces",
            "four_twos",
            "four_threes",
            "three_aces",
            "three_twos",
            "three_threes",
            "napoleon",
        ][self as usize]
    }
}

/// The melds one Tresette player announces, as he says them ("three aces and a nap"): a list of
/// meld names, `napoleon` repeated once per nap. Order does not matter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Melds {
    /// Bit per of-a-kind meld (`MeldName as u8`).
    of_a_kind: u8,
    naps: u8,
}

impl Melds {
    /// Most naps a hand can hold: one per suit.
    const MAX_NAPS: u8 = 4;

    /// These melds and `meld`; `None` when that cannot be said (an of-a-kind meld twice, a fifth nap).
    pub fn with(self, meld: MeldName) -> Option<Melds> {
        match meld {
            MeldName::Napoleon if self.naps < Self::MAX_NAPS => Some(Melds {
                naps: self.naps + 1,
                ..self
            }),
            MeldName::Napoleon => None,
            m if self.of_a_kind >> m as u8 & 1 == 1 => None,
            m => Some(Melds {
                of_a_kind: self.of_a_kind | 1 << m as u8,
                ..self
            }),
        }
    }

    /// Every meld named, `Napoleon` once per nap, in the order of `MeldName`.
    pub fn iter(self) -> impl Iterator<Item = MeldName> {
        MeldName::ALL[..6]
            .iter()
            .copied()
            .filter(move |m| self.of_a_kind >> *m as u8 & 1 == 1)
            .chain((0..self.naps).map(|_| MeldName::Napoleon))
    }

    pub fn is_empty(self) -> bool {
        self == Melds::default()
    }
}

impl fmt::Display for Melds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("no meld");
        }
        let names: Vec<_> = self.iter().map(MeldName::name).collect();
        f.write_str(&names.join(", "))
    }
}

impl serde::Serialize for Melds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(MeldName::name))
    }
}

impl<'de> serde::Deserialize<'de> for Melds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Melds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of meld names")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Melds, A::Error> {
                let mut melds = Melds::default();
                while let Some(name) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    let meld = MeldName::ALL
                        .into_iter()
                        .find(|m| m.name() == name)
                        .ok_or_else(|| {
                            de::Error::custom(format!(
                                "'{name}' is not a meld: expected {}",
                                MeldName::ALL.map(MeldName::name).join(", ")
                            ))
                        })?;
                    melds = melds.with(meld).ok_or_else(|| {
                        de::Error::custom(format!(
                            "'{name}' is named too often (an of-a-kind meld once, at most four naps)"
                        ))
                    })?;
                }
                Ok(melds)
            }
        }
        d.deserialize_seq(V)
    }
}

impl PartialSchema for Melds {
    fn schema() -> RefOr<Schema> {
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some(MeldName::ALL.map(MeldName::name))),
            )
            .max_items(Some(10))
            .into()
    }
}

impl ToSchema for Melds {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_one_verb() {
        let a: Action = serde_json::from_str(r#"{"play": "10h", "seat": "E"}"#).unwrap();
        assert_eq!(a.seat, Seat::E);
        assert_eq!(a.kind, ActionKind::Play("TH".parse().unwrap()));
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"seat":"E","play":"TH"}"#
        );
    }

    #[test]
    fn melds_read_in_any_order_and_refuse_repeats() {
        let a: Melds = serde_json::from_str(r#"["napoleon", "three_aces", "napoleon"]"#).unwrap();
        let b: Melds = serde_json::from_str(r#"["napoleon", "napoleon", "three_aces"]"#).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"["three_aces","napoleon","napoleon"]"#
        );
        assert!(serde_json::from_str::<Melds>(r#"["three_aces", "three_aces"]"#).is_err());
        assert!(serde_json::from_str::<Melds>(r#"["five_kings"]"#).is_err());
        let five = r#"["napoleon","napoleon","napoleon","napoleon","napoleon"]"#;
        assert!(serde_json::from_str::<Melds>(five).is_err());
        assert!(serde_json::from_str::<Melds>("[]").unwrap().is_empty());
    }

    #[test]
    fn refuses_two_verbs_no_verb_and_unknown_verbs() {
        for (json, why) in [
            (
                r#"{"seat": "E", "play": "TH", "spoil": "TH"}"#,
                "exactly one verb",
            ),
            (r#"{"seat": "E"}"#, "no verb"),
            (r#"{"seat": "E", "dance": 1}"#, "unknown verb 'dance'"),
            (r#"{"play": "TH"}"#, "seat"),
        ] {
            let e = serde_json::from_str::<Action>(json)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{json}: {e}");
        }
    }
}
