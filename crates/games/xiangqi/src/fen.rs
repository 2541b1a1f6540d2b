//! FEN as Pikafish and Fairy-Stockfish write it: the ranks from Black's back rank (rank 9)
//! down, Red in capitals (`K A B N R C P`; `E` for an elephant and `H` for a horse are read
//! too), then the side to move (`w` or `r` for Red, `b` for Black), two unused fields (`- -`,
//! chess's castling and en passant), the plies since the last capture and the move number.
//! Only the board is required; the rest defaults to Red to move, 0 and 1.

use duel_core::Side;

use crate::board::{
    file_of, rank_of, square, square_name, Board, Kind, Piece, Square, FILES, RANKS,
};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A position read from a FEN: the board, the plies since the last capture and the move
/// number.
pub(crate) struct Fen {
    pub board: Board,
    pub clock: u32,
    pub fullmove: u32,
}

/// Far beyond any game, and small enough that counting plies on from it cannot overflow.
const MOST: u32 = 1_000_000;

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FenError {
    /// Nothing but whitespace.
    #[error("empty FEN")]
    Empty,
    /// A side to move that is neither Red's nor Black's letter.
    #[error("side to move '{0}': expected w (or r) for Red, b for Black")]
    SideToMove(String),
    /// A counter (`what`: the plies since the last capture, the move number) above [`MOST`].
    #[error("{what} '{text}' is more than {MOST}")]
    TooLarge { what: &'static str, text: String },
    /// A counter that is not a number.
    #[error("{what} '{text}' is not a number")]
    NotANumber { what: &'static str, text: String },
    /// A field after the move number.
    #[error("unexpected '{0}' after the move number")]
    Extra(String),
    /// A board of another number of ranks than ten.
    #[error("expected 10 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A digit 0 in a rank.
    #[error("rank {0}: 0 empty points")]
    ZeroEmpty(u8),
    /// A letter that names no piece.
    #[error(
        "rank {rank}: '{found}' is not a piece (K A B N R C P, E and H also read as elephant \
         and horse; Red in capitals)"
    )]
    NotAPiece { rank: u8, found: char },
    /// A rank whose pieces and digits go past its ninth point.
    #[error("rank {0} has more than 9 points")]
    RankTooLong(u8),
    /// A rank of fewer than nine points.
    #[error("rank {rank} has {points} points, not 9")]
    RankLength { rank: u8, points: u8 },
    /// More pieces of a kind than the start gives a side.
    #[error("{} has {count} pieces '{}', at most {}", side_name(*.side), .kind.letter(), .kind.most())]
    TooMany { side: Side, kind: Kind, count: u32 },
    /// A side without its general.
    #[error("{} has no general (K)", side_name(*.0))]
    NoGeneral(Side),
    /// The side that just moved left its general attacked.
    #[error(
        "{} to move, and the {} general is attacked (or the generals face each other)",
        side_name(*.0),
        side_name(.0.other())
    )]
    Attacked(Side),
    /// A general, advisor or elephant on a point its moves never reach.
    #[error(
        "a {} {} cannot stand on {}",
        side_name(.piece.side),
        confined_name(.piece.kind),
        square_name(*.point)
    )]
    Point { point: Square, piece: Piece },
}

/// The side's name, for messages.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Black",
    }
}

/// The kind a FEN letter names, in either case.
fn kind_of_letter(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'K' => Kind::King,
        'A' => Kind::Advisor,
        'B' | 'E' => Kind::Elephant,
        'N' | 'H' => Kind::Horse,
        'R' => Kind::Chariot,
        'C' => Kind::Cannon,
        'P' => Kind::Pawn,
        _ => return None,
    })
}

/// Reads a FEN; the error says what is wrong with it.
pub(crate) fn parse(text: &str) -> Result<Fen, FenError> {
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let side = match fields.next() {
        None | Some("w" | "r" | "W" | "R") => Side::First,
        Some("b" | "B") => Side::Second,
        Some(other) => return Err(FenError::SideToMove(other.to_string())),
    };
    // Chess's castling and en-passant fields: xiangqi has neither.
    for _ in 0..2 {
        fields.next();
    }
    let number = |field: Option<&str>, what: &'static str, default: u32| match field {
        None => Ok(default),
        Some(t) => match t.parse::<u32>() {
            Ok(n) if n <= MOST => Ok(n),
            Ok(_) => Err(FenError::TooLarge {
                what,
                text: t.to_string(),
            }),
            Err(_) => Err(FenError::NotANumber {
                what,
                text: t.to_string(),
            }),
        },
    };
    let clock = number(fields.next(), "the plies since the last capture", 0)?;
    let fullmove = number(fields.next(), "the move number", 1)?.max(1);
    if let Some(extra) = fields.next() {
        return Err(FenError::Extra(extra.to_string()));
    }
    let board = parse_placement(placement, side)?;
    Ok(Fen {
        board,
        clock,
        fullmove,
    })
}

/// The board part: ten ranks of nine points, rank 9 first.
fn parse_placement(placement: &str, side: Side) -> Result<Board, FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(RANKS) {
        return Err(FenError::RankCount(rows.len()));
    }
    let mut board = Board::empty(side);
    let mut counts = [[0u32; 7]; 2];
    for (i, row) in rows.iter().enumerate() {
        let rank = RANKS - 1 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::ZeroEmpty(rank));
                }
                file = file.saturating_add(d as u8);
                continue;
            }
            let kind = kind_of_letter(c).ok_or(FenError::NotAPiece { rank, found: c })?;
            if file >= FILES {
                return Err(FenError::RankTooLong(rank));
            }
            let side = if c.is_ascii_uppercase() {
                Side::First
            } else {
                Side::Second
            };
            let sq = square(file, rank);
            check_point(sq, Piece { side, kind })?;
            counts[side as usize][kind as usize] += 1;
            board.put(sq, Piece { side, kind });
            file += 1;
        }
        if file != FILES {
            return Err(FenError::RankLength { rank, points: file });
        }
    }
    for side in [Side::First, Side::Second] {
        for kind in Kind::ALL {
            let n = counts[side as usize][kind as usize];
            if n > kind.most() {
                return Err(FenError::TooMany {
                    side,
                    kind,
                    count: n,
                });
            }
        }
        if counts[side as usize][Kind::King as usize] == 0 {
            return Err(FenError::NoGeneral(side));
        }
    }
    if board.opponent_in_check() {
        return Err(FenError::Attacked(side));
    }
    Ok(board)
}

/// Refuses a piece on a point the rules cannot hold: the general and advisors outside their
/// palace's points, elephants off their seven points (the move generator counts on both). A
/// soldier may stand anywhere: composed endgames put soldiers behind their start, where no
/// game could bring them, Fairy-Stockfish reads them, and the rules move them as any soldier
/// (forward, and sideways once across the river).
fn check_point(sq: u8, piece: Piece) -> Result<(), FenError> {
    let (f, r) = (file_of(sq), rank_of(sq));
    // Ranks counted from the piece's own side.
    let own = if piece.side == Side::First { r } else { 9 - r };
    let ok = match piece.kind {
        Kind::King => (3..=5).contains(&f) && own <= 2,
        Kind::Advisor => own <= 2 && (3..=5).contains(&f) && (f + own) % 2 == 1,
        Kind::Elephant => own <= 4 && own % 2 == 0 && f % 2 == 0 && (f + own) % 4 == 2,
        Kind::Pawn | Kind::Horse | Kind::Chariot | Kind::Cannon => true,
    };
    if ok {
        return Ok(());
    }
    Err(FenError::Point { point: sq, piece })
}

/// The name of a piece held to its palace or half, for messages.
fn confined_name(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "general",
        Kind::Advisor => "advisor",
        _ => "elephant",
    }
}

/// The FEN of `board` with its clock and move number.
pub(crate) fn write(board: &Board, clock: u32, fullmove: u32) -> String {
    let mut out = String::with_capacity(64);
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            match board.piece_at(square(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(letter(p));
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = match board.side_to_move() {
        Side::First => 'w',
        Side::Second => 'b',
    };
    format!("{out} {side} - - {clock} {fullmove}")
}

/// The board's FEN, without the clock and move number.
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let fen = write(self, 0, 1);
        let board = fen.rsplitn(5, ' ').last().unwrap_or_default();
        write!(f, "Board(\"{board}\")")
    }
}

/// The FEN letter of a piece: Red in capitals.
pub(crate) fn letter(p: Piece) -> char {
    match p.side {
        Side::First => p.kind.letter(),
        Side::Second => p.kind.letter().to_ascii_lowercase(),
    }
}
