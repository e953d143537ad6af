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
use std::sync::Arc;
use tokio::runtime::Runtime;
use tokio_postgres::{Client, Config, NoTls};

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

/// Opens connections for an r2d2 pool, each driven by `driver`.
pub struct Manager {
    pub config: Config,
    pub driver: Arc<Driver>,
}

impl r2d2::ManageConnection for Manager {
    type Connection = Client;
    type Error = tokio_postgres::Error;

    fn connect(&self) -> Result<Client, tokio_postgres::Error> {
        let config = self.config.clone();
        let opened = self.driver.runtime().spawn(async move {
            let (client, connection) = config.connect(NoTls).await?;
            // Ends when the client is dropped or the server goes away (the pool then sees the
            // client closed).
            tokio::spawn(connection);
            Ok(client)
        });
        block_on(opened).expect("the connection task is not cancelled")
    }

    fn is_valid(&self, client: &mut Client) -> Result<(), tokio_postgres::Error> {
        block_on(client.simple_query("")).map(drop)
    }

    fn has_broken(&self, client: &mut Client) -> bool {
        client.is_closed()
    }
}
