//! Standings under load (issue 19 item 4): computed once per change of the league and kept until
//! the next, on a pool for expensive work apart from cheap reads, so that a flood of standings
//! never holds up a cheap read; never stale after a write; one computation for concurrent misses;
//! nothing started for a client that has gone.

mod common;

use actix_web::test as http;
use arbiter::api::expensive::Expensive;
use arbiter::api::league::LeagueState;
use arbiter::league::Store;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A Malilla league of `hands` hands in a fresh store, served with one expensive job at a time:
/// the state, the club's key and the temporary directory holding the database.
fn league_of(hands: usize) -> (LeagueState, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("league.db")).unwrap();
    let (sheets, _) = common::malilla_sheets(hands, 1_000);
    let (club, _, sessions, key) = common::malilla_league(&store, sheets.len());
    for (sheet, session) in sheets.iter().zip(&sessions) {
        store
            .write(|tx| arbiter::league::import(tx, club, *session, sheet.as_bytes()))
            .unwrap();
    }
    let state = LeagueState::with_expensive(store, None, Expensive::new(1, 16));
    (state, key, dir)
}

/// `arbiter serve`'s server on a free port of 127.0.0.1, in a thread of its own, for the whole
/// test.
fn serve(state: LeagueState) -> u16 {
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let timeout = arbiter::api::problem::BodyTimeout(Duration::from_secs(5));
            let (server, addrs) = arbiter::api::server(state, timeout, ("127.0.0.1", 0)).unwrap();
            port_tx.send(addrs[0].port()).unwrap();
            server.await
        })
    });
    port_rx.recv().unwrap()
}

/// One request on a connection of its own: the status, the body and how long the answer took.
fn request(port: u16, method: &str, path: &str, key: &str, body: &str) -> (u16, String, Duration) {
    let started = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let auth = if key.is_empty() {
        String::new()
    } else {
        format!("authorization: Bearer {key}\r\ncontent-type: application/json\r\n")
    };
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{auth}content-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let took = started.elapsed();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body, took)
}

const STANDINGS: &str = "/v1/clubs/1/leagues/1/standings";
const CHEAP: &str = "/v1/clubs/1/players/1";

/// Renames player 1 (a cheap write that shows in standings, so the next standings are computed
/// again).
fn rename(port: u16, key: &str, name: &str) {
    let body = json!({ "name": name }).to_string();
    let (status, text, _) = request(port, "PATCH", CHEAP, key, &body);
    assert_eq!(status, 200, "{text}");
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// 32 clients read standings as fast as they are answered while a writer renames a player every
/// 50 ms, so that every few reads the standings must be computed again; a cheap read meanwhile
/// is answered at once, far below the flood's latency. The flood is answered with standings or,
/// when too much expensive work waits, 503 with Retry-After: never anything else.
#[test]
fn a_flood_of_standings_does_not_hold_up_a_cheap_read() {
    let (state, key, _dir) = league_of(3_000);
    let counter = state.standings.clone();
    let port = serve(state);
    let (status, _, uncached) = request(port, "GET", STANDINGS, "", "");
    assert_eq!(status, 200);
    let (_, _, cached) = request(port, "GET", STANDINGS, "", "");
    assert_eq!(counter.computed(), 1, "the second read was served as kept");
    println!(
        "standings: computed {:.1} ms, kept {:.1} ms",
        millis(uncached),
        millis(cached)
    );

    let flooding = Arc::new(AtomicBool::new(true));
    let flood: Vec<_> = (0..32)
        .map(|_| {
            let flooding = flooding.clone();
            std::thread::spawn(move || {
                let mut answers = Vec::new();
                while flooding.load(Ordering::Relaxed) {
                    let (status, body, took) = request(port, "GET", STANDINGS, "", "");
                    assert!(status == 200 || status == 503, "{status}: {body}");
                    if status == 503 {
                        let p: Value = serde_json::from_str(&body).unwrap();
                        assert_eq!(p["type"], "urn:arbiter:problem:busy", "{body}");
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    answers.push((status, took));
                }
                answers
            })
        })
        .collect();
    let writer = {
        let (flooding, key) = (flooding.clone(), key.clone());
        std::thread::spawn(move || {
            let mut i = 0;
            while flooding.load(Ordering::Relaxed) {
                rename(port, &key, if i % 2 == 0 { "Ana" } else { "Ann" });
                i += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let before = counter.computed();
    std::thread::sleep(Duration::from_millis(500));
    let mut cheap = Vec::new();
    for _ in 0..20 {
        let (status, body, took) = request(port, "GET", CHEAP, "", "");
        assert_eq!(status, 200, "{body}");
        cheap.push(took);
        std::thread::sleep(Duration::from_millis(150));
    }
    flooding.store(false, Ordering::Relaxed);
    writer.join().unwrap();
    let answers: Vec<(u16, Duration)> = flood.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let computed = counter.computed() - before;
    let mut flood_ms: Vec<f64> = answers
        .iter()
        .filter(|(s, _)| *s == 200)
        .map(|(_, t)| millis(*t))
        .collect();
    flood_ms.sort_by(f64::total_cmp);
    let busy = answers.iter().filter(|(s, _)| *s == 503).count();
    let cheap_max = cheap.iter().map(|t| millis(*t)).fold(0.0, f64::max);
    println!(
        "flood: {} standings answered (median {:.0} ms, max {:.0} ms), {busy} refused busy, \
         {computed} computations; cheap read: max {cheap_max:.1} ms over {}",
        flood_ms.len(),
        flood_ms[flood_ms.len() / 2],
        flood_ms[flood_ms.len() - 1],
        cheap.len()
    );
    // The flood was real: standings were computed again and again, and were slow to come.
    assert!(computed >= 3, "{computed} computations during the flood");
    assert!(flood_ms[flood_ms.len() - 1] > millis(uncached) / 2.0);
    assert!(
        cheap_max < 500.0,
        "a cheap read took {cheap_max:.0} ms during the flood"
    );
}

/// A client that asks for standings that must be computed, then goes before their turn: they are
/// never computed.
#[test]
fn standings_for_a_client_that_has_gone_are_not_computed() {
    let (state, _key, _dir) = league_of(100);
    let (counter, pool) = (state.standings.clone(), state.expensive.clone());
    let port = serve(state);
    // The pool's one turn, held here, so that the request waits for it.
    let turn = actix_web::rt::System::new().block_on(pool.admit().unwrap().turn());
    let mut gone = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(gone, "GET {STANDINGS} HTTP/1.1\r\nhost: x\r\n\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(gone);
    std::thread::sleep(Duration::from_millis(200));
    drop(turn);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(counter.computed(), 0, "standings were computed for nobody");
    // Asked again, they are computed (there was something to compute).
    let (status, _, _) = request(port, "GET", STANDINGS, "", "");
    assert_eq!(status, 200);
    assert_eq!(counter.computed(), 1);
}

/// Standings after a write show it (a rename, a voided hand), never a kept answer from before;
/// reads between writes are served as kept; eight concurrent reads after a write compute once.
#[actix_web::test]
async fn standings_after_a_write_are_fresh_and_concurrent_misses_compute_once() {
    let (state, key, _dir) = league_of(40);
    let counter = state.standings.clone();
    let app = http::init_service(arbiter::api::app(state)).await;
    let get = || http::TestRequest::get().uri(STANDINGS).to_request();
    let standings = |v: Value| -> (Vec<String>, u64) {
        let players = v["players"].as_array().unwrap();
        let names = players
            .iter()
            .map(|p| p["player"]["name"].as_str().unwrap().to_string())
            .collect();
        let hands = players.iter().map(|p| p["hands"].as_u64().unwrap()).sum();
        (names, hands)
    };
    let (names, hands) = standings(http::call_and_read_body_json(&app, get()).await);
    assert!(names.contains(&"Ana".to_string()));
    assert_eq!(hands, 4 * 40);
    let _: Value = http::call_and_read_body_json(&app, get()).await;
    assert_eq!(counter.computed(), 1, "kept between writes");

    let write = |method: http::TestRequest, uri: &str, body: Value| {
        method
            .uri(uri)
            .insert_header(("authorization", format!("Bearer {key}")))
            .set_json(body)
            .to_request()
    };
    let r = http::call_service(
        &app,
        write(http::TestRequest::patch(), CHEAP, json!({"name": "Ann"})),
    )
    .await;
    assert_eq!(r.status(), 200);
    let (names, _) = standings(http::call_and_read_body_json(&app, get()).await);
    assert!(names.contains(&"Ann".to_string()) && !names.contains(&"Ana".to_string()));
    assert_eq!(counter.computed(), 2);

    let r = http::call_service(
        &app,
        write(
            http::TestRequest::post(),
            "/v1/clubs/1/hands/40/void",
            json!({"note": "dealt twice"}),
        ),
    )
    .await;
    assert_eq!(r.status(), 200);
    // Eight reads at once after the write: one computation, eight equal answers without the hand.
    let reads = (0..8).map(|_| http::call_and_read_body(&app, get()));
    let bodies = futures_util::future::join_all(reads).await;
    assert_eq!(
        counter.computed(),
        3,
        "one computation for concurrent reads"
    );
    for body in &bodies {
        assert_eq!(body, &bodies[0]);
    }
    let (_, hands) = standings(serde_json::from_slice(&bodies[0]).unwrap());
    assert_eq!(hands, 4 * 39);
}
