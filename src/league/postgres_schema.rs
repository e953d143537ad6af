//! The league store's schema on PostgreSQL, versioned like SQLite's (`schema`) but apart from it:
//! a new database starts at what SQLite's 18 migrations made (`postgres_schema.sql`), and each
//! migration after is one more entry here.

use super::{Result, StoreError};
use futures_executor::block_on;
use tokio_postgres::Client;

/// Each migration, in order; the schema's version is how many have run.
const MIGRATIONS: [&str; 1] = [include_str!("postgres_schema.sql")];

/// Held by a migration for its transaction, so that replicas starting together migrate one after
/// the other: the second finds the schema up to date.
const MIGRATE_LOCK: i64 = i64::from_be_bytes(*b"arbiterm");

/// Brings the schema up to date, in one transaction.
pub fn migrate(client: &mut Client) -> Result<()> {
    let tx = block_on(client.transaction())?;
    block_on(tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATE_LOCK]))?;
    block_on(
        tx.batch_execute("CREATE TABLE IF NOT EXISTS arbiter_schema (version BIGINT NOT NULL)"),
    )?;
    let found = version(&tx)?;
    if found > MIGRATIONS.len() {
        return Err(StoreError::Database(newer(found)));
    }
    for migration in &MIGRATIONS[found..] {
        block_on(tx.batch_execute(migration))?;
    }
    block_on(tx.execute("DELETE FROM arbiter_schema", &[]))?;
    block_on(tx.execute(
        "INSERT INTO arbiter_schema (version) VALUES ($1)",
        &[&(MIGRATIONS.len() as i64)],
    ))?;
    block_on(tx.commit())?;
    Ok(())
}

/// The schema's version, when it is the one `migrate` brings a database to; otherwise what it is.
pub fn at_latest(client: &mut Client) -> std::result::Result<usize, String> {
    let found = version(client).map_err(|e| format!("{e:?}"))?;
    if found == MIGRATIONS.len() {
        Ok(found)
    } else {
        Err(format!(
            "the schema is at version {found}, and this arbiter's is {}",
            MIGRATIONS.len()
        ))
    }
}

fn version(client: &impl tokio_postgres::GenericClient) -> Result<usize> {
    let row = block_on(client.query_opt("SELECT max(version) FROM arbiter_schema", &[]))?;
    let version: Option<i64> = row.and_then(|r| r.get(0));
    Ok(version.unwrap_or(0) as usize)
}

fn newer(found: usize) -> String {
    format!(
        "the schema is at version {found}, newer than this arbiter's {}: run the newer arbiter",
        MIGRATIONS.len()
    )
}
