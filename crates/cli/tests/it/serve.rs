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

#[test]
fn serve_warns_when_opened_to_the_network() {
    let (mut server, line) = serve(&["--host", "0.0.0.0", "--port", "0"]);
    assert!(line.starts_with("duel serve: http://0.0.0.0:"), "{line}");
    let _ = server.0.kill();
    let mut err = String::new();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("warning: listening on 0.0.0.0"), "{err}");
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
        (&["serve", "--max-time", "soon"][..], "soon"),
    ] {
        let (_, err, ok) = crate::common::duel(args);
        assert!(!ok && err.contains(words), "{args:?}: {err}");
    }
}
