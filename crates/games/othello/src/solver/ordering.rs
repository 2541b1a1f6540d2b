//! Move ordering at the table nodes: fastest first (the move that leaves the opponent fewest
//! replies), corners, parity, and far from the end a shallow search rated by the solver's
//! [`Estimate`]; [`RoughEstimate`], the built-in one.

use super::tune::{POTENTIAL_MOBILITY_MIN_EMPTIES, PROBE_WEIGHT, SHALLOW_SORT_MIN_EMPTIES};
use super::Solver;
use crate::bitboard::{flips, moves, neighbours, CORNERS, X_SQUARES};
use crate::board::final_score;
use crate::estimate::Estimate;

/// Above every value of the ordering probe.
pub(super) const PROBE_INF: i32 = 1 << 20;

/// The four 4×4 quadrants: parity ordering counts empties per quadrant.
pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// A move with what sorting needs.
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    pub(super) sq: u32,
    pub(super) flips: u64,
    pub(super) key: i32,
}

/// The empties in quadrants holding an odd number of empties.
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    empties & odd
}

impl<E: Estimate> Solver<E> {
    /// The legal moves of `p`, with their flips, unsorted.
    #[inline]
    pub(super) fn collect(&self, p: u64, o: u64, list: &mut [Candidate; 32]) -> usize {
        let mut m = moves(p, o);
        let mut count = 0;
        while m != 0 {
            let sq = m.trailing_zeros();
            list[count] = Candidate {
                sq,
                flips: flips(p, o, sq),
                key: 0,
            };
            count += 1;
            m &= m - 1;
        }
        count
    }

    /// Gives each move its sort key: the table's move first, then fewest replies for the
    /// opponent (corner replies counting double), a bonus for corners and for odd regions.
    ///
    /// The shallow searches run in the window (-inf, `ceiling`) from the opponent's side: a
    /// reply at `ceiling` or above ends the search (the move's key is then a bound).
    pub(super) fn score_moves(
        &mut self,
        p: u64,
        o: u64,
        n: u32,
        tt_move: u32,
        list: &mut [Candidate],
        ceiling: i32,
    ) {
        let empties = !(p | o);
        let odd = odd_quadrants(empties);
        for c in list.iter_mut() {
            let bit = 1u64 << c.sq;
            if c.sq == tt_move {
                c.key = 1 << 30;
                continue;
            }
            let (np, no) = (o & !c.flips, p | c.flips | bit);
            let reply = moves(np, no);
            // Fastest first: the fewer replies (corners counting double), the smaller the tree.
            let mut key = -((reply.count_ones() + (reply & CORNERS).count_ones()) as i32) * 64;
            // Potential mobility: the fewer empties next to our discs, the fewer future replies.
            if n >= POTENTIAL_MOBILITY_MIN_EMPTIES {
                key -= (neighbours(no) & !(np | no)).count_ones() as i32 * 4;
            }
            if bit & CORNERS != 0 {
                key += 32;
            }
            if bit & X_SQUARES != 0 {
                key -= 32;
            }
            if bit & odd != 0 {
                key += 16;
            }
            if n >= SHALLOW_SORT_MIN_EMPTIES {
                // A shallow search: what the opponent can make of the position, roughly.
                // Measured on FFO #49/#50: each extra ply pays for itself only this far up
                // (the evaluations are most of the solver's time).
                let depth = match n {
                    24.. => 4,
                    20..=23 => 3,
                    18..=19 => 2,
                    _ => 1,
                };
                key -= self.probe(np, no, -PROBE_INF, ceiling, n - 1, depth) * PROBE_WEIGHT;
            }
            c.key = key;
        }
    }

    /// Generates and sorts the moves for a PV node (root or first line).
    pub(super) fn sorted_moves(
        &mut self,
        p: u64,
        o: u64,
        n: u32,
        list: &mut [Candidate; 32],
    ) -> usize {
        let count = self.collect(p, o, list);
        if count == 0 {
            return 0;
        }
        let tt_move = self.probe_tt(p, o, n).map_or(64, |e| u32::from(e.best));
        self.score_moves(p, o, n, tt_move, &mut list[..count], PROBE_INF);
        list[..count].sort_by_key(|c| -c.key);
        count
    }

    /// A cheap estimate for ordering: a depth-limited alpha-beta search whose leaves are a
    /// mobility-based evaluation. `n` empties, `depth` plies.
    pub(super) fn probe(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        depth: u32,
    ) -> i32 {
        if depth == 0 || n == 0 {
            return self.estimate.estimate(p, o);
        }
        let mut m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 16;
            }
            return -self.probe(o, p, -beta, -alpha, n, depth - 1);
        }
        let mut best = -PROBE_INF;
        if depth == 1 {
            // The children are leaves: the estimate rates them together, sharing the work.
            self.estimate.estimate_children(p, o, m, &mut |v| {
                let v = -v;
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return false;
                        }
                    }
                }
                true
            });
            return best;
        }
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            let v = -self.probe(o & !f, p | f | (1 << sq), -beta, -alpha, n - 1, depth - 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The move with the highest key to the front (a selection step: most nodes cut on the first
/// move, so a full sort would be wasted).
#[inline]
pub(super) fn pick_best(list: &mut [Candidate]) {
    let mut best = 0;
    for i in 1..list.len() {
        if list[i].key > list[best].key {
            best = i;
        }
    }
    list.swap(0, best);
}

/// The built-in ordering estimate: the textbook's terms (square weights, mobility, potential
/// mobility, corners), roughly scaled. Any [`Estimate`] can replace it through
/// [`Solver::with_estimate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RoughEstimate;

impl Estimate for RoughEstimate {
    #[inline]
    fn estimate(&self, p: u64, o: u64) -> i32 {
        rough_estimate(p, o)
    }
}

#[inline]
fn rough_estimate(p: u64, o: u64) -> i32 {
    let mp = moves(p, o).count_ones() as i32;
    let mo = moves(o, p).count_ones() as i32;
    let e = !(p | o);
    let pot = (neighbours(o) & e).count_ones() as i32 - (neighbours(p) & e).count_ones() as i32;
    let mut sw = 0;
    let mut b = p;
    while b != 0 {
        sw += crate::SQUARE_WEIGHTS[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    let mut b = o;
    while b != 0 {
        sw -= crate::SQUARE_WEIGHTS[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    (sw + (mp - mo) * 10 + pot * 3 + corners * 50) / 8
}
