//! Attack queries: whether a general would be attacked (as the board stands, or once a move
//! is played, without playing it), whether any piece reaches a point, and what stands between
//! two points of a line.

use duel_core::Side;

use super::lines::{down, up, Ray};
use super::piece::{code, Kind};
use super::point::{file_of, rank_of, Square, FILES, NONE};
use super::steps::{
    Steps, ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKS, HORSE_MOVES, KING_STEPS, PAWN_STEPS,
};
use super::Board;

/// A move as it would change the board, for attack tests without playing it: `from` empties,
/// `to` holds `piece`. [`After::NOTHING`] leaves the board as it is.
#[derive(Clone, Copy)]
pub(super) struct After {
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) piece: u8,
}

impl After {
    const NOTHING: After = After {
        from: NONE,
        to: NONE,
        piece: 0,
    };
}

impl Board {
    /// True if the side to move's general is attacked.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side as usize;
        self.attacked(self.kings[us], 1 - us, After::NOTHING)
    }

    /// True if the general of the side not to move is attacked: the position cannot have
    /// been reached by a legal move.
    pub(crate) fn opponent_in_check(&self) -> bool {
        let them = 1 - self.side as usize;
        self.attacked(self.kings[them], 1 - them, After::NOTHING)
    }

    /// What stands on `sq` once `after` is played.
    #[inline]
    fn at(&self, sq: Square, after: After) -> u8 {
        if sq == after.to {
            after.piece
        } else if sq == after.from {
            0
        } else {
            self.squares[usize::from(sq)]
        }
    }

    /// The occupancy of rank `r` and file `f` once `after` is played.
    #[inline]
    fn lines(&self, r: u8, f: u8, after: After) -> (u16, u16) {
        let mut rank = self.ranks[usize::from(r)];
        let mut file = self.files[usize::from(f)];
        if after.from != NONE {
            if rank_of(after.from) == r {
                rank &= !(1 << file_of(after.from));
            }
            if file_of(after.from) == f {
                file &= !(1 << rank_of(after.from));
            }
            if rank_of(after.to) == r {
                rank |= 1 << file_of(after.to);
            }
            if file_of(after.to) == f {
                file |= 1 << rank_of(after.to);
            }
        }
        (rank, file)
    }

    /// Whether the general standing on `sq` would be attacked by side `by` once `after` is
    /// played: by a chariot or the other general along a line (the general only along the
    /// file: the flying general), a cannon over one screen, a horse whose leg is free, or a
    /// soldier. Advisors and elephants never leave their own half, so never attack a general.
    #[inline]
    pub(super) fn attacked(&self, sq: Square, by: usize, after: After) -> bool {
        let (r, f) = (rank_of(sq), file_of(sq));
        let (rank, file) = self.lines(r, f, after);
        let chariot = code(by, Kind::Chariot);
        let cannon = code(by, Kind::Cannon);
        let king = code(by, Kind::King);
        let on_rank = |x: u8| {
            if x == NONE {
                0
            } else {
                self.at(r * FILES + x, after)
            }
        };
        let on_file = |x: u8| {
            if x == NONE {
                0
            } else {
                self.at(x * FILES + f, after)
            }
        };
        for Ray([a, b, _]) in [up(rank, f), down(rank, f)] {
            if on_rank(a) == chariot || on_rank(b) == cannon {
                return true;
            }
        }
        for Ray([a, b, _]) in [up(file, r), down(file, r)] {
            let first = on_file(a);
            if first == chariot || first == king || on_file(b) == cannon {
                return true;
            }
        }
        let horse = code(by, Kind::Horse);
        for (h, leg) in HORSE_ATTACKS.of(sq) {
            if self.at(h, after) == horse && self.at(leg, after) == 0 {
                return true;
            }
        }
        let pawn = code(by, Kind::Pawn);
        // A soldier of `by` attacks from the point behind `sq` (as `by` moves), or beside it
        // once across the river, which `sq`'s rank tells as well as the soldier's.
        let (behind, across) = if by == 0 {
            (r.checked_sub(1), r >= 5)
        } else {
            ((r < 9).then_some(r + 1), r <= 4)
        };
        if behind.is_some_and(|b| self.at(b * FILES + f, after) == pawn) {
            return true;
        }
        across
            && ((f > 0 && self.at(sq - 1, after) == pawn)
                || (f < 8 && self.at(sq + 1, after) == pawn))
    }

    /// Whether some piece of `by` reaches `to` ([`Board::reaches`]), or `by`'s general faces
    /// `to` along an open file: a test from the target outwards, far cheaper than asking each
    /// piece, which can only err towards true (the flying general takes nothing but the other
    /// general). The static exchange asks it before it looks for takers.
    pub fn may_be_reached(&self, to: Square, by: Side) -> bool {
        let by = by as usize;
        if self.attacked(to, by, After::NOTHING) {
            return true;
        }
        // `attacked` leaves out what reaches only its own palace or half, as a general never
        // stands in the other's: the steps are their own reverse.
        let king = code(by, Kind::King);
        let advisor = code(by, Kind::Advisor);
        let elephant = code(by, Kind::Elephant);
        let empty = |sq: Square| self.squares[usize::from(sq)] == 0;
        KING_STEPS
            .of(to)
            .any(|(t, _)| self.squares[usize::from(t)] == king)
            || ADVISOR_STEPS
                .of(to)
                .any(|(t, _)| self.squares[usize::from(t)] == advisor)
            || ELEPHANT_STEPS
                .of(to)
                .any(|(t, eye)| self.squares[usize::from(t)] == elephant && empty(eye))
    }

    /// Whether the piece on `from` could move to (or take on) `to` by its own movement,
    /// whatever stands on `to` and whether its general would be safe: what attacking and
    /// protecting mean for the repetition rulings and the evaluator.
    pub fn reaches(&self, from: Square, to: Square) -> bool {
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        let empty = |sq: Square| self.squares[usize::from(sq)] == 0;
        let step = |steps: &Steps<4>| steps.of(from).any(|(t, via)| t == to && empty(via));
        match piece.kind {
            Kind::King => KING_STEPS.of(from).any(|(t, _)| t == to),
            Kind::Advisor => ADVISOR_STEPS.of(from).any(|(t, _)| t == to),
            Kind::Elephant => step(&ELEPHANT_STEPS),
            Kind::Horse => HORSE_MOVES.of(from).any(|(t, leg)| t == to && empty(leg)),
            Kind::Pawn => PAWN_STEPS[piece.side as usize]
                .of(from)
                .any(|(t, _)| t == to),
            Kind::Chariot => self.pieces_between(from, to) == Some(0),
            Kind::Cannon => self.pieces_between(from, to) == Some(1),
        }
    }

    /// How many pieces stand strictly between two points on one rank or file; None if they
    /// share neither (or are the same point).
    pub fn pieces_between(&self, a: Square, b: Square) -> Option<u32> {
        if a == b {
            return None;
        }
        let (line, lo, hi) = if rank_of(a) == rank_of(b) {
            let (x, y) = (file_of(a).min(file_of(b)), file_of(a).max(file_of(b)));
            (self.ranks[usize::from(rank_of(a))], x, y)
        } else if file_of(a) == file_of(b) {
            let (x, y) = (rank_of(a).min(rank_of(b)), rank_of(a).max(rank_of(b)));
            (self.files[usize::from(file_of(a))], x, y)
        } else {
            return None;
        };
        let inside = ((1u32 << hi) - 1) & !((1u32 << (lo + 1)) - 1);
        Some((u32::from(line) & inside).count_ones())
    }
}
