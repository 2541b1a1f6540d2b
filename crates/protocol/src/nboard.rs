//! The NBoard protocol (version 2), spoken by the NBoard Othello GUI.
//!
//! | GUI sends | meaning | engine answers |
//! |---|---|---|
//! | `nboard 2` | protocol version, first line of a session | `set myname NAME` |
//! | `set depth N` | midgame search depth | nothing |
//! | `set game GGF` | all further commands concern the end of this game | nothing |
//! | `set contempt N` | contempt, in centi-discs | nothing |
//! | `move MV[/EVAL[/TIME]]` | a move was played (also bare `MV`), TIME in seconds | nothing |
//! | `hint N` | evaluate the best N moves | `status ...`, `search PV EVAL 0 DEPTH` and `book PV EVAL GAMES DEPTH` lines, `status` |
//! | `go` | choose a move (the board is not changed) | `status ...`, `nodestats ...`, `=== MV/EVAL/TIME`, `status` |
//! | `ping N` | stop thinking, then acknowledge | `pong N` |
//! | `learn` | add the game to the book | `learned` |
//! | `analyze` | evaluate every position of the game | `analysis MOVE_NUMBER EVAL` lines, `status` |
//! | `quit` | end the session | nothing |
//!
//! The protocol has no error reply: malformed lines are answered with a `status` line naming the
//! problem (the GUI shows it) and otherwise ignored, as the protocol asks of unknown commands.

use std::fmt;

/// A line from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `nboard VERSION`.
    Nboard(u32),
    /// `set depth N`.
    SetDepth(u32),
    /// `set game GGF`: the GGF text, unparsed (the game crate reads it).
    SetGame(String),
    /// `set contempt N`.
    SetContempt(i32),
    /// `move MV/EVAL/TIME`, or a bare move: the move text and the time it took (seconds),
    /// both unparsed (the game checks the move, the engine the time; the evaluation is left
    /// out, as it is only the mover's opinion).
    Move {
        /// The move, `F5` or `PA`.
        mv: String,
        /// The time field when there is one, `3.2`.
        time: Option<String>,
    },
    /// `hint N`.
    Hint(u32),
    /// `go`.
    Go,
    /// `ping N`: the token is echoed as given.
    Ping(String),
    /// `learn`.
    Learn,
    /// `analyze`.
    Analyze,
    /// `quit`.
    Quit,
}

use crate::bad;
pub use crate::ParseError;

fn number<T: std::str::FromStr>(command: &str, arg: Option<&str>) -> Result<T, ParseError> {
    let arg = arg.ok_or_else(|| bad(command, "a number is missing"))?;
    arg.parse()
        .map_err(|_| bad(command, format!("'{arg}' is not a valid number")))
}

/// Reads one line from the GUI.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let (word, rest) = crate::first_word(line);
    let first_arg = rest.split_whitespace().next();
    match word {
        "" => Err(ParseError::Empty),
        "nboard" => Ok(Command::Nboard(number("nboard", first_arg)?)),
        "set" => {
            let (what, value) = match rest.split_once(char::is_whitespace) {
                Some((w, v)) => (w, v.trim()),
                None => (rest, ""),
            };
            match what {
                "depth" => {
                    let d: u32 = number("set depth", value.split_whitespace().next())?;
                    if d == 0 || d > 60 {
                        return Err(bad("set depth", format!("{d} is not in 1..=60")));
                    }
                    Ok(Command::SetDepth(d))
                }
                "game" if value.is_empty() => Err(bad("set game", "the GGF game is missing")),
                "game" => Ok(Command::SetGame(value.to_string())),
                "contempt" => Ok(Command::SetContempt(number(
                    "set contempt",
                    value.split_whitespace().next(),
                )?)),
                "" => Err(bad("set", "nothing to set")),
                other => Err(ParseError::Unknown(format!("set {other}"))),
            }
        }
        "move" => match first_arg {
            // The evaluation is advisory; the time counts on the clock of a timed game.
            Some(text) => {
                let mut fields = text.split('/');
                let mv = fields.next().unwrap_or(text).to_string();
                if mv.is_empty() {
                    return Err(bad("move", "the move is missing before its '/'"));
                }
                let time = fields.nth(1).filter(|t| !t.is_empty()).map(str::to_string);
                Ok(Command::Move { mv, time })
            }
            None => Err(bad("move", "the move is missing")),
        },
        "hint" => {
            let n: u32 = number("hint", first_arg)?;
            if n == 0 {
                return Err(bad("hint", "0 moves asked for"));
            }
            Ok(Command::Hint(n))
        }
        "go" => Ok(Command::Go),
        "ping" => Ok(Command::Ping(first_arg.unwrap_or("").to_string())),
        "learn" => Ok(Command::Learn),
        "analyze" => Ok(Command::Analyze),
        "quit" => Ok(Command::Quit),
        // NBoard 1.1 sent bare moves ("F5"); accept any two-letter-or-digit word as one (a
        // '/' would read back as the end of the move: found by the `protocol_lines` fuzz
        // target with `/x`).
        w if w.len() == 2 && rest.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric()) => {
            Ok(Command::Move {
                mv: w.to_string(),
                time: None,
            })
        }
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

/// A line to the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `set myname NAME`.
    MyName(String),
    /// `pong N`.
    Pong(String),
    /// `status TEXT` (empty text clears the status line).
    Status(String),
    /// `nodestats NODES SECONDS`.
    NodeStats {
        /// Nodes since the search began.
        nodes: u64,
        /// Seconds since the search began.
        seconds: f64,
    },
    /// `=== MV/EVAL/TIME`: the move the engine would play.
    Best {
        /// The move.
        mv: String,
        /// Its value in discs, from the side to move.
        eval: f64,
        /// Seconds spent.
        seconds: f64,
    },
    /// `search PV EVAL 0 DEPTH`: one evaluated move for `hint`.
    Search {
        /// The line, moves written together without spaces (`F5d6C3`).
        pv: String,
        /// Value in discs, from the side to move.
        eval: f64,
        /// Depth searched; `100%` style exact results are shown as the depth to the end.
        depth: String,
    },
    /// `book PV EVAL GAMES DEPTH`: one move of `hint` from the opening book.
    Book {
        /// The line, moves written together without spaces (`F5d6C3`).
        pv: String,
        /// Value in discs, from the side to move.
        eval: f64,
        /// Games the book learned this move from (0 for a book grown by search alone).
        games: u64,
        /// Depth of the search the value rests on, or `100%` where it is solved.
        depth: String,
    },
    /// `learned`.
    Learned,
    /// `analysis MOVE_NUMBER EVAL`: the value of the position after `MOVE_NUMBER` moves.
    Analysis {
        /// Moves played before the position.
        move_number: usize,
        /// Value in discs, from the side to move.
        eval: f64,
    },
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::MyName(n) => write!(f, "set myname {n}"),
            Reply::Pong(n) if n.is_empty() => write!(f, "pong"),
            Reply::Pong(n) => write!(f, "pong {n}"),
            Reply::Status(s) if s.is_empty() => write!(f, "status"),
            Reply::Status(s) => write!(f, "status {}", crate::one_line(s)),
            Reply::NodeStats { nodes, seconds } => write!(f, "nodestats {nodes} {seconds:.2}"),
            Reply::Best { mv, eval, seconds } => write!(f, "=== {mv}/{eval:.2}/{seconds:.1}"),
            Reply::Search { pv, eval, depth } => write!(f, "search {pv} {eval:.2} 0 {depth}"),
            Reply::Book {
                pv,
                eval,
                games,
                depth,
            } => write!(f, "book {pv} {eval:.2} {games} {depth}"),
            Reply::Learned => write!(f, "learned"),
            Reply::Analysis { move_number, eval } => write!(f, "analysis {move_number} {eval:.2}"),
        }
    }
}

impl fmt::Display for Command {
    /// The line a GUI (or a match runner) sends; `parse` reads it back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Nboard(v) => write!(f, "nboard {v}"),
            Command::SetDepth(d) => write!(f, "set depth {d}"),
            Command::SetGame(g) => write!(f, "set game {g}"),
            Command::SetContempt(c) => write!(f, "set contempt {c}"),
            Command::Move { mv, time: None } => write!(f, "move {mv}"),
            Command::Move { mv, time: Some(t) } => write!(f, "move {mv}//{t}"),
            Command::Hint(n) => write!(f, "hint {n}"),
            Command::Go => write!(f, "go"),
            Command::Ping(n) if n.is_empty() => write!(f, "ping"),
            Command::Ping(n) => write!(f, "ping {n}"),
            Command::Learn => write!(f, "learn"),
            Command::Analyze => write!(f, "analyze"),
            Command::Quit => write!(f, "quit"),
        }
    }
}

/// A number of a reply, rounded to the hundredths that [`Reply`]'s `Display` writes (values
/// in discs, times in seconds), so that a reply prints back to what reads the same: finer
/// digits are below what NBoard shows (found by the `protocol_lines` fuzz target).
fn decimal(command: &str, text: Option<&str>) -> Result<f64, ParseError> {
    decimal_to(command, text, 100.0)
}

/// [`decimal`] rounded to `1 / scale`.
fn decimal_to(command: &str, text: Option<&str>, scale: f64) -> Result<f64, ParseError> {
    let text = text.ok_or_else(|| bad(command, "a number is missing"))?;
    text.parse::<f64>()
        .ok()
        .map(|x| (x * scale).round() / scale)
        .filter(|x| x.is_finite())
        .ok_or_else(|| bad(command, format!("'{text}' is not a valid number")))
}

impl Reply {
    /// Reads one line from an engine, as the GUI (or a match runner) does. `=== MV` may come
    /// without its value and time, or with them empty (`=== B7//0.00`), which are then 0.
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let (word, rest) = crate::first_word(line);
        let mut args = rest.split_whitespace();
        match word {
            "" => Err(ParseError::Empty),
            "set" => match rest.split_once(char::is_whitespace) {
                Some(("myname", name)) => Ok(Reply::MyName(name.trim().to_string())),
                _ => Err(ParseError::Unknown(format!("set {rest}"))),
            },
            "pong" => Ok(Reply::Pong(rest.to_string())),
            "status" => Ok(Reply::Status(crate::one_line(rest))),
            "learned" => Ok(Reply::Learned),
            "nodestats" => Ok(Reply::NodeStats {
                nodes: number("nodestats", args.next())?,
                seconds: decimal("nodestats", args.next())?,
            }),
            "===" => {
                let text = args
                    .next()
                    .ok_or_else(|| bad("===", "the move is missing"))?;
                let mut parts = text.split('/');
                let mv = parts.next().unwrap_or_default().to_string();
                // An empty field is a missing one: NTest answers a forced move `=== B7//0.00`.
                let mut field = || parts.next().filter(|v| !v.is_empty());
                let eval = field().map_or(Ok(0.0), |v| decimal("===", Some(v)))?;
                // Written with one decimal.
                let seconds = field().map_or(Ok(0.0), |v| decimal_to("===", Some(v), 10.0))?;
                Ok(Reply::Best { mv, eval, seconds })
            }
            "search" => {
                let pv = args
                    .next()
                    .ok_or_else(|| bad("search", "the line is missing"))?;
                let eval = decimal("search", args.next())?;
                let _zero = args.next();
                let depth = args
                    .next()
                    .ok_or_else(|| bad("search", "the depth is missing"))?;
                Ok(Reply::Search {
                    pv: pv.to_string(),
                    eval,
                    depth: depth.to_string(),
                })
            }
            "book" => {
                let pv = args
                    .next()
                    .ok_or_else(|| bad("book", "the line is missing"))?;
                let eval = decimal("book", args.next())?;
                let games = number("book", args.next())?;
                let depth = args
                    .next()
                    .ok_or_else(|| bad("book", "the depth is missing"))?;
                Ok(Reply::Book {
                    pv: pv.to_string(),
                    eval,
                    games,
                    depth: depth.to_string(),
                })
            }
            "analysis" => Ok(Reply::Analysis {
                move_number: number("analysis", args.next())?,
                eval: decimal("analysis", args.next())?,
            }),
            other => Err(ParseError::Unknown(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_lines() {
        assert_eq!(parse("nboard 2"), Ok(Command::Nboard(2)));
        assert_eq!(parse("set depth 12"), Ok(Command::SetDepth(12)));
        assert_eq!(parse("set contempt -150"), Ok(Command::SetContempt(-150)));
        let ggf = "(;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
        assert_eq!(
            parse(&format!("set game {ggf}")),
            Ok(Command::SetGame(ggf.to_string()))
        );
        let mv = |m: &str, t: Option<&str>| Command::Move {
            mv: m.into(),
            time: t.map(Into::into),
        };
        assert_eq!(parse("move F5/-1.00/3.2"), Ok(mv("F5", Some("3.2"))));
        assert_eq!(parse("move F5//x"), Ok(mv("F5", Some("x"))));
        assert_eq!(parse("move F5/1.5"), Ok(mv("F5", None)));
        assert_eq!(parse("move F5//"), Ok(mv("F5", None)));
        assert_eq!(parse("move PA"), Ok(mv("PA", None)));
        assert_eq!(parse("F5"), Ok(mv("F5", None)));
        assert_eq!(parse("hint 3"), Ok(Command::Hint(3)));
        assert_eq!(parse("  go  "), Ok(Command::Go));
        assert_eq!(parse("ping 17"), Ok(Command::Ping("17".into())));
        assert_eq!(parse("learn"), Ok(Command::Learn));
        assert_eq!(parse("analyze"), Ok(Command::Analyze));
        assert_eq!(parse("quit"), Ok(Command::Quit));
    }

    /// What a match runner sends reads back as the same command.
    #[test]
    fn commands_print_as_they_parse() {
        for c in [
            Command::Nboard(2),
            Command::SetDepth(12),
            Command::SetGame("(;GM[Othello]PC[x];)".into()),
            Command::SetContempt(-150),
            Command::Move {
                mv: "F5".into(),
                time: None,
            },
            Command::Move {
                mv: "F5".into(),
                time: Some("0.25".into()),
            },
            Command::Hint(3),
            Command::Go,
            Command::Ping("7".into()),
            Command::Learn,
            Command::Analyze,
            Command::Quit,
        ] {
            assert_eq!(parse(&c.to_string()), Ok(c.clone()), "{c}");
        }
    }

    /// A bare word with a '/' is no move, and `move /x` has none: each printed back would
    /// read as another command (the `protocol_lines` fuzz target's `/x`).
    #[test]
    fn a_move_is_never_empty() {
        assert!(matches!(parse("/x"), Err(ParseError::Unknown(_))));
        assert!(parse("move /x").is_err());
        let c = parse("f5").unwrap();
        assert_eq!(parse(&c.to_string()), Ok(c));
    }

    /// Digits finer than the reply is written with are rounded when read, so that what reads
    /// prints back to the same reply (the `protocol_lines` fuzz target's
    /// `nodestats 100 0.511111111111111111111`).
    #[test]
    fn numbers_are_read_to_the_digits_replies_print() {
        let r = Reply::parse("nodestats 100 0.511111111111111111111").unwrap();
        assert_eq!(r.to_string(), "nodestats 100 0.51");
        assert_eq!(Reply::parse(&r.to_string()), Ok(r));
        let r = Reply::parse("=== F5/1.23456/0.987").unwrap();
        assert_eq!(r.to_string(), "=== F5/1.23/1.0");
        assert_eq!(Reply::parse(&r.to_string()), Ok(r));
        let r = Reply::parse("search F5d6 -0.125 0 12").unwrap();
        assert_eq!(Reply::parse(&r.to_string()), Ok(r));
    }

    /// What an engine answers reads back as the reply it printed; bad lines are typed errors.
    #[test]
    fn replies_parse_as_they_print() {
        for r in [
            Reply::MyName("duel 0.1".into()),
            Reply::Pong("3".into()),
            Reply::Status("duel is thinking".into()),
            Reply::NodeStats {
                nodes: 35805,
                seconds: 0.5,
            },
            Reply::Best {
                mv: "d6".into(),
                eval: -1.0,
                seconds: 0.5,
            },
            Reply::Search {
                pv: "F5d6C3".into(),
                eval: 2.5,
                depth: "12".into(),
            },
            Reply::Book {
                pv: "F5d6".into(),
                eval: 0.0,
                games: 0,
                depth: "14".into(),
            },
            Reply::Learned,
            Reply::Analysis {
                move_number: 8,
                eval: 4.0,
            },
        ] {
            assert_eq!(Reply::parse(&r.to_string()), Ok(r.clone()), "{r}");
        }
        assert_eq!(
            Reply::parse("=== PA"),
            Ok(Reply::Best {
                mv: "PA".into(),
                eval: 0.0,
                seconds: 0.0
            })
        );
        // NTest's answer when it has one legal move and searches nothing.
        assert_eq!(
            Reply::parse("=== B7//0.00"),
            Ok(Reply::Best {
                mv: "B7".into(),
                eval: 0.0,
                seconds: 0.0
            })
        );
        assert_eq!(Reply::parse(""), Err(ParseError::Empty));
        assert!(matches!(Reply::parse("hello"), Err(ParseError::Unknown(w)) if w == "hello"));
        for bad in [
            "===",
            "=== d6/x",
            "nodestats 1",
            "analysis x 1",
            "search F5",
        ] {
            assert!(
                matches!(Reply::parse(bad), Err(ParseError::BadArgument { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn malformed_lines_are_typed_errors() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert!(matches!(parse("fly away"), Err(ParseError::Unknown(c)) if c == "fly"));
        assert!(
            matches!(parse("set colour red"), Err(ParseError::Unknown(c)) if c == "set colour")
        );
        for line in [
            "set depth",
            "set depth x",
            "set depth 0",
            "set depth 99",
            "hint",
            "hint -1",
            "hint 0",
            "move",
            "set game",
            "nboard two",
            "set",
        ] {
            assert!(
                matches!(parse(line), Err(ParseError::BadArgument { .. })),
                "{line}"
            );
        }
        let e = parse("set depth x").unwrap_err().to_string();
        assert!(e.contains("set depth") && e.contains("'x'"), "{e}");
    }

    #[test]
    fn replies_print_as_the_protocol_wants() {
        assert_eq!(Reply::MyName("duel".into()).to_string(), "set myname duel");
        assert_eq!(Reply::Pong("3".into()).to_string(), "pong 3");
        assert_eq!(Reply::Status(String::new()).to_string(), "status");
        // A lone `\r` inside a line prints and reads as a space: printed text stays one line.
        assert_eq!(Reply::parse("status a\rb"), Ok(Reply::Status("a b".into())));
        assert_eq!(Reply::Status("a\nb".into()).to_string(), "status a b");
        assert_eq!(
            Reply::Best {
                mv: "d6".into(),
                eval: -1.0,
                seconds: 0.25
            }
            .to_string(),
            "=== d6/-1.00/0.2"
        );
        assert_eq!(
            Reply::Search {
                pv: "F5d6C3".into(),
                eval: 2.5,
                depth: "12".into()
            }
            .to_string(),
            "search F5d6C3 2.50 0 12"
        );
        assert_eq!(
            Reply::NodeStats {
                nodes: 35805,
                seconds: 0.004
            }
            .to_string(),
            "nodestats 35805 0.00"
        );
        assert_eq!(
            Reply::Analysis {
                move_number: 8,
                eval: 4.0
            }
            .to_string(),
            "analysis 8 4.00"
        );
    }
}
