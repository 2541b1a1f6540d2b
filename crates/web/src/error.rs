//! Every refusal is a status and a JSON body `{"error": "..."}` that names what was wrong;
//! the extractors below turn axum's own rejections (bad JSON, a body too large, a bad query)
//! into the same form, so no client ever has to read plain text.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use std::sync::Arc;

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use duel_engine::EngineError;
use serde::de::DeserializeOwned;

use crate::AppState;

/// A refused request: the status and the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// 400 for input that cannot be read or asks more than the caps allow, 422 for a move or
    /// position the game refuses, 401 and 403 from [`crate::access`], 404, 405, 408 for a body
    /// too slow to arrive, 413, 415, 429 when every search slot is taken.
    pub status: StatusCode,
    /// What was wrong, for people.
    pub message: String,
}

impl ApiError {
    /// Input that cannot be read, or that asks for more than the server allows.
    pub fn bad(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// A move, position or record the game refuses.
    pub fn refused(message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message: message.into(),
        }
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::Position(_)
            | EngineError::Move(_)
            | EngineError::MoveList { .. }
            | EngineError::Variant { .. }
            | EngineError::GameOver(_) => ApiError::refused(e.to_string()),
            _ => ApiError::bad(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// A JSON body, refused as an [`ApiError`]; it must arrive within the server's read timeout.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned> FromRequest<Arc<AppState>> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let wait = state.caps.read_timeout;
        match tokio::time::timeout(wait, Json::<T>::from_request(req, state)).await {
            Ok(Ok(Json(v))) => Ok(Body(v)),
            Ok(Err(rejection)) => Err(json_rejection(rejection)),
            Err(_) => Err(ApiError {
                status: StatusCode::REQUEST_TIMEOUT,
                message: format!(
                    "the request body did not arrive within {} s",
                    wait.as_secs_f64()
                ),
            }),
        }
    }
}

/// axum answers a body of the wrong shape (a field of the wrong type, a missing or unknown
/// one) with 422; here 422 is kept for what a game refuses, and such a body is a 400 like any
/// other that cannot be read.
fn json_rejection(r: JsonRejection) -> ApiError {
    let status = match r.status() {
        StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
        s => s,
    };
    let message = match &r {
        JsonRejection::MissingJsonContentType(_) => {
            "the body must be JSON, sent with Content-Type: application/json".to_string()
        }
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".into(),
        _ => r.body_text(),
    };
    ApiError { status, message }
}

/// A query string, refused as an [`ApiError`].
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Query(v)),
            Err(r) => Err(query_rejection(r)),
        }
    }
}

fn query_rejection(r: QueryRejection) -> ApiError {
    ApiError {
        status: r.status(),
        message: r.body_text(),
    }
}

/// Any path the site does not have.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!("no such page or endpoint: {}", uri.path()),
    }
}

/// A known path asked with the wrong method.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{} does not take {method}", uri.path()),
    }
}
