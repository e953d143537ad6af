//! HTTP API: the routes, problem+json refusals with pointers for every kind of bad input, legal
//! actions, matches, Swagger UI, and the committed OpenAPI document.

mod common;

use actix_web::http::StatusCode;
use actix_web::test as http;
use serde_json::{Value, json};

fn deal() -> Value {
    json!({
        "N": ["7S", "AS", "KS", "QS", "JS", "6S", "5S", "4S", "3S", "2S"],
        "E": ["7H", "AH", "KH", "QH", "JH", "6H", "5H", "4H", "3H", "2H"],
        "S": ["7D", "AD", "KD", "QD", "JD", "6D", "5D", "4D", "3D", "2D"],
        "W": ["7C", "AC", "KC", "QC", "JC", "6C", "5C", "4C", "3C", "2C"]
    })
}

fn malilla(actions: Value) -> Value {
    json!({"game": "malilla", "dealer": "S", "deal": deal(), "face_up": ["2D"], "actions": actions})
}

async fn call(
    method: &str,
    uri: &str,
    body: Option<Vec<u8>>,
    content_type: Option<&str>,
) -> (StatusCode, String, Value) {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let mut req = match method {
        "GET" => http::TestRequest::get(),
        "POST" => http::TestRequest::post(),
        "PUT" => http::TestRequest::put(),
        _ => unreachable!(),
    }
    .uri(uri);
    if let Some(ct) = content_type {
        req = req.insert_header(("content-type", ct));
    }
    if let Some(b) = body {
        req = req.set_payload(b);
    }
    let resp = http::call_service(&app, req.to_request()).await;
    let status = resp.status();
    let ct = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = http::read_body(resp).await;
    (
        status,
        ct,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

async fn post(uri: &str, body: &Value) -> (StatusCode, String, Value) {
    call(
        "POST",
        uri,
        Some(serde_json::to_vec(body).unwrap()),
        Some("application/json"),
    )
    .await
}

/// Asserts a problem+json refusal with `status` and an error at `pointer` whose detail mentions `says`.
fn refused(got: (StatusCode, String, Value), status: u16, pointer: &str, says: &str) {
    let (s, ct, body) = got;
    assert_eq!(s.as_u16(), status, "{body}");
    assert_eq!(ct, "application/problem+json");
    assert_eq!(body["status"], status);
    assert!(
        body["type"].as_str().is_some() && body["title"].as_str().is_some(),
        "{body}"
    );
    let errors = body["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["pointer"] == pointer && e["detail"].as_str().unwrap().contains(says)),
        "no error at {pointer} saying '{says}': {body}"
    );
}

#[actix_web::test]
async fn lists_and_describes_games() {
    let (s, _, body) = call("GET", "/v1/games", None, None).await;
    assert_eq!(s, StatusCode::OK);
    let ids: Vec<_> = body
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let registry: Vec<_> = arbiter::games::all().iter().map(|g| g.info().id).collect();
    assert_eq!(ids, registry);
    // Every game with fixtures is served, and no other.
    let mut with_fixtures: Vec<String> = std::fs::read_dir("fixtures")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    with_fixtures.sort();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, with_fixtures);
    assert!(ids.contains(&"malilla".to_string()) && ids.contains(&"truco".to_string()));
    let (s, _, body) = call("GET", "/v1/games/stubs-and-spoils", None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(body["options"][0]["name"], "revoke_penalty");
    assert_eq!(body["options"][0]["default"], "default");
    assert_eq!(body["rules"], "docs/rules/stubs-and-spoils.md");
    let (s, _, body) = call("GET", "/health", None, None).await;
    assert_eq!((s, &body["status"]), (StatusCode::OK, &json!("ok")));
}

#[actix_web::test]
async fn unknown_game_and_path_are_404_problems() {
    let (s, ct, body) = post("/v1/games/snap/adjudications", &malilla(json!([]))).await;
    assert_eq!(
        (s, ct.as_str()),
        (StatusCode::NOT_FOUND, "application/problem+json")
    );
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("unknown game 'snap'")
    );
    let (s, ct, _) = call("GET", "/nowhere", None, None).await;
    assert_eq!(
        (s, ct.as_str()),
        (StatusCode::NOT_FOUND, "application/problem+json")
    );
    let (s, ct, _) = call("PUT", "/v1/games", None, None).await;
    assert_eq!(
        (s, ct.as_str()),
        (StatusCode::METHOD_NOT_ALLOWED, "application/problem+json")
    );
}

#[actix_web::test]
async fn malformed_card_is_named_by_pointer() {
    let mut r = malilla(json!([]));
    r["deal"]["E"][3] = json!("1X");
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/deal/E/3",
        "'1X' is not a card",
    );
    let r = malilla(json!([{"seat": "W", "play": "ZZ"}]));
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/actions/0/play",
        "'ZZ' is not a card",
    );
}

#[actix_web::test]
async fn a_body_not_in_utf8_is_refused_and_utf8_beyond_ascii_is_read() {
    let mut r = malilla(json!([]));
    r["players"] = json!({"N": "Zoë"});
    let (s, _, body) = post("/v1/games/malilla/adjudications", &r).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    // The same body with the name's ë written in Latin-1 (one byte, 0xEB): not UTF-8, so not
    // JSON (RFC 8259 §8.1); the refusal names the string that holds the byte.
    let text = serde_json::to_vec(&r).unwrap();
    let at = text.windows(2).position(|w| w == "ë".as_bytes()).unwrap();
    let latin1 = [&text[..at], &[0xEB], &text[at + 2..]].concat();
    refused(
        call(
            "POST",
            "/v1/games/malilla/adjudications",
            Some(latin1),
            Some("application/json"),
        )
        .await,
        400,
        "/players/N",
        "unicode",
    );
}

#[actix_web::test]
async fn deal_problems_are_refused_with_pointers() {
    let mut r = malilla(json!([]));
    r["deal"]["E"][4] = json!("AS");
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/deal/E/4",
        "dealt twice",
    );
    let mut r = malilla(json!([]));
    r["deal"]["N"][0] = json!("TS");
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/deal/N/0",
        "not in the 40-card pack",
    );
    let mut r = malilla(json!([]));
    r["deal"]["N"].as_array_mut().unwrap().pop();
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/deal",
        "missing: 2S",
    );
    let mut r = malilla(json!([]));
    r["face_up"] = json!(["2S"]);
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/face_up/0",
        "dealer",
    );
}

#[actix_web::test]
async fn a_wrong_number_of_cards_is_refused_in_stubs_and_spoils() {
    let mut deal = serde_json::Map::new();
    let ranks = [
        "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2",
    ];
    for (seat, suit) in [("N", "S"), ("E", "H"), ("S", "D"), ("W", "C")] {
        deal.insert(
            seat.into(),
            json!(
                ranks
                    .iter()
                    .map(|r| format!("{r}{suit}"))
                    .collect::<Vec<_>>()
            ),
        );
    }
    let mut r = json!({"dealer": "S", "deal": deal, "face_up": ["2D"]});
    let card = r["deal"]["N"].as_array_mut().unwrap().pop().unwrap();
    r["deal"]["E"].as_array_mut().unwrap().push(card);
    refused(
        post("/v1/games/stubs-and-spoils/adjudications", &r).await,
        422,
        "/deal/N",
        "expected 13",
    );
}

#[actix_web::test]
async fn seats_verbs_fields_and_options_are_checked() {
    let r = malilla(json!([{"seat": "X", "play": "7C"}]));
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/actions/0/seat",
        "'X' is not a seat",
    );
    let r = malilla(json!([{"seat": "P5", "play": "7C"}]));
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/actions/0/seat",
        "no seat P5",
    );
    let r = malilla(json!([{"seat": "W", "spoil": "7C"}]));
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/actions/0/spoil",
        "not an action in Malilla",
    );
    let mut r = malilla(json!([]));
    r["dealr"] = json!("S");
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/dealr",
        "unknown field `dealr`",
    );
    let mut r = malilla(json!([]));
    r["options"] = json!({"allow_correction_before_trick_end": "yes"});
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/options/allow_correction_before_trick_end",
        "true or false",
    );
    let mut r = malilla(json!([]));
    r["match_state"] = json!({"scores": {"NS": i32::MIN}});
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/match_state/scores/NS",
        "limited",
    );
    let mut r = malilla(json!([]));
    r["game"] = json!("stubs-and-spoils");
    refused(
        post("/v1/games/malilla/adjudications", &r).await,
        422,
        "/game",
        "sent to 'malilla'",
    );
}

/// BT-f: a `count_query` naming no seat of any table (tables stop at P7, README C15) is a malformed
/// value, refused at its pointer; a seat of another table size is replayed as `unexpected_action`
/// (fixture big-two/31).
#[actix_web::test]
async fn big_two_count_query_naming_no_seat_of_any_table_is_refused_at_its_pointer() {
    let fixture: Value = serde_json::from_str(include_str!(
        "../fixtures/big-two/31-record-error-count-query-seat-of-another-table-size.json"
    ))
    .unwrap();
    let mut r = fixture["record"].clone();
    r["actions"][0]["count_query"]["asked"] = json!("P9");
    refused(
        post("/v1/games/big-two/adjudications", &r).await,
        422,
        "/actions/0/count_query/asked",
        "'P9' is not a seat",
    );
    r["actions"][0]["count_query"]["asked"] = json!("P5");
    let (s, _, body) = post("/v1/games/big-two/adjudications", &r).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["record_error"]["code"], "unexpected_action", "{body}");
}

/// Zetema's discard is a card or `{"card", "pile"}` (ZE-d): anything else is a malformed value,
/// refused at its pointer with what was expected; a named pile that is not the card's is replayed
/// as the record error `wrong_pile` (fixture zetema/14).
#[actix_web::test]
async fn zetema_discard_of_another_shape_is_refused_at_its_pointer() {
    let fixture: Value = serde_json::from_str(include_str!(
        "../fixtures/zetema/14-record-error-wrong-pile.json"
    ))
    .unwrap();
    let mut r = fixture["record"].clone();
    r["actions"][0]["discard"] = json!(7);
    refused(
        post("/v1/games/zetema/adjudications", &r).await,
        422,
        "/actions/0/discard",
        "a card (\"7H\") or {\"card\": \"7H\", \"pile\": \"7\"}",
    );
    r["actions"][0]["discard"] = json!({"card": "6C", "heap": "6"});
    let (s, _, body) = post("/v1/games/zetema/adjudications", &r).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    r["actions"][0]["discard"] = json!({"card": "6C", "pile": "6"});
    let (s, _, body) = post("/v1/games/zetema/adjudications", &r).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["record_error"]["code"], "wrong_pile", "{body}");
}

#[actix_web::test]
async fn empty_truncated_huge_and_non_json_bodies_are_refused() {
    let (s, ct, body) = call(
        "POST",
        "/v1/games/malilla/adjudications",
        Some(vec![]),
        Some("application/json"),
    )
    .await;
    assert_eq!(
        (s, ct.as_str()),
        (StatusCode::BAD_REQUEST, "application/problem+json")
    );
    assert!(body["detail"].as_str().unwrap().contains("empty"));
    let text = serde_json::to_string(&malilla(json!([]))).unwrap();
    let truncated = text.as_bytes()[..text.len() / 2].to_vec();
    let (s, _, body) = call(
        "POST",
        "/v1/games/malilla/adjudications",
        Some(truncated),
        Some("application/json"),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("not valid JSON"));
    let huge = vec![b' '; 10 * 1024 * 1024];
    let (s, ct, _) = call(
        "POST",
        "/v1/games/malilla/adjudications",
        Some(huge),
        Some("application/json"),
    )
    .await;
    assert_eq!(
        (s, ct.as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, "application/problem+json")
    );
    let (s, _, _) = call(
        "POST",
        "/v1/games/malilla/adjudications",
        Some(b"<xml/>".to_vec()),
        Some("text/xml"),
    )
    .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[actix_web::test]
async fn legal_actions_follow_the_rules_of_the_position() {
    // W leads 7C; N is void in clubs and holds only spades, no trumps (diamonds): every spade but
    // the 7 (a suit not yet led) is legal.
    let (s, _, body) = post(
        "/v1/games/malilla/legal-actions",
        &malilla(json!([{"seat": "W", "play": "7C"}])),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["to_act"], json!(["N"]));
    assert_eq!(body["trump"], "D");
    assert_eq!(body["trick"], json!([{"seat": "W", "card": "7C"}]));
    let legal: Vec<_> = body["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["play"].as_str().unwrap())
        .collect();
    assert_eq!(legal.len(), 9);
    assert!(!legal.contains(&"7S"));
    // A partial record with a record error is not a position.
    let r = malilla(json!([{"seat": "N", "play": "7S"}]));
    refused(
        post("/v1/games/malilla/legal-actions", &r).await,
        422,
        "/actions/0/play",
        "out_of_turn",
    );
}

#[actix_web::test]
async fn matches_fold_the_state_and_stop_at_the_end_of_the_game() {
    // Hand 1: N–S foul at once (N's forbidden seven), so E–W win the game; a second hand is refused.
    let lost = malilla(json!([{"seat": "W", "play": "7C"}, {"seat": "N", "play": "7S"}]));
    let (s, _, body) = post("/v1/games/malilla/matches", &json!({"hands": [lost]})).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["final"]["winners"], json!(["EW"]));
    assert_eq!(body["hands"][0]["outcome"], "game_lost");
    let mut second = malilla(json!([]));
    second["dealer"] = json!("W");
    let (s, _, body) = post(
        "/v1/games/malilla/matches",
        &json!({"hands": [lost, second]}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"][0]["pointer"], "/hands/1");
    // After a misdeal (N dealt 9, E 11) the deal passes left: S may not deal again.
    let mut misdeal = malilla(json!([]));
    let card = misdeal["deal"]["N"].as_array_mut().unwrap().pop().unwrap();
    misdeal["deal"]["E"].as_array_mut().unwrap().push(card);
    let (s, _, body) = post(
        "/v1/games/malilla/matches",
        &json!({"hands": [misdeal.clone()]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{body}");
    assert_eq!(body["hands"][0]["outcome"], "misdeal");
    assert_eq!(body["final"]["next_dealer"], "W");
    let (s, _, body) = post(
        "/v1/games/malilla/matches",
        &json!({"hands": [misdeal.clone(), misdeal]}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"][0]["pointer"], "/hands/1/dealer");
}

#[actix_web::test]
async fn swagger_ui_and_the_spec_are_served() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let resp = http::call_service(
        &app,
        http::TestRequest::get().uri("/swagger-ui/").to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let html = String::from_utf8(http::read_body(resp).await.to_vec()).unwrap();
    assert!(html.contains("swagger"), "{html}");
    // The UI is given the document's URL (without it, it says "No API definition provided").
    let resp = http::call_service(
        &app,
        http::TestRequest::get()
            .uri("/swagger-ui/swagger-initializer.js")
            .to_request(),
    )
    .await;
    let init = String::from_utf8(http::read_body(resp).await.to_vec()).unwrap();
    assert!(init.contains("/api-docs/openapi.json"), "{init}");
    let resp = http::call_service(
        &app,
        http::TestRequest::get()
            .uri("/api-docs/openapi.json")
            .to_request(),
    )
    .await;
    assert_eq!(resp.status(), StatusCode::OK);
    let spec: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
    assert_eq!(spec["openapi"], "3.1.0");
    assert!(spec["paths"]["/v1/games/{game}/adjudications"]["post"].is_object());
    // OpenAPI 3.1 requires a description on every response (.ci/clients.sh validates the rest).
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, response) in op["responses"].as_object().unwrap() {
                assert!(
                    response["description"].is_string(),
                    "{method} {path} {status}: no description"
                );
            }
        }
    }
}

#[test]
fn committed_openapi_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = arbiter::api::openapi_json();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    assert!(
        committed == generated,
        "openapi/openapi.json differs from the code: run `UPDATE_OPENAPI=1 cargo test --test api committed_openapi` and commit it"
    );
}

/// A fixture's record cut after its first `actions` actions.
fn fixture_cut(path: &str, actions: usize) -> Value {
    let text =
        std::fs::read_to_string(format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut record = serde_json::from_str::<Value>(&text).unwrap()["record"].take();
    record["actions"].as_array_mut().unwrap().truncate(actions);
    record
}

/// The legal-actions view of `record`, with every seat's hand as a sorted list of cards (the
/// order is the engine's; what is held is the point). `hand` must be the first seat to act's.
async fn hands_at(game: &str, record: &Value) -> Vec<(String, Vec<String>)> {
    let (s, _, body) = post(&format!("/v1/games/{game}/legal-actions"), record).await;
    assert_eq!(s, StatusCode::OK, "{body}");
    let hands = body["hands"].as_object().expect("hands by seat");
    if let Some(first) = body["to_act"][0].as_str() {
        assert_eq!(
            body["hand"], hands[first],
            "hand is the first seat to act's"
        );
    }
    hands
        .iter()
        .map(|(seat, cards)| {
            let mut cards: Vec<String> = serde_json::from_value(cards.clone()).unwrap();
            assert_eq!(body["hand_sizes"][seat], json!(cards.len()), "{seat}");
            cards.sort();
            (seat.clone(), cards)
        })
        .collect()
}

fn held(seats: &[(&str, &str)]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<_> = seats
        .iter()
        .map(|(seat, cards)| {
            let mut cards: Vec<String> = cards.split_whitespace().map(String::from).collect();
            cards.sort();
            (seat.to_string(), cards)
        })
        .collect();
    out.sort();
    out
}

/// Issue 13: the view shows every seat's cards, cards moved between hands included. Stubs &
/// Spoils fixture 01 (dealer S, Color Card 7S, not part of S's hand: SS-1). Gallery W 4C, N 2S,
/// E 3S; T1 S AS, W 4S, N 3D, E 8D, S keeps AS as stub and takes W's 4S as spoil.
#[actix_web::test]
async fn legal_actions_show_every_hand_after_a_spoil() {
    let record = fixture_cut("stubs-and-spoils/01-black-12-tricks.json", 8);
    assert_eq!(record["actions"][7], json!({"seat": "S", "spoil": "4S"}));
    assert_eq!(
        hands_at("stubs-and-spoils", &record).await,
        held(&[
            ("N", "AH KH QH JH TH 9H 8H 4D 5C 6C 7C"),
            ("E", "AD KD QD JD TD 9D 2H 3H 8C 9C TC"),
            ("S", "KS QS JS TS 9S 8S 4H 5H 2D 2C 3C 4S"),
            ("W", "6S 5S 7H 6H 5D 6D 7D JC QC KC AC"),
        ])
    );
    // After the last spoil (T12, S takes 6D) E holds nothing and the hand is over. S dealt 12
    // playing cards, played all 12 (AS KS 2C 4H 5H 3C 8S, the 4H he took in T7, 2D 9S QS JS) and
    // took six spoils (4S 9D 4H TD 8H 6D): he holds TS and the five spoils not played again.
    let record = fixture_cut("stubs-and-spoils/01-black-12-tricks.json", usize::MAX);
    let hands = hands_at("stubs-and-spoils", &record).await;
    let of = |seat: &str| hands.iter().find(|(s, _)| s == seat).unwrap().clone();
    assert_eq!(of("S"), held(&[("S", "TS 4S 9D TD 8H 6D")])[0]);
    assert_eq!(of("E"), held(&[("E", "")])[0]);
}

/// Issue 13: Briscola fixture 24 (two players; stock QH QS ...). T1 P1 AH, P2 AS -> P1 wins and
/// the record states the draws: after P1 draws QH, P2 has not drawn QS yet; after P2's draw both
/// hold three cards again. Fixture 02 (the same deal) states no draws: they are taken from the
/// stock at once when the trick is complete.
#[actix_web::test]
async fn legal_actions_show_every_hand_after_a_draw() {
    let path = "briscola/24-explicit-draws-checked-against-the-stock.json";
    assert_eq!(
        hands_at("briscola", &fixture_cut(path, 3)).await,
        held(&[("P1", "3H KH QH"), ("P2", "3S KS")])
    );
    let drawn = held(&[("P1", "3H KH QH"), ("P2", "3S KS QS")]);
    assert_eq!(hands_at("briscola", &fixture_cut(path, 4)).await, drawn);
    let record = fixture_cut("briscola/02-two-players-hand.json", 2);
    assert_eq!(hands_at("briscola", &record).await, drawn);
}

/// Court Piece §1: trump is named after only the first packet of five is dealt, so each seat holds
/// the first five cards listed for it (fixture 01, dealer W, N the trump maker); once trump is
/// named, all thirteen.
#[actix_web::test]
async fn legal_actions_show_only_the_first_packets_before_trump() {
    let path = "court-piece/01-normal-hand-no-court-same-dealer.json";
    assert_eq!(
        hands_at("court-piece", &fixture_cut(path, 0)).await,
        held(&[
            ("N", "AS 7S 4S 2S KH"),
            ("E", "KS TS 3S QH 9H"),
            ("S", "QS 9S 6S JH 8H"),
            ("W", "JS 8S 5S AH 7H"),
        ])
    );
    let after_trump = hands_at("court-piece", &fixture_cut(path, 1)).await;
    assert!(after_trump.iter().all(|(_, cards)| cards.len() == 13));
}

/// Each game's own schemas have names of their own: two games' `Details` would overwrite each
/// other in the OpenAPI document (only the shared `NoDetails` may repeat).
#[test]
fn game_schema_names_are_unique() {
    let mut seen = std::collections::BTreeMap::new();
    for game in arbiter::games::all() {
        let own = game.schemas();
        for name in [own.details.0, own.carried.0] {
            if name == "NoDetails" {
                continue;
            }
            if let Some(other) = seen.insert(name.clone(), game.info().id) {
                panic!("{name} is both {other}'s and {}'s", game.info().id);
            }
        }
    }
}

/// A generator names a class after each action variant's title (openapi-python-client:
/// "Tong-Its draw" becomes `TongItsDraw`); a title whose class name is already a schema's makes
/// the generator drop the game's whole `<Game>Action` union (seen with seven games' verb values).
#[test]
fn action_variant_titles_name_no_schema() {
    let doc: serde_json::Value = serde_json::from_str(&arbiter::api::openapi_json()).unwrap();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let class = |title: &str| -> String {
        title
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect()
    };
    let mut titles = 0;
    for (name, schema) in schemas {
        for variant in schema["oneOf"].as_array().into_iter().flatten() {
            if let Some(title) = variant["title"].as_str() {
                titles += 1;
                let class = class(title);
                assert!(
                    !schemas.contains_key(&class),
                    "{name}: the variant {title:?} is named like the schema {class}"
                );
            }
        }
    }
    assert!(titles > 100, "{titles} titled variants");
}
