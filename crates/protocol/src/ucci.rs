//! UCCI 3.0 (Universal Chinese Chess Interface), as ElephantEye speaks it: the xiangqi
//! engines' protocol, UCI's cousin.
//!
//! | GUI sends | meaning | engine answers |
//! |---|---|---|
//! | `ucci` | first line of a session | `id name X`, `id copyright X`, `id author X`, `id user X`, `option ...` lines, `ucciok` |
//! | `isready` | synchronise | `readyok` |
//! | `setoption NAME [VALUE]` | an option, no `name`/`value` keywords (`setoption hashsize 64`, `setoption newgame`) | nothing |
//! | `position startpos\|fen FEN [moves M...]` | the position, moves in ICCS (`h2e2`) | nothing |
//! | `banmoves M...` | moves the next search must not play (the GUI's ruling on a repetition) | nothing |
//! | `go [ponder\|draw] [depth N\|depth infinite\|nodes N\|time T [movestogo N\|increment I] [opptime T [oppmovestogo N\|oppincrement I]]]` | search; `draw`: the opponent offers a draw; no mode: until `stop` | `info ...` lines, then `bestmove M [ponder P] [draw\|resign]` or `nobestmove` |
//! | `ponderhit [draw]` | the pondered move was played (`draw`: with a draw offer) | `bestmove ...` when done |
//! | `stop` | end the search now; with none running | `bestmove ...`, or `nobestmove` |
//! | `probe startpos\|fen FEN [moves M...]` | what the engine's table knows of a position | `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]` |
//! | `quit` | end the session | `bye` |
//!
//! Times are milliseconds when the engine announces `option usemillisec type check default
//! true` and the GUI leaves it on (as ElephantEye 3.3 does), seconds when the GUI turns it off.
//! This crate keeps the numbers as sent; the engine scales them.
//!
//! The protocol has no error reply: an engine names a problem in `info message TEXT`
//! ([`Reply::Message`]) and otherwise ignores the line.

use std::fmt;

use crate::uci::{go_number, position_after, Position};
use crate::{bad, ParseError};

/// A line from the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `ucci`.
    Ucci,
    /// `isready`.
    IsReady,
    /// `setoption NAME [VALUE]`: the name as sent, the rest of the line as the value (`None`
    /// for a button such as `newgame`).
    SetOption {
        /// The option.
        name: String,
        /// Its value, words joined by single spaces.
        value: Option<String>,
    },
    /// `position ...`.
    Position(Position),
    /// `banmoves M...`.
    BanMoves(Vec<String>),
    /// `go ...`.
    Go(Go),
    /// `ponderhit`, or `ponderhit draw` (`true`) with a draw offer.
    PonderHit(bool),
    /// `stop`.
    Stop,
    /// `probe ...`.
    Probe(Position),
    /// `quit`.
    Quit,
}

/// The parameters of `go`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Go {
    /// `go ponder`: think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `go draw`: the opponent offers a draw (the engine may answer `bestmove M draw`).
    pub draw: bool,
    /// `depth N`.
    pub depth: Option<u32>,
    /// `depth infinite`, or no mode at all: until `stop`.
    pub infinite: bool,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `time T`: the time left on the engine's clock, in the session's unit.
    pub time: Option<u64>,
    /// `movestogo N`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `increment I`: added to the engine's clock after each move.
    pub increment: Option<u64>,
    /// `opptime T`: the opponent's clock.
    pub opptime: Option<u64>,
    /// `oppmovestogo N`.
    pub oppmovestogo: Option<u32>,
    /// `oppincrement I`.
    pub oppincrement: Option<u64>,
}

/// Reads one line from the GUI.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let mut tokens = line.split_whitespace();
    let Some(word) = tokens.next() else {
        return Err(ParseError::Empty);
    };
    match word {
        "ucci" => Ok(Command::Ucci),
        "isready" => Ok(Command::IsReady),
        "setoption" => {
            let name = tokens
                .next()
                .ok_or_else(|| bad("setoption", "the option's name is missing"))?;
            let value: Vec<&str> = tokens.collect();
            Ok(Command::SetOption {
                name: name.to_string(),
                value: (!value.is_empty()).then(|| value.join(" ")),
            })
        }
        // A position's FEN in UCCI may stop after the side to move (ElephantEye's own start
        // does).
        "position" => position_after("position", 1..=6, tokens).map(Command::Position),
        "probe" => position_after("probe", 1..=6, tokens).map(Command::Probe),
        "banmoves" => Ok(Command::BanMoves(tokens.map(str::to_string).collect())),
        "go" => parse_go(tokens).map(Command::Go),
        "ponderhit" => match tokens.next() {
            None => Ok(Command::PonderHit(false)),
            Some("draw") => Ok(Command::PonderHit(true)),
            Some(other) => Err(bad(
                "ponderhit",
                format!("expected nothing or 'draw', found '{other}'"),
            )),
        },
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        other => Err(ParseError::Unknown(other.to_string())),
    }
}

fn parse_go<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut tokens = tokens.peekable();
    match tokens.peek() {
        Some(&"ponder") => {
            go.ponder = true;
            tokens.next();
        }
        Some(&"draw") => {
            go.draw = true;
            tokens.next();
        }
        _ => {}
    }
    while let Some(key) = tokens.next() {
        match key {
            "depth" => {
                if tokens.peek() == Some(&"infinite") {
                    tokens.next();
                    go.infinite = true;
                } else {
                    go.depth = Some(go_number(key, &mut tokens)?);
                }
            }
            "nodes" => go.nodes = Some(go_number(key, &mut tokens)?),
            "time" => go.time = Some(go_number(key, &mut tokens)?),
            "movestogo" => go.movestogo = Some(go_number(key, &mut tokens)?),
            "increment" => go.increment = Some(go_number(key, &mut tokens)?),
            "opptime" => go.opptime = Some(go_number(key, &mut tokens)?),
            "oppmovestogo" => go.oppmovestogo = Some(go_number(key, &mut tokens)?),
            "oppincrement" => go.oppincrement = Some(go_number(key, &mut tokens)?),
            "ponder" | "draw" => {
                return Err(bad("go", format!("'{key}' must come right after 'go'")))
            }
            other => return Err(bad("go", format!("unknown parameter '{other}'"))),
        }
    }
    if go.depth.is_none() && go.nodes.is_none() && go.time.is_none() {
        go.infinite = true;
    }
    Ok(go)
}

impl fmt::Display for Command {
    /// The line a GUI sends (the arena's UCCI client), canonical: [`parse`] reads it back to
    /// the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ucci => write!(f, "ucci"),
            Command::IsReady => write!(f, "isready"),
            Command::SetOption { name, value: None } => write!(f, "setoption {name}"),
            Command::SetOption {
                name,
                value: Some(v),
            } => write!(f, "setoption {name} {v}"),
            Command::Position(p) => write!(f, "{p}"),
            Command::BanMoves(moves) => {
                write!(f, "banmoves")?;
                moves.iter().try_for_each(|m| write!(f, " {m}"))
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::PonderHit(false) => write!(f, "ponderhit"),
            Command::PonderHit(true) => write!(f, "ponderhit draw"),
            Command::Stop => write!(f, "stop"),
            // `Position` prints as `position ...`; a probe is the same words after `probe`.
            Command::Probe(p) => write!(f, "probe{}", &p.to_string()["position".len()..]),
            Command::Quit => write!(f, "quit"),
        }
    }
}

impl fmt::Display for Go {
    /// `go` with its mode first, then the limits; `go depth infinite` for a search with no
    /// limit, since the bare `go` of some engines means something else.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "go")?;
        if self.ponder {
            write!(f, " ponder")?;
        } else if self.draw {
            write!(f, " draw")?;
        }
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("time", self.time),
            ("movestogo", self.movestogo.map(u64::from)),
            ("increment", self.increment),
            ("opptime", self.opptime),
            ("oppmovestogo", self.oppmovestogo.map(u64::from)),
            ("oppincrement", self.oppincrement),
        ];
        if self.infinite && numbers.iter().all(|(_, v)| v.is_none()) {
            return write!(f, " depth infinite");
        }
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        Ok(())
    }
}

/// How an option is declared in the `ucci` answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check(bool),
    /// `type spin min A max B default C`.
    Spin {
        /// The least value.
        min: i64,
        /// The greatest.
        max: i64,
        /// The default.
        default: i64,
    },
    /// `type combo var A var B ... default A`.
    Combo {
        /// The choices.
        vars: Vec<String>,
        /// The default, one of them.
        default: String,
    },
    /// `type string default S`.
    String(String),
    /// `type button`.
    Button,
}

/// A line to the GUI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `id name|copyright|author|user TEXT`.
    Id {
        /// `name`, `copyright`, `author` or `user`.
        key: &'static str,
        /// The text.
        value: String,
    },
    /// `option NAME type ...`.
    Option {
        /// The option's name.
        name: String,
        /// Its type and range.
        kind: OptionKind,
    },
    /// `ucciok`.
    UcciOk,
    /// `readyok`.
    ReadyOk,
    /// `info depth D score S pv M...`: one completed iteration.
    Info {
        /// The depth.
        depth: u32,
        /// The score, from the side to move, in the engine's units (centipawns).
        score: i32,
        /// Milliseconds since `go`.
        time_ms: u64,
        /// Nodes searched.
        nodes: u64,
        /// The principal variation.
        pv: Vec<String>,
    },
    /// `info message TEXT`: what the engine has to say (a refused line, a warning).
    Message(String),
    /// `bestmove M [ponder P] [draw|resign]`.
    BestMove {
        /// The move.
        mv: String,
        /// The expected reply to ponder on.
        ponder: Option<String>,
        /// Accept or offer a draw.
        draw: bool,
        /// Resign.
        resign: bool,
    },
    /// `nobestmove`: no move to give (a `stop` with no search, a finished game).
    NoBestMove,
    /// `pophash [bestmove M] [lowerbound V depth D] [upperbound V depth D]`.
    PopHash {
        /// The table's move.
        best: Option<String>,
        /// A lower bound and its depth.
        lower: Option<(i32, u32)>,
        /// An upper bound and its depth.
        upper: Option<(i32, u32)>,
    },
    /// `bye`, the answer to `quit`.
    Bye,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { key, value } => write!(f, "id {key} {value}"),
            Reply::Option { name, kind } => {
                write!(f, "option {name} type ")?;
                match kind {
                    OptionKind::Check(d) => write!(f, "check default {d}"),
                    OptionKind::Spin { min, max, default } => {
                        write!(f, "spin min {min} max {max} default {default}")
                    }
                    OptionKind::Combo { vars, default } => {
                        write!(f, "combo")?;
                        for v in vars {
                            write!(f, " var {v}")?;
                        }
                        write!(f, " default {default}")
                    }
                    OptionKind::String(d) => write!(f, "string default {d}"),
                    OptionKind::Button => write!(f, "button"),
                }
            }
            Reply::UcciOk => write!(f, "ucciok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info {
                depth,
                score,
                time_ms,
                nodes,
                pv,
            } => {
                write!(
                    f,
                    "info depth {depth} score {score} time {time_ms} nodes {nodes}"
                )?;
                if !pv.is_empty() {
                    write!(f, " pv {}", pv.join(" "))?;
                }
                Ok(())
            }
            // A message is one line: a line break in it would be read as another reply.
            Reply::Message(m) => write!(f, "info message {}", crate::one_line(m)),
            Reply::BestMove {
                mv,
                ponder,
                draw,
                resign,
            } => {
                write!(f, "bestmove {mv}")?;
                if let Some(p) = ponder {
                    write!(f, " ponder {p}")?;
                }
                if *draw {
                    write!(f, " draw")?;
                }
                if *resign {
                    write!(f, " resign")?;
                }
                Ok(())
            }
            Reply::NoBestMove => write!(f, "nobestmove"),
            Reply::PopHash { best, lower, upper } => {
                write!(f, "pophash")?;
                if let Some(m) = best {
                    write!(f, " bestmove {m}")?;
                }
                if let Some((v, d)) = lower {
                    write!(f, " lowerbound {v} depth {d}")?;
                }
                if let Some((v, d)) = upper {
                    write!(f, " upperbound {v} depth {d}")?;
                }
                Ok(())
            }
            Reply::Bye => write!(f, "bye"),
        }
    }
}

impl Reply {
    /// Reads a line from an engine (for the arena's UCCI client): the replies a client acts
    /// on; any other line is [`ParseError::Unknown`].
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let (word, rest) = crate::first_word(line);
        let mut tokens = rest.split_whitespace();
        match word {
            "" => Err(ParseError::Empty),
            "ucciok" => Ok(Reply::UcciOk),
            "readyok" => Ok(Reply::ReadyOk),
            "nobestmove" => Ok(Reply::NoBestMove),
            "bye" => Ok(Reply::Bye),
            "bestmove" => {
                let mv = tokens
                    .next()
                    .ok_or_else(|| bad("bestmove", "the move is missing"))?
                    .to_string();
                let (mut ponder, mut draw, mut resign) = (None, false, false);
                while let Some(t) = tokens.next() {
                    match t {
                        "ponder" => ponder = tokens.next().map(str::to_string),
                        "draw" => draw = true,
                        "resign" => resign = true,
                        _ => {}
                    }
                }
                Ok(Reply::BestMove {
                    mv,
                    ponder,
                    draw,
                    resign,
                })
            }
            "info" if rest.starts_with("message") => {
                // Read as printed: a lone `\r` inside the line is a space (found by fuzzing).
                Ok(Reply::Message(crate::one_line(
                    rest["message".len()..].trim(),
                )))
            }
            "info" => parse_info(tokens),
            "id" => {
                let key = match tokens.next() {
                    Some("name") => "name",
                    Some("copyright") => "copyright",
                    Some("author") => "author",
                    Some("user") => "user",
                    Some("version") => "version",
                    other => {
                        return Err(bad(
                            "id",
                            format!("unknown key '{}'", other.unwrap_or_default()),
                        ))
                    }
                };
                Ok(Reply::Id {
                    key,
                    value: tokens.collect::<Vec<_>>().join(" "),
                })
            }
            "option" => parse_option(tokens),
            other => Err(ParseError::Unknown(other.to_string())),
        }
    }
}

/// An engine's `info` line with a depth and a score (ElephantEye sends `time` and `nodes` on
/// a line of their own; absent ones read as 0); a line without both is not an iteration's
/// result, and is [`ParseError::Unknown`].
fn parse_info<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Reply, ParseError> {
    let (mut depth, mut score, mut time_ms, mut nodes, mut pv) = (None, None, 0, 0, Vec::new());
    let mut tokens = tokens.peekable();
    fn number<T: std::str::FromStr>(key: &str, value: Option<&str>) -> Result<T, ParseError> {
        let v = value.ok_or_else(|| bad("info", format!("'{key}' needs a number")))?;
        v.parse()
            .map_err(|_| bad("info", format!("'{v}' is not a valid number for '{key}'")))
    }
    while let Some(key) = tokens.next() {
        match key {
            "depth" => depth = Some(number(key, tokens.next())?),
            "score" => score = Some(number(key, tokens.next())?),
            "time" => time_ms = number(key, tokens.next())?,
            "nodes" => nodes = number(key, tokens.next())?,
            "pv" => pv = tokens.by_ref().map(str::to_string).collect(),
            // Other keys (`currmove`, `hashfull`...) and their values are skipped.
            _ => {}
        }
    }
    match (depth, score) {
        (Some(depth), Some(score)) => Ok(Reply::Info {
            depth,
            score,
            time_ms,
            nodes,
            pv,
        }),
        _ => Err(ParseError::Unknown("info".into())),
    }
}

/// `option NAME type KIND ...` as an engine declares it.
fn parse_option<'a>(tokens: impl Iterator<Item = &'a str>) -> Result<Reply, ParseError> {
    let words: Vec<&str> = tokens.collect();
    let at = words
        .iter()
        .position(|&w| w == "type")
        .ok_or_else(|| bad("option", "'type' is missing"))?;
    if at == 0 {
        return Err(bad("option", "the option's name is missing"));
    }
    let name = words[..at].join(" ");
    let rest = &words[at + 1..];
    let after = |key: &str| rest.iter().position(|&w| w == key).map(|i| &rest[i + 1..]);
    let number = |key: &str| -> Result<i64, ParseError> {
        let w = after(key)
            .and_then(|r| r.first())
            .ok_or_else(|| bad("option", format!("'{key}' is missing")))?;
        w.parse()
            .map_err(|_| bad("option", format!("'{w}' is not a valid number for '{key}'")))
    };
    let default_text = || after("default").map(|r| r.join(" ")).unwrap_or_default();
    let kind = match rest.first().copied() {
        Some("check") => OptionKind::Check(default_text() == "true"),
        Some("spin") => OptionKind::Spin {
            min: number("min")?,
            max: number("max")?,
            default: number("default")?,
        },
        Some("combo") => combo(&rest[1..]),
        Some("string") => OptionKind::String(default_text()),
        Some("button") => OptionKind::Button,
        other => {
            return Err(bad(
                "option",
                format!("unknown type '{}'", other.unwrap_or_default()),
            ))
        }
    };
    Ok(Reply::Option { name, kind })
}

/// A combo's `var A var B ... default D`, read in order: each `var` takes the word after it
/// (even a keyword), and the default runs to the next `var`, so a default never holds a
/// `var` that would read back as one more choice.
fn combo(words: &[&str]) -> OptionKind {
    let mut vars = Vec::new();
    let mut default: Vec<&str> = Vec::new();
    // Whether the words now read belong to the default: from the first `default` to a `var`.
    let mut in_default = false;
    let mut seen_default = false;
    let mut words = words.iter();
    while let Some(&w) = words.next() {
        match w {
            "var" => {
                in_default = false;
                vars.extend(words.next().map(|v| v.to_string()));
            }
            "default" if !seen_default => (in_default, seen_default) = (true, true),
            _ if in_default => default.push(w),
            _ => {}
        }
    }
    OptionKind::Combo {
        vars,
        default: default.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::Start;

    #[test]
    fn commands_as_elephanteye_reads_them() {
        assert_eq!(parse("ucci"), Ok(Command::Ucci));
        assert_eq!(
            parse("setoption hashsize 64"),
            Ok(Command::SetOption {
                name: "hashsize".into(),
                value: Some("64".into())
            })
        );
        assert_eq!(
            parse("setoption newgame"),
            Ok(Command::SetOption {
                name: "newgame".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w moves h2e2 h9g7"),
            Ok(Command::Position(Position {
                start: Start::Fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into()),
                moves: vec!["h2e2".into(), "h9g7".into()],
            }))
        );
        assert_eq!(
            parse("banmoves h2e2 b0c2"),
            Ok(Command::BanMoves(vec!["h2e2".into(), "b0c2".into()]))
        );
        assert_eq!(parse("ponderhit draw"), Ok(Command::PonderHit(true)));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert!(matches!(
            parse("probe startpos moves h2e2"),
            Ok(Command::Probe(_))
        ));
    }

    #[test]
    fn go_in_every_mode() {
        let go = |line| match parse(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(go("go depth 8").depth, Some(8));
        assert!(go("go depth infinite").infinite);
        assert!(go("go").infinite);
        assert!(go("go ponder time 60000 increment 500").ponder);
        let g = go("go draw time 300000 movestogo 40 opptime 290000 oppmovestogo 39");
        assert!(g.draw && !g.infinite);
        assert_eq!(
            (g.time, g.movestogo, g.opptime, g.oppmovestogo),
            (Some(300000), Some(40), Some(290000), Some(39))
        );
        assert_eq!(go("go nodes 100000").nodes, Some(100000));
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse("uci"), Err(ParseError::Unknown("uci".into())));
        for (line, words) in [
            ("go depth x", "'x' is not a valid number for 'depth'"),
            ("go time", "'time' needs a number"),
            ("go movetime 100", "unknown parameter 'movetime'"),
            ("go depth 3 ponder", "must come right after 'go'"),
            ("position", "'startpos' or 'fen' is missing"),
            ("position fen", "the FEN is missing"),
            ("position startpos h2e2", "expected 'moves'"),
            ("setoption", "name is missing"),
            ("ponderhit now", "'now'"),
            ("go nodes -5", "'-5'"),
        ] {
            let e = parse(line).expect_err(line).to_string();
            assert!(e.contains(words), "{line}: {e}");
        }
    }

    #[test]
    fn replies_print_and_read_back() {
        let best = Reply::BestMove {
            mv: "h2e2".into(),
            ponder: Some("h9g7".into()),
            draw: true,
            resign: false,
        };
        assert_eq!(best.to_string(), "bestmove h2e2 ponder h9g7 draw");
        assert_eq!(Reply::parse(&best.to_string()), Ok(best));
        assert_eq!(Reply::NoBestMove.to_string(), "nobestmove");
        assert_eq!(Reply::parse("nobestmove"), Ok(Reply::NoBestMove));
        assert_eq!(
            Reply::Option {
                name: "hashsize".into(),
                kind: OptionKind::Spin {
                    min: 1,
                    max: 1024,
                    default: 16
                }
            }
            .to_string(),
            "option hashsize type spin min 1 max 1024 default 16"
        );
        assert_eq!(
            Reply::Info {
                depth: 5,
                score: -12,
                time_ms: 40,
                nodes: 1234,
                pv: vec!["h2e2".into(), "h9g7".into()]
            }
            .to_string(),
            "info depth 5 score -12 time 40 nodes 1234 pv h2e2 h9g7"
        );
        assert_eq!(
            Reply::PopHash {
                best: Some("h2e2".into()),
                lower: Some((30, 8)),
                upper: None
            }
            .to_string(),
            "pophash bestmove h2e2 lowerbound 30 depth 8"
        );
        assert_eq!(
            Reply::Message("two\nlines".into()).to_string(),
            "info message two lines"
        );
        // Read as printed (the `protocol_lines` fuzz target found a `\r` that did not).
        assert_eq!(
            Reply::parse("info message a\rb"),
            Ok(Reply::Message("a b".into()))
        );
    }

    /// What the arena's client sends reads back as the same command.
    #[test]
    fn commands_print_and_read_back() {
        for line in [
            "ucci",
            "isready",
            "setoption usebook false",
            "setoption newgame",
            "position startpos moves h2e2 h9g7",
            "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "probe startpos moves h2e2",
            "banmoves h2e2 b0c2",
            "go depth 8",
            "go nodes 20000",
            "go time 60000 increment 500 opptime 58000 oppincrement 500",
            "go draw time 1000 movestogo 1",
            "go ponder time 60000 movestogo 40",
            "go depth infinite",
            "ponderhit draw",
            "stop",
            "quit",
        ] {
            let c = parse(line).expect(line);
            assert_eq!(c.to_string(), line);
        }
    }

    /// ElephantEye's own lines, as its `ucci` answer and its search print them.
    #[test]
    fn engine_lines_are_read() {
        assert_eq!(
            Reply::parse("id name ElephantEye"),
            Ok(Reply::Id {
                key: "name",
                value: "ElephantEye".into()
            })
        );
        assert_eq!(
            Reply::parse("option usemillisec type check default true"),
            Ok(Reply::Option {
                name: "usemillisec".into(),
                kind: OptionKind::Check(true)
            })
        );
        assert_eq!(
            Reply::parse("option hashsize type spin min 16 max 1024 default 16"),
            Ok(Reply::Option {
                name: "hashsize".into(),
                kind: OptionKind::Spin {
                    min: 16,
                    max: 1024,
                    default: 16
                }
            })
        );
        assert_eq!(
            Reply::parse("option idle type combo var none var small default none"),
            Ok(Reply::Option {
                name: "idle".into(),
                kind: OptionKind::Combo {
                    vars: vec!["none".into(), "small".into()],
                    default: "none".into()
                }
            })
        );
        // A default followed by more choices (found by fuzzing): the choices stay choices, and
        // the printed form, default last, reads back the same.
        let reply = Reply::parse("option idle type combo default m x var min var default");
        assert_eq!(
            reply,
            Ok(Reply::Option {
                name: "idle".into(),
                kind: OptionKind::Combo {
                    vars: vec!["min".into(), "default".into()],
                    default: "m x".into()
                }
            })
        );
        let printed = reply.unwrap().to_string();
        assert_eq!(
            printed,
            "option idle type combo var min var default default m x"
        );
        assert_eq!(Reply::parse(&printed).unwrap().to_string(), printed);
        assert_eq!(
            Reply::parse("option newgame type button"),
            Ok(Reply::Option {
                name: "newgame".into(),
                kind: OptionKind::Button
            })
        );
        assert_eq!(
            Reply::parse("info depth 8 score -5 pv h9g7 g3g4"),
            Ok(Reply::Info {
                depth: 8,
                score: -5,
                time_ms: 0,
                nodes: 0,
                pv: vec!["h9g7".into(), "g3g4".into()]
            })
        );
        let info = Reply::Info {
            depth: 5,
            score: 12,
            time_ms: 40,
            nodes: 1234,
            pv: vec!["h2e2".into()],
        };
        assert_eq!(Reply::parse(&info.to_string()), Ok(info));
        assert_eq!(
            Reply::parse("info time 788 nodes 1702066"),
            Err(ParseError::Unknown("info".into()))
        );
        for (line, words) in [
            ("info depth x score 3", "'x'"),
            ("option hashsize spin", "'type' is missing"),
            ("option type check", "name is missing"),
            ("option a type spin min 1 max z default 2", "'z'"),
            ("option a type colour", "unknown type 'colour'"),
            ("id rank 1", "unknown key 'rank'"),
        ] {
            let e = Reply::parse(line).expect_err(line).to_string();
            assert!(e.contains(words), "{line}: {e}");
        }
    }
}
