//! Briscola property tests: random legal hands at 2, 3 and 4 players replay cleanly with totals that
//! add up and the draws the rules prescribe; corrupted records never score cleanly.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Adjudication, Outcome};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeSet;

const TWOS: [&str; 4] = ["2S", "2H", "2D", "2C"];

/// A random dealt Briscola hand for `players`: 3 cards each, the upcard, the rest as the stock.
fn random_deal(players: usize, rng: &mut Rng) -> HandRecord {
    let removed: Card = TWOS[rng.below(4)].parse().unwrap();
    let mut pack: Vec<Card> = packs::latin40().cards.iter().collect();
    if players == 3 {
        pack.retain(|&c| c != removed);
    }
    let cards = shuffled(pack, rng);
    let seats: Vec<String> = if players == 4 {
        ["N", "E", "S", "W"].map(String::from).to_vec()
    } else {
        (1..=players).map(|i| format!("P{i}")).collect()
    };
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.clone(), json!(cards[i * 3..i * 3 + 3]));
    }
    let n = players * 3;
    let mut options = json!({"players": players.to_string()});
    if players == 3 {
        options["removed_two"] = json!(removed.to_string());
    }
    let record = json!({
        "game": "briscola", "options": options, "dealer": seats[rng.below(players)],
        "deal": deal, "face_up": [cards[n]], "stock": cards[n + 1..],
    });
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

fn random_legal_hand(players: usize, seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let record = random_deal(players, &mut rng);
    play_out(record, &mut rng)
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(arbiter::games::find("briscola").unwrap(), record).expect("accepted")
}

fn card_points(c: Card) -> i32 {
    match c.to_string().chars().next().unwrap() {
        'A' => 11,
        '3' => 10,
        'K' => 4,
        'Q' => 3,
        'J' => 2,
        _ => 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_add_up(seed in any::<u64>(), players in 2usize..=4) {
        let record = random_legal_hand(players, seed);
        let a = adjudicate(&record);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty() && a.record_error.is_none());
        let pack = if players == 3 { 39 } else { 40 };
        prop_assert_eq!(a.tricks.len(), pack / players);
        let sides: Vec<_> = a.tally.sides().collect();
        prop_assert_eq!(sides.len(), if players == 4 { 2 } else { players });
        let tricks: u32 = sides.iter().map(|&s| a.tally[s].tricks).sum();
        prop_assert_eq!(tricks as usize, pack / players);
        let points: i32 = sides.iter().map(|&s| a.tally[s].points.unwrap()).sum();
        prop_assert_eq!(points, 120, "every card point is taken (a 2 is worth nothing)");
        for t in &a.tricks {
            let p: i32 = t.plays.plays().iter().map(|p| card_points(p.card)).sum();
            prop_assert_eq!(t.points, Some(p));
        }
        let played: BTreeSet<Card> = a.tricks.iter().flat_map(|t| t.plays.plays().iter().map(|p| p.card)).collect();
        prop_assert_eq!(played.len(), pack, "every card played once");
        // Draws: one round after each trick while cards remain, the winner first, the stock in order
        // and the upcard last.
        let rounds = (pack - 3 * players) / players;
        for (i, t) in a.tricks.iter().enumerate() {
            // Stated on every trick of the game (records.md, "Presence").
            let draws = t.draws.as_deref().expect("Briscola states its draws");
            if i < rounds {
                prop_assert_eq!(Some(draws[0].seat), t.winner);
                prop_assert_eq!(draws.len(), players);
            } else {
                prop_assert!(draws.is_empty());
            }
        }
        let drawn: Vec<Card> = a.tricks.iter().flat_map(|t| t.draws.iter().flatten().map(|d| d.card)).collect();
        let mut expected = record.stock.clone();
        expected.push(record.face_up[0]);
        prop_assert_eq!(drawn, expected);
        let score = a.hand_score.unwrap();
        for &s in &sides {
            prop_assert_eq!(score[s], a.tally[s].points.unwrap());
            prop_assert_eq!(a.match_after.scores[s], a.match_before.scores[s] + score[s]);
        }
        prop_assert_eq!(a.match_after.hands_played, 1);
        prop_assert!(!a.match_after.game_over);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn corrupted_records_never_score_cleanly(seed in any::<u64>(), players in 2usize..=4, how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_legal_hand(players, seed);
        let i = at.index(record.actions.len());
        let original = record.actions[i].clone();
        match how {
            // A card another seat was dealt: it never reaches this seat's hand.
            0 => {
                let foreign = record.deal.iter().find(|(s, _)| **s != original.seat).unwrap().1[0];
                record.actions[i].kind = Action::new(record.actions[i].seat, "play", foreign).kind;
            }
            // The wrong seat plays.
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % seats.len() as u64) as usize];
            }
            2 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original),
        }
        match engine::adjudicate(arbiter::games::find("briscola").unwrap(), &record) {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(a) => prop_assert!(a.record_error.is_some(), "corruption {} at action {} went unnoticed", how, i),
        }
    }
}

/// A whole 2-player match: hand 1 dealt by P1, hand 2 by P2; the higher total wins.
#[test]
fn a_two_hand_match_ends_with_the_higher_total() {
    let mut rng = Rng(7);
    let mut hands = Vec::new();
    for dealer in ["P1", "P2"] {
        let mut dealt = random_deal(2, &mut rng);
        dealt.dealer = dealer.parse().unwrap();
        hands.push(play_out(dealt, &mut rng));
    }
    let m: arbiter::record::MatchRecord = parse_json(
        &serde_json::to_vec(
            &json!({"game": "briscola", "options": {"players": "2"}, "hands": hands}),
        )
        .unwrap(),
    )
    .unwrap();
    let report = engine::adjudicate_match(arbiter::games::find("briscola").unwrap(), &m).unwrap();
    let f = &report.final_state;
    assert_eq!(f.hands_played, 2);
    assert_eq!(f.next_dealer.unwrap().to_string(), "P1");
    let (p1, p2) = ("P1".parse().unwrap(), "P2".parse().unwrap());
    assert_eq!(f.scores[p1] + f.scores[p2], 240);
    if f.scores[p1] == f.scores[p2] {
        assert!(!f.game_over);
        assert_eq!(f.details["contenders"], json!([p1, p2]));
    } else {
        assert!(f.game_over);
        assert_eq!(
            f.winners,
            [if f.scores[p1] > f.scores[p2] { p1 } else { p2 }]
        );
    }
}

/// The record of a fixture, with `match_state` replaced.
fn fixture_record(path: &str, match_state: serde_json::Value) -> HandRecord {
    let text =
        std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut f: serde_json::Value = serde_json::from_str(&text).unwrap();
    f["record"]["match_state"] = match_state;
    parse_json(&serde_json::to_vec(&f["record"]).unwrap()).unwrap()
}

/// `contenders` is Briscola's: another game would carry it along unread (even a side it has not),
/// and Briscola keeps no other game's field either.
#[test]
fn match_state_fields_of_another_game_are_refused() {
    let malilla = fixture_record(
        "malilla/01-normal-hand-ew-scores-2.json",
        json!({"contenders": ["NS", "P5"]}),
    );
    let errors = engine::adjudicate(arbiter::games::find("malilla").unwrap(), &malilla)
        .expect_err("refused");
    assert_eq!(errors[0].pointer, "/match_state/contenders");
    let briscola = fixture_record(
        "briscola/01-four-players-hand.json",
        json!({"pending_ties": 2, "streak": {"side": "NS", "count": 3}}),
    );
    let errors = engine::adjudicate(arbiter::games::find("briscola").unwrap(), &briscola)
        .expect_err("refused");
    let pointers: Vec<_> = errors.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        ["/match_state/pending_ties", "/match_state/streak"]
    );
    // Briscola's own field is accepted (a tie-breaker between the tied partnerships).
    let tie_breaker = fixture_record(
        "briscola/01-four-players-hand.json",
        json!({"scores": {"NS": 127, "EW": 127}, "hands_played": 2, "contenders": ["NS", "EW"]}),
    );
    let a = adjudicate(&tie_breaker);
    assert_eq!(a.match_after.winners, vec!["NS".parse().unwrap()]);
}

/// BR-e at the table: after a trick the winner may draw (stated) or lead (the round taken from the
/// stock); once a round is begun, only the next draw is legal. Fixture 02's stock starts QH, QS.
#[test]
fn legal_actions_offer_the_next_draw() {
    let mut record = fixture_record("briscola/02-two-players-hand.json", json!(null));
    record.actions.truncate(2); // T1: P1 AH, P2 AS -> P1 wins
    let g = arbiter::games::find("briscola").unwrap();
    let (p1, p2) = ("P1".parse().unwrap(), "P2".parse().unwrap());
    let card = |s: &str| -> Card { s.parse().unwrap() };
    let view = engine::legal_actions(g, &record).unwrap();
    assert_eq!((view.phase, view.to_act.clone()), ("play", vec![p1]));
    assert!(
        view.legal
            .contains(&arbiter::record::Action::new(p1, "draw", card("QH")))
    );
    assert!(view.legal.iter().any(|a| a.kind.verb == "play"));
    record
        .actions
        .push(arbiter::record::Action::new(p1, "draw", card("QH")));
    let view = engine::legal_actions(g, &record).unwrap();
    assert_eq!((view.phase, view.to_act.clone()), ("draw", vec![p2]));
    assert_eq!(
        view.legal,
        vec![arbiter::record::Action::new(p2, "draw", card("QS"))]
    );
    assert!(!view.hand.contains(&card("QS")), "not drawn yet");
}
