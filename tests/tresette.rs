//! Tresette: random legal hands (Good play decisions, table talk, announcements and plays chosen among
//! the legal actions the engine offers) replay cleanly with card points that add up to 11; random
//! corruptions never score cleanly; unit checks of the subtle rulings.

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Adjudication, Outcome, ScoreSource, Side, Table};
use arbiter::record::{Action, HandRecord};
mod common;

use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("tresette").unwrap()
}

/// A random deal of the whole 40-card pack, ten each, under `options`.
fn random_hand(seed: u64, options: serde_json::Value) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let cards = shuffled(packs::latin40().cards.iter().collect(), &mut rng);
    let seats = ["N", "E", "S", "W"];
    let dealer = seats[rng.below(4)];
    let deal: serde_json::Map<_, _> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| (s.to_string(), json!(cards[i * 10..(i + 1) * 10])))
        .collect();
    let record = json!({"game": "tresette", "dealer": dealer, "deal": deal, "options": options});
    play_out(
        parse_json(&serde_json::to_vec(&record).unwrap()).unwrap(),
        &mut rng,
    )
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(game(), record).expect("accepted")
}

/// The melds `side` scored: parts of its hand score with source `meld`.
fn melds(a: &Adjudication, side: Side) -> i32 {
    a.score_items
        .iter()
        .filter(|t| t.side == side && t.source == ScoreSource::Meld)
        .map(|t| t.points)
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_add_up(seed in any::<u64>(), ccw in any::<bool>(), no_trick in any::<bool>(), one_meld in any::<bool>()) {
        let options = json!({
            "direction": if ccw { "counterclockwise" } else { "clockwise" },
            "melds_score_without_trick": no_trick,
            "card_in_one_meld_only": one_meld,
        });
        let record = random_hand(seed, options);
        let a = adjudicate(&record);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty(), "{:?}", a.irregularities);
        prop_assert_eq!(a.tricks.len(), 10);
        let (ns, ew) = (&a.tally[Side::NS], &a.tally[Side::EW]);
        prop_assert_eq!(ns.tricks + ew.tricks, 10);
        // TR-b: aces 4 + thirds 6 + last trick 1.
        prop_assert_eq!(ns.points.unwrap() + ew.points.unwrap(), 11);
        let played: std::collections::BTreeSet<Card> = a.tricks.iter().flat_map(|t| t.plays.plays().iter().map(|p| p.card)).collect();
        prop_assert_eq!(played.len(), 40, "every card played once");
        let score = a.hand_score.unwrap();
        // The hand score is the card points plus the melds, and the match moves by exactly it.
        for side in Side::BOTH {
            prop_assert_eq!(score[side], a.tally[side].points.unwrap() + melds(&a, side));
            prop_assert_eq!(a.match_after.scores[side], a.match_before.scores[side] + score[side]);
        }
        prop_assert!(a.bonuses.is_empty());
        // A meld scores at its holder's Good play, only when he himself won a trick (or by option).
        for t in a.score_items.iter().filter(|t| t.source == ScoreSource::Meld) {
            prop_assert!(matches!(t.points, 3 | 4));
            let holder = &record.actions[t.action_index.unwrap()];
            prop_assert_eq!(holder.kind.of("good_play"), Some(true));
            prop_assert!(no_trick || a.tricks.iter().any(|tr| tr.winner == Some(holder.seat)));
        }
        prop_assert_eq!(a.match_after.next_dealer, Some(game().table(&engine::Options::resolve(game().info().options, &record.options, "").unwrap()).next(record.dealer)));
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn corrupted_plays_never_score_cleanly(seed in any::<u64>(), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_hand(seed, json!({}));
        let plays: Vec<usize> = record.actions.iter().enumerate().filter(|(_, a)| a.kind.verb == "play").map(|(i, _)| i).collect();
        let i = plays[at.index(plays.len())];
        let original = record.actions[i].clone();
        match how {
            // A card held by the next seat round the table.
            0 => {
                let other = record.deal.keys().copied().find(|s| *s != original.seat).unwrap();
                record.actions[i].kind = Action::new(record.actions[i].seat, "play", record.deal[&other][0]).kind;
            }
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            2 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original),
        }
        match engine::adjudicate(game(), &record) {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(a) => prop_assert!(a.record_error.is_some() || !a.irregularities.is_empty(), "corruption {} at action {} went unnoticed", how, i),
        }
    }

    #[test]
    fn untrue_table_talk_is_false_information(seed in any::<u64>(), at in any::<prop::sample::Index>()) {
        let mut record = random_hand(seed, json!({}));
        let talk: Vec<usize> = record.actions.iter().enumerate().filter(|(_, a)| a.kind.verb == "count").map(|(i, _)| i).collect();
        prop_assume!(!talk.is_empty());
        let i = talk[at.index(talk.len())];
        let n: u8 = record.actions[i].kind.of("count").unwrap();
        record.actions[i].kind = Action::new(record.actions[i].seat, "count", n + 1).kind;
        let a = adjudicate(&record);
        prop_assert_eq!(a.irregularities.len(), 1);
        prop_assert_eq!(a.irregularities[0].code, "false_information");
        prop_assert_eq!(a.irregularities[0].action_index, Some(i));
        let liar = Table::FOUR.side(record.actions[i].seat);
        let score = a.hand_score.unwrap();
        prop_assert_eq!(score[liar.other()], a.tally[liar.other()].points.unwrap() + melds(&a, liar.other()) + 1);
    }
}

/// Random legal hands do exercise the decisions the view offers. Every seat may talk at any point, so
/// an announcement (due only between a declarer's first won trick and the next card) is rare: 100 hands.
#[test]
fn random_hands_use_every_verb() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..100 {
        for a in random_hand(seed, json!({})).actions {
            seen.insert(a.kind.verb);
        }
    }
    for verb in [
        "good_play",
        "play",
        "announce",
        "ask_best",
        "count",
        "holding",
    ] {
        assert!(seen.contains(verb), "{verb} never offered");
    }
}

/// A revoke left uncorrected by the last player of a trick is established at once (C2): the hand is
/// scored 11 to the other side whatever the cards, and the same record with `revoke_penalty = none`
/// scores the card points.
#[test]
fn revoke_penalty_replaces_card_points() {
    for seed in 0..200u64 {
        let record = random_hand(seed, json!({}));
        // Find a trick where the fourth player held the led suit and another card: swap his play.
        let a = adjudicate(&record);
        for t in &a.tricks {
            let led = t.plays.led().unwrap().suit().unwrap();
            let last = t.plays.plays()[3];
            let dealt: Vec<Card> = record.deal[&last.seat].clone();
            let played_later: std::collections::BTreeSet<Card> = a.tricks[t.number as usize..]
                .iter()
                .flat_map(|u| {
                    u.plays
                        .plays()
                        .iter()
                        .filter(|p| p.seat == last.seat)
                        .map(|p| p.card)
                })
                .collect();
            if last.card.suit() != Some(led) {
                continue;
            }
            let Some(&other) = dealt
                .iter()
                .find(|c| played_later.contains(c) && c.suit() != Some(led))
            else {
                continue;
            };
            // Exchange the two cards in the record: the revoke comes first, the led-suit card later.
            let mut bad = record.clone();
            for act in &mut bad.actions {
                if act.seat == last.seat {
                    match act.kind.of::<Card>("play") {
                        Some(c) if c == last.card => *act = Action::new(act.seat, "play", other),
                        Some(c) if c == other => *act = Action::new(act.seat, "play", last.card),
                        _ => {}
                    }
                }
            }
            let b = adjudicate(&bad);
            if b.outcome != Outcome::Scored {
                continue; // the swap changed who leads later: not this test's concern
            }
            let revokes: Vec<_> = b
                .irregularities
                .iter()
                .filter(|i| i.code == "revoke")
                .collect();
            assert!(!revokes.is_empty());
            if revokes
                .iter()
                .all(|i| Table::FOUR.side(i.seat) == Table::FOUR.side(last.seat))
                && b.irregularities.len() == revokes.len()
            {
                let offenders = Table::FOUR.side(last.seat);
                let score = b.hand_score.unwrap();
                let others = offenders.other();
                assert_eq!(
                    (score[offenders], score[others]),
                    (0, 11 + melds(&b, others))
                );
                // The penalty is the first revoke's, once: 11 to the other side.
                assert_eq!(revokes[0].effect.points[others], 11);
                assert!(revokes[1..].iter().all(|i| i.effect.points[others] == 0));
                return;
            }
        }
    }
    panic!("no hand with a swappable revoke in 200 seeds");
}

/// The record of a fixture, with `edit` applied to its JSON.
fn fixture_record(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> HandRecord {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/tresette")
        .join(name);
    let mut fixture: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let record = &mut fixture["record"];
    edit(record);
    parse_json(&serde_json::to_vec(record).unwrap()).unwrap()
}

fn announcements(view: &engine::TableView) -> Vec<(String, String)> {
    view.legal
        .iter()
        .filter_map(|a| {
            let melds: Vec<String> = a.kind.of("announce")?;
            let said = if melds.is_empty() {
                "no meld".to_string()
            } else {
                melds.join(", ")
            };
            Some((a.seat.to_string(), said))
        })
        .collect()
}

/// A declarer whose first won trick is the last one announces after it (§2 item 3): the legal-action
/// query must offer that announcement, which `apply` accepts. Fixture 07: S (nap 3D 2D AD) wins only
/// trick 10.
#[test]
fn announcement_after_a_first_trick_won_last_is_offered() {
    let record = fixture_record("07-corrected-revoke-no-penalty.json", |r| {
        r["actions"][2]["good_play"] = json!(true);
    });
    let view = engine::legal_actions(game(), &record).unwrap();
    assert_eq!(view.phase, "over");
    assert_eq!(
        announcements(&view),
        [("S".to_string(), "napoleon".to_string())]
    );
    let mut announced = record.clone();
    announced.actions.push(view.legal[0].clone());
    let a = adjudicate(&announced);
    assert_eq!(a.outcome, Outcome::Scored);
    assert!(a.irregularities.is_empty());
    assert_eq!(melds(&a, Side::NS), 3);
    let after = engine::legal_actions(game(), &announced).unwrap();
    assert!(after.legal.is_empty(), "{:?}", after.legal);
}

/// With `melds_score_without_trick` a declarer who won no trick announces after the last trick
/// (docs/games/tresette.md): fixture 03, W's napoleon.
#[test]
fn announcement_without_a_trick_is_offered_after_the_hand_by_option() {
    let record = fixture_record("03-option-melds-score-without-trick.json", |_| {});
    let view = engine::legal_actions(game(), &record).unwrap();
    assert_eq!(
        announcements(&view),
        [("W".to_string(), "napoleon".to_string())]
    );
    // Without the option W's melds do not count and nothing is left to say.
    let record = fixture_record("02-good-play-melds-need-a-won-trick.json", |_| {});
    assert!(
        engine::legal_actions(game(), &record)
            .unwrap()
            .legal
            .is_empty()
    );
}

/// TR-i: the announcement is offered right after the declarer's first won trick, and no longer once
/// the next card is played (fixture 02: N wins trick 1 with actions 4-7 and announces at 8).
#[test]
fn announcement_is_offered_only_right_after_the_first_won_trick() {
    let after_trick_one = fixture_record("02-good-play-melds-need-a-won-trick.json", |r| {
        r["actions"].as_array_mut().unwrap().truncate(8);
    });
    let view = engine::legal_actions(game(), &after_trick_one).unwrap();
    assert_eq!(
        announcements(&view),
        [("N".to_string(), "napoleon".to_string())]
    );
    let after_the_lead = fixture_record("02-good-play-melds-need-a-won-trick.json", |r| {
        let actions = r["actions"].as_array_mut().unwrap();
        actions.remove(8);
        actions.truncate(9);
    });
    let view = engine::legal_actions(game(), &after_the_lead).unwrap();
    assert!(announcements(&view).is_empty(), "{:?}", view.legal);
}
