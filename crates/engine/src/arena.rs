//! Matches between chess engines, as a tournament manager plays them: each engine a child
//! process spoken to over UCI or the xboard protocol (CECP, for Fairy-Max, Phalanx, Sjeng and
//! the other engines that predate UCI), clocks kept here (a move that comes after the flag falls loses),
//! the rules judged here (an illegal move loses; mate, stalemate, repetition, the fifty-move
//! rule and dead positions end the game), openings played from a list (random, or read from a
//! book by [`read_openings`]) with colours alternated, several games at a time if asked, every
//! game kept as PGN, and the score as an Elo difference with its 95% interval, or a
//! sequential test ([`Sprt`]) that stops the match once it has decided.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use duel_chess::{Chess, Move};
use duel_core::{Game, Outcome, Side};

use crate::Limits;

mod openings;
mod sprt;
pub use openings::read_openings;
pub use sprt::{Sprt, Verdict};

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: the position and the clocks are sent with every move.
    #[default]
    Uci,
    /// xboard/CECP version 2: the engine keeps the game itself; moves are sent in force mode
    /// and `go` makes it move for the side to move.
    Xboard,
}

impl Protocol {
    /// `uci` or `xboard` (also `cecp`, `winboard`).
    pub fn parse(text: &str) -> Result<Protocol, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" | "winboard" => Ok(Protocol::Xboard),
            other => Err(format!(
                "unknown engine protocol '{other}': expected uci or xboard"
            )),
        }
    }
}

/// How to start an engine and what to tell it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Options sent after the handshake: `setoption name K value V` in UCI, `option K=V` in
    /// xboard.
    pub options: Vec<(String, String)>,
    /// The protocol it speaks.
    pub protocol: Protocol,
}

/// What an engine answered when asked to move.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// A move, as text, and what the engine last said about its search.
    Move(String, Thought),
    /// xboard `resign`.
    Resign,
    /// Nothing before the flag fell.
    Late,
}

/// An engine's value of a position, from its own side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

/// The last depth and value an engine reported while thinking on a move, for the PGN.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Thought {
    depth: Option<u32>,
    value: Option<Value>,
}

impl Thought {
    /// Takes in one line of the engine's output: UCI `info` with `depth`/`score` (only the
    /// first line of a MultiPV search; never `info string`, whose words are free text), or an
    /// xboard thinking line `ply score time nodes pv` (score in centipawns).
    fn read(&mut self, protocol: Protocol, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match protocol {
            Protocol::Uci => {
                if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
                    return;
                }
                let after = |key: &str| {
                    let at = words.iter().position(|w| *w == key)?;
                    words.get(at + 1).copied()
                };
                if after("multipv").is_some_and(|n| n != "1") {
                    return;
                }
                let value = match (after("score"), after("cp"), after("mate")) {
                    (Some("cp"), Some(v), _) => v.parse().ok().map(Value::Cp),
                    (Some("mate"), _, Some(v)) => v.parse().ok().map(Value::Mate),
                    _ => None,
                };
                // A line with a value holds that value's depth; a bare `info depth` line (a
                // new iteration begun) does not replace the depth of the value shown.
                if let Some(value) = value {
                    self.value = Some(value);
                    self.depth = after("depth").and_then(|d| d.parse().ok());
                }
            }
            Protocol::Xboard => {
                let depth = words
                    .first()
                    .map(|w| w.trim_end_matches(['.', '&']))
                    .and_then(|w| w.parse().ok());
                let score = words.get(1).and_then(|w| w.parse().ok());
                if let (Some(depth), Some(score), Some(_time)) = (depth, score, words.get(2)) {
                    self.depth = Some(depth);
                    self.value = Some(Value::Cp(score));
                }
            }
        }
    }

    /// The PGN comment for a move that took `used`, as cutechess writes it: `+0.35/12 0.531s`,
    /// `-M3/20 0.102s`, or only the time when the engine said nothing.
    fn note(&self, used: Duration) -> String {
        let time = format!("{:.3}s", used.as_secs_f64());
        let value = match self.value {
            None => return time,
            Some(Value::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
            Some(Value::Mate(m)) if m > 0 => format!("+M{m}"),
            // unsigned_abs: an engine may print any i32, i32::MIN too.
            Some(Value::Mate(m)) => format!("-M{}", m.unsigned_abs()),
        };
        match self.depth {
            Some(d) => format!("{value}/{d} {time}"),
            None => format!("{value} {time}"),
        }
    }
}

/// A time control: base time and increment per move; or a node count per move, for matches
/// that measure search changes without the noise of the clock (UCI engines only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Time at the start of the game.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// `go nodes N` for every move instead of the clock, which then only guards against an
    /// engine that hangs.
    pub nodes: Option<u64>,
}

impl TimeControl {
    /// Parses `10+0.1` (seconds, plus increment in seconds) or `10` (no increment).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |t: &str| -> Result<Duration, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("time control '{text}': '{t}' is not a number of seconds"))?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(format!("time control '{text}': {v} s is out of range"));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl {
            base: secs(base)?,
            increment: secs(inc)?,
            nodes: None,
        };
        if tc.base.is_zero() {
            return Err(format!(
                "time control '{text}': the base time must be above zero"
            ));
        }
        Ok(tc)
    }

    /// `nodes` per move, with an hour per game as the guard.
    pub fn per_move_nodes(nodes: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(3600),
            increment: Duration::ZERO,
            nodes: Some(nodes),
        }
    }

    /// As PGN's `TimeControl` tag writes it: `10+0.1`; `-` (no clock) for a node limit.
    pub fn pgn(&self) -> String {
        if self.nodes.is_some() {
            return "-".into();
        }
        format!(
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }

    /// In words: `10+0.1`, or `20000 nodes per move`.
    pub fn describe(&self) -> String {
        match self.nodes {
            Some(n) => format!("{n} nodes per move"),
            None => self.pgn(),
        }
    }
}

/// A running engine.
struct Engine {
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    protocol: Protocol,
    /// xboard: moves go as `usermove M` rather than bare.
    usermove: bool,
    /// xboard: `ping N` is answered by `pong N` (the xboard `isready`).
    ping: bool,
    /// xboard: `setboard FEN` is understood (feature `setboard=1`).
    setboard: bool,
    /// xboard: how many moves of the game the engine already has.
    synced: usize,
}

/// How long an xboard engine that never says `feature done=1` (protocol version 1) is given
/// to declare its features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE: Duration = Duration::from_secs(20);

impl Engine {
    fn start(spec: &EngineSpec) -> Result<Engine, String> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or("an engine command is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.command.join(" ")))?;
        let input = child.stdin.take().ok_or("no engine stdin")?;
        let output = child.stdout.take().ok_or("no engine stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = Engine {
            name: spec.command.join(" "),
            child,
            input,
            lines,
            protocol: spec.protocol,
            usermove: false,
            ping: false,
            setboard: false,
            synced: 0,
        };
        if spec.protocol == Protocol::Xboard {
            e.xboard_handshake(spec)?;
            return Ok(e);
        }
        e.send("uci")?;
        e.wait_for(|l| {
            if let Some(n) = l.strip_prefix("id name ") {
                Some(Some(n.trim().to_string()))
            } else if l.trim() == "uciok" {
                Some(None)
            } else {
                None
            }
        })
        .map(|name| {
            if let Some(n) = name {
                e.name = n;
            }
        })?;
        for (k, v) in &spec.options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// `xboard`, `protover 2`, then the features until `done=1` (or a pause, for version 1
    /// engines), then the options.
    fn xboard_handshake(&mut self, spec: &EngineSpec) -> Result<(), String> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let Some(features) = l.trim().strip_prefix("feature ") else {
                        continue;
                    };
                    let mut done = false;
                    for (k, v) in xboard_features(features) {
                        match k.as_str() {
                            "myname" => self.name = v.clone(),
                            "usermove" => self.usermove = v == "1",
                            "ping" => self.ping = v == "1",
                            "setboard" => self.setboard = v == "1",
                            "done" => done = v == "1",
                            _ => {}
                        }
                        // Accepting is only a courtesy: engines work without it.
                        if k != "done" {
                            self.send(&format!("accepted {k}"))?;
                        }
                    }
                    if done {
                        break;
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited", self.name))
                }
            }
        }
        for (k, v) in &spec.options {
            self.send(&format!("option {k}={v}"))?;
        }
        Ok(())
    }

    /// Before a game: a fresh game in the engine, no pondering, the time control, and for an
    /// xboard engine the start when it is not the standard one (a UCI engine gets it with
    /// every move).
    fn new_game(&mut self, tc: TimeControl, start: &Chess) -> Result<(), String> {
        if tc.nodes.is_some() && self.protocol == Protocol::Xboard {
            return Err(format!(
                "{}: an xboard engine cannot be limited by nodes; use a time control",
                self.name
            ));
        }
        match self.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
                self.ready()
            }
            Protocol::Xboard => {
                self.synced = 0;
                for line in [
                    "new".to_string(),
                    "force".to_string(),
                    "easy".to_string(),
                    "post".to_string(),
                    xboard_level(tc),
                ] {
                    self.send(&line)?;
                }
                let fen = start.to_text();
                if fen != duel_chess::START_FEN {
                    self.send(&format!("setboard {fen}"))?;
                }
                self.ready()
            }
        }
    }

    /// Asks for a move at `moves` (UCI text from `start`), with the clocks and the controls
    /// (white's, black's) and the mover's flag falling at `deadline`.
    fn think(
        &mut self,
        start: &Chess,
        moves: &[String],
        clocks: [Duration; 2],
        tcs: [TimeControl; 2],
        deadline: Instant,
    ) -> Result<Answer, String> {
        let white_to_move = moves.len().is_multiple_of(2);
        match self.protocol {
            Protocol::Uci => {
                let fen = start.to_text();
                let base = if fen == duel_chess::START_FEN {
                    "position startpos".to_string()
                } else {
                    format!("position fen {fen}")
                };
                let position = if moves.is_empty() {
                    base
                } else {
                    format!("{base} moves {}", moves.join(" "))
                };
                self.send(&position)?;
                let mover = usize::from(!white_to_move);
                let go = match tcs[mover].nodes {
                    Some(n) => format!("go nodes {n}"),
                    None => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        clocks[0].as_millis(),
                        clocks[1].as_millis(),
                        tcs[0].increment.as_millis(),
                        tcs[1].increment.as_millis()
                    ),
                };
                self.send(&go)?;
            }
            Protocol::Xboard => {
                self.send("force")?;
                for m in &moves[self.synced.min(moves.len())..] {
                    let line = if self.usermove {
                        format!("usermove {m}")
                    } else {
                        m.clone()
                    };
                    self.send(&line)?;
                }
                let (own, other) = if white_to_move {
                    (clocks[0], clocks[1])
                } else {
                    (clocks[1], clocks[0])
                };
                // Centiseconds.
                self.send(&format!("time {}", own.as_millis() / 10))?;
                self.send(&format!("otim {}", other.as_millis() / 10))?;
                self.send("go")?;
                // It now has every move and will add its own.
                self.synced = moves.len() + 1;
            }
        }
        self.answer(deadline)
    }

    /// Reads the engine's thinking until its move, its resignation or `deadline`.
    fn answer(&mut self, deadline: Instant) -> Result<Answer, String> {
        let mut thought = Thought::default();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let mut words = l.split_whitespace();
                    match (self.protocol, words.next()) {
                        (Protocol::Uci, Some("bestmove")) => {
                            let mv = words.next().unwrap_or("(none)");
                            return Ok(Answer::Move(mv.to_string(), thought));
                        }
                        (Protocol::Xboard, Some("move")) => {
                            let mv = words.next().unwrap_or("");
                            return Ok(Answer::Move(mv.to_string(), thought));
                        }
                        (Protocol::Xboard, Some("resign")) => return Ok(Answer::Resign),
                        _ => thought.read(self.protocol, &l),
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Ok(Answer::Late),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited during a search", self.name))
                }
            }
        }
    }

    /// After a late answer: stop the engine so that its move does not arrive in the next game.
    fn interrupt(&mut self) {
        let stop = match self.protocol {
            Protocol::Uci => "stop",
            Protocol::Xboard => "force",
        };
        let _ = self.send(stop);
        let _ = self.ready();
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("{}: cannot write to the engine: {e}", self.name))
    }

    /// Reads lines until `pick` says stop (Some); for `uci`, collects the name on the way.
    fn wait_for(
        &mut self,
        mut pick: impl FnMut(&str) -> Option<Option<String>>,
    ) -> Result<Option<String>, String> {
        let deadline = Instant::now() + HANDSHAKE;
        let mut found = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => match pick(&l) {
                    Some(Some(v)) => found = Some(v),
                    Some(None) => return Ok(found),
                    None => {}
                },
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no answer within {HANDSHAKE:?}", self.name))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine exited", self.name))
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), String> {
        match self.protocol {
            Protocol::Uci => {
                self.send("isready")?;
                self.wait_for(|l| (l.trim() == "readyok").then_some(None))
                    .map(|_| ())
            }
            Protocol::Xboard if self.ping => {
                self.send("ping 1")?;
                self.wait_for(|l| (l.trim() == "pong 1").then_some(None))
                    .map(|_| ())
            }
            // Without ping there is nothing to wait on; the engine reads its input in order.
            Protocol::Xboard => Ok(()),
        }
    }
}

/// The `key=value` pairs of an xboard `feature` line; values may be quoted and hold spaces.
fn xboard_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// `level 0 M:SS INC`: sudden death, the base in minutes and seconds, the increment in seconds.
fn xboard_level(tc: TimeControl) -> String {
    let secs = tc.base.as_secs_f64().round() as u64;
    format!(
        "level 0 {}:{:02} {}",
        secs / 60,
        secs % 60,
        tc.increment.as_secs_f64()
    )
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
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

/// An engine's choice in one position of a test suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The move in UCI text, or None if the engine resigned instead.
    pub best: Option<String>,
    /// The depth of the last value it reported, if it reported one.
    pub depth: Option<u32>,
    /// Time from the search command to the answer.
    pub time: Duration,
}

/// How long past its time limit, or past this long with only a depth or node limit, an engine
/// may search a suite position before it is told to move now.
const PROBE_GRACE: Duration = Duration::from_secs(5);
const PROBE_UNTIMED: Duration = Duration::from_secs(600);

/// Another engine (UCI or xboard) asked for its move in one position after another, as
/// `duel suite --engine` does: each position a new game, nothing kept from the last.
pub struct Analyst(Engine);

impl Analyst {
    /// Starts the engine and sends its options.
    pub fn start(spec: &EngineSpec) -> Result<Analyst, String> {
        Engine::start(spec).map(Analyst)
    }

    /// The name the engine gave (`id name`, `feature myname`), or its command line.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The engine's move in `pos` (a standard-chess position) within `limits` (UCI `go depth`,
    /// `nodes`, `movetime`; xboard `sd`, `st`, and no node limit).
    pub fn choose(&mut self, pos: &Chess, limits: &Limits) -> Result<Choice, String> {
        let e = &mut self.0;
        let fen = pos.to_text();
        match e.protocol {
            Protocol::Uci => {
                e.send("ucinewgame")?;
                e.ready()?;
                e.send(&format!("position fen {fen}"))?;
                let mut go = "go".to_string();
                if let Some(d) = limits.depth {
                    go += &format!(" depth {d}");
                }
                if let Some(n) = limits.nodes {
                    go += &format!(" nodes {n}");
                }
                if let Some(t) = limits.time {
                    go += &format!(" movetime {}", t.as_millis().max(1));
                }
                e.send(&go)?;
            }
            Protocol::Xboard => {
                if limits.nodes.is_some() {
                    return Err(format!(
                        "{}: an xboard engine cannot be limited by nodes; use a time or a depth",
                        e.name
                    ));
                }
                if !e.setboard {
                    return Err(format!(
                        "{}: the engine does not declare `feature setboard=1`, so it cannot be \
                         given a position",
                        e.name
                    ));
                }
                for line in ["new", "force", "post"] {
                    e.send(line)?;
                }
                e.send(&format!("setboard {fen}"))?;
                if let Some(d) = limits.depth {
                    e.send(&format!("sd {d}"))?;
                }
                if let Some(t) = limits.time {
                    // Whole seconds where they are whole: older engines read `st` as an integer.
                    let secs = t.as_secs_f64();
                    if secs.fract() == 0.0 {
                        e.send(&format!("st {}", t.as_secs()))?;
                    } else {
                        e.send(&format!("st {secs}"))?;
                    }
                }
                e.ready()?;
                e.send("go")?;
            }
        }
        let t0 = Instant::now();
        let patience = limits.time.map_or(PROBE_UNTIMED, |t| t + PROBE_GRACE);
        let mut answer = e.answer(t0 + patience)?;
        if answer == Answer::Late {
            // Past its limit and then some: ask for the move now (UCI `stop`, xboard `?`).
            e.send(if e.protocol == Protocol::Uci {
                "stop"
            } else {
                "?"
            })?;
            answer = e.answer(Instant::now() + HANDSHAKE)?;
        }
        let time = t0.elapsed();
        let (best, depth) = match answer {
            Answer::Move(text, thought) => {
                let mv = read_move(pos, &text)
                    .map_err(|err| format!("{}: an illegal move {text} in {fen}: {err}", e.name))?;
                (Some(pos.format_move(mv)), thought.depth)
            }
            Answer::Resign => (None, None),
            Answer::Late => {
                return Err(format!(
                    "{}: no move in {fen} even when told to move",
                    e.name
                ))
            }
        };
        if e.protocol == Protocol::Xboard {
            // It played its move on its own board: out of the game before the next position.
            e.send("force")?;
        }
        Ok(Choice { best, depth, time })
    }
}

/// How a game ended, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// As PGN writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(side: Side) -> GameResult {
        match side {
            Side::First => GameResult::WhiteWins,
            Side::Second => GameResult::BlackWins,
        }
    }
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The result.
    pub result: GameResult,
    /// Why it ended, in words (PGN `Termination` comment).
    pub reason: String,
    /// The game as PGN.
    pub pgn: String,
}

/// Games longer than this are drawn (no engine pair shuffles this long without a fifty-move or
/// repetition draw unless something is wrong).
const MAX_PLIES: usize = 600;

/// Plays one game: `white` and `black` from `opening`, each on its own control of `tcs`.
fn play_game(
    engines: [&mut Engine; 2],
    opening: &Opening,
    tcs: [TimeControl; 2],
    round: usize,
    date: &str,
) -> Result<Played, String> {
    let [white, black] = engines;
    let start = opening.start.clone();
    for e in [&*white, &*black] {
        // Another start reaches an xboard engine by `setboard`, if it has it; a Chess960 one
        // would also need `variant fischerandom`, which no engine here declares.
        let other_start = start.to_text() != duel_chess::START_FEN;
        if e.protocol == Protocol::Xboard && other_start && (!e.setboard || start.is_chess960()) {
            return Err(format!(
                "{}: an xboard engine {} cannot start from {}",
                e.name,
                if start.is_chess960() {
                    "(Chess960 is not spoken over xboard here)"
                } else {
                    "without the setboard feature"
                },
                start.to_text()
            ));
        }
    }
    white.new_game(tcs[0], &start)?;
    black.new_game(tcs[1], &start)?;
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for m in &opening.moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
        pos.play(mv);
        moves.push(mv);
    }
    let mut notes: Vec<String> = vec![String::new(); moves.len()];
    let mut clocks = [tcs[0].base, tcs[1].base];
    let names = [white.name.clone(), black.name.clone()];
    let (result, reason) = loop {
        if let Some(o) = pos.outcome() {
            let mover = pos.side_to_move();
            break match o {
                Outcome::Loss => (GameResult::win_for(mover.other()), "checkmate".to_string()),
                Outcome::Win => (GameResult::win_for(mover), "win".to_string()),
                Outcome::Draw => (GameResult::Draw, draw_reason(&pos)),
            };
        }
        if moves.len() >= MAX_PLIES {
            break (GameResult::Draw, format!("{MAX_PLIES} plies"));
        }
        let side = pos.side_to_move();
        let engine = if side == Side::First {
            &mut *white
        } else {
            &mut *black
        };
        let uci_moves: Vec<String> = {
            let mut p = start.clone();
            moves
                .iter()
                .map(|&m| {
                    let t = p.format_move(m);
                    p.play(m);
                    t
                })
                .collect()
        };
        let me = side as usize;
        let t0 = Instant::now();
        let answer = engine.think(&start, &uci_moves, clocks, tcs, t0 + clocks[me])?;
        let used = t0.elapsed();
        let text = match answer {
            Answer::Move(text, thought) if used <= clocks[me] => {
                notes.push(thought.note(used));
                text
            }
            Answer::Resign => {
                break (
                    GameResult::win_for(side.other()),
                    format!("{} resigned", names[me]),
                )
            }
            Answer::Move(..) | Answer::Late => {
                engine.interrupt();
                break (
                    GameResult::win_for(side.other()),
                    format!("{} lost on time", names[me]),
                );
            }
        };
        clocks[me] = clocks[me] - used + tcs[me].increment;
        match read_move(&pos, &text) {
            Ok(mv) => {
                pos.play(mv);
                moves.push(mv);
            }
            Err(e) => {
                break (
                    GameResult::win_for(side.other()),
                    format!("{} played an illegal move: {e}", names[me]),
                );
            }
        }
    };
    let round = round.to_string();
    let [white_tc, black_tc] = tcs.map(|tc| tc.pgn());
    let mut tags = vec![
        ("Event", "duel match"),
        ("Site", "?"),
        ("Date", date),
        ("Round", round.as_str()),
        ("White", names[0].as_str()),
        ("Black", names[1].as_str()),
    ];
    // Time odds: PGN's one TimeControl tag cannot say it, so each side gets its own tag, as
    // cutechess-cli writes them.
    if white_tc == black_tc {
        tags.push(("TimeControl", white_tc.as_str()));
    } else {
        tags.push(("WhiteTimeControl", white_tc.as_str()));
        tags.push(("BlackTimeControl", black_tc.as_str()));
    }
    tags.push(("Termination", reason.as_str()));
    let pgn = duel_chess::pgn(
        &start,
        &moves,
        &notes,
        &tags,
        Some(result.pgn()),
        Some(&reason),
    );
    Ok(Played {
        result,
        reason,
        pgn,
    })
}

/// A move as an engine wrote it: UCI text (the promotion letter in either case), or SAN, which
/// xboard engines may send (Phalanx castles as `O-O`).
fn read_move(pos: &Chess, text: &str) -> Result<Move, duel_core::MoveError> {
    pos.parse_move(text)
        .or_else(|e| pos.parse_move(&text.to_ascii_lowercase()).map_err(|_| e))
        .or_else(|e| pos.parse_san(text).map_err(|_| e))
}

fn draw_reason(pos: &Chess) -> String {
    let b = pos.board();
    let mut moves = Vec::new();
    b.generate_moves(|pm| {
        moves.extend(pm);
        true
    });
    if moves.is_empty() {
        "stalemate".into()
    } else if duel_chess::insufficient_material(b) {
        "insufficient material".into()
    } else if b.halfmove_clock() >= 100 {
        "fifty-move rule".into()
    } else {
        "threefold repetition".into()
    }
}

/// Wins, draws and losses of the first engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score fraction.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference and its 95% interval (low, high), from the trinomial variance of
    /// the per-game score; None before any game. A score of 0 or 1 has no finite Elo: the
    /// bound is clamped at ±1000.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        elo_interval(&[
            (f64::from(self.wins), 1.0),
            (f64::from(self.draws), 0.5),
            (f64::from(self.losses), 0.0),
        ])
    }
}

/// The game pairs of a match (one opening, colours swapped) by the first engine's points in
/// the pair: `counts[k]` pairs scored k half-points (0, ½, 1, 1½, 2 points), the
/// "pentanomial" counts fastchess and fishtest print. The two games of a pair share an
/// opening, so their results are correlated: a lopsided opening tends to give each side one
/// win. The variance of pair scores counts that; the per-game variance does not, and overstates
/// the error when openings are lopsided.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs by the first engine's half-points in them, 0 to 4.
    pub counts: [u32; 5],
}

impl Pairs {
    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The Elo difference and its 95% interval from the variance of pair scores; None before
    /// any pair.
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let groups: Vec<(f64, f64)> = (0..5)
            .map(|k| (f64::from(self.counts[k]), k as f64 / 4.0))
            .collect();
        elo_interval(&groups)
    }
}

/// The Elo difference and its 95% interval for samples of scores given as (count, score in
/// 0..=1) groups, from their mean and the sample variance of the mean; None for no samples. A
/// mean of 0 or 1 has no finite Elo: the bounds are clamped at ±1000.
fn elo_interval(groups: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = groups.iter().map(|g| g.0).sum();
    if n == 0.0 {
        return None;
    }
    let mean = groups.iter().map(|(c, x)| c * x).sum::<f64>() / n;
    let var = groups
        .iter()
        .map(|(c, x)| c * (x - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let elo = |p: f64| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        (-400.0 * (1.0 / p - 1.0).log10()).clamp(-1000.0, 1000.0)
    };
    Some((elo(mean), elo(mean - 1.96 * se), elo(mean + 1.96 * se)))
}

/// A match opening: where the game starts (the standard start, or a Chess960 start with
/// Chess960 notation on) and the moves played from there, in that position's notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The start position.
    pub start: Chess,
    /// The moves from it, in UCI text.
    pub moves: Vec<String>,
}

/// A match: `games` games between `first` and `second` at their controls `tcs` (first's,
/// second's: the same for an even match, different for time odds), openings taken in turn from
/// `openings` (each played twice, colours swapped), `concurrency` games at a time, every game
/// reported to `on_game` as it ends, which answers whether to go on. Returns the score by games
/// and by the pairs that both ended.
///
/// Each of the `concurrency` workers runs its own pair of engine processes and takes the next
/// game number when it is free, so game `g` is played from the same opening with the same
/// colours whatever the concurrency; only the order in which games end depends on it. When
/// `on_game` says stop (a test has decided, say), no game is started, the games already
/// running are played out and reported, and the tally counts them all.
pub fn run_match(
    first: &EngineSpec,
    second: &EngineSpec,
    tcs: [TimeControl; 2],
    games: usize,
    openings: &[Opening],
    concurrency: usize,
    mut on_game: impl FnMut(usize, &Played, &Tally) -> bool,
) -> Result<(Tally, Pairs), String> {
    if openings.is_empty() {
        return Err("no openings".into());
    }
    let date = crate::today();
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    // Each report carries a channel for the answer: a worker starts no game before it hears
    // whether the match goes on, so that a decision stops it at once.
    type Report = (usize, Result<Played, String>, mpsc::Sender<bool>);
    let (tx, rx) = mpsc::channel::<Report>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.clamp(1, games.max(1)) {
            let tx = tx.clone();
            let (date, next, halt) = (&date, &next, &halt);
            scope.spawn(move || {
                let pair = Engine::start(first).and_then(|a| Ok((a, Engine::start(second)?)));
                let (go_on, told) = mpsc::channel();
                let (mut a, mut b) = match pair {
                    Ok(pair) => pair,
                    Err(e) => {
                        let _ = tx.send((0, Err(e), go_on));
                        return;
                    }
                };
                while !halt.load(Ordering::Relaxed) {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let opening = &openings[(g / 2) % openings.len()];
                    let (engines, controls) = if g % 2 == 0 {
                        ([&mut a, &mut b], tcs)
                    } else {
                        ([&mut b, &mut a], [tcs[1], tcs[0]])
                    };
                    let played = play_game(engines, opening, controls, g + 1, date);
                    if tx.send((g, played, go_on.clone())).is_err() || told.recv() != Ok(true) {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut tally = Tally::default();
        let mut pairs = Pairs::default();
        // The first engine's half-points in each game whose pair has not ended yet, by pair.
        let mut unpaired = std::collections::HashMap::new();
        let mut error = None;
        for (g, played, go_on) in rx {
            let played = match played {
                Ok(p) => p,
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    error.get_or_insert(e);
                    let _ = go_on.send(false);
                    continue;
                }
            };
            if error.is_some() {
                let _ = go_on.send(false);
                continue;
            }
            // The first engine's half-points: game g has it White when g is even.
            let half_points: usize = match played.result {
                GameResult::Draw => 1,
                GameResult::WhiteWins if g % 2 == 0 => 2,
                GameResult::BlackWins if g % 2 == 1 => 2,
                _ => 0,
            };
            match half_points {
                2 => tally.wins += 1,
                1 => tally.draws += 1,
                _ => tally.losses += 1,
            }
            // Games 2k and 2k + 1 share an opening.
            match unpaired.remove(&(g / 2)) {
                Some(other) => pairs.counts[half_points + other] += 1,
                None => {
                    unpaired.insert(g / 2, half_points);
                }
            }
            if !on_game(g + 1, &played, &tally) {
                halt.store(true, Ordering::Relaxed);
            }
            let _ = go_on.send(!halt.load(Ordering::Relaxed));
        }
        error.map_or(Ok((tally, pairs)), Err)
    })
}

/// Openings for a match: `count` distinct move sequences of `plies` random moves from the
/// start (seeded; with `chess960`, from one of the 960 Chess960 starts, drawn too, in Chess960
/// notation), each move drawn from what `plausible` keeps of the legal moves (all of them if
/// it keeps none), each sequence kept only if `balanced` accepts the position it reaches (a
/// shallow search within a small margin, say), so that no game starts decided.
pub fn random_openings(
    count: usize,
    plies: usize,
    seed: u64,
    chess960: bool,
    mut plausible: impl FnMut(&Chess, &mut Vec<Move>),
    mut balanced: impl FnMut(&Chess) -> bool,
) -> Vec<Opening> {
    let mut rng = duel_core::SplitMix64::new(seed);
    let mut out: Vec<Opening> = Vec::new();
    let mut moves = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 200 {
        tries += 1;
        let start = if chess960 {
            // Scharnagl's numbering, 0..960; 518 is the standard start.
            let n = rng.below(960) as u32;
            let mut s = Chess::from_board(duel_chess::cozy_chess::Board::chess960_startpos(n));
            s.set_chess960(true);
            s
        } else {
            Chess::start()
        };
        let mut pos = start.clone();
        let mut line = Vec::new();
        for _ in 0..plies {
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let all = moves.clone();
            plausible(&pos, &mut moves);
            if moves.is_empty() {
                moves = all;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(pos.format_move(mv));
            pos.play(mv);
        }
        let opening = Opening { start, moves: line };
        if opening.moves.len() == plies
            && pos.outcome().is_none()
            && !out.contains(&opening)
            && balanced(&pos)
        {
            out.push(opening);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh `Thought` after hearing `lines` in `protocol`.
    fn heard(protocol: Protocol, lines: &[&str]) -> Thought {
        let mut t = Thought::default();
        for line in lines {
            t.read(protocol, line);
        }
        t
    }

    /// What an engine said while thinking becomes the move's PGN comment: the last value with
    /// its depth, MultiPV's other lines and `info string` ignored.
    #[test]
    fn thoughts_become_notes() {
        let ms = Duration::from_millis;
        assert_eq!(Thought::default().note(ms(531)), "0.531s");
        let mut t = heard(
            Protocol::Uci,
            &[
                "info depth 11 seldepth 15 score cp 35 nodes 100 pv e2e4",
                "info depth 12 seldepth 16 multipv 1 score cp -7 upperbound nodes 900 pv e2e4",
                "info depth 12 multipv 2 score cp -50 nodes 950 pv d2d4",
                "info string depth 30 score cp 999",
                "info depth 13",
                "info currmove e2e4 currmovenumber 1",
            ],
        );
        assert_eq!(t.note(ms(1200)), "-0.07/12 1.200s");
        t.read(Protocol::Uci, "info depth 20 score mate -3 pv e1e2");
        assert_eq!(t.note(ms(5)), "-M3/20 0.005s");
        t.read(Protocol::Uci, "info depth 21 score mate 2 pv e1e2");
        assert_eq!(t.note(ms(5)), "+M2/21 0.005s");
        // Whatever number an engine prints, the note is written without a panic.
        t.read(Protocol::Uci, "info depth 1 score mate -2147483648");
        assert_eq!(t.note(ms(5)), "-M2147483648/1 0.005s");
        let x = heard(
            Protocol::Xboard,
            &[
                "9 -12 37 12345 e2e4 e7e5",
                "10. 48 81 42345 d2d4",
                "Hint: e2e4",
                "tellusererror something",
            ],
        );
        assert_eq!(x.note(ms(810)), "+0.48/10 0.810s");
    }

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.pgn(), "10+0.1");
        assert_eq!(TimeControl::parse("60").unwrap().increment, Duration::ZERO);
        for bad in ["x", "10+y", "-1", "0+1", "1e9"] {
            let e = TimeControl::parse(bad).unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }

    /// Elo figures checked by hand: 75% is +190.8 Elo; an even score is 0 with a symmetric
    /// interval; the interval narrows as games add up.
    #[test]
    fn elo_from_a_tally() {
        let t = Tally {
            wins: 50,
            draws: 0,
            losses: 0,
        };
        assert_eq!(t.elo().unwrap().0, 1000.0);
        let t = Tally {
            wins: 60,
            draws: 30,
            losses: 10,
        };
        let (e, lo, hi) = t.elo().unwrap();
        assert!((e - 190.85).abs() < 0.05, "{e}");
        assert!(lo < e && e < hi);
        let even = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let (e, lo, hi) = even.elo().unwrap();
        assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6);
        let more = Tally {
            wins: 300,
            draws: 400,
            losses: 300,
        };
        let (_, lo2, hi2) = more.elo().unwrap();
        assert!(hi2 - lo2 < (hi - lo) / 3.0);
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn elo_from_pairs() {
        // Forty pairs: ten lost ½–1½, twenty split 1–1, ten won 1½–½. Mean ½, pair scores
        // ¼, ½, ¾: variance (10 + 10) · (¼)² / 40 = 1/32, so the half-width is
        // 1.96 · √(1/32 / 40) = 0.0548 of the score, about 38 Elo either way.
        let p = Pairs {
            counts: [0, 10, 20, 10, 0],
        };
        assert_eq!(p.pairs(), 40);
        let (e, lo, hi) = p.elo().unwrap();
        assert!(e.abs() < 1e-9 && (lo + hi).abs() < 1e-6, "{e} {lo} {hi}");
        assert!((hi - 38.2).abs() < 0.1, "{hi}");
        // If each even pair was a win and a loss, the eighty games are 30 wins, 20 draws and
        // 30 losses, with a per-game variance of 3/16: an interval of about ±66 Elo. The pairs
        // see that each lopsided opening gave both engines a win.
        let t = Tally {
            wins: 30,
            draws: 20,
            losses: 30,
        };
        assert!(t.elo().unwrap().2 > hi);
        assert_eq!(Pairs::default().elo(), None);
    }

    #[test]
    fn openings_are_distinct_legal_and_reproducible() {
        let a = random_openings(20, 6, 7, false, |_, _| {}, |_| true);
        assert_eq!(a.len(), 20);
        assert_eq!(a, random_openings(20, 6, 7, false, |_, _| {}, |_| true));
        // Kept to pawn moves, every opening move is a pawn's.
        let pawns = |pos: &Chess, moves: &mut Vec<Move>| {
            moves.retain(|m| {
                pos.board().piece_on(m.from) == Some(duel_chess::cozy_chess::Piece::Pawn)
            })
        };
        for opening in random_openings(5, 4, 1, false, pawns, |_| true) {
            let mut pos = Chess::start();
            for m in &opening.moves {
                let mv = pos.parse_move(m).unwrap();
                assert_eq!(
                    pos.board().piece_on(mv.from),
                    Some(duel_chess::cozy_chess::Piece::Pawn)
                );
                pos.play(mv);
            }
        }
        for opening in &a {
            assert_eq!(opening.start, Chess::start());
            let mut pos = Chess::start();
            for m in &opening.moves {
                let mv = pos.parse_move(m).unwrap();
                pos.play(mv);
            }
        }
        let mut sorted: Vec<&Vec<String>> = a.iter().map(|o| &o.moves).collect();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
    }

    /// Chess960 openings start from Chess960 starts (several of them, by the seed), in
    /// Chess960 notation, and their moves are legal from there.
    #[test]
    fn chess960_openings_start_anywhere() {
        let a = random_openings(20, 4, 9, true, |_, _| {}, |_| true);
        assert_eq!(a.len(), 20);
        assert_eq!(a, random_openings(20, 4, 9, true, |_, _| {}, |_| true));
        let mut starts: Vec<String> = a.iter().map(|o| o.start.to_text()).collect();
        starts.sort();
        starts.dedup();
        assert!(starts.len() >= 15, "{starts:?}");
        for opening in &a {
            let mut pos = opening.start.clone();
            assert!(pos.is_chess960());
            // Pawns on the second and seventh ranks, pieces behind them, mirrored.
            let text = pos.to_text();
            let rows: Vec<&str> = text.split(' ').next().unwrap().split('/').collect();
            assert_eq!((rows[1], rows[6]), ("pppppppp", "PPPPPPPP"));
            assert_eq!(rows[0].to_ascii_uppercase(), rows[7]);
            for m in &opening.moves {
                let mv = pos.parse_move(m).unwrap();
                pos.play(mv);
            }
        }
    }
}
