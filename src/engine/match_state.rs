//! The match carried from hand to hand, and the checks on one given in a request.

use super::{FieldError, Game, PerSide, Seat, Side};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The match carried from hand to hand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
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
    /// The sides still contending in a tie-breaker hand (Briscola): set when the match's hands end
    /// with the lead tied; such a hand is scored on its own and decides among these sides only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contenders: Vec<Side>,
    /// Hands tied in a row just before the next hand, whose value the next decided hand carries
    /// (Couillon's `p`). Absent = 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pending_ties: u32,
    /// Consecutive hands won by one side (Court Piece's seven-hand streak); absent before the
    /// first hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streak: Option<Streak>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A run of consecutive hands won by one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Streak {
    pub side: Side,
    /// Hands in the run still counting towards the next streak reward.
    pub count: u32,
}

/// Scores beyond this size are refused: no real game gets near them, and they keep arithmetic safe.
const SCORE_LIMIT: i32 = 1_000_000;

impl MatchState {
    /// Checks a match state given in a request, for a hand dealt by `dealer` in `game`.
    pub(super) fn check(
        &self,
        game: &dyn Game,
        dealer: Seat,
        base: &str,
    ) -> Result<(), Vec<FieldError>> {
        let mut errors = Vec::new();
        // A game-specific field that this game does not keep would be carried along unread.
        let kept = game.match_fields();
        for (field, set) in [
            ("contenders", !self.contenders.is_empty()),
            ("pending_ties", self.pending_ties != 0),
            ("streak", self.streak.is_some()),
        ] {
            if set && !kept.contains(&field) {
                errors.push(FieldError::new(
                    format!("{base}/{field}"),
                    format!("{} keeps no {field} in its match state", game.info().name),
                ));
            }
        }
        for side in self.scores.sides() {
            if !(-SCORE_LIMIT..=SCORE_LIMIT).contains(&self.scores[side]) {
                errors.push(FieldError::new(
                    format!("{base}/scores/{side}"),
                    format!("scores are limited to ±{SCORE_LIMIT}"),
                ));
            }
        }
        // Every game counts the hand it scores (`hands_played + 1`): keep that addition safe.
        if self.hands_played > SCORE_LIMIT as u32 {
            errors.push(FieldError::new(
                format!("{base}/hands_played"),
                format!("hands played are limited to {SCORE_LIMIT}"),
            ));
        }
        if self.pending_ties > SCORE_LIMIT as u32 {
            errors.push(FieldError::new(
                format!("{base}/pending_ties"),
                format!("pending ties are limited to {SCORE_LIMIT}"),
            ));
        }
        if let Some(side) = game.already_won(&self.scores) {
            errors.push(FieldError::new(
                format!("{base}/scores/{side}"),
                format!(
                    "{side} has {} and the game is won at {}: the game is over, start a new match",
                    self.scores[side],
                    game.info().game_target
                ),
            ));
        }
        if self.game_over || self.winner.is_some() {
            errors.push(FieldError::new(
                format!("{base}/game_over"),
                "the game is already over: start a new match".into(),
            ));
        }
        if let Some(d) = self.next_dealer
            && d != dealer
        {
            errors.push(FieldError::new(
                "/dealer".into(),
                format!("the match state says {d} deals this hand, but the record names {dealer}"),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}
