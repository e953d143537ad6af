//! Poke: whole rubbers of random hands (random deals and stocks, random legal draws, leads and
//! replies) keep poke.md §4's accounting as an independent count gives it: the ten cards played are
//! the two poker hands, every trick counts 1, 2 or 4 by the opponent's draws, the points below the
//! line grow by them until a game resets them, and the rubber ends on two games with the highest
//! above-the-line total winning. Poke has no payment from one player to another (every score is
//! points to one player), so nothing in it is zero-sum; these are the sums the rules do fix.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine;
use arbiter::record::HandRecord;
use common::random::{Rng, play_out, shuffled};
use serde_json::{Value, json};

const SEATS: [&str; 2] = ["P1", "P2"];

fn multiplier(doubling: &Value) -> i64 {
    match doubling.as_str().unwrap() {
        "undoubled" => 1,
        "doubled" => 2,
        "redoubled" => 4,
        d => panic!("doubling {d}"),
    }
}

/// Plays one rubber from `seed`; returns the number of hands it took.
fn random_rubber(seed: u64, includes_below: bool) -> usize {
    let mut rng = Rng(seed | 1);
    let game = arbiter::games::find("poke").unwrap();
    let mut state = json!({});
    let mut dealer = rng.below(2);
    for hand in 1..=200 {
        let cards: Vec<Card> = shuffled(packs::standard52().cards.iter().collect(), &mut rng);
        let with_stock = rng.below(2) == 0;
        let mut record = json!({
            "game": "poke",
            "dealer": SEATS[dealer],
            "deal": {"P1": cards[0..5], "P2": cards[5..10]},
            "options": {"rubber_total_includes_below": includes_below},
            "match_state": state,
        });
        if with_stock {
            record["stock"] = json!(cards[10..]);
        }
        let record: HandRecord = parse_json(&serde_json::to_vec(&record).unwrap()).unwrap();
        let played = play_out(record, &mut rng);
        let a = serde_json::to_value(engine::adjudicate(game, &played).unwrap()).unwrap();
        assert_eq!(a["outcome"], "scored", "{a}");
        // The ten cards played are the two poker hands, each card once.
        let mut played_cards: Vec<String> = a["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["plays"].as_array().unwrap().clone())
            .map(|p| p["card"].as_str().unwrap().to_string())
            .collect();
        let mut held: Vec<String> = SEATS
            .iter()
            .flat_map(|s| a["poker_hands"][s]["cards"].as_array().unwrap().clone())
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        played_cards.sort();
        held.sort();
        assert_eq!(played_cards, held);
        assert_eq!(held.len(), 10);
        held.dedup();
        assert_eq!(held.len(), 10);
        // Every trick counts 1, 2 or 4 to its winner by the opponent's draws (PO-2).
        let before = &a["match_before"];
        let after = &a["match_after"];
        let below = |m: &Value, s: &str| m["below_line"][s].as_i64().unwrap_or(0);
        let mut tricks = 0;
        let mut trick_points = [0, 0];
        for (i, s) in SEATS.iter().enumerate() {
            let won = a["tally"][s]["tricks"].as_i64().unwrap();
            tricks += won;
            let other = SEATS[1 - i];
            trick_points[i] = won * multiplier(&a["draws"][other]["doubling"]);
            assert_eq!(a["trick_points"][s].as_i64().unwrap(), trick_points[i]);
            assert_eq!(
                a["below_line"][s].as_i64().unwrap(),
                below(before, s) + trick_points[i]
            );
        }
        assert_eq!(tricks, 5);
        // A game resets both scores below the line; otherwise they stand.
        let game_won = !a["game_won_by"].is_null();
        for (i, s) in SEATS.iter().enumerate() {
            let expected = if game_won {
                0
            } else {
                below(before, s) + trick_points[i]
            };
            assert_eq!(below(after, s), expected);
            // The match scores move by the hand score, which is the score items.
            let items: i64 = a["score_items"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|it| it["side"] == *s)
                .map(|it| it["points"].as_i64().unwrap())
                .sum();
            let score = |m: &Value| m["scores"][s].as_i64().unwrap_or(0);
            assert_eq!(score(after) - score(before), items);
            let tricks_item = if includes_below { trick_points[i] } else { 0 };
            assert!(items >= tricks_item);
        }
        let games: Vec<i64> = SEATS
            .iter()
            .map(|s| after["games"][s].as_i64().unwrap())
            .collect();
        if after["game_over"] == true {
            // Two games end the rubber; the higher total wins, equal totals draw (PO-6).
            assert!(games.contains(&2));
            let s: Vec<i64> = SEATS
                .iter()
                .map(|s| after["scores"][s].as_i64().unwrap())
                .collect();
            let winners = match s[0].cmp(&s[1]) {
                std::cmp::Ordering::Greater => json!(["P1"]),
                std::cmp::Ordering::Less => json!(["P2"]),
                std::cmp::Ordering::Equal => json!([]),
            };
            assert_eq!(after["winners"], winners);
            return hand;
        }
        assert!(games.iter().all(|&g| g < 2));
        // §1: the non-dealer deals next.
        assert_eq!(after["next_dealer"], SEATS[1 - dealer]);
        dealer = 1 - dealer;
        state = after.clone();
    }
    panic!("a rubber of 200 hands");
}

#[test]
fn random_rubbers_keep_the_accounting() {
    for seed in 0..12u64 {
        random_rubber(0x9E37_79B9_7F4A_7C15 ^ seed, seed % 3 == 0);
    }
}
