//! The exact endgame solver: the final disc difference under perfect play, empty squares going
//! to the winner (the FFO convention), and a move that reaches it.
//!
//! Principal variation search at the root and along the first line, null-window searches
//! everywhere else. Phases by the number of empty squares:
//!
//! - **many empties** ([`TT_MIN_EMPTIES`] and up): a transposition table of bounds, enhanced
//!   transposition cut-off (look up every child before searching any), the stability cut-off
//!   (the opponent's stable discs cap our score), and fastest-first ordering (the move that
//!   leaves the opponent fewest replies first), refined far from the end by shallow searches
//!   that rate positions with an [`Estimate`] (the pattern evaluator by default); the table's
//!   move is tried before the others are sorted;
//! - **few empties**: no table and no move list; the empty squares are tried directly, those in
//!   quadrants with an odd number of empties first (parity: the last move of a region is worth
//!   having); the stability cut-off still applies;
//! - **one empty**: the score is counted from the flips of that one square, no move played.
//!
//! Far from the end ([`PROBCUT_ID_MIN_EMPTIES`] and up), [`Solver::solve`] runs selective passes
//! before the exact one, as Edax does: ProbCut cuts a node when a shallow search lands far
//! outside the window, by once and then twice its measured error. Each pass starts from
//! the last one's value and leaves in the table the best moves the next one tries first; the
//! table keeps, with every bound, the level it was found at, and a pass trusts only bounds at
//! least as exact as itself, so the last pass's value is exact.
//!
//! Every final score is even (64 discs and empties split between winner and total), so the
//! driver only ever needs windows between even numbers.
//!
//! Threads ([`Solver::set_threads`]): helper solvers, sharing the main table, share the
//! root's moves after the first. The first move is searched alone with the whole window, as
//! young-brothers-wait has it, and sets the bound; the others are taken from a common counter
//! by whichever thread is free and tested with null windows against the best value so far, a
//! move that beats it searched again by the thread that found it. A move reaching beta stops
//! the others. Every thread's values are exact facts, so the result is the one-thread value;
//! only the best move among equals and the node count may differ from run to run.
//!
//! [`Solver::solve_limited`] takes [`SolveBudget`] (nodes, a deadline, a stop flag) and a progress
//! callback: the limits are looked at every [`CHECK_EVERY`] nodes, and a stop unwinds through
//! ordinary returns, storing nothing from the unfinished subtrees.
//!
//! One file per duty, as Edax keeps its endgame's table, search and ordering apart: `tune`
//! (the measured thresholds), `table` (the transposition tables), `budget` (limits and
//! progress), `root` (the stages and their windows), `parallel` (the threads), `search` (the
//! table nodes), `shallow` (the last empties) and `ordering` (move order and the built-in
//! estimate).

mod budget;
mod ordering;
mod parallel;
mod root;
mod search;
mod shallow;
mod table;
mod tune;

use std::sync::Arc;

use duel_core::Game;

pub use budget::{Progress, SolveBudget, Stage, Stopped, CHECK_EVERY};
pub use ordering::RoughEstimate;
pub use table::DEFAULT_TT_BITS;
pub use tune::{
    ETC_MIN_EMPTIES, GUESS_MIN_EMPTIES, PARALLEL_MIN_EMPTIES, PROBCUT_ID_MIN_EMPTIES,
    SHALLOW_SORT_MIN_EMPTIES, TT_MIN_EMPTIES,
};

use crate::estimate::Estimate;
use crate::{Move, Othello, Pattern};
use table::{Bucket, Entry, WAYS};
use tune::{EXACT, NEAR_TT_BITS};

/// Above every score.
const INF: i32 = 127;

/// The result of a solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The exact final disc difference from the side to move, empties to the winner (or, from
    /// [`Solver::solve_window`], a bound when it falls outside the window).
    pub score: i32,
    /// A move reaching `score` (`Move::PASS` if the only move is a pass); `None` when the game is
    /// over.
    pub best_move: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// The exact solver, with its transposition table (kept between solves: the values it holds
/// are exact facts about positions, whatever search produced them).
///
/// `E` rates positions for move ordering far from the end; it never changes a score, only how
/// fast it is found.
pub struct Solver<E: Estimate = Pattern> {
    estimate: E,
    /// Shared with the helpers.
    table: Arc<[Bucket]>,
    near: Vec<Entry>,
    nodes: u64,
    /// The current pass's selectivity level ([`EXACT`] outside [`Solver::solve`]'s passes).
    sel: u8,
    /// Set when a limit stopped the search: every node then returns at once, storing nothing.
    stopped: bool,
    /// Solvers that take root moves on threads of their own ([`Solver::set_threads`]).
    helpers: Vec<Solver<E>>,
}

impl<E: Estimate> std::fmt::Debug for Solver<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({} table entries)", self.table.len() * WAYS)
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(DEFAULT_TT_BITS)
    }
}

impl Solver {
    /// A solver with a table of 24 × 2^`tt_bits` bytes, ordering by the pattern
    /// evaluator: on FFO #20–#39 it leaves 126 M nodes to search against 328 M with
    /// [`RoughEstimate`] (7.2 s against 13.4 s).
    pub fn new(tt_bits: u32) -> Self {
        Solver::with_estimate(tt_bits, Pattern::default())
    }
}

impl<E: Estimate> Solver<E> {
    /// A solver with a table of 24 × 2^`tt_bits` bytes (as many buckets of three entries as
    /// fit), ordering by `estimate`.
    pub fn with_estimate(tt_bits: u32, estimate: E) -> Self {
        // The memory of 2^tt_bits entries of 24 bytes, in buckets of 64.
        let buckets = ((24usize << tt_bits.min(32)) / std::mem::size_of::<Bucket>()).max(1);
        Solver {
            estimate,
            table: (0..buckets).map(|_| Bucket::default()).collect(),
            near: vec![Entry::default(); 1 << NEAR_TT_BITS],
            nodes: 0,
            sel: EXACT,
            stopped: false,
            helpers: Vec::new(),
        }
    }

    /// Threads searching the principal variation's moves, this one included (at least one):
    /// the helpers share this solver's table (each has its own small one for the last
    /// empties) and are kept from solve to solve.
    pub fn set_threads(&mut self, threads: usize)
    where
        E: Clone,
    {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            // A small table of its own in place of the one it shares.
            let mut h = Solver::with_estimate(0, self.estimate.clone());
            h.table = Arc::clone(&self.table);
            self.helpers.push(h);
        }
    }

    /// The threads [`Solver::set_threads`] set.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Forgets everything in the table (and the helpers' tables).
    pub fn clear(&mut self) {
        for b in self.table.iter() {
            b.clear();
        }
        self.near.fill(Entry::default());
        for h in &mut self.helpers {
            h.clear();
        }
    }
}

/// Solves `pos` with a fresh default solver: a convenience for one-off use.
pub fn solve(pos: &Othello) -> Solution {
    Solver::default().solve(pos)
}

/// The value of every legal move, best first, for `duel solve` to list all best moves: each
/// move is solved exactly (the table is shared, so later moves are cheaper).
pub fn solve_all_moves<E: Estimate>(solver: &mut Solver<E>, pos: &Othello) -> Vec<(Move, i32)> {
    let mut list = Vec::new();
    pos.generate_moves(&mut list);
    let mut out: Vec<(Move, i32)> = list
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            (mv, -solver.solve(&child).score)
        })
        .collect();
    out.sort_by_key(|&(mv, v)| (-v, mv));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FFO #26-#34 (20 empties each), exact scores from the file.
    fn positions() -> Vec<(Othello, i32)> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../data/othello/ffo-1-39.txt"
        );
        let text = std::fs::read_to_string(path).expect("data/othello/ffo-1-39.txt");
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|f| (26..=34).contains(&f[0].parse::<u32>().unwrap_or(0)))
            .map(|f| {
                let pos = Othello::from_text(&format!("{} {}", f[1], f[2])).expect("FFO position");
                (pos, f[3].parse().expect("score"))
            })
            .collect()
    }

    /// A selective pass fills the table with bounds that may be wrong; the exact search after
    /// it, in the same table, must not use them.
    #[test]
    fn exact_search_ignores_selective_bounds() {
        let mut solver = Solver::new(18);
        let mut wrong = 0;
        for (pos, score) in positions() {
            solver.clear();
            // The loosest level, from a window where its cuts are wrong most often.
            solver.sel = 0;
            for (a, b) in [(-64, 64), (score - 3, score - 1), (score + 1, score + 3)] {
                let s = solver.solve_window(&pos, a, b).score;
                wrong += usize::from((a == -64 && s != score) || (a != -64 && s > a && s < b));
            }
            solver.sel = EXACT;
            assert_eq!(solver.solve_window(&pos, -64, 64).score, score);
            assert_eq!(solver.solve_window(&pos, score - 1, score + 1).score, score);
        }
        // The test means something only if the selective passes did leave wrong values.
        assert!(wrong > 0, "no selective pass went wrong");
    }
}
