//! Calypso: whole games of four deals played at random from a shuffled 208-card pack keep
//! calypso.md §4's checker invariant (every card of every deal in exactly one of a completed
//! calypso, a calypso in progress or a won pile; 208 over the game) and score the side totals of
//! §4.3 as an independent count of the piles gives them; carried states no play can reach are
//! refused; a corrected card is judged afresh for trumping (CA-e).

mod common;

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::{self, Outcome};
use arbiter::record::HandRecord;
use common::random::{Rng, play_out, shuffled};
use serde_json::{Value, json};

fn game() -> &'static dyn engine::Game {
    arbiter::games::find("calypso").expect("registered")
}

fn record(v: Value) -> HandRecord {
    parse_json(&serde_json::to_vec(&v).unwrap()).unwrap()
}

const SEATS: [&str; 4] = ["N", "E", "S", "W"];
const OWN: [(&str, char); 4] = [("N", 'S'), ("E", 'D'), ("S", 'H'), ("W", 'C')];

/// §4.3 counted from a match state's piles: 500, 750, 1000, 1000 a calypso, 10 a won card, 20 a
/// card in progress; and the cards the piles hold.
fn side_values(piles: &Value) -> (i64, i64, usize) {
    let mut values = [0, 0];
    let mut cards = 0;
    for (i, seat) in SEATS.iter().enumerate() {
        let p = &piles[*seat];
        let calypsos = p["calypsos"].as_u64().unwrap() as usize;
        let in_progress = p["in_progress"].as_array().unwrap();
        let won = p["won"].as_array().unwrap();
        let own = OWN[i].1;
        let mut ranks: Vec<char> = Vec::new();
        for c in in_progress {
            let c = c.as_str().unwrap();
            assert!(c.ends_with(own), "{seat}'s calypso holds {c}");
            let rank = c.chars().next().unwrap();
            assert!(!ranks.contains(&rank), "{seat}'s calypso repeats {c}");
            ranks.push(rank);
        }
        assert!(calypsos <= 4 && in_progress.len() < 13);
        values[i % 2] += [0, 500, 1250, 2250, 3250][calypsos]
            + 10 * won.len() as i64
            + 20 * in_progress.len() as i64;
        cards += 13 * calypsos + in_progress.len() + won.len();
    }
    (values[0], values[1], cards)
}

/// A game of four random deals from one shuffled 208-card pack, each played at random.
fn random_game(seed: u64) {
    let mut rng = Rng(seed | 1);
    let pack = packs::calypso208();
    let cards: Vec<Card> = pack
        .cards
        .iter()
        .flat_map(|c| std::iter::repeat_n(c, pack.count(c) as usize))
        .collect();
    let cards = shuffled(cards, &mut rng);
    let mut state = Value::Null;
    let mut dealer = rng.below(4);
    for deal in 0..4 {
        let mut hands = serde_json::Map::new();
        for (i, seat) in SEATS.iter().enumerate() {
            let at = deal * 52 + i * 13;
            hands.insert(seat.to_string(), json!(cards[at..at + 13]));
        }
        let mut r = json!({"game": "calypso", "dealer": SEATS[dealer], "deal": hands});
        if !state.is_null() {
            r["match_state"] = state.clone();
        }
        let played = play_out(record(r), &mut rng);
        let a = engine::adjudicate(game(), &played).expect("a deal from the remainder");
        assert_eq!(a.outcome, Outcome::Scored, "seed {seed} deal {}", deal + 1);
        assert!(a.irregularities.is_empty());
        state = serde_json::to_value(&a.match_after).unwrap();
        let (ns, ew, held) = side_values(&state["piles"]);
        assert_eq!(held, 52 * (deal + 1), "seed {seed}: every card in one pile");
        assert_eq!(
            (
                state["scores"]["NS"].as_i64(),
                state["scores"]["EW"].as_i64()
            ),
            (Some(ns), Some(ew)),
            "seed {seed} deal {}: the totals are the piles' values",
            deal + 1
        );
        let last = deal == 3;
        assert_eq!(state["game_over"], json!(last));
        if last {
            let winners = match ns.cmp(&ew) {
                std::cmp::Ordering::Greater => json!(["NS"]),
                std::cmp::Ordering::Less => json!(["EW"]),
                std::cmp::Ordering::Equal => json!([]),
            };
            assert_eq!(state["winners"], winners);
        }
        dealer = (dealer + 1) % 4;
    }
}

#[test]
fn random_games_account_for_every_card_and_score_the_piles() {
    for seed in 1..=6 {
        random_game(seed);
    }
}

/// The deal of the simplest hand: each player his own suit's 13 ranks.
fn own_deal() -> Value {
    let mut deal = serde_json::Map::new();
    for (seat, suit) in OWN {
        let cards: Vec<String> = "AKQJT98765432"
            .chars()
            .map(|r| format!("{r}{suit}"))
            .collect();
        deal.insert(seat.into(), json!(cards));
    }
    Value::Object(deal)
}

fn refused(match_state: Value, options: Value) -> Vec<String> {
    let r = record(json!({"game": "calypso", "options": options, "dealer": "N",
                          "match_state": match_state, "deal": own_deal()}));
    engine::adjudicate(game(), &r)
        .map(|a| a.outcome)
        .expect_err("refused")
        .into_iter()
        .map(|e| e.pointer)
        .collect()
}

fn spades(n: usize) -> Vec<String> {
    "AKQJT98765432"
        .chars()
        .take(n)
        .map(|r| format!("{r}S"))
        .collect()
}

#[test]
fn carried_states_no_play_gives_are_refused() {
    // A won pile holding the owner's partner's suit (hearts are S's, N's partner: CA-4).
    assert_eq!(
        refused(
            json!({"hands_played": 1, "piles": {"N": {"won": ["AH"]}}}),
            json!({})
        ),
        ["/match_state/piles/N/won/0"]
    );
    // A rank twice in a calypso in progress.
    assert_eq!(
        refused(
            json!({"hands_played": 1, "piles": {"N": {"in_progress": ["AS", "AS"]}}}),
            json!({})
        ),
        ["/match_state/piles/N/in_progress/1"]
    );
    // Thirteen ranks in progress: complete, it would have been set aside.
    assert_eq!(
        refused(
            json!({"hands_played": 1, "piles": {"N": {"in_progress": spades(13)}}}),
            json!({})
        ),
        ["/match_state/piles/N/in_progress"]
    );
    // Five completed calypsos; a seat not at the table.
    assert_eq!(
        refused(
            json!({"hands_played": 1, "piles": {"N": {"calypsos": 5}, "P1": {}}}),
            json!({})
        ),
        ["/match_state/piles/N/calypsos", "/match_state/piles/P1"]
    );
    // A fifth AS, counting the completed calypsos: four calypsos (52 cards, one deal's worth)
    // and an AS in E's pile make 53 cards: the count and the copies are both wrong.
    assert_eq!(
        refused(
            json!({"hands_played": 1, "scores": {"NS": 3250, "EW": 10},
                   "piles": {"N": {"calypsos": 4}, "E": {"won": ["AS"]}}}),
            json!({})
        ),
        ["/match_state/piles", "/match_state/piles"]
    );
    // 52 cards in the piles, but a total the piles cannot give without `revoke_penalty`.
    let n_won: Vec<String> = "AKQJT98765432"
        .chars()
        .flat_map(|r| [format!("{r}D"), format!("{r}C")])
        .collect();
    let state = json!({"hands_played": 1, "scores": {"NS": 1160, "EW": 0},
                       "piles": {"N": {"calypsos": 1, "won": n_won}, "S": {"calypsos": 1}}});
    let r = record(
        json!({"game": "calypso", "dealer": "N", "match_state": state.clone(), "deal": own_deal()}),
    );
    assert!(
        engine::adjudicate(game(), &r).is_ok(),
        "1260 less one revoke's 100"
    );
    assert_eq!(
        refused(state, json!({"revoke_penalty": "none"})),
        ["/match_state/scores/NS"]
    );
    // An extra deal only while the totals are equal, and with nothing carried into it.
    assert_eq!(
        refused(
            json!({"hands_played": 4, "scores": {"NS": 10, "EW": 20}}),
            json!({"tie": "extra_deal"})
        ),
        ["/match_state/hands_played"]
    );
    assert_eq!(
        refused(
            json!({"hands_played": 4, "scores": {"NS": 20, "EW": 20}, "piles": {"N": {"calypsos": 1}}}),
            json!({"tie": "extra_deal"})
        ),
        ["/match_state/piles"]
    );
}

/// CA-e: E revokes with AD on N's lead of 2S (holding 3S) and corrects to KD, still of his own suit
/// while he holds a spade: the corrected card is a revoke again (judged on the hand at the
/// correction) and not trumping, so N's led own trump wins the trick.
#[test]
fn a_corrected_card_is_judged_afresh_for_trumping() {
    let mut deal = own_deal();
    let e: Vec<String> = "AKQJT98765432"
        .chars()
        .take(12)
        .map(|r| format!("{r}D"))
        .chain(["3S".to_string()])
        .collect();
    deal["E"] = json!(e);
    let r = record(
        json!({"game": "calypso", "dealer": "W", "deal": deal, "actions": [
        {"seat": "N", "play": "2S"}, {"seat": "E", "play": "AD"}, {"seat": "E", "correct": "KD"},
        {"seat": "S", "play": "2H"}, {"seat": "W", "play": "2C"}, {"seat": "N", "play": "AS"}]}),
    );
    let a = engine::adjudicate(game(), &r).unwrap();
    let a = serde_json::to_value(&a).unwrap();
    assert_eq!(a["corrected_revokes"][0]["corrected_to"], "KD");
    assert_eq!(a["irregularities"][0]["card"], "KD");
    assert_eq!(a["irregularities"][0]["action_index"], 2);
    assert_eq!(a["tricks"][0]["winner"], "N");
}
