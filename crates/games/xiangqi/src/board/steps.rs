//! The short-range pieces' steps from every point, built at compile time: the general's and
//! the advisors' in the palace, the elephants' with the eye between, the horses' with the leg
//! (and the horses that attack a point), the soldiers' by side; each with the point that must
//! be empty for the step.

use super::point::{Square, FILES, POINTS, RANKS};

/// Steps from each point: up to `N` targets, each with the point that must be empty for the
/// step (the elephant's eye, the horse's leg; the target itself where nothing can block).
#[derive(Clone, Copy)]
pub(super) struct Steps<const N: usize> {
    to: [[u8; N]; POINTS],
    via: [[u8; N]; POINTS],
    len: [u8; POINTS],
}

impl<const N: usize> Steps<N> {
    const EMPTY: Self = Steps {
        to: [[0; N]; POINTS],
        via: [[0; N]; POINTS],
        len: [0; POINTS],
    };

    pub(super) const fn add(&mut self, from: usize, to: i32, via: i32) {
        let i = self.len[from] as usize;
        self.to[from][i] = to as u8;
        self.via[from][i] = via as u8;
        self.len[from] += 1;
    }

    /// Calls `f` with the targets of `from` and their blocking points, as two slices.
    #[inline]
    pub(super) fn with<R>(&self, from: Square, f: impl FnOnce(&[Square], &[Square]) -> R) -> R {
        let i = usize::from(from);
        let n = usize::from(self.len[i]);
        f(&self.to[i][..n], &self.via[i][..n])
    }

    /// The targets and blocking points of `from`.
    #[inline]
    pub(super) fn of(&self, from: Square) -> impl Iterator<Item = (Square, Square)> + '_ {
        let i = usize::from(from);
        let n = usize::from(self.len[i]);
        self.to[i][..n]
            .iter()
            .copied()
            .zip(self.via[i][..n].iter().copied())
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < FILES as i32 && r >= 0 && r < RANKS as i32
}

const fn in_palace(f: i32, r: i32) -> bool {
    on_board(f, r) && f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// The points of the palace (for the general and advisors) and of one half (for the elephants)
/// hold the piece to them, so the tables need no side: a piece's own palace or half is the one
/// it stands in.
const fn same_half(r1: i32, r2: i32) -> bool {
    (r1 <= 4) == (r2 <= 4)
}

const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const ELEPHANT: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (2, 1),
    (-2, 1),
    (2, -1),
    (-2, -1),
    (1, -2),
    (-1, -2),
];

/// The general's steps inside its palace.
pub(super) const KING_STEPS: Steps<4> = table(&ORTHOGONAL, Table::Palace);
/// The advisors' steps inside their palace.
pub(super) const ADVISOR_STEPS: Steps<4> = table(&DIAGONAL, Table::Palace);
/// The elephants' two diagonal steps, on their own side of the river, with the eye between.
pub(super) const ELEPHANT_STEPS: Steps<4> = table(&ELEPHANT, Table::Half);
/// The horses' moves, with the leg: the point one step straight towards the target.
pub(super) const HORSE_MOVES: Steps<8> = table(&HORSE_JUMPS, Table::HorseMoves);
/// The horses that attack a point: each horse's point and its leg, which is always diagonally
/// next to the attacked point.
pub(super) const HORSE_ATTACKS: Steps<8> = table(&HORSE_JUMPS, Table::HorseAttacks);

/// Which steps a table keeps, and which point each must find empty.
#[derive(Clone, Copy)]
enum Table {
    /// Within the palace; nothing blocks.
    Palace,
    /// Within the half of the board; blocked at the middle point (the elephant's eye).
    Half,
    /// A horse's moves from the point, blocked at the leg.
    HorseMoves,
    /// The horse moves onto the point, from the other end of each step, blocked at the leg.
    HorseAttacks,
}

/// The steps `vectors` from every point, as `kind` keeps them.
const fn table<const N: usize>(vectors: &[(i32, i32)], kind: Table) -> Steps<N> {
    let mut t = Steps::EMPTY;
    let mut sq = 0;
    while sq < POINTS {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < vectors.len() {
            let (df, dr) = vectors[d];
            let (tf, tr) = (f + df, r + dr);
            let kept = on_board(tf, tr)
                && match kind {
                    Table::Palace => in_palace(f, r) && in_palace(tf, tr) && same_half(r, tr),
                    Table::Half => same_half(r, tr),
                    Table::HorseMoves | Table::HorseAttacks => true,
                };
            // The horse's point and its move: the leg is one step straight from the horse
            // along the move's longer side.
            let ((hf, hr), (mf, mr)) = match kind {
                Table::HorseAttacks => ((tf, tr), (-df, -dr)),
                _ => ((f, r), (df, dr)),
            };
            let via = match kind {
                Table::Palace => tr * 9 + tf,
                Table::Half => (r + dr / 2) * 9 + f + df / 2,
                _ if mr == 2 || mr == -2 => (hr + mr / 2) * 9 + hf,
                _ => hr * 9 + hf + mf / 2,
            };
            if kept {
                t.add(sq, tr * 9 + tf, via);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The soldiers' steps per side: forward, and sideways once across the river.
pub(super) const PAWN_STEPS: [Steps<3>; 2] = [pawn_steps(0), pawn_steps(1)];

const fn pawn_steps(side: usize) -> Steps<3> {
    let mut t = Steps::EMPTY;
    let forward = if side == 0 { 1 } else { -1 };
    let mut sq = 0;
    while sq < POINTS {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        if on_board(f, r + forward) {
            t.add(sq, (r + forward) * 9 + f, (r + forward) * 9 + f);
        }
        let across = if side == 0 { r >= 5 } else { r <= 4 };
        if across {
            if f > 0 {
                t.add(sq, r * 9 + f - 1, r * 9 + f - 1);
            }
            if f < 8 {
                t.add(sq, r * 9 + f + 1, r * 9 + f + 1);
            }
        }
        sq += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point::{square, square_name};

    #[test]
    fn tables_hold_pieces_to_their_areas() {
        // The general in the corner of the palace (d0) has two steps; at e1 four.
        assert_eq!(KING_STEPS.of(square(3, 0)).count(), 2);
        assert_eq!(KING_STEPS.of(square(4, 1)).count(), 4);
        assert_eq!(KING_STEPS.of(square(4, 8)).count(), 4);
        // An advisor at e1 reaches the four corners, from d0 only e1.
        assert_eq!(ADVISOR_STEPS.of(square(4, 1)).count(), 4);
        assert_eq!(ADVISOR_STEPS.of(square(3, 0)).count(), 1);
        // An elephant at e2 goes to a0? no: c0, g0, c4, g4; at c4 it cannot cross the river.
        assert_eq!(ELEPHANT_STEPS.of(square(4, 2)).count(), 4);
        let c4: Vec<_> = ELEPHANT_STEPS.of(square(2, 4)).map(|(t, _)| t).collect();
        assert_eq!(c4, [square(4, 2), square(0, 2)]);
        // A horse in the corner has two moves; in the middle eight.
        assert_eq!(HORSE_MOVES.of(square(0, 0)).count(), 2);
        assert_eq!(HORSE_MOVES.of(square(4, 4)).count(), 8);
        // Red soldiers: one step before the river, three after; on the last rank two.
        assert_eq!(PAWN_STEPS[0].of(square(4, 3)).count(), 1);
        assert_eq!(PAWN_STEPS[0].of(square(4, 5)).count(), 3);
        assert_eq!(PAWN_STEPS[0].of(square(4, 9)).count(), 2);
        assert_eq!(PAWN_STEPS[1].of(square(4, 4)).count(), 3);
    }

    #[test]
    fn every_step_stays_on_the_board() {
        let tables = [&KING_STEPS, &ADVISOR_STEPS, &ELEPHANT_STEPS];
        for sq in 0..POINTS as Square {
            let small = tables.iter().flat_map(|t| t.of(sq));
            let horses = HORSE_MOVES.of(sq).chain(HORSE_ATTACKS.of(sq));
            let pawns = PAWN_STEPS.iter().flat_map(|t| t.of(sq));
            for (to, via) in small.chain(horses).chain(pawns) {
                assert!(usize::from(to.max(via)) < POINTS, "{}", square_name(sq));
            }
        }
    }

    #[test]
    fn horse_attacks_mirror_horse_moves() {
        for t in 0..POINTS as Square {
            for (h, leg) in HORSE_ATTACKS.of(t) {
                assert!(
                    HORSE_MOVES.of(h).any(|(to, l)| to == t && l == leg),
                    "{} from {}",
                    square_name(t),
                    square_name(h)
                );
            }
            assert_eq!(HORSE_ATTACKS.of(t).count(), HORSE_MOVES.of(t).count());
        }
    }
}
