//! Hardening, tried as an attacker would: spreadsheet formulas in names, stalled and oversize
//! bodies, authentication before parsing, trailing data and duplicate keys, the headers the RFCs
//! require, content codings and negotiation, input hygiene, a private database file, and errors
//! that say what failed.

mod common;
// The server as a process: apart from `common`, which an example also reads (cargo tells tests,
// not examples, where the binary is).
#[path = "common/server.rs"]
mod server;

use actix_http::Request;
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::HeaderMap;
use actix_web::test as http;
use arbiter::api::problem::Problem;
use arbiter::engine::Options;
use serde_json::{Value, json};
use server::{Server, free_port};
use std::path::Path;

struct Reply {
    status: u16,
    headers: HeaderMap,
    text: String,
    json: Value,
}

impl Reply {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap())
            .unwrap_or("")
    }

    /// Asserts a problem+json refusal with `status` and an error at `pointer`.
    fn refused(&self, status: u16, pointer: &str) {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.header("content-type"), "application/problem+json");
        assert!(
            self.json["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["pointer"] == pointer),
            "no error at {pointer}: {}",
            self.text
        );
    }
}

/// A CSV sheet posted to session 1 of club 1 with `key`.
fn csv_sheet(key: &str, sheet: impl Into<String>) -> http::TestRequest {
    http::TestRequest::post()
        .uri("/v1/clubs/1/sessions/1/sheet")
        .insert_header(bearer(key))
        .insert_header(("content-type", "text/csv"))
        .set_payload(sheet.into())
}

async fn send<S, B>(app: &S, req: http::TestRequest) -> Reply
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = http::call_service(app, req.to_request()).await;
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = String::from_utf8(http::read_body(resp).await.to_vec()).unwrap();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        text,
        json,
    }
}

fn bearer(key: &str) -> (&'static str, String) {
    ("authorization", format!("Bearer {key}"))
}

fn post_json(uri: &str, key: &str, body: &str) -> http::TestRequest {
    http::TestRequest::post()
        .uri(uri)
        .insert_header(bearer(key))
        .insert_header(("content-type", "application/json"))
        .set_payload(body.to_string())
}

/// Creates a club with the operator's token; returns its key.
async fn club<S, B>(app: &S, name: &str) -> String
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let r = send(
        app,
        post_json(
            "/v1/clubs",
            "operator-token",
            &json!({"name": name}).to_string(),
        ),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["key"]["secret"].as_str().unwrap().to_string()
}

/// A POST of `body` that must create something; returns the reply.
async fn create<S, B>(app: &S, key: &str, uri: &str, body: Value) -> Reply
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let r = send(app, post_json(uri, key, &body.to_string())).await;
    assert_eq!(r.status, 201, "POST {uri}: {}", r.text);
    r
}

fn fixture(game: &str, prefix: &str) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game);
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap();
    serde_json::from_slice::<Value>(&std::fs::read(file).unwrap()).unwrap()["record"].clone()
}

/// Club 1 with a Malilla league (1), a session (1) and a match (1) of `names` at N, E, S, W with
/// fixture 01 posted as its first hand. Returns the key.
async fn malilla_match<S, B>(app: &S, names: [&str; 4]) -> String
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let key = club(app, "Casa").await;
    let mut seats = serde_json::Map::new();
    for (seat, name) in ["N", "E", "S", "W"].into_iter().zip(names) {
        let p = create(app, &key, "/v1/clubs/1/players", json!({"name": name})).await;
        seats.insert(seat.into(), p.json["id"].clone());
    }
    create(
        app,
        &key,
        "/v1/clubs/1/leagues",
        json!({"name": "Thursday", "season": "2026", "game": "malilla"}),
    )
    .await;
    create(
        app,
        &key,
        "/v1/clubs/1/leagues/1/sessions",
        json!({"name": "Evening 1"}),
    )
    .await;
    create(
        app,
        &key,
        "/v1/clubs/1/matches",
        json!({"session": 1, "seats": seats}),
    )
    .await;
    create(
        app,
        &key,
        "/v1/clubs/1/matches/1/hands",
        fixture("malilla", "01"),
    )
    .await;
    key
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

// ---- 1. spreadsheet formulas --------------------------------------------------------------------

/// Names a spreadsheet would run as formulas (OWASP's list: = + - @), and one that starts with the
/// quote the export adds.
const FORMULAS: [&str; 4] = ["=cmd|'/C calc'!A0", "+SUM(A1)", "-2+3", "'@A1"];

#[actix_web::test]
async fn formula_names_are_quoted_in_csv_and_a_sheet_round_trip_keeps_them() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, FORMULAS).await;
    // The standings table: every name cell starts with a quote, so no cell is a formula.
    let r = send(
        &app,
        http::TestRequest::get()
            .uri("/v1/clubs/1/leagues/1/standings")
            .insert_header(("accept", "text/csv")),
    )
    .await;
    let rows = csv_rows(&r.text);
    let name = rows[0].iter().position(|c| c == "name").unwrap();
    let mut names: Vec<&str> = rows[1..].iter().map(|r| r[name].as_str()).collect();
    names.sort();
    let mut quoted: Vec<String> = FORMULAS.iter().map(|n| format!("'{n}")).collect();
    quoted.sort();
    assert_eq!(names, quoted);
    // The sheet: the `sit` rows too.
    let r = send(
        &app,
        http::TestRequest::get()
            .uri("/v1/clubs/1/sessions/1/sheet")
            .insert_header(bearer(&key)),
    )
    .await;
    assert_eq!(r.status, 200);
    let sheet = r.text;
    let sits: Vec<String> = csv_rows(&sheet)
        .into_iter()
        .filter(|r| r[4] == "sit")
        .map(|r| r[5].clone())
        .collect();
    for n in FORMULAS {
        assert!(sits.contains(&format!("'{n}")), "{n} in {sits:?}");
    }
    for cell in csv_rows(&sheet).iter().flatten() {
        assert!(
            !cell.starts_with(['=', '+', '@', '\t', '\r']),
            "a formula cell: {cell}"
        );
    }
    // Imported into another session, the sheet seats the same players by their exact names.
    create(
        &app,
        &key,
        "/v1/clubs/1/leagues/1/sessions",
        json!({"name": "Evening 2"}),
    )
    .await;
    let r = send(
        &app,
        http::TestRequest::post()
            .uri("/v1/clubs/1/sessions/2/sheet")
            .insert_header(bearer(&key))
            .insert_header(("content-type", "text/csv"))
            .set_payload(sheet),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let m = send(&app, http::TestRequest::get().uri("/v1/clubs/1/matches/2")).await;
    for (seat, n) in ["N", "E", "S", "W"].into_iter().zip(FORMULAS) {
        assert_eq!(m.json["seats"][seat]["name"], n, "{}", m.text);
    }
}

// ---- 2. stalled and oversize bodies ---------------------------------------------------------

/// The real server (so that the bound on a body's time is the server's), with a 1 s body timeout,
/// on a database in `dir`.
fn server(dir: &tempfile::TempDir) -> Server {
    let db = common::database_in(dir.path());
    let mut server = Server::spawn_with(&db, free_port(), &["--body-timeout", "1"]);
    server.wait_up();
    server
}

/// Sends `head` (and no more), then reads what the server answers within 10 s: the status line,
/// how long it took, and how long after the answer the server closed the connection (`None`
/// if it was still open 5 s later).
fn answer_to(port: u16, head: &str) -> (String, std::time::Duration, Option<std::time::Duration>) {
    use std::io::{ErrorKind, Read, Write};
    use std::time::{Duration, Instant};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let start = Instant::now();
    s.write_all(head.as_bytes()).unwrap();
    let mut out = vec![0; 4096];
    let n = s.read(&mut out).unwrap_or(0);
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out[..n]).to_string();
    // The rest of the answer, then the end of the stream (or a reset: closed all the same).
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let closed = loop {
        match s.read(&mut out) {
            Ok(0) => break Some(start.elapsed() - took),
            Ok(_) => continue,
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break Some(start.elapsed() - took),
            Err(_) => break None,
        }
    };
    (text.lines().next().unwrap_or("").to_string(), took, closed)
}

#[test]
fn a_stalled_body_times_out_and_an_oversize_one_is_refused_unread() {
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let s = server(&dir);
    let post = "POST /v1/games/malilla/adjudications HTTP/1.1\r\nhost: x\r\n\
                content-type: application/json\r\n";
    // Headers, a byte of the body, then nothing: 408 once the body timeout passes, and the
    // connection closed (a client must not hold idle sockets without bound), whether the body
    // is framed by its length or in chunks.
    for framing in [
        "content-length: 100\r\n\r\n{",
        "transfer-encoding: chunked\r\n\r\n1\r\n{\r\n",
    ] {
        let (status, took, closed) = answer_to(s.port, &format!("{post}{framing}"));
        assert_eq!(status, "HTTP/1.1 408 Request Timeout", "{framing}");
        assert!(took >= Duration::from_millis(900), "{framing}: {took:?}");
        assert!(closed.is_some(), "{framing}: still open 5 s after the 408");
    }
    // 10 GB declared: 413 at once, without waiting for (or reading) the body, and closed.
    let (status, took, closed) = answer_to(
        s.port,
        &format!("{post}content-length: 10737418240\r\n\r\n"),
    );
    assert_eq!(status, "HTTP/1.1 413 Payload Too Large");
    assert!(took < Duration::from_millis(900), "{took:?}");
    assert!(closed.is_some(), "still open 5 s after the 413");
    // Chunks past the bound: 413 once they arrive, and closed without waiting for the rest.
    let chunk = "x".repeat(300 * 1024);
    let (status, _, closed) = answer_to(
        s.port,
        &format!(
            "{post}transfer-encoding: chunked\r\n\r\n{:x}\r\n{chunk}\r\n",
            chunk.len()
        ),
    );
    assert_eq!(status, "HTTP/1.1 413 Payload Too Large");
    assert!(closed.is_some(), "still open 5 s after the 413");
}

/// A sheet over `MAX_ROWS` rows (but within `MAX_SHEET` bytes) is refused naming the limit, and
/// only the limit: the README states it, and its other rows are not worth reporting.
#[actix_web::test]
async fn a_sheet_over_the_row_limit_is_refused_naming_the_limit() {
    use arbiter::league::{MAX_ROWS, MAX_SHEET};
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    let mut sheet = String::from("match,hand,dealer,seat,action,value\n");
    for _ in 0..=MAX_ROWS {
        sheet.push_str("t1,,,N,sit,Ana\n");
    }
    assert!(sheet.len() <= MAX_SHEET);
    let r = send(&app, csv_sheet(&key, sheet)).await;
    r.refused(422, "/rows/1/match");
    assert_eq!(
        r.json["errors"].as_array().unwrap().len(),
        1,
        "{}",
        r.json["errors"][1]
    );
    assert!(
        r.json["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("at most {MAX_ROWS} rows")),
        "{}",
        r.json["errors"][0]
    );
    let r = send(
        &app,
        http::TestRequest::get().uri("/v1/clubs/1/sessions/1/matches"),
    )
    .await;
    assert_eq!(
        r.json["items"].as_array().unwrap().len(),
        1,
        "nothing stored: {}",
        r.text
    );
}

// ---- 3. authentication first ----------------------------------------------------------------

#[actix_web::test]
async fn a_write_is_authenticated_before_its_body_is_looked_at() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = club(&app, "Casa").await;
    let other = club(&app, "Other").await;
    let spare = create(
        &app,
        &key,
        "/v1/clubs/1/keys",
        json!({"label": "to revoke"}),
    )
    .await;
    let revoked = spare.json["secret"].as_str().unwrap().to_string();
    let r = send(
        &app,
        http::TestRequest::delete()
            .uri(&format!(
                "/v1/clubs/1/keys/{}",
                spare.json["id"].as_str().unwrap()
            ))
            .insert_header(bearer(&key)),
    )
    .await;
    assert_eq!(r.status, 204, "{}", r.text);
    for body in ["{\"nam\": 1}", "{", ""] {
        for (who, status) in [("", 401), ("nonsense", 401), (&revoked, 401), (&other, 403)] {
            let mut req = http::TestRequest::post()
                .uri("/v1/clubs/1/players")
                .insert_header(("content-type", "application/json"))
                .set_payload(body.to_string());
            if !who.is_empty() {
                req = req.insert_header(bearer(who));
            }
            let r = send(&app, req).await;
            assert_eq!(r.status, status, "{body} as '{who}': {}", r.text);
        }
    }
    // A sheet in the wrong media type, without a key: 401, not 415.
    let r = send(
        &app,
        http::TestRequest::post()
            .uri("/v1/clubs/1/sessions/1/sheet")
            .insert_header(("content-type", "text/xml"))
            .set_payload("<x/>"),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.text);
}

// ---- 4. trailing data and duplicate keys ----------------------------------------------------

#[actix_web::test]
async fn trailing_data_and_duplicate_keys_are_refused_everywhere() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = club(&app, "Casa").await;
    let hand = fixture("malilla", "01").to_string();
    let adjudicate = |body: String| post_json("/v1/games/malilla/adjudications", "", &body);
    // Trailing garbage, and a second document.
    for body in [
        format!("{hand} GARBAGE"),
        format!("{hand}{hand}"),
        format!("{hand}\n{{}}"),
    ] {
        send(&app, adjudicate(body)).await.refused(422, "");
    }
    for body in [
        "{\"name\":\"x\"} GARBAGE",
        "{\"name\":\"x\"}{\"name\":\"y\"}",
    ] {
        send(&app, post_json("/v1/clubs/1/players", &key, body))
            .await
            .refused(422, "");
    }
    // The same seat twice in a deal (issue 9): refused at the duplicate.
    let n = fixture("malilla", "01")["deal"]["N"].to_string();
    let twice = hand.replacen("\"deal\":{", &format!("\"deal\":{{\"N\":{n},"), 1);
    assert_ne!(twice, hand);
    send(&app, adjudicate(twice)).await.refused(422, "/deal/N");
    // Any object, at any depth: an action, an option, a league's options, a match's seats.
    let action = hand.replacen("{\"play\":", "{\"seat\":\"N\",\"play\":", 1);
    assert_ne!(action, hand);
    send(&app, adjudicate(action))
        .await
        .refused(422, "/actions/0/seat");
    let options = hand.replacen('{', "{\"options\":{\"a\":1,\"a\":2},", 1);
    send(&app, adjudicate(options))
        .await
        .refused(422, "/options/a");
    send(
        &app,
        post_json(
            "/v1/clubs/1/leagues",
            &key,
            "{\"name\":\"L\",\"season\":\"S\",\"game\":\"malilla\",\"options\":{\"x\":{\"y\":1,\"y\":1}}}",
        ),
    )
    .await
    .refused(422, "/options/x/y");
    send(
        &app,
        post_json(
            "/v1/clubs/1/players",
            &key,
            "{\"name\":\"a\",\"name\":\"b\"}",
        ),
    )
    .await
    .refused(422, "/name");
    // A key spelled with an escape is the same key.
    send(
        &app,
        post_json(
            "/v1/clubs/1/matches",
            &key,
            "{\"session\":1,\"seats\":{\"N\":1,\"\\u004e\":2}}",
        ),
    )
    .await
    .refused(422, "/seats/N");
}

/// A body's answer as JSON: the ruling (or the engine's refusal), or the problem refusing it.
fn answer(read: Result<Box<dyn arbiter::engine::Recorded + '_>, Problem>) -> Result<Value, Value> {
    match read {
        Ok(record) => Ok(match record.adjudicate() {
            Ok(ruling) => serde_json::to_value(ruling).unwrap(),
            Err(errors) => json!({"refused": serde_json::to_value(errors).unwrap()}),
        }),
        Err(problem) => Err(serde_json::to_value(problem).unwrap()),
    }
}

/// A well-formed body is read in one pass that also looks for keys given twice and data after
/// the document; one that fails it is read again by the reader that names what is wrong. Both
/// must answer every body alike: bodies with duplicate keys, trailing data, wrong types, numbers
/// out of range and unknown fields at several depths, in games whose actions carry a card, a
/// choice or a bid.
#[test]
fn the_one_pass_reader_answers_every_body_as_the_path_reporting_reader_does() {
    use arbiter::api::problem::{checked_document, parse_json, read_document, without_bom};
    use arbiter::api::{hand_record, hand_record_checked};
    use arbiter::json::read_unique;
    use arbiter::record::HandRecord;
    for (game, prefix) in [
        ("malilla", "01"),
        ("court-piece", "08"),
        ("boston-de-fontainebleau", "01"),
    ] {
        let rules = arbiter::games::find(game).unwrap();
        let record = fixture(game, prefix);
        let hand = record.to_string();
        let edited = |edit: &dyn Fn(&mut Value)| {
            let mut r = record.clone();
            edit(&mut r);
            r.to_string()
        };
        let first_seat = record["actions"][0]["seat"].as_str().unwrap().to_string();
        let verb = record["actions"][1]
            .as_object()
            .unwrap()
            .keys()
            .find(|k| *k != "seat")
            .unwrap()
            .clone();
        let refused = [
            // A key given twice: at the top, in the deal, in an action, in an action's value,
            // in the options (and inside an option's value), in the players, in the match state.
            hand.replacen('{', "{\"dealer\":\"N\",", 1),
            hand.replacen("\"deal\":{", "\"deal\":{\"N\":[],", 1),
            hand.replacen(
                "\"seat\":",
                &format!("\"seat\":\"{first_seat}\",\"seat\":"),
                1,
            ),
            hand.replacen(
                &format!("\"{verb}\":"),
                &format!("\"{verb}\":true,\"{verb}\":"),
                1,
            ),
            hand.replacen('{', "{\"options\":{\"a\":1,\"a\":2},", 1),
            hand.replacen('{', "{\"options\":{\"a\":{\"b\":[{\"c\":1,\"c\":1}]}},", 1),
            hand.replacen('{', "{\"players\":{\"N\":\"x\",\"N\":\"y\"},", 1),
            hand.replacen(
                '{',
                "{\"match_state\":{\"hands_played\":1,\"hands_played\":1},",
                1,
            ),
            hand.replacen('{', "{\"match_state\":{\"x\":{\"y\":1,\"y\":1}},", 1),
            // The same key, once written with an escape.
            hand.replacen('{', "{\"de\\u0061ler\":\"N\",", 1),
            // Data after the document.
            format!("{hand} x"),
            format!("{hand}{{}}"),
            format!("{hand}{hand}"),
            // Wrong types, at several depths.
            edited(&|r| r["dealer"] = json!(5)),
            edited(&|r| r["deal"]["N"] = json!("AS")),
            edited(&|r| r["actions"][2]["seat"] = json!(["N"])),
            edited(&|r| r["actions"][2][verb.as_str()] = json!({"x": 1})),
            edited(&|r| r["actions"] = json!({})),
            // Numbers out of range, or not whole.
            edited(&|r| r["match_state"] = json!({"hands_played": 4_294_967_296_u64})),
            edited(&|r| r["match_state"] = json!({"hands_played": -1})),
            edited(&|r| r["match_state"] = json!({"hands_played": 1.5})),
            // Unknown fields and values, at several depths.
            edited(&|r| r["dealt"] = json!(1)),
            edited(&|r| r["deal"]["Q"] = json!([])),
            edited(&|r| r["actions"][1]["dance"] = json!(1)),
            edited(&|r| r["options"] = json!({"no such option": true})),
            edited(&|r| r["match_state"] = json!({"no such field": 1})),
            // No document, or not an object.
            String::new(),
            " \n".into(),
            "[]".into(),
            "null".into(),
            hand[..hand.len() - 1].into(),
            // A key given twice in a long object (one the one pass leaves to the walk).
            hand.replacen(
                '{',
                &format!(
                    "{{\"options\":{{{}\"k0\":1}},",
                    (0..40).map(|i| format!("\"k{i}\":0,")).collect::<String>()
                ),
                1,
            ),
            // Deep nesting: within serde's depth limit, and beyond it.
            hand.replacen(
                '{',
                &format!(
                    "{{\"options\":{{\"a\":{}1{}}},",
                    "[".repeat(100),
                    "]".repeat(100)
                ),
                1,
            ),
            hand.replacen(
                '{',
                &format!(
                    "{{\"options\":{{\"a\":{}1{}}},",
                    "[".repeat(200),
                    "]".repeat(200)
                ),
                1,
            ),
        ];
        let taken = [
            hand.clone(),
            format!("\u{feff}{hand} \n"),
            // A key written with an escape is read by the path-reporting reader alone.
            hand.replacen("\"dealer\"", "\"de\\u0061ler\"", 1),
        ];
        // The one pass takes a well-formed body itself (the comparison below would hold even if
        // it handed every body to the path-reporting reader).
        for body in &taken[..2] {
            assert!(
                rules.read_json(without_bom(body.as_bytes())).is_some(),
                "{game}"
            );
            assert!(read_unique::<HandRecord>(without_bom(body.as_bytes())).is_some());
        }
        for body in refused.iter().chain(&taken) {
            let fast = answer(hand_record(rules, body.as_bytes()));
            let slow = answer(hand_record_checked(rules, body.as_bytes()));
            assert_eq!(fast, slow, "{game}: {body}");
            let fast =
                parse_json::<HandRecord>(body.as_bytes()).map(|r| serde_json::to_value(r).unwrap());
            let slow = checked_document(body.as_bytes())
                .and_then(read_document::<HandRecord>)
                .map(|r| serde_json::to_value(r).unwrap());
            assert_eq!(
                fast.map_err(|p| serde_json::to_value(p).unwrap()),
                slow.map_err(|p| serde_json::to_value(p).unwrap()),
                "{game}: {body}"
            );
        }
        for body in &refused {
            assert_ne!(body, &hand, "{game}: the edit applies");
            let answer = answer(hand_record(rules, body.as_bytes()));
            assert!(
                answer.is_err() || answer.as_ref().is_ok_and(|a| a.get("refused").is_some()),
                "{game}: refused: {body}"
            );
        }
        for body in &taken {
            let ruling = answer(hand_record(rules, body.as_bytes())).unwrap();
            assert!(ruling.get("refused").is_none(), "{game}: taken: {body}");
        }
    }
}

// ---- 5. headers the RFCs require -------------------------------------------------------------

#[actix_web::test]
async fn every_405_names_the_allowed_methods_as_the_spec_does() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let spec: Value = serde_json::from_str(&arbiter::api::openapi_json()).unwrap();
    for (path, ops) in spec["paths"].as_object().unwrap() {
        let mut allowed: Vec<String> = ops
            .as_object()
            .unwrap()
            .keys()
            .map(|m| m.to_uppercase())
            .collect();
        if allowed.contains(&"GET".to_string()) {
            allowed.push("HEAD".into());
        }
        allowed.sort();
        // Every path parameter but the game is an id: 1 matches the route.
        let uri = path
            .replace("{game}", "malilla")
            .split('/')
            .map(|s| if s.starts_with('{') { "1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        let method = ["PUT", "PATCH", "DELETE", "POST"]
            .into_iter()
            .find(|m| !allowed.iter().any(|a| a == m))
            .unwrap();
        let r = send(
            &app,
            http::TestRequest::default()
                .method(method.parse().unwrap())
                .uri(&uri),
        )
        .await;
        assert_eq!(r.status, 405, "{method} {uri}: {}", r.text);
        assert_eq!(r.header("content-type"), "application/problem+json");
        let mut got: Vec<String> = r
            .header("allow")
            .split(',')
            .map(|m| m.trim().to_string())
            .collect();
        got.sort();
        assert_eq!(got, allowed, "Allow of {path}");
    }
    // The desk's pages, outside the API document, are read-only.
    for uri in ["/desk", "/desk/", "/desk/index.html"] {
        let r = send(&app, http::TestRequest::patch().uri(uri)).await;
        assert_eq!((r.status, r.header("allow")), (405, "GET, HEAD"), "{uri}");
    }
}

#[actix_web::test]
async fn head_401_and_201_carry_their_headers() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    for uri in ["/health", "/v1/games", "/v1/games/malilla", "/v1/clubs"] {
        let r = send(
            &app,
            http::TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri(uri),
        )
        .await;
        assert_eq!(r.status, 200, "HEAD {uri}: {}", r.text);
    }
    let r = send(
        &app,
        http::TestRequest::default()
            .method(actix_web::http::Method::HEAD)
            .uri("/v1/games/malilla/adjudications"),
    )
    .await;
    assert_eq!(r.status, 405);
    // 401: the scheme to authenticate with.
    let r = send(&app, post_json("/v1/clubs/1/players", "", "{}")).await;
    assert_eq!(r.status, 401);
    assert!(
        r.header("www-authenticate").starts_with("Bearer"),
        "{:?}",
        r.headers
    );
    let r = send(&app, post_json("/v1/clubs", "wrong", "{\"name\":\"x\"}")).await;
    assert_eq!(r.status, 403);
    // 201: where the new resource is.
    let r = send(
        &app,
        post_json("/v1/clubs", "operator-token", "{\"name\":\"Casa\"}"),
    )
    .await;
    assert_eq!((r.status, r.header("location")), (201, "/v1/clubs/1"));
    let key = r.json["key"]["secret"].as_str().unwrap().to_string();
    let located = |r: Reply, collection: &str| {
        assert_eq!(
            r.header("location"),
            // A key's id is a public string, every other id a number.
            format!(
                "/v1/clubs/1/{collection}/{}",
                r.json["id"]
                    .as_str()
                    .map_or(r.json["id"].to_string(), String::from)
            ),
            "{}",
            r.text
        );
    };
    for (uri, body, collection) in [
        ("/v1/clubs/1/keys", json!({"label": "laptop"}), "keys"),
        ("/v1/clubs/1/players", json!({"name": "Ana"}), "players"),
        ("/v1/clubs/1/players", json!({"name": "Ben"}), "players"),
        ("/v1/clubs/1/players", json!({"name": "Cai"}), "players"),
        ("/v1/clubs/1/players", json!({"name": "Dee"}), "players"),
        (
            "/v1/clubs/1/partnerships",
            json!({"players": [1, 3]}),
            "partnerships",
        ),
        (
            "/v1/clubs/1/leagues",
            json!({"name": "T", "season": "2026", "game": "malilla"}),
            "leagues",
        ),
        (
            "/v1/clubs/1/leagues/1/sessions",
            json!({"name": "E1"}),
            "sessions",
        ),
        (
            "/v1/clubs/1/matches",
            json!({"session": 1, "seats": {"N": 1, "E": 2, "S": 3, "W": 4}}),
            "matches",
        ),
        (
            "/v1/clubs/1/matches/1/hands",
            fixture("malilla", "01"),
            "hands",
        ),
    ] {
        located(create(&app, &key, uri, body).await, collection);
    }
    // A replayed creation says where too.
    for _ in 0..2 {
        let r = send(
            &app,
            post_json("/v1/clubs/1/players", &key, "{\"name\":\"Eve\"}")
                .insert_header(("idempotency-key", "eve")),
        )
        .await;
        located(r, "players");
    }
    // An import creates the session's hands.
    let sheet = "match,hand,dealer,seat,action,value\n";
    let r = send(&app, csv_sheet(&key, sheet)).await;
    assert_eq!(
        (r.status, r.header("location")),
        (201, "/v1/clubs/1/sessions/1/hands"),
        "{}",
        r.text
    );
}

// ---- 6. content codings and negotiation -----------------------------------------------------

#[actix_web::test]
async fn content_codings_byte_order_marks_and_accept_are_honoured() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    let hand = fixture("malilla", "01").to_string();
    for coding in [
        "gzip",
        "br",
        "deflate",
        "zstd",
        "x-unknown",
        "identity, gzip",
    ] {
        let r = send(
            &app,
            post_json("/v1/games/malilla/adjudications", "", &hand)
                .insert_header(("content-encoding", coding)),
        )
        .await;
        assert_eq!(r.status, 415, "{coding}: {}", r.text);
        assert_eq!(r.header("content-type"), "application/problem+json");
        assert_eq!(r.header("accept-encoding"), "identity");
    }
    let r = send(
        &app,
        post_json("/v1/games/malilla/adjudications", "", &hand)
            .insert_header(("content-encoding", "identity")),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = send(
        &app,
        http::TestRequest::post()
            .uri("/v1/clubs/1/sessions/1/sheet")
            .insert_header(bearer(&key))
            .insert_header(("content-type", "text/csv"))
            .insert_header(("content-encoding", "gzip"))
            .set_payload("match,hand,dealer,seat,action,value\n"),
    )
    .await;
    assert_eq!(r.status, 415, "{}", r.text);
    // A byte order mark before JSON, as before CSV.
    let r = send(
        &app,
        post_json(
            "/v1/games/malilla/adjudications",
            "",
            &format!("\u{feff}{hand}"),
        ),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Accept with q-values.
    for (accept, csv) in [
        ("text/csv", true),
        ("application/csv", true),
        ("text/*", true),
        ("*/*", false),
        ("application/json;q=0.5, text/csv", true),
        ("text/csv;q=0.1, application/json", false),
        ("text/csv;q=0", false),
        ("text/csv;q=0.5, */*;q=0.9", false),
        ("application/json;q=0, text/csv;q=0.2", true),
    ] {
        let r = send(
            &app,
            http::TestRequest::get()
                .uri("/v1/clubs/1/leagues/1/standings")
                .insert_header(("accept", accept)),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.header("content-type").starts_with("text/csv"),
            csv,
            "Accept: {accept} gave {}",
            r.header("content-type")
        );
    }
    // A sheet sent as application/csv.
    let r = send(
        &app,
        http::TestRequest::post()
            .uri("/v1/clubs/1/sessions/1/sheet")
            .insert_header(bearer(&key))
            .insert_header(("content-type", "application/csv"))
            .set_payload("match,hand,dealer,seat,action,value\n"),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
}

// ---- 7. input hygiene ------------------------------------------------------------------------

#[actix_web::test]
async fn impossible_dates_bidi_controls_long_names_and_empty_cursors() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    for date in [
        "2026-02-30",
        "2026-02-29",
        "2026-04-31",
        "2100-02-29",
        "2026-00-10",
        // Dates are from 1900 to 2200 (issue 19).
        "0000-01-01",
        "1899-12-31",
        "2201-01-01",
        "9999-12-31",
    ] {
        let body = json!({"name": "E", "played_on": date}).to_string();
        send(
            &app,
            post_json("/v1/clubs/1/leagues/1/sessions", &key, &body),
        )
        .await
        .refused(422, "/played_on");
    }
    for date in [
        "2028-02-29",
        "2000-02-29",
        "2026-12-31",
        "1900-01-01",
        "2200-12-31",
    ] {
        create(
            &app,
            &key,
            "/v1/clubs/1/leagues/1/sessions",
            json!({"name": "E", "played_on": date}),
        )
        .await;
    }
    for c in ['\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}'] {
        let body = json!({"name": format!("Ana{c}")}).to_string();
        send(&app, post_json("/v1/clubs/1/players", &key, &body))
            .await
            .refused(422, "/name");
        let mut hand = fixture("malilla", "01");
        hand["players"] = json!({"N": format!("{c}Ana")});
        send(
            &app,
            post_json("/v1/games/malilla/adjudications", "", &hand.to_string()),
        )
        .await
        .refused(422, "/players");
    }
    // One limit for a player's name, in a league and in a record.
    let long = "x".repeat(100);
    create(&app, &key, "/v1/clubs/1/players", json!({"name": long})).await;
    let mut hand = fixture("malilla", "01");
    hand["players"] = json!({"N": long});
    let r = send(
        &app,
        post_json("/v1/games/malilla/adjudications", "", &hand.to_string()),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let longer = "x".repeat(101);
    send(
        &app,
        post_json(
            "/v1/clubs/1/players",
            &key,
            &json!({"name": longer}).to_string(),
        ),
    )
    .await
    .refused(422, "/name");
    hand["players"] = json!({"N": longer});
    send(
        &app,
        post_json("/v1/games/malilla/adjudications", "", &hand.to_string()),
    )
    .await
    .refused(422, "/players");
    // An empty cursor is the first page.
    let r = send(
        &app,
        http::TestRequest::get().uri("/v1/clubs/1/matches/1/hands?cursor="),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["items"].as_array().unwrap().len(), 1);
}

// ---- 8. a private database file ---------------------------------------------------------------

#[cfg(unix)]
#[test]
fn the_database_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new").join("league.db");
    let store = arbiter::league::Store::open(&db).unwrap();
    store
        .write(|tx| arbiter::league::create_club(tx, "Casa", Default::default()))
        .unwrap();
    assert_eq!(mode(db.parent().unwrap()), 0o700);
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(&dir.path().join("new").join("league.db-wal")), 0o600);
    // A directory anybody may write to is refused: another user could replace the file.
    let open = dir.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let err = arbiter::league::Store::open(&open.join("league.db"))
        .err()
        .expect("refused");
    assert!(format!("{err:?}").contains("world-writable"), "{err:?}");
    assert!(!open.join("league.db").exists());
}

// ---- 13. errors that say what failed ------------------------------------------------------------

#[actix_web::test]
async fn refusals_say_what_failed() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    let r = send(
        &app,
        post_json("/v1/clubs/1/players", &key, "{\"name\":\"\"}"),
    )
    .await;
    r.refused(422, "/name");
    assert_eq!(r.json["title"], "The request is not valid", "{}", r.text);
    let mut hand = fixture("malilla", "01");
    hand["deal"]["N"][0] = json!("7H");
    let r = send(
        &app,
        post_json("/v1/games/malilla/adjudications", "", &hand.to_string()),
    )
    .await;
    assert_eq!(
        r.json["title"], "The record cannot be adjudicated",
        "{}",
        r.text
    );
    // A four-seat game offers its own seats.
    hand = fixture("malilla", "01");
    hand["dealer"] = json!("X");
    let r = send(
        &app,
        post_json("/v1/games/malilla/adjudications", "", &hand.to_string()),
    )
    .await;
    r.refused(422, "/dealer");
    assert!(!r.text.contains("P1"), "{}", r.text);
    // So does the offline adjudicator.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hand.json");
    std::fs::write(&file, hand.to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("adjudicate")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("expected N, E, S, W") && !err.contains("P1"),
        "{err}"
    );
    assert!(err.contains("The record cannot be adjudicated"), "{err}");
    // So do the league's writes: a match's seats, a stored match's next hand, an amendment.
    let bad_seats = json!({"session": 1, "seats": {"N": 1, "E": 2, "S": 3, "X": 4}});
    for (uri, body, pointer) in [
        ("/v1/clubs/1/matches", bad_seats, "/seats/X"),
        ("/v1/clubs/1/matches/1/hands", hand.clone(), "/dealer"),
        (
            "/v1/clubs/1/hands/1/amend",
            json!({"record": hand}),
            "/record/dealer",
        ),
    ] {
        let r = send(&app, post_json(uri, &key, &body.to_string())).await;
        r.refused(422, pointer);
        assert!(
            r.text.contains("expected N, E, S, W") && !r.text.contains("P1"),
            "{uri}: {}",
            r.text
        );
    }
    // Two spellings of one seat are refused, not one silently replaced by the other.
    let twice = json!({"session": 1, "seats": {"P01": 1, "P1": 2, "E": 3, "S": 4}});
    let r = send(
        &app,
        post_json("/v1/clubs/1/matches", &key, &twice.to_string()),
    )
    .await;
    r.refused(422, "/seats/P1");
    assert!(r.text.contains("seat P1 is given twice"), "{}", r.text);
    // An amendment's record that does not adjudicate is a record's problem, as a new hand's is;
    // its note is the request's.
    let mut record = fixture("malilla", "01");
    record["deal"]["N"][0] = json!("7H");
    for uri in ["/v1/clubs/1/matches/1/hands", "/v1/clubs/1/hands/1/amend"] {
        let body = if uri.ends_with("amend") {
            json!({"record": record})
        } else {
            record.clone()
        };
        let r = send(&app, post_json(uri, &key, &body.to_string())).await;
        assert_eq!(r.status, 422, "{uri}: {}", r.text);
        assert_eq!(
            r.json["type"], "urn:arbiter:problem:invalid-record",
            "{uri}: {}",
            r.text
        );
        assert_eq!(
            r.json["title"], "The record cannot be adjudicated",
            "{uri}: {}",
            r.text
        );
    }
    let note = json!({"record": fixture("malilla", "01"), "note": "x".repeat(1001)});
    let r = send(
        &app,
        post_json("/v1/clubs/1/hands/1/amend", &key, &note.to_string()),
    )
    .await;
    r.refused(422, "/note");
    assert_eq!(
        r.json["type"], "urn:arbiter:problem:invalid-request",
        "{}",
        r.text
    );
    // An unbalanced quote is reported as one, where it opens.
    let sheet = "match,hand,dealer,seat,action,value\nt1,,,N,sit,\"Ana\nt1,,,E,sit,Ben\n";
    let r = send(&app, csv_sheet(&key, sheet)).await;
    r.refused(422, "/rows/2/value");
    assert!(r.text.contains("quote"), "{}", r.text);
    assert_eq!(
        r.json["title"], "The sheet cannot be imported",
        "{}",
        r.text
    );
    // The template: match labels that are not ids, and no stock row for a game without a stock.
    let r = send(
        &app,
        http::TestRequest::get().uri("/v1/games/malilla/sheet-template"),
    )
    .await;
    let rows = csv_rows(&r.text);
    for row in &rows[1..] {
        assert!(row[0].parse::<i64>().is_err(), "label {}", row[0]);
        assert_ne!(row[4], "stock", "{}", r.text);
    }
    let r = send(
        &app,
        http::TestRequest::get().uri("/v1/games/briscola/sheet-template"),
    )
    .await;
    assert!(
        csv_rows(&r.text).iter().any(|r| r[4] == "stock"),
        "{}",
        r.text
    );
}

/// What the sheet template offers (`Rules::setup`) is what the games' fixtures record.
#[test]
fn each_game_names_the_undealt_fields_its_fixtures_use() {
    for game in arbiter::games::all() {
        let id = game.info().id;
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(id);
        let mut used = std::collections::BTreeSet::new();
        for file in std::fs::read_dir(&dir).unwrap() {
            let f: Value =
                serde_json::from_slice(&std::fs::read(file.unwrap().path()).unwrap()).unwrap();
            if f.get("expected_status").is_some() {
                continue;
            }
            let records = f["record"]["hands"]
                .as_array()
                .cloned()
                .unwrap_or_else(|| vec![f["record"].clone()]);
            for r in records {
                for field in ["face_up", "stock", "second_stock", "shoe"] {
                    if r[field].as_array().is_some_and(|a| !a.is_empty()) {
                        used.insert(field);
                    }
                }
                if r["cut_card"].is_u64() {
                    used.insert("cut_card");
                }
            }
        }
        let setup = game.setup(&Options::defaults(game.info().options));
        let named: std::collections::BTreeSet<&str> =
            setup.parts.iter().map(|h| h.part.field()).collect();
        assert_eq!(named, used, "{id}");
    }
}

// ---- 15. the spec states what the server checks -------------------------------------------------

#[actix_web::test]
async fn names_cursors_and_idempotency_keys_are_refused_as_the_spec_says() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = club(&app, "Casa").await;
    let spec: Value = serde_json::from_str(&arbiter::api::openapi_json()).unwrap();
    let name = &spec["components"]["schemas"]["Name"];
    assert_eq!(name["maxLength"], 100);
    // 101 characters, the last a space: over the spec's maxLength, so refused (it was trimmed first).
    let long = format!("{} ", "x".repeat(100));
    send(
        &app,
        post_json(
            "/v1/clubs/1/players",
            &key,
            &json!({"name": long}).to_string(),
        ),
    )
    .await
    .refused(422, "/name");
    let hands = &spec["paths"]["/v1/clubs/{club}/matches/{match}/hands"]["get"]["parameters"];
    let cursor = hands
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "cursor")
        .unwrap();
    assert_eq!(cursor["schema"]["pattern"], "^[0-9]{0,18}$");
    let r = send(
        &app,
        http::TestRequest::get().uri("/v1/clubs/1/matches/1/hands?cursor=x"),
    )
    .await;
    r.refused(400, "/query/cursor");
}

// ---- 16. issue 19: the bearer scheme, names -----------------------------------------------------

#[actix_web::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = club(&app, "Casa").await;
    for (scheme, name) in [("bearer", "Ana"), ("BEARER", "Ben"), ("BeArEr", "Cai")] {
        let r = send(
            &app,
            http::TestRequest::post()
                .uri("/v1/clubs/1/players")
                .insert_header(("authorization", format!("{scheme} {key}")))
                .set_json(json!({"name": name})),
        )
        .await;
        assert_eq!(r.status, 201, "{scheme}: {}", r.text);
    }
    // Another scheme is still no key.
    let r = send(
        &app,
        http::TestRequest::post()
            .uri("/v1/clubs/1/players")
            .insert_header(("authorization", format!("Basic {key}")))
            .set_json(json!({"name": "Dee"})),
    )
    .await;
    assert_eq!(r.status, 401, "{}", r.text);
}

#[actix_web::test]
async fn invisible_characters_are_refused_and_names_are_compared_after_nfc() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = club(&app, "Casa").await;
    create(&app, &key, "/v1/clubs/1/players", json!({"name": "Ana"})).await;
    // Format characters (Cf), line and paragraph separators (Zl, Zp): each makes a name that
    // looks like another.
    for name in [
        "Ana\u{200b}",
        "Ana\u{200f}",
        "Ana\u{061c}",
        "\u{feff}Ana",
        "An\u{2028}a",
        "An\u{2029}a",
        "Ana\u{e0041}",
        "Ana\u{00ad}",
    ] {
        let body = json!({"name": name}).to_string();
        send(&app, post_json("/v1/clubs/1/players", &key, &body))
            .await
            .refused(422, "/name");
        // The same rule for every name taken: a league's, a key's label, a club's.
        send(
            &app,
            post_json(
                "/v1/clubs/1/leagues",
                &key,
                &json!({"name": name, "season": "2026", "game": "malilla"}).to_string(),
            ),
        )
        .await
        .refused(422, "/name");
        send(
            &app,
            post_json(
                "/v1/clubs/1/keys",
                &key,
                &json!({"label": name}).to_string(),
            ),
        )
        .await
        .refused(422, "/label");
    }
    // "José" composed and decomposed are one name: stored in NFC, the second is a conflict.
    let composed = create(
        &app,
        &key,
        "/v1/clubs/1/players",
        json!({"name": "Jos\u{e9}"}),
    )
    .await;
    assert_eq!(composed.json["name"], "Jos\u{e9}");
    let r = send(
        &app,
        post_json(
            "/v1/clubs/1/players",
            &key,
            &json!({"name": "Jose\u{301}"}).to_string(),
        ),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    // A decomposed name is stored composed.
    let r = create(
        &app,
        &key,
        "/v1/clubs/1/players",
        json!({"name": "Ine\u{301}s"}),
    )
    .await;
    assert_eq!(r.json["name"], "In\u{e9}s");
    // Renaming a player to another's name (after NFC) is a conflict too.
    let r = send(
        &app,
        http::TestRequest::patch()
            .uri(&format!("/v1/clubs/1/players/{}", r.json["id"]))
            .insert_header(bearer(&key))
            .set_json(json!({"name": "Jose\u{301}"})),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    // The rule's pattern in the OpenAPI document refuses them too.
    let spec: Value = serde_json::from_str(&arbiter::api::openapi_json()).unwrap();
    let pattern = spec["components"]["schemas"]["Name"]["pattern"]
        .as_str()
        .unwrap()
        .to_string();
    for class in [
        "\\u00ad",
        "\\u061c",
        "\\u200b-\\u200f",
        "\\u2028-\\u202e",
        "\\ufeff",
    ] {
        assert!(pattern.contains(class), "{class} not in {pattern}");
    }
}

// ---- 17. issue 19: idempotent replays keep no secret and belong to their key --------------------

/// The app's database, opened beside it, for what no endpoint shows: what an idempotent answer
/// kept.
fn kept_bodies(db: &tempfile::TempDir) -> Vec<String> {
    common::store_in(db.path())
        .read(|tx| tx.query_map("SELECT body FROM idempotency_keys", &[], |r| r.get(0)))
        .unwrap()
}

#[actix_web::test]
async fn a_replayed_key_creation_never_shows_the_secret_and_replays_are_the_senders_own() {
    let (state, db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key_a = club(&app, "Casa").await;
    let make_key = |key: &str, idem: &str| {
        post_json("/v1/clubs/1/keys", key, r#"{"label": "laptop"}"#)
            .insert_header(("idempotency-key", idem.to_string()))
    };
    let first = send(&app, make_key(&key_a, "new-laptop")).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let secret = first.json["secret"].as_str().unwrap().to_string();
    // The secret is not in what the store kept.
    let kept = kept_bodies(&db);
    assert_eq!(kept.len(), 1);
    assert!(!kept[0].contains(&secret), "{}", kept[0]);
    // The same key's retry: the key's id and label, and that the secret was shown once.
    let again = send(&app, make_key(&key_a, "new-laptop")).await;
    assert_eq!(
        (again.status, again.header("idempotent-replayed")),
        (201, "true"),
        "{}",
        again.text
    );
    assert_eq!(
        again.json,
        json!({"id": first.json["id"], "club": 1, "label": "laptop", "secret_shown_once": true})
    );
    assert_eq!(
        again.header("location"),
        format!("/v1/clubs/1/keys/{}", first.json["id"].as_str().unwrap())
    );
    // Another key of the club sending the same Idempotency-Key and body: 409, nothing of the
    // first answer, and no second key.
    let key_b = secret;
    let other = send(&app, make_key(&key_b, "new-laptop")).await;
    assert_eq!(other.status, 409, "{}", other.text);
    assert!(!other.text.contains(first.json["id"].as_str().unwrap()));
    let keys = send(
        &app,
        http::TestRequest::get()
            .uri("/v1/clubs/1/keys")
            .insert_header(bearer(&key_a)),
    )
    .await;
    assert_eq!(
        keys.json["items"].as_array().unwrap().len(),
        2,
        "{}",
        keys.text
    );
    // Another key's request is not replayed to it either when it is not a key creation.
    let player = |key: &str| {
        post_json("/v1/clubs/1/players", key, r#"{"name": "Ana"}"#)
            .insert_header(("idempotency-key", "ana"))
    };
    assert_eq!(send(&app, player(&key_a)).await.status, 201);
    assert_eq!(send(&app, player(&key_b)).await.status, 409);
    assert_eq!(send(&app, player(&key_a)).await.status, 201);
    // Answers are kept 24 hours: later (here, months later) the same Idempotency-Key runs as new.
    common::store_in(db.path())
        .write(|tx| {
            tx.execute(
                "UPDATE idempotency_keys SET created_at = '2026-01-01T00:00:00Z'",
                &[],
            )
        })
        .unwrap();
    let later = send(&app, make_key(&key_a, "new-laptop")).await;
    assert_eq!(
        (later.status, later.header("idempotent-replayed")),
        (201, ""),
        "{}",
        later.text
    );
    assert_ne!(later.json["id"], first.json["id"]);
    assert!(later.json["secret"].is_string());
    // The expired answers were dropped; the new one is kept.
    assert_eq!(kept_bodies(&db).len(), 1);
}

// ---- 18. issue 19: who may read what ------------------------------------------------------------

/// A GET of `uri`, with `key` when it is not empty.
fn get(uri: &str, key: &str) -> http::TestRequest {
    let req = http::TestRequest::get().uri(uri);
    if key.is_empty() {
        req
    } else {
        req.insert_header(bearer(key))
    }
}

#[actix_web::test]
async fn public_results_show_scores_to_anyone_and_records_to_members() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    let other = club(&app, "Other").await;
    let r = send(&app, get("/v1/clubs/1", "")).await;
    assert_eq!(
        (r.status, r.json["visibility"].as_str()),
        (200, Some("public_results"))
    );
    for uri in [
        "/v1/clubs",
        "/v1/clubs/1/players",
        "/v1/clubs/1/players/1",
        "/v1/clubs/1/leagues/1",
        "/v1/clubs/1/leagues/1/sessions",
        "/v1/clubs/1/leagues/1/standings",
        "/v1/clubs/1/sessions/1/matches",
        "/v1/clubs/1/matches/1",
        "/v1/clubs/1/matches/1/hands",
        "/v1/clubs/1/leagues/1/hands",
    ] {
        for who in ["", &other, &key] {
            let r = send(&app, get(uri, who)).await;
            assert_eq!(r.status, 200, "{uri}: {}", r.text);
        }
    }
    // A hand list shows the ruling's headline, not the cards.
    let r = send(&app, get("/v1/clubs/1/matches/1/hands", "")).await;
    assert!(r.json["items"][0]["hand_score"].is_object());
    assert!(!r.text.contains("\"deal\""), "{}", r.text);
    // Records, the audit trail and sheets: 401 without a key, 403 with another club's.
    for uri in [
        "/v1/clubs/1/hands/1",
        "/v1/clubs/1/hands/1/amendments",
        "/v1/clubs/1/amendments",
        "/v1/clubs/1/sessions/1/sheet",
    ] {
        let r = send(&app, get(uri, "")).await;
        assert_eq!(r.status, 401, "{uri}: {}", r.text);
        assert!(r.header("www-authenticate").starts_with("Bearer"));
        assert_eq!(send(&app, get(uri, &other)).await.status, 403, "{uri}");
        let r = send(&app, get(uri, &key)).await;
        assert_eq!(r.status, 200, "{uri}: {}", r.text);
        // And the operator reads them.
        assert_eq!(
            send(&app, get(uri, "operator-token")).await.status,
            200,
            "{uri}"
        );
    }
    // A key that is unknown is 401, even on public results.
    let r = send(&app, get("/v1/clubs/1/leagues/1/standings", "arb_00")).await;
    assert_eq!(r.status, 401, "{}", r.text);
}

#[actix_web::test]
async fn a_members_only_club_does_not_exist_to_strangers() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let key = malilla_match(&app, ["Ana", "Ben", "Cai", "Dee"]).await;
    let other = club(&app, "Other").await;
    // Club 1 turns members-only with its key; the answer is the club's view.
    let r = send(
        &app,
        http::TestRequest::patch()
            .uri("/v1/clubs/1")
            .insert_header(bearer(&key))
            .set_json(json!({"visibility": "members_only"})),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["visibility"], "members_only");
    // Another club's key cannot change it (to that key the club does not exist).
    let r = send(
        &app,
        http::TestRequest::patch()
            .uri("/v1/clubs/1")
            .insert_header(bearer(&other))
            .set_json(json!({"visibility": "public_results"})),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.text);
    // A club created members-only over HTTP.
    let r = send(
        &app,
        post_json(
            "/v1/clubs",
            "operator-token",
            r#"{"name": "Quiet", "visibility": "members_only"}"#,
        ),
    )
    .await;
    assert_eq!(
        (r.status, r.json["club"]["visibility"].as_str()),
        (201, Some("members_only")),
        "{}",
        r.text
    );
    let quiet = r.json["key"]["secret"].as_str().unwrap().to_string();
    // Strangers (no key, another club's key) get what a club that does not exist gets, for the
    // club and everything under it.
    let missing = send(&app, get("/v1/clubs/99", "")).await;
    assert_eq!(missing.status, 404);
    for uri in [
        "/v1/clubs/1",
        "/v1/clubs/1/players",
        "/v1/clubs/1/players/1",
        "/v1/clubs/1/leagues/1/standings",
        "/v1/clubs/1/matches/1/hands",
        "/v1/clubs/1/hands/1",
        "/v1/clubs/1/hands/1/amendments",
        "/v1/clubs/1/amendments",
        "/v1/clubs/1/sessions/1/sheet",
    ] {
        for who in ["", &other, &quiet] {
            let r = send(&app, get(uri, who)).await;
            assert_eq!(r.status, 404, "{uri} by {who:?}: {}", r.text);
            assert_eq!(
                (&r.json["type"], &r.json["title"], r.json["detail"].as_str()),
                (
                    &missing.json["type"],
                    &missing.json["title"],
                    Some("no club 1")
                ),
                "{uri}"
            );
        }
        let r = send(&app, get(uri, &key)).await;
        assert_eq!(r.status, 200, "{uri}: {}", r.text);
    }
    // A write by another club's key: 404 as for a club that does not exist (403 would say it does).
    let r = send(
        &app,
        post_json("/v1/clubs/1/players", &other, r#"{"name": "Eve"}"#),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = send(
        &app,
        post_json("/v1/clubs/99/players", &other, r#"{"name": "Eve"}"#),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.text);
    // An unknown key is 401 whether or not the club exists.
    for club in [1, 99] {
        let r = send(
            &app,
            post_json(
                &format!("/v1/clubs/{club}/players"),
                "arb_00",
                r#"{"name": "Eve"}"#,
            ),
        )
        .await;
        assert_eq!(r.status, 401, "{}", r.text);
    }
    // The list of clubs leaves out the members-only clubs a reader is not a member of.
    let names = |r: Reply| -> Vec<String> {
        r.json["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(send(&app, get("/v1/clubs", "")).await), ["Other"]);
    assert_eq!(names(send(&app, get("/v1/clubs", &other)).await), ["Other"]);
    assert_eq!(
        names(send(&app, get("/v1/clubs", &key)).await),
        ["Casa", "Other"]
    );
    assert_eq!(
        names(send(&app, get("/v1/clubs", "operator-token")).await),
        ["Casa", "Other", "Quiet"]
    );
    // The spec says it: a visibility on the club, and which reads need a key.
    let spec: Value = serde_json::from_str(&arbiter::api::openapi_json()).unwrap();
    assert_eq!(
        spec["components"]["schemas"]["Visibility"]["enum"],
        json!(["public_results", "members_only"])
    );
    let hand = &spec["paths"]["/v1/clubs/{club}/hands/{hand}"]["get"];
    assert_eq!(hand["security"], json!([{"bearer": []}]));
    assert!(hand["responses"]["403"].is_object());
    let standings = &spec["paths"]["/v1/clubs/{club}/leagues/{league}/standings"]["get"];
    assert_eq!(standings["security"], json!([{}, {"bearer": []}]));
}
