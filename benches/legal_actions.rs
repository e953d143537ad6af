//! The legal-actions endpoint at the largest positions of the games whose legal actions are many
//! (issue 22: every meld a hand can make, under 50 ms). Read, replay, view and write the answer, as
//! the endpoint does. Tong-Its: the dealer holding all thirteen spades before his first action
//! (every run of 3 to 13 spades, every discard), and the last drawer of the stock holding twelve
//! spades and a club, each of whose thirteen discards ends the hand with every player's least
//! deadwood computed. Zetema: the longest record (fixture 01, two players, at its 60th action) and
//! the widest choice (fixture 05 before its action 10: every declaration of one to five marriages,
//! with and without pulls). `cargo bench --bench legal_actions -- --quick` for a short run.

use arbiter::api::problem::parse_json;
use arbiter::engine;
use arbiter::record::HandRecord;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;
use std::path::Path;

fn suit(s: char, ranks: &str) -> Vec<String> {
    ranks.chars().map(|r| format!("{r}{s}")).collect()
}

/// The dealer P1 holds the thirteen spades, P2 A-Q of hearts, P3 A-Q of diamonds; the stock is
/// KH, KD and the clubs. `actions` as given.
fn tong_its(options: Value, actions: Vec<Value>) -> Value {
    let mut stock = vec!["KH".to_string(), "KD".to_string()];
    stock.extend(suit('C', "A23456789TJQK"));
    json!({
        "game": "tong-its",
        "options": options,
        "dealer": "P1",
        "deal": {
            "P1": suit('S', "A23456789TJQK"),
            "P2": suit('H', "A23456789TJQ"),
            "P3": suit('D', "A23456789TJQ"),
        },
        "stock": stock,
        "actions": actions,
    })
}

/// The first position, and the last drawer's: P1 discards KS, then every turn draws the stock's
/// top card and discards it, P1 drawing the 15th and last card (KC) and not yet discarding.
fn positions() -> Vec<(&'static str, &'static str, Value)> {
    let mut actions = vec![json!({"seat": "P1", "discard": "KS"})];
    let mut stock = vec!["KH".to_string(), "KD".to_string()];
    stock.extend(suit('C', "A23456789TJQK"));
    let seats = ["P2", "P3", "P1"];
    for (i, card) in stock.iter().enumerate() {
        let seat = seats[i % 3];
        actions.push(json!({"seat": seat, "draw": {"from": "stock"}}));
        if i + 1 < stock.len() {
            actions.push(json!({"seat": seat, "discard": card}));
        }
    }
    vec![
        (
            "tong-its",
            "dealer-thirteen-spades",
            tong_its(json!({}), vec![]),
        ),
        (
            "tong-its",
            "last-drawer-every-discard-compares",
            tong_its(json!({"all_compare_if_none_opened": true}), actions),
        ),
        (
            "zetema",
            "longest-record",
            fixture_at("01-two-players-whole-hand-thirteen-zetemas.json", 60),
        ),
        (
            "zetema",
            "five-marriages",
            fixture_at("05-all-five-marriages-150-flat.json", 10),
        ),
    ]
}

/// Zetema's fixture `name`, its actions cut to the first `step`.
fn fixture_at(name: &str, step: usize) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/zetema")
        .join(name);
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    v["record"]["actions"]
        .as_array_mut()
        .unwrap()
        .truncate(step);
    v["record"].take()
}

fn legal_actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal-actions");
    for (id, name, record) in positions() {
        let game = arbiter::games::find(id).unwrap();
        let name = format!("{id}/{name}");
        let text = serde_json::to_vec(&record).unwrap();
        let view = engine::legal_actions(game, &parse_json::<HandRecord>(&text).unwrap()).unwrap();
        println!("{name}: {} legal actions", view.legal.len());
        group.bench_function(&name, |b| {
            b.iter(|| {
                let record = parse_json::<HandRecord>(black_box(&text)).unwrap();
                let view = engine::legal_actions(game, &record).unwrap();
                black_box(serde_json::to_vec(&view).unwrap());
            })
        });
    }
    group.finish();
}

criterion_group!(benches, legal_actions);
criterion_main!(benches);
