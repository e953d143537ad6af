//! The league store over HTTP, on a real SQLite file in a temporary directory: a season whose
//! standings were added up by hand, sheets in and out, refusals that leave no trace, idempotent
//! retries, keys that cannot cross clubs, readjudication, and a restart that keeps everything.

mod common;

use actix_http::Request;
use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test as http;
use arbiter::api::league::LeagueState;
use arbiter::league::Packed;
use serde_json::{Value, json};
use std::future::poll_fn;
use std::path::Path;
use std::pin::pin;

/// What a call returned: status, headers we look at, and the body (JSON when it parses).
struct Reply {
    status: u16,
    content_type: String,
    link: String,
    replayed: bool,
    /// The body came as a stream (chunked), in this many chunks; 0 when it came whole.
    chunks: usize,
    text: String,
    json: Value,
}

struct Client<S> {
    app: S,
    key: String,
}

impl<S, B> Client<S>
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    async fn send(&self, req: http::TestRequest) -> Reply {
        let resp = http::call_service(&self.app, req.to_request()).await;
        let status = resp.status().as_u16();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default()
        };
        let (content_type, link, replayed) = (
            header("content-type"),
            header("link"),
            header("idempotent-replayed") == "true",
        );
        let mut body = pin!(resp.into_body());
        let streamed = matches!(body.size(), BodySize::Stream);
        let (mut bytes, mut chunks) = (Vec::new(), 0);
        while let Some(chunk) = poll_fn(|cx| body.as_mut().poll_next(cx)).await {
            bytes.extend_from_slice(&chunk.unwrap_or_else(|_| panic!("the body broke off")));
            chunks += 1;
        }
        let text = String::from_utf8(bytes).unwrap();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply {
            status,
            content_type,
            link,
            replayed,
            chunks: if streamed { chunks } else { 0 },
            text,
            json,
        }
    }

    /// A GET with the club's key (a member reads everything of the club).
    fn get_req(&self, uri: &str) -> http::TestRequest {
        http::TestRequest::get()
            .uri(uri)
            .insert_header(("authorization", format!("Bearer {}", self.key)))
    }

    async fn get(&self, uri: &str) -> Value {
        let r = self.send(self.get_req(uri)).await;
        assert_eq!(r.status, 200, "GET {uri}: {}", r.text);
        r.json
    }

    async fn get_csv(&self, uri: &str) -> String {
        let r = self
            .send(self.get_req(uri).insert_header(("accept", "text/csv")))
            .await;
        assert_eq!(r.status, 200, "GET {uri}: {}", r.text);
        assert!(r.content_type.starts_with("text/csv"), "{}", r.content_type);
        r.text
    }

    fn post_req(&self, uri: &str) -> http::TestRequest {
        http::TestRequest::post()
            .uri(uri)
            .insert_header(("authorization", format!("Bearer {}", self.key)))
    }

    async fn post(&self, uri: &str, body: &Value) -> Reply {
        self.send(self.post_req(uri).set_json(body)).await
    }

    /// Posts `record` as the next hand of match `m` of club 1.
    async fn post_hand(&self, m: i64, record: &Value) -> Reply {
        self.post(&format!("/v1/clubs/1/matches/{m}/hands"), record)
            .await
    }

    /// A POST that must create something; returns its id.
    async fn create(&self, uri: &str, body: Value) -> i64 {
        let r = self.post(uri, &body).await;
        assert_eq!(r.status, 201, "POST {uri}: {}", r.text);
        r.json["id"].as_i64().unwrap()
    }

    /// A POST by `key` that must create something; returns its `id` (a number, or a key's id).
    async fn create_as(&self, key: &str, uri: &str, body: Value) -> Value {
        let r = self
            .send(
                http::TestRequest::post()
                    .uri(uri)
                    .insert_header(("authorization", format!("Bearer {key}")))
                    .set_json(body),
            )
            .await;
        assert_eq!(r.status, 201, "POST {uri}: {}", r.text);
        r.json["id"].clone()
    }

    /// A GET of `uri` by `key` (none when empty).
    async fn get_as(&self, key: &str, uri: &str) -> Reply {
        let mut req = http::TestRequest::get().uri(uri);
        if !key.is_empty() {
            req = req.insert_header(("authorization", format!("Bearer {key}")));
        }
        self.send(req).await
    }

    /// Every item's `id` of the list at `path`, read by `key` `limit` at a time from the first page
    /// to the last. Each page but the last is full and names the next, by its last item's id, in
    /// `next_cursor` and in the `Link` header; the last has neither, and none is empty unless the
    /// list is.
    async fn walk(&self, key: &str, path: &str, limit: usize) -> Vec<Value> {
        let mut ids = Vec::new();
        let mut uri = format!("{path}?limit={limit}");
        for _ in 0..100 {
            let r = self.get_as(key, &uri).await;
            assert_eq!(r.status, 200, "GET {uri}: {}", r.text);
            let items = r.json["items"].as_array().unwrap();
            // A page that a cursor named is never empty: the page before it was the last.
            assert!(!items.is_empty() || ids.is_empty(), "{uri}: empty");
            ids.extend(items.iter().map(|x| x["id"].clone()));
            let Some(next) = r.json["next_cursor"].as_str() else {
                assert_eq!(r.json["next_cursor"], Value::Null, "{uri}: {}", r.text);
                assert_eq!(r.link, "", "no next page: {uri}");
                return ids;
            };
            assert_eq!(items.len(), limit, "{uri}: {}", r.text);
            let last = &items[limit - 1]["id"];
            assert_eq!(last.as_str().map_or(last.to_string(), str::to_string), next);
            uri = format!("{path}?cursor={next}&limit={limit}");
            assert_eq!(r.link, format!("<{uri}>; rel=\"next\""));
        }
        panic!("{path}: no last page in 100")
    }

    /// A match of `session` with set_up's Ana, Ben, Cai and Dee at N, E, S and W: its id.
    async fn match_of_four(&self, session: i64, p: &std::collections::BTreeMap<&str, i64>) -> i64 {
        self.create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"N": p["Ana"], "E": p["Ben"], "S": p["Cai"], "W": p["Dee"]}}),
        )
        .await
    }

    /// A league of three-player Briscola (2S removed) and a session of it: their ids.
    async fn briscola_for_three(&self) -> (i64, i64) {
        self.league_with_a_session("briscola", json!({"players": "3", "removed_two": "2S"}))
            .await
    }

    /// A league of `game` with `options` (named after the game) and a session of it.
    async fn league_with_a_session(&self, game: &str, options: Value) -> (i64, i64) {
        let league = self
            .create(
                "/v1/clubs/1/leagues",
                json!({"name": game, "season": "2026", "game": game, "options": options}),
            )
            .await;
        let session = self
            .create(
                &format!("/v1/clubs/1/leagues/{league}/sessions"),
                json!({"name": "Afternoon"}),
            )
            .await;
        (league, session)
    }

    /// Session `session`'s CSV sheet, imported into a new session of `league`: the sheet, and the
    /// league's standings after the import.
    async fn sheet_imported_again(&self, league: i64, session: i64) -> (String, Value) {
        let sheet = self
            .send(self.get_req(&format!("/v1/clubs/1/sessions/{session}/sheet")))
            .await
            .text;
        let other = self
            .create(
                &format!("/v1/clubs/1/leagues/{league}/sessions"),
                json!({"name": "Evening"}),
            )
            .await;
        let r = self.import(other, &sheet).await;
        assert_eq!(r.status, 201, "{}", r.text);
        let standings = self
            .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
            .await;
        (sheet, standings)
    }

    async fn import(&self, session: i64, sheet: &str) -> Reply {
        let uri = format!("/v1/clubs/1/sessions/{session}/sheet");
        self.send(
            self.post_req(&uri)
                .insert_header(("content-type", "text/csv"))
                .set_payload(sheet.to_string()),
        )
        .await
    }
}

/// A new club over HTTP, with the operator's token; returns the club id and its first key.
async fn new_club<S, B>(app: &S, name: &str) -> (i64, String)
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let c = Client {
        app,
        key: "operator-token".into(),
    };
    let r = c.post("/v1/clubs", &json!({"name": name})).await;
    assert_eq!(r.status, 201, "{}", r.text);
    (
        r.json["club"]["id"].as_i64().unwrap(),
        r.json["key"]["secret"].as_str().unwrap().to_string(),
    )
}

fn fixture(game: &str, prefix: &str) -> Value {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game);
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("no fixture {game}/{prefix}"));
    let f: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    f["record"].clone()
}

/// Session 1's matches: each a list of Malilla fixture hands (09 is dealt by E, so S deals 06 next).
const MALILLA_MATCHES: &[&[&str]] = &[
    &["01"],
    &["02"],
    &["09", "06"],
    &["11"],
    &["12"],
    &["14"],
    &["15"],
    &["16"],
];
const SS_HANDS: &[&str] = &["01", "02", "03", "06", "07", "08", "09", "10"];

/// Everything a season test needs: players by name, leagues and sessions.
struct Season {
    players: std::collections::BTreeMap<&'static str, i64>,
    malilla: i64,
    ss: i64,
    evening1: i64,
    evening2: i64,
    evening3: i64,
}

async fn set_up<S, B>(c: &Client<S>) -> Season
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut players = std::collections::BTreeMap::new();
    for name in ["Ana", "Ben", "Cai", "Dee", "Eve", "Fay"] {
        players.insert(
            name,
            c.create("/v1/clubs/1/players", json!({"name": name})).await,
        );
    }
    c.create(
        "/v1/clubs/1/partnerships",
        json!({"players": [players["Ana"], players["Cai"]]}),
    )
    .await;
    c.create(
        "/v1/clubs/1/partnerships",
        json!({"players": [players["Ben"], players["Dee"]]}),
    )
    .await;
    let malilla = c
        .create(
            "/v1/clubs/1/leagues",
            json!({"name": "Thursday", "season": "2026", "game": "malilla"}),
        )
        .await;
    let ss = c
        .create(
            "/v1/clubs/1/leagues",
            json!({"name": "Friday", "season": "2026", "game": "stubs-and-spoils"}),
        )
        .await;
    let evening1 = c
        .create(
            &format!("/v1/clubs/1/leagues/{malilla}/sessions"),
            json!({"name": "Evening 1"}),
        )
        .await;
    let evening2 = c
        .create(
            &format!("/v1/clubs/1/leagues/{malilla}/sessions"),
            json!({"name": "Evening 2", "played_on": "2026-11-26"}),
        )
        .await;
    let evening3 = c
        .create(
            &format!("/v1/clubs/1/leagues/{ss}/sessions"),
            json!({"name": "Evening 3"}),
        )
        .await;
    Season {
        players,
        malilla,
        ss,
        evening1,
        evening2,
        evening3,
    }
}

async fn play_match<S, B>(
    c: &Client<S>,
    session: i64,
    seats: Value,
    game: &str,
    hands: &[&str],
) -> i64
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": seats}),
        )
        .await;
    for h in hands {
        let r = c.post_hand(m, &fixture(game, h)).await;
        assert_eq!(r.status, 201, "{game} {h}: {}", r.text);
    }
    m
}

fn find<'a>(rows: &'a Value, key: &str, name: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r[key]["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {rows}"))
}

/// Checks a standings row against the numbers added up by hand.
fn check(row: &Value, rank: u32, [played, won, lost, pf, pa, hands, irr]: [i64; 7]) {
    let got = [
        row["matches_played"].as_i64().unwrap(),
        row["won"].as_i64().unwrap(),
        row["lost"].as_i64().unwrap(),
        row["points_for"].as_i64().unwrap(),
        row["points_against"].as_i64().unwrap(),
        row["hands"].as_i64().unwrap(),
        row["irregularities"].as_i64().unwrap(),
    ];
    assert_eq!(
        (row["rank"].as_u64().unwrap() as u32, got),
        (rank, [played, won, lost, pf, pa, hands, irr]),
        "{row}"
    );
}

#[actix_web::test]
async fn a_season_adds_up() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (club, key) = new_club(&app, "Casa de Malilla").await;
    assert_eq!(club, 1);
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;

    // Evening 1: N Ana, E Ben, S Cai, W Dee, hand by hand over JSON.
    let seating_a = json!({"N": p["Ana"], "E": p["Ben"], "S": p["Cai"], "W": p["Dee"]});
    for hands in MALILLA_MATCHES {
        play_match(&c, s.evening1, seating_a.clone(), "malilla", hands).await;
    }
    // Evening 2: the same hands from a sheet, exported from evening 1 with new seats:
    // N Ana, E Cai, S Eve, W Ben.
    let sheet = c
        .send(c.get_req(&format!("/v1/clubs/1/sessions/{}/sheet", s.evening1)))
        .await
        .text;
    let reseated: String = sheet
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            if f[4] != "sit" {
                return l.to_string();
            }
            let name = match f[3] {
                "N" => "Ana",
                "E" => "Cai",
                "S" => "Eve",
                _ => "Ben",
            };
            format!("{},{},{},{},sit,{name}", f[0], f[1], f[2], f[3])
        })
        .collect::<Vec<_>>()
        .join("\n");
    let r = c.import(s.evening2, &reseated).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["hands"].as_array().unwrap().len(), 9);
    assert_eq!(r.json["matches_created"].as_object().unwrap().len(), 8);

    // Evening 3, Stubs & Spoils: N Dee, E Eve, S Fay, W Ana; one hand a match.
    let seating_c = json!({"N": p["Dee"], "E": p["Eve"], "S": p["Fay"], "W": p["Ana"]});
    for h in SS_HANDS {
        play_match(&c, s.evening3, seating_c.clone(), "stubs-and-spoils", &[h]).await;
    }

    // Malilla, added up by hand from the fixtures' expected match_after (points moved per hand)
    // and irregularities. Per evening, NS v EW: points 37 v 8 (01: 0-2, 02: 1-3 with EW's trump
    // bonus, 09+06: 1+35, 14: 0-3); finished matches 6 (09+06, 11, 12, 14, 15, 16), NS won 5, EW
    // won 1 (15); irregularities by seat N 1 (15), E 3 (11, 15, 16), S 0, W 2 (12, 14); 9 hands.
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{}/standings", s.malilla))
        .await;
    let players = &st["players"];
    assert_eq!(players.as_array().unwrap().len(), 5);
    check(
        find(players, "player", "Ana"),
        1,
        [12, 10, 2, 74, 16, 18, 2],
    ); // N, N
    check(find(players, "player", "Cai"), 2, [12, 6, 6, 45, 45, 18, 3]); // S (NS), E (EW)
    check(find(players, "player", "Eve"), 3, [6, 5, 1, 37, 8, 9, 0]); // S
    check(
        find(players, "player", "Ben"),
        4,
        [12, 2, 10, 16, 74, 18, 5],
    ); // E, W
    check(find(players, "player", "Dee"), 5, [6, 1, 5, 8, 37, 9, 2]); // W
    let names: Vec<&str> = players
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ana", "Cai", "Eve", "Ben", "Dee"]);
    // Only evening 1 seated registered pairs.
    let pairs = &st["partnerships"];
    check(
        find(pairs, "partnership", "Ana & Cai"),
        1,
        [6, 5, 1, 37, 8, 9, 1],
    );
    check(
        find(pairs, "partnership", "Ben & Dee"),
        2,
        [6, 1, 5, 8, 37, 9, 5],
    );
    // Ratings: winners rise above a newcomer's 25, losers fall below it.
    let rating = |n: &str| {
        find(players, "player", n)["rating"]["rating"]
            .as_f64()
            .unwrap()
    };
    assert!(
        rating("Ana") > 25.0 && rating("Dee") < 25.0 && rating("Ben") < 25.0,
        "{players}"
    );
    assert!(names.iter().all(|n| rating("Ana") >= rating(n)));

    // Stubs & Spoils: NS 34 v EW 13 over 8 unfinished matches (01: 6, 02: 6 EW, 03: 5 EW, 06: 2,
    // 07: 12, 08: 8, 09: 2 EW, 10: 6); revokes by N (06), W (07, 08, 09) and S (08).
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{}/standings", s.ss))
        .await;
    let players = &st["players"];
    check(find(players, "player", "Dee"), 1, [0, 0, 0, 34, 13, 8, 1]);
    check(find(players, "player", "Fay"), 1, [0, 0, 0, 34, 13, 8, 1]);
    check(find(players, "player", "Ana"), 3, [0, 0, 0, 13, 34, 8, 3]);
    check(find(players, "player", "Eve"), 3, [0, 0, 0, 13, 34, 8, 0]);
    assert_eq!(st["partnerships"], json!([]));

    // Standings as CSV: the same numbers.
    let csv = c
        .get_csv(&format!("/v1/clubs/1/leagues/{}/standings", s.malilla))
        .await;
    let ana = csv.lines().find(|l| l.starts_with("player,1,")).unwrap();
    assert!(
        ana.starts_with(&format!("player,1,{},Ana,12,10,2,74,16,18,2,", p["Ana"])),
        "{csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.starts_with("partnership,2,") && l.contains(",Ben & Dee,6,1,5,8,37,9,5,")),
        "{csv}"
    );

    // The league's 18 hands, five at a time, in order, each once.
    let mut ids = Vec::new();
    let mut uri = format!("/v1/clubs/1/leagues/{}/hands?limit=5", s.malilla);
    loop {
        let page = c.get(&uri).await;
        ids.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["id"].as_i64().unwrap()),
        );
        match page["next_cursor"].as_str() {
            Some(next) => {
                uri = format!(
                    "/v1/clubs/1/leagues/{}/hands?limit=5&cursor={next}",
                    s.malilla
                )
            }
            None => break,
        }
    }
    assert_eq!(ids.len(), 18);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let csv = c
        .get_csv(&format!("/v1/clubs/1/sessions/{}/hands", s.evening1))
        .await;
    assert_eq!(csv.lines().count(), 10, "{csv}");
    assert!(
        csv.lines()
            .any(|l| l.contains(",scored,35,0,,36,0,true,NS,")),
        "the capote hand: {csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.contains(",game_lost,0,0,revoke revoke,0,0,true,EW,")),
        "{csv}"
    );

    // The sheet round trip: evening 2 exports exactly what evening 1 did, but for its seats and
    // its match ids.
    let sheet2 = c
        .send(c.get_req(&format!("/v1/clubs/1/sessions/{}/sheet", s.evening2)))
        .await
        .text;
    let body = |sheet: &str| -> Vec<String> {
        sheet
            .lines()
            .filter(|l| !l.contains(",sit,"))
            .map(|l| l.split_once(',').unwrap().1.to_string())
            .collect()
    };
    assert_eq!(body(&sheet), body(&sheet2));
    assert_eq!(sheet2.lines().filter(|l| l.contains(",sit,")).count(), 32);
}

/// A Malilla sheet of two hands in one new match; the second hand's dealer follows the first.
fn two_hand_sheet() -> String {
    let mut rows = vec!["match,hand,dealer,seat,action,value".to_string()];
    for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
        rows.push(format!("t1,,,{seat},sit,{name}"));
    }
    for (n, f) in [(1, "09"), (2, "06")] {
        rows.extend(common::sheet_rows("t1", n, &fixture("malilla", f)));
    }
    rows.join("\n") + "\n"
}

/// The time now as the store writes times: UTC to the second, `2026-12-01T15:04:05Z`.
fn utc_now() -> String {
    let t = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// A stored hand keeps the time it was stored (UTC, to the second), posted or imported: its
/// answer and the hand read back say the same time, between the request's start and end; a
/// sheet's hands are stored at one time.
#[actix_web::test]
async fn a_stored_hand_keeps_when_it_was_stored() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let m = c.match_of_four(s.evening1, &s.players).await;
    let before = utc_now();
    let posted = c.post_hand(m, &fixture("malilla", "09")).await;
    let imported = c.import(s.evening2, &two_hand_sheet()).await;
    let after = utc_now();
    assert_eq!(
        (posted.status, imported.status),
        (201, 201),
        "{}",
        imported.text
    );
    let summaries = std::iter::once(&posted.json).chain(imported.json["hands"].as_array().unwrap());
    let mut times = Vec::new();
    for summary in summaries {
        let at = summary["created_at"].as_str().unwrap().to_string();
        let stored = c.get(&format!("/v1/clubs/1/hands/{}", summary["id"])).await;
        assert_eq!(stored["created_at"], at.as_str(), "{stored}");
        assert!(before <= at && at <= after, "{before} <= {at} <= {after}");
        times.push(at);
    }
    assert_eq!(times.len(), 3);
    assert_eq!(times[1], times[2], "one time for a sheet's hands");
}

#[actix_web::test]
async fn a_refused_import_leaves_no_trace_and_names_rows_and_columns() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let good = two_hand_sheet();
    // A card W does not hold, in the second hand: the first hand would store, but nothing may.
    let lines: Vec<&str> = good.lines().collect();
    let (i, bad_line) = lines
        .iter()
        .enumerate()
        .rev()
        .find(|(_, l)| l.starts_with("t1,2,") && l.contains(",play,"))
        .unwrap();
    let mut f: Vec<String> = bad_line.split(',').map(String::from).collect();
    f[5] = "9H".into(); // not in the 40-card pack
    let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    bad[i] = f.join(",");
    let r = c.import(s.evening1, &(bad.join("\n") + "\n")).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(r.content_type, "application/problem+json");
    let e = &r.json["errors"][0];
    assert_eq!(
        (e["row"].as_u64(), e["column"].as_u64()),
        (Some(i as u64 + 1), Some(6)),
        "{e}"
    );
    assert_eq!(e["pointer"], format!("/rows/{}/value", i + 1));
    assert_eq!(
        c.get(&format!("/v1/clubs/1/sessions/{}/matches", s.evening1))
            .await["items"],
        json!([])
    );
    assert_eq!(
        c.get(&format!("/v1/clubs/1/sessions/{}/hands", s.evening1))
            .await["items"],
        json!([])
    );

    // A bad header and an unknown player are named too.
    let r = c.import(s.evening1, "match,hand,seat\n1,1,N\n").await;
    assert_eq!(
        (r.status, r.json["errors"][0]["row"].as_u64()),
        (422, Some(1)),
        "{}",
        r.text
    );
    let r = c
        .import(s.evening1, &good.replace("sit,Dee", "sit,Zed"))
        .await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert_eq!(r.json["errors"][0]["row"].as_u64(), Some(5));
    assert!(
        r.json["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("Zed")
    );

    // A second stock is read as the record's `second_stock` (a card row beside the deal), which
    // Malilla's record does not hold: refused at its row, saying so.
    let mut rows: Vec<&str> = good.lines().collect();
    let at = rows.iter().position(|l| l.starts_with("t1,1,")).unwrap();
    let dealer = rows[at].split(',').nth(2).unwrap().to_string();
    let row = format!("t1,1,{dealer},{dealer},second_stock,4S 5S");
    rows.insert(at, &row);
    let r = c.import(s.evening1, &(rows.join("\n") + "\n")).await;
    assert_eq!(r.status, 422, "{}", r.text);
    let e = &r.json["errors"][0];
    assert_eq!(e["row"].as_u64(), Some(at as u64 + 1), "{e}");
    assert!(
        e["detail"]
            .as_str()
            .unwrap()
            .contains("leave second_stock out"),
        "{e}"
    );

    // A seat's deal, or the face-up cards, given twice: refused at the second row, at the seat and
    // at the action.
    let mut rows: Vec<&str> = good.lines().collect();
    let deal = rows.iter().position(|l| l.contains(",deal,")).unwrap();
    rows.insert(deal + 1, rows[deal]);
    let face_up = rows.iter().position(|l| l.contains(",face_up,")).unwrap();
    rows.insert(face_up + 1, rows[face_up]);
    let r = c.import(s.evening1, &(rows.join("\n") + "\n")).await;
    assert_eq!(r.status, 422, "{}", r.text);
    let at: Vec<(Option<u64>, Option<u64>)> = r.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["row"].as_u64(), e["column"].as_u64()))
        .collect();
    let mut expected = [
        (Some(deal as u64 + 2), Some(4)),
        (Some(face_up as u64 + 2), Some(5)),
    ];
    expected.sort();
    assert_eq!(at, expected, "{}", r.text);

    // The good sheet stores both hands; the match is over after the capote.
    let r = c.import(s.evening1, &good).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let m = r.json["matches_created"]["t1"].as_i64().unwrap();
    let state = c.get(&format!("/v1/clubs/1/matches/{m}")).await["state"].clone();
    assert_eq!(state["scores"], json!({"NS": 36, "EW": 0}));
    assert_eq!(
        (state["game_over"].as_bool(), &state["winners"]),
        (Some(true), &json!(["NS"]))
    );
    // A third hand on the finished match is refused.
    let r = c.post_hand(m, &fixture("malilla", "01")).await;
    assert_eq!(r.status, 422, "{}", r.text);
}

#[actix_web::test]
async fn posting_a_hand_checks_the_match_and_stores_irregularities() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let m = c.match_of_four(s.evening1, p).await;
    let uri = format!("/v1/clubs/1/matches/{m}/hands");
    // A record error (a card W does not hold) is refused and nothing is stored.
    let r = c.post(&uri, &fixture("malilla", "19")).await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(
        r.json["errors"][0]["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/actions/"),
        "{}",
        r.text
    );
    // Player names, when given, must be the seated players.
    let mut named = fixture("malilla", "09");
    named["players"] = json!({"N": "Ana", "E": "Eve"});
    let r = c.post(&uri, &named).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json["errors"][0]["pointer"], "/players/E");
    // Hand 1 (dealer E), then a hand dealt by W where S deals: 422 at /dealer.
    let r = c.post(&uri, &fixture("malilla", "09")).await;
    assert_eq!(
        (r.status, r.json["number"].as_u64()),
        (201, Some(1)),
        "{}",
        r.text
    );
    let r = c.post(&uri, &fixture("malilla", "01")).await;
    assert_eq!(
        (r.status, r.json["errors"][0]["pointer"].as_str()),
        (422, Some("/dealer")),
        "{}",
        r.text
    );
    // A foul is stored with the hand, not refused; its seat counts against the player.
    let m2 = c.match_of_four(s.evening1, p).await;
    let r = c.post_hand(m2, &fixture("malilla", "11")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        (r.json["outcome"].as_str(), &r.json["irregularities"]),
        (Some("game_lost"), &json!(["illegal_seven"]))
    );
    let hand = c.get(&format!("/v1/clubs/1/hands/{}", r.json["id"])).await;
    assert_eq!(hand["adjudication"]["irregularities"][0]["seat"], "E");
    assert_eq!(hand["record"]["dealer"], "W");
    // Seating problems: a missing seat, a player twice, an unknown player.
    let r = c
        .post(
            "/v1/clubs/1/matches",
            &json!({"session": s.evening1, "seats": {"N": p["Ana"], "E": p["Ana"], "S": 999}}),
        )
        .await;
    assert_eq!(r.status, 422);
    let pointers: Vec<&str> = r.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/seats/W", "/seats/E", "/seats/S"], "{}", r.text);
    // Lists page by cursor; a bad cursor or an unknown parameter is a 400 naming it.
    let r = c
        .send(http::TestRequest::get().uri(&format!("{uri}?limit=0")))
        .await;
    assert_eq!(
        (r.status, r.json["errors"][0]["pointer"].as_str()),
        (400, Some("/query/limit"))
    );
    let r = c
        .send(http::TestRequest::get().uri(&format!("{uri}?limt=5")))
        .await;
    assert_eq!(
        (r.status, r.json["errors"][0]["pointer"].as_str()),
        (400, Some("/query/limt"))
    );
}

#[actix_web::test]
async fn a_retried_post_with_the_same_idempotency_key_stores_once() {
    if common::skipped_on_postgres("reads the kept answer from the SQLite file") {
        return;
    }
    let (state, db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let sheet = two_hand_sheet();
    let import = |k: &'static str, body: String| {
        c.post_req(&format!("/v1/clubs/1/sessions/{}/sheet", s.evening1))
            .insert_header(("content-type", "text/csv"))
            .insert_header(("idempotency-key", k))
            .set_payload(body)
    };
    let first = c.send(import("evening-1-upload", sheet.clone())).await;
    assert_eq!(
        (first.status, first.replayed),
        (201, false),
        "{}",
        first.text
    );
    let again = c.send(import("evening-1-upload", sheet.clone())).await;
    assert_eq!(
        (again.status, again.replayed),
        (201, true),
        "{}",
        again.text
    );
    assert_eq!(first.json, again.json);
    // An import's answer is not kept whole: the matches it made and the range of its hands.
    let kept: String = rusqlite::Connection::open(db.path().join("league.db"))
        .unwrap()
        .query_row(
            "SELECT body FROM idempotency_keys WHERE key = 'evening-1-upload'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let hands: Vec<i64> = first.json["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        serde_json::from_str::<Value>(&kept).unwrap(),
        json!({"matches_created": first.json["matches_created"], "hands": [hands[0], hands[1]]})
    );
    let page = c
        .get(&format!("/v1/clubs/1/sessions/{}/hands", s.evening1))
        .await;
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    // The same key for another request is refused.
    let other = c
        .send(import("evening-1-upload", sheet.replace("t1", "t2")))
        .await;
    assert_eq!(
        (other.status, other.json["errors"][0]["pointer"].as_str()),
        (422, Some("/headers/idempotency-key"))
    );
    // A refusal is not remembered: after fixing the body, the same key works.
    let refused = c.send(import("second", "match,hand\n".into())).await;
    assert_eq!(refused.status, 422);
    let fixed = c
        .post_req("/v1/clubs/1/players")
        .insert_header(("idempotency-key", "second"))
        .set_json(json!({"name": "Gil"}));
    assert_eq!(c.send(fixed).await.status, 201);
}

#[actix_web::test]
async fn keys_cannot_cross_clubs() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (a, key_a) = new_club(&app, "Club A").await;
    let (b, key_b) = new_club(&app, "Club B").await;
    let as_b = Client {
        app,
        key: key_b.clone(),
    };
    let r = as_b
        .post(
            &format!("/v1/clubs/{a}/players"),
            &json!({"name": "Intruder"}),
        )
        .await;
    assert_eq!(
        (r.status, r.content_type.as_str()),
        (403, "application/problem+json"),
        "{}",
        r.text
    );
    let r = as_b
        .send(
            http::TestRequest::post()
                .uri(&format!("/v1/clubs/{a}/players"))
                .set_json(json!({"name": "X"})),
        )
        .await;
    assert_eq!(r.status, 401);
    let r = as_b
        .send(
            http::TestRequest::post()
                .uri(&format!("/v1/clubs/{a}/players"))
                .insert_header(("authorization", "Bearer arb_nope"))
                .set_json(json!({"name": "X"})),
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(
        as_b.get(&format!("/v1/clubs/{a}/players")).await["items"],
        json!([]),
        "nothing was written to A"
    );
    // Each key writes to its own club; reads are public.
    assert_eq!(
        as_b.post(&format!("/v1/clubs/{b}/players"), &json!({"name": "Bea"}))
            .await
            .status,
        201
    );
    let as_a = Client {
        app: as_b.app,
        key: key_a,
    };
    assert_eq!(
        as_a.post(&format!("/v1/clubs/{a}/players"), &json!({"name": "Ana"}))
            .await
            .status,
        201
    );
    // Creating clubs needs the operator's token, not a club key.
    assert_eq!(
        as_a.post("/v1/clubs", &json!({"name": "Club C"}))
            .await
            .status,
        403
    );
    // A second key works; the first can then be revoked, after which it is refused.
    let r = as_a
        .post(&format!("/v1/clubs/{a}/keys"), &json!({"label": "laptop"}))
        .await;
    assert_eq!(r.status, 201);
    let second = r.json["secret"].as_str().unwrap().to_string();
    let first = as_a
        .send(
            http::TestRequest::get()
                .uri(&format!("/v1/clubs/{a}/keys"))
                .insert_header(("authorization", format!("Bearer {}", as_a.key))),
        )
        .await
        .json["items"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = as_a
        .send(
            as_a.post_req(&format!("/v1/clubs/{a}/keys/{first}"))
                .method(actix_web::http::Method::DELETE),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(
        as_a.post(&format!("/v1/clubs/{a}/players"), &json!({"name": "Old"}))
            .await
            .status,
        401
    );
    let as_a2 = Client {
        app: as_a.app,
        key: second,
    };
    assert_eq!(
        as_a2
            .post(&format!("/v1/clubs/{a}/players"), &json!({"name": "New"}))
            .await
            .status,
        201
    );
}

#[actix_web::test]
async fn readjudication_finds_and_fixes_a_changed_ruling() {
    let (state, _db) = common::league_state();
    let store = state.store.clone();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let r = c.import(s.evening1, &two_hand_sheet()).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let uri = format!("/v1/clubs/1/leagues/{}/readjudicate", s.malilla);
    let r = c.post(&uri, &json!(null)).await;
    assert_eq!(
        (
            r.status,
            r.json["hands_replayed"].as_u64(),
            &r.json["changed"]
        ),
        (200, Some(2), &json!([])),
        "{}",
        r.text
    );
    // Pretend hand 1 was stored under an older rule that gave it to EW.
    store
        .write(|tx| {
            let Packed(ruling) = tx.query_row(
                "SELECT adjudication FROM hands WHERE number = 1",
                &[],
                |r| r.get(0),
            )?;
            let mut ruling: serde_json::Value = serde_json::from_str(&ruling).unwrap();
            ruling["hand_score"] = json!({"NS": 0, "EW": 9});
            tx.execute(
                "UPDATE hands SET adjudication = ?1 WHERE number = 1",
                &[&Packed::json(&ruling)],
            )?;
            Ok(())
        })
        .unwrap();
    let r = c.post(&format!("{uri}?dry_run=true"), &json!(null)).await;
    assert_eq!((r.status, r.json["applied"].as_bool()), (200, Some(false)));
    assert_eq!(
        r.json["changed"][0]["before"]["hand_score"],
        json!({"NS": 0, "EW": 9})
    );
    assert_eq!(
        r.json["changed"][0]["after"]["hand_score"],
        json!({"NS": 1, "EW": 0})
    );
    let r = c.post(&uri, &json!(null)).await;
    assert_eq!(
        (
            r.json["applied"].as_bool(),
            r.json["changed"].as_array().unwrap().len()
        ),
        (Some(true), 1)
    );
    let r = c.post(&uri, &json!(null)).await;
    assert_eq!(r.json["changed"], json!([]), "fixed for good");
}

#[actix_web::test]
async fn a_restarted_app_keeps_everything() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.db");
    let open = || {
        LeagueState::new(
            arbiter::league::Store::open(&path).unwrap(),
            Some("operator-token".into()),
        )
    };
    let (key, league) = {
        let app = http::init_service(arbiter::api::app(open())).await;
        let (_, key) = new_club(&app, "Casa").await;
        let c = Client {
            app,
            key: key.clone(),
        };
        let s = set_up(&c).await;
        assert_eq!(c.import(s.evening1, &two_hand_sheet()).await.status, 201);
        (key, s.malilla)
    };
    let app = http::init_service(arbiter::api::app(open())).await;
    let c = Client { app, key };
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    check(
        find(&st["players"], "player", "Ana"),
        1,
        [1, 1, 0, 36, 0, 2, 0],
    );
    assert_eq!(
        c.get("/v1/clubs/1/players").await["items"]
            .as_array()
            .unwrap()
            .len(),
        6
    );
    // The key still works after the restart.
    assert_eq!(
        c.post("/v1/clubs/1/players", &json!({"name": "Gil"}))
            .await
            .status,
        201
    );
}

#[actix_web::test]
async fn the_sheet_template_names_the_columns_and_verbs() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let c = Client {
        app,
        key: String::new(),
    };
    let t = c
        .send(http::TestRequest::get().uri("/v1/games/stubs-and-spoils/sheet-template"))
        .await;
    assert_eq!(t.status, 200);
    assert!(t.text.starts_with("match,hand,dealer,seat,action,value\n"));
    for verb in ["sit", "deal", "face_up", "play", "discard", "spoil", "stub"] {
        assert!(t.text.contains(&format!(",{verb},")), "{verb}: {}", t.text);
    }
    // Each verb shows the value it takes, and a three-seat table its own seats.
    let t = c
        .send(http::TestRequest::get().uri("/v1/games/couillon/sheet-template"))
        .await;
    assert!(
        t.text.contains(",accept,true\n") && t.text.contains(",play,<card>\n"),
        "{}",
        t.text
    );
    assert!(t.text.contains(",stock,"), "{}", t.text);
}

/// A league of three-player Briscola: seats P1..P3, each player his own side, in the match, the
/// stored hand, the standings and the hands CSV (one column per side).
#[actix_web::test]
async fn a_league_of_players_alone_keeps_one_side_per_player() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.briscola_for_three().await;
    // A four-seat match is refused at the seat the table does not have.
    let r = c
        .post("/v1/clubs/1/matches", &json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"], "P4": p["Dee"]}}))
        .await;
    assert_eq!(
        (r.status, r.json["errors"][0]["pointer"].as_str()),
        (422, Some("/seats/P4")),
        "{}",
        r.text
    );
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}}),
        )
        .await;
    // Fixture briscola/03 (dealer P3): P1 63, P2 32, P3 25 card points, derived there by hand.
    let r = c.post_hand(m, &fixture("briscola", "03")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        r.json["match_after"]["scores"],
        json!({"P1": 63, "P2": 32, "P3": 25})
    );
    // The match's start, as a league keeps it, lists every field of the match state (records.md,
    // "Presence"): Briscola's carried `contenders` too, at its starting value.
    let hand = c.get(&format!("/v1/clubs/1/hands/{}", r.json["id"])).await;
    assert_eq!(
        hand["adjudication"]["match_before"],
        json!({"scores": {"P1": 0, "P2": 0, "P3": 0}, "next_dealer": "P3", "hands_played": 0,
               "game_over": false, "winners": [], "out": {}, "contenders": []})
    );
    let standings = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &standings["players"];
    for (name, pf, pa) in [("Ana", 63, 57), ("Ben", 32, 88), ("Cai", 25, 95)] {
        let row = find(players, "player", name);
        assert_eq!(
            (row["points_for"].as_i64(), row["points_against"].as_i64()),
            (Some(pf), Some(pa)),
            "{name}: {row}"
        );
    }
    let csv = c.get_csv(&format!("/v1/clubs/1/matches/{m}/hands")).await;
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(
        header.contains("score_P1,score_P2,score_P3,irregularities,match_P1,match_P2,match_P3"),
        "{header}"
    );
    assert!(
        lines.next().unwrap().contains(",63,32,25,,63,63,32,25,")
            || csv.contains(",63,32,25,,63,32,25,"),
        "{csv}"
    );
}

/// One name per player (issue 19 item 13): a Big Two league for four names each player's side as
/// his seat, N E S W, in the match before and after a hand, the hand summary, the CSV sheet and
/// the match seats, beside seats N E S W; a hand whose record carries the old side names is refused.
#[actix_web::test]
async fn a_league_of_four_alone_names_each_side_as_its_seat() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("big-two", json!({})).await;
    let m = c.match_of_four(session, p).await;
    let zero = json!({"N": 0, "E": 0, "S": 0, "W": 0});
    let before = c.get(&format!("/v1/clubs/1/matches/{m}")).await;
    assert_eq!(before["state"]["scores"], zero, "{before}");
    // The old spelling of the sides, even at 0, is refused where it stands.
    let mut old = fixture("big-two", "01");
    old["match_state"] = json!({"scores": {"P1": 0, "P2": 0, "P3": 0, "P4": 0}});
    let r = c.post_hand(m, &old).await;
    assert_eq!(
        (r.status, r.json["errors"][0]["pointer"].as_str()),
        (422, Some("/match_state/scores/P1")),
        "{}",
        r.text
    );
    assert_eq!(
        r.json["errors"][0]["detail"],
        "P1 is not a side of this table: expected N, E, S, W"
    );
    // Fixture big-two/01 (its seats written P1..P4): N 0, E 39, S 24, W 7, derived there by hand.
    let r = c.post_hand(m, &fixture("big-two", "01")).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let after = json!({"N": 0, "E": 39, "S": 24, "W": 7});
    assert_eq!(r.json["hand_score"], after, "{}", r.text);
    assert_eq!(r.json["match_after"]["scores"], after, "{}", r.text);
    let csv = c.get_csv(&format!("/v1/clubs/1/matches/{m}/hands")).await;
    let header = csv.lines().next().unwrap();
    assert!(
        header.contains(
            "score_N,score_E,score_S,score_W,irregularities,match_N,match_E,match_S,match_W"
        ),
        "{header}"
    );
    let standings = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let row = find(&standings["players"], "player", "Ben");
    assert_eq!(row["points_for"].as_i64(), Some(39), "{row}");
}

/// A session's export posted back to the same session repeats its hands: refused (409) with each
/// repeated hand's row, nothing stored, standings unchanged.
#[actix_web::test]
async fn an_export_posted_back_to_its_session_is_refused_not_doubled() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    assert_eq!(c.import(s.evening1, &two_hand_sheet()).await.status, 201);
    let standings = format!("/v1/clubs/1/leagues/{}/standings", s.malilla);
    let before = c.get(&standings).await;
    let sheet = c
        .send(c.get_req(&format!("/v1/clubs/1/sessions/{}/sheet", s.evening1)))
        .await
        .text;
    let r = c.import(s.evening1, &sheet).await;
    assert_eq!(
        (r.status, r.content_type.as_str()),
        (409, "application/problem+json"),
        "{}",
        r.text
    );
    // Rows 2-5 seat the players; hand 1's first row is 6, hand 2's follows its 44 rows.
    let rows: Vec<u64> = r.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["row"].as_u64().unwrap())
        .collect();
    let hand2 = sheet.lines().position(|l| l.contains(",2,")).unwrap() as u64 + 1;
    assert_eq!(rows, [6, hand2], "{}", r.text);
    assert!(
        r.json["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("repeats hand 1 (match 1, hand 1)"),
        "{}",
        r.text
    );
    assert_eq!(c.get(&standings).await, before, "nothing doubled");
    assert_eq!(
        c.get(&format!("/v1/clubs/1/sessions/{}/matches", s.evening1))
            .await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The export imports into a new session as the same hands.
    assert_eq!(c.import(s.evening2, &sheet).await.status, 201);
}

/// A hand posted as a record and the same hand read from a sheet are one hand: the session's
/// export imported back into it is refused as repeating the posted hand. Twenty-Nine's record has
/// values of each kind a cell reads (numbers, `true`, cards as text), so a sheet's digest of any of
/// them that differed from the record's would store the hand twice.
#[actix_web::test]
async fn a_posted_hand_read_back_from_a_sheet_is_a_repeat() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let (_, session) = c.league_with_a_session("twenty-nine", json!({})).await;
    let m = c.match_of_four(session, &s.players).await;
    let record = fixture("twenty-nine", "01");
    let values: Vec<&Value> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|a| a.as_object().unwrap().iter())
        .filter(|(k, _)| *k != "seat")
        .map(|(_, v)| v)
        .collect();
    assert!(values.iter().any(|v| v.is_number()) && values.iter().any(|v| v.is_boolean()));
    assert!(values.iter().any(|v| v.is_string()));
    let r = c.post_hand(m, &record).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let sheet = c
        .send(c.get_req(&format!("/v1/clubs/1/sessions/{session}/sheet")))
        .await
        .text;
    let r = c.import(session, &sheet).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(
        r.json["errors"][0]["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("(match {m}, hand 1)")),
        "{}",
        r.text
    );
}

/// Runs the real binary on the test's database; returns whether it succeeded and what it printed.
fn cli(db: &Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .arg("--db")
        .arg(db)
        .env_remove("ARBITER_DB")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

/// The secret and the key id a CLI command printed.
fn printed_key(out: &str) -> (String, String) {
    let line = |prefix: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' in {out}"))
            .to_string()
    };
    let id = line("key id: ");
    (
        line("API key (shown once, keep it safe): "),
        id.split_once(' ').unwrap().0.to_string(),
    )
}

fn is_key_id(id: &str) -> bool {
    id.strip_prefix("key_")
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A club's keys are listed (never a secret) to its keys and the operator; key ids are random;
/// the operator issues a key over HTTP and `arbiter key create` on the database, the way back for
/// a club that lost its key; revoking shows in the list.
#[actix_web::test]
async fn keys_are_listed_and_a_lost_key_is_replaced_by_the_operator() {
    if common::skipped_on_postgres("runs the CLI on the SQLite file") {
        return;
    }
    let (state, dir) = common::league_state();
    let db = dir.path().join("league.db");
    let app = http::init_service(arbiter::api::app(state)).await;
    let (a, key_a) = new_club(&app, "Club A").await;
    let (b, key_b) = new_club(&app, "Club B").await;
    let list = |key: &str| {
        http::TestRequest::get()
            .uri(&format!("/v1/clubs/{a}/keys"))
            .insert_header(("authorization", format!("Bearer {key}")))
    };
    let c = Client {
        app,
        key: key_a.clone(),
    };
    let r = c.send(list(&key_a)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let keys = r.json["items"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    let first = keys[0]["id"].as_str().unwrap().to_string();
    assert!(is_key_id(&first), "{first}");
    assert_eq!(keys[0]["label"], "first key");
    assert!(keys[0]["created_at"].is_string() && keys[0]["last_used_at"].is_string());
    assert_eq!(keys[0]["revoked_at"], Value::Null);
    assert!(
        !r.text.contains("arb_") && !r.text.contains("secret"),
        "{}",
        r.text
    );
    // Not public, not to another club; the operator may list.
    let r = c
        .send(http::TestRequest::get().uri(&format!("/v1/clubs/{a}/keys")))
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(c.send(list(&key_b)).await.status, 403);
    assert_eq!(c.send(list("operator-token")).await.status, 200);
    // Club B's first key has a random id too, not the next number.
    let as_b = Client {
        app: c.app,
        key: key_b.clone(),
    };
    let r = as_b
        .send(
            http::TestRequest::get()
                .uri(&format!("/v1/clubs/{b}/keys"))
                .insert_header(("authorization", format!("Bearer {key_b}"))),
        )
        .await;
    let id_b = r.json["items"][0]["id"].as_str().unwrap();
    assert!(is_key_id(id_b) && id_b != first, "{id_b}");

    // Club A lost its key: the operator issues one over HTTP...
    let operator = Client {
        app: as_b.app,
        key: "operator-token".into(),
    };
    let r = operator
        .post(
            &format!("/v1/clubs/{a}/keys"),
            &json!({"label": "replacement"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert!(is_key_id(r.json["id"].as_str().unwrap()));
    let replacement = r.json["secret"].as_str().unwrap().to_string();
    // ...but the operator's token writes nothing else to a club.
    let r = operator
        .post(&format!("/v1/clubs/{a}/players"), &json!({"name": "Op"}))
        .await;
    assert_eq!(r.status, 401, "{}", r.text);
    let c = Client {
        app: operator.app,
        key: replacement,
    };
    assert_eq!(
        c.post(&format!("/v1/clubs/{a}/players"), &json!({"name": "Ana"}))
            .await
            .status,
        201
    );
    // ...or on the server's database with the CLI.
    let (ok, out) = cli(&db, &["key", "create", "--club", &a.to_string()]);
    assert!(ok, "{out}");
    let (secret, id) = printed_key(&out);
    assert!(is_key_id(&id), "{out}");
    let c = Client {
        app: c.app,
        key: secret,
    };
    assert_eq!(
        c.post(&format!("/v1/clubs/{a}/players"), &json!({"name": "Ben"}))
            .await
            .status,
        201
    );
    let (ok, out) = cli(&db, &["key", "create", "--club", "99"]);
    assert!(!ok && out.contains("no club 99"), "{out}");
    // `club create` prints the first key's id with its secret.
    let (ok, out) = cli(&db, &["club", "create", "--name", "Club C"]);
    assert!(ok, "{out}");
    assert!(is_key_id(&printed_key(&out).1), "{out}");
    // The CLI takes the names the API takes: a club name or a key label that is empty, blank,
    // too long or carries a control or bidirectional formatting character is refused, and
    // nothing is written.
    let keys_before = c.send(list(&c.key)).await.json["items"]
        .as_array()
        .unwrap()
        .len();
    let long = "x".repeat(101);
    for bad in [
        "",
        "   ",
        "Evil\u{202e}club",
        "tab\u{2067}",
        "bell\u{7}",
        &long,
    ] {
        let (ok, out) = cli(&db, &["club", "create", "--name", bad]);
        assert!(
            !ok && out.contains("--name: expected 1 to 100 characters"),
            "{bad:?}: {out}"
        );
        let (ok, out) = cli(
            &db,
            &["key", "create", "--club", &a.to_string(), "--label", bad],
        );
        assert!(
            !ok && out.contains("--label: expected 1 to 100 characters"),
            "{bad:?}: {out}"
        );
    }
    let (ok, out) = cli(&db, &["club", "create", "--name", "Club D"]);
    assert!(ok && out.starts_with("club 4 (Club D)"), "{out}");
    assert!(out.contains("visibility: public_results"), "{out}");
    let (ok, out) = cli(
        &db,
        &[
            "club",
            "create",
            "--name",
            "Club E",
            "--visibility",
            "members_only",
        ],
    );
    assert!(ok && out.contains("visibility: members_only"), "{out}");
    // To anyone without its key, club 5 is not there.
    let r = c.send(http::TestRequest::get().uri("/v1/clubs/5")).await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert_eq!(
        c.send(list(&c.key)).await.json["items"]
            .as_array()
            .unwrap()
            .len(),
        keys_before
    );

    // The lost key is revoked by its id; the list shows it.
    let r = c
        .send(
            c.post_req(&format!("/v1/clubs/{a}/keys/{first}"))
                .method(actix_web::http::Method::DELETE),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    let r = c.send(list(&c.key)).await;
    let listed: Vec<(&str, bool)> = r.json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["label"].as_str().unwrap(), k["revoked_at"].is_string()))
        .collect();
    assert_eq!(
        listed,
        [
            ("first key", true),
            ("replacement", false),
            ("issued by the operator", false)
        ]
    );
    assert_eq!(
        c.send(
            c.post_req(&format!("/v1/clubs/{a}/keys/key_0000000000000000"))
                .method(actix_web::http::Method::DELETE)
        )
        .await
        .status,
        404
    );
}

/// The hands' scores by side, for comparing with the fixtures' hand-derived ones.
fn scores(v: &Value) -> (i64, i64) {
    (v["NS"].as_i64().unwrap(), v["EW"].as_i64().unwrap())
}

/// A director amends a stored hand (the later hand is adjudicated again), voids one, renames a
/// player and a session; every correction is in the audit trail with who, when and what before.
/// Refusals leave everything as it was.
#[actix_web::test]
async fn a_director_amends_and_voids_hands_and_renames_with_an_audit_trail() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let key_id = c
        .send(
            http::TestRequest::get()
                .uri("/v1/clubs/1/keys")
                .insert_header(("authorization", format!("Bearer {}", c.key))),
        )
        .await
        .json["items"][0]["id"]
        .clone();
    // Stubs & Spoils: hand 1 fixture 02 (E deals; EW 6), hand 2 fixture 01 (S deals; NS 6).
    let seating = json!({"N": p["Dee"], "E": p["Eve"], "S": p["Fay"], "W": p["Ana"]});
    let m = play_match(&c, s.evening3, seating, "stubs-and-spoils", &["02", "01"]).await;
    let hands = c.get(&format!("/v1/clubs/1/matches/{m}/hands")).await["items"].clone();
    let (h1, h2) = (
        hands[0]["id"].as_i64().unwrap(),
        hands[1]["id"].as_i64().unwrap(),
    );
    let snapshot = || async {
        (
            c.get(&format!("/v1/clubs/1/matches/{m}")).await,
            c.get(&format!("/v1/clubs/1/matches/{m}/hands")).await,
            c.get(&format!("/v1/clubs/1/leagues/{}/standings", s.ss))
                .await,
        )
    };
    let untouched = snapshot().await;

    // Refused: a replacement with a record error (fixture 16, a lead out of turn) is 422 under
    // /record; nothing changes and nothing is audited.
    let amend = format!("/v1/clubs/1/hands/{h1}/amend");
    let r = c
        .post(
            &amend,
            &json!({"record": fixture("stubs-and-spoils", "16")}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text);
    assert!(
        r.json["errors"][0]["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/record/actions/"),
        "{}",
        r.text
    );
    assert!(snapshot().await == untouched);

    // Hand 1 was really fixture 03 (E deals; EW 5): hand 1 moves from EW 6 to EW 5 and hand 2,
    // still NS 6, now ends the match at NS 6, EW 5 instead of 6-6.
    let r = c
        .post(
            &amend,
            &json!({"record": fixture("stubs-and-spoils", "03"), "note": "typed the wrong sheet"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["action"], "amend_hand");
    let changed = r.json["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 2, "{}", r.text);
    assert_eq!(
        (changed[0]["hand"].as_i64(), changed[1]["hand"].as_i64()),
        (Some(h1), Some(h2))
    );
    assert_eq!(scores(&changed[0]["before"]["hand_score"]), (0, 6));
    assert_eq!(scores(&changed[0]["after"]["hand_score"]), (0, 5));
    assert_eq!(scores(&changed[1]["before"]["hand_score"]), (6, 0));
    assert_eq!(scores(&changed[1]["after"]["hand_score"]), (6, 0));
    assert_eq!(
        scores(&changed[1]["before"]["match_after"]["scores"]),
        (6, 6)
    );
    assert_eq!(
        scores(&changed[1]["after"]["match_after"]["scores"]),
        (6, 5)
    );
    assert_eq!(scores(&r.json["match_before"]["scores"]), (6, 6));
    assert_eq!(scores(&r.json["match_after"]["scores"]), (6, 5));
    let stored = c.get(&format!("/v1/clubs/1/hands/{h1}")).await;
    assert_eq!(
        stored["record"]["deal"],
        fixture("stubs-and-spoils", "03")["deal"]
    );
    let standings = c
        .get(&format!("/v1/clubs/1/leagues/{}/standings", s.ss))
        .await;
    check(
        find(&standings["players"], "player", "Dee"),
        1,
        [0, 0, 0, 6, 5, 2, 0],
    );

    // Voiding hand 1: hand 2 becomes hand 1 of the match, which stands at NS 6, EW 0. A retry
    // with the same Idempotency-Key gets the same answer and voids nothing more.
    let void = || {
        c.post_req(&format!("/v1/clubs/1/hands/{h1}/void"))
            .insert_header(("idempotency-key", "void-1"))
            .set_json(json!({"note": "not played in this match"}))
    };
    let r = c.send(void()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let retry = c.send(void()).await;
    assert_eq!((retry.replayed, &retry.json), (true, &r.json));
    let changed = r.json["changed"].as_array().unwrap();
    assert_eq!(
        (
            changed.len(),
            changed[0]["hand"].as_i64(),
            changed[0]["number"].as_u64()
        ),
        (1, Some(h2), Some(1)),
        "{}",
        r.text
    );
    assert_eq!(
        scores(&changed[0]["after"]["match_after"]["scores"]),
        (6, 0)
    );
    assert_eq!(scores(&r.json["match_after"]["scores"]), (6, 0));
    let after_void = c.get(&format!("/v1/clubs/1/matches/{m}")).await;
    assert_eq!(after_void["hands"], 1);
    assert_eq!(
        c.send(c.get_req(&format!("/v1/clubs/1/hands/{h1}")))
            .await
            .status,
        404
    );
    let standings = c
        .get(&format!("/v1/clubs/1/leagues/{}/standings", s.ss))
        .await;
    check(
        find(&standings["players"], "player", "Dee"),
        1,
        [0, 0, 0, 6, 0, 1, 0],
    );

    // Refused: in Malilla, hand 1 replaced by a hand W deals (fixture 01) leaves hand 2, dealt by
    // S, out of turn (N deals after W): 409, and nothing changes.
    let r = c.import(s.evening1, &two_hand_sheet()).await;
    let malilla = r.json["matches_created"]["t1"].as_i64().unwrap();
    let first = r.json["hands"][0]["id"].as_i64().unwrap();
    let before = c.get(&format!("/v1/clubs/1/matches/{malilla}/hands")).await;
    let r = c
        .post(
            &format!("/v1/clubs/1/hands/{first}/amend"),
            &json!({"record": fixture("malilla", "01")}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(
        r.json["detail"].as_str().unwrap().contains("N deals"),
        "{}",
        r.text
    );
    assert_eq!(
        c.get(&format!("/v1/clubs/1/matches/{malilla}/hands")).await,
        before
    );

    // Renames; a name another player has is refused.
    let r = c
        .send(
            c.post_req(&format!("/v1/clubs/1/players/{}", p["Fay"]))
                .method(actix_web::http::Method::PATCH)
                .set_json(json!({"name": "Faye"})),
        )
        .await;
    assert_eq!(
        (r.status, r.json["name"].as_str()),
        (200, Some("Faye")),
        "{}",
        r.text
    );
    let r = c
        .send(
            c.post_req(&format!("/v1/clubs/1/players/{}", p["Fay"]))
                .method(actix_web::http::Method::PATCH)
                .set_json(json!({"name": "Ana"})),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    let r = c
        .send(
            c.post_req(&format!("/v1/clubs/1/sessions/{}", s.evening3))
                .method(actix_web::http::Method::PATCH)
                .set_json(json!({"name": "Friday 1"})),
        )
        .await;
    assert_eq!(
        (r.status, r.json["name"].as_str()),
        (200, Some("Friday 1")),
        "{}",
        r.text
    );

    // The audit trail: four corrections, by this key, each with what it replaced.
    let audit = c.get("/v1/clubs/1/amendments").await;
    let items = audit["items"].as_array().unwrap();
    let actions: Vec<&str> = items
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["amend_hand", "void_hand", "rename_player", "rename_session"]
    );
    assert!(
        items
            .iter()
            .all(|a| a["by"] == key_id && a["at"].is_string())
    );
    assert_eq!(
        (&items[0]["subject"], items[0]["subject_id"].as_i64()),
        (&json!("hand"), Some(h1))
    );
    assert_eq!(
        items[0]["before"]["record"]["deal"],
        fixture("stubs-and-spoils", "02")["deal"]
    );
    assert_eq!(items[0]["note"], "typed the wrong sheet");
    assert_eq!(
        items[1]["before"]["record"]["deal"],
        fixture("stubs-and-spoils", "03")["deal"]
    );
    assert_eq!(
        (&items[2]["before"]["name"], &items[2]["after"]["name"]),
        (&json!("Fay"), &json!("Faye"))
    );
    let page = c.get("/v1/clubs/1/amendments?limit=3").await;
    assert_eq!(page["next_cursor"], json!(items[2]["id"].to_string()));

    // Hand 1's own trail: its amendment and its void, though it is no longer stored; one to a
    // page, the next in the Link header. Hand 2, stored and never corrected, has none; a hand
    // neither stored nor in the trail is not found.
    let trail = format!("/v1/clubs/1/hands/{h1}/amendments");
    assert_eq!(c.get(&trail).await["items"], json!(items[..2]));
    let first = c.send(c.get_req(&format!("{trail}?limit=1"))).await;
    assert_eq!(first.json["items"], json!(items[..1]));
    let next = first.link.strip_prefix('<').and_then(|l| l.split_once('>'));
    let second = c.get(next.unwrap().0).await;
    assert_eq!(second["items"], json!(items[1..2]));
    assert_eq!(second["next_cursor"], Value::Null);
    let none = c.get(&format!("/v1/clubs/1/hands/{h2}/amendments")).await;
    assert_eq!(none, json!({"items": [], "next_cursor": null}));
    let last = items[1]["id"].as_i64().unwrap();
    let past = c.get(&format!("{trail}?cursor={last}")).await;
    assert_eq!(past, json!({"items": [], "next_cursor": null}));
    for cursor in ["", &format!("?cursor={last}")] {
        let r = c
            .send(c.get_req(&format!("/v1/clubs/1/hands/999999/amendments{cursor}")))
            .await;
        assert_eq!(r.status, 404, "{cursor}: {}", r.text);
    }
}

/// A session larger than one sheet can hold (more rows than an import takes) is exported in pages
/// of whole matches within the import's limits, and the pages import, one after the other, into
/// a new session as the same hands.
#[actix_web::test]
async fn a_session_larger_than_one_sheet_exports_in_pages_that_import() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    // 4,200 distinct legal hands, one match each: 4,200 x (4 sit + 4 deal + 1 face-up + 40 play)
    // = 205,800 rows, more than the 200,000 an import takes; imported in two halves. Each of 175
    // random legal hands is played in its 24 suit permutations (a permutation of the suits plays
    // the same, and stores: nothing is held or played out of turn).
    const MATCHES: usize = 4_200;
    let permutations: Vec<[char; 4]> = (0..24)
        .map(|mut k| {
            let mut left = vec!['S', 'H', 'D', 'C'];
            let mut p = ['S'; 4];
            for (i, slot) in p.iter_mut().enumerate() {
                *slot = left.remove(k % (4 - i));
                k /= 4 - i;
            }
            p
        })
        .collect();
    let permute = |row: &str, p: &[char; 4]| -> String {
        let (front, cards) = row.rsplit_once(',').unwrap();
        let cards: Vec<String> = cards
            .split(' ')
            .map(|card| {
                let (rank, suit) = card.split_at(card.len() - 1);
                let i = "SHDC".find(suit).unwrap();
                format!("{rank}{}", p[i])
            })
            .collect();
        format!("{front},{}", cards.join(" "))
    };
    let header = "match,hand,dealer,seat,action,value\n";
    let mut halves = [header.to_string(), header.to_string()];
    let hands: Vec<Value> = (0..MATCHES / 24)
        .map(|i| {
            serde_json::to_value(common::random::random_legal_hand(
                "malilla",
                i as u64 * 7919 + 1,
            ))
            .unwrap()
        })
        .collect();
    for m in 0..MATCHES {
        let sheet = &mut halves[m * 2 / MATCHES];
        for (seat, name) in [("N", "Ana"), ("E", "Ben"), ("S", "Cai"), ("W", "Dee")] {
            sheet.push_str(&format!("m{m},,,{seat},sit,{name}\n"));
        }
        for row in common::sheet_rows(&format!("m{m}"), 1, &hands[m / 24]) {
            sheet.push_str(&permute(&row, &permutations[m % 24]));
            sheet.push('\n');
        }
    }
    assert!(
        halves.iter().map(|h| h.lines().count() - 1).sum::<usize>() > arbiter::league::MAX_ROWS
    );
    for half in &halves {
        let r = c.import(s.evening1, half).await;
        assert_eq!(r.status, 201, "{}", &r.text[..r.text.len().min(500)]);
    }

    let mut uri = format!("/v1/clubs/1/sessions/{}/sheet", s.evening1);
    let mut pages = Vec::new();
    loop {
        let r = c.send(c.get_req(&uri)).await;
        assert_eq!(r.status, 200);
        // Streamed in batches of matches, the page never held whole: no chunk over a MiB (the
        // first page is about 4 MB).
        assert!(r.chunks > r.text.len() >> 20, "{} chunks", r.chunks);
        assert!(r.text.lines().count() - 1 <= arbiter::league::MAX_ROWS);
        assert!(r.text.len() <= arbiter::league::MAX_SHEET);
        pages.push(r.text);
        match r.link.strip_prefix('<').and_then(|l| l.split_once('>')) {
            Some((next, rest)) => {
                assert_eq!(rest, "; rel=\"next\"");
                uri = next.to_string();
            }
            None => break,
        }
    }
    assert_eq!(pages.len(), 2);
    for page in &pages {
        let r = c.import(s.evening2, page).await;
        assert_eq!(r.status, 201, "{}", &r.text[..r.text.len().min(500)]);
    }
    // The same hands, in the same order, but for the match labels.
    let copy = c
        .send(c.get_req(&format!(
            "/v1/clubs/1/sessions/{}/sheet?cursor=0",
            s.evening2
        )))
        .await;
    let without_labels = |pages: &[String]| -> Vec<String> {
        pages
            .iter()
            .flat_map(|p| p.lines().skip(1))
            .map(|l| l.split_once(',').unwrap().1.to_string())
            .collect()
    };
    let first = without_labels(std::slice::from_ref(&copy.text));
    let mut next = copy.link.clone();
    let mut all = first;
    while let Some((uri, _)) = next.strip_prefix('<').and_then(|l| l.split_once('>')) {
        let r = c.send(c.get_req(uri)).await;
        all.extend(without_labels(std::slice::from_ref(&r.text)));
        next = r.link;
    }
    assert_eq!(all, without_labels(&pages));
    let matches = format!("/v1/clubs/1/sessions/{}/matches", s.evening2);
    assert_eq!(c.walk(&c.key, &matches, 1000).await.len(), MATCHES);
}

/// A record with every seat moved `turns` places on (P1→P2→P3→P1 at three seats, N→E→S→W→N at
/// four compass seats): the same play at the same table, dealt by the seat `turns` after the
/// original dealer, so each player's score moves with his seat.
fn rotated(record: &Value, turns: usize) -> Value {
    let n = record["deal"].as_object().unwrap().len();
    let seats: Vec<String> = if record["deal"].get("N").is_some() {
        ["N", "E", "S", "W"].map(String::from).to_vec()
    } else {
        (1..=n).map(|i| format!("P{i}")).collect()
    };
    let on = |s: &Value| {
        let i = seats.iter().position(|x| s == x).unwrap();
        json!(seats[(i + turns) % n])
    };
    let mut r = record.clone();
    r["dealer"] = on(&record["dealer"]);
    r["deal"] = record["deal"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(seat, cards)| {
            (
                on(&json!(seat)).as_str().unwrap().to_string(),
                cards.clone(),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into();
    for a in r["actions"].as_array_mut().unwrap() {
        a["seat"] = on(&a["seat"]);
    }
    r
}

/// Three players alone, at an equal start, finished first, second and third in one match: their
/// places and Weng-Lin ratings (worked in src/league/standings.rs's tests: 30.270, 25.000, 19.730).
fn placed_first_second_third(players: &Value, names: [&str; 3]) {
    assert_eq!(
        finish(find(players, "player", names[0])),
        (1, 1, 0, json!([1]), 30.27)
    );
    assert_eq!(
        finish(find(players, "player", names[1])),
        (2, 0, 1, json!([0, 1]), 25.0)
    );
    assert_eq!(
        finish(find(players, "player", names[2])),
        (3, 0, 1, json!([0, 0, 1]), 19.73)
    );
}

/// A player's finished-match numbers and rating in standings.
fn finish(row: &Value) -> (i64, i64, i64, Value, f64) {
    (
        row["rank"].as_i64().unwrap(),
        row["won"].as_i64().unwrap(),
        row["lost"].as_i64().unwrap(),
        row["places"].clone(),
        row["rating"]["rating"].as_f64().unwrap(),
    )
}

/// Three players alone play a whole Briscola match; the standings place all three by final score
/// and rate them from that order, not the winner against the other two.
#[actix_web::test]
async fn three_players_alone_are_placed_and_rated_by_their_order_of_finish() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.briscola_for_three().await;
    // Fixture briscola/03 (dealer P3, diamonds trump): P1 63, P2 32, P3 25. In its last three
    // tricks (no stock left) P2 leads AD, QD, 6D, P1 follows KD, 7D, 5D and P3 holds 3D, JD, 2C. Had
    // P3 kept 3D for the last trick and thrown 2C under the ace, P2 would take 11 + 0 + 4 = 15 (not
    // 25) and 5, and P3's 3D (above 6D in A 3 K Q J 7 6 5 4 2) the last trick's 10: P1 63,
    // P2 32 − 10 = 22, P3 25 + 10 = 35.
    let played = fixture("briscola", "03");
    let mut varied = played.clone();
    for a in varied["actions"].as_array_mut().unwrap() {
        match (a["seat"].as_str(), a["play"].as_str()) {
            (Some("P3"), Some("3D")) => a["play"] = json!("2C"),
            (Some("P3"), Some("2C")) => a["play"] = json!("3D"),
            _ => {}
        }
    }
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}}),
        )
        .await;
    // Three hands (each deals once, BR §4): the varied hand dealt by P3, then 03 dealt by P1 (P2
    // 63, P3 32, P1 25) and by P2 (P3 63, P1 32, P2 25). Totals: P1 63 + 25 + 32 = 120, P2 22 + 63
    // + 25 = 110, P3 35 + 32 + 63 = 130: P3 leads alone and wins; P1 second, P2 third.
    let mut after = Value::Null;
    for (h, record) in [varied, rotated(&played, 1), rotated(&played, 2)]
        .iter()
        .enumerate()
    {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (
            &json!({"P1": 120, "P2": 110, "P3": 130}),
            &json!(true),
            &json!(["P3"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    // The winner against the rest would give Ana and Ben 22.365.
    placed_first_second_third(players, ["Cai", "Ana", "Ben"]);
    // Points against are the other two players' points.
    check(find(players, "player", "Ana"), 2, [1, 0, 1, 120, 240, 3, 0]);
    let csv = c
        .get_csv(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    assert!(
        csv.lines().next().unwrap().ends_with(",places,camps"),
        "{csv}"
    );
    assert!(
        csv.lines().any(
            |l| l.starts_with(&format!("player,3,{},Ben,", p["Ben"])) && l.ends_with(",0 0 1,")
        ),
        "{csv}"
    );
}

/// A partnership is two or more different players, registered once whatever their order; a team
/// of three registers.
#[actix_web::test]
async fn a_partnership_is_two_or_more_different_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let p = set_up(&c).await.players;
    let r = c
        .post(
            "/v1/clubs/1/partnerships",
            &json!({"players": [p["Fay"], p["Eve"], p["Dee"]]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["name"], "Fay & Eve & Dee");
    let ids: Vec<i64> = r.json["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [p["Dee"], p["Eve"], p["Fay"]]);
    let refused = |body: Value, status: u16, pointer: Option<&'static str>| (body, status, pointer);
    for (body, status, pointer) in [
        // The same three in another order.
        refused(
            json!({"name": "Again", "players": [p["Eve"], p["Dee"], p["Fay"]]}),
            409,
            None,
        ),
        // A player named twice.
        refused(
            json!({"players": [p["Eve"], p["Dee"], p["Eve"]]}),
            422,
            Some("/players/2"),
        ),
        // One player is not a team; seven is more than a side of a seven-seat table.
        refused(json!({"players": [p["Eve"]]}), 422, Some("/players")),
        refused(
            json!({"players": [1, 2, 3, 4, 5, 6, 7]}),
            422,
            Some("/players"),
        ),
        refused(json!({"players": [p["Ana"], 999]}), 422, Some("/players/1")),
    ] {
        let r = c.post("/v1/clubs/1/partnerships", &body).await;
        assert_eq!(
            (r.status, r.json["errors"][0]["pointer"].as_str()),
            (status, pointer),
            "{body}: {}",
            r.text
        );
    }
}

/// A league stored by schema 5, before partnerships of any size and camps
/// (`tests/data/league-schema-5.sql`: written through that version's own API, then dumped), is
/// migrated at start-up and still reads and plays: its key, partnerships, matches, standings, and
/// the next hands of its matches.
#[actix_web::test]
async fn a_league_stored_by_the_previous_schema_reads_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(include_str!("data/league-schema-5.sql"))
        .unwrap();
    let state = LeagueState::new(arbiter::league::Store::open(&path).unwrap(), None);
    let app = http::init_service(arbiter::api::app(state)).await;
    // The club's key, as `club create` printed it when the file was written.
    let key = "arb_fdbef71e19fc6d65a566f2d73a401793f3a5e830658428e033b8e5d40cae9169";
    let c = Client {
        app,
        key: key.into(),
    };
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x["name"].as_str().unwrap().to_string())
            .collect()
    };
    let ps = c.get("/v1/clubs/1/partnerships").await["items"].clone();
    assert_eq!(names(&ps), ["Ana & Cai", "Ben & Dee"]);
    assert_eq!(names(&ps[0]["players"]), ["Ana", "Cai"]);
    assert_eq!(names(&ps[1]["players"]), ["Ben", "Dee"]);
    // Stored: match 1 (Malilla fixture 11, N–S win by E–W's illegal seven), match 2 (fixture 09,
    // N–S 1), match 3 (Briscola fixture 03 for three: P1 63, P2 32, P3 25).
    assert_eq!(
        c.get("/v1/clubs/1/matches/2").await["partnerships"],
        json!({"NS": 1, "EW": 2})
    );
    let st = c.get("/v1/clubs/1/leagues/1/standings").await;
    let ana_cai = find(&st["partnerships"], "partnership", "Ana & Cai");
    check(ana_cai, 1, [1, 1, 0, 1, 0, 2, 0]);
    assert_eq!(ana_cai["places"], json!([1]));
    // Plays: fixture 06 (dealt by S, next after 09) gives N–S 35, 36 in all: game over.
    let r = c
        .post("/v1/clubs/1/matches/2/hands", &fixture("malilla", "06"))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["match_after"]["scores"], json!({"NS": 36, "EW": 0}));
    let st = c.get("/v1/clubs/1/leagues/1/standings").await;
    check(
        find(&st["partnerships"], "partnership", "Ana & Cai"),
        1,
        [2, 2, 0, 36, 0, 3, 0],
    );
    check(
        find(&st["partnerships"], "partnership", "Ben & Dee"),
        2,
        [2, 0, 2, 0, 36, 3, 1],
    );
    // The Briscola match plays on: 03 dealt by P1 (P2 63, P3 32, P1 25).
    let r = c
        .post(
            "/v1/clubs/1/matches/3/hands",
            &rotated(&fixture("briscola", "03"), 1),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        r.json["match_after"]["scores"],
        json!({"P1": 88, "P2": 95, "P3": 57})
    );
    // The migrated roster still refuses the same pair, and a team of three registers.
    assert_eq!(
        c.post("/v1/clubs/1/partnerships", &json!({"players": [3, 1]}))
            .await
            .status,
        409
    );
    assert_eq!(
        c.post("/v1/clubs/1/partnerships", &json!({"players": [1, 2, 3]}))
            .await
            .status,
        201
    );
}

/// Knockout Whist (issue 24): a whole game at four, its table shrinking, is placed and rated in
/// the order of knock-out. Fixtures 02, 03 and 17 (derived there by hand): S and W are knocked out
/// in round 1, E in round 3; each player still in after a round scores 1, so N 3, E 2, S 0, W 0.
#[actix_web::test]
async fn knockout_whist_standings_read_the_order_of_knock_out() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("knockout-whist", json!({})).await;
    let m = c.match_of_four(session, p).await;
    let mut after = Value::Null;
    for prefix in ["02", "03", "17"] {
        let mut record = fixture("knockout-whist", prefix);
        // The match carries its own state.
        record.as_object_mut().unwrap().remove("match_state");
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "hand {prefix}: {}", r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["out"], &after["winners"]),
        (
            &json!({"N": 3, "E": 2, "S": 0, "W": 0}),
            &json!({"E": 3, "S": 1, "W": 1}),
            &json!(["N"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    // Places: Ana first, Ben second, Cai and Dee knocked out together share third.
    assert_eq!(
        (row("Ana").0, row("Ana").1, row("Ana").3),
        (1, 1, json!([1]))
    );
    assert_eq!((row("Ben").0, row("Ben").3), (2, json!([0, 1])));
    assert_eq!((row("Cai").0, row("Cai").3), (3, json!([0, 0, 1])));
    assert_eq!((row("Dee").0, row("Dee").3), (3, json!([0, 0, 1])));
    // Ratings follow the same order: Ben beat two and lost to one, Cai and Dee tied each other.
    let rating = |n: &str| row(n).4;
    assert!(
        rating("Ana") > rating("Ben")
            && rating("Ben") > 25.0
            && 25.0 > rating("Cai")
            && rating("Cai") == rating("Dee"),
        "{players}"
    );
    // The session's CSV sheet carries the shrinking table (hands dealt to the players still in, the
    // trump choices and cuts): imported into another session it replays to the same game.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",cut,") && sheet.contains(",trump,"),
        "{sheet}"
    );
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["won"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(6)),
        "{ana}"
    );
}

/// Calabrasella (issue 24): three deals agreed; a passed-out deal counts toward them (CL-a) though
/// not in `hands_played`. Fixture 01 (dealer P3: P2 +10, P1 -5, P3 -5), fixture 02 moved one seat
/// on (dealer P1, all pass: no chips move, passed_out 1) and fixture 06 moved one seat on (dealer
/// P2; P3 declares and takes all 35: P3 +140, P1 -70, P2 -70). Balances P1 -75, P2 -60, P3 +135:
/// after the third deal the match is over and Cai (P3) wins; Ben second, Ana third.
#[actix_web::test]
async fn calabrasella_chips_over_the_agreed_deals_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("calabrasella", json!({"deals": 3}))
        .await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}}),
        )
        .await;
    let hands = [
        fixture("calabrasella", "01"),
        rotated(&fixture("calabrasella", "02"), 1),
        rotated(&fixture("calabrasella", "06"), 1),
    ];
    let mut after = Value::Null;
    for (h, record) in hands.iter().enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["hands_played"],
            &after["passed_out"],
            &after["winners"]
        ),
        (
            &json!({"P1": -75, "P2": -60, "P3": 135}),
            &json!(2),
            &json!(1),
            &json!(["P3"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    placed_first_second_third(players, ["Cai", "Ben", "Ana"]);
    // The session's sheet carries the calls, the widow and the discards as lists: imported into
    // another session it replays to the same match.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",declare,") && sheet.contains(",discard,") && sheet.contains(",take,"),
        "{sheet}"
    );
    let cai = find(&st["players"], "player", "Cai");
    assert_eq!(
        (cai["won"].as_i64(), cai["points_for"].as_i64()),
        (Some(2), Some(270)),
        "{cai}"
    );
}

/// A four-seat record moved `turns` seats on clockwise (N E S W): the dealer, the hands and every
/// action's seat.
fn rotated_compass(record: &Value, turns: usize) -> Value {
    const SEATS: [&str; 4] = ["N", "E", "S", "W"];
    let on = |s: &str| {
        let i = SEATS.iter().position(|x| *x == s).unwrap();
        SEATS[(i + turns) % 4]
    };
    let mut r = record.clone();
    r["dealer"] = json!(on(record["dealer"].as_str().unwrap()));
    r["deal"] = record["deal"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(seat, cards)| (on(seat).to_string(), cards.clone()))
        .collect::<serde_json::Map<_, _>>()
        .into();
    for a in r["actions"].as_array_mut().unwrap() {
        a["seat"] = json!(on(a["seat"].as_str().unwrap()));
    }
    r
}

/// Auction Solo (issue 25): three deals agreed at a four-seat table, each player alone. Fixture 01
/// (dealer S: N's solo 8 made, N +21, E S W -7), fixture 10 moved one seat on (dealer W: S's revoke
/// makes E's solo 8 exactly, E +6, N S W -2) and fixture 03 moved two seats on (dealer N: W's solo 7
/// in the turned suit fails by 7, W -27, N E S +9). Totals N 28, E 8, S 0, W -36: after the third
/// deal the match is over and Ana (N) wins; Ben second, Cai third, Dee fourth.
#[actix_web::test]
async fn auction_solo_net_totals_over_the_agreed_deals_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("auction-solo", json!({"deals": 3}))
        .await;
    let m = c.match_of_four(session, p).await;
    let hands = [
        fixture("auction-solo", "01"),
        rotated_compass(&fixture("auction-solo", "10"), 1),
        rotated_compass(&fixture("auction-solo", "03"), 2),
    ];
    let mut after = Value::Null;
    for (h, record) in hands.iter().enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["hands_played"], &after["winners"]),
        (
            &json!({"N": 28, "E": 8, "S": 0, "W": -36}),
            &json!(3),
            &json!(["N"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let places: Vec<(i64, Value)> = ["Ana", "Ben", "Cai", "Dee"]
        .iter()
        .map(|name| {
            let (rank, _, _, places, _) = finish(find(players, "player", name));
            (rank, places)
        })
        .collect();
    assert_eq!(
        places,
        [
            (1, json!([1])),
            (2, json!([0, 1])),
            (3, json!([0, 0, 1])),
            (4, json!([0, 0, 0, 1]))
        ]
    );
    // Rated from that order: each ahead of the next.
    let ratings: Vec<f64> = ["Ana", "Ben", "Cai", "Dee"]
        .iter()
        .map(|name| finish(find(players, "player", name)).4)
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{ratings:?}");
    // The session's sheet carries the bids as objects: imported into another session it replays
    // to the same match.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",bid,") && sheet.contains(",trump,"),
        "{sheet}"
    );
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["won"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(56)),
        "{ana}"
    );
}

/// Spinado (issue 23): five players, two hands agreed. Fixture 01 (dealer P5: P5 runs the spades
/// and goes out; P1 -3, P2 -3, P3 -3, P4 -17 with the spinado, P5 +16; Matrimony and Intrigue keep
/// 5 each), then fixture 01 moved one seat on (dealer P1; P5, the previous winner, does not ante:
/// the pots 9, 9 and 4; P1 goes out and takes the Game pot, 4, and 14 from P5, who now holds the
/// spinado with 7 cards: P1 -3 + 4 + 14 = +15, P2 -3, P3 -3, P4 -3, P5 -14). Balances P1 +12,
/// P2 -6, P3 -6, P4 -20, P5 +2, with 18 chips in the pots: the game is over and Ana (P1) wins.
#[actix_web::test]
async fn spinado_chips_and_pots_over_the_agreed_hands_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("spinado", json!({"players": "5", "hands": 2}))
        .await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"], "P4": p["Dee"], "P5": p["Eve"]}}),
        )
        .await;
    let mut first = fixture("spinado", "01");
    first["options"] = json!({"players": "5", "hands": 2});
    let hands = [first.clone(), rotated(&first, 1)];
    let mut after = Value::Null;
    for (h, record) in hands.iter().enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["pots"], &after["winners"]),
        (
            &json!({"P1": 12, "P2": -6, "P3": -6, "P4": -20, "P5": 2}),
            &json!({"matrimony": 9, "intrigue": 9, "game": 0}),
            &json!(["P1"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let rank = |name| find(players, "player", name)["rank"].as_i64().unwrap();
    assert_eq!((rank("Ana"), rank("Eve")), (1, 2), "{players}");
    assert!(
        rank("Ben") == rank("Cai") && rank("Cai") < rank("Dee"),
        "{players}"
    );
    let rating = |name| {
        find(players, "player", name)["rating"]["rating"]
            .as_f64()
            .unwrap()
    };
    assert!(
        rating("Ana") > rating("Eve")
            && rating("Eve") > rating("Ben")
            && rating("Cai") > rating("Dee")
    );
    // The sheet carries the plays (card and spinado flag) and the dead hand: imported into another
    // session it replays to the same match.
    let (_, st) = c.sheet_imported_again(league, session).await;
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["won"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(24)),
        "{ana}"
    );
}

/// Calypso (issue 24): a whole game of four deals at one match, the piles carried by the match
/// from deal to deal. Each deal gives every player his own suit's 13 ranks (the undealt remainder
/// loses one copy of each card a deal, so four such deals use the 208 cards) and every trick is
/// played in one rank, the leader winning the ties (calypso.md CA-2): the dealer's left wins all 13.
/// Derived by hand as in fixture 01: deal 1 (W deals) N-S 500 + 500 + 260 = 1260; deal 2 (N deals)
/// E-W the same 1260; deal 3 (E deals, S leads) S's and N's second calypsos 750 + 750 and S's pile
/// 260: N-S 1760; deal 4 (S deals, W leads) E-W 1760 likewise. Totals 3020 each: a drawn game
/// (CA-7), so nobody wins or loses, every player shares first place and the ratings stay equal.
#[actix_web::test]
async fn calypso_four_deals_make_a_game_and_equal_totals_draw() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("calypso", json!({})).await;
    let m = c.match_of_four(session, p).await;
    let seats = ["N", "E", "S", "W"];
    let own = |seat: &str| match seat {
        "N" => 'S',
        "E" => 'D',
        "S" => 'H',
        _ => 'C',
    };
    let mut after = Value::Null;
    for dealer in 0..4 {
        let (dealer, leader) = ((dealer + 3) % 4, dealer);
        let deal: serde_json::Map<String, Value> = seats
            .iter()
            .map(|s| {
                let cards: Vec<String> = "AKQJT98765432"
                    .chars()
                    .map(|r| format!("{r}{}", own(s)))
                    .collect();
                (s.to_string(), json!(cards))
            })
            .collect();
        let actions: Vec<Value> = "AKQJT98765432"
            .chars()
            .flat_map(|r| {
                (0..4).map(move |i| {
                    let seat = seats[(leader + i) % 4];
                    json!({"seat": seat, "play": format!("{r}{}", own(seat))})
                })
            })
            .collect();
        let record =
            json!({"game": "calypso", "dealer": seats[dealer], "deal": deal, "actions": actions});
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "deal dealt by {}: {}", seats[dealer], r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (&json!({"NS": 3020, "EW": 3020}), &json!(true), &json!([]))
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    for name in ["Ana", "Ben", "Cai", "Dee"] {
        assert_eq!(
            (row(name).0, row(name).1, row(name).2, row(name).3),
            (1, 0, 0, json!([1])),
            "{name}: {players}"
        );
        assert_eq!(row(name).4, row("Ana").4, "{players}");
    }
    // The session's CSV sheet replays to the same game in another session.
    let (_, st) = c.sheet_imported_again(league, session).await;
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["matches_played"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(6040)),
        "{ana}"
    );
}

/// Pluck (issue 24): a whole game of three, its plucks carried from hand to hand by the match, is
/// placed and rated. Fixtures 01, 02, 18 and 19 (derived there by hand) are one game: P3 scores
/// 3, 4, 10 and 13, reaching 30 and winning; P1 and P2 never score. The CSV sheet carries the
/// plucks and replays to the same game.
#[actix_web::test]
async fn pluck_game_with_plucks_carried_by_the_match_is_placed_and_rated() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("pluck", json!({})).await;
    let seats =
        json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}});
    let m = c.create("/v1/clubs/1/matches", seats).await;
    let mut after = Value::Null;
    for prefix in ["01", "02", "18", "19"] {
        let mut record = fixture("pluck", prefix);
        // The match carries its own state, plucks owed included.
        record.as_object_mut().unwrap().remove("match_state");
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "hand {prefix}: {}", r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (
            &json!({"P1": 0, "P2": 0, "P3": 30}),
            &json!(true),
            &json!(["P3"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    // Cai first; Ana and Ben, level at 0, share second.
    assert_eq!(
        (row("Cai").0, row("Cai").1, row("Cai").3),
        (1, 1, json!([1]))
    );
    assert_eq!((row("Ana").0, row("Ana").3), (2, json!([0, 1])));
    assert_eq!((row("Ben").0, row("Ben").3), (2, json!([0, 1])));
    let rating = |n: &str| row(n).4;
    assert!(
        rating("Cai") > 25.0 && 25.0 > rating("Ana") && rating("Ana") == rating("Ben"),
        "{players}"
    );
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",pluck,") && sheet.contains(",pluck_return,"),
        "{sheet}"
    );
    let cai = find(&st["players"], "player", "Cai");
    assert_eq!(
        (cai["won"].as_i64(), cai["points_for"].as_i64()),
        (Some(2), Some(60)),
        "{cai}"
    );
}

/// Tong-Its (issue 22): a whole match of two agreed hands at three, played for chips, is placed and
/// rated by the final balances, and its CSV sheet (draws, melds and lay-offs as JSON cells) replays
/// to the same match. Fixture 01 twice (derived there and in fixture 10): P1 wins an unchallenged
/// draw both times, each loser paying 3; the second win in a row takes the pot of 12: P1 4 + 16 =
/// 20, P2 and P3 -5 - 5 = -10 each.
#[actix_web::test]
async fn tong_its_standings_read_the_chip_balances() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("tong-its", json!({"match_hands": 2}))
        .await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}}),
        )
        .await;
    let mut after = Value::Null;
    for hand in 1..=2 {
        let r = c.post_hand(m, &fixture("tong-its", "01")).await;
        assert_eq!(r.status, 201, "hand {hand}: {}", r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["pot"],
            &after["game_over"],
            &after["winners"]
        ),
        (
            &json!({"P1": 20, "P2": -10, "P3": -10}),
            &json!(0),
            &json!(true),
            &json!(["P1"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    assert_eq!(
        (row("Ana").0, row("Ana").1, row("Ana").3),
        (1, 1, json!([1]))
    );
    assert_eq!((row("Ben").0, row("Ben").3), (2, json!([0, 1])));
    assert_eq!((row("Cai").0, row("Cai").3), (2, json!([0, 1])));
    assert!(
        row("Ana").4 > 25.0 && 25.0 > row("Ben").4 && row("Ben").4 == row("Cai").4,
        "{players}"
    );
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",call_draw,") && sheet.contains(",meld,"),
        "{sheet}"
    );
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(ana["won"].as_i64(), Some(2), "{ana}");
}

/// Zetema for two at a league's table (option players 2, game 300): four hands of fixture 01's
/// deal (derived there by hand: the first player completes seven zetemas worth 105, the dealer six
/// worth 85), the dealer passing left, the odd hands with the seats swapped (P1 deals, so P2
/// plays first and scores the 105). After three hands P1 has 105 + 85 + 105 = 295 and P2 85 + 105
/// + 85 = 275. In the fourth (swapped) hand P2 reaches 295 with the jacks' zetema at action 4 and
/// P1 300 or more with the aces' at action 9 (295 + 15 = 310): the game ends there, mid-hand, and
/// the 55 actions after it are ignored (ZE-e). Ana (P1) wins; standings and ratings say so, and
/// the session's sheet replays to the same game.
#[actix_web::test]
async fn zetema_for_two_ends_mid_hand_and_the_league_ranks_it() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("zetema", json!({"players": "2"}))
        .await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"]}}),
        )
        .await;
    let hand = fixture("zetema", "01");
    // The same deal dealt by P1: each seat holds and plays what the other did.
    let mut swapped = hand.clone();
    swapped["dealer"] = json!("P1");
    swapped["deal"] = json!({"P1": hand["deal"]["P2"], "P2": hand["deal"]["P1"]});
    for a in swapped["actions"].as_array_mut().unwrap() {
        a["seat"] = json!(if a["seat"] == "P1" { "P2" } else { "P1" });
    }
    let mut last = Value::Null;
    for (n, record) in [&hand, &swapped, &hand, &swapped].into_iter().enumerate() {
        let mut record = record.clone();
        record.as_object_mut().unwrap().remove("options");
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "hand {}: {}", n + 1, r.text);
        last = r.json;
    }
    assert_eq!(last["hand_score"], json!({"P1": 15, "P2": 20}), "{last}");
    let after = &last["match_after"];
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (&json!({"P1": 310, "P2": 295}), &json!(true), &json!(["P1"]))
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let (ana, ben) = (
        finish(find(&st["players"], "player", "Ana")),
        finish(find(&st["players"], "player", "Ben")),
    );
    assert_eq!((ana.0, ana.1, ana.2), (1, 1, 0), "{st}");
    assert_eq!((ben.0, ben.1, ben.2), (2, 0, 1), "{st}");
    assert!(ana.4 > 25.0 && 25.0 > ben.4, "{st}");
    // The session's sheet, imported into another session, replays to the same game.
    let (_, st) = c.sheet_imported_again(league, session).await;
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["won"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(620)),
        "{ana}"
    );
}

/// Poke (issue 23): a whole rubber at one match of two. Each hand the dealer draws three times
/// (the first free, then doubled, then redoubled: poke.md §2) and the non-dealer takes all five
/// tricks with A K Q J 9 of spades: 5 × 4 = 20 below the line, a game (100), the slam (250) and a
/// flush's honours (400) against the dealer's high card: 750 above the line. Hand 1 (P1 deals): P2
/// a game; hand 2 (P2 deals): P1 a game; hand 3 (P1 deals): P2 his second game, the rubber, +500
/// as P1 won a game: 1250. Above the line P1 750, P2 2000: Ben (P2) wins the rubber (PO-6).
#[actix_web::test]
async fn poke_a_rubber_of_three_games_places_the_higher_total_above_the_line() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("poke", json!({})).await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"]}}),
        )
        .await;
    let hand = |dealer: &str, other: &str| {
        let strong = ["AS", "KS", "QS", "JS", "9S"];
        let weak = ["2C", "3C", "4D", "5D", "6H"];
        let mut actions = vec![json!({"seat": other, "stand": true})];
        for (discard, drawn) in [("2C", "7H"), ("3C", "8H"), ("4D", "2H")] {
            actions
                .push(json!({"seat": dealer, "draw": {"discards": [discard], "drawn": [drawn]}}));
        }
        actions.push(json!({"seat": dealer, "stand": true}));
        for (lead, reply) in strong.iter().zip(["5D", "6H", "7H", "8H", "2H"]) {
            actions.push(json!({"seat": other, "lead": [lead]}));
            actions.push(json!({"seat": dealer, "reply": [reply]}));
        }
        json!({"game": "poke", "dealer": dealer, "deal": {dealer: weak, other: strong}, "actions": actions})
    };
    let mut after = Value::Null;
    for (h, (dealer, other)) in [("P1", "P2"), ("P2", "P1"), ("P1", "P2")]
        .iter()
        .enumerate()
    {
        let r = c.post_hand(m, &hand(dealer, other)).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["games"], &after["winners"]),
        (
            &json!({"P1": 750, "P2": 2000}),
            &json!({"P1": 1, "P2": 2}),
            &json!(["P2"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let ben = finish(find(&st["players"], "player", "Ben"));
    let ana = finish(find(&st["players"], "player", "Ana"));
    assert_eq!((ben.0, ben.1, ben.2), (1, 1, 0), "{st}");
    assert_eq!((ana.0, ana.1, ana.2), (2, 0, 1), "{st}");
    assert!(ben.4 > ana.4, "{st}");
    // The session's sheet carries the draws and the leads: imported into another session it
    // replays to the same rubber.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",draw,") && sheet.contains(",lead,"),
        "{sheet}"
    );
    let ben = find(&st["players"], "player", "Ben");
    assert_eq!(
        (ben["won"].as_i64(), ben["points_for"].as_i64()),
        (Some(2), Some(4000)),
        "{ben}"
    );
}

/// Trente et Quarante (issue 23): the bank and two punters at one match, the imprisoned bets and
/// the shoe carried by the match. Fixture 04 (a refait of 31: P1 the bank +53, P2 -51, P3 -2; P2's
/// rouge 40 and P3's inverse 50 imprisoned), then fixture 05's coup on the match's own state (noir
/// and couleur win: both prisoners lose, -40 and -50, and P3's new noir 10 wins: P1 +80, P2 -40,
/// P3 -40). Balances P1 133, P2 -91, P3 -42; the session has no end (TQ-f), nobody has won.
#[actix_web::test]
async fn trente_et_quarante_balances_carry_the_prisoners_from_coup_to_coup() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("trente-et-quarante", json!({"punters": "2"}))
        .await;
    let m = c
        .create(
            "/v1/clubs/1/matches",
            json!({"session": session, "seats": {"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]}}),
        )
        .await;
    let mut after = Value::Null;
    for prefix in ["04", "05"] {
        let mut record = fixture("trente-et-quarante", prefix);
        // The match carries its own state.
        record.as_object_mut().unwrap().remove("match_state");
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "coup {prefix}: {}", r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["imprisoned"],
            &after["coups"],
            &after["winners"]
        ),
        (
            &json!({"P1": 133, "P2": -91, "P3": -42}),
            &json!([]),
            &json!(2),
            &json!([])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let points = |st: &Value, n: &str| find(&st["players"], "player", n)["points_for"].as_i64();
    assert_eq!(
        (points(&st, "Ana"), points(&st, "Ben"), points(&st, "Cai")),
        (Some(133), Some(-91), Some(-42)),
        "{st}"
    );
    // The session's sheet carries the bets and rows: imported into another session it replays to
    // the same balances.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",bet,") && sheet.contains(",black_row,"),
        "{sheet}"
    );
    assert_eq!(points(&st, "Ana"), Some(266), "{st}");
}

/// Hand and Foot (issue 22) at a league's table: a game of four hands at one match, the dealer
/// passing left (W, N, E, S), each hand a fixture's deal and play with the seats moved on to the
/// dealer (`rotated`), so the side that plays N's and S's part changes with it. The fixtures'
/// scores, derived there by hand, hold at any hand of the game (N's opening turn lays 220, over
/// hand 4's 150): hand 1 fixture 01, N-S 4025 and E-W -375; hand 2 fixture 06 moved one seat on
/// (E-W went out after a failed go-out, -100): E-W 3925, N-S -375; hand 3 fixture 07 moved two
/// seats (W takes the pile illegally, -50): N-S 4025, E-W -425; hand 4 fixture 01 moved three
/// seats: E-W 4025, N-S -375. Totals N-S 7300, E-W 7150: the game is over after four hands and
/// N-S (Ana and Cai) win (§4). The standings place and rate them, and the session's CSV sheet,
/// imported again, replays to the same game.
#[actix_web::test]
async fn hand_and_foot_four_hands_make_a_game_and_the_league_places_it() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c.league_with_a_session("hand-and-foot", json!({})).await;
    let m = c.match_of_four(session, p).await;
    let hands = [
        fixture("hand-and-foot", "01"),
        rotated(&fixture("hand-and-foot", "06"), 1),
        rotated(&fixture("hand-and-foot", "07"), 2),
        rotated(&fixture("hand-and-foot", "01"), 3),
    ];
    let scores = [(4025, -375), (-375, 3925), (4025, -425), (-375, 4025)];
    let mut after = Value::Null;
    for (n, (record, (ns, ew))) in hands.iter().zip(scores).enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", n + 1, r.text);
        assert_eq!(
            r.json["hand_score"],
            json!({"NS": ns, "EW": ew}),
            "hand {}",
            n + 1
        );
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (
            &json!({"NS": 7300, "EW": 7150}),
            &json!(true),
            &json!(["NS"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    // Partners share their side's place: N-S first, E-W second, ranked 3rd in the league's table
    // behind the two players above them.
    for (name, rank, won, lost, places) in [
        ("Ana", 1, 1, 0, json!([1])),
        ("Cai", 1, 1, 0, json!([1])),
        ("Ben", 3, 0, 1, json!([0, 1])),
        ("Dee", 3, 0, 1, json!([0, 1])),
    ] {
        let (r, w, l, p, _) = row(name);
        assert_eq!((r, w, l, p), (rank, won, lost, places), "{name}: {players}");
    }
    assert_eq!(row("Ana").4, row("Cai").4, "{players}");
    assert_eq!(row("Ben").4, row("Dee").4, "{players}");
    assert!(row("Ana").4 > 25.0 && 25.0 > row("Ben").4, "{players}");
    // The session's sheet, imported into another session, replays to the same game.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",take_pile,") && sheet.contains(",second_stock"),
        "{sheet}"
    );
    let points = |n: &str| {
        let row = find(&st["players"], "player", n);
        (row["won"].as_i64(), row["points_for"].as_i64())
    };
    assert_eq!(points("Ana"), (Some(2), Some(14600)), "{st}");
    assert_eq!(points("Ben"), (Some(0), Some(14300)), "{st}");
}

/// Colour Whist (issue 25): two deals agreed. Fixture 02 (everyone passes: each stakes 1, the pool
/// holds 4, the same dealer N redeals and the deal does not count, CW-d), fixture 01 (E's proposal
/// accepted by W, made with an overtrick: the pool of 8 divided, 4 each, and 5 from one opponent
/// each: E and W -1 + 4 + 5 = +8, N and S -6), then fixture 09 (dealer E: E's open abundance made,
/// the pool of 4 and 44 from each: E +135, the others -45). Net units N -52, E +142, S -52, W -38:
/// two deals played, the match is over and Ben (E) wins; Dee (W) is second, Ana and Cai tie.
#[actix_web::test]
async fn colour_whist_net_units_and_the_pool_over_the_agreed_deals_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("colour-whist", json!({"deals": 2}))
        .await;
    let m = c.match_of_four(session, p).await;
    let mut after = Value::Null;
    for (h, prefix) in ["02", "01", "09"].iter().enumerate() {
        let mut record = fixture("colour-whist", prefix);
        record.as_object_mut().unwrap().remove("match_state");
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["pool"],
            &after["hands_played"],
            &after["winners"]
        ),
        (
            &json!({"N": -52, "E": 142, "S": -52, "W": -38}),
            &json!(0),
            &json!(2),
            &json!(["E"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let rank = |name| find(players, "player", name)["rank"].as_i64().unwrap();
    assert_eq!((rank("Ben"), rank("Dee")), (1, 2), "{players}");
    assert!(rank("Ana") == rank("Cai") && rank("Cai") > 2, "{players}");
    // The session's sheet carries the calls with their values: imported into another session it
    // replays to the same match.
    let (sheet, _) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",propose,") && sheet.contains(",accept,") && sheet.contains(",open,"),
        "{sheet}"
    );
}

/// Nomination Whist (issue 25): three deals agreed; a passed-out deal counts toward them (NW-c).
/// Fixture 01 (dealer W: N bids 7 with S as ally and makes it: N +7, S +7, E -7, W -7), fixture 12
/// moved one seat on (dealer N, all four pass: nothing moves, passed_out 1), fixture 03 moved two
/// seats on (dealer E; S bids the slam alone with all the spades and makes it: S +78, the others -26
/// each). Net N -19, E -33, S +85, W -33: after the third deal the match is over and Cai (S) wins,
/// Ana (N) second.
#[actix_web::test]
async fn nomination_whist_net_units_over_the_agreed_deals_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("nomination-whist", json!({"deals": 3}))
        .await;
    let m = c.match_of_four(session, p).await;
    let hands = [
        fixture("nomination-whist", "01"),
        rotated_compass(&fixture("nomination-whist", "12"), 1),
        rotated_compass(&fixture("nomination-whist", "03"), 2),
    ];
    let mut after = Value::Null;
    for (h, record) in hands.iter().enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["hands_played"],
            &after["passed_out"],
            &after["game_over"],
            &after["winners"]
        ),
        (
            &json!({"N": -19, "E": -33, "S": 85, "W": -33}),
            &json!(2),
            &json!(1),
            &json!(true),
            &json!(["S"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let (cai, ana) = (
        finish(find(players, "player", "Cai")),
        finish(find(players, "player", "Ana")),
    );
    assert_eq!((cai.0, cai.1, ana.0, ana.1), (1, 1, 2, 0), "{players}");
    // The session's sheet carries the bids, the trump and the named card: imported into another
    // session it replays to the same match.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",bid,") && sheet.contains(",trump,") && sheet.contains(",named_card,"),
        "{sheet}"
    );
    let cai = find(&st["players"], "player", "Cai");
    assert_eq!(cai["won"].as_i64(), Some(2), "{cai}");
}

/// Boston de Fontainebleau (issue 25): four players each for himself, three deals agreed; a
/// passed-out deal counts toward them (BO-e) though not in `hands_played`. Fixture 01 (dealer W: N
/// ten ♣ made, N +180, E, S, W -60), fixture 05 moved one seat on (dealer N, all pass: passed_out
/// 1) and fixture 06 moved two seats on (dealer E; E's petite misère made: E +96, N, S, W -32).
/// Net units N 148, E 36, S -92, W -92: after the third deal the game is over and Ana (N) wins,
/// Ben (E) second; Cai and Dee tie for last.
#[actix_web::test]
async fn boston_net_units_over_the_agreed_deals_place_the_players() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let p = &s.players;
    let (league, session) = c
        .league_with_a_session("boston-de-fontainebleau", json!({"deals": 3}))
        .await;
    let m = c.match_of_four(session, p).await;
    let hands = [
        fixture("boston-de-fontainebleau", "01"),
        rotated_compass(&fixture("boston-de-fontainebleau", "05"), 1),
        rotated_compass(&fixture("boston-de-fontainebleau", "06"), 2),
    ];
    let mut after = Value::Null;
    for (h, record) in hands.iter().enumerate() {
        let r = c.post_hand(m, record).await;
        assert_eq!(r.status, 201, "hand {}: {}", h + 1, r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (
            &after["scores"],
            &after["hands_played"],
            &after["passed_out"],
            &after["winners"]
        ),
        (
            &json!({"N": 148, "E": 36, "S": -92, "W": -92}),
            &json!(2),
            &json!(1),
            &json!(["N"])
        )
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let (ana, ben, cai, dee) = (
        finish(find(players, "player", "Ana")),
        finish(find(players, "player", "Ben")),
        finish(find(players, "player", "Cai")),
        finish(find(players, "player", "Dee")),
    );
    assert_eq!((ana.0, ana.1, ana.2), (1, 1, 0), "{players}");
    assert_eq!((ben.0, ben.1, ben.2), (2, 0, 1), "{players}");
    assert!(ana.4 > ben.4 && ben.4 > cai.4, "{players}");
    assert_eq!(cai.4, dee.4, "tied for last, rated alike: {players}");
    // The session's sheet carries the bids, the support and the discard: imported into another
    // session it replays to the same match.
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",bid,") && sheet.contains(",discard,"),
        "{sheet}"
    );
    let ana = find(&st["players"], "player", "Ana");
    assert_eq!(
        (ana["won"].as_i64(), ana["points_for"].as_i64()),
        (Some(2), Some(296)),
        "{ana}"
    );
}

/// Royal Porcio (issue 24): a whole game to 250 and 50 ahead is placed and rated, and its CSV sheet
/// (bids, duones, exchange, spoils as JSON cells) replays to the same game. Fixture 14 (derived
/// there: E-W 131) dealt by N; fixture 01 (E-W 79) turned one seat, dealt by E: N-S 79; fixture 14
/// turned two seats, dealt by S: E-W 131 again. E-W 262 against 79: at least 250 and 50 ahead, E-W
/// (Ben and Dee) win.
#[actix_web::test]
async fn royal_porcio_game_to_250_and_50_ahead_is_placed_and_rated() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let (league, session) = c.league_with_a_session("royal-porcio", json!({})).await;
    let m = c.match_of_four(session, &s.players).await;
    let mut after = Value::Null;
    for (prefix, steps) in [("14", 0), ("01", 1), ("14", 2)] {
        let record = rotated_compass(&fixture("royal-porcio", prefix), steps);
        let r = c.post_hand(m, &record).await;
        assert_eq!(r.status, 201, "hand {prefix}: {}", r.text);
        after = r.json["match_after"].clone();
    }
    assert_eq!(
        (&after["scores"], &after["game_over"], &after["winners"]),
        (&json!({"NS": 79, "EW": 262}), &json!(true), &json!(["EW"]))
    );
    let st = c
        .get(&format!("/v1/clubs/1/leagues/{league}/standings"))
        .await;
    let players = &st["players"];
    let row = |n: &str| finish(find(players, "player", n));
    assert_eq!(
        // Standard competition ranking: the two winners share 1st, the two others are 3rd.
        (row("Ben").0, row("Dee").0, row("Ana").0, row("Cai").0),
        (1, 1, 3, 3)
    );
    assert!(row("Ben").4 > row("Ana").4, "{players}");
    let (sheet, st) = c.sheet_imported_again(league, session).await;
    assert!(
        sheet.contains(",duone_card,") && sheet.contains(",exchange_give,"),
        "{sheet}"
    );
    let ben = find(&st["players"], "player", "Ben");
    assert_eq!(ben["won"].as_i64(), Some(2), "{ben}");
}

/// Issue 26: every list is paged. Two clubs' keys, players, partnerships, leagues, sessions and
/// matches are created interleaved; walked two at a time, each list of club A gives each of A's
/// items once, oldest first, and no other (a page that ends the list exactly has no next), and so
/// does the list of clubs for each reader (a members-only club only to its members, also when it
/// falls between two pages). A cursor of club A's list read on club B's shows only B's items
/// after it; a key's id is the keys' cursor, and another club's is refused.
#[actix_web::test]
async fn every_list_is_paged_each_item_once_in_id_order() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (a, key_a) = new_club(&app, "Club A").await;
    let (b, key_b) = new_club(&app, "Club B").await;
    let c = Client {
        app,
        key: key_a.clone(),
    };
    let id_of_first_key = |r: Reply| r.json["items"][0]["id"].clone();
    let mut keys_a = vec![id_of_first_key(
        c.get_as(&key_a, &format!("/v1/clubs/{a}/keys")).await,
    )];
    let mut keys_b = vec![id_of_first_key(
        c.get_as(&key_b, &format!("/v1/clubs/{b}/keys")).await,
    )];
    let (mut players_a, mut players_b) = (vec![], vec![]);
    for i in 0..5 {
        let name = json!({"name": format!("A{i}")});
        players_a.push(
            c.create_as(&key_a, &format!("/v1/clubs/{a}/players"), name)
                .await,
        );
        if i < 4 {
            let name = json!({"name": format!("B{i}")});
            players_b.push(
                c.create_as(&key_b, &format!("/v1/clubs/{b}/players"), name)
                    .await,
            );
        }
        if i < 3 {
            let label = json!({"label": format!("k{i}")});
            keys_a.push(
                c.create_as(&key_a, &format!("/v1/clubs/{a}/keys"), label)
                    .await,
            );
        }
        if i < 2 {
            let label = json!({"label": format!("k{i}")});
            keys_b.push(
                c.create_as(&key_b, &format!("/v1/clubs/{b}/keys"), label)
                    .await,
            );
        }
    }
    let (mut partnerships_a, mut partnerships_b) = (vec![], vec![]);
    for pair in [[0, 1], [2, 3], [0, 2]] {
        let players = json!({"players": [players_a[pair[0]], players_a[pair[1]]]});
        let uri = format!("/v1/clubs/{a}/partnerships");
        partnerships_a.push(c.create_as(&key_a, &uri, players).await);
        if pair[0] == 0 {
            let players = json!({"players": [players_b[pair[0]], players_b[pair[1]]]});
            let uri = format!("/v1/clubs/{b}/partnerships");
            partnerships_b.push(c.create_as(&key_b, &uri, players).await);
        }
    }
    let league = |name: &str| json!({"name": name, "season": "2026", "game": "malilla"});
    let (mut leagues_a, mut leagues_b) = (vec![], vec![]);
    for i in 0..3 {
        let uri = format!("/v1/clubs/{a}/leagues");
        leagues_a.push(c.create_as(&key_a, &uri, league(&format!("L{i}"))).await);
        let uri = format!("/v1/clubs/{b}/leagues");
        leagues_b.push(c.create_as(&key_b, &uri, league(&format!("L{i}"))).await);
    }
    // Sessions of A's first league, between those of its second league and of B's first.
    let sessions =
        |club: i64, league: &Value| format!("/v1/clubs/{club}/leagues/{league}/sessions");
    let (mut sessions_a, mut sessions_b) = (vec![], vec![]);
    for i in 0..3 {
        let name = json!({"name": format!("Evening {i}")});
        sessions_a.push(
            c.create_as(&key_a, &sessions(a, &leagues_a[0]), name.clone())
                .await,
        );
        c.create_as(&key_a, &sessions(a, &leagues_a[1]), name.clone())
            .await;
        sessions_b.push(c.create_as(&key_b, &sessions(b, &leagues_b[0]), name).await);
    }
    // Matches of A's first session, between those of its second session and of B's first.
    let seats = |p: &[Value]| json!({"N": p[0], "E": p[1], "S": p[2], "W": p[3]});
    let (mut matches_a, mut matches_b) = (vec![], vec![]);
    for _ in 0..3 {
        let new = |session: &Value, p: &[Value]| json!({"session": session, "seats": seats(p)});
        let uri = format!("/v1/clubs/{a}/matches");
        matches_a.push(
            c.create_as(&key_a, &uri, new(&sessions_a[0], &players_a))
                .await,
        );
        c.create_as(&key_a, &uri, new(&sessions_a[1], &players_a))
            .await;
        let uri = format!("/v1/clubs/{b}/matches");
        matches_b.push(
            c.create_as(&key_b, &uri, new(&sessions_b[0], &players_b))
                .await,
        );
    }
    let matches =
        |club: i64, session: &Value| format!("/v1/clubs/{club}/sessions/{session}/matches");

    let lists_a = [
        (format!("/v1/clubs/{a}/keys"), &keys_a),
        (format!("/v1/clubs/{a}/players"), &players_a),
        (format!("/v1/clubs/{a}/partnerships"), &partnerships_a),
        (format!("/v1/clubs/{a}/leagues"), &leagues_a),
        (sessions(a, &leagues_a[0]), &sessions_a),
        (matches(a, &sessions_a[0]), &matches_a),
    ];
    for (path, items) in &lists_a {
        assert_eq!(&c.walk(&key_a, path, 2).await, *items, "{path}");
        assert_eq!(&c.walk(&key_a, path, 1000).await, *items, "{path}");
    }
    let lists_b = [
        (format!("/v1/clubs/{b}/players"), &players_b),
        (format!("/v1/clubs/{b}/partnerships"), &partnerships_b),
        (format!("/v1/clubs/{b}/leagues"), &leagues_b),
        (sessions(b, &leagues_b[0]), &sessions_b),
        (matches(b, &sessions_b[0]), &matches_b),
    ];
    for ((path_a, items_a), (path_b, items_b)) in lists_a[1..].iter().zip(&lists_b) {
        assert_eq!(&c.walk(&key_b, path_b, 2).await, *items_b, "{path_b}");
        // Club A's first cursor, on club B's list (read by anyone: B's results are public).
        let cursor = c.get_as(&key_a, &format!("{path_a}?limit=1")).await.json["next_cursor"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(cursor, items_a[0].to_string());
        let after: Vec<&Value> = (items_b.iter())
            .filter(|id| id.as_i64().unwrap() > items_a[0].as_i64().unwrap())
            .collect();
        assert!(!after.is_empty());
        let r = c.get_as("", &format!("{path_b}?cursor={cursor}")).await;
        let ids: Vec<&Value> = (r.json["items"].as_array().unwrap().iter())
            .map(|x| &x["id"])
            .collect();
        assert_eq!(ids, after, "{path_b}?cursor={cursor}: {}", r.text);
    }
    assert_eq!(
        c.walk(&key_b, &format!("/v1/clubs/{b}/keys"), 2).await,
        keys_b
    );
    // The keys' cursor is a key's id; another club's (well-formed, so the schema lets it pass)
    // names no key of this list: 404, as a key id in a path that names none, not a 400 for a
    // request the OpenAPI document says is valid.
    let r = c
        .get_as(&key_a, &format!("/v1/clubs/{a}/keys?limit=1"))
        .await;
    assert_eq!(r.json["next_cursor"], keys_a[0]);
    let r = c
        .get_as(
            &key_b,
            &format!("/v1/clubs/{b}/keys?cursor={}", keys_a[0].as_str().unwrap()),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.text);
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("the cursor names no key of club {b}")),
        "{}",
        r.text
    );

    // Clubs: C is members-only, between B and D.
    let r = c
        .send(
            http::TestRequest::post()
                .uri("/v1/clubs")
                .insert_header(("authorization", "Bearer operator-token"))
                .set_json(json!({"name": "Club C", "visibility": "members_only"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let c_club = r.json["club"]["id"].clone();
    let key_c = r.json["key"]["secret"].as_str().unwrap().to_string();
    let d = new_club(&c.app, "Club D").await.0;
    let public = json!([a, b, d]);
    let every = json!([a, b, c_club, d]);
    for (reader, clubs) in [
        ("", &public),
        (key_a.as_str(), &public),
        (key_c.as_str(), &every),
        ("operator-token", &every),
    ] {
        for limit in [1, 2, 3] {
            assert_eq!(
                &Value::from(c.walk(reader, "/v1/clubs", limit).await),
                clubs,
                "{reader:?}, {limit} a page"
            );
        }
    }
}

/// Issue 26: a bad `cursor` or `limit` of any list is the same 400 as a hand list's, naming the
/// parameter, and an unknown parameter is refused; an empty cursor is the first page.
#[actix_web::test]
async fn every_list_refuses_a_bad_cursor_or_limit_as_the_hand_lists_do() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    c.match_of_four(s.evening1, &s.players).await;
    assert_eq!(c.import(s.evening1, &two_hand_sheet()).await.status, 201);
    let hands = format!("/v1/clubs/1/leagues/{}/hands", s.malilla);
    let hand = c.get(&hands).await["items"][0]["id"].clone();
    let lists = [
        "/v1/clubs".to_string(),
        "/v1/clubs/1/keys".into(),
        "/v1/clubs/1/players".into(),
        "/v1/clubs/1/partnerships".into(),
        "/v1/clubs/1/leagues".into(),
        format!("/v1/clubs/1/leagues/{}/sessions", s.malilla),
        format!("/v1/clubs/1/sessions/{}/matches", s.evening1),
        "/v1/clubs/1/amendments".into(),
        format!("/v1/clubs/1/hands/{hand}/amendments"),
    ];
    let bad = [
        ("cursor=abc", "/query/cursor"),
        ("cursor=-1", "/query/cursor"),
        ("cursor=1.5", "/query/cursor"),
        ("limit=0", "/query/limit"),
        ("limit=1001", "/query/limit"),
        ("limit=ten", "/query/limit"),
        ("limit=2&limit=3", "/query/limit"),
        ("page=2", "/query/page"),
    ];
    for (query, pointer) in bad {
        let reference = c.send(c.get_req(&format!("{hands}?{query}"))).await;
        assert_eq!(
            (reference.status, reference.content_type.as_str()),
            (400, "application/problem+json"),
            "{hands}?{query}: {}",
            reference.text
        );
        assert_eq!(reference.json["errors"][0]["pointer"], pointer);
        for path in &lists {
            let r = c.send(c.get_req(&format!("{path}?{query}"))).await;
            assert_eq!(
                (r.status, r.content_type.as_str(), &r.json),
                (400, "application/problem+json", &reference.json),
                "{path}?{query}"
            );
        }
    }
    for path in &lists {
        let first = c.get(&format!("{path}?cursor=&limit=1000")).await;
        assert_eq!(c.get(path).await, first, "{path}");
        assert!(
            first["items"].as_array().is_some_and(|i| !i.is_empty())
                || path.ends_with("amendments")
        );
    }
}

/// A sheet page is planned (its matches sized) before it is sent; a hand posted to one of its
/// matches in between waits for the next export, so the page sent is the page planned.
#[test]
fn a_sheet_page_holds_the_hands_its_plan_counted() {
    let dir = tempfile::tempdir().unwrap();
    let store = arbiter::league::Store::open(&dir.path().join("league.db")).unwrap();
    let (sheets, _) = common::malilla_sheets(1, 1);
    let (club, _, sessions, _) = common::malilla_league(&store, 1);
    store
        .write(|tx| arbiter::league::import(tx, club, sessions[0], sheets[0].as_bytes()))
        .unwrap();
    let page = store
        .read(|tx| arbiter::league::plan_sheet(tx, club, sessions[0], 0))
        .unwrap();
    assert_eq!(page.matches.len(), 1);
    let written = |page: &arbiter::league::SheetPage| -> String {
        let mut sheet = arbiter::league::sheet_header();
        for batch in page.batches(1) {
            sheet.extend(
                store
                    .read(|tx| arbiter::league::sheet_rows(tx, club, &batch))
                    .unwrap(),
            );
        }
        String::from_utf8(sheet).unwrap()
    };
    let before = written(&page);
    // The imported sheet's rows, now labelled with the match's id.
    let id = page.matches[0].id;
    assert_eq!(before.lines().count(), sheets[0].lines().count());
    assert!(
        before
            .lines()
            .skip(1)
            .all(|l| l.starts_with(&format!("{id},")))
    );

    // The match's second hand: a random legal hand dealt by the seat that deals next.
    let m = store
        .read(|tx| arbiter::league::get_match(tx, club, id))
        .unwrap();
    assert!(!m.state.game_over, "one hand does not reach 35");
    let dealer = m.state.next_dealer.unwrap();
    let second = (1..)
        .map(|seed| common::random::random_legal_hand("malilla", seed))
        .find(|h| h.dealer == dealer)
        .unwrap();
    store
        .write(|tx| arbiter::league::post_hand(tx, club, id, &second))
        .unwrap();
    assert_eq!(written(&page), before);
    // Planned again, the page holds it.
    let again = store
        .read(|tx| arbiter::league::plan_sheet(tx, club, sessions[0], 0))
        .unwrap();
    let after = written(&again);
    assert!(after.starts_with(&before) && after.len() > before.len());
    assert!(
        after
            .lines()
            .skip(before.lines().count())
            .all(|l| l.starts_with(&format!("{id},2,")))
    );
}

/// The server prepares an import on a read and publishes it in a short write. A write in between
/// that changes what the preparation read is seen when it is published: a hand the sheet repeats
/// is refused (409), a player renamed away is no longer found, and a match given another hand is
/// judged again (422), as if the import had been read after the write; nothing is stored twice or
/// half-stored.
#[test]
fn an_import_published_after_another_write_is_judged_as_the_store_stands() {
    use arbiter::league::{self, StoreError};
    let dir = tempfile::tempdir().unwrap();
    let store = league::Store::open(&dir.path().join("league.db")).unwrap();
    let (sheets, _) = common::malilla_sheets(1, 1);
    let sheet = sheets[0].clone();
    let (club, _, sessions, _) = common::malilla_league(&store, 3);
    let prepare = |session: i64, sheet: &str| {
        store
            .read_expensive(|tx| league::prepare_import(tx, club, session, sheet.as_bytes().into()))
            .unwrap()
    };
    let hands_stored = || -> i64 {
        store
            .read(|tx| tx.query_row("SELECT count(*) FROM hands", &[], |r| r.get(0)))
            .unwrap()
    };

    // The same sheet imported into the session in between: its hand is now a repeat.
    let prepared = prepare(sessions[0], &sheet);
    let report = store
        .write(|tx| league::import(tx, club, sessions[0], sheet.as_bytes()))
        .unwrap();
    match store.write(|tx| league::publish(tx, &prepared)) {
        Err(StoreError::Repeated(e)) => assert!(e[0].detail.contains("repeats"), "{e:?}"),
        other => panic!("expected the repeat refused, got {other:?}"),
    }
    assert_eq!(hands_stored(), 1);

    // The match continued by a sheet gets its second hand in between: the sheet's second hand is
    // judged again, against the match's two.
    let id = report.hands[0].match_id;
    let m = store.read(|tx| league::get_match(tx, club, id)).unwrap();
    let dealer = m.state.next_dealer.unwrap();
    let mut seconds = (1..)
        .map(|seed| common::random::random_legal_hand("malilla", seed))
        .filter(|h| h.dealer == dealer);
    let second = seconds.next().unwrap();
    let other = seconds.find(|h| h.deal != second.deal).unwrap();
    let mut continued = "match,hand,dealer,seat,action,value\n".to_string();
    for row in common::sheet_rows(&id.to_string(), 2, &serde_json::to_value(&other).unwrap()) {
        continued += &format!("{row}\n");
    }
    let prepared = prepare(sessions[0], &continued);
    store
        .write(|tx| league::post_hand(tx, club, id, &second))
        .unwrap();
    match store.write(|tx| league::publish(tx, &prepared)) {
        Err(StoreError::Invalid(e)) => assert!(
            e[0].detail.contains(&format!(
                "match {id} has 2 hand(s) stored: the next is hand 3"
            )),
            "{e:?}"
        ),
        other => panic!("expected the hand judged again, got {other:?}"),
    }
    assert_eq!(hands_stored(), 2);

    // A player the sheet seats is renamed in between: the name no longer finds him.
    let sit = sheet.lines().nth(1).unwrap();
    let name = sit.rsplit(',').next().unwrap();
    let player = store
        .read(|tx| league::player_named(tx, club, name))
        .unwrap()
        .unwrap();
    let prepared = prepare(sessions[1], &sheet);
    store
        .write(|tx| {
            league::rename_player(tx, club, player, "Someone Else", &league::Actor::Operator)
        })
        .unwrap();
    match store.write(|tx| league::publish(tx, &prepared)) {
        Err(StoreError::Invalid(e)) => assert!(
            e[0].detail.contains(&format!("no player named '{name}'")),
            "{e:?}"
        ),
        other => panic!("expected the name not found, got {other:?}"),
    }
    assert_eq!(hands_stored(), 2);

    // Nothing in between: published as prepared.
    let prepared = prepare(sessions[2], &sheets[0].replace(name, "Someone Else"));
    let report = store.write(|tx| league::publish(tx, &prepared)).unwrap();
    assert_eq!(report.hands.len(), 1);
    assert_eq!(hands_stored(), 3);
}

/// An import stores its matches' states once each and folds the ratings once, from the earliest
/// finish it stored: the standings (ratings included) are those of the same matches imported one
/// at a time, each folded as it finished. The whole sheet's rows are written with SQLite's
/// triggers off, each small sheet's with them on.
#[test]
fn one_import_of_many_matches_stands_as_those_matches_one_by_one() {
    let standings_of = |sheets: &[String]| {
        let dir = tempfile::tempdir().unwrap();
        let store = arbiter::league::Store::open(&dir.path().join("league.db")).unwrap();
        // A session each: a sheet's hands repeat hands of other matches, which a session refuses.
        let (club, league, sessions, _) = common::malilla_league(&store, sheets.len());
        for (sheet, session) in sheets.iter().zip(sessions) {
            store
                .write(|tx| arbiter::league::import(tx, club, session, sheet.as_bytes()))
                .unwrap();
        }
        let s = store
            .read(|tx| arbiter::league::standings(tx, club, league))
            .unwrap();
        serde_json::to_value(s).unwrap()
    };
    let (whole, matches) = common::malilla_sheets(300, 300);
    let (one_by_one, _) = common::malilla_sheets(300, 1);
    assert_eq!((whole.len(), one_by_one.len()), (1, matches));
    let together = standings_of(&whole);
    assert!(
        together["players"][0]["rating"]["rating"].is_number(),
        "{together}"
    );
    assert_eq!(together, standings_of(&one_by_one));
}

/// The play digest, written straight into the hash, is the digest of the text serde_json's `Value`
/// writes (keys in byte order), which every stored digest was made of: a sheet repeating a hand
/// stored before the change is still recognised. Over every fixture's record and random legal
/// hands of every game (their deals, stocks, shoes, cut cards, later deals and every verb's value).
#[test]
fn the_play_digest_is_that_of_the_sorted_json_text() {
    use sha2::Digest;
    let by_value = |r: &arbiter::record::HandRecord| -> Vec<u8> {
        let mut played = json!([r.dealer, r.deal, r.face_up, r.stock, r.actions]);
        let array = played.as_array_mut().unwrap();
        if !r.shoe.is_empty() || r.cut_card.is_some() || !r.deals.is_empty() {
            array.push(json!([r.shoe, r.cut_card, r.deals]));
        }
        if !r.second_stock.is_empty() {
            array.push(json!({"second_stock": r.second_stock}));
        }
        sha2::Sha256::digest(played.to_string().as_bytes()).to_vec()
    };
    let mut records: Vec<arbiter::record::HandRecord> = common::fixtures()
        .iter()
        .filter_map(|(_, path)| {
            let fixture: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            serde_json::from_value(fixture["record"].clone()).ok()
        })
        .collect();
    assert!(records.len() > 500, "{} fixture records", records.len());
    for game in arbiter::games::all() {
        for seed in 1..=5 {
            records.extend(common::random::random_hand(*game, seed));
        }
    }
    // No game deals a hand several times yet: later deals, as a record may carry them.
    let dealt_again: Vec<_> = records[..40]
        .iter()
        .map(|r| arbiter::record::HandRecord {
            deals: vec![r.deal.clone(), r.deal.clone()],
            ..r.clone()
        })
        .collect();
    records.extend(dealt_again);
    let fields =
        |f: fn(&arbiter::record::HandRecord) -> bool| records.iter().filter(|r| f(r)).count();
    // Each optional part is met, so each branch of the digest is compared.
    assert!(fields(|r| !r.shoe.is_empty()) > 0 && fields(|r| r.cut_card.is_some()) > 0);
    assert!(fields(|r| !r.deals.is_empty()) > 0 && fields(|r| !r.second_stock.is_empty()) > 0);
    assert!(fields(|r| r.actions.iter().any(|a| a.kind.verb.as_str() > "seat")) > 0);
    for r in &records {
        assert_eq!(arbiter::league::play_digest(r), by_value(r), "{r:?}");
    }
}

/// A spreadsheet may pad its cells with spaces: a sheet whose every cell (the header's too) is
/// padded imports as the same hands as the sheet without, so the unpadded one, posted after, is
/// refused as repeating them.
#[actix_web::test]
async fn padded_cells_read_as_the_same_sheet() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let (_, key) = new_club(&app, "Casa").await;
    let c = Client { app, key };
    let s = set_up(&c).await;
    let sheet = two_hand_sheet();
    let padded: String = sheet
        .lines()
        .map(|l| {
            let cells: Vec<String> = l.split(',').map(|c| format!(" {c}\t ")).collect();
            cells.join(",") + "\n"
        })
        .collect();
    let r = c.import(s.evening1, &padded).await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        r.json["hands"].as_array().map(Vec::len),
        Some(2),
        "{}",
        r.text
    );
    let r = c.import(s.evening1, &sheet).await;
    assert_eq!(r.status, 409, "{}", r.text);
}

/// A replica is ready while its store answers on the schema its binary migrates to. A database
/// another arbiter has migrated further takes it out of service, with a problem that says why,
/// until the schema is its own again. Liveness (`/health`) does not ask the store.
#[actix_web::test]
async fn readiness_asks_the_store_on_its_own_schema() {
    if common::skipped_on_postgres("moves the SQLite file's schema version") {
        return;
    }
    let (state, db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let ready = || async {
        let resp = http::call_service(
            &app,
            http::TestRequest::get().uri("/health/ready").to_request(),
        )
        .await;
        let status = resp.status().as_u16();
        let kind = resp
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let body: Value = http::read_body_json(resp).await;
        (status, kind, body)
    };
    let (status, _, body) = ready().await;
    assert_eq!((status, &body["status"]), (200, &json!("ready")), "{body}");
    let schema = body["schema"].as_u64().expect("the schema's version");
    assert!(schema > 0, "{body}");

    let file = rusqlite::Connection::open(db.path().join("league.db")).unwrap();
    file.pragma_update(None, "user_version", schema as i64 + 1)
        .unwrap();
    let (status, kind, body) = ready().await;
    assert_eq!(
        (status, kind.as_str()),
        (503, "application/problem+json"),
        "{body}"
    );
    assert_eq!(
        body["type"], "urn:arbiter:problem:store-unavailable",
        "{body}"
    );
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains(&format!(
            "at version {}, and this arbiter's is {schema}",
            schema + 1
        )),
        "{detail}"
    );
    let health = http::call_service(&app, http::TestRequest::get().uri("/health").to_request());
    assert_eq!(health.await.status().as_u16(), 200);

    file.pragma_update(None, "user_version", schema as i64)
        .unwrap();
    assert_eq!(ready().await.0, 200);
}

/// Replicas starting at the same moment on a new database all open it: one migrates it, and the
/// others wait their turn and find it up to date (on SQLite, none is refused a stale snapshot; on
/// PostgreSQL, the migration's lock). Several rounds, so that the starts really overlap.
#[test]
fn replicas_opening_a_new_database_at_once_all_find_it_migrated() {
    const ROUNDS: usize = 8;
    const REPLICAS: usize = 4;
    for round in 0..ROUNDS {
        let dir = tempfile::tempdir().unwrap();
        let db = common::database_in(dir.path());
        let start = std::sync::Barrier::new(REPLICAS);
        std::thread::scope(|scope| {
            let opened: Vec<_> = (0..REPLICAS)
                .map(|_| {
                    scope.spawn(|| {
                        start.wait();
                        arbiter::league::Store::connect(&db)
                    })
                })
                .collect();
            for (replica, store) in opened.into_iter().enumerate() {
                let store = store.join().unwrap();
                let store =
                    store.unwrap_or_else(|e| panic!("round {round}, replica {replica}: {e:?}"));
                assert!(store.ready().is_ok(), "round {round}, replica {replica}");
            }
        });
    }
}

/// What every read of club 1 answers, by URI, as text: the club, each list, each league with its
/// sessions, standings and hands, each session with its matches, hands and sheet, each match, each
/// hand with its audit trail. (The keys' list is left out: reading it is a use of the key, which
/// moves its `last_used_at`.)
async fn everything_club_1_reads<S, B>(c: &Client<S>) -> std::collections::BTreeMap<String, String>
where
    S: Service<Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut read = std::collections::BTreeMap::new();
    let mut pending = vec!["/v1/clubs/1".to_string()];
    for list in ["players", "partnerships", "leagues", "amendments"] {
        pending.push(format!("/v1/clubs/1/{list}?limit=1000"));
    }
    while let Some(uri) = pending.pop() {
        let r = c.send(c.get_req(&uri)).await;
        assert_eq!(r.status, 200, "GET {uri}: {}", r.text);
        let ids = |field: &str| -> Vec<i64> {
            r.json[field]
                .as_array()
                .map(|items| items.iter().filter_map(|i| i["id"].as_i64()).collect())
                .unwrap_or_default()
        };
        let path = uri.split('?').next().unwrap();
        let parts: Vec<&str> = path.split('/').collect();
        match parts[3..] {
            ["1", "leagues"] => {
                for l in ids("items") {
                    for read in [
                        "",
                        "/sessions?limit=1000",
                        "/standings",
                        "/hands?limit=1000",
                    ] {
                        pending.push(format!("/v1/clubs/1/leagues/{l}{read}"));
                    }
                }
            }
            ["1", "leagues", _, "sessions"] => {
                for s in ids("items") {
                    for read in ["", "/matches?limit=1000", "/hands?limit=1000", "/sheet"] {
                        pending.push(format!("/v1/clubs/1/sessions/{s}{read}"));
                    }
                }
            }
            ["1", "sessions", _, "matches"] => {
                for m in ids("items") {
                    pending.push(format!("/v1/clubs/1/matches/{m}"));
                    pending.push(format!("/v1/clubs/1/matches/{m}/hands?limit=1000"));
                }
            }
            ["1", "matches", _, "hands"] => {
                for h in ids("items") {
                    pending.push(format!("/v1/clubs/1/hands/{h}"));
                    pending.push(format!("/v1/clubs/1/hands/{h}/amendments?limit=1000"));
                }
            }
            _ => {}
        }
        read.insert(uri, r.text);
    }
    read
}

/// A club's SQLite league copied into PostgreSQL by `arbiter copy` reads the same through every
/// endpoint, ids, standings, ratings and audit trail included; and it goes on: the next player
/// gets the next id, the next hand is the match's next. A second copy into the same database is
/// refused and changes nothing. PostgreSQL only (it needs a server to copy into).
#[actix_web::test]
async fn a_league_copied_into_postgresql_reads_the_same_and_goes_on() {
    let Some(_) = common::postgres_server() else {
        eprintln!("skipped: needs a PostgreSQL server (ARBITER_TEST_POSTGRES)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.db");
    let app_on = |store| {
        let state = LeagueState::new(store, Some("operator-token".into()));
        http::init_service(arbiter::api::app(state))
    };

    // The club's history on SQLite: pairs and players, three leagues, hands posted, a sheet
    // imported, a three-player match finished and rated, a hand amended and another voided, an
    // idempotent post.
    let sqlite = {
        let store = arbiter::league::Store::open(&file).unwrap();
        let app = app_on(store).await;
        let (_, key) = new_club(&app, "Casa").await;
        let c = Client { app, key };
        let s = set_up(&c).await;
        let p = &s.players;
        let seating = json!({"N": p["Ana"], "E": p["Ben"], "S": p["Cai"], "W": p["Dee"]});
        for hands in &MALILLA_MATCHES[..3] {
            play_match(&c, s.evening1, seating.clone(), "malilla", hands).await;
        }
        assert_eq!(c.import(s.evening2, &two_hand_sheet()).await.status, 201);
        let seating = json!({"N": p["Dee"], "E": p["Eve"], "S": p["Fay"], "W": p["Ana"]});
        let m = play_match(&c, s.evening3, seating, "stubs-and-spoils", &["02", "01"]).await;
        let hands = c.get(&format!("/v1/clubs/1/matches/{m}/hands")).await["items"].clone();
        let amended = c
            .post(
                &format!("/v1/clubs/1/hands/{}/amend", hands[1]["id"]),
                &json!({"record": fixture("stubs-and-spoils", "01"), "note": "checked"}),
            )
            .await;
        assert_eq!(amended.status, 200, "{}", amended.text);
        let (_, session) = c.briscola_for_three().await;
        let three = json!({"P1": p["Ana"], "P2": p["Ben"], "P3": p["Cai"]});
        let played = fixture("briscola", "03");
        let m = c
            .create(
                "/v1/clubs/1/matches",
                json!({"session": session, "seats": three}),
            )
            .await;
        for record in [rotated(&played, 2), played.clone(), rotated(&played, 1)] {
            let r = c.post_hand(m, &record).await;
            assert_eq!(r.status, 201, "{}", r.text);
        }
        let voided = c
            .send(
                c.post_req(&format!("/v1/clubs/1/hands/{}/void", hands[0]["id"]))
                    .set_json(json!({"note": "misdeal"})),
            )
            .await;
        assert_eq!(voided.status, 200, "{}", voided.text);
        let kept = c
            .send(
                c.post_req("/v1/clubs/1/players")
                    .insert_header(("idempotency-key", "gil-once"))
                    .set_json(json!({"name": "Gil"})),
            )
            .await;
        assert_eq!(kept.status, 201, "{}", kept.text);
        (c.key.clone(), everything_club_1_reads(&c).await)
    };
    let (key, before) = sqlite;
    assert!(before.len() > 40, "{} reads", before.len());

    let federation = tempfile::tempdir().unwrap();
    let target = common::database_in(federation.path());
    let copy = |from: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["copy", "--from"])
            .arg(from)
            .args(["--to", &target])
            .output()
            .unwrap()
    };
    let out = copy(&file);
    let printed = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(printed.contains("hands: "), "{printed}");

    let app = app_on(arbiter::league::Store::connect(&target).unwrap()).await;
    let c = Client { app, key };
    let after = everything_club_1_reads(&c).await;
    assert_eq!(after.len(), before.len());
    for (uri, text) in &before {
        assert_eq!(&after[uri], text, "GET {uri} after the copy");
    }
    // The idempotent answer came too: the same request replays it.
    let replayed = c
        .send(
            c.post_req("/v1/clubs/1/players")
                .insert_header(("idempotency-key", "gil-once"))
                .set_json(json!({"name": "Gil"})),
        )
        .await;
    assert!(replayed.replayed, "{}", replayed.text);
    // It goes on: a new player has the id after the last copied (7 players), and a new match's
    // first hand is its hand 1, with an id after every copied hand's.
    assert_eq!(
        c.create("/v1/clubs/1/players", json!({"name": "Hal"}))
            .await,
        8
    );
    let seating = json!({"N": 1, "E": 2, "S": 3, "W": 4});
    let sessions = c.get("/v1/clubs/1/leagues/1/sessions?limit=1000").await;
    let evening = sessions["items"][0]["id"].as_i64().unwrap();
    let m = play_match(&c, evening, seating, "malilla", &["01"]).await;
    let hand = &c.get(&format!("/v1/clubs/1/matches/{m}/hands")).await["items"][0];
    assert_eq!(hand["number"], 1, "{hand}");
    let last_copied: i64 = serde_json::from_str::<Value>(
        &before["/v1/clubs/1/leagues/1/hands?limit=1000"],
    )
    .unwrap()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_i64().unwrap())
        .max()
        .unwrap();
    assert!(hand["id"].as_i64().unwrap() > last_copied, "{hand}");

    // A file that is not there is not made and copied empty: refused.
    let missing = copy(&dir.path().join("typo.db"));
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no SQLite file"));
    assert!(!dir.path().join("typo.db").exists());

    // Copied again into the database that now holds the club: refused, and nothing changes.
    let standings = c.get("/v1/clubs/1/leagues/1/standings").await;
    let out = copy(&file);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("already holds 1 club"), "{said}");
    assert_eq!(c.get("/v1/clubs/1/leagues/1/standings").await, standings);
}
