//! What the league API takes and returns.

use crate::engine::{MatchState, PerSide, Seat, Side};
pub use crate::record::normal_name;
use crate::record::{MAX_NAME_CHARS, NAME_PATTERN, allowed_in_name};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use validator::Validate;

/// Names of clubs, players, leagues, seasons, sessions, partnerships and keys: 1 to 100
/// characters, not blank, none invisible or moving the text (`allowed_in_name`). Each is kept as
/// `normal_name` makes it. (Also the CLI's rule for the club names and key labels it is given.)
pub fn name_ok(name: &str) -> Result<(), validator::ValidationError> {
    let n = name.chars().count();
    if (1..=MAX_NAME_CHARS).contains(&n)
        && !name.trim().is_empty()
        && name.chars().all(allowed_in_name)
    {
        Ok(())
    } else {
        Err(validator::ValidationError::new("name").with_message(
            format!(
                "expected 1 to {MAX_NAME_CHARS} characters, not blank, no control, format \
                 (invisible or bidirectional) or line-separating characters"
            )
            .into(),
        ))
    }
}

/// A name as `name_ok` takes it, in the OpenAPI document.
pub struct Name;

impl utoipa::PartialSchema for Name {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .min_length(Some(1))
            .max_length(Some(MAX_NAME_CHARS))
            .pattern(Some(NAME_PATTERN))
            .description(Some(
                "1 to 100 characters, not only spaces, without characters of the Unicode \
                 categories Cc (controls), Cf (format: zero-width spaces and joiners, bidirectional \
                 marks, embeddings, overrides and isolates, the byte-order mark, tags), Zl and Zp \
                 (line and paragraph separators). Kept without surrounding spaces, in Unicode NFC; \
                 two players of a club cannot have the same name.",
            ))
            .into()
    }
}

impl ToSchema for Name {}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ana"}))]
pub struct NewNamed {
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub name: String,
}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Thursday Malilla", "season": "2026 autumn", "game": "malilla", "options": {}}))]
pub struct NewLeague {
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub name: String,
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub season: String,
    /// The game id (see `GET /v1/games`).
    pub game: String,
    /// The game's options for every match of the league.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: BTreeMap<String, Value>,
}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ana & Cai", "players": [1, 3]}))]
pub struct NewPartnership {
    /// Defaults to the players' names joined by " & ".
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Option<Name>)]
    pub name: Option<String>,
    /// The players' ids: a fixed team of two or more who score as one side (a pair, one of three
    /// pairs at six seats, a team of three). A match whose side is exactly these players counts
    /// for the partnership.
    #[validate(length(min = 2, max = 6))]
    #[schema(min_items = 2, max_items = 6)]
    pub players: Vec<i64>,
}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Evening 1", "played_on": "2026-11-19"}))]
pub struct NewSession {
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub name: String,
    /// The date of play, `YYYY-MM-DD`, from 1900-01-01 to 2200-12-31.
    #[validate(custom(function = "date_ok"))]
    #[schema(format = Date, pattern = "^(19[0-9]{2}|2[01][0-9]{2}|2200)-[0-9]{2}-[0-9]{2}$")]
    pub played_on: Option<String>,
}

/// A date of the Gregorian calendar, `YYYY-MM-DD` (`2026-02-30` is not one), from 1900 to 2200:
/// a club's dates are in living memory or planned, and a year 0 is a typo.
fn date_ok(d: &str) -> Result<(), validator::ValidationError> {
    let b = d.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && {
            let number = |r: std::ops::Range<usize>| d[r].parse::<u32>().unwrap_or(0);
            let (year, month, day) = (number(0..4), number(5..7), number(8..10));
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
            let days = match month {
                1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
                4 | 6 | 9 | 11 => 30,
                2 if leap => 29,
                2 => 28,
                _ => 0,
            };
            (1900..=2200).contains(&year) && (1..=days).contains(&day)
        };
    if ok {
        Ok(())
    } else {
        Err(validator::ValidationError::new("date")
            .with_message("expected a date YYYY-MM-DD from 1900-01-01 to 2200-12-31".into()))
    }
}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"session": 1, "seats": {"N": 1, "E": 2, "S": 3, "W": 4}}))]
pub struct NewMatch {
    /// The session (evening) the match is played in; its league fixes the game.
    pub session: i64,
    /// The player (id) at each seat of the game's table.
    // By name: `create_match` reads them against the table, to answer a name that is no seat there
    // with the table's seats.
    #[validate(length(max = 8))]
    pub seats: BTreeMap<String, i64>,
}

/// A stored hand's record replaced: the hand and every later hand of its match are adjudicated
/// again.
#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
pub struct HandAmendment {
    /// The hand as it was played.
    #[validate(nested)]
    pub record: crate::record::HandRecord,
    /// Why, for the audit trail.
    #[validate(length(max = 1000))]
    #[schema(max_length = 1000)]
    pub note: Option<String>,
}

/// A stored hand voided: it no longer counts, and the later hands of its match are adjudicated
/// again.
#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"note": "entered in the wrong match"}))]
pub struct HandVoid {
    /// Why, for the audit trail.
    #[validate(length(max = 1000))]
    #[schema(max_length = 1000)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"label": "scorekeeper laptop"}))]
pub struct NewKey {
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub label: String,
}

/// Who made a write: a club key, by its public id (and its row, which idempotent requests are
/// kept under), or the operator (`ARBITER_ADMIN_TOKEN`).
#[derive(Clone, Debug, PartialEq)]
pub enum Actor {
    Key { id: String, row: i64 },
    Operator,
}

impl Actor {
    /// As the audit trail names it: the key's id, or `operator`.
    pub fn name(&self) -> &str {
        match self {
            Actor::Key { id, .. } => id,
            Actor::Operator => "operator",
        }
    }
}

/// Who may read a club's results and records (`GET /v1/clubs/{club}`, README "Who may read what").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Anyone reads the club, its players, partnerships, leagues, sessions, matches, hand lists
    /// (scores, irregularity codes) and standings; a hand's record and adjudication, the audit
    /// trail and sheets need one of the club's keys.
    #[default]
    PublicResults,
    /// Every read needs one of the club's keys; to anyone else the club does not exist (404, and
    /// it is not listed).
    MembersOnly,
}

impl Visibility {
    /// As the store keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::PublicResults => "public_results",
            Visibility::MembersOnly => "members_only",
        }
    }

    /// As the store keeps it; anything else is the default (the column's CHECK allows no other).
    pub fn from_stored(s: &str) -> Visibility {
        match s {
            "members_only" => Visibility::MembersOnly,
            _ => Visibility::PublicResults,
        }
    }
}

/// A new club (`POST /v1/clubs`).
#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Casa de Malilla", "visibility": "members_only"}))]
pub struct NewClub {
    #[validate(custom(function = "name_ok"))]
    #[schema(value_type = Name)]
    pub name: String,
    /// `public_results` when absent.
    #[serde(default)]
    pub visibility: Visibility,
}

/// A club's settings changed (`PATCH /v1/clubs/{club}`).
#[derive(Debug, Deserialize, ToSchema, Validate)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"visibility": "members_only"}))]
pub struct ClubSettings {
    pub visibility: Visibility,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Club {
    pub id: i64,
    pub name: String,
    /// Who may read the club (set at creation, changed by `PATCH /v1/clubs/{club}`).
    pub visibility: Visibility,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Player {
    pub id: i64,
    pub club: i64,
    pub name: String,
    pub created_at: String,
}

/// An id with its name (a player where he sits, a partnership in standings).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NameRef {
    pub id: i64,
    pub name: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Partnership {
    pub id: i64,
    pub club: i64,
    pub name: String,
    pub players: Vec<NameRef>,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct League {
    pub id: i64,
    pub club: i64,
    pub name: String,
    pub season: String,
    pub game: String,
    #[schema(value_type = Object)]
    pub options: BTreeMap<String, Value>,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Session {
    pub id: i64,
    pub league: i64,
    pub name: String,
    pub played_on: Option<String>,
    pub created_at: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Match {
    pub id: i64,
    pub league: i64,
    pub session: i64,
    #[schema(value_type = BTreeMap<String, NameRef>)]
    pub seats: BTreeMap<Seat, NameRef>,
    /// The registered partnership sitting as each side, where there is one.
    #[schema(value_type = BTreeMap<String, i64>)]
    pub partnerships: BTreeMap<Side, i64>,
    /// Hands stored so far.
    pub hands: u32,
    /// The match after the last stored hand.
    pub state: MatchState,
    pub created_at: String,
}

/// A stored hand in a list: the ruling's headline. The full record and adjudication are at
/// `GET /v1/clubs/{club}/hands/{hand}`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HandSummary {
    pub id: i64,
    #[serde(rename = "match")]
    pub match_id: i64,
    pub session: i64,
    pub league: i64,
    /// 1 for the first hand of the match.
    pub number: u32,
    pub dealer: Seat,
    /// `scored`, `game_lost`, `misdeal` (a stored hand never has a record error).
    pub outcome: String,
    #[schema(inline)]
    pub hand_score: Option<PerSide<i32>>,
    /// Irregularity codes, in the order they happened.
    pub irregularities: Vec<String>,
    pub match_after: MatchState,
    pub created_at: String,
}

/// One stored hand with the record as posted and the adjudication as stored.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StoredHand {
    #[serde(flatten)]
    pub summary: HandSummary,
    #[schema(value_type = crate::record::HandRecord)]
    pub record: Value,
    #[schema(value_type = crate::engine::Adjudication)]
    pub adjudication: Value,
}

/// A page of a list; pass `next_cursor` as `cursor` for the next page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// `null` on the last page.
    pub next_cursor: Option<String>,
}

impl<T> Page<T> {
    /// The page of `rows`, read with `LIMIT limit + 1`: a row past `limit` says that a next page
    /// exists, which starts after the page's last row (`cursor` names it).
    pub(super) fn of(mut rows: Vec<T>, limit: u32, cursor: impl FnOnce(&T) -> String) -> Page<T> {
        let mut next_cursor = None;
        if rows.len() > limit as usize {
            rows.truncate(limit as usize);
            next_cursor = rows.last().map(cursor);
        }
        Page {
            items: rows,
            next_cursor,
        }
    }
}

/// What a sheet import stored.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ImportReport {
    /// Matches the sheet created (its `sit` rows), by the sheet's label.
    #[schema(value_type = BTreeMap<String, i64>)]
    pub matches_created: BTreeMap<String, i64>,
    /// Every hand stored, in sheet order.
    pub hands: Vec<HandSummary>,
}

/// The headline of a ruling, compared before and after a readjudication.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Ruling {
    pub outcome: String,
    #[schema(inline)]
    pub hand_score: Option<PerSide<i32>>,
    #[serde(default)]
    pub irregularities: Vec<RulingIrregularity>,
    pub match_after: MatchState,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RulingIrregularity {
    pub code: String,
    pub seat: Option<Seat>,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HandChange {
    pub hand: i64,
    #[serde(rename = "match")]
    pub match_id: i64,
    pub number: u32,
    pub before: Ruling,
    pub after: Ruling,
}

/// What a readjudication found (and, unless it was a dry run, stored).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Readjudication {
    pub league: i64,
    /// Whether the new rulings were stored (`false` for `dry_run=true`).
    pub applied: bool,
    pub hands_replayed: u32,
    /// Only the hands whose ruling changed.
    pub changed: Vec<HandChange>,
}

/// What a correction (a hand amended or voided) changed, stored in one transaction.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Correction {
    /// Its entry in the audit trail (`GET /v1/clubs/{club}/amendments`).
    pub amendment: i64,
    /// `amend_hand` or `void_hand`.
    pub action: String,
    pub hand: i64,
    #[serde(rename = "match")]
    pub match_id: i64,
    /// The amended hand, and every later hand of the match whose ruling changed, before and after
    /// (`number` is the hand's number after the correction: a void moves later hands up one).
    pub changed: Vec<HandChange>,
    /// The match after its last hand, before and after the correction.
    pub match_before: MatchState,
    pub match_after: MatchState,
}

/// One entry of a club's audit trail: who changed what stored, when, and what it was before.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Amendment {
    pub id: i64,
    pub at: String,
    /// The key's id, or `operator`.
    pub by: String,
    /// `amend_hand`, `void_hand`, `rename_player` or `rename_session`.
    pub action: String,
    /// What was changed: `hand`, `player` or `session`, and its id.
    pub subject: String,
    pub subject_id: i64,
    #[schema(value_type = Object)]
    pub before: Value,
    #[schema(value_type = Object)]
    pub after: Value,
    pub note: Option<String>,
}
