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
    /// Who won the game, in every game: `[]` while it goes on; at its end the side the rules
    /// name the winner, several where the rules let them share the win (Big Two's tie), none
    /// where they end it without a winner (Imperial Tarot's tie at the top, Court Piece's draw).
    /// On input, a match state with winners is over and is refused.
    #[serde(default)]
    pub winners: Vec<Side>,
    /// Seats that have left the table (Knockout Whist's players knocked out), each with the number
    /// of hands played when it left: they are dealt nothing and act no more, their scores stay.
    /// Only at a table whose seats leave (`GET /v1/games`: `tables[].seats_leave`); `{}` elsewhere.
    #[serde(default)]
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
        let best = self.scores.sides().map(|s| self.scores[s]).max();
        let top: Vec<Side> = self
            .scores
            .sides()
            .filter(|&s| Some(self.scores[s]) == best)
            .collect();
        self.end_game(if top.len() == 1 { top } else { Vec::new() });
    }

    /// The game is over, won by `winners` (none: the rules end it without a winner).
    pub fn end_game(&mut self, winners: impl IntoIterator<Item = Side>) {
        self.game_over = true;
        self.winners = winners.into_iter().collect();
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
            winners: Vec::new(),
            out: BTreeMap::new(),
            details: Details::default(),
        }
    }
}
