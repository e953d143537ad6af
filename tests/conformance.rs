//! The conformance kit (issue 10): every registered game runs the same properties, with no code of
//! its own. From each accepted fixture's deal (its actions removed), hands are played by choosing
//! among the legal actions the engine offers, with a driver that keeps the game's state between
//! steps (`engine::Replay`):
//! - every action offered is accepted, and random legal play ends in a clean ruling (no record
//!   error, no irregularity) whose codes the game declares and whose match moves by `hand_score`;
//! - the step-by-step ruling equals the ruling of the whole record replayed at once, twice;
//! - a card held but not offered, played instead, is an irregularity or a record error at that
//!   action: nothing the judge refuses is taken as legal.
//!
//! The fixtures themselves pass in `tests/fixtures.rs`; the contract in `tests/contract.rs`.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::Card;
use arbiter::engine::{self, Adjudication, Game, Outcome, Replay};
use arbiter::record::{Action, HandRecord};
use common::random::Rng;
use serde_json::Value;

/// Each game's fixture deals that start a hand the engine accepts, actions removed.
fn deals(game: &dyn Game) -> Vec<HandRecord> {
    common::fixtures()
        .into_iter()
        .filter(|(g, _)| g == game.info().id)
        .filter_map(|(_, path)| {
            let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            let mut r = parse_json::<HandRecord>(&serde_json::to_vec(&v["record"]).ok()?).ok()?;
            r.actions.clear();
            Replay::start(game, &r).is_ok().then_some(r)
        })
        .collect()
}

/// Plays `record` on from where it stands by the engine's legal actions (never a correction),
/// keeping the replay between steps. Returns the record played and the step-by-step ruling.
fn play_on(game: &dyn Game, mut record: HandRecord, rng: &mut Rng) -> (HandRecord, Adjudication) {
    let mut replay = Replay::start(game, &record).expect("a legal position");
    loop {
        let view = replay.view();
        let offered: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb != "correct")
            .collect();
        if offered.is_empty() || record.actions.len() >= arbiter::record::MAX_ACTIONS {
            let a = replay.finish(None);
            // No action is due but the hand is not over: the record lacks cards the play needs
            // (a fixture's stock listing only the upcards its own auction turned).
            if view.phase != "over" {
                assert_eq!(
                    a.record_error.as_ref().map(|e| e.code),
                    Some("incomplete_hand"),
                    "{}: stuck in phase {}",
                    game.info().id,
                    view.phase
                );
            }
            return (record, a);
        }
        let action = offered[rng.below(offered.len())].clone();
        record.actions.push(action.clone());
        if let Err(e) = replay.apply(action.clone()) {
            panic!(
                "{}: offered action {action:?} refused: {} ({})",
                game.info().id,
                e.code,
                e.detail
            );
        }
    }
}

fn json(a: &Adjudication) -> Value {
    serde_json::to_value(a).unwrap()
}

#[test]
fn random_legal_play_is_accepted_and_rules_cleanly_in_every_game() {
    let mut hands = 0;
    for game in arbiter::games::all() {
        let info = game.info();
        let deals = deals(*game);
        assert!(
            !deals.is_empty(),
            "{}: no fixture deal starts a hand",
            info.id
        );
        for (d, deal) in deals.into_iter().enumerate() {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (d as u64 + 1));
            let (record, stepped) = play_on(*game, deal, &mut rng);
            let id = info.id;
            if stepped
                .record_error
                .as_ref()
                .is_some_and(|e| e.code == "incomplete_hand")
            {
                continue; // the deal's record ran out of cards (checked in `play_on`)
            }
            assert!(
                stepped.record_error.is_none(),
                "{id}: {:?}",
                stepped.record_error
            );
            // Only the deal itself (a misdeal) may be at fault: no action broke a rule.
            assert!(
                stepped
                    .irregularities
                    .iter()
                    .all(|i| i.action_index.is_none()),
                "{id}: legal play broke a rule: {:?}",
                stepped.irregularities
            );
            assert_ne!(stepped.outcome, Outcome::RecordError, "{id}");
            assert_eq!(common::undeclared_codes(info, &stepped), Vec::<&str>::new());
            if let Some(score) = stepped.hand_score
                && !stepped.match_before.details.contains_key("contenders")
            {
                for side in score.sides() {
                    assert_eq!(
                        stepped.match_after.scores[side] - stepped.match_before.scores[side],
                        score[side],
                        "{id}: the match moves by hand_score"
                    );
                }
            }
            // Step by step or all at once, the same ruling, every time.
            let whole = engine::adjudicate(*game, &record).expect("accepted");
            assert_eq!(json(&whole), json(&stepped), "{id}: replay differs");
            let again = engine::adjudicate(*game, &record).unwrap();
            assert_eq!(json(&again), json(&whole), "{id}: not deterministic");
            hands += 1;
        }
    }
    assert!(hands > 100, "{hands} hands played");
}

#[test]
fn a_card_the_judge_does_not_offer_is_never_taken_as_legal() {
    let mut checked = 0;
    for game in arbiter::games::all() {
        for (d, deal) in deals(*game).into_iter().enumerate() {
            let mut rng = Rng(0xD1B5_4A32_D192_ED03 ^ (d as u64 + 1));
            let (played, _) = play_on(*game, deal.clone(), &mut rng);
            // Walk the legal hand again; at a few plays, put down a held card that was not offered.
            let mut record = deal;
            for action in played.actions {
                let view = engine::legal_actions(*game, &record).unwrap();
                let offered: Vec<_> = view
                    .legal
                    .iter()
                    .filter(|a| a.seat == action.seat)
                    .filter_map(|a| a.kind.of::<Card>("play"))
                    .collect();
                let refused: Vec<_> = view.hand.iter().filter(|c| !offered.contains(c)).collect();
                // A game whose `play` is not one card (a climbing game's combination) is left out.
                if action.kind.of::<Card>("play").is_some()
                    && view.to_act.first() == Some(&action.seat)
                    && !refused.is_empty()
                    && rng.below(3) == 0
                {
                    let at = record.actions.len();
                    let mut wrong = record.clone();
                    wrong.actions.push(Action::new(
                        action.seat,
                        "play",
                        refused[rng.below(refused.len())],
                    ));
                    let (_, a) = play_on(*game, wrong, &mut rng);
                    let caught = a.irregularities.iter().any(|i| i.action_index == Some(at))
                        || a.record_error
                            .as_ref()
                            .is_some_and(|e| e.action_index == Some(at));
                    assert!(
                        caught,
                        "{}: a card not offered at action {at} went unnoticed",
                        game.info().id
                    );
                    checked += 1;
                }
                record.actions.push(action);
            }
        }
    }
    assert!(checked > 50, "{checked} refused cards tried");
}
