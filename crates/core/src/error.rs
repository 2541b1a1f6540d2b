use thiserror::Error;

/// Why a move text was refused. Syntax is checked before legality, so a user learns first
/// whether the text could be a move at all and only then whether it can be played here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in the game's notation.
    #[error("'{text}' is not a move in {game}: {reason}")]
    Syntax {
        /// The text as given.
        text: String,
        /// The game's name.
        game: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is a well-formed move, but it cannot be played in this position.
    #[error("'{text}' is not legal here: {reason}")]
    Illegal {
        /// The text as given.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl MoveError {
    /// A syntax error for `text` in `game`.
    pub fn syntax(game: &'static str, text: &str, reason: impl Into<String>) -> Self {
        MoveError::Syntax {
            text: text.to_string(),
            game,
            reason: reason.into(),
        }
    }

    /// A legality error for `text`.
    pub fn illegal(text: &str, reason: impl Into<String>) -> Self {
        MoveError::Illegal {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// Why a position text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid {game} position '{text}': {reason}")]
pub struct PositionError {
    /// The game's name.
    pub game: &'static str,
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl PositionError {
    /// A position error for `text` in `game`.
    pub fn new(game: &'static str, text: &str, reason: impl Into<String>) -> Self {
        PositionError {
            game,
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}
