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
    /// The variant after the game's name was refused by the game.
    #[error("'{name}': no such variant of {game}: {reason}")]
    Variant {
        /// The whole name as given.
        name: String,
        /// The game's name.
        game: &'static str,
        /// Why it was refused.
        reason: String,
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
    /// A solve gave no value: no solver, too far from the end, or stopped by a limit.
    #[error(transparent)]
    Solve(#[from] duel_core::solve::SolveError),
    /// The evaluator could not be made: unknown, or its file refused.
    #[error(transparent)]
    Evaluator(#[from] duel_core::EvaluatorError),
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

fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "won by the side to move",
        Outcome::Loss => "lost by the side to move",
        Outcome::Draw => "drawn",
    }
}
