//! The API's one error, [`ApiError`] (`{"error": {"code": …, "message": …}}` with a fitting
//! status), and the helpers every handler reads its request with: a JSON body, a bearer token, a
//! number of the query, a name a person chose.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use table::text::{TextKind, check_text};
use wire::{ApiCode, ApiErrorBody, ApiErrorDetail, ApiReason, Refusal};

/// An API error: a status, a code and a message (and, for a limit, the seconds to wait, sent as
/// `Retry-After`).
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: ApiCode,
    message: String,
    reason: Option<ApiReason>,
    retry_after: Option<u64>,
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = StatusCode::from_u16(r.status()).unwrap_or(StatusCode::BAD_REQUEST);
        ApiError { status, code: r.api_code(), message: r.message, reason: None, retry_after: None }
    }
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: ApiCode, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), reason: None, retry_after: None }
    }

    /// `429 rate_limited`: `message`, and `Retry-After` the whole seconds of `wait` (at least 1).
    pub(crate) fn rate_limited(message: impl Into<String>, wait: f64) -> ApiError {
        let secs = if wait.is_finite() { wait.ceil().clamp(1.0, 86_400.0) as u64 } else { 60 };
        ApiError {
            status: StatusCode::TOO_MANY_REQUESTS,
            code: ApiCode::RateLimited,
            message: message.into(),
            reason: None,
            retry_after: Some(secs),
        }
    }

    /// The error with the `reason` that tells which of its code's refusals it is.
    pub(crate) fn because(mut self, reason: ApiReason) -> ApiError {
        self.reason = Some(reason);
        self
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, ApiCode::BadRequest, message)
    }

    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, ApiCode::Internal, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ApiErrorBody {
            error: ApiErrorDetail { code: self.code, message: self.message, reason: self.reason },
        };
        let mut res = (self.status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(header::RETRY_AFTER, secs.into());
        }
        res
    }
}

pub(crate) type ApiResult = Result<Response, ApiError>;

pub(crate) fn ok_json<T: serde::Serialize>(status: StatusCode, v: T) -> ApiResult {
    Ok((status, axum::Json(v)).into_response())
}

/// Reads a JSON body into `T`, with an error that says what is wrong.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    let v: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("the body is not JSON: {e}")))?;
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        ApiError::bad(if path == "." {
            e.into_inner().to_string()
        } else {
            format!("{path}: {}", e.into_inner())
        })
    })
}

/// Checks a name a person chose (see [`table::text`] for the rules), with the `bad_name` error.
pub fn check_name(kind: TextKind, name: &str, max: usize) -> Result<String, ApiError> {
    check_text(kind, name, max)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, ApiCode::BadName, e.to_string()))
}

/// The token of a request's `Authorization: Bearer TOKEN` header.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let unauthorized = |m: &str| ApiError::new(StatusCode::UNAUTHORIZED, ApiCode::BadToken, m);
    let value = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).ok_or_else(|| {
        unauthorized("this needs an `Authorization: Bearer TOKEN` header (POST /api/guests gives a token)")
    })?;
    let token = value
        .strip_prefix("Bearer ")
        .ok_or_else(|| unauthorized("the Authorization header must be `Bearer TOKEN`"))?;
    Ok(token.trim())
}

/// Reads a whole number of a query parameter.
pub(crate) fn query_number(
    q: &std::collections::HashMap<String, String>,
    key: &str,
) -> Result<Option<u32>, ApiError> {
    q.get(key)
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| ApiError::bad(format!("{key} must be a whole number from 0, not {v:?}")))
        })
        .transpose()
}
