//! Standard algebraic notation (SAN) for display and PGN: piece letter, the least
//! disambiguation that makes the move unique, `x` for captures, `=Q` promotions, `O-O`,
//! and `+` or `#`.

use cozy_chess::{Move, Piece};
use duel_core::{Game, GameInfo, RecordInfo};

use crate::Chess;

fn letter(p: Piece) -> &'static str {
    match p {
        Piece::Pawn => "",
        Piece::Knight => "N",
        Piece::Bishop => "B",
        Piece::Rook => "R",
        Piece::Queen => "Q",
        Piece::King => "K",
    }
}

/// SAN as written loosely: without check marks and annotations, `=` in promotions optional,
/// castling with zeros or letter O in either case.
fn normalise_san(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "O-O" | "0-0" | "o-o" => "O-O".into(),
        "O-O-O" | "0-0-0" | "o-o-o" => "O-O-O".into(),
        _ => t.replace('=', ""),
    }
}

impl Chess {
    /// The legal move `text` names in standard algebraic notation (as xboard engines and PGN
    /// files write moves), also accepting `0-0`, `o-o`, `e8Q` and trailing `+`, `#`, `!`, `?`.
    pub fn parse_san(&self, text: &str) -> Result<Move, duel_core::MoveError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        self.san_among(text, &moves)
    }

    /// The move of `moves` (legal here) that `text` names in SAN, as [`Chess::parse_san`]
    /// reads it.
    pub(crate) fn san_among(
        &self,
        text: &str,
        moves: &[Move],
    ) -> Result<Move, duel_core::MoveError> {
        let want = normalise_san(text);
        moves
            .iter()
            .copied()
            .find(|&m| normalise_san(&self.san(m)) == want)
            .ok_or_else(|| {
                duel_core::MoveError::illegal(
                    text,
                    format!("no legal move is written so in {}", self.to_text()),
                )
            })
    }

    /// `mv` (legal here) in standard algebraic notation.
    pub fn san(&self, mv: Move) -> String {
        let board = self.board();
        let mut s = String::new();
        if self.is_castle(mv) {
            s.push_str(if mv.to.file() > mv.from.file() {
                "O-O"
            } else {
                "O-O-O"
            });
        } else {
            let piece = board
                .piece_on(mv.from)
                .expect("a legal move starts on a piece");
            let capture = board.color_on(mv.to).is_some()
                || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
            if piece == Piece::Pawn {
                if capture {
                    s.push_str(&mv.from.file().to_string());
                }
            } else {
                s.push_str(letter(piece));
                // Other pieces of the same kind that could also go there.
                let rivals: Vec<Move> = self
                    .legal_moves()
                    .into_iter()
                    .filter(|m| {
                        m.to == mv.to && m.from != mv.from && board.piece_on(m.from) == Some(piece)
                    })
                    .collect();
                if !rivals.is_empty() {
                    let file_unique = rivals.iter().all(|m| m.from.file() != mv.from.file());
                    let rank_unique = rivals.iter().all(|m| m.from.rank() != mv.from.rank());
                    if file_unique {
                        s.push_str(&mv.from.file().to_string());
                    } else if rank_unique {
                        s.push_str(&mv.from.rank().to_string());
                    } else {
                        s.push_str(&mv.from.to_string());
                    }
                }
            }
            if capture {
                s.push('x');
            }
            s.push_str(&mv.to.to_string());
            if let Some(p) = mv.promotion {
                s.push('=');
                s.push_str(letter(p));
            }
        }
        // The board alone: a copy of the position would copy its history, for every move of
        // a record.
        let mut after = board.clone();
        after.play_unchecked(mv);
        if !after.checkers().is_empty() {
            let has_reply = after.generate_moves(|_| true);
            s.push(if has_reply { '+' } else { '#' });
        }
        s
    }
}

/// A PGN record of `moves` played from `start`: the Seven Tag Roster and `info`'s other tags
/// ([`RecordInfo::pgn_tags`]), the Result tag `info.result` if given (a game decided on time,
/// say), else what the final position says (`*` for a game still going on). `SetUp`/`FEN`
/// follow when the game did not begin at the standard start. `info.notes[i]`, when there and
/// not empty, is a comment after move `i` (a match's `{+0.35/12 0.53s}`: value, depth and
/// time, as cutechess writes them); `info.termination`, if any, is a comment before the result
/// in the movetext. SAN movetext is wrapped at 80 columns.
pub fn pgn(start: &Chess, moves: &[Move], info: &RecordInfo<'_>) -> String {
    let (notes, result, comment) = (info.notes, info.result, info.termination);
    let braced = |c: &str| format!("{{{}}}", c.replace('}', ")"));
    let mut pos = start.clone();
    let mut words = Vec::new();
    let number = |pos: &Chess| pos.board().fullmove_number();
    if pos.board().side_to_move() == cozy_chess::Color::Black {
        words.push(format!("{}...", number(&pos)));
    }
    for (i, &mv) in moves.iter().enumerate() {
        let white = pos.board().side_to_move() == cozy_chess::Color::White;
        if white {
            words.push(format!("{}.", number(&pos)));
        } else if i > 0 && notes.get(i - 1).is_some_and(|n| !n.is_empty()) {
            // After a comment, Black's move is numbered again, as PGN export format asks.
            words.push(format!("{}...", number(&pos)));
        }
        words.push(pos.san(mv));
        pos.play(mv);
        if let Some(note) = notes.get(i).filter(|n| !n.is_empty()) {
            words.push(braced(note));
        }
    }
    let result = result.unwrap_or(duel_core::pgn::result(&pos));
    if let Some(c) = comment {
        words.push(braced(c));
    }
    words.push(result.to_string());
    let mut tags = info.pgn_tags(<Chess as GameInfo>::SIDE_NAMES, result);
    let mut tag = |k: &str, v: &str| tags.push((k.to_string(), v.to_string()));
    // The name lichess and most GUIs read; a Chess960 game's start is in the FEN tag.
    if start.is_chess960() {
        tag("Variant", "Chess960");
    }
    let fen = start.to_text();
    if fen != crate::START_FEN {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    let mut out = duel_core::pgn::write_tags(tags);
    out.push('\n');
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Whether `text` is shaped as a SAN move (`e4`, `Nbd2`, `R1e1`, `Qh4xe1`, `exd5`, `e8=Q`,
/// `e8Q`, `O-O`, `0-0-0`), check and annotation marks after it allowed. Only the shape: the
/// position says whether it is legal.
pub(crate) fn is_san_syntax(text: &str) -> bool {
    let t = text.trim_end_matches(['+', '#', '!', '?']);
    if matches!(t, "O-O" | "O-O-O" | "0-0" | "0-0-0" | "o-o" | "o-o-o") {
        return true;
    }
    let b = t.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    // A promotion at the end: `=Q` or `Q` after a pawn's destination.
    let (body, promoted) = match b {
        [rest @ .., b'=', p] | [rest @ .., p] if b"QRBN".contains(p) && rest.len() >= 2 => {
            (rest, true)
        }
        _ => (b, false),
    };
    let n = body.len();
    if n < 2 || !file(body[n - 2]) || !rank(body[n - 1]) {
        return false;
    }
    let before = &body[..n - 2];
    let before = before.strip_suffix(b"x").unwrap_or(before);
    match before {
        // A pawn's move, or its capture from a file.
        [] => true,
        [f] if file(*f) => true,
        // A piece's move, with the file, rank or square it comes from where needed.
        [p, from @ ..] if b"KQRBN".contains(p) && !promoted => match from {
            [] => true,
            [c] => file(*c) || rank(*c),
            [f, r] => file(*f) && rank(*r),
            _ => false,
        },
        _ => false,
    }
}
