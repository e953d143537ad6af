//! Durability: the real binary, posting hands and importing a large sheet, is killed with SIGKILL
//! mid-import. After a restart on the same database every acknowledged hand is there and the import
//! is either wholly there or wholly absent.

mod common;
// The server as a process: apart from `common`, which an example also reads (cargo tells tests,
// not examples, where the binary is).
#[path = "common/server.rs"]
mod server;

use common::{big_sheet, database_in, malilla_fixture};
use serde_json::{Value, json};
use server::{Server, call, club_of_four, free_port, request};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[test]
fn acknowledged_hands_survive_sigkill_and_no_import_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_in(dir.path());
    let port = free_port();
    let mut server = Server::start(&db, port);

    let (key, seats) = club_of_four(&[port]);
    let (_, league) = call(
        port,
        "POST",
        "/v1/clubs/1/leagues",
        &key,
        &json!({"name": "L", "season": "S", "game": "malilla"}),
    );
    let sessions = format!("/v1/clubs/1/leagues/{}/sessions", league["id"]);
    let (_, posting) = call(port, "POST", &sessions, &key, &json!({"name": "posted"}));
    let (_, importing) = call(port, "POST", &sessions, &key, &json!({"name": "imported"}));
    let matches: Vec<i64> = (0..400)
        .map(|_| {
            let (s, m) = call(
                port,
                "POST",
                "/v1/clubs/1/matches",
                &key,
                &json!({"session": posting["id"], "seats": seats}),
            );
            assert_eq!(s, 201, "{m}");
            m["id"].as_i64().unwrap()
        })
        .collect();

    // One thread posts hands one by one and keeps the ids the server acknowledged.
    let acknowledged = Arc::new(Mutex::new(Vec::new()));
    let poster = {
        let (acknowledged, key) = (acknowledged.clone(), key.clone());
        let hand = malilla_fixture("01-normal-hand-ew-scores-2.json").to_string();
        std::thread::spawn(move || {
            for m in matches {
                let path = format!("/v1/clubs/1/matches/{m}/hands");
                match request(
                    port,
                    "POST",
                    &path,
                    &key,
                    "application/json",
                    hand.as_bytes(),
                ) {
                    Some((201, body)) => acknowledged
                        .lock()
                        .unwrap()
                        .push(body["id"].as_i64().unwrap()),
                    Some((status, body)) => panic!("a hand was refused: {status} {body}"),
                    None => return, // the server is gone
                }
            }
        })
    };
    // Another imports a large sheet; the server is killed while it runs.
    std::thread::sleep(Duration::from_millis(100));
    let importer = {
        let (key, sheet) = (key.clone(), big_sheet(1500));
        let path = format!("/v1/clubs/1/sessions/{}/sheet", importing["id"]);
        std::thread::spawn(move || request(port, "POST", &path, &key, "text/csv", sheet.as_bytes()))
    };
    std::thread::sleep(Duration::from_millis(400));
    server.kill();
    let import_answer = importer.join().unwrap();
    poster.join().unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();

    let _server = Server::start(&db, port);
    for id in &acknowledged {
        let (s, h) = call(
            port,
            "GET",
            &format!("/v1/clubs/1/hands/{id}"),
            &key,
            &Value::Null,
        );
        assert_eq!(s, 200, "acknowledged hand {id} is lost: {h}");
    }
    let (_, page) = call(
        port,
        "GET",
        &format!("/v1/clubs/1/sessions/{}/hands?limit=1000", importing["id"]),
        "",
        &Value::Null,
    );
    let mut imported = page["items"].as_array().unwrap().len();
    let (_, more) = call(
        port,
        "GET",
        &format!("/v1/clubs/1/sessions/{}/matches", importing["id"]),
        "",
        &Value::Null,
    );
    let import_matches = more["items"].as_array().unwrap().len();
    if imported == 1000 {
        imported = import_matches; // one hand a match
    }
    match import_answer {
        Some((201, _)) => assert_eq!(
            (imported, import_matches),
            (1500, 1500),
            "an acknowledged import is incomplete"
        ),
        _ => assert!(
            (imported, import_matches) == (0, 0) || (imported, import_matches) == (1500, 1500),
            "a partial import: {imported} hands, {import_matches} matches"
        ),
    }
    eprintln!(
        "{} hands acknowledged before the kill, import answer {:?}, {imported} imported hands after restart",
        acknowledged.len(),
        import_answer.map(|(s, _)| s)
    );
}
