//! Property tests: random legal hands replay cleanly with totals that add up; random corruptions of
//! them always give an irregularity, a record error or a refusal, never a panic or a clean score.

use arbiter::api::problem::parse_json;
use arbiter::cards::Card;
use arbiter::engine::{self, Adjudication, BonusStatus, Outcome, ScoreSource, Side};
use arbiter::record::{Action, HandRecord};
mod common;

use common::random::random_legal_hand;
use proptest::prelude::*;
use serde_json::{Value, json};

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(
        arbiter::games::find(record.game.as_deref().unwrap()).unwrap(),
        record,
    )
    .expect("accepted")
}

/// What the play itself scored for `side` (the score items of source `tricks`).
fn hand_result(a: &Adjudication, side: Side) -> i32 {
    a.score_items
        .iter()
        .filter(|t| t.side == side && t.source == ScoreSource::Tricks)
        .map(|t| t.points)
        .sum()
}

fn check_clean(a: &Adjudication) {
    assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
    assert!(a.irregularities.is_empty() && a.record_error.is_none());
    let score = a.hand_score.expect("scored");
    assert!(
        hand_result(a, Side::NS) == 0 || hand_result(a, Side::EW) == 0,
        "only one side scores a hand"
    );
    for side in Side::BOTH {
        let bonus: i32 = a
            .bonuses
            .iter()
            .filter(|b| b.side == side && b.status == BonusStatus::Scored)
            .map(|b| b.points)
            .sum();
        assert_eq!(score[side], hand_result(a, side) + bonus);
        assert_eq!(
            a.match_after.scores[side] - a.match_before.scores[side],
            score[side]
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_malilla_hands_add_up(seed in any::<u64>()) {
        let record = random_legal_hand("malilla", seed);
        let a = adjudicate(&record);
        check_clean(&a);
        prop_assert_eq!(a.tricks.len(), 10);
        let (ns, ew) = (&a.tally[Side::NS], &a.tally[Side::EW]);
        prop_assert_eq!(ns.tricks + ew.tricks, 10);
        prop_assert_eq!(ns.points.unwrap_or(0) + ew.points.unwrap_or(0), 70, "60 card points + 10 tricks");
        let played: std::collections::BTreeSet<Card> = a.tricks.iter().flat_map(|t| t.plays.plays().iter().map(|p| p.card)).collect();
        prop_assert_eq!(played.len(), 40, "every card played once");
        for side in Side::BOTH {
            prop_assert_eq!(hand_result(&a, side), (a.tally[side].points.unwrap_or(0) - 35).max(0));
        }
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn random_legal_stubs_and_spoils_hands_add_up(seed in any::<u64>()) {
        let record = random_legal_hand("stubs-and-spoils", seed);
        let a = adjudicate(&record);
        check_clean(&a);
        let n = a.tricks.len();
        prop_assert!((12..=15).contains(&n), "{} tricks", n);
        let (ns, ew) = (&a.tally[Side::NS], &a.tally[Side::EW]);
        let stubs = |t: &engine::Tally| t.details["stubs"].as_u64().unwrap();
        prop_assert_eq!((stubs(ns) + stubs(ew)) as usize, n, "one stub per trick");
        let score = a.hand_score.unwrap();
        let scored = score[Side::NS] + score[Side::EW];
        // The designer's invariant (§4.5): 12 tricks at most 12, 13 at most 9, 14 at most 6, 15 at most 3.
        prop_assert!(scored <= 12 - 3 * (n as i32 - 12), "{} points in {} tricks", scored, n);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn corrupted_records_never_score_cleanly(seed in any::<u64>(), game in prop::sample::select(vec!["malilla", "stubs-and-spoils"]), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_legal_hand(game, seed);
        let i = at.index(record.actions.len());
        let original = record.actions[i].clone();
        match how {
            // A card this seat never holds: another seat's card (Malilla) or the Color Card (Stubs & Spoils).
            0 => {
                let foreign = if game == "malilla" {
                    record.deal.iter().find(|(s, _)| **s != original.seat).unwrap().1[0]
                } else {
                    record.face_up[0]
                };
                let verb = original.kind.verb.as_str();
                if matches!(verb, "play" | "discard" | "spoil" | "stub") {
                    record.actions[i] = Action::new(original.seat, verb, foreign);
                }
            }
            // The wrong seat acts.
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            // A stated stub is optional (Stubs & Spoils §4): the record is as legal without it.
            2 => {
                prop_assume!(original.kind.verb != "stub");
                record.actions.remove(i);
            }
            _ => record.actions.insert(i, original),
        }
        let g = arbiter::games::find(game).unwrap();
        match engine::adjudicate(g, &record) {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(a) => prop_assert!(
                a.record_error.is_some() || !a.irregularities.is_empty(),
                "corruption {} at action {} went unnoticed", how, i
            ),
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(r) = parse_json::<HandRecord>(&bytes) {
            for g in arbiter::games::all() {
                let _ = engine::adjudicate(*g, &r);
            }
        }
    }

    #[test]
    fn arbitrary_values_in_a_valid_shape_never_panic(seed in any::<u64>(), field in 0usize..6, value in prop_oneof![Just(json!(null)), Just(json!(-1)), Just(json!("")), Just(json!([])), Just(json!({})), Just(json!("AS")), Just(json!(["AS", "AS"])), Just(json!(9999999999u64))]) {
        let record = random_legal_hand(if seed % 2 == 0 { "malilla" } else { "stubs-and-spoils" }, seed);
        let mut v: Value = serde_json::to_value(&record).unwrap();
        let key = ["dealer", "deal", "face_up", "actions", "match_state", "options"][field];
        v[key] = value;
        if let Ok(r) = parse_json::<HandRecord>(&serde_json::to_vec(&v).unwrap()) {
            let _ = engine::adjudicate(arbiter::games::find(record.game.as_deref().unwrap()).unwrap(), &r);
        }
    }
}

/// README "Seats": at a four-player table `P1..P4` name `N E S W`. Every accepted fixture
/// record written with compass seats is adjudicated the same when every seat (dealer, deal, actions,
/// players, next dealer) is written `P1..P4` instead.
#[test]
fn numbered_seats_are_the_compass_seats_in_every_fixture() {
    let number = |v: &Value| match v.as_str().and_then(|s| "NESW".find(s)) {
        Some(i) if v.as_str().is_some_and(|s| s.len() == 1) => json!(format!("P{}", i + 1)),
        _ => v.clone(),
    };
    let renumber_keys = |v: &mut Value| {
        if let Some(m) = v.as_object_mut() {
            *m = std::mem::take(m)
                .into_iter()
                .map(|(k, x)| (number(&json!(k)).as_str().unwrap().to_string(), x))
                .collect();
        }
    };
    let mut checked = 0;
    for (game, v) in fixture_records() {
        let g = arbiter::games::find(&game).unwrap();
        let Ok(r) = parse_json::<HandRecord>(&serde_json::to_vec(&v).unwrap()) else {
            continue;
        };
        let Ok(a) = engine::adjudicate(g, &r) else {
            continue;
        };
        if g.info().tables.default_table().size != 4
            || !"NESW".contains(v["dealer"].as_str().unwrap_or("-"))
        {
            continue;
        }
        let mut n = v.clone();
        n["dealer"] = number(&v["dealer"]);
        renumber_keys(&mut n["deal"]);
        if let Some(players) = n.get_mut("players") {
            renumber_keys(players);
        }
        if let Some(d) = v.get("match_state").and_then(|m| m.get("next_dealer")) {
            n["match_state"]["next_dealer"] = number(d);
        }
        for action in n["actions"].as_array_mut().into_iter().flatten() {
            action["seat"] = number(&action["seat"]);
        }
        let rn = parse_json::<HandRecord>(&serde_json::to_vec(&n).unwrap()).unwrap();
        let b = engine::adjudicate(g, &rn).expect("accepted as with compass seats");
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::to_value(&b).unwrap(),
            "{game}: {}",
            v["dealer"]
        );
        checked += 1;
    }
    assert!(checked > 50, "{checked} fixtures checked");
}

/// Every game's fixture records, as JSON values (refused ones included).
fn fixture_records() -> Vec<(String, Value)> {
    common::fixtures()
        .into_iter()
        .map(|(game, path)| {
            let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            (game, v["record"].clone())
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every game, from every fixture: an odd value in one field, or an action removed, repeated or
    /// given to another seat, is a refusal or an adjudication, never a panic, and every code it
    /// reports is declared by the game; the legal-actions query on any prefix of the record never
    /// panics either.
    #[test]
    fn every_game_survives_odd_records(pick in any::<prop::sample::Index>(), field in 0usize..10, at in any::<prop::sample::Index>(), value in prop_oneof![Just(json!(null)), Just(json!(-1)), Just(json!("")), Just(json!([])), Just(json!({})), Just(json!("AS")), Just(json!(["JK", "JK"])), Just(json!(true)), Just(json!(9999999999u64)), Just(json!({"NS": 11, "EW": 11})), Just(json!({"P3": 5}))]) {
        let all = fixture_records();
        let (game, mut v) = all[pick.index(all.len())].clone();
        let g = arbiter::games::find(&game).unwrap();
        let n = v["actions"].as_array().map_or(0, |a| a.len());
        match field {
            0..=6 => {
                let key = ["dealer", "deal", "face_up", "stock", "actions", "match_state", "options"][field];
                v[key] = value;
            }
            7 if n > 0 => { v["actions"].as_array_mut().unwrap().remove(at.index(n)); }
            8 if n > 0 => {
                let i = at.index(n);
                let a = v["actions"][i].clone();
                v["actions"].as_array_mut().unwrap().insert(i, a);
            }
            9 if n > 0 => {
                let i = at.index(n);
                let seats = ["N", "E", "S", "W", "P1", "P2", "P3"];
                v["actions"][i]["seat"] = json!(seats[i % seats.len()]);
            }
            _ => {}
        }
        if let Ok(r) = parse_json::<HandRecord>(&serde_json::to_vec(&v).unwrap()) {
            if let Ok(a) = engine::adjudicate(g, &r) {
                let undeclared = common::undeclared_codes(g.info(), &a);
                prop_assert!(undeclared.is_empty(), "{}: codes not in GameInfo: {:?}", game, undeclared);
            }
            let mut prefix = r.clone();
            prefix.actions.truncate(at.index(r.actions.len() + 1));
            let _ = engine::legal_actions(g, &prefix);
        }
    }
}

/// README C2 for every game with corrections: a `correct` after the hand's last trick is the record
/// error `invalid_correct` (or, after a hand ended by a penalty or abandoned, an ignored action, C6).
#[test]
fn a_correction_after_the_hand_is_invalid_correct_in_every_game() {
    let mut checked = 0;
    for (game, mut record) in fixture_records() {
        let g = arbiter::games::find(&game).unwrap();
        if !g.info().verbs.contains(&"correct") {
            continue;
        }
        let Ok(r) = parse_json::<HandRecord>(&serde_json::to_vec(&record).unwrap()) else {
            continue;
        };
        let Ok(a) = engine::adjudicate(g, &r) else {
            continue;
        };
        if a.outcome != Outcome::Scored || a.tricks.is_empty() {
            continue;
        }
        let last = a.tricks.last().unwrap().plays.plays()[0];
        let n = r.actions.len();
        record["actions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"seat": last.seat, "correct": last.card}));
        let r = parse_json::<HandRecord>(&serde_json::to_vec(&record).unwrap()).unwrap();
        let a = engine::adjudicate(g, &r).unwrap();
        let ignored = a.ignored_actions.iter().any(|i| i.action_index == n);
        let code = a.record_error.as_ref().map(|e| e.code);
        assert!(
            ignored || code == Some("invalid_correct"),
            "{game}: {code:?} for a correct after the hand: {record}"
        );
        checked += 1;
    }
    assert!(checked > 50, "{checked} hands checked");
}

/// Stubs & Spoils §4 at the table: once a trick is complete, the spoil taker may take any card he
/// is allowed, and the table may state the stub (an optional statement the record may make,
/// checked against the rules). Fixture 02, red mode, trick 1: E 8H S 6H W 4H N 2H; E wins, the stub
/// is 2H in front of E; the taker N may not take the stub or his own 2H: 8H, 6H or 4H.
#[test]
fn stubs_and_spoils_offers_the_spoils_and_the_stub_after_a_trick() {
    let path = format!(
        "{}/fixtures/stubs-and-spoils/02-red-12-tricks-stated-stubs.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut record = parse_json::<HandRecord>(&serde_json::to_vec(&v["record"]).unwrap()).unwrap();
    record.actions.truncate(7);
    let g = arbiter::games::find("stubs-and-spoils").unwrap();
    let view = engine::legal_actions(g, &record).unwrap();
    let (n, e) = ("N".parse().unwrap(), "E".parse().unwrap());
    let card = |s: &str| -> Card { s.parse().unwrap() };
    let mut offered = view.legal.clone();
    offered.sort_by_key(|a| format!("{a:?}"));
    let mut expected = vec![
        Action::new(n, "spoil", card("8H")),
        Action::new(n, "spoil", card("6H")),
        Action::new(n, "spoil", card("4H")),
        Action::new(e, "stub", card("2H")),
    ];
    expected.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(offered, expected);
}
