//! The interface between midgame evaluations and the exact solver's move ordering: the solver
//! sorts moves far from the end by how a shallow look rates them, and any evaluation that can
//! rate a bare pair of bitboards can serve.

use std::sync::Arc;

/// A rating of a position given as bitboards, from the side to move's point of view.
pub trait Estimate: Send + Sync {
    /// The expected final disc difference for `p` (the side to move) against `o`, in 1/16ths of
    /// a disc (so a 64–0 win is 1024). Only the order of the values matters for sorting; the
    /// scale matters to anything that compares them with real scores.
    fn estimate(&self, p: u64, o: u64) -> i32;

    /// Rates the positions after each of `p`'s moves in `moves` (a set of legal squares), in
    /// increasing square order, handing each child's [`Estimate::estimate`] to `visit` until
    /// it returns false. The values must be exactly the children's estimates; an evaluation
    /// that can share work between siblings (the pattern evaluator updates the parent's
    /// pattern indices instead of computing each child's) overrides this. The solver's
    /// shallow searches rate most of their leaves this way.
    fn estimate_children(&self, p: u64, o: u64, moves: u64, visit: &mut dyn FnMut(i32) -> bool) {
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = crate::bitboard::flips(p, o, sq);
            if !visit(self.estimate(o & !f, p | f | (1 << sq))) {
                return;
            }
        }
    }
}

/// Lets a shared evaluation (`Solver<Arc<dyn Estimate>>`) serve several solvers at once.
impl<E: Estimate + ?Sized> Estimate for Arc<E> {
    #[inline]
    fn estimate(&self, p: u64, o: u64) -> i32 {
        (**self).estimate(p, o)
    }

    #[inline]
    fn estimate_children(&self, p: u64, o: u64, moves: u64, visit: &mut dyn FnMut(i32) -> bool) {
        (**self).estimate_children(p, o, moves, visit);
    }
}
