//! The recorded hand as clients send it (`docs/records.md`): an ordered log of what happened at the
//! table. Parsing checks shape and notation; the game checks the deal and replays the actions.

mod action;
mod match_state;

pub use action::{Action, AnyVerb, Cards, Placeholder, Verbs, Yes, value_component, value_schema};
pub use match_state::MatchState;

use crate::cards::Card;
use crate::input::FieldError;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use validator::Validate;

/// Most actions one record may hold (the longest hand in the rules needs a few hundred).
pub const MAX_ACTIONS: usize = 2000;

/// Most cards a record field may list: the largest pack in the rules, Trente et Quarante's shoe
/// of six 52-card packs (each game bounds its own fields by its pack: `Rules::setup`).
pub const MAX_PACK_CARDS: usize = 312;

/// Most characters in a name: a player's in a record as in a league, a club's, a league's, ...
pub const MAX_NAME_CHARS: usize = 100;

/// Whether `c` may be part of a name: no control (Cc) or format character (Cf: zero-width
/// spaces and joiners, bidirectional marks, embeddings, overrides and isolates, the byte-order
/// mark, tag characters, ...), and no line or paragraph separator (Zl, Zp). Each of those is
/// invisible or moves the text around it, so a name holding one displays as another.
pub fn allowed_in_name(c: char) -> bool {
    use unicode_general_category::{GeneralCategory as G, get_general_category};
    !matches!(
        get_general_category(c),
        G::Control | G::Format | G::LineSeparator | G::ParagraphSeparator
    )
}

/// A name as it is kept and compared: without surrounding spaces, in Unicode NFC, so that one
/// name typed two ways ("Jos\u{e9}" and "Jose\u{301}") is one name.
pub fn normal_name(raw: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    raw.trim().nfc().collect()
}

/// The characters `allowed_in_name` refuses (Unicode 16: Cc, Cf, Zl, Zp), as the body of a JSON
/// Schema character class: escapes in the Basic Multilingual Plane, the few beyond it as
/// themselves (a schema's pattern has no portable escape for them).
macro_rules! not_in_name {
    () => {
        concat!(
            "\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f",
            "\\u0890-\\u0891\\u08e2\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064",
            "\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb",
            "\u{110bd}\u{110cd}\u{13430}-\u{1343f}\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}",
            "\u{e0001}\u{e0020}-\u{e007f}"
        )
    };
}

/// `allowed_in_name`, and not only spaces (`str::trim`), as a JSON Schema pattern: characters
/// outside the first class, and one that is neither that nor a space.
pub const NAME_PATTERN: &str = concat!(
    "^[^",
    not_in_name!(),
    "]*[^",
    not_in_name!(),
    "\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]",
    "[^",
    not_in_name!(),
    "]*$"
);

/// One recorded hand, its actions in the verbs of its game (`V`) or not yet read by a game
/// (`AnyVerb`, the default: see `HandRecord::read`).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema, Validate)]
#[serde(
    deny_unknown_fields,
    bound(deserialize = "V: Verbs", serialize = "V: Verbs")
)]
#[schema(example = json!({
    "game": "malilla", "dealer": "S",
    "deal": {"N": ["7S", "AS", "KS", "QS", "JS", "6S", "5S", "4S", "3S", "2S"],
             "E": ["7H", "AH", "KH", "QH", "JH", "6H", "5H", "4H", "3H", "2H"],
             "S": ["7D", "AD", "KD", "QD", "JD", "6D", "5D", "4D", "3D", "2D"],
             "W": ["7C", "AC", "KC", "QC", "JC", "6C", "5C", "4C", "3C", "2C"]},
    "face_up": ["2D"],
    "actions": [{"seat": "W", "play": "7C"}]
}))]
pub struct HandRecord<V: Verbs = AnyVerb> {
    /// The game id; when given it must equal the game in the path.
    pub game: Option<String>,
    /// Named variants of the game (see `GET /v1/games/{game}`); absent options take their defaults.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// Player names by seat (optional, for the record).
    #[serde(default)]
    #[validate(custom(function = "names_are_short"))]
    pub players: BTreeMap<Seat, String>,
    pub dealer: Seat,
    /// Every card each seat was dealt.
    #[validate(length(max = 8))]
    #[schema(value_type = BTreeMap<String, Vec<Card>>)]
    #[serde(deserialize_with = "deal_with_room")]
    pub deal: BTreeMap<Seat, Vec<Card>>,
    /// Cards turned face up by the deal (Malilla's trump card, Stubs & Spoils' Color Card, Truco's
    /// rejected packets: up to three of three cards).
    #[serde(default)]
    #[validate(length(max = 9))]
    #[schema(max_items = 9)]
    pub face_up: Vec<Card>,
    /// Cards not dealt to a seat, in the order the game uses them, top card first: a stock to draw
    /// from, a widow, a stub and its upcards (each game's docs say which; `docs/records.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[validate(length(max = 312))]
    #[schema(max_items = 312)]
    pub stock: Vec<Card>,
    /// A second stock, top card first, for a game whose undealt cards lie in two stocks (Hand and
    /// Foot's two face-down stocks, drawn from and pulled from apart): its schema says whether it
    /// has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[validate(length(max = 312))]
    #[schema(max_items = 312)]
    pub second_stock: Vec<Card>,
    /// A shoe's cards in order, the first to be drawn first, for a game played from a shoe (its
    /// schema says whether it has one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[validate(length(max = 312))]
    #[schema(max_items = 312)]
    pub shoe: Vec<Card>,
    /// Where the cut card lies in the shoe: the number of cards before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[validate(range(max = 312))]
    #[schema(maximum = 312)]
    pub cut_card: Option<u32>,
    /// The hands of each later deal of a hand dealt several times (`deal` is the first), for a game
    /// whose hand has several deals (its schema says whether it does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[validate(length(max = 8))]
    #[schema(max_items = 8, value_type = Vec<BTreeMap<String, Vec<Card>>>)]
    pub deals: Vec<BTreeMap<Seat, Vec<Card>>>,
    /// The table's actions in order; each names its seat and exactly one verb of the game (its
    /// action schema: `GET /v1/games/{game}`, `schemas.action`).
    #[serde(default, deserialize_with = "actions_with_room")]
    #[validate(length(max = 2000))]
    #[schema(max_items = 2000, value_type = Vec<Action>)]
    pub actions: Vec<Action<V>>,
    /// The match before this hand; a new game when absent.
    #[serde(default)]
    pub match_state: Option<MatchState>,
}

/// Room made at once for a hand's actions: grown from nothing, the list was moved five times on
/// the way to a hand of forty cards (issue 26).
const ACTIONS_ROOM: usize = 64;

/// Room made at once for each seat's cards in the deal, more than any game deals a seat at once:
/// grown from nothing, a seat's ten or thirteen cards were moved twice (issue 26).
const CARDS_ROOM: usize = 32;

/// A list read as serde reads any list (the same refusals), into room for `ROOM` elements.
struct WithRoom<T, const ROOM: usize>(Vec<T>);

impl<'de, T: Deserialize<'de>, const ROOM: usize> Deserialize<'de> for WithRoom<T, ROOM> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct List<T, const ROOM: usize>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const ROOM: usize> serde::de::Visitor<'de> for List<T, ROOM> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut list = Vec::with_capacity(ROOM);
                while let Some(element) = seq.next_element()? {
                    list.push(element);
                }
                Ok(list)
            }
        }
        d.deserialize_seq(List::<T, ROOM>(std::marker::PhantomData))
            .map(WithRoom)
    }
}

/// A record's actions, into `ACTIONS_ROOM`.
fn actions_with_room<'de, D, V>(d: D) -> Result<Vec<Action<V>>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: Verbs,
{
    WithRoom::<Action<V>, ACTIONS_ROOM>::deserialize(d).map(|actions| actions.0)
}

/// A record's deal, read as serde reads any map (the same refusals; a seat given twice is the
/// reader's to refuse), each seat's cards into `CARDS_ROOM`.
fn deal_with_room<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<Seat, Vec<Card>>, D::Error> {
    struct Deal;
    impl<'de> serde::de::Visitor<'de> for Deal {
        type Value = BTreeMap<Seat, Vec<Card>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut deal = BTreeMap::new();
            while let Some((seat, cards)) = map.next_entry::<Seat, WithRoom<Card, CARDS_ROOM>>()? {
                deal.insert(seat, cards.0);
            }
            Ok(deal)
        }
    }
    d.deserialize_map(Deal)
}

impl HandRecord {
    /// This record in the verbs of its game: a verb the game does not have, or a value the verb
    /// does not take, is refused with a pointer to it.
    pub fn read<V: Verbs>(&self) -> Result<HandRecord<V>, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut actions = Vec::with_capacity(self.actions.len());
        for (i, a) in self.actions.iter().enumerate() {
            match a.read(i) {
                Ok(a) => actions.push(a),
                Err(e) => errors.push(e),
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(HandRecord {
            game: self.game.clone(),
            options: self.options.clone(),
            players: self.players.clone(),
            dealer: self.dealer,
            deal: self.deal.clone(),
            face_up: self.face_up.clone(),
            stock: self.stock.clone(),
            second_stock: self.second_stock.clone(),
            shoe: self.shoe.clone(),
            cut_card: self.cut_card,
            deals: self.deals.clone(),
            actions,
            match_state: self.match_state.clone(),
        })
    }
}

fn names_are_short(players: &BTreeMap<Seat, String>) -> Result<(), validator::ValidationError> {
    let ok = |n: &String| n.chars().count() <= MAX_NAME_CHARS && n.chars().all(allowed_in_name);
    if players.values().all(ok) {
        Ok(())
    } else {
        Err(validator::ValidationError::new("name").with_message(
            format!(
                "player names are at most {MAX_NAME_CHARS} characters, with no control, \
                 format (invisible or bidirectional) or line-separating characters"
            )
            .into(),
        ))
    }
}

/// A game played hand by hand: every hand's record, in order.
#[derive(Clone, Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    /// The game id; when given it must equal the game in the path.
    pub game: Option<String>,
    /// Options for every hand of the match (a hand may repeat them, not change them).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// The match before the first hand; a new game when absent.
    #[serde(default)]
    pub match_state: Option<MatchState>,
    #[validate(length(min = 1, max = 200), nested)]
    #[schema(min_items = 1, max_items = 200)]
    pub hands: Vec<HandRecord>,
}

#[cfg(test)]
mod name_tests {
    /// The ranges of a character class body: `\uXXXX` escapes or characters, `a-b` ranges.
    fn ranges(class: &str) -> Vec<(u32, u32)> {
        let mut points = Vec::new();
        let mut rest = class;
        while let Some(c) = rest.chars().next() {
            if let Some(hex) = rest.strip_prefix("\\u") {
                points.push(Some(u32::from_str_radix(&hex[..4], 16).unwrap()));
                rest = &hex[4..];
            } else if c == '-' {
                points.push(None);
                rest = &rest[1..];
            } else {
                points.push(Some(c as u32));
                rest = &rest[c.len_utf8()..];
            }
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < points.len() {
            let a = points[i].unwrap();
            if points.get(i + 1) == Some(&None) {
                out.push((a, points[i + 2].unwrap()));
                i += 3;
            } else {
                out.push((a, a));
                i += 1;
            }
        }
        out
    }

    /// The pattern's class refuses exactly what `allowed_in_name` refuses, every code point.
    #[test]
    fn the_pattern_refuses_what_names_refuse() {
        let refused = ranges(not_in_name!());
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let in_class = refused.iter().any(|(a, b)| (*a..=*b).contains(&(c as u32)));
            assert_eq!(in_class, !super::allowed_in_name(c), "U+{:04X}", c as u32);
        }
    }
}

#[cfg(test)]
mod room_tests {
    use super::*;
    use serde_json::json;

    /// A deal is read into room made at once with serde's own refusals: a malformed deal gets the
    /// message a plain map of card lists gets, and a deal reads as one.
    #[test]
    fn a_deal_read_with_room_reads_and_is_refused_as_a_plain_map() {
        let deals = [
            json!([]),
            json!(null),
            json!({"N": "AS"}),
            json!({"X": []}),
            json!({"N": [1]}),
            json!({"N": ["ZZ"]}),
            json!({"N": ["AS", "KS"], "E": []}),
        ];
        for deal in deals {
            let plain = serde_json::from_value::<BTreeMap<Seat, Vec<Card>>>(deal.clone());
            let record = serde_json::from_value::<HandRecord>(json!({"dealer": "N", "deal": deal}));
            match (plain, record) {
                (Ok(plain), Ok(record)) => assert_eq!(record.deal, plain),
                (Err(plain), Err(record)) => assert_eq!(record.to_string(), plain.to_string()),
                (plain, record) => panic!("{deal}: {plain:?} as a map, {record:?} in a record"),
            }
        }
        let missing = serde_json::from_value::<HandRecord>(json!({"dealer": "N"})).unwrap_err();
        assert_eq!(missing.to_string(), "missing field `deal`");
    }
}
