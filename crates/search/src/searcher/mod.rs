//! The engine search: what strong engines add to alpha-beta.
//!
//! One iteration of [`Searcher::search`] runs these steps (named as in the code):
//! 1. **Iterative deepening** (`iterate`): depth 1, 2, 3, ... each iteration seeded by the last
//!    one's best move, through the transposition table and the root move order (or, with
//!    [`SearchConfig::iterative`] off, one search at the depth limit).
//! 2. **Aspiration window** (`aspirate`): from depth 4, search a narrow window around the last
//!    value and widen it on a fail; or **MTD(f)** (`mtdf`), a series of null-window searches
//!    converging on the value, when the option is set.
//! 3. **Principal variation search** (`pvs`), at every node:
//!    - 3a node count and the stop check (every 1024 nodes: stop flag and time; the node limit at
//!      every node);
//!    - 3b finished game: exact value by distance from the root (at the ply limit: the static
//!      value);
//!    - 3c mate-distance pruning: no line can beat a win already proven closer to the root;
//!    - 3d the evaluator's exact hook (an endgame solver), if it answers;
//!    - 3e the evaluator's extension (a check in chess: one ply more), then, depth exhausted:
//!      quiescence;
//!    - 3f transposition-table probe: a deep-enough bound or value ends the node;
//!    - 3g the static value, corrected by correction history, and whether it has risen since two
//!      plies up (`improving`);
//!    - 3h reverse futility: a static value far enough above beta near the horizon returns;
//!    - 3i null-move pruning (off unless the game and evaluator allow it);
//!    - 3j Multi-ProbCut (Othello): the evaluator's shallow tests cut a node whose shallow value
//!      clears beta (or alpha) by the selectivity times the test's measured error;
//!    - 3k the moves, generated; internal iterative reduction: a node without a table move is
//!      searched a ply shallower;
//!    - 3l singular extension: the table's move a ply deeper when no other move comes near it, or a
//!      multi-cut when even the others beat beta;
//!    - 3m move ordering: TT move (searched before the others are even scored), positive evaluator
//!      hints, killers, counter move, history and continuation history;
//!    - 3n the moves: futility, late-move and exchange pruning skip some; the first is searched
//!      with the full window, the others with a null window (late ones reduced when LMR is on),
//!      re-searched when they beat alpha;
//!    - 3o beta cut-off: killers, counter moves and history learn from it;
//!    - 3p correction history learns from the node's value;
//!    - 3q store the result in the table.
//!
//!    One method per group of steps, as Stockfish's search reads, in the order `pvs` calls
//!    them: `enter` (3a–3e) and `probe_table` (3f) in `pvs`, `estimate` (3g) and
//!    `prune_before_moves` (3h–3j) in `prune`, `generate` (3k), `singular` (3l),
//!    `order_first` (3m) and `search_moves` (3n–3o) in `moves`, `learn_and_store` (3p–3q)
//!    in `pvs`.
//! 4. **Quiescence** (`quiesce`): stand pat on the (corrected) static value, then follow the
//!    evaluator's noisy moves only (with exchange pruning, not those a static exchange shows
//!    hopeless).
//! 5. **Lazy SMP**: extra threads run the same iterative deepening, each skipping depths in its
//!    own pattern of blocks (`skips`), and share only the transposition table; the main thread's
//!    answer is the answer.
//!
//! Each thread's state is a `Worker`; what one ply of the line under search owns (its moves and
//! their ordering keys, its best line, killers, the move played from it, its static value) is
//! one `Ply` entry of the worker's stack, indexed by ply.
//!
//! With one thread and a depth or node limit the search is deterministic: no clocks in
//! decisions, no floats, ties broken by the game's fixed move order.
mod config;
mod history;
mod iterate;
mod learnt;
mod moves;
mod mtdf;
mod ordering;
mod prune;
mod pvs;
mod quiesce;
mod smp;
mod tune;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use duel_core::{Evaluator, Game, Score};

use crate::tt::{Bound, Tt, TtError};

/// A table entry as [`Searcher::probe`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probed<M> {
    /// The value, from the probed position's side to move.
    pub value: Score,
    /// The depth it was searched to (255: solved to the end).
    pub depth: u32,
    /// Whether it is exact, a lower or an upper bound.
    pub bound: Bound,
    /// The move stored, if any.
    pub best: Option<M>,
}
use crate::report::Report;

pub use config::{Limits, SearchConfig};
use learnt::Learnt;
use smp::Shared;
use worker::{Context, Worker};

/// The engine search for one game and evaluator. Keep one per game being played: the
/// transposition table and history carry over from move to move.
///
/// The table is made when it is first needed, not before: [`Searcher::new`] leaves it to the
/// first search, so a searcher that never searches (a session opened to show a position)
/// costs no table. A size from a user is another matter: [`Searcher::try_new`] and a new size
/// given to [`Searcher::set_config`] make the table at once, so that a size the machine cannot
/// give is refused where it is given, not at some later search. Until the table is made,
/// [`Searcher::probe`] finds nothing, [`Searcher::hashfull`] is 0 and [`Searcher::new_game`]
/// has no table to clear; a table made at the first search is as empty as a cleared one, so
/// the search is the same either way.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    eval: E,
    config: SearchConfig,
    /// None until made (see above).
    tt: Option<Arc<Tt>>,
    stop: Arc<AtomicBool>,
    learnt: Learnt,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, E: Evaluator<G>> std::fmt::Debug for Searcher<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .finish()
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher for a configuration the program chose (the table size from a user goes
    /// through [`Searcher::try_new`] or [`Searcher::set_config`]). Its table is made by its
    /// first search.
    ///
    /// # Panics
    /// In the first search, when the table cannot be allocated.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        let learnt = Learnt::new::<G>(&config);
        Searcher {
            eval,
            config,
            tt: None,
            stop: Arc::new(AtomicBool::new(false)),
            learnt,
            _game: std::marker::PhantomData,
        }
    }

    /// A searcher with its own table, made now, or why the table cannot be had.
    pub fn try_new(eval: E, config: SearchConfig) -> Result<Self, TtError> {
        let tt = Tt::try_new(table_size(&config))?;
        let mut s = Self::new(eval, config);
        s.tt = Some(Arc::new(tt));
        Ok(s)
    }

    /// The size of the transposition table in MiB, or None while it is not made (a searcher
    /// from [`Searcher::new`] that has not searched yet).
    pub fn table_mb(&self) -> Option<usize> {
        self.tt.as_ref().map(|tt| tt.size_mb())
    }

    /// What the table holds for `pos`, as UCCI's `probe` asks: the value (from `pos`'s side
    /// to move), the depth and bound it was stored with, and the move (the table names it by
    /// its index in the node's list: the generated moves, kept to the evaluator's candidates
    /// when they are on, as the search does below the root).
    pub fn probe(&self, pos: &G) -> Option<Probed<G::Move>> {
        let e = self.tt.as_ref()?.probe(pos.hash())?;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        if self.config.candidates {
            self.eval.prune_moves(pos, &mut moves);
        }
        Some(Probed {
            value: e.value.from_tt(0),
            depth: u32::from(e.depth),
            bound: e.bound,
            best: moves.get(usize::from(e.mv)).copied(),
        })
    }

    /// The current switches.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the switches; the table is reallocated (and so emptied) only if its size
    /// changes, and then at once, made or not before. A table the machine cannot give is an
    /// error, and then nothing changes: the old table and switches stay.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), TtError> {
        if config.tt_mb != self.config.tt_mb {
            // Made before the old table is dropped, so a refusal leaves the engine as it was.
            self.tt = Some(Arc::new(Tt::try_new(config.tt_mb)?));
        }
        if config.profile.continuation != self.config.profile.continuation
            || config.profile.correction != self.config.profile.correction
        {
            self.learnt = Learnt::new::<G>(&config);
        }
        self.config = config;
        Ok(())
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Setting this flag to true stops a running search (from another thread); the search
    /// clears it when it starts.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Makes `flag` this searcher's stop flag, so one flag stops several searchers (a bench
    /// run on behalf of a session stops with the session's).
    pub fn share_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Forgets everything learnt: a new game.
    pub fn new_game(&mut self) {
        if let Some(tt) = &self.tt {
            tt.clear();
        }
        self.learnt = Learnt::new::<G>(&self.config);
    }

    /// Permille of the table filled by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.as_ref().map_or(0, |tt| tt.hashfull())
    }

    /// Iterative deepening under `limits`; `on_iteration` sees each completed depth's report.
    pub fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        self.search_among(pos, limits, &[], on_iteration)
    }

    /// [`Searcher::search`] with the root restricted to the legal moves in `among` (all of them
    /// when it is empty or names none), as UCI `go searchmoves` asks.
    pub fn search_among(
        &mut self,
        pos: &G,
        limits: &Limits,
        among: &[G::Move],
        mut on_iteration: impl FnMut(&Report<G::Move>),
    ) -> Report<G::Move> {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        let size = table_size(&self.config);
        let tt = self.tt.get_or_insert_with(|| Arc::new(Tt::new(size)));
        tt.new_search();
        let shared = Shared {
            stop: Arc::clone(&self.stop),
            abort: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
        };
        let cx = Context {
            eval: &self.eval,
            config: &self.config,
            tt,
            shared: &shared,
            limits,
            start,
        };
        let threads = self.config.threads.max(1);
        let learnt = std::mem::take(&mut self.learnt);
        let restricted = restriction(pos, among);
        let mut main = Worker::new(pos, &cx, 0, learnt.clone());
        main.restricted.clone_from(&restricted);
        let report = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let mut w = Worker::new(pos, &cx, id, learnt.clone());
                    w.restricted.clone_from(&restricted);
                    s.spawn(move || {
                        w.iterate(&mut |_| {});
                        w.stats
                    })
                })
                .collect();
            let mut report = main.iterate(&mut on_iteration);
            // The main thread decides; helpers stop as soon as it has.
            shared.abort.store(true, Ordering::Relaxed);
            for h in helpers {
                // A helper that panicked has nothing to add; its work was only advice.
                if let Ok(stats) = h.join() {
                    let seldepth = report.stats.seldepth;
                    report.stats.add(&stats);
                    report.stats.seldepth = seldepth;
                }
            }
            report
        });
        self.learnt = main.learnt;
        Report {
            time: start.elapsed(),
            ..report
        }
    }
}

/// The table size, in MiB, a configuration asks for: with the table off the search neither
/// probes nor stores, and the smallest table will do.
fn table_size(config: &SearchConfig) -> usize {
    if config.use_tt {
        config.tt_mb
    } else {
        1
    }
}

/// The root moves a search restricted to `among` leaves out: none when `among` is empty or
/// holds no legal move (an empty root would have no answer).
fn restriction<G: Game>(pos: &G, among: &[G::Move]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    // The root's moves as the search sees them.
    pos.search_root().generate_moves(&mut moves);
    if !moves.iter().any(|m| among.contains(m)) {
        return Vec::new();
    }
    moves.retain(|m| !among.contains(m));
    moves
}

#[cfg(test)]
mod tests {
    use duel_core::Game;
    use duel_tictactoe::{OpenLines, TicTacToe};

    use super::*;

    /// A searcher holds no table until its first search, unless a size was given to it, which
    /// is made (or refused) at once.
    #[test]
    fn the_table_is_made_when_first_needed() {
        let pos = TicTacToe::start();
        let mut s = Searcher::new(OpenLines, SearchConfig::default());
        s.new_game();
        // Other switches than the size leave it unmade.
        s.set_config(SearchConfig {
            aspiration: false,
            ..SearchConfig::default()
        })
        .unwrap();
        assert_eq!((s.table_mb(), s.hashfull(), s.probe(&pos)), (None, 0, None));
        s.search(&pos, &Limits::depth(3), |_| {});
        assert_eq!(s.table_mb(), Some(16));
        assert!(s.probe(&pos).is_some());

        let mut s = Searcher::new(OpenLines, SearchConfig::default());
        s.set_config(SearchConfig {
            tt_mb: 2,
            ..SearchConfig::default()
        })
        .unwrap();
        assert_eq!(s.table_mb(), Some(2));
        let sized = |tt_mb| SearchConfig {
            tt_mb,
            ..SearchConfig::default()
        };
        assert_eq!(
            Searcher::try_new(OpenLines, sized(3)).unwrap().table_mb(),
            Some(3)
        );
        assert!(Searcher::try_new(OpenLines, sized(crate::tt::MAX_MB + 1)).is_err());
    }

    /// A table made by the first search is as empty as one made before it: the same search.
    #[test]
    fn a_table_made_late_searches_as_one_made_early() {
        let pos = TicTacToe::from_text("5").unwrap();
        let run = |mut s: Searcher<TicTacToe, OpenLines>| {
            let first = s.search(&pos, &Limits::depth(6), |_| {});
            let second = s.search(&pos, &Limits::depth(7), |_| {});
            [first, second].map(|r| (r.value, r.stats, r.pv))
        };
        let late = run(Searcher::new(OpenLines, SearchConfig::default()));
        let early = run(Searcher::try_new(OpenLines, SearchConfig::default()).unwrap());
        assert_eq!(late, early);
    }
}
