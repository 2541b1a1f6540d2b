//! Step 3: the node search, principal variation search. One method per group of steps, in
//! the order [`Worker::pvs`] calls them: entering the node (3a–3e) and probing the table (3f)
//! here; the static value and the pruning before the moves (3g–3j) in `prune`; the moves
//! (3k–3o) in `moves`; the node's result, learnt and stored (3p–3q), here.

use std::ops::ControlFlow::{self, Break, Continue};

use duel_core::{Evaluator, Game, Outcome, Score};

use super::tune;
use super::worker::Worker;
use crate::tt::{Bound, Entry, NO_EVAL, NO_MOVE};

/// What a group of steps returns: `Continue` with what the next steps need, or `Break` with
/// the node's value when a step has settled it.
pub(super) type Step<T = ()> = ControlFlow<Score, T>;

/// The depth stored for a subtree solved to the end of the game: usable at any depth.
const SOLVED_DEPTH: u8 = u8::MAX;

/// One node as its steps hand it on: the window it was called with and its depth, which step
/// 3e extends and step 3k reduces.
pub(super) struct Node<M> {
    pub(super) ply: usize,
    pub(super) depth: u32,
    pub(super) alpha: Score,
    pub(super) beta: Score,
    pub(super) pv_node: bool,
    /// A forcing position (step 3e: chess, a check): searched deeper, never pruned before its
    /// moves.
    pub(super) forcing: bool,
    /// The move a singular-extension search of this node leaves out (the table's move). Such
    /// a search takes no value from the table and stores none: the entry is the whole node's.
    pub(super) skip: Option<M>,
}

impl<M> Node<M> {
    /// Neither a PV node, nor the root, nor forcing: where the pruning steps may cut.
    pub(super) fn quiet(&self) -> bool {
        !self.pv_node && self.ply > 0 && !self.forcing
    }
}

/// What the table told a node it did not end (step 3f).
pub(super) struct Probe {
    pub(super) key: u64,
    /// The stored move, as its index in the node's move list (`NO_MOVE`: none).
    pub(super) mv: u16,
    /// The stored value (from this node), depth and bound, where the value holds here
    /// ([`value_holds_here`]).
    pub(super) bound: Option<(Score, u32, Bound)>,
    /// The stored static value.
    pub(super) eval: Option<i32>,
}

/// What the moves' loop found (steps 3n–3o).
pub(super) struct Best {
    pub(super) value: Score,
    /// The best move's index in the node's move list (`NO_MOVE`: no move was searched).
    pub(super) index: u16,
    /// No value below the node depended on the depth limit: the subtree was solved to the end
    /// of the game.
    pub(super) solved: bool,
}

/// The node's static value as the steps after 3g use it.
pub(super) struct Estimate {
    /// The position's correction-history slot (None: no correction).
    pub(super) slot: Option<usize>,
    /// The evaluator's static value (or the table's copy of it), where a step needs it.
    pub(super) raw: Option<i32>,
    /// `raw` corrected by correction history: the node's static value.
    pub(super) corrected: Option<i32>,
    /// The pruning steps' estimate, at a quiet node only (see step 3g).
    pub(super) pruning: Option<i32>,
    /// Whether the static value rose since two plies up (always, with the option off).
    pub(super) improving: bool,
    /// The futility margin: `SearchConfig::futility` per ply of the node's depth as step 3e
    /// left it (before the reduction of step 3k).
    pub(super) margin: i32,
}

impl<G: Game, E: Evaluator<G>> Worker<'_, G, E> {
    /// Step 3: principal variation search. Fail-soft; values from the side to move.
    pub(super) fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        alpha: Score,
        beta: Score,
        pv_node: bool,
    ) -> Score {
        let node = Node {
            ply,
            depth,
            alpha,
            beta,
            pv_node,
            forcing: false,
            skip: None,
        };
        match self.node(node) {
            Continue(v) | Break(v) => v,
        }
    }

    /// The node's steps in their order, each group of steps a method; the first step that
    /// settles the node's value ends it.
    #[inline]
    fn node(&mut self, mut node: Node<G::Move>) -> Step<Score> {
        self.enter(&mut node)?;
        let probe = self.probe_table(&node)?;
        let est = self.estimate(&node, &probe);
        self.prune_before_moves(&node, &est)?;
        // The ply's buffers, handed back however the node ends, so that the next node at this
        // ply reuses their memory instead of allocating.
        let ply = node.ply;
        let mut moves = std::mem::take(&mut self.stack[ply].moves);
        let mut keys = std::mem::take(&mut self.stack[ply].keys);
        let value = self.moves_and_result(&mut node, &probe, &est, &mut moves, &mut keys);
        self.put_back(ply, moves, keys);
        value
    }

    /// Steps 3k–3q, on the node's move buffers.
    #[inline]
    fn moves_and_result(
        &mut self,
        node: &mut Node<G::Move>,
        probe: &Probe,
        est: &Estimate,
        moves: &mut Vec<G::Move>,
        keys: &mut Vec<(i64, u16)>,
    ) -> Step<Score> {
        let tt_move = self.generate(node, probe, moves);
        let singular = self.singular(node, probe, moves, tt_move)?;
        let plan = self.order_first(node, est, moves, keys, tt_move);
        let best = self.search_moves(node, &plan, singular, moves, keys)?;
        self.learn_and_store(node, probe, est, &best, moves);
        Continue(best.value)
    }

    /// Steps 3a–3e: counts the node and looks at the limits, then settles it where no move
    /// need be searched (a finished game, a proven bound, the exact hook; at depth 0, by
    /// quiescence). Narrows the window to the mate distances, extends a forcing position.
    #[inline]
    fn enter(&mut self, node: &mut Node<G::Move>) -> Step {
        let ply = node.ply;
        // 3a. The node is counted before the limits are looked at, so that a node limit stops
        // a one-thread search at the same node on every run.
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        self.check_stop();
        if self.stopped {
            return Break(Score::DRAW);
        }
        self.ensure_ply(ply);
        self.stack[ply].pv.clear();
        node.skip = self.stack[ply].skip;
        // 3b. A finished game, or a line too long for the score's encoding, is valued here.
        if let Some(o) = self.pos.outcome() {
            return Break(terminal(o, ply));
        }
        if ply as i32 >= Score::MAX_PLY - 2 {
            self.stats.evals += 1;
            self.horizon += 1;
            return Break(Score::heuristic(self.static_value()));
        }
        // 3c. Nothing here can beat a win already proven closer to the root.
        if ply > 0 {
            node.alpha = node.alpha.max(Score::loss_in(ply as i32));
            node.beta = node.beta.min(Score::win_in(ply as i32 + 1));
            if node.alpha >= node.beta {
                return Break(node.alpha);
            }
        }
        // 3d. An exact answer (an endgame solver) makes every other step unnecessary.
        if self.config.exact_hook && ply > 0 {
            if let Some(v) = self.eval.exact(&self.pos) {
                self.stats.evals += 1;
                return Break(v.from_tt(ply as i32));
            }
        }
        // 3e. A forcing position (a check) is searched a ply deeper, within twice the
        // iteration's depth so that long forcing sequences cannot run away.
        node.forcing = ply > 0 && self.eval.extend(&self.pos);
        if node.forcing && self.config.extensions && (ply as u32) < 2 * self.root_depth {
            node.depth += 1;
        }
        if node.depth == 0 {
            return Break(self.quiesce(ply, 0, node.alpha, node.beta));
        }
        Continue(())
    }

    /// Step 3f, the transposition table: a deep-enough bound ends the node; its move and
    /// static value serve the steps below either way.
    #[inline]
    fn probe_table(&mut self, node: &Node<G::Move>) -> Step<Probe> {
        let ply = node.ply;
        let mut probe = Probe {
            key: self.pos.hash(),
            mv: NO_MOVE,
            bound: None,
            eval: None,
        };
        if !self.config.use_tt {
            return Continue(probe);
        }
        if let Some(e) = self
            .tt
            .probe(probe.key)
            .inspect(|e| {
                self.stats.tt_hits += 1;
                probe.mv = e.mv;
                probe.eval = (e.eval != NO_EVAL).then_some(i32::from(e.eval));
            })
            .filter(|e| value_holds_here(e.value, self.pos.plies_to_count_draw()))
        {
            probe.bound = Some((e.value.from_tt(ply as i32), u32::from(e.depth), e.bound));
            let solved = e.depth == SOLVED_DEPTH;
            let deep_enough = if self.config.tt_same_depth_only {
                e.depth as u32 == node.depth
            } else {
                solved || e.depth as u32 >= node.depth
            };
            let v = e.value.from_tt(ply as i32);
            if deep_enough && !node.pv_node && ply > 0 && node.skip.is_none() {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= node.beta,
                    Bound::Upper => v <= node.alpha,
                };
                if usable {
                    self.horizon += u64::from(!solved);
                    return Break(v);
                }
            }
        }
        Continue(probe)
    }

    /// Steps 3p–3q: what the node's value teaches correction history, and the table's entry.
    #[inline]
    fn learn_and_store(
        &mut self,
        node: &Node<G::Move>,
        probe: &Probe,
        est: &Estimate,
        best: &Best,
        moves: &[G::Move],
    ) {
        let bound = if best.value >= node.beta {
            Bound::Lower
        } else if best.value > node.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let multipv_pass = self.multipv_pass(node.ply);
        // 3p. Correction history learns from a value that bounds the static value's error
        // in a known direction, unless a noisy best move (a capture) explains the difference.
        if let (Some(slot), Some(raw), Some(e)) = (est.slot, est.raw, est.corrected) {
            let informative = match bound {
                Bound::Exact => true,
                Bound::Lower => best.value.0 > e,
                Bound::Upper => best.value.0 < e,
            };
            if informative
                && node.skip.is_none()
                && !multipv_pass
                && best.index != NO_MOVE
                && !best.value.is_decisive()
                && (bound == Bound::Upper
                    || self.eval.move_hint(&self.pos, moves[best.index as usize]) == 0)
            {
                self.learn_correction(slot, raw, best.value.0, node.depth);
            }
        }
        // 3q. The move is stored as its index in the game's own (unsorted) order. Not after a
        // MultiPV pass, whose value is only that of the moves left.
        if self.config.use_tt && !multipv_pass && node.skip.is_none() {
            // A subtree solved to its end holds at any depth; not in same-depth mode, where a
            // value must be exactly what a search of this depth gives.
            let solved = best.solved && !self.config.tt_same_depth_only;
            let entry = Entry {
                value: best.value.to_tt(node.ply as i32),
                eval: est
                    .raw
                    .or(probe.eval)
                    .and_then(|v| i16::try_from(v).ok())
                    .filter(|&v| v != NO_EVAL)
                    .unwrap_or(NO_EVAL),
                depth: if solved {
                    SOLVED_DEPTH
                } else {
                    node.depth.min(SOLVED_DEPTH as u32 - 1) as u8
                },
                bound,
                mv: best.index,
            };
            self.tt.store(probe.key, entry);
        }
    }

    /// Whether the node at `ply` is a MultiPV pass of the root: the root without the lines
    /// already found.
    pub(super) fn multipv_pass(&self, ply: usize) -> bool {
        ply == 0 && !self.excluded.is_empty()
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
