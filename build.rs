//! Embeds every `fixtures/<game>/*.json` in the binary as the examples the director's desk offers
//! (`GET /v1/games/{game}/examples`): generates `$OUT_DIR/examples.rs`, a sorted table of
//! `(game, name, include_str!(file))`, so a new fixture is an example without touching the code.

use std::path::Path;
use std::{env, fs};

fn main() {
    // A directory here makes Cargo rerun on any change beneath it, added files included.
    println!("cargo:rerun-if-changed=fixtures");
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("set by Cargo")).join("fixtures");
    let mut files = Vec::new();
    for dir in fs::read_dir(&root).expect("fixtures/ is readable") {
        let dir = dir.expect("a fixtures/ entry").path();
        if !dir.is_dir() {
            continue;
        }
        let game = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        for file in fs::read_dir(&dir).expect("a game's fixtures are readable") {
            let file = file.expect("a fixture entry").path();
            if file.extension().is_some_and(|e| e == "json") {
                let name = file
                    .file_stem()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                files.push((game.clone(), name, file));
            }
        }
    }
    files.sort();
    let mut out = String::from("&[\n");
    for (game, name, file) in files {
        out += &format!(
            "    ({game:?}, {name:?}, include_str!({:?})),\n",
            file.display().to_string()
        );
    }
    out += "]\n";
    let dest = Path::new(&env::var("OUT_DIR").expect("set by Cargo")).join("examples.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}
