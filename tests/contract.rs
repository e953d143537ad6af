//! The one adjudication contract (`docs/records.md`, "The adjudication"), checked over every fixture
//! of every game: what a third-party client may rely on whatever the game.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::engine::{self, Adjudication, BonusStatus, GameInfo, Outcome, ScoreSource, Side};
use arbiter::record::HandRecord;
use serde_json::Value;
use std::collections::BTreeMap;

/// Every fixture whose record the engine accepts: (path, game, record, adjudication).
fn adjudicated() -> Vec<(String, &'static dyn engine::Game, HandRecord, Adjudication)> {
    let mut out = Vec::new();
    for (game, path) in common::fixtures() {
        let f: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let game = arbiter::games::find(&game).unwrap();
        let bytes = serde_json::to_vec(&f["record"]).unwrap();
        let Ok(record) = parse_json::<HandRecord>(&bytes) else {
            continue;
        };
        if let Ok(a) = engine::adjudicate(game, &record) {
            out.push((path.display().to_string(), game, record, a));
        }
    }
    assert!(out.len() > 200, "the fixtures of every game are read");
    out
}

/// Checks one adjudication against the contract; every broken clause is listed.
fn breaches(info: &GameInfo, record: &HandRecord, a: &Adjudication) -> Vec<String> {
    let mut out = Vec::new();
    let mut fail = |s: String| out.push(s);
    let declared = |list: &[&str], code: &str| list.contains(&code);
    for code in common::undeclared_codes(info, a) {
        fail(format!("code {code} is not declared in GameInfo"));
    }
    // The sides of the match: every per-side value covers exactly these.
    let sides: Vec<Side> = a.match_before.scores.sides().collect();
    for s in &sides {
        if !a.tally.sides().any(|t| t == *s) {
            fail(format!("the tally has no entry for {s}"));
        }
    }
    if let Some(e) = &a.record_error {
        if a.outcome != Outcome::RecordError || a.hand_score.is_some() {
            fail("a record error leaves the hand unscored".into());
        }
        if !a.score_items.is_empty() || a.hand_winner.is_some() {
            fail("a record error leaves no score items and no hand winner".into());
        }
        if a.match_after != a.match_before {
            fail("a record error leaves the match as it was".into());
        }
        if e.code == "incomplete_hand" && e.action_index != Some(record.actions.len()) {
            fail(format!(
                "incomplete_hand is located where the next action was due ({}), not {:?}",
                record.actions.len(),
                e.action_index
            ));
        }
        return out;
    }
    let Some(score) = a.hand_score else {
        fail("a hand without a record error has a hand score".into());
        return out;
    };
    for s in score.sides() {
        if !sides.contains(&s) {
            fail(format!(
                "the hand score names {s}, which is not at the table"
            ));
        }
    }
    // The parts add up to the whole.
    let mut parts: BTreeMap<Side, i32> = BTreeMap::new();
    for item in &a.score_items {
        *parts.entry(item.side).or_default() += item.points;
        let own = matches!(item.source, ScoreSource::Penalty | ScoreSource::Bonus);
        if !own && !declared(info.score_codes, item.code) {
            fail(format!("score item code {} is not declared", item.code));
        }
        if item.source == ScoreSource::Penalty
            && !a
                .irregularities
                .iter()
                .any(|i| i.code == item.code && i.action_index == item.action_index)
        {
            fail(format!(
                "penalty {} at {:?} has no irregularity",
                item.code, item.action_index
            ));
        }
    }
    for &s in &sides {
        let sum = parts.get(&s).copied().unwrap_or(0);
        if sum != score[s] {
            fail(format!(
                "score items for {s} add up to {sum}, the hand score is {}",
                score[s]
            ));
        }
    }
    // Every penalty states its numbers, the same as its score items.
    for i in &a.irregularities {
        for s in &sides {
            let items: i32 = a
                .score_items
                .iter()
                .filter(|t| {
                    t.source == ScoreSource::Penalty
                        && t.side == *s
                        && t.code == i.code
                        && t.action_index == i.action_index
                })
                .map(|t| t.points)
                .sum();
            if items != i.effect.points[*s] {
                fail(format!(
                    "{} at {:?}: effect says {} for {s}, the score items {items}",
                    i.code, i.action_index, i.effect.points[*s]
                ));
            }
        }
    }
    // One bonus vocabulary: a finished hand has no bonus left undecided; a scored bonus is a part.
    for b in &a.bonuses {
        match b.status {
            BonusStatus::Held => fail(format!("bonus {} is still held after the hand", b.code)),
            BonusStatus::Scored => {
                let listed = a.score_items.iter().any(|t| {
                    t.source == ScoreSource::Bonus
                        && t.code == b.code
                        && t.side == b.side
                        && t.points == b.points
                });
                if !listed {
                    fail(format!("scored bonus {} is not in the score items", b.code));
                }
            }
            BonusStatus::NotScored => {}
        }
    }
    // What the hand adds to the match (a Briscola tie-breaker is scored on its own: its doc).
    let tie_breaker = info.id == "briscola" && a.match_before.details.contains_key("contenders");
    if !tie_breaker {
        for &s in &sides {
            let moved = a.match_after.scores[s] - a.match_before.scores[s];
            if moved != score[s] {
                fail(format!(
                    "the match moved {moved} for {s}, the hand score is {}",
                    score[s]
                ));
            }
        }
    }
    if a.outcome == Outcome::RecordError {
        fail("a scored hand has no record error outcome".into());
    }
    out
}

#[test]
fn every_fixture_keeps_the_one_contract() {
    let mut failures = Vec::new();
    for (path, game, record, a) in adjudicated() {
        for b in breaches(game.info(), &record, &a) {
            failures.push(format!("{path}: {b}"));
        }
        // The wire shape: these keys are always present, whatever the game.
        let v = serde_json::to_value(&a).unwrap();
        for key in ["hand_winner", "score_items", "hand_score", "tally"] {
            if v.get(key).is_none() {
                failures.push(format!("{path}: no `{key}`"));
            }
        }
        for (side, t) in v["tally"].as_object().unwrap() {
            if t.get("tricks").is_none() {
                failures.push(format!("{path}: tally of {side} has no `tricks`"));
            }
        }
        if let Some(c) = v.get("contract") {
            for key in ["declarer", "side", "made"] {
                if c.get(key).is_none() {
                    failures.push(format!("{path}: contract has no `{key}`"));
                }
            }
        }
        let again = engine::adjudicate(game, &record).unwrap();
        if serde_json::to_value(&again).unwrap() != v {
            failures.push(format!("{path}: a second replay differs"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} breaches of the contract:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The checker itself can fail: a hand score that the parts do not add up to is caught.
#[test]
fn the_contract_check_can_fail() {
    let (_, game, record, mut a) = adjudicated()
        .into_iter()
        .find(|(_, _, _, a)| a.hand_score.is_some() && !a.score_items.is_empty())
        .expect("a scored fixture");
    assert!(breaches(game.info(), &record, &a).is_empty());
    a.score_items[0].points += 1;
    assert!(!breaches(game.info(), &record, &a).is_empty());
}

/// README C2–C4, C11: `correct` belongs to every game's record (a game without revokes answers it
/// with `invalid_correct`); and an option means one thing in every game: `revoke_penalty` is the
/// rule file's §5 penalty (`default`) or none (README "Penalties").
#[test]
fn every_game_has_correct_and_one_revoke_penalty_option() {
    for game in arbiter::games::all() {
        let info = game.info();
        assert!(info.verbs.contains(&"correct"), "{}: no correct", info.id);
        for option in info.options {
            if option.name == "revoke_penalty" {
                let engine::OptionKind::Choice { values, default } = option.kind else {
                    panic!("{}: revoke_penalty is a choice", info.id);
                };
                assert_eq!(
                    (values, default),
                    (&["default", "none"][..], "default"),
                    "{}",
                    info.id
                );
            }
        }
    }
}
