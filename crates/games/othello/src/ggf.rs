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

use duel_core::{Game, PositionError, Side};

use crate::board::{parse_board, parse_side, side_char};
use crate::{Move, Othello};

const NAME: &str = "othello";

/// One `KEY[value]` of a record, in order.
fn properties(text: &str) -> Result<Vec<(String, String)>, String> {
    let t = text.trim();
    let body = t
        .strip_prefix("(;")
        .and_then(|b| b.strip_suffix(";)"))
        .ok_or("a GGF game starts with '(;' and ends with ';)'")?;
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
            return Err(format!("expected a property name, found '{c}'"));
        }
        if chars.next() != Some('[') {
            return Err(format!("property {key} has no '[value]'"));
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                None => return Err(format!("property {key}: missing ']'")),
                Some(']') => break,
                // GGS escapes a bracket inside a value (comments, names) with a backslash.
                Some('\\') => value.extend(chars.next()),
                Some(c) => value.push(c),
            }
        }
        out.push((key, value));
    }
}

/// Reads a GGF Othello game: the start position (`BO`, the standard start if absent) and the
/// moves played from it. A move recorded for the side that is not to move, where the side to
/// move has no legal move, is read as following an unrecorded pass, which is then added to the
/// list; anything else that is not legal is refused, naming the move.
pub fn parse_ggf(text: &str) -> Result<(Othello, Vec<Move>), PositionError> {
    let err = |reason: String| PositionError::new(NAME, text, reason);
    let props = properties(text).map_err(err)?;
    let mut start = Othello::start();
    for (key, value) in &props {
        match key.as_str() {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return Err(err(format!("GM[{value}] is not an Othello game")));
            }
            "BO" => start = parse_bo(text, value)?,
            _ => {}
        }
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
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
        }
        let mv = pos.parse_move(square).map_err(|e| here(e.to_string()))?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
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
/// squares to the winner) once the game is over, `?` before.
///
/// # Panics
/// If a move is not legal where it is played.
pub fn to_ggf(start: &Othello, moves: &[Move]) -> String {
    let mut out = String::from("(;GM[Othello]PC[duel]PB[?]PW[?]");
    let mut pos = start.clone();
    let mut record = String::new();
    for &mv in moves {
        let text = pos.format_move(mv);
        assert!(
            pos.parse_move(&text) == Ok(mv),
            "to_ggf: {mv} is not legal in {pos:?}"
        );
        let colour = side_char(pos.side_to_move()).to_ascii_uppercase();
        let colour = if colour == 'X' { 'B' } else { 'W' };
        record.push_str(&format!("{colour}[{}]", text.to_ascii_uppercase()));
        pos.play(mv);
    }
    let result = if pos.is_over() {
        format!("{:+}", pos.final_score() * pos.side_to_move().sign())
    } else {
        "?".to_string()
    };
    let text = start.to_text();
    let (board, side) = text.split_at(64);
    let board = board.replace('X', "*");
    let side = if side.trim() == "X" { '*' } else { 'O' };
    out.push_str(&format!("RE[{result}]TI[0]TY[8]BO[8 {board} {side}]"));
    out.push_str(&record);
    out.push_str(";)");
    out
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
}
