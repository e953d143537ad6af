//! The legal-actions endpoint at the largest positions of the games whose legal actions are many
//! (issue 22: every meld a hand can make, under 50 ms). Read, replay, view and write the answer, as
//! the endpoint does. Tong-Its: the dealer holding all thirteen spades before his first action
//! (every run of 3 to 13 spades, every discard), and the last drawer of the stock holding twelve
//! spades and a club, each of whose thirteen discards ends the hand with every player's least
//! deadwood computed. Zetema: the longest record (fixture 01, two players, at its 60th action) and
//! the widest choice (fixture 05 before its action 10: every declaration of one to five marriages,
//! with and without pulls). Hand and Foot: N at his 21st turn, having kept one card of each draw,
//! holding 33 cards: thirteen kings and thirteen queens of every suit, two jokers and five 2s of
//! four suits (every meld of kings, queens and wild cards, each choice of cards once), his side
//! open (S laid three aces) or not (every meld then asks whether the opening can still reach 50).
//! `cargo bench --bench legal_actions -- --quick` for a short run.

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
            "hand-and-foot",
            "thirty-three-cards-side-open",
            hand_and_foot(true),
        ),
        (
            "hand-and-foot",
            "thirty-three-cards-opening",
            hand_and_foot(false),
        ),
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

/// Hand and Foot's largest hand: W deals; N holds KS KH KD KC QS QH QD QC JK 2S 2H and keeps, of
/// each draw from stock 1, the first card (the keepers below), discarding the second; E, S and W
/// draw two and discard the first. S holds AS AH AD and, where `s_opens`, lays them at his first
/// turn. The record stops after N's 21st draw. Red 3s lie in stock 2, never drawn.
fn hand_and_foot(s_opens: bool) -> Value {
    let mut left: Vec<String> = Vec::new();
    for rank in "23456789TJQKA".chars() {
        for suit in "SHDC".chars() {
            left.extend(std::iter::repeat_n(format!("{rank}{suit}"), 5));
        }
    }
    left.extend(std::iter::repeat_n("JK".to_string(), 10));
    let mut take = |card: &str| {
        let at = left.iter().position(|c| c == card).unwrap();
        left.remove(at)
    };
    let named = |cards: &str, take: &mut dyn FnMut(&str) -> String| -> Vec<String> {
        cards.split_whitespace().map(take).collect()
    };
    let n_hand = named("KS KH KD KC QS QH QD QC JK 2S 2H", &mut take);
    let s_aces = named("AS AH AD", &mut take);
    let mut keepers = named(
        "KS KH KD KC KS KH KD KC QS QH QD QC QS QH QD QC JK 2S 2D 2C KS QS",
        &mut take,
    );
    // The rest, red 3s aside for stock 2, deals the other cards in order.
    let (red, mut junk): (Vec<String>, Vec<String>) =
        left.into_iter().partition(|c| c == "3H" || c == "3D");
    let mut deal_junk = |n: usize| -> Vec<String> { junk.drain(..n).collect() };
    let mut hand = |first: Vec<String>, extra: usize| -> Vec<String> {
        let mut cards = first;
        let hand_size = 11 - cards.len();
        cards.extend(deal_junk(hand_size + extra));
        cards
    };
    let deal = json!({
        "N": hand(n_hand, 11),
        "E": hand(Vec::new(), 11),
        "S": hand(s_aces, 11),
        "W": hand(Vec::new(), 11),
    });
    let face_up = deal_junk(1);
    let mut stock = Vec::new();
    let mut actions = vec![];
    for seat in ["N", "E", "S", "W"] {
        actions.push(json!({"seat": seat, "pull": 22}));
    }
    for round in 0..21 {
        for seat in ["N", "E", "S", "W"] {
            let drawn = if seat == "N" {
                let keeper = keepers.remove(0);
                let second = if round == 20 {
                    keepers.remove(0)
                } else {
                    deal_junk(1).remove(0)
                };
                vec![keeper, second]
            } else {
                deal_junk(2)
            };
            stock.extend(drawn.iter().cloned());
            actions.push(json!({"seat": seat, "draw": 1}));
            if round == 20 {
                break;
            }
            if seat == "S" && round == 0 && s_opens {
                actions.push(json!({"seat": "S", "meld": {"cards": ["AS", "AH", "AD"]}}));
            }
            let discard = if seat == "N" { &drawn[1] } else { &drawn[0] };
            actions.push(json!({"seat": seat, "discard": discard}));
        }
    }
    let mut second_stock = red;
    second_stock.extend(junk);
    json!({
        "game": "hand-and-foot",
        "dealer": "W",
        "deal": deal,
        "face_up": face_up,
        "stock": stock,
        "second_stock": second_stock,
        "actions": actions,
    })
}

fn legal_actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal-actions");
    for (id, name, record) in positions() {
        let game = arbiter::games::find(id).unwrap();
        let name = format!("{id}/{name}");
        let text = serde_json::to_vec(&record).unwrap();
        let record = parse_json::<HandRecord>(&text).unwrap();
        let view = engine::legal_actions(game, &record).unwrap();
        let ruling = engine::adjudicate(game, &record).unwrap();
        // A position is a record that stops mid-hand: `incomplete_hand` is the one error it may show.
        assert!(
            ruling
                .record_error
                .as_ref()
                .is_none_or(|error| error.code == "incomplete_hand"),
            "{name}: {:?}",
            ruling.record_error
        );
        println!(
            "{name}: {} legal actions, {} to act",
            view.legal.len(),
            view.phase
        );
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
