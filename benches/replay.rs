//! Replay throughput per game, in-engine (record already read in the game's verbs) and end to end
//! (JSON text in, JSON text out, as the API reads and writes it), over two sets of hands: the
//! game's fixtures (`<game>/fixtures`: a mix whose fouls and record errors make many hands short)
//! and full random legal hands (`<game>/random`: dealt from the game's declared setup under its
//! default options and played out by its own legal actions, fixed seeds, the same on every run).
//! For the random hands, `serde-json-floor` times serde_json alone scanning the same bodies and
//! writing the same rulings: what no reader or writer built on serde_json can go below.
//! A game's random hands are played out when one of its benchmarks first runs, so a filtered run
//! (or a profile of one) does only that game's work. Criterion prints the time per pass and hands
//! per second ("thrpt", elements = hands);
//! `cargo bench --bench replay -- --quick` for a short run. `legal-actions` times the legal-actions
//! endpoint's work at each game's slowest fixture position (`-- legal-actions` for those alone).
//! `ARBITER_BENCH_FIXTURES=DIR` replays the fixtures under DIR instead of the repository's (to
//! compare two versions of the engine on the same hands).

#[path = "../tests/common/mod.rs"]
mod common;

use arbiter::api::hand_record;
use arbiter::api::problem::parse_json;
use arbiter::engine::{self, Game};
use arbiter::record::HandRecord;
use common::random::{Rng, play_on, setup_deal};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use std::cell::LazyCell;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The fixture records of `game` that the engine accepts (refusal fixtures are left out).
fn records(game: &str) -> Vec<(Vec<u8>, HandRecord)> {
    let dir = match std::env::var_os("ARBITER_BENCH_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
    }
    .join(game);
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir(dir) else {
        return out; // a game the fixture set predates
    };
    let mut files: Vec<_> = dir.map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        let text = serde_json::to_vec(&v["record"]).unwrap();
        if let Ok(r) = parse_json::<HandRecord>(&text)
            && engine::adjudicate(arbiter::games::find(game).unwrap(), &r).is_ok()
        {
            out.push((text, r));
        }
    }
    out
}

/// Full random legal hands of each game: this many, from seeds 1 up.
const RANDOM_HANDS: u64 = 100;

/// `RANDOM_HANDS` random legal hands of `game`, as JSON text and read: the deals now, each played
/// out by the game's legal actions when `play` is called.
fn random_hands(game: &'static dyn Game) -> (usize, impl FnOnce() -> Vec<(Vec<u8>, HandRecord)>) {
    let deals: Vec<_> = (1..=RANDOM_HANDS)
        .filter_map(|seed| Some((seed, setup_deal(game, &BTreeMap::new(), seed)?)))
        .collect();
    let count = deals.len();
    let play = move || {
        (deals.into_iter())
            .map(|(seed, deal)| {
                let (record, _) = play_on(game, deal, &mut Rng(seed | 1));
                (serde_json::to_vec(&record).unwrap(), record)
            })
            .collect()
    };
    (count, play)
}

/// A benchmark's hands, handed over when one of its group's benchmarks first runs. The random
/// hands are played out only then, so a run filtered to a few benchmarks (or a profile of one)
/// does not play out every other game's hands first; the fixtures are read up front, as their
/// number is the group's throughput.
type Hands = LazyCell<Vec<(Vec<u8>, HandRecord)>, Box<dyn FnOnce() -> Vec<(Vec<u8>, HandRecord)>>>;

fn replay(c: &mut Criterion) {
    for game in arbiter::games::all() {
        let id = game.info().id;
        let fixtures = records(id);
        let (random, play) = random_hands(*game);
        let sets: [(&str, usize, Hands); 2] = [
            (
                "fixtures",
                fixtures.len(),
                LazyCell::new(Box::new(move || fixtures)),
            ),
            ("random", random, LazyCell::new(Box::new(play))),
        ];
        for (set, count, hands) in sets {
            if count == 0 {
                continue;
            }
            let mut group = c.benchmark_group(format!("{id}/{set}"));
            group.throughput(Throughput::Elements(count as u64));
            let read = LazyCell::new(|| -> Vec<_> {
                hands.iter().map(|(_, r)| game.read(r).unwrap()).collect()
            });
            group.bench_function("in-engine", |b| {
                let read = &*read;
                b.iter(|| {
                    for r in read {
                        black_box(black_box(r).adjudicate().unwrap());
                    }
                })
            });
            group.bench_function("end-to-end", |b| {
                let hands = &*hands;
                b.iter(|| {
                    for (text, _) in hands {
                        let a = hand_record(*game, black_box(text))
                            .unwrap()
                            .adjudicate()
                            .unwrap();
                        black_box(arbiter::json::to_vec(&a).unwrap());
                    }
                })
            });
            if set == "random" {
                // Not arbiter's work: what serde_json alone takes to scan the same bodies (into
                // `IgnoredAny`) and to write the same rulings, for comparison with arbiter's own
                // reader and writer (`json`).
                let rulings = LazyCell::new(|| -> Vec<_> {
                    read.iter().map(|r| r.adjudicate().unwrap()).collect()
                });
                group.bench_function("serde-json-floor", |b| {
                    let (hands, rulings) = (&*hands, &*rulings);
                    b.iter(|| {
                        for ((text, _), ruling) in hands.iter().zip(rulings) {
                            black_box(
                                serde_json::from_slice::<IgnoredAny>(black_box(text)).unwrap(),
                            );
                            black_box(serde_json::to_vec(black_box(ruling)).unwrap());
                        }
                    })
                });
            }
            group.finish();
        }
    }
}

/// The legal-actions endpoint's work (replay to the position, then every legal action) at each
/// game's slowest fixture position: the prefix of a fixture record that took longest in one timed
/// pass.
fn legal_actions(c: &mut Criterion) {
    for game in arbiter::games::all() {
        let id = game.info().id;
        let mut slowest: Option<(Duration, usize, HandRecord)> = None;
        for (_, record) in records(id) {
            for n in 0..=record.actions.len() {
                let mut prefix = record.clone();
                prefix.actions.truncate(n);
                let start = Instant::now();
                let Ok(view) = engine::legal_actions(*game, &prefix) else {
                    continue;
                };
                let took = start.elapsed();
                if slowest.as_ref().is_none_or(|(most, _, _)| took > *most) {
                    slowest = Some((took, view.legal.len(), prefix));
                }
            }
        }
        let Some((_, legal, position)) = slowest else {
            continue;
        };
        let at = position.actions.len();
        c.bench_function(
            &format!("{id}/legal-actions (after {at} actions, {legal} legal)"),
            |b| b.iter(|| black_box(engine::legal_actions(*game, black_box(&position)).unwrap())),
        );
    }
}

criterion_group!(benches, replay, legal_actions);
criterion_main!(benches);
