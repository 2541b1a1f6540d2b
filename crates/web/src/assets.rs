//! The page and its assets, embedded in the binary: plain HTML, CSS and JavaScript modules,
//! all written for duel (MIT OR Apache-2.0), no build step and nothing fetched from elsewhere.

use axum::extract::rejection::PathRejection;
use axum::extract::Path;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Every asset: its name under `/assets/`, its type and its text.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css", include_str!("../assets/style.css")),
    (
        "app.js",
        "text/javascript",
        include_str!("../assets/app.js"),
    ),
    (
        "api.js",
        "text/javascript",
        include_str!("../assets/api.js"),
    ),
    (
        "board.js",
        "text/javascript",
        include_str!("../assets/board.js"),
    ),
    (
        "learn.js",
        "text/javascript",
        include_str!("../assets/learn.js"),
    ),
    (
        "graph.js",
        "text/javascript",
        include_str!("../assets/graph.js"),
    ),
];

const INDEX: &str = include_str!("../assets/index.html");

/// The bytes the page costs: the HTML and every asset (the weight docs/BENCHMARKS.md gives).
pub fn page_weight() -> usize {
    INDEX.len() + ASSETS.iter().map(|a| a.2.len()).sum::<usize>()
}

fn text(kind: &'static str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            // The assets change only with the binary; a page reload should still see a new one.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /`.
pub async fn index() -> Response {
    text("text/html; charset=utf-8", INDEX)
}

/// `GET /assets/{name}`. A name that does not decode (`%FF`) is no asset either.
pub async fn asset(name: Result<Path<String>, PathRejection>, uri: Uri) -> Response {
    let name = match name {
        Ok(Path(name)) => name,
        Err(_) => uri.path().trim_start_matches("/assets/").to_string(),
    };
    match ASSETS.iter().find(|a| a.0 == name) {
        Some(&(_, kind, body)) => text(kind, body),
        None => ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no asset '{name}'"),
        }
        .into_response(),
    }
}
