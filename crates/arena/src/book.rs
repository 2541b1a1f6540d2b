//! Openings read from a file, as tournament managers take them from an opening book: EPD or
//! FEN lines (one start position each, as in the UHO and Noomen suites), or PGN games (each
//! game's moves from the standard start or from its `FEN` tag, as in `8moves_v3.pgn`).

use std::any::{Any, TypeId};

use duel_chess::Chess;
use duel_core::{Game, GameInfo};

use crate::Opening;

/// What is wrong with an opening file, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// A position line is not one.
    #[error("line {line}: {reason}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A PGN game cannot be read.
    #[error("game {game} (line {line}): {reason}")]
    Game {
        /// The game, from 1.
        game: usize,
        /// Its first line, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Nothing in the file.
    #[error("the opening file holds no position or game")]
    Empty,
    /// Books are read for chess only.
    #[error("opening books are chess books (FEN, EPD, PGN): {game} has none")]
    NotChess {
        /// The game asked for.
        game: &'static str,
    },
}

/// [`read_openings`] for a match of `G`, which must be chess: books are chess books.
pub fn read_book<G: GameInfo>(text: &str, chess960: bool) -> Result<Vec<Opening<G>>, BookError> {
    if TypeId::of::<G>() != TypeId::of::<Chess>() {
        return Err(BookError::NotChess { game: G::NAME });
    }
    let boxed: Box<dyn Any> = Box::new(read_openings(text, chess960)?);
    boxed
        .downcast::<Vec<Opening<G>>>()
        .map(|b| *b)
        .map_err(|_| BookError::NotChess { game: G::NAME })
}

/// The openings of an opening file's `text`: PGN if it has a tag pair or a numbered move,
/// otherwise one EPD or FEN position per line (blank lines and lines starting with `#` are
/// skipped). With `chess960`, every start gets Chess960 notation. An error names the line or
/// game and what is wrong with it.
pub fn read_openings(text: &str, chess960: bool) -> Result<Vec<Opening<Chess>>, BookError> {
    // No FEN field holds a dot, so a line starting "1." is a move number.
    let pgn = text
        .lines()
        .map(str::trim_start)
        .any(|l| l.starts_with('[') || l.starts_with("1."));
    let mut openings = if pgn {
        read_pgn(text)?
    } else {
        read_positions(text)?
    };
    if chess960 {
        for o in &mut openings {
            o.start.set_chess960(true);
        }
    }
    if openings.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(openings)
}

/// One position per line: the four FEN fields of the board, then either the two move counters
/// (FEN) or EPD operations, which are ignored.
fn read_positions(text: &str) -> Result<Vec<Opening<Chess>>, BookError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(BookError::Line {
                line: i + 1,
                reason: format!("'{line}' is not a FEN or EPD position (four fields at least)"),
            });
        }
        let counters = match fields.get(4..6) {
            Some([h, f]) if h.parse::<u32>().is_ok() && f.parse::<u32>().is_ok() => {
                format!("{h} {f}")
            }
            _ => "0 1".to_string(),
        };
        let fen = format!("{} {counters}", fields[..4].join(" "));
        let start = Chess::from_text(&fen).map_err(|e| BookError::Line {
            line: i + 1,
            reason: e.to_string(),
        })?;
        out.push(Opening {
            start,
            moves: Vec::new(),
        });
    }
    Ok(out)
}

/// PGN games: the tag pairs (only `FEN` matters here) and the moves, without comments,
/// variations, move numbers, annotation glyphs or the result.
fn read_pgn(text: &str) -> Result<Vec<Opening<Chess>>, BookError> {
    let mut out = Vec::new();
    let mut fen: Option<String> = None;
    let mut movetext = String::new();
    let mut first_line = 0;
    let mut finish = |fen: &mut Option<String>, movetext: &mut String, line: usize| {
        let game = out.len() + 1;
        let bad = |reason: String| BookError::Game { game, line, reason };
        let start = match fen.take() {
            Some(f) => Chess::from_text(&f).map_err(|e| bad(format!("FEN tag: {e}")))?,
            None => Chess::start(),
        };
        let moves = pgn_moves(&start, movetext, bad)?;
        movetext.clear();
        out.push(Opening { start, moves });
        Ok::<(), BookError>(())
    };
    let mut in_game = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            // A tag after moves starts the next game.
            if in_game && !movetext.trim().is_empty() {
                finish(&mut fen, &mut movetext, first_line)?;
                in_game = false;
            }
            if !in_game {
                in_game = true;
                first_line = i + 1;
            }
            if let Some(value) = tag_value(trimmed, "FEN") {
                fen = Some(value);
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('%') {
            continue;
        }
        if !in_game {
            in_game = true;
            first_line = i + 1;
        }
        movetext.push_str(trimmed);
        movetext.push('\n');
        // A result ends the game's moves.
        if trimmed
            .split_whitespace()
            .last()
            .is_some_and(|w| ["1-0", "0-1", "1/2-1/2", "*"].contains(&w))
        {
            finish(&mut fen, &mut movetext, first_line)?;
            in_game = false;
        }
    }
    if in_game && !movetext.trim().is_empty() {
        finish(&mut fen, &mut movetext, first_line)?;
    }
    Ok(out)
}

/// The value of tag `name` if `line` is that tag pair: `[FEN "…"]`.
fn tag_value(line: &str, name: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (tag, value) = inner.split_once(char::is_whitespace)?;
    (tag == name).then(|| value.trim().trim_matches('"').to_string())
}

/// The moves of PGN `movetext` from `start`, in UCI text.
fn pgn_moves(
    start: &Chess,
    movetext: &str,
    bad: impl Fn(String) -> BookError,
) -> Result<Vec<String>, BookError> {
    // Comments (braces, and a semicolon to the end of its line) and variations (nested
    // parentheses) go first; what is left is move numbers, moves, glyphs and the result.
    let mut plain = String::new();
    let (mut depth, mut brace, mut semicolon) = (0usize, false, false);
    for c in movetext.chars() {
        match c {
            '\n' if semicolon => semicolon = false,
            _ if semicolon => {}
            '{' if !brace => brace = true,
            '}' if brace => brace = false,
            _ if brace => {}
            ';' => semicolon = true,
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            _ => plain.push(c),
        }
        if matches!(c, '(' | ')' | '{' | '}') {
            plain.push(' ');
        }
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for word in plain.split_whitespace() {
        if word.starts_with('$') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            continue;
        }
        // "12." and "12..." and "12.e4": the number goes, a move glued to it stays ("0-0"
        // is castling, not a number).
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let word = if digits > 0 && word[digits..].starts_with('.') {
            word[digits..].trim_start_matches('.')
        } else {
            word
        };
        if word.is_empty() {
            continue;
        }
        let mv = pos
            .parse_san(word)
            .map_err(|e| bad(format!("move {} '{word}': {e}", moves.len() + 1)))?;
        moves.push(pos.format_move(mv));
        pos.play(mv);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_and_fen_lines_become_starts() {
        let text = "# a comment\n\
            rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
            \n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"x\"; c0 \"y\";\n";
        let o = read_openings(text, false).unwrap();
        assert_eq!(o.len(), 2);
        assert!(o.iter().all(|o| o.moves.is_empty()));
        assert_eq!(
            o[0].start.to_text(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(
            o[1].start.to_text(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"
        );
    }

    #[test]
    fn pgn_games_become_move_lists() {
        let text = r#"[Event "a"]
[Site "?"]

1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) 3. Bb5 a6!? $1 4.Ba4 Nf6 5. O-O 1/2-1/2

[Event "b"]
[FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
[SetUp "1"]

2. Nf3 ; to the end of the line
Nc6 3. Bc4 Bc5 *
"#;
        let o = read_openings(text, false).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].start.to_text(), duel_chess::START_FEN);
        assert_eq!(
            o[0].moves,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"]
        );
        assert_eq!(o[1].moves, ["g1f3", "b8c6", "f1c4", "f8c5"]);
        assert_eq!(
            o[1].start.to_text(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        // Games without tags, one after the other.
        let o = read_openings(
            "1. d4 d5 *\n1. c4 e5 2. Nc3 *\n1.e4 e5 2.Nf3 Nf6 3.Bc4 Bc5 4.0-0 *\n",
            false,
        )
        .unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[1].moves, ["c2c4", "e7e5", "b1c3"]);
        assert_eq!(o[2].moves.last().map(String::as_str), Some("e1g1"));
    }

    #[test]
    fn bad_openings_are_refused_by_line_or_game() {
        for (text, want) in [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w\n", "line 1"),
            ("8/8/8/8/8/8/8/8 w - -\n", "line 1"),
            ("# only a comment\n", "no position"),
            ("[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n", "game 1"),
            ("1. e4 *\n\n1. e5 *\n", "'e5'"),
            ("[FEN \"not a fen\"]\n\n1. e4 *\n", "FEN tag"),
        ] {
            let e = read_openings(text, false).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
