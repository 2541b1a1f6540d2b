//! Who may use the server. A web page the user visits elsewhere must not drive the engine on
//! their machine: an `<iframe>` or `<img>` pointed at `/api/search` would start searches and
//! take every slot, and a name rebound to 127.0.0.1 (DNS rebinding) would make such a page
//! same-origin with the server, able to read answers and post anything. Three rules, applied
//! to every request before it reaches a handler (`guard`):
//!
//! 1. **The Host must be one of the server's names**: an IP address, `localhost` or a name
//!    under `.localhost` (which browsers resolve to loopback themselves), or a name the user
//!    gave (`--host NAME`, `--allow-host NAME`). A rebound name is none of these. The rule is
//!    Vite's dev server's: an IP address in the Host cannot be a rebinding, since the page's
//!    own origin is then that address.
//! 2. **`/api/*` takes no request another site made.** A browser says where a request comes
//!    from: `Sec-Fetch-Site` must be `same-origin` or `none` (typed in the address bar); where a
//!    browser sends no `Sec-Fetch-Site`, an `Origin` must be the server's own. A request with
//!    neither comes from no web page (curl, scripts) and is served. `same-site` is refused too:
//!    another port on localhost is the same site.
//! 3. **With a token** ([`Access::token`], on by default when the server listens beyond
//!    loopback), every request carries it, as Jupyter asks: the address `duel serve` prints
//!    ends in `?token=...`; opening it sets a cookie for this port (`SameSite=Strict`, so no
//!    other site's request carries it) and sends the browser on to the same address without
//!    the token; scripts send `Authorization: Bearer TOKEN` or `?token=` on each request.
//!
//! The page is also refused to frames of other sites (`frame-ancestors 'none'`).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::AppState;

/// Which names the server answers to besides its own addresses, and its token.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// Host names answered besides IP addresses, `localhost` and names under `.localhost`,
    /// lower case.
    pub names: Vec<String>,
    /// The token every request must carry; None: no token asked.
    pub token: Option<String>,
}

impl Access {
    /// A new random token: 128 bits from the system's random source, in hex.
    pub fn new_token() -> std::io::Result<String> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Whether `host` (a Host header's name, without its port) is one of the server's names.
    pub fn allows_host(&self, host: &str) -> bool {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let bracketed = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .is_some_and(|h| h.parse::<Ipv6Addr>().is_ok());
        bracketed
            || host.parse::<Ipv4Addr>().is_ok()
            || host == "localhost"
            || host.ends_with(".localhost")
            || self
                .names
                .iter()
                .any(|n| n.trim_end_matches('.').eq_ignore_ascii_case(&host))
    }
}

/// The Host a request names (`example.org:8080`), from its header or, in HTTP/2, its URI.
fn host_of(req: &Request) -> Option<&str> {
    match req.headers().get(header::HOST) {
        Some(v) => v.to_str().ok(),
        None => req.uri().authority().map(|a| a.as_str()),
    }
}

/// A Host split into its name and port (`[::1]:8080` gives `[::1]` and 8080).
fn split_host(host: &str) -> (&str, Option<&str>) {
    let colon = if host.starts_with('[') {
        host.find(']').map(|i| i + 1).filter(|&i| i < host.len())
    } else {
        host.rfind(':')
    };
    match colon {
        Some(i) if host.as_bytes()[i] == b':' => (&host[..i], Some(&host[i + 1..])),
        _ => (host, None),
    }
}

fn forbidden(message: String) -> ApiError {
    ApiError {
        status: StatusCode::FORBIDDEN,
        message,
    }
}

/// Rule 2: refuses a request to `/api/*` that a page of another origin made.
fn check_site(headers: &HeaderMap, host: &str) -> Result<(), ApiError> {
    if let Some(site) = headers.get("sec-fetch-site") {
        return match site.to_str().unwrap_or("") {
            "same-origin" | "none" => Ok(()),
            other => Err(forbidden(format!(
                "a request from another site (Sec-Fetch-Site: {other}) may not use the API: \
                 open the page this server serves"
            ))),
        };
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest.eq_ignore_ascii_case(host));
        if !own {
            return Err(forbidden(format!(
                "a request from another origin ({origin}) may not use the API"
            )));
        }
    }
    Ok(())
}

/// Compares in time that depends on the lengths only, so the token cannot be guessed a byte at
/// a time from how long a refusal takes.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// The cookie that carries the token, one per port: cookies do not tell ports apart, and two
/// servers on one machine must not overwrite each other's.
fn cookie_name(port: Option<&str>) -> String {
    format!("duel_token_{}", port.unwrap_or("80"))
}

/// The value of the `token` query parameter, and the query without it.
fn query_token(uri: &Uri) -> Option<(String, String)> {
    let query = uri.query()?;
    let mut token = None;
    let rest: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.strip_prefix("token=") {
            Some(t) => {
                token = Some(t.to_string());
                false
            }
            None => true,
        })
        .collect();
    Some((token?, rest.join("&")))
}

/// `uri` with its query replaced by `query` (none when empty).
fn with_query(uri: &Uri, query: &str) -> Uri {
    let path = uri.path();
    let text = if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    };
    text.parse().unwrap_or_else(|_| uri.clone())
}

/// Rule 3: whether the request carries `token` in a header or this port's cookie.
fn carries(headers: &HeaderMap, token: &str, port: Option<&str>) -> bool {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or(v.strip_prefix("token ")))
        .is_some_and(|t| same(t.trim(), token));
    let name = cookie_name(port);
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .any(|(k, v)| k == name && same(v, token));
    bearer || cookie
}

fn no_token() -> Response {
    let mut res = ApiError {
        status: StatusCode::UNAUTHORIZED,
        message: "this server asks for its token: open the address `duel serve` printed (it \
                  ends in ?token=...), or send the header Authorization: Bearer TOKEN"
            .into(),
    }
    .into_response();
    res.headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    res
}

/// The middleware: the three rules of the module doc, then the handler.
pub(crate) async fn guard(
    State(st): State<Arc<AppState>>,
    mut req: Request,
    next: Next,
) -> Response {
    let Some(host) = host_of(&req).map(str::to_string) else {
        return ApiError::bad("the request names no Host").into_response();
    };
    let (name, port) = split_host(&host);
    if !st.access.allows_host(name) {
        return forbidden(format!(
            "Host '{name}' is not a name of this server (an IP address, localhost, or a name \
             given with --host or --allow-host)"
        ))
        .into_response();
    }
    if req.uri().path().starts_with("/api/") {
        if let Err(e) = check_site(req.headers(), &host) {
            return e.into_response();
        }
    }
    if let Some(token) = &st.access.token {
        let from_query = query_token(req.uri());
        let by_query = from_query.as_ref().is_some_and(|(t, _)| same(t, token));
        if !by_query && !carries(req.headers(), token, port) {
            return no_token();
        }
        if let Some((_, rest)) = from_query {
            // The handlers refuse fields they do not know: the token is not theirs.
            let uri = with_query(req.uri(), &rest);
            if req.uri().path() == "/" {
                // The page: keep the token in a cookie, out of the address bar and history.
                let cookie = format!(
                    "{}={token}; Path=/; HttpOnly; SameSite=Strict",
                    cookie_name(port)
                );
                return (
                    StatusCode::SEE_OTHER,
                    [
                        (header::LOCATION, uri.to_string()),
                        (header::SET_COOKIE, cookie),
                    ],
                )
                    .into_response();
            }
            *req.uri_mut() = uri;
        }
    }
    let mut res = next.run(req).await;
    let headers = res.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_split_into_name_and_port() {
        assert_eq!(split_host("localhost:8080"), ("localhost", Some("8080")));
        assert_eq!(split_host("localhost"), ("localhost", None));
        assert_eq!(split_host("[::1]:80"), ("[::1]", Some("80")));
        assert_eq!(split_host("[::1]"), ("[::1]", None));
        assert_eq!(split_host("10.0.0.1:1"), ("10.0.0.1", Some("1")));
    }

    #[test]
    fn the_servers_names_and_no_other() {
        let a = Access {
            names: vec!["box.lan".into()],
            token: None,
        };
        for ok in [
            "localhost",
            "LOCALHOST",
            "app.localhost",
            "127.0.0.1",
            "192.168.1.9",
            "[::1]",
            "[fe80::1]",
            "box.lan",
            "Box.Lan.",
        ] {
            assert!(a.allows_host(ok), "{ok}");
        }
        for bad in [
            "evil.example",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "box.lan.evil",
            "::1",
            "[::1",
            "",
        ] {
            assert!(!a.allows_host(bad), "{bad}");
        }
    }

    #[test]
    fn the_token_leaves_the_query() {
        let uri: Uri = "/api/search?game=chess&token=abc&depth=3".parse().unwrap();
        let (t, rest) = query_token(&uri).unwrap();
        assert_eq!((t.as_str(), rest.as_str()), ("abc", "game=chess&depth=3"));
        assert_eq!(
            with_query(&uri, &rest).to_string(),
            "/api/search?game=chess&depth=3"
        );
        assert_eq!(with_query(&uri, "").to_string(), "/api/search");
        assert!(query_token(&"/?game=chess".parse().unwrap()).is_none());
    }

    #[test]
    fn tokens_are_compared_whole() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd") && !same("abc", "ab") && !same("", "a"));
        let t = Access::new_token().unwrap();
        assert_eq!(t.len(), 32);
        assert_ne!(t, Access::new_token().unwrap());
    }
}
