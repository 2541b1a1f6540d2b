//! One thread's search state, and what every step needs from it: the node count and stop
//! check, the static value through a per-thread cache.

use std::sync::atomic::Ordering;
use std::time::Instant;

use duel_core::{Evaluator, Game, Score};

use super::config::{Limits, SearchConfig};
use super::learnt::Learnt;
use super::smp::Shared;
use super::tune;
use crate::report::Stats;
use crate::tt::Tt;

/// What every thread of one search reads, as the searcher hands it out: its evaluator,
/// switches and table, the stop state the threads share, the limits and the start.
pub(super) struct Context<'a, E> {
    pub(super) eval: &'a E,
    pub(super) config: &'a SearchConfig,
    pub(super) tt: &'a Tt,
    pub(super) shared: &'a Shared,
    pub(super) limits: &'a Limits,
    pub(super) start: Instant,
}

/// One thread's search.
pub(super) struct Worker<'a, G: Game, E: Evaluator<G>> {
    pub(super) pos: G,
    pub(super) eval: &'a E,
    pub(super) config: &'a SearchConfig,
    pub(super) tt: &'a Tt,
    pub(super) shared: &'a Shared,
    pub(super) limits: &'a Limits,
    pub(super) start: Instant,
    pub(super) id: usize,
    pub(super) stats: Stats,
    /// Set once the search must unwind; every result after it is discarded.
    pub(super) stopped: bool,
    /// Counts every value that depended on the depth limit (a static evaluation, a depth-bound
    /// table entry, a null-move cut). A subtree that leaves it unchanged was solved outright.
    pub(super) horizon: u64,
    /// What each ply of the current line owns, indexed by ply (see [`Ply`]).
    pub(super) stack: Vec<Ply<G>>,
    /// The line of the best root move searched to the end in the iteration under way (empty
    /// before the first): what a stop in the middle of the iteration plays.
    pub(super) root_line: Vec<G::Move>,
    /// The value of `root_line`'s move in the iteration under way: exact for that move, a
    /// lower bound on the root's, since moves after it were not searched.
    pub(super) root_value: Score,
    pub(super) learnt: Learnt,
    /// The evaluator's hints for the node being ordered (one buffer: ordering never recurses).
    pub(super) hints: Vec<i32>,
    /// The evaluator's policy scores for the same node's quiet moves.
    pub(super) policy: Vec<i32>,
    /// The depth of the iteration under way.
    pub(super) root_depth: u32,
    /// Root moves a MultiPV pass leaves out (the lines already found), and those outside a
    /// `searchmoves` restriction.
    pub(super) excluded: Vec<G::Move>,
    /// Root moves outside the `searchmoves` restriction: what `excluded` holds between passes.
    pub(super) restricted: Vec<G::Move>,
    /// Counter moves: by the index of the opponent's last move, the reply that last cut.
    pub(super) counters: Vec<Option<G::Move>>,
    pub(super) evals: EvalCache,
}

/// What one ply of the line being searched owns, as Stockfish's `Stack` entry: the node there
/// reads and writes its own entry, and reads those of the plies above it (the moves that led
/// to it, their static values). The buffers are kept from node to node, so a node allocates
/// nothing once the stack has reached its depth.
pub(super) struct Ply<G: Game> {
    /// The node's moves, in the game's order so the table can store a move as its index.
    pub(super) moves: Vec<G::Move>,
    /// Ordering key and index into `moves`, one per move still to order.
    pub(super) keys: Vec<(i64, u16)>,
    /// The best line found from this node.
    pub(super) pv: Vec<G::Move>,
    /// The two moves that last cut a node at this ply, the latest first: a move that refuted
    /// one sibling often refutes the next.
    pub(super) killers: [Option<G::Move>; 2],
    /// The move played from this node (None for a null move), so the node below knows the move
    /// that led to it.
    pub(super) played: Option<G::Move>,
    /// The piece-move index of `played` (None for a null move, or with continuation history
    /// off).
    pub(super) piece_move: Option<usize>,
    /// The move a singular-extension search of this node leaves out (the table's move).
    pub(super) skip: Option<G::Move>,
    /// A ProbCut test's shallow search of this node is under way: it runs no tests of its
    /// own (its children do).
    pub(super) in_probcut: bool,
    /// The node's static value, when it was computed (not in a forcing position), for the
    /// `improving` test of the node two plies below.
    pub(super) static_eval: Option<i32>,
}

impl<G: Game> Ply<G> {
    fn new() -> Self {
        Ply {
            moves: Vec::new(),
            keys: Vec::new(),
            pv: Vec::new(),
            killers: [None, None],
            played: None,
            piece_move: None,
            skip: None,
            in_probcut: false,
            static_eval: None,
        }
    }
}

/// Static values by position key, one cache per thread, direct-mapped. Quiescence evaluates
/// every node it enters, and the same position is often reached again by captures in another
/// order or by the next iteration; the evaluation is most of a chess node's cost. An entry
/// answers only for its own full key, so a value is the evaluator's own: results do not change.
pub(super) struct EvalCache {
    slots: Vec<(u64, i32)>,
}

impl EvalCache {
    /// 2^15 entries of 16 bytes: half a megabyte, within a core's L2 cache here.
    const SLOTS: usize = 1 << 15;

    pub(super) fn new() -> Self {
        // Slot i starts with the key !i, which maps to another slot, so no key finds it.
        EvalCache {
            slots: (0..Self::SLOTS).map(|i| (!(i as u64), 0)).collect(),
        }
    }

    #[inline]
    pub(super) fn get_or_insert(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[key as usize & (Self::SLOTS - 1)];
        if slot.0 != key {
            *slot = (key, evaluate());
        }
        slot.1
    }
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    pub(super) fn new(pos: &G, cx: &Context<'a, E>, id: usize, learnt: Learnt) -> Self {
        let mut pos = pos.clone();
        pos.begin_search();
        Worker {
            pos,
            eval: cx.eval,
            config: cx.config,
            tt: cx.tt,
            shared: cx.shared,
            limits: cx.limits,
            start: cx.start,
            id,
            stats: Stats::default(),
            stopped: false,
            horizon: 0,
            stack: Vec::new(),
            root_line: Vec::new(),
            root_value: Score::DRAW,
            learnt,
            hints: Vec::new(),
            policy: Vec::new(),
            root_depth: 0,
            excluded: Vec::new(),
            restricted: Vec::new(),
            counters: vec![None; G::MOVE_INDICES],
            evals: EvalCache::new(),
        }
    }

    /// Makes the stack hold `ply` and the ply below it, which a node writes the child's
    /// line into and reads it back from.
    pub(super) fn ensure_ply(&mut self, ply: usize) {
        while self.stack.len() <= ply + 1 {
            self.stack.push(Ply::new());
        }
    }

    /// Returns the buffers a node at `ply` took out of its entry, so the next node there reuses
    /// their memory instead of allocating.
    #[inline]
    pub(super) fn put_back(&mut self, ply: usize, moves: Vec<G::Move>, keys: Vec<(i64, u16)>) {
        let entry = &mut self.stack[ply];
        entry.moves = moves;
        entry.keys = keys;
    }

    #[inline]
    pub(super) fn check_stop(&mut self) {
        if self.id == 0 {
            if let Some(n) = self.limits.nodes {
                if self.stats.nodes >= n {
                    self.shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.stats.nodes.is_multiple_of(tune::CHECK_EVERY) {
            if self.id != 0 {
                self.shared
                    .helper_nodes
                    .fetch_add(tune::CHECK_EVERY, Ordering::Relaxed);
            } else if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    self.shared.abort.store(true, Ordering::Relaxed);
                }
            }
            if self.shared.stopping() {
                self.stopped = true;
            }
        } else if self.id == 0 && self.limits.nodes.is_some() {
            // The node limit must bite at the exact node, for determinism.
            self.stopped |= self.shared.stopping();
        }
    }

    /// The evaluator's value of the current position, through the cache.
    #[inline]
    pub(super) fn static_value(&mut self) -> i32 {
        let (eval, pos) = (self.eval, &self.pos);
        self.evals.get_or_insert(pos.hash(), || eval.evaluate(pos))
    }
}
