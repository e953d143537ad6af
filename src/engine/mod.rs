//! The rules engine shared by every game: seats and turn order, tricks and their winners, the
//! revoke-correction window, the irregularity log, options, match state, and the replay driver
//! that feeds a record's actions to a game one at a time; and what the rummy games share (`rummy`).

mod adjudication;
pub mod auction;
mod called;
pub mod deal;
pub mod deals;
mod game;
mod log;
mod options;
mod play;
mod replay;
pub mod rummy;
mod stock;
pub mod stubs;
mod trick;
mod view;

pub use adjudication::{
    Adjudication, Bonus, BonusStatus, Camp, CampPoints, Contract, Ending, Event, Outcome,
    ScoreItem, ScoreSource, Tally,
};
pub use called::Called;
pub use game::{
    Decided, Game, GameInfo, GameSchemas, HandState, Rotation, Rules, SHARED_TITLES, Tables, Titles,
};
pub use replay::{
    MatchReport, Recorded, Replay, adjudicate, adjudicate_match, adjudicate_next, legal_actions,
};
pub use view::{Locus, TableView};

pub use log::{
    CorrectedRevoke, Decides, Effect, Fault, FirstDecides, IgnoredAction, Irregularity, RecordError,
};
pub use options::{OptionKind, OptionSpec, Options};
pub use play::{Established, TrickPlay};
// The engine's vocabulary that lives below it, so that records and the league use it without the
// engine.
pub use crate::details::{Details, NoDetails};
pub use crate::input::FieldError;
pub use crate::record::MatchState;
pub use crate::seat::{PerSide, Seat, Side, Table, TableShape};
pub use stock::Stock;
pub use trick::{
    Beaters, MAX_PLAYS, PlayedCard, RankOrder, Trick, TrickReport, Winning, must_follow_suit,
    trump_or_led,
};
