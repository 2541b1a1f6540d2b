//! Openings read from a file, as tournament managers take them from an opening book. Chess:
//! EPD or FEN lines (one start position each, as in the UHO and Noomen suites), or PGN games
//! (each game's moves from the standard start or from its `FEN` tag, as in `8moves_v3.pgn`).
//! Every other game: one position a line in the game's own text form, read in the match's
//! variant; for Gomoku also Piskvork's opening lists (`x,y` offsets from the board's centre,
//! Black first), as its `openings.txt` holds them.

use std::any::{Any, TypeId};

use duel_chess::Chess;
use duel_core::{Game, GameInfo};
use duel_gomoku::Gomoku;

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
    /// A chess book (FEN, EPD, PGN) was read for another game.
    #[error("{game} reads no chess book")]
    NotChess {
        /// The game asked for.
        game: &'static str,
    },
}

/// The openings of `text` for a match of `G` from `start` (its variant's start position):
/// [`read_openings`] for chess, else one position a line in the game's text form (blank
/// lines and lines starting with `#` skipped), or for Gomoku a Piskvork opening list, whose
/// lines falling off the board are skipped (a 15x15 board cannot hold every 20x20 opening).
pub fn read_book<G: GameInfo>(
    text: &str,
    chess960: bool,
    start: &G,
) -> Result<Vec<Opening<G>>, BookError> {
    if TypeId::of::<G>() == TypeId::of::<Chess>() {
        let boxed: Box<dyn Any> = Box::new(read_openings(text, chess960)?);
        return boxed
            .downcast::<Vec<Opening<G>>>()
            .map(|b| *b)
            .map_err(|_| BookError::NotChess { game: G::NAME });
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| BookError::Line {
            line: i + 1,
            reason,
        };
        if let Some(offsets) = piskvork_offsets(line) {
            let offsets = offsets.map_err(bad)?;
            if let Some(moves) = centred::<G>(start, &offsets) {
                out.push(Opening {
                    start: start.clone(),
                    moves,
                });
            }
            continue;
        }
        match G::from_text_in(start, line) {
            Ok(pos) => out.push(Opening::at(pos)),
            Err(e) => match move_line(start, line) {
                Some(moves) => out.push(Opening {
                    start: start.clone(),
                    moves,
                }),
                None => return Err(bad(e.reason)),
            },
        }
    }
    if out.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(out)
}

/// A line of moves written together from `start`, as XOT lists Othello openings
/// (`f5d6c4d3c2b3b4b5`, data/othello/xot-openings.txt): each move the shortest legal prefix of
/// what is left. None when the line has a space or some part of it is no legal move.
fn move_line<G: GameInfo>(start: &G, line: &str) -> Option<Vec<String>> {
    if line.contains(char::is_whitespace) {
        return None;
    }
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let ends = rest.char_indices().skip(1).map(|(i, _)| i);
        let (text, mv) = ends
            .chain([rest.len()])
            .find_map(|i| pos.parse_move(&rest[..i]).ok().map(|mv| (&rest[..i], mv)))?;
        pos.play(mv);
        moves.push(text.to_string());
        rest = &rest[text.len()..];
    }
    Some(moves)
}

/// A Piskvork opening line (`0,0, 1,0, 1,3`: offsets from the centre, comma-separated), or
/// None when the line is not one; an error when it looks like one but a number is not.
fn piskvork_offsets(line: &str) -> Option<Result<Vec<(i32, i32)>, String>> {
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
                _ => Err(format!("'{}, {}' is not an offset x,y", p[0], p[1])),
            })
            .collect(),
    )
}

/// The moves, as `x,y`, of `offsets` from the centre of `start`'s board, Black first; None
/// where `start` is not a Gomoku board, a stone falls off it, or a point repeats.
fn centred<G: GameInfo>(start: &G, offsets: &[(i32, i32)]) -> Option<Vec<String>> {
    let board = Gomoku::from_text(&start.to_text()).ok()?;
    let (w, h) = (i32::from(board.width()), i32::from(board.height()));
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
        read_pgn(text, chess960)?
    } else {
        read_positions(text)?
    };
    // A PGN game's moves are already in this notation; a position line has none.
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
/// variations, move numbers, annotation glyphs or the result. The moves are written in the
/// notation the match speaks: with `chess960`, castling as the king taking its rook (the
/// book's `O-O` read as `e1g1` would be a king move no Chess960 engine accepts; found by the
/// books property test).
fn read_pgn(text: &str, chess960: bool) -> Result<Vec<Opening<Chess>>, BookError> {
    let mut out = Vec::new();
    let mut fen: Option<String> = None;
    let mut movetext = String::new();
    let mut first_line = 0;
    let mut finish = |fen: &mut Option<String>, movetext: &mut String, line: usize| {
        let game = out.len() + 1;
        let bad = |reason: String| BookError::Game { game, line, reason };
        let mut start = match fen.take() {
            Some(f) => Chess::from_text(&f).map_err(|e| bad(format!("FEN tag: {e}")))?,
            None => Chess::start(),
        };
        if chess960 {
            start.set_chess960(true);
        }
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
        // In a Chess960 match the same castling is the king taking its rook.
        let o = read_openings("1.e4 e5 2.Nf3 Nf6 3.Bc4 Bc5 4.O-O *\n", true).unwrap();
        assert_eq!(o[0].moves.last().map(String::as_str), Some("e1h1"));
        assert!(o[0].start.is_chess960());
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

    /// Piskvork's list, centred: 40 of its 41 lines fit 15x15 (one reaches 8 from the
    /// centre), all 41 fit 20x20; other games read their own position texts.
    #[test]
    fn gomoku_reads_piskvork_lists_and_other_games_their_texts() {
        let list = include_str!("../../../data/gomoku/openings-piskvork.txt");
        let on = |spec: &str| {
            let start = <Gomoku as GameInfo>::variant(spec).unwrap();
            read_book(list, false, &start).unwrap()
        };
        let fifteen = on("");
        assert_eq!(fifteen.len(), 40);
        assert_eq!(fifteen[0].moves, ["7,7", "8,7", "8,10"]);
        assert_eq!(on("20").len(), 41);
        assert_eq!(on("20")[0].moves, ["10,10", "11,10", "11,13"]);
        let start = Gomoku::start();
        let texts = read_book("# two\nh8 i9\n\nh8 h9 h10\n", false, &start).unwrap();
        assert_eq!(texts[1].position().unwrap().to_text(), "h8 h9 h10");
        let err = read_book("h8 h8\n", false, &start).unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        let err = read_book("0,0, 1,x\n", false, &start).unwrap_err();
        assert!(err.to_string().starts_with("line 1:"), "{err}");
        let t = duel_tictactoe::TicTacToe::start();
        assert_eq!(read_book("519\n", false, &t).unwrap().len(), 1);
        // Othello: positions, or XOT's lines of moves from the start, all 10,784 of them.
        let o = duel_othello::Othello::start();
        let xot = include_str!("../../../data/othello/xot-openings.txt");
        let lines = read_book(xot, false, &o).unwrap();
        assert_eq!(lines.len(), 10_784);
        assert_eq!(lines[0].moves.join(""), "f5d6c4d3c2b3b4b5");
        assert!(lines.iter().all(|l| l.moves.len() == 8 && l.line().is_ok()));
        let err = read_book("f5d6z9\n", false, &o).unwrap_err();
        assert!(err.to_string().contains("expected 64"), "{err}");
        assert!(matches!(
            read_book("# only\n", false, &t),
            Err(BookError::Empty)
        ));
    }

    /// The stable-toolchain twin of fuzz/fuzz_targets/books.rs: books made of known lines,
    /// lines cut short and printable garbage, in any order. Reading must not panic, and each
    /// opening read starts from a position that passes the conformance checks and plays
    /// only moves its position accepts.
    mod property {
        use super::*;
        use duel_core::conformance::check_position;
        use proptest::prelude::*;

        const LINES: &[&str] = &[
            "# a comment",
            "",
            "[Event \"a\"]",
            "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]",
            "[SetUp \"1\"]",
            "1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bb5 a6 4. O-O *",
            "1. d4 d5 2. c4 1-0",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"x\";",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "h8 i9 h10",
            "7,7, 8,7, 8,10",
            "-7, -7, 0, 1",
            "f5d6c4d3",
            "---------------------------O*------*O--------------------------- X",
            "5193",
            "4453",
        ];

        fn books() -> impl Strategy<Value = String> {
            let line = prop_oneof![
                prop::sample::select(LINES).prop_map(str::to_string),
                (prop::sample::select(LINES), any::<prop::sample::Index>()).prop_map(|(l, cut)| l
                    .chars()
                    .take(cut.index(l.chars().count() + 1))
                    .collect()),
                "[ -~]{0,40}",
            ];
            prop::collection::vec(line, 0..8).prop_map(|lines| lines.join("\n"))
        }

        fn check<G: GameInfo>(text: &str, chess960: bool) -> Result<(), TestCaseError> {
            let Ok(openings) = read_book(text, chess960, &G::start()) else {
                return Ok(());
            };
            for o in openings {
                let mut pos = o.start.clone();
                check_position(&pos).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
                for m in &o.moves {
                    let mv = pos.parse_move(m).map_err(|e| {
                        TestCaseError::fail(format!("{text:?}: book move '{m}' refused: {e}"))
                    })?;
                    pos.play(mv);
                }
            }
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn books_read_only_legal_openings(text in books(), chess960 in any::<bool>()) {
                check::<Chess>(&text, chess960)?;
                check::<Gomoku>(&text, chess960)?;
                check::<duel_othello::Othello>(&text, chess960)?;
                check::<duel_tictactoe::TicTacToe>(&text, chess960)?;
            }
        }
    }
}
