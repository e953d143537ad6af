//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test crate uses a different part

pub mod random;

use arbiter::engine::{self, Adjudication, GameInfo, MatchState, Options, Seat};
use arbiter::league::{self, NewLeague, NewSession, Store};
use arbiter::record::HandRecord;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Every fixture file, sorted, with its game id (the folder name).
pub fn fixtures() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("fixtures/") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let game = dir.file_name().unwrap().to_string_lossy().to_string();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "json") {
                out.push((game.clone(), f));
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// `expected` is a subset of `actual`: objects recursively, arrays element by element with equal
/// lengths, `null` matching an absent key. Returns the path of the first difference.
pub fn subset(expected: &Value, actual: Option<&Value>, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Null, None | Some(Value::Null)) => Ok(()),
        (Value::Object(e), Some(Value::Object(a))) => {
            for (k, v) in e {
                subset(v, a.get(k), &format!("{path}/{k}"))?;
            }
            Ok(())
        }
        (Value::Array(e), Some(Value::Array(a))) => {
            if e.len() != a.len() {
                return Err(format!(
                    "{path}: expected {} items, got {}: {}",
                    e.len(),
                    a.len(),
                    Value::Array(a.clone())
                ));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                subset(ev, Some(av), &format!("{path}/{i}"))?;
            }
            Ok(())
        }
        (e, Some(a)) if e == a => Ok(()),
        (e, a) => Err(format!(
            "{path}: expected {e}, got {}",
            a.map_or("nothing".to_string(), |a| a.to_string())
        )),
    }
}

/// Whether the tests run on PostgreSQL (`ARBITER_TEST_POSTGRES`), where a test that looks into the
/// SQLite file itself, saying `why`, does not apply (it runs on SQLite, in the same CI run).
pub fn skipped_on_postgres(why: &str) -> bool {
    let on = postgres_server().is_some();
    if on {
        eprintln!("skipped on PostgreSQL: the test {why}");
    }
    on
}

/// The PostgreSQL server the tests run on (`ARBITER_TEST_POSTGRES`, `postgres://user@host:port`),
/// if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("ARBITER_TEST_POSTGRES").ok()
}

/// The store a test keeps in `dir`: see `database_in`.
pub fn store_in(dir: &Path) -> Store {
    Store::connect(&database_in(dir)).expect("a new store")
}

/// The league database a test keeps in `dir`, as `--db` names it: the SQLite file `league.db`
/// there, or, when `ARBITER_TEST_POSTGRES` names a PostgreSQL server (`postgres://user@host:port`),
/// a database of its own there named after `dir` (asked again, the same database).
pub fn database_in(dir: &Path) -> String {
    let Some(server) = postgres_server() else {
        let file = dir.join("league.db");
        return file.to_str().expect("a UTF-8 temporary path").to_string();
    };
    let name: String = dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let name = format!("t{name}");
    // A database of its own, made on a runtime of the helper's own (the test's may be running).
    let admin = format!("{server}/postgres");
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async {
                    let (client, connection) =
                        tokio_postgres::connect(&admin, tokio_postgres::NoTls)
                            .await
                            .expect("the test PostgreSQL server");
                    tokio::spawn(connection);
                    let exists = client
                        .query_opt("SELECT 1 FROM pg_database WHERE datname = $1", &[&name])
                        .await
                        .unwrap()
                        .is_some();
                    if !exists {
                        client
                            .batch_execute(&format!("CREATE DATABASE {name}"))
                            .await
                            .unwrap();
                    }
                })
            })
            .join()
            .unwrap()
    });
    format!("{server}/{name}")
}

/// The app's state on a fresh league database in a temporary directory (kept while the guard lives).
pub fn league_state() -> (arbiter::api::league::LeagueState, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = store_in(dir.path());
    let state = arbiter::api::league::LeagueState::new(store, Some("operator-token".into()));
    (state, dir)
}

/// The sheet rows (`match,hand,dealer,seat,action,value`) of one hand record (JSON), as a
/// scorekeeper would type them: the deal, the face-up card, then every action.
pub fn sheet_rows(label: &str, number: usize, r: &Value) -> Vec<String> {
    let dealer = r["dealer"].as_str().unwrap();
    let mut rows = Vec::new();
    for (seat, cards) in r["deal"].as_object().unwrap() {
        let cards: Vec<&str> = cards
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        rows.push(format!(
            "{label},{number},{dealer},{seat},deal,{}",
            cards.join(" ")
        ));
    }
    for card in r["face_up"].as_array().unwrap() {
        rows.push(format!(
            "{label},{number},{dealer},{dealer},face_up,{}",
            card.as_str().unwrap()
        ));
    }
    for a in r["actions"].as_array().unwrap() {
        let (verb, value) = a
            .as_object()
            .unwrap()
            .iter()
            .find(|(k, _)| *k != "seat")
            .unwrap();
        rows.push(format!(
            "{label},{number},,{},{verb},{}",
            a["seat"].as_str().unwrap(),
            value.as_str().unwrap()
        ));
    }
    rows
}

/// The codes `a` reports that its game does not declare in `GameInfo` (contract clause 11).
pub fn undeclared_codes(info: &GameInfo, a: &Adjudication) -> Vec<&'static str> {
    let irregularities = a
        .irregularities
        .iter()
        .map(|i| (i.code, info.irregularities));
    let errors = a.record_error.iter().map(|e| (e.code, info.record_errors));
    let events = a.events.iter().map(|e| (e.code, info.events));
    let bonuses = a.bonuses.iter().map(|b| (b.code, info.score_codes));
    irregularities
        .chain(errors)
        .chain(events)
        .chain(bonuses)
        .filter(|(code, declared)| !declared.contains(code))
        .map(|(code, _)| code)
        .collect()
}

/// The players of `malilla_league`, seated in turn by `malilla_sheets`.
pub const PLAYERS: [&str; 8] = ["Ana", "Ben", "Cai", "Dee", "Eve", "Fay", "Gil", "Hal"];

/// Matches of `total` random legal Malilla hands in all, each the hands of a whole game to 35 (the
/// last may stop short), in the order they are played.
pub fn malilla_games(total: usize) -> Vec<Vec<HandRecord>> {
    let game = arbiter::games::find("malilla").unwrap();
    let options = Options::resolve(game.info().options, &BTreeMap::new(), "/options").unwrap();
    // A pool of random legal hands by dealer; matches draw from it and run to the end of a game.
    let mut pool: BTreeMap<Seat, Vec<HandRecord>> = BTreeMap::new();
    let mut seed = 1u64;
    while pool.len() < 4 || pool.values().any(|v| v.len() < 100) {
        let h = random::random_legal_hand("malilla", seed);
        seed += 1;
        pool.entry(h.dealer).or_default().push(h);
    }
    let (mut games, mut hands, mut pick) = (Vec::new(), 0, 0usize);
    while hands < total {
        let (mut state, mut played) = (MatchState::default(), Vec::new());
        while !state.game_over && hands < total {
            let dealer = state.next_dealer.unwrap_or(Seat::N);
            let bucket = &pool[&dealer];
            let h = &bucket[pick % bucket.len()];
            pick += 7;
            let a = engine::adjudicate_next(game, &options, &state, h, played.len()).unwrap();
            state = a.match_after;
            played.push(h.clone());
            hands += 1;
        }
        games.push(played);
    }
    games
}

/// The seats of match `m` (N, E, S, W) as `malilla_sheets` fills them from `PLAYERS`: a different
/// table for each of eight matches in turn.
pub fn malilla_seating(m: usize) -> [&'static str; 4] {
    [0, 1, 2, 3].map(|i| PLAYERS[(m + i * 3) % 8])
}

/// Sheets of `total` random legal Malilla hands (`malilla_games`), a sheet once it holds
/// `per_sheet` hands or more; and how many matches they hold.
pub fn malilla_sheets(total: usize, per_sheet: usize) -> (Vec<String>, usize) {
    let games = malilla_games(total);
    let mut sheets = Vec::new();
    let (mut sheet, mut in_sheet) = (String::new(), 0);
    for (m, hands) in games.iter().enumerate() {
        if in_sheet == 0 {
            sheet = "match,hand,dealer,seat,action,value\n".to_string();
        }
        let label = format!("m{m}");
        for (seat, name) in ["N", "E", "S", "W"].iter().zip(malilla_seating(m)) {
            writeln!(sheet, "{label},,,{seat},sit,{name}").unwrap();
        }
        for (i, h) in hands.iter().enumerate() {
            for row in sheet_rows(&label, i + 1, &serde_json::to_value(h).unwrap()) {
                writeln!(sheet, "{row}").unwrap();
            }
        }
        in_sheet += hands.len();
        if in_sheet >= per_sheet || m + 1 == games.len() {
            sheets.push(std::mem::take(&mut sheet));
            in_sheet = 0;
        }
    }
    (sheets, games.len())
}

/// A club with `PLAYERS` and a Malilla league with `sessions` sessions in `store`: the club's id,
/// the league's, the sessions' and the club's key.
pub fn malilla_league(store: &Store, sessions: usize) -> (i64, i64, Vec<i64>, String) {
    store
        .write(|tx| {
            let (club, key) = league::create_club(tx, "Bench", Default::default())?;
            for p in PLAYERS {
                league::create_player(tx, club.id, p)?;
            }
            let new = NewLeague {
                name: "L".into(),
                season: "S".into(),
                game: "malilla".into(),
                options: BTreeMap::new(),
            };
            let l = league::create_league(tx, club.id, &new)?;
            let sessions = (0..sessions)
                .map(|i| {
                    let new = NewSession {
                        name: format!("evening {i}"),
                        played_on: None,
                    };
                    league::create_session(tx, club.id, l.id, &new).map(|s| s.id)
                })
                .collect::<league::Result<Vec<_>>>()?;
            Ok((
                club.id,
                l.id,
                sessions,
                key.secret.expect("a new key shows its secret"),
            ))
        })
        .unwrap()
}

/// The record of Malilla fixture `name`.
pub fn malilla_fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/malilla")
        .join(name);
    serde_json::from_slice::<Value>(&std::fs::read(path).unwrap()).unwrap()["record"].clone()
}

/// A sheet of `matches` new matches of one Malilla hand each (fixture 01).
pub fn big_sheet(matches: usize) -> String {
    let hand = malilla_fixture("01-normal-hand-ew-scores-2.json");
    let mut out = String::from("match,hand,dealer,seat,action,value\n");
    for m in 0..matches {
        for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
            out.push_str(&format!("m{m},,,{seat},sit,{name}\n"));
        }
        for row in sheet_rows(&format!("m{m}"), 1, &hand) {
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}
