//! The root: [`Solver::solve`]'s stages (the selective guess, the ProbCut passes, the exact
//! pass) and the windows each searches, widened around the last value until it falls inside.

use duel_core::solve::SolveGoal;

use super::budget::{Budget, Progress, SolveBudget, Stage, Stopped};
use super::ordering::{Candidate, PROBE_INF};
use super::tune::{
    EXACT, GUESS_MIN_EMPTIES, PROBCUT_ID_MIN_EMPTIES, SELECTIVE_MIN_EMPTIES, SELECTIVE_WIDTH,
    SELECTIVITY,
};
use super::{Solution, Solver, INF};
use crate::bitboard::moves;
use crate::board::final_score;
use crate::estimate::Estimate;
use crate::{Move, Othello};

impl<E: Estimate> Solver<E> {
    /// The exact value of `pos` and a best move.
    ///
    /// From [`GUESS_MIN_EMPTIES`] empties up, a selective search first guesses the value and
    /// orders the moves; the exact search then starts with a window around the guess and
    /// widens it until the value falls inside.
    pub fn solve(&mut self, pos: &Othello) -> Solution {
        match self.solve_limited(pos, &SolveBudget::default(), &mut |_| {}) {
            Ok(s) => s,
            Err(_) => unreachable!("a solve without limits runs to its end"),
        }
    }

    /// [`Solver::solve`] within `limits`, calling `progress` at the end of every stage and
    /// window, and every two seconds or so of a long one. Stopped by a limit (looked at every
    /// [`CHECK_EVERY`](super::CHECK_EVERY) nodes), it returns the bounds the exact pass had proven; the table keeps
    /// only what finished subtrees proved, so the solver stays usable. This is how a protocol
    /// loop interrupts a solve: `SolveBudget { stop: Some(&flag), ..SolveBudget::default() }`.
    pub fn solve_limited(
        &mut self,
        pos: &Othello,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, Stopped> {
        self.solve_goal(pos, SolveGoal::Exact, limits, progress)
    }

    /// [`Solver::solve_limited`], or with [`SolveGoal::Outcome`] only who wins: the exact
    /// pass searches the window (−1, 1), so the score is exact only for a draw, and otherwise
    /// a bound of its sign with a move that keeps the win (or, in a lost position, a move
    /// with the best bound found, which means little). Win/loss/draw solving, as NTest and
    /// Edax do a few squares before the exact solve.
    pub fn solve_goal(
        &mut self,
        pos: &Othello,
        goal: SolveGoal,
        limits: &SolveBudget<'_>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Solution, Stopped> {
        self.nodes = 0;
        self.stopped = false;
        self.sel = EXACT;
        let mut budget = Budget::new(limits, progress);
        let b = &mut budget;
        let result = self.passes(pos, goal, b);
        // A pass cut short leaves its selectivity behind; the public searches are exact.
        self.sel = EXACT;
        let stopped = std::mem::take(&mut self.stopped);
        match result {
            Some(s) if !stopped => Ok(s),
            _ => Err(Stopped {
                lower: b.now.lower,
                upper: b.now.upper,
                nodes: self.nodes,
            }),
        }
    }

    /// The stages of [`Solver::solve`]; None once stopped.
    fn passes(
        &mut self,
        pos: &Othello,
        goal: SolveGoal,
        b: &mut Budget<'_, '_>,
    ) -> Option<Solution> {
        let (p, o) = (pos.player(), pos.opponent());
        let n = pos.empties().count_ones();
        if moves(p, o) == 0 || n < GUESS_MIN_EMPTIES {
            let (alpha, beta) = match goal {
                SolveGoal::Exact => (-64, 64),
                SolveGoal::Outcome => (-1, 1),
            };
            b.now.window = Some((alpha, beta));
            let s = self.window(pos, alpha, beta, b);
            if !self.stopped {
                b.prove(s.score, alpha, beta);
            }
            return (!self.stopped).then_some(s);
        }
        let mut list = [Candidate::default(); 32];
        let count = self.collect(p, o, &mut list);
        let list = &mut list[..count];
        self.score_moves(p, o, n, 64, list, PROBE_INF);
        b.now.stage = Stage::Guess;
        b.now.window = Some((-64, 64));
        for c in list.iter_mut() {
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            c.key = -self.selective(np, no, -64, 64, n - 1, b);
        }
        if self.stopped {
            return None;
        }
        list.sort_by_key(|c| -c.key);
        let mut guess = list[0].key;
        b.now.guess = Some(guess);
        b.report(None, self.nodes);
        let first = if n >= PROBCUT_ID_MIN_EMPTIES {
            0
        } else {
            EXACT
        };
        let mut best = list[0].sq;
        for sel in first..=EXACT {
            self.sel = sel;
            b.now.stage = match SELECTIVITY.get(usize::from(sel)) {
                Some(&confidence) => Stage::ProbCut { confidence },
                None => Stage::Exact,
            };
            (guess, best) = match goal {
                SolveGoal::Outcome if sel == EXACT => {
                    b.now.window = Some((-1, 1));
                    let (score, best) = self.root(p, o, -1, 1, n, list, b);
                    if self.stopped {
                        return None;
                    }
                    b.prove(score, -1, 1);
                    b.report(None, self.nodes);
                    (score, best)
                }
                _ => self.aspire(p, o, n, guess, list, b)?,
            };
        }
        Some(Solution {
            score: guess,
            best_move: Some(Move::square(best as u8)),
            nodes: self.nodes,
        })
    }

    /// The root searched in windows around `guess`, widened until the value falls inside (at
    /// the current selectivity level), each window reported; None once stopped.
    fn aspire(
        &mut self,
        p: u64,
        o: u64,
        n: u32,
        guess: i32,
        list: &mut [Candidate],
        b: &mut Budget<'_, '_>,
    ) -> Option<(i32, u32)> {
        let (mut alpha, mut beta) = ((guess - 1).max(-65), (guess + 1).min(65));
        let mut delta = 2;
        // Only the exact pass proves bounds; the others' values are guesses.
        let proves = self.sel == EXACT;
        loop {
            b.now.window = Some((alpha.max(-64), beta.min(64)));
            let (score, best) = self.root(p, o, alpha, beta, n, list, b);
            if self.stopped {
                return None;
            }
            b.now.guess = Some(score);
            let done = if score <= alpha && alpha > -64 {
                if proves {
                    b.now.upper = Some(b.now.upper.map_or(score, |u| u.min(score)));
                }
                beta = score + 1;
                alpha = (score - delta - 1).max(-65);
                false
            } else if score >= beta && beta < 64 {
                if proves {
                    b.now.lower = Some(b.now.lower.map_or(score, |l| l.max(score)));
                }
                alpha = score - 1;
                beta = (score + delta + 1).min(65);
                false
            } else {
                if proves {
                    (b.now.lower, b.now.upper) = (Some(score), Some(score));
                }
                true
            };
            b.report(None, self.nodes);
            if done {
                return Some((score, best));
            }
            delta *= 2;
        }
    }

    /// Fail-soft search in the window (`alpha`, `beta`): the exact value when it lies strictly
    /// inside, else a bound on the same side (at most `alpha`, or at least `beta`). The best
    /// move is exact only when the score is inside the window.
    pub fn solve_window(&mut self, pos: &Othello, alpha: i32, beta: i32) -> Solution {
        self.stopped = false;
        let limits = SolveBudget::default();
        let mut quiet = |_: &Progress| {};
        let mut budget = Budget::new(&limits, &mut quiet);
        self.window(pos, alpha, beta, &mut budget)
    }

    /// [`Solver::solve_window`] within a budget.
    fn window(&mut self, pos: &Othello, alpha: i32, beta: i32, b: &mut Budget<'_, '_>) -> Solution {
        self.nodes = 0;
        let (p, o) = (pos.player(), pos.opponent());
        let n = pos.empties().count_ones();
        if moves(p, o) == 0 {
            if moves(o, p) == 0 {
                return Solution {
                    score: final_score(p, o),
                    best_move: None,
                    nodes: 1,
                };
            }
            let score = -self.pvs(o, p, -beta, -alpha, n, b);
            return Solution {
                score,
                best_move: Some(Move::PASS),
                nodes: self.nodes,
            };
        }
        let mut list = [Candidate::default(); 32];
        let count = self.sorted_moves(p, o, n, &mut list);
        let (score, best) = self.root(p, o, alpha, beta, n, &mut list[..count], b);
        Solution {
            score,
            best_move: Some(Move::square(best as u8)),
            nodes: self.nodes,
        }
    }

    /// The root: principal variation search over `list` (sorted), returning the move as well.
    /// The best move is brought to the front for the next search.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        list: &mut [Candidate],
        b: &mut Budget<'_, '_>,
    ) -> (i32, u32) {
        self.nodes += 1;
        if self.splits(n, list.len(), b) {
            return self.split(p, o, alpha, beta, n, list, b);
        }
        let mut best = -INF;
        let mut best_i = 0;
        for (i, c) in list.iter().enumerate() {
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
                best_i = i;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        list[..=best_i].rotate_right(1);
        (best, list[0].sq)
    }

    /// A guess of the value for ordering and for the first window: alpha-beta in which nodes
    /// with [`SELECTIVE_MIN_EMPTIES`] or more empties try only their [`SELECTIVE_WIDTH`] best
    /// moves by the ordering keys; smaller subtrees are solved exactly (and feed the table).
    fn selective(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        b: &mut Budget<'_, '_>,
    ) -> i32 {
        if n < SELECTIVE_MIN_EMPTIES {
            return self.pvs(p, o, alpha, beta, n, b);
        }
        // Far from the end its tree is too large to finish: it must stop here too, or a stop
        // in the exact leaves below would leave it running on.
        self.nodes += 1;
        if self.nodes >= b.check_at && self.poll(b) {
            return 0;
        }
        let mut list = [Candidate::default(); 32];
        let count = self.collect(p, o, &mut list);
        if count == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.selective(o, p, -beta, -alpha, n, b);
        }
        self.score_moves(p, o, n, 64, &mut list[..count], PROBE_INF);
        list[..count].sort_by_key(|c| -c.key);
        let mut best = -INF;
        for c in list[..count.min(SELECTIVE_WIDTH)].iter() {
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            let v = -self.selective(np, no, -beta, -alpha, n - 1, b);
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
