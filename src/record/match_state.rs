//! The match carried from hand to hand.

use crate::details::Details;
use crate::seat::{PerSide, Seat, Side};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The match carried from hand to hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MatchState {
    /// Cumulative scores; absent sides count 0. On input, only the table's sides
    /// (`GET /v1/games`: `tables[].sides`).
    #[serde(default = "no_scores")]
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

impl MatchState {
    /// Ends the game on the scores as they stand: the one side with the highest score wins; sides
    /// tied for the highest leave it without a winner (an agreed number of hands played out:
    /// Court Piece, Imperial Tarot, Calabrasella).
    pub fn highest_wins(&mut self) {
        self.game_over = true;
        let best = self.scores.sides().map(|s| self.scores[s]).max();
        let mut top = self
            .scores
            .sides()
            .filter(|&s| Some(self.scores[s]) == best);
        self.winner = match (top.next(), top.next()) {
            (Some(side), None) => Some(side),
            _ => None,
        };
    }
}

/// Scores a request leaves out: no side named (not the partnerships of `PerSide::default`).
fn no_scores() -> PerSide<i32> {
    PerSide::over([])
}

/// A match's start: nothing scored yet, no side named (a game's table adds its own).
impl Default for MatchState {
    fn default() -> MatchState {
        MatchState {
            scores: no_scores(),
            next_dealer: None,
            hands_played: 0,
            game_over: false,
            winner: None,
            out: BTreeMap::new(),
            details: Details::default(),
        }
    }
}
