//! The duel engine facade: which game, which evaluator, which position, which limits.
//!
//! A front end names the game at run time; [`open`] dispatches that choice once, to a generic
//! [`GameSession`] monomorphised over the game and its evaluator, and hands back a
//! `Box<dyn Session>`. Every search then runs in generic code: the only dynamic call is the one
//! that starts it. The facade speaks in typed reports ([`SearchReport`], [`Solution`],
//! [`BenchResult`], [`CompareRow`], [`TreeNode`]) with moves in each game's notation, and leaves
//! all formatting to the front ends.
//!
//! ```
//! let mut s = duel_engine::open("tictactoe", None).unwrap();
//! s.set_position("5", &["1"]).unwrap();
//! assert_eq!(s.position(), "51");
//! assert!(s.play("5").is_err()); // the centre is taken
//! ```

mod error;
mod registry;
mod report;
mod session;

pub use duel_core::solve::{
    Distance, MoveBounds, MoveProgress, MoveValue, QuickSolve, Solution, SolveError, SolveLimits,
    SolveProgress, SolveStep, SolveStop, Unfinished,
};
pub use duel_core::{
    BoardStyle, BoardView, GameInfo, MoveCells, Outcome, Piece, RecordInfo, Score, Side,
    SolverStopped,
};
/// The kind of value a table entry holds ([`TableProbe::bound`]).
pub use duel_search::tt::Bound;
pub use duel_search::{tree, Reference, Stats, TreeNode};
pub use duel_search::{Limits, SearchConfig, Searcher};
// The time manager is the searcher's; front ends have long found it here.
pub use duel_search::timeman;
pub use error::EngineError;
pub use registry::{
    evaluators, game, game_name, games, open, open_with, split_variant, with_game, GameEntry,
    GameVisitor,
};
pub use report::{
    parse_reference, per_second, Algorithm, BenchEntry, BenchResult, CompareRow, SearchReport,
    TREE_ALGORITHMS,
};
pub use session::{GameSession, Session, TableProbe};

/// The largest transposition table any front end accepts, in MiB (UCI's `Hash`, the CLI's
/// `--hash`). A size the machine cannot give is refused when it is set.
pub const HASH_MAX_MB: usize = duel_search::tt::MAX_MB;

/// The most search threads worth running: the cores this process may use (its affinity and
/// cgroup quota, as the standard library reads them). Lazy SMP threads beyond the cores only
/// take turns with each other, so every front end caps its thread count to this (UCI's and
/// UCCI's `Threads`, the CLI's `--threads`), saying so.
pub fn threads_max() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
