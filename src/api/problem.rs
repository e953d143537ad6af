//! RFC 9457 problem details, and reading a JSON body into a typed request with JSON pointers on
//! every error.

use crate::input::{FieldError, Key, escape, pointer_of};
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Payload, Service, ServiceRequest, ServiceResponse};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::StreamExt;
use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use utoipa::ToSchema;
use validator::{Validate, ValidationErrors, ValidationErrorsKind};

/// Largest request body accepted.
pub const MAX_BODY: usize = 256 * 1024;

/// How long a client may take to send a request body (408 beyond), unless the app is given
/// another `BodyTimeout`. Without a bound, a client that sends headers and stalls holds its
/// connection and a worker's attention forever.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The bound on receiving a body, as app data (`arbiter serve --body-timeout`).
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub Duration);

/// The type of a request that breaks the model's rules (422).
const INVALID: &str = "invalid-request";

/// An `application/problem+json` response (RFC 9457).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Each offending value, by JSON pointer.
    pub errors: Vec<FieldError>,
    /// Response headers the status needs (`WWW-Authenticate` on a 401, `Accept-Encoding` on a 415).
    #[serde(skip)]
    pub headers: &'static [(&'static str, &'static str)],
}

impl Problem {
    pub fn new(status: StatusCode, slug: &str, title: &str, detail: String) -> Problem {
        Problem {
            kind: format!("urn:arbiter:problem:{slug}"),
            title: title.to_string(),
            status: status.as_u16(),
            detail,
            errors: Vec::new(),
            headers: &[],
        }
    }

    pub fn with_headers(mut self, headers: &'static [(&'static str, &'static str)]) -> Problem {
        self.headers = headers;
        self
    }

    pub fn with(mut self, errors: Vec<FieldError>) -> Problem {
        self.errors = errors;
        self
    }

    /// The request is well-formed but breaks the model's rules (a name, a date, a seat, ...).
    pub fn invalid(errors: Vec<FieldError>) -> Problem {
        let detail = match errors.as_slice() {
            [one] => format!(
                "{}: {}",
                if one.pointer.is_empty() {
                    "/"
                } else {
                    &one.pointer
                },
                one.detail
            ),
            many => format!("{} problems in the request; see errors", many.len()),
        };
        Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            INVALID,
            "The request is not valid",
            detail,
        )
        .with(errors)
    }

    /// An `invalid` refusal of a hand record (its format, its deal, its play): titled so.
    pub fn about_record(self) -> Problem {
        self.about("invalid-record", "The record cannot be adjudicated")
    }

    /// An `invalid` refusal of a sheet (its rows name the problems): titled so.
    pub fn about_sheet(self) -> Problem {
        self.about("invalid-sheet", "The sheet cannot be imported")
    }

    /// Names the seats of the game's table where a seat failed to parse (the parser, not knowing
    /// the game, offers every seat there is: N, E, S, W or P1..P7).
    pub fn offering_seats(mut self, seats: &[crate::seat::Seat]) -> Problem {
        const EVERY_SEAT: &str = "N, E, S, W (or P1..P7)";
        let these = seats
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        for text in
            std::iter::once(&mut self.detail).chain(self.errors.iter_mut().map(|e| &mut e.detail))
        {
            if text.contains(EVERY_SEAT) {
                *text = text.replace(EVERY_SEAT, &these);
            }
        }
        self
    }

    fn about(mut self, slug: &str, title: &str) -> Problem {
        if self.kind.ends_with(INVALID) {
            self.kind = format!("urn:arbiter:problem:{slug}");
            self.title = title.into();
        }
        self
    }

    pub fn not_found(detail: String) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, "not-found", "Not found", detail)
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.title, self.detail)
    }
}

impl actix_web::Responder for Problem {
    type Body = actix_web::body::BoxBody;
    fn respond_to(self, _req: &HttpRequest) -> HttpResponse {
        self.error_response()
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut resp = HttpResponse::build(self.status_code());
        for header in self.headers {
            resp.insert_header(*header);
        }
        resp.content_type("application/problem+json")
            .body(crate::json::to_vec(self).expect("a problem serializes"))
    }
}

/// The bytes of a JSON body (refused unless the content type is JSON, bounded by `MAX_BODY`).
pub async fn json_body(req: &HttpRequest, body: web::Payload) -> Result<web::BytesMut, Problem> {
    require_content_type(req, "application/json", |essence| {
        essence == "application/json" || essence.ends_with("+json")
    })?;
    read_body(req, body, MAX_BODY).await
}

/// Refuses a body whose declared content type `accepts` does not allow (415); an absent content
/// type is allowed.
pub fn require_content_type(
    req: &HttpRequest,
    expected: &str,
    accepts: impl Fn(&str) -> bool,
) -> Result<(), Problem> {
    if let Some(ct) = req.headers().get(actix_web::http::header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
        let essence = ct.split(';').next().unwrap_or("").trim();
        if !accepts(essence) {
            return Err(Problem::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "Unsupported media type",
                format!("expected {expected}, got '{essence}'"),
            ));
        }
    }
    Ok(())
}

/// Reads a body of at most `max` bytes (413 beyond) sent without a content coding (415 with one:
/// nothing here decodes gzip or br, and reading coded bytes as JSON or CSV would mislead).
pub async fn read_body(
    req: &HttpRequest,
    mut body: web::Payload,
    max: usize,
) -> Result<web::BytesMut, Problem> {
    if let Some(coding) = req.headers().get(header::CONTENT_ENCODING) {
        let coding = coding.to_str().unwrap_or("?").to_ascii_lowercase();
        if coding.split(',').any(|c| c.trim() != "identity") {
            return Err(Problem::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-content-encoding",
                "Unsupported content encoding",
                format!("the body is sent with Content-Encoding '{coding}': send it uncompressed"),
            )
            .with(vec![FieldError::new(
                "/headers/content-encoding".into(),
                "expected identity (or no Content-Encoding)".into(),
            )])
            .with_headers(&[("accept-encoding", "identity")]));
        }
    }
    let too_large = || {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            "Body too large",
            format!("the body is larger than {max} bytes"),
        )
    };
    // A declared length over the bound is refused before a byte is read.
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let limit = req.app_data::<BodyTimeout>().map_or(BODY_TIMEOUT, |t| t.0);
    let read = async {
        // Room for the length declared (within the bound), so that a large body is not copied
        // again and again as it grows; pages of it not filled are never touched.
        let mut bytes = web::BytesMut::with_capacity(declared.unwrap_or(0) as usize);
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| {
                Problem::new(
                    StatusCode::BAD_REQUEST,
                    "unreadable-body",
                    "Unreadable body",
                    e.to_string(),
                )
            })?;
            if bytes.len() + chunk.len() > max {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    actix_web::rt::time::timeout(limit, read)
        .await
        .unwrap_or_else(|_| {
            Err(Problem::new(
                StatusCode::REQUEST_TIMEOUT,
                "body-timeout",
                "Request timeout",
                format!("the body did not arrive within {} s", limit.as_secs_f64()),
            ))
        })
}

/// A response body that keeps its request's payload until the body has been sent.
///
/// A response sent before its request's body was read in full must close the connection, or a
/// client that stalls its body holds the socket without bound. actix-web closes it after a
/// response to an unread `Content-Length` body, but a chunked body whose reader was dropped is
/// drained, with no deadline, before the next request; so the payload is kept, unread, until the
/// response is out, and actix-web closes the connection as it does for a declared length.
pub struct UntilSent {
    body: BoxBody,
    _payload: Option<Rc<RefCell<Payload>>>,
}

impl MessageBody for UntilSent {
    type Error = <BoxBody as MessageBody>::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<web::Bytes, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_next(cx)
    }
}

/// Middleware: the handler reads the request's payload through a handle, and the response keeps
/// the payload itself until it is sent (see `UntilSent`).
pub fn close_if_unread<S, B>(
    mut req: ServiceRequest,
    srv: &S,
) -> impl Future<Output = Result<ServiceResponse<UntilSent>, actix_web::Error>> + use<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    let payload = match req.take_payload() {
        Payload::None => None,
        payload => {
            let payload = Rc::new(RefCell::new(payload));
            let read = Rc::clone(&payload);
            let stream =
                futures_util::stream::poll_fn(move |cx| read.borrow_mut().poll_next_unpin(cx));
            req.set_payload(Payload::Stream {
                payload: Box::pin(stream),
            });
            Some(payload)
        }
    };
    let res = srv.call(req);
    async move {
        Ok(res.await?.map_body(|_, body| UntilSent {
            body: BoxBody::new(body),
            _payload: payload,
        }))
    }
}

/// Deserializes and validates `bytes`, mapping every failure to a problem with a JSON pointer.
pub fn parse_json<T: DeserializeOwned + Validate>(bytes: &[u8]) -> Result<T, Problem> {
    // One pass for a well-formed body; one that fails it is read again to name what is wrong.
    match crate::json::read_unique(without_bom(bytes)) {
        Some(value) => validated(value),
        None => read_document(checked_document(bytes)?),
    }
}

/// `bytes` without a leading byte order mark: one is allowed before JSON as before CSV (RFC 8259
/// §8.1 lets a parser ignore it).
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

/// The JSON document of a body, refused when there is none, when a key is given twice in an
/// object, or when something follows it; not yet read as any type (`read_document`).
pub fn checked_document(bytes: &[u8]) -> Result<&[u8], Problem> {
    let bytes = without_bom(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Problem::new(
            StatusCode::BAD_REQUEST,
            "empty-body",
            "Empty body",
            "the body is empty: expected a JSON object".into(),
        ));
    }
    check_document(bytes)?;
    Ok(bytes)
}

/// Deserializes and validates a document `checked_document` let through.
pub fn read_document<T: DeserializeOwned + Validate>(document: &[u8]) -> Result<T, Problem> {
    // Read plainly; a body that fails is read again, tracking the path to name what is wrong.
    let value: T =
        serde_json::from_slice(document).map_err(|e| typed_parse_error::<T>(document, e))?;
    validated(value)
}

/// `value` if it keeps the model's rules (its `validate`), else the problem naming each break.
fn validated<T: Validate>(value: T) -> Result<T, Problem> {
    value
        .validate()
        .map_err(|e| Problem::invalid(validation_errors(&e, "")))?;
    Ok(value)
}

/// The problem with a body that did not parse as `T` (`plain`'s error), with the pointer of the
/// value at fault.
fn typed_parse_error<T: DeserializeOwned>(bytes: &[u8], plain: serde_json::Error) -> Problem {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let (pointer, inner) = match serde_path_to_error::deserialize::<_, T>(de) {
        Err(e) => (pointer_of(e.path()), e.into_inner()),
        // Only what follows the document can fail the plain read alone, and that is refused
        // before (`check_document`); the plain error is the answer all the same.
        Ok(_) => (String::new(), plain),
    };
    if inner.is_data() {
        Problem::invalid(vec![FieldError::new(
            pointer,
            strip_position(&inner.to_string()),
        )])
    } else {
        Problem::new(
            StatusCode::BAD_REQUEST,
            "malformed-json",
            "Malformed JSON",
            format!("the body is not valid JSON: {inner}"),
        )
        .with(vec![FieldError::new(pointer, inner.to_string())])
    }
}

/// Refuses what a typed parse would let through: a key given twice in any object (serde keeps
/// the last value of a map, silently), and anything after the document (serde stops at its end).
/// A document that is not JSON passes: the typed parse reports it with its path.
fn check_document(bytes: &[u8]) -> Result<(), Problem> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let mut walk = Walk::default();
    let read = (&mut walk).deserialize(&mut de);
    if let Some((pointer, key)) = walk.duplicate {
        return Err(Problem::invalid(vec![FieldError::new(
            pointer,
            format!("'{key}' is given twice in this object"),
        )]));
    }
    if read.is_ok()
        && let Err(e) = de.end()
    {
        return Err(Problem::invalid(vec![FieldError::new(
            String::new(),
            format!(
                "unexpected data after the JSON document at line {} column {}: send one document",
                e.line(),
                e.column()
            ),
        )]));
    }
    Ok(())
}

/// Walks a JSON document and stops at the first duplicate key. Every JSON body is walked, so the
/// path is kept as borrowed keys and positions, and written as a pointer only for a duplicate.
#[derive(Default)]
struct Walk<'de> {
    path: Vec<Step<'de>>,
    /// The keys so far of the objects being walked, outermost first: an object's own keys are
    /// the last ones, and it takes them off when it ends (one list for the document, not one per
    /// object).
    keys: Vec<Cow<'de, str>>,
    duplicate: Option<(String, String)>,
}

/// One step into a document: a position in an array or a key of an object.
enum Step<'de> {
    Index(usize),
    Key(Cow<'de, str>),
}

impl Walk<'_> {
    /// The JSON pointer of the current value.
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in &self.path {
            pointer.push('/');
            match step {
                Step::Index(i) => pointer.push_str(&i.to_string()),
                Step::Key(key) => pointer.push_str(&escape(key)),
            }
        }
        pointer
    }
}

impl<'de> DeserializeSeed<'de> for &mut Walk<'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for &mut Walk<'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for i in 0.. {
            self.path.push(Step::Index(i));
            let more = seq.next_element_seed(&mut *self)?.is_some();
            self.path.pop();
            if !more {
                break;
            }
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // The object's keys are compared in the list while they are few (nearly every object),
        // and hashed beyond, so that a long object is not quadratic.
        const FEW: usize = 16;
        let first = self.keys.len();
        let mut many: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(key) = map.next_key_seed(Key)? {
            let new = match &mut many {
                Some(set) => set.insert(key.clone()),
                None if self.keys[first..].contains(&key) => false,
                None if self.keys.len() - first < FEW => {
                    self.keys.push(key.clone());
                    true
                }
                None => {
                    let set = many.insert(self.keys.drain(first..).collect());
                    set.insert(key.clone())
                }
            };
            if !new {
                self.duplicate = Some((format!("{}/{}", self.pointer(), escape(&key)), key.into()));
                return Err(serde::de::Error::custom("duplicate key"));
            }
            self.path.push(Step::Key(key));
            map.next_value_seed(&mut *self)?;
            self.path.pop();
        }
        self.keys.truncate(first);
        Ok(())
    }
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn validation_errors(errors: &ValidationErrors, base: &str) -> Vec<FieldError> {
    let mut out = Vec::new();
    for (field, kind) in errors.errors() {
        let pointer = format!("{base}/{field}");
        match kind {
            ValidationErrorsKind::Field(list) => {
                for e in list {
                    let detail = e
                        .message
                        .as_ref()
                        .map(|m| m.to_string())
                        .unwrap_or_else(|| describe(e));
                    out.push(FieldError::new(pointer.clone(), detail));
                }
            }
            ValidationErrorsKind::Struct(inner) => out.extend(validation_errors(inner, &pointer)),
            ValidationErrorsKind::List(items) => {
                for (i, inner) in items {
                    out.extend(validation_errors(inner, &format!("{pointer}/{i}")));
                }
            }
        }
    }
    out
}

fn describe(e: &validator::ValidationError) -> String {
    let bound = |k: &str| e.params.get(k).map(|v| v.to_string());
    match (e.code.as_ref(), bound("min"), bound("max")) {
        ("length", Some(min), Some(max)) => format!("expected between {min} and {max} items"),
        ("length", None, Some(max)) => format!("expected at most {max} items"),
        ("length", Some(min), None) => format!("expected at least {min} items"),
        (code, _, _) => format!("failed the '{code}' check"),
    }
}

#[cfg(test)]
mod tests {
    use super::check_document;
    use crate::json::read_unique;
    use proptest::prelude::*;
    use serde_json::Value;

    /// The pointer `check_document` gives for a duplicate key in `json`, if it finds one.
    fn duplicate_at(json: &str) -> Option<String> {
        check_document(json.as_bytes())
            .err()
            .map(|p| p.errors[0].pointer.clone())
    }

    #[test]
    fn a_duplicate_key_is_found_in_any_object_however_long() {
        let keys = |n: usize| (0..n).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>();
        // Past the short list of keys, and in a long one before it.
        let mut long = keys(40);
        long.push("\"k3\":0".into());
        assert_eq!(
            duplicate_at(&format!("{{\"o\":[1,{{{}}}]}}", long.join(","))).as_deref(),
            Some("/o/1/k3")
        );
        let mut short = keys(5);
        short.push("\"k4\":0".into());
        assert_eq!(
            duplicate_at(&format!("{{{}}}", short.join(","))).as_deref(),
            Some("/k4")
        );
        assert_eq!(duplicate_at(&format!("{{{}}}", keys(40).join(","))), None);
        // A key written with an escape is the same key; the pointer escapes `/` and `~`.
        assert_eq!(
            duplicate_at(r#"{"a/b":{"x~":1,"x\u007e":2}}"#).as_deref(),
            Some("/a~1b/x~0")
        );
        assert_eq!(duplicate_at(r#"[{"a":1},{"a":1}]"#), None);
        // An object's keys are its own: not its parent's, nor those of an object inside it.
        assert_eq!(duplicate_at(r#"{"a":{"a":1,"b":{"a":2}},"b":1}"#), None);
        assert_eq!(
            duplicate_at(r#"{"a":{"b":1},"c":[{"b":2}],"a":2}"#).as_deref(),
            Some("/a")
        );
        let nested = format!(
            "{{{},\"in\":{{{}}},\"k7\":0}}",
            keys(20).join(","),
            keys(20).join(",")
        );
        assert_eq!(duplicate_at(&nested).as_deref(), Some("/k7"));
    }

    #[test]
    fn the_one_pass_reader_takes_a_plain_record_and_nothing_the_walk_refuses() {
        let record = r#"{"dealer": "N", "deal": {"N": ["AS", "7H"], "E": []},
            "options": {"target": 31, "note": "a \"quoted\" {text}, [here]"},
            "actions": [{"seat": "N", "play": "AS"}, {"seat": "E", "play": "7H"}]}  "#;
        assert!(read_unique::<Value>(record.as_bytes()).is_some());
        // A key is compared only with its own object's keys, not its parent's or a sibling's.
        let nested = r#"{"a": {"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}, "b": 1}"#;
        assert!(read_unique::<Value>(nested.as_bytes()).is_some());
        for refused in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"actions": [{"seat": "N", "seat": "E"}]}"#,
            r#"{"a": {"b": [1, {"c": 1, "c": 2}]}}"#,
            r#"{"a": 1} {"b": 2}"#,
            r#"{"a": 1} x"#,
        ] {
            assert!(
                read_unique::<Value>(refused.as_bytes()).is_none(),
                "{refused}"
            );
            assert!(check_document(refused.as_bytes()).is_err(), "{refused}");
        }
        // Where it cannot be sure (a key written with an escape), it leaves the body to the walk,
        // and an object of many keys too (the walk hashes them).
        assert!(read_unique::<Value>(br#"{"a\u0062": 1, "ab": 2}"#).is_none());
        assert!(read_unique::<Value>(br#"{"a\u0062": 1}"#).is_none());
        let long: Vec<String> = (0..40).map(|i| format!(r#""k{i}": 0"#)).collect();
        let long = format!("{{{}}}", long.join(","));
        assert!(read_unique::<Value>(long.as_bytes()).is_none());
        assert!(check_document(long.as_bytes()).is_ok());
        // Text is checked as UTF-8 once, before it is read: beyond ASCII it is read as it is, and
        // a byte that is not UTF-8, in a value or in a key, leaves the body to the walk.
        assert_eq!(
            read_unique::<Value>("{\"note\": \"Zoë\"}".as_bytes()),
            Some(serde_json::json!({"note": "Zoë"}))
        );
        assert!(read_unique::<Value>(b"{\"note\": \"Zo\xeb\"}").is_none());
        assert!(read_unique::<Value>(b"{\"Zo\xeb\": 1}").is_none());
    }

    /// JSON-ish text built from a few keys (so that duplicates are common), nested, with stray
    /// bytes now and then (so that malformed text is tried too).
    fn jsonish() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("1".to_string()),
            Just("\"v\"".to_string()),
            Just("\"a\\\"b\"".to_string()),
            Just("null".to_string()),
        ];
        leaf.prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec(
                    (prop::sample::select(vec!["a", "b", "c", "d\\u0061"]), inner),
                    0..5
                )
                .prop_map(|kv| {
                    let kv: Vec<String> = kv.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                    format!("{{{}}}", kv.join(", "))
                }),
            ]
        })
        .prop_flat_map(|text| {
            let len = text.len();
            (
                Just(text),
                prop::option::of((
                    0..=len,
                    prop::sample::select(vec!["", ",", "}", "\"", ":", " x"]),
                )),
            )
        })
        .prop_map(|(mut text, stray)| {
            if let Some((at, what)) = stray {
                text.insert_str(at, what);
            }
            text
        })
    }

    proptest! {
        #[test]
        fn the_one_pass_reader_takes_what_the_walk_and_serde_take_and_nothing_else(
            text in jsonish()
        ) {
            let one_pass = read_unique::<Value>(text.as_bytes()).is_some();
            let walked = check_document(text.as_bytes()).is_ok()
                && serde_json::from_str::<Value>(&text).is_ok();
            prop_assert!(!one_pass || walked, "{}", text);
            // A key written with an escape is left to the walk: the one pass takes all the rest
            // (the only escape outside keys is the leaf `"a\"b"`).
            if walked && !text.replace(r#""a\"b""#, "").contains('\\') {
                prop_assert!(one_pass, "{}", text);
            }
        }
    }
}
