//! Court Piece properties: random legal hands replay cleanly and score by §4 (courts, streak, next
//! dealer), checked here from the tricks alone; random corruptions never score cleanly.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, Suit, packs};
use arbiter::engine::{self, Adjudication, BonusStatus, Outcome, Seat, Side, Table};
use arbiter::record::{Action, HandRecord};
use common::random::{Rng, play_out, shuffled};
use proptest::prelude::*;
use serde_json::{Value, json};

const SEATS: [&str; 4] = ["N", "E", "S", "W"];

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("court-piece").unwrap()
}

fn parse(v: &Value) -> HandRecord {
    parse_json(&serde_json::to_vec(v).unwrap()).unwrap()
}

/// A random deal, dealer and match before the hand (streak included).
fn random_deal(rng: &mut Rng, options: Value) -> Value {
    let cards = shuffled(packs::standard52().cards.iter().collect(), rng);
    let deal: serde_json::Map<String, Value> = SEATS
        .iter()
        .enumerate()
        .map(|(i, s)| (s.to_string(), json!(cards[i * 13..(i + 1) * 13])))
        .collect();
    let mut record = json!({
        "game": "court-piece", "dealer": SEATS[rng.below(4)], "deal": deal, "options": options,
        "match_state": {"scores": {"NS": rng.below(20), "EW": rng.below(20)}, "hands_played": rng.below(30)},
    });
    if rng.below(4) > 0 {
        let side = ["NS", "EW"][rng.below(2)];
        record["match_state"]["streak"] = json!({"side": side, "count": rng.below(7)});
    }
    record
}

/// A deal where the trump maker holds a whole suit and names it: he takes every trick he leads, so
/// the first seven, the play-on decision and all thirteen are reached.
fn maker_holds_a_suit(rng: &mut Rng) -> Value {
    let mut record = random_deal(rng, json!({}));
    let dealer: Seat = record["dealer"].as_str().unwrap().parse().unwrap();
    let maker = Table::FOUR.left(dealer).pos();
    let suit = Suit::ALL[rng.below(4)];
    let pack = packs::standard52().cards;
    let (trumps, rest): (Vec<Card>, Vec<Card>) = pack.iter().partition(|c| c.suit() == Some(suit));
    let rest = shuffled(rest, rng);
    let mut others = rest.chunks(13);
    for (i, seat) in SEATS.iter().enumerate() {
        record["deal"][seat] = if i == maker {
            json!(trumps)
        } else {
            json!(others.next().unwrap())
        };
    }
    record["actions"] = json!([{"seat": SEATS[maker], "trump": suit.to_string()}]);
    record
}

fn adjudicate(record: &HandRecord) -> Adjudication {
    engine::adjudicate(game(), record).expect("accepted")
}

/// §4 from the tricks alone, under the default options: the hand's winner, its courts (without the
/// streak court), and checks the adjudication against them.
fn check_scoring(a: &Adjudication) {
    assert_eq!(a.outcome, Outcome::Scored, "{:?}", a.record_error);
    assert!(a.irregularities.is_empty() && a.ignored_actions.is_empty());
    let side_of = |i: usize| Table::FOUR.side(a.tricks[i].winner.unwrap());
    let n = a.tricks.len();
    let first_seven = (n >= 7 && (0..7).all(|i| side_of(i) == side_of(0))).then(|| side_of(0));
    let (winner, courts) = match first_seven {
        Some(s) if n == 13 && (0..13).all(|i| side_of(i) == s) => (s, 52),
        Some(s) => {
            // Abandoned after seven, or the play-on failed on its last trick.
            assert!(
                n == 7 || side_of(n - 1) != s,
                "{n} tricks after the first seven"
            );
            (s, 1)
        }
        None => {
            assert_eq!(n, 13);
            let ns = (0..13).filter(|&i| side_of(i) == Side::NS).count();
            (if ns >= 7 { Side::NS } else { Side::EW }, 0)
        }
    };
    let (before, after) = (&a.match_before, &a.match_after);
    let streak = |m: &arbiter::engine::MatchState| -> Option<(Side, u32)> {
        let s = m.details.get("streak").filter(|s| !s.is_null())?;
        Some((
            serde_json::from_value(s["side"].clone()).unwrap(),
            s["count"].as_u64()? as u32,
        ))
    };
    let mut count = match streak(before) {
        Some((side, n)) if side == winner => n + 1,
        _ => 1,
    };
    let streak_court = i32::from(count == 7);
    if count == 7 {
        count = 0;
    }
    assert_eq!(a.hand_winner, Some(winner));
    let after_streak = streak(after).expect("a streak after every scored hand");
    assert_eq!(after_streak, (winner, count));
    let score = a.hand_score.expect("scored");
    assert_eq!(score[winner], courts + streak_court);
    assert_eq!(score[winner.other()], 0);
    for side in Side::BOTH {
        assert_eq!(after.scores[side] - before.scores[side], score[side]);
    }
    let in_hand: i32 = a
        .bonuses
        .iter()
        .filter(|b| b.status == BonusStatus::Scored)
        .map(|b| b.points)
        .sum();
    assert_eq!(
        in_hand, score[winner],
        "with no forfeit, the scored bonuses are the hand score"
    );
    let parts: i32 = a.score_items.iter().map(|t| t.points).sum();
    assert_eq!(
        parts, score[winner],
        "the score items add up to the hand score"
    );
    let dealer = a.dealer;
    let next = if winner == Table::FOUR.side(dealer) {
        Table::FOUR.left(dealer)
    } else if score[winner] == 0 {
        dealer
    } else {
        Table::FOUR.left(Table::FOUR.left(dealer))
    };
    assert_eq!(after.next_dealer, Some(next), "§4.3");
    assert_eq!(after.hands_played, before.hands_played + 1);
    let played: std::collections::BTreeSet<Card> = a
        .tricks
        .iter()
        .flat_map(|t| t.plays.plays().iter().map(|p| p.card))
        .collect();
    assert_eq!(played.len(), 4 * n, "every card played once");
    assert_eq!(
        (a.tally[Side::NS].tricks + a.tally[Side::EW].tricks) as usize,
        n
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_hands_score_by_the_rules(seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let record = play_out(parse(&random_deal(&mut rng, json!({}))), &mut rng);
        let a = adjudicate(&record);
        check_scoring(&a);
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&adjudicate(&record)).unwrap());
    }

    #[test]
    fn first_seven_and_play_on_score_by_the_rules(seed in any::<u64>()) {
        let mut rng = Rng(seed | 1);
        let record = play_out(parse(&maker_holds_a_suit(&mut rng)), &mut rng);
        let a = adjudicate(&record);
        check_scoring(&a);
        prop_assert!(a.events.iter().any(|e| e.code == "first_seven"));
        prop_assert!(a.tricks.len() == 7 || a.tricks.len() == 13);
    }

    #[test]
    fn corrupted_plays_never_score_cleanly(seed in any::<u64>(), how in 0usize..4, at in any::<prop::sample::Index>()) {
        let mut rng = Rng(seed | 1);
        let mut record = play_out(parse(&random_deal(&mut rng, json!({}))), &mut rng);
        let plays: Vec<usize> = (0..record.actions.len())
            .filter(|&i| record.actions[i].kind.verb == "play")
            .collect();
        let i = plays[at.index(plays.len())];
        let original = record.actions[i].clone();
        match how {
            0 => {
                let foreign = record.deal.iter().find(|(s, _)| **s != original.seat).unwrap().1[0];
                record.actions[i].kind = Action::new(record.actions[i].seat, "play", foreign).kind;
            }
            1 => {
                let seats: Vec<_> = record.deal.keys().copied().filter(|s| *s != original.seat).collect();
                record.actions[i].seat = seats[rng.below(3)];
            }
            2 => { record.actions.remove(i); }
            _ => record.actions.insert(i, original),
        }
        let a = adjudicate(&record);
        prop_assert!(
            a.record_error.is_some() || !a.irregularities.is_empty() || !a.ignored_actions.is_empty(),
            "corruption {} at action {} went unnoticed", how, i
        );
    }

    #[test]
    fn an_established_revoke_always_forfeits(seed in any::<u64>()) {
        // Replace one card with another of the same seat's hand that breaks the follow rule, if any.
        let mut rng = Rng(seed | 1);
        let record = play_out(parse(&random_deal(&mut rng, json!({}))), &mut rng);
        let a = adjudicate(&record);
        let Some((t, pos, card)) = a.tricks.iter().enumerate().find_map(|(t, tr)| {
            let led = tr.plays.led()?.suit()?;
            (1..tr.plays.len()).find_map(|pos| {
                let p = tr.plays.plays()[pos];
                if p.card.suit() != Some(led) { return None; }
                // A later card of the same seat from another suit: playing it here is a revoke.
                a.tricks[t + 1..].iter().flat_map(|x| x.plays.plays()).find(|q| q.seat == p.seat && q.card.suit() != Some(led)).map(|q| (t, pos, q.card))
            })
        }) else { return Ok(()); };
        let mut cut = record.clone();
        let index = a.tricks[t].plays.action_index(pos);
        let seat = cut.actions[index].seat;
        cut.actions[index].kind = Action::new(cut.actions[index].seat, "play", card).kind;
        let r = adjudicate(&cut);
        // Either the revoke forfeits the hand at the end of its trick, or the swap broke a card
        // later in the same trick (played twice) before it was complete.
        if r.record_error.is_none() {
            prop_assert_eq!(r.irregularities.len(), 1);
            prop_assert_eq!(r.irregularities[0].seat, seat);
            prop_assert_eq!(r.tricks.len(), t + 1, "the hand ends with the revoke's trick");
            let score = r.hand_score.unwrap();
            let streak = i32::from(r.bonuses.iter().any(|b| b.code == "streak"));
            prop_assert_eq!(score[Table::FOUR.side(seat).other()], 1 + streak);
            prop_assert_eq!(score[Table::FOUR.side(seat)], 0);
            prop_assert_eq!(r.hand_winner, Some(Table::FOUR.side(seat).other()));
            let effect = &r.irregularities[0].effect;
            prop_assert_eq!(effect.points[Table::FOUR.side(seat).other()], 1, "the forfeit's court, as a number");
            prop_assert_eq!(effect.decides, Some(engine::Decides::Hand));
        }
    }
}

#[test]
fn the_trump_maker_sees_only_his_first_five_cards() {
    let mut rng = Rng(7);
    let mut record = parse(&random_deal(&mut rng, json!({})));
    record.match_state = None;
    let view = engine::legal_actions(game(), &record).unwrap();
    let maker = Table::FOUR.left(record.dealer);
    assert_eq!(view.phase, "trump");
    assert_eq!(view.to_act, vec![maker]);
    let mut first: Vec<Card> = record.deal[&maker][..5].to_vec();
    first.sort();
    let mut seen = view.hand.clone();
    seen.sort();
    assert_eq!(seen, first);
    assert_eq!(view.legal.len(), 4, "one trump action per suit");
}

#[test]
fn claims_are_offered_only_for_an_undiscovered_revoke() {
    // Deal B of the fixtures, claim-only discovery: E revokes in trick 2 (QH on a spade lead).
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/court-piece/15-revoke-forfeit-later-plays-ignored.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut record = parse(&v["record"]);
    record.actions.truncate(9);
    let claims = |r: &HandRecord| {
        engine::legal_actions(game(), r)
            .unwrap()
            .legal
            .iter()
            .filter(|a| a.kind.verb == "claim_revoke")
            .count()
    };
    assert_eq!(
        claims(&record),
        0,
        "discovered at once by default: the hand is over"
    );
    record.options = [("discovery".to_string(), json!("recorded_claim_only"))].into();
    assert_eq!(claims(&record), 4, "any seat may claim E's revoke");
    let view = engine::legal_actions(game(), &record).unwrap();
    assert_eq!(view.phase, "play", "undiscovered: play goes on");
    assert_eq!(view.irregularities.len(), 1);
}

#[test]
fn a_revoke_may_be_claimed_while_its_trick_is_in_progress() {
    // Deal B of the fixtures: E revokes in trick 2 (QH on a spade lead); S and W still to play. §3:
    // the revoke is discovered at the end of its trick "unless the record shows an earlier claim",
    // so a claim is a legal action already, in either discovery mode.
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/court-piece/15-revoke-forfeit-later-plays-ignored.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut record = parse(&v["record"]);
    record.actions.truncate(7);
    for discovery in ["end_of_trick", "recorded_claim_only"] {
        record.options = [("discovery".to_string(), json!(discovery))].into();
        let view = engine::legal_actions(game(), &record).unwrap();
        let claims: Vec<_> = view
            .legal
            .iter()
            .filter_map(|a| a.kind.of::<Seat>("claim_revoke"))
            .collect();
        assert_eq!(
            claims,
            vec![Seat::E; 4],
            "{discovery}: any seat may claim E's revoke"
        );
    }
}

/// The hands are sets of suited cards alone (`SuitedSet`): a tarot trump or a joker dealt is still
/// refused card by card at its place, as any card outside the pack.
#[test]
fn a_card_outside_the_suited_pack_is_refused_at_its_place() {
    let mut record = random_deal(&mut Rng(11), json!({}));
    record["deal"]["E"][3] = json!("JK");
    record["deal"]["W"][12] = json!("T21");
    let errors = engine::adjudicate(game(), &parse(&record)).expect_err("refused");
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e.pointer.as_str(), e.detail.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("/deal/E/3", "JK is not in the 52-card pack"),
            ("/deal/W/12", "T21 is not in the 52-card pack"),
        ]
    );
}
