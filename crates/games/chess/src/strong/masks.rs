//! The bitboard tables and helpers the feature walk counts with: files, the squares that
//! make a pawn passed or an outpost safe, king-distance rings, pawn and piece attacks.

use cozy_chess::{
    get_bishop_moves, get_knight_moves, get_rook_moves, BitBoard, Color, Piece, Square,
};

pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares in front of a pawn on its own and the neighbouring files: no enemy pawn there
/// makes it passed. Index: colour, square.
pub(super) const PASSED_MASKS: [[u64; 64]; 2] = {
    let mut m = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let files = adjacent_and_own(f);
        let mut rank = 0;
        while rank < 8 {
            let row = 0xFFu64 << (8 * rank);
            if rank > r {
                m[0][sq] |= files & row;
            }
            if rank < r {
                m[1][sq] |= files & row;
            }
            rank += 1;
        }
        sq += 1;
    }
    m
};

/// The squares on the neighbouring files in front of a square: no enemy pawn there means no
/// enemy pawn can ever attack it. Index: colour, square.
pub(super) const FRONT_SPAN_SIDES: [[u64; 64]; 2] = {
    let mut m = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            m[c][sq] = PASSED_MASKS[c][sq] & !(FILE_A << (sq % 8));
            sq += 1;
        }
        c += 1;
    }
    m
};

/// The squares within `d` king moves of a square: index square, then `d` (0 to 7).
pub(super) const WITHIN: [[u64; 8]; 64] = {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut other: usize = 0;
        while other < 64 {
            let df = (sq % 8) as i32 - (other % 8) as i32;
            let dr = (sq / 8) as i32 - (other / 8) as i32;
            let df = if df < 0 { -df } else { df };
            let dr = if dr < 0 { -dr } else { dr };
            let dist = if df > dr { df } else { dr } as usize;
            let mut d = dist;
            while d < 8 {
                t[sq][d] |= 1u64 << other;
                d += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// The file `f` and its neighbours.
const fn adjacent_and_own(f: usize) -> u64 {
    let own = FILE_A << f;
    let left = if f > 0 { FILE_A << (f - 1) } else { 0 };
    let right = if f < 7 { FILE_A << (f + 1) } else { 0 };
    own | left | right
}

/// The files beside file `f` (one or two), looked up rather than shifted at every pawn.
pub(super) const NEIGHBOUR_FILES: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = adjacent_and_own(f) & !(FILE_A << f);
        f += 1;
    }
    t
};

/// The squares `color`'s pawns attack.
pub(super) fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// The squares a knight, bishop, rook or queen on `sq` attacks.
#[inline(always)]
pub(super) fn piece_attacks(piece: Piece, sq: Square, occupied: BitBoard) -> u64 {
    match piece {
        Piece::Knight => get_knight_moves(sq),
        Piece::Bishop => get_bishop_moves(sq, occupied),
        Piece::Rook => get_rook_moves(sq, occupied),
        _ => get_bishop_moves(sq, occupied) | get_rook_moves(sq, occupied),
    }
    .0
}
