//! Replays a game's 100 full random legal hands (the replay bench's `random` set: dealt from the
//! game's declared setup under its default options, played out by its own legal actions, seeds 1
//! to 100) once, in-engine or end to end, in a function of its own, for `benches/instructions.sh`
//! to count the instructions in it with callgrind.
//!
//! `instructions GAME in-engine|end-to-end` prints the number of hands replayed; `instructions
//! games` lists the games.

#[path = "../tests/common/mod.rs"]
mod common;

use arbiter::api::hand_record;
use arbiter::engine::{Game, Recorded};
use common::random::random_hand;
use std::hint::black_box;

/// The records already read in the game's verbs, each replayed and ruled on.
#[inline(never)]
fn in_engine(read: &[Box<dyn Recorded + '_>]) {
    for r in read {
        black_box(black_box(r).adjudicate().unwrap());
    }
}

/// Each record as JSON text read, replayed and ruled on, and the ruling written as JSON text, as
/// `POST /v1/games/{game}/adjudications` does.
#[inline(never)]
fn end_to_end(game: &'static dyn Game, texts: &[Vec<u8>]) {
    for text in texts {
        let ruling = hand_record(game, black_box(text))
            .unwrap()
            .adjudicate()
            .unwrap();
        black_box(arbiter::json::to_vec(&ruling).unwrap());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: instructions GAME in-engine|end-to-end, or instructions games";
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["games"] => {
            for game in arbiter::games::all() {
                println!("{}", game.info().id);
            }
        }
        [id, path @ ("in-engine" | "end-to-end")] => {
            let game = arbiter::games::find(id).unwrap_or_else(|| panic!("no game '{id}'"));
            let records: Vec<_> = (1..=100)
                .filter_map(|seed| random_hand(game, seed))
                .collect();
            if path == "in-engine" {
                let read: Vec<_> = records.iter().map(|r| game.read(r).unwrap()).collect();
                in_engine(&read);
            } else {
                let texts: Vec<_> = records
                    .iter()
                    .map(|r| serde_json::to_vec(r).unwrap())
                    .collect();
                end_to_end(game, &texts);
            }
            println!("{}", records.len());
        }
        _ => panic!("{usage}"),
    }
}
