//! The bare rules: the board, legal move generation, make and unmake, the Zobrist hash and
//! perft. Nothing here looks at the game's history; [`crate::Xiangqi`] adds it.
//!
//! # Representation
//!
//! A mailbox of the 90 points (`rank * 9 + file`, a0 = 0, i9 = 89) holding one byte per point,
//! beside the occupancy of each rank and of each file as bits (ElephantEye's bit-ranks and
//! bit-files, here without its lookup tables: the nearest pieces along a line are found with
//! `trailing_zeros`/`leading_zeros`), and each side's points as a `u128`. The steps of the
//! king, advisors, elephants, horses and soldiers, with the point that blocks each (the
//! elephant's eye, the horse's leg), are tables built at compile time.
//!
//! # Legality
//!
//! Moves are generated pseudo-legally and filtered. Out of check, a move can only expose its
//! own general if the general moves, if it leaves a point the general's safety depends on (a
//! piece pinned against a chariot or the other general, one of two screens in front of a
//! cannon, a horse's leg next to the general), or if it lands between the general and a cannon
//! with no screen; only those moves are tested, by looking at the attacks on the general as
//! they would be after the move, without playing it. In check every move is tested. Testing
//! every move instead made perft 5 from the start four times slower (6.1 to 7.1 s against 1.5
//! to 1.7 s, release build, 2026-11-29).
//!
//! One file per duty: `point` (points and sets of them), `piece` (kinds, pieces, their board
//! bytes, moves), `steps` (the short-range pieces' step tables), `zobrist` (the keys),
//! `lines` (what lies along a rank or a file, and the slide tables), `attacks` (attack
//! queries), `movegen` (move generation and perft) and `reach` (what a piece reaches, for
//! evaluators). This file is the [`Board`] itself: its state, setting it up, make and unmake.

mod attacks;
mod lines;
mod movegen;
mod piece;
mod point;
mod reach;
mod steps;
mod zobrist;

use duel_core::Side;

pub use piece::{Kind, Move, Piece};
pub use point::{file_of, points, rank_of, square, square_name, Square, FILES, POINTS, RANKS};
pub use reach::Reach;

use piece::{kind_of, side_of, KING};
use point::{bit, NONE};
use zobrist::{key, structure_key, BLACK_KEY};

/// A position under the bare rules: the pieces and the side to move, without history.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    squares: [u8; POINTS],
    /// Each side's points.
    occupied: [u128; 2],
    /// Per rank, bit `file` set where a piece stands.
    ranks: [u16; RANKS as usize],
    /// Per file, bit `rank` set where a piece stands.
    files: [u16; FILES as usize],
    kings: [Square; 2],
    side: Side,
    hash: u64,
    /// The hash of the soldiers, advisors and elephants alone, kept incrementally.
    structure: u64,
}

impl Board {
    /// An empty board, `side` to move; pieces go on with [`Board::put`]. Used while a FEN is
    /// read.
    pub(crate) fn empty(side: Side) -> Board {
        Board {
            squares: [0; POINTS],
            occupied: [0; 2],
            ranks: [0; RANKS as usize],
            files: [0; FILES as usize],
            kings: [NONE; 2],
            side,
            hash: if side == Side::Second { BLACK_KEY } else { 0 },
            structure: 0,
        }
    }

    /// Puts `piece` on the empty point `sq`.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let c = piece.code();
        self.squares[usize::from(sq)] = c;
        self.occupied[piece.side as usize] |= bit(sq);
        self.ranks[usize::from(rank_of(sq))] |= 1 << file_of(sq);
        self.files[usize::from(file_of(sq))] |= 1 << rank_of(sq);
        if piece.kind == Kind::King {
            self.kings[piece.side as usize] = sq;
        }
        self.hash ^= key(c, sq);
        self.structure ^= structure_key(c, sq);
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(*self.squares.get(usize::from(sq))?)
    }

    /// Whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The Zobrist hash, kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the soldiers, advisors and elephants of both sides, kept incrementally:
    /// the slow-moving structure that correction history keys on.
    #[inline]
    pub fn structure_hash(&self) -> u64 {
        self.structure
    }

    /// The hash computed from the pieces and the side to move alone.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Side::Second {
            BLACK_KEY
        } else {
            0
        };
        for sq in 0..POINTS as Square {
            let c = self.squares[usize::from(sq)];
            if c != 0 {
                h ^= key(c, sq);
            }
        }
        h
    }

    /// The general of `side`'s point ([`None`] only on a board still being set up).
    pub fn king(&self, side: Side) -> Option<Square> {
        let k = self.kings[side as usize];
        (k != NONE).then_some(k)
    }

    /// The points `side`'s pieces stand on, as bits (bit `sq`).
    #[inline]
    pub fn occupied(&self, side: Side) -> u128 {
        self.occupied[side as usize]
    }

    /// `side`'s pieces and their points, a0 first.
    pub fn pieces(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        points(self.occupied[side as usize]).filter_map(move |sq| Some((sq, self.piece_at(sq)?)))
    }

    /// Plays `mv` (legal, or at least a pseudo-legal move of the side to move) and returns
    /// the byte of what it took (0 for nothing), which [`Board::unmake`] needs.
    #[inline]
    pub(crate) fn make(&mut self, mv: Move) -> u8 {
        let piece = self.squares[usize::from(mv.from)];
        let taken = self.squares[usize::from(mv.to)];
        self.squares[usize::from(mv.to)] = piece;
        self.squares[usize::from(mv.from)] = 0;
        self.toggle(mv, piece, taken);
        if kind_of(piece) == KING {
            self.kings[side_of(piece)] = mv.to;
        }
        taken
    }

    /// Takes back `mv`, which took `taken` ([`Board::make`]'s answer).
    #[inline]
    pub(crate) fn unmake(&mut self, mv: Move, taken: u8) {
        let piece = self.squares[usize::from(mv.to)];
        self.squares[usize::from(mv.from)] = piece;
        self.squares[usize::from(mv.to)] = taken;
        self.toggle(mv, piece, taken);
        if kind_of(piece) == KING {
            self.kings[side_of(piece)] = mv.from;
        }
    }

    /// What making and unmaking `mv` of `piece`, taking `taken`, both change, by exclusive
    /// or, so that one undoes the other: the occupancy, the hash and the side to move.
    #[inline]
    fn toggle(&mut self, mv: Move, piece: u8, taken: u8) {
        let (from, to) = (mv.from, mv.to);
        let us = side_of(piece);
        self.occupied[us] ^= bit(from) | bit(to);
        self.ranks[usize::from(rank_of(from))] ^= 1 << file_of(from);
        self.files[usize::from(file_of(from))] ^= 1 << rank_of(from);
        self.hash ^= key(piece, from) ^ key(piece, to) ^ BLACK_KEY;
        self.structure ^= structure_key(piece, from) ^ structure_key(piece, to);
        if taken == 0 {
            // The target's point changes occupancy only when it was empty.
            self.ranks[usize::from(rank_of(to))] ^= 1 << file_of(to);
            self.files[usize::from(file_of(to))] ^= 1 << rank_of(to);
        } else {
            self.occupied[1 - us] ^= bit(to);
            self.hash ^= key(taken, to);
            self.structure ^= structure_key(taken, to);
        }
        self.side = self.side.other();
    }

    /// Passes the turn (a null move).
    pub(crate) fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= BLACK_KEY;
    }

    /// The piece `mv` takes, if any.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Piece> {
        self.piece_at(mv.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use duel_core::{Game, SplitMix64};

    /// Calls `f` with every board along 40 seeded random games of up to 120 plies.
    fn along_random_games(seed: u64, mut f: impl FnMut(&Board)) {
        let mut rng = SplitMix64::new(seed);
        let mut moves = Vec::new();
        for _ in 0..40 {
            let mut b = crate::Xiangqi::start().board().clone();
            for _ in 0..rng.below(120) {
                b.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                b.make(moves[rng.below(moves.len())]);
                f(&b);
            }
        }
    }

    /// `may_be_reached` is exactly "some piece reaches the point, or the general faces it",
    /// at every point for both sides.
    #[test]
    fn may_be_reached_is_reaches_or_the_flying_general() {
        let (mut reached, mut checked) = (0, 0);
        along_random_games(11, |b| {
            for to in 0..POINTS as Square {
                for by in [Side::First, Side::Second] {
                    let some = b.pieces(by).any(|(sq, _)| b.reaches(sq, to));
                    let facing = b.king(by).is_some_and(|k| {
                        k != to && file_of(k) == file_of(to) && b.pieces_between(k, to) == Some(0)
                    });
                    let at = square_name(to);
                    assert_eq!(b.may_be_reached(to, by), some || facing, "{b:?} {at}");
                    reached += usize::from(some);
                    checked += 1;
                }
            }
        });
        // Both answers were seen many times.
        assert!(
            reached > checked / 10 && reached < checked * 9 / 10,
            "{reached} of {checked}"
        );
    }

    /// Every piece's `reach` agrees with `reaches` point by point: its hits are the occupied
    /// points it reaches, its quiet points the empty ones it could move to (for a cannon,
    /// those with nothing between).
    #[test]
    fn reach_agrees_with_reaches() {
        along_random_games(12, |b| {
            for side in [Side::First, Side::Second] {
                for (from, p) in b.pieces(side) {
                    let r = b.reach(from);
                    for to in (0..POINTS as Square).filter(|&t| t != from) {
                        let empty = b.piece_at(to).is_none();
                        let moves_there = if p.kind == Kind::Cannon {
                            b.pieces_between(from, to) == Some(0)
                        } else {
                            b.reaches(from, to)
                        };
                        let at = || format!("{b:?} {}{}", square_name(from), square_name(to));
                        let hit = !empty && b.reaches(from, to);
                        assert_eq!(r.hits & bit(to) != 0, hit, "{}", at());
                        assert_eq!(r.quiet & bit(to) != 0, empty && moves_there, "{}", at());
                    }
                }
            }
        });
    }
}
