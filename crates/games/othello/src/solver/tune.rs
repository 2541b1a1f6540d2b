//! The solver's measured thresholds and margins, in one place: where each phase begins (by
//! empty squares), how the ordering weighs its terms, and ProbCut's confidence levels. Each
//! says what measurement chose it (FFO positions, docs/BENCHMARKS.md).

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
pub(super) const PROBE_WEIGHT: i32 = 4;

/// The stability cut-off is tried only from this alpha up: below it a cut needs so many
/// stable discs that the test rarely pays for itself.
pub(super) const STABILITY_MIN_ALPHA: i32 = 4;

/// How far below alpha (in discs) the sort's shallow searches at null-window nodes still rate
/// moves precisely: below it, a move only needs to be known as bad, and the search stops at
/// the first reply that shows it (Edax's margin). FFO #50: 30.5–31.0 s against 32.0 s with
/// full windows (2 discs: slower; 16: the same as 8).
pub(super) const SORT_WINDOW: i32 = 8;

/// Positions with at most this many empties use the small table. 10 rather than 9 once the
/// table fits the 1 MiB level-2 cache: FFO #45–#49 about 2.5% faster (11: no faster, more nodes).
pub(super) const NEAR_MAX_EMPTIES: u32 = 10;

/// The small table: 2^14 entries (384 KiB), small enough to stay in a 1 MiB level-2 cache. At
/// 2^16 (1.5 MiB) the probes missed it: FFO #45–#49 took 22.1 s against 20.1 s at 2^14 with
/// 0.5% more nodes (2^15: in between; 2^13: no faster).
pub(super) const NEAR_TT_BITS: u32 = 14;

/// From this many empties up, [`Solver::solve`](super::Solver::solve) guesses the value with a selective search and
/// searches a window around it first.
pub const GUESS_MIN_EMPTIES: u32 = 18;

/// The selective search tries every move below this many empties (and solves exactly there).
pub(super) const SELECTIVE_MIN_EMPTIES: u32 = 10;

/// How many moves the selective search tries at its larger nodes.
pub(super) const SELECTIVE_WIDTH: usize = 2;

/// Potential mobility joins the sort key from this many empties up; nearer the end it changes
/// the order too rarely to pay for itself.
pub(super) const POTENTIAL_MOBILITY_MIN_EMPTIES: u32 = 10;

/// ProbCut's confidence levels for the passes before the exact one, in hundredths of the
/// shallow search's standard error: a node is cut when the shallow value lies this many
/// errors beyond the window. [`EXACT`] (past the end) is the exact search. On FFO #53 four
/// levels (1, 1.5, 2, 3) took 86 s, one (1.5) 93 s, these two 76 s.
pub(super) const SELECTIVITY: [i32; 2] = [100, 200];

/// The selectivity level of the exact search: no ProbCut, every bound proven.
pub(super) const EXACT: u8 = SELECTIVITY.len() as u8;

/// ProbCut tries nodes from this many empties up; below, subtrees are solved exactly even in
/// the selective passes (so what the table holds for them is exact whatever the pass).
pub(super) const PROBCUT_MIN_EMPTIES: u32 = 12;

/// From this many empties up, [`Solver::solve`](super::Solver::solve) first runs the selective passes, which leave
/// in the table the best moves the exact pass then tries first.
pub const PROBCUT_ID_MIN_EMPTIES: u32 = 20;

/// The fewest empties at which the root's moves are shared between threads: below, a solve
/// takes about a millisecond, no more than starting the threads.
pub const PARALLEL_MIN_EMPTIES: u32 = 16;

/// The standard deviation, in 1/16 disc, of a 2-ply and a 4-ply search with the pattern
/// evaluator from the exact score (about 7 and 6 discs at 12 to 24 empties, measured by
/// `examples/probcut_sigma.rs`).
pub(super) const PROBCUT_SIGMA_2: i32 = 112;
pub(super) const PROBCUT_SIGMA_4: i32 = 96;
