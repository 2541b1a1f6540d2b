//! The search at table nodes: principal variation search along the first line, null-window
//! search everywhere else, with the table's bounds, the stability cut-off, ProbCut in the
//! selective passes and enhanced transposition cut-off.

use super::budget::Budget;
use super::ordering::{pick_best, Candidate};
use super::shallow::parity_of;
use super::tune::{
    ETC_MIN_EMPTIES, EXACT, PROBCUT_MIN_EMPTIES, PROBCUT_SIGMA_2, PROBCUT_SIGMA_4, SELECTIVITY,
    SORT_WINDOW, STABILITY_MIN_ALPHA, TT_MIN_EMPTIES,
};
use super::{Solver, INF};
use crate::bitboard::{moves, stable_discs};
use crate::board::final_score;
use crate::estimate::Estimate;

impl<E: Estimate> Solver<E> {
    /// Principal variation search in (`alpha`, `beta`), `n` empties, `p` to move.
    pub(super) fn pvs(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        b: &mut Budget<'_, '_>,
    ) -> i32 {
        if n < TT_MIN_EMPTIES {
            let e = !(p | o);
            return self.shallow(p, o, alpha, beta, e, parity_of(e), n);
        }
        self.nodes += 1;
        if self.nodes >= b.check_at && self.poll(b) {
            return 0;
        }
        let mut list = [Candidate::default(); 32];
        let count = self.sorted_moves(p, o, n, &mut list);
        if count == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, n, b);
        }
        let alpha0 = alpha;
        if self.splits(n, count, b) {
            let (best, best_sq) = self.split(p, o, alpha, beta, n, &mut list[..count], b);
            if self.stopped {
                return 0;
            }
            self.store(p, o, n, alpha0, beta, best, best_sq);
            return best;
        }
        let mut best = -INF;
        let mut best_sq = list[0].sq;
        for (i, c) in list[..count].iter().enumerate() {
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            let v = if i == 0 {
                -self.pvs(np, no, -beta, -alpha, n - 1, b)
            } else {
                let mut v = -self.nws(np, no, -alpha - 1, n - 1, b);
                if v > alpha && v < beta {
                    v = -self.pvs(np, no, -beta, -v, n - 1, b);
                }
                v
            };
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.store(p, o, n, alpha0, beta, best, best_sq);
        best
    }

    /// Null-window search: is the value above `alpha` (window `alpha`, `alpha + 1`)? Fail-soft.
    pub(super) fn nws(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        b: &mut Budget<'_, '_>,
    ) -> i32 {
        if n < TT_MIN_EMPTIES {
            let e = !(p | o);
            return self.shallow(p, o, alpha, alpha + 1, e, parity_of(e), n);
        }
        self.nodes += 1;
        if self.nodes >= b.check_at && self.poll(b) {
            return 0;
        }

        if let Some(cap) = stability_cut(p, o, alpha) {
            return cap;
        }

        let mut tt_move = 64;
        if let Some(e) = self.probe_tt(p, o, n) {
            if e.sel >= self.sel {
                let (lo, up) = (i32::from(e.lower), i32::from(e.upper));
                if lo > alpha {
                    return lo;
                }
                if up <= alpha {
                    return up;
                }
            }
            tt_move = u32::from(e.best);
        }

        // ProbCut (selective passes only): when a shallow search lands far enough outside the
        // window, the exact value very probably does too.
        if self.sel < EXACT && n >= PROBCUT_MIN_EMPTIES {
            let (depth, sigma) = if n >= 20 {
                (4, PROBCUT_SIGMA_4)
            } else {
                (2, PROBCUT_SIGMA_2)
            };
            let margin = SELECTIVITY[self.sel as usize] * sigma / 100;
            let (high, low) = ((alpha + 1) * 16 + margin, alpha * 16 - margin);
            if self.probe(p, o, high - 1, high, n, depth) >= high {
                return alpha + 1;
            }
            if self.probe(p, o, low, low + 1, n, depth) <= low {
                return alpha;
            }
        }

        let mut list = [Candidate::default(); 32];
        let count = self.collect(p, o, &mut list);
        if count == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, n, b);
        }

        if n >= ETC_MIN_EMPTIES {
            for c in &list[..count] {
                let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
                // The child's upper bound, negated, is a lower bound for us.
                if let Some(e) = self.probe_tt(np, no, n - 1) {
                    if e.sel >= self.sel && -i32::from(e.upper) > alpha {
                        return -i32::from(e.upper);
                    }
                }
            }
        }

        let mut best = -INF;
        let mut best_sq = list[0].sq;
        let mut first = 0;
        // The table's move is searched before the others are scored: it cuts often enough that
        // the shallow searches of the sort would mostly be wasted.
        if let Some(k) = list[..count].iter().position(|c| c.sq == tt_move) {
            list.swap(0, k);
            let c = list[0];
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            best = -self.nws(np, no, -alpha - 1, n - 1, b);
            best_sq = c.sq;
            if best > alpha {
                self.store(p, o, n, alpha, alpha + 1, best, best_sq);
                return best;
            }
            first = 1;
        }
        // Only whether a move may reach alpha matters here: the probes stop as soon as the
        // opponent's reply shows a move is well below it.
        let ceiling = (SORT_WINDOW - alpha) * 16;
        self.score_moves(p, o, n, 64, &mut list[first..count], ceiling);
        for i in first..count {
            pick_best(&mut list[i..count]);
            let c = list[i];
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            let v = -self.nws(np, no, -alpha - 1, n - 1, b);
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    break;
                }
            }
        }
        self.store(p, o, n, alpha, alpha + 1, best, best_sq);
        best
    }
}

/// The stability cut-off: the opponent's stable discs are lost to us for good, so our score is
/// at most 64 minus twice their number; `Some(cap)` when that fails low against `alpha`.
#[inline]
fn stability_cut(p: u64, o: u64, alpha: i32) -> Option<i32> {
    // Only worth counting when the opponent has few enough discs for a cut to be possible.
    if alpha < STABILITY_MIN_ALPHA || 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}
