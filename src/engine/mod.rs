//! The rules engine shared by every game: seats and turn order, tricks and their winners, the
//! revoke-correction window, the irregularity log, options, match state, and the replay driver
//! that feeds a record's actions to a game one at a time.

mod adjudication;
pub mod deal;
mod game;
mod log;
mod match_state;
mod options;
mod play;
mod replay;
mod seat;
mod stock;
mod trick;
mod view;

pub use adjudication::{
    Adjudication, Bonus, BonusStatus, Contract, Event, Mode, Outcome, ScoreItem, ScoreSource, Tally,
};
pub use game::{Game, GameInfo, HandState};
pub use match_state::{MatchState, Streak};
pub use replay::{
    MatchReport, Replay, adjudicate, adjudicate_match, adjudicate_next, legal_actions,
};
pub use view::TableView;

pub use log::{
    CorrectedRevoke, Decides, Effect, Fault, FirstDecides, IgnoredAction, Irregularity, RecordError,
};
pub use options::{OptionKind, OptionSpec, Options};
pub use play::{Established, TrickPlay};
pub use seat::{PerSide, Seat, Side, Table};
pub use stock::Stock;
pub use trick::{
    MAX_PLAYS, PlayedCard, RankOrder, Trick, TrickReport, must_follow_suit, trump_or_led,
};

use serde::Serialize;
use utoipa::ToSchema;

/// A problem with one part of a request, refused before any adjudication (HTTP 4xx).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON pointer (RFC 6901) to the offending value.
    pub pointer: String,
    /// What is wrong and what was expected.
    pub detail: String,
    /// In a CSV upload: the 1-based line of the offending cell (the header is line 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<u64>,
    /// In a CSV upload: the 1-based column of the offending cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

impl FieldError {
    pub fn new(pointer: String, detail: String) -> FieldError {
        FieldError {
            pointer,
            detail,
            row: None,
            column: None,
        }
    }

    /// Prefixes the pointer with `base` (an error inside a nested document).
    pub fn under(mut self, base: &str) -> FieldError {
        self.pointer = format!("{base}{}", self.pointer);
        self
    }
}
