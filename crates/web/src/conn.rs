//! Connections: accepted up to a cap, each served by hyper's HTTP/1 with a deadline for its
//! request headers, and hyper's own refusals made JSON.
//!
//! axum's `serve` sets no read deadline: a client that trickles its headers a byte at a time
//! holds its connection, and its file descriptor, for ever. Here the headers of each request
//! (and the wait for the next one on a kept-alive connection) must arrive within
//! [`Caps::read_timeout`]; a body is held to the same by the body extractor
//! (`crate::error::Body`). At [`Caps::max_connections`] (or fewer when the process may open
//! fewer files) the loop stops accepting until a connection closes, rather than failing on
//! every accept.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Caps;

/// The largest request head hyper reads (request line and headers), past which it refuses with
/// 431: room for the longest request target hyper allows (64 KiB, past it 414) and headers.
const MAX_HEAD: usize = 96 * 1024;

/// The files this process may open, where the system says (Linux's `/proc/self/limits`).
fn open_files_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// Connections served at once: the cap, kept below the open-files limit with room for the
/// listener, the search threads' files and the standard streams.
fn connection_cap(caps: &Caps) -> usize {
    let files = open_files_limit().map_or(usize::MAX, |n| n.saturating_sub(16).max(1));
    caps.max_connections.clamp(1, files)
}

/// Serves `app` on `listener` until `shutdown` completes; connections open then are left to
/// end with the runtime.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    caps: &Caps,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let permits = Arc::new(Semaphore::new(connection_cap(caps)));
    let read_timeout = caps.read_timeout;
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => return,
            },
            () = &mut shutdown => return,
        };
        let stream = tokio::select! {
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of files, or a connection reset before it was accepted: the next
                    // accept may do better; do not spin meanwhile.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => return,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _permit = permit;
            let io = TokioIo::new(JsonRefusals::new(stream));
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .max_header_size(MAX_HEAD);
            // A failed connection (a timeout, a reset) concerns only its client.
            let _ = http.serve_connection(io, service).await;
        });
    }
}

/// The stream of one connection, with hyper's own refusals rewritten as JSON.
///
/// hyper answers a request it cannot parse (a malformed line or header: 400; a target over
/// 64 KiB: 414; headers over [`MAX_HEAD`] or 100 of them: 431) before any handler sees it,
/// with a bare head, `content-length: 0`, and closes the connection. Every refusal of this
/// server is a JSON `{"error": ...}`, so such a head, when it is the last thing written, is
/// replaced by the same head with a JSON body naming what was wrong. No answer of the router
/// looks like it: every refusal there has a body.
pub(crate) struct JsonRefusals<T> {
    inner: T,
    /// A rewritten answer being written: its bytes, how many are written, and the length of
    /// the buffer hyper gave, reported once all are written.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<T> JsonRefusals<T> {
    pub(crate) fn new(inner: T) -> Self {
        JsonRefusals {
            inner,
            pending: None,
        }
    }
}

/// `buf` with a closing bare refusal at its end made JSON, or None when it has none.
pub(crate) fn rewrite(buf: &[u8]) -> Option<Vec<u8>> {
    const BARE: &[u8] = b"\r\nconnection: close\r\ncontent-length: 0\r\n";
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let start = buf.windows(7).rposition(|w| w == b"HTTP/1.")?;
    let head = &buf[start..];
    let status = head.get(9..12)?;
    let message = match status {
        b"400" => "the request is not valid HTTP/1.1: a malformed request line or header",
        b"414" => "the request target (path and query) is too long: at most 64 KiB",
        b"431" => "the request's headers are too large: at most 100 headers and 96 KiB",
        _ => return None,
    };
    let at = head.windows(BARE.len()).position(|w| w == BARE)?;
    let body = serde_json::json!({ "error": message }).to_string();
    let mut out = Vec::with_capacity(buf.len() + body.len() + 64);
    out.extend_from_slice(&buf[..start + at]);
    out.extend_from_slice(
        format!(
            "\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&head[at + BARE.len()..]);
    out.extend_from_slice(body.as_bytes());
    Some(out)
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonRefusals<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            if let Some(out) = rewrite(buf) {
                this.pending = Some((out, 0, buf.len()));
            }
        }
        let Some((out, written, reported)) = &mut this.pending else {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        };
        while *written < out.len() {
            let n = ready!(Pin::new(&mut this.inner).poll_write(cx, &out[*written..]))?;
            if n == 0 {
                return Poll::Ready(Ok(0));
            }
            *written += n;
        }
        let n = *reported;
        this.pending = None;
        Poll::Ready(Ok(n))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes each answer from one buffer, where `rewrite` sees it
    // whole.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn hypers_bare_refusals_become_json_and_nothing_else_changes() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\
                     content-length: 0\r\ndate: Wed, 02 Dec 2026 08:45:30 GMT\r\n\r\n";
        let out = String::from_utf8(rewrite(bare).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "), "{out}");
        assert!(head.contains("content-type: application/json"), "{out}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        assert!(head.contains("date: Wed"), "{out}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("headers"), "{v}");

        // After an answer written in the same buffer (pipelined requests), only the last.
        let first = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}";
        let two = [
            &first[..],
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
        ]
        .concat();
        let out = rewrite(&two).unwrap();
        assert!(out.starts_with(first));
        assert!(String::from_utf8_lossy(&out).contains("not valid HTTP"));

        for untouched in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"[..],
            b"HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 11\r\n\r\n{\"error\":1}",
            b"",
        ] {
            assert!(rewrite(untouched).is_none(), "{untouched:?}");
        }
    }
}
