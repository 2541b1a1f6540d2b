//! The loop of the UCI family: one loop for UCI and the protocols made from it (UCCI), which
//! differ only in their words. Each protocol is a [`Dialect`], a value the loop reads: how its
//! lines read into the loop's requests, how what the loop says is written, the name an option
//! goes by, the words a check option takes, and how moves count ranks. The loop names no
//! protocol, and the protocols' modules (`crate::uci`, `crate::ucci`) describe their dialects
//! and import no other.
//!
//! The loop works on a [`Session`], so it knows no game: chess is what GUIs load UCI for, and
//! the same loop serves any game whose moves and positions are text (`d`, `go perft` and
//! `bench` included). Its options are the table of [`options`].
//!
//! Threads: one reads the input ([`crate::io::lines`]); the loop handles the lines in order;
//! `go` (and `go perft`, `bench`) moves the session to a worker thread ([`search`]), which
//! sends the `info` lines and the `bestmove` and hands the session back. While the worker runs,
//! `stop`, `ponderhit`, `isready`, `debug`, `position` and `quit` are handled at once, and every
//! command that needs the session (`go`, `setoption`, `ucinewgame`, `d`, `eval`, `bench`) is
//! refused at once with an `info string`, whatever ends the search: waiting for it would leave
//! the engine deaf to `isready` and `stop` until then, for good after a bare `go`. `position` is
//! kept and applied when the search ends, as GUIs send it before the `go` that follows a
//! ponder miss.
//!
//! Time: with a clock, [`duel_engine::timeman::budget`] gives a soft limit (no iteration starts
//! after it) and a hard one (the search stops there). Pondering has neither until `ponderhit`;
//! from then the time since `go` counts, as it does in Stockfish, so a long ponder makes the
//! move come sooner, never later.

mod dialect;
mod options;
mod search;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use duel_engine::{open, EngineError, Session};
use duel_protocol::uci::shift_ranks;

pub(crate) use dialect::{Dialect, ReadError, Request, Said};
/// The loop's language: UCI's typed commands and replies, which every dialect reads its lines
/// into and writes its replies from.
pub(crate) use duel_protocol::uci::{
    Command, Go, Info, OptionKind, ParseError, Position, Reply, Score, Start,
};
#[cfg(test)]
pub(crate) use options::table;
pub(crate) use options::{squeeze, Spec};

use crate::io::{lines, output, send, Out};
use search::Running;

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopOptions {
    /// The engine's name, as `id name` tells the GUI.
    pub name: String,
    /// The game (its canonical name, see [`duel_engine::game_name`]).
    pub game: &'static str,
}

impl Default for LoopOptions {
    fn default() -> Self {
        LoopOptions {
            name: format!("duel {}", env!("CARGO_PKG_VERSION")),
            game: "chess",
        }
    }
}

/// Sends what the loop says, in `dialect`'s words.
fn say(out: &Out, dialect: &Dialect, said: impl Into<Said>) {
    for line in (dialect.write)(said.into()) {
        send(out, line);
    }
}

/// How much higher `dialect`'s moves number ranks than the game's notation.
fn rank_offset(dialect: &Dialect, session: &dyn Session) -> i32 {
    match dialect.shifts_ranks {
        true => i32::from(session.uci_rank_offset()),
        false => 0,
    }
}

/// The loop's state.
struct Loop {
    opts: LoopOptions,
    dialect: &'static Dialect,
    out: Out,
    /// The session, here while no search runs.
    session: Option<Box<dyn Session>>,
    running: Option<Running>,
    /// A `position` received while a search ran, applied once the session is back.
    pending: Option<Position>,
    /// Why the last `position` was refused, until one is accepted: `go` then answers the
    /// protocol's null move rather than search the position before it.
    refused: Option<String>,
    overhead: Duration,
    debug: bool,
    searches: Arc<AtomicU64>,
    /// The net file `EvalFile` named, for the evaluator `net` (None: the built-in net).
    eval_file: Option<PathBuf>,
    /// The game's switches turned on (`UCI_Chess960`), for every session the loop opens.
    switches: Vec<&'static str>,
    /// Moves the searches leave out, until the next `position` (as sent: checked against
    /// the position when they come, or at `go` when a search ran then).
    banned: Vec<String>,
    /// The unit of `go`'s times.
    time_unit: Duration,
}

impl Loop {
    fn new(opts: LoopOptions, out: Out, dialect: &'static Dialect) -> Result<Self, EngineError> {
        let session = open(opts.game, None)?;
        Ok(Loop {
            opts,
            dialect,
            out,
            session: Some(session),
            running: None,
            pending: None,
            refused: None,
            overhead: Duration::from_millis(options::OVERHEAD_DEFAULT as u64),
            debug: false,
            searches: Arc::new(AtomicU64::new(0)),
            eval_file: None,
            switches: Vec::new(),
            banned: Vec::new(),
            time_unit: Duration::from_millis(1),
        })
    }

    fn error(&self, message: impl std::fmt::Display) {
        self.say(Reply::InfoString(format!("error: {message}")));
    }

    /// Says `said` in the loop's dialect.
    fn say(&self, said: impl Into<Said>) {
        say(&self.out, self.dialect, said);
    }

    fn debug(&self, message: impl std::fmt::Display) {
        if self.debug {
            self.say(Reply::InfoString(message.to_string()));
        }
    }

    /// Whether a search runs that only `stop` (or `ponderhit`) can end.
    fn endless(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.control.endless())
    }

    /// Ends the running search (stopping it first when `interrupt`) and takes the session back,
    /// with any pending position applied.
    fn finish(&mut self, interrupt: bool) {
        if let Some(r) = self.running.take() {
            if interrupt {
                // The search clears the session's flag when it starts: set it until the worker
                // is done, so a `stop` sent just after `go` is not lost.
                while !r.handle.is_finished() {
                    r.control.halt();
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            match r.handle.join() {
                Ok(session) => self.session = Some(session),
                Err(_) => {
                    self.error("the search thread failed; the engine was reset");
                    match open(self.opts.game, None) {
                        Ok(s) => self.session = Some(self.switched(s)),
                        Err(e) => self.error(e),
                    }
                }
            }
        }
        if let Some(p) = self.pending.take() {
            self.set_position(&p);
        }
    }

    /// Takes the session back from a worker that has answered; one still working keeps it.
    fn reclaim(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.control.answered()) {
            self.finish(false);
        }
    }

    /// The session, if no work is under way; else None, with the refusal said at once.
    fn session(&mut self, command: &str) -> Option<&mut Box<dyn Session>> {
        self.reclaim();
        if let Some(r) = &self.running {
            let what = r.what;
            self.error(format!(
                "'{command}' ignored: {what} is running; send stop first"
            ));
            return None;
        }
        self.session.as_mut()
    }

    fn set_position(&mut self, p: &Position) {
        let Some(session) = self.session.as_mut() else {
            self.pending = Some(p.clone());
            return;
        };
        let text = match &p.start {
            Start::StartPos => "",
            Start::Fen(f) => f.as_str(),
        };
        let by = -rank_offset(self.dialect, session.as_ref());
        let shifted: Vec<String> = p.moves.iter().map(|m| shift_ranks(m, by)).collect();
        let moves: Vec<&str> = shifted.iter().map(String::as_str).collect();
        match session.set_position(text, &moves) {
            Ok(()) => self.refused = None,
            Err(e) => {
                // The GUI meant another position than the session holds: until it sends one
                // that is accepted, nothing is searched (a move for the old position would be
                // played in the new one, or be illegal there).
                self.error(format!(
                    "position refused ({e}); go answers no move until a position is accepted"
                ));
                self.refused = Some(e.to_string());
            }
        }
    }

    /// Handles one request; false ends the session.
    fn handle(&mut self, request: Request) -> bool {
        match request {
            Request::Command(cmd) => return self.command(cmd),
            Request::Ban(moves) => self.ban(moves),
            Request::Probe(p) => self.probe(&p),
            Request::TimeUnit(unit) => self.time_unit = unit,
            Request::Nothing => {}
        }
        true
    }

    /// Handles one command; false ends the session.
    fn command(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => {
                self.say(Reply::IdName(self.opts.name.clone()));
                self.say(Reply::IdAuthor("the duel developers".into()));
                self.announce_options();
                self.say(Reply::UciOk);
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say(Reply::ReadyOk),
            Command::Register => {}
            Command::Stop => {
                self.reclaim();
                if self.running.is_none() {
                    self.say(Said::NothingToStop);
                }
                self.finish(true);
            }
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.finish(true);
                self.say(Said::Bye);
                return false;
            }
            Command::Position(p) => {
                self.banned.clear();
                // After the `bestmove`, the search is over: take the session back at once, so
                // the position is checked (and refused, if it must be) as it would be with no
                // search before it, not kept to be replaced unseen by the next one.
                self.reclaim();
                if self.running.is_some() {
                    self.pending = Some(p);
                } else {
                    self.set_position(&p);
                }
            }
            Command::UciNewGame => {
                if let Some(s) = self.session("ucinewgame") {
                    s.new_game();
                }
            }
            Command::SetOption { name, value } => {
                if self.session("setoption").is_some() {
                    self.set_option(&name, value.as_deref());
                }
            }
            Command::Go(go) => self.go(go),
            Command::Bench(args) => self.bench(&args),
            Command::Display => {
                let out = Arc::clone(&self.out);
                if let Some(s) = self.session("d") {
                    let text = format!("{}\nFen: {}", s.diagram().trim_end(), s.position());
                    send(&out, text);
                }
            }
            Command::Eval => {
                let out = Arc::clone(&self.out);
                if let Some(s) = self.session("eval") {
                    let side = s.side_name(s.side_to_move());
                    let text = format!(
                        "Static evaluation: {} ({} evaluator, from {side}'s side)",
                        s.static_eval(),
                        s.evaluator()
                    );
                    send(&out, text);
                }
            }
        }
        true
    }

    /// Bans `moves` from the searches until the next `position`. Moves the position does not
    /// have are named and dropped at once, as `searchmoves` drops them: a ban that matches no
    /// move would otherwise be lost without a word. While a search runs, the position may yet
    /// change (a `position` is kept until it ends), so the moves are checked at the next `go`.
    fn ban(&mut self, moves: Vec<String>) {
        self.reclaim();
        let session = match (&self.running, &self.session) {
            (None, Some(session)) => session,
            _ => {
                self.banned = moves;
                return;
            }
        };
        let mut kept = Vec::new();
        for m in moves {
            match session.parse_search_move(&m) {
                Ok(_) => kept.push(m),
                Err(e) => self.error(format!("banmoves: '{m}' dropped ({e})")),
            }
        }
        self.banned = kept;
    }

    /// Says what the transposition table holds for the position `p`.
    fn probe(&mut self, p: &Position) {
        let Some(session) = self.session("probe") else {
            return;
        };
        let text = match &p.start {
            Start::StartPos => "",
            Start::Fen(f) => f.as_str(),
        };
        let moves: Vec<&str> = p.moves.iter().map(String::as_str).collect();
        match session.probe(text, &moves) {
            Ok(found) => self.say(Said::Table(found)),
            Err(e) => self.error(format!("probe refused ({e})")),
        }
    }
}

/// Runs the loop in `dialect` on `input` and `output` until `quit` or the end of the input.
pub(crate) fn run(
    input: impl Read + Send + 'static,
    output_stream: impl Write + Send + 'static,
    opts: LoopOptions,
    dialect: &'static Dialect,
) -> Result<(), EngineError> {
    let out = output(output_stream);
    let mut state = Loop::new(opts, Arc::clone(&out), dialect)?;
    for line in lines(input) {
        match (dialect.read)(&line) {
            Ok(request) => {
                if !state.handle(request) {
                    return Ok(());
                }
            }
            Err(ReadError::Parse(ParseError::Empty)) => {}
            Err(e) => {
                state.error(&e);
                // A `position` that cannot be read still says the GUI has moved on from the
                // position the session holds.
                if line.split_whitespace().next() == Some("position") {
                    state.refused = Some(e.to_string());
                    state.pending = None;
                }
            }
        }
    }
    // End of input: a search that ends by itself finishes its answer; one that only `stop`
    // ends (infinite, pondering, or a bare `go`) is stopped, since no `stop` can come any more.
    let endless = state.endless() || state.running.as_ref().is_some_and(|r| !r.control.bounded);
    state.finish(endless);
    Ok(())
}
