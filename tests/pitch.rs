//! Pitch: random legal hands add up (points, tricks, scores, the win at 21); corruptions never
//! score cleanly; the auction offers exactly the calls the rules allow.

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, Rank, packs};
use arbiter::engine::{self, Adjudication, Outcome, Side, Table};
use arbiter::record::{Action, HandRecord};
mod common;

use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("pitch").unwrap()
}

/// Four random 6-card hands from the 52-card pack, a random dealer and random scores before.
fn random_deal(rng: &mut Rng) -> HandRecord {
    let cards = shuffled(packs::standard52().cards.iter().collect(), rng);
    let seats = ["N", "E", "S", "W"];
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.to_string(), json!(cards[i * 6..(i + 1) * 6]));
    }
    let scores = json!({"NS": rng.below(30) as i32 - 5, "EW": rng.below(30) as i32 - 5});
    let record = json!({"game": "pitch", "dealer": seats[rng.below(4)], "deal": deal,
                        "match_state": {"scores": scores}});
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

fn random_legal_hand(seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let record = random_deal(&mut rng);
    play_out(record, &mut rng)
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(game(), record).expect("accepted")
}

fn game_points(card: Card) -> i32 {
    match card.rank().unwrap() {
        Rank::Ten => 10,
        Rank::Ace => 4,
        Rank::King => 3,
        Rank::Queen => 2,
        Rank::Jack => 1,
        _ => 0,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_add_up(seed in any::<u64>()) {
        let record = random_legal_hand(seed);
        let a = adjudicate(&record);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), 6);
        let (ns, ew) = (&a.tally[Side::NS], &a.tally[Side::EW]);
        prop_assert_eq!(ns.tricks + ew.tricks, 6);
        let dealt: Vec<Card> = record.deal.values().flatten().copied().collect();
        let total: i32 = dealt.iter().map(|&c| game_points(c)).sum();
        prop_assert_eq!(ns.points.unwrap() + ew.points.unwrap(), total, "every game point captured once");

        // §4: High and Low always go (the pitcher's lead is a trump); Jack iff dealt; Game iff untied.
        let trump = a.trump.expect("the pitcher's lead fixes trump");
        let count = |code: &str| a.bonuses.iter().filter(|b| b.code == code).count();
        prop_assert_eq!(count("high"), 1);
        prop_assert_eq!(count("low"), 1);
        prop_assert_eq!(count("jack"), usize::from(dealt.contains(&Card::new(Rank::Jack, trump))));
        prop_assert_eq!(count("game"), usize::from(ns.points != ew.points));
        // High to the player's side, Low to the capturer's side (PI-1).
        let trumps: Vec<(Card, Side, Side)> = a.tricks.iter().flat_map(|t| {
            let winner = Table::FOUR.side(t.winner.unwrap());
            t.plays.plays().iter().filter(|p| p.card.suit() == Some(trump)).map(move |p| (p.card, Table::FOUR.side(p.seat), winner))
        }).collect();
        let high = trumps.iter().max_by_key(|t| t.0.rank()).unwrap();
        let low = trumps.iter().min_by_key(|t| t.0.rank()).unwrap();
        let bonus = |code: &str| a.bonuses.iter().find(|b| b.code == code).unwrap();
        prop_assert_eq!((bonus("high").side, bonus("high").card), (high.1, Some(high.0)));
        prop_assert_eq!((bonus("low").side, bonus("low").card), (low.2, Some(low.0)));

        let contract = a.contract.clone().expect("a pitcher");
        let ps = contract.side;
        let points = |side: Side| a.bonuses.iter().filter(|b| b.side == side).count() as i32;
        // A bid is a number of points or "smudge" (None).
        let bid = contract.bid.unwrap().as_i64().map(|n| n as i32);
        let made = match bid {
            None => points(ps) == 4 && a.tally[ps].tricks == 6,
            Some(n) => points(ps) >= n,
        };
        prop_assert_eq!(contract.made, Some(made));
        let score = a.hand_score.unwrap();
        let expected = match (made, bid) {
            (true, None) => 5,
            (true, _) => points(ps),
            (false, None) => -5,
            (false, Some(n)) => -n,
        };
        prop_assert_eq!(score[ps], expected);
        prop_assert_eq!(score[ps.other()], points(ps.other()));
        for side in Side::BOTH {
            prop_assert_eq!(a.match_after.scores[side], a.match_before.scores[side] + score[side]);
        }
        // PI-5: only a pitching side that made its bid wins, at 21.
        let wins = made && a.match_after.scores[ps] >= 21;
        prop_assert_eq!(a.match_after.game_over, wins);
        prop_assert_eq!(&a.match_after.winners, &wins.then_some(ps).into_iter().collect::<Vec<_>>());
        prop_assert_eq!(a.match_after.hands_played, 1);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn corrupted_records_never_score_cleanly(seed in any::<u64>(), how in 0usize..5, at in any::<prop::sample::Index>()) {
        let mut record = random_legal_hand(seed);
        let i = at.index(record.actions.len());
        let original = record.actions[i].clone();
        match how {
            // A card this seat was never dealt.
            0 => {
                let foreign = record.deal.iter().find(|(s, _)| **s != original.seat).unwrap().1[0];
                record.actions[i] = match original.kind.verb.as_str() {
                    "play" => Action::new(original.seat, "play", foreign),
                    _ => Action::new(original.seat, "bid", 7),
                };
            }
            // The wrong seat acts.
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            2 => { record.actions.remove(i); }
            3 => record.actions.insert(i, original),
            // A bid Pitch does not have, in place of any call.
            _ => {
                let j = i % 4;
                record.actions[j].kind = Action::new(record.actions[j].seat, "bid", if seed % 2 == 0 { 1 } else { 5 }).kind;
            }
        }
        let a = adjudicate(&record);
        prop_assert!(
            a.record_error.is_some() || !a.irregularities.is_empty(),
            "corruption {} at action {} went unnoticed", how, i
        );
    }
}

fn legal(record: serde_json::Value) -> Vec<serde_json::Value> {
    let r: HandRecord = parse_json(&serde_json::to_vec(&record).unwrap()).unwrap();
    let view = engine::legal_actions(game(), &r).unwrap();
    view.legal
        .iter()
        .map(|a| serde_json::to_value(a).unwrap())
        .collect()
}

fn d1() -> serde_json::Value {
    json!({"N": ["5S", "AH", "KH", "QH", "2C", "3C"], "E": ["2S", "7H", "8H", "AD", "KD", "4C"],
           "S": ["AS", "KS", "JS", "9S", "TD", "5C"], "W": ["3S", "TH", "9H", "QD", "2D", "6C"]})
}

#[test]
fn the_auction_offers_higher_bids_a_steal_to_the_dealer_and_a_forced_2() {
    let pass = |s: &str| json!({"seat": s, "pass": true});
    let bid = |s: &str, b: serde_json::Value| json!({"seat": s, "bid": b});
    // E opens: pass or any bid.
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(), "actions": []});
    assert_eq!(
        legal(r),
        vec![
            pass("E"),
            bid("E", json!(2)),
            bid("E", json!(3)),
            bid("E", json!(4)),
            bid("E", json!("smudge"))
        ]
    );
    // After E bids 3, S may pass or bid higher only.
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(), "actions": [bid("E", json!(3))]});
    assert_eq!(
        legal(r),
        vec![pass("S"), bid("S", json!(4)), bid("S", json!("smudge"))]
    );
    // The dealer may equal the standing smudge (PI-3).
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(),
                   "actions": [pass("E"), bid("S", json!("smudge")), pass("W")]});
    assert_eq!(legal(r), vec![pass("N"), bid("N", json!("smudge"))]);
    // Three passes: the dealer must bid 2 (PI-a).
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(),
                   "actions": [pass("E"), pass("S"), pass("W")]});
    assert_eq!(legal(r), vec![bid("N", json!(2))]);
}

#[test]
fn a_forced_dealer_bidding_3_is_an_illegal_bid() {
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(), "actions": [
        {"seat": "E", "pass": true}, {"seat": "S", "pass": true}, {"seat": "W", "pass": true},
        {"seat": "N", "bid": 3}]});
    let a = adjudicate(&parse_json(&serde_json::to_vec(&r).unwrap()).unwrap());
    let e = a.record_error.expect("PI-a");
    assert_eq!((e.code, e.action_index), ("illegal_bid", Some(3)));
}

#[test]
fn in_trick_one_a_trump_holder_is_offered_only_trumps() {
    // PI-d: S leads AS; W holds 3S and must play it.
    let r = json!({"game": "pitch", "dealer": "N", "deal": d1(), "actions": [
        {"seat": "E", "pass": true}, {"seat": "S", "bid": 2}, {"seat": "W", "pass": true},
        {"seat": "N", "pass": true}, {"seat": "S", "play": "AS"}]});
    assert_eq!(legal(r), vec![json!({"seat": "W", "play": "3S"})]);
}

#[test]
fn a_stock_or_face_up_card_is_refused() {
    for field in ["stock", "face_up"] {
        let mut r = json!({"game": "pitch", "dealer": "N", "deal": d1(), "actions": []});
        r[field] = json!(["4D"]);
        let rec: HandRecord = parse_json(&serde_json::to_vec(&r).unwrap()).unwrap();
        let e = engine::adjudicate(game(), &rec).unwrap_err();
        assert_eq!(e[0].pointer, format!("/{field}"));
    }
}

#[test]
fn numbered_seats_name_the_compass_seats() {
    // README "Seats and direction": at a four-player table P1..P4 are N E S W. Fixture 01 written
    // with numbered seats (dealer P1 = N, so P2 = E opens and P1 is the dealer who may steal) must
    // be adjudicated exactly as written with compass seats.
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("fixtures/pitch/01-bid-3-made-low-to-capturer.json").unwrap(),
    )
    .unwrap();
    let compass = fixture["record"].clone();
    let mut numbered = compass.clone();
    let name = |s: &str| format!("P{}", "NESW".find(s).unwrap() + 1);
    numbered["dealer"] = json!(name(compass["dealer"].as_str().unwrap()));
    for a in numbered["actions"].as_array_mut().unwrap() {
        a["seat"] = json!(name(a["seat"].as_str().unwrap()));
    }
    let parse = |v: &serde_json::Value| -> HandRecord {
        parse_json(&serde_json::to_vec(v).unwrap()).unwrap()
    };
    let (a, b) = (adjudicate(&parse(&compass)), adjudicate(&parse(&numbered)));
    assert_eq!(b.outcome, Outcome::Scored, "{:?}", b.record_error);
    assert_eq!(b.hand_score, a.hand_score);
    assert_eq!(b.match_after.next_dealer, a.match_after.next_dealer);
    // The dealer's steal is offered to P1 (= N) after P3 (= S) bids 3.
    let mut partial = numbered.clone();
    partial["actions"] = json!([{"seat": "P2", "pass": true}, {"seat": "P3", "bid": 3},
                                {"seat": "P4", "pass": true}]);
    assert_eq!(
        legal(partial),
        vec![
            json!({"seat": "N", "pass": true}),
            json!({"seat": "N", "bid": 3}),
            json!({"seat": "N", "bid": 4}),
            json!({"seat": "N", "bid": "smudge"})
        ]
    );
}
