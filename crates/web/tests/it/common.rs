//! What the router tests share: the router as `duel serve` builds it, and requests as a
//! browser on the same machine sends them (with a Host: requests without one are refused).

use axum::http::request::Builder;
use axum::http::Request;
use duel_web::{router, Caps, ServeConfig};

/// The Host the tests' requests name: the default address.
pub const HOST: &str = "127.0.0.1:8080";

/// A request to `uri` by `method`, naming the server's Host.
pub fn request(method: &str, uri: impl AsRef<str>) -> Builder {
    Request::builder()
        .method(method)
        .uri(uri.as_ref())
        .header("host", HOST)
}

/// The router with these caps and the default access rules.
pub fn with_caps(caps: Caps) -> axum::Router {
    router(&ServeConfig {
        caps,
        ..ServeConfig::default()
    })
}
