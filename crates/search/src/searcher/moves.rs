//! Steps 3k–3o: a node's moves. They are generated (with internal iterative reduction), the
//! table's move is tested for a singular extension, ordered in stages, and tried in order:
//! pruned, reduced or searched, a cut-off teaching the ordering.

use std::ops::ControlFlow::{Break, Continue};

use duel_core::{Evaluator, Game, Score};

use super::ordering::{bring_next, noisy_key, ORDER_GOOD_HINT, ORDER_KILLER, ORDER_TT};
use super::pvs::{Best, Estimate, Node, Probe, Step};
use super::tune;
use super::worker::Worker;
use crate::tt::{Bound, NO_MOVE};

/// The late-move reduction, in plies, of the move at `index` (from 0) of a node with `depth`
/// plies left: 0.75 + ln(depth)·ln(index)/2.25, the logarithmic form most strong engines use
/// (later moves and deeper nodes are reduced more, slowly).
pub(super) fn lmr_reduction(depth: u32, index: usize) -> u32 {
    static TABLE: std::sync::OnceLock<Vec<[u8; 64]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    let v = 0.75 + (d.max(1) as f64).ln() * (m as f64).ln() / 2.25;
                    *r = v as u8;
                }
                row
            })
            .collect()
    });
    u32::from(table[(depth as usize).min(63)][index.min(63)])
}

/// What step 3m sets up for the moves' loop: who moves, and where it prunes and reduces.
pub(super) struct Plan {
    /// The table's move, as its index in the node's moves, when it is one of them: it was
    /// keyed first and the other moves are keyed after it.
    tt_move: Option<u16>,
    /// The side to move, as history indexes it.
    side: usize,
    /// Futility: quiet moves here cannot lift the static value to alpha.
    futile: bool,
    /// Late-move pruning: quiet moves after this many searched are skipped.
    prune_after: usize,
    /// The table's move is noisy: late quiet moves are reduced a ply more.
    tt_noisy: bool,
    /// The static value has risen since two plies up (step 3g): late moves are reduced a
    /// ply less.
    improving: bool,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 3k: the moves, generated into `moves`, and internal iterative reduction: a node
    /// the table names no move for is ordered poorly, and its value is less worth the full
    /// depth. The moves are generated first: the table names a move by its index among them.
    /// The evaluator then keeps its candidates (all of them by default), except at a root
    /// restricted to chosen moves; an evaluator that can generates them directly. Returns the table's move when it is among them.
    #[inline]
    pub(super) fn generate(
        &mut self,
        node: &mut Node<G::Move>,
        probe: &Probe,
        moves: &mut Vec<G::Move>,
    ) -> Option<u16> {
        let prune = self.config.candidates && (node.ply > 0 || self.restricted.is_empty());
        if !(prune && self.eval.candidates(&self.pos, moves)) {
            self.pos.generate_moves(moves);
            if prune {
                self.eval.prune_moves(&self.pos, moves);
            }
        }
        let tt_move = Some(probe.mv).filter(|&m| (m as usize) < moves.len());
        if self.config.profile.iir && tt_move.is_none() && node.depth >= tune::IIR_MIN_DEPTH {
            node.depth -= 1;
        }
        tt_move
    }

    /// Step 3l, singular extension: is the table's move the only good one here? Continues
    /// with whether it is (then it is searched a ply deeper); a multi-cut, when even the
    /// other moves reach beta, ends the node.
    #[inline]
    pub(super) fn singular(
        &mut self,
        node: &Node<G::Move>,
        probe: &Probe,
        moves: &[G::Move],
        tt_move: Option<u16>,
    ) -> Step<bool> {
        let (depth, ply) = (node.depth, node.ply);
        let Some((tt_value, tt_depth, bound)) = probe.bound.filter(|_| {
            self.config.profile.singular > 0
                && tt_move.is_some()
                && ply > 0
                && node.skip.is_none()
                && depth >= tune::SINGULAR_MIN_DEPTH
                && (ply as u32) < 2 * self.root_depth
        }) else {
            return Continue(false);
        };
        if bound == Bound::Upper
            || tt_depth + tune::SINGULAR_TT_SLACK < depth
            || tt_value.is_decisive()
        {
            return Continue(false);
        }
        let s_beta = Score(tt_value.0 - self.config.profile.singular * depth as i32);
        self.stack[ply].skip = Some(moves[probe.mv as usize]);
        let v = self.pvs((depth - 1) / 2, ply, Score(s_beta.0 - 1), s_beta, false);
        self.stack[ply].skip = None;
        if self.stopped {
            return Break(Score::DRAW);
        }
        if v < s_beta {
            Continue(true)
        } else if s_beta >= node.beta && !node.pv_node {
            // Multi-cut: even without the table's move, some move beats beta.
            self.stats.cutoffs += 1;
            Break(s_beta)
        } else {
            Continue(false)
        }
    }

    /// Step 3m, move ordering, staged: the table's move is tried before the others are scored,
    /// since it often cuts at once and then no other move needs a key. Also the limits the
    /// loop of step 3n prunes and reduces by.
    #[inline]
    pub(super) fn order_first(
        &mut self,
        node: &Node<G::Move>,
        est: &Estimate,
        moves: &[G::Move],
        keys: &mut Vec<(i64, u16)>,
        tt_move: Option<u16>,
    ) -> Plan {
        let (depth, alpha) = (node.depth, node.alpha);
        keys.clear();
        match tt_move {
            Some(m) => keys.push((ORDER_TT, m)),
            None => self.order(moves, keys, node.ply, NO_MOVE),
        }
        let futile = est.pruning.is_some_and(|e| {
            self.config.profile.futility > 0
                && depth <= tune::FUTILITY_DEPTH
                && !alpha.is_decisive()
                && e + est.margin <= alpha.0
        });
        let prune_after = if self.config.profile.late_move_pruning
            && node.quiet()
            && depth <= tune::LMP_DEPTH
            && !alpha.is_decisive()
        {
            // Half as many when not improving.
            (tune::LMP_BASE + (depth * depth) as usize) >> u32::from(!est.improving)
        } else {
            usize::MAX
        };
        // The table's best move is a capture: the quiet moves are less likely to matter, and
        // late ones are reduced a ply more. Asked only where a move can be reduced: the hint
        // may cost an exchange evaluation.
        let tt_noisy = tt_move.is_some_and(|m| {
            self.config.profile.lmr
                && depth >= tune::LMR_MIN_DEPTH
                && self.eval.move_hint(&self.pos, moves[m as usize]) > 0
        });
        Plan {
            tt_move,
            side: self.pos.side_to_move() as usize,
            futile,
            prune_after,
            tt_noisy,
            improving: est.improving,
        }
    }

    /// Steps 3n–3o: the moves in order, each pruned, reduced or searched; a cut-off ends the
    /// loop and teaches the ordering. Ends the node with a draw when the search stops.
    #[inline]
    pub(super) fn search_moves(
        &mut self,
        node: &Node<G::Move>,
        plan: &Plan,
        singular: bool,
        moves: &[G::Move],
        keys: &mut Vec<(i64, u16)>,
    ) -> Step<Best> {
        let (depth, ply) = (node.depth, node.ply);
        let horizon_before = self.horizon;
        let mut alpha = node.alpha;
        let mut best = -Score::INF;
        let mut best_index = NO_MOVE;
        let multipv_pass = self.multipv_pass(ply);
        let mut searched = 0;
        for i in 0..moves.len() {
            if let (1, Some(m)) = (i, plan.tt_move) {
                self.order(moves, keys, ply, m);
            }
            bring_next(keys, i);
            let (key, index) = keys[i];
            let mv = moves[index as usize];
            if (multipv_pass && self.excluded.contains(&mv)) || node.skip == Some(mv) {
                continue;
            }
            // 3n. Exchange pruning: (fails its own kind's margin, fails even the larger one).
            let (see_fails, see_fails_all) = if self.config.profile.exchange_pruning
                && ply > 0
                && searched > 0
                && depth <= tune::SEE_DEPTH
                && !best.is_loss()
            {
                self.exchange_fails(mv, key, depth)
            } else {
                (false, false)
            };
            let quiet = key < ORDER_KILLER;
            let reducible = self.config.profile.lmr
                && quiet
                && depth >= tune::LMR_MIN_DEPTH
                && i >= tune::LMR_FIRST_MOVE;
            // Futility and late-move pruning skip quiet moves once one move has been searched.
            let prunable = quiet && searched > 0 && (plan.futile || searched >= plan.prune_after);
            // Pruned without being played where the evaluator tells that it does not check.
            if prunable && self.eval.forcing(&self.pos, mv) == Some(false) {
                self.horizon += 1;
                continue;
            }
            let piece_move = self.piece_move(mv);
            self.pos.play(mv);
            // A move that gives check (a forcing reply) is neither pruned nor reduced, and
            // loses only by the larger exchange margin, or never where checks are spared.
            let checks = (reducible || prunable || see_fails) && self.eval.extend(&self.pos);
            let see_fails_all =
                see_fails_all && !(checks && self.config.profile.exchange_spares_checks);
            if ((prunable || see_fails) && !checks) || see_fails_all {
                self.pos.undo(mv);
                self.horizon += 1;
                continue;
            }
            searched += 1;
            self.stack[ply].played = Some(mv);
            self.stack[ply].piece_move = piece_move;
            let v = if searched == 1 {
                let extension = u32::from(singular && i == 0);
                -self.pvs(
                    depth - 1 + extension,
                    ply + 1,
                    -node.beta,
                    -alpha,
                    node.pv_node,
                )
            } else {
                self.search_later(node, plan, alpha, (i, mv), reducible && !checks)
            };
            self.pos.undo(mv);
            if self.stopped {
                return Break(Score::DRAW);
            }
            if v > best {
                best = v;
                best_index = index;
                if v > alpha {
                    alpha = v;
                    // Only a PV node's line is ever read, except under MTD(f), whose null
                    // windows make every line a candidate.
                    if node.pv_node || self.config.mtdf {
                        self.extend_pv(ply, mv);
                        if ply == 0 {
                            self.root_value = v;
                        }
                    }
                }
                // 3o. A beta cut-off: the ordering learns from it.
                if v >= node.beta {
                    self.stats.cutoffs += 1;
                    if key < ORDER_GOOD_HINT {
                        self.learn(mv, plan.side, ply, depth, moves, &keys[..i]);
                    }
                    break;
                }
            }
        }
        Continue(Best {
            value: best,
            index: best_index,
            solved: self.horizon == horizon_before,
        })
    }

    /// Step 3n, a move after the first searched, `mv` at `index` in the order: a null window
    /// at a depth reduced by LMR where `reduce`, searched again at the full depth when it
    /// beats alpha, and with the full window at a PV node when it lands inside it.
    #[inline]
    fn search_later(
        &mut self,
        node: &Node<G::Move>,
        plan: &Plan,
        alpha: Score,
        (index, mv): (usize, G::Move),
        reduce: bool,
    ) -> Score {
        let (depth, ply) = (node.depth, node.ply);
        let r = if reduce {
            // Less at PV nodes, whose value is the one the root reports; never past the
            // horizon.
            let h = self.history(plan.side, mv);
            let adjust = (h / tune::LMR_HISTORY_STEP).clamp(-2, 2);
            (lmr_reduction(depth, index) as i32 - i32::from(node.pv_node) - adjust
                + i32::from(!plan.improving)
                + i32::from(plan.tt_noisy))
            .clamp(0, depth as i32 - 2) as u32
        } else {
            0
        };
        let null_beta = Score(-alpha.0);
        let null_alpha = Score(-alpha.0 - 1);
        let mut v = -self.pvs(depth - 1 - r, ply + 1, null_alpha, null_beta, false);
        if v > alpha && r > 0 && !self.stopped {
            v = -self.pvs(depth - 1, ply + 1, null_alpha, null_beta, false);
        }
        if v > alpha && v < node.beta && node.pv_node && !self.stopped {
            v = -self.pvs(depth - 1, ply + 1, -node.beta, -alpha, true);
        }
        v
    }

    /// The line of the node at `ply`: `mv`, then the child's line.
    #[inline]
    fn extend_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(mv);
        pv.extend_from_slice(&tail[0].pv);
        if ply == 0 {
            self.root_line.clone_from(pv);
        }
    }

    /// Step 3n, exchange pruning: whether `mv`, ordered with `key`, loses more by static
    /// exchange than its kind may at `depth` (a capture or promotion, which the evaluator's
    /// hint sets apart, `SEE_NOISY`·depth²; a quiet move `SEE_QUIET`·depth), and whether it
    /// loses more than the larger of the two margins, which holds even for a check.
    pub(super) fn exchange_fails(&self, mv: G::Move, key: i64, depth: u32) -> (bool, bool) {
        let d = depth as i32;
        let noisy = noisy_key(key);
        let (noisy_margin, quiet_margin) = (tune::SEE_NOISY * d * d, tune::SEE_QUIET * d);
        let own = if noisy { noisy_margin } else { quiet_margin };
        if self.eval.exchange_at_least(&self.pos, mv, -own) {
            return (false, false);
        }
        let larger = noisy_margin.max(quiet_margin);
        let fails_all = larger == own || !self.eval.exchange_at_least(&self.pos, mv, -larger);
        (true, fails_all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_index() {
        for d in 1..63 {
            for m in 1..63 {
                assert!(lmr_reduction(d + 1, m) >= lmr_reduction(d, m));
                assert!(lmr_reduction(d, m + 1) >= lmr_reduction(d, m));
            }
        }
        // 0.75 + ln 3 · ln 3 / 2.25 = 1.29: the first reduced move at the shallowest reduced
        // depth loses one ply; 0.75 + ln 20 · ln 30 / 2.25 = 5.28.
        assert_eq!(lmr_reduction(3, 3), 1);
        assert_eq!(lmr_reduction(20, 30), 5);
    }
}
