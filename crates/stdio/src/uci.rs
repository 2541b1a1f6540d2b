//! The UCI protocol loop: typed commands from [`duel_protocol::uci`] in, typed replies out, the
//! search on its own thread so that `stop`, `ponderhit` and `isready` are answered while it runs.
//!
//! The loop works on a [`Session`], so it knows no game: chess is what GUIs load it for, and the
//! same loop serves any game whose moves and positions are text (`d`, `go perft` and `bench`
//! included).
//!
//! Threads: one reads the input ([`crate::io::lines`]); the loop handles the lines in order;
//! `go` (and `go perft`, `bench`) moves the session to a worker thread, which sends the `info`
//! lines and the `bestmove` and hands the session back. While the worker runs, `stop`,
//! `ponderhit`, `isready`, `debug`, `position` and `quit` are handled at once, and every command
//! that needs the session (`go`, `setoption`, `ucinewgame`, `d`, `eval`, `bench`) is refused at
//! once with an `info string`, whatever ends the search: waiting for it would leave the engine
//! deaf to `isready` and `stop` until then, for good after a bare `go`. `position` is kept and
//! applied when the search ends, as GUIs send it before the `go` that follows a ponder miss.
//!
//! Time: with a clock, [`duel_engine::timeman::budget`] gives a soft limit (no iteration starts after
//! it) and a hard one (the search stops there). Pondering has neither until `ponderhit`; from
//! then the time since `go` counts, as it does in Stockfish, so a long ponder makes the move
//! come sooner, never later.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use duel_core::Side;
use duel_protocol::uci::{
    parse, shift_ranks, Command, Go, Info, OptionKind, ParseError, Position, Reply,
    Score as UciScore, Start,
};

use crate::io::{lines, output, send, Out};
use duel_engine::timeman::{budget, Budget, Clock, Trend};
use duel_engine::{evaluators, open, open_with, EngineError, Limits, Score, SearchReport, Session};

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciOptions {
    /// The engine's name, as `id name` tells the GUI.
    pub name: String,
    /// The game (its canonical name, see [`duel_engine::game_name`]).
    pub game: &'static str,
}

impl Default for UciOptions {
    fn default() -> Self {
        UciOptions {
            name: format!("duel {}", env!("CARGO_PKG_VERSION")),
            game: "chess",
        }
    }
}

/// Option limits. The table's bound is the facade's; a size within it that the machine cannot
/// give is refused when set, and the old table kept.
const HASH_DEFAULT: i64 = 16;
const HASH_MAX: i64 = duel_engine::HASH_MAX_MB as i64;
const THREADS_MAX: usize = 64;
const MULTIPV_MAX: i64 = 256;
const OVERHEAD_DEFAULT: i64 = 10;
const OVERHEAD_MAX: i64 = 5_000;

/// The most search threads worth running ([`duel_engine::threads_max`]), at most [`THREADS_MAX`].
fn threads_max() -> usize {
    duel_engine::threads_max().min(THREADS_MAX)
}

/// The score as UCI writes it: centipawns, or mate in moves (negative when mated).
fn uci_score(v: Score) -> UciScore {
    match v.plies_to_end() {
        Some(p) if v.is_win() => UciScore::Mate((p + 1) / 2),
        Some(p) => UciScore::Mate(-(p / 2)),
        None => UciScore::Cp(v.0),
    }
}

/// The `info` lines of one iteration: one per principal variation.
fn info_lines(r: &SearchReport) -> Vec<Info> {
    let single = [(r.value, r.pv.clone())];
    let lines = if r.lines.is_empty() {
        &single[..]
    } else {
        &r.lines[..]
    };
    let time = r.time.as_millis() as u64;
    lines
        .iter()
        .enumerate()
        .map(|(i, (value, pv))| Info {
            depth: Some(r.depth),
            seldepth: Some(r.stats.seldepth.max(r.depth)),
            multipv: Some(i as u32 + 1),
            score: Some(uci_score(*value)),
            bound: None,
            nodes: Some(r.stats.nodes),
            nps: Some(r.nps()),
            hashfull: Some(r.hashfull),
            time: Some(time),
            currmove: None,
            currmovenumber: None,
            pv: pv.clone(),
        })
        .collect()
}

/// What the loop and the worker thread of one `go` share.
struct Control {
    /// The session's stop flag.
    stop: Arc<AtomicBool>,
    /// Set by `stop` and `quit` (and by the limits after `ponderhit`): unlike the session's flag,
    /// which each search clears when it starts, it stays set, so the worker's wait for it cannot
    /// miss it.
    stopped: AtomicBool,
    /// Pondering, until `ponderhit`.
    pondering: AtomicBool,
    /// `go infinite`: the `bestmove` waits for `stop` even when the search ends by itself.
    infinite: bool,
    /// When `go` arrived: the clock's reference, for the limits and for `ponderhit`.
    start: Instant,
    /// The time budget, when a clock was sent.
    budget: Option<Budget>,
    /// `go mate N`: stop once a mate in N moves or fewer is proven.
    mate: Option<u32>,
    /// Number of this search, so that a timer left from a finished search stops nothing.
    id: u64,
    /// Set just before the `bestmove` goes out (or a perft or bench ends): the worker has
    /// nothing left to do but hand the session back.
    answered: AtomicBool,
    /// The search has a limit of its own (depth, nodes, time or clock): at the end of the input
    /// it is let finish, where one without any is stopped, having no other end.
    bounded: bool,
    /// The last iteration's best move and value, and how many iterations the move has
    /// stayed the best: what the soft limit is scaled by ([`duel_engine::timeman::soft_scale`]).
    trend: Mutex<Trend>,
}

impl Control {
    fn halt(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The soft limit scaled by the trend so far ([`Trend::soft_limit`]).
    fn soft_limit(&self, b: &Budget) -> Duration {
        let t = self.trend.lock().unwrap_or_else(|e| e.into_inner());
        t.soft_limit(b)
    }

    /// After each iteration: stop when the soft limit has passed or the mate asked for is found.
    fn after_iteration(&self, r: &SearchReport) {
        let pondering = self.pondering.load(Ordering::Relaxed);
        if let Some(b) = self.budget {
            self.trend
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .observe(&r.best, r.value);
            if !pondering && self.start.elapsed() >= self.soft_limit(&b) {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        if let (Some(n), UciScore::Mate(m)) = (self.mate, uci_score(r.value)) {
            if m > 0 && m as u32 <= n && !self.infinite && !pondering {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether UCI forbids answering yet: infinite mode before `stop`, pondering before
    /// `ponderhit` or `stop`.
    fn must_wait(&self) -> bool {
        (self.infinite || self.pondering.load(Ordering::Relaxed))
            && !self.stopped.load(Ordering::Relaxed)
    }
}

impl Control {
    /// The control of a job that is no search: no clock, no pondering, nothing to wait for.
    fn job(stop: Arc<AtomicBool>, id: u64) -> Self {
        Control {
            stop,
            stopped: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: false,
            start: Instant::now(),
            budget: None,
            mate: None,
            id,
            answered: AtomicBool::new(false),
            bounded: true,
            trend: Mutex::new(Trend::default()),
        }
    }
}

/// Work under way on the worker thread.
pub(crate) struct Running {
    handle: JoinHandle<Box<dyn Session>>,
    control: Arc<Control>,
    /// What it is, for the refusals: a search, a perft count or the bench.
    what: &'static str,
}

/// The protocol a loop speaks: UCI, or UCCI (`crate::ucci`), which reads its own lines and
/// has the same loop print its replies in UCCI's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Uci,
    Ucci,
}

/// Sends `reply` as `dialect` writes it.
pub(crate) fn say(out: &Out, dialect: Dialect, reply: Reply) {
    match dialect {
        Dialect::Uci => send(out, reply),
        Dialect::Ucci => {
            for r in crate::ucci::replies(reply) {
                send(out, r);
            }
        }
    }
}

/// How much higher the loop's moves number ranks than the game's notation: UCI's own offset
/// (xiangqi in Fairy-Stockfish's UCI); UCCI writes the game's own ICCS.
fn rank_offset(dialect: Dialect, session: &dyn Session) -> i32 {
    match dialect {
        Dialect::Uci => i32::from(session.uci_rank_offset()),
        Dialect::Ucci => 0,
    }
}

/// The loop's state.
pub(crate) struct Uci {
    opts: UciOptions,
    pub(crate) dialect: Dialect,
    out: Out,
    /// The session, here while no search runs.
    pub(crate) session: Option<Box<dyn Session>>,
    pub(crate) running: Option<Running>,
    /// A `position` received while a search ran, applied once the session is back.
    pending: Option<Position>,
    overhead: Duration,
    debug: bool,
    searches: Arc<AtomicU64>,
    /// The net file `EvalFile` named, for the evaluator `net` (None: the built-in net).
    eval_file: Option<std::path::PathBuf>,
    /// The game's switches turned on (`UCI_Chess960`), for every session the loop opens.
    switches: Vec<&'static str>,
}

/// Why a `setoption` was refused; the message goes to the GUI as an `info string`.
#[derive(Debug, thiserror::Error)]
enum OptionError {
    /// A check option's value is neither `true` nor `false`.
    #[error("option '{name}' takes true or false, not '{value}'")]
    NotCheck { name: String, value: String },
    /// A spin option's value is no integer within its range.
    #[error("option '{name}' takes an integer from {min} to {max}, not '{value}'")]
    NotSpin {
        name: String,
        min: i64,
        max: i64,
        value: String,
    },
    /// The table of the size asked for cannot be had; the old one stays.
    #[error("option 'Hash': {reason}; the table stays at {kept} MiB")]
    Hash { reason: EngineError, kept: usize },
    /// No option of this name.
    #[error("no such option '{0}'")]
    Unknown(String),
    /// The session refused the value (an evaluator, its file, a switch).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A check option's value: `true` or `false` (in any case), else an error naming the option.
fn check_value(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        v => Err(OptionError::NotCheck {
            name: name.to_string(),
            value: v.unwrap_or("").to_string(),
        }),
    }
}

/// `EvalFile`'s default and the value that returns to the built-in net.
const EVAL_FILE_BUILT_IN: &str = "<built-in>";

impl Uci {
    pub(crate) fn new(opts: UciOptions, out: Out, dialect: Dialect) -> Result<Self, EngineError> {
        let session = open(opts.game, None)?;
        Ok(Uci {
            opts,
            dialect,
            out,
            session: Some(session),
            running: None,
            pending: None,
            overhead: Duration::from_millis(OVERHEAD_DEFAULT as u64),
            debug: false,
            searches: Arc::new(AtomicU64::new(0)),
            eval_file: None,
            switches: Vec::new(),
        })
    }

    pub(crate) fn error(&self, message: impl std::fmt::Display) {
        self.say(Reply::InfoString(format!("error: {message}")));
    }

    /// Where the loop writes.
    pub(crate) fn out(&self) -> &Out {
        &self.out
    }

    /// Sends `reply` in the loop's dialect.
    pub(crate) fn say(&self, reply: Reply) {
        say(&self.out, self.dialect, reply);
    }

    fn debug(&self, message: impl std::fmt::Display) {
        if self.debug {
            self.say(Reply::InfoString(message.to_string()));
        }
    }

    /// Whether a search runs that only `stop` (or `ponderhit`) can end.
    pub(crate) fn endless(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.control.infinite || r.control.pondering.load(Ordering::Relaxed))
    }

    /// Ends the running search (stopping it first when `interrupt`) and takes the session back,
    /// with any pending position applied.
    pub(crate) fn finish(&mut self, interrupt: bool) {
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
    pub(crate) fn reclaim(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.control.answered.load(Ordering::Acquire))
        {
            self.finish(false);
        }
    }

    /// The session, if no work is under way; else None, with the refusal said at once.
    pub(crate) fn session(&mut self, command: &str) -> Option<&mut Box<dyn Session>> {
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

    /// [`Uci::session`], taken out for a worker.
    fn take_session(&mut self, command: &str) -> Option<Box<dyn Session>> {
        self.session(command)?;
        self.session.take()
    }

    /// Starts `job` on the worker thread with the session, under `control`.
    fn spawn(
        &mut self,
        session: Box<dyn Session>,
        control: Arc<Control>,
        what: &'static str,
        job: impl FnOnce(&mut Box<dyn Session>, &Control, &Out) + Send + 'static,
    ) {
        let c = Arc::clone(&control);
        let out = Arc::clone(&self.out);
        let mut session = session;
        let handle = std::thread::spawn(move || {
            job(&mut session, &c, &out);
            session
        });
        self.running = Some(Running {
            handle,
            control,
            what,
        });
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
        if let Err(e) = session.set_position(text, &moves) {
            // The position stays as it was: searching one the GUI did not mean is worse.
            self.error(format!(
                "position refused ({e}); the previous position is kept"
            ));
        }
    }

    /// `session` with the switches turned on that this loop has.
    fn switched(&self, mut session: Box<dyn Session>) -> Box<dyn Session> {
        for name in &self.switches {
            // The names came from a session of the same game.
            if let Err(e) = session.set_switch(name, true) {
                self.error(e);
            }
        }
        session
    }

    /// Sets a switch (`UCI_Chess960`) from its option value.
    fn set_switch(&mut self, name: &'static str, value: Option<&str>) -> Result<(), OptionError> {
        let on = check_value(name, value)?;
        if let Some(s) = self.session.as_mut() {
            s.set_switch(name, on)?;
        }
        self.switches.retain(|&s| s != name);
        if on {
            self.switches.push(name);
        }
        Ok(())
    }

    pub(crate) fn options(&self) -> Vec<Reply> {
        let spin = |name: &str, default: i64, min: i64, max: i64| Reply::Option {
            name: name.into(),
            kind: OptionKind::Spin { default, min, max },
        };
        let evals = evaluators(self.opts.game).unwrap_or(&[]);
        let mut options = vec![
            spin("Hash", HASH_DEFAULT, 1, HASH_MAX),
            spin("Threads", 1, 1, threads_max() as i64),
            spin("MultiPV", 1, 1, MULTIPV_MAX),
            spin("Move Overhead", OVERHEAD_DEFAULT, 0, OVERHEAD_MAX),
            Reply::Option {
                name: "Ponder".into(),
                kind: OptionKind::Check { default: false },
            },
            Reply::Option {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
            },
            Reply::Option {
                name: "Evaluator".into(),
                kind: OptionKind::Combo {
                    default: evals.first().unwrap_or(&"").to_string(),
                    vars: evals.iter().map(|e| e.to_string()).collect(),
                },
            },
        ];
        // Fairy-Stockfish's way of choosing the game: any registered one, this loop's first.
        options.push(Reply::Option {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo {
                default: self.opts.game.to_string(),
                vars: duel_engine::games()
                    .iter()
                    .map(|g| g.name.to_string())
                    .collect(),
            },
        });
        let switches = self.session.as_ref().map_or(&[][..], |s| s.switches());
        for name in switches {
            options.push(Reply::Option {
                name: name.to_string(),
                kind: OptionKind::Check { default: false },
            });
        }
        if evals.contains(&"net") {
            options.push(Reply::Option {
                name: "EvalFile".into(),
                kind: OptionKind::String {
                    default: EVAL_FILE_BUILT_IN.into(),
                },
            });
        }
        options
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        // Names match in any case and without their spaces, so that UCCI's names for the same
        // options (`hashsize`, `clearhash`) reach them too.
        let key: String = name
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let spin = |min: i64, max: i64| -> Result<i64, OptionError> {
            let v = value.unwrap_or("").trim();
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(OptionError::NotSpin {
                    name: name.to_string(),
                    min,
                    max,
                    value: v.to_string(),
                }),
            }
        };
        let result: Result<(), OptionError> = match key.as_str() {
            "hash" | "hashsize" => spin(1, HASH_MAX).and_then(|n| {
                self.with_config(|c| c.tt_mb = n as usize)
                    .map_err(|reason| OptionError::Hash {
                        reason,
                        kept: self.hash_mb(),
                    })
            }),
            // Capped rather than refused: a GUI's setting from a larger machine still gets
            // all the cores here, not the single thread a refusal would leave.
            "threads" => {
                let max = threads_max();
                let v = value.unwrap_or("").trim();
                match v.parse::<u64>() {
                    Ok(n) if n >= 1 => {
                        let used = n.min(max as u64) as usize;
                        let set = self.with_config(|c| c.threads = used);
                        if set.is_ok() && (used as u64) < n {
                            self.say(Reply::InfoString(format!(
                                "option 'Threads': {n} is more than the {max} cores this \
                                 engine may use; {used} threads"
                            )));
                        }
                        set.map_err(Into::into)
                    }
                    _ => Err(OptionError::NotSpin {
                        name: name.to_string(),
                        min: 1,
                        max: max as i64,
                        value: v.to_string(),
                    }),
                }
            }
            "multipv" => spin(1, MULTIPV_MAX).and_then(|n| {
                self.with_config(|c| c.multipv = n as usize)
                    .map_err(Into::into)
            }),
            "moveoverhead" => spin(0, OVERHEAD_MAX).map(|n| {
                self.overhead = Duration::from_millis(n as u64);
            }),
            // Only a hint that the GUI may send `go ponder`; nothing to set.
            "ponder" => check_value("Ponder", value).map(|_| ()),
            "clearhash" => {
                if let Some(s) = self.session.as_mut() {
                    s.new_game();
                }
                Ok(())
            }
            "evaluator" => self.set_evaluator(value.unwrap_or("")).map_err(Into::into),
            "uci_variant" => self.set_game(value.unwrap_or("")).map_err(Into::into),
            "evalfile" => self
                .set_eval_file(value.unwrap_or("").trim())
                .map_err(Into::into),
            _ => match self
                .session
                .as_ref()
                .and_then(|s| s.switches().iter().find(|s| s.eq_ignore_ascii_case(name)))
            {
                Some(&switch) => self.set_switch(switch, value),
                None => Err(OptionError::Unknown(name.to_string())),
            },
        };
        if let Err(e) = result {
            self.error(e);
        }
    }

    fn with_config(
        &mut self,
        change: impl FnOnce(&mut duel_engine::SearchConfig),
    ) -> Result<(), EngineError> {
        match self.session.as_mut() {
            Some(s) => {
                let mut c = s.config().clone();
                change(&mut c);
                s.set_config(c)
            }
            None => Ok(()),
        }
    }

    /// The table's size now, in MiB.
    fn hash_mb(&self) -> usize {
        self.session.as_ref().map_or(0, |s| s.config().tt_mb)
    }

    /// Plays another game from now on (`UCI_Variant`), at its start, with its default
    /// evaluator and search profile; the table's size, threads and lines are kept.
    fn set_game(&mut self, name: &str) -> Result<(), EngineError> {
        let game = duel_engine::game_name(name)?;
        if game == self.opts.game {
            return Ok(());
        }
        let mut fresh = open(game, None)?;
        if let Some(old) = self.session.as_ref() {
            let mut c = fresh.config().clone();
            c.tt_mb = old.config().tt_mb;
            c.threads = old.config().threads;
            c.multipv = old.config().multipv;
            fresh.set_config(c)?;
        }
        self.opts.game = game;
        self.switches.clear();
        self.eval_file = None;
        self.session = Some(fresh);
        Ok(())
    }

    /// A new session with another evaluator, keeping the options and the position.
    fn set_evaluator(&mut self, name: &str) -> Result<(), EngineError> {
        let Some(old) = self.session.as_ref() else {
            return Ok(());
        };
        let file = self
            .eval_file
            .as_deref()
            .filter(|_| name.trim().eq_ignore_ascii_case("net"));
        let mut fresh = self.switched(open_with(self.opts.game, Some(name), file)?);
        fresh.set_config(old.config().clone())?;
        fresh.set_position(&old.position(), &[])?;
        self.session = Some(fresh);
        Ok(())
    }

    /// Reads the net file now, so a bad one is named at once and the last good one kept; the
    /// evaluator `net` uses it from here on.
    fn set_eval_file(&mut self, value: &str) -> Result<(), EngineError> {
        let path = match value {
            "" | EVAL_FILE_BUILT_IN | "<empty>" => None,
            v => Some(std::path::PathBuf::from(v)),
        };
        if let Some(p) = &path {
            open_with(self.opts.game, Some("net"), Some(p))?;
        }
        self.eval_file = path;
        match self.session.as_ref().map(|s| s.evaluator()) {
            Some("net") => self.set_evaluator("net"),
            _ => Ok(()),
        }
    }

    /// Handles one command; false ends the session.
    pub(crate) fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => {
                self.say(Reply::IdName(self.opts.name.clone()));
                self.say(Reply::IdAuthor("the duel developers".into()));
                for o in self.options() {
                    self.say(o);
                }
                self.say(Reply::UciOk);
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say(Reply::ReadyOk),
            Command::Register => {}
            Command::Stop => self.finish(true),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.finish(true);
                return false;
            }
            Command::Position(p) => {
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

    fn ponderhit(&mut self) {
        let Some(r) = &self.running else { return };
        let c = Arc::clone(&r.control);
        if !c.pondering.swap(false, Ordering::Relaxed) {
            return;
        }
        let Some(b) = c.budget else { return };
        // The time since `go` counts: past the (scaled) soft limit already, move now.
        let elapsed = c.start.elapsed();
        if elapsed >= c.soft_limit(&b) {
            c.halt();
            return;
        }
        let searches = Arc::clone(&self.searches);
        std::thread::spawn(move || {
            std::thread::sleep(b.hard.saturating_sub(elapsed));
            if searches.load(Ordering::Relaxed) == c.id {
                c.halt();
            }
        });
    }

    fn bench(&mut self, args: &str) {
        if !args.is_empty() {
            self.error(format!(
                "bench takes no arguments ('{args}' ignored): it searches fixed positions to a fixed depth"
            ));
        }
        let Some(session) = self.take_session("bench") else {
            return;
        };
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(Control::job(session.stop_flag(), id));
        self.spawn(session, control, "the bench", |s, c, out| {
            let r = s.bench();
            let mut lines: Vec<String> = r
                .entries
                .iter()
                .map(|e| {
                    format!(
                        "{} nodes {} time {} ms: {}",
                        e.report.best.as_deref().unwrap_or("-"),
                        e.report.stats.nodes,
                        e.report.time.as_millis(),
                        e.position
                    )
                })
                .collect();
            if r.stopped {
                lines.push(
                    Reply::InfoString(format!(
                        "bench stopped after {} position(s): no signature",
                        r.entries.len()
                    ))
                    .to_string(),
                );
            } else {
                lines.push(format!("Total time (ms) : {}", r.time().as_millis()));
                lines.push(format!("Nodes searched  : {}", r.nodes()));
                lines.push(format!("Nodes/second    : {}", r.nps()));
            }
            answer(c, out, &lines);
        });
    }

    fn perft(&mut self, depth: u32) {
        let Some(session) = self.take_session("go perft") else {
            return;
        };
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let control = Arc::new(Control::job(session.stop_flag(), id));
        self.spawn(session, control, "a perft count", move |s, c, out| {
            // A flag left set by an earlier `stop` would end this count at once; a `stop` for
            // this one keeps being set until the worker ends (`finish`), so none is lost.
            c.stop.store(false, Ordering::Relaxed);
            let lines = match s.perft_divide(depth, &c.stop) {
                Some(divide) => {
                    let total: u64 = if depth == 0 {
                        1
                    } else {
                        divide.iter().map(|(_, n)| n).sum()
                    };
                    let mut lines: Vec<String> =
                        divide.iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
                    lines.push(format!("\nNodes searched: {total}"));
                    lines
                }
                None => {
                    vec![Reply::InfoString(format!("perft {depth} stopped: no count")).to_string()]
                }
            };
            answer(c, out, &lines);
        });
    }

    fn go(&mut self, go: Go) {
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let Some(session) = self.take_session("go") else {
            return;
        };
        let first = session.side_to_move() == Side::First;
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            time: None,
        };
        // A limit of nothing still owes the GUI a move, and a move is worth a search.
        if go.depth == Some(0) || go.nodes == Some(0) {
            let what = if go.depth == Some(0) {
                "depth"
            } else {
                "nodes"
            };
            self.say(Reply::InfoString(format!(
                "{what} 0 searches nothing: searching to depth 1"
            )));
            limits.depth = Some(1);
            limits.nodes = None;
        }
        // A move the position does not have is named and dropped, as Stockfish drops it; with
        // none left, every move is searched rather than none.
        let offset = rank_offset(self.dialect, session.as_ref());
        let mut among = Vec::new();
        for m in &go.searchmoves {
            match session.parse_search_move(&shift_ranks(m, -offset)) {
                Ok(mv) => among.push(mv),
                Err(e) => self.error(format!("searchmoves: '{m}' dropped ({e})")),
            }
        }
        if among.is_empty() && !go.searchmoves.is_empty() {
            self.error("searchmoves: no legal move left; searching every move");
        }
        if let Some(t) = go.movetime {
            let t = Duration::from_millis(t.max(0) as u64);
            limits.time = Some(
                t.saturating_sub(self.overhead)
                    .max(Duration::from_millis(1)),
            );
        }
        let mut plan = None;
        if !go.infinite && limits.time.is_none() {
            // The other side's clock alone: this side's time is taken as spent, as Stockfish
            // takes it (a move at once), and said, rather than a search without end.
            let clock = go.clock(first).or_else(|| {
                go.clock(!first).map(|_| {
                    let (has, lacks) = if first {
                        ("btime", "wtime")
                    } else {
                        ("wtime", "btime")
                    };
                    self.error(format!(
                        "'go' gives {has} but not {lacks}, the side to move's clock: \
                         moving as with no time left"
                    ));
                    (0, 0)
                })
            });
            if let Some((left, inc)) = clock {
                let clock = Clock {
                    left: Duration::from_millis(left.max(0) as u64),
                    increment: Duration::from_millis(inc.max(0) as u64),
                    moves_to_go: go.movestogo.filter(|&n| n > 0),
                };
                let mut b = budget(&clock, self.overhead);
                // A forced move needs no thought: one iteration, for a move to ponder on.
                if session.legal_moves().len() == 1 {
                    b.soft = Duration::ZERO;
                }
                self.debug(format!(
                    "time: soft {} ms, hard {} ms",
                    b.soft.as_millis(),
                    b.hard.as_millis()
                ));
                plan = Some(b);
                if !go.ponder {
                    limits.time = Some(b.hard);
                }
            }
        }
        let id = self.searches.fetch_add(1, Ordering::Relaxed) + 1;
        let dialect = self.dialect;
        let bounded = limits != Limits::default() || plan.is_some();
        let control = Arc::new(Control {
            stop: session.stop_flag(),
            stopped: AtomicBool::new(false),
            pondering: AtomicBool::new(go.ponder),
            infinite: go.infinite,
            start: Instant::now(),
            budget: plan,
            mate: go.mate,
            id,
            answered: AtomicBool::new(false),
            bounded: bounded && !go.infinite,
            trend: Mutex::new(Trend::default()),
        });
        self.spawn(session, control, "a search", move |session, c, out| {
            let result = session.search_among(&limits, &among, &mut |r| {
                for mut info in info_lines(r) {
                    info.pv = info.pv.iter().map(|m| shift_ranks(m, offset)).collect();
                    say(out, dialect, Reply::Info(info));
                }
                c.after_iteration(r);
            });
            let (mv, ponder) = match result {
                Ok(r) => (
                    r.best.as_deref().map(|m| shift_ranks(m, offset)),
                    r.pv.get(1).map(|m| shift_ranks(m, offset)),
                ),
                Err(EngineError::GameOver(o)) => {
                    let score = match o {
                        duel_core::Outcome::Draw => UciScore::Cp(0),
                        _ => UciScore::Mate(0),
                    };
                    let info = Info {
                        depth: Some(0),
                        score: Some(score),
                        ..Info::default()
                    };
                    say(out, dialect, Reply::Info(info));
                    (None, None)
                }
                Err(e) => {
                    say(
                        out,
                        dialect,
                        Reply::InfoString(format!("error: go refused ({e})")),
                    );
                    (None, None)
                }
            };
            while c.must_wait() {
                std::thread::sleep(Duration::from_millis(1));
            }
            c.answered.store(true, Ordering::Release);
            say(out, dialect, Reply::BestMove { mv, ponder });
        });
    }
}

/// Sends a job's answer, marked answered first: a GUI that reads the last line and sends its
/// next command must find the session free to take back, as after a `bestmove`.
fn answer(c: &Control, out: &Out, lines: &[String]) {
    c.answered.store(true, Ordering::Release);
    for line in lines {
        send(out, line);
    }
}

/// Runs the UCI protocol on `input` and `output` until `quit` or the end of the input.
pub fn run(
    input: impl Read + Send + 'static,
    output_stream: impl Write + Send + 'static,
    opts: UciOptions,
) -> Result<(), EngineError> {
    let out = output(output_stream);
    let mut uci = Uci::new(opts, Arc::clone(&out), Dialect::Uci)?;
    for line in lines(input) {
        match parse(&line) {
            Ok(cmd) => {
                if !uci.handle(cmd) {
                    return Ok(());
                }
            }
            Err(ParseError::Empty) => {}
            Err(e) => uci.error(e),
        }
    }
    // End of input: a search that ends by itself finishes its answer; one that only `stop`
    // ends (infinite, pondering, or a bare `go`) is stopped, since no `stop` can come any more.
    let endless = uci.endless() || uci.running.as_ref().is_some_and(|r| !r.control.bounded);
    uci.finish(endless);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_uci_units() {
        assert_eq!(uci_score(Score(37)), UciScore::Cp(37));
        assert_eq!(uci_score(Score::win_in(1)), UciScore::Mate(1));
        assert_eq!(uci_score(Score::win_in(3)), UciScore::Mate(2));
        assert_eq!(uci_score(Score::loss_in(2)), UciScore::Mate(-1));
        assert_eq!(uci_score(Score::loss_in(0)), UciScore::Mate(0));
    }
}
