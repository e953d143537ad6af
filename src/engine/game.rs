//! One game's rules as the engine sees them: what it declares (`GameInfo`), how it starts a
//! hand (`Game`) and how a hand takes its actions (`HandState`).

use super::{
    Adjudication, FieldError, MatchState, OptionSpec, Options, PerSide, RecordError, Side, Table,
    TableView,
};
use crate::record::{Action, HandRecord};
use serde::Serialize;
use utoipa::ToSchema;

/// Describes a game for `GET /v1/games`.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameInfo {
    pub id: &'static str,
    pub name: &'static str,
    /// Number of players (the only count this service accepts for the game).
    pub players: u8,
    /// Seats in clockwise order.
    #[schema(value_type = Vec<String>)]
    pub seats: &'static [&'static str],
    pub partnerships: bool,
    pub deck: &'static str,
    /// The score that wins a game.
    pub game_target: i32,
    pub options: &'static [OptionSpec],
    /// The rule file this game implements, in the shared rules folder.
    pub rules: &'static str,
    /// Irregularity codes this game reports.
    #[schema(value_type = Vec<String>)]
    pub irregularities: &'static [&'static str],
    /// Record error codes this game reports (README "Legality outcomes", C12).
    #[schema(value_type = Vec<String>)]
    pub record_errors: &'static [&'static str],
    /// Event codes this game reports (`events[].code`).
    #[schema(value_type = Vec<String>)]
    pub events: &'static [&'static str],
    /// Codes of the parts of its hand score (`score_items[].code`) and of its bonuses.
    #[schema(value_type = Vec<String>)]
    pub score_codes: &'static [&'static str],
    /// Verbs a record of this game may use.
    #[schema(value_type = Vec<String>)]
    pub verbs: &'static [&'static str],
}

/// One game's rules.
pub trait Game: Send + Sync {
    fn info(&self) -> &'static GameInfo;

    /// The table this game is played at under `options` (players, direction of play): four
    /// players in partnerships, clockwise, unless the game says otherwise.
    fn table(&self, _options: &Options) -> Table {
        Table::FOUR
    }

    /// The game-specific fields of `MatchState` this game carries between hands (`contenders`,
    /// `pending_ties`, `streak`); a request that sets any other is refused.
    fn match_fields(&self) -> &'static [&'static str] {
        &[]
    }

    /// The record's fields for cards not dealt to a seat that this game uses (`face_up`, `stock`);
    /// its `start` refuses the others unless empty.
    fn undealt_fields(&self) -> &'static [&'static str] {
        &[]
    }

    /// The side that has already won a game whose scores are `scores`, so that no hand can follow
    /// (a request with such a match state is refused): by default a side at or past `game_target`.
    /// A game whose target does not end it by itself (Pitch: only the pitchers win at 21) says so.
    fn already_won(&self, scores: &PerSide<i32>) -> Option<Side> {
        let target = self.info().game_target;
        scores.sides().find(|&s| target > 0 && scores[s] >= target)
    }

    /// Checks the deal and sets up the hand. Problems are refusals with pointers.
    fn start(
        &self,
        record: &HandRecord,
        options: &Options,
        before: &MatchState,
    ) -> Result<Box<dyn HandState>, Vec<FieldError>>;
}

/// A hand being replayed, one action at a time.
pub trait HandState {
    /// Applies action `index`. A record error stops the replay.
    fn apply(&mut self, index: usize, action: &Action) -> Result<(), RecordError>;

    /// The table as the next player to act sees it, with every legal action.
    fn view(&self) -> TableView;

    /// Ends the replay (after the last action, or at a record error) and rules on the hand.
    fn finish(self: Box<Self>, error: Option<RecordError>) -> Adjudication;
}
