//! The Gomocup protocol (Piskvork's "new protocol", with the Gomocup extensions), spoken between
//! a gomoku manager (Piskvork, the Gomocup tournament manager, a match runner) and a brain.
//!
//! | manager sends | meaning | brain answers |
//! |---|---|---|
//! | `START size` | a new game on an empty `size`×`size` board (Gomocup plays on 20) | `OK`, or `ERROR msg` if the size is not supported |
//! | `RECTSTART width,height` | the same on a rectangular board: `width` along x, `height` along y | `OK`, or `ERROR msg` |
//! | `RESTART` | a new game on the board of the last `START` | `OK` |
//! | `INFO key value` | a setting or a limit, see [`Info`] | nothing, ever |
//! | `BEGIN` | the brain opens the game: play the first move on the empty board | `x,y` |
//! | `TURN x,y` | the opponent played at x,y; the brain's turn | `x,y` |
//! | `BOARD`, lines `x,y,field`, `DONE` | the whole position (on an empty board, after `START`, `RECTSTART` or `RESTART`); the brain's turn | `x,y` |
//! | `TAKEBACK x,y` | undo the last move, whose stone is at x,y | `OK` |
//! | `PLAY x,y` | after the brain's `SUGGEST`: play x,y | `x,y` (the same point) |
//! | `SWAP2BOARD`, lines `x,y`, `DONE` | a Swap2 opening stage, with the 0, 3 or 5 stones placed so far | 0 stones: three moves `x,y x,y x,y`; 3 stones: `SWAP`, one move (stay) or two moves (let the opponent choose); 5 stones: `SWAP` or one move |
//! | `ABOUT` | who the brain is | `name="duel", version="0.1", author="...", country="..."` |
//! | `END` | quit at once | nothing |
//!
//! Yixin Board's extensions (Kai Sun's Yixin protocol), as Rapfi answers them:
//!
//! | manager sends | meaning | brain answers |
//! |---|---|---|
//! | `STOP` or `YXSTOP` | stop the search now | its move, at once; nothing when none runs |
//! | `YXBOARD`, lines `x,y,field`, `DONE` | the position, as `BOARD` sends it, but no search | nothing |
//! | `YXNBEST n` | the `n` best moves: a search of several lines, one `MESSAGE` each per iteration | the best move `x,y`, played as after `TURN` |
//! | `YXSHOWFORBID` | renju's forbidden points, Black to move | `FORBID XXYYXXYY.` ([`Reply::Forbid`]) |
//! | `YXHASHCLEAR` | clear the transposition table | a `MESSAGE` |
//! | `YXSHOWHASHUSAGE` | how full the transposition table is | a `MESSAGE` |
//! | `YXSHOWINFO` | the brain describes itself to the GUI | `MESSAGE` lines (`MESSAGE INFO MAX_THREAD_NUM n`) |
//! | `YXBLOCK`, lines `x,y`, `DONE` | points the searches must not play, until `YXBLOCKRESET` | nothing |
//! | `YXBLOCKUNDO`, lines `x,y`, `DONE` | points taken off that list | nothing |
//! | `YXBLOCKRESET` | the list emptied | nothing |
//! | `INFO thread_num n`, `INFO max_depth n`, `INFO max_node n` | search threads, the deepest iteration, the most nodes | nothing |
//!
//! Before its answer the brain may send any number of `MESSAGE text` (for the user) and
//! `DEBUG text` (for its author) lines; instead of a move it may answer `SUGGEST x,y`, to which
//! the manager answers `PLAY x,y` (Gomocup always with the suggested point) or `END`.
//!
//! Coordinates count from 0, x (column) first: `10,11` is [`Point`] `{ x: 10, y: 11 }`. This
//! crate knows no board size, so it checks that coordinates are numbers, not that they are on
//! the board: that, and whether a point is free, is the engine's job.
//!
//! # Lines
//!
//! The manager ends each line with CR LF; lines ending with LF alone or CR alone are accepted
//! too ([`read_line`] splits on either byte, so a CR-only stream does not wait for an LF that
//! never comes), and surrounding white space is trimmed. Empty lines are ignored. Command words
//! and `INFO` keys are matched without regard to case, as the reference brain skeleton does;
//! arguments keep their case (a folder path, an unknown key's value). Commands without
//! arguments (`BEGIN`, `END`, `ABOUT`, `RESTART`, `BOARD`, `SWAP2BOARD`, `DONE` and the `YX`
//! ones but `YXNBEST`) ignore any words after them, as the skeleton does; a command with
//! arguments refuses extra ones. A line longer
//! than [`MAX_LINE`] bytes is refused (the protocol's lines are short; Piskvork's own buffers
//! hold 256 bytes).
//!
//! # Blocks
//!
//! `BOARD` and `SWAP2BOARD` are the protocol's multi-line commands (and Yixin's `YXBOARD`,
//! `YXBLOCK` and `YXBLOCKUNDO`): their data lines follow, one a line, up to `DONE`. A [`Reader`] collects them and gives the whole command at `DONE`.
//! A bad line inside a block does not end it: the reader goes on to `DONE` and only then gives
//! the error, naming the first bad line (by its number after `BOARD`, empty lines not counted)
//! and counting the others. So the engine answers once, after `DONE`, when the manager waits
//! for its answer, and never takes the rest of the block for commands. The one exception is
//! `END`, which the engine must obey at once: inside a block it drops the block and is given
//! as [`Command::End`]. [`parse`] reads one-line commands only.
//!
//! # Errors
//!
//! Malformed lines are [`ParseError`]s, and [`Reply::for_error`] gives the answer the protocol
//! asks for: `UNKNOWN message` for a command the brain does not know
//! ([`ParseError::Unknown`]), `ERROR message` for a known command it cannot carry out, here one
//! with a missing or malformed argument ([`ParseError::BadArgument`]), and nothing for an empty
//! line. `INFO` is the exception: the manager reads no answer to it (an `ERROR` there would be
//! read as the answer to the next `TURN`, and lose the game), so a bad `INFO` is reported as a
//! `MESSAGE` line, which managers skip wherever it comes.

use std::fmt;

pub use crate::ParseError;

/// The longest line read, in bytes: longer lines are refused, and [`read_line`] keeps no more
/// than one byte past it. Far above any line of the protocol (a folder path is the longest).
pub const MAX_LINE: usize = 4096;

/// The most data lines a `BOARD` or `SWAP2BOARD` block holds (a 256×256 board full): a longer
/// block is read to its `DONE` and refused.
pub const MAX_BLOCK_LINES: usize = 1 << 16;

/// `INFO time_left` when the game has no time limit.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// The bits of `INFO rule`, which adds them up.
pub mod rule {
    /// Exactly five in a row wins (six or more do not).
    pub const EXACT_FIVE: u32 = 1;
    /// Continuous game: play goes on after a five; the stones of fives are sent as
    /// [`Field::Marked`](super::Field::Marked) in `BOARD`.
    pub const CONTINUOUS: u32 = 2;
    /// Renju rules (black has forbidden moves; `BOARD` lists stones in the order played).
    pub const RENJU: u32 = 4;
    /// Caro rules (a five blocked at both ends does not win).
    pub const CARO: u32 = 8;
}

/// A point of the board, counted from 0: column `x`, row `y`. Written `x,y`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// The column, from 0 (the first number).
    pub x: u32,
    /// The row, from 0 (the second number).
    pub y: u32,
}

impl Point {
    /// The point at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> Point {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Whose stone a `BOARD` line puts on its point, from the brain's side: the manager numbers
/// them for the brain it writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: sent only in a continuous game or under renju rules: a stone of a five already
    /// made (Piskvork sends every stone of a winning line so), or a point forbidden by renju
    /// rules. Neither side can play there nor count it in a new line.
    Marked,
}

impl Field {
    /// The number the protocol writes: 1, 2 or 3.
    pub fn number(self) -> u32 {
        match self {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Marked => 3,
        }
    }

    /// The field written `n`, if `n` is 1, 2 or 3.
    pub fn from_number(n: u32) -> Option<Field> {
        match n {
            1 => Some(Field::Own),
            2 => Some(Field::Opponent),
            3 => Some(Field::Marked),
            _ => None,
        }
    }
}

/// `INFO key value`: a setting or a limit. The brain may ignore any of them (it loses if it
/// exceeds a limit) and must cope with those never sent. Limits come before the first move;
/// `time_left` before every `TURN`, `BEGIN`, `BOARD` and `SWAP2BOARD` when the game is timed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: milliseconds for each move; 0 asks for a move as fast as possible (a
    /// static evaluation, no search), not for unlimited time.
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds for the whole game, counted only while the brain is to
    /// move; 0 means no limit. When a game is timed the manager also sends `time_left`, which
    /// is enough to rely on.
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left for the rest of the game. Negative once the brain has
    /// overstepped; [`UNLIMITED_TIME_LEFT`] when the game is not timed.
    TimeLeft(i64),
    /// `max_memory`: bytes the brain may use; 0 means no limit.
    MaxMemory(u64),
    /// `game_type`: 0 the opponent is a human, 1 a brain, 2 a tournament, 3 a network
    /// tournament. Other values are passed on.
    GameType(u32),
    /// `rule`: the sum of the [`rule`] bits; 0 is free-style gomoku (five or more win).
    Rule(u32),
    /// `evaluate`: the point under the user's mouse, for a debug build to evaluate (off the
    /// standard output); release builds ignore it.
    Evaluate(Point),
    /// `folder`: where the brain may keep files from game to game, in a subfolder named as
    /// the brain. The rest of the line, case kept; it may hold spaces.
    Folder(String),
    /// `thread_num` (Yixin Board's): the search threads the brain may use.
    ThreadNum(u32),
    /// `max_depth` (Yixin's): the deepest iteration a search may start; 0 or less, no limit.
    MaxDepth(i64),
    /// `max_node` (Yixin's): the most nodes a search may visit; 0 or less, no limit.
    MaxNode(i64),
    /// Any other key (`caution_factor`, a manager's extension): the key in lower case, the
    /// value as sent (the rest of the line, possibly empty). Brains ignore what they do not
    /// know, as the protocol asks.
    Other {
        /// The key, lower case.
        key: String,
        /// The value, as text.
        value: String,
    },
}

impl Info {
    /// The key this setting is sent under.
    pub fn key(&self) -> &str {
        match self {
            Info::TimeoutTurn(_) => "timeout_turn",
            Info::TimeoutMatch(_) => "timeout_match",
            Info::TimeLeft(_) => "time_left",
            Info::MaxMemory(_) => "max_memory",
            Info::GameType(_) => "game_type",
            Info::Rule(_) => "rule",
            Info::Evaluate(_) => "evaluate",
            Info::Folder(_) => "folder",
            Info::ThreadNum(_) => "thread_num",
            Info::MaxDepth(_) => "max_depth",
            Info::MaxNode(_) => "max_node",
            Info::Other { key, .. } => key,
        }
    }
}

impl fmt::Display for Info {
    /// `INFO key value` (`INFO key` for an [`Info::Other`] without a value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "INFO {}", self.key())?;
        match self {
            Info::TimeoutTurn(n) | Info::TimeoutMatch(n) | Info::MaxMemory(n) => write!(f, " {n}"),
            Info::TimeLeft(n) | Info::MaxDepth(n) | Info::MaxNode(n) => write!(f, " {n}"),
            Info::GameType(n) | Info::Rule(n) | Info::ThreadNum(n) => write!(f, " {n}"),
            Info::Evaluate(p) => write!(f, " {p}"),
            Info::Folder(path) => write!(f, " {path}"),
            Info::Other { value, .. } if value.is_empty() => Ok(()),
            Info::Other { value, .. } => write!(f, " {value}"),
        }
    }
}

/// A command from the manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new game on a square board; the size is at least 1.
    Start(u32),
    /// `RECTSTART width,height`: a new game on a rectangular board; both at least 1.
    RectStart {
        /// Columns: x runs over `0..width`.
        width: u32,
        /// Rows: y runs over `0..height`.
        height: u32,
    },
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: play the first move.
    Begin,
    /// `TURN x,y`: the opponent's move; the brain's turn.
    Turn(Point),
    /// `BOARD` ... `DONE`: the stones in the order sent (the order played under renju rules,
    /// any order in gomoku); the brain's turn. Empty when the manager sent no stone.
    Board(Vec<(Point, Field)>),
    /// `INFO key value`.
    Info(Info),
    /// `END`: quit at once, answering nothing.
    End,
    /// `ABOUT`: answer [`Reply::About`].
    About,
    /// `TAKEBACK x,y`: undo the last move, whose stone is at the point.
    Takeback(Point),
    /// `PLAY x,y`: play this point (the answer to the brain's `SUGGEST`).
    Play(Point),
    /// `SWAP2BOARD` ... `DONE`: the Swap2 opening stones placed so far, in order (0, 3 or 5;
    /// the first, third and fifth are black's).
    Swap2Board(Vec<Point>),
    /// `STOP`, or Yixin's `YXSTOP`: stop the search and answer its move now. Nothing to do
    /// when no search runs.
    Stop,
    /// `YXBOARD` ... `DONE`: the position, as in [`Command::Board`], set without a search:
    /// the brain answers nothing.
    YxBoard(Vec<(Point, Field)>),
    /// `YXNBEST n`: a search of the `n` best moves (at least 1), answered with the best, as
    /// a move after `TURN` is.
    YxNBest(u32),
    /// `YXSHOWFORBID`: answer [`Reply::Forbid`].
    YxShowForbid,
    /// `YXHASHCLEAR`: clear the transposition table.
    YxHashClear,
    /// `YXSHOWHASHUSAGE`: say how full the transposition table is.
    YxShowHashUsage,
    /// `YXSHOWINFO`: describe the brain to the GUI (its name, the most threads it takes).
    YxShowInfo,
    /// `YXBLOCK` ... `DONE`: points the searches must not play from now on, added to those
    /// blocked before.
    YxBlock(Vec<Point>),
    /// `YXBLOCKUNDO` ... `DONE`: points blocked no more.
    YxBlockUndo(Vec<Point>),
    /// `YXBLOCKRESET`: no point blocked.
    YxBlockReset,
}

impl fmt::Display for Command {
    /// The text the manager sends, command words upper case and `INFO` keys lower case, as the
    /// protocol asks of managers. `BOARD` and `SWAP2BOARD` print their data lines and `DONE`
    /// joined by `\n` with no final line break: a writer sends each line with CR LF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start(size) => write!(f, "START {size}"),
            Command::RectStart { width, height } => write!(f, "RECTSTART {width},{height}"),
            Command::Restart => write!(f, "RESTART"),
            Command::Begin => write!(f, "BEGIN"),
            Command::Turn(p) => write!(f, "TURN {p}"),
            Command::Board(stones) => write_stones(f, "BOARD", stones),
            Command::YxBoard(stones) => write_stones(f, "YXBOARD", stones),
            Command::Info(info) => write!(f, "{info}"),
            Command::End => write!(f, "END"),
            Command::About => write!(f, "ABOUT"),
            Command::Takeback(p) => write!(f, "TAKEBACK {p}"),
            Command::Play(p) => write!(f, "PLAY {p}"),
            Command::Swap2Board(points) => write_points(f, "SWAP2BOARD", points),
            Command::Stop => write!(f, "STOP"),
            Command::YxNBest(n) => write!(f, "YXNBEST {n}"),
            Command::YxShowForbid => write!(f, "YXSHOWFORBID"),
            Command::YxHashClear => write!(f, "YXHASHCLEAR"),
            Command::YxShowHashUsage => write!(f, "YXSHOWHASHUSAGE"),
            Command::YxShowInfo => write!(f, "YXSHOWINFO"),
            Command::YxBlock(points) => write_points(f, "YXBLOCK", points),
            Command::YxBlockUndo(points) => write_points(f, "YXBLOCKUNDO", points),
            Command::YxBlockReset => write!(f, "YXBLOCKRESET"),
        }
    }
}

/// A block of stones, `x,y,field` a line, as `BOARD` sends it.
fn write_stones(f: &mut fmt::Formatter<'_>, word: &str, stones: &[(Point, Field)]) -> fmt::Result {
    writeln!(f, "{word}")?;
    for (p, field) in stones {
        writeln!(f, "{p},{}", field.number())?;
    }
    write!(f, "DONE")
}

/// A block of points, `x,y` a line, as `SWAP2BOARD` sends it.
fn write_points(f: &mut fmt::Formatter<'_>, word: &str, points: &[Point]) -> fmt::Result {
    writeln!(f, "{word}")?;
    for p in points {
        writeln!(f, "{p}")?;
    }
    write!(f, "DONE")
}

mod read;
mod reply;

pub use read::{parse, read_line, Reader};
pub use reply::Reply;
