//! The legal-actions endpoint at the largest positions of the games whose legal actions are many
//! (issue 22: every meld a hand can make). Tong-Its: the dealer holding all thirteen spades before
//! his first action (every run of 3 to 13 spades, every discard), and the last drawer of the stock
//! holding twelve spades and a club, each of whose thirteen discards ends the hand with every
//! player's least deadwood computed. Read, replay, view and write the answer, as the endpoint does.
//! `cargo bench --bench legal_actions -- --quick` for a short run.

use arbiter::api::problem::parse_json;
use arbiter::engine;
use arbiter::record::HandRecord;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

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
fn positions() -> Vec<(&'static str, Value)> {
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
        ("dealer-thirteen-spades", tong_its(json!({}), vec![])),
        (
            "last-drawer-every-discard-compares",
            tong_its(json!({"all_compare_if_none_opened": true}), actions),
        ),
    ]
}

fn legal_actions(c: &mut Criterion) {
    let game = arbiter::games::find("tong-its").unwrap();
    let mut group = c.benchmark_group("tong-its-legal-actions");
    for (name, record) in positions() {
        let text = serde_json::to_vec(&record).unwrap();
        let view = engine::legal_actions(game, &parse_json::<HandRecord>(&text).unwrap()).unwrap();
        assert!(
            view.legal.len() > 13,
            "{name}: {} legal actions",
            view.legal.len()
        );
        group.bench_function(name, |b| {
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
