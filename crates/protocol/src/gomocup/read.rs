//! The manager's lines: one-line commands, the blocks (`BOARD`, `SWAP2BOARD` and Yixin's
//! `YX` ones), and the reading of a line off the wire.

use std::fmt;
use std::io::{self, BufRead};

use super::{Command, Field, Info, ParseError, Point, MAX_BLOCK_LINES, MAX_LINE};
use crate::bad;

/// The command words, as the manager writes them: Gomocup's, then Yixin Board's.
const WORDS: [&str; 24] = [
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
    "STOP",
    "YXSTOP",
    "YXBOARD",
    "YXNBEST",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXSHOWHASHUSAGE",
    "YXSHOWINFO",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
];

/// The command word `word` is, in the manager's spelling, whatever its case.
fn command_word(word: &str) -> Option<&'static str> {
    WORDS.iter().copied().find(|w| w.eq_ignore_ascii_case(word))
}

/// `text` cut to a length fit for an error message.
pub(super) fn shorten(text: &str) -> String {
    const MOST: usize = 40;
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Why an argument or a block's line is not what the protocol asks, before it is named in a
/// [`ParseError`]. The texts are shortened (see `shorten`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum Why {
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
pub(super) fn number<T: std::str::FromStr<Err = std::num::ParseIntError>>(
    text: &str,
) -> Result<T, Why> {
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
pub(super) fn numbers<const N: usize>(text: &str) -> Result<[u32; N], Why> {
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
pub(super) fn point(text: &str) -> Result<Point, Why> {
    match numbers::<2>(text) {
        Ok([x, y]) => Ok(Point { x, y }),
        Err(why) => Err(Why::NotAPoint {
            text: shorten(text),
            why: Box::new(why),
        }),
    }
}

/// The point argument of `command`.
pub(super) fn point_argument(command: &str, rest: &str) -> Result<Point, ParseError> {
    if rest.is_empty() {
        return Err(bad(command, format!("{command} needs a point x,y")));
    }
    point(rest).map_err(|why| bad(command, why.to_string()))
}

/// What one line from the manager is, blocks apart.
enum Line {
    /// A whole command.
    Command(Command),
    /// A block begins (`BOARD`, `SWAP2BOARD`, `YXBOARD`, `YXBLOCK`, `YXBLOCKUNDO`).
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
        "STOP" | "YXSTOP" => Command::Stop,
        "YXNBEST" => {
            if rest.is_empty() {
                return Err(bad(name, "YXNBEST needs the number of moves"));
            }
            match number::<u32>(rest) {
                Ok(0) => return Err(bad(name, "YXNBEST 0: at least 1 move")),
                Ok(n) => Command::YxNBest(n),
                Err(why) => return Err(bad(name, why.to_string())),
            }
        }
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXSHOWHASHUSAGE" => Command::YxShowHashUsage,
        "YXSHOWINFO" => Command::YxShowInfo,
        "YXBLOCKRESET" => Command::YxBlockReset,
        "BOARD" | "YXBOARD" => return Ok(Line::Open(Block::stones(name))),
        "SWAP2BOARD" | "YXBLOCK" | "YXBLOCKUNDO" => return Ok(Line::Open(Block::points(name))),
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
        "thread_num" => Info::ThreadNum(number(value).map_err(fail)?),
        "max_depth" => Info::MaxDepth(number(value).map_err(fail)?),
        "max_node" => Info::MaxNode(number(value).map_err(fail)?),
        _ => Info::Other {
            key,
            value: value.to_string(),
        },
    })
}

/// Reads one line from the manager, for the one-line commands. The words that open a block
/// (`BOARD`, `SWAP2BOARD`, `YXBOARD`, `YXBLOCK`, `YXBLOCKUNDO`) and `DONE` are refused with
/// [`ParseError::BadArgument`]: blocks need a [`Reader`], which uses this for every line
/// outside a block.
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
    bad(
        "DONE",
        "DONE without BOARD, SWAP2BOARD or a YX block before it",
    )
}

/// The data of an open block.
enum BlockKind {
    /// `x,y,field` lines: `BOARD`, `YXBOARD`.
    Stones(Vec<(Point, Field)>),
    /// `x,y` lines: `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`.
    Points(Vec<Point>),
}

/// A block being read.
struct Block {
    /// The command word that opened it.
    name: &'static str,
    kind: BlockKind,
    /// Data lines read so far, empty lines not counted.
    lines: usize,
    /// The first bad line: its number, its text (shortened) and what is wrong with it.
    first_error: Option<(usize, String, Why)>,
    /// Bad lines after the first.
    more_errors: usize,
}

impl Block {
    fn new(name: &'static str, kind: BlockKind) -> Block {
        Block {
            name,
            kind,
            lines: 0,
            first_error: None,
            more_errors: 0,
        }
    }

    /// A block of stones opened by `name`.
    fn stones(name: &'static str) -> Block {
        Block::new(name, BlockKind::Stones(Vec::new()))
    }

    /// A block of points opened by `name`.
    fn points(name: &'static str) -> Block {
        Block::new(name, BlockKind::Points(Vec::new()))
    }

    fn name(&self) -> &'static str {
        self.name
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
            BlockKind::Stones(_) => "x,y,field",
            BlockKind::Points(_) => "x,y",
        };
        if let Some(command) = command_word(word) {
            return Err(Why::Command { expected, command });
        }
        match &mut self.kind {
            BlockKind::Stones(stones) => {
                let [x, y, n] = numbers::<3>(line).map_err(|why| Why::NotAStone(Box::new(why)))?;
                let field = Field::from_number(n).ok_or(Why::Field(n))?;
                stones.push((Point { x, y }, field));
            }
            BlockKind::Points(points) => points.push(point(line)?),
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
        match (name, self.kind) {
            ("YXBOARD", BlockKind::Stones(stones)) => Ok(Command::YxBoard(stones)),
            (_, BlockKind::Stones(stones)) => Ok(Command::Board(stones)),
            ("YXBLOCK", BlockKind::Points(points)) => Ok(Command::YxBlock(points)),
            ("YXBLOCKUNDO", BlockKind::Points(points)) => Ok(Command::YxBlockUndo(points)),
            (_, BlockKind::Points(points)) if matches!(points.len(), 0 | 3 | 5) => {
                Ok(Command::Swap2Board(points))
            }
            (_, BlockKind::Points(points)) => Err(bad(
                name,
                format!("SWAP2BOARD sends 0, 3 or 5 stones, found {}", points.len()),
            )),
        }
    }
}

/// Reads the manager's lines one by one, collecting the blocks (`BOARD`, `SWAP2BOARD` and
/// Yixin's `YXBOARD`, `YXBLOCK`, `YXBLOCKUNDO`).
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

    /// Whether a block is open, waiting for its `DONE`.
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
    ///   with [`Reply::for_error`](super::Reply::for_error).
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
