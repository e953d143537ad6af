//! Club API keys: 32 random bytes shown once as `arb_<hex>`; the store keeps only the SHA-256
//! digest, so a leaked database does not leak keys. Keys are high-entropy, so a fast hash is
//! enough (no password stretching needed).

use super::{Result, StoreError};
use rusqlite::{OptionalExtension, Transaction, params};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use utoipa::ToSchema;

/// A newly created key. `secret` is shown in this response only.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ApiKey {
    pub id: i64,
    pub club: i64,
    pub label: String,
    /// Send as `Authorization: Bearer <secret>`. It cannot be shown again.
    pub secret: String,
}

const PREFIX: &str = "arb_";

fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// Creates a key for `club` and returns it with its secret.
pub fn create(tx: &Transaction, club: i64, label: &str) -> Result<ApiKey> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Database(format!("no randomness for a key: {e}")))?;
    let mut secret = String::from(PREFIX);
    for b in bytes {
        write!(secret, "{b:02x}").expect("writing to a String");
    }
    tx.execute(
        "INSERT INTO api_keys (club_id, digest, label) VALUES (?1, ?2, ?3)",
        params![club, digest(&secret), label],
    )?;
    Ok(ApiKey {
        id: tx.last_insert_rowid(),
        club,
        label: label.to_string(),
        secret,
    })
}

/// The club a live key belongs to, or `None` for an unknown or revoked key.
pub fn club_of(tx: &Transaction, secret: &str) -> Result<Option<i64>> {
    Ok(tx
        .query_row(
            "SELECT club_id FROM api_keys WHERE digest = ?1 AND revoked_at IS NULL",
            params![digest(secret)],
            |r| r.get(0),
        )
        .optional()?)
}

/// Revokes key `id` of `club`; a club cannot revoke its last live key (it would lock itself out).
pub fn revoke(tx: &Transaction, club: i64, id: i64) -> Result<()> {
    let live: i64 = tx.query_row(
        "SELECT count(*) FROM api_keys WHERE club_id = ?1 AND revoked_at IS NULL",
        params![club],
        |r| r.get(0),
    )?;
    let found: Option<Option<String>> = tx
        .query_row(
            "SELECT revoked_at FROM api_keys WHERE id = ?1 AND club_id = ?2",
            params![id, club],
            |r| r.get(0),
        )
        .optional()?;
    match found {
        None => Err(StoreError::NotFound(format!("no key {id} in club {club}"))),
        Some(Some(_)) => Ok(()),
        Some(None) if live <= 1 => Err(StoreError::Conflict(
            "this is the club's last live key: create another before revoking it".into(),
        )),
        Some(None) => {
            tx.execute(
                "UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
                params![id],
            )?;
            Ok(())
        }
    }
}
