//! The league's SQL, apart from the database that runs it. Every read and write of the store goes
//! through a `Tx` (one transaction), its cached `Statement`s and the `Row`s they return, with
//! arguments and columns of the few types the schema holds (`Arg`, `Column`). The store's code
//! names no database library: SQLite and PostgreSQL are two arms here, not two copies of the
//! store. The schema and its migrations are each backend's own (`schema`, `postgres_schema`).
//!
//! The store's statements are written in the SQL both databases read:
//! - a new row's id is read with `RETURNING id`, not SQLite's `last_insert_rowid` (`Tx::insert`
//!   reads it so on SQLite, where it is faster);
//! - upserts name their conflict target (`ON CONFLICT (...) DO UPDATE`, `DO NOTHING`), not
//!   `INSERT OR REPLACE` or `INSERT OR IGNORE`;
//! - `CASE WHEN`, not `iif`;
//! - a time the store writes itself is given as an argument (`now`, `timestamp`), not made by
//!   `strftime`;
//! - a broken unique constraint is a conflict by `execute_unique` and `insert_unique`, not by a
//!   backend's error code at each call.

use super::{Result, StoreError};
use bytes::BytesMut;
use futures_executor::block_on;
use rusqlite::config::DbConfig;
use rusqlite::types::{FromSql, Value};
use std::borrow::Cow;
use std::cell::RefCell;
use std::pin::Pin;
use time::OffsetDateTime;
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{IsNull, Type};

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
pub struct Tx<'t>(Backend<'t>);

enum Backend<'t> {
    Sqlite(&'t rusqlite::Transaction<'t>),
    /// A PostgreSQL transaction takes `&mut` for every statement; the store's code reads rows of
    /// one statement while it runs others, so the rows of each are read whole first. Beside it, the
    /// statements its connection keeps prepared.
    Postgres(
        RefCell<tokio_postgres::Transaction<'t>>,
        RefCell<&'t mut super::pg::Prepared>,
    ),
}

/// Rows on their way into a table by `Tx::copy_in`.
pub struct CopyIn(Pin<Box<BinaryCopyInWriter>>);

impl CopyIn {
    /// Appends one row, its values in the columns' order.
    pub fn write(&mut self, row: &[&dyn Arg]) -> Result<()> {
        let row: Vec<PgArg> = row.iter().map(|a| a.postgres()).collect();
        Ok(block_on(self.0.as_mut().write(&as_sql(&row)))?)
    }

    /// Ends the copy; returns how many rows it appended.
    pub fn finish(mut self) -> Result<u64> {
        Ok(block_on(self.0.as_mut().finish())?)
    }
}

/// A value bound to a statement's `?N`: one of the types the schema stores.
pub trait Arg: rusqlite::ToSql + Sync {
    /// The value as PostgreSQL takes it, converted to the parameter's type there.
    fn postgres(&self) -> PgArg<'_>;
}

/// An argument on its way to PostgreSQL. SQLite keeps any value in any column; PostgreSQL's
/// columns are typed, and a parameter's type is the column's (a count kept as a flag, a flag
/// compared with a count), so each is converted to the type the statement expects.
#[derive(Debug)]
pub enum PgArg<'a> {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(&'a str),
    Bytes(Cow<'a, [u8]>),
}

impl Arg for i64 {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Int(*self)
    }
}
impl Arg for i32 {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Int(i64::from(*self))
    }
}
impl Arg for u32 {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Int(i64::from(*self))
    }
}
impl Arg for u16 {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Int(i64::from(*self))
    }
}
impl Arg for f64 {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Real(*self)
    }
}
impl Arg for bool {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Bool(*self)
    }
}
impl Arg for str {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Text(self)
    }
}
impl Arg for String {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Text(self)
    }
}
impl Arg for [u8] {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Bytes(Cow::Borrowed(self))
    }
}
impl Arg for Vec<u8> {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Bytes(Cow::Borrowed(self))
    }
}
impl Arg for super::Packed {
    fn postgres(&self) -> PgArg<'_> {
        PgArg::Bytes(Cow::Owned(self.pack()))
    }
}
/// Any value, as a copy of a whole table reads and writes it.
impl Arg for Value {
    fn postgres(&self) -> PgArg<'_> {
        match self {
            Value::Null => PgArg::Null,
            Value::Integer(i) => PgArg::Int(*i),
            Value::Real(r) => PgArg::Real(*r),
            Value::Text(t) => PgArg::Text(t),
            Value::Blob(b) => PgArg::Bytes(Cow::Borrowed(b)),
        }
    }
}
impl<T: Arg + ?Sized> Arg for &T {
    fn postgres(&self) -> PgArg<'_> {
        (**self).postgres()
    }
}
impl<T: Arg> Arg for Option<T> {
    fn postgres(&self) -> PgArg<'_> {
        self.as_ref().map_or(PgArg::Null, Arg::postgres)
    }
}

impl tokio_postgres::types::ToSql for PgArg<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        let mismatch = || format!("{self:?} is not a {ty}").into();
        match (self, ty) {
            (PgArg::Null, _) => Ok(IsNull::Yes),
            (PgArg::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (PgArg::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (PgArg::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (PgArg::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (PgArg::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (PgArg::Bool(b), &Type::BOOL) => b.to_sql(ty, out),
            (PgArg::Bool(b), &Type::INT8) => i64::from(*b).to_sql(ty, out),
            (PgArg::Bool(b), &Type::INT4) => i32::from(*b).to_sql(ty, out),
            (PgArg::Real(r), &Type::FLOAT8) => r.to_sql(ty, out),
            (PgArg::Real(r), &Type::FLOAT4) => (*r as f32).to_sql(ty, out),
            (PgArg::Text(t), &Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME) => {
                t.to_sql(ty, out)
            }
            (PgArg::Bytes(b), &Type::BYTEA) => b.as_ref().to_sql(ty, out),
            _ => Err(mismatch()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// A statement's arguments in order (`?1`, `?2`, ...), each borrowed as an `Arg`.
macro_rules! args {
    ($($arg:expr),* $(,)?) => {
        &[$(&$arg as &dyn $crate::league::db::Arg),*] as &[&dyn $crate::league::db::Arg]
    };
}
pub(crate) use args;

/// A column's value as read: one of the types the schema stores.
pub trait Column: FromSql {
    /// The value of a PostgreSQL column of type `ty` (`None`: NULL), in its binary form.
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String>;
}

/// A PostgreSQL integer column of any width.
fn pg_int(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<i64, String> {
    use tokio_postgres::types::FromSql;
    let raw = raw.ok_or("a NULL where a number was expected")?;
    let int = match *ty {
        Type::INT8 => i64::from_sql(ty, raw),
        Type::INT4 => i32::from_sql(ty, raw).map(i64::from),
        Type::INT2 => i16::from_sql(ty, raw).map(i64::from),
        Type::BOOL => bool::from_sql(ty, raw).map(i64::from),
        _ => return Err(format!("a {ty} where a number was expected")),
    };
    int.map_err(|e| e.to_string())
}

/// A PostgreSQL column of type `T` there.
fn pg<'a, T: tokio_postgres::types::FromSql<'a>>(
    ty: &Type,
    raw: Option<&'a [u8]>,
) -> std::result::Result<T, String> {
    match raw {
        Some(raw) if T::accepts(ty) => T::from_sql(ty, raw).map_err(|e| e.to_string()),
        Some(_) => Err(format!(
            "a {ty} where a {} was expected",
            std::any::type_name::<T>()
        )),
        None => T::from_sql_null(ty).map_err(|e| e.to_string()),
    }
}

impl Column for i64 {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        pg_int(ty, raw)
    }
}
impl Column for u32 {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        u32::try_from(pg_int(ty, raw)?).map_err(|e| e.to_string())
    }
}
impl Column for u16 {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        u16::try_from(pg_int(ty, raw)?).map_err(|e| e.to_string())
    }
}
impl Column for f64 {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        match *ty {
            Type::FLOAT8 => pg(ty, raw),
            _ => pg_int(ty, raw).map(|i| i as f64),
        }
    }
}
impl Column for bool {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        pg_int(ty, raw).map(|i| i != 0)
    }
}
impl Column for String {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        pg(ty, raw)
    }
}
impl Column for Vec<u8> {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        pg(ty, raw)
    }
}
impl Column for super::Packed {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        super::Packed::unpack(pg::<&[u8]>(ty, raw)?)
    }
}
impl Column for Value {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        Ok(match (raw, ty) {
            (None, _) => Value::Null,
            (_, &Type::INT8 | &Type::INT4 | &Type::INT2 | &Type::BOOL) => {
                Value::Integer(pg_int(ty, raw)?)
            }
            (_, &Type::FLOAT8) => Value::Real(pg(ty, raw)?),
            (_, &Type::BYTEA) => Value::Blob(pg(ty, raw)?),
            _ => Value::Text(pg(ty, raw)?),
        })
    }
}
impl<T: Column> Column for Option<T> {
    fn postgres(ty: &Type, raw: Option<&[u8]>) -> std::result::Result<Self, String> {
        raw.map(|raw| T::postgres(ty, Some(raw))).transpose()
    }
}

/// A column's bytes as PostgreSQL sent them, whatever its type.
struct Raw<'a>(&'a [u8]);

impl<'a> tokio_postgres::types::FromSql<'a> for Raw<'a> {
    fn from_sql(
        _: &Type,
        raw: &'a [u8],
    ) -> std::result::Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(raw))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// `sql` with SQLite's numbered parameters (`?1`) as PostgreSQL's (`$1`), outside quotes.
fn numbered_as_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '?') => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        StoreError::Database(match e.as_db_error() {
            Some(db) => format!("{} ({})", db.message(), db.code().code()),
            // The database went away after the connection left the pool (its check there costs
            // no round trip): the same outage as finding no connection, and said the same way.
            None if e.is_closed() => format!("no connection to the database: {e}"),
            None => e.to_string(),
        })
    }
}

impl<'t> Tx<'t> {
    /// The store's view of an SQLite transaction.
    pub fn sqlite(tx: &'t rusqlite::Transaction<'t>) -> Tx<'t> {
        Tx(Backend::Sqlite(tx))
    }

    /// The store's view of a PostgreSQL transaction, on a connection that keeps `prepared`.
    pub fn postgres(
        tx: tokio_postgres::Transaction<'t>,
        prepared: &'t mut super::pg::Prepared,
    ) -> Tx<'t> {
        Tx(Backend::Postgres(RefCell::new(tx), RefCell::new(prepared)))
    }

    /// The PostgreSQL transaction, to commit.
    pub fn into_postgres(self) -> Option<tokio_postgres::Transaction<'t>> {
        match self.0 {
            Backend::Postgres(tx, _) => Some(tx.into_inner()),
            Backend::Sqlite(_) => None,
        }
    }

    /// `sql`, prepared once per connection and kept.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        Ok(match &self.0 {
            Backend::Sqlite(tx) => Statement::Sqlite(tx.prepare_cached(sql)?),
            Backend::Postgres(tx, prepared) => {
                let kept = prepared.borrow().get(sql);
                let st = match kept {
                    Some(st) => st,
                    None => {
                        let st = block_on(tx.borrow_mut().prepare(&numbered_as_postgres(sql)))?;
                        prepared.borrow_mut().keep(sql, st.clone());
                        st
                    }
                };
                Statement::Postgres(tx as &dyn PgTransaction, st)
            }
        })
    }

    /// Runs `f` with SQLite's triggers off, for writes whose triggers have nothing to do that the
    /// caller does not do itself (an import's hand rows while their counts are deferred: each
    /// trigger would test its `WHEN` and stop). SQLite allocates and zeroes a trigger's whole
    /// frame before it tests `WHEN`: a fifth of an import's write. Turning them off or on again
    /// makes SQLite prepare this connection's statements again at their next use: once a write,
    /// not once a row. PostgreSQL runs its triggers as usual, at no such cost.
    pub fn with_idle_triggers_off<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let Backend::Sqlite(tx) = &self.0 else {
            return f();
        };
        /// Turns the triggers back on however `f` ends, an error or a panic included: the
        /// writer's connection serves every later write.
        struct Restore<'c>(&'c rusqlite::Connection);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0
                    .set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, true)
                    .expect("turning triggers on is a known option of sqlite3_db_config");
            }
        }
        tx.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
        let _restore = Restore(tx);
        f()
    }

    /// Runs `sql`; returns how many rows it changed.
    pub fn execute(&self, sql: &str, args: &[&dyn Arg]) -> Result<usize> {
        self.prepare(sql)?.execute(args)
    }

    /// Runs `sql`, an `INSERT ... RETURNING id` of one row; returns the new row's id. SQLite runs
    /// it without `RETURNING` and reads the row's id as `last_insert_rowid`: for `RETURNING` it
    /// makes a table, at each run, to hold the rows returned.
    pub fn insert(&self, sql: &str, args: &[&dyn Arg]) -> Result<i64> {
        let (Backend::Sqlite(tx), Some(insert)) = (&self.0, sql.strip_suffix(" RETURNING id"))
        else {
            return self.query_row(sql, args, |r| r.get(0));
        };
        match self.execute(insert, args)? {
            1 => Ok(tx.last_insert_rowid()),
            n => Err(StoreError::Database(format!(
                "an insert of one row changed {n}: {insert}"
            ))),
        }
    }

    /// Runs `sql`, whose unique constraints stand for `conflict`: a row that breaks one is that
    /// conflict (409), not a failure of the database.
    pub fn execute_unique(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        conflict: impl FnOnce() -> String,
    ) -> Result<usize> {
        match self.prepare(sql)? {
            Statement::Sqlite(mut st) => {
                st.execute(params(args)).map_err(|e| unique_or(e, conflict))
            }
            Statement::Postgres(tx, st) => tx
                .execute(&st, &pg_params(args))
                .map(|n| n as usize)
                .map_err(|e| pg_unique_or(e, conflict)),
        }
    }

    /// Runs `sql`, an `INSERT ... RETURNING id`, under unique constraints that stand for
    /// `conflict` (as `execute_unique`); returns the new row's id.
    pub fn insert_unique(
        &self,
        sql: &str,
        args: &[&dyn Arg],
        conflict: impl FnOnce() -> String,
    ) -> Result<i64> {
        match self.prepare(sql)? {
            Statement::Sqlite(mut st) => st
                .query_row(params(args), |r| r.get(0))
                .map_err(|e| unique_or(e, conflict)),
            Statement::Postgres(tx, st) => {
                let rows = tx
                    .query(&st, &pg_params(args))
                    .map_err(|e| pg_unique_or(e, conflict))?;
                let row = rows.first().ok_or(rusqlite::Error::QueryReturnedNoRows)?;
                Row::Postgres(row).get(0)
            }
        }
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
        match &self.0 {
            Backend::Sqlite(tx) => Ok(tx.execute_batch(sql)?),
            Backend::Postgres(tx, _) => Ok(block_on(tx.borrow_mut().batch_execute(sql))?),
        }
    }

    /// Rows appended to `table`'s `columns` (quoted names) in bulk: PostgreSQL's binary `COPY`,
    /// each value converted to its column's type. Only on PostgreSQL, which a copy of a league
    /// writes to.
    pub fn copy_in(&self, table: &str, columns: &str) -> Result<CopyIn> {
        let Backend::Postgres(tx, _) = &self.0 else {
            return Err(StoreError::Database(
                "a bulk copy writes to PostgreSQL only".into(),
            ));
        };
        let tx = tx.borrow();
        let types: Vec<Type> = block_on(tx.prepare(&format!("SELECT {columns} FROM {table}")))?
            .columns()
            .iter()
            .map(|c| c.type_().clone())
            .collect();
        let sql = format!("COPY {table} ({columns}) FROM STDIN (FORMAT binary)");
        let sink = block_on(tx.copy_in(&sql))?;
        Ok(CopyIn(Box::pin(BinaryCopyInWriter::new(sink, &types))))
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

/// `unique_or` for PostgreSQL.
fn pg_unique_or(e: tokio_postgres::Error, conflict: impl FnOnce() -> String) -> StoreError {
    match e.code() {
        Some(&SqlState::UNIQUE_VIOLATION) => StoreError::Conflict(conflict()),
        _ => e.into(),
    }
}

fn params<'a>(args: &'a [&'a dyn Arg]) -> impl rusqlite::Params + 'a {
    rusqlite::params_from_iter(args.iter().map(|a| *a as &dyn rusqlite::ToSql))
}

fn pg_params<'a>(args: &'a [&'a dyn Arg]) -> Vec<PgArg<'a>> {
    args.iter().map(|a| a.postgres()).collect()
}

/// A prepared statement, kept by its connection for the next call with the same SQL.
pub enum Statement<'t> {
    Sqlite(rusqlite::CachedStatement<'t>),
    Postgres(&'t dyn PgTransaction, tokio_postgres::Statement),
}

/// What a statement runs on: the PostgreSQL transaction (whose own lifetime this hides).
pub trait PgTransaction {
    fn execute(
        &self,
        st: &tokio_postgres::Statement,
        args: &[PgArg],
    ) -> std::result::Result<u64, tokio_postgres::Error>;
    fn query(
        &self,
        st: &tokio_postgres::Statement,
        args: &[PgArg],
    ) -> std::result::Result<Vec<tokio_postgres::Row>, tokio_postgres::Error>;
}

/// `args` as tokio-postgres takes a statement's parameters.
fn as_sql<'a>(args: &'a [PgArg]) -> Vec<&'a (dyn tokio_postgres::types::ToSql + Sync)> {
    args.iter().map(|a| a as _).collect()
}

impl PgTransaction for RefCell<tokio_postgres::Transaction<'_>> {
    fn execute(
        &self,
        st: &tokio_postgres::Statement,
        args: &[PgArg],
    ) -> std::result::Result<u64, tokio_postgres::Error> {
        block_on(self.borrow_mut().execute(st, &as_sql(args)))
    }

    fn query(
        &self,
        st: &tokio_postgres::Statement,
        args: &[PgArg],
    ) -> std::result::Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
        block_on(self.borrow_mut().query(st, &as_sql(args)))
    }
}

impl Statement<'_> {
    /// Runs the statement; returns how many rows it changed.
    pub fn execute(&mut self, args: &[&dyn Arg]) -> Result<usize> {
        match self {
            Statement::Sqlite(st) => Ok(st.execute(params(args))?),
            Statement::Postgres(tx, st) => Ok(tx.execute(st, &pg_params(args))? as usize),
        }
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
        match self {
            Statement::Sqlite(st) => Ok(Rows::Sqlite(st.query(params(args))?)),
            Statement::Postgres(tx, st) => {
                let rows = tx.query(st, &pg_params(args))?;
                Ok(Rows::Postgres(rows.into_iter(), None))
            }
        }
    }
}

/// The rows of a query, read one at a time.
pub enum Rows<'s> {
    Sqlite(rusqlite::Rows<'s>),
    /// Read whole (see `Backend::Postgres`); the one being read.
    Postgres(
        std::vec::IntoIter<tokio_postgres::Row>,
        Option<tokio_postgres::Row>,
    ),
}

impl Rows<'_> {
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match self {
            Rows::Sqlite(rows) => Ok(rows.next()?.map(Row::Sqlite)),
            Rows::Postgres(rows, current) => {
                *current = rows.next();
                Ok(current.as_ref().map(Row::Postgres))
            }
        }
    }
}

/// One row of a query's result.
pub enum Row<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r tokio_postgres::Row),
}

impl Row<'_> {
    /// Column `i` (from 0).
    pub fn get<T: Column>(&self, i: usize) -> Result<T> {
        match self {
            Row::Sqlite(r) => Ok(r.get(i)?),
            Row::Postgres(r) => {
                let ty = r.columns()[i].type_();
                let raw: Option<Raw> = r.try_get(i)?;
                T::postgres(ty, raw.map(|r| r.0)).map_err(|e| {
                    StoreError::Database(format!("column {} ({ty}): {e}", r.columns()[i].name()))
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The triggers are off inside `with_idle_triggers_off` and on again after it, an error
    /// included; a one-row insert reads the new row's id as `RETURNING` would.
    #[test]
    fn triggers_come_back_on_after_a_write_with_them_off() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER);
             CREATE TABLE fired (v INTEGER);
             CREATE TRIGGER t_fires AFTER INSERT ON t BEGIN INSERT INTO fired VALUES (NEW.v); END;",
        )
        .unwrap();
        let sqlite = conn.transaction().unwrap();
        let tx = Tx::sqlite(&sqlite);
        let insert = |v: i64| tx.insert("INSERT INTO t (v) VALUES (?1) RETURNING id", args![v]);
        assert_eq!(insert(1).unwrap(), 1);
        let failed: Result<()> = tx.with_idle_triggers_off(|| {
            assert_eq!(insert(2)?, 2);
            Err(StoreError::Database("a write that fails".into()))
        });
        assert!(failed.is_err());
        assert_eq!(insert(3).unwrap(), 3);
        let fired: Vec<i64> = tx
            .query_map("SELECT v FROM fired ORDER BY v", args![], |r| r.get(0))
            .unwrap();
        assert_eq!(fired, [1, 3]);
    }

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
