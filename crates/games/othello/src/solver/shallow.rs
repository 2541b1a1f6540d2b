//! The last empties, below the table: no move list, the empty squares tried directly, those
//! in quadrants with an odd number of empties first; two empties and one solved in place.

use super::ordering::QUADRANTS;
use super::tune::STABILITY_MIN_ALPHA;
use super::{Solver, INF};
use crate::bitboard::{flips, last_flip_count, moves, stable_discs_few};
use crate::board::final_score;
use crate::estimate::Estimate;

impl<E: Estimate> Solver<E> {
    /// Few empties: no table, no move list. Tries the empties in odd quadrants first;
    /// `parity` has bit q set when quadrant q holds an odd number of empties.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        if n == 2 {
            return self.solve_2(p, o, alpha, beta, empties);
        }
        if n == 1 {
            self.nodes += 1;
            return solve_1(p, o, empties.trailing_zeros());
        }
        self.nodes += 1;
        // Here too: the cut-off saves more nodes in the last empties than anywhere (about half
        // of FFO #48's 120 M) now that the stable discs cost a few dozen shifts.
        if let Some(cap) = stability_cut_few(o, alpha, empties) {
            return cap;
        }
        let mut best = -INF;
        let odd = empties & PARITY_MASKS[parity as usize];
        for set in [odd, empties & !odd] {
            let mut s = set;
            while s != 0 {
                let sq = s.trailing_zeros();
                s &= s - 1;
                // Only squares next to an opponent disc can flip anything.
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let v = -self.shallow(
                    o & !f,
                    p | f | bit,
                    -beta,
                    -alpha,
                    empties ^ bit,
                    parity ^ quadrant(sq),
                    n - 1,
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        -self.shallow(o, p, -beta, -alpha, empties, parity, n)
    }

    /// Two empties, `p` to move: both orders tried directly, the pass handled in place.
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let a = empties.trailing_zeros();
        let b = 63 - empties.leading_zeros();
        let mut best = -INF;
        for (x, y) in [(a, b), (b, a)] {
            if NEIGHBOURS[x as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f != 0 {
                self.nodes += 1;
                let v = -solve_1(o & !f, p | f | (1 << x), y);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        // We pass: the opponent picks, and every value is ours after its move.
        let mut worst = INF;
        for (x, y) in [(a, b), (b, a)] {
            if NEIGHBOURS[x as usize] & p == 0 {
                continue;
            }
            let f = flips(o, p, x);
            if f != 0 {
                self.nodes += 1;
                let v = solve_1(p & !f, o | f | (1 << x), y);
                if v < worst {
                    worst = v;
                    if v <= alpha {
                        return v;
                    }
                }
            }
        }
        if worst < INF {
            return worst;
        }
        final_score(p, o)
    }
}

/// The score when `sq` is the only empty square and `p` is to move.
#[inline]
fn solve_1(p: u64, o: u64, sq: u32) -> i32 {
    let pc = p.count_ones() as i32;
    let n = last_flip_count(p, sq) as i32;
    if n > 0 {
        return 2 * (pc + n + 1) - 64;
    }
    let n = last_flip_count(o, sq) as i32;
    if n > 0 {
        return 2 * (pc - n) - 64;
    }
    // Nobody can take the last square: it goes to the winner (the difference is odd).
    let d = 2 * pc - 63;
    if d > 0 {
        d + 1
    } else {
        d - 1
    }
}

/// [`stability_cut`] with the empties at hand, for the last few of them: the full lines from
/// the lines through each empty (FFO #45–#49 about 4% faster; at the table nodes, 7 to 9
/// empties, it was slower).
#[inline]
fn stability_cut_few(o: u64, alpha: i32, empties: u64) -> Option<i32> {
    if alpha < STABILITY_MIN_ALPHA || 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs_few(o, empties).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}

/// The bit of the quadrant holding `sq` in a parity set.
#[inline]
fn quadrant(sq: u32) -> u32 {
    1 << (((sq >> 2) & 1) | ((sq >> 4) & 2))
}

/// The parity bits of a set of empties.
#[inline]
pub(super) fn parity_of(empties: u64) -> u32 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() & 1) << q;
    }
    parity
}

/// The squares of the quadrants named by each set of parity bits.
const PARITY_MASKS: [u64; 16] = {
    let mut m = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut q = 0;
        while q < 4 {
            if bits & (1 << q) != 0 {
                m[bits] |= QUADRANTS[q];
            }
            q += 1;
        }
        bits += 1;
    }
    m
};

/// The squares around each square.
const NEIGHBOURS: [u64; 64] = {
    let mut m = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    m[sq] |= 1 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    m
};
