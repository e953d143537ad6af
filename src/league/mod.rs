//! The league store: clubs, leagues, players, partnerships, sessions, matches and their hands, in
//! one SQLite file (the default) or one PostgreSQL database (several replicas may share it). Hands
//! keep the record as posted and its adjudication, so history can be replayed after a rules fix.
//! The store never scores: every hand goes through the engine on the way in.
//!
//! Concurrency on SQLite: one writer connection behind a mutex (writes queue in the process
//! instead of racing for SQLite's lock) and two pools of readers, which WAL lets run beside the
//! writer: one for cheap reads, and a small one of its own for expensive reads (standings, sheet
//! exports), so that a flood of one never waits for a connection held by the other. Every write is
//! one `BEGIN IMMEDIATE` transaction, so a request either lands whole or not at all.
//!
//! On PostgreSQL: a pool of connections, and a small one for expensive reads. A read is one
//! repeatable-read snapshot; a write is one transaction that first takes `WRITE_LOCK`, so that
//! writes run one at a time across every replica, as SQLite's one writer runs them.

mod aggregates;
mod amend;
mod copy;
mod csv;
mod db;
mod keys;
mod model;
mod packed;
mod pg;
mod postgres_schema;
mod repo;
mod schema;
mod standings;

pub use amend::{
    amend_hand, hand_amendments, list_amendments, match_of, rename_player, rename_session,
    void_hand,
};
pub use csv::{
    MAX_ROWS, MAX_SHEET, PlannedMatch, PreparedImport, SHEET_COLUMNS, SheetPage, hands_table,
    import, plan_sheet, prepare_import, publish, sheet_header, sheet_rows, sheet_template,
    standings_table,
};
pub use db::{Arg, Row, Tx};
pub use keys::{ApiKey, KeyInfo, is_key_id};
pub use model::*;
pub use packed::Packed;
pub use repo::*;
pub use standings::{
    CampRecord, PartnershipStanding, PlayerStanding, Rating, Record, Standings, generation,
    standings,
};

use crate::engine::FieldError;
use futures_executor::block_on;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::Duration;

/// How long a connection waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request waits for a connection to PostgreSQL (a free one from the pool, or a new
/// one) before it is answered 503: when the database is gone, clients and a load balancer's
/// readiness probe learn it within this time.
const POSTGRES_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a store operation did not happen. Each maps to one HTTP status.
#[derive(Debug)]
pub enum StoreError {
    /// No such resource (404).
    NotFound(String),
    /// The request breaks the model or the rules (422), by pointer.
    Invalid(Vec<FieldError>),
    /// The request conflicts with what is stored (409).
    Conflict(String),
    /// The request repeats hands already stored (409), by pointer: storing them again would count
    /// them twice.
    Repeated(Vec<FieldError>),
    /// No key, or an unknown or revoked one (401).
    Unauthorized(String),
    /// A key of another club (403).
    Forbidden(String),
    /// SQLite failed (disk full, I/O error): nothing was written (503).
    Database(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

impl From<rusqlite_migration::Error> for StoreError {
    fn from(e: rusqlite_migration::Error) -> StoreError {
        StoreError::Database(format!("cannot bring the schema up to date: {e}"))
    }
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> StoreError {
        StoreError::Database(format!("no connection to the database: {e}"))
    }
}

impl StoreError {
    pub fn invalid(pointer: &str, detail: impl Into<String>) -> StoreError {
        StoreError::Invalid(vec![FieldError::new(pointer.into(), detail.into())])
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// How many expensive reads may hold a connection at once: the bound of the server's pool for
/// expensive work (`api::league::Expensive`) cannot exceed it.
pub const EXPENSIVE_READERS: u32 = 2;

/// The open database.
pub struct Store(Backend);

enum Backend {
    /// One file: one writer, readers for cheap reads and readers for expensive ones.
    Sqlite {
        path: PathBuf,
        writer: Mutex<Connection>,
        checkpointer: Checkpointer,
        readers: r2d2::Pool<SqliteConnectionManager>,
        expensive_readers: r2d2::Pool<SqliteConnectionManager>,
    },
    /// A PostgreSQL database, perhaps shared with other replicas: a pool of connections for
    /// writes and cheap reads, and a small one for expensive reads.
    Postgres {
        pool: r2d2::Pool<pg::Manager>,
        expensive: r2d2::Pool<pg::Manager>,
    },
}

/// Writes on PostgreSQL take this transaction-level advisory lock first, so that writes run one
/// at a time across every replica, as SQLite's one writer runs them: a hand's number, a match's
/// state and the standings are read and written in one write that no other interleaves.
const WRITE_LOCK: i64 = i64::from_be_bytes(*b"arbiterw");

/// Statements each connection keeps prepared. The store uses about a hundred different ones, and
/// one on a table with triggers compiles them too: rusqlite's default of 16 had an import spend a
/// quarter of its time preparing statements again.
const PREPARED_STATEMENTS: usize = 256;

/// The page cache of each reader connection, in KiB (SQLite's default is 2,000). Ten readers kept
/// twenty megabytes of pages that the operating system's cache holds anyway; a read touches a few
/// index pages and its rows. The writer keeps the default: an import updates the same index pages
/// hand after hand.
const READER_CACHE_KIB: i64 = 256;

/// The cores this machine has: the threads an import judges its matches on, and the compression
/// contexts kept. Asked once: the answer reads the process's CPU quota from files.
fn cores() -> usize {
    static CORES: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    });
    *CORES
}

/// The least weight (hands) a thread of `side_by_side` is given: starting a thread costs about
/// what judging a few hands does.
const WEIGHT_PER_THREAD: usize = 64;

/// `f` of each of `items`, in order. The items are cut into contiguous runs of about equal
/// `weight`, one per core, each mapped on its own thread (at least `WEIGHT_PER_THREAD` each: a
/// light load stays on the caller's thread). A panic in any run is the caller's, as on one thread.
fn side_by_side<T: Send, R: Send>(
    items: Vec<T>,
    weight: impl Fn(&T) -> usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let total: usize = items.iter().map(&weight).sum();
    let threads = cores().min(total / WEIGHT_PER_THREAD).max(1);
    if threads == 1 {
        return items.into_iter().map(f).collect();
    }
    let mut runs: Vec<Vec<T>> = Vec::with_capacity(threads);
    let mut run = Vec::new();
    let mut so_far = 0;
    for item in items {
        so_far += weight(&item);
        run.push(item);
        // Run k ends once the weight so far reaches k + 1 shares.
        if runs.len() + 1 < threads && so_far * threads >= total * (runs.len() + 1) {
            runs.push(std::mem::take(&mut run));
        }
    }
    runs.push(run);
    let f = &f;
    std::thread::scope(|s| {
        let mut runs = runs.into_iter();
        let first = runs.next().unwrap_or_default();
        let others: Vec<_> = runs
            .map(|run| s.spawn(move || run.into_iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out: Vec<R> = first.into_iter().map(f).collect();
        for other in others {
            match other.join() {
                Ok(mapped) => out.extend(mapped),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// Settings every connection gets: foreign keys enforced, a busy timeout for other processes
/// (the CLI beside a running server), a synchronous WAL so that an acknowledged write survives a
/// crash of the process or of the machine, and room for every statement the store prepares.
fn configure(c: &mut Connection) -> rusqlite::Result<()> {
    c.busy_timeout(BUSY_TIMEOUT)?;
    c.set_prepared_statement_cache_capacity(PREPARED_STATEMENTS);
    c.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;")
}

/// Puts the database in WAL mode (it stays so: the mode is kept in the file). The switch needs the
/// file to itself, and SQLite does not wait for that behind the busy timeout: while another
/// connection writes, it refuses at once (and where it cannot switch, it answers the mode it
/// kept). A replica starting as another migrates the same new file meets that. So this waits its
/// turn itself, as long as the busy timeout.
fn turn_wal_on(c: &Connection) -> Result<()> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode =
            c.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0));
        match mode {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(_) => {} // not switched: try again
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => {}
            Err(e) => return Err(e.into()),
        }
        if std::time::Instant::now() >= deadline {
            return Err(StoreError::Database(
                "cannot put the database in WAL mode: other connections kept it busy".into(),
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `configure`, and a reader's smaller page cache.
fn configure_reader(c: &mut Connection) -> rusqlite::Result<()> {
    configure(c)?;
    c.pragma_update(None, "cache_size", -READER_CACHE_KIB)
}

/// Makes the database's place private before SQLite opens it. Its directory is created 0700 when
/// absent, and refused when anybody may write to it (sticky or not: another user could plant the
/// `-wal` file or replace the database). The file is created 0600, and SQLite gives its `-wal` and
/// `-shm` files the file's permissions. An existing file keeps its permissions.
fn prepare(path: &Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let failed = |what: &str, e: std::io::Error| {
        StoreError::Database(format!("cannot {what} {}: {e}", dir.display()))
    };
    let mut create_dir = std::fs::DirBuilder::new();
    let mut create_file = std::fs::OpenOptions::new();
    create_file.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
        create_dir.mode(0o700);
        create_file.mode(0o600);
        if dir.exists() {
            let mode = std::fs::metadata(dir)
                .map_err(|e| failed("read", e))?
                .permissions()
                .mode();
            if mode & 0o002 != 0 {
                return Err(StoreError::Database(format!(
                    "the database's directory {} is world-writable (mode {:o}): another user could \
                     replace the database; put it in a directory only its owner can write to",
                    dir.display(),
                    mode & 0o7777
                )));
            }
        }
    }
    if !dir.exists() {
        create_dir
            .recursive(true)
            .create(dir)
            .map_err(|e| failed("create", e))?;
    }
    create_file
        .open(path)
        .map_err(|e| StoreError::Database(format!("cannot create {}: {e}", path.display())))?;
    Ok(())
}

/// Whether `db`, as `--db` takes it, names a PostgreSQL database (`postgres://` or
/// `postgresql://`) rather than an SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// How many pages the WAL may hold before a commit moves them into the database's file itself, as
/// SQLite does at 1,000 by default: only where the checkpointer falls that far behind.
const WAL_PAGES_BEFORE_A_COMMIT_CHECKPOINTS: u32 = 10_000;

/// The least time between two of the checkpointer's checkpoints: writes that come closer together
/// are moved in one, not each with its own two syncs of the disk.
const CHECKPOINT_PAUSE: Duration = Duration::from_millis(50);

/// Moves the pages the WAL holds into the database's file after writes, on a connection and a
/// thread of its own. SQLite does it inside the commit that takes the WAL past its limit, while
/// that write still holds the writer: about 7 ms of a 2,000-hand import's write, every other
/// import. A checkpoint takes no lock a write needs, so writes go on beside it.
struct Checkpointer {
    wake: Option<mpsc::SyncSender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    fn start(path: &Path) -> Result<Checkpointer> {
        let mut conn = Connection::open(path)?;
        configure(&mut conn)?;
        // One wake is kept while the checkpointer is busy; more would ask for nothing more.
        let (wake, woken) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("checkpointer".into())
            .spawn(move || {
                let mut asked = woken.recv().is_ok();
                while asked {
                    // As SQLite's own: one that readers keep from finishing is done again after
                    // the next write.
                    let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                    // A write during the checkpoint or the pause asks for the next one, at the
                    // pause's end; the store's end stops the thread at once.
                    asked = false;
                    let until = std::time::Instant::now() + CHECKPOINT_PAUSE;
                    while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
                        match woken.recv_timeout(left) {
                            Ok(()) => asked = true,
                            Err(mpsc::RecvTimeoutError::Timeout) => {}
                            Err(mpsc::RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    asked = asked || woken.recv().is_ok();
                }
            })
            .map_err(|e| StoreError::Database(format!("cannot start the checkpointer: {e}")))?;
        Ok(Checkpointer {
            wake: Some(wake),
            thread: Some(thread),
        })
    }

    /// After a write: a checkpoint soon (one already asked for covers it).
    fn after_write(&self) {
        if let Some(wake) = &self.wake {
            let _ = wake.try_send(());
        }
    }

    /// Stops the thread, after the checkpoint under way.
    fn stop(&mut self) {
        drop(self.wake.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The SQLite writer, locked. A panic while holding the lock cannot leave a transaction open (it
/// rolls back on drop), so a poisoned lock is still a usable connection.
fn lock_writer(writer: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    writer.lock().unwrap_or_else(|p| p.into_inner())
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Store> {
        prepare(path)?;
        let mut writer = Connection::open(path)?;
        // The busy timeout first: another process (a replica starting at the same moment) may
        // hold the file while this one migrates.
        configure(&mut writer)?;
        turn_wal_on(&writer)?;
        schema::migrate(&mut writer)?;
        writer.pragma_update(
            None,
            "wal_autocheckpoint",
            WAL_PAGES_BEFORE_A_COMMIT_CHECKPOINTS,
        )?;
        let checkpointer = Checkpointer::start(path)?;
        let manager = || {
            SqliteConnectionManager::file(path)
                .with_flags(OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .with_init(configure_reader)
        };
        let readers = r2d2::Pool::builder()
            .max_size(8)
            .min_idle(Some(1))
            .build(manager())?;
        let expensive_readers = r2d2::Pool::builder()
            .max_size(EXPENSIVE_READERS)
            .min_idle(Some(0))
            .build(manager())?;
        Ok(Store(Backend::Sqlite {
            path: path.to_path_buf(),
            writer: Mutex::new(writer),
            checkpointer,
            readers,
            expensive_readers,
        }))
    }

    /// Opens the store `db` names: a PostgreSQL URL (`is_postgres_url`), or an SQLite file's path.
    pub fn connect(db: &str) -> Result<Store> {
        if is_postgres_url(db) {
            Store::open_postgres(db)
        } else {
            Store::open(Path::new(db))
        }
    }

    /// Connects to the PostgreSQL database at `url` and brings its schema up to date.
    pub fn open_postgres(url: &str) -> Result<Store> {
        let mut config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Database(format!("not a PostgreSQL URL: {e}")))?;
        // Unless the URL says otherwise, a database that went away is noticed within bounds: a
        // connection attempt gives up, and so does a connection whose sent statement the server
        // never acknowledges (a host gone without closing its connections).
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(POSTGRES_TIMEOUT);
        }
        if config.get_tcp_user_timeout().is_none() {
            config.tcp_user_timeout(POSTGRES_TIMEOUT);
        }
        let driver = pg::Driver::new()
            .map_err(|e| StoreError::Database(format!("cannot start PostgreSQL's driver: {e}")))?;
        let manager = || pg::Manager {
            config: config.clone(),
            driver: driver.clone(),
        };
        let pool = r2d2::Pool::builder()
            .max_size(16)
            .min_idle(Some(1))
            .connection_timeout(POSTGRES_TIMEOUT)
            .build(manager())?;
        let expensive = r2d2::Pool::builder()
            .max_size(EXPENSIVE_READERS)
            .min_idle(Some(0))
            .connection_timeout(POSTGRES_TIMEOUT)
            .build(manager())?;
        postgres_schema::migrate(&mut pool.get()?.client)?;
        Ok(Store(Backend::Postgres { pool, expensive }))
    }

    /// What the store is: its file, or its PostgreSQL database (without the password).
    pub fn describe(&self) -> String {
        match &self.0 {
            Backend::Sqlite { path, .. } => path.display().to_string(),
            Backend::Postgres { pool, .. } => {
                let c = pool.state();
                format!("PostgreSQL ({} connections)", c.connections)
            }
        }
    }

    /// Whether the store can serve this binary: a reader answers a read, on the schema this
    /// binary migrates to. Returns that schema's version. For readiness probes: a replica whose
    /// binary is older or newer than the database's schema is not ready.
    pub fn ready(&self) -> Result<usize> {
        match &self.0 {
            Backend::Sqlite { readers, .. } => {
                let conn = readers.get()?;
                let version = schema::at_latest(&conn).map_err(StoreError::Database)?;
                conn.query_row("SELECT max(id) FROM clubs", [], |_| Ok(()))?;
                Ok(version)
            }
            Backend::Postgres { pool, .. } => {
                let client = &mut pool.get()?.client;
                let version = postgres_schema::at_latest(client).map_err(StoreError::Database)?;
                block_on(client.query_one("SELECT max(id) FROM clubs", &[]))?;
                Ok(version)
            }
        }
    }

    /// Runs `f` on a reader connection (a consistent snapshot for the whole call).
    pub fn read<T>(&self, f: impl FnOnce(&Tx) -> Result<T>) -> Result<T> {
        match &self.0 {
            Backend::Sqlite { readers, .. } => Self::read_sqlite(readers, f),
            Backend::Postgres { pool, .. } => Self::read_postgres(pool, f),
        }
    }

    /// `read` on a connection kept for expensive reads.
    pub fn read_expensive<T>(&self, f: impl FnOnce(&Tx) -> Result<T>) -> Result<T> {
        match &self.0 {
            Backend::Sqlite {
                expensive_readers, ..
            } => Self::read_sqlite(expensive_readers, f),
            Backend::Postgres { expensive, .. } => Self::read_postgres(expensive, f),
        }
    }

    fn read_sqlite<T>(
        pool: &r2d2::Pool<SqliteConnectionManager>,
        f: impl FnOnce(&Tx) -> Result<T>,
    ) -> Result<T> {
        let mut conn = pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Deferred)?;
        f(&Tx::sqlite(&tx))
    }

    /// A read on one snapshot, as SQLite's read transaction sees one.
    fn read_postgres<T>(
        pool: &r2d2::Pool<pg::Manager>,
        f: impl FnOnce(&Tx) -> Result<T>,
    ) -> Result<T> {
        let mut conn = pool.get()?;
        let pg::Connection { client, prepared } = &mut *conn;
        let tx = block_on(
            client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start(),
        )?;
        f(&Tx::postgres(tx, prepared))
    }

    /// Runs `f` in one write transaction: committed when `f` succeeds, rolled back (nothing
    /// written) when it fails. Writes run one at a time (on SQLite the one writer; on
    /// PostgreSQL, `WRITE_LOCK` across replicas).
    pub fn write<T>(&self, f: impl FnOnce(&Tx) -> Result<T>) -> Result<T> {
        match &self.0 {
            Backend::Sqlite {
                writer,
                checkpointer,
                ..
            } => {
                let mut conn = lock_writer(writer);
                let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let out = f(&Tx::sqlite(&tx))?;
                tx.commit()?;
                checkpointer.after_write();
                Ok(out)
            }
            Backend::Postgres { pool, .. } => {
                let mut conn = pool.get()?;
                let pg::Connection { client, prepared } = &mut *conn;
                let tx = block_on(client.transaction())?;
                block_on(tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK]))?;
                let tx = Tx::postgres(tx, prepared);
                let out = f(&tx)?;
                block_on(
                    tx.into_postgres()
                        .expect("a PostgreSQL transaction")
                        .commit(),
                )?;
                Ok(out)
            }
        }
    }
}

/// Closing an SQLite store moves every write from the WAL into the database's file and empties
/// the WAL, so that the file alone (a backup copied once the server stopped) holds everything.
/// SQLite does so itself only when the last connection to close can write, and the pools' readers
/// may close after the writer.
impl Drop for Store {
    fn drop(&mut self) {
        if let Backend::Sqlite {
            writer,
            checkpointer,
            ..
        } = &mut self.0
        {
            // Stopped first, so that a checkpoint of its does not keep the last from emptying
            // the WAL.
            checkpointer.stop();
            let conn = lock_writer(writer);
            // Best effort: a reader still inside a read keeps the WAL, which the next open reads.
            let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }
}

#[cfg(test)]
mod tests {
    /// `side_by_side` maps every item once and keeps their order, whatever the weights; a load
    /// that is heavy enough runs on more than one thread where the machine has more than one core.
    #[test]
    fn side_by_side_maps_in_order_and_shares_a_heavy_load() {
        for (count, weight) in [(0, 1), (1, 1000), (5, 1), (1000, 1), (301, 7)] {
            let items: Vec<usize> = (0..count).collect();
            let mapped =
                super::side_by_side(items, |_| weight, |i| (i * 3, std::thread::current().id()));
            assert_eq!(
                mapped.iter().map(|m| m.0).collect::<Vec<_>>(),
                (0..count).map(|i| i * 3).collect::<Vec<_>>()
            );
            let mut threads: Vec<_> = mapped.iter().map(|m| format!("{:?}", m.1)).collect();
            threads.sort();
            threads.dedup();
            let heavy = count * weight >= 2 * super::WEIGHT_PER_THREAD && count > 1;
            let expected = if heavy && super::cores() > 1 {
                2..
            } else {
                0..
            };
            assert!(
                expected.contains(&threads.len()) && threads.len() <= super::cores().max(1),
                "{count} items of weight {weight} ran on {} thread(s)",
                threads.len()
            );
        }
    }

    /// A store on a new file `league.db` in `dir`, that has written one club.
    fn a_store_with_a_club(dir: &std::path::Path) -> super::Store {
        let store = super::Store::open(&dir.join("league.db")).unwrap();
        store
            .write(|tx| super::create_club(tx, "Casa", Default::default()))
            .unwrap();
        store
    }

    /// The clubs a copy of `dir`'s `league.db` alone holds (none where the copy does not read).
    fn clubs_in_a_copy_of_the_file(dir: &std::path::Path) -> i64 {
        let copy = dir.join("copy.db");
        std::fs::copy(dir.join("league.db"), &copy).unwrap();
        rusqlite::Connection::open(&copy)
            .and_then(|c| c.query_row("SELECT count(*) FROM clubs", [], |r| r.get(0)))
            .unwrap_or(0)
    }

    /// A store closed leaves every write in the database's file and an empty WAL at most: a copy of
    /// the file alone (a backup made with `cp` once the server stopped) holds everything.
    #[test]
    fn a_closed_store_leaves_its_writes_in_the_file_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = a_store_with_a_club(dir.path());
        // The readers have been used, as a server's have.
        store.read(|tx| super::get_club(tx, 1)).unwrap();
        drop(store);
        assert_eq!(clubs_in_a_copy_of_the_file(dir.path()), 1);
        let wal = std::fs::metadata(dir.path().join("league.db-wal")).map_or(0, |m| m.len());
        assert_eq!(wal, 0, "the WAL holds writes");
    }

    /// A write reaches the database's file while the store is open, moved by the checkpointer
    /// (the commit itself moves nothing: the WAL holds far fewer pages than its limit), and so
    /// does a write made just after the checkpointer moved one, during its pause. A copy made
    /// while a checkpoint writes the file may not read: it is made again.
    #[test]
    fn the_checkpointer_moves_a_write_into_the_file_alone() {
        let dir = tempfile::tempdir().unwrap();
        let store = a_store_with_a_club(dir.path());
        let in_the_file = |clubs| {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while clubs_in_a_copy_of_the_file(dir.path()) != clubs {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the write is still only in the WAL"
                );
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        };
        in_the_file(1);
        store
            .write(|tx| super::create_club(tx, "Otra", Default::default()))
            .unwrap();
        in_the_file(2);
        drop(store);
    }

    /// A replica turning WAL on while another writes the new file waits for the write to end, and
    /// is not refused.
    #[test]
    fn wal_is_turned_on_once_another_connections_write_ends() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("league.db");
        let writing = rusqlite::Connection::open(&file).unwrap();
        writing
            .execute_batch("BEGIN IMMEDIATE; CREATE TABLE elsewhere (x INTEGER);")
            .unwrap();
        let mut turning = rusqlite::Connection::open(&file).unwrap();
        super::configure(&mut turning).unwrap();
        let turning = &mut turning; // moved to its thread as `&mut`, which is `Send`
        std::thread::scope(|scope| {
            let turned = scope.spawn(move || super::turn_wal_on(turning));
            std::thread::sleep(std::time::Duration::from_millis(200));
            writing.execute_batch("COMMIT").unwrap();
            turned.join().unwrap().unwrap();
        });
        let mode: String = rusqlite::Connection::open(&file)
            .unwrap()
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
}
