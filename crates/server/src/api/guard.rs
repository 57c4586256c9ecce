//! The checks every API request passes before its handler (see `docs/protocol.md`, "Requests from
//! web pages"): a state-changing request (any method but `GET`, `HEAD` and `OPTIONS`) that comes
//! with an `Origin` header must come from one of the server's own pages ([`crate::Site::same_site`]:
//! the public URL, an allowed origin, a loopback name of the server, or the request's own `Host`),
//! else `403 bad_origin`; and a body sent with `POST`, `PUT` or `PATCH` must be
//! `Content-Type: application/json`, else `415 not_json` (a request without a body has no type) — a web page of another site can send a
//! form or `text/plain` to any server without asking first, never JSON. And a body over a route's
//! size limit is answered with the API's JSON error (`413 too_large`), not the framework's text.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use wire::ApiCode;

use crate::App;
use crate::api::ApiError;

/// True when a request's `Content-Type` is `application/json` (with any parameters).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// True when a request carries no body (`Content-Length: 0`, or neither a length nor a transfer
/// encoding): it has no type to check (a `PUT /api/me/mutes/{guest}` says all in its path).
fn bodiless(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_LENGTH) {
        Some(n) => n.to_str().is_ok_and(|n| n.trim() == "0"),
        None => !headers.contains_key(header::TRANSFER_ENCODING),
    }
}

/// The refusal of a request, if the checks refuse it.
fn refusal(app: &App, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        let ok = origin.to_str().is_ok_and(|o| match app.site() {
            Some(site) => site.same_site(o, host),
            None => crate::Site::local(std::net::SocketAddr::from(([127, 0, 0, 1], 0))).same_site(o, host),
        });
        if !ok {
            let shown: String = origin.to_str().unwrap_or("?").chars().take(80).collect();
            return Some(ApiError::new(
                StatusCode::FORBIDDEN,
                ApiCode::BadOrigin,
                format!(
                    "a page of {shown:?} may not change anything here: only the server's own pages may (see --public-url and --allowed-origin)"
                ),
            ));
        }
    }
    if matches!(*method, Method::POST | Method::PUT | Method::PATCH)
        && !is_json(headers)
        && !bodiless(headers)
    {
        let given = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("none");
        let shown: String = given.chars().take(80).collect();
        return Some(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiCode::NotJson,
            format!("a request's body is sent as `Content-Type: application/json`, not {shown:?}"),
        ));
    }
    None
}

/// The middleware: the checks before an API request, the JSON `413` after it.
pub async fn check(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    if let Some(e) = refusal(&app, req.method(), req.headers()) {
        return e.into_response();
    }
    let res = next.run(req).await;
    if res.status() == StatusCode::PAYLOAD_TOO_LARGE && !is_json(res.headers()) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ApiCode::TooLarge,
            "the request's body is over the size this route takes",
        )
        .into_response();
    }
    res
}
