//! League store throughput: bulk-imports 100,000 Malilla hands (random legal hands, whole games
//! to 35) as sheets into a fresh SQLite file, through the same import the HTTP handler calls, then
//! times standings, a page of hands and a session's sheet over them. Prints hands per second (on
//! SQLite also with two imports in flight) and the latencies.
//!
//! `cargo bench --bench league` (set `LEAGUE_HANDS` for another size, `LEAGUE_SHEET_HANDS` for
//! sheets of other than 2,000 hands; `LEAGUE_DB` to the URL of an empty PostgreSQL database to
//! measure the store there instead of in an SQLite file; on SQLite, `LEAGUE_KEEP` to a directory
//! to keep the database there as `league.db`, with the club's key in `key` and the first sheet in
//! `sheet.csv`, for a load test against `arbiter serve`).

#[path = "../tests/common/mod.rs"]
mod common;

use arbiter::league::{self, Store};
use std::time::Instant;

fn main() {
    let total: usize = std::env::var("LEAGUE_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let per_sheet: usize = std::env::var("LEAGUE_SHEET_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);

    let started = Instant::now();
    let (sheets, matches) = common::malilla_sheets(total, per_sheet);
    let hands = total;
    let bytes: usize = sheets.iter().map(String::len).sum();
    eprintln!(
        "prepared {hands} hands in {matches} matches, {} sheets ({:.1} MB) in {:.1}s",
        sheets.len(),
        bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.db");
    // A PostgreSQL database instead of the SQLite file, when `LEAGUE_DB` names one (empty).
    let postgres = std::env::var("LEAGUE_DB").ok();
    let store = match &postgres {
        Some(url) => Store::connect(url).unwrap(),
        None => Store::open(&path).unwrap(),
    };
    eprintln!("on {}", store.describe());
    let (club, league_id, sessions, key) = common::malilla_league(&store, sheets.len());
    let started = Instant::now();
    // As the server imports: prepared on a read, then published in a write. How long each import
    // held the writer (its write): what another writer may wait.
    let (mut held, mut preparing, mut publishing) = (Vec::new(), 0.0, 0.0);
    for (sheet, session) in sheets.iter().zip(&sessions) {
        let t = Instant::now();
        let prepared = prepare(&store, club, *session, sheet);
        preparing += t.elapsed().as_secs_f64();
        let t = Instant::now();
        store.write(|tx| league::publish(tx, &prepared)).unwrap();
        let write = t.elapsed().as_secs_f64();
        held.push(write * 1e3);
        publishing += write;
    }
    let secs = started.elapsed().as_secs_f64();
    held.sort_by(f64::total_cmp);
    println!(
        "import: {hands} hands in {secs:.2}s = {:.0} hands/s ({} imports of up to {per_sheet} hands, each prepared on a read and published in one write, the writer held {:.1} ms median, up to {:.1} ms; a hand prepared in {:.1} us, published in {:.1} us)",
        hands as f64 / secs,
        sheets.len(),
        held[held.len() / 2],
        held[held.len() - 1],
        preparing * 1e6 / hands as f64,
        publishing * 1e6 / hands as f64,
    );
    if postgres.is_none() {
        imports_in_flight(&dir.path().join("in-flight.db"), &sheets, hands);
    }

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
        .read(|tx| {
            league::list_hands(
                tx,
                club,
                league::HandScope::League(league_id),
                (hands / 2) as i64,
                100,
            )
        })
        .unwrap();
    println!(
        "a page of {} hands from the middle of the league: {:.2} ms",
        page.items.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    // A session's sheet as the export sends it: planned (every match read to size the page), then
    // written in batches (every match read again).
    let t = Instant::now();
    let sheet = store
        .read(|tx| league::plan_sheet(tx, club, sessions[0], 0))
        .unwrap();
    let planned = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let mut size = league::sheet_header().len();
    for batch in sheet.batches(256 * 1024) {
        size += store
            .read(|tx| league::sheet_rows(tx, club, &batch))
            .unwrap()
            .len();
    }
    println!(
        "a session's sheet ({} matches, {:.1} MB): planned in {planned:.1} ms, written in {:.1} ms",
        sheet.matches.len(),
        size as f64 / 1e6,
        t.elapsed().as_secs_f64() * 1e3
    );
    let size = match &postgres {
        Some(_) => store
            .read(|tx| {
                tx.query_row("SELECT pg_database_size(current_database())", &[], |r| {
                    r.get::<i64>(0)
                })
            })
            .unwrap() as u64,
        None => {
            // Closed first, so that the file holds every write (the last connection checkpoints
            // the WAL).
            drop(store);
            std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
        }
    };
    println!(
        "database: {:.1} MB, {:.0} bytes per hand",
        size as f64 / 1e6,
        size as f64 / hands as f64
    );
    if let (Ok(keep), None) = (std::env::var("LEAGUE_KEEP"), &postgres) {
        let keep = std::path::Path::new(&keep);
        std::fs::copy(&path, keep.join("league.db")).unwrap();
        std::fs::write(keep.join("key"), key).unwrap();
        // A sheet of new matches, for a load that imports (`benches/memory.sh`).
        std::fs::write(keep.join("sheet.csv"), &sheets[0]).unwrap();
    }
}

/// The same sheets imported into another new file with two imports in flight, as two clients'
/// imports run in the server: one sheet is prepared (on a read) while the one before it is
/// published (in the write).
fn imports_in_flight(path: &std::path::Path, sheets: &[String], hands: usize) {
    let store = Store::open(path).unwrap();
    let (club, _, sessions, _) = common::malilla_league(&store, sheets.len());
    let started = Instant::now();
    let (prepared, publish) = std::sync::mpsc::sync_channel(1);
    std::thread::scope(|s| {
        let store = &store;
        s.spawn(move || {
            for (sheet, session) in sheets.iter().zip(&sessions) {
                prepared
                    .send(prepare(store, club, *session, sheet))
                    .unwrap();
            }
        });
        for p in publish {
            store.write(|tx| league::publish(tx, &p)).unwrap();
        }
    });
    let secs = started.elapsed().as_secs_f64();
    println!(
        "import, two in flight (a sheet prepared while the one before is published): {hands} hands in {secs:.2}s = {:.0} hands/s",
        hands as f64 / secs
    );
}

/// `sheet` prepared for `session`, on a read, as the server prepares an import.
fn prepare(store: &Store, club: i64, session: i64, sheet: &str) -> league::PreparedImport {
    store
        .read_expensive(|tx| league::prepare_import(tx, club, session, sheet.as_bytes().into()))
        .unwrap()
}
