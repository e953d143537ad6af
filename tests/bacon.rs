//! Bacon property tests: random legal hands (auction, vetoes, loners, the upcard taker's discard,
//! play) replay cleanly and score by the §4 table; an auction passed out is acquitted; random
//! corruptions never score cleanly.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Adjudication, Outcome, Seat, Side, Table};
use arbiter::record::{Action, HandRecord, Yes};
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::{Value, json};

const SEATS: [&str; 4] = ["N", "E", "S", "W"];

/// Five cards each, the 32-card stub as the stock (top first), a random dealer, no actions.
fn random_deal(rng: &mut Rng) -> HandRecord {
    let cards = shuffled(packs::standard52().cards.iter().collect(), rng);
    let mut deal = serde_json::Map::new();
    for (i, s) in SEATS.iter().enumerate() {
        deal.insert(s.to_string(), json!(cards[i * 5..(i + 1) * 5]));
    }
    let record =
        json!({"game": "bacon", "dealer": SEATS[rng.below(4)], "deal": deal, "stock": cards[20..]});
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

fn random_legal_hand(seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let record = random_deal(&mut rng);
    play_out(record, &mut rng)
}

fn adjudicate(record: &HandRecord) -> Result<Adjudication, Vec<engine::FieldError>> {
    engine::adjudicate(arbiter::games::find("bacon").unwrap(), record)
}

fn left(seat: Seat) -> Seat {
    Seat::COMPASS[(seat.pos() + 1) % 4]
}

/// §4, written as the table in the rule file: (declarers' tricks, alone) → (declarers, defenders).
fn expected_score(declarer_tricks: u32, alone: bool) -> (i32, i32) {
    match (declarer_tricks, alone) {
        (5, false) => (2, 0),
        (5, true) => (4, 0),
        (3 | 4, false) => (1, 0),
        (3 | 4, true) => (2, 0),
        (1 | 2, _) => (0, 2),
        (0, _) => (0, 4),
        _ => unreachable!("five tricks"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_score_by_the_table(seed in any::<u64>()) {
        let record = random_legal_hand(seed);
        let a = adjudicate(&record).expect("accepted");
        prop_assert!(a.irregularities.is_empty() && a.record_error.is_none(), "{:?}", a.record_error);
        let score = a.hand_score.expect("a score");
        if a.outcome == Outcome::Void {
            prop_assert!(a.tricks.is_empty() && a.contract.is_none());
            prop_assert_eq!(score[Side::NS] + score[Side::EW], 0);
            prop_assert_eq!(a.match_after.next_dealer, Some(record.dealer));
            return Ok(());
        }
        prop_assert_eq!(a.outcome, Outcome::Scored);
        let c = a.contract.clone().expect("a pick-up stood");
        prop_assert_eq!(c.side, Table::FOUR.side(c.declarer));
        // The trump is the suit of the upcard taken; its taker is the declarer's left.
        let taken = a.events.iter().find(|e| e.code == "upcard_taken").expect("the upcard is taken");
        prop_assert_eq!(a.trump, taken.cards[0].suit());
        prop_assert_eq!(taken.seat, Some(left(c.declarer)));
        prop_assert_eq!(a.tricks.len(), 5);
        prop_assert_eq!(a.tricks[0].leader, left(c.declarer));
        let partner = left(left(c.declarer));
        let alone = c.alone.expect("Bacon states whether the declarer went alone");
        let mut played = std::collections::BTreeSet::<Card>::new();
        for t in &a.tricks {
            let n = if alone { 3 } else { 4 };
            prop_assert_eq!(t.plays.plays().len(), n);
            prop_assert!(!alone || t.plays.plays().iter().all(|p| p.seat != partner), "the loner's partner sits out");
            played.extend(t.plays.plays().iter().map(|p| p.card));
        }
        prop_assert_eq!(played.len(), if alone { 15 } else { 20 });
        let (decl, def) = (a.tally[c.side].tricks, a.tally[c.side.other()].tricks);
        prop_assert_eq!(decl + def, 5);
        let (d, o) = expected_score(decl, alone);
        prop_assert_eq!((score[c.side], score[c.side.other()]), (d, o));
        prop_assert_eq!(a.hand_winner, Some(if d > 0 { c.side } else { c.side.other() }));
        prop_assert_eq!(a.score_items.len(), 1, "one side scores, once");
        prop_assert_eq!(a.score_items[0].points, d + o);
        prop_assert_eq!(c.made, Some(decl >= 3));
        for side in Side::BOTH {
            prop_assert_eq!(a.match_after.scores[side], a.match_before.scores[side] + score[side]);
        }
        prop_assert_eq!(a.match_after.next_dealer, Some(left(record.dealer)));
        prop_assert_eq!(a.match_after.hands_played, 1);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record).unwrap()).unwrap());
    }

    #[test]
    fn four_upcards_passed_acquit_the_hand(seed in any::<u64>(), extra in any::<bool>(), next in any::<bool>()) {
        let mut rng = Rng(seed | 1);
        let mut record = random_deal(&mut rng);
        if next {
            record.options.insert("acquitted_redeal".into(), json!("next_dealer"));
        }
        let mut seat = left(record.dealer);
        for _ in 0..16 {
            record.actions.push(Action::new(seat, "pass", Yes));
            seat = left(seat);
        }
        if extra {
            record.actions.push(Action::new(seat, "pass", Yes));
        }
        let a = adjudicate(&record).expect("accepted");
        if extra {
            prop_assert_eq!(a.outcome, Outcome::RecordError);
            prop_assert_eq!(a.record_error.unwrap().code, "action_after_end");
        } else {
            prop_assert_eq!(a.outcome, Outcome::Void);
            prop_assert_eq!(a.events.iter().filter(|e| e.code == "upcard_turned").count(), 4);
            let redealer = if next { left(record.dealer) } else { record.dealer };
            prop_assert_eq!(a.match_after.next_dealer, Some(redealer));
            prop_assert_eq!(a.match_after.hands_played, 0);
        }
        // The stock must hold every upcard turned: three cards are one too few.
        record.stock.truncate(3);
        let e = adjudicate(&record).expect_err("refused");
        prop_assert_eq!(e[0].pointer.as_str(), "/stock");
    }

    #[test]
    fn corrupted_records_never_score_cleanly(seed in any::<u64>(), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_legal_hand(seed);
        // BA-b: a veto decision of `false` may be left out, so removing one is no corruption.
        let optional = |a: &Action| a.kind.of("veto_pick_up") == Some(false) || a.kind.of("veto_alone") == Some(false);
        let i = at.index(record.actions.len());
        if how == 2 && optional(&record.actions[i]) {
            return Ok(());
        }
        let original = record.actions[i].clone();
        // The stub's last card is never an upcard, so nobody ever holds it.
        let foreign = *record.stock.last().unwrap();
        match how {
            // A card not held, or the opposite decision.
            0 => {
                let seat = original.seat;
                let verb = original.kind.verb.as_str();
                record.actions[i] = match verb {
                    "play" | "discard" => Action::new(seat, verb, foreign),
                    "pass" => Action::new(seat, "pick_up", false),
                    // Not `pick_up: !alone`: a vetoed pick-up is a pass whether alone or not.
                    "pick_up" => Action::new(seat, "pass", Yes),
                    "veto_pick_up" | "veto_alone" => {
                        Action::new(seat, verb, !original.kind.of::<bool>(verb).unwrap())
                    }
                    _ => original.clone(),
                };
            }
            // The wrong seat acts.
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            2 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original.clone()),
        }
        match adjudicate(&record) {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(a) => prop_assert!(
                a.record_error.is_some() || !a.irregularities.is_empty(),
                "corruption {} at action {} ({:?}) went unnoticed", how, i, original
            ),
        }
    }

    #[test]
    fn arbitrary_values_in_a_valid_shape_never_panic(seed in any::<u64>(), field in 0usize..6, value in prop_oneof![Just(json!(null)), Just(json!(-1)), Just(json!([])), Just(json!({})), Just(json!(["AS"])), Just(json!(["AS", "AS"])), Just(json!([{"seat": "N", "veto_alone": true}]))]) {
        let record = random_legal_hand(seed);
        let mut v: Value = serde_json::to_value(&record).unwrap();
        let key = ["dealer", "deal", "stock", "actions", "match_state", "options"][field];
        v[key] = value;
        if let Ok(r) = parse_json::<HandRecord>(&serde_json::to_vec(&v).unwrap()) {
            let _ = adjudicate(&r);
        }
    }
}

/// Step by step (`engine::Replay`), four passes of the only upcard the stock lists turn an upcard
/// the record does not have: the hand is incomplete, not a panic (a whole record like this is
/// refused at `/stock`, fixture-checked elsewhere). Found by the conformance kit.
#[test]
fn an_upcard_missing_from_the_stock_step_by_step_is_an_incomplete_hand() {
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bacon/01-declarers-three-tricks-score-1.json"
    ))
    .unwrap();
    let fixture: Value = serde_json::from_slice(&text).unwrap();
    let mut record: HandRecord = serde_json::from_value(fixture["record"].clone()).unwrap();
    record.actions.clear();
    record.stock.truncate(1);
    let game = arbiter::games::find("bacon").unwrap();
    let mut replay = engine::Replay::start(game, &record).unwrap();
    for seat in [Seat::E, Seat::S, Seat::W, Seat::N] {
        replay.apply(Action::new(seat, "pass", Yes)).unwrap();
    }
    let a = replay.finish(None);
    let e = a.record_error.expect("the record lacks upcard 2");
    assert_eq!((e.code, e.action_index), ("incomplete_hand", Some(4)));
    // The same four passes as a record: its legal actions are refused at `/stock`, as its
    // adjudication is (fixture 19): the position does not exist.
    for seat in [Seat::E, Seat::S, Seat::W, Seat::N] {
        record.actions.push(Action::new(seat, "pass", Yes));
    }
    let refused = engine::legal_actions(game, &record).expect_err("refused");
    assert_eq!(refused[0].pointer, "/stock");
    assert!(refused[0].detail.contains("upcard 2 was turned"));
}
