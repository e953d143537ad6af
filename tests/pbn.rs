//! PBN, the text form of a hand record (`docs/pbn.md`), over every game it carries (four seats
//! N E S W, one 52-card pack), with no code of any game's own:
//! - every accepted fixture of those games is written as PBN and read back into the identical
//!   record, ruled on as its JSON is, and written back to the identical text;
//! - the example texts (`docs/pbn/<game>/<fixture>.pbn`) read into their JSON fixture's record,
//!   are ruled on as the fixture expects, and are what the writer writes;
//! - random hands (legal play from the fixtures' deals, then disturbed: an action dropped, two
//!   swapped, a card played out of turn) round-trip the same way (proptest);
//! - reading never panics on any text, and a text that is wrong is refused with its line and
//!   column, over HTTP too (`Content-Type: application/x-pbn`).

mod common;

use actix_web::test as http;
use arbiter::api::problem::parse_json;
use arbiter::engine::{self, Game, Options, Replay};
use arbiter::pbn;
use arbiter::record::{Action, HandRecord};
use arbiter::seat::Seat;
use common::random::Rng;
use proptest::prelude::*;
use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;

/// The registered games PBN carries under their default options.
fn pbn_games() -> Vec<&'static dyn Game> {
    arbiter::games::all()
        .iter()
        .copied()
        .filter(|g| pbn::fits(*g, &Options::defaults(g.info().options)).is_ok())
        .collect()
}

/// Each accepted fixture record of the games PBN carries (under the record's options), with its
/// game and path.
fn pbn_fixtures() -> Vec<(&'static dyn Game, std::path::PathBuf, HandRecord)> {
    common::fixtures()
        .into_iter()
        .filter_map(|(id, path)| {
            let game = arbiter::games::find(&id)?;
            let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            if v.get("expected_status").is_some() {
                return None;
            }
            let record: HandRecord = parse_json(&serde_json::to_vec(&v["record"]).unwrap()).ok()?;
            let options = Options::resolve(game.info().options, &record.options, "").ok()?;
            pbn::fits(game, &options).ok()?;
            Some((game, path, record))
        })
        .collect()
}

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

/// `record` written, read back and written again: the same record, the same ruling, the same text.
fn round_trip(game: &'static dyn Game, record: &HandRecord) -> Result<String, String> {
    let text = pbn::write(game, record).map_err(|e| format!("refused: {e:?}"))?;
    let back = pbn::read(&text, Some(game)).map_err(|e| format!("{text}\nnot read: {e:?}"))?;
    if json(&back.record) != json(record) {
        return Err(format!(
            "{text}\nread back as {}\nnot {}",
            json(&back.record),
            json(record)
        ));
    }
    let again = pbn::write(game, &back.record).map_err(|e| format!("rewritten: {e:?}"))?;
    if again != text {
        return Err(format!("{text}\nwritten back as\n{again}"));
    }
    let (a, b) = (
        engine::adjudicate(game, record).map(|a| json(&a)),
        engine::adjudicate(game, &back.record).map(|a| json(&a)),
    );
    if a != b {
        return Err(format!("{text}\nruled otherwise than its JSON"));
    }
    Ok(text)
}

#[test]
fn the_games_pbn_carries_are_those_of_four_seats_and_one_52_card_pack() {
    let ids: Vec<&str> = pbn_games().iter().map(|g| g.info().id).collect();
    for id in [
        "court-piece",
        "bacon",
        "stubs-and-spoils",
        "pitch",
        "big-two",
    ] {
        assert!(ids.contains(&id), "{id} is not carried: {ids:?}");
    }
    for id in ["malilla", "tresette", "calypso", "imperial-tarot", "pluck"] {
        assert!(!ids.contains(&id), "{id} is carried");
    }
    let tresette = arbiter::games::find("tresette").unwrap();
    let e = pbn::fits(tresette, &Options::defaults(tresette.info().options)).unwrap_err();
    assert!(e.contains("52-card pack"), "{e}");
}

#[test]
fn every_accepted_fixture_round_trips_exactly() {
    let fixtures = pbn_fixtures();
    let mut failures = Vec::new();
    for (game, path, record) in &fixtures {
        // A record the game refuses is not a hand to write.
        if engine::adjudicate(*game, record).is_err() {
            continue;
        }
        // PBN names the seats N E S W: a record naming them P1..P4 is refused where it does.
        let numbered = !Seat::COMPASS.contains(&record.dealer)
            || record
                .deal
                .keys()
                .chain(record.players.keys())
                .any(|s| !Seat::COMPASS.contains(s));
        if numbered {
            let e = pbn::write(*game, record).unwrap_err();
            assert!(e[0].detail.contains("PBN names the seats"), "{e:?}");
            continue;
        }
        if let Err(e) = round_trip(*game, record) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for game in pbn_games() {
        let n = fixtures
            .iter()
            .filter(|(g, ..)| g.info().id == game.info().id)
            .count();
        assert!(n >= 3, "{}: {n} fixtures written", game.info().id);
    }
}

/// The example texts: `docs/pbn/<game>/<name>.pbn`, each made from `fixtures/<game>/<name>.json`.
fn examples() -> Vec<(String, std::path::PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pbn");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let game = dir.file_name().unwrap().to_string_lossy().to_string();
        for f in std::fs::read_dir(&dir).unwrap() {
            out.push((game.clone(), f.unwrap().path()));
        }
    }
    out.sort();
    out
}

#[test]
fn each_example_text_is_its_fixture_ruled_as_the_fixture_expects() {
    let examples = examples();
    assert!(examples.len() >= 5, "{examples:?}");
    for (id, path) in examples {
        let game = arbiter::games::find(&id).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let fixture_path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(&id)
            .join(format!("{stem}.json"));
        let fixture: Value =
            serde_json::from_slice(&std::fs::read(&fixture_path).unwrap()).unwrap();
        let record: HandRecord =
            parse_json(&serde_json::to_vec(&fixture["record"]).unwrap()).unwrap();
        let read = pbn::read(&text, None).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert_eq!(read.game.info().id, id);
        assert_eq!(json(&read.record), json(&record), "{}", path.display());
        let ruling = arbiter::api::adjudicate_pbn(None, text.as_bytes()).unwrap();
        common::subset(&fixture["expected"], Some(&json(&ruling)), "")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            pbn::write(game, &record).unwrap(),
            text,
            "{}",
            path.display()
        );
    }
}

#[test]
fn the_readme_and_the_doc_show_only_checked_examples() {
    let examples: Vec<String> = examples()
        .into_iter()
        .map(|(_, p)| std::fs::read_to_string(p).unwrap())
        .collect();
    for doc in ["README.md", "docs/pbn.md"] {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(doc)).unwrap();
        // Every ```pbn block, not only the first (docs/pbn.md also shows Colour Whist's).
        let blocks: Vec<&str> = text
            .split("```pbn\n")
            .skip(1)
            .filter_map(|rest| rest.split("```").next())
            .collect();
        assert!(
            !blocks.is_empty(),
            "{doc} shows a PBN text in a ```pbn block"
        );
        for (i, block) in blocks.iter().enumerate() {
            assert!(
                examples.iter().any(|e| e == block),
                "{doc}'s PBN text {} is not one of the checked examples",
                i + 1
            );
        }
    }
}

/// `record` with its actions disturbed by `rng`: one dropped, two neighbours swapped, or a card
/// played by the seat after the one due (out of turn); or left as it is.
fn disturbed(game: &dyn Game, mut record: HandRecord, rng: &mut Rng) -> HandRecord {
    let n = record.actions.len();
    if n < 2 {
        return record;
    }
    let i = rng.below(n - 1);
    match rng.below(4) {
        0 => {
            record.actions.remove(i);
        }
        1 => record.actions.swap(i, i + 1),
        2 => {
            let before = HandRecord {
                actions: record.actions[..i].to_vec(),
                ..record.clone()
            };
            if let Ok(replay) = Replay::start(game, &before) {
                let view = replay.table();
                if let Some(&due) = view.to_act.first() {
                    let other = Action::new(
                        arbiter::seat::Table::FOUR.left(due),
                        "play",
                        view.hands
                            .get(&arbiter::seat::Table::FOUR.left(due))
                            .and_then(|h| h.first())
                            .copied(),
                    );
                    record.actions.insert(i, other);
                }
            }
        }
        _ => {}
    }
    record
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// JSON → PBN → JSON is the identical record and PBN → JSON → PBN the identical text, over
    /// random hands of every game PBN carries: legal play from each fixture deal, then disturbed.
    #[test]
    fn random_hands_round_trip_exactly(seed in any::<u64>(), pick in any::<usize>()) {
        static DEALS: OnceLock<Vec<(&'static dyn Game, HandRecord)>> = OnceLock::new();
        let deals = DEALS.get_or_init(|| {
            pbn_fixtures()
                .into_iter()
                .filter(|(_, _, r)| {
                    Seat::COMPASS.contains(&r.dealer) && r.deal.keys().all(|s| Seat::COMPASS.contains(s))
                })
                .filter_map(|(game, _, mut r)| {
                    r.actions.clear();
                    r.game = Some(game.info().id.to_string());
                    Replay::start(game, &r).is_ok().then_some((game, r))
                })
                .collect()
        });
        let (game, dealt) = deals[pick % deals.len()].clone();
        let mut rng = Rng(seed | 1);
        let played = common::random::play_out(dealt, &mut rng);
        let record = disturbed(game, played, &mut rng);
        if engine::adjudicate(game, &record).is_ok() {
            prop_assert!(round_trip(game, &record).is_ok(), "{}", round_trip(game, &record).unwrap_err());
        }
    }

    /// Reading never panics, on any text or on a good text damaged anywhere: an answer, or a
    /// refusal with its line and column.
    #[test]
    fn reading_any_text_never_panics(text in "\\PC*", at in any::<usize>(), junk in "[\\[\\]\"{};%: .A-Z0-9a-z\\n-]{0,4}") {
        let _ = pbn::read(&text, None);
        let good = std::fs::read_to_string(&examples()[0].1).unwrap();
        let mut cut = at % (good.len() + 1);
        while !good.is_char_boundary(cut) {
            cut -= 1;
        }
        let damaged = format!("{}{junk}{}", &good[..cut], &good[cut + cut.min(good.len() - cut).min(3)..]);
        match arbiter::api::adjudicate_pbn(None, damaged.as_bytes()) {
            Ok(_) => {}
            Err(p) => {
                prop_assert!(p.status == 422, "{}", p.status);
                prop_assert!(p.errors.iter().all(|e| e.row.is_some() && e.column.is_some()), "{:?}", p.errors);
            }
        }
    }
}

#[test]
fn a_wrong_text_is_refused_at_its_line_and_column() {
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/pbn/court-piece/01-normal-hand-no-court-same-dealer.pbn"),
    )
    .unwrap();
    let line_of = |needle: &str| good.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1;
    // (damage, status, pointer, line)
    let cases: Vec<(String, u16, &str, u64)> = vec![
        (
            good.replacen("[Dealer \"W\"]", "[Dealer \"W\"", 1),
            422,
            "",
            line_of("[Dealer"),
        ),
        (
            good.replacen("SA SK", "SA S1", 1),
            422,
            "",
            line_of("SA SK"),
        ),
        (
            good.replacen("[Dealer \"W\"]", "[Dealer \"X\"]", 1),
            422,
            "/dealer",
            line_of("[Dealer"),
        ),
        (
            good.replacen("J85.A74", "J85.A7Z", 1),
            422,
            "/deal/W",
            line_of("[Deal "),
        ),
        (
            good.replacen("trump:H", "trump:Z", 1),
            422,
            "/actions/0/trump",
            line_of("trump:H"),
        ),
        (good.replacen("SA SK SQ SJ", "SK SA SQ SJ", 1), 200, "", 0),
        (
            good.replacen(
                "[ArbiterGame \"court-piece\"]",
                "[ArbiterGame \"malilla\"]",
                1,
            ),
            422,
            "/game",
            3,
        ),
        (
            good.replacen("0 N trump:H", "0 N trump:H\n0 N trump:S", 1),
            422,
            "/actions/0",
            line_of("trump:H") + 1,
        ),
        (
            good.replacen("[Play \"N\"]", "[Play \"N\"]\n[Play \"N\"]", 1),
            422,
            "",
            line_of("[Play") + 1,
        ),
        (
            good.replacen("[Deal ", "[ArbiterDeal \"\"]\n[Deal ", 1),
            422,
            "",
            line_of("[Deal "),
        ),
        ("\u{1b}garbage".to_string(), 422, "", 1),
        (String::new(), 422, "", 1),
    ];
    for (text, status, pointer, line) in cases {
        let answer = arbiter::api::adjudicate_pbn(None, text.as_bytes());
        match (answer, status) {
            (Ok(_), 200) => {}
            (Ok(_), _) => panic!("accepted:\n{text}"),
            (Err(p), _) => {
                assert_eq!(p.status, status, "{text}\n{p:?}");
                assert_eq!(p.errors[0].pointer, pointer, "{text}\n{p:?}");
                assert_eq!(p.errors[0].row, Some(line), "{text}\n{p:?}");
                assert!(p.errors[0].column.is_some());
            }
        }
    }
    // A card the seat due does not hold is the game's own record error, as in JSON.
    let text = good.replacen("SA SK SQ SJ", "SA SK SQ S2", 1);
    let a = arbiter::api::adjudicate_pbn(None, text.as_bytes()).unwrap();
    assert_eq!(json(&a)["record_error"]["code"], "card_not_held");
}

#[test]
fn a_record_the_text_cannot_carry_is_refused_not_written_otherwise() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/court-piece/31-dealer-named-p4.json");
    let f: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let record: HandRecord = parse_json(&serde_json::to_vec(&f["record"]).unwrap()).unwrap();
    let game = arbiter::games::find("court-piece").unwrap();
    let e = pbn::write(game, &record).unwrap_err();
    assert_eq!(e[0].pointer, "/dealer", "{e:?}");
    assert!(e[0].detail.contains("P4 as W"), "{e:?}");
    let tresette = arbiter::games::find("tresette").unwrap();
    let path = common::fixtures()
        .into_iter()
        .find(|(g, _)| g == "tresette")
        .unwrap()
        .1;
    let f: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let record: HandRecord = parse_json(&serde_json::to_vec(&f["record"]).unwrap()).unwrap();
    assert!(pbn::write(tresette, &record).is_err());
}

#[actix_web::test]
async fn a_text_is_adjudicated_over_http_as_its_json_is() {
    let (state, _db) = common::league_state();
    let app = http::init_service(arbiter::api::app(state)).await;
    for (id, path) in examples() {
        let text = std::fs::read(&path).unwrap();
        let req = http::TestRequest::post()
            .uri(&format!("/v1/games/{id}/adjudications"))
            .insert_header(("content-type", "application/x-pbn; charset=utf-8"))
            .set_payload(text.clone())
            .to_request();
        let resp = http::call_service(&app, req).await;
        assert_eq!(resp.status(), 200, "{}", path.display());
        let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
        let expected = arbiter::api::adjudicate_pbn(None, &text).unwrap();
        assert_eq!(body, json(&expected));
        // Sent to another game: refused at /game.
        let req = http::TestRequest::post()
            .uri("/v1/games/pitch/adjudications")
            .insert_header(("content-type", "application/x-pbn"))
            .set_payload(text)
            .to_request();
        let resp = http::call_service(&app, req).await;
        if id != "pitch" {
            assert_eq!(resp.status(), 422);
            let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
            assert_eq!(body["errors"][0]["pointer"], "/game");
        }
    }
    // Malformed: 422 problem+json, typed malformed-pbn, with the line and column.
    let req = http::TestRequest::post()
        .uri("/v1/games/court-piece/adjudications")
        .insert_header(("content-type", "application/x-pbn"))
        .set_payload("[Dealer \"N\"]\n[Deal \"N:")
        .to_request();
    let resp = http::call_service(&app, req).await;
    assert_eq!(resp.status(), 422);
    assert_eq!(
        resp.headers().get("content-type").unwrap(),
        "application/problem+json"
    );
    let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
    assert_eq!(body["type"], "urn:arbiter:problem:malformed-pbn");
    assert_eq!(
        (
            body["errors"][0]["row"].as_u64(),
            body["errors"][0]["column"].as_u64()
        ),
        (Some(2), Some(8))
    );
    // Not UTF-8: refused at the byte.
    let req = http::TestRequest::post()
        .uri("/v1/games/court-piece/adjudications")
        .insert_header(("content-type", "application/x-pbn"))
        .set_payload(b"[Dealer \"N\"]\n[D\xffeal".to_vec())
        .to_request();
    let resp = http::call_service(&app, req).await;
    assert_eq!(resp.status(), 422);
    let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
    assert_eq!(
        (
            body["errors"][0]["row"].as_u64(),
            body["errors"][0]["column"].as_u64()
        ),
        (Some(2), Some(3))
    );
    // A game PBN does not carry: 422.
    let req = http::TestRequest::post()
        .uri("/v1/games/malilla/adjudications")
        .insert_header(("content-type", "application/x-pbn"))
        .set_payload("[Dealer \"N\"]")
        .to_request();
    let resp = http::call_service(&app, req).await;
    assert_eq!(resp.status(), 422);
    // Another text type is still 415, naming both.
    let req = http::TestRequest::post()
        .uri("/v1/games/court-piece/adjudications")
        .insert_header(("content-type", "text/plain"))
        .set_payload("x")
        .to_request();
    let resp = http::call_service(&app, req).await;
    assert_eq!(resp.status(), 415);
    let body: Value = serde_json::from_slice(&http::read_body(resp).await).unwrap();
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("application/x-pbn"),
        "{body}"
    );
}
