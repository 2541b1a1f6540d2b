//! The public switches: when to stop ([`Limits`]) and how to search ([`SearchConfig`]).

use std::time::Duration;

use duel_core::SearchProfile;

/// When to stop. All `None`: until stopped from outside, or until the value is proven.
///
/// ```
/// use std::time::Duration;
/// use duel_core::Game;
/// use duel_search::{Limits, SearchConfig, Searcher};
/// use duel_tictactoe::{OpenLines, TicTacToe};
///
/// let mut searcher = Searcher::new(OpenLines, SearchConfig::default());
/// let pos = TicTacToe::start();
/// // Whichever limit comes first stops the search.
/// let limits = Limits { depth: Some(4), time: Some(Duration::from_secs(5)), ..Limits::default() };
/// let r = searcher.search(&pos, &limits, |_| {});
/// assert_eq!(r.depth, 4);
/// // With no limit at all, tic-tac-toe is searched to its end: a draw.
/// let r = searcher.search(&pos, &Limits::default(), |_| {});
/// assert_eq!(r.value, duel_core::Score::DRAW);
/// ```
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
    /// ([`Report::lines`](crate::Report::lines)), as analysis GUIs ask with UCI `MultiPV`.
    pub multipv: usize,
    /// Iterative deepening (depth 1, 2, ...). Off: one search at the depth limit (or to the
    /// end of the game with no limit), as the texts' fixed-depth search does; only sensible
    /// with a depth limit the game can afford, or a game short enough to search to its end.
    pub iterative: bool,
    /// Search a forcing position a ply deeper (the evaluator's `Evaluator::extend`: chess
    /// and xiangqi in check, Gomoku against a five), within twice the iteration's depth. Off,
    /// every line stops at the depth asked, as the texts' fixed-depth search does.
    pub extensions: bool,
    /// Prune and reduce more where the side to move's static value has fallen since its last
    /// move (two plies up), less where it has risen: a position getting better for the side
    /// to move is more likely to fail high, one getting worse more likely to fail low. Acts
    /// through reverse futility, late-move pruning and late-move reductions, where those are on.
    pub improving: bool,
    /// The selective techniques and their margins (null move, LMR, futility, IIR, late-move
    /// pruning, singular extensions, continuation and correction history, exchange pruning,
    /// ProbCut): a game's own in [`SearchConfig::with_profile`], all off by default.
    pub profile: SearchProfile,
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
            exact_hook: true,
            candidates: true,
            tt_same_depth_only: false,
            iterative: true,
            multipv: 1,
            improving: false,
            extensions: true,
            profile: SearchProfile::NONE,
        }
    }
}

impl SearchConfig {
    /// The defaults with a game's selective techniques turned on ([`SearchProfile`]).
    pub fn with_profile(profile: &SearchProfile) -> Self {
        SearchConfig {
            profile: *profile,
            ..SearchConfig::default()
        }
    }
}
