//! `/v1/clubs/...`: the league store over HTTP. Who may read what depends on the club's
//! visibility (`league::may_read`); writes need the club's key (`Authorization: Bearer ...`) and
//! may carry an `Idempotency-Key`. Handlers parse, call the store on the blocking pool, and map
//! its errors to problems.

use super::expensive::{Expensive, StandingsCache};
use super::problem::{Problem, json_body, parse_json, read_body, require_content_type};
use super::{Json, json_response};
use crate::engine::FieldError;
use crate::league::{
    self, Actor, Amendment, ApiKey, Club, ClubSettings, Correction, HandAmendment, HandScope,
    HandSummary, HandVoid, Idempotency, ImportReport, Kept, KeyInfo, League, Match, NewClub,
    NewKey, NewLeague, NewMatch, NewNamed, NewPartnership, NewSession, Page, Partnership, Player,
    Reader, Readjudication, Session, Shows, Standings, Store, StoreError, StoredHand, Tx,
};
use crate::record::HandRecord;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::{StreamExt, stream};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::future::ready;
use std::sync::Arc;
use utoipa::{IntoParams, IntoResponses, ToSchema};
use validator::Validate;

/// What every league handler shares: the store, the operator's token for creating clubs, the
/// pool for expensive work and the standings it computed.
#[derive(Clone)]
pub struct LeagueState {
    pub store: Arc<Store>,
    /// When set, `POST /v1/clubs` accepts it as a bearer token; otherwise clubs are created with
    /// `arbiter club create` only.
    pub admin_token: Option<String>,
    pub expensive: Arc<Expensive>,
    pub standings: Arc<StandingsCache>,
}

/// Expensive jobs waiting for a turn, at most, before a request is refused (503).
pub const EXPENSIVE_QUEUE: usize = 16;
/// Leagues whose standings are kept, at most (the least recently read go first).
pub const STANDINGS_KEPT: usize = 64;

impl LeagueState {
    /// The state of a server on `store`: expensive work one job per two cores (at least one, at
    /// most `league::EXPENSIVE_READERS`), so that cheap reads always find a core.
    pub fn new(store: Store, admin_token: Option<String>) -> LeagueState {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        LeagueState::with_expensive(
            store,
            admin_token,
            Expensive::new(cores / 2, EXPENSIVE_QUEUE),
        )
    }

    pub fn with_expensive(
        store: Store,
        admin_token: Option<String>,
        expensive: Expensive,
    ) -> LeagueState {
        LeagueState {
            store: Arc::new(store),
            admin_token,
            expensive: Arc::new(expensive),
            standings: Arc::new(StandingsCache::new(STANDINGS_KEPT)),
        }
    }
}

impl From<StoreError> for Problem {
    fn from(e: StoreError) -> Problem {
        match e {
            StoreError::NotFound(d) => Problem::not_found(d),
            StoreError::Invalid(errors) => Problem::invalid(errors),
            StoreError::Conflict(d) => {
                Problem::new(StatusCode::CONFLICT, "conflict", "Conflict", d)
            }
            StoreError::Repeated(errors) => Problem::new(
                StatusCode::CONFLICT,
                "repeated-hands",
                "Hands already stored",
                format!(
                    "{} hand(s) repeat hands already stored; nothing was written",
                    errors.len()
                ),
            )
            .with(errors),
            StoreError::Unauthorized(d) => unauthorized(d),
            StoreError::Forbidden(d) => {
                Problem::new(StatusCode::FORBIDDEN, "forbidden", "Forbidden", d)
            }
            StoreError::Database(d) => store_unavailable(format!("nothing was written: {d}")),
        }
    }
}

fn unauthorized(detail: String) -> Problem {
    Problem::new(
        StatusCode::UNAUTHORIZED,
        "unauthorized",
        "Unauthorized",
        detail,
    )
    // The scheme to authenticate with (RFC 9110 §11.6.1).
    .with_headers(&[("www-authenticate", "Bearer realm=\"arbiter\"")])
}

/// Problems a read of a club's results can answer with (public for a club with public results).
#[derive(IntoResponses)]
#[allow(dead_code)] // documents the responses; the handlers build `Problem`s
enum ReadProblems {
    #[response(
        status = 400,
        description = "A query parameter is not valid",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 401,
        description = "An unknown or revoked API key was sent (no key is needed for public results)",
        content_type = "application/problem+json"
    )]
    Unauthorized(Problem),
    #[response(
        status = 404,
        description = "No such club or resource; or a members-only club, read without one of its keys (to which it does not exist)",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(
        status = 503,
        description = "The store could not be read",
        content_type = "application/problem+json"
    )]
    Unavailable(Problem),
}

/// Problems a read of a club's records (a hand's record and adjudication, the audit trail, sheets)
/// can answer with: they always need one of the club's keys.
#[derive(IntoResponses)]
#[allow(dead_code)] // documents the responses; the handlers build `Problem`s
enum RecordReadProblems {
    #[response(
        status = 400,
        description = "A query parameter is not valid",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 401,
        description = "No API key (a club's records need one of its keys), or an unknown or revoked one",
        content_type = "application/problem+json"
    )]
    Unauthorized(Problem),
    #[response(
        status = 403,
        description = "The key belongs to another club (whose results are public)",
        content_type = "application/problem+json"
    )]
    Forbidden(Problem),
    #[response(
        status = 404,
        description = "No such club or resource; or a members-only club, read without one of its keys",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(
        status = 503,
        description = "The store could not be read",
        content_type = "application/problem+json"
    )]
    Unavailable(Problem),
}

/// Problems a write to the store can answer with. Nothing is written when any is returned.
#[derive(IntoResponses)]
#[allow(dead_code)] // documents the responses; the handlers build `Problem`s
enum WriteProblems {
    #[response(
        status = 400,
        description = "Empty or malformed body, or a bad header or query parameter",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
    #[response(
        status = 401,
        description = "No API key, or an unknown or revoked one",
        content_type = "application/problem+json"
    )]
    Unauthorized(Problem),
    #[response(
        status = 403,
        description = "The key belongs to another club",
        content_type = "application/problem+json"
    )]
    Forbidden(Problem),
    #[response(
        status = 404,
        description = "No such club or resource",
        content_type = "application/problem+json"
    )]
    NotFound(Problem),
    #[response(
        status = 408,
        description = "The body did not arrive in time",
        content_type = "application/problem+json"
    )]
    Timeout(Problem),
    #[response(
        status = 409,
        description = "The request conflicts with what is stored",
        content_type = "application/problem+json"
    )]
    Conflict(Problem),
    #[response(
        status = 413,
        description = "Body too large",
        content_type = "application/problem+json"
    )]
    TooLarge(Problem),
    #[response(
        status = 415,
        description = "Wrong content type",
        content_type = "application/problem+json"
    )]
    UnsupportedMediaType(Problem),
    #[response(
        status = 422,
        description = "The request breaks the model or the game's rules (pointers name the values; in a sheet, rows and columns)",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
    #[response(
        status = 503,
        description = "The store could not be written; nothing was",
        content_type = "application/problem+json"
    )]
    Unavailable(Problem),
}

/// Runs a store call on the blocking pool.
async fn blocking<T: Send + 'static>(
    state: &web::Data<LeagueState>,
    f: impl FnOnce(&Store) -> league::Result<T> + Send + 'static,
) -> Result<T, Problem> {
    on_store(state, f).await.map_err(Problem::from)
}

/// `blocking`, the store's error kept as it is.
async fn on_store<T: Send + 'static>(
    state: &web::Data<LeagueState>,
    f: impl FnOnce(&Store) -> league::Result<T> + Send + 'static,
) -> league::Result<T> {
    let store = state.store.clone();
    web::block(move || f(&store))
        .await
        .map_err(|e| StoreError::Database(e.to_string()))?
}

/// 503: the store did not answer (`detail` says why, and what that means for the request).
fn store_unavailable(detail: String) -> Problem {
    Problem::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "store-unavailable",
        "The league store is unavailable",
        detail,
    )
}

async fn read<T: Send + 'static>(
    state: &web::Data<LeagueState>,
    f: impl FnOnce(&Tx) -> league::Result<T> + Send + 'static,
) -> Result<T, Problem> {
    blocking(state, move |s| s.read(f)).await
}

/// A read of `club` by whoever the request's bearer token names (README "Who may read what"): `f`
/// runs, in the same snapshot, once the reader may see what `shows`.
async fn read_as<T: Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    shows: Shows,
    f: impl FnOnce(&Tx) -> league::Result<T> + Send + 'static,
) -> Result<T, Problem> {
    let (secret, operator) = reader_token(req, state);
    read(state, move |tx| {
        let reader = Reader::named(tx, secret.as_deref(), operator)?;
        league::may_read(tx, club, reader, shows)?;
        f(tx)
    })
    .await
}

/// A paged list of `club` that `shows` what `read_as` guards: its `cursor` and `limit` from the
/// query, the page `f` reads, answered as JSON with the `Link` to the next page.
async fn list_as<T: Serialize + Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    shows: Shows,
    f: impl FnOnce(&Tx, i64, u32) -> league::Result<Page<T>> + Send + 'static,
) -> Result<HttpResponse, Problem> {
    let (cursor, limit) = paging(req)?;
    let page = read_as(req, state, club, shows, move |tx| f(tx, cursor, limit)).await?;
    Ok(page_response(req, &page, limit))
}

/// The bearer token a read presents, if any, and whether it is the operator's.
fn reader_token(req: &HttpRequest, state: &LeagueState) -> (Option<String>, bool) {
    let secret = bearer(req).ok();
    let operator = secret.as_deref().is_some_and(|s| is_operator(state, s));
    (secret, operator)
}

/// A path id; anything else names nothing (404).
fn id(raw: &str, what: &str) -> Result<i64, Problem> {
    raw.parse()
        .map_err(|_| Problem::not_found(format!("no {what} '{raw}'")))
}

fn bearer(req: &HttpRequest) -> Result<String, Problem> {
    let value = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    // The scheme's name is case-insensitive (RFC 9110 §11.1): `bearer` is `Bearer`.
    let token = value.and_then(|v| {
        let (scheme, token) = v.split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then_some(token)
    });
    match token {
        Some(token) if !token.trim().is_empty() => Ok(token.trim().to_string()),
        _ => Err(unauthorized(
            "writes need the club's API key: Authorization: Bearer <key> (see `arbiter club create`)".into(),
        )),
    }
}

fn idempotency_key(req: &HttpRequest) -> Result<Option<String>, Problem> {
    let Some(value) = req.headers().get("idempotency-key") else {
        return Ok(None);
    };
    match value.to_str() {
        Ok(k) if (1..=255).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()) => {
            Ok(Some(k.to_string()))
        }
        _ => Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "invalid-header",
            "Invalid header",
            "bad Idempotency-Key".into(),
        )
        .with(vec![FieldError::new(
            "/headers/idempotency-key".into(),
            "expected 1 to 255 visible ASCII characters".into(),
        )])),
    }
}

/// A JSON POST that creates something: the body is read and parsed as `N`, then `f` runs as one
/// write by the club's keys answered with 201.
async fn create<N, T>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: web::Payload,
    f: impl FnOnce(&Tx, N) -> league::Result<T> + Send + 'static,
) -> Result<HttpResponse, Problem>
where
    N: DeserializeOwned + Validate + Send + 'static,
    T: Created + Kept + Send + 'static,
{
    create_as(req, state, club, body, Access::Club, f).await
}

/// `create` by `access`, answered with the new resource's `Location`.
async fn create_as<N, T>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: web::Payload,
    access: Access,
    f: impl FnOnce(&Tx, N) -> league::Result<T> + Send + 'static,
) -> Result<HttpResponse, Problem>
where
    N: DeserializeOwned + Validate + Send + 'static,
    T: Created + Kept + Send + 'static,
{
    let status = StatusCode::CREATED;
    let (status, body, replayed) =
        commit_json(req, state, club, body, status, access, move |tx, _, new| {
            f(tx, new)
        })
        .await?;
    // Ids are numbers, keys' ids public strings.
    let id = match &body["id"] {
        serde_json::Value::String(id) => Some(id.clone()),
        serde_json::Value::Number(id) => Some(id.to_string()),
        _ => None,
    };
    let location = id.map(|id| format!("/v1/clubs/{club}/{}/{id}", T::COLLECTION));
    Ok(with_location(respond(status, body, replayed), location))
}

/// What a POST creates, found at `/v1/clubs/{club}/{COLLECTION}/{id}` (a 201's `Location`).
trait Created {
    const COLLECTION: &'static str;
}

impl Created for ApiKey {
    const COLLECTION: &'static str = "keys";
}
impl Created for Player {
    const COLLECTION: &'static str = "players";
}
impl Created for Partnership {
    const COLLECTION: &'static str = "partnerships";
}
impl Created for League {
    const COLLECTION: &'static str = "leagues";
}
impl Created for Session {
    const COLLECTION: &'static str = "sessions";
}
impl Created for Match {
    const COLLECTION: &'static str = "matches";
}
impl Created for HandSummary {
    const COLLECTION: &'static str = "hands";
}

fn with_location(mut resp: HttpResponse, location: Option<String>) -> HttpResponse {
    if let Some(v) = location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    resp
}

/// Checks the writer before the body is read: a request that may not write is told so (401, 403),
/// not what is wrong with its body. `commit_as` checks again in its own transaction. (The check
/// marks a key used: it was presented.)
async fn authenticate(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    access: Access,
) -> Result<(), Problem> {
    let secret = bearer(req)?;
    let operator = access == Access::ClubOrOperator && is_operator(state, &secret);
    blocking(state, move |s| {
        s.write(|tx| actor(tx, club, &secret, operator).map(drop))
    })
    .await
}

/// A JSON write: the body is read and parsed as `N`, then `f` runs as one write by `access`,
/// answered with `status`.
async fn write_json<N, T>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: web::Payload,
    status: StatusCode,
    access: Access,
    f: impl FnOnce(&Tx, &Actor, N) -> league::Result<T> + Send + 'static,
) -> Result<HttpResponse, Problem>
where
    N: DeserializeOwned + Validate + Send + 'static,
    T: Kept + Send + 'static,
{
    let (status, body, replayed) = commit_json(req, state, club, body, status, access, f).await?;
    Ok(respond(status, body, replayed))
}

/// `write_json` up to the answer: its status, its body, and whether it was replayed.
async fn commit_json<N, T>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: web::Payload,
    status: StatusCode,
    access: Access,
    f: impl FnOnce(&Tx, &Actor, N) -> league::Result<T> + Send + 'static,
) -> Result<(u16, serde_json::Value, bool), Problem>
where
    N: DeserializeOwned + Validate + Send + 'static,
    T: Kept + Send + 'static,
{
    authenticate(req, state, club, access).await?;
    let bytes = json_body(req, body).await?;
    let new: N = parse_json(&bytes)?;
    commit_as(
        req,
        state,
        club,
        &bytes,
        status,
        access,
        move |tx, actor| f(tx, actor, new),
    )
    .await
}

/// Who may write: the club's keys, or also the operator (issuing a key to a club that lost its
/// own).
#[derive(Clone, Copy, PartialEq)]
enum Access {
    Club,
    ClubOrOperator,
}

/// Whether `token` is the operator's (`ARBITER_ADMIN_TOKEN`); compared by digest so the time taken
/// says nothing about the token.
fn is_operator(state: &LeagueState, token: &str) -> bool {
    state
        .admin_token
        .as_ref()
        .is_some_and(|admin| Sha256::digest(admin) == Sha256::digest(token))
}

/// The writer `secret` names for `club`: the operator where `access` admits one, else a live key of
/// the club (marked used).
fn actor(tx: &Tx, club: i64, secret: &str, operator: bool) -> league::Result<Actor> {
    if operator {
        league::get_club(tx, club)?;
        Ok(Actor::Operator)
    } else {
        league::authorize(tx, club, secret)
    }
}

/// A write to `club` by one of its keys: see `write_as`.
async fn write<T: Kept + Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: &[u8],
    status: StatusCode,
    f: impl FnOnce(&Tx) -> league::Result<T> + Send + 'static,
) -> Result<HttpResponse, Problem> {
    write_as(
        req,
        state,
        club,
        body,
        status,
        Access::Club,
        move |tx, _| f(tx),
    )
    .await
}

/// A write to `club`: the writer is checked, an `Idempotency-Key` replays the writer's earlier
/// answer to the same request (what `Kept` keeps of it), and the write, its answer and the key's
/// record commit together.
async fn write_as<T: Kept + Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: &[u8],
    status: StatusCode,
    access: Access,
    f: impl FnOnce(&Tx, &Actor) -> league::Result<T> + Send + 'static,
) -> Result<HttpResponse, Problem> {
    let (status, body, replayed) = commit_as(req, state, club, body, status, access, f).await?;
    Ok(respond(status, body, replayed))
}

/// `write_as` up to the answer: its status, its body, and whether it was replayed.
async fn commit_as<T: Kept + Send + 'static>(
    req: &HttpRequest,
    state: &web::Data<LeagueState>,
    club: i64,
    body: &[u8],
    status: StatusCode,
    access: Access,
    f: impl FnOnce(&Tx, &Actor) -> league::Result<T> + Send + 'static,
) -> Result<(u16, serde_json::Value, bool), Problem> {
    let secret = bearer(req)?;
    let operator = access == Access::ClubOrOperator && is_operator(state, &secret);
    // The request a key names: method, URI and body, each length-prefixed.
    let idem = idempotency_key(req)?.map(|key| {
        let mut h = Sha256::new();
        for part in [
            req.method().as_str().as_bytes(),
            req.uri().to_string().as_bytes(),
            body,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        Idempotency {
            club,
            key,
            fingerprint: h.finalize().to_vec(),
        }
    });
    blocking(state, move |s| {
        let answer = s.write(|tx| {
            let actor = actor(tx, club, &secret, operator)?;
            let by = match &actor {
                Actor::Key { row, .. } => Some(*row),
                Actor::Operator => None,
            };
            if let Some(i) = &idem
                && let Some((status, body)) = i.replay::<T>(tx, by)?
            {
                return Ok(Answered::Replayed(status, body));
            }
            let answer = f(tx, &actor)?;
            if let Some(i) = &idem {
                i.save(tx, by, status.as_u16(), &answer)?;
            }
            Ok(Answered::Fresh(answer))
        })?;
        // The answer is written out once the writer is free: an import's names every hand.
        Ok(match answer {
            Answered::Fresh(answer) => (
                status.as_u16(),
                serde_json::to_value(answer).expect("a response serializes"),
                false,
            ),
            Answered::Replayed(status, body) => (status, body, true),
        })
    })
    .await
}

/// A write's answer: its own, or the one an `Idempotency-Key` kept (its status and body).
enum Answered<T> {
    Fresh(T),
    Replayed(u16, serde_json::Value),
}

fn respond(status: u16, body: serde_json::Value, replayed: bool) -> HttpResponse {
    let mut resp = HttpResponse::build(StatusCode::from_u16(status).unwrap_or(StatusCode::OK));
    if replayed {
        resp.insert_header(("idempotent-replayed", "true"));
    }
    if status == 204 {
        resp.finish()
    } else {
        json_response(resp, &body)
    }
}

/// Whether the client prefers CSV to JSON: `Accept` with its q-values (RFC 9110 §12.5.1), each
/// type judged by its most specific range. JSON on a tie, and when neither is acceptable.
fn wants_csv(req: &HttpRequest) -> bool {
    let Some(accept) = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let ranges: Vec<(String, f32)> = accept
        .split(',')
        .map(|range| {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (media, q)
        })
        .collect();
    let quality = |media: &str| {
        let kind = media.split('/').next().unwrap_or("");
        let by = |pattern: &str| ranges.iter().find(|(m, _)| m == pattern).map(|(_, q)| *q);
        by(media)
            .or_else(|| by(&format!("{kind}/*")))
            .or_else(|| by("*/*"))
            .unwrap_or(0.0)
    };
    quality("text/csv").max(quality("application/csv")) > quality("application/json")
}

const CSV: &str = "text/csv; charset=utf-8";

/// Bytes of a sheet's rows read and sent at a time.
const SHEET_BATCH: usize = 256 * 1024;

fn csv_response(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(CSV)))
        .body(body)
}

/// A 400 naming the query parameter `name` (pointer `/query/<name>`).
fn bad_query(name: &str, detail: String) -> Problem {
    Problem::new(
        StatusCode::BAD_REQUEST,
        "invalid-query",
        "Invalid query parameter",
        detail.clone(),
    )
    .with(vec![FieldError::new(format!("/query/{name}"), detail)])
}

/// The query string as named parameters; unknown names are refused (a typo would otherwise
/// silently change the answer).
fn query(req: &HttpRequest, known: &[&str]) -> Result<BTreeMap<String, String>, Problem> {
    let params = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map_err(|e| bad_query("", format!("unreadable query string: {e}")))?
        .into_inner();
    let mut out = BTreeMap::new();
    for (k, v) in params {
        if !known.contains(&k.as_str()) {
            return Err(bad_query(
                &k,
                format!(
                    "unknown query parameter '{k}': expected {}",
                    known.join(", ")
                ),
            ));
        }
        if out.insert(k.clone(), v).is_some() {
            return Err(bad_query(&k, format!("'{k}' is given twice")));
        }
    }
    Ok(out)
}

/// The query parameters of a paged list, in the OpenAPI document (`paging` reads them).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // documents the parameters
struct Paging {
    /// A next_cursor from an earlier page; empty or absent for the first
    #[param(pattern = "^[0-9]{0,18}$")]
    cursor: Option<String>,
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// `Paging` for the club's keys, whose cursor is a key's public id.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // documents the parameters
struct KeyPaging {
    /// A next_cursor from an earlier page (a key's id); empty or absent for the first
    #[param(pattern = "^(key_[0-9a-f]{16})?$")]
    cursor: Option<String>,
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<u32>,
}

/// A page's `limit` when none is asked for.
const PAGE_LIMIT: u32 = 100;

fn bad_cursor() -> Problem {
    bad_query("cursor", "expected a cursor returned as next_cursor".into())
}

/// The `cursor` of a list, read by `parse`: `None` for the first page.
fn cursor_by<C>(
    q: &BTreeMap<String, String>,
    parse: impl FnOnce(&str) -> Option<C>,
) -> Result<Option<C>, Problem> {
    // An empty cursor (`?cursor=`, as a client fills in an absent next_cursor) is the first page.
    q.get("cursor")
        .filter(|c| !c.is_empty())
        .map(|c| parse(c).ok_or_else(bad_cursor))
        .transpose()
}

/// A cursor that is an id.
fn id_cursor(c: &str) -> Option<i64> {
    c.parse::<i64>().ok().filter(|c| *c >= 0)
}

/// The `cursor` of a list by id: 0 for the first page.
fn cursor(q: &BTreeMap<String, String>) -> Result<i64, Problem> {
    Ok(cursor_by(q, id_cursor)?.unwrap_or(0))
}

/// `cursor` (read by `parse`) and `limit` of a list.
fn paging_by<C>(
    req: &HttpRequest,
    parse: impl FnOnce(&str) -> Option<C>,
) -> Result<(Option<C>, u32), Problem> {
    let q = query(req, &["cursor", "limit"])?;
    let cursor = cursor_by(&q, parse)?;
    let limit = match q.get("limit") {
        None => PAGE_LIMIT,
        Some(l) => l
            .parse::<u32>()
            .ok()
            .filter(|l| (1..=1000).contains(l))
            .ok_or_else(|| bad_query("limit", "expected a number from 1 to 1000".into()))?,
    };
    Ok((cursor, limit))
}

/// `cursor` and `limit` of a list by id.
fn paging(req: &HttpRequest) -> Result<(i64, u32), Problem> {
    let (cursor, limit) = paging_by(req, id_cursor)?;
    Ok((cursor.unwrap_or(0), limit))
}

/// `resp` with the `Link` to the next page (RFC 8288), if there is one: this path with `next` as
/// its cursor, and the same `limit`.
fn with_next(
    mut resp: HttpResponse,
    req: &HttpRequest,
    next: Option<&str>,
    limit: Option<u32>,
) -> HttpResponse {
    if let Some(next) = next {
        let limit = limit.map(|l| format!("&limit={l}")).unwrap_or_default();
        let link = format!("<{}?cursor={next}{limit}>; rel=\"next\"", req.path());
        if let Ok(v) = HeaderValue::from_str(&link) {
            resp.headers_mut().insert(header::LINK, v);
        }
    }
    resp
}

/// A page of a list as JSON, the next page also in the `Link` header.
fn page_response<T: Serialize>(req: &HttpRequest, page: &Page<T>, limit: u32) -> HttpResponse {
    let resp = json_response(HttpResponse::Ok(), page);
    with_next(resp, req, page.next_cursor.as_deref(), Some(limit))
}

/// What `GET /health/ready` answers when this replica can serve the league.
#[derive(Serialize, ToSchema)]
pub struct Ready {
    /// Always `ready`.
    status: &'static str,
    /// The version of the store's schema, which is this binary's.
    schema: usize,
}

/// Readiness: whether this replica can serve the league, as a load balancer asks before sending it
/// requests. Ready when its store answers a read on the schema this binary migrates to. Liveness,
/// which does not ask the store, is `GET /health`.
#[utoipa::path(
    get, path = "/health/ready", tag = "service",
    responses(
        (status = 200, description = "Ready", body = Ready),
        (status = 503, description = "Not ready: the store does not answer, or its schema is another arbiter's (older or newer)", body = Problem, content_type = "application/problem+json")
    )
)]
async fn readiness(state: web::Data<LeagueState>) -> Result<Json<Ready>, Problem> {
    match on_store(&state, |store| store.ready()).await {
        Ok(schema) => Ok(Json(Ready {
            status: "ready",
            schema,
        })),
        Err(e) => {
            let why = match e {
                StoreError::Database(d) => d,
                other => format!("{other:?}"),
            };
            Err(store_unavailable(format!("not ready: {why}")))
        }
    }
}

/// Mounts the league routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    use super::resource;
    cfg.service(resource("/health/ready").route(web::get().to(readiness)));
    cfg.service(
        resource("/v1/clubs")
            .route(web::get().to(list_clubs))
            .route(web::post().to(create_club)),
    )
    .service(
        resource("/v1/clubs/{club}")
            .route(web::get().to(get_club))
            .route(web::patch().to(set_club)),
    )
    .service(
        resource("/v1/clubs/{club}/keys")
            .route(web::get().to(list_keys))
            .route(web::post().to(create_key)),
    )
    .service(resource("/v1/clubs/{club}/keys/{key}").route(web::delete().to(revoke_key)))
    .service(
        resource("/v1/clubs/{club}/players")
            .route(web::get().to(list_players))
            .route(web::post().to(create_player)),
    )
    .service(
        resource("/v1/clubs/{club}/players/{player}")
            .route(web::get().to(get_player))
            .route(web::patch().to(rename_player)),
    )
    .service(
        resource("/v1/clubs/{club}/partnerships")
            .route(web::get().to(list_partnerships))
            .route(web::post().to(create_partnership)),
    )
    .service(
        resource("/v1/clubs/{club}/partnerships/{partnership}")
            .route(web::get().to(get_partnership)),
    )
    .service(
        resource("/v1/clubs/{club}/leagues")
            .route(web::get().to(list_leagues))
            .route(web::post().to(create_league)),
    )
    .service(resource("/v1/clubs/{club}/leagues/{league}").route(web::get().to(get_league)))
    .service(
        resource("/v1/clubs/{club}/leagues/{league}/sessions")
            .route(web::get().to(list_sessions))
            .route(web::post().to(create_session)),
    )
    .service(
        resource("/v1/clubs/{club}/leagues/{league}/standings").route(web::get().to(standings)),
    )
    .service(resource("/v1/clubs/{club}/leagues/{league}/hands").route(web::get().to(league_hands)))
    .service(
        resource("/v1/clubs/{club}/leagues/{league}/readjudicate")
            .route(web::post().to(readjudicate)),
    )
    .service(
        resource("/v1/clubs/{club}/sessions/{session}")
            .route(web::get().to(get_session))
            .route(web::patch().to(rename_session)),
    )
    .service(
        resource("/v1/clubs/{club}/sessions/{session}/matches").route(web::get().to(list_matches)),
    )
    .service(
        resource("/v1/clubs/{club}/sessions/{session}/hands").route(web::get().to(session_hands)),
    )
    .service(
        resource("/v1/clubs/{club}/sessions/{session}/sheet")
            .route(web::get().to(export_sheet))
            .route(web::post().to(import_sheet)),
    )
    .service(resource("/v1/clubs/{club}/matches").route(web::post().to(create_match)))
    .service(resource("/v1/clubs/{club}/matches/{match}").route(web::get().to(get_match)))
    .service(
        resource("/v1/clubs/{club}/matches/{match}/hands")
            .route(web::get().to(match_hands))
            .route(web::post().to(post_hand)),
    )
    .service(resource("/v1/clubs/{club}/hands/{hand}").route(web::get().to(get_hand)))
    .service(resource("/v1/clubs/{club}/hands/{hand}/amend").route(web::post().to(amend_hand)))
    .service(resource("/v1/clubs/{club}/hands/{hand}/void").route(web::post().to(void_hand)))
    .service(
        resource("/v1/clubs/{club}/hands/{hand}/amendments").route(web::get().to(hand_amendments)),
    )
    .service(resource("/v1/clubs/{club}/amendments").route(web::get().to(list_amendments)))
    .service(resource("/v1/games/{game}/sheet-template").route(web::get().to(sheet_template)));
}

// ---- clubs and keys -------------------------------------------------------------------------

/// A new club and its first API key.
#[derive(Serialize, ToSchema)]
pub struct ClubCreated {
    pub club: Club,
    pub key: ApiKey,
}

/// Every club with public results; with a key, also its own club if that is members-only (every
/// club for the operator's token). An unknown or revoked key is 401.
#[utoipa::path(
    get, path = "/v1/clubs", tag = "league", params(Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Club>), ReadProblems),
    security((), ("bearer" = []))
)]
async fn list_clubs(
    req: HttpRequest,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (cursor, limit) = paging(&req)?;
    let (secret, operator) = reader_token(&req, &state);
    let page = read(&state, move |tx| {
        let reader = Reader::named(tx, secret.as_deref(), operator)?;
        league::list_clubs(tx, reader, cursor, limit)
    })
    .await?;
    Ok(page_response(&req, &page, limit))
}

/// Creates a club and its first key (shown once). Needs the operator's token
/// (`ARBITER_ADMIN_TOKEN`); without one configured, create clubs with `arbiter club create`.
#[utoipa::path(
    post, path = "/v1/clubs", tag = "league", request_body = NewClub,
    responses((status = 201, description = "Created; Location names it", body = ClubCreated), WriteProblems),
    security(("bearer" = []))
)]
async fn create_club(
    req: HttpRequest,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    if !is_operator(&state, &bearer(&req)?) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "Forbidden",
            "creating clubs needs the operator's token (ARBITER_ADMIN_TOKEN); or run `arbiter club create`".into(),
        ));
    }
    let new: NewClub = parse_json(&json_body(&req, body).await?)?;
    let (club, key) = blocking(&state, move |s| {
        s.write(|tx| league::create_club(tx, &new.name, new.visibility))
    })
    .await?;
    let location = format!("/v1/clubs/{}", club.id);
    Ok(with_location(
        json_response(HttpResponse::Created(), &ClubCreated { club, key }),
        Some(location),
    ))
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}", tag = "league", params(("club" = i64, Path)), responses((status = 200, description = "OK", body = Club), ReadProblems), security((), ("bearer" = [])))]
async fn get_club(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<Json<Club>, Problem> {
    let club = id(&path, "club")?;
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_club(tx, club)
    })
    .await
    .map(Json)
}

/// Changes who may read the club (`visibility`), with one of its keys.
#[utoipa::path(
    patch, path = "/v1/clubs/{club}", tag = "league", params(("club" = i64, Path)), request_body = ClubSettings,
    responses((status = 200, description = "The club with its new setting", body = Club), WriteProblems), security(("bearer" = []))
)]
async fn set_club(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let (status, access) = (StatusCode::OK, Access::Club);
    write_json(
        &req,
        &state,
        club,
        body,
        status,
        access,
        move |tx, _, s: ClubSettings| league::set_visibility(tx, club, s.visibility),
    )
    .await
}

/// Creates another key for the club (its secret shown once, in this answer; a replay of the request
/// with the same `Idempotency-Key` answers the key's id and label with `secret_shown_once`, never
/// the secret). The operator's token (`ARBITER_ADMIN_TOKEN`) may issue one too: the way back for
/// a club that lost its keys.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/keys", tag = "league", params(("club" = i64, Path)), request_body = NewKey,
    responses((status = 201, description = "Created; Location names it", body = ApiKey), WriteProblems), security(("bearer" = []))
)]
async fn create_key(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    create_as(
        &req,
        &state,
        club,
        body,
        Access::ClubOrOperator,
        move |tx, new: NewKey| league::create_key(tx, club, &new.label),
    )
    .await
}

/// The club's keys, oldest first: id, label, when created, last used and revoked; never a secret.
/// Needs one of the club's keys, or the operator's token.
#[utoipa::path(
    get, path = "/v1/clubs/{club}/keys", tag = "league", params(("club" = i64, Path), KeyPaging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<KeyInfo>), WriteProblems), security(("bearer" = []))
)]
async fn list_keys(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let (after, limit) = paging_by(&req, |c| league::is_key_id(c).then(|| c.to_string()))?;
    let secret = bearer(&req)?;
    let operator = is_operator(&state, &secret);
    // On the writer: authenticating marks the key used.
    let page = blocking(&state, move |s| {
        s.write(|tx| {
            actor(tx, club, &secret, operator)?;
            league::list_keys(tx, club, after.as_deref(), limit)
        })
    })
    .await?;
    Ok(page_response(&req, &page, limit))
}

/// Revokes a key by its id; the club's last live key cannot be revoked.
#[utoipa::path(
    delete, path = "/v1/clubs/{club}/keys/{key}", tag = "league", params(("club" = i64, Path), ("key" = String, Path)),
    responses((status = 204, description = "Revoked"), WriteProblems), security(("bearer" = []))
)]
async fn revoke_key(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path.0, "club")?;
    let key = path.1.clone();
    write(&req, &state, club, b"", StatusCode::NO_CONTENT, move |tx| {
        league::revoke_key(tx, club, &key)
    })
    .await
}

// ---- players and partnerships ---------------------------------------------------------------

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/players", tag = "league", params(("club" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Player>), ReadProblems), security((), ("bearer" = []))
)]
async fn list_players(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let list = move |tx: &Tx, cursor, limit| league::list_players(tx, club, cursor, limit);
    list_as(&req, &state, club, Shows::Results, list).await
}

#[utoipa::path(
    post, path = "/v1/clubs/{club}/players", tag = "league", params(("club" = i64, Path)), request_body = NewNamed,
    responses((status = 201, description = "Created; Location names it", body = Player), WriteProblems), security(("bearer" = []))
)]
async fn create_player(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    create(&req, &state, club, body, move |tx, new: NewNamed| {
        league::create_player(tx, club, &new.name)
    })
    .await
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}/players/{player}", tag = "league", params(("club" = i64, Path), ("player" = i64, Path)), responses((status = 200, description = "OK", body = Player), ReadProblems), security((), ("bearer" = [])))]
async fn get_player(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<Player>, Problem> {
    let (club, player) = (id(&path.0, "club")?, id(&path.1, "player")?);
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_player(tx, club, player)
    })
    .await
    .map(Json)
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/partnerships", tag = "league", params(("club" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Partnership>), ReadProblems), security((), ("bearer" = []))
)]
async fn list_partnerships(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let list = move |tx: &Tx, cursor, limit| league::list_partnerships(tx, club, cursor, limit);
    list_as(&req, &state, club, Shows::Results, list).await
}

/// Registers a fixed team of two or more players (a pair, one of three pairs at six seats, a team
/// of three). A match whose side is exactly these players counts for the partnership.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/partnerships", tag = "league", params(("club" = i64, Path)), request_body = NewPartnership,
    responses((status = 201, description = "Created; Location names it", body = Partnership), WriteProblems), security(("bearer" = []))
)]
async fn create_partnership(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    create(&req, &state, club, body, move |tx, new: NewPartnership| {
        league::create_partnership(tx, club, &new)
    })
    .await
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}/partnerships/{partnership}", tag = "league", params(("club" = i64, Path), ("partnership" = i64, Path)), responses((status = 200, description = "OK", body = Partnership), ReadProblems), security((), ("bearer" = [])))]
async fn get_partnership(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<Partnership>, Problem> {
    let (club, p) = (id(&path.0, "club")?, id(&path.1, "partnership")?);
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_partnership(tx, club, p)
    })
    .await
    .map(Json)
}

// ---- leagues, sessions, standings -----------------------------------------------------------

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/leagues", tag = "league", params(("club" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<League>), ReadProblems), security((), ("bearer" = []))
)]
async fn list_leagues(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let list = move |tx: &Tx, cursor, limit| league::list_leagues(tx, club, cursor, limit);
    list_as(&req, &state, club, Shows::Results, list).await
}

/// Creates a league: one game with fixed options, for one season.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/leagues", tag = "league", params(("club" = i64, Path)), request_body = NewLeague,
    responses((status = 201, description = "Created; Location names it", body = League), WriteProblems), security(("bearer" = []))
)]
async fn create_league(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    create(&req, &state, club, body, move |tx, new: NewLeague| {
        league::create_league(tx, club, &new)
    })
    .await
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}/leagues/{league}", tag = "league", params(("club" = i64, Path), ("league" = i64, Path)), responses((status = 200, description = "OK", body = League), ReadProblems), security((), ("bearer" = [])))]
async fn get_league(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<League>, Problem> {
    let (club, l) = (id(&path.0, "club")?, id(&path.1, "league")?);
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_league(tx, club, l)
    })
    .await
    .map(Json)
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/leagues/{league}/sessions", tag = "league", params(("club" = i64, Path), ("league" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Session>), ReadProblems), security((), ("bearer" = []))
)]
async fn list_sessions(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, l) = (id(&path.0, "club")?, id(&path.1, "league")?);
    let list = move |tx: &Tx, cursor, limit| league::list_sessions(tx, club, l, cursor, limit);
    list_as(&req, &state, club, Shows::Results, list).await
}

/// Opens a session (an evening of play) in a league.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/leagues/{league}/sessions", tag = "league", params(("club" = i64, Path), ("league" = i64, Path)),
    request_body = NewSession, responses((status = 201, description = "Created; Location names it", body = Session), WriteProblems), security(("bearer" = []))
)]
async fn create_session(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, l) = (id(&path.0, "club")?, id(&path.1, "league")?);
    create(&req, &state, club, body, move |tx, new: NewSession| {
        league::create_session(tx, club, l, &new)
    })
    .await
}

/// The league's standings for players (with Weng-Lin ratings from each match's full order of
/// finish, and their camps in a game played in camps) and registered partnerships, computed from
/// the stored hands once per change of the league and kept until the next. `Accept: text/csv`
/// gives one CSV table. A computation waits for a turn on the pool for expensive work: 503 with
/// `Retry-After` when too many wait. Public for a club with public results; a members-only club's
/// need one of its keys (without one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/leagues/{league}/standings", tag = "league", params(("club" = i64, Path), ("league" = i64, Path)),
    responses((status = 200, description = "Standings as JSON, or as CSV for Accept: text/csv", content((Standings = "application/json"), (String = "text/csv"))), ReadProblems, (status = 503, description = "The store could not be read, or too much expensive work is waiting (`busy`, with Retry-After)", body = Problem, content_type = "application/problem+json")), security((), ("bearer" = []))
)]
async fn standings(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, l) = (id(&path.0, "club")?, id(&path.1, "league")?);
    // Who may read is checked before the kept standings are looked at.
    let generation = read_as(&req, &state, club, Shows::Results, move |tx| {
        league::generation(tx, club, l)
    })
    .await?;
    let store = state.store.clone();
    let compute = move || {
        store.read_expensive(|tx| {
            Ok((
                league::generation(tx, club, l)?,
                league::standings(tx, club, l)?,
            ))
        })
    };
    let s = state
        .standings
        .get((club, l), generation, &state.expensive, compute)
        .await?;
    Ok(if wants_csv(&req) {
        csv_response(league::standings_table(&s))
    } else {
        json_response(HttpResponse::Ok(), &s)
    })
}

/// Replays every stored hand of the league through today's rules and reports the hands whose
/// ruling changed. With `dry_run=true` nothing is stored. If a hand no longer replays, nothing
/// changes (409). Runs on the pool for expensive work (503 with `Retry-After` when too much waits).
#[utoipa::path(
    post, path = "/v1/clubs/{club}/leagues/{league}/readjudicate", tag = "league",
    params(("club" = i64, Path), ("league" = i64, Path), ("dry_run" = Option<bool>, Query, description = "Report without storing")),
    responses((status = 200, description = "OK", body = Readjudication), WriteProblems), security(("bearer" = []))
)]
async fn readjudicate(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, l) = (id(&path.0, "club")?, id(&path.1, "league")?);
    let q = query(&req, &["dry_run"])?;
    let dry_run = match q.get("dry_run").map(String::as_str) {
        None | Some("false") => false,
        Some("true") => true,
        Some(_) => return Err(bad_query("dry_run", "expected true or false".into())),
    };
    // A request that may not write is told so before it takes a place in the queue.
    authenticate(&req, &state, club, Access::Club).await?;
    let turn = state.expensive.admit()?.turn().await;
    write(&req, &state, club, b"", StatusCode::OK, move |tx| {
        let _turn = turn;
        league::readjudicate(tx, club, l, dry_run)
    })
    .await
}

// ---- sessions, matches and hands ------------------------------------------------------------

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}/sessions/{session}", tag = "league", params(("club" = i64, Path), ("session" = i64, Path)), responses((status = 200, description = "OK", body = Session), ReadProblems), security((), ("bearer" = [])))]
async fn get_session(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<Session>, Problem> {
    let (club, s) = (id(&path.0, "club")?, id(&path.1, "session")?);
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_session(tx, club, s)
    })
    .await
    .map(Json)
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/sessions/{session}/matches", tag = "league", params(("club" = i64, Path), ("session" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Match>), ReadProblems), security((), ("bearer" = []))
)]
async fn list_matches(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, s) = (id(&path.0, "club")?, id(&path.1, "session")?);
    let list = move |tx: &Tx, cursor, limit| league::list_matches(tx, club, s, cursor, limit);
    list_as(&req, &state, club, Shows::Results, list).await
}

/// Starts a match in a session with a player at each seat.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/matches", tag = "league", params(("club" = i64, Path)), request_body = NewMatch,
    responses((status = 201, description = "Created; Location names it", body = Match), WriteProblems), security(("bearer" = []))
)]
async fn create_match(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    create(&req, &state, club, body, move |tx, new: NewMatch| {
        league::create_match(tx, club, &new)
    })
    .await
}

/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(get, path = "/v1/clubs/{club}/matches/{match}", tag = "league", params(("club" = i64, Path), ("match" = i64, Path)), responses((status = 200, description = "OK", body = Match), ReadProblems), security((), ("bearer" = [])))]
async fn get_match(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<Match>, Problem> {
    let (club, m) = (id(&path.0, "club")?, id(&path.1, "match")?);
    read_as(&req, &state, club, Shows::Results, move |tx| {
        league::get_match(tx, club, m)
    })
    .await
    .map(Json)
}

/// Posts the next hand of a match: adjudicated on the way in and stored with its ruling and the
/// new match state. Irregularities are stored with the hand; a record error is refused (422).
#[utoipa::path(
    post, path = "/v1/clubs/{club}/matches/{match}/hands", tag = "league", params(("club" = i64, Path), ("match" = i64, Path)),
    request_body = HandRecord, responses((status = 201, description = "Created; Location names it", body = HandSummary), WriteProblems), security(("bearer" = []))
)]
async fn post_hand(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, m) = (id(&path.0, "club")?, id(&path.1, "match")?);
    let answer = create(&req, &state, club, body, move |tx, record: HandRecord| {
        league::post_hand(tx, club, m, &record)
    })
    .await;
    about_record_for(&state, club, RecordFor::Match(m), answer).await
}

/// Where a league write puts a hand record: after the hands of a stored match (the body is the
/// record), or over a stored hand (the record is the body's `record`).
#[derive(Clone, Copy)]
enum RecordFor {
    Match(i64),
    Hand(i64),
}

/// A refused hand record of a stored match is answered as the game endpoints answer one: titled
/// as the record's problem (`invalid-record`) when every error is in the record, and with the
/// seats of the match's table where a seat did not parse (the parser offers every seat there is).
async fn about_record_for<T>(
    state: &web::Data<LeagueState>,
    club: i64,
    to: RecordFor,
    answer: Result<T, Problem>,
) -> Result<T, Problem> {
    let Err(p) = answer else { return answer };
    if p.status != StatusCode::UNPROCESSABLE_ENTITY.as_u16() {
        return Err(p);
    }
    let record = match to {
        RecordFor::Match(_) => "",
        RecordFor::Hand(_) => "/record",
    };
    let in_record = p.errors.iter().all(|e| {
        e.pointer
            .strip_prefix(record)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    });
    let p = if in_record { p.about_record() } else { p };
    let seats = read(state, move |tx| {
        let m = match to {
            RecordFor::Match(m) => m,
            RecordFor::Hand(h) => league::match_of(tx, club, h)?,
        };
        Ok(league::get_match(tx, club, m)?
            .seats
            .into_keys()
            .collect::<Vec<_>>())
    })
    .await;
    Err(match seats {
        Ok(seats) => p.offering_seats(&seats),
        Err(_) => p,
    })
}

async fn hand_list(
    req: HttpRequest,
    state: web::Data<LeagueState>,
    club: &str,
    scope: impl FnOnce(i64) -> HandScope,
) -> Result<HttpResponse, Problem> {
    let club = id(club, "club")?;
    let (cursor, limit) = paging(&req)?;
    let scope = scope(club);
    let page = read_as(&req, &state, club, Shows::Results, move |tx| {
        league::list_hands(tx, club, scope, cursor, limit)
    })
    .await?;
    if wants_csv(&req) {
        let resp = csv_response(league::hands_table(&page.items));
        Ok(with_next(
            resp,
            &req,
            page.next_cursor.as_deref(),
            Some(limit),
        ))
    } else {
        Ok(page_response(&req, &page, limit))
    }
}

/// The match's hands, oldest first. `Accept: text/csv` gives one row per hand (next page in the
/// `Link` header).
/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/matches/{match}/hands", tag = "league",
    params(("club" = i64, Path), ("match" = i64, Path), Paging),
    responses((status = 200, description = "A page of hands as JSON, or as CSV for Accept: text/csv", content((Page<HandSummary> = "application/json"), (String = "text/csv"))), ReadProblems), security((), ("bearer" = []))
)]
async fn match_hands(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let m = id(&path.1, "match")?;
    hand_list(req, state, &path.0, |_| HandScope::Match(m)).await
}

/// The session's hands, oldest first (JSON or `text/csv`).
/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/sessions/{session}/hands", tag = "league",
    params(("club" = i64, Path), ("session" = i64, Path), Paging),
    responses((status = 200, description = "A page of hands as JSON, or as CSV for Accept: text/csv", content((Page<HandSummary> = "application/json"), (String = "text/csv"))), ReadProblems), security((), ("bearer" = []))
)]
async fn session_hands(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let s = id(&path.1, "session")?;
    hand_list(req, state, &path.0, |_| HandScope::Session(s)).await
}

/// The league's hands, oldest first (JSON or `text/csv`).
/// Public for a club with public results; a members-only club's need one of its keys (without
/// one, 404).
#[utoipa::path(
    get, path = "/v1/clubs/{club}/leagues/{league}/hands", tag = "league",
    params(("club" = i64, Path), ("league" = i64, Path), Paging),
    responses((status = 200, description = "A page of hands as JSON, or as CSV for Accept: text/csv", content((Page<HandSummary> = "application/json"), (String = "text/csv"))), ReadProblems), security((), ("bearer" = []))
)]
async fn league_hands(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let l = id(&path.1, "league")?;
    hand_list(req, state, &path.0, |_| HandScope::League(l)).await
}

/// One stored hand: the record as posted and its adjudication.
/// Needs one of the club's keys (or the operator's token), whatever the club's visibility.
#[utoipa::path(get, path = "/v1/clubs/{club}/hands/{hand}", tag = "league", params(("club" = i64, Path), ("hand" = i64, Path)), responses((status = 200, description = "OK", body = StoredHand), RecordReadProblems), security(("bearer" = [])))]
async fn get_hand(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<Json<StoredHand>, Problem> {
    let (club, h) = (id(&path.0, "club")?, id(&path.1, "hand")?);
    read_as(&req, &state, club, Shows::Records, move |tx| {
        league::get_hand(tx, club, h)
    })
    .await
    .map(Json)
}

// ---- corrections and the audit trail --------------------------------------------------------

/// Amends a stored hand: its record is replaced and the match is adjudicated again from that hand
/// on, in one transaction. The answer lists the amended hand and every later hand whose ruling
/// changed (before and after) and the match state before and after. A record that does not
/// adjudicate (422, pointers under `/record`), or a later hand that no longer does (409), leaves
/// everything as it was. Kept in the audit trail.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/hands/{hand}/amend", tag = "league", params(("club" = i64, Path), ("hand" = i64, Path)),
    request_body = HandAmendment, responses((status = 200, description = "OK", body = Correction), WriteProblems), security(("bearer" = []))
)]
async fn amend_hand(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, hand) = (id(&path.0, "club")?, id(&path.1, "hand")?);
    let (status, access) = (StatusCode::OK, Access::Club);
    let answer = write_json(
        &req,
        &state,
        club,
        body,
        status,
        access,
        move |tx, by, a: HandAmendment| league::amend_hand(tx, club, hand, &a, by),
    )
    .await;
    about_record_for(&state, club, RecordFor::Hand(hand), answer).await
}

/// Voids a stored hand: it no longer counts (its record and ruling stay in the audit trail), and
/// the later hands of its match move up one and are adjudicated again, in one transaction. A later
/// hand that no longer adjudicates (409) leaves everything as it was.
#[utoipa::path(
    post, path = "/v1/clubs/{club}/hands/{hand}/void", tag = "league", params(("club" = i64, Path), ("hand" = i64, Path)),
    request_body = HandVoid, responses((status = 200, description = "OK", body = Correction), WriteProblems), security(("bearer" = []))
)]
async fn void_hand(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, hand) = (id(&path.0, "club")?, id(&path.1, "hand")?);
    let (status, access) = (StatusCode::OK, Access::Club);
    write_json(
        &req,
        &state,
        club,
        body,
        status,
        access,
        move |tx, by, v: HandVoid| league::void_hand(tx, club, hand, &v, by),
    )
    .await
}

/// Renames a player (kept in the audit trail).
#[utoipa::path(
    patch, path = "/v1/clubs/{club}/players/{player}", tag = "league", params(("club" = i64, Path), ("player" = i64, Path)),
    request_body = NewNamed, responses((status = 200, description = "OK", body = Player), WriteProblems), security(("bearer" = []))
)]
async fn rename_player(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, player) = (id(&path.0, "club")?, id(&path.1, "player")?);
    let (status, access) = (StatusCode::OK, Access::Club);
    write_json(
        &req,
        &state,
        club,
        body,
        status,
        access,
        move |tx, by, n: NewNamed| league::rename_player(tx, club, player, &n.name, by),
    )
    .await
}

/// Renames a session (kept in the audit trail).
#[utoipa::path(
    patch, path = "/v1/clubs/{club}/sessions/{session}", tag = "league", params(("club" = i64, Path), ("session" = i64, Path)),
    request_body = NewNamed, responses((status = 200, description = "OK", body = Session), WriteProblems), security(("bearer" = []))
)]
async fn rename_session(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, session) = (id(&path.0, "club")?, id(&path.1, "session")?);
    let (status, access) = (StatusCode::OK, Access::Club);
    write_json(
        &req,
        &state,
        club,
        body,
        status,
        access,
        move |tx, by, n: NewNamed| league::rename_session(tx, club, session, &n.name, by),
    )
    .await
}

/// The club's audit trail, oldest first: every amended or voided hand and renamed player or
/// session, who did it (a key's id, or `operator`), when, and what it was before.
/// Needs one of the club's keys (or the operator's token), whatever the club's visibility.
#[utoipa::path(
    get, path = "/v1/clubs/{club}/amendments", tag = "league",
    params(("club" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Amendment>), RecordReadProblems), security(("bearer" = []))
)]
async fn list_amendments(
    req: HttpRequest,
    path: web::Path<String>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let club = id(&path, "club")?;
    let list = move |tx: &Tx, cursor, limit| league::list_amendments(tx, club, cursor, limit);
    list_as(&req, &state, club, Shows::Records, list).await
}

/// A stored hand's audit trail, oldest first: its amendments and its void, each with who did it,
/// when and what it was before (the club's trail, `/amendments`, holds them among the rest). A
/// voided hand's trail is still listed; a hand neither stored nor in the trail is 404.
/// Needs one of the club's keys (or the operator's token), whatever the club's visibility.
#[utoipa::path(
    get, path = "/v1/clubs/{club}/hands/{hand}/amendments", tag = "league",
    params(("club" = i64, Path), ("hand" = i64, Path), Paging),
    responses((status = 200, description = "A page of the list; the next page, if any, also in the Link header", body = Page<Amendment>), RecordReadProblems), security(("bearer" = []))
)]
async fn hand_amendments(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, hand) = (id(&path.0, "club")?, id(&path.1, "hand")?);
    let list = move |tx: &Tx, cursor, limit| league::hand_amendments(tx, club, hand, cursor, limit);
    list_as(&req, &state, club, Shows::Records, list).await
}

// ---- sheets ---------------------------------------------------------------------------------

/// The session as a sheet (one row per action, the import format): it imports into another
/// session as the same hands. Paged by whole matches within the import's limits (rows and bytes):
/// the next page is in the `Link` header (`rel="next"`), and each page imports in turn. The page
/// is planned on the pool for expensive work (503 with `Retry-After` when too much waits), then
/// streamed (chunked) a batch of matches at a time.
/// Needs one of the club's keys (or the operator's token), whatever the club's visibility.
#[utoipa::path(
    get, path = "/v1/clubs/{club}/sessions/{session}/sheet", tag = "league",
    params(("club" = i64, Path), ("session" = i64, Path), ("cursor" = Option<String>, Query, pattern = "^[0-9]{0,18}$", description = "From the previous page's Link header; empty or absent for the first")),
    responses((status = 200, description = "A page of the sheet; the next page, if any, in the Link header", body = String, content_type = "text/csv"), RecordReadProblems, (status = 503, description = "The store could not be read, or too much expensive work is waiting (`busy`, with Retry-After)", body = Problem, content_type = "application/problem+json")), security(("bearer" = []))
)]
async fn export_sheet(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
) -> Result<HttpResponse, Problem> {
    let (club, s) = (id(&path.0, "club")?, id(&path.1, "session")?);
    let after = cursor(&query(&req, &["cursor"])?)?;
    // Who may read is checked before the export takes a place on the pool.
    read_as(&req, &state, club, Shows::Records, |_| Ok(())).await?;
    let store = state.store.clone();
    let page = state
        .expensive
        .run(move || Ok(store.read_expensive(|tx| league::plan_sheet(tx, club, s, after))?))
        .await?;
    let next = page.next_cursor.map(|n| n.to_string());
    // Each batch is a cheap read of its own: a slow client holds no connection and no turn.
    let store = state.store.clone();
    let rows = stream::iter(page.batches(SHEET_BATCH)).then(move |batch| {
        let store = store.clone();
        async move {
            let rows = web::block(move || store.read(|tx| league::sheet_rows(tx, club, &batch)))
                .await
                .map_err(|e| e.to_string())
                .and_then(|rows| rows.map_err(|e| format!("{e:?}")));
            // Past the header the status is sent: a failure can only end the transfer early
            // (the chunked body then has no last chunk, so no client takes it for whole).
            rows.map(web::Bytes::from).map_err(|e| {
                eprintln!("arbiter: the sheet of session {s} ended early: {e}");
                std::io::Error::other(e)
            })
        }
    });
    let header = stream::once(ready(Ok(web::Bytes::from(league::sheet_header()))));
    let resp = HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, HeaderValue::from_static(CSV)))
        .streaming(header.chain(rows));
    Ok(with_next(resp, &req, next.as_deref(), None))
}

/// Imports a sheet of hands into the session (`text/csv`, columns in the README): all of it, or
/// (with every problem's row and column) nothing. Send an `Idempotency-Key` to make a retry safe.
/// Runs on the pool for expensive work (503 with `Retry-After` when too much waits).
#[utoipa::path(
    post, path = "/v1/clubs/{club}/sessions/{session}/sheet", tag = "league",
    params(("club" = i64, Path), ("session" = i64, Path), ("Idempotency-Key" = Option<String>, Header, pattern = "^[!-~]{1,255}$", description = "Makes a retried import store once")),
    request_body(content = SheetBody, content_type = "text/csv", description = "match,hand,dealer,seat,action,value"),
    responses((status = 201, description = "Created; Location names it", body = ImportReport), WriteProblems), security(("bearer" = []))
)]
async fn import_sheet(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<LeagueState>,
    body: web::Payload,
) -> Result<HttpResponse, Problem> {
    let (club, s) = (id(&path.0, "club")?, id(&path.1, "session")?);
    authenticate(&req, &state, club, Access::Club).await?;
    require_content_type(&req, "text/csv", |e| {
        ["text/csv", "application/csv", "text/plain"].contains(&e)
    })?;
    let bytes = read_body(&req, body, league::MAX_SHEET).await?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "empty-body",
            "Empty body",
            "the sheet is empty: expected CSV with a header".into(),
        ));
    }
    // One copy of the sheet, shared by the preparation and the write's idempotency check.
    let sheet: Arc<[u8]> = Arc::from(&bytes[..]);
    drop(bytes);
    let turn = state.expensive.admit()?.turn().await;
    // Nearly all of an import is preparing it, which needs no writer: the write only publishes
    // it. A sheet refused is answered after the write's idempotency check (a retried import
    // replays its answer, though its hands are now stored).
    let shared = sheet.clone();
    let prepared = blocking(&state, move |store| {
        let _turn = turn;
        Ok(store.read_expensive(|tx| league::prepare_import(tx, club, s, shared)))
    })
    .await?;
    // The write borrows the prepared sheet, which is freed (tens of megabytes of small blocks)
    // once the writer is free again, on a blocking thread.
    let prepared = prepared.map(Arc::new);
    let kept = prepared.as_ref().ok().cloned();
    let resp = write(&req, &state, club, &sheet, StatusCode::CREATED, move |tx| {
        league::publish(tx, &*prepared?)
    })
    .await
    .map_err(Problem::about_sheet);
    actix_web::rt::task::spawn_blocking(move || {
        drop(kept);
        give_back_freed_memory();
    });
    let resp = resp?;
    // An import creates hands of the session.
    let location = format!("/v1/clubs/{club}/sessions/{s}/hands");
    Ok(with_location(resp, Some(location)))
}

/// Gives the memory an import freed back to the system. An import holds tens of megabytes of
/// small blocks (every hand's record and ruling) and frees them at once; glibc keeps freed blocks
/// in the arena of the thread that freed them, so the server stayed that much larger after each
/// import and grew with imports on other threads (issue 26, target 7). Run on a blocking thread,
/// after the write: a trim walks the whole heap.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system, under the allocator's locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A sheet as `import_sheet` reads it, in the OpenAPI document: CSV, not empty.
pub struct SheetBody;

impl utoipa::PartialSchema for SheetBody {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("[^\\t\\n\\f\\r ]"))
            .description(Some(
                "CSV with the header match,hand,dealer,seat,action,value",
            ))
            .into()
    }
}

impl ToSchema for SheetBody {}

/// The sheet's header and one example row of each kind for a game.
#[utoipa::path(
    get, path = "/v1/games/{game}/sheet-template", tag = "league", params(("game" = super::GameId, Path)),
    responses((status = 200, description = "The template", body = String, content_type = "text/csv"),
              (status = 404, description = "Unknown game", body = Problem, content_type = "application/problem+json"))
)]
async fn sheet_template(path: web::Path<String>) -> Result<HttpResponse, Problem> {
    Ok(csv_response(league::sheet_template(super::game(&path)?)))
}
