//! Big Two property tests: random hands at 2, 3 and 4 players, played to the end by choosing among
//! the legal actions the engine offers, or now and then a random handful of held cards instead,
//! keep the rule file's invariants: one player goes out, every other scores for his cards by §4,
//! each offered play is clean and each refused one an illegal combination costing 10 (§5).

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Adjudication, Outcome};
use arbiter::record::HandRecord;
use common::random::{Rng, shuffled};
use proptest::prelude::*;
use serde_json::{Value, json};

/// §4: what a player scores for the cards he holds when another goes out.
fn card_points(cards: u64) -> i64 {
    match cards {
        13 => 39,
        n @ 10..=12 => 2 * n as i64,
        n => n as i64,
    }
}

fn parse(record: &Value) -> HandRecord {
    parse_json(&serde_json::to_vec(record).unwrap()).unwrap()
}

/// A random deal for `players`, then actions until a player is out: a legal action offered by the
/// engine, or (with `sloppy`, one time in four) a random handful of the cards held by the seat to act.
fn random_hand(players: usize, sloppy: bool, rng: &mut Rng) -> Value {
    let cards = shuffled(packs::standard52().cards.iter().collect(), rng);
    let seats: Vec<String> = (1..=players).map(|i| format!("P{i}")).collect();
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.clone(), json!(cards[i * 13..(i + 1) * 13]));
    }
    let mut record = json!({
        "game": "big-two", "options": {"players": players.to_string()},
        "dealer": seats[rng.below(players)], "deal": deal, "actions": [],
    });
    let game = arbiter::games::find("big-two").unwrap();
    for _ in 0..400 {
        let view = engine::legal_actions(game, &parse(&record)).unwrap();
        if view.legal.is_empty() {
            return record;
        }
        let action = if sloppy && rng.below(4) == 0 {
            let seat = view.to_act[0];
            let held: Vec<Card> = view.hands[&seat].clone();
            let n = 1 + rng.below(held.len().min(6));
            let pick: Vec<Card> = shuffled(held, rng).into_iter().take(n).collect();
            json!({"seat": seat, "play": pick})
        } else {
            serde_json::to_value(&view.legal[rng.below(view.legal.len())]).unwrap()
        };
        record["actions"].as_array_mut().unwrap().push(action);
    }
    panic!("a hand of Big Two ends within 400 actions")
}

/// Checks the invariants of a hand played out; returns the number of illegal combinations.
fn check(record: &Value, a: &Adjudication) -> usize {
    assert_eq!(a.outcome, Outcome::Scored, "{}", record);
    assert!(a.tricks.is_empty(), "a climbing game has no tricks");
    let v = serde_json::to_value(a).unwrap();
    let left = v["cards_left"].as_object().unwrap();
    let out: Vec<&String> = left
        .iter()
        .filter(|(_, n)| n.as_u64() == Some(0))
        .map(|(s, _)| s)
        .collect();
    assert_eq!(out.len(), 1, "exactly one player goes out: {left:?}");
    assert_eq!(v["went_out"], json!(out[0]));
    assert_eq!(
        v["hand_winner"],
        json!(out[0]),
        "the player out wins the hand"
    );
    // Every action is reported as an event, in order.
    let actions = record["actions"].as_array().unwrap();
    assert_eq!(a.events.len(), actions.len());
    let mut penalties = std::collections::BTreeMap::<String, i64>::new();
    for i in &a.irregularities {
        assert_eq!(i.code, "illegal_combination");
        *penalties.entry(i.seat.to_string()).or_default() += 10;
    }
    let score = &v["hand_score"];
    for (seat, n) in left {
        let cards = if seat == out[0] {
            0
        } else {
            card_points(n.as_u64().unwrap())
        };
        let expected = cards + penalties.get(seat).copied().unwrap_or(0);
        assert_eq!(score[seat], json!(expected), "{seat}: {n} cards left");
    }
    // Cards played and cards left make up the deal.
    let played: usize = a.events.iter().map(|e| e.cards.len()).sum();
    let held: u64 = left.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(played + held as usize, 13 * left.len());
    a.irregularities.len()
}

/// The same action, the cards of a play in any order.
fn same_action(a: &Value, b: &Value) -> bool {
    let norm = |v: &Value| {
        let mut v = v.clone();
        if let Some(cards) = v.get_mut("play").and_then(Value::as_array_mut) {
            cards.sort_by_key(|c| c.to_string());
        }
        v
    };
    norm(a) == norm(b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_legal_hands_play_out_cleanly(seed in any::<u64>(), players in 2usize..=4) {
        let mut rng = Rng(seed | 1);
        let record = random_hand(players, false, &mut rng);
        let game = arbiter::games::find("big-two").unwrap();
        let a = engine::adjudicate(game, &parse(&record)).unwrap();
        prop_assert_eq!(check(&record, &a), 0, "legal play has no irregularity");
    }

    #[test]
    fn random_handfuls_are_judged_and_cost_ten_each(seed in any::<u64>(), players in 2usize..=4) {
        let mut rng = Rng(seed | 1);
        let record = random_hand(players, true, &mut rng);
        let game = arbiter::games::find("big-two").unwrap();
        let a = engine::adjudicate(game, &parse(&record)).unwrap();
        check(&record, &a);
        // Each play the engine did not offer, and only those, is an illegal combination.
        let mut replayed = record.clone();
        let actions = record["actions"].as_array().unwrap().clone();
        let mut illegal = Vec::new();
        for (i, action) in actions.iter().enumerate() {
            replayed["actions"] = json!(actions[..i]);
            let view = engine::legal_actions(game, &parse(&replayed)).unwrap();
            let offered = view
                .legal
                .iter()
                .any(|l| same_action(&serde_json::to_value(l).unwrap(), action));
            if !offered {
                illegal.push(i);
            }
        }
        let found: Vec<usize> = a.irregularities.iter().filter_map(|i| i.action_index).collect();
        prop_assert_eq!(found, illegal);
    }
}
