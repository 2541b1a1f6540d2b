//! The NBoard protocol loop for Othello: typed commands from [`duel_protocol::nboard`] in, typed
//! replies out, with the search on its own thread so that `ping` interrupts it.
//!
//! Threads: one reads the input and hands lines over a channel; the loop handles them in order;
//! `go`, `hint` and `analyze` run on a worker thread. No command waits for the worker to end by
//! itself, since the GUI sends `set game` and `ping` whenever its user clicks:
//! - `ping` and `quit` stop the work under way (its answer goes out first, and the GUI ignores
//!   answers sent before the `pong`);
//! - `set game` and `move` stop it too, as it works on a position the GUI no longer shows;
//! - `go`, `hint` and `analyze` stop it and start the new request;
//! - `nboard`, `set depth` and `set contempt` are answered or applied at once, the depth and
//!   contempt from the next request on; so is `learn` without a book;
//! - with a book (`--book`), `learn` stops the work under way and searches the game's new
//!   positions on the worker, then answers `learned`.
//!
//! The book ([`BookChoice`], [`duel_othello::book`]): `go` in one of its positions plays its
//! best move at once, and `hint` shows its moves as `book` lines before searching the rest.
//!
//! Everything runs on one [`Session`] of Othello with the pattern evaluator, kept from request
//! to request with its tables: positions with few empty squares are solved exactly by the
//! game's solver ([`Session::solve_near_end`], the endgame solver is fast there), the rest
//! searched to the depth NBoard sets. The session's stop flag ends either.
//!
//! Time ([`Pace`]): NBoard plays its engines by depth, and so does `go` by default. With a
//! time per move (`--time`) or a game clock (`--tc`), `go` searches by iterative deepening
//! until [`duel_engine::timeman`]'s soft limit (scaled by how the search goes, [`Trend`](duel_engine::timeman::Trend)) or its
//! hard one. The solve near the end then starts as far from the end as the move's time
//! allows ([`duel_othello::solve_reach`] of the soft limit, or of half a fixed time; at
//! least `--solve-empties`) and stops at three quarters of the hard limit, leaving the rest
//! to a search. One empty square further out than the exact solve, the solver proves only
//! who wins ([`OUTCOME_EXTRA`]), and a proven win or draw is played at once. `set depth` then sets the depth of `hint` and `analyze` only (they
//! have no clock), and says so. The game NBoard sends may carry the clock (`TI`, `TB`, `TW`)
//! and the time of each move (`B[F5//1.23]`, `move F5//1.23`; see [`duel_othello::ggf`]):
//! under `--tc` its clock replaces the option's, and under a depth or a time per move it only
//! guards, as a hard limit, so that a timed game is never lost on time. The time left is the
//! clock's time, plus its increment for each of the engine's moves so far, minus what they
//! took: the time the game gives for each, or else what the engine itself measured for the
//! moves it chose. Each move also costs the pipes and the GUI something
//! ([`NboardOptions::overhead`], or more if the GUI's times say so): that is kept back for
//! every move still to come where the increment does not pay for it, so that at `2+0.02` on
//! a loaded machine the clock is not spent before the end.
//!
//! The loop is here; the opening book (choosing it, reading it, `learn`) in `book`, and how
//! an evaluation thinks (the clock, the solve near the end, the search) in `think`.

mod book;
mod think;

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use duel_core::solve::SolveGoal;
pub use duel_core::RecordClock;
use duel_core::{Game, MoveError};
use duel_engine::{open, EngineError, SearchConfig, Session};
use duel_othello::book::{Book, EXACT_DEPTH};
use duel_othello::ggf::parse_seconds;
use duel_othello::{read_ggf, GgfGame, Move, Othello};
use duel_protocol::nboard::{parse, Command, Reply};

pub use book::{book_leaf, BookChoice, BookError, LEARN_MIN_EMPTIES};
use book::{lock, open_book};
use think::{Job, OwnTimes, Think};

use crate::io::{lines, output, send, Out};

/// How `go` spends its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pace {
    /// To the depth `set depth` sets (the options' default depth until it does).
    #[default]
    Depth,
    /// This long for every move (`--time`).
    MoveTime(Duration),
    /// A game clock (`--tc`), unless the game NBoard sends has one of its own.
    Clock(RecordClock),
}

/// Positions with at most this many empty squares are solved exactly by default: 20 to 30 ms
/// at 18 (FFO #22–#23), where NTest at depth 8 solves from 17. Against NTest at depth 8 it
/// scored 26.2% where 14 scored 20.5% (docs/BENCHMARKS.md, "Othello: Multi-ProbCut").
pub const SOLVE_EMPTIES: u32 = 18;

/// Win/loss/draw solving reaches this many empty squares beyond the exact solve: proving only
/// the winner took 26% fewer nodes than the exact value on FFO #20–#39 (7.6 times fewer on
/// #37, the same on draws, where both prove 0), about one square's worth at 2.5 times the cost
/// per square. NTest and Edax also solve win/loss/draw before solving exactly.
pub const OUTCOME_EXTRA: u32 = 1;

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NboardOptions {
    /// The engine's name, as `set myname` tells the GUI.
    pub name: String,
    /// Positions with at most this many empty squares are solved exactly.
    pub solve_empties: u32,
    /// Transposition table size for the midgame search.
    pub tt_mb: usize,
    /// Midgame depth until the GUI sets one.
    pub default_depth: u32,
    /// How `go` spends its time.
    pub pace: Pace,
    /// Kept back from the clock on every move for the pipes and the GUI (UCI's Move
    /// Overhead).
    pub overhead: Duration,
    /// The midgame search's Multi-ProbCut confidence, as Edax names its levels
    /// ([`SELECTIVITY_LEVELS`]); 100 searches without it.
    pub selectivity: u32,
    /// Threads for the midgame search (Lazy SMP) and the endgame solver.
    pub threads: usize,
    /// The opening book `go` plays from and `hint` shows, and `learn` adds games to.
    pub book: BookChoice,
}

/// Edax's selectivity levels: the confidence in percent, and the ProbCut threshold it means
/// in hundredths of the measured sigma (`SearchConfig::probcut`; 0 is off).
pub const SELECTIVITY_LEVELS: [(u32, i32); 6] = [
    (73, 110),
    (87, 150),
    (95, 200),
    (98, 260),
    (99, 330),
    (100, 0),
];

/// The default level: 87%, Othello's search profile (docs/BENCHMARKS.md, "Othello:
/// Multi-ProbCut": +182 Elo against none at equal nodes).
pub const SELECTIVITY: u32 = 87;

/// The default of [`NboardOptions::overhead`]: the arena measured about 10 ms a move of pipes
/// and scheduling over UCI (docs/BENCHMARKS.md), and NBoard sends the whole game each move.
pub const OVERHEAD: Duration = Duration::from_millis(20);

impl Default for NboardOptions {
    fn default() -> Self {
        NboardOptions {
            name: "duel".into(),
            solve_empties: SOLVE_EMPTIES,
            tt_mb: 16,
            default_depth: 10,
            pace: Pace::Depth,
            overhead: OVERHEAD,
            selectivity: SELECTIVITY,
            threads: 1,
            book: BookChoice::None,
        }
    }
}

/// Why the loop cannot start.
#[derive(Debug, thiserror::Error)]
pub enum NboardError {
    /// Not one of Edax's selectivity levels (`duel nboard --selectivity`).
    #[error("selectivity {0}%: the levels are 73, 87, 95, 98, 99 and 100")]
    Selectivity(u32),
    /// The opening book cannot be had (`duel nboard --book`).
    #[error(transparent)]
    Book(#[from] BookError),
    /// The session refused the options (a table the machine cannot give).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// An Othello session with the pattern evaluator and a table of `opts.tt_mb`, whose searches
/// search: the loop solves with its own reach (`solve_empties`).
fn open_session(opts: &NboardOptions) -> Result<Box<dyn Session>, NboardError> {
    let mut session = open(Othello::NAME, Some("patterns"))?;
    let probcut = SELECTIVITY_LEVELS
        .iter()
        .find(|l| l.0 == opts.selectivity)
        .ok_or(NboardError::Selectivity(opts.selectivity))?
        .1;
    let mut config = SearchConfig {
        tt_mb: opts.tt_mb,
        threads: opts.threads.max(1),
        ..session.config().clone()
    };
    config.profile.probcut = probcut;
    session.set_config(config)?;
    session.set_quick_solve(false);
    if opts.solve_empties > 0 {
        // The solver's table (48 MiB, tens of milliseconds to have) is had now, not on the
        // first position near the end, where a timed game has the least time to spare.
        let one_empty = format!("-OX{} X", "X".repeat(61));
        session
            .set_position(&one_empty, &[])
            .expect("an Othello position");
        session.solve_near_end(1, SolveGoal::Exact, None);
    }
    Ok(session)
}

/// A move of a `set game` that cannot be played where it comes.
#[derive(Debug, thiserror::Error)]
#[error("move {index} of the game: {reason}")]
struct GameMoveError {
    /// Its number in the game, from 1.
    index: usize,
    reason: MoveError,
}

/// The loop's state.
struct Nboard {
    opts: NboardOptions,
    out: Out,
    /// The game: start, moves, their times, and the clocks when the GUI sent them.
    game: GgfGame,
    pos: Othello,
    depth: u32,
    own: Arc<Mutex<OwnTimes>>,
    /// The session, here while no worker runs.
    session: Option<Box<dyn Session>>,
    worker: Option<JoinHandle<Box<dyn Session>>>,
    /// The session's stop flag.
    stop: Arc<AtomicBool>,
    /// The opening book, shared with the worker (`learn` adds to it there).
    book: Option<Arc<Mutex<Book>>>,
    /// What to tell the GUI about the book once it has said hello.
    book_status: Option<String>,
    /// Why the last `set game` or `move` was refused, until a game is accepted: the game
    /// held is then not the GUI's, and nothing is searched in it.
    refused: Option<String>,
}

impl Nboard {
    fn new(opts: NboardOptions, out: Out) -> Result<Self, NboardError> {
        let session = open_session(&opts)?;
        let (book, book_status) = match open_book(&opts.book)? {
            Some((book, status)) => (Some(Arc::new(Mutex::new(book))), Some(status)),
            None => (None, None),
        };
        Ok(Nboard {
            book,
            book_status,
            depth: opts.default_depth,
            opts,
            out,
            game: GgfGame::new(Othello::start(), Vec::new()),
            pos: Othello::start(),
            refused: None,
            own: Arc::default(),
            stop: session.stop_flag(),
            session: Some(session),
            worker: None,
        })
    }

    fn error(&self, message: impl std::fmt::Display) {
        eprintln!("duel nboard: {message}");
        send(&self.out, Reply::Status(format!("error: {message}")));
    }

    /// Waits for the worker, stopping it first if `interrupt`.
    fn finish_worker(&mut self, interrupt: bool) {
        if let Some(w) = self.worker.take() {
            // Set until the worker ends: a search it starts clears the flag, so one set just
            // before that would be lost.
            while interrupt && !w.is_finished() {
                self.stop.store(true, Ordering::Relaxed);
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            match w.join() {
                Ok(session) => self.session = Some(session),
                Err(_) => {
                    // The worker panicked: a new session keeps the engine usable. The table's
                    // size was had once, and its memory is free again.
                    self.error("the search thread failed; its tables were reset");
                    match open_session(&self.opts) {
                        Ok(fresh) => {
                            self.stop = fresh.stop_flag();
                            self.session = Some(fresh);
                        }
                        Err(e) => self.error(e),
                    }
                }
            }
        }
    }

    /// Starts `job` on the worker thread with the session, framed by the status lines NBoard
    /// shows while the engine works ("duel is thinking", then the status the job ends with:
    /// what it did, or cleared when it returns None).
    fn spawn(
        &mut self,
        doing: &str,
        pos: Othello,
        job: impl FnOnce(&mut dyn Session, &AtomicBool, &Job) -> Option<String> + Send + 'static,
    ) {
        let mut session = self
            .session
            .take()
            .expect("no worker runs, so the session is here");
        // A search clears the flag when it starts, but the solver and the loops between
        // searches look at it too: clear it here, before anything runs.
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let ctx = Job {
            pos,
            depth: self.depth,
            think: self.think(),
            solve_empties: self.opts.solve_empties,
            out: Arc::clone(&self.out),
            start: Instant::now(),
        };
        let status = format!("{} is {doing}", self.opts.name);
        self.worker = Some(std::thread::spawn(move || {
            send(&ctx.out, Reply::Status(status));
            let last = job(session.as_mut(), &stop, &ctx);
            send(&ctx.out, Reply::Status(last.unwrap_or_default()));
            session
        }));
    }

    fn set_position(&mut self, game: GgfGame) -> Result<(), GameMoveError> {
        let mut pos = game.start.clone();
        for (i, &mv) in game.moves.iter().enumerate() {
            pos.parse_move(&mv.to_string())
                .map_err(|reason| GameMoveError {
                    index: i + 1,
                    reason,
                })?;
            pos.play(mv);
        }
        // The engine's own times stay for the moves this game shares with the last one: the
        // GUI sends the whole game again after each move, and a new game or a takeback
        // shares less.
        let shared = match game.start == self.game.start {
            true => (game.moves.iter())
                .zip(&self.game.moves)
                .take_while(|(a, b)| a == b)
                .count(),
            false => 0,
        };
        self.own_times().retain(|&ply, _| ply <= shared);
        self.game = game;
        self.pos = pos;
        self.refused = None;
        Ok(())
    }

    fn own_times(&self) -> std::sync::MutexGuard<'_, OwnTimes> {
        self.own.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Handles one command; false ends the session.
    fn handle(&mut self, cmd: Command) -> bool {
        // A worker that has finished is joined whatever comes; one still working is stopped
        // by the commands that replace its request or its position (see the module's notes).
        let replaces = matches!(
            cmd,
            Command::Ping(_)
                | Command::Quit
                | Command::SetGame(_)
                | Command::Move { .. }
                | Command::Go
                | Command::Hint(_)
                | Command::Analyze
        ) || (cmd == Command::Learn && self.book.is_some());
        if replaces || self.worker.as_ref().is_some_and(|w| w.is_finished()) {
            self.finish_worker(true);
        }
        match cmd {
            Command::Ping(n) => send(&self.out, Reply::Pong(n)),
            Command::Quit => return false,
            Command::Nboard(v) => {
                if v != 2 {
                    self.error(format!(
                        "protocol version {v} asked for; this engine speaks version 2"
                    ));
                }
                send(&self.out, Reply::MyName(self.opts.name.clone()));
                if let Some(status) = self.book_status.take() {
                    send(&self.out, Reply::Status(status));
                }
            }
            Command::SetDepth(d) => {
                self.depth = d;
                if self.opts.pace != Pace::Depth {
                    send(
                        &self.out,
                        Reply::Status(format!(
                            "depth {d} for hint and analyze; go is timed by the command line"
                        )),
                    );
                }
            }
            Command::SetContempt(c) => {
                // Said, not hidden: the search scores a draw as 0 whatever the contempt.
                if c != 0 {
                    send(
                        &self.out,
                        Reply::Status(format!("contempt {c} ignored: draws score 0")),
                    );
                }
            }
            Command::SetGame(ggf) => match read_ggf(&ggf) {
                Ok(game) => {
                    for what in &game.ignored {
                        self.error(format!("set game: {what}"));
                    }
                    if let Err(e) = self.set_position(game) {
                        self.refuse(format!("set game refused: {e}"));
                    }
                }
                Err(e) => self.refuse(format!("set game refused: {e}")),
            },
            Command::Move { mv, time } => match self.pos.parse_move(&mv) {
                Ok(mv) => {
                    let time = time.and_then(|t| {
                        parse_seconds(&t)
                            .map_err(|e| self.error(format!("move: time ignored: {e}")))
                            .ok()
                    });
                    self.pos.play(mv);
                    self.game.moves.push(mv);
                    self.game.times.push(time);
                }
                Err(e) => self.refuse(format!("move refused: {e}")),
            },
            Command::Go => self.go(),
            Command::Hint(n) => self.hint(n as usize),
            Command::Analyze => self.analyze(),
            Command::Learn => self.learn(),
        }
        true
    }

    /// Says why a game or move was refused, and holds every search until a game is accepted.
    fn refuse(&mut self, why: String) {
        self.error(format!(
            "{why}; nothing is searched until a game is accepted"
        ));
        self.refused = Some(why);
    }

    /// Whether `command` must wait for a game: said as an error if so.
    fn no_game(&self, command: &str) -> bool {
        if let Some(why) = &self.refused {
            self.error(format!("{command}: no position to search (last: {why})"));
        }
        self.refused.is_some()
    }

    fn go(&mut self) {
        if self.no_game("go") {
            return;
        }
        if self.pos.outcome().is_some() {
            self.error("go: the game is over");
            return;
        }
        let ply = self.game.moves.len();
        let own = Arc::clone(&self.own);
        let book = self.book.clone();
        self.spawn("thinking", self.pos.clone(), move |session, stop, job| {
            // A position of the book is answered from it at once, as NTest and Edax do.
            let mut moves = Vec::new();
            job.pos.generate_moves(&mut moves);
            // One legal move (a pass included): play it at once. Stopped before the first
            // iteration ended: any legal move is better than none.
            let first = moves[0].to_string();
            // A position of the book is answered from it at once, as NTest and Edax do.
            let from_book = book.as_ref().and_then(|b| lock(b).best(&job.pos));
            let (eval, mv) = match (from_book, moves.len()) {
                (_, 1) => (0.0, first),
                (Some(b), _) => (f64::from(b.value), b.mv.to_string()),
                _ => match job.evaluate(session, &job.pos, job.think, true, stop) {
                    Some((eval, pv, ..)) => (eval, pv.into_iter().next().unwrap_or(first)),
                    None => (0.0, first),
                },
            };
            let took = job.start.elapsed();
            if let Ok(m) = job.pos.parse_move(&mv) {
                let mut own = own.lock().unwrap_or_else(|e| e.into_inner());
                own.insert(ply, (m, took));
            }
            let seconds = took.as_secs_f64();
            send(&job.out, Reply::Best { mv, eval, seconds });
            None
        });
    }

    fn hint(&mut self, n: usize) {
        if self.no_game("hint") {
            return;
        }
        if self.pos.outcome().is_some() {
            self.error("hint: the game is over");
            return;
        }
        let book = self.book.clone();
        self.spawn("thinking", self.pos.clone(), move |session, stop, job| {
            let mut moves = Vec::new();
            job.pos.generate_moves(&mut moves);
            // The book's moves first, as `book` lines; the rest searched, up to `n` in all.
            let known = book
                .as_ref()
                .map_or(Vec::new(), |b| lock(b).moves(&job.pos));
            for b in known.iter().take(n) {
                let depth = match b.depth {
                    EXACT_DEPTH => "100%".to_string(),
                    d => d.to_string(),
                };
                send(
                    &job.out,
                    Reply::Book {
                        pv: b.line.iter().map(Move::to_string).collect(),
                        eval: f64::from(b.value),
                        games: 0,
                        depth,
                    },
                );
            }
            let n = n.saturating_sub(known.len());
            moves.retain(|mv| known.iter().all(|b| b.mv != *mv));
            if n == 0 {
                return None;
            }
            let mut lines = Vec::new();
            for mv in moves {
                let mut child = job.pos.clone();
                child.play(mv);
                let value = if child.outcome().is_some() {
                    Some((-f64::from(child.final_score()), Vec::new(), 0))
                } else {
                    let depth = job.depth.saturating_sub(1).max(1);
                    job.evaluate(session, &child, Think::Depth(depth, None), false, stop)
                };
                let Some((eval, pv, d)) = value else { break };
                let mut line = vec![mv.to_string()];
                line.extend(pv);
                // The move itself is one more ply.
                lines.push((-eval, line, d + 1));
            }
            // Best first; equal values keep the move order, so the output is reproducible.
            lines.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (eval, line, d) in lines.into_iter().take(n) {
                send(
                    &job.out,
                    Reply::Search {
                        pv: line.concat(),
                        eval,
                        depth: d.to_string(),
                    },
                );
            }
            None
        });
    }

    fn analyze(&mut self) {
        if self.no_game("analyze") {
            return;
        }
        let moves = self.game.moves.clone();
        self.spawn(
            "analysing",
            self.game.start.clone(),
            move |session, stop, job| {
                // From the end of the game back to its start, as a player reviews a game.
                for k in (0..=moves.len()).rev() {
                    let mut pos = job.pos.clone();
                    for &mv in &moves[..k] {
                        pos.play(mv);
                    }
                    let eval = if pos.outcome().is_some() {
                        f64::from(pos.final_score())
                    } else {
                        match job.evaluate(
                            session,
                            &pos,
                            Think::Depth(job.depth, None),
                            false,
                            stop,
                        ) {
                            Some((eval, ..)) => eval,
                            None => break,
                        }
                    };
                    send(
                        &job.out,
                        Reply::Analysis {
                            move_number: k,
                            eval,
                        },
                    );
                }
                None
            },
        );
    }
}

/// Runs the NBoard protocol on `input` and `output` until `quit` or the end of the input; an
/// error when the table the options ask for cannot be had.
pub fn run(
    input: impl Read + Send + 'static,
    output_stream: impl Write + Send + 'static,
    opts: NboardOptions,
) -> Result<(), NboardError> {
    let out = output(output_stream);
    let mut nboard = Nboard::new(opts, out)?;
    for line in lines(input) {
        match parse(&line) {
            Ok(cmd) => {
                if !nboard.handle(cmd) {
                    return Ok(());
                }
            }
            Err(duel_protocol::nboard::ParseError::Empty) => {}
            Err(e) => nboard.error(e),
        }
    }
    // End of input: let a running search finish its answer, as a GUI closing the pipe expects.
    nboard.finish_worker(false);
    Ok(())
}
