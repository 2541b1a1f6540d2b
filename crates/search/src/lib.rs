//! Game-tree search for any [`duel_core::Game`].
//!
//! Two families live here:
//! - [`reference`](mod@reference): the algorithms exactly as the founding texts teach them (Minimax as a Max/Min
//!   pair, Negamax, Alpha-beta fail-hard and fail-soft, the two-phase build-then-back-up
//!   procedure, search under a node budget). Small, readable, and the oracle for tests.
//! - [`searcher`]: the [`Searcher`], what strong engines do (iterative deepening, principal variation search, a
//!   transposition table, aspiration windows, MTD(f), move ordering, quiescence, null move,
//!   late-move reductions, mate-distance pruning, limits, Lazy SMP).
//!
//! Every search answers with the same [`Report`]; [`timeman`] turns a game clock into its time
//! limits.

pub mod reference;
mod report;
pub mod searcher;
pub mod timeman;
pub mod tree;
pub mod tt;

pub use reference::{Reference, ReferenceOptions};
pub use report::{Report, Stats};
pub use searcher::{Limits, Probed, SearchConfig, Searcher};
pub use tree::{Tree, TreeNode};
pub use tt::TtError;
