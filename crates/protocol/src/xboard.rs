//! The xboard protocol (CECP, version 2), from the GUI's side: the commands a GUI or a match
//! runner sends to an engine, printed, and the engine's answers, read. Engines that predate UCI
//! (Fairy-Max, Phalanx, Sjeng) speak it.
//!
//! | GUI sends | meaning | engine answers |
//! |---|---|---|
//! | `xboard`, `protover 2` | first lines of a session | `feature K=V ...` lines, `done=1` last |
//! | `accepted K` | the GUI understood feature K | nothing |
//! | `new`, `force` | a new game; stop playing either side | nothing |
//! | `easy`, `post` | no pondering; print thinking lines | nothing |
//! | `level MPS BASE INC` | the clock: moves per session (0: all), base `M:SS`, increment s | nothing |
//! | `setboard FEN` | the position (with `feature setboard=1`) | nothing |
//! | `usermove M` or bare `M` | a move (the first with `feature usermove=1`) | nothing |
//! | `time N`, `otim N` | own and opponent clock, in centiseconds | nothing |
//! | `sd N`, `st S` | depth limit; time per move in seconds | nothing |
//! | `go` | play the side to move | thinking lines `PLY SCORE TIME NODES PV`, then `move M` or `resign` |
//! | `?` | move now | `move M` |
//! | `ping N` | synchronise (with `feature ping=1`) | `pong N` |
//! | `option K=V` | an engine option | nothing |
//! | `quit` | end the session | nothing |

use std::fmt;
use std::time::Duration;

use crate::bad;
pub use crate::ParseError;

/// A line to the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `xboard`.
    Xboard,
    /// `protover N`.
    Protover(u32),
    /// `accepted FEATURE`.
    Accepted(String),
    /// `new`.
    New,
    /// `force`.
    Force,
    /// `easy`: pondering off.
    Easy,
    /// `post`: thinking output on.
    Post,
    /// `level MPS BASE INC`: sudden death when `moves` is 0; the base is printed in whole
    /// minutes and seconds (`M:SS`), rounded.
    Level {
        /// Moves per time control, 0 for the whole game.
        moves: u32,
        /// Base time.
        base: Duration,
        /// Increment per move.
        increment: Duration,
    },
    /// `setboard FEN`.
    SetBoard(String),
    /// `variant NAME`: the game to play after `new` (`xiangqi`), as the engine's
    /// `feature variants` names it.
    Variant(String),
    /// `usermove M`.
    UserMove(String),
    /// A bare move, for engines without `feature usermove=1`.
    Move(String),
    /// `time N`: the engine's clock, centiseconds.
    Time(u64),
    /// `otim N`: the opponent's clock, centiseconds.
    Otim(u64),
    /// `sd N`: search at most N plies.
    Depth(u32),
    /// `st S`: this much time per move (whole seconds where whole, since older engines read an
    /// integer).
    MoveTime(Duration),
    /// `go`.
    Go,
    /// `?`: move now.
    MoveNow,
    /// `ping N`.
    Ping(u32),
    /// `option NAME=VALUE`.
    Option {
        /// The option's name.
        name: String,
        /// Its value as text.
        value: String,
    },
    /// `quit`.
    Quit,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Xboard => write!(f, "xboard"),
            Command::Protover(v) => write!(f, "protover {v}"),
            Command::Accepted(k) => write!(f, "accepted {k}"),
            Command::New => write!(f, "new"),
            Command::Force => write!(f, "force"),
            Command::Easy => write!(f, "easy"),
            Command::Post => write!(f, "post"),
            Command::Level {
                moves,
                base,
                increment,
            } => {
                let secs = base.as_secs_f64().round() as u64;
                let inc = increment.as_secs_f64();
                write!(f, "level {moves} {}:{:02} {inc}", secs / 60, secs % 60)
            }
            Command::SetBoard(fen) => write!(f, "setboard {fen}"),
            Command::Variant(v) => write!(f, "variant {v}"),
            Command::UserMove(m) => write!(f, "usermove {m}"),
            Command::Move(m) => write!(f, "{m}"),
            Command::Time(cs) => write!(f, "time {cs}"),
            Command::Otim(cs) => write!(f, "otim {cs}"),
            Command::Depth(d) => write!(f, "sd {d}"),
            Command::MoveTime(t) if t.subsec_nanos() == 0 => write!(f, "st {}", t.as_secs()),
            Command::MoveTime(t) => write!(f, "st {}", t.as_secs_f64()),
            Command::Go => write!(f, "go"),
            Command::MoveNow => write!(f, "?"),
            Command::Ping(n) => write!(f, "ping {n}"),
            Command::Option { name, value } => write!(f, "option {name}={value}"),
            Command::Quit => write!(f, "quit"),
        }
    }
}

/// A line from the engine that a GUI acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `feature K=V ...`: the pairs in order, quotes taken off the values.
    Features(Vec<(String, String)>),
    /// `move M`.
    Move(String),
    /// `resign`.
    Resign,
    /// `pong N`.
    Pong(u32),
    /// `Illegal move[ (REASON)]: MOVE`, `Error (TYPE): COMMAND` or `tellusererror TEXT`: the
    /// engine refused a line; the whole line, for the GUI to match against what it sent.
    Refused(String),
    /// A thinking line, `PLY SCORE TIME NODES PV` (the ply may end with `.` or `&`).
    Thinking {
        /// Plies searched.
        depth: u32,
        /// Centipawns, from the engine's side.
        score: i32,
        /// Centiseconds since the search began.
        time: u64,
        /// Nodes searched, when given.
        nodes: Option<u64>,
        /// The principal variation, as text.
        pv: String,
    },
}

impl Reply {
    /// Reads one line from an engine. Lines a GUI only shows (`Hint:`, results) are
    /// [`ParseError::Unknown`].
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Err(ParseError::Empty);
        };
        match word {
            "feature" => Ok(Reply::Features(features(line["feature".len()..].trim()))),
            "move" => match words.next() {
                Some(m) => Ok(Reply::Move(m.to_string())),
                None => Err(bad("move", "the move is missing")),
            },
            "resign" => Ok(Reply::Resign),
            "Illegal" | "Error" | "tellusererror" => Ok(Reply::Refused(line.to_string())),
            "pong" => {
                let n = words.next().unwrap_or("");
                n.parse()
                    .map(Reply::Pong)
                    .map_err(|_| bad("pong", format!("'{n}' is not a valid number")))
            }
            w => {
                let depth = w.trim_end_matches(['.', '&']).parse::<u32>();
                let score = words.next().map(str::parse::<i32>);
                let time = words.next().map(str::parse::<u64>);
                match (depth, score, time) {
                    (Ok(depth), Some(Ok(score)), Some(Ok(time))) => {
                        let nodes = words.next().and_then(|n| n.parse().ok());
                        Ok(Reply::Thinking {
                            depth,
                            score,
                            time,
                            nodes,
                            pv: words.collect::<Vec<_>>().join(" "),
                        })
                    }
                    _ => Err(ParseError::Unknown(w.to_string())),
                }
            }
        }
    }
}

/// The `key=value` pairs of a `feature` line; values may be quoted and hold spaces.
fn features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_print_as_engines_read_them() {
        let level = Command::Level {
            moves: 0,
            base: Duration::from_secs(130),
            increment: Duration::from_millis(50),
        };
        assert_eq!(level.to_string(), "level 0 2:10 0.05");
        assert_eq!(
            Command::MoveTime(Duration::from_secs(2)).to_string(),
            "st 2"
        );
        assert_eq!(
            Command::MoveTime(Duration::from_millis(1500)).to_string(),
            "st 1.5"
        );
        assert_eq!(
            Command::UserMove("e2e4".into()).to_string(),
            "usermove e2e4"
        );
        assert_eq!(Command::Move("e2e4".into()).to_string(), "e2e4");
        assert_eq!(Command::MoveNow.to_string(), "?");
        let option = Command::Option {
            name: "Hash".into(),
            value: "64".into(),
        };
        assert_eq!(option.to_string(), "option Hash=64");
    }

    #[test]
    fn replies_are_read() {
        assert_eq!(
            Reply::parse("feature ping=1 myname=\"Fairy-Max 5.0b\" setboard=0 done=1"),
            Ok(Reply::Features(vec![
                ("ping".into(), "1".into()),
                ("myname".into(), "Fairy-Max 5.0b".into()),
                ("setboard".into(), "0".into()),
                ("done".into(), "1".into()),
            ]))
        );
        assert_eq!(Reply::parse("move e2e4"), Ok(Reply::Move("e2e4".into())));
        assert_eq!(Reply::parse("resign"), Ok(Reply::Resign));
        assert_eq!(Reply::parse("pong 1"), Ok(Reply::Pong(1)));
        assert_eq!(
            Reply::parse("10. 48 81 42345 d2d4 d7d5"),
            Ok(Reply::Thinking {
                depth: 10,
                score: 48,
                time: 81,
                nodes: Some(42345),
                pv: "d2d4 d7d5".into()
            })
        );
        assert_eq!(Reply::parse(""), Err(ParseError::Empty));
        for refused in [
            "Illegal move: e2e5",
            "Illegal move (no piece there): b1c3",
            "Error (Illegal move or unknown command): usermove i3i4",
            "tellusererror unknown piece type 'n' (bad FEN ...)",
        ] {
            assert_eq!(Reply::parse(refused), Ok(Reply::Refused(refused.into())));
        }
        for other in ["Hint: e2e4", "1-0 {White mates}"] {
            assert!(
                matches!(Reply::parse(other), Err(ParseError::Unknown(_))),
                "{other}"
            );
        }
        assert!(matches!(
            Reply::parse("move"),
            Err(ParseError::BadArgument { .. })
        ));
        assert!(matches!(
            Reply::parse("pong x"),
            Err(ParseError::BadArgument { .. })
        ));
    }
}
