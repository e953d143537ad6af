//! Several replicas on one database: two arbiter processes serve one league database, with writers
//! racing through both. Every acknowledged write is there once,
//! idempotency keys hold across the replicas, each replica's standings are fresh after a write
//! through the other, corrections racing through both leave one audit trail, and a replica killed
//! mid-import leaves nothing partial for the other to serve. The database is one SQLite file (the
//! embedded default, which WAL lets several processes share on one machine), or a PostgreSQL
//! database when `ARBITER_TEST_POSTGRES` names a server.

mod common;
// The server as a process: apart from `common`, which an example also reads (cargo tells tests,
// not examples, where the binary is).
#[path = "common/server.rs"]
mod server;

use common::{big_sheet, database_in, malilla_fixture};
use serde_json::{Value, json};
use server::{Server, call, club_of_four, free_port, request, request_with};
use std::collections::BTreeSet;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `GET path` through the replica at `port`, as anyone (the club's results are public).
fn get(port: u16, path: &str) -> Value {
    let (status, body) = call(port, "GET", path, "", &Value::Null);
    assert_eq!(status, 200, "GET {path}: {body}");
    body
}

/// How many items the list at `path` holds, read page by page through the replica at `port`.
fn count(port: u16, path: &str) -> usize {
    let (mut n, mut cursor) = (0, String::new());
    loop {
        let page = get(port, &format!("{path}?limit=1000{cursor}"));
        n += page["items"].as_array().unwrap().len();
        match page["next_cursor"].as_str() {
            Some(next) => cursor = format!("&cursor={next}"),
            None => return n,
        }
    }
}

#[test]
fn two_replicas_on_one_database_lose_nothing_and_agree() {
    let dir = tempfile::tempdir().unwrap();
    let db = database_in(dir.path());
    let ports = [free_port(), free_port()];
    // Both start at the same moment on a new database, and both migrate it.
    let mut replicas = ports.map(|port| Server::spawn(&db, port));
    for replica in &mut replicas {
        replica.wait_up();
    }
    for port in ports {
        let ready = get(port, "/health/ready");
        assert_eq!(ready["status"], "ready", "{ready}");
    }
    let [a, b] = ports;

    // The club, its players, league and session, written through one replica and the other.
    let (key, seats) = club_of_four(&ports);
    let (s, league) = call(
        b,
        "POST",
        "/v1/clubs/1/leagues",
        &key,
        &json!({"name": "L", "season": "S", "game": "malilla"}),
    );
    assert_eq!(s, 201, "{league}");
    let sessions = format!("/v1/clubs/1/leagues/{}/sessions", league["id"]);
    let (_, posting) = call(a, "POST", &sessions, &key, &json!({"name": "posted"}));
    let (_, importing) = call(b, "POST", &sessions, &key, &json!({"name": "imported"}));
    let standings = format!("/v1/clubs/1/leagues/{}/standings", league["id"]);
    let hand = malilla_fixture("01-normal-hand-ew-scores-2.json").to_string();

    // Each match gets one hand, posted through both replicas at once. With one Idempotency-Key
    // (even matches) both posts are one request: both answer the same stored hand. Without
    // (odd matches) they are two: one stores hand 1, the other is refused as the match's hand 2
    // (its dealer is not the next one's). Never a 5xx, never two hands 1.
    const MATCHES: usize = 12;
    let mut stored = BTreeSet::new();
    for m in 0..MATCHES {
        let (s, created) = call(
            ports[m % 2],
            "POST",
            "/v1/clubs/1/matches",
            &key,
            &json!({"session": posting["id"], "seats": seats}),
        );
        assert_eq!(s, 201, "{created}");
        let path = format!("/v1/clubs/1/matches/{}/hands", created["id"]);
        let idempotency = if m % 2 == 0 {
            format!("hand-of-match-{m}")
        } else {
            String::new()
        };
        let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
            let posts: Vec<_> = ports
                .iter()
                .map(|&port| {
                    let (path, key, idempotency, hand) = (&path, &key, &idempotency, &hand);
                    scope.spawn(move || {
                        request_with(
                            port,
                            "POST",
                            path,
                            key,
                            idempotency,
                            "application/json",
                            hand.as_bytes(),
                        )
                        .expect("the replica answers")
                    })
                })
                .collect();
            posts.into_iter().map(|p| p.join().unwrap()).collect()
        });
        let created: Vec<&Value> = answers
            .iter()
            .filter(|(s, _)| *s == 201)
            .map(|(_, b)| b)
            .collect();
        assert!(
            answers.iter().all(|(s, _)| *s < 500),
            "match {m}: {answers:?}"
        );
        if idempotency.is_empty() {
            assert_eq!(created.len(), 1, "match {m}: {answers:?}");
        } else {
            assert_eq!(created.len(), 2, "match {m}: {answers:?}");
            assert_eq!(
                created[0]["id"], created[1]["id"],
                "match {m}: one request, one hand"
            );
        }
        let id = created[0]["id"].as_i64().unwrap();
        stored.insert(id);
        // The match holds its one hand, numbered 1, read through either replica.
        for port in ports {
            let hands = get(port, &format!("{path}?limit=10"));
            let numbers: Vec<&Value> = hands["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| &h["number"])
                .collect();
            assert_eq!(numbers, [&json!(1)], "match {m} through {port}: {hands}");
        }
        // Standings are fresh on both replicas after a write through either.
        let (on_a, on_b) = (get(a, &standings), get(b, &standings));
        assert_eq!(on_a, on_b, "after match {m}");
        let ana = on_a["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"]["name"] == "Ana");
        assert_eq!(ana.unwrap()["hands"], m + 1, "after match {m}: {on_a}");
    }
    assert_eq!(stored.len(), MATCHES);

    // One hand amended through both replicas at once: both corrections land, one after the
    // other, and the hand's audit trail holds both, each once, the second starting from what
    // the first left.
    let first = *stored.first().unwrap();
    let amend = format!("/v1/clubs/1/hands/{first}/amend");
    let record: Value = hand.parse().unwrap();
    let corrections: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let amendments: Vec<_> = ports
            .iter()
            .map(|&port| {
                let body = json!({"record": record, "note": format!("through {port}")});
                let (amend, key) = (&amend, &key);
                scope.spawn(move || call(port, "POST", amend, key, &body))
            })
            .collect();
        amendments.into_iter().map(|a| a.join().unwrap()).collect()
    });
    assert!(
        corrections.iter().all(|(s, _)| *s == 200),
        "{corrections:?}"
    );
    // Each note as JSON text, as the trail answers it.
    let notes_sent: BTreeSet<String> = ports
        .iter()
        .map(|p| json!(format!("through {p}")).to_string())
        .collect();
    let mut amendment_ids: Vec<&Value> = corrections.iter().map(|(_, c)| &c["amendment"]).collect();
    amendment_ids.sort_by_key(|id| id.as_i64());
    for port in ports {
        let (s, trail) = call(
            port,
            "GET",
            &format!("/v1/clubs/1/hands/{first}/amendments"),
            &key,
            &Value::Null,
        );
        assert_eq!(s, 200, "{trail}");
        let trail = trail["items"].as_array().unwrap();
        let ids: Vec<&Value> = trail.iter().map(|e| &e["id"]).collect();
        assert_eq!(ids, amendment_ids, "through {port}: {trail:?}");
        let notes: BTreeSet<String> = trail.iter().map(|e| e["note"].to_string()).collect();
        assert_eq!(notes, notes_sent, "through {port}");
        assert_eq!(
            trail[1]["before"]["record"], trail[0]["after"]["record"],
            "{trail:?}"
        );
    }
    assert_eq!(
        get(a, &standings),
        get(b, &standings),
        "after the amendments"
    );

    // B is killed while it imports a large sheet; A serves on. The import is wholly there or
    // wholly absent, and every hand acknowledged before is still there, read through A.
    let importer = {
        let (key, sheet) = (key.clone(), big_sheet(1500));
        let path = format!("/v1/clubs/1/sessions/{}/sheet", importing["id"]);
        std::thread::spawn(move || request(b, "POST", &path, &key, "text/csv", sheet.as_bytes()))
    };
    std::thread::sleep(Duration::from_millis(400));
    replicas[1].kill();
    let import_answer = importer.join().unwrap();
    let imported = count(
        a,
        &format!("/v1/clubs/1/sessions/{}/matches", importing["id"]),
    );
    match import_answer {
        Some((201, _)) => assert_eq!(imported, 1500, "an acknowledged import is incomplete"),
        _ => assert!(
            imported == 0 || imported == 1500,
            "a partial import: {imported} matches"
        ),
    }
    eprintln!(
        "import through the replica killed: answer {:?}, {imported} matches stored",
        import_answer.as_ref().map(|(s, _)| s)
    );
    for id in &stored {
        let (s, h) = call(
            a,
            "GET",
            &format!("/v1/clubs/1/hands/{id}"),
            &key,
            &Value::Null,
        );
        assert_eq!(s, 200, "acknowledged hand {id} is lost: {h}");
    }
    let ready = get(a, "/health/ready");
    assert_eq!(ready["status"], "ready", "{ready}");
}

/// A TCP link to the database that the test can cut and restore. Cut, it closes every connection
/// through it and refuses new ones, as a database that went away does.
struct Link {
    port: u16,
    /// Whether the link is up, and the connections through it (both ends), under one lock: a
    /// connection accepted as the link is cut is either closed with the others or refused.
    open: Arc<Mutex<(bool, Vec<TcpStream>)>>,
}

impl Link {
    fn to(target: String) -> Link {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(Mutex::new((true, Vec::new())));
        let link = open.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let mut open = link.lock().unwrap();
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                if !open.0 {
                    continue; // dropped: the connection is refused
                }
                open.1.push(client.try_clone().unwrap());
                open.1.push(server.try_clone().unwrap());
                pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
                pipe(server, client);
            }
        });
        Link { port, open }
    }

    fn cut(&self) {
        let mut open = self.open.lock().unwrap();
        open.0 = false;
        for end in open.1.drain(..) {
            let _ = end.shutdown(Shutdown::Both);
        }
    }

    fn restore(&self) {
        self.open.lock().unwrap().0 = true;
    }
}

/// Copies what `from` sends to `to` until either closes.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
        let _ = to.shutdown(Shutdown::Both);
    });
}

/// Losing the database: the replica stays up (liveness), is not ready, and answers the league's
/// reads and writes with 503 problem+json, writing nothing. When the database returns, the
/// replica serves again by itself, without a restart. PostgreSQL only: an SQLite file cannot go
/// away from under its process that way.
#[test]
fn losing_the_database_gives_503_and_service_returns_with_it() {
    let Some(server) = common::postgres_server() else {
        eprintln!("skipped: needs a PostgreSQL server (ARBITER_TEST_POSTGRES)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = database_in(dir.path());
    let address = server.rsplit_once('@').map_or(server.as_str(), |(_, a)| a);
    let link = Link::to(address.to_string());
    let through_link = db.replacen(address, &format!("127.0.0.1:{}", link.port), 1);
    let port = free_port();
    let mut replica = Server::start(&through_link, port);
    let (key, _) = club_of_four(&[port]);
    assert_eq!(get(port, "/health/ready")["status"], "ready");

    link.cut();
    // Asked at once (each waits for the pool's connection timeout): a read, a write, readiness.
    let answers: Vec<(u16, Value)> = std::thread::scope(|scope| {
        let asks = [
            scope.spawn(|| call(port, "GET", "/v1/clubs/1/players", &key, &Value::Null)),
            scope.spawn(|| {
                call(
                    port,
                    "POST",
                    "/v1/clubs/1/players",
                    &key,
                    &json!({"name": "Eve"}),
                )
            }),
            scope.spawn(|| call(port, "GET", "/health/ready", "", &Value::Null)),
        ];
        asks.map(|a| a.join().unwrap()).into()
    });
    for (status, problem) in &answers {
        assert_eq!(*status, 503, "{answers:?}");
        assert_eq!(
            problem["type"], "urn:arbiter:problem:store-unavailable",
            "{answers:?}"
        );
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("no connection to the database"), "{detail}");
        assert!(
            !detail.contains(&through_link),
            "the URL is not shown: {detail}"
        );
    }
    let (status, _) = call(port, "GET", "/health", "", &Value::Null);
    assert_eq!(status, 200, "liveness does not ask the store");
    assert!(
        replica.is_running(),
        "the replica exited: {}",
        replica.stderr()
    );

    link.restore();
    let deadline = Instant::now() + Duration::from_secs(30);
    while call(port, "GET", "/health/ready", "", &Value::Null).0 != 200 {
        assert!(
            Instant::now() < deadline,
            "not ready again: {}",
            replica.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, player) = call(
        port,
        "POST",
        "/v1/clubs/1/players",
        &key,
        &json!({"name": "Fay"}),
    );
    assert_eq!(status, 201, "{player}");
    let names: BTreeSet<String> = get(port, "/v1/clubs/1/players")["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    let expected = ["Ana", "Ben", "Cai", "Dee", "Fay"].map(String::from);
    assert_eq!(
        names,
        BTreeSet::from(expected),
        "the write refused in the outage is not there"
    );
}
