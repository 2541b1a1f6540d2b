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
//! - `nboard`, `set depth`, `set contempt` and `learn` are answered or applied at once, the
//!   depth and contempt from the next request on.
//!
//! Everything runs on one [`Session`] of Othello with the pattern evaluator, kept from request
//! to request with its tables: positions with few empty squares are solved exactly by the
//! game's solver ([`Session::solve_near_end`], the endgame solver is fast there), the rest
//! searched to the depth NBoard sets. The session's stop flag ends either.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use duel_core::{Game, MoveError, Score};
use duel_othello::{parse_ggf, Move, Othello};
use duel_protocol::nboard::{parse, Command, Reply};

use super::io::{lines, output, send, Out};
use crate::{open, EngineError, Limits, SearchConfig, Session};

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
}

impl Default for NboardOptions {
    fn default() -> Self {
        NboardOptions {
            name: "duel".into(),
            solve_empties: crate::OTHELLO_SOLVE_EMPTIES,
            tt_mb: 16,
            default_depth: 10,
        }
    }
}

/// The pattern evaluator's units per disc: it predicts the final disc difference in 1/16ths.
const UNITS_PER_DISC: f64 = 16.0;

/// The value of a searched position in discs, from the side to move. Proven wins and losses
/// without a disc count are shown as the most a game can be won or lost by.
fn discs(score: Score) -> f64 {
    if score.is_win() {
        64.0
    } else if score.is_loss() {
        -64.0
    } else {
        f64::from(score.0) / UNITS_PER_DISC
    }
}

/// An Othello session with the pattern evaluator and a table of `opts.tt_mb`, whose searches
/// search: the loop solves with its own reach (`solve_empties`).
fn open_session(opts: &NboardOptions) -> Result<Box<dyn Session>, EngineError> {
    let mut session = open(Othello::NAME, Some("pattern"))?;
    let config = SearchConfig {
        tt_mb: opts.tt_mb,
        ..session.config().clone()
    };
    session.set_config(config)?;
    session.set_quick_solve(false);
    Ok(session)
}

/// What a worker job is given: the position, the depth, and where to answer.
struct Job {
    pos: Othello,
    depth: u32,
    solve_empties: u32,
    out: Out,
    start: Instant,
}

impl Job {
    /// One evaluation of `pos` on `session`: exact within the solve threshold, a depth-limited
    /// search beyond it. Returns (value in discs, principal variation, plies searched), or None
    /// once stopped. An exact solve counts as a search to the end: as many plies as empty
    /// squares, and its line is its best move.
    fn evaluate(
        &self,
        session: &mut dyn Session,
        pos: &Othello,
        depth: u32,
        stop: &AtomicBool,
    ) -> Option<(f64, Vec<String>, u32)> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        session
            .set_position(&pos.to_text(), &[])
            .expect("an Othello position reads back from its text");
        // `--solve-empties` goes up to 24, where a solve takes a minute: `ping` must end it,
        // through the session's stop flag.
        if let Some(solved) = session.solve_near_end(self.solve_empties) {
            let s = solved.ok()?;
            let margin = s.margin.expect("the solver's report has its disc count");
            return Some((f64::from(margin), s.pv, pos.empties().count_ones()));
        }
        let mut report = session
            .search(&Limits::depth(depth), &mut |it| {
                send(
                    &self.out,
                    Reply::NodeStats {
                        nodes: it.stats.nodes,
                        seconds: self.start.elapsed().as_secs_f64(),
                    },
                );
            })
            .expect("a game in progress, searched at least a ply deep");
        if stop.load(Ordering::Relaxed) && report.depth < depth {
            return None;
        }
        report.pv.truncate(depth as usize);
        Some((discs(report.value), report.pv, report.depth))
    }
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
    start: Othello,
    moves: Vec<Move>,
    pos: Othello,
    depth: u32,
    /// The session, here while no worker runs.
    session: Option<Box<dyn Session>>,
    worker: Option<JoinHandle<Box<dyn Session>>>,
    /// The session's stop flag.
    stop: Arc<AtomicBool>,
}

impl Nboard {
    fn new(opts: NboardOptions, out: Out) -> Result<Self, EngineError> {
        let session = open_session(&opts)?;
        Ok(Nboard {
            depth: opts.default_depth,
            opts,
            out,
            start: Othello::start(),
            moves: Vec::new(),
            pos: Othello::start(),
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
    /// shows while the engine works ("duel is thinking", then a cleared status).
    fn spawn(
        &mut self,
        doing: &str,
        pos: Othello,
        job: impl FnOnce(&mut dyn Session, &AtomicBool, &Job) + Send + 'static,
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
            solve_empties: self.opts.solve_empties,
            out: Arc::clone(&self.out),
            start: Instant::now(),
        };
        let status = format!("{} is {doing}", self.opts.name);
        self.worker = Some(std::thread::spawn(move || {
            send(&ctx.out, Reply::Status(status));
            job(session.as_mut(), &stop, &ctx);
            send(&ctx.out, Reply::Status(String::new()));
            session
        }));
    }

    fn set_position(&mut self, start: Othello, moves: Vec<Move>) -> Result<(), GameMoveError> {
        let mut pos = start.clone();
        for (i, &mv) in moves.iter().enumerate() {
            pos.parse_move(&mv.to_string())
                .map_err(|reason| GameMoveError {
                    index: i + 1,
                    reason,
                })?;
            pos.play(mv);
        }
        self.start = start;
        self.moves = moves;
        self.pos = pos;
        Ok(())
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
                | Command::Move(_)
                | Command::Go
                | Command::Hint(_)
                | Command::Analyze
        );
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
            }
            Command::SetDepth(d) => self.depth = d,
            Command::SetContempt(c) => {
                // Said, not hidden: the search scores a draw as 0 whatever the contempt.
                if c != 0 {
                    send(
                        &self.out,
                        Reply::Status(format!("contempt {c} ignored: draws score 0")),
                    );
                }
            }
            Command::SetGame(ggf) => match parse_ggf(&ggf) {
                Ok((start, moves)) => {
                    if let Err(e) = self.set_position(start, moves) {
                        self.error(format!("set game refused: {e}"));
                    }
                }
                Err(e) => self.error(format!("set game refused: {e}")),
            },
            Command::Move(text) => match self.pos.parse_move(&text) {
                Ok(mv) => {
                    self.pos.play(mv);
                    self.moves.push(mv);
                }
                Err(e) => self.error(format!("move refused: {e}")),
            },
            Command::Go => self.go(),
            Command::Hint(n) => self.hint(n as usize),
            Command::Analyze => self.analyze(),
            Command::Learn => {
                // No opening book yet: nothing to store, but the GUI waits for the answer.
                send(&self.out, Reply::Learned);
            }
        }
        true
    }

    fn go(&mut self) {
        if self.pos.outcome().is_some() {
            self.error("go: the game is over");
            return;
        }
        self.spawn("thinking", self.pos.clone(), |session, stop, job| {
            let mut moves = Vec::new();
            job.pos.generate_moves(&mut moves);
            // One legal move (a pass included): play it at once. Stopped before the first
            // iteration ended: any legal move is better than none.
            let first = moves[0].to_string();
            let (eval, mv) = match moves.len() {
                1 => (0.0, first),
                _ => match job.evaluate(session, &job.pos, job.depth, stop) {
                    Some((eval, pv, ..)) => (eval, pv.into_iter().next().unwrap_or(first)),
                    None => (0.0, first),
                },
            };
            let seconds = job.start.elapsed().as_secs_f64();
            send(&job.out, Reply::Best { mv, eval, seconds });
        });
    }

    fn hint(&mut self, n: usize) {
        if self.pos.outcome().is_some() {
            self.error("hint: the game is over");
            return;
        }
        self.spawn("thinking", self.pos.clone(), move |session, stop, job| {
            let mut moves = Vec::new();
            job.pos.generate_moves(&mut moves);
            let mut lines = Vec::new();
            for mv in moves {
                let mut child = job.pos.clone();
                child.play(mv);
                let value = if child.outcome().is_some() {
                    Some((-f64::from(child.final_score()), Vec::new(), 0))
                } else {
                    job.evaluate(session, &child, job.depth.saturating_sub(1).max(1), stop)
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
        });
    }

    fn analyze(&mut self) {
        let moves = self.moves.clone();
        self.spawn(
            "analysing",
            self.start.clone(),
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
                        match job.evaluate(session, &pos, job.depth, stop) {
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
) -> Result<(), EngineError> {
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
