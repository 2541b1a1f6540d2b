//! Step 4: quiescence.

use duel_core::{Evaluator, Game, Score};

use super::pvs::terminal;
use super::tune;
use super::worker::Worker;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 4: quiescence. The side to move may stand pat on the static value or try a noisy
    /// move (where the evaluator forbids standing pat, it must move: a forced line is
    /// followed to its end); with no noisy-move hook (or the option off) this is the static
    /// evaluation.
    pub(super) fn quiesce(
        &mut self,
        ply: usize,
        qply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.stats.evals += 1;
        self.horizon += 1;
        let slot = self.correction_slot();
        let raw = self.static_value();
        let stand_pat = Score::heuristic(self.corrected(slot, raw));
        if !self.config.quiescence || ply as i32 >= Score::MAX_PLY - 2 {
            return stand_pat;
        }
        let may_stand = self.eval.may_stand_pat(&self.pos);
        if may_stand && stand_pat >= beta {
            return stand_pat;
        }
        if qply == 0 && may_stand && self.config.exact_hook {
            if let Some(v) = self.eval.horizon_proof(&mut self.pos) {
                return v.from_tt(ply as i32);
            }
        }
        if may_stand && self.eval.noisy_limit(qply) == Some(0) {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        self.eval.noisy_moves(&self.pos, &mut moves);
        // Best hint first (for captures: the most valuable victim), stable so that equal hints
        // keep the game's order: the first capture tried is the one most likely to cut.
        if moves.len() > 1 {
            let mut hints = std::mem::take(&mut self.hints);
            self.eval.move_hints(&self.pos, &moves, &mut hints);
            // Insertion sort of the two lists together: short lists, no allocation.
            for i in 1..moves.len() {
                let mut j = i;
                while j > 0 && hints[j - 1] < hints[j] {
                    hints.swap(j - 1, j);
                    moves.swap(j - 1, j);
                    j -= 1;
                }
            }
            self.hints = hints;
        }
        let mut best = -Score::INF;
        if may_stand {
            best = stand_pat;
            alpha = alpha.max(stand_pat);
            if let Some(n) = self.eval.noisy_limit(qply) {
                moves.truncate(n);
            }
        }
        // Out of check, a capture whose exchange leaves the value far below alpha is not
        // worth a node. (In check every evasion is searched.)
        let may_prune = self.config.profile.exchange_pruning && !self.eval.extend(&self.pos);
        for &mv in &moves {
            let need = alpha.0 - stand_pat.0 - tune::SEE_QUIESCE;
            if may_prune
                && need > 0
                && !alpha.is_decisive()
                && !self.eval.exchange_at_least(&self.pos, mv, need)
            {
                continue;
            }
            self.pos.play(mv);
            self.stats.nodes += 1;
            self.stats.seldepth = self.stats.seldepth.max(ply as u32 + 1);
            self.check_stop();
            self.ensure_ply(ply + 1);
            let v = match self.pos.outcome() {
                Some(o) => -terminal(o, ply + 1),
                None if self.stopped => Score::DRAW,
                None => -self.quiesce(ply + 1, qply + 1, -beta, -alpha),
            };
            self.pos.undo(mv);
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    self.stats.cutoffs += 1;
                    break;
                }
            }
        }
        self.stack[ply].moves = moves;
        // A forced node with no answer to search (the evaluator found none), or stopped
        // before the first came back (the value is then thrown away): the static value.
        if best == -Score::INF {
            return stand_pat;
        }
        best
    }
}
