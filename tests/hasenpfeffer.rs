//! Hasenpfeffer property tests: random legal hands (random deals played out through the legal
//! actions the engine offers) score exactly as §4 says; corrupted records never score cleanly.

mod common;

use arbiter::cards::packs;
use arbiter::engine::{self, Outcome, Side};
use arbiter::record::HandRecord;
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;

fn random_hand(seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let cards = shuffled(packs::euchre24_joker().cards.iter().collect(), &mut rng);
    let dealer = ["N", "E", "S", "W"][rng.below(4)];
    let record = json!({
        "game": "hasenpfeffer",
        "dealer": dealer,
        "deal": {"N": cards[0..6], "E": cards[6..12], "S": cards[12..18], "W": cards[18..24]},
        "stock": [cards[24]],
    });
    play_out(serde_json::from_value(record).unwrap(), &mut rng)
}

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("hasenpfeffer").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_score_by_section_4(seed in any::<u64>()) {
        let record = random_hand(seed);
        let a = engine::adjudicate(game(), &record).unwrap();
        prop_assert!(a.irregularities.is_empty() && a.record_error.is_none());
        // §2.3, §4: void only when all four pass and the joker is the widow (nobody to force).
        let all_passed = record.actions.iter().take(4).all(|x| x.kind.verb == "pass");
        if record.stock[0] == arbiter::cards::Card::JOKER && all_passed {
            prop_assert_eq!(a.outcome, Outcome::Void);
            prop_assert!(a.tricks.is_empty() && a.contract.is_none());
            prop_assert_eq!(record.actions.len(), 4);
            return Ok(());
        }
        prop_assert_eq!(a.outcome, Outcome::Scored);
        prop_assert_eq!(a.tricks.len(), 6);
        let c = a.contract.clone().unwrap();
        let bid = c.bid.and_then(|b| b.as_u64()).expect("a number bid");
        prop_assert!((1..=6).contains(&bid));
        let (decl, def) = (c.side, c.side.other());
        prop_assert_eq!(a.tally[decl].tricks + a.tally[def].tricks, 6);
        let taken = a.tally[decl].tricks as i32;
        let score = a.hand_score.unwrap();
        prop_assert_eq!(c.made, Some(taken >= bid as i32));
        prop_assert_eq!(score[decl], if taken >= bid as i32 { taken } else { -(bid as i32) });
        prop_assert_eq!(score[def], a.tally[def].tricks as i32);
        for side in Side::BOTH {
            prop_assert_eq!(a.match_after.scores[side], score[side]);
        }
    }

    #[test]
    fn corrupted_hands_never_score_cleanly(seed in any::<u64>(), how in 0usize..3, at in any::<prop::sample::Index>()) {
        let mut record = random_hand(seed);
        prop_assume!(!record.actions.is_empty());
        let i = at.index(record.actions.len());
        let original = record.actions[i].clone();
        match how {
            // Another seat acts instead.
            0 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            1 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original.clone()),
        }
        // A pass repeated or removed can still leave a legal auction (e.g. a removed trailing pass
        // is a shorter, incomplete one); every corruption must at least not score as before.
        match engine::adjudicate(game(), &record) {
            Err(e) => prop_assert!(!e.is_empty()),
            Ok(a) => prop_assert!(
                a.record_error.is_some() || !a.irregularities.is_empty(),
                "corruption {} at action {} ({:?}) went unnoticed", how, i, original.kind
            ),
        }
    }
}

#[test]
fn the_left_bower_follows_trumps_not_its_printed_suit() {
    // N declares hearts and leads JD, the left bower: a trump. E holds 9H and must follow with it,
    // so his 9D is a revoke; W's joker wins the trick.
    let record: HandRecord = serde_json::from_value(json!({
        "dealer": "W",
        "deal": {"N": ["JD", "JH", "AH", "KS", "QS", "JS"], "E": ["9H", "9D", "TD", "QD", "KD", "AD"],
                 "S": ["TH", "QH", "KH", "AS", "TS", "9S"], "W": ["JK", "AC", "KC", "QC", "JC", "TC"]},
        "stock": ["9C"],
        "actions": [{"seat": "N", "bid": 2}, {"seat": "E", "pass": true}, {"seat": "S", "pass": true},
                    {"seat": "W", "pass": true}, {"seat": "N", "trump": "H"}, {"seat": "N", "discard": "9C"},
                    {"seat": "N", "play": "JD"}, {"seat": "E", "play": "9D"}]
    }))
    .unwrap();
    let view = engine::legal_actions(game(), &record).unwrap();
    assert_eq!(
        view.irregularities.len(),
        0,
        "not established before the trick is complete"
    );
    let mut full = record.clone();
    for (s, c) in [("S", "TH"), ("W", "JK")] {
        full.actions
            .push(serde_json::from_value(json!({"seat": s, "play": c})).unwrap());
    }
    let a = engine::adjudicate(game(), &full).unwrap();
    assert_eq!(a.irregularities[0].code, "revoke");
    assert_eq!(a.irregularities[0].seat.to_string(), "E");
    assert_eq!(
        a.tricks[0].winner.unwrap().to_string(),
        "W",
        "the joker is the top trump"
    );
}

#[test]
fn after_four_passes_view_offers_the_joker_holders_forced_bid_and_apply_takes_it() {
    // §2.3: the record may show the joker holder's forced 3 before his trump; every offered action
    // replays.
    let record: HandRecord = serde_json::from_value(json!({
        "dealer": "W",
        "deal": {"N": ["TS", "JS", "JC", "AS", "KS", "QS"], "E": ["AH", "KH", "QH", "JH", "TH", "9H"],
                 "S": ["JK", "9S", "AD", "KD", "QD", "TD"], "W": ["AC", "KC", "QC", "TC", "9C", "JD"]},
        "stock": ["9D"],
        "actions": [{"seat": "N", "pass": true}, {"seat": "E", "pass": true}, {"seat": "S", "pass": true},
                    {"seat": "W", "pass": true}]
    }))
    .unwrap();
    let view = engine::legal_actions(game(), &record).unwrap();
    let legal: Vec<String> = view
        .legal
        .iter()
        .map(|a| serde_json::to_string(a).unwrap())
        .collect();
    assert!(
        legal.contains(&r#"{"seat":"S","bid":3}"#.to_string()),
        "{legal:?}"
    );
    assert_eq!(legal.len(), 5, "bid 3 and four trumps: {legal:?}");
    for action in view.legal {
        let mut next = record.clone();
        next.actions.push(action);
        engine::legal_actions(game(), &next).unwrap();
    }
}

#[test]
fn the_joker_holders_forced_3_shows_once_then_the_trump_is_due() {
    // §2.3: S holds the joker; after four passes the record may show his 3 once. A second showing
    // is not a call the trump phase takes (unexpected_action); a pass instead is illegal_bid.
    let record = |then: serde_json::Value| -> HandRecord {
        let mut actions = vec![
            json!({"seat": "N", "pass": true}),
            json!({"seat": "E", "pass": true}),
            json!({"seat": "S", "pass": true}),
            json!({"seat": "W", "pass": true}),
        ];
        actions.extend(then.as_array().unwrap().iter().cloned());
        serde_json::from_value(json!({
            "dealer": "W",
            "deal": {"N": ["TS", "JS", "JC", "AS", "KS", "QS"], "E": ["AH", "KH", "QH", "JH", "TH", "9H"],
                     "S": ["JK", "9S", "AD", "KD", "QD", "TD"], "W": ["AC", "KC", "QC", "TC", "9C", "JD"]},
            "stock": ["9D"],
            "actions": actions
        }))
        .unwrap()
    };
    for (then, want) in [
        (
            json!([{"seat": "S", "bid": 3}, {"seat": "S", "bid": 3}]),
            ("unexpected_action", Some(5)),
        ),
        (
            json!([{"seat": "S", "pass": true}]),
            ("illegal_bid", Some(4)),
        ),
        (
            json!([{"seat": "S", "bid": 3}, {"seat": "S", "trump": "D"}]),
            ("incomplete_hand", Some(6)),
        ),
        (json!([{"seat": "S", "bid": "smudge"}]), ("refused", None)),
    ] {
        let got = match engine::adjudicate(game(), &record(then.clone())) {
            Ok(a) => {
                let e = a.record_error.expect("the record stops early");
                (e.code, e.action_index)
            }
            Err(e) => {
                assert_eq!(e[0].pointer, "/actions/4/bid");
                ("refused", None)
            }
        };
        assert_eq!(got, want, "{then}");
    }
}
