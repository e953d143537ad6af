//! One module per game, each reading like its rule file; the registry lists them.

mod malilla;
mod stubs_and_spoils;
mod truco;

use crate::engine::Game;

/// Every game arbiter adjudicates.
pub fn all() -> &'static [&'static dyn Game] {
    &[
        &malilla::Malilla,
        &stubs_and_spoils::StubsAndSpoils,
        &truco::Truco,
    ]
}

/// The game with this id (`malilla`, `stubs-and-spoils`, ...).
pub fn find(id: &str) -> Option<&'static dyn Game> {
    all().iter().copied().find(|g| g.info().id == id)
}
