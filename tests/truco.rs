//! Truco property tests: random legal hands (any score, so normal, score-of-eleven and iron hands,
//! packets rejected and passed, raises, runs) replay cleanly with totals that add up; corruptions never
//! score cleanly; and unit checks of the subtle rules.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Adjudication, Outcome, Seat, Side, Table};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;

/// A random deal: 0–3 rejected packets (at a normal score), 3 cards each, random scores below 12.
fn random_deal(rng: &mut Rng) -> HandRecord {
    let cards: Vec<Card> = shuffled(packs::latin40().cards.iter().collect(), rng);
    let seats = ["N", "E", "S", "W"];
    let dealer = seats[rng.below(4)];
    // Scores weighted towards 11 so that score-of-eleven and iron hands come up often.
    let score = |rng: &mut Rng| {
        if rng.below(3) == 0 {
            11
        } else {
            rng.below(12) as i32
        }
    };
    let (ns, ew) = (score(rng), score(rng));
    let rejected = if ns < 11 && ew < 11 { rng.below(4) } else { 0 };
    let face_up = &cards[12..12 + 3 * rejected];
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.to_string(), json!(cards[i * 3..i * 3 + 3]));
    }
    let record = json!({"game": "truco", "dealer": dealer, "deal": deal, "face_up": face_up,
        "match_state": {"scores": {"NS": ns, "EW": ew}}});
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

fn random_hand(seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let record = random_deal(&mut rng);
    play_out(record, &mut rng)
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(arbiter::games::find("truco").unwrap(), record).expect("accepted")
}

fn is_eleven_decision(record: &HandRecord, i: usize) -> bool {
    let a = &record.actions[i];
    let played_before = record.actions[..i]
        .iter()
        .any(|a| matches!(a.kind.verb.as_str(), "play" | "play_face_down"));
    let raised_before = record.actions[..i].iter().any(|a| a.kind.verb == "raise");
    matches!(a.kind.verb.as_str(), "accept" | "run") && !played_before && !raised_before
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_truco_hands_add_up(seed in any::<u64>()) {
        let record = random_hand(seed);
        let a = adjudicate(&record);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        let before = a.match_before.scores;
        let score = a.hand_score.unwrap();
        prop_assert!(score[Side::NS] == 0 || score[Side::EW] == 0, "one side scores a hand");
        let scored = score[Side::NS] + score[Side::EW];
        let eleven = before[Side::NS] == 11 || before[Side::EW] == 11;
        let allowed: &[i32] = if eleven { &[0, 1, 3] } else { &[0, 1, 3, 6, 9, 12] };
        prop_assert!(allowed.contains(&scored), "{} tentos", scored);
        for side in Side::BOTH {
            prop_assert_eq!(a.match_after.scores[side], before[side] + score[side]);
        }
        prop_assert!(a.tricks.len() <= 3);
        let won: u32 = a.tricks.iter().filter(|t| t.winner.is_some()).count() as u32;
        prop_assert_eq!(a.tally[Side::NS].tricks + a.tally[Side::EW].tricks, won);
        // The hand is reported won (or tied) exactly once, and the winner is the side that scored.
        let ends: Vec<_> = a.events.iter().filter(|e| e.code == "hand_won" || e.code == "hand_tied").collect();
        prop_assert_eq!(ends.len(), 1);
        if let Some(seat) = ends[0].seat {
            prop_assert!(score[Table::FOUR.side(seat)] > 0);
        } else {
            prop_assert_eq!(scored, 0);
        }
        prop_assert_eq!(a.hand_winner, ends[0].seat.map(|s| Table::FOUR.side(s)));
        // With no penalty, the hand's one score item is the stake won.
        prop_assert_eq!(a.score_items.len(), usize::from(scored > 0));
        prop_assert!(a.score_items.iter().all(|t| Some(t.side) == a.hand_winner && t.points == scored));
        let over = a.match_after.scores[Side::NS] >= 12 || a.match_after.scores[Side::EW] >= 12;
        prop_assert_eq!(a.match_after.game_over, over);
        prop_assert_eq!(a.match_after.next_dealer, Some(arbiter::engine::Table::FOUR.right(a.dealer)));
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn corrupted_truco_records_never_score_cleanly(seed in any::<u64>(), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_hand(seed);
        prop_assume!(!record.actions.is_empty());
        let i = at.index(record.actions.len());
        // Leaving out the score-of-eleven decision (optional, TU-e), a pass to the partner (the deal
        // lists the cards each seat ends up with, so either way is a possible hand), an `accept`
        // followed by the same side's raise (a raise answering a call accepts it too), or a card
        // followed by the same seat's raise (the raise then comes before the card, at the seat's
        // turn, as TR-2 allows; answered by a run, the hand is over) is no corruption.
        let accept_then_raise = record.actions[i].kind.verb == "accept"
            && record.actions.get(i + 1).is_some_and(|n| {
                n.kind.verb == "raise" && Table::FOUR.side(n.seat) == Table::FOUR.side(record.actions[i].seat)
            });
        let play_then_raise = record.actions[i].kind.verb == "play"
            && record.actions.get(i + 1).is_some_and(|n| {
                n.kind.verb == "raise" && n.seat == record.actions[i].seat
            });
        let optional = is_eleven_decision(&record, i)
            || accept_then_raise
            || play_then_raise
            || record.actions[i].kind.verb == "pass_to_partner";
        prop_assume!(!(how == 2 && optional));
        let original = record.actions[i].clone();
        match how {
            // A card this seat does not hold.
            0 => {
                let foreign = record.deal.iter().find(|(s, _)| **s != original.seat).unwrap().1[0];
                let verb = original.kind.verb.as_str();
                if matches!(verb, "play" | "play_face_down") {
                    record.actions[i] = Action::new(original.seat, verb, foreign);
                }
                prop_assume!(record.actions[i] != original);
            }
            // A seat of the other side acts (partners may answer for each other, so not the partner).
            1 => {
                let other = if seed % 2 == 0 { Seat::E } else { Seat::W };
                record.actions[i].seat = arbiter::engine::Table::FOUR.seat(original.seat.pos() + other.pos());
            }
            2 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original),
        }
        let a = adjudicate(&record);
        prop_assert!(
            a.record_error.is_some() || !a.irregularities.is_empty(),
            "corruption {} at action {} went unnoticed", how, i
        );
    }
}

fn hand(json: serde_json::Value) -> HandRecord {
    parse_json(&serde_json::to_vec(&json).unwrap()).unwrap()
}

const DEAL: &str = r#"{"N": ["4C", "5S", "6S"], "E": ["3H", "5H", "6H"], "S": ["KD", "5D", "6D"], "W": ["2C", "5C", "6C"]}"#;

#[test]
fn a_raise_must_be_answered_before_a_card() {
    let deal: serde_json::Value = serde_json::from_str(DEAL).unwrap();
    // Dealer N: the mão is W (N's right); W raises and plays without an answer.
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": [
        {"seat": "W", "keep": true}, {"seat": "W", "raise": true}, {"seat": "W", "play": "2C"}]}));
    let a = adjudicate(&r);
    assert_eq!(a.record_error.unwrap().code, "raise_pending");
}

#[test]
fn a_raise_by_the_side_last_accepted_is_a_void_illegal_raise() {
    let deal: serde_json::Value = serde_json::from_str(DEAL).unwrap();
    // W trucos, N accepts; W plays, then S (play to the right: W → S → E → N), then E, W's partner:
    // E may not raise (E–W made the last accepted raise, TR-4): illegal_raise, N–S gain 1 at once,
    // the call is void (TU-h) and E plays on. T1: W 2C, S 5D, E 3H, N 4C (the top card): N. T2:
    // N 5S, W 5C, S KD (the highest), E 5H: S. N–S win the hand at the stake of 3: NS 1 + 3.
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": [
        {"seat": "W", "keep": true}, {"seat": "W", "raise": true}, {"seat": "N", "accept": true},
        {"seat": "W", "play": "2C"}, {"seat": "S", "play": "5D"}, {"seat": "E", "raise": true},
        {"seat": "E", "play": "3H"}, {"seat": "N", "play": "4C"},
        {"seat": "N", "play": "5S"}, {"seat": "W", "play": "5C"}, {"seat": "S", "play": "KD"},
        {"seat": "E", "play": "5H"}]}));
    let a = adjudicate(&r);
    assert!(a.record_error.is_none(), "{:?}", a.record_error);
    assert_eq!(a.irregularities.len(), 1);
    let i = &a.irregularities[0];
    assert_eq!(
        (i.code, i.action_index, i.trick),
        ("illegal_raise", Some(5), Some(1))
    );
    assert_eq!(i.effect.points[Side::NS], 1);
    assert_eq!(a.hand_score.unwrap()[Side::NS], 4);
    assert_eq!(a.hand_score.unwrap()[Side::EW], 0);
    // The other side may raise at its turn: S retrucos before playing.
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": [
        {"seat": "W", "keep": true}, {"seat": "W", "raise": true}, {"seat": "N", "accept": true},
        {"seat": "W", "play": "2C"}, {"seat": "S", "raise": true}, {"seat": "W", "run": true}]}));
    let a = adjudicate(&r);
    assert!(a.record_error.is_none(), "{:?}", a.record_error);
    assert_eq!(
        a.hand_score.unwrap()[Side::NS],
        3,
        "EW run from the retruco: NS win the 3 in force"
    );
}

#[test]
fn actions_after_a_run_are_record_errors() {
    let deal: serde_json::Value = serde_json::from_str(DEAL).unwrap();
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": [
        {"seat": "W", "keep": true}, {"seat": "W", "raise": true}, {"seat": "S", "run": true},
        {"seat": "W", "play": "2C"}]}));
    let a = adjudicate(&r);
    let e = a.record_error.unwrap();
    assert_eq!((e.code, e.action_index), ("action_after_end", Some(3)));
    assert!(a.hand_score.is_none());
}

#[test]
fn hundreds_of_riffles_are_one_fault_and_never_overflow() {
    // §5 bad_procedure: only a single riffle is allowed. The record may hold up to 2000 actions, so a
    // riffle counter must not overflow (a u8 panicked at the 256th riffle in debug builds and wrapped
    // in release). 300 riffles: 299 are against §5, but the shuffle is one procedure and costs one
    // bad_procedure (TU-i): at the second riffle, E–W gain 1.
    let deal: serde_json::Value = serde_json::from_str(DEAL).unwrap();
    let mut actions = vec![json!({"seat": "N", "shuffle": "riffle"}); 300];
    // Then T1: W 2C, S KD, E 3H, N 4C (the top card): N. T2: four 5s, an opposing tie: the
    // winner of trick 1, N–S, wins the hand (§3.2): 1 tento.
    for (seat, card) in [("W", "2C"), ("S", "KD"), ("E", "3H"), ("N", "4C")]
        .into_iter()
        .chain([("N", "5S"), ("W", "5C"), ("S", "5D"), ("E", "5H")])
    {
        actions.push(json!({"seat": seat, "play": card}));
    }
    actions.insert(300, json!({"seat": "W", "keep": true}));
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": actions}));
    let a = adjudicate(&r);
    assert!(a.record_error.is_none(), "{:?}", a.record_error);
    assert_eq!(a.irregularities.len(), 1);
    let i = &a.irregularities[0];
    assert_eq!(
        (i.code, i.action_index, i.trick),
        ("bad_procedure", Some(1), None)
    );
    assert_eq!(a.match_after.scores[Side::EW], 1);
    assert_eq!(a.match_after.scores[Side::NS], 1);
}

#[test]
fn a_raise_before_the_card_answered_by_a_run_ends_the_hand() {
    let deal: serde_json::Value = serde_json::from_str(DEAL).unwrap();
    // Dealer N: the mão is W (N's right), then S, E, N. W and S play; E calls truco at his turn
    // before playing a card (TR-2) and N–S run: E–W win the hand at the stake in force, 1 (TR-7).
    let r = hand(json!({"dealer": "N", "deal": deal, "actions": [
        {"seat": "W", "keep": true}, {"seat": "W", "play": "2C"}, {"seat": "S", "play": "KD"},
        {"seat": "E", "raise": true}, {"seat": "N", "run": true}]}));
    let a = adjudicate(&r);
    assert!(
        a.record_error.is_none() && a.irregularities.is_empty(),
        "{a:?}"
    );
    let score = a.hand_score.expect("scored");
    assert_eq!((score[Side::NS], score[Side::EW]), (0, 1));
}
