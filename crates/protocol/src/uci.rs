//! The UCI protocol (Universal Chess Interface), as Stockfish speaks it, with its extensions.
//!
//! | GUI sends | meaning | engine answers |
//! |---|---|---|
//! | `uci` | first line of a session | `id name X`, `id author X`, `option ...` lines, `uciok` |
//! | `debug on\|off` | send extra `info string` lines or not | nothing |
//! | `isready` | synchronise: answer once all earlier commands are done | `readyok` |
//! | `setoption name ID [value V]` | set an option (no value for buttons); both may hold spaces | nothing |
//! | `register ...` | registration (accepted and ignored) | nothing |
//! | `ucinewgame` | the next position is from a new game | nothing |
//! | `position startpos\|fen FEN [moves M...]` | the position to search, then moves played from it | nothing |
//! | `go [searchmoves M...] [ponder] [wtime T] [btime T] [winc T] [binc T] [movestogo N] [depth N] [nodes N] [mate N] [movetime T] [infinite] [perft N]` | search (or count leaf nodes, for `perft`) | `info ...` lines, then `bestmove M [ponder P]` |
//! | `stop` | end the search now | `bestmove ...` |
//! | `ponderhit` | the pondered move was played: the search goes on with the clock | `bestmove ...` when done |
//! | `quit` | end the session | nothing |
//! | `bench [ARGS...]` | Stockfish extension: the built-in benchmark | engine-specific |
//! | `d` | Stockfish extension: print the board | engine-specific |
//! | `eval` | Stockfish extension: print the static evaluation | engine-specific |
//!
//! Moves, FENs and option values stay text: this crate knows no game, so the same module serves
//! chess and xiangqi engines, and the engine checks the text against its own rules.
//!
//! Malformed lines are typed errors. The protocol has no error reply: an engine answers with
//! `info string` naming the problem ([`Reply::InfoString`]) and otherwise ignores the line, and
//! ignores an empty line silently. As the UCI specification asks, unknown tokens inside `go`
//! and after argument-less commands are skipped rather than refused, so a GUI extension never
//! leaves the GUI waiting for a `bestmove` that does not come. `position` is the exception:
//! searching a position other than the one the GUI meant is worse than refusing it.

use std::fmt;

/// `mv` with every rank number in it raised by `by` (lowered when negative): xiangqi's ICCS
/// `h2e2` is Fairy-Stockfish's UCI `h3e3`, and `a9a8` is `a10a9`. Text without numbers, or
/// with `by` 0, is left as it is.
pub fn shift_ranks(mv: &str, by: i32) -> String {
    if by == 0 {
        return mv.to_string();
    }
    let mut out = String::with_capacity(mv.len() + 1);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            // A number too large to shift is no rank: it stays as sent, for the game to refuse.
            match digits.parse::<i32>().ok().and_then(|n| n.checked_add(by)) {
                Some(n) => out.push_str(&n.to_string()),
                None => out.push_str(digits),
            }
            digits.clear();
        }
    };
    for c in mv.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

/// A line from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `uci`.
    Uci,
    /// `debug on` (`true`) or `debug off` (`false`).
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name ID [value V]`.
    SetOption {
        /// The option's name as sent (case kept; UCI matches names case-insensitively, which is
        /// the engine's job), its words joined by single spaces.
        name: String,
        /// The value as text, words joined by single spaces; `None` when no `value` was sent
        /// (buttons), `Some("")` for a bare trailing `value`.
        value: Option<String>,
    },
    /// `register ...`: accepted and ignored, as free engines do.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position ...`.
    Position(Position),
    /// `go ...`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `bench [ARGS...]`: the arguments as text, words joined by single spaces (empty when none).
    Bench(String),
    /// `d`: display the board.
    Display,
    /// `eval`: display the static evaluation.
    Eval,
}

/// Where a `position` command starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// `startpos`: the game's initial position.
    StartPos,
    /// `fen FEN`: the FEN as text, its 2 to 6 fields joined by single spaces.
    Fen(String),
}

/// `position startpos|fen FEN [moves M...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The position before the moves.
    pub start: Start,
    /// The moves played from it, as text (the engine checks them).
    pub moves: Vec<String>,
}

/// The parameters of `go`; absent ones are `None` (or `false`, or empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves M...`: only these root moves; empty means all.
    pub searchmoves: Vec<String>,
    /// `ponder`: search the position after the expected reply, until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `wtime`: milliseconds left on the first player's clock (white, or red in xiangqi).
    /// Negative when the GUI's clock is slightly over.
    pub wtime: Option<i64>,
    /// `btime`: milliseconds left on the second player's clock (black).
    pub btime: Option<i64>,
    /// `winc`: the first player's increment per move, in milliseconds.
    pub winc: Option<i64>,
    /// `binc`: the second player's increment per move, in milliseconds.
    pub binc: Option<i64>,
    /// `movestogo`: moves until the next time control; absent means sudden death.
    pub movestogo: Option<u32>,
    /// `depth`: search this many plies.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes.
    pub nodes: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this many milliseconds.
    pub movetime: Option<i64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `perft`: Stockfish extension, count the leaves at this depth instead of searching.
    pub perft: Option<u32>,
}

impl Go {
    /// Whether the search must go on until `stop`, whatever it finds: UCI forbids a `bestmove`
    /// before `stop` in infinite mode, even after finding a mate or reaching the deepest depth.
    /// (Pondering has the same rule until `ponderhit`; see [`Go::ponder`].)
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// Whether a clock was sent, so that the engine must manage its own time.
    pub fn uses_clock(&self) -> bool {
        self.wtime.is_some() || self.btime.is_some()
    }

    /// The time left and the increment (0 when not sent) of the first player (`first == true`:
    /// `wtime`/`winc`) or of the second (`btime`/`binc`); `None` when that clock was not sent.
    pub fn clock(&self, first: bool) -> Option<(i64, i64)> {
        let (time, inc) = if first {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        time.map(|t| (t, inc.unwrap_or(0)))
    }
}

use crate::bad;
pub use crate::ParseError;

/// The words `go` gives a meaning to: `searchmoves` stops at them, so a GUI that puts
/// `searchmoves` before other parameters is understood (Stockfish would take them as moves).
const GO_WORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Reads one line from the GUI.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let mut tokens = line.split_whitespace();
    let Some(word) = tokens.next() else {
        return Err(ParseError::Empty);
    };
    match word {
        "uci" => Ok(Command::Uci),
        "debug" => match tokens.next() {
            Some("on") => Ok(Command::Debug(true)),
            Some("off") => Ok(Command::Debug(false)),
            Some(other) => Err(bad(
                "debug",
                format!("expected 'on' or 'off', found '{other}'"),
            )),
            None => Err(bad("debug", "'on' or 'off' is missing")),
        },
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(tokens),
        "register" => Ok(Command::Register),
        "ucinewgame" => Ok(Command::UciNewGame),
        "position" => parse_position(tokens).map(Command::Position),
        "go" => parse_go(tokens).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "bench" => Ok(Command::Bench(tokens.collect::<Vec<_>>().join(" "))),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

fn parse_setoption<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Result<Command, ParseError> {
    match tokens.next() {
        Some("name") => {}
        Some(other) => {
            return Err(bad(
                "setoption",
                format!("expected 'name', found '{other}'"),
            ))
        }
        None => return Err(bad("setoption", "'name' is missing")),
    }
    // As in Stockfish, the first `value` ends the name: a name cannot contain that word.
    let mut name = Vec::new();
    let mut value = None;
    for token in tokens.by_ref() {
        if token == "value" {
            value = Some(tokens.collect::<Vec<_>>().join(" "));
            break;
        }
        name.push(token);
    }
    if name.is_empty() {
        return Err(bad("setoption", "the option name is missing"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Position, ParseError> {
    // Stockfish reads every field after the side to move only if present: 4 fields (no
    // clocks) are common in test suites (EPD), and GUIs and Fairy-Stockfish write the board
    // and side alone; the game judges what the fields say.
    position_after("position", 2..=6, tokens)
}

/// `startpos|fen FEN [moves M...]` after `command`, the FEN in `fields` fields: UCI's
/// `position`, and UCCI's `position` and `probe`.
pub(crate) fn position_after<'a>(
    command: &str,
    fields: std::ops::RangeInclusive<usize>,
    mut tokens: impl Iterator<Item = &'a str>,
) -> Result<Position, ParseError> {
    let start = match tokens.next() {
        Some("startpos") => {
            match tokens.next() {
                None | Some("moves") => {}
                Some(other) => {
                    return Err(bad(
                        command,
                        format!("expected 'moves' after 'startpos', found '{other}'"),
                    ))
                }
            }
            Start::StartPos
        }
        Some("fen") => {
            let found: Vec<&str> = tokens.by_ref().take_while(|&t| t != "moves").collect();
            if found.is_empty() {
                return Err(bad(command, "the FEN is missing"));
            }
            if !fields.contains(&found.len()) {
                return Err(bad(
                    command,
                    format!(
                        "the FEN '{}' has {} field{}, expected {} to {}",
                        found.join(" "),
                        found.len(),
                        if found.len() == 1 { "" } else { "s" },
                        fields.start(),
                        fields.end()
                    ),
                ));
            }
            Start::Fen(found.join(" "))
        }
        Some(other) => {
            return Err(bad(
                command,
                format!("expected 'startpos' or 'fen', found '{other}'"),
            ))
        }
        None => return Err(bad(command, "'startpos' or 'fen' is missing")),
    };
    Ok(Position {
        start,
        moves: tokens.map(str::to_string).collect(),
    })
}

/// The number after `key` in a `go` line (UCI's and UCCI's), or why there is none.
pub(crate) fn go_number<'a, T: std::str::FromStr>(
    key: &str,
    tokens: &mut impl Iterator<Item = &'a str>,
) -> Result<T, ParseError> {
    let value = tokens
        .next()
        .ok_or_else(|| bad("go", format!("'{key}' needs a number")))?;
    value
        .parse()
        .map_err(|_| bad("go", format!("'{value}' is not a valid number for '{key}'")))
}

fn parse_go<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Go, ParseError> {
    let mut tokens = tokens.peekable();
    let mut go = Go::default();
    while let Some(token) = tokens.next() {
        match token {
            "searchmoves" => {
                while let Some(&mv) = tokens.peek() {
                    if GO_WORDS.contains(&mv) {
                        break;
                    }
                    go.searchmoves.push(mv.to_string());
                    tokens.next();
                }
            }
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = Some(go_number(token, &mut tokens)?),
            "btime" => go.btime = Some(go_number(token, &mut tokens)?),
            "winc" => go.winc = Some(go_number(token, &mut tokens)?),
            "binc" => go.binc = Some(go_number(token, &mut tokens)?),
            "movestogo" => go.movestogo = Some(go_number(token, &mut tokens)?),
            "depth" => go.depth = Some(go_number(token, &mut tokens)?),
            "nodes" => go.nodes = Some(go_number(token, &mut tokens)?),
            "mate" => go.mate = Some(go_number(token, &mut tokens)?),
            "movetime" => go.movetime = Some(go_number(token, &mut tokens)?),
            "perft" => go.perft = Some(go_number(token, &mut tokens)?),
            // The UCI specification: skip unknown tokens and read the rest of the line.
            _ => {}
        }
    }
    Ok(go)
}

impl fmt::Display for Position {
    /// The `position` line, canonical: `parse` reads it back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Start::StartPos => write!(f, "position startpos")?,
            Start::Fen(fen) => write!(f, "position fen {fen}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Go {
    /// The `go` line, canonical: `parse` reads it back to the same value. `searchmoves` comes
    /// last because Stockfish takes everything after it as moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        if self.ponder {
            write!(f, " ponder")?;
        }
        let numbers = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(i64::from)),
            ("depth", self.depth.map(i64::from)),
            ("mate", self.mate.map(i64::from)),
            ("movetime", self.movetime),
            ("perft", self.perft.map(i64::from)),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        // u64 does not fit the i64 list above.
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if self.infinite {
            write!(f, " infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Command {
    /// The line a GUI would send, canonical: `parse` reads it back to the same value
    /// (`register` loses its arguments, which are ignored anyway).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => write!(f, "uci"),
            Command::Debug(true) => write!(f, "debug on"),
            Command::Debug(false) => write!(f, "debug off"),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value: None } => write!(f, "setoption name {name}"),
            Command::SetOption {
                name,
                value: Some(v),
            } if v.is_empty() => write!(f, "setoption name {name} value"),
            Command::SetOption {
                name,
                value: Some(v),
            } => write!(f, "setoption name {name} value {v}"),
            Command::Register => write!(f, "register"),
            Command::UciNewGame => write!(f, "ucinewgame"),
            Command::Position(p) => write!(f, "{p}"),
            Command::Go(g) => write!(f, "{g}"),
            Command::Stop => write!(f, "stop"),
            Command::PonderHit => write!(f, "ponderhit"),
            Command::Quit => write!(f, "quit"),
            Command::Bench(args) if args.is_empty() => write!(f, "bench"),
            Command::Bench(args) => write!(f, "bench {args}"),
            Command::Display => write!(f, "d"),
            Command::Eval => write!(f, "eval"),
        }
    }
}

/// A score in an `info` line, from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// `cp N`: centipawns (or the game's hundredth of its unit).
    Cp(i32),
    /// `mate N`: mate in N moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(n) => write!(f, "cp {n}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Which side of the true value a score from a failed aspiration search is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `lowerbound`: the true score is at least this (fail high).
    Lower,
    /// `upperbound`: the true score is at most this (fail low).
    Upper,
}

/// The fields of an `info` line; absent ones (`None`, or an empty `pv`) are not printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: the nominal depth, in plies.
    pub depth: Option<u32>,
    /// `seldepth`: the deepest ply reached.
    pub seldepth: Option<u32>,
    /// `multipv`: which of the best lines this is, from 1.
    pub multipv: Option<u32>,
    /// `score ...`.
    pub score: Option<Score>,
    /// `lowerbound`/`upperbound` after the score; printed only with a score.
    pub bound: Option<Bound>,
    /// `nodes`: nodes searched.
    pub nodes: Option<u64>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `hashfull`: how full the hash table is, in permille.
    pub hashfull: Option<u32>,
    /// `time`: milliseconds since the search began.
    pub time: Option<u64>,
    /// `currmove`: the root move being searched.
    pub currmove: Option<String>,
    /// `currmovenumber`: its number among the root moves, from 1.
    pub currmovenumber: Option<u32>,
    /// `pv M...`: the principal variation.
    pub pv: Vec<String>,
}

impl fmt::Display for Info {
    /// The `info` line, fields in Stockfish's order (`pv` last, as it runs to the line's end).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        let before_score = [
            ("depth", self.depth),
            ("seldepth", self.seldepth),
            ("multipv", self.multipv),
        ];
        for (key, value) in before_score {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
            match self.bound {
                Some(Bound::Lower) => write!(f, " lowerbound")?,
                Some(Bound::Upper) => write!(f, " upperbound")?,
                None => {}
            }
        }
        let counts = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time),
        ];
        for (key, value) in counts {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(m) = &self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

/// The type and limits of an option, as declared after `uci`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default D min A max B`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo default D var A var B ...`.
    Combo {
        /// The default, one of `vars`.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// `type string default S` (an empty default is printed `<empty>`, as Stockfish does, since
    /// an empty word cannot be read back).
    String {
        /// The default.
        default: String,
    },
    /// `type button`: an action, set without a value.
    Button,
}

/// A line to the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `id name X`.
    IdName(String),
    /// `id author X`.
    IdAuthor(String),
    /// `option name N type ...`.
    Option {
        /// The name, as the GUI will send it back in `setoption`.
        name: String,
        /// The type, default and limits.
        kind: OptionKind,
    },
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `bestmove M [ponder P]`; `bestmove (none)` when `mv` is `None` (no legal move), and then
    /// no ponder move is printed.
    BestMove {
        /// The move to play.
        mv: Option<String>,
        /// The reply the engine expects, to ponder on.
        ponder: Option<String>,
    },
    /// `info ...`.
    Info(Info),
    /// `info string TEXT`: free text, the UCI way to report errors. Line breaks in the text are
    /// printed as spaces, since the GUI would read a second line as a new reply.
    InfoString(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(n) => write!(f, "id name {n}"),
            Reply::IdAuthor(a) => write!(f, "id author {a}"),
            Reply::Option { name, kind } => {
                write!(f, "option name {name} type ")?;
                match kind {
                    OptionKind::Check { default } => write!(f, "check default {default}"),
                    OptionKind::Spin { default, min, max } => {
                        write!(f, "spin default {default} min {min} max {max}")
                    }
                    OptionKind::Combo { default, vars } => {
                        write!(f, "combo default {default}")?;
                        for v in vars {
                            write!(f, " var {v}")?;
                        }
                        Ok(())
                    }
                    OptionKind::String { default } if default.is_empty() => {
                        write!(f, "string default <empty>")
                    }
                    OptionKind::String { default } => write!(f, "string default {default}"),
                    OptionKind::Button => write!(f, "button"),
                }
            }
            Reply::UciOk => write!(f, "uciok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::BestMove { mv: None, .. } => write!(f, "bestmove (none)"),
            Reply::BestMove {
                mv: Some(mv),
                ponder: None,
            } => write!(f, "bestmove {mv}"),
            Reply::BestMove {
                mv: Some(mv),
                ponder: Some(p),
            } => write!(f, "bestmove {mv} ponder {p}"),
            Reply::Info(info) => write!(f, "{info}"),
            Reply::InfoString(text) => {
                write!(f, "info string {}", crate::one_line(text))
            }
        }
    }
}

/// Reads a number after `key` in a reply line.
fn reply_number<'a, T: std::str::FromStr>(
    command: &str,
    key: &str,
    tokens: &mut impl Iterator<Item = &'a str>,
) -> Result<T, ParseError> {
    let value = tokens
        .next()
        .ok_or_else(|| bad(command, format!("'{key}' needs a number")))?;
    value.parse().map_err(|_| {
        bad(
            command,
            format!("'{value}' is not a valid number for '{key}'"),
        )
    })
}

impl Reply {
    /// Reads one line from an engine, as a GUI or a tournament manager does. `info` fields
    /// this module does not know (`tbhits`, `wdl`, `refutation`...) are skipped, as GUIs skip
    /// them; a known field with a malformed value makes the line an error.
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let (word, rest) = crate::first_word(line);
        match word {
            "" => Err(ParseError::Empty),
            "uciok" => Ok(Reply::UciOk),
            "readyok" => Ok(Reply::ReadyOk),
            "id" => match rest.split_once(char::is_whitespace) {
                Some(("name", n)) => Ok(Reply::IdName(n.trim().to_string())),
                Some(("author", a)) => Ok(Reply::IdAuthor(a.trim().to_string())),
                _ => Err(bad("id", "expected 'name X' or 'author X'")),
            },
            "bestmove" => {
                let mut tokens = rest.split_whitespace();
                let mv = match tokens.next() {
                    None => return Err(bad("bestmove", "the move is missing")),
                    Some("(none)" | "0000") => None,
                    Some(m) => Some(m.to_string()),
                };
                // A ponder move after no move answers nothing: it is dropped, as `Display`
                // writes no ponder without a move (found by the `protocol_lines` fuzz target).
                let ponder = match (tokens.next(), tokens.next()) {
                    (Some("ponder"), Some(p)) if mv.is_some() => Some(p.to_string()),
                    _ => None,
                };
                Ok(Reply::BestMove { mv, ponder })
            }
            "info" if rest.split_whitespace().next() == Some("string") => Ok(Reply::InfoString(
                crate::one_line(rest["string".len()..].trim()),
            )),
            "info" => parse_info(rest).map(Reply::Info),
            "option" => parse_option(rest),
            other => Err(ParseError::Unknown(other.to_string())),
        }
    }
}

fn parse_info(rest: &str) -> Result<Info, ParseError> {
    let mut info = Info::default();
    let mut tokens = rest.split_whitespace();
    while let Some(token) = tokens.next() {
        let t = &mut tokens;
        match token {
            "depth" => info.depth = Some(reply_number("info", token, t)?),
            "seldepth" => info.seldepth = Some(reply_number("info", token, t)?),
            "multipv" => info.multipv = Some(reply_number("info", token, t)?),
            "nodes" => info.nodes = Some(reply_number("info", token, t)?),
            "nps" => info.nps = Some(reply_number("info", token, t)?),
            "hashfull" => info.hashfull = Some(reply_number("info", token, t)?),
            "time" => info.time = Some(reply_number("info", token, t)?),
            "currmovenumber" => info.currmovenumber = Some(reply_number("info", token, t)?),
            "currmove" => {
                info.currmove = Some(
                    t.next()
                        .ok_or_else(|| bad("info", "'currmove' needs a move"))?
                        .to_string(),
                )
            }
            "score" => {
                info.score = Some(match t.next() {
                    Some("cp") => Score::Cp(reply_number("info", "score cp", t)?),
                    Some("mate") => Score::Mate(reply_number("info", "score mate", t)?),
                    _ => return Err(bad("info", "'score' needs 'cp N' or 'mate N'")),
                })
            }
            "lowerbound" => info.bound = Some(Bound::Lower),
            "upperbound" => info.bound = Some(Bound::Upper),
            "pv" => {
                info.pv = t.map(str::to_string).collect();
            }
            _ => {}
        }
    }
    // A bound bounds a score: without one it means nothing, and `Display` drops it.
    if info.score.is_none() {
        info.bound = None;
    }
    Ok(info)
}

/// `option name N type T [default D] [min A] [max B] [var V]...`; names and values may hold
/// spaces, so each runs to the next keyword.
fn parse_option(rest: &str) -> Result<Reply, ParseError> {
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for token in rest.split_whitespace() {
        match fields.last_mut() {
            Some((key, words)) if !KEYS.contains(&token) || (*key == "name" && token != "type") => {
                words.push(token)
            }
            _ if KEYS.contains(&token) => fields.push((token, Vec::new())),
            _ => return Err(bad("option", format!("unexpected '{token}'"))),
        }
    }
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, w)| w.join(" "))
    };
    let name = get("name").filter(|n| !n.is_empty());
    let name = name.ok_or_else(|| bad("option", "the name is missing"))?;
    let default = get("default").unwrap_or_default();
    let int = |key: &str| -> Result<i64, ParseError> {
        let v = get(key).unwrap_or_default();
        v.parse()
            .map_err(|_| bad("option", format!("'{v}' is not a valid number for '{key}'")))
    };
    let kind = match get("type").as_deref() {
        Some("check") => OptionKind::Check {
            default: default == "true",
        },
        Some("spin") => OptionKind::Spin {
            default: int("default")?,
            min: int("min")?,
            max: int("max")?,
        },
        Some("combo") => OptionKind::Combo {
            default,
            vars: fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, w)| w.join(" "))
                .collect(),
        },
        Some("string") if default == "<empty>" => OptionKind::String {
            default: String::new(),
        },
        Some("string") => OptionKind::String { default },
        Some("button") => OptionKind::Button,
        Some(other) => return Err(bad("option", format!("unknown type '{other}'"))),
        None => return Err(bad("option", "the type is missing")),
    };
    Ok(Reply::Option { name, kind })
}

#[cfg(test)]
mod tests {
    use super::shift_ranks;

    #[test]
    fn ranks_shift_between_iccs_and_fairy_stockfish_uci() {
        assert_eq!(shift_ranks("h2e2", 1), "h3e3");
        assert_eq!(shift_ranks("a9a8", 1), "a10a9");
        assert_eq!(shift_ranks("a10a9", -1), "a9a8");
        assert_eq!(shift_ranks("e2e4", 0), "e2e4");
        assert_eq!(shift_ranks("(none)", 1), "(none)");
        // A GUI's garbage never overflows.
        assert_eq!(shift_ranks("a2147483647b1", 1), "a2147483647b2");
        assert_eq!(shift_ranks("a99999999999b1", -1), "a99999999999b0");
    }
}
