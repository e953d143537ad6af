//! Fixture conformance: every `fixtures/<game>/*.json` (record, hand-derived expectation, why) is run
//! through the engine and through HTTP, and must match its expectation.

mod common;

use actix_web::test as http;
use arbiter::api::problem::parse_json;
use arbiter::record::HandRecord;
use serde_json::Value;

fn load(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        v["why"].as_str().is_some_and(|w| w.len() > 20),
        "{}: every fixture says why",
        path.display()
    );
    assert!(v["expected"].is_object(), "{}: expected", path.display());
    v
}

/// What the engine answers for a record: (HTTP status, body).
fn engine_answer(game: &str, record: &Value) -> (u16, Value) {
    let game = arbiter::games::find(game).expect("fixture folder names a game");
    let bytes = serde_json::to_vec(record).unwrap();
    match parse_json::<HandRecord>(&bytes) {
        Err(p) => (p.status, serde_json::to_value(&p).unwrap()),
        Ok(r) => match arbiter::engine::adjudicate(game, &r) {
            Ok(a) => (200, serde_json::to_value(&a).unwrap()),
            Err(e) => {
                let p = arbiter::api::problem::Problem::invalid(e);
                (p.status, serde_json::to_value(&p).unwrap())
            }
        },
    }
}

/// `Ok` when the answer has the expected status and contains the expectation.
fn verdict(f: &Value, status: u16, body: &Value) -> Result<(), String> {
    let expected = f["expected_status"].as_u64().unwrap_or(200) as u16;
    if status != expected {
        return Err(format!("status {status}, expected {expected}: {body}"));
    }
    common::subset(&f["expected"], Some(body), "")
}

#[test]
fn every_game_has_its_fixtures() {
    let all = common::fixtures();
    for game in arbiter::games::all() {
        let n = all.iter().filter(|(g, _)| g == game.info().id).count();
        assert!(
            n >= 12,
            "{} has {n} fixtures; at least 12 are required",
            game.info().id
        );
    }
    for (g, p) in &all {
        assert!(
            arbiter::games::find(g).is_some(),
            "{}: folder is not a game",
            p.display()
        );
    }
}

#[test]
fn fixtures_match_through_the_engine() {
    let mut failures = Vec::new();
    for (game, path) in common::fixtures() {
        let f = load(&path);
        let (status, body) = engine_answer(&game, &f["record"]);
        if let Err(e) = verdict(&f, status, &body) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixtures differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The API reads a well-formed record straight into its game's verbs (`Game::read_json`) and any
/// other through the game-agnostic record, which names what is wrong: over every fixture, and
/// each spoilt in ways only one game's verbs, a card or a bound can tell, the two readings take
/// the same records and rule on them the same.
#[test]
fn reading_straight_into_the_verbs_agrees_with_the_generic_reading() {
    let answer =
        |a: Result<arbiter::engine::Adjudication, Vec<arbiter::engine::FieldError>>| match a {
            Ok(a) => serde_json::to_value(&a).unwrap(),
            Err(e) => serde_json::to_value(arbiter::api::problem::Problem::invalid(e)).unwrap(),
        };
    let spoilt = |record: &Value| {
        let mut out = vec![record.clone()];
        if let Some(first) = record["actions"][0].as_object() {
            let mut unknown_verb = record.clone();
            unknown_verb["actions"][0] = serde_json::json!({"seat": first["seat"], "dance": 1});
            out.push(unknown_verb);
            let verb = first.keys().find(|k| *k != "seat").unwrap();
            let mut wrong_value = record.clone();
            wrong_value["actions"][0][verb] = serde_json::json!({"not": "a value"});
            out.push(wrong_value);
        }
        let mut bad_card = record.clone();
        bad_card["face_up"] = serde_json::json!(["1X"]);
        out.push(bad_card);
        let mut long_name = record.clone();
        long_name["players"] = serde_json::json!({"N": "n".repeat(101)});
        out.push(long_name);
        out
    };
    let (mut read, mut refused) = (0, 0);
    for (game, path) in common::fixtures() {
        let game = arbiter::games::find(&game).unwrap();
        for record in spoilt(&load(&path)["record"]) {
            let bytes = serde_json::to_vec(&record).unwrap();
            let generic = parse_json::<HandRecord>(&bytes)
                .ok()
                .and_then(|r| game.read(&r).ok());
            match (generic, game.read_json(&bytes)) {
                (Some(generic), Some(direct)) => {
                    read += 1;
                    assert_eq!(
                        answer(generic.adjudicate()),
                        answer(direct.adjudicate()),
                        "{}: {record}",
                        path.display()
                    );
                }
                (None, None) => refused += 1,
                (generic, _) => panic!(
                    "{}: the generic reading {} {record}, the direct one does not",
                    path.display(),
                    if generic.is_some() {
                        "takes"
                    } else {
                        "refuses"
                    }
                ),
            }
        }
    }
    assert!(
        read >= 393 && refused >= 3 * 393,
        "{read} read, {refused} refused"
    );
}

#[actix_web::test]
async fn fixtures_match_through_http() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    let mut failures = Vec::new();
    for (game, path) in common::fixtures() {
        let f = load(&path);
        let req = http::TestRequest::post()
            .uri(&format!("/v1/games/{game}/adjudications"))
            .set_json(&f["record"])
            .to_request();
        let resp = http::call_service(&app, req).await;
        let status = resp.status().as_u16();
        let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
        if let Err(e) = verdict(&f, status, &body) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixtures differ over HTTP:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_subset_matcher_can_fail() {
    let actual: Value = serde_json::json!({"a": [1, 2], "b": {"c": 3}});
    assert!(common::subset(&serde_json::json!({"a": [1, 2]}), Some(&actual), "").is_ok());
    assert!(common::subset(&serde_json::json!({"a": [1]}), Some(&actual), "").is_err());
    assert!(common::subset(&serde_json::json!({"b": {"c": 4}}), Some(&actual), "").is_err());
    assert!(common::subset(&serde_json::json!({"d": 1}), Some(&actual), "").is_err());
    assert!(common::subset(&serde_json::json!({"d": null}), Some(&actual), "").is_ok());
}
