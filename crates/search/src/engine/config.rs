//! The public switches: when to stop ([`Limits`]) and how to search ([`SearchConfig`]).

use std::time::Duration;

use duel_core::SearchProfile;

/// When to stop. All `None`: until stopped from outside, or until the value is proven.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete iterations up to this depth; a depth past the ply limit (`Score::MAX_PLY` −
    /// 10, where a search without a depth limit stops too) is held to it.
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
    /// Search only the evaluator's candidate moves (`Evaluator::prune_moves`: Gomoku's cells
    /// near the stones, the blocks of a threat); off, every legal move, as the textbook
    /// algorithms search.
    pub candidates: bool,
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
    /// Exchange pruning spares every move that gives check, not only those within the larger
    /// margin: a check that gives up a chariot is how most xiangqi mates begin, and the
    /// larger margin pruned the first move of one of the mate puzzles' mates in 11 up to
    /// depth 20 (docs/BENCHMARKS.md, "Xiangqi: checks spared by exchange pruning").
    pub exchange_spares_checks: bool,
    /// Correction history: the static value is corrected by how far, on average, searches
    /// of positions with the same [`Game::structure_key`] found it to be off, learnt where a
    /// search's value bounds the error in a known direction. Acts wherever the static value
    /// does (pruning, quiescence's stand-pat).
    pub correction: bool,
    /// Multi-ProbCut ([`Evaluator::probcut`]): the selectivity, the number of the evaluator's
    /// sigmas, in hundredths, a shallow search must clear beta (or alpha) by for the node to
    /// cut without its deep search; 0 turns it off. 110 cuts where the deep search agrees
    /// about 86% of the time on one side (Edax's "73%" level counts both tails), 330 about
    /// 99.95%.
    pub probcut: i32,
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
            candidates: true,
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
            exchange_spares_checks: false,
            probcut: 0,
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
            exchange_spares_checks: p.exchange_spares_checks,
            probcut: p.probcut,
            ..SearchConfig::default()
        }
    }
}
