//! Steps 1 and 2: iterative deepening, MultiPV lines, the aspiration window at the root.

use std::sync::atomic::Ordering;
use std::time::Duration;

use duel_core::{Evaluator, Game, Outcome, Score};

use super::smp;
use super::tune;
use super::worker::Worker;
use crate::report::{Report, Stats};

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 1: iterative deepening. Returns the last completed iteration's report.
    pub(super) fn iterate(
        &mut self,
        on_iteration: &mut dyn FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        // No iteration looks past the ply limit (step 3b), so a deeper limit means no more than
        // none: held to the same bound, a depth from a user can neither run billions of
        // iterations nor overflow the depth arithmetic of the steps below.
        let ply_limit = Score::MAX_PLY as u32 - 10;
        let max_depth = self.limits.depth.unwrap_or(ply_limit).clamp(1, ply_limit);
        let mut root_moves = Vec::new();
        self.pos.generate_moves(&mut root_moves);
        // The root's candidates, as step 3k keeps them.
        if self.config.candidates && self.restricted.is_empty() {
            self.eval.prune_moves(&self.pos, &mut root_moves);
        }
        root_moves.retain(|m| !self.restricted.contains(m));
        self.excluded.clone_from(&self.restricted);
        let mut best = Report {
            algorithm: if self.config.mtdf { "mtdf" } else { "pvs" },
            value: Score::DRAW,
            best: root_moves.first().copied(),
            pv: root_moves.first().copied().into_iter().collect(),
            depth: 0,
            stats: Stats::default(),
            time: Duration::ZERO,
            lines: Vec::new(),
            hashfull: 0,
            margin: None,
            partial: false,
        };
        if root_moves.is_empty() {
            self.stats.nodes = 1;
            best.value = match self.pos.outcome() {
                Some(Outcome::Win) => Score::win_in(0),
                Some(Outcome::Loss) => Score::loss_in(0),
                _ => Score::DRAW,
            };
            best.stats = self.stats;
            return best;
        }
        // Without iterative deepening, one search straight at the limit: cheaper when the
        // whole game fits under the limit and the shallow passes would teach the table little.
        let mut depth = if self.config.iterative { 1 } else { max_depth };
        while depth <= max_depth {
            if smp::skips(self.id, depth) {
                depth += 1;
                continue;
            }
            let horizon = self.horizon;
            self.root_depth = depth;
            self.root_line.clear();
            let value = if self.config.mtdf {
                self.mtdf(depth, best.value)
            } else {
                self.aspirate(depth, best.value)
            };
            if self.stopped {
                // A move that this iteration searched to the end and found better than every
                // move before it (the last iteration's best is searched first) is the better
                // choice. Not under MTD(f), whose null windows only bound values, nor with
                // several lines, whose order the partial passes would break.
                // Its value and the iteration's depth go with it, so the line reported is the
                // move played (the value a lower bound on the root's: Report::partial).
                if !self.root_line.is_empty() && !self.config.mtdf && self.config.multipv <= 1 {
                    best.best = self.root_line.first().copied();
                    best.pv.clone_from(&self.root_line);
                    best.value = self.root_value;
                    best.depth = depth;
                    best.partial = true;
                }
                break;
            }
            let lines = self.more_lines(depth, value, &root_moves);
            if self.stopped {
                break;
            }
            best.value = value;
            best.pv = self.stack[0].pv.clone();
            best.best = best.pv.first().copied();
            best.lines = lines;
            best.depth = depth;
            best.stats = self.stats;
            best.stats.nodes += self.shared.helper_nodes.load(Ordering::Relaxed);
            best.time = self.start.elapsed();
            if self.id == 0 {
                best.hashfull = self.tt.hashfull();
                on_iteration(&best);
            }
            // Nothing in the iteration depended on the depth limit: the whole tree was seen to
            // its end (or proven by the table and the exact hook), so deeper changes nothing.
            if self.horizon == horizon {
                break;
            }
            // A stop set while the iteration ended (by the caller's callback: a soft time
            // limit, a GUI's stop) ends the search here, not 1,024 nodes into the next.
            if self.shared.stopping() {
                self.stopped = true;
                break;
            }
            // A time limit is spent to its end, as `go movetime` asks: an iteration cut short
            // still searched the last best move first, and any move it proved better is
            // played. Deciding when a clock is better saved for later is the caller's business
            // (the UCI loop's soft limit).
            depth += 1;
        }
        best.stats = self.stats;
        best
    }

    /// Step 1 (MultiPV): after the best line, the next ones, each a full-window search of the
    /// root without the moves already chosen. Returns every line, best first, or nothing for a
    /// single-line search. The excluded moves are reset to the `searchmoves` restriction, so
    /// the table and the next iteration see the whole (allowed) root.
    pub(super) fn more_lines(
        &mut self,
        depth: u32,
        value: Score,
        root_moves: &[G::Move],
    ) -> Vec<(Score, Vec<G::Move>)> {
        let k = self.config.multipv.min(root_moves.len());
        if k <= 1 || self.id != 0 {
            return Vec::new();
        }
        let first = self.stack[0].pv.clone();
        let mut lines = vec![(value, first.clone())];
        self.excluded.extend(first.first().copied());
        while lines.len() < k {
            let v = self.pvs(depth, 0, -Score::INF, Score::INF, true);
            if self.stopped {
                break;
            }
            let line = self.stack[0].pv.clone();
            let Some(&mv) = line.first() else { break };
            lines.push((v, line));
            self.excluded.push(mv);
        }
        self.excluded.clone_from(&self.restricted);
        // The first line's table entry was overwritten by the restricted searches: put the
        // main line back in front for the next iteration's ordering.
        self.stack[0].pv = first;
        // Stable: equal values keep the order they were found in.
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        lines
    }

    /// Step 2: the root window. Aspiration from `ASPIRATION_FROM_DEPTH`, widening on failure.
    pub(super) fn aspirate(&mut self, depth: u32, last: Score) -> Score {
        if !self.config.aspiration || depth < tune::ASPIRATION_FROM_DEPTH || last.is_decisive() {
            return self.pvs(depth, 0, -Score::INF, Score::INF, true);
        }
        let mut delta = tune::ASPIRATION_WINDOW;
        let mut alpha = Score(last.0 - delta).max(-Score::INF);
        let mut beta = Score(last.0 + delta).min(Score::INF);
        loop {
            let v = self.pvs(depth, 0, alpha, beta, true);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                alpha = Score((v.0 - delta).max(-Score::INF.0));
            } else if v >= beta {
                beta = Score((v.0 + delta).min(Score::INF.0));
            } else {
                return v;
            }
            delta *= 2;
            // Once a bound reaches proven territory, open that side fully.
            if alpha.0 < -Score::MAX_HEURISTIC {
                alpha = -Score::INF;
            }
            if beta.0 > Score::MAX_HEURISTIC {
                beta = Score::INF;
            }
        }
    }
}
