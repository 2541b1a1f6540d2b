//! The interface between midgame evaluations and the exact solver's move ordering: the solver
//! sorts moves far from the end by how a shallow look rates them, and any evaluation that can
//! rate a bare pair of bitboards can serve.

/// A rating of a position given as bitboards, from the side to move's point of view.
pub trait Estimate: Send + Sync {
    /// The expected final disc difference for `p` (the side to move) against `o`, in 1/16ths of
    /// a disc (so a 64–0 win is 1024). Only the order of the values matters for sorting; the
    /// scale matters to anything that compares them with real scores.
    fn estimate(&self, p: u64, o: u64) -> i32;
}
