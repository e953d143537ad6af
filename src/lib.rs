//! Arbiter: replays recorded card-game hands through a rules engine and adjudicates them the way a
//! careful tournament director would.

pub mod api;
pub mod cards;
pub mod desk;
pub mod details;
pub mod engine;
pub mod games;
pub mod input;
pub mod json;
pub mod league;
pub mod pbn;
pub mod record;
pub mod seat;
