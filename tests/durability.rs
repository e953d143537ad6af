//! Durability: the real binary, posting hands and importing a large sheet, is killed with SIGKILL
//! mid-import. After a restart on the same file every acknowledged hand is there and the import
//! is either wholly there or wholly absent.

mod common;

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A minimal HTTP/1.1 client (one request per connection), so the test needs no HTTP crate.
fn request(
    port: u16,
    method: &str,
    path: &str,
    key: &str,
    content_type: &str,
    body: &[u8],
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\nauthorization: Bearer {key}\r\n\
         content-type: {content_type}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    s.write_all(body).ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n")?.1;
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

fn call(port: u16, method: &str, path: &str, key: &str, body: &Value) -> (u16, Value) {
    request(
        port,
        method,
        path,
        key,
        "application/json",
        body.to_string().as_bytes(),
    )
    .expect("the server answers")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start(db: &Path, port: u16) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--port", &port.to_string(), "--db"])
        .arg(db)
        .env("ARBITER_ADMIN_TOKEN", "operator-token")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the arbiter binary starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    while request(port, "GET", "/health", "", "application/json", b"").is_none() {
        assert!(Instant::now() < deadline, "the server did not come up");
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/malilla")
        .join(name);
    serde_json::from_slice::<Value>(&std::fs::read(path).unwrap()).unwrap()["record"].clone()
}

/// A sheet of `matches` new matches of one Malilla hand each (fixture 01).
fn big_sheet(matches: usize) -> String {
    let hand = fixture("01-normal-hand-ew-scores-2.json");
    let mut out = String::from("match,hand,dealer,seat,action,value\n");
    for m in 0..matches {
        for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
            out.push_str(&format!("m{m},,,{seat},sit,{name}\n"));
        }
        for row in common::sheet_rows(&format!("m{m}"), 1, &hand) {
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}

#[test]
fn acknowledged_hands_survive_sigkill_and_no_import_is_partial() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("league.db");
    let port = free_port();
    let mut server = start(&db, port);

    let (s, club) = call(
        port,
        "POST",
        "/v1/clubs",
        "operator-token",
        &json!({"name": "Casa"}),
    );
    assert_eq!(s, 201, "{club}");
    let key = club["key"]["secret"].as_str().unwrap().to_string();
    let mut seats = serde_json::Map::new();
    for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
        let (s, p) = call(
            port,
            "POST",
            "/v1/clubs/1/players",
            &key,
            &json!({"name": name}),
        );
        assert_eq!(s, 201, "{p}");
        seats.insert(seat.into(), p["id"].clone());
    }
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
        let hand = fixture("01-normal-hand-ew-scores-2.json").to_string();
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
    server.kill().unwrap(); // SIGKILL
    server.wait().unwrap();
    let import_answer = importer.join().unwrap();
    poster.join().unwrap();
    let acknowledged = acknowledged.lock().unwrap().clone();

    let mut server = start(&db, port);
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
    server.kill().unwrap();
    server.wait().unwrap();
}
