//! Threads: a principal-variation node shares its moves after the first with the helper
//! solvers (see the module doc of [`super`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::budget::{Budget, Progress, SolveBudget};
use super::ordering::Candidate;
use super::tune::{EXACT, PARALLEL_MIN_EMPTIES};
use super::Solver;
use crate::estimate::Estimate;

impl<E: Estimate> Solver<E> {
    /// Whether a principal-variation node with `n` empties and `count` moves is shared with
    /// the helpers. A node limit counts this thread's nodes, so a limited solve stays on one
    /// thread, and reproducible.
    pub(super) fn splits(&self, n: u32, count: usize, b: &Budget<'_, '_>) -> bool {
        !self.helpers.is_empty()
            && n >= PARALLEL_MIN_EMPTIES
            && count > 1
            && b.limits.nodes.is_none()
    }

    /// A principal-variation node (the root or a first child) on this thread and the
    /// helpers': the first move here, through [`Solver::pvs`], which splits again below; the
    /// rest shared (see the module's notes on threads). Returns the value and the best move,
    /// brought to the front of `list`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        list: &mut [Candidate],
        b: &mut Budget<'_, '_>,
    ) -> (i32, u32) {
        let child = |c: &Candidate| (o & !c.flips, p | c.flips | (1 << c.sq));
        let (np, no) = child(&list[0]);
        let first = -self.pvs(np, no, -beta, -alpha, n - 1, b);
        if self.stopped || first >= beta {
            return (first, list[0].sq);
        }
        // (best value, its index), the bound the others are tested against, the next move
        // to take, and the flag that stops the helpers: a cut-off, or this thread's limits.
        let best = std::sync::Mutex::new((first, 0usize));
        let bound = AtomicI32::new(alpha.max(first));
        let next = AtomicUsize::new(1);
        let halt = AtomicBool::new(false);
        let moves: &[Candidate] = list;
        let take = |solver: &mut Solver<E>, b: &mut Budget<'_, '_>| {
            while !halt.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = moves.get(i) else { break };
                let (np, no) = child(c);
                let a = bound.load(Ordering::Relaxed);
                let mut v = -solver.nws(np, no, -a - 1, n - 1, b);
                if v > a && v < beta && !solver.stopped {
                    v = -solver.pvs(np, no, -beta, -v, n - 1, b);
                }
                if solver.stopped {
                    break;
                }
                let mut g = best.lock().unwrap_or_else(|e| e.into_inner());
                if v > g.0 {
                    *g = (v, i);
                    bound.fetch_max(v, Ordering::Relaxed);
                    if v >= beta {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let helper_limits = SolveBudget {
            stop: Some(&halt),
            deadline: b.limits.deadline,
            nodes: None,
            threads: 1,
        };
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    h.nodes = 0;
                    h.stopped = false;
                    h.sel = self.sel;
                    let (limits, take) = (&helper_limits, &take);
                    scope.spawn(move || {
                        let mut quiet = |_: &Progress| {};
                        let mut hb = Budget::new(limits, &mut quiet);
                        take(h, &mut hb);
                    })
                })
                .collect();
            take(self, b);
            // Done with the moves: wait for the helpers, and pass a stop on to them.
            while !running.iter().all(|r| r.is_finished()) {
                if !self.stopped && b.limits.interrupted(Instant::now()) {
                    self.stopped = true;
                }
                if self.stopped {
                    halt.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        for h in &mut helpers {
            self.nodes += h.nodes;
            h.sel = EXACT;
        }
        self.helpers = helpers;
        let (value, i) = best.into_inner().unwrap_or_else(|e| e.into_inner());
        list[..=i].rotate_right(1);
        (value, list[0].sq)
    }
}
