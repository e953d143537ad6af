//! Couillon property tests: random legal hands (both packs, any match state) replay with no
//! irregularity, card points and tricks that add up, and the lines scored as §4 says; random
//! corruptions never score cleanly; a small match is folded hand by hand.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, Rank, packs};
use arbiter::engine::{self, Adjudication, Outcome, Side};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::json;

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("couillon").expect("registered")
}

fn points(card: Card) -> i32 {
    match card.rank() {
        Some(Rank::Ace) => 4,
        Some(Rank::King) => 3,
        Some(Rank::Queen) => 2,
        Some(Rank::Jack) => 1,
        _ => 0,
    }
}

/// A random Couillon deal (24 or 32 cards) with a random match state before it, not yet played.
fn random_deal(rng: &mut Rng, deck32: bool) -> HandRecord {
    let pack = if deck32 {
        packs::piquet32()
    } else {
        packs::euchre24()
    };
    let cards = shuffled(pack.cards.iter().collect(), rng);
    let seats = ["N", "E", "S", "W"];
    let dealer = seats[rng.below(4)];
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.to_string(), json!(cards[i * 4..i * 4 + 4]));
    }
    let record = json!({
        "game": "couillon",
        "dealer": dealer,
        "options": if deck32 { json!({"deck": "32"}) } else { json!({}) },
        "deal": deal,
        "stock": cards[16..],
        "match_state": {
            "scores": {"NS": rng.below(5), "EW": rng.below(5) as i32 - 1},
            "pending_ties": rng.below(3),
            "next_dealer": dealer,
        },
    });
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

fn random_legal_hand(seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let deck32 = rng.below(2) == 1;
    let record = random_deal(&mut rng, deck32);
    play_out(record, &mut rng)
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(game(), record).expect("accepted")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_add_up(seed in any::<u64>()) {
        let record = random_legal_hand(seed);
        let a = adjudicate(&record);
        prop_assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
        prop_assert!(a.irregularities.is_empty());
        prop_assert_eq!(a.tricks.len(), 4);
        let (ns, ew) = (&a.tally[Side::NS], &a.tally[Side::EW]);
        prop_assert_eq!(ns.tricks + ew.tricks, 4);
        let stub: i32 = record.stock.iter().map(|&c| points(c)).sum();
        let (ns_points, ew_points) = (ns.points.unwrap(), ew.points.unwrap());
        prop_assert_eq!(ns_points + ew_points, 40 - stub, "the card points in play (CO-a)");
        let trick_points: i32 = a.tricks.iter().map(|t| t.points.unwrap()).sum();
        prop_assert_eq!(trick_points, 40 - stub);

        // The trump decision: trump is the upcard's suit when somebody accepted, else the bottom card's.
        let upcard = record.stock[0];
        let bottom = *record.stock.last().unwrap();
        let accepted = record.actions.iter().any(|x| x.kind.verb == "accept");
        prop_assert_eq!(a.contract.is_some(), accepted);
        let expected_trump = if accepted { upcard.suit() } else { bottom.suit() };
        prop_assert_eq!(a.trump, expected_trump);

        // §4: more card points wins one line plus the pending ties; a losing acceptor takes a mark.
        let before = &a.match_before;
        let after = &a.match_after;
        let score = a.hand_score.unwrap();
        let winner = match ns_points.cmp(&ew_points) {
            std::cmp::Ordering::Greater => Some(Side::NS),
            std::cmp::Ordering::Less => Some(Side::EW),
            std::cmp::Ordering::Equal => None,
        };
        let acceptor = a.contract.as_ref().map(|c| c.side);
        let ties = |m: &arbiter::engine::MatchState| m.details.get("pending_ties").map_or(0, |p| p.as_u64().unwrap() as u32);
        match winner {
            None => {
                prop_assert_eq!(ties(after), ties(before) + 1);
                prop_assert_eq!(after.scores, before.scores);
                prop_assert!(a.bonuses.is_empty());
            }
            Some(w) => {
                let mark = i32::from(acceptor == Some(w.other()));
                prop_assert_eq!(ties(after), 0);
                prop_assert_eq!(score[w], 1 + ties(before) as i32);
                prop_assert_eq!(score[w.other()], -mark);
                prop_assert_eq!(after.scores[w] - before.scores[w], 1 + ties(before) as i32);
                prop_assert_eq!(after.scores[w.other()] - before.scores[w.other()], -mark);
                prop_assert_eq!(after.game_over, after.scores[w] >= 5);
                prop_assert_eq!(&after.winners, &after.game_over.then_some(w).into_iter().collect::<Vec<_>>());
            }
        }
        if let Some(c) = &a.contract {
            prop_assert_eq!(c.made, Some(winner == Some(c.side)));
        }
        prop_assert_eq!(a.hand_winner, winner);
        // The hand score is what the match moves by, and its parts add up to it.
        for side in Side::BOTH {
            let parts: i32 = a.score_items.iter().filter(|t| t.side == side).map(|t| t.points).sum();
            prop_assert_eq!(parts, score[side]);
            prop_assert_eq!(after.scores[side] - before.scores[side], score[side]);
        }
        prop_assert_eq!(after.hands_played, before.hands_played + 1);
        prop_assert_eq!(after.next_dealer, Some(engine::Table::FOUR.left(record.dealer)));
    }

    #[test]
    fn corrupted_records_never_score_cleanly(seed in any::<u64>(), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut record = random_legal_hand(seed);
        let i = at.index(record.actions.len());
        let original = record.actions[i].clone();
        match how {
            // A card the seat never held: the stub's top card, or another seat's first card.
            0 => {
                let plays: Vec<usize> = (0..record.actions.len())
                    .filter(|&k| record.actions[k].kind.verb == "play")
                    .collect();
                let k = plays[i % plays.len()];
                let seat = record.actions[k].seat;
                let foreign = if seed % 2 == 0 {
                    record.stock[0]
                } else {
                    record.deal.iter().find(|(s, _)| **s != seat).unwrap().1[0]
                };
                record.actions[k].kind = Action::new(record.actions[k].seat, "play", foreign).kind;
            }
            // The wrong seat acts.
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[(seed % 3) as usize];
            }
            2 => {
                record.actions.remove(i);
            }
            _ => record.actions.insert(i, original),
        }
        let a = adjudicate(&record);
        prop_assert!(
            a.record_error.is_some() || !a.irregularities.is_empty(),
            "corruption {} at action {} went unnoticed", how, i
        );
        if a.record_error.is_some() {
            prop_assert!(a.hand_score.is_none());
            prop_assert_eq!(&a.match_after, &a.match_before);
        }
    }
}

/// The trump decision offers exactly `accept` and `decline` to the seat whose turn it is.
#[test]
fn the_trump_decision_offers_accept_and_decline_in_turn() {
    let mut record = random_deal(&mut Rng(11), false);
    record.dealer = arbiter::engine::Seat::S;
    record.match_state = None;
    let view = engine::legal_actions(game(), &record).expect("a position");
    assert_eq!(view.phase, "trump");
    assert_eq!(view.to_act, vec![arbiter::engine::Seat::W]);
    let verbs: Vec<_> = view
        .legal
        .iter()
        .map(|a| (a.seat, a.kind.verb.as_str()))
        .collect();
    let w = arbiter::engine::Seat::W;
    assert_eq!(verbs, vec![(w, "accept"), (w, "decline")]);
}

/// A whole game folded hand by hand: the match state carries pending ties and ends at 5.
#[test]
fn a_match_ends_when_a_side_has_erased_five_units() {
    let mut rng = Rng(7);
    let mut state = engine::MatchState::default();
    let options = engine::Options::defaults(game().info().options);
    let mut dealer = arbiter::engine::Seat::N;
    for played in 0..200 {
        let mut record = random_deal(&mut rng, false);
        record.dealer = dealer;
        record.match_state = None;
        let record = play_out_from(record, &state, &mut rng);
        let a =
            engine::adjudicate_next(game(), &options, &state, &record, played).expect("next hand");
        assert_eq!(a.outcome, Outcome::Scored);
        state = a.match_after;
        dealer = state.next_dealer.expect("always named (README C8)");
        if state.game_over {
            let [w] = state.winners[..] else {
                panic!("one winner: {:?}", state.winners)
            };
            assert!(state.scores[w] >= 5 && state.scores[w.other()] < 5);
            return;
        }
    }
    panic!("no side won in 200 hands");
}

/// Plays a dealt hand out in the position `state` (the legal-actions query needs it on the record).
fn play_out_from(mut record: HandRecord, state: &engine::MatchState, rng: &mut Rng) -> HandRecord {
    record.match_state = Some(state.clone());
    let mut played = play_out(record, rng);
    played.match_state = None;
    played
}
