//! Game records: PGN with the `Variant "xiangqi"` tag (and `FEN` where the game does not
//! begin at the start), the moves in ICCS coordinates, which every xiangqi program reads; and
//! when read, also a FEN alone or UCCI/UCI `position` arguments (`startpos moves h2e2 h9g7`).
//! Moves are checked on the bare rules: a game may go on past a repetition no one claimed.

use duel_core::pgn::{self, RESULTS};
use duel_core::{Game, GameInfo, PositionError, RecordInfo, Side};

use crate::board::Move;
use crate::notation::parse_iccs;
use crate::{Xiangqi, START_FEN};

/// Why a record was refused: its PGN's form, a tag, or a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RecordError {
    /// A comment without its `}`.
    #[error("a comment '{{' is not closed")]
    UnclosedComment,
    /// A variation without its `)`.
    #[error("a variation '(' is not closed")]
    UnclosedVariation,
    /// A `)` outside any variation.
    #[error("')' closes no variation")]
    StrayParenthesis,
    /// A tag whose name is missing or not a name (what came between `[` and the quote).
    #[error("tag '[{0}': a name, then its value in quotes")]
    TagName(String),
    /// A tag value without its closing quote.
    #[error("tag {0}: its value's quote is not closed")]
    TagQuote(String),
    /// A tag without its `]`.
    #[error("tag {0}: no ']' after its value")]
    TagEnd(String),
    /// A `Variant` tag of another game (as lower-cased and squeezed).
    #[error("Variant tag: '{0}' is not xiangqi (this is the xiangqi reader)")]
    Variant(String),
    /// A `FEN` tag that is no position: why.
    #[error("FEN tag: {0}")]
    FenTag(String),
    /// A movetext word that is not ICCS coordinates.
    #[error("move {}{} {word}: not ICCS coordinates (h2e2)", .ply / 2 + 1, dots(*.ply))]
    NotIccs {
        /// The ply it would be, counted as the game counts them.
        ply: u32,
        /// The word, without its move number and annotations.
        word: String,
    },
    /// A move that is not legal where it is played.
    #[error("move {}{} {word}: not a legal move", .ply / 2 + 1, dots(*.ply))]
    Illegal {
        /// The ply it would be, counted as the game counts them.
        ply: u32,
        /// The word, without its move number and annotations.
        word: String,
    },
}

/// A move number's dots: `.` before Red's move, `...` before Black's.
fn dots(ply: u32) -> &'static str {
    if ply.is_multiple_of(2) {
        "."
    } else {
        "..."
    }
}

/// The PGN of `moves` played from `start`: the Seven Tag Roster with `info`'s names and tags
/// ([`RecordInfo::pgn_tags`]), its comments, result and termination.
pub(crate) fn write(start: &Xiangqi, moves: &[Move], info: &RecordInfo<'_>) -> String {
    let comment = |c: &str| format!("{{{}}}", c.replace('}', ")"));
    let mut pos = Xiangqi::from_board(start.board().clone(), 0, start.ply());
    let mut words = Vec::new();
    let number = |pos: &Xiangqi| pos.ply() / 2 + 1;
    for (i, &mv) in moves.iter().enumerate() {
        let red = pos.side_to_move() == Side::First;
        let after_comment = i > 0 && info.notes.get(i - 1).is_some_and(|n| !n.is_empty());
        if red {
            words.push(format!("{}.", number(&pos)));
        } else if i == 0 || after_comment {
            words.push(format!("{}...", number(&pos)));
        }
        words.push(pos.format_move(mv));
        pos.play(mv);
        if let Some(note) = info.notes.get(i).filter(|n| !n.is_empty()) {
            words.push(comment(note));
        }
    }
    let mut end = start.clone();
    for &mv in moves {
        end.play(mv);
    }
    let result = info.result.unwrap_or(pgn::result(&end));
    if let Some(t) = info.termination {
        words.push(comment(t));
    }
    words.push(result.to_string());
    let mut tags = info.pgn_tags(<Xiangqi as GameInfo>::SIDE_NAMES, result);
    let mut tag = |k: &str, v: &str| tags.push((k.to_string(), v.to_string()));
    tag("Variant", "xiangqi");
    let fen = start.to_text();
    if fen != START_FEN {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    let mut out = pgn::write_tags(tags);
    out.push('\n');
    out.push_str(&wrap(&words, 80));
    out
}

/// Words joined by spaces into lines of at most `width` characters (a longer word alone).
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > width {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(w);
        line_len += w.len();
    }
    out.push('\n');
    out
}

/// The game a PGN record holds (the first, if several): the start (the `FEN` tag's, else the
/// start position) and the moves, each checked. An error names the tag or the move that is
/// wrong. A `Variant` tag other than xiangqi is refused.
pub fn read_pgn(text: &str) -> Result<(Xiangqi, Vec<Move>), PositionError> {
    pgn_game(text).map_err(|e| PositionError::new(Xiangqi::NAME, text, e.to_string()))
}

/// [`read_pgn`]'s game, or why there is none.
fn pgn_game(text: &str) -> Result<(Xiangqi, Vec<Move>), RecordError> {
    let Pgn { tags, words } = split_pgn(text)?;
    let tag = |name: &str| tags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
    if let Some(v) = tag("Variant") {
        let v = v.to_ascii_lowercase().replace([' ', '-'], "");
        if !["xiangqi", "chinesechess", "cchess"].contains(&v.as_str()) {
            return Err(RecordError::Variant(v));
        }
    }
    let start = match tag("FEN") {
        Some(fen) => Xiangqi::from_text(fen).map_err(|e| RecordError::FenTag(e.reason))?,
        None => Xiangqi::start(),
    };
    let moves = replay(&start, words.iter().map(String::as_str))?;
    Ok((start, moves))
}

/// A record in any of the forms the module reads (see the module doc); a bare list of moves is
/// read from the start position.
pub(crate) fn read_record(text: &str) -> Result<(Xiangqi, Vec<Move>), PositionError> {
    let err = |why: String| PositionError::new(Xiangqi::NAME, text, why);
    let mut words = text.split_whitespace().peekable();
    words.next_if_eq(&"position");
    let start = match words.peek().copied() {
        Some("startpos") => {
            words.next();
            Xiangqi::start()
        }
        Some(w) if w == "fen" || w.contains('/') => {
            words.next_if_eq(&"fen");
            let fen: Vec<&str> = words.by_ref().take_while(|&w| w != "moves").collect();
            Xiangqi::from_text(&fen.join(" ")).map_err(|e| err(e.reason))?
        }
        _ => return read_pgn(text),
    };
    words.next_if_eq(&"moves");
    let moves = replay(&start, words).map_err(|e| err(e.to_string()))?;
    Ok((start, moves))
}

/// The moves of `words` (ICCS, move numbers and annotations passed over) played from `start`
/// on the bare rules.
fn replay<'a>(
    start: &Xiangqi,
    words: impl Iterator<Item = &'a str>,
) -> Result<Vec<Move>, RecordError> {
    let mut board = start.board().clone();
    let mut moves = Vec::new();
    let mut ply = start.ply();
    for word in words {
        if RESULTS.contains(&word) {
            break;
        }
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let word = word.trim_end_matches(['!', '?', '+', '#']);
        if word.is_empty() || word.starts_with('$') {
            continue;
        }
        let (from, to) = parse_iccs(word).ok_or_else(|| RecordError::NotIccs {
            ply,
            word: word.to_string(),
        })?;
        let mv = Move::new(from, to);
        if !board.is_legal(mv) {
            return Err(RecordError::Illegal {
                ply,
                word: word.to_string(),
            });
        }
        board.make(mv);
        moves.push(mv);
        ply += 1;
    }
    Ok(moves)
}

/// A PGN game taken apart: its tag pairs (name, value) and its movetext's words.
struct Pgn {
    tags: Vec<(String, String)>,
    words: Vec<String>,
}

/// PGN's tag pairs and its movetext words, without comments (`{...}`, `;` to the end of the
/// line), variations (nested parentheses) and escaped lines (`%` first on a line); the
/// movetext ends at its result or at a tag after it (the next game).
fn split_pgn(text: &str) -> Result<Pgn, RecordError> {
    let mut tags = Vec::new();
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0;
    let mut line_start = true;
    let flush = |word: &mut String, words: &mut Vec<String>| {
        if !word.is_empty() {
            words.push(std::mem::take(word));
        }
    };
    while let Some(c) = chars.next() {
        let at_line_start = std::mem::replace(&mut line_start, c == '\n');
        match c {
            '%' if at_line_start => skip_line(&mut chars, &mut line_start),
            ';' => skip_line(&mut chars, &mut line_start),
            '{' => {
                flush(&mut word, &mut words);
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(RecordError::UnclosedComment);
                }
            }
            '(' => {
                flush(&mut word, &mut words);
                depth += 1;
            }
            ')' if depth == 0 => return Err(RecordError::StrayParenthesis),
            ')' => depth -= 1,
            _ if depth > 0 => {}
            '[' => {
                flush(&mut word, &mut words);
                if !words.is_empty() {
                    break;
                }
                tags.push(read_tag(&mut chars)?);
            }
            _ if c.is_whitespace() || c == '\u{feff}' => {
                flush(&mut word, &mut words);
                if words.last().is_some_and(|w| RESULTS.contains(&w.as_str())) {
                    break;
                }
            }
            _ => word.push(c),
        }
    }
    if depth > 0 {
        return Err(RecordError::UnclosedVariation);
    }
    flush(&mut word, &mut words);
    Ok(Pgn { tags, words })
}

/// Passes over the rest of a line.
fn skip_line(chars: &mut impl Iterator<Item = char>, line_start: &mut bool) {
    chars.by_ref().find(|&c| c == '\n');
    *line_start = true;
}

/// A tag pair whose `[` was just read: `Name "value"]`, the value unescaped (`\"`, `\\`).
fn read_tag(chars: &mut impl Iterator<Item = char>) -> Result<(String, String), RecordError> {
    let head: String = chars.by_ref().take_while(|&c| c != '"').collect();
    let name = head.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(RecordError::TagName(head));
    }
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('"') => break,
            Some('\\') => value.extend(chars.next()),
            Some(c) => value.push(c),
            None => return Err(RecordError::TagQuote(name.to_string())),
        }
    }
    match chars.find(|c| !c.is_whitespace()) {
        Some(']') => Ok((name.to_string(), value)),
        _ => Err(RecordError::TagEnd(name.to_string())),
    }
}
