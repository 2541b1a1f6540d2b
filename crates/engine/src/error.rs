use duel_core::{MoveError, Outcome, PositionError};
use thiserror::Error;

/// Why the engine refused a request. Every variant names the input that was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The game name is not one duel knows.
    #[error("unknown game '{name}' (known games: {known})")]
    UnknownGame {
        /// The name as given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// The evaluator name is not one the game has.
    #[error("unknown evaluator '{name}' for {game} (known evaluators: {known})")]
    UnknownEvaluator {
        /// The game.
        game: &'static str,
        /// The name as given.
        name: String,
        /// The game's evaluators, comma-separated.
        known: String,
    },
    /// An evaluator's weights file could not be read or is not one.
    #[error("evaluator file '{path}': {reason}")]
    EvalFile {
        /// The path as given.
        path: String,
        /// Why it was refused.
        reason: String,
    },
    /// A weights file was given for an evaluator that reads none.
    #[error("the {game} evaluator '{eval}' reads no file (chess's net does)")]
    NoEvalFile {
        /// The game.
        game: &'static str,
        /// The evaluator.
        eval: &'static str,
    },
    /// The game has no on/off option of this name.
    #[error("{game} has no switch '{name}'")]
    UnknownSwitch {
        /// The game.
        game: &'static str,
        /// The name as given.
        name: String,
    },
    /// The algorithm name is not one duel knows (or not one this operation accepts).
    #[error("unknown algorithm '{name}' (known algorithms: {known})")]
    UnknownAlgorithm {
        /// The name as given.
        name: String,
        /// The accepted names, comma-separated.
        known: String,
    },
    /// The position text was refused by the game.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// One move of a move list given with a position was refused.
    // Not named `source`: the message already says why, and a source would be printed twice.
    #[error("move {index} of the move list: {reason}")]
    MoveList {
        /// 1-based index of the move in the list.
        index: usize,
        /// Why it was refused.
        reason: MoveError,
    },
    /// A move was refused.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The operation needs a game still in progress.
    #[error("the game is already over ({})", outcome_words(*.0))]
    GameOver(Outcome),
    /// A depth of zero where at least one ply is needed.
    #[error("depth must be at least 1")]
    ZeroDepth,
    /// The game has no exact solver for positions like this one.
    #[error("{game} positions are not solved exactly here: use analyze for a search")]
    NotSolvable {
        /// The game.
        game: &'static str,
    },
    /// A limit stopped a solve before it proved the value; what it had found comes with it.
    #[error("unfinished: {}", unfinished_words(.0))]
    Unfinished(Box<crate::Unfinished>),
    /// A solve that would take far more than minutes, asked for without any limit.
    #[error(
        "this {game} position is too far from the end to solve without a limit: {distance} \
         ({takes}); give a time or node limit to try anyway"
    )]
    TooFarFromEnd {
        /// The game.
        game: &'static str,
        /// How far the position is from the end, and how far a solve without a limit goes.
        distance: Distance,
        /// What such solves take, as measured.
        takes: &'static str,
    },
    /// The transposition table of the size asked for cannot be had.
    #[error(transparent)]
    Hash(#[from] duel_search::TtError),
    /// A recorded tree would be larger than the cap.
    #[error("the tree has more than {cap} nodes (the cap): lower the depth or raise the cap")]
    TreeTooLarge {
        /// The cap.
        cap: u64,
    },
}

/// How far a position is from the end of the game, and how far a solve without a limit goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distance {
    /// Empty squares (Othello): a solve without a limit takes on at most `most`.
    EmptySquares {
        /// The position's empty squares.
        count: u32,
        /// The most a solve without a limit takes on.
        most: u32,
    },
    /// Stones on the board (Connect Four): a solve without a limit needs at least `fewest`.
    Stones {
        /// The position's stones.
        count: u32,
        /// The fewest a solve without a limit takes on.
        fewest: u32,
    },
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Distance::EmptySquares { count, most } => {
                write!(f, "{count} empty squares, more than {most}")
            }
            Distance::Stones { count: 0, .. } => write!(f, "the empty board"),
            Distance::Stones { count, fewest } => {
                let stones = if count == 1 { "stone" } else { "stones" };
                write!(f, "{count} {stones}, fewer than {fewest}")
            }
        }
    }
}

fn unfinished_words(u: &crate::Unfinished) -> String {
    let by = match u.stop {
        crate::SolveStop::Nodes(n) => format!("the node limit ({n})"),
        crate::SolveStop::Time(t) => format!("the time limit ({} ms)", t.as_millis()),
        crate::SolveStop::Flag => "a stop".to_string(),
    };
    format!(
        "stopped by {by} after {} nodes, {} of {} moves solved",
        u.nodes,
        u.solved.len(),
        u.solved.len() + usize::from(u.current.is_some()) + u.untried
    )
}

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "won by the side to move",
        Outcome::Loss => "lost by the side to move",
        Outcome::Draw => "drawn",
    }
}
