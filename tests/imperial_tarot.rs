//! Imperial Tarot (`docs/rules/imperial-tarot.md`): random deals played by the engine's legal
//! actions keep the rule file's checker invariants (§4.5): the two camps' totals make 163 (Penalty
//! Play: 163 less the People, which counts for nobody), payments sum to zero, every dealt card is
//! played once in 18 tricks.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, CardClass, Rank, packs};
use arbiter::engine::{Adjudication, Outcome, Replay};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, shuffled};
use proptest::prelude::*;
use serde_json::json;

/// §4.5, IT-1: Honours 10, kings 5, queens 4, cavaliers 3, jacks 2, the rest 1.
fn points(card: Card) -> i32 {
    match card.class() {
        CardClass::TarotTrump(1 | 21) | CardClass::Fool => 10,
        CardClass::Suited(_, Rank::King) => 5,
        CardClass::Suited(_, Rank::Queen) => 4,
        CardClass::Suited(_, Rank::Cavalier) => 3,
        CardClass::Suited(_, Rank::Jack) => 2,
        _ => 1,
    }
}

fn random_deal(rng: &mut Rng) -> HandRecord {
    let cards = shuffled(packs::tarot78().cards.iter().collect(), rng);
    let seats = ["N", "E", "S", "W"];
    let hand = |i: usize| cards[i * 18..(i + 1) * 18].to_vec();
    let record = json!({
        "game": "imperial-tarot",
        "dealer": seats[rng.below(4)],
        "deal": {"N": hand(0), "E": hand(1), "S": hand(2), "W": hand(3)},
        "stock": cards[72..].to_vec(),
    });
    parse_json(&serde_json::to_vec(&record).unwrap()).expect("a well-formed record")
}

/// Plays the hand by the legal actions the engine offers, never a correction.
fn play(mut record: HandRecord, rng: &mut Rng) -> (HandRecord, Adjudication) {
    let game = arbiter::games::find("imperial-tarot").expect("registered");
    let mut replay = Replay::start(game, &record).expect("a legal deal");
    loop {
        let offered: Vec<Action> = replay
            .view()
            .legal
            .into_iter()
            .filter(|a| a.kind.verb != "correct")
            .collect();
        if offered.is_empty() {
            return (record, replay.finish(None));
        }
        let action = offered[rng.below(offered.len())].clone();
        record.actions.push(action.clone());
        replay.apply(action).expect("an offered action is accepted");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_keep_the_checker_invariants(seed in 1..u64::MAX) {
        let mut rng = Rng(seed);
        let (record, a) = play(random_deal(&mut rng), &mut rng);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), 18);
        let mut played: Vec<Card> = a.tricks.iter().flat_map(|t| t.plays.plays().iter().map(|p| p.card)).collect();
        played.sort();
        played.dedup();
        prop_assert_eq!(played.len(), 72, "every card in hand played once");
        let score = a.hand_score.expect("scored");
        prop_assert_eq!(score.sides().map(|s| score[s]).sum::<i32>(), 0, "payments sum to zero");
        let v = serde_json::to_value(&a).unwrap();
        let people: i32 = record.stock.iter().map(|&c| points(c)).sum();
        let tallies: i32 = a.tally.sides().map(|s| a.tally[s].points.unwrap_or(0)).sum();
        if v["penalty_play"] == json!(true) {
            prop_assert_eq!(tallies, 163 - people, "Penalty Play: the People counts for nobody");
            prop_assert!(a.contract.is_none() && a.camps.is_empty());
        } else {
            let camps = &v["camp_points"];
            let (d, x) = (camps["declarer"].as_i64().unwrap(), camps["defenders"].as_i64().unwrap());
            prop_assert_eq!(d + x, 163, "the two camps' totals");
            let contract = a.contract.as_ref().expect("a declarer");
            prop_assert_eq!(Some(d as i32), a.tally[contract.side].points, "the declarer's camp is his own pile");
            // Against the People, the People (less any card paid from it for the Fool) is the
            // defenders' and in no player's tally.
            let against = v["people_to"] == json!("defenders");
            let outside = if against { people } else { 0 };
            prop_assert!(tallies <= 163 && tallies + outside >= 163, "tallies {}", tallies);
            prop_assert_eq!(a.camps.len(), 2);
        }
    }
}

/// The tally counts each trick as it closes, as in every other game: halfway through fixture 01
/// (the discards and four tricks, all won by W) the table shows W's tricks and points, not zeros.
#[test]
fn the_tally_counts_each_trick_as_it_closes() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/imperial-tarot/01-eldest-keeps-his-skirmish-with-the-people-made.json"
    );
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut record: HandRecord =
        parse_json(&serde_json::to_vec(&fixture["record"]).unwrap()).unwrap();
    // Actions 0-10: the auction, W's choice and his six discards; 11-26: tricks 1-4.
    record.actions.truncate(27);
    let game = arbiter::games::find("imperial-tarot").expect("registered");
    let view = arbiter::engine::legal_actions(game, &record).expect("a legal position");
    let tally = serde_json::to_value(&view.tally).unwrap();
    // W: 13 + 4 + 11 + 4 card points, 1 a trick, and the discards (AS 2S AD 2D AC 2C, 6), his pile
    // With the People (§4.5).
    assert_eq!(
        tally,
        json!({"N": {"tricks": 0, "points": 0}, "E": {"tricks": 0, "points": 0},
               "S": {"tricks": 0, "points": 0}, "W": {"tricks": 4, "points": 42}})
    );
}
