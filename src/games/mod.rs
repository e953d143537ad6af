//! One module per game, each reading like its rule file; the registry lists them.

mod auction_solo;
mod bacon;
mod big_two;
mod boston_de_fontainebleau;
mod briscola;
mod calabrasella;
mod calypso;
mod colour_whist;
mod couillon;
mod court_piece;
mod hand_and_foot;
mod hasenpfeffer;
mod imperial_tarot;
mod knockout_whist;
mod malilla;
mod nomination_whist;
mod pitch;
mod pluck;
mod poke;
mod royal_porcio;
mod spinado;
mod stubs_and_spoils;
mod tong_its;
mod trente_et_quarante;
mod tresette;
mod truco;
mod twenty_nine;
mod zetema;

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
        &calabrasella::Calabrasella,
        &colour_whist::ColourWhist,
        &calypso::Calypso,
        &pluck::Pluck,
        &tong_its::TongIts,
        &hand_and_foot::HandAndFoot,
        &zetema::Zetema,
        &spinado::Spinado,
        &poke::Poke,
        &trente_et_quarante::TrenteEtQuarante,
        &auction_solo::AuctionSolo,
        &nomination_whist::NominationWhist,
        &boston_de_fontainebleau::BostonDeFontainebleau,
        &royal_porcio::RoyalPorcio,
    ]
}

/// The game with this id (`malilla`, `stubs-and-spoils`, ...).
pub fn find(id: &str) -> Option<&'static dyn Game> {
    all().iter().copied().find(|g| g.info().id == id)
}

#[cfg(test)]
mod tests {
    use crate::engine::{Outcome, SHARED_TITLES};

    /// Every outcome, by its code (the match has no wildcard, so that a new outcome comes here).
    fn outcomes() -> Vec<String> {
        let all = [
            Outcome::Scored,
            Outcome::GameLost,
            Outcome::Misdeal,
            Outcome::Void,
            Outcome::RecordError,
        ];
        for o in all {
            match o {
                Outcome::Scored
                | Outcome::GameLost
                | Outcome::Misdeal
                | Outcome::Void
                | Outcome::RecordError => {}
            }
        }
        all.iter()
            .map(|o| {
                serde_json::to_value(o)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    }

    /// The desk and the API show a title in words for every code a game can emit (the contract
    /// test checks that a game emits only the codes it declares): its irregularities, record
    /// errors, events and score codes, and every outcome. A game's own titles name only codes it
    /// declares, and every shared title is some game's code or an outcome.
    #[test]
    fn every_code_a_game_can_emit_has_a_title() {
        let mut missing = Vec::new();
        let mut used: Vec<&str> = Vec::new();
        for game in super::all() {
            let info = game.info();
            let declared: Vec<&str> = [
                info.irregularities,
                info.record_errors,
                info.events,
                info.score_codes,
            ]
            .concat();
            let outcomes = outcomes();
            for code in declared
                .iter()
                .copied()
                .chain(outcomes.iter().map(|s| s.as_str()))
            {
                match info.titles.get(code) {
                    Some(title) if !title.trim().is_empty() && title != code => {}
                    _ => missing.push(format!(
                        "{}: no title for code `{code}`: add it to the game's GameInfo.titles \
                         (or to SHARED_TITLES in src/engine/game.rs if several games report it)",
                        info.id
                    )),
                }
            }
            for (code, _) in info.titles.0 {
                assert!(
                    declared.contains(code),
                    "{}: a title for `{code}`, a code the game does not declare",
                    info.id
                );
            }
            used.extend(declared);
        }
        assert!(missing.is_empty(), "{missing:#?}");
        let outcomes = outcomes();
        for (code, _) in SHARED_TITLES {
            assert!(
                used.contains(code) || outcomes.iter().any(|o| o == code),
                "SHARED_TITLES has `{code}`, which no game reports"
            );
        }
    }
}
