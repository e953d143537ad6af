//! Trains the dictionary the league store compresses hands with (`src/league/hands.zdict`, see
//! `src/league/packed.rs`): records and rulings of random legal hands of every game, dealt and
//! played from the game's own setup and legal actions with fixed seeds, as the store writes them.
//!
//! `cargo run --release --example train_dictionary -- OUT` writes it to OUT. A dictionary hands
//! were stored with is never replaced: a new one is added under the next number.

#[path = "../tests/common/mod.rs"]
mod common;

use arbiter::engine;
use common::random::random_hand;

/// Hands of each game: enough for every game's keys and codes to be seen often.
const HANDS_PER_GAME: u64 = 300;
/// zstd's usual dictionary size: large enough for 28 games' vocabularies.
const SIZE: usize = 112_640;

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: train_dictionary OUT");
    let mut samples: Vec<Vec<u8>> = Vec::new();
    for game in arbiter::games::all() {
        for seed in 1..=HANDS_PER_GAME {
            let Some(mut record) = random_hand(*game, seed) else {
                continue;
            };
            let Ok(ruling) = engine::adjudicate(*game, &record) else {
                continue;
            };
            // The store keeps a hand posted to a match, which names neither game nor options.
            record.game = None;
            samples.push(serde_json::to_vec(&record).unwrap());
            samples.push(serde_json::to_vec(&ruling).unwrap());
        }
    }
    let dictionary = zstd::dict::from_samples(&samples, SIZE).expect("zstd trains a dictionary");
    std::fs::write(&out, &dictionary).unwrap();
    eprintln!(
        "{} samples, {:.1} MB, dictionary {} bytes in {out}",
        samples.len(),
        samples.iter().map(Vec::len).sum::<usize>() as f64 / 1e6,
        dictionary.len()
    );
}
