//! The league's SQL, apart from the database that runs it. Every read and write of the store goes
//! through a `Tx` (one transaction), its cached `Statement`s and the `Row`s they return, with
//! arguments and columns of the few types the schema holds (`Arg`, `Column`). The store's code
//! names no database library, so that a second backend (issue 27: PostgreSQL) is one more arm
//! here rather than a second copy of the store. The schema and its migrations stay each backend's
//! own (`schema`).
//!
//! The store's statements are written in the SQL both databases read:
//! - a new row's id is read with `RETURNING id`, not SQLite's `last_insert_rowid`;
//! - upserts name their conflict target (`ON CONFLICT (...) DO UPDATE`, `DO NOTHING`), not
//!   `INSERT OR REPLACE` or `INSERT OR IGNORE`;
//! - `CASE WHEN`, not `iif`;
//! - a time the store writes itself is given as an argument (`now`, `timestamp`), not made by
//!   `strftime`;
//! - a broken unique constraint is a conflict by `execute_unique` and `insert_unique`, not by a
//!   backend's error code at each call.

use super::{Result, StoreError};
use rusqlite::types::FromSql;
use time::OffsetDateTime;

/// `at` as the store keeps times: UTC to the second, `2026-11-30T06:19:44Z`, as the schema's
/// column defaults write them (SQLite's `strftime('%Y-%m-%dT%H:%M:%SZ', 'now')`). Text of one
/// width in one zone, so that times compare as text.
pub fn timestamp(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// The time now, as `timestamp` writes it.
pub fn now() -> String {
    timestamp(OffsetDateTime::now_utc())
}

/// One transaction on the league's database.
pub struct Tx<'t> {
    sqlite: &'t rusqlite::Transaction<'t>,
}

/// A value bound to a statement's `?N`: one of the types the schema stores.
pub trait Arg: rusqlite::ToSql {}

impl Arg for i64 {}
impl Arg for i32 {}
impl Arg for u32 {}
impl Arg for u16 {}
impl Arg for f64 {}
impl Arg for bool {}
impl Arg for str {}
impl Arg for String {}
impl Arg for [u8] {}
impl Arg for Vec<u8> {}
impl Arg for super::Packed {}
impl<T: Arg + ?Sized> Arg for &T {}
impl<T: Arg> Arg for Option<T> {}

/// A statement's arguments in order (`?1`, `?2`, ...), each borrowed as an `Arg`.
macro_rules! args {
    ($($arg:expr),* $(,)?) => {
        &[$(&$arg as &dyn $crate::league::db::Arg),*] as &[&dyn $crate::league::db::Arg]
    };
}
pub(crate) use args;

/// A column's value as read: one of the types the schema stores.
pub trait Column: FromSql {}

impl Column for i64 {}
impl Column for u32 {}
impl Column for u16 {}
impl Column for f64 {}
impl Column for bool {}
impl Column for String {}
impl Column for Vec<u8> {}
impl Column for super::Packed {}
impl<T: Column> Column for Option<T> {}

impl<'t> Tx<'t> {
    /// The store's view of an SQLite transaction.
    pub fn sqlite(tx: &'t rusqlite::Transaction<'t>) -> Tx<'t> {
        Tx { sqlite: tx }
    }

    /// `sql`, prepared once per connection and kept.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'t>> {
        Ok(Statement(self.sqlite.prepare_cached(sql)?))
    }

    /// Runs `sql`; returns how many rows it changed.
    pub fn execute(&self, sql: &str, args: &[&dyn Arg]) -> Result<usize> {
        self.prepare(sql)?.execute(args)
    }

    /// Runs `sql`, an `INSERT ... RETURNING id`; returns the new row's id.
    pub fn insert(&self, sql: &str, args: &[&dyn Arg]) -> Result<i64> {
        self.query_row(sql, args, |r| r.get(0))
    }

    /// Runs `sql`, whose unique constraints stand for `conflict`: a row that breaks one is that
    /// conflict (409), not a failure of the database.
    pub fn execute_unique(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        conflict: impl FnOnce() -> String,
    ) -> Result<usize> {
        let mut st = self.prepare(sql)?;
        st.0.execute(params(args))
            .map_err(|e| unique_or(e, conflict))
    }

    /// Runs `sql`, an `INSERT ... RETURNING id`, under unique constraints that stand for
    /// `conflict` (as `execute_unique`); returns the new row's id.
    pub fn insert_unique(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        conflict: impl FnOnce() -> String,
    ) -> Result<i64> {
        let mut st = self.prepare(sql)?;
        st.0.query_row(params(args), |r| r.get(0))
            .map_err(|e| unique_or(e, conflict))
    }

    /// The one row `sql` returns, read by `f`.
    pub fn query_row<T>(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.prepare(sql)?.query_row(args, f)
    }

    /// The first row `sql` returns, if any, read by `f`.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        self.prepare(sql)?.query_opt(args, f)
    }

    /// Every row `sql` returns, each read by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.prepare(sql)?.query_map(args, f)
    }

    /// Runs statements without arguments, one after another.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        Ok(self.sqlite.execute_batch(sql)?)
    }
}

/// `conflict` for an error that breaks a unique constraint; any other, as it is.
fn unique_or(e: rusqlite::Error, conflict: impl FnOnce() -> String) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
        {
            StoreError::Conflict(conflict())
        }
        e => e.into(),
    }
}

fn params<'a>(args: &'a [&'a dyn Arg]) -> impl rusqlite::Params + 'a {
    rusqlite::params_from_iter(args.iter().map(|a| *a as &dyn rusqlite::ToSql))
}

/// A prepared statement, kept by its connection for the next call with the same SQL.
pub struct Statement<'t>(rusqlite::CachedStatement<'t>);

impl Statement<'_> {
    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, args: &[&dyn Arg]) -> Result<usize> {
        Ok(self.0.execute(params(args))?)
    }

    /// The one row the statement returns, read by `f`.
    pub fn query_row<T>(
        &mut self,
        args: &[&dyn Arg],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(args, f)?
            .ok_or_else(|| rusqlite::Error::QueryReturnedNoRows.into())
    }

    /// The first row the statement returns, if any, read by `f`.
    pub fn query_opt<T>(
        &mut self,
        args: &[&dyn Arg],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        let mut rows = self.query(args)?;
        match rows.next()? {
            Some(r) => f(&r).map(Some),
            None => Ok(None),
        }
    }

    /// Every row the statement returns, each read by `f`.
    pub fn query_map<T>(
        &mut self,
        args: &[&dyn Arg],
        mut f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut rows = self.query(args)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(f(&r)?);
        }
        Ok(out)
    }

    /// The rows the statement returns, one at a time.
    pub fn query(&mut self, args: &[&dyn Arg]) -> Result<Rows<'_>> {
        Ok(Rows(self.0.query(params(args))?))
    }
}

/// The rows of a query, read one at a time.
pub struct Rows<'s>(rusqlite::Rows<'s>);

impl Rows<'_> {
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        Ok(self.0.next()?.map(Row))
    }
}

/// One row of a query's result.
pub struct Row<'r>(&'r rusqlite::Row<'r>);

impl Row<'_> {
    /// Column `i` (from 0).
    pub fn get<T: Column>(&self, i: usize) -> Result<T> {
        Ok(self.0.get(i)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The store's own times read as the schema's defaults write them, so that the two
        /// compare as text (`created_at` against the idempotency window's start, say).
        #[test]
        fn a_time_is_written_as_the_schema_writes_it(seconds in -62_135_596_800i64..253_402_300_799) {
            let conn = rusqlite::Connection::open_in_memory().unwrap();
            let sqlite: String = conn
                .query_row(
                    "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', ?1, 'unixepoch')",
                    [seconds],
                    |r| r.get(0),
                )
                .unwrap();
            let at = OffsetDateTime::from_unix_timestamp(seconds).unwrap();
            prop_assert_eq!(timestamp(at), sqlite);
        }
    }

    #[test]
    fn a_time_in_another_zone_is_written_in_utc() {
        let at = OffsetDateTime::from_unix_timestamp(0)
            .unwrap()
            .to_offset(time::UtcOffset::from_hms(5, 30, 0).unwrap());
        assert_eq!(timestamp(at), "1970-01-01T00:00:00Z");
    }
}
