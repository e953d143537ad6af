//! Club API keys: 32 random bytes shown once as `arb_<hex>`; the store keeps only the SHA-256
//! digest, so a leaked database does not leak keys. Keys are high-entropy, so a fast hash is
//! enough (no password stretching needed). A key is named by a random public id (`key_` and 16
//! hex digits), so key ids say nothing about how many keys other clubs hold.

use super::db::{self, Arg, Row, Tx, args};
use super::model::{Page, normal_name};
use super::repo;
use super::{Result, StoreError};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write;
use utoipa::ToSchema;

/// A newly created key. `secret` is shown in this answer only: a replay of the request (the same
/// `Idempotency-Key`) answers the key's id and label with `secret_shown_once` instead.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ApiKey {
    /// The key's public id (for listing and revoking it), not a secret.
    #[schema(example = "key_3f9a0c1d2e4b5a69")]
    pub id: String,
    pub club: i64,
    pub label: String,
    /// Send as `Authorization: Bearer <secret>`. In the first answer only: it is never stored, and
    /// cannot be shown again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// `true`, in place of `secret`, when this answer replays an earlier one (the same
    /// `Idempotency-Key`): the secret was shown once, in the first answer. A key whose secret was
    /// lost is revoked and another created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_shown_once: Option<bool>,
}

/// A key as listed: never its secret.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct KeyInfo {
    #[schema(example = "key_3f9a0c1d2e4b5a69")]
    pub id: String,
    pub label: String,
    pub created_at: String,
    /// The last write or key listing the key authenticated that succeeded (reads do not mark a
    /// key); absent if never used.
    pub last_used_at: Option<String>,
    /// Absent while the key is live.
    pub revoked_at: Option<String>,
}

const PREFIX: &str = "arb_";
const ID_PREFIX: &str = "key_";

/// Whether `id` has the form of a key's public id (`key_` and 16 lowercase hex digits), as the
/// OpenAPI document's pattern for it says.
pub fn is_key_id(id: &str) -> bool {
    id.strip_prefix(ID_PREFIX).is_some_and(|hex| {
        hex.len() == 16 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

fn digest(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

/// `prefix` and `n` random bytes in hex.
fn random_hex(prefix: &str, n: usize) -> Result<String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Database(format!("no randomness for a key: {e}")))?;
    let mut out = String::from(prefix);
    for b in bytes {
        write!(out, "{b:02x}").expect("writing to a String");
    }
    Ok(out)
}

/// Creates a key for `club` and returns it with its secret.
pub fn create(tx: &Tx, club: i64, label: &str) -> Result<ApiKey> {
    let secret = random_hex(PREFIX, 32)?;
    let id = random_hex(ID_PREFIX, 8)?;
    tx.execute(
        "INSERT INTO api_keys (club_id, digest, label, public_id) VALUES (?1, ?2, ?3, ?4)",
        args![club, digest(&secret), normal_name(label), id],
    )?;
    Ok(ApiKey {
        id,
        club,
        label: normal_name(label),
        secret: Some(secret),
        secret_shown_once: None,
    })
}

/// A live key, as a request presents it.
#[derive(Clone, Debug)]
pub struct LiveKey {
    /// Its row, which an idempotent request is kept under.
    pub row: i64,
    pub club: i64,
    pub id: String,
}

/// The live key `secret` names, or `None` for an unknown or revoked key. Reads only: a read does
/// not mark the key used (readers never wait for the writer).
pub fn find(tx: &Tx, secret: &str) -> Result<Option<LiveKey>> {
    tx.query_opt(
        "SELECT id, club_id, public_id FROM api_keys WHERE digest = ?1 AND revoked_at IS NULL",
        args![digest(secret)],
        |r| {
            Ok(LiveKey {
                row: r.get(0)?,
                club: r.get(1)?,
                id: r.get(2)?,
            })
        },
    )
}

/// `find`, marking the key used (which stays only if the request's transaction commits).
pub fn use_key(tx: &Tx, secret: &str) -> Result<Option<LiveKey>> {
    let found = find(tx, secret)?;
    if let Some(key) = &found {
        tx.execute(
            "UPDATE api_keys SET last_used_at = ?2 WHERE id = ?1",
            args![key.row, db::now()],
        )?;
    }
    Ok(found)
}

/// A page of the club's keys, oldest first, after the key `after` names. The cursor is a key's
/// public id, not its row (which would say how many keys other clubs hold); not found when
/// `after` names no key of the club.
pub fn list(tx: &Tx, club: i64, after: Option<&str>, limit: u32) -> Result<Page<KeyInfo>> {
    let after = match after {
        None => 0,
        // A cursor is the last key of an earlier page; keys are revoked, never deleted, so a
        // cursor that names none of the club's keys was never one of its pages' (404, as a key
        // id in the path that names none).
        Some(id) => tx
            .query_opt(
                "SELECT id FROM api_keys WHERE public_id = ?1 AND club_id = ?2",
                args![id, club],
                |r| r.get::<i64>(0),
            )?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "the cursor names no key of club {club}: pass a next_cursor of this list"
                ))
            })?,
    };
    let sql = "SELECT public_id, label, created_at, last_used_at, revoked_at FROM api_keys \
               WHERE club_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3";
    let row = |r: &Row| -> Result<KeyInfo> {
        Ok(KeyInfo {
            id: r.get(0)?,
            label: r.get(1)?,
            created_at: r.get(2)?,
            last_used_at: r.get(3)?,
            revoked_at: r.get(4)?,
        })
    };
    let args: [&dyn Arg; 2] = [&club, &after];
    repo::page(tx, sql, &args, limit, row, |k| k.id.clone())
}

/// Revokes key `id` of `club`; a club cannot revoke its last live key (it would lock itself out).
pub fn revoke(tx: &Tx, club: i64, id: &str) -> Result<()> {
    let live: i64 = tx.query_row(
        "SELECT count(*) FROM api_keys WHERE club_id = ?1 AND revoked_at IS NULL",
        args![club],
        |r| r.get(0),
    )?;
    let found: Option<Option<String>> = tx.query_opt(
        "SELECT revoked_at FROM api_keys WHERE public_id = ?1 AND club_id = ?2",
        args![id, club],
        |r| r.get(0),
    )?;
    match found {
        None => Err(StoreError::NotFound(format!("no key {id} in club {club}"))),
        Some(Some(_)) => Ok(()),
        Some(None) if live <= 1 => Err(StoreError::Conflict(
            "this is the club's last live key: create another before revoking it".into(),
        )),
        Some(None) => {
            tx.execute(
                "UPDATE api_keys SET revoked_at = ?2 WHERE public_id = ?1",
                args![id, db::now()],
            )?;
            Ok(())
        }
    }
}
