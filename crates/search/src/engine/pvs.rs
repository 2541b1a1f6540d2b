//! Step 3: the node search.

use duel_core::{Evaluator, Game, Outcome, Score};

use super::ordering::{bring_next, noisy_key, ORDER_GOOD_HINT, ORDER_KILLER, ORDER_TT};
use super::tune;
use super::worker::Worker;
use crate::tt::{Bound, Entry, NO_EVAL, NO_MOVE};

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

/// The depth stored for a subtree solved to the end of the game: usable at any depth.
pub(super) const SOLVED_DEPTH: u8 = u8::MAX;

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 3: principal variation search. Fail-soft; values from the side to move.
    pub(super) fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        pv_node: bool,
    ) -> Score {
        // 3a. The node is counted before the limits are looked at, so that a node limit stops
        // a one-thread search at the same node on every run.
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        self.check_stop();
        if self.stopped {
            return Score::DRAW;
        }
        self.ensure_ply(ply);
        self.stack[ply].pv.clear();
        // 3b. A finished game, or a line too long for the score's encoding, is valued here.
        if let Some(o) = self.pos.outcome() {
            return terminal(o, ply);
        }
        if ply as i32 >= Score::MAX_PLY - 2 {
            self.stats.evals += 1;
            self.horizon += 1;
            return Score::heuristic(self.static_value());
        }
        // 3c. Nothing here can beat a win already proven closer to the root.
        if ply > 0 {
            alpha = alpha.max(Score::loss_in(ply as i32));
            beta = beta.min(Score::win_in(ply as i32 + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        // 3d. An exact answer (an endgame solver) makes every other step unnecessary.
        if self.config.exact_hook && ply > 0 {
            if let Some(v) = self.eval.exact(&self.pos) {
                self.stats.evals += 1;
                return v.from_tt(ply as i32);
            }
        }
        // 3e. A forcing position (a check) is searched a ply deeper, within twice the
        // iteration's depth so that long forcing sequences cannot run away.
        let forcing = ply > 0 && self.eval.extend(&self.pos);
        let depth = if forcing && (ply as u32) < 2 * self.root_depth {
            depth + 1
        } else {
            depth
        };
        if depth == 0 {
            return self.quiesce(ply, 0, alpha, beta);
        }
        // 3f. Transposition table: a deep-enough bound ends the node; its move and static
        // value serve the steps below either way.
        let key = self.pos.hash();
        let mut tt_move = NO_MOVE;
        let mut tt_bound = None;
        let mut tt_eval = None;
        // A singular-extension search of this node (the table's move left out) takes no value
        // from the table and stores none: the entry is the whole node's.
        let skip = self.stack[ply].skip;
        if self.config.use_tt {
            if let Some(e) = self
                .tt
                .probe(key)
                .inspect(|e| {
                    self.stats.tt_hits += 1;
                    tt_move = e.mv;
                    tt_eval = (e.eval != NO_EVAL).then_some(i32::from(e.eval));
                })
                .filter(|e| value_holds_here(e.value, self.pos.plies_to_count_draw()))
            {
                tt_bound = Some((e.value.from_tt(ply as i32), u32::from(e.depth), e.bound));
                let solved = e.depth == SOLVED_DEPTH;
                let deep_enough = if self.config.tt_same_depth_only {
                    e.depth as u32 == depth
                } else {
                    solved || e.depth as u32 >= depth
                };
                let v = e.value.from_tt(ply as i32);
                if deep_enough && !pv_node && ply > 0 && skip.is_none() {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => v >= beta,
                        Bound::Upper => v <= alpha,
                    };
                    if usable {
                        self.horizon += u64::from(!solved);
                        return v;
                    }
                }
            }
        }
        // 3g. The static value, corrected by correction history, where a pruning step below may
        // use it (at PV nodes only for the `improving` test of the nodes below).
        let quiet_node = !pv_node && ply > 0 && !forcing;
        let wants_eval = self.config.futility > 0 || self.config.null_move;
        let slot = self.correction_slot();
        let raw_eval = if ply > 0
            && !forcing
            && wants_eval
            && (quiet_node || self.config.improving || slot.is_some())
        {
            // The table keeps the static value too: the same position, the same value,
            // without the evaluator's cost.
            Some(tt_eval.unwrap_or_else(|| self.static_value()))
        } else {
            None
        };
        let node_eval = raw_eval.map(|e| self.corrected(slot, e));
        self.stack[ply].static_eval = node_eval;
        // The pruning steps' estimate: the table's value where a search has shown the static
        // value too high (an upper or exact bound below it), so that a node known to be worse
        // than it looks is not cut by reverse futility or the null move, and futility judges
        // its quiet moves against the lower value. Not the other way: raising the estimate on
        // a lower bound as well gained as much in self-play but lost tactics to the pruning
        // (Win At Chess at 1 s: 274 against 281). Not in a singular-extension search, which
        // asks about the node without the move the table's value may come from.
        let static_eval = node_eval.filter(|_| quiet_node).map(|e| match tt_bound {
            Some((v, _, Bound::Upper | Bound::Exact))
                if v.0 < e && !v.is_decisive() && skip.is_none() =>
            {
                v.0
            }
            _ => e,
        });
        // Unknown two plies up (a forcing position, or the root) counts as improving: the
        // cautious side, which prunes less.
        let improving = !self.config.improving
            || match (
                node_eval,
                ply.checked_sub(2).and_then(|p| self.stack[p].static_eval),
            ) {
                (Some(now), Some(before)) => now > before,
                _ => true,
            };
        // 3h. Reverse futility: so far above beta this close to the horizon that no quiet
        // reply is expected to bring it back; one ply's margin less when improving.
        let margin = self.config.futility * depth as i32;
        let reverse_margin = if self.config.improving && improving {
            margin - self.config.futility
        } else {
            margin
        };
        if let Some(e) = static_eval.filter(|_| self.config.futility > 0) {
            if depth <= tune::REVERSE_FUTILITY_DEPTH
                && !beta.is_decisive()
                && e - reverse_margin >= beta.0
            {
                self.horizon += 1;
                return Score::heuristic(e);
            }
        }
        // 3i. Null move: if passing still fails high at reduced depth, so will a real move.
        if self.config.null_move
            && !pv_node
            && ply > 0
            && skip.is_none()
            && depth >= tune::NULL_MIN_DEPTH
            && !beta.is_decisive()
            && self.eval.null_move_ok(&self.pos)
            && static_eval.is_some_and(|e| e >= beta.0)
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
                return Score::DRAW;
            }
            if v >= beta {
                self.stats.cutoffs += 1;
                self.horizon += 1;
                return if v.is_decisive() { beta } else { v };
            }
        }
        // 3i'. Multi-ProbCut: a shallow search that clears beta (or falls below alpha) by the
        // selectivity's share of its known error predicts this node's deep result; the
        // evaluator names the tests, cheapest first. Not inside a test of the same node:
        // tests of tests would always end in a one-ply test whose cut depends on the horizon
        // however deep the search, so that no search without limits could ever finish.
        if self.config.probcut > 0
            && !pv_node
            && ply > 0
            && skip.is_none()
            && !self.stack[ply].in_probcut
            && !forcing
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
                return v;
            }
            if self.stopped {
                return Score::DRAW;
            }
        }
        // 3j. Internal iterative reduction: a node the table names no move for is ordered
        // poorly, and its value is less worth the full depth. The moves are generated first:
        // the table names a move by its index among them. The evaluator then keeps its
        // candidates (all of them by default), except at a root restricted to chosen moves.
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        let mut keys = std::mem::take(&mut self.stack[ply].keys);
        self.pos.generate_moves(&mut moves);
        if self.config.candidates && (ply > 0 || self.restricted.is_empty()) {
            self.eval.prune_moves(&self.pos, &mut moves);
        }
        let tt_first = (tt_move as usize) < moves.len();
        let depth = if self.config.iir && !tt_first && depth >= tune::IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        // 3k. Singular extension: is the table's move the only good one here?
        let mut singular = false;
        if let Some((tt_value, tt_depth, bound)) = tt_bound.filter(|_| {
            self.config.singular > 0
                && tt_first
                && ply > 0
                && skip.is_none()
                && depth >= tune::SINGULAR_MIN_DEPTH
                && (ply as u32) < 2 * self.root_depth
        }) {
            if bound != Bound::Upper
                && tt_depth + tune::SINGULAR_TT_SLACK >= depth
                && !tt_value.is_decisive()
            {
                let s_beta = Score(tt_value.0 - self.config.singular * depth as i32);
                self.stack[ply].skip = Some(moves[tt_move as usize]);
                let v = self.pvs((depth - 1) / 2, ply, Score(s_beta.0 - 1), s_beta, false);
                self.stack[ply].skip = None;
                if self.stopped {
                    self.put_back(ply, moves, keys);
                    return Score::DRAW;
                }
                if v < s_beta {
                    singular = true;
                } else if s_beta >= beta && !pv_node {
                    // Multi-cut: even without the table's move, some move beats beta.
                    self.stats.cutoffs += 1;
                    self.put_back(ply, moves, keys);
                    return s_beta;
                }
            }
        }
        // 3l. Move ordering, staged: the table's move is tried before the others are scored,
        // since it often cuts at once and then no other move needs a key.
        keys.clear();
        if tt_first {
            keys.push((ORDER_TT, tt_move));
        } else {
            self.order(&moves, &mut keys, ply, NO_MOVE);
        }
        let side = self.pos.side_to_move() as usize;
        // 3m. The moves, in order: pruned, reduced, searched.
        // Futility: quiet moves here cannot lift the static value to alpha.
        let futile = static_eval.is_some_and(|e| {
            self.config.futility > 0
                && depth <= tune::FUTILITY_DEPTH
                && !alpha.is_decisive()
                && e + margin <= alpha.0
        });
        let prune_after = if self.config.late_move_pruning
            && quiet_node
            && depth <= tune::LMP_DEPTH
            && !alpha.is_decisive()
        {
            // Half as many when not improving.
            (tune::LMP_BASE + (depth * depth) as usize) >> u32::from(!improving)
        } else {
            usize::MAX
        };
        // The table's best move is a capture: the quiet moves are less likely to matter, and
        // late ones are reduced a ply more. Asked only where a move can be reduced: the hint
        // may cost an exchange evaluation.
        let tt_noisy = tt_first
            && self.config.lmr
            && depth >= tune::LMR_MIN_DEPTH
            && self.eval.move_hint(&self.pos, moves[tt_move as usize]) > 0;

        let horizon_before = self.horizon;
        let original_alpha = alpha;
        let mut best = -Score::INF;
        let mut best_index = NO_MOVE;
        let multipv_pass = ply == 0 && !self.excluded.is_empty();
        let mut searched = 0;
        for i in 0..moves.len() {
            if i == 1 && tt_first {
                self.order(&moves, &mut keys, ply, tt_move);
            }
            bring_next(&mut keys, i);
            let mv = moves[keys[i].1 as usize];
            if (multipv_pass && self.excluded.contains(&mv)) || skip == Some(mv) {
                continue;
            }
            // Exchange pruning: (fails its own kind's margin, fails even the larger margin).
            let (see_fails, see_fails_all) = if self.config.exchange_pruning
                && ply > 0
                && searched > 0
                && depth <= tune::SEE_DEPTH
                && !best.is_loss()
            {
                self.exchange_fails(mv, keys[i].0, depth)
            } else {
                (false, false)
            };
            let piece_move = self.piece_move(mv);
            self.pos.play(mv);
            let quiet = keys[i].0 < ORDER_KILLER;
            let reducible = self.config.lmr
                && quiet
                && depth >= tune::LMR_MIN_DEPTH
                && i >= tune::LMR_FIRST_MOVE;
            // Futility and late-move pruning skip quiet moves once one move has been searched.
            let prunable = quiet && searched > 0 && (futile || searched >= prune_after);
            // A move that gives check (a forcing reply) is neither pruned nor reduced, and
            // loses only by the larger exchange margin, or never where checks are spared.
            let checks = (reducible || prunable || see_fails) && self.eval.extend(&self.pos);
            let see_fails_all = see_fails_all && !(checks && self.config.exchange_spares_checks);
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
                -self.pvs(depth - 1 + extension, ply + 1, -beta, -alpha, pv_node)
            } else {
                let r = if reducible && !checks {
                    // Less at PV nodes, whose value is the one the root reports; never past
                    // the horizon.
                    let h = self.history(side, mv);
                    let adjust = (h / tune::LMR_HISTORY_STEP).clamp(-2, 2);
                    (lmr_reduction(depth, i) as i32 - i32::from(pv_node) - adjust
                        + i32::from(!improving)
                        + i32::from(tt_noisy))
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
                if v > alpha && v < beta && pv_node && !self.stopped {
                    v = -self.pvs(depth - 1, ply + 1, -beta, -alpha, true);
                }
                v
            };
            self.pos.undo(mv);
            if self.stopped {
                self.put_back(ply, moves, keys);
                return Score::DRAW;
            }
            if v > best {
                best = v;
                best_index = keys[i].1;
                if v > alpha {
                    alpha = v;
                    // Only a PV node's line is ever read, except under MTD(f), whose null
                    // windows make every line a candidate.
                    if pv_node || self.config.mtdf {
                        let (head, tail) = self.stack.split_at_mut(ply + 1);
                        let pv = &mut head[ply].pv;
                        pv.clear();
                        pv.push(mv);
                        pv.extend_from_slice(&tail[0].pv);
                        if ply == 0 {
                            self.root_line.clone_from(pv);
                        }
                    }
                }
                // 3n. A beta cut-off: the ordering learns from it.
                if v >= beta {
                    self.stats.cutoffs += 1;
                    if keys[i].0 < ORDER_GOOD_HINT {
                        self.learn(mv, side, ply, depth, &moves, &keys[..i]);
                    }
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // 3o. Correction history learns from a value that bounds the static value's error
        // in a known direction, unless a noisy best move (a capture) explains the difference.
        if let (Some(slot), Some(raw), Some(e)) = (slot, raw_eval, node_eval) {
            let informative = match bound {
                Bound::Exact => true,
                Bound::Lower => best.0 > e,
                Bound::Upper => best.0 < e,
            };
            if informative
                && skip.is_none()
                && !multipv_pass
                && best_index != NO_MOVE
                && !best.is_decisive()
                && (bound == Bound::Upper
                    || self.eval.move_hint(&self.pos, moves[best_index as usize]) == 0)
            {
                self.learn_correction(slot, raw, best.0, depth);
            }
        }
        // 3p. The move is stored as its index in the game's own (unsorted) order. Not after a
        // MultiPV pass, whose value is only that of the moves left.
        if self.config.use_tt && !multipv_pass && skip.is_none() {
            // A subtree solved to its end holds at any depth; not in same-depth mode, where a
            // value must be exactly what a search of this depth gives.
            let solved = self.horizon == horizon_before && !self.config.tt_same_depth_only;
            let entry = Entry {
                value: best.to_tt(ply as i32),
                eval: raw_eval
                    .or(tt_eval)
                    .and_then(|v| i16::try_from(v).ok())
                    .filter(|&v| v != NO_EVAL)
                    .unwrap_or(NO_EVAL),
                depth: if solved {
                    SOLVED_DEPTH
                } else {
                    depth.min(SOLVED_DEPTH as u32 - 1) as u8
                },
                bound,
                mv: best_index,
            };
            self.tt.store(key, entry);
        }
        self.put_back(ply, moves, keys);
        best
    }

    /// Step 3i', Multi-ProbCut: the bound the node fails by (beta above, alpha below), when a
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
            let margin = i64::from(self.config.probcut) * i64::from(test.sigma) / 100;
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

    /// Step 3m, exchange pruning: whether `mv`, ordered with `key`, loses more by static
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

pub(super) fn terminal(o: Outcome, ply: usize) -> Score {
    match o {
        Outcome::Win => Score::win_in(ply as i32),
        Outcome::Loss => Score::loss_in(ply as i32),
        Outcome::Draw => Score::DRAW,
    }
}

/// Whether a table value (as stored: a win or loss counted from its node) holds at a node
/// `count_left` plies from a counting draw rule's end ([`Game::plies_to_count_draw`]). The
/// table's key leaves the count out, so the value may come from the same position under
/// another count: near the end of the count it is not taken (Stockfish's answer), nor a win or
/// loss that comes later than the count's end; the entry's move still orders the moves.
fn value_holds_here(stored: Score, count_left: Option<u32>) -> bool {
    match count_left {
        None => true,
        Some(left) => {
            left >= tune::COUNT_DRAW_MARGIN
                && stored
                    .plies_to_end()
                    .is_none_or(|plies| plies <= left as i32)
        }
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

    #[test]
    fn table_values_near_a_count_draw_are_not_taken() {
        let cp = Score::heuristic(250);
        assert!(value_holds_here(cp, None));
        assert!(value_holds_here(Score::win_in(40), None));
        assert!(value_holds_here(cp, Some(tune::COUNT_DRAW_MARGIN)));
        assert!(!value_holds_here(cp, Some(tune::COUNT_DRAW_MARGIN - 1)));
        // A win or loss holds only if it comes by the count's end.
        assert!(value_holds_here(Score::win_in(20), Some(20)));
        assert!(!value_holds_here(Score::win_in(21), Some(20)));
        assert!(!value_holds_here(Score::loss_in(21), Some(20)));
        assert!(value_holds_here(Score::loss_in(3), Some(30)));
    }
}
