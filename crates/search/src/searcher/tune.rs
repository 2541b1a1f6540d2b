//! Tuning constants, in one place.

/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;
/// Aspiration: first half-width, in evaluation units, and the depth it starts at.
pub const ASPIRATION_WINDOW: i32 = 25;
pub const ASPIRATION_FROM_DEPTH: u32 = 4;
/// Null move: reduction R = 2 + depth / 4 (Heinz's adaptive null move, simplified).
pub const NULL_MIN_DEPTH: u32 = 3;
/// Within this many plies of a counting draw rule's end (chess: half-move clock 90 or more, as
/// Stockfish), a table value is not taken: it may have been stored under another count.
pub const COUNT_DRAW_MARGIN: u32 = 10;
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
