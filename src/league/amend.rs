//! Corrections: a stored hand amended (its record replaced) or voided, a player or session
//! renamed. A hand's correction adjudicates the match again from that hand on, in the caller's
//! transaction, so it lands whole or (when any hand no longer adjudicates) not at all. Every
//! correction is kept in the club's audit trail with what it replaced.

use super::db::{Arg, Row, Tx, args};
use super::model::*;
use super::packed::Packed;
use super::repo::{self, adjudicate, get_match, league_rules, set_match_state};
use super::{Result, StoreError};
use crate::engine::{FieldError, MatchState};
use crate::record::HandRecord;
use serde_json::{Value, json};

/// A stored hand of a match, as read for a correction.
struct StoredRow {
    id: i64,
    record: HandRecord,
    ruling: Ruling,
    adjudication: Value,
}

fn unreadable(hand: i64) -> impl Fn(serde_json::Error) -> StoreError {
    move |e| StoreError::Database(format!("hand {hand}: unreadable stored hand: {e}"))
}

/// The match's hands in order.
fn match_hands(tx: &Tx, match_id: i64) -> Result<Vec<StoredRow>> {
    let rows: Vec<(i64, Packed, Packed)> = tx.query_map(
        "SELECT id, record, adjudication FROM hands WHERE match_id = ?1 ORDER BY number",
        args![match_id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    rows.into_iter()
        .map(|(id, Packed(record), Packed(adjudication))| {
            Ok(StoredRow {
                id,
                record: serde_json::from_str(&record).map_err(unreadable(id))?,
                ruling: serde_json::from_str(&adjudication).map_err(unreadable(id))?,
                adjudication: serde_json::from_str(&adjudication).map_err(unreadable(id))?,
            })
        })
        .collect()
}

/// The match id of `club`'s hand `hand`.
pub fn match_of(tx: &Tx, club: i64, hand: i64) -> Result<i64> {
    tx.query_opt(
        "SELECT match_id FROM hands WHERE id = ?1 AND league_id IN (SELECT id FROM leagues WHERE club_id = ?2)",
        args![hand, club],
        |r| r.get(0),
    )?
    .ok_or_else(|| StoreError::NotFound(format!("no hand {hand} in club {club}")))
}

/// What to do to the hand.
enum Edit<'a> {
    Replace(&'a HandRecord),
    Void,
}

/// Replaces stored hand `hand`'s record with `record` and adjudicates its match again from it on.
pub fn amend_hand(
    tx: &Tx,
    club: i64,
    hand: i64,
    amendment: &HandAmendment,
    by: &Actor,
) -> Result<Correction> {
    let m = get_match(tx, club, match_of(tx, club, hand)?)?;
    let under = |e: Vec<FieldError>| e.into_iter().map(|e| e.under("/record")).collect();
    let errors = repo::check_players(&m, &amendment.record);
    if !errors.is_empty() {
        return Err(StoreError::Invalid(under(errors)));
    }
    correct(
        tx,
        club,
        &m,
        hand,
        Edit::Replace(&amendment.record),
        by,
        &amendment.note,
    )
}

/// Voids stored hand `hand`: it is removed from its match (its record and ruling are kept in the
/// audit trail) and the later hands are adjudicated again, numbered one less.
pub fn void_hand(tx: &Tx, club: i64, hand: i64, void: &HandVoid, by: &Actor) -> Result<Correction> {
    let m = get_match(tx, club, match_of(tx, club, hand)?)?;
    correct(tx, club, &m, hand, Edit::Void, by, &void.note)
}

fn correct(
    tx: &Tx,
    club: i64,
    m: &Match,
    hand: i64,
    edit: Edit,
    by: &Actor,
    note: &Option<String>,
) -> Result<Correction> {
    let (game, options) = league_rules(&repo::get_league(tx, club, m.league)?)?;
    let mut rows = match_hands(tx, m.id)?;
    let k = rows
        .iter()
        .position(|r| r.id == hand)
        .expect("the hand is in its match");
    let mut state = match k {
        0 => MatchState::default(),
        _ => rows[k - 1].ruling.match_after.clone(),
    };
    let target = &rows[k];
    let before = json!({
        "match": m.id,
        "number": k + 1,
        "record": target.record,
        "adjudication": target.adjudication,
    });
    let action = match edit {
        Edit::Replace(record) => {
            rows[k].record = record.clone();
            "amend_hand"
        }
        Edit::Void => {
            rows.remove(k);
            for table in repo::RULING_TABLES {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE hand_id = ?1"),
                    args![hand],
                )?;
            }
            tx.execute("DELETE FROM hands WHERE id = ?1", args![hand])?;
            "void_hand"
        }
    };
    let mut changed = Vec::new();
    for (i, row) in rows.iter().enumerate().skip(k) {
        let number = i as u32 + 1;
        let a = match adjudicate(game, &options, &state, &row.record, i as u32) {
            Ok(a) => a,
            Err(StoreError::Invalid(e)) if row.id == hand => {
                return Err(StoreError::Invalid(
                    e.into_iter().map(|e| e.under("/record")).collect(),
                ));
            }
            Err(StoreError::Invalid(e)) => {
                return Err(StoreError::Conflict(format!(
                    "after this correction, hand {} (hand {number} of match {}) no longer \
                     adjudicates: {}; nothing was changed (correct or void the later hands first)",
                    row.id, m.id, e[0].detail
                )));
            }
            Err(e) => return Err(e),
        };
        let after: Ruling = serde_json::from_value(serde_json::to_value(&a).expect("JSON"))
            .map_err(unreadable(row.id))?;
        repo::store_ruling(tx, row.id, number, &row.record, &a)?;
        if row.id == hand || after != row.ruling {
            changed.push(HandChange {
                hand: row.id,
                match_id: m.id,
                number,
                before: row.ruling.clone(),
                after,
            });
        }
        state = a.match_after;
    }
    set_match_state(tx, m.id, rows.len() as u32, &m.state, &state)?;
    let after = match edit {
        Edit::Replace(record) => {
            json!({"record": record, "changed": changed, "match_after": state})
        }
        Edit::Void => json!({"changed": changed, "match_after": state}),
    };
    let amendment = record(tx, club, by, action, ("hand", hand), &before, &after, note)?;
    Ok(Correction {
        amendment,
        action: action.into(),
        hand,
        match_id: m.id,
        changed,
        match_before: m.state.clone(),
        match_after: state,
    })
}

/// Renames player `id` of `club`.
pub fn rename_player(tx: &Tx, club: i64, id: i64, name: &str, by: &Actor) -> Result<Player> {
    let old = repo::get_player(tx, club, id)?;
    let name = normal_name(name);
    let taken = format!("club {club} has a player named '{name}'");
    if repo::player_named(tx, club, &name)?.is_some_and(|other| other != id) {
        return Err(StoreError::Conflict(taken));
    }
    tx.execute_unique(
        "UPDATE players SET name = ?2 WHERE id = ?1",
        args![id, name],
        || taken,
    )?;
    let renamed = repo::get_player(tx, club, id)?;
    let (before, after) = (json!({"name": old.name}), json!({"name": renamed.name}));
    record(
        tx,
        club,
        by,
        "rename_player",
        ("player", id),
        &before,
        &after,
        &None,
    )?;
    Ok(renamed)
}

/// Renames session `id` of `club`.
pub fn rename_session(tx: &Tx, club: i64, id: i64, name: &str, by: &Actor) -> Result<Session> {
    let old = repo::get_session(tx, club, id)?;
    tx.execute(
        "UPDATE sessions SET name = ?2 WHERE id = ?1",
        args![id, normal_name(name)],
    )?;
    let renamed = repo::get_session(tx, club, id)?;
    let (before, after) = (json!({"name": old.name}), json!({"name": renamed.name}));
    record(
        tx,
        club,
        by,
        "rename_session",
        ("session", id),
        &before,
        &after,
        &None,
    )?;
    Ok(renamed)
}

/// Adds an entry to the audit trail; returns its id.
#[allow(clippy::too_many_arguments)] // one column each
fn record(
    tx: &Tx,
    club: i64,
    by: &Actor,
    action: &str,
    (subject, subject_id): (&str, i64),
    before: &Value,
    after: &Value,
    note: &Option<String>,
) -> Result<i64> {
    tx.insert(
        "INSERT INTO amendments (club_id, by, action, subject, subject_id, before, after, note) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
        args![
            club,
            by.name(),
            action,
            subject,
            subject_id,
            before.to_string(),
            after.to_string(),
            note
        ],
    )
}

/// The club's audit trail, oldest first, by cursor.
pub fn list_amendments(tx: &Tx, club: i64, after: i64, limit: u32) -> Result<Page<Amendment>> {
    repo::get_club(tx, club)?;
    let sql = "SELECT id, at, by, action, subject, subject_id, before, after, note FROM amendments \
               WHERE club_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3";
    let args: [&dyn Arg; 2] = [&club, &after];
    repo::page(tx, sql, &args, limit, amendment, |a| a.id.to_string())
}

/// The query of a page of a stored hand's audit trail (its plan is pinned in `schema`'s tests).
pub(super) const HAND_AMENDMENTS: &str = "SELECT id, at, by, action, subject, subject_id, before, \
     after, note FROM amendments WHERE club_id = ?1 AND subject = 'hand' AND subject_id = ?3 \
     AND id > ?2 ORDER BY id LIMIT ?4";

/// The audit trail of `club`'s hand `hand`, oldest first: its amendments and its void. A voided
/// hand is no longer stored, but its trail is kept and listed; a hand neither stored nor in the
/// trail is not found.
pub fn hand_amendments(
    tx: &Tx,
    club: i64,
    hand: i64,
    after: i64,
    limit: u32,
) -> Result<Page<Amendment>> {
    repo::get_club(tx, club)?;
    let args: [&dyn Arg; 3] = [&club, &after, &hand];
    let page = repo::page(tx, HAND_AMENDMENTS, &args, limit, amendment, |a| {
        a.id.to_string()
    })?;
    // An empty page (past the end, or no trail at all): the hand must be stored or in the trail.
    if page.items.is_empty() {
        let in_trail = tx
            .query_opt(
                "SELECT 1 FROM amendments WHERE club_id = ?1 AND subject = 'hand' AND subject_id = ?2",
                args![club, hand],
                |_| Ok(()),
            )?
            .is_some();
        if !in_trail {
            match_of(tx, club, hand)?;
        }
    }
    Ok(page)
}

/// An audit trail row (the columns both lists select, in order).
fn amendment(r: &Row) -> Result<Amendment> {
    let json = |s: String| serde_json::from_str(&s).unwrap_or(Value::Null);
    Ok(Amendment {
        id: r.get(0)?,
        at: r.get(1)?,
        by: r.get(2)?,
        action: r.get(3)?,
        subject: r.get(4)?,
        subject_id: r.get(5)?,
        before: json(r.get(6)?),
        after: json(r.get(7)?),
        note: r.get(8)?,
    })
}
