//! The exact endgame solver: the final disc difference under perfect play, empty squares going
//! to the winner (the FFO convention), and a move that reaches it.
//!
//! Principal variation search at the root and along the first line, null-window searches
//! everywhere else. Phases by the number of empty squares:
//!
//! - **many empties** ([`TT_MIN_EMPTIES`] and up): a transposition table of bounds, enhanced
//!   transposition cut-off (look up every child before searching any), the stability cut-off
//!   (the opponent's stable discs cap our score), and fastest-first ordering (the move that
//!   leaves the opponent fewest replies first), refined far from the end by shallow searches
//!   that rate positions with an [`Estimate`] (the pattern evaluator by default); the table's
//!   move is tried before the others are sorted;
//! - **few empties**: no table and no move list; the empty squares are tried directly, those in
//!   quadrants with an odd number of empties first (parity: the last move of a region is worth
//!   having); the stability cut-off still applies;
//! - **one empty**: the score is counted from the flips of that one square, no move played.
//!
//! Far from the end ([`PROBCUT_ID_MIN_EMPTIES`] and up), [`Solver::solve`] runs selective passes
//! before the exact one, as Edax does: ProbCut cuts a node when a shallow search lands far
//! outside the window, by once and then twice its measured error. Each pass starts from
//! the last one's value and leaves in the table the best moves the next one tries first; the
//! table keeps, with every bound, the level it was found at, and a pass trusts only bounds at
//! least as exact as itself, so the last pass's value is exact.
//!
//! Every final score is even (64 discs and empties split between winner and total), so the
//! driver only ever needs windows between even numbers.
//!
//! Threads ([`Solver::set_threads`]): helper solvers, sharing the main table, share the
//! root's moves after the first. The first move is searched alone with the whole window, as
//! young-brothers-wait has it, and sets the bound; the others are taken from a common counter
//! by whichever thread is free and tested with null windows against the best value so far, a
//! move that beats it searched again by the thread that found it. A move reaching beta stops
//! the others. Every thread's values are exact facts, so the result is the one-thread value;
//! only the best move among equals and the node count may differ from run to run.
//!
//! [`Solver::solve_limited`] takes [`Limits`] (nodes, a deadline, a stop flag) and a progress
//! callback: the limits are looked at every [`CHECK_EVERY`] nodes, and a stop unwinds through
//! ordinary returns, storing nothing from the unfinished subtrees.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use duel_core::solve::SolveGoal;
use duel_core::Game;

use crate::bitboard::{
    flips, last_flip_count, moves, neighbours, stable_discs, stable_discs_few, CORNERS, X_SQUARES,
};
use crate::board::final_score;
use crate::estimate::Estimate;
use crate::{Move, Othello, Pattern};

/// From this many empty squares up, nodes use the table, sorted moves and the cut-offs.
pub const TT_MIN_EMPTIES: u32 = 7;

/// From this many empty squares up, nodes try enhanced transposition cut-off. Measured on FFO
/// #20–39 / #40–44 nodes: 12 gave 334 M / 261 M, 10 gives 328 M / 255 M at about the same time,
/// 8 fewer nodes still (321 M / 249 M) but no clear gain in time, 15 more (343 M). Since the
/// small table holds 10 empties, 9 pays: FFO #50 632 M nodes, 28.2 s against 647 M, 28.8 s
/// (8: 631 M, 28.6 s; 14: 673 M and slower).
pub const ETC_MIN_EMPTIES: u32 = 9;

/// From this many empties up, moves are sorted by a shallow search rather than by mobility
/// alone.
pub const SHALLOW_SORT_MIN_EMPTIES: u32 = 16;

/// How much the shallow search's value (1/16 disc per unit) weighs against fastest-first
/// (64 per reply left to the opponent) in the sort key. At 4 a disc of expected gain is worth
/// one reply: with 64 the search's value drowned the mobility term, and FFO #59 took 6.31 G
/// nodes instead of 62 M (docs/BENCHMARKS.md).
const PROBE_WEIGHT: i32 = 4;

/// The stability cut-off is tried only from this alpha up: below it a cut needs so many
/// stable discs that the test rarely pays for itself.
const STABILITY_MIN_ALPHA: i32 = 4;

/// How far below alpha (in discs) the sort's shallow searches at null-window nodes still rate
/// moves precisely: below it, a move only needs to be known as bad, and the search stops at
/// the first reply that shows it (Edax's margin). FFO #50: 30.5–31.0 s against 32.0 s with
/// full windows (2 discs: slower; 16: the same as 8).
const SORT_WINDOW: i32 = 8;

/// Positions with at most this many empties use the small table. 10 rather than 9 once the
/// table fits the 1 MiB level-2 cache: FFO #45–#49 about 2.5% faster (11: no faster, more nodes).
const NEAR_MAX_EMPTIES: u32 = 10;

/// The small table: 2^14 entries (384 KiB), small enough to stay in a 1 MiB level-2 cache. At
/// 2^16 (1.5 MiB) the probes missed it: FFO #45–#49 took 22.1 s against 20.1 s at 2^14 with
/// 0.5% more nodes (2^15: in between; 2^13: no faster).
const NEAR_TT_BITS: u32 = 14;

/// From this many empties up, [`Solver::solve`] guesses the value with a selective search and
/// searches a window around it first.
pub const GUESS_MIN_EMPTIES: u32 = 18;

/// The selective search tries every move below this many empties (and solves exactly there).
const SELECTIVE_MIN_EMPTIES: u32 = 10;

/// How many moves the selective search tries at its larger nodes.
const SELECTIVE_WIDTH: usize = 2;

/// Potential mobility joins the sort key from this many empties up; nearer the end it changes
/// the order too rarely to pay for itself.
const POTENTIAL_MOBILITY_MIN_EMPTIES: u32 = 10;

/// ProbCut's confidence levels for the passes before the exact one, in hundredths of the
/// shallow search's standard error: a node is cut when the shallow value lies this many
/// errors beyond the window. [`EXACT`] (past the end) is the exact search. On FFO #53 four
/// levels (1, 1.5, 2, 3) took 86 s, one (1.5) 93 s, these two 76 s.
const SELECTIVITY: [i32; 2] = [100, 200];

/// The selectivity level of the exact search: no ProbCut, every bound proven.
const EXACT: u8 = SELECTIVITY.len() as u8;

/// ProbCut tries nodes from this many empties up; below, subtrees are solved exactly even in
/// the selective passes (so what the table holds for them is exact whatever the pass).
const PROBCUT_MIN_EMPTIES: u32 = 12;

/// From this many empties up, [`Solver::solve`] first runs the selective passes, which leave
/// in the table the best moves the exact pass then tries first.
pub const PROBCUT_ID_MIN_EMPTIES: u32 = 20;

/// The default table: the memory of 2^21 entries of 24 bytes (48 MiB), in buckets of three.
pub const DEFAULT_TT_BITS: u32 = 21;

/// The fewest empties at which the root's moves are shared between threads: below, a solve
/// takes about a millisecond, no more than starting the threads.
pub const PARALLEL_MIN_EMPTIES: u32 = 16;

/// Above every score.
const INF: i32 = 127;

/// The standard deviation, in 1/16 disc, of a 2-ply and a 4-ply search with the pattern
/// evaluator from the exact score (about 7 and 6 discs at 12 to 24 empties, measured by
/// `examples/probcut_sigma.rs`).
const PROBCUT_SIGMA_2: i32 = 112;
const PROBCUT_SIGMA_4: i32 = 96;

/// Above every value of the ordering probe.
const PROBE_INF: i32 = 1 << 20;

/// The four 4×4 quadrants: parity ordering counts empties per quadrant.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// One table slot: the position itself (so two positions never share an entry, whatever
/// their hashes), and what is known of its value.
#[derive(Debug, Clone, Copy)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
    /// The selectivity level under which the bounds were found ([`EXACT`]: proven).
    sel: u8,
}

impl Default for Entry {
    /// No position (no real position has both boards empty), nothing known.
    fn default() -> Self {
        Entry {
            p: 0,
            o: 0,
            lower: -64,
            upper: 64,
            best: 64,
            empties: 0,
            sel: EXACT,
        }
    }
}

impl Entry {
    #[inline]
    fn holds(&self, p: u64, o: u64) -> bool {
        self.p == p && self.o == o
    }
}

/// Positions per bucket of the main table.
const WAYS: usize = 3;

/// A bucket of the main table: three entries in one cache line, so that a probe costs one
/// memory access (the earlier pairs of 24-byte entries straddled two lines in half the
/// buckets), with the boards apart from the rest so the line holds a third entry. About 1%
/// on FFO #45–#49 and #50.
///
/// The table is shared by the threads of a solve ([`Solver::set_threads`]) without locks:
/// every word is an atomic read and written on its own (a plain move on x86-64), and the
/// second board is stored mixed with the entry's data (`o ^ mix(data)`), so an entry read
/// while another thread writes it, its words from two writes, unmixes to a board that is
/// not the one looked for and is ignored, as in Hyatt's lockless hashing.
#[derive(Debug)]
#[repr(align(64))]
struct Bucket {
    p: [AtomicU64; WAYS],
    /// The second board mixed with the data: `o ^ mix(data)`.
    o: [AtomicU64; WAYS],
    data: [AtomicU32; WAYS],
}

/// An entry's bounds, move, depth and provenance (see [`Entry`]) in one word: lower and
/// upper bound in the low two bytes, the move (0..=64), the empties and the selectivity level.
#[inline]
fn pack(e: &Entry) -> u32 {
    u32::from(e.lower as u8)
        | u32::from(e.upper as u8) << 8
        | u32::from(e.best) << 16
        | u32::from(e.empties) << 24
        | u32::from(e.sel) << 30
}

// The level has two bits of the word.
const _: () = assert!(EXACT < 4);

/// The 64-bit mask a data word puts on the second board.
#[inline]
fn mix(data: u32) -> u64 {
    u64::from(data).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(data)
}

impl Default for Bucket {
    fn default() -> Self {
        let d = pack(&Entry::default());
        Bucket {
            p: std::array::from_fn(|_| AtomicU64::new(0)),
            o: std::array::from_fn(|_| AtomicU64::new(mix(d))),
            data: std::array::from_fn(|_| AtomicU32::new(d)),
        }
    }
}

impl Bucket {
    /// The entry of way `w`, whatever position it holds (a torn one unmixes to nonsense).
    #[inline]
    fn entry(&self, w: usize) -> Entry {
        let d = self.data[w].load(Ordering::Relaxed);
        Entry {
            p: self.p[w].load(Ordering::Relaxed),
            o: self.o[w].load(Ordering::Relaxed) ^ mix(d),
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            best: (d >> 16) as u8,
            empties: (d >> 24 & 0x3F) as u8,
            sel: (d >> 30) as u8,
        }
    }

    /// The way holding the position, and its entry, if any.
    #[inline]
    fn find(&self, p: u64, o: u64) -> Option<(usize, Entry)> {
        // The first board alone rules out the other ways before anything is unmixed.
        (0..WAYS)
            .filter(|&w| self.p[w].load(Ordering::Relaxed) == p)
            .map(|w| (w, self.entry(w)))
            .find(|(_, e)| e.holds(p, o))
    }

    #[inline]
    fn set(&self, w: usize, e: &Entry) {
        let d = pack(e);
        self.p[w].store(e.p, Ordering::Relaxed);
        self.data[w].store(d, Ordering::Relaxed);
        self.o[w].store(e.o ^ mix(d), Ordering::Relaxed);
    }

    /// Forgets all three entries.
    fn clear(&self) {
        for w in 0..WAYS {
            self.set(w, &Entry::default());
        }
    }
}

/// Nodes between two looks at the limits and the clock: a few milliseconds of search.
pub const CHECK_EVERY: u64 = 1 << 16;

/// How often a long window reports that it is still running.
const REPORT_EVERY: Duration = Duration::from_secs(2);

/// What may end a solve before it has proven the score (every game's solver takes the same).
pub use duel_core::SolverLimits as Limits;

/// The stages of [`Solver::solve`], in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The selective search that guesses the value and orders the root's moves.
    Guess,
    /// A selective pass: ProbCut cuts a node when a shallow search lands `confidence`
    /// hundredths of its measured error outside the window. Its values are guesses.
    ProbCut {
        /// In hundredths of the shallow search's standard error.
        confidence: i32,
    },
    /// The exact pass: every bound it finds is proven.
    Exact,
}

/// Where a running solve stands (discs, from the side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The stage running or just ended.
    pub stage: Stage,
    /// The latest value the stages found: a guess until the exact pass proves it.
    pub guess: Option<i32>,
    /// The lower bound the exact pass has proven, if any yet.
    pub lower: Option<i32>,
    /// The upper bound the exact pass has proven, if any yet.
    pub upper: Option<i32>,
    /// The window still being searched, in a report of a long one; None when a window or a
    /// stage has just ended.
    pub window: Option<(i32, i32)>,
    /// Nodes this solve has searched.
    pub nodes: u64,
}

/// A solve ended by its [`Limits`] before it proved the score (bounds in discs, proven by the exact pass).
pub use duel_core::SolverStopped as Stopped;

/// One solve's limits, its progress callback and the state its reports show.
struct Budget<'a, 'l> {
    /// The node count at which to look at the limits next (0 once stopped).
    check_at: u64,
    limits: &'a Limits<'l>,
    progress: &'a mut dyn FnMut(&Progress),
    /// What a report shows.
    now: Progress,
    reported: Instant,
}

impl<'a, 'l> Budget<'a, 'l> {
    fn new(limits: &'a Limits<'l>, progress: &'a mut dyn FnMut(&Progress)) -> Self {
        Budget {
            check_at: limits.nodes.map_or(CHECK_EVERY, |n| n.min(CHECK_EVERY)),
            limits,
            progress,
            now: Progress {
                stage: Stage::Exact,
                guess: None,
                lower: None,
                upper: None,
                window: None,
                nodes: 0,
            },
            reported: Instant::now(),
        }
    }

    /// Records what an exact search's fail-soft `score` in (`alpha`, `beta`) proves.
    fn prove(&mut self, score: i32, alpha: i32, beta: i32) {
        if score > alpha {
            self.now.lower = Some(self.now.lower.map_or(score, |l| l.max(score)));
        }
        if score < beta {
            self.now.upper = Some(self.now.upper.map_or(score, |u| u.min(score)));
        }
    }

    /// Calls the callback with the current state.
    fn report(&mut self, window: Option<(i32, i32)>, nodes: u64) {
        self.reported = Instant::now();
        let p = Progress {
            window,
            nodes,
            ..self.now
        };
        (self.progress)(&p);
    }
}

/// The result of a solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The exact final disc difference from the side to move, empties to the winner (or, from
    /// [`Solver::solve_window`], a bound when it falls outside the window).
    pub score: i32,
    /// A move reaching `score` (`Move::PASS` if the only move is a pass); `None` when the game is
    /// over.
    pub best_move: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// The exact solver, with its transposition table (kept between solves: the values it holds
/// are exact facts about positions, whatever search produced them).
///
/// `E` rates positions for move ordering far from the end; it never changes a score, only how
/// fast it is found.
pub struct Solver<E: Estimate = Pattern> {
    estimate: E,
    /// Shared with the helpers.
    table: Arc<[Bucket]>,
    near: Vec<Entry>,
    nodes: u64,
    /// The current pass's selectivity level ([`EXACT`] outside [`Solver::solve`]'s passes).
    sel: u8,
    /// Set when a limit stopped the search: every node then returns at once, storing nothing.
    stopped: bool,
    /// Solvers that take root moves on threads of their own ([`Solver::set_threads`]).
    helpers: Vec<Solver<E>>,
}

impl<E: Estimate> std::fmt::Debug for Solver<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Solver({} table entries)", self.table.len() * WAYS)
    }
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(DEFAULT_TT_BITS)
    }
}

/// Where a position goes in the table: a multiply-xorshift mix of both boards. Cheaper than
/// keeping a Zobrist key through the copy-make search, and only needed at table nodes.
#[inline]
fn hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 32)
}

/// The empties in quadrants holding an odd number of empties.
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    empties & odd
}

/// The score when `sq` is the only empty square and `p` is to move.
#[inline]
fn solve_1(p: u64, o: u64, sq: u32) -> i32 {
    let pc = p.count_ones() as i32;
    let n = last_flip_count(p, sq) as i32;
    if n > 0 {
        return 2 * (pc + n + 1) - 64;
    }
    let n = last_flip_count(o, sq) as i32;
    if n > 0 {
        return 2 * (pc - n) - 64;
    }
    // Nobody can take the last square: it goes to the winner (the difference is odd).
    let d = 2 * pc - 63;
    if d > 0 {
        d + 1
    } else {
        d - 1
    }
}

/// A move with what sorting needs.
#[derive(Clone, Copy, Default)]
struct Candidate {
    sq: u32,
    flips: u64,
    key: i32,
}

impl Solver {
    /// A solver with a table of 24 × 2^`tt_bits` bytes, ordering by the pattern
    /// evaluator: on FFO #20–#39 it leaves 126 M nodes to search against 328 M with
    /// [`RoughEstimate`] (7.2 s against 13.4 s).
    pub fn new(tt_bits: u32) -> Self {
        Solver::with_estimate(tt_bits, Pattern::default())
    }
}

impl<E: Estimate> Solver<E> {
    /// A solver with a table of 24 × 2^`tt_bits` bytes (as many buckets of three entries as
    /// fit), ordering by `estimate`.
    pub fn with_estimate(tt_bits: u32, estimate: E) -> Self {
        // The memory of 2^tt_bits entries of 24 bytes, in buckets of 64.
        let buckets = ((24usize << tt_bits.min(32)) / std::mem::size_of::<Bucket>()).max(1);
        Solver {
            estimate,
            table: (0..buckets).map(|_| Bucket::default()).collect(),
            near: vec![Entry::default(); 1 << NEAR_TT_BITS],
            nodes: 0,
            sel: EXACT,
            stopped: false,
            helpers: Vec::new(),
        }
    }

    /// Threads searching the principal variation's moves, this one included (at least one):
    /// the helpers share this solver's table (each has its own small one for the last
    /// empties) and are kept from solve to solve.
    pub fn set_threads(&mut self, threads: usize)
    where
        E: Clone,
    {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            // A small table of its own in place of the one it shares.
            let mut h = Solver::with_estimate(0, self.estimate.clone());
            h.table = Arc::clone(&self.table);
            self.helpers.push(h);
        }
    }

    /// The threads [`Solver::set_threads`] set.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Forgets everything in the table (and the helpers' tables).
    pub fn clear(&mut self) {
        for b in self.table.iter() {
            b.clear();
        }
        self.near.fill(Entry::default());
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// Looks at the limits when the node count reaches `b.check_at`; true when the search
    /// must stop. After a stop every table node comes here and leaves at once.
    #[cold]
    #[inline(never)]
    fn poll(&mut self, b: &mut Budget<'_, '_>) -> bool {
        if self.stopped {
            return true;
        }
        let now = Instant::now();
        if b.limits.nodes.is_some_and(|n| self.nodes >= n) || b.limits.interrupted(now) {
            self.stopped = true;
            b.check_at = 0;
            return true;
        }
        if now.duration_since(b.reported) >= REPORT_EVERY {
            let window = b.now.window;
            b.report(window, self.nodes);
        }
        let next = self.nodes.saturating_add(CHECK_EVERY);
        b.check_at = b.limits.nodes.map_or(next, |n| next.min(n));
        false
    }

    /// The exact value of `pos` and a best move.
    ///
    /// From [`GUESS_MIN_EMPTIES`] empties up, a selective search first guesses the value and
    /// orders the moves; the exact search then starts with a window around the guess and
    /// widens it until the value falls inside.
    pub fn solve(&mut self, pos: &Othello) -> Solution {
        match self.solve_limited(pos, &Limits::default(), &mut |_| {}) {
            Ok(s) => s,
            Err(_) => unreachable!("a solve without limits runs to its end"),
        }
    }

    /// [`Solver::solve`] within `limits`, calling `progress` at the end of every stage and
    /// window, and every two seconds or so of a long one. Stopped by a limit (looked at every
    /// [`CHECK_EVERY`] nodes), it returns the bounds the exact pass had proven; the table keeps
    /// only what finished subtrees proved, so the solver stays usable. This is how a protocol
    /// loop interrupts a solve: `Limits { stop: Some(&flag), ..Limits::default() }`.
    pub fn solve_limited(
        &mut self,
        pos: &Othello,
        limits: &Limits<'_>,
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
        limits: &Limits<'_>,
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
        let limits = Limits::default();
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

    /// Whether a principal-variation node with `n` empties and `count` moves is shared with
    /// the helpers. A node limit counts this thread's nodes, so a limited solve stays on one
    /// thread, and reproducible.
    fn splits(&self, n: u32, count: usize, b: &Budget<'_, '_>) -> bool {
        !self.helpers.is_empty()
            && n >= PARALLEL_MIN_EMPTIES
            && count > 1
            && b.limits.nodes.is_none()
    }

    /// A principal-variation node (the root or a first child) on this thread and the
    /// helpers': the first move here, through [`Solver::pvs`], which splits again below; the
    /// rest shared (see the module's notes on threads). Returns the value and the best move,
    /// brought to the front of `list`.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        list: &mut [Candidate],
        b: &mut Budget<'_, '_>,
    ) -> (i32, u32) {
        let child = |c: &Candidate| (o & !c.flips, p | c.flips | (1 << c.sq));
        let (np, no) = child(&list[0]);
        let first = -self.pvs(np, no, -beta, -alpha, n - 1, b);
        if self.stopped || first >= beta {
            return (first, list[0].sq);
        }
        // (best value, its index), the bound the others are tested against, the next move
        // to take, and the flag that stops the helpers: a cut-off, or this thread's limits.
        let best = std::sync::Mutex::new((first, 0usize));
        let bound = AtomicI32::new(alpha.max(first));
        let next = AtomicUsize::new(1);
        let halt = AtomicBool::new(false);
        let moves: &[Candidate] = list;
        let take = |solver: &mut Solver<E>, b: &mut Budget<'_, '_>| {
            while !halt.load(Ordering::Relaxed) {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = moves.get(i) else { break };
                let (np, no) = child(c);
                let a = bound.load(Ordering::Relaxed);
                let mut v = -solver.nws(np, no, -a - 1, n - 1, b);
                if v > a && v < beta && !solver.stopped {
                    v = -solver.pvs(np, no, -beta, -v, n - 1, b);
                }
                if solver.stopped {
                    break;
                }
                let mut g = best.lock().unwrap_or_else(|e| e.into_inner());
                if v > g.0 {
                    *g = (v, i);
                    bound.fetch_max(v, Ordering::Relaxed);
                    if v >= beta {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let helper_limits = Limits {
            stop: Some(&halt),
            deadline: b.limits.deadline,
            nodes: None,
            threads: 1,
        };
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    h.nodes = 0;
                    h.stopped = false;
                    h.sel = self.sel;
                    let (limits, take) = (&helper_limits, &take);
                    scope.spawn(move || {
                        let mut quiet = |_: &Progress| {};
                        let mut hb = Budget::new(limits, &mut quiet);
                        take(h, &mut hb);
                    })
                })
                .collect();
            take(self, b);
            // Done with the moves: wait for the helpers, and pass a stop on to them.
            while !running.iter().all(|r| r.is_finished()) {
                if !self.stopped && b.limits.interrupted(Instant::now()) {
                    self.stopped = true;
                }
                if self.stopped {
                    halt.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        });
        for h in &mut helpers {
            self.nodes += h.nodes;
            h.sel = EXACT;
        }
        self.helpers = helpers;
        let (value, i) = best.into_inner().unwrap_or_else(|e| e.into_inner());
        list[..=i].rotate_right(1);
        (value, list[0].sq)
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

    /// Principal variation search in (`alpha`, `beta`), `n` empties, `p` to move.
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        b: &mut Budget<'_, '_>,
    ) -> i32 {
        if n < TT_MIN_EMPTIES {
            let e = !(p | o);
            return self.shallow(p, o, alpha, beta, e, parity_of(e), n);
        }
        self.nodes += 1;
        if self.nodes >= b.check_at && self.poll(b) {
            return 0;
        }
        let mut list = [Candidate::default(); 32];
        let count = self.sorted_moves(p, o, n, &mut list);
        if count == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.pvs(o, p, -beta, -alpha, n, b);
        }
        let alpha0 = alpha;
        if self.splits(n, count, b) {
            let (best, best_sq) = self.split(p, o, alpha, beta, n, &mut list[..count], b);
            if self.stopped {
                return 0;
            }
            self.store(p, o, n, alpha0, beta, best, best_sq);
            return best;
        }
        let mut best = -INF;
        let mut best_sq = list[0].sq;
        for (i, c) in list[..count].iter().enumerate() {
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
                best_sq = c.sq;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.store(p, o, n, alpha0, beta, best, best_sq);
        best
    }

    /// Null-window search: is the value above `alpha` (window `alpha`, `alpha + 1`)? Fail-soft.
    fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32, b: &mut Budget<'_, '_>) -> i32 {
        if n < TT_MIN_EMPTIES {
            let e = !(p | o);
            return self.shallow(p, o, alpha, alpha + 1, e, parity_of(e), n);
        }
        self.nodes += 1;
        if self.nodes >= b.check_at && self.poll(b) {
            return 0;
        }

        if let Some(cap) = stability_cut(p, o, alpha) {
            return cap;
        }

        let mut tt_move = 64;
        if let Some(e) = self.probe_tt(p, o, n) {
            if e.sel >= self.sel {
                let (lo, up) = (i32::from(e.lower), i32::from(e.upper));
                if lo > alpha {
                    return lo;
                }
                if up <= alpha {
                    return up;
                }
            }
            tt_move = u32::from(e.best);
        }

        // ProbCut (selective passes only): when a shallow search lands far enough outside the
        // window, the exact value very probably does too.
        if self.sel < EXACT && n >= PROBCUT_MIN_EMPTIES {
            let (depth, sigma) = if n >= 20 {
                (4, PROBCUT_SIGMA_4)
            } else {
                (2, PROBCUT_SIGMA_2)
            };
            let margin = SELECTIVITY[self.sel as usize] * sigma / 100;
            let (high, low) = ((alpha + 1) * 16 + margin, alpha * 16 - margin);
            if self.probe(p, o, high - 1, high, n, depth) >= high {
                return alpha + 1;
            }
            if self.probe(p, o, low, low + 1, n, depth) <= low {
                return alpha;
            }
        }

        let mut list = [Candidate::default(); 32];
        let count = self.collect(p, o, &mut list);
        if count == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, n, b);
        }

        if n >= ETC_MIN_EMPTIES {
            for c in &list[..count] {
                let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
                // The child's upper bound, negated, is a lower bound for us.
                if let Some(e) = self.probe_tt(np, no, n - 1) {
                    if e.sel >= self.sel && -i32::from(e.upper) > alpha {
                        return -i32::from(e.upper);
                    }
                }
            }
        }

        let mut best = -INF;
        let mut best_sq = list[0].sq;
        let mut first = 0;
        // The table's move is searched before the others are scored: it cuts often enough that
        // the shallow searches of the sort would mostly be wasted.
        if let Some(k) = list[..count].iter().position(|c| c.sq == tt_move) {
            list.swap(0, k);
            let c = list[0];
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            best = -self.nws(np, no, -alpha - 1, n - 1, b);
            best_sq = c.sq;
            if best > alpha {
                self.store(p, o, n, alpha, alpha + 1, best, best_sq);
                return best;
            }
            first = 1;
        }
        // Only whether a move may reach alpha matters here: the probes stop as soon as the
        // opponent's reply shows a move is well below it.
        let ceiling = (SORT_WINDOW - alpha) * 16;
        self.score_moves(p, o, n, 64, &mut list[first..count], ceiling);
        for i in first..count {
            pick_best(&mut list[i..count]);
            let c = list[i];
            let (np, no) = (o & !c.flips, p | c.flips | (1 << c.sq));
            let v = -self.nws(np, no, -alpha - 1, n - 1, b);
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    break;
                }
            }
        }
        self.store(p, o, n, alpha, alpha + 1, best, best_sq);
        best
    }

    /// Records what a search in (`alpha`, `beta`) that returned `best` proved.
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, p: u64, o: u64, n: u32, alpha: i32, beta: i32, best: i32, best_sq: u32) {
        // A stopped subtree's value proves nothing, and the table must hold only facts.
        if self.stopped {
            return;
        }
        // Small subtrees hold no ProbCut, so their values are exact in every pass.
        let sel = if n < PROBCUT_MIN_EMPTIES {
            EXACT
        } else {
            self.sel
        };
        let key = hash(p, o);
        let merge = |e: Option<Entry>| -> Option<Entry> {
            let (mut lo, mut up) = (-64, 64);
            if let Some(e) = e {
                if e.sel > sel {
                    // Proven bounds outrank a guess.
                    return None;
                }
                if e.sel == sel {
                    lo = i32::from(e.lower);
                    up = i32::from(e.upper);
                }
            }
            if best > alpha {
                lo = lo.max(best);
            }
            if best < beta {
                up = up.min(best);
            }
            Some(Entry {
                p,
                o,
                lower: lo as i8,
                upper: up as i8,
                best: best_sq as u8,
                empties: n as u8,
                sel,
            })
        };
        // Near the end of the game, a small table that stays in cache (most table nodes are
        // there, and a probe that misses the cache costs as much as many small searches).
        if n <= NEAR_MAX_EMPTIES {
            let e = &mut self.near[key as usize & ((1 << NEAR_TT_BITS) - 1)];
            if let Some(new) = merge(e.holds(p, o).then_some(*e)) {
                *e = new;
            }
            return;
        }
        let i = self.bucket(key);
        let b = &self.table[i];
        // The position's own way, or else the one holding the smallest subtree.
        let (w, old) = match b.find(p, o) {
            Some((w, e)) => (w, Some(e)),
            None => {
                let empties = |w: usize| b.entry(w).empties;
                let mut w = 0;
                for v in 1..WAYS {
                    if empties(v) < empties(w) {
                        w = v;
                    }
                }
                (w, None)
            }
        };
        if let Some(new) = merge(old) {
            b.set(w, &new);
        }
    }

    /// The main table's bucket for a hash: its high bits scaled to the number of buckets,
    /// which need not be a power of two.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    /// What the table knows of the position (`p` to move, `n` empties).
    #[inline]
    fn probe_tt(&self, p: u64, o: u64, n: u32) -> Option<Entry> {
        let key = hash(p, o) as usize;
        if n <= NEAR_MAX_EMPTIES {
            let e = self.near[key & ((1 << NEAR_TT_BITS) - 1)];
            return e.holds(p, o).then_some(e);
        }
        let b = &self.table[self.bucket(key as u64)];
        b.find(p, o).map(|(_, e)| e)
    }

    /// The legal moves of `p`, with their flips, unsorted.
    #[inline]
    fn collect(&self, p: u64, o: u64, list: &mut [Candidate; 32]) -> usize {
        let mut m = moves(p, o);
        let mut count = 0;
        while m != 0 {
            let sq = m.trailing_zeros();
            list[count] = Candidate {
                sq,
                flips: flips(p, o, sq),
                key: 0,
            };
            count += 1;
            m &= m - 1;
        }
        count
    }

    /// Gives each move its sort key: the table's move first, then fewest replies for the
    /// opponent (corner replies counting double), a bonus for corners and for odd regions.
    ///
    /// The shallow searches run in the window (-inf, `ceiling`) from the opponent's side: a
    /// reply at `ceiling` or above ends the search (the move's key is then a bound).
    fn score_moves(
        &mut self,
        p: u64,
        o: u64,
        n: u32,
        tt_move: u32,
        list: &mut [Candidate],
        ceiling: i32,
    ) {
        let empties = !(p | o);
        let odd = odd_quadrants(empties);
        for c in list.iter_mut() {
            let bit = 1u64 << c.sq;
            if c.sq == tt_move {
                c.key = 1 << 30;
                continue;
            }
            let (np, no) = (o & !c.flips, p | c.flips | bit);
            let reply = moves(np, no);
            // Fastest first: the fewer replies (corners counting double), the smaller the tree.
            let mut key = -((reply.count_ones() + (reply & CORNERS).count_ones()) as i32) * 64;
            // Potential mobility: the fewer empties next to our discs, the fewer future replies.
            if n >= POTENTIAL_MOBILITY_MIN_EMPTIES {
                key -= (neighbours(no) & !(np | no)).count_ones() as i32 * 4;
            }
            if bit & CORNERS != 0 {
                key += 32;
            }
            if bit & X_SQUARES != 0 {
                key -= 32;
            }
            if bit & odd != 0 {
                key += 16;
            }
            if n >= SHALLOW_SORT_MIN_EMPTIES {
                // A shallow search: what the opponent can make of the position, roughly.
                // Measured on FFO #49/#50: each extra ply pays for itself only this far up
                // (the evaluations are most of the solver's time).
                let depth = match n {
                    24.. => 4,
                    20..=23 => 3,
                    18..=19 => 2,
                    _ => 1,
                };
                key -= self.probe(np, no, -PROBE_INF, ceiling, n - 1, depth) * PROBE_WEIGHT;
            }
            c.key = key;
        }
    }

    /// Generates and sorts the moves for a PV node (root or first line).
    fn sorted_moves(&mut self, p: u64, o: u64, n: u32, list: &mut [Candidate; 32]) -> usize {
        let count = self.collect(p, o, list);
        if count == 0 {
            return 0;
        }
        let tt_move = self.probe_tt(p, o, n).map_or(64, |e| u32::from(e.best));
        self.score_moves(p, o, n, tt_move, &mut list[..count], PROBE_INF);
        list[..count].sort_by_key(|c| -c.key);
        count
    }

    /// A cheap estimate for ordering: a depth-limited alpha-beta search whose leaves are a
    /// mobility-based evaluation. `n` empties, `depth` plies.
    fn probe(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32, depth: u32) -> i32 {
        if depth == 0 || n == 0 {
            return self.estimate.estimate(p, o);
        }
        let mut m = moves(p, o);
        if m == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o) * 16;
            }
            return -self.probe(o, p, -beta, -alpha, n, depth - 1);
        }
        let mut best = -PROBE_INF;
        if depth == 1 {
            // The children are leaves: the estimate rates them together, sharing the work.
            self.estimate.estimate_children(p, o, m, &mut |v| {
                let v = -v;
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return false;
                        }
                    }
                }
                true
            });
            return best;
        }
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = flips(p, o, sq);
            let v = -self.probe(o & !f, p | f | (1 << sq), -beta, -alpha, n - 1, depth - 1);
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

    /// Few empties: no table, no move list. Tries the empties in odd quadrants first;
    /// `parity` has bit q set when quadrant q holds an odd number of empties.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        if n == 2 {
            return self.solve_2(p, o, alpha, beta, empties);
        }
        if n == 1 {
            self.nodes += 1;
            return solve_1(p, o, empties.trailing_zeros());
        }
        self.nodes += 1;
        // Here too: the cut-off saves more nodes in the last empties than anywhere (about half
        // of FFO #48's 120 M) now that the stable discs cost a few dozen shifts.
        if let Some(cap) = stability_cut_few(o, alpha, empties) {
            return cap;
        }
        let mut best = -INF;
        let odd = empties & PARITY_MASKS[parity as usize];
        for set in [odd, empties & !odd] {
            let mut s = set;
            while s != 0 {
                let sq = s.trailing_zeros();
                s &= s - 1;
                // Only squares next to an opponent disc can flip anything.
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let v = -self.shallow(
                    o & !f,
                    p | f | bit,
                    -beta,
                    -alpha,
                    empties ^ bit,
                    parity ^ quadrant(sq),
                    n - 1,
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        if moves(o, p) == 0 {
            return final_score(p, o);
        }
        -self.shallow(o, p, -beta, -alpha, empties, parity, n)
    }

    /// Two empties, `p` to move: both orders tried directly, the pass handled in place.
    fn solve_2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let a = empties.trailing_zeros();
        let b = 63 - empties.leading_zeros();
        let mut best = -INF;
        for (x, y) in [(a, b), (b, a)] {
            if NEIGHBOURS[x as usize] & o == 0 {
                continue;
            }
            let f = flips(p, o, x);
            if f != 0 {
                self.nodes += 1;
                let v = -solve_1(o & !f, p | f | (1 << x), y);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        // We pass: the opponent picks, and every value is ours after its move.
        let mut worst = INF;
        for (x, y) in [(a, b), (b, a)] {
            if NEIGHBOURS[x as usize] & p == 0 {
                continue;
            }
            let f = flips(o, p, x);
            if f != 0 {
                self.nodes += 1;
                let v = solve_1(p & !f, o | f | (1 << x), y);
                if v < worst {
                    worst = v;
                    if v <= alpha {
                        return v;
                    }
                }
            }
        }
        if worst < INF {
            return worst;
        }
        final_score(p, o)
    }
}

/// The stability cut-off: the opponent's stable discs are lost to us for good, so our score is
/// at most 64 minus twice their number; `Some(cap)` when that fails low against `alpha`.
#[inline]
fn stability_cut(p: u64, o: u64, alpha: i32) -> Option<i32> {
    // Only worth counting when the opponent has few enough discs for a cut to be possible.
    if alpha < STABILITY_MIN_ALPHA || 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}

/// [`stability_cut`] with the empties at hand, for the last few of them: the full lines from
/// the lines through each empty (FFO #45–#49 about 4% faster; at the table nodes, 7 to 9
/// empties, it was slower).
#[inline]
fn stability_cut_few(o: u64, alpha: i32, empties: u64) -> Option<i32> {
    if alpha < STABILITY_MIN_ALPHA || 64 - 2 * (o.count_ones() as i32) > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs_few(o, empties).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}

/// The bit of the quadrant holding `sq` in a parity set.
#[inline]
fn quadrant(sq: u32) -> u32 {
    1 << (((sq >> 2) & 1) | ((sq >> 4) & 2))
}

/// The parity bits of a set of empties.
#[inline]
fn parity_of(empties: u64) -> u32 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() & 1) << q;
    }
    parity
}

/// The squares of the quadrants named by each set of parity bits.
const PARITY_MASKS: [u64; 16] = {
    let mut m = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut q = 0;
        while q < 4 {
            if bits & (1 << q) != 0 {
                m[bits] |= QUADRANTS[q];
            }
            q += 1;
        }
        bits += 1;
    }
    m
};

/// The squares around each square.
const NEIGHBOURS: [u64; 64] = {
    let mut m = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut df = -1;
        while df <= 1 {
            let mut dr = -1;
            while dr <= 1 {
                let (nf, nr) = (f + df, r + dr);
                if (df != 0 || dr != 0) && nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    m[sq] |= 1 << (nr * 8 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    m
};

/// The move with the highest key to the front (a selection step: most nodes cut on the first
/// move, so a full sort would be wasted).
#[inline]
fn pick_best(list: &mut [Candidate]) {
    let mut best = 0;
    for i in 1..list.len() {
        if list[i].key > list[best].key {
            best = i;
        }
    }
    list.swap(0, best);
}

/// The built-in ordering estimate: the textbook's terms (square weights, mobility, potential
/// mobility, corners), roughly scaled. Any [`Estimate`] can replace it through
/// [`Solver::with_estimate`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RoughEstimate;

impl Estimate for RoughEstimate {
    #[inline]
    fn estimate(&self, p: u64, o: u64) -> i32 {
        rough_estimate(p, o)
    }
}

/// Lets a shared evaluation (`Solver<Arc<dyn Estimate>>`) serve several solvers at once.
impl<E: Estimate + ?Sized> Estimate for Arc<E> {
    #[inline]
    fn estimate(&self, p: u64, o: u64) -> i32 {
        (**self).estimate(p, o)
    }

    #[inline]
    fn estimate_children(&self, p: u64, o: u64, moves: u64, visit: &mut dyn FnMut(i32) -> bool) {
        (**self).estimate_children(p, o, moves, visit);
    }
}

#[inline]
fn rough_estimate(p: u64, o: u64) -> i32 {
    let mp = moves(p, o).count_ones() as i32;
    let mo = moves(o, p).count_ones() as i32;
    let e = !(p | o);
    let pot = (neighbours(o) & e).count_ones() as i32 - (neighbours(p) & e).count_ones() as i32;
    let mut sw = 0;
    let mut b = p;
    while b != 0 {
        sw += crate::SQUARE_WEIGHTS[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    let mut b = o;
    while b != 0 {
        sw -= crate::SQUARE_WEIGHTS[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    (sw + (mp - mo) * 10 + pot * 3 + corners * 50) / 8
}

/// Solves `pos` with a fresh default solver: a convenience for one-off use.
pub fn solve(pos: &Othello) -> Solution {
    Solver::default().solve(pos)
}

/// The value of every legal move, best first, for `duel solve` to list all best moves: each
/// move is solved exactly (the table is shared, so later moves are cheaper).
pub fn solve_all_moves<E: Estimate>(solver: &mut Solver<E>, pos: &Othello) -> Vec<(Move, i32)> {
    let mut list = Vec::new();
    pos.generate_moves(&mut list);
    let mut out: Vec<(Move, i32)> = list
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play(mv);
            (mv, -solver.solve(&child).score)
        })
        .collect();
    out.sort_by_key(|&(mv, v)| (-v, mv));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry reads back as written, at the extremes of every field; one whose words come
    /// from two writes (another thread's write half done) is not found for either position.
    #[test]
    fn table_entries_round_trip_and_torn_ones_are_ignored() {
        let b = Bucket::default();
        let a = Entry {
            p: 0x0000_0018_1000_0000,
            o: 0x0000_0000_0810_0000,
            lower: -64,
            upper: 64,
            best: 64,
            empties: 60,
            sel: EXACT,
        };
        let c = Entry {
            p: 0x0000_0000_0800_0000,
            o: 0x0000_0010_1000_0000,
            lower: 2,
            upper: -2,
            best: 0,
            empties: 0,
            sel: 0,
        };
        for e in [a, c] {
            b.set(1, &e);
            let (w, got) = b.find(e.p, e.o).expect("stored");
            assert_eq!(
                (w, got.lower, got.upper, got.best, got.empties, got.sel),
                (1, e.lower, e.upper, e.best, e.empties, e.sel)
            );
        }
        // c in place, then a's first board and data but not yet its mixed second board.
        b.p[1].store(a.p, Ordering::Relaxed);
        b.data[1].store(pack(&a), Ordering::Relaxed);
        assert!(b.find(a.p, a.o).is_none() && b.find(c.p, c.o).is_none());
        b.clear();
        assert!((0..WAYS).all(|w| b.entry(w).p == 0 && b.entry(w).o == 0));
    }

    /// FFO #26-#34 (20 empties each), exact scores from the file.
    fn positions() -> Vec<(Othello, i32)> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../data/othello/ffo-1-39.txt"
        );
        let text = std::fs::read_to_string(path).expect("data/othello/ffo-1-39.txt");
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|f| (26..=34).contains(&f[0].parse::<u32>().unwrap_or(0)))
            .map(|f| {
                let pos = Othello::from_text(&format!("{} {}", f[1], f[2])).expect("FFO position");
                (pos, f[3].parse().expect("score"))
            })
            .collect()
    }

    /// A selective pass fills the table with bounds that may be wrong; the exact search after
    /// it, in the same table, must not use them.
    #[test]
    fn exact_search_ignores_selective_bounds() {
        let mut solver = Solver::new(18);
        let mut wrong = 0;
        for (pos, score) in positions() {
            solver.clear();
            // The loosest level, from a window where its cuts are wrong most often.
            solver.sel = 0;
            for (a, b) in [(-64, 64), (score - 3, score - 1), (score + 1, score + 3)] {
                let s = solver.solve_window(&pos, a, b).score;
                wrong += usize::from((a == -64 && s != score) || (a != -64 && s > a && s < b));
            }
            solver.sel = EXACT;
            assert_eq!(solver.solve_window(&pos, -64, 64).score, score);
            assert_eq!(solver.solve_window(&pos, score - 1, score + 1).score, score);
        }
        // The test means something only if the selective passes did leave wrong values.
        assert!(wrong > 0, "no selective pass went wrong");
    }
}
