//! Issue 68 at the connection level, against a bound server over TCP: hyper's own refusals
//! are JSON, a request that does not arrive in time is dropped, and clients that trickle can
//! neither hold connections for ever nor keep others out.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use duel_web::{Bound, Caps, ServeConfig};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a free loopback port with these caps, serving until the test ends.
async fn server(caps: Caps) -> SocketAddr {
    let bound = Bound::bind(&ServeConfig {
        port: 0,
        caps,
        ..ServeConfig::default()
    })
    .await
    .unwrap();
    let addr = bound.addr().unwrap();
    tokio::spawn(bound.serve(std::future::pending()));
    addr
}

/// Sends `raw` on a new connection and reads the answer to its end (the server closes it).
async fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(raw).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// The status and JSON body of a whole answer.
fn answer(text: &str) -> (u16, Value) {
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no head: {text:?}"));
    let status = head[9..12].parse().unwrap();
    assert!(
        head.to_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    (status, serde_json::from_str(body).unwrap())
}

/// Item 7: what hyper refuses before any handler sees it is JSON too.
#[tokio::test]
async fn requests_hyper_cannot_read_are_refused_in_json() {
    let addr = server(Caps::default()).await;
    let long = format!(
        "GET /{} HTTP/1.1\r\nHost: {addr}\r\n\r\n",
        "x".repeat(70_000)
    );
    let many: String = (0..200).map(|i| format!("X-{i}: y\r\n")).collect();
    let huge = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Big: {}\r\n\r\n",
        "y".repeat(120_000)
    );
    for (raw, status, words) in [
        (
            format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nBad Header\r\n\r\n"),
            400,
            "not valid http",
        ),
        (
            "G\u{1}T / HTTP/1.1\r\n\r\n".to_string(),
            400,
            "not valid http",
        ),
        (long, 414, "too long"),
        (
            format!("GET / HTTP/1.1\r\nHost: {addr}\r\n{many}\r\n"),
            431,
            "headers",
        ),
        (huge, 431, "headers"),
    ] {
        let text = exchange(addr, raw.as_bytes()).await;
        let (got, v) = answer(&text);
        assert_eq!(got, status, "{text}");
        let message = v["error"].as_str().unwrap().to_lowercase();
        assert!(message.contains(words), "{message}");
    }
    // The server carries on.
    let ok = exchange(
        addr,
        format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await;
    assert_eq!(answer(&ok).0, 200);
}

fn quick() -> Caps {
    Caps {
        read_timeout: Duration::from_millis(300),
        ..Caps::default()
    }
}

/// Item 5: headers that do not arrive in time, or a kept-alive connection left idle, are
/// dropped; a body that does not arrive in time is refused with 408.
#[tokio::test]
async fn slow_requests_are_dropped() {
    let addr = server(quick()).await;
    // Half a request line, then nothing: closed with no answer.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/ga").await.unwrap();
    let t = Instant::now();
    let mut out = Vec::new();
    let n = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .expect("closed by the server")
        .unwrap_or(0);
    assert_eq!(n, 0);
    assert!(
        t.elapsed() >= Duration::from_millis(250),
        "{:?}",
        t.elapsed()
    );

    // One answer, then idle: closed after the same time.
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "an idle kept-alive connection stays open");
    assert!(String::from_utf8_lossy(&out).starts_with("HTTP/1.1 200"));

    // Headers, then half the body it promised.
    let body = r#"{"game": "chess"}"#;
    let head = format!(
        "POST /api/position HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..5]
    );
    let text = exchange(addr, head.as_bytes()).await;
    let (status, v) = answer(&text);
    assert_eq!(status, 408, "{text}");
    assert!(
        v["error"].as_str().unwrap().contains("did not arrive"),
        "{v}"
    );
}

/// Item 5: trickling clients beyond the connection cap hold no one out for longer than the
/// read timeout: a normal request made while they hold every connection is answered once
/// they are dropped.
#[tokio::test]
async fn trickling_clients_cannot_keep_others_out() {
    let addr = server(Caps {
        max_connections: 8,
        ..quick()
    })
    .await;
    let mut trickles = Vec::new();
    for _ in 0..32 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /api/games HTTP/1.1\r\nX-Slow: ")
            .await
            .unwrap();
        trickles.push(s);
    }
    let t = Instant::now();
    let ok = exchange(
        addr,
        format!("GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await;
    assert_eq!(answer(&ok).0, 200, "{ok}");
    // Every trickle ahead of it waits its turn and is dropped at the timeout: four rounds of
    // eight at most.
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let mut closed = 0;
    for mut s in trickles {
        let mut buf = [0u8; 16];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await {
            closed += 1;
        }
    }
    assert_eq!(closed, 32, "every trickling connection is dropped");
}
