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
//! arguments (`BEGIN`, `END`, `ABOUT`, `RESTART`, `BOARD`, `SWAP2BOARD`, `DONE`) ignore any words
//! after them, as the skeleton does; a command with arguments refuses extra ones. A line longer
//! than [`MAX_LINE`] bytes is refused (the protocol's lines are short; Piskvork's own buffers
//! hold 256 bytes).
//!
//! # Blocks
//!
//! `BOARD` and `SWAP2BOARD` are the protocol's multi-line commands: their data lines follow,
//! one a line, up to `DONE`. A [`Reader`] collects them and gives the whole command at `DONE`.
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
use std::io::{self, BufRead};

pub use crate::ParseError;
use crate::{bad, one_line};

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
    /// Any other key (`caution_factor`, `thread_num`, a manager's extension): the key in lower
    /// case, the value as sent (the rest of the line, possibly empty). Brains ignore what they
    /// do not know, as the protocol asks.
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
            Info::TimeLeft(n) => write!(f, " {n}"),
            Info::GameType(n) | Info::Rule(n) => write!(f, " {n}"),
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
            Command::Board(stones) => {
                writeln!(f, "BOARD")?;
                for (p, field) in stones {
                    writeln!(f, "{p},{}", field.number())?;
                }
                write!(f, "DONE")
            }
            Command::Info(info) => write!(f, "{info}"),
            Command::End => write!(f, "END"),
            Command::About => write!(f, "ABOUT"),
            Command::Takeback(p) => write!(f, "TAKEBACK {p}"),
            Command::Play(p) => write!(f, "PLAY {p}"),
            Command::Swap2Board(points) => {
                writeln!(f, "SWAP2BOARD")?;
                for p in points {
                    writeln!(f, "{p}")?;
                }
                write!(f, "DONE")
            }
        }
    }
}

/// The command words, as the manager writes them.
const WORDS: [&str; 13] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "INFO",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
    "DONE",
];

/// The command word `word` is, in the manager's spelling, whatever its case.
fn command_word(word: &str) -> Option<&'static str> {
    WORDS.iter().copied().find(|w| w.eq_ignore_ascii_case(word))
}

/// `text` cut to a length fit for an error message.
fn shorten(text: &str) -> String {
    const MOST: usize = 40;
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Why an argument or a block's line is not what the protocol asks, before it is named in a
/// [`ParseError`]. The texts are shortened (see `shorten`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Why {
    #[error("a number is missing")]
    Missing,
    #[error("'{0}' is too large")]
    TooLarge(String),
    #[error("'{0}' is too small")]
    TooSmall(String),
    #[error("'{0}' is negative")]
    Negative(String),
    #[error("'{0}' is not a number")]
    NotANumber(String),
    #[error("{expected} numbers expected, found {found}")]
    Count { expected: usize, found: usize },
    #[error("'{text}' is not a point x,y ({why})")]
    NotAPoint { text: String, why: Box<Why> },
    #[error("not a stone x,y,field ({0})")]
    NotAStone(Box<Why>),
    #[error("field {0} is not 1 (own), 2 (opponent) or 3 (marked)")]
    Field(u32),
    #[error("{0} bytes long, more than the {MAX_LINE} read")]
    TooLong(usize),
    #[error("more than {MAX_BLOCK_LINES} lines in one block")]
    TooManyLines,
    #[error("expected {expected} or DONE, found the command {command}")]
    Command {
        expected: &'static str,
        command: &'static str,
    },
    #[error("'{0}' is not key=\"value\"")]
    NotAPair(String),
    #[error("'{0}' is not a key")]
    NotAKey(String),
    #[error("the value of '{0}' has no closing quote")]
    Unclosed(String),
    #[error("the value of '{0}' has a stray quote")]
    StrayQuote(String),
    #[error("',' expected after the value of '{key}', found '{found}'")]
    NoComma { key: String, found: String },
}

/// A whole number of type `T` (a `u32`, `u64` or `i64`), or why `text` is not one.
fn number<T: std::str::FromStr<Err = std::num::ParseIntError>>(text: &str) -> Result<T, Why> {
    use std::num::IntErrorKind;
    if text.is_empty() {
        return Err(Why::Missing);
    }
    text.parse().map_err(|e: std::num::ParseIntError| {
        let shown = shorten(text);
        match e.kind() {
            IntErrorKind::PosOverflow => Why::TooLarge(shown),
            IntErrorKind::NegOverflow => Why::TooSmall(shown),
            _ if text.len() > 1
                && text.starts_with('-')
                && text[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                Why::Negative(shown)
            }
            _ => Why::NotANumber(shown),
        }
    })
}

/// The `N` comma-separated whole numbers of `text` (white space around them allowed), or why
/// they are not.
fn numbers<const N: usize>(text: &str) -> Result<[u32; N], Why> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != N {
        return Err(Why::Count {
            expected: N,
            found: parts.len(),
        });
    }
    let mut out = [0; N];
    for (slot, part) in out.iter_mut().zip(parts) {
        *slot = number(part)?;
    }
    Ok(out)
}

/// The point `x,y` of `text`, or why it is not one.
fn point(text: &str) -> Result<Point, Why> {
    match numbers::<2>(text) {
        Ok([x, y]) => Ok(Point { x, y }),
        Err(why) => Err(Why::NotAPoint {
            text: shorten(text),
            why: Box::new(why),
        }),
    }
}

/// The point argument of `command`.
fn point_argument(command: &str, rest: &str) -> Result<Point, ParseError> {
    if rest.is_empty() {
        return Err(bad(command, format!("{command} needs a point x,y")));
    }
    point(rest).map_err(|why| bad(command, why.to_string()))
}

/// What one line from the manager is, blocks apart.
enum Line {
    /// A whole command.
    Command(Command),
    /// `BOARD` or `SWAP2BOARD`: a block begins.
    Open(Block),
    /// `DONE`.
    Done,
}

fn parse_line(line: &str) -> Result<Line, ParseError> {
    let line = line.trim();
    let (word, rest) = crate::first_word(line);
    if word.is_empty() {
        return Err(ParseError::Empty);
    }
    let Some(name) = command_word(word) else {
        return Err(ParseError::Unknown(shorten(word)));
    };
    if line.len() > MAX_LINE {
        return Err(too_long(name, line));
    }
    let command = match name {
        "START" => {
            if rest.is_empty() {
                return Err(bad(name, "START needs a size"));
            }
            if rest.contains(char::is_whitespace) {
                return Err(bad(
                    name,
                    format!("START takes one size, found '{}'", shorten(rest)),
                ));
            }
            let size = number(rest).map_err(|why| bad(name, why.to_string()))?;
            if size == 0 {
                return Err(bad(name, "size 0 is too small"));
            }
            Command::Start(size)
        }
        "RECTSTART" => {
            if rest.is_empty() {
                return Err(bad(name, "RECTSTART needs width,height"));
            }
            let [width, height] = numbers::<2>(rest).map_err(|why| {
                bad(
                    name,
                    format!("'{}' is not width,height ({why})", shorten(rest)),
                )
            })?;
            for (what, n) in [("width", width), ("height", height)] {
                if n == 0 {
                    return Err(bad(name, format!("{what} 0 is too small")));
                }
            }
            Command::RectStart { width, height }
        }
        "RESTART" => Command::Restart,
        "BEGIN" => Command::Begin,
        "TURN" => Command::Turn(point_argument(name, rest)?),
        "INFO" => Command::Info(parse_info(rest)?),
        "END" => Command::End,
        "ABOUT" => Command::About,
        "TAKEBACK" => Command::Takeback(point_argument(name, rest)?),
        "PLAY" => Command::Play(point_argument(name, rest)?),
        "BOARD" => return Ok(Line::Open(Block::new(BlockKind::Board(Vec::new())))),
        "SWAP2BOARD" => return Ok(Line::Open(Block::new(BlockKind::Swap2(Vec::new())))),
        "DONE" => return Ok(Line::Done),
        other => return Err(ParseError::Unknown(other.to_string())),
    };
    Ok(Line::Command(command))
}

fn too_long(command: &str, line: &str) -> ParseError {
    bad(
        command,
        format!(
            "the line is {} bytes long, more than the {MAX_LINE} read",
            line.len()
        ),
    )
}

fn parse_info(rest: &str) -> Result<Info, ParseError> {
    let (key, value) = crate::first_word(rest);
    if key.is_empty() {
        return Err(bad("INFO", "INFO needs a key and a value"));
    }
    let key = key.to_ascii_lowercase();
    let fail = |why: Why| bad("INFO", format!("{key}: {why}"));
    Ok(match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(number(value).map_err(fail)?),
        "timeout_match" => Info::TimeoutMatch(number(value).map_err(fail)?),
        "time_left" => Info::TimeLeft(number(value).map_err(fail)?),
        "max_memory" => Info::MaxMemory(number(value).map_err(fail)?),
        "game_type" => Info::GameType(number(value).map_err(fail)?),
        "rule" => Info::Rule(number(value).map_err(fail)?),
        "evaluate" if value.is_empty() => {
            return Err(bad("INFO", format!("{key}: a point x,y is missing")))
        }
        "evaluate" => Info::Evaluate(point(value).map_err(fail)?),
        "folder" if value.is_empty() => {
            return Err(bad("INFO", format!("{key}: the folder is missing")))
        }
        "folder" => Info::Folder(value.to_string()),
        _ => Info::Other {
            key,
            value: value.to_string(),
        },
    })
}

/// Reads one line from the manager, for the one-line commands. `BOARD`, `SWAP2BOARD` and
/// `DONE` are refused with [`ParseError::BadArgument`]: blocks need a [`Reader`], which uses
/// this for every line outside a block.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    match parse_line(line)? {
        Line::Command(command) => Ok(command),
        Line::Open(block) => Err(bad(
            block.name(),
            format!(
                "{} starts a block of lines: read it with a Reader",
                block.name()
            ),
        )),
        Line::Done => Err(done_without_block()),
    }
}

fn done_without_block() -> ParseError {
    bad("DONE", "DONE without BOARD or SWAP2BOARD before it")
}

/// The data of an open block.
enum BlockKind {
    Board(Vec<(Point, Field)>),
    Swap2(Vec<Point>),
}

/// A `BOARD` or `SWAP2BOARD` block being read.
struct Block {
    kind: BlockKind,
    /// Data lines read so far, empty lines not counted.
    lines: usize,
    /// The first bad line: its number, its text (shortened) and what is wrong with it.
    first_error: Option<(usize, String, Why)>,
    /// Bad lines after the first.
    more_errors: usize,
}

impl Block {
    fn new(kind: BlockKind) -> Block {
        Block {
            kind,
            lines: 0,
            first_error: None,
            more_errors: 0,
        }
    }

    fn name(&self) -> &'static str {
        match self.kind {
            BlockKind::Board(_) => "BOARD",
            BlockKind::Swap2(_) => "SWAP2BOARD",
        }
    }

    /// Takes in a non-empty data line, or notes what is wrong with it.
    fn take(&mut self, line: &str) {
        self.lines += 1;
        if let Err(why) = self.read(line) {
            match self.first_error {
                None => self.first_error = Some((self.lines, shorten(line), why)),
                Some(_) => self.more_errors += 1,
            }
        }
    }

    fn read(&mut self, line: &str) -> Result<(), Why> {
        if line.len() > MAX_LINE {
            return Err(Why::TooLong(line.len()));
        }
        if self.lines > MAX_BLOCK_LINES {
            return Err(Why::TooManyLines);
        }
        let (word, _) = crate::first_word(line);
        let expected = match self.kind {
            BlockKind::Board(_) => "x,y,field",
            BlockKind::Swap2(_) => "x,y",
        };
        if let Some(command) = command_word(word) {
            return Err(Why::Command { expected, command });
        }
        match &mut self.kind {
            BlockKind::Board(stones) => {
                let [x, y, n] = numbers::<3>(line).map_err(|why| Why::NotAStone(Box::new(why)))?;
                let field = Field::from_number(n).ok_or(Why::Field(n))?;
                stones.push((Point { x, y }, field));
            }
            BlockKind::Swap2(points) => points.push(point(line)?),
        }
        Ok(())
    }

    /// The command at `DONE`, or the error the block had.
    fn finish(self) -> Result<Command, ParseError> {
        let name = self.name();
        if let Some((number, text, why)) = self.first_error {
            let more = match self.more_errors {
                0 => String::new(),
                1 => "; 1 more bad line".to_string(),
                n => format!("; {n} more bad lines"),
            };
            return Err(bad(
                name,
                format!("line {number} after {name}, '{text}': {why}{more}"),
            ));
        }
        match self.kind {
            BlockKind::Board(stones) => Ok(Command::Board(stones)),
            BlockKind::Swap2(points) if matches!(points.len(), 0 | 3 | 5) => {
                Ok(Command::Swap2Board(points))
            }
            BlockKind::Swap2(points) => Err(bad(
                name,
                format!("SWAP2BOARD sends 0, 3 or 5 stones, found {}", points.len()),
            )),
        }
    }
}

/// Reads the manager's lines one by one, collecting the `BOARD` and `SWAP2BOARD` blocks.
#[derive(Default)]
pub struct Reader {
    block: Option<Block>,
}

impl fmt::Debug for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("block", &self.block.as_ref().map(Block::name))
            .finish()
    }
}

impl Reader {
    /// A reader outside any block.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Whether a `BOARD` or `SWAP2BOARD` block is open, waiting for its `DONE`.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Takes one line (its line ending may be left on) and says what to do:
    ///
    /// - `None`: nothing yet. The line was empty, or opened a block, or was a data line of
    ///   one, good or bad.
    /// - `Some(Ok(command))`: a one-line command, or a whole block at its `DONE`; also
    ///   [`Command::End`] when `END` comes inside a block, which is then dropped.
    /// - `Some(Err(error))`: a bad one-line command, `DONE` outside a block, or, at `DONE`,
    ///   a block that had a bad line: the error names the first (by its number after `BOARD`,
    ///   empty lines not counted) and counts the others, and the block is dropped. Answer
    ///   with [`Reply::for_error`].
    pub fn feed(&mut self, line: &str) -> Option<Result<Command, ParseError>> {
        let line = line.trim();
        let Some(block) = &mut self.block else {
            return match parse_line(line) {
                Ok(Line::Command(command)) => Some(Ok(command)),
                Ok(Line::Open(block)) => {
                    self.block = Some(block);
                    None
                }
                Ok(Line::Done) => Some(Err(done_without_block())),
                Err(ParseError::Empty) => None,
                Err(e) => Some(Err(e)),
            };
        };
        let (word, _) = crate::first_word(line);
        if word.is_empty() {
            None
        } else if word.eq_ignore_ascii_case("DONE") {
            self.block.take().map(Block::finish)
        } else if word.eq_ignore_ascii_case("END") {
            self.block = None;
            Some(Ok(Command::End))
        } else {
            block.take(line);
            None
        }
    }
}

/// Reads one line from `input` into `line` (without its line ending), splitting on CR or LF,
/// so that a manager ending its lines with CR alone is answered at once: an LF after a CR is
/// read as an empty line, which [`Reader::feed`] ignores. At most [`MAX_LINE`] + 1 bytes of a
/// line are kept (the rest is read and dropped, so an overlong line is refused, not split).
/// Returns the number of bytes read, line ending included: 0 at the end of the input. The
/// bytes are appended to `line`; decode them (lossily: the protocol is ASCII) before feeding.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, line: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let end = available.iter().position(|&b| b == b'\r' || b == b'\n');
        let data = &available[..end.unwrap_or(available.len())];
        let room = (MAX_LINE + 1).saturating_sub(line.len());
        line.extend_from_slice(&data[..data.len().min(room)]);
        let used = data.len() + usize::from(end.is_some());
        input.consume(used);
        read += used;
        if end.is_some() {
            return Ok(read);
        }
    }
}

/// A line from the brain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `OK`: the answer to `START`, `RECTSTART`, `RESTART` and `TAKEBACK`.
    Ok,
    /// `ERROR message`: a known command the brain cannot carry out (a bad argument, a board
    /// size it does not support).
    Error(String),
    /// `UNKNOWN message`: a command the brain does not know or implement.
    Unknown(String),
    /// `MESSAGE text`: for the user; may come before any answer.
    Message(String),
    /// `DEBUG text`: for the brain's author; may come before any answer.
    Debug(String),
    /// `SUGGEST x,y`: the move the brain would play, without playing it; the manager answers
    /// `PLAY` or `END`.
    Suggest(Point),
    /// `x,y`: the brain's move.
    Move(Point),
    /// `SWAP`: in Swap2, take the other colour.
    Swap,
    /// `x,y x,y ...`: several moves, for `SWAP2BOARD` (three to open, two to let the opponent
    /// choose). Two or more points: one alone is a [`Reply::Move`].
    Moves(Vec<Point>),
    /// `name="duel", version="0.1", ...`: the answer to `ABOUT`, keys as given (recommended:
    /// `name`, `version`, `author`, `country`, `www`, `email`). At least one pair. The format
    /// has no escape: a `"` in a value is printed as `'`.
    About(Vec<(String, String)>),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (word, text) = match self {
            Reply::Ok => return write!(f, "OK"),
            Reply::Swap => return write!(f, "SWAP"),
            Reply::Suggest(p) => return write!(f, "SUGGEST {p}"),
            Reply::Move(p) => return write!(f, "{p}"),
            Reply::Moves(points) => {
                for (i, p) in points.iter().enumerate() {
                    write!(f, "{}{p}", if i == 0 { "" } else { " " })?;
                }
                return Ok(());
            }
            Reply::About(pairs) => {
                for (i, (key, value)) in pairs.iter().enumerate() {
                    let value = one_line(value).replace('"', "'");
                    write!(f, "{}{key}=\"{value}\"", if i == 0 { "" } else { ", " })?;
                }
                return Ok(());
            }
            Reply::Error(text) => ("ERROR", text),
            Reply::Unknown(text) => ("UNKNOWN", text),
            Reply::Message(text) => ("MESSAGE", text),
            Reply::Debug(text) => ("DEBUG", text),
        };
        if text.is_empty() {
            write!(f, "{word}")
        } else {
            write!(f, "{word} {}", one_line(text))
        }
    }
}

/// The `key="value"` pairs of an `ABOUT` answer, separated by commas; a value without quotes
/// runs to the next comma.
fn about_pairs(line: &str) -> Result<Vec<(String, String)>, Why> {
    let mut pairs = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let Some((key, after)) = rest.split_once('=') else {
            return Err(Why::NotAPair(shorten(rest)));
        };
        let key = key.trim();
        if key.is_empty() || key.contains(|c: char| c == ',' || c == '"' || c.is_whitespace()) {
            return Err(Why::NotAKey(shorten(key)));
        }
        let after = after.trim_start();
        let (value, tail) = match after.strip_prefix('"') {
            Some(quoted) => {
                let end = quoted
                    .find('"')
                    .ok_or_else(|| Why::Unclosed(key.to_string()))?;
                (&quoted[..end], &quoted[end + 1..])
            }
            None => {
                let end = after.find(',').unwrap_or(after.len());
                let value = after[..end].trim_end();
                if value.contains('"') {
                    return Err(Why::StrayQuote(key.to_string()));
                }
                (value, &after[end..])
            }
        };
        pairs.push((key.to_string(), one_line(value)));
        let tail = tail.trim_start();
        rest = match tail.strip_prefix(',') {
            Some(next) => next.trim_start(),
            None if tail.is_empty() => "",
            None => {
                return Err(Why::NoComma {
                    key: key.to_string(),
                    found: shorten(tail),
                })
            }
        };
    }
    Ok(pairs)
}

impl Reply {
    /// Reads one line from a brain, as a manager (or the match runner) does: words in any
    /// case, white space around commas allowed (`10, 11`). Words after `OK` and `SWAP` are
    /// ignored (brains copy the specification's `OK - everything is good`). A line of points
    /// is a move ([`Reply::Move`] for one, [`Reply::Moves`] for more); a line with `=` that is
    /// no other reply is an `ABOUT` answer. Old brains answer `ABOUT` with free text, which
    /// reads as [`ParseError::Unknown`]: a client that sent `ABOUT` may take the line as it is.
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let line = line.trim();
        let (word, rest) = crate::first_word(line);
        let upper = word.to_ascii_uppercase();
        match upper.as_str() {
            "" => Err(ParseError::Empty),
            "OK" => Ok(Reply::Ok),
            "SWAP" => Ok(Reply::Swap),
            "ERROR" => Ok(Reply::Error(one_line(rest))),
            "UNKNOWN" => Ok(Reply::Unknown(one_line(rest))),
            "MESSAGE" => Ok(Reply::Message(one_line(rest))),
            "DEBUG" => Ok(Reply::Debug(one_line(rest))),
            "SUGGEST" => point_argument("SUGGEST", rest).map(Reply::Suggest),
            _ if line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') => {
                // White space around commas goes, then each word is a point.
                let compact = line.split(',').map(str::trim).collect::<Vec<_>>().join(",");
                let points = compact
                    .split_whitespace()
                    .map(point)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|why| bad("move", why.to_string()))?;
                Ok(match points.as_slice() {
                    [p] => Reply::Move(*p),
                    _ => Reply::Moves(points),
                })
            }
            _ if line.contains('=') => about_pairs(line)
                .map(Reply::About)
                .map_err(|why| bad("ABOUT", why.to_string())),
            _ => Err(ParseError::Unknown(shorten(word))),
        }
    }

    /// The answer to a line that did not parse, as the protocol asks: `UNKNOWN` for a command
    /// not known, `ERROR` for a known command with a bad argument, nothing for an empty line.
    /// A bad `INFO` gets a `MESSAGE` instead of an `ERROR`, since the manager reads no answer
    /// to `INFO` and would take an `ERROR` for the answer to its next command; managers skip
    /// `MESSAGE` lines wherever they come.
    pub fn for_error(error: &ParseError) -> Option<Reply> {
        match error {
            ParseError::Empty => None,
            ParseError::Unknown(_) => Some(Reply::Unknown(error.to_string())),
            ParseError::BadArgument { command, .. } if command == "INFO" => {
                Some(Reply::Message(error.to_string()))
            }
            ParseError::BadArgument { .. } => Some(Reply::Error(error.to_string())),
        }
    }
}
