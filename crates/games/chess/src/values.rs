//! What the pieces are worth, in centipawns, and how much of the game's material is left (the
//! phase): the numbers the founding texts' evaluations, Strong, the static exchange and the
//! endings all count in. In a module of their own so that those read them without importing
//! each other.

use cozy_chess::{Board, Color, Piece};

/// Piece values in centipawns, indexed by `Piece as usize` (pawn, knight, bishop, rook, queen,
/// king). The king has no material value: both sides always have one.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Phase weight per piece (pawn .. king): 24 with every minor and major piece on the board.
pub(crate) const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The phase of the full set of pieces.
pub const PHASE_MAX: i32 = 24;

/// `color`'s material in centipawns ([`PIECE_VALUES`]).
pub(crate) fn material(board: &Board, color: Color) -> i32 {
    Piece::ALL
        .iter()
        .map(|&p| PIECE_VALUES[p as usize] * board.colored_pieces(color, p).len() as i32)
        .sum()
}
