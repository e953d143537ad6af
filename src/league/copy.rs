//! Copying a league into PostgreSQL: a club whose SQLite file grows into a federation's database
//! keeps its history, every row as it was, ids included.
//!
//! The copy is one transaction on the target, taken with the store's write lock: all of it or
//! nothing, and no replica writes meanwhile. It reads one snapshot of the source. Derived tables
//! (the standings' totals, places and ratings, the leagues' generations) are copied as they
//! stand, with the target's counting triggers off for the copy: they would count every copied
//! hand a second time. Each identity then starts past the highest id copied, so that the next row
//! written gets the id SQLite would have given it.

use super::db::{Arg, Tx, args};
use super::{Backend, Result, Store, StoreError};
use rusqlite::types::Value;
use std::collections::BTreeSet;

/// The store's tables, each after those it references.
const TABLES: [&str; 22] = [
    "clubs",
    "api_keys",
    "players",
    "partnerships",
    "partnership_members",
    "leagues",
    "sessions",
    "matches",
    "match_seats",
    "match_sides",
    "hands",
    "hand_scores",
    "hand_irregularities",
    "hand_camps",
    "idempotency_keys",
    "amendments",
    "standing_totals",
    "standing_places",
    "camp_totals",
    "match_finishes",
    "match_ratings",
    "counts_deferred",
];

impl Store {
    /// Copies this store, an SQLite database, into `target`, an empty PostgreSQL database with
    /// the store's schema. Returns each table with the rows copied into it.
    pub fn copy_into(&self, target: &Store) -> Result<Vec<(&'static str, u64)>> {
        let (Backend::Sqlite { .. }, Backend::Postgres { .. }) = (&self.0, &target.0) else {
            return Err(StoreError::Database(
                "a copy reads an SQLite database and writes a PostgreSQL one".into(),
            ));
        };
        target.write(|to| {
            let clubs: i64 = to.query_row("SELECT count(*) FROM clubs", &[], |r| r.get(0))?;
            if clubs > 0 {
                return Err(StoreError::Conflict(format!(
                    "the target database already holds {clubs} club(s): a league is copied into \
                     an empty one"
                )));
            }
            self.read(|from| {
                same_tables(from, to)?;
                let triggers = |on: &str| {
                    TABLES
                        .map(|t| format!("ALTER TABLE {t} {on} TRIGGER USER;"))
                        .concat()
                };
                to.execute_batch(&triggers("DISABLE"))?;
                let copied = TABLES
                    .into_iter()
                    .map(|table| Ok((table, copy_table(from, to, table)?)))
                    .collect::<Result<Vec<_>>>()?;
                to.execute_batch(&triggers("ENABLE"))?;
                Ok(copied)
            })
        })
    }
}

/// Both databases hold the store's tables, and only those (a schema that grew a table this copy
/// does not know would lose it).
fn same_tables(from: &Tx, to: &Tx) -> Result<()> {
    let expected: BTreeSet<String> = TABLES.map(String::from).into();
    let sqlite: BTreeSet<String> = from
        .query_map(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            &[],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    let postgres: BTreeSet<String> = to
        .query_map(
            "SELECT table_name FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
             AND table_name <> 'arbiter_schema'",
            &[],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    for (name, found) in [("SQLite", sqlite), ("PostgreSQL", postgres)] {
        if found != expected {
            return Err(StoreError::Database(format!(
                "the {name} database's tables are not the ones this arbiter copies: {found:?}"
            )));
        }
    }
    Ok(())
}

/// Copies `table`'s rows (by id where it has one, so that a row comes after any it references),
/// then moves its identity past them. Returns how many rows it copied.
fn copy_table(from: &Tx, to: &Tx, table: &str) -> Result<u64> {
    let columns: Vec<String> = to.query_map(
        "SELECT column_name FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = ?1 ORDER BY ordinal_position",
        args![table],
        |r| r.get(0),
    )?;
    let source: BTreeSet<String> = from
        .query_map(
            "SELECT name FROM pragma_table_info(?1)",
            args![table],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    if source != columns.iter().cloned().collect() {
        return Err(StoreError::Database(format!(
            "table {table}: the SQLite database's columns {source:?} are not PostgreSQL's {columns:?}"
        )));
    }
    let listed = columns
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let has_id = columns.iter().any(|c| c == "id");
    let order = if has_id { " ORDER BY id" } else { "" };
    let mut rows_in = to.copy_in(table, &listed)?;
    let mut select = from.prepare(&format!("SELECT {listed} FROM {table}{order}"))?;
    let mut rows = select.query(&[])?;
    let mut values: Vec<Value> = Vec::with_capacity(columns.len());
    while let Some(row) = rows.next()? {
        values.clear();
        for i in 0..columns.len() {
            values.push(row.get(i)?);
        }
        let row: Vec<&dyn Arg> = values.iter().map(|v| v as &dyn Arg).collect();
        rows_in.write(&row)?;
    }
    let copied = rows_in.finish()?;
    if has_id {
        to.query_opt(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table} \
                 HAVING count(*) > 0"
            ),
            &[],
            |_| Ok(()),
        )?;
    }
    Ok(copied)
}
