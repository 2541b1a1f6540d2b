//! A protocol engine (`duel uci`, `duel nboard`) run as a child process, for transcript tests:
//! lines in, lines out read on a thread, with deadlines so that an engine gone deaf fails a
//! test instead of hanging it, and the standard error kept for when it has ended.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Long enough for any answer on a loaded CI machine; the tests that check that something does
/// *not* come wait much less.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// What "at once" means in the tests: the engine answers in a millisecond or two, and this
/// leaves room for a machine whose two cores run other tests and the engine's own search (500
/// ms was once exceeded at a load average of 5.6). A deaf loop answers after the search's 5 s
/// or never, so it still fails.
pub const AT_ONCE: Duration = Duration::from_secs(2);

/// A running engine, its output read on a thread.
pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub seen: Vec<String>,
    /// The standard error, read on a thread to its end (a panic's message lands there).
    stderr: Option<JoinHandle<String>>,
}

impl Engine {
    /// `duel` with `args`.
    pub fn start(args: &[&str]) -> Engine {
        Engine::start_program(env!("CARGO_BIN_EXE_duel"), args)
    }

    /// `program` with `args`.
    pub fn start_program(program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("duel runs");
        let stdin = child.stdin.take();
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = err.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        });
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
            stderr: Some(stderr),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `done`; returns all of them, that one last.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.within(PATIENCE, "an expected line", done)
    }

    /// Lines that arrive within `wait`, without expecting any.
    pub fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    got.push(line);
                }
                Err(RecvTimeoutError::Timeout) => return got,
                Err(RecvTimeoutError::Disconnected) => return got,
            }
        }
    }

    /// Reads lines until one satisfies `done`, which must come within `limit` of the call
    /// (for commands that must be answered at once: a deaf engine fails here, not by hanging).
    pub fn within(
        &mut self,
        limit: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let start = Instant::now();
        let mut got = Vec::new();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let end = done(&line);
                    got.push(line);
                    if end {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "{what}: no answer within {limit:?}; read so far: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// Waits for the process to end, which it must within `limit`.
    pub fn exits_within(self, limit: Duration, what: &str) {
        self.ends_within(limit, what);
    }

    /// Waits for the process to end, which it must within `limit`: its exit status and all
    /// it wrote to its standard error.
    pub fn ends_within(mut self, limit: Duration, what: &str) -> (ExitStatus, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // The process is gone, so its standard error is at its end (unless a child
                // of its own kept it open, which duel never starts).
                let stderr = self.stderr.take().map(|t| t.join().unwrap());
                return (status, stderr.unwrap_or_default());
            }
            assert!(
                start.elapsed() < limit,
                "{what}: still running after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Closes the input and waits for the process; its exit success.
    pub fn close(self) -> bool {
        self.close_ended().0.success()
    }

    /// Closes the input and waits for the process: its exit status and standard error.
    pub fn close_ended(mut self) -> (ExitStatus, String) {
        drop(self.stdin.take());
        self.ends_within(PATIENCE, "the engine after the end of its input")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
