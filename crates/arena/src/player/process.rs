//! An engine as a child process, whatever its protocol: lines out on its input, lines in from
//! its output through a reader thread, so that every wait has a deadline; the handshake and
//! the questions that wait on an answer within [`HANDSHAKE`], a probe's patience, and the
//! quit when the player is dropped. Each protocol's own steps are in its file.

use std::fmt::Display;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::Answer;
use crate::ArenaError;

/// How long an engine may take to answer the handshake and a synchronisation.
pub(crate) const HANDSHAKE: Duration = Duration::from_secs(20);

/// What one line read while a move is due says.
pub(crate) enum Heard {
    /// Nothing the answer waits on: thinking, a message, a line the protocol lets pass.
    Nothing,
    /// The answer.
    Answer(Answer),
    /// Where the answer was due, a line that is none: what the engine did, in words to
    /// follow its name (`sent garbage: an unreadable answer '...'`).
    Garbage(String),
}

impl Heard {
    /// Garbage where the answer was due: `line`, which does not read for `error`.
    pub fn unreadable(line: &str, error: impl Display) -> Heard {
        Heard::Garbage(format!(
            "sent garbage: an unreadable answer '{line}': {error}"
        ))
    }
}

/// What a line of the handshake says ([`Process::handshake`]).
pub(crate) enum Said {
    /// Nothing the handshake waits on (an option, a feature).
    Nothing,
    /// The engine's name (`id name`); the handshake goes on.
    Name(String),
    /// The handshake is over, and this line gives the engine's name if it says one (Gomocup's
    /// answer to `ABOUT`).
    Done(Option<String>),
}

/// A running engine process.
pub(crate) struct Process {
    /// The engine's name: its command line until it gives one.
    pub name: String,
    /// The line that ends a session: `quit` (UCI, xboard, NBoard), `END` (Gomocup).
    pub quit: &'static str,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command` (program and arguments).
    pub fn start(command: &[String]) -> Result<Process, ArenaError> {
        let (program, args) = command.split_first().ok_or(ArenaError::EmptyCommand)?;
        let started = |cause| ArenaError::Start {
            command: command.join(" "),
            cause,
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(started)?;
        let piped = || std::io::Error::other("no pipe to the engine");
        let input = child.stdin.take().ok_or_else(|| started(piped()))?;
        let output = child.stdout.take().ok_or_else(|| started(piped()))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            let mut bytes = Vec::new();
            // Bytes that are not UTF-8 are garbage for the protocol to judge, not the end of
            // the engine's output: reading them as an error would call a live engine dead.
            while matches!(output.read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
                let line = String::from_utf8_lossy(&bytes);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                bytes.clear();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            name: command.join(" "),
            quit: "quit",
            child,
            input,
            lines,
        })
    }

    /// Writes one line (a typed command, printed).
    pub fn send(&mut self, line: &impl Display) -> Result<(), ArenaError> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|source| ArenaError::Write {
                engine: self.name.clone(),
                source,
            })
    }

    /// Writes each of `lines` in turn.
    pub fn send_all<L: Display>(
        &mut self,
        lines: impl IntoIterator<Item = L>,
    ) -> Result<(), ArenaError> {
        lines.into_iter().try_for_each(|line| self.send(&line))
    }

    /// Sends `hello` and reads the lines of the handshake until `read` says it is over, within
    /// [`HANDSHAKE`]; the name the engine gives on the way becomes its name.
    pub fn handshake(
        &mut self,
        hello: &impl Display,
        mut read: impl FnMut(&str) -> Said,
    ) -> Result<(), ArenaError> {
        self.send(hello)?;
        let mut name = None;
        self.wait_for(|line| match read(line) {
            Said::Nothing => false,
            Said::Name(n) => {
                name = Some(n);
                false
            }
            Said::Done(n) => {
                name = n.or(name.take());
                true
            }
        })?;
        if let Some(n) = name {
            self.name = n;
        }
        Ok(())
    }

    /// Sends `question` and reads lines until `answered` says one answers it, within
    /// [`HANDSHAKE`]: UCI's `isready`, a `ping`.
    pub fn ask(
        &mut self,
        question: &impl Display,
        answered: impl FnMut(&str) -> bool,
    ) -> Result<(), ArenaError> {
        self.send(question)?;
        self.wait_for(answered)
    }

    /// The next line before `deadline`; None when the deadline comes first.
    pub fn line_before(
        &mut self,
        deadline: Instant,
        during: &'static str,
    ) -> Result<Option<String>, ArenaError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(Some(l)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(ArenaError::Exited {
                engine: self.name.clone(),
                during,
            }),
        }
    }

    /// A player's answer to a search: each line goes to `read` until it gives the answer or
    /// finds garbage ([`ArenaError::Garbage`]); [`Answer::Late`] when `deadline` comes first.
    pub fn answer(
        &mut self,
        deadline: Instant,
        mut read: impl FnMut(&str) -> Heard,
    ) -> Result<Answer, ArenaError> {
        loop {
            let Some(line) = self.line_before(deadline, " during a search")? else {
                return Ok(Answer::Late);
            };
            match read(&line) {
                Heard::Nothing => {}
                Heard::Answer(answer) => return Ok(answer),
                Heard::Garbage(what) => {
                    return Err(ArenaError::Garbage {
                        engine: self.name.clone(),
                        what,
                    })
                }
            }
        }
    }

    /// Reads lines until `done` says so, within [`HANDSHAKE`].
    pub fn wait_for(&mut self, mut done: impl FnMut(&str) -> bool) -> Result<(), ArenaError> {
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            match self.line_before(deadline, "")? {
                Some(l) if done(&l) => return Ok(()),
                Some(_) => {}
                None => {
                    return Err(ArenaError::NoAnswer {
                        engine: self.name.clone(),
                        wait: HANDSHAKE,
                    })
                }
            }
        }
    }

    /// Refuses the first of `given` (name, value) that the engine did not announce among
    /// `announced`, naming those it did: a misspelt option would otherwise be dropped by the
    /// engine without a word, and the match played with the default. Names compare as the
    /// protocols compare them, in any case.
    pub fn check_options(
        &self,
        given: &[(String, String)],
        announced: &[String],
    ) -> Result<(), ArenaError> {
        match given
            .iter()
            .find(|(name, _)| !announced.iter().any(|a| a.eq_ignore_ascii_case(name)))
        {
            Some((name, _)) => Err(ArenaError::UnknownOption {
                engine: self.name.clone(),
                name: name.clone(),
                announced: announced.to_vec(),
            }),
            None => Ok(()),
        }
    }

    /// An error saying the engine cannot do `reason`.
    pub fn unable(&self, reason: impl Into<String>) -> ArenaError {
        ArenaError::Unable {
            engine: self.name.clone(),
            reason: reason.into(),
        }
    }
}

/// A probe's answer (`duel suite --engine`) and the time from the search command to it: what
/// `answer` reads from `engine` before `patience` runs out, else what it reads within
/// [`HANDSHAKE`] once `move_now` has told the engine to move at once.
pub(crate) fn probe_answer<E>(
    engine: &mut E,
    patience: Duration,
    move_now: impl FnOnce(&mut E) -> Result<(), ArenaError>,
    mut answer: impl FnMut(&mut E, Instant) -> Result<Answer, ArenaError>,
) -> Result<(Answer, Duration), ArenaError> {
    let t0 = Instant::now();
    let mut got = answer(engine, t0 + patience)?;
    if got == Answer::Late {
        // Past its limit and then some: ask for the move now.
        move_now(engine)?;
        got = answer(engine, Instant::now() + HANDSHAKE)?;
    }
    Ok((got, t0.elapsed()))
}

impl Drop for Process {
    fn drop(&mut self) {
        let quit = self.quit;
        let _ = self.send(&quit);
        // Give it a moment to leave by itself, then make sure.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
