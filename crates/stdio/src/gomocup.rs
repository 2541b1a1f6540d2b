//! The Gomocup (Piskvork) protocol loop for Gomoku: typed commands from
//! [`duel_protocol::gomocup`] in, typed replies out, the search on a thread of its own.
//!
//! The manager is synchronous: after `BEGIN`, `TURN`, `BOARD` or `PLAY` it waits for the
//! brain's move and sends nothing but `END` (or, from some managers, `INFO`) until it has it.
//! So every command waits for a running search to answer first, except `END`, which stops it
//! and ends the session at once, and Yixin Board's `STOP` (Rapfi's too), which stops it so
//! that it answers its move now (one that comes after the move has nothing to stop).
//!
//! - `START n` / `RECTSTART w,h` set the board (5 to 22 a side; other sizes get `ERROR`), `INFO
//!   rule` the rule (Gomocup's 0 freestyle, 1 standard, 4 renju, 8 caro; bit 2, continuous
//!   play, is the manager's business). A rule or size change applies from the next empty board.
//! - `INFO timeout_turn`, `timeout_match`, `time_left` set the time (see [`TimeLimits`]);
//!   `max_memory` caps the transposition table at half of it; other keys are accepted and
//!   ignored. `INFO` is never answered, not even when malformed (the manager reads no answer;
//!   a malformed one gets a `MESSAGE`).
//! - Each search sends one `MESSAGE` line per iteration in Rapfi's layout (depth and
//!   selective depth, value, nodes, nodes per millisecond, time, line), which Piskvork shows
//!   and Yixin Board and pygomo parse, then the move as `x,y`.
//! - Yixin Board's extensions, as Rapfi answers them (see [`duel_protocol::gomocup`]'s
//!   table): `YXBOARD` sets the position without a search; `YXNBEST n` searches `n` lines at
//!   once (the searcher's multi-PV), one `MESSAGE` per line and iteration with `multipv K`
//!   after the depth, and answers and plays the best as after `TURN`; `YXSHOWFORBID` lists
//!   renju's points forbidden to Black, when Black is to move; `YXHASHCLEAR` and
//!   `YXSHOWHASHUSAGE` clear the table and say how full it is; `YXSHOWINFO` names the brain
//!   and the most threads it takes; `YXBLOCK`/`YXBLOCKUNDO`/`YXBLOCKRESET` keep the points
//!   every search leaves out (by searching only the others); `INFO thread_num`, `max_depth`
//!   and `max_node` set the threads and limit each search besides its time.
//! - A command that cannot be carried out (no `START` yet, a stone off the board or on an
//!   occupied point, a forbidden point, a finished game) is answered `ERROR` with the reason;
//!   an unknown command `UNKNOWN`. The loop goes on either way.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use duel_core::{Game, MoveError, Score, Side};
use duel_gomoku::{Cell, Gomoku, Rule, Variant};
use duel_protocol::gomocup::{parse, read_line, Command, Field, Info, Point, Reader, Reply};

use crate::io::{lines_split_by, output, send, Out};
use duel_engine::timeman::{budget, Clock};
use duel_engine::{open, EngineError, Limits, SearchConfig, SearchReport, Session};

/// Settings of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GomocupOptions {
    /// The brain's name, as `ABOUT` tells the manager.
    pub name: String,
    /// The transposition table's size, unless `INFO max_memory` asks for less.
    pub tt_mb: usize,
    /// The evaluator; None: the game's default.
    pub eval: Option<String>,
}

impl Default for GomocupOptions {
    fn default() -> Self {
        GomocupOptions {
            name: "duel".into(),
            tt_mb: 64,
            eval: None,
        }
    }
}

/// Time per move when the manager gives none: Piskvork's own default turn time.
const DEFAULT_TURN: Duration = Duration::from_secs(5);

/// Kept back from each move's time for the pipes and the manager's own reading.
const OVERHEAD: Duration = Duration::from_millis(60);

/// What `INFO` said about time, in the manager's milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeLimits {
    /// `timeout_turn`: the most one move may take (0: move at once). None: not given.
    pub turn: Option<u64>,
    /// `timeout_match`: the whole game's time (0: no limit).
    pub game: Option<u64>,
    /// `time_left`: what is left of the game's time (negative when over).
    pub left: Option<i64>,
}

impl TimeLimits {
    /// The thinking time for a move: (soft, hard). No new iteration starts after the soft
    /// limit; the search stops at the hard one, which keeps within the turn's limit and a safe
    /// part of what is left of the game's time.
    pub fn budget(&self) -> (Duration, Duration) {
        let turn = match self.turn {
            Some(0) => return (Duration::ZERO, Duration::from_millis(5)),
            Some(ms) => Duration::from_millis(ms),
            None => DEFAULT_TURN,
        };
        // A twentieth of the turn as well as the fixed overhead: managers measure the turn
        // from their side of the pipe, with their own scheduling delays.
        let hard_turn = turn
            .saturating_sub(OVERHEAD + turn / 20)
            .max(Duration::from_millis(5));
        let game_limited = self.game.is_some_and(|g| g > 0);
        // An iteration costs a few times the ones before it together: one started after 40%
        // of the turn would rarely end in time, and saves what the game's clock can use later.
        // With no game clock nothing saved carries over: iterations go on to the turn's limit,
        // and an iteration cut short still gives any better move it found (its first move is
        // the last one's best).
        let mut soft = if game_limited {
            hard_turn * 2 / 5
        } else {
            hard_turn
        };
        let mut hard = hard_turn;
        if let (true, Some(left)) = (game_limited, self.left) {
            let clock = Clock {
                left: Duration::from_millis(left.max(0) as u64),
                increment: Duration::ZERO,
                moves_to_go: None,
            };
            let b = budget(&clock, OVERHEAD);
            soft = soft.min(b.soft);
            hard = hard.min(b.hard).max(Duration::from_millis(5));
        }
        (soft.min(hard), hard)
    }
}

/// Why a search cannot start when the session is gone (a failed search thread's session that
/// could not be opened again).
const NO_SESSION: &str = "the engine's search could not be restarted after a failure";

/// The reply to a command, or to nothing.
type Answer = Option<Reply>;

/// The search thread: it gives back the session and the move it answered.
type Worker = JoinHandle<(Box<dyn Session>, Option<Cell>)>;

/// The loop's state.
struct Gomocup {
    opts: GomocupOptions,
    out: Out,
    /// The variant of the next empty board: size from `START`, rule from `INFO rule`.
    next: Variant,
    /// Whether `START` or `RECTSTART` has set a board.
    started: bool,
    pos: Gomoku,
    time: TimeLimits,
    /// The table's size the session has.
    tt_mb: usize,
    /// The session, here while no worker runs.
    session: Option<Box<dyn Session>>,
    worker: Option<Worker>,
    stop: Arc<AtomicBool>,
    /// `INFO max_depth`: the deepest iteration of each search.
    max_depth: Option<u32>,
    /// `INFO max_node`: the most nodes of each search.
    max_nodes: Option<u64>,
    /// Points no search plays (`YXBLOCK`), until `YXBLOCKRESET`.
    blocked: Vec<Point>,
}

/// Why a command cannot be carried out, for its `ERROR` line.
#[derive(Debug, thiserror::Error)]
enum Refused {
    /// No `START` or `RECTSTART` yet.
    #[error("no board yet: START or RECTSTART first")]
    NoBoard,
    /// A point off the board.
    #[error("{point} is off the {width}x{height} board")]
    Off { point: Point, width: u8, height: u8 },
    /// A point the rules refuse (taken, forbidden, the game over).
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A point as the protocol writes it.
fn point(cell: Cell) -> Point {
    Point::new(u32::from(cell.x()), u32::from(cell.y()))
}

/// A move as the session reads it.
fn move_text(cell: Cell) -> String {
    format!("{},{}", cell.x(), cell.y())
}

impl Gomocup {
    fn new(opts: GomocupOptions, out: Out) -> Result<Self, EngineError> {
        let mut session = open(Gomoku::NAME, opts.eval.as_deref())?;
        session.set_config(SearchConfig {
            tt_mb: opts.tt_mb,
            ..session.config().clone()
        })?;
        Ok(Gomocup {
            tt_mb: opts.tt_mb,
            opts,
            out,
            next: Variant::default(),
            started: false,
            pos: Gomoku::start(),
            time: TimeLimits::default(),
            stop: session.stop_flag(),
            session: Some(session),
            worker: None,
            max_depth: None,
            max_nodes: None,
            blocked: Vec::new(),
        })
    }

    fn reply(&self, reply: Reply) {
        send(&self.out, reply);
    }

    /// Waits for the worker to answer (stopping it first if `interrupt`), and plays the move
    /// it answered on the loop's board.
    fn finish_worker(&mut self, interrupt: bool) {
        if let Some(w) = self.worker.take() {
            while interrupt && !w.is_finished() {
                self.stop.store(true, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
            }
            match w.join() {
                Ok((session, played)) => {
                    self.session = Some(session);
                    if let Some(cell) = played {
                        self.pos.play(cell);
                    }
                }
                Err(_) => {
                    self.reply(Reply::Message(
                        "the search thread failed; its tables were reset".into(),
                    ));
                    match open(Gomoku::NAME, self.opts.eval.as_deref()) {
                        Ok(fresh) => {
                            self.stop = fresh.stop_flag();
                            self.session = Some(fresh);
                            self.tt_mb = 0;
                        }
                        Err(e) => self.reply(Reply::Message(e.to_string())),
                    }
                }
            }
        }
    }

    /// A new empty board of the next variant.
    fn new_board(&mut self) {
        self.pos = Gomoku::empty(self.next);
        self.started = true;
    }

    /// The cell at `p` on the board, free to play: why not otherwise.
    fn free_cell(&self, p: Point) -> Result<Cell, Refused> {
        let (width, height) = (self.pos.width(), self.pos.height());
        let cell = u8::try_from(p.x)
            .ok()
            .zip(u8::try_from(p.y).ok())
            .filter(|&(x, y)| x < width && y < height)
            .map(|(x, y)| Cell::new(x, y))
            .ok_or(Refused::Off {
                point: p,
                width,
                height,
            })?;
        self.pos.parse_move(&format!("{},{}", p.x, p.y))?;
        Ok(cell)
    }

    fn need_start(&self) -> Result<(), Refused> {
        if self.started {
            Ok(())
        } else {
            Err(Refused::NoBoard)
        }
    }

    /// Handles one command; false ends the session.
    fn handle(&mut self, cmd: Command) -> bool {
        // END stops a search at once; everything else waits for its answer, as the manager
        // does (see the module's notes).
        let end = cmd == Command::End;
        self.finish_worker(end);
        let answer = match cmd {
            Command::End => return false,
            Command::About => Some(Reply::About(vec![
                ("name".into(), self.opts.name.clone()),
                ("version".into(), env!("CARGO_PKG_VERSION").into()),
                ("author".into(), "the duel authors".into()),
                ("www".into(), env!("CARGO_PKG_REPOSITORY").into()),
            ])),
            Command::Start(n) => self.start(n, n),
            Command::RectStart { width, height } => self.start(width, height),
            Command::Restart => match self.need_start() {
                Ok(()) => {
                    self.new_board();
                    Some(Reply::Ok)
                }
                Err(e) => Some(Reply::Error(e.to_string())),
            },
            Command::Info(info) => {
                self.info(info);
                None
            }
            Command::Begin => self.begin(),
            Command::Turn(p) => self.turn(p),
            Command::Board(stones) => match self.set_board("BOARD", &stones) {
                Ok(()) => self.think(1),
                Err(refused) => Some(refused),
            },
            Command::Takeback(p) => Some(self.takeback(p)),
            Command::Play(p) => self.play(p),
            Command::Swap2Board(stones) => self.swap2(&stones),
            // A STOP after the move (the search ended first) has nothing to stop.
            Command::Stop => None,
            Command::YxBoard(stones) => self.set_board("YXBOARD", &stones).err(),
            Command::YxNBest(n) => match self.need_start() {
                Ok(()) => self.think(n),
                Err(e) => Some(Reply::Error(e.to_string())),
            },
            Command::YxShowForbid => Some(self.forbidden()),
            Command::YxHashClear => Some(self.hash_clear()),
            Command::YxShowHashUsage => Some(self.hash_usage()),
            Command::YxShowInfo => {
                self.reply(Reply::Message(format!(
                    "{} {}",
                    self.opts.name,
                    env!("CARGO_PKG_VERSION")
                )));
                Some(Reply::Message(format!(
                    "INFO MAX_THREAD_NUM {}",
                    duel_engine::threads_max()
                )))
            }
            Command::YxBlock(points) => self.block(&points),
            Command::YxBlockUndo(points) => {
                self.blocked.retain(|b| !points.contains(b));
                None
            }
            Command::YxBlockReset => {
                self.blocked.clear();
                None
            }
        };
        if let Some(reply) = answer {
            self.reply(reply);
        }
        true
    }

    fn start(&mut self, width: u32, height: u32) -> Answer {
        match Variant::new(width, height, self.next.rule) {
            Ok(v) => {
                self.next = v;
                self.new_board();
                Some(Reply::Ok)
            }
            Err(e) => Some(Reply::Error(format!("unsupported size: {e}"))),
        }
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.time.turn = Some(ms),
            Info::TimeoutMatch(ms) => self.time.game = Some(ms),
            Info::TimeLeft(ms) => self.time.left = Some(ms),
            Info::MaxMemory(bytes) => self.max_memory(bytes),
            Info::Rule(n) => match Rule::from_gomocup(n) {
                Some(rule) => {
                    self.next.rule = rule;
                    // On an empty board the new rule applies at once (managers send INFO
                    // rule after START).
                    if self.pos.moves_played().is_empty() {
                        self.pos = Gomoku::empty(self.next);
                    }
                }
                None => self.reply(Reply::Message(format!(
                    "INFO rule {n}: not a rule duel plays (0, 1, 4 or 8, plus 2 for a \
                     continuous game); the rule stays {}",
                    self.next.rule
                ))),
            },
            Info::ThreadNum(n) => self.threads(n),
            Info::MaxDepth(n) => self.max_depth = u32::try_from(n).ok().filter(|&d| d > 0),
            Info::MaxNode(n) => self.max_nodes = u64::try_from(n).ok().filter(|&n| n > 0),
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) | Info::Other { .. } => {}
        }
    }

    /// `INFO thread_num`: the search threads, at least one and at most the cores this
    /// process may use (more would only share them), said in a `MESSAGE` when capped.
    fn threads(&mut self, asked: u32) {
        let most = duel_engine::threads_max();
        let threads = (asked.max(1) as usize).min(most);
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let config = SearchConfig {
            threads,
            ..session.config().clone()
        };
        match session.set_config(config) {
            Ok(()) if threads < asked as usize => self.reply(Reply::Message(format!(
                "INFO thread_num {asked}: {most} threads, the cores this brain may use"
            ))),
            Ok(()) => {}
            Err(e) => self.reply(Reply::Message(format!("INFO thread_num {asked}: {e}"))),
        }
    }

    /// Half of `max_memory` for the table (the rest for the program and its stacks), at most
    /// the size asked for on the command line.
    fn max_memory(&mut self, bytes: u64) {
        let mb = match bytes {
            0 => self.opts.tt_mb,
            b => ((b / 2) >> 20).clamp(1, self.opts.tt_mb as u64) as usize,
        };
        if mb == self.tt_mb {
            return;
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let config = SearchConfig {
            tt_mb: mb,
            ..session.config().clone()
        };
        match session.set_config(config) {
            Ok(()) => self.tt_mb = mb,
            Err(e) => self.reply(Reply::Message(format!("INFO max_memory {bytes}: {e}"))),
        }
    }

    fn begin(&mut self) -> Answer {
        if let Err(e) = self.need_start() {
            return Some(Reply::Error(e.to_string()));
        }
        if !self.pos.moves_played().is_empty() {
            return Some(Reply::Error(
                "BEGIN on a board with stones: RESTART first".into(),
            ));
        }
        self.think(1)
    }

    fn turn(&mut self, p: Point) -> Answer {
        if let Err(e) = self.need_start() {
            return Some(Reply::Error(e.to_string()));
        }
        match self.free_cell(p) {
            Ok(cell) => {
                self.pos.play(cell);
                self.think(1)
            }
            Err(e) => Some(Reply::Error(format!("TURN {p}: {e}"))),
        }
    }

    fn play(&mut self, p: Point) -> Answer {
        if let Err(e) = self.need_start() {
            return Some(Reply::Error(e.to_string()));
        }
        match self.free_cell(p) {
            Ok(cell) => {
                self.pos.play(cell);
                Some(Reply::Move(p))
            }
            Err(e) => Some(Reply::Error(format!("PLAY {p}: {e}"))),
        }
    }

    fn takeback(&mut self, p: Point) -> Reply {
        match self.pos.last_move() {
            Some(last) if point(last) == p => {
                self.pos.undo(last);
                Reply::Ok
            }
            Some(last) => Reply::Error(format!(
                "TAKEBACK {p}: the last stone is at {}",
                point(last)
            )),
            None => Reply::Error(format!("TAKEBACK {p}: the board is empty")),
        }
    }

    /// Sets the position of a `BOARD` or `YXBOARD` block, the brain to move: its stones and
    /// the opponent's, played alternately in the order given (renju managers send them in the
    /// order played). The `ERROR` when the block is no position, naming the command `word`.
    fn set_board(&mut self, word: &str, stones: &[(Point, Field)]) -> Result<(), Reply> {
        self.need_start().map_err(|e| Reply::Error(e.to_string()))?;
        let own: Vec<Point> = own_stones(stones, Field::Own);
        let theirs: Vec<Point> = own_stones(stones, Field::Opponent);
        // The brain moves next: first player with as many stones as the opponent, second
        // with one fewer.
        let (black, white) = if own.len() == theirs.len() {
            (&own, &theirs)
        } else if own.len() + 1 == theirs.len() {
            (&theirs, &own)
        } else {
            return Err(Reply::Error(format!(
                "{word}: {} own stones and {} of the opponent's: the brain, to move, must have \
                 as many or one fewer",
                own.len(),
                theirs.len()
            )));
        };
        if stones.iter().any(|(_, f)| *f == Field::Marked) {
            self.reply(Reply::Message(format!(
                "{word}: marked stones (field 3) ignored: duel plays no continuous game"
            )));
        }
        self.pos = Gomoku::empty(self.next);
        for i in 0..black.len() + white.len() {
            let p = if i % 2 == 0 {
                black[i / 2]
            } else {
                white[i / 2]
            };
            match self.free_cell(p) {
                Ok(cell) => self.pos.play(cell),
                Err(e) => {
                    self.pos = Gomoku::empty(self.next);
                    return Err(Reply::Error(format!("{word}, stone {}: {e}", i + 1)));
                }
            }
            if self.pos.outcome().is_some() && i + 1 < black.len() + white.len() {
                self.pos = Gomoku::empty(self.next);
                return Err(Reply::Error(format!(
                    "{word}: the game ended at stone {} ({p})",
                    i + 1
                )));
            }
        }
        Ok(())
    }

    /// `YXSHOWFORBID`: renju's points Black may not play, when Black is to move (they are
    /// Black's next move's; after it, White's stone may change them), row by row.
    fn forbidden(&self) -> Reply {
        if let Err(e) = self.need_start() {
            return Reply::Error(e.to_string());
        }
        let mut points = Vec::new();
        if self.pos.side_to_move() == Side::First {
            for y in 0..u32::from(self.pos.height()) {
                for x in 0..u32::from(self.pos.width()) {
                    let forbidden = self
                        .pos
                        .cell(x, y)
                        .is_some_and(|c| self.pos.forbidden(c).is_some());
                    if forbidden {
                        points.push(Point::new(x, y));
                    }
                }
            }
        }
        Reply::Forbid(points)
    }

    /// `YXHASHCLEAR`: the table and the history cleared, as for a new game.
    fn hash_clear(&mut self) -> Reply {
        match self.session.as_mut() {
            Some(session) => {
                session.new_game();
                Reply::Message("the transposition table is cleared".into())
            }
            None => Reply::Error(NO_SESSION.into()),
        }
    }

    /// `YXSHOWHASHUSAGE`: how full the table is.
    fn hash_usage(&self) -> Reply {
        match self.session.as_ref() {
            Some(session) => {
                let permille = session.hashfull();
                Reply::Message(format!(
                    "the transposition table is {}.{}% full",
                    permille / 10,
                    permille % 10
                ))
            }
            None => Reply::Error(NO_SESSION.into()),
        }
    }

    /// `YXBLOCK`: the points added to those no search plays; one off the board is named and
    /// left out (it could never be played), the others kept.
    fn block(&mut self, points: &[Point]) -> Answer {
        let (width, height) = (u32::from(self.pos.width()), u32::from(self.pos.height()));
        let mut off = Vec::new();
        for &p in points {
            if !self.started || (p.x < width && p.y < height) {
                if !self.blocked.contains(&p) {
                    self.blocked.push(p);
                }
            } else {
                off.push(p.to_string());
            }
        }
        (!off.is_empty()).then(|| {
            Reply::Error(format!(
                "YXBLOCK: {} off the {width}x{height} board, not blocked",
                off.join(" ")
            ))
        })
    }

    /// The moves a search may play: every legal move but the blocked points (all of them
    /// when none is blocked, or when every one is, said in a `MESSAGE`).
    fn unblocked(&self) -> Vec<String> {
        if self.blocked.is_empty() {
            return Vec::new();
        }
        let mut legal = Vec::new();
        self.pos.generate_moves(&mut legal);
        let allowed: Vec<String> = legal
            .into_iter()
            .filter(|&c| !self.blocked.contains(&point(c)))
            .map(move_text)
            .collect();
        if allowed.is_empty() {
            self.reply(Reply::Message(
                "every legal point is blocked (YXBLOCK): searching them all".into(),
            ));
        }
        allowed
    }

    /// Swap2's choices, by one short search of the position as it stands, White to move:
    /// three stones proposed (the most balanced of a few shapes round the centre), then stay
    /// White and play where White stands at least level, else take Black (`SWAP`).
    fn swap2(&mut self, stones: &[Point]) -> Answer {
        if let Err(e) = self.need_start() {
            return Some(Reply::Error(e.to_string()));
        }
        let mut pos = Gomoku::empty(self.next);
        for (i, &p) in stones.iter().enumerate() {
            self.pos = pos.clone();
            match self.free_cell(p) {
                Ok(cell) => pos.play(cell),
                Err(e) => return Some(Reply::Error(format!("SWAP2BOARD, stone {}: {e}", i + 1))),
            }
        }
        self.pos = pos;
        // None only when a failed search thread's session could not be opened again.
        let Some(session) = self.session.as_mut() else {
            return Some(Reply::Error(NO_SESSION.into()));
        };
        if stones.is_empty() {
            let opening = balanced_opening(session.as_mut(), self.next);
            return Some(Reply::Moves(opening.into_iter().map(point).collect()));
        }
        let (value, best) = match quick_value(session.as_mut(), &self.pos) {
            Ok(v) => v,
            Err(e) => return Some(Reply::Error(format!("SWAP2BOARD: {e}"))),
        };
        if value >= 0 {
            let cell = self
                .pos
                .parse_move(&best)
                .expect("the search's move is legal");
            self.pos.play(cell);
            Some(Reply::Move(point(cell)))
        } else {
            Some(Reply::Swap)
        }
    }

    /// Starts the search for the brain's move, of `lines` principal variations (1, or
    /// `YXNBEST`'s); the worker answers.
    fn think(&mut self, lines: u32) -> Answer {
        if self.pos.outcome().is_some() {
            let why = self.pos.ended_by().unwrap_or("the game is over");
            return Some(Reply::Error(format!("the game is over ({why})")));
        }
        let Some(mut session) = self.session.take() else {
            return Some(Reply::Error(NO_SESSION.into()));
        };
        let moves: Vec<String> = self
            .pos
            .moves_played()
            .iter()
            .map(|&c| move_text(c))
            .collect();
        let config = SearchConfig {
            multipv: lines as usize,
            ..session.config().clone()
        };
        if let Err(e) = session
            .set_variant(&self.pos.board_variant().to_string())
            .and_then(|()| {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                session.set_position("", &moves)
            })
            .and_then(|()| session.set_config(config))
        {
            self.session = Some(session);
            return Some(Reply::Error(format!("the position was refused: {e}")));
        }
        let among = self.unblocked();
        let (soft, hard) = self.time.budget();
        let limits = Limits {
            depth: self.max_depth,
            nodes: self.max_nodes,
            time: Some(hard),
        };
        let out = Arc::clone(&self.out);
        let stop = Arc::clone(&self.stop);
        self.stop.store(false, Ordering::Relaxed);
        let pos = self.pos.clone();
        self.worker = Some(std::thread::spawn(move || {
            let start = Instant::now();
            // The best line last shown: the move played must head one, as in the UCI loop,
            // so that a GUI shows the line of the move it gets.
            let mut shown = Vec::new();
            let result = session.search_among(&limits, &among, &mut |r| {
                for line in progress(r, start, &pos) {
                    send(&out, Reply::Message(line));
                }
                shown.clone_from(r.lines.first().map_or(&r.pv, |(_, pv)| pv));
                if start.elapsed() >= soft {
                    stop.store(true, Ordering::Relaxed);
                }
            });
            if let Ok(r) = &result {
                // A limit or a STOP cut an iteration short after it found a better move than
                // the first line shown (with several lines, the searcher's line of the move).
                if r.depth > 0 && r.pv != shown {
                    let of = usize::from(lines > 1) + 1;
                    let line = progress_line(r, start, &pos, (0, of), r.value, &r.pv);
                    send(&out, Reply::Message(line));
                }
            }
            let cell = result
                .ok()
                .and_then(|r| r.best)
                .and_then(|m| pos.parse_move(&m).ok())
                .or_else(|| {
                    // Stopped before any iteration ended: any move it may play beats none.
                    let mut moves = Vec::new();
                    pos.generate_moves(&mut moves);
                    let allowed = |c: &Cell| among.is_empty() || among.contains(&move_text(*c));
                    moves.iter().copied().find(allowed)
                });
            match cell {
                Some(c) => send(&out, Reply::Move(point(c))),
                None => send(&out, Reply::Error("no legal move".into())),
            }
            (session, cell)
        }));
        None
    }
}

/// The stones of one field, in the order given.
fn own_stones(stones: &[(Point, Field)], field: Field) -> Vec<Point> {
    stones
        .iter()
        .filter(|(_, f)| *f == field)
        .map(|(p, _)| *p)
        .collect()
}

/// One iteration as `MESSAGE` lines in the layout Rapfi writes and GUIs and client libraries
/// (Yixin Board, pygomo) read: `depth D-SELDEPTH ev VALUE n NODES n/ms SPEED tm MS pv LINE`,
/// the line's points as a column letter and a row number counted from the top from 1, as the
/// protocol counts rows (`x,y` = 7,3 is `h4`). A search of several lines (`YXNBEST`) writes
/// one each, best first, with `multipv K` after the depth.
fn progress(r: &SearchReport, start: Instant, root: &Gomoku) -> Vec<String> {
    let single = [(r.value, r.pv.clone())];
    let lines = if r.lines.is_empty() {
        &single[..]
    } else {
        &r.lines[..]
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, (value, pv))| progress_line(r, start, root, (i, lines.len()), *value, pv))
        .collect()
}

/// Line `i` of `of` of [`progress`], whose value is `value` and moves `pv`.
fn progress_line(
    r: &SearchReport,
    start: Instant,
    root: &Gomoku,
    (i, of): (usize, usize),
    value: Score,
    pv: &[String],
) -> String {
    let ms = start.elapsed().as_millis();
    let per_ms = r.stats.nodes as u128 / ms.max(1);
    let multipv = match of {
        1 => String::new(),
        _ => format!(" multipv {}", i + 1),
    };
    format!(
        "depth {}-{}{multipv} ev {} n {} n/ms {per_ms} tm {ms} pv {}",
        r.depth,
        r.stats.seldepth.max(r.depth),
        value_text(value),
        r.stats.nodes,
        points_text(root, pv)
    )
}

/// A line of moves from `root` as letters and rows (`h8 i9`), as far as it is legal.
fn points_text(root: &Gomoku, line: &[String]) -> String {
    let mut pos = root.clone();
    let mut points = Vec::new();
    for text in line {
        let Ok(cell) = pos.parse_move(text) else {
            break;
        };
        points.push(format!(
            "{}{}",
            char::from(b'a' + cell.x()),
            u32::from(cell.y()) + 1
        ));
        pos.play(cell);
    }
    points.join(" ")
}

/// A value for people: `+M5` wins in 5 plies, `-M4` loses in 4, else the evaluation.
fn value_text(v: Score) -> String {
    match v.plies_to_end() {
        Some(n) if v.is_win() => format!("+M{n}"),
        Some(n) => format!("-M{n}"),
        None => v.0.to_string(),
    }
}

/// The side to move's value of `pos` by a depth-2 search, and its best move.
fn quick_value(session: &mut dyn Session, pos: &Gomoku) -> Result<(i32, String), EngineError> {
    // One line, whatever the last `YXNBEST` asked for.
    session.set_config(SearchConfig {
        multipv: 1,
        ..session.config().clone()
    })?;
    session.set_variant(&pos.board_variant().to_string())?;
    session.set_position(&pos.to_text(), &[])?;
    let r = session.search(&Limits::depth(2), &mut |_| {})?;
    let best = r.best.ok_or(EngineError::ZeroDepth)?;
    Ok((r.value.0, best))
}

/// Swap2's first three stones: Black in the centre, White beside or diagonal to it, Black
/// within two cells; of those, the one whose value for White, to move, is nearest level.
fn balanced_opening(session: &mut dyn Session, variant: Variant) -> Vec<Cell> {
    let (cx, cy) = (variant.width / 2, variant.height / 2);
    let at = |dx: i8, dy: i8| Cell::new(cx.wrapping_add_signed(dx), cy.wrapping_add_signed(dy));
    let mut best: Option<(i32, Vec<Cell>)> = None;
    for (wx, wy) in [(1, 0), (1, 1)] {
        for dy in -2..=2 {
            for dx in -2..=2 {
                if (dx, dy) == (0, 0) || (dx, dy) == (wx, wy) {
                    continue;
                }
                let stones = vec![at(0, 0), at(wx, wy), at(dx, dy)];
                let mut pos = Gomoku::empty(variant);
                stones.iter().for_each(|&c| pos.play(c));
                let Ok((v, _)) = quick_value(session, &pos) else {
                    continue;
                };
                if best.as_ref().is_none_or(|(b, _)| v.abs() < *b) {
                    best = Some((v.abs(), stones));
                }
            }
        }
    }
    best.map(|(_, s)| s)
        .unwrap_or_else(|| vec![at(0, 0), at(1, 0), at(1, 2)])
}

/// Whether `line` is the command `word`, in any case.
fn first_word_is(line: &str, word: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
}

/// Whether `line` is `STOP` (or Yixin's `YXSTOP`).
fn is_stop(line: &str) -> bool {
    matches!(parse(line), Ok(Command::Stop))
}

/// Runs the Gomocup protocol on `input` and `output` until `END` or the end of the input; an
/// error when the session cannot be opened (a table the options ask for).
pub fn run(
    input: impl Read + Send + 'static,
    output_stream: impl Write + Send + 'static,
    opts: GomocupOptions,
) -> Result<(), EngineError> {
    let out = output(output_stream);
    let mut brain = Gomocup::new(opts, out)?;
    let mut reader = Reader::new();
    let rx = lines_split_by(input, read_line);
    let mut pending: VecDeque<String> = VecDeque::new();
    loop {
        // While a search runs, the manager waits for its move: what it sends meanwhile is
        // kept for after the answer, but for END, which stops the search at once.
        while brain.worker.as_ref().is_some_and(|w| !w.is_finished()) {
            match rx.recv_timeout(Duration::from_millis(2)) {
                Ok(line) => {
                    // Yixin's STOP (Rapfi's too): the search ends now and answers its move.
                    if is_stop(&line) {
                        brain.finish_worker(true);
                        continue;
                    }
                    let end = first_word_is(&line, "END");
                    pending.push_back(line);
                    if end {
                        brain.finish_worker(true);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        let line = match pending.pop_front() {
            Some(line) => line,
            None => match rx.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        match reader.feed(&line) {
            None => {}
            Some(Ok(cmd)) => {
                let goes_on = brain.handle(cmd);
                if !goes_on {
                    return Ok(());
                }
            }
            Some(Err(e)) => {
                brain.finish_worker(false);
                if let Some(reply) = Reply::for_error(&e) {
                    brain.reply(reply);
                }
            }
        }
    }
    // End of input: the manager is gone; the search answers into the void.
    brain.finish_worker(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_alone_is_used_to_its_end_and_a_game_clock_is_saved_for() {
        let ms = Duration::from_millis;
        // Turn only (Gomocup's per-move tournaments): iterations may start until the end.
        let turn_only = TimeLimits {
            turn: Some(1000),
            game: Some(0),
            left: None,
        };
        assert_eq!(turn_only.budget(), (ms(890), ms(890)));
        // A game clock as well: no iteration starts after 40% of the turn.
        let with_game = TimeLimits {
            game: Some(180_000),
            left: Some(180_000),
            ..turn_only
        };
        let (soft, hard) = with_game.budget();
        assert!(soft <= ms(356) && hard == ms(890), "{soft:?} {hard:?}");
        // Little left of the game: its clock rules.
        let short = TimeLimits {
            left: Some(500),
            ..with_game
        };
        assert!(short.budget().1 < ms(250), "{:?}", short.budget());
        let at_once = TimeLimits {
            turn: Some(0),
            ..TimeLimits::default()
        };
        assert_eq!(at_once.budget().0, Duration::ZERO);
    }
}
