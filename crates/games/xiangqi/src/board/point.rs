//! The points of the board and sets of them: `rank * 9 + file` (a0 = 0, i9 = 89), each
//! side's points as the bits of a `u128`.

/// Points on a rank (files a to i).
pub const FILES: u8 = 9;

/// Ranks, 0 (Red's back rank) to 9 (Black's).
pub const RANKS: u8 = 10;

/// Points on the board.
pub const POINTS: usize = 90;

/// A point of the board, `rank * 9 + file`: a0 is 0, i0 is 8, a9 is 81.
pub type Square = u8;

/// The point on `file` (0 = a) and `rank` (0 = Red's back rank).
pub const fn square(file: u8, rank: u8) -> Square {
    rank * FILES + file
}

/// The file of a point, 0 (a) to 8 (i).
pub const fn file_of(sq: Square) -> u8 {
    sq % FILES
}

/// The rank of a point, 0 (Red's back rank) to 9.
pub const fn rank_of(sq: Square) -> u8 {
    sq / FILES
}

/// The point in ICCS coordinates (`e0`).
pub fn square_name(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + file_of(sq)), rank_of(sq))
}

#[inline]
pub(super) const fn bit(sq: Square) -> u128 {
    1 << sq
}

/// No point: the first/second/third piece along a line where there is none.
pub(super) const NONE: u8 = u8::MAX;

/// The points strictly between two points of one rank or file, as bits.
pub(super) fn between(a: Square, b: Square) -> u128 {
    let (lo, hi) = (a.min(b), a.max(b));
    let step = if rank_of(a) == rank_of(b) { 1 } else { FILES };
    let mut out = 0;
    let mut x = lo + step;
    while x < hi {
        out |= bit(x);
        x += step;
    }
    out
}

/// The set bits of a point set, lowest first.
pub fn points(mut set: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as Square;
        set &= set - 1;
        Some(sq)
    })
}
