//! Move generation: pseudo-legal moves, then only the moves that can expose their own general
//! tested (see the module doc of [`super`]), and perft on the bare rules.

use super::attacks::After;
use super::lines::{down, up, Ray};
use super::piece::{
    code, kind_of, side_of, Kind, Move, ADVISOR, CANNON, CHARIOT, HORSE, KING, PAWN,
};
use super::point::{between, bit, file_of, points, rank_of, Square, FILES, NONE, POINTS, RANKS};
use super::steps::{
    ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKS, HORSE_MOVES, KING_STEPS, PAWN_STEPS,
};
use super::Board;

impl Board {
    /// Calls `f` with every pseudo-legal move of the side to move (the rules of movement, the
    /// general's safety aside) until it returns true; returns whether it did.
    fn pseudo_moves(&self, f: &mut impl FnMut(Square, Square) -> bool) -> bool {
        let us = self.side as usize;
        let own = self.occupied[us];
        let free = |sq: Square| own & bit(sq) == 0;
        macro_rules! emit {
            ($from:expr, $to:expr) => {
                if f($from, $to) {
                    return true;
                }
            };
        }
        for from in points(own) {
            let piece = self.squares[usize::from(from)];
            match kind_of(piece) {
                CHARIOT | CANNON => {
                    let cannon = kind_of(piece) == CANNON;
                    let (r, file) = (rank_of(from), file_of(from));
                    let rank = self.ranks[usize::from(r)];
                    let column = self.files[usize::from(file)];
                    if self.slide(f, from, cannon, rank, file, FILES, r * FILES, 1)
                        || self.slide(f, from, cannon, column, r, RANKS, file, FILES)
                    {
                        return true;
                    }
                }
                HORSE => {
                    for (to, leg) in HORSE_MOVES.of(from) {
                        if self.squares[usize::from(leg)] == 0 && free(to) {
                            emit!(from, to);
                        }
                    }
                }
                PAWN => {
                    for (to, _) in PAWN_STEPS[us].of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                KING => {
                    for (to, _) in KING_STEPS.of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                ADVISOR => {
                    for (to, _) in ADVISOR_STEPS.of(from) {
                        if free(to) {
                            emit!(from, to);
                        }
                    }
                }
                _ => {
                    for (to, eye) in ELEPHANT_STEPS.of(from) {
                        if self.squares[usize::from(eye)] == 0 && free(to) {
                            emit!(from, to);
                        }
                    }
                }
            }
        }
        false
    }

    /// The moves of the chariot or cannon on `from` along one line whose occupancy is `line`,
    /// `from` being at `at` of its `len` points and point `x` of it `base + x * stride`: the
    /// empty points up to the first piece each way, then a capture of the first piece (a
    /// chariot) or the second (a cannon, over its screen) if it is not ours. Calls `f` as
    /// [`Board::pseudo_moves`] does and returns whether it stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn slide(
        &self,
        f: &mut impl FnMut(Square, Square) -> bool,
        from: Square,
        cannon: bool,
        line: u16,
        at: u8,
        len: u8,
        base: u8,
        stride: u8,
    ) -> bool {
        let own = self.occupied[self.side as usize];
        let sq = |x: u8| base + x * stride;
        let Ray([a, b, _]) = up(line, at);
        for x in at + 1..if a == NONE { len } else { a } {
            if f(from, sq(x)) {
                return true;
            }
        }
        let target = if cannon { b } else { a };
        if target != NONE && own & bit(sq(target)) == 0 && f(from, sq(target)) {
            return true;
        }
        let Ray([a, b, _]) = down(line, at);
        for x in (if a == NONE { 0 } else { a + 1 }..at).rev() {
            if f(from, sq(x)) {
                return true;
            }
        }
        let target = if cannon { b } else { a };
        target != NONE && own & bit(sq(target)) == 0 && f(from, sq(target))
    }

    /// The points from which a move of ours may expose our general, and the empty points onto
    /// which one may (see the module doc). Out of check only.
    fn hazards(&self) -> (u128, u128) {
        let us = self.side as usize;
        let them = 1 - us;
        let k = self.kings[us];
        let (r, f) = (rank_of(k), file_of(k));
        let ours = |x: u8| x != NONE && side_of(self.squares[usize::from(x)]) == us;
        let is = |x: u8, c: u8| x != NONE && self.squares[usize::from(x)] == c;
        let chariot = code(them, Kind::Chariot);
        let cannon = code(them, Kind::Cannon);
        let king = code(them, Kind::King);
        let (mut pinned, mut blocks) = (0u128, 0u128);
        let rank_sq = |x: u8| if x == NONE { NONE } else { r * FILES + x };
        let file_sq = |x: u8| if x == NONE { NONE } else { x * FILES + f };
        let rays = [
            (up(self.ranks[usize::from(r)], f), true),
            (down(self.ranks[usize::from(r)], f), true),
            (up(self.files[usize::from(f)], r), false),
            (down(self.files[usize::from(f)], r), false),
        ];
        for (Ray(ray), on_rank) in rays {
            let [a, b, c] = ray.map(|x| if on_rank { rank_sq(x) } else { file_sq(x) });
            if a == NONE {
                continue;
            }
            if ours(a) && (is(b, chariot) || (!on_rank && is(b, king))) {
                pinned |= bit(a);
            }
            if is(c, cannon) {
                if ours(a) {
                    pinned |= bit(a);
                }
                if ours(b) {
                    pinned |= bit(b);
                }
            }
            if is(a, cannon) {
                blocks |= between(k, a);
            }
        }
        let horse = code(them, Kind::Horse);
        for (h, leg) in HORSE_ATTACKS.of(k) {
            if self.squares[usize::from(h)] == horse && ours(leg) {
                pinned |= bit(leg);
            }
        }
        (pinned, blocks)
    }

    /// Calls `f` with every legal move until it returns true; returns whether it did.
    #[inline]
    pub(crate) fn legal_moves(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        let us = self.side as usize;
        let k = self.kings[us];
        let (pinned, blocks) = if self.in_check() {
            (u128::MAX, u128::MAX)
        } else {
            self.hazards()
        };
        self.pseudo_moves(&mut |from, to| {
            let risky = from == k || (pinned >> from) & 1 != 0 || (blocks >> to) & 1 != 0;
            if risky && !self.safe_after(from, to) {
                return false;
            }
            f(Move { from, to })
        })
    }

    /// Whether the side to move's general is safe once it has played `from`-`to`.
    #[inline]
    fn safe_after(&self, from: Square, to: Square) -> bool {
        let us = self.side as usize;
        let piece = self.squares[usize::from(from)];
        let k = if from == self.kings[us] {
            to
        } else {
            self.kings[us]
        };
        !self.attacked(k, 1 - us, After { from, to, piece })
    }

    /// Every legal move, into `moves` (cleared first), in a fixed order: by the moving piece's
    /// point, a0 first.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.legal_moves(|m| {
            moves.push(m);
            false
        });
    }

    /// Whether the side to move has a legal move; stops at the first.
    pub fn has_legal_move(&self) -> bool {
        self.legal_moves(|_| true)
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        usize::from(mv.from) < POINTS
            && self.squares[usize::from(mv.from)] != 0
            && side_of(self.squares[usize::from(mv.from)]) == self.side as usize
            && self.legal_moves(|m| m == mv)
    }

    /// Whether `mv` follows the movement rules here, its general's safety aside.
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        self.pseudo_moves(&mut |from, to| from == mv.from && to == mv.to)
    }

    /// Leaf count `depth` plies ahead, on the bare rules, the last ply counted in bulk.
    pub fn perft(&mut self, depth: u32) -> u64 {
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&mut self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            let mut n = 0;
            self.legal_moves(|_| {
                n += 1;
                false
            });
            return n;
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return 0;
        };
        self.generate(moves);
        let mut total = 0;
        for &mv in moves.iter() {
            let taken = self.make(mv);
            total += self.perft_with(depth - 1, rest);
            self.unmake(mv, taken);
        }
        total
    }
}
