//! Random deals of any game from its declared setup, and random legal hands played by choosing
//! among the legal actions the engine offers: used by the conformance kit, the property tests and
//! the replay and league benchmarks.

use arbiter::api::problem::parse_json;
use arbiter::cards::{Card, packs};
use arbiter::engine::deal::{Count, Part};
use arbiter::engine::{Adjudication, Game, Locus, Options, Replay};
use arbiter::record::{Action, HandRecord};
use serde_json::{Value, json};
use std::collections::BTreeMap;

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
/// actions the engine offers at every step (bids, decisions and plays; never a correction).
pub fn play_out(record: HandRecord, rng: &mut Rng) -> HandRecord {
    let game = record.game.as_deref().expect("the record names its game");
    play_on(arbiter::games::find(game).unwrap(), record, rng).0
}

/// A random deal of `game` under `options` (`seed` fixes it), from its declared setup
/// (`Rules::setup`): the pack shuffled, each seat dealt its hand, each declared part from the rest
/// of the pack (all of it for a part bounded by what the pack leaves, else the fewest cards the
/// game accepts; the dealer's own card for a turned dealer's card). `None` when the game refuses
/// the options as a whole (three-player options at four).
pub fn setup_deal(
    game: &dyn Game,
    options: &BTreeMap<String, Value>,
    seed: u64,
) -> Option<HandRecord> {
    let resolved = Options::resolve(game.info().options, options, "/options").ok()?;
    let table = game.table(&resolved);
    let setup = game.setup(&resolved);
    let seats: Vec<_> = table.seats().collect();
    let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    // A deal the rules cannot produce although its counts fit (Hand and Foot's upcard,
    // which is never a wild card or a red 3) is shuffled again, a few times.
    let mut reshuffles = 0;
    // The fewest cards (or deals) each declared part may hold, raised where refused.
    let mut counts: Vec<u32> = setup.parts.iter().map(|h| h.count.min()).collect();
    loop {
        let pack: Vec<Card> = setup
            .pack
            .cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c, setup.pack.count(c) as usize))
            .collect();
        let mut rest = shuffled(pack, &mut Rng(rng.0)).into_iter();
        let dealer = seats[Rng(rng.0).below(seats.len())];
        let hand = |rest: &mut std::vec::IntoIter<Card>| -> BTreeMap<String, Vec<Card>> {
            seats
                .iter()
                .map(|s| {
                    (
                        s.to_string(),
                        rest.by_ref().take(setup.hand.of(*s, dealer)).collect(),
                    )
                })
                .collect()
        };
        let deal = hand(&mut rest);
        let mut fields = serde_json::Map::new();
        for (h, &count) in setup.parts.iter().zip(&counts) {
            let value = match (h.part, h.count) {
                (Part::DealersCard, _) => {
                    json!(
                        deal[&dealer.to_string()]
                            .iter()
                            .rev()
                            .take(count as usize)
                            .collect::<Vec<_>>()
                    )
                }
                (Part::CutCard, _) => json!(count),
                (Part::Deals, _) => {
                    json!((0..count).map(|_| hand(&mut rest)).collect::<Vec<_>>())
                }
                (_, Count::Rest { .. }) => json!(rest.by_ref().collect::<Vec<_>>()),
                _ => json!(rest.by_ref().take(count as usize).collect::<Vec<_>>()),
            };
            fields.insert(h.part.field().into(), value);
        }
        let mut record =
            json!({"game": game.info().id, "options": options, "dealer": dealer, "deal": deal});
        record.as_object_mut().unwrap().extend(fields);
        let record: HandRecord = serde_json::from_value(record).expect("a record");
        match Replay::start(game, &record) {
            Ok(_) => return Some(record),
            // A combination of options the game refuses (three-player options at four).
            Err(errors) if errors.iter().any(|e| e.pointer.starts_with("/options")) => {
                return None;
            }
            Err(errors) => {
                // Raise the count of the part refused, if its bounds allow.
                let raised = setup.parts.iter().zip(counts.iter_mut()).find(|(h, c)| {
                    errors
                        .iter()
                        .any(|e| e.pointer.starts_with(&format!("/{}", h.part.field())))
                        && **c < h.count.max(&setup.pack)
                });
                match raised {
                    Some((_, c)) => *c += 1,
                    None if reshuffles < 20 => {
                        reshuffles += 1;
                        rng = Rng(rng.0.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
                    }
                    None => {
                        panic!(
                            "{} {options:?}: a deal from the declared setup is refused: {errors:?}",
                            game.info().id
                        )
                    }
                }
            }
        }
    }
}

/// A full random legal hand of `game` under its default options: dealt from `seed` (`setup_deal`)
/// and played out by the game's legal actions from the same seed (the replay bench's `random`
/// hands, seeds 1 up). `None` where the game's setup deals nothing from the seed.
pub fn random_hand(game: &dyn Game, seed: u64) -> Option<HandRecord> {
    let deal = setup_deal(game, &BTreeMap::new(), seed)?;
    Some(play_on(game, deal, &mut Rng(seed | 1)).0)
}

/// Plays `record` on from where it stands by the engine's legal actions (never a correction),
/// keeping the replay between steps. Returns the record played and the step-by-step ruling.
pub fn play_on(
    game: &dyn Game,
    mut record: HandRecord,
    rng: &mut Rng,
) -> (HandRecord, Adjudication) {
    let mut replay = Replay::start(game, &record).expect("a legal position");
    loop {
        let view = replay.view();
        // A game that says where it stands without building its view says what the view shows.
        assert_eq!(
            replay.locus(),
            Locus::of(&view),
            "{}: the locus at action {}",
            game.info().id,
            record.actions.len()
        );
        let offered: Vec<Action> = view
            .legal
            .into_iter()
            .filter(|a| a.kind.verb != "correct")
            .collect();
        if offered.is_empty() || record.actions.len() >= arbiter::record::MAX_ACTIONS {
            let a = replay.finish(None);
            // No action is due but the hand is not over: the record lacks cards the play needs
            // (a fixture's stock listing only the upcards its own auction turned).
            if view.phase != "over" {
                assert_eq!(
                    a.record_error.as_ref().map(|e| e.code),
                    Some("incomplete_hand"),
                    "{}: stuck in phase {}",
                    game.info().id,
                    view.phase
                );
            }
            return (record, a);
        }
        let action = offered[rng.below(offered.len())].clone();
        record.actions.push(action.clone());
        if let Err(e) = replay.apply(action.clone()) {
            panic!(
                "{}: offered action {action:?} refused: {} ({})",
                game.info().id,
                e.code,
                e.detail
            );
        }
    }
}
