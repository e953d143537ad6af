//! The legal-actions endpoint's work (`engine::legal_actions`: the record replayed, then every
//! candidate tried on a copy of the hand) at the largest positions of the games whose positions
//! offer many actions. Zetema (issue 22: under 50 ms): the longest record (fixture 01, two
//! players, at its 60th action: 60 actions replayed, five cards on the piles' way to zetemas) and
//! the widest choice (fixture 05 before its action 10: seven cards with four kings and a queen in
//! hand, four queens and a king on their piles, so every declaration of one to five marriages,
//! with and without pulls, is tried). `cargo bench --bench legal_actions -- --quick` prints the
//! time per answer.

use arbiter::api::problem::parse_json;
use arbiter::engine;
use arbiter::record::HandRecord;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

/// Fixture `name` of `game`, its actions cut to the first `step`.
fn position(game: &str, name: &str, step: usize) -> HandRecord {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game)
        .join(name);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["record"]["actions"]
        .as_array_mut()
        .unwrap()
        .truncate(step);
    parse_json::<HandRecord>(&serde_json::to_vec(&v["record"]).unwrap()).unwrap()
}

fn legal_actions(c: &mut Criterion) {
    let game = arbiter::games::find("zetema").unwrap();
    let mut group = c.benchmark_group("zetema-legal-actions");
    for (label, name, step) in [
        (
            "longest-record",
            "01-two-players-whole-hand-thirteen-zetemas.json",
            60,
        ),
        ("five-marriages", "05-all-five-marriages-150-flat.json", 10),
    ] {
        let record = position("zetema", name, step);
        let offered = engine::legal_actions(game, &record).unwrap().legal.len();
        println!("zetema {label}: {offered} legal actions");
        group.bench_function(label, |b| {
            b.iter(|| black_box(engine::legal_actions(game, black_box(&record)).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, legal_actions);
criterion_main!(benches);
