//! The brain's lines: its answers, and the `ABOUT` answer's pairs.

use std::fmt;

use super::read::{point, point_argument, shorten, Why};
use super::{ParseError, Point};
use crate::{bad, one_line};

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
    /// `FORBID XXYYXXYY.`: the answer to `YXSHOWFORBID`, renju's points forbidden to Black,
    /// each as its x then its y in two digits (`FORBID .` for none). Boards are at most 99
    /// a side for it: a larger coordinate has no two-digit form.
    Forbid(Vec<Point>),
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
            Reply::Forbid(points) => {
                write!(f, "FORBID ")?;
                for p in points {
                    write!(f, "{:02}{:02}", p.x, p.y)?;
                }
                return write!(f, ".");
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

/// The points of a `FORBID` line after its word: groups of four digits, then `.`.
fn forbidden_points(rest: &str) -> Result<Vec<Point>, String> {
    let Some(digits) = rest.strip_suffix('.') else {
        return Err(format!("'{}' does not end with '.'", shorten(rest)));
    };
    let digits = digits.trim_end();
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() % 4 != 0 {
        return Err(format!(
            "'{}' is not points in four digits each, XXYY",
            shorten(digits)
        ));
    }
    let two = |i: usize| {
        u32::from(digits.as_bytes()[i] - b'0') * 10 + u32::from(digits.as_bytes()[i + 1] - b'0')
    };
    Ok((0..digits.len() / 4)
        .map(|k| Point::new(two(4 * k), two(4 * k + 2)))
        .collect())
}

impl Reply {
    /// Reads one line from a brain, as a manager (or the match runner) does: words in any
    /// case, white space around commas allowed (`10, 11`). Words after `OK` and `SWAP` are
    /// ignored (brains copy the specification's `OK - everything is good`). A line of points
    /// is a move ([`Reply::Move`] for one, [`Reply::Moves`] for more); `FORBID` and its points
    /// are [`Reply::Forbid`]; a line with `=` that is no other reply is an `ABOUT` answer. Old brains answer `ABOUT` with free text, which
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
            "FORBID" => forbidden_points(rest)
                .map(Reply::Forbid)
                .map_err(|why| bad("FORBID", why)),
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
