//! A game's search profile: which of the engine search's selective techniques suit it, and
//! their margins. It lives with the game, in the game's crate, because it is knowledge of the
//! game (chess trees are wide and most moves bad; tic-tac-toe is searched to its end); the
//! search reads it through `SearchConfig::with_profile`.

#[cfg(doc)]
use crate::{Evaluator, Game};

/// The selective techniques a game turns on, in the evaluator's units. The default turns
/// every one off: the plain engine search, exact against the reference algorithms but for
/// the table and quiescence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchProfile {
    /// Null-move pruning, where the game and the evaluator allow it.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
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
    /// Continuation history: quiet moves are also ordered by how they fared after the same
    /// move one and two plies before (by [`Game::piece_move_index`]), which knows that a
    /// reply is good after *this* move where plain history only knows it is good somewhere.
    pub continuation: bool,
    /// Correction history: the static value is corrected by how far, on average, searches
    /// of positions with the same [`Game::structure_key`] found it to be off, learnt where a
    /// search's value bounds the error in a known direction. Acts wherever the static value
    /// does (pruning, quiescence's stand-pat).
    pub correction: bool,
    /// Exchange pruning: near the horizon, once one move has been searched, moves that lose
    /// material by static exchange ([`Evaluator::exchange_at_least`]) beyond a margin that
    /// grows with the depth are skipped (a move that gives check gets the larger margin of
    /// the two kinds), and quiescence skips the captures whose exchange cannot bring the
    /// value within a margin of alpha. The margins are in the evaluator's units, set for a
    /// pawn of about 100 (chess).
    pub exchange_pruning: bool,
    /// Exchange pruning spares every move that gives check, not only those within the larger
    /// margin: a check that gives up a chariot is how most xiangqi mates begin, and the
    /// larger margin pruned the first move of one of the mate puzzles' mates in 11 up to
    /// depth 20 (docs/BENCHMARKS.md, "Xiangqi: checks spared by exchange pruning").
    pub exchange_spares_checks: bool,
    /// Multi-ProbCut ([`Evaluator::probcut`]): the selectivity, the number of the evaluator's
    /// sigmas, in hundredths, a shallow search must clear beta (or alpha) by for the node to
    /// cut without its deep search; 0 turns it off. 110 cuts where the deep search agrees
    /// about 86% of the time on one side (Edax's "73%" level counts both tails), 330 about
    /// 99.95%.
    pub probcut: i32,
}

impl SearchProfile {
    /// Every technique off (the default, as a constant for trait defaults).
    pub const NONE: SearchProfile = SearchProfile {
        null_move: false,
        lmr: false,
        futility: 0,
        iir: false,
        late_move_pruning: false,
        singular: 0,
        continuation: false,
        correction: false,
        exchange_pruning: false,
        exchange_spares_checks: false,
        probcut: 0,
    };
}

impl Default for SearchProfile {
    fn default() -> Self {
        SearchProfile::NONE
    }
}
