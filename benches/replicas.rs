//! Posts through two replicas: two arbiter processes (the release binary) serve one league
//! database, and `REPLICAS_CLIENTS` clients (8) post whole games of random legal Malilla hands,
//! hand by hand, each hand through the replica the previous one did not use; every match is
//! created through one replica or the other in turn. Prints hands posted per second and the
//! latency of a post (median, p99), and fails on any answer that is not 201.
//!
//! `cargo bench --bench replicas` on an SQLite file (WAL, both processes on this machine);
//! `LEAGUE_DB=postgres://...` (an empty database) on PostgreSQL. `REPLICAS_HANDS` (20,000) sets
//! how many hands are posted.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/server.rs"]
mod server;

use serde_json::{Value, json};
use server::{Server, call, free_port, new_club, request};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

fn main() {
    let total: usize = env_or("REPLICAS_HANDS", 20_000);
    let clients: usize = env_or("REPLICAS_CLIENTS", 8);
    let games = common::malilla_games(total);
    let dir = tempfile::tempdir().unwrap();
    let db = std::env::var("LEAGUE_DB")
        .unwrap_or_else(|_| dir.path().join("league.db").to_string_lossy().to_string());
    let replicas = [free_port(), free_port()].map(|port| Server::start(&db, port));
    let ports = [replicas[0].port, replicas[1].port];

    // Club 1 with the league bench's players, a Malilla league and one session.
    let key = new_club(ports[0], "Bench");
    let mut players = std::collections::BTreeMap::new();
    for name in common::PLAYERS {
        let (s, p) = call(
            ports[0],
            "POST",
            "/v1/clubs/1/players",
            &key,
            &json!({"name": name}),
        );
        assert_eq!(s, 201, "{p}");
        players.insert(name, p["id"].clone());
    }
    let (_, league) = call(
        ports[1],
        "POST",
        "/v1/clubs/1/leagues",
        &key,
        &json!({"name": "L", "season": "S", "game": "malilla"}),
    );
    let (_, session) = call(
        ports[1],
        "POST",
        &format!("/v1/clubs/1/leagues/{}/sessions", league["id"]),
        &key,
        &json!({"name": "posted"}),
    );

    let next_game = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(total));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..clients {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let m = next_game.fetch_add(1, Ordering::Relaxed);
                    let Some(hands) = games.get(m) else { break };
                    let seats: serde_json::Map<String, Value> = ["N", "E", "S", "W"]
                        .into_iter()
                        .zip(common::malilla_seating(m))
                        .map(|(seat, name)| (seat.to_string(), players[name].clone()))
                        .collect();
                    let (s, created) = call(
                        ports[m % 2],
                        "POST",
                        "/v1/clubs/1/matches",
                        &key,
                        &json!({"session": session["id"], "seats": seats}),
                    );
                    assert_eq!(s, 201, "{created}");
                    let path = format!("/v1/clubs/1/matches/{}/hands", created["id"]);
                    for (i, hand) in hands.iter().enumerate() {
                        let body = serde_json::to_vec(hand).unwrap();
                        let t = Instant::now();
                        let answer = request(
                            ports[(m + i) % 2],
                            "POST",
                            &path,
                            &key,
                            "application/json",
                            &body,
                        );
                        mine.push(t.elapsed().as_secs_f64() * 1e3);
                        match answer {
                            Some((201, _)) => {}
                            other => panic!("match {m}, hand {}: {other:?}", i + 1),
                        }
                    }
                }
                latencies.lock().unwrap().extend(mine);
            });
        }
    });
    let secs = started.elapsed().as_secs_f64();
    let mut latencies = latencies.into_inner().unwrap();
    latencies.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    println!(
        "posts through two replicas on {}: {} hands in {} matches in {secs:.1}s = {:.0} hands/s \
         ({clients} clients, a match created before each game's hands); a post's latency: median \
         {:.1} ms, p99 {:.1} ms",
        if db.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "one SQLite file"
        },
        latencies.len(),
        games.len(),
        latencies.len() as f64 / secs,
        at(0.5),
        at(0.99)
    );
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
