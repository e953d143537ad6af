//! The match carried from hand to hand.

use crate::details::Details;
use crate::seat::{PerSide, Seat, Side};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The match carried from hand to hand.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MatchState {
    /// Cumulative scores; absent sides count 0.
    #[serde(default)]
    #[schema(inline)]
    pub scores: PerSide<i32>,
    /// Who deals the next hand. On input, when given, it must be the hand's dealer.
    #[serde(default)]
    pub next_dealer: Option<Seat>,
    #[serde(default)]
    pub hands_played: u32,
    #[serde(default)]
    pub game_over: bool,
    #[serde(default)]
    pub winner: Option<Side>,
    /// Seats that have left the table (Knockout Whist's players knocked out), each with the number
    /// of hands played when it left: they are dealt nothing and act no more, their scores stay.
    /// Only at a table whose seats leave (`GET /v1/games`: `tables[].seats_leave`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schema(value_type = BTreeMap<String, u32>)]
    pub out: BTreeMap<Seat, u32>,
    /// The game's own fields carried from hand to hand (Briscola's `contenders`, Couillon's
    /// `pending_ties`, Court Piece's `streak`): the game's `Carried` schema names them.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub details: Details,
}
