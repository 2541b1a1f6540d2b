//! `duel serve` as a user starts it: the address it prints, loopback by default, and the
//! errors it stops with.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `duel serve` with `args` and returns it with the first line it printed.
fn serve(args: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duel"))
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("duel runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (Server(child), line)
}

#[test]
fn serve_listens_on_loopback_and_prints_its_address() {
    let (_server, line) = serve(&["--port", "0"]);
    let addr = line
        .strip_prefix("duel serve: http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"games\""), "{answer}");
}

/// What the server printed on its standard error, once it is stopped.
fn stderr_of(mut server: Server) -> String {
    let _ = server.0.kill();
    let mut err = String::new();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

/// The address in the line `duel serve` printed, and the token it ends in, if any.
fn address(line: &str) -> (String, Option<String>) {
    let rest = line
        .strip_prefix("duel serve: http://")
        .unwrap_or_else(|| panic!("{line}"));
    let (addr, tail) = rest.split_once('/').unwrap();
    let token = tail
        .split_whitespace()
        .next()
        .and_then(|q| q.strip_prefix("?token="))
        .map(str::to_string);
    (addr.to_string(), token)
}

/// One request on its own connection; the whole answer.
fn exchange(addr: &str, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    answer
}

fn get(addr: &str, path: &str, headers: &str) -> String {
    exchange(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n"),
    )
}

fn post(addr: &str, path: &str, body: &str) -> String {
    exchange(
        addr,
        &format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    )
}

#[test]
fn serve_opened_to_the_network_asks_for_a_token() {
    let (server, line) = serve(&["--host", "0.0.0.0", "--port", "0"]);
    assert!(line.starts_with("duel serve: http://0.0.0.0:"), "{line}");
    let (addr, token) = address(&line);
    let token = token.unwrap_or_else(|| panic!("no token: {line}"));
    assert_eq!(token.len(), 32, "{line}");
    let port = addr.rsplit(':').next().unwrap();
    let local = format!("127.0.0.1:{port}");
    assert!(get(&local, "/api/games", "").starts_with("HTTP/1.1 401"));
    let with = get(
        &local,
        "/api/games",
        &format!("Authorization: Bearer {token}\r\n"),
    );
    assert!(with.starts_with("HTTP/1.1 200"), "{with}");
    let err = stderr_of(server);
    assert!(
        err.contains("listening on 0.0.0.0") && err.contains("token"),
        "{err}"
    );

    // --no-token opens it with a warning.
    let (server, line) = serve(&["--host", "0.0.0.0", "--port", "0", "--no-token"]);
    assert_eq!(address(&line).1, None, "{line}");
    assert!(stderr_of(server).contains("warning: listening on 0.0.0.0 with --no-token"));
}

/// The request that aborted the server (a 96 GiB allocation for a depth of 2^32 - 1), on
/// both reference endpoints: refused, and the server carries on.
#[test]
fn serve_survives_the_deepest_depth() {
    let (_server, line) = serve(&["--port", "0"]);
    let (addr, _) = address(&line);
    for (path, body) in [
        (
            "/api/compare",
            r#"{"game":"tictactoe","depth":4294967295,"algorithms":["minimax"]}"#,
        ),
        (
            "/api/tree",
            r#"{"game":"tictactoe","depth":4294967295,"algorithm":"minimax"}"#,
        ),
        ("/api/compare", r#"{"game":"gomoku","depth":10000000}"#),
    ] {
        let answer = post(&addr, path, body);
        assert!(answer.starts_with("HTTP/1.1 400"), "{path}: {answer}");
        assert!(answer.contains("above the server's cap of 64"), "{answer}");
    }
    let ok = post(&addr, "/api/compare", r#"{"game":"tictactoe","depth":3}"#);
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
}

/// What another site's page sends (an iframe's request, a rebound name, a script's fetch) is
/// refused by the real binary, and starts no search: with one slot, it is still free.
#[test]
fn serve_refuses_other_sites() {
    let (_server, line) = serve(&["--port", "0", "--max-searches", "1"]);
    let (addr, _) = address(&line);
    let search = "/api/search?game=chess&time=15000";
    for (path, headers) in [
        (
            search,
            "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Dest: iframe\r\n",
        ),
        (
            search,
            "Sec-Fetch-Site: same-site\r\nSec-Fetch-Dest: image\r\n",
        ),
        (search, "Origin: http://evil.example\r\n"),
    ] {
        let answer = get(&addr, path, headers);
        assert!(answer.starts_with("HTTP/1.1 403"), "{headers}: {answer}");
    }
    let rebound = exchange(
        &addr,
        &format!("GET {search} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"),
    );
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    assert!(rebound.contains("evil.example"), "{rebound}");
    let ok = post(&addr, "/api/compare", r#"{"game":"tictactoe","depth":1}"#);
    assert!(ok.starts_with("HTTP/1.1 200"), "the slot is free: {ok}");
    // The page's own requests are served.
    let own = get(&addr, "/api/games", "Sec-Fetch-Site: same-origin\r\n");
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
}

/// A token given on the command line, and a host given by name.
#[test]
fn serve_takes_a_token_and_a_host_name() {
    let token = "duel-test-token-0123456789";
    let (_server, line) = serve(&["--host", "localhost", "--port", "0", "--token", token]);
    let (addr, printed) = address(&line);
    assert!(addr.starts_with("localhost:"), "{line}");
    assert_eq!(printed.as_deref(), Some(token));
    let port = addr.rsplit(':').next().unwrap();
    let ip = format!("127.0.0.1:{port}");
    assert!(get(&ip, "/", "").starts_with("HTTP/1.1 401"));
    let page = get(&ip, &format!("/?token={token}"), "");
    assert!(page.starts_with("HTTP/1.1 303"), "{page}");
    assert!(
        page.contains(&format!("set-cookie: duel_token_{port}={token};")),
        "{page}"
    );
    let cookie = format!("Cookie: duel_token_{port}={token}\r\n");
    assert!(get(&ip, "/", &cookie).starts_with("HTTP/1.1 200"));
    assert!(get(&addr, "/api/games", &cookie).starts_with("HTTP/1.1 200"));
}

#[test]
fn serve_refuses_a_port_in_use_and_bad_options() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (out, err, ok) = crate::common::duel(&["serve", "--port", &port]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("cannot listen on 127.0.0.1:"), "{err}");
    for (args, words) in [
        (&["serve", "--port", "70000"][..], "70000"),
        (&["serve", "--host", "localhost:80"][..], "localhost:80"),
        (&["serve", "--max-searches", "0"][..], "0"),
        (
            &["serve", "--host", "no such host!"][..],
            "neither an IP address nor a host name",
        ),
        (
            &["serve", "--host", "nosuchhost.invalid"][..],
            "cannot be resolved",
        ),
        (&["serve", "--token", "short"][..], "at least 16"),
        (&["serve", "--read-timeout", "0s"][..], "read-timeout"),
        (
            &["serve", "--token", "abcdefghijklmnopq", "--no-token"][..],
            "cannot be used with",
        ),
        (&["serve", "--max-time", "soon"][..], "soon"),
    ] {
        let (_, err, ok) = crate::common::duel(args);
        assert!(!ok && err.contains(words), "{args:?}: {err}");
    }
}
