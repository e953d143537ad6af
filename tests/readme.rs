//! The README's "A season, step by step", run verbatim: every request of its ```` ```http ````
//! blocks in order against the app on a fresh database, each answer checked against the status
//! and the fields the README shows. A `$NAME` in an answer binds the value found there; in a
//! request it is replaced by the value bound.

mod common;

use actix_web::test as http;
use serde_json::Value;
use std::collections::BTreeMap;

const SECTION: &str = "## A season, step by step";

/// The section's ```` ```http ```` blocks, in order.
fn http_blocks(readme: &str) -> Vec<String> {
    let start = readme.find(SECTION).expect("the README has the tutorial");
    let section = &readme[start + SECTION.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line == "```http" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push(block.join("\n"));
        }
    }
    blocks
}

/// Head lines (request or status line, then headers) and the body after the first blank line.
fn head_and_body(message: &str) -> (Vec<&str>, &str) {
    let message = message.trim_matches('\n');
    let (head, body) = message.split_once("\n\n").unwrap_or((message, ""));
    (head.lines().collect(), body)
}

/// `text` with every bound `$NAME` replaced, longest names first (`$KEY_ID` before `$KEY`).
fn substitute(text: &str, vars: &BTreeMap<String, String>) -> String {
    let mut names: Vec<&String> = vars.keys().collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut out = text.to_string();
    for n in names {
        out = out.replace(&format!("${n}"), &vars[n]);
    }
    out
}

/// Whether `expected` (the README's answer) is found in `actual`: objects by their keys, arrays
/// item by item with equal lengths, `null` matching an absent key, and a `"$NAME"` string binding
/// (or, once bound, matching) the value there.
fn check(
    expected: &Value,
    actual: Option<&Value>,
    path: &str,
    vars: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    let fail = || Err(format!("{path}: expected {expected}, got {actual:?}"));
    match (expected, actual) {
        (Value::String(s), Some(Value::String(a))) if s.starts_with('$') => {
            let name = &s[1..];
            match vars.get(name) {
                Some(bound) if bound != a => fail(),
                Some(_) => Ok(()),
                None => {
                    vars.insert(name.to_string(), a.clone());
                    Ok(())
                }
            }
        }
        (Value::Null, None | Some(Value::Null)) => Ok(()),
        (Value::Object(e), Some(Value::Object(a))) => e
            .iter()
            .try_for_each(|(k, v)| check(v, a.get(k), &format!("{path}/{k}"), vars)),
        (Value::Array(e), Some(Value::Array(a))) if e.len() == a.len() => e
            .iter()
            .zip(a)
            .enumerate()
            .try_for_each(|(i, (e, a))| check(e, Some(a), &format!("{path}/{i}"), vars)),
        (e, Some(a)) if e == a => Ok(()),
        _ => fail(),
    }
}

#[actix_web::test]
async fn the_readme_season_runs_as_written() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let blocks = http_blocks(&readme);
    assert!(
        blocks.len() >= 2 && blocks.len().is_multiple_of(2),
        "requests and answers pair up"
    );
    let (state, _db) = common::league_state();
    let mut vars = BTreeMap::from([(
        "ADMIN_TOKEN".to_string(),
        state.admin_token.clone().unwrap(),
    )]);
    let app = http::init_service(arbiter::api::app(state)).await;
    let mut ran = 0;
    for pair in blocks.chunks(2) {
        let requests: Vec<&str> = pair[0].split("\n###\n").collect();
        let answers: Vec<&str> = pair[1].split("\n###\n").collect();
        assert_eq!(requests.len(), answers.len(), "{}", pair[0]);
        for (request, answer) in requests.iter().zip(answers) {
            let request = substitute(request, &vars);
            let (head, body) = head_and_body(&request);
            let (method, uri) = head[0].split_once(' ').expect("METHOD /path");
            let mut req = http::TestRequest::default()
                .method(method.parse().unwrap())
                .uri(uri);
            for h in &head[1..] {
                let (name, value) = h.split_once(": ").expect("Name: value");
                req = req.insert_header((name, value));
            }
            if !body.is_empty() {
                req = req.set_payload(format!("{body}\n"));
            }
            let resp = http::call_service(&app, req.to_request()).await;
            let status = resp.status().as_u16();
            let text = String::from_utf8(http::read_body(resp).await.to_vec()).unwrap();
            let (status_line, expected) = head_and_body(answer);
            let want: u16 = status_line[0]
                .strip_prefix("HTTP/1.1 ")
                .and_then(|s| s.split(' ').next())
                .and_then(|s| s.parse().ok())
                .expect("HTTP/1.1 <status> <reason>");
            assert_eq!(status, want, "{}\n{text}", head[0]);
            if !expected.is_empty() {
                let expected: Value = serde_json::from_str(expected)
                    .unwrap_or_else(|e| panic!("the README's answer to {}: {e}", head[0]));
                let actual: Value = serde_json::from_str(&text).unwrap();
                if let Err(e) = check(&expected, Some(&actual), "", &mut vars) {
                    panic!("{}: {e}\n{text}", head[0]);
                }
            }
            ran += 1;
        }
    }
    assert!(ran >= 20, "the tutorial ran {ran} requests");
}

/// The sheet's limits the README states (in the reference and in the tutorial) are the import's:
/// every "at most N rows" is `MAX_ROWS` and every "N MiB" is `MAX_SHEET`.
#[test]
fn the_readme_states_the_sheet_limits_the_import_applies() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let words: Vec<&str> = readme.split_whitespace().collect();
    let grouped = |n: usize| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let rows: Vec<&str> = words
        .windows(4)
        .filter(|w| w[0] == "at" && w[1] == "most" && w[3].starts_with("rows"))
        .map(|w| w[2])
        .collect();
    let mib: Vec<&str> = words
        .windows(2)
        .filter(|w| w[1].starts_with("MiB"))
        .map(|w| w[0])
        .collect();
    assert!(rows.len() >= 2 && mib.len() >= 2, "{rows:?} {mib:?}");
    assert!(
        rows.iter()
            .all(|r| *r == grouped(arbiter::league::MAX_ROWS)),
        "{rows:?}"
    );
    assert!(arbiter::league::MAX_SHEET.is_multiple_of(1024 * 1024));
    let sheet = (arbiter::league::MAX_SHEET / (1024 * 1024)).to_string();
    assert!(mib.iter().all(|m| *m == sheet), "{mib:?}");
}
