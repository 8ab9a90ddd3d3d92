//! The web table's routes: the page, the options, and the game API. Each request is read with a
//! cap on its body, routed, and answered with JSON (or the page); every failure is a status and
//! `{"error": sentence}`.
//!
//! Invariant: [`answer`] always responds exactly once and never unwinds: a handler's panic is
//! caught and becomes a 500, so one bad game cannot stop the server.

use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response};

use super::page::PAGE;
use super::sessions::{NewGame, Refusal, Sessions};

/// The largest request body accepted (a game's requests are a few dozen bytes). tiny_http
/// reads a body this small on its own connection thread, so a client that stalls mid-body
/// never holds a worker.
pub const MAX_BODY: u64 = 1024;

/// What a request is answered with.
#[derive(Debug)]
pub enum Reply {
    /// The page.
    Page,
    /// JSON with a status.
    Json(u16, Value),
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a static header is valid")
}

/// Answer `req` (always exactly once).
pub fn answer(mut req: Request, sessions: &Sessions) {
    let method = req.method().clone();
    let url = req.url().to_string();
    let body = read_body(&mut req);
    let reply = match body {
        Err(r) => Reply::Json(r.0, json!({"error": r.1})),
        Ok(body) => catch_unwind(AssertUnwindSafe(|| route(&method, &url, &body, sessions)))
            .unwrap_or_else(|_| {
                Reply::Json(
                    500,
                    json!({"error": "internal error while answering this request; the other games go on"}),
                )
            }),
    };
    let response = match reply {
        Reply::Page => Response::from_string(PAGE)
            .with_header(header("Content-Type", "text/html; charset=utf-8"))
            .with_header(header(
                "Content-Security-Policy",
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:",
            )),
        Reply::Json(status, v) => Response::from_string(v.to_string())
            .with_status_code(status)
            .with_header(header("Content-Type", "application/json"))
            .with_header(header("Cache-Control", "no-store")),
    };
    let _ = req.respond(response);
}

/// The body, at most [`MAX_BODY`] bytes, as UTF-8.
fn read_body(req: &mut Request) -> Result<String, Refusal> {
    // A chunked body has no length to check first: refused before it is read. A request with
    // neither header has no body (HTTP/1.1): `POST .../again`, `DELETE`, `HEAD` are answered by
    // their route.
    let has = |name: &'static str| req.headers().iter().any(|h| h.field.equiv(name));
    if has("Content-Length") && req.body_length().is_none() {
        return Err((
            400,
            "the Content-Length is not a whole number of bytes; a game request is a few dozen bytes"
                .to_string(),
        ));
    }
    if has("Transfer-Encoding") && req.body_length().is_none() {
        return Err((
            411,
            "send the request with a Content-Length (no chunked bodies); a game request is a few dozen bytes".to_string(),
        ));
    }
    if req.body_length().is_some_and(|n| n as u64 > MAX_BODY) {
        return Err((
            413,
            format!(
                "the request body is larger than {MAX_BODY} bytes; a game request is a few dozen"
            ),
        ));
    }
    let mut buf = Vec::new();
    let n = req
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut buf)
        .map_err(|e| (400, format!("cannot read the request body: {e}")))?;
    if n as u64 > MAX_BODY {
        return Err((
            413,
            format!(
                "the request body is larger than {MAX_BODY} bytes; a game request is a few dozen"
            ),
        ));
    }
    String::from_utf8(buf).map_err(|_| (400, "the request body is not UTF-8 text".to_string()))
}

fn json_body<T: serde::de::DeserializeOwned>(body: &str, what: &str) -> Result<T, Refusal> {
    let text = if body.trim().is_empty() { "{}" } else { body };
    // An object, never a list: serde would read `[]` as a request with every field left out.
    if text.trim_start().starts_with('[') {
        return Err((
            400,
            format!("{what}: send a JSON object of named fields, not a list"),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        (
            400,
            format!(
                "{what}: not valid JSON for this request ({})",
                crate::policy::plain_message(&e.to_string())
            ),
        )
    })
}

fn reply(r: Result<Value, Refusal>, ok: u16) -> Reply {
    match r {
        Ok(v) => Reply::Json(ok, v),
        Err((status, msg)) => Reply::Json(status, json!({"error": msg})),
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    card: u64,
}

/// Route one request.
pub fn route(method: &Method, url: &str, body: &str, sessions: &Sessions) -> Reply {
    let path = url.split('?').next().unwrap_or("");
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (method, parts.as_slice()) {
        (Method::Get, [""]) | (Method::Get, ["index.html"]) => Reply::Page,
        (Method::Get, ["api", "options"]) => Reply::Json(200, sessions.options()),
        (Method::Post, ["api", "games"]) => reply(
            json_body::<NewGame>(
                body,
                "a new game (fields: players 2, 3, 4 or 6; seat 1 to players; opponent and partner, policy names from /api/options; seed, a whole number; signals, true or false)",
            )
            .and_then(|g| sessions.start(g)),
            201,
        ),
        (Method::Get, ["api", "games", id]) => reply(sessions.view(id), 200),
        (Method::Post, ["api", "games", id, "play"]) => reply(
            json_body::<PlayBody>(body, "a play (e.g. {\"card\": 12})")
                .and_then(|p| sessions.play(id, p.card)),
            200,
        ),
        (Method::Post, ["api", "games", id, "again"]) => reply(sessions.again(id), 200),
        (Method::Post, ["api", "games", id, "next"]) => reply(sessions.next(id), 200),
        (_, ["api", ..]) | (_, [""]) => Reply::Json(
            if matches!(
                parts.as_slice(),
                ["api", "games", ..] | ["api", "options"] | [""]
            ) {
                405
            } else {
                404
            },
            json!({"error": format!(
                "{} {path}: no such route; the API is GET /api/options, POST /api/games, GET /api/games/ID, POST /api/games/ID/play {{\"card\": N}}, POST /api/games/ID/again, POST /api/games/ID/next",
                method.as_str()
            )}),
        ),
        _ => Reply::Json(
            404,
            json!({"error": format!("{path}: not found; the table is at /")}),
        ),
    }
}
