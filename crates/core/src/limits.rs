//! What may end one call of a game's own exact solver before it has proven the score: the
//! same three limits for every solver, so a front end stops any of them the same way, and the
//! same account of what a stopped one had proven.
//!
//! A [`SolveBudget`] is what one call may spend: the nodes left and an instant to stop at.
//! A whole solve's limits, as a user gives them (a node count, a time), are
//! [`crate::solve::SolveLimits`]; the solve of a root spends them move by move, handing each
//! move's solver the budget that is left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What one call of a solver may spend, and the threads it may use. The default ends nothing
/// and uses one.
#[derive(Debug, Clone, Copy, Default)]
pub struct SolveBudget<'a> {
    /// Threads the solver may use (0 and 1 both mean one); a solver without threads ignores
    /// it.
    pub threads: usize,
    /// At most this many nodes in this call.
    pub nodes: Option<u64>,
    /// Stop once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop once another thread sets this flag.
    pub stop: Option<&'a AtomicBool>,
}

impl SolveBudget<'_> {
    /// Whether the flag is set or the deadline has passed at `now` (the node limit is the
    /// solver's to count).
    pub fn interrupted(&self, now: Instant) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| now >= d)
    }
}

/// A solve ended by its [`SolveBudget`] before it proved the score: the bounds it had proven
/// (in the solver's own scale, from the side to move) and the nodes it searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverStopped {
    /// The proven lower bound, if any.
    pub lower: Option<i32>,
    /// The proven upper bound, if any.
    pub upper: Option<i32>,
    /// Nodes this solve searched.
    pub nodes: u64,
}
