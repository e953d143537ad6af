//! Connections to PostgreSQL: tokio-postgres, driven by a runtime of the store's own.
//!
//! The store is synchronous: each request's store work runs on a blocking thread, in one
//! transaction, as on SQLite. tokio-postgres does its I/O in a task per connection; those tasks
//! run on the store's runtime, and a store call waits for its statement's answer with
//! `futures_executor::block_on`, which works from any thread, a tokio runtime's (a test's, or
//! the server's at shutdown) included. The blocking `postgres` crate wraps the same client in a
//! runtime per connection instead, and that runtime may be neither entered nor dropped inside
//! another: the server's.

use futures_executor::block_on;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::runtime::Runtime;
use tokio_postgres::{Client, Config, NoTls, Statement};

/// The runtime that drives the store's connections. Shut down without waiting when the store is
/// dropped, which may be inside another runtime.
pub struct Driver(Option<Runtime>);

impl Driver {
    pub fn new() -> std::io::Result<Arc<Driver>> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("arbiter-postgres")
            .enable_all()
            .build()?;
        Ok(Arc::new(Driver(Some(rt))))
    }

    fn runtime(&self) -> &Runtime {
        self.0.as_ref().expect("the driver runs until dropped")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(rt) = self.0.take() {
            rt.shutdown_background();
        }
    }
}

/// A pooled connection: its client, and the statements prepared on it.
pub struct Connection {
    pub client: Client,
    pub prepared: Prepared,
}

/// The statements prepared on one connection, by the store's SQL, kept for the connection's life
/// as SQLite's connections keep theirs: preparing is a round trip to the server, as long as running
/// the statement. At most `PREPARED_STATEMENTS`: the store's statements are a fixed set, and a
/// connection that somehow met more starts again from none.
#[derive(Default)]
pub struct Prepared(HashMap<String, Statement>);

impl Prepared {
    pub fn get(&self, sql: &str) -> Option<Statement> {
        self.0.get(sql).cloned()
    }

    pub fn keep(&mut self, sql: &str, statement: Statement) {
        if self.0.len() >= super::PREPARED_STATEMENTS {
            self.0.clear();
        }
        self.0.insert(sql.to_string(), statement);
    }
}

/// Opens connections for an r2d2 pool, each driven by `driver`.
pub struct Manager {
    pub config: Config,
    pub driver: Arc<Driver>,
}

impl r2d2::ManageConnection for Manager {
    type Connection = Connection;
    type Error = tokio_postgres::Error;

    fn connect(&self) -> Result<Connection, tokio_postgres::Error> {
        let config = self.config.clone();
        let opened = self.driver.runtime().spawn(async move {
            let (client, connection) = config.connect(NoTls).await?;
            // Ends when the client is dropped or the server goes away (the pool then sees the
            // client closed).
            tokio::spawn(connection);
            Ok(client)
        });
        let client = block_on(opened).expect("the connection task is not cancelled")?;
        Ok(Connection {
            client,
            prepared: Prepared::default(),
        })
    }

    /// Checked as it leaves the pool without a round trip: a connection the server closed (or
    /// lost) says so; asking it then gives the error. One lost silently fails its statement
    /// within the TCP user timeout, and is dropped on its return (`has_broken`).
    fn is_valid(&self, conn: &mut Connection) -> Result<(), tokio_postgres::Error> {
        if conn.client.is_closed() {
            block_on(conn.client.simple_query("")).map(drop)
        } else {
            Ok(())
        }
    }

    fn has_broken(&self, conn: &mut Connection) -> bool {
        conn.client.is_closed()
    }
}
