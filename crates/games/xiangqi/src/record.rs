//! Game records: PGN with the `Variant "xiangqi"` tag (and `FEN` where the game does not
//! begin at the start), the moves in ICCS coordinates, which every xiangqi program reads; and
//! when read, also a FEN alone or UCCI/UCI `position` arguments (`startpos moves h2e2 h9g7`).
//! Moves are checked on the bare rules: a game may go on past a repetition no one claimed.

use duel_core::{Game, GameInfo, Outcome, PositionError, RecordInfo, Side};

use crate::board::Move;
use crate::notation::parse_iccs;
use crate::{Xiangqi, START_FEN};

/// The results that end PGN movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

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
    let result = info.result.unwrap_or(match end.outcome() {
        None => "*",
        Some(Outcome::Draw) => "1/2-1/2",
        Some(o) => {
            let red_won = (o == Outcome::Win) == (end.side_to_move() == Side::First);
            if red_won {
                "1-0"
            } else {
                "0-1"
            }
        }
    });
    if let Some(t) = info.termination {
        words.push(comment(t));
    }
    words.push(result.to_string());
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    };
    for (k, v) in info.pgn_tags(<Xiangqi as GameInfo>::SIDE_NAMES, result) {
        tag(&k, &v);
    }
    tag("Variant", "xiangqi");
    let fen = start.to_text();
    if fen != START_FEN {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
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
    let err = |why: String| PositionError::new(Xiangqi::NAME, text, why);
    let Pgn { tags, words } = split_pgn(text).map_err(err)?;
    let tag = |name: &str| tags.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v);
    if let Some(v) = tag("Variant") {
        let v = v.to_ascii_lowercase().replace([' ', '-'], "");
        if !["xiangqi", "chinesechess", "cchess"].contains(&v.as_str()) {
            return Err(err(format!(
                "Variant tag: '{v}' is not xiangqi (this is the xiangqi reader)"
            )));
        }
    }
    let start = match tag("FEN") {
        Some(fen) => Xiangqi::from_text(fen).map_err(|e| err(format!("FEN tag: {}", e.reason)))?,
        None => Xiangqi::start(),
    };
    let moves = replay(&start, words.iter().map(String::as_str)).map_err(err)?;
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
    let moves = replay(&start, words).map_err(err)?;
    Ok((start, moves))
}

/// The moves of `words` (ICCS, move numbers and annotations passed over) played from `start`
/// on the bare rules.
fn replay<'a>(start: &Xiangqi, words: impl Iterator<Item = &'a str>) -> Result<Vec<Move>, String> {
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
        let here = || {
            let dots = if ply.is_multiple_of(2) { "." } else { "..." };
            format!("move {}{dots} {word}", ply / 2 + 1)
        };
        let (from, to) =
            parse_iccs(word).ok_or_else(|| format!("{}: not ICCS coordinates (h2e2)", here()))?;
        let mv = Move::new(from, to);
        if !board.is_legal(mv) {
            return Err(format!("{}: not a legal move", here()));
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
fn split_pgn(text: &str) -> Result<Pgn, String> {
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
                    return Err("a comment '{' is not closed".into());
                }
            }
            '(' => {
                flush(&mut word, &mut words);
                depth += 1;
            }
            ')' if depth == 0 => return Err("')' closes no variation".into()),
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
        return Err("a variation '(' is not closed".into());
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
fn read_tag(chars: &mut impl Iterator<Item = char>) -> Result<(String, String), String> {
    let head: String = chars.by_ref().take_while(|&c| c != '"').collect();
    let name = head.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag '[{head}': a name, then its value in quotes"));
    }
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('"') => break,
            Some('\\') => value.extend(chars.next()),
            Some(c) => value.push(c),
            None => return Err(format!("tag {name}: its value's quote is not closed")),
        }
    }
    match chars.find(|c| !c.is_whitespace()) {
        Some(']') => Ok((name.to_string(), value)),
        _ => Err(format!("tag {name}: no ']' after its value")),
    }
}
