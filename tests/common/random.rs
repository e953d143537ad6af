//! Random legal hands, played by choosing among the legal actions the engine offers: used by the
//! property tests and the league benchmark.

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine;
use arbiter::record::{Action, HandRecord};
use serde_json::json;

/// A small deterministic generator: proptest supplies the seed, and shrinks it.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `cards` in a random order.
pub fn shuffled(mut cards: Vec<Card>, rng: &mut Rng) -> Vec<Card> {
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i + 1));
    }
    cards
}

/// A random deal for `game`, the dealer's last card face up.
fn deal(game: &str, rng: &mut Rng) -> HandRecord {
    let (pack, per) = if game == "malilla" {
        (packs::latin40(), 10)
    } else {
        (packs::standard52(), 13)
    };
    let cards = shuffled(pack.cards.iter().collect(), rng);
    let seats = ["N", "E", "S", "W"];
    let dealer = seats[rng.below(4)];
    let mut deal = serde_json::Map::new();
    for (i, s) in seats.iter().enumerate() {
        deal.insert(s.to_string(), json!(cards[i * per..(i + 1) * per]));
    }
    let face_up = deal[dealer][per - 1].clone();
    let record = json!({"game": game, "dealer": dealer, "deal": deal, "face_up": [face_up]});
    parse_json(&serde_json::to_vec(&record).unwrap()).unwrap()
}

/// A random legal Malilla or Stubs & Spoils hand.
pub fn random_legal_hand(game: &str, seed: u64) -> HandRecord {
    let mut rng = Rng(seed | 1);
    let record = deal(game, &mut rng);
    play_out(record, &mut rng)
}

/// Plays `record` (a dealt hand, for the game it names) to the end by choosing among the legal
/// actions the engine offers at every step (bids, decisions and plays; never a correction),
/// keeping the replay between steps.
pub fn play_out(mut record: HandRecord, rng: &mut Rng) -> HandRecord {
    let g =
        arbiter::games::find(record.game.as_deref().expect("the record names its game")).unwrap();
    let mut replay = engine::Replay::start(g, &record).expect("a legal position");
    loop {
        let view = replay.view();
        let plays: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb != "correct")
            .collect();
        if plays.is_empty() {
            assert_eq!(
                view.phase, "over",
                "no legal action before the hand is over"
            );
            return record;
        }
        let action = plays[rng.below(plays.len())].clone();
        record.actions.push(action.clone());
        replay.apply(action).expect("an offered action is taken");
    }
}
