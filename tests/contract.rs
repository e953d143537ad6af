//! The one adjudication contract (`docs/records.md`, "The adjudication"), checked over every fixture
//! of every game: what a third-party client may rely on whatever the game.

mod common;

use arbiter::api::problem::parse_json;
use arbiter::engine::{self, Adjudication, BonusStatus, Options, Outcome, ScoreSource, Seat, Side};
use arbiter::record::HandRecord;
use serde_json::Value;
use std::collections::BTreeMap;

/// The verbs that put a card on a trick: `play` in every game, Poke's `lead` and `reply` (a set
/// of cards at once, poke.md §2).
const CARD_VERBS: [&str; 3] = ["play", "lead", "reply"];

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

/// The games that have going alone (clause 5: `contract.alone` always present there, absent
/// elsewhere).
const GOING_ALONE: &[&str] = &["bacon"];

/// Checks one adjudication against the contract; every broken clause is listed.
fn breaches(game: &dyn engine::Game, record: &HandRecord, a: &Adjudication) -> Vec<String> {
    let info = game.info();
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
    // Clause 7: the tally's tricks are the tricks each side won, as reported (a tied trick, whose
    // winner is null, counts for nobody; a game without tricks reports none and counts none).
    let options = Options::resolve(info.options, &record.options, "/options").expect("accepted");
    let table = game.table(&options);
    // A trick that counts for nothing (`counts: false`, completed after the hand was decided)
    // is in no tally.
    let wire_tricks = serde_json::to_value(&a.tricks).unwrap();
    let counting: Vec<bool> = wire_tricks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["counts"] != false)
        .collect();
    for &s in &sides {
        let won = a
            .tricks
            .iter()
            .zip(&counting)
            .filter(|(t, counts)| **counts && t.winner.is_some_and(|w| table.side(w) == s))
            .count() as u32;
        if a.tally[s].tricks != won {
            fail(format!(
                "the tally gives {s} {} tricks, the tricks report {won} won",
                a.tally[s].tricks
            ));
        }
    }
    // Clause 5: `alone` is stated in every contract of a game that has going alone, in none other.
    if let Some(c) = &a.contract
        && c.alone.is_some() != GOING_ALONE.contains(&info.id)
    {
        fail(format!("the contract's `alone` is {:?}", c.alone));
    }
    // Clause 9, README C13: a fault before the first card is played has no trick.
    let first_card = record
        .actions
        .iter()
        .position(|x| CARD_VERBS.contains(&x.kind.verb.as_str()))
        .unwrap_or(record.actions.len());
    for i in &a.irregularities {
        if i.action_index.is_none_or(|x| x < first_card) && i.trick.is_some() {
            fail(format!(
                "{} at {:?}, before the first card ({first_card}), has trick {:?}",
                i.code, i.action_index, i.trick
            ));
        }
    }
    // Events locate themselves (records.md, "Presence"): the side of the seat named; a trick
    // for an event at or after the first card of a trick game, none before it (README C13).
    let mut led = record.clone();
    led.actions.truncate(first_card + 1);
    let has_tricks = engine::legal_actions(game, &led).is_ok_and(|v| v.trick_number.is_some());
    let wire = serde_json::to_value(&a.events).unwrap();
    for (e, w) in a.events.iter().zip(wire.as_array().unwrap()) {
        if let Some(seat) = e.seat
            && w["side"] != serde_json::json!(table.side(seat))
        {
            fail(format!("event {} of {seat} has side {}", e.code, w["side"]));
        }
        match e.action_index {
            Some(x) if x < first_card && e.trick.is_some() => fail(format!(
                "event {} at {x}, before the first card, has trick {:?}",
                e.code, e.trick
            )),
            Some(x) if x >= first_card && has_tricks && e.trick.is_none() => {
                fail(format!("event {} at {x} has no trick", e.code))
            }
            _ => {}
        }
    }
    // Card points per trick in every game that counts them (its tally's `points`).
    if a.tally.sides().any(|s| a.tally[s].points.is_some()) {
        for t in a.tricks.iter().filter(|t| t.complete && t.points.is_none()) {
            fail(format!("trick {} has no card points", t.number));
        }
    }
    // The cards on the table when a record error or a deciding foul stopped the hand are listed
    // as their trick, marked incomplete.
    let stop = match &a.record_error {
        Some(e) => e.action_index,
        None => a
            .irregularities
            .iter()
            .find(|i| i.effect.decides.is_some())
            .and_then(|i| i.action_index.map(|x| x + 1)),
    };
    if let Some(at) = stop.filter(|&at| at <= record.actions.len()) {
        let mut before = record.clone();
        before.actions.truncate(at);
        if let Ok(view) = engine::legal_actions(game, &before)
            && !view.trick.is_empty()
        {
            let n = view
                .trick_number
                .expect("a trick on the table has a number");
            let listed = a.tricks.iter().find(|t| t.number == n);
            if listed.is_none_or(|t| t.plays.len() < view.trick.len()) {
                fail(format!(
                    "trick {n}, on the table when the hand stopped at {at}, is not listed"
                ));
            }
        }
    }
    after_the_end(game, record, a)
        .into_iter()
        .for_each(&mut fail);
    match_states(game, record, a)
        .into_iter()
        .for_each(&mut fail);
    // One `hands_played`: a hand played to a result counts (scored, game lost); a misdeal, a
    // void hand (dealt again) and a record error leave the count as it was.
    let counted = matches!(a.outcome, Outcome::Scored | Outcome::GameLost);
    if a.match_after.hands_played != a.match_before.hands_played + u32::from(counted) {
        fail(format!(
            "a {:?} hand moves hands_played from {} to {}",
            a.outcome, a.match_before.hands_played, a.match_after.hands_played
        ));
    }
    if let Some(e) = &a.record_error {
        // README C13: a record error states its trick: none before the first card (nor in a game
        // whose unit is a turn), else the trick in progress: the one after the tricks reported
        // complete, or the last of them while its business is unfinished (a Stubs & Spoils spoil).
        let done = a.tricks.iter().filter(|t| t.complete).count() as u8;
        let fits = match e.trick {
            None => !has_tricks || e.action_index.is_none_or(|x| x <= first_card),
            Some(n) => {
                has_tricks
                    && e.action_index.is_some_and(|x| x > first_card)
                    && (n == done + 1 || (n == done && n > 0))
            }
        };
        if !fits {
            fail(format!(
                "{} at {:?} has trick {:?} ({done} tricks complete, first card at {first_card})",
                e.code, e.action_index, e.trick
            ));
        }
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
        // Clause 10: the seat due, where one is (the table's one seat to act; gallery discards
        // in any order leave several).
        if e.code == "incomplete_hand" {
            let to_act = engine::legal_actions(game, record)
                .expect("the record's position")
                .to_act;
            if let [due] = to_act[..]
                && e.seat != Some(due)
            {
                fail(format!("incomplete_hand names {:?}, {due} was due", e.seat));
            }
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
        if item.points == 0 {
            fail(format!(
                "score item {} for {} is worth 0",
                item.code, item.side
            ));
        }
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
    // What the hand adds to the match (unless the game says the hand is scored on its own:
    // Briscola's tie-breaker, `Rules::hand_moves_match`).
    if game.hand_moves_match(&options, &a.match_before) {
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

/// Tricks after the end (records.md, clause 8): a complete trick counts (`counts: true`) unless
/// the action that completed it changed nothing (an action ignored after the hand was decided, as
/// Malilla's plays checked after a game-losing foul, MA-15): then `counts: false`. The action that
/// completed each trick is found by replaying the record action by action.
fn after_the_end(game: &dyn engine::Game, record: &HandRecord, a: &Adjudication) -> Vec<String> {
    let mut out = Vec::new();
    if a.ignored_actions.is_empty() || !a.tricks.iter().any(|t| t.complete) {
        return out;
    }
    let wire = serde_json::to_value(&a.tricks).unwrap();
    let complete = |r: &HandRecord| -> usize {
        engine::adjudicate(game, r).map_or(0, |p| p.tricks.iter().filter(|t| t.complete).count())
    };
    let mut done = 0;
    for at in 0..record.actions.len() {
        let mut prefix = record.clone();
        prefix.actions.truncate(at + 1);
        let now = complete(&prefix);
        let ignored = a.ignored_actions.iter().any(|i| i.action_index == at);
        for t in wire
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["complete"] == true)
            .skip(done)
            .take(now.saturating_sub(done))
        {
            if t["counts"] != serde_json::json!(!ignored) {
                out.push(format!(
                    "trick {}, completed by action {at} ({}), has counts {}",
                    t["number"],
                    if ignored { "ignored" } else { "not ignored" },
                    t["counts"]
                ));
            }
        }
        done = done.max(now);
    }
    out
}

/// The match state's fields (records.md, "Presence"): every field of the game's match state, the
/// common ones and the game's carried ones (`schemas.carried`), is present in `match_before` and
/// `match_after`; `match_before` echoes each field the record's match state sent and, for a field
/// it did not send, the game's starting value; `winners` is `[]` while the game goes on and names
/// sides of the table only.
fn match_states(game: &dyn engine::Game, record: &HandRecord, a: &Adjudication) -> Vec<String> {
    const COMMON: &[&str] = &[
        "scores",
        "next_dealer",
        "hands_played",
        "game_over",
        "winners",
        "out",
    ];
    let mut out = Vec::new();
    let carried_schema = serde_json::to_value(&game.schemas().carried.1).unwrap();
    let carried: Vec<String> = carried_schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let start = serde_json::to_value(
        game.read_carried(&arbiter::details::Details::new(), "/match_state")
            .expect("the start of a match"),
    )
    .unwrap();
    let sent = serde_json::to_value(&record.match_state).unwrap();
    let v = serde_json::to_value(a).unwrap();
    for which in ["match_before", "match_after"] {
        let m = &v[which];
        for key in COMMON
            .iter()
            .copied()
            .chain(carried.iter().map(String::as_str))
        {
            if m.get(key).is_none() {
                out.push(format!("{which} has no `{key}`"));
            }
        }
        if m["game_over"] != true && m["winners"] != serde_json::json!([]) {
            out.push(format!(
                "{which}: the game goes on, winners {}",
                m["winners"]
            ));
        }
        let sides: Vec<Value> = a
            .match_before
            .scores
            .sides()
            .map(|s| serde_json::json!(s))
            .collect();
        for w in m["winners"].as_array().into_iter().flatten() {
            if !sides.contains(w) {
                out.push(format!("{which}: winner {w} is not a side of the table"));
            }
        }
    }
    for key in &carried {
        let expected = match sent.get(key.as_str()) {
            Some(given) => given,
            None => &start[key.as_str()],
        };
        if v["match_before"][key.as_str()] != *expected {
            out.push(format!(
                "match_before's {key} is {}, the record sent {}",
                v["match_before"][key.as_str()],
                sent.get(key.as_str())
                    .map_or("nothing".into(), |g| g.to_string())
            ));
        }
    }
    for key in ["hands_played", "game_over", "winners"] {
        if let Some(given) = sent.get(key)
            && v["match_before"][key] != *given
        {
            out.push(format!(
                "match_before's {key} is {}, the record sent {given}",
                v["match_before"][key]
            ));
        }
    }
    out
}

/// The common fields every answer has (records.md, "Presence"), and those of each event and
/// each trick and card of a trick: what is missing is listed.
fn absent_keys(v: &Value) -> Vec<String> {
    const ANSWER: &[&str] = &[
        "game",
        "dealer",
        "outcome",
        "trump",
        "tricks",
        "irregularities",
        "corrected_revokes",
        "record_error",
        "ignored_actions",
        "bonuses",
        "contract",
        "camps",
        "hand_winner",
        "events",
        "tally",
        "hand_score",
        "score_items",
        "match_before",
        "match_after",
    ];
    const EVENT: &[&str] = &[
        "code",
        "action_index",
        "trick",
        "seat",
        "side",
        "cards",
        "detail",
    ];
    const TRICK: &[&str] = &["number", "leader", "plays", "winner", "complete", "counts"];
    let mut out = Vec::new();
    let lacks = |v: &Value, keys: &[&str], what: &str, out: &mut Vec<String>| {
        for key in keys {
            if v.get(key).is_none() {
                out.push(format!("{what} has no `{key}`"));
            }
        }
    };
    lacks(v, ANSWER, "the answer", &mut out);
    for e in v["events"].as_array().into_iter().flatten() {
        lacks(e, EVENT, &format!("event {}", e["code"]), &mut out);
    }
    let face_down = v["game"] == "truco";
    // A game that draws says so on every complete trick (`[]` once the stock is empty).
    let draws = v["game"] == "briscola";
    for t in v["tricks"].as_array().into_iter().flatten() {
        lacks(t, TRICK, &format!("trick {}", t["number"]), &mut out);
        if t["complete"] == true && t.get("draws").is_some() != draws {
            out.push(format!(
                "trick {}: its draws are {}",
                t["number"], t["draws"]
            ));
        }
        for p in t["plays"].as_array().into_iter().flatten() {
            if p.get("face_down").is_some() != face_down {
                out.push(format!(
                    "trick {}: a card's face_down is {}",
                    t["number"], p["face_down"]
                ));
            }
        }
    }
    out
}

#[test]
fn every_fixture_keeps_the_one_contract() {
    let mut failures = Vec::new();
    let all = adjudicated();
    // A game that counts card points states them in every answer's tally (0 when none were
    // taken: a misdeal too).
    let counts_points: Vec<&str> = all
        .iter()
        .filter(|(_, _, _, a)| a.tally.sides().any(|s| a.tally[s].points.is_some()))
        .map(|(_, g, _, _)| g.info().id)
        .collect();
    for (path, game, record, a) in all {
        if counts_points.contains(&game.info().id)
            && a.tally.sides().any(|s| a.tally[s].points.is_none())
        {
            failures.push(format!("{path}: the tally has no card points"));
        }
        for b in breaches(game, &record, &a) {
            failures.push(format!("{path}: {b}"));
        }
        // The wire shape (records.md, "Presence"): these keys are always present, whatever the
        // game, `null` or `[]` when what they name did not happen.
        let v = serde_json::to_value(&a).unwrap();
        for problem in absent_keys(&v) {
            failures.push(format!("{path}: {problem}"));
        }
        for (side, t) in v["tally"].as_object().unwrap() {
            if t.get("tricks").is_none() {
                failures.push(format!("{path}: tally of {side} has no `tricks`"));
            }
        }
        if let Some(c) = v.get("contract").filter(|c| !c.is_null()) {
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

/// The trick games whose table shows no trick number until the trump is made and play begins
/// (each game's `locus`, `Locus::of_play_once_begun`): the rest number the first trick from the
/// deal, or show the trick a cut or a spoil belongs to.
const NO_TRICK_BEFORE_PLAY: [&str; 5] = [
    "auction-solo",
    "bacon",
    "couillon",
    "nomination-whist",
    "twenty-nine",
];

/// In those games, the view before the first card shows no trick number (the auction, the trump
/// to name, a deal thrown in), but trick 1 once play begins (its lead awaited), and the view
/// after the first card shows trick 1. The same rule places a record error and the events
/// (`breaches`, clause 9); this pins the view itself.
#[test]
fn the_auction_shows_no_trick_number() {
    let mut failures = Vec::new();
    let mut checked = BTreeMap::new();
    for (path, game, record, _) in adjudicated() {
        let id = game.info().id;
        if !NO_TRICK_BEFORE_PLAY.contains(&id) {
            continue;
        }
        // A deal thrown in has no card: every view of it comes before the first.
        let first_card = record
            .actions
            .iter()
            .position(|x| CARD_VERBS.contains(&x.kind.verb.as_str()))
            .unwrap_or(record.actions.len());
        let mut prefix = record.clone();
        for at in 0..=(first_card + 1).min(record.actions.len()) {
            prefix.actions = record.actions[..at].to_vec();
            let Ok(view) = engine::legal_actions(game, &prefix) else {
                continue;
            };
            let expected = (at > first_card || view.phase == "play").then_some(1);
            if view.trick_number != expected {
                failures.push(format!(
                    "{path}: after {at} action(s) the view shows trick {:?}, not {expected:?}",
                    view.trick_number
                ));
            }
            *checked.entry(id).or_insert(0) += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each game's fixtures give views on both sides of the first card.
    assert_eq!(
        checked.keys().copied().collect::<Vec<_>>(),
        NO_TRICK_BEFORE_PLAY,
        "views checked: {checked:?}"
    );
}

/// The checker itself can fail: each clause it checks is caught when an adjudication that keeps
/// the contract is spoiled in that clause.
#[test]
fn the_contract_check_can_fail() {
    let all = adjudicated();
    let caught = |what: &str,
                  find: &dyn Fn(&str, &HandRecord, &Adjudication) -> bool,
                  spoil: &dyn Fn(&mut Adjudication)| {
        let (path, game, record, a) = all
            .iter()
            .find(|(_, g, r, a)| find(g.info().id, r, a))
            .unwrap_or_else(|| panic!("a fixture for {what}"));
        assert!(breaches(*game, record, a).is_empty(), "{path}");
        let mut spoiled = a.clone();
        spoil(&mut spoiled);
        assert!(
            !breaches(*game, record, &spoiled).is_empty(),
            "{what}: {path} spoiled is not caught"
        );
    };
    caught(
        "score items",
        &|_, _, a| a.hand_score.is_some() && !a.score_items.is_empty(),
        &|a| a.score_items[0].points += 1,
    );
    caught(
        "the tally's tricks",
        &|_, _, a| !a.tricks.is_empty(),
        &|a| {
            let side = a.match_before.scores.sides().next().unwrap();
            a.tally[side].tricks += 1;
        },
    );
    caught(
        "alone in Bacon",
        &|g, _, a| g == "bacon" && a.contract.is_some(),
        &|a| a.contract.as_mut().unwrap().alone = None,
    );
    caught(
        "alone elsewhere",
        &|g, _, a| g != "bacon" && a.contract.is_some(),
        &|a| a.contract.as_mut().unwrap().alone = Some(false),
    );
    caught(
        "C13",
        &|_, r, a| {
            let first = r
                .actions
                .iter()
                .position(|x| CARD_VERBS.contains(&x.kind.verb.as_str()));
            a.irregularities
                .iter()
                .any(|i| i.action_index.is_some_and(|x| first.is_none_or(|f| x < f)))
        },
        &|a| {
            for i in &mut a.irregularities {
                i.trick = Some(1);
            }
        },
    );
    caught(
        "C13 for record errors",
        &|_, _, a| a.record_error.as_ref().is_some_and(|e| e.trick.is_some()),
        &|a| a.record_error.as_mut().unwrap().trick = None,
    );
    caught(
        "an event's side",
        &|_, _, a| a.events.iter().any(|e| e.seat.is_some()),
        &|a| {
            for e in a.events.iter_mut() {
                e.seat = e.seat.map(|s| if s == Seat::N { Seat::E } else { Seat::N });
            }
        },
    );
    caught(
        "an event's trick",
        &|_, r, a| {
            let first = r
                .actions
                .iter()
                .position(|x| CARD_VERBS.contains(&x.kind.verb.as_str()));
            a.events.iter().any(|e| {
                e.trick.is_some()
                    && e.action_index
                        .is_some_and(|x| first.is_some_and(|f| x >= f))
            })
        },
        &|a| {
            for e in a.events.iter_mut() {
                e.trick = None;
            }
        },
    );
    caught(
        "card points per trick",
        &|_, _, a| a.tricks.iter().any(|t| t.complete && t.points.is_some()),
        &|a| {
            for t in a.tricks.iter_mut() {
                t.points = None;
            }
        },
    );
    caught(
        "the trick on the table at a record error",
        &|_, _, a| a.record_error.is_some() && a.tricks.last().is_some_and(|t| !t.complete),
        &|a| {
            a.tricks.pop();
        },
    );
    caught(
        "the trick on the table at a deciding foul",
        &|_, _, a| {
            a.record_error.is_none()
                && a.tricks.last().is_some_and(|t| !t.complete)
                && a.irregularities.iter().any(|i| i.effect.decides.is_some())
        },
        &|a| {
            a.tricks.pop();
        },
    );
    caught(
        "hands_played after a void hand or a misdeal",
        &|_, _, a| matches!(a.outcome, Outcome::Void | Outcome::Misdeal),
        &|a| a.match_after.hands_played += 1,
    );
    caught(
        "a part worth nothing",
        &|_, _, a| a.hand_score.is_some(),
        &|a| {
            let side = a.match_before.scores.sides().next().unwrap();
            a.score_items.push(engine::ScoreItem {
                side,
                points: 0,
                source: ScoreSource::Tricks,
                code: "tricks",
                action_index: None,
            });
        },
    );
    caught(
        "a trick completed after the end that counts",
        &|_, _, a| a.tricks.iter().any(|t| !t.counts),
        &|a| a.tricks.iter_mut().for_each(|t| t.counts = true),
    );
    caught(
        "a trick that counts marked as not",
        &|_, _, a| !a.ignored_actions.is_empty() && a.tricks.iter().any(|t| t.complete),
        &|a| a.tricks.iter_mut().for_each(|t| t.counts = false),
    );
    caught(
        "winners while the game goes on",
        &|_, _, a| !a.match_after.game_over,
        &|a| a.match_after.winners = a.match_before.scores.sides().take(1).collect(),
    );
    caught(
        "a carried field left out",
        &|g, _, _| g == "couillon",
        &|a| a.match_after.details = Default::default(),
    );
    caught(
        "a carried field the record did not send",
        &|g, r, a| {
            g == "briscola" && r.match_state.is_none() && a.match_before.scores.sides().count() == 2
        },
        &|a| {
            let sides: Vec<Side> = a.match_before.scores.sides().collect();
            a.match_before.details =
                arbiter::details::Details::of(serde_json::json!({"contenders": sides}));
        },
    );
    caught(
        "the seat due",
        &|_, _, a| {
            a.record_error
                .as_ref()
                .is_some_and(|e| e.code == "incomplete_hand" && e.seat.is_some())
        },
        &|a| a.record_error.as_mut().unwrap().seat = None,
    );
}

/// The presence check itself: a common field left out of an answer, an event's or a trick's,
/// and a card's `face_down` stated outside Truco, are each caught.
#[test]
fn the_presence_check_can_fail() {
    let all = adjudicated();
    let (_, _, _, a) = all
        .iter()
        .find(|(_, g, _, a)| {
            g.info().id == "twenty-nine" && !a.events.is_empty() && !a.tricks.is_empty()
        })
        .expect("a Twenty-Nine hand with events and tricks");
    let v = serde_json::to_value(a).unwrap();
    assert!(absent_keys(&v).is_empty());
    let spoiled = |spoil: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        spoil(&mut w);
        absent_keys(&w)
    };
    assert!(!spoiled(&|w| drop(w.as_object_mut().unwrap().remove("trump"))).is_empty());
    assert!(!spoiled(&|w| drop(w["events"][0].as_object_mut().unwrap().remove("side"))).is_empty());
    assert!(
        !spoiled(&|w| drop(w["tricks"][0].as_object_mut().unwrap().remove("complete"))).is_empty()
    );
    assert!(!spoiled(&|w| w["tricks"][0]["plays"][0]["face_down"] = Value::Bool(false)).is_empty());
}

/// README C2–C4, C11: `correct` belongs to every game's record (a game without revokes answers it
/// with `invalid_correct`); and an option means one thing in every game: `revoke_penalty` is the
/// rule file's §5 penalty (`default`) or none (README "Penalties"), in a game that has a revoke
/// (Truco's face-down penalty and Big Two's `penalties` are named for what they switch).
#[test]
fn every_game_has_correct_and_one_revoke_penalty_option() {
    for game in arbiter::games::all() {
        let info = game.info();
        assert!(info.verbs.contains(&"correct"), "{}: no correct", info.id);
        for option in info.options {
            if option.name == "revoke_penalty" {
                assert!(
                    info.irregularities.contains(&"revoke"),
                    "{}: revoke_penalty in a game without a revoke",
                    info.id
                );
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
