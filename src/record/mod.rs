//! The recorded hand as clients send it (`docs/records.md`): an ordered log of what happened at the
//! table. Parsing checks shape and notation; the game checks the deal and replays the actions.

mod action;
mod match_state;

pub use action::{Action, AnyVerb, Placeholder, Verbs, Yes, value_component, value_schema};
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

/// Whether `c` may be part of a name: no control character, and no bidirectional embedding,
/// override or isolate (U+202A–U+202E, U+2066–U+2069), which make a name display as another.
pub fn allowed_in_name(c: char) -> bool {
    !c.is_control() && !matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `allowed_in_name`, and not only spaces (`str::trim`), as a JSON Schema pattern: characters
/// outside the first class, and one that is neither that nor a space.
pub const NAME_PATTERN: &str = concat!(
    "^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*",
    "[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069",
    "\\u0020\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]",
    "[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$"
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
    #[serde(default)]
    #[validate(length(max = 2000))]
    #[schema(max_items = 2000, value_type = Vec<Action>)]
    pub actions: Vec<Action<V>>,
    /// The match before this hand; a new game when absent.
    #[serde(default)]
    pub match_state: Option<MatchState>,
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
                "player names are at most {MAX_NAME_CHARS} characters, with no control or \
                 bidirectional formatting characters"
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
