//! One module per game, each reading like its rule file; the registry lists them.

mod bacon;
mod big_two;
mod briscola;
mod couillon;
mod court_piece;
mod hasenpfeffer;
mod imperial_tarot;
mod knockout_whist;
mod malilla;
mod pitch;
mod stubs_and_spoils;
mod tresette;
mod truco;
mod twenty_nine;

use crate::engine::Game;

/// Every game arbiter adjudicates.
pub fn all() -> &'static [&'static dyn Game] {
    &[
        &malilla::Malilla,
        &stubs_and_spoils::StubsAndSpoils,
        &hasenpfeffer::Hasenpfeffer,
        &briscola::Briscola,
        &pitch::Pitch,
        &couillon::Couillon,
        &bacon::Bacon,
        &twenty_nine::TwentyNine,
        &court_piece::CourtPiece,
        &tresette::Tresette,
        &truco::Truco,
        &big_two::BigTwo,
        &imperial_tarot::ImperialTarot,
        &knockout_whist::KnockoutWhist,
    ]
}

/// The game with this id (`malilla`, `stubs-and-spoils`, ...).
pub fn find(id: &str) -> Option<&'static dyn Game> {
    all().iter().copied().find(|g| g.info().id == id)
}
