//! League store throughput: bulk-imports 100,000 Malilla hands (random legal hands, whole games
//! to 35) as sheets into a fresh SQLite file, through the same import the HTTP handler calls, then
//! times standings over them. Prints hands per second and the standings latency.
//!
//! `cargo bench --bench league` (set `LEAGUE_HANDS` for another size).

#[path = "../tests/common/mod.rs"]
mod common;

use arbiter::engine::{self, MatchState, Options, Seat};
use arbiter::league::{self, NewLeague, NewSession, Store};
use arbiter::record::HandRecord;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

const PLAYERS: [&str; 8] = ["Ana", "Ben", "Cai", "Dee", "Eve", "Fay", "Gil", "Hal"];
const HANDS_PER_SHEET: usize = 2_000;

fn main() {
    let total: usize = std::env::var("LEAGUE_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let game = arbiter::games::find("malilla").unwrap();
    let options = Options::resolve(game.info().options, &BTreeMap::new(), "/options").unwrap();

    // A pool of random legal hands by dealer; matches draw from it and run to the end of a game.
    let started = Instant::now();
    let mut pool: BTreeMap<Seat, Vec<HandRecord>> = BTreeMap::new();
    let mut seed = 1u64;
    while pool.len() < 4 || pool.values().any(|v| v.len() < 100) {
        let h = common::random::random_legal_hand("malilla", seed);
        seed += 1;
        pool.entry(h.dealer).or_default().push(h);
    }
    let mut sheets = Vec::new();
    let (mut sheet, mut in_sheet, mut hands, mut matches, mut pick) =
        (String::new(), 0, 0, 0, 0usize);
    while hands < total {
        if in_sheet == 0 {
            sheet = "match,hand,dealer,seat,action,value\n".to_string();
        }
        let label = format!("m{matches}");
        for (i, seat) in ["N", "E", "S", "W"].iter().enumerate() {
            writeln!(
                sheet,
                "{label},,,{seat},sit,{}",
                PLAYERS[(matches + i * 3) % 8]
            )
            .unwrap();
        }
        let mut state = MatchState::default();
        let mut number = 0;
        while !state.game_over && hands + number < total {
            let dealer = state.next_dealer.unwrap_or(Seat::N);
            let bucket = &pool[&dealer];
            let h = &bucket[pick % bucket.len()];
            pick += 7;
            let a = engine::adjudicate_next(game, &options, &state, h, number).unwrap();
            state = a.match_after;
            number += 1;
            for row in common::sheet_rows(&label, number, &serde_json::to_value(h).unwrap()) {
                writeln!(sheet, "{row}").unwrap();
            }
        }
        hands += number;
        in_sheet += number;
        matches += 1;
        if in_sheet >= HANDS_PER_SHEET || hands >= total {
            sheets.push(std::mem::take(&mut sheet));
            in_sheet = 0;
        }
    }
    let bytes: usize = sheets.iter().map(String::len).sum();
    eprintln!(
        "prepared {hands} hands in {matches} matches, {} sheets ({:.1} MB) in {:.1}s",
        sheets.len(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    let store = Store::open(&path).unwrap();
    let (club, league_id, sessions) = store
        .write(|tx| {
            let (club, _) = league::create_club(tx, "Bench", Default::default())?;
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
            let sessions = (0..sheets.len())
                .map(|i| {
                    league::create_session(
                        tx,
                        club.id,
                        l.id,
                        &NewSession {
                            name: format!("evening {i}"),
                            played_on: None,
                        },
                    )
                    .map(|s| s.id)
                })
                .collect::<league::Result<Vec<_>>>()?;
            Ok((club.id, l.id, sessions))
        })
        .unwrap();

    let started = Instant::now();
    for (sheet, session) in sheets.iter().zip(&sessions) {
        store
            .write(|tx| league::import(tx, club, *session, sheet.as_bytes()))
            .unwrap();
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "import: {hands} hands in {secs:.2}s = {:.0} hands/s ({} imports of up to {HANDS_PER_SHEET} hands, one transaction each)",
        hands as f64 / secs,
        sheets.len()
    );

    let mut times = Vec::new();
    let mut players = 0;
    for _ in 0..11 {
        let t = Instant::now();
        let s = store
            .read(|tx| league::standings(tx, club, league_id))
            .unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        players = s.players.len();
        assert_eq!(
            s.players
                .iter()
                .map(|p| p.record.hands as usize)
                .sum::<usize>(),
            4 * hands
        );
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "standings over {hands} hands ({players} players, ratings included): median {:.1} ms, min {:.1} ms, max {:.1} ms",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    let t = Instant::now();
    let page = store
        .read(|tx| league::list_hands(tx, club, league::HandScope::League(league_id), 50_000, 100))
        .unwrap();
    println!(
        "a page of {} hands from the middle of the league: {:.2} ms",
        page.items.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!("database: {:.1} MB", size as f64 / 1e6);
}
