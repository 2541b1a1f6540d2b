//! One thread's search state, and what every step needs from it: the node count and stop
//! check, the static value through a per-thread cache.

use std::sync::atomic::Ordering;
use std::time::Instant;

use duel_core::{Evaluator, Game};

use super::history::Learnt;
use super::smp::Shared;
use super::{tune, SearchConfig, Searcher};
use crate::tt::Tt;
use crate::{Limits, Stats};

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
    pub(super) moves: Vec<Vec<G::Move>>,
    /// Per ply: ordering key and index into the move list, which itself stays in the game's
    /// order so the table can store a move as its index.
    pub(super) keys: Vec<Vec<(i64, u16)>>,
    pub(super) pv: Vec<Vec<G::Move>>,
    /// The line of the best root move searched to the end in the iteration under way (empty
    /// before the first): what a stop in the middle of the iteration plays.
    pub(super) root_line: Vec<G::Move>,
    pub(super) killers: Vec<[Option<G::Move>; 2]>,
    pub(super) learnt: Learnt,
    /// The evaluator's hints for the node being ordered (one buffer: ordering never recurses).
    pub(super) hints: Vec<i32>,
    /// The depth of the iteration under way.
    pub(super) root_depth: u32,
    /// Root moves a MultiPV pass leaves out (the lines already found), and those outside a
    /// `searchmoves` restriction.
    pub(super) excluded: Vec<G::Move>,
    /// Root moves outside the `searchmoves` restriction: what `excluded` holds between passes.
    pub(super) restricted: Vec<G::Move>,
    /// Per ply: the move played from it (None for a null move), so a node knows the move that
    /// led to it.
    pub(super) path: Vec<Option<G::Move>>,
    /// Per ply: the move a singular-extension search leaves out (the table's move), else None.
    pub(super) skip: Vec<Option<G::Move>>,
    /// Per ply: the static value of the node there, when it was computed (not in a forcing
    /// position), for the `improving` test of the node two plies below.
    pub(super) static_evals: Vec<Option<i32>>,
    /// Per ply: the piece-move index of the move played from it (None for a null move, or
    /// with continuation history off).
    pub(super) piece_path: Vec<Option<usize>>,
    /// Counter moves: by the index of the opponent's last move, the reply that last cut.
    pub(super) counters: Vec<Option<G::Move>>,
    pub(super) evals: EvalCache,
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
    pub(super) fn new(
        pos: &G,
        s: &'a Searcher<G, E>,
        shared: &'a Shared,
        limits: &'a Limits,
        start: Instant,
        id: usize,
        learnt: Learnt,
    ) -> Self {
        let mut pos = pos.clone();
        pos.begin_search();
        Worker {
            pos,
            eval: &s.eval,
            config: &s.config,
            tt: &s.tt,
            shared,
            limits,
            start,
            id,
            stats: Stats::default(),
            stopped: false,
            horizon: 0,
            moves: Vec::new(),
            keys: Vec::new(),
            pv: Vec::new(),
            root_line: Vec::new(),
            killers: Vec::new(),
            learnt,
            hints: Vec::new(),
            root_depth: 0,
            excluded: Vec::new(),
            restricted: Vec::new(),
            path: Vec::new(),
            skip: Vec::new(),
            static_evals: Vec::new(),
            piece_path: Vec::new(),
            counters: vec![None; G::MOVE_INDICES],
            evals: EvalCache::new(),
        }
    }

    pub(super) fn ensure_ply(&mut self, ply: usize) {
        while self.moves.len() <= ply + 1 {
            self.moves.push(Vec::new());
            self.keys.push(Vec::new());
            self.pv.push(Vec::new());
            self.killers.push([None, None]);
            self.path.push(None);
            self.skip.push(None);
            self.static_evals.push(None);
            self.piece_path.push(None);
        }
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
