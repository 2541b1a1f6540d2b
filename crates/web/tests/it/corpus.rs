//! The web API's malformed-input corpus (issue 46): `tests/data/corpus.txt` holds bad and odd
//! requests (its header gives the format), sent in order through the real router; each must be
//! refused with its status and a JSON error naming what was wrong, never a 5xx, and the server
//! must still answer a position and play a search to its end afterwards.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use duel_web::{router, ServeConfig};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::common::request;

/// One request of the corpus.
struct Entry {
    /// Where it is: `corpus.txt:42`.
    at: String,
    status: StatusCode,
    words: String,
    method: String,
    target: String,
    content_type: Option<String>,
    /// Headers besides Content-Type; a `Host` here replaces the default one, and an empty
    /// one leaves the request without a Host.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// `text` with `\xNN` made the byte NN and the placeholders expanded.
fn expand(text: &str) -> Vec<u8> {
    let text = text
        .replace("{LONG}", &"x".repeat(100_000))
        .replace("{PATH}", &"x".repeat(60_000))
        .replace("{NEST}", &"[".repeat(200))
        .replace("{MOVES600}", &vec!["\"1\""; 600].join(", "))
        .replace("{MOVES1000}", &vec!["\"1\""; 1000].join(", "));
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 2..i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], bytes.get(i + 1), hex) {
            (b'\\', Some(b'x'), Some(b)) => {
                out.push(b);
                i += 4;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

fn corpus() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("corpus.txt:{}", n + 1);
        let fields: Vec<&str> = line.splitn(6, '\t').collect();
        let &[status, words, method, target, kind_and_headers, ref rest @ ..] = &fields[..] else {
            panic!("{at}: fewer than five fields: {line:?}");
        };
        let status = status
            .parse::<u16>()
            .ok()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .unwrap_or_else(|| panic!("{at}: '{status}' is not a status"));
        assert!(status.is_client_error(), "{at}: every refusal is a 4xx");
        let mut parts = kind_and_headers.split(" + ");
        let kind = parts.next().unwrap_or("-");
        let headers = parts
            .map(|h| {
                let (k, v) = h
                    .split_once(':')
                    .unwrap_or_else(|| panic!("{at}: '{h}' is not a header"));
                (k.trim().to_string(), v.trim().to_string())
            })
            .collect();
        entries.push(Entry {
            at,
            status,
            words: words.to_lowercase(),
            method: method.to_string(),
            target: String::from_utf8(expand(target)).unwrap(),
            content_type: match kind {
                "-" => None,
                "json" => Some("application/json".to_string()),
                other => Some(other.to_string()),
            },
            headers,
            body: rest.first().map_or_else(Vec::new, |b| expand(b)),
        });
    }
    entries
}

/// The answer's status and JSON body (a panic, naming the entry, when the body is not JSON).
async fn answer(app: &axum::Router, req: Request<Body>, at: &str) -> (StatusCode, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{at}: {status} with a body that is not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, v)
}

#[tokio::test]
async fn every_bad_request_is_refused_by_name_and_the_server_carries_on() {
    let app = router(&ServeConfig::default());
    let entries = corpus();
    assert!(entries.len() >= 60, "{} requests", entries.len());
    let mut wrong = Vec::new();
    for e in &entries {
        let mut req = Request::builder().method(e.method.as_str()).uri(&e.target);
        if !e.headers.iter().any(|h| h.0.eq_ignore_ascii_case("host")) {
            req = req.header("host", crate::common::HOST);
        }
        for (k, v) in e.headers.iter().filter(|h| !h.1.is_empty()) {
            req = req.header(k.as_str(), v.as_str());
        }
        if let Some(kind) = &e.content_type {
            req = req.header("content-type", kind);
        }
        let req = req.body(Body::from(e.body.clone())).unwrap();
        let (status, v) = answer(&app, req, &e.at).await;
        let message = v["error"].as_str().unwrap_or_default();
        if status != e.status || message.is_empty() || !message.to_lowercase().contains(&e.words) {
            wrong.push(format!(
                "{}: {status} {message:?} (wanted {} naming '{}')",
                e.at, e.status, e.words
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // Still serving: a position, and a search streamed to its `done` event with a move.
    let req = request("POST", "/api/position")
        .header("content-type", "application/json")
        .body(Body::from(r#"{"game": "chess", "moves": ["e2e4"]}"#))
        .unwrap();
    let (status, v) = answer(&app, req, "after the corpus").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let req = request("GET", "/api/search?game=tictactoe&depth=9")
        .body(Body::empty())
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    // The stream is read frame by frame up to its `done` event (it need not close after it).
    let mut body = res.into_body();
    let mut text = String::new();
    let done = loop {
        let frame = body.frame().await;
        let frame = frame.unwrap_or_else(|| panic!("the stream ended without done: {text}"));
        if let Some(data) = frame.unwrap().data_ref() {
            text.push_str(std::str::from_utf8(data).unwrap());
        }
        if let Some(i) = text.find("event: done") {
            if let Some(end) = text[i..].find("\n\n") {
                break text[i..i + end].to_string();
            }
        }
    };
    let data: Value = serde_json::from_str(done.split("data:").nth(1).unwrap().trim()).unwrap();
    assert!(data["best"].is_string(), "{data}");
}
