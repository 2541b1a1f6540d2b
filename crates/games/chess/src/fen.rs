//! Why a FEN was refused. `cozy-chess` decides which FENs are accepted, but it names only the
//! field at fault (its whole verdict on an illegal board is "The board is invalid."), so once
//! it has refused one we read the text again ourselves, in the order it checks, to name the
//! rule that failed. The diagnosis never accepts or refuses anything: when it finds nothing
//! more specific, the error is `cozy-chess`'s own.

use cozy_chess::{
    get_between_rays, get_bishop_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
    BitBoard, Board, Color, FenParseError, File, Piece, Rank, Square,
};

/// Why [`parse_fen`](crate::parse_fen) refused a FEN, as specific as the text allows. The
/// [`Display`](std::fmt::Display) form is a sentence for the user, such as `two white kings (e1, e4)`.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// Fewer than two fields or more than six (counted between runs of whitespace).
    #[error("{}", field_count(*.found))]
    FieldCount {
        /// The number of fields found.
        found: usize,
    },
    /// Fields not separated by single spaces: two in a row, one at either end, or a tab.
    #[error(
        "fields must be separated by single spaces (not tabs or runs of spaces), with none at \
         the start or end"
    )]
    Spacing,
    /// A board field without eight ranks separated by `/`.
    #[error("the board has {found} rank{}; a FEN board has 8, separated by '/'", plural(*.found))]
    RankCount {
        /// The number of ranks found.
        found: usize,
    },
    /// A rank whose pieces and digits do not add up to eight squares.
    #[error(
        "rank {} adds up to {squares} square{} instead of 8",
        char::from(*.rank),
        plural(*.squares)
    )]
    RankLength {
        /// The rank, as chess names it (the FEN's first is the eighth).
        rank: Rank,
        /// The number of squares it describes.
        squares: usize,
    },
    /// A character in the board field that is neither a piece letter nor a digit.
    #[error(
        "unknown piece letter {found:?} on rank {} (pieces are PNBRQK for White, pnbrqk for \
         Black; digits count empty squares)",
        char::from(*.rank)
    )]
    UnknownPiece {
        /// The rank it stands on.
        rank: Rank,
        /// The character.
        found: char,
    },
    /// A side to move other than `w` or `b`.
    #[error("side to move {found:?} is neither 'w' nor 'b'")]
    SideToMove {
        /// The field as written.
        found: String,
    },
    /// A colour without a king.
    #[error("no {} king", adjective(*.color))]
    NoKing {
        /// The colour.
        color: Color,
    },
    /// A colour with more than one king.
    #[error(
        "{} {} kings ({})",
        number(.squares.len()),
        adjective(*.color),
        square_list(.squares)
    )]
    ExtraKings {
        /// The colour.
        color: Color,
        /// Where its kings stand, from a1 on.
        squares: Vec<Square>,
    },
    /// A pawn on the first or eighth rank.
    #[error(
        "{} pawn on {square} (pawns cannot stand on the first or eighth rank)",
        adjective(*.color)
    )]
    PawnOnBackRank {
        /// The pawn's colour.
        color: Color,
        /// Its square.
        square: Square,
    },
    /// More than sixteen pieces of one colour.
    #[error("{count} {} pieces (a side has at most 16)", adjective(*.color))]
    TooManyPieces {
        /// The colour.
        color: Color,
        /// Its number of pieces, king and pawns included.
        count: usize,
    },
    /// More than eight pawns of one colour.
    #[error("{count} {} pawns (a side has at most 8)", adjective(*.color))]
    TooManyPawns {
        /// The colour.
        color: Color,
        /// Its number of pawns.
        count: usize,
    },
    /// The side that just moved has left its king in check.
    #[error(
        "{}, not to move, is in check from {} (the side that just moved cannot have left its \
         king in check)",
        side(*.color),
        pieces(!*.color, .checkers)
    )]
    NotToMoveInCheck {
        /// The side in check (not the side to move).
        color: Color,
        /// The pieces giving check, from a1 on.
        checkers: Vec<(Piece, Square)>,
    },
    /// The side to move is in check from more pieces than one move can uncover.
    #[error(
        "{}, to move, is in check from {} pieces ({}); no move gives more than two checks at \
         once",
        side(*.color),
        number(.checkers.len()),
        pieces(!*.color, .checkers)
    )]
    TooManyCheckers {
        /// The side to move.
        color: Color,
        /// The pieces giving check, from a1 on.
        checkers: Vec<(Piece, Square)>,
    },
    /// A character in the castling field that names no castling right.
    #[error(
        "castling field has {found:?}, which names no castling right (KQkq, or the rook's file \
         A-H/a-h, or '-' alone for none)"
    )]
    CastlingLetter {
        /// The character.
        found: char,
    },
    /// A castling right whose king is off its first rank.
    #[error(
        "castling right {right} but the {} king is on {king}, not on its first rank",
        adjective(right_color(*.right))
    )]
    CastlingKingOffBackRank {
        /// The right as written (`K`, `q`, `H`, ...).
        right: char,
        /// Where that colour's king stands.
        king: Square,
    },
    /// A castling right without the rook it needs: on the named file (Shredder-FEN, or the
    /// corner for `KQkq` with the king on the e-file), or anywhere on that side of the king.
    #[error("{}", castling_no_rook(*.right, *.king))]
    CastlingNoRook {
        /// The right as written.
        right: char,
        /// Where that colour's king stands.
        king: Square,
    },
    /// Two rights for the same side of the same king.
    #[error("{}", castling_twice(*.first, *.second))]
    CastlingTwice {
        /// The first right as written.
        first: char,
        /// The second right as written.
        second: char,
    },
    /// An en passant field that is neither `-` nor a square.
    #[error("en passant square {found:?} is not a square (expected '-' or a square such as e3)")]
    EnPassantSyntax {
        /// The field as written.
        found: String,
    },
    /// An en passant square off the rank a double step of the side not to move passes over.
    #[error(
        "en passant square {square} is on the wrong rank: with {} to move it must be on rank {}",
        side(*.to_move),
        char::from(Rank::Third.relative_to(!*.to_move))
    )]
    EnPassantRank {
        /// The square.
        square: Square,
        /// The side to move.
        to_move: Color,
    },
    /// An en passant square without the pawn that would have just double-stepped past it.
    #[error(
        "en passant square {square} but no {} pawn on {pawn} that could just have moved two \
         squares",
        adjective(!*.to_move)
    )]
    EnPassantNoPawn {
        /// The square.
        square: Square,
        /// Where that pawn would stand.
        pawn: Square,
        /// The side to move (the pawn is the other side's).
        to_move: Color,
    },
    /// An en passant square, or the square the pawn would have just left, that is occupied.
    #[error("{}", en_passant_blocked(*.square, *.occupied))]
    EnPassantBlocked {
        /// The en passant square.
        square: Square,
        /// The occupied square.
        occupied: Square,
    },
    /// An en passant square while the side to move is in check from a piece that the
    /// double step could neither be nor have uncovered.
    #[error(
        "en passant square {square} but {} is in check from {}, a check that the pawn's double \
         step could not have given",
        side(*.to_move),
        pieces(!*.to_move, &[(*.piece, *.checker)])
    )]
    EnPassantCheck {
        /// The en passant square.
        square: Square,
        /// The side to move.
        to_move: Color,
        /// The checking piece.
        piece: Piece,
        /// Its square.
        checker: Square,
    },
    /// A halfmove clock that is not a number from 0 to 100.
    #[error("{}", halfmove_clock(.found))]
    HalfmoveClock {
        /// The field as written.
        found: String,
    },
    /// A fullmove number that is not a number from 1 to 65535.
    #[error("{}", fullmove_number(.found))]
    FullmoveNumber {
        /// The field as written.
        found: String,
    },
    /// `cozy-chess`'s own verdict, when the diagnosis found nothing more specific.
    #[error("{0}")]
    Other(FenParseError),
}

/// "castling right K but no white rook on h1" and its Chess960 forms.
fn castling_no_rook(right: char, king: Square) -> String {
    let color = right_color(right);
    let back = king.rank();
    let rook = |file: File| Square::new(file, back);
    let lower = right.to_ascii_lowercase();
    if let Ok(file) = File::try_from(lower) {
        return format!(
            "castling right {right} but no {} rook on {}",
            adjective(color),
            rook(file)
        );
    }
    let short = lower == 'k';
    // In standard chess this is the corner; in X-FEN any rook on that side would have done.
    let (near, far) = if short {
        (king.file() as usize + 1, File::H as usize)
    } else {
        (File::A as usize, (king.file() as usize).wrapping_sub(1))
    };
    if king.file() == File::E {
        let corner = if short { File::H } else { File::A };
        format!(
            "castling right {right} but no {} rook on {}",
            adjective(color),
            rook(corner)
        )
    } else if near > far || far >= File::NUM {
        format!(
            "castling right {right} but the {} king on {king} has no square beyond it on \
             that side for a rook",
            adjective(color)
        )
    } else {
        format!(
            "castling right {right} but no {} rook on the king's {} side ({}-{})",
            adjective(color),
            if short { "short" } else { "long" },
            rook(File::index(near)),
            rook(File::index(far))
        )
    }
}

/// "1 field: a FEN needs ..." or "7 fields: a FEN has at most six ...".
fn field_count(found: usize) -> String {
    if found < 2 {
        format!(
            "{} field{}: a FEN needs the board and the side to move, optionally followed by \
             the castling rights, en passant square, halfmove clock and fullmove number",
            found,
            plural(found)
        )
    } else {
        format!(
            "{found} fields: a FEN has at most six (board, side to move, castling rights, en \
             passant square, halfmove clock, fullmove number)"
        )
    }
}

/// A right given twice, or two rights for the same side of one king.
fn castling_twice(first: char, second: char) -> String {
    if first == second {
        format!("castling right {first} is given twice")
    } else {
        format!(
            "castling rights {first} and {second} both name {}'s castling on the same side",
            side(right_color(first))
        )
    }
}

/// The en passant square itself occupied, or the square the pawn would have left.
fn en_passant_blocked(square: Square, occupied: Square) -> String {
    if square == occupied {
        format!("en passant square {square} is occupied, so no pawn can just have passed over it")
    } else {
        format!(
            "en passant square {square} but {occupied} is occupied, so no pawn can just have \
             left it"
        )
    }
}

/// A halfmove clock above 100, or not a number.
fn halfmove_clock(found: &str) -> String {
    match found.parse::<u64>() {
        Ok(n) => format!("halfmove clock {n} is more than 100"),
        Err(_) => format!("halfmove clock {found:?} is not a number"),
    }
}

/// A fullmove number of 0, above 65535, or not a number.
fn fullmove_number(found: &str) -> String {
    match found.parse::<u64>() {
        Ok(0) => "fullmove number 0: the count starts at 1".to_string(),
        Ok(n) => format!("fullmove number {n} is more than 65535"),
        Err(_) => format!("fullmove number {found:?} is not a number"),
    }
}

/// "e1, e4".
fn square_list(squares: &[Square]) -> String {
    squares
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The colour a castling letter belongs to, as `cozy-chess` reads it.
fn right_color(right: char) -> Color {
    if right.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

fn adjective(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn number(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// "a, b and c".
fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// "the white rook on e1 and the white bishop on b4".
fn pieces(color: Color, on: &[(Piece, Square)]) -> String {
    list(
        on.iter()
            .map(|(p, sq)| format!("the {} {} on {sq}", adjective(color), piece_name(*p))),
    )
}

/// The most specific reason for `cause`, which `cozy-chess` gave for `fen` (the text it was
/// given, the counters already supplied if they were left out).
pub(crate) fn diagnose(fen: &str, cause: FenParseError) -> FenError {
    let found = fen.split_whitespace().count();
    if !(2..=6).contains(&found) {
        return FenError::FieldCount { found };
    }
    // `cozy-chess` splits at single spaces, so irregular spacing shifts every later field.
    let fields: Vec<&str> = fen.split(' ').collect();
    let field = |i: usize| fields.get(i).copied().unwrap_or("");
    let clean = |s: &str| !s.is_empty() && !s.contains(char::is_whitespace);
    // A board of fewer than eight ranks is read with the missing ones empty; when such a FEN
    // is refused, whatever the field blamed, the lost rank is the likeliest cause.
    let rank_count_off = fields[0].split('/').count() != 8;
    if clean(fields[0]) && (matches!(cause, FenParseError::InvalidBoard) || rank_count_off) {
        return board(fields[0], field(1).parse().ok()).unwrap_or(FenError::Other(cause));
    }
    if !fields.iter().all(|s| clean(s)) {
        return FenError::Spacing;
    }
    let diagnosis = match cause {
        FenParseError::InvalidSideToMove => Some(FenError::SideToMove {
            found: field(1).to_string(),
        }),
        FenParseError::InvalidCastlingRights => {
            bare_board(&fields).and_then(|b| castling(&b, field(2)))
        }
        FenParseError::InvalidEnPassant => {
            bare_board(&fields).and_then(|b| en_passant(&b, field(3)))
        }
        FenParseError::InvalidHalfMoveClock => Some(FenError::HalfmoveClock {
            found: field(4).to_string(),
        }),
        FenParseError::InvalidFullmoveNumber => Some(FenError::FullmoveNumber {
            found: field(5).to_string(),
        }),
        _ => None,
    };
    diagnosis.unwrap_or(FenError::Other(cause))
}

/// The board and side to move alone, for the fields `cozy-chess` checks after them.
fn bare_board(fields: &[&str]) -> Option<Board> {
    let (board, to_move) = (fields.first()?, fields.get(1)?);
    Board::from_fen(&format!("{board} {to_move} - - 0 1"), false).ok()
}

/// The pieces of a board field, kept whatever their number, so that the rules on kings,
/// pawns and checks can be explained.
struct Placement {
    by: [[BitBoard; Piece::NUM]; Color::NUM],
}

impl Placement {
    fn of(&self, color: Color, piece: Piece) -> BitBoard {
        self.by[color as usize][piece as usize]
    }

    fn colors(&self, color: Color) -> BitBoard {
        self.by[color as usize]
            .iter()
            .fold(BitBoard::EMPTY, |acc, &b| acc | b)
    }

    fn occupied(&self) -> BitBoard {
        self.colors(Color::White) | self.colors(Color::Black)
    }

    /// The pieces of `!color` checking `color`'s king, counted as `cozy-chess` counts them
    /// (a king gives no check there).
    fn checkers(&self, color: Color) -> Vec<(Piece, Square)> {
        let Some(king) = self.of(color, Piece::King).next_square() else {
            return Vec::new();
        };
        let them = !color;
        let occupied = self.occupied();
        let diagonal = get_bishop_moves(king, occupied);
        let straight = get_rook_moves(king, occupied);
        let attacks = [
            (Piece::Pawn, get_pawn_attacks(king, color)),
            (Piece::Knight, get_knight_moves(king)),
            (Piece::Bishop, diagonal),
            (Piece::Rook, straight),
            (Piece::Queen, diagonal | straight),
        ];
        let mut out: Vec<(Piece, Square)> = attacks
            .into_iter()
            .flat_map(|(p, a)| (a & self.of(them, p)).into_iter().map(move |sq| (p, sq)))
            .collect();
        out.sort_by_key(|&(_, sq)| sq);
        out
    }
}

/// Why a board field (with its side to move, if that parses) was refused; `None` if no rule
/// is seen broken.
fn board(field: &str, to_move: Option<Color>) -> Option<FenError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 8 {
        return Some(FenError::RankCount { found: rows.len() });
    }
    let mut by = [[BitBoard::EMPTY; Piece::NUM]; Color::NUM];
    for (i, row) in rows.iter().enumerate() {
        let rank = Rank::index(7 - i);
        let mut squares = 0;
        for c in row.chars() {
            if let Some(n) = c.to_digit(10) {
                squares += n as usize;
                continue;
            }
            let Ok(piece) = Piece::try_from(c.to_ascii_lowercase()) else {
                return Some(FenError::UnknownPiece { rank, found: c });
            };
            if let Some(file) = File::try_index(squares) {
                let color = right_color(c);
                by[color as usize][piece as usize] |= Square::new(file, rank).bitboard();
            }
            squares += 1;
        }
        if squares != File::NUM {
            return Some(FenError::RankLength { rank, squares });
        }
    }
    let board = Placement { by };
    for color in Color::ALL {
        let kings: Vec<Square> = board.of(color, Piece::King).into_iter().collect();
        match kings.len() {
            0 => return Some(FenError::NoKing { color }),
            1 => {}
            _ => {
                return Some(FenError::ExtraKings {
                    color,
                    squares: kings,
                })
            }
        }
    }
    let back_ranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
    for color in Color::ALL {
        if let Some(square) = (board.of(color, Piece::Pawn) & back_ranks).next_square() {
            return Some(FenError::PawnOnBackRank { color, square });
        }
    }
    for color in Color::ALL {
        let count = board.colors(color).len() as usize;
        if count > 16 {
            return Some(FenError::TooManyPieces { color, count });
        }
        let count = board.of(color, Piece::Pawn).len() as usize;
        if count > 8 {
            return Some(FenError::TooManyPawns { color, count });
        }
    }
    let to_move = to_move?;
    let checkers = board.checkers(!to_move);
    if !checkers.is_empty() {
        return Some(FenError::NotToMoveInCheck {
            color: !to_move,
            checkers,
        });
    }
    let checkers = board.checkers(to_move);
    if checkers.len() > 2 {
        return Some(FenError::TooManyCheckers {
            color: to_move,
            checkers,
        });
    }
    None
}

/// Why a castling field was refused by both the standard and the Shredder/X-FEN reading
/// that [`parse_fen`](crate::parse_fen) tries, with `board` the position without rights.
fn castling(board: &Board, field: &str) -> Option<FenError> {
    // The first right seen for each colour's short and long side.
    let mut seen: [[Option<char>; 2]; Color::NUM] = [[None; 2]; Color::NUM];
    for right in field.chars() {
        let lower = right.to_ascii_lowercase();
        let file = File::try_from(lower).ok();
        if file.is_none() && lower != 'k' && lower != 'q' {
            return Some(FenError::CastlingLetter { found: right });
        }
        let color = right_color(right);
        let king = board.king(color);
        let back = Rank::First.relative_to(color);
        if king.rank() != back {
            return Some(FenError::CastlingKingOffBackRank { right, king });
        }
        let rooks = board.colored_pieces(color, Piece::Rook);
        let short = match file {
            Some(file) if rooks.has(Square::new(file, back)) => king.file() < file,
            Some(_) => return Some(FenError::CastlingNoRook { right, king }),
            None => {
                let short = lower == 'k';
                if super::outermost_rook(board, color, short).is_none() {
                    return Some(FenError::CastlingNoRook { right, king });
                }
                short
            }
        };
        let slot = &mut seen[color as usize][usize::from(short)];
        if let Some(first) = *slot {
            return Some(FenError::CastlingTwice {
                first,
                second: right,
            });
        }
        *slot = Some(right);
    }
    None
}

/// Why an en passant field was refused, with `board` the position without castling rights
/// or en passant square.
fn en_passant(board: &Board, field: &str) -> Option<FenError> {
    let Ok(square) = field.parse::<Square>() else {
        return Some(FenError::EnPassantSyntax {
            found: field.to_string(),
        });
    };
    let to_move = board.side_to_move();
    let them = !to_move;
    if square.rank() != Rank::Third.relative_to(them) {
        return Some(FenError::EnPassantRank { square, to_move });
    }
    let source = Square::new(square.file(), Rank::Second.relative_to(them));
    let pawn = Square::new(square.file(), Rank::Fourth.relative_to(them));
    let occupied = board.occupied();
    if !board.colored_pieces(them, Piece::Pawn).has(pawn) {
        return Some(FenError::EnPassantNoPawn {
            square,
            pawn,
            to_move,
        });
    }
    for blocked in [square, source] {
        if occupied.has(blocked) {
            return Some(FenError::EnPassantBlocked {
                square,
                occupied: blocked,
            });
        }
    }
    let king = board.king(to_move);
    for checker in board.checkers() {
        // The pawn itself may check, or a slider whose line the pawn has just left.
        if checker != pawn && !get_between_rays(checker, king).has(source) {
            return Some(FenError::EnPassantCheck {
                square,
                to_move,
                piece: board.piece_on(checker)?,
                checker,
            });
        }
    }
    None
}
