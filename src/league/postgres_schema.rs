//! The league store's schema on PostgreSQL, versioned like SQLite's (`schema`) but apart from it:
//! a new database starts at what SQLite's 18 migrations made (`postgres_schema.sql`), and each
//! migration after is one more entry here (2 is SQLite's 19).

use super::{Result, StoreError};
use futures_executor::block_on;
use tokio_postgres::Client;

/// Each migration, in order; the schema's version is how many have run.
const MIGRATIONS: [&str; 2] = [
    include_str!("postgres_schema.sql"),
    // 2, as SQLite's 19: an import counts the finishes on the hands it stores together
    // (`aggregates::count_deferred`); the trigger neither counts nor takes back such a finish.
    r#"
CREATE OR REPLACE FUNCTION match_finishes_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF EXISTS (SELECT 1 FROM counts_deferred
                    WHERE league_id = NEW.league_id AND NEW.finished_by > since) THEN
            RETURN NULL;
        END IF;
        INSERT INTO standing_totals (league_id, kind, who, matches_played, won, lost)
            SELECT NEW.league_id, kind, who, 1, NEW.won, NEW.lost FROM participants
             WHERE match_id = NEW.match_id AND side = NEW.side
            ON CONFLICT (league_id, kind, who) DO UPDATE
               SET matches_played = standing_totals.matches_played + 1,
                   won = standing_totals.won + excluded.won,
                   lost = standing_totals.lost + excluded.lost;
        INSERT INTO standing_places (league_id, kind, who, place, count)
            SELECT NEW.league_id, kind, who, NEW.place, 1 FROM participants
             WHERE match_id = NEW.match_id AND side = NEW.side
            ON CONFLICT (league_id, kind, who, place) DO UPDATE
               SET count = standing_places.count + 1;
    ELSE
        IF EXISTS (SELECT 1 FROM counts_deferred
                    WHERE league_id = OLD.league_id AND OLD.finished_by > since) THEN
            RETURN NULL;
        END IF;
        UPDATE standing_totals SET matches_played = matches_played - 1,
                                   won = won - OLD.won, lost = lost - OLD.lost
         WHERE league_id = OLD.league_id AND (kind, who) IN (
            SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
        UPDATE standing_places SET count = count - 1
         WHERE league_id = OLD.league_id AND place = OLD.place AND (kind, who) IN (
            SELECT kind, who FROM participants WHERE match_id = OLD.match_id AND side = OLD.side);
    END IF;
    RETURN NULL;
END $$;
"#,
];

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
