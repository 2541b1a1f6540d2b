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
//!    a. node count and the stop check (every 1024 nodes: stop flag, time, node limit);
//!    b. finished game: exact value by distance from the root;
//!    c. mate-distance pruning: no line can beat a win already proven closer to the root;
//!    d. the evaluator's exact hook (an endgame solver), if it answers;
//!    e. the evaluator's extension (a check in chess: one ply more), then, depth exhausted:
//!    quiescence;
//!    f. transposition-table probe: a deep-enough bound or value ends the node;
//!    g. null-move pruning (off unless the game and evaluator allow it);
//!    h. move ordering: TT move (searched before the others are even scored), positive
//!    evaluator hints, killers, history;
//!    i. the first move with the full window, the others with a null window (late ones reduced
//!    when LMR is on), re-searched when they beat alpha;
//!    j. beta cut-off: killers and history learn from it;
//!    k. store the result in the table.
//! 4. **Quiescence** (`quiesce`): stand pat on the static value, then follow the evaluator's
//!    noisy moves only.
//! 5. **Lazy SMP**: extra threads run the same iterative deepening, each skipping depths in its
//!    own pattern of blocks (`skips`), and share only the transposition table; the main thread's
//!    answer is the answer.
//!
//! With one thread and a depth or node limit the search is deterministic: no clocks in
//! decisions, no floats, ties broken by the game's fixed move order.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use duel_core::{Evaluator, Game, Outcome, Score, SearchProfile};

use crate::tt::{Bound, Entry, Tt, TtError, NO_EVAL, NO_MOVE};
use crate::{Report, Stats};

/// When to stop. All `None`: until stopped from outside, or until the value is proven.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete iterations up to this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked at every node: exact for one thread).
    pub nodes: Option<u64>,
    /// Stop after this much wall time.
    pub time: Option<Duration>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Self {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Self {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn time(t: Duration) -> Self {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }
}

/// The search's switches. The defaults are what plays best on the games so far; the options
/// that change values (null move, LMR, quiescence, the exact hook, deeper TT cut-offs) can be
/// turned off to make the search agree exactly with the reference algorithms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchConfig {
    /// Transposition table size in MiB.
    pub tt_mb: usize,
    /// Search threads (Lazy SMP above one).
    pub threads: usize,
    /// Use the transposition table at all (ordering and cut-offs).
    pub use_tt: bool,
    /// Aspiration windows around the last iteration's value.
    pub aspiration: bool,
    /// MTD(f) instead of PVS windows at the root.
    pub mtdf: bool,
    /// Quiescence search through the evaluator's noisy moves at the horizon.
    pub quiescence: bool,
    /// Null-move pruning, where the game and the evaluator allow it.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Ask the evaluator's exact hook (endgame solver) at each node.
    pub exact_hook: bool,
    /// Take TT cut-offs only from entries searched to exactly the remaining depth, so values
    /// equal a plain fixed-depth search (deeper entries would make them better, not equal).
    pub tt_same_depth_only: bool,
    /// Principal variations per iteration: 1 is a normal search; k > 1 searches the root k
    /// times, each excluding the moves already chosen, and reports every line
    /// ([`Report::lines`]), as analysis GUIs ask with UCI `MultiPV`.
    pub multipv: usize,
    /// Iterative deepening (depth 1, 2, ...). Off: one search at the depth limit (or to the
    /// end of the game with no limit), as the texts' fixed-depth search does; only sensible
    /// with a depth limit the game can afford, or a game short enough to search to its end.
    pub iterative: bool,
    /// Futility margin per ply of remaining depth, in evaluation units; 0 turns futility off.
    /// Near the horizon, away from the principal variation and not in a forcing position, a
    /// node whose static value beats beta by the margin returns at once (reverse futility),
    /// and one whose static value plus the margin cannot reach alpha skips its quiet moves
    /// (futility). Only for games whose evaluation is a good guess of a shallow search.
    pub futility: i32,
    /// Internal iterative reduction: a node with no move from the table is searched a ply
    /// shallower, since without that move its ordering is poor and its result less reliable.
    pub iir: bool,
    /// Late-move pruning: near the horizon, away from the principal variation and not in a
    /// forcing position, quiet moves after the first few (more the deeper) are not searched at
    /// all, unless they make a forcing position (chess: give check); with good ordering they
    /// almost never cut.
    pub late_move_pruning: bool,
    /// Singular extensions, margin per ply of depth in evaluation units; 0 turns them off.
    /// When the table's move is proven good (a lower bound from a search nearly as deep) and a
    /// search of every other move at half the depth stays below that value minus the margin,
    /// the table's move is the only good one and is searched a ply deeper; when even the
    /// others reach beta, the node cuts at once (multi-cut).
    pub singular: i32,
    /// Prune and reduce more where the side to move's static value has fallen since its last
    /// move (two plies up), less where it has risen: a position getting better for the side
    /// to move is more likely to fail high, one getting worse more likely to fail low. Acts
    /// through reverse futility, late-move pruning and late-move reductions, where those are on.
    pub improving: bool,
    /// Continuation history: quiet moves are also ordered by how they fared after the same
    /// move one and two plies before (by [`Game::piece_move_index`]), which knows that a
    /// reply is good after *this* move where plain history only knows it is good somewhere.
    pub continuation: bool,
    /// Exchange pruning: near the horizon, once one move has been searched, moves that lose
    /// material by static exchange ([`Evaluator::exchange_at_least`]) beyond a margin that
    /// grows with the depth are skipped (a move that gives check gets the larger margin of
    /// the two kinds), and quiescence skips the captures whose exchange cannot bring the
    /// value within a margin of alpha. The margins are in the evaluator's units, set for a
    /// pawn of about 100 (chess).
    pub exchange_pruning: bool,
    /// Correction history: the static value is corrected by how far, on average, searches
    /// of positions with the same [`Game::structure_key`] found it to be off, learnt where a
    /// search's value bounds the error in a known direction. Acts wherever the static value
    /// does (pruning, quiescence's stand-pat).
    pub correction: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            tt_mb: 16,
            threads: 1,
            use_tt: true,
            aspiration: true,
            mtdf: false,
            quiescence: true,
            null_move: false,
            lmr: false,
            exact_hook: true,
            tt_same_depth_only: false,
            iterative: true,
            multipv: 1,
            futility: 0,
            iir: false,
            late_move_pruning: false,
            singular: 0,
            improving: false,
            continuation: false,
            correction: false,
            exchange_pruning: false,
        }
    }
}

impl SearchConfig {
    /// The defaults with a game's selective techniques turned on ([`SearchProfile`]).
    pub fn with_profile(profile: &SearchProfile) -> Self {
        let p = *profile;
        SearchConfig {
            null_move: p.null_move,
            lmr: p.lmr,
            futility: p.futility,
            iir: p.iir,
            late_move_pruning: p.late_move_pruning,
            singular: p.singular,
            continuation: p.continuation,
            correction: p.correction,
            exchange_pruning: p.exchange_pruning,
            ..SearchConfig::default()
        }
    }
}

/// Tuning constants, in one place.
mod tune {
    /// Nodes between two looks at the clock and the stop flag.
    pub const CHECK_EVERY: u64 = 1024;
    /// Aspiration: first half-width, in evaluation units, and the depth it starts at.
    pub const ASPIRATION_WINDOW: i32 = 25;
    pub const ASPIRATION_FROM_DEPTH: u32 = 4;
    /// Null move: reduction R = 2 + depth / 4 (Heinz's adaptive null move, simplified).
    pub const NULL_MIN_DEPTH: u32 = 3;
    /// Singular extensions: from this depth, with a table entry at most this many plies
    /// shallower; the other moves are searched at half the depth.
    pub const SINGULAR_MIN_DEPTH: u32 = 8;
    pub const SINGULAR_TT_SLACK: u32 = 3;
    /// LMR: moves from this index on (0-based) are reduced, by `lmr_reduction` plies.
    pub const LMR_FIRST_MOVE: usize = 3;
    pub const LMR_MIN_DEPTH: u32 = 3;
    /// Futility: reverse futility up to this remaining depth, move futility up to this one.
    pub const REVERSE_FUTILITY_DEPTH: u32 = 6;
    pub const FUTILITY_DEPTH: u32 = 3;
    /// Late-move pruning up to this remaining depth, after `LMP_BASE + depth²` moves.
    pub const LMP_DEPTH: u32 = 3;
    pub const LMP_BASE: usize = 3;
    /// Internal iterative reduction from this remaining depth.
    pub const IIR_MIN_DEPTH: u32 = 4;
    /// Exchange pruning up to this remaining depth; a quiet move may lose `SEE_QUIET` per ply
    /// of depth, a capture `SEE_NOISY` per ply squared (a pawn at depth 2, a minor piece at
    /// depth 4, a rook at depth 5), a move that gives check the larger of the two. Quiescence
    /// skips a capture whose exchange leaves the value more than `SEE_QUIESCE` below alpha.
    pub const SEE_DEPTH: u32 = 8;
    pub const SEE_QUIET: i32 = 64;
    pub const SEE_NOISY: i32 = 20;
    pub const SEE_QUIESCE: i32 = 110;
    /// History values stay within ±HISTORY_MAX: each update moves a value towards the bound
    /// by a share that shrinks as it nears it, so recent experience keeps its weight.
    pub const HISTORY_MAX: i32 = 1 << 14;
    /// The largest single history update.
    pub const HISTORY_BONUS_MAX: i32 = 1600;
    // The history tables hold i16s: every value (and every value an update passes through
    // on its way to the bound) must fit.
    const _: () = assert!(HISTORY_MAX + HISTORY_BONUS_MAX <= i16::MAX as i32);
    /// LMR: one ply less per this much history (more for a negative one), at most 2 either way.
    pub const LMR_HISTORY_STEP: i32 = 6000;
    /// Correction history: slots per side (a power of two), the fixed-point scale (units
    /// per evaluation unit), and the largest correction, in evaluation units.
    pub const CORRECTION_SLOTS: usize = 1 << 14;
    pub const CORRECTION_GRAIN: i32 = 256;
    pub const CORRECTION_MAX: i32 = 96;
}

/// What the search learns about moves and, with correction history, about its static values;
/// kept from one search to the next and copied to each thread.
#[derive(Clone, Default)]
struct Learnt {
    /// Butterfly history: by side and move index.
    history: Vec<i16>,
    /// Continuation history when it is on (else empty): two tables of P² values, P being
    /// [`Game::PIECE_MOVE_INDICES`], by the piece-move index of the move one ply (the first
    /// table) or two plies (the second) before, then that of the move.
    continuation: Vec<i16>,
    /// Correction history when it is on (else empty): by side and structure key, the
    /// correction of the static value in 1/`CORRECTION_GRAIN` evaluation units.
    correction: Vec<i32>,
}

impl Learnt {
    fn new<G: Game>(config: &SearchConfig) -> Self {
        let p = G::PIECE_MOVE_INDICES;
        Learnt {
            history: vec![0; 2 * G::MOVE_INDICES],
            continuation: vec![0; if config.continuation { 2 * p * p } else { 0 }],
            correction: vec![
                0;
                if config.correction {
                    2 * tune::CORRECTION_SLOTS
                } else {
                    0
                }
            ],
        }
    }
}

/// Search state shared by all threads of one search.
struct Shared {
    /// The caller's stop flag: only read here, so a search never leaves it set.
    stop: Arc<AtomicBool>,
    /// Set by the search itself: a limit was reached, or the main thread finished and the
    /// helpers must end.
    abort: AtomicBool,
    /// Nodes of the helper threads, added in batches.
    helper_nodes: AtomicU64,
}

impl Shared {
    fn stopping(&self) -> bool {
        self.abort.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
}

/// The engine search for one game and evaluator. Keep one per game being played: the
/// transposition table and history carry over from move to move.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    eval: E,
    config: SearchConfig,
    tt: Arc<Tt>,
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
    /// A searcher with its own table, for a configuration the program chose (the table size
    /// from a user goes through [`Searcher::try_new`] or [`Searcher::set_config`]).
    ///
    /// # Panics
    /// When the table cannot be allocated.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        match Self::try_new(eval, config) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    /// A searcher with its own table, or why the table cannot be had.
    pub fn try_new(eval: E, config: SearchConfig) -> Result<Self, TtError> {
        let tt = Arc::new(Tt::try_new(if config.use_tt { config.tt_mb } else { 1 })?);
        let learnt = Learnt::new::<G>(&config);
        Ok(Searcher {
            eval,
            config,
            tt,
            stop: Arc::new(AtomicBool::new(false)),
            learnt,
            _game: std::marker::PhantomData,
        })
    }

    /// The current switches.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the switches; the table is reallocated (and so emptied) only if its size
    /// changes. A table the machine cannot give is an error, and then nothing changes: the
    /// old table and switches stay.
    pub fn set_config(&mut self, config: SearchConfig) -> Result<(), TtError> {
        if config.tt_mb != self.config.tt_mb {
            // Made before the old table is dropped, so a refusal leaves the engine as it was.
            self.tt = Arc::new(Tt::try_new(config.tt_mb)?);
        }
        if config.continuation != self.config.continuation
            || config.correction != self.config.correction
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
        self.tt.clear();
        self.learnt = Learnt::new::<G>(&self.config);
    }

    /// Permille of the table filled by the last search.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
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
        self.tt.new_search();
        let shared = Shared {
            stop: Arc::clone(&self.stop),
            abort: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
        };
        let threads = self.config.threads.max(1);
        let learnt = std::mem::take(&mut self.learnt);
        let restricted = restriction(pos, among);
        let mut main = Worker::new(pos, self, &shared, limits, start, 0, learnt.clone());
        main.restricted.clone_from(&restricted);
        let report = std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let mut w = Worker::new(pos, self, &shared, limits, start, id, learnt.clone());
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

/// One thread's search.
struct Worker<'a, G: Game, E: Evaluator<G>> {
    pos: G,
    eval: &'a E,
    config: &'a SearchConfig,
    tt: &'a Tt,
    shared: &'a Shared,
    limits: &'a Limits,
    start: Instant,
    id: usize,
    stats: Stats,
    /// Set once the search must unwind; every result after it is discarded.
    stopped: bool,
    /// Counts every value that depended on the depth limit (a static evaluation, a depth-bound
    /// table entry, a null-move cut). A subtree that leaves it unchanged was solved outright.
    horizon: u64,
    moves: Vec<Vec<G::Move>>,
    /// Per ply: ordering key and index into the move list, which itself stays in the game's
    /// order so the table can store a move as its index.
    keys: Vec<Vec<(i64, u16)>>,
    pv: Vec<Vec<G::Move>>,
    /// The line of the best root move searched to the end in the iteration under way (empty
    /// before the first): what a stop in the middle of the iteration plays.
    root_line: Vec<G::Move>,
    killers: Vec<[Option<G::Move>; 2]>,
    learnt: Learnt,
    /// The evaluator's hints for the node being ordered (one buffer: ordering never recurses).
    hints: Vec<i32>,
    /// The depth of the iteration under way.
    root_depth: u32,
    /// Root moves a MultiPV pass leaves out (the lines already found), and those outside a
    /// `searchmoves` restriction.
    excluded: Vec<G::Move>,
    /// Root moves outside the `searchmoves` restriction: what `excluded` holds between passes.
    restricted: Vec<G::Move>,
    /// Per ply: the move played from it (None for a null move), so a node knows the move that
    /// led to it.
    path: Vec<Option<G::Move>>,
    /// Per ply: the move a singular-extension search leaves out (the table's move), else None.
    skip: Vec<Option<G::Move>>,
    /// Per ply: the static value of the node there, when it was computed (not in a forcing
    /// position), for the `improving` test of the node two plies below.
    static_evals: Vec<Option<i32>>,
    /// Per ply: the piece-move index of the move played from it (None for a null move, or
    /// with continuation history off).
    piece_path: Vec<Option<usize>>,
    /// Counter moves: by the index of the opponent's last move, the reply that last cut.
    counters: Vec<Option<G::Move>>,
    evals: EvalCache,
}

/// Static values by position key, one cache per thread, direct-mapped. Quiescence evaluates
/// every node it enters, and the same position is often reached again by captures in another
/// order or by the next iteration; the evaluation is most of a chess node's cost. An entry
/// answers only for its own full key, so a value is the evaluator's own: results do not change.
struct EvalCache {
    slots: Vec<(u64, i32)>,
}

impl EvalCache {
    /// 2^15 entries of 16 bytes: half a megabyte, within a core's L2 cache here.
    const SLOTS: usize = 1 << 15;

    fn new() -> Self {
        // Slot i starts with the key !i, which maps to another slot, so no key finds it.
        EvalCache {
            slots: (0..Self::SLOTS).map(|i| (!(i as u64), 0)).collect(),
        }
    }

    #[inline]
    fn get_or_insert(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[key as usize & (Self::SLOTS - 1)];
        if slot.0 != key {
            *slot = (key, evaluate());
        }
        slot.1
    }
}

/// The late-move reduction, in plies, of the move at `index` (from 0) of a node with `depth`
/// plies left: 0.75 + ln(depth)·ln(index)/2.25, the logarithmic form most strong engines use
/// (later moves and deeper nodes are reduced more, slowly).
fn lmr_reduction(depth: u32, index: usize) -> u32 {
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

/// Adds `delta` to a history value, scaled down as the value nears ±`HISTORY_MAX` in the
/// direction of `delta`, which it therefore never passes. Values are kept in 16 bits: the
/// continuation tables then take half the cache they would (chess: 2.3 MB instead of 4.7).
#[inline]
fn gravity(h: &mut i16, delta: i32) {
    let v = i32::from(*h);
    *h = (v + delta - v * delta.abs() / tune::HISTORY_MAX) as i16;
}

/// A correction (in 1/`CORRECTION_GRAIN` units) moved towards `error` (in evaluation units,
/// clamped to ±`CORRECTION_MAX`), (depth + 1)² / 1024 of the way and at most an eighth, so
/// that one deep search counts for more than many shallow ones and none decides alone.
fn correction_step(c: i32, error: i32, depth: u32) -> i32 {
    let target = error.clamp(-tune::CORRECTION_MAX, tune::CORRECTION_MAX) * tune::CORRECTION_GRAIN;
    let d = depth.min(63) as i32 + 1;
    let w = (d * d).min(128);
    (c * (1024 - w) + target * w) / 1024
}

/// The depth stored for a subtree solved to the end of the game: usable at any depth.
const SOLVED_DEPTH: u8 = u8::MAX;

/// Ordering classes, highest first.
const ORDER_TT: i64 = i64::MAX;
const ORDER_GOOD_HINT: i64 = 1 << 50;
const ORDER_KILLER: i64 = 1 << 40;
/// Below the killers, above every history score (which stays under 2^24 per hint unit).
const ORDER_COUNTER: i64 = ORDER_KILLER - 1;
/// A negative hint (times 2^24) puts a move below this, every hint-less move above it.
const ORDER_BAD_HINT: i64 = -(1 << 23);

/// Whether a move ordered with `key` (not the table's move, whose key says nothing) is noisy:
/// the evaluator gave it a hint, good or bad.
fn noisy_key(key: i64) -> bool {
    !(ORDER_BAD_HINT..ORDER_GOOD_HINT).contains(&key)
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(
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

    fn ensure_ply(&mut self, ply: usize) {
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

    /// Step 1: iterative deepening. Returns the last completed iteration's report.
    fn iterate(&mut self, on_iteration: &mut dyn FnMut(&Report<G::Move>)) -> Report<G::Move> {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(Score::MAX_PLY as u32 - 10)
            .max(1);
        let mut root_moves = Vec::new();
        self.pos.generate_moves(&mut root_moves);
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
            if self.skips(depth) {
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
                if !self.root_line.is_empty() && !self.config.mtdf && self.config.multipv <= 1 {
                    best.best = self.root_line.first().copied();
                    best.pv.clone_from(&self.root_line);
                }
                break;
            }
            let lines = self.more_lines(depth, value, &root_moves);
            if self.stopped {
                break;
            }
            best.value = value;
            best.pv = self.pv[0].clone();
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
    fn more_lines(
        &mut self,
        depth: u32,
        value: Score,
        root_moves: &[G::Move],
    ) -> Vec<(Score, Vec<G::Move>)> {
        let k = self.config.multipv.min(root_moves.len());
        if k <= 1 || self.id != 0 {
            return Vec::new();
        }
        let first = self.pv[0].clone();
        let mut lines = vec![(value, first.clone())];
        self.excluded.extend(first.first().copied());
        while lines.len() < k {
            let v = self.pvs(depth, 0, -Score::INF, Score::INF, true);
            if self.stopped {
                break;
            }
            let line = self.pv[0].clone();
            let Some(&mv) = line.first() else { break };
            lines.push((v, line));
            self.excluded.push(mv);
        }
        self.excluded.clone_from(&self.restricted);
        // The first line's table entry was overwritten by the restricted searches: put the
        // main line back in front for the next iteration's ordering.
        self.pv[0] = first;
        // Stable: equal values keep the order they were found in.
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        lines
    }

    /// Step 5: helper threads skip some depths in blocks, each thread its own pattern, so that
    /// they stay at depths the main thread has not reached and fill the shared table ahead of it.
    /// Threads that searched the same depth in the same order would only duplicate each other.
    fn skips(&self, depth: u32) -> bool {
        if self.id == 0 {
            return false;
        }
        // Block sizes 1,1,2,2,2,2,3,... with every phase of each size, for helpers 1, 2, 3, ...
        let i = (self.id - 1) % 20;
        const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
    }

    /// Step 2: the root window. Aspiration from `ASPIRATION_FROM_DEPTH`, widening on failure.
    fn aspirate(&mut self, depth: u32, last: Score) -> Score {
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

    /// Step 2 (option): MTD(f). Null-window searches from the last value, moving the bounds
    /// until they meet. Needs the table to avoid re-searching everything each pass.
    fn mtdf(&mut self, depth: u32, guess: Score) -> Score {
        let mut g = guess;
        let mut lower = -Score::INF;
        let mut upper = Score::INF;
        let mut best_pv = Vec::new();
        while lower < upper {
            let beta = if g == lower { Score(g.0 + 1) } else { g };
            g = self.pvs(depth, 0, Score(beta.0 - 1), beta, true);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                // A fail high names a move that reaches the value; keep its line.
                best_pv = self.pv[0].clone();
            }
        }
        // The last pass may have failed low and named only some refuted move: report the line
        // of the pass that established the value as a lower bound.
        if !best_pv.is_empty() {
            self.pv[0] = best_pv;
        }
        g
    }

    #[inline]
    fn check_stop(&mut self) {
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

    /// Step 3: principal variation search. Fail-soft; values from the side to move.
    fn pvs(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        pv_node: bool,
    ) -> Score {
        // 3a.
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        self.check_stop();
        if self.stopped {
            return Score::DRAW;
        }
        self.ensure_ply(ply);
        self.pv[ply].clear();
        // 3b.
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
        // 3d.
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
            return self.quiesce(ply, alpha, beta);
        }
        // 3f.
        let key = self.pos.hash();
        let mut tt_move = NO_MOVE;
        let mut tt_bound = None;
        let mut tt_eval = None;
        // A singular-extension search of this node (the table's move left out) takes no value
        // from the table and stores none: the entry is the whole node's.
        let skip = self.skip[ply];
        if self.config.use_tt {
            if let Some(e) = self.tt.probe(key) {
                self.stats.tt_hits += 1;
                tt_move = e.mv;
                tt_eval = (e.eval != NO_EVAL).then_some(i32::from(e.eval));
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
        // The static value, where a pruning step below may use it (at PV nodes only for the
        // `improving` test of the nodes below).
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
        self.static_evals[ply] = node_eval;
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
                ply.checked_sub(2).and_then(|p| self.static_evals[p]),
            ) {
                (Some(now), Some(before)) => now > before,
                _ => true,
            };
        // 3f'. Reverse futility: so far above beta this close to the horizon that no quiet
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
        // 3g. Null move: if passing still fails high at reduced depth, so will a real move.
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
            self.path[ply] = None;
            self.piece_path[ply] = None;
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
        // 3h.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        self.pos.generate_moves(&mut moves);
        // Staged ordering: the table's move is tried before the others are scored, since it
        // often cuts at once and then no other move needs a key.
        let tt_first = (tt_move as usize) < moves.len();
        // 3h'. Internal iterative reduction.
        let depth = if self.config.iir && !tt_first && depth >= tune::IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };
        // 3h''. Singular extension: is the table's move the only good one here?
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
                self.skip[ply] = Some(moves[tt_move as usize]);
                let v = self.pvs((depth - 1) / 2, ply, Score(s_beta.0 - 1), s_beta, false);
                self.skip[ply] = None;
                if self.stopped {
                    self.moves[ply] = moves;
                    self.keys[ply] = keys;
                    return Score::DRAW;
                }
                if v < s_beta {
                    singular = true;
                } else if s_beta >= beta && !pv_node {
                    // Multi-cut: even without the table's move, some move beats beta.
                    self.stats.cutoffs += 1;
                    self.moves[ply] = moves;
                    self.keys[ply] = keys;
                    return s_beta;
                }
            }
        }
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
        keys.clear();
        if tt_first {
            keys.push((ORDER_TT, tt_move));
        } else {
            self.order(&moves, &mut keys, ply, NO_MOVE);
        }
        let side = self.pos.side_to_move() as usize;
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
            // loses only by the larger exchange margin.
            let checks = (reducible || prunable || see_fails) && self.eval.extend(&self.pos);
            if ((prunable || see_fails) && !checks) || see_fails_all {
                self.pos.undo(mv);
                self.horizon += 1;
                continue;
            }
            searched += 1;
            self.path[ply] = Some(mv);
            self.piece_path[ply] = piece_move;
            // 3i.
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
                self.moves[ply] = moves;
                self.keys[ply] = keys;
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
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                        if ply == 0 {
                            self.root_line.clone_from(&head[0]);
                        }
                    }
                }
                // 3j.
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
        // 3k'. Correction history learns from a value that bounds the static value's error
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
        // 3k. The move is stored as its index in the game's own (unsorted) order. Not after a
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
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        best
    }

    /// Step 3i, exchange pruning: whether `mv`, ordered with `key`, loses more by static
    /// exchange than its kind may at `depth` (a capture or promotion, which the evaluator's
    /// hint sets apart, `SEE_NOISY`·depth²; a quiet move `SEE_QUIET`·depth), and whether it
    /// loses more than the larger of the two margins, which holds even for a check.
    fn exchange_fails(&self, mv: G::Move, key: i64, depth: u32) -> (bool, bool) {
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

    /// The evaluator's value of the current position, through the cache.
    #[inline]
    fn static_value(&mut self) -> i32 {
        let (eval, pos) = (self.eval, &self.pos);
        self.evals.get_or_insert(pos.hash(), || eval.evaluate(pos))
    }

    /// The correction-history slot of the current position, when correction is on and the
    /// game has a structure key.
    fn correction_slot(&self) -> Option<usize> {
        if !self.config.correction {
            return None;
        }
        let key = self.pos.structure_key()?;
        let bits = tune::CORRECTION_SLOTS.trailing_zeros();
        // A multiplicative hash's high bits, so a game's key need not be well mixed.
        let index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize;
        Some(self.pos.side_to_move() as usize * tune::CORRECTION_SLOTS + index)
    }

    /// The static value `raw` with the correction learnt at `slot`.
    fn corrected(&self, slot: Option<usize>, raw: i32) -> i32 {
        slot.map_or(raw, |s| {
            raw + self.learnt.correction[s] / tune::CORRECTION_GRAIN
        })
    }

    /// Moves the correction at `slot` towards the error `value - raw` ([`correction_step`]).
    fn learn_correction(&mut self, slot: usize, raw: i32, value: i32, depth: u32) {
        let c = &mut self.learnt.correction[slot];
        *c = correction_step(*c, value - raw, depth);
    }

    /// Step 3h: appends one ordering key per move, highest searched first; `skip` (the table's
    /// move, already keyed) gets none.
    fn order(&mut self, moves: &[G::Move], keys: &mut Vec<(i64, u16)>, ply: usize, skip: u16) {
        let side = self.pos.side_to_move() as usize;
        let counter = self.counter_move(ply);
        let before = self.moves_before(ply);
        let mut hints = std::mem::take(&mut self.hints);
        self.eval.move_hints(&self.pos, moves, &mut hints);
        for (i, (&mv, &hint)) in moves.iter().zip(hints.iter()).enumerate() {
            if i as u16 == skip {
                continue;
            }
            let hint = hint as i64;
            let key = if hint > 0 {
                ORDER_GOOD_HINT + hint
            } else if self.killers[ply][0] == Some(mv) {
                ORDER_KILLER + 1
            } else if self.killers[ply][1] == Some(mv) {
                ORDER_KILLER
            } else if counter == Some(mv) {
                ORDER_COUNTER
            } else {
                let h = self.history(side, mv);
                (hint << 24) + i64::from(h + self.continuation_score(before, mv))
            };
            keys.push((key, i as u16));
        }
        self.hints = hints;
    }

    /// The butterfly history of `mv` for `side`.
    #[inline]
    fn history(&self, side: usize, mv: G::Move) -> i32 {
        i32::from(self.learnt.history[side * G::MOVE_INDICES + G::move_index(mv)])
    }

    /// The piece-move index of `mv` in the current position, when continuation history is on.
    #[inline]
    fn piece_move(&self, mv: G::Move) -> Option<usize> {
        self.config
            .continuation
            .then(|| self.pos.piece_move_index(mv))
    }

    /// The slots of the two continuation tables for the node at `ply`: the piece-move index
    /// of the move one ply and two plies before, each times P (the row), offset into its table.
    fn moves_before(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.config.continuation {
            return [None, None];
        }
        let p = G::PIECE_MOVE_INDICES;
        let at = |back: usize| ply.checked_sub(back).and_then(|q| self.piece_path[q]);
        [at(1).map(|i| i * p), at(2).map(|i| p * p + i * p)]
    }

    /// The continuation history of `mv` after the moves `before` ([`Worker::moves_before`]).
    fn continuation_score(&self, before: [Option<usize>; 2], mv: G::Move) -> i32 {
        let Some(m) = self.piece_move(mv) else {
            return 0;
        };
        before
            .iter()
            .flatten()
            .map(|row| i32::from(self.learnt.continuation[row + m]))
            .sum()
    }

    /// The reply that last refuted the move that led to `ply`.
    fn counter_move(&self, ply: usize) -> Option<G::Move> {
        let prev = self.path[ply.checked_sub(1)?]?;
        self.counters[G::move_index(prev)]
    }

    /// Step 3j: the move that cut becomes a killer at this ply and gains history; the quiet
    /// moves tried before it lose some.
    fn learn(
        &mut self,
        mv: G::Move,
        side: usize,
        ply: usize,
        depth: u32,
        moves: &[G::Move],
        tried: &[(i64, u16)],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        if let Some(prev) = ply.checked_sub(1).and_then(|p| self.path[p]) {
            self.counters[G::move_index(prev)] = Some(mv);
        }
        let bonus = (16 * depth * depth).min(tune::HISTORY_BONUS_MAX as u32) as i32;
        let base = side * G::MOVE_INDICES;
        gravity(&mut self.learnt.history[base + G::move_index(mv)], bonus);
        for &(_, k) in tried {
            gravity(
                &mut self.learnt.history[base + G::move_index(moves[k as usize])],
                -bonus,
            );
        }
        if self.config.continuation {
            let before = self.moves_before(ply);
            for row in before.into_iter().flatten() {
                let m = self.pos.piece_move_index(mv);
                gravity(&mut self.learnt.continuation[row + m], bonus);
                for &(_, k) in tried {
                    let m = self.pos.piece_move_index(moves[k as usize]);
                    gravity(&mut self.learnt.continuation[row + m], -bonus);
                }
            }
        }
    }

    /// Step 4: quiescence. The side to move may stand pat on the static value or try a noisy
    /// move; with no noisy-move hook (or the option off) this is the static evaluation.
    fn quiesce(&mut self, ply: usize, mut alpha: Score, beta: Score) -> Score {
        self.stats.evals += 1;
        self.horizon += 1;
        let slot = self.correction_slot();
        let raw = self.static_value();
        let stand_pat = Score::heuristic(self.corrected(slot, raw));
        if !self.config.quiescence || stand_pat >= beta || ply as i32 >= Score::MAX_PLY - 2 {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
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
        let mut best = stand_pat;
        alpha = alpha.max(stand_pat);
        // Out of check, a capture whose exchange leaves the value far below alpha is not
        // worth a node. (In check every evasion is searched.)
        let may_prune = self.config.exchange_pruning && !self.eval.extend(&self.pos);
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
                None => -self.quiesce(ply + 1, -beta, -alpha),
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
        self.moves[ply] = moves;
        best
    }
}

fn terminal(o: Outcome, ply: usize) -> Score {
    match o {
        Outcome::Win => Score::win_in(ply as i32),
        Outcome::Loss => Score::loss_in(ply as i32),
        Outcome::Draw => Score::DRAW,
    }
}

/// Moves a node picks one at a time by [`pick_next`] before it sorts the rest.
const PICK_BY_SCAN: usize = 3;

/// Puts the move to try `i`-th at `keys[i]`, given `keys[..i]` already tried: highest key
/// first, ties in the game's order. Most nodes cut on one of their first moves, which are
/// picked by a scan; a node that gets past them is likely to try many, and one sort of the
/// rest is then cheaper than a scan per move (which cost a tenth of chess's search time).
fn bring_next(keys: &mut [(i64, u16)], i: usize) {
    if i < PICK_BY_SCAN {
        let k = pick_next(&keys[i..]) + i;
        keys.swap(i, k);
    } else if i == PICK_BY_SCAN {
        keys[i..].sort_unstable_by_key(|&(key, index)| (std::cmp::Reverse(key), index));
    }
}

/// The index of the highest key; of equal keys, the one of the lowest move index, so ties
/// keep the game's order however earlier picks have shuffled the list.
#[inline]
fn pick_next(keys: &[(i64, u16)]) -> usize {
    let mut best = 0;
    for (i, &(k, index)) in keys.iter().enumerate().skip(1) {
        let (best_key, best_index) = keys[best];
        if k > best_key || (k == best_key && index < best_index) {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picking by scan, then sorting, tries the moves in the order of one stable sort by key:
    /// highest first, equal keys in the game's order, whatever order the list starts in.
    #[test]
    fn moves_come_in_key_order_with_ties_in_the_games_order() {
        let mut rng = duel_core::SplitMix64::new(3);
        for n in 0..40usize {
            for _ in 0..50 {
                // Few distinct keys, so ties are common, as among quiet moves without history.
                let mut keys: Vec<(i64, u16)> = (0..n as u16)
                    .map(|i| ((rng.next() % 5) as i64 - 2, i))
                    .collect();
                for i in (1..n).rev() {
                    keys.swap(i, rng.below(i + 1));
                }
                let mut want = keys.clone();
                want.sort_by_key(|&(k, i)| (std::cmp::Reverse(k), i));
                for i in 0..n {
                    bring_next(&mut keys, i);
                }
                assert_eq!(keys, want);
            }
        }
    }

    #[test]
    fn history_stays_within_its_bound() {
        let mut rng = duel_core::SplitMix64::new(7);
        let mut h = 0i16;
        for _ in 0..100_000 {
            let delta = (rng.next() % (2 * tune::HISTORY_BONUS_MAX as u64 + 1)) as i32
                - tune::HISTORY_BONUS_MAX;
            gravity(&mut h, delta);
            assert!(i32::from(h).abs() <= tune::HISTORY_MAX, "{h}");
        }
        // Repeated rewards approach the bound from below.
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, tune::HISTORY_BONUS_MAX);
        }
        let h = i32::from(h);
        assert!(
            h > tune::HISTORY_MAX * 9 / 10 && h <= tune::HISTORY_MAX,
            "{h}"
        );
    }

    #[test]
    fn corrections_approach_the_error_and_stay_bounded() {
        let max = tune::CORRECTION_MAX * tune::CORRECTION_GRAIN;
        // The same error again and again: the correction converges on it from below.
        let mut c = 0;
        for _ in 0..200 {
            let next = correction_step(c, 40, 6);
            assert!(next >= c && next <= 40 * tune::CORRECTION_GRAIN, "{next}");
            c = next;
        }
        assert!(c > 39 * tune::CORRECTION_GRAIN, "{c}");
        // A deeper search moves it further in one step; a huge error counts as the largest.
        assert!(correction_step(0, 50, 9) > correction_step(0, 50, 2));
        assert_eq!(
            correction_step(0, 100_000, 20),
            correction_step(0, tune::CORRECTION_MAX, 20)
        );
        let mut rng = duel_core::SplitMix64::new(11);
        let mut c = 0;
        for _ in 0..100_000 {
            let error = (rng.next() % 4001) as i32 - 2000;
            c = correction_step(c, error, (rng.next() % 40) as u32);
            assert!(c.abs() <= max, "{c}");
        }
    }

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
