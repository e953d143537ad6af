//! The HTTP API (`/v1/...`): thin handlers that parse, call the engine and map errors.

pub mod expensive;
pub mod league;
pub mod problem;

use crate::engine::{
    self, Adjudication, Bonus, BonusStatus, Camp, Contract, CorrectedRevoke, Decides, Effect,
    Event, FieldError, Game, GameInfo, IgnoredAction, Irregularity, MatchReport, MatchState,
    OptionKind, OptionSpec, Outcome, PlayedCard, RecordError, Recorded, ScoreItem, ScoreSource,
    Seat, Side, TableView, Tally, TrickReport,
};
use crate::record::{Action, HandRecord, MatchRecord};
use crate::{cards, games};
use actix_web::dev::Service;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use problem::{Problem, checked_document, json_body, parse_json, read_document, without_bom};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::OnceLock;
use utoipa::{OpenApi, ToSchema};
use utoipa_swagger_ui::SwaggerUi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "arbiter",
        description = "Replays recorded card-game hands through a rules engine and adjudicates them: trick winners, \
                       irregularities with their evidence and penalties, bonuses, hand and match scores. \
                       Record format: docs/records.md."
    ),
    paths(
        health, league::readiness, serve_openapi, list_games, get_game, adjudicate, adjudicate_match, legal_actions,
        league::list_clubs, league::create_club, league::get_club, league::set_club, league::list_keys, league::create_key, league::revoke_key,
        league::list_players, league::create_player, league::get_player, league::rename_player,
        league::list_partnerships, league::create_partnership, league::get_partnership,
        league::list_leagues, league::create_league, league::get_league,
        league::list_sessions, league::create_session, league::standings, league::readjudicate,
        league::get_session, league::rename_session, league::list_matches, league::create_match, league::get_match,
        league::post_hand, league::match_hands, league::session_hands, league::league_hands, league::get_hand,
        league::amend_hand, league::void_hand, league::hand_amendments, league::list_amendments,
        league::export_sheet, league::import_sheet, league::sheet_template,
        crate::desk::examples
    ),
    modifiers(&BearerAuth, &CreatedLocation, &OwnSchemas),
    components(schemas(
        cards::Card, cards::Suit, Seat, Side, Action, HandRecord, MatchRecord, MatchState, Adjudication, Outcome, Camp,
        TrickReport, PlayedCard, Irregularity, Effect, Decides, CorrectedRevoke, RecordError, IgnoredAction, Bonus, BonusStatus,
        ScoreItem, ScoreSource, Contract, Event, Tally, MatchReport,
        TableView, GameInfo, GameDescription, SchemaRefs, OptionSpec, OptionKind, Problem, FieldError, Health, league::Ready, GameId, crate::desk::Example
    )),
    tags((name = "games", description = "Rules, adjudication and legal actions (stateless)"),
         (name = "league", description = "Clubs, leagues, players, partnerships, sessions, matches, stored hands, standings and sheets. \
                                           Writes need the club's key (Authorization: Bearer ...). Reads depend on the club's visibility: \
                                           with public_results (the default) its results (players, partnerships, leagues, sessions, matches, hand lists, standings) \
                                           are public and its records (a hand's record and adjudication, the audit trail, sheets) need one of its keys; \
                                           a members_only club is, to a reader without one of its keys, a club that does not exist (404)"),
         (name = "service", description = "Service health"))
)]
pub struct ApiDoc;

/// The `bearer` security scheme that league writes name.
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "bearer",
                SecurityScheme::Http(
                    HttpBuilder::new()
                        .scheme(HttpAuthScheme::Bearer)
                        .description(Some(
                            "A club API key (`arbiter club create` prints the first one)",
                        ))
                        .build(),
                ),
            );
    }
}

/// Each game's own schemas: its actions (its verbs and their values), a record in them, its
/// adjudication details and what it carries in the match state (`GET /v1/games/{game}` names them).
struct OwnSchemas;

impl utoipa::Modify for OwnSchemas {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Ref, Schema};
        let components = openapi.components.get_or_insert_with(Default::default);
        for game in games::all() {
            let names = SchemaRefs::of(*game);
            let own = game.schemas();
            let name = |r: &str| r.trim_start_matches("#/components/schemas/").to_string();
            components.schemas.insert(name(&names.action), own.action);
            let actions = ArrayBuilder::new()
                .items(Ref::new(&names.action))
                .max_items(Some(crate::record::MAX_ACTIONS));
            let setup = game.setup(&engine::Options::defaults(game.info().options));
            // HandRecord's object with this game's fields in place of the generic ones, not an
            // `allOf` of both: generators cannot merge two `actions` lists of different items.
            let Some(RefOr::T(Schema::Object(hand))) = components.schemas.get("HandRecord") else {
                unreachable!("HandRecord is registered as an object")
            };
            let mut record = ObjectBuilder::from(hand.clone()).description(Some(format!(
                "A recorded hand of {}: its actions in the game's own verbs; it holds {}.",
                game.info().name,
                setup.describe()
            )));
            record = record.property("actions", actions);
            for field in engine::deal::SETUP_FIELDS {
                record = record.property(field, setup_schema(&setup, field));
            }
            components
                .schemas
                .insert(name(&names.record), record.into());
            components.schemas.insert(own.details.0, own.details.1);
            components.schemas.insert(own.carried.0, own.carried.1);
            components.schemas.extend(own.nested);
        }
    }
}

/// The schema of record field `field` (one of `deal::SETUP_FIELDS`) in a game declaring `setup`:
/// what the game's part holds and its bounds from the game's pack, or nothing (an empty list, no
/// cut card) where the game holds no such part.
fn setup_schema(setup: &engine::deal::Setup, field: &str) -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    let holds = setup.holding(field);
    let (min, max) = holds.map_or((0, 0), |h| {
        (h.count.min() as usize, h.count.max(&setup.pack) as usize)
    });
    let what = holds.map(|h| h.what.to_string());
    if field == "cut_card" {
        let number = ObjectBuilder::new().description(what);
        return match holds {
            Some(_) => number
                .schema_type(Type::Integer)
                .minimum(Some(min as f64))
                .maximum(Some(max as f64)),
            None => number
                .schema_type(Type::Null)
                .description(Some("not held by this game's record")),
        }
        .into();
    }
    let (min, max) = (holds.map(|_| min), max);
    ArrayBuilder::new()
        .description(what.or(Some("not held by this game's record: empty".into())))
        .min_items(min.filter(|&m| m > 0))
        .max_items(Some(max))
        .into()
}

/// Every 201 says where the new resource is (`Location`).
struct CreatedLocation;

impl utoipa::Modify for CreatedLocation {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{RefOr, Type, header::HeaderBuilder};
        let location = HeaderBuilder::new()
            .schema(Some(
                utoipa::openapi::ObjectBuilder::new().schema_type(Type::String),
            ))
            .description(Some("The path of the created resource"))
            .build();
        for item in openapi.paths.paths.values_mut() {
            for op in [&mut item.post, &mut item.put].into_iter().flatten() {
                if let Some(RefOr::T(created)) = op.responses.responses.get_mut("201") {
                    created
                        .headers
                        .insert("Location".into(), RefOr::T(location.clone()));
                }
            }
        }
    }
}

/// The OpenAPI document, as served and as committed under `openapi/`.
pub fn openapi_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
        + "\n"
}

/// `arbiter serve`'s HTTP server for `state`, bound to `addr` (and the addresses it bound): the
/// application with its settings.
pub fn server(
    state: league::LeagueState,
    body_timeout: problem::BodyTimeout,
    addr: impl std::net::ToSocketAddrs,
) -> std::io::Result<(actix_web::dev::Server, Vec<std::net::SocketAddr>)> {
    let server = actix_web::HttpServer::new(move || app(state.clone()).app_data(body_timeout))
        // The request line and headers: 5 s (actix-web's default, stated).
        .client_request_timeout(std::time::Duration::from_secs(5))
        // A client that closes its side of the connection has gone: its request is dropped, and
        // expensive work queued for it never starts. (A client that half-closes after sending a
        // request, which HTTP/1.1 allows but few do, is not answered.)
        .h1_allow_half_closed(false)
        .bind(addr)?;
    let addrs = server.addrs();
    Ok((server.run(), addrs))
}

/// The whole application: routes, compression, and problem+json for unknown paths.
pub fn app(
    state: league::LeagueState,
) -> actix_web::App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    actix_web::App::new()
        .app_data(web::Data::new(state))
        .wrap(actix_web::middleware::Compress::default())
        .wrap_fn(|req, srv| {
            let policy = if req.path().starts_with("/swagger-ui") {
                SWAGGER_UI_POLICY
            } else {
                CONTENT_SECURITY_POLICY
            };
            let response = srv.call(req);
            async move {
                let mut response = response.await?;
                security_headers(response.headers_mut(), policy);
                Ok(response)
            }
        })
        .wrap_fn(|mut req, srv| {
            // HEAD is GET without the body (RFC 9110 §9.3.2): routed as GET; the server sends no
            // body for a HEAD request.
            if req.method() == Method::HEAD {
                req.head_mut().method = Method::GET;
                req.extensions_mut().insert(Head);
            }
            srv.call(req)
        })
        .wrap_fn(problem::close_if_unread)
        .configure(configure)
        .configure(league::configure)
        .configure(crate::desk::configure)
        .default_service(web::to(not_found))
}

/// The policy of every response: the desk and Swagger UI load scripts, styles and data from this
/// origin only (no inline script or style, no plugins) and may not be framed by another page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Swagger UI's pages: the same, but its bundle puts its styles in `<style>` elements it creates.
pub const SWAGGER_UI_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Headers on every response (a handler's own win): the content security policy, no content-type
/// sniffing, no framing for browsers that predate `frame-ancestors`, no referrer sent on.
fn security_headers(headers: &mut actix_web::http::header::HeaderMap, policy: &'static str) {
    use actix_web::http::header::{self, HeaderValue};
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, policy),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
}

/// Mounts every route on an actix app.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/health").route(web::get().to(health)))
        .service(resource("/v1/games").route(web::get().to(list_games)))
        .service(resource("/v1/games/{game}").route(web::get().to(get_game)))
        .service(resource("/v1/games/{game}/adjudications").route(web::post().to(adjudicate)))
        .service(resource("/v1/games/{game}/matches").route(web::post().to(adjudicate_match)))
        .service(resource("/v1/games/{game}/legal-actions").route(web::post().to(legal_actions)))
        .service(resource("/api-docs/openapi.json").route(web::get().to(serve_openapi)))
        // The UI reads the document served above (one route serves it).
        .service(
            SwaggerUi::new("/swagger-ui/{_:.*}")
                .config(utoipa_swagger_ui::Config::from("/api-docs/openapi.json")),
        )
        .service(web::resource("/swagger-ui").route(web::get().to(|| async {
            HttpResponse::PermanentRedirect()
                .insert_header(("Location", "/swagger-ui/"))
                .finish()
        })));
}

/// Unknown paths get a problem, not an empty 404.
pub async fn not_found(req: HttpRequest) -> Problem {
    Problem::not_found(format!("no resource at {}", req.path()))
}

/// Marks a HEAD request routed as GET.
struct Head;

/// A resource whose other methods are answered 405 with `Allow`.
pub(crate) fn resource(path: &str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(|req: HttpRequest| async move {
        let method = if req.extensions().contains::<Head>() {
            Method::HEAD
        } else {
            req.method().clone()
        };
        let allow = allowed(&req.match_pattern().unwrap_or_default());
        let mut resp = Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Method not allowed",
            format!("{method} is not supported on {}: use {allow}", req.path()),
        )
        .error_response();
        if let Ok(v) = HeaderValue::from_str(&allow) {
            resp.headers_mut().insert(header::ALLOW, v);
        }
        resp
    }))
}

/// The methods of a route pattern as the OpenAPI document lists them, and HEAD with GET: the
/// `Allow` of a 405, so that it cannot disagree with the spec. The pages outside the document (the
/// desk's files) are read-only: GET and HEAD.
fn allowed(pattern: &str) -> String {
    static ALLOWED: OnceLock<HashMap<String, String>> = OnceLock::new();
    let all = ALLOWED.get_or_init(|| {
        let spec: serde_json::Value =
            serde_json::from_str(&openapi_json()).expect("the OpenAPI document is JSON");
        let paths = spec["paths"].as_object().cloned().unwrap_or_default();
        paths
            .into_iter()
            .map(|(path, item)| {
                let mut methods: Vec<&str> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
                    .into_iter()
                    .filter(|m| {
                        let key = if *m == "HEAD" { "get" } else { m };
                        item.get(key.to_ascii_lowercase()).is_some()
                    })
                    .collect();
                methods.dedup();
                (path, methods.join(", "))
            })
            .collect()
    });
    all.get(pattern)
        .cloned()
        .unwrap_or_else(|| "GET, HEAD".into())
}

/// This OpenAPI document.
#[utoipa::path(get, path = "/api-docs/openapi.json", tag = "service", responses((status = 200, body = Object, description = "The OpenAPI document")))]
async fn serve_openapi() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(openapi_json())
}

/// A JSON response: `value` written by `json::to_vec` (serde_json's bytes, in less time: a
/// ruling's text was two fifths of adjudicating it).
pub fn json_response(
    mut builder: actix_web::HttpResponseBuilder,
    value: &impl Serialize,
) -> HttpResponse {
    let body = crate::json::to_vec(value).expect("a response serializes");
    builder
        .insert_header(header::ContentType::json())
        .body(body)
}

/// A handler's `200 OK` with a JSON body (what `web::Json` answers, written by `json_response`).
pub struct Json<T>(pub T);

impl<T: Serialize> actix_web::Responder for Json<T> {
    type Body = actix_web::body::BoxBody;

    fn respond_to(self, _: &HttpRequest) -> HttpResponse {
        json_response(HttpResponse::Ok(), &self.0)
    }
}

/// The `{game}` path parameter: one of the registered game ids.
pub struct GameId;

impl utoipa::PartialSchema for GameId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let ids: Vec<&str> = games::all().iter().map(|g| g.info().id).collect();
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(ids))
            .description(Some("A game id (see GET /v1/games)."))
            .into()
    }
}

impl utoipa::ToSchema for GameId {}

#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    version: &'static str,
}

/// Liveness check.
#[utoipa::path(get, path = "/health", tag = "service", responses((status = 200, description = "OK", body = Health)))]
async fn health() -> Json<Health> {
    Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// A game as `GET /v1/games` describes it: what it declares, and where its own schemas are.
#[derive(Serialize, ToSchema)]
pub struct GameDescription {
    #[serde(flatten)]
    pub info: &'static GameInfo,
    pub schemas: SchemaRefs,
}

/// References to a game's own schemas in this document.
#[derive(Serialize, ToSchema)]
pub struct SchemaRefs {
    /// One action of a record: the game's verbs and their values.
    pub action: String,
    /// A recorded hand in the game's verbs.
    pub record: String,
    /// The fields the game adds to its adjudications (and table views) beside the common ones.
    pub details: String,
    /// The fields the game carries in the match state beside the common ones.
    pub carried: String,
}

impl SchemaRefs {
    fn of(game: &dyn Game) -> SchemaRefs {
        let camel: String = game
            .info()
            .id
            .split('-')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect();
        let own = game.schemas();
        let at = |name: &str| format!("#/components/schemas/{name}");
        SchemaRefs {
            action: at(&format!("{camel}Action")),
            record: at(&format!("{camel}Record")),
            details: at(&own.details.0),
            carried: at(&own.carried.0),
        }
    }
}

fn describe(game: &dyn Game) -> GameDescription {
    GameDescription {
        info: game.info(),
        schemas: SchemaRefs::of(game),
    }
}

/// Every game arbiter adjudicates, with its options and rules.
#[utoipa::path(get, path = "/v1/games", tag = "games", responses((status = 200, description = "The list", body = Vec<GameDescription>)))]
async fn list_games() -> Json<Vec<GameDescription>> {
    Json(games::all().iter().map(|g| describe(*g)).collect())
}

pub(crate) fn game(id: &str) -> Result<&'static dyn engine::Game, Problem> {
    games::find(id).ok_or_else(|| {
        let ids: Vec<_> = games::all().iter().map(|g| g.info().id).collect();
        Problem::not_found(format!(
            "unknown game '{id}': expected one of {}",
            ids.join(", ")
        ))
    })
}

/// One game: players, deck, options, irregularity codes, verbs and its rule file.
#[utoipa::path(
    get, path = "/v1/games/{game}", tag = "games",
    params(("game" = GameId, Path)),
    responses(
        (status = 200, description = "OK", body = GameDescription),
        (status = 404, description = "Unknown game", body = Problem, content_type = "application/problem+json")
    )
)]
async fn get_game(path: web::Path<String>) -> Result<Json<GameDescription>, Problem> {
    Ok(Json(describe(game(&path)?)))
}

/// Problems a posted record can answer with (the three stateless POSTs share them).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // documents the responses; the handlers build `Problem`s
enum RecordProblems {
    #[response(
        status = 400,
        description = "Empty or malformed JSON",
        content_type = "application/problem+json"
    )]
    Malformed(Problem),
    #[response(
        status = 404,
        description = "Unknown game",
        content_type = "application/problem+json"
    )]
    UnknownGame(Problem),
    #[response(
        status = 408,
        description = "The body did not arrive in time",
        content_type = "application/problem+json"
    )]
    Timeout(Problem),
    #[response(
        status = 413,
        description = "Body over 256 KiB",
        content_type = "application/problem+json"
    )]
    TooLarge(Problem),
    #[response(
        status = 415,
        description = "Not JSON (nor, where a PBN text is taken, application/x-pbn)",
        content_type = "application/problem+json"
    )]
    NotJson(Problem),
    #[response(
        status = 422,
        description = "The record is not a hand (or position) of this game (or, where a PBN text is taken, the text is not \
                       PBN: `urn:arbiter:problem:malformed-pbn`); in a match, a hand comes after the game ended \
                       or is dealt by the wrong seat. Pointers name the values.",
        content_type = "application/problem+json"
    )]
    Invalid(Problem),
}

/// Reads a record of `game`: an action with a verb the game does not have is refused with the
/// game's own verbs, a seat that does not parse with the game's own seats.
async fn read_record<T: serde::de::DeserializeOwned + validator::Validate>(
    req: &HttpRequest,
    body: web::Payload,
    game: &dyn Game,
) -> Result<T, Problem> {
    let bytes = json_body(req, body).await?;
    parse_json(&bytes).map_err(|p| record_problem(game, p))
}

/// A record of `game` refused as it was read: titled as a record's refusal, and a seat that did
/// not parse answered with the game's own seats.
pub fn record_problem(game: &dyn Game, problem: Problem) -> Problem {
    problem
        .about_record()
        .offering_seats(&game.info().tables.seats())
}

/// Reads a body as a hand record of `game`, in the game's verbs: straight from the text when it is
/// a well-formed record, and otherwise through the game-agnostic record, whose reading names
/// what is wrong (the refusal is the same either way; only a good record is read faster).
pub fn hand_record<'a>(game: &'a dyn Game, body: &[u8]) -> Result<Box<dyn Recorded + 'a>, Problem> {
    // One pass for a well-formed body; one that fails it is read again to name what is wrong.
    match game.read_json(without_bom(body)) {
        Some(read) => Ok(read),
        None => hand_record_checked(game, body),
    }
}

/// `hand_record` by the path-reporting reader alone: what it answers for a body its one pass
/// does not take (a refusal naming the problem, or a record with a key written with an escape).
pub fn hand_record_checked<'a>(
    game: &'a dyn Game,
    body: &[u8],
) -> Result<Box<dyn Recorded + 'a>, Problem> {
    let about = |p| record_problem(game, p);
    let document = checked_document(body).map_err(about)?;
    let record: HandRecord = read_document(document).map_err(about)?;
    game.read(&record)
        .map_err(|e| Problem::invalid(e).about_record())
}

/// Reads a PBN text (`docs/pbn.md`) as a hand record of `game` (of the game it names when `None`)
/// and adjudicates it as the same record in JSON is: every refusal also names the line and column
/// of the text (`row`, `column`) where the part at fault was written.
pub fn adjudicate_pbn(
    game: Option<&'static dyn Game>,
    body: &[u8],
) -> Result<Adjudication, Problem> {
    let malformed = |errors: Vec<FieldError>| {
        let e = &errors[0];
        let detail = format!(
            "the body is not PBN: line {} column {}: {}",
            e.row.unwrap_or(1),
            e.column.unwrap_or(1),
            e.detail
        );
        // 422 as for a JSON record that is not a hand: a string is all a schema can say of a text.
        Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "malformed-pbn",
            "Malformed PBN",
            detail,
        )
        .with(errors)
    };
    let text = std::str::from_utf8(body).map_err(|e| {
        let before = &body[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() as u64 + 1;
        malformed(vec![FieldError {
            row: Some(line),
            column: Some(column),
            ..FieldError::new(String::new(), "the text is not UTF-8".into())
        }])
    })?;
    let read = crate::pbn::read(text, game).map_err(|r| match r {
        crate::pbn::Refused::Malformed(e) => malformed(e),
        crate::pbn::Refused::Invalid(e) => Problem::invalid(e).about_record(),
    })?;
    let located = |mut p: Problem| {
        read.locate(&mut p.errors);
        p
    };
    let json = crate::json::to_vec(&read.record).expect("a record is JSON");
    let hand = hand_record(read.game, &json).map_err(located)?;
    hand.adjudicate()
        .map_err(|e| located(Problem::invalid(e).about_record()))
}

/// Whether a request's body is declared a PBN text.
fn is_pbn(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|ct| ct.to_str().ok())
        .and_then(|ct| ct.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(crate::pbn::MEDIA_TYPE))
}

/// Adjudicates one recorded hand. Nothing is stored.
///
/// The hand is a JSON record, or the same record as a PBN text (`Content-Type:
/// application/x-pbn`, `docs/pbn.md`) for a game of four seats N E S W and one 52-card pack.
#[utoipa::path(
    post, path = "/v1/games/{game}/adjudications", tag = "games",
    params(("game" = GameId, Path)),
    request_body(
        description = "A hand record: JSON, or the same record as a PBN text (docs/pbn.md: a game of four seats N E S W \
                       and one 52-card pack; refusals of a text name its line and column as `row` and `column`)",
        content(
            (HandRecord = "application/json"),
            (String = "application/x-pbn")
        )
    ),
    responses(
        (status = 200, description = "The director's ruling on the hand", body = Adjudication),
        RecordProblems
    )
)]
async fn adjudicate(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Payload,
) -> Result<Json<Adjudication>, Problem> {
    let game = game(&path)?;
    if is_pbn(&req) {
        let body = problem::read_body(&req, body, problem::MAX_BODY).await?;
        return adjudicate_pbn(Some(game), &body).map(Json);
    }
    problem::require_content_type(&req, "application/json or application/x-pbn", |essence| {
        essence == "application/json" || essence.ends_with("+json")
    })?;
    let body = json_body(&req, body).await?;
    hand_record(game, &body)?
        .adjudicate()
        .map(Json)
        .map_err(|e| Problem::invalid(e).about_record())
}

/// Adjudicates a game hand by hand, folding the match state: every hand's ruling and the match after it.
#[utoipa::path(
    post, path = "/v1/games/{game}/matches", tag = "games",
    params(("game" = GameId, Path)),
    request_body = MatchRecord,
    responses(
        (status = 200, description = "Every hand's ruling and the final match state", body = MatchReport),
        RecordProblems
    )
)]
async fn adjudicate_match(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Payload,
) -> Result<Json<MatchReport>, Problem> {
    let game = game(&path)?;
    let record: MatchRecord = read_record(&req, body, game).await?;
    engine::adjudicate_match(game, &record)
        .map(Json)
        .map_err(|e| Problem::invalid(e).about_record())
}

/// The seat to act, what the table can see, and every legal next action after a partial record.
#[utoipa::path(
    post, path = "/v1/games/{game}/legal-actions", tag = "games",
    params(("game" = GameId, Path)),
    request_body = HandRecord,
    responses(
        (status = 200, description = "The position and its legal actions", body = TableView),
        RecordProblems
    )
)]
async fn legal_actions(
    req: HttpRequest,
    path: web::Path<String>,
    body: web::Payload,
) -> Result<Json<TableView>, Problem> {
    let game = game(&path)?;
    let body = json_body(&req, body).await?;
    hand_record(game, &body)?
        .replay()
        .map(|replay| Json(replay.view()))
        .map_err(|e| Problem::invalid(e).about_record())
}
