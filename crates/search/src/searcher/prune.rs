//! Steps 3g–3j: the node's static value, and the pruning before its moves (reverse futility,
//! null move, Multi-ProbCut).

use std::ops::ControlFlow::{Break, Continue};

use duel_core::{Evaluator, Game, Score};

use super::pvs::{Estimate, Node, Probe, Step};
use super::tune;
use super::worker::Worker;
use crate::tt::Bound;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 3g: the static value, corrected by correction history, where a pruning step below
    /// may use it (at PV nodes only for the `improving` test of the nodes below).
    #[inline]
    pub(super) fn estimate(&mut self, node: &Node<G::Move>, probe: &Probe) -> Estimate {
        let ply = node.ply;
        let quiet_node = node.quiet();
        let wants_eval = self.config.profile.futility > 0 || self.config.profile.null_move;
        let slot = self.correction_slot();
        let raw = if ply > 0
            && !node.forcing
            && wants_eval
            && (quiet_node || self.config.improving || slot.is_some())
        {
            // The table keeps the static value too: the same position, the same value,
            // without the evaluator's cost.
            Some(probe.eval.unwrap_or_else(|| self.static_value()))
        } else {
            None
        };
        let corrected = raw.map(|e| self.corrected(slot, e));
        self.stack[ply].static_eval = corrected;
        // The pruning steps' estimate: the table's value where a search has shown the static
        // value too high (an upper or exact bound below it), so that a node known to be worse
        // than it looks is not cut by reverse futility or the null move, and futility judges
        // its quiet moves against the lower value. Not the other way: raising the estimate on
        // a lower bound as well gained as much in self-play but lost tactics to the pruning
        // (Win At Chess at 1 s: 274 against 281). Not in a singular-extension search, which
        // asks about the node without the move the table's value may come from.
        let pruning = corrected.filter(|_| quiet_node).map(|e| match probe.bound {
            Some((v, _, Bound::Upper | Bound::Exact))
                if v.0 < e && !v.is_decisive() && node.skip.is_none() =>
            {
                v.0
            }
            _ => e,
        });
        // Unknown two plies up (a forcing position, or the root) counts as improving: the
        // cautious side, which prunes less.
        let improving = !self.config.improving
            || match (
                corrected,
                ply.checked_sub(2).and_then(|p| self.stack[p].static_eval),
            ) {
                (Some(now), Some(before)) => now > before,
                _ => true,
            };
        Estimate {
            slot,
            raw,
            corrected,
            pruning,
            improving,
            margin: self.config.profile.futility * node.depth as i32,
        }
    }

    /// Steps 3h–3j: the cuts a node may take before it looks at its moves.
    #[inline]
    pub(super) fn prune_before_moves(&mut self, node: &Node<G::Move>, est: &Estimate) -> Step {
        let (depth, ply, alpha, beta) = (node.depth, node.ply, node.alpha, node.beta);
        // 3h. Reverse futility: so far above beta this close to the horizon that no quiet
        // reply is expected to bring it back; one ply's margin less when improving.
        let reverse_margin = if self.config.improving && est.improving {
            est.margin - self.config.profile.futility
        } else {
            est.margin
        };
        if let Some(e) = est.pruning.filter(|_| self.config.profile.futility > 0) {
            if depth <= tune::REVERSE_FUTILITY_DEPTH
                && !beta.is_decisive()
                && e - reverse_margin >= beta.0
            {
                self.horizon += 1;
                return Break(Score::heuristic(e));
            }
        }
        // 3i. Null move: if passing still fails high at reduced depth, so will a real move.
        if self.config.profile.null_move
            && !node.pv_node
            && ply > 0
            && node.skip.is_none()
            && depth >= tune::NULL_MIN_DEPTH
            && !beta.is_decisive()
            && self.eval.null_move_ok(&self.pos)
            && est.pruning.is_some_and(|e| e >= beta.0)
            && self.pos.play_null()
        {
            self.stack[ply].played = None;
            self.stack[ply].piece_move = None;
            let r = 2 + depth / 4;
            let v = -self.pvs(
                depth.saturating_sub(1 + r),
                ply + 1,
                -beta,
                Score(-beta.0 + 1),
                false,
            );
            self.pos.undo_null();
            if self.stopped {
                return Break(Score::DRAW);
            }
            if v >= beta {
                self.stats.cutoffs += 1;
                self.horizon += 1;
                return Break(if v.is_decisive() { beta } else { v });
            }
        }
        // 3j. Multi-ProbCut: a shallow search that clears beta (or falls below alpha) by the
        // selectivity's share of its known error predicts this node's deep result; the
        // evaluator names the tests, cheapest first. Not inside a test of the same node:
        // tests of tests would always end in a one-ply test whose cut depends on the horizon
        // however deep the search, so that no search without limits could ever finish.
        if self.config.profile.probcut > 0
            && !node.pv_node
            && ply > 0
            && node.skip.is_none()
            && !self.stack[ply].in_probcut
            && !node.forcing
            && !alpha.is_decisive()
            && !beta.is_decisive()
        {
            // No horizon of its own: the shallow search counted its own, so that a cut by a
            // shallow search that reached the end of the game everywhere stays a proof.
            self.stack[ply].in_probcut = true;
            let cut = self.probcut(depth, ply, alpha, beta);
            self.stack[ply].in_probcut = false;
            if let Some(v) = cut {
                self.stats.cutoffs += 1;
                return Break(v);
            }
            if self.stopped {
                return Break(Score::DRAW);
            }
        }
        Continue(())
    }

    /// Step 3j, Multi-ProbCut: the bound the node fails by (beta above, alpha below), when a
    /// test's shallow search predicts it.
    fn probcut(&mut self, depth: u32, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
        // A test that does not cut leaves no trace in the node's value, so neither do the
        // horizons its shallow search met: otherwise no node with a test would ever count
        // as solved, and a search without limits would deepen forever.
        let horizon = self.horizon;
        let mut check = 0;
        while let Some(test) = self.eval.probcut(&self.pos, depth, check) {
            check += 1;
            if test.depth >= depth {
                break;
            }
            let margin = i64::from(self.config.profile.probcut) * i64::from(test.sigma) / 100;
            // As wide as the values' range: no shallow value could clear it.
            let Ok(margin @ 0..Score::MAX_HEURISTIC) = i32::try_from(margin) else {
                continue;
            };
            let high = beta.0.saturating_add(margin);
            if high < Score::MAX_HEURISTIC {
                let v = self.pvs(test.depth, ply, Score(high - 1), Score(high), false);
                if self.stopped {
                    return None;
                }
                if v.0 >= high {
                    return Some(beta);
                }
            }
            let low = alpha.0.saturating_sub(margin);
            if low > -Score::MAX_HEURISTIC {
                let v = self.pvs(test.depth, ply, Score(low), Score(low + 1), false);
                if self.stopped {
                    return None;
                }
                if v.0 <= low {
                    return Some(alpha);
                }
            }
        }
        self.horizon = horizon;
        None
    }
}
