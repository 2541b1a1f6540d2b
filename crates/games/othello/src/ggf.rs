//! Game records in GGF, the Generic Game Format of the Generic Game Server, which NBoard sends
//! with `set game`:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]PB[alice]PW[bob]RE[?]TI[5:00]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.2]W[D6];)
//! ```
//!
//! `BO` holds the board size, the 64 squares (a1, b1, ..., h8; `*` black, `O` white, `-` empty,
//! optionally split into rows by spaces) and the side to move. `B[..]` and `W[..]` are the moves
//! in order, each optionally followed by `/evaluation/time`; a pass is `PA`. Other properties
//! are read and ignored.
//!
//! The clock, as the Generic Game Server defines it (GGF's property table,
//! <https://www.skatgame.net/mburo/ggsa/ggf>, and NBoard's reader and writer, `OsClock` and
//! `COsMoveListItem` in github.com/weltyc/othello, `src/com/welty/othello/gdk/`):
//! - `TI[clock]` is both players' time control, `TB[..]` and `TW[..]` black's and white's when
//!   they differ. A clock is `time[/increment[/grace]]`, each a time `[[days.]hours:]minutes:`
//!   `seconds` with leading fields left out (`TI[5:00]`, `TI[01:00/00:00/02:00]`; an empty
//!   increment is 0). GGS adds the increment after each move and lets a player whose time is
//!   out go on for the grace period (2 minutes unless given); duel reads the grace but never
//!   counts on it. NBoard writes whole seconds; duel also reads and writes a fraction on the
//!   last field (`TI[2/0.02]`: 2 seconds, 0.02 added per move), which NBoard's own reader does
//!   not take.
//! - A move's time is the third field of its value, in seconds: `B[F5//1.23]` (no evaluation,
//!   1.23 s).
//!
//! The time left for a player is then the clock's time plus an increment per move already
//! played, minus the times of those moves ([`GgfGame::time_left`]).

use std::time::Duration;

use duel_core::{Game, PositionError, RecordClock, Side};

use crate::board::{parse_board, parse_side, side_char};
use crate::{Move, Othello};

const NAME: &str = "othello";

/// What is wrong with a GGF text: the record's frame, a property, or a time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    /// Not `(;` ... `;)`.
    #[error("a GGF game starts with '(;' and ends with ';)'")]
    Frame,
    /// A character where a property's name should begin.
    #[error("expected a property name, found '{0}'")]
    PropertyName(char),
    /// A property's name without `[` after it.
    #[error("property {0} has no '[value]'")]
    NoValue(String),
    /// A property's value without its `]`.
    #[error("property {0}: missing ']'")]
    Unclosed(String),
    /// A clock's time that is not `[[days.]hours:]minutes:seconds`.
    #[error("'{0}' is not a time ([[days.]hours:]minutes:seconds)")]
    NotATime(String),
    /// A time of more than 10^7 seconds (over a hundred days): a typo.
    #[error("'{0}' is longer than {MAX_SECONDS} s")]
    TooLong(String),
    /// A clock of more than three fields.
    #[error("'{0}' has more than time/increment/grace")]
    ClockFields(String),
    /// A move's time that is not a number of seconds from 0 to 10^7.
    #[error("'{0}' is not a time in seconds")]
    NotSeconds(String),
}

/// One `KEY[value]` of a record, in order.
fn properties(text: &str) -> Result<Vec<(String, String)>, GgfError> {
    let t = text.trim();
    let body = t
        .strip_prefix("(;")
        .and_then(|b| b.strip_suffix(";)"))
        .ok_or(GgfError::Frame)?;
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| c.is_ascii_alphabetic()) {
            key.push(c.to_ascii_uppercase());
        }
        if key.is_empty() {
            let c = chars.next().unwrap_or(' ');
            return Err(GgfError::PropertyName(c));
        }
        if chars.next() != Some('[') {
            return Err(GgfError::NoValue(key));
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                None => return Err(GgfError::Unclosed(key)),
                Some(']') => break,
                // GGS escapes a bracket inside a value (comments, names) with a backslash.
                Some('\\') => value.extend(chars.next()),
                Some(c) => value.push(c),
            }
        }
        out.push((key, value));
    }
}

/// The longest time read from a record, in seconds (over a hundred days): beyond it a value
/// is a typo, and it keeps every sum of times far from overflowing.
const MAX_SECONDS: f64 = 1e7;

/// A GGF game with its clocks and the time each move took.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfGame {
    /// The start position.
    pub start: Othello,
    /// The moves from there, unrecorded passes included.
    pub moves: Vec<Move>,
    /// The time each move took, by the moves' index; None where the record gives none
    /// (unrecorded passes too).
    pub times: Vec<Option<Duration>>,
    /// Black's and white's clocks (`TI`, or `TB` and `TW`), in `Side` order; None where the
    /// record has none, or a clock of no time at all (`TI[0]`).
    pub clocks: [Option<RecordClock>; 2],
    /// What was read and left out, in words: a clock or a move time that is not a time. The
    /// game is whole without them.
    pub ignored: Vec<String>,
}

impl GgfGame {
    /// A game of `moves` from `start` with no clock and no times.
    pub fn new(start: Othello, moves: Vec<Move>) -> Self {
        GgfGame {
            times: vec![None; moves.len()],
            start,
            moves,
            clocks: [None; 2],
            ignored: Vec::new(),
        }
    }

    /// What is left on `side`'s clock before its next move: the clock's time, plus an
    /// increment for each move `side` has played (passes count, as GGS counts them), minus the
    /// times of those moves (`own` gives the time of a move the record has none for, by its
    /// index; zero if it gives none either). None when `side` has no clock; zero when spent.
    pub fn time_left(
        &self,
        side: Side,
        own: impl Fn(usize) -> Option<Duration>,
    ) -> Option<Duration> {
        Some(self.time_left_on(side, self.clocks[side as usize]?, own))
    }

    /// What is left of `clock` for `side` after its moves in the game, as
    /// [`GgfGame::time_left`] counts it: for a clock the record does not have.
    pub fn time_left_on(
        &self,
        side: Side,
        clock: RecordClock,
        own: impl Fn(usize) -> Option<Duration>,
    ) -> Duration {
        let mut pos = self.start.clone();
        let mut left = clock.base;
        let mut spent = Duration::ZERO;
        for (i, &mv) in self.moves.iter().enumerate() {
            if pos.side_to_move() == side {
                left += clock.increment;
                spent += self
                    .times
                    .get(i)
                    .copied()
                    .flatten()
                    .or_else(|| own(i))
                    .unwrap_or_default();
            }
            pos.play(mv);
        }
        left.saturating_sub(spent)
    }

    /// The record in the form NBoard writes ([`to_ggf`]), with the clocks (`TI`, or `TB` and
    /// `TW`; `TI[0]` for none) and each move's time where known (`B[F5//1.234]`).
    ///
    /// # Panics
    /// If a move is not legal where it is played.
    pub fn to_text(&self) -> String {
        let mut out = String::from("(;GM[Othello]PC[duel]PB[?]PW[?]");
        let mut pos = self.start.clone();
        let mut record = String::new();
        for (i, &mv) in self.moves.iter().enumerate() {
            let text = pos.format_move(mv);
            assert!(
                pos.parse_move(&text) == Ok(mv),
                "to_ggf: {mv} is not legal in {pos:?}"
            );
            let colour = side_char(pos.side_to_move()).to_ascii_uppercase();
            let colour = if colour == 'X' { 'B' } else { 'W' };
            let time = match self.times.get(i).copied().flatten() {
                Some(t) => format!("//{:.3}", t.as_secs_f64()),
                None => String::new(),
            };
            record.push_str(&format!("{colour}[{}{time}]", text.to_ascii_uppercase()));
            pos.play(mv);
        }
        let result = if pos.is_over() {
            format!("{:+}", pos.final_score() * pos.side_to_move().sign())
        } else {
            "?".to_string()
        };
        let text = self.start.to_text();
        let (board, side) = text.split_at(64);
        let board = board.replace('X', "*");
        let side = if side.trim() == "X" { '*' } else { 'O' };
        let clock = |c: Option<RecordClock>| c.map_or("0".to_string(), clock_text);
        let clocks = match self.clocks {
            [b, w] if b == w => format!("TI[{}]", clock(b)),
            [b, w] => format!("TB[{}]TW[{}]", clock(b), clock(w)),
        };
        out.push_str(&format!("RE[{result}]{clocks}TY[8]BO[8 {board} {side}]"));
        out.push_str(&record);
        out.push_str(";)");
        out
    }
}

/// A time as GGS writes it (`45`, `5:00`, `1:00:00`), with the fraction of a second where
/// there is one (`0.02`, `1:30.5`).
fn time_text(t: Duration) -> String {
    let whole = t.as_secs();
    let millis = t.subsec_millis();
    let seconds = match millis {
        0 => format!("{}", whole % 60),
        _ => format!("{}.{millis:03}", whole % 60)
            .trim_end_matches('0')
            .to_string(),
    };
    let (minutes, hours) = ((whole / 60) % 60, whole / 3600);
    match (hours, minutes) {
        (0, 0) => seconds,
        (0, m) => format!("{m}:{seconds:0>2}"),
        (h, m) => format!("{h}:{m:02}:{seconds:0>2}"),
    }
}

/// A clock as GGS writes it: `5:00`, `5:00/2` with an increment.
fn clock_text(c: RecordClock) -> String {
    match c.increment.is_zero() {
        true => time_text(c.base),
        false => format!("{}/{}", time_text(c.base), time_text(c.increment)),
    }
}

/// `secs` rounded to the millisecond, the precision [`time_text`] writes: finer digits would
/// not read back, and a decimal such as 0.203 is a hair under 203 ms as a float.
fn whole_millis(secs: f64) -> Duration {
    Duration::from_millis((secs * 1000.0).round() as u64)
}

/// Reads a time of a GGS clock, `[[days.]hours:]minutes:seconds` (a field left empty is 0, as
/// GGS reads it), the last field with an optional fraction.
fn parse_time(text: &str) -> Result<Duration, GgfError> {
    let t = text.trim();
    let bad = || GgfError::NotATime(t.to_string());
    let (head, last) = match t.rsplit_once(':') {
        Some((h, l)) => (Some(h), l),
        None => (None, t),
    };
    let whole = |f: &str| -> Result<f64, GgfError> {
        match f {
            "" => Ok(0.0),
            _ if f.bytes().all(|b| b.is_ascii_digit()) && f.len() <= 9 => {
                f.parse::<f64>().map_err(|_| bad())
            }
            _ => Err(bad()),
        }
    };
    let mut secs = 0.0;
    if let Some(head) = head {
        for (i, field) in head.split(':').enumerate() {
            let value = match field.split_once('.') {
                // Days only before the first colon: `1.00:00:00`.
                Some((d, h)) if i == 0 => whole(d)? * 24.0 + whole(h)?,
                Some(_) => return Err(bad()),
                None => whole(field)?,
            };
            secs = secs * 60.0 + value;
        }
    }
    let fraction_ok = last.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && last.bytes().filter(|&b| b == b'.').count() <= 1;
    let last = match last {
        "" => 0.0,
        _ if fraction_ok && last != "." => last.parse::<f64>().map_err(|_| bad())?,
        _ => return Err(bad()),
    };
    secs = secs * 60.0 + last;
    if secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs) {
        Ok(whole_millis(secs))
    } else {
        Err(GgfError::TooLong(t.to_string()))
    }
}

/// Reads a GGS clock, `time[/increment[/grace]]`; None for a clock of no time (`0`).
fn parse_clock(text: &str) -> Result<Option<RecordClock>, GgfError> {
    let mut fields = text.split('/');
    let base = parse_time(fields.next().unwrap_or(""))?;
    let increment = match fields.next() {
        Some(f) if !f.trim().is_empty() => parse_time(f)?,
        _ => Duration::ZERO,
    };
    if let Some(grace) = fields.next() {
        parse_time(grace)?;
    }
    if fields.next().is_some() {
        return Err(GgfError::ClockFields(text.to_string()));
    }
    Ok((!(base.is_zero() && increment.is_zero())).then_some(RecordClock { base, increment }))
}

/// Reads a move's time, in seconds (`1.23`): a number no less than zero.
pub fn parse_seconds(text: &str) -> Result<Duration, GgfError> {
    let t = text.trim();
    match t.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(whole_millis(s)),
        _ => Err(GgfError::NotSeconds(t.to_string())),
    }
}

/// Reads a GGF Othello game: the start position (`BO`, the standard start if absent) and the
/// moves played from it. A move recorded for the side that is not to move, where the side to
/// move has no legal move, is read as following an unrecorded pass, which is then added to the
/// list; anything else that is not legal is refused, naming the move.
pub fn parse_ggf(text: &str) -> Result<(Othello, Vec<Move>), PositionError> {
    read_ggf(text).map(|g| (g.start, g.moves))
}

/// Reads a GGF Othello game as [`parse_ggf`] does, with its clocks and move times: a clock or
/// a time that is not one is left out and named in [`GgfGame::ignored`], never refused.
pub fn read_ggf(text: &str) -> Result<GgfGame, PositionError> {
    let err = |reason: String| PositionError::new(NAME, text, reason);
    let props = properties(text).map_err(|e| err(e.to_string()))?;
    let mut start = Othello::start();
    let mut clocks = [None; 2];
    let mut ignored = Vec::new();
    for (key, value) in &props {
        let sides: &[usize] = match key.as_str() {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(err(format!("GM[{value}] is not an Othello game")));
            }
            "BO" => {
                start = parse_bo(text, value)?;
                continue;
            }
            "TI" => &[0, 1],
            "TB" => &[0],
            "TW" => &[1],
            _ => continue,
        };
        match parse_clock(value) {
            Ok(c) => sides.iter().for_each(|&s| clocks[s] = c),
            Err(e) => ignored.push(format!("{key}[{value}] ignored: {e}")),
        }
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut times = Vec::new();
    let mut number = 0;
    for (key, value) in &props {
        let colour = match key.as_str() {
            "B" => Side::First,
            "W" => Side::Second,
            _ => continue,
        };
        number += 1;
        let square = value.split('/').next().unwrap_or("").trim();
        let here = |why: String| err(format!("move {number} {key}[{square}]: {why}"));
        if colour != pos.side_to_move() {
            let must_pass = pos.moves_bb() == 0 && pos.opponent_moves_bb() != 0;
            if !must_pass {
                return Err(here(format!(
                    "it is {}'s turn",
                    if pos.side_to_move() == Side::First {
                        "black"
                    } else {
                        "white"
                    }
                )));
            }
            pos.play(Move::PASS);
            moves.push(Move::PASS);
            times.push(None);
        }
        let mv = pos.parse_move(square).map_err(|e| here(e.to_string()))?;
        pos.play(mv);
        moves.push(mv);
        let time = match value.split('/').nth(2).map(str::trim) {
            None | Some("") => None,
            Some(t) => parse_seconds(t)
                .map_err(|e| ignored.push(format!("the time of move {number} ignored: {e}")))
                .ok(),
        };
        times.push(time);
    }
    Ok(GgfGame {
        start,
        moves,
        times,
        clocks,
        ignored,
    })
}

/// The board property: size 8, 64 squares (rows may be separated by spaces), side to move.
fn parse_bo(text: &str, value: &str) -> Result<Othello, PositionError> {
    let mut tokens: Vec<&str> = value.split_whitespace().collect();
    if tokens.first() != Some(&"8") {
        return Err(PositionError::new(
            NAME,
            text,
            format!("BO[{value}]: only 8x8 boards ('BO[8 ...]') are Othello"),
        ));
    }
    tokens.remove(0);
    let side = tokens.pop().unwrap_or("");
    let board: String = tokens.concat();
    let (black, white) = parse_board(text, &board)?;
    let side = parse_side(text, side)?;
    let (p, o) = match side {
        Side::First => (black, white),
        Side::Second => (white, black),
    };
    Ok(Othello::from_bitboards(p, o, side).expect("a square holds one colour"))
}

/// Writes a GGF record of `moves` played from `start`, in the form NBoard writes: squares in
/// capitals, `PA` for a pass, `*` for black on the board. `RE` holds black's final score (empty
/// squares to the winner) once the game is over, `?` before. No clock: `TI[0]`
/// ([`GgfGame::to_text`] writes one).
///
/// # Panics
/// If a move is not legal where it is played.
pub fn to_ggf(start: &Othello, moves: &[Move]) -> String {
    GgfGame::new(start.clone(), moves.to_vec()).to_text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_read_in_order_with_escapes() {
        let p = properties("(;GM[Othello]C[a \\] b]B[F5//1.0];)").unwrap();
        assert_eq!(p[0], ("GM".into(), "Othello".into()));
        assert_eq!(p[1], ("C".into(), "a ] b".into()));
        assert_eq!(p[2], ("B".into(), "F5//1.0".into()));
    }

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn times_as_ggs_writes_them() {
        for (text, s) in [
            ("5:00", 300.0),
            ("05:00", 300.0),
            ("01:00", 60.0),
            ("45", 45.0),
            ("1:00:00", 3600.0),
            ("1.00:00:00", 86_400.0),
            ("0.02", 0.02),
            ("1:30.5", 90.5),
            (":30", 30.0),
            ("", 0.0),
        ] {
            assert_eq!(parse_time(text), Ok(secs(s)), "{text}");
        }
        for bad in [
            "x",
            "-1",
            "1e3",
            "5:0x",
            "1.2.3",
            "1:2.5:00",
            ".",
            "99999999999",
            "nan",
        ] {
            assert!(parse_time(bad).is_err(), "{bad}");
        }
        for s in [0.02, 2.0, 45.0, 60.0, 90.5, 300.0, 3600.0, 5432.1] {
            assert_eq!(parse_time(&time_text(secs(s))), Ok(secs(s)), "{s}");
        }
        assert_eq!(time_text(secs(300.0)), "5:00");
        assert_eq!(time_text(secs(3725.0)), "1:02:05");
        assert_eq!(time_text(secs(0.02)), "0.02");
    }

    #[test]
    fn clocks_as_ggs_writes_them() {
        let clock = |b: f64, i: f64| {
            Some(RecordClock {
                base: secs(b),
                increment: secs(i),
            })
        };
        assert_eq!(parse_clock("5:00"), Ok(clock(300.0, 0.0)));
        assert_eq!(parse_clock("01:00/00:00/02:00"), Ok(clock(60.0, 0.0)));
        assert_eq!(parse_clock("5:00//2:00"), Ok(clock(300.0, 0.0)));
        assert_eq!(parse_clock("2/0.02"), Ok(clock(2.0, 0.02)));
        assert_eq!(parse_clock("0"), Ok(None));
        for bad in ["5:00/x", "1/2/3/4", "abc", "5:00/-1"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
        let c = RecordClock {
            base: secs(120.0),
            increment: secs(0.5),
        };
        assert_eq!(clock_text(c), "2:00/0.5");
        assert_eq!(parse_clock(&clock_text(c)), Ok(Some(c)));
    }
}
