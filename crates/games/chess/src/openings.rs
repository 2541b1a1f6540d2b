//! Openings files as tournament managers read them: EPD or FEN lines (one start position
//! each, as in the UHO and Noomen suites), or PGN games (each game's moves from the standard
//! start or from its `FEN` tag, as in `8moves_v3.pgn`): chess's
//! [`duel_core::GameInfo::read_openings`]. This PGN reader forgives as managers do (an
//! unclosed comment ends the game's moves); [`crate::read_pgn`] reads one record strictly.

use duel_core::{Game, OpeningsError};

use crate::record::RESULTS;
use crate::Chess;

/// The openings of an openings file's `text`: PGN if it has a tag pair or a numbered move,
/// otherwise one EPD or FEN position per line (blank lines and lines starting with `#` are
/// skipped). Where `start` has Chess960 notation on, every start gets it. An error names the
/// line or game and what is wrong with it.
pub(crate) fn read_openings(
    start: &Chess,
    text: &str,
) -> Result<Vec<(Chess, Vec<String>)>, OpeningsError> {
    let chess960 = start.is_chess960();
    // No FEN field holds a dot, so a line starting "1." is a move number.
    let pgn = text
        .lines()
        .map(str::trim_start)
        .any(|l| l.starts_with('[') || l.starts_with("1."));
    let mut openings = if pgn {
        read_pgn(text, chess960)?
    } else {
        read_positions(text)?
    };
    // A PGN game's moves are already in this notation; a position line has none.
    if chess960 {
        for (start, _) in &mut openings {
            start.set_chess960(true);
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

/// One position per line: the four FEN fields of the board, then either the two move counters
/// (FEN) or EPD operations, which are ignored.
fn read_positions(text: &str) -> Result<Vec<(Chess, Vec<String>)>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(OpeningsError::Line {
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
        let start = Chess::from_text(&fen).map_err(|e| OpeningsError::Line {
            line: i + 1,
            reason: e.to_string(),
        })?;
        out.push((start, Vec::new()));
    }
    Ok(out)
}

/// PGN games: the tag pairs (only `FEN` matters here) and the moves, without comments,
/// variations, move numbers, annotation glyphs or the result. The moves are written in the
/// notation the match speaks: with `chess960`, castling as the king taking its rook (the
/// book's `O-O` read as `e1g1` would be a king move no Chess960 engine accepts; found by the
/// openings files' property test).
fn read_pgn(text: &str, chess960: bool) -> Result<Vec<(Chess, Vec<String>)>, OpeningsError> {
    let mut out = Vec::new();
    let mut fen: Option<String> = None;
    let mut movetext = String::new();
    let mut first_line = 0;
    let mut finish = |fen: &mut Option<String>, movetext: &mut String, line: usize| {
        let game = out.len() + 1;
        let bad = |reason: String| OpeningsError::Game { game, line, reason };
        let mut start = match fen.take() {
            Some(f) => Chess::from_text(&f).map_err(|e| bad(format!("FEN tag: {e}")))?,
            None => Chess::start(),
        };
        if chess960 {
            start.set_chess960(true);
        }
        let moves = pgn_moves(&start, movetext, bad)?;
        movetext.clear();
        out.push((start, moves));
        Ok::<(), OpeningsError>(())
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
            .is_some_and(|w| RESULTS.contains(&w))
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
    bad: impl Fn(String) -> OpeningsError,
) -> Result<Vec<String>, OpeningsError> {
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
        if word.starts_with('$') || RESULTS.contains(&word) {
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
    use duel_core::GameInfo;

    fn read(text: &str, chess960: bool) -> Result<Vec<(Chess, Vec<String>)>, OpeningsError> {
        let mut start = Chess::start();
        start.set_switch("UCI_Chess960", chess960);
        Chess::read_openings(&start, text)
    }

    #[test]
    fn epd_and_fen_lines_become_starts() {
        let text = "# a comment\n\
            rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
            \n\
            r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"x\"; c0 \"y\";\n";
        let o = read(text, false).unwrap();
        assert_eq!(o.len(), 2);
        assert!(o.iter().all(|o| o.1.is_empty()));
        assert_eq!(
            o[0].0.to_text(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(
            o[1].0.to_text(),
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
        let o = read(text, false).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].0.to_text(), crate::START_FEN);
        assert_eq!(
            o[0].1,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"]
        );
        assert_eq!(o[1].1, ["g1f3", "b8c6", "f1c4", "f8c5"]);
        assert_eq!(
            o[1].0.to_text(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        // Games without tags, one after the other.
        let o = read(
            "1. d4 d5 *\n1. c4 e5 2. Nc3 *\n1.e4 e5 2.Nf3 Nf6 3.Bc4 Bc5 4.0-0 *\n",
            false,
        )
        .unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[1].1, ["c2c4", "e7e5", "b1c3"]);
        assert_eq!(o[2].1.last().map(String::as_str), Some("e1g1"));
        // In a Chess960 match the same castling is the king taking its rook.
        let o = read("1.e4 e5 2.Nf3 Nf6 3.Bc4 Bc5 4.O-O *\n", true).unwrap();
        assert_eq!(o[0].1.last().map(String::as_str), Some("e1h1"));
        assert!(o[0].0.is_chess960());
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
            let e = read(text, false).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
