//! Piskvork's opening lists, as its `openings.txt` holds them (data/gomoku/
//! openings-piskvork.txt): a line of `x,y` offsets from the board's centre, comma-separated,
//! Black first. Read by Gomoku's [`duel_core::GameInfo::read_openings`] beside the positions
//! every game's openings files hold.

use duel_core::{Game, OpeningLine};

use crate::Gomoku;

/// `line` as an opening from `start`: the moves, as `x,y`, of a Piskvork line centred on
/// `start`'s board; skipped where a stone falls off it or a point repeats (a 15x15 board
/// cannot hold every 20x20 opening); [`OpeningLine::Other`] when the line is not one.
pub(crate) fn piskvork_line(start: &Gomoku, line: &str) -> OpeningLine {
    match piskvork_offsets(line) {
        None => OpeningLine::Other,
        Some(Err(e)) => OpeningLine::Bad(e.to_string()),
        Some(Ok(offsets)) => match centred(start, &offsets) {
            Some(moves) => OpeningLine::Moves(moves),
            None => OpeningLine::Skipped,
        },
    }
}

/// A pair of a Piskvork opening line that is no offset (a number too large), as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{x}, {y}' is not an offset x,y")]
struct OffsetError {
    x: String,
    y: String,
}

/// A Piskvork opening line (`0,0, 1,0, 1,3`: offsets from the centre, comma-separated), or
/// None when the line is not one; an error when it looks like one but a number is not.
fn piskvork_offsets(line: &str) -> Option<Result<Vec<(i32, i32)>, OffsetError>> {
    let numbers: Vec<&str> = line.split(',').map(str::trim).collect();
    let looks = numbers.len() >= 2
        && numbers.len().is_multiple_of(2)
        && numbers.iter().all(|n| {
            !n.is_empty()
                && n.trim_start_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
        });
    if !looks {
        return None;
    }
    Some(
        numbers
            .chunks(2)
            .map(|p| match (p[0].parse(), p[1].parse()) {
                (Ok(x), Ok(y)) => Ok((x, y)),
                _ => Err(OffsetError {
                    x: p[0].to_string(),
                    y: p[1].to_string(),
                }),
            })
            .collect(),
    )
}

/// The moves, as `x,y`, of `offsets` from the centre of `start`'s board, Black first; None
/// where a stone falls off the board or a point repeats.
fn centred(start: &Gomoku, offsets: &[(i32, i32)]) -> Option<Vec<String>> {
    let (w, h) = (i32::from(start.width()), i32::from(start.height()));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &(dx, dy) in offsets {
        let (x, y) = (w / 2 + dx, h / 2 + dy);
        if !(0..w).contains(&x) || !(0..h).contains(&y) {
            return None;
        }
        let text = format!("{x},{y}");
        let mv = pos.parse_move(&text).ok()?;
        pos.play(mv);
        moves.push(text);
    }
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piskvork_lines_are_centred_skipped_or_refused() {
        let start = Gomoku::start();
        let moves = |m: &[&str]| OpeningLine::Moves(m.iter().map(|s| s.to_string()).collect());
        assert_eq!(piskvork_line(&start, "0,0, 1,0"), moves(&["7,7", "8,7"]));
        assert_eq!(piskvork_line(&start, "0,0, 8,0"), OpeningLine::Skipped);
        assert_eq!(piskvork_line(&start, "0,0, 0,0"), OpeningLine::Skipped);
        assert_eq!(piskvork_line(&start, "h8 i9"), OpeningLine::Other);
        assert_eq!(
            piskvork_line(&start, "0,0, -,3"),
            OpeningLine::Bad("'-, 3' is not an offset x,y".into())
        );
    }
}
