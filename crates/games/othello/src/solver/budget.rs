//! What a solve may spend and what it shows while it runs: the [`SolveBudget`] looked at every
//! [`CHECK_EVERY`] nodes, the [`Progress`] reported by stage, window and every few seconds,
//! and the bounds the exact pass has proven, which a stopped solve returns.

use std::time::{Duration, Instant};

use super::Solver;
use crate::estimate::Estimate;

/// Nodes between two looks at the limits and the clock: a few milliseconds of search.
pub const CHECK_EVERY: u64 = 1 << 16;

/// How often a long window reports that it is still running.
const REPORT_EVERY: Duration = Duration::from_secs(2);

/// What may end a solve before it has proven the score (every game's solver takes the same).
pub use duel_core::SolveBudget;

/// The stages of [`Solver::solve`], in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The selective search that guesses the value and orders the root's moves.
    Guess,
    /// A selective pass: ProbCut cuts a node when a shallow search lands `confidence`
    /// hundredths of its measured error outside the window. Its values are guesses.
    ProbCut {
        /// In hundredths of the shallow search's standard error.
        confidence: i32,
    },
    /// The exact pass: every bound it finds is proven.
    Exact,
}

/// Where a running solve stands (discs, from the side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The stage running or just ended.
    pub stage: Stage,
    /// The latest value the stages found: a guess until the exact pass proves it.
    pub guess: Option<i32>,
    /// The lower bound the exact pass has proven, if any yet.
    pub lower: Option<i32>,
    /// The upper bound the exact pass has proven, if any yet.
    pub upper: Option<i32>,
    /// The window still being searched, in a report of a long one; None when a window or a
    /// stage has just ended.
    pub window: Option<(i32, i32)>,
    /// Nodes this solve has searched.
    pub nodes: u64,
}

/// A solve ended by its [`SolveBudget`] before it proved the score (bounds in discs, proven by the exact pass).
pub use duel_core::SolverStopped as Stopped;

/// One solve's limits, its progress callback and the state its reports show.
pub(super) struct Budget<'a, 'l> {
    /// The node count at which to look at the limits next (0 once stopped).
    pub(super) check_at: u64,
    pub(super) limits: &'a SolveBudget<'l>,
    progress: &'a mut dyn FnMut(&Progress),
    /// What a report shows.
    pub(super) now: Progress,
    reported: Instant,
}

impl<'a, 'l> Budget<'a, 'l> {
    pub(super) fn new(limits: &'a SolveBudget<'l>, progress: &'a mut dyn FnMut(&Progress)) -> Self {
        Budget {
            check_at: limits.nodes.map_or(CHECK_EVERY, |n| n.min(CHECK_EVERY)),
            limits,
            progress,
            now: Progress {
                stage: Stage::Exact,
                guess: None,
                lower: None,
                upper: None,
                window: None,
                nodes: 0,
            },
            reported: Instant::now(),
        }
    }

    /// Records what an exact search's fail-soft `score` in (`alpha`, `beta`) proves.
    pub(super) fn prove(&mut self, score: i32, alpha: i32, beta: i32) {
        if score > alpha {
            self.now.lower = Some(self.now.lower.map_or(score, |l| l.max(score)));
        }
        if score < beta {
            self.now.upper = Some(self.now.upper.map_or(score, |u| u.min(score)));
        }
    }

    /// Calls the callback with the current state.
    pub(super) fn report(&mut self, window: Option<(i32, i32)>, nodes: u64) {
        self.reported = Instant::now();
        let p = Progress {
            window,
            nodes,
            ..self.now
        };
        (self.progress)(&p);
    }
}

impl<E: Estimate> Solver<E> {
    /// Looks at the limits when the node count reaches `b.check_at`; true when the search
    /// must stop. After a stop every table node comes here and leaves at once.
    #[cold]
    #[inline(never)]
    pub(super) fn poll(&mut self, b: &mut Budget<'_, '_>) -> bool {
        if self.stopped {
            return true;
        }
        let now = Instant::now();
        if b.limits.nodes.is_some_and(|n| self.nodes >= n) || b.limits.interrupted(now) {
            self.stopped = true;
            b.check_at = 0;
            return true;
        }
        if now.duration_since(b.reported) >= REPORT_EVERY {
            let window = b.now.window;
            b.report(window, self.nodes);
        }
        let next = self.nodes.saturating_add(CHECK_EVERY);
        b.check_at = b.limits.nodes.map_or(next, |n| next.min(n));
        false
    }
}
